/* bot_input.c: odd input through the bot core, with a real SQLite file over
 * the test network (testnet.h): words split at any whitespace or control
 * character, a private line naming only a channel, numbers out of range or
 * with text after them, and channel settings recalled from the database.
 * Whatever is refused gets a usage line and nothing of it is said in the
 * room. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bot.h"
#include "check.h"
#include "loop.h"
#include "store.h"
#include "table.h"
#include "testnet.h"

/* The private lines since mark, joined. */
static const char *priv_since(int mark)
{
	static char all[65536];
	all[0] = '\0';
	for (int i = mark; i < net.npriv; i++) {
		size_t n = strlen(all);
		snprintf(all + n, sizeof all - n, "%s\n", net.priv_lines[i]);
	}
	return all;
}

static int room_has(int mark, const char *what)
{
	for (int i = mark; i < net.nroom; i++)
		if (strstr(net.room_lines[i], what))
			return 1;
	return 0;
}

/* Valid UTF-8 (no sequence cut short or broken). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
		if (n < 0)
			return 0;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

struct found {
	char think[64], fives[64];
	int n;
};

static void collect(void *ctx, const char *option, const char *value)
{
	struct found *f = ctx;
	f->n++;
	if (!strcmp(option, "think"))
		snprintf(f->think, sizeof f->think, "%s", value);
	if (!strcmp(option, "fives"))
		snprintf(f->fives, sizeof f->fives, "%s", value);
}

int main(void)
{
	char dir[] = "/tmp/cardbot-input-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[256];
	snprintf(path, sizeof path, "%s/cardbot.db", dir);
	char err[STORE_ERR_MAX];
	store *db = store_open(path, err, sizeof err);
	CHECK(db != NULL, "the database opens: %s", db ? "" : err);
	if (!db)
		return check_report("bot_input");

	loop *ev = loop_new();
	table_settings set;
	table_settings_default(&set);
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	testnet_open(ev, b, "fake");

	say(b, "#304", "ann", "!304");
	CHECK(b->ntables == 1, "!304 opens a table");
	table *t = b->tables[0];

	/* Whitespace and control characters separate words. */
	int m = net.npriv;
	say(b, "#304", "ann", "!help\tsit");
	CHECK(!strstr(priv_since(m), "helpsit") && strstr(priv_since(m), "sit [SEAT]"),
	      "\"!help<TAB>sit\" is help for sit: %s", priv_since(m));
	m = net.npriv;
	say(b, "#304", "ann", "!bid\tx");
	CHECK(!strstr(priv_since(m), "bidx") && net.npriv > m, "\"!bid<TAB>x\" is not \"bidx\": %s", priv_since(m));
	m = net.npriv;
	say(b, "#304", "ann", "!bi\x02" "d 60");
	CHECK(strstr(priv_since(m), "\"bi\"") && !strstr(priv_since(m), "\"bid\""),
	      "a control character inside a word does not vanish into it: %s", priv_since(m));
	m = net.npriv;
	say(b, "#304", "ann", "!help\x03" "04,01sit");
	CHECK(strstr(priv_since(m), "sit [SEAT]") != NULL, "a colour code with its numbers separates words: %s",
	      priv_since(m));
	m = net.npriv;
	int r0 = net.nroom;
	say(b, "#304", "ann", "!table\r\n");
	CHECK(net.npriv + net.nroom > m + r0 && !strstr(priv_since(m), "I do not know"),
	      "a line ending after the command is space");

	/* A private line with a channel and nothing else. */
	m = net.npriv;
	say(b, NULL, "ann", "#304");
	CHECK(strstr(priv_since(m), "usage: /msg cardbot #304 COMMAND") != NULL,
	      "\"/msg cardbot #304\" gets a usage line naming the channel: %s", priv_since(m));
	m = net.npriv;
	say(b, NULL, "ann", "#304 table");
	CHECK(strstr(priv_since(m), "usage") == NULL && net.npriv > m, "\"/msg cardbot #304 table\" still works");

	/* !set: numbers out of range and text after a value are refused, and
	 * nothing of them is said in the room. */
	int r = net.nroom;
	int think = t->set.computer_think_ms;
	m = net.npriv;
	say(b, "#304", "ann", "!set think 4294967396");
	CHECK(t->set.computer_think_ms == think && strstr(priv_since(m), "the choices are 10-10000") && !room_has(r, "think"),
	      "!set think 4294967396 gets think's choices (think %d)", t->set.computer_think_ms);
	m = net.npriv;
	say(b, "#304", "ann", "!set think 18446744073709551716");
	CHECK(t->set.computer_think_ms == think && strstr(priv_since(m), "the choices are 10-10000") && !room_has(r, "think"),
	      "!set think with a number past 64 bits gets think's choices");
	m = net.npriv;
	say(b, "#304", "ann", "!set think 500\xe2\x80\xae" "evil");
	CHECK(t->set.computer_think_ms == think && strstr(priv_since(m), "the choices are 10-10000") && !room_has(r, "\xe2\x80\xae")
	      && !room_has(r, "think"), "!set think 500<RLO>evil is refused and nothing is echoed");
	say(b, "#304", "ann", "!set think 500x");
	say(b, "#304", "ann", "!set think +500");
	say(b, "#304", "ann", "!set think 500 600");
	CHECK(t->set.computer_think_ms == think && !room_has(r, "think"), "500x, +500 and \"500 600\" are refused");
	say(b, "#304", "ann", "!set think 500");
	CHECK(t->set.computer_think_ms == 500 && room_has(r, "think is now 500"), "!set think 500 is taken");
	say(b, "#304", "ann", "!set FIVES On");
	CHECK(game_choices_get(&t->set.options, "fives") == 1 && room_has(r, "fives is now on"),
	      "!set FIVES On is told as the bot knows it: fives on");
	struct found f = { "", "", 0 };
	store_channel_each(db, "fake", "#304", collect, &f);
	CHECK(!strcmp(f.think, "500") && !strcmp(f.fives, "on"), "stored as the bot knows them: think %s, fives %s",
	      f.think, f.fives);

	/* !new GAME PLAYERS with a number past an int. */
	m = net.npriv;
	r = net.nroom;
	say(b, "#304", "ann", "!new trump304 4294967299");
	CHECK(t->gdef == &game_def_304 && t->nseats == 4 && strstr(priv_since(m), "Nothing changed") && net.nroom == r,
	      "!new trump304 4294967299 is refused (%d seats)", t->nseats);
	say(b, "#304", "ann", "!new trump304 3x");
	CHECK(t->gdef == &game_def_304 && net.nroom == r, "!new trump304 3x is refused");
	int tables = b->ntables;
	say(b, "#other", "ann", "!new trump304 4294967299");
	CHECK(b->ntables == tables, "!new trump304 4294967299 opens no table where there is none");
	say(b, "#304", "ann", "!new trump304 3");
	CHECK(t->gdef == &game_def_trump304 && t->nseats == 3, "!new trump304 3 is taken");
	say(b, "#304", "ann", "!new 304");

	/* Settings recalled at the channel's next table: a value stored by an
	 * older cardbot as typed, too long to be one !set takes, is skipped
	 * whole, never cut inside a character. */
	store_channel_set(db, "fake", "#304", "think",
			  "6000\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	store_channel_set(db, "fake", "#304", "pace", "live\xe2\x80\xae");
	say(b, "#304", "ann", "!stop");
	loop_once(ev, 5);
	CHECK(b->ntables == 0, "the table is stopped");
	r = net.nroom;
	say(b, "#304", "ann", "!304");
	t = b->tables[0];
	int recalled = 0, clean = 1;
	for (int i = r; i < net.nroom; i++) {
		clean &= utf8_ok(net.room_lines[i]) && !strstr(net.room_lines[i], "\xc3\xa9")
			 && !strstr(net.room_lines[i], "\xe2\x80\xae");
		recalled |= strstr(net.room_lines[i], "choices from earlier tables: fives on") != NULL;
	}
	CHECK(recalled, "the valid choices are recalled");
	CHECK(clean, "nothing cut mid-character or as typed is recalled");
	CHECK(t->set.computer_think_ms != 6000 && t->set.pace != PACE_LIVE, "the bad values are not applied");
	for (int i = r; i < net.nroom && getenv("BI_VERBOSE"); i++)
		fprintf(stderr, "room: %s\n", net.room_lines[i]);

	bot_free(b);
	testnet_free();
	loop_free(ev);
	store_close(db);
	char rm[300];
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	if (system(rm) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_report("bot_input");
}
