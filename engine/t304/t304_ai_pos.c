/* t304_ai_pos.c: the compact position the Trump304 search plays on (every
 * card placed), its rules, the playout policy and the exact endgame solver.
 */
#include <string.h>
#include "t304_ai_internal.h"
#include "minimax.h"

static inline int pts_of(card c)
{
	static const int8_t rank_pts[RANK_COUNT] = { 0, 0, 2, 3, 10, 11, 20, 30 };
	return rank_pts[c & 7];
}

static int trick_pts(const t3pos *p)
{
	int s = 0;
	for (int i = 0; i < p->n; i++)
		s += pts_of(p->card[i]);
	return s;
}

/* As t304_trick_best on the trick in play. */
static int best_of(const t3pos *p)
{
	int led = card_suit(p->card[0]), best = 0, best_cut = p->cut & 1;
	for (int i = 1; i < p->n; i++) {
		int cut = p->cut >> i & 1;
		if (cut && (!best_cut || p->card[i] > p->card[best])) {
			best = i;
			best_cut = 1;
		} else if (!best_cut && !cut && card_suit(p->card[i]) == led && p->card[i] > p->card[best]) {
			best = i;
		}
	}
	return best;
}

cardset t3_legal(const t3pos *p)
{
	cardset h = p->hand[p->turn];
	if (p->must_cut == p->turn) {
		cardset tr = h & suit_mask(p->tsuit);
		return tr ? tr : h;
	}
	if (p->n == 0)
		return h;
	cardset led = h & suit_mask(card_suit(p->card[0]));
	return led ? led : h;
}

int t3_may_reveal(const t3pos *p)
{
	return p->aside && p->n > 0 && p->must_cut != p->turn &&
	       !(p->hand[p->turn] & suit_mask(card_suit(p->card[0])));
}

static void unveil(t3pos *p)
{
	p->aside = 0;
	p->hand[p->trumper] |= card_bit(p->tcard);
}

void t3_reveal(t3pos *p)
{
	unveil(p);
	p->must_cut = p->turn;
}

void t3_start(t3pos *p, int leader)
{
	p->n = 0;
	p->cut = 0;
	p->turn = (uint8_t)leader;
	p->must_cut = T3_NONE;
	if (p->trick_no == p->ntricks - 1 && p->aside)
		unveil(p);
}

static int spoilt_now(const t3pos *p)
{
	cardset suit = suit_mask(p->tsuit);
	return ((p->held[p->trumper] | card_bit(p->tcard)) & suit) == suit;
}

void t3_play(t3pos *p, card c)
{
	int s = p->turn;
	int cut = !p->aside && card_suit(c) == p->tsuit && p->n > 0 && card_suit(p->card[0]) != p->tsuit;
	p->hand[s] &= ~card_bit(c);
	p->seat[p->n] = (uint8_t)s;
	p->card[p->n] = c;
	if (cut)
		p->cut |= (uint8_t)(1u << p->n);
	p->n++;
	p->must_cut = T3_NONE;
	if (p->n < p->nseats) {
		p->turn = (uint8_t)((s + 1) % p->nseats);
		return;
	}
	int w = p->seat[best_of(p)];
	if (t3_side(p, w) == 0)
		p->pts = (int16_t)(p->pts + trick_pts(p));
	if (p->npile > 0) {
		for (int k = 0; k < 2 && p->npile > 0; k++) {
			int d = k == 0 ? w : (w + 1) % p->nseats;
			card x = p->pile[T304_PILE - p->npile];
			p->npile--;
			p->hand[d] |= card_bit(x);
			p->held[d] |= card_bit(x);
		}
		if (p->npile == 0 && spoilt_now(p)) {
			p->over = p->spoilt = 1;
			return;
		}
	}
	p->trick_no++;
	if (p->trick_no >= p->ntricks) {
		p->n = 0;
		p->over = 1;
		return;
	}
	t3_start(p, w);
}

double t3_value(const t3pos *p, int me)
{
	if (p->spoilt)
		return 0;
	int made = p->pts >= p->bid;
	int mine = t3_side(p, me) == 0;
	double u;
	if (mine)
		u = (made ? t304_payoff(p->bid) : -t304_charge(p->bid)) * (p->nseats == 3 ? 2 : 1);
	else
		u = made ? -t304_payoff(p->bid) : t304_charge(p->bid);
	int pts = mine ? p->pts : 304 - p->pts;
	return u + pts * 0.002;
}

/* ---- the playout policy ---- */

/* Trumps of s that would win the trick as a cut now. */
static cardset cutters(const t3pos *p, cardset s)
{
	cardset tr = s & suit_mask(p->tsuit);
	int b = best_of(p);
	if (p->cut >> b & 1)
		tr &= ~((card_bit(p->card[b]) << 1) - 1);
	return tr;
}

card t3_policy(t3pos *p, rng *r, int noise)
{
	cardset legal = t3_legal(p);
	if (!(legal & (legal - 1)) && !t3_may_reveal(p))
		return cardset_first(legal);
	if (noise && rng_below(r, 10) == 0)
		return rng_pick(r, legal);
	int s = p->turn, side = t3_side(p, s);
	cardset trumps = suit_mask(p->tsuit);
	if (p->n == 0) {
		cardset out = 0, opp = 0;
		for (int i = 0; i < p->nseats; i++)
			if (i != s) {
				out |= p->hand[i];
				if (t3_side(p, i) != side)
					opp |= p->hand[i];
			}
		if (p->aside && s != p->trumper)
			out |= card_bit(p->tcard);
		cardset masters = cardset_masters(legal, out);
		int opp_trumps = (opp & trumps) != 0 || (p->aside && t3_side(p, p->trumper) != side);
		if (side == 0 && !p->aside && (masters & trumps) && opp_trumps)
			return cardset_first(masters & trumps);
		if (masters & ~trumps)
			return opp_trumps ? cardset_top(masters & ~trumps) : cardset_dearest(masters & ~trumps, p->tsuit);
		return cardset_cheapest_longest(legal, p->tsuit, -1);
	}
	int w = best_of(p);
	int last = p->n == p->nseats - 1;
	int partner = t3_side(p, p->seat[w]) == side;
	int led = card_suit(p->card[0]);
	int points = trick_pts(p);
	if (p->must_cut == s) {
		cardset b = cutters(p, legal);
		return cardset_cheapest(b ? b : legal, p->tsuit);
	}
	if (legal & suit_mask(led)) {
		if (partner)
			return last ? cardset_dearest(legal, p->tsuit) : cardset_cheapest(legal, p->tsuit);
		cardset b = 0;
		if (!(p->cut >> w & 1))
			b = legal & ~((card_bit(p->card[w]) << 1) - 1);
		if (b)
			return last ? cardset_cheapest(b, p->tsuit) : cardset_top(b);
		return cardset_cheapest(legal, p->tsuit);
	}
	/* Void in the suit led. */
	cardset side_cards = legal & ~trumps;
	if (!partner) {
		if (!p->aside) {
			cardset b = cutters(p, legal);
			if (b && (points >= 10 || last || !side_cards))
				return cardset_cheapest(b, p->tsuit);
		} else if (t3_may_reveal(p)) {
			int has = (p->hand[s] & trumps) != 0 || s == p->trumper;
			if (has && (points >= 10 || (noise && rng_below(r, 4) == 0))) {
				t3_reveal(p);
				return t3_policy(p, r, 0);
			}
		}
	}
	if (side_cards)
		return partner && last ? cardset_dearest(side_cards, p->tsuit) : cardset_cheapest(side_cards, p->tsuit);
	return cardset_cheapest(legal, p->tsuit);
}

void t3_playout(t3pos *p, rng *r)
{
	while (!p->over) {
		card c = t3_policy(p, r, 1);
		if (c == CARD_NONE)
			break;
		t3_play(p, c);
	}
}

/* ---- the exact solver ---- */

#define T3_KILLER_BONUS 1000

/* Points still to be taken: every card in a hand, on the trick, and the
 * trump card aside (the solver runs with the pile empty). */
static int remaining(const t3pos *p)
{
	cardset all = p->aside ? card_bit(p->tcard) : 0;
	for (int i = 0; i < p->nseats; i++)
		all |= p->hand[i];
	for (int i = 0; i < p->n; i++)
		all |= card_bit(p->card[i]);
	return cardset_points(all);
}

/* The moves worth trying, best guesses first (minimax_card_score): a
 * seven and an eight of one suit in one hand play alike, so one of them. */
static int gen_moves(const t3pos *p, uint8_t killer, uint8_t *out)
{
	cardset legal = t3_legal(p);
	int can_reveal = t3_may_reveal(p);
	legal &= ~((legal & 0x01010101u) << 1 & legal);
	if (!(legal & (legal - 1)) && !can_reveal) {
		out[0] = cardset_first(legal);
		return legal ? 1 : 0;
	}
	int s = p->turn, side = t3_side(p, s), n = 0, score[T304_MAX_SEATS * 8 + 2];
	cardset trumps = suit_mask(p->tsuit), others = 0, opp = 0, rest = 0;
	for (int i = 0; i < p->nseats; i++)
		if (i != s) {
			others |= p->hand[i];
			if (t3_side(p, i) != side)
				opp |= p->hand[i];
		}
	if (p->aside && s != p->trumper)
		others |= card_bit(p->tcard);
	int opp_trumps = (opp & trumps) || (p->aside && t3_side(p, p->trumper) != side);
	int w = p->n ? best_of(p) : 0, wcut = p->n && (p->cut >> w & 1);
	card wb = p->n ? p->card[w] : CARD_NONE;
	int led = p->n ? card_suit(p->card[0]) : -1, partner = p->n && t3_side(p, p->seat[w]) == side;
	int last = p->n == p->nseats - 1, on_trick = trick_pts(p);
	/* The seats still to play to this trick, by side ([0] the mover's):
	 * they could cut with a trump, or, the trump card still aside, the
	 * trumper could reveal it and play it (counted in its hand). */
	cardset later[2] = { 0, 0 };
	int cut[2] = { 0, 0 };
	for (int k = p->n + 1, t = s; k < p->nseats; k++) {
		t = (t + 1) % p->nseats;
		int other = t3_side(p, t) != side;
		cardset h = p->hand[t] | (p->aside && t == p->trumper ? card_bit(p->tcard) : 0);
		later[other] |= h;
		cut[other] |= (h & trumps) != 0;
	}
	rest = later[0] | later[1];
	/* A trump cuts when trumps are shown (or this seat has just revealed). */
	int cuts_now = !p->aside || p->must_cut == s;
	cardset takes = 0;
	for (cardset l = legal; l && p->n; l &= l - 1) {
		card c = cardset_first(l);
		int x = card_suit(c), cut_c = cuts_now && x == p->tsuit && led != p->tsuit;
		if (cut_c ? !wcut || c > wb : !wcut && x == led && c > wb)
			takes |= card_bit(c);
	}
	legal = minimax_runs(legal, p->hand[s], others, takes, wb, partner, later, cut, p->tsuit);
	for (cardset l = legal; l; l &= l - 1) {
		card c = cardset_first(l);
		int x = card_suit(c);
		minimax_card mc = { .pts = pts_of(c), .trump = x == p->tsuit, .lead = p->n == 0 };
		if (p->n == 0) {
			mc.master = !(others & card_above(c));
			mc.opp_trumps = opp_trumps;
			mc.suit_len = cardset_count(p->hand[s] & suit_mask(x));
		} else {
			int cuts = cuts_now && x == p->tsuit && led != p->tsuit;
			mc.wins = takes >> c & 1;
			mc.partner = partner;
			mc.trick_pts = on_trick;
			card top = mc.wins ? c : wb;
			int top_cut = mc.wins ? cuts : wcut;
			mc.safe = last || (!(rest & card_above(top)) && (top_cut || card_suit(top) == p->tsuit
									 || p->aside || !(rest & trumps)));
		}
		n = minimax_add_killer(out, score, n, c, minimax_card_score(&mc), killer, T3_KILLER_BONUS);
	}
	if (can_reveal) {
		/* Revealing to cut: worth it against a trick the other side holds. */
		n = minimax_add_killer(out, score, n, T3_REVEAL, partner ? 0 : 130 + on_trick, killer, T3_KILLER_BONUS);
	}
	return n;
}

/* The last tricks (T3_END_TRICKS) on bit masks alone: no ordering, table
 * or copies of the position. While the trump card lies aside, a seat that
 * cannot follow may have it revealed (a move like a card: the card joins
 * the trumper's hand and the seat must cut if it can), and it comes back
 * to the trumper's hand for the last trick; only a trump played once it is
 * shown cuts. Values are the points the trumper's side takes from where
 * the search on bit masks began. */
#define T3_END_TRICKS 3
typedef struct t3end {
	cardset h[T304_MAX_SEATS];
	cardset all;               /* every card in a hand */
	uint8_t owner[CARD_COUNT]; /* the seat holding each card in a hand (and the trump card) */
	int nseats, tsuit, led, aside, trumper;
	card tcard;
	unsigned mine;             /* bit s: seat s is on the trumper's side */
} t3end;

static int t3end_rec(t3end *e, int lead, int k, card best, int cut, int bseat, int pts, int must, int acc,
		     int left, int alpha, int beta);

/* A trick starts, led by seat lead, with `left` tricks to go; acc the
 * points taken so far. The last is forced (the trump card back in hand:
 * the highest trump in it, or of the suit led wins). */
static int t3end_trick(t3end *e, int lead, int acc, int left, int alpha, int beta)
{
	cardset all = e->all, h = e->h[lead];
	if (left == 1 || !all) {
		if (e->aside) {
			all |= card_bit(e->tcard);
			if (lead == e->trumper)
				h |= card_bit(e->tcard);
		}
		if (!all)
			return acc;
		cardset t = all & suit_mask(e->tsuit);
		card w = cardset_top(t ? t : all & suit_mask(card_suit(cardset_first(h))));
		return e->mine >> e->owner[w] & 1 ? acc + cardset_points(all) : acc;
	}
	int rem = cardset_points(e->aside ? all | card_bit(e->tcard) : all);
	if (acc + rem <= alpha)
		return acc + rem;
	if (acc >= beta)
		return acc;
	return t3end_rec(e, lead, 0, CARD_NONE, 0, 0, 0, 0, acc, left, alpha, beta);
}

/* Card k of the trick led by lead: best holds it so far (CARD_NONE at the
 * lead), cut when as a cut, for seat bseat; pts the points on it; must:
 * the seat has just had the trump revealed and cuts if it can. */
static int t3end_rec(t3end *e, int lead, int k, card best, int cut, int bseat, int pts, int must, int acc,
		     int left, int alpha, int beta)
{
	int s = lead + k;
	if (s >= e->nseats)
		s -= e->nseats;
	cardset h = e->h[s], legal = h;
	if (must) {
		if (h & suit_mask(e->tsuit))
			legal = h & suit_mask(e->tsuit);
	} else if (best != CARD_NONE && (h & suit_mask(e->led))) {
		legal = h & suit_mask(e->led);
	}
	/* The 7 and the 8 of a suit in one hand are the same card. */
	legal &= ~((legal & 0x01010101u) << 1 & legal);
	int maxi = e->mine >> s & 1, val = maxi ? -1 : 1000, led = e->led;
	/* Against the other side's card, the cheapest cards that take the trick first. */
	cardset first = 0;
	if (best != CARD_NONE && (e->mine >> bseat & 1) != (unsigned)maxi) {
		if (!cut)
			first = legal & card_above(best);
		if (!e->aside && e->led != e->tsuit)
			first |= legal & suit_mask(e->tsuit) & (cut ? card_above(best) : suit_mask(e->tsuit));
	}
	for (cardset rest = legal; rest; ) {
		card c = cardset_first(first ? first : rest);
		first &= ~card_bit(c);
		rest &= ~card_bit(c);
		int x = card_suit(c), ncut = cut, ns = bseat, v;
		card nb = best;
		if (best == CARD_NONE) {
			e->led = x;
			nb = c;
			ns = s;
		} else if (!e->aside && x == e->tsuit && e->led != e->tsuit ? !cut || c > best
			   : !cut && x == e->led && c > best) {
			nb = c;
			ns = s;
			ncut = x != e->led;
		}
		e->h[s] = h & ~card_bit(c);
		e->all &= ~card_bit(c);
		if (k + 1 == e->nseats)
			v = t3end_trick(e, ns, acc + (e->mine >> ns & 1 ? pts + pts_of(c) : 0), left - 1, alpha, beta);
		else
			v = t3end_rec(e, lead, k + 1, nb, ncut, ns, pts + pts_of(c), 0, acc, left, alpha, beta);
		e->all |= card_bit(c);
		e->h[s] = h;
		e->led = led;
		if (best == CARD_NONE)
			e->led = -1;
		if (minimax_fold(maxi, v, &val, &alpha, &beta))
			return val;
	}
	if (e->aside && best != CARD_NONE && !must && !(h & suit_mask(e->led))) {
		/* The reveal. */
		cardset th = e->h[e->trumper];
		e->aside = 0;
		e->h[e->trumper] = th | card_bit(e->tcard);
		e->all |= card_bit(e->tcard);
		int v = t3end_rec(e, lead, k, best, cut, bseat, pts, 1, acc, left, alpha, beta);
		e->aside = 1;
		e->h[e->trumper] = th;
		e->all &= ~card_bit(e->tcard);
		minimax_fold(maxi, v, &val, &alpha, &beta);
	}
	return val == -1 || val == 1000 ? 0 : val;
}

/* Points the trumper's side takes from p, T3_END_TRICKS before the end. */
static int t3end_solve(const t3pos *p, int alpha, int beta)
{
	t3end e;
	e.nseats = p->nseats;
	e.tsuit = p->tsuit;
	e.aside = p->aside;
	e.trumper = p->trumper;
	e.tcard = p->tcard;
	e.all = 0;
	e.mine = 0;
	e.led = -1;
	for (int s = 0; s < p->nseats; s++) {
		e.h[s] = p->hand[s];
		e.all |= e.h[s];
		for (cardset m = e.h[s]; m; m &= m - 1)
			e.owner[cardset_first(m)] = (uint8_t)s;
		e.mine |= (unsigned)(t3_side(p, s) == 0) << s;
	}
	if (e.aside)
		e.owner[e.tcard] = (uint8_t)e.trumper;
	int must = p->must_cut == p->turn, left = p->ntricks - p->trick_no;
	if (!p->n)
		return t3end_rec(&e, p->turn, 0, CARD_NONE, 0, 0, 0, must, 0, left, alpha, beta);
	int w = best_of(p);
	e.led = card_suit(p->card[0]);
	return t3end_rec(&e, p->seat[0], p->n, p->card[w], p->cut >> w & 1, p->seat[w], trick_pts(p), must, 0, left,
			 alpha, beta);
}

int t3_solve(t3solver *sv, const t3pos *p, int alpha, int beta)
{
	if (p->over || t3_node(sv))
		return 0;
	int end = p->trick_no >= p->ntricks - T3_END_TRICKS && !p->npile;
	if (end && p->n)
		return t3end_solve(p, alpha, beta);
	if (p->trick_no == p->ntricks - 1 && !t3_may_reveal(p)) {
		/* The last trick: every card is forced. */
		t3pos q = *p;
		while (!q.over)
			t3_play(&q, cardset_first(t3_legal(&q)));
		return q.pts - p->pts;
	}
	/* The trumper's side takes between nothing and every point still in
	 * play: a window outside that range is settled without a search. */
	int rem = remaining(p);
	if (rem <= alpha)
		return rem;
	if (beta <= 0)
		return 0;
	t3tt *e = NULL;
	if (sv->tt && p->n == 0) {
		e = t3_tt_slot(sv, p);
		int v;
		if (t3_tt_same(e, p) && minimax_probe(e->lo, e->hi, &alpha, &beta, &v))
			return v;
	}
	int alpha0 = alpha, beta0 = beta;
	int maxi = t3_side(p, p->turn) == 0;
	int best = maxi ? -1 : 1000;
	uint8_t moves[T304_MAX_SEATS * 8 + 2];
	uint8_t *killer = &sv->killer[p->trick_no & 15][p->turn & 3];
	int nm = end ? 0 : gen_moves(p, *killer, moves);
	if (end)
		best = t3end_solve(p, alpha, beta);
	for (int m = 0; m < nm; m++) {
		int v = t3_child(sv, p, moves[m], alpha, beta, t3_solve);
		if (sv->aborted)
			return 0;
		if (minimax_fold(maxi, v, &best, &alpha, &beta)) {
			*killer = moves[m];
			break;
		}
	}
	if (nm == 0 && !end)
		best = 0;
	if (e) {
		/* The slot may hold another position by now (the search below
		 * shares the table): take it over. */
		int lo = 0, hi = 304;
		if (t3_tt_same(e, p)) {
			lo = e->lo;
			hi = e->hi;
		}
		minimax_store(&lo, &hi, best, alpha0, beta0);
		memcpy(e->hand, p->hand, sizeof e->hand);
		e->turn = p->turn;
		e->aside = p->aside;
		e->tcard = p->tcard;
		e->used = 1;
		e->lo = (int16_t)lo;
		e->hi = (int16_t)hi;
	}
	return best;
}

/* The compact position of a game in play, every card known (tests and benchmarks). */
void t3_pos_of(const t304 *g, t3pos *p)
{
	memset(p, 0, sizeof *p);
	p->nseats = g->nseats;
	p->ntricks = g->ntricks;
	p->trick_no = g->trick_no;
	p->trumper = g->trumper;
	p->tsuit = g->trump_suit;
	p->tcard = g->trump_card;
	p->aside = !g->revealed;
	p->bid = g->bid;
	p->must_cut = g->must_cut;
	for (int s = 0; s < g->nseats; s++) {
		p->hand[s] = g->hand[s];
		p->held[s] = g->held[s];
		if (t304_same_side(g->nseats, g->trumper, s, g->trumper))
			p->pts = (int16_t)(p->pts + cardset_points(g->won[s]));
	}
	p->npile = g->npile;
	for (int i = CARD_COUNT - g->npile; i < CARD_COUNT; i++)
		p->pile[T304_PILE - (CARD_COUNT - i)] = g->deck[i];
	const t304_trick *t = &g->tricks[g->trick_no];
	p->n = t->n;
	p->cut = t->cut;
	for (int i = 0; i < t->n; i++) {
		p->seat[i] = t->seat[i];
		p->card[i] = t->card[i];
	}
	p->turn = g->turn;
}
