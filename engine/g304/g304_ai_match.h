/* g304_ai_match.h: duplicate matches between two computer players, for the
 * test of strength and `cardbot bench ai`. A deal is played twice from the
 * same deck and dealer, the two players swapping sides; luck of the cards
 * then cancels and what is left is skill. */
#ifndef CARDBOT_G304_AI_MATCH_H
#define CARDBOT_G304_AI_MATCH_H

#include <stdint.h>
#include "g304.h"

/* Decides for `side` (0 or 1: which of the two players) at a seat's turn.
 * Returns 1 with *a filled. */
typedef int (*g304_ai_decider)(void *ctx, int side, const g304_view *v, const g304_legal *l,
			       g304_action *a);

typedef struct g304_dup_deal {
	int tokens;        /* tokens side 0's player won over both halves (negative: lost) */
	int points;        /* card points side 0's team took over both halves, minus the other's */
	int actions;       /* actions applied */
	int refused;       /* actions the engine refused (a bug in a player) */
	g304_deal_end end[2];  /* how each half ended (side 0 as team 0, then as team 1) */
} g304_dup_deal;

/* Plays deal `index` of a duplicate match: decks come from deck_seed and
 * the index; a redeal (rejection, right spoilt call) draws the next deck
 * of the same stream, so both halves see the same cards. */
void g304_dup_play(const g304_rules *rules, uint64_t deck_seed, int index,
		   g304_ai_decider decide, void *ctx, g304_dup_deal *out);

#endif
