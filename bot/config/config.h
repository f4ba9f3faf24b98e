/* config.h: cardbot's configuration, read from a libconfig file into checked, typed structs.
 *
 * Nothing outside the loader (config.c, the keys; schema.c, the reading)
 * sees libconfig. Every value here has passed its checks: strings fit their
 * buffers and hold no control characters, numbers are in range, words are
 * one of the accepted ones, secrets are resolved from wherever the file
 * said they live. Relative names of files read at load time (secret files,
 * ca_file) are taken from the directory of the config file and stored
 * resolved; data_dir is kept as written.
 */
#ifndef CARDBOT_CONFIG_H
#define CARDBOT_CONFIG_H

#include <stdio.h>

#include "game.h"
#include "irc.h"
#include "matrix.h"

/* Limits, each with its reason. */
#define CONFIG_NETWORKS_MAX 16    /* one connection each: more is a mistake, not a deployment */
#define CONFIG_OPERATORS_MAX 64   /* a list people read; masks are cheap to widen instead */
#define CONFIG_STRING_MAX IRC_FIELD_MAX /* any string value, NUL included: what the adapter holds */
#define CONFIG_NAME_MAX 32        /* a network's name: shown in logs, stored with games */
#define CONFIG_PREFIX_MAX 8       /* command prefix, NUL included: a few characters at most */
#define CONFIG_LANGUAGE_MAX 8     /* "en"; room for "pt-BR" */
#define CONFIG_PATH_MAX 4096      /* PATH_MAX on Linux */
#define CONFIG_FILE_MAX (1 << 20) /* a config is a few kilobytes; refuse to slurp a huge file */
#define CONFIG_MESSAGES_MAX 200   /* messages kept in a config_errors; later ones are only counted */

/* X-macros: enum constant, the word in the file. */
#define CONFIG_PACES(X) \
	X(LIVE, "live")                  /* a turn timer (live_turn_seconds), then a computer move */ \
	X(CASUAL, "casual")              /* no timer; players nudge each other */ \
	X(CORRESPONDENCE, "correspondence") /* days per game; reminders every few hours */
#define CONFIG_LOG_LEVELS(X) X(DEBUG, "debug") X(INFO, "info") X(WARN, "warn") X(ERROR, "error")
#define CONFIG_LEVELS(X) \
	X(EASY, "easy")                  /* the random player */ \
	X(NORMAL, "normal")              /* the search player, small budget (docs/AI.md) */ \
	X(STRONG, "strong")              /* the search player, full budget */
/* enum constant, the word, built yet (0: recognised but refused). */
#define CONFIG_NETWORK_TYPES(X) X(IRC, "irc", 1) X(MATRIX, "matrix", 1) X(CONSOLE, "console", 1)
#define CONFIG_OPERATOR_KINDS(X) \
	X(MASK, "mask")                  /* IRC nick!user@host with * and ? */ \
	X(ACCOUNT, "account")            /* a services account (SASL/NickServ), exact, case-insensitive */

#define CONFIG_ENUM(id, word) CONFIG_PACE_##id,
enum config_pace { CONFIG_PACES(CONFIG_ENUM) CONFIG_PACE_COUNT };
#undef CONFIG_ENUM
#define CONFIG_ENUM(id, word) CONFIG_LOG_##id,
enum config_log_level { CONFIG_LOG_LEVELS(CONFIG_ENUM) CONFIG_LOG_COUNT };
#undef CONFIG_ENUM
#define CONFIG_ENUM(id, word) CONFIG_LEVEL_##id,
enum config_level { CONFIG_LEVELS(CONFIG_ENUM) CONFIG_LEVEL_COUNT };
#undef CONFIG_ENUM
#define CONFIG_ENUM3(id, word, built) CONFIG_GAME_##id,
#undef CONFIG_ENUM3
#define CONFIG_ENUM3(id, word, built) CONFIG_NETWORK_##id,
enum config_network_type { CONFIG_NETWORK_TYPES(CONFIG_ENUM3) CONFIG_NETWORK_COUNT };
#undef CONFIG_ENUM3
#define CONFIG_ENUM(id, word) CONFIG_OPERATOR_##id,
enum config_operator_kind { CONFIG_OPERATOR_KINDS(CONFIG_ENUM) CONFIG_OPERATOR_COUNT };
#undef CONFIG_ENUM

/* The word for each value ("casual"); "?" out of range. Static strings. */
const char *config_pace_name(int pace);
const char *config_log_level_name(int level);
const char *config_level_name(int level);
const char *config_network_type_name(int type);

/* What a new table starts with: the [tables] group, or a channel's copy of
 * it with that channel's overrides applied. */
typedef struct config_table {
	char game[16];                 /* what "!new" opens: a game a table can host, by its record name
	                                * (bot/games/present.c's list; bot/cli/run.c -> table_settings.game) */
	int pace;                      /* enum config_pace */
	int live_turn_seconds;         /* live pace: time for a turn before a computer moves for the player */
	int correspondence_reminder_hours; /* correspondence pace: remind the player to move this often */
	int grace_seconds;             /* a player who left keeps the seat this long before it is offered */
	int casual_reminder_minutes;   /* casual pace: remind the awaited player after this */
	int deal_pause_ms;             /* pause between one deal's end and the next deal */
	int cut_offer_seconds;         /* 304: how long the cut offered before a deal waits (0: none offered) */
	int computer_delay_ms;         /* a computer player's pause before it moves */
	int computer_level;            /* enum config_level: computer players and moves for absent players */
	int computer_think_ms;         /* a search player's thinking budget per decision */
	int hints;                     /* private prompts list the legal cards */
	int lastcard;                  /* a person's last card is played for them (every game; !set lastcard) */
	game_choices options;          /* the games' options (`rules { caps = "off"; }`), by key: each
	                                * game takes its own (engine/core/game.h); none: its defaults */
	char lang[CONFIG_LANGUAGE_MAX]; /* the room's language ("": bot.language) */
} config_table;

typedef struct config_operator {
	int kind;                      /* enum config_operator_kind */
	char text[CONFIG_STRING_MAX];  /* the mask, or the account name without "account:" */
} config_operator;

typedef struct config_bot {
	char prefix[CONFIG_PREFIX_MAX];   /* command prefix in rooms: "!" */
	config_operator operators[CONFIG_OPERATORS_MAX];
	int noperators;
	char language[CONFIG_LANGUAGE_MAX]; /* "en" */
	int log_level;                 /* enum config_log_level */
	char data_dir[CONFIG_PATH_MAX];/* where state lives (resolved; may not exist yet) */
	char public_dir[CONFIG_PATH_MAX];/* !record writes match records here ("": sends them privately) */
	char public_url[CONFIG_STRING_MAX];/* the web address of public_dir ("": tell the path) */
	int allow_invites;             /* master switch: no network joins on invite when 0 */
	int commands_burst;            /* per user: commands taken at once... */
	int commands_per_minute;       /* ...then this many a minute; the rest are ignored */
} config_bot;

typedef struct config_network {
	char name[CONFIG_NAME_MAX];    /* unique: [A-Za-z0-9_-] */
	int type;                      /* enum config_network_type */
	irc_settings irc;              /* complete: irc_settings_default() where the file is silent,
	                                * secrets resolved, accept_invites and-ed with bot.allow_invites */
	config_table channel_tables[IRC_CHANNELS_MAX]; /* table defaults in irc.channels[i] */
	matrix_settings matrix;        /* type matrix: complete, secrets resolved, accept_invites and-ed
	                                * with bot.allow_invites (irc above is then unused) */
	int rate_limited;              /* the network limits how fast the bot may post (Matrix
	                                * rate_limited, default true): tables speak briefly */
} config_network;

typedef struct config {
	config_bot bot;
	config_table tables;           /* defaults for tables where no channel says otherwise */
	config_network *networks;      /* owned; nnetworks of them */
	int nnetworks;
} config;

/* One error or warning, ready to print: "cardbot.cfg:14: networks.[0].port:
 * 70000 is not a port (1-65535)". */
typedef struct config_message {
	int warning;                   /* 0 an error, 1 a warning */
	char *file;                    /* owned: the file it is about */
	int line;                      /* 0: no line applies */
	char *text;                    /* owned: the whole line, without newline */
} config_message;

/* Everything found wrong, in file and line order. Start it zeroed
 * (config_errors e = {0};) and release it with config_errors_free. */
typedef struct config_errors {
	config_message *items;         /* owned; n of them (at most CONFIG_MESSAGES_MAX) */
	int n;
	size_t cap;
	int nerrors, nwarnings;        /* all found, kept or not */
	int unreadable;                /* the file itself could not be read (EX_NOINPUT) */
} config_errors;

/* Reads and checks the file at path into *out, adding every error and
 * warning to errs. Returns the number of errors: 0 means *out is complete
 * and must be released with config_free; otherwise *out holds nothing. */
int config_load(const char *path, config *out, config_errors *errs);

/* As config_load, from text in memory; name stands for the file in messages
 * and relative paths are taken from the working directory. */
int config_load_string(const char *text, const char *name, config *out, config_errors *errs);

/* Releases what *c owns and zeroes it. NULL is fine. */
void config_free(config *c);

/* Releases the messages and zeroes *e. NULL is fine. */
void config_errors_free(config_errors *e);

/* Writes each message a line, errors and warnings alike, and a closing line
 * if some were only counted. Returns 0, or -1 if writing failed. */
int config_errors_print(const config_errors *e, FILE *f);

/* The table defaults for a channel of a network (names compared as the
 * network's adapter `a` compares them: adapter_same_room): the channel's
 * own, else c->tables. Borrowed from c. */
const config_table *config_channel_table(const config *c, const config_network *net, const adapter *a,
					  const char *channel);

/* The built-in configuration (bot/config/config_default.c): one IRC network "local"
 * at 127.0.0.1:6667, channel #304. A static string. */
const char *config_default_text(void);

/* Entry point of `cardbot check-config` (bot/config/config_check.c; argv[0] is
 * "check-config"). Returns 0 valid, 78 invalid, 66 unreadable, 64 bad usage. */
int config_check_main(int argc, char **argv);

#endif
