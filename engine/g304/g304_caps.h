/* g304_caps.h: the exact check of a caps claim, from the claimer's view alone.
 *
 * A claim is an order for all the claimer's remaining cards. It is certain
 * when, for every placement of the cards the claimer has not seen that is
 * consistent with everything it has seen (voids shown, face-down cards and
 * what the inspections said of them, the closed trump suit, the trump card
 * on the table) and for every legal reply of the other three players, its
 * partner included, playing the cards in that order is legal and wins every
 * remaining trick for its team. The search assigns unseen cards lazily, as
 * the other players play them, and keeps every partial placement
 * completable (Hall's condition over the four suits).
 *
 * The checker reads only a g304_view: it cannot see what the seat may not.
 */
#ifndef CARDBOT_G304_CAPS_H
#define CARDBOT_G304_CAPS_H

#include "g304.h"

/* Search effort, for benchmarks and tests. */
typedef struct g304_caps_stats {
	unsigned long nodes;     /* positions visited */
	unsigned long checks;    /* placements tested for consistency */
} g304_caps_stats;

/* 1 if playing order[0..n-1] (the seat's remaining cards, the trump card
 * included if it lies on the table and is the seat's) is certain to win
 * every remaining trick for the seat's team; 0 if not, or if the order is
 * not exactly the seat's cards. The search stops after
 * G304_CAPS_JUDGE_BUDGET positions (a second or two: one caller must not
 * stall every table); a claim not refuted by then counts as certain.
 * stats may be NULL. */
int g304_caps_check(const g304_view *v, const card *order, int n, g304_caps_stats *stats);

/* 1 if some order is certain for the view's seat (written to order, room
 * for G304_TRICKS cards, length in *n); 0 if none is; -1 if the search
 * visited `budget` positions without deciding (0: no budget, always
 * decides; stats->nodes then says how many it visited). stats may be NULL. */
int g304_caps_find(const g304_view *v, unsigned long budget, card *order, int *n, g304_caps_stats *stats);

/* The budget for judging an actual call. */
#define G304_CAPS_JUDGE_BUDGET 2000000ul

/* The budget, in positions, for all the questions the engine's tracking
 * asks after one card (about 12 ms on one core at most; see make bench). A
 * question it leaves undecided is noted and asked again with the judging
 * budget where a verdict depends on it (docs/ENGINE.md, Caps). */
#define G304_CAPS_TRACK_BUDGET 60000ul

/* The cards a claim by this seat must order: its hand, and its trump card
 * if that lies on the table. */
cardset g304_caps_cards(const g304_view *v);

/* True when seat has a caps question to answer now: it may call
 * (g304_caps_may_call) and holds cards to call with. v gets its view
 * (filled whenever it may call). */
int g304_caps_question(const g304 *g, int seat, g304_view *v);

/* A computer player's call: when l allows caps and nobody has called, and a
 * certain order is found within budget positions, makes *a that call and
 * returns 1; else 0 (a->order may have been written). */
int g304_caps_try(const g304_view *v, const g304_legal *l, unsigned long budget, g304_action *a);

#endif
