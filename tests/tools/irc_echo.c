/* irc_echo.c: a test host for the IRC adapter: echoes commands and prints every host callback on stdout.
 *
 * Commands (in a channel, answered there; in private, answered privately):
 *   echo X    says X back
 *   long N    says N bytes of mixed ASCII and UTF-8 ("ab♠♥ " repeated)
 *   burst N   says N short lines at once (the adapter paces them)
 *   join #C   joins a channel;  part #C  leaves it
 * Each callback prints one line: "link up", "link down WHY", "joined ROOM USER",
 * "left ROOM|* USER WHY", "renamed OLD NEW", "room_ready ROOM",
 * "room_lost ROOM WHY", "message ROOM|* USER TEXT". SIGTERM or SIGINT: quit.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "adapter.h"
#include "irc.h"
#include "loop.h"

#define ECHO_LONG_MAX 4096   /* "long N" beyond this is cut: the adapter cuts at ADAPTER_TEXT_MAX anyway */
#define ECHO_BURST_MAX 100
#define ECHO_QUIT_WAIT_MS 2000

typedef struct echo {
	loop *ev;
	adapter *net;
	int up;
	int quitting;
} echo;

static void say(adapter *a, const char *room, const char *user, const char *text)
{
	if (room)
		a->ops->send_room(a, room, text, 0);
	else
		a->ops->send_private(a, user, text, 0);
}

static void on_message(void *ctx, adapter *a, const char *room, const char *user, const char *name,
		       const char *text, int flags)
{
	(void)ctx;
	(void)name;
	if (flags & ADAPTER_NOTICE)
		return; /* an echo bot must not answer notices either */
	printf("message %s %s %s\n", room ? room : "*", user, text);
	if (!strncmp(text, "echo ", 5)) {
		say(a, room, user, text + 5);
	} else if (!strncmp(text, "long ", 5)) {
		static const char pattern[] = "ab\xE2\x99\xA0\xE2\x99\xA5 ";  /* "ab♠♥ ": 9 bytes */
		long n = strtol(text + 5, NULL, 10);
		if (n < 1)
			return;
		if (n > ECHO_LONG_MAX)
			n = ECHO_LONG_MAX;
		char buf[ECHO_LONG_MAX + 1];
		size_t len = 0;
		while (len < (size_t)n) {
			/* Whole characters only: stop before one that would pass N. */
			size_t i = len % (sizeof pattern - 1);
			size_t clen = ((unsigned char)pattern[i] >= 0xE0) ? 3 : 1;
			if (len + clen > (size_t)n)
				break;
			memcpy(buf + len, pattern + i, clen);
			len += clen;
		}
		buf[len] = '\0';
		say(a, room, user, buf);
	} else if (!strncmp(text, "burst ", 6)) {
		long n = strtol(text + 6, NULL, 10);
		if (n > ECHO_BURST_MAX)
			n = ECHO_BURST_MAX;
		for (long i = 1; i <= n; i++) {
			char line[64];
			snprintf(line, sizeof line, "burst line %ld of %ld", i, n);
			say(a, room, user, line);
		}
	} else if (!strncmp(text, "join ", 5)) {
		a->ops->join(a, text + 5, NULL);
	} else if (!strncmp(text, "part ", 5)) {
		a->ops->part(a, text + 5, "asked to");
	}
}

static void on_joined(void *ctx, adapter *a, const char *room, const char *user, const char *name)
{
	(void)ctx;
	(void)a;
	(void)name;
	printf("joined %s %s\n", room, user);
}

static void on_left(void *ctx, adapter *a, const char *room, const char *user, const char *why)
{
	(void)ctx;
	(void)a;
	printf("left %s %s %s\n", room ? room : "*", user, why);
}

static void on_renamed(void *ctx, adapter *a, const char *old_user, const char *new_user, const char *new_name)
{
	(void)ctx;
	(void)a;
	(void)new_name;
	printf("renamed %s %s\n", old_user, new_user);
}

static void on_room_ready(void *ctx, adapter *a, const char *room)
{
	(void)ctx;
	printf("room_ready %s as %s\n", room, a->ops->self(a));
}

static void on_room_lost(void *ctx, adapter *a, const char *room, const char *why)
{
	(void)ctx;
	(void)a;
	printf("room_lost %s %s\n", room, why);
}

static void on_link(void *ctx, adapter *a, int up, const char *why)
{
	echo *e = ctx;
	printf("link %s%s%s\n", up ? "up as " : "down ", up ? a->ops->self(a) : "", why);
	e->up = up;
	if (!up && e->quitting)
		loop_stop(e->ev);
}

static void on_quit_timeout(void *ctx)
{
	echo *e = ctx;
	loop_stop(e->ev);
}

static void on_signal(void *ctx, int sig)
{
	echo *e = ctx;
	(void)sig;
	if (e->quitting)
		return;
	e->quitting = 1;
	e->net->ops->stop(e->net, "echo host stopping");
	if (!e->up) {
		loop_stop(e->ev);
		return;
	}
	loop_timer(e->ev, ECHO_QUIT_WAIT_MS, on_quit_timeout, e);
}

static void usage(void)
{
	fputs("usage: irc_echo --server HOST --port N --nick NICK [--channel #C[,KEY]]... [--tls] [--ca-file F]\n"
	      "  [--fingerprint HEX] [--no-verify] [--sasl-user U --sasl-pass P] [--server-pass P]\n"
	      "  [--nickserv-pass P] [--pace-burst N] [--pace-rate R] [--reconnect-min MS] [--reconnect-max MS]\n"
	      "  [--accept-invites] [--private-notice] [--name NAME]\n", stderr);
}

static int copy(char *dst, size_t cap, const char *src)
{
	if (strlen(src) >= cap) {
		fprintf(stderr, "irc_echo: value too long: %s\n", src);
		return -1;
	}
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

int main(int argc, char **argv)
{
	irc_settings s;
	irc_settings_default(&s);
	const char *name = "test";
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int flag = 1;  /* options without a value */
		if (!strcmp(o, "--tls"))
			s.tls = 1;
		else if (!strcmp(o, "--no-verify"))
			s.tls_verify = 0;
		else if (!strcmp(o, "--accept-invites"))
			s.accept_invites = 1;
		else if (!strcmp(o, "--private-notice"))
			s.private_notice = 1;
		else
			flag = 0;
		if (flag)
			continue;
		if (!v) {
			usage();
			return EX_USAGE;
		}
		i++;
		int bad = 0;
		if (!strcmp(o, "--server"))
			bad = copy(s.server, sizeof s.server, v);
		else if (!strcmp(o, "--port"))
			s.port = atoi(v);
		else if (!strcmp(o, "--nick"))
			bad = copy(s.nick, sizeof s.nick, v);
		else if (!strcmp(o, "--channel")) {
			if (s.nchannels == IRC_CHANNELS_MAX)
				bad = -1;
			else {
				irc_channel *ch = &s.channels[s.nchannels++];
				const char *comma = strchr(v, ',');
				size_t n = comma ? (size_t)(comma - v) : strlen(v);
				if (n >= sizeof ch->name)
					bad = -1;
				else {
					memcpy(ch->name, v, n);
					ch->name[n] = '\0';
					bad = copy(ch->key, sizeof ch->key, comma ? comma + 1 : "");
				}
			}
		} else if (!strcmp(o, "--ca-file"))
			bad = copy(s.ca_file, sizeof s.ca_file, v);
		else if (!strcmp(o, "--fingerprint"))
			bad = copy(s.fingerprint, sizeof s.fingerprint, v);
		else if (!strcmp(o, "--sasl-user"))
			bad = copy(s.sasl_user, sizeof s.sasl_user, v);
		else if (!strcmp(o, "--sasl-pass"))
			bad = copy(s.sasl_password, sizeof s.sasl_password, v);
		else if (!strcmp(o, "--server-pass"))
			bad = copy(s.server_password, sizeof s.server_password, v);
		else if (!strcmp(o, "--nickserv-pass"))
			bad = copy(s.nickserv_password, sizeof s.nickserv_password, v);
		else if (!strcmp(o, "--pace-burst"))
			s.pace_burst = atof(v);
		else if (!strcmp(o, "--pace-rate"))
			s.pace_per_second = atof(v);
		else if (!strcmp(o, "--reconnect-min"))
			s.reconnect_min_ms = atoi(v);
		else if (!strcmp(o, "--reconnect-max"))
			s.reconnect_max_ms = atoi(v);
		else if (!strcmp(o, "--name"))
			name = v;
		else {
			usage();
			return EX_USAGE;
		}
		if (bad)
			return EX_USAGE;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	echo e = { 0 };
	e.ev = loop_new();
	if (!e.ev)
		return EX_OSERR;
	adapter_host host = {
		.ctx = &e,
		.message = on_message,
		.joined = on_joined,
		.left = on_left,
		.renamed = on_renamed,
		.room_ready = on_room_ready,
		.room_lost = on_room_lost,
		.link = on_link,
	};
	e.net = irc_adapter_new(e.ev, &host, name, &s);
	if (!e.net) {
		loop_free(e.ev);
		return EX_CONFIG;
	}
	loop_on_signal(e.ev, SIGTERM, on_signal, &e);
	loop_on_signal(e.ev, SIGINT, on_signal, &e);
	e.net->ops->start(e.net);
	loop_run(e.ev);
	e.net->ops->free(e.net);
	loop_free(e.ev);
	printf("exit\n");
	return 0;
}
