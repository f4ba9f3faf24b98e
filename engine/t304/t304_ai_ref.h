/* t304_ai_ref.h: Trump304's exact solver as it was before issue 33 and
 * the player on it (strong0), for `cardbot bench ai --game trump304` and
 * tests/unit/bot/bot_solve.c. Nothing else calls it. */
#ifndef CARDBOT_T304_AI_REF_H
#define CARDBOT_T304_AI_REF_H

#include "rng.h"
#include "t304_ai_internal.h"

/* t3_solve as it was. */
int t304_ai_ref_solve(t3solver *sv, const t3pos *p, int alpha, int beta);

/* A position `left` tricks before the end (the one about to start
 * included), after random play from a random deal, nseats players; 0 when
 * this deal did not get there. */
int t304_ai_ref_position(rng *r, int nseats, int left, t3pos *p);

/* The player of before issue 33: the engine's own, its card search on the
 * solver above through game_ai_params.solve (t304_ai_ref_hook, with a
 * t304_ai_ref as its context, started and ended around each decision). */
typedef struct t304_ai_ref {
	t3solver sv;               /* the decision's table, its nodes and its stop */
	int (*stop)(void *ctx);
	void *stop_ctx;
} t304_ai_ref;
void t304_ai_ref_start(t304_ai_ref *rf, int (*stop)(void *), void *stop_ctx);
void t304_ai_ref_end(t304_ai_ref *rf);
int t304_ai_ref_hook(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted);

#endif
