/* nearest.h: the word of a list nearest to a mistyped one (a command, a key). */
#ifndef CARDBOT_NEAREST_H
#define CARDBOT_NEAREST_H

#include <stddef.h>

/* Edits between a and b, case-insensitive (insert, delete, replace, or swap
 * two neighbours: "paly" is one from "play"); SIZE_MAX when either is too
 * long to bother (NEAREST_LEN_MAX). */
size_t nearest_distance(const char *a, const char *b);

/* The word of words[0..n) (borrowed; NULL entries skipped) nearest to s if
 * close enough to be a slip of the keyboard (one edit per three letters,
 * at least one), else NULL. Ties go to the earlier word; s itself, if
 * listed, is its own nearest. */
const char *nearest_word(const char *s, const char *const *words, size_t n);

#endif
