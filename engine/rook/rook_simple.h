/* rook_simple.h: computer players for Rook: a random legal move and a
 * simple rule-based player that sees only its seat's view. */
#ifndef CARDBOT_ROOK_SIMPLE_H
#define CARDBOT_ROOK_SIMPLE_H

#include "rng.h"
#include "rook.h"

/* A random legal action for seat: in play a uniformly random legal card; in
 * the bidding a pass, or the lowest bid when a pass is not allowed; a random
 * discard and trump colour. Returns 0 when the seat has nothing to do. */
int rook_random_action(const rook *g, int seat, rng *r, rook_action *out);

/* Chooses an action for the view's seat (l from rook_legal_of). Returns 1
 * with *a filled, or 0. Deterministic: same view, same action. */
int rook_simple_action(const rook_view *v, const rook_legal *l, rook_action *a);

#endif
