/* bot_crypto.c: end-to-end encryption (adapters/matrix/matrix_crypto.c) between two in-process devices, with
 * in-memory stores: keys, trust on first use, Olm and Megolm, rotation, persistence, replay, bad input, key
 * requests (answered to a device made with libolm alone); and
 * a cross-check against python3-olm (tests/unit/bot/olm_peer.py) when Debian's /usr/bin/python3 has it. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <olm/olm.h>
#include "check.h"
#include "matrix_crypto.h"
#include "matrix_crypto_int.h"

#define ALICE "@alice:example.org"
#define BOB "@bob:example.org"
#define CAROL "@carol:example.org"
#define DAVE "@dave:example.org"
#define ROOM "!room:example.org"
#define KEY_A "alice's pickle key, long enough"
#define KEY_B "bob's pickle key, also long enough"

#include "memstore.h"

static mx_crypto *open_dev(const char *user, const char *dev, const char *pk, mem *m)
{
	char err[256];
	mx_crypto_store st = store_of(m);
	mx_crypto *c = mx_crypto_new(user, dev, pk, &st, err, sizeof err);
	CHECK(c != NULL, "mx_crypto_new %s %s: %s", user, dev, err);
	return c;
}

/* ---- JSON helpers ---- */

static json_object *parse(const char *s)
{
	return s ? json_tokener_parse(s) : NULL;
}

static json_object *path(json_object *o, const char *a, const char *b, const char *c)
{
	const char *keys[3] = { a, b, c };
	for (int i = 0; i < 3 && keys[i] && o; i++)
		if (!json_object_object_get_ex(o, keys[i], &o))
			return NULL;
	return o;
}

static const char *str_at(json_object *o, const char *a, const char *b, const char *c)
{
	json_object *v = path(o, a, b, c);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Canonical JSON of a JSON text ("" when refused, "?" when unparsable). */
static char canon_out[4096];
static const char *canon(const char *text)
{
	json_object *o = json_tokener_parse(text);
	char *s = o ? mx_canonical_json(o) : NULL;
	snprintf(canon_out, sizeof canon_out, "%s", !o ? "?" : s ? s : "");
	free(s);
	json_object_put(o);
	return canon_out;
}

/* Whether o is signed by user's device with the ed25519 key, checked by libolm directly. */
static int verify_sig(json_object *o, const char *user, const char *dev, const char *ed)
{
	char kid[300];
	snprintf(kid, sizeof kid, "ed25519:%s", dev);
	const char *sig = str_at(o, "signatures", user, kid);
	json_object *copy = json_object_new_object();
	json_object_object_foreach(o, k, v) {
		if (strcmp(k, "signatures") && strcmp(k, "unsigned"))
			json_object_object_add(copy, k, json_object_get(v));
	}
	char *text = mx_canonical_json(copy), *s = sig ? strdup(sig) : NULL;
	void *um = malloc(olm_utility_size());
	OlmUtility *u = olm_utility(um);
	int ok = text && s && olm_ed25519_verify(u, ed, strlen(ed), text, strlen(text), s, strlen(s)) != olm_error();
	olm_clear_utility(u);
	free(um);
	free(text);
	free(s);
	json_object_put(copy);
	return ok;
}

/* {"device_keys": {user: {dev: keys}}, "failures": {}} */
static json_object *query_reply(const char *user, const char *dev, json_object *keys)
{
	json_object *r = json_object_new_object(), *dk = json_object_new_object(), *u = json_object_new_object();
	json_object_object_add(u, dev, json_object_get(keys));
	json_object_object_add(dk, user, u);
	json_object_object_add(r, "device_keys", dk);
	json_object_object_add(r, "failures", json_object_new_object());
	return r;
}

/* A claim reply with the first of otks (the "one_time_keys" of an upload). */
static json_object *claim_reply(const char *user, const char *dev, json_object *otks)
{
	json_object *r = json_object_new_object(), *all = json_object_new_object(), *u = json_object_new_object();
	json_object *d = json_object_new_object();
	if (otks) {
		json_object_object_foreach(otks, kid, k) {
			json_object_object_add(d, kid, json_object_get(k));
			break;
		}
	}
	json_object_object_add(u, dev, d);
	json_object_object_add(all, user, u);
	json_object_object_add(r, "one_time_keys", all);
	json_object_object_add(r, "failures", json_object_new_object());
	return r;
}

static json_object *to_device_event(const char *sender, json_object *content)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "type", json_object_new_string("m.room.encrypted"));
	json_object_object_add(e, "sender", json_object_new_string(sender));
	json_object_object_add(e, "content", json_object_get(content));
	return e;
}

static json_object *room_event(const char *sender, const char *content, const char *event_id)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "type", json_object_new_string("m.room.encrypted"));
	json_object_object_add(e, "sender", json_object_new_string(sender));
	json_object_object_add(e, "content", parse(content));
	json_object_object_add(e, "event_id", json_object_new_string(event_id));
	return e;
}

/* Delivers a share body's message for (user, dev) to c: what mx_crypto_to_device returned (-1: none there). */
static int deliver(mx_crypto *c, const char *body, const char *from, const char *user, const char *dev, char *room,
		   size_t rlen)
{
	json_object *b = parse(body), *content = path(b, "messages", user, dev);
	int rc = -1;
	if (content) {
		json_object *e = to_device_event(from, content);
		rc = mx_crypto_to_device(c, e, room, rlen);
		json_object_put(e);
	}
	json_object_put(b);
	return rc;
}

/* Encrypts a message at a and decrypts it at b: the result, with the body checked. */
static int round_trip(mx_crypto *a, mx_crypto *b, const char *room, const char *text, const char *event_id,
		      int64_t now)
{
	char content[512];
	snprintf(content, sizeof content, "{\"msgtype\":\"m.text\",\"body\":\"%s\"}", text);
	char *enc = mx_crypto_encrypt(a, room, "m.room.message", content, now);
	if (!enc)
		return -1;
	json_object *ev = room_event(ALICE, enc, event_id), *plain = NULL;
	int rc = mx_crypto_decrypt(b, room, ev, &plain);
	if (rc == MXC_OK) {
		const char *got = str_at(plain, "content", "body", NULL), *type = str_at(plain, "type", NULL, NULL);
		CHECK(got && !strcmp(got, text), "decrypted body: want %s, got %s", text, got ? got : "(none)");
		CHECK(type && !strcmp(type, "m.room.message"), "decrypted type");
	}
	json_object_put(plain);
	json_object_put(ev);
	free(enc);
	return rc;
}

/* The session id of a share body's room key as seen in an encrypt's content. */
static void session_of(mx_crypto *a, const char *room, int64_t now, char *out, size_t len)
{
	char *enc = mx_crypto_encrypt(a, room, "m.room.message", "{}", now);
	json_object *o = parse(enc);
	const char *s = str_at(o, "session_id", NULL, NULL);
	snprintf(out, len, "%s", s ? s : "");
	json_object_put(o);
	free(enc);
}

/* ---- canonical JSON ---- */

static void test_canonical(void)
{
	CHECK(!strcmp(canon("{\"b\":1,\"a\":{\"d\":[1,2,{\"z\":null,\"y\":true}],\"c\":false}}"),
		      "{\"a\":{\"c\":false,\"d\":[1,2,{\"y\":true,\"z\":null}]},\"b\":1}"), "sorted, nested: %s",
	      canon_out);
	CHECK(!strcmp(canon("{ \"one\" : 1 ,\n \"two\" : \"Two\" }"), "{\"one\":1,\"two\":\"Two\"}"),
	      "no whitespace: %s", canon_out);
	CHECK(!strcmp(canon("{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\"}"),
		      "{\"a\":\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\"}"), "escapes: %s", canon_out);
	CHECK(!strcmp(canon("{\"a\":\"\\u65e5\\u672c\\u8a9e\",\"\\u00e9\":\"\\ud83d\\ude00\"}"),
		      "{\"a\":\"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\",\"\xc3\xa9\":\"\xf0\x9f\x98\x80\"}"),
	      "unicode raw: %s", canon_out);
	/* Code-point order: "B" < "a" < "é" < "日". */
	CHECK(!strcmp(canon("{\"\\u65e5\":1,\"\\u00e9\":2,\"a\":3,\"B\":4}"),
		      "{\"B\":4,\"a\":3,\"\xc3\xa9\":2,\"\xe6\x97\xa5\":1}"), "code point order: %s", canon_out);
	CHECK(!strcmp(canon("{\"n\":-9007199254740991,\"m\":0}"), "{\"m\":0,\"n\":-9007199254740991}"), "ints: %s",
	      canon_out);
	CHECK(!strcmp(canon("{\"f\":1.5}"), ""), "a float is refused");
	CHECK(!strcmp(canon("{\"a\":[{\"f\":1e3}]}"), ""), "a nested float is refused");
	CHECK(!strcmp(canon("{\"big\":9007199254740993}"), ""), "an integer out of range is refused");
	CHECK(!strcmp(canon("[]"), "[]") && !strcmp(canon("{}"), "{}") && !strcmp(canon("\"x\""), "\"x\""),
	      "small values");
	json_object *deep = json_object_new_array();
	for (int i = 0; i < 100; i++) {
		json_object *outer = json_object_new_array();
		json_object_array_add(outer, deep);
		deep = outer;
	}
	char *d = mx_canonical_json(deep);
	CHECK(d == NULL, "too deep is refused");
	free(d);
	json_object_put(deep);
	char *n = mx_canonical_json(NULL);
	CHECK(n && !strcmp(n, "null"), "null");
	free(n);
}

/* ---- two devices ---- */

typedef struct world {
	mem sa, sb;
	mx_crypto *a, *b;
	json_object *a_up, *b_up;  /* the first upload bodies */
	int64_t now;
} world;

static json_object *first_upload(mx_crypto *c, const char *user, const char *dev)
{
	char *body = mx_crypto_upload_body(c, -1);
	json_object *up = parse(body);
	free(body);
	json_object *dk = path(up, "device_keys", NULL, NULL), *otks = path(up, "one_time_keys", NULL, NULL);
	char kid[300];
	snprintf(kid, sizeof kid, "ed25519:%s", dev);
	const char *ed = str_at(dk, "keys", kid, NULL);
	CHECK(dk && ed && !strcmp(ed, mx_crypto_ed25519(c)), "upload: device keys of %s", user);
	CHECK(dk && verify_sig(dk, user, dev, ed), "upload: the device keys' signature verifies");
	CHECK(otks && json_object_object_length(otks) == 50, "upload: 50 one-time keys, got %d",
	      otks ? json_object_object_length(otks) : -1);
	int good = 0;
	if (otks) {
		json_object_object_foreach(otks, k, v) {
			good += !strncmp(k, "signed_curve25519:", 18) && verify_sig(v, user, dev, ed);
		}
	}
	CHECK(good == 50, "upload: every one-time key signed (%d)", good);
	/* A retry before the reply (say, after a crash) sends the same keys. */
	char *again = mx_crypto_upload_body(c, -1);
	json_object *up2 = parse(again);
	CHECK(up2 && json_object_equal(path(up2, "one_time_keys", NULL, NULL), otks),
	      "upload: a retry sends the same keys");
	json_object_put(up2);
	free(again);
	json_object *reply = parse("{\"one_time_key_counts\":{\"signed_curve25519\":50}}");
	CHECK(mx_crypto_upload_done(c, reply) == 50, "upload_done reads the count");
	json_object_put(reply);
	char *none = mx_crypto_upload_body(c, 50);
	CHECK(none == NULL, "nothing due at 50");
	free(none);
	none = mx_crypto_upload_body(c, -1);
	CHECK(none == NULL, "nothing due when published and the count is unknown");
	free(none);
	return up;
}

/* A fallback key (issue 28): published signed with the first keys, it opens
 * a session once the one-time keys are gone; when the server says it was
 * used, a new one is made once and goes up. */
static void test_fallback(world *w)
{
	json_object *fb = path(w->a_up, "fallback_keys", NULL, NULL), *k = NULL;
	const char *kid = NULL;
	if (fb) {
		json_object_object_foreach(fb, id, v) {
			kid = id;
			k = v;
			break;
		}
	}
	json_object *flag = k ? path(k, "fallback", NULL, NULL) : NULL;
	CHECK(fb && json_object_object_length(fb) == 1 && kid && !strncmp(kid, "signed_curve25519:", 18) && flag
	      && json_object_get_boolean(flag) && verify_sig(k, ALICE, "ALICEBOT", mx_crypto_ed25519(w->a)),
	      "the first upload has one signed fallback key, marked so");
	mem sm = { 0 };
	mx_crypto *c = open_dev("@fay:example.org", "FAYDEV", "fay's pickle key", &sm);
	json_object *q = query_reply(ALICE, "ALICEBOT", path(w->a_up, "device_keys", NULL, NULL));
	CHECK(c && mx_crypto_query_done(c, q) == 1, "fay knows alice");
	json_object_put(q);
	json_object *one = json_object_new_object();
	if (kid)
		json_object_object_add(one, kid, json_object_get(k));
	json_object *cr = claim_reply(ALICE, "ALICEBOT", one);
	CHECK(c && mx_crypto_claim_done(c, cr) == 1, "a session with alice from her fallback key");
	json_object_put(cr);
	json_object_put(one);
	const char *users[] = { ALICE };
	int missing = -1;
	char room[256] = "";
	char *body = c ? mx_crypto_share_body(c, "!fay:example.org", users, 1, w->now, &missing) : NULL;
	CHECK(body && deliver(w->a, body, "@fay:example.org", ALICE, "ALICEBOT", room, sizeof room) == 1
	      && !strcmp(room, "!fay:example.org"), "alice reads a room key sent over her fallback key");
	free(body);
	CHECK(mx_crypto_fallback_used(w->a) == 1, "the server says it was used: a new one is made");
	CHECK(mx_crypto_fallback_used(w->a) == 0, "...once, while it waits to go up");
	body = mx_crypto_upload_body(w->a, 50);
	json_object *up = parse(body), *nfb = path(up, "fallback_keys", NULL, NULL);
	CHECK(nfb && json_object_object_length(nfb) == 1 && kid && !path(nfb, kid, NULL, NULL)
	      && json_object_object_length(path(up, "one_time_keys", NULL, NULL)) == 0,
	      "the next upload has the new fallback key alone: %s", body ? body : "(none)");
	json_object_put(up);
	free(body);
	json_object *reply = parse("{\"one_time_key_counts\":{\"signed_curve25519\":50}}");
	mx_crypto_upload_done(w->a, reply);
	json_object_put(reply);
	body = mx_crypto_upload_body(w->a, 50);
	CHECK(body == NULL, "nothing due once it is up");
	free(body);
	mx_crypto_free(c);
	mem_free(&sm);
}

static void test_keys(world *w)
{
	w->a = open_dev(ALICE, "ALICEBOT", KEY_A, &w->sa);
	w->b = open_dev(BOB, "BOBDEV", KEY_B, &w->sb);
	if (!w->a || !w->b)
		exit(check_report("bot_crypto"));
	CHECK(strlen(mx_crypto_curve25519(w->a)) == 43 && strlen(mx_crypto_ed25519(w->a)) == 43, "identity keys");
	char fp[80];
	mx_crypto_fingerprint(w->a, fp, sizeof fp);
	CHECK(strlen(fp) == 43 + 10 && fp[4] == ' ' && !strncmp(fp, mx_crypto_ed25519(w->a), 4), "fingerprint %s", fp);
	mx_crypto_fingerprint(w->a, fp, 7);
	CHECK(strlen(fp) == 4, "a short fingerprint buffer: whole groups only, %s", fp);
	w->a_up = first_upload(w->a, ALICE, "ALICEBOT");
	w->b_up = first_upload(w->b, BOB, "BOBDEV");

	/* Top up: 10 left on the server, 40 new keys (no device keys again). */
	char *body = mx_crypto_upload_body(w->b, 10);
	json_object *up = parse(body);
	json_object *otks = path(up, "one_time_keys", NULL, NULL);
	CHECK(up && !path(up, "device_keys", NULL, NULL) && otks && json_object_object_length(otks) == 40,
	      "top-up to 50");
	json_object_put(up);
	free(body);
	json_object *reply = parse("{\"one_time_key_counts\":{}}");
	CHECK(mx_crypto_upload_done(w->b, reply) == 0, "no count means none");
	json_object_put(reply);

	/* Each learns the other's device from a query. */
	json_object *q = query_reply(BOB, "BOBDEV", path(w->b_up, "device_keys", NULL, NULL));
	CHECK(!mx_crypto_user_known(w->a, BOB), "bob unknown before the query");
	CHECK(mx_crypto_query_done(w->a, q) == 1, "alice reads bob's query");
	json_object_put(q);
	char ids[4][256];
	CHECK(mx_crypto_devices(w->a, BOB, ids, 4) == 1 && !strcmp(ids[0], "BOBDEV"), "alice knows BOBDEV");
	CHECK(mx_crypto_user_known(w->a, BOB), "bob known");
	q = query_reply(ALICE, "ALICEBOT", path(w->a_up, "device_keys", NULL, NULL));
	CHECK(mx_crypto_query_done(w->b, q) == 1, "bob reads alice's query");
	CHECK(mx_crypto_query_done(w->a, q) == 1 && mx_crypto_devices(w->a, ALICE, ids, 4) == 0, "alice skips herself");
	json_object_put(q);

	/* Claim: alice has no session with bob yet. A claim that brings no key
	 * backs bob's device off (on its own: issue 28), a failed one does not. */
	const char *users[] = { BOB };
	json_object *none = parse("{\"one_time_keys\":{}}");
	body = mx_crypto_claim_body(w->a, users, 1, 1000);
	CHECK(body != NULL && mx_crypto_claim_done(w->a, none) == 0, "a claim without a key makes no session");
	free(body);
	body = mx_crypto_claim_body(w->a, users, 1, 1000 + MXC_CLAIM_WAIT_MS - 1);
	CHECK(body == NULL, "a device that had no key is not asked again before MXC_CLAIM_WAIT_MS");
	free(body);
	body = mx_crypto_claim_body(w->a, users, 1, 1000 + MXC_CLAIM_WAIT_MS);
	CHECK(body != NULL, "...and is asked again then");
	free(body);
	CHECK(mx_crypto_claim_done(w->a, none) == 0, "no key again");
	body = mx_crypto_claim_body(w->a, users, 1, 1000 + 3 * MXC_CLAIM_WAIT_MS - 1);
	CHECK(body == NULL, "the second wait is twice as long");
	free(body);
	body = mx_crypto_claim_body(w->a, users, 1, 1000 + 3 * MXC_CLAIM_WAIT_MS);
	CHECK(body != NULL, "...and then it is asked");
	free(body);
	mx_crypto_claim_failed(w->a);
	body = mx_crypto_claim_body(w->a, users, 1, 1000 + 3 * MXC_CLAIM_WAIT_MS + 1);
	CHECK(body != NULL, "a claim that failed does not count: asked again at once");
	free(body);
	json_object_put(none);
	mx_crypto_claim_failed(w->a);
	body = mx_crypto_claim_body(w->a, users, 1, 0);
	json_object *cb = parse(body);
	const char *alg = str_at(cb, "one_time_keys", BOB, "BOBDEV");
	CHECK(alg && !strcmp(alg, "signed_curve25519") && path(cb, "timeout", NULL, NULL), "claim body: %s", body);
	json_object_put(cb);
	free(body);
	json_object *cr = claim_reply(BOB, "BOBDEV", path(w->b_up, "one_time_keys", NULL, NULL));
	CHECK(mx_crypto_claim_done(w->a, cr) == 1, "one Olm session made");
	json_object_put(cr);
	body = mx_crypto_claim_body(w->a, users, 1, 0);
	CHECK(body == NULL, "nothing to claim now");
	free(body);
}

/* Shares alice's room session with bob and checks bob reads it: the share body's result at bob. */
static int share_to_bob(world *w, const char *room)
{
	const char *users[] = { BOB };
	int missing = -1;
	char got[256] = "x";
	char *body = mx_crypto_share_body(w->a, room, users, 1, w->now, &missing);
	CHECK(body != NULL && missing == 0, "share body for bob in %s (missing %d)", room, missing);
	int rc = body ? deliver(w->b, body, ALICE, BOB, "BOBDEV", got, sizeof got) : -1;
	CHECK(rc == 1 && !strcmp(got, room), "bob takes the room key of %s (%d, %s)", room, rc, got);
	free(body);
	return rc;
}

static void test_messages(world *w)
{
	const char *users[] = { BOB };
	int missing = -1;
	char *enc = mx_crypto_encrypt(w->a, ROOM, "m.room.message", "{\"body\":\"x\"}", w->now);
	CHECK(enc == NULL, "no encrypt before a share");
	free(enc);
	share_to_bob(w, ROOM);
	char *again = mx_crypto_share_body(w->a, ROOM, users, 1, w->now, &missing);
	CHECK(again == NULL && missing == 0, "bob has the key: nothing to share");
	free(again);
	CHECK(round_trip(w->a, w->b, ROOM, "hello bob", "$e1", w->now) == MXC_OK, "bob decrypts alice's message");
	CHECK(round_trip(w->a, w->b, ROOM, "caf\xc3\xa9 \xe6\x97\xa5", "$e2", w->now) == MXC_OK, "and a second one");

	/* Replay, tampering, unknown session, wrong room. */
	enc = mx_crypto_encrypt(w->a, ROOM, "m.room.message", "{\"body\":\"third\"}", w->now);
	json_object *ev = room_event(ALICE, enc, "$e3"), *plain = NULL;
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_OK, "third decrypts");
	json_object_put(plain);
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_OK, "the same event again is no replay");
	json_object_put(plain);
	json_object_object_add(ev, "event_id", json_object_new_string("$other"));
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_REPLAY && !plain,
	      "the same index in another event: replay");
	json_object_put(ev);

	json_object *c = parse(enc);
	char *ct = strdup(str_at(c, "ciphertext", NULL, NULL));
	ct[20] = ct[20] == 'A' ? 'B' : 'A';
	json_object_object_add(c, "ciphertext", json_object_new_string(ct));
	ev = room_event(ALICE, json_object_to_json_string(c), "$t1");
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_BAD, "a tampered ciphertext is bad");
	json_object_put(ev);
	free(ct);
	json_object_put(c);

	c = parse(enc);
	json_object_object_add(c, "session_id", json_object_new_string("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
	ev = room_event(ALICE, json_object_to_json_string(c), "$u1");
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_NO_KEY, "an unknown session: no key");
	json_object_put(ev);
	json_object_put(c);

	ev = room_event(ALICE, enc, "$w1");
	json_object_object_add(ev, "room_id", json_object_new_string("!elsewhere:example.org"));
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_BAD, "an event of another room is bad");
	json_object_put(ev);
	/* The same session under another room's name (a forged key share): the plaintext's room decides. */
	c = parse(enc);
	char from[700], to[700];
	const char *sid = str_at(c, "session_id", NULL, NULL);
	snprintf(from, sizeof from, "e2ee.in.%s|%s|%s", ROOM, mx_crypto_curve25519(w->a), sid);
	snprintf(to, sizeof to, "e2ee.in.!forged:example.org|%s|%s", mx_crypto_curve25519(w->a), sid);
	CHECK(mem_value(&w->sb, from) != NULL, "bob keeps the session under %s", from);
	mem_set(&w->sb, to, mem_value(&w->sb, from));
	ev = room_event(ALICE, enc, "$w2");
	CHECK(mx_crypto_decrypt(w->b, "!forged:example.org", ev, &plain) == MXC_BAD && !plain, "wrong room: bad");
	/* Someone else's event under alice's session. */
	json_object_object_add(ev, "sender", json_object_new_string("@mallory:example.org"));
	json_object_object_add(ev, "event_id", json_object_new_string("$m1"));
	CHECK(mx_crypto_decrypt(w->b, ROOM, ev, &plain) == MXC_BAD, "another sender under alice's session: bad");
	json_object_put(ev);
	json_object_put(c);
	free(enc);
}

static void test_tofu(world *w)
{
	mem s1 = { 0 }, s2 = { 0 };
	mx_crypto *c1 = open_dev(CAROL, "CAROLDEV", "carol's pickle key 1234", &s1);
	mx_crypto *c2 = open_dev(CAROL, "CAROLDEV", "carol's pickle key 1234", &s2);
	char *b1 = mx_crypto_upload_body(c1, -1), *b2 = mx_crypto_upload_body(c2, -1);
	json_object *u1 = parse(b1), *u2 = parse(b2);
	json_object *q1 = query_reply(CAROL, "CAROLDEV", path(u1, "device_keys", NULL, NULL));
	json_object *q2 = query_reply(CAROL, "CAROLDEV", path(u2, "device_keys", NULL, NULL));
	char ids[2][256];
	CHECK(mx_crypto_query_done(w->a, q1) == 1 && mx_crypto_devices(w->a, CAROL, ids, 2) == 1,
	      "carol's device kept");
	int warns = w->sa.warns;
	CHECK(mx_crypto_query_done(w->a, q2) == 1, "the second query is read");
	CHECK(mx_crypto_devices(w->a, CAROL, ids, 2) == 0, "the device with changed keys is refused");
	CHECK(w->sa.warns == warns + 1, "refusal logged as a warning");
	CHECK(mx_crypto_query_done(w->a, q1) == 1 && mx_crypto_devices(w->a, CAROL, ids, 2) == 0,
	      "refused for good, even with the first keys again");
	const char *users[] = { CAROL };
	char *body = mx_crypto_claim_body(w->a, users, 1, 0);
	CHECK(body == NULL, "no claim for a refused device");
	free(body);
	json_object *cr = claim_reply(CAROL, "CAROLDEV", path(u2, "one_time_keys", NULL, NULL));
	CHECK(mx_crypto_claim_done(w->a, cr) == 0, "no session with a refused device");
	json_object_put(cr);
	int missing = -1;
	body = mx_crypto_share_body(w->a, ROOM, users, 1, w->now, &missing);
	CHECK(body == NULL && missing == 0, "no share to a refused device");
	free(body);

	/* A bad self-signature, a wrong device id, and missing algorithms are not kept. */
	json_object *dk = json_object_get(path(u1, "device_keys", NULL, NULL));
	json_object *q3 = query_reply("@dan:example.org", "CAROLDEV", dk);
	CHECK(mx_crypto_query_done(w->a, q3) == 1 && mx_crypto_devices(w->a, "@dan:example.org", ids, 2) == 0,
	      "keys under another user are not kept");
	json_object_put(q3);
	json_object_object_add(dk, "algorithms", json_object_new_array());
	q3 = query_reply("@erin:example.org", "CAROLDEV", dk);
	CHECK(mx_crypto_query_done(w->a, q3) == 1 && mx_crypto_devices(w->a, "@erin:example.org", ids, 2) == 0,
	      "keys without algorithms (and so a bad signature) are not kept");
	json_object_put(q3);
	json_object_put(dk);

	/* A device no longer listed is forgotten (bob's list keeps BOBDEV). */
	json_object *q4 = parse("{\"device_keys\":{\"" CAROL "\":{}},\"failures\":{}}");
	CHECK(mx_crypto_query_done(w->a, q4) == 1 && mx_crypto_devices(w->a, CAROL, ids, 2) == 0, "an empty list");
	json_object_put(q4);
	json_object *qb = query_reply(BOB, "BOBDEV", path(w->b_up, "device_keys", NULL, NULL));
	CHECK(mx_crypto_query_done(w->a, qb) == 1 && mx_crypto_devices(w->a, BOB, ids, 2) == 1,
	      "bob again: same keys, kept");
	json_object_put(qb);

	json_object_put(q1);
	json_object_put(q2);
	json_object_put(u1);
	json_object_put(u2);
	free(b1);
	free(b2);
	mx_crypto_free(c1);
	mx_crypto_free(c2);
	mem_free(&s1);
	mem_free(&s2);
}

static void test_rotation(world *w)
{
	const char *room = "!rot:example.org", *users[] = { BOB };
	char s1[128], s2[128], s3[128];
	int missing;
	mx_crypto_room_settings(w->a, room, 3, 0);
	share_to_bob(w, room);
	CHECK(round_trip(w->a, w->b, room, "one", "$r1", w->now) == MXC_OK, "rotation room: one");
	CHECK(round_trip(w->a, w->b, room, "two", "$r2", w->now) == MXC_OK, "two");
	session_of(w->a, room, w->now, s1, sizeof s1);
	CHECK(*s1, "three");
	char *enc = mx_crypto_encrypt(w->a, room, "m.room.message", "{}", w->now);
	CHECK(enc == NULL, "the fourth message waits for a new session");
	free(enc);
	share_to_bob(w, room);
	CHECK(round_trip(w->a, w->b, room, "four", "$r4", w->now) == MXC_OK, "four, under a new session");
	session_of(w->a, room, w->now, s2, sizeof s2);
	CHECK(*s2 && strcmp(s1, s2), "a new session id after 3 messages");

	/* By age: the room says an hour. */
	mx_crypto_room_settings(w->a, room, 0, 3600 * 1000);
	enc = mx_crypto_encrypt(w->a, room, "m.room.message", "{}", w->now + 3600 * 1000);
	CHECK(enc == NULL, "an hour later the session is due");
	free(enc);

	/* On demand. */
	mx_crypto_room_rotate(w->a, room);
	enc = mx_crypto_encrypt(w->a, room, "m.room.message", "{}", w->now);
	CHECK(enc == NULL, "no session after a rotate");
	free(enc);
	share_to_bob(w, room);
	session_of(w->a, room, w->now, s3, sizeof s3);
	CHECK(*s3 && strcmp(s3, s2), "a new session id after a rotate");

	/* A failed send gives the devices back. */
	mx_crypto_room_rotate(w->a, room);
	char *body = mx_crypto_share_body(w->a, room, users, 1, w->now, &missing);
	CHECK(body != NULL, "share after rotate");
	char *none = mx_crypto_share_body(w->a, room, users, 1, w->now, &missing);
	CHECK(none == NULL, "nothing more to share");
	free(none);
	mx_crypto_share_failed(w->a, room);
	char *again = mx_crypto_share_body(w->a, room, users, 1, w->now, &missing);
	CHECK(again != NULL, "after share_failed bob is due again");
	char got[256];
	CHECK(again && deliver(w->b, again, ALICE, BOB, "BOBDEV", got, sizeof got) == 1, "the second body is read");
	CHECK(deliver(w->b, body, ALICE, BOB, "BOBDEV", got, sizeof got) == 0, "the first one late: a key bob has");
	CHECK(round_trip(w->a, w->b, room, "five", "$r5", w->now) == MXC_OK, "five");
	free(body);
	free(again);
}

static void test_persistence(world *w)
{
	char err[256];
	mx_crypto_free(w->a);
	mx_crypto_free(w->b);
	w->a = open_dev(ALICE, "ALICEBOT", KEY_A, &w->sa);
	w->b = open_dev(BOB, "BOBDEV", KEY_B, &w->sb);
	if (!w->a || !w->b)
		exit(check_report("bot_crypto"));
	json_object *dk = path(w->a_up, "device_keys", NULL, NULL);
	CHECK(!strcmp(str_at(dk, "keys", "ed25519:ALICEBOT", NULL), mx_crypto_ed25519(w->a)), "the same account again");
	char *up = mx_crypto_upload_body(w->a, 50);
	CHECK(up == NULL, "published stays published");
	free(up);
	CHECK(round_trip(w->a, w->b, ROOM, "after restart", "$p1", w->now) == MXC_OK, "the room session goes on");
	mx_crypto_room_rotate(w->a, ROOM);
	share_to_bob(w, ROOM);
	CHECK(round_trip(w->a, w->b, ROOM, "new session after restart", "$p2", w->now) == MXC_OK,
	      "a new share decrypts");

	/* Bob answers over the same Olm session (a normal message, not a pre-key one). */
	const char *alice[] = { ALICE };
	int missing = -1;
	char got[256] = "";
	char *body = mx_crypto_share_body(w->b, ROOM, alice, 1, w->now, &missing);
	json_object *b = parse(body);
	json_object *t = path(b, "messages", ALICE, "ALICEBOT");
	t = t ? path(t, "ciphertext", mx_crypto_curve25519(w->a), "type") : NULL;
	CHECK(t && json_object_get_int(t) == 1, "bob's reply is a normal Olm message");
	json_object_put(b);
	CHECK(body && deliver(w->a, body, BOB, ALICE, "ALICEBOT", got, sizeof got) == 1, "alice takes bob's room key");
	free(body);
	char *enc = mx_crypto_encrypt(w->b, ROOM, "m.room.message", "{\"body\":\"from bob\"}", w->now);
	json_object *ev = room_event(BOB, enc, "$b1"), *plain = NULL;
	CHECK(mx_crypto_decrypt(w->a, ROOM, ev, &plain) == MXC_OK, "alice decrypts bob");
	const char *pb = str_at(plain, "content", "body", NULL);
	CHECK(pb && !strcmp(pb, "from bob"), "bob's words");
	json_object_put(plain);
	json_object_put(ev);
	free(enc);
	/* And alice's next share to bob goes over it too. */
	mx_crypto_room_rotate(w->a, ROOM);
	share_to_bob(w, ROOM);

	/* A wrong pickle key, another device: errors, and the account is left alone. */
	char *before = strdup(mem_value(&w->sa, "e2ee.account"));
	mx_crypto_store st = store_of(&w->sa);
	err[0] = '\0';
	mx_crypto *x = mx_crypto_new(ALICE, "ALICEBOT", "not alice's pickle key at all", &st, err, sizeof err);
	CHECK(x == NULL && err[0], "a wrong pickle key is an error: %s", err);
	mx_crypto_free(x);
	err[0] = '\0';
	x = mx_crypto_new(ALICE, "OTHERDEV", KEY_A, &st, err, sizeof err);
	CHECK(x == NULL && err[0], "another device is an error: %s", err);
	mx_crypto_free(x);
	x = mx_crypto_new(ALICE, "ALICEBOT", "short", &st, err, sizeof err);
	CHECK(x == NULL, "a short pickle key is refused");
	CHECK(!strcmp(before, mem_value(&w->sa, "e2ee.account")), "the account is unchanged");
	free(before);
	mem bad = { 0 };
	mem_set(&bad, "e2ee.account", "not json");
	st = store_of(&bad);
	x = mx_crypto_new(ALICE, "ALICEBOT", KEY_A, &st, err, sizeof err);
	CHECK(x == NULL && !strcmp(mem_value(&bad, "e2ee.account"), "not json"), "an unreadable account is an error");
	mem_free(&bad);
	bad.fail = 1;
	x = mx_crypto_new(ALICE, "ALICEBOT", KEY_A, &st, err, sizeof err);
	CHECK(x == NULL && err[0], "a store that cannot keep a new account: %s", err);
	mem_free(&bad);
}

static void test_failing_store(world *w)
{
	const char *users[] = { BOB };
	int missing;
	w->sa.fail = 1;
	char *body = mx_crypto_share_body(w->a, "!new:example.org", users, 1, w->now, &missing);
	CHECK(body == NULL, "share fails when the new session cannot be stored");
	free(body);
	char *enc = mx_crypto_encrypt(w->a, ROOM, "m.room.message", "{}", w->now);
	CHECK(enc == NULL, "encrypt fails when the session cannot be stored");
	free(enc);
	w->sa.fail = 0;
	CHECK(round_trip(w->a, w->b, ROOM, "still in step", "$f1", w->now) == MXC_OK, "after the failures all goes on");
	/* A share whose Olm session cannot be stored. */
	mx_crypto_room_rotate(w->a, ROOM);
	mx_crypto_room_settings(w->a, ROOM, 0, 0);
	body = mx_crypto_share_body(w->a, ROOM, users, 0, w->now, &missing);  /* makes the session, shares to none */
	CHECK(body == NULL, "no users: nothing to share");
	w->sa.fail = 1;
	body = mx_crypto_share_body(w->a, ROOM, users, 1, w->now, &missing);
	CHECK(body == NULL, "share fails when the Olm session cannot be stored");
	free(body);
	w->sa.fail = 0;
	share_to_bob(w, ROOM);
	CHECK(round_trip(w->a, w->b, ROOM, "after the failed share", "$f2", w->now) == MXC_OK, "then it works");
}

/* Decrypting a crafted event (content given as JSON text). */
static int decrypt_text(mx_crypto *c, const char *room, const char *event)
{
	json_object *ev = parse(event), *plain = NULL;
	int rc = mx_crypto_decrypt(c, room, ev, &plain);
	CHECK(rc == MXC_OK || !plain, "no plain without OK");
	json_object_put(plain);
	json_object_put(ev);
	return rc;
}

static int to_device_text(mx_crypto *c, const char *event)
{
	json_object *ev = parse(event);
	char room[64] = "x";
	int rc = mx_crypto_to_device(c, ev, room, sizeof room);
	CHECK(rc == 1 || !room[0], "no room without a key");
	json_object_put(ev);
	return rc;
}

/* The start of crafted events: a room event (then the algorithm), a to-device one (algorithm included). */
#define EV_HEAD "{\"sender\":\"@a:b\",\"event_id\":\"$x\",\"content\":{\"algorithm\":"
#define MEGOLM "\"m.megolm.v1.aes-sha2\""
#define OLM "\"m.olm.v1.curve25519-aes-sha2\""
#define TD_HEAD "{\"type\":\"m.room.encrypted\",\"sender\":\"@a:b\",\"content\":{\"algorithm\":" OLM

static void test_bad_input(world *w)
{
	mx_crypto *b = w->b;
	char big[8192];
	memset(big, 'A', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	CHECK(decrypt_text(b, ROOM, "{}") == MXC_BAD, "empty event");
	CHECK(decrypt_text(b, ROOM, "[1]") == MXC_BAD, "an array");
	CHECK(mx_crypto_decrypt(b, ROOM, NULL, NULL) == MXC_BAD, "NULL event");
	CHECK(decrypt_text(b, ROOM, EV_HEAD MEGOLM "}}") == MXC_BAD, "no ciphertext");
	CHECK(decrypt_text(b, ROOM, EV_HEAD OLM ",\"ciphertext\":\"x\",\"sender_key\":\"x\",\"session_id\":\"x\"}}")
	      == MXC_BAD, "wrong algorithm");
	CHECK(decrypt_text(b, ROOM, EV_HEAD MEGOLM ",\"ciphertext\":5,\"sender_key\":[],\"session_id\":{}}}")
	      == MXC_BAD, "wrong types");
	size_t evlen = sizeof big * 2 + 512;
	char *ev = malloc(evlen);
	const char *ca = mx_crypto_curve25519(w->a), *cb = mx_crypto_curve25519(b);
	snprintf(ev, evlen, EV_HEAD MEGOLM ",\"ciphertext\":\"%s\",\"sender_key\":\"%s\",\"session_id\":\"%s\"}}",
		 big, ca, big);
	CHECK(decrypt_text(b, ROOM, ev) == MXC_BAD, "a huge session id");
	snprintf(ev, evlen, "{\"sender\":\"%s\",\"event_id\":\"$x\",\"content\":{\"algorithm\":" MEGOLM
		 ",\"ciphertext\":\"x\",\"sender_key\":\"%s\",\"session_id\":\"s\"}}", big, ca);
	CHECK(decrypt_text(b, ROOM, ev) == MXC_BAD, "a huge sender");
	CHECK(mx_crypto_decrypt(b, big, NULL, NULL) == MXC_BAD, "a huge room");

	CHECK(to_device_text(b, "{}") == 0, "to-device: empty");
	CHECK(to_device_text(b, "{\"type\":\"m.room.encrypted\",\"sender\":\"@a:b\",\"content\":{}}") == 0,
	      "no content");
	snprintf(ev, evlen, TD_HEAD ",\"sender_key\":\"%s\",\"ciphertext\":{\"%s\":{\"type\":0,\"body\":\"%s\"}}}}",
		 ca, cb, big);
	CHECK(to_device_text(b, ev) == 0, "a garbage pre-key message");
	snprintf(ev, evlen,
		 TD_HEAD ",\"sender_key\":\"%s\",\"ciphertext\":{\"%s\":{\"type\":1,\"body\":\"AwogAAAA\"}}}}",
		 ca, cb);
	CHECK(to_device_text(b, ev) == 0, "a garbage message");
	snprintf(ev, evlen, TD_HEAD ",\"sender_key\":\"%s\",\"ciphertext\":{\"%s\":{\"type\":\"0\",\"body\":7}}}}", ca,
		 cb);
	CHECK(to_device_text(b, ev) == 0, "wrong types in the ciphertext");
	CHECK(mx_crypto_to_device(b, NULL, NULL, 0) == 0, "NULL to-device");
	free(ev);

	json_object *j = parse("[]");
	CHECK(mx_crypto_query_done(b, j) == -1 && mx_crypto_query_done(b, NULL) == -1, "query: not a reply");
	CHECK(mx_crypto_claim_done(b, j) == -1 && mx_crypto_claim_done(b, NULL) == -1, "claim: not a reply");
	CHECK(mx_crypto_upload_done(b, j) == -1, "upload: not a reply");
	json_object_put(j);
	j = parse("{\"device_keys\":{\"@x:y\":[1],\"@z:y\":{\"D\":5,\"E\":{\"user_id\":7}}},"
		  "\"one_time_keys\":{\"@x:y\":{\"D\":{\"signed_curve25519:A\":{\"key\":3}}}}}");
	CHECK(mx_crypto_query_done(b, j) == 1, "query: junk devices are skipped");
	CHECK(mx_crypto_claim_done(b, j) == 0, "claim: junk keys are skipped");
	json_object_put(j);
	/* A forged claim: bob's own one-time key presented as alice's (bad signature). */
	json_object *cr = claim_reply(ALICE, "ALICEBOT", path(w->b_up, "one_time_keys", NULL, NULL));
	CHECK(mx_crypto_claim_done(b, cr) == 0, "claim: a key signed by another device is refused");
	json_object_put(cr);

	const char *users[] = { BOB, NULL, big };
	int missing;
	CHECK(mx_crypto_encrypt(b, ROOM, "m.room.message", "not json", w->now) == NULL, "encrypt: content not JSON");
	CHECK(mx_crypto_encrypt(b, ROOM, "m.room.message", "[1]", w->now) == NULL, "encrypt: content not an object");
	CHECK(mx_crypto_encrypt(b, ROOM, NULL, "{}", w->now) == NULL, "encrypt: no type");
	CHECK(mx_crypto_encrypt(b, big, "m.room.message", "{}", w->now) == NULL, "encrypt: a huge room");
	CHECK(mx_crypto_encrypt(b, NULL, "m.room.message", "{}", w->now) == NULL, "encrypt: no room");
	CHECK(mx_crypto_share_body(b, big, users, 3, w->now, &missing) == NULL, "share: a huge room");
	char *s = mx_crypto_share_body(b, "!odd:example.org", users, 3, w->now, &missing);
	CHECK(s == NULL, "share: odd users");
	free(s);
	s = mx_crypto_claim_body(b, users, 3, 0);
	CHECK(s == NULL, "claim body: odd users");
	free(s);
	char ids[1][256];
	CHECK(mx_crypto_devices(b, big, ids, 1) == 0 && !mx_crypto_user_known(b, big), "devices: a huge user");
	mx_crypto_room_settings(b, big, 1, 1);
	mx_crypto_room_rotate(b, big);
	mx_crypto_share_failed(b, big);
	mx_crypto_share_failed(b, "!never:example.org");
	CHECK(1, "settings, rotate, share_failed take odd rooms");
}

/* A device of user that knows alice (a query) and has an Olm session with her (one of her one-time keys). */
static mx_crypto *stranger(world *w, const char *user, const char *dev, mem *m, const char *otk_id)
{
	mx_crypto *c = open_dev(user, dev, "a stranger's pickle key", m);
	json_object *q = query_reply(ALICE, "ALICEBOT", path(w->a_up, "device_keys", NULL, NULL));
	CHECK(c && mx_crypto_query_done(c, q) == 1, "%s knows alice", user);
	json_object_put(q);
	json_object *one = json_object_new_object(), *k = path(w->a_up, "one_time_keys", otk_id, NULL);
	json_object_object_add(one, otk_id, json_object_get(k));
	json_object *cr = claim_reply(ALICE, "ALICEBOT", one);
	CHECK(k && c && mx_crypto_claim_done(c, cr) == 1, "%s has a session with alice", user);
	json_object_put(cr);
	json_object_put(one);
	return c;
}

/* The key-ids of alice's first upload, in order. */
static const char *otk_id(world *w, int n)
{
	json_object *otks = path(w->a_up, "one_time_keys", NULL, NULL);
	int i = 0;
	if (otks) {
		json_object_object_foreach(otks, kid, k) {
			(void)k;
			if (i++ == n)
				return kid;
		}
	}
	return "";
}

static void test_senders(world *w)
{
	const char *alice[] = { ALICE };
	char got[256];
	int missing;

	/* A device alice never asked about may give her a room key (unknown, not distrusted). */
	mem sf = { 0 };
	mx_crypto *f = stranger(w, "@frank:example.org", "FRANKDEV", &sf, otk_id(w, 3));
	char *body = f ? mx_crypto_share_body(f, ROOM, alice, 1, w->now, &missing) : NULL;
	CHECK(body && deliver(w->a, body, "@frank:example.org", ALICE, "ALICEBOT", got, sizeof got) == 1,
	      "a room key from an unknown device is taken");
	free(body);
	/* The same device claiming to be bob in the event: the payload's sender decides. */
	mx_crypto_room_rotate(f, ROOM);
	body = f ? mx_crypto_share_body(f, ROOM, alice, 1, w->now, &missing) : NULL;
	CHECK(body && deliver(w->a, body, BOB, ALICE, "ALICEBOT", got, sizeof got) == 0 && !got[0],
	      "a to-device event whose sender is not the payload's is refused");
	free(body);
	mx_crypto_free(f);
	mem_free(&sf);

	/* A refused device (carol's, keys changed) gets nothing in. */
	mem sc = { 0 };
	mx_crypto *c = stranger(w, CAROL, "CAROLDEV", &sc, otk_id(w, 4));
	body = c ? mx_crypto_share_body(c, ROOM, alice, 1, w->now, &missing) : NULL;
	CHECK(body && deliver(w->a, body, CAROL, ALICE, "ALICEBOT", got, sizeof got) == 0,
	      "a room key from a refused device is dropped");
	free(body);
	mx_crypto_free(c);
	mem_free(&sc);

	/* Upload: a store that fails gives no body; a huge count nothing due. */
	w->sa.fail = 1;
	body = mx_crypto_upload_body(w->a, 0);
	CHECK(body == NULL, "no upload body when the account cannot be stored");
	free(body);
	w->sa.fail = 0;
	/* The keys made then are in the account: they go up next (stored first), whatever the count. */
	int sets = w->sa.sets;
	body = mx_crypto_upload_body(w->a, 2147483647);
	json_object *up = parse(body), *otks = path(up, "one_time_keys", NULL, NULL);
	CHECK(otks && json_object_object_length(otks) == 50 && w->sa.sets > sets, "the keys made are stored and sent");
	json_object_put(up);
	free(body);
	json_object *reply = parse("{\"one_time_key_counts\":{\"signed_curve25519\":100}}");
	CHECK(mx_crypto_upload_done(w->a, reply) == 100, "upload done");
	json_object_put(reply);
	body = mx_crypto_upload_body(w->a, 2147483647);
	CHECK(body == NULL, "nothing due at a huge count");
	free(body);
	body = mx_crypto_upload_body(w->a, 45);
	up = parse(body);
	otks = path(up, "one_time_keys", NULL, NULL);
	CHECK(otks && json_object_object_length(otks) == 5 && !path(up, "device_keys", NULL, NULL),
	      "five keys due at 45");
	json_object_put(up);
	free(body);
	reply = parse("{\"one_time_key_counts\":{\"signed_curve25519\":50}}");
	CHECK(mx_crypto_upload_done(w->a, reply) == 50, "upload done");
	json_object_put(reply);
}

/* Mutated ciphertexts (a byte changed, cut short) never decrypt and never crash. */
static void test_mutations(world *w)
{
	const char *bob[] = { BOB };
	int missing, bad = 0, n = 0;
	uint32_t seed = 12345;
	mx_crypto_room_rotate(w->a, ROOM);
	char *share = mx_crypto_share_body(w->a, ROOM, bob, 1, w->now, &missing);
	char *enc = mx_crypto_encrypt(w->a, ROOM, "m.room.message", "{\"body\":\"m\"}", w->now);
	json_object *sb = parse(share), *content = path(sb, "messages", BOB, "BOBDEV");
	json_object *ct = content ? path(content, "ciphertext", mx_crypto_curve25519(w->b), NULL) : NULL;
	const char *body = str_at(ct, "body", NULL, NULL);
	json_object *ec = parse(enc);
	const char *mc = str_at(ec, "ciphertext", NULL, NULL);
	char *b0 = body ? strdup(body) : NULL, *m0 = mc ? strdup(mc) : NULL;
	for (int i = 0; b0 && m0 && i < 200; i++, n++) {
		char *b1 = strdup(b0), *m1 = strdup(m0);
		seed = seed * 1103515245u + 12345u;
		size_t bl = strlen(b1), ml = strlen(m1);
		if (i % 4 == 3) {
			b1[seed % bl] = '\0';
			m1[seed % ml] = '\0';
		} else {
			b1[seed % bl] = "AZaz09+/"[(seed >> 16) % 8];
			m1[seed % ml] = "AZaz09+/"[(seed >> 16) % 8];
		}
		if (!strcmp(b1, b0) || !strcmp(m1, m0)) {
			free(b1);
			free(m1);
			continue;
		}
		json_object_object_add(ct, "body", json_object_new_string(b1));
		json_object *e = to_device_event(ALICE, content);
		char room[256];
		bad += mx_crypto_to_device(w->b, e, room, sizeof room) != 0;
		json_object_put(e);
		json_object_object_add(ec, "ciphertext", json_object_new_string(m1));
		char id[32];
		snprintf(id, sizeof id, "$mut%d", i);
		e = room_event(ALICE, json_object_to_json_string(ec), id);
		json_object *plain = NULL;
		int rc = mx_crypto_decrypt(w->b, ROOM, e, &plain);
		bad += rc == MXC_OK || plain;
		json_object_put(plain);
		json_object_put(e);
		free(b1);
		free(m1);
	}
	CHECK(n > 150 && bad == 0, "mutated messages: %d of %d decrypted", bad, n);
	/* The real ones still do. */
	if (b0)
		json_object_object_add(ct, "body", json_object_new_string(b0));
	char room[256] = "";
	json_object *e = to_device_event(ALICE, content);
	CHECK(content && mx_crypto_to_device(w->b, e, room, sizeof room) == 1, "the unmutated share is read");
	json_object_put(e);
	e = room_event(ALICE, enc, "$unmutated");
	json_object *plain = NULL;
	CHECK(mx_crypto_decrypt(w->b, ROOM, e, &plain) == MXC_OK, "the unmutated message decrypts");
	json_object_put(plain);
	json_object_put(e);
	free(b0);
	free(m0);
	json_object_put(ec);
	json_object_put(sb);
	free(share);
	free(enc);
}

/* More devices than MXC_DEVICES_MAX for one user: the first ones are kept, the rest ignored. */
static void test_many_devices(world *w)
{
	enum { N = MXC_DEVICES_MAX + 2 };
	json_object *listed = json_object_new_object();
	for (int i = 0; i < N; i++) {
		mem m = { 0 };
		char dev[32];
		snprintf(dev, sizeof dev, "GDEV%02d", i);
		mx_crypto *g = open_dev("@gina:example.org", dev, "gina's pickle key, long", &m);
		char *body = g ? mx_crypto_upload_body(g, -1) : NULL;
		json_object *up = parse(body);
		json_object_object_add(listed, dev, json_object_get(path(up, "device_keys", NULL, NULL)));
		json_object_put(up);
		free(body);
		mx_crypto_free(g);
		mem_free(&m);
	}
	json_object *r = json_object_new_object(), *dk = json_object_new_object();
	json_object_object_add(dk, "@gina:example.org", listed);
	json_object_object_add(r, "device_keys", dk);
	CHECK(mx_crypto_query_done(w->a, r) == 1, "gina's query");
	CHECK(mx_crypto_devices(w->a, "@gina:example.org", NULL, 0) == MXC_DEVICES_MAX, "at most %d devices kept",
	      MXC_DEVICES_MAX);
	char ids[2][256];
	CHECK(mx_crypto_devices(w->a, "@gina:example.org", ids, 2) == MXC_DEVICES_MAX && !strcmp(ids[0], "GDEV00")
	      && !strcmp(ids[1], "GDEV01"), "ids up to max");
	json_object_put(r);
}

/* ---- the cross-check against python3-olm ---- */

#define PEER "tests/unit/bot/olm_peer.py"

static int peer_usable(void)
{
	return access("/usr/bin/python3", X_OK) == 0 && access(PEER, R_OK) == 0
		&& system("/usr/bin/python3 -c 'import olm' >/dev/null 2>&1") == 0;
}

/* Runs the peer; its output (caller frees), and the PASS/FAIL lines counted as checks. */
static char *run_peer(const char *args)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 " PEER " %s", args);
	FILE *f = popen(cmd, "r");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0, n;
	char *out = malloc(cap);
	while (out && (n = fread(out + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *more = realloc(out, cap *= 2);
			if (!more)
				break;
			out = more;
		}
	}
	int status = pclose(f);
	if (!out)
		return NULL;
	out[len] = '\0';
	CHECK(status == 0, "olm_peer.py %s exits 0 (%d)", args, status);
	for (char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (!strncmp(line, "PASS ", 5))
			CHECK(1, "peer");
		else if (!strncmp(line, "FAIL ", 5))
			CHECK(0, "python3-olm: %.*s", (int)strcspn(line, "\n"), line);
	}
	return out;
}

static void write_file(const char *name, json_object *o)
{
	FILE *f = fopen(name, "w");
	if (f) {
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), f);
		fclose(f);
	}
}

/* Alice's side of the peer exchange: dave's keys, a share, two messages, into in.json; the plaintexts expected. */
static json_object *cross_input(world *w, json_object *dave, const char *room)
{
	json_object *q = query_reply(DAVE, "DAVEDEV", path(dave, "device_keys", NULL, NULL));
	CHECK(mx_crypto_query_done(w->a, q) == 1 && mx_crypto_devices(w->a, DAVE, NULL, 0) == 1,
	      "dave's python keys verify");
	json_object_put(q);
	json_object *cr = claim_reply(DAVE, "DAVEDEV", path(dave, "one_time_keys", NULL, NULL));
	CHECK(mx_crypto_claim_done(w->a, cr) == 1, "a session with dave from his python one-time key");
	json_object_put(cr);
	const char *users[] = { DAVE };
	int missing;
	char *body = mx_crypto_share_body(w->a, room, users, 1, w->now, &missing);
	json_object *b = parse(body), *in = json_object_new_object(), *evs = json_object_new_array();
	json_object *expect = json_object_new_array();
	free(body);
	json_object_object_add(in, "device_keys", json_object_get(path(w->a_up, "device_keys", NULL, NULL)));
	json_object_object_add(in, "one_time_keys", json_object_get(path(w->a_up, "one_time_keys", NULL, NULL)));
	json_object_object_add(in, "to_device", json_object_get(path(b, "messages", DAVE, "DAVEDEV")));
	json_object_object_add(in, "room", json_object_new_string(room));
	const char *texts[] = { "{\"msgtype\":\"m.text\",\"body\":\"hello python\"}",
				"{\"msgtype\":\"m.notice\",\"body\":\"caf\xc3\xa9 \\u65e5 \\\"q\\\"\"}" };
	for (int i = 0; i < 2; i++) {
		char *enc = mx_crypto_encrypt(w->a, room, "m.room.message", texts[i], w->now);
		json_object_array_add(evs, parse(enc));
		free(enc);
		json_object *e = json_object_new_object();
		json_object_object_add(e, "type", json_object_new_string("m.room.message"));
		json_object_object_add(e, "content", parse(texts[i]));
		json_object_object_add(e, "room_id", json_object_new_string(room));
		json_object_array_add(expect, e);
	}
	json_object_object_add(in, "events", evs);
	json_object_object_add(in, "expect", expect);
	json_object_put(b);
	return in;
}

/* Alice reads what the peer sent back: a room key over Olm and a Megolm message. */
static void cross_output(world *w, const char *file, const char *room)
{
	json_object *out = json_object_from_file(file), *plain = NULL;
	json_object *e = to_device_event(DAVE, path(out, "to_device", NULL, NULL));
	char got[256] = "";
	CHECK(mx_crypto_to_device(w->a, e, got, sizeof got) == 1 && !strcmp(got, room),
	      "alice takes dave's python room key");
	json_object_put(e);
	e = json_object_new_object();
	json_object_object_add(e, "sender", json_object_new_string(DAVE));
	json_object_object_add(e, "event_id", json_object_new_string("$py1"));
	json_object_object_add(e, "content", json_object_get(path(out, "event", NULL, NULL)));
	CHECK(mx_crypto_decrypt(w->a, room, e, &plain) == MXC_OK, "alice decrypts dave's python Megolm message");
	const char *body = str_at(plain, "content", "body", NULL);
	CHECK(body && !strcmp(body, "from python \xc3\xa9"), "dave's words: %s", body ? body : "(none)");
	json_object_put(plain);
	json_object_put(e);
	json_object_put(out);
}

static void test_python(world *w)
{
	if (!peer_usable()) {
		printf("bot_crypto: no python3-olm (/usr/bin/python3 with olm, and " PEER "): cross-check skipped\n");
		return;
	}
	char dir[] = "/tmp/bot_crypto.XXXXXX", args[256], file[300];
	const char *room = "!py:example.org";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(args, sizeof args, "keys %s " DAVE " DAVEDEV", dir);
	char *keys = run_peer(args);
	json_object *dave = parse(keys);
	free(keys);
	CHECK(dave != NULL, "the peer's keys");
	if (dave) {
		json_object *in = cross_input(w, dave, room);
		snprintf(file, sizeof file, "%s/in.json", dir);
		write_file(file, in);
		json_object_put(in);
		snprintf(args, sizeof args, "check %s", dir);
		free(run_peer(args));
		snprintf(file, sizeof file, "%s/out.json", dir);
		cross_output(w, file, room);
	}
	json_object_put(dave);
	const char *names[] = { "in.json", "out.json", "account" };
	for (int i = 0; i < 3; i++) {
		snprintf(file, sizeof file, "%s/%s", dir, names[i]);
		unlink(file);
	}
	rmdir(dir);
}

/* ---- key requests (issue 28): the bot forwards its own Megolm sessions ---- */

/* A device made with libolm alone, to read what the bot forwards (the bot's
 * crypto takes no forwarded keys itself). */
typedef struct rawdev {
	OlmAccount *acct;
	OlmSession *sess;        /* the inbound Olm session from the bot, once made */
	const char *user, *dev;
	char curve[64], ed[64];
} rawdev;

static void raw_new(rawdev *d, const char *user, const char *dev)
{
	memset(d, 0, sizeof *d);
	d->user = user;
	d->dev = dev;
	d->acct = olm_account(malloc(olm_account_size()));
	size_t rl = olm_create_account_random_length(d->acct);
	uint8_t *r = malloc(rl);
	for (size_t i = 0; i < rl; i++)
		r[i] = (uint8_t)rand();
	olm_create_account(d->acct, r, rl);
	free(r);
	char ids[256];
	size_t n = olm_account_identity_keys(d->acct, ids, sizeof ids - 1);
	ids[n] = '\0';
	json_object *o = parse(ids);
	snprintf(d->curve, sizeof d->curve, "%s", str_at(o, "curve25519", NULL, NULL));
	snprintf(d->ed, sizeof d->ed, "%s", str_at(o, "ed25519", NULL, NULL));
	json_object_put(o);
}

static void raw_free(rawdev *d)
{
	olm_clear_account(d->acct);
	free(d->acct);
	if (d->sess) {
		olm_clear_session(d->sess);
		free(d->sess);
	}
}

/* Signs o as the device does (canonical JSON without signatures). */
static void raw_sign(rawdev *d, json_object *o)
{
	char *text = mx_canonical_json(o), sig[128], kid[64];
	size_t n = olm_account_sign(d->acct, text, strlen(text), sig, sizeof sig - 1);
	sig[n] = '\0';
	free(text);
	json_object *u = json_object_new_object(), *all = json_object_new_object();
	snprintf(kid, sizeof kid, "ed25519:%s", d->dev);
	json_object_object_add(u, kid, json_object_new_string(sig));
	json_object_object_add(all, d->user, u);
	json_object_object_add(o, "signatures", all);
}

/* The device's signed keys as a /keys/query lists them. */
static json_object *raw_keys(rawdev *d)
{
	json_object *o = mxc_device_keys_of(d->user, d->dev, d->curve, d->ed);
	raw_sign(d, o);
	return o;
}

/* A /keys/claim reply with one new signed one-time key of the device. */
static json_object *raw_claim(rawdev *d)
{
	size_t rl = olm_account_generate_one_time_keys_random_length(d->acct, 1);
	uint8_t r[128] = { 0 };
	for (size_t i = 0; i < rl && i < sizeof r; i++)
		r[i] = (uint8_t)rand();
	olm_account_generate_one_time_keys(d->acct, 1, r, rl);
	char buf[512];
	size_t n = olm_account_one_time_keys(d->acct, buf, sizeof buf - 1);
	buf[n] = '\0';
	olm_account_mark_keys_as_published(d->acct);
	json_object *o = parse(buf), *keys = path(o, "curve25519", NULL, NULL), *otks = json_object_new_object();
	json_object_object_foreach(keys, id, v) {
		char kid[64];
		json_object *k = json_object_new_object();
		json_object_object_add(k, "key", json_object_get(v));
		raw_sign(d, k);
		snprintf(kid, sizeof kid, "signed_curve25519:%s", id);
		json_object_object_add(otks, kid, k);
	}
	json_object_put(o);
	json_object *reply = claim_reply(d->user, d->dev, otks);
	json_object_put(otks);
	return reply;
}

/* The Olm payload a sendToDevice body carries to this device, decrypted, or NULL. */
static json_object *raw_read(rawdev *d, const char *body, const char *from_curve)
{
	json_object *b = parse(body), *ct = path(b, "messages", d->user, d->dev), *t;
	const char *text = ct ? str_at(ct, "ciphertext", d->curve, "body") : NULL;
	t = ct ? path(path(ct, "ciphertext", d->curve, NULL), "type", NULL, NULL) : NULL;
	json_object *out = NULL;
	if (text && t) {
		size_t type = (size_t)json_object_get_int(t), len = strlen(text);
		char *copy = strdup(text);
		if (type == 0 && !d->sess) {
			d->sess = olm_session(malloc(olm_session_size()));
			olm_create_inbound_session_from(d->sess, d->acct, from_curve, strlen(from_curve), copy, len);
			memcpy(copy, text, len);
		}
		size_t max = olm_decrypt_max_plaintext_length(d->sess, type, copy, len);
		memcpy(copy, text, len);
		char *plain = max != olm_error() ? malloc(max + 1) : NULL;
		size_t n = plain ? olm_decrypt(d->sess, type, copy, len, plain, max) : olm_error();
		if (n != olm_error()) {
			plain[n] = '\0';
			out = parse(plain);
		}
		free(plain);
		free(copy);
	}
	json_object_put(b);
	return out;
}

/* Decrypts a Megolm content (from mx_crypto_encrypt) with an exported session key: the index, or -1. */
static long megolm_read(const char *session_key, const char *content)
{
	OlmInboundGroupSession *s = olm_inbound_group_session(malloc(olm_inbound_group_session_size()));
	json_object *c = parse(content);
	const char *ct = str_at(c, "ciphertext", NULL, NULL);
	long rc = -1;
	if (ct && olm_import_inbound_group_session(s, (const uint8_t *)session_key, strlen(session_key))
		      != olm_error()) {
		char *copy = strdup(ct);
		size_t max = olm_group_decrypt_max_plaintext_length(s, (uint8_t *)copy, strlen(ct));
		strcpy(copy, ct);
		uint8_t *plain = max != olm_error() ? malloc(max + 1) : NULL;
		uint32_t idx = 0;
		if (plain && olm_group_decrypt(s, (uint8_t *)copy, strlen(ct), plain, max, &idx) != olm_error())
			rc = idx;
		free(plain);
		free(copy);
	}
	olm_clear_inbound_group_session(s);
	free(s);
	json_object_put(c);
	return rc;
}

static json_object *key_request_event(const char *sender, const char *dev, const char *action, const char *room,
				      const char *sid, const char *sender_key)
{
	json_object *e = json_object_new_object(), *c = json_object_new_object(), *b = json_object_new_object();
	json_object_object_add(e, "type", json_object_new_string("m.room_key_request"));
	json_object_object_add(e, "sender", json_object_new_string(sender));
	json_object_object_add(c, "action", json_object_new_string(action));
	json_object_object_add(c, "requesting_device_id", json_object_new_string(dev));
	json_object_object_add(c, "request_id", json_object_new_string("req1"));
	json_object_object_add(b, "algorithm", json_object_new_string(MXC_MEGOLM_ALGO));
	json_object_object_add(b, "room_id", json_object_new_string(room));
	json_object_object_add(b, "session_id", json_object_new_string(sid));
	if (sender_key)
		json_object_object_add(b, "sender_key", json_object_new_string(sender_key));
	if (strcmp(action, "request_cancellation"))
		json_object_object_add(c, "body", b);
	else
		json_object_put(b);
	json_object_object_add(e, "content", c);
	return e;
}

/* What the bot forwards to d for (room, sid), claiming for d first when asked to: the session key, or "". */
static void forward_to(mx_crypto *bot, rawdev *d, const char *room, const char *sid, char *key, size_t len)
{
	char *body = NULL;
	key[0] = '\0';
	int rc = mx_crypto_forward_body(bot, d->user, d->dev, room, sid, &body);
	if (rc == MXC_FWD_CLAIM) {
		const char *users[] = { d->user };
		char *cb = mx_crypto_claim_body(bot, users, 1, 0);
		json_object *cr = raw_claim(d);
		CHECK(cb && mx_crypto_claim_done(bot, cr) == 1, "a session with %s %s from a claim", d->user, d->dev);
		json_object_put(cr);
		free(cb);
		rc = mx_crypto_forward_body(bot, d->user, d->dev, room, sid, &body);
	}
	CHECK(rc == MXC_FWD_OK && body, "a forwarded key for %s %s (%d)", d->user, d->dev, rc);
	json_object *p = body ? raw_read(d, body, mx_crypto_curve25519(bot)) : NULL;
	const char *sk = str_at(p, "content", "session_key", NULL);
	json_object *chain = path(p, "content", "forwarding_curve25519_key_chain", NULL);
	CHECK(p && !strcmp(str_at(p, "type", NULL, NULL), "m.forwarded_room_key")
	      && !strcmp(str_at(p, "content", "room_id", NULL), room)
	      && !strcmp(str_at(p, "content", "session_id", NULL), sid)
	      && !strcmp(str_at(p, "content", "algorithm", NULL), MXC_MEGOLM_ALGO)
	      && !strcmp(str_at(p, "content", "sender_key", NULL), mx_crypto_curve25519(bot))
	      && !strcmp(str_at(p, "content", "sender_claimed_ed25519_key", NULL), mx_crypto_ed25519(bot))
	      && chain && json_object_array_length(chain) == 0 && !strcmp(str_at(p, "recipient", NULL, NULL), d->user)
	      && !strcmp(str_at(p, "recipient_keys", "ed25519", NULL), d->ed) && sk,
	      "%s %s reads an m.forwarded_room_key of the session, for it alone", d->user, d->dev);
	json_object *b = parse(body);
	CHECK(b && json_object_object_length(path(b, "messages", NULL, NULL)) == 1
	      && json_object_object_length(path(b, "messages", d->user, NULL)) == 1, "to the requesting device only");
	json_object_put(b);
	snprintf(key, len, "%s", sk ? sk : "");
	json_object_put(p);
	free(body);
}

static int forward_refused(mx_crypto *bot, const char *user, const char *dev, const char *room, const char *sid)
{
	char *body = NULL;
	int rc = mx_crypto_forward_body(bot, user, dev, room, sid, &body);
	free(body);
	return rc == MXC_FWD_REFUSED && !body;
}

/* The bot's sessions in a room: bob there from the start, carol from the
 * third message; both ask from a second device, after a rotation and a
 * restart. Each gets the session from the index it was first given (or
 * would have been, had its device had an Olm session), nobody else gets
 * anything. */
static void test_key_requests(void)
{
	const char *room = "!keys:example.org", *BOT = "@bot:example.org";
	mem sm = { 0 };
	mx_crypto *bot = open_dev(BOT, "BOTDEV", "the bot's pickle key, long", &sm);
	rawdev bob1, bob2, carol2, bob9;
	raw_new(&bob1, BOB, "BOB1");
	raw_new(&bob2, BOB, "BOB2");
	raw_new(&carol2, CAROL, "CAROL2");
	raw_new(&bob9, BOB, "BOB1");           /* BOB1 again under other keys */
	json_object *q = query_reply(BOB, "BOB1", raw_keys(&bob1)), *k2 = raw_keys(&bob2);
	json_object_object_add(path(q, "device_keys", BOB, NULL), "BOB2", k2);
	json_object_put(path(q, "device_keys", BOB, "BOB1")); /* query_reply took a reference of its own */
	CHECK(mx_crypto_query_done(bot, q) == 1 && mx_crypto_devices(bot, BOB, NULL, 0) == 2, "the bot knows bob's two devices");
	json_object_put(q);
	q = query_reply(CAROL, "CAROL2", raw_keys(&carol2));
	json_object_put(path(q, "device_keys", CAROL, "CAROL2"));
	mx_crypto_query_done(bot, q);
	json_object_put(q);

	const char *just_bob[] = { BOB }, *both[] = { BOB, CAROL };
	int missing = -1;
	char *body = mx_crypto_share_body(bot, room, just_bob, 1, 0, &missing);
	CHECK(!body && missing == 2, "no Olm session with bob's devices: no share, bob still counted (%d)", missing);
	free(body);
	char *m[4], s1[128], s2[128];
	m[0] = mx_crypto_encrypt(bot, room, "m.room.message", "{\"body\":\"zero\"}", 0);
	m[1] = mx_crypto_encrypt(bot, room, "m.room.message", "{\"body\":\"one\"}", 0);
	body = mx_crypto_share_body(bot, room, both, 2, 0, &missing);
	free(body);
	m[2] = mx_crypto_encrypt(bot, room, "m.room.message", "{\"body\":\"two\"}", 0);
	json_object *c2 = parse(m[2]);
	snprintf(s1, sizeof s1, "%s", str_at(c2, "session_id", NULL, NULL) ? str_at(c2, "session_id", NULL, NULL) : "");
	json_object_put(c2);
	mx_crypto_room_rotate(bot, room);
	body = mx_crypto_share_body(bot, room, both, 2, 0, &missing);
	free(body);
	m[3] = mx_crypto_encrypt(bot, room, "m.room.message", "{\"body\":\"three\"}", 0);
	session_of(bot, room, 0, s2, sizeof s2);
	CHECK(m[0] && m[1] && m[2] && m[3] && *s1 && *s2 && strcmp(s1, s2), "four messages over two sessions");

	/* A restart: what the answers need is in the store. */
	mx_crypto_free(bot);
	bot = open_dev(BOT, "BOTDEV", "the bot's pickle key, long", &sm);

	mxc_key_request kr;
	json_object *e = key_request_event(BOB, "BOB2", "request", room, s1, mx_crypto_curve25519(bot));
	CHECK(mx_crypto_key_request(bot, e, &kr) == 0 && !kr.cancel && !strcmp(kr.user, BOB) && !strcmp(kr.device, "BOB2")
	      && !strcmp(kr.room, room) && !strcmp(kr.session, s1) && !strcmp(kr.request_id, "req1"),
	      "a key request is read");
	json_object_put(e);
	e = key_request_event(BOB, "BOB2", "request_cancellation", room, s1, NULL);
	CHECK(mx_crypto_key_request(bot, e, &kr) == 0 && kr.cancel && !strcmp(kr.request_id, "req1"),
	      "a cancellation is read");
	json_object_put(e);
	e = key_request_event(BOB, "BOB2", "request", room, s1, bob1.curve);
	CHECK(mx_crypto_key_request(bot, e, &kr) < 0, "a request for another device's session is refused");
	json_object_put(e);
	e = key_request_event(BOB, "BOB2", "fetch", room, s1, NULL);
	CHECK(mx_crypto_key_request(bot, e, &kr) < 0, "an unknown action is refused");
	json_object_object_del(path(e, "content", NULL, NULL), "request_id");
	json_object_object_add(path(e, "content", NULL, NULL), "action", json_object_new_string("request"));
	CHECK(mx_crypto_key_request(bot, e, &kr) < 0, "a request without a request id is refused");
	json_object_put(e);

	char key[1024];
	forward_to(bot, &bob2, room, s1, key, sizeof key);
	CHECK(*key && megolm_read(key, m[0]) == 0 && megolm_read(key, m[1]) == 1 && megolm_read(key, m[2]) == 2,
	      "bob's second device reads the session from its first message");
	CHECK(*key && megolm_read(key, m[3]) == -1, "...and not another session");
	forward_to(bot, &carol2, room, s1, key, sizeof key);
	CHECK(*key && megolm_read(key, m[2]) == 2, "carol's device reads what was said once she was there");
	CHECK(*key && megolm_read(key, m[0]) == -1 && megolm_read(key, m[1]) == -1, "...and nothing said before");
	forward_to(bot, &bob2, room, s2, key, sizeof key);
	CHECK(*key && megolm_read(key, m[3]) == 0, "bob's second device reads the session after the rotation");

	CHECK(forward_refused(bot, DAVE, "DAVEDEV", room, s1), "someone never given the session: refused");
	CHECK(forward_refused(bot, BOB, "BOB2", "!other:example.org", s1), "the session under another room: refused");
	CHECK(forward_refused(bot, BOB, "NODEV", room, s1), "an unknown device of bob: refused");
	CHECK(forward_refused(bot, CAROL, "BOB2", room, s1), "bob's device asked for as carol's: refused");
	CHECK(forward_refused(bot, BOB, "BOB2", room, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
	      "a session that is not the bot's: refused");
	q = query_reply(BOB, "BOB1", raw_keys(&bob9));
	json_object_put(path(q, "device_keys", BOB, "BOB1"));
	mx_crypto_query_done(bot, q);
	json_object_put(q);
	CHECK(forward_refused(bot, BOB, "BOB1", room, s1), "a device that came back under other keys: refused");
	for (int i = 0; i < 4; i++)
		free(m[i]);
	raw_free(&bob1);
	raw_free(&bob2);
	raw_free(&carol2);
	raw_free(&bob9);
	mx_crypto_free(bot);
	mem_free(&sm);
}

int main(void)
{
	world w = { .now = 1700000000000LL };
	test_canonical();
	test_keys(&w);
	test_fallback(&w);
	test_messages(&w);
	test_tofu(&w);
	test_rotation(&w);
	test_persistence(&w);
	test_failing_store(&w);
	test_bad_input(&w);
	test_senders(&w);
	test_many_devices(&w);
	test_mutations(&w);
	test_python(&w);
	test_key_requests();
	mx_crypto_free(w.a);
	mx_crypto_free(w.b);
	json_object_put(w.a_up);
	json_object_put(w.b_up);
	mem_free(&w.sa);
	mem_free(&w.sb);
	return check_report("bot_crypto");
}
