/* casemap.c: IRC's default (RFC 1459) case mapping (see casemap.h). */
#include "casemap.h"

int casemap_lower(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	switch (c) {
	case '[': return '{';
	case ']': return '}';
	case '\\': return '|';
	case '~': return '^';
	default: return c;
	}
}

int casemap_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (;; x++, y++) {
		int d = casemap_lower(*x) - casemap_lower(*y);
		if (d || !*x)
			return d;
	}
}
