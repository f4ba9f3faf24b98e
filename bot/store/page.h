/* page.h: the match page: a record replayed into a "story" of steps and written as one
 * self-contained HTML file (web/page.html, page.css, page.js embedded at build time). */
#ifndef CARDBOT_PAGE_H
#define CARDBOT_PAGE_H

#include <stddef.h>
#include "record.h"

/* The story of rec (borrowed) as JSON text (docs/RECORD.md, "The match
 * page"): every accepted action as a step with what happened, each seat's
 * hand after it, the trick on the table, the scores; a step at each deal's
 * start and end. Every '<', '>' and '&' is written \u003c, \u003e, \u0026,
 * so the text may sit inside a <script> element. Belongs to the caller
 * (free); NULL when out of memory. */
char *page_story(const record *rec);

/* The whole page for rec: HTML, *len bytes (NUL-terminated too). Belongs to
 * the caller (free); NULL when out of memory. */
char *page_html(const record *rec, size_t *len);

/* Whether the record text (a bot's record: it has "started") is of a match
 * still in play (no "ended"): such a match has no page. Records without
 * "started" (hand-written, tests/records) are taken as they are. */
int page_record_in_play(const char *text, size_t len);

/* Writes len bytes of data to path ("-" or NULL: standard output); 0, or -1
 * with the reason in err. */
int page_write_file(const char *path, const char *data, size_t len, char *err, size_t errlen);

/* Publishes a file for a web server: len bytes of data as dir/name, mode
 * 0644 whatever the umask, written to a new temporary file in dir (opened
 * O_EXCL|O_NOFOLLOW: no link is followed) and renamed over name, so a
 * reader sees the old file or the new one whole, and a symbolic link at
 * name is replaced, never written through. 0, or -1 with the reason in err. */
#define PAGE_PUBLIC_MODE 0644
int page_publish(const char *dir, const char *name, const char *data, size_t len, char *err, size_t errlen);

/* Writes rec's page to out (a path, or NULL/"-" for standard output, as
 * page_write_file); a failure is told on standard error as "cardbot CMD: ...".
 * Returns an exit status: 0 written, 1 out of memory or not written. */
int page_write_record(const char *cmd, const record *rec, const char *out);

/* `cardbot render FILE.json [-o FILE]` (argv[0] is "render"); exit status. */
int page_render_main(int argc, char **argv);

#endif
