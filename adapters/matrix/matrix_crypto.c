/* matrix_crypto.c: end-to-end encryption over libolm: the device, Olm and Megolm sessions, trust on first use.
 *
 * The store is the only state (but the rooms' rotation settings): each call
 * reads what it needs, unpickles, works, pickles and writes back before it
 * returns. What the header leaves open, decided here:
 *   - upload: with the server's count unknown (-1), a device not yet
 *     published is taken to have no keys up there, a published one enough;
 *     the account is stored before any body is returned.
 *   - query: a device no longer listed is not used but its keys stay pinned
 *     ("gone"), so it cannot come back under other keys; a listed device
 *     whose keys or signature do not check out is skipped (an earlier pin
 *     stays); our own user's other devices are trusted like anyone's.
 *   - Olm: messages go out over the session last made or last used to
 *     decrypt (first in the list); a pre-key message that matches a kept
 *     session and fails is not tried as a new session.
 *   - to-device: a room key is refused when the event's sender is not the
 *     payload's, when it is not for this device, when the sender's curve key
 *     belongs to a refused device, or when the claimed ed25519 key, curve key
 *     or device id matches a pinned device only in part. A key for a
 *     session already kept replaces it only if it starts at a lower index.
 *   - decrypt: the event must carry its event_id (replay protection) and be
 *     sent by the user who gave the room key; an index before the session's
 *     first known one is MXC_BAD (the bot asks no one for old keys).
 *   - rotation settings only lower the defaults (MXC_ROTATE_*); a clock that
 *     went back before the session's start also rotates it.
 *   - key requests: a user's first index in a session is the session's
 *     index at the first share body that names them, whether or not one
 *     of their devices could be given the key then; a session made before
 *     such records were kept has none, and is refused to everyone.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <olm/olm.h>
#include <olm/inbound_group_session.h>
#include <olm/outbound_group_session.h>
#include <olm/pk.h>
#include "matrix_crypto.h"
#include "matrix_crypto_int.h"
#include "strbuf.h"

#define MXC_ID_MAX 255           /* a user, device, room or event id, in bytes */
#define MXC_KEY_B64 43           /* a curve25519 or ed25519 key, unpadded base64 */
#define MXC_SEEN_KEEP 500        /* (message index, event) pairs kept per inbound Megolm session */
#define MXC_CIPHER_MAX (256 * 1024) /* an Olm or Megolm ciphertext read */
#define MXC_DEPTH_MAX 64         /* canonical JSON nesting */
#define MXC_SID_MAX 128          /* a session id */
#define MXC_ROOMS_MAX 4096       /* rooms with their own rotation settings */
#define MXC_CLAIM_WAITS 1024     /* devices whose claims are backed off (more: the oldest wait is forgotten) */

typedef struct room_set {
	char *room;
	long msgs;
	int64_t ms;
} room_set;

/* A device claimed for that got no one-time key: not asked again before next. */
typedef struct claim_wait {
	char curve[MXC_KEY_B64 + 1];
	int64_t next, wait;
	int last;                /* asked in the last claim body */
} claim_wait;

struct mx_crypto {
	char user[MXC_ID_MAX + 1];
	char device[MXC_ID_MAX + 1];
	char *pickle_key;
	size_t pickle_len;
	mx_crypto_store st;
	OlmAccount *acct;
	OlmUtility *util;
	char curve[MXC_KEY_B64 + 1];
	char ed[MXC_KEY_B64 + 1];
	int published;           /* the device keys went up */
	int fallback;            /* a fallback key was made (kept in the account) */
	room_set *rooms;
	int nrooms;
	claim_wait waits[MXC_CLAIM_WAITS];
	int nwaits;
};

/* ---- small helpers ---- */

__attribute__((format(printf, 3, 4))) static void mxc_log(mx_crypto *c, const char *level, const char *fmt, ...)
{
	if (!c->st.log)
		return;
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';       /* ids from the network: no line breaks in the log */
	c->st.log(c->st.ctx, level, text);
}

/* Fills buf with len bytes from the kernel's generator; -1 on failure. */
static int get_random(void *buf, size_t len)
{
	uint8_t *p = buf;
	while (len > 0) {
		ssize_t n = getrandom(p, len > 256 ? 256 : len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void *random_buf(size_t len)
{
	uint8_t *r = malloc(len ? len : 1);
	if (r && get_random(r, len) < 0) {
		free(r);
		return NULL;
	}
	return r;
}

static void free_wiped(void *p, size_t len)
{
	if (p) {
		explicit_bzero(p, len);
		free(p);
	}
}

static void free_str_wiped(char *s)
{
	if (s)
		free_wiped(s, strlen(s));
}

static char *dup_n(const char *s, size_t len)
{
	char *d = malloc(len + 1);
	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

/* A string member of o, of 1..max bytes and without a NUL, or NULL. */
static const char *get_str(json_object *o, const char *key, size_t max)
{
	json_object *v;
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v)
	    || !json_object_is_type(v, json_type_string))
		return NULL;
	size_t len = (size_t)json_object_get_string_len(v);
	const char *s = json_object_get_string(v);
	if (len == 0 || len > max || strlen(s) != len)
		return NULL;
	return s;
}

static json_object *get_obj(json_object *o, const char *key)
{
	json_object *v;
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v)
	    || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static int is_b64_key(const char *s)
{
	if (!s || strlen(s) != MXC_KEY_B64)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '+'
		      || *p == '/'))
			return 0;
	return 1;
}

/* Overwrites the text of a json-c string (a secret) before it is freed. */
static void wipe_json_str(json_object *s)
{
	if (s && json_object_is_type(s, json_type_string))
		explicit_bzero((char *)json_object_get_string(s), (size_t)json_object_get_string_len(s));
}

/* o as plain JSON in a new string (its json-c copy wiped): caller frees. */
static char *json_text(json_object *o)
{
	size_t len;
	const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
							 &len);
	if (!s)
		return NULL;
	char *d = dup_n(s, len);
	explicit_bzero((char *)s, len);
	return d;
}

/* ---- the store ---- */

/* An id from the network fit to name a store key: printable ASCII
 * without "|" (the separator), as Matrix's ids are; anything else is
 * refused, not stored. */
static int key_part_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '|')
			return 0;
	return 1;
}

static int key_of(char *out, const char *prefix, const char *a, const char *b, const char *d)
{
	if (!key_part_ok(a) || !key_part_ok(b) || !key_part_ok(d))
		return -1;
	int n = snprintf(out, MXC_KEY_MAX, "%s%s%s%s%s%s", prefix, a, b ? "|" : "", b ? b : "", d ? "|" : "",
			 d ? d : "");
	return n > 0 && n < MXC_KEY_MAX ? 0 : -1;
}

/* How much of a store key to log: its kind ("e2ee.olm"), not the ids and public keys after it. */
static int kind_len(const char *key)
{
	size_t n = strlen(key) > 5 ? 5 + strcspn(key + 5, ".") : strlen(key);
	return (int)(n > 16 ? 16 : n);
}

/* The value under key parsed as a JSON object, or NULL (none, or not JSON). */
static json_object *st_load(mx_crypto *c, const char *key)
{
	char *buf = malloc(MXC_VALUE_MAX + 1);
	if (!buf)
		return NULL;
	json_object *o = NULL;
	buf[0] = '\0';
	if (c->st.get(c->st.ctx, key, buf, MXC_VALUE_MAX + 1) == 1) {
		buf[MXC_VALUE_MAX] = '\0';
		o = json_tokener_parse(buf);
		if (o && !json_object_is_type(o, json_type_object)) {
			json_object_put(o);
			o = NULL;
		}
		if (!o)
			mxc_log(c, "warn", "e2ee: a stored %.*s value is not readable", kind_len(key), key);
	}
	free_wiped(buf, MXC_VALUE_MAX + 1);
	return o;
}

/* Stores o (NULL deletes) under key; -1 when it is too big or the store refuses. */
static int st_save(mx_crypto *c, const char *key, json_object *o)
{
	char *text = o ? json_text(o) : NULL;
	if (o && (!text || strlen(text) >= MXC_VALUE_MAX)) {
		mxc_log(c, "error", "e2ee: a %.*s value is too big to store", kind_len(key), key);
		free_str_wiped(text);
		return -1;
	}
	int rc = c->st.set(c->st.ctx, key, text);
	if (rc != 0)
		mxc_log(c, "error", "e2ee: could not store a %.*s value", kind_len(key), key);
	free_str_wiped(text);
	return rc == 0 ? 0 : -1;
}

/* ---- libolm objects: made, pickled, unpickled, freed ---- */

/* prefix_new: a new object of libolm's type in memory of its own (NULL
 * when out of memory); prefix_free: wiped and freed (NULL is fine). */
#define OLM_OBJECT(prefix, type, size, init, clear) \
	static type *prefix##_new(void) \
	{ \
		void *m = malloc(size()); \
		return m ? init(m) : NULL; \
	} \
	static void prefix##_free(type *s) \
	{ \
		if (s) { \
			clear(s); \
			free(s); \
		} \
	}

OLM_OBJECT(sess, OlmSession, olm_session_size, olm_session, olm_clear_session)
OLM_OBJECT(out, OlmOutboundGroupSession, olm_outbound_group_session_size, olm_outbound_group_session,
	   olm_clear_outbound_group_session)
OLM_OBJECT(in, OlmInboundGroupSession, olm_inbound_group_session_size, olm_inbound_group_session,
	   olm_clear_inbound_group_session)
OLM_OBJECT(pk, OlmPkDecryption, olm_pk_decryption_size, olm_pk_decryption, olm_clear_pk_decryption)
#undef OLM_OBJECT

/* A pickled object as a new string (caller frees), or NULL: one function a
 * kind of object, as libolm's pickle functions differ only in its type. */
#define MXC_PICKLER(name, type, length_fn, pickle_fn)                                          \
	static char *name(mx_crypto *c, type *o)                                               \
	{                                                                                      \
		size_t len = length_fn(o);                                                     \
		char *p = malloc(len + 1);                                                     \
		if (!p)                                                                        \
			return NULL;                                                           \
		if (pickle_fn(o, c->pickle_key, c->pickle_len, p, len) == olm_error()) {     \
			free(p);                                                               \
			return NULL;                                                           \
		}                                                                              \
		p[len] = '\0';                                                                 \
		return p;                                                                      \
	}
MXC_PICKLER(pickle_account_of, OlmAccount, olm_pickle_account_length, olm_pickle_account)
MXC_PICKLER(pickle_session, OlmSession, olm_pickle_session_length, olm_pickle_session)
MXC_PICKLER(pickle_out, OlmOutboundGroupSession, olm_pickle_outbound_group_session_length,
	    olm_pickle_outbound_group_session)
MXC_PICKLER(pickle_in, OlmInboundGroupSession, olm_pickle_inbound_group_session_length,
	    olm_pickle_inbound_group_session)
MXC_PICKLER(pickle_pk, OlmPkDecryption, olm_pickle_pk_decryption_length, olm_pickle_pk_decryption)

static char *pickle_account(mx_crypto *c)
{
	return pickle_account_of(c, c->acct);
}

/* Unpickles into a new object, or NULL (the pickle text is copied first:
 * libolm destroys its input, and the copy is wiped). */
#define MXC_UNPICKLER(name, type, new_fn, free_fn, unpickle_fn)                                 \
	static type *name(mx_crypto *c, const char *pickle)                                    \
	{                                                                                      \
		type *s = new_fn();                                                            \
		char *p = pickle ? strdup(pickle) : NULL;                                      \
		if (!s || !p || unpickle_fn(s, c->pickle_key, c->pickle_len, p, strlen(p)) == olm_error()) { \
			free_fn(s);                                                            \
			s = NULL;                                                              \
		}                                                                              \
		free_str_wiped(p);                                                             \
		return s;                                                                      \
	}
MXC_UNPICKLER(unpickle_session, OlmSession, sess_new, sess_free, olm_unpickle_session)
MXC_UNPICKLER(unpickle_out, OlmOutboundGroupSession, out_new, out_free, olm_unpickle_outbound_group_session)
MXC_UNPICKLER(unpickle_in, OlmInboundGroupSession, in_new, in_free, olm_unpickle_inbound_group_session)

/* libolm's PkDecryption unpickles with the public key as an extra output. */
static size_t unpickle_pk_of(OlmPkDecryption *d, const void *key, size_t klen, void *p, size_t plen)
{
	uint8_t pub[64];
	return olm_unpickle_pk_decryption(d, key, klen, p, plen, pub, sizeof pub);
}
MXC_UNPICKLER(unpickle_pk, OlmPkDecryption, pk_new, pk_free, unpickle_pk_of)

/* ---- secrets kept as pickles ----
 *
 * A 32-byte private key of another kind (a cross-signing seed) is kept
 * the way libolm keeps its own: as the private key of a PkDecryption
 * object, pickled under the pickle key, so it is never in the clear in
 * the store and one pickle format serves every secret. */

char *mxc_seal(mx_crypto *c, const uint8_t secret[MXC_SECRET_LEN])
{
	OlmPkDecryption *d = pk_new();
	uint8_t pub[64];
	char *p = NULL;
	if (d && olm_pk_private_key_length() == MXC_SECRET_LEN && olm_pk_key_length() < sizeof pub
	    && olm_pk_key_from_private(d, pub, sizeof pub, secret, MXC_SECRET_LEN) != olm_error())
		p = pickle_pk(c, d);
	pk_free(d);
	return p;
}

int mxc_unseal(mx_crypto *c, const char *sealed, uint8_t secret[MXC_SECRET_LEN])
{
	OlmPkDecryption *d = unpickle_pk(c, sealed);
	int rc = d && olm_pk_get_private_key(d, secret, MXC_SECRET_LEN) == MXC_SECRET_LEN ? 0 : -1;
	pk_free(d);
	return rc;
}

/* ---- canonical JSON ---- */

/* Canonical JSON grows to this at most: a Matrix event is at most 64 KiB,
 * and a key upload or a device list is far smaller than this bound. */
#define MXC_CANONICAL_MAX ((size_t)16 << 20)

static void cb_str(strbuf *b, const char *s, size_t n)
{
	sb_addn(b, "\"", 1);
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		sb_addn(b, s + run, i - run);
		run = i + 1;
		char esc[8];
		const char *named = ch == '"' ? "\\\"" : ch == '\\' ? "\\\\" : ch == '\b' ? "\\b" : ch == '\f' ? "\\f"
			: ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : ch == '\t' ? "\\t" : NULL;
		if (!named) {
			snprintf(esc, sizeof esc, "\\u%04x", ch);
			named = esc;
		}
		sb_addn(b, named, strlen(named));
	}
	sb_addn(b, s + run, n - run);
	sb_addn(b, "\"", 1);
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void cb_value(strbuf *b, json_object *o, int depth);

static void cb_object(strbuf *b, json_object *o, int depth)
{
	size_t n = (size_t)json_object_object_length(o), i = 0;
	const char **keys = malloc((n ? n : 1) * sizeof *keys);
	if (!keys) {
		b->cut = 1;
		return;
	}
	json_object_object_foreach(o, k, v) {
		(void)v;
		keys[i++] = k;
	}
	qsort(keys, n, sizeof *keys, key_cmp);
	sb_addn(b, "{", 1);
	for (i = 0; i < n && !b->cut; i++) {
		if (i)
			sb_addn(b, ",", 1);
		cb_str(b, keys[i], strlen(keys[i]));
		sb_addn(b, ":", 1);
		cb_value(b, json_object_object_get(o, keys[i]), depth + 1);
	}
	sb_addn(b, "}", 1);
	free(keys);
}

static void cb_value(strbuf *b, json_object *o, int depth)
{
	char num[32];
	if (depth > MXC_DEPTH_MAX) {
		b->cut = 1;
		return;
	}
	switch (json_object_get_type(o)) {
	case json_type_null:
		sb_addn(b, "null", 4);
		break;
	case json_type_boolean:
		sb_addn(b, json_object_get_boolean(o) ? "true" : "false", json_object_get_boolean(o) ? 4 : 5);
		break;
	case json_type_int: {
		/* Canonical JSON allows the integers a double holds exactly. */
		const int64_t lim = 9007199254740991LL;
		int64_t v = json_object_get_int64(o);
		if (v > lim || v < -lim || (v == INT64_MAX && json_object_get_uint64(o) > (uint64_t)INT64_MAX)) {
			b->cut = 1;
			return;
		}
		snprintf(num, sizeof num, "%" PRId64, v);
		sb_addn(b, num, strlen(num));
		break;
	}
	case json_type_string:
		cb_str(b, json_object_get_string(o), (size_t)json_object_get_string_len(o));
		break;
	case json_type_array:
		sb_addn(b, "[", 1);
		for (size_t i = 0; i < json_object_array_length(o) && !b->cut; i++) {
			if (i)
				sb_addn(b, ",", 1);
			cb_value(b, json_object_array_get_idx(o, i), depth + 1);
		}
		sb_addn(b, "]", 1);
		break;
	case json_type_object:
		cb_object(b, o, depth);
		break;
	default:                 /* a double */
		b->cut = 1;
	}
}

char *mx_canonical_json(json_object *o)
{
	strbuf b;
	sb_init_grow(&b, MXC_CANONICAL_MAX);
	cb_value(&b, o, 0);
	return sb_take(&b);
}

/* The canonical JSON of an object without its "signatures" and "unsigned" (what a signature covers). */
static char *signed_text(json_object *o)
{
	if (!json_object_is_type(o, json_type_object))
		return NULL;
	json_object *copy = json_object_new_object();
	if (!copy)
		return NULL;
	json_object_object_foreach(o, k, v) {
		if (strcmp(k, "signatures") && strcmp(k, "unsigned"))
			json_object_object_add(copy, k, json_object_get(v));
	}
	char *text = mx_canonical_json(copy);
	json_object_put(copy);
	return text;
}

/* Whether o carries a good signature by user's device with ed25519 key ed. */
static int check_signed(mx_crypto *c, json_object *o, const char *user, const char *device, const char *ed)
{
	char kid[MXC_ID_MAX + 16];
	snprintf(kid, sizeof kid, "ed25519:%s", device);
	const char *sig = get_str(get_obj(get_obj(o, "signatures"), user), kid, 256);
	char *text = sig ? signed_text(o) : NULL;
	char *sigcopy = sig ? strdup(sig) : NULL;
	int ok = text && sigcopy
		&& olm_ed25519_verify(c->util, ed, strlen(ed), text, strlen(text), sigcopy, strlen(sigcopy))
			!= olm_error();
	free(text);
	free(sigcopy);
	return ok;
}

/* Signs the canonical JSON of o (without signatures) and adds the signature; -1 on failure. */
static int add_signature(mx_crypto *c, json_object *o)
{
	char *text = signed_text(o);
	size_t siglen = olm_account_signature_length(c->acct);
	char *sig = malloc(siglen + 1);
	int rc = -1;
	if (text && sig && olm_account_sign(c->acct, text, strlen(text), sig, siglen) != olm_error()) {
		sig[siglen] = '\0';
		char kid[MXC_ID_MAX + 16];
		snprintf(kid, sizeof kid, "ed25519:%s", c->device);
		json_object *mine = json_object_new_object(), *sigs = json_object_new_object();
		json_object_object_add(mine, kid, json_object_new_string(sig));
		json_object_object_add(sigs, c->user, mine);
		json_object_object_add(o, "signatures", sigs);
		rc = 0;
	}
	free(text);
	free(sig);
	return rc;
}

/* ---- the account ---- */

/* Stores the account (its pickle and whether the device keys are published); -1 on failure. */
static int save_account(mx_crypto *c)
{
	char *p = pickle_account(c);
	if (!p)
		return -1;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "user", json_object_new_string(c->user));
	json_object_object_add(o, "device", json_object_new_string(c->device));
	json_object_object_add(o, "pickle", json_object_new_string(p));
	json_object_object_add(o, "published", json_object_new_boolean(c->published));
	json_object_object_add(o, "fallback", json_object_new_boolean(c->fallback));
	int rc = st_save(c, "e2ee.account", o);
	json_object_put(o);
	free_str_wiped(p);
	return rc;
}

static int make_account(mx_crypto *c)
{
	size_t rlen = olm_create_account_random_length(c->acct);
	uint8_t *r = random_buf(rlen);
	int rc = r && olm_create_account(c->acct, r, rlen) != olm_error() ? 0 : -1;
	free_wiped(r, rlen);
	return rc;
}

/* Opens the kept account, or makes one; -1 with err written on failure. */
static int load_account(mx_crypto *c, char *err, size_t errlen)
{
	char *buf = malloc(MXC_VALUE_MAX + 1);
	if (!buf)
		return snprintf(err, errlen, "out of memory"), -1;
	buf[0] = '\0';
	int have = c->st.get(c->st.ctx, "e2ee.account", buf, MXC_VALUE_MAX + 1) == 1;
	buf[MXC_VALUE_MAX] = '\0';
	json_object *o = have ? json_tokener_parse(buf) : NULL;
	free_wiped(buf, MXC_VALUE_MAX + 1);
	int rc = -1;
	if (!have) {
		if (make_account(c) < 0)
			snprintf(err, errlen, "could not make an Olm account (no random bytes?)");
		else if (save_account(c) < 0)
			snprintf(err, errlen, "could not store the new Olm account");
		else
			rc = 0;
		return rc;
	}
	const char *user = get_str(o, "user", MXC_ID_MAX), *dev = get_str(o, "device", MXC_ID_MAX);
	const char *pickle = get_str(o, "pickle", MXC_VALUE_MAX);
	json_object *pub = NULL;
	if (!user || !dev || !pickle)
		snprintf(err, errlen, "the kept e2ee account is not readable");
	else if (strcmp(user, c->user) || strcmp(dev, c->device))
		snprintf(err, errlen, "the kept e2ee account is another device's (%.64s %.64s)", user, dev);
	else {
		char *p = strdup(pickle);
		if (p && olm_unpickle_account(c->acct, c->pickle_key, c->pickle_len, p, strlen(p)) != olm_error())
			rc = 0;
		else
			snprintf(err, errlen, "the pickle key does not open the kept e2ee account (%s)",
				 olm_account_last_error(c->acct));
		free_str_wiped(p);
	}
	if (rc == 0 && json_object_object_get_ex(o, "published", &pub))
		c->published = json_object_get_boolean(pub);
	if (rc == 0 && json_object_object_get_ex(o, "fallback", &pub))
		c->fallback = json_object_get_boolean(pub);
	json_object_put(o);
	return rc;
}

/* Reads the identity keys into c->curve and c->ed; -1 on failure. */
static int read_identity(mx_crypto *c)
{
	size_t len = olm_account_identity_keys_length(c->acct);
	char *buf = malloc(len + 1);
	if (!buf || olm_account_identity_keys(c->acct, buf, len) == olm_error()) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	json_object *o = json_tokener_parse(buf);
	free(buf);
	const char *cu = get_str(o, "curve25519", MXC_KEY_B64), *ed = get_str(o, "ed25519", MXC_KEY_B64);
	int rc = cu && ed ? 0 : -1;
	if (rc == 0) {
		snprintf(c->curve, sizeof c->curve, "%s", cu);
		snprintf(c->ed, sizeof c->ed, "%s", ed);
	}
	json_object_put(o);
	return rc;
}

mx_crypto *mx_crypto_new(const char *user_id, const char *device_id, const char *pickle_key,
			 const mx_crypto_store *st, char *err, size_t errlen)
{
	char dummy[1];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (!user_id || !device_id || !*user_id || !*device_id || strlen(user_id) > MXC_ID_MAX
	    || strlen(device_id) > MXC_ID_MAX || !pickle_key || strlen(pickle_key) < 16 || !st || !st->get
	    || !st->set) {
		snprintf(err, errlen, "bad e2ee parameters (ids, a pickle key of at least 16 bytes, the store)");
		return NULL;
	}
	mx_crypto *c = calloc(1, sizeof *c);
	void *am = malloc(olm_account_size()), *um = malloc(olm_utility_size());
	if (!c || !am || !um) {
		free(c);
		free(am);
		free(um);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(c->user, sizeof c->user, "%s", user_id);
	snprintf(c->device, sizeof c->device, "%s", device_id);
	c->pickle_len = strlen(pickle_key);
	c->pickle_key = strdup(pickle_key);
	c->st = *st;
	c->acct = olm_account(am);
	c->util = olm_utility(um);
	if (!c->pickle_key || load_account(c, err, errlen) < 0 || read_identity(c) < 0) {
		if (!err[0])
			snprintf(err, errlen, "could not read the e2ee account's keys");
		mx_crypto_free(c);
		return NULL;
	}
	return c;
}

void mx_crypto_free(mx_crypto *c)
{
	if (!c)
		return;
	olm_clear_account(c->acct);
	free(c->acct);
	olm_clear_utility(c->util);
	free(c->util);
	free_wiped(c->pickle_key, c->pickle_len);
	for (int i = 0; i < c->nrooms; i++)
		free(c->rooms[i].room);
	free(c->rooms);
	explicit_bzero(c, sizeof *c);
	free(c);
}

const char *mx_crypto_curve25519(const mx_crypto *c)
{
	return c->curve;
}

const char *mx_crypto_ed25519(const mx_crypto *c)
{
	return c->ed;
}

void mx_crypto_fingerprint(const mx_crypto *c, char *out, size_t len)
{
	size_t o = 0, n = strlen(c->ed);
	if (!len)
		return;
	/* Whole groups only: a short buffer gets the first few. */
	for (size_t i = 0; i < n; i += 4) {
		size_t g = n - i < 4 ? n - i : 4;
		if (o + (i ? 1 : 0) + g + 1 > len)
			break;
		if (i)
			out[o++] = ' ';
		memcpy(out + o, c->ed + i, g);
		o += g;
	}
	out[o] = '\0';
}

/* ---- publishing keys ---- */

json_object *mxc_device_keys_of(const char *user, const char *dev, const char *curve, const char *ed)
{
	char kid[MXC_ID_MAX + 16];
	json_object *o = json_object_new_object(), *algos = json_object_new_array(), *keys = json_object_new_object();
	json_object_object_add(o, "user_id", json_object_new_string(user));
	json_object_object_add(o, "device_id", json_object_new_string(dev));
	json_object_array_add(algos, json_object_new_string(MXC_OLM_ALGO));
	json_object_array_add(algos, json_object_new_string(MXC_MEGOLM_ALGO));
	json_object_object_add(o, "algorithms", algos);
	snprintf(kid, sizeof kid, "curve25519:%.*s", MXC_ID_MAX, dev);
	json_object_object_add(keys, kid, json_object_new_string(curve));
	snprintf(kid, sizeof kid, "ed25519:%.*s", MXC_ID_MAX, dev);
	json_object_object_add(keys, kid, json_object_new_string(ed));
	json_object_object_add(o, "keys", keys);
	return o;
}

static json_object *device_keys(mx_crypto *c)
{
	json_object *o = mxc_device_keys_of(c->user, c->device, c->curve, c->ed);
	if (add_signature(c, o) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The account's unpublished keys of one kind ({"curve25519": {id: key}} from the getter), or NULL. */
static json_object *account_keys(mx_crypto *c, size_t (*len_fn)(OlmAccount const *),
				 size_t (*get_fn)(OlmAccount *, void *, size_t))
{
	size_t len = len_fn(c->acct);
	char *buf = malloc(len + 1);
	if (!buf || get_fn(c->acct, buf, len) == olm_error()) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	json_object *o = json_tokener_parse(buf);
	free(buf);
	json_object *keys = get_obj(o, "curve25519");
	if (keys)
		json_object_get(keys);
	json_object_put(o);
	return keys;
}

static json_object *unpublished_keys(mx_crypto *c)
{
	return account_keys(c, olm_account_one_time_keys_length, olm_account_one_time_keys);
}

/* The fallback key not yet published ({} when it is, or there is none), or NULL. */
static json_object *unpublished_fallback(mx_crypto *c)
{
	return account_keys(c, olm_account_unpublished_fallback_key_length, olm_account_unpublished_fallback_key);
}

/* Makes a new fallback key (libolm keeps the one before too, for messages
 * already on their way); the caller stores the account. -1 on failure. */
static int make_fallback_key(mx_crypto *c)
{
	size_t rlen = olm_account_generate_fallback_key_random_length(c->acct);
	uint8_t *r = random_buf(rlen);
	int rc = r && olm_account_generate_fallback_key(c->acct, r, rlen) != olm_error() ? 0 : -1;
	free_wiped(r, rlen);
	if (rc == 0)
		c->fallback = 1;
	return rc;
}

/* Makes n new one-time keys (the caller stores the account); -1 on failure. */
static int make_one_time_keys(mx_crypto *c, size_t n)
{
	size_t rlen = olm_account_generate_one_time_keys_random_length(c->acct, n);
	uint8_t *r = random_buf(rlen);
	int rc = r && olm_account_generate_one_time_keys(c->acct, n, r, rlen) != olm_error() ? 0 : -1;
	free_wiped(r, rlen);
	return rc;
}

/* Signed keys for /keys/upload: one-time keys, or (fallback) the fallback key, marked so under the signature. */
static json_object *signed_one_time_keys(mx_crypto *c, json_object *keys, int fallback)
{
	json_object *out = json_object_new_object();
	json_object_object_foreach(keys, id, key) {
		char kid[128];
		json_object *k = json_object_new_object();
		json_object_object_add(k, "key", json_object_get(key));
		if (fallback)
			json_object_object_add(k, "fallback", json_object_new_boolean(1));
		snprintf(kid, sizeof kid, "signed_curve25519:%.100s", id);
		if (add_signature(c, k) < 0) {
			json_object_put(k);
			json_object_put(out);
			return NULL;
		}
		json_object_object_add(out, kid, k);
	}
	return out;
}

char *mx_crypto_upload_body(mx_crypto *c, int server_count)
{
	json_object *keys = unpublished_keys(c);
	if (!keys)
		return NULL;
	int target = (int)(olm_account_max_number_of_one_time_keys(c->acct) / 2);
	int unpub = json_object_object_length(keys);
	/* Unknown count: a device not yet published has none up there; else make none blindly. */
	int have = server_count >= 0 ? server_count : c->published ? target : 0;
	if (have > target)
		have = target;
	if (have + unpub < target) {
		json_object_put(keys);
		if (make_one_time_keys(c, (size_t)(target - have - unpub)) < 0 || !(keys = unpublished_keys(c)))
			return NULL;
	}
	/* A fallback key (spec v1.2) answers claims once the one-time keys have
	 * run out: made with the first upload (or the first after an update). */
	if (!c->fallback && make_fallback_key(c) < 0)
		mxc_log(c, "warn", "e2ee: no fallback key could be made");
	json_object *fb = unpublished_fallback(c);
	int nfb = fb ? json_object_object_length(fb) : 0;
	if (c->published && json_object_object_length(keys) == 0 && nfb == 0) {
		json_object_put(keys);
		json_object_put(fb);
		return NULL;
	}
	/* Whatever goes up is kept first (also keys made by an earlier call whose store failed). */
	if (save_account(c) < 0) {
		json_object_put(keys);
		json_object_put(fb);
		return NULL;
	}
	json_object *body = json_object_new_object(), *otks = signed_one_time_keys(c, keys, 0);
	json_object *fbs = nfb ? signed_one_time_keys(c, fb, 1) : NULL;
	json_object *dev = c->published ? NULL : device_keys(c);
	json_object_put(keys);
	json_object_put(fb);
	char *text = NULL;
	if (otks && (c->published || dev) && (fbs || !nfb)) {
		if (dev)
			json_object_object_add(body, "device_keys", dev);
		json_object_object_add(body, "one_time_keys", otks);
		if (fbs)
			json_object_object_add(body, "fallback_keys", fbs);
		text = json_text(body);
	} else {
		json_object_put(otks);
		json_object_put(fbs);
		json_object_put(dev);
	}
	json_object_put(body);
	return text;
}

int mx_crypto_fallback_used(mx_crypto *c)
{
	json_object *fb = unpublished_fallback(c);
	int waiting = !fb || json_object_object_length(fb) > 0;
	json_object_put(fb);
	if (waiting || !c->published)
		return 0;
	if (make_fallback_key(c) < 0 || save_account(c) < 0) {
		mxc_log(c, "warn", "e2ee: a new fallback key could not be made or stored");
		return 0;
	}
	mxc_log(c, "debug", "e2ee: the fallback key was used: a new one goes up");
	return 1;
}

int mx_crypto_upload_done(mx_crypto *c, json_object *reply)
{
	olm_account_mark_keys_as_published(c->acct);
	c->published = 1;
	if (save_account(c) < 0)
		mxc_log(c, "error", "e2ee: the published keys could not be stored");
	json_object *n;
	json_object *counts = get_obj(reply, "one_time_key_counts");
	if (!counts)
		return -1;
	if (!json_object_object_get_ex(counts, "signed_curve25519", &n))
		return 0;        /* the server leaves out a count of none */
	if (!json_object_is_type(n, json_type_int) || json_object_get_int64(n) < 0
	    || json_object_get_int64(n) > INT32_MAX)
		return -1;
	return (int)json_object_get_int64(n);
}

/* ---- other devices: trust on first use ----
 *
 * "e2ee.dev.<user>" holds {"known": true, "devices": {id: {"curve", "ed",
 * "state"}}}: state "ok" (listed by the last query, keys as first seen),
 * "gone" (no longer listed: not used, but its keys stay pinned should it
 * come back) or "refused" (it came back under other keys: never used
 * again). At most MXC_DEVICES_MAX entries: a gone one makes room for a new
 * device (its pin is then lost), else the new device is ignored. */

static json_object *load_user(mx_crypto *c, const char *user)
{
	char key[MXC_KEY_MAX];
	if (!user || strlen(user) > MXC_ID_MAX || key_of(key, "e2ee.dev.", user, NULL, NULL) < 0)
		return NULL;
	return st_load(c, key);
}

/* A queried device's keys, checked (ids, algorithms, self-signature): 0 with curve and ed set, else -1. */
static int read_device(mx_crypto *c, const char *user, const char *dev, json_object *keys, const char **curve,
		       const char **ed)
{
	char kid[MXC_ID_MAX + 16];
	const char *u = get_str(keys, "user_id", MXC_ID_MAX), *d = get_str(keys, "device_id", MXC_ID_MAX);
	if (!u || !d || strcmp(u, user) || strcmp(d, dev))
		return -1;
	json_object *algos, *k = get_obj(keys, "keys");
	int olm = 0, megolm = 0;
	if (!json_object_object_get_ex(keys, "algorithms", &algos) || !json_object_is_type(algos, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(algos); i++) {
		const char *a = json_object_get_string(json_object_array_get_idx(algos, i));
		olm |= a && !strcmp(a, MXC_OLM_ALGO);
		megolm |= a && !strcmp(a, MXC_MEGOLM_ALGO);
	}
	snprintf(kid, sizeof kid, "curve25519:%s", dev);
	*curve = get_str(k, kid, MXC_KEY_B64);
	snprintf(kid, sizeof kid, "ed25519:%s", dev);
	*ed = get_str(k, kid, MXC_KEY_B64);
	if (!olm || !megolm || !is_b64_key(*curve) || !is_b64_key(*ed))
		return -1;
	return check_signed(c, keys, user, dev, *ed) ? 0 : -1;
}

/* Makes room for one more device entry; -1 when there is none. */
static int make_room(json_object *devs)
{
	if (json_object_object_length(devs) < MXC_DEVICES_MAX)
		return 0;
	json_object_object_foreach(devs, id, e) {
		const char *state = get_str(e, "state", 16);
		if (state && !strcmp(state, "gone")) {
			json_object_object_del(devs, id);
			return 0;
		}
	}
	return -1;
}

static void set_state(json_object *e, const char *state)
{
	json_object_object_add(e, "state", json_object_new_string(state));
}

/* One listed device against what is pinned. */
static void pin_device(mx_crypto *c, const char *user, const char *dev, json_object *keys, json_object *devs)
{
	const char *curve, *ed;
	if (!strcmp(user, c->user) && !strcmp(dev, c->device))
		return;
	if (strlen(dev) > MXC_ID_MAX || read_device(c, user, dev, keys, &curve, &ed) < 0) {
		mxc_log(c, "debug", "e2ee: device %.64s of %.100s ignored (bad keys or signature)", dev, user);
		return;
	}
	json_object *e = get_obj(devs, dev);
	if (e) {
		const char *state = get_str(e, "state", 16), *pc = get_str(e, "curve", 64), *pe = get_str(e, "ed", 64);
		if (state && !strcmp(state, "refused"))
			return;
		if (!pc || !pe || strcmp(pc, curve) || strcmp(pe, ed)) {
			mxc_log(c, "warn", "e2ee: device %.64s of %.100s changed its keys: refused for good", dev,
				user);
			set_state(e, "refused");
		} else
			set_state(e, "ok");
		return;
	}
	if (make_room(devs) < 0) {
		mxc_log(c, "info", "e2ee: %.100s has more than %d devices: %.64s ignored", user, MXC_DEVICES_MAX, dev);
		return;
	}
	e = json_object_new_object();
	json_object_object_add(e, "curve", json_object_new_string(curve));
	json_object_object_add(e, "ed", json_object_new_string(ed));
	set_state(e, "ok");
	json_object_object_add(devs, dev, e);
}

static int read_user(mx_crypto *c, const char *user, json_object *listed)
{
	char key[MXC_KEY_MAX];
	if (strlen(user) > MXC_ID_MAX || !json_object_is_type(listed, json_type_object)
	    || key_of(key, "e2ee.dev.", user, NULL, NULL) < 0)
		return -1;
	json_object *rec = st_load(c, key), *devs = get_obj(rec, "devices");
	if (!rec)
		rec = json_object_new_object();
	if (!devs) {
		devs = json_object_new_object();
		json_object_object_add(rec, "devices", devs);
	}
	json_object_object_foreach(devs, id, e) {
		const char *state = get_str(e, "state", 16);
		(void)id;
		if (!state || !strcmp(state, "ok"))
			set_state(e, "gone");
	}
	json_object_object_foreach(listed, dev, keys)
		pin_device(c, user, dev, keys, devs);
	json_object_object_add(rec, "known", json_object_new_boolean(1));
	int rc = st_save(c, key, rec);
	json_object_put(rec);
	return rc;
}

/* Each user's entry of the object `key` of a keys reply, through each
 * (which says how many it took in); -1 when the reply has no such object. */
static int reply_users(mx_crypto *c, json_object *reply, const char *key,
		       int (*each)(mx_crypto *c, const char *user, json_object *entry))
{
	json_object *users = get_obj(reply, key);
	if (!users)
		return -1;
	int n = 0;
	json_object_object_foreach(users, user, entry)
		n += each(c, user, entry);
	return n;
}

static int query_user(mx_crypto *c, const char *user, json_object *listed)
{
	return read_user(c, user, listed) == 0;
}

int mx_crypto_query_done(mx_crypto *c, json_object *reply)
{
	return reply_users(c, reply, "device_keys", query_user);
}

int mx_crypto_devices(mx_crypto *c, const char *user, char ids[][256], int max)
{
	json_object *rec = load_user(c, user), *devs = get_obj(rec, "devices");
	int n = 0;
	if (devs) {
		json_object_object_foreach(devs, id, e) {
			const char *state = get_str(e, "state", 16);
			if (!state || strcmp(state, "ok"))
				continue;
			if (ids && n < max)
				snprintf(ids[n], 256, "%s", id);
			n++;
		}
	}
	json_object_put(rec);
	return n;
}

int mx_crypto_user_known(mx_crypto *c, const char *user)
{
	json_object *rec = load_user(c, user), *k;
	int known = rec && json_object_object_get_ex(rec, "known", &k) && json_object_get_boolean(k);
	json_object_put(rec);
	return known;
}

/* ---- Olm sessions ----
 *
 * "e2ee.olm.<curve25519 key>" holds {"sessions": [pickle, ...]}: the
 * session last made or last used to decrypt first (the one messages are
 * sent with), at most MXC_OLM_KEEP. */

static json_object *load_sessions(mx_crypto *c, const char *curve)
{
	char key[MXC_KEY_MAX];
	json_object *rec = key_of(key, "e2ee.olm.", curve, NULL, NULL) == 0 ? st_load(c, key) : NULL, *arr;
	if (!rec || !json_object_object_get_ex(rec, "sessions", &arr) || !json_object_is_type(arr, json_type_array)) {
		json_object_put(rec);
		return NULL;
	}
	json_object_get(arr);
	json_object_put(rec);
	return arr;
}

static int has_session(mx_crypto *c, const char *curve)
{
	json_object *arr = load_sessions(c, curve);
	int n = arr ? (int)json_object_array_length(arr) : 0;
	json_object_put(arr);
	return n > 0;
}

/* Stores s first in the device's list, in place of the old entry `was` (-1: a new session); -1 on failure. */
static int save_session(mx_crypto *c, const char *curve, OlmSession *s, json_object *old, int was)
{
	char key[MXC_KEY_MAX];
	char *p = pickle_session(c, s);
	if (!p || key_of(key, "e2ee.olm.", curve, NULL, NULL) < 0) {
		free_str_wiped(p);
		return -1;
	}
	json_object *arr = json_object_new_array();
	json_object_array_add(arr, json_object_new_string(p));
	free_str_wiped(p);
	size_t nold = old ? json_object_array_length(old) : 0;
	for (size_t i = 0; i < nold && json_object_array_length(arr) < MXC_OLM_KEEP; i++)
		if ((int)i != was)
			json_object_array_add(arr, json_object_get(json_object_array_get_idx(old, i)));
	json_object *rec = json_object_new_object();
	json_object_object_add(rec, "sessions", arr);
	int rc = st_save(c, key, rec);
	json_object_put(rec);
	return rc;
}

/* Encrypts plain for the device with this curve key with its current session (stored after): the
 * ciphertext object {"type", "body"}, or NULL. */
static json_object *olm_encrypt_for(mx_crypto *c, const char *curve, const char *plain)
{
	json_object *arr = load_sessions(c, curve);
	json_object *first = arr && json_object_array_length(arr) ? json_object_array_get_idx(arr, 0) : NULL;
	const char *pk = first ? json_object_get_string(first) : NULL;
	OlmSession *s = pk ? unpickle_session(c, pk) : NULL;
	json_object *out = NULL;
	if (s) {
		size_t type = olm_encrypt_message_type(s), rlen = olm_encrypt_random_length(s);
		size_t mlen = olm_encrypt_message_length(s, strlen(plain));
		uint8_t *r = random_buf(rlen);
		char *msg = malloc(mlen + 1);
		if (r && msg && type != olm_error()
		    && olm_encrypt(s, plain, strlen(plain), r, rlen, msg, mlen) != olm_error()
		    && save_session(c, curve, s, arr, 0) == 0) {
			out = json_object_new_object();
			json_object_object_add(out, "type", json_object_new_int((int)type));
			json_object_object_add(out, "body", json_object_new_string_len(msg, (int)mlen));
		}
		free_wiped(r, rlen);
		free(msg);
	}
	sess_free(s);
	json_object_put(arr);
	return out;
}

/* Trusted devices: calls fn for each device of user in state ok. */
typedef void (*dev_fn)(mx_crypto *c, const char *user, const char *dev, const char *curve, const char *ed, void *arg);

static void each_device(mx_crypto *c, const char *user, dev_fn fn, void *arg)
{
	json_object *rec = load_user(c, user), *devs = get_obj(rec, "devices");
	if (devs) {
		json_object_object_foreach(devs, id, e) {
			const char *state = get_str(e, "state", 16), *cu = get_str(e, "curve", MXC_KEY_B64);
			const char *ed = get_str(e, "ed", MXC_KEY_B64);
			if (state && !strcmp(state, "ok") && cu && ed)
				fn(c, user, id, cu, ed, arg);
		}
	}
	json_object_put(rec);
}

/* A device's pinned entry, or NULL; *rec must be put by the caller. */
static json_object *find_device(mx_crypto *c, const char *user, const char *dev, json_object **rec)
{
	*rec = load_user(c, user);
	return get_obj(get_obj(*rec, "devices"), dev);
}

/* The back-off of the device with this curve key, or NULL. */
static claim_wait *find_wait(mx_crypto *c, const char *curve)
{
	for (int i = 0; i < c->nwaits; i++)
		if (!strcmp(c->waits[i].curve, curve))
			return &c->waits[i];
	return NULL;
}

/* A device is asked for now: its next claim waits MXC_CLAIM_WAIT_MS, doubling each time up to
 * MXC_CLAIM_WAIT_MAX_MS, unless a session comes of this one (its wait is then dropped). */
static void start_wait(mx_crypto *c, const char *curve, int64_t now_ms)
{
	claim_wait *w = find_wait(c, curve);
	if (!w) {
		if (c->nwaits == MXC_CLAIM_WAITS) {
			int old = 0;
			for (int i = 1; i < c->nwaits; i++)
				if (c->waits[i].next < c->waits[old].next)
					old = i;
			c->waits[old] = c->waits[--c->nwaits];
		}
		w = &c->waits[c->nwaits++];
		snprintf(w->curve, sizeof w->curve, "%s", curve);
		w->wait = 0;
	}
	w->wait = w->wait ? w->wait * 2 : MXC_CLAIM_WAIT_MS;
	if (w->wait > MXC_CLAIM_WAIT_MAX_MS)
		w->wait = MXC_CLAIM_WAIT_MAX_MS;
	w->next = now_ms + w->wait;
	w->last = 1;
}

static void drop_wait(mx_crypto *c, const char *curve)
{
	claim_wait *w = find_wait(c, curve);
	if (w)
		*w = c->waits[--c->nwaits];
}

typedef struct claim_ctx {
	json_object *body;
	int64_t now;
} claim_ctx;

static void claim_one(mx_crypto *c, const char *user, const char *dev, const char *curve, const char *ed, void *arg)
{
	claim_ctx *x = arg;
	json_object *u;
	(void)ed;
	if (has_session(c, curve))
		return;
	const claim_wait *w = find_wait(c, curve);
	if (w && x->now < w->next)
		return;
	if (!json_object_object_get_ex(x->body, user, &u)) {
		u = json_object_new_object();
		json_object_object_add(x->body, user, u);
	}
	json_object_object_add(u, dev, json_object_new_string("signed_curve25519"));
	start_wait(c, curve, x->now);
}

char *mx_crypto_claim_body(mx_crypto *c, const char *const *users, int nusers, int64_t now_ms)
{
	claim_ctx x = { json_object_new_object(), now_ms };
	for (int i = 0; i < c->nwaits; i++)
		c->waits[i].last = 0;
	for (int i = 0; users && i < nusers; i++)
		if (users[i])
			each_device(c, users[i], claim_one, &x);
	char *text = NULL;
	if (json_object_object_length(x.body) > 0) {
		json_object *body = json_object_new_object();
		json_object_object_add(body, "one_time_keys", json_object_get(x.body));
		json_object_object_add(body, "timeout", json_object_new_int(10000));
		text = json_text(body);
		json_object_put(body);
	}
	json_object_put(x.body);
	return text;
}

void mx_crypto_claim_failed(mx_crypto *c)
{
	for (int i = 0; i < c->nwaits; i++)
		if (c->waits[i].last) {
			c->waits[i].next = 0;
			c->waits[i].wait /= 2;
			c->waits[i].last = 0;
		}
}

/* An outbound session to the device from one of its claimed keys; 1 when made. */
static int session_from_claim(mx_crypto *c, const char *user, const char *dev, json_object *keys)
{
	json_object *rec, *e = find_device(c, user, dev, &rec);
	const char *state = get_str(e, "state", 16), *curve = get_str(e, "curve", MXC_KEY_B64);
	const char *ed = get_str(e, "ed", MXC_KEY_B64);
	int made = 0;
	if (!state || strcmp(state, "ok") || !curve || !ed || !json_object_is_type(keys, json_type_object)) {
		json_object_put(rec);
		return 0;
	}
	json_object_object_foreach(keys, kid, k) {
		const char *otk = get_str(k, "key", MXC_KEY_B64);
		if (made || strncmp(kid, "signed_curve25519:", 18) || !is_b64_key(otk)
		    || !check_signed(c, k, user, dev, ed)) {
			if (!made)
				mxc_log(c, "debug", "e2ee: a claimed key of %.64s of %.100s is refused", dev, user);
			continue;
		}
		OlmSession *s = sess_new();
		size_t rlen = s ? olm_create_outbound_session_random_length(s) : 0;
		uint8_t *r = s ? random_buf(rlen) : NULL;
		json_object *old = load_sessions(c, curve);
		if (r && olm_create_outbound_session(s, c->acct, curve, strlen(curve), otk, strlen(otk), r, rlen)
		    != olm_error() && save_session(c, curve, s, old, -1) == 0) {
			made = 1;
			drop_wait(c, curve);
		}
		json_object_put(old);
		free_wiped(r, rlen);
		sess_free(s);
	}
	json_object_put(rec);
	return made;
}

static int claim_user(mx_crypto *c, const char *user, json_object *devs)
{
	if (strlen(user) > MXC_ID_MAX || !json_object_is_type(devs, json_type_object))
		return 0;
	int n = 0;
	json_object_object_foreach(devs, dev, keys) {
		if (strlen(dev) <= MXC_ID_MAX)
			n += session_from_claim(c, user, dev, keys);
	}
	return n;
}

int mx_crypto_claim_done(mx_crypto *c, json_object *reply)
{
	return reply_users(c, reply, "one_time_keys", claim_user);
}

/* ---- rooms: outbound Megolm sessions ----
 *
 * "e2ee.out.<room>" holds {"pickle", "id", "created" (ms), "shared": {user:
 * [device, ...]}, "last": {user: [device, ...]}} ("last": the devices of
 * the last share body, given back by share_failed). Rotation settings are
 * kept in memory only: the adapter gives them on each start. */

static room_set *find_settings(mx_crypto *c, const char *room)
{
	for (int i = 0; i < c->nrooms; i++)
		if (!strcmp(c->rooms[i].room, room))
			return &c->rooms[i];
	return NULL;
}

void mx_crypto_room_settings(mx_crypto *c, const char *room, long rotation_msgs, int64_t rotation_ms)
{
	if (!room || strlen(room) > MXC_ID_MAX)
		return;
	room_set *r = find_settings(c, room);
	if (!r) {
		size_t want = (size_t)(c->nrooms + 1) * sizeof *c->rooms;
		room_set *nr = c->nrooms < MXC_ROOMS_MAX ? realloc(c->rooms, want) : NULL;
		char *name = nr ? strdup(room) : NULL;
		if (nr)
			c->rooms = nr;
		if (!name) {
			mxc_log(c, "warn", "e2ee: the rotation settings of %.100s are not kept (too many rooms)", room);
			return;
		}
		r = &c->rooms[c->nrooms++];
		r->room = name;
	}
	r->msgs = rotation_msgs > 0 && rotation_msgs < MXC_ROTATE_MSGS ? rotation_msgs : MXC_ROTATE_MSGS;
	r->ms = rotation_ms > 0 && rotation_ms < MXC_ROTATE_MS ? rotation_ms : MXC_ROTATE_MS;
}

static int out_key(char *key, const char *room)
{
	return room && strlen(room) <= MXC_ID_MAX && *room ? key_of(key, "e2ee.out.", room, NULL, NULL) : -1;
}

void mx_crypto_room_rotate(mx_crypto *c, const char *room)
{
	char key[MXC_KEY_MAX];
	if (out_key(key, room) == 0 && c->st.set(c->st.ctx, key, NULL) != 0)
		mxc_log(c, "error", "e2ee: could not drop the outbound session of %.100s", room);
}

/* Whether the session is due for replacement at now_ms. */
static int out_due(mx_crypto *c, const char *room, OlmOutboundGroupSession *s, json_object *rec, int64_t now_ms)
{
	room_set *r = find_settings(c, room);
	long msgs = r ? r->msgs : MXC_ROTATE_MSGS;
	int64_t ms = r ? r->ms : MXC_ROTATE_MS;
	json_object *cr;
	int64_t created = json_object_object_get_ex(rec, "created", &cr) ? json_object_get_int64(cr) : 0;
	return (long)olm_outbound_group_session_message_index(s) >= msgs || now_ms - created >= ms || now_ms < created;
}

static char *out_id(OlmOutboundGroupSession *s)
{
	size_t len = olm_outbound_group_session_id_length(s);
	char *id = malloc(len + 1);
	if (id && olm_outbound_group_session_id(s, (uint8_t *)id, len) == olm_error()) {
		free(id);
		return NULL;
	}
	if (id)
		id[len] = '\0';
	return id;
}

/* Stores the session into rec (its pickle and id) and rec under key; -1 on failure. */
static int save_out(mx_crypto *c, const char *key, OlmOutboundGroupSession *s, json_object *rec)
{
	char *p = pickle_out(c, s), *id = out_id(s);
	int rc = -1;
	if (p && id) {
		json_object_object_add(rec, "pickle", json_object_new_string(p));
		json_object_object_add(rec, "id", json_object_new_string(id));
		rc = st_save(c, key, rec);
	}
	free_str_wiped(p);
	free(id);
	return rc;
}

/* The room's outbound session and its record (*rec), or NULL when there is none. */
static OlmOutboundGroupSession *load_out(mx_crypto *c, const char *key, json_object **rec)
{
	*rec = st_load(c, key);
	const char *p = get_str(*rec, "pickle", MXC_VALUE_MAX);
	OlmOutboundGroupSession *s = p ? unpickle_out(c, p) : NULL;
	if (!s) {
		json_object_put(*rec);
		*rec = NULL;
	}
	return s;
}

static int own_new(mx_crypto *c, const char *room, OlmOutboundGroupSession *s);

/* A new outbound session for room (under key), with its record (*rec) and its own copy kept first. */
static OlmOutboundGroupSession *new_out(mx_crypto *c, const char *room, const char *key, int64_t now_ms,
				       json_object **rec)
{
	OlmOutboundGroupSession *s = out_new();
	size_t rlen = s ? olm_init_outbound_group_session_random_length(s) : 0;
	uint8_t *r = s ? random_buf(rlen) : NULL;
	*rec = NULL;
	if (r && olm_init_outbound_group_session(s, r, rlen) != olm_error() && own_new(c, room, s) == 0) {
		*rec = json_object_new_object();
		json_object_object_add(*rec, "created", json_object_new_int64(now_ms));
		json_object_object_add(*rec, "shared", json_object_new_object());
		json_object_object_add(*rec, "last", json_object_new_object());
		if (save_out(c, key, s, *rec) < 0) {
			json_object_put(*rec);
			*rec = NULL;
		}
	}
	free_wiped(r, rlen);
	if (!*rec) {
		out_free(s);
		return NULL;
	}
	return s;
}

/* Whether list ({user: [device]}) holds user's device. */
static int list_has(json_object *list, const char *user, const char *dev)
{
	json_object *arr;
	if (!json_object_object_get_ex(list, user, &arr) || !json_object_is_type(arr, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		const char *d = json_object_get_string(json_object_array_get_idx(arr, i));
		if (d && !strcmp(d, dev))
			return 1;
	}
	return 0;
}

static void list_add(json_object *list, const char *user, const char *dev)
{
	json_object *arr;
	if (!json_object_object_get_ex(list, user, &arr) || !json_object_is_type(arr, json_type_array)) {
		arr = json_object_new_array();
		json_object_object_add(list, user, arr);
	}
	json_object_array_add(arr, json_object_new_string(dev));
}

typedef struct share_ctx {
	const char *room, *sid, *skey;
	json_object *shared, *last, *msgs;
	int given, missing, failed;
} share_ctx;

/* The content of an m.room.encrypted to-device event that carries an event of
 * this type and content to user's device (curve, ed) over the bot's current
 * Olm session with it, or NULL: the one place an Olm event is made (room keys
 * and forwarded room keys). The plaintext is wiped; a secret inside content is
 * the caller's to wipe. */
static json_object *olm_event_for(mx_crypto *c, const char *user, const char *curve, const char *ed,
				  const char *type, json_object *content)
{
	json_object *o = json_object_new_object(), *k = json_object_new_object(), *rk = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "content", json_object_get(content));
	json_object_object_add(o, "sender", json_object_new_string(c->user));
	json_object_object_add(o, "sender_device", json_object_new_string(c->device));
	json_object_object_add(k, "ed25519", json_object_new_string(c->ed));
	json_object_object_add(o, "keys", k);
	json_object_object_add(o, "recipient", json_object_new_string(user));
	json_object_object_add(rk, "ed25519", json_object_new_string(ed));
	json_object_object_add(o, "recipient_keys", rk);
	char *plain = json_text(o);
	json_object_put(o);
	json_object *ct = plain ? olm_encrypt_for(c, curve, plain) : NULL;
	free_str_wiped(plain);
	if (!ct)
		return NULL;
	json_object *out = json_object_new_object(), *cipher = json_object_new_object();
	json_object_object_add(out, "algorithm", json_object_new_string(MXC_OLM_ALGO));
	json_object_object_add(out, "sender_key", json_object_new_string(c->curve));
	json_object_object_add(cipher, curve, ct);
	json_object_object_add(out, "ciphertext", cipher);
	return out;
}

/* A sendToDevice body with one message, content, for user's device dev (content is taken). */
static char *to_device_body(const char *user, const char *dev, json_object *content)
{
	json_object *body = json_object_new_object(), *msgs = json_object_new_object(), *u = json_object_new_object();
	json_object_object_add(u, dev, content);
	json_object_object_add(msgs, user, u);
	json_object_object_add(body, "messages", msgs);
	char *text = json_text(body);
	json_object_put(body);
	return text;
}

static void share_one(mx_crypto *c, const char *user, const char *dev, const char *curve, const char *ed, void *arg)
{
	share_ctx *x = arg;
	if (x->failed || list_has(x->shared, user, dev))
		return;
	if (!has_session(c, curve)) {
		x->missing++;
		return;
	}
	json_object *rk = json_object_new_object(), *skey = json_object_new_string(x->skey), *u;
	json_object_object_add(rk, "algorithm", json_object_new_string(MXC_MEGOLM_ALGO));
	json_object_object_add(rk, "room_id", json_object_new_string(x->room));
	json_object_object_add(rk, "session_id", json_object_new_string(x->sid));
	json_object_object_add(rk, "session_key", json_object_get(skey));
	json_object *content = olm_event_for(c, user, curve, ed, "m.room_key", rk);
	wipe_json_str(skey);
	json_object_put(skey);
	json_object_put(rk);
	if (!content) {
		x->failed = 1;
		return;
	}
	if (!json_object_object_get_ex(x->msgs, user, &u)) {
		u = json_object_new_object();
		json_object_object_add(x->msgs, user, u);
	}
	json_object_object_add(u, dev, content);
	list_add(x->shared, user, dev);
	list_add(x->last, user, dev);
	x->given++;
}

/* The session's key (a secret: caller wipes and frees), or NULL. */
static char *out_session_key(OlmOutboundGroupSession *s)
{
	size_t len = olm_outbound_group_session_key_length(s);
	char *k = malloc(len + 1);
	if (k && olm_outbound_group_session_key(s, (uint8_t *)k, len) == olm_error()) {
		free_wiped(k, len + 1);
		return NULL;
	}
	if (k)
		k[len] = '\0';
	return k;
}

/* ---- the bot's own Megolm sessions, kept for key requests ----
 *
 * "e2ee.own.<room>|<session id>" holds {"pickle" (an inbound session from
 * the session's first index), "users": {user: index}}: each user the
 * session was given to, or would have been given to (one of the room's
 * people whose devices had no Olm session yet), with the message index the
 * session was at when they were first named: the first message they may
 * read, and so the first index a forwarded key of it may start at
 * (docs/SECURITY.md, "Key requests on Matrix"). Kept when the room's
 * session is replaced, so an earlier message can be answered for. */

static int own_key(char *key, const char *room, const char *sid)
{
	if (!room || !*room || strlen(room) > MXC_ID_MAX || !sid || !*sid || strlen(sid) > MXC_SID_MAX)
		return -1;
	return key_of(key, "e2ee.own.", room, sid, NULL);
}

/* Keeps a copy of a new outbound session of room (no one entitled yet): 0, or -1. */
static int own_new(mx_crypto *c, const char *room, OlmOutboundGroupSession *s)
{
	char key[MXC_KEY_MAX], *sid = out_id(s), *skey = out_session_key(s), *pk = NULL;
	OlmInboundGroupSession *in = in_new();
	int rc = -1;
	if (sid && skey && in && own_key(key, room, sid) == 0
	    && olm_init_inbound_group_session(in, (uint8_t *)skey, strlen(skey)) != olm_error()
	    && (pk = pickle_in(c, in))) {
		json_object *rec = json_object_new_object();
		json_object_object_add(rec, "pickle", json_object_new_string(pk));
		json_object_object_add(rec, "users", json_object_new_object());
		rc = st_save(c, key, rec);
		json_object_put(rec);
	}
	free_str_wiped(pk);
	free_str_wiped(skey);
	free(sid);
	in_free(in);
	return rc;
}

/* users[] are entitled to the session from its next message on, each from
 * the first time they are named (a later call never moves it). */
static void own_entitle(mx_crypto *c, const char *room, OlmOutboundGroupSession *s, const char *sid,
			const char *const *users, int nusers)
{
	char key[MXC_KEY_MAX];
	json_object *rec = own_key(key, room, sid) == 0 ? st_load(c, key) : NULL, *who = get_obj(rec, "users");
	int added = 0;
	for (int i = 0; who && users && i < nusers; i++)
		if (users[i] && strlen(users[i]) <= MXC_ID_MAX && !json_object_object_get_ex(who, users[i], NULL)) {
			uint32_t index = olm_outbound_group_session_message_index(s);
			json_object_object_add(who, users[i], json_object_new_int64(index));
			added++;
		}
	if (added && st_save(c, key, rec) < 0)
		mxc_log(c, "warn", "e2ee: who may ask for a session of %.100s again is not kept", room);
	json_object_put(rec);
}

static char *share_devices(mx_crypto *c, const char *key, OlmOutboundGroupSession *s, json_object *rec,
			   share_ctx *x, const char *const *users, int nusers)
{
	char *sid = out_id(s), *skey = out_session_key(s), *text = NULL;
	json_object *shared = get_obj(rec, "shared");
	if (!shared) {
		shared = json_object_new_object();
		json_object_object_add(rec, "shared", shared);
	}
	x->sid = sid;
	x->skey = skey;
	x->shared = shared;
	x->last = json_object_new_object();
	x->msgs = json_object_new_object();
	if (sid)
		own_entitle(c, x->room, s, sid, users, nusers);
	for (int i = 0; sid && skey && users && i < nusers; i++)
		if (users[i] && strlen(users[i]) <= MXC_ID_MAX)
			each_device(c, users[i], share_one, x);
	if (sid && skey && !x->failed && x->given > 0) {
		json_object_object_add(rec, "last", json_object_get(x->last));
		if (st_save(c, key, rec) == 0) {
			json_object *body = json_object_new_object();
			json_object_object_add(body, "messages", json_object_get(x->msgs));
			text = json_text(body);
			json_object_put(body);
		}
	}
	json_object_put(x->last);
	json_object_put(x->msgs);
	free(sid);
	free_str_wiped(skey);
	return text;
}

char *mx_crypto_share_body(mx_crypto *c, const char *room, const char *const *users, int nusers,
			   int64_t now_ms, int *missing)
{
	char key[MXC_KEY_MAX];
	json_object *rec = NULL;
	if (missing)
		*missing = 0;
	if (out_key(key, room) < 0)
		return NULL;
	OlmOutboundGroupSession *s = load_out(c, key, &rec);
	if (s && out_due(c, room, s, rec, now_ms)) {
		out_free(s);
		json_object_put(rec);
		s = NULL;
	}
	if (!s && !(s = new_out(c, room, key, now_ms, &rec)))
		return NULL;
	share_ctx x = { .room = room };
	char *text = share_devices(c, key, s, rec, &x, users, nusers);
	if (missing)
		*missing = x.missing;
	out_free(s);
	json_object_put(rec);
	return text;
}

void mx_crypto_share_failed(mx_crypto *c, const char *room)
{
	char key[MXC_KEY_MAX];
	json_object *rec = out_key(key, room) == 0 ? st_load(c, key) : NULL;
	json_object *shared = get_obj(rec, "shared"), *last = get_obj(rec, "last");
	if (!shared || !last) {
		json_object_put(rec);
		return;
	}
	json_object_object_foreach(last, user, devs) {
		json_object *arr, *keep = json_object_new_array();
		if (!json_object_object_get_ex(shared, user, &arr) || !json_object_is_type(arr, json_type_array)) {
			json_object_put(keep);
			continue;
		}
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			const char *d = json_object_get_string(json_object_array_get_idx(arr, i));
			if (d && !list_has(last, user, d))
				json_object_array_add(keep, json_object_new_string(d));
		}
		(void)devs;
		json_object_object_add(shared, user, keep);
	}
	json_object_object_add(rec, "last", json_object_new_object());
	st_save(c, key, rec);
	json_object_put(rec);
}

static json_object *megolm_content(mx_crypto *c, const char *cipher, size_t len, const char *sid)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "algorithm", json_object_new_string(MXC_MEGOLM_ALGO));
	json_object_object_add(o, "sender_key", json_object_new_string(c->curve));
	json_object_object_add(o, "ciphertext", json_object_new_string_len(cipher, (int)len));
	json_object_object_add(o, "session_id", json_object_new_string(sid));
	json_object_object_add(o, "device_id", json_object_new_string(c->device));
	return o;
}

/* The plaintext of a room event: {"type", "content", "room_id"} (caller wipes and frees), or NULL. */
static char *room_plain(const char *room, const char *type, const char *content)
{
	if (!type || !*type || strlen(type) > MXC_ID_MAX || !content || strlen(content) >= MXC_VALUE_MAX)
		return NULL;
	json_object *ct = json_tokener_parse(content);
	if (!ct || !json_object_is_type(ct, json_type_object)) {
		json_object_put(ct);
		return NULL;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "content", ct);
	json_object_object_add(o, "room_id", json_object_new_string(room));
	char *text = json_text(o);
	json_object_put(o);
	return text;
}

char *mx_crypto_encrypt(mx_crypto *c, const char *room, const char *type, const char *content, int64_t now_ms)
{
	char key[MXC_KEY_MAX];
	json_object *rec = NULL;
	if (out_key(key, room) < 0)
		return NULL;
	char *plain = room_plain(room, type, content), *text = NULL;
	OlmOutboundGroupSession *s = plain ? load_out(c, key, &rec) : NULL;
	if (s && !out_due(c, room, s, rec, now_ms)) {
		size_t plen = strlen(plain), len = olm_group_encrypt_message_length(s, plen);
		char *cipher = malloc(len + 1), *sid = out_id(s);
		if (cipher && sid && olm_group_encrypt(s, (uint8_t *)plain, plen, (uint8_t *)cipher, len) != olm_error()
		    && save_out(c, key, s, rec) == 0) {
			json_object *o = megolm_content(c, cipher, len, sid);
			text = json_text(o);
			json_object_put(o);
		}
		free(cipher);
		free(sid);
	}
	free_str_wiped(plain);
	out_free(s);
	json_object_put(rec);
	return text;
}

/* ---- room events: inbound Megolm sessions ----
 *
 * "e2ee.in.<room>|<sender key>|<session id>" holds {"pickle", "sender"
 * (the user who gave the key), "ed" (the ed25519 key the giver claimed),
 * "seen": [[message index, sha256 of the event id], ...]} (the last
 * MXC_SEEN_KEEP indexes decrypted: the same index in another event is a
 * replay). */

static int in_key(char *key, const char *room, const char *sender_key, const char *sid)
{
	if (!room || !*room || strlen(room) > MXC_ID_MAX || !is_b64_key(sender_key) || !sid || !*sid
	    || strlen(sid) > MXC_SID_MAX)
		return -1;
	return key_of(key, "e2ee.in.", room, sender_key, sid);
}

/* One way to decrypt (a Megolm session, or an Olm session with a message
 * type): how long the plaintext may be, and the decryption; both destroy
 * the message they are given. */
typedef struct decrypter {
	size_t (*max)(const struct decrypter *d, char *msg, size_t len);
	size_t (*run)(const struct decrypter *d, char *msg, size_t len, char *plain, size_t max);
	OlmInboundGroupSession *group;
	uint32_t *index;      /* group: the message's index */
	OlmSession *olm;
	size_t type;          /* olm: the message's type */
} decrypter;

/* The plaintext of cipher by d (caller wipes and frees), or NULL. Each of
 * d's calls reads its own copy of cipher. */
static char *decrypt_by(const decrypter *d, const char *cipher)
{
	size_t len = strlen(cipher);
	char *copy = dup_n(cipher, len), *plain = NULL;
	if (!copy)
		return NULL;
	size_t max = d->max(d, copy, len);
	if (max != olm_error() && max < MXC_CIPHER_MAX && (plain = malloc(max + 1))) {
		memcpy(copy, cipher, len);
		size_t n = d->run(d, copy, len, plain, max);
		if (n == olm_error()) {
			free_wiped(plain, max + 1);
			plain = NULL;
		} else
			plain[n] = '\0';
	}
	free(copy);
	return plain;
}

static size_t group_max(const decrypter *d, char *msg, size_t len)
{
	return olm_group_decrypt_max_plaintext_length(d->group, (uint8_t *)msg, len);
}

static size_t group_run(const decrypter *d, char *msg, size_t len, char *plain, size_t max)
{
	return olm_group_decrypt(d->group, (uint8_t *)msg, len, (uint8_t *)plain, max, d->index);
}

/* The plaintext of a Megolm message (caller wipes and frees) and its index, or NULL. */
static char *group_decrypt(OlmInboundGroupSession *s, const char *cipher, uint32_t *index)
{
	decrypter d = { .max = group_max, .run = group_run, .group = s, .index = index };
	return decrypt_by(&d, cipher);
}

/* Checks the event id against the indexes seen (and records it): MXC_OK or MXC_REPLAY. */
static int check_replay(mx_crypto *c, const char *key, json_object *rec, uint32_t index, const char *event_id)
{
	size_t hl = olm_sha256_length(c->util);
	char hash[128];
	if (hl >= sizeof hash || olm_sha256(c->util, event_id, strlen(event_id), hash, hl) == olm_error())
		return MXC_BAD;
	hash[hl] = '\0';
	json_object *seen, *keep = json_object_new_array();
	if (!json_object_object_get_ex(rec, "seen", &seen) || !json_object_is_type(seen, json_type_array))
		seen = NULL;
	size_t n = seen ? json_object_array_length(seen) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(seen, i);
		if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) != 2)
			continue;
		if (json_object_get_int64(json_object_array_get_idx(e, 0)) != (int64_t)index) {
			if (n - i < MXC_SEEN_KEEP)
				json_object_array_add(keep, json_object_get(e));
			continue;
		}
		const char *h = json_object_get_string(json_object_array_get_idx(e, 1));
		json_object_put(keep);
		return h && !strcmp(h, hash) ? MXC_OK : MXC_REPLAY;
	}
	json_object *e = json_object_new_array();
	json_object_array_add(e, json_object_new_int64(index));
	json_object_array_add(e, json_object_new_string(hash));
	json_object_array_add(keep, e);
	json_object_object_add(rec, "seen", keep);
	if (st_save(c, key, rec) < 0)
		mxc_log(c, "warn", "e2ee: could not store a message index seen (replay protection)");
	return MXC_OK;
}

/* The decrypted event object, checked ({"type", "content", "room_id" == room}), or NULL. */
static json_object *read_plain(const char *plain, const char *room)
{
	json_object *o = json_tokener_parse(plain);
	const char *r = get_str(o, "room_id", MXC_ID_MAX);
	if (!r || strcmp(r, room) || !get_str(o, "type", MXC_ID_MAX) || !get_obj(o, "content")) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int mx_crypto_decrypt(mx_crypto *c, const char *room, json_object *event, json_object **plain)
{
	char key[MXC_KEY_MAX];
	if (plain)
		*plain = NULL;
	json_object *content = get_obj(event, "content");
	const char *algo = get_str(content, "algorithm", 64), *sk = get_str(content, "sender_key", 64);
	const char *sid = get_str(content, "session_id", MXC_SID_MAX);
	const char *ct = get_str(content, "ciphertext", MXC_CIPHER_MAX);
	const char *sender = get_str(event, "sender", MXC_ID_MAX), *eid = get_str(event, "event_id", MXC_ID_MAX);
	const char *eroom = get_str(event, "room_id", MXC_ID_MAX);
	if (!algo || strcmp(algo, MXC_MEGOLM_ALGO) || !ct || !sender || !eid || (eroom && room && strcmp(eroom, room))
	    || in_key(key, room, sk, sid) < 0)
		return MXC_BAD;
	json_object *rec = st_load(c, key);
	if (!rec)
		return MXC_NO_KEY;
	const char *giver = get_str(rec, "sender", MXC_ID_MAX), *pk = get_str(rec, "pickle", MXC_VALUE_MAX);
	OlmInboundGroupSession *s = pk && giver && !strcmp(giver, sender) ? unpickle_in(c, pk) : NULL;
	uint32_t index = 0;
	char *text = s ? group_decrypt(s, ct, &index) : NULL;
	json_object *o = text ? read_plain(text, room) : NULL;
	int rc = o ? check_replay(c, key, rec, index, eid) : MXC_BAD;
	if (rc == MXC_OK && plain)
		*plain = o;
	else
		json_object_put(o);
	if (!o)
		mxc_log(c, "debug", "e2ee: an event of %.100s in %.100s does not decrypt", sender, room);
	free_str_wiped(text);
	in_free(s);
	json_object_put(rec);
	return rc;
}

/* ---- to-device: Olm messages and room keys ---- */

static size_t olm_max(const decrypter *d, char *msg, size_t len)
{
	return olm_decrypt_max_plaintext_length(d->olm, d->type, msg, len);
}

static size_t olm_run(const decrypter *d, char *msg, size_t len, char *plain, size_t max)
{
	return olm_decrypt(d->olm, d->type, msg, len, plain, max);
}

/* Decrypts with one session: the plaintext (caller wipes and frees), or NULL. */
static char *olm_try(OlmSession *s, size_t type, const char *body)
{
	decrypter d = { .max = olm_max, .run = olm_run, .olm = s, .type = type };
	return decrypt_by(&d, body);
}

/* Whether a pre-key message was made for session s. */
static int olm_matches(OlmSession *s, const char *sender_key, const char *body)
{
	char *copy = strdup(body);
	int m = copy && olm_matches_inbound_session_from(s, sender_key, strlen(sender_key), copy, strlen(copy)) == 1;
	free(copy);
	return m;
}

/* A new inbound session from a pre-key message: the plaintext, with the session and the account stored. */
static char *olm_new_inbound(mx_crypto *c, const char *sender_key, const char *body, json_object *old)
{
	OlmSession *s = sess_new();
	char *copy = strdup(body), *plain = NULL;
	if (s && copy && olm_create_inbound_session_from(s, c->acct, sender_key, strlen(sender_key), copy, strlen(copy))
	    != olm_error() && (plain = olm_try(s, 0, body))) {
		olm_remove_one_time_keys(c->acct, s);
		if (save_account(c) < 0 || save_session(c, sender_key, s, old, -1) < 0)
			mxc_log(c, "error", "e2ee: a new Olm session could not be stored");
	}
	free(copy);
	sess_free(s);
	return plain;
}

/* Decrypts an Olm message from the device with sender_key (the session used is stored): plaintext or NULL. */
static char *olm_decrypt_from(mx_crypto *c, const char *sender_key, size_t type, const char *body)
{
	json_object *arr = load_sessions(c, sender_key);
	char *plain = NULL;
	int tried_match = 0;
	for (size_t i = 0; arr && i < json_object_array_length(arr) && !plain && !tried_match; i++) {
		OlmSession *s = unpickle_session(c, json_object_get_string(json_object_array_get_idx(arr, i)));
		if (!s)
			continue;
		if (type == 0) {
			if (!olm_matches(s, sender_key, body)) {
				sess_free(s);
				continue;
			}
			tried_match = 1;
		}
		plain = olm_try(s, type, body);
		if (plain && save_session(c, sender_key, s, arr, (int)i) < 0)
			mxc_log(c, "error", "e2ee: an Olm session could not be stored");
		sess_free(s);
	}
	if (!plain && type == 0 && !tried_match)
		plain = olm_new_inbound(c, sender_key, body, arr);
	json_object_put(arr);
	return plain;
}

/* Whether the device with this curve key is one of sender's refused devices. */
static int refused_curve(mx_crypto *c, const char *sender, const char *sender_key)
{
	json_object *rec = load_user(c, sender), *devs = get_obj(rec, "devices");
	int refused = 0;
	if (devs) {
		json_object_object_foreach(devs, id, e) {
			const char *state = get_str(e, "state", 16), *cu = get_str(e, "curve", 64);
			(void)id;
			refused |= cu && !strcmp(cu, sender_key) && (!state || !strcmp(state, "refused"));
		}
	}
	json_object_put(rec);
	return refused;
}

/* Checks the sender's claimed device against what is pinned: 0 when it may be believed. */
static int check_sender(mx_crypto *c, const char *sender, const char *sender_key, const char *ed, const char *dev)
{
	json_object *rec = load_user(c, sender), *devs = get_obj(rec, "devices");
	int rc = 0;
	if (devs) {
		json_object_object_foreach(devs, id, e) {
			const char *state = get_str(e, "state", 16), *cu = get_str(e, "curve", 64);
			const char *pe = get_str(e, "ed", 64);
			int same_curve = cu && !strcmp(cu, sender_key), same_ed = pe && !strcmp(pe, ed);
			int same_id = dev && !strcmp(id, dev);
			int bad = !state || !strcmp(state, "refused") || !same_curve || !same_ed;
			if ((same_curve || same_ed || same_id) && bad)
				rc = -1;
		}
	}
	json_object_put(rec);
	return rc;
}

/* Reads a decrypted Olm payload: 0 when it is for us, from the event's sender and a believable device. */
static int check_payload(mx_crypto *c, json_object *p, const char *sender, const char *sender_key)
{
	const char *psender = get_str(p, "sender", MXC_ID_MAX), *recip = get_str(p, "recipient", MXC_ID_MAX);
	const char *rked = get_str(get_obj(p, "recipient_keys"), "ed25519", 64);
	const char *ed = get_str(get_obj(p, "keys"), "ed25519", 64);
	const char *dev = get_str(p, "sender_device", MXC_ID_MAX);
	if (!psender || strcmp(psender, sender) || !recip || strcmp(recip, c->user) || !rked || strcmp(rked, c->ed)
	    || !is_b64_key(ed))
		return -1;
	if (check_sender(c, sender, sender_key, ed, dev) < 0) {
		mxc_log(c, "warn", "e2ee: an Olm message of %.100s refused: its device is not as pinned",
			sender);
		return -1;
	}
	return 0;
}

/* Keeps the room key of a checked m.room_key payload; 1 when a session was added. */
static int add_room_key(mx_crypto *c, json_object *p, const char *sender, const char *sender_key, char *room_out,
			size_t room_len)
{
	char key[MXC_KEY_MAX];
	json_object *ct = get_obj(p, "content"), *skobj;
	const char *algo = get_str(ct, "algorithm", 64), *room = get_str(ct, "room_id", MXC_ID_MAX);
	const char *sid = get_str(ct, "session_id", MXC_SID_MAX), *skey = get_str(ct, "session_key", 4096);
	if (!algo || strcmp(algo, MXC_MEGOLM_ALGO) || !skey || in_key(key, room, sender_key, sid) < 0)
		return 0;
	json_object_object_get_ex(ct, "session_key", &skobj);
	OlmInboundGroupSession *s = in_new();
	char *copy = strdup(skey), id[MXC_SID_MAX + 1];
	size_t idlen = s ? olm_inbound_group_session_id_length(s) : 0;
	int ok = s && copy && idlen <= MXC_SID_MAX
		&& olm_init_inbound_group_session(s, (uint8_t *)copy, strlen(copy)) != olm_error()
		&& olm_inbound_group_session_id(s, (uint8_t *)id, idlen) != olm_error();
	free_str_wiped(copy);
	wipe_json_str(skobj);
	if (ok)
		id[idlen] = '\0';
	if (!ok || strcmp(id, sid)) {
		mxc_log(c, "debug", "e2ee: a room key of %.100s is refused (bad key or session id)", sender);
		in_free(s);
		return 0;
	}
	json_object *old = st_load(c, key);
	const char *opk = get_str(old, "pickle", MXC_VALUE_MAX);
	OlmInboundGroupSession *os = opk ? unpickle_in(c, opk) : NULL;
	int keep_old = os
		&& olm_inbound_group_session_first_known_index(os) <= olm_inbound_group_session_first_known_index(s);
	in_free(os);
	json_object_put(old);
	int added = 0;
	char *pk = keep_old ? NULL : pickle_in(c, s);
	if (pk) {
		json_object *rec = json_object_new_object();
		json_object_object_add(rec, "pickle", json_object_new_string(pk));
		json_object_object_add(rec, "sender", json_object_new_string(sender));
		json_object_object_add(rec, "ed", json_object_new_string(get_str(get_obj(p, "keys"), "ed25519", 64)));
		json_object_object_add(rec, "seen", json_object_new_array());
		added = st_save(c, key, rec) == 0;
		json_object_put(rec);
		free_str_wiped(pk);
	}
	in_free(s);
	if (added && room_out && room_len)
		snprintf(room_out, room_len, "%s", room);
	return added;
}

int mx_crypto_to_device(mx_crypto *c, json_object *event, char *room_out, size_t room_len)
{
	if (room_out && room_len)
		room_out[0] = '\0';
	const char *type = get_str(event, "type", 64), *sender = get_str(event, "sender", MXC_ID_MAX);
	json_object *content = get_obj(event, "content"), *mine = get_obj(get_obj(content, "ciphertext"), c->curve), *t;
	const char *algo = get_str(content, "algorithm", 64), *sk = get_str(content, "sender_key", 64);
	const char *body = get_str(mine, "body", MXC_CIPHER_MAX);
	if (!type || strcmp(type, "m.room.encrypted") || !sender || !algo || strcmp(algo, MXC_OLM_ALGO)
	    || !is_b64_key(sk) || !strcmp(sk, c->curve) || !body || !json_object_object_get_ex(mine, "type", &t)
	    || !json_object_is_type(t, json_type_int) || json_object_get_int64(t) < 0 || json_object_get_int64(t) > 1) {
		mxc_log(c, "debug", "e2ee: a to-device event is ignored (not an Olm message for this device)");
		return 0;
	}
	if (refused_curve(c, sender, sk)) {
		mxc_log(c, "debug", "e2ee: an Olm message of %.100s from a refused device is dropped", sender);
		return 0;
	}
	char *plain = olm_decrypt_from(c, sk, (size_t)json_object_get_int64(t), body);
	if (!plain) {
		mxc_log(c, "debug", "e2ee: an Olm message of %.100s does not decrypt", sender);
		return 0;
	}
	json_object *p = json_tokener_parse(plain);
	free_str_wiped(plain);
	const char *ptype = get_str(p, "type", 64);
	int added = 0;
	if (check_payload(c, p, sender, sk) < 0)
		mxc_log(c, "debug", "e2ee: an Olm message of %.100s is refused (not for us, or sender mismatch)",
			sender);
	else if (ptype && !strcmp(ptype, "m.room_key"))
		added = add_room_key(c, p, sender, sk, room_out, room_len);
	json_object_put(p);
	return added;
}

/* ---- key requests: m.room_key_request in, m.forwarded_room_key out ---- */

/* Copies a checked string member into out (of size len): 0, or -1 when absent or too long. */
static int copy_str(json_object *o, const char *key, char *out, size_t len)
{
	const char *v = get_str(o, key, len - 1);
	if (!v)
		return -1;
	snprintf(out, len, "%s", v);
	return 0;
}

int mx_crypto_key_request(mx_crypto *c, json_object *event, mxc_key_request *out)
{
	memset(out, 0, sizeof *out);
	const char *type = get_str(event, "type", 64);
	json_object *content = get_obj(event, "content"), *body = get_obj(content, "body");
	const char *action = get_str(content, "action", 64);
	if (!type || strcmp(type, "m.room_key_request") || !action || copy_str(event, "sender", out->user, sizeof out->user)
	    || copy_str(content, "requesting_device_id", out->device, sizeof out->device)
	    || copy_str(content, "request_id", out->request_id, sizeof out->request_id) || !key_part_ok(out->user)
	    || !key_part_ok(out->device)) {
		mxc_log(c, "debug", "e2ee: a malformed key request is ignored");
		return -1;
	}
	if (!strcmp(action, "request_cancellation")) {
		out->cancel = 1;
		return 0;
	}
	const char *algo = get_str(body, "algorithm", 64), *sk = get_str(body, "sender_key", 64);
	if (strcmp(action, "request") || !algo || strcmp(algo, MXC_MEGOLM_ALGO)
	    || copy_str(body, "room_id", out->room, sizeof out->room)
	    || copy_str(body, "session_id", out->session, sizeof out->session) || !key_part_ok(out->room)
	    || !key_part_ok(out->session)) {
		mxc_log(c, "debug", "e2ee: a key request of %.100s is ignored (not a Megolm request)", out->user);
		return -1;
	}
	/* sender_key is deprecated (spec v1.3), but where given it must be ours. */
	if (sk && strcmp(sk, c->curve)) {
		mxc_log(c, "debug", "e2ee: a key request of %.100s is for another device's session", out->user);
		return -1;
	}
	return 0;
}

/* The session exported from the first index user may read (caller wipes and frees), or NULL. */
static char *own_export(mx_crypto *c, const char *room, const char *sid, const char *user)
{
	char key[MXC_KEY_MAX];
	json_object *rec = own_key(key, room, sid) == 0 ? st_load(c, key) : NULL, *idx;
	const char *pk = get_str(rec, "pickle", MXC_VALUE_MAX);
	char *out = NULL;
	if (pk && json_object_object_get_ex(get_obj(rec, "users"), user, &idx) && json_object_is_type(idx, json_type_int)
	    && json_object_get_int64(idx) >= 0 && json_object_get_int64(idx) <= UINT32_MAX) {
		OlmInboundGroupSession *s = unpickle_in(c, pk);
		size_t len = s ? olm_export_inbound_group_session_length(s) : 0;
		out = s ? malloc(len + 1) : NULL;
		if (out && olm_export_inbound_group_session(s, (uint8_t *)out, len, (uint32_t)json_object_get_int64(idx))
		    == olm_error()) {
			free_wiped(out, len + 1);
			out = NULL;
		} else if (out)
			out[len] = '\0';
		in_free(s);
	}
	json_object_put(rec);
	return out;
}

int mx_crypto_forward_body(mx_crypto *c, const char *user, const char *dev, const char *room, const char *sid,
			   char **body)
{
	*body = NULL;
	json_object *drec, *e = find_device(c, user, dev, &drec);
	const char *state = get_str(e, "state", 16), *curve = get_str(e, "curve", MXC_KEY_B64);
	const char *ed = get_str(e, "ed", MXC_KEY_B64);
	int rc = MXC_FWD_REFUSED;
	char *skey = NULL;
	if (!state || strcmp(state, "ok") || !curve || !ed)
		mxc_log(c, "debug", "e2ee: a key request from %.64s of %.100s is refused (not a trusted device)", dev,
			user);
	else if (!(skey = own_export(c, room, sid, user)))
		mxc_log(c, "debug", "e2ee: a key request of %.100s is refused (not a session of %.100s given to them)",
			user, room);
	else if (!has_session(c, curve))
		rc = MXC_FWD_CLAIM;
	else {
		json_object *fk = json_object_new_object(), *sk = json_object_new_string(skey);
		json_object_object_add(fk, "algorithm", json_object_new_string(MXC_MEGOLM_ALGO));
		json_object_object_add(fk, "room_id", json_object_new_string(room));
		json_object_object_add(fk, "sender_key", json_object_new_string(c->curve));
		json_object_object_add(fk, "session_id", json_object_new_string(sid));
		json_object_object_add(fk, "session_key", json_object_get(sk));
		json_object_object_add(fk, "sender_claimed_ed25519_key", json_object_new_string(c->ed));
		json_object_object_add(fk, "forwarding_curve25519_key_chain", json_object_new_array());
		json_object *content = olm_event_for(c, user, curve, ed, "m.forwarded_room_key", fk);
		wipe_json_str(sk);
		json_object_put(sk);
		json_object_put(fk);
		if (content && (*body = to_device_body(user, dev, content)))
			rc = MXC_FWD_OK;
		else
			rc = MXC_FWD_FAILED;
	}
	free_str_wiped(skey);
	json_object_put(drec);
	return rc;
}

/* ---- lent to matrix_xsign.c and matrix_sas.c (matrix_crypto_int.h) ---- */

void mxc_logf(mx_crypto *c, const char *level, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	mxc_log(c, level, "%s", text);
}

const char *mxc_user(const mx_crypto *c)
{
	return c->user;
}

const char *mxc_device(const mx_crypto *c)
{
	return c->device;
}

json_object *mxc_load(mx_crypto *c, const char *key)
{
	return st_load(c, key);
}

int mxc_save(mx_crypto *c, const char *key, json_object *o)
{
	return st_save(c, key, o);
}

int mxc_random(void *buf, size_t len)
{
	return get_random(buf, len);
}

void mxc_free_wiped(void *p, size_t len)
{
	free_wiped(p, len);
}

json_object *mxc_device_keys(mx_crypto *c)
{
	return device_keys(c);
}

int mxc_device_sign(mx_crypto *c, json_object *o)
{
	return add_signature(c, o);
}

char *mxc_signed_text(json_object *o)
{
	return signed_text(o);
}

int mxc_ed25519_ok(mx_crypto *c, const char *key, const char *text, const char *sig)
{
	char *sigcopy = sig ? strdup(sig) : NULL;
	int ok = key && text && sigcopy && is_b64_key(key)
		&& olm_ed25519_verify(c->util, key, strlen(key), text, strlen(text), sigcopy, strlen(sigcopy))
			!= olm_error();
	free(sigcopy);
	return ok;
}

int mxc_sha256_b64(mx_crypto *c, const char *data, size_t len, char *out, size_t outlen)
{
	size_t n = olm_sha256_length(c->util);
	if (n + 1 > outlen || olm_sha256(c->util, data, len, out, n) == olm_error())
		return -1;
	out[n] = '\0';
	return 0;
}

int mxc_device_ed(mx_crypto *c, const char *user, const char *dev, char *out, size_t len)
{
	json_object *rec, *e = find_device(c, user, dev, &rec);
	const char *state = get_str(e, "state", 16), *ed = get_str(e, "ed", MXC_KEY_B64);
	int ok = state && !strcmp(state, "ok") && is_b64_key(ed) && strlen(ed) < len;
	if (ok)
		snprintf(out, len, "%s", ed);
	json_object_put(rec);
	return ok;
}
