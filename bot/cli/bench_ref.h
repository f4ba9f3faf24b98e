/* bench_ref.h: the 304 search player as it was before issue 33 (its
 * exact solver and card search), kept for `cardbot bench ai --b strong0`:
 * the new player measured against it at the same time budget. */
#ifndef CARDBOT_BENCH_REF_H
#define CARDBOT_BENCH_REF_H

#include "g304.h"
#include "g304_ai.h"

/* g304_ai_solve as it was (the reference for the solver's figure). */
int bench_ref_solve(const g304_ai_pos *p, unsigned long *nodes);

/* g304_ai_action with the solver of session 9 in the card search; every
 * other decision is the player's own. */
int bench_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *p, g304_ai_stats *st,
		     g304_action *a);

#endif
