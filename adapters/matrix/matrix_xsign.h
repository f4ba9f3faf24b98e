/* matrix_xsign.h: the bot's cross-signing keys (master, self-signing, user-signing) and its device signed by them.
 *
 * Element shows a red shield on messages from a device its owner has not
 * signed; a device signed by its owner's self-signing key, whose master
 * key a player has verified, shows none. No network here: these functions
 * build the bodies the adapter sends and note what went up.
 *
 * Store key: "e2ee.xsign": the three private keys, each pickled under the
 * pickle key (never in the clear), their public halves, and how far the
 * publishing got. Made once, kept for good: a restart keeps the identity.
 */
#ifndef CARDBOT_MATRIX_XSIGN_H
#define CARDBOT_MATRIX_XSIGN_H

#include <stddef.h>
#include <json-c/json.h>
#include "matrix_crypto.h"

/* How far the keys went up. */
enum mx_xsign_stage {
	MXX_KEYS,           /* the keys are to go up: POST /keys/device_signing/upload */
	MXX_SIGNATURE,      /* the device's signature is to go up: POST /keys/signatures/upload */
	MXX_DONE,           /* both are published */
};

/* Reads the kept keys, or makes and keeps new ones: 0, or -1 with err
 * written (a kept record the pickle key does not open is an error, never
 * replaced). */
int mx_xsign_load(mx_crypto *c, char *err, size_t errlen);
/* What is to go up next (enum mx_xsign_stage); MXX_DONE before a load. */
int mx_xsign_stage(mx_crypto *c);
/* The body of POST /keys/device_signing/upload (the three public keys,
 * signed as the spec asks) with auth added when not NULL (borrowed), or
 * NULL. Caller frees. */
char *mx_xsign_keys_body(mx_crypto *c, json_object *auth);
/* The body of POST /keys/signatures/upload: the device's keys signed by the
 * self-signing key, or NULL. Caller frees. */
char *mx_xsign_signature_body(mx_crypto *c);
/* The request for the stage went through: the next stage is kept. */
void mx_xsign_done(mx_crypto *c, int stage);
/* The public master key (unpadded base64) into out (at least 44 bytes): 0, or -1 before a load. */
int mx_xsign_master(mx_crypto *c, char *out, size_t len);

#endif
