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
	memset(x, 0, sizeof *x);
	x->type = a->type;
	x->seat = a->seat;
	x->value = a->value;
	x->card = action_card(a, 0);
}

static void game_action_from_rook(const rook_action *x, game_action *out)
{
	action_clear(out, x->type, x->seat);
	out->value = x->value;
	if (x->type == ROOK_ACT_DISCARD || x->type == ROOK_ACT_PLAY)
		action_card_set(out, x->card);
}

GAME_ADAPTERS(rook, rook_random_action)

static void game_rook_legal(const void *st, int seat, game_legal *out)
{
	rook_legal l;
	rook_legal_of(st, seat, &l);
	memset(out, 0, sizeof *out);
	out->acts = l.acts;
	out->bid_min = l.bid_min;
	out->bid_max = l.bid_min ? ROOK_MAX_BID : 0;
	out->cards = l.cards;
}

static void game_rook_status(const void *st, game_status *out)
{
	const rook *g = st;
	memset(out, 0, sizeof *out);
	out->phase = g->phase;
	out->turn = g->turn;
	out->dealer = g->dealer;
	out->nseats = ROOK_SEATS;
	out->needs_deal = g->phase == ROOK_PHASE_DEAL;
	out->over = g->phase == ROOK_PHASE_OVER;
	out->winner = g->winner;
	out->nsides = 2;
	out->deal_no = g->deal_no;
	out->score[0] = g->score[0];
	out->score[1] = g->score[1];
}

static void game_rook_outcome(const void *st, game_outcome *o)
{
	const rook_hand_end *e = &((const rook *)st)->last;
	memset(o, 0, sizeof *o);
	o->ended = e->scored;
	o->outcome = e->scored ? "scored" : "none";
	o->bidder = e->scored ? e->bidder : GAME_NO_SEAT;
	o->bid = e->bid;
	o->made = e->scored ? e->made : -1;
	o->points[0] = e->points[0];
	o->points[1] = e->points[1];
	o->nsides = 2;
	for (int t = 0; t < 2; t++) {
		o->change[t] = e->delta[t];
		o->score[t] = e->score[t];
	}
}

static int game_rook_ai(const void *view, const game_legal *gl, const game_ai_params *p, game_ai_stats *st,
			game_action *out)
{
	rook_legal l;
	memset(&l, 0, sizeof l);
	l.acts = (uint16_t)gl->acts;
	l.bid_min = gl->bid_min;
	l.cards = gl->cards;
	rook_action x;
	if (!rook_ai_action(view, &l, p, st, &x))
		return 0;
	game_action_from_rook(&x, out);
	return 1;
}

const game_def game_def_rook = GAME_DEF_OF(rook, "rook", 4, 4, ROOK_CARDS, rook, rook_view, game_rook_init, rook_phase_name,
					  rook_code, rook_parse, ROOK_ACT_COUNT, ROOK_EV_COUNT, NULL, NULL);
