/* run.c: `cardbot run`: load the configuration, connect every network, host tables until told to stop. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bot.h"
#include "config.h"
#include "irc.h"
#include "loop.h"
#include "run.h"

#define STOP_GRACE_MS 1500 /* time for goodbyes to leave before the loop ends */

typedef struct runner {
	loop *ev;
	bot *b;
	config cfg;
	int stopping;
} runner;

static void settings_from(const config_table *ct, table_settings *out)
{
	table_settings_default(out);
	out->rules = ct->rules;
	out->pace = ct->pace == CONFIG_PACE_LIVE ? PACE_LIVE
		: ct->pace == CONFIG_PACE_CORRESPONDENCE ? PACE_CORRESPONDENCE : PACE_CASUAL;
	out->live_turn_seconds = ct->live_turn_seconds;
	out->corr_remind_seconds = ct->correspondence_reminder_hours * 3600;
	out->grace_seconds = ct->grace_seconds;
	out->casual_remind_seconds = ct->casual_reminder_minutes * 60;
	out->deal_pause_ms = ct->deal_pause_ms;
	out->computer_delay_ms = ct->computer_delay_ms;
	out->computer_easy = ct->computer_level == CONFIG_LEVEL_EASY;
	out->hints = ct->hints;
}

static void settings_for(void *ctx, adapter *net, const char *room, table_settings *out)
{
	runner *r = ctx;
	for (int i = 0; i < r->cfg.nnetworks; i++)
		if (!strcmp(r->cfg.networks[i].name, net->name)) {
			settings_from(config_channel_table(&r->cfg, &r->cfg.networks[i], room), out);
			return;
		}
	settings_from(&r->cfg.tables, out);
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
	fprintf(stderr, "info: signal %d: saying goodbye and stopping\n", sig);
	for (int i = 0; i < r->b->nnets; i++)
		r->b->nets[i]->ops->stop(r->b->nets[i], "cardbot is stopping; games resume when it is back");
	loop_timer(r->ev, STOP_GRACE_MS, end_loop, r);
}

static void on_hup(void *ctx, int sig)
{
	(void)ctx, (void)sig;
	fprintf(stderr, "warn: SIGHUP: reloading the configuration is not supported yet; restart to apply changes\n");
}

static void usage(FILE *f)
{
	fputs("usage: cardbot run [-c FILE | --default]\n"
	      "\n"
	      "Connects to every network in the configuration and hosts 304 tables in\n"
	      "their channels until stopped (SIGTERM or SIGINT say goodbye first).\n"
	      "\n"
	      "  -c, --config FILE  the configuration (see config/cardbot.cfg)\n"
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
	r.ev = loop_new();
	table_settings defaults;
	settings_from(&r.cfg.tables, &defaults);
	r.b = r.ev ? bot_new(r.ev, &defaults, r.cfg.bot.prefix) : NULL;
	if (!r.b) {
		fprintf(stderr, "run: out of memory\n");
		loop_free(r.ev);
		config_free(&r.cfg);
		return 70;
	}
	r.b->settings_for = settings_for;
	r.b->cmd_burst = r.cfg.bot.commands_burst;
	r.b->cmd_per_second = r.cfg.bot.commands_per_minute / 60.0;
	r.b->settings_ctx = &r;
	for (int i = 0; i < r.cfg.bot.noperators && i < BOT_OPERATORS_MAX; i++)
		snprintf(r.b->operators[r.b->noperators++], sizeof r.b->operators[0], "%s%s",
			 r.cfg.bot.operators[i].kind == CONFIG_OPERATOR_ACCOUNT ? "account:" : "",
			 r.cfg.bot.operators[i].text);
	adapter_host host = bot_host(r.b);
	for (int i = 0; i < r.cfg.nnetworks; i++) {
		config_network *n = &r.cfg.networks[i];
		adapter *a = irc_adapter_new(r.ev, &host, n->name, &n->irc);
		if (!a || bot_add_network(r.b, a) < 0) {
			fprintf(stderr, "run: cannot set up network %s\n", n->name);
			continue;
		}
		a->ops->start(a);
		fprintf(stderr, "info: network %s: connecting to %s port %d%s\n", n->name, n->irc.server, n->irc.port,
			n->irc.tls ? " (TLS)" : "");
	}
	loop_on_signal(r.ev, SIGTERM, on_stop_signal, &r);
	loop_on_signal(r.ev, SIGINT, on_stop_signal, &r);
	loop_on_signal(r.ev, SIGHUP, on_hup, &r);
	loop_run(r.ev);
	bot_free(r.b);
	loop_free(r.ev);
	config_free(&r.cfg);
	fprintf(stderr, "info: stopped\n");
	return 0;
}
