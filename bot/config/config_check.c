/* config_check.c: `cardbot check-config`: checks a configuration as the bot would, and summarises it. */
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "config.h"
#include "present.h"

static const char check_usage[] = "usage: cardbot check-config FILE | --default\n";
static const char check_help[] =
	"usage: cardbot check-config FILE | --default\n"
	"\n"
	"Reads a configuration file and checks every value in it, as the bot would\n"
	"at start-up. Every problem is printed, one line each on standard error, as\n"
	"FILE:LINE: KEY: what is wrong; warnings too. A valid file gets a short\n"
	"summary on standard output: its networks, channels and operators.\n"
	"\n"
	"  FILE          the configuration (libconfig syntax; see config/cardbot.cfg)\n"
	"  --default     check the built-in configuration and print it on standard\n"
	"                output (the summary goes to standard error), so that\n"
	"                `cardbot check-config --default > cardbot.cfg` starts a file\n"
	"  -h, --help    show this help\n"
	"\n"
	"Secrets (server_password, sasl_password, nickserv_password) are read from\n"
	"KEY_file or KEY_env as the bot would, so run it where the bot runs.\n"
	"\n"
	"Exit status: 0 valid (warnings allowed); 78 invalid; 66 FILE cannot be\n"
	"read; 64 wrong arguments.\n";

/* "bidding pagat, fives off, ...": every game option as the tables start with it. */
static void rules_text(char *buf, size_t len, const game_choices *cs)
{
	size_t n = 0;
	const game_option *o;
	buf[0] = '\0';
	for (int k = 0; n < len && (o = present_option_at(k)); k++) {
		int v = game_choices_get(cs, o->key);
		int w = snprintf(buf + n, len - n, "%s%s %s", k ? ", " : "", o->key, game_option_word(o, v >= 0 ? v : o->dflt));
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

static void table_text(char *buf, size_t len, const config_table *t)
{
	char rules[160];
	rules_text(rules, sizeof rules, &t->options);
	snprintf(buf, len, "%s, %s; %s%s", t->game, config_pace_name(t->pace), rules, t->lastcard ? "; lastcard on" : "");
}

static void print_summary(FILE *f, const char *name, const config *c)
{
	int nch = 0;
	for (int i = 0; i < c->nnetworks; i++)
		nch += c->networks[i].irc.nchannels;
	fprintf(f, "%s: valid: %d network%s, %d channel%s, %d operator%s\n", name, c->nnetworks,
		c->nnetworks == 1 ? "" : "s", nch, nch == 1 ? "" : "s", c->bot.noperators,
		c->bot.noperators == 1 ? "" : "s");
	char t[256];
	table_text(t, sizeof t, &c->tables);
	fprintf(f, "tables: %s\n", t);
	for (int i = 0; i < c->nnetworks; i++) {
		const config_network *n = &c->networks[i];
		if (n->type == CONFIG_NETWORK_CONSOLE) {
			fprintf(f, "network %s (console): JSON lines on standard input and output\n", n->name);
			continue;
		}
		if (n->type == CONFIG_NETWORK_MATRIX) {
			fprintf(f, "network %s (matrix): %s as %s, %d room%s, invites %s, %s, %s\n", n->name,
				n->matrix.homeserver, n->matrix.user_id, n->matrix.nrooms, n->matrix.nrooms == 1 ? "" : "s",
				n->matrix.accept_invites ? "accepted" : "declined",
				n->rate_limited ? "rate-limited (brief tables)" : "not rate-limited",
				n->matrix.encryption ? "end-to-end encryption on" : "encrypted rooms left");
			continue;
		}
		fprintf(f, "network %s (%s): %s:%d%s, nick %s, %d channel%s%s\n", n->name,
			config_network_type_name(n->type), n->irc.server, n->irc.port, n->irc.tls ? " TLS" : "",
			n->irc.nick, n->irc.nchannels, n->irc.nchannels == 1 ? "" : "s",
			n->irc.dcc ? ", records by DCC SEND" : "");
		for (int j = 0; j < n->irc.nchannels; j++) {
			table_text(t, sizeof t, &n->channel_tables[j]);
			fprintf(f, "  %s: %s\n", n->irc.channels[j].name, t);
		}
	}
	for (int i = 0; i < c->bot.noperators; i++)
		fprintf(f, "operator: %s%s\n", c->bot.operators[i].kind == CONFIG_OPERATOR_ACCOUNT ? "account:" : "",
			c->bot.operators[i].text);
}

int config_check_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(check_help, stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--default"))) {
		if (argc == 2)
			fprintf(stderr, "cardbot check-config: unknown option %s\n", argv[1]);
		fputs(check_usage, stderr);
		return EX_USAGE;
	}
	int builtin = !strcmp(argv[1], "--default");
	const char *name = builtin ? "(default)" : argv[1];
	config c;
	config_errors errs = { 0 };
	int n = builtin ? config_load_string(config_default_text(), name, &c, &errs)
			: config_load(argv[1], &c, &errs);
	fflush(stdout);
	config_errors_print(&errs, stderr);
	int status = 0;
	if (errs.unreadable) {
		status = EX_NOINPUT;
	} else if (n) {
		fprintf(stderr, "%s: %d error%s, %d warning%s\n", name, errs.nerrors, errs.nerrors == 1 ? "" : "s",
			errs.nwarnings, errs.nwarnings == 1 ? "" : "s");
		status = EX_CONFIG;
	} else {
		if (builtin)
			fputs(config_default_text(), stdout);
		print_summary(builtin ? stderr : stdout, name, &c);
		if (fflush(stdout))
			status = 1;
	}
	config_free(&c);
	config_errors_free(&errs);
	return status;
}

