/* casemap.c: names compared as an IRC server compares them (see casemap.h). */
#include <stddef.h>
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

int casemap_match(casemap m, const char *mask, const char *text)
{
	/* Backtracking to the last star only: linear in practice, and no
	 * recursion for a hostile mask to exhaust. */
	const char *star = NULL, *resume = NULL;
	while (*text) {
		if (*mask == '*') {
			star = mask++;
			resume = text;
		} else if (*mask && (*mask == '?' ||
				     casemap_lower(m, (unsigned char)*mask) == casemap_lower(m, (unsigned char)*text))) {
			mask++;
			text++;
		} else if (star) {
			mask = star + 1;
			text = ++resume;
		} else {
			return 0;
		}
	}
	while (*mask == '*')
		mask++;
	return !*mask;
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
