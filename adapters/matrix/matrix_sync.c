/* matrix_sync.c: /sync long-polling and what its reply says: invites, members, messages, rooms joined and left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "matrix_internal.h"

/* ---- /sync ---- */

void mx_sync_now(void *ctx)
{
	matrix *m = ctx;
	m->sync_timer = 0;
	if (m->stopping || m->fatal || m->sync_req)
		return;
	char path[4096], fil[3 * MX_TOKEN_MAX], since[3 * MX_TOKEN_MAX];
	mx_path_escape(m, m->filter_id, fil, sizeof fil);
	long timeout = m->since[0] ? m->set.sync_timeout_ms : 0;
	int n = snprintf(path, sizeof path, "/_matrix/client/v3/sync?filter=%s&timeout=%ld", fil, timeout);
	if (m->since[0]) {
		mx_path_escape(m, m->since, since, sizeof since);
		/* Back after a restart: the full state once, so every room the bot
		 * is in is seen again (tables resume) with its members. */
		snprintf(path + n, sizeof path - (size_t)n, "&since=%s%s", since,
			 m->synced_once ? "" : "&full_state=true");
	}
	long extra = m->set.sync_timeout_ms / 2 > 2000 ? m->set.sync_timeout_ms / 2 : 2000;
	m->sync_req = mx_request(m, REQ_SYNC, "GET", path, NULL, timeout + extra);
	if (!m->sync_req)
		m->sync_timer = loop_timer(m->base.ev, mx_backoff_ms(m, m->sync_failures++), mx_sync_now, m);
}

static int invite_allowed(const matrix *m, const char *inviter)
{
	if (!m->set.ninvite_allow)
		return 1;
	const char *server = strchr(inviter, ':');
	for (int i = 0; i < m->set.ninvite_allow; i++) {
		const char *a = m->set.invite_allow[i];
		if (a[0] == '@' ? !strcmp(a, inviter) : (server && !strcasecmp(a, server + 1)))
			return 1;
	}
	return 0;
}

/* The "events" list of a sync section (a room's "timeline", "state" or
 * "invite_state", the body's "account_data"), and its length in *n: 0 when
 * either is missing. */
static json_object *section_events(json_object *o, const char *section, size_t *n)
{
	json_object *events = mx_jget(mx_jget(o, section, json_type_object), "events", json_type_array);
	*n = events ? json_object_array_length(events) : 0;
	return events;
}

static void handle_invite(matrix *m, const char *room_id, json_object *room)
{
	size_t n;
	json_object *events = section_events(room, "invite_state", &n);
	const char *inviter = NULL;
	int direct = 0, encrypted = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		const char *type = mx_jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.encryption"))
			encrypted = 1;
		const char *sk = mx_jstr(e, "state_key");
		if (!strcmp(type, "m.room.member") && sk && !strcmp(sk, m->set.user_id)) {
			json_object *c = mx_jget(e, "content", json_type_object);
			const char *ms = mx_jstr(c, "membership");
			if (ms && !strcmp(ms, "invite")) {
				inviter = mx_jstr(e, "sender");
				json_object *d = mx_jget(c, "is_direct", json_type_boolean);
				direct = d && json_object_get_boolean(d);
			}
		}
	}
	mx_room *r = mx_room_find(m, room_id);
	if (r && (r->joining || r->joined) && !r->gone)
		return; /* already on it */
	if (!mx_is_user_id(inviter)) {
		LOG(m, "warn", "an invitation to %s without a valid inviter; ignored", room_id);
		return;
	}
	if (!m->set.accept_invites || !invite_allowed(m, inviter)) {
		LOG(m, "info", "declining the invitation to %s from %s (%s)", room_id, inviter,
		    m->set.accept_invites ? "not on invite_allow" : "accept_invites is off");
		mx_leave_room(m, room_id, "");
		r = mx_room_find(m, room_id);
		if (!r && (r = mx_room_add(m, room_id)))
			r->gone = 1;
		return;
	}
	if (r && r->gone) {
		/* Invited back into a room left before: a fresh start. */
		mx_queue_clear(r);
		r->gone = r->encrypted = r->leave_when_sent = 0;
		r->nmembers = 0;
	}
	if (!r && !(r = mx_room_add(m, room_id)))
		return;
	r->joining = 1;
	r->encrypted = encrypted;
	if (direct && !mx_dm_find(m, inviter))
		snprintf(r->dm_user, sizeof r->dm_user, "%s", inviter);
	LOG(m, "info", "invited to %s by %s%s; joining", room_id, inviter, direct ? " (a direct room)" : "");
	mx_join_room(m, room_id, 1);
}

static void say_encrypted(matrix *m, mx_room *r)
{
	if (r->leave_when_sent || r->gone)
		return;
	LOG(m, "info", "%s is encrypted, and encryption is off in the bot's configuration; saying so and leaving",
	    r->id);
	char line[2048];
	mx_enqueue(m, r, mx_words(m, r, ADAPTER_W_ENCRYPTED_OFF, "", "This room is encrypted, and encryption is turned "
				  "off in my configuration, so I cannot read it and I am leaving. Ask whoever runs me to "
				  "turn it on, or invite me to a room without encryption to play.", line, sizeof line),
		   ADAPTER_NOTICE);
	r->leave_when_sent = 1;
	mx_send_next(m, r);
}

/* m.room.encryption: the room is encrypted from now on (it cannot be
 * turned off); its settings go to the crypto. */
static void encryption_event(matrix *m, mx_room *r, json_object *e)
{
	r->encrypted = 1;
	mx_e2ee_room_encryption(m, r, e);
}

/* One member event: track names, report joins and leaves, notice the bot's own. */
static void member_event(matrix *m, mx_room *r, json_object *e, int live)
{
	const char *who = mx_jstr(e, "state_key");
	json_object *c = mx_jget(e, "content", json_type_object);
	const char *ms = mx_jstr(c, "membership");
	if (!mx_is_user_id(who) || !ms)
		return;
	if (!strcmp(who, m->set.user_id))
		return; /* the bot's own membership comes from the sync sections */
	if (!strcmp(ms, "join")) {
		int was = mx_member_find(r, who) != NULL;
		mx_member_set(r, who, mx_jstr(c, "displayname"));
		if (r->dm_user[0] && !strcmp(r->dm_user, who))
			r->partner_joined = 1;
		if (live && !was && !r->dm_user[0] && r->ready_told && m->base.host.joined) {
			char name[MX_NAME_MAX];
			mx_display_name(r, who, name, sizeof name);
			m->base.host.joined(m->base.host.ctx, &m->base, r->id, who, name);
		}
	} else if (!strcmp(ms, "leave") || !strcmp(ms, "ban")) {
		int was = mx_member_find(r, who) != NULL;
		mx_member_remove(r, who);
		if (was)
			mx_e2ee_member_left(m, r, who);
		if (r->dm_user[0] && !strcmp(r->dm_user, who)) {
			r->partner_joined = 0;
			if (live && r->joined) {
				/* The player left their direct room: leave it too; a new one is made when needed. */
				LOG(m, "info", "%s left their direct room %s; leaving it", who, r->id);
				char id[ADAPTER_ID_MAX];
				snprintf(id, sizeof id, "%s", r->id);
				mx_leave_room(m, id, "");
				mx_direct_save(m);
			}
		}
		if (live && was && !r->dm_user[0] && r->ready_told && m->base.host.left)
			m->base.host.left(m->base.host.ctx, &m->base, r->id, who, strcmp(ms, "ban") ? "left" : "banned");
	} else if (!strcmp(ms, "invite")) {
		/* nothing: they are not in yet */
	}
}

/* A table room a person can name in a private command: one the bot is in
 * that is not a direct room. */
static int table_room(const mx_room *r)
{
	return r->id[0] && r->joined && !r->gone && !r->dm_user[0];
}

/* The room a private command starts with, named as people know it: its
 * short number ("2 hand"), its alias or its name ("Card room hand", "Card
 * room: hand"), case aside, the longest name that fits. Such a start is
 * handed to the host as the room's id, which the host knows; other text
 * is handed on as it is. Returns the text to hand on. */
const char *mx_table_named(matrix *m, const char *text, char *out, size_t len)
{
	const mx_room *best = NULL;
	size_t best_len = 0;
	for (mx_room *r = m->rooms; r; r = r->next) {
		if (!table_room(r))
			continue;
		char num[16], label[32];
		const char *names[4] = { r->alias, r->name, num, label };
		snprintf(num, sizeof num, "%d", r->num);
		snprintf(label, sizeof label, "room %d", r->num);
		for (int i = 0; i < 4; i++) {
			size_t n = strlen(names[i]);
			if (!n || (i >= 2 && !r->num) || strncasecmp(text, names[i], n) != 0)
				continue;
			size_t k = n;
			if (text[k] == ':')
				k++;
			if (text[k] != ' ' || k <= best_len)
				continue;
			best = r, best_len = k;
		}
	}
	if (!best)
		return text;
	const char *rest = text + best_len;
	while (*rest == ' ')
		rest++;
	if (snprintf(out, len, "%s %s", best->id, rest) >= (int)len)
		return text;
	return out;
}

/* A message in a room (decrypted already, in an encrypted room): handed to the host. */
void mx_message_event(matrix *m, mx_room *r, json_object *e)
{
	const char *sender = mx_jstr(e, "sender");
	json_object *c = mx_jget(e, "content", json_type_object);
	const char *type = mx_jstr(c, "msgtype"), *body = mx_jstr(c, "body");
	if (!mx_is_user_id(sender) || !strcmp(sender, m->set.user_id) || !type || !body)
		return;
	if (!strcmp(type, "m.key.verification.request")) {
		mx_verify_room_event(m, r, e); /* someone verifies the bot in a room */
		return;
	}
	int flags = 0;
	if (!strcmp(type, "m.notice"))
		flags = ADAPTER_NOTICE; /* reported as such: the host never answers one */
	else if (strcmp(type, "m.text") != 0)
		return; /* emotes, images, files: nothing to act on */
	char text[ADAPTER_TEXT_MAX], name[MX_NAME_MAX];
	mx_copy_clean(text, sizeof text, body, 0);
	/* Newlines and other controls become spaces: one command per message. */
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	mx_display_name(r, sender, name, sizeof name);
	if (!m->base.host.message)
		return;
	/* What the host says back while it handles this is a reply to the
	 * person who just acted: the most urgent of all sends. */
	m->cb_user = sender;
	if (r->dm_user[0]) {
		if (strcmp(r->dm_user, sender) != 0) {
			m->cb_user = NULL;
			return; /* only the player speaks for themself in their direct room */
		}
		m->cb_room = NULL;
		char named[ADAPTER_TEXT_MAX];
		m->base.host.message(m->base.host.ctx, &m->base, NULL, sender, name,
				     mx_table_named(m, text, named, sizeof named), flags);
		m->cb_user = NULL;
		return;
	}
	m->cb_room = r->id;
	m->base.host.message(m->base.host.ctx, &m->base, r->id, sender, name, text, flags);
	m->cb_user = m->cb_room = NULL;
}

static void joined_room(matrix *m, const char *room_id, json_object *room, int live)
{
	mx_room *r = mx_room_get(m, room_id);
	if (!r)
		return;
	if (r->gone)
		return; /* being left: ignore what trails in */
	int fresh = !r->joined;
	r->joined = 1;
	r->joining = 0;
	size_t n;
	json_object *state = section_events(room, "state", &n);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(state, i);
		const char *type = mx_jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.member"))
			member_event(m, r, e, 0);
		else if (!strcmp(type, "m.room.encryption"))
			encryption_event(m, r, e);
		else if (!strcmp(type, "m.room.canonical_alias"))
			mx_alias_event(r, e);
		else if (!strcmp(type, "m.room.name"))
			mx_name_event(r, e);
	}
	if (fresh && !r->dm_user[0] && (!r->encrypted || m->crypto) && !r->ready_told) {
		r->ready_told = 1;
		LOG(m, "info", "in room %s", room_id);
		if (m->base.host.room_ready)
			m->base.host.room_ready(m->base.host.ctx, &m->base, room_id);
	}
	json_object *tl = section_events(room, "timeline", &n);
	/* A room the bot has just joined comes with some history: only what
	 * follows the bot's own join is news. (A room it was in before a
	 * restart has no such join in its timeline: all of it is news.) */
	size_t first_news = 0;
	if (fresh && live)
		for (size_t i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(tl, i);
			const char *type = mx_jstr(e, "type"), *sk = mx_jstr(e, "state_key");
			const char *ms = mx_jstr(mx_jget(e, "content", json_type_object), "membership");
			if (type && !strcmp(type, "m.room.member") && sk && !strcmp(sk, m->set.user_id) && ms &&
			    !strcmp(ms, "join"))
				first_news = i + 1;
		}
	for (size_t i = 0; i < n && !r->gone; i++) {
		json_object *e = json_object_array_get_idx(tl, i);
		const char *type = mx_jstr(e, "type");
		if (!type)
			continue;
		if (!strcmp(type, "m.room.member") && mx_jstr(e, "state_key"))
			member_event(m, r, e, live);
		else if (!strcmp(type, "m.room.encryption") && mx_jstr(e, "state_key"))
			encryption_event(m, r, e);
		else if (!strcmp(type, "m.room.canonical_alias"))
			mx_alias_event(r, e);
		else if (!strcmp(type, "m.room.name") && mx_jstr(e, "state_key"))
			mx_name_event(r, e);
		else if (!strcmp(type, "m.room.message") && live && i >= first_news && (!r->encrypted || m->crypto))
			mx_message_event(m, r, e);
		else if (!strcmp(type, "m.room.encrypted") && live && i >= first_news && m->crypto)
			mx_e2ee_event(m, r, e);
		else if (!strncmp(type, "m.key.verification.", 19) && live && i >= first_news)
			mx_verify_room_event(m, r, e);
	}
	if (r->encrypted && !m->crypto)
		say_encrypted(m, r);
	if (fresh)
		mx_send_next(m, r);
}

/* A room's canonical alias ("#name:server"): kept when it looks like one
 * (printable ASCII, a localpart and a server, bounded), cleared when the
 * event takes it away. */
void mx_alias_event(mx_room *r, json_object *e)
{
	const char *sk = mx_jstr(e, "state_key");
	if (!sk || *sk)
		return;
	const char *a = mx_jstr(mx_jget(e, "content", json_type_object), "alias");
	size_t n = a ? strlen(a) : 0;
	int ok = n > 3 && n < sizeof r->alias && a[0] == '#' && strchr(a + 2, ':') && a[n - 1] != ':';
	for (size_t i = 0; ok && i < n; i++)
		ok = a[i] > 0x20 && a[i] < 0x7f;
	if (ok)
		memcpy(r->alias, a, n + 1);
	else
		r->alias[0] = '\0';
}

/* A room's name (m.room.name), cleaned of control characters and cut to
 * MX_LABEL_MAX; a name that starts like an id or an alias is not kept (a
 * label must not pass for another room). */
void mx_name_event(mx_room *r, json_object *e)
{
	const char *sk = mx_jstr(e, "state_key");
	if (!sk || *sk)
		return;
	const char *n = mx_jstr(mx_jget(e, "content", json_type_object), "name");
	r->name[0] = '\0';
	if (n)
		mx_copy_clean(r->name, sizeof r->name, n, 1);
	size_t k = strlen(r->name);
	while (k && r->name[k - 1] == ' ')
		r->name[--k] = '\0';
	if (r->name[0] == '!' || r->name[0] == '#' || r->name[0] == '@' || r->name[0] == ' ' || r->name[0] == '[')
		r->name[0] = '\0';
}

static void left_room(matrix *m, const char *room_id, json_object *room)
{
	mx_room *r = mx_room_find(m, room_id);
	if (!r || (!r->joined && !r->gone && !r->joining))
		return;
	if (!r->joined && r->gone)
		return; /* our own leave, already handled */
	char why[512] = "left";
	size_t n;
	json_object *tl = section_events(room, "timeline", &n);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(tl, i);
		const char *type = mx_jstr(e, "type"), *sk = mx_jstr(e, "state_key"), *sender = mx_jstr(e, "sender");
		if (!type || strcmp(type, "m.room.member") || !sk || strcmp(sk, m->set.user_id))
			continue;
		json_object *c = mx_jget(e, "content", json_type_object);
		const char *ms = mx_jstr(c, "membership"), *reason = mx_jstr(c, "reason");
		if (sender && strcmp(sender, m->set.user_id)) {
			char raw[512];
			snprintf(raw, sizeof raw, "%s by %s%s%s", ms && !strcmp(ms, "ban") ? "banned" : "kicked", sender,
				 reason ? ": " : "", reason ? reason : "");
			mx_copy_clean(why, sizeof why, raw, 1);
		}
	}
	LOG(m, "info", "out of room %s (%s); forgetting it", room_id, why);
	mx_room_left(m, room_id, why);
}

/* Frees the records of rooms the bot has left for good (nothing in flight,
 * no timer holding them), so a long run does not pile them up. */
static void prune_rooms(matrix *m)
{
	for (mx_room **p = &m->rooms; *p;) {
		mx_room *r = *p;
		if (r->gone && r->left_done && !r->sending && !r->retry_timer && !r->ask_timer && !r->dm_creating &&
		    !r->joining && !r->joined) {
			*p = r->next;
			mx_queue_clear(r);
			free(r->members);
			free(r);
		} else {
			p = &r->next;
		}
	}
}

void mx_handle_sync(matrix *m, json_object *body)
{
	const char *next = mx_jstr(body, "next_batch");
	if (!next || strlen(next) >= sizeof m->since || !mx_text_ok(next)) {
		LOG(m, "warn", "a sync reply without a usable next_batch; ignored");
		m->sync_timer = loop_timer(m->base.ev, mx_backoff_ms(m, m->sync_failures++), mx_sync_now, m);
		return;
	}
	int live = m->since[0] != 0; /* the first sync only learns the rooms: history is not replayed */
	size_t n;
	json_object *ad = section_events(body, "account_data", &n);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(ad, i);
		const char *type = mx_jstr(e, "type");
		if (type && !strcmp(type, "m.direct"))
			mx_direct_load(m, mx_jget(e, "content", json_type_object), 1);
	}
	/* Room keys first: a message in this same reply may need one. */
	mx_e2ee_sync(m, body);
	json_object *rooms = mx_jget(body, "rooms", json_type_object);
	json_object *join = mx_jget(rooms, "join", json_type_object);
	if (join) {
		json_object_object_foreach(join, id, room)
		{
			if (mx_is_room_id(id) && json_object_is_type(room, json_type_object))
				joined_room(m, id, room, live);
		}
	}
	json_object *inv = mx_jget(rooms, "invite", json_type_object);
	if (inv) {
		json_object_object_foreach(inv, id, room)
		{
			if (mx_is_room_id(id) && json_object_is_type(room, json_type_object))
				handle_invite(m, id, room);
		}
	}
	json_object *leave = mx_jget(rooms, "leave", json_type_object);
	if (leave) {
		json_object_object_foreach(leave, id, room)
		{
			if (mx_is_room_id(id) && json_object_is_type(room, json_type_object))
				left_room(m, id, room);
		}
	}
	snprintf(m->since, sizeof m->since, "%s", next);
	mx_state_set(m, "since", m->since);
	m->synced_once = 1;
	if (!m->joined_configured) {
		m->joined_configured = 1;
		for (int i = 0; i < m->set.nrooms; i++)
			mx_join_room(m, m->set.rooms[i], 0);
	}
	m->sync_failures = 0;
	prune_rooms(m);
	mx_link_state(m, 1, "");
	mx_sync_now(m);
}
