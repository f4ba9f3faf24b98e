/* g304_ai_wide.c: the general search player of 304 (g304_ai_wide.h), over
 * the view's row of g304_variants.
 *
 * Play: the cards the seat cannot see are dealt at random consistently
 * with its view (see struct info), every legal card (and the opening of
 * the trump, when allowed) is played on each sample and the deal is played
 * out by the rule-based player at every seat, each deciding from its own
 * view of the sample, so face-down cards stay hidden to the others as in
 * the real game. The card with the best average tokens for the seat's
 * team wins (card points break ties).
 *
 * Bidding and the trump card: the seat's known cards are completed at
 * random, it plays the deal out as trumper with each possible trump suit,
 * and it bids the lowest bid allowed when the best suit makes it at least
 * as often as break-even needs (never partner close caps). Caps is called
 * as the rule-based player calls it, and the redeal too.
 */
#include <string.h>
#include "g304_ai_wide.h"
#include "g304_ai.h"
#include "g304_simple.h"
#include "g304_wide.h"
#include "minimax.h"

#define MAX_HIDDEN (G304_SEATS_MAX * G304_TRICKS_MAX)
#define MAX_MOVES (G304_TRICKS_MAX + 2)
#define SAMPLE_TRIES 40
#define SAMPLE_STRICT 30 /* tries with every constraint; then voids are dropped */

static unsigned samples_of(const game_ai_params *p)
{
	if (p->samples)
		return p->samples;
	return p->level >= GAME_AI_STRONG ? 300 : 40;
}

/* A card played face down that the seat did not see. */
typedef struct hidden {
	uint8_t trick, pos, seat;
	uint8_t voids;      /* suits it cannot be of (the seat was void in them) */
	uint8_t nottrump;   /* it cannot be a trump */
} hidden;

/* What the view tells about the cards the seat cannot see. */
typedef struct info {
	int me, trumper;
	g304_set pool;               /* cards the seat cannot place */
	int need[G304_SEATS_MAX];        /* unseen cards in each hand (the known trump card apart) */
	uint8_t voids[G304_SEATS_MAX];   /* suits a seat is known to hold none of */
	int nhid;
	hidden hid[MAX_HIDDEN];
	card tc;                   /* the trump card if the seat knows it */
	int t_trick, t_pos;        /* where the trump card lies face down in a trick, or -1 */
	int t_led;                 /* then the suit led to that trick */
	int t_in_hand;             /* the known trump card is back in the trumper's hand */
	int ok;
} info;

static void info_of(const g304_view *v, info *in)
{
	shape shv;
	shape_of(&shv, v->size);
	const shape *sh = &shv;
	memset(in, 0, sizeof *in);
	in->me = v->seat;
	in->trumper = v->trumper;
	in->tc = v->trump_card;
	in->t_trick = in->t_pos = in->t_led = -1;
	if (v->phase != G304_PHASE_PLAY || v->trumper >= sh->seats || v->ntricks == 0)
		return;
	g304_set seen = v->hand;
	int played[G304_SEATS_MAX] = { 0 };
	int from_table = 0, tc_seen = 0;
	int last_down = -1; /* the last trick with a card face down */
	for (int i = 0; i < v->ntricks; i++)
		if (v->tricks[i].down)
			last_down = i;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (t->n == 0)
			continue;
		if (t->card[0] == CARD_NONE)
			return;
		int led = SUIT(t->card[0]);
		int done = t->winner != G304_NO_SEAT;
		for (int k = 0; k < t->n; k++) {
			int s = t->seat[k];
			card c = t->card[k];
			int table = t->tcard >> k & 1;
			if (s >= sh->seats)
				return;
			if (table)
				from_table = 1;
			else
				played[s]++;
			if (k > 0 && (c == CARD_NONE || SUIT(c) != led))
				in->voids[s] |= (uint8_t)(1u << led);
			if (c != CARD_NONE) {
				if (c >= sh->ncards || (seen & BIT(c)))
					return;
				seen |= BIT(c);
				if (c == in->tc)
					tc_seen = 1;
				continue;
			}
			if (s == in->me)
				return;
			if (table) {
				in->t_trick = i;
				in->t_pos = k;
				in->t_led = led;
				continue;
			}
			hidden *h = &in->hid[in->nhid++];
			h->trick = (uint8_t)i;
			h->pos = (uint8_t)k;
			h->seat = (uint8_t)s;
			h->voids = in->voids[s];
			/* A trick done with a trump face down opens the trump and shows
			 * every card face down but the trumper's own. */
			h->nottrump = done && (s != v->trumper || !v->trump_open || last_down > i);
		}
	}
	if (in->tc != CARD_NONE) {
		if (!tc_seen && !(v->hand & BIT(in->tc))) {
			if (in->me == v->trumper && !v->trump_down)
				return;
			seen |= BIT(in->tc);
			if (in->t_trick < 0 && !v->trump_down)
				in->t_in_hand = 1;
		}
	} else if (in->t_trick < 0 && !v->trump_down) {
		return; /* an unknown trump card must lie somewhere */
	}
	in->pool = sh->all & ~seen;
	int total = in->tc == CARD_NONE ? 1 : 0;
	for (int s = 0; s < sh->seats; s++) {
		if (s == in->me)
			continue;
		int n = sh->hand - played[s];
		if (s == v->trumper && (v->trump_down || from_table || in->t_in_hand))
			n--;
		if (n < 0)
			return;
		in->need[s] = n;
		total += n;
	}
	total += in->nhid;
	in->ok = total == CNT(in->pool);
}

static card pick(rng *r, g304_set s) { return (card)rng_pick(r, s); }

static g304_set suits_mask(const shape *sh, uint8_t suits)
{
	g304_set m = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		if (suits >> s & 1)
			m |= SMASK(s);
	return m;
}

/* A game in play with every card placed, consistent with the view. */
static int sample(const g304_view *v, const info *in, rng *r, g304 *g)
{
	shape shv;
	shape_of(&shv, v->size);
	const shape *sh = &shv;
	g304_set hands[G304_SEATS_MAX];
	card fill[MAX_HIDDEN];
	card tc = in->tc, tfill = CARD_NONE;
	int ok = 0;
	for (int attempt = 0; attempt < SAMPLE_TRIES && !ok; attempt++) {
		int strict = attempt < SAMPLE_STRICT;
		g304_set pool = in->pool;
		memset(hands, 0, sizeof hands);
		tc = in->tc;
		if (tc == CARD_NONE) {
			g304_set allowed = pool;
			if (strict && in->t_trick >= 0)
				allowed &= ~SMASK(in->t_led);
			if (!allowed)
				continue;
			tc = pick(r, allowed);
			pool &= ~BIT(tc);
		}
		g304_set trumps = SMASK(SUIT(tc));
		/* The face-down cards first, the most constrained first. */
		uint64_t left = in->nhid >= 64 ? ~0ull : (1ull << in->nhid) - 1;
		int fail = 0;
		while (left && !fail) {
			int best = -1, best_n = 99;
			for (uint64_t l = left; l; l &= l - 1) {
				int i = __builtin_ctzll(l);
				g304_set m = pool;
				if (strict)
					m &= ~suits_mask(sh, in->hid[i].voids) & (in->hid[i].nottrump ? ~trumps : sh->all);
				int n = CNT(m);
				if (n < best_n) {
					best_n = n;
					best = i;
				}
			}
			if (best_n == 0) {
				fail = 1;
				break;
			}
			g304_set m = pool;
			if (strict)
				m &= ~suits_mask(sh, in->hid[best].voids) & (in->hid[best].nottrump ? ~trumps : sh->all);
			fill[best] = pick(r, m);
			pool &= ~BIT(fill[best]);
			left &= ~(1ull << best);
		}
		if (fail)
			continue;
		/* Then the hands, the least slack first. */
		int done = 1 << in->me;
		while (done != (1 << sh->seats) - 1 && !fail) {
			int best = -1, best_slack = 99;
			for (int s = 0; s < sh->seats; s++) {
				if (done >> s & 1)
					continue;
				g304_set m = strict ? pool & ~suits_mask(sh, in->voids[s]) : pool;
				int slack = CNT(m) - in->need[s];
				if (slack < best_slack) {
					best_slack = slack;
					best = s;
				}
			}
			if (best_slack < 0) {
				fail = 1;
				break;
			}
			g304_set m = strict ? pool & ~suits_mask(sh, in->voids[best]) : pool;
			for (int k = 0; k < in->need[best]; k++) {
				card c = pick(r, m);
				m &= ~BIT(c);
				pool &= ~BIT(c);
				hands[best] |= BIT(c);
			}
			done |= 1 << best;
		}
		ok = !fail && !pool;
	}
	if (!ok)
		return 0;
	if (in->t_trick >= 0)
		tfill = tc;
	g304_set trumps = SMASK(SUIT(tc));
	hands[in->me] = v->hand;
	if (in->t_in_hand)
		hands[in->trumper] |= BIT(tc);

	g304_rules rules = { .caps = G304_CAPS_OFF, .size = v->size };
	g304_init(g, &rules, v->dealer);
	g->phase = G304_PHASE_PLAY;
	g->dealer = v->dealer;
	g->tokens[0] = g->tokens[1] = 100;
	g->winner = -1;
	g->deal_no = v->deal_no;
	for (int s = 0; s < sh->seats; s++)
		g->hand[s] = g->dealt[s] = hands[s];
	g->turn = v->turn;
	g->asker = G304_NO_SEAT;
	g->bid = g->bid8 = v->bid;
	g->bidder = g->bidder8 = v->bidder;
	g->trumper = v->trumper;
	g->trump_suit = (uint8_t)SUIT(tc);
	g->trump_card = tc;
	g->trump_down = v->trump_down;
	g->trump_open = v->trump_open;
	g->trump_public = v->trump_open || (in->tc != CARD_NONE && in->me != v->trumper);
	g->pcc = v->pcc;
	g->sitting_out = v->sitting_out;
	g->trick_no = (uint8_t)(v->ntricks - 1);
	for (int i = 0; i < sh->hand; i++)
		g->tricks[i].winner = G304_NO_SEAT;
	for (int i = 0; i < v->ntricks; i++)
		g->tricks[i] = v->tricks[i];
	for (int i = 0; i < in->nhid; i++)
		g->tricks[in->hid[i].trick].card[in->hid[i].pos] = fill[i];
	if (in->t_trick >= 0)
		g->tricks[in->t_trick].card[in->t_pos] = tfill;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &g->tricks[i];
		if (t->winner == G304_NO_SEAT)
			continue;
		for (int k = 0; k < t->n; k++) {
			g->won[g304_team(t->winner)] |= BIT(t->card[k]);
			g->dealt[t->seat[k]] |= BIT(t->card[k]);
		}
	}
	g->tricks_won[0] = v->tricks_won[0];
	g->tricks_won[1] = v->tricks_won[1];
	if (in->me == v->trumper) {
		g->exhausted = v->exhausted;
	} else if (!v->pcc && (hands[v->trumper] & trumps)) {
		/* The trumper led a trump and nobody else holds one. */
		g304_set others = 0;
		for (int s = 0; s < sh->seats; s++)
			if (s != v->trumper)
				others |= hands[s];
		int led_trump = 0;
		for (int i = 0; i < v->ntricks; i++) {
			const g304_trick *t = &v->tricks[i];
			if (t->n && t->seat[0] == v->trumper && t->card[0] != CARD_NONE && (BIT(t->card[0]) & trumps))
				led_trump = 1;
		}
		g->exhausted = (uint8_t)(led_trump && !(others & trumps));
	}
	g->caps_seat = G304_NO_SEAT;
	g->caps_since[0] = g->caps_since[1] = G304_CAPS_NEVER;
	g->last.outcome = G304_OUTCOME_NONE;
	return 1;
}

/* Plays the deal out with the rule-based player at every seat. */
static void playout(g304 *g)
{
	for (int guard = 0; g->phase == G304_PHASE_PLAY && guard < 64; guard++) {
		int s = g->turn;
		g304_view vv;
		g304_legal l;
		g304_action a;
		g304_view_of(g, s, &vv);
		g304_legal_of(g, s, &l);
		if (!g304_simple_action(&vv, &l, &a) || g304_apply(g, &a, NULL))
			break;
	}
}

/* Tokens the deal brought the seat's team, card points breaking ties. */
static double value_of(const g304 *g, int me)
{
	const g304_deal_end *e = &g->last;
	if (g->phase == G304_PHASE_PLAY || e->trumper >= g->seats)
		return 0;
	int mine = g304_team(me), tt = g304_team(e->trumper);
	const g304_variant *w = g304_variant_of(&g->rules);
	double tok = e->made ? g304_payoff(w, e->bid) : -g304_charge(w, e->bid);
	if (mine != tt)
		tok = -tok;
	return tok + (e->points[mine] - e->points[!mine]) / 1000.0;
}

static uint64_t view_hash(const g304_view *v)
{
	uint64_t h = 1469598103934665603ull;
	const unsigned char *b = (const unsigned char *)&v->hand;
	for (size_t i = 0; i < sizeof v->hand; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	h = (h ^ v->seat) * 1099511628211ull;
	h = (h ^ v->deal_no) * 1099511628211ull;
	h = (h ^ v->ntricks) * 1099511628211ull;
	if (v->ntricks)
		h = (h ^ v->tricks[v->ntricks - 1].n) * 1099511628211ull;
	return h;
}

static int search_play(const g304_view *v, const g304_legal *l, const game_ai_params *prm, game_ai_stats *st,
		       g304_action *a)
{
	card moves[MAX_MOVES];
	int nm = minimax_moves(l->cards, l->acts >> G304_ACT_OPEN & 1, moves, MAX_MOVES);
	if (nm == 0)
		return 0;
	if (nm == 1) {
		a->type = moves[0] == CARD_NONE ? G304_ACT_OPEN : G304_ACT_PLAY;
		a->card = moves[0];
		return 1;
	}
	info in;
	info_of(v, &in);
	if (!in.ok)
		return 0;
	double sum[MAX_MOVES] = { 0 };
	unsigned nsamples = samples_of(prm);
	unsigned done = 0;
	rng r;
	rng_seed(&r, prm->seed ^ view_hash(v));
	for (unsigned i = 0; i < nsamples; i++) {
		if (done && prm->stop && prm->stop(prm->stop_ctx))
			break;
		g304 base;
		if (!sample(v, &in, &r, &base))
			break;
		for (int m = 0; m < nm; m++) {
			g304 q = base;
			g304_action x;
			memset(&x, 0, sizeof x);
			x.seat = v->seat;
			x.type = moves[m] == CARD_NONE ? G304_ACT_OPEN : G304_ACT_PLAY;
			x.card = moves[m];
			if (g304_apply(&q, &x, NULL)) {
				sum[m] -= 1000; /* cannot happen: the sample agrees with the view */
				continue;
			}
			playout(&q);
			sum[m] += value_of(&q, v->seat);
			if (st)
				st->playouts++;
		}
		done++;
		if (st)
			st->samples++;
	}
	if (!done)
		return 0;
	int best = minimax_best(sum, nm);
	a->type = moves[best] == CARD_NONE ? G304_ACT_OPEN : G304_ACT_PLAY;
	a->card = moves[best];
	return 1;
}

/* ---- bidding and the trump card, by simulated play of the seat's hand ---- */

/* How far under break-even a simulated chance may be and still bid. Tuned
 * with cardbot bench ai against the simple player over 200 deals: 0.20
 * +45 tokens per 100 deals, 0.08 +102, 0 +132, -0.10 +135 (but hardly
 * ever bidding); break-even it is. */
#define BID_BOLDNESS 0.0
#define G304_AI_HIST_WIDE 91 /* tens of points: 0..900 (904's pack) */

typedef struct simres {
	int n;
	int hist[G304_AI_HIST_WIDE]; /* the trumper's side's points, by tens (904: up to 900) */
	long sum;
} simres;

static int sim_count(const game_ai_params *p)
{
	if (p->samples)
		return p->samples < 160 ? (int)p->samples : 160;
	return p->level >= GAME_AI_STRONG ? 160 : 40;
}

/* Plays n random completions of the seat's known cards `mine` (the rest of
 * its six dealt at random) with c as its trump card, the seat as trumper
 * at `bid`, and counts the points its side takes (at least 8 deals, then
 * until prm->stop says so). */
static void simulate(const shape *sh, g304_set mine, int me, int dealer, card c, int bid, int n, rng *r, const game_ai_params *prm,
		     game_ai_stats *st, simres *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		if (i >= 8 && prm->stop && prm->stop(prm->stop_ctx))
			break;
		uint8_t rest[G304_CARDS_MAX];
		int nr = 0;
		for (g304_set u = sh->all & ~mine; u; u &= u - 1)
			rest[nr++] = FIRST(u);
		for (int j = nr - 1; j > 0; j--) {
			uint32_t x = rng_below(r, (uint32_t)j + 1);
			uint8_t t = rest[j];
			rest[j] = rest[x];
			rest[x] = t;
		}
		g304 g;
		g304_rules rules = { .caps = G304_CAPS_OFF, .size = (uint8_t)sh->size };
		g304_init(&g, &rules, dealer);
		int k = 0;
		g.hand[me] = mine;
		while (CNT(g.hand[me]) < sh->hand)
			g.hand[me] |= BIT(rest[k++]);
		for (int s = 0; s < sh->seats; s++) {
			if (s != me)
				for (int j = 0; j < sh->hand; j++)
					g.hand[s] |= BIT(rest[k++]);
			g.dealt[s] = g.hand[s];
		}
		g.hand[me] &= ~BIT(c);
		g.phase = G304_PHASE_PLAY;
		g.dealer = (uint8_t)dealer;
		g.tokens[0] = g.tokens[1] = 100;
		g.winner = -1;
		g.asker = G304_NO_SEAT;
		g.bid = g.bid8 = (uint16_t)bid;
		g.bidder = g.bidder8 = g.trumper = (uint8_t)me;
		g.trump_suit = (uint8_t)SUIT(c);
		g.trump_card = c;
		g.trump_down = 1;
		for (int t = 0; t < sh->hand; t++)
			g.tricks[t].winner = G304_NO_SEAT;
		g.turn = g.tricks[0].leader = (uint8_t)AFTER(dealer);
		g.caps_seat = G304_NO_SEAT;
		g.caps_since[0] = g.caps_since[1] = G304_CAPS_NEVER;
		g.last.outcome = G304_OUTCOME_NONE;
		playout(&g);
		int pts = g.last.points[g304_team(me)];
		out->hist[pts / 10 >= G304_AI_HIST_WIDE ? G304_AI_HIST_WIDE - 1 : pts / 10]++;
		out->sum += pts;
		out->n++;
		if (st)
			st->playouts++;
	}
}

/* Chance of taking at least `bid` points. */
static double chance(const simres *s, int bid) { return g304_ai_chance(s->hist, G304_AI_HIST_WIDE, s->n, bid); }

static double needed(const g304_variant *w, int bid)
{
	int pay = g304_payoff(w, bid), charge = g304_charge(w, bid);
	return (double)charge / (pay + charge) - BID_BOLDNESS;
}

/* The best trump card from `from`: the lowest card of the suit that scores
 * best in simulation (the same deals for every suit); *res gets its results. */
static card best_trump(const shape *sh, g304_set mine, g304_set from, int me, int dealer, int bid, const game_ai_params *prm,
		       game_ai_stats *st, simres *res)
{
	card best = CARD_NONE;
	double best_score = -1;
	int n = sim_count(prm);
	for (int x = 0; x < SUIT_COUNT; x++) {
		g304_set in = from & SMASK(x);
		if (!in)
			continue;
		card c = FIRST(in);
		rng r;
		rng_seed(&r, prm->seed ^ (uint64_t)mine ^ 0x7f4a7c15u);
		simres s;
		simulate(sh, mine, me, dealer, c, bid, n, &r, prm, st, &s);
		double score = s.n ? (double)s.sum / s.n : 0;
		if (score > best_score) {
			best_score = score;
			best = c;
			if (res)
				*res = s;
		}
	}
	return best;
}

static int partners(int a, int b) { return a != b && b != G304_NO_SEAT && a != G304_NO_SEAT && g304_team(a) == g304_team(b); }

static int partner_spoke4(const g304_view *v)
{
	for (int i = 0; i < v->nbidlog; i++)
		if (v->bidlog[i].round == 4 && partners(v->bidlog[i].seat, v->seat))
			return 1;
	return 0;
}

static int sim_bid(const g304_view *v, const g304_legal *l, const game_ai_params *prm, game_ai_stats *st, g304_action *a)
{
	shape shv;
	shape_of(&shv, v->size);
	const shape *sh = &shv;
	if (v->phase == G304_PHASE_BID4 && (l->acts & 1u << G304_ACT_REDEAL))
		return g304_simple_action(v, l, a);
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	if (!(l->acts & 1u << G304_ACT_PASS)) {
		/* A duty to open (g304_variant.open_min): the lowest bid. */
		if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min)
			return 0;
		a->type = G304_ACT_BID;
		a->value = l->bid_min;
		return 1;
	}
	a->type = G304_ACT_PASS;
	if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min)
		return 1;
	int b = l->bid_min;
	g304_set mine = v->hand;
	if (v->phase == G304_PHASE_BID4) {
		if (partners(v->bidder, v->seat))
			return 1;
	} else {
		if (v->seat == v->trumper && v->trump_card != CARD_NONE && v->trump_down)
			mine |= BIT(v->trump_card);
		if (g304_pack_set_points(sh->pack, mine) < 100)
			return 1;
	}
	simres s;
	if (best_trump(sh, mine, mine, v->seat, v->dealer, b, prm, st, &s) == CARD_NONE)
		return 1;
	double pr = chance(&s, b);
	const g304_variant *w = g304_variant_of(&(g304_rules){ .size = v->size });
	if (pr >= needed(w, b)) {
		a->type = G304_ACT_BID;
		a->value = (uint16_t)b;
	} else if (v->phase == G304_PHASE_BID4 && (l->acts & 1u << G304_ACT_PARTNER) && !partner_spoke4(v)
		   && pr >= needed(w, b) - 0.12 && v->asker == G304_NO_SEAT) {
		a->type = G304_ACT_PARTNER;
	}
	return 1;
}

static int sim_trump(const g304_view *v, const g304_legal *l, const game_ai_params *prm, game_ai_stats *st,
		     g304_action *a)
{
	shape shv;
	shape_of(&shv, v->size);
	const shape *sh = &shv;
	if (!(l->acts & 1u << G304_ACT_TRUMP) || !l->cards)
		return g304_simple_action(v, l, a);
	const g304_variant *w = g304_variant_of(&(g304_rules){ .size = v->size });
	int bid = v->bid >= w->bid_min && v->bid <= w->bid_max ? v->bid : w->bid_min;
	card c = best_trump(sh, v->hand | l->cards, l->cards, v->seat, v->dealer, bid, prm, st, NULL);
	if (c == CARD_NONE)
		return g304_simple_action(v, l, a);
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	a->type = G304_ACT_TRUMP;
	a->card = c;
	return 1;
}

int g304_ai_wide_action(const g304_view *v, const g304_legal *l, const game_ai_params *p, game_ai_stats *stats,
		 g304_action *a)
{
	if (p->level <= GAME_AI_EASY)
		return g304_simple_action(v, l, a);
	switch (v->phase) {
	case G304_PHASE_BID4:
	case G304_PHASE_BID8:
		return sim_bid(v, l, p, stats, a);
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		return sim_trump(v, l, p, stats, a);
	case G304_PHASE_PLAY:
		break;
	default:
		return g304_simple_action(v, l, a);
	}
	if (!g304_simple_action(v, l, a))
		return 0;
	/* Caps as the rule-based player calls it; while a caps claim is being
	 * played out the deal is decided. */
	if (a->type != G304_ACT_PLAY || v->caps_seat != G304_NO_SEAT)
		return 1;
	g304_action s;
	memset(&s, 0, sizeof s);
	s.seat = v->seat;
	for (int i = 0; i < G304_TRICKS_MAX; i++)
		s.order[i] = CARD_NONE;
	if (search_play(v, l, p, stats, &s))
		*a = s;
	return 1;
}
