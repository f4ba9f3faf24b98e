/* g304_ai_pos.c: the compact position the search plays on (g304_ai_pos),
 * and its rules: the legal cards, playing a card, a game's position.
 */
#include <string.h>
#include "g304_ai_internal.h"

static inline int pos_next(const g304_ai_pos *p, int s)
{
	s = (s + 1) & 3;
	if (s == p->sitting_out)
		s = (s + 1) & 3;
	return s;
}

cardset g304_ai_pos_legal(const g304_ai_pos *p)
{
	int s = p->turn;
	cardset hand = p->hand[s];
	cardset trumps = suit_mask(p->tsuit);
	int trumper = s == p->trumper;
	if (p->n == 0) {
		if (!trumper)
			return hand;
		if (!hand)
			return p->tdown ? card_bit(p->tcard) : 0;
		if (p->trick_no == 0 && !p->open && s == p->barred && (hand & ~trumps))
			return hand & ~trumps;
		return hand;
	}
	card cut_card = trumper && p->tdown ? p->tcard : CARD_NONE;
	return g304_follow_cards(hand, card_suit(p->card[0]), cut_card, p->tsuit);
}

static inline void pos_reveal(g304_ai_pos *p)
{
	if (p->tdown) {
		p->hand[p->trumper] |= card_bit(p->tcard);
		p->tdown = 0;
	}
	p->open = 1;
}

void g304_ai_pos_play(g304_ai_pos *p, card c)
{
	int s = p->turn;
	if (s == p->trumper && p->tdown && c == p->tcard)
		p->tdown = 0;
	else
		p->hand[s] &= ~card_bit(c);
	if (p->n == 0 && s == p->trumper && card_suit(c) == p->tsuit && !p->open
	    && p->trick_no == 0 && s == p->barred)
		pos_reveal(p); /* nothing but trumps: the game goes open */
	p->seat[p->n] = (uint8_t)s;
	p->card[p->n] = c;
	p->n++;
	if (p->n < (p->pcc ? 3 : 4)) {
		p->turn = (uint8_t)pos_next(p, s);
		return;
	}
	int w = g304_ai_pos_best(p);
	int led = card_suit(p->card[0]);
	int points = 0, down_trump = 0;
	for (int i = 0; i < p->n; i++) {
		points += g304_ai_pts(p->card[i]);
		if (i && card_suit(p->card[i]) != led && card_suit(p->card[i]) == p->tsuit)
			down_trump = 1;
	}
	int team = p->seat[w] & 1;
	p->pts[team] = (int16_t)(p->pts[team] + points);
	p->tricks[team]++;
	if (!p->open && down_trump)
		pos_reveal(p);
	if (p->trick_no == 0 && !p->open && p->bid >= G304_BID8_MIN)
		pos_reveal(p);
	p->trick_no++;
	p->n = 0;
	p->turn = p->seat[w];
}

int g304_ai_pos_of(const g304 *g, g304_ai_pos *p)
{
	memset(p, 0, sizeof *p);
	if (g->phase != G304_PHASE_PLAY)
		return 0;
	for (int s = 0; s < G304_SEATS; s++)
		p->hand[s] = g->hand[s];
	p->bid = g->bid;
	p->trumper = g->trumper;
	p->tsuit = g->trump_suit;
	p->tcard = g->trump_card;
	p->tdown = g->trump_down;
	p->open = g->trump_open;
	p->barred = (uint8_t)((g->dealer + 1) & 3);
	p->pcc = g->pcc;
	p->sitting_out = g->pcc ? g->sitting_out : NONE8;
	p->trick_no = g->trick_no;
	for (int team = 0; team < 2; team++) {
		p->pts[team] = (int16_t)cardset_points(g->won[team]);
		p->tricks[team] = g->tricks_won[team];
	}
	const g304_trick *t = &g->tricks[g->trick_no];
	p->n = t->n;
	for (int i = 0; i < t->n; i++) {
		p->seat[i] = t->seat[i];
		p->card[i] = t->card[i];
	}
	p->turn = g->turn;
	return 1;
}
