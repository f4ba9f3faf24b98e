/* g304_simple.h: the simple computer player: sensible, rule-based, and blind
 * to everything its seat's view does not show. */
#ifndef CARDBOT_G304_SIMPLE_H
#define CARDBOT_G304_SIMPLE_H

#include "g304.h"

/* Chooses an action for the view's seat from what it may do (l, from
 * g304_legal_of for the same seat). Returns 1 with *a filled, or 0 when
 * the seat has nothing to do. Deterministic: same view, same action. */
int g304_simple_action(const g304_view *v, const g304_legal *l, g304_action *a);

#endif
