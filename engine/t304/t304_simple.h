/* t304_simple.h: computer players for Trump304: the timer's random move and
 * a simple rule-based player that sees only its seat's view. */
#ifndef CARDBOT_T304_SIMPLE_H
#define CARDBOT_T304_SIMPLE_H

#include "rng.h"
#include "t304.h"

/* What the 30-second timer does for seat: in play a uniformly random legal
 * card (never a reveal); in the bidding a pass, or the lowest bid when a pass
 * is not allowed; a random trump card; no exchange. Returns 0 when the seat
 * has nothing to do. */
int t304_random_action(const t304 *g, int seat, rng *r, t304_action *out);

/* Chooses an action for the view's seat from what it may do (l, from
 * t304_legal_of). Returns 1 with *a filled, or 0 when there is nothing to do.
 * Deterministic: same view, same action. */
int t304_simple_action(const t304_view *v, const t304_legal *l, t304_action *a);

#endif
