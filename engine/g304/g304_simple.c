/* g304_simple.c: a plain rule-based 304 player that sees only its seat's view.
 *
 * Bids on card points, keeps its high trumps and lays a low one, wins a
 * trick as cheaply as it can and otherwise plays its least valuable card,
 * cuts with the trump card only when the trick is worth it, and calls caps
 * when the Caps judge says its cards are certain to win the rest.
 */
#include <string.h>
#include "g304_simple.h"
#include "g304_caps.h"

#define SIMPLE_CAPS_BUDGET 20000ul  /* positions: a few milliseconds at most */

/* How good four (or eight) cards are for naming trumps in their best suit. */
static int hand_strength(cardset hand, int *best_suit)
{
	int best = -1, best_score = -1;
	for (int s = 0; s < SUIT_COUNT; s++) {
		cardset in = hand & suit_mask(s);
		int score = cardset_points(in) + 12 * cardset_count(in);
		if (score > best_score) {
			best_score = score;
			best = s;
		}
	}
	if (best_suit)
		*best_suit = best;
	return cardset_points(hand) + 8 * cardset_count(hand & suit_mask(best));
}

/* The least valuable card of a set: fewest points, then lowest rank. */
static card cheapest(cardset s)
{
	card best = CARD_NONE;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		if (best == CARD_NONE || card_points(c) < card_points(best)
		    || (card_points(c) == card_points(best) && card_rank(c) < card_rank(best)))
			best = c;
	}
	return best;
}

/* The lowest card of the set that beats `top` in its suit, or CARD_NONE. */
static card cheapest_above(cardset s, card top)
{
	cardset above = s & suit_mask(card_suit(top)) & ~((card_bit(top) << 1) - 1);
	return above ? cardset_first(above) : CARD_NONE;
}

static int choose_bid(const g304_view *v, const g304_legal *l, g304_action *a, int eight)
{
	if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min) {
		a->type = G304_ACT_PASS;
		return 1;
	}
	int strength = hand_strength(v->hand, NULL);
	/* Rough points the side can take for a given strength; cautious with
	 * four cards (half the hand unseen), bolder with eight. */
	int reach = eight ? 100 + strength : 120 + strength;
	if (l->bid_min <= reach && (eight ? l->bid_min >= G304_BID8_MIN && strength >= 150 : 1)) {
		a->type = G304_ACT_BID;
		a->value = l->bid_min;
	} else {
		a->type = G304_ACT_PASS;
	}
	return 1;
}

static card choose_trump(cardset from)
{
	int suit;
	hand_strength(from, &suit);
	/* Lay the lowest card of the best suit: the high trumps stay in hand. */
	return cardset_first(from & suit_mask(suit));
}

/* The card winning the trick so far, as this seat can see it. */
static card visible_winner(const g304_view *v, const g304_trick *t, int *seat)
{
	int led = card_suit(t->card[0]);
	card best = t->card[0];
	*seat = t->seat[0];
	for (int i = 1; i < t->n; i++) {
		card c = t->card[i];
		if (c == CARD_NONE)
			continue;
		int trump = v->trump_suit >= 0 && card_suit(c) == v->trump_suit;
		int best_trump = v->trump_suit >= 0 && card_suit(best) == v->trump_suit;
		if ((trump && (!best_trump || card_rank(c) > card_rank(best)))
		    || (!trump && !best_trump && card_suit(c) == led && card_rank(c) > card_rank(best))) {
			best = c;
			*seat = t->seat[i];
		}
	}
	return best;
}

static card choose_play(const g304_view *v, const g304_legal *l)
{
	cardset legal = l->cards;
	if (cardset_count(legal) == 1)
		return cardset_first(legal);
	const g304_trick *t = &v->tricks[v->ntricks - 1];
	int me = v->seat;
	if (t->n == 0) {
		/* Lead a card nobody can beat in its suit if there is one, else
		 * the cheapest card of the longest suit. */
		for (cardset s = legal; s; s &= s - 1) {
			card c = cardset_first(s);
			int top = 1;
			for (int r = card_rank(c) + 1; r < RANK_COUNT; r++) {
				card higher = card_make(card_suit(c), r);
				int played = 0;
				for (int i = 0; i < v->ntricks; i++)
					for (int k = 0; k < v->tricks[i].n; k++)
						played |= v->tricks[i].card[k] == higher;
				if (!played && !(v->hand & card_bit(higher)))
					top = 0;
			}
			if (top && (v->trump_suit < 0 || card_suit(c) != v->trump_suit || me == v->trumper))
				return c;
		}
		int longest = 0, len = -1;
		for (int s = 0; s < SUIT_COUNT; s++)
			if (cardset_count(legal & suit_mask(s)) > len) {
				len = cardset_count(legal & suit_mask(s));
				longest = s;
			}
		return cheapest(legal & suit_mask(longest));
	}
	int wseat;
	card win = visible_winner(v, t, &wseat);
	int partner_wins = g304_team(wseat) == g304_team(me);
	int led = card_suit(t->card[0]);
	cardset follow = legal & suit_mask(led);
	int points = 0;
	for (int i = 0; i < t->n; i++)
		if (t->card[i] != CARD_NONE)
			points += card_points(t->card[i]);
	if (follow) {
		if (partner_wins)
			return cheapest(follow);
		int trumped = v->trump_suit >= 0 && card_suit(win) == v->trump_suit && led != v->trump_suit;
		card over = trumped ? CARD_NONE : cheapest_above(follow, win);
		return over != CARD_NONE ? over : cheapest(follow);
	}
	/* Cannot follow. */
	if (me == v->trumper && v->trump_down && (legal & card_bit(v->trump_card))) {
		cardset rest = legal & ~card_bit(v->trump_card);
		if (!rest || (!partner_wins && points >= 10))
			return v->trump_card;
		return cheapest(rest);
	}
	if (v->trump_suit >= 0 && !partner_wins) {
		cardset trumps = legal & suit_mask(v->trump_suit);
		if (trumps && points >= 10)
			return cardset_first(trumps);
	}
	if (v->trump_suit >= 0) {
		cardset other = legal & ~suit_mask(v->trump_suit);
		if (other)
			return cheapest(other);
	}
	return cheapest(legal);
}

int g304_simple_action(const g304_view *v, const g304_legal *l, g304_action *a)
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
	case G304_PHASE_TRUMP8:
		if (!(l->acts & 1u << G304_ACT_TRUMP))
			return 0;
		a->type = G304_ACT_TRUMP;
		a->card = choose_trump(l->cards);
		return 1;
	case G304_PHASE_PLAY:
		if (!(l->acts & 1u << G304_ACT_PLAY))
			return 0;
		if (g304_caps_try(v, l, SIMPLE_CAPS_BUDGET, a))
			return 1;
		a->type = G304_ACT_PLAY;
		a->card = choose_play(v, l);
		return 1;
	default:
		return 0;
	}
}
