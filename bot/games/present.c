/* present.c: the list of games a table can host, each with its presentation. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "present.h"
#include "text_lang.h"
#include "utf8.h"

/* The registry: every game a table can host. The first is the one a table
 * opens when nothing names another, and the game of table metas saved
 * before there were several (bot/table/table_store.c): keep it first. */
static const present *const presentations[] = { &present_304, &present_304six, &present_304eight, &present_304six24,
						     &present_504, &present_904, &present_trump304,
						     &present_rook };

const present *present_find(const game_def *def)
{
	for (size_t i = 0; i < sizeof presentations / sizeof presentations[0]; i++)
		if (presentations[i]->def == def)
			return presentations[i];
	return NULL;
}

const present *present_at(int i)
{
	return i >= 0 && (size_t)i < sizeof presentations / sizeof presentations[0] ? presentations[i] : NULL;
}

void present_names(char *out, size_t len, int titles)
{
	int n = 0;
	while (present_at(n))
		n++;
	size_t o = 0;
	if (len)
		out[0] = '\0';
	for (int i = 0; i < n && o < len; i++) {
		const present *pr = present_at(i);
		const char *name = titles ? text_line(&text_lang_en, pr->t_name) : pr->def->name;
		int k = snprintf(out + o, len - o, titles ? "%s%s" : "%s\"%s\"",
				 i == 0 ? "" : i < n - 1 ? ", " : titles ? " and " : " or ", name);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}

/* Appends s to out[0..len) at *o, cut on a whole character. */
static void add_cut(char *out, size_t len, size_t *o, const char *s)
{
	size_t n = strlen(s), room = *o + 1 < len ? len - 1 - *o : 0;
	if (n > room) {
		n = room ? utf8_prefix(s, n, room) : 0;
		if (n > room)
			n = 0;
	}
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
}

void present_parts(const text_lang *lang, int part, const char *prefix, char *out, size_t len)
{
	if (!len)
		return;
	out[0] = '\0';
	if (part <= PRESENT_PART_NONE || part > PRESENT_PART_CAPS)
		return;
	/* How each sentence joins its games: the last with "or" in `help new`. */
	const char *sep = part == PRESENT_PART_STATS || part == PRESENT_PART_CUT ? "; " : ", ";
	const char *last = part == PRESENT_PART_NEW ? text_line(lang, T_LIST_OR) : sep;
	int from = part == PRESENT_PART_CAPS ? PRESENT_PART_STATS : part;
	const present *shown[sizeof presentations / sizeof presentations[0]];
	size_t n = 0, o = 0;
	for (size_t i = 0; i < sizeof presentations / sizeof presentations[0]; i++)
		if (presentations[i]->t_parts[from] && (part != PRESENT_PART_CAPS || presentations[i]->stats_caps))
			shown[n++] = presentations[i];
	for (size_t i = 0; i < n; i++) {
		char piece[1024];
		const char *args[1] = { prefix };
		if (part == PRESENT_PART_CAPS)
			snprintf(piece, sizeof piece, "%s", shown[i]->def->name);
		else
			text_fmt_in(lang, piece, sizeof piece, shown[i]->t_parts[part], 1, args);
		add_cut(out, len, &o, i == 0 ? "" : i + 1 < n ? sep : last);
		add_cut(out, len, &o, piece);
	}
}

const game_def *present_game(const char *name)
{
	const game_def *def = name ? game_find(name) : NULL;
	return def && present_find(def) ? def : NULL;
}

const game_option *present_option(const char *key, int nocase)
{
	const present *pr;
	for (int i = 0; (pr = present_at(i)); i++) {
		const game_option *o = game_option_find(pr->def, key, nocase);
		if (o)
			return o;
	}
	return NULL;
}

const game_option *present_option_at(int k)
{
	const present *pr;
	for (int i = 0; (pr = present_at(i)); i++)
		for (const game_option *o = pr->def->options; o && o->key; o++) {
			int earlier = 0; /* the first game to name a key speaks for it */
			for (int j = 0; j < i && !earlier; j++)
				earlier = game_option_find(present_at(j)->def, o->key, 0) != NULL;
			if (!earlier && k-- == 0)
				return o;
		}
	return NULL;
}

const present *present_by_verb(const char *word)
{
	const present *pr;
	for (int i = 0; (pr = present_at(i)); i++)
		if (pr->open_verb && !strcasecmp(pr->open_verb, word))
			return pr;
	return NULL;
}
