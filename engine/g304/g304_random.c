/* g304_random.c: the random player of 304 at every table size: uniformly
 * random legal play, mildly shaped bidding. One choice (choose) serves every
 * size; each size only says what its seat may do and how often it bids. */
#include <string.h>
#include "g304_random.h"

static int chance(rng *r, unsigned percent) { return rng_below(r, 100) < percent; }

/* How often the random player bids and makes its odd calls, by table size:
 * with more seats each one bids less, so deals still get played out. */
typedef struct leanings {
	uint8_t bid_first, bid_second; /* percent of turns with a bid, each round */
	uint16_t caps_in, spoilt_in;   /* a random caps or spoilt call: 1 in this many */
	uint8_t caps_always;           /* caps calls also without allow_odd (the four-player timer) */
} leanings;

static const leanings four_leanings = { 40, 8, 300, 400, 1 };
static const leanings six_leanings = { 30, 6, 200, 300, 0 };

/* What the seat to move may do, in a size-free shape. */
typedef struct turn_in {
	int seat, seats, phase;
	uint16_t acts, bid_min;
	uint8_t pcc_ok;
	uint64_t cards;      /* TRUMP: the candidates; PLAY: the legal cards */
	uint64_t caps_cards; /* the cards a caps order lists */
	const g304_rules *rules;
} turn_in;

/* A random legal numeric bid from bid_min, a few steps up at most. */
static int random_bid(const g304_rules *rules, rng *r, int lo)
{
	int v = lo + 10 * (int)rng_below(r, 3);
	if (v > g304_variant_of(rules)->bid_max)
		v = lo;
	while (!g304_bid_step_ok(rules, v))
		v++;
	return v;
}

/* Where the choice goes: the fields of the size's own action, written in
 * place (no copy on the way: the random player is the benchmarks' driver). */
typedef struct turn_out {
	uint8_t *type, *seat;
	uint16_t *value;
	card *card;
	uint8_t *norder;
	card *order;
} turn_out;

/* The choice; inlined into each size's entry point, as one function was. */
static inline __attribute__((always_inline)) int choose(const turn_in *t, const leanings *w, rng *r, int allow_odd,
							 turn_out o)
{
	*o.seat = (uint8_t)t->seat;
	if ((w->caps_always || allow_odd) && (t->acts & 1u << G304_ACT_CAPS) && rng_below(r, w->caps_in) == 0) {
		/* A caps call with the cards in a random order: usually wrong. */
		uint64_t cards = t->caps_cards;
		*o.type = G304_ACT_CAPS;
		while (cards) {
			card c = rng_pick(r, cards);
			cards &= ~((uint64_t)1 << c);
			o.order[(*o.norder)++] = c;
		}
		return 1;
	}
	if (allow_odd && (t->acts & 1u << G304_ACT_SPOILT) && rng_below(r, w->spoilt_in) == 0) {
		*o.seat = (uint8_t)rng_below(r, (uint32_t)t->seats);
		*o.type = G304_ACT_SPOILT;
		return 1;
	}
	switch (t->phase) {
	case G304_PHASE_BID4:
		if ((t->acts & 1u << G304_ACT_REDEAL) && chance(r, 50)) {
			*o.type = G304_ACT_REDEAL;
		} else if ((t->acts & 1u << G304_ACT_BID) && (!(t->acts & 1u << G304_ACT_PASS) || chance(r, w->bid_first))) {
			*o.type = G304_ACT_BID;
			*o.value = (uint16_t)random_bid(t->rules, r, t->bid_min);
		} else if ((t->acts & 1u << G304_ACT_PARTNER) && chance(r, 10)) {
			*o.type = G304_ACT_PARTNER;
		} else {
			*o.type = G304_ACT_PASS;
		}
		return 1;
	case G304_PHASE_BID8:
		if ((t->acts & 1u << G304_ACT_BID) && chance(r, w->bid_second)) {
			*o.type = G304_ACT_BID;
			if (t->pcc_ok && (!t->bid_min || chance(r, 15)))
				*o.value = G304_BID_PCC;
			else
				*o.value = (uint16_t)random_bid(t->rules, r, t->bid_min);
		} else {
			*o.type = G304_ACT_PASS;
		}
		return 1;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		*o.type = G304_ACT_TRUMP;
		*o.card = rng_pick(r, t->cards);
		return 1;
	case G304_PHASE_PLAY:
		if ((t->acts & 1u << G304_ACT_OPEN) && chance(r, 10)) {
			*o.type = G304_ACT_OPEN;
			return 1;
		}
		*o.type = G304_ACT_PLAY;
		*o.card = rng_pick(r, t->cards);
		return 1;
	default:
		return 0;
	}
}

/* ---- the entry point of every size ---- */

int g304_random_action(const g304 *g, rng *r, int allow_odd, g304_action *out)
{
	int seat = g->turn;
	if (seat == G304_NO_SEAT)
		return 0;
	g304_legal l;
	g304_legal_of(g, seat, &l);
	turn_in t = { seat, g->seats, g->phase, l.acts, l.bid_min, l.pcc_ok, l.cards, g->hand[seat], &g->rules };
	if (seat == g->trumper && g->trump_down)
		t.caps_cards |= (uint64_t)1 << g->trump_card;
	memset(out, 0, sizeof *out);
	turn_out o = { &out->type, &out->seat, &out->value, &out->card, &out->norder, out->order };
	return choose(&t, g->rules.size == G304_SIZE_FOUR ? &four_leanings : &six_leanings, r, allow_odd, o);
}
