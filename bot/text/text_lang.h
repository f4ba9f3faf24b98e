/* text_lang.h: the languages the bot speaks, each a table of every line
 * (bot/text/text.h's TEXT_LIST ids), refusal and phase; finding one by its code;
 * writing a line in one, falling back to English for any missing entry. */
#ifndef CARDBOT_TEXT_LANG_H
#define CARDBOT_TEXT_LANG_H

#include <stddef.h>
#include "g304.h"
#include "game.h"
#include "text.h"

typedef struct text_lang {
	const char *code;               /* "en", "ta", "si" */
	const char *name;               /* in its own language: "English", "தமிழ்", "සිංහල" */
	const char *const *lines;       /* [T_COUNT] */
	const char *const *refusals;    /* [G304_ERR_COUNT] */
	const char *const *phases;      /* [G304_PHASE_COUNT] */
} text_lang;

/* The tables, one C file each (bot/text/text_en.c, bot/text/text_ta.c, bot/text/text_si.c).
 * An entry of ta or si may be NULL or "": the English is said instead. */
extern const char *const text_en_lines[T_COUNT], *const text_en_refusals[G304_ERR_COUNT],
	*const text_en_phases[G304_PHASE_COUNT];
extern const char *const text_ta_lines[T_COUNT], *const text_ta_refusals[G304_ERR_COUNT],
	*const text_ta_phases[G304_PHASE_COUNT];
extern const char *const text_si_lines[T_COUNT], *const text_si_refusals[G304_ERR_COUNT],
	*const text_si_phases[G304_PHASE_COUNT];
extern const text_lang text_lang_en, text_lang_ta, text_lang_si;

#define TEXT_LANGS 3 /* en, ta, si */
/* Every language, English first (static). */
extern const text_lang *const text_langs[TEXT_LANGS];

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

/* As text_fmt, text_refusal and text_deal_refused (bot/text/text.h), in lang
 * (NULL: English). */
size_t text_fmt_in(const text_lang *lang, char *buf, size_t len, int id, int nargs, const char *const *args);
size_t text_refusal_in(const text_lang *lang, char *buf, size_t len, const game_result *res,
		       const char *const names[G304_SEATS]);
/* As text_refusal_in, for a game that shares 304's refusals (304, 304six):
 * seats up to def->max_seats; {card} is card_text when given (the card as
 * its reader's hand shows it), else the card's code in def's pack. */
size_t text_refusal_game_in(const text_lang *lang, const game_def *def, char *buf, size_t len,
			    const game_result *res, const char *const *names, const char *card_text);
size_t text_deal_refused_in(const text_lang *lang, char *buf, size_t len, int over);

/* A suit (enum suit) or a Rook colour (enum rook_colour) in words, in lang
 * (static; "no suit" / "?" out of range). The engine's own words
 * (suit_name, rook_colour_name) stay English, for records and the CLI. */
const char *text_suit(const text_lang *lang, int suit);
const char *text_rook_colour(const text_lang *lang, int colour);

#endif
