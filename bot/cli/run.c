/* run.c: `cardbot run`: load the configuration, connect every network, host tables until told to stop. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "bot.h"
#include "config.h"
#include "console.h"
#include "irc.h"
#include "log.h"
#include "loop.h"
#include "matrix.h"
#include "present.h"
#include "run.h"
#include "store.h"

#define STOP_GRACE_MS 1500 /* time for goodbyes to leave before the loop ends */
#define STORE_CHECK_MS 2000 /* how often the database file is looked for (one stat) */

typedef struct runner {
	loop *ev;
	bot *b;
	config cfg;
	int stopping;
	store *db;
	const char *path;          /* the config file (NULL: built in) */
} runner;

static void settings_from(const config *cfg, const config_table *ct, table_settings *out)
{
	table_settings_default(out);
	/* The room's language: the channel's or [tables]', else the bot's. */
	const text_lang *l = text_lang_find(ct->lang[0] ? ct->lang : cfg->bot.language);
	snprintf(out->lang, sizeof out->lang, "%s", l ? l->code : "en");
	out->options = ct->options;
	out->pace = ct->pace == CONFIG_PACE_LIVE ? PACE_LIVE
		: ct->pace == CONFIG_PACE_CORRESPONDENCE ? PACE_CORRESPONDENCE : PACE_CASUAL;
	out->live_turn_seconds = ct->live_turn_seconds;
	out->corr_remind_seconds = ct->correspondence_reminder_hours * 3600;
	out->grace_seconds = ct->grace_seconds;
	out->casual_remind_seconds = ct->casual_reminder_minutes * 60;
	out->deal_pause_ms = ct->deal_pause_ms;
	out->cut_offer_ms = ct->cut_offer_seconds * 1000;
	out->computer_delay_ms = ct->computer_delay_ms;
	out->computer_easy = ct->computer_level == CONFIG_LEVEL_EASY;
	out->computer_level = ct->computer_level == CONFIG_LEVEL_STRONG ? GAME_AI_STRONG : GAME_AI_NORMAL;
	out->computer_think_ms = ct->computer_think_ms;
	out->hints = ct->hints;
	out->lastcard = ct->lastcard;
	snprintf(out->game, sizeof out->game, "%s", ct->game);
}

static void settings_for(void *ctx, adapter *net, const char *room, table_settings *out)
{
	runner *r = ctx;
	for (int i = 0; i < r->cfg.nnetworks; i++)
		if (!strcmp(r->cfg.networks[i].name, net->name)) {
			settings_from(&r->cfg, config_channel_table(&r->cfg, &r->cfg.networks[i], net, room), out);
			out->brief = r->cfg.networks[i].rate_limited;
			return;
		}
	settings_from(&r->cfg, &r->cfg.tables, out);
}

static void end_loop(void *ctx)
{
	runner *r = ctx;
	loop_stop(r->ev);
}

static void on_stop_signal(void *ctx, int sig)
{
	runner *r = ctx;
	if (r->stopping) {
		loop_stop(r->ev); /* a second signal: leave at once */
		return;
	}
	r->stopping = 1;
	log_msg(LOG_INFO, NULL, "signal %d: saying goodbye and stopping", sig);
	for (int i = 0; i < r->b->nnets; i++)
		r->b->nets[i]->ops->stop(r->b->nets[i], "cardbot is stopping; games resume when it is back");
	loop_timer(r->ev, STOP_GRACE_MS, end_loop, r);
}

/* Applies what a reload may change while tables play: the bot's
 * settings, table defaults, and each network's channels. */
static void apply_bot_settings(runner *r)
{
	bot *b = r->b;
	settings_from(&r->cfg, &r->cfg.tables, &b->defaults);
	snprintf(b->prefix, sizeof b->prefix, "%s", r->cfg.bot.prefix);
	b->cmd_burst = r->cfg.bot.commands_burst;
	b->cmd_per_second = r->cfg.bot.commands_per_minute / 60.0;
	b->noperators = 0;
	for (int i = 0; i < r->cfg.bot.noperators && i < BOT_OPERATORS_MAX; i++)
		snprintf(b->operators[b->noperators++], sizeof b->operators[0], "%s%s",
			 r->cfg.bot.operators[i].kind == CONFIG_OPERATOR_ACCOUNT ? "account:" : "",
			 r->cfg.bot.operators[i].text);
	/* config_log_level and log_level list the levels in the same order. */
	log_set_level(r->cfg.bot.log_level);
	snprintf(b->public_dir, sizeof b->public_dir, "%s", r->cfg.bot.public_dir);
	snprintf(b->public_url, sizeof b->public_url, "%s", r->cfg.bot.public_url);
}

static void on_hup(void *ctx, int sig)
{
	(void)sig;
	runner *r = ctx;
	if (!r->path) {
		log_msg(LOG_INFO, NULL, "SIGHUP: the bot runs on its built-in configuration; nothing to reload");
		return;
	}
	config fresh;
	memset(&fresh, 0, sizeof fresh);
	config_errors errs = { 0 };
	int nerr = config_load(r->path, &fresh, &errs);
	config_errors_print(&errs, stderr);
	config_errors_free(&errs);
	if (nerr) {
		log_msg(LOG_ERROR, NULL, "SIGHUP: %s has errors (above); the running configuration is kept", r->path);
		config_free(&fresh);
		return;
	}
	/* Networks are connections: adding, removing or changing one needs a
	 * restart. Their channels follow the new file. */
	int same = fresh.nnetworks == r->cfg.nnetworks;
	for (int i = 0; same && i < fresh.nnetworks; i++)
		same = !strcmp(fresh.networks[i].name, r->cfg.networks[i].name)
		       && fresh.networks[i].type == r->cfg.networks[i].type;
	if (strcmp(fresh.bot.data_dir, r->cfg.bot.data_dir))
		log_msg(LOG_WARN, NULL, "SIGHUP: bot.data_dir changed; the database moves only on a restart");
	if (!same)
		log_msg(LOG_WARN, NULL, "SIGHUP: the list of networks changed; that takes a restart (channels, tables "
				"and bot settings are reloaded now)");
	for (int i = 0; same && i < fresh.nnetworks; i++) {
		if (fresh.networks[i].type == CONFIG_NETWORK_MATRIX) {
			/* Rooms newly listed are joined; rooms taken off the list are
			 * kept (the bot may have been invited there too). */
			adapter *m = NULL;
			for (int k = 0; k < r->b->nnets; k++)
				if (!strcmp(r->b->nets[k]->name, fresh.networks[i].name))
					m = r->b->nets[k];
			const matrix_settings *ms = &fresh.networks[i].matrix, *mo = &r->cfg.networks[i].matrix;
			for (int c = 0; m && c < ms->nrooms; c++) {
				int known = 0;
				for (int d = 0; d < mo->nrooms && !known; d++)
					known = !strcmp(ms->rooms[c], mo->rooms[d]);
				if (!known)
					m->ops->join(m, ms->rooms[c], NULL);
			}
			continue;
		}
		if (fresh.networks[i].type != CONFIG_NETWORK_IRC)
			continue;
		adapter *a = NULL;
		for (int k = 0; k < r->b->nnets; k++)
			if (!strcmp(r->b->nets[k]->name, fresh.networks[i].name))
				a = r->b->nets[k];
		if (!a)
			continue;
		const irc_settings *old = &r->cfg.networks[i].irc, *new = &fresh.networks[i].irc;
		for (int c = 0; c < new->nchannels; c++)
			a->ops->join(a, new->channels[c].name, new->channels[c].key);
		for (int c = 0; c < old->nchannels; c++) {
			int kept = 0;
			for (int d = 0; d < new->nchannels && !kept; d++)
				kept = adapter_same_room(a, old->channels[c].name, new->channels[d].name);
			int busy = 0;
			for (int k = 0; k < r->b->ntables; k++)
				busy |= r->b->tables[k]->net == a &&
					adapter_same_room(a, r->b->tables[k]->room, old->channels[c].name)
					&& r->b->tables[k]->state == TABLE_PLAYING;
			if (!kept && !busy)
				a->ops->part(a, old->channels[c].name, "no longer in my configuration");
			else if (!kept)
				log_msg(LOG_WARN, NULL, "SIGHUP: %s is no longer configured, but a game is on there; staying",
					old->channels[c].name);
		}
	}
	if (same) {
		/* The adapters keep pointers into their own copies of the
		 * settings; only the bot's side is swapped. */
		config old = r->cfg;
		r->cfg = fresh;
		config_free(&old);
	} else {
		config_bot keep_bot = fresh.bot;
		config_table keep_tables = fresh.tables;
		config_free(&fresh);
		r->cfg.bot = keep_bot;
		r->cfg.tables = keep_tables;
	}
	apply_bot_settings(r);
	log_msg(LOG_INFO, NULL, "SIGHUP: reloaded %s", r->path);
}

static void check_store(void *ctx)
{
	runner *r = ctx;
	bot_check_store(r->b);
	loop_timer(r->ev, STORE_CHECK_MS, check_store, r);
}

/* The database holds the decks and salts of deals in play: its files are
 * its owner's alone (older cardbots made them 0644), and a data_dir that
 * others may enter is worth a warning. */
static void tighten_modes(const char *dir, const char *path)
{
	struct stat st;
	if (stat(dir, &st) == 0 && (st.st_mode & 077))
		log_msg(LOG_WARN, NULL, "the data directory %s may be read or entered by group or others (mode %04o): "
				"chmod 700 %s", dir, (unsigned)(st.st_mode & 07777), dir);
	static const char *const sides[] = { "", "-wal", "-shm", "-journal" };
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		char f[CONFIG_PATH_MAX + 32];
		snprintf(f, sizeof f, "%s%s", path, sides[i]);
		if (stat(f, &st) < 0 || !(st.st_mode & 077))
			continue;
		if (chmod(f, st.st_mode & 0700) == 0)
			log_msg(LOG_WARN, NULL, "%s could be read by group or others (mode %04o); it is now %04o", f,
				(unsigned)(st.st_mode & 07777), (unsigned)(st.st_mode & 0700));
		else
			log_msg(LOG_WARN, NULL, "%s may be read by group or others (mode %04o), and cannot be changed: "
					"%s", f, (unsigned)(st.st_mode & 07777), strerror(errno));
	}
}

/* Opens (creating) data_dir and the database in it. */
static store *open_store(const config *cfg)
{
	const char *dir = cfg->bot.data_dir;
	struct stat st;
	if (mkdir(dir, 0700) < 0 && (errno != EEXIST || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "run: cannot create the data directory %s: %s (bot.data_dir)\n", dir,
			errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
		return NULL;
	}
	char path[CONFIG_PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/cardbot.db", dir);
	char err[STORE_ERR_MAX];
	store *db = store_open(path, err, sizeof err);
	if (!db) {
		fprintf(stderr, "run: %s\n", err);
		return NULL;
	}
	tighten_modes(dir, path);
	if (store_found_version(db) == 0)
		log_msg(LOG_INFO, NULL, "created the database %s", path);
	else if (store_found_version(db) < STORE_VERSION)
		log_msg(LOG_INFO, NULL, "upgraded the database %s from schema %d to %d", path, store_found_version(db),
			STORE_VERSION);
	return db;
}

static void usage(FILE *f)
{
	char games[256];
	present_names(games, sizeof games, 1);
	fprintf(f, "usage: cardbot run [-c FILE | --default]\n"
		"\n"
		"Connects to every network in the configuration and hosts tables in their\n"
		"channels until stopped (SIGTERM or SIGINT say goodbye first), of these\n"
		"games: %s.\n"
		"\n", games);
	fputs("  -c, --config FILE  the configuration (see config/cardbot.cfg)\n"
	      "  --default          the built-in one: IRC at 127.0.0.1:6667, channel #304\n"
	      "  -h, --help         show this help\n"
	      "\n"
	      "`cardbot check-config FILE` checks a configuration without connecting.\n",
	      f);
}

int run_main(int argc, char **argv)
{
	const char *path = NULL;
	int use_default = 0;
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "--default")) {
			use_default = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "run: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 64;
		}
	}
	if (!path && !use_default) {
		fprintf(stderr, "run: name a configuration with -c FILE, or use --default\n");
		usage(stderr);
		return 64;
	}
	runner r;
	memset(&r, 0, sizeof r);
	config_errors errs = { 0 };
	int nerr = path ? config_load(path, &r.cfg, &errs)
			: config_load_string(config_default_text(), "(built-in configuration)", &r.cfg, &errs);
	config_errors_print(&errs, stderr);
	int unreadable = errs.unreadable;
	config_errors_free(&errs);
	if (nerr) {
		fprintf(stderr, "run: the configuration has errors; nothing was started\n");
		return unreadable ? 66 : 78;
	}
	/* A player's text must never kill the process: a send to a closed
	 * socket is an error to handle, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	/* A file size limit makes a write fail (and the move be refused), not
	 * kill the bot. */
	signal(SIGXFSZ, SIG_IGN);
	r.path = path;
	log_set_level(r.cfg.bot.log_level);
	r.db = open_store(&r.cfg);
	if (!r.db) {
		fprintf(stderr, "run: nothing was started\n");
		config_free(&r.cfg);
		return 74;
	}
	r.ev = loop_new();
	table_settings defaults;
	settings_from(&r.cfg, &r.cfg.tables, &defaults);
	r.b = r.ev ? bot_new(r.ev, &defaults, r.cfg.bot.prefix) : NULL;
	if (!r.b) {
		fprintf(stderr, "run: out of memory\n");
		loop_free(r.ev);
		store_close(r.db);
		config_free(&r.cfg);
		return 70;
	}
	r.b->settings_for = settings_for;
	r.b->settings_ctx = &r;
	r.b->db = r.db;
	apply_bot_settings(&r);
	adapter_host host = bot_host(r.b);
	for (int i = 0; i < r.cfg.nnetworks; i++) {
		config_network *n = &r.cfg.networks[i];
		console_settings cs;
		console_settings_default(&cs);
		adapter *a = n->type == CONFIG_NETWORK_MATRIX ? matrix_adapter_new(r.ev, &host, n->name, &n->matrix)
			: n->type == CONFIG_NETWORK_CONSOLE ? console_adapter_new(r.ev, &host, n->name, &cs)
			: irc_adapter_new(r.ev, &host, n->name, &n->irc);
		if (!a || bot_add_network(r.b, a) < 0) {
			fprintf(stderr, "run: cannot set up network %s\n", n->name);
			continue;
		}
		a->ops->start(a);
		if (n->type == CONFIG_NETWORK_CONSOLE)
			log_msg(LOG_INFO, NULL, "network %s: JSON lines on standard input and output", n->name);
		else if (n->type == CONFIG_NETWORK_MATRIX)
			log_msg(LOG_INFO, NULL, "network %s: connecting to %s as %s", n->name, n->matrix.homeserver,
				n->matrix.user_id);
		else
			log_msg(LOG_INFO, NULL, "network %s: connecting to %s port %d%s", n->name, n->irc.server,
				n->irc.port, n->irc.tls ? " (TLS)" : "");
	}
	int restored = bot_restore(r.b);
	if (restored > 0)
		log_msg(LOG_INFO, NULL, "restored %d table%s from %s", restored, restored == 1 ? "" : "s",
			store_path(r.db));
	loop_on_signal(r.ev, SIGTERM, on_stop_signal, &r);
	loop_on_signal(r.ev, SIGINT, on_stop_signal, &r);
	loop_on_signal(r.ev, SIGHUP, on_hup, &r);
	loop_timer(r.ev, STORE_CHECK_MS, check_store, &r);
	loop_run(r.ev);
	bot_free(r.b);
	loop_free(r.ev);
	store_close(r.db);
	config_free(&r.cfg);
	log_msg(LOG_INFO, NULL, "stopped");
	return 0;
}
