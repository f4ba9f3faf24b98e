/* g304_ai_playout.c: the playout policy (a quick, sensible player with
 * every hand in sight) and playouts to the end of the deal.
 */
#include "g304_ai_internal.h"

/* Cards of `s` that would beat the trick's best card so far. */
static cardset beaters(const g304_ai_pos *p, cardset s)
{
	card b = p->card[g304_ai_pos_best(p)];
	cardset trumps = suit_mask(p->tsuit);
	cardset above = ~((card_bit(b) << 1) - 1);
	if (card_suit(b) == p->tsuit)
		return s & trumps & above;
	return (s & suit_mask(card_suit(b)) & above) | (s & trumps);
}

/* A sensible move with every hand in sight, now and then a random one. */
card g304_ai_policy(const g304_ai_pos *p, rng *r, int noise)
{
	cardset legal = g304_ai_pos_legal(p);
	if (!(legal & (legal - 1)))
		return cardset_first(legal);
	if (noise && rng_below(r, 8) == 0)
		return rng_pick(r, legal);
	int s = p->turn, team = s & 1, tt = p->trumper & 1;
	cardset trumps = suit_mask(p->tsuit);
	if (p->n == 0) {
		cardset out = 0;
		for (int i = 0; i < G304_SEATS; i++)
			if (i != s)
				out |= p->hand[i];
		if (p->tdown && s != p->trumper)
			out |= card_bit(p->tcard);
		/* A master: no card still out beats it in its suit. */
		cardset masters = cardset_masters(legal, out);
		cardset opp_trumps = (p->hand[(s + 1) & 3] | p->hand[(s + 3) & 3]) & trumps;
		if (team == tt && (masters & trumps) && opp_trumps)
			return cardset_first(masters & trumps);
		if (masters & ~trumps && !opp_trumps)
			return cardset_dearest(masters & ~trumps, p->tsuit);
		if (masters & ~trumps)
			return cardset_top(masters & ~trumps);
		/* Else the cheapest card of the longest side suit (trumps count
		 * as shorter than any side suit, and a hand of trumps alone leads
		 * one). */
		return cardset_cheapest_longest(legal, p->tsuit, -100);
	}
	int w = g304_ai_pos_best(p);
	int last = p->n == (p->pcc ? 2 : 3);
	if ((p->seat[w] & 1) == team) {
		if (last)
			return cardset_dearest(legal, p->tsuit);
		return cardset_cheapest(legal, p->tsuit);
	}
	cardset b = beaters(p, legal);
	if (b) {
		int points = 0;
		for (int i = 0; i < p->n; i++)
			points += g304_ai_pts(p->card[i]);
		cardset bt = b & ~trumps;
		if (bt)
			return last ? cardset_cheapest(bt, p->tsuit) : cardset_top(bt);
		if (points >= 10 || last)
			return cardset_cheapest(b, p->tsuit);
	}
	return cardset_cheapest(legal, p->tsuit);
}

void g304_ai_playout(g304_ai_pos *p, rng *r)
{
	while (p->trick_no < G304_TRICKS) {
		card c = g304_ai_policy(p, r, 1);
		if (c == CARD_NONE)
			break; /* cannot happen with consistent hands */
		g304_ai_pos_play(p, c);
	}
}

long g304_ai_playouts(const g304_ai_pos *p, unsigned long n, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	long sum = 0;
	for (unsigned long i = 0; i < n; i++) {
		g304_ai_pos q = *p;
		g304_ai_playout(&q, &r);
		sum += q.pts[p->trumper & 1];
	}
	return sum;
}
