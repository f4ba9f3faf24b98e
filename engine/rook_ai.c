/* rook_ai.c: the search player for Rook (see rook_ai.h). */
#include "rook_ai.h"
#include "rook_simple.h"

int rook_ai_action(const rook_view *v, const rook_legal *l, const game_ai_params *p, game_ai_stats *stats,
		   rook_action *a)
{
	(void)p, (void)stats;
	return rook_simple_action(v, l, a);
}
