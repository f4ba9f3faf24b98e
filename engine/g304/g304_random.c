/* g304_random.c: uniformly random legal play, mildly shaped bidding. */
#include <string.h>
#include "g304_random.h"

static int chance(rng *r, unsigned percent) { return rng_below(r, 100) < percent; }

/* A random legal numeric bid from bid_min, a few steps up at most. */
static int random_bid(const g304 *g, rng *r, int lo)
{
	int v = lo + 10 * (int)rng_below(r, 3);
	if (v > G304_MAX_BID)
		v = lo;
	while (!g304_bid_step_ok(&g->rules, v))
		v++;
	return v;
}

int g304_random_action(const g304 *g, rng *r, int allow_spoilt, g304_action *out)
{
	int seat = g->turn;
	if (seat == G304_NO_SEAT)
		return 0;
	g304_legal l;
	g304_legal_of(g, seat, &l);
	memset(out, 0, sizeof *out);
	out->seat = (uint8_t)seat;
	if ((l.acts & 1u << G304_ACT_CAPS) && rng_below(r, 300) == 0) {
		/* A caps call with the cards in a random order: usually wrong. */
		cardset cards = g->hand[seat];
		if (seat == g->trumper && g->trump_down)
			cards |= card_bit(g->trump_card);
		out->type = G304_ACT_CAPS;
		while (cards) {
			card c = rng_pick(r, cards);
			cards &= ~card_bit(c);
			out->order[out->norder++] = c;
		}
		return 1;
	}
	if ((l.acts & 1u << G304_ACT_SPOILT) && allow_spoilt && rng_below(r, 400) == 0) {
		out->seat = (uint8_t)rng_below(r, G304_SEATS);
		out->type = G304_ACT_SPOILT;
		return 1;
	}
	switch (g->phase) {
	case G304_PHASE_BID4:
		if ((l.acts & 1u << G304_ACT_REDEAL) && chance(r, 50)) {
			out->type = G304_ACT_REDEAL;
		} else if ((l.acts & 1u << G304_ACT_BID) && chance(r, 40)) {
			out->type = G304_ACT_BID;
			out->value = (uint16_t)random_bid(g, r, l.bid_min);
		} else if ((l.acts & 1u << G304_ACT_PARTNER) && chance(r, 10)) {
			out->type = G304_ACT_PARTNER;
		} else {
			out->type = G304_ACT_PASS;
		}
		return 1;
	case G304_PHASE_BID8:
		if ((l.acts & 1u << G304_ACT_BID) && chance(r, 8)) {
			out->type = G304_ACT_BID;
			if (l.pcc_ok && (!l.bid_min || chance(r, 15)))
				out->value = G304_BID_PCC;
			else
				out->value = (uint16_t)random_bid(g, r, l.bid_min);
		} else {
			out->type = G304_ACT_PASS;
		}
		return 1;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		out->type = G304_ACT_TRUMP;
		out->card = rng_pick(r, l.cards);
		return 1;
	case G304_PHASE_PLAY:
		if ((l.acts & 1u << G304_ACT_OPEN) && chance(r, 10)) {
			out->type = G304_ACT_OPEN;
			return 1;
		}
		out->type = G304_ACT_PLAY;
		out->card = rng_pick(r, l.cards);
		return 1;
	default:
		return 0;
	}
}
