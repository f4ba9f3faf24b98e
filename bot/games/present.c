/* present.c: the list of games a table can host, each with its presentation. */
#include <stddef.h>
#include <stdio.h>
#include "present.h"

static const present *const presentations[] = { &present_304, &present_304six, &present_304eight, &present_304six24,
						     &present_trump304,
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

void present_names(char *out, size_t len)
{
	int n = 0;
	while (present_at(n))
		n++;
	size_t o = 0;
	if (len)
		out[0] = '\0';
	for (int i = 0; i < n && o < len; i++) {
		int k = snprintf(out + o, len - o, "%s\"%s\"", i == 0 ? "" : i == n - 1 ? " or " : ", ",
				 present_at(i)->def->name);
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
