/* test_t304_game.c: the common game interface (engine/core/game.h) over 304,
 * Trump304 (2, 3, 4 players) and Rook.
 *
 * Matches are driven only through game_*: the seat in game_status is the
 * one with legal actions; the timer's random move and the simple computer
 * player always have a move and it is accepted; a refused action changes
 * nothing; card codes round-trip; deal ends are reported through
 * game_outcome with points that total the game's points.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "game.h"
#include "g304.h"
#include "t304.h"
#include "rook.h"

static void play(const game_def *def, int nseats, int deals_wanted, int use_bot, rng *r)
{
	int err;
	game *g = game_new(def, nseats, 0, NULL, &err);
	CHECK(g && err == 0, "%s/%d: game_new", def->name, nseats);
	if (!g)
		return;
	int deals = 0, ends = 0, ev_end = game_ev_parse(def, "deal_end");
	if (ev_end < 0)
		ev_end = game_ev_parse(def, "hand_end");
	CHECK(ev_end >= 0, "%s: no end event", def->name);
	long steps = 0;
	while (deals < deals_wanted && steps < 2000000) {
		game_status st;
		game_status_of(g, &st);
		if (st.over) {
			game_free(g);
			g = game_new(def, nseats, deals % nseats, NULL, &err);
			if (!g)
				return;
			continue;
		}
		if (st.needs_deal) {
			uint8_t deck[GAME_MAX_DECK];
			game_shuffle(def, r, deck);
			CHECK(game_deck_ok(def, deck), "%s: shuffled deck not ok", def->name);
			CHECK(game_deal(g, deck) == 0, "%s: deal refused", def->name);
			deals++;
			continue;
		}
		steps++;
		CHECK(st.turn < nseats, "%s: no seat to move in phase %s", def->name, def->phase_name(st.phase));
		for (int s = 0; s < nseats; s++) {
			game_legal l;
			game_legal_of(g, s, &l);
			if (def == &game_def_304) /* spoilt, caps and open may come out of turn */
				l.acts &= ~(1u << G304_ACT_SPOILT | 1u << G304_ACT_CAPS | 1u << G304_ACT_OPEN);
			CHECK((s == st.turn) == (l.acts != 0), "%s: seat %d acts %x, turn %d", def->name, s, l.acts, st.turn);
		}
		/* A wrong seat is refused and changes nothing. */
		game_action a;
		CHECK(game_random_action(g, st.turn, r, &a), "%s: no random action", def->name);
		game *copy = game_copy(g);
		if (copy) {
			game_action w = a;
			w.seat = (uint8_t)((st.turn + 1) % nseats);
			if (def != &game_def_304 || (w.type != G304_ACT_SPOILT && w.type != G304_ACT_CAPS)) {
				game_result res;
				CHECK(game_apply(copy, &w, &res) != 0, "%s: wrong seat accepted", def->name);
				CHECK(!memcmp(copy->state, g->state, def->state_size), "%s: refusal changed the game", def->name);
			}
			game_free(copy);
		}
		if (use_bot)
			CHECK(game_bot_action(g, st.turn, r, &a), "%s: no bot action", def->name);
		game_result res;
		int e = game_apply(g, &a, &res);
		CHECK(e == 0, "%s: %s action %s refused: %s", def->name, use_bot ? "bot" : "random",
		      def->act_name(a.type), def->err_name(e));
		if (e)
			break;
		for (int i = 0; i < res.nevents; i++) {
			if (res.events[i].type != ev_end)
				continue;
			game_outcome o;
			game_outcome_of(g, &o);
			ends++;
			CHECK(o.ended, "%s: no outcome after the end", def->name);
			if (!strcmp(o.outcome, "scored")) {
				int total = def == &game_def_rook ? 200 : 304;
				CHECK(o.points[0] + o.points[1] == total, "%s: points %d + %d", def->name, o.points[0], o.points[1]);
			}
		}
		/* A view of every seat can be taken (sizes agree). */
		void *v = malloc(def->view_size);
		if (v) {
			game_view(g, st.turn, v);
			free(v);
		}
	}
	CHECK(ends > 0, "%s/%d: no deal ended", def->name, nseats);
	game_free(g);
}

int main(void)
{
	rng r;
	rng_seed(&r, 8);
	int deals = getenv("PROPS_MATCHES") ? 100 : 600;
	CHECK(game_find("304") == &game_def_304 && game_find("trump304") == &game_def_trump304 &&
	      game_find("rook") == &game_def_rook && !game_find("bridge") && !game_find(NULL), "game_find");
	for (int bot = 0; bot < 2; bot++) {
		play(&game_def_304, 4, deals / 4, bot, &r);
		for (int n = 2; n <= 4; n++)
			play(&game_def_trump304, n, deals, bot, &r);
		play(&game_def_rook, 4, deals, bot, &r);
	}
	int err;
	CHECK(!game_new(&game_def_rook, 3, 0, NULL, &err) && err == 1, "rook with 3 seats");
	CHECK(!game_new(&game_def_trump304, 5, 0, NULL, &err) && err == 1, "trump304 with 5 seats");
	CHECK(!game_new(&game_def_trump304, 3, 3, NULL, &err) && err == 1, "dealer out of range");
	CHECK(!game_new(&game_def_304, 2, 0, NULL, &err) && err == 1, "304 with 2 seats");
	/* Codes round-trip in every pack. */
	const game_def *defs[] = { &game_def_304, &game_def_trump304, &game_def_rook };
	for (int d = 0; d < 3; d++)
		for (int c = 0; c < defs[d]->deck_size; c++) {
			char code[8];
			defs[d]->card_code((uint8_t)c, code);
			CHECK(defs[d]->card_parse(code) == c, "%s: code %s", defs[d]->name, code);
		}
	CHECK(game_def_rook.card_parse("JS") == GAME_NO_CARD && game_def_trump304.card_parse("14R") == GAME_NO_CARD,
	      "codes of another pack");
	for (int d = 0; d < 3; d++)
		for (int a = 0; a < defs[d]->act_count; a++)
			CHECK(defs[d]->act_parse(defs[d]->act_name(a)) == a, "%s: action %d", defs[d]->name, a);
	uint8_t deck[GAME_MAX_DECK];
	game_shuffle(&game_def_rook, &r, deck);
	deck[3] = deck[4];
	CHECK(!game_deck_ok(&game_def_rook, deck), "duplicate accepted");
	return check_report("test_t304_game");
}
