/* g304_ai_wide.h: the general search player of 304, for every row of
 * g304_variants (any pack, seats and hand size). Four-player 304 has its
 * own faster search (g304_ai.h: exact endgame solving over 32-bit sets);
 * g304_game.c's one game_def entry sends each view to its path, and the unit
 * tests play this one at four seats too, so both paths are held to the
 * same legality.
 *
 * Decides from one seat's view only (g304_view_of), never from the game:
 * see game.h ("computer players") for the contract every search player
 * keeps. In play it samples the unseen cards consistently with the view
 * and plays every legal card out on each sample with the rule-based player
 * at every seat. It bids and picks its trump card by simulating deals of
 * its own hand; caps is called as the rule-based player calls it.
 */
#ifndef CARDBOT_G304_AI_WIDE_H
#define CARDBOT_G304_AI_WIDE_H

#include "game.h"
#include "g304.h"

/* Chooses an action for the view's seat from what it may do (l, from
 * g304_legal_of for the same seat). Returns 1 with *a filled, or 0 when the
 * seat has nothing to do. Level easy is the rule-based player
 * (g304_simple_action). stats may be NULL (else it is added to). */
int g304_ai_wide_action(const g304_view *v, const g304_legal *l, const game_ai_params *p, game_ai_stats *stats,
			g304_action *a);

#endif
