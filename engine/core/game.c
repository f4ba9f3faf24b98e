/* game.c: the common game interface: the registry of games (game_find),
 * the generic driver, and 304's adapter at every table size (Trump304's and
 * Rook's are in their folders: engine/<game>/<game>_game.c). */
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "game_adapt.h"
#include "names.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304six.h"
#include "g304_options.h"
#include "g304_ai_wide.h"

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

static int game_g304_init(void *st, int nseats, int dealer, const void *rules)
{
	return init_304(st, nseats, dealer, rules, G304_SIZE_FOUR);
}

static int game_g304six_init(void *st, int nseats, int dealer, const void *rules)
{
	return init_304(st, nseats, dealer, rules, G304_SIZE_SIX);
}

static int game_g304eight_init(void *st, int nseats, int dealer, const void *rules)
{
	return init_304(st, nseats, dealer, rules, G304_SIZE_EIGHT);
}

static int game_g304six24_init(void *st, int nseats, int dealer, const void *rules)
{
	return init_304(st, nseats, dealer, rules, G304_SIZE_SIX24);
}

void game_action_to_g304(const game_action *a, struct g304_action *x)
{
	GAME_ACTION_TO(a, x);
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
static void legal_304(uint16_t acts, uint16_t bid_min, int pcc_ok, game_cards cards, game_legal *out)
{
	memset(out, 0, sizeof *out);
	out->acts = acts;
	out->bid_min = bid_min ? bid_min : (pcc_ok ? G304_BID_PCC : 0);
	out->bid_max = pcc_ok ? G304_BID_PCC : bid_min ? G304_MAX_BID : 0;
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
	game_status_head(out, phase, G304_PHASE_DEAL, G304_PHASE_OVER, turn, dealer, nseats, winner, deal_no, 2);
	out->score[0] = tokens[0];
	out->score[1] = tokens[1];
}

static void outcome_304(const g304_deal_end *e, int bank, game_outcome *o)
{
	game_outcome_head(o, e->outcome != G304_OUTCOME_NONE, g304_outcome_name(e->outcome), e->trumper, e->bid, e->made,
			  e->points[0], e->points[1], 2);
	for (int t = 0; t < 2; t++) {
		o->change[t] = (bank ? 0 : e->paid[!t]) - e->paid[t];
		o->score[t] = e->tokens[t];
	}
}

static void game_g304_legal(const void *st, int seat, game_legal *out)
{
	g304_legal l;
	g304_legal_of(st, seat, &l);
	legal_304(l.acts, l.bid_min, l.pcc_ok, l.cards, out);
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

/* 304 at one table size: what differs is its name, seats, pack and words. */
#define GAME_DEF_304(NAME, SEATS, CARDS, INIT, PHASE_NAME, CODE, PARSE) { \
	NAME, SEATS, SEATS, CARDS, sizeof(g304), sizeof(g304_view), \
	INIT, game_g304_deal, game_g304_apply, game_g304_legal, game_g304_view, \
	game_g304_status, game_g304_outcome, game_g304_random, game_g304_bot, \
	PHASE_NAME, g304_act_name, g304_act_parse, g304_err_name, g304_ev_name, \
	CODE, PARSE, G304_ACT_COUNT, G304_EV_COUNT, game_g304_ai, g304_options, \
}

const game_def game_def_304 = GAME_DEF_304("304", 4, CARD_COUNT, game_g304_init, g304_phase_name, card_code, card_parse);

/* ---- six-player 304: the same engine at G304_SIZE_SIX ---- */

const game_def game_def_304six = GAME_DEF_304("304six", 6, 36, game_g304six_init, g304six_phase_name, g6_code, g6_parse);

/* ---- eight-player 304: the same engine at G304_SIZE_EIGHT (four-player
 * 304's pack and words) ---- */

const game_def game_def_304eight =
	GAME_DEF_304("304eight", 8, CARD_COUNT, game_g304eight_init, g304_phase_name, card_code, card_parse);

/* ---- six-player 304 with 24 cards: the same engine at G304_SIZE_SIX24 ---- */

const game_def game_def_304six24 =
	GAME_DEF_304("304six24", 6, 24, game_g304six24_init, g304_phase_name, g304_24_code, g304_24_parse);

static const game_def *const sizes_304[G304_SIZE_COUNT] = {
	[G304_SIZE_FOUR] = &game_def_304, [G304_SIZE_SIX] = &game_def_304six, [G304_SIZE_EIGHT] = &game_def_304eight,
	[G304_SIZE_SIX24] = &game_def_304six24,
};

int game_304_size(const game_def *def)
{
	for (int i = 0; i < G304_SIZE_COUNT; i++)
		if (def && def == sizes_304[i])
			return i;
	return -1;
}

const game_def *game_304_seats(const game_def *def, int nseats)
{
	if (game_304_size(def) < 0 || g304_variants[game_304_size(def)].seats == nseats)
		return def;
	for (int i = 0; i < G304_SIZE_COUNT; i++)
		if (g304_variants[i].seats == nseats)
			return sizes_304[i];
	return def;
}

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

const game_def *game_find(const char *name)
{
	static const game_def *const all[] = { &game_def_304, &game_def_304six, &game_def_304eight, &game_def_304six24,
						&game_def_trump304, &game_def_rook };
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
