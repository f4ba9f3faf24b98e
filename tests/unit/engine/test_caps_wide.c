/* test_caps_wide.c: the general path of 304 (g304_caps_wide.c,
 * g304_ai_wide.c) held against four-player 304's fast path on four-player
 * deals, so the two cannot drift apart.
 *
 * Caps: over many seeded four-player deals played by the rule-based
 * player, at every card of play, for every seat that may call caps and
 * has not lost a trick: the two judges give the same verdict on the order
 * each finder proposes and on a random order of the seat's cards, and the
 * two finders agree whether a certain order exists (the general finder
 * tries only the orders a player would, so it may find none where the
 * fast one finds one: that is counted, never the other way round).
 * Search: four-player matches played by the general search player at every
 * seat take only legal actions, and end.
 *
 * Env knobs: WIDE_DEALS (deals for the judges, default 300), WIDE_MATCHES
 * (matches for the search, default 2).
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "rng.h"

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : dflt;
}

static void deal_random(g304 *g, rng *r)
{
	uint8_t deck[G304_CARDS_MAX];
	for (int i = 0; i < g->ncards; i++)
		deck[i] = (uint8_t)i;
	rng_shuffle(r, deck, (size_t)g->ncards);
	g304_deal(g, deck);
}

static long questions, compared, undecided, certain_both, found_fast, found_wide, fast_only;

/* Both judges on one order: the same verdict wherever the general judge
 * decides within the judging budget (where it does not, it gives the claim
 * the benefit of the doubt, as the fast judge does when its own budget runs
 * out; those are counted). Returns the fast verdict. */
static int agree(const g304 *g, const g304_view *v, const card *order, int n, const char *what)
{
	int x = g304_caps_check(v, order, n, NULL);
	int y = g304_caps_wide_decide(v, order, n, G304_CAPS_JUDGE_BUDGET);
	compared++;
	if (y < 0) {
		undecided++;
		return x;
	}
	CHECK(x == y, "deal %u seat %d: %s judged %d fast, %d general", g->deal_no, v->seat, what, x, y);
	certain_both += x && y;
	return x;
}

/* Both judges on one seat's view of the game now. */
static void compare_at(const g304 *g, int seat, rng *r)
{
	g304_view v;
	if (!g304_caps_question(g, seat, &v) || g->tricks_won[!g304_team(seat)] > 0)
		return;
	questions++;
	card a[G304_TRICKS_MAX], b[G304_TRICKS_MAX];
	int na = 0, nb = 0;
	int fa = g304_caps_find(&v, 0, a, &na, NULL) == 1;
	int fb = g304_caps_wide_find(&v, G304_CAPS_JUDGE_BUDGET, b, &nb);
	found_fast += fa;
	found_wide += fb;
	CHECK(!fb || fa, "deal %u seat %d: the general finder proves an order the fast one finds none for", g->deal_no,
	      seat);
	fast_only += fa && !fb;
	if (fa)
		agree(g, &v, a, na, "the fast finder's order");
	if (fb)
		agree(g, &v, b, nb, "the general finder's order");
	/* A random order of the seat's cards. */
	cardset cards = g304_caps_cards(&v);
	card o[G304_TRICKS_MAX];
	int n = 0;
	for (cardset s = cards; s; s &= s - 1)
		o[n++] = (card)__builtin_ctzll(s);
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint32_t)i + 1);
		card t = o[i];
		o[i] = o[j];
		o[j] = t;
	}
	int x = agree(g, &v, o, n, "a random order");
	CHECK(g304_caps_judge(&v, o, n) == x, "deal %u seat %d: g304_caps_judge is not the fast path at four",
	      g->deal_no, seat);
}

static void judges_agree(int deals)
{
	rng r;
	rng_seed(&r, 3104);
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF; /* nobody calls: every deal is played to its end */
	g304 g;
	g304_init(&g, &rules, 0);
	for (int d = 0; d < deals; d++) {
		if (g.phase == G304_PHASE_OVER)
			g304_init(&g, &rules, d % 4);
		deal_random(&g, &r);
		for (int guard = 0; guard < 400 && g.phase != G304_PHASE_DEAL && g.phase != G304_PHASE_OVER; guard++) {
			if (g.phase == G304_PHASE_PLAY && !g.pcc)
				for (int s = 0; s < G304_SEATS; s++)
					compare_at(&g, s, &r);
			g304_view v;
			g304_legal l;
			g304_action a;
			g304_view_of(&g, g.turn, &v);
			g304_legal_of(&g, g.turn, &l);
			if (!g304_simple_action(&v, &l, &a) || g304_apply(&g, &a, NULL))
				break;
		}
	}
	printf("caps: %ld questions, fast found %ld, general found %ld (fast only %ld); %ld orders compared, %ld certain "
	       "for both, %ld undecided by the general judge within its budget\n",
	       questions, found_fast, found_wide, fast_only, compared, certain_both, undecided);
	CHECK(certain_both > 10, "too few certain claims compared (%ld): the test proves nothing", certain_both);
	CHECK(undecided * 10 < compared, "the general judge left %ld of %ld orders undecided", undecided, compared);
}

/* The general search at every seat of four-player matches. */
static void search_legal(int matches)
{
	rng r;
	rng_seed(&r, 9304);
	g304_rules rules;
	g304_rules_default(&rules);
	long actions = 0, refused = 0;
	for (int m = 0; m < matches; m++) {
		g304 g;
		g304_init(&g, &rules, m % 4);
		for (int guard = 0; guard < 20000 && g.phase != G304_PHASE_OVER; guard++) {
			if (g.phase == G304_PHASE_DEAL) {
				deal_random(&g, &r);
				continue;
			}
			g304_view v;
			g304_legal l;
			g304_action a;
			g304_view_of(&g, g.turn, &v);
			g304_legal_of(&g, g.turn, &l);
			game_ai_params p = { .level = GAME_AI_NORMAL, .seed = (uint64_t)guard, .samples = 8 };
			if (!g304_ai_wide_action(&v, &l, &p, NULL, &a)) {
				refused++;
				break;
			}
			actions++;
			if (g304_apply(&g, &a, NULL)) {
				refused++;
				break;
			}
		}
		CHECK(g.phase == G304_PHASE_OVER, "match %d: the general search did not finish a four-player match", m);
	}
	printf("search: %ld actions, %ld refused\n", actions, refused);
	CHECK(refused == 0, "the general search took %ld illegal or no actions at four seats", refused);
}

int main(void)
{
	judges_agree(env_int("WIDE_DEALS", 300));
	search_legal(env_int("WIDE_MATCHES", 2));
	return check_report("test_caps_wide");
}
