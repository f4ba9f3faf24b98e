/* casemap.h: names compared as IRC servers do by default (RFC 1459 case mapping).
 *
 * ASCII letters fold to lower case, and {}|^ count as the lower case of
 * []\~; every other byte stands for itself (no locale is consulted).
 */
#ifndef CARDBOT_CASEMAP_H
#define CARDBOT_CASEMAP_H

/* The RFC 1459 lower case of the byte c (0..255). */
int casemap_lower(int c);

/* Compares two NUL-terminated names under that mapping: < 0, 0 or > 0 as strcmp. */
int casemap_cmp(const char *a, const char *b);

#endif
