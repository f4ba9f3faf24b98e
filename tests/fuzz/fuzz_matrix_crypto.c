/* fuzz_matrix_crypto.c: the parsers of adapters/matrix/matrix_crypto.c, end-to-end encryption's side that reads what
 * other devices and the homeserver send: /keys/upload, /keys/query and /keys/claim replies, to-device events
 * and encrypted room events.
 *
 * An input is a script, one line per step (a JSON value on one line; any
 * bytes but the line break):
 *
 *   Ujson   a /keys/upload reply        Qjson   a /keys/query reply
 *   Cjson   a /keys/claim reply         Djson   a to-device event
 *   Ejson   an m.room.encrypted room event in !room:example.org
 *   Fjson   a to-device m.room_key_request, answered if the crypto may
 *           (a session id "*" stands for the room's last one made by S)
 *   S       a share of the room's key to @ann:example.org and
 *           @bob:example.org (claim body, share body, then an encryption)
 *   R       the room's key is renewed   K       the store refuses writes from now on
 *   r       the crypto is freed and loaded again from its store
 *   # ...   a comment
 *
 * Checked beyond "no crash, no sanitizer report, no leak": every value stored is valid
 * UTF-8 within MXC_VALUE_MAX under a key within MXC_KEY_MAX; an event
 * decrypted is an object with a string "type" and an object "content" for
 * the room; bodies the crypto builds parse as JSON objects; the crypto
 * loads again from what it stored (the same identity keys).
 * FUZZ_VERBOSE=1 prints the crypto's log and each step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "matrix_crypto.h"

#define SELF "@cardbot:example.org"
#define ROOM "!room:example.org"
#define SLOTS 512
#define LINES_MAX 64

static int verbose;
static char last_sid[129];      /* the session of S's last encryption */

typedef struct kv {
	char *key[SLOTS], *val[SLOTS];
	int refuse;
} kv;

static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
		if (n < 0)
			return 0;
		for (int i = 1; i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return 0;
		p += n + 1;
	}
	return 1;
}

static int kv_get(void *ctx, const char *key, char *out, size_t len)
{
	kv *s = ctx;
	out[0] = '\0';
	for (int i = 0; i < SLOTS; i++)
		if (s->key[i] && !strcmp(s->key[i], key)) {
			size_t n = strlen(s->val[i]);
			if (n >= len)
				return 0;
			memcpy(out, s->val[i], n + 1);
			return 1;
		}
	return 0;
}

static int kv_set(void *ctx, const char *key, const char *value)
{
	kv *s = ctx;
	FUZZ_ASSERT(key && strlen(key) < MXC_KEY_MAX && utf8_ok(key));
	if (value)
		FUZZ_ASSERT(strlen(value) < MXC_VALUE_MAX && utf8_ok(value));
	if (s->refuse)
		return -1;
	int slot = -1;
	for (int i = 0; i < SLOTS; i++)
		if (s->key[i] && !strcmp(s->key[i], key))
			slot = i;
	for (int i = 0; i < SLOTS && slot < 0 && value; i++)
		if (!s->key[i])
			slot = i;
	if (slot < 0)
		return value ? -1 : 0;
	free(s->key[slot]), free(s->val[slot]);
	s->key[slot] = s->val[slot] = NULL;
	if (value) {
		s->key[slot] = strdup(key);
		s->val[slot] = strdup(value);
	}
	return 0;
}

static void kv_log(void *ctx, const char *level, const char *text)
{
	(void)ctx;
	if (verbose)
		fprintf(stderr, "[%s] %s\n", level, text);
}

/* Notes the session id of an encryption's content (not freed). */
static void note_sid(const char *body)
{
	json_object *o = body ? json_tokener_parse(body) : NULL, *sid;
	if (o && json_object_object_get_ex(o, "session_id", &sid))
		snprintf(last_sid, sizeof last_sid, "%s", json_object_get_string(sid));
	json_object_put(o);
}

static void body_ok(char *body)
{
	if (!body)
		return;
	json_object *o = json_tokener_parse(body);
	FUZZ_ASSERT(o && json_object_is_type(o, json_type_object));
	json_object_put(o);
	free(body);
}

static mx_crypto *load(kv *s, char *ed, size_t len)
{
	mx_crypto_store st = { .ctx = s, .get = kv_get, .set = kv_set, .log = kv_log };
	char err[256];
	mx_crypto *c = mx_crypto_new(SELF, "FUZZDEV", "fuzz-pickle-key-0123456789", &st, err, sizeof err);
	if (c && ed[0])
		FUZZ_ASSERT(!strcmp(ed, mx_crypto_ed25519(c))); /* the same device after a reload */
	if (c && !ed[0])
		snprintf(ed, len, "%s", mx_crypto_ed25519(c));
	return c;
}

static void step(mx_crypto *c, kv *s, char kind, const char *text, size_t n)
{
	json_object *o = NULL;
	if (kind != 'S' && kind != 'R' && kind != 'K') {
		json_tokener *tok = json_tokener_new();
		o = json_tokener_parse_ex(tok, text, (int)n);
		json_tokener_free(tok);
		if (!o)
			return; /* the adapter never hands the crypto what is not JSON */
	}
	static const char *const users[] = { "@ann:example.org", "@bob:example.org" };
	switch (kind) {
	case 'U':
		mx_crypto_upload_done(c, o);
		body_ok(mx_crypto_upload_body(c, 0));
		break;
	case 'Q':
		mx_crypto_query_done(c, o);
		break;
	case 'C':
		mx_crypto_claim_done(c, o);
		break;
	case 'D': {
		char room[256];
		int r = mx_crypto_to_device(c, o, room, sizeof room);
		FUZZ_ASSERT(r == 0 || r == 1);
		FUZZ_ASSERT(memchr(room, '\0', sizeof room) && utf8_ok(room));
		break;
	}
	case 'E': {
		json_object *plain = NULL;
		int r = mx_crypto_decrypt(c, ROOM, o, &plain);
		FUZZ_ASSERT(r == MXC_OK || r == MXC_NO_KEY || r == MXC_BAD || r == MXC_REPLAY);
		if (r == MXC_OK) {
			json_object *t, *ct;
			FUZZ_ASSERT(json_object_object_get_ex(plain, "type", &t) && json_object_is_type(t, json_type_string));
			FUZZ_ASSERT(json_object_object_get_ex(plain, "content", &ct) &&
				    json_object_is_type(ct, json_type_object));
		} else {
			FUZZ_ASSERT(plain == NULL);
		}
		json_object_put(plain);
		break;
	}
	case 'S': {
		int missing = 0;
		body_ok(mx_crypto_claim_body(c, users, 2, 0));
		body_ok(mx_crypto_share_body(c, ROOM, users, 2, 1000, &missing));
		FUZZ_ASSERT(missing >= 0);
		char *enc = mx_crypto_encrypt(c, ROOM, "m.room.message", "{\"msgtype\":\"m.text\",\"body\":\"hi\"}", 1000);
		note_sid(enc);
		body_ok(enc);
		break;
	}
	case 'F': {
		mxc_key_request q;
		if (mx_crypto_key_request(c, o, &q) < 0 || q.cancel)
			break;
		FUZZ_ASSERT(utf8_ok(q.user) && utf8_ok(q.device) && utf8_ok(q.room) && utf8_ok(q.session));
		char *body = NULL;
		int r = mx_crypto_forward_body(c, q.user, q.device, q.room, strcmp(q.session, "*") ? q.session : last_sid,
					       &body);
		FUZZ_ASSERT(r >= MXC_FWD_OK && r <= MXC_FWD_FAILED && (r == MXC_FWD_OK) == (body != NULL));
		body_ok(body);
		break;
	}
	case 'R':
		mx_crypto_room_rotate(c, ROOM);
		break;
	case 'K':
		s->refuse = 1;
		break;
	}
	json_object_put(o);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	kv *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	char ed[128] = "";
	last_sid[0] = '\0';
	mx_crypto *c = load(s, ed, sizeof ed);
	FUZZ_ASSERT(c != NULL);
	int lines = 0;
	for (size_t p = 0; p < size && lines < LINES_MAX;) {
		const char *nl = memchr(in + p, '\n', size - p);
		size_t e = nl ? (size_t)(nl - in) : size;
		if (e > p && in[p] != '#') {
			lines++;
			if (verbose)
				fprintf(stderr, "> %c (%zu bytes)\n", in[p], e - p - 1);
			if (in[p] == 'r') {
				mx_crypto_free(c);
				c = load(s, ed, sizeof ed);
				/* A store that refused writes may lack the newest state,
				 * but what it has must load. */
				FUZZ_ASSERT(c != NULL);
			} else {
				step(c, s, in[p], in + p + 1, e - p - 1);
			}
		}
		p = e + 1;
	}
	mx_crypto_free(c);
	for (int i = 0; i < SLOTS; i++)
		free(s->key[i]), free(s->val[i]);
	free(s);
	return 0;
}
