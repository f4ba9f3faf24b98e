/* irc_events.c: libircclient's events (registration, numerics, joins, parts, messages) turned into adapter_host calls. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "irc_internal.h"

/* ---- libircclient events ---- */

static irc *ctx_of(irc_session_t *s)
{
	return irc_get_ctx(s);
}

void irc_ev_connect(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	(void)origin;
	irc *c = ctx_of(s);
	if (c->registered)
		return;
	c->registered = 1;
	if (count > 0 && params[0] && ircline_is_word(params[0]))
		irc_set_self(c, params[0]);
	c->link_up = 1;
	c->link_since = loop_now();
	c->tokens = c->set.pace_burst;
	c->tokens_at = c->link_since;
	LOG(c, "info", "registered as %s", c->self);
	/* Priority lines go to the front, ahead of what waited while offline:
	 * identify first, then the joins, so messages follow their JOIN. */
	irc_join_wanted(c, 1);
	if (c->set.nickserv_password[0]) {
		char line[IRC_FIELD_MAX * 3];
		if (irc_is_self(c, c->set.nick))
			snprintf(line, sizeof line, "PRIVMSG NickServ :IDENTIFY %s", c->set.nickserv_password);
		else  /* wearing another nick: name the account */
			snprintf(line, sizeof line, "PRIVMSG NickServ :IDENTIFY %s %s", c->set.nick,
				 c->set.nickserv_password);
		irc_queue_line(c, line, 1);
	}
	if (!irc_is_self(c, c->set.nick) && !c->t_regain)
		c->t_regain = loop_timer(c->base.ev, IRC_REGAIN_MS, irc_on_regain, c);
	if (c->base.host.link)
		c->base.host.link(c->base.host.ctx, &c->base, 1, "");
	irc_flush(c);
}

void irc_ev_numeric(irc_session_t *s, unsigned code, const char *origin, const char **params, unsigned count)
{
	(void)origin;
	irc *c = ctx_of(s);
	const char *arg = count > 1 && params[1] ? params[1] : "";
	const char *text = count > 0 && params[count - 1] ? params[count - 1] : "";
	switch (code) {
	case 432: case 433: case 436:
		if (!c->registered)
			irc_next_nick(c);
		break;
	case 437:  /* nick or channel temporarily unavailable */
		if (irc_is_channel(c, arg))
			irc_join_refused(c, arg, (int)code, text, 1);
		else if (!c->registered)
			irc_next_nick(c);
		break;
	case 405: case 471: case 473: case 477:
		irc_join_refused(c, arg, (int)code, text, 1);
		break;
	case 403: case 474: case 475:
		irc_join_refused(c, arg, (int)code, text, 0);
		break;
	case 404: {
		char t[IRC_FIELD_MAX];
		irc_clean(arg, t, sizeof t);
		LOG(c, "warn", "cannot send to %s", t);
		break;
	}
	case 465: {
		char t[IRC_WHY_MAX];
		irc_clean(text, t, sizeof t);
		LOG(c, "error", "banned from this server: %s", t);
		break;
	}
	case 353: {  /* NAMES: me type channel :[statuses]nick[!user@host] ..., the statuses from 005 PREFIX */
		if (count < 4)
			break;
		irc_chan *ch = irc_chan_find(c, params[2]);
		if (!ch || !ch->joined)
			break;
		/* Who is there already: presence only; accounts come from WHOX. */
		char list[IRC_LINE_NAMES_MAX];
		snprintf(list, sizeof list, "%s", params[3]);
		for (char *save = NULL, *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			w += strspn(w, irc_relay_isupport(c->relay)->prefixes);
			w[strcspn(w, "!")] = '\0';
			if (ircline_is_word(w))
				irc_person_seen(c, w, ch, 0, "");
		}
		break;
	}
	case 354: {  /* WHOX: me token channel nick account ("0": none) */
		char account[IRC_ACCOUNT_MAX];
		if (count < 5 || strcmp(params[1], IRC_WHOX_TOKEN) || !ircline_is_word(params[3]))
			break;
		irc_chan *ch = irc_chan_find(c, params[2]);
		if (!ch || !ch->joined)
			break;
		irc_account_arg(c, params[4], "0", account);
		irc_person_seen(c, params[3], ch, 1, account);
		break;
	}
	case 900: {  /* logged in: me nick!user@host account :text */
		char shown[IRC_ACCOUNT_MAX + 8];
		if (count >= 3 && irc_account_arg(c, params[2], NULL, c->self_account)) {
			irc_clean(c->self_account, shown, sizeof shown);
			LOG(c, "info", "the bot is logged in to the account %s", shown);
		}
		break;
	}
	case 901:
		c->self_account[0] = '\0';
		LOG(c, "info", "the bot is logged out of its account");
		break;
	default:
		break;
	}
}

void irc_ev_nick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1 || !ircline_is_word(params[0]))
		return;
	char old[IRC_FIELD_MAX], fresh[ADAPTER_ID_MAX], oldc[ADAPTER_ID_MAX];
	ircline_nick(origin, old, sizeof old);
	if (irc_is_self(c, old)) {
		irc_set_self(c, params[0]);
		LOG(c, "info", "now known as %s", c->self);
		return;
	}
	if (!irc_cmp(c, old, c->set.nick))
		irc_regain_nick(c);
	if (!irc_nick_ok(old) || !irc_nick_ok(params[0])) {
		irc_person *gone = irc_person_find(c, old);
		if (gone)  /* not followed: nobody must inherit the account with the old nick */
			irc_person_drop(gone);
		return;
	}
	/* Whoever had the new nick before is gone from it. */
	irc_person *stale = irc_person_find(c, params[0]);
	irc_person *p = irc_person_find(c, old);
	if (stale && stale != p)
		irc_person_drop(stale);
	irc_identity(p ? p->account : "", old, oldc, sizeof oldc);
	irc_clean(params[0], fresh, sizeof fresh);
	if (p) {
		if (strlen(params[0]) < sizeof p->nick)
			irc_set_str(p->nick, sizeof p->nick, params[0]);
		else
			irc_person_drop(p);  /* too long to track: the new nick speaks for itself */
	}
	char now[ADAPTER_ID_MAX];
	irc_identity_of(c, params[0], now, sizeof now);
	/* Logged in: the identity stays and only the display name changes. */
	if (c->base.host.renamed)
		c->base.host.renamed(c->base.host.ctx, &c->base, oldc, now, fresh);
}

/* Someone else left room (ch), or every room (NULL, NULL: a quit): the
 * host hears of it when the nick was one it knew. */
static void other_left(irc *c, const char *nick, irc_chan *ch, const char *room, const char *why)
{
	char user[ADAPTER_ID_MAX];
	if (!irc_nick_ok(nick))
		return;
	if (irc_person_left(c, nick, ch, user, sizeof user) && c->base.host.left)
		c->base.host.left(c->base.host.ctx, &c->base, room, user, why);
}

/* The bot is out of room (ch, if known): by its own part, or kicked, when
 * it goes back if it still wants the channel. */
static void self_left(irc *c, irc_chan *ch, const char *room, const char *why, int kicked)
{
	if (ch) {
		irc_people_forget_channel(c, ch);
		ch->joined = 0;
		if (!kicked)
			ch->wanted = 0;
		else if (ch->wanted)
			irc_schedule_rejoin(c, ch);
	}
	if (c->base.host.room_lost)
		c->base.host.room_lost(c->base.host.ctx, &c->base, room, why);
}

void irc_ev_quit(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin)
		return;
	char nick[IRC_FIELD_MAX], why[IRC_WHY_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (irc_is_self(c, nick))
		return;
	if (!irc_cmp(c, nick, c->set.nick))
		irc_regain_nick(c);
	irc_clean(count > 0 ? params[0] : "", why, sizeof why);
	other_left(c, nick, NULL, NULL, why);
}

/* The channel's name as the host knows it: the configured spelling if any. */
static void room_name(irc *c, const char *server_name, char *out, size_t cap)
{
	irc_chan *ch = irc_chan_find(c, server_name);
	irc_clean(ch ? ch->name : server_name, out, cap);
}

void irc_ev_join(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1 || !ircline_is_word(params[0]))
		return;
	char nick[IRC_FIELD_MAX], room[ADAPTER_ID_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (irc_is_self(c, nick)) {
		const char *uh = strchr(origin, '!');
		if (uh)
			snprintf(c->userhost, sizeof c->userhost, "%s", uh + 1);
		irc_chan *ch = irc_chan_find(c, params[0]);
		if (!ch)   /* joined without asking (a forced join): follow it */
			ch = irc_chan_add(c, params[0], "");
		if (!ch)
			return;
		ch->wanted = 1;
		ch->joined = 1;
		ch->tries = 0;
		ch->ever_ready = 1;
		loop_cancel(c->base.ev, ch->t_rejoin);
		ch->t_rejoin = 0;
		irc_clean(ch->name, room, sizeof room);
		LOG(c, "info", "joined %s", room);
		irc_whox_query(c, ch);
		if (c->base.host.room_ready)
			c->base.host.room_ready(c->base.host.ctx, &c->base, room);
		return;
	}
	if (!irc_nick_ok(nick))
		return;
	/* extended-join: "JOIN #chan ACCOUNT :realname", "*" for none. */
	char account[IRC_ACCOUNT_MAX] = "";
	int learned = (irc_relay_caps(c->relay) & IRC_RELAY_CAP_EXTENDED_JOIN) && count >= 2;
	if (learned)
		irc_account_arg(c, params[1], NULL, account);
	irc_chan *ch = irc_chan_find(c, params[0]);
	if (ch && ch->joined)
		irc_person_seen(c, nick, ch, learned, account);
	char user[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX];
	irc_identity_of(c, nick, user, sizeof user);
	irc_clean(nick, name, sizeof name);
	room_name(c, params[0], room, sizeof room);
	if (c->base.host.joined)
		c->base.host.joined(c->base.host.ctx, &c->base, room, user, name);
}

void irc_ev_part(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1)
		return;
	char nick[IRC_FIELD_MAX], room[ADAPTER_ID_MAX], why[IRC_WHY_MAX];
	ircline_nick(origin, nick, sizeof nick);
	room_name(c, params[0], room, sizeof room);
	irc_clean(count > 1 ? params[1] : "", why, sizeof why);
	irc_chan *ch = irc_chan_find(c, params[0]);
	if (irc_is_self(c, nick))
		self_left(c, ch, room, why, 0);
	else
		other_left(c, nick, ch, room, why);
}

void irc_ev_kick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	(void)origin;
	irc *c = ctx_of(s);
	if (count < 2)
		return;
	char room[ADAPTER_ID_MAX], why[IRC_WHY_MAX];
	room_name(c, params[0], room, sizeof room);
	irc_clean(count > 2 ? params[2] : "", why, sizeof why);
	irc_chan *ch = irc_chan_find(c, params[0]);
	if (irc_is_self(c, params[1])) {
		LOG(c, "warn", "kicked from %s (%s)", room, why);
		self_left(c, ch, room, why, 1);
	} else {
		other_left(c, params[1], ch, room, why);
	}
}

void irc_ev_invite(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (count < 2 || !irc_is_channel(c, params[1]) || !ircline_is_word(params[1]))
		return;
	char who[IRC_FIELD_MAX] = "?", room[ADAPTER_ID_MAX];
	if (origin)
		ircline_nick(origin, who, sizeof who);
	irc_clean(params[1], room, sizeof room);
	if (!c->set.accept_invites) {
		LOG(c, "info", "ignoring an invitation to %s", room);
		return;
	}
	irc_chan *ch = irc_chan_add(c, params[1], NULL);
	if (!ch || ch->joined)
		return;
	LOG(c, "info", "invited to %s; joining", room);
	ch->wanted = 1;
	ch->tries = 0;
	loop_cancel(c->base.ev, ch->t_rejoin);
	ch->t_rejoin = 0;
	irc_join_one(c, ch);
}

static void remember_origin(irc *c, const char *nick, const char *origin)
{
	int slot = -1;
	for (int i = 0; i < IRC_SEEN_MAX; i++)
		if (!irc_cmp(c, c->seen[i].nick, nick))
			slot = i;
	if (slot < 0) {
		slot = c->seen_next;
		c->seen_next = (c->seen_next + 1) % IRC_SEEN_MAX;
	}
	snprintf(c->seen[slot].nick, sizeof c->seen[slot].nick, "%s", nick);
	irc_clean(origin, c->seen[slot].origin, sizeof c->seen[slot].origin);
}

/* PRIVMSG and NOTICE, in channels and in private, all come here. */
static void deliver(irc *c, const char *origin, const char *target, const char *text, int notice)
{
	/* Server notices (no nick!user@host) are not from people. */
	if (!origin || !strchr(origin, '!') || !target || !text)
		return;
	char nick[IRC_FIELD_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (irc_is_self(c, nick) || !irc_nick_ok(nick)) {
		c->tag_nick[0] = '\0';
		return;
	}
	char user[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX], room[ADAPTER_ID_MAX], body[ADAPTER_TEXT_MAX + 1];
	/* The message's own account tag, when it had one, else what is known. */
	if (c->tag_nick[0] && !irc_cmp(c, c->tag_nick, nick))
		irc_identity(c->tag_account, nick, user, sizeof user);
	else
		irc_identity_of(c, nick, user, sizeof user);
	irc_clean(nick, name, sizeof name);
	remember_origin(c, name, origin);
	irc_clean(text, body, sizeof body);
	int in_room = irc_is_channel(c, target);
	if (in_room) {
		room_name(c, target, room, sizeof room);
		irc_chan *ch = irc_chan_find(c, target);
		if (ch && ch->joined)  /* speaking there: they are there */
			irc_person_seen(c, nick, ch, 0, "");
	}
	irc_set_str(c->cur_nick, sizeof c->cur_nick, nick);
	irc_set_str(c->cur_user, sizeof c->cur_user, user);
	if (c->base.host.message)
		c->base.host.message(c->base.host.ctx, &c->base, in_room ? room : NULL, user, name, body,
				     notice ? ADAPTER_NOTICE : 0);
	c->tag_nick[0] = c->cur_nick[0] = c->cur_user[0] = '\0';
}

/* ACCOUNT from the server (account-notify: "ACCOUNT NAME", "*" when logged
 * out) or from the relay (a message's account tag: "ACCOUNT NAME :tag"). */
static void ev_account(irc *c, const char *origin, const char **params, unsigned count)
{
	char nick[IRC_FIELD_MAX], account[IRC_ACCOUNT_MAX];
	if (!origin || !strchr(origin, '!') || count < 1 || !params[0])
		return;
	ircline_nick(origin, nick, sizeof nick);
	if (!irc_nick_ok(nick) || irc_is_self(c, nick))
		return;
	irc_account_arg(c, params[0], NULL, account);
	if (count >= 2) {
		/* A tag speaks for the message after it. It updates people the
		 * bot tracks (it saw them all along), but creates nobody: a nick
		 * seen only in private may change hands unseen. */
		irc_set_str(c->tag_nick, sizeof c->tag_nick, nick);
		irc_set_str(c->tag_account, sizeof c->tag_account, account);
		irc_person *p = irc_person_find(c, nick);
		if (p)
			irc_account_changed(c, p, account);
		return;
	}
	irc_person_seen(c, nick, NULL, 1, account);
}

void irc_ev_unknown(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	if (event && !strcmp(event, "ACCOUNT"))
		ev_account(ctx_of(s), origin, params, count);
}

void irc_ev_message(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	if (count < 2 || !params[0] || !params[1])
		return;
	/* Any other CTCP (a \x01 with no closing one escapes libircclient) is dropped. */
	if (params[1][0] == '\x01')
		return;
	/* libircclient names notices "NOTICE" and "CHANNEL_NOTICE". */
	deliver(ctx_of(s), origin, params[0], params[1], event && strstr(event, "NOTICE") != NULL);
}

void irc_ev_action(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	if (count < 2 || !params[0] || !params[1])
		return;
	/* Passed on as sent: the host may show or ignore "/me" lines. */
	char text[IRCLINE_MAX + 16];
	snprintf(text, sizeof text, "\x01" "ACTION %s\x01", params[1]);
	deliver(ctx_of(s), origin, params[0], text, 0);
}

void irc_ev_ctcp_request(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	c->tag_nick[0] = '\0';
	if (!origin || count < 1 || strcmp(params[0], "VERSION"))
		return;
	char nick[IRC_FIELD_MAX], line[IRC_FIELD_MAX + 64], user[ADAPTER_ID_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (!ircline_is_word(nick) || !irc_nick_ok(nick) || irc_is_self(c, nick))
		return;
	/* The answer is the person's request like any command: counted
	 * against them by the host, queued as theirs, said once while waiting. */
	irc_identity_of(c, nick, user, sizeof user);
	if (c->base.host.allow && !c->base.host.allow(c->base.host.ctx, &c->base, user))
		return;
	snprintf(line, sizeof line, "NOTICE %s :\x01VERSION %s\x01", nick, IRC_VERSION_REPLY);
	sendq_tag tag = { .cause = user, .key = "\x01VERSION", .answer = 1 };
	irc_queued(c, sendq_push(c->q, user, 0, &tag, line, loop_now()));
	irc_flush(c);
}

void irc_ev_ignore(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)s;
	(void)event;
	(void)origin;
	(void)params;
	(void)count;
}
