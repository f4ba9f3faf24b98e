/* g304six_ai.h: the search player for six-player 304.
 *
 * Decides from one seat's view only (g6_view_of), never from the game:
 * see game.h ("computer players") for the contract every search player
 * keeps. In play it samples the unseen cards consistently with the view
 * and plays every legal card out on each sample with the rule-based player
 * at every seat. It bids and picks its trump card by simulating deals of
 * its own hand; caps is called as the rule-based player calls it.
 */
#ifndef CARDBOT_G304SIX_AI_H
#define CARDBOT_G304SIX_AI_H

#include "game.h"
#include "g304six.h"

/* Chooses an action for the view's seat from what it may do (l, from
 * g6_legal_of for the same seat). Returns 1 with *a filled, or 0 when the
 * seat has nothing to do. Level easy is the rule-based player
 * (g6_simple_action). stats may be NULL (else it is added to). */
int g6_ai_action(const g6_view *v, const g6_legal *l, const game_ai_params *p, game_ai_stats *stats,
		 g6_action *a);

#endif
