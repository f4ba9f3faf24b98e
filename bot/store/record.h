/* record.h: game records (docs/RECORD.md) read and checked into typed structs before any replay. */
#ifndef CARDBOT_RECORD_H
#define CARDBOT_RECORD_H

#include <stddef.h>
#include "card.h"
#include "g304.h"
#include "game.h"

#define RECORD_FORMAT "cardbot-record/1"
/* A record is one match: even at one action a second a match is far shorter
 * than this; larger input is corrupt or hostile, and costs memory to parse. */
#define RECORD_MAX_BYTES ((size_t)16 << 20)
/* A match rarely runs past a few hundred deals (11 tokens a team, redeals
 * included); ten thousand leaves room for long bank-scoring matches. */
#define RECORD_MAX_DEALS 10000
/* A deal takes at most about 120 accepted actions (bidding is bounded by
 * G304_BIDLOG_MAX); refused actions may be recorded too, so allow plenty. */
#define RECORD_MAX_ACTIONS 1000
/* Longer than any IRC nick or Matrix user id (255 bytes). */
#define RECORD_MAX_NAME 255
/* The format nests five deep (record, deals, deal, actions, order). */
#define RECORD_MAX_DEPTH 16
/* Room for a one-line error message naming the field. */
#define RECORD_ERR_MAX 256

typedef struct record_deal {
	card deck[CARD_COUNT];   /* top first, 32 distinct cards */
	size_t nactions;
	g304_action *actions;    /* owned; seats 0..3, types and cards checked */
	/* Games other than 304 (record.game): the deck in the game's own pack
	 * (game->deck_size cards) and nactions actions of the game_def. */
	uint8_t gdeck[GAME_MAX_DECK];
	game_action *gactions;   /* owned */
} record_deal;

typedef struct record {
	g304_rules rules;
	char *players[GAME_MAX_SEATS]; /* owned, non-empty, no NUL inside */
	int dealer;                /* first dealer, a seat */
	size_t ndeals;
	record_deal *deals;        /* owned */
	const game_def *game;      /* &game_def_304, &game_def_304six, &game_def_trump304 or &game_def_rook */
	int nseats;                /* players: 4, 6 for 304six, or 2-4 for trump304 */
} record;

/* Parses a whole record from text (len bytes, need not be NUL-terminated).
 * Returns a record that belongs to the caller (free with record_free), or
 * NULL with a one-line reason naming the field written into err. */
record *record_parse(const char *text, size_t len, char err[RECORD_ERR_MAX]);

/* As record_parse, for a record of any game (304, 304six, trump304, rook):
 * a record whose game is not 304 has nseats players (players[nseats..]
 * NULL), rules only for 304six (304's options), and its decks and actions
 * in gdeck and gactions (actions NULL). */
record *record_parse_game(const char *text, size_t len, char err[RECORD_ERR_MAX]);

enum record_read_status {
	RECORD_READ_OK,
	RECORD_READ_IO,       /* the file cannot be opened or read */
	RECORD_READ_TOO_BIG,  /* over RECORD_MAX_BYTES: not a record we accept */
};

/* Reads a file ("-": standard input) whole. On RECORD_READ_OK, *text is a
 * malloc'd buffer the caller frees (NUL-terminated, *len bytes before it);
 * otherwise err holds a one-line reason naming the file. */
int record_read_file(const char *path, char **text, size_t *len, char err[RECORD_ERR_MAX]);

/* Frees a record from record_parse; NULL is fine. */
void record_free(record *r);

#endif
