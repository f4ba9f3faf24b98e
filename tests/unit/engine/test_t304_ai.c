/* test_t304_ai.c: the Trump304 search player: its position model against
 * the rules, legal decisions at every level in every phase, determinism,
 * views that carry no hidden card, the budget's stop ending every strong
 * decision after one sample, and strength against the simple player.
 *
 * Env knobs: T304_AI_DEALS (deals per player count for legality, default
 * 30), T304_AI_DUP (duplicate deals per player count for strength, 24). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "t304.h"
#include "t304_ai.h"
#include "t304_ai_internal.h"
#include "t304_simple.h"
#include "game.h"
#include "game_dup.h"
#include "rng.h"

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : dflt;
}

static void new_deal(t304 *g, rng *r)
{
	card deck[CARD_COUNT];
	rng_shuffle_deck(r, deck);
	t304_deal(g, deck);
}

/* A random action of the real game, the reveal now and then. */
static void random_move(const t304 *g, rng *r, t304_action *a)
{
	t304_legal l;
	t304_legal_of(g, g->turn, &l);
	t304_random_action(g, g->turn, r, a);
	if (g->phase == T304_PHASE_PLAY && (l.acts >> T304_ACT_REVEAL & 1) && rng_below(r, 2)) {
		memset(a, 0, sizeof *a);
		a->type = T304_ACT_REVEAL;
		a->seat = g->turn;
	}
	if (g->phase == T304_PHASE_BID && (l.acts >> T304_ACT_BID & 1) && rng_below(r, 3) == 0) {
		a->type = T304_ACT_BID;
		a->value = l.bid_min;
	}
	if (g->phase == T304_PHASE_EXCHANGE && rng_below(r, 2)) {
		a->type = T304_ACT_EXCHANGE;
		a->put[0] = rng_pick(r, g->hand[g->turn]);
		a->put[1] = rng_pick(r, g->hand[g->turn] & ~card_bit(a->put[0]));
	}
}

/* ---- the compact position follows the rules ---- */

static void test_pos_model(void)
{
	rng r;
	rng_seed(&r, 5);
	long compared = 0;
	int bad = 0;
	for (int d = 0; d < 1500; d++) {
		int n = 2 + d % 3;
		t304 g;
		t304_init(&g, n, d % n);
		new_deal(&g, &r);
		t3pos p;
		int have = 0;
		while (g.phase != T304_PHASE_DEAL) {
			t304_action a;
			t304_result res;
			if (g.phase == T304_PHASE_PLAY) {
				t3pos q;
				t3_pos_of(&g, &q);
				if (have) {
					/* The model, played alongside, agrees with the rules. */
					int same = q.pts == p.pts && q.turn == p.turn && q.n == p.n &&
						   q.trick_no == p.trick_no && q.aside == p.aside &&
						   q.must_cut == p.must_cut && !memcmp(q.hand, p.hand, sizeof q.hand);
					if (!same && bad++ < 3)
						CHECK(0, "deal %d (%d players) trick %d: the model went another way", d, n,
						      g.trick_no);
				}
				p = q;
				have = 1;
				t304_legal l;
				t304_legal_of(&g, g.turn, &l);
				compared++;
				if ((t3_legal(&p) != l.cards || t3_may_reveal(&p) != (l.acts >> T304_ACT_REVEAL & 1)) &&
				    bad++ < 3)
					CHECK(0, "deal %d trick %d: model legal %08x/%d, rules %08x/%d", d, g.trick_no,
					      (unsigned)t3_legal(&p), t3_may_reveal(&p), (unsigned)l.cards,
					      l.acts >> T304_ACT_REVEAL & 1);
				random_move(&g, &r, &a);
				if (a.type == T304_ACT_REVEAL)
					t3_reveal(&p);
				else
					t3_play(&p, a.card);
			} else {
				random_move(&g, &r, &a);
				have = 0;
			}
			CHECK(t304_apply(&g, &a, &res) == T304_ERR_OK, "a random legal action refused");
			if (g.phase == T304_PHASE_DEAL && have) {
				int same = p.over && p.spoilt == (g.last.outcome == T304_OUTCOME_SPOILT) &&
					   (p.spoilt || p.pts == g.last.points[0]);
				if (!same && bad++ < 3)
					CHECK(0, "deal %d (%d players): model ends %d pts spoilt %d, rules %d outcome %d", d, n,
					      p.pts, p.spoilt, g.last.points[0], g.last.outcome);
			}
		}
	}
	CHECK(bad == 0, "the model disagreed with the rules %d times", bad);
	CHECK(compared > 10000, "compared %ld positions", compared);
}

/* ---- the exact solver against plain minimax ---- */

static int minimax(const t3pos *p)
{
	if (p->over)
		return 0;
	int maxi = t3_side(p, p->turn) == 0, best = maxi ? -1 : 1000;
	for (cardset x = t3_legal(p); x; x &= x - 1) {
		t3pos q = *p;
		t3_play(&q, cardset_first(x));
		int v = q.pts - p->pts + minimax(&q);
		best = maxi ? (v > best ? v : best) : (v < best ? v : best);
	}
	if (t3_may_reveal(p)) {
		t3pos q = *p;
		t3_reveal(&q);
		int v = minimax(&q);
		best = maxi ? (v > best ? v : best) : (v < best ? v : best);
	}
	return best;
}

static void test_solver(void)
{
	rng r;
	rng_seed(&r, 21);
	int checked = 0, bad = 0;
	t3tt *tt = calloc((size_t)1 << T3_TT_BITS, sizeof *tt);
	for (int d = 0; d < 600; d++) {
		int n = 2 + d % 3;
		t304 g;
		t304_init(&g, n, d % n);
		new_deal(&g, &r);
		int left = 2 + (int)rng_below(&r, n == 2 ? 3 : 2);
		while (g.phase != T304_PHASE_DEAL &&
		       !(g.phase == T304_PHASE_PLAY && g.ntricks - g.trick_no <= left && g.npile == 0)) {
			t304_action a;
			t304_result res;
			random_move(&g, &r, &a);
			t304_apply(&g, &a, &res);
		}
		if (g.phase != T304_PHASE_PLAY)
			continue;
		t3pos p;
		t3_pos_of(&g, &p);
		int exact = minimax(&p);
		t3solver plain = { .tt = NULL }, withtt = { .tt = tt };
		int full = t3_solve(&plain, &p, -1, 1000);
		int need = (int)rng_below(&r, 120);
		int nw = t3_solve(&withtt, &p, need - 1, need);
		int need2 = (int)rng_below(&r, 120);
		int nw2 = t3_solve(&withtt, &p, need2 - 1, need2);
		int full2 = t3_solve(&withtt, &p, -1, 1000); /* through the bounds the table holds */
		checked++;
		if ((full != exact || full2 != exact || (nw >= need) != (exact >= need) ||
		     (nw2 >= need2) != (exact >= need2)) && bad++ < 3)
			CHECK(0, "deal %d (%d players, %d tricks left): minimax %d, solver %d, need %d: %d then %d", d, n,
			      left, exact, full, need, nw, nw2);
	}
	free(tt);
	CHECK(bad == 0, "the solver was wrong %d times", bad);
	CHECK(checked > 300, "solved %d positions", checked);
}

/* ---- legal, deterministic decisions from the view alone ---- */

static int same_action(const t304_action *a, const t304_action *b)
{
	if (a->type != b->type || a->seat != b->seat)
		return 0;
	switch (a->type) {
	case T304_ACT_BID:
		return a->value == b->value;
	case T304_ACT_TRUMP:
	case T304_ACT_PLAY:
		return a->card == b->card;
	case T304_ACT_EXCHANGE:
		return a->put[0] == b->put[0] && a->put[1] == b->put[1];
	default:
		return 1;
	}
}

/* Another game the seat cannot tell from g: the cards it has not seen
 * moved between the other hands, the face-down trump card (unless the seat
 * is the trumper), the centre or put-down cards, and the pile, with the
 * trump suit following the trump card. Returns 0 if nothing could move. */
static int disguise(const t304 *g, int seat, rng *r, t304 *out)
{
	*out = *g;
	if (g->phase == T304_PHASE_DEAL)
		return 0;
	int three_hidden = g->nseats == 3 && !(seat == g->trumper && g->putdown);
	/* Slots: other hands, the trump card aside, the centre, the pile. */
	card cards[CARD_COUNT];
	int owner[CARD_COUNT], n = 0;
	for (int s = 0; s < g->nseats; s++) {
		if (s == seat)
			continue;
		cardset h = g->hand[s];
		if (g->revealed && s == g->trumper)
			h &= ~card_bit(g->trump_card);
		for (; h; h &= h - 1) {
			cards[n] = cardset_first(h);
			owner[n++] = s;
		}
	}
	int aside = g->trump_card != CARD_NONE && !g->revealed && seat != g->trumper;
	if (aside) {
		cards[n] = g->trump_card;
		owner[n++] = 10;
	}
	if (three_hidden)
		for (cardset h = g->centre | g->putdown; h; h &= h - 1) {
			cards[n] = cardset_first(h);
			owner[n++] = 11;
		}
	for (int i = CARD_COUNT - g->npile; i < CARD_COUNT && g->npile; i++) {
		cards[n] = g->deck[i];
		owner[n++] = 12;
	}
	if (n < 2)
		return 0;
	/* A voided seat must not receive a card of the suit it showed void. */
	for (int tries = 0; tries < 200; tries++) {
		card sh[CARD_COUNT];
		memcpy(sh, cards, sizeof sh);
		for (int i = n - 1; i > 0; i--) {
			int j = (int)rng_below(r, (uint32_t)i + 1);
			card t = sh[i];
			sh[i] = sh[j];
			sh[j] = t;
		}
		int ok = 1;
		for (int i = 0; i < n && ok; i++)
			if (owner[i] < T304_MAX_SEATS && (g->voids[owner[i]] >> card_suit(sh[i]) & 1))
				ok = 0;
		if (!ok)
			continue;
		for (int s = 0; s < g->nseats; s++)
			if (s != seat) {
				out->hand[s] = g->revealed && s == g->trumper ? card_bit(g->trump_card) : 0;
				out->held[s] = g->played[s];
			}
		if (three_hidden)
			out->centre = out->putdown = 0;
		int k = CARD_COUNT - g->npile, cdone = 0, pdone = 0;
		for (int i = 0; i < n; i++) {
			switch (owner[i]) {
			case 10:
				out->trump_card = sh[i];
				out->trump_suit = (uint8_t)card_suit(sh[i]);
				break;
			case 11:
				if (g->centre && cdone < 2) {
					out->centre |= card_bit(sh[i]);
					cdone++;
				} else if (g->putdown && pdone < 2) {
					out->putdown |= card_bit(sh[i]);
					pdone++;
				}
				break;
			case 12:
				out->deck[k++] = sh[i];
				break;
			default:
				out->hand[owner[i]] |= card_bit(sh[i]);
				break;
			}
		}
		for (int s = 0; s < g->nseats; s++)
			if (s != seat)
				out->held[s] |= out->hand[s];
		return 1;
	}
	return 0;
}

static void test_decisions(void)
{
	rng r;
	rng_seed(&r, 9);
	int deals = env_int("T304_AI_DEALS", 30);
	long decided = 0, disguised = 0;
	int phases[T304_PHASE_COUNT] = { 0 }, reveals = 0, exchanges = 0;
	int refused = 0, undecided = 0, nondet = 0, leak = 0, differ = 0;
	for (int n = 2; n <= 4; n++)
		for (int d = 0; d < deals; d++) {
			t304 g;
			t304_init(&g, n, d % n);
			new_deal(&g, &r);
			while (g.phase != T304_PHASE_DEAL) {
				int seat = g.turn;
				t304_view v;
				t304_legal l;
				t304_view_of(&g, seat, &v);
				t304_legal_of(&g, seat, &l);
				int level = GAME_AI_NORMAL + (int)rng_below(&r, 2);
				game_ai_params prm;
				game_ai_params_default(&prm, level, rng_next(&r));
				prm.samples = rng_below(&r, 3) ? 6 + rng_below(&r, 10) : 0;
				t304_action a, b;
				if (!t304_ai_action(&v, &l, &prm, NULL, &a)) {
					undecided++;
					break;
				}
				decided++;
				phases[g.phase]++;
				reveals += a.type == T304_ACT_REVEAL;
				exchanges += a.type == T304_ACT_EXCHANGE;
				t304_ai_action(&v, &l, &prm, NULL, &b);
				if (!same_action(&a, &b))
					nondet++;
				/* The same decision in a game the seat cannot tell apart. */
				t304 h;
				if (rng_below(&r, 3) == 0 && disguise(&g, seat, &r, &h)) {
					t304_view v2;
					t304_legal l2;
					t304_view_of(&h, seat, &v2);
					t304_legal_of(&h, seat, &l2);
					disguised++;
					if (memcmp(&v, &v2, sizeof v) || memcmp(&l, &l2, sizeof l))
						leak++;
					else if (!t304_ai_action(&v2, &l2, &prm, NULL, &b) || !same_action(&a, &b))
						differ++;
				}
				t304 copy = g;
				t304_result res;
				if (t304_apply(&copy, &a, &res) != T304_ERR_OK) {
					if (refused++ < 3)
						CHECK(0, "%d players, phase %s: the %s action was refused (%s)", n,
						      t304_phase_name(g.phase), t304_act_name(a.type), t304_err_name(res.err));
					break;
				}
				/* Carry on with the search's action, or now and then a random one. */
				if (rng_below(&r, 4) == 0) {
					t304_action x;
					random_move(&g, &r, &x);
					if (t304_apply(&g, &x, &res) != T304_ERR_OK)
						g = copy;
				} else {
					g = copy;
				}
			}
		}
	CHECK(refused == 0, "%d decisions refused", refused);
	CHECK(undecided == 0, "%d positions without a decision", undecided);
	CHECK(nondet == 0, "%d decisions differed for the same seed", nondet);
	CHECK(leak == 0, "%d views changed when only hidden cards moved", leak);
	CHECK(differ == 0, "%d decisions changed when only hidden cards moved", differ);
	CHECK(disguised > 100, "only %ld disguised positions", disguised);
	for (int ph = T304_PHASE_BID; ph < T304_PHASE_COUNT; ph++)
		CHECK(phases[ph] > 0, "no decision in phase %s", t304_phase_name(ph));
	CHECK(reveals > 0 && exchanges > 0, "reveals %d, exchanges %d: the search never chose them", reveals,
	      exchanges);
	printf("decisions %ld (bid %d trump %d exchange %d play %d), disguised %ld, reveals %d, exchanges %d\n",
	       decided, phases[T304_PHASE_BID], phases[T304_PHASE_TRUMP], phases[T304_PHASE_EXCHANGE],
	       phases[T304_PHASE_PLAY], disguised, reveals, exchanges);
}

/* The view of a seat that is not the trumper names no trump while the
 * trump card lies face down, and the cards of another hand never. */
static void test_view_bytes(void)
{
	rng r;
	rng_seed(&r, 3);
	int checked = 0, bad = 0;
	for (int d = 0; d < 300; d++) {
		int n = 2 + d % 3;
		t304 g;
		t304_init(&g, n, 0);
		new_deal(&g, &r);
		while (g.phase != T304_PHASE_DEAL) {
			for (int s = 0; s < n; s++) {
				t304 h;
				if (!disguise(&g, s, &r, &h))
					continue;
				t304_view v1, v2;
				t304_view_of(&g, s, &v1);
				t304_view_of(&h, s, &v2);
				checked++;
				if (memcmp(&v1, &v2, sizeof v1))
					bad++;
			}
			t304_action a;
			t304_result res;
			random_move(&g, &r, &a);
			t304_apply(&g, &a, &res);
		}
	}
	CHECK(bad == 0, "%d of %d views changed with cards the seat cannot see", bad, checked);
	CHECK(checked > 5000, "checked %d views", checked);
}

/* ---- the budget: a stop that is always due ends every search ---- */

static int stop_now(void *ctx)
{
	(*(long *)ctx)++;
	return 1;
}

/* The strong player with a spent budget decides every phase legally after
 * one sampled (or simulated) deal: the bidding, the trump choice and the
 * exchange poll the stop as the card search does. */
static void test_stop(void)
{
	rng r;
	rng_seed(&r, 33);
	int phases[T304_PHASE_COUNT] = { 0 }, refused = 0, over = 0, unpolled = 0;
	for (int n = 2; n <= 4; n++)
		for (int d = 0; d < 12; d++) {
			t304 g;
			t304_init(&g, n, d % n);
			new_deal(&g, &r);
			while (g.phase != T304_PHASE_DEAL) {
				t304_view v;
				t304_legal l;
				t304_view_of(&g, g.turn, &v);
				t304_legal_of(&g, g.turn, &l);
				game_ai_params prm;
				game_ai_params_default(&prm, GAME_AI_STRONG, rng_next(&r));
				long polls = 0;
				prm.stop = stop_now;
				prm.stop_ctx = &polls;
				game_ai_stats st;
				memset(&st, 0, sizeof st);
				t304_action a;
				t304_result res;
				int phase = g.phase;
				if (!t304_ai_action(&v, &l, &prm, &st, &a) || t304_apply(&g, &a, &res) != T304_ERR_OK) {
					refused++;
					break;
				}
				phases[phase]++;
				if (st.samples > 1)
					over++;
				if (st.samples == 1 && !polls)
					unpolled++;
			}
		}
	CHECK(refused == 0, "%d strong decisions with a spent budget refused", refused);
	CHECK(over == 0, "%d strong decisions went on past the budget", over);
	CHECK(unpolled == 0, "%d strong decisions never asked the budget", unpolled);
	for (int ph = T304_PHASE_BID; ph < T304_PHASE_COUNT; ph++)
		CHECK(phases[ph] > 0, "no decision in phase %s", t304_phase_name(ph));
}

/* ---- strength: a short duplicate match against the simple player ---- */

static int decide(void *ctx, int player, const game *g, int seat, game_action *a)
{
	long *k = ctx;
	game_ai_params p;
	game_ai_params_default(&p, player == 0 ? GAME_AI_STRONG : GAME_AI_EASY, (uint64_t)(*k)++);
	p.samples = 40;
	return game_ai_decide(g, seat, &p, NULL, a);
}

static void test_strength(void)
{
	int deals = env_int("T304_AI_DUP", 24);
	for (int n = 2; n <= 4; n++) {
		long score = 0, k = 1;
		int refused = 0;
		for (int i = 0; i < deals; i++) {
			game_dup_deal out;
			CHECK(game_dup_play(&game_def_trump304, n, 77, i, decide, &k, &out) == 0, "dup deal");
			score += out.score;
			refused += out.refused;
		}
		CHECK(refused == 0, "%d players: %d actions refused in the match", n, refused);
		CHECK(score > 0, "%d players: strong scored %ld tokens over simple in %d deals", n, score, deals);
		printf("%d players: strong %+ld tokens over simple in %d duplicate deals\n", n, score, deals);
	}
}

int main(void)
{
	test_pos_model();
	test_solver();
	test_view_bytes();
	test_decisions();
	test_stop();
	test_strength();
	return check_report("test_t304_ai");
}
