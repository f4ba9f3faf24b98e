/* bot_solve.c: the exact 304 solver gives the same values as the
 * reference solver it replaced (the plain alpha-beta of before issue 33,
 * kept once, in bot/cli/bench_ref.c, for `cardbot bench ai`'s ratio and
 * its strong0 player; this test links it from there) on the positions `cardbot bench ai` times (five
 * tricks before the end, after random bidding and play), and on positions
 * within a trick; both the points and the null-window question.
 *
 * Env knobs: SOLVE_TEST_POSITIONS (default 10,000; 1,000 under the
 * sanitizers, where PROPS_MATCHES is set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_ref.h"
#include "check.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_ai_internal.h"
#include "g304_random.h"
#include "rng.h"

/* ---- positions ---- */

/* A position at card `n` of trick `trick` after random bidding and play
 * (as `cardbot bench ai` draws them: pcc deals left out), or 0. */
static int position(rng *r, int trick, int n, g304_ai_pos *p)
{
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	g304_init(&g, &rules, (int)rng_below(r, 4));
	card deck[CARD_COUNT];
	rng_shuffle_deck(r, deck);
	g304_deal(&g, deck);
	g304_action a;
	while (g.phase != G304_PHASE_DEAL && g.turn != G304_NO_SEAT) {
		if (g.phase == G304_PHASE_PLAY && g.trick_no == trick && g.tricks[trick].n == n && !g.pcc)
			return g304_ai_pos_of(&g, p);
		if (!g304_random_action(&g, r, 0, &a) || g304_apply(&g, &a, NULL) != G304_ERR_OK)
			return 0;
	}
	return 0;
}

int main(void)
{
	int count = getenv("SOLVE_TEST_POSITIONS") ? atoi(getenv("SOLVE_TEST_POSITIONS"))
		: getenv("PROPS_MATCHES") ? 1000 : 10000;
	rng r;
	rng_seed(&r, 33);
	int differ = 0, wrong_reach = 0, checked = 0;
	unsigned long nodes = 0;
	for (int i = 0; i < count; i++) {
		/* Nine in ten at a trick's start five tricks before the end, as
		 * the benchmark; the rest within a trick, four to six left. */
		int trick = 3, n = 0;
		if (i % 10 == 9) {
			trick = 2 + (i / 10) % 3;
			n = 1 + (i / 30) % 3;
		}
		g304_ai_pos p;
		while (!position(&r, trick, n, &p))
			;
		int want = bench_ref_solve(&p, NULL), got = g304_ai_solve(&p, &nodes);
		checked++;
		if (want != got && differ++ < 5)
			CHECK(0, "position %d: solver %d, reference %d", i, got, want);
		for (int need = want; need <= want + 1; need++)
			if (g304_ai_solve_reaches(&p, need, NULL) != (want >= need) && wrong_reach++ < 5)
				CHECK(0, "position %d: can the trumper's side take %d? (it takes %d)", i, need, want);
	}
	CHECK(differ == 0, "%d of %d values differ from the reference", differ, checked);
	CHECK(wrong_reach == 0, "%d null-window answers wrong", wrong_reach);
	printf("bot_solve: %d positions, %lu nodes a solve\n", checked, checked ? nodes / (unsigned long)checked : 0);
	return check_report("bot_solve");
}
