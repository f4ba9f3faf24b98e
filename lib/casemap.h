/* casemap.h: names compared as an IRC server compares them, by the rule it names in CASEMAPPING.
 *
 * Every rule folds the ASCII letters A-Z to a-z. RFC 1459 also counts
 * {}|^ as the lower case of []\~ (Scandinavian letters in 7-bit ASCII);
 * strict-rfc1459 folds {}| but leaves ~ and ^ apart; ascii folds the
 * letters alone. Every other byte stands for itself (no locale is
 * consulted). A server names its rule in RPL_ISUPPORT (005); until it has,
 * and for a rule this file does not know, names fold as ascii: it merges
 * the fewest names, so two people the server keeps apart are never taken
 * for one (the worst it does is keep apart two spellings the server merges).
 */
#ifndef CARDBOT_CASEMAP_H
#define CARDBOT_CASEMAP_H

typedef enum casemap {
	CASEMAP_ASCII = 0,         /* the default: what to use before (or without) the server's word */
	CASEMAP_RFC1459,
	CASEMAP_STRICT_RFC1459,
} casemap;

/* The rule a CASEMAPPING value names ("ascii", "rfc1459", "strict-rfc1459",
 * in any case). Returns 1 when known; 0 (with *out = CASEMAP_ASCII) for any
 * other value, NULL included. */
int casemap_parse(const char *value, casemap *out);

/* The rule's name as servers write it ("ascii", ...). */
const char *casemap_name(casemap m);

/* The lower case of the byte c (0..255) under rule m. */
int casemap_lower(casemap m, int c);

/* Compares two NUL-terminated names under rule m: < 0, 0 or > 0 as strcmp. */
int casemap_cmp(casemap m, const char *a, const char *b);

/* Does text match an IRC mask ("nick!user@host" with * for any run of
 * bytes and ? for one byte) with names folded under rule m? 1 or 0. */
int casemap_match(casemap m, const char *mask, const char *text);

#endif
