/* g304_pack.c: the packs of 304's table sizes (g304_pack.h). */
#include <string.h>
#include "g304_pack.h"

const g304_pack g304_pack_32 = { 8, { 0, 0, 2, 3, 10, 11, 20, 30 }, "78QKTA9J" };
const g304_pack g304_pack_36 = { 9, { 0, 0, 0, 2, 3, 10, 11, 20, 30 }, "678QKTA9J" };
const g304_pack g304_pack_24 = { 6, { 2, 3, 10, 11, 20, 30 }, "QKTA9J" };
const g304_pack g304_pack_504 = { 9, { 0, 0, 2, 3, 10, 11, 20, 30, 50 }, "78QKTA9J3" };
const g304_pack g304_pack_904 = { 10, { 0, 0, 2, 3, 10, 11, 20, 30, 50, 100 }, "78QKTA9J32" };

int g304_pack_set_points(const g304_pack *p, uint64_t s)
{
	int total = 0;
	for (; s; s &= s - 1)
		total += g304_pack_points(p, (card)__builtin_ctzll(s));
	return total;
}


void g304_pack_code(const g304_pack *p, card c, char out[8])
{
	if (c >= g304_pack_cards(p)) {
		strcpy(out, "??");
		return;
	}
	out[0] = p->codes[g304_pack_rank(p, c)];
	out[1] = suit_letter(g304_pack_suit_of(p, c));
	out[2] = '\0';
}

static int upper(int ch) { return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch; }

card g304_pack_parse(const g304_pack *p, const char *s)
{
	if (!s || !s[0])
		return CARD_NONE;
	int rank = -1;
	if (s[0] == '1' && s[1] == '0') {
		s += 2;
		rank = (int)(strchr(p->codes, 'T') - p->codes);
	} else {
		const char *at = strchr(p->codes, upper((unsigned char)s[0]));
		if (!at)
			return CARD_NONE;
		rank = (int)(at - p->codes);
		s++;
	}
	for (int x = 0; x < SUIT_COUNT; x++)
		if (s[0] && upper((unsigned char)s[0]) == suit_letter(x) && s[1] == '\0')
			return g304_pack_card(p, x, rank);
	return CARD_NONE;
}

/* Six-player 304's pack's codes (the game's code functions). */
void g304_36_code(card c, char out[8]) { g304_pack_code(&g304_pack_36, c, out); }
card g304_36_parse(const char *s) { return g304_pack_parse(&g304_pack_36, s); }

/* The short six-player game's names for its pack's codes. */
void g304_24_code(card c, char out[8]) { g304_pack_code(&g304_pack_24, c, out); }
card g304_24_parse(const char *s) { return g304_pack_parse(&g304_pack_24, s); }
void g304_504_code(card c, char out[8]) { g304_pack_code(&g304_pack_504, c, out); }
card g304_504_parse(const char *s) { return g304_pack_parse(&g304_pack_504, s); }
void g304_904_code(card c, char out[8]) { g304_pack_code(&g304_pack_904, c, out); }
card g304_904_parse(const char *s) { return g304_pack_parse(&g304_pack_904, s); }
