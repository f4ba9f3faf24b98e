/* t304_game.c: Trump304's game_def (game.h). */
#include <string.h>
#include "game_adapt.h"
#include "t304.h"
#include "t304_ai.h"
#include "t304_simple.h"

/* ---- Trump304 ---- */

static int game_t304_init(void *st, int nseats, int dealer, const void *rules)
{
	(void)rules;
	return t304_init(st, nseats, dealer) == T304_ERR_OK ? 0 : 1;
}

static void game_action_to_t304(const game_action *a, t304_action *x)
{
	ACTION_TO_HEAD(a, x);
	x->put[0] = x->put[1] = CARD_NONE;
	if (a->type == T304_ACT_EXCHANGE && a->ncards == 2) {
		x->put[0] = a->cards[0];
		x->put[1] = a->cards[1];
	}
}

static void game_action_from_t304(const t304_action *x, game_action *out)
{
	action_clear(out, x->type, x->seat);
	out->value = x->value;
	if (x->type == T304_ACT_EXCHANGE) {
		out->cards[0] = x->put[0];
		out->cards[1] = x->put[1];
		out->ncards = 2;
	} else {
		action_card_set(out, x->card);
	}
}

GAME_ADAPTERS(t304, t304_random_action)

GAME_LEGAL(t304, l.bid_max)

/* GAME_LEGAL's inverse, for the search player. */
static void legal_back(const game_legal *gl, t304_legal *l)
{
	l->acts = (uint16_t)gl->acts;
	l->bid_min = gl->bid_min;
	l->bid_max = gl->bid_max;
	l->can_pass = gl->acts >> T304_ACT_PASS & 1;
	l->cards = gl->cards;
}

GAME_AI(t304, legal_back)

/* A match of Trump304 runs until the table stops it: it is never over. */
static void game_t304_status(const void *st, game_status *out)
{
	const t304 *g = st;
	game_status_head(out, g->phase, T304_PHASE_DEAL, -1, g->turn, g->dealer, g->nseats, -1, g->deal_no,
			 t304_nsides(g));
	for (int s = 0; s < out->nsides; s++)
		out->score[s] = g->tokens[s];
}

static void game_t304_outcome(const void *st, game_outcome *o)
{
	const t304_deal_end *e = &((const t304 *)st)->last;
	game_outcome_head(o, e->outcome != T304_OUTCOME_NONE, t304_outcome_name(e->outcome), e->trumper, e->bid, e->made,
			  e->points[0], e->points[1], e->nsides);
	for (int s = 0; s < e->nsides && s < GAME_MAX_SIDES; s++) {
		o->change[s] = e->change[s];
		o->score[s] = e->tokens[s];
	}
}

const game_def game_def_trump304 = GAME_DEF_OF(t304, "trump304", 2, 4, CARD_COUNT, t304, t304_view, game_t304_init,
					      t304_phase_name, card_code, card_parse, T304_ACT_COUNT, T304_EV_COUNT, NULL, NULL);
