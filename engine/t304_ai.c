/* t304_ai.c: the search player for Trump304 (see t304_ai.h). */
#include "t304_ai.h"
#include "t304_simple.h"

int t304_ai_action(const t304_view *v, const t304_legal *l, const game_ai_params *p, game_ai_stats *stats,
		   t304_action *a)
{
	(void)p, (void)stats;
	return t304_simple_action(v, l, a);
}
