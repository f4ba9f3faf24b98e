/* main.c: the cardbot binary: finds the subcommand in one table and runs it. */
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "bench.h"
#include "config.h"
#include "device.h"
#include "page.h"
#include "play.h"
#include "present.h"
#include "replay.h"
#include "verify.h"
#include "nearest.h"
#include "run.h"

#ifndef CARDBOT_VERSION
#define CARDBOT_VERSION "0.1.0-dev"
#endif

static int help_main(int argc, char **argv);
static int version_main(int argc, char **argv);
static void usage(FILE *f);

/* A subcommand: argv[0] is its name; returns the exit status. */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;   /* one line for `cardbot help` */
	int games;             /* followed by the games a table can host (the registry's titles) */
};

/* In the order `cardbot help` lists them. */
static const struct command commands[] = {
	{ "bench", bench_main, "run the benchmarks and print the figures", 0 },
	{ "check-config", config_check_main, "check a configuration file and summarise it", 0 },
	{ "device", device_main, "print the bot's Matrix encryption device and its fingerprint, to verify it", 0 },
	{ "export", export_main, "list the matches in the bot's database, or print one's record or page (--html)", 0 },
	{ "help", help_main, "list the commands; `help COMMAND` explains one", 0 },
	{ "play", play_main, "play a table in the terminal against computer players (no server needed)", 0 },
	{ "render", page_render_main, "write a record's match page: one HTML file that replays it card by card", 0 },
	{ "replay", replay_main, "replay a game record and print what happened, as JSON lines", 0 },
	{ "run", run_main, "connect to the configured networks and host tables of", 1 },
	{ "verify", verify_main, "check a match record's deck commitments and replay it", 0 },
	{ "version", version_main, "print the version", 0 },
};
#define COMMANDS (sizeof commands / sizeof commands[0])

/* Options that stand for a command, as most programs accept them. */
static const struct alias {
	const char *option, *command;
} aliases[] = {
	{ "-h", "help" }, { "--help", "help" }, { "-V", "version" }, { "--version", "version" },
};
#define ALIASES (sizeof aliases / sizeof aliases[0])

static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < ALIASES; i++)
		if (!strcmp(name, aliases[i].option))
			name = aliases[i].command;
	for (size_t i = 0; i < COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* An unknown subcommand, with the nearest one when it looks like a slip. */
static int unknown(const char *name)
{
	const char *names[COMMANDS];
	for (size_t i = 0; i < COMMANDS; i++)
		names[i] = commands[i].name;
	const char *near = nearest_word(name, names, COMMANDS);
	if (near)
		fprintf(stderr, "cardbot: unknown command \"%s\": did you mean \"%s\"?\n", name, near);
	else
		fprintf(stderr, "cardbot: unknown command \"%s\"\n", name);
	usage(stderr);
	return EX_USAGE;
}

static void usage(FILE *f)
{
	fputs("usage: cardbot COMMAND [ARGS...]\n\ncommands:\n", f);
	char games[256];
	present_names(games, sizeof games, 1);
	for (size_t i = 0; i < COMMANDS; i++)
		fprintf(f, "  %-14s%s%s%s\n", commands[i].name, commands[i].summary, commands[i].games ? "\n                " : "",
			commands[i].games ? games : "");
	fputs("\n`cardbot COMMAND --help` explains a command's options.\n", f);
}

static int help_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		/* `cardbot help replay` is `cardbot replay --help`. */
		const struct command *c = command_find(argv[1]);
		if (c && c->run != help_main) {
			char help[] = "--help";
			char *args[] = { argv[1], help, NULL };
			return c->run(2, args);
		}
		if (!c)
			return unknown(argv[1]);
	}
	usage(stdout);
	return fflush(stdout) ? 1 : 0;
}

static int version_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	puts("cardbot " CARDBOT_VERSION);
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	const struct command *c = command_find(argv[1]);
	if (!c)
		return unknown(argv[1]);
	return c->run(argc - 1, argv + 1);
}
