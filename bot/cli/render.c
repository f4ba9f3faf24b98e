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

/* ---- a game's pack through its game_def (render.h) ---- */

/* A card from its code ("JS", "TH", "3D"): the rank as written ("10" for
 * T), the suit as a symbol or letter; "??" for anything else. */
static void card_from_code(strbuf *b, const char *code, int style)
{
	size_t n = strlen(code);
	const char *at = n == 2 ? strchr("SHDC", code[1]) : NULL;
	if (!at || !*at) {
		sb_add(b, "??");
		return;
	}
	char rank[3] = { code[0], '\0', '\0' };
	suited(b, rank[0] == 'T' ? "10" : rank, (int)(at - "SHDC"), style);
}

typedef void (*code_fn)(uint8_t c, char out[8]);

static void card_with(strbuf *b, code_fn code, int ncards, card c, int style)
{
	char buf[8] = "??";
	if (c < ncards)
		code(c, buf);
	card_from_code(b, buf, style);
}

/* Display order: S H D C, strongest first (card = suit * ranks + rank,
 * weakest rank first). */
static int pack_order(int ranks, uint64_t hand, card out[64])
{
	int n = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = ranks - 1; r >= 0; r--)
			if (hand >> (s * ranks + r) & 1)
				out[n++] = (card)(s * ranks + r);
	return n;
}

static void hand_with(strbuf *b, code_fn code, int ranks, uint64_t hand, int style, int numbered)
{
	card order[64];
	int n = pack_order(ranks, hand, order);
	for (int i = 0; i < n; i++) {
		render_hand_gap(b, i, numbered);
		card_with(b, code, ranks * SUIT_COUNT, order[i], style);
	}
	if (!n)
		sb_add(b, "(none)");
}

static void code_32(uint8_t c, char out[8]) { card_code(c, out); }

void render_card(strbuf *b, card c, int style) { card_with(b, code_32, CARD_COUNT, c, style); }
void render_hand(strbuf *b, cardset hand, int style, int numbered) { hand_with(b, code_32, RANK_COUNT, hand, style, numbered); }
card render_hand_at(cardset hand, int pos)
{
	card order[64];
	return order_at(order, pack_order(RANK_COUNT, hand, order), pos);
}

void render_card_of(strbuf *b, const game_def *def, card c, int style)
{
	card_with(b, def->card_code, def->deck_size, c, style);
}

void render_hand_of(strbuf *b, const game_def *def, uint64_t hand, int style, int numbered)
{
	hand_with(b, def->card_code, def->deck_size / SUIT_COUNT, hand, style, numbered);
}

card render_hand_of_at(const game_def *def, uint64_t hand, int pos)
{
	card order[64];
	return order_at(order, pack_order(def->deck_size / SUIT_COUNT, hand, order), pos);
}

card render_parse_card_of(const game_def *def, const char *text)
{
	char buf[8];
	return typed_code(text, buf) ? def->card_parse(buf) : CARD_NONE;
}
