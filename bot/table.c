/* table.c: a 304 table in a chat room: seating, the flow of a match, what is said where, and the turn timer.
 *
 * What is private stays private: hands, the trump choice, face-down plays
 * and the trumper's inspection go only to the seat entitled to them, and
 * every refusal goes privately too (a refusal can say something about the
 * refused card, such as that it is a trump).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include "bot.h"
#include "fair.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_ai.h"
#include "ai_worker.h"
#include "log.h"
#include "loop.h"
#include "render.h"
#include "table.h"
#include "table_game.h"
#include "table_store.h"
#include "text.h"

#define LINE_MAX_BYTES 380   /* one announcement line; adapters split longer ones anyway */
#define PRIVATE_MAX 1024
#define SAVE_RETRY_MS 5000   /* a computer player's next try after a failed save */
#define TEAM_TEXT (2 * TABLE_NAME_MAX + 8) /* "ann & cat" */

enum timer_kind { TK_NONE, TK_WARN, TK_MOVE, TK_REMIND };

void table_settings_default(table_settings *s)
{
	memset(s, 0, sizeof *s);
	g304_rules_default(&s->rules);
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
	snprintf(s->game, sizeof s->game, "304");
}

static void schedule(table *t);
static int caps_autoplay(table *t, int s);
static int auto_seat(table *t, int s);
static const char *txt(char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3);
static void tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3);

/* ---- saying things ---- */

static const char *seat_name(const table *t, int s)
{
	static char nobody[64], empty[64];
	if (!nobody[0]) {
		txt(nobody, sizeof nobody, T_NOBODY, NULL, NULL, NULL);
		txt(empty, sizeof empty, T_EMPTY_SEAT, NULL, NULL, NULL);
	}
	if (s < 0 || s >= G304_SEATS)
		return nobody;
	return t->seats[s].user[0] ? t->seats[s].name : empty;
}

/* The table's room as its people know it, for what the bot tells them: a
 * Matrix room's alias rather than its id. The result lives until the next
 * call (one table is rendered at a time). */
const char *table_room_shown(const table *t)
{
	static char label[ADAPTER_ID_MAX];
	if (t->net && t->net->ops->room_label && t->net->ops->room_label(t->net, t->room, label, sizeof label)
	    && label[0])
		return label;
	return t->room;
}

/* Appends one announcement; announcements are joined into as few lines as
 * fit, and sent when the table flushes. */
static void announce(table *t, const char *text)
{
	size_t n = strlen(text);
	if (t->outlen && t->outlen + 3 + n < sizeof t->out) {
		memcpy(t->out + t->outlen, " \xc2\xb7 ", 4);
		t->outlen += 4;
	}
	if (t->outlen + n >= sizeof t->out)
		n = sizeof t->out - 1 - t->outlen;
	memcpy(t->out + t->outlen, text, n);
	t->outlen += n;
	t->out[t->outlen] = '\0';
}

static void say(table *t, int id, const char *a1, const char *a2, const char *a3)
{
	char buf[PRIVATE_MAX];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt(buf, sizeof buf, id, 3, args);
	announce(t, buf);
}

/* Message id with up to three arguments, written into buf (returned). */
static const char *txt(char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3)
{
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt(buf, len, id, 3, args);
	return buf;
}

static void sb_txt(strbuf *b, int id, const char *a1, const char *a2, const char *a3)
{
	char buf[PRIVATE_MAX];
	sb_add(b, txt(buf, sizeof buf, id, a1, a2, a3));
}

/* Saves the table's seats and settings when they changed since the last save. */
static void persist(table *t)
{
	store *db = t->bot->db;
	if (!db || t->closing)
		return;
	static char meta[TSTORE_META_MAX];
	if (tstore_meta(t, meta, sizeof meta) < 0)
		return;
	unsigned long h = 5381;
	for (const unsigned char *p = (const unsigned char *)meta; *p; p++)
		h = h * 33 + *p;
	h ^= (unsigned long)t->match_id * 0x9e3779b9ul;
	if (h == t->meta_hash)
		return;
	if (store_table_save(db, t->net->name, t->room, meta, t->match_id) < 0) {
		log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(db));
		return;
	}
	if (t->match_id && t->state == TABLE_PLAYING) {
		/* Who plays each seat now (a newcomer, a computer standing in). */
		store_seat ss[G304_SEATS];
		memset(ss, 0, sizeof ss); /* seats past the table's count stay unnamed (not stored) */
		for (int s = 0; s < t->nseats; s++)
			ss[s] = (store_seat){ t->seats[s].computer ? "" : t->seats[s].user, t->seats[s].name,
					      t->seats[s].computer };
		if (store_match_seats(db, t->match_id, ss) < 0)
			log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(db));
	}
	t->meta_hash = h;
}

/* A write to the database failed: the table says so (once until a write
 * works again), and the log has the reason. */
static void save_failed(table *t, const char *user)
{
	log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(t->bot->db));
	if (user)
		tell(t, user, T_SAVE_FAILED, table_room_shown(t), NULL, NULL);
	if (!t->save_failed) {
		t->save_failed = 1;
		say(t, T_SAVE_FAILED_ROOM, NULL, NULL, NULL);
	}
}

/* A write to the database worked: if the last one had failed, the table
 * hears that the game goes on. */
static void save_works(table *t)
{
	if (t->save_failed) {
		t->save_failed = 0;
		say(t, T_SAVE_WORKS, NULL, NULL, NULL);
	}
}

/* Sends what was announced, split at the joints into lines of a sensible size. */
static void flush(table *t)
{
	persist(t);
	const char *sep = " \xc2\xb7 ";
	char *p = t->out;
	while (*p) {
		size_t len = strlen(p);
		size_t cut = len;
		if (len > LINE_MAX_BYTES) {
			cut = 0;
			for (char *q = strstr(p, sep); q && (size_t)(q - p) <= LINE_MAX_BYTES; q = strstr(q + 1, sep))
				cut = (size_t)(q - p);
			if (!cut)
				cut = len; /* one long announcement: the adapter splits it */
		}
		char line[TABLE_OUT_MAX];
		memcpy(line, p, cut);
		line[cut] = '\0';
		bot_say_room(t->bot, t->net, t->room, line, ADAPTER_NOTICE);
		p += cut;
		if (strncmp(p, sep, strlen(sep)) == 0)
			p += strlen(sep);
	}
	t->outlen = 0;
	t->out[0] = '\0';
}

static void tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3)
{
	if (!user || !*user)
		return; /* nobody to tell (settings recalled from the database) */
	char buf[PRIVATE_MAX];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt(buf, sizeof buf, id, 3, args);
	bot_say_private(t->bot, t->net, user, buf, ADAPTER_NOTICE);
}

static int style_of(const table *t, int s)
{
	return (s >= 0 && s < G304_SEATS && t->seats[s].ascii) ? RENDER_ASCII : RENDER_COLOUR;
}

/* For bot/table_game.c (table_game.h). */
void tb_say(table *t, int id, const char *a1, const char *a2, const char *a3) { say(t, id, a1, a2, a3); }
void tb_tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3)
{
	tell(t, user, id, a1, a2, a3);
}
const char *tb_txt(char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3)
{
	return txt(buf, len, id, a1, a2, a3);
}
void tb_flush(table *t) { flush(t); }
const char *tb_seat_name(const table *t, int s) { return seat_name(t, s); }
void tb_save_failed(table *t, const char *user) { save_failed(t, user); }
void tb_save_works(table *t) { save_works(t); }
int tb_style_of(const table *t, int s) { return style_of(t, s); }

/* Who bid for seat s in this deal: the name it had then (a computer's seat
 * may have been taken since), else its name now. */
static const char *bid_name(const table *t, int s)
{
	if (s >= 0 && s < G304_SEATS && t->bid_by[s][0])
		return t->bid_by[s];
	return seat_name(t, s);
}
const char *tb_bid_name(const table *t, int s) { return bid_name(t, s); }

/* May seat s be told its private cards? A person, and one the bot has
 * not lost sight of since they sat (see `claim`). */
static int private_ok(const table *t, int s)
{
	return s >= 0 && s < G304_SEATS && t->seats[s].user[0] && !t->seats[s].computer && !t->seats[s].unconfirmed;
}
int tb_private_ok(const table *t, int s) { return private_ok(t, s); }

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
	if (t->state != TABLE_PLAYING)
		return 0;
	if (t->gdef) {
		game_status gs;
		if (!t->g)
			return 0;
		game_status_of(t->g, &gs);
		return gs.over || gs.needs_deal ? 0 : t->deal_idx;
	}
	return t->game.phase == G304_PHASE_DEAL || t->game.phase == G304_PHASE_OVER ? 0 : t->deal_idx;
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

/* The seat whose cards `user` has been shown in this deal, or -1: by any
 * identity they held in it, or by the user@host they spoke from (someone
 * who quits and comes back under a new nick from the same client). */
static int viewer_seat(const table *t, const char *user)
{
	int d = cards_out(t);
	for (int i = 0; d && i < t->nviewers; i++)
		if (t->viewers[i].deal == d && !strcasecmp(t->viewers[i].user, user))
			return t->viewers[i].seat;
	char uh[ADAPTER_ID_MAX];
	if (!d)
		return -1;
	userhost_of(t, user, uh, sizeof uh);
	for (int i = 0; uh[0] && i < t->nviewers; i++)
		if (t->viewers[i].deal == d && !strcmp(t->viewers[i].origin, uh))
			return t->viewers[i].seat;
	return -1;
}

/* Notes that `user` holds seat s while this deal's cards are out; 0, or -1
 * when the list is full (the caller then refuses the seat). */
static int viewer_add(table *t, const char *user, int s)
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
		if (!strcasecmp(t->viewers[i].user, user) && t->viewers[i].seat == s)
			return 0;
	if (n >= TABLE_VIEWERS_MAX)
		return -1;
	seat_viewer *v = &t->viewers[t->nviewers++];
	snprintf(v->user, sizeof v->user, "%s", user);
	userhost_of(t, user, v->origin, sizeof v->origin);
	v->seat = s;
	v->deal = d;
	return 0;
}

/* Everyone seated now has seen their seat's cards. Called before anything
 * can take a person out of a seat (every command, a leave, a rename), so
 * nobody leaves a seat unrecorded. */
static void viewers_sync(table *t)
{
	if (!cards_out(t)) {
		t->nviewers = 0;
		return;
	}
	for (int s = 0; s < t->nseats; s++)
		if (t->seats[s].user[0] && !t->seats[s].computer && !t->seats[s].unconfirmed)
			viewer_add(t, t->seats[s].user, s);
}

/* The seat to move in whichever game the table plays, or -1. */
static int turn_of(const table *t)
{
	if (t->gdef)
		return tg_turn(t);
	return t->game.turn == G304_NO_SEAT ? -1 : t->game.turn;
}

/* Cards in a line for everyone: the room uses symbols with colours. */
static void room_card(card c, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	render_card(&b, c, RENDER_COLOUR);
}

static void bid_text(int bid, char *buf, size_t len)
{
	if (bid >= G304_BID_PCC)
		snprintf(buf, len, "pcc");
	else
		snprintf(buf, len, "%d", bid);
}

/* "trick 3, spades led, trump hidden" for a seat. */
static void state_line(const table *t, int s, char *buf, size_t len)
{
	g304_view v;
	g304_view_of(&t->game, s, &v);
	strbuf b;
	sb_init(&b, buf, len);
	sb_printf(&b, "%s: ", table_room_shown(t));
	char n[32], m[32];
	switch (v.phase) {
	case G304_PHASE_BID4:
		snprintf(n, sizeof n, "%d", v.bid);
		sb_txt(&b, v.bid ? T_STATE_BID4_HIGH : T_STATE_BID4, n, bid_name(t, v.bidder), NULL);
		break;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		sb_txt(&b, T_STATE_TRUMP, seat_name(t, v.trumper), NULL, NULL);
		break;
	case G304_PHASE_BID8:
		snprintf(n, sizeof n, "%d", v.bid);
		sb_txt(&b, T_STATE_BID8, n, NULL, NULL);
		break;
	case G304_PHASE_PLAY: {
		const g304_trick *tr = &v.tricks[v.ntricks - 1];
		snprintf(n, sizeof n, "%d", v.ntricks);
		sb_txt(&b, T_STATE_TRICK, n, NULL, NULL);
		if (tr->n)
			sb_txt(&b, T_STATE_LED, suit_name(card_suit(tr->card[0])), NULL, NULL);
		if (v.trump_open)
			sb_txt(&b, T_STATE_TRUMPS, suit_name(v.trump_suit), NULL, NULL);
		else if (s == v.trumper)
			sb_txt(&b, T_STATE_MY_TRUMP, suit_name(v.trump_suit), NULL, NULL);
		else
			sb_txt(&b, T_STATE_TRUMP_HIDDEN, NULL, NULL, NULL);
		bid_text(v.bid, m, sizeof m);
		sb_txt(&b, T_STATE_CONTRACT, m, bid_name(t, v.trumper), NULL);
		break;
	}
	default:
		sb_txt(&b, T_STATE_BETWEEN, NULL, NULL, NULL);
	}
	if (v.turn == s)
		sb_txt(&b, T_STATE_YOUR_TURN, NULL, NULL, NULL);
}

/* The private hand line: table, state, hand with positions, legal cards. */
static void send_hand(table *t, int s)
{
	if (t->gdef) {
		tg_send_hand(t, s);
		return;
	}
	if (!private_ok(t, s) || t->state != TABLE_PLAYING)
		return;
	g304_view v;
	g304_legal l;
	g304_view_of(&t->game, s, &v);
	g304_legal_of(&t->game, s, &l);
	char line[PRIVATE_MAX], st[256];
	strbuf b;
	sb_init(&b, line, sizeof line);
	state_line(t, s, st, sizeof st);
	char cards[PRIVATE_MAX];
	strbuf cb;
	sb_init(&cb, cards, sizeof cards);
	render_hand(&cb, v.hand, style_of(t, s), 1);
	sb_txt(&b, T_HAND, st, cards, NULL);
	if (s == v.trumper && v.trump_down && v.trump_card != CARD_NONE) {
		sb_init(&cb, cards, sizeof cards);
		render_card(&cb, v.trump_card, style_of(t, s));
		sb_txt(&b, T_HAND_TRUMP_CARD, cards, NULL, NULL);
	}
	if ((l.acts & (1u << G304_ACT_PLAY)) && t->set.hints) {
		sb_init(&cb, cards, sizeof cards);
		render_hand(&cb, l.cards & v.hand, style_of(t, s), 0);
		sb_txt(&b, T_HAND_MAY_PLAY, cards, NULL, NULL);
		if (s == v.trumper && v.trump_down && (l.cards & card_bit(v.trump_card)))
			sb_txt(&b, T_HAND_OR_TRUMP_CARD, NULL, NULL, NULL);
	} else if (l.acts & (1u << G304_ACT_TRUMP)) {
		sb_txt(&b, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL);
	}
	bot_say_story(t->bot, t->net, t->room, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

static void say_turn(table *t, int s);

static void nudge_fire(void *ctx)
{
	table *t = ctx;
	t->nudge_timer = 0;
	int s = t->game.turn;
	if (t->state != TABLE_PLAYING || s == G304_NO_SEAT || t->seats[s].computer || t->gdef)
		return;
	if (t->outlen)
		flush(t);
	say_turn(t, s);
	/* Timely: a network that must hold it back drops it rather than tell
	 * of a turn that has passed meanwhile. */
	if (t->outlen)
		bot_say_room(t->bot, t->net, t->room, t->out, ADAPTER_NOTICE | ADAPTER_HIGHLIGHT | ADAPTER_TIMELY);
	t->outlen = 0;
	t->out[0] = '\0';
}

/* Whose turn, and what they may do, in the room with their name so that
 * clients highlight it. */
static void prompt_turn(table *t)
{
	int s = t->game.turn;
	if (t->nudge_timer) {
		loop_cancel(t->bot->ev, t->nudge_timer);
		t->nudge_timer = 0;
	}
	if (t->state != TABLE_PLAYING || s == G304_NO_SEAT || t->seats[s].computer)
		return;
	/* Brief: the room saw the move typed and nothing else happened, so
	 * the turn passes in silence; a line that goes out anyway names it,
	 * and so does a mention if the player has not moved a while later. */
	if (t->set.brief && !t->outlen) {
		if (t->set.turn_nudge_ms > 0)
			t->nudge_timer = loop_timer(t->bot->ev, t->set.turn_nudge_ms, nudge_fire, t);
		return;
	}
	say_turn(t, s);
	if (!t->set.brief)
		send_hand(t, s);
}

/* The turn line: "ann: your turn to play." */
static void say_turn(table *t, int s)
{
	g304_legal l;
	g304_legal_of(&t->game, s, &l);
	char what[128];
	switch (t->game.phase) {
	case G304_PHASE_BID4:
	case G304_PHASE_BID8:
		if ((l.acts & (1u << G304_ACT_BID)) && l.bid_min)
			snprintf(what, sizeof what, "%d or more%s, or pass", l.bid_min,
				 (l.acts & (1u << G304_ACT_PARTNER)) ? ", partner" : "");
		else if (l.pcc_ok)
			snprintf(what, sizeof what, "pcc or pass");
		else
			snprintf(what, sizeof what, "pass%s", (l.acts & (1u << G304_ACT_PARTNER)) ? " or partner" : "");
		say(t, T_TURN_BID, t->seats[s].name, what, NULL);
		break;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		say(t, T_TURN_TRUMP, t->seats[s].name, NULL, NULL);
		break;
	case G304_PHASE_PLAY:
		say(t, T_TURN_PLAY, t->seats[s].name, NULL, NULL);
		break;
	default:
		return;
	}
}

/* ---- dealing ---- */

static void deal_next(void *ctx)
{
	table *t = ctx;
	t->deal_timer = 0;
	if (t->state != TABLE_PLAYING || t->game.phase != G304_PHASE_DEAL)
		return;
	card deck[CARD_COUNT];
	if (fair_shuffle(deck) < 0) {
		say(t, T_ERROR, "the random source failed; try !start again", NULL, NULL);
		t->state = TABLE_OPEN;
		flush(t);
		return;
	}
	/* The courtesy cut (RULES.md): it changes nothing about fairness, and
	 * the deck committed to and stored is the deck after it. */
	int cut = t->cut_at, cutter = t->cut_seat;
	t->cut_at = 0;
	t->cut_seat = -1;
	fair_cut(deck, cut);
	if (t->bot->test_deck) {
		memcpy(deck, t->bot->test_deck, sizeof deck);
		t->bot->test_deck = NULL;
	}
	if (fair_salt(t->salt) < 0 || fair_commit(deck, t->salt, t->commitment) < 0) {
		say(t, T_ERROR, "the random source failed; try !start again", NULL, NULL);
		t->state = TABLE_OPEN;
		flush(t);
		return;
	}
	/* The deck is stored before anyone sees a card of it. */
	store *db = t->bot->db;
	if (db && t->match_id) {
		char dj[TSTORE_DECK_MAX];
		tstore_deck_json(deck, dj, sizeof dj);
		if (store_deal_begin(db, t->match_id, t->deal_idx, dj, t->salt, t->commitment) < 0) {
			save_failed(t, NULL);
			flush(t);
			t->deal_timer = loop_timer(t->bot->ev, SAVE_RETRY_MS, deal_next, t);
			return;
		}
		save_works(t);
	}
	t->deal_idx++;
	t->seq = 0;
	memset(t->bid_by, 0, sizeof t->bid_by);
	g304_deal(&t->game, deck);
	memset(deck, 0, sizeof deck);
	if (cut > 0 && cutter >= 0) {
		char c[16];
		snprintf(c, sizeof c, "%d", cut);
		say(t, T_CUT_DONE, seat_name(t, cutter), c, NULL);
	}
	char n[16];
	snprintf(n, sizeof n, "%d", t->game.deal_no);
	say(t, T_DEAL, n, seat_name(t, t->game.dealer), seat_name(t, (t->game.dealer + 1) & 3));
	say(t, T_COMMITMENT, t->commitment, NULL, NULL);
	for (int s = 0; s < G304_SEATS; s++)
		if (s != t->game.turn || t->set.brief)
			send_hand(t, s);
	prompt_turn(t);
	flush(t);
	schedule(t);
}

/* ---- events into words ---- */

static void team_names(const table *t, int team, char *buf, size_t len)
{
	snprintf(buf, len, "%s & %s", seat_name(t, team), seat_name(t, team + 2));
}


static void deal_end_words(table *t)
{
	const g304_deal_end *e = &t->game.last;
	char a[TEAM_TEXT], b[TEAM_TEXT], c[64];
	switch (e->outcome) {
	case G304_OUTCOME_REDEAL:
		return; /* the REJECTED event said it */
	case G304_OUTCOME_PASSED_OUT:
		say(t, T_PASSED_OUT, seat_name(t, t->game.dealer), NULL, NULL);
		break;
	case G304_OUTCOME_SPOILT:
		if (e->spoilt_right)
			say(t, T_SPOILT_RIGHT, seat_name(t, e->spoilt_seat), NULL, NULL);
		else
			say(t, T_SPOILT_WRONG, seat_name(t, e->spoilt_seat), NULL, NULL);
		break;
	case G304_OUTCOME_SCORED: {
		int tt = g304_team(e->trumper);
		bid_text(e->bid, c, sizeof c);
		snprintf(a, sizeof a, "%d", e->points[tt]);
		say(t, e->made ? T_MADE : T_FAILED, seat_name(t, e->trumper), c, a);
		if (e->caps != G304_CAPSO_NONE)
			say(t, T_CAPS_RESULT, g304_caps_outcome_name(e->caps),
			    e->caps_seat < G304_SEATS ? seat_name(t, e->caps_seat) : txt(c, sizeof c, T_NOT_CALLED, NULL, NULL, NULL),
			    NULL);
		break;
	}
	default:
		break;
	}
	team_names(t, 0, a, sizeof a);
	team_names(t, 1, b, sizeof b);
	char tok[64];
	snprintf(tok, sizeof tok, "%d : %d", t->game.tokens[0], t->game.tokens[1]);
	say(t, T_TOKENS, a, b, tok);
}

/* The trumper's private look at the face-down cards of a finished trick. */
static void inspection(table *t, int trick)
{
	int tr = t->game.trumper;
	if (tr == G304_NO_SEAT || !private_ok(t, tr))
		return;
	g304_view v;
	g304_view_of(&t->game, tr, &v);
	const g304_trick *x = &v.tricks[trick];
	char cards[PRIVATE_MAX], line[PRIVATE_MAX], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	int any = 0;
	for (int k = 0; k < x->n; k++)
		if ((x->down >> k & 1) && x->seat[k] != tr && x->card[k] != CARD_NONE) {
			sb_printf(&b, " %s ", seat_name(t, x->seat[k]));
			render_card(&b, x->card[k], style_of(t, tr));
			any = 1;
		}
	snprintf(n, sizeof n, "%d", trick + 1);
	if (any)
		bot_say_story(t->bot, t->net, t->room, t->seats[tr].user, txt(line, sizeof line, T_INSPECTION, table_room_shown(t), n, cards),
				ADAPTER_NOTICE);
}

/* Brief: "trick 3: ann J♥, bob face down, ...; cat wins it", each card as
 * the room may see it. */
static void trick_all(table *t, int trick, const char *winner)
{
	if (trick < 0 || trick >= G304_TRICKS)
		return;
	const g304_trick *x = &t->game.tricks[trick];
	char cards[PRIVATE_MAX], down[64], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	txt(down, sizeof down, T_WORD_FACE_DOWN, NULL, NULL, NULL);
	for (int k = 0; k < x->n; k++) {
		sb_printf(&b, "%s %s ", k ? "," : "", seat_name(t, x->seat[k]));
		if ((x->down >> k & 1) && !(x->shown >> k & 1))
			sb_add(&b, down);
		else
			render_card(&b, x->card[k], RENDER_COLOUR);
	}
	snprintf(n, sizeof n, "%d", trick + 1);
	say(t, T_TRICK_ALL, winner, n, cards);
}

static void events_words(table *t, const g304_result *res)
{
	char c1[32], c2[32], n[32];
	for (int i = 0; i < res->nevents; i++) {
		const g304_event *e = &res->events[i];
		const char *who = seat_name(t, e->seat);
		/* Brief: the move the room saw typed is not said again. */
		if (i == 0 && t->seen_seat >= 0 && e->seat == t->seen_seat
		    && (e->type == G304_EV_BID || e->type == G304_EV_PASS
			|| (e->type == G304_EV_PLAYED && !(e->flags & 1))))
			continue;
		switch (e->type) {
		case G304_EV_REJECTED:
			snprintf(n, sizeof n, "%d", e->value);
			say(t, T_REJECTED, who, n, NULL);
			break;
		case G304_EV_BID:
			if (e->seat < G304_SEATS)
				snprintf(t->bid_by[e->seat], sizeof t->bid_by[0], "%s", who);
			bid_text(e->value, n, sizeof n);
			say(t, (e->flags & 1) ? T_BID_FOR_PARTNER : T_BID, who, n, NULL);
			break;
		case G304_EV_PASS:
			say(t, T_PASS, who, NULL, NULL);
			break;
		case G304_EV_ASK:
			say(t, T_ASK, who, seat_name(t, g304_partner(e->seat)), NULL);
			break;
		case G304_EV_BIDDING_WON:
			snprintf(n, sizeof n, "%d", e->value);
			say(t, T_BIDDING_WON, bid_name(t, e->seat), n, NULL);
			break;
		case G304_EV_TRUMP_SET:
			say(t, T_TRUMP_SET, who, NULL, NULL);
			break;
		case G304_EV_DEALT_REST:
			say(t, T_DEALT_REST, seat_name(t, t->game.trumper), NULL, NULL);
			for (int s = 0; s < G304_SEATS; s++)
				if (s != t->game.turn || t->set.brief)
					send_hand(t, s);
			break;
		case G304_EV_TRUMP_BACK:
			say(t, T_TRUMP_BACK, who, NULL, NULL);
			break;
		case G304_EV_BID8_WON:
			bid_text(e->value, n, sizeof n);
			say(t, T_BID8_WON, bid_name(t, e->seat), n, NULL);
			break;
		case G304_EV_PLAY_STARTS:
			say(t, T_PLAY_STARTS, who,
			    txt(c1, sizeof c1, t->game.trump_open ? T_WORD_OPEN : T_WORD_CLOSED, NULL, NULL, NULL), NULL);
			break;
		case G304_EV_OPENED:
			room_card(e->card, c1, sizeof c1);
			say(t, T_OPENED, who, suit_name(card_suit(e->card)), c1);
			break;
		case G304_EV_PLAYED:
			if (e->flags & 1)
				say(t, (e->flags & 2) ? T_PLAYED_TRUMP_CARD : T_PLAYED_DOWN, who, NULL, NULL);
			else {
				room_card(e->card, c1, sizeof c1);
				say(t, T_PLAYED, who, c1, NULL);
			}
			break;
		case G304_EV_NO_TRUMP:
			say(t, T_NO_TRUMP, NULL, NULL, NULL);
			inspection(t, e->value);
			break;
		case G304_EV_REVEALED: {
			room_card(e->card, c1, sizeof c1);
			say(t, T_REVEALED, suit_name(card_suit(e->card)), c1, NULL);
			/* Cards turned up by the reveal, shown to all. */
			/* The trick the reveal ended: the one just finished, unless the
			 * reveal came from opening before any card. */
			int tn = t->game.trick_no;
			if (tn > 0 && (tn == G304_TRICKS || t->game.tricks[tn].n == 0))
				tn--;
			if (tn >= 0 && tn < G304_TRICKS) {
				const g304_trick *x = &t->game.tricks[tn];
				for (int k = 0; k < x->n; k++)
					if ((x->shown >> k & 1) && x->seat[k] != t->game.trumper) {
						room_card(x->card[k], c2, sizeof c2);
						say(t, T_TURNED_UP, seat_name(t, x->seat[k]), c2, NULL);
					}
			}
			if (e->flags & 1)
				send_hand(t, t->game.trumper);
			break;
		}
		case G304_EV_TRICK:
			if (t->set.brief) {
				trick_all(t, e->value, who);
				break;
			}
			snprintf(n, sizeof n, "%d", e->value + 1);
			say(t, T_TRICK, who, n, NULL);
			break;
		case G304_EV_CAPS: {
			char order[160];
			strbuf b;
			sb_init(&b, order, sizeof order);
			for (int k = 0; k < t->game.caps_norder; k++) {
				if (k)
					sb_add(&b, " ");
				render_card(&b, t->game.caps_order[k], RENDER_COLOUR);
			}
			say(t, T_CAPS_CALLED, who, order, t->bot->prefix);
			break;
		}
		case G304_EV_CAPS_BROKEN:
			say(t, T_CAPS_BROKEN, who, NULL, NULL);
			break;
		case G304_EV_DEAL_END:
			deal_end_words(t);
			break;
		case G304_EV_MATCH_END: {
			char a[TEAM_TEXT];
			team_names(t, e->seat, a, sizeof a);
			say(t, T_MATCH_WON, a, NULL, NULL);
			break;
		}
		default:
			break;
		}
	}
}

/* ---- acting ---- */

/* The wait before the next deal: the pause, or as long as a cut is
 * offered (longer: people type `cut N` on phones too). */
static int deal_wait_ms(const table *t)
{
	return t->cut_seat >= 0 && t->set.cut_offer_ms > t->set.deal_pause_ms ? t->set.cut_offer_ms
									       : t->set.deal_pause_ms;
}
int tb_deal_wait_ms(const table *t) { return deal_wait_ms(t); }

/* Before a deal the seat before the dealer may cut (RULES.md: a courtesy,
 * offered while the table pauses between deals). A computer player or an
 * absent person lets it pass: the deck is then dealt as shuffled. */
static void offer_cut(table *t)
{
	int s = (t->game.dealer + G304_SEATS - 1) % G304_SEATS;
	t->cut_at = 0;
	t->cut_seat = -1;
	if (!t->seats[s].user[0] || t->seats[s].computer || t->seats[s].away || t->set.deal_pause_ms < 1000
	    || t->set.cut_offer_ms < 1000)
		return;
	t->cut_seat = s;
	char secs[16];
	snprintf(secs, sizeof secs, "%d", (deal_wait_ms(t) + 999) / 1000);
	say(t, T_CUT_OFFER, t->seats[s].name, secs, NULL);
}

static void after_action(table *t, int by_person)
{
	if (t->game.phase == G304_PHASE_OVER) {
		t->state = TABLE_OPEN;
		t->stop_votes = 0;
		say(t, T_MATCH_OVER_HINT, NULL, NULL, NULL);
		flush(t);
		schedule(t);
		return;
	}
	if (t->game.phase == G304_PHASE_DEAL) {
		t->deals_played++;
		offer_cut(t);
		flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->bot->ev, deal_wait_ms(t), deal_next, t);
		schedule(t);
		return;
	}
	prompt_turn(t);
	/* While computer players move one after another, their moves gather
	 * into one line; it goes out when a person is to act. */
	int s = t->game.turn;
	int computer_next = s != G304_NO_SEAT && auto_seat(t, s);
	/* A person's own action is answered at once; only a run of computer
	 * moves waits to go out as one line. */
	if (by_person || !computer_next || t->outlen > TABLE_OUT_MAX / 2)
		flush(t);
	schedule(t);
}

/* A deal ended: each seat's share of it, for the statistics. */
static void deal_results(const table *t, store_deal_end *end)
{
	const g304_deal_end *e = &t->game.last;
	memset(end, 0, sizeof *end);
	for (int s = 0; s < G304_SEATS; s++) {
		int team = g304_team(s);
		store_result *r = &end->seats[s];
		r->user = t->seats[s].computer ? "" : t->seats[s].user;
		r->name = t->seats[s].name;
		r->computer = t->seats[s].computer;
		r->seat = s;
		r->team = team;
		r->outcome = g304_outcome_name(e->outcome);
		r->trumper = e->trumper == s;
		r->bid = e->bid == G304_BID_PCC ? 1000 : e->bid;
		r->made = e->made;
		r->won = e->paid[team ^ 1] > e->paid[team];
		r->points = e->points[team];
		r->caps = g304_caps_outcome_name(e->caps);
		r->caps_called = e->caps_seat == s;
	}
	end->match_over = t->game.phase == G304_PHASE_OVER;
	end->winner = t->game.winner;
	end->tokens[0] = t->game.tokens[0];
	end->tokens[1] = t->game.tokens[1];
}

/* Applies an action for seat s; refusals go privately to `user` (NULL: a
 * computer, whose refusals would be a bug worth a log line). */
static int act(table *t, const g304_action *a, const char *user)
{
	g304_result res;
	int phase_before = t->game.phase;
	g304 before = t->game;
	int err = g304_apply(&t->game, a, &res);
	if (err) {
		if (user) {
			const char *names[G304_SEATS];
			for (int s = 0; s < G304_SEATS; s++)
				names[s] = seat_name(t, s);
			char buf[PRIVATE_MAX];
			text_refusal(buf, sizeof buf, &res, names);
			tell(t, user, T_REFUSED, table_room_shown(t), buf, NULL);
			/* Brief: the room saw the command and hears of no move, so
			 * it is told that this one did not count. */
			if (t->seen_seat >= 0) {
				t->seen_seat = -1;
				say(t, T_REFUSED_ROOM, seat_name(t, a->seat), NULL, NULL);
				flush(t);
			}
		} else {
			log_msg(LOG_ERROR, NULL, "table %s: a computer player's %s was refused (%s)", t->room,
				g304_act_name(a->type), g304_err_name(err));
		}
		return err;
	}
	/* Stored before it is announced: a crash after this loses nothing
	 * anyone saw, and a failed write undoes the action. */
	store *db = t->bot->db;
	int deal_over = phase_before != G304_PHASE_DEAL
			&& (t->game.phase == G304_PHASE_DEAL || t->game.phase == G304_PHASE_OVER);
	if (db && t->match_id) {
		char js[TSTORE_ACTION_MAX];
		tstore_action_json(a, js, sizeof js);
		store_deal_end end;
		if (deal_over)
			deal_results(t, &end);
		if (store_action(db, t->match_id, t->deal_idx - 1, t->seq, js, deal_over ? &end : NULL) < 0) {
			t->game = before;
			save_failed(t, user);
			flush(t);
			if (!user)
				schedule(t); /* a computer player tries again later */
			return G304_ERR_COUNT;
		}
		if (t->save_failed) {
			t->save_failed = 0;
			say(t, T_SAVE_WORKS, NULL, NULL, NULL);
		}
		t->seq++;
	}
	t->stop_votes = 0;
	events_words(t, &res);
	t->seen_seat = -1;
	if (deal_over) {
		/* The salt opens the commitment told at the start of the deal. */
		char n[16];
		snprintf(n, sizeof n, "%d", t->game.deal_no);
		say(t, T_SALT, n, t->salt, NULL);
	}
	after_action(t, user != NULL);
	return 0;
}

/* A computer player (or the stand-in for an absent one) moves. */
/* ---- computer players that search (engine/g304_ai.c), off the loop ---- */

enum { AI_MOVE, AI_STAND_IN, AI_HINT };

/* Where the match stands: a search's answer is used only if nothing
 * happened while it was thinking. */
static uint64_t decision_stamp(const table *t)
{
	const g304 *g = &t->game;
	int k = g->trick_no < G304_TRICKS ? g->trick_no : G304_TRICKS - 1;
	return (uint64_t)g->deal_no << 24 | (uint64_t)g->phase << 20 | (uint64_t)g->nbidlog << 12
		| (uint64_t)g->trick_no << 8 | (uint64_t)g->tricks[k].n << 5
		| (uint64_t)(g->caps_seat & 7) << 2 | (uint64_t)(g->turn & 3);
}

static void computer_apply(table *t, int s, int standing_in, g304_action *a)
{
	if (standing_in)
		say(t, T_STOOD_IN, seat_name(t, s), NULL, NULL);
	if (act(t, a, NULL) != G304_ERR_OK && a->type == G304_ACT_CAPS) {
		a->type = G304_ACT_PLAY; /* should not happen: fall back to a plain play */
	}
}

/* The hint, as the command the player would type. */
static void send_hint(table *t, int s, const g304_action *a)
{
	char what[96], code[3];
	switch (a->type) {
	case G304_ACT_BID:
		if (a->value >= G304_BID_PCC)
			snprintf(what, sizeof what, "bid pcc");
		else
			snprintf(what, sizeof what, "bid %d", a->value);
		break;
	case G304_ACT_TRUMP:
		card_code(a->card, code);
		snprintf(what, sizeof what, "trump %s", code);
		break;
	case G304_ACT_PLAY:
		card_code(a->card, code);
		snprintf(what, sizeof what, "play %s",
			 t->game.trump_down && s == t->game.trumper && a->card == t->game.trump_card ? "trump" : code);
		break;
	case G304_ACT_CAPS: {
		size_t n = (size_t)snprintf(what, sizeof what, "caps");
		for (int k = 0; k < a->norder && k < G304_TRICKS && n + 4 < sizeof what; k++) {
			card_code(a->order[k], code);
			n += (size_t)snprintf(what + n, sizeof what - n, " %s", code);
		}
		break;
	}
	default:
		snprintf(what, sizeof what, "%s", a->type == G304_ACT_PARTNER ? "ask" : g304_act_name(a->type));
		break;
	}
	tell(t, t->seats[s].user, T_HINT, table_room_shown(t), what, NULL);
}

static void ai_done(void *ctx, uint64_t tag, int ok, const g304_action *res)
{
	table *t = ctx;
	int kind = (int)(tag & 3), s = (int)(tag >> 4 & 3);
	if (t->closing || t->state != TABLE_PLAYING || tag >> 8 != decision_stamp(t) || t->game.turn != s)
		return;
	if (kind == AI_HINT) {
		if (ok && private_ok(t, s))
			send_hint(t, s, res);
		return;
	}
	if (kind == AI_MOVE && !auto_seat(t, s))
		return;
	g304_action a;
	if (ok) {
		a = *res;
	} else {
		g304_view v;
		g304_legal l;
		g304_view_of(&t->game, s, &v);
		g304_legal_of(&t->game, s, &l);
		if (!g304_simple_action(&v, &l, &a))
			return;
	}
	computer_apply(t, s, kind == AI_STAND_IN, &a);
}

/* Hands the decision to the worker thread; 0 if it cannot take it. */
static int ai_submit(table *t, int s, int kind, const g304_view *v, const g304_legal *l)
{
	if (!t->bot->ai)
		t->bot->ai = ai_worker_new(t->bot->ev);
	if (!t->bot->ai)
		return 0;
	g304_ai_params p;
	int level = kind == AI_HINT || t->set.computer_level == G304_AI_STRONG ? G304_AI_STRONG : G304_AI_NORMAL;
	g304_ai_params_default(&p, level, rng_next(&t->dice));
	long ms = t->set.computer_think_ms > 0 ? t->set.computer_think_ms : AI_BUDGET_MS_DEFAULT;
	uint64_t tag = decision_stamp(t) << 8 | (uint64_t)s << 4 | (uint64_t)kind;
	return ai_worker_submit(t->bot->ai, v, l, &p, ms, tag, ai_done, t) != 0;
}

static void computer_move(table *t, int s, int standing_in)
{
	g304_view v;
	g304_legal l;
	g304_action a;
	g304_view_of(&t->game, s, &v);
	g304_legal_of(&t->game, s, &l);
	if (t->set.computer_easy) {
		if (!g304_random_action(&t->game, &t->dice, 0, &a))
			return;
	} else if (ai_submit(t, s, standing_in ? AI_STAND_IN : AI_MOVE, &v, &l)) {
		return; /* the answer comes back through ai_done */
	} else if (!g304_simple_action(&v, &l, &a)) {
		return;
	}
	computer_apply(t, s, standing_in, &a);
}

static void computer_timer(void *ctx)
{
	table *t = ctx;
	t->computer_timer = 0;
	int s = t->game.turn;
	if (t->state == TABLE_PLAYING && s != G304_NO_SEAT && auto_seat(t, s))
		computer_move(t, s, 0);
}

/* Caller of a caps: the bot plays its stated order for it. */
static int caps_autoplay(table *t, int s)
{
	return t->game.caps_seat == s && t->game.caps_k < t->game.caps_norder;
}

/* A seat whose moves the bot makes now: a computer player, a caps caller's
 * stated order, or a player who asked the bot to finish the deal after a
 * caps call. */
static int auto_seat(table *t, int s)
{
	if (s < 0 || s >= G304_SEATS)
		return 0;
	return t->seats[s].computer || caps_autoplay(t, s)
	       || (t->seats[s].finish_deal == t->game.deal_no + 1 && t->game.caps_seat != G304_NO_SEAT
		   && t->game.phase == G304_PHASE_PLAY);
}

static void turn_timer(void *ctx)
{
	table *t = ctx;
	t->timer = 0;
	int s = t->game.turn;
	if (t->state != TABLE_PLAYING || s == G304_NO_SEAT)
		return;
	char secs[16];
	switch (t->timer_kind) {
	case TK_WARN:
		snprintf(secs, sizeof secs, "%d", t->set.live_turn_seconds - t->set.live_turn_seconds / 2);
		say(t, T_WARN, seat_name(t, s), secs, NULL);
		flush(t);
		t->warned = 1;
		t->timer_kind = TK_MOVE;
		t->timer = loop_timer(t->bot->ev, (long)(t->set.live_turn_seconds - t->set.live_turn_seconds / 2) * 1000,
				      turn_timer, t);
		return;
	case TK_MOVE:
		computer_move(t, s, 1);
		return;
	case TK_REMIND:
		say(t, T_REMIND, seat_name(t, s), NULL, NULL);
		flush(t);
		send_hand(t, s);
		return;
	default:
		return;
	}
}

/* One pending deadline per table, set afresh after every change. */
static void schedule(table *t)
{
	if (t->gdef) {
		tg_schedule(t);
		return;
	}
	if (t->timer)
		loop_cancel(t->bot->ev, t->timer);
	if (t->computer_timer)
		loop_cancel(t->bot->ev, t->computer_timer);
	t->timer = t->computer_timer = 0;
	t->timer_kind = TK_NONE;
	t->warned = 0;
	t->move_by = 0;
	int s = t->game.turn;
	if (t->state != TABLE_PLAYING || s == G304_NO_SEAT)
		return;
	if (auto_seat(t, s)) {
		/* After a failed save, try again in a while rather than at once. */
		t->computer_timer = loop_timer(t->bot->ev, t->save_failed ? SAVE_RETRY_MS : t->set.computer_delay_ms,
					       computer_timer, t);
		return;
	}
	long ms;
	switch (t->set.pace) {
	case PACE_LIVE:
		t->timer_kind = TK_WARN;
		ms = (long)t->set.live_turn_seconds * 1000 / 2;
		t->move_by = loop_now() + (int64_t)t->set.live_turn_seconds * 1000;
		break;
	case PACE_CORRESPONDENCE:
		t->timer_kind = TK_REMIND;
		ms = (long)t->set.corr_remind_seconds * 1000;
		break;
	default:
		t->timer_kind = TK_REMIND;
		ms = (long)t->set.casual_remind_seconds * 1000;
	}
	t->timer = loop_timer(t->bot->ev, ms, turn_timer, t);
}

/* ---- seating ---- */

table *table_new(struct bot *b, adapter *net, const char *room, const table_settings *set)
{
	table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->bot = b;
	t->net = net;
	snprintf(t->room, sizeof t->room, "%s", room);
	t->set = *set;
	t->state = TABLE_OPEN;
	t->nseats = G304_SEATS;
	t->seen_seat = -1;
	t->cut_seat = -1;
	g304_init(&t->game, &t->set.rules, 0);
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
		loop_cancel(t->bot->ev, t->timer);
	if (t->computer_timer)
		loop_cancel(t->bot->ev, t->computer_timer);
	if (t->deal_timer)
		loop_cancel(t->bot->ev, t->deal_timer);
	if (t->nudge_timer)
		loop_cancel(t->bot->ev, t->nudge_timer);
	ai_worker_cancel_ctx(t->bot->ai, t); /* a search still thinking for this table */
	game_free(t->g);
	free(t);
}

int table_seat_of(const table *t, const char *user)
{
	for (int s = 0; s < G304_SEATS; s++)
		if (!t->seats[s].computer && t->seats[s].user[0] && strcasecmp(t->seats[s].user, user) == 0)
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
		tell(t, t->seats[s].user, T_SEAT_KEY, table_room_shown(t), t->seats[s].key, NULL);
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
	if (t->bot->db && store_user_get(t->bot->db, t->net->name, user, &u) == 1)
		t->seats[s].ascii = u.ascii;
}

static void seat_computer(table *t, int s)
{
	/* The four names are one message, separated by spaces. */
	char names[128];
	txt(names, sizeof names, T_COMPUTER_NAMES, NULL, NULL, NULL);
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
	/* Whatever seat the old name saw in this deal, the new one has seen. */
	viewers_sync(t);
	int seen = viewer_seat(t, old_user);
	if (seen >= 0 && strcasecmp(old_user, new_user))
		viewer_add(t, new_user, seen);
	int s = table_seat_of(t, old_user);
	if (s < 0)
		return;
	snprintf(t->seats[s].user, sizeof t->seats[s].user, "%s", new_user);
	snprintf(t->seats[s].name, sizeof t->seats[s].name, "%s", new_name);
}

void table_user_left(table *t, const char *user)
{
	viewers_sync(t);
	int s = table_seat_of(t, user);
	if (s < 0)
		return;
	if (t->state == TABLE_OPEN) {
		say(t, T_LEFT_OPEN, t->seats[s].name, NULL, NULL);
		memset(&t->seats[s], 0, sizeof t->seats[s]);
	} else {
		/* Already away (an unconfirmed nick that came and went again):
		 * the grace runs on from the first leaving, and the room was told. */
		int again = t->seats[s].away;
		if (!again) {
			t->seats[s].away = 1;
			t->seats[s].away_since = loop_now();
		}
		/* Out of the bot's sight (no channel shared): whoever comes back
		 * with this nick must show the seat key. */
		if (t->net->ops->present && t->net->ops->present(t->net, NULL, user) == 0)
			unconfirm(t, s);
		if (!again) {
			char g[16];
			snprintf(g, sizeof g, "%d", t->set.grace_seconds);
			say(t, T_LEFT_PLAYING, t->seats[s].name, g, NULL);
		}
	}
	flush(t);
}

void table_user_seen(table *t, const char *user)
{
	int s = table_seat_of(t, user);
	if (s < 0)
		return;
	if (t->seats[s].unconfirmed) {
		/* The nick is back, but is it the person? Only the key says. */
		if (!t->seats[s].claim_told) {
			char n[16];
			snprintf(n, sizeof n, "%d", s + 1);
			tell(t, user, t->seats[s].key[0] ? T_CLAIM_HOW : T_CLAIM_NO_KEY, table_room_shown(t), n, NULL);
			t->seats[s].claim_told = 1;
		}
		return;
	}
	if (t->seats[s].away) {
		t->seats[s].away = 0;
		say(t, T_BACK, t->seats[s].name, NULL, NULL);
		flush(t);
		send_hand(t, s);
	} else if (t->set.pace == PACE_CORRESPONDENCE && turn_of(t) == s && t->state == TABLE_PLAYING
		   && t->timer_kind == TK_REMIND) {
		/* Seen talking while we wait for them: a gentle reminder, once. */
		say(t, T_REMIND, t->seats[s].name, NULL, NULL);
		flush(t);
		send_hand(t, s);
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
	if (!t->bot->db || t->state != TABLE_OPEN)
		return;
	struct recall rc = { t, "" };
	size_t keep = t->outlen;
	if (store_channel_each(t->bot->db, t->net->name, t->room, recall_one, &rc) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(t->bot->db));
	/* One line for all of them rather than one per option. */
	t->outlen = keep;
	t->out[keep] = '\0';
	if (rc.list[0])
		say(t, T_SETTINGS_RECALLED, rc.list, t->bot->prefix, NULL);
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
		} else if (tstore_rebuild(t, t->bot->db, match_id, err, errlen) == 0) {
			game_status gs;
			if (t->gdef && t->g)
				game_status_of(t->g, &gs);
			if (t->gdef ? (!t->g || gs.over) : t->game.phase == G304_PHASE_OVER)
				t->state = TABLE_OPEN;
			t->meta_hash = 0;
			return 0;
		}
		/* The seats stay; the broken match does not. */
		t->state = TABLE_OPEN;
		t->match_id = 0;
		t->set = keep;
		g304_init(&t->game, &t->set.rules, 0);
		return -1;
	}
	return 0;
}

void table_link_lost(table *t)
{
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
	if (t->gdef) {
		tg_resumed(t);
		return;
	}
	if (t->state != TABLE_PLAYING)
		return;
	if (t->game.phase != G304_PHASE_DEAL && t->commitment[0]) {
		char n[16];
		snprintf(n, sizeof n, "%d", t->game.deal_no);
		say(t, T_RESUMED_DEAL, n, t->commitment, NULL);
	} else {
		say(t, T_RESUMED, NULL, NULL, NULL);
	}
	if (t->game.phase == G304_PHASE_DEAL) {
		/* Between deals: the next one comes after the usual pause. */
		flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->bot->ev, t->set.deal_pause_ms, deal_next, t);
		return;
	}
	prompt_turn(t);
	flush(t);
	for (int s = 0; s < G304_SEATS; s++)
		if (s != t->game.turn)
			send_hand(t, s);
	schedule(t);
}

/* ---- commands ---- */

typedef void (*cmd_fn)(table *t, const char *user, const char *name, int in_room, int argc, char **argv);

enum cmd_flags {
	CMD_SEATED = 1,   /* only a seated player */
	CMD_PLAYING = 2,  /* only while a match is on */
	CMD_OPEN = 4,     /* only between matches */
	CMD_QUERY = 8,    /* only tells: its answer may wait behind others' and is said once while waiting */
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
	char n[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	if (t->gdef)
		say(t, T_G_READY, n, NULL, NULL);
	else
		say(t, T_READY, NULL, NULL, NULL);
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
	tell(t, user, T_SEAT_GRACE, table_room_shown(t), n, secs);
}

static void cmd_sit(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room;
	int want = argc > 1 ? parse_seat_number(t, argv[1]) : -1;
	if (argc > 1 && want < 0) {
		tell(t, user, T_USAGE, "sit [1-4]", NULL, NULL);
		return;
	}
	char n[16];
	int mine = table_seat_of(t, user);
	if (mine >= 0) {
		/* Moving would show a second hand of this deal. */
		snprintf(n, sizeof n, "%d", mine + 1);
		tell(t, user, cards_out(t) && want >= 0 && want != mine ? T_SEAT_MOVE_LATER : T_ALREADY_SEATED,
		     table_room_shown(t), n, NULL);
		return;
	}
	/* Within a deal a person sees at most one seat's cards: whoever held
	 * a seat in it (under any name) may come back to that seat only. */
	int seen = viewer_seat(t, user);
	if (seen >= 0 && want >= 0 && want != seen) {
		snprintf(n, sizeof n, "%d", seen + 1);
		tell(t, user, T_SEAT_SEEN, table_room_shown(t), n, NULL);
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
			tell(t, user, T_SEAT_SEEN_TAKEN, table_room_shown(t), NULL, NULL);
		else
			tell(t, user, want >= 0 ? T_SEAT_TAKEN : T_TABLE_FULL, table_room_shown(t), NULL, NULL);
		return;
	}
	if (viewer_add(t, user, s) < 0) {
		tell(t, user, T_SEAT_CROWD, table_room_shown(t), NULL, NULL);
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
		say(t, T_SIT_REPLACE, name, old, n);
	else
		say(t, T_SIT, name, n, NULL);
	if (t->state == TABLE_OPEN && seated_count(t) == t->nseats)
		say_ready(t);
	flush(t);
	tell_key(t, s);
	if (t->state == TABLE_PLAYING) {
		send_hand(t, s);
		schedule(t);
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
		/* Said where all could read it: the key is spent. */
		if (s >= 0)
			t->seats[s].key[0] = '\0';
		tell(t, user, T_CLAIM_PRIVATELY, table_room_shown(t), NULL, NULL);
		return;
	}
	char n[16];
	snprintf(n, sizeof n, "%d", s + 1);
	if (s < 0) {
		tell(t, user, T_CLAIM_BAD, table_room_shown(t), NULL, NULL);
		return;
	}
	seat *x = &t->seats[s];
	if (!x->unconfirmed) {
		tell(t, user, !strcasecmp(x->user, user) ? T_ALREADY_SEATED : T_CLAIM_NOT_NEEDED, table_room_shown(t), n,
		     NULL);
		return;
	}
	int mine = table_seat_of(t, user);
	if (mine >= 0 && mine != s) {
		tell(t, user, T_ALREADY_SEATED, table_room_shown(t), n, NULL);
		return;
	}
	int seen = viewer_seat(t, user);
	if (seen >= 0 && seen != s) {
		snprintf(n, sizeof n, "%d", seen + 1);
		tell(t, user, T_SEAT_SEEN, table_room_shown(t), n, NULL);
		return;
	}
	if (viewer_add(t, user, s) < 0) {
		tell(t, user, T_SEAT_CROWD, table_room_shown(t), NULL, NULL);
		return;
	}
	snprintf(x->user, sizeof x->user, "%s", user);
	snprintf(x->name, sizeof x->name, "%s", name);
	x->unconfirmed = 0;
	x->away = 0;
	x->claim_told = 0;
	if (t->net->ops->open_private)
		t->net->ops->open_private(t->net, user);
	say(t, T_CLAIMED, x->name, n, NULL);
	flush(t);
	send_hand(t, s);
	schedule(t);
}

static void cmd_leave(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (t->state == TABLE_OPEN) {
		say(t, T_LEFT_OPEN, t->seats[s].name, NULL, NULL);
		memset(&t->seats[s], 0, sizeof t->seats[s]);
	} else {
		char who[TABLE_NAME_MAX];
		snprintf(who, sizeof who, "%s", t->seats[s].name);
		seat_computer(t, s);
		say(t, T_LEFT_TO_COMPUTER, who, NULL, NULL);
	}
	flush(t);
	schedule(t);
}

static void cmd_bot(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int want = argc > 1 ? parse_seat_number(t, argv[1]) : -1;
	if (argc > 1 && want < 0) {
		tell(t, user, T_USAGE, "bot [1-4]", NULL, NULL);
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
			say(t, T_BOT_ADDED, t->seats[s].name, n, NULL);
			added = 1;
			if (want < 0)
				break;
		}
	}
	if (!added)
		tell(t, user, T_NO_FREE_SEAT, table_room_shown(t), NULL, NULL);
	if (t->state == TABLE_OPEN && seated_count(t) == t->nseats)
		say_ready(t);
	flush(t);
	schedule(t);
}

static void cmd_unbot(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int s = argc > 1 ? parse_seat_number(t, argv[1]) : -1;
	if (s < 0 || !t->seats[s].computer) {
		tell(t, user, T_USAGE, "unbot 1-4 (a seat held by a computer player)", NULL, NULL);
		return;
	}
	say(t, T_BOT_REMOVED, t->seats[s].name, NULL, NULL);
	memset(&t->seats[s], 0, sizeof t->seats[s]);
	flush(t);
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

/* Applies one !set choice; 0 with the option and value as the bot knows
 * them (*opt_out, static; val_out), whatever case or spelling was typed,
 * or -1 (nothing changed). What is said and stored is these, never the
 * words as typed. */
static int apply_setting(table *t, const char *opt, const char *val, const char **opt_out, char *val_out,
			 size_t len)
{
	static const char *const options[] = { "bidding", "fives", "scoring", "caps", "external_caps", "pace",
					       "level", "think" };
	static const char *const offon[] = { "off", "on" };
	g304_rules *r = &t->set.rules;
	int b;
	long n;
	char num[24];
	const char *shown = NULL;
	if (!strcasecmp(opt, "bidding") && (!strcasecmp(val, "pagat") || !strcasecmp(val, "single"))) {
		r->bidding = !strcasecmp(val, "single") ? G304_BIDDING_SINGLE : G304_BIDDING_PAGAT;
		shown = r->bidding == G304_BIDDING_SINGLE ? "single" : "pagat";
	} else if (!strcasecmp(opt, "fives") && (b = on_off(val)) >= 0) {
		r->fives = (uint8_t)b;
		shown = offon[b];
	} else if (!strcasecmp(opt, "scoring") && (!strcasecmp(val, "standard") || !strcasecmp(val, "bank"))) {
		r->scoring = !strcasecmp(val, "bank") ? G304_SCORING_BANK : G304_SCORING_STANDARD;
		shown = r->scoring == G304_SCORING_BANK ? "bank" : "standard";
	} else if (!strcasecmp(opt, "caps") && !strcasecmp(val, "strict")) {
		r->caps = G304_CAPS_STRICT;
		shown = "strict";
	} else if (!strcasecmp(opt, "caps") && !strcasecmp(val, "lenient")) {
		r->caps = G304_CAPS_LENIENT;
		shown = "lenient";
	} else if (!strcasecmp(opt, "caps") && !strcasecmp(val, "off")) {
		r->caps = G304_CAPS_OFF;
		shown = "off";
	} else if (!strcasecmp(opt, "external_caps") && (b = on_off(val)) >= 0) {
		r->external_caps = (uint8_t)b;
		shown = offon[b];
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "live")) {
		t->set.pace = PACE_LIVE;
		shown = "live";
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "casual")) {
		t->set.pace = PACE_CASUAL;
		shown = "casual";
	} else if (!strcasecmp(opt, "pace") && !strcasecmp(val, "correspondence")) {
		t->set.pace = PACE_CORRESPONDENCE;
		shown = "correspondence";
	} else if (!strcasecmp(opt, "level") && g304_ai_level_parse(val) >= 0) {
		/* easy is the random player here; normal and strong search. */
		t->set.computer_easy = g304_ai_level_parse(val) == G304_AI_EASY;
		t->set.computer_level = g304_ai_level_parse(val);
		shown = val; /* exactly one of the level names */
	} else if (!strcasecmp(opt, "think") && parse_number(val, 10, 10000, &n) == 0) {
		t->set.computer_think_ms = (int)n;
		snprintf(num, sizeof num, "%ld", n);
		shown = num;
	} else {
		return -1;
	}
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		if (!strcasecmp(opt, options[i]))
			*opt_out = options[i];
	snprintf(val_out, len, "%s", shown);
	return 0;
}

static void cmd_set(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	const char *opt = NULL;
	char val[32];
	if (apply_setting(t, argv[1], argv[2], &opt, val, sizeof val) < 0) {
		tell(t, user, T_SET_USAGE, NULL, NULL, NULL);
		return;
	}
	say(t, T_SET_DONE, opt, val, NULL);
	/* The channel's next tables start with this choice too. */
	if (t->bot->db && *user && store_channel_set(t->bot->db, t->net->name, t->room, opt, val) < 0)
		log_msg(LOG_ERROR, NULL, "%s", store_error(t->bot->db));
	flush(t);
}

static void cmd_start(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (seated_count(t) < t->nseats) {
		char n[16];
		snprintf(n, sizeof n, "%d", t->nseats);
		tell(t, user, t->gdef ? T_G_NEED_SEATS : T_NEED_FOUR, table_room_shown(t), n, NULL);
		return;
	}
	if (t->gdef) {
		tg_start(t, user);
		return;
	}
	uint32_t r = 0;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		r = 0;
	t->first_dealer = (int)(r % G304_SEATS);
	store *db = t->bot->db;
	if (db) {
		char rules[TSTORE_RULES_MAX];
		store_seat ss[G304_SEATS];
		tstore_rules_json(&t->set.rules, rules, sizeof rules);
		for (int s = 0; s < G304_SEATS; s++)
			ss[s] = (store_seat){ t->seats[s].computer ? "" : t->seats[s].user, t->seats[s].name,
					      t->seats[s].computer };
		if (store_match_begin(db, t->net->name, t->room, "304", rules, ss, t->first_dealer, &t->match_id) < 0) {
			t->match_id = 0;
			save_failed(t, user);
			flush(t);
			return;
		}
		save_works(t);
		t->deal_idx = 0;
		t->seq = 0;
	}
	g304_init(&t->game, &t->set.rules, t->first_dealer);
	t->state = TABLE_PLAYING;
	t->stop_votes = 0;
	say(t, T_MATCH_STARTS, seat_name(t, 0), seat_name(t, 2), NULL);
	say(t, T_MATCH_STARTS2, seat_name(t, 1), seat_name(t, 3), NULL);
	flush(t);
	for (int i = 0; i < t->nnotify; i++)
		tell(t, t->notify[i], T_NOTIFY_START, table_room_shown(t), NULL, NULL);
	offer_cut(t);
	if (t->cut_seat >= 0) {
		flush(t);
		t->deal_timer = loop_timer(t->bot->ev, deal_wait_ms(t), deal_next, t);
		schedule(t);
		return;
	}
	deal_next(t);
}

static void cmd_cut(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	int s = table_seat_of(t, user);
	if (t->cut_seat < 0 || s != t->cut_seat || !t->deal_timer || t->game.phase != G304_PHASE_DEAL) {
		tell(t, user, T_CUT_NOT_NOW, table_room_shown(t),
		     t->cut_seat >= 0 ? seat_name(t, t->cut_seat)
				      : seat_name(t, (t->game.dealer + G304_SEATS - 1) % G304_SEATS), NULL);
		return;
	}
	char *end;
	long n = strtol(argv[1], &end, 10);
	if (*end || end == argv[1] || n < 1 || n >= CARD_COUNT) {
		tell(t, user, T_CUT_USAGE, table_room_shown(t), NULL, NULL);
		return;
	}
	t->cut_at = (int)n;
	loop_cancel(t->bot->ev, t->deal_timer);
	t->deal_timer = 0;
	deal_next(t);
}

/* Brief: a move typed in the room that goes no further is marked there
 * too (the reason goes privately), so nobody takes it for a move. */
static void refused_in_room(table *t, const char *user, int in_room)
{
	int s = table_seat_of(t, user);
	if (!t->set.brief || !in_room || s < 0)
		return;
	say(t, T_REFUSED_ROOM, seat_name(t, s), NULL, NULL);
	flush(t);
}

void tb_refused_in_room(table *t, const char *user, int in_room) { refused_in_room(t, user, in_room); }

/* Turns "60" into 160 and "pcc" into G304_BID_PCC; -1 if not a bid. */
static int parse_bid(const char *s)
{
	if (!strcasecmp(s, "pcc"))
		return G304_BID_PCC;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < 0 || v > 999)
		return -1;
	if (v >= 60 && v <= 99)
		v += 100;
	return (int)v;
}

/* A card named by a player: a card ("js", "J♠", "10h") or a position in
 * the hand as shown; "trump" means the trump card on the table. */
static card parse_played(const table *t, int s, const char *word)
{
	if (!strcasecmp(word, "trump") && s == t->game.trumper && t->game.trump_down)
		return t->game.trump_card;
	char *end;
	long pos = strtol(word, &end, 10);
	if (!*end && end != word && pos >= 1 && pos <= 8)
		return render_hand_at(t->game.hand[s], (int)pos);
	return render_parse_card(word);
}

/* seen: the command, typed in the room, spelled out the move (a bid, a
 * pass, a card by its name), so in a brief room it need not be repeated. */
static void game_act(table *t, const char *user, int type, int value, card c, int seen)
{
	int s = table_seat_of(t, user);
	t->seen_seat = seen && t->set.brief && s >= 0 ? s : -1;
	g304_action a;
	memset(&a, 0, sizeof a);
	a.type = (uint8_t)type;
	a.seat = (uint8_t)s;
	a.value = (uint16_t)value;
	a.card = c;
	act(t, &a, user);
}

static void cmd_bid(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	int v = parse_bid(argv[1]);
	if (v < 0) {
		tell(t, user, T_USAGE, "bid N (60 means 160), or bid pcc", NULL, NULL);
		refused_in_room(t, user, in_room);
		return;
	}
	game_act(t, user, G304_ACT_BID, v, CARD_NONE, in_room);
}

static void cmd_hint(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (s < 0)
		return;
	if (!t->set.hints) {
		tell(t, user, T_HINT_OFF, table_room_shown(t), NULL, NULL);
		return;
	}
	g304_view v;
	g304_legal l;
	g304_view_of(&t->game, s, &v);
	g304_legal_of(&t->game, s, &l);
	if (t->game.turn != s || !(l.acts & ~(1u << G304_ACT_SPOILT | 1u << G304_ACT_CAPS))) {
		tell(t, user, T_HINT_NOTHING, table_room_shown(t), NULL, NULL);
		return;
	}
	if (!ai_submit(t, s, AI_HINT, &v, &l)) {
		g304_action a;
		if (g304_simple_action(&v, &l, &a))
			send_hint(t, s, &a);
	}
}

static void cmd_simple(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	int type = g304_act_parse(argv[0]);
	if (!strcasecmp(argv[0], "ask"))
		type = G304_ACT_PARTNER;
	if (!strcasecmp(argv[0], "reject"))
		type = G304_ACT_REDEAL;
	game_act(t, user, type, 0, CARD_NONE, in_room && type == G304_ACT_PASS);
}

static void cmd_trump(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc;
	if (in_room) {
		tell(t, user, T_TRUMP_PRIVATELY, table_room_shown(t), NULL, NULL);
		refused_in_room(t, user, in_room);
		return;
	}
	int s = table_seat_of(t, user);
	card c = parse_played(t, s, argv[1]);
	if (c == CARD_NONE) {
		tell(t, user, T_BAD_CARD, argv[1], NULL, NULL);
		return;
	}
	game_act(t, user, G304_ACT_TRUMP, 0, c, 0);
}

static void cmd_play(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc;
	int s = table_seat_of(t, user);
	card c = parse_played(t, s, argv[1]);
	if (c == CARD_NONE) {
		tell(t, user, T_BAD_CARD, argv[1], NULL, NULL);
		refused_in_room(t, user, in_room);
		return;
	}
	/* A card that would go face down must not be named in the room. */
	const g304_trick *tr = &t->game.tricks[t->game.trick_no];
	if (in_room && t->game.phase == G304_PHASE_PLAY && t->game.turn == s && tr->n > 0 && !t->game.trump_open
	    && card_suit(c) != card_suit(tr->card[0])) {
		tell(t, user, T_DOWN_PRIVATELY, table_room_shown(t), NULL, NULL);
		refused_in_room(t, user, in_room);
		return;
	}
	if (in_room && !strcasecmp(argv[1], "trump")) {
		tell(t, user, T_DOWN_PRIVATELY, table_room_shown(t), NULL, NULL);
		refused_in_room(t, user, in_room);
		return;
	}
	/* "!p 3" (a position) does not show the room which card it is. */
	game_act(t, user, G304_ACT_PLAY, 0, c, in_room && render_parse_card(argv[1]) != CARD_NONE);
}

static void cmd_caps(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int s = table_seat_of(t, user);
	g304_action a;
	memset(&a, 0, sizeof a);
	a.type = G304_ACT_CAPS;
	a.seat = (uint8_t)s;
	for (int i = 1; i < argc && a.norder < G304_TRICKS; i++) {
		card c = parse_played(t, s, argv[i]);
		if (c == CARD_NONE) {
			tell(t, user, T_BAD_CARD, argv[i], NULL, NULL);
			return;
		}
		a.order[a.norder++] = c;
	}
	act(t, &a, user);
}

/* After a caps call, a player lets the bot play their cards to the end of
 * the deal (the caller's are played already, in the stated order). */
static void cmd_finish(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (t->game.phase != G304_PHASE_PLAY || t->game.caps_seat == G304_NO_SEAT) {
		tell(t, user, T_FINISH_NOT_NOW, table_room_shown(t), t->bot->prefix, NULL);
		return;
	}
	if (t->seats[s].finish_deal != t->game.deal_no + 1) {
		t->seats[s].finish_deal = t->game.deal_no + 1;
		say(t, T_FINISH_OK, seat_name(t, s), NULL, NULL);
		flush(t);
	}
	if (t->game.turn == s)
		schedule(t);
}

static void cmd_hand(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	if (t->state != TABLE_PLAYING || t->game.phase == G304_PHASE_DEAL) {
		tell(t, user, T_NO_HAND, table_room_shown(t), NULL, NULL);
		return;
	}
	send_hand(t, s);
}

static void cmd_table(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc, (void)argv;
	char line[PRIVATE_MAX];
	strbuf b;
	sb_init(&b, line, sizeof line);
	char x[PRIVATE_MAX], y[PRIVATE_MAX], n[64];
	sb_printf(&b, "%s: ", table_room_shown(t));
	if (t->gdef)
		sb_printf(&b, "%s, ", t->gdef->name);
	for (int s = 0; s < t->nseats; s++) {
		sb_printf(&b, "%s%d %s", s ? ", " : "", s + 1, seat_name(t, s));
		if (t->seats[s].computer)
			sb_txt(&b, T_SEAT_LIST_COMPUTER, NULL, NULL, NULL);
		if (t->seats[s].away)
			sb_txt(&b, T_SEAT_LIST_AWAY, NULL, NULL, NULL);
	}
	if (t->state == TABLE_PLAYING && t->gdef) {
		tg_table_line(t, user, line, sizeof line);
	} else if (t->state == TABLE_PLAYING) {
		g304_view v;
		int me = table_seat_of(t, user);
		g304_view_of(&t->game, me >= 0 ? me : 0, &v);
		snprintf(n, sizeof n, "%d : %d", t->game.tokens[0], t->game.tokens[1]);
		sb_txt(&b, T_TABLE_TOKENS, n, NULL, NULL);
		if (t->game.turn != G304_NO_SEAT)
			sb_txt(&b, T_TABLE_WAITING, seat_name(t, t->game.turn), g304_phase_name(t->game.phase), NULL);
		if (v.phase == G304_PHASE_PLAY) {
			const g304_trick *tr = &v.tricks[v.ntricks - 1];
			strbuf cb;
			sb_init(&cb, x, sizeof x);
			for (int k = 0; k < tr->n; k++) {
				sb_printf(&cb, " %s ", seat_name(t, tr->seat[k]));
				if (tr->down >> k & 1)
					sb_txt(&cb, T_FACE_DOWN, NULL, NULL, NULL);
				else
					render_card(&cb, tr->card[k], RENDER_COLOUR);
			}
			snprintf(n, sizeof n, "%d", v.ntricks);
			sb_txt(&b, T_TABLE_TRICK, n, x, NULL);
			if (v.trump_open)
				sb_txt(&b, T_TABLE_TRUMPS, suit_name(v.trump_suit), NULL, NULL);
			snprintf(n, sizeof n, "%d : %d", v.tricks_won[0], v.tricks_won[1]);
			sb_txt(&b, T_TABLE_TRICKS, n, NULL, NULL);
		}
		if (v.bid) {
			bid_text(v.bid, y, sizeof y);
			sb_txt(&b, T_TABLE_HIGH_BID, y, bid_name(t, v.bidder), NULL);
		}
		if (t->move_by) {
			int64_t left = (t->move_by - loop_now()) / 1000;
			snprintf(n, sizeof n, "%lld", (long long)(left > 0 ? left : 0));
			sb_txt(&b, T_TABLE_TIME_LEFT, n, NULL, NULL);
		}
	} else {
		sb_txt(&b, T_TABLE_IDLE, NULL, NULL, NULL);
	}
	if (in_room)
		bot_say_room(t->bot, t->net, t->room, line, ADAPTER_NOTICE);
	else
		bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

static void cmd_last(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (t->state != TABLE_PLAYING || t->game.phase != G304_PHASE_PLAY || t->game.trick_no == 0) {
		tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		return;
	}
	/* Built from a view of a seat that is not the trumper, so face-down
	 * cards that stayed hidden show as face down. */
	int me = table_seat_of(t, user);
	int viewer = me >= 0 ? me : (t->game.trumper + 1) & 3;
	g304_view v;
	g304_view_of(&t->game, viewer, &v);
	const g304_trick *tr = &v.tricks[t->game.trick_no - 1];
	char cards[PRIVATE_MAX], line[PRIVATE_MAX], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	for (int k = 0; k < tr->n; k++) {
		sb_printf(&b, " %s ", seat_name(t, tr->seat[k]));
		int hidden_to_all = (tr->down >> k & 1) && !(tr->shown >> k & 1);
		if (hidden_to_all && tr->seat[k] != me)
			sb_txt(&b, T_FACE_DOWN, NULL, NULL, NULL);
		else
			render_card(&b, tr->card[k], style_of(t, me));
	}
	snprintf(n, sizeof n, "%d", t->game.trick_no);
	const char *args[4] = { table_room_shown(t), n, cards, seat_name(t, tr->winner) };
	text_fmt(line, sizeof line, T_LAST_TRICK, 4, args);
	bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

static void cmd_score(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)argc, (void)argv;
	if (t->gdef) {
		tg_score(t, user, in_room);
		return;
	}
	char a[TEAM_TEXT], b2[TEAM_TEXT], tok[64];
	team_names(t, 0, a, sizeof a);
	team_names(t, 1, b2, sizeof b2);
	snprintf(tok, sizeof tok, "%d : %d", t->game.tokens[0], t->game.tokens[1]);
	char buf[PRIVATE_MAX];
	const char *args[3] = { a, b2, tok };
	text_fmt(buf, sizeof buf, T_TOKENS, 3, args);
	if (in_room)
		bot_say_room(t->bot, t->net, t->room, buf, ADAPTER_NOTICE);
	else
		bot_say_private(t->bot, t->net, user, buf, ADAPTER_NOTICE);
}

static void cmd_rules(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (t->gdef) {
		tg_rules(t, user);
		return;
	}
	const g304_rules *r = &t->set.rules;
	static const char *const paces[] = { "live", "casual", "correspondence" };
	static const char *const caps[] = { "strict", "lenient", "off" };
	char line[PRIVATE_MAX];
	const char *args[7] = { table_room_shown(t), r->bidding ? "single" : "pagat", r->fives ? "on" : "off",
		r->scoring ? "bank" : "standard", caps[r->caps % 3], r->external_caps ? "on" : "off",
		paces[t->set.pace % 3] };
	text_fmt(line, sizeof line, T_RULES, 7, args);
	bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

/* The stop in the database: the match ends and the table goes, in one
 * commit (store_table_stop). -1 when that failed. */
static int stop_saved(table *t)
{
	store *db = t->bot->db;
	if (!db)
		return 0;
	if (t->gdef)
		return tg_stopped(t);
	int64_t id = t->match_id && t->state == TABLE_PLAYING ? t->match_id : 0;
	return store_table_stop(db, t->net->name, t->room, id, t->game.tokens[0], t->game.tokens[1]);
}

static void cmd_stop(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room, (void)argc, (void)argv;
	int s = table_seat_of(t, user);
	int op = bot_is_operator(t->bot, t->net, user);
	if (s < 0 && !op) {
		tell(t, user, T_NOT_SEATED, table_room_shown(t), NULL, NULL);
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
		if (stop_saved(t) < 0) {
			save_failed(t, NULL);
			tell(t, user, T_STOP_NOT_SAVED, table_room_shown(t), t->bot->prefix, NULL);
			flush(t);
			return;
		}
		say(t, T_STOPPED, name, NULL, NULL);
		flush(t);
		bot_close_table(t->bot, t);
		return;
	}
	char n[32];
	snprintf(n, sizeof n, "%d/%d", votes, humans / 2 + 1);
	say(t, T_STOP_VOTE, name, n, NULL);
	flush(t);
}

static void cmd_notify(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	for (int i = 0; i < t->nnotify; i++)
		if (!strcasecmp(t->notify[i], user)) {
			memmove(t->notify[i], t->notify[i + 1], (size_t)(t->nnotify - i - 1) * sizeof t->notify[0]);
			t->nnotify--;
			tell(t, user, T_NOTIFY_OFF, table_room_shown(t), NULL, NULL);
			return;
		}
	if (t->nnotify >= TABLE_NOTIFY_MAX) {
		tell(t, user, T_NOTIFY_FULL, table_room_shown(t), NULL, NULL);
		return;
	}
	snprintf(t->notify[t->nnotify++], sizeof t->notify[0], "%s", user);
	tell(t, user, T_NOTIFY_ON, table_room_shown(t), NULL, NULL);
}

static void cmd_ascii(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int s = table_seat_of(t, user);
	int on = argc > 1 ? on_off(argv[1]) : !t->seats[s].ascii;
	if (on < 0) {
		tell(t, user, T_USAGE, "ascii [on|off]", NULL, NULL);
		return;
	}
	t->seats[s].ascii = on;
	if (t->bot->db) {
		store_user u = { .ascii = on, .language = "en", .notices = 1 };
		store_user old;
		if (store_user_get(t->bot->db, t->net->name, user, &old) == 1) {
			u = old;
			u.ascii = on;
		}
		if (store_user_set(t->bot->db, t->net->name, user, &u) < 0)
			log_msg(LOG_ERROR, NULL, "%s", store_error(t->bot->db));
	}
	tell(t, user, on ? T_ASCII_ON : T_ASCII_OFF, NULL, NULL, NULL);
	send_hand(t, s);
}

/* ---- history and statistics ---- */

static int need_db(table *t, const char *user)
{
	if (t->bot->db)
		return 1;
	tell(t, user, T_NO_STORAGE, NULL, NULL, NULL);
	return 0;
}

static void cmd_stats(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)in_room;
	if (!need_db(t, user))
		return;
	store *db = t->bot->db;
	char who[ADAPTER_ID_MAX];
	const char *shown = name;
	snprintf(who, sizeof who, "%s", user);
	if (argc > 1) {
		/* A seated player by name, else whoever last played under it. */
		int found = 0;
		for (int s = 0; s < G304_SEATS && !found; s++)
			if (!t->seats[s].computer && t->seats[s].user[0] && !strcasecmp(t->seats[s].name, argv[1])) {
				snprintf(who, sizeof who, "%s", t->seats[s].user);
				found = 1;
			}
		if (!found && store_user_by_name(db, t->net->name, argv[1], who, sizeof who) != 1)
			snprintf(who, sizeof who, "%s", argv[1]);
		shown = argv[1];
	}
	store_stats st;
	int r = store_stats_get(db, t->net->name, who, &st);
	if (r < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(db));
		tell(t, user, T_ERROR, "the statistics could not be read", NULL, NULL);
		return;
	}
	if (r == 0) {
		tell(t, user, T_STATS_NONE, shown, NULL, NULL);
		return;
	}
	char buf[PRIVATE_MAX];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	sb_printf(&b, "matches %d (won %d), deals %d (won %d); bids made:", st.matches, st.matches_won, st.deals,
		  st.deals_won);
	int any = 0;
	for (int i = 0; i < 4; i++)
		if (st.bids[i]) {
			sb_printf(&b, "%s %s %d/%d", any ? "," : "", store_band_names[i], st.bids_made[i], st.bids[i]);
			any = 1;
		}
	if (!any)
		sb_printf(&b, " none yet");
	sb_printf(&b, "; caps called %d (right %d)", st.caps_calls, st.caps_correct);
	if (st.trumper_deals)
		sb_printf(&b, "; as trumper %d deals, %.0f points on average", st.trumper_deals, st.trumper_points);
	say(t, T_STATS, st.name[0] ? st.name : shown, buf, NULL);
	flush(t);
}

static void cmd_top(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (!need_db(t, user))
		return;
	store_top_row rows[10];
	int n = store_top(t->bot->db, t->net->name, t->room, rows, 10);
	if (n < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(t->bot->db));
		tell(t, user, T_ERROR, "the leaderboard could not be read", NULL, NULL);
		return;
	}
	if (n == 0) {
		say(t, T_TOP_NONE, NULL, NULL, NULL);
		flush(t);
		return;
	}
	char buf[PRIVATE_MAX];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	for (int i = 0; i < n; i++)
		sb_printf(&b, "%s%d. %s %d/%d matches, %d/%d deals", i ? "; " : "", i + 1, rows[i].name,
			  rows[i].matches_won, rows[i].matches, rows[i].deals_won, rows[i].deals);
	say(t, T_TOP, table_room_shown(t), buf, NULL);
	flush(t);
}

static void cmd_history(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc, (void)argv;
	if (!need_db(t, user))
		return;
	store_match_info m[5];
	int n = store_history(t->bot->db, t->net->name, t->room, m, 5);
	if (n < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(t->bot->db));
		tell(t, user, T_ERROR, "the history could not be read", NULL, NULL);
		return;
	}
	if (n == 0) {
		tell(t, user, T_HISTORY_NONE, NULL, NULL, NULL);
		return;
	}
	char buf[PRIVATE_MAX];
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	for (int i = 0; i < n; i++) {
		char day[32];
		time_t when = (time_t)m[i].ended;
		struct tm tmv;
		strftime(day, sizeof day, "%Y-%m-%d", gmtime_r(&when, &tmv));
		const char *res = m[i].winner == 0 ? "won by" : m[i].winner == 1 ? "won by" : "stopped:";
		int w = m[i].winner < 0 ? 0 : m[i].winner;
		/* Trump304 with two or three players has no partner to name. */
		sb_printf(&b, "%s#%lld %s %s %s%s%s (%d : %d)", i ? "; " : "", (long long)m[i].id, day, res,
			  m[i].players[w], m[i].players[w + 2][0] ? " & " : "", m[i].players[w + 2], m[i].tokens[0],
			  m[i].tokens[1]);
	}
	tell(t, user, T_HISTORY, buf, NULL, NULL);
}

static void cmd_record(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	if (!need_db(t, user))
		return;
	store *db = t->bot->db;
	store_match_info m;
	int64_t id = 0;
	if (argc > 1) {
		char *end;
		long long v = strtoll(argv[1][0] == '#' ? argv[1] + 1 : argv[1], &end, 10);
		if (*end || v <= 0) {
			tell(t, user, T_USAGE, "record [number]", NULL, NULL);
			return;
		}
		id = v;
	} else if (store_history(db, t->net->name, t->room, &m, 1) == 1) {
		id = m.id;
	}
	/* Only a finished match of this room: a match in play keeps its
	 * decks secret. */
	if (!id) {
		tell(t, user, T_HISTORY_NONE, NULL, NULL, NULL);
		return;
	}
	if (store_match_info_get(db, id, &m) != 1 || !m.ended || strcmp(m.network, t->net->name)
	    || strcasecmp(m.room, t->room)) {
		char n[32];
		snprintf(n, sizeof n, "%lld", (long long)id);
		tell(t, user, T_RECORD_NONE, n, t->bot->prefix, NULL);
		return;
	}
	char *rec = store_match_record(db, id, 1, 1);
	if (!rec) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(db));
		tell(t, user, T_ERROR, "the record could not be read", NULL, NULL);
		return;
	}
	char n[32];
	snprintf(n, sizeof n, "%lld", (long long)id);
	if (t->net->ops->send_file) {
		char fname[64];
		snprintf(fname, sizeof fname, "match-%lld.json", (long long)id);
		if (t->net->ops->send_file(t->net, user, fname, "application/json", rec, strlen(rec)) == 0) {
			tell(t, user, T_RECORD_FILE, n, fname, NULL);
			free(rec);
			return;
		}
	}
	if (t->bot->public_dir[0]) {
		char path[4200], shown[4200];
		snprintf(path, sizeof path, "%s/match-%lld.json", t->bot->public_dir, (long long)id);
		FILE *f = fopen(path, "w");
		int ok = f && fputs(rec, f) >= 0;
		if (f && fclose(f) != 0)
			ok = 0;
		if (ok) {
			if (t->bot->public_url[0])
				snprintf(shown, sizeof shown, "%s/match-%lld.json", t->bot->public_url, (long long)id);
			else
				snprintf(shown, sizeof shown, "%s", path);
			tell(t, user, T_RECORD_FILE, n, shown, NULL);
			free(rec);
			return;
		}
		log_msg(LOG_ERROR, NULL, "writing %s failed", path);
	}
	/* In private lines: the JSON without its line breaks, cut into pieces
	 * that fit a line (the adapter would split them anyway). */
	size_t len = 0;
	for (char *p = rec; *p; p++)
		if (*p != '\n')
			rec[len++] = *p;
	rec[len] = 0;
	const size_t piece = 400;
	char cnt[24];
	snprintf(cnt, sizeof cnt, "%zu", (len + piece - 1) / piece);
	tell(t, user, T_RECORD_LINE, n, cnt, NULL);
	for (size_t off = 0; off < len; off += piece) {
		char line[512];
		size_t k = len - off < piece ? len - off : piece;
		memcpy(line, rec + off, k);
		line[k] = 0;
		bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
	}
	free(rec);
}

static void cmd_help(table *t, const char *user, const char *name, int in_room, int argc, char **argv);

/* Commands of Trump304 and Rook only: at a 304 table they do nothing. */
static void cmd_game_only(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room, (void)argc;
	tell(t, user, T_G_NOT_IN_GAME, table_room_shown(t), argv[0], "304");
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
	seat keep[G304_SEATS];
	memset(keep, 0, sizeof keep);
	int k = 0;
	for (int s = 0; s < G304_SEATS; s++)
		if (t->seats[s].user[0]) {
			if (k >= nseats)
				return -2;
			keep[k++] = t->seats[s];
		}
	memcpy(t->seats, keep, sizeof keep);
	t->gdef = d == &game_def_304 ? NULL : d;
	t->nseats = nseats;
	game_free(t->g);
	t->g = NULL;
	if (d == &game_def_trump304) {
		/* The game's own pace: 30 seconds a turn, then a random legal card. */
		t->set.pace = PACE_LIVE;
		t->set.live_turn_seconds = 30;
	}
	return 0;
}

const char *table_game_name(const table *t)
{
	return t->gdef ? t->gdef->name : "304";
}

static void cmd_new(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	int n = 0;
	long v;
	if (argc > 2)
		n = parse_number(argv[2], 1, G304_SEATS, &v) < 0 ? -1 : (int)v;
	int r = n < 0 ? -1 : table_set_game(t, argv[1], n);
	if (r == -2) {
		tell(t, user, T_G_NEW_CROWDED, table_room_shown(t), NULL, NULL);
		return;
	}
	if (r < 0) {
		tell(t, user, T_G_NEW_USAGE, table_room_shown(t), t->bot->prefix, NULL);
		return;
	}
	char c[16];
	snprintf(c, sizeof c, "%d", t->nseats);
	say(t, T_G_TABLE_GAME, table_game_name(t), c, NULL);
	if (seated_count(t) == t->nseats)
		say_ready(t);
	flush(t);
}

/* The command table: validated in one place (table_command) before any handler runs. */
static const command commands[] = {
	{ "ascii", NULL, cmd_ascii, 0, 1, CMD_SEATED, T_HELP_ASCII },
	{ "bid", "b", cmd_bid, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_BID },
	{ "bot", "addbot", cmd_bot, 0, 1, 0, T_HELP_BOT },
	{ "caps", NULL, cmd_caps, 1, 8, CMD_SEATED | CMD_PLAYING, T_HELP_CAPS },
	{ "claim", NULL, cmd_claim, 1, 1, 0, T_HELP_CLAIM },
	{ "cut", NULL, cmd_cut, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_CUT },
	{ "discard", NULL, cmd_game_only, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_DISCARD },
	{ "exchange", NULL, cmd_game_only, 2, 2, CMD_SEATED | CMD_PLAYING, T_HELP_EXCHANGE },
	{ "finish", NULL, cmd_finish, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_FINISH },
	{ "hand", "h", cmd_hand, 0, 0, CMD_SEATED | CMD_QUERY, T_HELP_HAND },
	{ "help", NULL, cmd_help, 0, 1, CMD_QUERY, T_HELP_HELP },
	{ "hint", NULL, cmd_hint, 0, 0, CMD_SEATED | CMD_PLAYING | CMD_QUERY, T_HELP_HINT },
	{ "history", NULL, cmd_history, 0, 0, CMD_QUERY, T_HELP_HISTORY },
	{ "keep", NULL, cmd_game_only, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_KEEP },
	{ "last", NULL, cmd_last, 0, 0, CMD_QUERY, T_HELP_LAST },
	{ "leave", "stand", cmd_leave, 0, 0, CMD_SEATED, T_HELP_LEAVE },
	{ "new", NULL, cmd_new, 1, 2, CMD_OPEN, T_HELP_NEW },
	{ "notify", NULL, cmd_notify, 0, 0, 0, T_HELP_NOTIFY },
	{ "open", NULL, cmd_simple, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_OPEN },
	{ "partner", "ask", cmd_simple, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_PARTNER },
	{ "pass", NULL, cmd_simple, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_PASS },
	{ "play", "p", cmd_play, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_PLAY },
	{ "record", NULL, cmd_record, 0, 1, 0, T_HELP_RECORD },
	{ "redeal", "reject", cmd_simple, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_REDEAL },
	{ "reveal", NULL, cmd_game_only, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_REVEAL },
	{ "rules", NULL, cmd_rules, 0, 0, CMD_QUERY, T_HELP_RULES },
	{ "score", NULL, cmd_score, 0, 0, CMD_QUERY, T_HELP_SCORE },
	{ "set", NULL, cmd_set, 2, 2, CMD_OPEN, T_HELP_SET },
	{ "sit", "join", cmd_sit, 0, 1, 0, T_HELP_SIT },
	{ "spoilt", NULL, cmd_simple, 0, 0, CMD_SEATED | CMD_PLAYING, T_HELP_SPOILT },
	{ "start", "deal", cmd_start, 0, 0, CMD_OPEN, T_HELP_START },
	{ "stats", NULL, cmd_stats, 0, 1, CMD_QUERY, T_HELP_STATS },
	{ "stop", NULL, cmd_stop, 0, 0, 0, T_HELP_STOP },
	{ "table", "t", cmd_table, 0, 0, CMD_QUERY, T_HELP_TABLE },
	{ "top", NULL, cmd_top, 0, 0, CMD_QUERY, T_HELP_TOP },
	{ "trump", NULL, cmd_trump, 1, 1, CMD_SEATED | CMD_PLAYING, T_HELP_TRUMP },
	{ "unbot", NULL, cmd_unbot, 1, 1, CMD_OPEN, T_HELP_UNBOT },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const command *find_command(const char *word)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcasecmp(word, commands[i].name) || (commands[i].alias && !strcasecmp(word, commands[i].alias)))
			return &commands[i];
	return NULL;
}

void table_help(struct bot *owner, adapter *net, const char *user, int argc, char **argv)
{
	char buf[PRIVATE_MAX];
	if (argc > 1) {
		const command *c = find_command(argv[1][0] == owner->prefix[0] ? argv[1] + 1 : argv[1]);
		if (!c) {
			const char *args[3] = { argv[1], owner->prefix, "" };
			text_fmt(buf, sizeof buf, T_UNKNOWN_COMMAND, 3, args);
		} else {
			const char *args[3] = { owner->prefix, "", "" };
			text_fmt(buf, sizeof buf, c->help, 3, args);
		}
		bot_say_private(owner, net, user, buf, ADAPTER_NOTICE);
		return;
	}
	strbuf b;
	sb_init(&b, buf, sizeof buf);
	const char *args[3] = { owner->prefix, "", "" };
	text_fmt(buf, sizeof buf, T_HELP_INTRO, 3, args);
	b.len = strlen(buf);
	for (size_t i = 0; i < NCOMMANDS; i++)
		sb_printf(&b, "%s%s%s", i ? " " : "", owner->prefix, commands[i].name);
	bot_say_private(owner, net, user, buf, ADAPTER_NOTICE);
}

static void cmd_help(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	(void)name, (void)in_room;
	table_help(t->bot, t->net, user, argc, argv);
}

void table_command(table *t, const char *user, const char *name, int in_room, int argc, char **argv)
{
	viewers_sync(t);
	const command *c = find_command(argv[0]);
	if (!c) {
		tell(t, user, T_UNKNOWN_COMMAND, argv[0], t->bot->prefix, NULL);
		return;
	}
	char usage[64];
	snprintf(usage, sizeof usage, "%s%s", t->bot->prefix, c->name);
	if (argc - 1 < c->min_args || argc - 1 > c->max_args) {
		char buf[PRIVATE_MAX];
		const char *args[3] = { t->bot->prefix, "", "" };
		text_fmt(buf, sizeof buf, c->help, 3, args);
		tell(t, user, T_USAGE, buf, NULL, NULL);
		return;
	}
	if ((c->flags & CMD_SEATED) && table_seat_of(t, user) < 0) {
		tell(t, user, T_NOT_SEATED, table_room_shown(t), NULL, NULL);
		return;
	}
	if ((c->flags & CMD_PLAYING) && t->state != TABLE_PLAYING) {
		tell(t, user, T_NOT_PLAYING, table_room_shown(t), t->bot->prefix, NULL);
		return;
	}
	if ((c->flags & CMD_OPEN) && t->state != TABLE_OPEN) {
		tell(t, user, T_ONLY_BETWEEN, table_room_shown(t), NULL, NULL);
		return;
	}
	/* A table answers private commands only from the people in its room
	 * and its players. */
	if (!in_room && c->fn != cmd_help && !table_admits(t, user)) {
		tell(t, user, T_NOT_PRESENT, table_room_shown(t), NULL, NULL);
		return;
	}
	/* A nick the bot lost sight of speaks for its seat only with the key. */
	int mine = table_seat_of(t, user);
	if (mine >= 0 && t->seats[mine].unconfirmed && c->fn != cmd_claim && c->fn != cmd_help) {
		char n[16];
		snprintf(n, sizeof n, "%d", mine + 1);
		tell(t, user, t->seats[mine].key[0] ? T_CLAIM_HOW : T_CLAIM_NO_KEY, table_room_shown(t), n, NULL);
		return;
	}
	argv[0] = (char *)c->name; /* the canonical word, for handlers that read it */
	if (c->flags & CMD_QUERY) {
		/* The same question at the same table says the same thing. */
		char key[BOT_TAG_KEY_MAX];
		strbuf kb;
		sb_init(&kb, key, sizeof key);
		sb_printf(&kb, "%s", t->room);
		for (int i = 0; i < argc; i++)
			sb_printf(&kb, " %s", argv[i]);
		bot_answering(t->bot, key);
	}
	if (t->gdef && tg_command(t, user, in_room, argc, argv)) {
		persist(t);
		return;
	}
	c->fn(t, user, name, in_room, argc, argv);
	persist(t); /* seats, settings and the notify list, when they changed */
}
