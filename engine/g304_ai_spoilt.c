/* g304_ai_spoilt.c: spoilt trumps: when the view proves that the trumper's
 * opponents were dealt no trump.
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

int g304_ai_spoilt_certain(const g304_view *v)
{
	int tr = v->trumper;
	if (tr >= G304_SEATS || v->trump_suit < 0 || g304_team(v->seat) == g304_team(tr))
		return 0;
	return proves_no_trump(v, (tr + 1) & 3, v->trump_suit) && proves_no_trump(v, (tr + 3) & 3, v->trump_suit);
}
