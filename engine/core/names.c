/* names.c: looking up a game's words both ways. */
#include <string.h>
#include "names.h"

const char *names_get(const char *const *words, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? words[i] : "?";
}

int names_find(const char *(*name)(int), int count, const char *word)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(word, name(i)))
			return i;
	return -1;
}
