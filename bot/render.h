/* render.h: cards, hands and tricks as chat text: suit symbols with red hearts
 * and diamonds (mIRC colour codes), or plain ASCII for clients that show boxes. */
#ifndef CARDBOT_RENDER_H
#define CARDBOT_RENDER_H

#include <stddef.h>
#include "card.h"

enum render_style { RENDER_COLOUR, RENDER_ASCII };

/* A growing text buffer with a fixed capacity: appends are cut, never overflow. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
} strbuf;
void sb_init(strbuf *b, char *mem, size_t cap);
void sb_add(strbuf *b, const char *s);
void sb_addn(strbuf *b, const char *s, size_t n);
__attribute__((format(printf, 2, 3))) void sb_printf(strbuf *b, const char *fmt, ...);

/* "J♠" (red for hearts and diamonds) or "JS"; the ten is written "10". */
void render_card(strbuf *b, card c, int style);
/* A suit in words ("spades") or as a symbol. */
const char *render_suit_symbol(int suit, int style);
/* The cards of a set sorted by suit (S H D C) and strength, highest first;
 * with numbered = 1 each is prefixed "1:" and so on, as positions for !play. */
void render_hand(strbuf *b, cardset hand, int style, int numbered);
/* The card at 1-based position pos of render_hand's order, or CARD_NONE. */
card render_hand_at(cardset hand, int pos);

/* Parses a card as a player may type it: "js", "J♠", "10h", "th", "TH",
 * "j s", "J of spades" is not accepted. Returns CARD_NONE if unreadable. */
card render_parse_card(const char *text);

#endif
