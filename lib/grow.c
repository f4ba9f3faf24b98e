/* grow.c: room for one more item at the end of a growable array. */
#include <stdlib.h>
#include "grow.h"

void *grow_room(void *items, size_t size, size_t n, size_t *cap, size_t first)
{
	if (n < *cap)
		return items;
	size_t room = *cap ? *cap * 2 : first;
	void *p = realloc(items, room * size);
	if (p)
		*cap = room;
	return p;
}
