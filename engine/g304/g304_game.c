/* g304_game.c: 304's game_def at every table size (game.h), over the one
 * rules module (g304.h) and its players. */
#include <string.h>
#include "game_adapt.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_ai_wide.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_options.h"

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
	ACTION_TO_HEAD(a, x);
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
#define GAME_DEF_304(NAME, SEATS, CARDS, INIT, PHASE_NAME, CODE, PARSE, FAMILY) \
	GAME_DEF_OF(g304, NAME, SEATS, SEATS, CARDS, g304, g304_view, INIT, PHASE_NAME, CODE, PARSE, G304_ACT_COUNT, \
		    G304_EV_COUNT, g304_options, FAMILY)

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
