/* bot.c: the host: turns what the networks report into commands for tables, and tables' words into sends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "ai_worker.h"
#include "bot.h"
#include "log.h"
#include "pack.h"
#include "present.h"
#include "render.h"
#include "text.h"
#include "text_lang.h"
#include "utf8.h"

#define CMD_ARGS_MAX 12      /* words in one command: caps names at most 8 cards */
#define CMD_WORD_MAX 64      /* a longer word is cut */

/* ---- the tables' host (table.h's table_host) ---- */

static void th_settings_for(void *ctx, adapter *net, const char *room, table_settings *out)
{
	bot *b = ctx;
	*out = b->defaults;
	if (b->settings_for)
		b->settings_for(b->settings_ctx, net, room, out);
}

static store *th_db(void *ctx) { return ((bot *)ctx)->db; }

static struct ai_worker *th_ai(void *ctx, int make)
{
	bot *b = ctx;
	if (!b->ai && make)
		b->ai = ai_worker_new(b->ev);
	return b->ai;
}

static void th_say_room(void *ctx, adapter *net, const char *room, const char *text, int flags)
{
	bot_say_room(ctx, net, room, text, flags);
}

static void th_say_private(void *ctx, adapter *net, const char *user, const char *text, int flags)
{
	bot_say_private(ctx, net, user, text, flags);
}

static void th_say_story(void *ctx, adapter *net, const char *room, const char *user, const char *text, int flags)
{
	bot_say_story(ctx, net, room, user, text, flags);
}

static void th_send(void *ctx, adapter *net, const char *room, const char *user, const char *story,
		    const char *const *parts, int nparts, const char *mention, int flags)
{
	bot_send(ctx, net, room, user, story, parts, nparts, mention, flags);
}

static void th_answering(void *ctx, const char *key, int how) { bot_answering_as(ctx, key, how); }

static const text_lang *th_lang_of(void *ctx, const adapter *net, const char *user)
{
	return bot_lang_of(ctx, net, user);
}

static const text_lang *th_lang_private(void *ctx, const adapter *net, const char *user)
{
	return bot_lang_private(ctx, net, user);
}

static int th_private_of(void *ctx, const adapter *net, const char *user) { return bot_private_of(ctx, net, user); }
static int th_private_told(void *ctx, const adapter *net, const char *user) { return bot_private_told(ctx, net, user); }

static void th_lang_command(void *ctx, adapter *net, const char *user, const text_lang *room, int argc, char **argv)
{
	bot_lang_command(ctx, net, user, room, argc, argv);
}

static void th_private_command(void *ctx, adapter *net, const char *user, const text_lang *room, int argc,
			       char **argv)
{
	bot_private_command(ctx, net, user, room, argc, argv);
}

static int th_is_operator(void *ctx, adapter *net, const char *user) { return bot_is_operator(ctx, net, user); }
static void th_close(void *ctx, table *t) { bot_close_table(ctx, t); }

static void table_host_init(bot *b)
{
	b->thost = (table_host){
		.ctx = b,
		.ev = b->ev,
		.prefix = b->prefix,
		.public_dir = b->public_dir,
		.public_url = b->public_url,
		.settings_for = th_settings_for,
		.db = th_db,
		.ai = th_ai,
		.say_room = th_say_room,
		.say_private = th_say_private,
		.say_story = th_say_story,
		.send = th_send,
		.answering = th_answering,
		.lang_of = th_lang_of,
		.lang_private = th_lang_private,
		.private_of = th_private_of,
		.private_told = th_private_told,
		.lang_command = th_lang_command,
		.private_command = th_private_command,
		.is_operator = th_is_operator,
		.close = th_close,
	};
}

bot *bot_new(loop *ev, const table_settings *defaults, const char *prefix)
{
	bot *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->ev = ev;
	b->defaults = *defaults;
	snprintf(b->prefix, sizeof b->prefix, "%s", prefix && *prefix ? prefix : "!");
	text_prefix_set(b->prefix);
	b->cmd_burst = BOT_CMD_BURST;
	b->cmd_per_second = BOT_CMD_PER_SECOND;
	table_host_init(b);
	return b;
}

void bot_free(bot *b)
{
	if (!b)
		return;
	if (b->reap_timer)
		loop_cancel(b->ev, b->reap_timer);
	for (int i = 0; i < b->ntables; i++)
		table_free(b->tables[i]);
	ai_worker_free(b->ai);
	for (int i = 0; i < b->nnets; i++)
		b->nets[i]->ops->free(b->nets[i]);
	free(b);
}

int bot_add_network(bot *b, adapter *a)
{
	if (b->nnets >= BOT_NETWORKS_MAX)
		return -1;
	b->nets[b->nnets++] = a;
	return 0;
}

/* Operators are masks matched against the origin the network reports
 * ("nick!user@host" on IRC), or against the nick alone when the mask has
 * no '!' (the user id; for a logged-in user, the nick in the origin).
 * "account:NAME" entries match a user the network vouches for as logged in
 * to that services account: the IRC adapter names such a user
 * "account:NAME" (adapter.h), which no nick or Matrix id can be; the name
 * is compared as the network compares names (adapter_same_user: the IRC
 * server's CASEMAPPING), and masks are matched so too (adapter_match). */
int bot_is_operator(const bot *b, adapter *net, const char *user)
{
	char origin[ADAPTER_ID_MAX] = "", nick[ADAPTER_ID_MAX];
	if (net && net->ops->origin)
		net->ops->origin(net, user, origin, sizeof origin);
	int account = !strncmp(user, "account:", 8);
	snprintf(nick, sizeof nick, "%s", account ? origin : user);
	if (account)
		nick[strcspn(nick, "!")] = '\0';
	for (int i = 0; i < b->noperators; i++) {
		const char *m = b->operators[i];
		if (!strncasecmp(m, "account:", 8)) {
			char id[ADAPTER_ID_MAX];
			snprintf(id, sizeof id, "account:%s", m + 8);
			if (account && m[8] && adapter_same_user(net, id, user))
				return 1;
			continue;
		}
		if (strchr(m, '!') ? (origin[0] && adapter_match(net, m, origin)) : (nick[0] && adapter_match(net, m, nick)))
			return 1;
	}
	return 0;
}

/* The language a line is written in, from its letters: Tamil (U+0B80 to
 * U+0BFF, UTF-8 E0 AE/AF xx), Sinhala (U+0D80 to U+0DFF, E0 B6/B7 xx),
 * else English. Every Tamil or Sinhala line holds such letters. */
static const text_lang *line_lang(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (p[0] == 0xE0 && (p[1] == 0xAE || p[1] == 0xAF))
			return &text_lang_ta;
		if (p[0] == 0xE0 && (p[1] == 0xB6 || p[1] == 0xB7))
			return &text_lang_si;
	}
	return &text_lang_en;
}

/* The texts say "/msg me CMD" where a command must go privately; each
 * network says how its people do that ("/msg cardbot CMD" on IRC, where
 * "/msg me" would go to someone called "me"; the direct room on Matrix,
 * in the words of the line's own language; "CMD" alone in the terminal,
 * where everything typed is private). */
static const char *private_hint(adapter *net, const char *text, char *buf, size_t len)
{
	static const char marker[] = "/msg me ";
	if (!strstr(text, marker))
		return text;
	char how[ADAPTER_ID_MAX + 32];
	int kind = ADAPTER_HOW_WORDS;
	if (net->ops->private_how)
		kind = net->ops->private_how(net, how, sizeof how);
	else
		snprintf(how, sizeof how, "/msg %s ", net->ops->self ? net->ops->self(net) : "me");
	if (kind == ADAPTER_HOW_DIRECT_ROOM)
		text_fmt_in(line_lang(text), how, sizeof how, T_VIA_DIRECT_ROOM, 0, NULL);
	else if (kind == ADAPTER_HOW_TYPED)
		how[0] = '\0';
	strbuf out;
	sb_init(&out, buf, len);
	const char *p = text;
	for (const char *q; (q = strstr(p, marker)); p = q + strlen(marker)) {
		sb_addn(&out, p, (size_t)(q - p));
		sb_add(&out, how);
	}
	sb_add(&out, p);
	return buf;
}

/* Tells the network whose doing the next line is (on), or that the tag is over. */
static void tag_send(bot *b, adapter *net, int on, const char *story)
{
	if (!net->ops->tag)
		return;
	if (on && net == b->tag_net) {
		adapter_tag t = { .cause = b->tag_cause, .key = b->tag_key[0] ? b->tag_key : NULL,
				  .answer = b->tag_answer, .story = story, .replaces = b->tag_replaces,
				  .event = b->tag_event, .whole = b->tag_whole };
		net->ops->tag(net, &t);
	} else if (on && story) {
		adapter_tag t = { .story = story };
		net->ops->tag(net, &t);
	} else {
		net->ops->tag(net, NULL);
	}
}

static int muted(const bot *b, const adapter *net)
{
	return b->tag_mute && net == b->tag_net;
}

/* Where a network packs no parts itself: lines of at most this many bytes. */
#define PACKED_LINE_MAX 380
#define PARTS_MAX 64

struct packed {
	adapter *net;
	const char *room, *user;
	int flags;
};

static void packed_line(void *ctx, const char *text)
{
	struct packed *p = ctx;
	if (p->room)
		p->net->ops->send_room(p->net, p->room, text, p->flags);
	else
		p->net->ops->send_private(p->net, p->user, text, p->flags);
}

void bot_send(bot *b, adapter *net, const char *room, const char *user, const char *story,
	      const char *const *parts, int nparts, const char *mention, int flags)
{
	if (muted(b, net) || nparts <= 0)
		return;
	if (nparts > PARTS_MAX)
		nparts = PARTS_MAX;
	if (!room && user)
		flags |= bot_private_of(b, net, user); /* as the person chose (!private) */
	static char bufs[PARTS_MAX][ADAPTER_TEXT_MAX];
	const char *shown[PARTS_MAX];
	for (int i = 0; i < nparts; i++)
		shown[i] = private_hint(net, parts[i], bufs[i], sizeof bufs[i]);
	tag_send(b, net, 1, story);
	if (net->ops->send) {
		adapter_msg m = { shown, nparts, mention, flags };
		net->ops->send(net, room, room ? NULL : user, &m);
	} else {
		struct packed p = { net, room, user, flags };
		pack_parts(shown, nparts, ADAPTER_PART_SEP, PACKED_LINE_MAX, packed_line, &p);
	}
	tag_send(b, net, 0, NULL);
}

void bot_say_room(bot *b, adapter *net, const char *room, const char *text, int flags)
{
	bot_send(b, net, room, NULL, NULL, &text, 1, NULL, flags);
}

void bot_say_story(bot *b, adapter *net, const char *room, const char *user, const char *text, int flags)
{
	bot_send(b, net, NULL, user, room, &text, 1, NULL, flags);
}

void bot_say_private(bot *b, adapter *net, const char *user, const char *text, int flags)
{
	bot_send(b, net, NULL, user, NULL, &text, 1, NULL, flags);
}

/* An event from `user` is being handled: what is said is their doing. */
static void tag_begin(bot *b, adapter *net, const char *user, int answer, int mute)
{
	b->tag_net = net;
	snprintf(b->tag_cause, sizeof b->tag_cause, "%s", user);
	b->tag_key[0] = '\0';
	b->tag_answer = answer;
	b->tag_mute = mute;
	b->tag_replaces = b->tag_whole = 0;
	if (!++b->tag_event)
		b->tag_event = 1; /* 0 means "no event" to the adapter */
}

static void tag_end(bot *b)
{
	b->tag_net = NULL;
	b->tag_cause[0] = b->tag_key[0] = '\0';
	b->tag_answer = b->tag_mute = b->tag_replaces = b->tag_whole = 0;
}

void bot_answering(bot *b, const char *key)
{
	if (!b->tag_net)
		return;
	b->tag_answer = 1;
	snprintf(b->tag_key, sizeof b->tag_key, "%s", key ? key : "");
}

void bot_answering_as(bot *b, const char *key, int how)
{
	if (!b->tag_net)
		return;
	bot_answering(b, key);
	b->tag_replaces = how == BOT_ANSWER_REPLACES;
	b->tag_whole = how == BOT_ANSWER_WHOLE;
}

/* ---- tables ---- */

static table *find_table(bot *b, adapter *net, const char *room)
{
	for (int i = 0; i < b->ntables; i++)
		if (b->tables[i]->net == net && !b->tables[i]->closing && adapter_same_room(net, b->tables[i]->room, room))
			return b->tables[i];
	return NULL;
}

/* Tables are freed here, outside any callback that might still use them. */
static void reap(void *ctx)
{
	bot *b = ctx;
	b->reap_timer = 0;
	for (int i = 0; i < b->ntables;) {
		if (b->tables[i]->closing) {
			table_free(b->tables[i]);
			b->tables[i] = b->tables[--b->ntables];
		} else {
			i++;
		}
	}
}

void bot_close_table(bot *b, table *t)
{
	if (b->db && !t->closing && store_table_delete(b->db, t->net->name, t->room) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
	t->closing = 1;
	if (!b->reap_timer)
		b->reap_timer = loop_timer(b->ev, 0, reap, b);
}

/* ---- commands ---- */

/* Splits text into words in place. Spaces, tabs and every other control
 * character (line breaks, IRC formatting such as colour codes, with a
 * colour code's numbers) end a word: nothing a user typed can be echoed as
 * formatting, and "bid<TAB>x" is two words, never "bidx". */
static int split_words(char *text, char **argv)
{
	for (unsigned char *r = (unsigned char *)text; *r; r++) {
		if (*r == 0x03) { /* mIRC colour: \x03 then up to two digits [, two digits] */
			*r = ' ';
			for (int i = 0; i < 2 && r[1] >= '0' && r[1] <= '9'; i++)
				*++r = ' ';
			if (r[1] == ',' && r[2] >= '0' && r[2] <= '9') {
				*++r = ' ';
				for (int i = 0; i < 2 && r[1] >= '0' && r[1] <= '9'; i++)
					*++r = ' ';
			}
		} else if (*r < 0x20 || *r == 0x7f) {
			*r = ' ';
		}
	}
	int argc = 0;
	for (char *p = text; *p && argc < CMD_ARGS_MAX;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		argv[argc++] = p;
		char *end = p;
		while (*end && *end != ' ')
			end++;
		if (end - p > CMD_WORD_MAX) {
			/* Cut at a character boundary, never inside a UTF-8 sequence. */
			size_t cut = CMD_WORD_MAX;
			while (cut > 0 && ((unsigned char)p[cut] & 0xc0) == 0x80)
				cut--;
			p[cut] = '\0';
		}
		if (*end)
			*end++ = '\0';
		p = end;
	}
	return argc;
}

/* A user's bucket, or NULL. */
static user_bucket *bucket_find(bot *b, adapter *net, const char *user)
{
	for (int i = 0; i < BOT_USERS_MAX; i++)
		if (b->users[i].net == net && adapter_same_user(net, b->users[i].user, user))
			return &b->users[i];
	return NULL;
}

/* Adds what the time since *at refilled, up to the burst. */
static void refill(const bot *b, double *tokens, int64_t *at, int64_t now)
{
	*tokens += (double)(now - *at) / 1000.0 * b->cmd_per_second;
	if (*tokens > b->cmd_burst)
		*tokens = b->cmd_burst;
	*at = now;
}

/* A token bucket per user: a burst, then a steady rate; the rest is
 * ignored. Commands take from one; `presence` (arrivals, departures,
 * nick changes, CTCP requests) from the other, of the same size.
 * `notify`: say "slow down" (once) when the bucket is empty. */
static int rate_take(bot *b, adapter *net, const char *user, int notify, int presence)
{
	int64_t now = loop_now();
	user_bucket *u = bucket_find(b, net, user), *oldest = &b->users[0];
	for (int i = 0; !u && i < BOT_USERS_MAX; i++) {
		const user_bucket *x = &b->users[i];
		if ((x->last > x->plast ? x->last : x->plast) < (oldest->last > oldest->plast ? oldest->last : oldest->plast))
			oldest = &b->users[i];
	}
	if (!u) {
		u = oldest;
		memset(u, 0, sizeof *u);
		snprintf(u->user, sizeof u->user, "%s", user);
		u->net = net;
		u->tokens = u->ptokens = b->cmd_burst;
		u->last = u->plast = now;
	}
	double *tokens = presence ? &u->ptokens : &u->tokens;
	refill(b, tokens, presence ? &u->plast : &u->last, now);
	if (*tokens < 1.0) {
		if (!u->warned && notify) {
			u->warned = 1;
			char buf[512];
			text_fmt_in(bot_lang_private(b, net, user), buf, sizeof buf, T_RATE_LIMITED, 0, NULL);
			bot_say_private(b, net, user, buf, ADAPTER_NOTICE);
		}
		return 0;
	}
	*tokens -= 1.0;
	if (!presence)
		u->warned = 0;
	return 1;
}

static int rate_ok(bot *b, adapter *net, const char *user)
{
	return rate_take(b, net, user, 1, 0);
}

/* A nick change: the limit follows the person (a new nick is no fresh
 * allowance); were there a bucket for the new name too, the emptier stays. */
static void rate_rename(bot *b, adapter *net, const char *old_user, const char *new_user)
{
	user_bucket *o = bucket_find(b, net, old_user);
	if (!o || adapter_same_user(net, old_user, new_user))
		return;
	user_bucket *n = bucket_find(b, net, new_user);
	if (n) {
		int64_t now = loop_now();
		refill(b, &o->tokens, &o->last, now);
		refill(b, &n->tokens, &n->last, now);
		refill(b, &o->ptokens, &o->plast, now);
		refill(b, &n->ptokens, &n->plast, now);
		if (o->tokens < n->tokens)
			n->tokens = o->tokens;
		if (o->ptokens < n->ptokens)
			n->ptokens = o->ptokens;
		n->warned |= o->warned;
		memset(o, 0, sizeof *o);
		return;
	}
	snprintf(o->user, sizeof o->user, "%s", new_user);
}

static void say_private_id(bot *b, adapter *net, const char *user, int id, const char *a1, const char *a2)
{
	char buf[1024];
	const char *args[3] = { b->prefix, a1 ? a1 : "", a2 ? a2 : "" };
	text_fmt_in(bot_lang_private(b, net, user), buf, sizeof buf, id, 3, args);
	bot_say_private(b, net, user, buf, ADAPTER_NOTICE);
}

/* "help" at no table: the command list needs a table for nothing. */
static int is_word(const char *w, const char *a, const char *b2)
{
	return !strcasecmp(w, a) || (b2 && !strcasecmp(w, b2));
}

/* Does word open a table: "new", or a game's own word for it (present.open_verb)? */
static int is_open_word(const char *w)
{
	return !strcasecmp(w, "new") || present_by_verb(w);
}

/* "!304", "!new", "!new GAME [PLAYERS]": opens a table for the game, or
 * (an open table being there) changes its game between matches. */
static int open_table(bot *b, adapter *net, const char *room, const char *user, const char *name, int argc,
		      char **argv, int full)
{
	table *t = find_table(b, net, room);
	if (t) {
		if (argc > 1 && !strcasecmp(argv[0], "new"))
			table_command(t, user, name, 1, argc, argv);
		else
			say_private_id(b, net, user, T_TABLE_EXISTS, NULL, NULL);
		return -1;
	}
	table_settings set = b->defaults;
	if (b->settings_for)
		b->settings_for(b->settings_ctx, net, room, &set);
	/* A game's own word opens it ("!304"); "!new" alone the configured game. */
	const present *by_verb = present_by_verb(argv[0]);
	const char *gname = argc > 1 && !strcasecmp(argv[0], "new") ? argv[1]
			    : by_verb ? by_verb->def->name : set.game[0] ? set.game : present_at(0)->def->name;
	int nseats = 0;
	if (argc > 2) {
		char *end;
		long v = strtol(argv[2], &end, 10);
		nseats = *end || v < 1 || v > TABLE_SEATS ? -1 : (int)v;
	}
	const game_def *def = game_find(table_game_word(gname, nseats));
	if (!def || argc > 3 || nseats < 0 || (nseats && (nseats < def->min_seats || nseats > def->max_seats))) {
		char buf[1024], games[1024];
		const text_lang *l = bot_lang_private(b, net, user);
		present_parts(l, PRESENT_PART_NEW_REFUSED, b->prefix, games, sizeof games);
		const char *args[2] = { room, games };
		text_fmt_in(l, buf, sizeof buf, T_G_NEW_USAGE, 2, args);
		bot_say_private(b, net, user, buf, ADAPTER_NOTICE);
		return -1;
	}
	if (b->ntables >= BOT_TABLES_MAX) {
		say_private_id(b, net, user, T_ERROR, text_line(bot_lang_private(b, net, user), T_ERR_TOO_MANY_TABLES), NULL);
		return -1;
	}
	t = table_new(&b->thost, net, room, &set);
	if (!t) {
		say_private_id(b, net, user, T_ERROR, text_line(bot_lang_private(b, net, user), T_ERR_MEMORY), NULL);
		return -1;
	}
	b->tables[b->ntables++] = t;
	table_set_game(t, def->name, nseats);
	/* The channel's remembered choices first, its language among them, so
	 * the opening line is in the room's words (what they were is announced
	 * after it: announcements go when the table flushes). */
	table_recall_settings(t);
	char buf[1024], gword[64];
	const char *args[3] = { b->prefix, table_room_shown(t), table_game_shown(table_lang(t), gword, sizeof gword, def->name) };
	text_fmt_in(table_lang(t), buf, sizeof buf, full ? T_TABLE_OPENED_FULL : T_TABLE_OPENED, 3, args);
	bot_say_room(b, net, room, buf, ADAPTER_NOTICE);
	char *sit[1] = { "sit" };
	table_command(t, user, name, 1, 1, sit);
	table_notify_opened(t, user);
	if (full)
		table_fill_and_start(t, user, name);
	return 0;
}

/* A display name as rooms will read it: control characters (line breaks,
 * colour codes) and bidirectional overrides dropped, so that nobody can
 * forge a line of the bot's with a name like "x\nalice wins" or turn the
 * rest of a line around, cut at a character boundary; the user id when
 * nothing is left. (Found by tests/fuzz/fuzz_command.c.) */
static const char *clean_name(const char *name, const char *user, char out[ADAPTER_ID_MAX])
{
	size_t n = 0;
	const char *c = name ? name : "";
	for (; *c && n < ADAPTER_ID_MAX - 1; c++)
		if ((unsigned char)*c >= 0x20 && *c != 0x7f)
			out[n++] = *c;
	if (*c) { /* cut short: drop the last character, which may be incomplete */
		while (n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0x80)
			n--;
		if (n > 0 && (unsigned char)out[n - 1] >= 0xc0)
			n--;
	}
	out[n] = '\0';
	n = utf8_strip_bidi(out); /* a Matrix or console display name may carry them */
	if (!n && user && user != name)
		return clean_name(user, NULL, out);
	return out;
}

/* "!x:y" (no space before the colon): a Matrix room id. */
static int looks_like_room_id(const char *w)
{
	if (w[0] != '!')
		return 0;
	size_t n = strcspn(w, " \t");
	const char *colon = memchr(w, ':', n);
	return colon && colon > w + 1 && colon < w + n - 1;
}

static void handle_message(bot *b, adapter *net, const char *room, const char *user, const char *name,
			   const char *text)
{
	char shown_name[ADAPTER_ID_MAX];
	name = clean_name(name, user, shown_name);
	char buf[ADAPTER_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", text);
	char *line = buf;
	size_t plen = strlen(b->prefix);
	if (room) {
		table *t = find_table(b, net, room);
		if (t)
			table_user_seen(t, user);
		if (strncmp(line, b->prefix, plen) != 0)
			return; /* ordinary conversation */
		line += plen;
	} else if (!strncmp(line, b->prefix, plen) && !looks_like_room_id(line)) {
		/* A Matrix room id ("!abc:server") names a table; it is not a prefixed command. */
		line += plen;
	}
	char *argv[CMD_ARGS_MAX];
	int argc = split_words(line, argv);
	if (argc == 0)
		return;
	if (!rate_ok(b, net, user))
		return;
	if (is_word(argv[0], "lang", NULL) || is_word(argv[0], "private", NULL)) {
		/* A person's own choice, with or without a table. */
		table *at = room ? find_table(b, net, room) : NULL;
		if (is_word(argv[0], "lang", NULL))
			bot_lang_command(b, net, user, at ? table_lang(at) : NULL, argc, argv);
		else
			bot_private_command(b, net, user, at ? table_lang(at) : NULL, argc, argv);
		return;
	}
	if (room) {
		if (is_open_word(argv[0])) {
			open_table(b, net, room, user, name, argc, argv, b->solo);
			return;
		}
		table *t = find_table(b, net, room);
		if (!t) {
			/* A newcomer's first words: each of ours is answered. */
			table_no_table(&b->thost, net, room, user, name, 1, argc, argv);
			return;
		}
		table_command(t, user, name, 1, argc, argv);
		return;
	}
	/* Private: "#channel command ..." names the table; else the one table
	 * the user sits at. */
	table *t = NULL;
	if (adapter_is_room(net, argv[0])) {
		t = find_table(b, net, argv[0]);
		/* or by the name the lines show (a Matrix room's alias) */
		for (int i = 0; !t && i < b->ntables; i++)
			if (b->tables[i]->net == net && !b->tables[i]->closing
			    && adapter_same_room(net, table_room_shown(b->tables[i]), argv[0]))
				t = b->tables[i];
		if (argc < 2) {
			/* The room as they typed it, which is one word of theirs. */
			say_private_id(b, net, user, t ? T_PRIVATE_USAGE : T_NO_TABLE, argv[0], NULL);
			return;
		}
		char room_typed[ADAPTER_ID_MAX];
		snprintf(room_typed, sizeof room_typed, "%s", argv[0]);
		argc--;
		memmove(argv, argv + 1, (size_t)argc * sizeof argv[0]);
		if (argv[0][0] && !strncmp(argv[0], b->prefix, plen))
			argv[0] += plen;
		if (!t) {
			table_no_table(&b->thost, net, room_typed, user, name, 0, argc, argv);
			return;
		}
	} else {
		char rooms[512] = "", example[ADAPTER_ID_MAX] = "";
		int found = 0;
		for (int i = 0; i < b->ntables; i++)
			if (b->tables[i]->net == net && !b->tables[i]->closing && table_seat_of(b->tables[i], user) >= 0) {
				if (!found)
					t = b->tables[i];
				found++;
				/* Each as the lines name it, with the short handle the
				 * network offers for typing it (a Matrix room's number). */
				char ref[32] = "";
				if (!net->ops->room_ref || !net->ops->room_ref(net, b->tables[i]->room, ref, sizeof ref))
					ref[0] = '\0';
				const char *shown = table_room_shown(b->tables[i]);
				size_t l = strlen(rooms);
				snprintf(rooms + l, sizeof rooms - l, "%s%s%s%s", l ? ", " : "", ref, ref[0] ? ": " : "", shown);
				if (found == 1)
					snprintf(example, sizeof example, "%s", ref[0] ? ref : shown);
			}
		if (found > 1) {
			say_private_id(b, net, user, T_WHICH_TABLE, rooms, example);
			return;
		}
		/* At no table: the network may know the room they mean (the
		 * terminal's one table), where they may open one too. */
		char home[ADAPTER_ID_MAX];
		if (!t && net->ops->home_room && net->ops->home_room(net, user, home, sizeof home)) {
			if (is_open_word(argv[0])) {
				open_table(b, net, home, user, name, argc, argv, b->solo);
				return;
			}
			t = find_table(b, net, home);
			if (!t) {
				table_no_table(&b->thost, net, home, user, name, 0, argc, argv);
				return;
			}
		}
		if (!t) {
			table_no_table(&b->thost, net, NULL, user, name, 0, argc, argv);
			return;
		}
	}
	table_command(t, user, name, 0, argc, argv);
}

static void on_message(void *ctx, adapter *net, const char *room, const char *user, const char *name, const char *text,
		       int flags)
{
	bot *b = ctx;
	if (flags & ADAPTER_NOTICE)
		return; /* never answer a notice: that is how bots loop */
	tag_begin(b, net, user, 0, 0);
	handle_message(b, net, room, user, name, text);
	tag_end(b);
}

/* Arrivals, departures and nick changes count against the person (an
 * allowance like that for commands, apart from it), but they happen
 * whatever the bot thinks: past the limit the
 * tables still follow them, silently (nothing announced, no hand re-sent;
 * `!table` and `!hand` tell the truth). What they do say answers that
 * person (their coming or going), so it waits behind nobody else's game. */
static void presence_begin(bot *b, adapter *net, const char *user)
{
	int ok = rate_take(b, net, user, 0, 1);
	tag_begin(b, net, user, 1, !ok);
}

static void on_joined(void *ctx, adapter *net, const char *room, const char *user, const char *name)
{
	(void)name;
	bot *b = ctx;
	table *t = find_table(b, net, room);
	presence_begin(b, net, user);
	if (t)
		table_user_seen(t, user);
	tag_end(b);
}

static void on_left(void *ctx, adapter *net, const char *room, const char *user, const char *why)
{
	(void)why;
	bot *b = ctx;
	presence_begin(b, net, user);
	for (int i = 0; i < b->ntables; i++) {
		table *t = b->tables[i];
		if (t->net == net && !t->closing && (!room || adapter_same_room(net, t->room, room)))
			table_user_left(t, user);
	}
	tag_end(b);
}

static void on_renamed(void *ctx, adapter *net, const char *old_user, const char *new_user, const char *new_name)
{
	bot *b = ctx;
	char shown_name[ADAPTER_ID_MAX];
	new_name = clean_name(new_name, new_user, shown_name);
	rate_rename(b, net, old_user, new_user);
	bot_lang_renamed(b, net, old_user, new_user);
	presence_begin(b, net, new_user);
	for (int i = 0; i < b->ntables; i++)
		if (b->tables[i]->net == net && !b->tables[i]->closing)
			table_user_renamed(b->tables[i], old_user, new_user, new_name);
	tag_end(b);
}

/* The adapter answers something by itself (CTCP VERSION): a request like any. */
static int on_allow(void *ctx, adapter *net, const char *user)
{
	return rate_take(ctx, net, user, 0, 1);
}

static void on_room_ready(void *ctx, adapter *net, const char *room)
{
	bot *b = ctx;
	table *t = find_table(b, net, room);
	if (t)
		table_resumed(t);
}

static void on_room_lost(void *ctx, adapter *net, const char *room, const char *why)
{
	(void)ctx, (void)net, (void)room, (void)why;
	/* The table waits: when the bot is back in the room it resumes. */
}

static void on_link(void *ctx, adapter *net, int up, const char *why)
{
	bot *b = ctx;
	log_msg(LOG_INFO, NULL, "network %s is %s%s%s", net->name, up ? "up" : "down", why && *why ? ": " : "",
		why ? why : "");
	/* Disconnected, the bot cannot see who takes a nick meanwhile. */
	for (int i = 0; !up && i < b->ntables; i++)
		if (b->tables[i]->net == net && !b->tables[i]->closing)
			table_link_lost(b->tables[i]);
}

static int state_get(void *ctx, adapter *net, const char *key, char *out, size_t len)
{
	bot *b = ctx;
	if (!b->db)
		return 0;
	return store_state_get(b->db, net->name, key, out, len) == 1;
}

static int state_set(void *ctx, adapter *net, const char *key, const char *value)
{
	bot *b = ctx;
	if (!b->db)
		return -1;
	if (store_state_set(b->db, net->name, key, value) < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
		return -1;
	}
	return 0;
}

struct restore_ctx {
	bot *b;
	int n, failed;
};

static void restore_one(void *ctx, const char *netname, const char *room, const char *meta, int64_t match_id)
{
	struct restore_ctx *rc = ctx;
	bot *b = rc->b;
	adapter *net = NULL;
	for (int i = 0; i < b->nnets; i++)
		if (!strcmp(b->nets[i]->name, netname))
			net = b->nets[i];
	if (!net) {
		log_msg(LOG_WARN, NULL, "a table in %s on network %s is kept in the database, but that network is no "
				"longer configured", room, netname);
		return;
	}
	if (find_table(b, net, room) || b->ntables >= BOT_TABLES_MAX)
		return;
	table_settings set = b->defaults;
	if (b->settings_for)
		b->settings_for(b->settings_ctx, net, room, &set);
	table *t = table_new(&b->thost, net, room, &set);
	if (!t) {
		rc->failed++;
		return;
	}
	char err[512];
	if (table_restore(t, meta, match_id, err, sizeof err) < 0) {
		log_msg(LOG_ERROR, NULL, "the table in %s on %s could not be restored: %s; it starts afresh", room,
			netname, err);
		rc->failed++;
	}
	b->tables[b->ntables++] = t;
	rc->n++;
	/* Rooms the bot followed an invitation into are not in the
	 * configuration: go back to them. */
	net->ops->join(net, room, NULL);
}

int bot_restore(bot *b)
{
	if (!b->db)
		return 0;
	struct restore_ctx rc = { b, 0, 0 };
	if (store_tables_each(b->db, restore_one, &rc) < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
		return -1;
	}
	return rc.n;
}

void bot_check_store(bot *b)
{
	if (!b->db)
		return;
	/* A rewrite is an event, told every time; a lost or replaced file is a
	 * state, told when it begins. */
	int now = store_check(b->db), was = b->db_file;
	b->db_file = now == STORE_FILE_REWRITTEN ? STORE_FILE_OK : now;
	if (now == STORE_FILE_OK || now == was)
		return;
	/* Loud: the operator must know, and so must the players, whose
	 * games a restart would otherwise lose. */
	log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
	int id = now == STORE_FILE_REWRITTEN ? T_DB_REWRITTEN : now == STORE_FILE_LOST ? T_DB_LOST : T_DB_REPLACED;
	char buf[1024];
	for (int i = 0; i < b->ntables; i++)
		if (!b->tables[i]->closing) {
			text_fmt_in(table_lang(b->tables[i]), buf, sizeof buf, id, 0, NULL);
			bot_say_room(b, b->tables[i]->net, b->tables[i]->room, buf, ADAPTER_NOTICE);
		}
}

/* adapter_host.words: a line the adapter says by itself, in the room's
 * language (its table's, else the room's configured one). */
static int on_words(void *ctx, adapter *net, const char *room, int what, const char *name, char *out, size_t len)
{
	bot *b = ctx;
	static const int ids[] = {
		[ADAPTER_W_ASK_JOIN] = T_NET_ASK_JOIN, [ADAPTER_W_SLOW] = T_NET_SLOW,
		[ADAPTER_W_ENCRYPTED_OFF] = T_NET_ENCRYPTED_OFF, [ADAPTER_W_UNREADABLE] = T_NET_UNREADABLE,
		[ADAPTER_W_DROPPED] = T_NET_DROPPED, [ADAPTER_W_BUSY] = T_NET_BUSY_ROOM,
	};
	if (what < 0 || (size_t)what >= sizeof ids / sizeof ids[0]
	    || (!room && what != ADAPTER_W_DROPPED && what != ADAPTER_W_BUSY))
		return 0;
	int id = !room && what == ADAPTER_W_BUSY ? T_NET_BUSY_PRIVATE : ids[what];
	const text_lang *lang;
	table *t = room ? find_table(b, net, room) : NULL;
	if (!room) {
		lang = bot_lang_private(b, net, name ? name : ""); /* a private line: name is the user */
	} else if (t) {
		lang = table_lang(t);
	} else {
		table_settings set = b->defaults;
		if (b->settings_for)
			b->settings_for(b->settings_ctx, net, room, &set);
		lang = text_lang_find(set.lang);
		if (!lang)
			lang = &text_lang_en;
	}
	const char *args[2] = { name ? name : "", b->prefix };
	text_fmt_in(lang, out, len, id, 2, args);
	return 1;
}

adapter_host bot_host(bot *b)
{
	adapter_host h = {
		.ctx = b,
		.message = on_message,
		.joined = on_joined,
		.left = on_left,
		.renamed = on_renamed,
		.room_ready = on_room_ready,
		.room_lost = on_room_lost,
		.link = on_link,
		.state_get = state_get,
		.state_set = state_set,
		.allow = on_allow,
		.words = on_words,
	};
	return h;
}

int bot_open_full(bot *b, adapter *net, const char *room, const char *user, const char *gname, int nseats)
{
	char n[16], g[32];
	snprintf(n, sizeof n, "%d", nseats);
	snprintf(g, sizeof g, "%s", gname);
	char *argv[3] = { "new", g, n };
	return open_table(b, net, room, user, user, nseats ? 3 : 2, argv, 1);
}
