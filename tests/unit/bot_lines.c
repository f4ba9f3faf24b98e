/* bot_lines.c: what a new user reads (issue 19, section 2), over the test
 * network (testnet.h): help with no table, the deal told before its hands
 * in every game (and after a restart), the stop vote's count, the opening
 * line, pcc (the partner sitting out; a lost pcc played out at once), the
 * turn prompt of the eight-card round, the last card being the trump card,
 * refused moves marked in the room (bounded), and short deal-end lines. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bot.h"
#include "check.h"
#include "g304.h"
#include "loop.h"
#include "render.h"
#include "store.h"
#include "table.h"
#include "table_int.h"
#include "testnet.h"

#define G304(t) ((g304 *)(t)->g->state)

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

static int priv_has(int from, const char *to, const char *needle)
{
	for (int i = from; i < net.npriv; i++)
		if (!strcmp(net.priv_to[i], to) && strstr(net.priv_lines[i], needle))
			return 1;
	return 0;
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
