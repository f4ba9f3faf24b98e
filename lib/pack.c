/* pack.c: see pack.h. */
#include <string.h>
#include "pack.h"

int pack_parts(const char *const *parts, int n, const char *sep, size_t max,
	       void (*line)(void *ctx, const char *text), void *ctx)
{
	char buf[PACK_LINE_MAX];
	size_t used = 0, seplen = strlen(sep);
	int lines = 0, inline_parts = 0;
	if (max >= sizeof buf)
		max = sizeof buf - 1;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(parts[i]);
		if (inline_parts && used + seplen + len > max) {
			line(ctx, buf);
			lines++;
			used = 0;
			inline_parts = 0;
		}
		if (inline_parts) {
			memcpy(buf + used, sep, seplen);
			used += seplen;
		}
		size_t room = sizeof buf - 1 - used;
		if (len > room)
			len = room;
		memcpy(buf + used, parts[i], len);
		used += len;
		buf[used] = '\0';
		inline_parts++;
	}
	if (inline_parts) {
		line(ctx, buf);
		lines++;
	}
	return lines;
}
