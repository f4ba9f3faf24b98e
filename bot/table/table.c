/* table.c: a table in a chat room, for every game: seats and who may take
 * them, the commands players type, and the table's life from opening to
 * !stop. The flow of a match is bot/table/table_play.c's; what a game looks like
 * (its words, its own commands) is its presentation's (bot/games/present.h);
 * what the table says and to whom is bot/table/table_say.c's.
 *
 * Within one deal a person is shown at most one seat's private cards,
 * under every identity they had in it (docs/SECURITY.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include "log.h"
#include "nearest.h"
#include "loop.h"
#include "page.h"
#include "ai_worker.h"
#include "table_int.h"
#include "table_store.h"
#include "utf8.h"


void table_settings_default(table_settings *s)
{
	memset(s, 0, sizeof *s);
	s->pace = PACE_CASUAL;
	s->live_turn_seconds = 60;
	s->casual_remind_seconds = 300;
	s->corr_remind_seconds = 12 * 3600;
	s->grace_seconds = 120;
	s->deal_pause_ms = 4000;
	s->cut_offer_ms = 20000;
	s->turn_nudge_ms = TURN_NUDGE_MS;
	s->computer_delay_ms = 700;
	s->hints = 1;
	snprintf(s->game, sizeof s->game, "%s", present_at(0)->def->name); /* the registry's first */
	snprintf(s->lang, sizeof s->lang, "en");
}

/* Does the network vouch for this identity for good (an account, a Matrix
 * id), or could another person hold it once its holder is gone (a nick)? */
static int vouched(const table *t, const char *user)
{
	return !t->net->ops->vouched || t->net->ops->vouched(t->net, user);
}

/* ---- who has seen which seat's cards in this deal ---- */

/* The deal whose cards are out now (its t->deal_idx, from 1), or 0 when no
 * card is out (between deals, between matches). */
static int cards_out(const table *t)
{
	return table_in_deal(t) ? t->deal_idx : 0;
}

/* The user@host part of the origin the network last saw for `user` ("" when
 * it cannot tell: Matrix, or a nick not heard yet). */
static void userhost_of(const table *t, const char *user, char *out, size_t len)
{
	char o[ADAPTER_ID_MAX] = "";
	out[0] = '\0';
	if (!t->net->ops->origin || !t->net->ops->origin(t->net, user, o, sizeof o))
		return;
	const char *uh = strchr(o, '!');
	if (uh && strchr(uh, '@'))
		snprintf(out, len, "%s", uh + 1);
}

/* The seat whose cards `user` has been shown in this deal, or -1. *sure is
 * 1 when the network's identity says so (an account, or a nick the bot has
 * followed through every rename since), 0 when only a hint does: a nick
 * the bot lost sight of, or the user@host it speaks from, which another
 * person may share (docs/SECURITY.md). */
static int viewer_seat(const table *t, const char *user, int *sure)
{
	int d = cards_out(t), hint = -1;
	*sure = 0;
	for (int i = 0; d && i < t->nviewers; i++) {
		const seat_viewer *v = &t->viewers[i];
		if (v->deal != d || !table_same_user(t, v->user, user))
			continue;
		if (!v->lost) {
			*sure = 1;
			return v->seat;
		}
		hint = v->seat;
	}
	if (!d || hint >= 0)
		return hint;
	char uh[ADAPTER_ID_MAX];
	userhost_of(t, user, uh, sizeof uh);
	for (int i = 0; uh[0] && i < t->nviewers; i++)
		if (t->viewers[i].deal == d && !strcmp(t->viewers[i].origin, uh))
			return t->viewers[i].seat;
	return -1;
}

/* Notes that `user` holds seat s while this deal's cards are out (lost:
 * as a hint only); 0, or -1 when the list is full (the caller then refuses
 * the seat). */
static int viewer_add(table *t, const char *user, int s, int lost)
{
	int d = cards_out(t);
	if (!d || !user[0])
		return 0;
	int n = 0;
	for (int i = 0; i < t->nviewers; i++) /* earlier deals are forgotten */
		if (t->viewers[i].deal == d)
			t->viewers[n++] = t->viewers[i];
	t->nviewers = n;
	for (int i = 0; i < n; i++)
		if (table_same_user(t, t->viewers[i].user, user) && t->viewers[i].seat == s) {
			t->viewers[i].lost &= lost;
			return 0;
		}
	if (n >= TABLE_VIEWERS_MAX)
		return -1;
	seat_viewer *v = &t->viewers[t->nviewers++];
	snprintf(v->user, sizeof v->user, "%s", user);
	userhost_of(t, user, v->origin, sizeof v->origin);
	v->seat = s;
	v->deal = d;
	v->lost = lost;
	return 0;
}

/* The bot lost sight of `user` (NULL: of everyone): a nick is a hint from
 * now on, as someone else may take it. */
static void viewers_lost(table *t, const char *user)
{
	for (int i = 0; i < t->nviewers; i++)
		if ((!user || table_same_user(t, t->viewers[i].user, user)) && !vouched(t, t->viewers[i].user))
			t->viewers[i].lost = 1;
}

void table_viewers_sync(table *t)
{
	if (!cards_out(t)) {
		t->nviewers = 0;
		return;
	}
	for (int s = 0; s < t->nseats; s++)
		if (t->seats[s].user[0] && !t->seats[s].computer && !t->seats[s].unconfirmed)
			viewer_add(t, t->seats[s].user, s, 0);
}

/* After a restart: the viewers kept with the meta are of the deal the match
 * was rebuilt to (older ones are dropped), and whoever held a seat then saw
 * its cards. Nobody knows who holds a nick now. */
static void viewers_restored(table *t)
{
	int d = cards_out(t), n = 0;
	for (int i = 0; i < t->nviewers; i++)
		if (d && t->viewers[i].deal == d && t->viewers[i].seat < t->nseats)
			t->viewers[n++] = t->viewers[i];
	t->nviewers = n;
	for (int s = 0; s < t->nseats; s++)
		if (t->seats[s].user[0] && !t->seats[s].computer)
			viewer_add(t, t->seats[s].user, s, 0);
	viewers_lost(t, NULL);
}

/* The seat to move in whichever game the table plays, or -1. */
/* ---- seating ---- */

table *table_new(const table_host *h, adapter *net, const char *room, const table_settings *set)
{
	table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->host = h;
	t->net = net;
	snprintf(t->room, sizeof t->room, "%s", room);
	t->set = *set;
	t->state = TABLE_OPEN;
	t->pr = present_at(0); /* the first game of the list, until the table says which */
	t->gdef = t->pr->def;
	t->nseats = t->gdef->max_seats;
	t->seen_seat = -1;
	t->nudged_seat = -1;
	t->cut_seat = -1;
	uint64_t seed = 0;
	if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
		seed = (uint64_t)loop_now();
	rng_seed(&t->dice, seed);
	return t;
}

void table_free(table *t)
{
	if (!t)
		return;
	if (t->timer)
		loop_cancel(t->host->ev, t->timer);
	if (t->computer_timer)
		loop_cancel(t->host->ev, t->computer_timer);
	if (t->deal_timer)
		loop_cancel(t->host->ev, t->deal_timer);
	if (t->nudge_timer)
		loop_cancel(t->host->ev, t->nudge_timer);
	if (t->pr->forget)
		t->pr->forget(t);
	ai_worker_cancel_ctx(t->host->ai(t->host->ctx, 0), t); /* a search still thinking for this table */
	game_free(t->g);
	free(t);
}

int table_seat_of(const table *t, const char *user)
{
	for (int s = 0; s < TABLE_SEATS; s++)
		if (!t->seats[s].computer && t->seats[s].user[0] && table_same_user(t, t->seats[s].user, user))
			return s;
	return -1;
}

static int seated_count(const table *t)
{
	int n = 0;
	for (int s = 0; s < t->nseats; s++)
		n += t->seats[s].user[0] != 0;
	return n;
}

/* A nick (which someone else may take once its holder is gone) gets a seat
 * key: told privately, it proves the person when the bot has lost sight of
 * them (a restart, a quit, a nick change outside its channels). */
static void make_key(table *t, int s, const char *user)
{
	static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789"; /* 32: 5 bits a character */
	unsigned char r[TABLE_KEY_LEN];
	seat *x = &t->seats[s];
	x->key[0] = '\0';
	if (vouched(t, user) || getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		return;
	for (int i = 0; i < TABLE_KEY_LEN; i++)
		x->key[i] = alphabet[r[i] & 31];
	x->key[TABLE_KEY_LEN] = '\0';
}

static void tell_key(table *t, int s)
{
	if (t->seats[s].key[0])
		table_tell(t, t->seats[s].user, T_SEAT_KEY, table_room_shown(t), t->seats[s].key, NULL);
}

/* The bot can no longer tell that this nick is the person who sat: the seat
 * waits, away, with its grace, for `claim KEY` (or for someone to take it
 * once the grace is over). */
static void unconfirm(table *t, int s)
{
	seat *x = &t->seats[s];
	if (!x->user[0] || x->computer || vouched(t, x->user))
		return;
	if (!x->away) {
		x->away = 1;
		x->away_since = loop_now();
	}
	if (!x->unconfirmed)
		x->claim_told = 0;   /* told how to claim once each time the bot loses sight */
	x->unconfirmed = 1;
}

static void seat_human(table *t, int s, const char *user, const char *name)
{
	snprintf(t->seats[s].user, sizeof t->seats[s].user, "%s", user);
	snprintf(t->seats[s].name, sizeof t->seats[s].name, "%s", name);
	t->seats[s].computer = 0;
	t->seats[s].away = 0;
	t->seats[s].unconfirmed = 0;
	t->seats[s].claim_told = 0;
	t->seats[s].mid_match = 0;
	make_key(t, s, user);
	if (t->net->ops->open_private)
		t->net->ops->open_private(t->net, user);
	store_user u;
	if (table_db(t) && store_user_get(table_db(t), t->net->name, user, &u) == 1)
		t->seats[s].ascii = u.ascii;
}

static void seat_computer(table *t, int s)
{
	/* The names are one message, separated by spaces: four, or six for a
	 * table of six, or eight for eight. */
	char names[160];
	table_txt(t, names, sizeof names,
		  t->nseats > 6 ? T_COMPUTER_NAMES8 : t->nseats > 4 ? T_COMPUTER_NAMES6 : T_COMPUTER_NAMES, NULL, NULL,
		  NULL);
	const char *p = names;
	for (int i = 0; i < s && strchr(p, ' '); i++)
		p = strchr(p, ' ') + 1;
	size_t len = strcspn(p, " ");
	snprintf(t->seats[s].user, sizeof t->seats[s].user, "*computer%d", s);
	snprintf(t->seats[s].name, sizeof t->seats[s].name, "%.*s", (int)(len < TABLE_NAME_MAX ? len : TABLE_NAME_MAX - 1), p);
	t->seats[s].computer = 1;
	t->seats[s].away = 0;
}

void table_user_renamed(table *t, const char *old_user, const char *new_user, const char *new_name)
{
	/* Whatever seat the old name saw in this deal, the new one has seen
	 * (as surely as the old name had: a nick the bot had lost sight of
	 * stays a hint under its new name). */
	table_viewers_sync(t);
	int seats[TABLE_VIEWERS_MAX], lost[TABLE_VIEWERS_MAX], n = 0;
	for (int i = 0; i < t->nviewers; i++)
		if (table_same_user(t, t->viewers[i].user, old_user) && !table_same_user(t, old_user, new_user)) {
			seats[n] = t->viewers[i].seat;
			lost[n++] = t->viewers[i].lost;
		}
	for (int i = 0; i < n; i++)
		viewer_add(t, new_user, seats[i], lost[i]);
	int s = table_seat_of(t, old_user);
	if (s >= 0) {
		snprintf(t->seats[s].user, sizeof t->seats[s].user, "%s", new_user);
		snprintf(t->seats[s].name, sizeof t->seats[s].name, "%s", new_name);
	}
	if (n || s >= 0)
		table_persist(t); /* a kill -9 now must not forget who is who */
}

void table_user_left(table *t, const char *user)
{
	table_enter(t);
	table_viewers_sync(t);
	/* Out of the bot's sight (no channel shared): whoever comes back with
	 * this nick may be someone else. */
	int gone = t->net->ops->present && t->net->ops->present(t->net, NULL, user) == 0;
	if (gone)
		viewers_lost(t, user);
	int s = table_seat_of(t, user);
	if (s < 0)
		return;
	if (t->state == TABLE_OPEN) {
		table_say(t, T_LEFT_OPEN, t->seats[s].name, NULL, NULL);
		memset(&t->seats[s], 0, sizeof t->seats[s]);
	} else {
		/* Already away (an unconfirmed nick that came and went again):
		 * the grace runs on from the first leaving, and the room was told. */
		int again = t->seats[s].away;
		if (!again) {
			t->seats[s].away = 1;
			t->seats[s].away_since = loop_now();
		}
		/* Whoever comes back with this nick must show the seat key. */
		if (gone)
			unconfirm(t, s);
		if (!again) {
			char g[16];
			snprintf(g, sizeof g, "%d", t->set.grace_seconds);
			table_say(t, T_LEFT_PLAYING, t->seats[s].name, g, NULL);
		}
	}
	table_flush(t);
}

void table_user_seen(table *t, const char *user)
{
	table_enter(t);
	int s = table_seat_of(t, user);
	if (s < 0)
		return;
	if (t->seats[s].unconfirmed) {
		/* The nick is back, but is it the person? Only the key says. */
		if (!t->seats[s].claim_told) {
			char n[16];
			snprintf(n, sizeof n, "%d", s + 1);
			table_tell(t, user, t->seats[s].key[0] ? T_CLAIM_HOW : T_CLAIM_NO_KEY, table_room_shown(t), n, NULL);
			t->seats[s].claim_told = 1;
		}
		return;
	}
	if (t->seats[s].away) {
		t->seats[s].away = 0;
		table_say(t, T_BACK, t->seats[s].name, NULL, NULL);
		table_flush(t);
		table_send_hand(t, s);
	} else if (t->set.pace == PACE_CORRESPONDENCE && table_turn(t) == s && t->state == TABLE_PLAYING
		   && t->timer_kind == TK_REMIND) {
		/* Seen talking while we wait for them: a gentle reminder, once. */
		table_say_to(t, t->seats[s].user, T_REMIND, t->seats[s].name, NULL, NULL);
		table_flush(t);
		table_send_hand(t, s);
		t->timer_kind = TK_NONE;
	}
}

static int apply_setting(table *t, const char *opt, const char *val, const char **opt_out, char *val_out,
			 size_t len);

struct recall {
	table *t;
	char list[512];
};

static void recall_one(void *ctx, const char *option, const char *value)
{
	struct recall *rc = ctx;
	const char *opt = NULL;
	char val[32];
	table_settings before = rc->t->set;
	/* Applied as !set would, so a value !set would refuse (an older
	 * cardbot stored the words as typed) is skipped whole, and the list
	 * names options and values as the bot knows them. */
	if (apply_setting(rc->t, option, value, &opt, val, sizeof val) == 0
	    && memcmp(&before, &rc->t->set, sizeof before)) {
		size_t n = strlen(rc->list);
		snprintf(rc->list + n, sizeof rc->list - n, "%s%s %s", n ? ", " : "", opt, val);
	}
}

void table_recall_settings(table *t)
{
	if (!table_db(t) || t->state != TABLE_OPEN)
		return;
	table_enter(t);
	struct recall rc = { t, "" };
	size_t keep = t->outlen;
	int keep_n = t->nout;
	if (store_channel_each(table_db(t), t->net->name, t->room, recall_one, &rc) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
	/* One line for all of them rather than one per option. */
	t->outlen = keep;
	t->nout = keep_n;
	if (rc.list[0])
		table_say(t, T_SETTINGS_RECALLED, rc.list, t->host->prefix, NULL);
}

int table_restore(table *t, const char *meta, int64_t match_id, char *err, size_t errlen)
{
	table_settings keep = t->set;
	if (tstore_apply_meta(t, meta, err, errlen) < 0) {
		memset(t->seats, 0, sizeof t->seats);
		t->state = TABLE_OPEN;
		return -1;
	}
	/* Before the restart someone held these nicks; who holds them now,
	 * nobody knows. A seat that was away gets its grace afresh: the time
	 * it went away is not kept. */
	for (int s = 0; s < t->nseats; s++) {
		if (t->seats[s].away)
			t->seats[s].away_since = loop_now();
		unconfirm(t, s);
	}
	if (t->state == TABLE_PLAYING) {
		if (!match_id) {
			snprintf(err, errlen, "the table was playing, but no match is stored");
		} else if (tstore_rebuild(t, table_db(t), match_id, err, errlen) == 0) {
			game_status gs;
			if (t->g)
				game_status_of(t->g, &gs);
			if (!t->g || gs.over)
				t->state = TABLE_OPEN;
			viewers_restored(t);
			t->meta_hash = 0;
			return 0;
		}
		/* The seats stay; the broken match does not. */
		t->state = TABLE_OPEN;
		t->match_id = 0;
		t->set = keep;
		game_free(t->g);
		t->g = NULL;
		return -1;
	}
	return 0;
}

void table_link_lost(table *t)
{
	table_viewers_sync(t);
	viewers_lost(t, NULL);
	for (int s = 0; s < t->nseats; s++)
		unconfirm(t, s);
}

int table_admits(const table *t, const char *user)
{
	if (table_seat_of(t, user) >= 0)
		return 1; /* a player keeps their seat's private commands while briefly away */
	if (!t->net->ops->present)
		return 1;
	return t->net->ops->present(t->net, t->room, user) != 0; /* -1: the network cannot tell */
}

void table_resumed(table *t)
{
	table_play_resumed(t);
}

/* ---- commands ---- */

typedef void (*cmd_fn)(table *t, const char *user, const char *name, int in_room, int argc, char **argv);

enum cmd_flags {
	CMD_SEATED = 1,   /* only a seated player */
	CMD_PLAYING = 2,  /* only while a match is on */
	CMD_OPEN = 4,     /* only between matches */
	CMD_QUERY = 8,    /* only tells: its answer may wait behind others' and is said once while waiting */
	CMD_PAST = 16,    /* answers from the room's stored past: also where no table is open (table_no_table) */
};

typedef struct command {
	const char *name;
	const char *alias;
	cmd_fn fn;
	int min_args, max_args; /* words after the command */
	int flags;
	int help;               /* text id of its help line */
} command;

static int parse_seat_number(const table *t, const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);
	return (*end || n < 1 || n > t->nseats) ? -1 : (int)n - 1;
}

static void say_ready(table *t)
{
	if (t->starting)
		return;
	char n[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	table_say(t, t->pr->t_ready, n, NULL, NULL);
}

/* Seconds left of the grace of an away player's seat (0: none left, or
 * the seat is not held by an away player). */
static int grace_left(const table *t, int s)
{
	const seat *x = &t->seats[s];
	if (!x->user[0] || x->computer || !x->away)
		return 0;
	int64_t left = (int64_t)t->set.grace_seconds * 1000 - (loop_now() - x->away_since);
	return left > 0 ? (int)((left + 999) / 1000) : 0;
}

/* Tells `user` that seat s is kept for its away player for a while yet. */
static void tell_grace(table *t, const char *user, int s)
{
	char n[16], secs[16];
	snprintf(n, sizeof n, "%d", s + 1);
	snprintf(secs, sizeof secs, "%d", grace_left(t, s));
	table_tell(t, user, T_SEAT_GRACE, table_room_shown(t), n, secs);
}

/* The first time a person sits (on this network, ever), the room hears
 * where their cards will come: a notice lands in irssi's status window,
 * far from the channel, and a newcomer would see "your turn" and no hand. */
static void say_hands_where(table *t, const char *user, const char *name)
{
	if (!t->net->ops->private_kind || t->host->private_told(t->host->ctx, t->net, user))
		return;
	int kind = t->net->ops->private_kind(t->net, t->host->private_of(t->host->ctx, t->net, user));
	const char *self = t->net->ops->self ? t->net->ops->self(t->net) : "";
	table_say(t, kind == ADAPTER_AS_NOTICE ? T_HANDS_AS_NOTICE : T_HANDS_AS_MSG, name, self, t->host->prefix);
}

static void cmd_sit(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room;
	int want = argc > 1 ? parse_seat_number(t, argv[1]) : -1;
	if (argc > 1 && want < 0) {
		table_tell_txt(t, user, T_USAGE, T_USAGE_SIT);
		return;
	}
	char n[16];
	int mine = table_seat_of(t, user);
	if (mine >= 0) {
		/* Moving would show a second hand of this deal. */
		snprintf(n, sizeof n, "%d", mine + 1);
		table_tell(t, user, cards_out(t) && want >= 0 && want != mine ? T_SEAT_MOVE_LATER : T_ALREADY_SEATED,
		     table_room_shown(t), n, NULL);
		return;
	}
	/* Within a deal a person sees at most one seat's cards: whoever held
	 * a seat in it (under any name) may come back to that seat only. One
	 * who only may be them (the same address, a nick the bot lost sight
	 * of) is told no more than that, and offered no seat: it may be
	 * another person's (docs/SECURITY.md). */
	int sure;
	int seen = viewer_seat(t, user, &sure);
	if (seen >= 0 && !sure) {
		table_tell(t, user, T_SEAT_SEEN_MAYBE, table_room_shown(t), NULL, NULL);
		return;
	}
	if (seen >= 0 && want >= 0 && want != seen) {
		snprintf(n, sizeof n, "%d", seen + 1);
		table_tell(t, user, T_SEAT_SEEN, table_room_shown(t), n, NULL);
		return;
	}
	if (seen >= 0)
		want = seen;
	int s = -1;
	for (int i = 0; i < t->nseats && s < 0; i++) {
		int k = want >= 0 ? want : i;
		seat *x = &t->seats[k];
		int takeable = !x->user[0] || x->computer || (x->away && !grace_left(t, k));
		if (takeable)
			s = k;
		if (want >= 0)
			break;
	}
	if (s < 0) {
		if (want >= 0 && grace_left(t, want))
			tell_grace(t, user, want);
		else if (want >= 0 && want == seen)
			table_tell(t, user, T_SEAT_SEEN_TAKEN, table_room_shown(t), NULL, NULL);
		else
			table_tell(t, user, want >= 0 ? T_SEAT_TAKEN : T_TABLE_FULL, table_room_shown(t), NULL, NULL);
		return;
	}
	if (viewer_add(t, user, s, 0) < 0) {
		table_tell(t, user, T_SEAT_CROWD, table_room_shown(t), NULL, NULL);
		return;
	}
	int from_computer = t->seats[s].computer;
	int replacing = t->seats[s].user[0] != 0;
	char old[TABLE_NAME_MAX];
	snprintf(old, sizeof old, "%s", t->seats[s].name);
	seat_human(t, s, user, name);
	/* A computer's seat taken mid-match: its !stop vote does not outweigh
	 * the people who were playing. */
	t->seats[s].mid_match = t->state == TABLE_PLAYING && from_computer;
	snprintf(n, sizeof n, "%d", s + 1);
	if (replacing)
		table_say(t, T_SIT_REPLACE, name, old, n);
	else
		table_say(t, T_SIT, name, n, NULL);
	say_hands_where(t, user, name);
	if (t->state == TABLE_OPEN && seated_count(t) == t->nseats)
		say_ready(t);
	table_flush(t);
	tell_key(t, s);
	if (t->state == TABLE_PLAYING) {
		table_send_hand(t, s);
		table_schedule(t);
	}
}

/* `claim KEY`: the person who sat shows the seat key the bot told them, to
 * take their seat back when the bot lost sight of them, under any nick. */
static void cmd_claim(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)argc;
	int s = -1;
	for (int i = 0; i < t->nseats; i++)
		if (t->seats[i].key[0] && !t->seats[i].computer && !strcmp(t->seats[i].key, argv[1]))
			s = i;
	if (in_room) {
		/* Said where all could read it: the key is spent, and a new one
		 * goes privately to the seat's player, or, when the bot has lost
		 * sight of them, to whoever said it (nobody else knew it before). */
		if (s >= 0) {
			const char *to = table_private_ok(t, s) ? t->seats[s].user : user;
			make_key(t, s, t->seats[s].user);
			table_persist(t); /* kept before it is told */
			if (t->seats[s].key[0]) {
				table_tell(t, to, T_SEAT_KEY_NEW, table_room_shown(t), t->seats[s].key, NULL);
				if (table_same_user(t, to, user))
					return;
			}
		}
		table_tell(t, user, T_CLAIM_PRIVATELY, table_room_shown(t), NULL, NULL);
		return;
	}
	char n[16];
	snprintf(n, sizeof n, "%d", s + 1);
	if (s < 0) {
		table_tell(t, user, T_CLAIM_BAD, table_room_shown(t), NULL, NULL);
		return;
	}
	seat *x = &t->seats[s];
	if (!x->unconfirmed) {
		table_tell(t, user, table_same_user(t, x->user, user) ? T_ALREADY_SEATED : T_CLAIM_NOT_NEEDED, table_room_shown(t), n,
		     NULL);
		return;
	}
	int mine = table_seat_of(t, user);
	if (mine >= 0 && mine != s) {
		table_tell(t, user, T_ALREADY_SEATED, table_room_shown(t), n, NULL);
		return;
	}
	/* The key proves seat s; only a sure sign of another seat seen in
	 * this deal stands against it (a hint may be someone else). */
	int sure;
	int seen = viewer_seat(t, user, &sure);
	if (seen >= 0 && sure && seen != s) {
		snprintf(n, sizeof n, "%d", seen + 1);
		table_tell(t, user, T_SEAT_SEEN, table_room_shown(t), n, NULL);
		return;
	}
	if (viewer_add(t, user, s, 0) < 0) {
		table_tell(t, user, T_SEAT_CROWD, table_room_shown(t), NULL, NULL);
		return;
	}
	snprintf(x->user, sizeof x->user, "%s", user);
	snprintf(x->name, sizeof x->name, "%s", name);
	x->unconfirmed = 0;
	x->away = 0;
	x->claim_told = 0;
	if (t->net->ops->open_private)
		t->net->ops->open_private(t->net, user);
	table_say(t, T_CLAIMED, x->name, n, NULL);
	table_flush(t);
	table_send_hand(t, s);
	table_schedule(t);
}

static void cmd_leave(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (t->state == TABLE_OPEN) {
		table_say(t, T_LEFT_OPEN, t->seats[s].name, NULL, NULL);
		memset(&t->seats[s], 0, sizeof t->seats[s]);
	} else {
		char who[TABLE_NAME_MAX];
		snprintf(who, sizeof who, "%s", t->seats[s].name);
		seat_computer(t, s);
		table_say(t, T_LEFT_TO_COMPUTER, who, NULL, NULL);
	}
	table_flush(t);
	table_schedule(t);
}

static void cmd_bot(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int all = argc > 1 && !strcasecmp(argv[1], "all"); /* every free seat at once */
	int want = argc > 1 && !all ? parse_seat_number(t, argv[1]) : -1;
	if (argc > 1 && !all && want < 0) {
		table_tell_txt(t, user, T_USAGE, T_USAGE_BOT);
		return;
	}
	int added = 0;
	for (int s = 0; s < t->nseats; s++) {
		if (want >= 0 && s != want)
			continue;
		seat *x = &t->seats[s];
		/* An away player's seat keeps its grace whoever takes it. */
		if (want >= 0 && x->away && t->state == TABLE_PLAYING && grace_left(t, s)) {
			tell_grace(t, user, s);
			return;
		}
		if (!x->user[0] || (x->away && t->state == TABLE_PLAYING && !grace_left(t, s))) {
			seat_computer(t, s);
			char n[16];
			snprintf(n, sizeof n, "%d", s + 1);
			table_say(t, T_BOT_ADDED, t->seats[s].name, n, NULL);
			added = 1;
			if (want < 0 && !all)
				break;
		}
	}
	if (!added)
		table_tell(t, user, T_NO_FREE_SEAT, table_room_shown(t), NULL, NULL);
	if (t->state == TABLE_OPEN && seated_count(t) == t->nseats)
		say_ready(t);
	table_flush(t);
	table_schedule(t);
}

static void cmd_unbot(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int s = argc > 1 ? parse_seat_number(t, argv[1]) : -1;
	if (s < 0 || !t->seats[s].computer) {
		table_tell_txt(t, user, T_USAGE, T_USAGE_UNBOT);
		return;
	}
	table_say(t, T_BOT_REMOVED, t->seats[s].name, NULL, NULL);
	memset(&t->seats[s], 0, sizeof t->seats[s]);
	table_flush(t);
}

static int on_off(const char *v)
{
	if (!strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true"))
		return 1;
	if (!strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false"))
		return 0;
	return -1;
}

/* A whole number from lo to hi written in decimal digits and nothing
 * else ("500", not "500x", "+500" or a number too big for a long); 0 and
 * *out set, or -1. */
static int parse_number(const char *s, long lo, long hi, long *out)
{
	if (!*s || strlen(s) > 18)
		return -1; /* longer than any limit here: also keeps the value in a long */
	long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* The host's !set options, and the values each takes as `set` says them;
 * the games' own options (present_option) come before these. */
static const struct set_option {
	const char *name, *values;
} set_options[] = {
	{ "pace", "live|casual|correspondence" }, { "level", "easy|normal|strong" }, { "think", "10-10000" },
	{ "lastcard", "on|off" }, { "lang", "en|si|ta" },
};
#define SET_OPTIONS (sizeof set_options / sizeof set_options[0])

/* A game option's values as `set` says them ("strict|lenient|off"). */
static void option_values(const game_option *o, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; o->onoff ? i < 2 : i < GAME_OPTION_WORDS && o->words[i]; i++) {
		int k = snprintf(out + n, len - n, "%s%s", i ? "|" : "", o->onoff ? (i ? "off" : "on") : o->words[i]);
		if (k < 0 || (size_t)k >= len - n)
			break;
		n += (size_t)k;
	}
}

/* The games' options as `set` lists them: "bidding pagat|single, fives on|off, ...". */
static const char *game_options_text(char *out, size_t len)
{
	const game_option *o;
	size_t n = 0;
	out[0] = '\0';
	for (int k = 0; n < len && (o = present_option_at(k)); k++) {
		char vals[80];
		option_values(o, vals, sizeof vals);
		int w = snprintf(out + n, len - n, "%s%s %s", k ? ", " : "", o->key, vals);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return out;
}

/* The name of a !set option as the bot knows it, and the values it takes
 * (in vals), or NULL for no such option. */
static const char *set_option_find(const char *name, char *vals, size_t len)
{
	const game_option *o = present_option(name, 1);
	if (o) {
		option_values(o, vals, len);
		return o->key;
	}
	for (size_t i = 0; i < SET_OPTIONS; i++)
		if (!strcasecmp(name, set_options[i].name)) {
			snprintf(vals, len, "%s", set_options[i].values);
			return set_options[i].name;
		}
	return NULL;
}

/* Applies one !set choice; 0 with the option and value as the bot knows
 * them (*opt_out, static; val_out), whatever case or spelling was typed,
 * or -1 (nothing changed). What is said and stored is these, never the
 * words as typed. */
static int apply_setting(table *t, const char *opt, const char *val, const char **opt_out, char *val_out,
			 size_t len)
{
	static const char *const offon[] = { "off", "on" };
	const game_option *o = present_option(opt, 1);
	int b;
	long n;
	char num[24], vals[80];
	const char *shown = NULL;
	if (o && (b = game_option_parse(o, val, 1)) >= 0) {
		if (game_choices_set(&t->set.options, o->key, (uint8_t)b) < 0)
			return -1;
		shown = game_option_word(o, b);
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "live")) {
		t->set.pace = PACE_LIVE;
		shown = "live";
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "casual")) {
		t->set.pace = PACE_CASUAL;
		shown = "casual";
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "correspondence")) {
		t->set.pace = PACE_CORRESPONDENCE;
		shown = "correspondence";
	} else if (!strcasecmp(opt, "level") && game_ai_level_parse(val) >= 0) {
		/* easy is the random player here; normal and strong search. */
		t->set.computer_easy = game_ai_level_parse(val) == GAME_AI_EASY;
		t->set.computer_level = game_ai_level_parse(val);
		shown = val; /* exactly one of the level names */
	} else if (!strcasecmp(opt, "lang") && text_lang_find(val)) {
		snprintf(t->set.lang, sizeof t->set.lang, "%s", text_lang_find(val)->code);
		shown = t->set.lang;
	} else if (!strcasecmp(opt, "lastcard") && (b = on_off(val)) >= 0) {
		t->set.lastcard = b;
		shown = offon[b];
	} else if (!strcasecmp(opt, "think") && parse_number(val, 10, 10000, &n) == 0) {
		t->set.computer_think_ms = (int)n;
		snprintf(num, sizeof num, "%ld", n);
		shown = num;
	} else {
		return -1;
	}
	*opt_out = set_option_find(opt, vals, sizeof vals);
	snprintf(val_out, len, "%s", shown);
	return 0;
}

static void cmd_set(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	const char *opt = NULL;
	char val[32], vals[256];
	int lang = !strcasecmp(argv[1], "lang");
	if (apply_setting(t, argv[1], argv[2], &opt, val, sizeof val) < 0) {
		const char *o = set_option_find(argv[1], vals, sizeof vals);
		if (lang)
			table_tell(t, user, T_LANG_UNKNOWN, argv[2], text_lang_codes(), NULL);
		else if (o) /* a known option: name the bad value and its choices */
			table_tell(t, user, T_SET_BAD_VALUE, o, argv[2], vals);
		else
			table_tell(t, user, T_SET_USAGE, game_options_text(vals, sizeof vals), NULL, NULL);
		return;
	}
	table_enter(t); /* the new language, for what follows */
	if (lang)
		table_say(t, T_LANG_ROOM_SET, val, NULL, NULL);
	else
		table_say(t, T_SET_DONE, opt, val, NULL);
	/* The channel's next tables start with this choice too. */
	if (table_db(t) && *user && store_channel_set(table_db(t), t->net->name, t->room, opt, val) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
	table_flush(t);
	if (!strcmp(opt, "lastcard") && t->state == TABLE_PLAYING && t->set.lastcard)
		table_schedule(t); /* the turn awaited now may be a last card */
}

static void cmd_start(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (seated_count(t) < t->nseats) {
		char n[16];
		snprintf(n, sizeof n, "%d", t->nseats);
		table_tell(t, user, t->pr->t_need_seats, table_room_shown(t), n, NULL);
		return;
	}
	table_play_start(t, user);
}

static void cmd_cut(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	table_cut(t, user, argv[1]);
}

/* A command of the game being played (bid, play, ...): its presentation
 * reads it; one the game does not have is named so. */
static void cmd_game(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name;
	int s = table_seat_of(t, user);
	char g[64];
	if (!t->g || !t->pr->command(t, user, s, in_room, argc, argv))
		table_tell(t, user, T_G_NOT_IN_GAME, table_room_shown(t), argv[0],
			   table_game_shown(table_lang_of(t, user), g, sizeof g, t->gdef->name));
}

/* What the best player of this game would do now, told privately. */
static void cmd_hint(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (!t->set.hints) {
		table_tell(t, user, T_HINT_OFF, table_room_shown(t), NULL, NULL);
		return;
	}
	game_action a;
	int r = table_turn(t) == s ? t->pr->choose(t, s, PRESENT_HINT, &a) : -1;
	if (r < 0)
		table_tell(t, user, T_HINT_NOTHING, table_room_shown(t), NULL, NULL);
	else if (r > 0)
		table_hint(t, s, &a);
	/* 0: a search is thinking; its answer is told when it comes. */
}


static void cmd_hand(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (!table_in_deal(t)) {
		table_tell(t, user, T_NO_HAND, table_room_shown(t), NULL, NULL);
		return;
	}
	table_send_hand(t, table_seat_of(t, user));
}

static void cmd_table(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc, (void)argv;
	char line[TABLE_LINE];
	if (!in_room)
		table_reader(t, table_lang_of(t, user)); /* table_command entered the room's */
	strbuf b;
	sb_init(&b, line, sizeof line);
	sb_printf(&b, "%s: ", table_room_shown(t));
	if (t->pr->name_in_table_line) {
		char g[64];
		sb_printf(&b, "%s, ", table_game_shown(table_reader_now(t), g, sizeof g, t->gdef->name));
	}
	for (int s = 0; s < t->nseats; s++) {
		sb_printf(&b, "%s%d %s", s ? ", " : "", s + 1, table_seat_name(t, s));
		if (t->seats[s].computer)
			table_sb_txt(t, &b, T_SEAT_LIST_COMPUTER, NULL, NULL, NULL);
		if (t->seats[s].away)
			table_sb_txt(t, &b, T_SEAT_LIST_AWAY, NULL, NULL, NULL);
	}
	if (t->state == TABLE_PLAYING && t->g)
		t->pr->table_line(t, user, &b);
	else
		table_sb_txt(t, &b, T_TABLE_IDLE, NULL, NULL, NULL);
	table_answer(t, user, in_room, line);
}

static void cmd_last(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (t->state != TABLE_PLAYING || !t->g) {
		table_tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		return;
	}
	table_reader(t, table_lang_of(t, user)); /* a private line */
	t->pr->last(t, user, table_seat_of(t, user));
}

static void cmd_score(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc, (void)argv;
	char line[TABLE_LINE];
	if (!t->g) { /* no tokens of empty seats before the first match */
		table_tell(t, user, T_NOT_PLAYING, table_room_shown(t), t->host->prefix, NULL);
		return;
	}
	if (!in_room)
		table_reader(t, table_lang_of(t, user));
	t->pr->score(t, line, sizeof line);
	table_answer(t, user, in_room, line);
}

/* `rules`: what the game is about, for someone who does not know it;
 * `rules more`: this table's options. */
static void cmd_rules(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	char line[TABLE_LINE * 3]; /* the summary in Tamil is near 2000 bytes, and the room name */
	table_reader(t, table_lang_of(t, user)); /* a private line */
	if (argc > 1 && !strcasecmp(argv[1], "more"))
		t->pr->rules(t, line, sizeof line);
	else
		table_txt(t, line, sizeof line, t->pr->t_about, table_room_shown(t), NULL, NULL);
	table_say_private(t, user, line, ADAPTER_NOTICE);
}

static void cmd_stop(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	int op = t->host->is_operator(t->host->ctx, t->net, user);
	if (s < 0 && !op) {
		table_tell(t, user, T_NOT_SEATED, table_room_shown(t), NULL, NULL);
		return;
	}
	int humans = 0, votes = 0, players = 0;
	if (s >= 0)
		t->stop_votes |= (uint8_t)(1u << s);
	/* Those who took a computer's seat mid-match count only when none of
	 * the people who were playing is left. */
	for (int i = 0; i < t->nseats; i++)
		players += t->seats[i].user[0] && !t->seats[i].computer && !t->seats[i].mid_match;
	for (int i = 0; i < t->nseats; i++)
		if (t->seats[i].user[0] && !t->seats[i].computer && !(players && t->seats[i].mid_match)) {
			humans++;
			votes += t->stop_votes >> i & 1;
		}
	if (op || votes * 2 > humans) {
		/* Saved before it is announced: a stop the database did not
		 * take would bring the table back at the next start. */
		if (table_play_stopped(t) < 0) {
			table_save_failed(t, NULL);
			table_tell(t, user, T_STOP_NOT_SAVED, table_room_shown(t), t->host->prefix, NULL);
			table_flush(t);
			return;
		}
		table_say(t, T_STOPPED, name, NULL, NULL);
		table_flush(t);
		t->host->close(t->host->ctx, t);
		return;
	}
	char n[16], m[16];
	snprintf(n, sizeof n, "%d", votes);
	snprintf(m, sizeof m, "%d", humans / 2 + 1);
	table_say(t, T_STOP_VOTE, name, n, m);
	table_flush(t);
}

/* Remembers that user does (on) or no longer does want to hear of tables
 * and games in the room, for its next tables too (store_notify_*). */
static void notify_keep(const table_host *h, adapter *net, const char *room, const char *user, int on)
{
	if (h->db(h->ctx) && store_notify_set(h->db(h->ctx), net->name, room, user, on) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(h->db(h->ctx)));
}

static void cmd_notify(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	for (int i = 0; i < t->nnotify; i++)
		if (table_same_user(t, t->notify[i], user)) {
			memmove(t->notify[i], t->notify[i + 1], (size_t)(t->nnotify - i - 1) * sizeof t->notify[0]);
			t->nnotify--;
			notify_keep(t->host, t->net, t->room, user, 0);
			table_tell(t, user, T_NOTIFY_OFF, table_room_shown(t), NULL, NULL);
			return;
		}
	if (t->nnotify >= TABLE_NOTIFY_MAX) {
		table_tell(t, user, T_NOTIFY_FULL, table_room_shown(t), NULL, NULL);
		return;
	}
	snprintf(t->notify[t->nnotify++], sizeof t->notify[0], "%s", user);
	notify_keep(t->host, t->net, t->room, user, 1);
	table_tell(t, user, T_NOTIFY_ON, table_room_shown(t), NULL, NULL);
}

struct notify_opened {
	table *t;
	const char *opener;
};

static void notify_one(void *ctx, const char *user)
{
	struct notify_opened *no = ctx;
	table *t = no->t;
	for (int i = 0; i < t->nnotify; i++)
		if (table_same_user(t, t->notify[i], user))
			return;
	if (t->nnotify >= TABLE_NOTIFY_MAX)
		return;
	snprintf(t->notify[t->nnotify++], sizeof t->notify[0], "%s", user);
	if (!table_same_user(t, user, no->opener))
		table_tell(t, user, T_NOTIFY_OPENED, table_room_shown(t), t->gdef->name, NULL);
}

void table_notify_opened(table *t, const char *opener)
{
	if (!table_db(t))
		return;
	struct notify_opened no = { t, opener };
	if (store_notify_each(table_db(t), t->net->name, t->room, notify_one, &no) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
}

/* Keeps a person's !ascii choice in the database. */
static void ascii_keep(const table_host *h, adapter *net, const char *user, int on)
{
	if (!h->db(h->ctx))
		return;
	store_user u = { .ascii = on, .language = "en", .notices = 1 };
	store_user old;
	if (store_user_get(h->db(h->ctx), net->name, user, &old) == 1) {
		u = old;
		u.ascii = on;
	}
	if (store_user_set(h->db(h->ctx), net->name, user, &u) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(h->db(h->ctx)));
}

static void cmd_ascii(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int s = table_seat_of(t, user);
	int on = argc > 1 ? on_off(argv[1]) : !t->seats[s].ascii;
	if (on < 0) {
		table_tell_txt(t, user, T_USAGE, T_USAGE_ASCII);
		return;
	}
	t->seats[s].ascii = on;
	ascii_keep(t->host, t->net, user, on);
	table_tell(t, user, on ? T_ASCII_ON : T_ASCII_OFF, NULL, NULL, NULL);
	table_send_hand(t, s);
}

/* ---- history and statistics ---- */

static int need_db(table *t, const char *user)
{
	if (table_db(t))
		return 1;
	table_tell(t, user, T_NO_STORAGE, NULL, NULL, NULL);
	return 0;
}

static void cmd_stats(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room;
	if (!need_db(t, user))
		return;
	store *db = table_db(t);
	char who[ADAPTER_ID_MAX];
	const char *shown = name;
	snprintf(who, sizeof who, "%s", user);
	if (argc > 1) {
		/* A seated player by name, else whoever last played under it. */
		int found = 0;
		for (int s = 0; s < t->nseats && !found; s++)
			if (!t->seats[s].computer && t->seats[s].user[0] && !strcasecmp(t->seats[s].name, argv[1])) {
				snprintf(who, sizeof who, "%s", t->seats[s].user);
				found = 1;
			}
		if (!found && store_user_by_name(db, t->net->name, argv[1], who, sizeof who) != 1)
			snprintf(who, sizeof who, "%s", argv[1]);
		shown = argv[1];
	}
	/* The table's game only: each game has its own range of bids. 304's
	 * lines name no game (as !table's). */
	const char *gname = t->gdef->name;
	int named = t->pr->name_in_table_line;
	store_stats st;
	const present_bands *bands = t->pr->bands;
	int r = store_stats_get(db, t->net->name, gname, bands->from, who, &st);
	if (r < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(db));
		table_tell_txt(t, user, T_ERROR, T_ERR_STATS);
		return;
	}
	if (r == 0) {
		char g[64];
		table_tell(t, user, named ? T_STATS_NONE_GAME : T_STATS_NONE, shown,
			   table_game_shown(table_lang_of(t, user), g, sizeof g, gname), NULL);
		return;
	}
	char buf[TABLE_LINE];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	char n1[24], n2[24];
	if (t->pr->stats_matches) {
		snprintf(n1, sizeof n1, "%d", st.matches);
		snprintf(n2, sizeof n2, "%d", st.matches_won);
		table_sb_txt(t, &b, T_STATS_MATCHES, n1, n2, NULL);
	}
	snprintf(n1, sizeof n1, "%d", st.deals);
	snprintf(n2, sizeof n2, "%d", st.deals_won);
	table_sb_txt(t, &b, T_STATS_DEALS, n1, n2, NULL);
	int any = 0;
	for (int i = 0; i < STORE_BANDS; i++)
		if (st.bids[i] && bands->names[i]) {
			sb_add(&b, any ? ", " : " ");
			snprintf(n1, sizeof n1, "%d", st.bids_made[i]);
			snprintf(n2, sizeof n2, "%d", st.bids[i]);
			const char *band = bands->lines[i] ? text_line(table_reader_now(t), bands->lines[i]) : bands->names[i];
			table_sb_txt(t, &b, T_STATS_BAND, band, n1, n2);
			any = 1;
		}
	if (!any)
		table_sb_txt(t, &b, T_STATS_NO_BIDS, NULL, NULL, NULL);
	if (t->pr->stats_caps) {
		snprintf(n1, sizeof n1, "%d", st.caps_calls);
		snprintf(n2, sizeof n2, "%d", st.caps_correct);
		table_sb_txt(t, &b, T_STATS_CAPS, n1, n2, NULL);
	}
	if (st.trumper_deals) {
		snprintf(n1, sizeof n1, "%d", st.trumper_deals);
		snprintf(n2, sizeof n2, "%.0f", st.trumper_points);
		table_sb_txt(t, &b, T_STATS_TRUMPER, n1, n2, NULL);
	}
	const char *who_shown = st.name[0] ? st.name : shown;
	char g[64];
	if (named)
		table_say(t, T_STATS_GAME, who_shown, table_game_shown(table_lang(t), g, sizeof g, gname), buf);
	else
		table_say(t, T_STATS, who_shown, buf, NULL);
	table_flush(t);
}

static void cmd_top(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (!need_db(t, user))
		return;
	const char *gname = t->gdef->name;
	int named = t->pr->name_in_table_line;
	store_top_row rows[10];
	int n = store_top(table_db(t), t->net->name, t->room, gname, rows, 10);
	if (n < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
		table_tell_txt(t, user, T_ERROR, T_ERR_TOP);
		return;
	}
	if (n == 0) {
		char g[64];
		table_say(t, named ? T_TOP_NONE_GAME : T_TOP_NONE, table_game_shown(table_lang(t), g, sizeof g, gname),
			  NULL, NULL);
		table_flush(t);
		return;
	}
	char buf[TABLE_LINE];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	for (int i = 0; i < n; i++) {
		char k[24], w[24];
		snprintf(k, sizeof k, "%d", i + 1);
		sb_add(&b, i ? "; " : "");
		table_sb_txt(t, &b, T_TOP_ROW, k, rows[i].name, NULL);
		if (t->pr->stats_matches) {
			snprintf(w, sizeof w, "%d", rows[i].matches_won);
			snprintf(k, sizeof k, "%d", rows[i].matches);
			table_sb_txt(t, &b, T_TOP_MATCHES, w, k, NULL);
		}
		snprintf(w, sizeof w, "%d", rows[i].deals_won);
		snprintf(k, sizeof k, "%d", rows[i].deals);
		table_sb_txt(t, &b, T_TOP_DEALS, w, k, NULL);
	}
	char g[64];
	if (named)
		table_say(t, T_TOP_GAME, table_room_shown(t), table_game_shown(table_lang(t), g, sizeof g, gname), buf);
	else
		table_say(t, T_TOP, table_room_shown(t), buf, NULL);
	table_flush(t);
}

static void cmd_history(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (!need_db(t, user))
		return;
	store_match_info m[5];
	table_reader(t, table_lang_of(t, user)); /* told privately */
	int n = store_history(table_db(t), t->net->name, t->room, m, 5);
	if (n < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
		table_tell_txt(t, user, T_ERROR, T_ERR_HISTORY);
		return;
	}
	if (n == 0) {
		table_tell(t, user, T_HISTORY_NONE, NULL, NULL, NULL);
		return;
	}
	char buf[TABLE_LINE];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	for (int i = 0; i < n; i++) {
		char day[32];
		time_t when = (time_t)m[i].ended;
		struct tm tmv;
		strftime(day, sizeof day, "%Y-%m-%d", gmtime_r(&when, &tmv));
		int np = 0;
		while (np < STORE_SEATS && m[i].players[np][0])
			np++;
		char num[24];
		snprintf(num, sizeof num, "%lld", (long long)m[i].id);
		sb_add(&b, i ? "; " : "");
		char g[64];
		table_sb_txt(t, &b, m[i].winner >= 0 ? T_HISTORY_WON : T_HISTORY_STOPPED, num, day,
			     table_game_shown(table_reader_now(t), g, sizeof g, m[i].game));
		if (np == 4 || np == 6) {
			/* Teams: the winners, or the first team of a stopped match. */
			int w = m[i].winner < 0 ? 0 : m[i].winner & 1;
			if (np == 6)
				sb_printf(&b, "%s, %s & %s (%d : %d)", m[i].players[w], m[i].players[w + 2],
					  m[i].players[w + 4], m[i].tokens[0], m[i].tokens[1]);
			else
				sb_printf(&b, "%s & %s (%d : %d)", m[i].players[w], m[i].players[w + 2], m[i].tokens[0],
					  m[i].tokens[1]);
		} else if (m[i].winner >= 0 && m[i].winner < np) {
			sb_add(&b, m[i].players[m[i].winner]);
		} else {
			/* Trump304 with two or three: every player; the store keeps
			 * two sides' tokens, so only two players' are told. */
			for (int k = 0; k < np; k++)
				sb_printf(&b, "%s%s", k ? ", " : "", m[i].players[k]);
			if (np == 2)
				sb_printf(&b, " (%d : %d)", m[i].tokens[0], m[i].tokens[1]);
		}
	}
	table_tell(t, user, T_HISTORY, buf, NULL, NULL);
}

#define RECORD_PIECE_MAX 400 /* bytes of record a private line carries at most (a 512-byte IRC line less its head) */
#define RECORD_PIECE_MIN 64  /* a network leaving less room than this cannot carry a record in lines */
#define RECORD_LINES_MAX 300 /* lines of record sent privately (adapters/sendq.h SENDQ_WHOLE_MAX): ~10 deals;
			      * a longer record needs public_dir */

/* A record said in private lines: the first tells how many follow (or
 * that it is too long to send), the rest are the JSON without its line
 * breaks, cut into pieces that the network carries whole
 * (adapter_ops.line_max: an IRC line split again arrived as lone quotes
 * and blank lines), never inside a character, so the count said is the
 * count that arrives. */
typedef struct record_lines {
	char **v;  /* owned, each owned */
	int n;
} record_lines;

static void record_lines_free(record_lines *rl)
{
	for (int i = 0; i < rl->n; i++)
		free(rl->v[i]);
	free(rl->v);
	rl->v = NULL;
	rl->n = 0;
}

/* rec (the record, NUL-terminated) into rl, in user's language; -1 when
 * out of memory or the network leaves no room for a piece. */
static int record_lines_make(table *t, const char *user, const char *n, const char *rec, record_lines *rl)
{
	rl->v = NULL;
	rl->n = 0;
	size_t len = 0, full = strlen(rec);
	char *flat = malloc(full + 1);
	if (!flat)
		return -1;
	for (const char *p = rec; *p; p++)
		if (*p != '\n')
			flat[len++] = *p;
	flat[len] = 0;
	size_t piece = t->net->ops->line_max ? t->net->ops->line_max(t->net, user) : 0;
	if (!piece || piece > RECORD_PIECE_MAX)
		piece = RECORD_PIECE_MAX;
	if (piece < RECORD_PIECE_MIN) {
		free(flat);
		return -1;
	}
	size_t count = 0;
	for (size_t off = 0; off < len; count++)
		off += utf8_prefix(flat + off, len - off, piece);
	/* A network that paces its lines (it has a line_max) carries at most
	 * RECORD_LINES_MAX for one request; one that sends at once (the
	 * terminal) carries it all. */
	int too_long = t->net->ops->line_max && count > RECORD_LINES_MAX;
	rl->v = calloc(too_long ? 1 : count + 1, sizeof *rl->v);
	if (!rl->v) {
		free(flat);
		return -1;
	}
	char cnt[24], head[TABLE_LINE];
	snprintf(cnt, sizeof cnt, "%zu", count);
	const char *args[3] = { n, cnt, "" };
	if (too_long) {
		const char *targs[3] = { table_room_shown(t), n, cnt };
		text_fmt_in(table_lang_of(t, user), head, sizeof head, T_RECORD_TOO_LONG, 3, targs);
	} else {
		text_fmt_in(table_lang_of(t, user), head, sizeof head, T_RECORD_LINE, 3, args);
	}
	int ok = (rl->v[rl->n++] = strdup(head)) != NULL;
	for (size_t off = 0; ok && !too_long && off < len;) {
		size_t k = utf8_prefix(flat + off, len - off, piece);
		char *line = malloc(k + 1);
		if ((ok = line != NULL)) {
			memcpy(line, flat + off, k);
			line[k] = 0;
			rl->v[rl->n++] = line;
		}
		off += k;
	}
	free(flat);
	if (!ok) {
		record_lines_free(rl);
		return -1;
	}
	return 0;
}

/* Writes data (len bytes) as match-ID.EXT in the public directory, and
 * where people find it (under public_url, else the file's path) into
 * shown. 0, or -1 with err saying why. */
static int publish(const table *t, long long id, const char *ext, const char *data, size_t len, char *shown,
		   size_t shown_len, char *err, size_t errlen)
{
	char fname[64];
	snprintf(fname, sizeof fname, "match-%lld.%s", id, ext);
	if (page_publish(t->host->public_dir, fname, data, len, err, errlen) != 0)
		return -1;
	snprintf(shown, shown_len, "%s/%s", t->host->public_url[0] ? t->host->public_url : t->host->public_dir, fname);
	return 0;
}

static void cmd_record(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	if (!need_db(t, user))
		return;
	store *db = table_db(t);
	store_match_info m;
	int64_t id = 0;
	if (argc > 1) {
		char *end;
		long long v = strtoll(argv[1][0] == '#' ? argv[1] + 1 : argv[1], &end, 10);
		if (*end || v <= 0) {
			table_tell_txt(t, user, T_USAGE, T_USAGE_RECORD);
			return;
		}
		id = v;
	} else if (store_history(db, t->net->name, t->room, &m, 1) == 1) {
		id = m.id;
	}
	/* Only a finished match of this room: a match in play keeps its
	 * decks secret. */
	if (!id) {
		table_tell(t, user, T_HISTORY_NONE, NULL, NULL, NULL);
		return;
	}
	if (store_match_info_get(db, id, &m) != 1 || !m.ended || strcmp(m.network, t->net->name)
	    || !adapter_same_room(t->net, m.room, t->room)) {
		char n[32];
		snprintf(n, sizeof n, "%lld", (long long)id);
		table_tell(t, user, T_RECORD_NONE, n, t->host->prefix, NULL);
		return;
	}
	char *rec = store_match_record(db, id, 1, 1);
	if (!rec) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(db));
		table_tell_txt(t, user, T_ERROR, T_ERR_RECORD);
		return;
	}
	char n[32];
	snprintf(n, sizeof n, "%lld", (long long)id);
	/* The record in private lines, for a network with no files, or as
	 * what comes when an offered file is not taken (adapter_file.lines). */
	record_lines rl;
	if (record_lines_make(t, user, n, rec, &rl) < 0) {
		free(rec);
		table_tell_txt(t, user, T_ERROR, T_ERR_RECORD);
		return;
	}
	/* The match page beside the record (bot/store/page.c); without it, the record alone. */
	size_t html_len = 0;
	char *html = NULL;
	if (t->net->ops->send_file || t->host->public_dir[0]) {
		char err[RECORD_ERR_MAX];
		record *r = record_parse_game(rec, strlen(rec), err);
		html = r ? page_html(r, &html_len) : NULL;
		if (!html)
			log_msg(LOG_ERROR, NULL, "match %lld: no page: %s", (long long)id, r ? "out of memory" : err);
		record_free(r);
	}
	char key[TABLE_KEY_MAX];
	strbuf kb;
	sb_init(&kb, key, sizeof key);
	sb_printf(&kb, "%s record %s", t->room, n);
	int sent = -1;
	if (t->net->ops->send_file) {
		char fname[64], pname[64];
		snprintf(fname, sizeof fname, "match-%lld.json", (long long)id);
		snprintf(pname, sizeof pname, "match-%lld.html", (long long)id);
		adapter_file f = { .filename = fname, .mimetype = "application/json", .data = rec, .len = strlen(rec),
				   .lines = (const char *const *)rl.v, .nlines = rl.n, .flags = ADAPTER_NOTICE };
		t->host->answering(t->host->ctx, key, TABLE_ANSWER_WHOLE);
		sent = t->net->ops->send_file(t->net, user, &f);
		if (sent == 0) {
			adapter_file pf = { .filename = pname, .mimetype = "text/html", .data = html, .len = html_len };
			int page_ok = html && t->net->ops->send_file(t->net, user, &pf) == 0;
			table_tell(t, user, page_ok ? T_RECORD_PAGE : T_RECORD_FILE, n, fname, page_ok ? pname : NULL);
		} else if (sent > 0) {
			/* Offered (IRC's DCC SEND): the person's client must take it. */
			table_tell(t, user, T_RECORD_OFFERED, n, fname, t->net->ops->self(t->net));
		}
	}
	if (sent < 0 && t->host->public_dir[0]) {
		char shown[4200], pshown[4200], err[512];
		if (publish(t, (long long)id, "json", rec, strlen(rec), shown, sizeof shown, err, sizeof err) == 0) {
			int page_ok = html
				      && publish(t, (long long)id, "html", html, html_len, pshown, sizeof pshown, err,
						 sizeof err) == 0;
			if (html && !page_ok)
				log_msg(LOG_ERROR, NULL, "%s", err);
			table_tell(t, user, page_ok ? T_RECORD_PAGE : T_RECORD_FILE, n, shown, page_ok ? pshown : NULL);
			sent = 0;
		} else {
			log_msg(LOG_ERROR, NULL, "%s", err);
		}
	}
	free(html);
	free(rec);
	/* Asked for in full: paced behind others' lines, never cut at the
	 * limit on a person's waiting answers; asked again while it is still
	 * on its way, it is not sent twice. */
	if (sent < 0) {
		if (rl.n > 1)
			t->host->answering(t->host->ctx, key, TABLE_ANSWER_WHOLE);
		for (int i = 0; i < rl.n; i++)
			table_say_private(t, user, rl.v[i], ADAPTER_NOTICE);
	}
	record_lines_free(&rl);
}

static void cmd_help(table *t, const char *user, const char *name, int in_room, int argc, char **argv);

/* A person's language (bot/host/bot_lang.c answers, as it does away from tables). */
static void cmd_lang(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	t->host->lang_command(t->host->ctx, t->net, user, table_lang(t), argc, argv);
}

/* How private lines reach a person (bot/host/bot_lang.c answers, as away from tables). */
static void cmd_private(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	t->host->private_command(t->host->ctx, t->net, user, table_lang(t), argc, argv);
}

const char *table_game_word(const char *word, int nseats)
{
	/* A game at another table size of its family ("304" for six players is
	 * "304six"): the game's own word for it, from its game_def. */
	const game_def *d = game_find(word);
	return d ? game_at_seats(d, nseats)->name : word;
}

int table_set_game(table *t, const char *gname, int nseats)
{
	const game_def *d = game_find(gname);
	if (!d || t->state != TABLE_OPEN)
		return -1;
	if (nseats == 0)
		nseats = d->max_seats;
	if (nseats < d->min_seats || nseats > d->max_seats)
		return -1;
	/* The seated keep their order, packed into the seats the game has. */
	const present *pr = present_find(d);
	if (!pr)
		return -1;
	seat keep[TABLE_SEATS];
	memset(keep, 0, sizeof keep);
	int k = 0;
	for (int s = 0; s < TABLE_SEATS; s++)
		if (t->seats[s].user[0]) {
			if (k >= nseats)
				return -2;
			keep[k++] = t->seats[s];
		}
	memcpy(t->seats, keep, sizeof keep);
	t->gdef = d;
	t->pr = pr;
	t->nseats = nseats;
	game_free(t->g);
	t->g = NULL;
	if (pr->live_turn_seconds) {
		/* The game's own pace (Trump304: 30 seconds a turn, then a random legal card). */
		t->set.pace = PACE_LIVE;
		t->set.live_turn_seconds = pr->live_turn_seconds;
	}
	return 0;
}

const char *table_game_name(const table *t)
{
	return t->gdef->name;
}

static void cmd_new(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int n = 0;
	long v;
	if (argc > 2)
		n = parse_number(argv[2], 1, TABLE_SEATS, &v) < 0 ? -1 : (int)v;
	int r = n < 0 ? -1 : table_set_game(t, table_game_word(argv[1], n), n);
	if (r == -2) {
		table_tell(t, user, T_G_NEW_CROWDED, table_room_shown(t), NULL, NULL);
		return;
	}
	if (r < 0) {
		char games[TABLE_LINE];
		present_parts(table_lang_of(t, user), PRESENT_PART_NEW_REFUSED, t->host->prefix, games, sizeof games);
		table_tell(t, user, T_G_NEW_USAGE, table_room_shown(t), games, NULL);
		return;
	}
	char c[16];
	snprintf(c, sizeof c, "%d", t->nseats);
	char g[64];
	table_say(t, T_G_TABLE_GAME, table_game_shown(table_lang(t), g, sizeof g, table_game_name(t)), c, NULL);
	if (seated_count(t) == t->nseats)
		say_ready(t);
	table_flush(t);
}

void table_fill_and_start(table *t, const char *user, const char *name)
{
	char *bot_all[2] = { "bot", "all" }, *start[1] = { "start" };
	t->starting = 1;
	table_command(t, user, name, 1, 2, bot_all);
	t->starting = 0;
	table_command(t, user, name, 1, 1, start);
}

/* The host's own commands. With each game's (present.verbs, read by
 * cmd_game) they make the command table (command_list), validated in one
 * place (table_command) before any handler runs. */
static const command host_commands[] = {
	{ "ascii", NULL, cmd_ascii, 0, 1, CMD_SEATED, T_HELP_ASCII },
	{ "bot", "addbot", cmd_bot, 0, 1, 0, T_HELP_BOT },
	{ "claim", NULL, cmd_claim, 1, 1, 0, T_HELP_CLAIM },
	{ "cut", NULL, cmd_cut, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_CUT },
	{ "hand", "h", cmd_hand, 0, 0, CMD_SEATED | CMD_QUERY, T_HELP_HAND },
	{ "help", NULL, cmd_help, 0, 1, CMD_QUERY, T_HELP_HELP },
	{ "hint", NULL, cmd_hint, 0, 0, CMD_SEATED | CMD_PLAYING | CMD_QUERY, T_HELP_HINT },
	{ "history", NULL, cmd_history, 0, 0, CMD_QUERY | CMD_PAST, T_HELP_HISTORY },
	{ "lang", NULL, cmd_lang, 0, 1, 0, T_HELP_LANG },
	{ "last", NULL, cmd_last, 0, 0, CMD_QUERY, T_HELP_LAST },
	{ "leave", "stand", cmd_leave, 0, 0, CMD_SEATED, T_HELP_LEAVE },
	{ "new", NULL, cmd_new, 1, 2, CMD_OPEN, T_HELP_NEW },
	{ "notify", NULL, cmd_notify, 0, 0, 0, T_HELP_NOTIFY },
	{ "private", NULL, cmd_private, 0, 1, 0, T_HELP_PRIVATE },
	{ "record", NULL, cmd_record, 0, 1, CMD_PAST, T_HELP_RECORD },
	{ "rules", NULL, cmd_rules, 0, 1, CMD_QUERY, T_HELP_RULES },
	{ "score", NULL, cmd_score, 0, 0, CMD_QUERY, T_HELP_SCORE },
	{ "set", NULL, cmd_set, 2, 2, CMD_OPEN, T_HELP_SET },
	{ "sit", "join", cmd_sit, 0, 1, 0, T_HELP_SIT },
	{ "start", "deal", cmd_start, 0, 0, CMD_OPEN, T_HELP_START },
	{ "stats", NULL, cmd_stats, 0, 1, CMD_QUERY | CMD_PAST, T_HELP_STATS },
	{ "stop", NULL, cmd_stop, 0, 0, 0, T_HELP_STOP },
	{ "table", "t", cmd_table, 0, 0, CMD_QUERY, T_HELP_TABLE },
	{ "top", NULL, cmd_top, 0, 0, CMD_QUERY | CMD_PAST, T_HELP_TOP },
	{ "unbot", NULL, cmd_unbot, 1, 1, CMD_OPEN, T_HELP_UNBOT },
};
#define NHOST_COMMANDS (sizeof host_commands / sizeof host_commands[0])
/* The host's commands and every game's verbs: room for all of them (a
 * game's verb past it would be missing from `help`; bot_table checks it is
 * not). */
#define COMMANDS_MAX 64

static int command_cmp(const void *a, const void *b)
{
	return strcmp(((const command *)a)->name, ((const command *)b)->name);
}

/* The command table, sorted by name: the host's commands, and each game's
 * verb once, as pr (the table's game, or NULL) has it, else as the first
 * game of present_at's list that has it (a verb of another game answers
 * that this game has none). Returns the count. */
static size_t command_list(const present *pr, command out[COMMANDS_MAX])
{
	size_t n = 0;
	for (size_t i = 0; i < NHOST_COMMANDS; i++)
		out[n++] = host_commands[i];
	for (int g = -1; g < 0 || present_at(g); g++) {
		const present *p = g < 0 ? pr : present_at(g);
		for (const present_verb *v = p ? p->verbs : NULL; v && v->name && n < COMMANDS_MAX; v++) {
			size_t k = 0;
			while (k < n && strcmp(out[k].name, v->name))
				k++;
			if (k == n)
				out[n++] = (command){ v->name, v->alias, cmd_game, v->min_args, v->max_args,
						      CMD_SEATED | CMD_PLAYING, v->help };
		}
	}
	qsort(out, n, sizeof *out, command_cmp);
	return n;
}

/* The command for word (its name or alias) at a table of pr's game (NULL:
 * none): 1 with *out set, else 0. */
static int find_command(const present *pr, const char *word, command *out)
{
	command all[COMMANDS_MAX];
	size_t n = command_list(pr, all);
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(word, all[i].name) || (all[i].alias && !strcasecmp(word, all[i].alias))) {
			*out = all[i];
			return 1;
		}
	return 0;
}

/* "I do not know" word, with the command nearest to it when there is one. */
static void unknown_command(const text_lang *l, char *buf, size_t len, const char *word, const char *prefix)
{
	command all[COMMANDS_MAX];
	size_t n = command_list(NULL, all);
	const char *words[2 * COMMANDS_MAX];
	for (size_t i = 0; i < n; i++) {
		words[2 * i] = all[i].name;
		words[2 * i + 1] = all[i].alias;
	}
	const char *near = nearest_word(word, words, 2 * n);
	const char *args[3] = { word, prefix, near };
	text_fmt_in(l, buf, len, near ? T_UNKNOWN_COMMAND_NEAR : T_UNKNOWN_COMMAND, 3, args);
}

/* Command c's help line in l: {1} the prefix; {2} and {3} the games' parts
 * of it, for the help lines that list the games (present_parts). */
static void help_line(const text_lang *l, char *buf, size_t len, const command *c, const char *prefix)
{
	static const struct {
		int help, parts[2];
	} listing[] = {
		{ T_HELP_CUT, { PRESENT_PART_CUT, PRESENT_PART_NONE } },
		{ T_HELP_NEW, { PRESENT_PART_NEW, PRESENT_PART_NONE } },
		{ T_HELP_STATS, { PRESENT_PART_STATS, PRESENT_PART_CAPS } },
	};
	char parts[2][TABLE_LINE] = { "", "" };
	for (size_t i = 0; i < sizeof listing / sizeof listing[0]; i++)
		for (int k = 0; k < 2 && listing[i].help == c->help; k++)
			present_parts(l, listing[i].parts[k], prefix, parts[k], sizeof parts[k]);
	const char *args[3] = { prefix, parts[0], parts[1] };
	text_fmt_in(l, buf, len, c->help, 3, args);
}

void table_help(const table_host *h, adapter *net, const char *user, int argc, char **argv)
{
	char buf[TABLE_LINE];
	const text_lang *l = h->lang_private(h->ctx, net, user);
	if (argc > 1) {
		command cmd;
		const command *c = find_command(NULL, argv[1][0] == h->prefix[0] ? argv[1] + 1 : argv[1], &cmd)
					   ? &cmd
					   : NULL;
		if (!c) {
			unknown_command(l, buf, sizeof buf, argv[1][0] == h->prefix[0] ? argv[1] + 1 : argv[1],
					h->prefix);
		} else {
			help_line(l, buf, sizeof buf, c, h->prefix);
		}
		h->say_private(h->ctx, net, user, buf, ADAPTER_NOTICE);
		return;
	}
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	const char *args[3] = { h->prefix, "", "" };
	text_fmt_in(l, buf, sizeof buf, T_HELP_INTRO, 3, args);
	b.len = strlen(buf);
	command all[COMMANDS_MAX];
	size_t n = command_list(NULL, all);
	for (size_t i = 0; i < n; i++)
		sb_printf(&b, "%s%s%s", i ? " " : "", h->prefix, all[i].name);
	h->say_private(h->ctx, net, user, buf, ADAPTER_NOTICE);
	text_fmt_in(l, buf, sizeof buf, T_HELP_SAME_WORDS, 3, args);
	h->say_private(h->ctx, net, user, buf, ADAPTER_NOTICE);
}

static void cmd_help(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	table_help(t->host, t->net, user, argc, argv);
}

void table_command(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	table_enter(t);
	table_viewers_sync(t);
	command cmd;
	const command *c = find_command(t->pr, argv[0], &cmd) ? &cmd : NULL;
	if (!c) {
		char buf[TABLE_LINE];
		unknown_command(table_lang_of(t, user), buf, sizeof buf, argv[0], t->host->prefix);
		table_say_private(t, user, buf, ADAPTER_NOTICE);
		return;
	}
	char usage[64];
	snprintf(usage, sizeof usage, "%s%s", t->host->prefix, c->name);
	if (argc - 1 < c->min_args || argc - 1 > c->max_args) {
		char buf[TABLE_LINE];
		help_line(table_lang_of(t, user), buf, sizeof buf, c, t->host->prefix);
		table_tell(t, user, T_USAGE, buf, NULL, NULL);
		return;
	}
	if ((c->flags & CMD_SEATED) && table_seat_of(t, user) < 0) {
		table_tell(t, user, T_NOT_SEATED, table_room_shown(t), NULL, NULL);
		return;
	}
	if ((c->flags & CMD_PLAYING) && t->state != TABLE_PLAYING) {
		table_tell(t, user, T_NOT_PLAYING, table_room_shown(t), t->host->prefix, NULL);
		return;
	}
	/* The room's language and lastcard may change during a match: they
	 * touch no rule; but only its players change them then (a
	 * spectator's `!set lang` every second was a flood of room lines:
	 * issue 29). */
	int any_time = c->fn == cmd_set && argc > 1 && (!strcasecmp(argv[1], "lang") || !strcasecmp(argv[1], "lastcard"));
	if (any_time && t->state != TABLE_OPEN && table_seat_of(t, user) < 0) {
		table_tell(t, user, T_SET_PLAYERS_ONLY, table_room_shown(t), NULL, NULL);
		return;
	}
	if ((c->flags & CMD_OPEN) && t->state != TABLE_OPEN && !any_time) {
		if (c->fn == cmd_start)
			table_tell(t, user, T_ALREADY_PLAYING, table_room_shown(t), t->host->prefix, NULL);
		else
			table_tell(t, user, T_ONLY_BETWEEN, table_room_shown(t), t->host->prefix, NULL);
		return;
	}
	/* A table answers private commands only from the people in its room
	 * and its players. */
	if (!in_room && c->fn != cmd_help && !table_admits(t, user)) {
		table_tell(t, user, T_NOT_PRESENT, table_room_shown(t), NULL, NULL);
		return;
	}
	/* A nick the bot lost sight of speaks for its seat only with the key. */
	int mine = table_seat_of(t, user);
	if (mine >= 0 && t->seats[mine].unconfirmed && c->fn != cmd_claim && c->fn != cmd_help) {
		char n[16];
		snprintf(n, sizeof n, "%d", mine + 1);
		table_tell(t, user, t->seats[mine].key[0] ? T_CLAIM_HOW : T_CLAIM_NO_KEY, table_room_shown(t), n, NULL);
		return;
	}
	argv[0] = (char *)c->name; /* the canonical word, for handlers that read it */
	if (c->flags & CMD_QUERY) {
		/* The same question at the same table says the same thing. */
		char key[TABLE_KEY_MAX];
		strbuf kb;
		sb_init(&kb, key, sizeof key);
		sb_printf(&kb, "%s", t->room);
		for (int i = 0; i < argc; i++)
			sb_printf(&kb, " %s", argv[i]);
		t->host->answering(t->host->ctx, key, TABLE_ANSWER_REPEATS);
	} else if (!(c->flags & CMD_PLAYING) && c->fn != cmd_start && c->fn != cmd_stop) {
		/* Only moves, and a match's start and end, are the room's story;
		 * the rest answers its speaker, counted against them and behind
		 * the game (sendq.h), even when said in the room (issue 29: a
		 * spectator's !sit/!leave every second held the moves up by 40 s).
		 * A newer line about the same thing makes the waiting one stale:
		 * where someone sits now, the game chosen now, a setting now. */
		char key[TABLE_KEY_MAX];
		strbuf kb;
		sb_init(&kb, key, sizeof key);
		int stale = 1;
		if (c->fn == cmd_sit || c->fn == cmd_leave)
			sb_printf(&kb, "%s seat %s", t->room, user);
		else if (c->fn == cmd_new)
			sb_printf(&kb, "%s new", t->room);
		else if (c->fn == cmd_set)
			sb_printf(&kb, "%s set %s", t->room, argv[1]);
		else
			stale = 0;
		t->host->answering(t->host->ctx, stale ? key : NULL, stale ? TABLE_ANSWER_REPLACES : TABLE_ANSWER_REPEATS);
	}
	t->cmd_in_room = in_room;
	c->fn(t, user, name, in_room, argc, argv);
	t->cmd_in_room = 0;
	table_persist(t); /* seats, settings and the notify list, when they changed */
}

/* ---- where no table is open ---- */

/* A private line from the host with no table in question, in the person's language. */
static void tell_person(const table_host *h, adapter *net, const char *user, int id, const char *a1, const char *a2)
{
	char buf[TABLE_LINE];
	const char *args[3] = { a1 ? a1 : h->prefix, a2 ? a2 : "", "" };
	text_fmt_in(h->lang_private(h->ctx, net, user), buf, sizeof buf, id, 3, args);
	h->say_private(h->ctx, net, user, buf, ADAPTER_NOTICE);
}

/* A table for one question about a room where none is open: the room's
 * settings and language, never saved (closing: table_persist skips it),
 * nothing of its opening announced. The caller frees it. */
static table *probe_new(const table_host *h, adapter *net, const char *room)
{
	table_settings set;
	h->settings_for(h->ctx, net, room, &set);
	table *t = table_new(h, net, room, &set);
	if (!t)
		return NULL;
	t->closing = 1;
	if (set.game[0])
		table_set_game(t, set.game, 0);
	table_recall_settings(t);
	table_out_clear(t); /* the recalled settings: nobody asked */
	return t;
}

struct notify_find {
	const table *t;
	const char *user;
	int found;
};

static void notify_found(void *ctx, const char *user)
{
	struct notify_find *f = ctx;
	f->found |= table_same_user(f->t, f->user, user);
}

/* !notify where no table is open: hear when one opens here (again: no more). */
static void notify_no_table(table *t, const char *user)
{
	if (!need_db(t, user))
		return;
	struct notify_find f = { t, user, 0 };
	if (store_notify_each(table_db(t), t->net->name, t->room, notify_found, &f) < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(table_db(t)));
		return;
	}
	notify_keep(t->host, t->net, t->room, user, !f.found);
	table_tell(t, user, f.found ? T_NOTIFY_OPEN_OFF : T_NOTIFY_OPEN_ON, table_room_shown(t), NULL, NULL);
}

/* !rules where no table is open: what each game is, one line each. */
static void rules_no_table(const table_host *h, adapter *net, const char *user)
{
	char buf[TABLE_LINE];
	strbuf sb;
	sb_init(&sb, buf, sizeof buf);
	const text_lang *l = h->lang_private(h->ctx, net, user);
	const char *args[3] = { h->prefix, "", "" };
	char part[TABLE_LINE];
	text_fmt_in(l, part, sizeof part, T_GAMES_INTRO, 3, args);
	sb_add(&sb, part);
	h->say_private(h->ctx, net, user, buf, ADAPTER_NOTICE);
	for (int i = 0; present_at(i); i++) {
		text_fmt_in(l, part, sizeof part, present_at(i)->t_brief, 3, args);
		h->say_private(h->ctx, net, user, part, ADAPTER_NOTICE);
	}
}

void table_no_table(const table_host *h, adapter *net, const char *room, const char *user, const char *name, int in_room,
		    int argc, char **argv)
{
	command cmd;
	const command *c = find_command(NULL, argv[0], &cmd) ? &cmd : NULL;
	int none = room ? T_NO_TABLE : T_NO_TABLE_FOR_YOU;
	if (!c) {
		/* In a room, another bot's command is none of our business. */
		if (!in_room)
			tell_person(h, net, user, none, NULL, NULL);
		return;
	}
	if (c->fn == cmd_help) {
		table_help(h, net, user, argc, argv);
		tell_person(h, net, user, none, NULL, NULL);
		return;
	}
	if (c->fn == cmd_rules) {
		rules_no_table(h, net, user);
		return;
	}
	if (c->fn == cmd_ascii) {
		store_user u = { .ascii = 0 };
		if (h->db(h->ctx) && store_user_get(h->db(h->ctx), net->name, user, &u) < 0)
			log_msg(LOG_ERROR, NULL, "%s", store_error(h->db(h->ctx)));
		int on = argc > 1 ? on_off(argv[1]) : !u.ascii;
		if (on < 0 || argc > 2) {
			char inner[TABLE_LINE];
			const char *args[1] = { "" };
			text_fmt_in(h->lang_private(h->ctx, net, user), inner, sizeof inner, T_USAGE_ASCII, 1, args);
			tell_person(h, net, user, T_USAGE, inner, NULL);
			return;
		}
		ascii_keep(h, net, user, on);
		tell_person(h, net, user, on ? T_ASCII_ON : T_ASCII_OFF, NULL, NULL);
		return;
	}
	if (!(c->flags & CMD_PAST) && c->fn != cmd_notify) {
		tell_person(h, net, user, none, NULL, NULL);
		return;
	}
	/* The room's past, or hearing of its next table: a room is needed. */
	if (!room) {
		tell_person(h, net, user, T_NAME_ROOM, c->name, NULL);
		return;
	}
	table *t = probe_new(h, net, room);
	if (!t) {
		tell_person(h, net, user, T_ERROR, text_line(h->lang_private(h->ctx, net, user), T_ERR_MEMORY), NULL);
		return;
	}
	if (c->fn == cmd_notify) {
		table_enter(t);
		if (in_room || table_admits(t, user))
			notify_no_table(t, user);
		else
			table_tell(t, user, T_NOT_PRESENT, table_room_shown(t), NULL, NULL);
	} else {
		table_command(t, user, name, in_room, argc, argv);
	}
	table_free(t);
}
