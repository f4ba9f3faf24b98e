/* render.c: card and hand text for chat, both ways (showing and reading). */
#include <stdio.h>
#include <string.h>
#include "render.h"

#define IRC_COLOUR RENDER_IRC_COLOUR
#define IRC_RED "04"

static const char *const suit_symbols[SUIT_COUNT] = { "\xe2\x99\xa0", "\xe2\x99\xa5", "\xe2\x99\xa6", "\xe2\x99\xa3" };

const char *render_suit_symbol(int suit, int style)
{
	if (suit < 0 || suit >= SUIT_COUNT)
		return "?";
	if (style == RENDER_ASCII) {
		static const char *const letters[SUIT_COUNT] = { "S", "H", "D", "C" };
		return letters[suit];
	}
	return suit_symbols[suit];
}

static void suited(strbuf *b, const char *rank, int suit, int style)
{
	int red = suit == SUIT_HEARTS || suit == SUIT_DIAMONDS;
	if (style == RENDER_COLOUR && red)
		sb_add(b, IRC_COLOUR IRC_RED);
	sb_add(b, rank);
	sb_add(b, render_suit_symbol(suit, style));
	if (style == RENDER_COLOUR && red)
		sb_add(b, IRC_COLOUR);
}

void render_card(strbuf *b, card c, int style) { render_card_in(b, &g304_pack_32, c, style); }

void render_hand_gap(strbuf *b, int i, int numbered)
{
	if (i)
		sb_add(b, " ");
	if (numbered)
		sb_printf(b, "%d:", i + 1);
}

static card order_at(const card *order, int n, int pos)
{
	return pos >= 1 && pos <= n ? order[pos - 1] : CARD_NONE;
}

void render_hand(strbuf *b, cardset hand, int style, int numbered) { render_hand_in(b, &g304_pack_32, hand, style, numbered); }

card render_hand_at(cardset hand, int pos) { return render_hand_in_at(&g304_pack_32, hand, pos); }

size_t render_plain(char *s)
{
	char *w = s;
	for (const char *p = s; *p;) {
		if (*p == 0x03) { /* colour: up to two digits, then ",NN" for a background */
			p++;
			for (int k = 0; k < 2 && *p >= '0' && *p <= '9'; k++)
				p++;
			if (p[0] == ',' && p[1] >= '0' && p[1] <= '9') {
				p++;
				for (int k = 0; k < 2 && *p >= '0' && *p <= '9'; k++)
					p++;
			}
		} else if (*p == 0x02 || *p == 0x0f || *p == 0x16 || *p == 0x1d || *p == 0x1f) {
			p++;
		} else {
			*w++ = *p++;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}

/* A card as typed, cleaned into a code ("JS", "10H"): colour codes, spaces
 * and suit symbols taken out or into letters. 0 if too long. */
static int typed_code(const char *text, char buf[8])
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)text;
	/* Skip colour codes a client may paste back, and spaces. */
	while (*p && n < 7) {
		if (*p == 0x03) {
			p++;
			for (int k = 0; k < 2 && *p >= '0' && *p <= '9'; k++)
				p++;
			continue;
		}
		if (*p == ' ' || *p == 0x0f || *p == 0x02) {
			p++;
			continue;
		}
		/* Suit symbols (U+2660..U+2667, black and white forms). */
		if (p[0] == 0xe2 && p[1] == 0x99 && p[2] >= 0xa0 && p[2] <= 0xa7) {
			static const char map[8] = { 'S', 'H', 'D', 'C', 'S', 'H', 'D', 'C' };
			buf[n++] = map[p[2] - 0xa0];
			p += 3;
			continue;
		}
		buf[n++] = (char)*p++;
	}
	if (*p)
		return 0;
	buf[n] = '\0';
	return 1;
}

card render_parse_card(const char *text)
{
	char buf[8];
	return typed_code(text, buf) ? card_parse(buf) : CARD_NONE;
}

/* ---- 304's packs at every table size (g304_pack.h numbering) ---- */

void render_card_in(strbuf *b, const g304_pack *p, card c, int style)
{
	if (c >= g304_pack_cards(p)) {
		sb_add(b, "??");
		return;
	}
	char rank[3] = { p->codes[g304_pack_rank(p, c)], '\0', '\0' };
	suited(b, rank[0] == 'T' ? "10" : rank, g304_pack_suit_of(p, c), style);
}

/* Display order: S H D C, strongest first. */
static int pack_order(const g304_pack *p, uint64_t hand, card out[64])
{
	int n = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = p->ranks - 1; r >= 0; r--)
			if (hand & g304_pack_bit(g304_pack_card(p, s, r)))
				out[n++] = g304_pack_card(p, s, r);
	return n;
}

void render_hand_in(strbuf *b, const g304_pack *p, uint64_t hand, int style, int numbered)
{
	card order[64];
	int n = pack_order(p, hand, order);
	for (int i = 0; i < n; i++) {
		render_hand_gap(b, i, numbered);
		render_card_in(b, p, order[i], style);
	}
	if (!n)
		sb_add(b, "(none)");
}

card render_hand_in_at(const g304_pack *p, uint64_t hand, int pos)
{
	card order[64];
	return order_at(order, pack_order(p, hand, order), pos);
}

card render_parse_card_in(const g304_pack *p, const char *text)
{
	char buf[8];
	return typed_code(text, buf) ? g304_pack_parse(p, buf) : CARD_NONE;
}
