/* render.h: cards, hands and tricks as chat text: suit symbols with red hearts
 * and diamonds (mIRC colour codes), or plain ASCII for clients that show boxes. */
#ifndef CARDBOT_RENDER_H
#define CARDBOT_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include "card.h"
#include "game.h"
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

/* Takes mIRC formatting (colours, bold, reset) out of s, in place: a card
 * as rendered becomes one a player can type back ("Q\u2665", "14R").
 * Returns the new length. */
size_t render_plain(char *s);

/* Parses a card as a player may type it: "js", "J♠", "10h", "th", "TH",
 * "j s", "J of spades" is not accepted. Returns CARD_NONE if unreadable. */
card render_parse_card(const char *text);

/* ---- a game's own pack, through its game_def: card c is suit * ranks +
 * rank, weakest rank first (ranks: deck_size / 4), and def->card_code and
 * card_parse name it ("6S", "3D"; 32 cards as above). The same as above,
 * in that pack. */
void render_card_of(strbuf *b, const game_def *def, card c, int style);
void render_hand_of(strbuf *b, const game_def *def, uint64_t hand, int style, int numbered);
card render_hand_of_at(const game_def *def, uint64_t hand, int pos);
card render_parse_card_of(const game_def *def, const char *text);

/* For a game's own cards (its presentation, bot/present_*.c): the mIRC
 * colour code that starts and ends a coloured run; what goes before the
 * i-th card of a shown hand (from 0): a space after the first, then "N:"
 * when the hand is numbered for "!p N". */
#define RENDER_IRC_COLOUR "\x03"
void render_hand_gap(strbuf *b, int i, int numbered);

#endif
