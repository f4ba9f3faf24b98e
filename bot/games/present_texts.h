/* present_texts.h: the registry of the games' own lines: each game's list of
 * ids with their English (bot/games/present_<game>_text.h), joined to the
 * host's in bot/text/text.h (TEXT_ALL), and each game's lines in the other
 * languages (present_<game>_<lang>.inc), included into a language's table
 * (bot/text/text_<lang>.c) where that table defines PRESENT_TEXTS_IN(game)
 * as the name of the game's file. A game is one line in each list below. */
#ifndef CARDBOT_PRESENT_TEXTS_H
#define CARDBOT_PRESENT_TEXTS_H

#include "present_304_text.h"
#include "present_t304_text.h"
#include "present_rook_text.h"

#define PRESENT_TEXTS(X) \
	PRESENT_304_TEXT(X) \
	PRESENT_T304_TEXT(X) \
	PRESENT_ROOK_TEXT(X)

#endif

#ifdef PRESENT_TEXTS_IN
#include PRESENT_TEXTS_IN(304)
#include PRESENT_TEXTS_IN(t304)
#include PRESENT_TEXTS_IN(rook)
#undef PRESENT_TEXTS_IN
#endif
