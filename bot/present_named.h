/* present_named.h: words for games whose presentation works from the
 * names of their actions and events (Trump304, Rook): the turn line,
 * refusals, a record's action, the game's commands, hints, the events of
 * an action, !last, !table and !score. Each game gives the few things that
 * differ (its cards, its suits or colours, the words of a deal's end) in a
 * present_named_game; bot/present_t304.c and bot/present_rook.c use it.
 */
#ifndef CARDBOT_PRESENT_NAMED_H
#define CARDBOT_PRESENT_NAMED_H

#include "table_int.h"

/* A trick as everyone may see it (present_named_game.trick). */
typedef struct named_trick {
	int n;                    /* cards in it (0: none) */
	uint8_t seats[GAME_MAX_SEATS], cards[GAME_MAX_SEATS];
	uint8_t winner;           /* the last trick's */
	int trick_no;             /* the current trick's number from 0, or tricks taken */
	int bid, bidder;          /* the high bid and who made it (bid 0: none) */
	int trump;                /* a trump suit or colour everyone knows, or -1 */
} named_trick;

typedef struct present_named_game {
	/* One card, a suit (or colour), in style (RENDER_*). */
	void (*card)(strbuf *b, int c, int style);
	void (*suit)(strbuf *b, int x, int style);
	/* A card as a player names it, by its code or its position in seat
	 * s's hand as shown; -1 when it is neither. */
	int (*parse_card)(const table *t, int s, const char *w);
	int t_bad_card;           /* the line for a card word not understood */
	const char *bid_usage;    /* "bid N (...)" */
	int t_bidding_won;        /* the line when the bidding is won (name, bid) */
	int t_turn_trump;         /* "your turn to choose the trump" */
	/* `trump` names a colour (Rook), not a card: its number from a word
	 * (-1: none), its letter in a record, its name. NULL: a card. */
	int (*colour_parse)(const char *w);
	char (*colour_letter)(int colour);
	const char *(*colour_name)(int colour);
	/* The current trick (last 0) or the last one taken (last 1), as seat
	 * s (-1: nobody seated) may see it. */
	void (*trick)(const table *t, int s, int last, named_trick *out);
	/* The words of a deal's end (the score included). */
	void (*deal_end)(table *t);
	/* After an action's events: hands that changed without their owner
	 * acting (revealed: a trump was revealed in it). */
	void (*hands_changed)(table *t, int drew, int revealed);
	/* Trump304's cut: a played card with flags bit 0 cuts (said so). */
	int cut_flag;
} present_named_game;

int named_can(const table *t, const game_legal *l, const char *name);
int named_turn(table *t, int s, const present_named_game *g);
void named_refusal(table *t, const game_result *res, int who, char *buf, size_t len, const present_named_game *g);
void named_action_json(const table *t, const game_action *a, char *out, size_t len, const present_named_game *g);
void named_hint_text(table *t, const game_action *a, char *buf, size_t len, const present_named_game *g);
void named_events(table *t, const game_result *res, const present_named_game *g);
int named_command(table *t, const char *user, int s, int in_room, int argc, char **argv,
		  const present_named_game *g);
void named_last(table *t, const char *user, int s, const present_named_game *g);
void named_table_line(table *t, const char *user, strbuf *b, const present_named_game *g);
/* "ann & cat 12, ben & dev -12": each side's score. */
void named_scores(const table *t, char *buf, size_t len);
/* The simple player's choice (every game has one). */
int named_choose(table *t, int s, int why, game_action *a);

#endif
