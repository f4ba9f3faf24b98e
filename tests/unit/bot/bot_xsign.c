/* bot_xsign.c: the bot's cross-signing keys (adapters/matrix/matrix_xsign.c) and SAS verification
 * (adapters/matrix/matrix_sas.c) with in-memory stores: keys made, signed as the spec asks, kept pickled and
 * reopened, refused under another pickle key; a whole SAS exchange against a starter built here on
 * libolm, with a MAC check, a mismatch, a bad MAC and stray events. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <olm/olm.h>
#include <olm/sas.h>
#include "check.h"
#include "memstore.h"
#include "matrix_crypto.h"
#include "matrix_crypto_int.h"
#include "matrix_sas.h"
#include "matrix_xsign.h"

#define BOT "@cardbot:example.org"
#define ANN "@ann:example.org"
#define KEY_BOT "the bot's pickle key, long enough"

static mx_crypto *open_dev(const char *user, const char *dev, const char *pk, mem *m)
{
	char err[256];
	mx_crypto_store st = store_of(m);
	mx_crypto *c = mx_crypto_new(user, dev, pk, &st, err, sizeof err);
	CHECK(c != NULL, "mx_crypto_new %s %s: %s", user, dev, err);
	return c;
}

static json_object *jpath(json_object *o, const char *a, const char *b)
{
	if (o && a && !json_object_object_get_ex(o, a, &o))
		return NULL;
	if (o && b && !json_object_object_get_ex(o, b, &o))
		return NULL;
	return o;
}

/* The one key of a key object ({"keys": {"ed25519:X": X}}). */
static const char *one_key(json_object *ko)
{
	json_object *keys = jpath(ko, "keys", NULL);
	json_object_object_foreach(keys, k, v) {
		(void)k;
		return json_object_get_string(v);
	}
	return NULL;
}

/* Whether o carries a good signature by BOT's key ed (key id "ed25519:<id>"). */
static int signed_by(mx_crypto *c, json_object *o, const char *id, const char *ed)
{
	char kid[300];
	snprintf(kid, sizeof kid, "ed25519:%s", id);
	json_object *sig = jpath(jpath(o, "signatures", BOT), kid, NULL);
	char *text = mxc_signed_text(o);
	int ok = sig && text && mxc_ed25519_ok(c, ed, text, json_object_get_string(sig));
	free(text);
	return ok;
}

static void test_keys(void)
{
	mem m = { 0 };
	mx_crypto *c = open_dev(BOT, "BOTDEV", KEY_BOT, &m);
	char err[256] = "", master[64], master2[64];
	CHECK(mx_xsign_stage(c) == MXX_DONE, "no keys: nothing to publish");
	CHECK(mx_xsign_load(c, err, sizeof err) == 0, "keys made: %s", err);
	CHECK(mx_xsign_stage(c) == MXX_KEYS, "new keys are to go up");
	CHECK(mx_xsign_master(c, master, sizeof master) == 0 && strlen(master) == 43, "a master key");

	json_object *auth = json_tokener_parse("{\"type\":\"m.login.password\",\"password\":\"pw\"}");
	char *text = mx_xsign_keys_body(c, auth);
	json_object *body = text ? json_tokener_parse(text) : NULL;
	CHECK(body != NULL, "a keys body");
	json_object *mk = jpath(body, "master_key", NULL), *sk = jpath(body, "self_signing_key", NULL);
	json_object *uk = jpath(body, "user_signing_key", NULL);
	CHECK(mk && sk && uk, "three keys");
	CHECK(one_key(mk) && !strcmp(one_key(mk), master), "the master key is the kept one");
	json_object *usage = jpath(mk, "usage", NULL);
	CHECK(usage && json_object_array_length(usage) == 1
	      && !strcmp(json_object_get_string(json_object_array_get_idx(usage, 0)), "master"), "master usage");
	CHECK(signed_by(c, sk, master, master), "the self-signing key is signed by the master key");
	CHECK(signed_by(c, uk, master, master), "the user-signing key is signed by the master key");
	CHECK(signed_by(c, mk, "BOTDEV", mx_crypto_ed25519(c)), "the master key is signed by the device");
	json_object *pw = jpath(body, "auth", "password");
	CHECK(pw && !strcmp(json_object_get_string(pw), "pw"), "auth is added");
	const char *ssk = one_key(sk);
	char ssk_copy[64];
	snprintf(ssk_copy, sizeof ssk_copy, "%s", ssk ? ssk : "");
	/* No private key in the clear in the store: the record holds pickles and public keys only. */
	const char *rec = mem_value(&m, "e2ee.xsign");
	CHECK(rec && strstr(rec, "\"pickle\"") && strstr(rec, master), "the record keeps pickles and public keys");
	json_object_put(body);
	json_object_put(auth);
	free(text);

	mx_xsign_done(c, MXX_KEYS);
	CHECK(mx_xsign_stage(c) == MXX_SIGNATURE, "after the keys, the signature");
	text = mx_xsign_signature_body(c);
	body = text ? json_tokener_parse(text) : NULL;
	json_object *dk = jpath(jpath(body, BOT, "BOTDEV"), NULL, NULL);
	CHECK(dk && signed_by(c, dk, ssk_copy, ssk_copy), "the device keys are signed by the self-signing key");
	CHECK(dk && signed_by(c, dk, "BOTDEV", mx_crypto_ed25519(c)), "and still by the device");
	json_object_put(body);
	free(text);
	mx_xsign_done(c, MXX_SIGNATURE);
	CHECK(mx_xsign_stage(c) == MXX_DONE, "both went up");
	mx_crypto_free(c);

	/* A restart: the same keys, nothing more to publish. */
	c = open_dev(BOT, "BOTDEV", KEY_BOT, &m);
	CHECK(mx_xsign_load(c, err, sizeof err) == 0, "kept keys open: %s", err);
	CHECK(mx_xsign_master(c, master2, sizeof master2) == 0 && !strcmp(master, master2), "the same master key");
	CHECK(mx_xsign_stage(c) == MXX_DONE, "nothing to publish after a restart");
	mx_crypto_free(c);

	/* Another pickle key does not open them (the account first: it fails already there). */
	mem m2 = { 0 };
	c = open_dev(BOT, "BOTDEV", KEY_BOT, &m2);
	CHECK(mx_xsign_load(c, err, sizeof err) == 0, "keys made");
	mx_crypto_free(c);
	char *acct = strdup(mem_value(&m2, "e2ee.account"));
	mem_set(&m2, "e2ee.account", NULL);
	c = open_dev(BOT, "BOTDEV", "another pickle key, long enough", &m2);
	err[0] = '\0';
	CHECK(mx_xsign_load(c, err, sizeof err) < 0 && strstr(err, "pickle key"), "another pickle key: %s", err);
	mx_crypto_free(c);
	free(acct);
	mem_free(&m2);
	mem_free(&m);
}

/* ---- SAS: the bot answers, the starter is built here on libolm ---- */

typedef struct starter {
	OlmSAS *sas;
	char pub[64];
} starter;

static void starter_new(starter *st)
{
	st->sas = olm_sas(malloc(olm_sas_size()));
	size_t rl = olm_create_sas_random_length(st->sas);
	uint8_t *r = malloc(rl);
	mxc_random(r, rl);
	olm_create_sas(st->sas, r, rl);
	free(r);
	size_t pl = olm_sas_pubkey_length(st->sas);
	olm_sas_get_pubkey(st->sas, st->pub, pl);
	st->pub[pl] = '\0';
}

static void starter_free(starter *st)
{
	olm_clear_sas(st->sas);
	free(st->sas);
}

/* The MAC (v2) of input from (fu, fd) to (tu, td) under key id kid. */
static void starter_mac(starter *st, const char *input, const char *fu, const char *fd, const char *tu,
			const char *td, const char *txn, const char *kid, char *out)
{
	char info[1024];
	snprintf(info, sizeof info, "MATRIX_KEY_VERIFICATION_MAC%s%s%s%s%s%s", fu, fd, tu, td, txn, kid);
	size_t ml = olm_sas_mac_length(st->sas);
	olm_sas_calculate_mac_fixed_base64(st->sas, input, strlen(input), info, strlen(info), out, ml);
	out[ml] = '\0';
}

static const char *out_type(const mx_sas_out *o, int i)
{
	return i < o->n ? o->type[i] : "";
}

static json_object *content_of(const char *text)
{
	return json_tokener_parse(text);
}

/* Runs a SAS up to MXS_SHOW; the bot knows ANN's device ANNDEV. Returns the verification. */
static mx_sas *sas_to_show(mx_crypto *bot, starter *st, const char *txn, char *decimals, size_t dlen)
{
	mx_sas *s = mx_sas_new(bot, ANN, "ANNDEV", txn, "MASTERKEYMASTERKEYMASTERKEYMASTERKEYMASTERK");
	mx_sas_out out;
	json_object *req = content_of("{\"from_device\":\"ANNDEV\",\"methods\":[\"m.sas.v1\"],\"timestamp\":1}");
	CHECK(mx_sas_event(s, "m.key.verification.request", req, &out) == MXS_WAITING
	      && !strcmp(out_type(&out, 0), "m.key.verification.ready"), "a request is answered ready");
	json_object_put(req);
	json_object *start = content_of("{\"from_device\":\"ANNDEV\",\"method\":\"m.sas.v1\","
		"\"key_agreement_protocols\":[\"curve25519-hkdf-sha256\"],\"hashes\":[\"sha256\"],"
		"\"message_authentication_codes\":[\"hkdf-hmac-sha256.v2\",\"hkdf-hmac-sha256\"],"
		"\"short_authentication_string\":[\"decimal\",\"emoji\"],\"transaction_id\":\"T1\"}");
	mx_sas_event(s, "m.key.verification.start", start, &out);
	CHECK(!strcmp(out_type(&out, 0), "m.key.verification.accept"), "a start is accepted");
	json_object *acc = out.n ? json_object_get(out.content[0]) : NULL, *v;
	CHECK(acc && json_object_object_get_ex(acc, "message_authentication_code", &v)
	      && !strcmp(json_object_get_string(v), "hkdf-hmac-sha256.v2"), "the v2 MAC is chosen");
	char *canon = mx_canonical_json(start);
	json_object_put(start);
	starter_new(st);
	json_object *key = json_object_new_object();
	json_object_object_add(key, "key", json_object_new_string(st->pub));
	mx_sas_event(s, "m.key.verification.key", key, &out);
	json_object_put(key);
	CHECK(mx_sas_state(s) == MXS_SHOW && !strcmp(out_type(&out, 0), "m.key.verification.key"),
	      "after their key, the bot's key and the strings to show");
	const char *bot_key = out.n && json_object_object_get_ex(out.content[0], "key", &v) ? json_object_get_string(v) : "";
	/* The commitment is the hash of the bot's key and the start's canonical JSON. */
	char both[4096], hash[64];
	snprintf(both, sizeof both, "%s%s", bot_key, canon);
	mxc_sha256_b64(bot, both, strlen(both), hash, sizeof hash);
	CHECK(acc && json_object_object_get_ex(acc, "commitment", &v) && !strcmp(json_object_get_string(v), hash),
	      "the commitment is sha256(key + canonical start)");
	free(canon);
	json_object_put(acc);
	/* The starter's own strings. */
	char copy[64], info[1024];
	uint8_t b[6];
	snprintf(copy, sizeof copy, "%s", bot_key);
	olm_sas_set_their_key(st->sas, copy, strlen(copy));
	snprintf(info, sizeof info, "MATRIX_KEY_VERIFICATION_SAS|%s|%s|%s|%s|%s|%s|%s", ANN, "ANNDEV", st->pub, BOT,
		 "BOTDEV", bot_key, txn);
	olm_sas_generate_bytes(st->sas, info, strlen(info), b, 6);
	snprintf(decimals, dlen, "%d %d %d", (b[0] << 5 | b[1] >> 3) + 1000,
		 ((b[1] & 7) << 10 | b[2] << 2 | b[3] >> 6) + 1000, ((b[3] & 0x3f) << 7 | b[4] >> 1) + 1000);
	return s;
}

/* Their MAC event over ANNDEV's key ed (good) or a wrong key (bad). */
static json_object *their_mac(starter *st, const char *ed, const char *txn)
{
	char mac[128], keys[128];
	starter_mac(st, ed, ANN, "ANNDEV", BOT, "BOTDEV", txn, "ed25519:ANNDEV", mac);
	starter_mac(st, "ed25519:ANNDEV", ANN, "ANNDEV", BOT, "BOTDEV", txn, "KEY_IDS", keys);
	json_object *c = json_object_new_object(), *m = json_object_new_object();
	json_object_object_add(m, "ed25519:ANNDEV", json_object_new_string(mac));
	json_object_object_add(c, "mac", m);
	json_object_object_add(c, "keys", json_object_new_string(keys));
	return c;
}

static void test_sas(void)
{
	mem mb = { 0 }, ma = { 0 };
	mx_crypto *bot = open_dev(BOT, "BOTDEV", KEY_BOT, &mb), *ann = open_dev(ANN, "ANNDEV", KEY_BOT, &ma);
	/* The bot reads ann's device (as /keys/query would give it). */
	char *up = mx_crypto_upload_body(ann, -1);
	json_object *upo = json_tokener_parse(up), *dk, *reply = json_object_new_object(), *u = json_object_new_object();
	json_object *dks = json_object_new_object();
	json_object_object_get_ex(upo, "device_keys", &dk);
	json_object_object_add(u, "ANNDEV", json_object_get(dk));
	json_object_object_add(dks, ANN, u);
	json_object_object_add(reply, "device_keys", dks);
	CHECK(mx_crypto_query_done(bot, reply) == 1, "the bot knows ann's device");
	json_object_put(reply);
	json_object_put(upo);
	free(up);

	/* A whole verification: strings equal on both sides, MACs both ways, done. */
	starter st;
	char dec[32];
	mx_sas *s = sas_to_show(bot, &st, "T1", dec, sizeof dec);
	CHECK(!strcmp(mx_sas_decimals(s), dec), "both sides show the same numbers (%s, %s)", mx_sas_decimals(s), dec);
	CHECK(strlen(mx_sas_emoji(s)) > 20, "seven emoji: %s", mx_sas_emoji(s));
	mx_sas_out out;
	json_object *mac = their_mac(&st, mx_crypto_ed25519(ann), "T1");
	CHECK(mx_sas_event(s, "m.key.verification.mac", mac, &out) == MXS_SHOW && out.n == 0,
	      "their MAC before the operator's answer: checked and kept, nothing sent");
	json_object_put(mac);
	CHECK(mx_sas_confirm(s, 1, &out) == MXS_DONE && !strcmp(out_type(&out, 0), "m.key.verification.mac")
	      && !strcmp(out_type(&out, 1), "m.key.verification.done"), "confirmed: the bot's MAC, then done");
	/* The starter checks the bot's MAC over its device key and master key. */
	json_object *bm = out.content[0], *macs, *v;
	char want[128];
	json_object_object_get_ex(bm, "mac", &macs);
	starter_mac(&st, mx_crypto_ed25519(bot), BOT, "BOTDEV", ANN, "ANNDEV", "T1", "ed25519:BOTDEV", want);
	CHECK(json_object_object_get_ex(macs, "ed25519:BOTDEV", &v) && !strcmp(json_object_get_string(v), want),
	      "the bot's MAC of its device key checks out");
	starter_mac(&st, "MASTERKEYMASTERKEYMASTERKEYMASTERKEYMASTERK", BOT, "BOTDEV", ANN, "ANNDEV", "T1",
		    "ed25519:MASTERKEYMASTERKEYMASTERKEYMASTERKEYMASTERK", want);
	CHECK(json_object_object_get_ex(macs, "ed25519:MASTERKEYMASTERKEYMASTERKEYMASTERKEYMASTERK", &v)
	      && !strcmp(json_object_get_string(v), want), "and of its master key");
	mx_sas_free(s);
	starter_free(&st);

	/* The operator says the strings differ: cancelled, no MAC. */
	s = sas_to_show(bot, &st, "T2", dec, sizeof dec);
	CHECK(mx_sas_confirm(s, 0, &out) == MXS_CANCELLED && !strcmp(out_type(&out, 0), "m.key.verification.cancel"),
	      "denied: cancelled");
	mx_sas_free(s);
	starter_free(&st);

	/* A MAC over another key: cancelled, even after the operator confirmed. */
	s = sas_to_show(bot, &st, "T3", dec, sizeof dec);
	mx_sas_confirm(s, 1, &out);
	mac = their_mac(&st, mx_crypto_ed25519(bot), "T3");
	CHECK(mx_sas_event(s, "m.key.verification.mac", mac, &out) == MXS_CANCELLED
	      && !strcmp(out_type(&out, 0), "m.key.verification.cancel"), "a MAC over the wrong key cancels");
	json_object_put(mac);
	mx_sas_free(s);
	starter_free(&st);

	/* Out of order and unknown methods. */
	s = mx_sas_new(bot, ANN, "ANNDEV", "T4", NULL);
	json_object *k = content_of("{\"key\":\"abc\"}");
	CHECK(mx_sas_event(s, "m.key.verification.key", k, &out) == MXS_CANCELLED, "a key before a start cancels");
	json_object_put(k);
	mx_sas_free(s);
	s = mx_sas_new(bot, ANN, "ANNDEV", "T5", NULL);
	json_object *st2 = content_of("{\"from_device\":\"ANNDEV\",\"method\":\"m.sas.v1\","
		"\"key_agreement_protocols\":[\"curve25519\"],\"hashes\":[\"sha256\"],"
		"\"message_authentication_codes\":[\"hkdf-hmac-sha256\"],\"short_authentication_string\":[\"decimal\"]}");
	CHECK(mx_sas_event(s, "m.key.verification.start", st2, &out) == MXS_CANCELLED, "no method in common cancels");
	json_object_put(st2);
	mx_sas_free(s);
	CHECK(mx_sas_new(bot, "", "ANNDEV", "T", NULL) == NULL, "no user: refused");

	mx_crypto_free(bot);
	mx_crypto_free(ann);
	mem_free(&mb);
	mem_free(&ma);
}

int main(void)
{
	test_keys();
	test_sas();
	return check_report("bot_xsign");
}
