/* replay.h: `cardbot replay`, which runs a game record through the engine and prints JSON lines. */
#ifndef CARDBOT_REPLAY_H
#define CARDBOT_REPLAY_H

#include <stdio.h>
#include "record.h"

/* Entry point of `cardbot replay` (argv[0] is "replay"). Returns the exit
 * status: 0 replayed, 1 the file cannot be read or output failed, 2 the
 * record is malformed, 64 bad usage. */
int replay_main(int argc, char **argv);

/* Replays rec (borrowed), of any game, through engine/game.h and writes one
 * JSON object a line to out (format in docs/RECORD.md, docs/GAMES.md);
 * view_seat 0..rec->nseats-1 adds that seat's view after each accepted action,
 * -1 none. Returns 0, or -1 if out of memory (or rec->game is none of the
 * three games, which record_parse_game never gives). */
int replay_run(const record *rec, int view_seat, FILE *out);

#endif
