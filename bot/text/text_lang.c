/* text_lang.c: the languages the bot speaks (a registry of the tables in
 * bot/text_*.c) and the writing of a line, a refusal or a phase in one, with
 * English wherever a table has no entry. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "card.h"
#include "text_lang.h"

const text_lang *const text_langs[TEXT_LANGS] = { &text_lang_en, &text_lang_ta, &text_lang_si };

const text_lang *text_lang_find(const char *code)
{
	for (int i = 0; code && i < TEXT_LANGS; i++)
		if (!strcasecmp(code, text_langs[i]->code))
			return text_langs[i];
	return NULL;
}

const char *text_lang_codes(void)
{
	return "en|si|ta";
}

/* One entry of a table, or English's when the table has none. */
static const char *pick(const char *const *mine, const char *const *en, int i)
{
	const char *s = mine ? mine[i] : NULL;
	return s && *s ? s : en[i];
}

const char *text_line(const text_lang *lang, int id)
{
	if (id < 0 || id >= T_COUNT)
		return "";
	return pick(lang ? lang->lines : NULL, text_en_lines, id);
}

static char prefix[16] = "!";

void text_prefix_set(const char *p)
{
	snprintf(prefix, sizeof prefix, "%s", p && *p ? p : "!");
}

/* A writer that never overruns buf and counts what it would have written. */
struct out {
	char *buf;
	size_t len, n;
};

static void put(struct out *o, const char *s, size_t slen)
{
	if (o->n + 1 < o->len) {
		size_t room = o->len - 1 - o->n;
		memcpy(o->buf + o->n, s, slen < room ? slen : room);
	}
	o->n += slen;
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

/* Ends the text: a cut falls on a character boundary (a Tamil letter is
 * three bytes, and half of one is no text at all). */
static size_t finish(struct out *o)
{
	if (o->len > 0) {
		size_t end = o->n < o->len ? o->n : o->len - 1;
		if (o->n >= o->len) {
			/* The last character kept: dropped unless whole. */
			size_t lead = end;
			while (lead > 0 && ((unsigned char)o->buf[lead - 1] & 0xC0) == 0x80)
				lead--;
			if (lead > 0) {
				unsigned char c = (unsigned char)o->buf[lead - 1];
				size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
				if (end - (lead - 1) < need)
					end = lead - 1;
			}
		}
		o->buf[end] = '\0';
	}
	return o->n;
}

const char *text_suit(const text_lang *lang, int suit)
{
	static const int ids[SUIT_COUNT] = { T_SUIT_SPADES, T_SUIT_HEARTS, T_SUIT_DIAMONDS, T_SUIT_CLUBS };
	return text_line(lang, suit >= 0 && suit < SUIT_COUNT ? ids[suit] : T_SUIT_NONE);
}

/* Writes the value of one refusal placeholder (name without braces) for
 * parameter a. */
static const char *game_pick(const char *const *const tables[TEXT_LANGS], const text_lang *lang, int i);

static void expand(const text_lang *lang, const text_game *tg, const game_def *def, struct out *o, const char *name,
		   size_t nlen, int a, int b, const char *const *names, const char *card_text)
{
	char tmp[32];
	if (nlen == 4 && !memcmp(name, "seat", 4)) {
		if (a < 0 || a >= def->max_seats) {
			puts_(o, text_line(lang, T_ANOTHER_PLAYER));
		} else if (names && names[a]) {
			puts_(o, names[a]);
		} else {
			char line[64];
			int k = snprintf(tmp, sizeof tmp, "%d", a);
			const char *args[1] = { tmp };
			if (k > 0 && (size_t)k < sizeof tmp) {
				text_fmt_in(lang, line, sizeof line, T_SEAT_N, 1, args);
				puts_(o, line);
			}
		}
	} else if (nlen == 1 && (name[0] == 'n' || name[0] == 'm')) {
		int k = snprintf(tmp, sizeof tmp, "%d", name[0] == 'n' ? a : b);
		if (k > 0 && (size_t)k < sizeof tmp)
			puts_(o, tmp);
	} else if (nlen == 4 && !memcmp(name, "suit", 4)) {
		puts_(o, text_suit(lang, a));
	} else if (nlen == 4 && !memcmp(name, "card", 4) && card_text) {
		puts_(o, card_text);
	} else if (nlen == 4 && !memcmp(name, "card", 4)) {
		if (a >= 0 && a < def->deck_size)
			def->card_code((uint8_t)a, tmp);
		else
			strcpy(tmp, "??");
		puts_(o, tmp);
	} else if (nlen == 5 && !memcmp(name, "phase", 5)) {
		puts_(o, tg && a >= 0 && a < tg->nphases ? game_pick(tg->phases, lang, a) : text_line(lang, T_PHASE_NOW));
	} else {
		/* Not a placeholder: keep the text as written. */
		put(o, name - 1, nlen + 2);
	}
}

/* Where lang stands in text_langs, or -1 (a language of no table: English). */
static int lang_index(const text_lang *lang)
{
	for (int i = 0; lang && i < TEXT_LANGS; i++)
		if (text_langs[i] == lang)
			return i;
	return -1;
}

/* Entry i of a game's table in lang, else the English (table 0). */
static const char *game_pick(const char *const *const tables[TEXT_LANGS], const text_lang *lang, int i)
{
	int k = lang_index(lang);
	return pick(k > 0 ? tables[k] : NULL, tables[0], i);
}

size_t text_refusal_game_in(const text_lang *lang, const text_game *tg, const game_def *def, char *buf, size_t len,
			    const game_result *res, const char *const *names, const char *card_text)
{
	struct out o = { buf, len, 0 };
	const char *t = text_line(lang, T_NOT_ALLOWED);
	if (tg && res && res->err >= 0 && res->err < tg->nrefusals)
		t = game_pick(tg->refusals, lang, res->err);
	int a = res ? res->a : 0, b = res ? res->b : 0;
	while (*t) {
		const char *open = strchr(t, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			puts_(&o, t);
			break;
		}
		put(&o, t, (size_t)(open - t));
		expand(lang, tg, def, &o, open + 1, (size_t)(close - open - 1), a, b, names, card_text);
		t = close + 1;
	}
	return finish(&o);
}

size_t text_deal_refused_in(const text_lang *lang, char *buf, size_t len, int over)
{
	struct out o = { buf, len, 0 };
	puts_(&o, text_line(lang, over ? T_DEAL_OVER : T_DEAL_IN_PROGRESS));
	return finish(&o);
}

size_t text_fmt_in(const text_lang *lang, char *buf, size_t len, int id, int nargs, const char *const *args)
{
	struct out o = { buf, len, 0 };
	const char *t = text_line(lang, id);
	while (*t) {
		if (t[0] == '{' && t[1] >= '1' && t[1] <= '9' && t[2] == '}') {
			int k = t[1] - '1';
			if (k < nargs && args && args[k])
				puts_(&o, args[k]);
			t += 3;
		} else if (!strncmp(t, "{start}", 7)) {
			puts_(&o, prefix);
			puts_(&o, "start");
			t += 7;
		} else if (!strncmp(t, "{prefix}", 8)) {
			puts_(&o, prefix);
			t += 8;
		} else {
			put(&o, t, 1);
			t++;
		}
	}
	return finish(&o);
}
