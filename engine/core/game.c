/* game.c: the common game interface over 304, Trump304 and Rook. */
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "names.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_options.h"
#include "t304.h"
#include "t304_ai.h"
#include "g304_ai_wide.h"
#include "t304_simple.h"
#include "rook.h"
#include "rook_ai.h"
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

/* ---- the adapters every game has alike ----
 *
 * Each game P keeps its own types and functions under one naming scheme:
 * P_action, P_view, P_legal; P_deal, P_apply, P_view_of, P_legal_of and its
 * simple computer player P_simple_action, which decides from the seat's
 * view and legal moves alone. game.c converts P's actions with
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

/* ---- 304 ---- */

/* A match of 304 at the table size the game's record name says. */
static int init_304(void *st, int nseats, int dealer, const void *rules, int size)
{
	g304_rules def;
	if (nseats != g304_variants[size].seats || dealer < 0 || dealer >= nseats)
		return 1;
	if (rules)
		def = *(const g304_rules *)rules;
	else
		g304_rules_default(&def);
	def.size = (uint8_t)size;
	g304_init(st, &def, dealer);
	return 0;
}

/* game_def.init of one table size. */
#define INIT_304(FN, SIZE) \
	static int FN(void *st, int nseats, int dealer, const void *rules) \
	{ \
		return init_304(st, nseats, dealer, rules, SIZE); \
	}
INIT_304(game_g304_init, G304_SIZE_FOUR)
INIT_304(game_g304six_init, G304_SIZE_SIX)
INIT_304(game_g304eight_init, G304_SIZE_EIGHT)
INIT_304(game_g304six24_init, G304_SIZE_SIX24)
INIT_304(game_g504_init, G304_SIZE_504)
INIT_304(game_g904_init, G304_SIZE_904)

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

/* 304's timer moves with its random player, for the seat to move only, and
 * never calls spoilt. */
static int game_g304_timer(const g304 *g, int seat, rng *r, g304_action *x)
{
	return seat == g->turn && g304_random_action(g, r, 0, x) && x->seat == seat;
}

GAME_ADAPTERS(g304, game_g304_timer)

/* ---- 304 at every table size: what its sizes share in the common shapes ---- */

/* Legal moves: pcc shows as bid_max, and as bid_min when it is the only bid. */
static void legal_304(uint16_t acts, uint16_t bid_min, int bid_max, int pcc_ok, game_cards cards, game_legal *out)
{
	memset(out, 0, sizeof *out);
	out->acts = acts;
	out->bid_min = bid_min ? bid_min : (pcc_ok ? G304_BID_PCC : 0);
	out->bid_max = pcc_ok ? G304_BID_PCC : bid_min ? bid_max : 0;
	out->cards = cards;
}

/* legal_304's inverse, for the search players. */
static void legal_304_back(const game_legal *gl, uint16_t *acts, uint16_t *bid_min, uint8_t *pcc_ok)
{
	*acts = (uint16_t)gl->acts;
	*pcc_ok = gl->bid_max == G304_BID_PCC;
	*bid_min = gl->bid_min >= G304_BID_PCC ? 0 : (uint16_t)gl->bid_min;
}

static void status_304(int phase, int turn, int dealer, int nseats, int winner, int deal_no, const int8_t tokens[2],
		       game_status *out)
{
	memset(out, 0, sizeof *out);
	out->phase = phase;
	out->turn = turn;
	out->dealer = dealer;
	out->nseats = nseats;
	out->needs_deal = phase == G304_PHASE_DEAL;
	out->over = phase == G304_PHASE_OVER;
	out->winner = winner;
	out->nsides = 2;
	out->deal_no = deal_no;
	out->score[0] = tokens[0];
	out->score[1] = tokens[1];
}

static void outcome_304(const g304_deal_end *e, int bank, game_outcome *o)
{
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

static void game_g304_legal(const void *st, int seat, game_legal *out)
{
	g304_legal l;
	g304_legal_of(st, seat, &l);
	legal_304(l.acts, l.bid_min, g304_variant_of(&((const g304 *)st)->rules)->bid_max, l.pcc_ok, l.cards, out);
}

static void game_g304_status(const void *st, game_status *out)
{
	const g304 *g = st;
	status_304(g->phase, g->turn, g->dealer, g->seats, g->winner, g->deal_no, g->tokens, out);
}

static void game_g304_outcome(const void *st, game_outcome *o)
{
	const g304 *g = st;
	outcome_304(&g->last, g->rules.scoring == G304_SCORING_BANK, o);
}

/* The search player, from the common legal moves (game_g304_legal's
 * inverse: pcc shows as bid_max, and as bid_min when it is the only bid). */
static int game_g304_ai(const void *view, const game_legal *gl, const game_ai_params *p, game_ai_stats *st,
			game_action *out)
{
	g304_legal l;
	memset(&l, 0, sizeof l);
	legal_304_back(gl, &l.acts, &l.bid_min, &l.pcc_ok);
	l.cards = gl->cards;
	if (((const g304_view *)view)->size != G304_SIZE_FOUR) {
		/* Every size but four: the general search (docs/AI.md). */
		g304_action y;
		if (!g304_ai_wide_action(view, &l, p, st, &y))
			return 0;
		game_action_from_g304(&y, out);
		return 1;
	}
	g304_ai_params q;
	g304_ai_params_default(&q, p->level, p->seed);
	q.samples = p->samples;
	q.stop = p->stop;
	q.stop_ctx = p->stop_ctx;
	g304_ai_stats s = { 0 };
	g304_action x;
	int ok = g304_ai_action(view, &l, &q, &s, &x);
	if (st) {
		st->samples += s.samples;
		st->playouts += s.playouts;
		st->solves += s.solves;
		st->nodes += s.nodes;
	}
	if (ok)
		game_action_from_g304(&x, out);
	return ok;
}

/* 304 at one table size: what differs is its name, seats, pack and words;
 * FAMILY: the word "!new WORD SEATS" reaches it by (NULL: its name only). */
#define GAME_DEF_304(NAME, SEATS, CARDS, INIT, PHASE_NAME, CODE, PARSE, FAMILY) { \
	NAME, SEATS, SEATS, CARDS, sizeof(g304), sizeof(g304_view), \
	INIT, game_g304_deal, game_g304_apply, game_g304_legal, game_g304_view, \
	game_g304_status, game_g304_outcome, game_g304_random, game_g304_bot, \
	PHASE_NAME, g304_act_name, g304_act_parse, g304_err_name, g304_ev_name, \
	CODE, PARSE, G304_ACT_COUNT, G304_EV_COUNT, game_g304_ai, g304_options, FAMILY, \
}

const game_def game_def_304 =
	GAME_DEF_304("304", 4, CARD_COUNT, game_g304_init, g304_phase_name, card_code, card_parse, "304");

/* ---- six-player 304: the same engine at G304_SIZE_SIX ---- */

const game_def game_def_304six =
	GAME_DEF_304("304six", 6, 36, game_g304six_init, g304six_phase_name, g304_36_code, g304_36_parse, "304");

/* ---- eight-player 304: the same engine at G304_SIZE_EIGHT (four-player
 * 304's pack and words) ---- */

const game_def game_def_304eight =
	GAME_DEF_304("304eight", 8, CARD_COUNT, game_g304eight_init, g304_phase_name, card_code, card_parse, "304");

/* ---- six-player 304 with 24 cards: the same engine at G304_SIZE_SIX24 ---- */

const game_def game_def_304six24 =
	GAME_DEF_304("304six24", 6, 24, game_g304six24_init, g304_phase_name, g304_24_code, g304_24_parse, "304");

/* ---- Tamil Nadu's 504 (six players) and 904 (eight): the same engine at
 * G304_SIZE_504 and G304_SIZE_904, games of their own names ---- */

const game_def game_def_504 =
	GAME_DEF_304("504", 6, 36, game_g504_init, g304six_phase_name, g304_504_code, g304_504_parse, NULL);
const game_def game_def_904 =
	GAME_DEF_304("904", 8, 40, game_g904_init, g304five_phase_name, g304_904_code, g304_904_parse, NULL);

/* ---- Trump304 ---- */

static int game_t304_init(void *st, int nseats, int dealer, const void *rules)
{
	(void)rules;
	return t304_init(st, nseats, dealer) == T304_ERR_OK ? 0 : 1;
}

static void game_action_to_t304(const game_action *a, t304_action *x)
{
	memset(x, 0, sizeof *x);
	x->type = a->type;
	x->seat = a->seat;
	x->value = a->value;
	x->card = action_card(a, 0);
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

static void game_t304_legal(const void *st, int seat, game_legal *out)
{
	t304_legal l;
	t304_legal_of(st, seat, &l);
	memset(out, 0, sizeof *out);
	out->acts = l.acts;
	out->bid_min = l.bid_min;
	out->bid_max = l.bid_max;
	out->cards = l.cards;
}

static void game_t304_status(const void *st, game_status *out)
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

static void game_t304_outcome(const void *st, game_outcome *o)
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

static int game_t304_ai(const void *view, const game_legal *gl, const game_ai_params *p, game_ai_stats *st,
			game_action *out)
{
	t304_legal l;
	memset(&l, 0, sizeof l);
	l.acts = (uint16_t)gl->acts;
	l.bid_min = gl->bid_min;
	l.bid_max = gl->bid_max;
	l.can_pass = gl->acts >> T304_ACT_PASS & 1;
	l.cards = gl->cards;
	t304_action x;
	if (!t304_ai_action(view, &l, p, st, &x))
		return 0;
	game_action_from_t304(&x, out);
	return 1;
}

const game_def game_def_trump304 = {
	"trump304", 2, 4, CARD_COUNT, sizeof(t304), sizeof(t304_view),
	game_t304_init, game_t304_deal, game_t304_apply, game_t304_legal, game_t304_view,
	game_t304_status, game_t304_outcome, game_t304_random, game_t304_bot,
	t304_phase_name, t304_act_name, t304_act_parse, t304_err_name, t304_ev_name,
	card_code, card_parse, T304_ACT_COUNT, T304_EV_COUNT, game_t304_ai, NULL, NULL,
};

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

const game_def game_def_rook = {
	"rook", 4, 4, ROOK_CARDS, sizeof(rook), sizeof(rook_view),
	game_rook_init, game_rook_deal, game_rook_apply, game_rook_legal, game_rook_view,
	game_rook_status, game_rook_outcome, game_rook_random, game_rook_bot,
	rook_phase_name, rook_act_name, rook_act_parse, rook_err_name, rook_ev_name,
	rook_code, rook_parse, ROOK_ACT_COUNT, ROOK_EV_COUNT, game_rook_ai, NULL, NULL,
};

/* ---- the interface ---- */

_Static_assert((int)GAME_AI_EASY == (int)G304_AI_EASY && (int)GAME_AI_STRONG == (int)G304_AI_STRONG, "one set of levels");

const char *game_ai_level_name(int level)
{
	return g304_ai_level_name(level);
}

int game_ai_level_parse(const char *name)
{
	return g304_ai_level_parse(name);
}

void game_ai_params_default(game_ai_params *p, int level, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	p->level = level;
	p->seed = seed;
}

int game_ai_decide(const game *g, int who, const game_ai_params *p, game_ai_stats *stats, game_action *a)
{
	rng r;
	rng_seed(&r, p->seed);
	if (!g->def->ai_action || p->level <= GAME_AI_EASY)
		return game_bot_action(g, who, &r, a);
	game_legal l;
	game_legal_of(g, who, &l);
	if (!l.acts)
		return 0;
	void *v = malloc(g->def->view_size);
	if (!v)
		return game_bot_action(g, who, &r, a);
	game_view(g, who, v);
	int ok = g->def->ai_action(v, &l, p, stats, a);
	free(v);
	return ok;
}

/* Every game, in the order game_at_seats prefers a family's sizes. */
static const game_def *const all_games[] = { &game_def_304, &game_def_304six, &game_def_304eight, &game_def_304six24,
					     &game_def_504, &game_def_904, &game_def_trump304, &game_def_rook };

const game_def *game_find(const char *name)
{
	for (size_t i = 0; i < sizeof all_games / sizeof all_games[0]; i++)
		if (name && !strcmp(name, all_games[i]->name))
			return all_games[i];
	return NULL;
}

const game_def *game_at_seats(const game_def *def, int nseats)
{
	if (!def || !def->family || (nseats >= def->min_seats && nseats <= def->max_seats))
		return def;
	for (size_t i = 0; i < sizeof all_games / sizeof all_games[0]; i++)
		if (all_games[i]->family && !strcmp(all_games[i]->family, def->family)
		    && nseats >= all_games[i]->min_seats && nseats <= all_games[i]->max_seats)
			return all_games[i];
	return def;
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
