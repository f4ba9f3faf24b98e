/* g304_ai_internal.h: what the pieces of the search player share; private
 * to engine/g304_ai*.c (the public interface is g304_ai.h).
 *
 * The pieces, one noun each:
 *   g304_ai.c          levels, parameters and the top-level decision
 *   g304_ai_pos.c      the compact position the search plays on, and its rules
 *   g304_ai_playout.c  the playout policy and playouts
 *   g304_ai_solve.c    the exact endgame solver
 *   g304_ai_sample.c   what a view tells about the hidden cards, and the
 *                      sampling of deals consistent with it
 *   g304_ai_bid.c      bidding and the trump card by simulation
 *   g304_ai_spoilt.c   spoilt trumps: when the view proves them
 *   g304_ai_open.c     open or closed, and what playing on is worth
 *   g304_ai_search.c   the card by search (outcomes in tokens)
 */
#ifndef CARDBOT_G304_AI_INTERNAL_H
#define CARDBOT_G304_AI_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "g304_ai.h"
#include "minimax.h"
#include "rng.h"

#define ALL_CARDS 0xffffffffu
#define NONE8 0xff
#define FOUR (&g304_variants[G304_SIZE_FOUR]) /* the four-player search's table size */

/* Card points of a card. */
static inline int g304_ai_pts(card c)
{
	static const int8_t rank_pts[RANK_COUNT] = { 0, 0, 2, 3, 10, 11, 20, 30 };
	return rank_pts[c & 7];
}

/* ---- the compact position (g304_ai_pos.c) ---- */

/* The index in the trick of the card winning it so far. */
static inline int g304_ai_pos_best(const g304_ai_pos *p)
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

/* The trump card face up for good: back in the trumper's hand if it still
 * lay on the table. */
static inline void g304_ai_pos_reveal(g304_ai_pos *p)
{
	if (p->tdown) {
		p->hand[p->trumper] |= card_bit(p->tcard);
		p->tdown = 0;
	}
	p->open = 1;
}

/* g304_ai_pos_play, inline for the solver's inner loop. */
static inline void g304_ai_pos_step(g304_ai_pos *p, card c)
{
	int s = p->turn;
	if (s == p->trumper && p->tdown && c == p->tcard)
		p->tdown = 0;
	else
		p->hand[s] &= ~card_bit(c);
	if (p->n == 0 && s == p->trumper && card_suit(c) == p->tsuit && !p->open
	    && p->trick_no == 0 && s == p->barred)
		g304_ai_pos_reveal(p); /* nothing but trumps: the game goes open */
	p->seat[p->n] = (uint8_t)s;
	p->card[p->n] = c;
	p->n++;
	if (p->n < (p->pcc ? 3 : 4)) {
		s = (s + 1) & 3;
		if (s == p->sitting_out)
			s = (s + 1) & 3;
		p->turn = (uint8_t)s;
		return;
	}

/* A move's value for an exact solver (g304_ai_solve's, or the one of
 * before issue 33 in g304_ai_ref.c; SOLVE(sv, pos, alpha, beta) gives the
 * points the trumper's side tm takes from a position): into v, the points
 * the move itself takes counted. */
#define G304_AI_CHILD(v, SOLVE, sv, p, c, tm, alpha, beta)                           \
	do {                                                                          \
		g304_ai_pos child_ = *(p);                                            \
		g304_ai_pos_step(&child_, (c));                                       \
		int gain_ = child_.pts[tm] - (p)->pts[tm];                            \
		(v) = gain_ + SOLVE((sv), &child_, (alpha) - gain_, (beta) - gain_); \
	} while (0)
	int w = g304_ai_pos_best(p);
	int led = card_suit(p->card[0]);
	int points = 0, down_trump = 0;
	for (int i = 0; i < p->n; i++) {
		points += g304_ai_pts(p->card[i]);
		if (i && card_suit(p->card[i]) != led && card_suit(p->card[i]) == p->tsuit)
			down_trump = 1;
	}
	int team = p->seat[w] & 1;
	p->pts[team] = (int16_t)(p->pts[team] + points);
	p->tricks[team]++;
	if (!p->open && down_trump)
		g304_ai_pos_reveal(p);
	if (p->trick_no == 0 && !p->open && p->bid >= G304_BID8_MIN)
		g304_ai_pos_reveal(p);
	p->trick_no++;
	p->n = 0;
	p->turn = p->seat[w];
}

/* ---- the playout policy (g304_ai_playout.c) ---- */

/* A sensible move with every hand in sight, now and then a random one (r
 * may be NULL when noise is 0). */
card g304_ai_policy(const g304_ai_pos *p, rng *r, int noise);
/* Plays the policy, with noise, to the end of the deal. */
void g304_ai_playout(g304_ai_pos *p, rng *r);

/* ---- the exact endgame solver (g304_ai_solve.c) ---- */

/* Transposition table sizes: a decision's many solves share one table;
 * a single solve (g304_ai_solve) gets a small one, cheap to clear. */
#define G304_AI_TT_BITS 15
#define G304_AI_TT_BITS_ONE 9
typedef struct g304_ai_tt_entry {
	uint64_t k1, k2;
	uint32_t k3;
	int16_t lo, hi;
} g304_ai_tt_entry;

/* A position's key at the start of a trick: the four hands, and in k3
 * what else decides its value (whose turn, the trump and whether it is
 * down or open, the trumper, the bid's band, pcc, the first trick). */
typedef struct g304_ai_key {
	uint64_t k1, k2;
	uint32_t k3;
} g304_ai_key;

/* The entry of the table tt (mask: its entries less one) that keeps p, a
 * position at the start of a trick, and p's key in *k. */
static inline g304_ai_tt_entry *g304_ai_tt_slot(g304_ai_tt_entry *tt, uint32_t mask, const g304_ai_pos *p,
						 g304_ai_key *k)
{
	k->k1 = (uint64_t)p->hand[0] | (uint64_t)p->hand[1] << 32;
	k->k2 = (uint64_t)p->hand[2] | (uint64_t)p->hand[3] << 32;
	k->k3 = (uint32_t)p->turn | (uint32_t)p->open << 2 | (uint32_t)p->tdown << 3 | (uint32_t)p->tsuit << 4
		| (uint32_t)p->tcard << 6 | (uint32_t)p->trumper << 14 | (uint32_t)(p->bid >= G304_BID8_MIN) << 16
		| (uint32_t)p->pcc << 17 | (uint32_t)(p->trick_no == 0) << 18 | 1u << 19;
	uint64_t h = (k->k1 * 0x9e3779b97f4a7c15ull) ^ (k->k2 * 0xc2b2ae3d27d4eb4full)
		^ ((uint64_t)k->k3 * 0x165667b19e3779f9ull);
	return &tt[(h >> 20) & mask];
}

static inline int g304_ai_tt_holds(const g304_ai_tt_entry *e, const g304_ai_key *k)
{
	return e->k1 == k->k1 && e->k2 == k->k2 && e->k3 == k->k3;
}

/* 1 with the value in *v when e's bounds for k settle the node (window
 * alpha..beta); else narrows the window to them and returns 0. */
static inline int g304_ai_tt_probe(const g304_ai_tt_entry *e, const g304_ai_key *k, int *alpha, int *beta, int *v)
{
	return g304_ai_tt_holds(e, k) && minimax_probe(e->lo, e->hi, alpha, beta, v);
}

/* Before a node p is searched (rem: the points still in play): 1 with
 * its value in *v when the bounds 0..rem or the table tt (NULL: none;
 * mask: its entries less one) settle it; else narrows alpha..beta, and
 * *e (NULL: not kept, as within a trick) and *k say where to keep what
 * the search finds (g304_ai_tt_save). */
static inline int g304_ai_tt_enter(g304_ai_tt_entry *tt, uint32_t mask, const g304_ai_pos *p, int rem, int *alpha,
				   int *beta, g304_ai_tt_entry **e, g304_ai_key *k, int *v)
{
	*e = NULL;
	memset(k, 0, sizeof *k);
	if (rem <= *alpha || *beta <= 0) {
		*v = rem <= *alpha ? rem : 0;
		return 1;
	}
	if (!tt || p->n)
		return 0;
	*e = g304_ai_tt_slot(tt, mask, p, k);
	return g304_ai_tt_probe(*e, k, alpha, beta, v);
}

/* Keeps in e, for k, what a search of window a0..b0 that returned best
 * tells (the bounds e held for k narrowed, or the value). */
static inline void g304_ai_tt_save(g304_ai_tt_entry *e, const g304_ai_key *k, int best, int a0, int b0)
{
	int lo = 0, hi = 304;
	if (g304_ai_tt_holds(e, k)) {
		lo = e->lo;
		hi = e->hi;
	}
	minimax_store(&lo, &hi, best, a0, b0);
	e->k1 = k->k1;
	e->k2 = k->k2;
	e->k3 = k->k3;
	e->lo = (int16_t)lo;
	e->hi = (int16_t)hi;
}

/* A node's end: its value (0 when no move was left), kept in e unless the
 * search was stopped (an aborted value proves nothing). */
static inline int g304_ai_tt_leave(g304_ai_tt_entry *e, const g304_ai_key *k, int best, int nm, int aborted, int a0,
				   int b0)
{
	if (nm == 0)
		best = 0;
	if (e && !aborted)
		g304_ai_tt_save(e, k, best, a0, b0);
	return best;
}

typedef struct g304_ai_solver {
	g304_ai_tt_entry *tt;          /* may be NULL: no table */
	uint32_t tt_mask;              /* entries in tt, less one */
	card killer[G304_TRICKS][G304_SEATS]; /* the last card that cut, by trick and seat */
	unsigned long nodes;
	int (*stop)(void *ctx); /* polled every few thousand positions (may be NULL) */
	void *stop_ctx;
	int aborted;           /* the budget ran out: the answer is worthless */
} g304_ai_solver;

/* A solver with a table of 2^bits entries (none if memory ran out:
 * returns 0, and the solver still works, only slower); free with
 * g304_ai_solver_free. */
int g304_ai_solver_init(g304_ai_solver *sv, int bits);
void g304_ai_solver_free(g304_ai_solver *sv);
/* Points the trumper's team takes from p; alpha-beta, fail-soft. */
int g304_ai_solve_rec(g304_ai_solver *sv, const g304_ai_pos *p, int alpha, int beta);

/* ---- what the view tells about the hidden cards (g304_ai_sample.c) ---- */

typedef struct g304_ai_vinfo {
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
} g304_ai_vinfo;

static inline int g304_ai_trick_full(const g304_view *v, const g304_trick *t)
{
	return t->n == (v->pcc ? 3 : 4);
}

/* The cards of s in a random order (Fisher-Yates from the lowest card up);
 * returns how many. */
int g304_ai_sample_cards(cardset s, rng *r, card out[CARD_COUNT]);
/* Reads the view into *vi (vi->ok: it makes sense). */
void g304_ai_sample_view(const g304_view *v, g304_ai_vinfo *vi);
/* Builds a full position consistent with the view. Returns 0 on failure. */
/* A position's contract, from the state or from a view and a sampled deal:
 * the bid, the trumper, the trump suit and card as the caller knows them,
 * whether the trump card lies down and the trump is open, the seat barred
 * from leading a trump to a closed first trick (the dealer's left), and
 * under pcc the first seat sitting out. */
void g304_ai_pos_contract(g304_ai_pos *p, uint16_t bid, uint8_t trumper, uint8_t tsuit, card tcard, uint8_t tdown,
			  uint8_t open, int dealer, uint8_t pcc, uint8_t sitting_out);
int g304_ai_sample_deal(const g304_view *v, const g304_ai_vinfo *vi, rng *r, g304_ai_pos *p);

/* ---- bidding and the trump card by simulation (g304_ai_bid.c) ---- */

/* What the simulations of one trump suit gave (private to g304_ai_bid.c). */
typedef struct g304_ai_simres g304_ai_simres;

/* The best trump card from `from` for a hand `mine`: the lowest card of the
 * suit that scores best in simulation; *res (may be NULL) gets that suit's
 * results. */
card g304_ai_bid_trump(cardset mine, cardset from, int me, int dealer, int bid, int pcc,
		       const g304_ai_params *prm, g304_ai_stats *st, g304_ai_simres *res);
/* The seat's call in the four-card and the eight-card bidding. */
int g304_ai_bid4(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		 g304_ai_stats *st, g304_action *a);
int g304_ai_bid8(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		 g304_ai_stats *st, g304_action *a);

/* ---- spoilt trumps (g304_ai_spoilt.c) ---- */

/* 1 if the view proves that neither opponent of the trumper was dealt a
 * trump (from any seat: its own cards, what was played and not followed). */
int g304_ai_spoilt_proven(const g304_view *v);
/* The same, for a seat of the trumper's opponents (whose call is free: a
 * right call voids a deal they would most likely lose). */
int g304_ai_spoilt_certain(const g304_view *v);

/* ---- open or closed, and the worth of playing on (g304_ai_open.c) ---- */

/* What playing the deal out from the view is worth to the seat's side in
 * tokens, averaged over sampled deals played out by the playout policy:
 * *closed as the game stands, *opened (unless NULL) as if the trumper
 * turned it open now, on the same samples and playout streams. *ok is 0
 * when the view made no sense (the values are then 0). */
void g304_ai_play_values(const g304_view *v, const g304_ai_params *prm, g304_ai_stats *st, double *closed,
			 double *opened, int *ok);

/* ---- the card by search (g304_ai_search.c) ---- */

/* The card to play, or CARD_NONE if the view makes no sense. */
card g304_ai_search_play(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
			 g304_ai_stats *st);

#endif
