/* rook_simple.c: a random legal Rook move and a simple computer player. */
#include <string.h>
#include "rook_simple.h"

static void action_init(rook_action *a, int type, int seat)
{
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)type;
	a->seat = (uint8_t)seat;
	a->card = ROOK_NONE;
}

int rook_random_action(const rook *g, int seat, rng *r, rook_action *out)
{
	rook_legal l;
	rook_legal_of(g, seat, &l);
	if (!l.acts)
		return 0;
	switch (g->phase) {
	case ROOK_PHASE_BID:
		if (l.acts >> ROOK_ACT_PASS & 1) {
			action_init(out, ROOK_ACT_PASS, seat);
		} else {
			action_init(out, ROOK_ACT_BID, seat);
			out->value = l.bid_min;
		}
		return 1;
	case ROOK_PHASE_DISCARD:
		action_init(out, ROOK_ACT_DISCARD, seat);
		out->card = rng_pick(r, l.cards);
		return 1;
	case ROOK_PHASE_TRUMP:
		action_init(out, ROOK_ACT_TRUMP, seat);
		out->value = (uint16_t)rng_below(r, ROOK_COLOURS);
		return 1;
	case ROOK_PHASE_PLAY:
		action_init(out, ROOK_ACT_PLAY, seat);
		out->card = rng_pick(r, l.cards);
		return 1;
	default:
		return 0;
	}
}

/* ---- the simple player: only the view ---- */

static int suit_in(int trump, rcard c) { return c == ROOK_BIRD ? trump : rook_colour(c); }

/* The weakest card of a set by points, then strength. */
static rcard cheapest(rcardset s)
{
	rcard best = ROOK_NONE;
	for (; s; s &= s - 1) {
		rcard c = rook_first(s);
		if (best == ROOK_NONE || rook_points(c) < rook_points(best) ||
		    (rook_points(c) == rook_points(best) && rook_strength(c) < rook_strength(best)))
			best = c;
	}
	return best;
}

static int beats(int trump, int led, rcard c, rcard w)
{
	int sc = suit_in(trump, c), sw = suit_in(trump, w);
	if (sc == trump && sw != trump)
		return 1;
	return sc == sw && (sc == trump || sc == led) && rook_strength(c) > rook_strength(w);
}

static int best_colour(rcardset h)
{
	int best = 0, bn = -1;
	for (int c = 0; c < ROOK_COLOURS; c++) {
		int n = rook_count(h & rook_colour_mask(c)) * 10 + rook_set_points(h & rook_colour_mask(c)) / 5;
		if (n > bn) {
			best = c;
			bn = n;
		}
	}
	return best;
}

static int play(const rook_view *v, const rook_legal *l, rook_action *a)
{
	rcardset L = l->cards;
	const rook_trick *t = &v->trick;
	int tr = v->trump;
	action_init(a, ROOK_ACT_PLAY, v->seat);
	if (t->n == 0) {
		/* Lead a side 1 (the top card), else the cheapest side card. */
		rcardset side = L & ~rook_colour_mask(tr) & ~rook_bit(ROOK_BIRD);
		for (int c = 0; c < ROOK_COLOURS; c++)
			if (c != tr && (side & rook_bit(rook_make(c, 1)))) {
				a->card = rook_make(c, 1);
				return 1;
			}
		a->card = cheapest(side ? side : L);
		return 1;
	}
	int led = suit_in(tr, t->card[0]), w = 0;
	for (int i = 1; i < t->n; i++)
		if (beats(tr, led, t->card[i], t->card[w]))
			w = i;
	if ((t->seat[w] & 1) == (v->seat & 1)) {
		/* Partner is winning: give it points if it is the last card or safe. */
		rcard best = ROOK_NONE;
		if (t->n == 3)
			for (rcardset x = L; x; x &= x - 1) {
				rcard c = rook_first(x);
				if (!beats(tr, led, c, t->card[w]) && suit_in(tr, c) != tr &&
				    (best == ROOK_NONE || rook_points(c) > rook_points(best)))
					best = c;
			}
		a->card = best != ROOK_NONE ? best : cheapest(L);
		return 1;
	}
	rcardset over = 0;
	for (rcardset x = L; x; x &= x - 1)
		if (beats(tr, led, rook_first(x), t->card[w]))
			over |= rook_bit(rook_first(x));
	a->card = cheapest(over ? over : L);
	return 1;
}

int rook_simple_action(const rook_view *v, const rook_legal *l, rook_action *a)
{
	if (!l->acts)
		return 0;
	switch (v->phase) {
	case ROOK_PHASE_BID: {
		int c = best_colour(v->hand);
		int strength = rook_set_points(v->hand) + 8 * rook_count(v->hand & rook_colour_mask(c));
		int limit = (strength + 40) / 5 * 5;
		if (!(l->acts >> ROOK_ACT_PASS & 1) || l->bid_min <= limit) {
			action_init(a, ROOK_ACT_BID, v->seat);
			a->value = l->bid_min;
			return 1;
		}
		action_init(a, ROOK_ACT_PASS, v->seat);
		return 1;
	}
	case ROOK_PHASE_DISCARD: {
		int keep = best_colour(v->hand);
		rcardset side = l->cards & ~rook_colour_mask(keep);
		action_init(a, ROOK_ACT_DISCARD, v->seat);
		a->card = cheapest(side ? side : l->cards);
		return 1;
	}
	case ROOK_PHASE_TRUMP:
		action_init(a, ROOK_ACT_TRUMP, v->seat);
		a->value = (uint16_t)best_colour(v->hand);
		return 1;
	case ROOK_PHASE_PLAY:
		return play(v, l, a);
	default:
		return 0;
	}
}
