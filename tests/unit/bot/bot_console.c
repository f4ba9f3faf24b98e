/* bot_console.c: the console adapter (adapters/console.c) over pipes, with a
 * recording host: input split and glued across reads, overlong and
 * truncated lines, text cut at a character boundary, mentions, formatting
 * taken out or turned into terminal colours, private lines for others kept
 * from the person at the terminal, rooms reported ready from the loop. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "console.h"
#include "log.h"
#include "loop.h"
#include "utf8.h"

typedef struct rec {
	int messages, joins, lefts, renames, readies, ups, downs;
	char room[ADAPTER_ID_MAX], user[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX];
	char text[ADAPTER_TEXT_MAX + 8];
	int flags;
	int room_null;
} rec;

static void on_message(void *ctx, adapter *a, const char *room, const char *user, const char *name, const char *text,
		       int flags)
{
	(void)a;
	rec *r = ctx;
	r->messages++;
	r->room_null = room == NULL;
	snprintf(r->room, sizeof r->room, "%s", room ? room : "");
	snprintf(r->user, sizeof r->user, "%s", user);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->text, sizeof r->text, "%s", text);
	r->flags = flags;
}

static void on_joined(void *ctx, adapter *a, const char *room, const char *user, const char *name)
{
	(void)a, (void)room, (void)name;
	rec *r = ctx;
	r->joins++;
	snprintf(r->user, sizeof r->user, "%s", user);
}

static void on_left(void *ctx, adapter *a, const char *room, const char *user, const char *why)
{
	(void)a, (void)why;
	rec *r = ctx;
	r->lefts++;
	r->room_null = room == NULL;
	snprintf(r->user, sizeof r->user, "%s", user);
}

static void on_renamed(void *ctx, adapter *a, const char *old_user, const char *new_user, const char *new_name)
{
	(void)a, (void)old_user;
	rec *r = ctx;
	r->renames++;
	snprintf(r->user, sizeof r->user, "%s", new_user);
	snprintf(r->name, sizeof r->name, "%s", new_name);
}

static void on_ready(void *ctx, adapter *a, const char *room)
{
	(void)a;
	rec *r = ctx;
	r->readies++;
	snprintf(r->room, sizeof r->room, "%s", room);
}

static void on_link(void *ctx, adapter *a, int up, const char *why)
{
	(void)a, (void)why;
	rec *r = ctx;
	if (up)
		r->ups++;
	else
		r->downs++;
}

/* Lines handed to a sink. */
struct sunk {
	int n;
	char last[4096];
};

static void sink(void *ctx, const char *line)
{
	struct sunk *k = ctx;
	k->n++;
	snprintf(k->last, sizeof k->last, "%s", line);
}

typedef struct rig {
	loop *ev;
	adapter *a;
	rec r;
	int in_w, out_r;  /* our ends: we write its input, read its output */
	char got[65536];
	size_t gotlen;
} rig;

static void rig_open(rig *g, int human, int colour)
{
	memset(g, 0, sizeof *g);
	int in[2], out[2];
	if (pipe(in) < 0 || pipe(out) < 0) {
		perror("pipe");
		exit(1);
	}
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	g->in_w = in[1];
	g->out_r = out[0];
	g->ev = loop_new();
	adapter_host h = { .ctx = &g->r, .message = on_message, .joined = on_joined, .left = on_left,
			   .renamed = on_renamed, .room_ready = on_ready, .link = on_link };
	console_settings s;
	console_settings_default(&s);
	s.in_fd = in[0];
	s.out_fd = out[1];
	s.human = human;
	s.colour = colour;
	snprintf(s.user, sizeof s.user, "ann");
	g->a = console_adapter_new(g->ev, &h, "test", &s);
	g->a->ops->start(g->a);
}

static void rig_close(rig *g)
{
	g->a->ops->free(g->a);
	loop_free(g->ev);
	close(g->in_w);
	close(g->out_r);
	/* The adapter's ends are the rig's too (it never closes them): leaked
	 * for the test's short life. */
}

/* Runs the loop a few rounds and collects what was written. */
static void spin(rig *g)
{
	for (int i = 0; i < 6; i++)
		loop_once(g->ev, 20);
	ssize_t n;
	while ((n = read(g->out_r, g->got + g->gotlen, sizeof g->got - 1 - g->gotlen)) > 0)
		g->gotlen += (size_t)n;
	g->got[g->gotlen] = '\0';
}

static void put(rig *g, const char *s)
{
	if (write(g->in_w, s, strlen(s)) != (ssize_t)strlen(s))
		perror("write");
}

int main(void)
{
	log_set_level(LOG_ERROR); /* the malformed lines below are meant */
	signal(SIGPIPE, SIG_IGN); /* as cardbot does: a closed output is an error to handle */
	rig g;

	/* ---- JSON mode: input ---- */
	rig_open(&g, 0, 0);
	CHECK(g.r.ups == 1, "start says the link is up");
	/* A line split over two writes is one message; two glued in one write are two. */
	put(&g, "{\"room\":\"#t\",\"user\":\"ann\",\"name\":\"Ann\",");
	spin(&g);
	CHECK(g.r.messages == 0, "half a line is no message yet");
	put(&g, "\"text\":\"!sit\"}\n");
	spin(&g);
	CHECK(g.r.messages == 1 && !strcmp(g.r.room, "#t") && !strcmp(g.r.user, "ann") && !strcmp(g.r.name, "Ann")
		      && !strcmp(g.r.text, "!sit") && g.r.flags == 0,
	      "a room message: %d %s %s %s %s", g.r.messages, g.r.room, g.r.user, g.r.name, g.r.text);
	put(&g, "{\"user\":\"bob\",\"text\":\"hand\",\"notice\":true}\n{\"user\":\"cat\",\"room\":null,\"text\":\"x\"}\n");
	spin(&g);
	CHECK(g.r.messages == 3 && g.r.room_null && !strcmp(g.r.user, "cat") && !strcmp(g.r.name, "cat"),
	      "two glued lines are two private messages; the name defaults to the user");
	put(&g, "{\"user\":\"bob\",\"text\":\"hand\",\"notice\":true}\r\n");
	spin(&g);
	CHECK(g.r.messages == 4 && (g.r.flags & 1), "a notice is marked (and a CR before the newline is dropped)");
	/* An overlong line is skipped to its end, whatever it holds. */
	char *big = malloc(CONSOLE_LINE_MAX + 200);
	memset(big, 'x', CONSOLE_LINE_MAX + 100);
	memcpy(big + CONSOLE_LINE_MAX + 20, "{\"user\":\"z\",\"text\":\"no\"}", 24);
	big[CONSOLE_LINE_MAX + 100] = '\0';
	put(&g, big);
	spin(&g);
	put(&g, "\n{\"user\":\"dan\",\"text\":\"yes\"}\n");
	spin(&g);
	CHECK(g.r.messages == 5 && !strcmp(g.r.user, "dan"), "after an overlong line the next one is read (%d, %s)",
	      g.r.messages, g.r.user);
	/* Text longer than ADAPTER_TEXT_MAX is cut at a character boundary. */
	char *longtext = malloc(3 * ADAPTER_TEXT_MAX + 64);
	strcpy(longtext, "{\"user\":\"eve\",\"text\":\"");
	size_t l = strlen(longtext);
	for (int i = 0; i < ADAPTER_TEXT_MAX; i++, l += 2)
		memcpy(longtext + l, "\xc3\xa9", 2); /* é */
	strcpy(longtext + l, "\"}\n");
	put(&g, longtext);
	spin(&g);
	CHECK(g.r.messages == 6 && strlen(g.r.text) < ADAPTER_TEXT_MAX && strlen(g.r.text) % 2 == 0
		      && utf8_valid(g.r.text, strlen(g.r.text)),
	      "long text cut whole characters (%zu bytes)", strlen(g.r.text));
	/* Malformed lines are no messages. */
	put(&g, "nope\n{\"user\":1,\"text\":\"a\"}\n{\"user\":\"a\",\"text\":\"\xc3\"}\n[]\n{}\n\n{\"user\":\"a\n");
	spin(&g);
	CHECK(g.r.messages == 6, "malformed lines are ignored (%d)", g.r.messages);
	put(&g, "\"}\n");
	spin(&g);
	CHECK(g.r.messages == 6, "a line broken by a newline inside a string is two bad lines");
	put(&g, "{\"join\":\"#t\",\"user\":\"fay\",\"name\":\"Fay\"}\n{\"part\":null,\"user\":\"fay\"}\n"
		"{\"rename\":\"ann\",\"to\":\"anne\",\"name\":\"Anne\"}\n");
	spin(&g);
	CHECK(g.r.joins == 1 && g.r.lefts == 1 && g.r.room_null && g.r.renames == 1 && !strcmp(g.r.user, "anne")
		      && !strcmp(g.r.name, "Anne"),
	      "join, part from the network, rename");

	/* ---- JSON mode: output ---- */
	g.gotlen = 0;
	{
		const char *parts[] = { "\x02" "Anne\x0f: your turn", "\x03" "04J\xe2\x99\xa5\x03" };
		adapter_msg msg = { parts, 2, "anne", ADAPTER_NOTICE };
		g.a->ops->send(g.a, "#t", NULL, &msg);
	}
	g.a->ops->send_private(g.a, "bob", "hand: 1:J\xe2\x99\xa0", 0);
	g.a->ops->send_private(g.a, "bob", "your turn", ADAPTER_HIGHLIGHT);
	g.a->ops->send_room(g.a, "#t", "nobody named", ADAPTER_HIGHLIGHT);
	spin(&g);
	const char *want = "{\"to\":\"#t\",\"text\":\"Anne: your turn \xc2\xb7 J\xe2\x99\xa5\",\"notice\":true,\"mention\":\"anne\",\"id\":1}\n"
			   "{\"user\":\"bob\",\"text\":\"hand: 1:J\xe2\x99\xa0\",\"notice\":false,\"id\":2}\n"
			   "{\"user\":\"bob\",\"text\":\"your turn\",\"notice\":false,\"mention\":\"bob\",\"id\":3}\n"
			   "{\"to\":\"#t\",\"text\":\"nobody named\",\"notice\":false,\"id\":4}\n";
	CHECK(!strcmp(g.got, want), "JSON output:\n%s\nwanted:\n%s", g.got, want);
	/* join: the room is ready from the loop, not inside the call. */
	g.a->ops->join(g.a, "#new", NULL);
	CHECK(g.r.readies == 0, "not ready inside join");
	spin(&g);
	CHECK(g.r.readies == 1 && !strcmp(g.r.room, "#new"), "ready from the loop");
	/* Many at once (tables restored after a restart): each once. */
	for (int i = 0; i < 100; i++) {
		char room[16];
		snprintf(room, sizeof room, "#r%d", i % 50);
		g.a->ops->join(g.a, room, NULL);
	}
	spin(&g);
	CHECK(g.r.readies == 51, "fifty rooms joined twice each are ready once each (%d)", g.r.readies - 1);
	g.gotlen = 0;
	g.a->ops->stop(g.a, "bye");
	spin(&g);
	g.a->ops->send_room(g.a, "#t", "too late", 0);
	g.a->ops->stop(g.a, "again");
	spin(&g);
	CHECK(!strcmp(g.got, "{\"stopped\":\"bye\"}\n"), "stop says so, last: %s", g.got);
	CHECK(console_finished(g.a), "stopped and flushed is finished");
	rig_close(&g);

	/* The end of input: a last line without its newline still counts. */
	rig_open(&g, 0, 0);
	put(&g, "{\"user\":\"gus\",\"text\":\"last\"}");
	close(g.in_w);
	g.in_w = open("/dev/null", O_WRONLY);
	spin(&g);
	CHECK(g.r.messages == 1 && !strcmp(g.r.text, "last"), "a last line without a newline is read");
	CHECK(g.r.downs == 1 && console_finished(g.a), "the end of input: link down, finished");
	rig_close(&g);

	/* Nobody reads the output any more: the console is over, the process lives. */
	rig_open(&g, 0, 0);
	close(g.out_r);
	g.out_r = open("/dev/null", O_RDONLY);
	g.a->ops->send_room(g.a, "#t", "into the void", 0);
	spin(&g);
	CHECK(g.r.downs == 1 && console_finished(g.a), "a closed output ends the console (%d)", g.r.downs);
	rig_close(&g);

	/* ---- human mode ---- */
	rig_open(&g, 1, 1);
	put(&g, "  !bid 60  \n/msg cardbot hand\n\n");
	spin(&g);
	CHECK(g.r.messages == 2 && g.r.room_null && !strcmp(g.r.user, "ann") && !strcmp(g.r.text, "hand"),
	      "typed lines are private messages from the person; '/msg cardbot' is taken off (%d, %s)", g.r.messages,
	      g.r.text);
	put(&g, "bid\x01 1\n\xff\n");
	spin(&g);
	CHECK(g.r.messages == 2, "control characters and bad UTF-8 are not passed on");
	g.gotlen = 0;
	g.a->ops->send_room(g.a, "#t", "ann \x03" "04" "10\xe2\x99\xa5\x03 \x02won\x02", 0);
	g.a->ops->send_private(g.a, "ann", "hand", 0);
	g.a->ops->send_private(g.a, "bob", "bob's hand", 0);
	spin(&g);
	want = "ann \033[31m10\xe2\x99\xa5\033[39m \033[1mwon\033[22m\033[0m\n(private) hand\n";
	CHECK(!strcmp(g.got, want), "human output with colours, private marked, others' kept back:\n%s", g.got);
	put(&g, "QUIT\n{\"user\":\"x\",\"text\":\"y\"}\n");
	spin(&g);
	CHECK(console_finished(g.a) && g.r.messages == 2, "quit ends the input; nothing after it is read");
	rig_close(&g);

	rig_open(&g, 1, 0);
	g.a->ops->send_room(g.a, "#t", "\x03" "04,01red\x03 \x1d" "it\x1d\tx", 0);
	spin(&g);
	CHECK(!strcmp(g.got, "red it x\n"), "human output without colours is plain: [%s]", g.got);
	rig_close(&g);

	/* ---- in the same process: a sink, codes kept, origins ---- */
	{
		struct sunk sk = { 0 };
		loop *ev = loop_new();
		rec r = { 0 };
		adapter_host h = { .ctx = &r, .message = on_message, .renamed = on_renamed, .joined = on_joined };
		console_settings s;
		console_settings_default(&s);
		s.in_fd = s.out_fd = -1;
		s.sink = sink;
		s.sink_ctx = &sk;
		s.codes = 1;
		snprintf(s.origin_host, sizeof s.origin_host, "elsewhere.example");
		adapter *a = console_adapter_new(ev, &h, "test", &s);
		a->ops->send_room(a, "#t", "\x03" "04J\xe2\x99\xa5\x03 x\ny", 0);
		const char *want1 = "{\"to\":\"#t\",\"text\":\"\\u000304J\xe2\x99\xa5\\u0003 x\\ny\",\"notice\":false,\"id\":1}";
		CHECK(sk.n == 1 && !strcmp(sk.last, want1), "a sink has the line at once, codes kept:\n%s\nwanted:\n%s",
		      sk.last, want1);
		char o[ADAPTER_ID_MAX];
		CHECK(a->ops->origin(a, "ann", o, sizeof o) == 1 && !strcmp(o, "ann!ann@elsewhere.example"),
		      "origin_host: %s", o);
		const char *in1 = "{\"room\":\"#t\",\"user\":\"boss\",\"host\":\"home.example.org\",\"text\":\"hi\"}\n";
		console_feed(a, in1, strlen(in1));
		CHECK(r.messages == 1 && !strcmp(r.text, "hi"), "console_feed hands the host the line at once");
		CHECK(a->ops->origin(a, "boss", o, sizeof o) == 1 && !strcmp(o, "boss!boss@home.example.org"),
		      "a line's host is remembered: %s", o);
		const char *in2 = "{\"rename\":\"boss\",\"to\":\"boss2\"}\n";
		console_feed(a, in2, strlen(in2));
		CHECK(a->ops->origin(a, "boss2", o, sizeof o) == 1 && !strcmp(o, "boss2!boss2@home.example.org")
			      && a->ops->origin(a, "boss", o, sizeof o) == 1 && !strcmp(o, "boss!boss@elsewhere.example"),
		      "the host follows a rename");
		a->ops->stop(a, "bye");
		CHECK(sk.n == 2 && !strcmp(sk.last, "{\"stopped\":\"bye\"}"), "stop is a line to the sink too: %s", sk.last);
		a->ops->free(a);
		console_settings_default(&s);
		a = console_adapter_new(ev, &h, "test", &s);
		CHECK(a->ops->origin(a, "ann", o, sizeof o) == 0 && !o[0], "by default no origin is known");
		a->ops->free(a);
		loop_free(ev);
	}

	free(big);
	free(longtext);
	return check_report("bot_console");
}
