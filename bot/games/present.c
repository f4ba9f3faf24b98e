/* present.c: the list of games a table can host, each with its presentation. */
#include <stddef.h>
#include "present.h"

static const present *const presentations[] = { &present_304, &present_304six, &present_trump304, &present_rook };

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
