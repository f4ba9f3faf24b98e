/* g304_pack.c: the packs of 304's table sizes (g304_pack.h). */
#include <string.h>
#include "g304_pack.h"
#include "g304six.h"

const g304_pack g304_pack_32 = { 8, { 0, 0, 2, 3, 10, 11, 20, 30 } };
const g304_pack g304_pack_36 = { 9, { 0, 0, 0, 2, 3, 10, 11, 20, 30 } };

int g304_pack_set_points(const g304_pack *p, uint64_t s)
{
	int total = 0;
	for (; s; s &= s - 1)
		total += g304_pack_points(p, (card)__builtin_ctzll(s));
	return total;
}

/* ---- the 36-card pack's names ---- */

static const char six_rank_chars[G6_RANKS] = { '6', '7', '8', 'Q', 'K', 'T', 'A', '9', 'J' };

/* The points are the pack's (g304_pack_36), one table with the players'. */
int g6_points(card c) { return c < G6_CARDS ? g304_pack_points(&g304_pack_36, c) : 0; }

int g6_set_points(g6_set s) { return g304_pack_set_points(&g304_pack_36, s); }

void g6_code(card c, char out[8])
{
	if (c >= G6_CARDS) {
		strcpy(out, "??");
		return;
	}
	out[0] = six_rank_chars[g6_rank(c)];
	out[1] = suit_letter(g6_suit(c));
	out[2] = '\0';
}

card g6_parse(const char *s)
{
	if (!s)
		return CARD_NONE;
	if (s[0] == '6') {
		card c = card_parse((char[]){ '7', s[1], s[1] ? s[2] : '\0', '\0' });
		if (c == CARD_NONE || (s[1] && s[2]))
			return CARD_NONE;
		return g6_make(card_suit(c), 0);
	}
	card c = card_parse(s);
	return c == CARD_NONE ? CARD_NONE : g6_make(card_suit(c), card_rank(c) + 1);
}
