/* g304_ai_match.c: one duplicate deal between two players. */
#include <string.h>
#include "g304_ai_match.h"
#include "rng.h"

#define REDEALS_MAX 12

/* One half: the player of side 0 sits in team `team0`. Returns tokens that
 * player's team won (net). */
static int half(const g304_rules *rules, uint64_t deck_seed, int index, int team0,
		g304_ai_decider decide, void *ctx, g304_dup_deal *out, g304_deal_end *end)
{
	g304 g;
	g304_init(&g, rules, index & 3);
	rng r;
	rng_seed(&r, deck_seed * 0x9e3779b97f4a7c15ull + (uint64_t)index);
	memset(end, 0, sizeof *end);
	for (int deal = 0; deal < REDEALS_MAX; deal++) {
		card deck[CARD_COUNT];
		rng_shuffle_deck(&r, deck);
		if (g304_deal(&g, deck) != G304_ERR_OK)
			break;
		while (g.phase != G304_PHASE_DEAL && g.phase != G304_PHASE_OVER && g.turn != G304_NO_SEAT) {
			int seat = g.turn;
			int side = g304_team(seat) == team0 ? 0 : 1;
			g304_view v;
			g304_legal l;
			g304_action a;
			g304_view_of(&g, seat, &v);
			g304_legal_of(&g, seat, &l);
			if (!decide(ctx, side, &v, &l, &a)) {
				out->refused++;
				return 0;
			}
			if (g304_apply(&g, &a, NULL) != G304_ERR_OK) {
				out->refused++;
				return 0;
			}
			out->actions++;
		}
		*end = g.last;
		if (g.last.outcome != G304_OUTCOME_REDEAL && !(g.last.outcome == G304_OUTCOME_SPOILT && g.last.spoilt_right))
			break;
	}
	int tokens = end->paid[!team0] - end->paid[team0];
	out->tokens += tokens;
	out->points += end->points[team0] - end->points[!team0];
	return tokens;
}

void g304_dup_play(const g304_rules *rules, uint64_t deck_seed, int index,
		   g304_ai_decider decide, void *ctx, g304_dup_deal *out)
{
	memset(out, 0, sizeof *out);
	half(rules, deck_seed, index, 0, decide, ctx, out, &out->end[0]);
	half(rules, deck_seed, index, 1, decide, ctx, out, &out->end[1]);
}
