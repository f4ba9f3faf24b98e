/* console.c: the console adapter (console.h): JSON lines or a person's terminal over two descriptors. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json-c/json.h>

#include "console.h"
#include "log.h"
#include "strbuf.h"
#include "loop.h"
#include "utf8.h"

#define CONSOLE_READ_CHUNK 4096  /* bytes read at a time */
#define CONSOLE_WRITE_CHUNK 4096 /* bytes written at a time: PIPE_BUF, so a writable pipe never blocks */
#define CONSOLE_HOSTS_MAX 64     /* users whose "host" is remembered; the oldest is forgotten first */

/* The host an input line named for a user (console_settings.origin_host). */
typedef struct console_host {
	char user[ADAPTER_ID_MAX], host[ADAPTER_ID_MAX];
} console_host;

typedef struct console {
	adapter base;                  /* first: an adapter * is a console * */
	console_settings s;
	int src_id;
	char component[96];            /* "console[name]" for the log */
	char *in;                      /* CONSOLE_LINE_MAX + 1 bytes: the line being read */
	size_t inlen;
	int skipping;                  /* an overlong line is being skipped to its end */
	long lineno;                   /* input lines seen, for messages */
	int in_done;                   /* end of input, "quit", or stopped */
	int write_failed;              /* the output is gone: nothing more is written */
	char *out;                     /* what waits to be written */
	size_t outlen, outcap;
	uint64_t next_id;              /* JSON mode: the next line's id */
	uint64_t t_ready;              /* a timer telling the host of joined rooms */
	char (*pending)[ADAPTER_ID_MAX]; /* rooms joined, not yet reported ready (owned) */
	int npending, pending_cap;
	int dropped;                   /* lines dropped for a full output, since the last warning */
	int stopped;                   /* ops->stop was called: nothing more is said */
	console_host *hosts;           /* CONSOLE_HOSTS_MAX, allocated at the first "host" (owned) */
	int nhosts, next_host;         /* entries used; the one to replace when full */
} console;

void console_settings_default(console_settings *s)
{
	memset(s, 0, sizeof *s);
	s->in_fd = 0;
	s->out_fd = 1;
	snprintf(s->self, sizeof s->self, "cardbot");
	snprintf(s->user, sizeof s->user, "you");
}

static console *console_of(const adapter *a)
{
	return (console *)a;
}

/* ---- output ---- */

static void out_add(console *c, const char *s, size_t n)
{
	if (c->write_failed)
		return;
	if (c->outlen + n > CONSOLE_OUT_MAX) {
		if (!c->dropped++)
			log_msg(LOG_WARN, c->component, "the output is not being read; lines are dropped");
		return;
	}
	if (c->outlen + n > c->outcap) {
		size_t cap = c->outcap ? c->outcap : 4096;
		while (cap < c->outlen + n)
			cap *= 2;
		char *p = realloc(c->out, cap);
		if (!p) {
			log_msg(LOG_ERROR, c->component, "out of memory; a line is dropped");
			return;
		}
		c->out = p;
		c->outcap = cap;
	}
	memcpy(c->out + c->outlen, s, n);
	c->outlen += n;
	c->dropped = 0;
}

/* One whole line of output (n bytes, no newline): to the sink, or queued
 * for the output with its newline. */
static void put_line(console *c, const char *s, size_t n)
{
	if (c->s.sink) {
		char *line = malloc(n + 1);
		if (!line) {
			log_msg(LOG_ERROR, c->component, "out of memory; a line is dropped");
			return;
		}
		memcpy(line, s, n);
		line[n] = '\0';
		c->s.sink(c->s.sink_ctx, line);
		free(line);
		return;
	}
	out_add(c, s, n);
	out_add(c, "\n", 1);
}

/* Writes one chunk; returns -1 when the output is gone. */
static int out_write(console *c)
{
	if (!c->outlen || c->write_failed)
		return 0;
	size_t n = c->outlen < CONSOLE_WRITE_CHUNK ? c->outlen : CONSOLE_WRITE_CHUNK;
	ssize_t w = write(c->s.out_fd, c->out, n);
	if (w < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (w <= 0) {
		log_msg(LOG_WARN, c->component, "cannot write the output (%s); what the bot says is lost",
			w < 0 ? strerror(errno) : "nothing written");
		c->write_failed = 1;
		c->outlen = 0;
		return -1;
	}
	memmove(c->out, c->out + w, c->outlen - (size_t)w);
	c->outlen -= (size_t)w;
	return 0;
}

void console_flush(adapter *a, int ms)
{
	console *c = console_of(a);
	int64_t end = loop_now() + ms;
	while (c->outlen && !c->write_failed) {
		long left = (long)(end - loop_now());
		if (left <= 0)
			break;
		struct pollfd p = { .fd = c->s.out_fd, .events = POLLOUT };
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && out_write(c) < 0)
			break;
	}
}

/* Room enough for a text of ADAPTER_TEXT_MAX bytes with every code a terminal escape. */
#define CONSOLE_SHOWN_MAX (ADAPTER_TEXT_MAX * 4)

/* Writes text into out (cap bytes, NUL included) without IRC formatting:
 * bold, colours with their numbers, reset, italics, underline, reverse,
 * strike-through, monospace. With `ansi`, colours and bold become terminal
 * escapes instead. Cut (at a character boundary) when out is full. Returns
 * the length. */
static size_t shown_text(const char *text, int ansi, char *out, size_t cap)
{
	/* mIRC colour numbers to ANSI foregrounds. */
	static const int ansi_of[16] = { 97, 30, 34, 32, 31, 31, 35, 33, 93, 92, 36, 96, 94, 95, 90, 37 };
	const unsigned char *p = (const unsigned char *)text;
	size_t n = 0;
	int styled = 0, bold = 0;
	char esc[16];
#define PUT(s, len)                                  \
	do {                                         \
		size_t l_ = (len);                   \
		if (n + l_ + 5 > cap)                \
			goto full;                   \
		memcpy(out + n, (s), l_);            \
		n += l_;                             \
	} while (0)
	while (*p) {
		if (*p >= 0x20) {
			/* A whole character at a time, so a cut never splits one. */
			size_t l = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
			for (size_t i = 1; i < l; i++)
				if ((p[i] & 0xc0) != 0x80)
					l = i;
			PUT(p, l);
			p += l;
			continue;
		}
		unsigned char k = *p++;
		if (k == 0x03) {
			int fg = -1;
			if (*p >= '0' && *p <= '9') {
				fg = *p++ - '0';
				if (*p >= '0' && *p <= '9')
					fg = fg * 10 + (*p++ - '0');
				if (*p == ',' && p[1] >= '0' && p[1] <= '9') {
					p += 2;
					if (*p >= '0' && *p <= '9')
						p++;
				}
			}
			if (ansi) {
				int l = snprintf(esc, sizeof esc, "\033[%dm", fg >= 0 && fg < 16 ? ansi_of[fg] : 39);
				PUT(esc, (size_t)l);
				styled = 1;
			}
		} else if (k == 0x04) { /* hex colour: six hex digits */
			for (int i = 0; i < 6 && *p && strchr("0123456789abcdefABCDEF", *p); i++)
				p++;
		} else if (k == 0x02 && ansi) {
			if (bold)
				PUT("\033[22m", 5);
			else
				PUT("\033[1m", 4);
			bold = !bold;
			styled = 1;
		} else if (k == 0x0f && ansi) {
			PUT("\033[0m", 4);
			bold = 0;
		} else if (k == '\t') {
			PUT(" ", 1);
		}
		/* every other control character is dropped */
	}
#undef PUT
full:
	if (styled) {
		memcpy(out + n, "\033[0m", 4);
		n += 4;
	}
	out[n] = '\0';
	return n;
}

static const char *cut_text(const char *text, char buf[ADAPTER_TEXT_MAX]);

static void send_line(console *c, const char *room, const char *user, const char *text, int flags,
		      const char *mention)
{
	/* After the goodbye, as on a network the bot has left. */
	if (c->write_failed || c->stopped)
		return;
	char shown[CONSOLE_SHOWN_MAX + 16];
	size_t n;
	if (c->s.human) {
		/* One person at the terminal: what is said privately to anyone
		 * else (none today) is theirs, not this person's, to read. */
		if (user && strcmp(user, c->s.user)) {
			log_msg(LOG_DEBUG, c->component, "a private line for %s is not shown", user);
			return;
		}
		n = user ? 10 : 0;
		memcpy(shown, "(private) ", n);
		n += shown_text(text, c->s.colour, shown + n, sizeof shown - n);
		put_line(c, shown, n);
		return;
	}
	if (c->s.codes) {
		char buf[ADAPTER_TEXT_MAX];
		const char *t = cut_text(text, buf);
		n = strlen(t);
		memcpy(shown, t, n + 1);
	} else {
		n = shown_text(text, 0, shown, sizeof shown);
	}
	json_object *o = json_object_new_object();
	if (!o)
		return;
	if (room)
		json_object_object_add(o, "to", json_object_new_string(room));
	else
		json_object_object_add(o, "user", json_object_new_string(user));
	/* The text as the line carries it: plain, no formatting codes. */
	json_object_object_add(o, "text", json_object_new_string_len(shown, (int)n));
	json_object_object_add(o, "notice", json_object_new_boolean(!!(flags & ADAPTER_NOTICE)));
	/* Whom it alerts: the host says (a message's mention); a private line
	 * flagged to alert alerts its reader. */
	if (!mention && !room && (flags & ADAPTER_HIGHLIGHT))
		mention = user;
	if (mention)
		json_object_object_add(o, "mention", json_object_new_string(mention));
	json_object_object_add(o, "id", json_object_new_int64((int64_t)++c->next_id));
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	put_line(c, s, strlen(s));
	json_object_put(o);
}

/* ---- input ---- */

/* A string member: 1 with *out set (borrowed from o), 0 when absent or
 * null, -1 (why says) when it is there but not a fitting string. */
static int get_str(json_object *o, const char *key, size_t max, const char **out, const char **why)
{
	json_object *v;
	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || json_object_get_type(v) == json_type_null)
		return 0;
	if (json_object_get_type(v) != json_type_string) {
		*why = "is not a string";
		return -1;
	}
	const char *s = json_object_get_string(v);
	size_t n = (size_t)json_object_get_string_len(v);
	if (strlen(s) != n) {
		*why = "holds a NUL character";
		return -1;
	}
	if (!utf8_valid(s, n)) {
		*why = "is not valid UTF-8";
		return -1;
	}
	if (n >= max) {
		*why = "is too long";
		return -1;
	}
	*out = s;
	return 1;
}

/* An identifier: a string of 1 to ADAPTER_ID_MAX - 1 bytes, no control characters or spaces. */
static int get_id(json_object *o, const char *key, const char **out, const char **why)
{
	int r = get_str(o, key, ADAPTER_ID_MAX, out, why);
	if (r == 1) {
		if (!**out) {
			*why = "is empty";
			return -1;
		}
		for (const unsigned char *p = (const unsigned char *)*out; *p; p++)
			if (*p <= 0x20 || *p == 0x7f) {
				*why = "holds a space or a control character";
				return -1;
			}
	}
	return r;
}

/* A display name: like an id, but spaces are allowed (control characters are not). */
static int get_name(json_object *o, const char *key, const char **out, const char **why)
{
	int r = get_str(o, key, ADAPTER_ID_MAX, out, why);
	if (r == 1)
		for (const unsigned char *p = (const unsigned char *)*out; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				*why = "holds a control character";
				return -1;
			}
	return r;
}

/* The remembered host of `user`, or NULL. */
static console_host *host_of(const console *c, const char *user)
{
	for (int i = 0; i < c->nhosts; i++)
		if (!strcasecmp(c->hosts[i].user, user))
			return &c->hosts[i];
	return NULL;
}

/* Remembers that `user` speaks from `host`. */
static void host_set(console *c, const char *user, const char *host)
{
	console_host *h = host_of(c, user);
	if (!h) {
		if (!c->hosts && !(c->hosts = calloc(CONSOLE_HOSTS_MAX, sizeof *c->hosts))) {
			log_msg(LOG_ERROR, c->component, "out of memory: the host of %s is not kept", user);
			return;
		}
		if (c->nhosts < CONSOLE_HOSTS_MAX) {
			h = &c->hosts[c->nhosts++];
		} else {
			h = &c->hosts[c->next_host];
			c->next_host = (c->next_host + 1) % CONSOLE_HOSTS_MAX;
		}
		snprintf(h->user, sizeof h->user, "%s", user);
	}
	snprintf(h->host, sizeof h->host, "%s", host);
}

static void bad_line(console *c, const char *what, const char *why)
{
	log_msg(LOG_WARN, c->component, "input line %ld: %s%s%s; ignored", c->lineno, what, why ? " " : "",
		why ? why : "");
}

/* Cuts text to ADAPTER_TEXT_MAX - 1 bytes at a character boundary, into buf. */
static const char *cut_text(const char *text, char buf[ADAPTER_TEXT_MAX])
{
	size_t n = strlen(text);
	if (n < ADAPTER_TEXT_MAX)
		return text;
	n = ADAPTER_TEXT_MAX - 1;
	while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
		n--;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return buf;
}

static void json_line(console *c, const char *line, size_t len)
{
	json_tokener *tok = json_tokener_new();
	if (!tok) {
		bad_line(c, "could not be read:", "out of memory");
		return;
	}
	json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || e != json_tokener_success) {
		bad_line(c, "is not JSON:", e == json_tokener_continue ? "it ends too soon" : json_tokener_error_desc(e));
		json_object_put(o);
		return;
	}
	while (used < len && (line[used] == ' ' || line[used] == '\t'))
		used++;
	if (used < len) {
		bad_line(c, "has something after its JSON object", NULL);
		json_object_put(o);
		return;
	}
	if (json_object_get_type(o) != json_type_object) {
		bad_line(c, "is not a JSON object", NULL);
		json_object_put(o);
		return;
	}
	const char *why = NULL, *user, *name, *room, *text, *other, *host;
	adapter_host *h = &c->base.host;
	char key[32];
	int r;
#define FIELD(call, k)                                  \
	do {                                            \
		snprintf(key, sizeof key, "\"%s\"", k); \
		if ((r = (call)) < 0)                   \
			goto bad;                       \
	} while (0)
	if (json_object_object_get_ex(o, "join", NULL)) {
		FIELD(get_id(o, "join", &room, &why), "join");
		FIELD(get_id(o, "user", &user, &why), "user");
		FIELD(get_name(o, "name", &name, &why), "name");
		FIELD(get_id(o, "host", &host, &why), "host");
		if (!room || !user) {
			bad_line(c, "is a join without", !room ? "a room (\"join\")" : "a \"user\"");
		} else {
			if (host)
				host_set(c, user, host);
			if (h->joined)
				h->joined(h->ctx, &c->base, room, user, name ? name : user);
		}
	} else if (json_object_object_get_ex(o, "part", NULL)) {
		FIELD(get_id(o, "part", &room, &why), "part");
		FIELD(get_id(o, "user", &user, &why), "user");
		FIELD(get_name(o, "why", &other, &why), "why");
		FIELD(get_id(o, "host", &host, &why), "host");
		if (!user) {
			bad_line(c, "is a part without", "a \"user\"");
		} else {
			if (host)
				host_set(c, user, host);
			if (h->left)
				h->left(h->ctx, &c->base, room, user, other ? other : "");
		}
	} else if (json_object_object_get_ex(o, "rename", NULL)) {
		FIELD(get_id(o, "rename", &user, &why), "rename");
		FIELD(get_id(o, "to", &other, &why), "to");
		FIELD(get_name(o, "name", &name, &why), "name");
		if (!user || !other) {
			bad_line(c, "is a rename without", !user ? "the old user (\"rename\")" : "the new one (\"to\")");
		} else {
			/* The host follows the person to the new name. */
			console_host *from = host_of(c, user), *to = host_of(c, other);
			if (from && to && to != from)
				to->user[0] = '\0'; /* found by no name: replaced in turn */
			if (from)
				snprintf(from->user, sizeof from->user, "%s", other);
			if (h->renamed)
				h->renamed(h->ctx, &c->base, user, other, name ? name : other);
		}
	} else if (json_object_object_get_ex(o, "text", NULL)) {
		FIELD(get_id(o, "room", &room, &why), "room");
		FIELD(get_id(o, "user", &user, &why), "user");
		FIELD(get_name(o, "name", &name, &why), "name");
		FIELD(get_id(o, "host", &host, &why), "host");
		/* Longer text is cut (adapter.h), but no line may be endless. */
		FIELD(get_str(o, "text", CONSOLE_LINE_MAX, &text, &why), "text");
		json_object *nv = NULL;
		int notice = 0;
		if (json_object_object_get_ex(o, "notice", &nv) && json_object_get_type(nv) != json_type_null) {
			if (json_object_get_type(nv) != json_type_boolean) {
				snprintf(key, sizeof key, "\"notice\"");
				why = "is not true or false";
				goto bad;
			}
			notice = json_object_get_boolean(nv);
		}
		if (!user || !text) {
			bad_line(c, "is a message without", !user ? "a \"user\"" : "a \"text\"");
		} else {
			char buf[ADAPTER_TEXT_MAX];
			if (host)
				host_set(c, user, host);
			if (h->message)
				h->message(h->ctx, &c->base, room, user, name ? name : user, cut_text(text, buf),
					   notice ? ADAPTER_NOTICE : 0);
		}
	} else {
		bad_line(c, "is none of a message (\"text\"), \"join\", \"part\" or \"rename\"", NULL);
	}
#undef FIELD
	json_object_put(o);
	return;
bad:
	log_msg(LOG_WARN, c->component, "input line %ld: %s %s; ignored", c->lineno, key, why);
	json_object_put(o);
}

static void input_ended(console *c, const char *why);

static void human_line(console *c, char *line, size_t len)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		line[--len] = '\0';
	while (*line == ' ' || *line == '\t')
		line++, len--;
	if (!len)
		return;
	const char *word = line[0] == '!' ? line + 1 : line;
	if (!strcasecmp(word, "quit") || !strcasecmp(word, "exit")) {
		input_ended(c, "quit");
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\t')
			line[i] = ' ';
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f) {
			bad_line(c, "holds a control character", "(type a command: bid 60, play js, hand, help)");
			return;
		}
	}
	/* The bot's own texts say "/msg cardbot CMD": typed as written, it is CMD. */
	size_t sl = strlen(c->s.self);
	if (!strncasecmp(line, "/msg ", 5) && !strncasecmp(line + 5, c->s.self, sl) && line[5 + sl] == ' ')
		line += 6 + sl;
	char buf[ADAPTER_TEXT_MAX];
	adapter_host *h = &c->base.host;
	if (h->message)
		h->message(h->ctx, &c->base, NULL, c->s.user, c->s.user, cut_text(line, buf), 0);
}

static void one_line(console *c, char *line, size_t len)
{
	c->lineno++;
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (memchr(line, '\0', len)) {
		bad_line(c, "holds a NUL byte", NULL);
		return;
	}
	if (!utf8_valid(line, len)) {
		bad_line(c, "is not valid UTF-8", NULL);
		return;
	}
	if (c->s.human)
		human_line(c, line, len);
	else if (len)
		json_line(c, line, len);
}

static void input_ended(console *c, const char *why)
{
	if (c->in_done)
		return;
	c->in_done = 1;
	log_msg(c->s.human ? LOG_DEBUG : LOG_INFO, c->component, "%s", why);
	adapter_host *h = &c->base.host;
	if (h->link)
		h->link(h->ctx, &c->base, 0, why);
}

/* Takes in bytes read from the input; n == 0 is its end. */
static void feed(console *c, const char *chunk, size_t n)
{
	if (c->in_done)
		return;
	if (n == 0) {
		/* A last line without its newline is still a line (a truncated
		 * one shows as such). */
		if (c->inlen && !c->skipping) {
			c->in[c->inlen] = '\0';
			one_line(c, c->in, c->inlen);
		}
		c->inlen = 0;
		input_ended(c, "end of input");
		return;
	}
	for (size_t i = 0; i < n && !c->in_done; i++) {
		char ch = chunk[i];
		if (ch == '\n') {
			if (c->skipping) {
				c->skipping = 0;
			} else {
				c->in[c->inlen] = '\0';
				one_line(c, c->in, c->inlen);
			}
			c->inlen = 0;
		} else if (c->skipping) {
			continue;
		} else if (c->inlen >= CONSOLE_LINE_MAX) {
			char why[64];
			snprintf(why, sizeof why, "%d bytes", CONSOLE_LINE_MAX);
			c->lineno++;
			bad_line(c, "is longer than", why);
			c->skipping = 1;
			c->inlen = 0;
		} else {
			c->in[c->inlen++] = ch;
		}
	}
}

void console_feed(adapter *a, const char *data, size_t len)
{
	feed(console_of(a), data, len);
}

static void read_input(console *c)
{
	char chunk[CONSOLE_READ_CHUNK];
	ssize_t n = read(c->s.in_fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n < 0) {
		c->inlen = 0;
		input_ended(c, strerror(errno));
		return;
	}
	feed(c, chunk, (size_t)n);
}

/* ---- the loop ---- */

static void src_prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	(void)timeout_ms;
	console *c = ctx;
	if (!c->in_done && c->s.in_fd >= 0) {
		FD_SET(c->s.in_fd, rd);
		if (c->s.in_fd > *maxfd)
			*maxfd = c->s.in_fd;
	}
	if (c->outlen && !c->write_failed) {
		FD_SET(c->s.out_fd, wr);
		if (c->s.out_fd > *maxfd)
			*maxfd = c->s.out_fd;
	}
}

static void src_dispatch(void *ctx, fd_set *rd, fd_set *wr)
{
	console *c = ctx;
	/* Nobody hears the bot any more: the console is over. */
	if (c->outlen && FD_ISSET(c->s.out_fd, wr) && out_write(c) < 0)
		input_ended(c, "the output is closed");
	if (!c->in_done && c->s.in_fd >= 0 && FD_ISSET(c->s.in_fd, rd))
		read_input(c);
}

static void on_ready(void *ctx)
{
	console *c = ctx;
	c->t_ready = 0;
	adapter_host *h = &c->base.host;
	/* A room_ready callback may join again: take the list first. */
	char (*rooms)[ADAPTER_ID_MAX] = c->pending;
	int n = c->npending;
	c->pending = NULL;
	c->npending = c->pending_cap = 0;
	for (int i = 0; i < n; i++)
		if (h->room_ready)
			h->room_ready(h->ctx, &c->base, rooms[i]);
	free(rooms);
}

/* ---- adapter operations ---- */

static int op_start(adapter *a)
{
	console *c = console_of(a);
	if (c->src_id >= 0)
		return 0;
	loop_source src = { .ctx = c, .prepare = src_prepare, .dispatch = src_dispatch };
	c->src_id = loop_add_source(a->ev, &src);
	if (c->src_id < 0)
		return -1;
	if (a->host.link)
		a->host.link(a->host.ctx, a, 1, "");
	return 0;
}

static void op_send_room(adapter *a, const char *room, const char *text, int flags)
{
	send_line(console_of(a), room, NULL, text, flags, NULL);
}

static void op_send_private(adapter *a, const char *user, const char *text, int flags)
{
	send_line(console_of(a), NULL, user, text, flags, NULL);
}

/* adapter_ops.send: a message is one line here, whatever its length (a
 * terminal or a program reads it whole), its parts joined as the other
 * networks join them. */
static void op_send(adapter *a, const char *room, const char *user, const adapter_msg *m)
{
	strbuf b;
	char text[ADAPTER_TEXT_MAX];
	sb_init(&b, text, sizeof text);
	for (int i = 0; i < m->nparts; i++) {
		if (i)
			sb_add(&b, ADAPTER_PART_SEP);
		sb_add(&b, m->parts[i]);
	}
	send_line(console_of(a), room, room ? NULL : user, text, m->flags, m->mention);
}

/* Every room is there to be in: the host hears it is ready from the loop,
 * never from inside its own call. */
static void op_join(adapter *a, const char *room, const char *key)
{
	(void)key;
	console *c = console_of(a);
	for (int i = 0; i < c->npending; i++)
		if (!strcasecmp(c->pending[i], room))
			return;
	if (c->npending == c->pending_cap) {
		int cap = c->pending_cap ? 2 * c->pending_cap : 8;
		char (*p)[ADAPTER_ID_MAX] = realloc(c->pending, (size_t)cap * sizeof *p);
		if (!p) {
			log_msg(LOG_ERROR, c->component, "out of memory: %s is not reported ready", room);
			return;
		}
		c->pending = p;
		c->pending_cap = cap;
	}
	snprintf(c->pending[c->npending++], ADAPTER_ID_MAX, "%s", room);
	if (!c->t_ready)
		c->t_ready = loop_timer(a->ev, 0, on_ready, c);
}

static void op_part(adapter *a, const char *room, const char *why)
{
	(void)a, (void)room, (void)why;
}

static void op_stop(adapter *a, const char *why)
{
	console *c = console_of(a);
	if (c->stopped)
		return;
	c->in_done = c->stopped = 1;
	if (c->s.human) {
		if (why && *why) {
			char shown[CONSOLE_SHOWN_MAX + 16];
			memcpy(shown, "(cardbot) ", 10);
			size_t n = 10 + shown_text(why, 0, shown + 10, sizeof shown - 10);
			put_line(c, shown, n);
		}
		return;
	}
	json_object *o = json_object_new_object();
	if (!o)
		return;
	json_object_object_add(o, "stopped", json_object_new_string(why ? why : ""));
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	put_line(c, s, strlen(s));
	json_object_put(o);
}

/* adapter_ops.private_how: in human mode every line typed is private
 * already ("trump 3"); a program's JSON lines say "/msg cardbot " as IRC does. */
static int op_private_how(const adapter *a, char *out, size_t len)
{
	const console *c = console_of(a);
	if (c->s.human) {
		if (len)
			out[0] = '\0';
		return ADAPTER_HOW_TYPED;
	}
	snprintf(out, len, "/msg %s ", c->s.self);
	return ADAPTER_HOW_WORDS;
}

/* adapter_ops.home_room: the person at the terminal, who names no room. */
static int op_home_room(const adapter *a, const char *user, char *out, size_t len)
{
	const console *c = console_of(a);
	int ok = c->s.human && c->s.home[0] && !strcmp(user, c->s.user);
	snprintf(out, len, "%s", ok ? c->s.home : "");
	return ok;
}

static const char *op_self(const adapter *a)
{
	return console_of(a)->s.self;
}

static int op_origin(const adapter *a, const char *user, char *out, size_t len)
{
	const console *c = console_of(a);
	const console_host *h = host_of(c, user);
	const char *host = h ? h->host : c->s.origin_host;
	if (!host[0]) {
		if (len)
			out[0] = '\0';
		return 0;
	}
	snprintf(out, len, "%s!%s@%s", user, user, host);
	return 1;
}

static void op_free(adapter *a)
{
	console *c = console_of(a);
	if (!c)
		return;
	console_flush(a, 1000);
	loop_cancel(a->ev, c->t_ready);
	if (c->src_id >= 0)
		loop_remove_source(a->ev, c->src_id);
	free(c->in);
	free(c->out);
	free(c->pending);
	free(c->hosts);
	free(c);
}

static const adapter_ops console_ops = {
	.kind = "console", .start = op_start, .send_room = op_send_room, .send_private = op_send_private,
	.send = op_send, .private_how = op_private_how, .home_room = op_home_room, .join = op_join, .part = op_part,
	.stop = op_stop, .self = op_self, .origin = op_origin,
	.free = op_free,
};

int console_finished(const adapter *a)
{
	const console *c = console_of(a);
	return c->in_done && (!c->outlen || c->write_failed);
}

adapter *console_adapter_new(loop *ev, const adapter_host *host, const char *name, const console_settings *s)
{
	console *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->in = malloc(CONSOLE_LINE_MAX + 1);
	if (!c->in) {
		free(c);
		return NULL;
	}
	c->base.ops = &console_ops;
	c->base.host = *host;
	c->base.ev = ev;
	snprintf(c->base.name, sizeof c->base.name, "%s", name);
	snprintf(c->component, sizeof c->component, "console[%s]", name);
	c->s = *s;
	c->src_id = -1;
	return &c->base;
}
