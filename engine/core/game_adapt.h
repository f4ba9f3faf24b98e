/* game_adapt.h: what every game's game_def file (engine/<game>/<game>_game.c)
 * shares to adapt its typed engine to game.h's common shapes. Private to
 * those files. */
#ifndef CARDBOT_GAME_ADAPT_H
#define CARDBOT_GAME_ADAPT_H

#include <string.h>
#include "game.h"
#include "answer.h"

/* ---- shared helpers ---- */

static inline uint8_t action_card(const game_action *a, int i)
{
	return i < a->ncards && i < GAME_ACTION_CARDS ? a->cards[i] : GAME_NO_CARD;
}

static inline void action_clear(game_action *a, int type, int seat)
{
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)type;
	a->seat = (uint8_t)seat;
	for (int i = 0; i < GAME_ACTION_CARDS; i++)
		a->cards[i] = GAME_NO_CARD;
}

static inline void action_card_set(game_action *a, uint8_t c)
{
	if (c != GAME_NO_CARD) {
		a->cards[0] = c;
		a->ncards = 1;
	}
}

/* What every game's typed action takes from a game_action alike (x: a
 * P_action, which names these fields as game_action does): all cleared,
 * then the type, seat, value and first card. */
#define ACTION_TO_HEAD(a, x) \
	do { \
		memset((x), 0, sizeof *(x)); \
		(x)->type = (a)->type; \
		(x)->seat = (a)->seat; \
		(x)->value = (a)->value; \
		(x)->card = action_card((a), 0); \
	} while (0)

/* A game's answer in the common form (one event type serves both). */
_Static_assert(PLAY_EVENTS_MAX <= GAME_EVENTS_MAX, "a game's events fit a game_result");
static inline void result_copy(game_result *out, const play_result *in)
{
	if (!out)
		return;
	out->err = in->err;
	out->a = in->a;
	out->b = in->b;
	out->nevents = in->nevents;
	memcpy(out->events, in->events, sizeof in->events[0] * (size_t)in->nevents);
}

/* The common head of a game's status: its phase (deal_phase: the phase that
 * waits for a deal; over_phase: the match is over, or -1 for a game whose
 * match never ends), whose turn, the dealer, the seats, the winner (-1:
 * none yet) and the deal's number; the caller adds nsides scores. */
static inline void game_status_head(game_status *out, int phase, int deal_phase, int over_phase, int turn, int dealer,
				    int nseats, int winner, int deal_no, int nsides)
{
	memset(out, 0, sizeof *out);
	out->phase = phase;
	out->turn = turn;
	out->dealer = dealer;
	out->nseats = nseats;
	out->needs_deal = phase == deal_phase;
	out->over = over_phase >= 0 && phase == over_phase;
	out->winner = winner;
	out->nsides = (uint8_t)nsides;
	out->deal_no = deal_no;
}

/* A deal's end in the common form: whether it ended, its outcome word, the
 * bidder, the bid and whether it was made (-1: not played out), each side's
 * card points; the caller adds each side's change and score. */
static inline void game_outcome_head(game_outcome *o, int ended, const char *outcome, int bidder, int bid, int made,
				     int points0, int points1, int nsides)
{
	memset(o, 0, sizeof *o);
	o->ended = ended;
	o->outcome = outcome;
	o->bidder = bidder;
	o->bid = bid;
	o->made = made;
	o->points[0] = points0;
	o->points[1] = points1;
	o->nsides = nsides;
}

/* ---- the adapters every game has alike ----
 *
 * Each game P keeps its own types and functions under one naming scheme:
 * P_action, P_view, P_legal; P_deal, P_apply, P_view_of, P_legal_of and its
 * simple computer player P_simple_action, which decides from the seat's
 * view and legal moves alone. Its P_game.c converts P's actions with
 * game_action_to_P and game_action_from_P. GAME_ADAPTERS(P, timer) writes
 * the adapters that differ between games only in those names: deal, apply,
 * view, random_action (timer: the game's random move for a seat, typed) and
 * bot_action.
 */
#define GAME_ADAPTERS(P, timer) \
	static int game_##P##_deal(void *st, const uint8_t *deck) { return P##_deal(st, deck); } \
	static int game_##P##_apply(void *st, const game_action *a, game_result *res) \
	{ \
		P##_action x; \
		play_result r; \
		game_action_to_##P(a, &x); \
		int err = P##_apply(st, &x, &r); \
		result_copy(res, &r); \
		return err; \
	} \
	static void game_##P##_view(const void *st, int seat, void *out) { P##_view_of(st, seat, out); } \
	static int game_##P##_random(const void *st, int seat, rng *r, game_action *out) \
	{ \
		P##_action x; \
		if (!timer(st, seat, r, &x)) \
			return 0; \
		game_action_from_##P(&x, out); \
		return 1; \
	} \
	static int game_##P##_bot(const void *st, int seat, rng *r, game_action *out) \
	{ \
		P##_view v; \
		P##_legal l; \
		P##_action x; \
		(void)r; \
		P##_view_of(st, seat, &v); \
		P##_legal_of(st, seat, &l); \
		if (!P##_simple_action(&v, &l, &x)) \
			return 0; \
		game_action_from_##P(&x, out); \
		return 1; \
	}

/* game_P_legal for a game whose P_legal has acts, bid_min and cards as
 * game_legal has them; bid_max_of_l: the highest bid, from l. */
#define GAME_LEGAL(P, bid_max_of_l) \
	static void game_##P##_legal(const void *st, int seat, game_legal *out) \
	{ \
		P##_legal l; \
		P##_legal_of(st, seat, &l); \
		memset(out, 0, sizeof *out); \
		out->acts = l.acts; \
		out->bid_min = l.bid_min; \
		out->bid_max = (bid_max_of_l); \
		out->cards = l.cards; \
	}

/* The search player of a game whose P_ai_action takes the common
 * parameters: legal_back turns the common legal moves into P_legal. */
#define GAME_AI(P, legal_back) \
	static int game_##P##_ai(const void *view, const game_legal *gl, const game_ai_params *p, game_ai_stats *st, \
				 game_action *out) \
	{ \
		P##_legal l; \
		P##_action x; \
		memset(&l, 0, sizeof l); \
		legal_back(gl, &l); \
		if (!P##_ai_action(view, &l, p, st, &x)) \
			return 0; \
		game_action_from_##P(&x, out); \
		return 1; \
	}

/* A game_def over GAME_ADAPTERS(P)'s functions and the game's own
 * game_P_legal, _status, _outcome and _ai: what differs between games is
 * in the arguments. */
#define GAME_DEF_OF(P, NAME, MIN_SEATS, MAX_SEATS, CARDS, STATE, VIEW, INIT, PHASE_NAME, CODE, PARSE, NACTS, NEVS, \
		    OPTIONS, FAMILY) { \
	NAME, MIN_SEATS, MAX_SEATS, CARDS, sizeof(STATE), sizeof(VIEW), \
	INIT, game_##P##_deal, game_##P##_apply, game_##P##_legal, game_##P##_view, \
	game_##P##_status, game_##P##_outcome, game_##P##_random, game_##P##_bot, \
	PHASE_NAME, P##_act_name, P##_act_parse, P##_err_name, P##_ev_name, \
	CODE, PARSE, NACTS, NEVS, game_##P##_ai, OPTIONS, FAMILY, \
}

#endif
