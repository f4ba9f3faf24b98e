/* matrix_send.c: the per-room send queues: batching lines into events, files, 429s, direct-room creation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "matrix_internal.h"

/* ---- sending ---- */

static void drop_stale(matrix *m, mx_room *r, const mx_msg *msg);

void mx_enqueue(matrix *m, mx_room *r, const char *text, int flags)
{
	mx_enqueue_to(m, r, text, flags, NULL);
}

void mx_enqueue_to(matrix *m, mx_room *r, const char *text, int flags, const char *mention)
{
	if (r->gone)
		return;
	size_t n = strlen(text);
	if (n >= ADAPTER_TEXT_MAX) {
		n = ADAPTER_TEXT_MAX - 1;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	mx_msg *msg = malloc(sizeof *msg + n + 1);
	if (!msg)
		return;
	msg->next = NULL;
	msg->flags = flags;
	msg->file = NULL;
	msg->at = 0;
	snprintf(msg->story, sizeof msg->story, "%s", m->tag_story);
	snprintf(msg->mention, sizeof msg->mention, "%s", mention ? mention : "");
	memcpy(msg->text, text, n);
	msg->text[n] = '\0';
	if (r->dm_user[0])
		msg->cls = m->cb_user && !m->cb_room && !strcmp(m->cb_user, r->dm_user) ? CLS_REPLY : CLS_PRIVATE;
	else
		msg->cls = m->cb_room && !strcmp(m->cb_room, r->id) ? CLS_REPLY : CLS_ROOM;
	if ((flags & ADAPTER_REPLACES) && r->dm_user[0])
		drop_stale(m, r, msg);
	mx_enqueue_msg(m, r, msg);
}

/* The "[label:" tag a private line starts with ("" when none). */
static size_t line_tag(const char *text)
{
	if (text[0] != '[')
		return 0;
	const char *p = strstr(text, ": ");
	const char *close = strchr(text, ']');
	if (close && (!p || close < p))
		p = close;
	return p ? (size_t)(p - text) : 0;
}

/* The same table's line: by the room the host tagged both with, else by
 * their "[label:" start (a label can change under a line: an alias
 * learned after a restart). */
static int same_story(const mx_msg *x, const mx_msg *msg, size_t tl)
{
	if (x->story[0] && msg->story[0])
		return !strcmp(x->story, msg->story);
	return tl && line_tag(x->text) == tl && !strncmp(x->text, msg->text, tl);
}

/* Where the queue goes on past the event being sent or retried, which is
 * fixed. */
static mx_msg **after_batch(mx_room *r)
{
	mx_msg **p = &r->head;
	for (int i = 0; r->batch && i < r->batch_lines && *p; i++)
		p = &(*p)->next;
	return p;
}

/* Frees the queued lines past the event being sent for which drop(x, arg)
 * is true; returns how many went. */
static int drop_queued(matrix *m, mx_room *r, int (*drop)(const mx_msg *x, const void *arg), const void *arg)
{
	mx_msg **p = after_batch(r);
	int dropped = 0;
	while (*p) {
		mx_msg *x = *p;
		if (drop(x, arg)) {
			*p = x->next;
			mx_msg_free(m, x);
			r->nqueued--;
			dropped++;
			continue;
		}
		p = &x->next;
	}
	if (dropped) {
		r->tail = NULL;
		for (mx_msg *x = r->head; x; x = x->next)
			r->tail = x;
	}
	return dropped;
}

struct story { const mx_msg *msg; size_t tl; };

static int is_stale(const mx_msg *x, const void *arg)
{
	const struct story *st = arg;
	return !x->file && (x->flags & ADAPTER_REPLACES) && same_story(x, st->msg, st->tl);
}

/* A new hand or prompt: older ones of the same table not yet sent (nor
 * in the event being sent) are stale, and dropped. */
static void drop_stale(matrix *m, mx_room *r, const mx_msg *msg)
{
	struct story st = { msg, line_tag(msg->text) };
	if (!st.tl && !msg->story[0])
		return;
	int dropped = drop_queued(m, r, is_stale, &st);
	if (dropped)
		LOG(m, "debug", "%s: %d stale private line%s replaced before sending", r->dm_user, dropped,
		    dropped == 1 ? "" : "s");
}

/* Appends a message (taken over) to a room's queue and sends when it can. */
void mx_enqueue_msg(matrix *m, mx_room *r, mx_msg *msg)
{
	if (r->gone) {
		mx_msg_free(m, msg);
		return;
	}
	if (r->nqueued >= MX_QUEUE_MAX) {
		mx_msg *old = r->head;
		r->head = old->next;
		if (!r->head)
			r->tail = NULL;
		mx_msg_free(m, old);
		r->nqueued--;
		LOG(m, "warn", "%s: the send queue is full; the oldest line was dropped", r->id[0] ? r->id : r->dm_user);
	}
	if (!msg->at)
		msg->at = loop_now();
	if (r->tail)
		r->tail->next = msg;
	else
		r->head = msg;
	r->tail = msg;
	r->nqueued++;
	/* Lines queued in one turn of the loop (all that one command caused)
	 * go out together as one event: a send is counted against the
	 * homeserver's rate limit, however many lines it holds. */
	mx_kick(m, 0);
}

/* The member a line alerts (the host says whom: adapter_msg.mention), and
 * where the text addresses them as "NAME:" (at the start of a line or
 * after a space), for the pill; *pos is (size_t)-1 when the text does not. */
static const mx_member *find_address(const matrix *m, const mx_room *r, const char *mention, const char *text,
				     size_t *pos)
{
	*pos = (size_t)-1;
	if (r->dm_user[0] || !mention || !mention[0] || !strcmp(mention, m->set.user_id))
		return NULL;
	const mx_member *mb = mx_member_find((mx_room *)r, mention);
	if (!mb || !mb->name[0])
		return mb;
	size_t nl = strlen(mb->name);
	for (const char *p = strstr(text, mb->name); p; p = strstr(p + 1, mb->name))
		if (p[nl] == ':' && (p == text || p[-1] == ' ' || p[-1] == '\n')) {
			*pos = (size_t)(p - text);
			break;
		}
	return mb;
}

/* Builds the event content for the lines at the head of the queue (merged
 * while they fit), and gives it a transaction id. */
static int build_file_batch(matrix *m, mx_room *r);

static int build_batch(matrix *m, mx_room *r)
{
	if (r->head && r->head->file)
		return build_file_batch(m, r);
	size_t cap = MX_BATCH_MAX + 1, used = 0;
	char *text = malloc(cap);
	if (!text)
		return -1;
	text[0] = '\0';
	int lines = 0, any_notice_only = 1, highlight = 0;
	const char *mention = NULL;
	for (mx_msg *p = r->head; p && !p->file && lines < MX_BATCH_LINES; p = p->next) {
		size_t n = strlen(p->text);
		if (lines && used + 1 + n > MX_BATCH_MAX)
			break;
		if (n > MX_BATCH_MAX - used - (lines ? 1 : 0))
			n = MX_BATCH_MAX - used - (lines ? 1 : 0);
		if (lines)
			text[used++] = '\n';
		memcpy(text + used, p->text, n);
		used += n;
		text[used] = '\0';
		if (!(p->flags & ADAPTER_NOTICE))
			any_notice_only = 0;
		if (p->flags & ADAPTER_HIGHLIGHT)
			highlight = 1;
		if (!mention && p->mention[0])
			mention = p->mention;
		lines++;
	}
	size_t blen = used * 2 + 64, hlen = used * 8 + 512;
	char *body = malloc(blen), *html = malloc(hlen);
	if (!body || !html) {
		free(text), free(body), free(html);
		return -1;
	}
	size_t pos;
	const mx_member *who = find_address(m, r, mention, text, &pos);
	strbuf b, h;
	sb_init(&b, body, blen);
	sb_init(&h, html, hlen);
	json_object *o = json_object_new_object();
	if (who && pos == (size_t)-1) {
		/* Alerted though not addressed by name in the text. */
		mx_render_into(text, used, &b, &h);
		json_object *men = json_object_new_object(), *ids = json_object_new_array();
		json_object_array_add(ids, json_object_new_string(who->user));
		json_object_object_add(men, "user_ids", ids);
		json_object_object_add(o, "m.mentions", men);
	} else if (who) {
		size_t nl = strlen(who->name);
		mx_render_into(text, pos, &b, &h);
		mx_ob_str(&b, who->name);
		mx_ob_str(&h, "<a href=\"https://matrix.to/#/");
		mx_html_escape(&h, who->user, strlen(who->user));
		mx_ob_str(&h, "\">");
		mx_html_escape(&h, who->name, nl);
		mx_ob_str(&h, "</a>");
		mx_render_into(text + pos + nl, strlen(text + pos + nl), &b, &h);
		json_object *men = json_object_new_object(), *ids = json_object_new_array();
		json_object_array_add(ids, json_object_new_string(who->user));
		json_object_object_add(men, "user_ids", ids);
		json_object_object_add(o, "m.mentions", men);
	} else {
		mx_render_into(text, used, &b, &h);
		json_object_object_add(o, "m.mentions", json_object_new_object());
	}
	const char *type = who || highlight || !any_notice_only ? "m.text" : "m.notice";
	json_object_object_add(o, "msgtype", json_object_new_string(type));
	json_object_object_add(o, "body", json_object_new_string(body));
	json_object_object_add(o, "format", json_object_new_string("org.matrix.custom.html"));
	json_object_object_add(o, "formatted_body", json_object_new_string(html));
	free(text), free(body), free(html);
	free(r->batch);
	r->batch = mx_json_text(o);
	if (!r->batch)
		return -1;
	r->batch_lines = lines;
	r->attempts = 0;
	snprintf(r->txn, sizeof r->txn, "cb%llx.%lu", m->txn_base, ++m->txn_counter);
	return 0;
}

/* The m.file event for the uploaded file at the head of the queue. */
static int build_file_batch(matrix *m, mx_room *r)
{
	const mx_file *f = r->head->file;
	json_object *o = json_object_new_object(), *info = json_object_new_object();
	if (!o || !info) {
		json_object_put(o), json_object_put(info);
		return -1;
	}
	json_object_object_add(o, "msgtype", json_object_new_string("m.file"));
	json_object_object_add(o, "body", json_object_new_string(r->head->text));
	json_object_object_add(o, "filename", json_object_new_string(r->head->text));
	if (f->enc) {
		/* EncryptedFile: where the ciphertext is and how to read it. */
		json_object *file = json_object_new_object(), *jwk = json_object_new_object(),
			    *ops = json_object_new_array(), *hashes = json_object_new_object();
		json_object_array_add(ops, json_object_new_string("encrypt"));
		json_object_array_add(ops, json_object_new_string("decrypt"));
		json_object_object_add(jwk, "kty", json_object_new_string("oct"));
		json_object_object_add(jwk, "key_ops", ops);
		json_object_object_add(jwk, "alg", json_object_new_string("A256CTR"));
		json_object_object_add(jwk, "k", json_object_new_string(f->key));
		json_object_object_add(jwk, "ext", json_object_new_boolean(1));
		json_object_object_add(hashes, "sha256", json_object_new_string(f->sha256));
		json_object_object_add(file, "url", json_object_new_string(f->uri));
		json_object_object_add(file, "key", jwk);
		json_object_object_add(file, "iv", json_object_new_string(f->iv));
		json_object_object_add(file, "hashes", hashes);
		json_object_object_add(file, "v", json_object_new_string("v2"));
		json_object_object_add(o, "file", file);
	} else {
		json_object_object_add(o, "url", json_object_new_string(f->uri));
	}
	json_object_object_add(info, "mimetype", json_object_new_string(f->mime));
	json_object_object_add(info, "size", json_object_new_int64((int64_t)f->len));
	json_object_object_add(o, "info", info);
	json_object_object_add(o, "m.mentions", json_object_new_object());
	free(r->batch);
	r->batch = mx_json_text(o);
	if (!r->batch)
		return -1;
	r->batch_lines = 1;
	r->attempts = 0;
	snprintf(r->txn, sizeof r->txn, "cb%llx.%lu", m->txn_base, ++m->txn_counter);
	return 0;
}

/* Unpadded base64 of len bytes into out; url: the URL-safe alphabet. */
static void b64(const unsigned char *in, int len, char *out, size_t cap, int url)
{
	unsigned char buf[64];
	if ((size_t)(4 * ((len + 2) / 3)) >= sizeof buf || (size_t)(4 * ((len + 2) / 3)) >= cap) {
		out[0] = '\0';
		return;
	}
	int n = EVP_EncodeBlock(buf, in, len);
	while (n > 0 && buf[n - 1] == '=')
		n--;
	for (int i = 0; i < n; i++)
		out[i] = (char)(url && buf[i] == '+' ? '-' : url && buf[i] == '/' ? '_' : buf[i]);
	out[n] = '\0';
}

/* The file's bytes encrypted for an encrypted room (AES-256-CTR under a
 * new random key; the IV's counter half zero, as the spec asks), its key,
 * IV and hash into f: the ciphertext (len bytes, the caller's), or NULL. */
static char *encrypt_file(mx_file *f)
{
	unsigned char key[32], iv[16] = { 0 }, hash[32];
	unsigned int hl = 0;
	char *out = malloc(f->len ? f->len : 1);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, fin = 0, ok = out && x && RAND_bytes(key, sizeof key) == 1 && RAND_bytes(iv, 8) == 1
		&& EVP_EncryptInit_ex(x, EVP_aes_256_ctr(), NULL, key, iv) == 1
		&& EVP_EncryptUpdate(x, (unsigned char *)out, &n, (const unsigned char *)f->data, (int)f->len) == 1
		&& EVP_EncryptFinal_ex(x, (unsigned char *)out + n, &fin) == 1 && (size_t)(n + fin) == f->len
		&& EVP_Digest(out, f->len, hash, &hl, EVP_sha256(), NULL) == 1 && hl == sizeof hash;
	EVP_CIPHER_CTX_free(x);
	if (ok) {
		b64(key, sizeof key, f->key, sizeof f->key, 1);
		b64(iv, sizeof iv, f->iv, sizeof f->iv, 0);
		b64(hash, sizeof hash, f->sha256, sizeof f->sha256, 0);
		ok = f->key[0] && f->iv[0] && f->sha256[0];
	}
	OPENSSL_cleanse(key, sizeof key);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

/* Uploads the file at the head of a room's queue to the content repository. */
static void upload_start(matrix *m, mx_room *r)
{
	mx_file *f = r->head->file;
	if (!f->data && f->len) {
		/* Cannot happen (the bytes stay until the URI is known); dropped. */
		LOG(m, "warn", "%s: a file lost its bytes before the upload; it is dropped", r->id);
		mx_msg *msg = r->head;
		r->head = msg->next;
		if (!r->head)
			r->tail = NULL;
		r->nqueued--;
		mx_msg_free(m, msg);
		mx_send_next(m, r);
		return;
	}
	/* In an encrypted room the homeserver gets only ciphertext; the key
	 * travels in the m.file event, which megolm encrypts. */
	f->enc = m->crypto && r->encrypted;
	char *copy = f->enc ? encrypt_file(f) : malloc(f->len ? f->len : 1);
	if (!copy) {
		LOG(m, "error", "out of memory (or no randomness) uploading a file");
		mx_schedule_send_retry(m, r, mx_backoff_ms(m, r->attempts++));
		return;
	}
	if (f->len && !f->enc)
		memcpy(copy, f->data, f->len);
	char name[3 * 256], path[1024];
	mx_path_escape(m, r->head->text, name, sizeof name);
	snprintf(path, sizeof path, "/_matrix/media/v3/upload?filename=%s", name);
	mx_req *q = mx_request_raw(m, REQ_UPLOAD, "POST", path, copy, f->len,
				   f->enc ? "application/octet-stream" : f->mime, MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = mx_budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->id);
		q->file_id = f->id;
		r->sending = 1;
	}
}

/* Tells a player, in a room both share, that a direct room waits for them. */
static void ask_to_join(matrix *m, mx_room *dm)
{
	if (dm->partner_told || dm->partner_joined)
		return;
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->dm_user[0] || !r->joined || r->gone || !mx_member_find(r, dm->dm_user))
			continue;
		dm->partner_told = 1;
		char line[1024], name[MX_NAME_MAX];
		mx_display_name(r, dm->dm_user, name, sizeof name);
		mx_words(m, r, ADAPTER_W_ASK_JOIN, name,
			 "%s: I have sent you private messages in a direct room; accept my invitation to read them.", line,
			 sizeof line);
		mx_enqueue_to(m, r, line, ADAPTER_HIGHLIGHT, dm->dm_user);
		return;
	}
}

/* A player who has not joined their direct room a while after the first
 * private line is asked to (clients that accept at once are not bothered). */
void mx_ask_fire(void *ctx)
{
	mx_room *r = ctx;
	r->ask_timer = 0;
	if (!r->gone && !r->partner_joined)
		ask_to_join(r->m, r);
}

/* Any room's work is looked at again (lines queued, a send done...). */
void mx_send_next(matrix *m, mx_room *r)
{
	(void)r;
	mx_kick(m, 0);
}

/* What a room would spend next: 1 token (an event or an upload), 2 (a room
 * creation), or 0 when it has nothing ready to go. */
static int job_cost(const matrix *m, const mx_room *r)
{
	if (r->gone || r->sending || r->retry_timer || r->dm_creating || m->fatal || !m->token[0])
		return 0;
	if (!r->id[0])
		return r->dm_user[0] && r->create_wanted ? 2 : 0;
	return r->batch || r->head ? 1 : 0;
}

/* A job's urgency (lower goes first): its class, less the time it waited. */
static int64_t job_rank(const mx_room *r, int64_t now)
{
	if (!r->id[0])
		return (int64_t)CLS_CREATE * MX_AGE_MS - (now - r->create_at);
	int cls = CLS_CREATE;
	int64_t at = now;
	for (const mx_msg *x = r->head; x; x = x->next) {
		if (x->cls < cls)
			cls = x->cls;
		if (x->at < at)
			at = x->at;
	}
	return (int64_t)cls * MX_AGE_MS - (now - at);
}

/* Rooms whose lines have waited long are told once, with those lines
 * (in the same event: it costs nothing more), that the bot is slowed. */
static void slow_check(matrix *m)
{
	int64_t now = loop_now();
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (r->dm_user[0] || r->gone || !r->head || now - r->head->at < MX_SLOW_MS)
			continue;
		if (r->slow_at && now - r->slow_at < MX_SLOW_AGAIN_MS)
			continue;
		r->slow_at = now;
		LOG(m, "info", "%s: lines have waited %lld s for the homeserver's rate limit; the room is told", r->id,
		    (long long)((now - r->head->at) / 1000));
		char slow[1024];
		mx_words(m, r, ADAPTER_W_SLOW, "", "(The homeserver limits how fast I may post, so my lines come late; "
			 "the game waits for them.)", slow, sizeof slow);
		mx_msg *x = malloc(sizeof *x + strlen(slow) + 1);
		if (!x)
			continue;
		x->flags = ADAPTER_NOTICE;
		x->file = NULL;
		x->cls = CLS_ROOM;
		x->at = r->head->at;
		memcpy(x->text, slow, strlen(slow) + 1);
		/* After the event being retried, if any: that one is fixed. */
		mx_msg **p = after_batch(r);
		x->next = *p;
		*p = x;
		if (!x->next)
			r->tail = x;
		r->nqueued++;
	}
}

static void send_now(matrix *m, mx_room *r);
static void create_dm_start(matrix *m, mx_room *r);
static void send_retry_fire(void *ctx);
static void create_dm_retry(void *ctx);

/* Drops the ADAPTER_TIMELY lines that waited too long (outside the event
 * being sent or retried, which is fixed). */
static int is_late(const mx_msg *x, const void *arg)
{
	return (x->flags & ADAPTER_TIMELY) && *(const int64_t *)arg - x->at > MX_TIMELY_MS;
}

static void drop_late(matrix *m, mx_room *r, int64_t now)
{
	int dropped = drop_queued(m, r, is_late, &now);
	if (dropped)
		LOG(m, "debug", "%s: %d timely line%s dropped, too late to send", r->id, dropped, dropped == 1 ? "" : "s");
}

static int is_timely(const mx_msg *x, const void *arg)
{
	(void)arg;
	return (x->flags & ADAPTER_TIMELY) != 0;
}

/* The host says the turn a queued timely line names has passed (the
 * player moved while the line waited for the budget): it is not sent. */
void mx_withdraw(matrix *m, const char *room)
{
	mx_room *r = mx_room_find(m, room);
	if (!r || !r->head)
		return;
	int dropped = drop_queued(m, r, is_timely, NULL);
	if (dropped)
		LOG(m, "debug", "%s: %d timely line%s withdrawn: the turn it named has passed", r->id, dropped,
		    dropped == 1 ? "" : "s");
}

/* The one place requests that count against the limit start: the most
 * urgent ready job goes when the budget has its tokens; then the next. */
void mx_dispatch(matrix *m)
{
	if (m->fatal || !m->token[0])
		return;
	mx_e2ee_answer(m);
	int64_t now = loop_now();
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->head && !r->sending)
			drop_late(m, r, now);
	for (int guard = 0; guard < 256; guard++) {
		mx_room *best = NULL;
		int64_t best_rank = 0;
		int cost = 0;
		for (mx_room *r = m->rooms; r; r = r->next) {
			if (r->leave_when_sent && !r->head && !r->batch && !r->sending && !r->gone && r->id[0]) {
				r->leave_when_sent = 0;
				mx_leave_room(m, r->id, "encrypted room");
				continue;
			}
			int c = job_cost(m, r);
			if (!c || (c == 1 && !mx_e2ee_ready(m, r)))
				continue;
			int64_t rank = job_rank(r, now);
			if (!best || rank < best_rank)
				best = r, best_rank = rank, cost = c;
		}
		if (!best)
			return;
		/* A creation needs both its tokens (and a little more, for the
		 * clocks' disagreement): with one, Synapse makes the room and
		 * then refuses the bot's join, leaving an empty room. */
		long w = mx_bud_wait(m, cost == 2 ? 2.25 : 1.0);
		if (w > 0) {
			slow_check(m);
			mx_kick(m, w);
			return;
		}
		mx_bud_spend(m, cost);
		if (cost == 2)
			create_dm_start(m, best);
		else
			send_now(m, best);
		if (job_cost(m, best)) {
			/* It could not start (out of memory): later, not in a loop. */
			mx_room_retry(m, best, mx_backoff_ms(m, best->attempts++), send_retry_fire);
		}
	}
}

static void send_now(matrix *m, mx_room *r)
{
	if (!r->batch) {
		if (!r->head)
			return;
		if (r->head->file && !r->head->file->uri[0]) {
			if (r->dm_user[0] && !r->partner_joined && !r->partner_told && !r->ask_timer)
				r->ask_timer = loop_timer(m->base.ev, MX_ASK_DELAY_MS, mx_ask_fire, r);
			upload_start(m, r);
			return;
		}
		if (build_batch(m, r) < 0) {
			LOG(m, "error", "out of memory building a message");
			return;
		}
	}
	if (r->dm_user[0] && !r->partner_joined && !r->partner_told && !r->ask_timer)
		r->ask_timer = loop_timer(m->base.ev, MX_ASK_DELAY_MS, mx_ask_fire, r);
	if (mx_e2ee_encrypt_batch(m, r) < 0) {
		/* No room key to encrypt with (it came due meanwhile, or it could
		 * not be stored): shared again first, after a pause, never sent
		 * in the clear. */
		long ms = mx_backoff_ms(m, r->attempts++);
		LOG(m, "warn", "%s: the message could not be encrypted; trying again in %ld ms", r->id, ms);
		mx_schedule_send_retry(m, r, ms);
		return;
	}
	char esc[3 * ADAPTER_ID_MAX], txn[3 * sizeof r->txn], path[4096];
	mx_path_escape(m, r->id, esc, sizeof esc);
	mx_path_escape(m, r->txn, txn, sizeof txn);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/%s/%s", esc,
		 r->batch_enc ? "m.room.encrypted" : "m.room.message", txn);
	mx_req *q = mx_request(m, REQ_SEND, "PUT", path, strdup(r->batch), MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = mx_budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->id);
		r->sending = 1;
	}
}

static void send_retry_fire(void *ctx);

/* Rooms stay allocated until the adapter is freed, so a timer may hold one. */
/* A room has one retry timer: setting it again replaces the one pending
 * (two would fire on the same record, the first clearing the id of the
 * second, which could then fire after the record is freed). */
void mx_room_retry(matrix *m, mx_room *r, long ms, void (*fn)(void *))
{
	if (r->retry_timer)
		loop_cancel(m->base.ev, r->retry_timer);
	r->retry_fn = fn;
	r->retry_timer = loop_timer(m->base.ev, ms, fn, r);
}

void mx_schedule_send_retry(matrix *m, mx_room *r, long ms)
{
	mx_room_retry(m, r, ms, send_retry_fire);
}

static void send_retry_fire(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	mx_send_next(r->m, r);
}

/* The event in flight is posted (or dropped): its lines leave the queue. */
static void batch_done(matrix *m, mx_room *r)
{
	for (int i = 0; i < r->batch_lines && r->head; i++) {
		mx_msg *n = r->head->next;
		mx_msg_free(m, r->head);
		r->head = n;
		r->nqueued--;
	}
	if (!r->head)
		r->tail = NULL;
	free(r->batch);
	r->batch = NULL;
	r->batch_enc = 0;
}

/* A 429 for a room's job: the budget learns, and the dispatcher sends
 * again when the model has the tokens (never two jobs at one instant). A
 * job refused again and again also backs off on its own, so a model that
 * is still wrong cannot make it loop. */
static void refused_429(matrix *m, mx_room *r, long ms, const char *what, int solo)
{
	mx_bud_refused(m, ms, solo);
	r->n429++;
	long extra = r->n429 >= MX_429_BACKOFF ? mx_backoff_ms(m, r->n429 - MX_429_BACKOFF) : 0;
	LOG(m, "info", "%s: rate-limited %sfor the %d%s time; again when the budget allows (retry_after_ms %ld; model "
	    "%.3f a second, burst %.1f)%s",
	    r->id[0] ? r->id : r->dm_user, what[0] ? what : "", r->n429,
	    r->n429 == 1 ? "st" : r->n429 == 2 ? "nd" : r->n429 == 3 ? "rd" : "th", ms, m->bud_rate, m->bud_burst,
	    extra ? "; backing off" : "");
	if (extra)
		mx_room_retry(m, r, ms + extra, r->id[0] ? send_retry_fire : create_dm_retry);
	mx_kick(m, 0);
}

/* A send or an upload of r's went through: its back-off starts afresh. */
static void went_through(matrix *m, mx_room *r)
{
	r->attempts = 0;
	r->n429 = 0;
	m->last_ok = loop_now();
}

/* What becomes of a send or an upload (doing: "sending ", "uploading ")
 * that did not go through: after a 429 it waits as refused_429 says; on no
 * answer (err says why), a server error or a 200 that lacks what it should
 * carry (lacking) it is tried again in *ms; else the homeserver refused it
 * for good. why holds the reason for the last two. */
enum send_fate { SEND_REFUSED, SEND_WAITS, SEND_RETRIES };
static enum send_fate send_failed(matrix *m, mx_room *r, const mx_req *q, long status, json_object *body,
				  const char *err, const char *doing, const char *lacking, char *why, size_t size,
				  long *ms)
{
	if (status == 429) {
		refused_429(m, r, mx_retry_after(body), doing, q->solo);
		return SEND_WAITS;
	}
	if (!(status == 0 || status >= 500 || status == 200)) {
		mx_error_text(body, why, size);
		return SEND_REFUSED;
	}
	*ms = mx_backoff_ms(m, r->attempts++);
	snprintf(why, size, "%s", status == 0 ? err : status == 200 ? lacking : "");
	if (status >= 500)
		mx_error_text(body, why, size);
	mx_schedule_send_retry(m, r, *ms);
	return SEND_RETRIES;
}

void mx_send_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = mx_room_find(m, q->room);
	if (!r)
		return;
	r->sending = 0;
	if (status == 200 && mx_jstr(body, "event_id")) {
		batch_done(m, r);
		went_through(m, r);
		mx_send_next(m, r);
		return;
	}
	char why[512];
	long ms;
	enum send_fate fate = send_failed(m, r, q, status, body, err, "sending ", "a reply without event_id", why,
					  sizeof why, &ms);
	if (fate == SEND_RETRIES)
		LOG(m, "warn", "%s: send failed (%s%s%ld); trying again in %ld ms with the same transaction id", r->id,
		    why, *why ? ", status " : "status ", status, ms);
	if (fate != SEND_REFUSED)
		return;
	LOG(m, "warn", "%s: the homeserver refused a message (%ld, %s); it is dropped", r->id, status, why);
	batch_done(m, r);
	if (status == 403 && r->dm_user[0]) {
		/* Not in the direct room any more: the next private line makes a new one. */
		char user[ADAPTER_ID_MAX];
		snprintf(user, sizeof user, "%s", r->dm_user);
		r->gone = 1;
		mx_msg *rest = r->head;
		r->head = r->tail = NULL;
		r->nqueued = 0;
		mx_direct_save(m);
		/* The rest (lines and files, in order) goes to a new direct room. */
		mx_room *nr = rest && !m->fatal ? mx_dm_find(m, user) : NULL;
		if (rest && !m->fatal && !nr && (nr = mx_room_add(m, "")) != NULL) {
			snprintf(nr->dm_user, sizeof nr->dm_user, "%s", user);
			mx_create_dm(m, nr);
		}
		while (rest) {
			mx_msg *n = rest->next;
			rest->next = NULL;
			if (nr)
				mx_enqueue_msg(m, nr, rest);
			else
				mx_msg_free(m, rest);
			rest = n;
		}
		return;
	}
	mx_send_next(m, r);
}

/* The content repository answered an upload. */
void mx_upload_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = mx_room_find(m, q->room);
	if (!r)
		return;
	r->sending = 0;
	mx_msg *msg = r->head;
	if (!msg || !msg->file || msg->file->id != q->file_id) {
		mx_send_next(m, r); /* the file was dropped meanwhile (the room was left) */
		return;
	}
	mx_file *f = msg->file;
	const char *uri = mx_jstr(body, "content_uri");
	if (status == 200 && uri && !strncmp(uri, "mxc://", 6) && strlen(uri) < sizeof f->uri) {
		mx_copy_clean(f->uri, sizeof f->uri, uri, 1);
		mx_file_drop_data(m, f);
		went_through(m, r);
		LOG(m, "info", "%s: uploaded %s (%zu bytes)", r->id, msg->text, f->len);
		mx_send_next(m, r);
		return;
	}
	char why[512];
	long ms;
	enum send_fate fate = send_failed(m, r, q, status, body, err, "uploading ", "a reply without an mxc:// URI",
					  why, sizeof why, &ms);
	if (fate == SEND_RETRIES)
		LOG(m, "warn", "%s: uploading %s failed (%s, status %ld); trying again in %ld ms", r->id, msg->text, why,
		    status, ms);
	if (fate != SEND_REFUSED)
		return;
	LOG(m, "warn", "%s: the homeserver refused the upload of %s (%zu bytes; %ld, %s); it is dropped", r->id,
	    msg->text, f->len, status, why);
	r->head = msg->next;
	if (!r->head)
		r->tail = NULL;
	r->nqueued--;
	mx_msg_free(m, msg);
	r->attempts = 0;
	mx_send_next(m, r);
}

/* A direct room is wanted: made when the budget has two tokens to spare. */
void mx_create_dm(matrix *m, mx_room *r)
{
	if (!r->create_wanted) {
		r->create_wanted = 1;
		r->create_at = loop_now();
	}
	mx_kick(m, 0);
}

static void create_dm_start(matrix *m, mx_room *r)
{
	json_object *o = json_object_new_object(), *inv = json_object_new_array();
	json_object_array_add(inv, json_object_new_string(r->dm_user));
	json_object_object_add(o, "invite", inv);
	json_object_object_add(o, "is_direct", json_object_new_boolean(1));
	json_object_object_add(o, "preset", json_object_new_string("trusted_private_chat"));
	json_object_object_add(o, "visibility", json_object_new_string("private"));
	json_object_object_add(o, "name", json_object_new_string("cardbot"));
	if (m->crypto) {
		/* Hands travel encrypted: the room is made with encryption on. */
		json_object *st = json_object_new_array(), *ev = json_object_new_object(), *c = json_object_new_object();
		json_object_object_add(c, "algorithm", json_object_new_string(MXC_MEGOLM_ALGO));
		json_object_object_add(ev, "type", json_object_new_string("m.room.encryption"));
		json_object_object_add(ev, "state_key", json_object_new_string(""));
		json_object_object_add(ev, "content", c);
		json_object_array_add(st, ev);
		json_object_object_add(o, "initial_state", st);
	}
	mx_req *q = mx_request(m, REQ_CREATE_DM, "POST", "/_matrix/client/v3/createRoom", mx_json_text(o),
			    MX_SEND_TIMEOUT_MS);
	if (q) {
		q->solo = mx_budget_solo(m, q);
		snprintf(q->room, sizeof q->room, "%s", r->dm_user);
		r->dm_creating = 1;
		LOG(m, "debug", "making a direct room for %s", r->dm_user);
	}
}

static void create_dm_retry(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	if (!r->gone)
		mx_kick(r->m, 0);
}

void mx_create_done(matrix *m, mx_req *q, long status, json_object *body, const char *err)
{
	mx_room *r = NULL;
	for (mx_room *p = m->rooms; p; p = p->next)
		if (!p->id[0] && p->dm_creating && !strcmp(p->dm_user, q->room))
			r = p;
	if (!r)
		return;
	r->dm_creating = 0;
	const char *id = mx_jstr(body, "room_id");
	if (status == 200 && mx_is_room_id(id)) {
		r->create_wanted = 0;
		r->n429 = 0;
		m->last_ok = loop_now();
		LOG(m, "info", "made a direct room %s for %s", id, r->dm_user);
		mx_room *seen = mx_room_find(m, id);
		if (seen && seen != r) {
			/* A sync told of the new room before this reply came: that
			 * record becomes the direct room, with the lines queued here. */
			LOG(m, "info", "%s was already known from a sync; it becomes the direct room", id);
			snprintf(seen->dm_user, sizeof seen->dm_user, "%s", r->dm_user);
			seen->partner_joined = mx_member_find(seen, r->dm_user) != NULL;
			seen->ready_told = 0;
			seen->gone = 0;
			if (r->head) {
				r->tail->next = seen->head;
				if (!seen->head)
					seen->tail = r->tail;
				seen->head = r->head;
				seen->nqueued += r->nqueued;
				r->head = r->tail = NULL;
				r->nqueued = 0;
			}
			r->dm_user[0] = '\0';
			r->gone = r->left_done = 1;
			r = seen;
		} else {
			snprintf(r->id, sizeof r->id, "%s", id);
		}
		r->joined = 1;
		if (m->crypto)
			r->encrypted = 1;
		mx_direct_save(m);
		mx_send_next(m, r);
		return;
	}
	char why[512];
	long ms;
	if (status == 429) {
		/* Synapse may have made the room with the first token and refused
		 * the join for want of the second; it does not say which room, so
		 * it cannot be joined, and the budget makes this rare: a creation
		 * goes only when two tokens are there. */
		refused_429(m, r, mx_retry_after(body), "making a direct room ", q->solo);
		return;
	} else if (status == 0 || status >= 500) {
		ms = mx_backoff_ms(m, r->attempts++);
		if (status)
			mx_error_text(body, why, sizeof why);
		else
			snprintf(why, sizeof why, "%s", err);
	} else {
		mx_error_text(body, why, sizeof why);
		LOG(m, "warn", "cannot make a direct room for %s (%ld, %s); private lines to them are dropped",
		    r->dm_user, status, why);
		r->gone = 1;
		r->create_wanted = 0;
		mx_queue_clear(r);
		return;
	}
	LOG(m, "warn", "making a direct room for %s failed (%s); trying again in %ld ms", r->dm_user, why, ms);
	mx_room_retry(m, r, ms, create_dm_retry);
}
