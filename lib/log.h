/* log.h: the bot's log on standard error, one line per event, with a level.
 *
 * Lines read "component: level: text" ("irc[libera]: warn: ..."), or
 * "level: text" without a component. Under systemd (JOURNAL_STREAM set) each
 * line also starts with its syslog priority ("<4>"), which journald turns
 * into the entry's priority, so `journalctl -p warning` works. Lines below
 * the configured level are dropped. Nothing at info or above may ever name
 * a card or carry a player's private text: those belong at debug, if
 * anywhere.
 */
#ifndef CARDBOT_LOG_H
#define CARDBOT_LOG_H

#include <stdarg.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/* Lines below min are dropped (the default is LOG_DEBUG: everything). */
void log_set_level(int min);
/* The level for a word ("debug", "info", "warn", "error"), or -1. */
int log_level_parse(const char *word);
/* One line; component may be NULL. */
void log_msg(int level, const char *component, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same, with the level as a word (unknown words count as info). */
void log_word(const char *level, const char *component, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* log_word with the arguments as a va_list (for a component's own wrapper). */
void log_vword(const char *level, const char *component, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

#endif
