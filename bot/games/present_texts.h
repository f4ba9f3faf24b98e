/* present_texts.h: the registry of the games' own lines: each game's list of
 * ids with their English (bot/games/present_<game>_text.h), one line each
 * below, joined to the host's in bot/text/text.h (TEXT_ALL). */
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
