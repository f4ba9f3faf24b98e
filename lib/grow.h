/* grow.h: room for one more item at the end of a growable array. */
#ifndef CARDBOT_GROW_H
#define CARDBOT_GROW_H

#include <stddef.h>

/* items holds n items of size bytes in room for *cap: returns items when
 * there is room for one more, else items moved to twice the room (first
 * items' room when *cap is 0) with *cap updated; NULL when out of memory
 * (items and *cap unchanged: the caller still owns items). */
void *grow_room(void *items, size_t size, size_t n, size_t *cap, size_t first);

#endif
