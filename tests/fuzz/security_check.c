/* security_check.c: the rules of docs/SECURITY.md that a test network can check.
 *
 * Drives the bot (bot/host/bot.c, bot/table/table.c) over the test network
 * (tests/unit/bot/testnet.h: the console adapter in the same process, two
 * networks of it), and through the adapter_host callbacks for what no
 * network hands over (text past the adapter's limit, display names with
 * control characters) or the console does not do (CTCP), and checks:
 * the per-user command rate limit (a burst, then a steady rate, one "slow
 * down" notice, other users unaffected); notices are never answered; input
 * limits (over-long text and words are cut, control characters never
 * echoed, excess words dropped, display names cannot carry line breaks
 * into a room); who may stop a table (players by vote, operators by host mask or nick
 * mask, never anyone else, and "account:" entries match only the account
 * the network vouches for).
 * Run by `make test`; prints "security_check: N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
/* (304's header before the host's: its parameters named seat come
 * before the table's seat type) */
#include "g304.h"
#include "adapter.h"
#include "bot.h"
#include "loop.h"
#include "table.h"
#include "text.h"
#include "../unit/bot/testnet.h"

/* The 304 match of a table (its game state is a g304). */
#define G304(t) ((g304 *)(t)->g->state)

#define SENT_MAX 512

static struct sent {
	int room;              /* 1 said in a room, 0 privately */
	char to[ADAPTER_ID_MAX];
	char text[ADAPTER_TEXT_MAX + 64];
} sent[SENT_MAX];
static int nsent;

/* The test network's hook: every line the bot says. */
static void record_send(int room, const char *to, const char *text)
{
	if (nsent >= SENT_MAX)
		return;
	sent[nsent].room = room;
	snprintf(sent[nsent].to, sizeof sent[0].to, "%s", to);
	snprintf(sent[nsent].text, sizeof sent[0].text, "%s", text);
	nsent++;
}

static adapter *net2; /* a second network: net.a is the first */

/* `user` says `text` in `room` (NULL: privately) on network a; flags
 * ADAPTER_NOTICE: as a notice. */
static void say_on(bot *b, adapter *a, const char *room, const char *user, const char *text, int flags)
{
	(void)b;
	testnet_message(a, room, user, NULL, text, flags & ADAPTER_NOTICE);
}

static int count_to(const char *user, const char *containing)
{
	int n = 0;
	for (int i = 0; i < nsent; i++)
		if (!sent[i].room && !strcmp(sent[i].to, user) && (!containing || strstr(sent[i].text, containing)))
			n++;
	return n;
}

static int room_says(const char *containing)
{
	for (int i = 0; i < nsent; i++)
		if (sent[i].room && strstr(sent[i].text, containing))
			return 1;
	return 0;
}

static bot *fresh(loop *ev)
{
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 0;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	if (!b)
		abort();
	net.hook = record_send;
	testnet_open(ev, b, "one");
	net2 = testnet_add(ev, b, "two");
	/* Origins as a server reports them: boss alone comes from home.example.org. */
	testnet_host(net.a, "boss", "home.example.org");
	nsent = 0;
	return b;
}

static void rate_limit(loop *ev)
{
	bot *b = fresh(ev);
	b->cmd_burst = 5;
	b->cmd_per_second = 0.001; /* no refill within the test */
	for (int i = 0; i < 9; i++)
		say(b, "#304", "alice", "!help");
	int answers = count_to("alice", "No table is open here");
	int slow = count_to("alice", "Slow down");
	CHECK(answers == 5, "a burst of 5 commands is taken, the rest ignored: %d answers", answers);
	CHECK(slow == 1, "one slow-down notice for the flood, not one a line: %d", slow);
	say(b, "#304", "bob", "!help");
	CHECK(count_to("bob", "No table is open here") == 1, "another user is not limited by alice's flood");
	say_on(b, net2, "#304", "alice", "!help", 0);
	CHECK(count_to("alice", "No table is open here") == 6, "the same nick on another network has its own limit");
	/* Ordinary conversation costs nothing. */
	nsent = 0;
	b->cmd_burst = 2;
	for (int i = 0; i < 20; i++)
		say(b, "#304", "carol", "hello there, no command here");
	say(b, "#304", "carol", "!help");
	CHECK(count_to("carol", "No table is open here") == 1, "chat without the prefix is not counted");
	bot_free(b);
}

/* Everything a person makes the bot do counts, and a new nick is no fresh
 * allowance (issue 22: a nick change reset the limit; joins, parts and
 * CTCP were not counted at all). Arrivals, departures, nick changes and
 * CTCP share an allowance of their own, so coming back to a table never
 * costs a player their next move. */
static void rate_follows(loop *ev)
{
	bot *b = fresh(ev);
	b->cmd_burst = 5;
	b->cmd_per_second = 0.001;
	/* A network's own answers (IRC's CTCP; the console has none) ask the host directly. */
	adapter_host h = bot_host(b);
	for (int i = 0; i < 5; i++)
		say(b, "#304", "dave", "!help");
	CHECK(count_to("dave", "No table is open here") == 5, "dave's burst is taken");
	testnet_rename(net.a, "dave", "dave2");
	say(b, "#304", "dave2", "!help");
	CHECK(count_to("dave2", "No table is open here") == 0, "a nick change keeps the limit (no fresh allowance)");
	testnet_rename(net.a, "dave2", "dave");
	say(b, "#304", "dave", "!help");
	CHECK(count_to("dave", "No table is open here") == 5, "nor does changing back");
	for (int i = 0; i < 3; i++) {
		testnet_join(net.a, "#304", "erin");
		testnet_part(net.a, "#304", "erin", "");
	}
	CHECK(h.allow(h.ctx, net.a, "erin") == 0, "joins and parts count: past 5 a CTCP is not answered");
	say(b, "#304", "erin", "!help");
	CHECK(count_to("erin", "No table is open here") == 1, "but they leave the command allowance alone");
	int allowed = 0;
	for (int i = 0; i < 9; i++)
		allowed += h.allow(h.ctx, net.a, "frank");
	CHECK(allowed == 5, "a network's own answers (CTCP) are allowed within the limit: %d of 9", allowed);
	testnet_rename(net.a, "frank", "frank2");
	CHECK(h.allow(h.ctx, net.a, "frank2") == 0, "nor does a nick change refill that allowance");
	bot_free(b);
}

static void notices(loop *ev)
{
	bot *b = fresh(ev);
	say_on(b, net.a, "#304", "alice", "!304", ADAPTER_NOTICE);
	say_on(b, net.a, NULL, "alice", "help", ADAPTER_NOTICE);
	CHECK(nsent == 0 && b->ntables == 0, "a notice is never answered nor obeyed (%d lines, %d tables)", nsent,
	      b->ntables);
	bot_free(b);
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static void input_limits(loop *ev)
{
	bot *b = fresh(ev);
	b->cmd_burst = b->cmd_per_second = 1e9;
	say(b, "#304", "alice", "!304");
	CHECK(b->ntables == 1, "a table opens");
	/* An unknown word is echoed in the reply: cut, and without controls. */
	char line[8192];
	memset(line, 'x', sizeof line);
	memcpy(line, "!help ", 6);
	line[sizeof line - 1] = '\0';
	nsent = 0;
	say(b, "#304", "alice", line);
	int longest = 0, run = 0, found = 0;
	for (int i = 0; i < nsent; i++) {
		found++;
		for (const char *c = sent[i].text; *c; c++) {
			run = *c == 'x' ? run + 1 : 0;
			if (run > longest)
				longest = run;
		}
	}
	CHECK(found >= 1, "an over-long word is answered");
	CHECK(longest <= 64, "a word is cut at 64 bytes before it is echoed (longest run %d)", longest);
	nsent = 0;
	say(b, "#304", "alice", "!help \x03" "4red\x02" "bold\x07\x1b[31m");
	CHECK(nsent >= 1, "a word with control characters is answered");
	for (int i = 0; i < nsent; i++)
		CHECK(!has_control(sent[i].text), "no control character is echoed: \"%s\"", sent[i].text);
	/* A UTF-8 word over the limit is cut at a character boundary. */
	char wide[512] = "!help ";
	for (int i = 0; i < 40; i++)
		strcat(wide, "\xe2\x99\xa0"); /* ♠, 3 bytes */
	nsent = 0;
	say(b, "#304", "alice", wide);
	for (int i = 0; i < nsent; i++) {
		const char *q = strchr(sent[i].text, '"');
		const char *e = q ? strchr(q + 1, '"') : NULL;
		CHECK(q && e && (e - q - 1) % 3 == 0 && e - q - 1 <= 64,
		      "an over-long UTF-8 word is cut between characters: \"%s\"", sent[i].text);
	}
	/* Words past the twelfth are dropped: 20 cards named in a caps call
	 * are refused as a usage error, not parsed. */
	nsent = 0;
	say(b, "#304", "alice", "!caps 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20");
	CHECK(nsent >= 1 && count_to("alice", NULL) == nsent, "too many words: a private answer only");
	/* Text past the adapter's limit is cut, not overrun: by the network
	 * (the console cuts it to ADAPTER_TEXT_MAX), and by the host itself
	 * when handed more than any network would (the console refuses a
	 * line this long whole, so it goes to the host directly). */
	static char huge[64 * 1024];
	memset(huge, 'y', sizeof huge - 1);
	memcpy(huge, "!sit ", 5);
	huge[3 * ADAPTER_TEXT_MAX] = '\0';
	nsent = 0;
	say(b, "#304", "bob", huge);
	CHECK(nsent >= 1, "an over-long line from the network is answered");
	for (int i = 0; i < nsent; i++)
		CHECK(strlen(sent[i].text) < 1024, "the answer stays short (%zu bytes)", strlen(sent[i].text));
	huge[3 * ADAPTER_TEXT_MAX] = 'y';
	nsent = 0;
	adapter_host h = bot_host(b);
	h.message(h.ctx, net.a, "#304", "bob", "bob", huge, 0);
	CHECK(nsent >= 1, "an over-long line handed to the host is answered");
	for (int i = 0; i < nsent; i++)
		CHECK(strlen(sent[i].text) < 1024, "the answer stays short (%zu bytes)", strlen(sent[i].text));
	/* A display name (Matrix lets people choose any) cannot forge a line
	 * of the bot's: its line breaks and colour codes are dropped (the
	 * console refuses such a name: straight to the host). */
	nsent = 0;
	h.message(h.ctx, net.a, "#other", "mallory", "evil\r\nalice wins\x03" "4", "!304", 0);
	int shown = 0;
	for (int i = 0; i < nsent; i++) {
		CHECK(!has_control(sent[i].text), "a name's control characters never reach a room: \"%s\"", sent[i].text);
		shown += strstr(sent[i].text, "evilalice wins4") != NULL;
	}
	CHECK(shown >= 1, "the name is shown without them");
	bot_free(b);
}

static void operators(loop *ev)
{
	bot *b = fresh(ev);
	b->cmd_burst = b->cmd_per_second = 1e9;
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "boss!*@home.example.org");
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "account:eve");
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "CAROL");
	CHECK(bot_is_operator(b, net.a, "boss"), "a host mask matches the origin the network reports");
	CHECK(!bot_is_operator(b, net.a, "bossy"), "a mask matches whole origins only");
	CHECK(!bot_is_operator(b, net.a, "eve"), "an account: entry does not match a nick of that name");
	CHECK(bot_is_operator(b, net.a, "account:EVE"), "an account: entry matches the logged-in account, ignoring case");
	CHECK(!bot_is_operator(b, net.a, "account:evelyn"), "an account: entry matches the whole account name only");
	CHECK(bot_is_operator(b, net.a, "carol"), "a mask without '!' matches the nick, ignoring case");
	CHECK(!bot_is_operator(b, net.a, "alice"), "anyone else is no operator");

	say(b, "#304", "alice", "!304");
	say(b, "#304", "bob", "!sit");
	CHECK(b->ntables == 1, "a table opens with two players");
	nsent = 0;
	say(b, "#304", "eve", "!stop");
	CHECK(!b->tables[0]->closing, "a spectator cannot stop a table");
	CHECK(count_to("eve", "do not have a seat") == 1, "and is told why, privately");
	say(b, "#304", "alice", "!stop");
	CHECK(!b->tables[0]->closing, "one player of two is no majority");
	say(b, "#304", "boss", "!stop");
	CHECK(b->tables[0]->closing, "an operator (host mask) stops any table");
	CHECK(room_says("stops the table"), "the room is told who stopped it");
	loop_once(ev, 0);
	CHECK(b->ntables == 0, "the stopped table is freed");

	say(b, "#304", "alice", "!304");
	say(b, "#304", "bob", "!sit");
	say(b, "#304", "alice", "!stop");
	say(b, "#304", "bob", "!stop");
	CHECK(b->ntables == 1 && b->tables[0]->closing, "the players together stop their table");
	loop_once(ev, 0);

	/* During a game a spectator changes nothing. */
	say(b, "#304", "alice", "!304");
	say(b, "#304", "alice", "!bot");
	say(b, "#304", "alice", "!bot");
	say(b, "#304", "alice", "!bot");
	say(b, "#304", "alice", "!start");
	loop_once(ev, 0);
	table *t = b->ntables == 1 ? b->tables[0] : NULL;
	CHECK(t && t->state == TABLE_PLAYING, "a game with three computer players starts");
	if (t) {
		game_choices rules = t->set.options;
		int deal = G304(t)->deal_no;
		nsent = 0;
		say(b, "#304", "eve", "!set caps off");
		say(b, "#304", "eve", "!bid 60");
		say(b, "#304", "eve", "!pass");
		say(b, NULL, "eve", "#304 play 1");
		say(b, "#304", "eve", "!unbot 2");
		CHECK(!memcmp(&rules, &t->set.options, sizeof rules) && G304(t)->deal_no == deal && t->seats[1].computer,
		      "a spectator's commands change nothing in a game");
		CHECK(count_to("eve", NULL) == 5 && nsent == 5, "each is refused privately (%d lines)", nsent);
	}
	bot_free(b);
}

int main(void)
{
	loop *ev = loop_new();
	if (!ev)
		return 1;
	rate_limit(ev);
	rate_follows(ev);
	notices(ev);
	input_limits(ev);
	operators(ev);
	loop_free(ev);
	testnet_free();
	return check_report("security_check");
}
