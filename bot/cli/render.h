/* render.h: cards, hands and tricks as chat text: suit symbols with red hearts
 * and diamonds (mIRC colour codes), or plain ASCII for clients that show boxes. */
#ifndef CARDBOT_RENDER_H
#define CARDBOT_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include "card.h"
#include "strbuf.h"

enum render_style { RENDER_COLOUR, RENDER_ASCII };

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

/* ---- six-player 304 (36 cards: engine/g304/g304six.h numbering, suit * 9 +
 * rank, rank 0 the six) ----
 * The same as above, the six written "6". */
void render_card6(strbuf *b, card c, int style);
void render_hand6(strbuf *b, uint64_t hand, int style, int numbered);
card render_hand6_at(uint64_t hand, int pos);
card render_parse_card6(const char *text);

/* ---- Rook (57 cards: engine/rook/rook.h numbering, 56 is the bird) ----
 * A card is its number and colour letter ("14R", "5B") in the colour's mIRC
 * colour (Red 04, Green 03, Yellow 07, Black 14: readable on light and dark
 * backgrounds), or plain with RENDER_ASCII; the bird is "ROOK" (bold). */
void render_rook_card(strbuf *b, int c, int style);
/* A colour in words ("Red"), coloured unless RENDER_ASCII. */
void render_rook_colour(strbuf *b, int colour, int style);
/* The same with the colour's name given (in the reader's language). */
void render_rook_colour_word(strbuf *b, int colour, const char *name, int style);
/* The cards of a 57-card set by colour (R G Y B, the trump colour first
 * when trump >= 0) and strength, highest first; the bird last (with the
 * trumps when trump >= 0). numbered: "1:" positions as for !play. */
void render_rook_hand(strbuf *b, uint64_t hand, int trump, int style, int numbered);
/* The card at 1-based position pos of render_rook_hand's order, or -1. */
int render_rook_hand_at(uint64_t hand, int trump, int pos);

#endif
