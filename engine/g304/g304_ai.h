/* g304_ai.h: the search-based computer player for 304.
 *
 * It decides from one seat's view only (g304_view_of), never from the game
 * itself. In play it samples deals consistent with everything the seat has
 * seen (cards shown, voids, face-down cards and what inspections said of
 * them, the closed trump suit, the trumper's likely choice of suit and the
 * bids) and evaluates every legal card on each sample: by fast playouts
 * while many tricks remain, and by an exact alpha-beta solver from a few
 * tricks before the end. The card with the best average outcome in tokens
 * (points break ties) is played. Bidding and the trump card come from
 * simulated play of the seat's own cards (see docs/AI.md).
 *
 * Pure: no clock, no I/O, no globals. The same view, parameters and seed
 * give the same action, unless a stop callback cuts the search short.
 */
#ifndef CARDBOT_G304_AI_H
#define CARDBOT_G304_AI_H

#include <stdint.h>
#include "g304.h"

/* The levels, as game.h's (whose game_ai_level_name and _parse give their words). */
enum g304_ai_level { G304_AI_EASY, G304_AI_NORMAL, G304_AI_STRONG, G304_AI_LEVELS };

struct g304_ai_pos;

typedef struct g304_ai_params {
	int level;              /* enum g304_ai_level; easy is the rule-based player */
	uint64_t seed;          /* the search's random stream */
	unsigned samples;       /* sampled deals per card decision (0: the level's default) */
	int solve_tricks;       /* exact solver from this many tricks left (0: 7 strong, 4 normal) */
	/* Polled between samples: nonzero ends the search with what it has
	 * (a time budget; at least one sample is always searched). May be NULL. */
	int (*stop)(void *ctx);
	void *stop_ctx;
	/* The card search's exact solver when it is not the engine's own
	 * (NULL): `cardbot bench ai`'s player of before issue 33
	 * (g304_ai_ref.c). Points the trumper's side takes from p,
	 * fail-soft in (alpha, beta), as g304_ai_solve_rec answers; may_stop:
	 * the budget may cut this solve short, which sets *aborted. */
	int (*solve)(void *ctx, const struct g304_ai_pos *p, int alpha, int beta, int may_stop, int *aborted);
	void *solve_ctx;
} g304_ai_params;

void g304_ai_params_default(g304_ai_params *p, int level, uint64_t seed);

typedef struct g304_ai_stats {
	unsigned long samples;   /* sampled deals */
	unsigned long playouts;  /* playouts to the end of the deal */
	unsigned long solves;    /* exact endgame solutions */
	unsigned long nodes;     /* positions the solver visited */
} g304_ai_stats;

/* Chooses an action for the view's seat from what it may do (l, from
 * g304_legal_of for the same seat). Returns 1 with *a filled, or 0 when the
 * seat has nothing to do. stats may be NULL (else it is added to). */
int g304_ai_action(const g304_view *v, const g304_legal *l, const g304_ai_params *p,
		   g304_ai_stats *stats, g304_action *a);

/* ---- the compact position the search plays on (exposed for tests and benchmarks) ---- */

/* A deal in play with every hand known: a few dozen bytes. */
typedef struct g304_ai_pos {
	cardset hand[G304_SEATS];   /* cards in hand (the trump card on the table excluded) */
	int16_t pts[2];             /* card points each team has taken */
	uint16_t bid;
	uint8_t tricks[2];
	uint8_t trumper, tsuit, tcard;
	uint8_t tdown;              /* the trump card lies on the table */
	uint8_t open;
	uint8_t barred;             /* the seat that may not lead a trump to a closed first trick, or 0xff */
	uint8_t pcc, sitting_out;
	uint8_t trick_no, n, turn;  /* trick in play, cards in it, seat to play */
	uint8_t seat[G304_SEATS];
	card card[G304_SEATS];
} g304_ai_pos;

/* The position of a game in play (all hands known). Returns 0 unless the
 * phase is PLAY. */
int g304_ai_pos_of(const g304 *g, g304_ai_pos *p);
/* Cards the seat to move may play (as the rules' play mask, save the
 * exhausted-trumps rule, which the search ignores). */
cardset g304_ai_pos_legal(const g304_ai_pos *p);
/* Plays card c for the seat to move (no check). */
void g304_ai_pos_play(g304_ai_pos *p, card c);
/* Card points the trumper's team takes from here to the end with best play
 * by both sides (exact). nodes may be NULL. */
int g304_ai_solve(const g304_ai_pos *p, unsigned long *nodes);
/* 1 if the trumper's team can take at least `need` more points against
 * best defence: the null-window search the player uses (exact, faster). */
int g304_ai_solve_reaches(const g304_ai_pos *p, int need, unsigned long *nodes);
/* Plays n playouts (the search's policy) from p; returns the trumper's
 * side's points summed over them. For benchmarks. */
long g304_ai_playouts(const g304_ai_pos *p, unsigned long n, uint64_t seed);

/* The share of simulated deals in which the trumper's side took at least
 * `bid` points: hist[i] deals took 10i..10i+9 points (i = 0..nbins - 1; 31
 * for 304's points, more for 504's and 904's), n in all. Every table size's
 * bidding reads its simulations with it. */
double g304_ai_chance(const int *hist, int nbins, int n, int bid);

#endif
