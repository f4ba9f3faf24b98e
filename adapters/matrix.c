/* matrix.c: the Matrix adapter: login, /sync long-polling, rooms, direct rooms and paced sends.
 *
 * Every HTTP request is a curl easy handle on one curl multi handle, which
 * is driven by the bot's select loop (curl_multi_fdset in prepare,
 * curl_multi_perform in dispatch and on a timer for curl's own timeouts).
 * Nothing here blocks. JSON is parsed and built with json-c; json-c objects
 * never leave this file. docs/MATRIX.md describes the behaviour.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>
#include <json-c/json.h>
#include "loop.h"
#include "log.h"
#include "matrix.h"
#include "utf8.h"

#define MX_SEND_TIMEOUT_MS 30000     /* one send, login, join...: then it counts as a network error */
#define MX_CONNECT_TIMEOUT_MS 10000
#define MX_RESPONSE_MAX (64 * 1024)  /* any reply but /sync */
#define MX_SYNC_MAX (32 * 1024 * 1024) /* a /sync reply: huge ones are refused, not swallowed */
#define MX_NAME_MAX 64               /* display names are cut to this (bytes, UTF-8 whole) */
#define MX_BATCH_MAX 8000            /* lines merged into one event: at most this much body */
#define MX_BATCH_LINES 24            /* ...and this many lines */
#define MX_QUEUE_MAX 500             /* lines waiting for one room; older ones are dropped past it */
#define MX_TOKEN_MAX 1024            /* a since token or a filter id */
#define MX_STATE_MAX (64 * 1024)     /* the saved direct-room map */
#define MX_MEMBERS_MAX 5000          /* members remembered per room (for names and mentions) */
#define MX_RETRY_AFTER_MAX 600000    /* a 429 asking for more than 10 minutes gets 10 */
#define MX_FILE_MAX (1024 * 1024)   /* a file sent to someone (send_file): larger ones are refused */
#define MX_FILES_BYTES_MAX (8 * 1024 * 1024) /* all files waiting to be uploaded, together */
#define MX_ASK_DELAY_MS 4000         /* a player not in their direct room this long after a line is asked to join */
/* The budget (see "the budget" below): Synapse's default message limit is
 * the first guess; a job waiting MX_AGE_MS counts one class more urgent, so
 * nothing waits for ever behind busier rooms. */
#define MX_RATE_GUESS 0.2            /* rc_message per_second, as Synapse ships */
#define MX_BURST_GUESS 10.0          /* rc_message burst_count */
#define MX_RATE_MIN 0.005            /* a learnt rate is never taken below this (one message in 200 s) */
#define MX_AGE_MS 45000
#define MX_SLOW_MS 10000             /* a room line waiting this long: the room is told, once, that it is slow */
#define MX_SLOW_AGAIN_MS 300000      /* ...and again only after this long */
#define MX_PROBE_MS 15000            /* no limit assumed: each this long without a 429, the learnt rate doubles */
#define MX_UNLIMIT_MS 60000          /* ...and after this long without one, the model is dropped */
#define MX_429_BACKOFF 3             /* a request refused this often in a row also backs off */
#define MX_LABEL_MAX 96              /* a room's name as kept for labels */
#define MX_TIMELY_MS 4000            /* an ADAPTER_TIMELY line not sent by then is dropped */

typedef struct matrix matrix;

enum req_kind {
	REQ_LOGIN, REQ_WHOAMI, REQ_FILTER, REQ_DIRECT_GET, REQ_SYNC, REQ_JOIN, REQ_LEAVE, REQ_FORGET,
	REQ_SEND, REQ_CREATE_DM, REQ_DIRECT_PUT, REQ_UPLOAD,
};

typedef struct mx_req {
	struct mx_req *next;
	matrix *m;
	CURL *h;
	struct curl_slist *hdrs;
	char *out;                  /* request body, owned */
	char *in;                   /* response body */
	size_t inlen, incap, inmax;
	int too_big;
	int kind;
	char room[ADAPTER_ID_MAX];  /* join/leave/forget/send: the room; create: the direct room's user */
	int join_via_invite;        /* REQ_JOIN after an invite (not a configured room) */
	unsigned long file_id;      /* REQ_UPLOAD: which queued file */
	int solo;                   /* a budgeted request sent while no other was out (see bud_refused) */
	char errbuf[CURL_ERROR_SIZE];
} mx_req;

/* A file in a send queue: uploaded first, then sent as an m.file event in
 * its turn among the lines (the message's text is the file name). */
typedef struct mx_file {
	unsigned long id;
	char *data;                 /* the bytes, until they are uploaded */
	size_t len;
	char mime[128];
	char uri[512];              /* the mxc:// URI once uploaded, else "" */
} mx_file;

/* How urgent a job is, most urgent first (docs/MATRIX.md, "Sending"). */
enum mx_class { CLS_REPLY, CLS_ROOM, CLS_PRIVATE, CLS_CREATE };

typedef struct mx_msg {
	struct mx_msg *next;
	int flags;
	int cls;                    /* enum mx_class */
	int64_t at;                 /* when it was queued (loop_now) */
	mx_file *file;              /* NULL for a line of text */
	char story[ADAPTER_ID_MAX]; /* ADAPTER_REPLACES: the room whose story the line tells (adapter_tag),
	                             * "" unknown: the line's "[label:" start stands for it */
	char text[];
} mx_msg;

typedef struct mx_member {
	char user[ADAPTER_ID_MAX];
	char name[MX_NAME_MAX];
} mx_member;

typedef struct mx_room {
	struct mx_room *next;
	struct matrix *m;              /* its adapter (for timers) */
	char id[ADAPTER_ID_MAX];       /* "" while a direct room is being created */
	int joined;                    /* the bot is in it (as /sync says) */
	int ready_told;                /* host->room_ready said for this stay */
	int joining;                   /* a join request is out */
	int gone;                      /* left or being left: sends are dropped */
	int left_done;                 /* the leave is complete: the record may be freed */
	char dm_user[ADAPTER_ID_MAX];  /* a direct room: with whom; "" otherwise */
	char alias[ADAPTER_ID_MAX];    /* its canonical alias ("#304:example.org"), "" when none */
	char name[MX_LABEL_MAX];       /* its m.room.name, cleaned, "" when none */
	int num;                       /* a table room's short number for private commands (0: none yet) */
	int create_wanted;             /* a direct room to make when the budget allows */
	int64_t create_at;             /* since when */
	int n429;                      /* refusals (429) in a row */
	int join_invited;              /* a join to retry was after an invitation */
	int64_t slow_at;               /* when the room was last told that the bot is slowed (0: never) */
	int dm_creating;               /* createRoom is out */
	int partner_joined;            /* the direct room's user is in it */
	int partner_told;              /* they were asked (in a shared room) to accept the invitation */
	int encrypted;                 /* encryption was turned on: say so once, then leave */
	int leave_when_sent;
	/* The send queue: lines wait here; one event is in flight at a time. */
	mx_msg *head, *tail;
	int nqueued;
	char *batch;                   /* the event content in flight or to retry (JSON), owned */
	char txn[64];                  /* its transaction id: the same on every retry */
	int batch_lines;
	int attempts;
	int sending;                   /* a PUT is out */
	uint64_t retry_timer;
	void (*retry_fn)(void *);       /* what retry_timer calls (send_retry_fire or create_dm_retry) */
	uint64_t ask_timer;            /* asking the player to accept the direct room */
	mx_member *members;
	int nmembers, capmembers;
} mx_room;

struct matrix {
	adapter base;                  /* first: the adapter head */
	matrix_settings set;
	CURLM *multi;
	int source_id;
	uint64_t tick_timer;
	mx_req *reqs;
	mx_room *rooms;
	char token[MATRIX_FIELD_MAX];  /* the access token in use */
	char device[MATRIX_FIELD_MAX];
	char filter_id[MX_TOKEN_MAX];
	char since[MX_TOKEN_MAX];
	int started, stopping, fatal, linked;
	int joined_configured;         /* the configured rooms were joined (after the first sync) */
	int synced_once;               /* a sync has been processed since the start */
	mx_req *sync_req;
	uint64_t sync_timer, start_timer;
	void (*start_fn)(void *);      /* what start_timer calls (start_step or filter_retry) */
	int sync_failures, start_failures;
	unsigned long long txn_base;
	unsigned long txn_counter;
	uint64_t rnd;
	/* The budget: a model of the homeserver's message limit for the
	 * account (a bucket of bud_burst tokens refilled at bud_rate a second). */
	int bud_on;                    /* a limit is assumed or was met */
	double bud_tokens, bud_rate, bud_burst;
	int64_t bud_at;                /* when bud_tokens was last brought up to date */
	int64_t last_ok, last_429;     /* the last budgeted request that succeeded, the last 429 */
	int64_t bud_raised;            /* when the model last loosened (no limit assumed) */
	unsigned long n429;
	uint64_t disp_timer;           /* the next look at what to send */
	int64_t disp_due;
	const char *cb_user, *cb_room; /* during host->message: who spoke, and where (NULL: in private) */
	char tag_story[ADAPTER_ID_MAX]; /* the host's tag (adapter_tag.story) for lines sent now; "" none */
	int room_serial;               /* the last short number given to a table room */
	int direct_dirty;              /* m.direct must be written again */
	int direct_putting;
	size_t file_bytes;             /* bytes of queued files not yet uploaded */
	unsigned long file_serial;
};

/* ---- small helpers ---- */

__attribute__((format(printf, 3, 4)))
static void mx_log(const matrix *m, const char *level, const char *fmt, ...)
{
	char who[96];
	snprintf(who, sizeof who, "matrix[%s]", m->base.name);
	va_list ap;
	va_start(ap, fmt);
	log_vword(level, who, fmt, ap);
	va_end(ap);
}

#define LOG(m, lvl, ...) mx_log(m, lvl, __VA_ARGS__)

static uint64_t mx_rand(matrix *m)
{
	m->rnd ^= m->rnd << 13;
	m->rnd ^= m->rnd >> 7;
	m->rnd ^= m->rnd << 17;
	return m->rnd;
}

/* Exponential backoff with jitter: a random time between half and all of
 * min * 2^n, capped at max. */
static long backoff_ms(matrix *m, int failures)
{
	long d = m->set.backoff_min_ms;
	for (int i = 0; i < failures && d < m->set.backoff_max_ms; i++)
		d *= 2;
	if (d > m->set.backoff_max_ms)
		d = m->set.backoff_max_ms;
	long half = d / 2;
	return half + (long)(mx_rand(m) % (uint64_t)(half + 1));
}

/* Length of the UTF-8 character starting at s; 1 for a byte that starts
 * none: a stray byte, an overlong form, a surrogate, past U+10FFFF (json-c
 * lets those through, and the host is promised valid UTF-8). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = utf8_seq((const char *)s, strnlen((const char *)s, 4));
	return n ? n : 1;
}

/* Valid UTF-8 without control characters (a sync token kept by the host). */
static int text_ok(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		size_t n = utf8_len(s);
		if (n == 1 && (*s >= 0x80 || *s < 0x20 || *s == 0x7f))
			return 0;
		s += n;
	}
	return 1;
}

/* Copies src into dst (size len), dropping control characters when
 * drop_ctl, cutting at a character boundary. Invalid UTF-8 bytes become '?'. */
static void copy_clean(char *dst, size_t len, const char *src, int drop_ctl)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)src;
	if (!len)
		return;
	while (*s) {
		size_t n = utf8_len(s);
		if (n == 1 && *s >= 0x80) {
			if (o + 1 >= len)
				break;
			dst[o++] = '?';
			s++;
			continue;
		}
		if (n == 1 && drop_ctl && (*s < 0x20 || *s == 0x7f)) {
			s++;
			continue;
		}
		if (o + n >= len)
			break;
		memcpy(dst + o, s, n);
		o += n;
		s += n;
	}
	dst[o] = '\0';
}

/* Ids hold printable ASCII only (the spec's grammar, historical user ids
 * included): no space, no control character, nothing a log line or the
 * host could be fooled by. */
static int id_chars_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return 0;
	return 1;
}

/* A user id as the spec writes it: "@localpart:server", bounded. */
static int is_user_id(const char *s)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	return s && s[0] == '@' && colon && colon > s + 1 && colon[1] && strlen(s) < ADAPTER_ID_MAX && id_chars_ok(s);
}

/* "!opaque:server", or "!opaque" (room version 12 has no server part). */
static int is_room_id(const char *s)
{
	return s && s[0] == '!' && s[1] && strlen(s) < ADAPTER_ID_MAX && id_chars_ok(s);
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return NULL;
}

static json_object *jget(json_object *o, const char *key, json_type t)
{
	json_object *v;
	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, t))
		return v;
	return NULL;
}

/* ---- HTML rendering of mIRC-coded text ---- */

typedef struct outbuf {
	char *s;
	size_t len, cap;
	int full;
} outbuf;

static void ob_add(outbuf *b, const char *s, size_t n)
{
	if (b->full || b->len + n + 1 > b->cap) {
		b->full = 1;
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void ob_str(outbuf *b, const char *s) { ob_add(b, s, strlen(s)); }

static void html_escape(outbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': ob_str(b, "&amp;"); break;
		case '<': ob_str(b, "&lt;"); break;
		case '>': ob_str(b, "&gt;"); break;
		case '"': ob_str(b, "&quot;"); break;
		case '\'': ob_str(b, "&#39;"); break;
		case '\n': ob_str(b, "<br>"); break;
		default: ob_add(b, s + i, 1);
		}
	}
}

static const char *const mirc_colours[16] = {
	"#ffffff", "#000000", "#00007f", "#009300", "#ff0000", "#7f0000", "#9c009c", "#fc7f00",
	"#ffff00", "#00fc00", "#009393", "#00ffff", "#0000fc", "#ff00ff", "#7f7f7f", "#d2d2d2",
};

struct fmt_state {
	int colour; /* -1 none */
	int bold, italic, underline;
	int open;   /* tags currently written */
};

static void fmt_close(outbuf *h, struct fmt_state *st)
{
	if (!st->open)
		return;
	if (st->underline)
		ob_str(h, "</u>");
	if (st->italic)
		ob_str(h, "</i>");
	if (st->bold)
		ob_str(h, "</b>");
	if (st->colour >= 0)
		ob_str(h, "</font>");
	st->open = 0;
}

static void fmt_open(outbuf *h, struct fmt_state *st)
{
	if (st->open)
		return;
	if (st->colour >= 0) {
		char tag[64];
		snprintf(tag, sizeof tag, "<font data-mx-color=\"%s\" color=\"%s\">", mirc_colours[st->colour],
			 mirc_colours[st->colour]);
		ob_str(h, tag);
	}
	if (st->bold)
		ob_str(h, "<b>");
	if (st->italic)
		ob_str(h, "<i>");
	if (st->underline)
		ob_str(h, "<u>");
	st->open = 1;
}

/* Renders n bytes of text; html gets room for its closing tags kept back. */
static void render_into(const char *text, size_t n, outbuf *body, outbuf *html)
{
	struct fmt_state st = { -1, 0, 0, 0, 0 };
	size_t hcap = html->cap;
	html->cap = hcap > 40 ? hcap - 40 : 0; /* room for the closing tags */
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;
	while (i < n && s[i]) {
		unsigned char c = s[i];
		if (c == 0x03) {
			i++;
			int col = -1;
			if (i < n && isdigit(s[i])) {
				col = s[i++] - '0';
				if (i < n && isdigit(s[i]))
					col = col * 10 + (s[i++] - '0');
				if (i + 1 < n && s[i] == ',' && isdigit(s[i + 1])) { /* a background: ignored */
					i += 2;
					if (i < n && isdigit(s[i]))
						i++;
				}
			}
			fmt_close(html, &st);
			st.colour = col >= 0 && col < 16 ? col : -1;
			continue;
		}
		if (c == 0x02 || c == 0x1d || c == 0x1f || c == 0x0f) {
			fmt_close(html, &st);
			if (c == 0x02)
				st.bold = !st.bold;
			else if (c == 0x1d)
				st.italic = !st.italic;
			else if (c == 0x1f)
				st.underline = !st.underline;
			else
				st.colour = -1, st.bold = st.italic = st.underline = 0;
			i++;
			continue;
		}
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			i++;
			continue;
		}
		size_t cl = utf8_len(s + i);
		if (i + cl > n)
			break;
		/* 80: the opening tags (56), then room left for closing them (19)
		 * should a code close them before the next character's check;
		 * 64 let a </font> be dropped (tests/fuzz/fuzz_matrix_render.c). */
		if (body->len + cl + 1 > body->cap || html->len + cl * 6 + 80 > html->cap)
			break; /* cut at a character boundary */
		fmt_open(html, &st);
		if (cl == 1 && c >= 0x80) {
			ob_add(body, "?", 1);
			ob_add(html, "?", 1);
		} else {
			ob_add(body, (const char *)s + i, cl);
			html_escape(html, (const char *)s + i, cl);
		}
		i += cl;
	}
	html->cap = hcap;
	html->full = 0;
	fmt_close(html, &st);
}

void matrix_render(const char *text, char *body, size_t body_len, char *html, size_t html_len)
{
	outbuf b = { body, 0, body_len, 0 }, h = { html, 0, html_len, 0 };
	if (body_len)
		body[0] = '\0';
	if (html_len)
		html[0] = '\0';
	if (!body_len || !html_len)
		return;
	render_into(text, strlen(text), &b, &h);
}

/* ---- rooms ---- */

static mx_room *room_find(matrix *m, const char *id)
{
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->id[0] && !strcmp(r->id, id))
			return r;
	return NULL;
}

static mx_room *room_add(matrix *m, const char *id)
{
	mx_room *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	snprintf(r->id, sizeof r->id, "%s", id);
	r->m = m;
	r->next = m->rooms;
	m->rooms = r;
	return r;
}

static mx_room *room_get(matrix *m, const char *id)
{
	mx_room *r = room_find(m, id);
	return r ? r : room_add(m, id);
}

/* The direct room in use for a user (the newest one recorded). */
static mx_room *dm_find(matrix *m, const char *user)
{
	for (mx_room *r = m->rooms; r; r = r->next)
		if (!r->gone && r->dm_user[0] && !strcmp(r->dm_user, user))
			return r;
	return NULL;
}

static void file_drop_data(matrix *m, mx_file *f)
{
	if (f && f->data) {
		m->file_bytes -= f->len <= m->file_bytes ? f->len : m->file_bytes;
		free(f->data);
		f->data = NULL;
	}
}

static void msg_free(matrix *m, mx_msg *msg)
{
	if (!msg)
		return;
	if (msg->file) {
		file_drop_data(m, msg->file);
		free(msg->file);
	}
	free(msg);
}

static void queue_clear(mx_room *r)
{
	while (r->head) {
		mx_msg *n = r->head->next;
		msg_free(r->m, r->head);
		r->head = n;
	}
	r->tail = NULL;
	r->nqueued = 0;
	free(r->batch);
	r->batch = NULL;
	r->batch_lines = 0;
}

static mx_member *member_find(mx_room *r, const char *user)
{
	for (int i = 0; i < r->nmembers; i++)
		if (!strcmp(r->members[i].user, user))
			return &r->members[i];
	return NULL;
}

static void member_set(mx_room *r, const char *user, const char *name)
{
	mx_member *mb = member_find(r, user);
	if (!mb) {
		if (r->nmembers >= MX_MEMBERS_MAX)
			return;
		if (r->nmembers == r->capmembers) {
			int cap = r->capmembers ? r->capmembers * 2 : 8;
			mx_member *n = realloc(r->members, (size_t)cap * sizeof *n);
			if (!n)
				return;
			r->members = n;
			r->capmembers = cap;
		}
		mb = &r->members[r->nmembers++];
		snprintf(mb->user, sizeof mb->user, "%s", user);
	}
	char clean[MX_NAME_MAX] = "";
	if (name)
		copy_clean(clean, sizeof clean, name, 1);
	if (!clean[0]) { /* the localpart stands in for a missing name */
		const char *colon = strchr(user, ':');
		size_t n = colon ? (size_t)(colon - user - 1) : strlen(user + 1);
		if (n >= sizeof clean)
			n = sizeof clean - 1;
		memcpy(clean, user + 1, n);
		clean[n] = '\0';
		copy_clean(mb->name, sizeof mb->name, clean, 1);
	} else {
		snprintf(mb->name, sizeof mb->name, "%s", clean);
	}
}

static void member_remove(mx_room *r, const char *user)
{
	mx_member *mb = member_find(r, user);
	if (mb)
		*mb = r->members[--r->nmembers];
}

static void display_name(mx_room *r, const char *user, char *out, size_t len)
{
	mx_member *mb = r ? member_find(r, user) : NULL;
	if (mb) {
		snprintf(out, len, "%s", mb->name);
		return;
	}
	const char *colon = strchr(user, ':');
	size_t n = colon ? (size_t)(colon - user - 1) : strlen(user + 1);
	if (n >= len)
		n = len - 1;
	memcpy(out, user + 1, n);
	out[n] = '\0';
}

/* ---- HTTP on the curl multi handle ---- */

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
	mx_req *q = ud;
	size_t n = size * nmemb;
	if (q->inlen + n > q->inmax) {
		q->too_big = 1;
		return 0; /* aborts the transfer */
	}
	if (q->inlen + n + 1 > q->incap) {
		size_t cap = q->incap ? q->incap : 4096;
		while (cap < q->inlen + n + 1)
			cap *= 2;
		char *p = realloc(q->in, cap);
		if (!p)
			return 0;
		q->in = p;
		q->incap = cap;
	}
	memcpy(q->in + q->inlen, ptr, n);
	q->inlen += n;
	q->in[q->inlen] = '\0';
	return n;
}

static void req_free(mx_req *q)
{
	if (!q)
		return;
	if (q->h) {
		curl_multi_remove_handle(q->m->multi, q->h);
		curl_easy_cleanup(q->h);
	}
	curl_slist_free_all(q->hdrs);
	free(q->out);
	free(q->in);
	free(q);
}

static void req_unlink(matrix *m, mx_req *q)
{
	for (mx_req **p = &m->reqs; *p; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			return;
		}
}

/* Escapes one path segment (room ids carry '!' and ':'). */
static void path_escape(matrix *m, const char *seg, char *out, size_t len)
{
	char *e = curl_easy_escape(NULL, seg, 0);
	snprintf(out, len, "%s", e ? e : "");
	curl_free(e);
	(void)m;
}

/* Starts a request: method, path (with query) under the homeserver, a body
 * of `blen` bytes and its content type, or NULL (taken over). Returns the
 * request, or NULL (logged). */
static mx_req *request_raw(matrix *m, int kind, const char *method, const char *path, char *body, size_t blen,
			   const char *ctype, long timeout_ms)
{
	mx_req *q = calloc(1, sizeof *q);
	CURL *h = q ? curl_easy_init() : NULL;
	if (!h) {
		free(q);
		free(body);
		LOG(m, "error", "out of memory for a request");
		return NULL;
	}
	q->m = m;
	q->h = h;
	q->kind = kind;
	q->out = body;
	q->inmax = kind == REQ_SYNC ? MX_SYNC_MAX : MX_RESPONSE_MAX;
	char url[4096];
	size_t hl = strlen(m->set.homeserver);
	while (hl > 0 && m->set.homeserver[hl - 1] == '/')
		hl--;
	snprintf(url, sizeof url, "%.*s%s", (int)hl, m->set.homeserver, path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)MX_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "cardbot");
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, q);
	curl_easy_setopt(h, CURLOPT_PRIVATE, q);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, q->errbuf);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, m->set.tls_verify ? 1L : 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, m->set.tls_verify ? 2L : 0L);
	if (m->set.ca_file[0])
		curl_easy_setopt(h, CURLOPT_CAINFO, m->set.ca_file);
	if (m->token[0] && kind != REQ_LOGIN) {
		char auth[MATRIX_FIELD_MAX + 32];
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", m->token);
		q->hdrs = curl_slist_append(q->hdrs, auth);
	}
	if (body) {
		char ct[192];
		snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
		q->hdrs = curl_slist_append(q->hdrs, ct);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)blen);
	}
	if (strcmp(method, "POST") != 0 || !body)
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	if (!strcmp(method, "POST") && !body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, "{}");
		q->hdrs = curl_slist_append(q->hdrs, "Content-Type: application/json");
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, q->hdrs);
	if (curl_multi_add_handle(m->multi, h) != CURLM_OK) {
		LOG(m, "error", "cannot start a request to %s", path);
		req_free(q);
		return NULL;
	}
	q->next = m->reqs;
	m->reqs = q;
	return q;
}

/* The same with a JSON body (a string) or none. */
static mx_req *request(matrix *m, int kind, const char *method, const char *path, char *body, long timeout_ms)
{
	return request_raw(m, kind, method, path, body, body ? strlen(body) : 0, "application/json", timeout_ms);
}

/* A JSON object as text (owned by the caller), or NULL. */
static char *json_text(json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *d = s ? strdup(s) : NULL;
	json_object_put(o);
	return d;
}

/* What an error reply says, for a log line: "M_FORBIDDEN: text", cleaned. */
static void error_text(json_object *body, char *out, size_t len)
{
	const char *code = jstr(body, "errcode"), *err = jstr(body, "error");
	char raw[512];
	snprintf(raw, sizeof raw, "%s%s%s", code ? code : "no error code", err ? ": " : "", err ? err : "");
	copy_clean(out, len, raw, 1);
}

static long retry_after(json_object *body)
{
	json_object *v = jget(body, "retry_after_ms", json_type_int);
	long ms = v ? (long)json_object_get_int64(v) : 1000;
	if (ms < 0)
		ms = 0;
	return ms > MX_RETRY_AFTER_MAX ? MX_RETRY_AFTER_MAX : ms;
}

/* ---- the start: login, whoami, filter, m.direct, rooms ---- */

static void start_step(void *ctx);
static void sync_now(void *ctx);
static void send_next(matrix *m, mx_room *r);
static void schedule_send_retry(matrix *m, mx_room *r, long ms);
static void create_dm(matrix *m, mx_room *r);
static void join_room(matrix *m, const char *room, int via_invite);
static void alias_event(mx_room *r, json_object *e);
static void name_event(mx_room *r, json_object *e);
static const char *table_named(matrix *m, const char *text, char *out, size_t len);

static void link_state(matrix *m, int up, const char *why)
{
	if (m->linked == up)
		return;
	m->linked = up;
	if (m->base.host.link)
		m->base.host.link(m->base.host.ctx, &m->base, up, why);
}

static void fatal(matrix *m, const char *why)
{
	m->fatal = 1;
	LOG(m, "error", "%s; the network stays down until the bot is restarted", why);
	link_state(m, 0, why);
}

static void start_retry(matrix *m, const char *what, const char *why)
{
	long d = backoff_ms(m, m->start_failures++);
	LOG(m, "warn", "%s failed (%s); trying again in %ld ms", what, why, d);
	m->start_fn = start_step;
	m->start_timer = loop_timer(m->base.ev, d, start_step, m);
}

static void state_set(matrix *m, const char *key, const char *value)
{
	if (m->base.host.state_set && m->base.host.state_set(m->base.host.ctx, &m->base, key, value) < 0)
		LOG(m, "warn", "could not save %s", key);
}

static int state_get(matrix *m, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	return m->base.host.state_get && m->base.host.state_get(m->base.host.ctx, &m->base, key, out, len) == 1;
}

static void start_step(void *ctx)
{
	matrix *m = ctx;
	m->start_timer = 0;
	if (m->stopping || m->fatal)
		return;
	if (!m->token[0]) {
		json_object *o = json_object_new_object(), *id = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("m.login.password"));
		json_object_object_add(id, "type", json_object_new_string("m.id.user"));
		json_object_object_add(id, "user", json_object_new_string(m->set.user_id));
		json_object_object_add(o, "identifier", id);
		json_object_object_add(o, "password", json_object_new_string(m->set.password));
		if (m->device[0])
			json_object_object_add(o, "device_id", json_object_new_string(m->device));
		json_object_object_add(o, "initial_device_display_name", json_object_new_string("cardbot"));
		request(m, REQ_LOGIN, "POST", "/_matrix/client/v3/login", json_text(o), MX_SEND_TIMEOUT_MS);
		return;
	}
	request(m, REQ_WHOAMI, "GET", "/_matrix/client/v3/account/whoami", NULL, MX_SEND_TIMEOUT_MS);
}

static void upload_filter(matrix *m)
{
	/* Only what the bot reads: messages, memberships, encryption, and the
	 * alias people know a room by. */
	static const char filter[] =
		"{\"presence\":{\"not_types\":[\"*\"]},"
		"\"account_data\":{\"types\":[\"m.direct\"]},"
		"\"room\":{\"timeline\":{\"types\":[\"m.room.message\",\"m.room.member\",\"m.room.encryption\","
		"\"m.room.canonical_alias\",\"m.room.name\"],"
		"\"limit\":50},"
		"\"state\":{\"types\":[\"m.room.member\",\"m.room.encryption\",\"m.room.canonical_alias\","
		"\"m.room.name\"]},"
		"\"ephemeral\":{\"not_types\":[\"*\"]},"
		"\"account_data\":{\"not_types\":[\"*\"]}}}";
	char user[3 * MATRIX_FIELD_MAX], path[4096];
	path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/filter", user);
	request(m, REQ_FILTER, "POST", path, strdup(filter), MX_SEND_TIMEOUT_MS);
}

/* Reads a direct-room map {user: room or [rooms]} into the rooms list. */
static void direct_load(matrix *m, json_object *map, int from_server)
{
	if (!map || !json_object_is_type(map, json_type_object))
		return;
	json_object_object_foreach(map, user, v)
	{
		if (!is_user_id(user))
			continue;
		const char *room = NULL;
		if (json_object_is_type(v, json_type_string)) {
			room = json_object_get_string(v);
		} else if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0) {
			/* The last one listed is the newest. */
			json_object *e = json_object_array_get_idx(v, json_object_array_length(v) - 1);
			if (json_object_is_type(e, json_type_string))
				room = json_object_get_string(e);
		}
		if (!is_room_id(room))
			continue;
		mx_room *r = room_get(m, room);
		if (r && !r->dm_user[0])
			snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
	}
	(void)from_server;
}

static void direct_save(matrix *m)
{
	json_object *state = json_object_new_object();
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->dm_user[0] && r->id[0] && !r->gone && dm_find(m, r->dm_user) == r)
			json_object_object_add(state, r->dm_user, json_object_new_string(r->id));
	char *s = json_text(state);
	if (s)
		state_set(m, "direct", s);
	free(s);
	m->direct_dirty = 1;
	if (m->direct_putting || !m->token[0])
		return;
	/* m.direct: user -> [rooms]; ours are listed per user. */
	json_object *ad = json_object_new_object();
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (!r->dm_user[0] || !r->id[0] || r->gone)
			continue;
		json_object *arr;
		if (!json_object_object_get_ex(ad, r->dm_user, &arr)) {
			arr = json_object_new_array();
			json_object_object_add(ad, r->dm_user, arr);
		}
		json_object_array_add(arr, json_object_new_string(r->id));
	}
	char user[3 * MATRIX_FIELD_MAX], path[4096];
	path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/m.direct", user);
	m->direct_dirty = 0;
	if (request(m, REQ_DIRECT_PUT, "PUT", path, json_text(ad), MX_SEND_TIMEOUT_MS))
		m->direct_putting = 1;
}

static void filter_retry(void *ctx)
{
	matrix *m = ctx;
	m->start_timer = 0;
	if (!m->stopping && !m->fatal)
		upload_filter(m);
}

static void after_filter(matrix *m)
{
	char user[3 * MATRIX_FIELD_MAX], path[4096];
	char *buf = malloc(MX_STATE_MAX);
	if (buf && state_get(m, "direct", buf, MX_STATE_MAX)) {
		json_object *o = json_tokener_parse(buf);
		direct_load(m, o, 0);
		json_object_put(o);
	}
	free(buf);
	path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/m.direct", user);
	request(m, REQ_DIRECT_GET, "GET", path, NULL, MX_SEND_TIMEOUT_MS);
}

static void after_direct(matrix *m)
{
	link_state(m, 1, "");
	state_get(m, "since", m->since, sizeof m->since);
	/* The configured rooms are joined after the first sync, so that what
	 * is said in them from then on comes as news, not as history. */
	sync_now(m);
}

/* ---- joining, leaving ---- */

static void join_room(matrix *m, const char *room, int via_invite)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/join/%s", esc);
	mx_req *q = request(m, REQ_JOIN, "POST", path, strdup("{}"), MX_SEND_TIMEOUT_MS);
	if (q) {
		snprintf(q->room, sizeof q->room, "%s", room);
		q->join_via_invite = via_invite;
	}
}

static void leave_room(matrix *m, const char *room, const char *why)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/leave", esc);
	json_object *o = json_object_new_object();
	if (why && *why)
		json_object_object_add(o, "reason", json_object_new_string(why));
	mx_req *q = request(m, REQ_LEAVE, "POST", path, json_text(o), MX_SEND_TIMEOUT_MS);
	if (q)
		snprintf(q->room, sizeof q->room, "%s", room);
	mx_room *r = room_find(m, room);
	if (r)
		r->gone = 1;
}

static void forget_room(matrix *m, const char *room)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/forget", esc);
	mx_req *q = request(m, REQ_FORGET, "POST", path, strdup("{}"), MX_SEND_TIMEOUT_MS);
	if (q)
		snprintf(q->room, sizeof q->room, "%s", room);
}

/* The bot is out of a room (kicked, banned, left): tell the host, forget it. */
static void room_left(matrix *m, const char *room, const char *why)
{
	mx_room *r = room_find(m, room);
	int was_dm = r && r->dm_user[0];
	if (r) {
		int told = r->ready_told;
		r->joined = r->ready_told = 0;
		r->gone = r->left_done = 1;
		queue_clear(r);
		if (told && !was_dm && m->base.host.room_lost)
			m->base.host.room_lost(m->base.host.ctx, &m->base, room, why);
	}
	forget_room(m, room);
	if (was_dm)
		direct_save(m);
}

/* ---- the budget ----
 *
 * Synapse counts every send (and an upload) against the account's message
 * limit, and a room creation twice, one after the other: the room is made
 * with the first token and the creator's join needs the second. A 429 says
 * how long until ONE token is back. A client that retries each refused
 * request on its own timer sends several at the moment one token returns,
 * and they take turns failing for ever (a room creation each time leaving
 * an empty room behind). So the adapter keeps its own model of the limit,
 * a bucket of tokens, and one dispatcher spends it: the most urgent job
 * that is ready goes when its tokens are there, the next waits for its
 * own. Urgency: a reply to the person who just acted, then a room's lines,
 * then private lines, then room creations (two tokens, only when both are
 * there); a job gets one class more urgent for every MX_AGE_MS it waits. */

static void dispatch(matrix *m);

static void bud_refill(matrix *m)
{
	int64_t now = loop_now();
	if (now > m->bud_at) {
		m->bud_tokens += (double)(now - m->bud_at) / 1000.0 * m->bud_rate;
		if (m->bud_tokens > m->bud_burst)
			m->bud_tokens = m->bud_burst;
	}
	m->bud_at = now;
	/* No limit was assumed (an admin lifted it for the bot), yet one was
	 * met: perhaps for a moment. The model loosens while no 429 comes. */
	if (m->bud_on && !m->set.assume_limit && now - m->last_429 > MX_PROBE_MS && now - m->bud_raised > MX_PROBE_MS) {
		m->bud_rate *= 2;
		m->bud_raised = now;
		if (now - m->last_429 > MX_UNLIMIT_MS)
			m->bud_on = 0;
	}
}

/* Milliseconds until `cost` tokens are there (0: now). */
static long bud_wait(matrix *m, double cost)
{
	bud_refill(m);
	if (!m->bud_on || m->bud_tokens >= cost)
		return 0;
	return (long)((cost - m->bud_tokens) / m->bud_rate * 1000.0) + 1;
}

static void bud_spend(matrix *m, double cost)
{
	bud_refill(m);
	if (m->bud_on)
		m->bud_tokens -= cost;
}

/* A 429 with its retry_after_ms: the model learns. Right after a success
 * (which left the server's bucket at most full), one token taking retry
 * plus the time since says the rate is at most 1/(retry + since); what the
 * server has now is one token less retry's worth; a model that had more
 * than that overrated the burst. */
static void bud_refused(matrix *m, long retry_ms, int solo)
{
	int64_t now = loop_now();
	bud_refill(m);
	m->last_429 = m->bud_raised = now; /* (before bud_refill can loosen the model again) */
	if (!m->bud_on) {
		/* The first limit met with none assumed: one token in retry_ms
		 * says the rate is at least about that (a later 429 lowers it). */
		m->bud_on = 1;
		m->bud_tokens = 0;
		m->bud_at = now;
		double r = retry_ms > 0 ? 1000.0 / (double)retry_ms : 50.0;
		if (r > m->bud_rate)
			m->bud_rate = r > 50.0 ? 50.0 : r;
	}
	bud_refill(m);
	/* (Only for a request that was alone: with others out at once, a success
	 * the server counted first may not have been seen yet.) */
	if (solo && m->last_ok && now - m->last_ok < 10000 && retry_ms > 0) {
		double r = 1000.0 / (double)(retry_ms + (now - m->last_ok));
		if (r < m->bud_rate)
			m->bud_rate = r < MX_RATE_MIN ? MX_RATE_MIN : r;
	}
	double server = 1.0 - (double)retry_ms / 1000.0 * m->bud_rate;
	if (m->bud_tokens > server + 1.0) {
		m->bud_burst -= m->bud_tokens - server;
		if (m->bud_burst < 1)
			m->bud_burst = 1;
	}
	m->bud_tokens = server;
	m->last_429 = m->bud_raised = now;
	m->n429++;
}

/* Whether q is the only budgeted request out. */
static int budget_solo(const matrix *m, const mx_req *q)
{
	for (const mx_req *p = m->reqs; p; p = p->next)
		if (p != q && (p->kind == REQ_SEND || p->kind == REQ_UPLOAD || p->kind == REQ_CREATE_DM))
			return 0;
	return 1;
}

static void disp_fire(void *ctx)
{
	matrix *m = ctx;
	m->disp_timer = 0;
	dispatch(m);
}

/* Looks at what to send in `ms` (sooner if already due sooner). */
static void kick(matrix *m, long ms)
{
	int64_t due = loop_now() + ms;
	if (m->disp_timer) {
		if (m->disp_due <= due)
			return;
		loop_cancel(m->base.ev, m->disp_timer);
	}
	m->disp_due = due;
	m->disp_timer = loop_timer(m->base.ev, ms, disp_fire, m);
}

/* ---- sending ---- */

static void enqueue_msg(matrix *m, mx_room *r, mx_msg *msg);
static void drop_stale(matrix *m, mx_room *r, const mx_msg *msg);

static void enqueue(matrix *m, mx_room *r, const char *text, int flags)
{
	if (r->gone)
		return;
	size_t n = strlen(text);
	if (n >= ADAPTER_TEXT_MAX) {
		n = ADAPTER_TEXT_MAX - 1;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	mx_msg *msg = malloc(sizeof *msg + n + 1);
	if (!msg)
		return;
	msg->next = NULL;
	msg->flags = flags;
	msg->file = NULL;
	msg->at = 0;
	snprintf(msg->story, sizeof msg->story, "%s", m->tag_story);
	memcpy(msg->text, text, n);
	msg->text[n] = '\0';
	if (r->dm_user[0])
		msg->cls = m->cb_user && !m->cb_room && !strcmp(m->cb_user, r->dm_user) ? CLS_REPLY : CLS_PRIVATE;
	else
		msg->cls = m->cb_room && !strcmp(m->cb_room, r->id) ? CLS_REPLY : CLS_ROOM;
	if ((flags & ADAPTER_REPLACES) && r->dm_user[0])
		drop_stale(m, r, msg);
	enqueue_msg(m, r, msg);
}

/* The "[label:" tag a private line starts with ("" when none). */
static size_t line_tag(const char *text)
{
	if (text[0] != '[')
		return 0;
	const char *p = strstr(text, ": ");
	const char *close = strchr(text, ']');
	if (close && (!p || close < p))
		p = close;
	return p ? (size_t)(p - text) : 0;
}

/* The same table's line: by the room the host tagged both with, else by
 * their "[label:" start (a label can change under a line: an alias
 * learned after a restart). */
static int same_story(const mx_msg *x, const mx_msg *msg, size_t tl)
{
	if (x->story[0] && msg->story[0])
		return !strcmp(x->story, msg->story);
	return tl && line_tag(x->text) == tl && !strncmp(x->text, msg->text, tl);
}

/* A new hand or prompt: older ones of the same table not yet sent (nor
 * in the event being sent) are stale, and dropped. */
static void drop_stale(matrix *m, mx_room *r, const mx_msg *msg)
{
	size_t tl = line_tag(msg->text);
	if (!tl && !msg->story[0])
		return;
	mx_msg **p = &r->head;
	for (int i = 0; r->batch && i < r->batch_lines && *p; i++)
		p = &(*p)->next;
	int dropped = 0;
	while (*p) {
		mx_msg *x = *p;
		if (!x->file && (x->flags & ADAPTER_REPLACES) && same_story(x, msg, tl)) {
			*p = x->next;
			msg_free(m, x);
			r->nqueued--;
			dropped++;
			continue;
		}
		p = &x->next;
	}
	r->tail = NULL;
	for (mx_msg *x = r->head; x; x = x->next)
		r->tail = x;
	if (dropped)
		LOG(m, "debug", "%s: %d stale private line%s replaced before sending", r->dm_user, dropped,
		    dropped == 1 ? "" : "s");
}

/* Appends a message (taken over) to a room's queue and sends when it can. */
static void enqueue_msg(matrix *m, mx_room *r, mx_msg *msg)
{
	if (r->gone) {
		msg_free(m, msg);
		return;
	}
	if (r->nqueued >= MX_QUEUE_MAX) {
		mx_msg *old = r->head;
		r->head = old->next;
		if (!r->head)
			r->tail = NULL;
		msg_free(m, old);
		r->nqueued--;
		LOG(m, "warn", "%s: the send queue is full; the oldest line was dropped", r->id[0] ? r->id : r->dm_user);
	}
	if (!msg->at)
		msg->at = loop_now();
	if (r->tail)
		r->tail->next = msg;
	else
		r->head = msg;
	r->tail = msg;
	r->nqueued++;
	/* Lines queued in one turn of the loop (all that one command caused)
	 * go out together as one event: a send is counted against the
	 * homeserver's rate limit, however many lines it holds. */
	kick(m, 0);
}

/* Looks for "NAME:" addressing a member of the room (at the start of a line
 * or after a space), the usual way of addressing someone in chat. */
static const mx_member *find_address(const matrix *m, const mx_room *r, const char *text, size_t *pos)
{
	if (r->dm_user[0])
		return NULL;
	const mx_member *best = NULL;
	size_t best_pos = 0;
	for (int i = 0; i < r->nmembers; i++) {
		const mx_member *mb = &r->members[i];
		if (!strcmp(mb->user, m->set.user_id) || !mb->name[0])
			continue;
		size_t nl = strlen(mb->name);
		for (const char *p = strstr(text, mb->name); p; p = strstr(p + 1, mb->name)) {
			if (p[nl] != ':' || (p != text && p[-1] != ' ' && p[-1] != '\n'))
				continue;
			if (!best || (size_t)(p - text) < best_pos)
				best = mb, best_pos = (size_t)(p - text);
			break;
		}
	}
	*pos = best_pos;
	return best;
}

/* Builds the event content for the lines at the head of the queue (merged
 * while they fit), and gives it a transaction id. */
static int build_file_batch(matrix *m, mx_room *r);

static int build_batch(matrix *m, mx_room *r)
{
	if (r->head && r->head->file)
		return build_file_batch(m, r);
	size_t cap = MX_BATCH_MAX + 1, used = 0;
	char *text = malloc(cap);
	if (!text)
		return -1;
	text[0] = '\0';
	int lines = 0, any_notice_only = 1, highlight = 0;
	for (mx_msg *p = r->head; p && !p->file && lines < MX_BATCH_LINES; p = p->next) {
		size_t n = strlen(p->text);
		if (lines && used + 1 + n > MX_BATCH_MAX)
			break;
		if (n > MX_BATCH_MAX - used - (lines ? 1 : 0))
			n = MX_BATCH_MAX - used - (lines ? 1 : 0);
		if (lines)
			text[used++] = '\n';
		memcpy(text + used, p->text, n);
		used += n;
		text[used] = '\0';
		if (!(p->flags & ADAPTER_NOTICE))
			any_notice_only = 0;
		if (p->flags & ADAPTER_HIGHLIGHT)
			highlight = 1;
		lines++;
	}
	size_t blen = used * 2 + 64, hlen = used * 8 + 512;
	char *body = malloc(blen), *html = malloc(hlen);
	if (!body || !html) {
		free(text), free(body), free(html);
		return -1;
	}
	size_t pos = 0;
	const mx_member *who = find_address(m, r, text, &pos);
	outbuf b = { body, 0, blen, 0 }, h = { html, 0, hlen, 0 };
	body[0] = html[0] = '\0';
	json_object *o = json_object_new_object();
	if (who) {
		size_t nl = strlen(who->name);
		render_into(text, pos, &b, &h);
		ob_str(&b, who->name);
		ob_str(&h, "<a href=\"https://matrix.to/#/");
		html_escape(&h, who->user, strlen(who->user));
		ob_str(&h, "\">");
		html_escape(&h, who->name, nl);
		ob_str(&h, "</a>");
		render_into(text + pos + nl, strlen(text + pos + nl), &b, &h);
		json_object *men = json_object_new_object(), *ids = json_object_new_array();
		json_object_array_add(ids, json_object_new_string(who->user));
		json_object_object_add(men, "user_ids", ids);
		json_object_object_add(o, "m.mentions", men);
	} else {
		render_into(text, used, &b, &h);
		json_object_object_add(o, "m.mentions", json_object_new_object());
	}
	const char *type = who || highlight || !any_notice_only ? "m.text" : "m.notice";
	json_object_object_add(o, "msgtype", json_object_new_string(type));
	json_object_object_add(o, "body", json_object_new_string(body));
	json_object_object_add(o, "format", json_object_new_string("org.matrix.custom.html"));
	json_object_object_add(o, "formatted_body", json_object_new_string(html));
	free(text), free(body), free(html);
	free(r->batch);
	r->batch = json_text(o);
	if (!r->batch)
		return -1;
	r->batch_lines = lines;
	r->attempts = 0;
	snprintf(r->txn, sizeof r->txn, "cb%llx.%lu", m->txn_base, ++m->txn_counter);
	return 0;
}

/* The m.file event for the uploaded file at the head of the queue. */
static int build_file_batch(matrix *m, mx_room *r)
{
	const mx_file *f = r->head->file;
	json_object *o = json_object_new_object(), *info = json_object_new_object();
	if (!o || !info) {
		json_object_put(o), json_object_put(info);
		return -1;
	}
	json_object_object_add(o, "msgtype", json_object_new_string("m.file"));
	json_object_object_add(o, "body", json_object_new_string(r->head->text));
	json_object_object_add(o, "filename", json_object_new_string(r->head->text));
	json_object_object_add(o, "url", json_object_new_string(f->uri));
	json_object_object_add(info, "mimetype", json_object_new_string(f->mime));
	json_object_object_add(info, "size", json_object_new_int64((int64_t)f->len));
	json_object_object_add(o, "info", info);
	json_object_object_add(o, "m.mentions", json_object_new_object());
	free(r->batch);
	r->batch = json_text(o);
	if (!r->batch)
		return -1;
	r->batch_lines = 1;
	r->attempts = 0;
	snprintf(r->txn, sizeof r->txn, "cb%llx.%lu", m->txn_base, ++m->txn_counter);
	return 0;
}

/* Uploads the file at the head of a room's queue to the content repository. */
static void upload_start(matrix *m, mx_room *r)
{
	mx_file *f = r->head->file;
	if (!f->data && f->len) {
		/* Cannot happen (the bytes stay until the URI is known); dropped. */
		LOG(m, "warn", "%s: a file lost its bytes before the upload; it is dropped", r->id);
		mx_msg *msg = r->head;
		r->head = msg->next;
		if (!r->head)
			r->tail = NULL;
		r->nqueued--;
		msg_free(m, msg);
		send_next(m, r);
		return;
	}
	char *copy = malloc(f->len ? f->len : 1);
	if (!copy) {
		LOG(m, "error", "out of memory uploading a file");
		schedule_send_retry(m, r, backoff_ms(m, r->attempts++));
		return;
	}
	if (f->len)
		memcpy(copy, f->data, f->len);
	char name[3 * 256], path[1024];
	path_escape(m, r->head->text, name, sizeof name);
	snprintf(path, sizeof path, "/_matrix/media/v3/upload?filename=%s", name);
	mx_req *q = request_raw(m, REQ_UPLOAD, "POST", path, copy, f->len, f->mime, MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->id);
		q->file_id = f->id;
		r->sending = 1;
	}
}

/* Tells a player, in a room both share, that a direct room waits for them. */
static void ask_to_join(matrix *m, mx_room *dm)
{
	if (dm->partner_told || dm->partner_joined)
		return;
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->dm_user[0] || !r->joined || r->gone || !member_find(r, dm->dm_user))
			continue;
		dm->partner_told = 1;
		char line[512], name[MX_NAME_MAX];
		display_name(r, dm->dm_user, name, sizeof name);
		snprintf(line, sizeof line,
			 "%s: I have sent you private messages in a direct room; accept my invitation to read them.",
			 name);
		enqueue(m, r, line, ADAPTER_HIGHLIGHT);
		return;
	}
}

static void schedule_send_retry(matrix *m, mx_room *r, long ms);

/* A player who has not joined their direct room a while after the first
 * private line is asked to (clients that accept at once are not bothered). */
static void ask_fire(void *ctx)
{
	mx_room *r = ctx;
	r->ask_timer = 0;
	if (!r->gone && !r->partner_joined)
		ask_to_join(r->m, r);
}

/* Any room's work is looked at again (lines queued, a send done...). */
static void send_next(matrix *m, mx_room *r)
{
	(void)r;
	kick(m, 0);
}

/* What a room would spend next: 1 token (an event or an upload), 2 (a room
 * creation), or 0 when it has nothing ready to go. */
static int job_cost(const matrix *m, const mx_room *r)
{
	if (r->gone || r->sending || r->retry_timer || r->dm_creating || m->fatal || !m->token[0])
		return 0;
	if (!r->id[0])
		return r->dm_user[0] && r->create_wanted ? 2 : 0;
	return r->batch || r->head ? 1 : 0;
}

/* A job's urgency (lower goes first): its class, less the time it waited. */
static int64_t job_rank(const mx_room *r, int64_t now)
{
	if (!r->id[0])
		return (int64_t)CLS_CREATE * MX_AGE_MS - (now - r->create_at);
	int cls = CLS_CREATE;
	int64_t at = now;
	for (const mx_msg *x = r->head; x; x = x->next) {
		if (x->cls < cls)
			cls = x->cls;
		if (x->at < at)
			at = x->at;
	}
	return (int64_t)cls * MX_AGE_MS - (now - at);
}

/* Rooms whose lines have waited long are told once, with those lines
 * (in the same event: it costs nothing more), that the bot is slowed. */
static void slow_check(matrix *m)
{
	int64_t now = loop_now();
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->dm_user[0] || r->gone || !r->head || now - r->head->at < MX_SLOW_MS)
			continue;
		if (r->slow_at && now - r->slow_at < MX_SLOW_AGAIN_MS)
			continue;
		r->slow_at = now;
		LOG(m, "info", "%s: lines have waited %lld s for the homeserver's rate limit; the room is told", r->id,
		    (long long)((now - r->head->at) / 1000));
		static const char slow[] = "(The homeserver limits how fast I may post, so my lines come late; "
					   "the game waits for them.)";
		mx_msg *x = malloc(sizeof *x + sizeof slow);
		if (!x)
			continue;
		x->flags = ADAPTER_NOTICE;
		x->file = NULL;
		x->cls = CLS_ROOM;
		x->at = r->head->at;
		memcpy(x->text, slow, sizeof slow);
		/* After the event being retried, if any: that one is fixed. */
		mx_msg **p = &r->head;
		for (int i = 0; r->batch && i < r->batch_lines && *p; i++)
			p = &(*p)->next;
		x->next = *p;
		*p = x;
		if (!x->next)
			r->tail = x;
		r->nqueued++;
	}
}

static void send_now(matrix *m, mx_room *r);
static void create_dm_start(matrix *m, mx_room *r);
static void room_retry(matrix *m, mx_room *r, long ms, void (*fn)(void *));
static void send_retry_fire(void *ctx);
static void create_dm_retry(void *ctx);

/* Drops the ADAPTER_TIMELY lines that waited too long (outside the event
 * being sent or retried, which is fixed). */
static void drop_late(matrix *m, mx_room *r, int64_t now)
{
	mx_msg **p = &r->head;
	for (int i = 0; r->batch && i < r->batch_lines && *p; i++)
		p = &(*p)->next;
	int dropped = 0;
	while (*p) {
		mx_msg *x = *p;
		if ((x->flags & ADAPTER_TIMELY) && now - x->at > MX_TIMELY_MS) {
			*p = x->next;
			msg_free(m, x);
			r->nqueued--;
			dropped++;
			continue;
		}
		p = &x->next;
	}
	if (dropped) {
		r->tail = NULL;
		for (mx_msg *x = r->head; x; x = x->next)
			r->tail = x;
		LOG(m, "debug", "%s: %d timely line%s dropped, too late to send", r->id, dropped, dropped == 1 ? "" : "s");
	}
}

/* The one place requests that count against the limit start: the most
 * urgent ready job goes when the budget has its tokens; then the next. */
static void dispatch(matrix *m)
{
	if (m->fatal || !m->token[0])
		return;
	int64_t now = loop_now();
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->head && !r->sending)
			drop_late(m, r, now);
	for (int guard = 0; guard < 256; guard++) {
		mx_room *best = NULL;
		int64_t best_rank = 0;
		int cost = 0;
		for (mx_room *r = m->rooms; r; r = r->next) {
			if (r->leave_when_sent && !r->head && !r->batch && !r->sending && !r->gone && r->id[0]) {
				r->leave_when_sent = 0;
				leave_room(m, r->id, "encrypted room");
				continue;
			}
			int c = job_cost(m, r);
			if (!c)
				continue;
			int64_t rank = job_rank(r, now);
			if (!best || rank < best_rank)
				best = r, best_rank = rank, cost = c;
		}
		if (!best)
			return;
		/* A creation needs both its tokens (and a little more, for the
		 * clocks' disagreement): with one, Synapse makes the room and
		 * then refuses the bot's join, leaving an empty room. */
		long w = bud_wait(m, cost == 2 ? 2.25 : 1.0);
		if (w > 0) {
			slow_check(m);
			kick(m, w);
			return;
		}
		bud_spend(m, cost);
		if (cost == 2)
			create_dm_start(m, best);
		else
			send_now(m, best);
		if (job_cost(m, best)) {
			/* It could not start (out of memory): later, not in a loop. */
			room_retry(m, best, backoff_ms(m, best->attempts++), send_retry_fire);
		}
	}
}

static void send_now(matrix *m, mx_room *r)
{
	if (!r->batch) {
		if (!r->head)
			return;
		if (r->head->file && !r->head->file->uri[0]) {
			if (r->dm_user[0] && !r->partner_joined && !r->partner_told && !r->ask_timer)
				r->ask_timer = loop_timer(m->base.ev, MX_ASK_DELAY_MS, ask_fire, r);
			upload_start(m, r);
			return;
		}
		if (build_batch(m, r) < 0) {
			LOG(m, "error", "out of memory building a message");
			return;
		}
	}
	if (r->dm_user[0] && !r->partner_joined && !r->partner_told && !r->ask_timer)
		r->ask_timer = loop_timer(m->base.ev, MX_ASK_DELAY_MS, ask_fire, r);
	char esc[3 * ADAPTER_ID_MAX], txn[3 * sizeof r->txn], path[4096];
	path_escape(m, r->id, esc, sizeof esc);
	path_escape(m, r->txn, txn, sizeof txn);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/%s", esc, txn);
	mx_req *q = request(m, REQ_SEND, "PUT", path, strdup(r->batch), MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->id);
		r->sending = 1;
	}
}

static void send_retry_fire(void *ctx);

/* Rooms stay allocated until the adapter is freed, so a timer may hold one. */
/* A room has one retry timer: setting it again replaces the one pending
 * (two would fire on the same record, the first clearing the id of the
 * second, which could then fire after the record is freed). */
static void room_retry(matrix *m, mx_room *r, long ms, void (*fn)(void *))
{
	if (r->retry_timer)
		loop_cancel(m->base.ev, r->retry_timer);
	r->retry_fn = fn;
	r->retry_timer = loop_timer(m->base.ev, ms, fn, r);
}

static void schedule_send_retry(matrix *m, mx_room *r, long ms)
{
	room_retry(m, r, ms, send_retry_fire);
}

static void send_retry_fire(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	send_next(r->m, r);
}

/* The event in flight is posted (or dropped): its lines leave the queue. */
static void batch_done(matrix *m, mx_room *r)
{
	for (int i = 0; i < r->batch_lines && r->head; i++) {
		mx_msg *n = r->head->next;
		msg_free(m, r->head);
		r->head = n;
		r->nqueued--;
	}
	if (!r->head)
		r->tail = NULL;
	free(r->batch);
	r->batch = NULL;
}

/* A 429 for a room's job: the budget learns, and the dispatcher sends
 * again when the model has the tokens (never two jobs at one instant). A
 * job refused again and again also backs off on its own, so a model that
 * is still wrong cannot make it loop. */
static void refused_429(matrix *m, mx_room *r, long ms, const char *what, int solo)
{
	bud_refused(m, ms, solo);
	r->n429++;
	long extra = r->n429 >= MX_429_BACKOFF ? backoff_ms(m, r->n429 - MX_429_BACKOFF) : 0;
	LOG(m, "info", "%s: rate-limited %sfor the %d%s time; again when the budget allows (retry_after_ms %ld; model "
	    "%.3f a second, burst %.1f)%s",
	    r->id[0] ? r->id : r->dm_user, what[0] ? what : "", r->n429,
	    r->n429 == 1 ? "st" : r->n429 == 2 ? "nd" : r->n429 == 3 ? "rd" : "th", ms, m->bud_rate, m->bud_burst,
	    extra ? "; backing off" : "");
	if (extra)
		room_retry(m, r, ms + extra, r->id[0] ? send_retry_fire : create_dm_retry);
	kick(m, 0);
}

static void send_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = room_find(m, q->room);
	if (!r)
		return;
	r->sending = 0;
	if (status == 200 && jstr(body, "event_id")) {
		batch_done(m, r);
		r->attempts = 0;
		r->n429 = 0;
		m->last_ok = loop_now();
		send_next(m, r);
		return;
	}
	char why[512];
	if (status == 429) {
		refused_429(m, r, retry_after(body), "sending ", q->solo);
		return;
	}
	if (status == 0 || status >= 500 || status == 200) {
		long ms = backoff_ms(m, r->attempts++);
		snprintf(why, sizeof why, "%s", status == 0 ? err : status == 200 ? "a reply without event_id" : "");
		if (status >= 500)
			error_text(body, why, sizeof why);
		LOG(m, "warn", "%s: send failed (%s%s%ld); trying again in %ld ms with the same transaction id", r->id,
		    why, *why ? ", status " : "status ", status, ms);
		schedule_send_retry(m, r, ms);
		return;
	}
	error_text(body, why, sizeof why);
	LOG(m, "warn", "%s: the homeserver refused a message (%ld, %s); it is dropped", r->id, status, why);
	batch_done(m, r);
	if (status == 403 && r->dm_user[0]) {
		/* Not in the direct room any more: the next private line makes a new one. */
		char user[ADAPTER_ID_MAX];
		snprintf(user, sizeof user, "%s", r->dm_user);
		r->gone = 1;
		mx_msg *rest = r->head;
		r->head = r->tail = NULL;
		r->nqueued = 0;
		direct_save(m);
		/* The rest (lines and files, in order) goes to a new direct room. */
		mx_room *nr = rest && !m->fatal ? dm_find(m, user) : NULL;
		if (rest && !m->fatal && !nr && (nr = room_add(m, "")) != NULL) {
			snprintf(nr->dm_user, sizeof nr->dm_user, "%s", user);
			create_dm(m, nr);
		}
		while (rest) {
			mx_msg *n = rest->next;
			rest->next = NULL;
			if (nr)
				enqueue_msg(m, nr, rest);
			else
				msg_free(m, rest);
			rest = n;
		}
		return;
	}
	send_next(m, r);
}

/* The content repository answered an upload. */
static void upload_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = room_find(m, q->room);
	if (!r)
		return;
	r->sending = 0;
	mx_msg *msg = r->head;
	if (!msg || !msg->file || msg->file->id != q->file_id) {
		send_next(m, r); /* the file was dropped meanwhile (the room was left) */
		return;
	}
	mx_file *f = msg->file;
	const char *uri = jstr(body, "content_uri");
	char why[512];
	if (status == 200 && uri && !strncmp(uri, "mxc://", 6) && strlen(uri) < sizeof f->uri) {
		copy_clean(f->uri, sizeof f->uri, uri, 1);
		file_drop_data(m, f);
		r->attempts = 0;
		r->n429 = 0;
		m->last_ok = loop_now();
		LOG(m, "info", "%s: uploaded %s (%zu bytes)", r->id, msg->text, f->len);
		send_next(m, r);
		return;
	}
	if (status == 429) {
		refused_429(m, r, retry_after(body), "uploading ", q->solo);
		return;
	}
	if (status == 0 || status >= 500 || status == 200) {
		long ms = backoff_ms(m, r->attempts++);
		snprintf(why, sizeof why, "%s", status == 0 ? err : status == 200 ? "a reply without an mxc:// URI" : "");
		if (status >= 500)
			error_text(body, why, sizeof why);
		LOG(m, "warn", "%s: uploading %s failed (%s, status %ld); trying again in %ld ms", r->id, msg->text, why,
		    status, ms);
		schedule_send_retry(m, r, ms);
		return;
	}
	error_text(body, why, sizeof why);
	LOG(m, "warn", "%s: the homeserver refused the upload of %s (%zu bytes; %ld, %s); it is dropped", r->id,
	    msg->text, f->len, status, why);
	r->head = msg->next;
	if (!r->head)
		r->tail = NULL;
	r->nqueued--;
	msg_free(m, msg);
	r->attempts = 0;
	send_next(m, r);
}

/* A direct room is wanted: made when the budget has two tokens to spare. */
static void create_dm(matrix *m, mx_room *r)
{
	if (!r->create_wanted) {
		r->create_wanted = 1;
		r->create_at = loop_now();
	}
	kick(m, 0);
}

static void create_dm_start(matrix *m, mx_room *r)
{
	json_object *o = json_object_new_object(), *inv = json_object_new_array();
	json_object_array_add(inv, json_object_new_string(r->dm_user));
	json_object_object_add(o, "invite", inv);
	json_object_object_add(o, "is_direct", json_object_new_boolean(1));
	json_object_object_add(o, "preset", json_object_new_string("trusted_private_chat"));
	json_object_object_add(o, "visibility", json_object_new_string("private"));
	json_object_object_add(o, "name", json_object_new_string("cardbot"));
	mx_req *q = request(m, REQ_CREATE_DM, "POST", "/_matrix/client/v3/createRoom", json_text(o),
			    MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->dm_user);
		r->dm_creating = 1;
		LOG(m, "debug", "making a direct room for %s", r->dm_user);
	}
}

static void create_dm_retry(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	if (!r->gone)
		kick(r->m, 0);
}

static void create_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = NULL;
	for (mx_room *p = m->rooms; p; p = p->next)
		if (!p->id[0] && p->dm_creating && !strcmp(p->dm_user, q->room))
			r = p;
	if (!r)
		return;
	r->dm_creating = 0;
	const char *id = jstr(body, "room_id");
	if (status == 200 && is_room_id(id)) {
		r->create_wanted = 0;
		r->n429 = 0;
		m->last_ok = loop_now();
		LOG(m, "info", "made a direct room %s for %s", id, r->dm_user);
		mx_room *seen = room_find(m, id);
		if (seen && seen != r) {
			/* A sync told of the new room before this reply came: that
			 * record becomes the direct room, with the lines queued here. */
			LOG(m, "info", "%s was already known from a sync; it becomes the direct room", id);
			snprintf(seen->dm_user, sizeof seen->dm_user, "%s", r->dm_user);
			seen->partner_joined = member_find(seen, r->dm_user) != NULL;
			seen->ready_told = 0;
			seen->gone = 0;
			if (r->head) {
				r->tail->next = seen->head;
				if (!seen->head)
					seen->tail = r->tail;
				seen->head = r->head;
				seen->nqueued += r->nqueued;
				r->head = r->tail = NULL;
				r->nqueued = 0;
			}
			r->dm_user[0] = '\0';
			r->gone = r->left_done = 1;
			r = seen;
		} else {
			snprintf(r->id, sizeof r->id, "%s", id);
		}
		r->joined = 1;
		direct_save(m);
		send_next(m, r);
		return;
	}
	char why[512];
	long ms;
	if (status == 429) {
		/* Synapse may have made the room with the first token and refused
		 * the join for want of the second; it does not say which room, so
		 * it cannot be joined, and the budget makes this rare: a creation
		 * goes only when two tokens are there. */
		refused_429(m, r, retry_after(body), "making a direct room ", q->solo);
		return;
	} else if (status == 0 || status >= 500) {
		ms = backoff_ms(m, r->attempts++);
		if (status)
			error_text(body, why, sizeof why);
		else
			snprintf(why, sizeof why, "%s", err);
	} else {
		error_text(body, why, sizeof why);
		LOG(m, "warn", "cannot make a direct room for %s (%ld, %s); private lines to them are dropped",
		    r->dm_user, status, why);
		r->gone = 1;
		r->create_wanted = 0;
		queue_clear(r);
		return;
	}
	LOG(m, "warn", "making a direct room for %s failed (%s); trying again in %ld ms", r->dm_user, why, ms);
	room_retry(m, r, ms, create_dm_retry);
}

/* ---- /sync ---- */

static void sync_now(void *ctx)
{
	matrix *m = ctx;
	m->sync_timer = 0;
	if (m->stopping || m->fatal || m->sync_req)
		return;
	char path[4096], fil[3 * MX_TOKEN_MAX], since[3 * MX_TOKEN_MAX];
	path_escape(m, m->filter_id, fil, sizeof fil);
	long timeout = m->since[0] ? m->set.sync_timeout_ms : 0;
	int n = snprintf(path, sizeof path, "/_matrix/client/v3/sync?filter=%s&timeout=%ld", fil, timeout);
	if (m->since[0]) {
		path_escape(m, m->since, since, sizeof since);
		/* Back after a restart: the full state once, so every room the bot
		 * is in is seen again (tables resume) with its members. */
		snprintf(path + n, sizeof path - (size_t)n, "&since=%s%s", since,
			 m->synced_once ? "" : "&full_state=true");
	}
	long extra = m->set.sync_timeout_ms / 2 > 2000 ? m->set.sync_timeout_ms / 2 : 2000;
	m->sync_req = request(m, REQ_SYNC, "GET", path, NULL, timeout + extra);
	if (!m->sync_req)
		m->sync_timer = loop_timer(m->base.ev, backoff_ms(m, m->sync_failures++), sync_now, m);
}

static int invite_allowed(const matrix *m, const char *inviter)
{
	if (!m->set.ninvite_allow)
		return 1;
	const char *server = strchr(inviter, ':');
	for (int i = 0; i < m->set.ninvite_allow; i++) {
		const char *a = m->set.invite_allow[i];
		if (a[0] == '@' ? !strcmp(a, inviter) : (server && !strcasecmp(a, server + 1)))
			return 1;
	}
	return 0;
}

static void handle_invite(matrix *m, const char *room_id, json_object *room)
{
	json_object *events = jget(jget(room, "invite_state", json_type_object), "events", json_type_array);
	const char *inviter = NULL;
	int direct = 0, encrypted = 0;
	size_t n = events ? json_object_array_length(events) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		const char *type = jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.encryption"))
			encrypted = 1;
		const char *sk = jstr(e, "state_key");
		if (!strcmp(type, "m.room.member") && sk && !strcmp(sk, m->set.user_id)) {
			json_object *c = jget(e, "content", json_type_object);
			const char *ms = jstr(c, "membership");
			if (ms && !strcmp(ms, "invite")) {
				inviter = jstr(e, "sender");
				json_object *d = jget(c, "is_direct", json_type_boolean);
				direct = d && json_object_get_boolean(d);
			}
		}
	}
	mx_room *r = room_find(m, room_id);
	if (r && (r->joining || r->joined) && !r->gone)
		return; /* already on it */
	if (!is_user_id(inviter)) {
		LOG(m, "warn", "an invitation to %s without a valid inviter; ignored", room_id);
		return;
	}
	if (!m->set.accept_invites || !invite_allowed(m, inviter)) {
		LOG(m, "info", "declining the invitation to %s from %s (%s)", room_id, inviter,
		    m->set.accept_invites ? "not on invite_allow" : "accept_invites is off");
		leave_room(m, room_id, "");
		r = room_find(m, room_id);
		if (!r && (r = room_add(m, room_id)))
			r->gone = 1;
		return;
	}
	if (r && r->gone) {
		/* Invited back into a room left before: a fresh start. */
		queue_clear(r);
		r->gone = r->encrypted = r->leave_when_sent = 0;
		r->nmembers = 0;
	}
	if (!r && !(r = room_add(m, room_id)))
		return;
	r->joining = 1;
	r->encrypted = encrypted;
	if (direct && !dm_find(m, inviter))
		snprintf(r->dm_user, sizeof r->dm_user, "%s", inviter);
	LOG(m, "info", "invited to %s by %s%s; joining", room_id, inviter, direct ? " (a direct room)" : "");
	join_room(m, room_id, 1);
}

static void say_encrypted(matrix *m, mx_room *r)
{
	if (r->leave_when_sent || r->gone)
		return;
	LOG(m, "info", "%s is encrypted, which the bot cannot read yet; saying so and leaving", r->id);
	enqueue(m, r, "This room is encrypted, and I cannot read encrypted messages yet, so I am leaving. "
		      "Invite me to a room without encryption to play.", ADAPTER_NOTICE);
	r->leave_when_sent = 1;
	send_next(m, r);
}

/* One member event: track names, report joins and leaves, notice the bot's own. */
static void member_event(matrix *m, mx_room *r, json_object *e, int live)
{
	const char *who = jstr(e, "state_key");
	json_object *c = jget(e, "content", json_type_object);
	const char *ms = jstr(c, "membership");
	if (!is_user_id(who) || !ms)
		return;
	if (!strcmp(who, m->set.user_id))
		return; /* the bot's own membership comes from the sync sections */
	if (!strcmp(ms, "join")) {
		int was = member_find(r, who) != NULL;
		member_set(r, who, jstr(c, "displayname"));
		if (r->dm_user[0] && !strcmp(r->dm_user, who))
			r->partner_joined = 1;
		if (live && !was && !r->dm_user[0] && r->ready_told && m->base.host.joined) {
			char name[MX_NAME_MAX];
			display_name(r, who, name, sizeof name);
			m->base.host.joined(m->base.host.ctx, &m->base, r->id, who, name);
		}
	} else if (!strcmp(ms, "leave") || !strcmp(ms, "ban")) {
		int was = member_find(r, who) != NULL;
		member_remove(r, who);
		if (r->dm_user[0] && !strcmp(r->dm_user, who)) {
			r->partner_joined = 0;
			if (live && r->joined) {
				/* The player left their direct room: leave it too; a new one is made when needed. */
				LOG(m, "info", "%s left their direct room %s; leaving it", who, r->id);
				char id[ADAPTER_ID_MAX];
				snprintf(id, sizeof id, "%s", r->id);
				leave_room(m, id, "");
				direct_save(m);
			}
		}
		if (live && was && !r->dm_user[0] && r->ready_told && m->base.host.left)
			m->base.host.left(m->base.host.ctx, &m->base, r->id, who, strcmp(ms, "ban") ? "left" : "banned");
	} else if (!strcmp(ms, "invite")) {
		/* nothing: they are not in yet */
	}
}

/* A table room a person can name in a private command: one the bot is in
 * that is not a direct room. */
static int table_room(const mx_room *r)
{
	return r->id[0] && r->joined && !r->gone && !r->dm_user[0];
}

/* The room a private command starts with, named as people know it: its
 * short number ("2 hand"), its alias or its name ("Card room hand", "Card
 * room: hand"), case aside, the longest name that fits. Such a start is
 * handed to the host as the room's id, which the host knows; other text
 * is handed on as it is. Returns the text to hand on. */
static const char *table_named(matrix *m, const char *text, char *out, size_t len)
{
	const mx_room *best = NULL;
	size_t best_len = 0;
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (!table_room(r))
			continue;
		char num[16], label[32];
		const char *names[4] = { r->alias, r->name, num, label };
		snprintf(num, sizeof num, "%d", r->num);
		snprintf(label, sizeof label, "room %d", r->num);
		for (int i = 0; i < 4; i++) {
			size_t n = strlen(names[i]);
			if (!n || (i >= 2 && !r->num) || strncasecmp(text, names[i], n) != 0)
				continue;
			size_t k = n;
			if (text[k] == ':')
				k++;
			if (text[k] != ' ' || k <= best_len)
				continue;
			best = r, best_len = k;
		}
	}
	if (!best)
		return text;
	const char *rest = text + best_len;
	while (*rest == ' ')
		rest++;
	if (snprintf(out, len, "%s %s", best->id, rest) >= (int)len)
		return text;
	return out;
}

static void message_event(matrix *m, mx_room *r, json_object *e)
{
	const char *sender = jstr(e, "sender");
	json_object *c = jget(e, "content", json_type_object);
	const char *type = jstr(c, "msgtype"), *body = jstr(c, "body");
	if (!is_user_id(sender) || !strcmp(sender, m->set.user_id) || !type || !body)
		return;
	int flags = 0;
	if (!strcmp(type, "m.notice"))
		flags = ADAPTER_NOTICE; /* reported as such: the host never answers one */
	else if (strcmp(type, "m.text") != 0)
		return; /* emotes, images, files: nothing to act on */
	char text[ADAPTER_TEXT_MAX], name[MX_NAME_MAX];
	copy_clean(text, sizeof text, body, 0);
	/* Newlines and other controls become spaces: one command per message. */
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	display_name(r, sender, name, sizeof name);
	if (!m->base.host.message)
		return;
	/* What the host says back while it handles this is a reply to the
	 * person who just acted: the most urgent of all sends. */
	m->cb_user = sender;
	if (r->dm_user[0]) {
		if (strcmp(r->dm_user, sender) != 0) {
			m->cb_user = NULL;
			return; /* only the player speaks for themself in their direct room */
		}
		m->cb_room = NULL;
		char named[ADAPTER_TEXT_MAX];
		m->base.host.message(m->base.host.ctx, &m->base, NULL, sender, name,
				     table_named(m, text, named, sizeof named), flags);
		m->cb_user = NULL;
		return;
	}
	m->cb_room = r->id;
	m->base.host.message(m->base.host.ctx, &m->base, r->id, sender, name, text, flags);
	m->cb_user = m->cb_room = NULL;
}

static void joined_room(matrix *m, const char *room_id, json_object *room, int live)
{
	mx_room *r = room_get(m, room_id);
	if (!r)
		return;
	if (r->gone)
		return; /* being left: ignore what trails in */
	int fresh = !r->joined;
	r->joined = 1;
	r->joining = 0;
	json_object *state = jget(jget(room, "state", json_type_object), "events", json_type_array);
	size_t n = state ? json_object_array_length(state) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(state, i);
		const char *type = jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.member"))
			member_event(m, r, e, 0);
		else if (!strcmp(type, "m.room.encryption"))
			r->encrypted = 1;
		else if (!strcmp(type, "m.room.canonical_alias"))
			alias_event(r, e);
		else if (!strcmp(type, "m.room.name"))
			name_event(r, e);
	}
	if (fresh && !r->dm_user[0] && !r->encrypted && !r->ready_told) {
		r->ready_told = 1;
		LOG(m, "info", "in room %s", room_id);
		if (m->base.host.room_ready)
			m->base.host.room_ready(m->base.host.ctx, &m->base, room_id);
	}
	json_object *tl = jget(jget(room, "timeline", json_type_object), "events", json_type_array);
	n = tl ? json_object_array_length(tl) : 0;
	/* A room the bot has just joined comes with some history: only what
	 * follows the bot's own join is news. (A room it was in before a
	 * restart has no such join in its timeline: all of it is news.) */
	size_t first_news = 0;
	if (fresh && live)
		for (size_t i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(tl, i);
			const char *type = jstr(e, "type"), *sk = jstr(e, "state_key");
			const char *ms = jstr(jget(e, "content", json_type_object), "membership");
			if (type && !strcmp(type, "m.room.member") && sk && !strcmp(sk, m->set.user_id) && ms &&
			    !strcmp(ms, "join"))
				first_news = i + 1;
		}
	for (size_t i = 0; i < n && !r->gone; i++) {
		json_object *e = json_object_array_get_idx(tl, i);
		const char *type = jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.member") && jstr(e, "state_key"))
			member_event(m, r, e, live);
		else if (!strcmp(type, "m.room.encryption") && jstr(e, "state_key"))
			r->encrypted = 1;
		else if (!strcmp(type, "m.room.canonical_alias"))
			alias_event(r, e);
		else if (!strcmp(type, "m.room.name") && jstr(e, "state_key"))
			name_event(r, e);
		else if (!strcmp(type, "m.room.message") && live && i >= first_news && !r->encrypted)
			message_event(m, r, e);
	}
	if (r->encrypted)
		say_encrypted(m, r);
	if (fresh)
		send_next(m, r);
}

/* A room's canonical alias ("#name:server"): kept when it looks like one
 * (printable ASCII, a localpart and a server, bounded), cleared when the
 * event takes it away. */
static void alias_event(mx_room *r, json_object *e)
{
	const char *sk = jstr(e, "state_key");
	if (!sk || *sk)
		return;
	const char *a = jstr(jget(e, "content", json_type_object), "alias");
	size_t n = a ? strlen(a) : 0;
	int ok = n > 3 && n < sizeof r->alias && a[0] == '#' && strchr(a + 2, ':') && a[n - 1] != ':';
	for (size_t i = 0; ok && i < n; i++)
		ok = a[i] > 0x20 && a[i] < 0x7f;
	if (ok)
		memcpy(r->alias, a, n + 1);
	else
		r->alias[0] = '\0';
}

/* A room's name (m.room.name), cleaned of control characters and cut to
 * MX_LABEL_MAX; a name that starts like an id or an alias is not kept (a
 * label must not pass for another room). */
static void name_event(mx_room *r, json_object *e)
{
	const char *sk = jstr(e, "state_key");
	if (!sk || *sk)
		return;
	const char *n = jstr(jget(e, "content", json_type_object), "name");
	r->name[0] = '\0';
	if (n)
		copy_clean(r->name, sizeof r->name, n, 1);
	size_t k = strlen(r->name);
	while (k && r->name[k - 1] == ' ')
		r->name[--k] = '\0';
	if (r->name[0] == '!' || r->name[0] == '#' || r->name[0] == '@' || r->name[0] == ' ' || r->name[0] == '[')
		r->name[0] = '\0';
}

static void left_room(matrix *m, const char *room_id, json_object *room)
{
	mx_room *r = room_find(m, room_id);
	if (!r || (!r->joined && !r->gone && !r->joining))
		return;
	if (!r->joined && r->gone)
		return; /* our own leave, already handled */
	char why[512] = "left";
	json_object *tl = jget(jget(room, "timeline", json_type_object), "events", json_type_array);
	size_t n = tl ? json_object_array_length(tl) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(tl, i);
		const char *type = jstr(e, "type"), *sk = jstr(e, "state_key"), *sender = jstr(e, "sender");
		if (!type || strcmp(type, "m.room.member") || !sk || strcmp(sk, m->set.user_id))
			continue;
		json_object *c = jget(e, "content", json_type_object);
		const char *ms = jstr(c, "membership"), *reason = jstr(c, "reason");
		if (sender && strcmp(sender, m->set.user_id)) {
			char raw[512];
			snprintf(raw, sizeof raw, "%s by %s%s%s", ms && !strcmp(ms, "ban") ? "banned" : "kicked", sender,
				 reason ? ": " : "", reason ? reason : "");
			copy_clean(why, sizeof why, raw, 1);
		}
	}
	LOG(m, "info", "out of room %s (%s); forgetting it", room_id, why);
	room_left(m, room_id, why);
}

/* Frees the records of rooms the bot has left for good (nothing in flight,
 * no timer holding them), so a long run does not pile them up. */
static void prune_rooms(matrix *m)
{
	for (mx_room **p = &m->rooms; *p;) {
		mx_room *r = *p;
		if (r->gone && r->left_done && !r->sending && !r->retry_timer && !r->ask_timer && !r->dm_creating &&
		    !r->joining && !r->joined) {
			*p = r->next;
			queue_clear(r);
			free(r->members);
			free(r);
		} else {
			p = &r->next;
		}
	}
}

static void handle_sync(matrix *m, json_object *body)
{
	const char *next = jstr(body, "next_batch");
	if (!next || strlen(next) >= sizeof m->since || !text_ok(next)) {
		LOG(m, "warn", "a sync reply without a usable next_batch; ignored");
		m->sync_timer = loop_timer(m->base.ev, backoff_ms(m, m->sync_failures++), sync_now, m);
		return;
	}
	int live = m->since[0] != 0; /* the first sync only learns the rooms: history is not replayed */
	json_object *ad = jget(jget(body, "account_data", json_type_object), "events", json_type_array);
	size_t n = ad ? json_object_array_length(ad) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(ad, i);
		const char *type = jstr(e, "type");
		if (type && !strcmp(type, "m.direct"))
			direct_load(m, jget(e, "content", json_type_object), 1);
	}
	json_object *rooms = jget(body, "rooms", json_type_object);
	json_object *join = jget(rooms, "join", json_type_object);
	if (join) {
		json_object_object_foreach(join, id, room)
		{
			if (is_room_id(id) && json_object_is_type(room, json_type_object))
				joined_room(m, id, room, live);
		}
	}
	json_object *inv = jget(rooms, "invite", json_type_object);
	if (inv) {
		json_object_object_foreach(inv, id, room)
		{
			if (is_room_id(id) && json_object_is_type(room, json_type_object))
				handle_invite(m, id, room);
		}
	}
	json_object *leave = jget(rooms, "leave", json_type_object);
	if (leave) {
		json_object_object_foreach(leave, id, room)
		{
			if (is_room_id(id) && json_object_is_type(room, json_type_object))
				left_room(m, id, room);
		}
	}
	snprintf(m->since, sizeof m->since, "%s", next);
	state_set(m, "since", m->since);
	m->synced_once = 1;
	if (!m->joined_configured) {
		m->joined_configured = 1;
		for (int i = 0; i < m->set.nrooms; i++)
			join_room(m, m->set.rooms[i], 0);
	}
	m->sync_failures = 0;
	prune_rooms(m);
	link_state(m, 1, "");
	sync_now(m);
}

/* ---- replies ---- */

static void join_retry_fire(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	if (!r->gone && !r->joined && r->id[0]) {
		r->joining = 1;
		join_room(r->m, r->id, r->join_invited);
	}
}

/* The body of a finished request as a JSON object, or NULL (then err says
 * why). A 200 whose body is not an object becomes status 0: garbage counts
 * as a network error, and is retried. */
static json_object *reply_parse(matrix *m, const char *in, size_t inlen, long *status, char *err, size_t errlen)
{
	json_object *body = NULL;
	if (inlen) {
		json_tokener *tok = json_tokener_new();
		if (tok) {
			json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
			body = json_tokener_parse_ex(tok, in, inlen > INT32_MAX ? INT32_MAX : (int)inlen);
			enum json_tokener_error je = json_tokener_get_error(tok);
			if (je != json_tokener_success || json_tokener_get_parse_end(tok) < inlen) {
				json_object_put(body);
				body = NULL;
				snprintf(err, errlen, "the homeserver sent JSON that does not parse (%zu bytes, %s)", inlen,
					 je == json_tokener_success ? "extra data after it" : json_tokener_error_desc(je));
			}
			json_tokener_free(tok);
		}
	}
	if (!body || !json_object_is_type(body, json_type_object)) {
		if (!err[0])
			snprintf(err, errlen, "the reply (status %ld) is not a JSON object", *status);
		LOG(m, "warn", "%s", err);
		json_object_put(body);
		body = NULL;
		if (*status == 200)
			*status = 0;
	}
	return body;
}

/* A request is over: rc is curl's result, status the HTTP status (when
 * rc is CURLE_OK), q->in the body. Parses it and acts on it. The only way
 * replies come in: drive() for the network, matrix_feed_reply for tests. */
static void on_done(matrix *m, mx_req *q, CURLcode rc, long status)
{
	json_object *body = NULL;
	char err[CURL_ERROR_SIZE + 64] = "";
	if (rc == CURLE_OK) {
		body = reply_parse(m, q->in, q->inlen, &status, err, sizeof err);
	} else {
		status = 0;
		snprintf(err, sizeof err, "%s", q->too_big ? "the reply was too large" : q->errbuf[0] ? q->errbuf
			 : curl_easy_strerror(rc));
	}
	char why[512];
	switch (q->kind) {
	case REQ_LOGIN:
		if (status == 200 && jstr(body, "access_token")) {
			const char *dev = jstr(body, "device_id"), *uid = jstr(body, "user_id");
			copy_clean(m->token, sizeof m->token, jstr(body, "access_token"), 1);
			if (dev) {
				copy_clean(m->device, sizeof m->device, dev, 1);
				state_set(m, "device_id", m->device);
			}
			LOG(m, "info", "logged in as %s, device %s", uid ? uid : m->set.user_id, m->device);
			m->start_failures = 0;
			start_step(m);
		} else if (status == 0 || status >= 500 || status == 429) {
			start_retry(m, "login", status ? "the homeserver is busy" : err);
		} else {
			error_text(body, why, sizeof why);
			char line[1200];
			snprintf(line, sizeof line, "login as %s refused (%ld, %s): check user_id and password",
				 m->set.user_id, status, why);
			fatal(m, line);
		}
		break;
	case REQ_WHOAMI:
		if (status == 200 && jstr(body, "user_id")) {
			const char *uid = jstr(body, "user_id");
			if (strcmp(uid, m->set.user_id) != 0) {
				char line[1200];
				snprintf(line, sizeof line, "the access token belongs to %.200s, not to %s: fix user_id or "
					 "access_token", uid, m->set.user_id);
				fatal(m, line);
				break;
			}
			const char *dev = jstr(body, "device_id");
			if (dev && !m->device[0])
				copy_clean(m->device, sizeof m->device, dev, 1);
			LOG(m, "info", "whoami: %s, device %s", uid, m->device[0] ? m->device : "(unknown)");
			m->start_failures = 0;
			upload_filter(m);
		} else if (status == 0 || status >= 500 || status == 429) {
			start_retry(m, "whoami", status ? "the homeserver is busy" : err);
		} else {
			error_text(body, why, sizeof why);
			char line[1200];
			snprintf(line, sizeof line, "the homeserver refused the access token for %s (%ld, %s): check "
				 "access_token", m->set.user_id, status, why);
			fatal(m, line);
		}
		break;
	case REQ_FILTER:
		if (status == 200 && jstr(body, "filter_id")) {
			copy_clean(m->filter_id, sizeof m->filter_id, jstr(body, "filter_id"), 1);
			after_filter(m);
		} else {
			if (status)
				error_text(body, why, sizeof why);
			long ms = backoff_ms(m, m->start_failures++);
			LOG(m, "warn", "uploading the sync filter failed (%s); trying again in %ld ms", status ? why : err,
			    ms);
			m->start_fn = filter_retry;
			m->start_timer = loop_timer(m->base.ev, ms, filter_retry, m);
		}
		break;
	case REQ_DIRECT_GET:
		if (status == 200)
			direct_load(m, body, 1);
		else if (status != 404)
			LOG(m, "warn", "could not read m.direct (%ld); using the saved direct rooms", status);
		after_direct(m);
		break;
	case REQ_DIRECT_PUT:
		m->direct_putting = 0;
		if (status != 200)
			LOG(m, "warn", "could not write m.direct (%ld)", status);
		if (m->direct_dirty && status == 200)
			direct_save(m);
		break;
	case REQ_SYNC:
		m->sync_req = NULL;
		if (m->stopping)
			break;
		if (status == 200 && body) {
			handle_sync(m, body);
		} else {
			long ms;
			if (status == 429) {
				ms = retry_after(body);
			} else {
				ms = backoff_ms(m, m->sync_failures++);
				if (status && body)
					error_text(body, why, sizeof why);
			}
			if (status == 401) {
				error_text(body, why, sizeof why);
				char line[1200];
				snprintf(line, sizeof line, "the homeserver no longer accepts the access token (%s)", why);
				if (m->set.password[0]) {
					LOG(m, "warn", "%s; logging in again", line);
					m->token[0] = '\0';
					link_state(m, 0, line);
					m->start_fn = start_step;
					m->start_timer = loop_timer(m->base.ev, ms, start_step, m);
				} else {
					fatal(m, line);
				}
				break;
			}
			LOG(m, "warn", "sync failed (%s); trying again in %ld ms", status == 0 ? err : status == 429
			    ? "rate-limited" : "server error", ms);
			if (m->sync_failures >= 3)
				link_state(m, 0, "sync keeps failing");
			m->sync_timer = loop_timer(m->base.ev, ms, sync_now, m);
		}
		break;
	case REQ_JOIN: {
		mx_room *r = room_find(m, q->room);
		const char *id = jstr(body, "room_id");
		if (status == 200 && is_room_id(id)) {
			LOG(m, "info", "joined %s%s%s", q->room, strcmp(q->room, id) ? " as " : "",
			    strcmp(q->room, id) ? id : "");
			bud_spend(m, 1); /* Synapse counts a join (a member event) as a message */
			mx_room *j = room_get(m, id);
			if (j) {
				j->joining = 1; /* /sync confirms */
				j->gone = 0;
			}
		} else {
			if (status)
				error_text(body, why, sizeof why);
			if (r)
				r->joining = 0;
			if (status == 429 && r && !r->gone) {
				/* A join is a message to Synapse's limit too: later. */
				long ms = retry_after(body);
				bud_refused(m, ms, 0);
				r->join_invited = q->join_via_invite;
				LOG(m, "info", "joining %s: rate-limited; again in %ld ms", q->room, ms);
				room_retry(m, r, ms + 250, join_retry_fire);
				break;
			}
			LOG(m, "warn", "cannot join %s (%ld, %s)", q->room, status, status ? why : err);
			if (q->join_via_invite && r && !r->joined)
				r->gone = 1;
		}
		break;
	}
	case REQ_LEAVE:
		if (status == 200) {
			bud_spend(m, 1);
			mx_room *r = room_find(m, q->room);
			if (r && r->ready_told && !r->dm_user[0] && m->base.host.room_lost)
				m->base.host.room_lost(m->base.host.ctx, &m->base, q->room, "left");
			if (r) {
				r->joined = r->ready_told = 0;
				r->left_done = 1;
				queue_clear(r);
			}
			forget_room(m, q->room);
		} else {
			LOG(m, "warn", "leaving %s failed (%ld)", q->room, status);
		}
		break;
	case REQ_FORGET:
		if (status != 200)
			LOG(m, "info", "forgetting %s failed (%ld)", q->room, status);
		break;
	case REQ_SEND:
		send_done(m, q, status, body, err);
		break;
	case REQ_CREATE_DM:
		create_done(m, q, status, body, err);
		break;
	case REQ_UPLOAD:
		upload_done(m, q, status, body, err);
		break;
	}
	json_object_put(body);
}

static void drive(matrix *m)
{
	int running = 0;
	curl_multi_perform(m->multi, &running);
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(m->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		mx_req *q = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&q);
		CURLcode rc = msg->data.result;
		if (!q)
			continue;
		long status = 0;
		if (rc == CURLE_OK)
			curl_easy_getinfo(q->h, CURLINFO_RESPONSE_CODE, &status);
		req_unlink(m, q);
		curl_multi_remove_handle(m->multi, q->h);
		on_done(m, q, rc, status);
		curl_easy_cleanup(q->h);
		q->h = NULL;
		req_free(q);
	}
}

/* ---- for the tests and the fuzzer only (see matrix.h) ---- */

static const char *const req_names[] = {
	[REQ_LOGIN] = "login", [REQ_WHOAMI] = "whoami", [REQ_FILTER] = "filter", [REQ_DIRECT_GET] = "direct_get",
	[REQ_SYNC] = "sync", [REQ_JOIN] = "join", [REQ_LEAVE] = "leave", [REQ_FORGET] = "forget",
	[REQ_SEND] = "send", [REQ_CREATE_DM] = "createRoom", [REQ_DIRECT_PUT] = "direct_put", [REQ_UPLOAD] = "upload",
};

/* Every timer the adapter has set comes due now, in a fixed order. */
static void fire_timers(matrix *m)
{
	loop *ev = m->base.ev;
	if (m->bud_on) { /* the wait a 429 asked for is over too */
		m->bud_tokens = m->bud_burst;
		m->bud_at = loop_now();
	}
	if (m->disp_timer) {
		loop_cancel(ev, m->disp_timer);
		m->disp_timer = 0;
		dispatch(m);
	}
	if (m->sync_timer) {
		loop_cancel(ev, m->sync_timer);
		sync_now(m);
	}
	if (m->start_timer && m->start_fn) {
		loop_cancel(ev, m->start_timer);
		m->start_fn(m);
	}
	/* Rooms are freed only by prune_rooms (after a sync), and new ones go
	 * in at the head, so this walk is safe while the callbacks run. */
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->retry_timer && r->retry_fn) {
			loop_cancel(ev, r->retry_timer);
			r->retry_fn(r);
		}
		if (r->ask_timer) {
			loop_cancel(ev, r->ask_timer);
			ask_fire(r);
		}
	}
}

int matrix_feed_reply(adapter *a, const char *kind, long status, const char *body, size_t len)
{
	matrix *m = (matrix *)a;
	if (!m || !kind)
		return -1;
	if (!strcmp(kind, "timers")) {
		fire_timers(m);
		return 0;
	}
	int k = -1;
	for (size_t i = 0; i < sizeof req_names / sizeof req_names[0]; i++)
		if (req_names[i] && !strcmp(kind, req_names[i]))
			k = (int)i;
	/* The oldest request of that kind still out (new ones go in at the head). */
	mx_req *q = NULL;
	for (mx_req *p = m->reqs; p; p = p->next)
		if (p->kind == k)
			q = p;
	if (!q)
		return -1;
	/* As drive() does, with the bytes arriving as on_body takes them. */
	CURLcode rc = CURLE_OK;
	if (status <= 0)
		rc = CURLE_COULDNT_CONNECT;
	else if (len && on_body((char *)body, 1, len, q) != len)
		rc = CURLE_WRITE_ERROR;
	req_unlink(m, q);
	if (q->h) {
		curl_multi_remove_handle(m->multi, q->h);
		curl_easy_cleanup(q->h);
		q->h = NULL;
	}
	on_done(m, q, rc, status);
	req_free(q);
	return 0;
}

static void on_tick(void *ctx)
{
	matrix *m = ctx;
	m->tick_timer = 0;
	drive(m);
}

static void src_prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	matrix *m = ctx;
	if (!m->reqs)
		return;
	fd_set ex;
	FD_ZERO(&ex);
	int mx = -1;
	curl_multi_fdset(m->multi, rd, wr, &ex, &mx);
	if (mx > *maxfd)
		*maxfd = mx;
	long t = -1;
	curl_multi_timeout(m->multi, &t);
	if (mx == -1 && (t < 0 || t > 100))
		t = 100; /* curl has no socket to wait on yet (name lookup): look again soon */
	if (t >= 0) {
		if (*timeout_ms < 0 || t < *timeout_ms)
			*timeout_ms = t;
		if (m->tick_timer)
			loop_cancel(m->base.ev, m->tick_timer);
		m->tick_timer = loop_timer(m->base.ev, t, on_tick, m);
	}
}

static void src_dispatch(void *ctx, fd_set *rd, fd_set *wr)
{
	(void)rd, (void)wr;
	matrix *m = ctx;
	if (m->reqs)
		drive(m);
}

/* ---- the adapter ops ---- */

static int op_start(adapter *a)
{
	matrix *m = (matrix *)a;
	if (m->started)
		return 0;
	m->started = 1;
	if (m->set.access_token[0])
		snprintf(m->token, sizeof m->token, "%s", m->set.access_token);
	if (m->set.device_id[0])
		snprintf(m->device, sizeof m->device, "%s", m->set.device_id);
	else
		state_get(m, "device_id", m->device, sizeof m->device);
	LOG(m, "info", "connecting to %s as %s", m->set.homeserver, m->set.user_id);
	start_step(m);
	return 0;
}

static void op_send_room(adapter *a, const char *room, const char *text, int flags)
{
	matrix *m = (matrix *)a;
	mx_room *r = room ? room_find(m, room) : NULL;
	if (!r || r->gone || !text) {
		if (room)
			LOG(m, "info", "a line for %s, where the bot is not: dropped", room);
		return;
	}
	enqueue(m, r, text, flags);
}

/* The direct room with a user, made (and the user invited) if there is
 * none yet; NULL when out of memory. */
static mx_room *dm_open(matrix *m, const char *user)
{
	mx_room *r = dm_find(m, user);
	if (!r) {
		r = room_add(m, "");
		if (!r)
			return NULL;
		snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
		create_dm(m, r);
	}
	return r;
}

/* adapter_ops.tag: only the story is used here (which table a hand is
 * of); the budget orders lines by its own classes. */
static void op_tag(adapter *a, const adapter_tag *t)
{
	matrix *m = (matrix *)a;
	snprintf(m->tag_story, sizeof m->tag_story, "%s", t && t->story ? t->story : "");
}

static void op_send_private(adapter *a, const char *user, const char *text, int flags)
{
	matrix *m = (matrix *)a;
	if (!is_user_id(user) || !text || m->fatal)
		return;
	if (!strcmp(user, m->set.user_id))
		return;
	mx_room *r = dm_open(m, user);
	if (r)
		enqueue(m, r, text, flags);
}

/* A direct room ahead of need: a room creation costs as much as two
 * messages against Synapse's limit, better spent while people sit down
 * than when the hands go out. */
/* adapter_ops.present: the members the bot's sync has shown it (the filter
 * loads them all, not lazily). */
static int op_present(const adapter *a, const char *room, const char *user)
{
	matrix *m = (matrix *)a;
	int unknown = 0;
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->gone || r->dm_user[0] || !r->joined || (room && strcmp(r->id, room)))
			continue;
		if (member_find(r, user))
			return 1;
		unknown |= r->nmembers >= MX_MEMBERS_MAX; /* members past the limit are not kept */
	}
	return unknown ? -1 : 0;
}

/* A table room's short number, given when the host first names the room
 * (so the numbers count tables, not the direct rooms around them). */
static void room_number(matrix *m, mx_room *r)
{
	if (!r->num && !r->dm_user[0])
		r->num = ++m->room_serial;
}

/* A room as people know it, never its id: the canonical alias, else its
 * name, else "room N" by its short number. */
static int op_room_label(const adapter *a, const char *room, char *out, size_t len)
{
	mx_room *r = room ? room_find((matrix *)a, room) : NULL;
	if (len)
		out[0] = '\0';
	if (!r || !len)
		return 0;
	room_number((matrix *)a, r);
	int n;
	if (r->alias[0])
		n = snprintf(out, len, "%s", r->alias);
	else if (r->name[0])
		n = snprintf(out, len, "%s", r->name);
	else if (r->num)
		n = snprintf(out, len, "room %d", r->num);
	else
		return 0;
	if (n < 0 || (size_t)n >= len) {
		out[0] = '\0';
		return 0;
	}
	return 1;
}

/* The room's short number, for private commands ("2 hand"). */
static int op_room_ref(const adapter *a, const char *room, char *out, size_t len)
{
	mx_room *r = room ? room_find((matrix *)a, room) : NULL;
	if (len)
		out[0] = '\0';
	if (!r || !len)
		return 0;
	room_number((matrix *)a, r);
	if (!r->num)
		return 0;
	int n = snprintf(out, len, "%d", r->num);
	return n > 0 && (size_t)n < len;
}

static void op_open_private(adapter *a, const char *user)
{
	matrix *m = (matrix *)a;
	if (is_user_id(user) && !m->fatal && !m->stopping && strcmp(user, m->set.user_id))
		dm_open(m, user);
}

/* A MIME type fit for a header: "type/subtype" and parameters, printable
 * ASCII only; anything else becomes application/octet-stream. */
static void clean_mime(const char *in, char *out, size_t len)
{
	size_t n = in ? strlen(in) : 0;
	int ok = n > 2 && n < len && strchr(in, '/') != NULL;
	for (size_t i = 0; ok && i < n; i++)
		if (!strchr("!#$&^_.+-/;= \"", in[i]) && !((in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z')
							     || (in[i] >= '0' && in[i] <= '9')))
			ok = 0;
	snprintf(out, len, "%s", ok ? in : "application/octet-stream");
}

static int op_send_file(adapter *a, const char *user, const char *filename, const char *mimetype, const char *data,
			size_t len)
{
	matrix *m = (matrix *)a;
	if (!is_user_id(user) || !filename || !data || m->fatal || m->stopping || !strcmp(user, m->set.user_id))
		return -1;
	if (len > MX_FILE_MAX || m->file_bytes + len > MX_FILES_BYTES_MAX) {
		LOG(m, "warn", "a file for %s (%zu bytes) is refused: over the limit of %d bytes (%zu bytes waiting)", user,
		    len, MX_FILE_MAX, m->file_bytes);
		return -1;
	}
	char name[256];
	copy_clean(name, sizeof name, filename, 1);
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == '\\')
			*p = '_';
	if (!name[0])
		snprintf(name, sizeof name, "file");
	size_t nl = strlen(name);
	mx_msg *msg = malloc(sizeof *msg + nl + 1);
	mx_file *f = calloc(1, sizeof *f);
	char *copy = malloc(len ? len : 1);
	if (!msg || !f || !copy) {
		free(msg), free(f), free(copy);
		LOG(m, "warn", "out of memory for a file for %s", user);
		return -1;
	}
	if (len)
		memcpy(copy, data, len);
	msg->story[0] = '\0';
	f->id = ++m->file_serial;
	f->data = copy;
	f->len = len;
	clean_mime(mimetype, f->mime, sizeof f->mime);
	msg->next = NULL;
	msg->flags = ADAPTER_NOTICE;
	msg->file = f;
	msg->cls = CLS_PRIVATE;
	msg->at = 0;
	memcpy(msg->text, name, nl + 1);
	m->file_bytes += len;
	mx_room *r = dm_find(m, user);
	if (!r) {
		r = room_add(m, "");
		if (!r) {
			msg_free(m, msg);
			return -1;
		}
		snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
		create_dm(m, r);
	}
	enqueue_msg(m, r, msg);
	return 0;
}

static void op_join(adapter *a, const char *room, const char *key)
{
	(void)key;
	matrix *m = (matrix *)a;
	if (room && *room && strlen(room) < ADAPTER_ID_MAX)
		join_room(m, room, 0);
}

static void op_part(adapter *a, const char *room, const char *why)
{
	matrix *m = (matrix *)a;
	if (room && room_find(m, room))
		leave_room(m, room, why);
}

static void op_stop(adapter *a, const char *why)
{
	(void)why;
	matrix *m = (matrix *)a;
	m->stopping = 1;
	if (m->sync_req) {
		req_unlink(m, m->sync_req);
		req_free(m->sync_req);
		m->sync_req = NULL;
	}
	if (m->sync_timer)
		loop_cancel(m->base.ev, m->sync_timer);
	if (m->start_timer)
		loop_cancel(m->base.ev, m->start_timer);
	m->sync_timer = m->start_timer = 0;
	link_state(m, 0, "stopping");
	/* Lines already queued may still leave while the host's grace lasts. */
}

static const char *op_self(const adapter *a)
{
	const matrix *m = (const matrix *)a;
	return m->set.user_id;
}

static void op_free(adapter *a)
{
	matrix *m = (matrix *)a;
	if (!m)
		return;
	while (m->reqs) {
		mx_req *q = m->reqs;
		m->reqs = q->next;
		req_free(q);
	}
	if (m->source_id >= 0)
		loop_remove_source(m->base.ev, m->source_id);
	loop *ev = m->base.ev;
	if (m->tick_timer)
		loop_cancel(ev, m->tick_timer);
	if (m->sync_timer)
		loop_cancel(ev, m->sync_timer);
	if (m->start_timer)
		loop_cancel(ev, m->start_timer);
	if (m->disp_timer)
		loop_cancel(ev, m->disp_timer);
	while (m->rooms) {
		mx_room *r = m->rooms;
		m->rooms = r->next;
		if (r->retry_timer)
			loop_cancel(ev, r->retry_timer);
		if (r->ask_timer)
			loop_cancel(ev, r->ask_timer);
		queue_clear(r);
		free(r->members);
		free(r);
	}
	curl_multi_cleanup(m->multi);
	curl_global_cleanup();
	free(m);
}

static const adapter_ops matrix_ops = {
	.kind = "matrix",
	.start = op_start,
	.send_room = op_send_room,
	.send_private = op_send_private,
	.join = op_join,
	.part = op_part,
	.stop = op_stop,
	.self = op_self,
	.origin = NULL,
	.send_file = op_send_file,
	.open_private = op_open_private,
	.tag = op_tag,
	.room_label = op_room_label,
	.present = op_present,
	.room_ref = op_room_ref,
	.free = op_free,
};

void matrix_settings_default(matrix_settings *s)
{
	memset(s, 0, sizeof *s);
	s->tls_verify = 1;
	s->accept_invites = 1;
	s->sync_timeout_ms = 30000;
	s->backoff_min_ms = 1000;
	s->backoff_max_ms = 300000;
	s->rate_per_minute = (int)(MX_RATE_GUESS * 60);
	s->rate_burst = (int)MX_BURST_GUESS;
}

adapter *matrix_adapter_new(loop *ev, const adapter_host *host, const char *name, const matrix_settings *s)
{
	if (!ev || !host || !s)
		return NULL;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return NULL;
	matrix *m = calloc(1, sizeof *m);
	if (!m) {
		curl_global_cleanup();
		return NULL;
	}
	m->base.ops = &matrix_ops;
	m->base.host = *host;
	m->base.ev = ev;
	snprintf(m->base.name, sizeof m->base.name, "%s", name ? name : "matrix");
	m->set = *s;
	if (m->set.backoff_min_ms < 1)
		m->set.backoff_min_ms = 1;
	if (m->set.backoff_max_ms < m->set.backoff_min_ms)
		m->set.backoff_max_ms = m->set.backoff_min_ms;
	m->multi = curl_multi_init();
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	m->txn_base = (unsigned long long)ts.tv_sec * 1000ULL + (unsigned long long)(ts.tv_nsec / 1000000);
	m->rnd = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ULL;
	if (!m->rnd)
		m->rnd = 1;
	m->bud_on = m->set.assume_limit;
	m->bud_rate = m->set.rate_per_minute > 0 ? m->set.rate_per_minute / 60.0 : MX_RATE_GUESS;
	m->bud_burst = m->bud_tokens = m->set.rate_burst > 0 ? m->set.rate_burst : MX_BURST_GUESS;
	m->bud_at = loop_now();
	loop_source src = { .ctx = m, .prepare = src_prepare, .dispatch = src_dispatch };
	m->source_id = m->multi ? loop_add_source(ev, &src) : -1;
	if (m->source_id < 0) {
		if (m->multi)
			curl_multi_cleanup(m->multi);
		free(m);
		curl_global_cleanup();
		return NULL;
	}
	return &m->base;
}
