/* render.c: card and hand text for chat, both ways (showing and reading). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "render.h"

#define IRC_COLOUR "\x03"
#define IRC_RED "04"

void sb_init(strbuf *b, char *mem, size_t cap)
{
	b->s = mem;
	b->cap = cap;
	b->len = 0;
	if (cap)
		mem[0] = '\0';
}

void sb_addn(strbuf *b, const char *s, size_t n)
{
	if (!b->cap)
		return;
	size_t room = b->cap - 1 - b->len;
	if (n > room)
		n = room;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_add(strbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }

void sb_printf(strbuf *b, const char *fmt, ...)
{
	if (!b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= b->cap)
		b->len = b->cap - 1; /* cut short, deliberately */
}

static const char *const suit_symbols[SUIT_COUNT] = { "\xe2\x99\xa0", "\xe2\x99\xa5", "\xe2\x99\xa6", "\xe2\x99\xa3" };
static const char *const rank_text[RANK_COUNT] = { "7", "8", "Q", "K", "10", "A", "9", "J" };

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

void render_card(strbuf *b, card c, int style)
{
	if (c >= CARD_COUNT) {
		sb_add(b, "??");
		return;
	}
	int suit = card_suit(c);
	int red = suit == SUIT_HEARTS || suit == SUIT_DIAMONDS;
	if (style == RENDER_COLOUR && red)
		sb_add(b, IRC_COLOUR IRC_RED);
	sb_add(b, rank_text[card_rank(c)]);
	sb_add(b, render_suit_symbol(suit, style));
	if (style == RENDER_COLOUR && red)
		sb_add(b, IRC_COLOUR);
}

/* Display order: spades, hearts, diamonds, clubs; strongest first. */
static int hand_order(cardset hand, card out[CARD_COUNT])
{
	int n = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = RANK_COUNT - 1; r >= 0; r--) {
			card c = card_make(s, r);
			if (hand & card_bit(c))
				out[n++] = c;
		}
	return n;
}

void render_hand(strbuf *b, cardset hand, int style, int numbered)
{
	card order[CARD_COUNT];
	int n = hand_order(hand, order);
	for (int i = 0; i < n; i++) {
		if (i)
			sb_add(b, " ");
		if (numbered)
			sb_printf(b, "%d:", i + 1);
		render_card(b, order[i], style);
	}
	if (!n)
		sb_add(b, "(none)");
}

card render_hand_at(cardset hand, int pos)
{
	card order[CARD_COUNT];
	int n = hand_order(hand, order);
	return pos >= 1 && pos <= n ? order[pos - 1] : CARD_NONE;
}

card render_parse_card(const char *text)
{
	char buf[8];
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)text;
	/* Skip colour codes a client may paste back, and spaces. */
	while (*p && n < sizeof buf - 1) {
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
		return CARD_NONE;
	buf[n] = '\0';
	return card_parse(buf);
}
