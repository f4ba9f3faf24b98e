/* nearest.c: edit distance, for "did you mean" (config keys, commands). */
#include "nearest.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#define NEAREST_LEN_MAX 64 /* no suggestions for longer words: the rows stay small */

size_t nearest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > NEAREST_LEN_MAX || lb > NEAREST_LEN_MAX)
		return SIZE_MAX;
	/* Three rows of the optimal string alignment table: i-2, i-1, i. */
	size_t rows[3][NEAREST_LEN_MAX + 1];
	size_t *two = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		int ai = tolower((unsigned char)a[i - 1]);
		for (size_t j = 1; j <= lb; j++) {
			int bj = tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ai != bj);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2])
			    && tolower((unsigned char)a[i - 2]) == bj && two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			cur[j] = best;
		}
		size_t *t = two;
		two = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *nearest_word(const char *s, const char *const *words, size_t n)
{
	size_t len = strlen(s), limit = len / 3 > 1 ? len / 3 : 1, best = SIZE_MAX;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!words[i])
			continue;
		size_t d = nearest_distance(s, words[i]);
		if (d <= limit && d < best) {
			best = d;
			pick = words[i];
		}
	}
	return pick;
}
