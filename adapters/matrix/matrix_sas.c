/* matrix_sas.c: one SAS verification (m.sas.v1) with another user's device, the bot answering.
 *
 * What the header leaves open, decided here:
 *   - the bot offers and accepts only what the spec requires and Element
 *     uses: curve25519-hkdf-sha256, sha256, hkdf-hmac-sha256.v2 (the older
 *     hkdf-hmac-sha256 when that is all the other side has), decimal and
 *     emoji;
 *   - their MAC is checked against the device keys the bot pinned for them
 *     (matrix_crypto.c); a key it does not know (their master key) is
 *     passed over, as the spec allows, but their device key must be there;
 *   - a MAC that comes before the operator's answer is checked at once and
 *     kept; the bot's own MAC leaves only after the operator confirmed.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <olm/olm.h>
#include <olm/sas.h>
#include "matrix_crypto_int.h"
#include "matrix_sas.h"

#define MXS_ID_MAX 255
#define MXS_KEY_MAX 64           /* a curve25519 or ed25519 key, unpadded base64 */
#define MXS_MAC_MAX 128          /* a MAC, base64 */
#define MXS_INFO_MAX 1400        /* an info string: ids and keys */
#define MXS_KEYIDS_MAX 8         /* keys one MAC event may cover */

/* The spec's 64 emoji with their English names, by index (short authentication string, "emoji"), as
 * Element's Rust crypto names them. */
static const struct {
	const char *emoji;
	const char *name;
} sas_emoji[64] = {
	{ "🐶", "Dog" },
	{ "🐱", "Cat" },
	{ "🦁", "Lion" },
	{ "🐎", "Horse" },
	{ "🦄", "Unicorn" },
	{ "🐷", "Pig" },
	{ "🐘", "Elephant" },
	{ "🐰", "Rabbit" },
	{ "🐼", "Panda" },
	{ "🐓", "Rooster" },
	{ "🐧", "Penguin" },
	{ "🐢", "Turtle" },
	{ "🐟", "Fish" },
	{ "🐙", "Octopus" },
	{ "🦋", "Butterfly" },
	{ "🌷", "Flower" },
	{ "🌳", "Tree" },
	{ "🌵", "Cactus" },
	{ "🍄", "Mushroom" },
	{ "🌏", "Globe" },
	{ "🌙", "Moon" },
	{ "☁️", "Cloud" },
	{ "🔥", "Fire" },
	{ "🍌", "Banana" },
	{ "🍎", "Apple" },
	{ "🍓", "Strawberry" },
	{ "🌽", "Corn" },
	{ "🍕", "Pizza" },
	{ "🎂", "Cake" },
	{ "❤️", "Heart" },
	{ "😀", "Smiley" },
	{ "🤖", "Robot" },
	{ "🎩", "Hat" },
	{ "👓", "Glasses" },
	{ "🔧", "Spanner" },
	{ "🎅", "Santa" },
	{ "👍", "Thumbs Up" },
	{ "☂️", "Umbrella" },
	{ "⌛", "Hourglass" },
	{ "⏰", "Clock" },
	{ "🎁", "Gift" },
	{ "💡", "Light Bulb" },
	{ "📕", "Book" },
	{ "✏️", "Pencil" },
	{ "📎", "Paperclip" },
	{ "✂️", "Scissors" },
	{ "🔒", "Lock" },
	{ "🔑", "Key" },
	{ "🔨", "Hammer" },
	{ "☎️", "Telephone" },
	{ "🏁", "Flag" },
	{ "🚂", "Train" },
	{ "🚲", "Bicycle" },
	{ "✈️", "Aeroplane" },
	{ "🚀", "Rocket" },
	{ "🏆", "Trophy" },
	{ "⚽", "Ball" },
	{ "🎸", "Guitar" },
	{ "🎺", "Trumpet" },
	{ "🔔", "Bell" },
	{ "⚓", "Anchor" },
	{ "🎧", "Headphones" },
	{ "📁", "Folder" },
	{ "📌", "Pin" },
};

struct mx_sas {
	mx_crypto *c;
	char user[MXS_ID_MAX + 1], dev[MXS_ID_MAX + 1], txn[MXS_ID_MAX + 1];
	char master[MXS_KEY_MAX + 1];        /* the bot's master key, "" none */
	OlmSAS *sas;
	int state;
	int step;                            /* 0: start due, 1: their key due, 2: their MAC due */
	int mac_v2;                          /* hkdf-hmac-sha256.v2 (else the older one) */
	int their_mac_ok;
	char mine[MXS_KEY_MAX + 1];          /* the SAS public key of the bot */
	char emoji[512], decimals[32], why[160];
	json_object *held[MX_SAS_OUT_MAX];
};

static void out_reset(mx_sas *s, mx_sas_out *out)
{
	for (int i = 0; i < MX_SAS_OUT_MAX; i++) {
		json_object_put(s->held[i]);
		s->held[i] = NULL;
	}
	if (out)
		memset(out, 0, sizeof *out);
}

static void out_add(mx_sas *s, mx_sas_out *out, const char *type, json_object *content)
{
	if (!out || out->n >= MX_SAS_OUT_MAX) {
		json_object_put(content);
		return;
	}
	s->held[out->n] = content;
	out->type[out->n] = type;
	out->content[out->n++] = content;
}

static const char *cstr(json_object *o, const char *key, size_t max)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	const char *t = json_object_get_string(v);
	size_t n = (size_t)json_object_get_string_len(v);
	return n && n <= max && strlen(t) == n ? t : NULL;
}

/* Whether the array member key of o holds the string want. */
static int has_str(json_object *o, const char *key, const char *want)
{
	json_object *a;
	if (!o || !json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		if (json_object_is_type(v, json_type_string) && !strcmp(json_object_get_string(v), want))
			return 1;
	}
	return 0;
}

mx_sas *mx_sas_new(mx_crypto *c, const char *their_user, const char *their_device, const char *txn,
		   const char *master)
{
	if (!c || !their_user || !their_device || !txn || !*their_user || !*their_device || !*txn
	    || strlen(their_user) > MXS_ID_MAX || strlen(their_device) > MXS_ID_MAX || strlen(txn) > MXS_ID_MAX
	    || (master && strlen(master) > MXS_KEY_MAX))
		return NULL;
	mx_sas *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->c = c;
	snprintf(s->user, sizeof s->user, "%s", their_user);
	snprintf(s->dev, sizeof s->dev, "%s", their_device);
	snprintf(s->txn, sizeof s->txn, "%s", txn);
	snprintf(s->master, sizeof s->master, "%s", master ? master : "");
	return s;
}

void mx_sas_free(mx_sas *s)
{
	if (!s)
		return;
	out_reset(s, NULL);
	if (s->sas) {
		olm_clear_sas(s->sas);
		free(s->sas);
	}
	explicit_bzero(s, sizeof *s);
	free(s);
}

static void sas_cancel(mx_sas *s, const char *code, const char *why, mx_sas_out *out)
{
	if (s->state == MXS_DONE || s->state == MXS_CANCELLED)
		return;
	s->state = MXS_CANCELLED;
	snprintf(s->why, sizeof s->why, "%s (%s)", why, code);
	json_object *c = json_object_new_object();
	json_object_object_add(c, "code", json_object_new_string(code));
	json_object_object_add(c, "reason", json_object_new_string(why));
	out_add(s, out, "m.key.verification.cancel", c);
}

/* The SAS of the bot's side: made, its public key read. */
static int sas_make(mx_sas *s)
{
	void *mem = malloc(olm_sas_size());
	s->sas = mem ? olm_sas(mem) : NULL;
	if (!s->sas)
		return -1;
	size_t rlen = olm_create_sas_random_length(s->sas), plen = olm_sas_pubkey_length(s->sas);
	uint8_t *r = malloc(rlen ? rlen : 1);
	int ok = r && plen <= MXS_KEY_MAX && mxc_random(r, rlen) == 0
		&& olm_create_sas(s->sas, r, rlen) != olm_error()
		&& olm_sas_get_pubkey(s->sas, s->mine, plen) != olm_error();
	mxc_free_wiped(r, rlen);
	if (ok)
		s->mine[plen] = '\0';
	return ok ? 0 : -1;
}

static void on_request(mx_sas *s, json_object *content, mx_sas_out *out)
{
	const char *from = cstr(content, "from_device", MXS_ID_MAX);
	if (s->step != 0 || !from || strcmp(from, s->dev)) {
		sas_cancel(s, "m.unexpected_message", "an unexpected request", out);
		return;
	}
	if (!has_str(content, "methods", "m.sas.v1")) {
		sas_cancel(s, "m.unknown_method", "the bot verifies by emoji or numbers (m.sas.v1) only", out);
		return;
	}
	json_object *r = json_object_new_object(), *methods = json_object_new_array();
	json_object_object_add(r, "from_device", json_object_new_string(mxc_device(s->c)));
	json_object_array_add(methods, json_object_new_string("m.sas.v1"));
	json_object_object_add(r, "methods", methods);
	out_add(s, out, "m.key.verification.ready", r);
}

static void on_start(mx_sas *s, json_object *content, mx_sas_out *out)
{
	const char *from = cstr(content, "from_device", MXS_ID_MAX), *method = cstr(content, "method", 64);
	if (s->step != 0 || !from || strcmp(from, s->dev) || !method) {
		sas_cancel(s, "m.unexpected_message", "an unexpected start", out);
		return;
	}
	s->mac_v2 = has_str(content, "message_authentication_codes", "hkdf-hmac-sha256.v2");
	int emoji = has_str(content, "short_authentication_string", "emoji");
	if (strcmp(method, "m.sas.v1") || !has_str(content, "key_agreement_protocols", "curve25519-hkdf-sha256")
	    || !has_str(content, "hashes", "sha256")
	    || (!s->mac_v2 && !has_str(content, "message_authentication_codes", "hkdf-hmac-sha256"))
	    || !has_str(content, "short_authentication_string", "decimal")) {
		sas_cancel(s, "m.unknown_method", "no method in common", out);
		return;
	}
	char *canon = mx_canonical_json(content), commit[64];
	size_t clen = canon ? strlen(canon) : 0, klen;
	char *both = NULL;
	if (canon && sas_make(s) == 0 && (both = malloc((klen = strlen(s->mine)) + clen + 1))) {
		memcpy(both, s->mine, klen);
		memcpy(both + klen, canon, clen + 1);
	}
	if (!both || mxc_sha256_b64(s->c, both, klen + clen, commit, sizeof commit) < 0) {
		free(canon);
		free(both);
		sas_cancel(s, "m.unexpected_message", "the bot could not take part (no memory or random bytes)",
			      out);
		return;
	}
	free(canon);
	free(both);
	json_object *a = json_object_new_object(), *strs = json_object_new_array();
	json_object_object_add(a, "method", json_object_new_string("m.sas.v1"));
	json_object_object_add(a, "key_agreement_protocol", json_object_new_string("curve25519-hkdf-sha256"));
	json_object_object_add(a, "hash", json_object_new_string("sha256"));
	json_object_object_add(a, "message_authentication_code",
			       json_object_new_string(s->mac_v2 ? "hkdf-hmac-sha256.v2" : "hkdf-hmac-sha256"));
	json_object_array_add(strs, json_object_new_string("decimal"));
	if (emoji)
		json_object_array_add(strs, json_object_new_string("emoji"));
	json_object_object_add(a, "short_authentication_string", strs);
	json_object_object_add(a, "commitment", json_object_new_string(commit));
	out_add(s, out, "m.key.verification.accept", a);
	s->step = 1;
}

/* The strings both sides show, from six bytes of the shared secret. */
static void show_strings(mx_sas *s, const uint8_t b[6])
{
	int n1 = (b[0] << 5 | b[1] >> 3) + 1000;
	int n2 = ((b[1] & 0x7) << 10 | b[2] << 2 | b[3] >> 6) + 1000;
	int n3 = ((b[3] & 0x3f) << 7 | b[4] >> 1) + 1000;
	snprintf(s->decimals, sizeof s->decimals, "%d %d %d", n1, n2, n3);
	uint64_t bits = 0;
	for (int i = 0; i < 6; i++)
		bits = bits << 8 | b[i];
	size_t o = 0;
	for (int i = 0; i < 7; i++) {
		int idx = (int)(bits >> (42 - 6 * i) & 0x3f);
		int n = snprintf(s->emoji + o, sizeof s->emoji - o, "%s%s %s", i ? ", " : "", sas_emoji[idx].emoji,
				 sas_emoji[idx].name);
		if (n < 0 || (size_t)n >= sizeof s->emoji - o)
			break;
		o += (size_t)n;
	}
}

static void on_key(mx_sas *s, json_object *content, mx_sas_out *out)
{
	const char *key = cstr(content, "key", MXS_KEY_MAX);
	char copy[MXS_KEY_MAX + 1], info[MXS_INFO_MAX];
	uint8_t bytes[6];
	if (s->step != 1 || !key) {
		sas_cancel(s, "m.unexpected_message", "an unexpected key", out);
		return;
	}
	snprintf(copy, sizeof copy, "%s", key);
	int n = snprintf(info, sizeof info, "MATRIX_KEY_VERIFICATION_SAS|%s|%s|%s|%s|%s|%s|%s", s->user, s->dev, key,
			 mxc_user(s->c), mxc_device(s->c), s->mine, s->txn);
	if (olm_sas_set_their_key(s->sas, copy, strlen(copy)) == olm_error() || n < 0 || (size_t)n >= sizeof info
	    || olm_sas_generate_bytes(s->sas, info, (size_t)n, bytes, sizeof bytes) == olm_error()) {
		sas_cancel(s, "m.key_mismatch", "their key is not usable", out);
		return;
	}
	json_object *k = json_object_new_object();
	json_object_object_add(k, "key", json_object_new_string(s->mine));
	out_add(s, out, "m.key.verification.key", k);
	show_strings(s, bytes);
	explicit_bzero(bytes, sizeof bytes);
	s->step = 2;
	s->state = MXS_SHOW;
}

/* The MAC of input under the key id's info, sent from (fu, fd) to (tu, td): into out; -1 on failure. */
static int mac_of(mx_sas *s, const char *input, const char *fu, const char *fd, const char *tu, const char *td,
		  const char *key_id, char *out, size_t len)
{
	char info[MXS_INFO_MAX];
	int n = snprintf(info, sizeof info, "MATRIX_KEY_VERIFICATION_MAC%s%s%s%s%s%s", fu, fd, tu, td, s->txn, key_id);
	size_t mlen = olm_sas_mac_length(s->sas);
	if (n < 0 || (size_t)n >= sizeof info || mlen + 1 > len)
		return -1;
	size_t rc = s->mac_v2 ? olm_sas_calculate_mac_fixed_base64(s->sas, input, strlen(input), info, (size_t)n, out, mlen)
			      : olm_sas_calculate_mac(s->sas, input, strlen(input), info, (size_t)n, out, mlen);
	if (rc == olm_error())
		return -1;
	out[mlen] = '\0';
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Checks their MAC event: 0 when every key the bot knows matches and their device key is among them. */
static int check_mac(mx_sas *s, json_object *content)
{
	json_object *macs;
	const char *keys = cstr(content, "keys", MXS_MAC_MAX);
	if (!keys || !json_object_object_get_ex(content, "mac", &macs) || !json_object_is_type(macs, json_type_object)
	    || json_object_object_length(macs) < 1 || json_object_object_length(macs) > MXS_KEYIDS_MAX)
		return -1;
	const char *ids[MXS_KEYIDS_MAX];
	int n = 0;
	size_t total = 0;
	json_object_object_foreach(macs, kid, v) {
		if (!json_object_is_type(v, json_type_string) || strlen(kid) > MXS_ID_MAX + 16)
			return -1;
		ids[n++] = kid;
		total += strlen(kid) + 1;
	}
	qsort(ids, (size_t)n, sizeof ids[0], cmp_str);
	char *joined = calloc(1, total + 1), mac[MXS_MAC_MAX + 1], dev_kid[MXS_ID_MAX + 16], ed[MXS_KEY_MAX + 1];
	for (int i = 0; joined && i < n; i++) {
		if (i)
			strcat(joined, ",");
		strcat(joined, ids[i]);
	}
	const char *me = mxc_user(s->c), *md = mxc_device(s->c);
	int ok = joined && mac_of(s, joined, s->user, s->dev, me, md, "KEY_IDS", mac, sizeof mac) == 0
		&& !strcmp(mac, keys);
	free(joined);
	snprintf(dev_kid, sizeof dev_kid, "ed25519:%s", s->dev);
	int have_dev = 0;
	if (ok && mxc_device_ed(s->c, s->user, s->dev, ed, sizeof ed)) {
		json_object *dm = json_object_object_get(macs, dev_kid);
		have_dev = dm && mac_of(s, ed, s->user, s->dev, me, md, dev_kid, mac, sizeof mac) == 0
			&& !strcmp(mac, json_object_get_string(dm));
	}
	return ok && have_dev ? 0 : -1;
}

/* The bot's MAC event over its device key and its master key. */
static json_object *my_mac(mx_sas *s)
{
	char dev_kid[MXS_ID_MAX + 16], master_kid[MXS_KEY_MAX + 16], mac[MXS_MAC_MAX + 1], ids[600];
	const char *me = mxc_user(s->c), *md = mxc_device(s->c);
	json_object *c = json_object_new_object(), *macs = json_object_new_object();
	snprintf(dev_kid, sizeof dev_kid, "ed25519:%s", md);
	snprintf(master_kid, sizeof master_kid, "ed25519:%s", s->master);
	int ok = mac_of(s, mx_crypto_ed25519(s->c), me, md, s->user, s->dev, dev_kid, mac, sizeof mac) == 0;
	if (ok)
		json_object_object_add(macs, dev_kid, json_object_new_string(mac));
	if (ok && s->master[0]) {
		ok = mac_of(s, s->master, me, md, s->user, s->dev, master_kid, mac, sizeof mac) == 0;
		json_object_object_add(macs, master_kid, json_object_new_string(mac));
	}
	if (s->master[0])
		snprintf(ids, sizeof ids, "%s,%s", strcmp(dev_kid, master_kid) < 0 ? dev_kid : master_kid,
			 strcmp(dev_kid, master_kid) < 0 ? master_kid : dev_kid);
	else
		snprintf(ids, sizeof ids, "%s", dev_kid);
	ok = ok && mac_of(s, ids, me, md, s->user, s->dev, "KEY_IDS", mac, sizeof mac) == 0;
	json_object_object_add(c, "mac", macs);
	json_object_object_add(c, "keys", json_object_new_string(ok ? mac : ""));
	if (!ok) {
		json_object_put(c);
		return NULL;
	}
	return c;
}

static void finish(mx_sas *s, mx_sas_out *out)
{
	out_add(s, out, "m.key.verification.done", json_object_new_object());
	s->state = MXS_DONE;
}

static void on_mac(mx_sas *s, json_object *content, mx_sas_out *out)
{
	if (s->step != 2 || s->their_mac_ok) {
		sas_cancel(s, "m.unexpected_message", "an unexpected MAC", out);
		return;
	}
	if (check_mac(s, content) < 0) {
		sas_cancel(s, "m.key_mismatch", "their keys do not match what the bot knows of their device", out);
		return;
	}
	s->their_mac_ok = 1;
	if (s->state == MXS_CONFIRMED)
		finish(s, out);
}

int mx_sas_event(mx_sas *s, const char *type, json_object *content, mx_sas_out *out)
{
	out_reset(s, out);
	if (s->state == MXS_CANCELLED || s->state == MXS_DONE || !type || !json_object_is_type(content, json_type_object))
		return s->state;
	if (!strcmp(type, "m.key.verification.request"))
		on_request(s, content, out);
	else if (!strcmp(type, "m.key.verification.start"))
		on_start(s, content, out);
	else if (!strcmp(type, "m.key.verification.key"))
		on_key(s, content, out);
	else if (!strcmp(type, "m.key.verification.mac"))
		on_mac(s, content, out);
	else if (!strcmp(type, "m.key.verification.cancel")) {
		const char *code = cstr(content, "code", 64), *reason = cstr(content, "reason", 100);
		s->state = MXS_CANCELLED;
		snprintf(s->why, sizeof s->why, "cancelled by them: %s (%s)", reason ? reason : "no reason",
			 code ? code : "no code");
	} else if (strcmp(type, "m.key.verification.done") && strcmp(type, "m.key.verification.ready"))
		sas_cancel(s, "m.unexpected_message", "an unknown verification event", out);
	return s->state;
}

int mx_sas_confirm(mx_sas *s, int match, mx_sas_out *out)
{
	out_reset(s, out);
	if (s->state != MXS_SHOW)
		return s->state;
	if (!match) {
		sas_cancel(s, "m.mismatched_sas", "the operator says the strings differ", out);
		return s->state;
	}
	json_object *mac = my_mac(s);
	if (!mac) {
		sas_cancel(s, "m.key_mismatch", "the bot could not make its MAC", out);
		return s->state;
	}
	out_add(s, out, "m.key.verification.mac", mac);
	s->state = MXS_CONFIRMED;
	if (s->their_mac_ok)
		finish(s, out);
	return s->state;
}

void mx_sas_cancel(mx_sas *s, const char *code, const char *why, mx_sas_out *out)
{
	out_reset(s, out);
	sas_cancel(s, code, why, out);
}

int mx_sas_state(const mx_sas *s)
{
	return s->state;
}

const char *mx_sas_txn(const mx_sas *s)
{
	return s->txn;
}

const char *mx_sas_user(const mx_sas *s)
{
	return s->user;
}

const char *mx_sas_device(const mx_sas *s)
{
	return s->dev;
}

const char *mx_sas_emoji(const mx_sas *s)
{
	return s->emoji;
}

const char *mx_sas_decimals(const mx_sas *s)
{
	return s->decimals;
}

const char *mx_sas_why(const mx_sas *s)
{
	return s->why;
}
