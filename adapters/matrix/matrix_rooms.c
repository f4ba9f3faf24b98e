/* matrix_rooms.c: the rooms the Matrix adapter knows, their members, and joining and leaving them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matrix_internal.h"
#include "grow.h"

/* ---- rooms ---- */

mx_room *mx_room_find(matrix *m, const char *id)
{
	for (mx_room *r = m->rooms; r; r = r->next)
		if (r->id[0] && !strcmp(r->id, id))
			return r;
	return NULL;
}

mx_room *mx_room_add(matrix *m, const char *id)
{
	mx_room *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	snprintf(r->id, sizeof r->id, "%s", id);
	r->m = m;
	r->next = m->rooms;
	m->rooms = r;
	return r;
}

mx_room *mx_room_get(matrix *m, const char *id)
{
	mx_room *r = mx_room_find(m, id);
	return r ? r : mx_room_add(m, id);
}

/* The direct room in use for a user (the newest one recorded). */
mx_room *mx_dm_find(matrix *m, const char *user)
{
	for (mx_room *r = m->rooms; r; r = r->next)
		if (!r->gone && r->dm_user[0] && !strcmp(r->dm_user, user))
			return r;
	return NULL;
}

void mx_file_drop_data(matrix *m, mx_file *f)
{
	if (f && f->data) {
		m->file_bytes -= f->len <= m->file_bytes ? f->len : m->file_bytes;
		free(f->data);
		f->data = NULL;
	}
}

void mx_msg_free(matrix *m, mx_msg *msg)
{
	if (!msg)
		return;
	if (msg->file) {
		mx_file_drop_data(m, msg->file);
		free(msg->file);
	}
	free(msg);
}

void mx_queue_clear(mx_room *r)
{
	while (r->head) {
		mx_msg *n = r->head->next;
		mx_msg_free(r->m, r->head);
		r->head = n;
	}
	r->tail = NULL;
	r->nqueued = 0;
	free(r->batch);
	r->batch = NULL;
	r->batch_enc = 0;
	r->batch_lines = 0;
}

mx_member *mx_member_find(mx_room *r, const char *user)
{
	for (int i = 0; i < r->nmembers; i++)
		if (!strcmp(r->members[i].user, user))
			return &r->members[i];
	return NULL;
}

void mx_member_set(mx_room *r, const char *user, const char *name)
{
	mx_member *mb = mx_member_find(r, user);
	if (!mb) {
		if (r->nmembers >= MX_MEMBERS_MAX)
			return;
		mx_member *n = grow_room(r->members, sizeof *n, (size_t)r->nmembers, &r->capmembers, 8);
		if (!n)
			return;
		r->members = n;
		mb = &r->members[r->nmembers++];
		snprintf(mb->user, sizeof mb->user, "%s", user);
	}
	char clean[MX_NAME_MAX] = "";
	if (name)
		mx_copy_clean(clean, sizeof clean, name, 1);
	if (!clean[0]) { /* the localpart stands in for a missing name */
		const char *colon = strchr(user, ':');
		size_t n = colon ? (size_t)(colon - user - 1) : strlen(user + 1);
		if (n >= sizeof clean)
			n = sizeof clean - 1;
		memcpy(clean, user + 1, n);
		clean[n] = '\0';
		mx_copy_clean(mb->name, sizeof mb->name, clean, 1);
	} else {
		snprintf(mb->name, sizeof mb->name, "%s", clean);
	}
}

void mx_member_remove(mx_room *r, const char *user)
{
	mx_member *mb = mx_member_find(r, user);
	if (mb)
		*mb = r->members[--r->nmembers];
}

void mx_display_name(mx_room *r, const char *user, char *out, size_t len)
{
	mx_member *mb = r ? mx_member_find(r, user) : NULL;
	if (mb) {
		snprintf(out, len, "%s", mb->name);
		return;
	}
	const char *colon = strchr(user, ':');
	size_t n = colon ? (size_t)(colon - user - 1) : strlen(user + 1);
	if (n >= len)
		n = len - 1;
	memcpy(out, user + 1, n);
	out[n] = '\0';
}

/* ---- joining, leaving ---- */

void mx_join_room(matrix *m, const char *room, int via_invite)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	mx_path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/join/%s", esc);
	mx_req *q = mx_request(m, REQ_JOIN, "POST", path, strdup("{}"), MX_SEND_TIMEOUT_MS);
	if (q) {
		snprintf(q->room, sizeof q->room, "%s", room);
		q->join_via_invite = via_invite;
	}
}

void mx_leave_room(matrix *m, const char *room, const char *why)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	mx_path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/leave", esc);
	json_object *o = json_object_new_object();
	if (why && *why)
		json_object_object_add(o, "reason", json_object_new_string(why));
	mx_req *q = mx_request(m, REQ_LEAVE, "POST", path, mx_json_text(o), MX_SEND_TIMEOUT_MS);
	if (q)
		snprintf(q->room, sizeof q->room, "%s", room);
	mx_room *r = mx_room_find(m, room);
	if (r)
		r->gone = 1;
}

void mx_forget_room(matrix *m, const char *room)
{
	char esc[3 * ADAPTER_ID_MAX], path[4096];
	mx_path_escape(m, room, esc, sizeof esc);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/forget", esc);
	mx_req *q = mx_request(m, REQ_FORGET, "POST", path, strdup("{}"), MX_SEND_TIMEOUT_MS);
	if (q)
		snprintf(q->room, sizeof q->room, "%s", room);
}

/* The bot is out of a room (kicked, banned, left): tell the host, forget it. */
void mx_room_left(matrix *m, const char *room, const char *why)
{
	mx_room *r = mx_room_find(m, room);
	int was_dm = r && r->dm_user[0];
	if (r) {
		int told = r->ready_told;
		r->joined = r->ready_told = 0;
		r->gone = r->left_done = 1;
		mx_queue_clear(r);
		if (told && !was_dm && m->base.host.room_lost)
			m->base.host.room_lost(m->base.host.ctx, &m->base, room, why);
	}
	mx_forget_room(m, room);
	if (was_dm)
		mx_direct_save(m);
}

void mx_join_retry_fire(void *ctx)
{
	mx_room *r = ctx;
	r->retry_timer = 0;
	if (!r->gone && !r->joined && r->id[0]) {
		r->joining = 1;
		mx_join_room(r->m, r->id, r->join_invited);
	}
}
