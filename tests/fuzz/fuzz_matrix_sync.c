/* fuzz_matrix_sync.c: the Matrix adapter's side that reads the homeserver
 * (adapters/matrix*.c): the /sync reply and the replies to login, whoami,
 * the filter, m.direct, joins, leaves, sends, createRoom and uploads, and
 * with encryption on (option e) the key endpoints' replies (/keys/upload,
 * /keys/query, /keys/claim, /sendToDevice, the cross-signing uploads and
 * verification sends: adapters/matrix/matrix_verify.c) and the to-device events
 * (verification requests among them), device
 * lists and one-time key counts of /sync (adapters/matrix/matrix_e2ee.c and the
 * parsers of adapters/matrix/matrix_crypto.c).
 *
 * An input is a script, one line per reply (so a JSON body must be written
 * on one line; any bytes but the line break are fine):
 *
 *   KSSSbody     a reply of kind K with HTTP status SSS (three digits;
 *                000 = the connection failed) and that body, given to
 *                matrix_feed_reply, which answers the oldest request of
 *                that kind the adapter has out (none: the line is skipped)
 *   t            time passes: every timer the adapter set comes due
 *   q            the bot stops the adapter (op_stop)
 *   k            the host's store refuses every write from now on (a full
 *                disk): the crypto's keys and sessions cannot be kept
 *   # ...        a comment
 *   !OPTIONS     (first line only) n: a fresh start (no saved sync token,
 *                so the first sync only learns the rooms); t: log in with
 *                an access token rather than a password; a: accept_invites
 *                off; e: end-to-end encryption on (a new device: its
 *                keys are made and published first)
 *
 * Kinds: l login, w whoami, f filter, g m.direct (GET), s sync, j join,
 * x leave, y forget, m send, c createRoom, p m.direct (PUT), u upload,
 * U /keys/upload, Q /keys/query, C /keys/claim, D /sendToDevice,
 * K /keys/device_signing/upload, S /keys/signatures/upload, V a
 * verification event (to-device or in a room).
 *
 * Before the script the adapter is brought up with good replies (login,
 * whoami, filter, m.direct) up to the first step whose kind the script's
 * first reply line names, so a script starting with a sync reply feeds
 * the first /sync. The host keeps state like the bot's database (a saved
 * sync token, so the first sync is live as after a restart, and a saved
 * direct room), and acts like the bot: it answers every message that is
 * not a notice in the room, in private when the text says "dm" or came in
 * private, sends a file when it says "file", opens a direct room ahead of
 * need on "open", leaves the room on "part", and joins X on "join X" (the
 * bot's own operations, with what the homeserver said). Nothing goes on the
 * network: the requests wait on the curl multi handle, and the loop never
 * runs while the adapter lives. One turn of it after the adapter is freed
 * fires any timer the adapter lost track of (ASan then reports the use
 * after free).
 *
 * Checked beyond "no crash, no sanitizer report, no leak once freed":
 * every string handed to the host is NUL-terminated valid UTF-8 within
 * ADAPTER_ID_MAX (ids, names) or ADAPTER_TEXT_MAX (texts, reasons), with
 * no control character; rooms are room ids ("!..."), users user ids
 * ("@local:server"), printable ASCII; messages arrive only during a sync,
 * never from the bot itself, each from a sender with a text or notice
 * message in that room's timeline in that sync, flagged ADAPTER_NOTICE
 * exactly when all of that sender's messages there are notices.
 * FUZZ_VERBOSE=1 prints what the host is told and keeps the adapter's log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "fuzz.h"
#include "log.h"
#include "loop.h"
#include "matrix.h"

#define SELF "@cardbot:example.org"
#define LINES_MAX 64
#define EVENTS_MAX 2048
#define STATE_SLOTS 256           /* the crypto keeps a value per session and per user */

static int verbose;

/* ---- what a sync said, for the message checks ---- */

typedef struct seen_event {
	char room[ADAPTER_ID_MAX];
	char sender[ADAPTER_ID_MAX];
	int notice;
} seen_event;

typedef struct harness {
	adapter *a;
	int in_sync;                   /* a sync reply is being handled */
	seen_event *events;            /* the text and notice messages of that sync */
	int nevents, delivered;
	char *state_key[STATE_SLOTS], *state_val[STATE_SLOTS];
	int refuse;                    /* state_set fails (script line k) */
} harness;

/* ---- the checks ---- */

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_valid(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		unsigned c = *s;
		size_t n;
		unsigned cp, min;
		if (c < 0x80) {
			s++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3, cp = c & 0x07, min = 0x10000;
		} else {
			return 0;
		}
		for (size_t i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		s += n + 1;
	}
	return 1;
}

/* Terminated within max, valid UTF-8, no control character. */
static void check_text(const char *s, size_t max)
{
	FUZZ_ASSERT(s != NULL);
	FUZZ_ASSERT(memchr(s, '\0', max) != NULL);
	FUZZ_ASSERT(utf8_valid(s));
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
}

static int id_chars(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return 0;
	return 1;
}

static void check_room(const char *room)
{
	check_text(room, ADAPTER_ID_MAX);
	FUZZ_ASSERT(room[0] == '!' && room[1] && id_chars(room));
}

static void check_user(const char *user)
{
	check_text(user, ADAPTER_ID_MAX);
	const char *colon = strchr(user, ':');
	FUZZ_ASSERT(user[0] == '@' && colon && colon > user + 1 && colon[1] && id_chars(user));
	FUZZ_ASSERT(strcmp(user, SELF) != 0); /* the bot never hears of itself as someone */
}

/* ---- the host ---- */

static void on_message(void *ctx, adapter *a, const char *room, const char *user, const char *name, const char *text,
		       int flags)
{
	harness *h = ctx;
	if (room)
		check_room(room);
	check_user(user);
	check_text(name, ADAPTER_ID_MAX);
	check_text(text, ADAPTER_TEXT_MAX);
	if (verbose)
		fprintf(stderr, "message %s %s (%s)%s: %s\n", room ? room : "(private)", user, name,
			flags & ADAPTER_NOTICE ? " notice" : "", text);
	FUZZ_ASSERT(flags == 0 || flags == ADAPTER_NOTICE);
	FUZZ_ASSERT(h->in_sync); /* messages come from syncs only */
	/* Each delivery stands for one message event of that sender there. */
	FUZZ_ASSERT(++h->delivered <= h->nevents || h->nevents == EVENTS_MAX);
	int texts = 0, notices = 0;
	for (int i = 0; i < h->nevents; i++) {
		const seen_event *e = &h->events[i];
		if (strcmp(e->sender, user) || (room && strcmp(e->room, room)))
			continue;
		if (e->notice)
			notices++;
		else
			texts++;
	}
	if (h->nevents < EVENTS_MAX) {
		FUZZ_ASSERT(texts + notices > 0);
		if (!texts)
			FUZZ_ASSERT(flags & ADAPTER_NOTICE);
		if (!notices)
			FUZZ_ASSERT(!(flags & ADAPTER_NOTICE));
	}
	if (flags & ADAPTER_NOTICE)
		return; /* never answered */
	char line[ADAPTER_TEXT_MAX + 16];
	snprintf(line, sizeof line, "you said: %s", text);
	if (room)
		a->ops->send_room(a, room, line, 0);
	if (!room || strstr(text, "dm"))
		a->ops->send_private(a, user, line, ADAPTER_NOTICE);
	if (strstr(text, "file"))
		a->ops->send_file(a, user, &(adapter_file){ .filename = "record.txt", .mimetype = "text/plain",
							     .data = text, .len = strlen(text) });
	if (strstr(text, "open") && a->ops->open_private)
		a->ops->open_private(a, user);
	if (room && strstr(text, "part"))
		a->ops->part(a, room, "asked to");
	if (!strncmp(text, "join ", 5))
		a->ops->join(a, text + 5, NULL);
}

static void on_joined(void *ctx, adapter *a, const char *room, const char *user, const char *name)
{
	(void)ctx, (void)a;
	check_room(room);
	check_user(user);
	check_text(name, ADAPTER_ID_MAX);
	if (verbose)
		fprintf(stderr, "joined %s %s (%s)\n", room, user, name);
}

static void on_left(void *ctx, adapter *a, const char *room, const char *user, const char *why)
{
	(void)ctx, (void)a;
	if (room)
		check_room(room);
	check_user(user);
	check_text(why, ADAPTER_TEXT_MAX);
	if (verbose)
		fprintf(stderr, "left %s %s (%s)\n", room ? room : "(network)", user, why);
}

static void on_renamed(void *ctx, adapter *a, const char *old_user, const char *new_user, const char *new_name)
{
	(void)ctx, (void)a;
	check_user(old_user);
	check_user(new_user);
	check_text(new_name, ADAPTER_ID_MAX);
}

static void on_room_ready(void *ctx, adapter *a, const char *room)
{
	(void)ctx, (void)a;
	check_room(room);
	if (verbose)
		fprintf(stderr, "room ready %s\n", room);
}

static void on_room_lost(void *ctx, adapter *a, const char *room, const char *why)
{
	(void)ctx, (void)a;
	check_room(room);
	check_text(why, ADAPTER_TEXT_MAX);
	if (verbose)
		fprintf(stderr, "room lost %s (%s)\n", room, why);
}

static void on_link(void *ctx, adapter *a, int up, const char *why)
{
	(void)ctx, (void)a;
	FUZZ_ASSERT(up == 0 || up == 1);
	check_text(why, ADAPTER_TEXT_MAX);
	if (verbose)
		fprintf(stderr, "link %s (%s)\n", up ? "up" : "down", why);
}

static int on_state_get(void *ctx, adapter *a, const char *key, char *out, size_t len)
{
	harness *h = ctx;
	(void)a;
	for (int i = 0; i < STATE_SLOTS; i++)
		if (h->state_key[i] && !strcmp(h->state_key[i], key)) {
			if (strlen(h->state_val[i]) >= len)
				return 0;
			memcpy(out, h->state_val[i], strlen(h->state_val[i]) + 1);
			return 1;
		}
	return 0;
}

static int on_state_set(void *ctx, adapter *a, const char *key, const char *value)
{
	harness *h = ctx;
	(void)a;
	check_text(key, 700);
	if (value)
		FUZZ_ASSERT(utf8_valid(value));
	if (h->refuse)
		return -1;
	int slot = -1;
	for (int i = 0; i < STATE_SLOTS; i++)
		if (h->state_key[i] && !strcmp(h->state_key[i], key))
			slot = i;
	for (int i = 0; i < STATE_SLOTS && slot < 0; i++)
		if (!h->state_key[i])
			slot = i;
	if (slot < 0)
		return -1;
	free(h->state_key[slot]);
	free(h->state_val[slot]);
	h->state_key[slot] = h->state_val[slot] = NULL;
	if (value) {
		h->state_key[slot] = strdup(key);
		h->state_val[slot] = strdup(value);
	}
	return 0;
}

/* ---- reading a sync the way a checker would ---- */

static void note_events(harness *h, const char *body, size_t len)
{
	h->nevents = h->delivered = 0;
	json_tokener *tok = json_tokener_new();
	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	json_object *o = json_tokener_parse_ex(tok, body, (int)len);
	json_tokener_free(tok);
	json_object *rooms, *join;
	if (o && json_object_object_get_ex(o, "rooms", &rooms) && json_object_object_get_ex(rooms, "join", &join) &&
	    json_object_is_type(join, json_type_object)) {
		json_object_object_foreach(join, id, room)
		{
			json_object *tl, *events;
			if (!json_object_object_get_ex(room, "timeline", &tl) ||
			    !json_object_object_get_ex(tl, "events", &events) ||
			    !json_object_is_type(events, json_type_array))
				continue;
			for (size_t i = 0; i < json_object_array_length(events); i++) {
				json_object *e = json_object_array_get_idx(events, i), *sender, *content, *type;
				if (!json_object_object_get_ex(e, "sender", &sender) ||
				    !json_object_object_get_ex(e, "content", &content) ||
				    !json_object_object_get_ex(content, "msgtype", &type))
					continue;
				const char *t = json_object_get_string(type);
				if (!t || (strcmp(t, "m.text") && strcmp(t, "m.notice")))
					continue;
				if (h->nevents == EVENTS_MAX)
					break;
				seen_event *se = &h->events[h->nevents++];
				snprintf(se->room, sizeof se->room, "%s", id);
				snprintf(se->sender, sizeof se->sender, "%s", json_object_get_string(sender));
				se->notice = !strcmp(t, "m.notice");
			}
		}
	}
	json_object_put(o);
}

/* ---- the script ---- */

static const struct {
	char letter;
	const char *kind;
} kinds[] = {
	{ 'l', "login" }, { 'w', "whoami" }, { 'f', "filter" }, { 'g', "direct_get" }, { 's', "sync" },
	{ 'j', "join" }, { 'x', "leave" }, { 'y', "forget" }, { 'm', "send" }, { 'c', "createRoom" },
	{ 'p', "direct_put" }, { 'u', "upload" }, { 'U', "keys_upload" }, { 'Q', "keys_query" },
	{ 'C', "keys_claim" }, { 'D', "to_device" }, { 'K', "xsign_keys" }, { 'S', "xsign_signature" },
	{ 'V', "verify_send" },
};

static const char *kind_of(char letter)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].letter == letter)
			return kinds[i].kind;
	return NULL;
}

static void feed(harness *h, const char *kind, long status, const char *body, size_t len)
{
	int sync = !strcmp(kind, "sync");
	if (sync)
		note_events(h, body, len);
	h->in_sync = sync;
	int r = matrix_feed_reply(h->a, kind, status, body, len);
	h->in_sync = 0;
	if (verbose)
		fprintf(stderr, "> %s %ld, %zu bytes%s\n", kind, status, len, r < 0 ? ": no such request out, skipped" : "");
}

/* The good replies that bring the adapter up, in order. */
static const struct {
	char letter;
	const char *body;
} prefix[] = {
	{ 'l', "{\"access_token\":\"tok\",\"device_id\":\"DEV\",\"user_id\":\"" SELF "\"}" },
	{ 'w', "{\"user_id\":\"" SELF "\",\"device_id\":\"DEV\"}" },
	{ 'f', "{\"filter_id\":\"7\"}" },
	{ 'g', "{\"@bob:example.org\":[\"!dm-bob:example.org\"]}" },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (!verbose)
		log_set_level(LOG_ERROR); /* the adapter's info and warnings would flood the output */
	/* Held for the whole run, so each adapter's init and cleanup are cheap. */
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The lines: [start, end) each, without the line break. */
	const char *in = (const char *)data;
	size_t starts[LINES_MAX], ends[LINES_MAX];
	int nlines = 0;
	for (size_t p = 0; p < size && nlines < LINES_MAX;) {
		const char *nl = memchr(in + p, '\n', size - p);
		size_t e = nl ? (size_t)(nl - in) : size;
		if (e > p && in[p] != '#') {
			starts[nlines] = p;
			ends[nlines++] = e;
		}
		p = e + 1;
	}
	int first = 0, fresh = 0, token = 0, no_invites = 0, e2ee = 0;
	if (nlines && in[starts[0]] == '!') {
		for (size_t i = starts[0] + 1; i < ends[0]; i++) {
			fresh |= in[i] == 'n';
			token |= in[i] == 't';
			no_invites |= in[i] == 'a';
			e2ee |= in[i] == 'e';
		}
		first = 1;
	}

	harness h;
	memset(&h, 0, sizeof h);
	h.events = malloc(EVENTS_MAX * sizeof *h.events);
	loop *ev = loop_new();
	if (!h.events || !ev)
		abort();
	if (!fresh)
		on_state_set(&h, NULL, "since", "s_saved");
	on_state_set(&h, NULL, "direct", "{\"@ann:example.org\":\"!dm-ann:example.org\"}");
	adapter_host host = {
		.ctx = &h, .message = on_message, .joined = on_joined, .left = on_left, .renamed = on_renamed,
		.room_ready = on_room_ready, .room_lost = on_room_lost, .link = on_link,
		.state_get = on_state_get, .state_set = on_state_set,
	};
	matrix_settings set;
	matrix_settings_default(&set);
	snprintf(set.homeserver, sizeof set.homeserver, "http://127.0.0.1:9"); /* never contacted */
	snprintf(set.user_id, sizeof set.user_id, SELF);
	if (token)
		snprintf(set.access_token, sizeof set.access_token, "tok");
	else
		snprintf(set.password, sizeof set.password, "secret");
	snprintf(set.rooms[0], sizeof set.rooms[0], "#304:example.org");
	snprintf(set.rooms[1], sizeof set.rooms[1], "!table:example.org");
	set.nrooms = 2;
	set.accept_invites = !no_invites;
	snprintf(set.invite_allow[0], sizeof set.invite_allow[0], "@ann:example.org");
	snprintf(set.invite_allow[1], sizeof set.invite_allow[1], "friends.example");
	set.ninvite_allow = 2;
	if (e2ee) {
		set.encryption = 1;
		snprintf(set.pickle_key, sizeof set.pickle_key, "fuzz-pickle-key-0123456789");
	}
	h.a = matrix_adapter_new(ev, &host, "fuzz", &set);
	if (!h.a)
		abort();
	h.a->ops->start(h.a);

	/* Up to the step the script's first reply names. */
	char k0 = first < nlines ? in[starts[first]] : 0;
	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) {
		if (prefix[i].letter == k0)
			break;
		feed(&h, kind_of(prefix[i].letter), 200, prefix[i].body, strlen(prefix[i].body));
	}

	for (int i = first; i < nlines; i++) {
		const char *l = in + starts[i];
		size_t n = ends[i] - starts[i];
		if (l[0] == 't' && n == 1) {
			if (verbose)
				fprintf(stderr, "> time passes\n");
			matrix_feed_reply(h.a, "timers", 0, NULL, 0);
			continue;
		}
		if (l[0] == 'k' && n == 1) {
			h.refuse = 1;
			continue;
		}
		if (l[0] == 'q' && n == 1) {
			h.a->ops->stop(h.a, "bye");
			continue;
		}
		const char *kind = kind_of(l[0]);
		if (!kind || n < 4)
			continue;
		long status = 0;
		for (int d = 1; d < 4; d++)
			status = status * 10 + (l[d] >= '0' && l[d] <= '9' ? l[d] - '0' : 0);
		feed(&h, kind, status, l + 4, n - 4);
	}

	h.a->ops->free(h.a);
	/* The adapter cancels its timers when freed; one it lost track of (an
	 * id overwritten) would still be due, and fire on freed memory here.
	 * Its source is gone, so this turn of the loop touches no network. */
	loop_once(ev, 0);
	loop_free(ev);
	for (int i = 0; i < STATE_SLOTS; i++)
		free(h.state_key[i]), free(h.state_val[i]);
	free(h.events);
	return 0;
}
