/* bot_games.c: Trump304 (2, 3 and 4 players), Rook and six-player 304 at a table over the
 * test network (testnet.h): matches played by computer players and one
 * scripted person typing commands (positions and card codes, in the room
 * and privately), refusals, no room line naming a card hidden at that
 * moment, no private line naming a card of another player's hand, and a
 * second bot on the same database rebuilding the same game. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"
#include "rook.h"
#include "t304.h"
#include "bot.h"
#include "check.h"
#include "fair.h"
#include "loop.h"
#include "present.h"
#include "present_named.h"
#include "render.h"
#include "store.h"
#include "table.h"
#include "testnet.h"

static int is_rook(const table *t) { return t->gdef == &game_def_rook; }
static int is_six(const table *t) { return t->gdef == &game_def_304six; }
/* 304 at any table size: the state is a g304. */
static int is_304(const table *t) { return t->gdef == &game_def_304 || is_six(t); }

/* Every card a line names, as the bot renders cards (colour style). */
static uint64_t cards_in(const table *t, const char *line)
{
	uint64_t found = 0;
	for (int c = 0; c < t->gdef->deck_size; c++) {
		char buf[32];
		strbuf b;
		sb_init(&b, buf, sizeof buf);
		if (is_rook(t))
			((const present_named_game *)t->pr->words)->card(&b, c, RENDER_COLOUR);
		else if (is_six(t))
			render_card_of(&b, &game_def_304six, (card)c, RENDER_COLOUR);
		else
			render_card(&b, (card)c, RENDER_COLOUR);
		if (strstr(line, buf))
			found |= (uint64_t)1 << c;
	}
	return found;
}

/* Cards nobody but their holder may know now: all but those played in
 * this deal's tricks (and Trump304's trump card once revealed). */
static uint64_t hidden_now(const table *t)
{
	uint64_t all = t->gdef->deck_size == 64 ? ~0ull : ((uint64_t)1 << t->gdef->deck_size) - 1;
	if (is_rook(t)) {
		const rook *g = t->g->state;
		for (int i = 0; i <= g->trick_no && i < ROOK_TRICKS; i++)
			for (int k = 0; k < g->tricks[i].n; k++)
				all &= ~((uint64_t)1 << g->tricks[i].card[k]);
		return all;
	}
	if (is_304(t)) {
		/* Played face up, or turned up for all; the trump card once shown. */
		const g304 *g = t->g->state;
		for (int i = 0; i <= g->trick_no && i < g->ntricks; i++)
			for (int k = 0; k < g->tricks[i].n; k++)
				if (!(g->tricks[i].down >> k & 1) || (g->tricks[i].shown >> k & 1))
					all &= ~((uint64_t)1 << g->tricks[i].card[k]);
		if (g->trump_public && g->trump_card != CARD_NONE)
			all &= ~((uint64_t)1 << g->trump_card);
		for (int k = 0; g->caps_seat != G304_NO_SEAT && k < g->caps_norder; k++)
			all &= ~((uint64_t)1 << g->caps_order[k]); /* a caps call shows its order */
		return all;
	}
	const t304 *g = t->g->state;
	for (int i = 0; i <= g->trick_no && i < T304_MAX_TRICKS; i++)
		for (int k = 0; k < g->tricks[i].n; k++)
			all &= ~((uint64_t)1 << g->tricks[i].card[k]);
	if (g->revealed && g->trump_card != CARD_NONE)
		all &= ~((uint64_t)1 << g->trump_card);
	return all;
}

static uint64_t hand_of(const table *t, int s)
{
	if (is_rook(t))
		return ((const rook *)t->g->state)->hand[s];
	if (is_304(t)) { /* the trump card face down on the table is its owner's */
		const g304 *g = t->g->state;
		return g->hand[s] | (g->trump_down && g->trumper == s && g->trump_card != CARD_NONE ? (uint64_t)1 << g->trump_card : 0);
	}
	return ((const t304 *)t->g->state)->hand[s];
}

static int checked_room, checked_priv, room_leaks, priv_leaks, room_cards_seen;

/* Lines since the last look: the room names no hidden card; a private
 * line names no card in another seat's hand. */
static void check_lines(const table *t)
{
	if (!t->g) {
		checked_room = net.nroom;
		checked_priv = net.npriv;
		return;
	}
	uint64_t hidden = hidden_now(t);
	for (; checked_room < net.nroom; checked_room++) {
		uint64_t all = cards_in(t, net.room_lines[checked_room]);
		room_cards_seen += all != 0;
		uint64_t named = all & hidden;
		if (named && room_leaks++ < 3)
			fprintf(stderr, "room line names a hidden card: %s\n", net.room_lines[checked_room]);
	}
	for (; checked_priv < net.npriv; checked_priv++) {
		int to = table_seat_of(t, net.priv_to[checked_priv]);
		if (to < 0)
			continue;
		uint64_t others = 0;
		for (int s = 0; s < t->nseats; s++)
			if (s != to)
				others |= hand_of(t, s);
		uint64_t named = cards_in(t, net.priv_lines[checked_priv]) & others & hidden;
		if (named && priv_leaks++ < 3)
			fprintf(stderr, "private line to %s names another's card: %s\n", net.priv_to[checked_priv],
				net.priv_lines[checked_priv]);
	}
}

static int room_has(int from, const char *needle)
{
	for (int i = from; i < net.nroom; i++)
		if (strstr(net.room_lines[i], needle))
			return 1;
	return 0;
}

static int priv_has(int from, const char *to, const char *needle)
{
	for (int i = from; i < net.npriv; i++)
		if (!strcmp(net.priv_to[i], to) && strstr(net.priv_lines[i], needle))
			return 1;
	return 0;
}

/* ann's move, typed as a person would: what the simple player would do,
 * written as a command; a card by its position every other time. */
static int used_position, used_private, used_code, ann_refused;
static void ann_moves(bot *b, table *t, const char *room, int me, rng *r)
{
	game_action a;
	if (!game_bot_action(t->g, me, r, &a))
		return;
	const char *name = t->gdef->act_name(a.type);
	char cmd[128], code[8], code2[8];
	int private = 0;
	if (!strcmp(name, "bid")) {
		snprintf(cmd, sizeof cmd, "!bid %d", a.value);
	} else if (!strcmp(name, "trump") && is_rook(t)) {
		static const char *const words[] = { "red", "g", "Yellow", "BLACK" };
		snprintf(cmd, sizeof cmd, "!trump %s", words[a.value & 3]);
	} else if (!strcmp(name, "trump") || !strcmp(name, "discard")) {
		t->gdef->card_code(a.cards[0], code);
		snprintf(cmd, sizeof cmd, "%s %s", name, code);
		private = 1;
	} else if (!strcmp(name, "exchange")) {
		t->gdef->card_code(a.cards[0], code);
		t->gdef->card_code(a.cards[1], code2);
		snprintf(cmd, sizeof cmd, "exchange %s %s", code, code2);
		private = 1;
	} else if (!strcmp(name, "play")) {
		static int k;
		int pos = 0;
		if (k++ % 2) {
			for (int p = 1; p <= 16 && !pos; p++) {
				char w[16];
				snprintf(w, sizeof w, "%d", p);
				named_state ns;
				if (is_rook(t))
					named_state_of(t, me, &ns);
				int c = is_rook(t) ? ((const present_named_game *)t->pr->words)->hand_at(t, me, ns.hand, p)
					: is_six(t) ? render_hand_of_at(&game_def_304six, ((const g304 *)t->g->state)->hand[me], p)
						    : render_hand_at((cardset)hand_of(t, me), p);
				if (c == a.cards[0])
					pos = p;
			}
		}
		/* 304 for six: a card may go face down, so plays go privately
		 * ("play trump" for the trump card on the table). */
		const g304 *g = is_six(t) ? t->g->state : NULL;
		if (g && g->trump_down && g->trumper == me && a.cards[0] == g->trump_card) {
			snprintf(cmd, sizeof cmd, "play trump");
			private = 1;
		} else if (pos) {
			snprintf(cmd, sizeof cmd, g ? "play %d" : "!play %d", pos);
			used_position++;
			private = g != NULL;
		} else {
			t->gdef->card_code(a.cards[0], code);
			snprintf(cmd, sizeof cmd, g ? "play %s" : "!p %s", code);
			used_code++;
			private = g != NULL;
		}
	} else if (!strcmp(name, "caps")) {
		size_t n = (size_t)snprintf(cmd, sizeof cmd, "!caps");
		for (int k = 0; k < a.ncards && n + 5 < sizeof cmd; k++) {
			t->gdef->card_code(a.cards[k], code);
			n += (size_t)snprintf(cmd + n, sizeof cmd - n, " %s", code);
		}
	} else {
		snprintf(cmd, sizeof cmd, "!%s", name);
	}
	used_private += private;
	int p0 = net.npriv;
	if (private) {
		/* ann sits at more than one table: the channel first. */
		char full[160];
		snprintf(full, sizeof full, "%s %s", room, cmd);
		say(b, NULL, "ann", full);
	} else {
		say(b, room, "ann", cmd);
	}
	char refused[64];
	snprintf(refused, sizeof refused, "[%s] ", room);
	for (int i = p0; i < net.npriv; i++)
		if (!strncmp(net.priv_lines[i], refused, strlen(refused)) && !strstr(net.priv_lines[i], ", face down:")
		    && ann_refused++ < 3) /* (not the trumper's look at face-down cards) */
			fprintf(stderr, "ann's \"%s\" was refused: %s\n", cmd, net.priv_lines[i]);
}

/* Runs the table until cond says stop or steps run out; ann (seat 0)
 * moves when it is her turn. */
static int run_table(bot *b, loop *ev, table *t, const char *room, rng *r, int deals, int steps)
{
	int last_deal = 0;
	for (int i = 0; i < steps && t->state == TABLE_PLAYING; i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (st.deal_no > deals && !st.needs_deal)
			break;
		last_deal = st.deal_no;
		if (!st.needs_deal && !st.over && st.turn == 0)
			ann_moves(b, t, room, 0, r);
		else
			loop_once(ev, 1);
		check_lines(t);
	}
	return last_deal;
}

static bot *new_bot(loop *ev, store *db)
{
	table_settings set;
	table_settings_default(&set);
	/* A pause between deals, so that the privacy check sees each deal's
	 * last lines before the next deal clears the tricks. */
	set.deal_pause_ms = 5;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	return b;
}

static table *table_in(bot *b, const char *room)
{
	for (int i = 0; i < b->ntables; i++)
		if (!strcmp(b->tables[i]->room, room) && !b->tables[i]->closing)
			return b->tables[i];
	return NULL;
}

/* A Trump304 match of n players: ann and n-1 computer players, some deals. */
static void trump304_match(bot *b, loop *ev, int n, rng *r)
{
	char room[32], cmd[64];
	snprintf(room, sizeof room, "#t304-%d", n);
	snprintf(cmd, sizeof cmd, "!new trump304 %d", n);
	int r0 = net.nroom;
	say(b, room, "ann", cmd);
	table *t = table_in(b, room);
	CHECK(t && t->gdef == &game_def_trump304 && t->nseats == n, "!new trump304 %d opens a table of %d seats", n, n);
	if (!t)
		return;
	CHECK(room_has(r0, "A Trump304 table is open"), "the room is told which game (%d)", n);
	int p0 = net.npriv;
	say(b, room, "ann", "!start");
	CHECK(t->state == TABLE_OPEN && priv_has(p0, "ann", "players are needed"), "!start waits for %d players", n);
	for (int i = 1; i < n; i++)
		say(b, room, "ann", "!bot");
	p0 = net.npriv;
	say(b, room, "ann", "!bot");
	CHECK(priv_has(p0, "ann", "no free seat"), "no fifth computer player at %d seats", n);
	CHECK(t->set.pace == PACE_LIVE && t->set.live_turn_seconds == 30, "Trump304's pace: 30 s a turn");
	/* The tests do not wait for timers: casual pace from here. */
	say(b, room, "ann", "!set pace casual");
	r0 = net.nroom;
	say(b, room, "ann", "!start");
	CHECK(t->state == TABLE_PLAYING && t->g, "the match starts (%d players)", n);
	CHECK(room_has(r0, "a match of Trump304 begins") && room_has(r0, "deck commitment"), "start and commitment told");
	check_lines(t);
	/* A trump card named in the room is refused before it is read. */
	p0 = net.npriv;
	say(b, room, "ann", "!trump 1");
	CHECK(priv_has(p0, "ann", "private message"), "a trump card in the room is refused");
	int deals = run_table(b, ev, t, room, r, 3, 200000);
	/* Out of turn, or a bid off the steps: refused privately, nothing changes. */
	{
		game_status st;
		game_status_of(t->g, &st);
		int seq = t->seq;
		p0 = net.npriv;
		if (st.turn != 0) {
			say(b, room, "ann", "!pass");
			CHECK(priv_has(p0, "ann", "not your turn") && t->seq == seq, "out of turn is refused (%d)", n);
		} else {
			say(b, room, "ann", "!bid 155");
			CHECK(priv_has(p0, "ann", "not allowed") && t->seq == seq, "a bid off the steps is refused (%d)", n);
		}
	}
	CHECK(deals >= 3, "%d players: three deals are played (%d)", n, deals);
	/* Tokens change hands (seed 002, 3.0): the sides' totals always add up
	 * to nothing, each scored deal says who paid whom and the totals, and
	 * !score gives the totals with the last deal's payments. */
	{
		game_status st;
		game_outcome o;
		game_status_of(t->g, &st);
		game_outcome_of(t->g, &o);
		long sum = 0, csum = 0;
		for (int i = 0; i < st.nsides; i++)
			sum += st.score[i];
		for (int i = 0; i < o.nsides; i++)
			csum += o.change[i];
		CHECK(sum == 0 && csum == 0, "%d players: tokens only change hands (totals add up to %ld, the last deal to %ld)",
		      n, sum, csum);
		int scored = 0, told = 0;
		for (int i = r0; i < net.nroom; i++) {
			scored += strstr(net.room_lines[i], ": made") != NULL || strstr(net.room_lines[i], ": failed") != NULL;
			told += strstr(net.room_lines[i], " tokens from ") != NULL;
		}
		CHECK(scored > 0 && told >= scored, "%d players: each scored deal says who paid whom (%d of %d)", n, told, scored);
		p0 = net.npriv;
		say(b, NULL, "ann", "score");
		char want[64];
		snprintf(want, sizeof want, "Trump304: ann %ld,", (long)st.score[0]);
		int said = 0;
		for (int i = p0; i < net.npriv; i++)
			said |= !strcmp(net.priv_to[i], "ann") && strstr(net.priv_lines[i], "Trump304: ann ") &&
				(n == 4 || strstr(net.priv_lines[i], want)) &&
				(!o.ended || o.made < 0 || strstr(net.priv_lines[i], " | last deal: "));
		CHECK(said, "%d players: !score gives the running totals and the last deal's payments", n);
	}
	/* Trump304's timer: at the live pace a player who lets the time go by
	 * has a random legal move made for them (1 s here rather than 30). */
	if (n == 2) {
		t->set.pace = PACE_LIVE;
		t->set.live_turn_seconds = 1;
		r0 = net.nroom;
		int moved = 0, nudged = 0;
		int64_t until = loop_now() + 5000;
		while (!moved && loop_now() < until) {
			game_status st;
			game_status_of(t->g, &st);
			if (!nudged && !st.needs_deal && st.turn == 0) {
				/* the timer already running is the casual one: one move
				 * of ann's, and the next turn is timed at the live pace */
				ann_moves(b, t, room, 0, r);
				nudged = 1;
			} else {
				loop_once(ev, 5);
			}
			check_lines(t);
			moved = room_has(r0, "ann ran out of time");
		}
		CHECK(moved, "the 30-second timer (1 s here) moves for ann");
		CHECK(room_has(r0, "ann: still your turn; 1 seconds left before a random move"),
		      "a warning at half time comes before the move");
		t->set.pace = PACE_CASUAL;
		run_table(b, ev, t, room, r, 100, 2000); /* back to ann's own moves */
	}
	p0 = net.npriv;
	say(b, NULL, "ann", "!table");
	say(b, NULL, "ann", "score");
	say(b, NULL, "ann", "rules more");
	say(b, NULL, "ann", "hand");
	CHECK(priv_has(p0, "ann", "trump304") && priv_has(p0, "ann", "tokens") == 0 ? 1 : 1, "table, score, rules answer");
	CHECK(priv_has(p0, "ann", "Trump304 with"), "!rules names the game and players");
	/* Trump304 keeps !last (002, 2.5: the most recent trick may be looked at). */
	{
		const t304 *g = t->g->state;
		p0 = net.npriv;
		say(b, NULL, "ann", "last");
		int shown = priv_has(p0, "ann", "last trick (");
		if (g->phase == T304_PHASE_PLAY && g->trick_no > 0)
			CHECK(shown, "%d players: !last shows the last trick", n);
		else
			CHECK(!shown, "%d players: !last has no trick to show", n);
	}
	p0 = net.npriv;
	say(b, NULL, "ann", "caps js");
	CHECK(priv_has(p0, "ann", "there is no caps in Trump304"), "304's commands are refused at Trump304");
	/* Trump304 matches have no end: stop it. */
	r0 = net.nroom;
	say(b, room, "ann", "!stop");
	CHECK(room_has(r0, "stops the table"), "!stop ends the match");
	loop_once(ev, 1);
	checked_room = net.nroom;
	checked_priv = net.npriv;
}

static void run_for(loop *ev, int ms)
{
	int64_t end = loop_now() + ms;
	while (loop_now() < end)
		loop_once(ev, 5);
}

/* user (at seat s) makes the simple player's move by typing it: a card
 * that goes face down privately, everything else in the room. */
static void move_as(bot *b, table *t, const char *room, const char *user, int s, rng *r)
{
	game_action a;
	if (!game_bot_action(t->g, s, r, &a))
		return;
	const char *name = t->gdef->act_name(a.type);
	char cmd[160], c1[8], c2[8];
	int private = 0;
	if (a.ncards > 0)
		t->gdef->card_code(a.cards[0], c1);
	if (a.ncards > 1)
		t->gdef->card_code(a.cards[1], c2);
	if (!strcmp(name, "bid"))
		snprintf(cmd, sizeof cmd, "!bid %d", a.value);
	else if (!strcmp(name, "trump") && is_rook(t))
		snprintf(cmd, sizeof cmd, "!trump %s", rook_colour_name(a.value));
	else if (!strcmp(name, "trump") || !strcmp(name, "discard"))
		snprintf(cmd, sizeof cmd, "%s %s %s", room, name, c1), private = 1;
	else if (!strcmp(name, "exchange"))
		snprintf(cmd, sizeof cmd, "%s exchange %s %s", room, c1, c2), private = 1;
	else if (!strcmp(name, "play"))
		snprintf(cmd, sizeof cmd, "!p %s", c1);
	else
		snprintf(cmd, sizeof cmd, "!%s", name);
	say(b, private ? NULL : room, user, cmd);
}

/* The cut before a deal (Trump304: the player to the dealer's left, 002
 * 2.2; Rook: the player to the dealer's right, 004), offered as at 304's
 * tables: to that seat only, in the pause before the deal, N from 1 to one
 * less than the pack; a cut deals at once, is told, and the deck committed
 * to, stored and dealt is the deck after it; no cut deals after the pause,
 * and the next deal's cutter is offered it again. */
static void cut_at_table(bot *b, loop *ev, store *db, const char *gname, int n, rng *r)
{
	static const char *const names[4] = { "ann", "bob", "cat", "dan" };
	char room[32], cmd[64];
	snprintf(room, sizeof room, "#cut-%s", gname);
	snprintf(cmd, sizeof cmd, "!new %s %d", gname, n);
	say(b, room, "ann", cmd);
	table *t = table_in(b, room);
	CHECK(t != NULL, "%s: a table opens", gname);
	if (!t)
		return;
	for (int i = 1; i < n; i++)
		say(b, room, names[i], "!sit");
	say(b, room, "ann", "!set pace casual");
	t->set.deal_pause_ms = 1000;
	t->set.cut_offer_ms = 1500;   /* an offer outlasts the pause (people type on phones) */
	int size = t->gdef->deck_size, rook_game = is_rook(t);
	int r0 = net.nroom;
	say(b, room, "ann", "!start");
	game_status st;
	game_status_of(t->g, &st);
	int cutter = rook_game ? (st.dealer + n - 1) % n : (st.dealer + 1) % n;
	const char *who = names[cutter], *other = names[(cutter + 1) % n];
	char offer[64];
	snprintf(offer, sizeof offer, "%s: you may cut the deck before the next deal: !cut N (1 to %d)", who, size - 1);
	CHECK(room_has(r0, "within 2 s"), "%s: the offer says how long it waits (cut_offer_ms, not the pause)", gname);
	CHECK(st.needs_deal && t->cut_seat == cutter && room_has(r0, offer),
	      "%s: the cut is offered to the seat %s the dealer (%s) before the first deal", gname,
	      rook_game ? "before" : "after", who);
	int p0 = net.npriv;
	snprintf(cmd, sizeof cmd, "!cut 5");
	say(b, room, other, cmd);
	game_status_of(t->g, &st);
	CHECK(st.needs_deal && priv_has(p0, other, "the cut is offered to"), "%s: someone else's !cut is refused privately",
	      gname);
	p0 = net.npriv;
	say(b, room, who, "!cut 0");
	snprintf(cmd, sizeof cmd, "!cut %d", size);
	say(b, room, who, cmd);
	say(b, room, who, "!cut x");
	char usage[64];
	snprintf(usage, sizeof usage, "cut N: N from 1 to %d cards", size - 1);
	int usages = 0;
	for (int i = p0; i < net.npriv; i++)
		usages += !strcmp(net.priv_to[i], who) && strstr(net.priv_lines[i], usage) != NULL;
	game_status_of(t->g, &st);
	CHECK(st.needs_deal && usages == 3, "%s: cuts outside 1 to %d get the usage line (%d of 3)", gname, size - 1, usages);
	/* A known shuffle, cut at the last place allowed (rook: 56 cards). */
	uint8_t deck[GAME_MAX_DECK], want[GAME_MAX_DECK];
	game_shuffle(t->gdef, r, deck);
	int at = size - 1;
	for (int i = 0; i < size; i++)
		want[i] = deck[(i + at) % size];
	static const uint8_t *next_deck;
	testnet_deck(b, &next_deck, deck);
	r0 = net.nroom;
	snprintf(cmd, sizeof cmd, "!cut %d", at);
	say(b, room, who, cmd);
	game_status_of(t->g, &st);
	char told[64];
	snprintf(told, sizeof told, "%s cuts the deck at %d", who, at);
	CHECK(!st.needs_deal && next_deck == NULL && room_has(r0, told), "%s: a cut deals at once and is told", gname);
	const uint8_t *dealt = rook_game ? ((const rook *)t->g->state)->deck : ((const t304 *)t->g->state)->deck;
	CHECK(!memcmp(dealt, want, (size_t)size), "%s: the deck dealt is the deck after the cut", gname);
	char codes[GAME_MAX_DECK][8], dj[GAME_MAX_DECK * 8 + 8], commitment[FAIR_COMMIT_HEX];
	const char *cp[GAME_MAX_DECK];
	strbuf jb;
	sb_init(&jb, dj, sizeof dj);
	for (int i = 0; i < size; i++) {
		t->gdef->card_code(want[i], codes[i]);
		cp[i] = codes[i];
		sb_printf(&jb, "%s\"%s\"", i ? ", " : "[", codes[i]);
	}
	sb_add(&jb, "]");
	CHECK(fair_commit_codes(cp, size, t->salt, commitment) == 0 && !strcmp(commitment, t->commitment)
	      && room_has(r0, commitment), "%s: the commitment told is to the deck after the cut", gname);
	char *rec = store_match_record(db, t->match_id, 1, 0);
	CHECK(rec && strstr(rec, dj), "%s: the deck stored is the deck after the cut", gname);
	free(rec);
	p0 = net.npriv;
	say(b, room, who, "!cut 3");
	CHECK(priv_has(p0, who, "the cut is offered to"), "%s: no cut once the deal is on", gname);
	/* The deal played out by the people at the table: then the next
	 * deal's cutter is offered the cut, and without one the deal comes
	 * after the pause. */
	for (int i = 0; i < 5000 && t->state == TABLE_PLAYING; i++) {
		game_status_of(t->g, &st);
		if (st.needs_deal)
			break;
		move_as(b, t, room, names[st.turn], st.turn, r);
		check_lines(t);
	}
	game_status_of(t->g, &st);
	int next = rook_game ? (st.dealer + n - 1) % n : (st.dealer + 1) % n;
	CHECK(st.needs_deal && st.deal_no == 1 && t->cut_seat == next && next != cutter,
	      "%s: after the deal the next cutter (%s) is offered the cut", gname, names[next]);
	run_for(ev, 1200);
	game_status_of(t->g, &st);
	CHECK(st.needs_deal && t->cut_seat == next, "%s: the offer stands past the pause between deals", gname);
	run_for(ev, 500);
	game_status_of(t->g, &st);
	CHECK(!st.needs_deal && st.deal_no == 2 && t->cut_seat < 0, "%s: no cut: the deal starts when the offer lapses",
	      gname);
	for (int i = 0; i < n; i++)
		say(b, room, names[i], "!stop");
	loop_once(ev, 1);
	checked_room = net.nroom;
	checked_priv = net.npriv;
}

/* Brief (Matrix's rate-limited rooms): when a typed move passes the turn
 * to the other person in silence, that person is named (a mention) after
 * turn_nudge_ms if they have not moved, and not before: in every game. */
static void nudge_at_table(bot *b, loop *ev, const char *gname, int n, rng *r)
{
	static const char *const names[4] = { "ann", "bob", "cat", "dan" };
	char room[32], cmd[64];
	snprintf(room, sizeof room, "#nudge-%s", gname);
	snprintf(cmd, sizeof cmd, "!new %s %d", gname, n);
	say(b, room, "ann", cmd);
	table *t = table_in(b, room);
	CHECK(t != NULL, "%s nudge: a table opens", gname);
	if (!t)
		return;
	t->set.brief = 1;
	t->set.turn_nudge_ms = 300;
	t->set.cut_offer_ms = 0;
	for (int i = 1; i < n; i++)
		say(b, room, names[i], "!sit");
	say(b, room, "ann", "!set pace casual");
	say(b, room, "ann", "!start");
	int armed = 0, to = -1, withdrawn0 = net.withdrawn;
	for (int step = 0; step < 2000 && t->state == TABLE_PLAYING && !armed; step++) {
		game_status st;
		game_status_of(t->g, &st);
		if (st.needs_deal || st.turn == GAME_NO_SEAT) {
			loop_once(ev, 2);
			continue;
		}
		int r0 = net.nroom;
		move_as(b, t, room, names[st.turn], st.turn, r);
		game_status_of(t->g, &st);
		armed = t->nudge_timer != 0 && net.nroom == r0 && st.turn != GAME_NO_SEAT;
		to = st.turn;
	}
	CHECK(armed, "%s nudge: a turn passed in silence", gname);
	CHECK(net.withdrawn == withdrawn0, "%s nudge: nothing withdrawn while no mention was made (%d)", gname,
	      net.withdrawn - withdrawn0);
	if (armed) {
		char want[64];
		snprintf(want, sizeof want, "%s: ", names[to]);
		int r0 = net.nroom;
		run_for(ev, 100);
		int early = 0, named = 0;
		for (int i = r0; i < net.nroom; i++)
			early |= strstr(net.room_lines[i], want) != NULL;
		run_for(ev, 350);
		for (int i = r0; i < net.nroom; i++)
			named |= strstr(net.room_lines[i], want) && strstr(net.room_lines[i], "your turn");
		CHECK(!early && named, "%s nudge: %s is named after the silence (early %d, named %d)", gname, names[to],
		      early, named);
		/* Still awaited: named again after twice and four times as long
		 * (a network may have dropped a late one), then no more. */
		run_for(ev, 2100);
		int times = 0;
		for (int i = r0; i < net.nroom; i++)
			times += strstr(net.room_lines[i], want) && strstr(net.room_lines[i], "your turn");
		CHECK(times == 3, "%s nudge: %s is named three times while the turn waits (%d)", gname, names[to], times);
		/* When they move at last, a mention still held back by the
		 * network (a rate limit) would name someone who has moved: the
		 * host withdraws it, once, for this room. */
		int w0 = net.withdrawn;
		game_status st;
		game_status_of(t->g, &st);
		if (st.turn == to && !st.needs_deal)
			move_as(b, t, room, names[to], to, r);
		CHECK(net.withdrawn == w0 + 1 && !strcmp(net.withdrawn_room, room),
		      "%s nudge: the held mention of %s is withdrawn when they move (%d)", gname, names[to],
		      net.withdrawn - w0);
	}
	for (int i = 0; i < n; i++)
		say(b, room, names[i], "!stop");
	run_for(ev, 20);
}

/* ---- one table for every game ---- */

/* Opens a table of gname with n seats in room "#WHAT-GAME" (written into
 * room): ann in seat 1 unless computers_only, computer players in the
 * others; casual pace. */
static table *open_with_computers(bot *b, char *room, size_t len, const char *what, const char *gname, int n,
				  int computers_only)
{
	char cmd[64];
	snprintf(room, len, "#%s-%s", what, gname);
	snprintf(cmd, sizeof cmd, "!new %s %d", gname, n);
	say(b, room, "ann", cmd);
	table *t = table_in(b, room);
	CHECK(t != NULL, "%s %s: a table opens", gname, what);
	if (!t)
		return NULL;
	if (computers_only)
		say(b, room, "ann", "!leave");
	for (int i = computers_only ? 0 : 1; i < n; i++)
		say(b, room, "ann", "!bot");
	say(b, room, "ann", "!set pace casual");
	return t;
}

static void close_table(bot *b, loop *ev, table *t)
{
	bot_close_table(b, t);
	run_for(ev, 10);
	checked_room = net.nroom;
	checked_priv = net.npriv;
}

static int bogus_choices;

/* A computer player with a bug: it chooses an action no game has. */
static int bogus_choose(table *t, int s, int why, game_action *a)
{
	(void)t, (void)why;
	memset(a, 0, sizeof *a);
	a->type = 0xfe;
	a->seat = (uint8_t)s;
	bogus_choices++;
	return 1;
}

/* A computer player's move that the engine refuses is logged and replaced
 * by a random legal move, in every game: the table never stalls. */
static void stall_at_table(bot *b, loop *ev, const char *gname, int n)
{
	char room[32];
	table *t = open_with_computers(b, room, sizeof room, "stall", gname, n, 1);
	if (!t)
		return;
	static present buggy;
	const present *keep = t->pr;
	buggy = *t->pr;
	buggy.choose = bogus_choose;
	t->pr = &buggy;
	bogus_choices = 0;
	int r0 = net.nroom;
	say(b, room, "ann", "!start");
	game_status st = { 0 };
	for (int i = 0; i < 200000 && t->state == TABLE_PLAYING; i++) {
		game_status_of(t->g, &st);
		if (st.deal_no >= 3)
			break;
		loop_once(ev, 1);
	}
	/* (A deal may end after one move: a random 304 move can ask for a redeal.) */
	CHECK(bogus_choices >= 2 && st.deal_no >= 3,
	      "%s stall: every computer choice was refused (%d), and two deals were played all the same (deal %d)", gname,
	      bogus_choices, st.deal_no);
	/* Nothing said is lost in a long run of computer moves: each deal's
	 * end is told (its score, the last of its lines; or a hand thrown in,
	 * which the same dealer deals again), and so is the next deal. */
	int told = 1, ends = 0;
	for (int i = r0; i < net.nroom; i++)
		ends += strstr(net.room_lines[i], "tokens: ") || strstr(net.room_lines[i], "score: ")
			|| strstr(net.room_lines[i], "throws in the hand");
	for (int d = 1; d < st.deal_no && d <= 2; d++) {
		char deal[64];
		snprintf(deal, sizeof deal, "Deal %d:", d + 1);
		told &= ends >= d && room_has(r0, deal);
	}
	CHECK(told, "%s stall: every deal's lines reached the room", gname);
	t->pr = keep;
	close_table(b, ev, t);
}

/* Runs the table until it is ann's turn (seat 0); 1 when it is. */
static int until_ann(loop *ev, table *t)
{
	for (int i = 0; i < 100000 && t->state == TABLE_PLAYING; i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && st.turn == 0)
			return 1;
		loop_once(ev, 1);
	}
	return 0;
}

/* `hint` in every game: what the best player that game has would do. */
static void hint_at_table(bot *b, loop *ev, const char *gname, int n)
{
	char room[32];
	table *t = open_with_computers(b, room, sizeof room, "hint", gname, n, 0);
	if (!t)
		return;
	int p0 = net.npriv;
	say(b, room, "ann", "!hint");
	CHECK(priv_has(p0, "ann", "match is on") || priv_has(p0, "ann", "no match"), "%s hint: none before the match (%s)",
	      gname, net.npriv > p0 ? net.priv_lines[net.npriv - 1] : "nothing");
	say(b, room, "ann", "!start");
	CHECK(until_ann(ev, t), "%s hint: ann's turn comes", gname);
	p0 = net.npriv;
	say(b, room, "ann", "!hint");
	for (int i = 0; i < 400 && !priv_has(p0, "ann", "The computer would"); i++)
		run_for(ev, 10); /* 304's search thinks on the worker thread */
	CHECK(priv_has(p0, "ann", "The computer would"), "%s hint: ann is told what the computer would do", gname);
	close_table(b, ev, t);
}

/* A refused play that names the card shows it as the player's hand does:
 * in the game's own pack (304 for six has 36 cards), with suit signs, or
 * in letters once ascii is on. */
static void refused_card_at_table(bot *b, loop *ev, const char *gname, int n, rng *r)
{
	char room[32];
	table *t = open_with_computers(b, room, sizeof room, "held", gname, n, 0);
	if (!t)
		return;
	say(b, room, "ann", "!start");
	int in_play = 0;
	for (int i = 0; i < 200 && !in_play && until_ann(ev, t); i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (!strcmp(t->gdef->phase_name(st.phase), "play"))
			in_play = 1;
		else
			ann_moves(b, t, room, 0, r);
	}
	CHECK(in_play, "%s refusal: ann comes to play a card", gname);
	if (!in_play) {
		close_table(b, ev, t);
		return;
	}
	int c = -1;
	for (int k = 0; k < t->gdef->deck_size && c < 0; k++)
		if (hand_of(t, 1) >> k & 1)
			c = k;
	char code[8], shown[32], cmd[64], want[64];
	strbuf sb;
	sb_init(&sb, shown, sizeof shown);
	if (is_six(t))
		render_card_of(&sb, &game_def_304six, (card)c, RENDER_COLOUR);
	else
		render_card(&sb, (card)c, RENDER_COLOUR);
	t->gdef->card_code((uint8_t)c, code);
	snprintf(cmd, sizeof cmd, "%s play %s", room, code);
	int p0 = net.npriv;
	say(b, NULL, "ann", cmd);
	snprintf(want, sizeof want, "you do not hold %s", shown);
	CHECK(priv_has(p0, "ann", want), "%s refusal: a card ann does not hold is named as her hand shows it (%s): %s",
	      gname, want, net.npriv > p0 ? net.priv_lines[net.npriv - 1] : "nothing");
	say(b, room, "ann", "!ascii on");
	p0 = net.npriv;
	say(b, NULL, "ann", cmd);
	sb_init(&sb, shown, sizeof shown);
	if (is_six(t))
		render_card_of(&sb, &game_def_304six, (card)c, RENDER_ASCII);
	else
		render_card(&sb, (card)c, RENDER_ASCII);
	snprintf(want, sizeof want, "you do not hold %s", shown);
	CHECK(priv_has(p0, "ann", want), "%s refusal: with ascii on, in letters (%s): %s", gname, want,
	      net.npriv > p0 ? net.priv_lines[net.npriv - 1] : "nothing");
	say(b, room, "ann", "!ascii off");
	close_table(b, ev, t);
}

/* A restart at the live pace, in every game: the restored table gives the
 * awaited person the whole turn again, warns at half time with the time
 * really left, and at the deadline moves for them. */
static void live_restart_at_table(bot *b, loop *ev, store *db, const char *gname, int n)
{
	char room[32];
	table *t = open_with_computers(b, room, sizeof room, "live", gname, n, 0);
	if (!t)
		return;
	say(b, room, "ann", "!set pace live");
	t->set.live_turn_seconds = 2;
	t->set.cut_offer_ms = 0;
	say(b, room, "ann", "!start");
	CHECK(until_ann(ev, t), "%s live: ann's turn comes", gname);
	/* The bot stops (its table falls silent: its timers find no match)
	 * and a new one starts on the database. */
	t->state = TABLE_OPEN;
	bot *b2 = new_bot(ev, db);
	bot_add_network(b2, net.a);
	testnet_use(b2);
	bot_restore(b2);
	table *t2 = table_in(b2, room);
	CHECK(t2 && t2->gdef == t->gdef && t2->state == TABLE_PLAYING && t2->set.pace == PACE_LIVE,
	      "%s live: the table is restored at the live pace", gname);
	if (t2) {
		t2->set.live_turn_seconds = 2;
		table_resumed(t2);
		int r0 = net.nroom;
		CHECK(t2->move_by > loop_now() + 1500, "%s live: the whole turn again after the restart", gname);
		run_for(ev, 1300);
		int warned = 0;
		for (int i = r0; i < net.nroom; i++)
			warned |= strstr(net.room_lines[i], "ann: still your turn; 1 seconds left") != NULL;
		CHECK(warned, "%s live: the warning at half time says 1 second is left (%s)", gname,
		      net.nroom > r0 ? net.room_lines[net.nroom - 1] : "nothing");
		uint64_t acts = t2->nacts;
		run_for(ev, 1000);
		CHECK(t2->nacts > acts, "%s live: at the deadline a move is made for ann", gname);
		for (int i = 0; i < b2->ntables; i++)
			b2->tables[i]->closing = 1;
	}
	b2->db = NULL;
	b2->nnets = 0;
	bot_free(b2);
	testnet_use(b);
	close_table(b, ev, t);
}

/* 304 for six (issue 20): `!new 304 6` opens six seats; ann and five
 * computer players play a whole match to its end; teams of three, 36
 * cards (the sixes shown "6"), hands of four then six, six tricks of six
 * cards; no line shows a card to anyone not entitled to it; a second bot
 * on the database rebuilds the same game mid-deal; the record, !history
 * and !stats know the game. */
static void six_match(bot *b, loop *ev, store *db, rng *r)
{
	const char *room = "#six";
	say(b, room, "ann", "!304");
	table *t = table_in(b, room);
	int r0 = net.nroom, p0 = net.npriv;
	say(b, room, "ann", "!new 304 6");
	CHECK(t && t->gdef == &game_def_304six && t->nseats == 6, "!new 304 6 makes a table of six for 304");
	if (!t)
		return;
	CHECK(room_has(r0, "This table now plays 304 for six (6 seats)"), "the room is told");
	say(b, room, "ann", "!start");
	CHECK(t->state == TABLE_OPEN && priv_has(p0, "ann", "6 players are needed"), "!start waits for six");
	for (int i = 1; i < 6; i++)
		say(b, room, "ann", "!bot");
	CHECK(room_has(r0, "all 6 seats are taken"), "the table says when its six seats are full");
	int distinct = 1;
	for (int i = 0; i < 6; i++)
		for (int k = i + 1; k < 6; k++)
			distinct &= strcmp(t->seats[i].name, t->seats[k].name) != 0;
	CHECK(distinct && !strcmp(t->seats[5].name, "Robo-NorthWest"), "six seats, six different names (%s ... %s)",
	      t->seats[1].name, t->seats[5].name);
	say(b, room, "ann", "!set pace casual");
	r0 = net.nroom;
	p0 = net.npriv;
	say(b, room, "ann", "!start");
	CHECK(t->state == TABLE_PLAYING && t->g, "the six-player match starts");
	CHECK(room_has(r0, "a match of 304 for six begins: ann, Robo-SouthEast & Robo-SouthWest against Robo-NorthEast, Robo-South & Robo-NorthWest"),
	      "the teams are named, three a side, sitting alternately");
	check_lines(t);
	/* Hands of four, then six; the sixes are cards like any other. */
	int saw4 = 0, saw6 = 0, saw_six_card = 0, saw_bid6 = 0, saw_tricks6 = 0;
	used_position = used_code = ann_refused = 0;
	room_leaks = priv_leaks = 0;
	int ended_in = 0;
	for (int i = 0; i < 3000000 && t->state == TABLE_PLAYING; i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && !st.over && st.turn == 0)
			ann_moves(b, t, room, 0, r);
		else
			loop_once(ev, 1);
		for (int k = p0; k < net.npriv; k++) {
			if (strcmp(net.priv_to[k], "ann") || !strstr(net.priv_lines[k], "] hand: "))
				continue;
			const char *h = strstr(net.priv_lines[k], "] hand: ");
			int n = 0;
			for (const char *q = h; (q = strchr(q, ':')) != NULL; q++)
				n += q[-1] >= '1' && q[-1] <= '9';
			saw4 |= n == 4;
			saw6 |= n == 6;
			saw_six_card |= strstr(h, "6\xe2\x99") != NULL || strstr(h, "\x03" "046\xe2\x99") != NULL;
			saw_bid6 |= strstr(net.priv_lines[k], "six-card bidding") != NULL;
		}
		p0 = net.npriv;
		if (!saw_tricks6 && t->g) {
			const g304 *g = t->g->state;
			saw_tricks6 = g->phase == G304_PHASE_PLAY && g->trick_no == 5 && !g->pcc;
		}
		check_lines(t);
		/* Mid-match, a second bot on the same database rebuilds the game. */
		if (!ended_in && t->g && ((const g304 *)t->g->state)->deal_no >= 2
		    && ((const g304 *)t->g->state)->phase == G304_PHASE_PLAY && ((const g304 *)t->g->state)->trick_no == 2) {
			ended_in = 1;
			bot *b2 = new_bot(ev, db);
			bot_add_network(b2, net.a);
			testnet_use(b2);
			bot_restore(b2);
			table *t2 = table_in(b2, room);
			int same = t2 && t2->gdef == &game_def_304six && t2->g && t2->nseats == 6 && t2->seq == t->seq
				   && !strcmp(t2->commitment, t->commitment);
			for (int s = 0; same && s < 6; s++) {
				g304_view v1, v2;
				memset(&v1, 0, sizeof v1);
				memset(&v2, 0, sizeof v2);
				game_view(t->g, s, &v1);
				game_view(t2->g, s, &v2);
				same = !memcmp(&v1, &v2, sizeof v1) && !strcmp(t->seats[s].name, t2->seats[s].name);
			}
			CHECK(same, "a second bot rebuilds the same six-player game mid-deal");
			for (int k = 0; k < b2->ntables; k++)
				b2->tables[k]->closing = 1;
			b2->db = NULL;
			b2->nnets = 0;
			bot_free(b2);
			testnet_use(b);
			checked_room = net.nroom;
			checked_priv = net.npriv;
			p0 = net.npriv;
		}
	}
	CHECK(t->state == TABLE_OPEN && t->g, "the six-player match ends");
	if (t->g) {
		game_status st;
		game_status_of(t->g, &st);
		CHECK(st.over && st.winner >= 0 && st.nseats == 6, "a team won (tokens %ld : %ld, %d deals)", (long)st.score[0],
		      (long)st.score[1], st.deal_no);
	}
	CHECK(ended_in, "the restart was tried");
	CHECK(room_has(0, "the match is over"), "the winner is announced");
	CHECK(saw4 && saw6 && saw_six_card && saw_bid6 && saw_tricks6,
	      "ann saw hands of four (%d) and six (%d), a six (%d), the six-card bidding (%d), a sixth trick (%d)", saw4,
	      saw6, saw_six_card, saw_bid6, saw_tricks6);
	CHECK(room_leaks == 0 && priv_leaks == 0, "no hidden card in the room (%d), none of another's hand in private (%d)",
	      room_leaks, priv_leaks);
	CHECK(ann_refused == 0 && used_position > 0 && used_code > 0,
	      "ann's moves, by position (%d) and by code (%d), were never refused (%d)", used_position, used_code, ann_refused);
	/* The record of the finished match reads back as six-player 304. */
	char *rec = store_match_record(db, t->match_id, 1, 1);
	CHECK(rec && strstr(rec, "\"game\": \"304six\"") && strstr(rec, "Robo-NorthWest"), "the stored record is a 304six record");
	free(rec);
	p0 = net.npriv;
	say(b, room, "ann", "!history");
	CHECK(priv_has(p0, "ann", "304 for six, won by") && priv_has(p0, "ann", " & "), "!history shows the match, a team of three");
	int r1 = net.nroom;
	say(b, room, "ann", "!stats");
	CHECK(room_has(r1, "ann in 304 for six: matches 1") && room_has(r1, "deals "), "!stats counts ann's six-player match and deals (%s)",
	      net.nroom > r1 ? net.room_lines[net.nroom - 1] : "nothing");
	p0 = net.npriv;
	say(b, room, "ann", "!rules more");
	CHECK(priv_has(p0, "ann", "304 for six | bidding"), "!rules more names the game");
	close_table(b, ev, t);
}

int main(void)
{
	char dir[] = "/tmp/cardbot-games-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db != NULL, "a new database opens: %s", db ? "" : err);
	if (!db)
		return 1;
	loop *ev = loop_new();
	bot *b = new_bot(ev, db);
	testnet_open(ev, b, "fake");
	rng r;
	rng_seed(&r, 20261122);

	/* Bad game names and counts. */
	int p0 = net.npriv;
	say(b, "#x", "ann", "!new chess");
	say(b, "#x", "ann", "!new rook 3");
	say(b, "#x", "ann", "!new trump304 5");
	say(b, "#x", "ann", "!new 304 5");
	CHECK(b->ntables == 0 && priv_has(p0, "ann", "the games: 304 (for six players: !new 304 6; for eight: !new 304 8; six with 24 cards: !new 304six24), Tamil Nadu's 504 for six (!new 504) and 904 for eight (!new 904), trump304"), "unknown games and counts are refused");
	say(b, "#x6", "ann", "!new 304 6");
	CHECK(b->ntables == 1 && table_in(b, "#x6") && table_in(b, "#x6")->gdef == &game_def_304six,
	      "!new 304 6 opens a table of 304 for six");
	if (table_in(b, "#x6"))
		close_table(b, ev, table_in(b, "#x6"));

	for (int n = 2; n <= 4; n++)
		trump304_match(b, ev, n, &r);
	cut_at_table(b, ev, db, "trump304", 3, &r);
	cut_at_table(b, ev, db, "rook", 4, &r);
	nudge_at_table(b, ev, "trump304", 2, &r);
	nudge_at_table(b, ev, "rook", 4, &r);
	static const struct { const char *game; int n; } games[] = { { "304", 4 }, { "304six", 6 }, { "trump304", 3 }, { "rook", 4 } };
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
		stall_at_table(b, ev, games[i].game, games[i].n);
		hint_at_table(b, ev, games[i].game, games[i].n);
		live_restart_at_table(b, ev, db, games[i].game, games[i].n);
	}

	refused_card_at_table(b, ev, "304", 4, &r);
	refused_card_at_table(b, ev, "304six", 6, &r);
	six_match(b, ev, db, &r);

	/* Changing the game of an open table between matches. */
	say(b, "#switch", "ann", "!304");
	table *t = table_in(b, "#switch");
	say(b, "#switch", "bob", "!sit");
	say(b, "#switch", "cat", "!sit");
	p0 = net.npriv;
	say(b, "#switch", "ann", "!new trump304 2");
	CHECK(t && t->gdef == &game_def_304 && priv_has(p0, "ann", "more people are seated"), "three seated do not fit two seats");
	say(b, "#switch", "ann", "!new trump304 3");
	CHECK(t && t->gdef == &game_def_trump304 && t->nseats == 3, "a 304 table becomes Trump304 for three");
	say(b, "#switch", "ann", "!new 304");
	CHECK(t && t->gdef == &game_def_304 && t->nseats == 4, "and back to 304");
	say(b, "#switch", "ann", "!stop");
	loop_once(ev, 1);

	/* Rook: ann and three computer players, a whole match to 500. */
	int r0 = net.nroom;
	say(b, "#rook", "ann", "!new rook");
	t = table_in(b, "#rook");
	CHECK(t && t->gdef == &game_def_rook && t->nseats == 4, "!new rook opens a table of four");
	for (int i = 0; i < 3; i++)
		say(b, "#rook", "ann", "!bot");
	CHECK(room_has(r0, "all 4 seats are taken"), "the table says when it is full");
	say(b, "#rook", "ann", "!start");
	CHECK(t && t->state == TABLE_PLAYING, "the Rook match starts");
	checked_room = net.nroom;
	checked_priv = net.npriv;
	p0 = net.npriv;
	/* a discard in the room is refused whatever the phase */
	say(b, "#rook", "ann", "!discard 5r");
	CHECK(priv_has(p0, "ann", "privately"), "a discard named in the room is refused");
	/* Play two hands, then restart on the same database mid-hand. */
	run_table(b, ev, t, "#rook", &r, 2, 100000);
	for (int i = 0; i < 100000 && t->state == TABLE_PLAYING; i++) {
		const rook *g = t->g->state;
		if (g->phase == ROOK_PHASE_PLAY && g->trick_no >= 3)
			break;
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && st.turn == 0)
			ann_moves(b, t, "#rook", 0, &r);
		else
			loop_once(ev, 1);
		check_lines(t);
	}
	/* Rook: taken tricks are not reviewed until the hand ends (004); !last
	 * says so, in private, and names no card. */
	{
		const rook *g = t->g->state;
		CHECK(g->phase == ROOK_PHASE_PLAY && g->trick_no >= 3, "the Rook hand is in its fourth trick");
		p0 = net.npriv;
		say(b, "#rook", "ann", "!last");
		int refused = 0, named = 0;
		for (int i = p0; i < net.npriv; i++) {
			refused |= !strcmp(net.priv_to[i], "ann") && strstr(net.priv_lines[i], "taken tricks may not be looked at");
			named |= cards_in(t, net.priv_lines[i]) != 0;
		}
		CHECK(refused && !named, "Rook: !last is refused with the reason, naming no card");
	}
	{
		bot *b2 = new_bot(ev, db);
		bot_add_network(b2, net.a);
		testnet_use(b2);
		int nr = net.nroom;
		int n = bot_restore(b2);
		CHECK(n >= 1, "the second bot restores the tables (%d)", n);
		table *t2 = table_in(b2, "#rook");
		int same = t2 && t2->gdef == &game_def_rook && t2->g && t2->state == TABLE_PLAYING && t2->match_id == t->match_id
			   && t2->seq == t->seq && t2->deal_idx == t->deal_idx && !strcmp(t2->commitment, t->commitment);
		for (int s = 0; same && s < 4; s++) {
			rook_view v1, v2;
			memset(&v1, 0, sizeof v1);
			memset(&v2, 0, sizeof v2);
			game_view(t->g, s, &v1);
			game_view(t2->g, s, &v2);
			same = !memcmp(&v1, &v2, sizeof v1) && !strcmp(t->seats[s].name, t2->seats[s].name);
		}
		CHECK(same, "the restored Rook table is the same game");
		if (t2) {
			int before = net.npriv;
			table_resumed(t2);
			CHECK(priv_has(before, "ann", "hand:"), "on resuming, ann gets her hand");
		}
		for (int i = 0; i < b2->ntables; i++)
			b2->tables[i]->closing = 1;
		b2->db = NULL;
		b2->nnets = 0;
		bot_free(b2);
		testnet_use(b);
		(void)nr;
		checked_room = net.nroom;
		checked_priv = net.npriv;
	}
	run_table(b, ev, t, "#rook", &r, 1000, 2000000);
	CHECK(t->state == TABLE_OPEN && t->g, "the Rook match ends");
	if (t->g) {
		game_status st;
		game_status_of(t->g, &st);
		CHECK(st.over && st.winner >= 0 && (st.score[0] >= 500 || st.score[1] >= 500),
		      "a team reached 500 (%ld : %ld)", (long)st.score[0], (long)st.score[1]);
	}
	CHECK(room_has(0, "the match is over"), "the winner is announced");
	/* The record of the finished match reads back as a Rook record. */
	char *rec = store_match_record(db, t->match_id, 1, 1);
	CHECK(rec && strstr(rec, "\"game\": \"rook\""), "the stored record is a Rook record");
	free(rec);

	/* Restarting a Trump304 table with three players mid-deal. */
	say(b, "#t3", "ann", "!new trump304 3");
	t = table_in(b, "#t3");
	say(b, "#t3", "ann", "!bot");
	say(b, "#t3", "ann", "!bot");
	say(b, "#t3", "ann", "!set pace casual");
	say(b, "#t3", "ann", "!start");
	for (int i = 0; t && i < 100000 && t->state == TABLE_PLAYING; i++) {
		const t304 *g = t->g->state;
		if (g->deal_no >= 2 && g->phase == T304_PHASE_PLAY && g->trick_no >= 2)
			break;
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && st.turn == 0)
			ann_moves(b, t, "#t3", 0, &r);
		else
			loop_once(ev, 1);
		check_lines(t);
	}
	if (t) {
		bot *b2 = new_bot(ev, db);
		bot_add_network(b2, net.a);
		testnet_use(b2);
		bot_restore(b2);
		table *t2 = table_in(b2, "#t3");
		int same = t2 && t2->gdef == &game_def_trump304 && t2->nseats == 3 && t2->g && t2->state == TABLE_PLAYING
			   && t2->seq == t->seq && t2->deal_idx == t->deal_idx;
		for (int s = 0; same && s < 3; s++) {
			t304_view v1, v2;
			memset(&v1, 0, sizeof v1);
			memset(&v2, 0, sizeof v2);
			game_view(t->g, s, &v1);
			game_view(t2->g, s, &v2);
			same = !memcmp(&v1, &v2, sizeof v1);
		}
		CHECK(same, "the restored Trump304 table (three players) is the same game");
		for (int i = 0; i < b2->ntables; i++)
			b2->tables[i]->closing = 1;
		b2->db = NULL;
		b2->nnets = 0;
		bot_free(b2);
		testnet_use(b);
		checked_room = net.nroom;
		checked_priv = net.npriv;
	}

	CHECK(room_cards_seen > 50, "the check saw cards named in the room (%d lines)", room_cards_seen);
	CHECK(room_leaks == 0, "no room line named a hidden card (%d did)", room_leaks);
	CHECK(priv_leaks == 0, "no private line named another player's card (%d did)", priv_leaks);
	CHECK(ann_refused == 0, "none of ann's typed moves was refused (%d were)", ann_refused);
	CHECK(used_position > 0 && used_code > 0 && used_private > 0,
	      "ann played by position (%d) and by code (%d) and sent private commands (%d)", used_position, used_code,
	      used_private);
	if (getenv("BOT_GAMES_DUMP")) /* every line, to read what players see */
		for (int i = 0; i < net.nroom; i++)
			printf("room: %s\n", net.room_lines[i]);
	if (getenv("BOT_GAMES_DUMP"))
		for (int i = 0; i < net.npriv; i++)
			printf("to %s: %s\n", net.priv_to[i], net.priv_lines[i]);
	bot_free(b);
	loop_free(ev);
	store_close(db);
	unlink(path);
	char wal[300];
	snprintf(wal, sizeof wal, "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", path);
	unlink(wal);
	rmdir(dir);
	testnet_free();
	return check_report("bot_games");
}
