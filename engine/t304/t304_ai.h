/* t304_ai.h: the search player for Trump304 (2, 3 and 4 players).
 *
 * Decides from one seat's view only (t304_view_of), never from the game:
 * see game.h ("computer players") for the contract every search player
 * keeps, and docs/AI.md for how this one thinks.
 */
#ifndef CARDBOT_T304_AI_H
#define CARDBOT_T304_AI_H

#include "game.h"
#include "t304.h"

/* Chooses an action for the view's seat from what it may do (l, from
 * t304_legal_of for the same seat). Returns 1 with *a filled, or 0 when
 * the seat has nothing to do. Level easy is the rule-based player
 * (t304_simple_action). stats may be NULL (else it is added to). */
int t304_ai_action(const t304_view *v, const t304_legal *l, const game_ai_params *p, game_ai_stats *stats,
		   t304_action *a);

#endif
