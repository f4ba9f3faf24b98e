/* check.h: the smallest test harness: CHECK(cond, fmt, ...) counts and reports. */
#ifndef CARDBOT_CHECK_H
#define CARDBOT_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...) do { \
	if (cond) { check_passed++; } else { \
		check_failed++; \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
	} } while (0)

/* Prints the closing line that tests/run.sh adds up, and the exit status. */
static inline int check_report(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
