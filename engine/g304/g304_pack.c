/* g304_pack.c: the packs of 304's table sizes (g304_pack.h). */
#include "g304_pack.h"

const g304_pack g304_pack_32 = { 8, { 0, 0, 2, 3, 10, 11, 20, 30 } };
const g304_pack g304_pack_36 = { 9, { 0, 0, 0, 2, 3, 10, 11, 20, 30 } };

int g304_pack_set_points(const g304_pack *p, uint64_t s)
{
	int total = 0;
	for (; s; s &= s - 1)
		total += g304_pack_points(p, (card)__builtin_ctzll(s));
	return total;
}
