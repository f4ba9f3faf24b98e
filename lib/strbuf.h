/* strbuf.h: a text buffer: over caller memory with a fixed capacity (appends
 * are cut, never overflow), or growable on the heap up to a bound.
 *
 * The functions keep the short sb_ prefix the host has always used (the
 * type is strbuf). b->s is always NUL-terminated once sb_init has run with
 * cap > 0 (a growable buffer: once anything was appended; s is NULL before);
 * with cap == 0 every append to a fixed buffer is a no-op.
 */
#ifndef CARDBOT_STRBUF_H
#define CARDBOT_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
	char *s;
	size_t len, cap;
	size_t max;   /* growable: the most it may hold, with the NUL; 0: fixed, over caller memory */
	int cut;      /* an append did not go in whole (no room left, over max, or out of memory) */
} strbuf;

/* Starts an empty buffer over mem (cap bytes with the NUL; borrowed). */
void sb_init(strbuf *b, char *mem, size_t cap);
/* Starts an empty growable buffer that may hold up to max bytes with the
 * NUL; it owns its memory (sb_take, sb_release). An append that would pass
 * max, or finds no memory, adds nothing and sets cut. */
void sb_init_grow(strbuf *b, size_t max);
/* Appends s, cut to what fits. 0 when it went in whole, else -1 (and cut set). */
int sb_add(strbuf *b, const char *s);
/* Appends s[0..n), cut to what fits (bytes: the cut may split a UTF-8
 * character). 0 when it went in whole, else -1 (and cut set). */
int sb_addn(strbuf *b, const char *s, size_t n);
/* Appends formatted text, cut to what fits. */
__attribute__((format(printf, 2, 3))) void sb_printf(strbuf *b, const char *fmt, ...);
/* Removes the first n bytes (all, when n >= len). */
void sb_drop(strbuf *b, size_t n);
/* A growable buffer's text, the caller's to free; NULL when an append was
 * cut or memory ran out. The buffer is left empty and released. */
char *sb_take(strbuf *b);
/* Frees a growable buffer's memory, wiped first (it may have held a
 * secret); the buffer is left empty. Nothing for a fixed buffer. */
void sb_release(strbuf *b);

#endif
