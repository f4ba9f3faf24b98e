/* g304_ai_spoilt.c: spoilt trumps: when the view proves that the trumper's
 * opponents were dealt no trump, and whether the trumper's own side wants
 * the deal void (it does when playing on is worth less than a redeal).
 */
#include "g304_ai_internal.h"

/* Can the view's seat prove that `s` was dealt no card of the trump suit? */
static int proves_no_trump(const g304_view *v, int s, int ts)
{
	if (s == v->seat) {
		if (v->hand & suit_mask(ts))
			return 0;
	}
	int plays = 0;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		for (int k = 0; k < t->n; k++) {
			if (t->seat[k] != s)
				continue;
			plays++;
			card c = t->card[k];
			int led = card_suit(t->card[0]);
			if (c == CARD_NONE) {
				if (!g304_ai_trick_full(v, t))
					return s == v->seat;
				if (led == ts)
					return 1; /* could not follow a trump lead */
				continue; /* inspected face down: no trump */
			}
			if (card_suit(c) == ts)
				return 0;
			if (k > 0 && led == ts)
				return 1;
		}
	}
	return s == v->seat || plays == G304_TRICKS;
}

/* Trumps the view's own side is seen to hold or to have played: its own
 * hand, the trump card when it is the trumper's and lies on the table, and
 * the partner's trumps played face up. */
static int our_trumps(const g304_view *v, int ts)
{
	cardset ours = v->hand & suit_mask(ts);
	if (v->seat == v->trumper && v->trump_down && v->trump_card != CARD_NONE)
		ours |= card_bit(v->trump_card);
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		for (int k = 0; k < t->n; k++)
			if (g304_team(t->seat[k]) == g304_team(v->seat) && t->card[k] != CARD_NONE
			    && card_suit(t->card[k]) == ts)
				ours |= card_bit(t->card[k]);
	}
	return cardset_count(ours);
}

int g304_ai_spoilt_proven(const g304_view *v)
{
	int tr = v->trumper, ts = v->trump_suit;
	if (tr >= G304_SEATS || ts < 0)
		return 0;
	if (g304_team(v->seat) == g304_team(tr) && our_trumps(v, ts) == RANK_COUNT)
		return 1; /* every trump of the pack is on the trumper's side */
	return proves_no_trump(v, (tr + 1) & 3, ts) && proves_no_trump(v, (tr + 3) & 3, ts);
}

int g304_ai_spoilt_certain(const g304_view *v)
{
	int tr = v->trumper;
	if (tr >= G304_SEATS || v->trump_suit < 0 || g304_team(v->seat) == g304_team(tr))
		return 0;
	return g304_ai_spoilt_proven(v);
}
