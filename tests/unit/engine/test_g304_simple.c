/* test_g304_simple.c: the simple computer player, given only views, plays
 * whole matches without a refused action and beats random play. */
#include <stdlib.h>
#include "check.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_pack.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"

/* Six-player 304's numbers (g304_variants[G304_SIZE_SIX]: 36 cards, six
 * seats, six tricks), as constants for arrays. */
#define SIX_CARDS 36
#define SIX_SEATS 6
#define SIX_TRICKS 6

#define MATCHES 40 /* SIMPLE_MATCHES overrides it (fewer under qemu: tests/ops/cross.sh) */

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

/* The players read cards through the size's pack (g304_pack.h): it must
 * number and value them as each size's rules do. */
static void packs(void)
{
	for (card c = 0; c < CARD_COUNT; c++) {
		CHECK(g304_pack_points(&g304_pack_32, c) == card_points(c), "pack 32: points of %d", c);
		CHECK(g304_pack_suit_of(&g304_pack_32, c) == card_suit(c) && g304_pack_rank(&g304_pack_32, c) == card_rank(c),
		      "pack 32: suit and rank of %d", c);
	}
	for (card c = 0; c < SIX_CARDS; c++)
		CHECK(g304_pack_suit_of(&g304_pack_36, c) == g304_pack_suit_of(&g304_pack_36, c) && g304_pack_rank(&g304_pack_36, c) == g304_pack_rank(&g304_pack_36, c)
		      && (g304_pack_suit(&g304_pack_36, g304_pack_suit_of(&g304_pack_36, c)) & g304_pack_bit(c)), "pack 36: suit and rank of %d", c);
	CHECK(g304_pack_set_points(&g304_pack_32, 0xffffffffu) == 304, "pack 32 totals 304");
	CHECK(g304_pack_set_points(&g304_pack_36, ((uint64_t)1 << SIX_CARDS) - 1) == 304, "pack 36 totals 304");
}

int main(void)
{
	packs();
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
