/* g304_simple.c: a plain rule-based 304 player that sees only its seat's
 * view, one for every table size (issue 31).
 *
 * Bids on card points, keeps its high trumps and lays a low one, wins a
 * trick as cheaply as it can and otherwise plays its least valuable card,
 * cuts with the trump card only when the trick is worth it, and calls caps
 * when the Caps judge says its cards are certain to win the rest. It reads
 * a size-free summary of the view (struct seen) over the size's pack
 * (g304_pack.h); each size gives its view, its judge and its leanings.
 */
#include <string.h>
#include "g304_simple.h"
#include "g304_caps.h"
#include "g304_caps_wide.h"
#include "g304_pack.h"

#define SIMPLE_CAPS_BUDGET 20000ul  /* positions: a few milliseconds at most */

/* How boldly a size bids: the points a side may reach for a hand strength
 * in each round, and the strength a second-round bid needs. */
typedef struct leanings {
	int reach_first, reach_second, strength_second;
} leanings;

/* Cautious with four cards (half the hand unseen), bolder with eight. */
static const leanings four_leanings = { 120, 100, 150 };
/* Two partners help: a little bolder than with four players, but a
 * six-card hand is a smaller share of the pack than eight of 32. */
static const leanings six_leanings = { 125, 110, 140 };

/* What the player reads of a view, whatever the size. */
typedef struct seen {
	const g304_variant *w;  /* the table size: its bid thresholds */
	const g304_pack *p;
	const leanings *lean;
	int seat, phase, trumper, trump_suit, trump_down;
	card trump_card;
	uint64_t hand;
	uint64_t played;        /* every face-up card in the tricks */
	int n;                  /* cards in the trick in play */
	const uint8_t *tseat;   /* its seats and cards */
	const card *tcard;
	uint16_t acts, bid_min;
	uint64_t cards;         /* TRUMP: the candidates; PLAY: the legal cards */
} seen;

/* Reads one trick of the view, the tricks in order: its face-up cards are
 * played, and the last one read is the trick in play. */
static void seen_trick(seen *s, int n, const uint8_t *seats, const card *cards)
{
	for (int k = 0; k < n; k++)
		if (cards[k] != CARD_NONE)
			s->played |= (uint64_t)1 << cards[k];
	s->n = n;
	s->tseat = seats;
	s->tcard = cards;
}

static int count(uint64_t s) { return __builtin_popcountll(s); }
static card lowest(uint64_t s) { return (card)__builtin_ctzll(s); }

/* How good the cards are for naming trumps in their best suit. */
static int hand_strength(const g304_pack *p, uint64_t hand, int *best_suit)
{
	int best = 0, best_score = -1;
	for (int s = 0; s < SUIT_COUNT; s++) {
		uint64_t in = hand & g304_pack_suit(p, s);
		int score = g304_pack_set_points(p, in) + 12 * count(in);
		if (score > best_score) {
			best_score = score;
			best = s;
		}
	}
	if (best_suit)
		*best_suit = best;
	return g304_pack_set_points(p, hand) + 8 * count(hand & g304_pack_suit(p, best));
}

/* The least valuable card of a set: fewest points, then lowest rank. */
static card cheapest(const g304_pack *p, uint64_t s)
{
	card best = CARD_NONE;
	for (; s; s &= s - 1) {
		card c = lowest(s);
		if (best == CARD_NONE || g304_pack_points(p, c) < g304_pack_points(p, best)
		    || (g304_pack_points(p, c) == g304_pack_points(p, best)
			&& g304_pack_rank(p, c) < g304_pack_rank(p, best)))
			best = c;
	}
	return best;
}

/* The lowest card of the set that beats `top` in its suit, or CARD_NONE. */
static card cheapest_above(const g304_pack *p, uint64_t s, card top)
{
	uint64_t above = s & g304_pack_suit(p, g304_pack_suit_of(p, top)) & ~((g304_pack_bit(top) << 1) - 1);
	return above ? lowest(above) : CARD_NONE;
}

static int choose_bid(const seen *v, int second)
{
	if (!(v->acts & 1u << G304_ACT_BID) || !v->bid_min)
		return 0;
	int strength = hand_strength(v->p, v->hand, NULL);
	/* The leanings are in 304's points; 504 and 904 scale them to their packs. */
	int pack = g304_pack_set_points(v->p, ~(uint64_t)0 >> (64 - g304_pack_cards(v->p)));
	int reach = (second ? v->lean->reach_second : v->lean->reach_first) * pack / 304 + strength;
	return v->bid_min <= reach
	       && (second ? v->bid_min >= v->w->bid_second && strength >= v->lean->strength_second * pack / 304 : 1);
}

/* The card winning the trick so far, as this seat can see it. */
static card visible_winner(const seen *v, int *seat)
{
	const g304_pack *p = v->p;
	int led = g304_pack_suit_of(p, v->tcard[0]);
	card best = v->tcard[0];
	*seat = v->tseat[0];
	for (int i = 1; i < v->n; i++) {
		card c = v->tcard[i];
		if (c == CARD_NONE)
			continue;
		int trump = v->trump_suit >= 0 && g304_pack_suit_of(p, c) == v->trump_suit;
		int best_trump = v->trump_suit >= 0 && g304_pack_suit_of(p, best) == v->trump_suit;
		/* Two trumps, or two cards of the suit led: one suit, so the
		 * higher card is the higher rank. */
		if ((trump && (!best_trump || c > best)) || (!trump && !best_trump && g304_pack_suit_of(p, c) == led && c > best)) {
			best = c;
			*seat = v->tseat[i];
		}
	}
	return best;
}

static card choose_play(const seen *v)
{
	const g304_pack *p = v->p;
	uint64_t legal = v->cards;
	if (count(legal) == 1)
		return lowest(legal);
	int me = v->seat;
	if (v->n == 0) {
		/* Lead a card nobody can beat in its suit if there is one, else
		 * the cheapest card of the longest suit. */
		for (uint64_t s = legal; s; s &= s - 1) {
			card c = lowest(s);
			int top = 1;
			for (int r = g304_pack_rank(p, c) + 1; r < p->ranks && top; r++) {
				card higher = g304_pack_card(p, g304_pack_suit_of(p, c), r);
				if (!(v->played & g304_pack_bit(higher)) && !(v->hand & g304_pack_bit(higher)))
					top = 0;
			}
			if (top && (v->trump_suit < 0 || g304_pack_suit_of(p, c) != v->trump_suit || me == v->trumper))
				return c;
		}
		int longest = 0, len = -1;
		for (int s = 0; s < SUIT_COUNT; s++)
			if (count(legal & g304_pack_suit(p, s)) > len) {
				len = count(legal & g304_pack_suit(p, s));
				longest = s;
			}
		return cheapest(p, legal & g304_pack_suit(p, longest));
	}
	int wseat;
	card win = visible_winner(v, &wseat);
	int partner_wins = (wseat & 1) == (me & 1); /* teams sit alternately at every size */
	int led = g304_pack_suit_of(p, v->tcard[0]);
	uint64_t follow = legal & g304_pack_suit(p, led);
	int points = 0;
	for (int i = 0; i < v->n; i++)
		if (v->tcard[i] != CARD_NONE)
			points += g304_pack_points(p, v->tcard[i]);
	if (follow) {
		if (partner_wins)
			return cheapest(p, follow);
		int trumped = v->trump_suit >= 0 && g304_pack_suit_of(p, win) == v->trump_suit && led != v->trump_suit;
		card over = trumped ? CARD_NONE : cheapest_above(p, follow, win);
		return over != CARD_NONE ? over : cheapest(p, follow);
	}
	/* Cannot follow. */
	if (me == v->trumper && v->trump_down && (legal & g304_pack_bit(v->trump_card))) {
		uint64_t rest = legal & ~g304_pack_bit(v->trump_card);
		if (!rest || (!partner_wins && points >= 10))
			return v->trump_card;
		return cheapest(p, rest);
	}
	if (v->trump_suit >= 0 && !partner_wins) {
		uint64_t trumps = legal & g304_pack_suit(p, v->trump_suit);
		if (trumps && points >= 10)
			return lowest(trumps);
	}
	if (v->trump_suit >= 0) {
		uint64_t other = legal & ~g304_pack_suit(p, v->trump_suit);
		if (other)
			return cheapest(p, other);
	}
	return cheapest(p, legal);
}

/* The choice for every size, but caps (each size asks its judge first):
 * 1 with *type and the value or card set, 0 when there is nothing to do. */
static int choose(const seen *v, uint8_t *type, uint16_t *value, card *c)
{
	switch (v->phase) {
	case G304_PHASE_BID4:
	case G304_PHASE_BID8:
		if (v->phase == G304_PHASE_BID4 && (v->acts & 1u << G304_ACT_REDEAL)) {
			*type = G304_ACT_REDEAL;
			return 1;
		}
		if (!(v->acts & 1u << G304_ACT_PASS)) {
			/* A duty to open (g304_variant.open_min): the lowest bid. */
			if (!(v->acts & 1u << G304_ACT_BID) || !v->bid_min)
				return 0;
			*type = G304_ACT_BID;
			*value = v->bid_min;
			return 1;
		}
		*type = G304_ACT_PASS;
		if (choose_bid(v, v->phase == G304_PHASE_BID8)) {
			*type = G304_ACT_BID;
			*value = v->bid_min;
		}
		return 1;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8: {
		if (!(v->acts & 1u << G304_ACT_TRUMP))
			return 0;
		/* Lay the lowest card of the best suit: the high trumps stay in hand. */
		int suit;
		hand_strength(v->p, v->cards, &suit);
		*type = G304_ACT_TRUMP;
		*c = lowest(v->cards & g304_pack_suit(v->p, suit));
		return 1;
	}
	case G304_PHASE_PLAY:
		if (!(v->acts & 1u << G304_ACT_PLAY))
			return 0;
		*type = G304_ACT_PLAY;
		*c = choose_play(v);
		return 1;
	default:
		return 0;
	}
}

/* ---- the entry point of every size ---- */

int g304_simple_action(const g304_view *v, const g304_legal *l, g304_action *a)
{
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	int four = v->size == G304_SIZE_FOUR;
	if (v->phase == G304_PHASE_PLAY && (l->acts & 1u << G304_ACT_PLAY)) {
		if (g304_caps_offer(v, l, four ? SIMPLE_CAPS_BUDGET : G304_CAPS_WIDE_TRACK_BUDGET, a))
			return 1;
	}
	const g304_variant *w = g304_variant_of(&(g304_rules){ .size = v->size });
	seen s = { w, w->pack, four ? &four_leanings : &six_leanings,
		   v->seat, v->phase, v->trumper, v->trump_suit, v->trump_down,
		   v->trump_card, v->hand, 0, 0, NULL, NULL, l->acts, l->bid_min, l->cards };
	for (int i = 0; i < v->ntricks; i++)
		seen_trick(&s, v->tricks[i].n, v->tricks[i].seat, v->tricks[i].card);
	return choose(&s, &a->type, &a->value, &a->card);
}
