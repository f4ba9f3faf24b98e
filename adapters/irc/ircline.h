/* ircline.h: IRC line utilities: parsing, canonical lines, UTF-8 and colour-safe splitting, log lines.
 *
 * Pure functions over caller-owned buffers (logging aside): no sockets, no
 * libircclient, nothing of cards. Shared by the IRC adapter and its relay.
 */
#ifndef CARDBOT_IRCLINE_H
#define CARDBOT_IRCLINE_H

#include <stddef.h>

#include "casemap.h"

#define IRCLINE_MAX 512         /* RFC 1459 2.3: a line, CRLF included, is at most 512 bytes */
#define IRCLINE_PARAMS_MAX 15   /* RFC 2812 2.3: at most 15 parameters */
#define IRCLINE_TYPES_MAX 16    /* CHANTYPES or PREFIX characters kept: servers use 1 to 6 */
/* Before a server says otherwise (005), a channel starts with one of these
 * (RFC 2811), and NAMES may put these status characters before a nick (the
 * usual PREFIX=(qaohv)~&@%+, and ! and . of older servers): none can start
 * a nick, so stripping them all never shortens one. */
#define IRCLINE_CHANTYPES_DEFAULT "#&+!"
#define IRCLINE_PREFIXES_DEFAULT "~&@%+!."

/* One parsed line; every pointer points into the buffer given to ircline_parse. */
typedef struct ircline_msg {
	const char *prefix;     /* "nick!user@host" or a server name, without ':'; NULL when absent */
	const char *command;    /* letters, or exactly three digits */
	const char *params[IRCLINE_PARAMS_MAX];
	int nparams;
} ircline_msg;

/* Parses `line` (NUL-terminated, no CR or LF) in place into *m; message tags
 * are skipped. Returns 0, or -1 when the line is malformed (no command, a
 * command that is neither letters nor three digits, an empty prefix). */
int ircline_parse(char *line, ircline_msg *m);

/* Writes m as "[:prefix ]COMMAND p1 ... :last" (no CRLF) into out (cap bytes
 * with the NUL). Returns the length, or -1 when it does not fit. */
int ircline_format(const ircline_msg *m, char *out, size_t cap);

/* The numeric code of a three-digit command, or -1. */
int ircline_numeric(const ircline_msg *m);

/* The next piece of text[0..len) that fits in max bytes (max >= 8): cut
 * before a UTF-8 lead byte and never inside a mIRC colour code, preferably
 * at a space. Returns the piece's length (> 0 when len > 0); *skip is set to
 * the bytes to drop after it (1 when the cut ate a space, else 0). */
size_t ircline_split(const char *text, size_t len, size_t max, size_t *skip);

/* What a server says of itself in RPL_ISUPPORT (005) that the adapter
 * relies on: how it compares names, what starts a channel's name, which
 * status characters NAMES puts before a nick. */
typedef struct ircline_isupport {
	casemap casemap;                      /* CASEMAPPING; ascii until said (casemap.h) */
	char chantypes[IRCLINE_TYPES_MAX];    /* CHANTYPES */
	char prefixes[IRCLINE_TYPES_MAX];     /* the characters of PREFIX=(modes)characters */
	int whox;                             /* WHOX is listed */
} ircline_isupport;

/* What to assume before a server has said anything. */
void ircline_isupport_default(ircline_isupport *s);

/* Reads one token of a 005 line ("CASEMAPPING=rfc1459", "-PREFIX") into s.
 * Returns 1 when it was taken, 0 when it is none of the tokens above, -1
 * when it is one with a value that makes no sense (too long, characters
 * that cannot start a channel or a status), which leaves s as it was; an
 * unknown CASEMAPPING is taken, as ascii (casemap_parse), but returns -1
 * too, so the caller can say so. */
int ircline_isupport_token(ircline_isupport *s, const char *token);

/* 1 when s names a channel: its first character is one of CHANTYPES (is
 * NULL: the defaults before 005). */
int ircline_is_channel(const ircline_isupport *is, const char *s);

/* 1 when s can stand as one middle parameter (a nick, channel or key):
 * non-empty, shorter than 256 bytes, no space, comma, CR, LF, NUL or
 * leading ':'. */
int ircline_is_word(const char *s);

/* Copies the nick part of a "nick!user@host" prefix into out (cap bytes). */
void ircline_nick(const char *prefix, char *out, size_t cap);

/* Writes "irc[name]: level: message" to stderr. Never pass a secret. */
void ircline_log(const char *name, const char *level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
