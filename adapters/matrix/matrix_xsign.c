/* matrix_xsign.c: cross-signing keys for the bot's user, kept pickled, and the bodies that publish them.
 *
 * The store is the only state, as in matrix_crypto.c: each call reads the
 * record, opens what it needs, and wipes it before returning. What the
 * header leaves open, decided here:
 *   - the master key is signed by the device too (as Element's own devices
 *     do), so a client that trusts the device first can also trust the key;
 *   - the stage is kept after each request succeeds: a crash between the two
 *     requests sends the signature again, never new keys (the homeserver
 *     would ask for interactive auth again, and players who verified the
 *     old master key would see it change).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <olm/olm.h>
#include <olm/pk.h>
#include "matrix_crypto_int.h"
#include "matrix_xsign.h"

#define MXX_STORE_KEY "e2ee.xsign"
#define MXX_PUB_MAX 64           /* a public key, unpadded base64 (43 bytes) */
#define MXX_SIG_MAX 128          /* a signature, unpadded base64 (86 bytes) */

/* The three keys, by their names in the store and in the spec's "usage". */
static const struct {
	const char *name;        /* in the store and the log */
	const char *usage;       /* the key object's usage */
	const char *field;       /* the member of /keys/device_signing/upload */
} mxx_keys[] = {
	{ "master", "master", "master_key" },
	{ "self_signing", "self_signing", "self_signing_key" },
	{ "user_signing", "user_signing", "user_signing_key" },
};
enum { MXX_MASTER, MXX_SELF, MXX_USER, MXX_NKEYS };

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static OlmPkSigning *signer_free(OlmPkSigning *s)
{
	if (s) {
		olm_clear_pk_signing(s);
		free(s);
	}
	return NULL;
}

/* A signer from a seed; its public key into pub. */
static OlmPkSigning *signer_of(const uint8_t seed[MXC_SECRET_LEN], char *pub, size_t publen)
{
	void *mem = malloc(olm_pk_signing_size());
	OlmPkSigning *s = mem ? olm_pk_signing(mem) : NULL;
	size_t plen = olm_pk_signing_public_key_length();
	if (!s || plen + 1 > publen || olm_pk_signing_seed_length() != MXC_SECRET_LEN)
		return signer_free(s);
	uint8_t copy[MXC_SECRET_LEN];
	memcpy(copy, seed, sizeof copy);
	size_t rc = olm_pk_signing_key_from_seed(s, pub, plen, copy, sizeof copy);
	explicit_bzero(copy, sizeof copy);
	if (rc == olm_error())
		return signer_free(s);
	pub[plen] = '\0';
	return s;
}

/* The signer of a kept key (which: MXX_*), or NULL; its public key into pub. */
static OlmPkSigning *signer_load(mx_crypto *c, json_object *rec, int which, char *pub, size_t publen)
{
	uint8_t seed[MXC_SECRET_LEN];
	const char *sealed = str_of(json_object_object_get(rec, mxx_keys[which].name), "pickle");
	if (!sealed || mxc_unseal(c, sealed, seed) < 0)
		return NULL;
	OlmPkSigning *s = signer_of(seed, pub, publen);
	explicit_bzero(seed, sizeof seed);
	return s;
}

/* Signs o (its canonical JSON without signatures) as user with key id
 * "ed25519:<pub>", adding the signature to those it has: 0, or -1. */
static int sign_into(mx_crypto *c, OlmPkSigning *s, const char *pub, json_object *o)
{
	char *text = mxc_signed_text(o), sig[MXX_SIG_MAX + 1], kid[MXX_PUB_MAX + 16];
	size_t slen = olm_pk_signature_length();
	int rc = -1;
	if (text && slen <= MXX_SIG_MAX
	    && olm_pk_sign(s, (const uint8_t *)text, strlen(text), (uint8_t *)sig, slen) != olm_error()) {
		sig[slen] = '\0';
		json_object *sigs = json_object_object_get(o, "signatures"), *mine;
		if (!sigs) {
			sigs = json_object_new_object();
			json_object_object_add(o, "signatures", sigs);
		}
		if (!json_object_object_get_ex(sigs, mxc_user(c), &mine)) {
			mine = json_object_new_object();
			json_object_object_add(sigs, mxc_user(c), mine);
		}
		snprintf(kid, sizeof kid, "ed25519:%.*s", MXX_PUB_MAX, pub);
		json_object_object_add(mine, kid, json_object_new_string(sig));
		rc = 0;
	}
	free(text);
	return rc;
}

/* Makes the three keys and keeps them (stage MXX_KEYS): 0, or -1. */
static int make_keys(mx_crypto *c)
{
	json_object *rec = json_object_new_object();
	int rc = 0;
	for (int i = 0; i < MXX_NKEYS && rc == 0; i++) {
		uint8_t seed[MXC_SECRET_LEN];
		char pub[MXX_PUB_MAX + 1];
		OlmPkSigning *s = NULL;
		char *sealed = NULL;
		rc = -1;
		if (mxc_random(seed, sizeof seed) == 0 && (s = signer_of(seed, pub, sizeof pub))
		    && (sealed = mxc_seal(c, seed))) {
			json_object *k = json_object_new_object();
			json_object_object_add(k, "pickle", json_object_new_string(sealed));
			json_object_object_add(k, "public", json_object_new_string(pub));
			json_object_object_add(rec, mxx_keys[i].name, k);
			rc = 0;
		}
		explicit_bzero(seed, sizeof seed);
		signer_free(s);
		if (sealed)
			mxc_free_wiped(sealed, strlen(sealed));
	}
	json_object_object_add(rec, "user", json_object_new_string(mxc_user(c)));
	json_object_object_add(rec, "stage", json_object_new_int(MXX_KEYS));
	if (rc == 0)
		rc = mxc_save(c, MXX_STORE_KEY, rec);
	json_object_put(rec);
	return rc;
}

int mx_xsign_load(mx_crypto *c, char *err, size_t errlen)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY);
	if (!rec) {
		if (make_keys(c) < 0) {
			snprintf(err, errlen, "could not make and keep cross-signing keys");
			return -1;
		}
		mxc_logf(c, "info", "e2ee: new cross-signing keys made (to be published)");
		return 0;
	}
	const char *user = str_of(rec, "user");
	int rc = 0;
	if (!user || strcmp(user, mxc_user(c))) {
		snprintf(err, errlen, "the kept cross-signing keys are not %.64s's", mxc_user(c));
		rc = -1;
	}
	for (int i = 0; i < MXX_NKEYS && rc == 0; i++) {
		char pub[MXX_PUB_MAX + 1];
		OlmPkSigning *s = signer_load(c, rec, i, pub, sizeof pub);
		const char *kept = str_of(json_object_object_get(rec, mxx_keys[i].name), "public");
		if (!s || !kept || strcmp(kept, pub)) {
			snprintf(err, errlen, "the pickle key does not open the kept cross-signing keys");
			rc = -1;
		}
		signer_free(s);
	}
	json_object_put(rec);
	return rc;
}

int mx_xsign_stage(mx_crypto *c)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY), *st;
	int stage = rec && json_object_object_get_ex(rec, "stage", &st) ? json_object_get_int(st) : MXX_DONE;
	json_object_put(rec);
	return stage < MXX_KEYS || stage > MXX_DONE ? MXX_DONE : stage;
}

void mx_xsign_done(mx_crypto *c, int stage)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY);
	if (!rec)
		return;
	json_object_object_add(rec, "stage", json_object_new_int(stage + 1 > MXX_DONE ? MXX_DONE : stage + 1));
	if (mxc_save(c, MXX_STORE_KEY, rec) < 0)
		mxc_logf(c, "error", "e2ee: could not keep that the cross-signing keys went up");
	json_object_put(rec);
}

int mx_xsign_master(mx_crypto *c, char *out, size_t len)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY);
	const char *pub = str_of(json_object_object_get(rec, "master"), "public");
	int rc = pub && strlen(pub) < len ? 0 : -1;
	if (rc == 0)
		snprintf(out, len, "%s", pub);
	json_object_put(rec);
	return rc;
}

/* A cross-signing key object: {"user_id", "usage": [usage], "keys": {"ed25519:<pub>": pub}}. */
static json_object *key_object(mx_crypto *c, int which, const char *pub)
{
	char kid[MXX_PUB_MAX + 16];
	json_object *o = json_object_new_object(), *usage = json_object_new_array(), *keys = json_object_new_object();
	json_object_object_add(o, "user_id", json_object_new_string(mxc_user(c)));
	json_object_array_add(usage, json_object_new_string(mxx_keys[which].usage));
	json_object_object_add(o, "usage", usage);
	snprintf(kid, sizeof kid, "ed25519:%.*s", MXX_PUB_MAX, pub);
	json_object_object_add(keys, kid, json_object_new_string(pub));
	json_object_object_add(o, "keys", keys);
	return o;
}

char *mx_xsign_keys_body(mx_crypto *c, json_object *auth)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY);
	char pub[MXX_NKEYS][MXX_PUB_MAX + 1];
	OlmPkSigning *master = rec ? signer_load(c, rec, MXX_MASTER, pub[MXX_MASTER], sizeof pub[0]) : NULL;
	int ok = master != NULL;
	json_object *body = json_object_new_object();
	for (int i = 0; i < MXX_NKEYS && ok; i++) {
		const char *p = str_of(json_object_object_get(rec, mxx_keys[i].name), "public");
		ok = p && strlen(p) <= MXX_PUB_MAX;
		if (!ok)
			break;
		snprintf(pub[i], sizeof pub[i], "%s", p);
		json_object *o = key_object(c, i, pub[i]);
		if (i == MXX_MASTER)
			ok = mxc_device_sign(c, o) == 0;
		else
			ok = sign_into(c, master, pub[MXX_MASTER], o) == 0;
		json_object_object_add(body, mxx_keys[i].field, o);
	}
	if (ok && auth)
		json_object_object_add(body, "auth", json_object_get(auth));
	char *text = NULL;
	if (ok) {
		size_t len;
		const char *s = json_object_to_json_string_length(body, JSON_C_TO_STRING_PLAIN
								  | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
		text = s ? strdup(s) : NULL;
		if (s)
			explicit_bzero((char *)s, len); /* auth may hold the password */
	}
	json_object_put(body);
	json_object_put(rec);
	signer_free(master);
	return text;
}

char *mx_xsign_signature_body(mx_crypto *c)
{
	json_object *rec = mxc_load(c, MXX_STORE_KEY);
	char pub[MXX_PUB_MAX + 1];
	OlmPkSigning *self = rec ? signer_load(c, rec, MXX_SELF, pub, sizeof pub) : NULL;
	json_object *dk = self ? mxc_device_keys(c) : NULL;
	char *text = NULL;
	if (dk && sign_into(c, self, pub, dk) == 0) {
		json_object *body = json_object_new_object(), *mine = json_object_new_object();
		json_object_object_add(mine, mxc_device(c), json_object_get(dk));
		json_object_object_add(body, mxc_user(c), mine);
		text = strdup(json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN
							      | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(body);
	}
	json_object_put(dk);
	json_object_put(rec);
	signer_free(self);
	return text;
}
