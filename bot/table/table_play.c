/* table_play.c: the flow of a match at a table, for every game, through
 * engine/core/game.h: the deal (shuffle, commitment, the cut, the pause between
 * deals), applying an action (apply, store, announce, undo on a failed
 * write), the turn and its timers, computer players, and the table coming
 * back after a restart. What a game looks like is its presentation's
 * (bot/games/present.h); seats and commands are bot/table/table.c's.
 *
 * Every accepted action is stored before it is announced, and the deck of a
 * deal before anyone sees a card of it. Hands and every card that goes face
 * down reach only the seat entitled to them (the presentations send them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "ai_worker.h"
#include "fair.h"
#include "log.h"
#include "loop.h"
#include "table_int.h"
#include "table_store.h"

static void deal_next(void *ctx);

int table_turn(const table *t)
{
	if (!t->g || t->state != TABLE_PLAYING)
		return -1;
	game_status st;
	game_status_of(t->g, &st);
	return st.over || st.needs_deal || st.turn == GAME_NO_SEAT ? -1 : st.turn;
}

int table_in_deal(const table *t)
{
	if (!t->g || t->state != TABLE_PLAYING)
		return 0;
	game_status st;
	game_status_of(t->g, &st);
	return !st.over && !st.needs_deal;
}

uint64_t table_stamp(const table *t)
{
	return t->nacts << 16 ^ (uint64_t)t->deal_idx;
}

/* `set lastcard on`: seat s is to play its last card, which is then the
 * only card it may play; played for it, as a computer's move is, it tells
 * nobody anything. (A card forced earlier, the only card of the suit led,
 * is not: played at once, it would tell the table there was no choice.) */
static int last_card(const table *t, int s)
{
	if (!t->set.lastcard || !t->g || !table_in_deal(t) || t->pr->cards_held(t, s) != 1)
		return 0;
	game_legal l;
	game_legal_of(t->g, s, &l);
	int play = t->gdef->act_parse("play");
	/* (Calls open at any moment, 304's spoilt, stay open until then.) */
	return play >= 0 && (l.acts >> play & 1) && l.cards && !(l.cards & (l.cards - 1));
}

int table_auto_seat(const table *t, int s)
{
	if (s < 0 || s >= t->nseats)
		return 0;
	return t->seats[s].computer || (t->pr->auto_seat && t->pr->auto_seat(t, s)) || last_card(t, s);
}

void table_send_hand(table *t, int s)
{
	if (s < 0 || s >= t->nseats)
		return;
	t->hand_due &= (uint8_t)~(1u << s);
	if (!table_private_ok(t, s) || !table_in_deal(t))
		return;
	const text_lang *was = table_reader(t, table_lang_of(t, t->seats[s].user));
	t->pr->hand(t, s);
	table_reader(t, was);
}

void table_seen(table *t, int s)
{
	t->seen_seat = t->set.brief && s >= 0 ? s : -1;
}

/* ---- whose turn ---- */

/* Brief: a turn that passed in silence is named a while later, with a
 * mention, if the player has not moved (people not watching the room). */
static void nudge_fire(void *ctx)
{
	table *t = ctx;
	table_enter(t);
	t->nudge_timer = 0;
	int s = table_turn(t);
	if (s < 0 || t->seats[s].computer)
		return;
	if (t->outlen)
		table_flush(t);
	t->pr->turn(t, s);
	/* Timely: a network that must hold it back drops it rather than tell
	 * of a turn that has passed meanwhile; so, while this turn is still
	 * awaited, it is said again later (table.h). */
	table_send_out(t, ADAPTER_NOTICE | ADAPTER_HIGHLIGHT | ADAPTER_TIMELY);
	t->nudged_seat = s;
	if (++t->nudges < TURN_NUDGES_MAX)
		t->nudge_timer = loop_timer(t->host->ev, (long)t->set.turn_nudge_ms << t->nudges, nudge_fire, t);
}

/* Whose turn, and what they may do, in the room with their name so that
 * clients highlight it; their hand privately. */
static void prompt_turn(table *t)
{
	int s = table_turn(t);
	if (t->nudge_timer) {
		loop_cancel(t->host->ev, t->nudge_timer);
		t->nudge_timer = 0;
	}
	/* A mention of the last turn still waiting for the network's rate
	 * limit would now name someone who has moved: it is not sent. */
	if (t->nudged_seat >= 0 && t->nudged_seat != s) {
		if (t->net->ops->withdraw)
			t->net->ops->withdraw(t->net, t->room);
		t->nudged_seat = -1;
	}
	if (s < 0 || table_auto_seat(t, s))
		return; /* the bot moves for this seat: nobody is asked */
	/* Brief (table.h): the turn is named only in a line that goes out
	 * anyway, or by a mention if the player has not moved a while later. */
	if (t->set.brief && !t->outlen) {
		t->nudges = 0;
		if (t->set.turn_nudge_ms > 0)
			t->nudge_timer = loop_timer(t->host->ev, t->set.turn_nudge_ms, nudge_fire, t);
		return;
	}
	if (t->pr->turn(t, s) && !t->set.brief) {
		/* What happened, then the hand it left: the room first. */
		table_flush(t);
		table_send_hand(t, s);
	}
}

/* ---- dealing ---- */

/* The deck commitment (bot/table/fair.h's formula over the game's card codes). */
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

/* A deck from the kernel's CSPRNG: a 32-card pack through fair_shuffle,
 * any other through the game's shuffle on a generator seeded with 256
 * fresh bits. */
static int shuffle(const table *t, uint8_t *deck)
{
	if (t->gdef->deck_size == CARD_COUNT) {
		card d[CARD_COUNT];
		if (fair_shuffle(d) < 0)
			return -1;
		memcpy(deck, d, CARD_COUNT);
		memset(d, 0, sizeof d);
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

/* Who may cut before the next deal (the presentation says which side of
 * the dealer), or -1 when the game has no cut. */
static int cutter_seat(const table *t)
{
	if (!t->g || !t->pr->cutter_step)
		return -1;
	game_status st;
	game_status_of(t->g, &st);
	return (st.dealer + t->nseats + t->pr->cutter_step) % t->nseats;
}

int table_deal_wait_ms(const table *t)
{
	return t->cut_seat >= 0 && t->set.cut_offer_ms > t->set.deal_pause_ms ? t->set.cut_offer_ms
									       : t->set.deal_pause_ms;
}

/* Before a deal the cutter is offered the cut (RULES.md: a courtesy while
 * the table pauses between deals; the shuffle is fair whatever the cut).
 * A computer player, an absent person or a pause too short for anyone to
 * answer lets it pass: the deck is dealt as shuffled. */
static void offer_cut(table *t)
{
	t->cut_at = 0;
	t->cut_seat = -1;
	int s = cutter_seat(t);
	if (s < 0 || !t->seats[s].user[0] || t->seats[s].computer || t->seats[s].away || t->set.deal_pause_ms < 1000
	    || t->set.cut_offer_ms < 1000)
		return;
	t->cut_seat = s;
	char secs[16], most[16];
	snprintf(secs, sizeof secs, "%d", (table_deal_wait_ms(t) + 999) / 1000);
	snprintf(most, sizeof most, "%d", t->gdef->deck_size - 1);
	table_say_to(t, t->seats[s].user, T_G_CUT_OFFER, t->seats[s].name, secs, most);
}

void table_cut(table *t, const char *user, const char *arg)
{
	int s = table_seat_of(t, user);
	game_status st = { 0 };
	if (t->g)
		game_status_of(t->g, &st);
	if (t->cut_seat < 0 || s != t->cut_seat || !t->deal_timer || !t->g || !st.needs_deal) {
		int who = t->cut_seat >= 0 ? t->cut_seat : cutter_seat(t);
		table_tell(t, user, T_CUT_NOT_NOW, table_room_shown(t), table_seat_name(t, who), NULL);
		return;
	}
	char *end, most[16];
	long n = strtol(arg, &end, 10);
	if (*end || end == arg || n < 1 || n >= t->gdef->deck_size) {
		snprintf(most, sizeof most, "%d", t->gdef->deck_size - 1);
		table_tell(t, user, T_G_CUT_USAGE, table_room_shown(t), most, NULL);
		return;
	}
	t->cut_at = (int)n;
	loop_cancel(t->host->ev, t->deal_timer);
	t->deal_timer = 0;
	deal_next(t);
}

/* The next deal: shuffled, cut, committed to and stored before anyone
 * sees a card of it. */
static void deal_next(void *ctx)
{
	table *t = ctx;
	table_enter(t);
	t->deal_timer = 0;
	if (t->state != TABLE_PLAYING || !t->g)
		return;
	game_status st;
	game_status_of(t->g, &st);
	if (!st.needs_deal || st.over)
		return;
	uint8_t deck[GAME_MAX_DECK];
	int shuffled = t->host->deck && t->host->deck(t->host->deck_ctx, t->gdef, deck) ? 0 : shuffle(t, deck);
	/* The courtesy cut: the deck committed to, stored and dealt is the
	 * deck after it. */
	int cut = t->cut_at, cutter = t->cut_seat;
	t->cut_at = 0;
	t->cut_seat = -1;
	if (shuffled == 0)
		cut_deck(deck, t->gdef->deck_size, cut);
	if (shuffled < 0 || fair_salt(t->salt) < 0 || commit_deck(t->gdef, deck, t->salt, t->commitment) < 0) {
		char why[TABLE_LINE];
		table_say(t, T_ERROR, table_txt(t, why, sizeof why, T_ERR_RANDOM, NULL, NULL, NULL), NULL, NULL);
		t->state = TABLE_OPEN;
		table_flush(t);
		return;
	}
	store *db = table_db(t);
	if (db && t->match_id) {
		char dj[GAME_MAX_DECK * 8 + 8];
		deck_json(t, deck, dj, sizeof dj);
		if (store_deal_begin(db, t->match_id, t->deal_idx, dj, t->salt, t->commitment) < 0) {
			table_save_failed(t, NULL);
			table_flush(t);
			t->deal_timer = loop_timer(t->host->ev, TABLE_SAVE_RETRY_MS, deal_next, t);
			return;
		}
		table_save_works(t);
	}
	t->deal_idx++;
	t->seq = 0;
	t->nacts++;
	t->hand_due = 0;
	memset(t->bid_by, 0, sizeof t->bid_by);
	int e = game_deal(t->g, deck);
	memset(deck, 0, sizeof deck);
	if (e) {
		log_msg(LOG_ERROR, NULL, "table %s: the deal was refused (%s)", t->room, t->gdef->err_name(e));
		return;
	}
	if (cut > 0 && cutter >= 0) {
		char n[16];
		snprintf(n, sizeof n, "%d", cut);
		table_say(t, T_CUT_DONE, table_seat_name(t, cutter), n, NULL);
	}
	t->pr->dealt(t);
	table_say(t, T_COMMITMENT, t->commitment, NULL, NULL);
	/* The room hears of the deal before anyone reads a hand of it, and
	 * who holds which seat's cards is saved first (table_flush). */
	table_viewers_sync(t);
	prompt_turn(t);
	table_flush(t);
	int turn = table_turn(t);
	for (int s = 0; s < t->nseats; s++)
		if (s != turn || t->set.brief)
			table_send_hand(t, s);
	table_schedule(t);
}

void table_play_start(table *t, const char *user)
{
	uint32_t r = 0;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		r = 0;
	t->first_dealer = (int)(r % (uint32_t)t->nseats);
	int err = 0;
	game_rules opts;
	game_rules_of(t->gdef, &t->set.options, &opts);
	game *g = game_new(t->gdef, t->nseats, t->first_dealer, t->gdef->options ? opts.b : NULL, &err);
	if (!g) {
		table_tell_txt(t, user, T_ERROR, T_ERR_SETUP);
		return;
	}
	store *db = table_db(t);
	if (db) {
		char rules[TSTORE_RULES_MAX];
		store_seat ss[TABLE_SEATS];
		memset(ss, 0, sizeof ss);
		tstore_rules_json(t->gdef, &opts, rules, sizeof rules);
		for (int s = 0; s < t->nseats; s++)
			ss[s] = (store_seat){ t->seats[s].computer ? "" : t->seats[s].user, t->seats[s].name,
					      t->seats[s].computer };
		if (store_match_begin(db, t->net->name, t->room, t->gdef->name, rules, ss, t->first_dealer, &t->match_id)
		    < 0) {
			t->match_id = 0;
			game_free(g);
			table_save_failed(t, user);
			table_flush(t);
			return;
		}
		table_save_works(t);
		t->deal_idx = 0;
		t->seq = 0;
	}
	game_free(t->g);
	t->g = g;
	t->nacts++;
	t->state = TABLE_PLAYING;
	t->stop_votes = 0;
	t->pr->match_start(t);
	/* What a commitment is for: once a match, with its terms, so that the
	 * first deal's line is as short as the others. */
	table_say(t, T_COMMITMENT_HOW, NULL, NULL, NULL);
	table_flush(t);
	for (int i = 0; i < t->nnotify; i++)
		table_tell(t, t->notify[i], T_NOTIFY_START, table_room_shown(t), NULL, NULL);
	offer_cut(t);
	if (t->cut_seat >= 0) {
		/* The first deal waits the pause too, for the cut. */
		table_flush(t);
		t->deal_timer = loop_timer(t->host->ev, table_deal_wait_ms(t), deal_next, t);
		table_schedule(t);
		return;
	}
	deal_next(t);
}

/* ---- acting ---- */

/* Did these events end a trick? Every game names that event "trick". */
static int ends_trick(const table *t, const game_result *res)
{
	int ev = game_ev_parse(t->gdef, "trick");
	for (int i = 0; ev >= 0 && i < res->nevents; i++)
		if (res->events[i].type == ev)
			return 1;
	return 0;
}

static void after_action(table *t, int by_person, int trick_end)
{
	game_status st;
	game_status_of(t->g, &st);
	if (st.over) {
		t->state = TABLE_OPEN;
		t->stop_votes = 0;
		table_say(t, T_MATCH_OVER_HINT, NULL, NULL, NULL);
		table_flush(t);
		table_schedule(t);
		return;
	}
	if (st.needs_deal) {
		t->deals_played++;
		offer_cut(t);
		table_flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->host->ev, table_deal_wait_ms(t), deal_next, t);
		table_schedule(t);
		return;
	}
	prompt_turn(t);
	/* While computer players move one after another, their moves gather
	 * into one line; it goes out when a person is to act. A person's own
	 * action is answered at once. A trick's end ends the line too: the
	 * next trick's cards never share a line with this one's (at six
	 * seats two tricks ran to 372 characters). */
	int s = table_turn(t);
	int computer_next = s >= 0 && table_auto_seat(t, s);
	if (by_person || !computer_next || trick_end || t->outlen > TABLE_OUT_MAX / 2
	    || t->nout > TABLE_PARTS_MAX / 2)
		table_flush(t);
	table_schedule(t);
}

int table_act(table *t, const game_action *a, const char *user)
{
	game_status before_st;
	game_status_of(t->g, &before_st);
	store *db = table_db(t);
	game *before = NULL;
	if (db && t->match_id && !(before = game_copy(t->g))) {
		if (user)
			table_tell_txt(t, user, T_ERROR, T_ERR_MEMORY);
		return -1;
	}
	game_result res;
	int err = game_apply(t->g, a, &res);
	if (err) {
		game_free(before);
		if (user) {
			char buf[TABLE_LINE];
			const text_lang *was = table_reader(t, table_lang_of(t, user));
			t->pr->refusal(t, &res, a->seat, buf, sizeof buf);
			table_reader(t, was);
			table_tell(t, user, T_REFUSED, table_room_shown(t), buf, NULL);
			/* Brief: the room saw the command and hears of no move, so
			 * it is told that this one did not count. */
			if (t->seen_seat >= 0) {
				t->seen_seat = -1;
				table_say_to(t, user, T_REFUSED_ROOM, table_seat_name(t, a->seat), NULL, NULL);
				table_flush(t);
			} else if (t->cmd_in_room && !t->set.brief) {
				table_refused_in_room(t, user, 1);
			}
		} else {
			log_msg(LOG_ERROR, NULL, "table %s: a computer player's %s was refused (%s)", t->room,
				t->gdef->act_name(a->type), t->gdef->err_name(err));
		}
		return err > 0 ? err : 1;
	}
	game_status st;
	game_status_of(t->g, &st);
	int deal_over = !before_st.needs_deal && (st.needs_deal || st.over);
	/* Stored before it is announced: a crash after this loses nothing
	 * anyone saw, and a failed write undoes the action. */
	if (db && t->match_id) {
		char js[TSTORE_ACTION_MAX];
		t->pr->action_json(t, a, js, sizeof js);
		store_deal_end end;
		memset(&end, 0, sizeof end);
		if (deal_over)
			t->pr->deal_results(t, &end);
		if (store_action(db, t->match_id, t->deal_idx - 1, t->seq, js, deal_over ? &end : NULL) < 0) {
			game_free(t->g);
			t->g = before;
			table_save_failed(t, user);
			table_flush(t);
			if (!user)
				table_schedule(t); /* a computer player tries again later */
			return -1;
		}
		game_free(before);
		table_save_works(t);
		t->seq++;
	}
	t->nacts++;
	t->stop_votes = 0;
	t->pr->events(t, &res);
	t->seen_seat = -1;
	/* A deal's salt is not said at its end: it opens the commitment only
	 * beside the deck, and both are in the match record (T_COMMITMENT_HOW
	 * says so once a match). */
	after_action(t, user != NULL, ends_trick(t, &res));
	return 0;
}

/* ---- computer players and the timer ---- */

/* The bot's own choice for seat s: applied; one the game refuses (a bug
 * in a player) is logged by table_act and replaced by a random legal
 * move, so the table never stalls. */
static void computer_apply(table *t, int s, int why, const game_action *a)
{
	if (why == PRESENT_STAND_IN)
		table_say(t, T_STOOD_IN, table_seat_name(t, s), NULL, NULL);
	if (table_act(t, a, NULL) <= 0)
		return;
	game_action b;
	if (table_turn(t) == s && game_random_action(t->g, s, &t->dice, &b)) {
		log_msg(LOG_ERROR, NULL, "table %s: a random legal move is made for seat %d instead", t->room, s + 1);
		table_act(t, &b, NULL);
	}
}

/* ---- computer players: the search on the worker thread ---- */

static void think_done(void *ctx, uint64_t tag, int ok, const game_action *a)
{
	table *t = ctx;
	int why = (int)(tag & 3), s = (int)(tag >> 4 & 7);
	uint64_t stamp = tag >> 8;
	if (t->closing || !t->g)
		return;
	if (stamp != (table_stamp(t) & (UINT64_MAX >> 8)))
		return; /* the match moved on while it thought */
	if (why == PRESENT_HINT) {
		if (ok && table_turn(t) == s)
			table_hint(t, s, a);
		return;
	}
	table_computer_done(t, s, why, table_stamp(t), ok ? a : NULL);
}

int table_think(table *t, int s, int why, game_action *out)
{
	if (t->gdef->ai_action) {
		struct ai_worker *ai = t->host->ai(t->host->ctx, 1);
		/* A hint is what the best player would do; a computer player
		 * plays at the table's level (easy never comes here). */
		int level = why == PRESENT_HINT || t->set.computer_level == GAME_AI_STRONG ? GAME_AI_STRONG
											  : GAME_AI_NORMAL;
		game_ai_params p;
		game_ai_params_default(&p, level, rng_next(&t->dice));
		long ms = t->set.computer_think_ms > 0 ? t->set.computer_think_ms : AI_BUDGET_MS_DEFAULT;
		uint64_t tag = table_stamp(t) << 8 | (uint64_t)s << 4 | (uint64_t)why;
		if (ai && ai_worker_submit(ai, t->g, s, &p, ms, tag, think_done, t))
			return 0;
	}
	return game_bot_action(t->g, s, &t->dice, out) ? 1 : -1;
}

/* ---- computer players: every move paced alike ---- */

/* Is the move due for seat s now the one whose pace runs? */
static int pacing(const table *t, int s)
{
	return t->pace_due && t->pace_seat == s && t->pace_stamp == table_stamp(t);
}

static void pace_stop(table *t)
{
	t->pace_due = 0;
	t->pace_ready = t->pace_over = 0;
}

static void computer_timer(void *ctx);

/* A computer player's decision for seat s: 1 with *a filled, 0 when it
 * comes back later through table_computer_done (the worker), -1 when there
 * is no move at all. */
static int computer_decide(table *t, int s, int why, game_action *a)
{
	int r;
	if (t->set.computer_easy)
		r = game_random_action(t->g, s, &t->dice, a) ? 1 : -1;
	else
		r = t->pr->choose(t, s, why, a);
	if (r >= 0)
		return r;
	/* No choice (should not happen): a random legal move keeps the game going. */
	if (!game_random_action(t->g, s, &t->dice, a))
		return -1;
	log_msg(LOG_ERROR, NULL, "table %s: the computer player had no move; a random legal one is made", t->room);
	return 1;
}

/* Seat s, a computer's, is to move: its pace starts now, and so does its
 * decision (at once, or on the worker), which is held until the pace ends. */
static void pace_start(table *t, int s)
{
	int ms = t->set.computer_delay_ms;
	t->pace_due = loop_time(t->host->ev) + ms;
	t->pace_stamp = table_stamp(t);
	t->pace_seat = s;
	t->pace_ready = t->pace_over = 0;
	t->computer_timer = loop_timer(t->host->ev, ms, computer_timer, t);
	game_action a;
	if (computer_decide(t, s, PRESENT_MOVE, &a) <= 0)
		return; /* on the worker (table_computer_done), or no move at all */
	t->pace_act = a;
	t->pace_ready = 1;
}

static void computer_move(table *t, int s, int why)
{
	game_action a;
	if (computer_decide(t, s, why, &a) <= 0)
		return; /* on the worker (table_computer_done), or no move at all */
	computer_apply(t, s, why, &a);
}

void table_computer_done(table *t, int s, int why, uint64_t stamp, const game_action *a)
{
	if (t->closing || stamp != table_stamp(t) || table_turn(t) != s)
		return;
	table_enter(t);
	if (why == PRESENT_MOVE && !table_auto_seat(t, s))
		return;
	game_action x;
	if (a) {
		x = *a;
	} else if (!game_bot_action(t->g, s, &t->dice, &x) && !game_random_action(t->g, s, &t->dice, &x)) {
		return;
	}
	if (why == PRESENT_MOVE && pacing(t, s)) {
		if (!t->pace_over) {
			t->pace_act = x; /* told when the pace ends */
			t->pace_ready = 1;
			return;
		}
		pace_stop(t);
	}
	computer_apply(t, s, why, &x);
}

/* Is the rest of the deal played out at once (present.h play_out)? */
static int playing_out(const table *t)
{
	return t->pr->play_out && t->pr->play_out(t);
}

static void computer_timer(void *ctx)
{
	table *t = ctx;
	table_enter(t);
	t->computer_timer = 0;
	int s = table_turn(t);
	if (s < 0 || !table_auto_seat(t, s))
		return;
	game_action a;
	if (playing_out(t)) {
		/* Any legal card will do: the deal's outcome is settled. */
		if (game_bot_action(t->g, s, &t->dice, &a) || game_random_action(t->g, s, &t->dice, &a))
			computer_apply(t, s, PRESENT_MOVE, &a);
		return;
	}
	if (pacing(t, s)) {
		if (!t->pace_ready) {
			t->pace_over = 1; /* still deciding: told as soon as it has */
			return;
		}
		a = t->pace_act;
		pace_stop(t);
		computer_apply(t, s, PRESENT_MOVE, &a);
		return;
	}
	computer_move(t, s, PRESENT_MOVE); /* unpaced: a retry after a failed save */
}

static void turn_timer(void *ctx)
{
	table *t = ctx;
	table_enter(t);
	t->timer = 0;
	int s = table_turn(t);
	if (s < 0)
		return;
	switch (t->timer_kind) {
	case TK_WARN: {
		/* Half the time gone: one warning, then the move at the deadline
		 * (worked out from the deadline itself, right after a restart too). */
		long left = (long)(t->move_by - loop_now());
		char secs[24];
		snprintf(secs, sizeof secs, "%ld", left > 0 ? (left + 999) / 1000 : 0);
		table_say_to(t, t->seats[s].user, t->pr->t_warn, table_seat_name(t, s), secs, NULL);
		table_flush(t);
		t->warned = 1;
		t->timer_kind = TK_MOVE;
		t->timer = loop_timer(t->host->ev, left > 0 ? left : 0, turn_timer, t);
		return;
	}
	case TK_MOVE:
		if (t->pr->timeout_random) {
			game_action a;
			if (game_random_action(t->g, s, &t->dice, &a)) {
				table_say(t, t->pr->t_timed_out, table_seat_name(t, s), NULL, NULL);
				computer_apply(t, s, PRESENT_MOVE, &a);
			}
			return;
		}
		computer_move(t, s, PRESENT_STAND_IN);
		return;
	case TK_REMIND:
		table_say_to(t, t->seats[s].user, T_REMIND, table_seat_name(t, s), NULL, NULL);
		table_flush(t);
		table_send_hand(t, s);
		return;
	default:
		return;
	}
}

void table_schedule(table *t)
{
	if (t->timer)
		loop_cancel(t->host->ev, t->timer);
	t->timer = 0;
	t->timer_kind = TK_NONE;
	t->warned = 0;
	t->move_by = 0;
	int s = table_turn(t);
	int paced = s >= 0 && table_auto_seat(t, s) && !t->save_failed && !playing_out(t);
	/* The same move asked again (a command that changed nothing): its
	 * pace runs on from when it became due. */
	if (paced && pacing(t, s) && (t->computer_timer || t->pace_over))
		return;
	if (t->computer_timer)
		loop_cancel(t->host->ev, t->computer_timer);
	t->computer_timer = 0;
	pace_stop(t);
	if (s < 0)
		return;
	if (paced) {
		pace_start(t, s);
		return;
	}
	if (table_auto_seat(t, s)) {
		/* After a failed save, try again in a while rather than at once. */
		t->computer_timer = loop_timer(t->host->ev, t->save_failed ? TABLE_SAVE_RETRY_MS : 0, computer_timer, t);
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
	t->timer = loop_timer(t->host->ev, ms, turn_timer, t);
}

/* ---- after a restart, and the end ---- */

void table_play_resumed(table *t)
{
	if (t->state != TABLE_PLAYING || !t->g)
		return;
	table_enter(t);
	game_status st;
	game_status_of(t->g, &st);
	if (!st.needs_deal && t->commitment[0]) {
		char n[16];
		snprintf(n, sizeof n, "%d", st.deal_no);
		table_say(t, T_RESUMED_DEAL, n, t->commitment, NULL);
	} else {
		table_say(t, T_RESUMED, NULL, NULL, NULL);
	}
	if (st.needs_deal) {
		/* Between deals: the next one comes after the usual pause. */
		offer_cut(t);
		table_flush(t);
		if (!t->deal_timer)
			t->deal_timer = loop_timer(t->host->ev, table_deal_wait_ms(t), deal_next, t);
		return;
	}
	prompt_turn(t);
	table_flush(t);
	int turn = table_turn(t);
	for (int s = 0; s < t->nseats; s++)
		if (s != turn)
			table_send_hand(t, s);
	table_schedule(t);
}

void table_hint(table *t, int s, const game_action *a)
{
	char what[128];
	if (!table_private_ok(t, s))
		return;
	const text_lang *was = table_reader(t, table_lang_of(t, t->seats[s].user));
	t->pr->hint_text(t, s, a, what, sizeof what);
	table_reader(t, was);
	table_tell(t, t->seats[s].user, T_HINT, table_room_shown(t), what, NULL);
}

int table_play_stopped(table *t)
{
	if (!table_db(t))
		return 0;
	int64_t id = 0;
	game_status st = { 0 };
	if (t->match_id && t->state == TABLE_PLAYING && t->g) {
		game_status_of(t->g, &st);
		id = t->match_id;
	}
	return store_table_stop(table_db(t), t->net->name, t->room, id, st.score[0], st.score[1]);
}
