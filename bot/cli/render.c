/* render.c: card and hand text for chat, both ways (showing and reading). */
#include <stdio.h>
#include <string.h>
#include "render.h"
#include "g304six.h"
#include "rook.h"

#define IRC_COLOUR "\x03"
#define IRC_RED "04"

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

void render_card(strbuf *b, card c, int style)
{
	if (c >= CARD_COUNT) {
		sb_add(b, "??");
		return;
	}
	suited(b, rank_text[card_rank(c)], card_suit(c), style);
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

/* What goes before the i-th card of a shown hand (from 0): a space after
 * the first, then "N:" when the hand is numbered for "!p N". */
static void hand_gap(strbuf *b, int i, int numbered)
{
	if (i)
		sb_add(b, " ");
	if (numbered)
		sb_printf(b, "%d:", i + 1);
}

/* n cards in display order as a hand, each by `one` (either pack). */
static void hand_text(strbuf *b, const card *order, int n, int style, int numbered, void (*one)(strbuf *, card, int))
{
	for (int i = 0; i < n; i++) {
		hand_gap(b, i, numbered);
		one(b, order[i], style);
	}
	if (!n)
		sb_add(b, "(none)");
}

static card order_at(const card *order, int n, int pos)
{
	return pos >= 1 && pos <= n ? order[pos - 1] : CARD_NONE;
}

void render_hand(strbuf *b, cardset hand, int style, int numbered)
{
	card order[CARD_COUNT];
	hand_text(b, order, hand_order(hand, order), style, numbered, render_card);
}

card render_hand_at(cardset hand, int pos)
{
	card order[CARD_COUNT];
	return order_at(order, hand_order(hand, order), pos);
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

/* ---- six-player 304 ---- */

void render_card6(strbuf *b, card c, int style)
{
	if (c >= G6_CARDS) {
		sb_add(b, "??");
		return;
	}
	suited(b, g6_rank(c) ? rank_text[g6_rank(c) - 1] : "6", g6_suit(c), style);
}

/* Display order as for 32 cards: S H D C, strongest first, the six last. */
static int hand6_order(uint64_t hand, card out[G6_CARDS])
{
	int n = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = G6_RANKS - 1; r >= 0; r--)
			if (hand & g6_bit(g6_make(s, r)))
				out[n++] = g6_make(s, r);
	return n;
}

void render_hand6(strbuf *b, uint64_t hand, int style, int numbered)
{
	card order[G6_CARDS];
	hand_text(b, order, hand6_order(hand, order), style, numbered, render_card6);
}

card render_hand6_at(uint64_t hand, int pos)
{
	card order[G6_CARDS];
	return order_at(order, hand6_order(hand, order), pos);
}

card render_parse_card6(const char *text)
{
	char buf[8];
	return typed_code(text, buf) ? g6_parse(buf) : CARD_NONE;
}

/* ---- Rook ---- */

static const char *const rook_irc[4] = { "04", "03", "07", "14" };

void render_rook_card(strbuf *b, int c, int style)
{
	if (c < 0 || c >= ROOK_CARDS) {
		sb_add(b, "??");
		return;
	}
	char code[5];
	rook_code((rcard)c, code);
	if (style == RENDER_ASCII) {
		sb_add(b, code);
	} else if (c == ROOK_BIRD) {
		sb_add(b, "\x02ROOK\x02");
	} else {
		sb_add(b, IRC_COLOUR);
		sb_add(b, rook_irc[rook_colour((rcard)c)]);
		sb_add(b, code);
		sb_add(b, IRC_COLOUR);
	}
}

void render_rook_colour(strbuf *b, int colour, int style)
{
	render_rook_colour_word(b, colour, rook_colour_name(colour), style);
}

void render_rook_colour_word(strbuf *b, int colour, const char *name, int style)
{
	if (colour < 0 || colour > 3) {
		sb_add(b, "?");
		return;
	}
	if (style != RENDER_ASCII) {
		sb_add(b, IRC_COLOUR);
		sb_add(b, rook_irc[colour]);
	}
	char word[64]; /* a colour's name in any language */
	snprintf(word, sizeof word, "%s", name);
	if (word[0] >= 'a' && word[0] <= 'z')
		word[0] = (char)(word[0] - 'a' + 'A');
	sb_add(b, word);
	if (style != RENDER_ASCII)
		sb_add(b, IRC_COLOUR);
}

static int rook_order(uint64_t hand, int trump, int out[ROOK_CARDS])
{
	int n = 0;
	int colours[4] = { 0, 1, 2, 3 };
	if (trump >= 0 && trump < 4) {
		colours[0] = trump;
		for (int i = 0, k = 1; i < 4; i++)
			if (i != trump)
				colours[k++] = i;
	}
	for (int i = 0; i < 4; i++) {
		int col = colours[i];
		/* strongest first: 1, then 14 down to 2 */
		if (hand >> (col * 14) & 1)
			out[n++] = col * 14;
		for (int num = 14; num >= 2; num--)
			if (hand >> (col * 14 + num - 1) & 1)
				out[n++] = col * 14 + num - 1;
		if (i == 0 && trump >= 0 && (hand >> ROOK_BIRD & 1))
			out[n++] = ROOK_BIRD;
	}
	if (trump < 0 && (hand >> ROOK_BIRD & 1))
		out[n++] = ROOK_BIRD;
	return n;
}

void render_rook_hand(strbuf *b, uint64_t hand, int trump, int style, int numbered)
{
	int order[ROOK_CARDS];
	int n = rook_order(hand, trump, order);
	for (int i = 0; i < n; i++) {
		hand_gap(b, i, numbered);
		render_rook_card(b, order[i], style);
	}
}

int render_rook_hand_at(uint64_t hand, int trump, int pos)
{
	int order[ROOK_CARDS];
	int n = rook_order(hand, trump, order);
	return pos >= 1 && pos <= n ? order[pos - 1] : -1;
}
