/* test_rook_props.c: property tests over many seeded random Rook hands and matches.
 *
 * The seat to move always has a legal action and nobody else has one; an
 * action is accepted exactly when rook_legal_of allows it, and a refused one
 * changes nothing; all 57 cards are always in exactly one place; every hand
 * totals 180 counters and the 20 for cards; tricks go to the right seat
 * (the Rook the lowest trump); scores follow making or going set; matches
 * end at 500 by the seed's tie rules; no view names a card its seat may not
 * know (the nest and the discard above all), and none shows a taken trick
 * once the next card is played (004: tricks are not reviewed until the
 * end of the round). The knowledge model is built
 * from the deck and the events alone.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "rook.h"
#include "rook_simple.h"

#define HANDS_DEFAULT 10000   /* ROOK_PROPS_HANDS overrides */
#define ALL57 ((((rcardset)1) << ROOK_CARDS) - 1)

static long hands_played, matches_ended, made_n[2], set_n, all_counter_discards, bids200, ties_seen;

static void check_cards(const rook *g)
{
	if (g->phase == ROOK_PHASE_DEAL || g->phase == ROOK_PHASE_OVER)
		return;
	rcardset seen = 0;
	int total = 0, overlap = 0;
#define PUT(set) do { rcardset s_ = (set); overlap |= (seen & s_) != 0; seen |= s_; total += rook_count(s_); } while (0)
	for (int s = 0; s < ROOK_SEATS; s++)
		PUT(g->hand[s]);
	PUT(g->won[0]);
	PUT(g->won[1]);
	if (g->nest != ROOK_NONE)
		PUT(rook_bit(g->nest));
	if (g->discard != ROOK_NONE)
		PUT(rook_bit(g->discard));
	if (g->phase == ROOK_PHASE_PLAY) {
		const rook_trick *t = &g->tricks[g->trick_no];
		for (int i = 0; i < t->n; i++)
			PUT(rook_bit(t->card[i]));
	}
#undef PUT
	CHECK(!overlap && total == ROOK_CARDS && seen == ALL57, "cards misplaced: total %d overlap %d", total, overlap);
}

static int legal_says(const rook *g, const rook_action *a)
{
	rook_legal l;
	if (a->seat >= ROOK_SEATS)
		return 0;
	rook_legal_of(g, a->seat, &l);
	if (!(l.acts >> a->type & 1))
		return 0;
	switch (a->type) {
	case ROOK_ACT_BID:
		return a->value % 5 == 0 && a->value >= l.bid_min && a->value <= ROOK_MAX_BID;
	case ROOK_ACT_TRUMP:
		return a->value < ROOK_COLOURS;
	case ROOK_ACT_DISCARD:
	case ROOK_ACT_PLAY:
		return a->card < ROOK_CARDS && (l.cards >> a->card & 1);
	default:
		return 1;
	}
}

static int expected_winner(const rook_trick *t, int trump)
{
	int best = 0;
	for (int i = 1; i < ROOK_SEATS; i++) {
		rcard c = t->card[i], b = t->card[best];
		int ct = c == ROOK_BIRD || rook_colour(c) == trump, bt = b == ROOK_BIRD || rook_colour(b) == trump;
		int led = t->card[0] == ROOK_BIRD ? trump : rook_colour(t->card[0]);
		/* Strength: 1 high, then 14..2, the Rook below all. */
		int cs = c == ROOK_BIRD ? 0 : (rook_number(c) == 1 ? 15 : rook_number(c));
		int bs = b == ROOK_BIRD ? 0 : (rook_number(b) == 1 ? 15 : rook_number(b));
		if (ct && !bt)
			best = i;
		else if (ct && bt && cs > bs)
			best = i;
		else if (!ct && !bt && rook_colour(c) == led && rook_colour(b) == led && cs > bs)
			best = i;
	}
	return t->seat[best];
}

static void random_legal(const rook *g, rng *r, rook_action *a)
{
	rook_legal l;
	rook_legal_of(g, g->turn, &l);
	memset(a, 0, sizeof *a);
	a->seat = g->turn;
	a->card = ROOK_NONE;
	if (l.acts >> ROOK_ACT_BID & 1) {
		if ((l.acts >> ROOK_ACT_PASS & 1) && rng_below(r, 5) < 2) {
			a->type = ROOK_ACT_PASS;
		} else {
			a->type = ROOK_ACT_BID;
			int steps = (ROOK_MAX_BID - l.bid_min) / 5;
			int k = (int)rng_below(r, (uint32_t)steps + 1);
			if (rng_below(r, 10))
				k = k < 3 ? k : (int)rng_below(r, 4);
			a->value = (uint16_t)(l.bid_min + 5 * k);
		}
	} else if (l.acts >> ROOK_ACT_DISCARD & 1) {
		a->type = ROOK_ACT_DISCARD;
		rcardset s = l.cards;
		uint32_t k = rng_below(r, (uint32_t)rook_count(s));
		while (k--)
			s &= s - 1;
		a->card = rook_first(s);
	} else if (l.acts >> ROOK_ACT_TRUMP & 1) {
		a->type = ROOK_ACT_TRUMP;
		a->value = (uint16_t)rng_below(r, ROOK_COLOURS);
	} else {
		rook_random_action(g, g->turn, r, a);
	}
}

static void check_view(const rook *g, int s, rcardset known)
{
	rook_view v;
	rook_view_of(g, s, &v);
	rcardset named = v.hand;
	if (v.discard != ROOK_NONE)
		named |= rook_bit(v.discard);
	for (int i = 0; i < v.trick.n; i++)
		named |= rook_bit(v.trick.card[i]);
	for (int i = 0; i < v.last_trick.n; i++)
		named |= rook_bit(v.last_trick.card[i]);
	/* The seat's memory of the hand: the tricks taken, the cards played,
	 * the nest card (the bidder's own). */
	rcardset remembered = 0;
	for (int t = 0; t < ROOK_TRICKS; t++)
		for (int i = 0; i < v.taken[t].n; i++)
			remembered |= rook_bit(v.taken[t].card[i]);
	if (v.nest_card != ROOK_NONE)
		named |= rook_bit(v.nest_card);
	named |= remembered | v.played;
	CHECK(!(named & ~known), "seat %d's view names cards it may not know", s);
	if (g->phase == ROOK_PHASE_PLAY) {
		rcardset played = remembered;
		for (int i = 0; i < v.trick.n; i++)
			played |= rook_bit(v.trick.card[i]);
		CHECK(played == v.played && rook_count(remembered) == 4 * g->trick_no,
		      "seat %d's memory: %d cards remembered after %d tricks", s, rook_count(remembered), g->trick_no);
		/* A seat shown void holds nothing of that suit. */
		for (int q = 0; q < ROOK_SEATS; q++)
			for (int c = 0; c < ROOK_COLOURS; c++)
				if (v.voids[q] >> c & 1) {
					rcardset suit = rook_colour_mask(c) | (c == g->trump ? rook_bit(ROOK_BIRD) : 0);
					CHECK(!(g->hand[q] & suit), "seat %d shown void in %d holds it", q, c);
				}
	}
	/* Taken tricks are not reviewed (004): the trick just taken is shown
	 * until the next card, never after. */
	int just_taken = g->phase == ROOK_PHASE_PLAY && g->trick_no > 0 && g->tricks[g->trick_no].n == 0;
	CHECK(just_taken ? v.last_trick.n == ROOK_SEATS && !memcmp(&v.last_trick, &g->tricks[g->trick_no - 1],
								     sizeof v.last_trick)
			 : v.last_trick.n == 0,
	      "seat %d's view shows a taken trick (%d cards) with %d cards of the next played", s, v.last_trick.n,
	      g->phase == ROOK_PHASE_PLAY ? g->tricks[g->trick_no].n : -1);
	if (g->phase != ROOK_PHASE_DEAL && g->phase != ROOK_PHASE_OVER)
		CHECK(v.hand == g->hand[s], "seat %d's view hand", s);
}

static void run_match(rng *r, int dealer)
{
	rook g;
	rook_init(&g, dealer);
	for (int hand = 0; hand < 200 && g.phase != ROOK_PHASE_OVER; hand++) {
		rcard deck[ROOK_CARDS];
		rcardset known[ROOK_SEATS] = { 0 };
		rook_shuffle(r, deck);
		CHECK(rook_deal(&g, deck) == ROOK_ERR_OK, "deal refused");
		for (int i = 0; i < ROOK_CARDS - 1; i++)
			known[(g.dealer + 1 + i) & 3] |= rook_bit(deck[i]);
		for (int s = 0; s < ROOK_SEATS; s++)
			CHECK(rook_count(g.hand[s]) == 14, "seat %d dealt %d", s, rook_count(g.hand[s]));
		hands_played++;
		int32_t score0[2] = { g.score[0], g.score[1] };
		for (int step = 0; step < 400; step++) {
			check_cards(&g);
			for (int s = 0; s < ROOK_SEATS; s++)
				check_view(&g, s, known[s]);
			if (g.phase == ROOK_PHASE_DEAL || g.phase == ROOK_PHASE_OVER)
				break;
			if (g.phase == ROOK_PHASE_BID)
				CHECK(g.turn != g.bidder && !(g.passed >> g.turn & 1),
				      "bidding turn %d: the high bidder or a passed seat", g.turn);
			for (int s = 0; s < ROOK_SEATS; s++) {
				rook_legal l;
				rook_legal_of(&g, s, &l);
				CHECK(s == g.turn ? l.acts != 0 : l.acts == 0, "seat %d acts %x turn %d", s, l.acts, g.turn);
			}
			rook_action x;
			CHECK(rook_random_action(&g, g.turn, r, &x), "no random move");
			rook copy = g;
			CHECK(rook_apply(&copy, &x, NULL) == ROOK_ERR_OK, "random move refused");
			for (int k = 0; k < 4; k++) {
				memset(&x, 0, sizeof x);
				x.seat = (uint8_t)(rng_below(r, 8) ? g.turn : rng_below(r, 5));
				x.type = (uint8_t)rng_below(r, ROOK_ACT_COUNT + 1);
				x.value = (uint16_t)(rng_below(r, 3) ? 60 + rng_below(r, 150) : rng_below(r, 6));
				x.card = (rcard)rng_below(r, ROOK_CARDS + 1);
				copy = g;
				rook_result res;
				int ok = rook_apply(&copy, &x, &res) == ROOK_ERR_OK;
				CHECK(ok == legal_says(&g, &x), "act %d value %d card %d: apply %d (%s) legal %d",
				      x.type, x.value, x.card, ok, rook_err_name(res.err), legal_says(&g, &x));
				if (!ok)
					CHECK(!memcmp(&copy, &g, sizeof g), "refusal changed the game");
			}
			rook_action a;
			random_legal(&g, r, &a);
			rook before = g;
			rook_result res;
			int err = rook_apply(&g, &a, &res);
			CHECK(err == ROOK_ERR_OK, "legal %s refused: %s", rook_act_name(a.type), rook_err_name(err));
			if (err)
				break;
			if (a.type == ROOK_ACT_BID && a.value == ROOK_MAX_BID)
				bids200++;
			if (a.type == ROOK_ACT_DISCARD && rook_points(a.card))
				all_counter_discards++;
			for (int i = 0; i < res.nevents; i++) {
				const rook_event *e = &res.events[i];
				switch (e->type) {
				case ROOK_EV_BIDDING_WON:
					known[e->seat] |= rook_bit(before.nest);
					CHECK(e->value == before.bid || (a.type == ROOK_ACT_BID && e->value == a.value), "won bid");
					break;
				case ROOK_EV_PLAYED:
					for (int s = 0; s < ROOK_SEATS; s++)
						known[s] |= rook_bit(e->card);
					break;
				case ROOK_EV_TRICK: {
					const rook_trick *t = &g.tricks[e->value];
					CHECK(t->winner == expected_winner(t, before.trump), "trick winner %d want %d",
					      t->winner, expected_winner(t, before.trump));
					break;
				}
				case ROOK_EV_HAND_END: {
					const rook_hand_end *h = &g.last;
					int bt = h->bidder & 1;
					CHECK(h->points[0] + h->points[1] == 200, "points %d + %d != 200", h->points[0], h->points[1]);
					CHECK(h->tricks[0] + h->tricks[1] == ROOK_TRICKS, "tricks");
					CHECK(h->cards_team == (h->tricks[bt] >= 7 ? bt : !bt), "cards bonus");
					CHECK(h->made == (h->points[bt] >= h->bid), "made");
					made_n[h->made]++;
					int want_b = h->made ? h->points[bt] : -(int)h->bid;
					CHECK(g.score[bt] == score0[bt] + want_b, "bidder score");
					CHECK(g.score[!bt] == score0[!bt] + h->points[!bt], "other score");
					if (g.phase == ROOK_PHASE_OVER) {
						matches_ended++;
						int w = g.winner;
						CHECK(g.score[w] >= ROOK_GAME, "winner under 500");
						if (g.score[!w] >= ROOK_GAME) {
							CHECK(g.score[w] >= g.score[!w], "both over: the higher wins");
							if (g.score[w] == g.score[!w]) {
								ties_seen++;
								CHECK(w == bt, "tie: the bidding team wins");
							}
						}
					} else {
						CHECK(g.score[0] < ROOK_GAME && g.score[1] < ROOK_GAME, "match goes on past 500");
					}
					break;
				}
				default:
					break;
				}
			}
		}
		CHECK(g.phase == ROOK_PHASE_DEAL || g.phase == ROOK_PHASE_OVER, "hand did not end");
		if (hands_played >= 1000000)
			break;
	}
}

int main(void)
{
	long hands = HANDS_DEFAULT;
	const char *env = getenv("ROOK_PROPS_HANDS");
	if (env)
		hands = atol(env);
	rng r;
	rng_seed(&r, 57);
	int m = 0;
	while (hands_played < hands)
		run_match(&r, m++ & 3);
	printf("  %ld hands in %d matches (%ld ended); made %ld, set %ld; 200 bids %ld; counter discards %ld; ties at 500 %ld\n",
	       hands_played, m, matches_ended, made_n[1], made_n[0], bids200, all_counter_discards, ties_seen);
	CHECK(made_n[0] > 0 && made_n[1] > 0 && matches_ended > 0, "outcomes not all seen");
	(void)set_n;

	/* Card codes round-trip; the pack's counters total 180. */
	int total = 0;
	for (int c = 0; c < ROOK_CARDS; c++) {
		char code[5];
		rook_code((rcard)c, code);
		CHECK(rook_parse(code) == c, "code %s", code);
		total += rook_points((rcard)c);
	}
	CHECK(total == 180, "counters total %d", total);
	CHECK(rook_parse("14r") == rook_make(ROOK_RED, 14) && rook_parse("rook") == ROOK_BIRD, "any case");
	CHECK(rook_parse("15R") == ROOK_NONE && rook_parse("0B") == ROOK_NONE && rook_parse("05B") == ROOK_NONE &&
	      rook_parse("1") == ROOK_NONE && rook_parse("1RR") == ROOK_NONE && rook_parse("") == ROOK_NONE, "bad codes");
	return check_report("test_rook_props");
}
