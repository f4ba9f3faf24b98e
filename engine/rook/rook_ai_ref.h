/* rook_ai_ref.h: Rook's exact solver as it was before issue 33 and the
 * player on it (strong0), for `cardbot bench ai --game rook` and
 * tests/unit/bot/bot_solve.c. Nothing else calls it. */
#ifndef CARDBOT_ROOK_AI_REF_H
#define CARDBOT_ROOK_AI_REF_H

#include "rng.h"
#include "rook_ai_internal.h"

/* rook_ai_solve as it was: team's points from here, nodes counted. */
int rook_ai_ref_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes);

/* A position `left` tricks before the end after random play from a random
 * deal; 0 when this deal did not get there. */
int rook_ai_ref_position(rng *r, int left, rook_ai_pos *p);

/* The player of before issue 33 through game_ai_params.solve: ctx is an
 * unsigned long counting the nodes. */
int rook_ai_ref_hook(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted);

#endif
