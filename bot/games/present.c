/* present.c: the list of games a table can host, each with its presentation. */
#include <stddef.h>
#include <stdio.h>
#include <strings.h>
#include "present.h"
#include "text_lang.h"

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
