/* g304_wide.h: the card arithmetic of the general path (g304_caps_wide.c,
 * g304_ai_wide.c): a table size's numbers read from its row of
 * g304_variants, and macros over a `const shape *sh` in scope. Private to
 * those files. */
#ifndef CARDBOT_G304_WIDE_H
#define CARDBOT_G304_WIDE_H

#include "g304.h"

/* The variant's numbers (from a view's size). */
typedef struct shape {
	int size, ranks, seats, hand, ncards;
	const g304_pack *pack;
	g304_set all;     /* every card of the pack */
} shape;

static inline void shape_of(shape *sh, int size)
{
	const g304_variant *w = g304_variant_of(&(g304_rules){ .size = (uint8_t)size });
	sh->size = size;
	sh->pack = w->pack;
	sh->ranks = w->pack->ranks;
	sh->seats = w->seats;
	sh->hand = w->hand;
	sh->ncards = g304_pack_cards(w->pack);
	sh->all = sh->ncards >= 64 ? ~(g304_set)0 : ((g304_set)1 << sh->ncards) - 1;
}

/* The card arithmetic of the pack, over `sh` in scope. */
#define BIT(c) ((g304_set)1 << (c))
#define CNT(s) __builtin_popcountll(s)
#define FIRST(s) ((card)__builtin_ctzll(s))
#define TOP(s) ((card)(63 - __builtin_clzll(s))) /* the strongest card of a set within one suit */
#define SUIT(c) ((int)(c) / sh->ranks)
#define RANK(c) ((int)(c) % sh->ranks)
#define SMASK(x) ((((g304_set)1 << sh->ranks) - 1) << ((x) * sh->ranks))
#define SUIT_LOW(x) ((card)((x) * sh->ranks)) /* the weakest card of a suit */
#define AFTER(s) ((s) + 1 == sh->seats ? 0 : (s) + 1)

#endif
