/* matrix_e2ee.c: end-to-end encryption at work: keys published, devices read and claimed, room keys shared, events
 * encrypted and decrypted.
 *
 * The cryptography and what must be kept are in matrix_crypto.c; this file
 * makes the requests (/keys/upload, /keys/query, /keys/claim,
 * /sendToDevice) and fits them into the adapter's flow:
 *
 * - Sending in an encrypted room waits until the room is ready
 *   (mx_e2ee_ready): every member's device list read this run, one-time
 *   keys claimed for devices the bot has no Olm session with, and the
 *   room's Megolm session given to every device that lacks it. One such
 *   request is out at a time; each reply kicks the dispatcher again.
 * - A room's first message after a start uses a new Megolm session, so a
 *   key that was marked as given when the bot was killed, and never left,
 *   cannot leave anyone unable to read.
 * - An encrypted message whose key has not come waits (MX_PENDING_MAX,
 *   MX_PENDING_KEEP_MS) and is read when the key arrives; after
 *   MX_UNREADABLE_MS its sender is told, once, that the bot could not
 *   read it.
 * - A key request (m.room_key_request) from a device of someone in the room
 *   now waits in m->keyreqs (MX_KEYREQS_MAX, MX_KEYREQS_USER a user) until
 *   nothing else is out; its device is read and claimed for if need be,
 *   and matrix_crypto.c decides whether the key goes and from which index
 *   (docs/SECURITY.md, "Key requests on Matrix"). Waiting requests are not
 *   kept over a restart, nor is an answer sent again whose send failed:
 *   the client asks again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matrix_internal.h"
#include "matrix_xsign.h"

struct mx_known {
	char user[ADAPTER_ID_MAX];
	int stale;                     /* device_lists.changed named them: read again */
};

struct mx_pending {
	struct mx_pending *next;
	char room[ADAPTER_ID_MAX];
	char sender[ADAPTER_ID_MAX];
	int64_t at;
	int told;
	json_object *event;            /* owned */
};

/* A key request waiting for its answer (its device read, a one-time key claimed). */
struct mx_keyreq {
	mxc_key_request q;
	int claimed;                   /* a one-time key was claimed for its device: no second try */
	int queried;                   /* its user's devices were read again for it: no second try */
};

#define MX_E2EE_TICK_MS 2000
#define MX_QUERY_USERS 100          /* users asked about in one /keys/query */
#define MX_ROOM_USERS 512           /* users a room's key goes to (its members, or the direct room's partner) */

/* ---- the store: the host's adapter state ---- */

static int store_get(void *ctx, const char *key, char *out, size_t len)
{
	matrix *m = ctx;
	out[0] = '\0';
	return m->base.host.state_get && m->base.host.state_get(m->base.host.ctx, &m->base, key, out, len) == 1;
}

static int store_set(void *ctx, const char *key, const char *value)
{
	matrix *m = ctx;
	if (!m->base.host.state_set)
		return -1;
	return m->base.host.state_set(m->base.host.ctx, &m->base, key, value) < 0 ? -1 : 0;
}

static void store_log(void *ctx, const char *level, const char *text)
{
	LOG((matrix *)ctx, level, "%s", text);
}

/* ---- keys of the bot's own device ---- */

static void upload_keys(matrix *m)
{
	if (!m->crypto || m->uploading || m->stopping || m->fatal)
		return;
	char *body = mx_crypto_upload_body(m->crypto, m->otk_count);
	if (!body)
		return;
	if (mx_request(m, REQ_KEYS_UPLOAD, "POST", "/_matrix/client/v3/keys/upload", body, MX_SEND_TIMEOUT_MS))
		m->uploading = 1;
}

int mx_e2ee_start(matrix *m)
{
	if (!m->set.encryption || m->crypto)
		return 0;
	if (!m->device[0]) {
		mx_fatal(m, "end-to-end encryption needs a device id, and the homeserver gave none: set device_id");
		return -1;
	}
	mx_crypto_store st = { .ctx = m, .get = store_get, .set = store_set, .log = store_log };
	char err[512] = "";
	m->crypto = mx_crypto_new(m->set.user_id, m->device, m->set.pickle_key, &st, err, sizeof err);
	if (!m->crypto) {
		char line[700];
		snprintf(line, sizeof line, "end-to-end encryption cannot start: %s", err[0] ? err : "out of memory");
		mx_fatal(m, line);
		return -1;
	}
	if (mx_xsign_load(m->crypto, err, sizeof err) < 0) {
		char line[700];
		snprintf(line, sizeof line, "end-to-end encryption cannot start: %s", err);
		mx_fatal(m, line);
		return -1;
	}
	mx_state_set(m, "e2ee.sas.waiting", NULL); /* verifications do not outlive a run, */
	mx_state_set(m, "e2ee.sas.answer", NULL);  /* nor do answers to them */
	char fp[128];
	mx_crypto_fingerprint(m->crypto, fp, sizeof fp);
	LOG(m, "info", "end-to-end encryption on: device %s, ed25519 fingerprint %s", m->device, fp);
	/* The public half, for `cardbot device` (which has no pickle key). */
	json_object *id = json_object_new_object();
	json_object_object_add(id, "user", json_object_new_string(m->set.user_id));
	json_object_object_add(id, "device", json_object_new_string(m->device));
	json_object_object_add(id, "fingerprint", json_object_new_string(fp));
	json_object_object_add(id, "ed25519", json_object_new_string(mx_crypto_ed25519(m->crypto)));
	json_object_object_add(id, "curve25519", json_object_new_string(mx_crypto_curve25519(m->crypto)));
	char *text = mx_json_text(id);
	if (text)
		mx_state_set(m, "e2ee.identity", text);
	free(text);
	m->otk_count = -1;
	upload_keys(m);
	return 0;
}

static void pending_free(struct mx_pending *p)
{
	json_object_put(p->event);
	free(p);
}

void mx_e2ee_free(matrix *m)
{
	while (m->pending) {
		struct mx_pending *p = m->pending;
		m->pending = p->next;
		pending_free(p);
	}
	if (m->e2ee_timer)
		loop_cancel(m->base.ev, m->e2ee_timer);
	m->e2ee_timer = 0;
	free(m->known);
	m->known = NULL;
	free(m->keyreqs);
	m->keyreqs = NULL;
	m->nkeyreqs = 0;
	m->nknown = m->capknown = 0;
	mx_verify_free(m);
	mx_crypto_free(m->crypto);
	m->crypto = NULL;
}

/* ---- whose devices the bot has read ---- */

static struct mx_known *known_find(matrix *m, const char *user)
{
	for (int i = 0; i < m->nknown; i++)
		if (!strcmp(m->known[i].user, user))
			return &m->known[i];
	return NULL;
}

static void known_mark(matrix *m, const char *user)
{
	struct mx_known *k = known_find(m, user);
	if (k) {
		k->stale = 0;
		return;
	}
	if (m->nknown >= MX_KNOWN_MAX || strlen(user) >= ADAPTER_ID_MAX)
		return;
	if (m->nknown == m->capknown) {
		int cap = m->capknown ? 2 * m->capknown : 32;
		struct mx_known *n = realloc(m->known, (size_t)cap * sizeof *n);
		if (!n)
			return;
		m->known = n;
		m->capknown = cap;
	}
	snprintf(m->known[m->nknown].user, ADAPTER_ID_MAX, "%s", user);
	m->known[m->nknown++].stale = 0;
}

/* Whether user's devices must be read before a key goes to them. Past
 * MX_KNOWN_MAX users nobody new is followed (their devices are used as
 * the crypto last kept them), so a huge room cannot make the bot ask in a
 * loop. */
static int needs_query(matrix *m, const char *user)
{
	const struct mx_known *k = known_find(m, user);
	return k ? k->stale : m->nknown < MX_KNOWN_MAX;
}

/* The people a room's key goes to: its members (the bot aside) and, in a
 * direct room, the partner even before they join. Returns how many. */
static int room_users(matrix *m, const mx_room *r, const char **users, int max)
{
	int n = 0;
	if (r->dm_user[0] && n < max)
		users[n++] = r->dm_user;
	for (int i = 0; i < r->nmembers && n < max; i++) {
		const char *u = r->members[i].user;
		if (!strcmp(u, m->set.user_id) || (r->dm_user[0] && !strcmp(u, r->dm_user)))
			continue;
		users[n++] = u;
	}
	return n;
}

/* ---- a room made ready to send in ---- */

static int key_request(matrix *m, int kind, const char *method, const char *path, char *body, const mx_room *r)
{
	mx_req *q = mx_request(m, kind, method, path, body, MX_SEND_TIMEOUT_MS);
	if (!q)
		return -1;
	snprintf(q->room, sizeof q->room, "%s", r ? r->id : "");
	m->key_req = q;
	return 0;
}

static int start_query(matrix *m, const char **users, int n)
{
	json_object *o = json_object_new_object(), *dk = json_object_new_object();
	int asked = 0;
	for (int i = 0; i < n && asked < MX_QUERY_USERS; i++)
		if (needs_query(m, users[i]) && !json_object_object_get_ex(dk, users[i], NULL)) {
			json_object_object_add(dk, users[i], json_object_new_array());
			asked++;
		}
	json_object_object_add(o, "device_keys", dk);
	json_object_object_add(o, "timeout", json_object_new_int(10000));
	if (!asked) {
		json_object_put(o);
		return 0;
	}
	LOG(m, "debug", "e2ee: reading the devices of %d user%s", asked, asked == 1 ? "" : "s");
	key_request(m, REQ_KEYS_QUERY, "POST", "/_matrix/client/v3/keys/query", mx_json_text(o), NULL);
	return 1;
}

/* Reads user's devices now when nothing else is out (a player who asks
 * to verify the bot before sharing an encrypted room with it): 1 when asked. */
int mx_e2ee_query_user(matrix *m, const char *user)
{
	if (!m->crypto || m->key_req || m->stopping || !needs_query(m, user))
		return 0;
	return start_query(m, &user, 1);
}

/* PUT /sendToDevice/m.room.encrypted with body (taken): r's room key, or
 * (r NULL) a forwarded key. 0, or -1 when it could not start. */
static int send_to_device(matrix *m, const mx_room *r, char *body)
{
	char txn[64], path[256];
	snprintf(txn, sizeof txn, "cbk%llx.%lu", m->txn_base, ++m->todev_serial);
	snprintf(path, sizeof path, "/_matrix/client/v3/sendToDevice/m.room.encrypted/%s", txn);
	return key_request(m, REQ_TO_DEVICE, "PUT", path, body, r);
}

int mx_e2ee_ready(matrix *m, mx_room *r)
{
	if (!m->crypto || !r->encrypted || !r->id[0] || r->batch_enc)
		return 1;
	if (m->key_req || m->stopping)
		return 0; /* its reply kicks the dispatcher */
	const char *users[MX_ROOM_USERS];
	int n = room_users(m, r, users, MX_ROOM_USERS);
	if (start_query(m, users, n))
		return 0;
	/* A device the bot has no Olm session with is claimed for before the
	 * room's next line leaves (the line waits), whatever was claimed for
	 * others before it; one that had no key is backed off on its own. */
	int64_t now = loop_now();
	char *claim = mx_crypto_claim_body(m->crypto, users, n, now);
	if (claim) {
		if (key_request(m, REQ_KEYS_CLAIM, "POST", "/_matrix/client/v3/keys/claim", claim, r) < 0)
			mx_crypto_claim_failed(m->crypto);
		return 0;
	}
	if (!r->e2ee_fresh) {
		mx_crypto_room_rotate(m->crypto, r->id);
		r->e2ee_fresh = 1;
	}
	int missing = 0;
	char *share = mx_crypto_share_body(m->crypto, r->id, users, n, now, &missing);
	if (missing)
		LOG(m, "debug", "e2ee: %s: %d device%s without a session (no one-time key)", r->id, missing,
		    missing == 1 ? "" : "s");
	if (share) {
		if (send_to_device(m, r, share) < 0)
			mx_crypto_share_failed(m->crypto, r->id);
		return 0;
	}
	return 1;
}

int mx_e2ee_encrypt_batch(matrix *m, mx_room *r)
{
	if (!m->crypto || !r->encrypted || r->batch_enc)
		return 0;
	char *enc = mx_crypto_encrypt(m->crypto, r->id, "m.room.message", r->batch, loop_now());
	if (!enc)
		return -1;
	free(r->batch);
	r->batch = enc;
	r->batch_enc = 1;
	return 0;
}

/* ---- key requests: a member's other device asks for a room key ---- */

/* Whether user is in room now (joined), an encrypted room the bot is in. */
static int keyreq_member(matrix *m, const char *user, const char *room)
{
	mx_room *r = mx_room_find(m, room);
	return r && r->joined && !r->gone && r->encrypted && mx_member_find(r, user) != NULL;
}

/* Whether dev is among user's trusted devices as last read. */
static int device_listed(matrix *m, const char *user, const char *dev)
{
	char ids[MXC_DEVICES_MAX][256];
	int n = mx_crypto_devices(m->crypto, user, ids, MXC_DEVICES_MAX);
	for (int i = 0; i < n && i < MXC_DEVICES_MAX; i++)
		if (!strcmp(ids[i], dev))
			return 1;
	return 0;
}

static void keyreq_pop(matrix *m, int i)
{
	memmove(&m->keyreqs[i], &m->keyreqs[i + 1], (size_t)(m->nkeyreqs - i - 1) * sizeof *m->keyreqs);
	m->nkeyreqs--;
}

/* One m.room_key_request (or its cancellation) from /sync's to-device events. */
static void keyreq_in(matrix *m, json_object *e)
{
	mxc_key_request q;
	if (mx_crypto_key_request(m->crypto, e, &q) < 0)
		return;
	int mine = 0;
	for (int i = 0; i < m->nkeyreqs; i++) {
		const mxc_key_request *w = &m->keyreqs[i].q;
		int same_dev = !strcmp(w->user, q.user) && !strcmp(w->device, q.device);
		if (same_dev && (q.cancel ? !strcmp(w->request_id, q.request_id)
				 : !strcmp(w->room, q.room) && !strcmp(w->session, q.session))) {
			keyreq_pop(m, i--); /* cancelled, or asked again (the newer request id is kept) */
			continue;
		}
		mine += !strcmp(w->user, q.user);
	}
	if (q.cancel) {
		LOG(m, "debug", "e2ee: %s's device %s cancels its key request", q.user, q.device);
		return;
	}
	if (!strcmp(q.user, m->set.user_id)) {
		LOG(m, "debug", "e2ee: a key request of the bot's own user is refused (it has one device)");
		return;
	}
	if (mine >= MX_KEYREQS_USER || m->nkeyreqs >= MX_KEYREQS_MAX) {
		LOG(m, "debug", "e2ee: a key request of %s is dropped (too many waiting)", q.user);
		return;
	}
	if (!m->keyreqs && !(m->keyreqs = calloc(MX_KEYREQS_MAX, sizeof *m->keyreqs)))
		return;
	LOG(m, "debug", "e2ee: %s's device %s asks for a key of %s", q.user, q.device, q.room);
	m->keyreqs[m->nkeyreqs].q = q;
	m->keyreqs[m->nkeyreqs].claimed = 0;
	m->keyreqs[m->nkeyreqs++].queried = 0;
	mx_kick(m, 0);
}

void mx_e2ee_answer(matrix *m)
{
	while (m->crypto && !m->key_req && !m->stopping && m->nkeyreqs > 0) {
		struct mx_keyreq *k = &m->keyreqs[0];
		const char *user = k->q.user;
		/* Membership is read here, not when the request came: the
		 * sync that brought it may also bring its sender's join. */
		if (!keyreq_member(m, user, k->q.room)) {
			LOG(m, "debug", "e2ee: a key request of %s for %s is refused (not in that encrypted room)", user,
			    k->q.room);
			keyreq_pop(m, 0);
			continue;
		}
		if (!k->queried && !device_listed(m, user, k->q.device)) {
			struct mx_known *kn = known_find(m, user);
			k->queried = 1;
			if (kn)
				kn->stale = 1; /* a device newer than the list read: read it again, once */
		}
		if (start_query(m, &user, 1))
			return; /* its reply kicks the dispatcher */
		char *body = NULL;
		int rc = mx_crypto_forward_body(m->crypto, user, k->q.device, k->q.room, k->q.session, &body);
		if (rc == MXC_FWD_CLAIM && !k->claimed) {
			k->claimed = 1;
			char *claim = mx_crypto_claim_body(m->crypto, &user, 1, loop_now());
			if (claim) {
				if (key_request(m, REQ_KEYS_CLAIM, "POST", "/_matrix/client/v3/keys/claim", claim, NULL) < 0)
					mx_crypto_claim_failed(m->crypto);
				return;
			}
		}
		if (rc == MXC_FWD_OK) {
			LOG(m, "info", "e2ee: %s: the room key %s goes to %s's device %s, which asked for it", k->q.room,
			    k->q.session, user, k->q.device);
			send_to_device(m, NULL, body);
		} else if (rc == MXC_FWD_CLAIM)
			LOG(m, "debug", "e2ee: a key request of %s's device %s is dropped (no one-time key)", user,
			    k->q.device);
		keyreq_pop(m, 0);
	}
}

/* ---- replies ---- */

static void key_reply_failed(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	char why[512];
	if (status)
		mx_error_text(body, why, sizeof why);
	else
		snprintf(why, sizeof why, "%s", err);
	mx_room *r = q->room[0] ? mx_room_find(m, q->room) : NULL;
	if (q->kind == REQ_TO_DEVICE && r)
		mx_crypto_share_failed(m->crypto, r->id);
	long ms = mx_backoff_ms(m, m->key_failures++);
	LOG(m, "warn", "e2ee: %s failed (%ld, %s); trying again in %ld ms",
	    q->kind == REQ_KEYS_QUERY ? "reading devices" : q->kind == REQ_KEYS_CLAIM ? "claiming one-time keys"
	    : "sending a room key", status, why, ms);
	if (q->kind == REQ_KEYS_CLAIM)
		mx_crypto_claim_failed(m->crypto);
	mx_kick(m, ms);
}

void mx_e2ee_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	if (q->kind == REQ_KEYS_UPLOAD) {
		m->uploading = 0;
		if (!m->crypto)
			return;
		if (status == 200) {
			int before = m->otk_count;
			m->otk_count = mx_crypto_upload_done(m->crypto, body);
			if (m->otk_count > before)
				upload_keys(m); /* more, if still short (a count that did not grow waits for a sync) */
			mx_verify_publish(m);
		} else {
			char why[512];
			if (status)
				mx_error_text(body, why, sizeof why);
			LOG(m, "warn", "e2ee: publishing the device's keys failed (%ld, %s); again at the next sync", status,
			    status ? why : err);
		}
		return;
	}
	if (m->key_req == q)
		m->key_req = NULL;
	if (!m->crypto)
		return;
	if (status != 200) {
		key_reply_failed(m, q, status, body, err);
		return;
	}
	if (q->kind == REQ_KEYS_QUERY) {
		json_object *dk = mx_jget(body, "device_keys", json_type_object);
		if (mx_crypto_query_done(m->crypto, body) < 0 || !dk) {
			key_reply_failed(m, q, 0, NULL, "a reply without device_keys");
			return;
		}
		/* Everyone asked counts as read, listed or not: a user the
		 * server does not know has no devices to give keys to. */
		json_object *sent = q->out ? json_tokener_parse(q->out) : NULL;
		json_object *asked = mx_jget(sent, "device_keys", json_type_object);
		if (asked) {
			json_object_object_foreach(asked, user, v)
			{
				(void)v;
				known_mark(m, user);
			}
		}
		json_object_put(sent);
	} else if (q->kind == REQ_KEYS_CLAIM) {
		mx_crypto_claim_done(m->crypto, body);
	}
	m->key_failures = 0;
	mx_kick(m, 0);
}

/* ---- encrypted messages in ---- */

static void e2ee_tick(void *ctx);

static void arm_tick(matrix *m)
{
	if (!m->e2ee_timer && m->pending)
		m->e2ee_timer = loop_timer(m->base.ev, MX_E2EE_TICK_MS, e2ee_tick, m);
}

/* A decrypted event handed on as the room event it stands for. */
static void deliver(matrix *m, mx_room *r, json_object *outer, json_object *plain)
{
	const char *type = mx_jstr(plain, "type");
	json_object *content = mx_jget(plain, "content", json_type_object);
	int verif = type && !strncmp(type, "m.key.verification.", 19);
	if (!type || (strcmp(type, "m.room.message") != 0 && !verif) || !content)
		return;
	json_object *e = json_object_new_object();
	const char *sender = mx_jstr(outer, "sender"), *id = mx_jstr(outer, "event_id");
	json_object_object_add(e, "type", json_object_new_string(type));
	json_object_object_add(e, "sender", json_object_new_string(sender ? sender : ""));
	json_object_object_add(e, "event_id", json_object_new_string(id ? id : ""));
	json_object_object_add(e, "content", json_object_get(content));
	if (verif)
		mx_verify_room_event(m, r, e);
	else
		mx_message_event(m, r, e);
	json_object_put(e);
}

/* Tries an encrypted event: 1 when it is done with (read or dropped), 0
 * when its key has not come. */
static int try_event(matrix *m, mx_room *r, json_object *e)
{
	json_object *plain = NULL;
	int res = mx_crypto_decrypt(m->crypto, r->id, e, &plain);
	if (res == MXC_OK) {
		deliver(m, r, e, plain);
		json_object_put(plain);
		return 1;
	}
	if (res == MXC_NO_KEY)
		return 0;
	LOG(m, "info", "e2ee: %s: an encrypted message from %s %s; dropped", r->id,
	    mx_jstr(e, "sender") ? mx_jstr(e, "sender") : "?",
	    res == MXC_REPLAY ? "repeats an earlier one (a replay)" : "cannot be decrypted");
	return 1;
}

void mx_e2ee_event(matrix *m, mx_room *r, json_object *e)
{
	const char *sender = mx_jstr(e, "sender");
	if (!m->crypto || !mx_is_user_id(sender) || !strcmp(sender, m->set.user_id))
		return;
	if (try_event(m, r, e))
		return;
	if (m->npending >= MX_PENDING_MAX) {
		struct mx_pending *old = m->pending;
		m->pending = old->next;
		m->npending--;
		pending_free(old);
	}
	struct mx_pending *p = calloc(1, sizeof *p);
	if (!p)
		return;
	snprintf(p->room, sizeof p->room, "%s", r->id);
	snprintf(p->sender, sizeof p->sender, "%s", sender);
	p->at = loop_now();
	p->event = json_object_get(e);
	struct mx_pending **tail = &m->pending;
	while (*tail)
		tail = &(*tail)->next;
	*tail = p;
	m->npending++;
	LOG(m, "debug", "e2ee: %s: a message from %s waits for its key", r->id, sender);
	arm_tick(m);
}

/* A room key came for room: what waited for it is read now. */
static void retry_room(matrix *m, const char *room)
{
	for (struct mx_pending **pp = &m->pending; *pp;) {
		struct mx_pending *p = *pp;
		mx_room *r = strcmp(p->room, room) ? NULL : mx_room_find(m, room);
		if (r && !r->gone && try_event(m, r, p->event)) {
			*pp = p->next;
			m->npending--;
			pending_free(p);
		} else {
			pp = &p->next;
		}
	}
}

static void tell_unreadable(matrix *m, struct mx_pending *p)
{
	mx_room *r = mx_room_find(m, p->room);
	if (!r || r->gone)
		return;
	char name[MX_NAME_MAX], line[2048];
	mx_display_name(r, p->sender, name, sizeof name);
	mx_words(m, r, ADAPTER_W_UNREADABLE, name, "%s: I could not read your encrypted message: its key has not "
		 "reached me. Please send it again; if this keeps happening, check that your client shares keys with "
		 "unverified devices.", line, sizeof line);
	LOG(m, "info", "e2ee: %s: a message from %s still has no key after %d s; they are told", r->id, p->sender,
	    MX_UNREADABLE_MS / 1000);
	mx_enqueue_to(m, r, line, ADAPTER_HIGHLIGHT, p->sender);
}

static void e2ee_tick(void *ctx)
{
	matrix *m = ctx;
	m->e2ee_timer = 0;
	int64_t now = loop_now();
	for (struct mx_pending **pp = &m->pending; *pp;) {
		struct mx_pending *p = *pp;
		if (!p->told && now - p->at >= MX_UNREADABLE_MS) {
			p->told = 1;
			tell_unreadable(m, p);
		}
		if (now - p->at >= MX_PENDING_KEEP_MS) {
			*pp = p->next;
			m->npending--;
			pending_free(p);
		} else {
			pp = &p->next;
		}
	}
	arm_tick(m);
}

void mx_e2ee_fire_timers(matrix *m)
{
	if (!m->e2ee_timer)
		return;
	loop_cancel(m->base.ev, m->e2ee_timer);
	m->e2ee_timer = 0;
	for (struct mx_pending *p = m->pending; p; p = p->next)
		p->at -= MX_UNREADABLE_MS; /* as if the wait were over */
	e2ee_tick(m);
}

/* ---- what a sync says ---- */

void mx_e2ee_room_encryption(matrix *m, mx_room *r, json_object *e)
{
	json_object *c = mx_jget(e, "content", json_type_object);
	const char *algo = mx_jstr(c, "algorithm");
	if (!m->crypto || !algo)
		return;
	if (strcmp(algo, MXC_MEGOLM_ALGO) != 0)
		LOG(m, "warn", "e2ee: %s asks for encryption by %.100s, which the bot does not have; it uses %s", r->id,
		    algo, MXC_MEGOLM_ALGO);
	json_object *msgs = mx_jget(c, "rotation_period_msgs", json_type_int);
	json_object *ms = mx_jget(c, "rotation_period_ms", json_type_int);
	mx_crypto_room_settings(m->crypto, r->id, msgs ? (long)json_object_get_int64(msgs) : 0,
				ms ? json_object_get_int64(ms) : 0);
}

void mx_e2ee_member_left(matrix *m, mx_room *r, const char *user)
{
	if (!m->crypto || !r->encrypted)
		return;
	LOG(m, "debug", "e2ee: %s left %s: its room key is renewed", user, r->id);
	mx_crypto_room_rotate(m->crypto, r->id);
}

/* device_lists.changed: those users' devices are read again before the
 * next key goes out, and rooms they share with the bot get a new key (a
 * device may have gone). */
static void devices_changed(matrix *m, json_object *changed)
{
	size_t n = changed ? json_object_array_length(changed) : 0;
	for (size_t i = 0; i < n; i++) {
		const char *u = json_object_get_string(json_object_array_get_idx(changed, i));
		if (!mx_is_user_id(u) || !strcmp(u, m->set.user_id))
			continue;
		struct mx_known *k = known_find(m, u);
		if (!k)
			continue;
		k->stale = 1;
		for (mx_room *r = m->rooms; r; r = r->next)
			if (r->encrypted && r->id[0] && (mx_member_find(r, u) || !strcmp(r->dm_user, u))) {
				LOG(m, "debug", "e2ee: %s's devices changed: the key of %s is renewed", u, r->id);
				mx_crypto_room_rotate(m->crypto, r->id);
			}
	}
}

void mx_e2ee_sync(matrix *m, json_object *body)
{
	if (!m->crypto)
		return;
	json_object *events = mx_jget(mx_jget(body, "to_device", json_type_object), "events", json_type_array);
	size_t n = events ? json_object_array_length(events) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		if (!json_object_is_type(e, json_type_object))
			continue;
		const char *type = mx_jstr(e, "type");
		if (type && !strncmp(type, "m.key.verification.", 19)) {
			mx_verify_to_device(m, e);
			continue;
		}
		if (type && !strcmp(type, "m.room_key_request")) {
			keyreq_in(m, e);
			continue;
		}
		char room[ADAPTER_ID_MAX];
		if (mx_crypto_to_device(m->crypto, e, room, sizeof room) == 1 && room[0])
			retry_room(m, room);
	}
	devices_changed(m, mx_jget(mx_jget(body, "device_lists", json_type_object), "changed", json_type_array));
	/* A listing without our kind of fallback key: a claim took it (or there was none). */
	json_object *fb = mx_jget(body, "device_unused_fallback_key_types", json_type_array);
	int unused = 0;
	for (size_t i = 0; fb && i < json_object_array_length(fb); i++) {
		const char *t = json_object_get_string(json_object_array_get_idx(fb, i));
		unused |= t && !strcmp(t, "signed_curve25519");
	}
	if (fb && !unused)
		mx_crypto_fallback_used(m->crypto);
	json_object *counts = mx_jget(body, "device_one_time_keys_count", json_type_object);
	json_object *c = mx_jget(counts, "signed_curve25519", json_type_int);
	if (c)
		m->otk_count = (int)json_object_get_int64(c);
	else if (counts)
		m->otk_count = 0; /* the server lists none of that kind */
	upload_keys(m);
	mx_verify_publish(m);
	if (m->pending)
		arm_tick(m);
}
