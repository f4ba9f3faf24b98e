/* g304_random.h: a player that picks uniformly among legal actions, with
 * fixed leanings in the bidding so deals get played out. For property tests,
 * benchmarks and as the weakest computer player. */
#ifndef CARDBOT_G304_RANDOM_H
#define CARDBOT_G304_RANDOM_H

#include "g304.h"
#include "rng.h"

/* Fills *out with a legal action for the seat to move (g->turn) and returns
 * 1, or returns 0 when nobody is to move (between deals, match over).
 * With allow_spoilt, a spoilt call is sometimes made (right or wrong). */
int g304_random_action(const g304 *g, rng *r, int allow_spoilt, g304_action *out);

#endif
