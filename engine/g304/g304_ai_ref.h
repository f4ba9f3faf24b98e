/* g304_ai_ref.h: the 304 search player as it was before issue 33 (its
 * exact solver and card search), kept for `cardbot bench ai --b strong0`
 * and the solver's ratio: the new player measured against it at the same
 * time budget; tests/unit/bot/bot_solve.c checks the new solver against
 * it. Nothing else calls it. */
#ifndef CARDBOT_G304_AI_REF_H
#define CARDBOT_G304_AI_REF_H

#include "g304.h"
#include "g304_ai.h"
#include "g304_ai_internal.h"
#include "rng.h"

/* g304_ai_solve as it was (the reference for the solver's figure). */
int g304_ai_ref_solve(const g304_ai_pos *p, unsigned long *nodes);

/* g304_ai_action with the solver of session 9 in the card search; every
 * other decision is the player's own. */
int g304_ai_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *p, g304_ai_stats *st,
		       g304_action *a);

/* A 304 position at card n of trick `trick` after random bidding and play
 * (pcc deals left out, or with pcc only those), or 0 when this deal did
 * not get there: what 304's solver figures and `bench ai`'s players start
 * from (without pcc). */
int g304_ai_ref_position(rng *r, int trick, int n, int pcc, g304_ai_pos *p);

#endif
