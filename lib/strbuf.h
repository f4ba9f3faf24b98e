/* strbuf.h: a text buffer over caller memory with a fixed capacity: appends are cut, never overflow.
 *
 * The functions keep the short sb_ prefix the host has always used (the
 * type is strbuf). b->s is always NUL-terminated once sb_init has run with
 * cap > 0; with cap == 0 every append is a no-op.
 */
#ifndef CARDBOT_STRBUF_H
#define CARDBOT_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
	char *s;
	size_t len, cap;
} strbuf;

/* Starts an empty buffer over mem (cap bytes with the NUL; borrowed). */
void sb_init(strbuf *b, char *mem, size_t cap);
/* Appends s, cut to what fits. */
void sb_add(strbuf *b, const char *s);
/* Appends s[0..n), cut to what fits (bytes: the cut may split a UTF-8 character). */
void sb_addn(strbuf *b, const char *s, size_t n);
/* Appends formatted text, cut to what fits. */
__attribute__((format(printf, 2, 3))) void sb_printf(strbuf *b, const char *fmt, ...);

#endif
