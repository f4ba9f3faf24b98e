/* cpu_deals.c: random 304 deals per CPU second, four and six players, caps
 * off and strict, for comparing two builds on a busy machine, where the
 * wall-clock figures of `cardbot bench engine` swing by half (time spent
 * waiting for a core is not counted here). The deals are played as
 * bot/cli/bench.c plays them, a fixed number of each. Not built by the
 * Makefile: link it with each tree's engine archive (with that tree's engine
 * folders to include: engine/core and engine/g304 since the folder per game,
 * engine/ before) and run the two in turns, e.g.
 *
 *   I="-IA/engine/core -IA/engine/g304"
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L $I tests/bench/cpu_deals.c A/build/rel/libengine.a -o /tmp/a
 *   (and the same for tree B into /tmp/b)
 *   for i in 1 2 3 4 5; do /tmp/a; /tmp/b; done
 *
 * and compare the best of each (the least disturbed run). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"
#include "rng.h"

/* Six-player 304's numbers (g304_variants[G304_SIZE_SIX]: 36 cards, six
 * seats, six tricks), as constants for arrays. */
#define SIX_CARDS 36
#define SIX_SEATS 6
#define SIX_TRICKS 6
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double four(long n, int caps)
{
	g304 g; rng r; g304_rules rules; g304_rules_default(&rules); rules.caps = (uint8_t)caps; g304_init(&g, &rules, 0); rng_seed(&r, 304);
	double t0 = cpu();
	for (long i = 0; i < n; i++) {
		card deck[CARD_COUNT];
		if (g.phase == G304_PHASE_OVER) g304_init(&g, &rules, 0);
		rng_shuffle_deck(&r, deck); g304_deal(&g, deck);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) if (g304_apply(&g, &a, NULL)) exit(1);
	}
	return n / (cpu() - t0);
}
static double six(long n, int caps)
{
	g304 g; rng r; g304_rules rules; g304_rules_default(&rules); rules.size = G304_SIZE_SIX; rules.caps = (uint8_t)caps; g304_init(&g, &rules, 0); rng_seed(&r, 306);
	double t0 = cpu();
	for (long i = 0; i < n; i++) {
		uint8_t deck[SIX_CARDS];
		if (g.phase == G304_PHASE_OVER) g304_init(&g, &rules, 0);
		rng_shuffle(&r, deck, SIX_CARDS); g304_deal(&g, deck);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) if (g304_apply(&g, &a, NULL)) exit(1);
	}
	return n / (cpu() - t0);
}
int main(void)
{
	printf("four_off %.0f four_strict %.1f six_off %.0f six_strict %.0f\n", four(400000, G304_CAPS_OFF),
	       four(400, G304_CAPS_STRICT), six(300000, G304_CAPS_OFF), six(4000, G304_CAPS_STRICT));
	return 0;
}
