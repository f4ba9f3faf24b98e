/* bench_ref.h: the 304 search player as it was before issue 33 (its
 * exact solver and card search), kept for `cardbot bench ai --b strong0`:
 * the new player measured against it at the same time budget. */
#ifndef CARDBOT_BENCH_REF_H
#define CARDBOT_BENCH_REF_H

#include "g304.h"
#include "g304_ai.h"
#include "rng.h"
#include "rook_ai_internal.h"
#include "t304_ai_internal.h"

/* g304_ai_solve as it was (the reference for the solver's figure). */
int bench_ref_solve(const g304_ai_pos *p, unsigned long *nodes);

/* g304_ai_action with the solver of session 9 in the card search; every
 * other decision is the player's own. */
int bench_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *p, g304_ai_stats *st,
		     g304_action *a);

/* The Trump304 and Rook solvers as they were (bench_ref_games.c): t3_solve
 * and rook_ai_solve before issue 33, for the solver figures of `bench ai
 * --game trump304|rook` and tests/unit/bot_solve.c. */
int bench_ref_t3_solve(t3solver *sv, const t3pos *p, int alpha, int beta);
int bench_ref_rook_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes);

/* A 304 position at card n of trick `trick` after random bidding and play
 * (pcc deals left out), or 0 when this deal did not get there: what 304's
 * solver figures and `bench ai`'s players start from. */
int bench_ref_position(rng *r, int trick, int n, g304_ai_pos *p);

/* The positions those figures time: `left` tricks before the end (the one
 * about to start included), after random play from a random deal, seats
 * players (Trump304); 0 when this deal did not get there. */
int bench_ref_t3_position(rng *r, int nseats, int left, t3pos *p);
int bench_ref_rook_position(rng *r, int left, rook_ai_pos *p);

/* The Trump304 and Rook players of before issue 33 (`bench ai --game
 * trump304|rook --b strong0`): the engine's own, its card search on the
 * solvers above through game_ai_params.solve (bench_ref_game_solve, with a
 * bench_ref_game as its context, started and ended around each decision). */
typedef struct bench_ref_game {
	int rook;
	t3solver sv;               /* Trump304: the decision's table and its stop */
	int (*stop)(void *ctx);
	void *stop_ctx;
} bench_ref_game;
void bench_ref_game_start(bench_ref_game *rg, int is_rook, int (*stop)(void *), void *stop_ctx);
void bench_ref_game_end(bench_ref_game *rg);
int bench_ref_game_solve(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted);

#endif
