/* rook_game.c: Rook's game_def (game.h). */
#include <string.h>
#include "game_adapt.h"
#include "rook.h"
#include "rook_ai.h"
#include "rook_simple.h"

/* ---- Rook ---- */

static int game_rook_init(void *st, int nseats, int dealer, const void *rules)
{
	(void)rules;
	if (nseats != ROOK_SEATS || dealer < 0 || dealer >= ROOK_SEATS)
		return 1;
	rook_init(st, dealer);
	return 0;
}

static void game_action_to_rook(const game_action *a, rook_action *x)
{
	ACTION_TO_HEAD(a, x);
}

static void game_action_from_rook(const rook_action *x, game_action *out)
{
	action_clear(out, x->type, x->seat);
	out->value = x->value;
	if (x->type == ROOK_ACT_DISCARD || x->type == ROOK_ACT_PLAY)
		action_card_set(out, x->card);
}

GAME_ADAPTERS(rook, rook_random_action)

GAME_LEGAL(rook, l.bid_min ? ROOK_MAX_BID : 0)

/* GAME_LEGAL's inverse, for the search player. */
static void legal_back(const game_legal *gl, rook_legal *l)
{
	l->acts = (uint16_t)gl->acts;
	l->bid_min = gl->bid_min;
	l->cards = gl->cards;
}

GAME_AI(rook, legal_back)

static void game_rook_status(const void *st, game_status *out)
{
	const rook *g = st;
	game_status_head(out, g->phase, ROOK_PHASE_DEAL, ROOK_PHASE_OVER, g->turn, g->dealer, ROOK_SEATS, g->winner,
			 g->deal_no, 2);
	out->score[0] = g->score[0];
	out->score[1] = g->score[1];
}

static void game_rook_outcome(const void *st, game_outcome *o)
{
	const rook_hand_end *e = &((const rook *)st)->last;
	game_outcome_head(o, e->scored, e->scored ? "scored" : "none", e->scored ? e->bidder : GAME_NO_SEAT, e->bid,
			  e->scored ? e->made : -1, e->points[0], e->points[1], 2);
	for (int t = 0; t < 2; t++) {
		o->change[t] = e->delta[t];
		o->score[t] = e->score[t];
	}
}

const game_def game_def_rook = GAME_DEF_OF(rook, "rook", 4, 4, ROOK_CARDS, rook, rook_view, game_rook_init, rook_phase_name,
					  rook_code, rook_parse, ROOK_ACT_COUNT, ROOK_EV_COUNT, NULL, NULL);
