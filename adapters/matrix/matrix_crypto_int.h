/* matrix_crypto_int.h: what matrix_crypto.c lends the other crypto files (cross-signing, SAS) of the adapter.
 *
 * Private to adapters/matrix/matrix_crypto.c, matrix_xsign.c and matrix_sas.c:
 * the store, the pickle key and libolm's utilities stay in one place, and
 * these files borrow them through the mx_crypto they are given.
 */
#ifndef CARDBOT_MATRIX_CRYPTO_INT_H
#define CARDBOT_MATRIX_CRYPTO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "matrix_crypto.h"

#define MXC_SECRET_LEN 32        /* a cross-signing seed (ed25519), in bytes */

/* Logs at level ("debug", "info", "warn", "error"); never a secret. */
__attribute__((format(printf, 3, 4))) void mxc_logf(mx_crypto *c, const char *level, const char *fmt, ...);
/* The bot's user and device ids. */
const char *mxc_user(const mx_crypto *c);
const char *mxc_device(const mx_crypto *c);
/* The value kept under key as a JSON object (caller puts), or NULL. */
json_object *mxc_load(mx_crypto *c, const char *key);
/* Keeps o under key (NULL deletes): 0, or -1 when it could not be stored. */
int mxc_save(mx_crypto *c, const char *key, json_object *o);
/* len random bytes from the kernel: 0, or -1. */
int mxc_random(void *buf, size_t len);
/* Wipes and frees. */
void mxc_free_wiped(void *p, size_t len);
/* A secret as a pickle under the pickle key (a new string, caller frees),
 * or NULL; and back: 0, or -1 when the pickle does not open. */
char *mxc_seal(mx_crypto *c, const uint8_t secret[MXC_SECRET_LEN]);
int mxc_unseal(mx_crypto *c, const char *sealed, uint8_t secret[MXC_SECRET_LEN]);
/* The device's keys as /keys/upload publishes them, signed by the device
 * (caller puts), or NULL. */
json_object *mxc_device_keys(mx_crypto *c);
/* A device's keys as /keys/upload publishes them, not signed yet (caller
 * puts): the one place their shape is written (the tests sign their own). */
json_object *mxc_device_keys_of(const char *user, const char *dev, const char *curve, const char *ed);
/* Signs o (no signatures yet) with the device's ed25519 key: 0, or -1. */
int mxc_device_sign(mx_crypto *c, json_object *o);
/* The canonical JSON of o without "signatures" and "unsigned": what a
 * signature covers (caller frees), or NULL. */
char *mxc_signed_text(json_object *o);
/* Whether sig (unpadded base64) is ed25519 key's signature of text. */
int mxc_ed25519_ok(mx_crypto *c, const char *key, const char *text, const char *sig);
/* The unpadded base64 SHA-256 of len bytes into out (at least 44 bytes): 0, or -1. */
int mxc_sha256_b64(mx_crypto *c, const char *data, size_t len, char *out, size_t outlen);
/* The ed25519 key pinned for user's device dev while it is trusted, into
 * out (at least 44 bytes): 1, or 0 when the device is unknown or refused. */
int mxc_device_ed(mx_crypto *c, const char *user, const char *dev, char *out, size_t len);

#endif
