/* irc.c: the IRC adapter: libircclient driven by the bot's loop, behind a local relay for TLS and SASL.
 *
 * One connection at a time: a relay (irc_relay.c) reaches the server and
 * offers libircclient a local plain link; libircclient registers and parses;
 * irc_events.c turns its events into adapter_host calls, and irc_queue.c
 * paces what the bot says with a token bucket, taking lines from a fair
 * queue (sendq.h) where they wait by room and by person, so nobody's
 * requests hold up others. This file holds the connection, joining, the
 * nick and the adapter ops; irc_internal.h the shared state. Anything that
 * ends a connection only marks it dead; a zero-delay timer tears it down
 * outside every callback and schedules the reconnect (GUIDE: never free
 * inside a callback).
 *
 * Identity (adapter.h): a person logged in to a services account is
 * reported to the host as "account:NAME" (no nick can contain ':', so it
 * never collides with a nick), anyone else by their nick. Accounts are
 * learned from extended JOIN, WHOX replies (sent after each join when the
 * server offers WHOX), account-notify's ACCOUNT lines, and the account tag
 * on messages (which the relay turns into ACCOUNT lines; irc_relay.h). The
 * people seen in the bot's channels are tracked (irc_people.c) with their
 * account and channels, and forgotten when they share none with the bot
 * any more, so
 * a nick is never taken for an account by someone who inherits it unseen.
 * A login or logout changes the identity: the host hears `renamed` (old
 * identity, new one, nick), and a seat follows. A logged-in person's nick
 * change keeps the identity and changes only the display name.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <libircclient.h>
#include <openssl/rand.h>

#include "casemap.h"
#include "irc_internal.h"
#include "utf8.h"

static void mark_dead(irc *c, const char *why);

/* ---- settings ---- */

void irc_settings_default(irc_settings *s)
{
	memset(s, 0, sizeof *s);
	s->port = 6667;
	s->tls_verify = 1;
	snprintf(s->nick, sizeof s->nick, "cardbot");
	snprintf(s->username, sizeof s->username, "cardbot");
	snprintf(s->realname, sizeof s->realname, "cardbot card games");
	s->private_notice = 0;
	s->pace_burst = 4;
	s->pace_per_second = 1;
	s->reconnect_min_ms = 2000;
	s->reconnect_max_ms = 300000;
	s->dcc_timeout_ms = 60000;
}

/* Reads a SHA-256 in hex, colons or spaces allowed between digits. */
static int parse_pin(const char *s, unsigned char out[IRC_RELAY_PIN_LEN])
{
	size_t n = 0;
	int half = -1;
	for (; *s; s++) {
		int v;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else if (*s == ':' || *s == ' ')
			continue;
		else
			return -1;
		if (half < 0) {
			half = v;
			continue;
		}
		if (n == IRC_RELAY_PIN_LEN)
			return -1;
		out[n++] = (unsigned char)(half << 4 | v);
		half = -1;
	}
	return n == IRC_RELAY_PIN_LEN && half < 0 ? 0 : -1;
}

/* ---- small helpers ---- */

static uint32_t random_u32(void)
{
	uint32_t v;
	if (RAND_bytes((unsigned char *)&v, sizeof v) != 1)
		v = (uint32_t)loop_now() * 2654435761u;
	return v;
}

/* min * 2^tries, capped at max, then somewhere in its upper half, so that
 * bots cut off together do not all come back in the same second. */
static long backoff_ms(const irc *c, int tries)
{
	long lo = c->set.reconnect_min_ms, hi = c->set.reconnect_max_ms;
	long d = lo;
	for (int i = 0; i < tries && d < hi; i++)
		d *= 2;
	if (d > hi)
		d = hi;
	return d / 2 + (long)(random_u32() % (uint32_t)(d - d / 2 + 1));
}

/* Copies src into dst (cap bytes), cut when longer: callers check lengths first. */
void irc_set_str(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Names (nicks, channels, accounts) compare as this connection's server
 * compares them (005 CASEMAPPING), as ascii before it has said. */
int irc_cmp(const irc *c, const char *a, const char *b)
{
	return casemap_cmp(irc_relay_isupport(c->relay)->casemap, a, b);
}

/* Does s name a channel on this connection's server (005 CHANTYPES)? */
int irc_is_channel(const irc *c, const char *s)
{
	return ircline_is_channel(irc_relay_isupport(c->relay), s);
}

/* sendq's comparison: the connection's, whichever connection is current. */
static int queue_cmp(const void *ctx, const char *a, const char *b)
{
	return irc_cmp(ctx, a, b);
}

irc_chan *irc_chan_find(irc *c, const char *name)
{
	for (int i = 0; i < IRC_CHANNELS_MAX; i++)
		if (c->chans[i].used && !irc_cmp(c, c->chans[i].name, name))
			return &c->chans[i];
	return NULL;
}

irc_chan *irc_chan_add(irc *c, const char *name, const char *key)
{
	irc_chan *ch = irc_chan_find(c, name);
	if (!ch)
		for (int i = 0; i < IRC_CHANNELS_MAX && !ch; i++)
			if (!c->chans[i].used) {
				ch = &c->chans[i];
				memset(ch, 0, sizeof *ch);
				ch->owner = c;
				ch->used = 1;
				irc_set_str(ch->name, sizeof ch->name, name);
			}
	if (!ch) {
		LOG(c, "warn", "too many channels (%d); not joining %s", IRC_CHANNELS_MAX, name);
		return NULL;
	}
	if (key && strlen(ch->name) + strlen(key) + 6 > IRC_JOIN_LINE_MAX) {
		LOG(c, "warn", "channel name and key too long for one JOIN; not joining %s", ch->name);
		ch->wanted = 0;
		return NULL;
	}
	if (key)
		irc_set_str(ch->key, sizeof ch->key, key);
	return ch;
}

/* A name from the network, made safe for the host: valid UTF-8, bounded. */
void irc_clean(const char *in, char *out, size_t cap)
{
	utf8_clean(in ? in : "", in ? strlen(in) : 0, out, cap);
}

int irc_is_self(const irc *c, const char *nick)
{
	return !irc_cmp(c, nick, c->self);
}

/* ---- joining ---- */

static void on_rejoin(void *ctx);

/* Queues JOINs for every wanted channel not joined, several to a line,
 * keyed ones first as JOIN requires; at the front when `first`. */
void irc_join_wanted(irc *c, int first)
{
	char *lines[IRC_CHANNELS_MAX];
	int nlines = 0;
	char chans[IRCLINE_MAX] = "", keys[IRCLINE_MAX] = "", line[2 * IRCLINE_MAX + 8];
	size_t cl = 0, kl = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < IRC_CHANNELS_MAX; i++) {
			irc_chan *ch = &c->chans[i];
			int keyed = ch->key[0] != '\0';
			int last = pass == 2 && i == IRC_CHANNELS_MAX - 1;
			size_t nl = strlen(ch->name), kk = strlen(ch->key);
			int take = pass < 2 && ch->used && ch->wanted && !ch->joined && !ch->t_rejoin &&
				   keyed == (pass == 0);
			/* Pass 2 only flushes what is left. */
			if (cl && (last || (take && 5 + cl + 1 + nl + 1 + kl + 1 + kk > IRC_JOIN_LINE_MAX))) {
				snprintf(line, sizeof line, "JOIN %s%s%s", chans, kl ? " " : "", keys);
				lines[nlines] = strdup(line);
				if (lines[nlines])
					nlines++;
				cl = kl = 0;
			}
			if (!take)
				continue;
			cl += (size_t)snprintf(chans + cl, sizeof chans - cl, "%s%s", cl ? "," : "", ch->name);
			if (keyed)
				kl += (size_t)snprintf(keys + kl, sizeof keys - kl, "%s%s", kl ? "," : "", ch->key);
		}
	for (int i = 0; i < nlines; i++)
		irc_queue_line(c, lines[first ? nlines - 1 - i : i], first);
	for (int i = 0; i < nlines; i++)
		free(lines[i]);
}

void irc_join_one(irc *c, irc_chan *ch)
{
	char line[IRC_FIELD_MAX * 2 + 8];
	snprintf(line, sizeof line, "JOIN %s%s%s", ch->name, ch->key[0] ? " " : "", ch->key);
	irc_queue_line(c, line, 0);
	irc_flush(c);
}

void irc_schedule_rejoin(irc *c, irc_chan *ch)
{
	loop_cancel(c->base.ev, ch->t_rejoin);
	long ms = backoff_ms(c, ch->tries++);
	ch->t_rejoin = loop_timer(c->base.ev, ms, on_rejoin, ch);
}

static void on_rejoin(void *ctx)
{
	irc_chan *ch = ctx;
	irc *c = ch->owner;
	ch->t_rejoin = 0;
	if (c->registered && ch->used && ch->wanted && !ch->joined)
		irc_join_one(c, ch);
}

/* A JOIN was refused: try again later, or give up (banned, bad key). */
void irc_join_refused(irc *c, const char *name, int code, const char *text, int retry)
{
	irc_chan *ch = irc_chan_find(c, name);
	if (!ch || !ch->wanted)
		return;
	char why[IRC_WHY_MAX];
	irc_clean(text, why, sizeof why);
	if (!retry) {
		if (code == 474)
			LOG(c, "warn", "banned from %s (%s); giving up on it", ch->name, why);
		else
			LOG(c, "warn", "cannot join %s (%d: %s); giving up on it", ch->name, code, why);
		ch->wanted = 0;
		if (ch->ever_ready && c->base.host.room_lost)
			c->base.host.room_lost(c->base.host.ctx, &c->base, ch->name, code == 474 ? "banned" : why);
		return;
	}
	LOG(c, "warn", "cannot join %s (%d: %s); will try again", ch->name, code, why);
	irc_schedule_rejoin(c, ch);
}

/* ---- nick handling ---- */

void irc_set_self(irc *c, const char *nick)
{
	snprintf(c->self, sizeof c->self, "%s", nick);
}

void irc_regain_nick(irc *c)
{
	if (!c->registered || !irc_cmp(c, c->self, c->set.nick))
		return;
	char line[IRC_FIELD_MAX + 8];
	snprintf(line, sizeof line, "NICK %s", c->set.nick);
	irc_queue_line(c, line, 0);
	irc_flush(c);
}

void irc_on_regain(void *ctx)
{
	irc *c = ctx;
	c->t_regain = 0;
	if (!c->registered || !irc_cmp(c, c->self, c->set.nick))
		return;
	irc_regain_nick(c);
	c->t_regain = loop_timer(c->base.ev, IRC_REGAIN_MS, irc_on_regain, c);
}

/* Our nick was refused while registering: try the next candidate. */
void irc_next_nick(irc *c)
{
	char cand[IRC_FIELD_MAX];
	int t = ++c->nick_tries;
	if (t > IRC_NICK_TRIES) {
		mark_dead(c, "the server accepted none of the nicks tried");
		return;
	}
	if (t <= IRC_NICK_UNDERSCORES) {
		size_t n = strlen(c->set.nick);
		if (n + (size_t)t >= sizeof cand)
			n = sizeof cand - 1 - (size_t)t;
		memcpy(cand, c->set.nick, n);
		memset(cand + n, '_', (size_t)t);
		cand[n + (size_t)t] = '\0';
	} else
		snprintf(cand, sizeof cand, "%.*s%04u", IRC_NICK_DIGITS_STEM, c->set.nick,
			 (unsigned)(random_u32() % 10000));
	LOG(c, "info", "nick %s is not available; trying %s", c->self, cand);
	irc_set_self(c, cand);
	irc_send_raw(c->session, "NICK %s", cand);
}

/* ---- the connection ---- */

static void teardown(irc *c);

static void on_reap(void *ctx)
{
	irc *c = ctx;
	c->t_reap = 0;
	teardown(c);
}

static void mark_dead(irc *c, const char *why)
{
	if (c->dead)
		return;
	c->dead = 1;
	snprintf(c->dead_why, sizeof c->dead_why, "%s", why);
	if (!c->t_reap)
		c->t_reap = loop_timer(c->base.ev, 0, on_reap, c);
}

static void on_reconnect(void *ctx);

static void cancel_connection_timers(irc *c)
{
	loop *ev = c->base.ev;
	loop_cancel(ev, c->t_flush);
	loop_cancel(ev, c->t_regain);
	loop_cancel(ev, c->t_stop);
	c->t_flush = c->t_regain = c->t_stop = 0;
	for (int i = 0; i < IRC_CHANNELS_MAX; i++) {
		loop_cancel(ev, c->chans[i].t_rejoin);
		c->chans[i].t_rejoin = 0;
		c->chans[i].joined = 0;
		c->chans[i].tries = 0;
	}
}

/* Ends the connection for good and, unless stopping, schedules the next. */
static void teardown(irc *c)
{
	char why[IRC_WHY_MAX];
	snprintf(why, sizeof why, "%s", c->dead_why[0] ? c->dead_why : "disconnected");
	if (c->session)
		irc_destroy_session(c->session);
	c->session = NULL;
	irc_relay_free(c->relay);
	c->relay = NULL;
	cancel_connection_timers(c);
	c->dead = 0;
	c->dead_why[0] = '\0';
	c->registered = 0;
	c->userhost[0] = '\0';
	irc_people_reset(c);  /* the next connection learns them again (WHOX, tags) */
	int was_up = c->link_up;
	c->link_up = 0;
	if (c->stopping) {
		LOG(c, "info", "disconnected: %s", why);
		c->started = 0;
	} else {
		if (was_up && loop_now() - c->link_since >= IRC_STABLE_MS)
			c->reconnect_tries = 0;
		long ms = backoff_ms(c, c->reconnect_tries);
		if (c->reconnect_tries < 30)
			c->reconnect_tries++;
		LOG(c, "warn", "%s: %s; reconnecting in %ld ms", was_up ? "link lost" : "connection failed", why, ms);
		c->t_reconnect = loop_timer(c->base.ev, ms, on_reconnect, c);
	}
	if (was_up && c->base.host.link)
		c->base.host.link(c->base.host.ctx, &c->base, 0, why);
}

/* The local port libircclient's socket is bound to, found through the one
 * descriptor it reports; -1 if none. */
static int session_local_port(irc_session_t *s)
{
	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	int maxfd = -1;
	irc_add_select_descriptors(s, &rd, &wr, &maxfd);
	for (int fd = 0; fd <= maxfd; fd++)
		if (FD_ISSET(fd, &rd) || FD_ISSET(fd, &wr)) {
			struct sockaddr_in a;
			socklen_t len = sizeof a;
			if (getsockname(fd, (struct sockaddr *)&a, &len) == 0 && a.sin_family == AF_INET)
				return ntohs(a.sin_port);
		}
	return -1;
}

static void relay_ready(void *ctx, int port)
{
	irc *c = ctx;
	irc_callbacks_t cb;
	memset(&cb, 0, sizeof cb);
	cb.event_connect = irc_ev_connect;
	cb.event_nick = irc_ev_nick;
	cb.event_quit = irc_ev_quit;
	cb.event_join = irc_ev_join;
	cb.event_part = irc_ev_part;
	cb.event_kick = irc_ev_kick;
	cb.event_channel = irc_ev_message;
	cb.event_privmsg = irc_ev_message;
	cb.event_notice = irc_ev_message;
	cb.event_channel_notice = irc_ev_message;
	cb.event_invite = irc_ev_invite;
	cb.event_ctcp_req = irc_ev_ctcp_request;  /* set, so libircclient's own CTCP replies stay off */
	cb.event_ctcp_rep = irc_ev_ignore;
	cb.event_ctcp_action = irc_ev_action;
	cb.event_numeric = irc_ev_numeric;
	cb.event_unknown = irc_ev_unknown;
	c->session = irc_create_session(&cb);
	if (!c->session) {
		mark_dead(c, "libircclient: cannot create a session");
		return;
	}
	irc_set_ctx(c->session, c);
	const irc_settings *s = &c->set;
	if (irc_connect(c->session, "127.0.0.1", (unsigned short)port, s->server_password[0] ? s->server_password : NULL,
			c->self, s->username, s->realname)) {
		char why[IRC_WHY_MAX];
		snprintf(why, sizeof why, "libircclient: %s", irc_strerror(irc_errno(c->session)));
		mark_dead(c, why);
		return;
	}
	irc_relay_expect_peer(c->relay, session_local_port(c->session));
}

static void relay_closed(void *ctx, const char *why)
{
	mark_dead(ctx, why);
}

static void connect_now(irc *c)
{
	const irc_settings *s = &c->set;
	irc_relay_config rc = {
		.name = c->base.name,
		.server = s->server,
		.port = s->port,
		.tls = s->tls,
		.ca_file = s->ca_file,
		.tls_verify = s->tls_verify,
		.pin = c->pinned ? c->pin : NULL,
		.sasl_user = s->sasl_user,
		.sasl_password = s->sasl_password,
	};
	irc_relay_events re = { .ctx = c, .ready = relay_ready, .closed = relay_closed };
	irc_set_self(c, s->nick);
	c->nick_tries = 0;
	c->relay = irc_relay_new(c->base.ev, &rc, &re);
	if (!c->relay) {
		mark_dead(c, "out of memory");
		return;
	}
	LOG(c, "info", "connecting to %s port %d%s", s->server, s->port, s->tls ? " with TLS" : "");
	irc_relay_start(c->relay);
}

static void on_reconnect(void *ctx)
{
	irc *c = ctx;
	c->t_reconnect = 0;
	if (!c->stopping)
		connect_now(c);
}

static void on_stop_timeout(void *ctx)
{
	irc *c = ctx;
	c->t_stop = 0;
	mark_dead(c, "quit");
}

/* ---- the loop source ---- */

static void src_prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	irc *c = ctx;
	irc_dcc_prepare(c, rd, wr, maxfd, timeout_ms);
	if (c->dead)
		return;
	if (c->relay)
		irc_relay_prepare(c->relay, rd, wr, maxfd, timeout_ms);
	if (c->session)
		irc_add_select_descriptors(c->session, rd, wr, maxfd);
}

static void src_dispatch(void *ctx, fd_set *rd, fd_set *wr)
{
	irc *c = ctx;
	irc_dcc_dispatch(c, rd, wr);
	if (c->relay && !c->dead)
		irc_relay_dispatch(c->relay, rd, wr);
	if (c->session && !c->dead && irc_process_select_descriptors(c->session, rd, wr) &&
	    !irc_is_connected(c->session) && !c->dead) {
		char why[IRC_WHY_MAX];
		snprintf(why, sizeof why, "libircclient: %s", irc_strerror(irc_errno(c->session)));
		mark_dead(c, why);
	}
}

/* ---- adapter operations ---- */

static irc *irc_of(adapter *a)
{
	return (irc *)a;
}

static int op_start(adapter *a)
{
	irc *c = irc_of(a);
	if (c->started)
		return 0;
	/* A peer that closes while we write must not kill the process; the
	 * host may have set its own disposition, which is then kept. */
	struct sigaction sa;
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
		sa.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &sa, NULL);
	}
	c->started = 1;
	c->stopping = 0;
	c->reconnect_tries = 0;
	connect_now(c);
	return 0;
}

static void op_send_room(adapter *a, const char *room, const char *text, int flags)
{
	irc *c = irc_of(a);
	if (room && text)
		irc_queue_text(c, flags & ADAPTER_NOTICE ? "NOTICE" : "PRIVMSG", room, room, 1, text);
}

/* adapter_ops.private_kind: the person's choice, else private_notice.
 * Every private line of the host's is informational (ADAPTER_NOTICE):
 * that flag does not decide here, or PRIVMSG could never be chosen. */
static int op_private_kind(const adapter *a, int flags)
{
	if (flags & (ADAPTER_AS_MESSAGE | ADAPTER_AS_NOTICE))
		return flags & ADAPTER_AS_MESSAGE ? ADAPTER_AS_MESSAGE : ADAPTER_AS_NOTICE;
	return ((const irc *)a)->set.private_notice ? ADAPTER_AS_NOTICE : ADAPTER_AS_MESSAGE;
}

/* The command a private line with these flags goes by. */
const char *irc_private_cmd(const irc *c, int flags)
{
	return op_private_kind(&c->base, flags) == ADAPTER_AS_NOTICE ? "NOTICE" : "PRIVMSG";
}

static void op_send_private(adapter *a, const char *user, const char *text, int flags)
{
	irc *c = irc_of(a);
	char nick[IRC_FIELD_MAX];
	if (!user || !text)
		return;
	if (!irc_nick_for(c, user, nick, sizeof nick)) {
		LOG(c, "info", "no nick is logged in to %s now; a private line was not sent", user);
		return;
	}
	irc_queue_text(c, irc_private_cmd(c, flags), nick, user, 0, text);
}

/* adapter_ops.same_user: nicks compare as the server compares them (its
 * CASEMAPPING, ascii until it has said); "account:NAME" identities too, as
 * services fold account names by the network's rule. */
static int op_same_user(const adapter *a, const char *x, const char *y)
{
	return !irc_cmp((const irc *)a, x, y);
}

/* adapter_ops.same_room: channel names fold by the same rule. */
static int op_same_room(const adapter *a, const char *x, const char *y)
{
	return !irc_cmp((const irc *)a, x, y);
}

/* adapter_ops.match: an operator's mask, folded by the server's rule. */
static int op_match(const adapter *a, const char *mask, const char *text)
{
	return casemap_match(irc_relay_isupport(((const irc *)a)->relay)->casemap, mask, text);
}

/* adapter_ops.is_room: a channel name by the server's CHANTYPES. */
static int op_is_room(const adapter *a, const char *word)
{
	return irc_is_channel((const irc *)a, word);
}

static void op_tag(adapter *a, const adapter_tag *t)
{
	irc *c = irc_of(a);
	c->tagged = t != NULL;
	c->tag_answer = t && t->answer;
	c->tag_replaces = t && t->replaces;
	c->tag_whole = t && t->whole;
	c->tag_event = t ? t->event : 0;
	irc_set_str(c->tag_cause, sizeof c->tag_cause, t && t->cause ? t->cause : "");
	irc_set_str(c->tag_key, sizeof c->tag_key, t && t->key ? t->key : "");
	irc_set_str(c->tag_story, sizeof c->tag_story, t && t->story ? t->story : "");
}

/* adapter_ops.line_max: the room one NOTICE to the user's nick leaves
 * for text (irc_queue_text splits anything longer). */
static size_t op_line_max(const adapter *a, const char *user)
{
	const irc *c = (const irc *)a;
	char nick[IRC_FIELD_MAX];
	if (!irc_nick_for(c, user, nick, sizeof nick))
		irc_set_str(nick, sizeof nick, user); /* not seen: the identity is the nick */
	return irc_private_room(c, nick);
}

static void op_join(adapter *a, const char *room, const char *key)
{
	irc *c = irc_of(a);
	if (!room || !irc_is_channel(c, room) || !ircline_is_word(room) || (key && key[0] && !ircline_is_word(key))) {
		LOG(c, "warn", "refusing to join an invalid channel name or key");
		return;
	}
	irc_chan *ch = irc_chan_add(c, room, key && key[0] ? key : NULL); /* keep a configured key */
	if (!ch)
		return;
	ch->wanted = 1;
	ch->tries = 0;
	if (c->registered && !ch->joined && !ch->t_rejoin)
		irc_join_one(c, ch);
}

static void op_part(adapter *a, const char *room, const char *why)
{
	irc *c = irc_of(a);
	irc_chan *ch = room ? irc_chan_find(c, room) : NULL;
	if (!ch)
		return;
	ch->wanted = 0;
	loop_cancel(c->base.ev, ch->t_rejoin);
	ch->t_rejoin = 0;
	if (!c->registered || !ch->joined)
		return;
	char reason[IRC_WHY_MAX], line[IRC_FIELD_MAX + IRC_WHY_MAX + 16];
	irc_clean(why, reason, sizeof reason);
	/* "PART #c :why" within the line limit, cut on a character boundary. */
	size_t space = IRCLINE_MAX - 2 - 8 - strlen(ch->name), skip;
	size_t k = ircline_split(reason, strlen(reason), space, &skip);
	snprintf(line, sizeof line, "PART %s :%.*s", ch->name, (int)k, reason);
	irc_queue_line(c, line, 0);
	irc_flush(c);
}

static void op_stop(adapter *a, const char *why)
{
	irc *c = irc_of(a);
	if (!c->started)
		return;
	c->stopping = 1;
	loop_cancel(c->base.ev, c->t_reconnect);
	c->t_reconnect = 0;
	char reason[IRC_WHY_MAX];
	irc_clean(why, reason, sizeof reason);
	if (c->session && c->registered && !c->dead) {
		irc_send_raw(c->session, "QUIT :%s", reason);
		if (!c->t_stop)
			c->t_stop = loop_timer(c->base.ev, IRC_QUIT_WAIT_MS, on_stop_timeout, c);
	} else if (c->relay || c->session) {
		mark_dead(c, reason[0] ? reason : "stopped");
	} else {
		c->started = 0;
	}
}

static int op_origin(const adapter *a, const char *user, char *out, size_t len)
{
	const irc *c = (const irc *)a;
	char nick[IRC_FIELD_MAX];
	if (len)
		out[0] = '\0';
	if (!user || !irc_nick_for(c, user, nick, sizeof nick))
		return 0;
	for (int i = 0; i < IRC_SEEN_MAX; i++)
		if (c->seen[i].nick[0] && !irc_cmp(c, c->seen[i].nick, nick)) {
			snprintf(out, len, "%s", c->seen[i].origin);
			return 1;
		}
	return 0;
}

static const char *op_self(const adapter *a)
{
	const irc *c = (const irc *)a;
	return c->self[0] ? c->self : c->set.nick;
}

static void op_free(adapter *a)
{
	irc *c = irc_of(a);
	if (!c)
		return;
	loop *ev = c->base.ev;
	cancel_connection_timers(c);
	loop_cancel(ev, c->t_reconnect);
	loop_cancel(ev, c->t_reap);
	loop_remove_source(ev, c->src_id);
	irc_dcc_free_all(c);
	if (c->session)
		irc_destroy_session(c->session);
	irc_relay_free(c->relay);
	sendq_free(c->q);
	free(c->people);
	/* The settings hold passwords. */
	memset(&c->set, 0, sizeof c->set);
	free(c);
}

/* adapter_ops.present: from the people tracked in the bot's channels. */
static int op_present(const adapter *a, const char *room, const char *user)
{
	irc *c = (irc *)a;
	if (!c->people)
		return -1;
	uint64_t bit = 0;
	if (room) {
		irc_chan *ch = irc_chan_find(c, room);
		if (!ch || !ch->joined)
			return 0;
		bit = irc_chan_bit(c, ch);
	}
	size_t plen = strlen(IRC_ACCOUNT_PREFIX);
	int account = !strncmp(user, IRC_ACCOUNT_PREFIX, plen);
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (!p->nick[0] || !(bit ? p->chans & bit : p->chans))
			continue;
		if (account ? p->account[0] && !irc_cmp(c, p->account, user + plen)
			    : !p->account[0] && !irc_cmp(c, p->nick, user))
			return 1;
	}
	return c->people_warned ? -1 : 0; /* past the tracking limit nobody can tell */
}

/* adapter_ops.vouched: an account is the server's word; a nick is anyone's
 * once its holder is gone. */
static int op_vouched(const adapter *a, const char *user)
{
	(void)a;
	return !strncmp(user, IRC_ACCOUNT_PREFIX, strlen(IRC_ACCOUNT_PREFIX));
}

/* adapter_ops.send_file: an offer by DCC SEND when dcc is on (irc_dcc.c). */
static int op_send_file(adapter *a, const char *user, const adapter_file *f)
{
	return irc_dcc_offer(irc_of(a), user, f);
}

static const adapter_ops irc_ops = {
	.kind = "irc", .start = op_start, .send_room = op_send_room, .send_private = op_send_private,
	/* .send and .private_how are left to the host, whose fallbacks are
	 * IRC's: parts packed into lines of 380 bytes, and "/msg NICK ". */
	.private_kind = op_private_kind, .same_user = op_same_user, .same_room = op_same_room, .is_room = op_is_room,
	.match = op_match, .tag = op_tag, .join = op_join, .part = op_part, .stop = op_stop,
	.self = op_self, .origin = op_origin, .present = op_present, .vouched = op_vouched, .free = op_free,
	.line_max = op_line_max, .send_file = op_send_file,
};

adapter *irc_adapter_new(loop *ev, const adapter_host *host, const char *name, const irc_settings *s)
{
	const char *net = name && name[0] ? name : "irc";
	if (!s->server[0] || s->port <= 0 || s->port > 65535) {
		ircline_log(net, "error", "no server, or a port outside 1-65535");
		return NULL;
	}
	/* Checked before any server has said what starts a channel: by the defaults. */
	if (!ircline_is_word(s->nick) || ircline_is_channel(NULL, s->nick) ||
	    (s->username[0] && !ircline_is_word(s->username))) {
		ircline_log(net, "error", "the nick or user name is not valid on IRC");
		return NULL;
	}
	if (s->nchannels < 0 || s->nchannels > IRC_CHANNELS_MAX) {
		ircline_log(net, "error", "channel count out of range");
		return NULL;
	}
	for (int i = 0; i < s->nchannels; i++)
		if (!ircline_is_channel(NULL, s->channels[i].name) || !ircline_is_word(s->channels[i].name) ||
		    (s->channels[i].key[0] && !ircline_is_word(s->channels[i].key))) {
			ircline_log(net, "error", "channel %d: not a valid channel name or key", i + 1);
			return NULL;
		}
	irc *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->people = calloc(IRC_PEOPLE_MAX, sizeof *c->people);
	c->q = sendq_new(queue_cmp, c);
	if (!c->people || !c->q) {
		free(c->people);
		sendq_free(c->q);
		free(c);
		return NULL;
	}
	c->set = *s;
	if (s->fingerprint[0]) {
		if (parse_pin(s->fingerprint, c->pin) < 0) {
			ircline_log(net, "error", "fingerprint must be a SHA-256 in hex (64 digits, colons allowed)");
			free(c->people);
			sendq_free(c->q);
			free(c);
			return NULL;
		}
		c->pinned = 1;
	}
	if (!c->set.username[0])
		snprintf(c->set.username, sizeof c->set.username, "%s", c->set.nick);
	if (!c->set.realname[0])
		snprintf(c->set.realname, sizeof c->set.realname, "%s", c->set.nick);
	if (!(c->set.pace_burst >= 1))
		c->set.pace_burst = 1;
	if (!(c->set.pace_per_second > 0))
		c->set.pace_per_second = 1;
	if (c->set.reconnect_min_ms <= 0)
		c->set.reconnect_min_ms = 2000;
	if (c->set.reconnect_max_ms < c->set.reconnect_min_ms)
		c->set.reconnect_max_ms = c->set.reconnect_min_ms;
	c->base.ops = &irc_ops;
	c->base.host = *host;
	c->base.ev = ev;
	snprintf(c->base.name, sizeof c->base.name, "%s", net);
	for (int i = 0; i < s->nchannels; i++) {
		irc_chan *ch = irc_chan_add(c, s->channels[i].name, s->channels[i].key);
		if (ch)
			ch->wanted = 1;
	}
	irc_set_self(c, c->set.nick);
	loop_source src = { .ctx = c, .prepare = src_prepare, .dispatch = src_dispatch };
	c->src_id = loop_add_source(ev, &src);
	if (c->src_id < 0) {
		ircline_log(net, "error", "the event loop has no room for another source");
		free(c->people);
		sendq_free(c->q);
		free(c);
		return NULL;
	}
	return &c->base;
}
