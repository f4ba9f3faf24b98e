/* ircline.c: IRC line utilities: parsing, canonical lines, UTF-8 and colour-safe splitting, log lines. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ircline.h"
#include "log.h"

#define IRCLINE_COMMAND_MAX 32  /* longer than any real command; a guard against garbage */
#define IRCLINE_WORD_MAX 256    /* matches IRC_FIELD_MAX: names longer than this are refused */

int ircline_parse(char *line, ircline_msg *m)
{
	memset(m, 0, sizeof *m);
	char *p = line;
	if (*p == '@') {  /* IRCv3 tags: the relay (irc_relay.c) reads the account tag; the rest are skipped */
		p = strchr(p, ' ');
		if (!p)
			return -1;
		while (*p == ' ')
			p++;
	}
	if (*p == ':') {
		m->prefix = ++p;
		while (*p && *p != ' ')
			p++;
		if (p == m->prefix || !*p)
			return -1;
		*p++ = '\0';
		while (*p == ' ')
			p++;
	}
	m->command = p;
	while (*p && *p != ' ')
		p++;
	size_t clen = (size_t)(p - m->command);
	if (*p)
		*p++ = '\0';
	if (clen == 0 || clen > IRCLINE_COMMAND_MAX)
		return -1;
	int digits = 0, letters = 0;
	for (size_t i = 0; i < clen; i++) {
		char ch = m->command[i];
		if (ch >= '0' && ch <= '9')
			digits++;
		else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))
			letters++;
		else
			return -1;
	}
	if (!(letters == (int)clen || (digits == 3 && clen == 3)))
		return -1;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		/* The fifteenth parameter takes the rest of the line, as RFC 2812 allows. */
		if (*p == ':' || m->nparams == IRCLINE_PARAMS_MAX - 1) {
			if (*p == ':')
				p++;
			m->params[m->nparams++] = p;
			break;
		}
		m->params[m->nparams++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return 0;
}

int ircline_format(const ircline_msg *m, char *out, size_t cap)
{
	size_t n = 0;
	const char *parts[2 + IRCLINE_PARAMS_MAX];
	const char *lead[2 + IRCLINE_PARAMS_MAX];
	int k = 0;
	if (m->prefix) {
		lead[k] = ":";
		parts[k++] = m->prefix;
	}
	lead[k] = k ? " " : "";
	parts[k++] = m->command;
	for (int i = 0; i < m->nparams; i++) {
		lead[k] = i == m->nparams - 1 ? " :" : " ";
		parts[k++] = m->params[i];
	}
	for (int i = 0; i < k; i++) {
		size_t a = strlen(lead[i]), b = strlen(parts[i]);
		if (n + a + b + 1 > cap)
			return -1;
		memcpy(out + n, lead[i], a);
		memcpy(out + n + a, parts[i], b);
		n += a + b;
	}
	out[n] = '\0';
	return (int)n;
}

int ircline_numeric(const ircline_msg *m)
{
	const char *c = m->command;
	if (c[0] >= '0' && c[0] <= '9' && c[1] >= '0' && c[1] <= '9' && c[2] >= '0' && c[2] <= '9' && !c[3])
		return (c[0] - '0') * 100 + (c[1] - '0') * 10 + (c[2] - '0');
	return -1;
}

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_dec(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* The length of a colour code's body after its \x03 (decimal, "NN,NN") or
 * \x04 (hex, "RRGGBB,RRGGBB"); the comma belongs to the code only when a
 * digit follows it. */
static size_t colour_body(const unsigned char *s, size_t len, int hex)
{
	size_t most = hex ? 6 : 2, n = 0;
	int (*digit)(unsigned char) = hex ? is_hex : is_dec;
	while (n < len && n < most && digit(s[n]))
		n++;
	if (n > 0 && n + 1 < len && s[n] == ',' && digit(s[n + 1])) {
		size_t m = 1;
		while (n + m < len && m <= most && digit(s[n + m]))
			m++;
		n += m;
	}
	return n;
}

size_t ircline_split(const char *text, size_t len, size_t max, size_t *skip)
{
	const unsigned char *u = (const unsigned char *)text;
	*skip = 0;
	if (len <= max)
		return len;
	size_t last_safe = 0, last_space = 0;
	for (size_t i = 0; i <= max && i < len;) {
		/* A cut before i is safe when i starts a character outside any colour code. */
		if ((u[i] & 0xC0) != 0x80) {
			last_safe = i;
			if (u[i] == ' ')
				last_space = i;
		}
		if (u[i] == 0x03 || u[i] == 0x04)
			i += 1 + colour_body(u + i + 1, len - i - 1, u[i] == 0x04);
		else
			i++;
	}
	if (last_space > 0 && last_space >= max / 2) {
		*skip = 1;
		return last_space;
	}
	if (last_safe > 0)
		return last_safe;
	return max;  /* no boundary at all (a run of stray continuation bytes): cut anyway */
}

void ircline_isupport_default(ircline_isupport *s)
{
	memset(s, 0, sizeof *s);
	s->casemap = CASEMAP_ASCII;
	snprintf(s->chantypes, sizeof s->chantypes, "%s", IRCLINE_CHANTYPES_DEFAULT);
	snprintf(s->prefixes, sizeof s->prefixes, "%s", IRCLINE_PREFIXES_DEFAULT);
}

/* A set of characters that may start a channel name or mark a status:
 * printable ASCII, none of them a letter, a digit or something that ends
 * or splits a word; at most IRCLINE_TYPES_MAX - 1 of them. */
static int type_chars_ok(const char *v, size_t n)
{
	if (n >= IRCLINE_TYPES_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)v[i];
		if (ch <= 0x20 || ch >= 0x7f || strchr(",:\\", ch) || (ch >= '0' && ch <= '9') ||
		    ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'))
			return 0;
	}
	return 1;
}

int ircline_isupport_token(ircline_isupport *s, const char *token)
{
	ircline_isupport d;
	ircline_isupport_default(&d);
	int negated = token[0] == '-';
	const char *t = token + negated, *eq = strchr(t, '=');
	size_t klen = eq ? (size_t)(eq - t) : strlen(t);
	const char *v = eq ? eq + 1 : "";
	size_t vlen = strlen(v);
#define KEY_IS(k) (klen == sizeof k - 1 && !strncmp(t, k, klen))
	if (KEY_IS("CASEMAPPING")) {
		if (negated)
			s->casemap = d.casemap;
		else if (!casemap_parse(v, &s->casemap))
			return -1;
	} else if (KEY_IS("CHANTYPES")) {
		if (!negated && !type_chars_ok(v, vlen))
			return -1;
		memcpy(s->chantypes, negated ? d.chantypes : v, (negated ? strlen(d.chantypes) : vlen) + 1);
	} else if (KEY_IS("PREFIX")) {
		/* "(qaohv)~&@%+": as many characters as modes; "" for none. */
		const char *close = v[0] == '(' ? strchr(v, ')') : NULL;
		const char *chars = close ? close + 1 : v;
		size_t n = strlen(chars);
		if (!negated && (vlen && (!close || (size_t)(close - v - 1) != n || !type_chars_ok(chars, n))))
			return -1;
		memcpy(s->prefixes, negated ? d.prefixes : chars, (negated ? strlen(d.prefixes) : n) + 1);
	} else if (KEY_IS("WHOX")) {
		s->whox = !negated;
	} else {
		return 0;
	}
#undef KEY_IS
	return 1;
}

int ircline_is_channel(const ircline_isupport *is, const char *s)
{
	return s[0] && strchr(is ? is->chantypes : IRCLINE_CHANTYPES_DEFAULT, s[0]) != NULL;
}

int ircline_is_word(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= IRCLINE_WORD_MAX || s[0] == ':')
		return 0;
	return strcspn(s, " ,\r\n") == n;
}

void ircline_nick(const char *prefix, char *out, size_t cap)
{
	size_t n = strcspn(prefix, "!@");
	if (cap == 0)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, prefix, n);
	out[n] = '\0';
}

void ircline_log(const char *name, const char *level, const char *fmt, ...)
{
	/* A log line is cut at 1 KiB (log.c): deliberate, it only carries our own words. */
	char who[96];
	snprintf(who, sizeof who, "irc[%s]", name);
	va_list ap;
	va_start(ap, fmt);
	log_vword(level, who, fmt, ap);
	va_end(ap);
}
