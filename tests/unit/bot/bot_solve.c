/* bot_solve.c: the exact solvers of 304, Trump304 and Rook give the same
 * values as the solvers they replaced. 304: the exact solver against the
 * reference solver it replaced (the plain alpha-beta of before issue 33,
 * kept once, in engine/g304/g304_ai_ref.c, for `cardbot bench ai`'s ratio and
 * its strong0 player; this test links it from there) on the positions `cardbot bench ai` times (five
 * tricks before the end, after random bidding and play), on positions
 * within a trick, and on pcc deals (one in ten as many, which the
 * benchmark leaves out); both the points and the null-window question.
 * Trump304 and Rook: t3_solve and rook_ai_solve against their versions of
 * before issue 33 (kept in engine/t304/t304_ai_ref.c and engine/rook/rook_ai_ref.c), on the positions
 * `cardbot bench ai --game trump304|rook` times (five tricks before the
 * end after random play; Trump304 by four players, one in ten by three and
 * one in ten by two), the value and the null-window answers around it.
 *
 * Env knobs: SOLVE_TEST_POSITIONS (default 10,000; 1,000 under the
 * sanitizers, where PROPS_MATCHES is set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "g304_ai_ref.h"
#include "rook_ai_ref.h"
#include "t304_ai_ref.h"
#include "check.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_ai_internal.h"
#include "g304_random.h"
#include "rng.h"

/* ---- positions ---- */

/* Trump304: the value from the reference, and the new solver's value and
 * null-window answers (one table for every position, as the player keeps
 * one for all the samples of a decision). */
static void t304_positions(int count)
{
	rng r;
	rng_seed(&r, 3304);
	t3tt *tt = calloc((size_t)1 << T3_TT_BITS, sizeof *tt), *ref_tt = calloc((size_t)1 << T3_TT_BITS, sizeof *tt);
	t3solver sv = { .tt = tt }, ref = { .tt = ref_tt };
	int differ = 0, wrong = 0;
	for (int i = 0; i < count; i++) {
		int nseats = i % 10 == 8 ? 3 : i % 10 == 9 ? 2 : 4;
		t3pos p;
		while (!t304_ai_ref_position(&r, nseats, nseats == 2 ? 4 : 5, &p))
			;
		int want = t304_ai_ref_solve(&ref, &p, -1, 1000), got = t3_solve(&sv, &p, -1, 1000);
		if (want != got && differ++ < 5)
			CHECK(0, "trump304 position %d (%d players): solver %d, reference %d", i, nseats, got, want);
		for (int need = want; need <= want + 1; need++)
			if ((t3_solve(&sv, &p, need - 1, need) >= need) != (want >= need) && wrong++ < 5)
				CHECK(0, "trump304 position %d: can the trumper's side take %d? (it takes %d)", i, need, want);
	}
	CHECK(differ == 0, "trump304: %d of %d values differ from the reference", differ, count);
	CHECK(wrong == 0, "trump304: %d null-window answers wrong", wrong);
	printf("bot_solve: trump304 %d positions, %lu nodes a solve (reference %lu)\n", count,
	       sv.nodes / (unsigned long)(3 * count), ref.nodes / (unsigned long)count);
	free(tt);
	free(ref_tt);
}

/* Rook: the same for the bidder's team's value. */
static void rook_positions(int count)
{
	rng r;
	rng_seed(&r, 3305);
	int differ = 0, wrong = 0;
	unsigned long nodes = 0, ref_nodes = 0;
	for (int i = 0; i < count; i++) {
		rook_ai_pos p;
		while (!rook_ai_ref_position(&r, 5, &p))
			;
		int team = (p.bidder + i) & 1;
		int want = rook_ai_ref_solve(&p, team, -100000, 100000, &ref_nodes);
		int got = rook_ai_solve(&p, team, -100000, 100000, &nodes);
		if (want != got && differ++ < 5)
			CHECK(0, "rook position %d: solver %d, reference %d", i, got, want);
		for (int need = want; need <= want + 1; need++)
			if ((rook_ai_solve(&p, team, need - 1, need, &nodes) >= need) != (want >= need) && wrong++ < 5)
				CHECK(0, "rook position %d: does team %d reach %d? (it gets %d)", i, team, need, want);
	}
	CHECK(differ == 0, "rook: %d of %d values differ from the reference", differ, count);
	CHECK(wrong == 0, "rook: %d null-window answers wrong", wrong);
	printf("bot_solve: rook %d positions, %lu nodes a solve (reference %lu)\n", count,
	       nodes / (unsigned long)(3 * count), ref_nodes / (unsigned long)count);
}

/* 304: the solver against the reference on count positions drawn from
 * the seeded stream: without pcc, nine in ten at a trick's start five
 * tricks before the end, as the benchmark, the rest within a trick, four
 * to six left; with pcc (the trumper alone against two, its partner out:
 * the benchmark leaves these out), at a trick's start or within it, two
 * to six tricks before the end. */
static void g304_positions(int count, int pcc, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	int differ = 0, wrong_reach = 0, checked = 0;
	unsigned long nodes = 0;
	const char *what = pcc ? "pcc " : "";
	for (int i = 0; i < count; i++) {
		int trick = 3, n = 0;
		if (pcc) {
			trick = 2 + i % 5;
			n = (i / 5) % 3;
		} else if (i % 10 == 9) {
			trick = 2 + (i / 10) % 3;
			n = 1 + (i / 30) % 3;
		}
		g304_ai_pos p;
		while (!g304_ai_ref_position(&r, trick, n, pcc, &p))
			;
		int want = g304_ai_ref_solve(&p, NULL), got = g304_ai_solve(&p, &nodes);
		checked++;
		if (want != got && differ++ < 5)
			CHECK(0, "%sposition %d: solver %d, reference %d", what, i, got, want);
		for (int need = want; need <= want + 1; need++)
			if (g304_ai_solve_reaches(&p, need, NULL) != (want >= need) && wrong_reach++ < 5)
				CHECK(0, "%sposition %d: can the trumper's side take %d? (it takes %d)", what, i, need,
				      want);
	}
	CHECK(differ == 0, "%s%d of %d values differ from the reference", what, differ, checked);
	CHECK(wrong_reach == 0, "%s%d null-window answers wrong", what, wrong_reach);
	printf("bot_solve: %d %spositions, %lu nodes a solve\n", checked, what,
	       checked ? nodes / (unsigned long)checked : 0);
}

int main(void)
{
	int count = getenv("SOLVE_TEST_POSITIONS") ? atoi(getenv("SOLVE_TEST_POSITIONS"))
		: getenv("PROPS_MATCHES") ? 1000 : 10000;
	g304_positions(count, 0, 33);
	g304_positions(count / 10, 1, 34);
	t304_positions(count);
	rook_positions(count);
	return check_report("bot_solve");
}
