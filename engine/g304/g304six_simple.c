/* g304six_simple.c: six-player 304's computer players: the timer's random
 * move, and a plain rule-based player that sees only its seat's view (the
 * four-player simple player's rules, for six hands of six cards). */
#include <string.h>
#include "g304six.h"

static int chance(rng *r, unsigned percent) { return rng_below(r, 100) < percent; }

static int random_bid(const g6 *g, rng *r, int lo)
{
	int v = lo + 10 * (int)rng_below(r, 3);
	if (v > G304_MAX_BID)
		v = lo;
	while (!g304_bid_step_ok(&g->rules, v))
		v++;
	return v;
}

/* Any legal action of the seat to move, mildly shaped; with allow_odd, now
 * and then a caps call in a random order and a spoilt call by anyone (for
 * the property tests). */
int g6_random_any(const g6 *g, rng *r, int allow_odd, g6_action *out)
{
	int seat = g->turn;
	if (seat == G304_NO_SEAT)
		return 0;
	g6_legal l;
	g6_legal_of(g, seat, &l);
	memset(out, 0, sizeof *out);
	out->seat = (uint8_t)seat;
	if (allow_odd && (l.acts & 1u << G304_ACT_CAPS) && rng_below(r, 200) == 0) {
		g6_set cards = g->hand[seat];
		if (seat == g->trumper && g->trump_down)
			cards |= g6_bit(g->trump_card);
		out->type = G304_ACT_CAPS;
		while (cards) {
			card c = rng_pick(r, cards);
			cards &= ~g6_bit(c);
			out->order[out->norder++] = c;
		}
		return 1;
	}
	if (allow_odd && (l.acts & 1u << G304_ACT_SPOILT) && rng_below(r, 300) == 0) {
		out->seat = (uint8_t)rng_below(r, G6_SEATS);
		out->type = G304_ACT_SPOILT;
		return 1;
	}
	switch (g->phase) {
	case G304_PHASE_BID4:
		if ((l.acts & 1u << G304_ACT_REDEAL) && chance(r, 50)) {
			out->type = G304_ACT_REDEAL;
		} else if ((l.acts & 1u << G304_ACT_BID) && chance(r, 30)) {
			out->type = G304_ACT_BID;
			out->value = (uint16_t)random_bid(g, r, l.bid_min);
		} else if ((l.acts & 1u << G304_ACT_PARTNER) && chance(r, 10)) {
			out->type = G304_ACT_PARTNER;
		} else {
			out->type = G304_ACT_PASS;
		}
		return 1;
	case G304_PHASE_BID8:
		if ((l.acts & 1u << G304_ACT_BID) && chance(r, 6)) {
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

int g6_random_action(const g6 *g, int seat, rng *r, g6_action *out)
{
	return seat == g->turn && g6_random_any(g, r, 0, out) && out->seat == seat;
}

/* ---- the simple player ---- */

static int hand_strength(g6_set hand, int *best_suit)
{
	int best = 0, best_score = -1;
	for (int s = 0; s < SUIT_COUNT; s++) {
		g6_set in = hand & g6_suit_mask(s);
		int score = g6_set_points(in) + 12 * g6_count(in);
		if (score > best_score) {
			best_score = score;
			best = s;
		}
	}
	if (best_suit)
		*best_suit = best;
	return g6_set_points(hand) + 8 * g6_count(hand & g6_suit_mask(best));
}

static card cheapest(g6_set s)
{
	card best = CARD_NONE;
	for (; s; s &= s - 1) {
		card c = g6_first(s);
		if (best == CARD_NONE || g6_points(c) < g6_points(best)
		    || (g6_points(c) == g6_points(best) && g6_rank(c) < g6_rank(best)))
			best = c;
	}
	return best;
}

static card cheapest_above(g6_set s, card top)
{
	g6_set above = s & g6_suit_mask(g6_suit(top)) & ~((g6_bit(top) << 1) - 1);
	return above ? g6_first(above) : CARD_NONE;
}

static int choose_bid(const g6_view *v, const g6_legal *l, g6_action *a, int second)
{
	if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min) {
		a->type = G304_ACT_PASS;
		return 1;
	}
	int strength = hand_strength(v->hand, NULL);
	/* Two partners help: a little bolder than with four players, but a
	 * six-card hand is a smaller share of the pack than eight of 32. */
	int reach = second ? 110 + strength : 125 + strength;
	if (l->bid_min <= reach && (second ? l->bid_min >= G304_BID8_MIN && strength >= 140 : 1)) {
		a->type = G304_ACT_BID;
		a->value = l->bid_min;
	} else {
		a->type = G304_ACT_PASS;
	}
	return 1;
}

static card visible_winner(const g6_view *v, const g6_trick *t, int *seat)
{
	int led = g6_suit(t->card[0]);
	card best = t->card[0];
	*seat = t->seat[0];
	for (int i = 1; i < t->n; i++) {
		card c = t->card[i];
		if (c == CARD_NONE)
			continue;
		int trump = v->trump_suit >= 0 && g6_suit(c) == v->trump_suit;
		int best_trump = v->trump_suit >= 0 && g6_suit(best) == v->trump_suit;
		if ((trump && (!best_trump || c > best)) || (!trump && !best_trump && g6_suit(c) == led && c > best)) {
			best = c;
			*seat = t->seat[i];
		}
	}
	return best;
}

static int seen_card(const g6_view *v, card c)
{
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < v->tricks[i].n; k++)
			if (v->tricks[i].card[k] == c)
				return 1;
	return 0;
}

static card choose_play(const g6_view *v, const g6_legal *l)
{
	g6_set legal = l->cards;
	if (g6_count(legal) == 1)
		return g6_first(legal);
	const g6_trick *t = &v->tricks[v->ntricks - 1];
	int me = v->seat;
	if (t->n == 0) {
		for (g6_set s = legal; s; s &= s - 1) {
			card c = g6_first(s);
			int top = 1;
			for (int r = g6_rank(c) + 1; r < G6_RANKS && top; r++) {
				card higher = g6_make(g6_suit(c), r);
				if (!seen_card(v, higher) && !(v->hand & g6_bit(higher)))
					top = 0;
			}
			if (top && (v->trump_suit < 0 || g6_suit(c) != v->trump_suit || me == v->trumper))
				return c;
		}
		int longest = 0, len = -1;
		for (int s = 0; s < SUIT_COUNT; s++)
			if (g6_count(legal & g6_suit_mask(s)) > len) {
				len = g6_count(legal & g6_suit_mask(s));
				longest = s;
			}
		return cheapest(legal & g6_suit_mask(longest));
	}
	int wseat;
	card win = visible_winner(v, t, &wseat);
	int partner_wins = g6_team(wseat) == g6_team(me);
	int led = g6_suit(t->card[0]);
	g6_set follow = legal & g6_suit_mask(led);
	int points = 0;
	for (int i = 0; i < t->n; i++)
		if (t->card[i] != CARD_NONE)
			points += g6_points(t->card[i]);
	if (follow) {
		if (partner_wins)
			return cheapest(follow);
		int trumped = v->trump_suit >= 0 && g6_suit(win) == v->trump_suit && led != v->trump_suit;
		card over = trumped ? CARD_NONE : cheapest_above(follow, win);
		return over != CARD_NONE ? over : cheapest(follow);
	}
	if (me == v->trumper && v->trump_down && (legal & g6_bit(v->trump_card))) {
		g6_set rest = legal & ~g6_bit(v->trump_card);
		if (!rest || (!partner_wins && points >= 10))
			return v->trump_card;
		return cheapest(rest);
	}
	if (v->trump_suit >= 0 && !partner_wins) {
		g6_set trumps = legal & g6_suit_mask(v->trump_suit);
		if (trumps && points >= 10)
			return g6_first(trumps);
	}
	if (v->trump_suit >= 0) {
		g6_set other = legal & ~g6_suit_mask(v->trump_suit);
		if (other)
			return cheapest(other);
	}
	return cheapest(legal);
}

int g6_simple_action(const g6_view *v, const g6_legal *l, g6_action *a)
{
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	switch (v->phase) {
	case G304_PHASE_BID4:
		if (l->acts & 1u << G304_ACT_REDEAL) {
			a->type = G304_ACT_REDEAL;
			return 1;
		}
		if (!(l->acts & 1u << G304_ACT_PASS))
			return 0;
		return choose_bid(v, l, a, 0);
	case G304_PHASE_BID8:
		if (!(l->acts & 1u << G304_ACT_PASS))
			return 0;
		return choose_bid(v, l, a, 1);
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8: {
		if (!(l->acts & 1u << G304_ACT_TRUMP))
			return 0;
		int suit;
		hand_strength(l->cards, &suit);
		a->type = G304_ACT_TRUMP;
		a->card = g6_first(l->cards & g6_suit_mask(suit)); /* the lowest of the best suit */
		return 1;
	}
	case G304_PHASE_PLAY:
		if (!(l->acts & 1u << G304_ACT_PLAY))
			return 0;
		if ((l->acts & 1u << G304_ACT_CAPS) && v->caps_seat == G304_NO_SEAT) {
			card order[G6_TRICKS];
			int n;
			if (g6_caps_find(v, G6_CAPS_TRACK_BUDGET, order, &n)) {
				a->type = G304_ACT_CAPS;
				a->norder = (uint8_t)n;
				memcpy(a->order, order, (size_t)n);
				return 1;
			}
		}
		a->type = G304_ACT_PLAY;
		a->card = choose_play(v, l);
		return 1;
	default:
		return 0;
	}
}
