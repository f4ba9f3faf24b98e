/* text_lang.h: the languages the bot speaks, each a table of every line
 * (bot/text/text.h's TEXT_LIST ids); a game's own sentences in each (its
 * presentation's text_game: refusals and phases); finding one by its code;
 * writing a line in one, falling back to English for any missing entry. */
#ifndef CARDBOT_TEXT_LANG_H
#define CARDBOT_TEXT_LANG_H

#include <stddef.h>
#include "game.h"
#include "text.h"

typedef struct text_lang {
	const char *code;               /* "en", "ta", "si" */
	const char *name;               /* in its own language: "English", "தமிழ்", "සිංහල" */
	const char *const *lines;       /* [T_COUNT] */
} text_lang;

/* The tables, one C file each (bot/text/text_en.c, bot/text/text_ta.c, bot/text/text_si.c).
 * An entry of ta or si may be NULL or "": the English is said instead. */
extern const char *const text_en_lines[T_COUNT], *const text_ta_lines[T_COUNT], *const text_si_lines[T_COUNT];
extern const text_lang text_lang_en, text_lang_ta, text_lang_si;

#define TEXT_LANGS 3 /* en, ta, si */
/* Every language, English first (static). */
extern const text_lang *const text_langs[TEXT_LANGS];

/* A game's own sentences in every language, in text_langs' order (English
 * first, with every entry; another language's table may be NULL, or hold
 * NULL or "" where the English is said): why its engine refused an action,
 * by its error code, and what the table is doing in each phase ({phase}),
 * by its phase number. The game's presentation holds them
 * (bot/games/present_<game>*.c). */
typedef struct text_game {
	const char *const *refusals[TEXT_LANGS];
	const char *const *phases[TEXT_LANGS];
	int nrefusals, nphases;
} text_game;

/* "en" "ta" "si" (case-insensitive); NULL if unknown (or NULL). */
const text_lang *text_lang_find(const char *code);
/* "en|si|ta": the codes, for usage lines and errors (static). */
const char *text_lang_codes(void);

/* Line id in lang (NULL: English), the English where lang has none; "" for
 * an id out of range. Never NULL. */
const char *text_line(const text_lang *lang, int id);

/* The command prefix {prefix} and {start} stand for ("!" until set; the
 * bot sets its own when it starts: one prefix a process). */
void text_prefix_set(const char *prefix);

/* As text_fmt and text_deal_refused (bot/text/text.h), in lang (NULL:
 * English). */
size_t text_fmt_in(const text_lang *lang, char *buf, size_t len, int id, int nargs, const char *const *args);
/* Writes into buf (always NUL-terminated when len > 0, cut short if need
 * be) why def's engine refused res, in lang (NULL: English), from the
 * game's sentences tg, in words addressed to the player who acted. A
 * sentence's placeholders stand for res->a: {seat} the name of seat a
 * (names by seat, borrowed; a NULL entry reads as "seat N"), {n} a as a
 * number, {suit} the suit a, {card} card_text when given (the card as its
 * reader's hand shows it) else the code of card a in def's pack, {phase}
 * what the table is doing in phase a. The only card a message ever names is
 * one the acting player named. Returns the length of the whole message,
 * like snprintf. */
size_t text_refusal_game_in(const text_lang *lang, const text_game *tg, const game_def *def, char *buf, size_t len,
			    const game_result *res, const char *const *names, const char *card_text);
size_t text_deal_refused_in(const text_lang *lang, char *buf, size_t len, int over);

/* A suit (enum suit) in words, in lang (static; "no suit" out of range).
 * The engine's own words (suit_name) stay English, for records and the
 * CLI. */
const char *text_suit(const text_lang *lang, int suit);

#endif
