/* t304_simple.c: the Trump304 timer's move and a simple computer player. */
#include <string.h>
#include "t304_simple.h"

static void action_init(t304_action *a, int type, int seat)
{
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)type;
	a->seat = (uint8_t)seat;
	a->card = a->put[0] = a->put[1] = CARD_NONE;
}

int t304_random_action(const t304 *g, int seat, rng *r, t304_action *out)
{
	t304_legal l;
	t304_legal_of(g, seat, &l);
	if (!l.acts)
		return 0;
	switch (g->phase) {
	case T304_PHASE_BID:
		if (l.can_pass) {
			action_init(out, T304_ACT_PASS, seat);
		} else {
			action_init(out, T304_ACT_BID, seat);
			out->value = l.bid_min;
		}
		return 1;
	case T304_PHASE_TRUMP:
		action_init(out, T304_ACT_TRUMP, seat);
		out->card = rng_pick(r, l.cards);
		return 1;
	case T304_PHASE_EXCHANGE:
		action_init(out, T304_ACT_KEEP, seat);
		return 1;
	case T304_PHASE_PLAY:
		action_init(out, T304_ACT_PLAY, seat);
		out->card = rng_pick(r, l.cards);
		return 1;
	default:
		return 0;
	}
}

/* ---- the simple player: only the view ---- */

/* The cheapest card of a set: fewest points, then weakest. */
static card cheapest(cardset s)
{
	card best = CARD_NONE;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		if (best == CARD_NONE || card_points(c) < card_points(best) ||
		    (card_points(c) == card_points(best) && card_rank(c) < card_rank(best)))
			best = c;
	}
	return best;
}

static int trick_points(const t304_trick *t)
{
	int p = 0;
	for (int i = 0; i < t->n; i++)
		p += card_points(t->card[i]);
	return p;
}

static int longest_suit(cardset h)
{
	int best = 0, bn = -1, bp = -1;
	for (int s = 0; s < SUIT_COUNT; s++) {
		int n = cardset_count(h & suit_mask(s)), p = cardset_points(h & suit_mask(s));
		if (n > bn || (n == bn && p > bp)) {
			best = s;
			bn = n;
			bp = p;
		}
	}
	return best;
}

/* The trumps among these that would win a trick whose best card is wc: all
 * of them unless wc is itself a cut (wcut), then the higher ones. */
static cardset trumps_over(cardset trumps, int wcut, card wc)
{
	cardset over = 0;
	for (cardset x = trumps; x; x &= x - 1)
		if (!wcut || cardset_first(x) > wc)
			over |= card_bit(cardset_first(x));
	return over;
}

static int play_card(const t304_view *v, const t304_legal *l, t304_action *a)
{
	cardset L = l->cards;
	const t304_trick *t = &v->trick;
	int ts = v->trump_suit;
	cardset trumps = ts >= 0 ? suit_mask(ts) : 0;
	action_init(a, T304_ACT_PLAY, v->seat);
	if (t->n == 0) {
		/* Lead a jack of a side suit, else the cheapest side card. */
		cardset side = L & ~trumps;
		for (int s = 0; s < SUIT_COUNT; s++) {
			cardset in = side & suit_mask(s);
			if (in && card_rank(cardset_top(in)) == RANK_J) {
				a->card = cardset_top(in);
				return 1;
			}
		}
		a->card = cheapest(side ? side : L);
		return 1;
	}
	int w = t304_trick_best(t);
	int partner_wins = t304_same_side(v->nseats, v->trumper, t->seat[w], v->seat);
	card wc = t->card[w];
	int wcut = t->cut >> w & 1;
	cardset led = L & suit_mask(card_suit(t->card[0]));
	if (v->must_cut == v->seat) {
		cardset over = trumps_over(L & trumps, wcut, wc);
		a->card = cheapest(over ? over : L);
		return 1;
	}
	if (led) {
		card top = cardset_top(led);
		if (!partner_wins && !wcut && top > wc)
			a->card = top;
		else
			a->card = cheapest(led);
		return 1;
	}
	/* Void in the led suit. */
	if (!partner_wins && trick_points(t) >= 10 && (l->acts >> T304_ACT_REVEAL & 1)) {
		action_init(a, T304_ACT_REVEAL, v->seat);
		return 1;
	}
	if (!partner_wins && v->revealed && (L & trumps)) {
		cardset over = trumps_over(L & trumps, wcut, wc);
		if (over) {
			a->card = cheapest(over);
			return 1;
		}
	}
	cardset side = L & ~trumps;
	a->card = cheapest(side ? side : L);
	return 1;
}

int t304_simple_action(const t304_view *v, const t304_legal *l, t304_action *a)
{
	if (!l->acts)
		return 0;
	switch (v->phase) {
	case T304_PHASE_BID: {
		int s = longest_suit(v->hand);
		int strength = cardset_points(v->hand) + 10 * (cardset_count(v->hand & suit_mask(s)) - 2);
		int threshold = v->nseats == 4 ? 75 : v->nseats == 3 ? 110 : 125;
		int limit = T304_MIN_BID + (strength - threshold) / 10 * 10;
		if ((l->acts >> T304_ACT_BID & 1) && (!l->can_pass || (strength >= threshold && limit >= l->bid_min))) {
			action_init(a, T304_ACT_BID, v->seat);
			a->value = l->bid_min;
			return 1;
		}
		action_init(a, T304_ACT_PASS, v->seat);
		return 1;
	}
	case T304_PHASE_TRUMP: {
		int s = longest_suit(l->cards);
		action_init(a, T304_ACT_TRUMP, v->seat);
		a->card = cardset_first(l->cards & suit_mask(s));
		return 1;
	}
	case T304_PHASE_EXCHANGE:
		action_init(a, T304_ACT_KEEP, v->seat);
		return 1;
	case T304_PHASE_PLAY:
		return play_card(v, l, a);
	default:
		return 0;
	}
}
