/* strbuf.c: a text buffer, fixed or growable (see strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

/* A growable buffer's first allocation: most of what is built fits. */
#define SB_FIRST_CAP 256

/* memset through a volatile pointer: a wipe before free that the compiler
 * may not leave out (a relay's buffer held the SASL secret). */
static void *(*const volatile wipe)(void *, int, size_t) = memset;

void sb_init(strbuf *b, char *mem, size_t cap)
{
	b->s = mem;
	b->cap = cap;
	b->len = 0;
	b->max = 0;
	b->cut = 0;
	if (cap)
		mem[0] = '\0';
}

void sb_init_grow(strbuf *b, size_t max)
{
	b->s = NULL;
	b->len = b->cap = 0;
	b->max = max;
	b->cut = 0;
}

/* Room for n more bytes and the NUL in a growable buffer: 0, or -1 (over
 * max or out of memory). The old memory is wiped as it is left. */
static int grow(strbuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return 0;
	if (n >= b->max || b->len + n + 1 > b->max)
		return -1;
	size_t cap = b->cap ? b->cap : SB_FIRST_CAP < b->max ? SB_FIRST_CAP : b->max;
	while (cap < b->len + n + 1)
		cap = cap > b->max / 2 ? b->max : cap * 2;
	char *s = malloc(cap);
	if (!s)
		return -1;
	if (b->s) {
		memcpy(s, b->s, b->len + 1);
		wipe(b->s, 0, b->cap);
		free(b->s);
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

int sb_addn(strbuf *b, const char *s, size_t n)
{
	int whole = 1;
	if (b->max) {
		if (grow(b, n) < 0) {
			b->cut = 1;
			return -1;
		}
	} else if (!b->cap) {
		b->cut = b->cut || n > 0;
		return n ? -1 : 0;
	} else if (n > b->cap - 1 - b->len) {
		n = b->cap - 1 - b->len;
		b->cut = 1;
		whole = 0;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return whole ? 0 : -1;
}

int sb_add(strbuf *b, const char *s) { return sb_addn(b, s, strlen(s)); }

void sb_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char probe[1];
	int n = b->max ? vsnprintf(probe, sizeof probe, fmt, ap) : 0;
	va_end(ap);
	if (n < 0 || (b->max && grow(b, (size_t)n) < 0)) {
		b->cut = 1;
		return;
	}
	if (!b->cap) {
		b->cut = 1;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= b->cap) {
		b->len = b->cap - 1; /* cut short, deliberately */
		b->cut = 1;
	}
}

void sb_drop(strbuf *b, size_t n)
{
	if (n > b->len)
		n = b->len;
	if (!n)
		return;
	memmove(b->s, b->s + n, b->len - n);
	b->len -= n;
	b->s[b->len] = '\0';
}

char *sb_take(strbuf *b)
{
	char *s = b->cut ? NULL : b->s ? b->s : calloc(1, 1);
	if (s == b->s)
		b->s = NULL;
	sb_release(b);
	return s;
}

void sb_release(strbuf *b)
{
	if (!b->max)
		return;
	if (b->s) {
		wipe(b->s, 0, b->cap);
		free(b->s);
	}
	size_t max = b->max;
	sb_init_grow(b, max);
}
