/* log.c: levelled lines on standard error (see log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"

static int min_level = LOG_DEBUG;
static const char *const words[] = { "debug", "info", "warn", "error" };
static const int syslog_priority[] = { 7, 6, 4, 3 }; /* debug, info, warning, err */

void log_set_level(int min)
{
	if (min >= LOG_DEBUG && min <= LOG_ERROR)
		min_level = min;
}

int log_level_parse(const char *word)
{
	for (int i = 0; i < 4; i++)
		if (word && !strcmp(word, words[i]))
			return i;
	return -1;
}

__attribute__((format(printf, 3, 0)))
static void vlog(int level, const char *component, const char *fmt, va_list ap)
{
	if (level < min_level)
		return;
	char msg[1024];
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	if (n < 0)
		return;
	/* One event, one line: a stray line break would forge another. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	char prio[8] = "";
	if (getenv("JOURNAL_STREAM"))
		snprintf(prio, sizeof prio, "<%d>", syslog_priority[level]);
	if (component)
		fprintf(stderr, "%s%s: %s: %s\n", prio, component, words[level], msg);
	else
		fprintf(stderr, "%s%s: %s\n", prio, words[level], msg);
}

void log_msg(int level, const char *component, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog(level < LOG_DEBUG || level > LOG_ERROR ? LOG_INFO : level, component, fmt, ap);
	va_end(ap);
}

void log_vword(const char *level, const char *component, const char *fmt, va_list ap)
{
	int l = log_level_parse(level);
	vlog(l < 0 ? LOG_INFO : l, component, fmt, ap);
}

void log_word(const char *level, const char *component, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vword(level, component, fmt, ap);
	va_end(ap);
}
