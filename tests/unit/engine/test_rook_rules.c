/* test_rook_rules.c: Rook rules that random play rarely reaches: the end of a
 * match at 500 with both teams over (higher wins; a tie goes to the bidding
 * team), a lone remaining bidder who may not pass, the discard when the hand
 * holds nothing but counters, and the simple player's sense. The hand used
 * is the standard layout of the rook_*.json records.
 */
#include <string.h>
#include "check.h"
#include "rook.h"
#include "rook_simple.h"

/* By position after the dealer: d+1 .. d+4 (the dealer). */
static const char *const layout[4][14] = {
	{ "1R", "14R", "13R", "12R", "11R", "10R", "9R", "8R", "1G", "14G", "13G", "12G", "11G", "10G" },
	{ "7R", "6R", "5R", "4R", "3R", "2R", "1Y", "2Y", "3Y", "4Y", "5Y", "6Y", "7Y", "8Y" },
	{ "9G", "8G", "7G", "6G", "5G", "4G", "3G", "2G", "9Y", "10Y", "11Y", "12Y", "13Y", "14Y" },
	{ "1B", "2B", "3B", "4B", "5B", "6B", "7B", "8B", "9B", "10B", "11B", "12B", "13B", "14B" },
};
/* The tricks, as (position, card) in play order. */
static const char *const tricks[14][4] = {
	{ "ROOK", "2R", "2G", "2B" }, { "1Y", "9Y", "3B", "8R" },
	{ "1R", "3R", "3G", "4B" }, { "14R", "4R", "4G", "5B" }, { "13R", "5R", "5G", "6B" },
	{ "12R", "6R", "6G", "7B" }, { "11R", "7R", "7G", "8B" }, { "10R", "2Y", "8G", "9B" },
	{ "9R", "3Y", "9G", "10B" }, { "1G", "4Y", "10Y", "11B" }, { "14G", "5Y", "11Y", "12B" },
	{ "13G", "6Y", "12Y", "13B" }, { "12G", "7Y", "13Y", "14B" }, { "10G", "8Y", "14Y", "1B" },
};
static const int leaders[14] = { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

static void standard_deck(rcard deck[ROOK_CARDS])
{
	for (int k = 0; k < 14; k++)
		for (int j = 0; j < 4; j++)
			deck[k * 4 + j] = rook_parse(layout[j][k]);
	deck[56] = ROOK_BIRD;
}

static int act(rook *g, int type, int seat, int value, rcard c)
{
	rook_action a = { (uint8_t)type, (uint8_t)seat, (uint16_t)value, c };
	return rook_apply(g, &a, NULL);
}

/* Plays the standard hand from bidding to the end; d+1 bids `bid`. */
static void standard_hand(rook *g, int bid)
{
	rcard deck[ROOK_CARDS];
	standard_deck(deck);
	CHECK(rook_deal(g, deck) == ROOK_ERR_OK, "deal");
	int d = g->dealer, p1 = (d + 1) & 3;
	CHECK(act(g, ROOK_ACT_BID, p1, bid, ROOK_NONE) == 0, "bid");
	for (int k = 1; k < 4 && bid < ROOK_MAX_BID; k++)
		CHECK(act(g, ROOK_ACT_PASS, (p1 + k) & 3, 0, ROOK_NONE) == 0, "pass");
	CHECK(act(g, ROOK_ACT_DISCARD, p1, 0, rook_parse("11G")) == 0, "discard");
	CHECK(act(g, ROOK_ACT_TRUMP, p1, ROOK_RED, ROOK_NONE) == 0, "trump");
	for (int t = 0; t < 14; t++)
		for (int j = 0; j < 4; j++) {
			int pos = (leaders[t] + j) & 3;
			int seat = (d + 1 + pos) & 3;
			int err = act(g, ROOK_ACT_PLAY, seat, 0, rook_parse(tricks[t][j]));
			CHECK(err == 0, "trick %d card %s: %s", t, tricks[t][j], rook_err_name(err));
		}
}

int main(void)
{
	rook g;

	/* The standard hand: the bidding team 180, the others 20. */
	rook_init(&g, 0);
	standard_hand(&g, 120);
	CHECK(g.score[1] == 180 && g.score[0] == 20 && g.phase == ROOK_PHASE_DEAL, "standard hand %d %d",
	      g.score[0], g.score[1]);
	CHECK(g.last.tricks[1] == 13 && g.last.cards_team == 1 && g.last.made == 1, "standard hand end");

	/* Both over 500, tied: the bidding team (1) wins. */
	rook_init(&g, 0);
	g.score[0] = 480;
	g.score[1] = 320;
	standard_hand(&g, 100);
	CHECK(g.score[0] == 500 && g.score[1] == 500, "tie scores %d %d", g.score[0], g.score[1]);
	CHECK(g.phase == ROOK_PHASE_OVER && g.winner == 1, "tie: the bidding team wins (winner %d)", g.winner);
	CHECK(rook_deal(&g, (rcard[ROOK_CARDS]){ 0 }) == ROOK_ERR_MATCH_OVER, "deal after the end");
	CHECK(act(&g, ROOK_ACT_PASS, 0, 0, ROOK_NONE) == ROOK_ERR_MATCH_OVER, "action after the end");

	/* Both over 500, not tied: the higher total wins, even against the bidder. */
	rook_init(&g, 0);
	g.score[0] = 490;
	g.score[1] = 320;
	standard_hand(&g, 100);
	CHECK(g.phase == ROOK_PHASE_OVER && g.winner == 0 && g.score[0] == 510 && g.score[1] == 500,
	      "both over: higher wins");

	/* Only the other team over 500: it wins, though the bidder made its bid. */
	rook_init(&g, 0);
	g.score[0] = 495;
	g.score[1] = 0;
	standard_hand(&g, 100);
	CHECK(g.phase == ROOK_PHASE_OVER && g.winner == 0, "the team over 500 wins");

	/* Going set can leave a team under 500 and the match goes on. */
	rook_init(&g, 0);
	g.score[1] = 450;
	standard_hand(&g, 200);
	CHECK(g.phase == ROOK_PHASE_DEAL && g.score[1] == 250 && g.last.made == 0, "set: 200 off");

	/* The last seat may not pass when everyone else passed without a bid. */
	rook_init(&g, 3);
	rcard deck[ROOK_CARDS];
	standard_deck(deck);
	rook_deal(&g, deck);
	CHECK(act(&g, ROOK_ACT_PASS, 0, 0, ROOK_NONE) == 0 && act(&g, ROOK_ACT_PASS, 1, 0, ROOK_NONE) == 0 &&
	      act(&g, ROOK_ACT_PASS, 2, 0, ROOK_NONE) == 0, "three passes");
	CHECK(act(&g, ROOK_ACT_PASS, 3, 0, ROOK_NONE) == ROOK_ERR_LAST_MUST_BID, "last must bid");
	rook_legal l;
	rook_legal_of(&g, 3, &l);
	CHECK(l.acts == 1u << ROOK_ACT_BID && l.bid_min == ROOK_MIN_BID, "last: only a bid");
	CHECK(act(&g, ROOK_ACT_BID, 3, 70, ROOK_NONE) == 0 && g.phase == ROOK_PHASE_DISCARD && g.bidder == 3,
	      "the last bids and wins");

	/* A passed seat is skipped and never bids again. */
	rook_init(&g, 0);
	rook_deal(&g, deck);
	act(&g, ROOK_ACT_BID, 1, 70, ROOK_NONE);
	act(&g, ROOK_ACT_PASS, 2, 0, ROOK_NONE);
	act(&g, ROOK_ACT_BID, 3, 80, ROOK_NONE);
	act(&g, ROOK_ACT_BID, 0, 90, ROOK_NONE);
	CHECK(g.turn == 1, "turn to 1");
	act(&g, ROOK_ACT_BID, 1, 95, ROOK_NONE);
	CHECK(g.turn == 3, "2 passed: skipped (turn %d)", g.turn);
	CHECK(act(&g, ROOK_ACT_BID, 2, 150, ROOK_NONE) == ROOK_ERR_NOT_YOUR_TURN, "passed seat bids");

	/* Nothing but counters in hand: any card may go (and it counts for
	 * the team taking the last trick). Built by hand: d+1 holds every 1,
	 * 5, 10 and 14 but one, and the nest is the Rook. */
	{
		const char *counters[15] = { "1R", "5R", "10R", "14R", "1G", "5G", "10G", "14G",
					     "1Y", "5Y", "10Y", "14Y", "1B", "5B", "10B" };
		rook_init(&g, 0);
		rcard d2[ROOK_CARDS];
		rcardset used = 0;
		for (int k = 0; k < 14; k++) {
			d2[k * 4] = rook_parse(counters[k]);
			used |= rook_bit(d2[k * 4]);
		}
		d2[56] = rook_parse(counters[14]);
		used |= rook_bit(d2[56]);
		int pos = 0;
		for (int i = 0; i < 56; i++)
			if (i % 4) {
				while (used >> pos & 1)
					pos++;
				d2[i] = (rcard)pos;
				used |= rook_bit((rcard)pos);
			}
		rook_deal(&g, d2);
		act(&g, ROOK_ACT_BID, 1, 200, ROOK_NONE);
		rook_legal_of(&g, 1, &l);
		CHECK(l.cards == g.hand[1] && rook_count(l.cards) == 15, "all counters: any discard");
		CHECK(act(&g, ROOK_ACT_DISCARD, 1, 0, rook_parse("5R")) == 0, "counter discarded");
		act(&g, ROOK_ACT_TRUMP, 1, ROOK_BLACK, ROOK_NONE);
		rng r;
		rng_seed(&r, 5);
		for (int i = 0; i < 56 && g.phase == ROOK_PHASE_PLAY; i++) {
			rook_action a;
			CHECK(rook_random_action(&g, g.turn, &r, &a) && rook_apply(&g, &a, NULL) == 0, "play");
		}
		CHECK(g.last.points[0] + g.last.points[1] == 200, "the counter discard is counted: %d",
		      g.last.points[0] + g.last.points[1]);
	}

	/* The simple player beats random players over many hands. */
	{
		rng r;
		rng_seed(&r, 11);
		long pts[2] = { 0, 0 };
		for (int h = 0; h < 400; h++) {
			rook_init(&g, h & 3);
			rcard dk[ROOK_CARDS];
			rook_shuffle(&r, dk);
			rook_deal(&g, dk);
			while (g.phase != ROOK_PHASE_DEAL && g.phase != ROOK_PHASE_OVER) {
				rook_action a;
				int seat = g.turn;
				if (seat & 1) {
					rook_random_action(&g, seat, &r, &a);
				} else {
					rook_view v;
					rook_view_of(&g, seat, &v);
					rook_legal_of(&g, seat, &l);
					CHECK(rook_simple_action(&v, &l, &a), "simple has a move");
				}
				if (rook_apply(&g, &a, NULL)) {
					CHECK(0, "move refused");
					break;
				}
			}
			pts[0] += g.last.points[0];
			pts[1] += g.last.points[1];
		}
		printf("  simple (team 0) vs random (team 1), 400 hands: card points %ld to %ld\n", pts[0], pts[1]);
		CHECK(pts[0] > pts[1] * 3 / 2, "the simple player is not better than random");
	}
	return check_report("test_rook_rules");
}
