/* g304six_caps.c: judging a six-player caps claim from the caller's view.
 *
 * The judge never calls a claim certain that is not (a claim it accepts
 * wins every trick however the unseen cards lie and whatever the other
 * five play); it decides from the view alone by a relaxation of the
 * unknown: every card the caller has not seen may be in any other hand,
 * partners' included, and any of them may be played to any trick. Under
 * that relaxation a claim is certain when the caller wins every remaining
 * trick itself: each card it leads is the best of its suit among the unseen
 * cards and, unless it is a trump, no unseen trump is left; the card it
 * plays to a trick already begun beats everything there and everything
 * unseen; and every card of the order is legal when its turn comes (the
 * trump card on the table last, trumps first once the exhausted-trumps rule
 * binds, no trump led to a closed first trick by its first leader). A caller
 * who does not know the trump proves nothing. docs/ENGINE.md says what this
 * leaves out next to four-player 304's exact search.
 */
#include <string.h>
#include "g304six.h"

#define ALL36 (((g6_set)1 << G6_CARDS) - 1)

g6_set g6_caps_cards(const g6_view *v)
{
	g6_set s = v->hand;
	if (v->seat == v->trumper && v->trump_down && v->trump_card != CARD_NONE)
		s |= g6_bit(v->trump_card);
	return s;
}

typedef struct judge {
	const g6_view *v;
	int ts;           /* the trump suit */
	g6_set unseen;    /* every card that may still be in another hand */
	g6_set trumps;
	int trumper;
	card table_card;  /* the caller's trump card on the table, or CARD_NONE */
	int barred;       /* the first lead may not be a trump from hand (closed first trick) */
} judge;

/* No unseen card beats c when c is led (or played as the trick's best). */
static int unbeatable(const judge *j, card c)
{
	g6_set suit = g6_suit_mask(g6_suit(c));
	g6_set higher = j->unseen & suit & ~((g6_bit(c) << 1) - 1);
	if (higher)
		return 0;
	return g6_suit(c) == j->ts || !(j->unseen & j->trumps);
}

/* The leads from order[k..n-1], hand = the cards not yet played. */
static int leads_ok(const judge *j, const card *order, int k, int n, g6_set hand, int exh, int first_trick)
{
	for (; k < n; k++) {
		card c = order[k];
		if (!unbeatable(j, c))
			return 0;
		g6_set in_hand = hand & ~(j->table_card == CARD_NONE ? 0 : g6_bit(j->table_card));
		if (c == j->table_card) {
			if (in_hand)
				return 0; /* the trump card is led only as the last card */
		} else if (j->trumper) {
			int trump = g6_suit(c) == j->ts;
			if (exh && !trump && (in_hand & j->trumps))
				return 0;
			if (first_trick && j->barred && trump && (in_hand & ~j->trumps))
				return 0;
			if (trump && !(j->unseen & j->trumps) && !j->v->pcc)
				exh = 1;
		}
		hand &= ~g6_bit(c);
		first_trick = 0;
	}
	return 1;
}

/* The trick in play: who holds it and with what, if every card is seen. */
static int trick_best(const judge *j, const g6_trick *t, card extra, int extra_seat, int *seat, card *best)
{
	int led = g6_suit(t->card[0]);
	*best = CARD_NONE;
	for (int i = 0; i <= t->n; i++) {
		card c = i < t->n ? t->card[i] : extra;
		int s = i < t->n ? t->seat[i] : extra_seat;
		if (i == t->n && extra == CARD_NONE)
			break;
		if (c == CARD_NONE)
			return 0; /* a face-down card the caller has not seen */
		int tr = g6_suit(c) == j->ts, btr = *best != CARD_NONE && g6_suit(*best) == j->ts;
		if (*best == CARD_NONE || (tr && (!btr || c > *best))
		    || (!tr && !btr && g6_suit(c) == led && c > *best)) {
			*best = c;
			*seat = s;
		}
	}
	return 1;
}

static int judge_init(judge *j, const g6_view *v)
{
	memset(j, 0, sizeof *j);
	j->v = v;
	if (v->phase != G304_PHASE_PLAY || v->trump_suit < 0 || v->ntricks == 0
	    || v->tricks_won[!g6_team(v->seat)] > 0)
		return 0;
	j->ts = v->trump_suit;
	j->trumps = g6_suit_mask(j->ts);
	j->trumper = v->seat == v->trumper;
	j->table_card = j->trumper && v->trump_down ? v->trump_card : CARD_NONE;
	g6_set seen = g6_caps_cards(v);
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < v->tricks[i].n; k++)
			if (v->tricks[i].card[k] != CARD_NONE)
				seen |= g6_bit(v->tricks[i].card[k]);
	j->unseen = ALL36 & ~seen;
	j->barred = j->trumper && !v->trump_open && v->seat == g6_seat_after(v->dealer);
	return 1;
}

/* The order checked against the trick in play; then its leads. */
static int order_ok(const judge *j, const card *order, int n)
{
	const g6_view *v = j->v;
	int seat = v->seat;
	const g6_trick *t = &v->tricks[v->ntricks - 1];
	g6_set hand = g6_caps_cards(v);
	int k = 0, first_trick = v->ntricks == 1;
	int played = 0;
	for (int i = 0; i < t->n; i++)
		played |= t->seat[i] == seat;
	if (t->n > 0) {
		int wseat;
		card best;
		if (played) {
			if (!trick_best(j, t, CARD_NONE, 0, &wseat, &best))
				return 0;
		} else {
			card c = order[0];
			g6_set in_hand = hand & ~(j->table_card == CARD_NONE ? 0 : g6_bit(j->table_card));
			int led = g6_suit(t->card[0]);
			g6_set legal = in_hand & g6_suit_mask(led);
			if (!legal && j->table_card == CARD_NONE)
				legal = in_hand;
			else if (!legal && !in_hand)
				legal = g6_bit(j->table_card);
			else if (!legal && led == j->ts)
				legal = in_hand;
			else if (!legal)
				legal = (in_hand & ~j->trumps) | g6_bit(j->table_card);
			if (!(legal & g6_bit(c)))
				return 0;
			if (!trick_best(j, t, c, seat, &wseat, &best))
				return 0;
			hand &= ~g6_bit(c);
			k = 1;
		}
		if (wseat != seat || !unbeatable(j, best))
			return 0;
		first_trick = 0;
	} else if (t->leader != seat || v->turn != seat) {
		return 0; /* another leads: it might lead what the caller cannot beat */
	}
	return leads_ok(j, order, k, n, hand, v->exhausted, first_trick);
}

int g6_caps_check(const g6_view *v, const card *order, int n)
{
	judge j;
	if (!judge_init(&j, v))
		return 0;
	g6_set cards = g6_caps_cards(v), listed = 0;
	if (n != g6_count(cards) || n == 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (order[i] >= G6_CARDS || !(cards & g6_bit(order[i])) || (listed & g6_bit(order[i])))
			return 0;
		listed |= g6_bit(order[i]);
	}
	return order_ok(&j, order, n);
}

/* Tries every order of the cards (at most 6! = 720, and only once every
 * lead is unbeatable on its own). */
static int permute(const judge *j, card *order, int k, int n, g6_set left)
{
	if (k == n)
		return order_ok(j, order, n);
	for (g6_set s = left; s; s &= s - 1) {
		order[k] = g6_first(s);
		if (permute(j, order, k + 1, n, left & ~g6_bit(order[k])))
			return 1;
	}
	return 0;
}

int g6_caps_find(const g6_view *v, card *order, int *n)
{
	judge j;
	*n = 0;
	if (!judge_init(&j, v))
		return 0;
	g6_set cards = g6_caps_cards(v);
	if (!cards)
		return 0;
	/* Every card but one (the one played to the trick in progress) must
	 * win as a lead; most questions end here. */
	int weak = 0;
	for (g6_set s = cards; s; s &= s - 1)
		weak += !unbeatable(&j, g6_first(s));
	if (weak > 1)
		return 0;
	if (!permute(&j, order, 0, g6_count(cards), cards))
		return 0;
	*n = g6_count(cards);
	return 1;
}
