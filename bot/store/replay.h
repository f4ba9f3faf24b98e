/* replay.h: `cardbot replay`, which runs a game record through the engine and prints JSON lines. */
#ifndef CARDBOT_REPLAY_H
#define CARDBOT_REPLAY_H

#include <stdio.h>
#include "record.h"

/* Entry point of `cardbot replay` (argv[0] is "replay"). Returns the exit
 * status: 0 replayed, 1 the file cannot be read or output failed, 2 the
 * record is malformed, 64 bad usage. */
int replay_main(int argc, char **argv);

/* Replays rec (borrowed), of any game, through engine/core/game.h and writes one
 * JSON object a line to out (format in docs/RECORD.md, docs/GAMES.md);
 * view_seat 0..rec->nseats-1 adds that seat's view after each accepted action,
 * -1 none. Returns 0, or -1 if out of memory (or rec->game is none of the
 * three games, which record_parse_game never gives). */
int replay_run(const record *rec, int view_seat, FILE *out);

/* ---- The driver beneath replay_run, for other readers of a record (the
 * match page, bot/store/page.c). ---- */

enum replay_kind {
	REPLAY_DEAL,          /* a deal has just been dealt (before its first action) */
	REPLAY_DEAL_REFUSED,  /* the deal could not start: error, code */
	REPLAY_ACTION,        /* an action was accepted: act, res (its events), ended */
	REPLAY_REFUSED,       /* an action was refused: act, error, code */
	REPLAY_MATCH,         /* last: the replay is over (score_name: "tokens" or "score") */
};

/* One moment of a replay; every pointer is borrowed for the hook's call only. */
typedef struct replay_step {
	int kind;                  /* enum replay_kind */
	size_t deal;               /* index into rec->deals */
	long action;               /* index into its actions, -1 for none */
	const game_action *act;
	const game_result *res;
	int ended;                 /* this action ended the deal */
	const char *error, *code;  /* a refusal in words and the engine's name for it */
	const char *score_name;
} replay_step;

/* Called at each step with the game as it stands after it; nonzero stops the walk. */
typedef int (*replay_hook)(void *ctx, const game *g, const replay_step *st);

/* Replays rec (borrowed) through the engine, calling hook at every step.
 * Returns 0, the hook's nonzero answer, or -1 (out of memory, unknown game). */
int replay_walk(const record *rec, replay_hook hook, void *ctx);

struct json_object;
/* New json-c objects, the caller's (NULL when out of memory): what seat may
 * know and do now (the `--view` object); how the last deal ended (the
 * `end` object). */
struct json_object *replay_view(const game *g, int seat);
struct json_object *replay_end(const game *g);

/* ---- What a game gives replay (its presentation's present.replay) ---- */

/* What replay prints differently for each game; the rest is the same. */
typedef struct replay_game {
	const game_def *def;
	const char *end_event;    /* the event after which a deal's end is printed */
	const char *score;        /* the match line's name for game_status.score */
	/* New JSON objects, the caller's: what seat may know and do now; how the
	 * last deal ended. */
	struct json_object *(*view)(const game *g, int seat);
	struct json_object *(*end)(const game *g);
	/* The refusal res in words into buf; names[s]: seat s's player (NULL past the seats). */
	void (*refusal)(char *buf, size_t len, const game *g, const game_result *res,
			const char *const names[GAME_MAX_SEATS]);
} replay_game;

/* JSON pieces for a game's view, new objects the caller owns; NULL (JSON
 * null) for a seat, card or trick that is none. A seat; a boolean; [a, b];
 * the n numbers of v; a card's code in def's pack; the codes of a set. */
struct json_object *replay_j_seat(int seat);
struct json_object *replay_j_bool(int b);
struct json_object *replay_j_pair(int a, int b);
struct json_object *replay_j_list(const int32_t *v, int n);
struct json_object *replay_j_card(const game_def *def, int c);
struct json_object *replay_j_cards(const game_def *def, game_cards s);
/* A suit (enum suit) by its letter ("S"), null for none. */
struct json_object *replay_j_suit(int suit);
/* A view's first keys, the same in every game. */
struct json_object *replay_j_view_head(const game_def *def, int seat, int phase, int deal_no, int dealer, int turn,
				       game_cards hand);
/* A trick of n cards (cut: a bit per card that cut, -1: the game has no
 * cut); null before its lead. */
struct json_object *replay_j_trick(const game_def *def, int leader, int n, const uint8_t *seat, const uint8_t *cards,
				   int winner, int cut);
/* The names of the actions in acts (a bit per action number). */
struct json_object *replay_j_acts(const game_def *def, uint32_t acts);
/* The cards a seat may act with, only those in known (a view never leaks a
 * card this way; one the engine offered beyond them is logged). */
struct json_object *replay_j_known(const game_def *def, int seat, game_cards cards, game_cards known);
/* {"seat", "value"}: a bid, or "pass" for value 0. */
struct json_object *replay_j_bid(int seat, int value);
/* What seat may do now: actions, the bid range and the cards it may act
 * with (only those in known, so a view never leaks a card). */
struct json_object *replay_j_legal(const game *g, int seat, game_cards known);
/* A refusal in English words from the game's refusal code (the codes
 * Trump304 and Rook share): suit is what the game calls suit (or colour)
 * a, steps how its bids go. */
void replay_refusal_words(char *buf, size_t len, const game_def *def, const game_result *res,
			  const char *const names[GAME_MAX_SEATS], const char *suit, const char *steps);

#endif
