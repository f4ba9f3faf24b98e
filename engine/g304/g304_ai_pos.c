/* g304_ai_pos.c: the compact position the search plays on (g304_ai_pos),
 * and its rules: the legal cards, playing a card, a game's position.
 */
#include <string.h>
#include "g304_ai_internal.h"

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

void g304_ai_pos_play(g304_ai_pos *p, card c)
{
	g304_ai_pos_step(p, c);
}

void g304_ai_pos_contract(g304_ai_pos *p, uint16_t bid, uint8_t trumper, uint8_t tsuit, card tcard, uint8_t tdown,
			  uint8_t open, int dealer, uint8_t pcc, uint8_t sitting_out)
{
	p->bid = bid;
	p->trumper = trumper;
	p->tsuit = tsuit;
	p->tcard = tcard;
	p->tdown = tdown;
	p->open = open;
	p->barred = (uint8_t)((dealer + 1) & 3);
	p->pcc = pcc;
	p->sitting_out = pcc ? (uint8_t)g304_first_out(sitting_out) : NONE8;
}

int g304_ai_pos_of(const g304 *g, g304_ai_pos *p)
{
	memset(p, 0, sizeof *p);
	if (g->phase != G304_PHASE_PLAY)
		return 0;
	for (int s = 0; s < G304_SEATS; s++)
		p->hand[s] = g->hand[s];
	g304_ai_pos_contract(p, g->bid, g->trumper, g->trump_suit, g->trump_card, g->trump_down, g->trump_open, g->dealer,
			     g->pcc, g->sitting_out);
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
