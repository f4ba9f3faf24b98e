/* g304_caps_wide.h: caps from the caller's view at every table size.
 *
 * One interface, two paths: g304_caps_judge, g304_caps_search and
 * g304_caps_offer send four-player views to g304_caps.c's fast judge
 * (32-bit inner loops) and every other row of g304_variants to the general
 * judge (g304_caps_wide.c), which reads the pack, the seats and the hand
 * size from the view's variant. The general judge also answers four-player
 * views; a unit test (test_caps_wide) holds the two paths to the same
 * verdicts.
 */
#ifndef CARDBOT_G304_CAPS_WIDE_H
#define CARDBOT_G304_CAPS_WIDE_H

#include "g304.h"

#define G304_CAPS_WIDE_TRACK_BUDGET 300ul /* per order the tracking tries after a card */

/* The cards a claim must order: the hand, and the trump card on the table
 * if it is the seat's. */
g304_set g304_caps_wide_cards(const g304_view *v);

/* The general judge. check: 1 if order[0..n-1] is certain to win every
 * remaining trick for the seat's team, whatever the unseen cards and the
 * others do (an exact search of G304_CAPS_JUDGE_BUDGET positions after a
 * relaxation; not refuted by then counts as certain). find: 1 with an
 * order proved certain (within `budget` positions per order tried), else 0;
 * it tries the orders a player would (trumps from the top, the trump card
 * last), so it may miss an unusual one. track: the engine's caps tracking,
 * after a change of what players know: records in g->caps_since the trick
 * `when` for a team whose player now has a certain order. */
int g304_caps_wide_check(const g304_view *v, const card *order, int n);
/* The check's own answer: 1 certain, 0 refuted, -1 undecided within
 * `budget` positions of the exact search (0: no limit). */
int g304_caps_wide_decide(const g304_view *v, const card *order, int n, unsigned long budget);
int g304_caps_wide_find(const g304_view *v, unsigned long budget, card *order, int *n);
void g304_caps_wide_track(g304 *g, int when);

/* Every size: the judgement of a claim (1 certain); an order found certain
 * within budget (1, else 0); and a computer player's call (as
 * g304_caps_try: when l allows caps and nobody has called, and a certain
 * order is found, makes *a that call and returns 1). */
int g304_caps_judge(const g304_view *v, const card *order, int n);
int g304_caps_search(const g304_view *v, unsigned long budget, card *order, int *n);
int g304_caps_offer(const g304_view *v, const g304_legal *l, unsigned long budget, g304_action *a);

#endif
