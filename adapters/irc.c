/* irc.c: the IRC adapter: libircclient driven by the bot's loop, behind a local relay for TLS and SASL.
 *
 * One connection at a time: a relay (irc_relay.c) reaches the server and
 * offers libircclient a local plain link; libircclient registers and parses;
 * this file turns its events into adapter_host calls and paces what the bot
 * says with a token bucket, taking lines from a fair queue (sendq.h) where
 * they wait by room and by person, so nobody's requests hold up others. Anything that ends a connection only
 * marks it dead; a zero-delay timer tears it down outside every callback and
 * schedules the reconnect (GUIDE: never free inside a callback).
 *
 * Identity (adapter.h): a person logged in to a services account is
 * reported to the host as "account:NAME" (no nick can contain ':', so it
 * never collides with a nick), anyone else by their nick. Accounts are
 * learned from extended JOIN, WHOX replies (sent after each join when the
 * server offers WHOX), account-notify's ACCOUNT lines, and the account tag
 * on messages (which the relay turns into ACCOUNT lines; irc_relay.h). The
 * people seen in the bot's channels are tracked with their account and
 * channels, and forgotten when they share none with the bot any more, so
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
#include "irc.h"
#include "irc_relay.h"
#include "ircline.h"
#include "loop.h"
#include "sendq.h"
#include "utf8.h"

/* How long a line of text may be. The server relays what we say to others
 * as ":nick!user@host PRIVMSG #target :text\r\n" and that whole line must fit
 * in 512 bytes, but only the server knows our exact prefix (a cloak may
 * replace the host). We budget IRC_PREFIX_BUDGET bytes for it (nick 30,
 * user 10, host up to ~55, and ":!@ "), or our real prefix if we have seen
 * it (our own JOIN echo) and it is longer. Text per line is then
 *     512 - 2 (CRLF) - prefix - strlen("PRIVMSG ") - strlen(target) - 2 (" :")
 * capped at IRC_TEXT_CHUNK_MAX: for "#304" that is 512-2-100-8-4-2 = 396. */
#define IRC_PREFIX_BUDGET 100
#define IRC_TEXT_CHUNK_MAX 400
#define IRC_TEXT_CHUNK_MIN 64        /* a target so long that less room is left is refused */
#define IRC_SEND_RETRY_MS 50         /* libircclient's send buffer was full: try again shortly */
#define IRC_NICK_UNDERSCORES 4       /* nick_, nick__, ... then a short nick with digits */
#define IRC_NICK_TRIES 8             /* then give up on this connection */
#define IRC_NICK_DIGITS_STEM 5       /* stem kept before 4 digits, so the nick fits NICKLEN 9 */
#define IRC_REGAIN_MS 60000          /* while wearing another nick, ask for ours this often */
#define IRC_QUIT_WAIT_MS 3000        /* after QUIT, how long the server gets to close the link */
#define IRC_STABLE_MS 60000          /* a link up this long resets the reconnect backoff */
#define IRC_JOIN_LINE_MAX 400        /* several channels share one JOIN up to this length */
#define IRC_WHY_MAX 256
#define IRC_VERSION_REPLY "cardbot"
#define IRC_ACCOUNT_PREFIX "account:"  /* identity of a logged-in person: "account:NAME" */
#define IRC_ACCOUNT_MAX 64           /* account names this long or longer are not believed (services
				      * allow far less: Atheme 31, Anope 31); such a person is treated
				      * as not logged in, which grants nothing */
#define IRC_PERSON_NICK_MAX 64       /* longer nicks are not tracked (NICKLEN is 9 to 32 in practice) */
#define IRC_PEOPLE_MAX 4096          /* people tracked in the bot's channels: card channels hold tens,
				      * this allows a few busy ones (about 600 KB). Past it newcomers go
				      * untracked and count as not logged in (their nick is their
				      * identity), which can make seats and operator checks stricter,
				      * never looser; message tags still name their account. */
#define IRC_WHOX_TOKEN "304"         /* our WHOX queries, told apart from anyone else's */
#define IRC_LINE_NAMES_MAX 512       /* one NAMES reply's list: a line is at most 512 bytes */

typedef struct irc irc;

typedef struct irc_chan {
	irc *owner;                 /* for the rejoin timer */
	int used;
	char name[IRC_FIELD_MAX];   /* as configured or first seen */
	char key[IRC_FIELD_MAX];
	int wanted;                 /* the bot means to be there */
	int joined;                 /* the server has confirmed the bot is there */
	int ever_ready;             /* the host has heard room_ready for it */
	int tries;                  /* failed joins in a row, for the rejoin backoff */
	uint64_t t_rejoin;
} irc_chan;

#define IRC_SEEN_MAX 64 /* recent speakers whose origin is remembered */

/* Someone in the bot's channels. */
typedef struct irc_person {
	char nick[IRC_PERSON_NICK_MAX];     /* "" = a free slot */
	char account[IRC_ACCOUNT_MAX];      /* "" = not logged in (or not known to be) */
	uint64_t chans;                     /* bit i: shares chans[i] with the bot */
	int loose;                          /* learned from ACCOUNT without knowing the channels:
					     * forgotten at the first PART or KICK */
} irc_person;
_Static_assert(IRC_CHANNELS_MAX <= 64, "a person's channels are bits of a uint64_t");

struct irc {
	adapter base;               /* first: an irc * is an adapter * */
	irc_settings set;
	unsigned char pin[IRC_RELAY_PIN_LEN];
	int pinned;
	int src_id;

	/* The current connection. */
	irc_relay *relay;
	irc_session_t *session;
	int registered;             /* 001 seen */
	int dead;                   /* the connection is over; t_reap tears it down */
	char dead_why[IRC_WHY_MAX];
	int link_up;
	int64_t link_since;
	int nick_tries;
	char self[IRC_FIELD_MAX];   /* the nick we have (or are trying) */
	char userhost[IRC_FIELD_MAX]; /* "user@host" from our own JOIN, for the line budget */

	int started, stopping;
	int reconnect_tries;
	uint64_t t_reconnect, t_reap, t_flush, t_regain, t_stop;

	irc_chan chans[IRC_CHANNELS_MAX];

	/* The origin (nick!user@host) last seen for recent speakers, so the
	 * host can match operator masks. A small ring: speakers come and go. */
	struct { char nick[IRC_FIELD_MAX]; char origin[IRC_FIELD_MAX]; } seen[IRC_SEEN_MAX];
	int seen_next;

	/* Accounts (see the top of this file). */
	irc_person *people;         /* IRC_PEOPLE_MAX slots */
	int people_warned;
	char self_account[IRC_ACCOUNT_MAX]; /* the bot's own, from 900 */
	/* The account tag of the message about to be delivered (the relay's
	 * ACCOUNT line comes just before the message it belongs to). */
	char tag_nick[IRC_PERSON_NICK_MAX];
	char tag_account[IRC_ACCOUNT_MAX];
	/* Who is speaking while the host handles a message: answers to that
	 * identity go to that nick, even when one account has several. */
	char cur_nick[IRC_FIELD_MAX];
	char cur_user[ADAPTER_ID_MAX];

	/* Outgoing lines and the token bucket that paces them. */
	sendq *q;
	int qwarned;
	double tokens;
	int64_t tokens_at;
	/* The host's tag for what it sends now (adapter.h). */
	int tagged;
	int tag_answer;
	char tag_cause[ADAPTER_ID_MAX];
	char tag_key[ADAPTER_TEXT_MAX];
	char tag_story[ADAPTER_ID_MAX];   /* the room whose story a private line belongs to ("" none) */
};

#define LOG(c, level, ...) ircline_log((c)->base.name, level, __VA_ARGS__)

static void flush(irc *c);
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
	s->private_notice = 1;
	s->pace_burst = 4;
	s->pace_per_second = 1;
	s->reconnect_min_ms = 2000;
	s->reconnect_max_ms = 300000;
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
static void set_str(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static irc_chan *chan_find(irc *c, const char *name)
{
	for (int i = 0; i < IRC_CHANNELS_MAX; i++)
		if (c->chans[i].used && !casemap_cmp(c->chans[i].name, name))
			return &c->chans[i];
	return NULL;
}

static irc_chan *chan_add(irc *c, const char *name, const char *key)
{
	irc_chan *ch = chan_find(c, name);
	if (!ch)
		for (int i = 0; i < IRC_CHANNELS_MAX && !ch; i++)
			if (!c->chans[i].used) {
				ch = &c->chans[i];
				memset(ch, 0, sizeof *ch);
				ch->owner = c;
				ch->used = 1;
				set_str(ch->name, sizeof ch->name, name);
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
		set_str(ch->key, sizeof ch->key, key);
	return ch;
}

/* A name from the network, made safe for the host: valid UTF-8, bounded. */
static void clean(const char *in, char *out, size_t cap)
{
	utf8_clean(in ? in : "", in ? strlen(in) : 0, out, cap);
}

static int is_self(const irc *c, const char *nick)
{
	return !casemap_cmp(nick, c->self);
}

/* ---- the outgoing queue ---- */

/* A queue result: says once that lines are being dropped. */
static void queued(irc *c, int r)
{
	if (r == SENDQ_NOMEM)
		LOG(c, "warn", "out of memory; a line was dropped");
	else if (r == SENDQ_DROPPED && sendq_len(c->q) >= SENDQ_LINES_MAX) {
		if (!c->qwarned)
			LOG(c, "warn", "send queue full (%d lines); dropping new lines", SENDQ_LINES_MAX);
		c->qwarned = 1;
	} else if (r == SENDQ_DROPPED)
		LOG(c, "debug", "one person's lines are waiting beyond %d; a line was dropped", SENDQ_CAUSED_MAX);
}

/* Queues a protocol line of our own (no CRLF) at the back, or at the front when `first`. */
static void queue_line(irc *c, const char *line, int first)
{
	queued(c, sendq_push_control(c->q, line, first));
}

static void on_flush(void *ctx)
{
	irc *c = ctx;
	c->t_flush = 0;
	flush(c);
}

/* Sends what the token bucket allows; a timer comes back for the rest. */
static void flush(irc *c)
{
	if (!c->registered || !c->session || c->dead || c->t_flush)
		return;
	int64_t now = loop_now();
	double burst = c->set.pace_burst, rate = c->set.pace_per_second;
	c->tokens += (double)(now - c->tokens_at) * rate / 1000.0;
	if (c->tokens > burst)
		c->tokens = burst;
	c->tokens_at = now;
	const char *line;
	while (c->tokens >= 1 && (line = sendq_peek(c->q, now))) {
		if (irc_send_raw(c->session, "%s", line)) {
			c->t_flush = loop_timer(c->base.ev, IRC_SEND_RETRY_MS, on_flush, c);
			return;
		}
		sendq_pop(c->q, now);
		c->tokens -= 1;
	}
	if (sendq_len(c->q) < SENDQ_LINES_MAX / 2)
		c->qwarned = 0;
	if (sendq_len(c->q))
		c->t_flush = loop_timer(c->base.ev, (long)((1.0 - c->tokens) * 1000.0 / rate) + 1, on_flush, c);
}

/* Room for text in one line to `target`; 0 when the target leaves too little. */
static size_t text_room(const irc *c, const char *cmd, const char *target)
{
	size_t prefix = IRC_PREFIX_BUDGET;
	if (c->userhost[0]) {
		size_t own = 1 + strlen(c->self) + 1 + strlen(c->userhost) + 1;
		if (own > prefix)
			prefix = own;
	}
	size_t fixed = 2 + prefix + strlen(cmd) + 1 + strlen(target) + 2;
	if (fixed + IRC_TEXT_CHUNK_MIN > IRCLINE_MAX)
		return 0;
	size_t room = IRCLINE_MAX - fixed;
	return room > IRC_TEXT_CHUNK_MAX ? IRC_TEXT_CHUNK_MAX : room;
}

/* Splits text into lines for `target` and queues them: a newline starts a
 * new line, CR is dropped, long lines break at spaces or character
 * boundaries, never inside a colour code; beyond ADAPTER_TEXT_MAX is cut.
 * They wait in the queue for `to` (the room when in_room, else the person's identity),
 * tagged as the host said (sendq.h). */
static void queue_text(irc *c, const char *cmd, const char *target, const char *to, int in_room, const char *text)
{
	if (!target || !ircline_is_word(target)) {
		LOG(c, "warn", "refusing to send to an invalid target");
		return;
	}
	size_t room = text_room(c, cmd, target);
	if (!room) {
		LOG(c, "warn", "target name too long to send to");
		return;
	}
	char buf[ADAPTER_TEXT_MAX + 1];
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)text;
	for (; *p && n < ADAPTER_TEXT_MAX; p++)
		if (*p != '\r')
			buf[n++] = (char)*p;
	if (*p) {
		/* Cut: do not leave half a character at the end. */
		if ((*p & 0xC0) == 0x80) {
			while (n > 0 && ((unsigned char)buf[n - 1] & 0xC0) == 0x80)
				n--;
			if (n > 0 && (unsigned char)buf[n - 1] >= 0xC0)
				n--;
		}
		LOG(c, "warn", "text longer than %d bytes was cut", ADAPTER_TEXT_MAX);
	}
	char line[IRCLINE_MAX];
	for (size_t start = 0; start < n;) {
		size_t end = start;
		while (end < n && buf[end] != '\n')
			end++;
		const char *s = buf + start;
		size_t len = end - start;
		while (len > 0) {
			size_t skip;
			size_t k = ircline_split(s, len, room, &skip);
			int w = snprintf(line, sizeof line, "%s %s :%.*s", cmd, target, (int)k, s);
			if (w > 0 && (size_t)w < sizeof line) {
				sendq_tag tag = { c->tag_cause, c->tag_key[0] ? c->tag_key : NULL, c->tag_answer,
						  c->tag_story };
				queued(c, sendq_push(c->q, to, in_room, c->tagged ? &tag : NULL, line, loop_now()));
			}
			s += k + skip;
			len -= k + skip;
		}
		start = end + 1;
	}
	flush(c);
}

/* ---- joining ---- */

static void on_rejoin(void *ctx);

/* Queues JOINs for every wanted channel not joined, several to a line,
 * keyed ones first as JOIN requires; at the front when `first`. */
static void join_wanted(irc *c, int first)
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
		queue_line(c, lines[first ? nlines - 1 - i : i], first);
	for (int i = 0; i < nlines; i++)
		free(lines[i]);
}

static void join_one(irc *c, irc_chan *ch)
{
	char line[IRC_FIELD_MAX * 2 + 8];
	snprintf(line, sizeof line, "JOIN %s%s%s", ch->name, ch->key[0] ? " " : "", ch->key);
	queue_line(c, line, 0);
	flush(c);
}

static void schedule_rejoin(irc *c, irc_chan *ch)
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
		join_one(c, ch);
}

/* A JOIN was refused: try again later, or give up (banned, bad key). */
static void join_refused(irc *c, const char *name, int code, const char *text, int retry)
{
	irc_chan *ch = chan_find(c, name);
	if (!ch || !ch->wanted)
		return;
	char why[IRC_WHY_MAX];
	clean(text, why, sizeof why);
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
	schedule_rejoin(c, ch);
}

/* ---- nick handling ---- */

static void set_self(irc *c, const char *nick)
{
	snprintf(c->self, sizeof c->self, "%s", nick);
}

static void regain_nick(irc *c)
{
	if (!c->registered || !casemap_cmp(c->self, c->set.nick))
		return;
	char line[IRC_FIELD_MAX + 8];
	snprintf(line, sizeof line, "NICK %s", c->set.nick);
	queue_line(c, line, 0);
	flush(c);
}

static void on_regain(void *ctx)
{
	irc *c = ctx;
	c->t_regain = 0;
	if (!c->registered || !casemap_cmp(c->self, c->set.nick))
		return;
	regain_nick(c);
	c->t_regain = loop_timer(c->base.ev, IRC_REGAIN_MS, on_regain, c);
}

/* Our nick was refused while registering: try the next candidate. */
static void next_nick(irc *c)
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
	set_self(c, cand);
	irc_send_raw(c->session, "NICK %s", cand);
}

/* ---- accounts and identity ---- */

/* A nick the host may see as an identity: none contains ':', so none can
 * pass for "account:NAME" (a server that sends one is not believed). */
static int nick_ok(const char *nick)
{
	return nick[0] && !strchr(nick, ':');
}

/* Reads an account name as the server gave it: 1 and the name in out
 * (IRC_ACCOUNT_MAX bytes), or 0 for none ("*", "", or `none` such as
 * WHOX's "0"); a name that is too long, not one word or not UTF-8 is
 * logged and taken as none. */
static int account_arg(irc *c, const char *s, const char *none, char *out)
{
	out[0] = '\0';
	if (!s || !s[0] || !strcmp(s, "*") || (none && !strcmp(s, none)))
		return 0;
	size_t n = strlen(s);
	int ok = n < IRC_ACCOUNT_MAX && ircline_is_word(s) && utf8_valid(s, n);
	for (size_t i = 0; ok && i < n; i++)
		ok = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f;
	if (!ok) {
		LOG(c, "warn", "an account name from the server is unusable (%zu bytes); taken as none", n);
		return 0;
	}
	memcpy(out, s, n + 1);
	return 1;
}

/* The identity for a nick with account `account` ("" = none). */
static void identity(const char *account, const char *nick, char *out, size_t cap)
{
	if (account && account[0])
		snprintf(out, cap, IRC_ACCOUNT_PREFIX "%s", account);
	else
		clean(nick, out, cap);
}

static irc_person *person_find(irc *c, const char *nick)
{
	if (!c->people)
		return NULL;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++)
		if (c->people[i].nick[0] && !casemap_cmp(c->people[i].nick, nick))
			return &c->people[i];
	return NULL;
}

static irc_person *person_add(irc *c, const char *nick)
{
	irc_person *p = person_find(c, nick);
	if (p || !c->people || strlen(nick) >= IRC_PERSON_NICK_MAX)
		return p;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++)
		if (!c->people[i].nick[0]) {
			p = &c->people[i];
			memset(p, 0, sizeof *p);
			set_str(p->nick, sizeof p->nick, nick);
			return p;
		}
	if (!c->people_warned)
		LOG(c, "warn", "tracking %d people already; newcomers count as not logged in", IRC_PEOPLE_MAX);
	c->people_warned = 1;
	return NULL;
}

static void person_drop(irc_person *p)
{
	memset(p, 0, sizeof *p);
}

/* The identity of a nick now: its account if it is known to have one. */
static void identity_of(irc *c, const char *nick, char *out, size_t cap)
{
	irc_person *p = person_find(c, nick);
	identity(p ? p->account : "", nick, out, cap);
}

/* 1 when someone other than `except` is logged in to `account` (and, with
 * chan_bit, is in that channel). */
static int account_elsewhere(irc *c, const char *account, const irc_person *except, uint64_t chan_bit)
{
	if (!account[0] || !c->people)
		return 0;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (p != except && p->nick[0] && !casemap_cmp(p->account, account) && (!chan_bit || (p->chans & chan_bit)))
			return 1;
	}
	return 0;
}

static uint64_t chan_bit(irc *c, const irc_chan *ch)
{
	return ch ? (uint64_t)1 << (ch - c->chans) : 0;
}

/* The server says `nick` is logged in to `account` ("" = not at all). When
 * that changes the person's identity, the host hears renamed, so a seat
 * follows the person. */
static void account_changed(irc *c, irc_person *p, const char *account)
{
	if (!casemap_cmp(p->account, account))
		return;
	char before[ADAPTER_ID_MAX], after[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX];
	identity(p->account, p->nick, before, sizeof before);
	set_str(p->account, sizeof p->account, account);
	identity(p->account, p->nick, after, sizeof after);
	clean(p->nick, name, sizeof name);
	LOG(c, "debug", "%s is now %s", name, after);
	if (strcmp(before, after) && c->base.host.renamed)
		c->base.host.renamed(c->base.host.ctx, &c->base, before, after, name);
}

/* `nick` is in channel ch (NULL: some channel of the bot's, unknown which)
 * with `account` (learned == 0: the server did not say). */
static void person_seen(irc *c, const char *nick, irc_chan *ch, int learned, const char *account)
{
	if (!nick_ok(nick) || is_self(c, nick))
		return;
	irc_person *p = person_find(c, nick);
	if (!p && (ch || (learned && account[0])))
		p = person_add(c, nick);
	if (!p)
		return;
	if (ch)
		p->chans |= chan_bit(c, ch);
	else if (!p->chans)
		p->loose = 1;
	if (learned)
		account_changed(c, p, account);
}

/* `nick` left channel ch (NULL: the network). Writes the identity it had
 * into out; returns 0 when the host should not hear of it, because the
 * same account is still there under another nick. */
static int person_left(irc *c, const char *nick, irc_chan *ch, char *out, size_t cap)
{
	identity_of(c, nick, out, cap);
	irc_person *p = person_find(c, nick);
	if (!p)
		return 1;
	uint64_t bit = chan_bit(c, ch);
	int still = account_elsewhere(c, p->account, p, ch ? bit : 0);
	if (ch)
		p->chans &= ~bit;
	if (!ch || p->loose || !p->chans)
		person_drop(p);
	return !still;
}

/* The bot left channel ch (or, with NULL, every channel). */
static void people_forget_channel(irc *c, irc_chan *ch)
{
	if (!c->people)
		return;
	uint64_t bit = chan_bit(c, ch);
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		irc_person *p = &c->people[i];
		if (!p->nick[0])
			continue;
		p->chans &= ch ? ~bit : 0;
		if (p->loose || !p->chans)
			person_drop(p);
	}
}

/* The nick to send to for an identity: itself, or for "account:NAME" the
 * nick speaking now with that identity, else a nick in the bot's channels
 * logged in to NAME. 0 when there is none: a private line (a hand) never
 * goes to a nick merely hoped to be theirs. */
static int nick_for(const irc *c, const char *user, char *out, size_t cap)
{
	if (strncmp(user, IRC_ACCOUNT_PREFIX, strlen(IRC_ACCOUNT_PREFIX))) {
		set_str(out, cap, user);
		return 1;
	}
	if (c->cur_user[0] && !strcmp(c->cur_user, user)) {
		set_str(out, cap, c->cur_nick);
		return 1;
	}
	const char *account = user + strlen(IRC_ACCOUNT_PREFIX);
	const irc_person *best = NULL;
	for (int i = 0; c->people && i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (p->nick[0] && p->account[0] && !casemap_cmp(p->account, account) && (!best || !p->loose))
			best = p;
	}
	if (!best) {
		out[0] = '\0';
		return 0;
	}
	set_str(out, cap, best->nick);
	return 1;
}

/* "WHO #chan %tcna,304": each member's nick and account (354 replies). */
static void whox_query(irc *c, const irc_chan *ch)
{
	if (!(irc_relay_caps(c->relay) & IRC_RELAY_ISUPPORT_WHOX))
		return;
	char line[IRC_FIELD_MAX + 32];
	snprintf(line, sizeof line, "WHO %s %%tcna," IRC_WHOX_TOKEN, ch->name);
	queue_line(c, line, 0);
	flush(c);
}

static void people_reset(irc *c)
{
	if (c->people)
		memset(c->people, 0, IRC_PEOPLE_MAX * sizeof *c->people);
	c->people_warned = 0;
	c->self_account[0] = '\0';
	c->tag_nick[0] = c->tag_account[0] = '\0';
	c->cur_nick[0] = c->cur_user[0] = '\0';
}

/* ---- libircclient events ---- */

static irc *ctx_of(irc_session_t *s)
{
	return irc_get_ctx(s);
}

static void ev_connect(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	(void)origin;
	irc *c = ctx_of(s);
	if (c->registered)
		return;
	c->registered = 1;
	if (count > 0 && params[0] && ircline_is_word(params[0]))
		set_self(c, params[0]);
	c->link_up = 1;
	c->link_since = loop_now();
	c->tokens = c->set.pace_burst;
	c->tokens_at = c->link_since;
	LOG(c, "info", "registered as %s", c->self);
	/* Priority lines go to the front, ahead of what waited while offline:
	 * identify first, then the joins, so messages follow their JOIN. */
	join_wanted(c, 1);
	if (c->set.nickserv_password[0]) {
		char line[IRC_FIELD_MAX * 3];
		if (is_self(c, c->set.nick))
			snprintf(line, sizeof line, "PRIVMSG NickServ :IDENTIFY %s", c->set.nickserv_password);
		else  /* wearing another nick: name the account */
			snprintf(line, sizeof line, "PRIVMSG NickServ :IDENTIFY %s %s", c->set.nick,
				 c->set.nickserv_password);
		queue_line(c, line, 1);
	}
	if (!is_self(c, c->set.nick) && !c->t_regain)
		c->t_regain = loop_timer(c->base.ev, IRC_REGAIN_MS, on_regain, c);
	if (c->base.host.link)
		c->base.host.link(c->base.host.ctx, &c->base, 1, "");
	flush(c);
}

static void ev_numeric(irc_session_t *s, unsigned code, const char *origin, const char **params, unsigned count)
{
	(void)origin;
	irc *c = ctx_of(s);
	const char *arg = count > 1 && params[1] ? params[1] : "";
	const char *text = count > 0 && params[count - 1] ? params[count - 1] : "";
	switch (code) {
	case 432: case 433: case 436:
		if (!c->registered)
			next_nick(c);
		break;
	case 437:  /* nick or channel temporarily unavailable */
		if (ircline_is_channel(arg))
			join_refused(c, arg, (int)code, text, 1);
		else if (!c->registered)
			next_nick(c);
		break;
	case 405: case 471: case 473: case 477:
		join_refused(c, arg, (int)code, text, 1);
		break;
	case 403: case 474: case 475:
		join_refused(c, arg, (int)code, text, 0);
		break;
	case 404: {
		char t[IRC_FIELD_MAX];
		clean(arg, t, sizeof t);
		LOG(c, "warn", "cannot send to %s", t);
		break;
	}
	case 465: {
		char t[IRC_WHY_MAX];
		clean(text, t, sizeof t);
		LOG(c, "error", "banned from this server: %s", t);
		break;
	}
	case 353: {  /* NAMES: me type channel :[prefixes]nick[!user@host] ... */
		if (count < 4)
			break;
		irc_chan *ch = chan_find(c, params[2]);
		if (!ch || !ch->joined)
			break;
		/* Who is there already: presence only; accounts come from WHOX. */
		char list[IRC_LINE_NAMES_MAX];
		snprintf(list, sizeof list, "%s", params[3]);
		for (char *save = NULL, *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			w += strspn(w, "@+%&~!.");
			w[strcspn(w, "!")] = '\0';
			if (ircline_is_word(w))
				person_seen(c, w, ch, 0, "");
		}
		break;
	}
	case 354: {  /* WHOX: me token channel nick account ("0": none) */
		char account[IRC_ACCOUNT_MAX];
		if (count < 5 || strcmp(params[1], IRC_WHOX_TOKEN) || !ircline_is_word(params[3]))
			break;
		irc_chan *ch = chan_find(c, params[2]);
		if (!ch || !ch->joined)
			break;
		account_arg(c, params[4], "0", account);
		person_seen(c, params[3], ch, 1, account);
		break;
	}
	case 900: {  /* logged in: me nick!user@host account :text */
		char shown[IRC_ACCOUNT_MAX + 8];
		if (count >= 3 && account_arg(c, params[2], NULL, c->self_account)) {
			clean(c->self_account, shown, sizeof shown);
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

static void ev_nick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1 || !ircline_is_word(params[0]))
		return;
	char old[IRC_FIELD_MAX], fresh[ADAPTER_ID_MAX], oldc[ADAPTER_ID_MAX];
	ircline_nick(origin, old, sizeof old);
	if (is_self(c, old)) {
		set_self(c, params[0]);
		LOG(c, "info", "now known as %s", c->self);
		return;
	}
	if (!casemap_cmp(old, c->set.nick))
		regain_nick(c);
	if (!nick_ok(old) || !nick_ok(params[0])) {
		irc_person *gone = person_find(c, old);
		if (gone)  /* not followed: nobody must inherit the account with the old nick */
			person_drop(gone);
		return;
	}
	/* Whoever had the new nick before is gone from it. */
	irc_person *stale = person_find(c, params[0]);
	irc_person *p = person_find(c, old);
	if (stale && stale != p)
		person_drop(stale);
	identity(p ? p->account : "", old, oldc, sizeof oldc);
	clean(params[0], fresh, sizeof fresh);
	if (p) {
		if (strlen(params[0]) < sizeof p->nick)
			set_str(p->nick, sizeof p->nick, params[0]);
		else
			person_drop(p);  /* too long to track: the new nick speaks for itself */
	}
	char now[ADAPTER_ID_MAX];
	identity_of(c, params[0], now, sizeof now);
	/* Logged in: the identity stays and only the display name changes. */
	if (c->base.host.renamed)
		c->base.host.renamed(c->base.host.ctx, &c->base, oldc, now, fresh);
}

static void ev_quit(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin)
		return;
	char nick[IRC_FIELD_MAX], user[ADAPTER_ID_MAX], why[IRC_WHY_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (is_self(c, nick))
		return;
	if (!casemap_cmp(nick, c->set.nick))
		regain_nick(c);
	if (!nick_ok(nick))
		return;
	clean(count > 0 ? params[0] : "", why, sizeof why);
	if (person_left(c, nick, NULL, user, sizeof user) && c->base.host.left)
		c->base.host.left(c->base.host.ctx, &c->base, NULL, user, why);
}

/* The channel's name as the host knows it: the configured spelling if any. */
static void room_name(irc *c, const char *server_name, char *out, size_t cap)
{
	irc_chan *ch = chan_find(c, server_name);
	clean(ch ? ch->name : server_name, out, cap);
}

static void ev_join(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1 || !ircline_is_word(params[0]))
		return;
	char nick[IRC_FIELD_MAX], room[ADAPTER_ID_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (is_self(c, nick)) {
		const char *uh = strchr(origin, '!');
		if (uh)
			snprintf(c->userhost, sizeof c->userhost, "%s", uh + 1);
		irc_chan *ch = chan_find(c, params[0]);
		if (!ch)   /* joined without asking (a forced join): follow it */
			ch = chan_add(c, params[0], "");
		if (!ch)
			return;
		ch->wanted = 1;
		ch->joined = 1;
		ch->tries = 0;
		ch->ever_ready = 1;
		loop_cancel(c->base.ev, ch->t_rejoin);
		ch->t_rejoin = 0;
		clean(ch->name, room, sizeof room);
		LOG(c, "info", "joined %s", room);
		whox_query(c, ch);
		if (c->base.host.room_ready)
			c->base.host.room_ready(c->base.host.ctx, &c->base, room);
		return;
	}
	if (!nick_ok(nick))
		return;
	/* extended-join: "JOIN #chan ACCOUNT :realname", "*" for none. */
	char account[IRC_ACCOUNT_MAX] = "";
	int learned = (irc_relay_caps(c->relay) & IRC_RELAY_CAP_EXTENDED_JOIN) && count >= 2;
	if (learned)
		account_arg(c, params[1], NULL, account);
	irc_chan *ch = chan_find(c, params[0]);
	if (ch && ch->joined)
		person_seen(c, nick, ch, learned, account);
	char user[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX];
	identity_of(c, nick, user, sizeof user);
	clean(nick, name, sizeof name);
	room_name(c, params[0], room, sizeof room);
	if (c->base.host.joined)
		c->base.host.joined(c->base.host.ctx, &c->base, room, user, name);
}

static void ev_part(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (!origin || count < 1)
		return;
	char nick[IRC_FIELD_MAX], room[ADAPTER_ID_MAX], why[IRC_WHY_MAX];
	ircline_nick(origin, nick, sizeof nick);
	room_name(c, params[0], room, sizeof room);
	clean(count > 1 ? params[1] : "", why, sizeof why);
	irc_chan *ch = chan_find(c, params[0]);
	if (is_self(c, nick)) {
		if (ch) {
			people_forget_channel(c, ch);
			ch->joined = 0;
			ch->wanted = 0;
		}
		if (c->base.host.room_lost)
			c->base.host.room_lost(c->base.host.ctx, &c->base, room, why);
		return;
	}
	if (!nick_ok(nick))
		return;
	char user[ADAPTER_ID_MAX];
	if (person_left(c, nick, ch, user, sizeof user) && c->base.host.left)
		c->base.host.left(c->base.host.ctx, &c->base, room, user, why);
}

static void ev_kick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	(void)origin;
	irc *c = ctx_of(s);
	if (count < 2)
		return;
	char room[ADAPTER_ID_MAX], why[IRC_WHY_MAX], user[ADAPTER_ID_MAX];
	room_name(c, params[0], room, sizeof room);
	clean(count > 2 ? params[2] : "", why, sizeof why);
	irc_chan *ch = chan_find(c, params[0]);
	if (is_self(c, params[1])) {
		LOG(c, "warn", "kicked from %s (%s)", room, why);
		if (ch) {
			people_forget_channel(c, ch);
			ch->joined = 0;
			if (ch->wanted)
				schedule_rejoin(c, ch);
		}
		if (c->base.host.room_lost)
			c->base.host.room_lost(c->base.host.ctx, &c->base, room, why);
		return;
	}
	if (!nick_ok(params[1]))
		return;
	if (person_left(c, params[1], ch, user, sizeof user) && c->base.host.left)
		c->base.host.left(c->base.host.ctx, &c->base, room, user, why);
}

static void ev_invite(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	if (count < 2 || !ircline_is_channel(params[1]) || !ircline_is_word(params[1]))
		return;
	char who[IRC_FIELD_MAX] = "?", room[ADAPTER_ID_MAX];
	if (origin)
		ircline_nick(origin, who, sizeof who);
	clean(params[1], room, sizeof room);
	if (!c->set.accept_invites) {
		LOG(c, "info", "ignoring an invitation to %s", room);
		return;
	}
	irc_chan *ch = chan_add(c, params[1], NULL);
	if (!ch || ch->joined)
		return;
	LOG(c, "info", "invited to %s; joining", room);
	ch->wanted = 1;
	ch->tries = 0;
	loop_cancel(c->base.ev, ch->t_rejoin);
	ch->t_rejoin = 0;
	join_one(c, ch);
}

static void remember_origin(irc *c, const char *nick, const char *origin)
{
	int slot = -1;
	for (int i = 0; i < IRC_SEEN_MAX; i++)
		if (!strcasecmp(c->seen[i].nick, nick))
			slot = i;
	if (slot < 0) {
		slot = c->seen_next;
		c->seen_next = (c->seen_next + 1) % IRC_SEEN_MAX;
	}
	snprintf(c->seen[slot].nick, sizeof c->seen[slot].nick, "%s", nick);
	clean(origin, c->seen[slot].origin, sizeof c->seen[slot].origin);
}

/* PRIVMSG and NOTICE, in channels and in private, all come here. */
static void deliver(irc *c, const char *origin, const char *target, const char *text, int notice)
{
	/* Server notices (no nick!user@host) are not from people. */
	if (!origin || !strchr(origin, '!') || !target || !text)
		return;
	char nick[IRC_FIELD_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (is_self(c, nick) || !nick_ok(nick)) {
		c->tag_nick[0] = '\0';
		return;
	}
	char user[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX], room[ADAPTER_ID_MAX], body[ADAPTER_TEXT_MAX + 1];
	/* The message's own account tag, when it had one, else what is known. */
	if (c->tag_nick[0] && !casemap_cmp(c->tag_nick, nick))
		identity(c->tag_account, nick, user, sizeof user);
	else
		identity_of(c, nick, user, sizeof user);
	clean(nick, name, sizeof name);
	remember_origin(c, name, origin);
	clean(text, body, sizeof body);
	int in_room = ircline_is_channel(target);
	if (in_room) {
		room_name(c, target, room, sizeof room);
		irc_chan *ch = chan_find(c, target);
		if (ch && ch->joined)  /* speaking there: they are there */
			person_seen(c, nick, ch, 0, "");
	}
	set_str(c->cur_nick, sizeof c->cur_nick, nick);
	set_str(c->cur_user, sizeof c->cur_user, user);
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
	if (!nick_ok(nick) || is_self(c, nick))
		return;
	account_arg(c, params[0], NULL, account);
	if (count >= 2) {
		/* A tag speaks for the message after it. It updates people the
		 * bot tracks (it saw them all along), but creates nobody: a nick
		 * seen only in private may change hands unseen. */
		set_str(c->tag_nick, sizeof c->tag_nick, nick);
		set_str(c->tag_account, sizeof c->tag_account, account);
		irc_person *p = person_find(c, nick);
		if (p)
			account_changed(c, p, account);
		return;
	}
	person_seen(c, nick, NULL, 1, account);
}

static void ev_unknown(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	if (event && !strcmp(event, "ACCOUNT"))
		ev_account(ctx_of(s), origin, params, count);
}

static void ev_message(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	if (count < 2 || !params[0] || !params[1])
		return;
	/* Any other CTCP (a \x01 with no closing one escapes libircclient) is dropped. */
	if (params[1][0] == '\x01')
		return;
	/* libircclient names notices "NOTICE" and "CHANNEL_NOTICE". */
	deliver(ctx_of(s), origin, params[0], params[1], event && strstr(event, "NOTICE") != NULL);
}

static void ev_action(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	if (count < 2 || !params[0] || !params[1])
		return;
	/* Passed on as sent: the host may show or ignore "/me" lines. */
	char text[IRCLINE_MAX + 16];
	snprintf(text, sizeof text, "\x01" "ACTION %s\x01", params[1]);
	deliver(ctx_of(s), origin, params[0], text, 0);
}

static void ev_ctcp_request(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)event;
	irc *c = ctx_of(s);
	c->tag_nick[0] = '\0';
	if (!origin || count < 1 || strcmp(params[0], "VERSION"))
		return;
	char nick[IRC_FIELD_MAX], line[IRC_FIELD_MAX + 64], user[ADAPTER_ID_MAX];
	ircline_nick(origin, nick, sizeof nick);
	if (!ircline_is_word(nick) || !nick_ok(nick) || is_self(c, nick))
		return;
	/* The answer is the person's request like any command: counted
	 * against them by the host, queued as theirs, said once while waiting. */
	identity_of(c, nick, user, sizeof user);
	if (c->base.host.allow && !c->base.host.allow(c->base.host.ctx, &c->base, user))
		return;
	snprintf(line, sizeof line, "NOTICE %s :\x01VERSION %s\x01", nick, IRC_VERSION_REPLY);
	sendq_tag tag = { user, "\x01VERSION", 1, NULL };
	queued(c, sendq_push(c->q, user, 0, &tag, line, loop_now()));
	flush(c);
}

static void ev_ignore(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count)
{
	(void)s;
	(void)event;
	(void)origin;
	(void)params;
	(void)count;
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
	people_reset(c);  /* the next connection learns them again (WHOX, tags) */
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
	cb.event_connect = ev_connect;
	cb.event_nick = ev_nick;
	cb.event_quit = ev_quit;
	cb.event_join = ev_join;
	cb.event_part = ev_part;
	cb.event_kick = ev_kick;
	cb.event_channel = ev_message;
	cb.event_privmsg = ev_message;
	cb.event_notice = ev_message;
	cb.event_channel_notice = ev_message;
	cb.event_invite = ev_invite;
	cb.event_ctcp_req = ev_ctcp_request;  /* set, so libircclient's own CTCP replies stay off */
	cb.event_ctcp_rep = ev_ignore;
	cb.event_ctcp_action = ev_action;
	cb.event_numeric = ev_numeric;
	cb.event_unknown = ev_unknown;
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
	set_self(c, s->nick);
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
		queue_text(c, flags & ADAPTER_NOTICE ? "NOTICE" : "PRIVMSG", room, room, 1, text);
}

static void op_send_private(adapter *a, const char *user, const char *text, int flags)
{
	irc *c = irc_of(a);
	char nick[IRC_FIELD_MAX];
	if (!user || !text)
		return;
	if (!nick_for(c, user, nick, sizeof nick)) {
		LOG(c, "info", "no nick is logged in to %s now; a private line was not sent", user);
		return;
	}
	queue_text(c, (flags & ADAPTER_NOTICE) || c->set.private_notice ? "NOTICE" : "PRIVMSG", nick, user, 0, text);
}

static void op_tag(adapter *a, const adapter_tag *t)
{
	irc *c = irc_of(a);
	c->tagged = t != NULL;
	c->tag_answer = t && t->answer;
	set_str(c->tag_cause, sizeof c->tag_cause, t && t->cause ? t->cause : "");
	set_str(c->tag_key, sizeof c->tag_key, t && t->key ? t->key : "");
	set_str(c->tag_story, sizeof c->tag_story, t && t->story ? t->story : "");
}

static void op_join(adapter *a, const char *room, const char *key)
{
	irc *c = irc_of(a);
	if (!room || !ircline_is_channel(room) || !ircline_is_word(room) || (key && key[0] && !ircline_is_word(key))) {
		LOG(c, "warn", "refusing to join an invalid channel name or key");
		return;
	}
	irc_chan *ch = chan_add(c, room, key && key[0] ? key : NULL); /* keep a configured key */
	if (!ch)
		return;
	ch->wanted = 1;
	ch->tries = 0;
	if (c->registered && !ch->joined && !ch->t_rejoin)
		join_one(c, ch);
}

static void op_part(adapter *a, const char *room, const char *why)
{
	irc *c = irc_of(a);
	irc_chan *ch = room ? chan_find(c, room) : NULL;
	if (!ch)
		return;
	ch->wanted = 0;
	loop_cancel(c->base.ev, ch->t_rejoin);
	ch->t_rejoin = 0;
	if (!c->registered || !ch->joined)
		return;
	char reason[IRC_WHY_MAX], line[IRC_FIELD_MAX + IRC_WHY_MAX + 16];
	clean(why, reason, sizeof reason);
	/* "PART #c :why" within the line limit, cut on a character boundary. */
	size_t space = IRCLINE_MAX - 2 - 8 - strlen(ch->name), skip;
	size_t k = ircline_split(reason, strlen(reason), space, &skip);
	snprintf(line, sizeof line, "PART %s :%.*s", ch->name, (int)k, reason);
	queue_line(c, line, 0);
	flush(c);
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
	clean(why, reason, sizeof reason);
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
	if (!user || !nick_for(c, user, nick, sizeof nick))
		return 0;
	for (int i = 0; i < IRC_SEEN_MAX; i++)
		if (c->seen[i].nick[0] && !strcasecmp(c->seen[i].nick, nick)) {
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
		irc_chan *ch = chan_find(c, room);
		if (!ch || !ch->joined)
			return 0;
		bit = chan_bit(c, ch);
	}
	size_t plen = strlen(IRC_ACCOUNT_PREFIX);
	int account = !strncmp(user, IRC_ACCOUNT_PREFIX, plen);
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (!p->nick[0] || !(bit ? p->chans & bit : p->chans))
			continue;
		if (account ? p->account[0] && !casemap_cmp(p->account, user + plen)
			    : !p->account[0] && !casemap_cmp(p->nick, user))
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

static const adapter_ops irc_ops = {
	.kind = "irc",
	.start = op_start,
	.send_room = op_send_room,
	.send_private = op_send_private,
	.tag = op_tag,
	.join = op_join,
	.part = op_part,
	.stop = op_stop,
	.self = op_self,
	.origin = op_origin,
	.present = op_present,
	.vouched = op_vouched,
	.free = op_free,
};

adapter *irc_adapter_new(loop *ev, const adapter_host *host, const char *name, const irc_settings *s)
{
	const char *net = name && name[0] ? name : "irc";
	if (!s->server[0] || s->port <= 0 || s->port > 65535) {
		ircline_log(net, "error", "no server, or a port outside 1-65535");
		return NULL;
	}
	if (!ircline_is_word(s->nick) || ircline_is_channel(s->nick) || (s->username[0] && !ircline_is_word(s->username))) {
		ircline_log(net, "error", "the nick or user name is not valid on IRC");
		return NULL;
	}
	if (s->nchannels < 0 || s->nchannels > IRC_CHANNELS_MAX) {
		ircline_log(net, "error", "channel count out of range");
		return NULL;
	}
	for (int i = 0; i < s->nchannels; i++)
		if (!ircline_is_channel(s->channels[i].name) || !ircline_is_word(s->channels[i].name) ||
		    (s->channels[i].key[0] && !ircline_is_word(s->channels[i].key))) {
			ircline_log(net, "error", "channel %d: not a valid channel name or key", i + 1);
			return NULL;
		}
	irc *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->people = calloc(IRC_PEOPLE_MAX, sizeof *c->people);
	c->q = sendq_new(casemap_cmp);
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
		irc_chan *ch = chan_add(c, s->channels[i].name, s->channels[i].key);
		if (ch)
			ch->wanted = 1;
	}
	set_self(c, c->set.nick);
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
