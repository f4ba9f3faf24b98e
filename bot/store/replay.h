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

#endif
