/* test_t304_rules.c: Trump304's token table and bid steps, the timer's move
 * (always a legal card in play, never a reveal; a pass, or the lowest bid
 * when a pass is not allowed), and the simple computer player: always a
 * legal move, and clearly better than random play, for 2, 3 and 4 players.
 */
#include <string.h>
#include "check.h"
#include "t304.h"
#include "t304_simple.h"

int main(void)
{
	/* 002's token table. */
	CHECK(t304_payoff(150) == 5 && t304_payoff(190) == 5 && t304_payoff(200) == 6 &&
	      t304_payoff(300) == 6 && t304_payoff(304) == 10, "payoffs");
	CHECK(t304_charge(150) == 3 && t304_charge(190) == 3 && t304_charge(200) == 5 &&
	      t304_charge(300) == 5 && t304_charge(304) == 7, "charges");
	CHECK(t304_bid_ok(150) && t304_bid_ok(300) && t304_bid_ok(304) && !t304_bid_ok(140) &&
	      !t304_bid_ok(155) && !t304_bid_ok(301) && !t304_bid_ok(310) && !t304_bid_ok(0), "bid steps");

	rng r;
	rng_seed(&r, 2);
	for (int n = 2; n <= 4; n++) {
		long pts[2] = { 0, 0 }, timer_moves = 0;
		/* Seats where the simple player sits: even seats. */
		for (int d = 0; d < 600; d++) {
			t304 g;
			t304_init(&g, n, d % n);
			card deck[CARD_COUNT];
			rng_shuffle_deck(&r, deck);
			t304_deal(&g, deck);
			for (int step = 0; step < 200 && g.phase != T304_PHASE_DEAL; step++) {
				int seat = g.turn;
				t304_action a;
				t304_legal l;
				t304_legal_of(&g, seat, &l);
				/* The timer's move for this seat. */
				CHECK(t304_random_action(&g, seat, &r, &a), "no timer move");
				CHECK(a.type != T304_ACT_REVEAL && a.type != T304_ACT_EXCHANGE, "timer move %s",
				      t304_act_name(a.type));
				if (g.phase == T304_PHASE_PLAY)
					CHECK(a.type == T304_ACT_PLAY && (l.cards >> a.card & 1), "timer card not legal");
				if (g.phase == T304_PHASE_BID)
					CHECK(l.can_pass ? a.type == T304_ACT_PASS : a.value == l.bid_min, "timer bid");
				timer_moves++;
				if (seat % 2 == 0) {
					t304_view v;
					t304_view_of(&g, seat, &v);
					CHECK(t304_simple_action(&v, &l, &a), "simple: no move");
				}
				int err = t304_apply(&g, &a, NULL);
				CHECK(err == 0, "%d players: %s refused: %s", n, t304_act_name(a.type), t304_err_name(err));
				if (err)
					break;
			}
			CHECK(g.phase == T304_PHASE_DEAL, "deal did not end");
			if (g.last.outcome != T304_OUTCOME_SCORED || n == 3)
				continue;
			/* Points per seat parity (teams with 4; seats with 2). */
			int tside = g.last.trumper % 2;
			pts[tside] += g.last.points[0];
			pts[!tside] += g.last.points[1];
		}
		if (n != 3) {
			printf("  %d players: simple (even seats) %ld card points, random %ld\n", n, pts[0], pts[1]);
			CHECK(pts[0] > pts[1] * 6 / 5, "%d players: the simple player is no better than random", n);
		}
		CHECK(timer_moves > 0, "timer");
	}
	return check_report("test_t304_rules");
}
