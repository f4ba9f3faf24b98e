/* play.c: `cardbot play`: one table in the terminal, the person against computer players, no server and no litter. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bot.h"
#include "console.h"
#include "game.h"
#include "present.h"
#include "log.h"
#include "loop.h"
#include "play.h"
#include "rng.h"
#include "store.h"

#define PLAY_ROOM "#table"          /* the one table's room, as its lines name it */
#define PLAY_NETWORK "console"      /* the network's name (kept with games in --data) */
#define PLAY_NAME "player"        /* who plays, when $USER will not do */
#define PLAY_DELAY_MS 700           /* a computer player's pause: time to read what happened */
#define PLAY_DEAL_PAUSE_MS 2000     /* between deals */
#define PLAY_CUT_OFFER_MS 8000      /* the cut offered before a 304 deal waits this long */
#define PLAY_TICK_MS 500            /* the loop wakes at least this often to look around */

typedef struct player {
	loop *ev;
	bot *b;
	adapter *con;
	int stopping;
	const game_def *def;
	rng decks;                  /* --seed: the decks, one after another */
	char user[32];              /* the person's name at the table */
} player;

/* A name is letters, digits, '-' and '_' (it is the person's id on the console network too). */
static int good_name(const char *s)
{
	if (!s || !*s || strlen(s) >= 32)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-'
		      || *s == '_'))
			return 0;
	return 1;
}

static void on_stop_signal(void *ctx, int sig)
{
	(void)sig;
	player *p = ctx;
	p->stopping = 1;
}

/* With --seed, every deal takes the next deck of a generator seeded with
 * it, through the tables' deck source (table_host.deck); 304's pack is
 * shuffled by rng_shuffle_deck, so a seed deals what it always dealt. */
static int seeded_deck(void *ctx, const game_def *def, uint8_t *deck)
{
	player *p = ctx;
	if (def == &game_def_304) {
		card d[CARD_COUNT];
		rng_shuffle_deck(&p->decks, d);
		memcpy(deck, d, CARD_COUNT);
	} else {
		game_shuffle(def, &p->decks, deck);
	}
	return 1;
}

/* A directory of our own for the database: --data's, kept, or a fresh one, removed at the end. */
static int data_dir(const char *want, char *dir, size_t len)
{
	struct stat st;
	if (want) {
		if (mkdir(want, 0700) < 0 && (errno != EEXIST || stat(want, &st) < 0 || !S_ISDIR(st.st_mode))) {
			fprintf(stderr, "play: cannot make the directory %s: %s\n", want,
				errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
			return -1;
		}
		snprintf(dir, len, "%s", want);
		return 0;
	}
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	int n = snprintf(dir, len, "%s/cardbot-play-XXXXXX", tmp);
	if (n < 0 || (size_t)n >= len || !mkdtemp(dir)) {
		fprintf(stderr, "play: cannot make a temporary directory in %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static void remove_temp(const char *dir)
{
	static const char *const files[] = { "cardbot.db", "cardbot.db-wal", "cardbot.db-shm", "cardbot.db-journal" };
	char f[4200];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(f, sizeof f, "%s/%s", dir, files[i]);
		unlink(f);
	}
	if (rmdir(dir) < 0)
		fprintf(stderr, "play: could not remove %s: %s\n", dir, strerror(errno));
}

static void usage(FILE *f)
{
	fputs("usage: cardbot play [--game 304|304six|304eight|304six24|504|904|trump304|rook] [--players N] [--seed N]\n"
	      "                    [--name NAME] [--data DIR] [--delay MS] [--json] [-v]\n"
	      "\n"
	      "Opens a table in the terminal: you against computer players, no server\n"
	      "needed. Type the table's commands, with or without '!': bid 160, pass,\n"
	      "play js (or p 3, the third card of your hand), hand, table, hint, help.\n"
	      "Lines only you may see are marked (private). stop ends the table, and\n"
	      "new GAME [PLAYERS] then opens another, seated and dealt like the first;\n"
	      "quit, or the end of input, ends it all.\n"
	      "\n"
	      "  --game GAME   304 (the default), 304six (304 for six players), 304eight\n"
	      "                (304 for eight), 304six24 (short 304 for six, 24 cards),\n"
	      "                504 (Tamil Nadu's, six players), 904 (eight), trump304 or rook\n"
	      "  --players N   how many sit at the table, you and computer players: 4,\n"
	      "                6 or 8 for 304, 2, 3 or 4 for trump304 (default: the\n"
	      "                game's most)\n"
	      "  --seed N      every deck comes from this number, the same each run\n"
	      "                (who deals first, and what computer players choose,\n"
	      "                do not)\n"
	      "  --name NAME   your name at the table (default: $USER)\n"
	      "  --data DIR    keep the database in DIR (made if missing): the game and\n"
	      "                your statistics are there next time. Without it nothing\n"
	      "                is kept: the database lives in a temporary directory\n"
	      "  --delay MS    a computer player's pause before it moves (default 700)\n"
	      "  --json        JSON lines instead of text (the console adapter's JSON\n"
	      "                mode; see docs/cardbot.1): for programs, not people\n"
	      "  -v            log at info level on standard error (default: warnings)\n"
	      "  -h, --help    show this help\n",
	      f);
}

static int number(const char *opt, const char *s, long long min, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "play: %s wants a number from %lld to %lld, not '%s'\n", opt, min, max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int play_main(int argc, char **argv)
{
	const char *gname = present_at(0)->def->name, *data = NULL, *name = getenv("USER");
	long long seed = 0, delay = PLAY_DELAY_MS, players = 0;
	int seeded = 0, json = 0, verbose = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return fflush(stdout) ? 1 : 0;
		} else if (!strcmp(a, "--game") && has) {
			gname = argv[++i];
		} else if (!strcmp(a, "--seed") && has) {
			if (number(a, argv[++i], 0, (long long)(~0ULL >> 1), &seed) < 0)
				return 64;
			seeded = 1;
		} else if (!strcmp(a, "--name") && has) {
			name = argv[++i];
			if (!good_name(name)) {
				fprintf(stderr, "play: --name wants letters, digits, - and _ (at most 31), not '%s'\n", name);
				return 64;
			}
		} else if (!strcmp(a, "--data") && has) {
			data = argv[++i];
		} else if (!strcmp(a, "--players") && has) {
			if (number(a, argv[++i], 1, GAME_MAX_SEATS, &players) < 0)
				return 64;
		} else if (!strcmp(a, "--delay") && has) {
			if (number(a, argv[++i], 0, 60000, &delay) < 0)
				return 64;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else {
			int valued = !strcmp(a, "--game") || !strcmp(a, "--seed") || !strcmp(a, "--name")
				     || !strcmp(a, "--data") || !strcmp(a, "--delay") || !strcmp(a, "--players");
			fprintf(stderr, "play: %s '%s'\n", valued ? "a value is missing after" : "unknown argument", a);
			usage(stderr);
			return 64;
		}
	}
	player p;
	memset(&p, 0, sizeof p);
	p.def = game_find(gname);
	if (!p.def) {
		fprintf(stderr, "play: there is no game '%s': 304, 304six, 304eight, 304six24, 504, 904, trump304 or rook\n", gname);
		return 64;
	}
	/* "--game 304 --players 6" is 304 for six, as "!new 304 6" is (8: for eight). */
	p.def = game_find(table_game_word(p.def->name, (int)players));
	if (players && (players < p.def->min_seats || players > p.def->max_seats)) {
		if (p.def->min_seats == p.def->max_seats)
			fprintf(stderr, "play: %s is played by %d players, not %lld\n", p.def->name, p.def->max_seats, players);
		else
			fprintf(stderr, "play: %s is played by %d to %d players, not %lld\n", p.def->name, p.def->min_seats,
				p.def->max_seats, players);
		return 64;
	}
	snprintf(p.user, sizeof p.user, "%s", good_name(name) ? name : PLAY_NAME);
	rng_seed(&p.decks, (uint64_t)seed);
	log_set_level(verbose ? LOG_INFO : LOG_WARN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);

	char dir[4096];
	if (data_dir(data, dir, sizeof dir) < 0)
		return 73;
	char path[4200];
	snprintf(path, sizeof path, "%s/cardbot.db", dir);
	char err[STORE_ERR_MAX];
	store *db = store_open(path, err, sizeof err);
	if (!db) {
		fprintf(stderr, "play: %s\n", err);
		if (!data)
			remove_temp(dir);
		return 74;
	}

	table_settings defaults;
	table_settings_default(&defaults);
	snprintf(defaults.game, sizeof defaults.game, "%s", p.def->name);
	defaults.computer_delay_ms = (int)delay;
	defaults.deal_pause_ms = PLAY_DEAL_PAUSE_MS;
	/* With --seed the decks are fixed, and no cut is offered: a seed
	 * deals the same deals whatever is typed. */
	defaults.cut_offer_ms = seeded ? 0 : PLAY_CUT_OFFER_MS;
	p.ev = loop_new();
	p.b = p.ev ? bot_new(p.ev, &defaults, "!") : NULL;
	int status = 0;
	if (!p.b) {
		fprintf(stderr, "play: out of memory\n");
		status = 70;
		goto out;
	}
	p.b->db = db;
	if (seeded) {
		p.b->thost.deck = seeded_deck;
		p.b->thost.deck_ctx = &p;
	}
	/* One person typing: no need to slow them down. */
	p.b->cmd_burst = 1000;
	p.b->cmd_per_second = 1000;
	p.b->solo = 1;
	adapter_host host = bot_host(p.b);
	console_settings cs;
	console_settings_default(&cs);
	cs.human = !json;
	cs.colour = !json && isatty(cs.out_fd) && !getenv("NO_COLOR");
	snprintf(cs.user, sizeof cs.user, "%s", p.user);
	snprintf(cs.home, sizeof cs.home, "%s", PLAY_ROOM); /* `new` after `stop` opens a table here */
	p.con = console_adapter_new(p.ev, &host, PLAY_NETWORK, &cs);
	if (!p.con || bot_add_network(p.b, p.con) < 0) {
		if (p.con)
			p.con->ops->free(p.con);
		fprintf(stderr, "play: out of memory\n");
		status = 70;
		goto out;
	}
	p.con->ops->start(p.con);
	int restored = bot_restore(p.b);
	if (restored > 0) {
		if (!json) {
			/* Before anything the adapter writes (from the loop). */
			printf("(cardbot) the table kept in %s is back; type table to see it, hand for your cards\n", dir);
			fflush(stdout);
		}
	} else {
		bot_open_full(p.b, p.con, PLAY_ROOM, p.user, p.def->name, (int)players);
	}
	if (seeded && p.b->ntables > 0)
		rng_seed(&p.b->tables[0]->dice, (uint64_t)seed ^ 0x9e3779b97f4a7c15ULL);
	loop_on_signal(p.ev, SIGTERM, on_stop_signal, &p);
	loop_on_signal(p.ev, SIGINT, on_stop_signal, &p);
	while (!p.stopping && !console_finished(p.con)) {
		loop_once(p.ev, PLAY_TICK_MS);
	}
	console_flush(p.con, 1000);
out:
	bot_free(p.b);
	loop_free(p.ev);
	store_close(db);
	if (!data)
		remove_temp(dir);
	return status;
}
