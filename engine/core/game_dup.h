/* game_dup.h: duplicate deals between two computer players in any game,
 * for `cardbot bench ai --game` and the strength tests.
 *
 * One deal is played from the same deck and dealer several times: player
 * A in each of the game's sides in turn (a team of two, or a single seat
 * when every seat plays for itself) with player B everywhere else, and
 * once with B in every seat, the reference. A's score is what its side
 * won in each half less what B won in the same side of the reference, so
 * the luck of the cards cancels and what is left is skill. */
#ifndef CARDBOT_GAME_DUP_H
#define CARDBOT_GAME_DUP_H

#include <stdint.h>
#include "game.h"

/* Decides for player (0: A, 1: B) in seat of g. Returns 1 with *a filled. */
typedef int (*game_dup_decider)(void *ctx, int player, const game *g, int seat, game_action *a);

typedef struct game_dup_deal {
	long score;        /* A over the reference, summed over the halves: tokens (304,
	                    * Trump304) or points (Rook) */
	long points;       /* the same for card points taken */
	int halves;        /* halves played (sides), not counting the reference */
	int actions;       /* actions applied */
	int refused;       /* actions the engine refused, or decisions not made (a bug) */
	int made[2], bids[2]; /* contracts A's side (0) and B's sides (1) won and made, in A's halves */
} game_dup_deal;

/* Plays deal `index` of a duplicate match of def with nseats seats: the
 * deck comes from deck_seed and index (a redeal draws the next deck of the
 * same stream), the first dealer is index mod nseats. Returns 0, or -1 if
 * the game cannot be made with nseats. */
int game_dup_play(const game_def *def, int nseats, uint64_t deck_seed, int index, game_dup_decider decide, void *ctx,
		  game_dup_deal *out);

#endif
