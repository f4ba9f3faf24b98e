/* bot_stats.c: statistics by game. In one room over the test network, with
 * a real SQLite file: a 304 match (stored directly), a Trump304 match of
 * three (ann and two computer players, four deals or more, stopped) and a whole
 * Rook match (ann and three computer players). Each deal's end is read
 * from the game as it happens; then !stats and !top at a table of each
 * game give exactly that game's figures, with its own bid bands and its
 * name, !history names every match's game, and the Trump304 and Rook
 * records that !record sends pass `cardbot verify`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bot.h"
#include "check.h"
#include "loop.h"
#include "record.h"
#include "rook.h"
#include "strbuf.h"
#include "store.h"
#include "table.h"
#include "testnet.h"
#include "verify.h"

#define ROOM "#mix"

static table *table_in(bot *b, const char *room)
{
	for (int i = 0; i < b->ntables; i++)
		if (!strcmp(b->tables[i]->room, room) && !b->tables[i]->closing)
			return b->tables[i];
	return NULL;
}

static const char *room_line_from(int from, const char *needle)
{
	for (int i = net.nroom - 1; i >= from; i--)
		if (strstr(net.room_lines[i], needle))
			return net.room_lines[i];
	return NULL;
}

/* ann's move (seat 0): the simple player's choice, typed as a person
 * would; a card that goes face down privately. */
static void ann_moves(bot *b, table *t, rng *r)
{
	game_action a;
	if (!game_bot_action(t->g, 0, r, &a))
		return;
	const char *name = t->gdef->act_name(a.type);
	char cmd[160], c1[8] = "", c2[8] = "";
	int private = 0;
	if (a.ncards > 0)
		t->gdef->card_code(a.cards[0], c1);
	if (a.ncards > 1)
		t->gdef->card_code(a.cards[1], c2);
	if (!strcmp(name, "bid"))
		snprintf(cmd, sizeof cmd, "!bid %d", a.value);
	else if (!strcmp(name, "trump") && t->gdef == &game_def_rook)
		snprintf(cmd, sizeof cmd, "!trump %s", rook_colour_name(a.value));
	else if (!strcmp(name, "trump") || !strcmp(name, "discard"))
		snprintf(cmd, sizeof cmd, "%s %s %s", ROOM, name, c1), private = 1;
	else if (!strcmp(name, "exchange"))
		snprintf(cmd, sizeof cmd, "%s exchange %s %s", ROOM, c1, c2), private = 1;
	else if (!strcmp(name, "play"))
		snprintf(cmd, sizeof cmd, "!p %s", c1);
	else
		snprintf(cmd, sizeof cmd, "!%s", name);
	say(b, private ? NULL : ROOM, "ann", cmd);
}

/* ann's figures, counted from the game as each deal ends. */
typedef struct tally {
	int deals, won, bids[4], made[4], trumper;
	double points;
	int ended;   /* deals ended so far (st.deal_no when seen last) */
	int jumps;   /* two deals ended between looks: the count would be wrong */
} tally;

/* The deal that just ended (game_outcome_of), for ann at seat 0, whose
 * side is 0 in both games here (Trump304 of three: her seat; Rook: team
 * 0). Bands: Trump304 150-199, 200-249, 250-300, 304; Rook 70-119,
 * 120-149, 150-200. */
static void count_deal(const table *t, tally *y)
{
	game_outcome o;
	game_outcome_of(t->g, &o);
	int rook_game = t->gdef == &game_def_rook;
	y->deals++;
	long sum = 0;
	for (int i = 0; i < o.nsides; i++)
		sum += o.change[i];
	y->won += (long)o.change[0] * o.nsides > sum;
	if (o.bidder == 0 && o.made >= 0) {
		int band = rook_game ? (o.bid >= 150) + (o.bid >= 120)
				     : (o.bid >= 304) + (o.bid >= 250) + (o.bid >= 200);
		y->bids[band]++;
		y->made[band] += o.made;
	}
	if (o.bidder == 0) {
		y->trumper++;
		y->points += o.points[0];
	}
}

/* Plays until `deals` deals have ended (or the match is over). */
static void drive(bot *b, loop *ev, table *t, int deals, rng *r, tally *y)
{
	int ended = y->ended;
	for (int i = 0; i < 3000000 && t->state == TABLE_PLAYING && ended < deals; i++) {
		game_status st;
		game_status_of(t->g, &st);
		int in_deal = !st.needs_deal && !st.over;
		int now = st.deal_no - in_deal;
		if (now > ended + 1)
			y->jumps++;
		if (now > ended) {
			count_deal(t, y);
			ended = now;
			continue;
		}
		if (in_deal && st.turn == 0)
			ann_moves(b, t, r);
		else
			loop_once(ev, 1);
	}
	if (t->state != TABLE_PLAYING && t->g) {
		/* the match's last deal ended it */
		game_status st;
		game_status_of(t->g, &st);
		if (st.deal_no > ended)
			count_deal(t, y);
		ended = st.deal_no;
	}
	y->ended = ended;
}

/* "deals 4 (won 2); bids made: 150-199 1/2; as trumper 2 deals, 160
 * points on average", as !stats says it. */
static void want_line(char *buf, size_t len, const tally *y, const char *const names[4], const char *matches)
{
	strbuf b;
	sb_init(&b, buf, len);
	sb_printf(&b, "%sdeals %d (won %d); bids made:", matches, y->deals, y->won);
	int any = 0;
	for (int i = 0; i < 4; i++)
		if (y->bids[i]) {
			sb_printf(&b, "%s %s %d/%d", any ? "," : "", names[i], y->made[i], y->bids[i]);
			any = 1;
		}
	if (!any)
		sb_add(&b, " none yet");
	if (y->trumper)
		sb_printf(&b, "; as trumper %d deals, %.0f points on average", y->trumper, y->points / y->trumper);
}

/* !record N for ann: the private pieces joined; then `cardbot verify`
 * on it as a file. */
static void record_checks(bot *b, const char *dir, int id, const char *gname)
{
	char cmd[32];
	snprintf(cmd, sizeof cmd, "!record %d", id);
	int from = net.npriv;
	say(b, ROOM, "ann", cmd);
	char head[64];
	snprintf(head, sizeof head, "The record of match %d", id);
	CHECK(net.npriv > from + 1 && strstr(net.priv_lines[from], head), "%s: !record %d sends the record", gname, id);
	size_t cap = 1 << 22, len = 0;
	char *text = malloc(cap);
	if (!text)
		return;
	for (int i = from + 1; i < net.npriv; i++) {
		size_t k = strlen(net.priv_lines[i]);
		if (len + k < cap) {
			memcpy(text + len, net.priv_lines[i], k);
			len += k;
		}
	}
	text[len] = 0;
	char err[RECORD_ERR_MAX], want[64];
	record *r = record_parse_game(text, len, err);
	CHECK(r && !strcmp(r->game->name, gname), "%s: the record reads as a %s record: %s", gname, gname, r ? "" : err);
	record_free(r);
	snprintf(want, sizeof want, "\"game\": \"%s\"", gname);
	CHECK(strstr(text, want) != NULL, "%s: the record names its game", gname);
	char path[300];
	snprintf(path, sizeof path, "%s/match-%d.json", dir, id);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	char *argv[] = { "verify", path, NULL };
	fflush(stdout);
	int rc = verify_main(2, argv);
	CHECK(rc == 0, "%s: cardbot verify accepts match %d's record (exit %d)", gname, id, rc);
	unlink(path);
	free(text);
}

static const char *const t304_bands[4] = { "150-199", "200-249", "250-300", "304" };
static const char *const rook_bands[4] = { "70-119", "120-149", "150-200", NULL };

int main(void)
{
	char dir[] = "/tmp/cardbot-stats-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db != NULL, "a new database opens: %s", db ? "" : err);
	if (!db)
		return 1;
	loop *ev = loop_new();
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 5;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	testnet_open(ev, b, "fake");
	rng r;
	rng_seed(&r, 20261126);

	/* Match 1: a 304 match of one deal, won by ann's team, ann the trumper
	 * making 180 with 200 points. */
	{
		store_seat seats[STORE_SEATS] = { { "ann", "ann", 0 }, { "", "c1", 1 }, { "", "c2", 1 }, { "", "c3", 1 } };
		int64_t id = 0;
		int ok = store_match_begin(db, "fake", ROOM, "304", "{}", seats, 0, &id) == 0
			 && store_deal_begin(db, id, 0, "[]", "00", "00") == 0;
		store_deal_end end;
		memset(&end, 0, sizeof end);
		for (int s = 0; s < 4; s++)
			end.seats[s] = (store_result){ .user = seats[s].user, .name = seats[s].name, .computer = seats[s].computer,
						       .seat = s, .team = s & 1, .outcome = "scored", .trumper = s == 0,
						       .bid = 180, .made = 1, .won = !(s & 1), .points = s & 1 ? 104 : 200,
						       .caps = "none" };
		end.match_over = 1;
		end.winner = 0;
		end.tokens[0] = 11;
		end.tokens[1] = 0;
		ok = ok && store_action(db, id, 0, 0, "{\"seat\": 0, \"do\": \"bid\", \"value\": 180}", &end) == 0;
		CHECK(ok && id == 1, "a 304 match is stored as match 1: %s", ok ? "" : store_error(db));
	}

	/* Match 2: Trump304 of three, four deals, then stopped. */
	tally t3 = { 0 };
	say(b, ROOM, "ann", "!new trump304 3");
	table *t = table_in(b, ROOM);
	CHECK(t && t->gdef == &game_def_trump304, "a Trump304 table opens");
	if (!t)
		return 1;
	t->set.cut_offer_ms = 0;
	say(b, ROOM, "ann", "!bot");
	say(b, ROOM, "ann", "!bot");
	say(b, ROOM, "ann", "!set pace casual");
	say(b, ROOM, "ann", "!start");
	CHECK(t->state == TABLE_PLAYING && t->match_id == 2, "the Trump304 match starts as match 2");
	drive(b, ev, t, 4, &r, &t3);
	CHECK(t3.deals == 4 && !t3.jumps, "Trump304: four deals ended, each seen (%d, %d missed)", t3.deals, t3.jumps);
	/* ... and more until ann has played a bid */
	while (t3.trumper == 0 && t3.deals < 30)
		drive(b, ev, t, t3.deals + 1, &r, &t3);
	CHECK(t3.trumper > 0, "Trump304: ann was the trumper at least once (%d)", t3.trumper);
	char want[ADAPTER_TEXT_MAX / 2], line[ADAPTER_TEXT_MAX];
	want_line(want, sizeof want, &t3, t304_bands, "");
	snprintf(line, sizeof line, "ann in Trump304: %s", want);
	int r0 = net.nroom;
	say(b, ROOM, "ann", "!stats ann");
	const char *got = room_line_from(r0, "ann in Trump304: ");
	CHECK(got && !strcmp(got, line), "Trump304: !stats ann gives ann's Trump304 deals and bands\n  want %s\n  got  %s",
	      line, got ? got : "(nothing)");
	snprintf(line, sizeof line, "Leaderboard for %s in Trump304: 1. ann %d/%d deals", ROOM, t3.won, t3.deals);
	r0 = net.nroom;
	say(b, ROOM, "ann", "!top");
	got = room_line_from(r0, "Leaderboard");
	CHECK(got && !strcmp(got, line), "Trump304: !top counts its deals\n  want %s\n  got  %s", line,
	      got ? got : "(nothing)");
	say(b, ROOM, "ann", "!stop");
	loop_once(ev, 1);
	CHECK(table_in(b, ROOM) == NULL, "the Trump304 table stops");

	/* Match 3: a whole Rook match. */
	tally rk = { 0 };
	say(b, ROOM, "ann", "!new rook");
	t = table_in(b, ROOM);
	CHECK(t && t->gdef == &game_def_rook, "a Rook table opens");
	if (!t)
		return 1;
	t->set.cut_offer_ms = 0;
	for (int i = 0; i < 3; i++)
		say(b, ROOM, "ann", "!bot");
	say(b, ROOM, "ann", "!set pace casual");
	say(b, ROOM, "ann", "!start");
	CHECK(t->state == TABLE_PLAYING && t->match_id == 3, "the Rook match starts as match 3");
	drive(b, ev, t, 1000, &r, &rk);
	game_status st;
	memset(&st, 0, sizeof st);
	if (t->g)
		game_status_of(t->g, &st);
	CHECK(t->state == TABLE_OPEN && st.over && st.winner >= 0 && !rk.jumps, "the Rook match ends (%d hands, %d missed)",
	      rk.deals, rk.jumps);
	char matches[64];
	snprintf(matches, sizeof matches, "matches 1 (won %d), ", st.winner == 0);
	want_line(want, sizeof want, &rk, rook_bands, matches);
	snprintf(line, sizeof line, "ann in Rook: %s", want);
	r0 = net.nroom;
	say(b, ROOM, "ann", "!stats");
	got = room_line_from(r0, "ann in Rook: ");
	CHECK(got && !strcmp(got, line), "Rook: !stats gives ann's Rook hands and bands\n  want %s\n  got  %s", line,
	      got ? got : "(nothing)");
	snprintf(line, sizeof line, "Leaderboard for %s in Rook: 1. ann %d/1 matches, %d/%d deals", ROOM, st.winner == 0,
		 rk.won, rk.deals);
	r0 = net.nroom;
	say(b, ROOM, "ann", "!top");
	got = room_line_from(r0, "Leaderboard");
	CHECK(got && !strcmp(got, line), "Rook: !top counts its match and hands\n  want %s\n  got  %s", line,
	      got ? got : "(nothing)");

	/* The table back to 304: only match 1 counts, as 304's lines say it. */
	say(b, ROOM, "ann", "!new 304");
	CHECK(t->gdef == &game_def_304, "the table turns to 304");
	r0 = net.nroom;
	say(b, ROOM, "ann", "!stats ann");
	snprintf(line, sizeof line, "ann: matches 1 (won 1), deals 1 (won 1); bids made: under 200 1/1; caps called 0 "
		 "(right 0); as trumper 1 deals, 200 points on average");
	got = room_line_from(r0, "ann");
	CHECK(got && !strcmp(got, line), "304: !stats counts 304's deal only\n  want %s\n  got  %s", line,
	      got ? got : "(nothing)");
	r0 = net.nroom;
	say(b, ROOM, "ann", "!top");
	snprintf(line, sizeof line, "Leaderboard for %s: 1. ann 1/1 matches, 1/1 deals", ROOM);
	got = room_line_from(r0, "Leaderboard");
	CHECK(got && !strcmp(got, line), "304: !top counts 304's match only\n  want %s\n  got  %s", line,
	      got ? got : "(nothing)");
	int p0 = net.npriv;
	say(b, ROOM, "ann", "!stats nobody");
	CHECK(net.npriv > p0 && !strcmp(net.priv_lines[net.npriv - 1], "No finished deals for nobody yet."),
	      "304: !stats for a stranger says there is nothing");

	/* !history: every game's matches, each named. */
	p0 = net.npriv;
	say(b, ROOM, "ann", "!history");
	const char *h = net.npriv > p0 ? net.priv_lines[net.npriv - 1] : "";
	const char *h3 = strstr(h, "#3 "), *h2 = strstr(h, "#2 "), *h1 = strstr(h, "#1 ");
	CHECK(h3 && h2 && h1 && h3 < h2 && h2 < h1, "!history lists the three matches, newest first: %s", h);
	CHECK(h3 && strstr(h3, " Rook, won by "), "!history: match 3 is Rook's, won: %s", h);
	CHECK(h2 && strstr(h2, " Trump304, stopped: ann, "), "!history: match 2 is Trump304's, stopped, its players: %s", h);
	CHECK(h1 && strstr(h1, " 304, won by ann & c2 (11 : 0)"), "!history: match 1 is 304's, won by ann's team: %s", h);

	p0 = net.npriv;
	say(b, ROOM, "ann", "!help stats");
	CHECK(net.npriv > p0 && strstr(net.priv_lines[net.npriv - 1], "in the table's game")
	      && strstr(net.priv_lines[net.npriv - 1], "trump304: 150-199, 200-249, 250-300, 304; rook: 70-119"),
	      "!help stats says each game's bands: %s", net.npriv > p0 ? net.priv_lines[net.npriv - 1] : "");

	/* !record of the Trump304 and Rook matches, and `cardbot verify`. */
	record_checks(b, dir, 2, "trump304");
	record_checks(b, dir, 3, "rook");

	if (getenv("BOT_STATS_DUMP")) /* every line, to read what players see */
		for (int i = 0; i < net.nroom; i++)
			printf("room: %s\n", net.room_lines[i]);
	if (getenv("BOT_STATS_DUMP"))
		for (int i = 0; i < net.npriv; i++)
			printf("to %s: %s\n", net.priv_to[i], net.priv_lines[i]);
	say(b, ROOM, "ann", "!stop");
	loop_once(ev, 1);
	bot_free(b);
	loop_free(ev);
	store_close(db);
	unlink(path);
	char side[300];
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
	rmdir(dir);
	testnet_free();
	return check_report("bot_stats");
}
