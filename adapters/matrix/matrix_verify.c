/* matrix_verify.c: the bot's cross-signing identity published, and SAS verifications with players, by to-device or in a room.
 *
 * Cross-signing (matrix_xsign.c holds the keys): after the device keys are
 * up, the three public keys go up (POST /keys/device_signing/upload; the
 * homeserver asks for interactive auth, answered with the password flow
 * when the bot has a password: its login password, else
 * cross_signing_password), then the device's signature by the
 * self-signing key (POST /keys/signatures/upload). Each step is kept once
 * it went through, so a restart neither makes new keys nor asks again.
 *
 * Verification (matrix_sas.c does the protocol): a player's
 * m.key.verification.request (by to-device, or as a message in a room the
 * bot is in: Element's "Verify" on a user) or a to-device .start opens one,
 * and its events go back the way it came (in a room: with m.relates_to,
 * encrypted where the room is, one at a time and in order); the strings
 * to compare are logged at info with the player's user and device, and
 * written to the store ("e2ee.sas.waiting") for `cardbot device`; the
 * operator's answer comes back through the store ("e2ee.sas.answer",
 * written by `cardbot device DATABASE confirm|deny TXN`), which the bot
 * reads every MX_SAS_POLL_MS while a verification waits for it. The bot
 * never confirms on its own: nobody would have compared anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matrix_internal.h"
#include "matrix_sas.h"
#include "matrix_xsign.h"

#define MX_SAS_MAX 8                 /* verifications at once; more are refused */
#define MX_SAS_POLL_MS 1000          /* the store is read for the operator's answer this often */
#define MX_SAS_TIMEOUT_MS 600000     /* a verification not done by then is cancelled (the spec's 10 minutes) */
#define MX_VSEND_MAX 32              /* verification events waiting to be sent */
#define MX_VSEND_TRIES 5             /* a verification event refused (429, 5xx, network) this often is dropped */

struct mx_verif {
	struct mx_verif *next;
	mx_sas *sas;                     /* owned */
	char room[ADAPTER_ID_MAX];       /* where its events go: a room, or "" (to-device) */
	int64_t at;                      /* when it began */
	int shown;                       /* the strings were logged */
};

struct mx_vsend {
	struct mx_vsend *next;
	char room[ADAPTER_ID_MAX];       /* into this room, or "" (to the device) */
	char user[ADAPTER_ID_MAX], dev[ADAPTER_ID_MAX], txn[ADAPTER_ID_MAX];
	char type[64];
	char *content;                   /* the event's content (JSON), owned */
	char path[1024];                 /* once made: the request, the same on every retry (its txn id too) */
	char *body;                      /* ...and its body (encrypted once), owned */
	int attempts;
	int64_t at;                      /* when it was queued */
};

/* ---- cross-signing keys published ---- */

/* The auth object for the password flow, or NULL when the bot has no password. */
static json_object *password_auth(matrix *m, const char *session)
{
	const char *pw = m->set.password[0] ? m->set.password : m->set.uia_password;
	if (!pw[0])
		return NULL;
	json_object *a = json_object_new_object(), *id = json_object_new_object();
	json_object_object_add(a, "type", json_object_new_string("m.login.password"));
	json_object_object_add(id, "type", json_object_new_string("m.id.user"));
	json_object_object_add(id, "user", json_object_new_string(m->set.user_id));
	json_object_object_add(a, "identifier", id);
	json_object_object_add(a, "password", json_object_new_string(pw));
	if (session)
		json_object_object_add(a, "session", json_object_new_string(session));
	return a;
}

static void send_xsign(matrix *m, json_object *auth)
{
	int stage = mx_xsign_stage(m->crypto);
	char *body = stage == MXX_KEYS ? mx_xsign_keys_body(m->crypto, auth)
		: stage == MXX_SIGNATURE ? mx_xsign_signature_body(m->crypto) : NULL;
	if (!body) {
		if (stage != MXX_DONE)
			LOG(m, "error", "e2ee: the cross-signing upload could not be made");
		return;
	}
	const char *path = stage == MXX_KEYS ? "/_matrix/client/v3/keys/device_signing/upload"
		: "/_matrix/client/v3/keys/signatures/upload";
	if (mx_request(m, stage == MXX_KEYS ? REQ_XSIGN_KEYS : REQ_XSIGN_SIG, "POST", path, body, MX_SEND_TIMEOUT_MS))
		m->xsign_out = 1;
}

void mx_verify_publish(matrix *m)
{
	if (!m->crypto || m->xsign_out || m->xsign_stuck || m->stopping || m->fatal || m->uploading
	    || m->otk_count < 0 || loop_now() < m->xsign_retry_at)
		return; /* the device keys go first: otk_count is known once they went up */
	send_xsign(m, NULL);
}

/* Whether a 401's flows offer the password alone. */
static int password_flow(json_object *body)
{
	json_object *flows = mx_jget(body, "flows", json_type_array);
	for (size_t i = 0; flows && i < json_object_array_length(flows); i++) {
		json_object *st = mx_jget(json_object_array_get_idx(flows, i), "stages", json_type_array);
		const char *one = st && json_object_array_length(st) == 1
			? json_object_get_string(json_object_array_get_idx(st, 0)) : NULL;
		if (one && !strcmp(one, "m.login.password"))
			return 1;
	}
	return 0;
}

static void xsign_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	char why[512] = "";
	m->xsign_out = 0;
	if (!m->crypto)
		return;
	int stage = q->kind == REQ_XSIGN_KEYS ? MXX_KEYS : MXX_SIGNATURE;
	if (status == 200) {
		mx_xsign_done(m->crypto, stage);
		m->xsign_failures = 0;
		if (stage == MXX_KEYS) {
			char master[64];
			if (mx_xsign_master(m->crypto, master, sizeof master) == 0)
				LOG(m, "info", "e2ee: cross-signing keys published (master key %s)", master);
			send_xsign(m, NULL);
		} else {
			LOG(m, "info", "e2ee: the device is signed by the bot's self-signing key");
		}
		return;
	}
	if (status)
		mx_error_text(body, why, sizeof why);
	const char *session = mx_jstr(body, "session");
	if (status == 401 && stage == MXX_KEYS && session && !m->xsign_authed) {
		json_object *auth = password_flow(body) ? password_auth(m, session) : NULL;
		if (auth) {
			m->xsign_authed = 1; /* one try a run: a wrong password is not tried again and again */
			send_xsign(m, auth);
			json_object_put(auth);
			return;
		}
		m->xsign_stuck = 1;
		LOG(m, "error", "e2ee: the homeserver asks for interactive auth to publish the cross-signing keys, and %s: "
		    "set cross_signing_password (or cross_signing_password_file) to the bot account's password; "
		    "players see its messages as from a device its owner did not verify until then",
		    password_flow(body) ? "the bot has no password" : "offers no password flow");
		return;
	}
	if (status >= 400 && status < 500 && status != 429) {
		m->xsign_stuck = 1;
		LOG(m, "error", "e2ee: publishing the cross-signing %s was refused (%ld, %s); not tried again this run",
		    stage == MXX_KEYS ? "keys" : "signature of the device", status, why);
		return;
	}
	long ms = mx_backoff_ms(m, m->xsign_failures++);
	m->xsign_retry_at = loop_now() + ms;
	LOG(m, "warn", "e2ee: publishing the cross-signing %s failed (%ld, %s); again after %ld ms",
	    stage == MXX_KEYS ? "keys" : "signature", status, status ? why : err, ms);
}

/* ---- verification events out, one at a time and in order ---- */

static void arm_poll(matrix *m);

/* The request that sends v: a to-device message, or a room event (encrypted
 * in an encrypted room, once the room's key is shared); 0 when it must wait. */
static int vsend_make(matrix *m, struct mx_vsend *v)
{
	char *path = v->path, txn[64];
	json_object *content = json_tokener_parse(v->content);
	snprintf(txn, sizeof txn, "cbv%llx.%lu", m->txn_base, ++m->todev_serial);
	if (!v->room[0]) {
		json_object_object_add(content, "transaction_id", json_object_new_string(v->txn));
		json_object *msgs = json_object_new_object(), *u = json_object_new_object(), *body = json_object_new_object();
		json_object_object_add(u, v->dev, content);
		json_object_object_add(msgs, v->user, u);
		json_object_object_add(body, "messages", msgs);
		snprintf(path, sizeof v->path, "/_matrix/client/v3/sendToDevice/%s/%s", v->type, txn);
		v->body = mx_json_text(body);
		return v->body ? 1 : -1;
	}
	mx_room *r = mx_room_find(m, v->room);
	if (!r || r->gone) {
		json_object_put(content);
		return -1;
	}
	if (r->encrypted && !mx_e2ee_ready(m, r)) {
		json_object_put(content);
		/* The room's key is on its way: the poll tries again, for as long
		 * as a verification may last (then it is dropped, so that a room
		 * whose key never goes out cannot hold the queue for good). */
		return loop_now() - v->at < MX_SAS_TIMEOUT_MS ? 0 : -1;
	}
	json_object *rel = json_object_new_object();
	json_object_object_add(rel, "rel_type", json_object_new_string("m.reference"));
	json_object_object_add(rel, "event_id", json_object_new_string(v->txn));
	json_object_object_add(content, "m.relates_to", rel);
	char *text = mx_json_text(content), esc[3 * ADAPTER_ID_MAX];
	const char *type = v->type;
	if (r->encrypted) {
		char *enc = text ? mx_crypto_encrypt(m->crypto, r->id, v->type, text, loop_now()) : NULL;
		free(text);
		if (!enc) {
			mx_crypto_room_rotate(m->crypto, r->id); /* due for a new session: shared at the next try */
			return 0;
		}
		text = enc;
		type = "m.room.encrypted";
	}
	mx_path_escape(m, r->id, esc, sizeof esc);
	snprintf(path, sizeof v->path, "/_matrix/client/v3/rooms/%s/send/%s/%s", esc, type, txn);
	v->body = text;
	return text ? 1 : -1;
}

static void vsend_pop(matrix *m)
{
	struct mx_vsend *v = m->vsend;
	m->vsend = v->next;
	m->nvsend--;
	free(v->content);
	free(v->body);
	free(v);
}

/* Sends the head of the queue (made first, when it is not yet): 1 sent, 0
 * wait (a room key, or a retry's time), -1 it cannot be (dropped). */
static int vsend_start(matrix *m, struct mx_vsend *v)
{
	if (loop_now() < m->vsend_retry_at)
		return 0;
	if (!v->body) {
		int rc = vsend_make(m, v);
		if (rc <= 0)
			return rc;
	}
	char *body = strdup(v->body);
	return body && mx_request(m, REQ_VERIFY_SEND, "PUT", v->path, body, MX_SEND_TIMEOUT_MS) ? 1 : -1;
}

static void vsend_next(matrix *m)
{
	while (!m->vsend_out && m->vsend && !m->stopping) {
		int rc = vsend_start(m, m->vsend);
		if (rc == 0)
			return;
		if (rc > 0)
			m->vsend_out = 1; /* its reply pops it, or keeps it for a retry */
		else
			vsend_pop(m);
	}
}

/* Queues the events of out for the other side of v. */
static void send_out(matrix *m, struct mx_verif *vf, const mx_sas_out *out)
{
	mx_sas *sas = vf->sas;
	for (int i = 0; i < out->n; i++) {
		if (m->nvsend >= MX_VSEND_MAX) {
			LOG(m, "warn", "e2ee: too many verification events waiting; one is dropped");
			continue;
		}
		struct mx_vsend *v = calloc(1, sizeof *v), **tail = &m->vsend;
		if (!v)
			return;
		snprintf(v->room, sizeof v->room, "%s", vf->room);
		snprintf(v->user, sizeof v->user, "%s", mx_sas_user(sas));
		snprintf(v->dev, sizeof v->dev, "%s", mx_sas_device(sas));
		snprintf(v->txn, sizeof v->txn, "%s", mx_sas_txn(sas));
		snprintf(v->type, sizeof v->type, "%s", out->type[i]);
		v->at = loop_now();
		v->content = mx_json_text(json_object_get(out->content[i]));
		while (*tail)
			tail = &(*tail)->next;
		*tail = v;
		m->nvsend++;
	}
	vsend_next(m);
}

static void vsend_done(matrix *m, long status, json_object *body, const char *err)
{
	m->vsend_out = 0;
	struct mx_vsend *v = m->vsend;
	if (!v)
		return;
	if (status == 200) {
		if (v->room[0])
			mx_bud_spend(m, 1); /* a room event counts against the message limit */
		vsend_pop(m);
	} else {
		char why[512] = "";
		if (status)
			mx_error_text(body, why, sizeof why);
		int again = (status == 0 || status == 429 || status >= 500) && ++v->attempts < MX_VSEND_TRIES;
		long ms = status == 429 ? mx_retry_after(body) : mx_backoff_ms(m, v->attempts);
		LOG(m, "warn", "e2ee: a verification event could not be sent (%ld, %s)%s", status, status ? why : err,
		    again ? "; trying again" : "; dropped");
		if (again)
			m->vsend_retry_at = loop_now() + ms;
		else
			vsend_pop(m);
	}
	vsend_next(m);
	arm_poll(m);
}

/* ---- verifications ---- */

static void verify_poll(void *ctx);

/* The poll runs while a verification waits for the operator or an event waits to be sent. */
static void arm_poll(matrix *m)
{
	if (!m->verify_timer && (m->verifs || m->vsend))
		m->verify_timer = loop_timer(m->base.ev, MX_SAS_POLL_MS, verify_poll, m);
}

/* Writes the verifications waiting for the operator to the store, for `cardbot device`. */
static void save_waiting(matrix *m)
{
	json_object *o = json_object_new_object();
	for (struct mx_verif *v = m->verifs; v; v = v->next) {
		if (mx_sas_state(v->sas) != MXS_SHOW)
			continue;
		json_object *e = json_object_new_object();
		json_object_object_add(e, "user", json_object_new_string(mx_sas_user(v->sas)));
		json_object_object_add(e, "device", json_object_new_string(mx_sas_device(v->sas)));
		json_object_object_add(e, "emoji", json_object_new_string(mx_sas_emoji(v->sas)));
		json_object_object_add(e, "decimals", json_object_new_string(mx_sas_decimals(v->sas)));
		json_object_object_add(o, mx_sas_txn(v->sas), e);
	}
	char *text = json_object_object_length(o) ? mx_json_text(o) : (json_object_put(o), NULL);
	mx_state_set(m, "e2ee.sas.waiting", text);
	free(text);
}

/* Logs what became of v; 1 when it is over (to be freed). */
static int after_step(matrix *m, struct mx_verif *v)
{
	mx_sas *s = v->sas;
	switch (mx_sas_state(s)) {
	case MXS_SHOW:
		if (!v->shown) {
			v->shown = 1;
			LOG(m, "info", "e2ee: verification %s with %s, device %s: compare the emoji: %s; or the numbers: %s. "
			    "If they are what the player sees, run: cardbot device DATABASE confirm %s (else: deny %s)",
			    mx_sas_txn(s), mx_sas_user(s), mx_sas_device(s), mx_sas_emoji(s), mx_sas_decimals(s),
			    mx_sas_txn(s), mx_sas_txn(s));
			save_waiting(m);
		}
		return 0;
	case MXS_DONE:
		LOG(m, "info", "e2ee: verification %s with %s, device %s: done; both sides verified the other's keys",
		    mx_sas_txn(s), mx_sas_user(s), mx_sas_device(s));
		return 1;
	case MXS_CANCELLED:
		LOG(m, "info", "e2ee: verification %s with %s, device %s: cancelled: %s", mx_sas_txn(s), mx_sas_user(s),
		    mx_sas_device(s), mx_sas_why(s));
		return 1;
	default:
		return 0;
	}
}

static void verif_drop(matrix *m, struct mx_verif *v)
{
	for (struct mx_verif **pp = &m->verifs; *pp; pp = &(*pp)->next)
		if (*pp == v) {
			*pp = v->next;
			break;
		}
	int was_shown = v->shown;
	mx_sas_free(v->sas);
	free(v);
	m->nverifs--;
	if (was_shown)
		save_waiting(m);
}

static struct mx_verif *verif_find(matrix *m, const char *txn, const char *user)
{
	for (struct mx_verif *v = m->verifs; v; v = v->next)
		if (!strcmp(mx_sas_txn(v->sas), txn) && (!user || !strcmp(mx_sas_user(v->sas), user)))
			return v;
	return NULL;
}

/* An id from the network fit for the log, the store and a shell's
 * argument (`cardbot device ... confirm ID`): printable ASCII, no space. */
static int id_ok(const char *s)
{
	if (!s || !*s || strlen(s) >= ADAPTER_ID_MAX)
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f)
			return 0;
	return 1;
}

/* A verification event from sender (type as the SAS machine knows it),
 * under txn, carried in room (NULL: to-device). */
static void verify_event(matrix *m, mx_room *room, const char *sender, const char *type, json_object *content,
			 const char *txn)
{
	if (!m->crypto || !type || !mx_is_user_id(sender) || !content || !id_ok(txn) || !strcmp(sender, m->set.user_id))
		return;
	struct mx_verif *v = verif_find(m, txn, sender);
	int opens = !strcmp(type, "m.key.verification.request")
		|| (!room && !strcmp(type, "m.key.verification.start"));
	if (!v && !opens)
		return; /* not one of ours (another device of the bot's user may have answered) */
	if (!v) {
		const char *dev = mx_jstr(content, "from_device");
		char master[64];
		mx_sas *s = id_ok(dev) && m->nverifs < MX_SAS_MAX && !verif_find(m, txn, NULL)
			? mx_sas_new(m->crypto, sender, dev, txn,
				     mx_xsign_master(m->crypto, master, sizeof master) == 0 ? master : NULL)
			: NULL;
		if (!s || !(v = calloc(1, sizeof *v))) {
			mx_sas_free(s);
			LOG(m, "info", "e2ee: a verification request of %s is refused (too many at once, or malformed)",
			    sender);
			return;
		}
		v->sas = s;
		v->at = loop_now();
		snprintf(v->room, sizeof v->room, "%s", room ? room->id : "");
		v->next = m->verifs;
		m->verifs = v;
		m->nverifs++;
		LOG(m, "info", "e2ee: %s (device %s) asks to verify the bot (%s%s%s)", sender, dev, txn,
		    room ? " in " : "", room ? room->id : "");
		mx_e2ee_query_user(m, sender);
		arm_poll(m);
	}
	if (room ? strcmp(v->room, room->id) : v->room[0] != '\0')
		return; /* a verification's events all come the same way */
	mx_sas_out out;
	mx_sas_event(v->sas, type, content, &out);
	send_out(m, v, &out);
	if (after_step(m, v))
		verif_drop(m, v);
}

/* An m.key.verification.* to-device event in the clear, from /sync. */
void mx_verify_to_device(matrix *m, json_object *e)
{
	const char *type = mx_jstr(e, "type");
	json_object *content = mx_jget(e, "content", json_type_object);
	if (type && !strncmp(type, "m.key.verification.", 19))
		verify_event(m, NULL, mx_jstr(e, "sender"), type, content, mx_jstr(content, "transaction_id"));
}

/* A verification event in a room (decrypted where the room is encrypted):
 * an m.room.message of msgtype m.key.verification.request for the bot
 * (its event id names the verification), or an m.key.verification.*
 * event that refers to one. */
void mx_verify_room_event(matrix *m, mx_room *r, json_object *e)
{
	const char *type = mx_jstr(e, "type"), *sender = mx_jstr(e, "sender");
	json_object *content = mx_jget(e, "content", json_type_object);
	if (!type || !content)
		return;
	if (!strcmp(type, "m.room.message")) {
		const char *to = mx_jstr(content, "to");
		if (to && !strcmp(to, m->set.user_id))
			verify_event(m, r, sender, "m.key.verification.request", content, mx_jstr(e, "event_id"));
		return;
	}
	json_object *rel = mx_jget(content, "m.relates_to", json_type_object);
	const char *rt = mx_jstr(rel, "rel_type");
	if (rt && !strcmp(rt, "m.reference"))
		verify_event(m, r, sender, type, content, mx_jstr(rel, "event_id"));
}

/* The operator's answers, read from the store: "e2ee.sas.answer" = {txn: "confirm" | "deny"}. */
static void read_answers(matrix *m)
{
	char *buf = malloc(MX_STATE_MAX);
	if (!buf)
		return;
	buf[0] = '\0';
	json_object *ans = NULL;
	if (m->base.host.state_get
	    && m->base.host.state_get(m->base.host.ctx, &m->base, "e2ee.sas.answer", buf, MX_STATE_MAX) == 1)
		ans = json_tokener_parse(buf);
	free(buf);
	if (!ans)
		return;
	int used = 0;
	for (struct mx_verif *v = m->verifs, *next; v; v = next) {
		next = v->next;
		const char *a = mx_jstr(ans, mx_sas_txn(v->sas));
		if (!a || mx_sas_state(v->sas) != MXS_SHOW)
			continue;
		used = 1;
		json_object *answer = json_object_get(json_object_object_get(ans, mx_sas_txn(v->sas)));
		json_object_object_del(ans, mx_sas_txn(v->sas)); /* used: the others stay for their verifications */
		LOG(m, "info", "e2ee: verification %s: the operator says the strings %s", mx_sas_txn(v->sas),
		    !strcmp(json_object_get_string(answer), "confirm") ? "match" : "differ");
		mx_sas_out out;
		mx_sas_confirm(v->sas, !strcmp(json_object_get_string(answer), "confirm"), &out);
		json_object_put(answer);
		send_out(m, v, &out);
		save_waiting(m);
		if (after_step(m, v))
			verif_drop(m, v);
	}
	if (used) {
		char *text = json_object_object_length(ans) ? mx_json_text(json_object_get(ans)) : NULL;
		mx_state_set(m, "e2ee.sas.answer", text);
		free(text);
	}
	json_object_put(ans);
}

static void verify_poll(void *ctx)
{
	matrix *m = ctx;
	m->verify_timer = 0;
	read_answers(m);
	int64_t now = loop_now();
	for (struct mx_verif *v = m->verifs, *next; v; v = next) {
		next = v->next;
		if (now - v->at < MX_SAS_TIMEOUT_MS)
			continue;
		mx_sas_out out;
		mx_sas_cancel(v->sas, "m.timeout", "not done in ten minutes", &out);
		send_out(m, v, &out);
		after_step(m, v);
		verif_drop(m, v);
	}
	vsend_next(m); /* an event that waited for a room's key */
	arm_poll(m);
}

void mx_verify_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	if (q->kind == REQ_VERIFY_SEND)
		vsend_done(m, status, body, err);
	else
		xsign_done(m, q, status, body, err);
}

/* For the tests: the poll comes due now, and so does a retry's time. */
void mx_verify_fire_timers(matrix *m)
{
	if (!m->verify_timer)
		return;
	loop_cancel(m->base.ev, m->verify_timer);
	m->verify_timer = 0;
	m->vsend_retry_at = 0;
	verify_poll(m);
}

void mx_verify_free(matrix *m)
{
	while (m->verifs) {
		m->verifs->shown = 0; /* the store is not written on the way out */
		verif_drop(m, m->verifs);
	}
	while (m->vsend)
		vsend_pop(m);
	if (m->verify_timer)
		loop_cancel(m->base.ev, m->verify_timer);
	m->verify_timer = 0;
}
