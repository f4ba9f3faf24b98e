/* test_caps_verdicts.c: the caps judge of four-player 304 gives the
 * verdicts it gave before its search was made faster (issue 33). Random
 * deals with strict caps are played with random legal actions; after every
 * card each seat with a caps question asks it as the engine's tracking does
 * (g304_caps_find within G304_CAPS_TRACK_BUDGET positions: certain with an
 * order, none, or undecided), a certain order is judged again
 * (g304_caps_check), and the engine's own record (caps_since, the deferred
 * settlements) is read after each card. Everything is folded into one
 * digest, compared with the digest of the judge as it was before its
 * speed-up (the verdicts, the orders found and the engine's record, not the
 * number of positions visited). A change to what the judge decides must
 * change the constant here, on purpose and with a reason.
 *
 * Env knob: CAPS_TEST_DEALS (default 1500; the digest below is for 1500).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_random.h"
#include "rng.h"

#define DEALS 1500
/* The digest of DEALS deals from seed 33, with the judge of main before issue 33's caps work. */
#define DIGEST 0x9b6e8876835f61c5ull

static uint64_t fold(uint64_t h, uint64_t x)
{
	h ^= x;
	h *= 0x100000001b3ull;
	return h ^ h >> 29;
}

typedef struct counts {
	long questions, certain, none, undecided, checked_certain;
} counts;

static uint64_t ask_all(const g304 *g, uint64_t h, counts *k)
{
	for (int seat = 0; seat < G304_SEATS; seat++) {
		g304_view v;
		card order[G304_TRICKS];
		int n = 0;
		if (!g304_caps_question(g, seat, &v))
			continue;
		k->questions++;
		int found = g304_caps_find(&v, G304_CAPS_TRACK_BUDGET, order, &n, NULL);
		h = fold(h, (uint64_t)(found + 1) << 8 | (uint64_t)seat);
		if (found == 1) {
			k->certain++;
			for (int i = 0; i < n; i++)
				h = fold(h, order[i]);
			int sure = g304_caps_check(&v, order, n, NULL);
			k->checked_certain += sure == 1;
			h = fold(h, (uint64_t)sure);
		}
		k->none += found == 0;
		k->undecided += found < 0;
	}
	return h;
}

int main(void)
{
	const char *env = getenv("CAPS_TEST_DEALS");
	int deals = env ? atoi(env) : DEALS;
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_STRICT;
	g304_init(&g, &rules, 0);
	rng r;
	rng_seed(&r, 33);
	uint64_t h = 0xcbf29ce484222325ull;
	counts k = { 0, 0, 0, 0, 0 };
	for (int d = 0; d < deals; d++) {
		card deck[CARD_COUNT];
		if (g.phase == G304_PHASE_OVER) {
			g304_rules again = g.rules;
			g304_init(&g, &again, 0);
		}
		rng_shuffle_deck(&r, deck);
		g304_deal(&g, deck);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) {
			if (g304_apply(&g, &a, NULL) != G304_ERR_OK) {
				CHECK(0, "a legal action was refused");
				return check_report("test_caps_verdicts");
			}
			h = fold(h, (uint64_t)(uint8_t)g.caps_since[0] | (uint64_t)(uint8_t)g.caps_since[1] << 8
				     | (uint64_t)g.caps_settled << 16 | (uint64_t)g.caps_seat << 24);
			if (a.type == G304_ACT_PLAY && g.phase == G304_PHASE_PLAY)
				h = ask_all(&g, h, &k);
		}
	}
	printf("test_caps_verdicts: %d deals, %ld questions: %ld certain (%ld judged certain again), %ld none, "
	       "%ld undecided; digest 0x%016llx\n",
	       deals, k.questions, k.certain, k.checked_certain, k.none, k.undecided, (unsigned long long)h);
	CHECK(k.certain > 0 && k.none > 0, "the deals asked no question either way");
	CHECK(k.checked_certain == k.certain, "an order the finder called certain was not certain to the checker");
	if (deals == DEALS)
		CHECK(h == DIGEST, "the caps verdicts changed: digest 0x%016llx, before 0x%016llx",
		      (unsigned long long)h, (unsigned long long)DIGEST);
	return check_report("test_caps_verdicts");
}
