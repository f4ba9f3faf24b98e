/* test_no_peeking.c: a computer player decides the same when only cards it
 * may not know are different, in every game (issue 17, part 5).
 *
 * Through engine/core/game.h, for 304, six-player 304, Trump304 with 2, 3 and 4
 * players and Rook: deals are played by the games' computer players
 * (game_bot_action, the player tables seat) with a random move now and
 * then; at many decision points, two cards of one suit that nobody has
 * played or shown yet are swapped in the deck and the deal so far is
 * replayed on it. Where the seat to act then has the very same view
 * (byte for byte) and the same legal moves, the computer player must make
 * the same choice on both deals. So must the game's search player
 * (def->ai_action, the levels normal and strong, through game_ai_decide
 * with a fixed seed and a few samples), where the game has one.
 *
 * The control: a player that is given the true deal (it seeds its choice
 * from the whole state, hidden cards included) must be caught changing
 * its mind, at the same decision points, in every game; so the test can
 * fail.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "game.h"
#include "rng.h"

#define MAX_ACTIONS 400

typedef struct deal_log {
	uint8_t deck[GAME_MAX_DECK];
	game_action act[MAX_ACTIONS];
	int n;
} deal_log;

/* The suit (colour) of a card, from its record code: its last letter;
 * -1 for Rook's bird, which has none. */
static int suit_key(const game_def *def, uint8_t c)
{
	char code[8];
	def->card_code(c, code);
	size_t n = strlen(code);
	if (!n || !strcmp(code, "ROOK"))
		return -1;
	return (unsigned char)code[n - 1];
}

/* A card any action of the deal so far names (played, laid, discarded,
 * exchanged, ordered in a caps claim). */
static int named(const deal_log *d, uint8_t c)
{
	for (int i = 0; i < d->n; i++)
		for (int k = 0; k < d->act[i].ncards && k < GAME_ACTION_CARDS; k++)
			if (d->act[i].cards[k] == c)
				return 1;
	return 0;
}

/* The match at its start (mirrors g) with deck and the deal's actions;
 * NULL when an action is refused on this deck. */
static game *replay(const game_def *def, int nseats, int dealer, const uint8_t *deck, const deal_log *d)
{
	int err = 0;
	game *g = game_new(def, nseats, dealer, NULL, &err);
	if (!g)
		return NULL;
	if (game_deal(g, deck)) {
		game_free(g);
		return NULL;
	}
	for (int i = 0; i < d->n; i++) {
		game_result res;
		if (game_apply(g, &d->act[i], &res) || res.err) {
			game_free(g);
			return NULL;
		}
	}
	return g;
}

static int same_action(const game_action *a, const game_action *b)
{
	if (a->type != b->type || a->seat != b->seat || a->value != b->value || a->ncards != b->ncards)
		return 0;
	for (int k = 0; k < a->ncards && k < GAME_ACTION_CARDS; k++)
		if (a->cards[k] != b->cards[k])
			return 0;
	return 1;
}

/* The player tables seat: the game's computer player from its seat's view. */
static int honest(const game *g, int seat, game_action *a)
{
	rng r;
	rng_seed(&r, 99);
	return game_bot_action(g, seat, &r, a);
}

/* The control: a player given the true deal. Its random stream is seeded
 * from the whole state, the cards it may not see among them. */
static int peeking(const game *g, int seat, game_action *a)
{
	const uint8_t *p = g->state;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < g->def->state_size; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	rng r;
	rng_seed(&r, h);
	return game_random_action(g, seat, &r, a);
}

/* The search player (level normal, a fixed seed, a few samples: the
 * same decision every time on the same view). */
static int searching(const game *g, int seat, game_action *a)
{
	game_ai_params p;
	game_ai_params_default(&p, GAME_AI_NORMAL, 4242);
	p.samples = 6;
	return game_ai_decide(g, seat, &p, NULL, a);
}

typedef struct tally {
	int points, differ, peek_differ, refused, search_differ;
} tally;

/* At the decision point of g (seat to act), tries swaps of two unplayed
 * cards of one suit that leave the seat's view and moves as they are. */
static void probe(const game *g, int nseats, int dealer, const deal_log *d, int seat, rng *r, tally *t)
{
	const game_def *def = g->def;
	size_t vs = def->view_size;
	unsigned char *v0 = calloc(1, vs), *v1 = calloc(1, vs);
	game_view(g, seat, v0);
	game_legal l0;
	memset(&l0, 0, sizeof l0);
	game_legal_of(g, seat, &l0);
	for (int tries = 0; tries < 60; tries++) {
		int i = (int)rng_below(r, def->deck_size), j = (int)rng_below(r, def->deck_size);
		uint8_t ci = d->deck[i], cj = d->deck[j];
		if (i == j || suit_key(def, ci) < 0 || suit_key(def, ci) != suit_key(def, cj) || named(d, ci) || named(d, cj))
			continue;
		uint8_t deck2[GAME_MAX_DECK];
		memcpy(deck2, d->deck, def->deck_size);
		deck2[i] = cj;
		deck2[j] = ci;
		game *h = replay(def, nseats, dealer, deck2, d);
		if (!h) {
			t->refused++;
			continue;
		}
		memset(v1, 0, vs);
		game_view(h, seat, v1);
		game_legal l1;
		memset(&l1, 0, sizeof l1);
		game_legal_of(h, seat, &l1);
		if (memcmp(v0, v1, vs) || memcmp(&l0, &l1, sizeof l0)) {
			game_free(h);
			continue; /* the seat could tell the deals apart */
		}
		if (!memcmp(g->state, h->state, def->state_size)) {
			game_free(h);
			continue; /* nothing hidden changed */
		}
		game_action a0, a1, p0, p1;
		int k0 = honest(g, seat, &a0), k1 = honest(h, seat, &a1);
		int q0 = peeking(g, seat, &p0), q1 = peeking(h, seat, &p1);
		t->points++;
		t->differ += k0 != k1 || (k0 && !same_action(&a0, &a1));
		t->peek_differ += q0 != q1 || (q0 && !same_action(&p0, &p1));
		if (def->ai_action) {
			game_action s0, s1;
			int m0 = searching(g, seat, &s0), m1 = searching(h, seat, &s1);
			t->search_differ += m0 != m1 || (m0 && !same_action(&s0, &s1));
		}
		game_free(h);
		break;
	}
	free(v0);
	free(v1);
}

static void game_test(const char *gname, int nseats, uint64_t seed, int deals)
{
	const game_def *def = game_find(gname);
	CHECK(def != NULL, "%s: the game exists", gname);
	if (!def)
		return;
	rng r;
	rng_seed(&r, seed);
	tally t = { 0, 0, 0, 0, 0 };
	for (int n = 0; n < deals; n++) {
		int dealer = (int)rng_below(&r, (uint32_t)nseats), err = 0;
		game *g = game_new(def, nseats, dealer, NULL, &err);
		if (!g)
			break;
		deal_log *d = calloc(1, sizeof *d);
		game_shuffle(def, &r, d->deck);
		if (game_deal(g, d->deck)) {
			free(d);
			game_free(g);
			continue;
		}
		for (int step = 0; step < MAX_ACTIONS; step++) {
			game_status st;
			game_status_of(g, &st);
			if (st.needs_deal || st.over || st.turn == GAME_NO_SEAT || st.deal_no != 1)
				break;
			if (step % 2 == 0)
				probe(g, nseats, dealer, d, st.turn, &r, &t);
			game_action a;
			/* mostly the computer players' own moves, sometimes a random
			 * one, so that the deals go different ways */
			int ok = rng_below(&r, 4) ? game_bot_action(g, st.turn, &r, &a) : game_random_action(g, st.turn, &r, &a);
			if (!ok)
				break;
			game_result res;
			if (game_apply(g, &a, &res) || res.err)
				break;
			d->act[d->n++] = a;
		}
		free(d);
		game_free(g);
	}
	CHECK(t.points >= 150, "%s with %d: only %d decision points could be probed (%d replays refused)", gname, nseats,
	      t.points, t.refused);
	CHECK(t.differ == 0, "%s with %d: the computer player changed its choice at %d of %d points where only hidden "
	      "cards differed", gname, nseats, t.differ, t.points);
	CHECK(t.search_differ == 0, "%s with %d: the search player changed its choice at %d of %d points where only "
	      "hidden cards differed", gname, nseats, t.search_differ, t.points);
	CHECK(t.peek_differ > 0, "%s with %d: a player given the true deal was not caught (%d points)", gname, nseats,
	      t.points);
	printf("%s with %d players: %d decision points, the computer player changed %d, %s %d, the peeking control %d\n",
	       gname, nseats, t.points, t.differ, def->ai_action ? "the search player" : "(no search player)",
	       t.search_differ, t.peek_differ);
}

int main(void)
{
	game_test("304", 4, 1, 60);
	game_test("304six", 6, 2, 60);
	game_test("trump304", 2, 3, 80);
	game_test("trump304", 3, 4, 80);
	game_test("trump304", 4, 5, 80);
	game_test("rook", 4, 6, 60);
	return check_report("test_no_peeking");
}
