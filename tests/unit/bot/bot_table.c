/* bot_table.c: the bot core over the test network (testnet.h): tables open,
 * seat people and computer players, and play whole matches through real
 * command text; nothing said in the room names a card still hidden. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
/* (304's header before the host's: its parameters named seat come
 * before the table's seat type) */
#include "g304_simple.h"
#include "bot.h"
#include "check.h"
#include "fair.h"
#include "loop.h"
#include "present.h"
#include "render.h"
#include "table.h"
#include "table_store.h"
#include "testnet.h"

/* The 304 match of a table (its game state is a g304). */
#define G304(t) ((g304 *)(t)->g->state)

/* Every card code a line names, as rendered for the room. */
static cardset cards_in(const char *line)
{
	cardset found = 0;
	for (int c = 0; c < CARD_COUNT; c++) {
		char buf[32];
		strbuf b;
		sb_init(&b, buf, sizeof buf);
		render_card(&b, (card)c, RENDER_COLOUR);
		const char *p = line;
		while ((p = strstr(p, buf))) {
			/* "10♥" must not also count as "0♥"-something; ranks are distinct strings. */
			found |= card_bit((card)c);
			p++;
		}
	}
	return found;
}

static void run_for(loop *ev, int ms)
{
	int64_t end = loop_now() + ms;
	while (loop_now() < end)
		loop_once(ev, 5);
}

/* Cards hidden from the room right now: in hands, or the trump card down. */
static cardset hidden_now(const table *t)
{
	cardset h = 0;
	for (int s = 0; s < G304_SEATS; s++)
		h |= G304(t)->hand[s];
	if (G304(t)->trump_down)
		h |= card_bit(G304(t)->trump_card);
	if (G304(t)->trump_public)
		h &= ~card_bit(G304(t)->trump_card); /* shown to all by a reveal or an opening */
	for (int k = 0; G304(t)->caps_seat != G304_NO_SEAT && k < G304(t)->caps_norder; k++)
		h &= ~card_bit(G304(t)->caps_order[k]); /* a caps call shows the caller's cards */
	for (int i = 0; i <= G304(t)->trick_no && i < G304_TRICKS && G304(t)->phase == G304_PHASE_PLAY; i++)
		for (int k = 0; k < G304(t)->tricks[i].n; k++)
			if ((G304(t)->tricks[i].down >> k & 1) && !(G304(t)->tricks[i].shown >> k & 1))
				h |= card_bit(G304(t)->tricks[i].card[k]);
	return h;
}

/* ann types her turn's action as a person would, the simple player
 * choosing it; returns how many refusals she was told. */
static int ann_moves(bot *b, table *t, const char *room)
{
	int refused = 0;
	g304_view v;
	g304_legal l;
	g304_action a;
	char cmd[64];
	g304_view_of(G304(t), 0, &v);
	g304_legal_of(G304(t), 0, &l);
	/* The simple player chooses; we type it as a person would. */
	g304_simple_action(&v, &l, &a);
	const char *in = room;
	switch (a.type) {
	case G304_ACT_BID:
		snprintf(cmd, sizeof cmd, "!bid %d", a.value >= G304_BID_PCC ? 0 : a.value);
		if (a.value >= G304_BID_PCC)
			snprintf(cmd, sizeof cmd, "!bid pcc");
		break;
	case G304_ACT_PASS: snprintf(cmd, sizeof cmd, "!pass"); break;
	case G304_ACT_REDEAL: snprintf(cmd, sizeof cmd, "!redeal"); break;
	case G304_ACT_TRUMP: {
		char code[3];
		card_code(a.card, code);
		snprintf(cmd, sizeof cmd, "trump %s", code);
		in = NULL; /* privately */
		break;
	}
	case G304_ACT_PLAY: {
		char code[3];
		card_code(a.card, code);
		int tablecard = a.card == G304(t)->trump_card && G304(t)->trump_down;
		snprintf(cmd, sizeof cmd, "play %s", tablecard ? "trump" : code);
		in = NULL; /* plays go privately: they may be face down */
		const g304_trick *tr = &G304(t)->tricks[G304(t)->trick_no];
		if (t->set.brief && !tablecard
		    && (tr->n == 0 || G304(t)->trump_open || card_suit(a.card) == card_suit(tr->card[0]))) {
			snprintf(cmd, sizeof cmd, "!play %s", code);
			in = room; /* face up: typed in the room */
		}
		break;
	}
	default: snprintf(cmd, sizeof cmd, "!pass"); break;
	}
	int priv_before = net.npriv;
	say(b, in, "ann", cmd);
	for (int i = priv_before; i < net.npriv; i++)
		refused += net.priv_lines[i][0] == '[' && !strncmp(net.priv_lines[i] + 1, room, strlen(room))
			&& net.priv_lines[i][1 + strlen(room)] == ']' 
			&& !strstr(net.priv_lines[i], "face down:");
	return refused;
}

/* ann plays a whole match through the command text (the computers move
 * on timers); after every action, nothing said in the room names a card
 * hidden before and after it. In a brief room ann types face-up cards in
 * the room (as people there do), so that those moves are not repeated.
 * Returns ann's refused commands; *steps and *deals say how far it went. */
static int play_match(bot *b, loop *ev, table *t, const char *room, int *steps_out, long *deals_out)
{
	int refusals_before = 0, steps = 0;
	long deals = 0;
	while (t->state == TABLE_PLAYING && steps < 20000) {
		steps++;
		int room_before = net.nroom;
		int deal_before = G304(t)->deal_no;
		cardset hidden_before = hidden_now(t);
		if (G304(t)->turn == 0) {
			refusals_before += ann_moves(b, t, room);
		} else {
			loop_once(ev, 2); /* one step, so each action is checked on its own */
		}
		/* Nothing said in the room may name a card that was hidden before
		 * the action and is still hidden after it. */
		cardset hidden = deal_before == G304(t)->deal_no ? hidden_before & hidden_now(t) : 0;
		for (int i = room_before; i < net.nroom; i++)
			CHECK(!(cards_in(net.room_lines[i]) & hidden), "room line names a hidden card: %s", net.room_lines[i]);
		deals = t->deals_played;
	}
	*steps_out = steps;
	*deals_out = deals;
	return refusals_before;
}

int main(void)
{
	loop *ev = loop_new();
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 0;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9; /* the rate limit has its own check below */
	b->cmd_per_second = 1e9;
	testnet_open(ev, b, "fake");
	/* Origins as an IRC server would report them: boss alone comes from home. */
	testnet_host(net.a, "boss", "home.example.org");

	say(b, "#304", "ann", "!304");
	CHECK(b->ntables == 1, "!304 opens a table");
	table *t = b->tables[0];
	CHECK(table_seat_of(t, "ann") == 0, "the opener sits in seat 1");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!start");
	CHECK(t->state == TABLE_OPEN, "three players cannot start");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!set caps off");
	CHECK(game_choices_get(&t->set.options, "caps") == G304_CAPS_OFF, "!set caps off");
	say(b, "#304", "ann", "!start");
	CHECK(t->state == TABLE_PLAYING, "four seated: the match starts");

	int steps = 0;
	long deals = 0;
	int refusals_before = play_match(b, ev, t, "#304", &steps, &deals);
	CHECK(t->state == TABLE_OPEN && G304(t)->phase == G304_PHASE_OVER, "the match ended (%ld deals, %d steps)", deals, steps);
	CHECK(refusals_before == 0, "ann's typed commands were refused %d times", refusals_before);
	/* Private lines went to ann only: computers get none. */
	for (int i = 0; i < net.npriv; i++)
		CHECK(!strcmp(net.priv_to[i], "ann"), "a private line went to %s", net.priv_to[i]);

	/* A face-down play named in the room is refused without playing it. */
	say(b, "#304", "ann", "!start");
	for (int i = 0; i < 2000 && t->state == TABLE_PLAYING; i++) {
		if (G304(t)->phase == G304_PHASE_PLAY && G304(t)->turn == 0 && G304(t)->tricks[G304(t)->trick_no].n > 0
		    && !G304(t)->trump_open) {
			g304_legal l;
			g304_legal_of(G304(t), 0, &l);
			int led = card_suit(G304(t)->tricks[G304(t)->trick_no].card[0]);
			cardset off = l.cards & ~suit_mask(led) & G304(t)->hand[0];
			if (off) {
				char cmd[32], code[3];
				card_code(cardset_first(off), code);
				snprintf(cmd, sizeof cmd, "!play %s", code);
				int n_before = G304(t)->tricks[G304(t)->trick_no].n, priv = net.npriv;
				say(b, "#304", "ann", cmd);
				CHECK(G304(t)->tricks[G304(t)->trick_no].n == n_before, "a face-down play from the room was played");
				CHECK(net.npriv > priv && strstr(net.priv_lines[net.npriv - 1], "face down"),
				      "the player is told to play face-down cards privately");
				break;
			}
		}
		if (G304(t)->turn == 0) {
			g304_view v;
			g304_legal l;
			g304_action a;
			g304_view_of(G304(t), 0, &v);
			g304_legal_of(G304(t), 0, &l);
			g304_simple_action(&v, &l, &a);
			g304_apply(G304(t), &a, NULL); /* shortcut: the path above is tested already */
		} else {
			run_for(ev, 2);
		}
	}

	/* An operator (by host mask) may stop a table without sitting at it;
	 * someone else who is not seated may not. */
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "*!*@home.example.org");
	CHECK(bot_is_operator(b, net.a, "boss") && !bot_is_operator(b, net.a, "eve"), "operator masks match origins");
	say(b, "#304", "eve", "!stop");
	run_for(ev, 5);
	CHECK(b->ntables == 1, "a passer-by cannot stop a table");

	/* Stop by vote: ann is the only human, so her vote ends it. */
	say(b, "#304", "ann", "!stop");
	run_for(ev, 5);
	CHECK(b->ntables == 0, "!stop by the only human closes the table");
	say(b, "#304", "ann", "!304");
	say(b, "#304", "boss", "!stop");
	run_for(ev, 5);
	CHECK(b->ntables == 0, "an operator stops a table at once");

	/* Garbage does not crash or open tables; bytes that are not UTF-8,
	 * which no network hands over (the console refuses them), go
	 * straight to the host, whose own guards must hold too. */
	adapter_host h = bot_host(b);
	say(b, "#304", "eve", "!");
	say(b, "#304", "eve", "!\x03\x04\x01");
	h.message(h.ctx, net.a, "#304", "eve", "eve", "!\x03\x04\x01\xff\xfe", 0);
	say(b, "#304", "eve", "!play");
	say(b, NULL, "eve", "#nowhere play js");
	CHECK(b->ntables == 0, "garbage opened no table");
	testnet_message(net.a, "#304", "otherbot", NULL, "!304", 1);
	CHECK(b->ntables == 0, "a notice is never answered or obeyed");

	/* A Matrix room id starts with "!", like the command prefix: in a
	 * private message "!room:server command" names the table. */
	say(b, "!abc:example.org", "ann", "!304");
	CHECK(b->ntables == 1, "a table opens in a room named like a Matrix room id");
	int before_id = net.npriv;
	say(b, NULL, "ann", "!abc:example.org table");
	int answered = 0;
	for (int i = before_id; i < net.npriv; i++)
		answered |= strncmp(net.priv_lines[i], "!abc:example.org: ", 18) == 0;
	CHECK(answered, "\"!abc:example.org table\" in private reaches that table");
	before_id = net.npriv;
	say(b, NULL, "ann", "!table");
	answered = 0;
	for (int i = before_id; i < net.npriv; i++)
		answered |= strncmp(net.priv_lines[i], "!abc:example.org: ", 18) == 0;
	CHECK(answered, "\"!table\" in private still finds ann's one table");
	say(b, "!abc:example.org", "boss", "!stop");
	run_for(ev, 5);
	CHECK(b->ntables == 0, "the room-id table is stopped");

	/* The same in a brief room (a network that limits the bot's messages):
	 * no hidden card in the room, ann's typed bids, passes and cards are not
	 * repeated, and each trick is told in one line with its four cards. */
	{
		int room0 = net.nroom;
		say(b, "#brief", "ann", "!304");
		table *bt = b->tables[b->ntables - 1];
		bt->set.brief = 1;
		for (int i = 0; i < 3; i++)
			say(b, "#brief", "ann", "!bot");
		say(b, "#brief", "ann", "!set caps off");
		say(b, "#brief", "ann", "!start");
		int bsteps = 0;
		long bdeals = 0;
		int r0 = net.nroom;
		say(b, "#brief", "ann", "!bid lots");
		int marked = 0;
		for (int i = r0; i < net.nroom; i++)
			marked |= strstr(net.room_lines[i], "ann: not accepted") != NULL;
		CHECK(marked, "brief: a move typed in the room and refused is marked there as not accepted");
		int brefused = play_match(b, ev, bt, "#brief", &bsteps, &bdeals);
		CHECK(bt->state == TABLE_OPEN && G304(bt)->phase == G304_PHASE_OVER, "brief: the match ended (%ld deals)",
		      bdeals);
		CHECK(brefused == 0, "brief: ann's typed commands were refused %d times", brefused);
		int echoed = 0, tricks = 0, whole = 0;
		for (int i = room0; i < net.nroom; i++) {
			const char *l = net.room_lines[i];
			const char *bid = strstr(l, "ann bids ");
			if ((bid && (isdigit((unsigned char)bid[9]) || !strncmp(bid + 9, "pcc", 3))) || strstr(l, "ann passes")) {
				echoed++;
				if (getenv("BT_VERBOSE"))
					fprintf(stderr, "echo: %s\n", l);
			}
			for (const char *p = strstr(l, "trick "); p; p = strstr(p + 1, "trick ")) {
				const char *colon = strchr(p, ':'), *end = strstr(p, "; ");
				if (!colon || !end || colon > end || !strstr(end, " wins it"))
					continue;
				int commas = 0;
				for (const char *q = colon; q < end; q++)
					commas += *q == ',';
				tricks++;
				whole += commas == 3;
			}
		}
		CHECK(echoed == 0, "brief: ann's typed bids and passes were repeated %d times", echoed);
		CHECK(tricks >= 8 && whole == tricks, "brief: %d trick lines, %d of them with four cards", tricks, whole);
		say(b, "#brief", "ann", "!stop");
		run_for(ev, 20);
	}

	/* A status line asked for in the room never runs ahead of the room's
	 * own account: the computers' moves gathered for one line go out
	 * before it (irc_six saw `!table` name two cards of a trick whose
	 * line came after it). */
	{
		say(b, "#order", "ann", "!304");
		table *ot = b->tables[b->ntables - 1];
		say(b, "#order", "ann", "!bot all");
		say(b, "#order", "ann", "!start");
		for (int i = 0; i < 20000 && ot->state == TABLE_PLAYING; i++) {
			if (G304(ot)->phase == G304_PHASE_PLAY && G304(ot)->tricks[G304(ot)->trick_no].n > 0 && ot->nout > 0)
				break;
			if (G304(ot)->turn == 0)
				ann_moves(b, ot, "#order");
			else
				loop_once(ev, 2);
		}
		int gathered = ot->nout;
		CHECK(gathered > 0, "a computer's card waits for the next ones, to be told in one line");
		int r0 = net.nroom;
		say(b, "#order", "eve", "!table");
		int status = -1;
		for (int i = r0; i < net.nroom; i++)
			if (!strncmp(net.room_lines[i], "#order: ", 8))
				status = i;
		CHECK(status > r0 && ot->nout == 0, "!table in the room comes after the gathered moves (%d lines before"
		      " it, %d parts still waiting)", status - r0, ot->nout);
		say(b, "#order", "ann", "!stop");
		run_for(ev, 20);
	}

	/* Brief, two people in a row: when ann's typed move passes the turn to
	 * bob in silence, bob is named (a mention) a while later if he has not
	 * moved, and not before. */
	{
		say(b, "#nudge", "ann", "!304");
		table *nt = b->tables[b->ntables - 1];
		nt->set.brief = 1;
		nt->set.turn_nudge_ms = 300;
		say(b, "#nudge", "bob", "!sit");
		say(b, "#nudge", "ann", "!bot");
		say(b, "#nudge", "ann", "!bot");
		say(b, "#nudge", "ann", "!start");
		const char *who[2] = { "ann", "bob" };
		int armed = 0;
		/* 400 moves of ann and bob, within six deals; the computers'
		 * turns, which think on the worker thread, count against the
		 * deals, not against a clock (a busy machine is slower, not
		 * wrong: a minute ran out once beside a full make check); ten
		 * minutes only end a hang. */
		int64_t hang = loop_now() + 600000;
		long deals0 = nt->deals_played;
		for (int step = 0; step < 400 && nt->state == TABLE_PLAYING && !armed && nt->deals_played < deals0 + 6
				   && loop_now() < hang;
		     step++) {
			int s = G304(nt)->turn;
			if (s != 0 && s != 1) {
				loop_once(ev, 2);
				step--;
				continue;
			}
			g304_view v;
			g304_legal l;
			g304_action a;
			g304_view_of(G304(nt), s, &v);
			g304_legal_of(G304(nt), s, &l);
			g304_simple_action(&v, &l, &a);
			char cmd[64], code[3] = "";
			const char *in = "#nudge";
			if (a.type == G304_ACT_BID && a.value < G304_BID_PCC)
				snprintf(cmd, sizeof cmd, "!bid %d", a.value);
			else if (a.type == G304_ACT_TRUMP || a.type == G304_ACT_PLAY) {
				card_code(a.card, code);
				snprintf(cmd, sizeof cmd, "%s %s", a.type == G304_ACT_TRUMP ? "trump" : "play",
					 a.type == G304_ACT_PLAY && a.card == G304(nt)->trump_card && G304(nt)->trump_down ? "trump"
															: code);
				in = NULL;
			} else
				snprintf(cmd, sizeof cmd, "!pass");
			int r0 = net.nroom;
			say(b, in, who[s], cmd);
			armed = nt->nudge_timer != 0 && G304(nt)->turn == 1 - s && s == 0 && net.nroom == r0;
		}
		CHECK(armed, "brief: a turn passed from ann to bob in silence");
		if (armed) {
			int r0 = net.nroom;
			run_for(ev, 100);
			int early = 0, named = 0;
			for (int i = r0; i < net.nroom; i++)
				early |= strstr(net.room_lines[i], "bob: your turn") != NULL;
			run_for(ev, 350);
			for (int i = r0; i < net.nroom; i++)
				named |= strstr(net.room_lines[i], "bob: your turn") != NULL;
			CHECK(!early && named, "brief: bob is named after the silence (early %d, named %d)", early, named);
		}
		say(b, "#nudge", "ann", "!stop");
		say(b, "#nudge", "bob", "!stop");
		run_for(ev, 20);
	}

	/* The courtesy cut (RULES.md): fair_cut moves the top n cards to the
	 * bottom in order, and leaves the deck alone for any other n. */
	{
		card d[CARD_COUNT], e[CARD_COUNT];
		for (int i = 0; i < CARD_COUNT; i++)
			d[i] = e[i] = (card)i;
		fair_cut(d, 12);
		int ok = 1;
		for (int i = 0; i < CARD_COUNT; i++)
			ok &= d[i] == (card)((i + 12) % CARD_COUNT);
		CHECK(ok, "a cut at 12 puts card 12 on top, 11 at the bottom");
		fair_cut(d, 0);
		fair_cut(d, CARD_COUNT);
		fair_cut(d, -3);
		ok = 1;
		for (int i = 0; i < CARD_COUNT; i++)
			ok &= d[i] == (card)((i + 12) % CARD_COUNT);
		CHECK(ok, "cuts at 0, 32 and -3 change nothing");
		fair_cut(e, 31);
		CHECK(e[0] == 31 && e[1] == 0 && e[31] == 30, "a cut at 31 leaves one card above");
	}
	/* At a table: the seat before the dealer is offered the cut during the
	 * pause before a deal; only they may cut, only then, only 1 to 31; a
	 * cut deals at once, and no cut deals after the pause. */
	{
		say(b, "#cut", "ann", "!304");
		say(b, "#cut", "bob", "!sit");
		say(b, "#cut", "cat", "!sit");
		say(b, "#cut", "dan", "!sit");
		table *ct = b->tables[b->ntables - 1];
		ct->set.deal_pause_ms = 1500;
		int room0 = net.nroom;
		say(b, "#cut", "ann", "!start");
		int cutter = (G304(ct)->dealer + 3) % 4;
		const char *names[4] = { "ann", "bob", "cat", "dan" };
		const char *who = names[cutter], *other = names[(cutter + 1) % 4];
		int offered = 0;
		for (int i = room0; i < net.nroom; i++)
			offered |= strstr(net.room_lines[i], "you may cut the deck") != NULL
				   && !strncmp(net.room_lines[i], who, strlen(who));
		CHECK(offered && G304(ct)->phase == G304_PHASE_DEAL && ct->cut_seat == cutter,
		      "the cut is offered to the seat before the dealer (%s) before the first deal", who);
		int priv0 = net.npriv;
		say(b, "#cut", other, "!cut 5");
		CHECK(G304(ct)->phase == G304_PHASE_DEAL && net.npriv > priv0
		      && strstr(net.priv_lines[net.npriv - 1], "the cut is offered to"),
		      "someone else's !cut is refused privately");
		say(b, "#cut", who, "!cut 0");
		say(b, "#cut", who, "!cut 32");
		say(b, "#cut", who, "!cut x");
		CHECK(G304(ct)->phase == G304_PHASE_DEAL && strstr(net.priv_lines[net.npriv - 1], "cut N"),
		      "cuts outside 1 to 31 get the usage line");
		room0 = net.nroom;
		say(b, "#cut", who, "!cut 12");
		int told = 0;
		for (int i = room0; i < net.nroom; i++)
			told |= strstr(net.room_lines[i], "cuts the deck at 12") != NULL;
		CHECK(G304(ct)->phase == G304_PHASE_BID4 && told, "a cut deals at once and is told");
		say(b, "#cut", who, "!cut 3");
		CHECK(strstr(net.priv_lines[net.npriv - 1], "the cut is offered to"), "no cut once the deal is on");
		/* Without a cut: the next deal comes after the pause. */
		G304(ct)->phase = G304_PHASE_DEAL;
		ct->cut_seat = -1;
		say(b, "#cut", "ann", "!stop");
		say(b, "#cut", "bob", "!stop");
		say(b, "#cut", "cat", "!stop");
		say(b, "#cut", "dan", "!stop");
		run_for(ev, 50);
		say(b, "#cut", "ann", "!304");
		say(b, "#cut", "bob", "!sit");
		say(b, "#cut", "cat", "!sit");
		say(b, "#cut", "dan", "!sit");
		ct = b->tables[b->ntables - 1];
		ct->set.deal_pause_ms = 1000;
		ct->set.cut_offer_ms = 2500;
		room0 = net.nroom;
		say(b, "#cut", "ann", "!start");
		CHECK(G304(ct)->phase == G304_PHASE_DEAL && ct->cut_seat >= 0, "offered again at a new table");
		offered = 0;
		for (int i = room0; i < net.nroom; i++)
			offered |= strstr(net.room_lines[i], "you may cut the deck") && strstr(net.room_lines[i], "within 3 s");
		CHECK(offered, "the offer says how long it waits (cut_offer_ms, not the pause between deals)");
		/* The offer outlasts the pause between deals (people type on phones). */
		run_for(ev, 1300);
		CHECK(G304(ct)->phase == G304_PHASE_DEAL && ct->cut_seat >= 0, "the cut is still open after the pause");
		run_for(ev, 1500);
		CHECK(G304(ct)->phase == G304_PHASE_BID4 && ct->cut_seat < 0, "no cut: the deal starts when the offer ends");
		say(b, "#cut", "ann", "!stop");
		say(b, "#cut", "bob", "!stop");
		say(b, "#cut", "cat", "!stop");
		say(b, "#cut", "dan", "!stop");
		run_for(ev, 50);
	}


	/* Caps at a chat table: 001's worked example, dealt to four people.
	 * The caller's stated order is played for them; the others may type
	 * !finish to have their cards played to the end of the deal. */
	{
		static const char *const deck_codes[CARD_COUNT] = {
			"AS", "KS", "QC", "7C", "8C", "JH", "9H", "8H", "AC", "TC", "TH", "JS", "KH", "QH", "QS", "8S",
			"AH", "JD", "9D", "TD", "JC", "9C", "KC", "7H", "9S", "TS", "AD", "KD", "7S", "QD", "8D", "7D",
		};
		static card deck[CARD_COUNT];
		for (int i = 0; i < CARD_COUNT; i++)
			deck[i] = card_parse(deck_codes[i]);
		const char *who[4] = { "ann", "bob", "cat", "dan" };
		say(b, "#caps", "ann", "!304");
		for (int i = 1; i < 4; i++)
			say(b, "#caps", who[i], "!sit");
		table *ct = b->tables[b->ntables - 1];
		ct->set.pace = PACE_CASUAL;
		static const uint8_t *next_deck;
		testnet_deck(b, &next_deck, deck);
		say(b, "#caps", "ann", "!start");
		run_for(ev, 50);
		CHECK(G304(ct)->phase == G304_PHASE_BID4 && next_deck == NULL, "caps table: the fixed deck is dealt");
		/* Role k of the worked example (dealer 0) sits at seat dealer+k. */
		const char *r[4];
		for (int k = 0; k < 4; k++)
			r[k] = who[(G304(ct)->dealer + k) & 3];
		int priv0 = net.npriv;
		say(b, "#caps", r[1], "!finish");
		int refused = 0;
		for (int i = priv0; i < net.npriv; i++)
			refused += strstr(net.priv_lines[i], "finish works after a caps call") != NULL;
		CHECK(refused == 1, "!finish before any caps call is refused with a reason");
		say(b, "#caps", r[1], "!pass");
		say(b, "#caps", r[2], "!bid 200");
		say(b, "#caps", r[3], "!pass");
		say(b, "#caps", r[0], "!pass");
		say(b, "#caps", r[1], "!pass");
		say(b, NULL, r[2], "trump 8c");
		say(b, "#caps", r[2], "!pass");
		say(b, "#caps", r[3], "!pass");
		say(b, "#caps", r[0], "!pass");
		say(b, "#caps", r[1], "!pass");
		CHECK(G304(ct)->phase == G304_PHASE_PLAY, "caps table: play begins");
		static const struct { int role; const char *card; } plays[] = {
			{ 1, "as" }, { 2, "trump" }, { 3, "ts" }, { 0, "8s" },
			{ 2, "jc" }, { 3, "ac" }, { 0, "8d" }, { 1, "7c" },
			{ 2, "9c" }, { 3, "tc" }, { 0, "qh" }, { 1, "qc" },
			{ 2, "jh" }, { 3, "th" }, { 0, "kh" },
		};
		for (size_t i = 0; i < sizeof plays / sizeof plays[0]; i++) {
			char cmd[32];
			snprintf(cmd, sizeof cmd, "play %s", plays[i].card);
			say(b, NULL, r[plays[i].role], cmd);
		}
		CHECK(G304(ct)->trick_no == 3 && G304(ct)->turn == ((G304(ct)->dealer + 1) & 3),
		      "caps table: trick 4, the last seat to play (trick %d)", G304(ct)->trick_no + 1);
		int room0 = net.nroom;
		say(b, "#caps", r[2], "!caps 9h 8h 7h kc");
		int called = 0;
		for (int i = room0; i < net.nroom; i++)
			called += strstr(net.room_lines[i], "calls CAPS") && strstr(net.room_lines[i], "!finish");
		CHECK(called == 1, "the caps call is told with the offer to finish");
		say(b, NULL, r[1], "play ah");
		run_for(ev, 100);
		CHECK(G304(ct)->caps_k >= 1, "the caller's first stated card is played for them (%d)", G304(ct)->caps_k);
		room0 = net.nroom;
		for (int k = 0; k < 4; k++)
			if (k != 2)
				say(b, "#caps", r[k], "!finish");
		int ok = 0;
		for (int i = room0; i < net.nroom; i++)
			ok += strstr(net.room_lines[i], "I will play your cards to the end of this deal") != NULL;
		CHECK(ok == 3, "each !finish is acknowledged (%d)", ok);
		for (int i = 0; i < 200 && G304(ct)->phase == G304_PHASE_PLAY; i++)
			run_for(ev, 10);
		const g304_deal_end *e = &G304(ct)->last;
		int team = g304_team(table_seat_of(ct, r[2]));
		CHECK(G304(ct)->phase != G304_PHASE_PLAY && e->caps == G304_CAPSO_CORRECT,
		      "the deal is played out: caps correct (%d)", e->caps);
		CHECK(e->tokens[team] == 14 && e->tokens[!team] == 8, "200 made with caps: 2 + 1 tokens (%d, %d)",
		      e->tokens[team], e->tokens[!team]);
		for (int k = 0; k < 4; k++)
			say(b, "#caps", who[k], "!stop");
		run_for(ev, 50);
	}

	/* Issue 22: within a deal nobody holds two seats (under any name they
	 * had in it); the grace holds against !bot; those who took computers'
	 * seats mid-match do not outvote the player; bids keep their bidder. */
	{
		say(b, "#seats", "ann", "!304");
		table *st = b->tables[b->ntables - 1];
		st->set.pace = PACE_CASUAL;
		st->set.computer_delay_ms = 600000; /* the computers wait: one deal throughout */
		for (int i = 0; i < 3; i++)
			say(b, "#seats", "ann", "!bot");
		say(b, "#seats", "ann", "!start");
		CHECK(st->state == TABLE_PLAYING && G304(st)->phase == G304_PHASE_BID4, "seats: the deal is on");
		say(b, "#seats", "eve", "!sit 2");
		CHECK(table_seat_of(st, "eve") == 1, "seats: a spectator takes a computer's seat");
		say(b, "#seats", "eve", "!leave");
		int p0 = net.npriv;
		say(b, "#seats", "eve", "!sit 3");
		CHECK(table_seat_of(st, "eve") < 0 && net.npriv > p0
		      && strstr(net.priv_lines[net.npriv - 1], "nobody may see two hands of one deal"),
		      "seats: she may not take a second seat in the deal, and is told why");
		testnet_rename(net.a, "eve", "eve2");
		say(b, "#seats", "eve2", "!sit 4");
		CHECK(table_seat_of(st, "eve2") < 0, "seats: nor under a new nick");
		say(b, "#seats", "eve2", "!sit");
		CHECK(table_seat_of(st, "eve2") == 1, "seats: !sit takes her back to the seat she held");
		p0 = net.npriv;
		say(b, "#seats", "ann", "!sit 3");
		CHECK(table_seat_of(st, "ann") == 0 && strstr(net.priv_lines[net.npriv - 1], "you hold seat 1"),
		      "seats: a seated player may not move");
		say(b, "#seats", "mal", "!sit 3");
		CHECK(table_seat_of(st, "mal") == 2 && st->seats[2].mid_match, "seats: a second spectator sits");
		say(b, "#seats", "eve2", "!stop");
		say(b, "#seats", "mal", "!stop");
		run_for(ev, 5);
		CHECK(!st->closing, "seats: two who took computers' seats mid-match do not outvote the player");
		/* The bid of a seat whose holder changed names its bidder. */
		snprintf(st->bid_by[1], sizeof st->bid_by[1], "Robo-East");
		G304(st)->bid = 170;
		G304(st)->bidder = 1;
		p0 = net.npriv;
		say(b, "#seats", "eve2", "!hand");
		CHECK(net.npriv > p0 && strstr(net.priv_lines[net.npriv - 1], "170 by Robo-East"),
		      "seats: the state line names who bid, not the newcomer");
		/* The grace holds against !bot. */
		testnet_part(net.a, "#seats", "ann", "bye");
		CHECK(st->seats[0].away, "seats: ann left");
		say(b, "#seats", "zed", "!bot 1");
		CHECK(!st->seats[0].computer && !strcmp(st->seats[0].user, "ann")
		      && strstr(net.priv_lines[net.npriv - 1], "kept for them"),
		      "seats: !bot on the seat of a player who just left is refused, with the reason");
		st->seats[0].away_since -= (int64_t)st->set.grace_seconds * 1000 + 1000;
		say(b, "#seats", "zed", "!bot 1");
		CHECK(st->seats[0].computer, "seats: after the grace, !bot takes it");
		say(b, "#seats", "boss", "!stop");
		run_for(ev, 20);
	}

	/* Issue 29.5: a computer's move is told the same time after it became
	 * due whatever it had to decide: one legal card (answered at once) or
	 * a search. The decision is made during the pace and held: with the
	 * answer in, nothing happens until the loop's clock reaches the pace's
	 * end (loop_skew: no waiting, no timing), and then the move is made at
	 * once, forced or not. */
	{
		say(b, "#pace", "ann", "!304");
		table *pt = b->tables[b->ntables - 1];
		pt->set.computer_delay_ms = 600000;
		pt->set.computer_think_ms = 20;
		for (int i = 0; i < 3; i++)
			say(b, "#pace", "ann", "!bot");
		say(b, "#pace", "ann", "!start");
		say(b, "#pace", "ann", "!leave"); /* four computers */
		int forced = 0, chosen = 0, early = 0, late = 0;
		for (int step = 0; step < 2000 && pt->state == TABLE_PLAYING && (forced < 3 || chosen < 3); step++) {
			game_status gs;
			game_status_of(pt->g, &gs);
			int s = gs.turn;
			if (gs.over)
				break;
			if (gs.needs_deal || s < 0) {
				loop_once(ev, 5); /* the next deal */
				continue;
			}
			uint64_t stamp = pt->nacts; /* changes with every accepted action */
			game_legal l;
			game_legal_of(pt->g, s, &l);
			int one = __builtin_popcountll(l.cards) == 1; /* one legal card */
			int64_t give_up = loop_now() + 60000;
			while (!pt->pace_ready && pt->nacts == stamp && loop_now() < give_up)
				loop_once(ev, 5);
			if (pt->nacts != stamp)
				continue; /* played out at once: the deal's outcome is settled */
			loop_once(ev, 0);
			early += pt->nacts != stamp; /* decided, but told before the pace ended */
			loop_skew(ev, pt->set.computer_delay_ms);
			loop_once(ev, 0);
			late += pt->nacts == stamp; /* the pace over and the answer in, but not made */
			if (one)
				forced++;
			else
				chosen++;
		}
		CHECK(forced > 0 && chosen > 0, "pace: the deal had forced (%d) and chosen (%d) computer moves", forced,
		      chosen);
		CHECK(early == 0, "pace: no computer move is made before its pace ends, though decided (%d were)", early);
		CHECK(late == 0, "pace: every computer move is made as its pace ends (%d were not)", late);
		say(b, "#pace", "boss", "!stop");
		run_for(ev, 5);
	}

	/* A table's meta at its largest still fits (its viewers are kept in it,
	 * issue 29.3): a meta that does not is not saved at all. */
	{
		static table big;
		memset(&big, 0, sizeof big);
		table_settings_default(&big.set);
		big.state = TABLE_PLAYING;
		big.nseats = TABLE_SEATS;
		big.gdef = &game_def_304;
		char longest[ADAPTER_ID_MAX];
		memset(longest, '/', sizeof longest - 1);
		longest[sizeof longest - 1] = '\0';
		for (int i = 0; i < TABLE_SEATS; i++) {
			snprintf(big.seats[i].user, sizeof big.seats[i].user, "%s", longest);
			memset(big.seats[i].name, '/', TABLE_NAME_MAX - 1);
			snprintf(big.seats[i].key, sizeof big.seats[i].key, "abcdefgh");
		}
		for (int i = 0; i < TABLE_NOTIFY_MAX; i++)
			snprintf(big.notify[i], sizeof big.notify[i], "%s", longest);
		big.nnotify = TABLE_NOTIFY_MAX;
		big.deal_idx = 1;
		for (int i = 0; i < TABLE_VIEWERS_MAX; i++) {
			snprintf(big.viewers[i].user, sizeof big.viewers[i].user, "%s", longest);
			snprintf(big.viewers[i].origin, sizeof big.viewers[i].origin, "%s", longest);
			big.viewers[i].deal = 1;
		}
		big.nviewers = TABLE_VIEWERS_MAX;
		static char meta[TSTORE_META_MAX];
		CHECK(tstore_meta(&big, meta, sizeof meta) == 0, "the largest meta fits in TSTORE_META_MAX (%zu bytes)",
		      strlen(meta));
	}

	/* The command table is the host's commands and every game's verbs
	 * (present.verbs): `help` names each verb of each game once. */
	{
		int p0 = net.npriv;
		say(b, NULL, "helper", "help");
		const char *list = NULL;
		for (int i = p0; i < net.npriv; i++)
			if (strstr(net.priv_lines[i], "!unbot"))
				list = net.priv_lines[i];
		int missing = 0;
		for (int g = 0; present_at(g); g++)
			for (const present_verb *v = present_at(g)->verbs; list && v && v->name; v++) {
				char w[32];
				snprintf(w, sizeof w, "!%s ", v->name);
				const char *at = strstr(list, w);
				missing += !at || strstr(at + 1, w);
			}
		CHECK(list && !missing, "help lists every game's verbs once (%d missing or twice)", missing);
	}

	/* The per-user rate limit: a burst, then the rest ignored, with one notice. */
	b->cmd_burst = 3; /* not the built-in 5: the configured limit must be the one used */
	b->cmd_per_second = 0.5;
	int priv = net.npriv;
	for (int i = 0; i < 1000; i++)
		say(b, "#304", "flood", "!help");
	int slow = 0, helps = 0;
	for (int i = priv; i < net.npriv; i++) {
		slow += strstr(net.priv_lines[i], "Slow down") != NULL;
		helps += strstr(net.priv_lines[i], "No table") != NULL;
	}
	CHECK(slow == 1 && helps == 3, "1000 commands: %d answered, %d slow-down notices", helps, slow);

	bot_free(b);
	testnet_free();
	loop_free(ev);
	return check_report("bot_table");
}
