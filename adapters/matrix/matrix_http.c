/* matrix_http.c: HTTP requests on the curl multi handle, driven by the loop, and their replies routed by kind. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matrix_internal.h"

/* ---- HTTP on the curl multi handle ---- */

size_t mx_on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
	mx_req *q = ud;
	size_t n = size * nmemb;
	if (q->inlen + n > q->inmax) {
		q->too_big = 1;
		return 0; /* aborts the transfer */
	}
	if (q->inlen + n + 1 > q->incap) {
		size_t cap = q->incap ? q->incap : 4096;
		while (cap < q->inlen + n + 1)
			cap *= 2;
		char *p = realloc(q->in, cap);
		if (!p)
			return 0;
		q->in = p;
		q->incap = cap;
	}
	memcpy(q->in + q->inlen, ptr, n);
	q->inlen += n;
	q->in[q->inlen] = '\0';
	return n;
}

void mx_req_free(mx_req *q)
{
	if (!q)
		return;
	if (q->h) {
		curl_multi_remove_handle(q->m->multi, q->h);
		curl_easy_cleanup(q->h);
	}
	curl_slist_free_all(q->hdrs);
	free(q->out);
	free(q->in);
	free(q);
}

void mx_req_unlink(matrix *m, mx_req *q)
{
	for (mx_req **p = &m->reqs; *p; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			return;
		}
}

/* Escapes one path segment (room ids carry '!' and ':'). */
void mx_path_escape(matrix *m, const char *seg, char *out, size_t len)
{
	char *e = curl_easy_escape(NULL, seg, 0);
	snprintf(out, len, "%s", e ? e : "");
	curl_free(e);
	(void)m;
}

/* Starts a request: method, path (with query) under the homeserver, a body
 * of `blen` bytes and its content type, or NULL (taken over). Returns the
 * request, or NULL (logged). */
mx_req *mx_request_raw(matrix *m, int kind, const char *method, const char *path, char *body, size_t blen,
			   const char *ctype, long timeout_ms)
{
	mx_req *q = calloc(1, sizeof *q);
	CURL *h = q ? curl_easy_init() : NULL;
	if (!h) {
		free(q);
		free(body);
		LOG(m, "error", "out of memory for a request");
		return NULL;
	}
	q->m = m;
	q->h = h;
	q->kind = kind;
	q->out = body;
	q->inmax = kind == REQ_SYNC ? MX_SYNC_MAX : MX_RESPONSE_MAX;
	char url[4096];
	size_t hl = strlen(m->set.homeserver);
	while (hl > 0 && m->set.homeserver[hl - 1] == '/')
		hl--;
	snprintf(url, sizeof url, "%.*s%s", (int)hl, m->set.homeserver, path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)MX_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "cardbot");
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, mx_on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, q);
	curl_easy_setopt(h, CURLOPT_PRIVATE, q);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, q->errbuf);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, m->set.tls_verify ? 1L : 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, m->set.tls_verify ? 2L : 0L);
	if (m->set.ca_file[0])
		curl_easy_setopt(h, CURLOPT_CAINFO, m->set.ca_file);
	if (m->token[0] && kind != REQ_LOGIN) {
		char auth[MATRIX_FIELD_MAX + 32];
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", m->token);
		q->hdrs = curl_slist_append(q->hdrs, auth);
	}
	if (body) {
		char ct[192];
		snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
		q->hdrs = curl_slist_append(q->hdrs, ct);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)blen);
	}
	if (strcmp(method, "POST") != 0 || !body)
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	if (!strcmp(method, "POST") && !body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, "{}");
		q->hdrs = curl_slist_append(q->hdrs, "Content-Type: application/json");
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, q->hdrs);
	if (curl_multi_add_handle(m->multi, h) != CURLM_OK) {
		LOG(m, "error", "cannot start a request to %s", path);
		mx_req_free(q);
		return NULL;
	}
	q->next = m->reqs;
	m->reqs = q;
	return q;
}

/* The same with a JSON body (a string) or none. */
mx_req *mx_request(matrix *m, int kind, const char *method, const char *path, char *body, long timeout_ms)
{
	return mx_request_raw(m, kind, method, path, body, body ? strlen(body) : 0, "application/json", timeout_ms);
}

/* A JSON object as text (owned by the caller), or NULL. */
char *mx_json_text(json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *d = s ? strdup(s) : NULL;
	json_object_put(o);
	return d;
}

/* What an error reply says, for a log line: "M_FORBIDDEN: text", cleaned. */
void mx_error_text(json_object *body, char *out, size_t len)
{
	const char *code = mx_jstr(body, "errcode"), *err = mx_jstr(body, "error");
	char raw[512];
	snprintf(raw, sizeof raw, "%s%s%s", code ? code : "no error code", err ? ": " : "", err ? err : "");
	mx_copy_clean(out, len, raw, 1);
}

long mx_retry_after(json_object *body)
{
	json_object *v = mx_jget(body, "retry_after_ms", json_type_int);
	long ms = v ? (long)json_object_get_int64(v) : 1000;
	if (ms < 0)
		ms = 0;
	return ms > MX_RETRY_AFTER_MAX ? MX_RETRY_AFTER_MAX : ms;
}

/* ---- replies ---- */
/* The body of a finished request as a JSON object, or NULL (then err says
 * why). A 200 whose body is not an object becomes status 0: garbage counts
 * as a network error, and is retried. */
static json_object *reply_parse(matrix *m, const char *in, size_t inlen, long *status, char *err, size_t errlen)
{
	json_object *body = NULL;
	if (inlen) {
		json_tokener *tok = json_tokener_new();
		if (tok) {
			json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
			body = json_tokener_parse_ex(tok, in, inlen > INT32_MAX ? INT32_MAX : (int)inlen);
			enum json_tokener_error je = json_tokener_get_error(tok);
			if (je != json_tokener_success || json_tokener_get_parse_end(tok) < inlen) {
				json_object_put(body);
				body = NULL;
				snprintf(err, errlen, "the homeserver sent JSON that does not parse (%zu bytes, %s)", inlen,
					 je == json_tokener_success ? "extra data after it" : json_tokener_error_desc(je));
			}
			json_tokener_free(tok);
		}
	}
	if (!body || !json_object_is_type(body, json_type_object)) {
		if (!err[0])
			snprintf(err, errlen, "the reply (status %ld) is not a JSON object", *status);
		LOG(m, "warn", "%s", err);
		json_object_put(body);
		body = NULL;
		if (*status == 200)
			*status = 0;
	}
	return body;
}

/* A request is over: rc is curl's result, status the HTTP status (when
 * rc is CURLE_OK), q->in the body. Parses it and acts on it. The only way
 * replies come in: drive() for the network, matrix_feed_reply for tests. */
/* mx_fatal with a line made from fmt (cut at 1200 bytes). */
__attribute__((format(printf, 2, 3)))
static void fatal_fmt(matrix *m, const char *fmt, ...)
{
	char line[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	mx_fatal(m, line);
}

void mx_on_done(matrix *m, mx_req *q, CURLcode rc, long status)
{
	json_object *body = NULL;
	char err[CURL_ERROR_SIZE + 64] = "";
	if (rc == CURLE_OK) {
		body = reply_parse(m, q->in, q->inlen, &status, err, sizeof err);
	} else {
		status = 0;
		snprintf(err, sizeof err, "%s", q->too_big ? "the reply was too large" : q->errbuf[0] ? q->errbuf
			 : curl_easy_strerror(rc));
	}
	char why[512];
	switch (q->kind) {
	case REQ_LOGIN:
		if (status == 200 && mx_jstr(body, "access_token")) {
			const char *dev = mx_jstr(body, "device_id"), *uid = mx_jstr(body, "user_id");
			mx_copy_clean(m->token, sizeof m->token, mx_jstr(body, "access_token"), 1);
			if (dev) {
				mx_copy_clean(m->device, sizeof m->device, dev, 1);
				mx_state_set(m, "device_id", m->device);
			}
			LOG(m, "info", "logged in as %s, device %s", uid ? uid : m->set.user_id, m->device);
			m->start_failures = 0;
			mx_start_step(m);
		} else if (status == 0 || status >= 500 || status == 429) {
			mx_start_retry(m, "login", status ? "the homeserver is busy" : err);
		} else {
			mx_error_text(body, why, sizeof why);
			fatal_fmt(m, "login as %s refused (%ld, %s): check user_id and password", m->set.user_id, status,
				  why);
		}
		break;
	case REQ_WHOAMI:
		if (status == 200 && mx_jstr(body, "user_id")) {
			const char *uid = mx_jstr(body, "user_id");
			if (strcmp(uid, m->set.user_id) != 0) {
				fatal_fmt(m, "the access token belongs to %.200s, not to %s: fix user_id or access_token", uid,
					  m->set.user_id);
				break;
			}
			const char *dev = mx_jstr(body, "device_id");
			if (dev && !m->device[0])
				mx_copy_clean(m->device, sizeof m->device, dev, 1);
			LOG(m, "info", "whoami: %s, device %s", uid, m->device[0] ? m->device : "(unknown)");
			m->start_failures = 0;
			if (mx_e2ee_start(m) < 0)
				break;
			mx_upload_filter(m);
		} else if (status == 0 || status >= 500 || status == 429) {
			mx_start_retry(m, "whoami", status ? "the homeserver is busy" : err);
		} else {
			mx_error_text(body, why, sizeof why);
			fatal_fmt(m, "the homeserver refused the access token for %s (%ld, %s): check access_token",
				  m->set.user_id, status, why);
		}
		break;
	case REQ_FILTER:
		if (status == 200 && mx_jstr(body, "filter_id")) {
			mx_copy_clean(m->filter_id, sizeof m->filter_id, mx_jstr(body, "filter_id"), 1);
			mx_after_filter(m);
		} else {
			if (status)
				mx_error_text(body, why, sizeof why);
			long ms = mx_backoff_ms(m, m->start_failures++);
			LOG(m, "warn", "uploading the sync filter failed (%s); trying again in %ld ms", status ? why : err,
			    ms);
			m->start_fn = mx_filter_retry;
			m->start_timer = loop_timer(m->base.ev, ms, mx_filter_retry, m);
		}
		break;
	case REQ_DIRECT_GET:
		if (status == 200)
			mx_direct_load(m, body, 1);
		else if (status != 404)
			LOG(m, "warn", "could not read m.direct (%ld); using the saved direct rooms", status);
		mx_after_direct(m);
		break;
	case REQ_DIRECT_PUT:
		m->direct_putting = 0;
		if (status != 200)
			LOG(m, "warn", "could not write m.direct (%ld)", status);
		if (m->direct_dirty && status == 200)
			mx_direct_save(m);
		break;
	case REQ_SYNC:
		m->sync_req = NULL;
		if (m->stopping)
			break;
		if (status == 200 && body) {
			mx_handle_sync(m, body);
		} else {
			long ms;
			if (status == 429) {
				ms = mx_retry_after(body);
			} else {
				ms = mx_backoff_ms(m, m->sync_failures++);
				if (status && body)
					mx_error_text(body, why, sizeof why);
			}
			if (status == 401) {
				mx_error_text(body, why, sizeof why);
				char line[1200];
				snprintf(line, sizeof line, "the homeserver no longer accepts the access token (%s)", why);
				if (m->set.password[0]) {
					LOG(m, "warn", "%s; logging in again", line);
					m->token[0] = '\0';
					mx_link_state(m, 0, line);
					m->start_fn = mx_start_step;
					m->start_timer = loop_timer(m->base.ev, ms, mx_start_step, m);
				} else {
					mx_fatal(m, line);
				}
				break;
			}
			LOG(m, "warn", "sync failed (%s); trying again in %ld ms", status == 0 ? err : status == 429
			    ? "rate-limited" : "server error", ms);
			if (m->sync_failures >= 3)
				mx_link_state(m, 0, "sync keeps failing");
			m->sync_timer = loop_timer(m->base.ev, ms, mx_sync_now, m);
		}
		break;
	case REQ_JOIN: {
		mx_room *r = mx_room_find(m, q->room);
		const char *id = mx_jstr(body, "room_id");
		if (status == 200 && mx_is_room_id(id)) {
			LOG(m, "info", "joined %s%s%s", q->room, strcmp(q->room, id) ? " as " : "",
			    strcmp(q->room, id) ? id : "");
			mx_bud_spend(m, 1); /* Synapse counts a join (a member event) as a message */
			mx_room *j = mx_room_get(m, id);
			if (j) {
				j->joining = 1; /* /sync confirms */
				j->gone = 0;
			}
		} else {
			if (status)
				mx_error_text(body, why, sizeof why);
			if (r)
				r->joining = 0;
			if (status == 429 && r && !r->gone) {
				/* A join is a message to Synapse's limit too: later. */
				long ms = mx_retry_after(body);
				mx_bud_refused(m, ms, 0);
				r->join_invited = q->join_via_invite;
				LOG(m, "info", "joining %s: rate-limited; again in %ld ms", q->room, ms);
				mx_room_retry(m, r, ms + 250, mx_join_retry_fire);
				break;
			}
			LOG(m, "warn", "cannot join %s (%ld, %s)", q->room, status, status ? why : err);
			if (q->join_via_invite && r && !r->joined)
				r->gone = 1;
		}
		break;
	}
	case REQ_LEAVE:
		if (status == 200) {
			mx_bud_spend(m, 1);
			mx_room *r = mx_room_find(m, q->room);
			if (r && r->ready_told && !r->dm_user[0] && m->base.host.room_lost)
				m->base.host.room_lost(m->base.host.ctx, &m->base, q->room, "left");
			if (r) {
				r->joined = r->ready_told = 0;
				r->left_done = 1;
				mx_queue_clear(r);
			}
			mx_forget_room(m, q->room);
		} else {
			LOG(m, "warn", "leaving %s failed (%ld)", q->room, status);
		}
		break;
	case REQ_FORGET:
		if (status != 200)
			LOG(m, "info", "forgetting %s failed (%ld)", q->room, status);
		break;
	case REQ_SEND:
		mx_send_done(m, q, status, body, err);
		break;
	case REQ_CREATE_DM:
		mx_create_done(m, q, status, body, err);
		break;
	case REQ_UPLOAD:
		mx_upload_done(m, q, status, body, err);
		break;
	case REQ_KEYS_UPLOAD:
	case REQ_KEYS_QUERY:
	case REQ_KEYS_CLAIM:
	case REQ_TO_DEVICE:
		mx_e2ee_done(m, q, status, body, err);
		break;
	case REQ_XSIGN_KEYS:
	case REQ_XSIGN_SIG:
	case REQ_VERIFY_SEND:
		mx_verify_done(m, q, status, body, err);
		break;
	}
	json_object_put(body);
}

static void drive(matrix *m)
{
	int running = 0;
	curl_multi_perform(m->multi, &running);
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(m->multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		mx_req *q = NULL;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&q);
		CURLcode rc = msg->data.result;
		if (!q)
			continue;
		long status = 0;
		if (rc == CURLE_OK)
			curl_easy_getinfo(q->h, CURLINFO_RESPONSE_CODE, &status);
		mx_req_unlink(m, q);
		curl_multi_remove_handle(m->multi, q->h);
		mx_on_done(m, q, rc, status);
		curl_easy_cleanup(q->h);
		q->h = NULL;
		mx_req_free(q);
	}
}
static void on_tick(void *ctx)
{
	matrix *m = ctx;
	m->tick_timer = 0;
	drive(m);
}

void mx_src_prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	matrix *m = ctx;
	if (!m->reqs)
		return;
	fd_set ex;
	FD_ZERO(&ex);
	int mx = -1;
	curl_multi_fdset(m->multi, rd, wr, &ex, &mx);
	if (mx > *maxfd)
		*maxfd = mx;
	long t = -1;
	curl_multi_timeout(m->multi, &t);
	if (mx == -1 && (t < 0 || t > 100))
		t = 100; /* curl has no socket to wait on yet (name lookup): look again soon */
	if (t >= 0) {
		if (*timeout_ms < 0 || t < *timeout_ms)
			*timeout_ms = t;
		if (m->tick_timer)
			loop_cancel(m->base.ev, m->tick_timer);
		m->tick_timer = loop_timer(m->base.ev, t, on_tick, m);
	}
}

void mx_src_dispatch(void *ctx, fd_set *rd, fd_set *wr)
{
	(void)rd, (void)wr;
	matrix *m = ctx;
	if (m->reqs)
		drive(m);
}
