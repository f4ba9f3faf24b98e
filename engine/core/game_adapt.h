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
