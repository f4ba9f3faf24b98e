/* game_options.c: a game's options by their declared list (game.h, game_option). */
#include <string.h>
#include <strings.h>
#include "game.h"

const game_option *game_option_find(const game_def *def, const char *key, int nocase)
{
	for (const game_option *o = def->options; o && o->key; o++)
		if (nocase ? !strcasecmp(o->key, key) : !strcmp(o->key, key))
			return o;
	return NULL;
}

static int word_is(const char *a, const char *b, int nocase)
{
	return nocase ? !strcasecmp(a, b) : !strcmp(a, b);
}

int game_option_parse(const game_option *o, const char *word, int nocase)
{
	for (int i = 0; i < GAME_OPTION_WORDS && o->words[i]; i++)
		if (word_is(o->words[i], word, nocase))
			return i;
	if (o->alias && word_is(o->alias, word, nocase))
		return o->alias_of;
	if (o->onoff && nocase) {
		/* What people type for a switch in chat. */
		static const char *const yes[] = { "on", "yes", "true" }, *const no[] = { "off", "no", "false" };
		for (int i = 0; i < 3; i++) {
			if (!strcasecmp(word, yes[i]))
				return 1;
			if (!strcasecmp(word, no[i]))
				return 0;
		}
	}
	return -1;
}

const char *game_option_word(const game_option *o, int v)
{
	for (int i = 0; i < GAME_OPTION_WORDS && o->words[i]; i++)
		if (i == v)
			return o->words[i];
	return "?";
}

void game_rules_default(const game_def *def, game_rules *r)
{
	memset(r, 0, sizeof *r);
	for (const game_option *o = def->options; o && o->key; o++)
		if (o->off < GAME_RULES_MAX)
			r->b[o->off] = o->dflt;
}

int game_choices_set(game_choices *cs, const char *key, uint8_t value)
{
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].key, key)) {
			cs->c[i].value = value;
			return 0;
		}
	if (cs->n >= GAME_CHOICES_MAX)
		return -1;
	cs->c[cs->n].key = key;
	cs->c[cs->n++].value = value;
	return 0;
}

int game_choices_get(const game_choices *cs, const char *key)
{
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].key, key))
			return cs->c[i].value;
	return -1;
}

void game_rules_of(const game_def *def, const game_choices *cs, game_rules *r)
{
	game_rules_default(def, r);
	for (const game_option *o = def->options; o && o->key; o++) {
		int v = game_choices_get(cs, o->key);
		if (v >= 0 && v < GAME_OPTION_WORDS && o->words[v] && o->off < GAME_RULES_MAX)
			r->b[o->off] = (uint8_t)v;
	}
}

void game_choices_of(const game_def *def, const game_rules *r, game_choices *cs)
{
	for (const game_option *o = def->options; o && o->key; o++)
		if (o->off < GAME_RULES_MAX)
			game_choices_set(cs, o->key, r->b[o->off]);
}
