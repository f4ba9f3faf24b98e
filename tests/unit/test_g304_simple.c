/* test_g304_simple.c: the simple computer player, given only views, plays
 * whole matches without a refused action and beats random play. */
#include <stdlib.h>
#include "check.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"

#define MATCHES 40 /* SIMPLE_MATCHES overrides it (fewer under qemu: tests/cross.sh) */

/* Plays a match: seats of team `simple_team` (or all, if 2) use the simple
 * player, the others play randomly. Returns the winning team. */
static int play(uint64_t seed, int simple_team, long *decisions)
{
	rng r;
	rng_seed(&r, seed);
	g304_rules rules;
	g304_rules_default(&rules);
	g304 g;
	g304_init(&g, &rules, (int)(seed & 3));
	card deck[CARD_COUNT];
	for (int deals = 0; g.phase != G304_PHASE_OVER && deals < 1000; deals++) {
		rng_shuffle_deck(&r, deck);
		g304_deal(&g, deck);
		for (int steps = 0; g.turn != G304_NO_SEAT && steps < 400; steps++) {
			int seat = g.turn;
			g304_action a;
			if (simple_team == 2 || g304_team(seat) == simple_team) {
				g304_view v;
				g304_legal l;
				g304_view_of(&g, seat, &v);
				g304_legal_of(&g, seat, &l);
				CHECK(g304_simple_action(&v, &l, &a), "simple player found nothing to do");
				(*decisions)++;
			} else {
				g304_random_action(&g, &r, 0, &a);
			}
			g304_result res;
			int err = g304_apply(&g, &a, &res);
			CHECK(err == G304_ERR_OK, "seed %llu: %s refused: %s", (unsigned long long)seed,
			      g304_act_name(a.type), g304_err_name(err));
			if (err)
				return -1;
		}
	}
	CHECK(g.phase == G304_PHASE_OVER, "match did not end");
	return g.winner;
}

int main(void)
{
	long decisions = 0;
	int wins = 0, games = 0;
	int matches = getenv("SIMPLE_MATCHES") ? atoi(getenv("SIMPLE_MATCHES")) : MATCHES;
	for (int i = 0; i < matches; i++)
		play((uint64_t)i + 100, 2, &decisions);
	for (int i = 0; i < matches; i++) {
		int w = play((uint64_t)i + 500, i & 1, &decisions);
		games++;
		wins += w == (i & 1);
	}
	printf("simple: %ld decisions; against random play it won %d of %d matches\n", decisions, wins, games);
	CHECK(wins * 10 > games * 6, "the simple player should beat random play most of the time (%d/%d)", wins, games);
	return check_report("g304_simple");
}
