/* rook_ai_pos.c: the search player's compact Rook position (every hand
 * known), its playout policy and its exact endgame solver.
 */
#include <stdlib.h>
#include <string.h>
#include "rook_ai_internal.h"
#include "minimax.h"


/* Card c beats w in a trick whose led suit is led. */
static inline int beats(int trump, int led, rcard c, rcard w)
{
	int sc = rook_ai_suit(trump, c), sw = rook_ai_suit(trump, w);
	if (sc == trump && sw != trump)
		return 1;
	return sc == sw && (sc == trump || sc == led) && rook_strength(c) > rook_strength(w);
}

rcardset rook_ai_legal(const rook_ai_pos *p)
{
	rcardset h = p->hand[p->turn];
	if (p->n == 0)
		return h;
	rcardset f = h & rook_ai_suit_mask(p->trump, rook_ai_suit(p->trump, p->card[0]));
	return f ? f : h;
}

static int trick_best(const rook_ai_pos *p)
{
	int led = rook_ai_suit(p->trump, p->card[0]), best = 0;
	for (int i = 1; i < p->n; i++)
		if (beats(p->trump, led, p->card[i], p->card[best]))
			best = i;
	return best;
}

void rook_ai_play(rook_ai_pos *p, rcard c)
{
	p->hand[p->turn] &= ~rook_bit(c);
	p->seat[p->n] = p->turn;
	p->card[p->n] = c;
	if (++p->n < ROOK_SEATS) {
		p->turn = (uint8_t)((p->turn + 1) & 3);
		return;
	}
	int w = p->seat[trick_best(p)], pts = 0;
	for (int i = 0; i < ROOK_SEATS; i++)
		pts += rook_points(p->card[i]);
	p->pts[w & 1] = (int16_t)(p->pts[w & 1] + pts);
	p->tricks[w & 1]++;
	if (++p->trick_no == ROOK_TRICKS)
		p->pts[w & 1] = (int16_t)(p->pts[w & 1] + p->extra);
	p->n = 0;
	p->turn = (uint8_t)w;
}

void rook_ai_final_points(const rook_ai_pos *p, int pts[2])
{
	int bt = p->bidder & 1;
	pts[0] = p->pts[0];
	pts[1] = p->pts[1];
	pts[p->tricks[bt] * 2 >= ROOK_TRICKS ? bt : !bt] += ROOK_CARDS_BONUS;
}

/* rook_ai_value from the final points (the 20 for cards included). */
static inline int value_of(const rook_ai_pos *p, const int pts[2], int team)
{
	int d[2], bt = p->bidder & 1;
	d[bt] = pts[bt] >= p->bid ? pts[bt] : -(int)p->bid;
	d[!bt] = pts[!bt];
	return d[team] - d[!team];
}

int rook_ai_value(const rook_ai_pos *p, int team)
{
	int pts[2];
	rook_ai_final_points(p, pts);
	return value_of(p, pts, team);
}

/* ---- the playout policy: every hand known (as on a sampled deal) ---- */

static int cost(int trump, rcard c)
{
	return rook_points(c) * 4 + (rook_ai_suit(trump, c) == trump ? 40 : 0) + rook_strength(c);
}

static rcard cheapest(int trump, rcardset s)
{
	rcard best = ROOK_NONE;
	int bc = 1 << 30;
	for (; s; s &= s - 1) {
		rcard c = rook_first(s);
		int k = cost(trump, c);
		if (k < bc) {
			bc = k;
			best = c;
		}
	}
	return best;
}

/* The strongest card of a set within one suit. */
static rcard top(rcardset s)
{
	rcard best = ROOK_NONE;
	for (; s; s &= s - 1) {
		rcard c = rook_first(s);
		if (best == ROOK_NONE || rook_strength(c) > rook_strength(best))
			best = c;
	}
	return best;
}

/* Whether seat could beat w in a trick led in suit led. */
static int can_beat(const rook_ai_pos *p, int seat, int led, rcard w)
{
	rcardset h = p->hand[seat], f = h & rook_ai_suit_mask(p->trump, led);
	for (rcardset s = f ? f : h; s; s &= s - 1)
		if (beats(p->trump, led, rook_first(s), w))
			return 1;
	return 0;
}

rcard rook_ai_policy(const rook_ai_pos *p)
{
	rcardset L = rook_ai_legal(p);
	if (!(L & (L - 1)))
		return rook_first(L);
	int s = p->turn, tr = p->trump;
	rcardset trumps = rook_ai_suit_mask(tr, tr);
	if (p->n == 0) {
		rcardset all = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
		int o1 = (s + 1) & 3, o2 = (s + 3) & 3;
		rcardset opp = p->hand[o1] | p->hand[o2];
		/* The bidder's side draws trumps with the top one while the
		 * other side has some and we have more. */
		rcard tt = top(all & trumps);
		if (tt != ROOK_NONE && (L & rook_bit(tt)) && (opp & trumps) && (s & 1) == (p->bidder & 1) &&
		    rook_count((p->hand[s] | p->hand[(s + 2) & 3]) & trumps) > rook_count(opp & trumps))
			return tt;
		/* Cash a side card nobody can beat or ruff. */
		rcard cash = ROOK_NONE;
		for (int c = 0; c < ROOK_COLOURS; c++) {
			if (c == tr || !(L & rook_colour_mask(c)))
				continue;
			rcard t = top(all & rook_colour_mask(c));
			if (!(L & rook_bit(t)))
				continue;
			int ruff = 0;
			for (int k = 0; k < 2; k++) {
				int o = k ? o2 : o1;
				if (!(p->hand[o] & rook_colour_mask(c)) && (p->hand[o] & trumps))
					ruff = 1;
			}
			if (!ruff && (cash == ROOK_NONE || rook_points(t) > rook_points(cash)))
				cash = t;
		}
		if (cash != ROOK_NONE)
			return cash;
		rcardset side = L & ~trumps;
		return cheapest(tr, side ? side : L);
	}
	int led = rook_ai_suit(tr, p->card[0]), wi = trick_best(p);
	rcard wc = p->card[wi];
	int next = p->n <= 2 ? (s + 1) & 3 : -1; /* the opponent still to play, if any */
	if ((p->seat[wi] & 1) == (s & 1)) {
		if (next < 0 || !can_beat(p, next, led, wc)) {
			/* Partner takes it: give it points, sparing trumps. */
			rcard best = ROOK_NONE;
			int bv = -(1 << 30);
			for (rcardset x = L; x; x &= x - 1) {
				rcard c = rook_first(x);
				int v = rook_points(c) * 10 - (rook_ai_suit(tr, c) == tr ? 60 : 0) - rook_strength(c);
				if (v > bv) {
					bv = v;
					best = c;
				}
			}
			return best;
		}
		return cheapest(tr, L);
	}
	rcardset safe = 0;
	for (rcardset x = L; x; x &= x - 1) {
		rcard c = rook_first(x);
		if (beats(tr, led, c, wc) && (next < 0 || !can_beat(p, next, led, c)))
			safe |= rook_bit(c);
	}
	return cheapest(tr, safe ? safe : L);
}

int rook_ai_playout(rook_ai_pos *p, int team)
{
	while (p->trick_no < ROOK_TRICKS)
		rook_ai_play(p, rook_ai_policy(p));
	return rook_ai_value(p, team);
}

/* ---- the exact solver ---- */

/* The legal cards less those equal to another: neighbours in a suit with
 * no live card between them and the same points. */
/* A suit's cards of set x in order of strength, one bit each: the Rook
 * (trumps only) at 0, the 2 to the 14 at 1 to 13, the 1 at 14. */
static inline unsigned by_strength(rcardset x, int colour, int trump)
{
	unsigned w = (unsigned)(x >> (colour * 14 + 1) & 0x1fff) << 1 | (unsigned)(x >> (colour * 14) & 1) << 14;
	return colour == trump ? w | (unsigned)(x >> ROOK_BIRD & 1) : w;
}

rcardset rook_ai_distinct(const rook_ai_pos *p, rcardset L)
{
	/* The points of each place of by_strength. */
	static const int8_t place_pts[15] = { 20, 0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 0, 10, 15 };
	rcardset live = rook_ai_live(p);
	rcardset out = 0;
	for (int suit = 0; suit < ROOK_COLOURS; suit++) {
		if (!(L & rook_ai_suit_mask(p->trump, suit)))
			continue;
		/* Up the live cards: a legal card equal to the one just below
		 * it (legal too, the same points) is left out. */
		unsigned lw = by_strength(live, suit, p->trump), legal = by_strength(L, suit, p->trump), keep = 0;
		int below = -1; /* points of the live card just below, when it is legal */
		for (unsigned m = lw; m; m &= m - 1) {
			int at = __builtin_ctz(m);
			if (!(legal >> at & 1)) {
				below = -1;
				continue;
			}
			if (below != place_pts[at])
				keep |= 1u << at;
			below = place_pts[at];
		}
		out |= (rcardset)(keep >> 1 & 0x1fff) << (suit * 14 + 1) | (rcardset)(keep >> 14 & 1) << (suit * 14);
		if (suit == p->trump)
			out |= (rcardset)(keep & 1) << ROOK_BIRD;
	}
	return out;
}

#define ROOK_KILLER_BONUS 1000

/* The moves worth trying (distinct), best guesses first: minimax_card_score
 * on how each card looks to a player, the killer before them. */
static int gen_moves(const rook_ai_pos *p, rcard killer, rcard *out)
{
	rcardset L = rook_ai_distinct(p, rook_ai_legal(p));
	if (!(L & (L - 1))) {
		out[0] = rook_first(L);
		return L ? 1 : 0;
	}
	int s = p->turn, tr = p->trump, n = 0, score[ROOK_TRICKS + 2];
	rcardset trumps = rook_ai_suit_mask(tr, tr);
	rcardset others = 0, opp = 0;
	for (int i = 0; i < ROOK_SEATS; i++)
		if (i != s) {
			others |= p->hand[i];
			if ((i & 1) != (s & 1))
				opp |= p->hand[i];
		}
	int wi = p->n ? trick_best(p) : 0, led = p->n ? rook_ai_suit(tr, p->card[0]) : -1;
	rcard wc = p->card[wi];
	int partner = p->n && (p->seat[wi] & 1) == (s & 1), on_trick = 0;
	for (int i = 0; i < p->n; i++)
		on_trick += rook_points(p->card[i]);
	for (rcardset x = L; x; x &= x - 1) {
		rcard c = rook_first(x);
		int suit = rook_ai_suit(tr, c);
		minimax_card mc = { .pts = rook_points(c), .trump = suit == tr, .lead = p->n == 0 };
		if (p->n == 0) {
			mc.master = 1;
			for (rcardset o = others & rook_ai_suit_mask(tr, suit); o && mc.master; o &= o - 1)
				mc.master = rook_strength(rook_first(o)) < rook_strength(c);
			mc.opp_trumps = (opp & trumps) != 0;
			mc.suit_len = rook_count(p->hand[s] & rook_ai_suit_mask(tr, suit));
		} else {
			mc.wins = beats(tr, led, c, wc);
			mc.partner = partner;
			mc.trick_pts = on_trick;
			rcard top = mc.wins ? c : wc;
			int ours = mc.wins || partner;
			mc.safe = 1;
			for (int k = p->n + 1, t = s; k < ROOK_SEATS && mc.safe; k++) {
				t = (t + 1) & 3;
				if (((t & 1) == (s & 1)) != ours && can_beat(p, t, led, top))
					mc.safe = 0;
			}
		}
		n = minimax_add_killer(out, score, n, c, minimax_card_score(&mc), killer, ROOK_KILLER_BONUS);
	}
	return n;
}

/* The last tricks (ROOK_END_TRICKS) on bit masks alone: no ordering,
 * table or copies of the position. */
#define ROOK_END_TRICKS 3
typedef struct rook_end {
	const rook_ai_pos *p;
	rcardset h[ROOK_SEATS];
	rcardset all;               /* every card in a hand */
	uint8_t owner[ROOK_CARDS];  /* the seat holding each card in a hand */
	int trump, led, team;
	int all_pts;                /* the points of all */
} rook_end;

static int rook_end_rec(rook_end *e, int lead, int k, rcard best, int bseat, int pts, int fin[2], int tricks[2],
			int alpha, int beta);

/* A trick starts, led by seat lead; fin and tricks what each team has
 * taken. The last is forced, then the value. */
static int rook_end_trick(rook_end *e, int lead, int fin[2], int tricks[2], int alpha, int beta)
{
	const rook_ai_pos *p = e->p;
	if (e->h[lead] & (e->h[lead] - 1))
		return rook_end_rec(e, lead, 0, ROOK_NONE, 0, 0, fin, tricks, alpha, beta);
	int f[2] = { fin[0], fin[1] }, t[2] = { tricks[0], tricks[1] }, bt = p->bidder & 1;
	if (e->all) {
		rcardset tr = e->all & rook_ai_suit_mask(e->trump, e->trump);
		rcard w = top(tr ? tr : e->all & rook_ai_suit_mask(e->trump, rook_ai_suit(e->trump, rook_first(e->h[lead]))));
		int last = e->owner[w] & 1;
		f[last] += e->all_pts + p->extra;
		t[last]++;
	}
	f[t[bt] * 2 >= ROOK_TRICKS ? bt : !bt] += ROOK_CARDS_BONUS;
	return value_of(p, f, e->team);
}

/* Card k of the trick led by lead: best holds it so far (ROOK_NONE at
 * the lead), for seat bseat; pts the points on it. */
static int rook_end_rec(rook_end *e, int lead, int k, rcard best, int bseat, int pts, int fin[2], int tricks[2],
			int alpha, int beta)
{
	int s = (lead + k) & 3, led = e->led;
	rcardset h = e->h[s], legal = h;
	if (best != ROOK_NONE && (h & rook_ai_suit_mask(e->trump, led)))
		legal = h & rook_ai_suit_mask(e->trump, led);
	int maxi = (s & 1) == e->team, val = maxi ? -100000 : 100000;
	for (; legal; legal &= legal - 1) {
		rcard c = rook_first(legal), nb = best;
		int ns = bseat, v;
		if (best == ROOK_NONE) {
			e->led = rook_ai_suit(e->trump, c);
			nb = c;
			ns = s;
		} else if (beats(e->trump, led, c, best)) {
			nb = c;
			ns = s;
		}
		e->h[s] = h & ~rook_bit(c);
		e->all &= ~rook_bit(c);
		e->all_pts -= rook_points(c);
		if (k + 1 == ROOK_SEATS) {
			int f[2] = { fin[0], fin[1] }, t[2] = { tricks[0], tricks[1] };
			f[ns & 1] += pts + rook_points(c);
			t[ns & 1]++;
			v = rook_end_trick(e, ns, f, t, alpha, beta);
		} else {
			v = rook_end_rec(e, lead, k + 1, nb, ns, pts + rook_points(c), fin, tricks, alpha, beta);
		}
		e->all |= rook_bit(c);
		e->all_pts += rook_points(c);
		e->h[s] = h;
		e->led = led;
		if (minimax_fold(maxi, v, &val, &alpha, &beta))
			break;
	}
	return val;
}

/* rook_ai_value for team from p, ROOK_END_TRICKS before the end. */
static int rook_end_solve(const rook_ai_pos *p, int team, int alpha, int beta)
{
	rook_end e;
	e.p = p;
	e.trump = p->trump;
	e.team = team;
	e.all = 0;
	e.led = -1;
	for (int s = 0; s < ROOK_SEATS; s++) {
		e.h[s] = p->hand[s];
		e.all |= e.h[s];
		for (rcardset m = e.h[s]; m; m &= m - 1)
			e.owner[rook_first(m)] = (uint8_t)s;
	}
	e.all_pts = rook_set_points(e.all);
	int fin[2] = { p->pts[0], p->pts[1] }, tricks[2] = { p->tricks[0], p->tricks[1] };
	if (!p->n)
		return rook_end_rec(&e, p->turn, 0, ROOK_NONE, 0, 0, fin, tricks, alpha, beta);
	int w = trick_best(p), pts = 0;
	for (int i = 0; i < p->n; i++)
		pts += rook_points(p->card[i]);
	e.led = rook_ai_suit(p->trump, p->card[0]);
	return rook_end_rec(&e, p->seat[0], p->n, p->card[w], p->seat[w], pts, fin, tricks, alpha, beta);
}

static inline int tt_same(const rook_ai_tt *e, const rook_ai_pos *p, int team)
{
	return e->used && e->turn == p->turn && e->team == team && e->pts[0] == p->pts[0] && e->pts[1] == p->pts[1]
	       && e->tricks[0] == p->tricks[0] && e->tricks[1] == p->tricks[1] && e->extra == p->extra
	       && !memcmp(e->hand, p->hand, sizeof e->hand);
}

/* rook_ai_value for team at the end if team's side took every point still
 * to be taken (all: the counters in play, the discard's, the 20 for
 * cards when its tricks could still make a majority), or none of them:
 * the value grows with team's points and falls with the other's, so these
 * bound it. */
static int value_if(const rook_ai_pos *p, int team, int all, int rest)
{
	rook_ai_pos q = *p;
	int left = ROOK_TRICKS - p->trick_no;
	int to = all ? team : !team;
	q.pts[to] = (int16_t)(q.pts[to] + rest);
	q.tricks[to] = (uint8_t)(q.tricks[to] + left);
	q.trick_no = ROOK_TRICKS;
	return rook_ai_value(&q, team);
}

int rook_ai_solve_in(rook_ai_solver *sv, const rook_ai_pos *p, int team, int alpha, int beta)
{
	sv->nodes++;
	if (p->trick_no >= ROOK_TRICKS)
		return rook_ai_value(p, team);
	int end = p->trick_no >= ROOK_TRICKS - ROOK_END_TRICKS;
	if (end && p->n)
		return rook_end_solve(p, team, alpha, beta);
	/* The window against what is still to be taken. */
	rcardset live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
	int rest = rook_set_points(live) + p->extra;
	for (int i = 0; i < p->n; i++)
		rest += rook_points(p->card[i]);
	int hi = value_if(p, team, 1, rest);
	if (hi <= alpha)
		return hi;
	int lo = value_if(p, team, 0, rest);
	if (lo >= beta)
		return lo;
	rook_ai_tt *e = NULL;
	if (sv->tt && p->n == 0) {
		uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)team;
		for (int i = 0; i < ROOK_SEATS; i++)
			h = (h ^ p->hand[i]) * 0xff51afd7ed558ccdull;
		h = (h ^ ((uint64_t)p->turn | (uint64_t)(uint16_t)p->pts[0] << 8 | (uint64_t)(uint16_t)p->pts[1] << 24
			  | (uint64_t)p->tricks[0] << 40 | (uint64_t)p->tricks[1] << 48)) * 0xc4ceb9fe1a85ec53ull;
		e = &sv->tt[(h >> 32) & sv->tt_mask];
		int v;
		if (tt_same(e, p, team) && minimax_probe(e->lo, e->hi, &alpha, &beta, &v))
			return v;
	}
	int alpha0 = alpha, beta0 = beta;
	int maxi = (p->turn & 1) == team;
	rcard moves[ROOK_TRICKS + 2];
	rcard *killer = &sv->killer[p->trick_no][p->turn & 3];
	int nm = end ? 0 : gen_moves(p, *killer, moves);
	int best = end ? rook_end_solve(p, team, alpha, beta) : maxi ? -100000 : 100000;
	for (int i = 0; i < nm; i++) {
		rook_ai_pos q = *p;
		rook_ai_play(&q, moves[i]);
		int v = rook_ai_solve_in(sv, &q, team, alpha, beta);
		if (minimax_fold(maxi, v, &best, &alpha, &beta)) {
			*killer = moves[i];
			break;
		}
	}
	if (e) {
		lo = -100000;
		hi = 100000;
		if (tt_same(e, p, team)) {
			lo = e->lo;
			hi = e->hi;
		}
		minimax_store(&lo, &hi, best, alpha0, beta0);
		memcpy(e->hand, p->hand, sizeof e->hand);
		e->turn = p->turn;
		e->team = (uint8_t)team;
		e->pts[0] = p->pts[0];
		e->pts[1] = p->pts[1];
		e->tricks[0] = p->tricks[0];
		e->tricks[1] = p->tricks[1];
		e->extra = p->extra;
		e->used = 1;
		e->lo = lo;
		e->hi = hi;
	}
	return best;
}

int rook_ai_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes)
{
	rook_ai_solver sv = { .tt = NULL };
	sv.tt = minimax_table(ROOK_AI_TT_BITS_ONE, sizeof *sv.tt, &sv.tt_mask);
	int v = rook_ai_solve_in(&sv, p, team, alpha, beta);
	free(sv.tt);
	*nodes += sv.nodes;
	return v;
}

/* The compact position of a game in play, every hand known (tests and benchmarks). */
void rook_ai_pos_of(const rook *g, rook_ai_pos *p)
{
	memset(p, 0, sizeof *p);
	memcpy(p->hand, g->hand, sizeof p->hand);
	p->trump = g->trump;
	p->bidder = g->bidder;
	p->bid = g->bid;
	p->trick_no = g->trick_no;
	const rook_trick *t = &g->tricks[g->trick_no];
	p->n = t->n;
	p->turn = g->turn;
	memcpy(p->seat, t->seat, sizeof p->seat);
	memcpy(p->card, t->card, sizeof p->card);
	for (int k = 0; k < 2; k++) {
		p->pts[k] = (int16_t)rook_set_points(g->won[k]);
		p->tricks[k] = g->tricks_won[k];
	}
	p->extra = (int16_t)rook_points(g->discard);
}
