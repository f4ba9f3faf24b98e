/* g304_ai.c: the search-based 304 player (see g304_ai.h and docs/AI.md).
 *
 * Parts, in order: the compact position and its rules; the playout policy;
 * the exact endgame solver; what a view tells about the hidden cards and
 * the sampling of deals consistent with it; bidding and the trump card by
 * simulation; the decision itself.
 */
#include <stdlib.h>
#include <string.h>
#include "g304_ai.h"
#include "g304_caps.h"
#include "g304_simple.h"
#include "rng.h"

#define ALL_CARDS 0xffffffffu
#define NONE8 0xff

/* How far under break-even a simulated chance may be and still bid: the
 * simulation lets the defenders see the closed trump, so it undervalues
 * the trumper's side (tuned with cardbot bench ai). */
#define BID_BOLDNESS 0.26

static const int8_t rank_pts[RANK_COUNT] = { 0, 0, 2, 3, 10, 11, 20, 30 };
static inline int pts_of(card c) { return rank_pts[c & 7]; }

static const char *const level_names[G304_AI_LEVELS] = { "easy", "normal", "strong" };

const char *g304_ai_level_name(int level)
{
	return level >= 0 && level < G304_AI_LEVELS ? level_names[level] : "?";
}

int g304_ai_level_parse(const char *name)
{
	for (int i = 0; i < G304_AI_LEVELS; i++)
		if (name && strcmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

void g304_ai_params_default(g304_ai_params *p, int level, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	p->level = level;
	p->seed = seed;
}

/* ==== the compact position ==== */

static inline int pos_next(const g304_ai_pos *p, int s)
{
	s = (s + 1) & 3;
	if (s == p->sitting_out)
		s = (s + 1) & 3;
	return s;
}

cardset g304_ai_pos_legal(const g304_ai_pos *p)
{
	int s = p->turn;
	cardset hand = p->hand[s];
	cardset trumps = suit_mask(p->tsuit);
	int trumper = s == p->trumper;
	if (p->n == 0) {
		if (!trumper)
			return hand;
		if (!hand)
			return p->tdown ? card_bit(p->tcard) : 0;
		if (p->trick_no == 0 && !p->open && s == p->barred && (hand & ~trumps))
			return hand & ~trumps;
		return hand;
	}
	int led = card_suit(p->card[0]);
	cardset follow = hand & suit_mask(led);
	if (follow)
		return follow;
	if (!trumper || !p->tdown)
		return hand;
	if (!hand)
		return card_bit(p->tcard);
	if (led == p->tsuit)
		return hand;
	return (hand & ~trumps) | card_bit(p->tcard);
}

static inline void pos_reveal(g304_ai_pos *p)
{
	if (p->tdown) {
		p->hand[p->trumper] |= card_bit(p->tcard);
		p->tdown = 0;
	}
	p->open = 1;
}

/* The index in the trick of the card winning it so far. */
static inline int trick_best(const g304_ai_pos *p)
{
	int led = card_suit(p->card[0]);
	int best = 0;
	for (int i = 1; i < p->n; i++) {
		card c = p->card[i], b = p->card[best];
		int ct = card_suit(c) == p->tsuit, bt = card_suit(b) == p->tsuit;
		if (ct ? (!bt || c > b) : (!bt && card_suit(c) == led && c > b))
			best = i;
	}
	return best;
}

void g304_ai_pos_play(g304_ai_pos *p, card c)
{
	int s = p->turn;
	if (s == p->trumper && p->tdown && c == p->tcard)
		p->tdown = 0;
	else
		p->hand[s] &= ~card_bit(c);
	if (p->n == 0 && s == p->trumper && card_suit(c) == p->tsuit && !p->open
	    && p->trick_no == 0 && s == p->barred)
		pos_reveal(p); /* nothing but trumps: the game goes open */
	p->seat[p->n] = (uint8_t)s;
	p->card[p->n] = c;
	p->n++;
	if (p->n < (p->pcc ? 3 : 4)) {
		p->turn = (uint8_t)pos_next(p, s);
		return;
	}
	int w = trick_best(p);
	int led = card_suit(p->card[0]);
	int points = 0, down_trump = 0;
	for (int i = 0; i < p->n; i++) {
		points += pts_of(p->card[i]);
		if (i && card_suit(p->card[i]) != led && card_suit(p->card[i]) == p->tsuit)
			down_trump = 1;
	}
	int team = p->seat[w] & 1;
	p->pts[team] = (int16_t)(p->pts[team] + points);
	p->tricks[team]++;
	if (!p->open && down_trump)
		pos_reveal(p);
	if (p->trick_no == 0 && !p->open && p->bid >= G304_BID8_MIN)
		pos_reveal(p);
	p->trick_no++;
	p->n = 0;
	p->turn = p->seat[w];
}

int g304_ai_pos_of(const g304 *g, g304_ai_pos *p)
{
	memset(p, 0, sizeof *p);
	if (g->phase != G304_PHASE_PLAY)
		return 0;
	for (int s = 0; s < G304_SEATS; s++)
		p->hand[s] = g->hand[s];
	p->bid = g->bid;
	p->trumper = g->trumper;
	p->tsuit = g->trump_suit;
	p->tcard = g->trump_card;
	p->tdown = g->trump_down;
	p->open = g->trump_open;
	p->barred = (uint8_t)((g->dealer + 1) & 3);
	p->pcc = g->pcc;
	p->sitting_out = g->pcc ? g->sitting_out : NONE8;
	p->trick_no = g->trick_no;
	for (int team = 0; team < 2; team++) {
		p->pts[team] = (int16_t)cardset_points(g->won[team]);
		p->tricks[team] = g->tricks_won[team];
	}
	const g304_trick *t = &g->tricks[g->trick_no];
	p->n = t->n;
	for (int i = 0; i < t->n; i++) {
		p->seat[i] = t->seat[i];
		p->card[i] = t->card[i];
	}
	p->turn = g->turn;
	return 1;
}

/* ==== the playout policy ==== */

/* The cheapest card of a non-empty set: fewest points, lowest rank, and a
 * non-trump before a trump. */
static card cheapest(cardset s, int tsuit)
{
	card best = CARD_NONE;
	int bestk = 1 << 30;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		int k = pts_of(c) * 64 + (card_suit(c) == tsuit) * 16 + card_rank(c);
		if (k < bestk) {
			bestk = k;
			best = c;
		}
	}
	return best;
}

/* The card of a non-empty set worth the most points (a non-trump first). */
static card dearest(cardset s, int tsuit)
{
	card best = CARD_NONE;
	int bestk = -1;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		int k = pts_of(c) * 64 + (card_suit(c) != tsuit) * 16 + card_rank(c);
		if (k > bestk) {
			bestk = k;
			best = c;
		}
	}
	return best;
}

/* Cards of `s` that would beat the trick's best card so far. */
static cardset beaters(const g304_ai_pos *p, cardset s)
{
	card b = p->card[trick_best(p)];
	cardset trumps = suit_mask(p->tsuit);
	cardset above = ~((card_bit(b) << 1) - 1);
	if (card_suit(b) == p->tsuit)
		return s & trumps & above;
	return (s & suit_mask(card_suit(b)) & above) | (s & trumps);
}

/* A sensible move with every hand in sight, now and then a random one. */
static card policy(const g304_ai_pos *p, rng *r, int noise)
{
	cardset legal = g304_ai_pos_legal(p);
	if (!(legal & (legal - 1)))
		return cardset_first(legal);
	if (noise && rng_below(r, 8) == 0)
		return rng_pick(r, legal);
	int s = p->turn, team = s & 1, tt = p->trumper & 1;
	cardset trumps = suit_mask(p->tsuit);
	if (p->n == 0) {
		cardset out = 0;
		for (int i = 0; i < G304_SEATS; i++)
			if (i != s)
				out |= p->hand[i];
		if (p->tdown && s != p->trumper)
			out |= card_bit(p->tcard);
		/* A master: no card still out beats it in its suit. */
		cardset masters = 0;
		for (int x = 0; x < SUIT_COUNT; x++) {
			cardset mine = legal & suit_mask(x);
			if (!mine)
				continue;
			card top = cardset_top(mine);
			if (!(out & suit_mask(x) & ~((card_bit(top) << 1) - 1)))
				masters |= card_bit(top);
		}
		cardset opp_trumps = (p->hand[(s + 1) & 3] | p->hand[(s + 3) & 3]) & trumps;
		if (team == tt && (masters & trumps) && opp_trumps)
			return cardset_first(masters & trumps);
		if (masters & ~trumps && !opp_trumps)
			return dearest(masters & ~trumps, p->tsuit);
		if (masters & ~trumps)
			return cardset_top(masters & ~trumps);
		/* Else the cheapest card of the longest side suit. */
		int len = -1, best = 0;
		for (int x = 0; x < SUIT_COUNT; x++) {
			int k = cardset_count(legal & suit_mask(x)) - (x == p->tsuit) * 8;
			if ((legal & suit_mask(x)) && k > len) {
				len = k;
				best = x;
			}
		}
		return cheapest(legal & suit_mask(best), p->tsuit);
	}
	int w = trick_best(p);
	int last = p->n == (p->pcc ? 2 : 3);
	if ((p->seat[w] & 1) == team) {
		if (last)
			return dearest(legal, p->tsuit);
		return cheapest(legal, p->tsuit);
	}
	cardset b = beaters(p, legal);
	if (b) {
		int points = 0;
		for (int i = 0; i < p->n; i++)
			points += pts_of(p->card[i]);
		cardset bt = b & ~trumps;
		if (bt)
			return last ? cheapest(bt, p->tsuit) : cardset_top(bt);
		if (points >= 10 || last)
			return cheapest(b, p->tsuit);
	}
	return cheapest(legal, p->tsuit);
}

static void playout(g304_ai_pos *p, rng *r)
{
	while (p->trick_no < G304_TRICKS) {
		card c = policy(p, r, 1);
		if (c == CARD_NONE)
			break; /* cannot happen with consistent hands */
		g304_ai_pos_play(p, c);
	}
}

long g304_ai_playouts(const g304_ai_pos *p, unsigned long n, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	long sum = 0;
	for (unsigned long i = 0; i < n; i++) {
		g304_ai_pos q = *p;
		playout(&q, &r);
		sum += q.pts[p->trumper & 1];
	}
	return sum;
}

/* ==== the exact endgame solver ==== */

#define TT_BITS 15
typedef struct tt_entry {
	uint64_t k1, k2;
	uint32_t k3;
	int16_t lo, hi;
} tt_entry;

typedef struct solver {
	tt_entry *tt;          /* may be NULL: no table */
	unsigned long nodes;
	int (*stop)(void *ctx); /* polled every few thousand positions (may be NULL) */
	void *stop_ctx;
	int aborted;           /* the budget ran out: the answer is worthless */
} solver;

static inline uint32_t key3(const g304_ai_pos *p)
{
	return (uint32_t)p->turn | (uint32_t)p->open << 2 | (uint32_t)p->tdown << 3
		| (uint32_t)p->tsuit << 4 | (uint32_t)p->tcard << 6 | (uint32_t)p->trumper << 14
		| (uint32_t)(p->bid >= G304_BID8_MIN) << 16 | (uint32_t)p->pcc << 17
		| (uint32_t)(p->trick_no == 0) << 18 | 1u << 19;
}

/* Orders the moves: high cards first (they decide tricks). */
static int order_moves(cardset legal, card *out)
{
	int n = 0;
	for (int r = RANK_COUNT - 1; r >= 0; r--)
		for (int x = 0; x < SUIT_COUNT; x++)
			if (legal & card_bit(card_make(x, r)))
				out[n++] = card_make(x, r);
	return n;
}

/* Points the trumper's team takes from here; alpha-beta, fail-soft. */
static int solve_rec(solver *sv, const g304_ai_pos *p, int alpha, int beta)
{
	if (p->trick_no >= G304_TRICKS || sv->aborted)
		return 0;
	if ((++sv->nodes & 4095) == 0 && sv->stop && sv->stop(sv->stop_ctx)) {
		sv->aborted = 1;
		return 0;
	}
	int tt = p->trumper & 1;
	tt_entry *e = NULL;
	uint64_t k1 = 0, k2 = 0;
	uint32_t k3 = 0;
	if (sv->tt && p->n == 0) {
		k1 = (uint64_t)p->hand[0] | (uint64_t)p->hand[1] << 32;
		k2 = (uint64_t)p->hand[2] | (uint64_t)p->hand[3] << 32;
		k3 = key3(p);
		uint64_t h = (k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full) ^ ((uint64_t)k3 * 0x165667b19e3779f9ull);
		e = &sv->tt[(h >> 20) & ((1u << TT_BITS) - 1)];
		if (e->k1 == k1 && e->k2 == k2 && e->k3 == k3) {
			if (e->lo >= beta)
				return e->lo;
			if (e->hi <= alpha)
				return e->hi;
			if (e->lo == e->hi)
				return e->lo;
			if (e->lo > alpha)
				alpha = e->lo;
			if (e->hi < beta)
				beta = e->hi;
		}
	}
	int a0 = alpha, b0 = beta;
	card moves[G304_TRICKS + 1];
	cardset legal = g304_ai_pos_legal(p);
	int nm = order_moves(legal, moves);
	if (nm > 2) {
		/* The policy's choice first: it is often best, and cuts early. */
		card first = policy(p, NULL, 0);
		for (int i = 1; i < nm; i++)
			if (moves[i] == first) {
				memmove(moves + 1, moves, sizeof moves[0] * (size_t)i);
				moves[0] = first;
				break;
			}
	}
	int maxing = (p->turn & 1) == tt;
	int best = maxing ? -1 : 1000;
	for (int i = 0; i < nm; i++) {
		g304_ai_pos q = *p;
		g304_ai_pos_play(&q, moves[i]);
		int gain = q.pts[tt] - p->pts[tt];
		int v = gain + solve_rec(sv, &q, alpha - gain, beta - gain);
		if (maxing) {
			if (v > best)
				best = v;
			if (best > alpha)
				alpha = best;
		} else {
			if (v < best)
				best = v;
			if (best < beta)
				beta = best;
		}
		if (alpha >= beta)
			break;
	}
	if (nm == 0)
		best = 0;
	if (e && !sv->aborted) {
		int lo = 0, hi = 304;
		if (e->k1 == k1 && e->k2 == k2 && e->k3 == k3) {
			lo = e->lo;
			hi = e->hi;
		}
		if (best <= a0)
			hi = best < hi ? best : hi;
		else if (best >= b0)
			lo = best > lo ? best : lo;
		else
			lo = hi = best;
		e->k1 = k1;
		e->k2 = k2;
		e->k3 = k3;
		e->lo = (int16_t)lo;
		e->hi = (int16_t)hi;
	}
	return best;
}

int g304_ai_solve(const g304_ai_pos *p, unsigned long *nodes)
{
	solver sv = { calloc((size_t)1 << TT_BITS, sizeof(tt_entry)), 0, NULL, NULL, 0 };
	int v = solve_rec(&sv, p, -1, 1000);
	free(sv.tt);
	if (nodes)
		*nodes += sv.nodes;
	return v;
}

int g304_ai_solve_reaches(const g304_ai_pos *p, int need, unsigned long *nodes)
{
	solver sv = { calloc((size_t)1 << TT_BITS, sizeof(tt_entry)), 0, NULL, NULL, 0 };
	int v = solve_rec(&sv, p, need - 1, need);
	free(sv.tt);
	if (nodes)
		*nodes += sv.nodes;
	return v >= need;
}

/* ==== outcomes in tokens ==== */

/* What the deal is worth to `team` given the trumper's side's points and
 * tricks at the end: the tokens won or paid, points breaking ties. */
static double outcome(const g304_ai_pos *p, int team, int tpoints, int ttricks)
{
	int tt = p->trumper & 1;
	int bid = p->pcc ? G304_BID_PCC : p->bid;
	int made = p->pcc ? ttricks == G304_TRICKS : tpoints >= bid;
	double u = made ? g304_payoff(bid) : -g304_charge(bid);
	double pts = tpoints;
	if (team != tt) {
		u = -u;
		pts = 304 - tpoints;
	}
	return u + pts * 0.002;
}

/* ==== what the view tells about the hidden cards ==== */

#define MAX_GROUPS 40
typedef struct group {
	uint8_t seat, mask, cap, kind; /* kind: 0 hand, 1 hidden played card, 2 trump card */
	uint8_t trick, pos;
	cardset got;
} group;

typedef struct vinfo {
	int me, trumper, tsuit, pcc, sitting_out;
	cardset unknown;               /* cards the seat has not seen anywhere */
	cardset known[G304_SEATS];     /* cards known to be in a hand */
	int need[G304_SEATS];          /* unknown cards in each hand */
	uint8_t voids[G304_SEATS];     /* suits a hand is known to lack */
	int nhidden;
	uint8_t htrick[32], hpos[32], hseat[32], hled[32], hcur[32];
	int trump_slot;                /* the trump card lies unseen on the table */
	int bidmax4[G304_SEATS], bidmax8[G304_SEATS];
	int ok;
} vinfo;

static int trick_full(const g304_view *v, const g304_trick *t)
{
	return t->n == (v->pcc ? 3 : 4);
}

static void analyse(const g304_view *v, vinfo *vi)
{
	memset(vi, 0, sizeof *vi);
	int me = v->seat;
	vi->me = me;
	vi->trumper = v->trumper;
	vi->tsuit = v->trump_suit;
	vi->pcc = v->pcc;
	vi->sitting_out = v->pcc ? v->sitting_out : -1;
	cardset seen = v->hand;
	int played[G304_SEATS] = { 0 };
	cardset tricks_seen = 0;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (t->n == 0)
			continue;
		int led = card_suit(t->card[0]);
		for (int k = 0; k < t->n; k++) {
			int s = t->seat[k];
			card c = t->card[k];
			played[s]++;
			if (c != CARD_NONE) {
				seen |= card_bit(c);
				tricks_seen |= card_bit(c);
				if (k > 0 && card_suit(c) != led)
					vi->voids[s] |= (uint8_t)(1u << led);
			} else if (vi->nhidden < 32) {
				int h = vi->nhidden++;
				vi->htrick[h] = (uint8_t)i;
				vi->hpos[h] = (uint8_t)k;
				vi->hseat[h] = (uint8_t)s;
				vi->hled[h] = (uint8_t)led;
				vi->hcur[h] = !trick_full(v, t);
				vi->voids[s] |= (uint8_t)(1u << led);
			}
		}
	}
	int trumper = v->trumper;
	if (v->trump_card != CARD_NONE) {
		seen |= card_bit(v->trump_card);
		if (trumper != me && trumper < G304_SEATS && !v->trump_down && !(tricks_seen & card_bit(v->trump_card)))
			vi->known[trumper] |= card_bit(v->trump_card);
	}
	vi->trump_slot = v->trump_down && trumper != me && v->trump_card == CARD_NONE;
	/* A caps call shows the caller's cards. */
	int cs = v->caps_seat;
	if (cs < G304_SEATS && cs != me && !(cs == trumper && v->trump_down))
		for (int k = v->caps_k; k < v->caps_norder && k < G304_TRICKS; k++)
			if (v->caps_order[k] < CARD_COUNT && !(seen & card_bit(v->caps_order[k])))
				vi->known[cs] |= card_bit(v->caps_order[k]);
	cardset known_all = seen;
	for (int s = 0; s < G304_SEATS; s++)
		known_all |= vi->known[s];
	vi->unknown = ALL_CARDS & ~known_all;
	int total = 0;
	for (int s = 0; s < G304_SEATS; s++) {
		if (s == me)
			continue;
		int size = G304_TRICKS - played[s] - (s == trumper && v->trump_down);
		vi->need[s] = size - cardset_count(vi->known[s]);
		if (vi->need[s] < 0)
			return;
		total += vi->need[s];
	}
	total += vi->nhidden + vi->trump_slot;
	for (int i = 0; i < v->nbidlog; i++) {
		const g304_bidlog *b = &v->bidlog[i];
		if (b->seat >= G304_SEATS)
			continue;
		int *m = b->round == 8 ? vi->bidmax8 : vi->bidmax4;
		if (b->value > m[b->seat])
			m[b->seat] = b->value;
	}
	vi->ok = total == cardset_count(vi->unknown);
}

/* Hall's condition over the four suits: can the remaining cards (count per
 * suit) fill the groups' remaining room exactly? cap is room per suit mask. */
static int hall_ok(const int cnt[SUIT_COUNT], const int cap[16])
{
	for (int S = 1; S < 16; S++) {
		int need = 0, room = 0;
		for (int x = 0; x < SUIT_COUNT; x++)
			if (S >> x & 1)
				need += cnt[x];
		for (int m = 1; m < 16; m++)
			if (m & S)
				room += cap[m];
		if (need > room)
			return 0;
	}
	return 1;
}

/* Lays out the groups for a trump suit ts (-1: none known, no constraint). */
static int make_groups(const vinfo *vi, int ts, group *gr)
{
	int ng = 0;
	uint8_t tbit = ts >= 0 ? (uint8_t)(1u << ts) : 0;
	for (int s = 0; s < G304_SEATS; s++)
		if (s != vi->me && vi->need[s] > 0)
			gr[ng++] = (group){ (uint8_t)s, (uint8_t)(0xf & ~vi->voids[s]), (uint8_t)vi->need[s], 0, 0, 0, 0 };
	for (int h = 0; h < vi->nhidden; h++) {
		/* A card still face down after its trick was inspected is no trump;
		 * in the trick in play it may be anything but the led suit. */
		uint8_t m = (uint8_t)(0xf & ~(1u << vi->hled[h]));
		if (!vi->hcur[h])
			m &= (uint8_t)~tbit;
		gr[ng++] = (group){ vi->hseat[h], m, 1, 1, vi->htrick[h], vi->hpos[h], 0 };
	}
	if (vi->trump_slot)
		gr[ng++] = (group){ (uint8_t)vi->trumper, tbit ? tbit : 0xf, 1, 2, 0, 0, 0 };
	return ng;
}

/* Deals the unknown cards into the groups at random, keeping every step
 * completable. Returns 0 if the groups cannot be filled at all. */
static int fill_groups(const vinfo *vi, group *gr, int ng, rng *r)
{
	int cnt[SUIT_COUNT] = { 0 }, cap[16] = { 0 };
	card cards[CARD_COUNT];
	int nc = 0;
	for (cardset u = vi->unknown; u; u &= u - 1)
		cards[nc++] = cardset_first(u);
	for (int i = nc - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint32_t)i + 1);
		card t = cards[i];
		cards[i] = cards[j];
		cards[j] = t;
	}
	for (int i = 0; i < nc; i++)
		cnt[card_suit(cards[i])]++;
	for (int g = 0; g < ng; g++) {
		gr[g].got = 0;
		cap[gr[g].mask] += gr[g].cap;
	}
	if (!hall_ok(cnt, cap))
		return 0;
	uint8_t room[MAX_GROUPS];
	for (int g = 0; g < ng; g++)
		room[g] = gr[g].cap;
	for (int i = 0; i < nc; i++) {
		card c = cards[i];
		int x = card_suit(c);
		cnt[x]--;
		uint64_t tried = 0;
		for (;;) {
			int sum = 0;
			for (int g = 0; g < ng; g++)
				if (room[g] && (gr[g].mask >> x & 1) && !(tried >> g & 1))
					sum += room[g];
			if (!sum)
				return 0; /* cannot happen once Hall's condition held */
			int pick = (int)rng_below(r, (uint32_t)sum), g = 0;
			for (;; g++)
				if (room[g] && (gr[g].mask >> x & 1) && !(tried >> g & 1)) {
					if (pick < room[g])
						break;
					pick -= room[g];
				}
			cap[gr[g].mask]--;
			if (hall_ok(cnt, cap)) {
				room[g]--;
				gr[g].got |= card_bit(c);
				break;
			}
			cap[gr[g].mask]++;
			tried |= 1ull << g;
		}
	}
	return 1;
}

/* How likely the sampled cards make the bids: a seat that bid holds more
 * points than average. Returns an acceptance chance in 1/1024ths. */
static int bids_weight(const vinfo *vi, const cardset dealt[G304_SEATS])
{
	double w = 1.0;
	for (int s = 0; s < G304_SEATS; s++) {
		if (s == vi->me)
			continue;
		int pts = cardset_points(dealt[s]);
		int need = 0;
		if (vi->bidmax8[s] >= G304_BID8_MIN)
			need = vi->bidmax8[s] >= G304_BID_PCC ? 150 : 110 + (vi->bidmax8[s] - 250);
		else if (vi->bidmax4[s] >= G304_MIN_BID)
			need = 60 + (vi->bidmax4[s] - 160) / 2;
		if (need && pts < need) {
			double d = (need - pts) / 25.0;
			w *= 1.0 / (1.0 + d * d);
		}
	}
	return (int)(w * 1024);
}

/* Can the unseen cards fill the groups with ts as the trump suit? */
static int feasible(const vinfo *vi, int ts)
{
	group gr[MAX_GROUPS];
	int ng = make_groups(vi, ts, gr);
	int cnt[SUIT_COUNT] = { 0 }, cap[16] = { 0 };
	for (int x = 0; x < SUIT_COUNT; x++)
		cnt[x] = cardset_count(vi->unknown & suit_mask(x));
	for (int g = 0; g < ng; g++)
		cap[gr[g].mask] += gr[g].cap;
	return hall_ok(cnt, cap);
}

/* Builds a full position consistent with the view. Returns 0 on failure. */
static int sample_deal(const g304_view *v, const vinfo *vi, rng *r, g304_ai_pos *p)
{
	group gr[MAX_GROUPS], good[MAX_GROUPS];
	int ts = vi->tsuit, ng = 0, filled = 0, good_ng = 0, good_ts = ts;
	for (int attempt = 0; attempt < 24; attempt++) {
		if (vi->tsuit < 0 && vi->trump_slot) {
			/* Unknown closed trump: a suit with cards left unseen, for
			 * which the unseen cards can fill every place. */
			int cnt[SUIT_COUNT] = { 0 }, sum = 0;
			for (int x = 0; x < SUIT_COUNT; x++) {
				int n = cardset_count(vi->unknown & suit_mask(x));
				if (n && feasible(vi, x))
					sum += cnt[x] = n;
			}
			if (!sum)
				return 0;
			int pick = (int)rng_below(r, (uint32_t)sum);
			for (ts = 0; pick >= cnt[ts]; ts++)
				pick -= cnt[ts];
		}
		ng = make_groups(vi, ts, gr);
		if (!fill_groups(vi, gr, ng, r))
			continue;
		filled = 1;
		memcpy(good, gr, sizeof gr[0] * (size_t)ng);
		good_ng = ng;
		good_ts = ts;
		if (attempt >= 16)
			break;
		/* The sampled deal's likelihood: the trumper named its best suit,
		 * and bidders hold points. */
		cardset dealt[G304_SEATS];
		for (int s = 0; s < G304_SEATS; s++)
			dealt[s] = s == vi->me ? v->hand : vi->known[s];
		for (int g = 0; g < ng; g++)
			dealt[gr[g].seat] |= gr[g].got;
		for (int i = 0; i < v->ntricks; i++)
			for (int k = 0; k < v->tricks[i].n; k++)
				if (v->tricks[i].card[k] != CARD_NONE)
					dealt[v->tricks[i].seat[k]] |= card_bit(v->tricks[i].card[k]);
		int w = bids_weight(vi, dealt);
		if (vi->tsuit < 0 && vi->trump_slot && vi->trumper < G304_SEATS) {
			cardset th = dealt[vi->trumper];
			int best = 0, mine = cardset_count(th & suit_mask(ts));
			for (int x = 0; x < SUIT_COUNT; x++)
				if (cardset_count(th & suit_mask(x)) > best)
					best = cardset_count(th & suit_mask(x));
			w = w * (mine + 1) / (best + 1);
		}
		if ((int)rng_below(r, 1024) < w)
			break;
	}
	if (!filled)
		return 0;
	/* The last deal that filled (a later attempt may have failed). */
	memcpy(gr, good, sizeof gr[0] * (size_t)good_ng);
	ng = good_ng;
	ts = good_ts;
	memset(p, 0, sizeof *p);
	for (int s = 0; s < G304_SEATS; s++)
		p->hand[s] = s == vi->me ? v->hand : vi->known[s];
	card tcard = v->trump_card;
	card tricks_card[G304_TRICKS][G304_SEATS];
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < G304_SEATS; k++)
			tricks_card[i][k] = v->tricks[i].card[k];
	for (int g = 0; g < ng; g++) {
		if (gr[g].kind == 0)
			p->hand[gr[g].seat] |= gr[g].got;
		else if (gr[g].kind == 1)
			tricks_card[gr[g].trick][gr[g].pos] = cardset_first(gr[g].got);
		else
			tcard = cardset_first(gr[g].got);
	}
	p->bid = v->bid;
	p->trumper = v->trumper;
	p->tsuit = (uint8_t)(ts >= 0 ? ts : tcard != CARD_NONE ? card_suit(tcard) : 0);
	p->tcard = tcard;
	p->tdown = v->trump_down;
	p->open = v->trump_open;
	p->barred = (uint8_t)((v->dealer + 1) & 3);
	p->pcc = v->pcc;
	p->sitting_out = v->pcc ? v->sitting_out : NONE8;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (t->winner < G304_SEATS) {
			int pts = 0;
			for (int k = 0; k < t->n; k++)
				pts += pts_of(tricks_card[i][k]);
			p->pts[t->winner & 1] = (int16_t)(p->pts[t->winner & 1] + pts);
			p->tricks[t->winner & 1]++;
			continue;
		}
		p->trick_no = (uint8_t)i;
		p->n = t->n;
		for (int k = 0; k < t->n; k++) {
			p->seat[k] = t->seat[k];
			p->card[k] = tricks_card[i][k];
		}
	}
	p->turn = v->turn;
	return 1;
}

/* ==== bidding and the trump card by simulation ==== */

typedef struct simres {
	int n;
	int hist[31];      /* trumper's side's points, by tens (0..300+) */
	int caps;          /* all eight tricks */
	long sum;
} simres;

/* Plays `n` random completions of the seat's known cards with `c` as its
 * trump card, the seat as trumper at `bid`, and counts the points. */
static void simulate(cardset mine, int me, int dealer, card c, int bid, int pcc, int n, rng *r,
		     g304_ai_stats *st, simres *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		card rest[CARD_COUNT];
		int nr = 0;
		for (cardset u = ALL_CARDS & ~mine; u; u &= u - 1)
			rest[nr++] = cardset_first(u);
		for (int k = nr - 1; k > 0; k--) {
			int j = (int)rng_below(r, (uint32_t)k + 1);
			card t = rest[k];
			rest[k] = rest[j];
			rest[j] = t;
		}
		g304_ai_pos p;
		memset(&p, 0, sizeof p);
		p.hand[me] = mine;
		int k = 0;
		while (cardset_count(p.hand[me]) < G304_TRICKS)
			p.hand[me] |= card_bit(rest[k++]);
		for (int s = 0; s < G304_SEATS; s++)
			if (s != me)
				for (int j = 0; j < G304_TRICKS; j++)
					p.hand[s] |= card_bit(rest[k++]);
		p.hand[me] &= ~card_bit(c);
		p.bid = (uint16_t)bid;
		p.trumper = (uint8_t)me;
		p.tsuit = (uint8_t)card_suit(c);
		p.tcard = c;
		p.tdown = 1;
		p.barred = (uint8_t)((dealer + 1) & 3);
		p.pcc = (uint8_t)pcc;
		p.sitting_out = pcc ? (uint8_t)g304_partner(me) : NONE8;
		p.turn = pcc ? (uint8_t)me : (uint8_t)((dealer + 1) & 3);
		playout(&p, r);
		int tt = me & 1;
		int pts = p.pts[tt] + (pcc ? cardset_points(p.hand[g304_partner(me)]) : 0);
		out->hist[pts / 10 > 30 ? 30 : pts / 10]++;
		out->sum += pts;
		out->caps += p.tricks[tt] == G304_TRICKS;
		out->n++;
		if (st)
			st->playouts++;
	}
}

/* Chance of taking at least `bid` points. */
static double chance(const simres *s, int bid)
{
	if (!s->n)
		return 0;
	int k = 0;
	for (int i = bid / 10; i <= 30; i++)
		k += s->hist[i];
	/* Bids are multiples of 5: count half of the straddling ten. */
	if (bid % 10)
		k -= s->hist[bid / 10] / 2;
	return (double)k / s->n;
}

/* The chance needed to make a bid worth taking on: just above break-even. */
static double needed(int bid)
{
	int pay = g304_payoff(bid), charge = g304_charge(bid);
	double bold = bid < G304_LIMIT_BID ? BID_BOLDNESS : BID_BOLDNESS / 2;
	return (double)charge / (pay + charge) - bold;
}

static int sim_count(const g304_ai_params *p)
{
	return p->level >= G304_AI_STRONG ? 240 : 48;
}

/* The best trump card from `from` for a hand `mine`: the lowest card of the
 * suit that scores best in simulation; *res gets that suit's results. */
static card best_trump(cardset mine, cardset from, int me, int dealer, int bid, int pcc,
		       const g304_ai_params *prm, g304_ai_stats *st, simres *res)
{
	card best = CARD_NONE;
	long best_score = -1;
	int n = sim_count(prm);
	for (int x = 0; x < SUIT_COUNT; x++) {
		cardset in = from & suit_mask(x);
		if (!in)
			continue;
		card c = cardset_first(in);
		rng r;
		rng_seed(&r, prm->seed ^ 0x7f4a7c15u); /* the same deals for every suit */
		simres s;
		simulate(mine, me, dealer, c, bid, pcc, n, &r, st, &s);
		long score = pcc ? s.caps * 1000L + s.sum / 100 : s.sum;
		if (score > best_score) {
			best_score = score;
			best = c;
			if (res)
				*res = s;
		}
	}
	return best;
}

static int partner_spoke4(const g304_view *v)
{
	int partner = g304_partner(v->seat);
	for (int i = 0; i < v->nbidlog; i++)
		if (v->bidlog[i].round == 4 && v->bidlog[i].seat == partner)
			return 1;
	return 0;
}

static int decide_bid4(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		       g304_ai_stats *st, g304_action *a)
{
	if (l->acts & 1u << G304_ACT_REDEAL) {
		a->type = G304_ACT_REDEAL;
		return 1;
	}
	if (!(l->acts & 1u << G304_ACT_PASS))
		return 0;
	a->type = G304_ACT_PASS;
	int partner_high = v->bidder == g304_partner(v->seat) && v->bid;
	if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min || partner_high)
		return 1;
	int b = l->bid_min;
	simres s;
	if (best_trump(v->hand, v->hand, v->seat, v->dealer, b, 0, prm, st, &s) == CARD_NONE)
		return 1;
	double pr = chance(&s, b);
	if (pr >= needed(b)) {
		a->type = G304_ACT_BID;
		a->value = (uint16_t)b;
	} else if ((l->acts & 1u << G304_ACT_PARTNER) && !partner_spoke4(v) && pr >= needed(b) - 0.12
		   && v->asker == G304_NO_SEAT) {
		/* Close, and partner has not said anything yet: let partner judge. */
		a->type = G304_ACT_PARTNER;
	}
	return 1;
}

static int decide_bid8(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		       g304_ai_stats *st, g304_action *a)
{
	if (!(l->acts & 1u << G304_ACT_PASS))
		return 0;
	a->type = G304_ACT_PASS;
	if (!(l->acts & 1u << G304_ACT_BID))
		return 1;
	int pts = cardset_points(v->hand);
	/* Only hands that could take 250 are worth simulating. */
	if (pts < 110)
		return 1;
	simres s;
	if (l->pcc_ok && pts >= 150) {
		best_trump(v->hand, v->hand, v->seat, v->dealer, G304_BID_PCC, 1, prm, st, &s);
		if (s.n && (double)s.caps / s.n >= needed(G304_BID_PCC) + 0.15) {
			a->type = G304_ACT_BID;
			a->value = G304_BID_PCC;
			return 1;
		}
	}
	if (l->bid_min) {
		int b = l->bid_min;
		best_trump(v->hand, v->hand, v->seat, v->dealer, b, 0, prm, st, &s);
		if (chance(&s, b) >= needed(b)) {
			a->type = G304_ACT_BID;
			a->value = (uint16_t)b;
		}
	}
	return 1;
}

/* ==== spoilt trumps ==== */

/* Can the view's seat prove that `s` was dealt no card of the trump suit? */
static int proves_no_trump(const g304_view *v, int s, int ts)
{
	if (s == v->seat) {
		if (v->hand & suit_mask(ts))
			return 0;
	}
	int plays = 0;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		for (int k = 0; k < t->n; k++) {
			if (t->seat[k] != s)
				continue;
			plays++;
			card c = t->card[k];
			int led = card_suit(t->card[0]);
			if (c == CARD_NONE) {
				if (!trick_full(v, t))
					return s == v->seat;
				if (led == ts)
					return 1; /* could not follow a trump lead */
				continue; /* inspected face down: no trump */
			}
			if (card_suit(c) == ts)
				return 0;
			if (k > 0 && led == ts)
				return 1;
		}
	}
	return s == v->seat || plays == G304_TRICKS;
}

static int spoilt_certain(const g304_view *v)
{
	int tr = v->trumper;
	if (tr >= G304_SEATS || v->trump_suit < 0 || g304_team(v->seat) == g304_team(tr))
		return 0;
	return proves_no_trump(v, (tr + 1) & 3, v->trump_suit) && proves_no_trump(v, (tr + 3) & 3, v->trump_suit);
}

/* ==== the card by search ==== */

static int samples_of(const g304_ai_params *p)
{
	if (p->samples)
		return (int)p->samples;
	return p->level >= G304_AI_STRONG ? 200 : 16;
}

static card search_play(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
			g304_ai_stats *st)
{
	card moves[G304_TRICKS + 1];
	int nm = 0;
	for (cardset s = l->cards; s; s &= s - 1)
		moves[nm++] = cardset_first(s);
	if (nm == 1)
		return moves[0];
	vinfo vi;
	analyse(v, &vi);
	if (!vi.ok)
		return CARD_NONE;
	double sum[G304_TRICKS + 1] = { 0 };
	int solve_from = prm->solve_tricks > 0 ? prm->solve_tricks : 6;
	if (prm->level < G304_AI_STRONG && !prm->solve_tricks)
		solve_from = 4;
	int nsamples = samples_of(prm), done = 0;
	int team = v->seat & 1;
	rng r;
	rng_seed(&r, prm->seed ^ ((uint64_t)v->deal_no << 32) ^ ((uint64_t)v->ntricks << 8)
		 ^ (uint64_t)v->tricks[v->ntricks ? v->ntricks - 1 : 0].n);
	solver sv = { calloc((size_t)1 << TT_BITS, sizeof(tt_entry)), 0, NULL, NULL, 0 };
	for (int i = 0; i < nsamples; i++) {
		if (done == 1) {
			/* One whole sample is in: from now on the budget may cut
			 * a solve short too (that sample is then dropped). */
			sv.stop = prm->stop;
			sv.stop_ctx = prm->stop_ctx;
		}
		if (done && prm->stop && prm->stop(prm->stop_ctx))
			break;
		g304_ai_pos p;
		if (!sample_deal(v, &vi, &r, &p))
			break;
		done++;
		if (st)
			st->samples++;
		int left = G304_TRICKS - p.trick_no;
		double val[G304_TRICKS + 1];
		int m = 0;
		for (; m < nm; m++) {
			/* Exact solves are slow enough to check the budget between
			 * them; a sample cut short is dropped whole. */
			if (m && done > 1 && left <= solve_from && prm->stop && prm->stop(prm->stop_ctx))
				break;
			g304_ai_pos q = p;
			g304_ai_pos_play(&q, moves[m]);
			int tt = q.trumper & 1;
			if (left <= solve_from && !q.pcc) {
				/* Exact (in pcc the trick count decides: playouts judge).
				 * Tokens depend only on making the bid, so a null
				 * window at the bid decides it, several times faster
				 * than the points themselves; the bound it returns
				 * breaks ties. */
				int need = q.bid - q.pts[tt];
				int tp = q.pts[tt] + solve_rec(&sv, &q, need - 1, need);
				val[m] = outcome(&q, team, tp, 0);
				if (st)
					st->solves++;
			} else {
				playout(&q, &r);
				int tp = q.pts[tt] + (q.pcc ? cardset_points(q.hand[q.sitting_out]) : 0);
				val[m] = outcome(&q, team, tp, q.tricks[tt]);
				if (st)
					st->playouts++;
			}
		}
		if (m < nm || sv.aborted)
			break;
		for (m = 0; m < nm; m++)
			sum[m] += val[m];
	}
	if (st)
		st->nodes += sv.nodes;
	free(sv.tt);
	if (!done)
		return CARD_NONE;
	int best = 0;
	for (int m = 1; m < nm; m++)
		if (sum[m] > sum[best] + 1e-9)
			best = m;
	return moves[best];
}

int g304_ai_action(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		   g304_ai_stats *st, g304_action *a)
{
	if (prm->level <= G304_AI_EASY)
		return g304_simple_action(v, l, a);
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	switch (v->phase) {
	case G304_PHASE_BID4:
		return decide_bid4(v, l, prm, st, a);
	case G304_PHASE_BID8:
		return decide_bid8(v, l, prm, st, a);
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8: {
		if (!(l->acts & 1u << G304_ACT_TRUMP) || !l->cards)
			return 0;
		int pcc = v->pcc;
		card c = best_trump(v->hand, l->cards, v->seat, v->dealer, v->bid, pcc, prm, st, NULL);
		a->type = G304_ACT_TRUMP;
		a->card = c != CARD_NONE ? c : cardset_first(l->cards);
		return 1;
	}
	case G304_PHASE_PLAY:
		if ((l->acts & 1u << G304_ACT_SPOILT) && spoilt_certain(v)) {
			a->type = G304_ACT_SPOILT;
			return 1;
		}
		if (!(l->acts & 1u << G304_ACT_PLAY))
			return 0;
		if ((l->acts & 1u << G304_ACT_CAPS) && v->caps_seat == G304_NO_SEAT
		    && v->tricks_won[!(v->seat & 1)] == 0) {
			int n;
			if (g304_caps_find(v, G304_CAPS_TRACK_BUDGET, a->order, &n, NULL) == 1) {
				a->type = G304_ACT_CAPS;
				a->norder = (uint8_t)n;
				return 1;
			}
		}
		a->type = G304_ACT_PLAY;
		a->card = search_play(v, l, prm, st);
		if (a->card == CARD_NONE || !(l->cards & card_bit(a->card)))
			return g304_simple_action(v, l, a); /* the view made no sense: be safe */
		return 1;
	default:
		return 0;
	}
}
