/* console.h: the console adapter: the bot over a pair of file descriptors, as JSON lines or for a person at a terminal.
 *
 * JSON mode (a program drives the bot; tests, scripts): each input line is
 * one JSON object, each thing the bot says is one JSON object on a line.
 *
 *   in:  {"room":"#t","user":"ann","name":"Ann","text":"!sit"}   a message in a room
 *        {"user":"ann","text":"hand"}            a private one (room absent or null)
 *        {"join":"#t","user":"ann","name":"Ann"} ann arrives in #t
 *        {"part":"#t","user":"ann","why":"bye"}  ann leaves #t ("part":null: the network)
 *        {"rename":"ann","to":"anne","name":"Anne"}  ann is now anne
 *        "name", "why" and a message's "notice" (true: sent as a notice) are optional;
 *        so is "host" on a message, join or part (console_settings.origin_host).
 *   out: {"to":"#t","text":"...","notice":true,"id":1}
 *        {"user":"ann","text":"...","notice":false,"mention":"ann","id":2}
 *        "mention": the person the line alerts: whom the host names for a
 *        message (adapter_msg.mention; a table names the player whose turn
 *        it is), or the addressee of a private line flagged ADAPTER_HIGHLIGHT;
 *        a message of several parts is one line, its parts joined with
 *        " · "; "id" counts the lines from 1. "text" is
 *        plain: IRC formatting codes are taken out (unless
 *        console_settings.codes). When the adapter stops:
 *        {"stopped":"why"}, the last line.
 *
 * Human mode (`cardbot play`): every line typed is a private message from
 * one person (the prefix is optional there; "#room command" names a
 * table); "quit" or the end of input ends. What the bot says is printed as
 * plain text, private lines marked "(private) ", with colours on a
 * terminal.
 *
 * In both modes a line that is not valid UTF-8, is too long, or (JSON) is
 * not a well-formed object of the shapes above is reported on standard
 * error (log.h) and ignored; nothing a peer sends ends the process.
 */
#ifndef CARDBOT_CONSOLE_H
#define CARDBOT_CONSOLE_H

#include "adapter.h"

/* The longest input line, newline excluded: a message's text of
 * ADAPTER_TEXT_MAX bytes with every byte escaped ("\u00e9" is six) and the
 * other fields. Longer lines are ignored whole. */
#define CONSOLE_LINE_MAX (ADAPTER_TEXT_MAX * 6 + 1024)
/* Output waiting for a slow reader; past this, lines are dropped (logged). */
#define CONSOLE_OUT_MAX (1 << 20)

typedef struct console_settings {
	int in_fd, out_fd;               /* default 0 and 1; in_fd -1: input only by console_feed */
	int human;                       /* 1: human mode, 0: JSON lines */
	char self[ADAPTER_ID_MAX];       /* the bot's name ("cardbot") */
	char user[ADAPTER_ID_MAX];       /* human mode: who types ("you") */
	int colour;                      /* human mode: ANSI colours for IRC colour codes */
	char home[ADAPTER_ID_MAX];       /* human mode: the room of `user`'s private lines that name
	                                  * none while they sit nowhere (adapter_ops.home_room; "" none) */
	/* For a program in the same process (tests): when set, each output
	 * line is handed to sink at once, during the call that said it, without
	 * its newline, instead of being written to out_fd (then unused). The
	 * line is borrowed for the call; sink must not call the console. */
	void (*sink)(void *ctx, const char *line);
	void *sink_ctx;
	/* JSON mode: 1 keeps in "text" every byte the host sent, IRC
	 * formatting codes and any other control character included (JSON
	 * escapes them), for a program that shows or checks them itself;
	 * 0 (default): plain text. */
	int codes;
	/* Origins for operator masks (adapter_ops.origin), as an IRC server
	 * reports them: "USER!USER@HOST", HOST being the one the user's last
	 * input line named in a "host" member (a message, join or part; it
	 * follows a rename), else origin_host. "" and no "host" (the default):
	 * no origin is known. */
	char origin_host[ADAPTER_ID_MAX];
} console_settings;

/* JSON mode on stdin/stdout, the bot called "cardbot", the person "you", no colour. */
void console_settings_default(console_settings *s);

/* A new console adapter on loop `ev` reporting to `host`; NULL on failure.
 * The settings are copied; the descriptors stay the caller's (never
 * closed). Call ops->start to begin reading. */
adapter *console_adapter_new(loop *ev, const adapter_host *host, const char *name, const console_settings *s);

/* 1 once the input has ended (end of file, or "quit" in human mode) and
 * everything said has been written (or could not be). */
int console_finished(const adapter *a);

/* Takes `len` bytes as if read from the input (len 0: the input ends),
 * handing the host what they hold: for fuzzers and tests, no descriptor
 * needed. */
void console_feed(adapter *a, const char *data, size_t len);

/* Writes what is still waiting, blocking up to `ms` milliseconds. */
void console_flush(adapter *a, int ms);

#endif
