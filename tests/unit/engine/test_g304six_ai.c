/* test_g304six_ai.c: the six-player 304 search player: legal decisions at
 * every level in every phase, determinism, decisions that do not change
 * when cards the seat cannot see move, and strength against the simple
 * player.
 *
 * Env knobs: G6_AI_DEALS (matches for legality, default 12), G6_AI_DUP
 * (duplicate deals for strength, default 40). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"
#include "game.h"
#include "game_dup.h"
#include "rng.h"

/* Six-player 304's numbers (g304_variants[G304_SIZE_SIX]: 36 cards, six
 * seats, six tricks), as constants for arrays. */
#define SIX_CARDS 36
#define SIX_SEATS 6
#define SIX_TRICKS 6

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : dflt;
}

static void new_deal(g304 *g, rng *r)
{
	uint8_t deck[SIX_CARDS];
	for (int i = 0; i < SIX_CARDS; i++)
		deck[i] = (uint8_t)i;
	rng_shuffle(r, deck, SIX_CARDS);
	g304_deal(g, deck);
}

static int decide(const g304 *g, int seat, int level, uint64_t seed, unsigned samples, g304_action *a)
{
	g304_view v;
	g304_legal l;
	g304_view_of(g, seat, &v);
	g304_legal_of(g, seat, &l);
	game_ai_params p;
	game_ai_params_default(&p, level, seed);
	p.samples = samples;
	return g304_ai_wide_action(&v, &l, &p, NULL, a);
}

static int applies(const g304 *g, const g304_action *a)
{
	g304 h = *g;
	play_result res;
	return g304_apply(&h, a, &res) == G304_ERR_OK;
}

/* Legal at every level in every phase, the same for the same seed, and
 * easy is exactly the rule-based player. */
static void test_decisions(void)
{
	int matches = env_int("G6_AI_DEALS", 12);
	rng r;
	rng_seed(&r, 11);
	long decided = 0, phases[8] = { 0 };
	int refused = 0, undecided = 0, nondet = 0, noteasy = 0, searched_open = 0;
	for (int m = 0; m < matches; m++) {
		g304_rules rules;
		g304_rules_default(&rules);
	rules.size = G304_SIZE_SIX;
		if (m % 3 == 1)
			rules.caps = G304_CAPS_OFF;
		g304 g;
		g304_init(&g, &rules, m % SIX_SEATS);
		for (int deals = 0; deals < 12 && g.phase != G304_PHASE_OVER; deals++) {
			new_deal(&g, &r);
			for (int steps = 0; steps < 300 && g.phase != G304_PHASE_DEAL && g.phase != G304_PHASE_OVER; steps++) {
				int seat = g.turn;
				if (seat >= SIX_SEATS)
					break;
				g304_action pick;
				int have = 0;
				for (int level = GAME_AI_EASY; level <= GAME_AI_STRONG; level++) {
					g304_action a, b;
					uint64_t seed = rng_next(&r);
					if (!decide(&g, seat, level, seed, level == GAME_AI_EASY ? 0 : 12, &a)) {
						undecided++;
						continue;
					}
					decided++;
					phases[g.phase & 7]++;
					if (!applies(&g, &a))
						refused++;
					if (!decide(&g, seat, level, seed, level == GAME_AI_EASY ? 0 : 12, &b)
					    || memcmp(&a, &b, sizeof a))
						nondet++;
					if (level == GAME_AI_EASY) {
						g304_view v;
						g304_legal l;
						g304_view_of(&g, seat, &v);
						g304_legal_of(&g, seat, &l);
						g304_simple_action(&v, &l, &b);
						if (memcmp(&a, &b, sizeof a))
							noteasy++;
					}
					if (a.type == G304_ACT_OPEN)
						searched_open++;
					if (level == (int)(steps % 3)) {
						pick = a;
						have = 1;
					}
				}
				/* Now and then a random move, for positions the players
				 * would not reach. */
				if (!have || rng_below(&r, 4) == 0)
					have = g304_random_action(&g, &r, 0, &pick);
				if (!have)
					break;
				play_result res;
				if (g304_apply(&g, &pick, &res))
					break;
			}
		}
	}
	CHECK(refused == 0, "%d of %ld decisions were refused by the game", refused, decided);
	CHECK(undecided == 0, "%d positions without a decision", undecided);
	CHECK(nondet == 0, "%d decisions changed with the same seed", nondet);
	CHECK(noteasy == 0, "%d easy decisions differ from the rule-based player", noteasy);
	for (int ph = G304_PHASE_BID4; ph <= G304_PHASE_PLAY; ph++)
		CHECK(phases[ph] > 0, "decisions in phase %s: %ld", g304six_phase_name(ph), phases[ph]);
	printf("%ld decisions (bid4 %ld, trump4 %ld, bid6 %ld, trump6 %ld, play %ld), %d openings\n", decided,
	       phases[G304_PHASE_BID4], phases[G304_PHASE_TRUMP4], phases[G304_PHASE_BID8], phases[G304_PHASE_TRUMP8],
	       phases[G304_PHASE_PLAY], searched_open);
}

/* Another game the seat cannot tell from g: a card swapped between two
 * other hands, or (when the seat does not know it) the trump card lying
 * face down swapped with a card of another hand. */
static int disguise(const g304 *g, int seat, rng *r, g304 *h)
{
	*h = *g;
	int others[SIX_SEATS], n = 0;
	for (int s = 0; s < SIX_SEATS; s++)
		if (s != seat && h->hand[s])
			others[n++] = s;
	if (n < 2)
		return 0;
	if (h->trump_down && !h->trump_public && seat != h->trumper && rng_below(r, 2)) {
		int s = others[rng_below(r, (uint32_t)n)];
		if (s == h->trumper)
			return 0;
		card c = (card)rng_pick(r, h->hand[s]);
		h->hand[s] = (h->hand[s] & ~g304_pack_bit(c)) | g304_pack_bit(h->trump_card);
		h->trump_card = c;
		h->trump_suit = (uint8_t)g304_pack_suit_of(&g304_pack_36, c);
		return 1;
	}
	int i = (int)rng_below(r, (uint32_t)n), j = (int)rng_below(r, (uint32_t)(n - 1));
	if (j >= i)
		j++;
	int a = others[i], b = others[j];
	card ca = (card)rng_pick(r, h->hand[a]), cb = (card)rng_pick(r, h->hand[b]);
	h->hand[a] = (h->hand[a] & ~g304_pack_bit(ca)) | g304_pack_bit(cb);
	h->hand[b] = (h->hand[b] & ~g304_pack_bit(cb)) | g304_pack_bit(ca);
	return 1;
}

/* The decision in play is the same whatever the hidden cards are, when the
 * view is byte for byte the same. */
static void test_no_hidden_cards(void)
{
	rng r;
	rng_seed(&r, 5);
	int checked = 0, sameview = 0, differ = 0, trumpswaps = 0;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.size = G304_SIZE_SIX;
	rules.caps = G304_CAPS_OFF;
	for (int d = 0; d < 60; d++) {
		g304 g;
		g304_init(&g, &rules, d % SIX_SEATS);
		new_deal(&g, &r);
		while (g.phase != G304_PHASE_DEAL && g.phase != G304_PHASE_OVER) {
			int seat = g.turn;
			g304_action a;
			if (g.phase == G304_PHASE_PLAY) {
				g304 h;
				if (disguise(&g, seat, &r, &h)) {
					g304_view v1, v2;
					g304_view_of(&g, seat, &v1);
					g304_view_of(&h, seat, &v2);
					if (!memcmp(&v1, &v2, sizeof v1)) {
						g304_action x, y;
						uint64_t seed = rng_next(&r);
						sameview++;
						trumpswaps += h.trump_card != g.trump_card;
						if (decide(&g, seat, GAME_AI_STRONG, seed, 24, &x)
						    && decide(&h, seat, GAME_AI_STRONG, seed, 24, &y)) {
							checked++;
							if (memcmp(&x, &y, sizeof x))
								differ++;
						}
					}
				}
			}
			if (!decide(&g, seat, GAME_AI_NORMAL, rng_next(&r), 8, &a))
				break;
			play_result res;
			if (g304_apply(&g, &a, &res))
				break;
		}
	}
	CHECK(differ == 0, "%d of %d decisions changed with cards the seat cannot see", differ, checked);
	CHECK(checked > 500 && trumpswaps > 20, "checked %d decisions (%d with the trump card moved; %d same views)",
	      checked, trumpswaps, sameview);
}

/* ---- strength: a short duplicate match against the simple player ---- */

static int dup_decide(void *ctx, int player, const game *g, int seat, game_action *a)
{
	long *k = ctx;
	game_ai_params p;
	game_ai_params_default(&p, player == 0 ? GAME_AI_STRONG : GAME_AI_EASY, (uint64_t)(*k)++);
	p.samples = 60;
	return game_ai_decide(g, seat, &p, NULL, a);
}

static void test_strength(void)
{
	int deals = env_int("G6_AI_DUP", 40);
	long score = 0, k = 1;
	int refused = 0;
	for (int i = 0; i < deals; i++) {
		game_dup_deal out;
		CHECK(game_dup_play(&game_def_304six, 6, 91, i, dup_decide, &k, &out) == 0, "dup deal");
		score += out.score;
		refused += out.refused;
	}
	CHECK(refused == 0, "%d actions refused in the match", refused);
	CHECK(score > 0, "strong scored %ld tokens over simple in %d deals", score, deals);
	printf("strong %+ld tokens over simple in %d duplicate deals\n", score, deals);
}

int main(void)
{
	test_decisions();
	test_no_hidden_cards();
	test_strength();
	return check_report("test_g304six_ai");
}
