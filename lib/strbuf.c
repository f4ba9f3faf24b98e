/* strbuf.c: a text buffer with a fixed capacity (see strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "strbuf.h"

void sb_init(strbuf *b, char *mem, size_t cap)
{
	b->s = mem;
	b->cap = cap;
	b->len = 0;
	if (cap)
		mem[0] = '\0';
}

void sb_addn(strbuf *b, const char *s, size_t n)
{
	if (!b->cap)
		return;
	size_t room = b->cap - 1 - b->len;
	if (n > room)
		n = room;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_add(strbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }

void sb_printf(strbuf *b, const char *fmt, ...)
{
	if (!b->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= b->cap)
		b->len = b->cap - 1; /* cut short, deliberately */
}
