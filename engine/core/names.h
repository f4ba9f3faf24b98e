/* names.h: a game's stable words (phases, actions, refusals, events) from
 * its X-macro lists, where X(NAME, "word") gives one enum value its word. */
#ifndef CARDBOT_NAMES_H
#define CARDBOT_NAMES_H

#include <stddef.h>

#define NAMES_WORD_(n, s) s,
/* Defines `const char *fn(int i)`: the word of value i of LIST, or "?" when
 * i is out of range. The words are static strings. */
#define NAMES_FUNCTION(fn, LIST) \
	const char *fn(int i) \
	{ \
		static const char *const words[] = { LIST(NAMES_WORD_) }; \
		return names_get(words, sizeof words / sizeof words[0], i); \
	}

/* The words every game P gives its phases, actions, refusals and events
 * (game.h's game_def names them), and the action a word names (-1: none). */
#define NAMES_DECLARE(P) \
	const char *P##_phase_name(int phase); \
	const char *P##_act_name(int act); \
	int P##_act_parse(const char *name); \
	const char *P##_err_name(int err); \
	const char *P##_ev_name(int ev)

/* words[i], or "?" unless 0 <= i < n. */
const char *names_get(const char *const *words, size_t n, int i);
/* The value i in [0, count) whose name(i) is word, or -1. */
int names_find(const char *(*name)(int), int count, const char *word);

#endif
