/* test_rook_ai.c: the Rook search player: its compact position against the
 * rules, sampled deals against the hidden cards, the endgame solver
 * against plain minimax, legal decisions in every
 * phase at every level, the same seed giving the same decision, no peeking
 * (cards the seat cannot know changed: the view's bytes and the decision
 * stay the same), the stop callback, and strength against the simple player.
 *
 * Env knobs: AI_TEST_DEALS (matches for legality, default 6), AI_TEST_DUP
 * (duplicate deals for the strength check, default 30). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "game.h"
#include "game_dup.h"
#include "rook.h"
#include "rook_ai.h"
#include "rook_ai_internal.h"
#include "rook_simple.h"
#include "rng.h"

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : dflt;
}

static void new_deal(rook *g, rng *r)
{
	rcard deck[ROOK_CARDS];
	rook_shuffle(r, deck);
	rook_deal(g, deck);
}

static rook_action act(int type, int seat, int value, rcard c)
{
	rook_action a;
	memset(&a, 0, sizeof a);
	a.type = (uint8_t)type;
	a.seat = (uint8_t)seat;
	a.value = (uint16_t)value;
	a.card = c;
	return a;
}

/* Plays g to its first card with simple players; returns 0 if it did not get there. */
static int to_play(rook *g, rng *r)
{
	new_deal(g, r);
	for (int i = 0; i < 200 && g->phase != ROOK_PHASE_PLAY; i++) {
		rook_view v;
		rook_legal l;
		rook_action a;
		rook_view_of(g, g->turn, &v);
		rook_legal_of(g, g->turn, &l);
		if (!rook_simple_action(&v, &l, &a) || rook_apply(g, &a, NULL))
			return 0;
	}
	return g->phase == ROOK_PHASE_PLAY;
}

/* ---- the compact position follows the rules ---- */

static void test_pos_model(void)
{
	rng r;
	rng_seed(&r, 7);
	int compared = 0, bad_legal = 0, bad_state = 0, bad_value = 0;
	for (int d = 0; d < 1000; d++) {
		rook g;
		rook_init(&g, d & 3);
		if (!to_play(&g, &r))
			continue;
		rook_ai_pos p;
		rook_ai_pos_of(&g, &p);
		while (g.phase == ROOK_PHASE_PLAY) {
			rook_legal l;
			rook_legal_of(&g, g.turn, &l);
			bad_legal += rook_ai_legal(&p) != l.cards;
			rcard c = (d & 1) ? rook_ai_policy(&p) : rng_pick(&r, l.cards);
			CHECK(l.cards & rook_bit(c), "policy card %d not legal", c);
			rook_action a = act(ROOK_ACT_PLAY, g.turn, 0, c);
			CHECK(rook_apply(&g, &a, NULL) == ROOK_ERR_OK, "card refused");
			rook_ai_play(&p, c);
			if (g.phase == ROOK_PHASE_PLAY) {
				rook_ai_pos q;
				rook_ai_pos_of(&g, &q);
				q.extra = p.extra;
				/* Slots past the cards played in the trick are not kept. */
				for (int i = q.n; i < ROOK_SEATS; i++) {
					q.seat[i] = p.seat[i];
					q.card[i] = p.card[i];
				}
				bad_state += memcmp(&p, &q, sizeof p) != 0;
			}
			compared++;
		}
		int bt = g.last.bidder & 1;
		int v = g.last.delta[bt] - g.last.delta[!bt];
		bad_value += rook_ai_value(&p, bt) != v || rook_ai_value(&p, !bt) != -v;
	}
	CHECK(compared > 20000, "only %d cards compared", compared);
	CHECK(!bad_legal, "%d legal sets differ from the rules'", bad_legal);
	CHECK(!bad_state, "%d positions differ from the game's", bad_state);
	CHECK(!bad_value, "%d hands valued unlike the scores", bad_value);
	printf("position model: %d cards compared\n", compared);
}

/* ---- sampled deals: exactly the hidden cards, where they may lie ---- */

static void test_sampler(void)
{
	rng r, q;
	rng_seed(&r, 13);
	rng_seed(&q, 14);
	int deals = 0, bad = 0, same_as_truth = 0;
	for (int d = 0; d < 300; d++) {
		rook g;
		rook_init(&g, d & 3);
		new_deal(&g, &r);
		int stop = (int)rng_below(&r, 60);
		for (int step = 0; step < stop && g.phase != ROOK_PHASE_DEAL; step++) {
			rook_view v;
			rook_legal l;
			rook_action a;
			rook_view_of(&g, g.turn, &v);
			rook_legal_of(&g, g.turn, &l);
			rook_simple_action(&v, &l, &a);
			rook_apply(&g, &a, NULL);
		}
		if (g.phase == ROOK_PHASE_DEAL || g.phase == ROOK_PHASE_OVER)
			continue;
		int seat = g.turn;
		rook_view v;
		rook_view_of(&g, seat, &v);
		rook_ai_vinfo vi;
		rook_ai_sample_view(&v, &vi);
		CHECK(vi.ok, "deal %d: the view's card counts do not add up", d);
		rcardset hidden = 0;
		for (int s = 0; s < ROOK_SEATS; s++)
			if (s != seat)
				hidden |= g.hand[s];
		if (g.nest != ROOK_NONE)
			hidden |= rook_bit(g.nest);
		if (g.discard != ROOK_NONE && seat != g.bidder)
			hidden |= rook_bit(g.discard);
		CHECK(vi.unknown == hidden, "deal %d: unknown cards are not the hidden ones", d);
		rcardset h[ROOK_SEATS] = { 0 };
		rcard slot;
		rook_ai_sample_deal(&vi, &q, h, &slot);
		rcardset all = slot != ROOK_NONE ? rook_bit(slot) : 0;
		int overlap = 0;
		for (int s = 0; s < ROOK_SEATS; s++) {
			if (s == seat)
				continue;
			overlap |= (all & h[s]) != 0;
			all |= h[s];
			bad += rook_count(h[s]) != rook_count(g.hand[s]);
			for (int c = 0; c < ROOK_COLOURS; c++)
				bad += (v.voids[s] >> c & 1) && (h[s] & rook_ai_suit_mask(g.trump, c));
		}
		bad += overlap || all != hidden || h[seat] != 0;
		bad += (g.nest != ROOK_NONE || (g.discard != ROOK_NONE && seat != g.bidder)) != (slot != ROOK_NONE);
		same_as_truth += h[(seat + 1) & 3] == g.hand[(seat + 1) & 3];
		deals++;
	}
	CHECK(deals > 200, "only %d deals sampled", deals);
	CHECK(!bad, "%d faults in %d sampled deals (cards, counts, voids, the nest or discard)", bad, deals);
	CHECK(same_as_truth < deals / 4, "%d of %d samples dealt the true hand", same_as_truth, deals);
	printf("sampler: %d deals of exactly the hidden cards\n", deals);
}

/* ---- the solver against plain minimax ---- */

static int brute(const rook_ai_pos *p, int team)
{
	if (p->trick_no >= ROOK_TRICKS)
		return rook_ai_value(p, team);
	int maxi = (p->turn & 1) == team, best = maxi ? -100000 : 100000;
	for (rcardset s = rook_ai_legal(p); s; s &= s - 1) {
		rook_ai_pos q = *p;
		rook_ai_play(&q, rook_first(s));
		int v = brute(&q, team);
		best = maxi ? (v > best ? v : best) : (v < best ? v : best);
	}
	return best;
}

static void test_solver(void)
{
	rng r;
	rng_seed(&r, 8);
	int solved = 0, differ = 0;
	for (int d = 0; d < 300; d++) {
		rook g;
		rook_init(&g, d & 3);
		if (!to_play(&g, &r))
			continue;
		int stop = ROOK_TRICKS - 2 - (d % 2); /* 2 or 3 tricks left */
		int mid = (int)rng_below(&r, 4);
		while (g.phase == ROOK_PHASE_PLAY && (g.trick_no < stop || g.tricks[g.trick_no].n < mid)) {
			rook_legal l;
			rook_legal_of(&g, g.turn, &l);
			rook_action a = act(ROOK_ACT_PLAY, g.turn, 0, rng_pick(&r, l.cards));
			rook_apply(&g, &a, NULL);
		}
		if (g.phase != ROOK_PHASE_PLAY)
			continue;
		rook_ai_pos p;
		rook_ai_pos_of(&g, &p);
		for (int team = 0; team < 2; team++) {
			unsigned long nodes = 0;
			differ += rook_ai_solve(&p, team, -100000, 100000, &nodes) != brute(&p, team);
			solved++;
		}
	}
	CHECK(solved > 400, "only %d positions solved", solved);
	CHECK(!differ, "%d of %d solutions differ from minimax", differ, solved);
	printf("solver: %d positions agree with minimax\n", solved - differ);
}

/* ---- every decision legal, at every level; the same seed, the same decision ---- */

static int decide(const rook *g, int seat, const game_ai_params *p, rook_action *a)
{
	rook_view v;
	rook_legal l;
	rook_view_of(g, seat, &v);
	rook_legal_of(g, seat, &l);
	return rook_ai_action(&v, &l, p, NULL, a);
}

static void test_legal_everywhere(void)
{
	int matches = env_int("AI_TEST_DEALS", 6);
	int by_phase[ROOK_PHASE_COUNT] = { 0 }, by_level[GAME_AI_LEVELS] = { 0 };
	int refused = 0, undecided = 0, unstable = 0, checked = 0;
	rng r;
	rng_seed(&r, 9);
	for (int m = 0; m < matches; m++) {
		rook g;
		rook_init(&g, m & 3);
		for (int hand = 0; hand < 3 && g.phase != ROOK_PHASE_OVER; hand++) {
			new_deal(&g, &r);
			for (int step = 0; step < 200 && g.phase != ROOK_PHASE_DEAL && g.phase != ROOK_PHASE_OVER; step++) {
				game_ai_params p;
				int level = (int)((g.turn + m + hand) % GAME_AI_LEVELS);
				game_ai_params_default(&p, level, 1000u * (unsigned)m + (unsigned)step);
				/* Small sample counts keep it quick; now and then the level's own. */
				p.samples = rng_below(&r, 8) ? 2 + rng_below(&r, 6) : 0;
				rook_action a, b;
				int ph = g.phase, seat = g.turn;
				if (!decide(&g, seat, &p, &a)) {
					undecided++;
					break;
				}
				if (rng_below(&r, 4) == 0) {
					checked++;
					unstable += !decide(&g, seat, &p, &b) || memcmp(&a, &b, sizeof a) != 0;
				}
				if (rook_apply(&g, &a, NULL) != ROOK_ERR_OK) {
					refused++;
					break;
				}
				by_phase[ph]++;
				by_level[level]++;
			}
		}
	}
	CHECK(!refused && !undecided, "%d actions refused, %d not made", refused, undecided);
	CHECK(!unstable, "%d of %d decisions differ on the same seed", unstable, checked);
	for (int ph = ROOK_PHASE_BID; ph <= ROOK_PHASE_PLAY; ph++)
		CHECK(by_phase[ph] >= matches, "phase %s: only %d decisions", rook_phase_name(ph), by_phase[ph]);
	for (int lv = 0; lv < GAME_AI_LEVELS; lv++)
		CHECK(by_level[lv] > 0, "level %s never decided", game_ai_level_name(lv));
	printf("legality: bid %d, discard %d, trump %d, play %d decisions; %d repeated\n", by_phase[ROOK_PHASE_BID],
	       by_phase[ROOK_PHASE_DISCARD], by_phase[ROOK_PHASE_TRUMP], by_phase[ROOK_PHASE_PLAY], checked);
}

/* ---- no peeking ---- */

/* The cards seat cannot know, dealt again at random where they lie: the
 * other hands (each keeping its size and the colours it showed void), the
 * nest in the centre, another seat's discard (kept a non-counter). Returns
 * 1 if anything moved. */
static int redeal_hidden(const rook *g, int seat, rng *r, rook *out)
{
	*out = *g;
	rook_view v;
	rook_view_of(g, seat, &v);
	for (int tries = 0; tries < 200; tries++) {
		rook h = *g;
		rcardset pool = 0;
		for (int s = 0; s < ROOK_SEATS; s++)
			if (s != seat)
				pool |= h.hand[s];
		int nest = h.nest != ROOK_NONE, disc = h.discard != ROOK_NONE && seat != h.bidder;
		if (nest)
			pool |= rook_bit(h.nest);
		if (disc)
			pool |= rook_bit(h.discard);
		rcard cards[ROOK_CARDS];
		int n = 0;
		for (rcardset x = pool; x; x &= x - 1)
			cards[n++] = rook_first(x);
		for (int i = n - 1; i > 0; i--) {
			int j = (int)rng_below(r, (uint32_t)i + 1);
			rcard t = cards[i];
			cards[i] = cards[j];
			cards[j] = t;
		}
		int k = 0, ok = 1;
		if (disc) {
			/* A non-counter for the discard. */
			int j = 0;
			while (j < n && rook_points(cards[j]))
				j++;
			if (j == n)
				continue;
			rcard t = cards[0];
			cards[0] = cards[j];
			cards[j] = t;
			h.discard = cards[k++];
		}
		if (nest)
			h.nest = cards[k++];
		for (int s = 0; s < ROOK_SEATS && ok; s++) {
			if (s == seat)
				continue;
			int cnt = rook_count(g->hand[s]);
			h.hand[s] = 0;
			for (int i = 0; i < cnt; i++)
				h.hand[s] |= rook_bit(cards[k++]);
			for (int c = 0; c < ROOK_COLOURS; c++)
				if ((v.voids[s] >> c & 1) && (h.hand[s] & rook_ai_suit_mask(g->trump, c)))
					ok = 0;
		}
		if (!ok)
			continue;
		/* The deck is where the nest card is remembered for the bidder. */
		if (nest)
			h.deck[ROOK_CARDS - 1] = h.nest;
		else if (seat != h.bidder)
			h.deck[ROOK_CARDS - 1] = h.discard; /* any hidden card will do */
		*out = h;
		return memcmp(out, g, sizeof *g) != 0;
	}
	return 0;
}

static void test_no_peeking(void)
{
	rng r;
	rng_seed(&r, 10);
	int probes = 0, moved = 0, view_differs = 0, action_differs = 0, by_phase[ROOK_PHASE_COUNT] = { 0 };
	for (int d = 0; d < 40; d++) {
		rook g;
		rook_init(&g, d & 3);
		new_deal(&g, &r);
		for (int step = 0; step < 200 && g.phase != ROOK_PHASE_DEAL && g.phase != ROOK_PHASE_OVER; step++) {
			int seat = g.turn;
			game_ai_params p;
			game_ai_params_default(&p, step & 1 ? GAME_AI_STRONG : GAME_AI_NORMAL, 77u + (unsigned)step);
			p.samples = 6;
			if (rng_below(&r, 3) == 0) {
				rook h;
				if (redeal_hidden(&g, seat, &r, &h)) {
					moved++;
					rook_view v0, v1;
					rook_view_of(&g, seat, &v0);
					rook_view_of(&h, seat, &v1);
					view_differs += memcmp(&v0, &v1, sizeof v0) != 0;
					rook_action a0, a1;
					decide(&g, seat, &p, &a0);
					decide(&h, seat, &p, &a1);
					action_differs += memcmp(&a0, &a1, sizeof a0) != 0;
					by_phase[g.phase]++;
				}
				probes++;
			}
			rook_action a;
			if (!decide(&g, seat, &p, &a) || rook_apply(&g, &a, NULL))
				break;
		}
	}
	CHECK(moved > probes / 2 && moved > 200, "only %d of %d probes changed hidden cards", moved, probes);
	CHECK(by_phase[ROOK_PHASE_BID] > 10 && by_phase[ROOK_PHASE_PLAY] > 100, "probes: bid %d play %d",
	      by_phase[ROOK_PHASE_BID], by_phase[ROOK_PHASE_PLAY]);
	CHECK(!view_differs, "%d of %d views changed with cards their seat cannot know", view_differs, moved);
	CHECK(!action_differs, "%d of %d decisions changed with cards their seat cannot know", action_differs, moved);
	printf("no peeking: %d probes with hidden cards moved (bid %d, discard %d, trump %d, play %d)\n", moved,
	       by_phase[ROOK_PHASE_BID], by_phase[ROOK_PHASE_DISCARD], by_phase[ROOK_PHASE_TRUMP],
	       by_phase[ROOK_PHASE_PLAY]);
}

/* ---- the stop callback ---- */

static int always_stop(void *ctx)
{
	(*(int *)ctx)++;
	return 1;
}

static void test_stop(void)
{
	rng r;
	rng_seed(&r, 12);
	int polled = 0, decided = 0;
	unsigned long samples = 0;
	for (int d = 0; d < 20; d++) {
		rook g;
		rook_init(&g, d & 3);
		new_deal(&g, &r);
		for (int step = 0; step < 200 && g.phase != ROOK_PHASE_DEAL && g.phase != ROOK_PHASE_OVER; step++) {
			game_ai_params p;
			game_ai_params_default(&p, GAME_AI_STRONG, (uint64_t)step);
			p.stop = always_stop;
			p.stop_ctx = &polled;
			game_ai_stats st = { 0 };
			rook_view v;
			rook_legal l;
			rook_view_of(&g, g.turn, &v);
			rook_legal_of(&g, g.turn, &l);
			rook_action a;
			if (!rook_ai_action(&v, &l, &p, &st, &a) || rook_apply(&g, &a, NULL))
				break;
			decided++;
			samples += st.samples;
			/* At least one sample, and no more than one, when told to stop at once. */
			CHECK(st.samples <= 1, "%lu samples after stop", st.samples);
		}
	}
	CHECK(polled > 0 && samples > 0, "stop polled %d times, %lu samples", polled, samples);
	printf("stop: %d decisions, %lu samples, polled %d times\n", decided, samples, polled);
}

/* ---- strength: strong above simple over duplicate deals ---- */

static int dup_decide(void *ctx, int player, const game *g, int seat, game_action *a)
{
	game_ai_params p = *(const game_ai_params *)ctx;
	const rook *st = g->state;
	p.level = player == 0 ? GAME_AI_STRONG : GAME_AI_EASY;
	p.seed += (uint64_t)st->deal_no * 1009u + (uint64_t)st->nbidlog * 31u + (uint64_t)st->trick_no * 7u +
		  st->tricks[st->trick_no < ROOK_TRICKS ? st->trick_no : 0].n;
	return game_ai_decide(g, seat, &p, NULL, a);
}

static void test_strength(void)
{
	int deals = env_int("AI_TEST_DUP", 30);
	game_ai_params p;
	game_ai_params_default(&p, GAME_AI_STRONG, 5);
	p.samples = 32; /* fewer than the level's own, to keep the test quick */
	long score = 0;
	int refused = 0;
	for (int d = 0; d < deals; d++) {
		game_dup_deal out;
		game_dup_play(&game_def_rook, 4, 31337, d, dup_decide, &p, &out);
		score += out.score;
		refused += out.refused;
	}
	printf("strength: %d duplicate deals, strong vs simple: %+ld points (%+.1f a deal)\n", deals, score,
	       (double)score / deals);
	CHECK(refused == 0, "%d actions refused", refused);
	/* Deterministic (fixed seeds): not flaky. bench ai gives the interval. */
	CHECK(score > 0, "strong scored %+ld points over simple in %d deals", score, deals);
}

int main(void)
{
	test_pos_model();
	test_sampler();
	test_solver();
	test_legal_everywhere();
	test_no_peeking();
	test_stop();
	test_strength();
	return check_report("test_rook_ai");
}
