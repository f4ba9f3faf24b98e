/* utf8.c: UTF-8 checks and cleaning for text from the network (see utf8.h). */
#include <string.h>
#include "utf8.h"

size_t utf8_seq(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	if (len == 0)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t need;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		need = 1;
	else if (c >= 0xE0 && c <= 0xEF) {
		need = 2;
		if (c == 0xE0)
			lo = 0xA0;   /* overlong */
		else if (c == 0xED)
			hi = 0x9F;   /* surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3;
		if (c == 0xF0)
			lo = 0x90;   /* overlong */
		else if (c == 0xF4)
			hi = 0x8F;   /* above U+10FFFF */
	} else
		return 0;
	if (len < need + 1 || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i <= need; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return need + 1;
}

int utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(s + i, len - i);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

size_t utf8_clean(const char *text, size_t len, char *dst, size_t cap)
{
	static const char replacement[] = "\xEF\xBF\xBD";  /* U+FFFD */
	const unsigned char *u = (const unsigned char *)text;
	size_t n = 0;
	if (cap == 0)
		return 0;
	for (size_t i = 0; i < len;) {
		if (u[i] == '\r' || u[i] == '\n' || u[i] == '\0') {
			i++;
			continue;
		}
		size_t k = utf8_seq(text + i, len - i);
		const char *from = k ? text + i : replacement;
		size_t flen = k ? k : 3;
		if (n + flen + 1 > cap)
			break;
		memcpy(dst + n, from, flen);
		n += flen;
		i += k ? k : 1;
	}
	dst[n] = '\0';
	return n;
}

/* The length of the bidirectional formatting character at u[0..n), or 0. */
static size_t bidi_len(const unsigned char *u, size_t n)
{
	if (n >= 2 && u[0] == 0xD8 && u[1] == 0x9C)
		return 2; /* U+061C ARABIC LETTER MARK */
	if (n < 3 || u[0] != 0xE2)
		return 0;
	if (u[1] == 0x80 && (u[2] == 0x8E || u[2] == 0x8F || (u[2] >= 0xAA && u[2] <= 0xAE)))
		return 3; /* U+200E, U+200F marks; U+202A-U+202E embeddings and overrides */
	if (u[1] == 0x81 && u[2] >= 0xA6 && u[2] <= 0xA9)
		return 3; /* U+2066-U+2069 isolates */
	return 0;
}

size_t utf8_strip_bidi(char *s)
{
	size_t n = strlen(s), o = 0;
	for (size_t i = 0; i < n;) {
		size_t k = bidi_len((const unsigned char *)s + i, n - i);
		if (k) {
			i += k;
			continue;
		}
		s[o++] = s[i++];
	}
	s[o] = '\0';
	return o;
}

size_t utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t n = 0;
	while (n < len) {
		size_t k = utf8_seq(s + n, len - n);
		if (!k)
			k = 1;
		if (n + k > max && n > 0)
			break;
		n += k;
		if (n >= max)
			break;
	}
	return n;
}
