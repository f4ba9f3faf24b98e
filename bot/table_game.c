/* table_game.c: a Trump304 or Rook match at a table, driven through engine/game.h.
 *
 * The same discipline as 304's flow in table.c: every accepted action is
 * stored before it is announced; hands and every card that goes face down
 * (Trump304's trump card and exchange, Rook's nest and discard) reach only
 * the seat entitled to them; a command that would name such a card in the
 * channel is refused before it is read. Seats, commands and saying things
 * are table.c's (through table_game.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include "rook.h"   /* before table.h: their prototypes name a parameter "seat" */
#include "t304.h"
#include "bot.h"
#include "fair.h"
#include "log.h"
#include "loop.h"
#include "record.h"
#include "render.h"
#include "table_game.h"
#include "table_store.h"
#include "text.h"

#define LINE 1024
#define SAVE_RETRY_MS 5000
#define TG_TK_MOVE 100   /* t->timer_kind values of this file */
#define TG_TK_REMIND 101
#define TG_TK_WARN 102

static void schedule_next(table *t);
static void deal_next(void *ctx);

static int is_t304(const table *t) { return t->gdef == &game_def_trump304; }
static int act_no(const table *t, const char *name) { return t->gdef->act_parse(name); }
static int can(const game_legal *l, const table *t, const char *name)
{
	int a = act_no(t, name);
	return a >= 0 && (l->acts >> a & 1);
}

static void card_text(const table *t, strbuf *b, int c, int style)
{
	if (is_t304(t))
		render_card(b, (card)c, style);
	else
		render_rook_card(b, c, style);
}

static void hand_text(const table *t, strbuf *b, uint64_t hand, int trump, int style, int numbered)
{
	if (is_t304(t))
		render_hand(b, (cardset)hand, style, numbered);
	else
		render_rook_hand(b, hand, trump, style, numbered);
}

int tg_turn(const table *t)
{
	if (!t->g)
		return -1;
	game_status st;
	game_status_of(t->g, &st);
	return st.over || st.needs_deal || st.turn == GAME_NO_SEAT ? -1 : st.turn;
}

/* A side's players: a team with four seats, else one seat. */
static void side_names(const table *t, int side, char *buf, size_t len)
{
	if (t->nseats == 4)
		snprintf(buf, len, "%s & %s", tb_seat_name(t, side), tb_seat_name(t, side + 2));
	else
		snprintf(buf, len, "%s", tb_seat_name(t, side));
}

static void scores_text(const table *t, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	game_status st;
	game_status_of(t->g, &st);
	for (int i = 0; i < st.nsides && i < GAME_MAX_SIDES; i++) {
		char n[2 * TABLE_NAME_MAX + 8];
		side_names(t, i, n, sizeof n);
		sb_printf(&b, "%s%s %ld", i ? ", " : "", n, (long)st.score[i]);
	}
}

/* Trump304: who paid whom in the last deal, as a scorer says it: "5 tokens
 * from ann & cat to ben & dev" (three players: one payment per opponent).
 * Empty when no tokens changed hands (no deal yet, or a spoilt one). */
static void payments_text(const table *t, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	game_outcome o;
	game_outcome_of(t->g, &o);
	if (!o.ended || o.bidder == GAME_NO_SEAT)
		return;
	int ts = t->nseats == 4 ? (o.bidder & 1) : o.bidder, k = 0;
	for (int s = 0; s < o.nsides && s < GAME_MAX_SIDES; s++) {
		if (s == ts || !o.change[s])
			continue;
		char from[2 * TABLE_NAME_MAX + 8], to[2 * TABLE_NAME_MAX + 8], n[16], line[LINE];
		side_names(t, o.change[s] > 0 ? ts : s, from, sizeof from);
		side_names(t, o.change[s] > 0 ? s : ts, to, sizeof to);
		snprintf(n, sizeof n, "%ld", labs((long)o.change[s]));
		sb_printf(&b, "%s%s", k++ ? ", " : "", tb_txt(line, sizeof line, T_G_PAID, n, from, to));
	}
}

static void colour_or_suit(const table *t, strbuf *b, int x, int style)
{
	if (is_t304(t))
		sb_add(b, suit_name(x));
	else
		render_rook_colour(b, x, style);
}

/* "trick 3, spades led, trumps hidden, bid 160 by ann" for seat s. */
static void state_text(const table *t, int s, strbuf *b)
{
	char n[32];
	sb_printf(b, "%s: ", table_room_shown(t));
	int style = tb_style_of(t, s);
	if (is_t304(t)) {
		t304_view v;
		game_view(t->g, s, &v);
		switch (v.phase) {
		case T304_PHASE_BID:
			sb_add(b, tb_txt(n, sizeof n, T_G_STATE_BID, NULL, NULL, NULL));
			if (v.bid) {
				char bid[16], line[LINE];
				snprintf(bid, sizeof bid, "%d", v.bid);
				sb_add(b, tb_txt(line, sizeof line, T_G_STATE_HIGH, bid, tb_bid_name(t, v.bidder), NULL));
			}
			break;
		case T304_PHASE_TRUMP:
		case T304_PHASE_EXCHANGE: {
			char line[LINE];
			sb_add(b, tb_txt(line, sizeof line, v.phase == T304_PHASE_TRUMP ? T_G_STATE_TRUMP : T_G_STATE_EXCHANGE,
					 tb_seat_name(t, v.trumper), NULL, NULL));
			break;
		}
		case T304_PHASE_PLAY: {
			char line[LINE], bid[16];
			snprintf(n, sizeof n, "%d", v.trick_no + 1);
			sb_add(b, tb_txt(line, sizeof line, T_STATE_TRICK, n, NULL, NULL));
			if (v.trick.n)
				sb_add(b, tb_txt(line, sizeof line, T_STATE_LED, suit_name(card_suit(v.trick.card[0])), NULL, NULL));
			if (v.revealed)
				sb_add(b, tb_txt(line, sizeof line, T_STATE_TRUMPS, suit_name(v.trump_suit), NULL, NULL));
			else if (s == v.trumper && v.trump_suit >= 0)
				sb_add(b, tb_txt(line, sizeof line, T_STATE_MY_TRUMP, suit_name(v.trump_suit), NULL, NULL));
			else
				sb_add(b, tb_txt(line, sizeof line, T_STATE_TRUMP_HIDDEN, NULL, NULL, NULL));
			snprintf(bid, sizeof bid, "%d", v.bid);
			sb_add(b, tb_txt(line, sizeof line, T_STATE_CONTRACT, bid, tb_bid_name(t, v.trumper), NULL));
			if (v.npile) {
				snprintf(n, sizeof n, "%d", v.npile);
				sb_add(b, tb_txt(line, sizeof line, T_G_STATE_PILE, n, NULL, NULL));
			}
			break;
		}
		default:
			sb_add(b, tb_txt(n, sizeof n, T_STATE_BETWEEN, NULL, NULL, NULL));
		}
		if (v.turn == s)
			sb_add(b, tb_txt(n, sizeof n, T_STATE_YOUR_TURN, NULL, NULL, NULL));
		return;
	}
	rook_view v;
	game_view(t->g, s, &v);
	char line[LINE];
	switch (v.phase) {
	case ROOK_PHASE_BID:
		sb_add(b, tb_txt(n, sizeof n, T_G_STATE_BID, NULL, NULL, NULL));
		if (v.bid) {
			char bid[16];
			snprintf(bid, sizeof bid, "%d", v.bid);
			sb_add(b, tb_txt(line, sizeof line, T_G_STATE_HIGH, bid, tb_bid_name(t, v.bidder), NULL));
		}
		break;
	case ROOK_PHASE_DISCARD:
	case ROOK_PHASE_TRUMP:
		sb_add(b, tb_txt(line, sizeof line, v.phase == ROOK_PHASE_DISCARD ? T_G_STATE_DISCARD : T_G_STATE_TRUMP,
				 tb_seat_name(t, v.bidder), NULL, NULL));
		break;
	case ROOK_PHASE_PLAY: {
		char bid[16], col[64];
		snprintf(n, sizeof n, "%d", v.trick_no + 1);
		sb_add(b, tb_txt(line, sizeof line, T_STATE_TRICK, n, NULL, NULL));
		strbuf cb;
		sb_init(&cb, col, sizeof col);
		render_rook_colour(&cb, v.trump, style);
		sb_add(b, tb_txt(line, sizeof line, T_STATE_TRUMPS, col, NULL, NULL));
		snprintf(bid, sizeof bid, "%d", v.bid);
		sb_add(b, tb_txt(line, sizeof line, T_STATE_CONTRACT, bid, tb_bid_name(t, v.bidder), NULL));
		break;
	}
	default:
		sb_add(b, tb_txt(n, sizeof n, T_STATE_BETWEEN, NULL, NULL, NULL));
	}
	if (v.turn == s)
		sb_add(b, tb_txt(n, sizeof n, T_STATE_YOUR_TURN, NULL, NULL, NULL));
}

/* The private hand line: where the game is, the hand with positions, what may be done. */
void tg_send_hand(table *t, int s)
{
	if (s < 0 || s >= t->nseats || !t->g || !tb_private_ok(t, s) || t->state != TABLE_PLAYING)
		return;
	game_status gs;
	game_status_of(t->g, &gs);
	if (gs.needs_deal || gs.over)
		return;
	int style = tb_style_of(t, s);
	char line[LINE], st[LINE], cards[LINE], part[LINE];
	strbuf b, sb, cb;
	sb_init(&sb, st, sizeof st);
	state_text(t, s, &sb);
	game_legal l;
	game_legal_of(t->g, s, &l);
	sb_init(&cb, cards, sizeof cards);
	uint64_t hand;
	int trump = -1;
	if (is_t304(t)) {
		t304_view v;
		game_view(t->g, s, &v);
		hand = v.hand;
		hand_text(t, &cb, hand, -1, style, 1);
		sb_init(&b, line, sizeof line);
		sb_add(&b, tb_txt(part, sizeof part, T_HAND, st, cards, NULL));
		if (s == v.trumper && v.trump_aside && v.trump_card != CARD_NONE) {
			sb_init(&cb, cards, sizeof cards);
			render_card(&cb, v.trump_card, style);
			sb_add(&b, tb_txt(part, sizeof part, T_G_HAND_TRUMP_CARD, cards, NULL, NULL));
		}
		if (v.putdown && s == v.trumper && v.phase == T304_PHASE_PLAY && v.trick_no == 0 && v.trick.n == 0) {
			sb_init(&cb, cards, sizeof cards);
			render_hand(&cb, v.putdown, style, 0);
			sb_add(&b, tb_txt(part, sizeof part, T_G_HAND_PUT_DOWN, cards, NULL, NULL));
		}
		if (can(&l, t, "trump"))
			sb_add(&b, tb_txt(part, sizeof part, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL));
		if (can(&l, t, "exchange") || can(&l, t, "keep"))
			sb_add(&b, tb_txt(part, sizeof part, T_G_HAND_EXCHANGE, NULL, NULL, NULL));
	} else {
		rook_view v;
		game_view(t->g, s, &v);
		hand = v.hand;
		trump = v.trump;
		hand_text(t, &cb, hand, trump, style, 1);
		sb_init(&b, line, sizeof line);
		sb_add(&b, tb_txt(part, sizeof part, T_HAND, st, cards, NULL));
		if (can(&l, t, "discard")) {
			sb_init(&cb, cards, sizeof cards);
			render_rook_hand(&cb, l.cards & hand, -1, style, 0);
			sb_add(&b, tb_txt(part, sizeof part, T_G_HAND_DISCARD, cards, NULL, NULL));
		}
		if (can(&l, t, "trump"))
			sb_add(&b, tb_txt(part, sizeof part, T_G_HAND_COLOUR, NULL, NULL, NULL));
	}
	if (can(&l, t, "play") && t->set.hints) {
		sb_init(&cb, cards, sizeof cards);
		hand_text(t, &cb, l.cards & hand, trump, style, 0);
		sb_add(&b, tb_txt(part, sizeof part, T_HAND_MAY_PLAY, cards, NULL, NULL));
	}
	bot_say_story(t->bot, t->net, t->room, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

/* Whose turn and what they may do, in the room with their name. */
/* The turn line for seat s ("ann: your turn to play."); 0 when the seat
 * has nothing to do. */
static int say_turn(table *t, int s)
{
	game_legal l;
	game_legal_of(t->g, s, &l);
	const char *who = t->seats[s].name;
	if (can(&l, t, "bid") || (can(&l, t, "pass") && !can(&l, t, "play"))) {
		char what[128];
		if (can(&l, t, "bid") && l.bid_max <= l.bid_min)
			snprintf(what, sizeof what, "%d%s", l.bid_min, can(&l, t, "pass") ? ", or pass" : ": you must bid");
		else if (can(&l, t, "bid"))
			snprintf(what, sizeof what, "%d or more%s", l.bid_min, can(&l, t, "pass") ? ", or pass" : "");
		else
			snprintf(what, sizeof what, "pass");
		tb_say(t, T_TURN_BID, who, what, NULL);
	} else if (can(&l, t, "trump")) {
		tb_say(t, is_t304(t) ? T_G_TURN_TRUMP : T_G_TURN_COLOUR, who, NULL, NULL);
	} else if (can(&l, t, "exchange") || can(&l, t, "keep")) {
		tb_say(t, T_G_TURN_EXCHANGE, who, NULL, NULL);
	} else if (can(&l, t, "discard")) {
		tb_say(t, T_G_TURN_DISCARD, who, NULL, NULL);
	} else if (can(&l, t, "play")) {
		tb_say(t, can(&l, t, "reveal") ? T_G_TURN_PLAY_REVEAL : T_TURN_PLAY, who, NULL, NULL);
	} else {
		return 0;
	}
	return 1;
}

/* Brief: a turn that passed in silence is named a while later, with a
 * mention, if the player has not moved (people not watching the room). */
static void nudge_fire(void *ctx)
{
	table *t = ctx;
	t->nudge_timer = 0;
	int s = tg_turn(t);
	if (t->state != TABLE_PLAYING || s < 0 || t->seats[s].computer)
		return;
	if (t->outlen)
		tb_flush(t);
	say_turn(t, s);
	/* Timely: a network that must hold it back drops it rather than tell
	 * of a turn that has passed meanwhile. */
	if (t->outlen)
		bot_say_room(t->bot, t->net, t->room, t->out, ADAPTER_NOTICE | ADAPTER_HIGHLIGHT | ADAPTER_TIMELY);
	t->outlen = 0;
	t->out[0] = '\0';
}

static void prompt_turn(table *t)
{
	int s = tg_turn(t);
	if (t->nudge_timer) {
		loop_cancel(t->bot->ev, t->nudge_timer);
		t->nudge_timer = 0;
	}
	if (t->state != TABLE_PLAYING || s < 0 || t->seats[s].computer)
		return;
	/* Brief (table.h): the turn is named only in a line that goes out
	 * anyway, or by a mention if the player has not moved a while later. */
	if (t->set.brief && !t->outlen) {
		if (t->set.turn_nudge_ms > 0)
			t->nudge_timer = loop_timer(t->bot->ev, t->set.turn_nudge_ms, nudge_fire, t);
		return;
	}
	if (say_turn(t, s) && !t->set.brief)
		tg_send_hand(t, s);
}

/* ---- dealing ---- */

/* The deck commitment (bot/fair.h's formula over the game's card codes). */
static int commit_deck(const game_def *def, const uint8_t *deck, const char *salt, char out[FAIR_COMMIT_HEX])
{
	char codes[GAME_MAX_DECK][8];
	const char *p[GAME_MAX_DECK];
	for (int i = 0; i < def->deck_size; i++) {
		def->card_code(deck[i], codes[i]);
		p[i] = codes[i];
	}
	return fair_commit_codes(p, def->deck_size, salt, out);
}

/* A deck from the kernel's CSPRNG: Trump304 through fair_shuffle, Rook
 * through its own shuffle on a generator seeded with 256 fresh bits. */
static int shuffle(const table *t, uint8_t *deck)
{
	if (is_t304(t)) {
		card d[CARD_COUNT];
		if (fair_shuffle(d) < 0)
			return -1;
		memcpy(deck, d, CARD_COUNT);
		return 0;
	}
	rng r;
	do {
		if (getrandom(r.s, sizeof r.s, 0) != (ssize_t)sizeof r.s)
			return -1;
	} while (!(r.s[0] | r.s[1] | r.s[2] | r.s[3]));
	game_shuffle(t->gdef, &r, deck);
	memset(&r, 0, sizeof r);
	return 0;
}

static void deck_json(const table *t, const uint8_t *deck, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "[");
	for (int i = 0; i < t->gdef->deck_size && n < len; i++) {
		char code[8];
		t->gdef->card_code(deck[i], code);
		n += (size_t)snprintf(out + n, len - n, "%s\"%s\"", i ? ", " : "", code);
	}
	if (n < len)
		snprintf(out + n, len - n, "]");
}

/* The top n cards (1 to size - 1) go to the bottom, their order kept; any
 * other n leaves the deck as it is. */
static void cut_deck(uint8_t *deck, int size, int n)
{
	if (n < 1 || n >= size)
		return;
	uint8_t top[GAME_MAX_DECK];
	memcpy(top, deck, (size_t)size);
	for (int i = 0; i < size; i++)
		deck[i] = top[(i + n) % size];
	memset(top, 0, sizeof top);
}

/* Who may cut before the next deal: Trump304 the player to the dealer's
 * left (002, 2.2), who is dealt to first, so the seat after the dealer;
 * Rook the player to the dealer's right (004), the seat before. */
static int cutter_seat(const table *t)
{
	game_status st;
	game_status_of(t->g, &st);
	return is_t304(t) ? (st.dealer + 1) % t->nseats : (st.dealer + t->nseats - 1) % t->nseats;
}

/* Before a deal the cutter is offered the cut, as at 304's tables (a
 * courtesy while the table pauses between deals; the program's shuffle is
 * fair whatever the cut). A computer player, an absent person or a pause
 * too short for anyone to answer lets it pass: the deck is dealt as
 * shuffled. */
static void offer_cut(table *t)
{
	t->cut_at = 0;
	t->cut_seat = -1;
	if (!t->g)
		return;
	int s = cutter_seat(t);
	if (!t->seats[s].user[0] || t->seats[s].computer || t->seats[s].away || t->set.deal_pause_ms < 1000
	    || t->set.cut_offer_ms < 1000)
		return;
	t->cut_seat = s;
	char secs[16], most[16];
	snprintf(secs, sizeof secs, "%d", (tb_deal_wait_ms(t) + 999) / 1000);
	snprintf(most, sizeof most, "%d", t->gdef->deck_size - 1);
	tb_say(t, T_G_CUT_OFFER, t->seats[s].name, secs, most);
}

/* !cut N from the seat offered the cut: deals at once, N cards cut. */
static void cut_command(table *t, const char *user, const char *arg)
{
	int s = table_seat_of(t, user);
	game_status st;
	if (!t->g || t->state != TABLE_PLAYING)
		return;
	game_status_of(t->g, &st);
	if (t->cut_seat < 0 || s != t->cut_seat || !t->deal_timer || !st.needs_deal) {
		int who = t->cut_seat >= 0 ? t->cut_seat : cutter_seat(t);
		tb_tell(t, user, T_CUT_NOT_NOW, table_room_shown(t), tb_seat_name(t, who), NULL);
		return;
	}
	char *end, most[16];
	long n = strtol(arg, &end, 10);
	if (*end || end == arg || n < 1 || n >= t->gdef->deck_size) {
		snprintf(most, sizeof most, "%d", t->gdef->deck_size - 1);
		tb_tell(t, user, T_G_CUT_USAGE, table_room_shown(t), most, NULL);
		return;
	}
	t->cut_at = (int)n;
	loop_cancel(t->bot->ev, t->deal_timer);
	t->deal_timer = 0;
	deal_next(t);
}

static void deal_next(void *ctx)
{
	table *t = ctx;
	t->deal_timer = 0;
	if (t->state != TABLE_PLAYING || !t->g)
		return;
	game_status st;
	game_status_of(t->g, &st);
	if (!st.needs_deal || st.over)
		return;
	uint8_t deck[GAME_MAX_DECK];
	int shuffled = shuffle(t, deck);
	if (shuffled == 0 && t->bot->test_gdeck) {
		memcpy(deck, t->bot->test_gdeck, t->gdef->deck_size);
		t->bot->test_gdeck = NULL;
	}
	/* The cut (see offer_cut): the deck committed to, stored and dealt is
	 * the deck after it. */
	int cut = t->cut_at, cutter = t->cut_seat;
	t->cut_at = 0;
	t->cut_seat = -1;
	if (shuffled == 0)
		cut_deck(deck, t->gdef->deck_size, cut);
	if (shuffled < 0 || fair_salt(t->salt) < 0 || commit_deck(t->gdef, deck, t->salt, t->commitment) < 0) {
		tb_say(t, T_ERROR, "the random source failed; try !start again", NULL, NULL);
		t->state = TABLE_OPEN;
		tb_flush(t);
		return;
	}
	store *db = t->bot->db;
	if (db && t->match_id) {
		char dj[GAME_MAX_DECK * 8 + 8];
		deck_json(t, deck, dj, sizeof dj);
		if (store_deal_begin(db, t->match_id, t->deal_idx, dj, t->salt, t->commitment) < 0) {
			tb_save_failed(t, NULL);
			tb_flush(t);
			t->deal_timer = loop_timer(t->bot->ev, SAVE_RETRY_MS, deal_next, t);
			return;
		}
		tb_save_works(t);
	}
	t->deal_idx++;
	t->seq = 0;
	memset(t->bid_by, 0, sizeof t->bid_by);
	int e = game_deal(t->g, deck);
	memset(deck, 0, sizeof deck);
	if (e) {
		log_msg(LOG_ERROR, NULL, "table %s: the deal was refused (%s)", t->room, t->gdef->err_name(e));
		return;
	}
	game_status_of(t->g, &st);
	char n[16];
	if (cut > 0 && cutter >= 0) {
		snprintf(n, sizeof n, "%d", cut);
		tb_say(t, T_CUT_DONE, tb_seat_name(t, cutter), n, NULL);
	}
	snprintf(n, sizeof n, "%d", st.deal_no);
	tb_say(t, T_G_DEAL, n, tb_seat_name(t, st.dealer), tb_seat_name(t, st.turn));
	tb_say(t, T_COMMITMENT, t->commitment, NULL, NULL);
	for (int s = 0; s < t->nseats; s++)
		if (s != st.turn || t->set.brief)
			tg_send_hand(t, s);
	prompt_turn(t);
	tb_flush(t);
	tg_schedule(t);
}

void tg_start(table *t, const char *user)
{
	uint32_t r = 0;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		r = 0;
	t->first_dealer = (int)(r % (uint32_t)t->nseats);
	int err = 0;
	game *g = game_new(t->gdef, t->nseats, t->first_dealer, NULL, &err);
	if (!g) {
		tb_tell(t, user, T_ERROR, "the game could not be set up", NULL, NULL);
		return;
	}
	store *db = t->bot->db;
	if (db) {
		store_seat ss[G304_SEATS];
		memset(ss, 0, sizeof ss);
		for (int s = 0; s < t->nseats; s++)
			ss[s] = (store_seat){ t->seats[s].computer ? "" : t->seats[s].user, t->seats[s].name,
					      t->seats[s].computer };
		if (store_match_begin(db, t->net->name, t->room, t->gdef->name, "{}", ss, t->first_dealer, &t->match_id) < 0) {
			t->match_id = 0;
			game_free(g);
			tb_save_failed(t, user);
			tb_flush(t);
			return;
		}
		tb_save_works(t);
		t->deal_idx = 0;
		t->seq = 0;
	}
	game_free(t->g);
	t->g = g;
	t->state = TABLE_PLAYING;
	t->stop_votes = 0;
	char sides[4 * TABLE_NAME_MAX + 64];
	strbuf b;
	sb_init(&b, sides, sizeof sides);
	int nsides = t->nseats == 4 ? 2 : t->nseats;
	for (int i = 0; i < nsides; i++) {
		char n[2 * TABLE_NAME_MAX + 8];
		side_names(t, i, n, sizeof n);
		sb_printf(&b, "%s%s", i ? " against " : "", n);
	}
	tb_say(t, T_G_MATCH_STARTS, t->gdef->name, sides, NULL);
	tb_say(t, is_t304(t) ? T_G_T304_TERMS : T_G_ROOK_TERMS, NULL, NULL, NULL);
	tb_flush(t);
	for (int i = 0; i < t->nnotify; i++)
		tb_tell(t, t->notify[i], T_NOTIFY_START, table_room_shown(t), NULL, NULL);
	offer_cut(t);
	if (t->cut_seat >= 0) {
		/* The first deal waits the pause too, for the cut. */
		tb_flush(t);
		t->deal_timer = loop_timer(t->bot->ev, tb_deal_wait_ms(t), deal_next, t);
		tg_schedule(t);
		return;
	}
	deal_next(t);
}

/* ---- events into words ---- */

static void events_words(table *t, const game_result *res)
{
	const game_def *d = t->gdef;
	char a[LINE], c[64], n[32];
	strbuf b;
	int drew = 0, revealed = 0;
	for (int i = 0; i < res->nevents; i++) {
		const game_event *e = &res->events[i];
		const char *ev = d->ev_name(e->type);
		const char *who = tb_seat_name(t, e->seat);
		snprintf(n, sizeof n, "%d", e->value);
		/* Brief: the move the room saw typed is not said again. */
		if (i == 0 && t->seen_seat >= 0 && e->seat == t->seen_seat
		    && (!strcmp(ev, "bid") || !strcmp(ev, "pass") || (!strcmp(ev, "played") && !(is_t304(t) && (e->flags & 1)))))
			continue;
		if (!strcmp(ev, "bid")) {
			if (e->seat < G304_SEATS)
				snprintf(t->bid_by[e->seat], sizeof t->bid_by[0], "%s", who);
			tb_say(t, T_BID, who, n, NULL);
		} else if (!strcmp(ev, "pass")) {
			tb_say(t, T_PASS, who, NULL, NULL);
		} else if (!strcmp(ev, "bidding_won")) {
			tb_say(t, is_t304(t) ? T_BIDDING_WON : T_G_NEST, tb_bid_name(t, e->seat), n, NULL);
		} else if (!strcmp(ev, "trump_set")) {
			tb_say(t, T_TRUMP_SET, who, NULL, NULL);
		} else if (!strcmp(ev, "exchanged")) {
			tb_say(t, e->flags & 1 ? T_G_EXCHANGED : T_G_KEPT, who, NULL, NULL);
		} else if (!strcmp(ev, "play_starts")) {
			tb_say(t, T_G_LEADS, who, NULL, NULL);
		} else if (!strcmp(ev, "revealed")) {
			sb_init(&b, c, sizeof c);
			render_card(&b, e->card, RENDER_COLOUR);
			const char *suit = e->card < CARD_COUNT ? suit_name(card_suit(e->card)) : "?";
			if (e->flags & 1)
				tb_say(t, T_G_REVEAL_ASKED, who, suit, c);
			else if (e->flags & 2)
				tb_say(t, T_G_REVEAL_SELF, who, suit, c);
			else
				tb_say(t, T_G_REVEAL_LAST, suit, c, NULL);
			revealed = 1;
		} else if (!strcmp(ev, "played")) {
			sb_init(&b, c, sizeof c);
			card_text(t, &b, e->card, RENDER_COLOUR);
			tb_say(t, is_t304(t) && (e->flags & 1) ? T_G_CUT : T_PLAYED, who, c, NULL);
		} else if (!strcmp(ev, "trick")) {
			snprintf(n, sizeof n, "%d", e->value + 1);
			tb_say(t, T_TRICK, who, n, NULL);
		} else if (!strcmp(ev, "draw")) {
			tb_say(t, T_G_DRAW, who, n, NULL);
			drew = 1;
		} else if (!strcmp(ev, "spoilt")) {
			tb_say(t, T_G_SPOILT, who, NULL, NULL);
		} else if (!strcmp(ev, "discarded")) {
			tb_say(t, T_G_DISCARDED, who, NULL, NULL);
		} else if (!strcmp(ev, "trump")) {
			sb_init(&b, c, sizeof c);
			render_rook_colour(&b, e->value, RENDER_COLOUR);
			tb_say(t, T_G_TRUMP_COLOUR, who, c, NULL);
		} else if (!strcmp(ev, "deal_end") || !strcmp(ev, "hand_end")) {
			game_outcome o;
			game_outcome_of(t->g, &o);
			if (o.made >= 0 && o.bidder != GAME_NO_SEAT) {
				char bid[16], pts[16];
				snprintf(bid, sizeof bid, "%d", o.bid);
				int mine = is_t304(t) ? o.points[0] : o.points[o.bidder & 1];
				snprintf(pts, sizeof pts, "%d", mine);
				if (is_t304(t))
					tb_say(t, o.made ? T_MADE : T_FAILED, tb_seat_name(t, o.bidder), bid, pts);
				else
					tb_say(t, o.made ? T_G_ROOK_MADE : T_G_ROOK_SET, tb_seat_name(t, o.bidder), bid, pts);
			}
			scores_text(t, a, sizeof a);
			if (is_t304(t)) {
				/* The losers pay the winners (002, 3.0): who paid whom, then the running totals. */
				char paid[LINE];
				payments_text(t, paid, sizeof paid);
				if (paid[0])
					tb_say(t, T_G_PAID_LINE, paid, NULL, NULL);
				tb_say(t, T_G_TOKENS, a, NULL, NULL);
			} else {
				char x[2 * TABLE_NAME_MAX + 8], y[2 * TABLE_NAME_MAX + 8], sc[64];
				side_names(t, 0, x, sizeof x);
				side_names(t, 1, y, sizeof y);
				snprintf(sc, sizeof sc, "%ld : %ld", (long)o.score[0], (long)o.score[1]);
				tb_say(t, T_G_ROOK_SCORE, x, y, sc);
			}
		} else if (!strcmp(ev, "match_end")) {
			side_names(t, e->seat & 1, a, sizeof a);
			tb_say(t, T_MATCH_WON, a, NULL, NULL);
		}
	}
	/* Hands that changed without their owner acting: after draws, and the
	 * trumper's once the trump card goes back to it. */
	int turn = tg_turn(t);
	if (drew)
		for (int s = 0; s < t->nseats; s++)
			if (s != turn)
				tg_send_hand(t, s);
	if (revealed && is_t304(t)) {
		t304_view v;
		game_view(t->g, 0, &v);
		if (v.trumper != turn)
			tg_send_hand(t, v.trumper);
	}
}

/* ---- acting ---- */

static void refusal_text(const table *t, const game_result *res, int who, char *buf, size_t len)
{
	const char *name = t->gdef->err_name(res->err);
	char x[64];
	strbuf b;
	sb_init(&b, x, sizeof x);
	if (!strcmp(name, "not_your_turn")) {
		tb_txt(buf, len, T_G_REF_TURN, tb_seat_name(t, res->a), NULL, NULL);
	} else if (!strcmp(name, "follow_suit")) {
		colour_or_suit(t, &b, res->a, tb_style_of(t, who));
		tb_txt(buf, len, T_G_REF_FOLLOW, x, NULL, NULL);
	} else if (!strcmp(name, "not_in_hand")) {
		tb_txt(buf, len, T_G_REF_HAND, NULL, NULL, NULL);
	} else if (!strcmp(name, "discard_counter")) {
		tb_txt(buf, len, T_G_REF_COUNTER, NULL, NULL, NULL);
	} else if (!strcmp(name, "must_cut")) {
		colour_or_suit(t, &b, res->a, tb_style_of(t, who));
		tb_txt(buf, len, T_G_REF_MUST_CUT, x, NULL, NULL);
	} else if (!strncmp(name, "bid_", 4) || !strncmp(name, "dealer_", 7) || !strcmp(name, "last_must_bid")) {
		game_legal l;
		game_legal_of(t->g, who, &l);
		if (can(&l, t, "bid") && can(&l, t, "pass"))
			sb_printf(&b, "%d to %d, or pass", l.bid_min, l.bid_max);
		else if (can(&l, t, "bid"))
			sb_printf(&b, "you must bid %d%s", l.bid_min, l.bid_max > l.bid_min ? " or more" : "");
		else
			sb_printf(&b, "you may only pass");
		tb_txt(buf, len, T_G_REF_BID, x, NULL, NULL);
	} else {
		for (size_t i = 0; name[i] && i + 1 < sizeof x; i++)
			x[i] = name[i] == '_' ? ' ' : name[i], x[i + 1] = 0;
		tb_txt(buf, len, T_G_REF_OTHER, x, NULL, NULL);
	}
}

/* The record's action object (docs/GAMES.md), as record_parse_game reads it. */
static void action_json(const table *t, const game_action *a, char *out, size_t len)
{
	const char *name = t->gdef->act_name(a->type);
	size_t n = (size_t)snprintf(out, len, "{\"seat\": %d, \"do\": \"%s\"", a->seat, name);
	char code[8];
	if (n >= len)
		return;
	if (!strcmp(name, "bid")) {
		n += (size_t)snprintf(out + n, len - n, ", \"value\": %d", a->value);
	} else if (!strcmp(name, "trump") && !is_t304(t)) {
		n += (size_t)snprintf(out + n, len - n, ", \"colour\": \"%c\"", rook_colour_letter(a->value));
	} else if (!strcmp(name, "exchange")) {
		char c2[8];
		t->gdef->card_code(a->cards[0], code);
		t->gdef->card_code(a->cards[1], c2);
		n += (size_t)snprintf(out + n, len - n, ", \"cards\": [\"%s\", \"%s\"]", code, c2);
	} else if (!strcmp(name, "trump") || !strcmp(name, "play") || !strcmp(name, "discard")) {
		t->gdef->card_code(a->cards[0], code);
		n += (size_t)snprintf(out + n, len - n, ", \"card\": \"%s\"", code);
	}
	if (n < len)
		snprintf(out + n, len - n, "}");
}

static void after_action(table *t, int by_person)
{
	game_status st;
	game_status_of(t->g, &st);
	if (st.over) {
		t->state = TABLE_OPEN;
		t->stop_votes = 0;
		tb_say(t, T_MATCH_OVER_HINT, NULL, NULL, NULL);
		tb_flush(t);
		tg_schedule(t);
		return;
	}
	if (st.needs_deal) {
		t->deals_played++;
		offer_cut(t);
		tb_flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->bot->ev, tb_deal_wait_ms(t), deal_next, t);
		tg_schedule(t);
		return;
	}
	prompt_turn(t);
	int s = tg_turn(t);
	int computer_next = s >= 0 && t->seats[s].computer;
	if (by_person || !computer_next || t->outlen > TABLE_OUT_MAX / 2)
		tb_flush(t);
	tg_schedule(t);
}

/* Applies an action; refusals go privately to user (NULL: a computer).
 * Stored before it is announced; a failed write undoes it. */
static int act(table *t, const game_action *a, const char *user)
{
	store *db = t->bot->db;
	game *before = NULL;
	if (db && t->match_id && !(before = game_copy(t->g))) {
		if (user)
			tb_tell(t, user, T_ERROR, "out of memory", NULL, NULL);
		return -1;
	}
	game_result res;
	int err = game_apply(t->g, a, &res);
	if (err) {
		game_free(before);
		if (user) {
			char buf[LINE];
			refusal_text(t, &res, a->seat, buf, sizeof buf);
			tb_tell(t, user, T_REFUSED, table_room_shown(t), buf, NULL);
			if (t->seen_seat >= 0) {
				t->seen_seat = -1;
				tb_say(t, T_REFUSED_ROOM, tb_seat_name(t, a->seat), NULL, NULL);
				tb_flush(t);
			}
		} else {
			log_msg(LOG_ERROR, NULL, "table %s: a computer player's %s was refused (%s)", t->room,
				t->gdef->act_name(a->type), t->gdef->err_name(err));
		}
		return err;
	}
	int deal_over = 0;
	for (int i = 0; i < res.nevents; i++) {
		const char *ev = t->gdef->ev_name(res.events[i].type);
		if (!strcmp(ev, "deal_end") || !strcmp(ev, "hand_end"))
			deal_over = 1;
	}
	if (db && t->match_id) {
		char js[TSTORE_ACTION_MAX];
		action_json(t, a, js, sizeof js);
		/* Statistics are 304's only: the end of a deal marks the deal
		 * ended (and the match over) with no per-seat results. */
		store_deal_end end;
		memset(&end, 0, sizeof end);
		game_status st;
		game_status_of(t->g, &st);
		end.match_over = st.over;
		end.winner = st.winner;
		end.tokens[0] = st.score[0];
		end.tokens[1] = st.score[1];
		if (store_action(db, t->match_id, t->deal_idx - 1, t->seq, js, deal_over ? &end : NULL) < 0) {
			game_free(t->g);
			t->g = before;
			tb_save_failed(t, user);
			tb_flush(t);
			if (!user)
				tg_schedule(t);
			return -1;
		}
		game_free(before);
		if (t->save_failed) {
			t->save_failed = 0;
			tb_say(t, T_SAVE_WORKS, NULL, NULL, NULL);
		}
		t->seq++;
	}
	t->stop_votes = 0;
	events_words(t, &res);
	if (deal_over) {
		char n[16];
		game_status st;
		game_status_of(t->g, &st);
		snprintf(n, sizeof n, "%d", st.deal_no);
		tb_say(t, T_SALT, n, t->salt, NULL);
	}
	after_action(t, user != NULL);
	return 0;
}

/* ---- computer players and the timer ---- */

static void computer_timer(void *ctx)
{
	table *t = ctx;
	t->computer_timer = 0;
	int s = tg_turn(t);
	if (t->state != TABLE_PLAYING || s < 0 || !t->seats[s].computer)
		return;
	game_action a;
	int ok = t->set.computer_easy ? game_random_action(t->g, s, &t->dice, &a) : game_bot_action(t->g, s, &t->dice, &a);
	if (!ok || act(t, &a, NULL) > 0) {
		/* A refused choice would be an engine bug: a random legal move keeps the game going. */
		if (game_random_action(t->g, s, &t->dice, &a))
			act(t, &a, NULL);
	}
}

static void turn_timer(void *ctx)
{
	table *t = ctx;
	t->timer = 0;
	int s = tg_turn(t);
	if (t->state != TABLE_PLAYING || s < 0)
		return;
	if (t->timer_kind == TG_TK_REMIND) {
		tb_say(t, T_REMIND, tb_seat_name(t, s), NULL, NULL);
		tb_flush(t);
		tg_send_hand(t, s);
		return;
	}
	if (t->timer_kind == TG_TK_WARN) {
		/* Half the time gone: one warning, then the move at the deadline. */
		long left = (long)(t->move_by - loop_now());
		char secs[24];
		snprintf(secs, sizeof secs, "%ld", left > 0 ? (left + 999) / 1000 : 0);
		tb_say(t, is_t304(t) ? T_G_WARN : T_WARN, tb_seat_name(t, s), secs, NULL);
		tb_flush(t);
		t->warned = 1;
		t->timer_kind = TG_TK_MOVE;
		t->timer = loop_timer(t->bot->ev, left > 0 ? left : 0, turn_timer, t);
		return;
	}
	game_action a;
	int ok;
	if (is_t304(t)) {
		/* Trump304's timer: a random legal card (or a pass in the bidding). */
		ok = game_random_action(t->g, s, &t->dice, &a);
		if (ok)
			tb_say(t, T_G_TIMED_OUT, tb_seat_name(t, s), NULL, NULL);
	} else {
		ok = game_bot_action(t->g, s, &t->dice, &a);
		if (ok)
			tb_say(t, T_STOOD_IN, tb_seat_name(t, s), NULL, NULL);
	}
	if (ok)
		act(t, &a, NULL);
}

void tg_schedule(table *t)
{
	if (t->timer)
		loop_cancel(t->bot->ev, t->timer);
	if (t->computer_timer)
		loop_cancel(t->bot->ev, t->computer_timer);
	t->timer = t->computer_timer = 0;
	t->timer_kind = 0;
	t->warned = 0;
	t->move_by = 0;
	int s = tg_turn(t);
	if (t->state != TABLE_PLAYING || s < 0)
		return;
	if (t->seats[s].computer) {
		t->computer_timer = loop_timer(t->bot->ev, t->save_failed ? SAVE_RETRY_MS : t->set.computer_delay_ms,
					       computer_timer, t);
		return;
	}
	schedule_next(t);
}

static void schedule_next(table *t)
{
	long ms;
	switch (t->set.pace) {
	case PACE_LIVE:
		t->timer_kind = TG_TK_WARN;
		t->move_by = loop_now() + (int64_t)t->set.live_turn_seconds * 1000;
		ms = (long)t->set.live_turn_seconds * 1000 / 2;
		break;
	case PACE_CORRESPONDENCE:
		t->timer_kind = TG_TK_REMIND;
		ms = (long)t->set.corr_remind_seconds * 1000;
		break;
	default:
		t->timer_kind = TG_TK_REMIND;
		ms = (long)t->set.casual_remind_seconds * 1000;
	}
	t->timer = loop_timer(t->bot->ev, ms, turn_timer, t);
}

/* ---- commands ---- */

/* A card as a player names it: a code or a position in the hand as shown. */
static int parse_card(const table *t, int s, const char *w)
{
	char *end;
	long pos = strtol(w, &end, 10);
	uint64_t hand;
	int trump = -1;
	if (is_t304(t)) {
		t304_view v;
		game_view(t->g, s, &v);
		hand = v.hand;
	} else {
		rook_view v;
		game_view(t->g, s, &v);
		hand = v.hand;
		trump = v.trump;
	}
	if (!*end && end != w) {
		if (pos < 1 || pos > 16)
			return -1;
		if (is_t304(t)) {
			card c = render_hand_at((cardset)hand, (int)pos);
			return c == CARD_NONE ? -1 : c;
		}
		return render_rook_hand_at(hand, trump, (int)pos);
	}
	if (is_t304(t)) {
		card c = render_parse_card(w);
		return c == CARD_NONE ? -1 : c;
	}
	uint8_t c = t->gdef->card_parse(w);
	return c == GAME_NO_CARD ? -1 : c;
}

static int card_arg(table *t, const char *user, int s, const char *w)
{
	int c = parse_card(t, s, w);
	if (c < 0)
		tb_tell(t, user, is_t304(t) ? T_BAD_CARD : T_G_BAD_ROOK_CARD, w, NULL, NULL);
	return c;
}

static void hint(table *t, const char *user, int s)
{
	if (!t->set.hints) {
		tb_tell(t, user, T_HINT_OFF, table_room_shown(t), NULL, NULL);
		return;
	}
	game_action a;
	if (tg_turn(t) != s || !game_bot_action(t->g, s, &t->dice, &a)) {
		tb_tell(t, user, T_HINT_NOTHING, table_room_shown(t), NULL, NULL);
		return;
	}
	char what[96], code[8], c2[8];
	const char *name = t->gdef->act_name(a.type);
	if (!strcmp(name, "bid"))
		snprintf(what, sizeof what, "bid %d", a.value);
	else if (!strcmp(name, "trump") && !is_t304(t))
		snprintf(what, sizeof what, "trump %s", rook_colour_name(a.value));
	else if (!strcmp(name, "exchange")) {
		t->gdef->card_code(a.cards[0], code);
		t->gdef->card_code(a.cards[1], c2);
		snprintf(what, sizeof what, "exchange %s %s", code, c2);
	} else if (!strcmp(name, "trump") || !strcmp(name, "play") || !strcmp(name, "discard")) {
		t->gdef->card_code(a.cards[0], code);
		snprintf(what, sizeof what, "%s %s", name, code);
	} else
		snprintf(what, sizeof what, "%s", name);
	tb_tell(t, user, T_HINT, table_room_shown(t), what, NULL);
}

static void last_trick(table *t, const char *user, int s)
{
	uint8_t n = 0;
	const uint8_t *seats = NULL, *cards = NULL;
	uint8_t winner = 0, trick_no = 0;
	t304_view tv;
	rook_view rv;
	if (is_t304(t)) {
		game_view(t->g, s >= 0 ? s : 0, &tv);
		n = tv.last_trick.n, seats = tv.last_trick.seat, cards = tv.last_trick.card;
		winner = tv.last_trick.winner, trick_no = tv.trick_no;
	} else {
		game_view(t->g, s >= 0 ? s : 0, &rv);
		n = rv.last_trick.n, seats = rv.last_trick.seat, cards = rv.last_trick.card;
		winner = rv.last_trick.winner, trick_no = rv.trick_no;
	}
	if (!n) {
		tb_tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		return;
	}
	char cl[LINE], line[LINE], num[16];
	strbuf b;
	sb_init(&b, cl, sizeof cl);
	for (int k = 0; k < n; k++) {
		sb_printf(&b, " %s ", tb_seat_name(t, seats[k]));
		card_text(t, &b, cards[k], tb_style_of(t, s));
	}
	snprintf(num, sizeof num, "%d", trick_no);
	const char *args[4] = { table_room_shown(t), num, cl, tb_seat_name(t, winner) };
	text_fmt(line, sizeof line, T_LAST_TRICK, 4, args);
	bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

int tg_command(table *t, const char *user, int in_room, int argc, char **argv)
{
	const char *w = argv[0];
	int s = table_seat_of(t, user);
	static const char *const not_here[] = { "caps", "finish", "open", "partner", "redeal", "spoilt" };
	for (size_t i = 0; i < sizeof not_here / sizeof not_here[0]; i++)
		if (!strcmp(w, not_here[i])) {
			tb_tell(t, user, T_G_NOT_IN_GAME, table_room_shown(t), w, t->gdef->name);
			return 1;
		}
	if (!strcmp(w, "cut") && argc > 1) {
		cut_command(t, user, argv[1]);
		return 1;
	}
	if (!strcmp(w, "hand")) {
		if (t->state != TABLE_PLAYING || tg_turn(t) < 0)
			tb_tell(t, user, T_NO_HAND, table_room_shown(t), NULL, NULL);
		else
			tg_send_hand(t, s);
		return 1;
	}
	if (!strcmp(w, "last")) {
		if (t->state != TABLE_PLAYING || !t->g)
			tb_tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		else if (!is_t304(t) && tg_turn(t) >= 0)
			/* 004: taken tricks may not be reviewed until the end of the round. */
			tb_tell(t, user, T_G_NO_REVIEW, table_room_shown(t), NULL, NULL);
		else
			last_trick(t, user, s);
		return 1;
	}
	int type = act_no(t, w);
	if (strcmp(w, "hint") && type < 0) {
		if (!strcmp(w, "bid") || !strcmp(w, "pass") || !strcmp(w, "trump") || !strcmp(w, "play")
		    || !strcmp(w, "exchange") || !strcmp(w, "keep") || !strcmp(w, "reveal") || !strcmp(w, "discard")) {
			tb_tell(t, user, T_G_NOT_IN_GAME, table_room_shown(t), w, t->gdef->name);
			return 1;
		}
		return 0;
	}
	if (s < 0 || t->state != TABLE_PLAYING || !t->g)
		return 1; /* table.c checked both already */
	if (!strcmp(w, "hint")) {
		hint(t, user, s);
		return 1;
	}
	game_action a;
	memset(&a, 0, sizeof a);
	a.type = (uint8_t)type;
	a.seat = (uint8_t)s;
	if (!strcmp(w, "bid")) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (*end || end == argv[1] || v < 0 || v > 999) {
			tb_tell(t, user, T_USAGE, is_t304(t) ? "bid N (150 to 300 in tens, or 304)" : "bid N (70 to 200 in fives)",
				NULL, NULL);
			tb_refused_in_room(t, user, in_room);
			return 1;
		}
		a.value = (uint16_t)v;
	} else if (!strcmp(w, "trump") && !is_t304(t)) {
		int col = rook_colour_parse(argv[1]);
		if (col < 0) {
			tb_tell(t, user, T_G_BAD_COLOUR, argv[1], NULL, NULL);
			return 1;
		}
		a.value = (uint16_t)col;
	} else if (!strcmp(w, "trump") || !strcmp(w, "discard") || !strcmp(w, "exchange")) {
		/* Each names a card that goes face down: never in the channel. */
		if (in_room) {
			tb_tell(t, user, !strcmp(w, "trump") ? T_TRUMP_PRIVATELY : T_G_PRIVATELY, table_room_shown(t), NULL, NULL);
			tb_refused_in_room(t, user, in_room);
			return 1;
		}
		int need = !strcmp(w, "exchange") ? 2 : 1;
		if (argc - 1 != need) {
			tb_tell(t, user, T_USAGE, need == 2 ? "exchange CARD CARD" : "discard CARD", NULL, NULL);
			return 1;
		}
		for (int i = 0; i < need; i++) {
			int c = card_arg(t, user, s, argv[1 + i]);
			if (c < 0)
				return 1;
			a.cards[a.ncards++] = (uint8_t)c;
		}
	} else if (!strcmp(w, "play")) {
		int c = card_arg(t, user, s, argv[1]);
		if (c < 0) {
			tb_refused_in_room(t, user, in_room);
			return 1;
		}
		a.cards[a.ncards++] = (uint8_t)c;
	}
	/* Brief: a bid, a pass or a card named (not "!p 3", a position) in the
	 * room need not be repeated; see events_words. */
	t->seen_seat = -1;
	if (t->set.brief && in_room && (!strcmp(w, "bid") || !strcmp(w, "pass")
					|| (!strcmp(w, "play") && strspn(argv[1], "0123456789") != strlen(argv[1]))))
		t->seen_seat = s;
	act(t, &a, user);
	t->seen_seat = -1;
	return 1;
}

/* ---- looking at the table ---- */

void tg_table_line(table *t, const char *user, char *line, size_t len)
{
	strbuf b = { line, strlen(line), len }; /* appends to what table.c wrote */
	char x[LINE], y[LINE], n[64];
	scores_text(t, x, sizeof x);
	sb_printf(&b, " | %s", x);
	int turn = tg_turn(t);
	game_status st;
	game_status_of(t->g, &st);
	if (turn >= 0)
		sb_add(&b, tb_txt(y, sizeof y, T_TABLE_WAITING, tb_seat_name(t, turn), t->gdef->phase_name(st.phase), NULL));
	int me = table_seat_of(t, user);
	/* Only what all may see: the trick, a named or revealed trump, the bid. */
	const uint8_t *seats = NULL, *cards = NULL;
	int ntr = 0, trick_no = 0, bid = 0, bidder = 0, trump = -1;
	t304_view tv;
	rook_view rv;
	if (is_t304(t)) {
		game_view(t->g, me >= 0 ? me : 0, &tv);
		seats = tv.trick.seat, cards = tv.trick.card, ntr = tv.phase == T304_PHASE_PLAY ? tv.trick.n : 0;
		trick_no = tv.trick_no, bid = tv.bid, bidder = tv.bidder;
		if (tv.revealed)
			trump = tv.trump_suit;
	} else {
		game_view(t->g, me >= 0 ? me : 0, &rv);
		seats = rv.trick.seat, cards = rv.trick.card, ntr = rv.phase == ROOK_PHASE_PLAY ? rv.trick.n : 0;
		trick_no = rv.trick_no, bid = rv.bid, bidder = rv.bidder, trump = rv.trump;
	}
	if (ntr) {
		strbuf cb;
		sb_init(&cb, x, sizeof x);
		for (int k = 0; k < ntr; k++) {
			sb_printf(&cb, " %s ", tb_seat_name(t, seats[k]));
			card_text(t, &cb, cards[k], RENDER_COLOUR);
		}
		snprintf(n, sizeof n, "%d", trick_no + 1);
		sb_add(&b, tb_txt(y, sizeof y, T_TABLE_TRICK, n, x, NULL));
	}
	if (trump >= 0) {
		strbuf cb;
		sb_init(&cb, x, sizeof x);
		colour_or_suit(t, &cb, trump, RENDER_COLOUR);
		sb_add(&b, tb_txt(y, sizeof y, T_TABLE_TRUMPS, x, NULL, NULL));
	}
	if (bid) {
		snprintf(n, sizeof n, "%d", bid);
		sb_add(&b, tb_txt(y, sizeof y, T_TABLE_HIGH_BID, n, tb_seat_name(t, bidder), NULL));
	}
	if (t->move_by) {
		int64_t left = (t->move_by - loop_now()) / 1000;
		snprintf(n, sizeof n, "%lld", (long long)(left > 0 ? left : 0));
		sb_add(&b, tb_txt(y, sizeof y, T_TABLE_TIME_LEFT, n, NULL, NULL));
	}
}

void tg_score(table *t, const char *user, int in_room)
{
	char x[LINE], line[LINE];
	if (t->g)
		scores_text(t, x, sizeof x);
	else
		snprintf(x, sizeof x, "-");
	if (t->g && is_t304(t)) {
		/* Running totals, and who paid whom in the last deal. */
		char paid[LINE], more[LINE];
		payments_text(t, paid, sizeof paid);
		if (paid[0]) {
			size_t n = strlen(x);
			tb_txt(more, sizeof more, T_G_LAST_DEAL, paid, NULL, NULL);
			snprintf(x + n, sizeof x - n, "%s", more);
		}
	}
	tb_txt(line, sizeof line, T_G_SCORE_LINE, t->gdef->name, x, NULL);
	if (in_room)
		bot_say_room(t->bot, t->net, t->room, line, ADAPTER_NOTICE);
	else
		bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

void tg_rules(table *t, const char *user)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	char line[LINE], n[16], secs[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	snprintf(secs, sizeof secs, "%d", t->set.live_turn_seconds);
	if (is_t304(t)) {
		const char *args[4] = { table_room_shown(t), n, paces[t->set.pace % 3], secs };
		text_fmt(line, sizeof line, T_G_RULES_T304, 4, args);
	} else {
		tb_txt(line, sizeof line, T_G_RULES_ROOK, table_room_shown(t), paces[t->set.pace % 3], NULL);
	}
	bot_say_private(t->bot, t->net, user, line, ADAPTER_NOTICE);
}

int tg_stopped(table *t)
{
	if (!t->bot->db)
		return 0;
	int64_t id = 0;
	game_status st = { 0 };
	if (t->match_id && t->state == TABLE_PLAYING && t->g) {
		game_status_of(t->g, &st);
		id = t->match_id;
	}
	return store_table_stop(t->bot->db, t->net->name, t->room, id, st.score[0], st.score[1]);
}

void tg_resumed(table *t)
{
	if (t->state != TABLE_PLAYING || !t->g)
		return;
	game_status st;
	game_status_of(t->g, &st);
	if (!st.needs_deal && t->commitment[0]) {
		char n[16];
		snprintf(n, sizeof n, "%d", st.deal_no);
		tb_say(t, T_RESUMED_DEAL, n, t->commitment, NULL);
	} else {
		tb_say(t, T_RESUMED, NULL, NULL, NULL);
	}
	if (st.needs_deal) {
		offer_cut(t);
		tb_flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->bot->ev, tb_deal_wait_ms(t), deal_next, t);
		return;
	}
	prompt_turn(t);
	tb_flush(t);
	int turn = tg_turn(t);
	for (int s = 0; s < t->nseats; s++)
		if (s != turn)
			tg_send_hand(t, s);
	tg_schedule(t);
}

int tg_rebuild(table *t, const record *r, int64_t id, char *err, size_t errlen)
{
	int e = 0;
	game *g = game_new(r->game, r->nseats, r->dealer, NULL, &e);
	if (!g) {
		snprintf(err, errlen, "match %lld: the game cannot be set up", (long long)id);
		return -1;
	}
	size_t last_n = 0;
	for (size_t d = 0; d < r->ndeals; d++) {
		e = game_deal(g, r->deals[d].gdeck);
		if (e) {
			snprintf(err, errlen, "match %lld: deal %zu cannot start (%s)", (long long)id, d + 1, r->game->err_name(e));
			game_free(g);
			return -1;
		}
		for (size_t i = 0; i < r->deals[d].nactions; i++) {
			game_result res;
			e = game_apply(g, &r->deals[d].gactions[i], &res);
			if (e) {
				snprintf(err, errlen, "match %lld: deal %zu action %zu is refused (%s)", (long long)id, d + 1, i + 1,
					 r->game->err_name(e));
				game_free(g);
				return -1;
			}
		}
		last_n = r->deals[d].nactions;
	}
	game_free(t->g);
	t->g = g;
	t->gdef = r->game;
	t->nseats = r->nseats;
	t->first_dealer = r->dealer;
	t->match_id = id;
	t->deal_idx = (int)r->ndeals;
	t->seq = (int)last_n;
	return 0;
}
