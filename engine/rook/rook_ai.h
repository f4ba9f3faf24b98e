/* rook_ai.h: the search player for Rook.
 *
 * Decides from one seat's view only (rook_view_of), never from the game:
 * see game.h ("computer players") for the contract every search player
 * keeps, and docs/AI.md for how this one thinks.
 */
#ifndef CARDBOT_ROOK_AI_H
#define CARDBOT_ROOK_AI_H

#include "game.h"
#include "rook.h"

/* Chooses an action for the view's seat from what it may do (l, from
 * rook_legal_of for the same seat). Returns 1 with *a filled, or 0 when
 * the seat has nothing to do. Level easy is the rule-based player
 * (rook_simple_action). stats may be NULL (else it is added to). */
int rook_ai_action(const rook_view *v, const rook_legal *l, const game_ai_params *p, game_ai_stats *stats,
		   rook_action *a);

#endif
