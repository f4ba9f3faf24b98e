/* fuzz_ircline.c: adapters/irc/ircline.c, the first code to see what an IRC server sends.
 *
 * The input is one raw line. It is parsed, and a parse is formatted and
 * parsed again (same command and parameters); cleaned to UTF-8 (the result
 * must be valid UTF-8 without CR, LF or NUL); split into pieces of a size
 * taken from the first byte (each piece non-empty, within the size, and
 * valid UTF-8 when the input was and held no colour codes); and the small
 * helpers run on the parsed words, each also read as a 005 token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casemap.h"
#include "fuzz.h"
#include "ircline.h"
#include "utf8.h"

#define LINE_MAX_FUZZ 4096 /* past IRCLINE_MAX, to see longer garbage handled too */

static void check_parse(const uint8_t *data, size_t size)
{
	char line[LINE_MAX_FUZZ + 1], again[LINE_MAX_FUZZ * 2 + 64], out[LINE_MAX_FUZZ * 2 + 64];
	memcpy(line, data, size);
	line[size] = '\0'; /* the adapter hands over lines without CR/LF, cut at NUL */
	ircline_msg m;
	if (ircline_parse(line, &m) != 0)
		return;
	FUZZ_ASSERT(m.command && m.command[0]);
	FUZZ_ASSERT(m.nparams >= 0 && m.nparams <= IRCLINE_PARAMS_MAX);
	(void)ircline_numeric(&m);
	if (m.prefix) {
		char nick[64];
		ircline_nick(m.prefix, nick, sizeof nick);
		FUZZ_ASSERT(strlen(nick) < sizeof nick);
		for (int r = CASEMAP_ASCII; r <= CASEMAP_STRICT_RFC1459; r++)
			FUZZ_ASSERT(!casemap_cmp((casemap)r, nick, nick));
	}
	for (int i = 0; i < m.nparams; i++) {
		FUZZ_ASSERT(m.params[i] != NULL);
		(void)ircline_is_channel(NULL, m.params[i]);
		(void)ircline_is_word(m.params[i]);
		(void)casemap_cmp(CASEMAP_RFC1459, m.params[i], m.command);
		/* Any token as a 005 token: what is taken stays within bounds and
		 * sane; what is refused leaves everything as it was. */
		ircline_isupport is, before;
		ircline_isupport_default(&is);
		before = is;
		int took = ircline_isupport_token(&is, m.params[i]);
		FUZZ_ASSERT(strlen(is.chantypes) < sizeof is.chantypes && strlen(is.prefixes) < sizeof is.prefixes);
		FUZZ_ASSERT(!strchr(is.chantypes, ' ') && !strchr(is.prefixes, ' ') && !strchr(is.chantypes, ','));
		if (took == 0 || (took < 0 && strncmp(m.params[i], "CASEMAPPING", 11)))
			FUZZ_ASSERT(!memcmp(&is, &before, sizeof is));
		(void)ircline_is_channel(&is, m.params[i]);
	}
	/* A too-small buffer is refused, never overrun. */
	char tiny[8];
	int t = ircline_format(&m, tiny, sizeof tiny);
	FUZZ_ASSERT(t < (int)sizeof tiny);
	int n = ircline_format(&m, out, sizeof out);
	FUZZ_ASSERT(n >= 0 && (size_t)n == strlen(out));
	memcpy(again, out, (size_t)n + 1);
	ircline_msg m2;
	FUZZ_ASSERT(ircline_parse(again, &m2) == 0);
	FUZZ_ASSERT(!strcmp(m.command, m2.command));
	FUZZ_ASSERT(!m.prefix == !m2.prefix);
	FUZZ_ASSERT(!m.prefix || !strcmp(m.prefix, m2.prefix));
	FUZZ_ASSERT(m.nparams == m2.nparams);
	for (int i = 0; i < m.nparams; i++)
		FUZZ_ASSERT(!strcmp(m.params[i], m2.params[i]));
}

static void check_text(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char clean[LINE_MAX_FUZZ * 3 + 4];
	size_t cap = 4 + (size ? data[0] : 0) % sizeof clean; /* sometimes small: the cut at a character */
	size_t n = utf8_clean(text, size, clean, cap);
	FUZZ_ASSERT(n < cap && clean[n] == '\0');
	FUZZ_ASSERT(utf8_valid(clean, n));
	FUZZ_ASSERT(!memchr(clean, '\r', n) && !memchr(clean, '\n', n) && strlen(clean) == n);

	int valid = utf8_valid(text, size);
	int colours = memchr(text, 0x03, size) || memchr(text, 0x04, size);
	size_t max = 8 + (size > 1 ? data[1] : 0) % 500;
	size_t off = 0;
	while (off < size) {
		size_t skip = 9;
		size_t k = ircline_split(text + off, size - off, max, &skip);
		FUZZ_ASSERT(k > 0 && k <= max && k <= size - off);
		FUZZ_ASSERT(skip <= 1 && k + skip <= size - off);
		if (valid && !colours)
			FUZZ_ASSERT(utf8_valid(text + off, k));
		off += k + skip;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > LINE_MAX_FUZZ)
		return 0;
	check_parse(data, size);
	check_text(data, size);
	return 0;
}
