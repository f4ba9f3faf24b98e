/* game.c: the common game interface over 304, Trump304 and Rook. */
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "names.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "t304.h"
#include "t304_simple.h"
#include "rook.h"
#include "rook_simple.h"

/* ---- shared helpers ---- */

static uint8_t action_card(const game_action *a, int i)
{
	return i < a->ncards && i < GAME_ACTION_CARDS ? a->cards[i] : GAME_NO_CARD;
}

static void action_clear(game_action *a, int type, int seat)
{
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)type;
	a->seat = (uint8_t)seat;
	for (int i = 0; i < GAME_ACTION_CARDS; i++)
		a->cards[i] = GAME_NO_CARD;
}

static void action_card_set(game_action *a, uint8_t c)
{
	if (c != GAME_NO_CARD) {
		a->cards[0] = c;
		a->ncards = 1;
	}
}

/* A game's answer in the common form (one event type serves both). */
_Static_assert(PLAY_EVENTS_MAX <= GAME_EVENTS_MAX, "a game's events fit a game_result");
static void result_copy(game_result *out, const play_result *in)
{
	if (!out)
		return;
	out->err = in->err;
	out->a = in->a;
	out->b = in->b;
	out->nevents = in->nevents;
	memcpy(out->events, in->events, sizeof in->events[0] * (size_t)in->nevents);
}

/* ---- 304 ---- */

static int w304_init(void *st, int nseats, int dealer, const void *rules)
{
	g304_rules def;
	if (nseats != G304_SEATS || dealer < 0 || dealer >= G304_SEATS)
		return 1;
	if (!rules) {
		g304_rules_default(&def);
		rules = &def;
	}
	g304_init(st, rules, dealer);
	return 0;
}

static int w304_deal(void *st, const uint8_t *deck) { return g304_deal(st, deck); }

void game_action_to_g304(const game_action *a, struct g304_action *x)
{
	memset(x, 0, sizeof *x);
	x->type = a->type;
	x->seat = a->seat;
	x->value = a->value;
	x->card = action_card(a, 0);
	for (int i = 0; i < G304_TRICKS; i++)
		x->order[i] = CARD_NONE;
	if (a->type == G304_ACT_CAPS) {
		x->norder = a->ncards <= G304_TRICKS ? a->ncards : G304_TRICKS;
		memcpy(x->order, a->cards, x->norder);
	}
}

void game_action_from_g304(const struct g304_action *x, game_action *out)
{
	action_clear(out, x->type, x->seat);
	out->value = x->value;
	action_card_set(out, x->card);
	if (x->type == G304_ACT_CAPS) {
		out->ncards = x->norder <= GAME_ACTION_CARDS ? x->norder : GAME_ACTION_CARDS;
		memcpy(out->cards, x->order, out->ncards);
	}
}

static int w304_apply(void *st, const game_action *a, game_result *res)
{
	g304_action x;
	g304_result r;
	game_action_to_g304(a, &x);
	int err = g304_apply(st, &x, &r);
	result_copy(res, &r);
	return err;
}

static void w304_legal(const void *st, int seat, game_legal *out)
{
	g304_legal l;
	g304_legal_of(st, seat, &l);
	memset(out, 0, sizeof *out);
	out->acts = l.acts;
	out->bid_min = l.bid_min ? l.bid_min : (l.pcc_ok ? G304_BID_PCC : 0);
	out->bid_max = l.pcc_ok ? G304_BID_PCC : l.bid_min ? G304_MAX_BID : 0;
	out->cards = l.cards;
}

static void w304_view(const void *st, int seat, void *out) { g304_view_of(st, seat, out); }

static void w304_status(const void *st, game_status *out)
{
	const g304 *g = st;
	memset(out, 0, sizeof *out);
	out->phase = g->phase;
	out->turn = g->turn;
	out->dealer = g->dealer;
	out->nseats = G304_SEATS;
	out->needs_deal = g->phase == G304_PHASE_DEAL;
	out->over = g->phase == G304_PHASE_OVER;
	out->winner = g->winner;
	out->nsides = 2;
	out->deal_no = g->deal_no;
	out->score[0] = g->tokens[0];
	out->score[1] = g->tokens[1];
}

static void w304_outcome(const void *st, game_outcome *o)
{
	const g304 *g = st;
	const g304_deal_end *e = &g->last;
	int bank = g->rules.scoring == G304_SCORING_BANK;
	memset(o, 0, sizeof *o);
	o->ended = e->outcome != G304_OUTCOME_NONE;
	o->outcome = g304_outcome_name(e->outcome);
	o->bidder = e->trumper;
	o->bid = e->bid;
	o->made = e->made;
	o->points[0] = e->points[0];
	o->points[1] = e->points[1];
	o->nsides = 2;
	for (int t = 0; t < 2; t++) {
		o->change[t] = (bank ? 0 : e->paid[!t]) - e->paid[t];
		o->score[t] = e->tokens[t];
	}
}

static int w304_random(const void *st, int seat, rng *r, game_action *out)
{
	const g304 *g = st;
	g304_action x;
	if (seat != g->turn || !g304_random_action(g, r, 0, &x) || x.seat != seat)
		return 0;
	game_action_from_g304(&x, out);
	return 1;
}

static int w304_bot(const void *st, int seat, rng *r, game_action *out)
{
	(void)r;
	g304_view v;
	g304_legal l;
	g304_action x;
	g304_view_of(st, seat, &v);
	g304_legal_of(st, seat, &l);
	if (!g304_simple_action(&v, &l, &x))
		return 0;
	game_action_from_g304(&x, out);
	return 1;
}

static void w304_code(uint8_t c, char out[8]) { card_code(c, out); }
static uint8_t w304_parse(const char *s) { return card_parse(s); }

const game_def game_def_304 = {
	"304", 4, 4, CARD_COUNT, sizeof(g304), sizeof(g304_view),
	w304_init, w304_deal, w304_apply, w304_legal, w304_view, w304_status, w304_outcome,
	w304_random, w304_bot,
	g304_phase_name, g304_act_name, g304_act_parse, g304_err_name, g304_ev_name,
	w304_code, w304_parse, G304_ACT_COUNT, G304_EV_COUNT,
};

/* ---- Trump304 ---- */

static int wt_init(void *st, int nseats, int dealer, const void *rules)
{
	(void)rules;
	return t304_init(st, nseats, dealer) == T304_ERR_OK ? 0 : 1;
}

static int wt_deal(void *st, const uint8_t *deck) { return t304_deal(st, deck); }

static int wt_apply(void *st, const game_action *a, game_result *res)
{
	t304_action x;
	t304_result r;
	memset(&x, 0, sizeof x);
	x.type = a->type;
	x.seat = a->seat;
	x.value = a->value;
	x.card = action_card(a, 0);
	x.put[0] = x.put[1] = CARD_NONE;
	if (a->type == T304_ACT_EXCHANGE && a->ncards == 2) {
		x.put[0] = a->cards[0];
		x.put[1] = a->cards[1];
	}
	int err = t304_apply(st, &x, &r);
	result_copy(res, &r);
	return err;
}

static void wt_legal(const void *st, int seat, game_legal *out)
{
	t304_legal l;
	t304_legal_of(st, seat, &l);
	memset(out, 0, sizeof *out);
	out->acts = l.acts;
	out->bid_min = l.bid_min;
	out->bid_max = l.bid_max;
	out->cards = l.cards;
}

static void wt_view(const void *st, int seat, void *out) { t304_view_of(st, seat, out); }

static void wt_status(const void *st, game_status *out)
{
	const t304 *g = st;
	memset(out, 0, sizeof *out);
	out->phase = g->phase;
	out->turn = g->turn;
	out->dealer = g->dealer;
	out->nseats = g->nseats;
	out->needs_deal = g->phase == T304_PHASE_DEAL;
	out->winner = -1;
	out->nsides = (uint8_t)t304_nsides(g);
	out->deal_no = g->deal_no;
	for (int s = 0; s < out->nsides; s++)
		out->score[s] = g->tokens[s];
}

static void wt_outcome(const void *st, game_outcome *o)
{
	const t304_deal_end *e = &((const t304 *)st)->last;
	memset(o, 0, sizeof *o);
	o->ended = e->outcome != T304_OUTCOME_NONE;
	o->outcome = t304_outcome_name(e->outcome);
	o->bidder = e->trumper;
	o->bid = e->bid;
	o->made = e->made;
	o->points[0] = e->points[0];
	o->points[1] = e->points[1];
	o->nsides = e->nsides;
	for (int s = 0; s < e->nsides && s < GAME_MAX_SIDES; s++) {
		o->change[s] = e->change[s];
		o->score[s] = e->tokens[s];
	}
}

static void wt_from(game_action *out, const t304_action *x)
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

static int wt_random(const void *st, int seat, rng *r, game_action *out)
{
	t304_action x;
	if (!t304_random_action(st, seat, r, &x))
		return 0;
	wt_from(out, &x);
	return 1;
}

static int wt_bot(const void *st, int seat, rng *r, game_action *out)
{
	(void)r;
	t304_view v;
	t304_legal l;
	t304_action x;
	t304_view_of(st, seat, &v);
	t304_legal_of(st, seat, &l);
	if (!t304_simple_action(&v, &l, &x))
		return 0;
	wt_from(out, &x);
	return 1;
}

const game_def game_def_trump304 = {
	"trump304", 2, 4, CARD_COUNT, sizeof(t304), sizeof(t304_view),
	wt_init, wt_deal, wt_apply, wt_legal, wt_view, wt_status, wt_outcome,
	wt_random, wt_bot,
	t304_phase_name, t304_act_name, t304_act_parse, t304_err_name, t304_ev_name,
	w304_code, w304_parse, T304_ACT_COUNT, T304_EV_COUNT,
};

/* ---- Rook ---- */

static int wr_init(void *st, int nseats, int dealer, const void *rules)
{
	(void)rules;
	if (nseats != ROOK_SEATS || dealer < 0 || dealer >= ROOK_SEATS)
		return 1;
	rook_init(st, dealer);
	return 0;
}

static int wr_deal(void *st, const uint8_t *deck) { return rook_deal(st, deck); }

static int wr_apply(void *st, const game_action *a, game_result *res)
{
	rook_action x;
	rook_result r;
	memset(&x, 0, sizeof x);
	x.type = a->type;
	x.seat = a->seat;
	x.value = a->value;
	x.card = action_card(a, 0);
	int err = rook_apply(st, &x, &r);
	result_copy(res, &r);
	return err;
}

static void wr_legal(const void *st, int seat, game_legal *out)
{
	rook_legal l;
	rook_legal_of(st, seat, &l);
	memset(out, 0, sizeof *out);
	out->acts = l.acts;
	out->bid_min = l.bid_min;
	out->bid_max = l.bid_min ? ROOK_MAX_BID : 0;
	out->cards = l.cards;
}

static void wr_view(const void *st, int seat, void *out) { rook_view_of(st, seat, out); }

static void wr_status(const void *st, game_status *out)
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

static void wr_outcome(const void *st, game_outcome *o)
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

static void wr_from(game_action *out, const rook_action *x)
{
	action_clear(out, x->type, x->seat);
	out->value = x->value;
	if (x->type == ROOK_ACT_DISCARD || x->type == ROOK_ACT_PLAY)
		action_card_set(out, x->card);
}

static int wr_random(const void *st, int seat, rng *r, game_action *out)
{
	rook_action x;
	if (!rook_random_action(st, seat, r, &x))
		return 0;
	wr_from(out, &x);
	return 1;
}

static int wr_bot(const void *st, int seat, rng *r, game_action *out)
{
	(void)r;
	rook_view v;
	rook_legal l;
	rook_action x;
	rook_view_of(st, seat, &v);
	rook_legal_of(st, seat, &l);
	if (!rook_simple_action(&v, &l, &x))
		return 0;
	wr_from(out, &x);
	return 1;
}

static void wr_code(uint8_t c, char out[8]) { rook_code(c, out); }
static uint8_t wr_parse(const char *s) { return rook_parse(s); }

const game_def game_def_rook = {
	"rook", 4, 4, ROOK_CARDS, sizeof(rook), sizeof(rook_view),
	wr_init, wr_deal, wr_apply, wr_legal, wr_view, wr_status, wr_outcome,
	wr_random, wr_bot,
	rook_phase_name, rook_act_name, rook_act_parse, rook_err_name, rook_ev_name,
	wr_code, wr_parse, ROOK_ACT_COUNT, ROOK_EV_COUNT,
};

/* ---- the interface ---- */

const game_def *game_find(const char *name)
{
	static const game_def *const all[] = { &game_def_304, &game_def_trump304, &game_def_rook };
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!strcmp(name, all[i]->name))
			return all[i];
	return NULL;
}

game *game_new(const game_def *def, int nseats, int first_dealer, const void *rules, int *err)
{
	int e = 0;
	game *g = NULL;
	if (nseats < def->min_seats || nseats > def->max_seats || first_dealer < 0 ||
	    first_dealer >= nseats) {
		e = 1;
	} else if (!(g = malloc(sizeof *g)) || !(g->state = calloc(1, def->state_size))) {
		free(g);
		g = NULL;
		e = 2;
	} else {
		g->def = def;
		if (def->init(g->state, nseats, first_dealer, rules)) {
			game_free(g);
			g = NULL;
			e = 1;
		}
	}
	if (err)
		*err = e;
	return g;
}

void game_free(game *g)
{
	if (!g)
		return;
	free(g->state);
	free(g);
}

game *game_copy(const game *g)
{
	game *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	c->def = g->def;
	c->state = malloc(g->def->state_size);
	if (!c->state) {
		free(c);
		return NULL;
	}
	memcpy(c->state, g->state, g->def->state_size);
	return c;
}

void game_shuffle(const game_def *def, rng *r, uint8_t *deck) { rng_shuffle(r, deck, def->deck_size); }

int game_deck_ok(const game_def *def, const uint8_t *deck)
{
	game_cards seen = 0;
	for (int i = 0; i < def->deck_size; i++) {
		if (deck[i] >= def->deck_size || (seen >> deck[i] & 1))
			return 0;
		seen |= (game_cards)1 << deck[i];
	}
	return 1;
}

int game_ev_parse(const game_def *def, const char *name)
{
	return names_find(def->ev_name, def->ev_count, name);
}
