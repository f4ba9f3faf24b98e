/* utf8.h: UTF-8 checks and cleaning, for text that came from a network or a file.
 *
 * Pure functions over caller-owned buffers. Valid means RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF.
 */
#ifndef CARDBOT_UTF8_H
#define CARDBOT_UTF8_H

#include <stddef.h>

/* The length (1 to 4) of the valid UTF-8 character at s[0..len), or 0 when
 * s does not start one (len == 0 included). */
size_t utf8_seq(const char *s, size_t len);

/* The length of the longest prefix of s[0..len) of at most max bytes that
 * ends on a character boundary (an invalid byte counts as one character);
 * at least one character when len > 0, so a caller cutting text always
 * moves on. */
size_t utf8_prefix(const char *s, size_t len, size_t max);

/* 1 when s[0..len) is valid UTF-8. */
int utf8_valid(const char *s, size_t len);

/* Copies text[0..len) into dst (cap >= 4 bytes with the NUL) as valid UTF-8:
 * each invalid byte becomes U+FFFD, CR, LF and NUL are dropped, and the copy
 * is cut at a character boundary when dst is full. Returns the length. */
size_t utf8_clean(const char *text, size_t len, char *dst, size_t cap);

/* Removes, in place, every bidirectional formatting character from the
 * NUL-terminated UTF-8 string s (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069): a name that carries one could turn the rest of a line
 * it is shown in (a channel line, a page's title) around. Returns the new
 * length. */
size_t utf8_strip_bidi(char *s);

#endif
