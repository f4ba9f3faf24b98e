/* casemap.c: names compared as an IRC server compares them (see casemap.h). */
#include <strings.h>

#include "casemap.h"

static const char *const names[] = {
	[CASEMAP_ASCII] = "ascii",
	[CASEMAP_RFC1459] = "rfc1459",
	[CASEMAP_STRICT_RFC1459] = "strict-rfc1459",
};

int casemap_parse(const char *value, casemap *out)
{
	*out = CASEMAP_ASCII;
	for (int i = 0; value && i < (int)(sizeof names / sizeof names[0]); i++)
		if (!strcasecmp(value, names[i])) {
			*out = (casemap)i;
			return 1;
		}
	return 0;
}

const char *casemap_name(casemap m)
{
	return m >= CASEMAP_ASCII && m <= CASEMAP_STRICT_RFC1459 ? names[m] : names[CASEMAP_ASCII];
}

int casemap_lower(casemap m, int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	if (m == CASEMAP_ASCII)
		return c;
	switch (c) {
	case '[': return '{';
	case ']': return '}';
	case '\\': return '|';
	case '~': return m == CASEMAP_RFC1459 ? '^' : c;
	default: return c;
	}
}

int casemap_cmp(casemap m, const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (;; x++, y++) {
		int d = casemap_lower(m, *x) - casemap_lower(m, *y);
		if (d || !*x)
			return d;
	}
}
