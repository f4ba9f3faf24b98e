/* g304_ai.c: the search-based 304 player (see g304_ai.h and docs/AI.md):
 * levels, parameters and the top-level decision. The pieces it is built of
 * are listed in g304_ai_internal.h.
 */
#include <string.h>
#include "g304_caps.h"
#include "g304_simple.h"
#include "g304_ai_internal.h"
#include "game.h"

/* Tokens a deal must gain by going open before the trumper opens it (the
 * estimate is noisy; closed is the default and keeps the trump hidden). */
#define G304_AI_OPEN_MARGIN 0.02

/* (the levels' words are game.h's: game_ai_level_name and _parse) */
_Static_assert((int)GAME_AI_EASY == (int)G304_AI_EASY && (int)GAME_AI_STRONG == (int)G304_AI_STRONG
	       && (int)GAME_AI_LEVELS == (int)G304_AI_LEVELS, "one set of levels");

void g304_ai_params_default(g304_ai_params *p, int level, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	p->level = level;
	p->seed = seed;
}

int g304_ai_action(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		   g304_ai_stats *st, g304_action *a)
{
	if (prm->level <= G304_AI_EASY)
		return g304_simple_action(v, l, a);
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	switch (v->phase) {
	case G304_PHASE_BID4:
		return g304_ai_bid4(v, l, prm, st, a);
	case G304_PHASE_BID8:
		return g304_ai_bid8(v, l, prm, st, a);
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8: {
		if (!(l->acts & 1u << G304_ACT_TRUMP) || !l->cards)
			return 0;
		int pcc = v->pcc;
		card c = g304_ai_bid_trump(v->hand, l->cards, v->seat, v->dealer, v->bid, pcc, prm, st, NULL);
		a->type = G304_ACT_TRUMP;
		a->card = c != CARD_NONE ? c : cardset_first(l->cards);
		return 1;
	}
	case G304_PHASE_PLAY: {
		if ((l->acts & 1u << G304_ACT_SPOILT) && g304_ai_spoilt_proven(v)) {
			/* The trumper's opponents call at once (a right call voids a
			 * deal they would most likely lose); the trumper's side only
			 * when playing on is worth less than the redeal's nothing. */
			int ours = g304_team(v->seat) == g304_team(v->trumper), ok = 1;
			double closed = 0;
			if (ours)
				g304_ai_play_values(v, prm, st, &closed, NULL, &ok);
			if (!ours || (ok && closed < 0)) {
				a->type = G304_ACT_SPOILT;
				return 1;
			}
		}
		if ((l->acts & 1u << G304_ACT_OPEN) && !v->pcc) {
			/* Open or closed, by what each is worth on the same samples. */
			double closed, opened;
			int ok;
			g304_ai_play_values(v, prm, st, &closed, &opened, &ok);
			if (ok && opened > closed + G304_AI_OPEN_MARGIN) {
				a->type = G304_ACT_OPEN;
				return 1;
			}
		}
		if (!(l->acts & 1u << G304_ACT_PLAY))
			return 0;
		if (v->tricks_won[!(v->seat & 1)] == 0 && g304_caps_try(v, l, G304_CAPS_TRACK_BUDGET, a))
			return 1;
		a->type = G304_ACT_PLAY;
		a->card = g304_ai_search_play(v, l, prm, st);
		if (a->card == CARD_NONE || !(l->cards & card_bit(a->card)))
			return g304_simple_action(v, l, a); /* the view made no sense: be safe */
		return 1;
	}
	default:
		return 0;
	}
}
