/* pack.h: the parts of a message packed into lines that fit a network's limit. */
#ifndef CARDBOT_PACK_H
#define CARDBOT_PACK_H

#include <stddef.h>

#define PACK_LINE_MAX 4096 /* longest line pack_parts hands over (longer parts are cut) */

/* Joins parts[0..n) with sep into as few lines as fit in max bytes each,
 * in order, and calls line(ctx, text) for each. A part longer than max
 * goes alone on its line (the network cuts it further). Returns the
 * number of lines. */
int pack_parts(const char *const *parts, int n, const char *sep, size_t max,
	       void (*line)(void *ctx, const char *text), void *ctx);

#endif
