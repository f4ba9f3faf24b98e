/* t304_ai_internal.h: what the pieces of the Trump304 search player share;
 * private to engine/t304_ai*.c (the public interface is t304_ai.h).
 *
 *   t304_ai.c         levels, the top-level decision, the card by search
 *   t304_ai_pos.c     the compact position with every card placed, its
 *                     rules, the playout policy and the exact endgame solver
 *   t304_ai_sample.c  what a view tells about the hidden cards, and the
 *                     sampling of deals consistent with it
 *   t304_ai_bid.c     bidding, the trump card and the three-player exchange
 *                     by simulation
 */
#ifndef CARDBOT_T304_AI_INTERNAL_H
#define CARDBOT_T304_AI_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "t304_ai.h"
#include "rng.h"

#define T3_NONE 0xff

/* A deal in play with every card placed (a sample, or a simulation). */
typedef struct t3pos {
	cardset hand[T304_MAX_SEATS];   /* the trump card aside is not in hand */
	cardset held[T304_MAX_SEATS];   /* two players: every card held (the spoilt check) */
	card pile[T304_PILE];           /* two players: the draw pile, next at pile[T304_PILE - npile] */
	int16_t pts;                    /* card points the trumper's side has taken */
	uint16_t bid;
	uint8_t nseats, ntricks, trick_no;
	uint8_t trumper, tsuit, tcard;
	uint8_t aside;                  /* the trump card is still face down */
	uint8_t must_cut;               /* seat that revealed and must cut, or T3_NONE */
	uint8_t npile;
	uint8_t n, turn, cut;           /* cards in the trick, seat to play, cut bits */
	uint8_t seat[T304_MAX_SEATS];
	card card[T304_MAX_SEATS];
	uint8_t over;                   /* the deal is over */
	uint8_t spoilt;
} t3pos;

/* 0 for the trumper's side, 1 for the other (t304_same_side, inline: the
 * solver asks it at every position). */
static inline int t3_side(const t3pos *p, int s)
{
	if (s == p->trumper)
		return 0;
	return p->nseats == 4 ? (s ^ p->trumper) & 1 : 1;
}

/* Cards the seat to move may play. */
cardset t3_legal(const t3pos *p);
/* The seat to move may ask for (or make) the reveal now. */
int t3_may_reveal(const t3pos *p);
void t3_reveal(t3pos *p);
/* Plays c for the seat to move (no check); finishes tricks, draws, the end. */
void t3_play(t3pos *p, card c);
/* Starts play: the leader, and the reveal of a one-trick deal (never). */
void t3_start(t3pos *p, int leader);
/* The playout policy: a sensible move with every hand in sight; may
 * choose the reveal (returns CARD_NONE and reveals). noise: now and then a
 * random card. */
card t3_policy(t3pos *p, rng *r, int noise);
/* Plays the policy to the end of the deal. */
void t3_playout(t3pos *p, rng *r);
/* Tokens the deal is worth to seat `me` at its end, with points breaking ties. */
double t3_value(const t3pos *p, int me);
/* The compact position of a game in play, every card known (tests and benchmarks). */
void t3_pos_of(const t304 *g, t3pos *p);

/* A solved position at a trick's start: bounds on the points the
 * trumper's side takes from there. */
typedef struct t3tt {
	cardset hand[T304_MAX_SEATS];
	uint8_t turn, aside, tcard, used;
	int16_t lo, hi;
} t3tt;
#define T3_TT_BITS 15

typedef struct t3solver {
	t3tt *tt;               /* 1 << T3_TT_BITS entries, or NULL */
	unsigned long nodes;
	int (*stop)(void *ctx);
	void *stop_ctx;
	int aborted;
	uint8_t killer[16][4];  /* the move that last cut, by trick and seat (0: none yet) */
} t3solver;
/* Points the trumper's side takes from p to the end with best play
 * (alpha-beta, fail-soft, the reveal a move like any card). Only with the
 * pile empty. */
int t3_solve(t3solver *sv, const t3pos *p, int alpha, int beta);

/* A node of a solver's search (t3_solve's, or the one of before issue 33):
 * counted, the stop polled now and then; nonzero when the search is over. */
static inline int t3_node(t3solver *sv)
{
	if ((++sv->nodes & 4095) == 0 && sv->stop && sv->stop(sv->stop_ctx))
		sv->aborted = 1;
	return sv->aborted;
}

/* The table's slot for a position at a trick's start, and whether the slot
 * holds that position. */
static inline t3tt *t3_tt_slot(const t3solver *sv, const t3pos *p)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < p->nseats; i++)
		h = (h ^ p->hand[i]) * 0xff51afd7ed558ccdull;
	h = (h ^ (uint64_t)(p->turn | p->aside << 4 | p->tcard << 8)) * 0xc4ceb9fe1a85ec53ull;
	return &sv->tt[h >> (64 - T3_TT_BITS)];
}
static inline int t3_tt_same(const t3tt *e, const t3pos *p)
{
	return e->used && e->turn == p->turn && e->aside == p->aside && e->tcard == p->tcard &&
	       !memcmp(e->hand, p->hand, sizeof e->hand);
}

/* The reveal among the solver's moves. */
#define T3_REVEAL 0xfe
/* One move's value for a solver (t3_solve, or the one of before issue 33
 * in t304_ai_ref.c): the position after it, searched; a card's points
 * taken by the move count from here. */
static inline int t3_child(t3solver *sv, const t3pos *p, uint8_t move, int alpha, int beta,
			   int (*solve)(t3solver *, const t3pos *, int, int))
{
	t3pos q = *p;
	if (move == T3_REVEAL) {
		t3_reveal(&q);
		return solve(sv, &q, alpha, beta);
	}
	t3_play(&q, move);
	int g = q.pts - p->pts;
	return g + solve(sv, &q, alpha - g, beta - g);
}

/* ---- the hidden cards (t304_ai_sample.c) ---- */
typedef struct t3info {
	int me, nseats, trumper, tsuit; /* tsuit -1 if the seat does not know it */
	cardset unknown;                /* cards the seat cannot place */
	cardset known[T304_MAX_SEATS];  /* cards known in a hand */
	int need[T304_MAX_SEATS];       /* unknown cards in each hand */
	int aside_slot;                 /* the trump card lies unseen */
	int npile;                      /* unseen pile cards */
	int nout;                       /* unseen cards out of play (three players) */
	uint8_t voids[T304_MAX_SEATS];
	cardset played_tr;              /* cards the trumper played */
	int ok;
} t3info;

void t3_info(const t304_view *v, t3info *in);
/* A position consistent with the view (phase PLAY). 0 on failure. */
int t3_sample(const t304_view *v, const t3info *in, rng *r, t3pos *p);

/* ---- the levels (t304_ai.c, t304_ai_bid.c) ---- */
/* The strong player as it is now, not as it was before issue 33 (the
 * benchmark's strong0, game_ai_params.counts_before): since the faster
 * solver it bids, chooses the trump and exchanges on 400 simulated deals
 * with the last T3_BID_EXACT tricks of each solved exactly (strong0: 160
 * deals played out by the policy to the end), and the budget may end those
 * decisions after the first deal. Its card search is strong0's. */
static inline int t3_strong_now(const game_ai_params *p)
{
	return p->level >= GAME_AI_STRONG && !p->counts_before;
}
#define T3_STRONG_SIMS 400
#define T3_BID_EXACT 4

/* ---- bidding, trump, exchange (t304_ai_bid.c) ---- */
int t3_bid(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st, t304_action *a);
int t3_trump(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st, t304_action *a);
int t3_exchange(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st, t304_action *a);

#endif
