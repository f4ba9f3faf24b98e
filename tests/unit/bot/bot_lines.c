/* bot_lines.c: what a new user reads (issue 19, section 2), over the test
 * network (testnet.h): help with no table, the deal told before its hands
 * in every game (and after a restart), the stop vote's count, the opening
 * line, pcc (the partner sitting out; a lost pcc played out at once), the
 * turn prompt of the eight-card round, the last card being the trump card,
 * refused moves marked in the room (bounded), and short deal-end lines. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* (304's header before the host's: its parameters named seat come
 * before the table's seat type) */
#include "g304.h"
#include "bot.h"
#include "check.h"
#include "loop.h"
#include "render.h"
#include "store.h"
#include "table.h"
#include "table_int.h"
#include "testnet.h"

#define G304(t) ((g304 *)(t)->g->state)

static void run_for(loop *ev, int ms)
{
	int64_t end = loop_now() + ms;
	while (loop_now() < end)
		loop_once(ev, 5);
}

static bot *new_bot(loop *ev, store *db)
{
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 5;
	set.computer_delay_ms = 0;
	set.cut_offer_ms = 0;
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

static const char *last_room(int from)
{
	return net.nroom > from ? net.room_lines[net.nroom - 1] : "nothing";
}

/* ---- 2: the deal before its hands, in what ann receives ---- */

static table *watch;        /* the table whose lines the hook follows */
static int deal_told[256];  /* the room heard "Deal N:" (or, restored, "I am back") */
static int rest_told;       /* 304: the deal whose last four cards the room heard of */
static int hands_seen, order_bad;

static void order_hook(int room, const char *to, const char *text)
{
	if (!watch || !watch->g)
		return;
	game_status st;
	game_status_of(watch->g, &st);
	int d = st.deal_no & 255;
	if (room) {
		if (strcmp(to, watch->room))
			return;
		for (const char *p = strstr(text, "Deal "); p; p = strstr(p + 1, "Deal ")) {
			int n;
			if (sscanf(p, "Deal %d:", &n) == 1)
				deal_told[n & 255] = 1;
		}
		if (strstr(text, "I am back"))
			deal_told[d] = 1;
		if (strstr(text, "the last four cards are dealt"))
			rest_told = st.deal_no;
		return;
	}
	if (strcmp(to, "ann") || text[0] != '[' || !strstr(text, "] hand: "))
		return;
	hands_seen++;
	if (!deal_told[d] && order_bad++ < 3)
		fprintf(stderr, "ann's hand of deal %d came before the room heard of the deal: %s\n", st.deal_no, text);
	if (watch->gdef == &game_def_304 && strstr(text, "eight-card bidding") && rest_told != st.deal_no
	    && order_bad++ < 3)
		fprintf(stderr, "ann's eight cards came before the room heard they were dealt: %s\n", text);
}

/* ann's move in a table of any game: the engine's simple player, applied as
 * hers (the test is of what she reads, not of command parsing). */
static void ann_simple(table *t, rng *r)
{
	game_action a;
	if (game_bot_action(t->g, 0, r, &a) || game_random_action(t->g, 0, r, &a))
		table_act(t, &a, "ann");
}

/* Runs table t (ann in seat 0) until `deals` deals have ended. */
static void run_deals(loop *ev, table *t, rng *r, int deals)
{
	for (int i = 0; i < 200000 && t->state == TABLE_PLAYING && t->deals_played < deals; i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && !st.over && st.turn == 0)
			ann_simple(t, r);
		else
			loop_once(ev, 1);
	}
}

static void deal_order(loop *ev, store *db, bot *b, const char *gname, int n, rng *r)
{
	char room[32], cmd[64];
	snprintf(room, sizeof room, "#order-%s-%d", gname, n);
	snprintf(cmd, sizeof cmd, "!new %s %d", gname, n);
	say(b, room, "ann", cmd);
	table *t = table_in(b, room);
	CHECK(t != NULL, "%s: a table opens", room);
	if (!t)
		return;
	for (int i = 1; i < n; i++)
		say(b, room, "ann", "!bot");
	say(b, room, "ann", "!set pace casual");
	memset(deal_told, 0, sizeof deal_told);
	rest_told = 0;
	hands_seen = order_bad = 0;
	watch = t;
	say(b, room, "ann", "!start");
	run_deals(ev, t, r, 3);
	CHECK(hands_seen >= 3 && order_bad == 0, "%s: ann's hands (%d) each came after the room heard of the deal (%d did not)",
	      room, hands_seen, order_bad);
	/* A restart in the middle of a deal: the room hears the table is back
	 * before ann reads her hand. The shuffle is the bot's own (not seeded
	 * here), and a Rook team can reach its target in three deals: a match
	 * that ended is followed by another. */
	if (t->state != TABLE_PLAYING)
		say(b, room, "ann", "!start");
	CHECK(t->state == TABLE_PLAYING, "%s: a match is in play before the restart", room);
	for (int i = 0; i < 100000 && t->state == TABLE_PLAYING; i++) {
		game_status st;
		game_status_of(t->g, &st);
		if (!st.needs_deal && st.turn != 0 && st.turn != GAME_NO_SEAT)
			break;
		if (!st.needs_deal && st.turn == 0)
			ann_simple(t, r);
		else
			loop_once(ev, 1);
	}
	t->state = TABLE_OPEN; /* the old bot falls silent */
	bot *b2 = new_bot(ev, db);
	bot_add_network(b2, net.a);
	testnet_use(b2);
	bot_restore(b2);
	table *t2 = table_in(b2, room);
	CHECK(t2 && t2->state == TABLE_PLAYING, "%s: the table is restored", room);
	if (t2) {
		memset(deal_told, 0, sizeof deal_told);
		hands_seen = order_bad = 0;
		watch = t2;
		table_resumed(t2);
		run_for(ev, 20);
		CHECK(hands_seen >= 1 && order_bad == 0,
		      "%s restored: ann's hand (%d) came after the room heard the table is back (%d did not)", room,
		      hands_seen, order_bad);
		for (int i = 0; i < b2->ntables; i++)
			b2->tables[i]->closing = 1;
	}
	watch = NULL;
	b2->db = NULL;
	b2->nnets = 0;
	bot_free(b2);
	testnet_use(b);
	bot_close_table(b, t);
	run_for(ev, 10);
}

/* ---- 304: ann bids and plays by a policy of the test's ---- */

/* Every card code a line names, as rendered for the room. */
static cardset cards_in(const char *line)
{
	cardset found = 0;
	for (int c = 0; c < CARD_COUNT; c++) {
		char buf[32];
		strbuf sb;
		sb_init(&sb, buf, sizeof buf);
		render_card(&sb, (card)c, RENDER_COLOUR);
		if (strstr(line, buf))
			found |= card_bit((card)c);
	}
	return found;
}

/* Cards played face down in this deal and never turned up. */
static cardset down_unshown(const g304 *g)
{
	cardset h = 0;
	for (int i = 0; i < G304_TRICKS; i++)
		for (int k = 0; k < g->tricks[i].n; k++)
			if ((g->tricks[i].down >> k & 1) && !(g->tricks[i].shown >> k & 1))
				h |= card_bit(g->tricks[i].card[k]);
	return h;
}

static int end_lines, end_max, end_over, salt_told, verify_said, prompt_pcc, prompt_pcc_missing;
static int opened, opened_ok, last_trump_seen, last_trump_plain;
static int pcc_bid, pcc_sits_out, pcc_lost_said, pcc_played_out, pcc_leaks;

/* Looks at every room line since `from`: deal-end lines (with the
 * tokens) and their lengths, salts said (none: they are in the record),
 * the verify sentence, ann's turn prompts. */
static void look_at_room(int from, table *t)
{
	for (int i = from; i < net.nroom; i++) {
		const char *l = net.room_lines[i];
		if (strcmp(net.room_to[i], t->room))
			continue;
		const char *sa = strstr(l, " salt ");
		if (sa && strspn(sa + 6, "0123456789abcdef") == 32)
			salt_told++;
		if (strstr(l, "tokens: ")) {
			size_t n = strlen(l);
			end_lines++;
			if ((int)n > end_max)
				end_max = (int)n;
			if (n >= 300 && end_over++ < 2)
				fprintf(stderr, "a deal-end line of %zu bytes: %s\n", n, l);
		}
		if (strstr(l, "cardbot verify"))
			verify_said++;
	}
}

/* One 304 match with ann (seat 0) and three computers, ann's policy:
 * bid when she may (to become the trumper), pcc in the eight-card round
 * once, open the game the first time she may, and never play the trump
 * card from the table while another card will do. */
static void policy_match(loop *ev, bot *b, table *t, const char *room, int from)
{
	rng r;
	rng_seed(&r, 19);
	int pcc_deal = -1, pcc_from = 0;
	int room_seen = from;
	for (int i = 0; i < 300000 && t->state == TABLE_PLAYING; i++) {
		const g304 *g = G304(t);
		int r0 = net.nroom;
		if (g->turn != 0 || g->phase == G304_PHASE_OVER) {
			loop_once(ev, 1);
		} else {
			g304_legal l;
			g304_view v;
			g304_legal_of(g, 0, &l);
			g304_view_of(g, 0, &v);
			g304_action a;
			memset(&a, 0, sizeof a);
			a.seat = 0;
			if (g->phase == G304_PHASE_BID8 && l.pcc_ok && !pcc_bid) {
				a.type = G304_ACT_BID;
				a.value = G304_BID_PCC;
				pcc_bid = 1;
				pcc_deal = g->deal_no;
				pcc_from = net.nroom;
			} else if (g->phase == G304_PHASE_BID4 && (l.acts & 1u << G304_ACT_BID) && l.bid_min <= 200) {
				a.type = G304_ACT_BID;
				a.value = l.bid_min;
			} else if ((l.acts & 1u << G304_ACT_OPEN) && !opened) {
				say(b, room, "ann", "!open");
				opened = 1;
				for (int k = r0; k < net.nroom; k++)
					if (strstr(net.room_lines[k], "opens the game")) {
						const char *x = strstr(net.room_lines[k], "ann opens the game");
						int trumps = 0;
						for (const char *p = x; p && (p = strstr(p, "trump")); p++)
							trumps++;
						opened_ok = x && trumps == 1;
						if (!opened_ok)
							fprintf(stderr, "the opening line: %s\n", net.room_lines[k]);
					}
				continue;
			} else if (g->phase == G304_PHASE_PLAY && (l.acts & 1u << G304_ACT_PLAY)) {
				cardset mine = l.cards & g->hand[0];
				a.type = G304_ACT_PLAY;
				if (mine) {
					a.card = cardset_first(mine);
				} else {
					a.card = g->trump_card;
					/* the last card is the trump card on the table: ann's hand line said so plainly */
					int k = net.npriv - 1;
					while (k >= 0 && strcmp(net.priv_to[k], "ann"))
						k--;
					if (k >= 0 && g->trump_down) {
						last_trump_seen++;
						if (strstr(net.priv_lines[k], "only card to play is the trump card")
						    && !strstr(net.priv_lines[k], "(none) or the trump card"))
							last_trump_plain++;
						else
							fprintf(stderr, "ann's last card is the trump card: %s\n", net.priv_lines[k]);
					}
				}
			} else {
				game_action ga;
				if (!game_bot_action(t->g, 0, &r, &ga) && !game_random_action(t->g, 0, &r, &ga))
					break;
				game_action_to_g304(&ga, &a);
			}
			game_action ga;
			game_action_from_g304(&a, &ga);
			table_act(t, &ga, "ann");
		}
		g = G304(t);
		/* Ann's prompt in the eight-card round. */
		for (int k = r0; k < net.nroom; k++) {
			const char *p = strstr(net.room_lines[k], "ann: your turn to bid (");
			if (p && g->phase == G304_PHASE_BID8 && g->turn == 0) {
				g304_legal l;
				g304_legal_of(g, 0, &l);
				if (l.pcc_ok) {
					prompt_pcc++;
					if (!strstr(p, "pcc")) {
						if (prompt_pcc_missing++ < 2)
							fprintf(stderr, "the prompt leaves pcc out: %s\n", net.room_lines[k]);
					}
				}
			}
		}
		if (pcc_deal >= 0 && g->deal_no == pcc_deal && g->pcc && g->phase == G304_PHASE_PLAY) {
			if (!pcc_sits_out && room_has(pcc_from, "Robo-South sits out this deal"))
				pcc_sits_out = 1;
			/* Once ann has lost a trick the deal ends with no move of hers. */
			int lost = 0;
			for (int k = 0; k < g->trick_no; k++)
				lost |= g->tricks[k].winner != 0;
			if (lost && g->trick_no < G304_TRICKS - 1) {
				int rl = net.nroom;
				for (int k = 0; k < 200 && G304(t)->phase == G304_PHASE_PLAY && G304(t)->deal_no == pcc_deal; k++)
					loop_once(ev, 1);
				pcc_lost_said = room_has(pcc_from, "the pcc is lost");
				const g304 *h = G304(t);
				pcc_played_out = h->deal_no == pcc_deal && h->phase != G304_PHASE_PLAY && h->last.outcome == G304_OUTCOME_SCORED
						 && !h->last.made;
				if (!pcc_played_out)
					fprintf(stderr, "after the pcc was lost the deal waits (phase %d, turn %d)\n", h->phase, h->turn);
				cardset down = down_unshown(h);
				for (int k = rl; k < net.nroom; k++)
					if (cards_in(net.room_lines[k]) & down && pcc_leaks++ < 2)
						fprintf(stderr, "a face-down card named in the room: %s\n", net.room_lines[k]);
				pcc_deal = -2;
			}
		}
		if (g->phase != G304_PHASE_PLAY)
			look_at_room(room_seen, t), room_seen = net.nroom;
	}
	look_at_room(room_seen, t);
}

int main(void)
{
	char dir[] = "/tmp/cardbot-lines-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db != NULL, "a new database opens: %s", db ? "" : err);
	if (!db)
		return 1;
	loop *ev = loop_new();
	bot *b = new_bot(ev, db);
	testnet_open(ev, b, "fake");
	net.hook = order_hook;
	rng r;
	rng_seed(&r, 20261126);

	/* 1: help where no table is open, in the room and in private. */
	int p0 = net.npriv;
	say(b, "#empty", "zed", "!help");
	CHECK(priv_has(p0, "zed", "commands") && priv_has(p0, "zed", "!304 opens one"),
	      "!help where no table is open gives the help and how to open a table");
	p0 = net.npriv;
	say(b, NULL, "zed", "help");
	CHECK(priv_has(p0, "zed", "commands") && priv_has(p0, "zed", "!304"),
	      "help in private, at no table, gives the help and how to open a table");
	p0 = net.npriv;
	say(b, NULL, "zed", "#empty help");
	CHECK(priv_has(p0, "zed", "commands") && priv_has(p0, "zed", "!304 opens one"),
	      "\"#empty help\" in private gives the help and how to open a table there");
	CHECK(b->ntables == 0, "asking for help opens no table");

	/* 2: in every game, ann's hands come after the room hears of the deal. */
	deal_order(ev, db, b, "304", 4, &r);
	for (int n = 2; n <= 4; n++)
		deal_order(ev, db, b, "trump304", n, &r);
	deal_order(ev, db, b, "rook", 4, &r);

	/* Trump304's reveals name the trump once, as 304's opening does. The
	 * decks are random: when the deals above had no reveal, more deals of
	 * two players until one has. */
	int reveals = 0, twice = 0, scanned = 0;
	for (int more = 0;; more++) {
		for (; scanned < net.nroom; scanned++) {
			const char *l = net.room_lines[scanned];
			reveals += strstr(l, "reveals the trump to cut") || strstr(l, "the last trick: t");
			if (strstr(l, "(trump card ") && twice++ < 2)
				fprintf(stderr, "a reveal names the trump twice: %s\n", l);
		}
		if (reveals || more == 20)
			break;
		char room[32];
		snprintf(room, sizeof room, "#reveal-%d", more);
		say(b, room, "ann", "!new trump304 2");
		table *t = table_in(b, room);
		if (!t)
			break;
		say(b, room, "ann", "!bot");
		say(b, room, "ann", "!set pace casual");
		say(b, room, "ann", "!start");
		run_deals(ev, t, &r, 3);
		bot_close_table(b, t);
		loop_once(ev, 1);
	}
	CHECK(reveals > 0 && twice == 0, "Trump304's reveals name the trump once (%d of %d did not)", twice, reveals);

	/* 3: the stop vote counts votes. */
	say(b, "#vote", "ann", "!304");
	say(b, "#vote", "bob", "!sit");
	say(b, "#vote", "cat", "!sit");
	say(b, "#vote", "ann", "!bot");
	say(b, "#vote", "ann", "!set pace casual");
	say(b, "#vote", "ann", "!start");
	int r0 = net.nroom;
	say(b, "#vote", "ann", "!stop");
	CHECK(room_has(r0, "ann votes to stop (1 of 2 votes needed)"), "the stop vote says 1 of 2 votes (%s)", last_room(r0));

	/* !start during a match says a match is on, not "only between matches". */
	p0 = net.npriv;
	say(b, "#vote", "bob", "!start");
	CHECK(priv_has(p0, "bob", "a match is already being played here") && !priv_has(p0, "bob", "between matches"),
	      "!start during a match says one is being played");

	/* 8: a move typed in a (not brief) channel and refused is marked there,
	 * naming the person only, at most once in a while. */
	table *t = table_in(b, "#vote");
	if (t) {
		int s = table_turn(t);
		const char *other = s == 1 ? "cat" : "bob";
		r0 = net.nroom;
		p0 = net.npriv;
		say(b, "#vote", other, "!play as");
		CHECK(room_has(r0, ": not accepted"), "a refused move typed in the channel is marked there (%s)", last_room(r0));
		CHECK(priv_has(p0, other, "["), "the reason goes privately");
		CHECK(!room_has(r0, "A\xe2\x99\xa0") && !room_has(r0, "turn"), "the mark names neither the card nor the reason");
		int marks = 0;
		r0 = net.nroom;
		for (int i = 0; i < 20; i++) {
			say(b, "#vote", other, "!play as");
			say(b, "#vote", other, "!bid lots");
		}
		for (int i = r0; i < net.nroom; i++)
			marks += strstr(net.room_lines[i], "not accepted") != NULL;
		CHECK(marks == 0, "forty refusals more in a row add no mark (%d)", marks);
		bot_close_table(b, t);
		run_for(ev, 10);
	}

	/* 4-7, 9: a 304 match played by ann's policy. */
	say(b, "#p", "ann", "!304");
	for (int i = 0; i < 3; i++)
		say(b, "#p", "ann", "!bot");
	say(b, "#p", "ann", "!set pace casual");
	say(b, "#p", "ann", "!set caps off");
	t = table_in(b, "#p");
	if (t) {
		int from = net.nroom;
		say(b, "#p", "ann", "!start");
		policy_match(ev, b, t, "#p", from);
		for (int round = 0; round < 12 && (!pcc_played_out || !last_trump_seen || !opened); round++) {
			from = net.nroom;
			say(b, "#p", "ann", "!start");
			if (!pcc_played_out)
				pcc_bid = 0;
			policy_match(ev, b, t, "#p", from);
		}
	}
	printf("deal-end lines: %d, the longest %d bytes; the verify sentence said %d times\n", end_lines, end_max,
	       verify_said);
	CHECK(opened && opened_ok, "opening the game names the trump once (%d %d)", opened, opened_ok);
	CHECK(prompt_pcc > 0 && prompt_pcc_missing == 0, "the eight-card prompt offers pcc (%d of %d did not)",
	      prompt_pcc_missing, prompt_pcc);
	CHECK(pcc_bid && pcc_sits_out, "when pcc wins the room hears that the partner sits out");
	CHECK(pcc_lost_said, "a lost pcc is said");
	CHECK(pcc_played_out, "a lost pcc's deal is played out at once");
	CHECK(pcc_leaks == 0, "playing it out shows no face-down card");
	CHECK(last_trump_seen > 0 && last_trump_plain == last_trump_seen,
	      "a last card that is the trump card is said plainly (%d of %d)", last_trump_plain, last_trump_seen);
	CHECK(end_lines >= 2 && end_over == 0, "every deal-end room line is under 300 bytes (%d lines, longest %d)",
	      end_lines, end_max);
	CHECK(salt_told == 0, "no deal's salt is said in the room (%d times in %d deals): the record holds them", salt_told,
	      end_lines);
	CHECK(verify_said >= 1 && verify_said * 2 <= end_lines, "the verify sentence is said once a match, not every deal (%d in %d deals)",
	      verify_said, end_lines);

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
	return check_report("bot_lines");
}
