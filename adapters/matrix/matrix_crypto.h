/* matrix_crypto.h: end-to-end encryption for the Matrix adapter, over libolm.
 *
 * The bot's device (an Olm account: its identity keys and one-time keys),
 * Olm sessions with other devices (to-device messages: room keys), Megolm
 * sessions for rooms (one outbound session per encrypted room the bot
 * speaks in, inbound sessions for what others say), and what the bot knows
 * of other people's devices (trust on first use).
 *
 * No network here: these functions build the JSON the adapter sends and read
 * the JSON it receives (matrix_e2ee.c does the requests). Everything that
 * must survive a restart is written through the store callbacks at once,
 * before the function returns, so a kill -9 at any point loses no session:
 * the account after keys are made or published, an Olm session after every
 * message it encrypts or decrypts, a Megolm session when it is made and after
 * every message it encrypts. Pickles are encrypted with the pickle key (a
 * secret the operator keeps in a file); nothing secret is ever logged.
 *
 * Store keys used (values are text, at most MXC_VALUE_MAX bytes):
 *   "e2ee.account"                      the account pickle, what was published, whether it has a fallback key
 *   "e2ee.olm.<curve25519 key>"         the Olm sessions with that device, newest first
 *   "e2ee.in.<room>|<sender key>|<session id>"  an inbound Megolm session
 *   "e2ee.out.<room>"                   the room's outbound Megolm session and whom it was shared with
 *   "e2ee.own.<room>|<session id>"      a copy of each outbound Megolm session the bot made, and who may ask for it from which index
 *   "e2ee.dev.<user id>"                that user's devices and their keys as first seen
 */
#ifndef CARDBOT_MATRIX_CRYPTO_H
#define CARDBOT_MATRIX_CRYPTO_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#define MXC_VALUE_MAX (64 * 1024)    /* one stored value */
#define MXC_KEY_MAX 600              /* one store key */
#define MXC_OLM_KEEP 4               /* Olm sessions kept per device */
#define MXC_DEVICES_MAX 64           /* devices kept per user (more are ignored, logged) */
#define MXC_CLAIM_WAIT_MS 30000      /* a device that had no one-time key is claimed for again after this... */
#define MXC_CLAIM_WAIT_MAX_MS (30 * 60 * 1000) /* ...doubling up to this */
#define MXC_ROTATE_MSGS 100          /* a Megolm session is replaced after this many messages... */
#define MXC_ROTATE_MS (7LL * 24 * 3600 * 1000) /* ...or this long, unless the room's m.room.encryption says less */

#define MXC_OLM_ALGO "m.olm.v1.curve25519-aes-sha2"
#define MXC_MEGOLM_ALGO "m.megolm.v1.aes-sha2"

typedef struct mx_crypto mx_crypto;

/* Where the crypto state lives (the adapter passes the host's state_get and
 * state_set). get copies the value of key into out (NUL-terminated) and
 * returns 1, 0 when there is none; set stores value (NULL deletes) and
 * returns 0, or -1 when it could not be stored (the caller then must not
 * send what depends on it). */
typedef struct mx_crypto_store {
	void *ctx;
	int (*get)(void *ctx, const char *key, char *out, size_t len);
	int (*set)(void *ctx, const char *key, const char *value);
	/* Logging (may be NULL): level "debug", "info", "warn", "error". Never
	 * passed a key, a pickle or a decrypted text. */
	void (*log)(void *ctx, const char *level, const char *text);
} mx_crypto_store;

/* Loads the account kept in the store for this user and device, or makes a
 * new one (and stores it). A kept account for another user or device, or one
 * the pickle key does not open, is an error (written into err): the caller
 * must not replace it silently. pickle_key: any bytes, at least 16. */
mx_crypto *mx_crypto_new(const char *user_id, const char *device_id, const char *pickle_key,
			 const mx_crypto_store *st, char *err, size_t errlen);
void mx_crypto_free(mx_crypto *c);

/* The device's public identity keys (unpadded base64). */
const char *mx_crypto_curve25519(const mx_crypto *c);
const char *mx_crypto_ed25519(const mx_crypto *c);
/* The ed25519 key as Element shows a session key: groups of four
 * characters separated by spaces. */
void mx_crypto_fingerprint(const mx_crypto *c, char *out, size_t len);

/* ---- publishing keys (POST /keys/upload) ---- */

/* The body of a /keys/upload that is due, or NULL when nothing is:
 * the signed device keys while they were not published, a signed fallback
 * key (fallback_keys, spec v1.2) not yet published, and signed
 * one-time keys to bring the server's count (server_count, from /sync's
 * device_one_time_keys_count.signed_curve25519 or the last upload's reply;
 * -1 when unknown) up to half of what the account can hold. New one-time
 * keys are stored before the body is returned, so a retry after a crash
 * uploads the same keys. Caller frees. */
char *mx_crypto_upload_body(mx_crypto *c, int server_count);
/* The server holds no unused fallback key of the bot's (/sync's
 * device_unused_fallback_key_types lacks signed_curve25519: a claim took
 * it): a new one is made and stored, for the next upload body. Returns 1
 * when one was made, 0 when one is already waiting to go up (or the device
 * is not published yet: its first upload carries one). */
int mx_crypto_fallback_used(mx_crypto *c);
/* The upload went through: keys are marked published (and stored).
 * Returns the server's signed_curve25519 count from the reply, or -1. */
int mx_crypto_upload_done(mx_crypto *c, json_object *reply);

/* ---- other devices (POST /keys/query, POST /keys/claim) ---- */

/* Reads a /keys/query reply: each device's keys are checked (user and
 * device ids as asked, the algorithms, its ed25519 signature over the
 * canonical JSON) and kept; a device seen before under other keys is
 * refused for good (logged as a warning): trust on first use. Devices the
 * reply no longer lists are forgotten. Returns the number of users read, or
 * -1 when the reply is not a query reply. */
int mx_crypto_query_done(mx_crypto *c, json_object *reply);
/* The devices of user known now (after a query): their count, and each
 * one's id into ids (up to max, each at most 256 bytes). */
int mx_crypto_devices(mx_crypto *c, const char *user, char ids[][256], int max);
/* Whether the bot has ever had this user's device list (from a query). */
int mx_crypto_user_known(mx_crypto *c, const char *user);

/* The body of a /keys/claim for the devices in users[] (all their
 * trusted devices) with which the bot has no Olm session yet, or NULL when
 * there are none. A device is asked at once the first time; one that got no
 * key (its one-time keys ran out, and it has no fallback key) is asked again
 * after MXC_CLAIM_WAIT_MS, then twice as long each time: the back-off is
 * the device's, so a device new to a room is never held back by another's.
 * Caller frees. */
char *mx_crypto_claim_body(mx_crypto *c, const char *const *users, int nusers, int64_t now_ms);
/* The /keys/claim of the last claim body failed (no reply, or an error):
 * its devices may be asked again at once. */
void mx_crypto_claim_failed(mx_crypto *c);
/* Reads a /keys/claim reply: for each one-time key whose signature by its
 * device checks out, an outbound Olm session is made and stored. Returns the
 * number of sessions made, -1 when the reply is not a claim reply. */
int mx_crypto_claim_done(mx_crypto *c, json_object *reply);

/* ---- rooms (Megolm) ---- */

/* Settings of a room's m.room.encryption (0: the defaults above). Must be
 * called before the first encrypt in a room; may be called again. */
void mx_crypto_room_settings(mx_crypto *c, const char *room, long rotation_msgs, int64_t rotation_ms);
/* Drops the room's outbound session (someone left, or a device vanished):
 * the next message starts a new one, shared afresh. */
void mx_crypto_room_rotate(mx_crypto *c, const char *room);
/* The to-device body (PUT /sendToDevice/m.room.encrypted/{txn}) that gives
 * the room's current outbound session (made if there is none, or if it is
 * due for rotation at now_ms) to every trusted device of users[] that does
 * not have it yet and with which an Olm session exists; NULL when every
 * such device has it. Devices are marked as given the key when the body is
 * made (and stored): call again only after the send failed for good with
 * mx_crypto_share_failed. *missing is set to the number of trusted devices
 * of users[] still without an Olm session (claim first) . Caller frees. */
char *mx_crypto_share_body(mx_crypto *c, const char *room, const char *const *users, int nusers,
			   int64_t now_ms, int *missing);
/* The sendToDevice of the last share_body for this room was refused for
 * good: its devices count as not given the key again. */
void mx_crypto_share_failed(mx_crypto *c, const char *room);
/* Encrypts an event of type `type` with content JSON `content` for the room
 * (its outbound session, which share_body must have made): the content of
 * the m.room.encrypted event to send, or NULL (no session, or due for
 * rotation: share first). Caller frees. */
char *mx_crypto_encrypt(mx_crypto *c, const char *room, const char *type, const char *content, int64_t now_ms);

/* What became of an encrypted event given to mx_crypto_decrypt. */
enum mxc_result {
	MXC_OK = 0,         /* decrypted: *plain is the decrypted event (caller frees) */
	MXC_NO_KEY,         /* no session for it (yet): keep it, try again when keys come */
	MXC_BAD,            /* malformed, unknown algorithm, fails to decrypt, wrong room: drop it */
	MXC_REPLAY,         /* a message index seen before in another event: drop it */
};
/* Decrypts a room event of type m.room.encrypted (the whole event object:
 * room_id may be absent, the room is given). On MXC_OK, *plain is the
 * decrypted event's JSON object ({"type", "content", "room_id"}), with
 * the room checked. */
int mx_crypto_decrypt(mx_crypto *c, const char *room, json_object *event, json_object **plain);

/* ---- to-device (from /sync's to_device.events) ---- */

/* Reads one to-device event. An Olm-encrypted m.room_key for us from a
 * trusted or unknown device makes an inbound Megolm session (stored), and
 * its room is written into room_out (else room_out is ""). Anything else is
 * read and ignored. Returns 1 when a room key was added, 0 otherwise (never
 * fails on bad input: it is logged at debug). */
int mx_crypto_to_device(mx_crypto *c, json_object *event, char *room_out, size_t room_len);

/* ---- key requests (m.room_key_request, answered by m.forwarded_room_key) ---- */

/* A key request read from a to-device event (MXC_ID_MAX and MXC_SID_MAX
 * are 255 and 128: the sizes below hold them). */
typedef struct mxc_key_request {
	int cancel;              /* a request_cancellation: room and session are "" */
	char user[256];          /* the event's sender */
	char device[256];        /* requesting_device_id */
	char request_id[256];
	char room[256];
	char session[129];
} mxc_key_request;

/* Reads a to-device m.room_key_request (it comes unencrypted) into out: 0,
 * or -1 when it is malformed, not for a Megolm session, or names another
 * device's session (sender_key not the bot's): logged at debug. Whether the
 * sender may have the key is not decided here (mx_crypto_forward_body and
 * the adapter's membership check). */
int mx_crypto_key_request(mx_crypto *c, json_object *event, mxc_key_request *out);

/* What became of mx_crypto_forward_body. */
enum mxc_forward {
	MXC_FWD_OK = 0,          /* *body is the sendToDevice body (caller frees) */
	MXC_FWD_CLAIM,           /* no Olm session with the device yet: claim a one-time key, then call again */
	MXC_FWD_REFUSED,         /* not a trusted device of user, or not a session of the bot's in room that
	                          * user was given (or would have been): logged at debug, nothing to send */
	MXC_FWD_FAILED,          /* an Olm or store failure */
};
/* The body of a PUT /sendToDevice/m.room.encrypted that gives user's device
 * dev the bot's Megolm session sid of room as an m.forwarded_room_key,
 * Olm-encrypted for that device only, exported at the message index the
 * session was at when user was first given it (or was first among the
 * people it went to): never an earlier message. The caller checks first
 * that user is in room now. */
int mx_crypto_forward_body(mx_crypto *c, const char *user, const char *dev, const char *room, const char *sid,
			   char **body);

/* ---- helpers ---- */

/* Writes o as canonical JSON (keys sorted by code point, no whitespace,
 * strings with only the escapes JSON requires) into a new string; NULL on
 * failure (a float, or too deep). Caller frees. */
char *mx_canonical_json(json_object *o);

#endif
