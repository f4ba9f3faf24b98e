/* g304_random.h: a player that picks uniformly among legal actions, with
 * fixed leanings in the bidding so deals get played out. For property tests,
 * benchmarks and as the weakest computer player. One player for every table
 * size; its leanings (how often it bids) depend on the size. */
#ifndef CARDBOT_G304_RANDOM_H
#define CARDBOT_G304_RANDOM_H

#include "g304.h"
#include "rng.h"

/* Fills *out with a legal action for the seat to move (g->turn) and returns
 * 1, or returns 0 when nobody is to move (between deals, match over).
 * With allow_odd, a spoilt call (right or wrong), and at six players a caps
 * call, is sometimes made; four players make random caps calls always. */
int g304_random_action(const g304 *g, rng *r, int allow_odd, g304_action *out);

#endif
