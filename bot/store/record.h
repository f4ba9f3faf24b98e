/* record.h: game records (docs/RECORD.md) read and checked into typed structs before any replay. */
#ifndef CARDBOT_RECORD_H
#define CARDBOT_RECORD_H

#include <stddef.h>
#include "card.h"
#include "game.h"

#define RECORD_FORMAT "cardbot-record/1"
/* A record is one match: even at one action a second a match is far shorter
 * than this; larger input is corrupt or hostile, and costs memory to parse. */
#define RECORD_MAX_BYTES ((size_t)16 << 20)
/* A match rarely runs past a few hundred deals (11 tokens a team, redeals
 * included); ten thousand leaves room for long bank-scoring matches. */
#define RECORD_MAX_DEALS 10000
/* A deal takes at most about 120 accepted actions (304's bidding, the
 * longest, is bounded by its bid log); refused actions may be recorded
 * too, so allow plenty. */
#define RECORD_MAX_ACTIONS 1000
/* Longer than any IRC nick or Matrix user id (255 bytes). */
#define RECORD_MAX_NAME 255
/* The format nests five deep (record, deals, deal, actions, order). */
#define RECORD_MAX_DEPTH 16
/* Room for a one-line error message naming the field. */
#define RECORD_ERR_MAX 256

/* A deal in every game's form (engine/core/game.h): the deck in the game's
 * own pack (record.game->deck_size cards, top first, distinct) and nactions
 * actions of the game_def (seats, types, cards and bids checked; what the
 * rules allow is the engine's to say when the record is replayed). */
typedef struct record_deal {
	uint8_t gdeck[GAME_MAX_DECK];
	size_t nactions;
	game_action *gactions;   /* owned */
} record_deal;

typedef struct record {
	game_rules rules;          /* the game's options (game_def.options) in its own layout */
	char *players[GAME_MAX_SEATS]; /* owned, non-empty, no NUL inside */
	int dealer;                /* first dealer, a seat */
	size_t ndeals;
	record_deal *deals;        /* owned */
	const game_def *game;      /* a game a table can host (present_game) */
	int nseats;                /* players: from game->min_seats to game->max_seats */
} record;

/* Parses a whole record of any game a table can host from text (len bytes,
 * need not be NUL-terminated): nseats players (players[nseats..] NULL) and
 * the game's options. Returns a record that belongs to the caller (free
 * with record_free), or NULL with a one-line reason naming the field
 * written into err. */
record *record_parse_game(const char *text, size_t len, char err[RECORD_ERR_MAX]);
/* The same (its older name). */
record *record_parse(const char *text, size_t len, char err[RECORD_ERR_MAX]);

enum record_read_status {
	RECORD_READ_OK,
	RECORD_READ_IO,       /* the file cannot be opened or read */
	RECORD_READ_TOO_BIG,  /* over RECORD_MAX_BYTES: not a record we accept */
};

/* Reads a file ("-": standard input) whole. On RECORD_READ_OK, *text is a
 * malloc'd buffer the caller frees (NUL-terminated, *len bytes before it);
 * otherwise err holds a one-line reason naming the file. */
int record_read_file(const char *path, char **text, size_t *len, char err[RECORD_ERR_MAX]);
/* record_read_file for the command-line tool `cardbot CMD`, which says why
 * it failed on stderr ("cardbot CMD: ..."); returns its RECORD_READ_ status. */
int record_read_say(const char *cmd, const char *path, char **text, size_t *len);

/* A new match of the record's game, seats, first dealer and options, before
 * any deal (game_new's result and *err). */
game *record_game_new(const record *r, int *err);

/* Frees a record from record_parse; NULL is fine. */
void record_free(record *r);

#endif
