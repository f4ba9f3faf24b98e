/* store.h: the bot's SQLite database: tables in play, every accepted action, finished matches, statistics.
 *
 * One file (data_dir/cardbot.db), WAL journal, synchronous=FULL: a call that
 * returns 0 has reached the disk, so the caller may announce what it stored.
 * Each table in play is its match record (decks and actions, the
 * cardbot-record/1 pieces as JSON text) plus a small JSON "meta" (seats,
 * settings) that the table itself writes and reads; the store does not
 * interpret either. Every failure leaves the database as it was and puts a
 * one-line reason (naming the file) in store_error().
 */
#ifndef CARDBOT_STORE_H
#define CARDBOT_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_VERSION 4          /* the schema this build writes; older ones are migrated */
#define STORE_ERR_MAX 4096

typedef struct store store;

/* Opens the database at path, creating it (and nothing else) when missing,
 * and migrating an older schema. NULL on failure, with the reason and what
 * to do in err (a database from a newer cardbot, a damaged file, a file
 * that is not a cardbot database, no permission, a read-only file). */
store *store_open(const char *path, char *err, size_t errlen);
/* For a command-line tool (`cardbot CMD`): opens the database at path, which
 * must exist already (a tool never creates one); NULL after saying why on
 * stderr as "cardbot CMD: ...". */
store *store_open_existing(const char *path, const char *cmd);
void store_close(store *s);
const char *store_path(const store *s);
/* The reason the last failing call failed. */
const char *store_error(const store *s);
/* The schema version found in the file when it was opened (0: new file). */
int store_found_version(const store *s);

/* Whether the database file is still the one opened at its path (the open
 * file is looked for there: SQLite notices a deleted or replaced file).
 * A deleted file (and its directory, if need be) is written anew from the
 * open database, which still holds everything: REWRITTEN. LOST: it could
 * not be yet (store_error says why; writes go on into the open, unlinked
 * file; try again later). REPLACED: another file is at the path; it is
 * left alone (and rid of this store's -wal and -shm, which it would take
 * for its own), and the store goes on with a copy of its own database in
 * PATH.kept, whose path store_path now gives. Cheap (one stat) when
 * nothing happened. */
enum { STORE_FILE_OK = 0, STORE_FILE_REWRITTEN = 1, STORE_FILE_LOST = -1, STORE_FILE_REPLACED = -2 };
int store_check(store *s);

/* ---- an adapter's small state (Matrix sync token, direct rooms) ---- */
int store_state_get(store *s, const char *net, const char *key, char *out, size_t len);
int store_state_set(store *s, const char *net, const char *key, const char *value); /* NULL deletes */
/* Calls fn for each network that keeps a value under key, in network
 * order; returns how many, or -1 on a database error. */
int store_state_each(store *s, const char *key, void (*fn)(void *ctx, const char *net, const char *value), void *ctx);

/* ---- per-user settings ---- */
typedef struct store_user {
	int ascii;       /* S H D C instead of suit symbols, no colours */
	char language[8];
	int notices;     /* private lines as notices (1) or messages (0) */
} store_user;
/* 1 and *out filled when the user has settings, 0 when not, -1 on error. */
int store_user_get(store *s, const char *net, const char *user, store_user *out);
int store_user_set(store *s, const char *net, const char *user, const store_user *u);
/* The language a person chose with !lang ("ta"), into code: 1 found, 0
 * none chosen, -1 error. store_lang_set with NULL or "" forgets it. */
int store_lang_get(store *s, const char *net, const char *user, char *code, size_t len);
int store_lang_set(store *s, const char *net, const char *user, const char *code);

/* A person's own choice other than the language ("private" = "msg"): 1 and
 * out filled, 0 none made, -1 error. store_option_set with NULL forgets it. */
int store_option_get(store *s, const char *net, const char *user, const char *option, char *out, size_t len);
int store_option_set(store *s, const char *net, const char *user, const char *option, const char *value);

/* ---- who asked to hear when a table opens in a channel (!notify) ---- */
/* Adds (on) or removes user; 0, or -1 on error. */
int store_notify_set(store *s, const char *net, const char *room, const char *user, int on);
/* Calls fn for each, in the order they asked; how many, or -1 on error. */
int store_notify_each(store *s, const char *net, const char *room, void (*fn)(void *ctx, const char *user), void *ctx);

/* ---- a channel's remembered choices (!set), applied to its next tables ---- */
int store_channel_set(store *s, const char *net, const char *room, const char *option, const char *value);
typedef void (*store_setting_fn)(void *ctx, const char *option, const char *value);
int store_channel_each(store *s, const char *net, const char *room, store_setting_fn fn, void *ctx);

/* ---- tables (one per room) ---- */
int store_table_save(store *s, const char *net, const char *room, const char *meta, int64_t match_id);
int store_table_delete(store *s, const char *net, const char *room);
typedef void (*store_table_fn)(void *ctx, const char *net, const char *room, const char *meta, int64_t match_id);
/* Calls fn for every stored table, oldest first. */
int store_tables_each(store *s, store_table_fn fn, void *ctx);

/* Seats a match may have (six-player 304). */
#define STORE_SEATS 8 /* a match's seats at the most (304 for eight); table_store.c checks it holds TABLE_SEATS */

/* ---- matches: the record, piece by piece ---- */
typedef struct store_seat {
	const char *user;    /* identity on the network; "" for a computer player */
	const char *name;    /* shown */
	int computer;
} store_seat;
/* A new match of game (a game's record name, engine/core/game.h); *id receives its
 * number. rules_json is the record's "rules" object as text ("{}" for the
 * games without options). A seat whose name is NULL is not stored: the
 * record's players are the seats before it (Trump304 with 2 or 3). */
int store_match_begin(store *s, const char *net, const char *room, const char *game, const char *rules_json,
		      const store_seat seats[STORE_SEATS], int dealer, int64_t *id);
/* Updates who sits where (a player replaced, a computer standing in). */
int store_match_seats(store *s, int64_t id, const store_seat seats[STORE_SEATS]);
/* Deal number idx (0-based, redeals included) with its deck (a JSON array
 * of 32 card codes), its salt and commitment (hex). */
int store_deal_begin(store *s, int64_t id, int idx, const char *deck_json, const char *salt, const char *commitment);

/* One seat's share of a finished deal, for statistics (every game; the
 * presentation's deal_results fills it). A side is a team in 304, Rook
 * and four-player Trump304 (seats s & 1), the seat itself in Trump304
 * with two or three players. */
typedef struct store_result {
	const char *user;
	const char *name;
	int computer;
	int seat, team;        /* team: the seat's side */
	const char *outcome;   /* "scored", "passed_out", "redeal", "spoilt"; NULL: no row (an empty seat) */
	int trumper;           /* this seat played the bid (Rook: the bidder) */
	int bid;               /* the bid played (0: none; 304's pcc: 1000) */
	int made;              /* -1 no bid played; else whether the trumper's side made it */
	int won;               /* this seat's side came out ahead in the deal (304: was paid;
	                        * Trump304: received tokens; Rook: scored more than the other team) */
	int points;            /* the side's card points (Trump304 with three: the trumper's
	                        * two opponents together) */
	const char *caps;      /* caps outcome name ("none" but in 304) */
	int caps_called;       /* this seat called caps */
} store_result;
/* How a deal ended, stored with the action that ended it. */
typedef struct store_deal_end {
	store_result seats[STORE_SEATS];
	int match_over;        /* the action also ended the match */
	int winner;            /* the winning team then */
	int tokens[2];
} store_deal_end;
/* One accepted action (a record action object as JSON text); with end,
 * the deal's end (and the match's) go in the same commit, so a crash
 * never keeps the one without the other. */
int store_action(store *s, int64_t id, int idx, int seq, const char *action_json, const store_deal_end *end);
/* The match is over (winner: team 0/1, or -1 when stopped). */
int store_match_end(store *s, int64_t id, int winner, int tokens0, int tokens1);
/* A table stopped: its match (id; 0: none) ends with no winner and the
 * table is removed, in one commit, so that either both or neither stay. */
int store_table_stop(store *s, const char *net, const char *room, int64_t id, int tokens0, int tokens1);

/* The match's record as cardbot-record/1 JSON text (malloc'd; NULL on
 * error). With secrets, each deal also carries its salt and commitment;
 * with only_ended, deals not yet ended are left out (their decks are
 * still secret). */
char *store_match_record(store *s, int64_t id, int with_secrets, int only_ended);
/* Facts about a match: 1 found, 0 none, -1 error. */
typedef struct store_match_info {
	int64_t id;
	char network[64], room[256];
	int64_t started, ended;   /* unix seconds; ended 0 while in play */
	int winner;               /* -1: none */
	int tokens[2];
	char players[STORE_SEATS][256]; /* "" past the last seat (Trump304 with two or three) */
	char game[16];            /* the game's record name (game_def.name) */
} store_match_info;
int store_match_info_get(store *s, int64_t id, store_match_info *out);
/* The last n finished matches in a room (of every game), newest first;
 * returns how many. */
int store_history(store *s, const char *net, const char *room, store_match_info *out, int n);

/* ---- statistics, each of one game (by its record name) ---- */
#define STORE_BANDS 4
typedef struct store_stats {
	char name[256];                  /* the name last seen */
	int deals, deals_won;            /* redeals are not deals */
	int matches, matches_won;        /* matches that ended with a winner (never Trump304's) */
	int bids[STORE_BANDS], bids_made[STORE_BANDS]; /* as trumper, by the game's bands (store_stats_get) */
	int caps_calls, caps_correct;
	int trumper_deals;
	double trumper_points;           /* average card points of the side as trumper */
} store_stats;
/* user's figures in game's deals and matches: 1 found, 0 no deals of that
 * game yet, -1 error. Bids are counted by the game's bands (its
 * presentation's): band i holds the bids from from[i] up to from[i + 1]
 * (from[0] is 0; INT_MAX: no such band). */
int store_stats_get(store *s, const char *net, const char *game, const int from[STORE_BANDS], const char *user,
		    store_stats *out);
/* Looks a user up by the name shown (the most recent one); 1 found. */
int store_user_by_name(store *s, const char *net, const char *name, char *user, size_t len);
typedef struct store_top {
	char name[256];
	int matches, matches_won, deals, deals_won;
} store_top_row;
/* The room's leaderboard of one game (people only: those who played a
 * deal of it there, or sat in a match of it won there): matches won,
 * then deals won. Returns how many rows. */
int store_top(store *s, const char *net, const char *room, const char *game, store_top_row *out, int n);

/* Measures the cost of committed actions (for `cardbot bench`): n inserts
 * into a scratch match; durations in microseconds into us[0..n-1]. */
int store_bench(store *s, int n, double *us);

#endif
