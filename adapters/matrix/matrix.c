/* matrix.c: the Matrix adapter: its start (login, whoami, filter, m.direct), the adapter ops, the test hooks.
 *
 * Every HTTP request is a curl easy handle on one curl multi handle, which
 * is driven by the bot's select loop (curl_multi_fdset in prepare,
 * curl_multi_perform in dispatch and on a timer for curl's own timeouts).
 * Nothing here blocks. JSON is parsed and built with json-c; json-c objects
 * never leave the adapter's files (adapters/matrix*.c, matrix_internal.h).
 * The adapter is split by noun: matrix_http.c (requests and replies),
 * matrix_sync.c, matrix_send.c (queues and batches), matrix_budget.c (the
 * message limit), matrix_rooms.c, matrix_html.c. docs/MATRIX.md describes
 * the behaviour.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "matrix_internal.h"
#include "pack.h"
#include "utf8.h"

/* ---- small helpers ---- */

__attribute__((format(printf, 3, 4)))
void mx_log(const matrix *m, const char *level, const char *fmt, ...)
{
	char who[96];
	snprintf(who, sizeof who, "matrix[%s]", m->base.name);
	va_list ap;
	va_start(ap, fmt);
	log_vword(level, who, fmt, ap);
	va_end(ap);
}

static uint64_t mx_rand(matrix *m)
{
	m->rnd ^= m->rnd << 13;
	m->rnd ^= m->rnd >> 7;
	m->rnd ^= m->rnd << 17;
	return m->rnd;
}

/* Exponential backoff with jitter: a random time between half and all of
 * min * 2^n, capped at max. */
long mx_backoff_ms(matrix *m, int failures)
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
size_t mx_utf8_len(const unsigned char *s)
{
	size_t n = utf8_seq((const char *)s, strnlen((const char *)s, 4));
	return n ? n : 1;
}

/* Valid UTF-8 without control characters (a sync token kept by the host). */
int mx_text_ok(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		size_t n = mx_utf8_len(s);
		if (n == 1 && (*s >= 0x80 || *s < 0x20 || *s == 0x7f))
			return 0;
		s += n;
	}
	return 1;
}

/* Copies src into dst (size len), dropping control characters when
 * drop_ctl, cutting at a character boundary. Invalid UTF-8 bytes become '?'. */
void mx_copy_clean(char *dst, size_t len, const char *src, int drop_ctl)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)src;
	if (!len)
		return;
	while (*s) {
		size_t n = mx_utf8_len(s);
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
int mx_is_user_id(const char *s)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	return s && s[0] == '@' && colon && colon > s + 1 && colon[1] && strlen(s) < ADAPTER_ID_MAX && id_chars_ok(s);
}

/* "!opaque:server", or "!opaque" (room version 12 has no server part). */
int mx_is_room_id(const char *s)
{
	return s && s[0] == '!' && s[1] && strlen(s) < ADAPTER_ID_MAX && id_chars_ok(s);
}

const char *mx_jstr(json_object *o, const char *key)
{
	json_object *v;
	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return NULL;
}

json_object *mx_jget(json_object *o, const char *key, json_type t)
{
	json_object *v;
	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, t))
		return v;
	return NULL;
}

/* ---- the start: login, whoami, filter, m.direct, rooms ---- */

void mx_link_state(matrix *m, int up, const char *why)
{
	if (m->linked == up)
		return;
	m->linked = up;
	if (m->base.host.link)
		m->base.host.link(m->base.host.ctx, &m->base, up, why);
}

void mx_fatal(matrix *m, const char *why)
{
	m->fatal = 1;
	LOG(m, "error", "%s; the network stays down until the bot is restarted", why);
	mx_link_state(m, 0, why);
}

void mx_start_retry(matrix *m, const char *what, const char *why)
{
	long d = mx_backoff_ms(m, m->start_failures++);
	LOG(m, "warn", "%s failed (%s); trying again in %ld ms", what, why, d);
	m->start_fn = mx_start_step;
	m->start_timer = loop_timer(m->base.ev, d, mx_start_step, m);
}

/* A line the adapter says by itself in room r (enum adapter_words): in the
 * room's language when the host words it, else english (a format with one
 * %s, the name, when the line names someone). Returns out. */
const char *mx_words(matrix *m, const mx_room *r, int what, const char *name, const char *english, char *out,
		     size_t len)
{
	if (m->base.host.words && m->base.host.words(m->base.host.ctx, &m->base, r->id, what, name ? name : "", out,
						     len) == 1 && out[0])
		return out;
	const char *at = strstr(english, "%s");
	if (at)
		snprintf(out, len, "%.*s%s%s", (int)(at - english), english, name ? name : "", at + 2);
	else
		snprintf(out, len, "%s", english);
	return out;
}

void mx_state_set(matrix *m, const char *key, const char *value)
{
	if (m->base.host.state_set && m->base.host.state_set(m->base.host.ctx, &m->base, key, value) < 0)
		LOG(m, "warn", "could not save %s", key);
}

static int state_get(matrix *m, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	return m->base.host.state_get && m->base.host.state_get(m->base.host.ctx, &m->base, key, out, len) == 1;
}

void mx_start_step(void *ctx)
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
		mx_request(m, REQ_LOGIN, "POST", "/_matrix/client/v3/login", mx_json_text(o), MX_SEND_TIMEOUT_MS);
		return;
	}
	mx_request(m, REQ_WHOAMI, "GET", "/_matrix/client/v3/account/whoami", NULL, MX_SEND_TIMEOUT_MS);
}

void mx_upload_filter(matrix *m)
{
	/* Only what the bot reads: messages, memberships, encryption, and the
	 * alias people know a room by. */
	static const char filter[] =
		"{\"presence\":{\"not_types\":[\"*\"]},"
		"\"account_data\":{\"types\":[\"m.direct\"]},"
		"\"room\":{\"timeline\":{\"types\":[\"m.room.message\",\"m.room.encrypted\",\"m.room.member\",\"m.room.encryption\","
		"\"m.room.canonical_alias\",\"m.room.name\",\"m.key.verification.*\"],"
		"\"limit\":50},"
		"\"state\":{\"types\":[\"m.room.member\",\"m.room.encryption\",\"m.room.canonical_alias\","
		"\"m.room.name\"]},"
		"\"ephemeral\":{\"not_types\":[\"*\"]},"
		"\"account_data\":{\"not_types\":[\"*\"]}}}";
	char user[3 * MATRIX_FIELD_MAX], path[4096];
	mx_path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/filter", user);
	mx_request(m, REQ_FILTER, "POST", path, strdup(filter), MX_SEND_TIMEOUT_MS);
}

/* Reads a direct-room map {user: room or [rooms]} into the rooms list. */
void mx_direct_load(matrix *m, json_object *map, int from_server)
{
	if (!map || !json_object_is_type(map, json_type_object))
		return;
	json_object_object_foreach(map, user, v)
	{
		if (!mx_is_user_id(user))
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
		if (!mx_is_room_id(room))
			continue;
		mx_room *r = mx_room_get(m, room);
		if (r && !r->dm_user[0])
			snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
	}
	(void)from_server;
}

void mx_direct_save(matrix *m)
{
	json_object *state = json_object_new_object();
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->dm_user[0] && r->id[0] && !r->gone && mx_dm_find(m, r->dm_user) == r)
			json_object_object_add(state, r->dm_user, json_object_new_string(r->id));
	char *s = mx_json_text(state);
	if (s)
		mx_state_set(m, "direct", s);
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
	mx_path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/m.direct", user);
	m->direct_dirty = 0;
	if (mx_request(m, REQ_DIRECT_PUT, "PUT", path, mx_json_text(ad), MX_SEND_TIMEOUT_MS))
		m->direct_putting = 1;
}

void mx_filter_retry(void *ctx)
{
	matrix *m = ctx;
	m->start_timer = 0;
	if (!m->stopping && !m->fatal)
		mx_upload_filter(m);
}

void mx_after_filter(matrix *m)
{
	char user[3 * MATRIX_FIELD_MAX], path[4096];
	char *buf = malloc(MX_STATE_MAX);
	if (buf && state_get(m, "direct", buf, MX_STATE_MAX)) {
		json_object *o = json_tokener_parse(buf);
		mx_direct_load(m, o, 0);
		json_object_put(o);
	}
	free(buf);
	mx_path_escape(m, m->set.user_id, user, sizeof user);
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/m.direct", user);
	mx_request(m, REQ_DIRECT_GET, "GET", path, NULL, MX_SEND_TIMEOUT_MS);
}

void mx_after_direct(matrix *m)
{
	mx_link_state(m, 1, "");
	state_get(m, "since", m->since, sizeof m->since);
	/* The configured rooms are joined after the first sync, so that what
	 * is said in them from then on comes as news, not as history. */
	mx_sync_now(m);
}

/* ---- for the tests and the fuzzer only (see matrix.h) ---- */

static const char *const req_names[] = {
	[REQ_LOGIN] = "login", [REQ_WHOAMI] = "whoami", [REQ_FILTER] = "filter", [REQ_DIRECT_GET] = "direct_get",
	[REQ_SYNC] = "sync", [REQ_JOIN] = "join", [REQ_LEAVE] = "leave", [REQ_FORGET] = "forget",
	[REQ_SEND] = "send", [REQ_CREATE_DM] = "createRoom", [REQ_DIRECT_PUT] = "direct_put", [REQ_UPLOAD] = "upload",
	[REQ_KEYS_UPLOAD] = "keys_upload", [REQ_KEYS_QUERY] = "keys_query", [REQ_KEYS_CLAIM] = "keys_claim",
	[REQ_TO_DEVICE] = "to_device", [REQ_XSIGN_KEYS] = "xsign_keys", [REQ_XSIGN_SIG] = "xsign_signature",
	[REQ_VERIFY_SEND] = "verify_send",
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
		mx_dispatch(m);
	}
	if (m->sync_timer) {
		loop_cancel(ev, m->sync_timer);
		mx_sync_now(m);
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
			mx_ask_fire(r);
		}
	}
	mx_e2ee_fire_timers(m);
	mx_verify_fire_timers(m);
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
	/* As drive() does, with the bytes arriving as mx_on_body takes them. */
	CURLcode rc = CURLE_OK;
	if (status <= 0)
		rc = CURLE_COULDNT_CONNECT;
	else if (len && mx_on_body((char *)body, 1, len, q) != len)
		rc = CURLE_WRITE_ERROR;
	mx_req_unlink(m, q);
	if (q->h) {
		curl_multi_remove_handle(m->multi, q->h);
		curl_easy_cleanup(q->h);
		q->h = NULL;
	}
	mx_on_done(m, q, rc, status);
	mx_req_free(q);
	return 0;
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
	mx_start_step(m);
	return 0;
}

static void op_send_room(adapter *a, const char *room, const char *text, int flags)
{
	matrix *m = (matrix *)a;
	mx_room *r = room ? mx_room_find(m, room) : NULL;
	if (!r || r->gone || !text) {
		if (room)
			LOG(m, "info", "a line for %s, where the bot is not: dropped", room);
		return;
	}
	mx_enqueue(m, r, text, flags);
}

/* adapter_ops.send: the parts go out as lines of at most MX_PART_LINE
 * bytes (joined with the separator), which the queue then batches into as
 * few events as the homeserver takes; the mention marks each of them. */
#define MX_PART_LINE 380

struct mx_parts {
	matrix *m;
	mx_room *r;
	const adapter_msg *msg;
};

static void part_line(void *ctx, const char *text)
{
	struct mx_parts *p = ctx;
	mx_enqueue_to(p->m, p->r, text, p->msg->flags, p->msg->mention);
}

static mx_room *dm_open(matrix *m, const char *user);

static void op_send(adapter *a, const char *room, const char *user, const adapter_msg *msg)
{
	matrix *m = (matrix *)a;
	mx_room *r = NULL;
	if (room) {
		r = mx_room_find(m, room);
		if (!r || r->gone) {
			LOG(m, "info", "a line for %s, where the bot is not: dropped", room);
			return;
		}
	} else {
		if (!user || !mx_is_user_id(user) || m->fatal || !strcmp(user, m->set.user_id))
			return;
		r = dm_open(m, user);
	}
	if (!r)
		return;
	struct mx_parts p = { m, r, msg };
	pack_parts(msg->parts, msg->nparts, ADAPTER_PART_SEP, MX_PART_LINE, part_line, &p);
}

/* adapter_ops.private_how: private commands go in the direct room (the
 * host says so in the reader's language). */
static int op_private_how(const adapter *a, char *out, size_t len)
{
	(void)a;
	if (len)
		out[0] = '\0';
	return ADAPTER_HOW_DIRECT_ROOM;
}

/* adapter_ops.same_user: a Matrix user id names one account, byte for byte. */
static int op_same_user(const adapter *a, const char *x, const char *y)
{
	(void)a;
	return !strcmp(x, y);
}

/* The direct room with a user, made (and the user invited) if there is
 * none yet; NULL when out of memory. */
static mx_room *dm_open(matrix *m, const char *user)
{
	mx_room *r = mx_dm_find(m, user);
	if (!r) {
		r = mx_room_add(m, "");
		if (!r)
			return NULL;
		snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
		mx_create_dm(m, r);
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
	if (!mx_is_user_id(user) || !text || m->fatal)
		return;
	if (!strcmp(user, m->set.user_id))
		return;
	mx_room *r = dm_open(m, user);
	if (r)
		mx_enqueue(m, r, text, flags);
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
		if (mx_member_find(r, user))
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

/* The room a host asks to name (out emptied first), numbered if it is a
 * table's; NULL when unknown or there is no room to write. */
static mx_room *named_room(const adapter *a, const char *room, char *out, size_t len)
{
	mx_room *r = room ? mx_room_find((matrix *)a, room) : NULL;
	if (len)
		out[0] = '\0';
	if (!r || !len)
		return NULL;
	room_number((matrix *)a, r);
	return r;
}

/* A room as people know it, never its id: the canonical alias, else its
 * name, else "room N" by its short number. */
static int op_room_label(const adapter *a, const char *room, char *out, size_t len)
{
	mx_room *r = named_room(a, room, out, len);
	if (!r)
		return 0;
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
	mx_room *r = named_room(a, room, out, len);
	if (!r || !r->num)
		return 0;
	int n = snprintf(out, len, "%d", r->num);
	return n > 0 && (size_t)n < len;
}

static void op_withdraw(adapter *a, const char *room)
{
	mx_withdraw((matrix *)a, room);
}

static void op_open_private(adapter *a, const char *user)
{
	matrix *m = (matrix *)a;
	if (mx_is_user_id(user) && !m->fatal && !m->stopping && strcmp(user, m->set.user_id))
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

static int op_send_file(adapter *a, const char *user, const adapter_file *af)
{
	matrix *m = (matrix *)a;
	const char *filename = af->filename, *mimetype = af->mimetype, *data = af->data;
	size_t len = af->len;
	if (!mx_is_user_id(user) || !filename || !data || m->fatal || m->stopping || !strcmp(user, m->set.user_id))
		return -1;
	if (len > MX_FILE_MAX || m->file_bytes + len > MX_FILES_BYTES_MAX) {
		LOG(m, "warn", "a file for %s (%zu bytes) is refused: over the limit of %d bytes (%zu bytes waiting)", user,
		    len, MX_FILE_MAX, m->file_bytes);
		return -1;
	}
	char name[256];
	mx_copy_clean(name, sizeof name, filename, 1);
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
	mx_room *r = mx_dm_find(m, user);
	if (!r) {
		r = mx_room_add(m, "");
		if (!r) {
			mx_msg_free(m, msg);
			return -1;
		}
		snprintf(r->dm_user, sizeof r->dm_user, "%s", user);
		mx_create_dm(m, r);
	}
	mx_enqueue_msg(m, r, msg);
	return 0;
}

static void op_join(adapter *a, const char *room, const char *key)
{
	(void)key;
	matrix *m = (matrix *)a;
	if (room && *room && strlen(room) < ADAPTER_ID_MAX)
		mx_join_room(m, room, 0);
}

static void op_part(adapter *a, const char *room, const char *why)
{
	matrix *m = (matrix *)a;
	if (room && mx_room_find(m, room))
		mx_leave_room(m, room, why);
}

static void op_stop(adapter *a, const char *why)
{
	(void)why;
	matrix *m = (matrix *)a;
	m->stopping = 1;
	if (m->sync_req) {
		mx_req_unlink(m, m->sync_req);
		mx_req_free(m->sync_req);
		m->sync_req = NULL;
	}
	if (m->sync_timer)
		loop_cancel(m->base.ev, m->sync_timer);
	if (m->start_timer)
		loop_cancel(m->base.ev, m->start_timer);
	m->sync_timer = m->start_timer = 0;
	mx_link_state(m, 0, "stopping");
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
		mx_req_free(q);
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
		mx_queue_clear(r);
		free(r->members);
		free(r);
	}
	mx_e2ee_free(m);
	curl_multi_cleanup(m->multi);
	curl_global_cleanup();
	free(m);
}

static const adapter_ops matrix_ops = {
	.kind = "matrix", .start = op_start, .send_room = op_send_room, .send_private = op_send_private,
	.send = op_send, .private_how = op_private_how, .same_user = op_same_user, .join = op_join, .part = op_part,
	.stop = op_stop, .self = op_self, .origin = NULL, .send_file = op_send_file,
	.open_private = op_open_private, .tag = op_tag, .room_label = op_room_label, .present = op_present,
	.room_ref = op_room_ref, .withdraw = op_withdraw, .free = op_free,
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
	loop_source src = { .ctx = m, .prepare = mx_src_prepare, .dispatch = mx_src_dispatch };
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
