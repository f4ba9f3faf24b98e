/* present.h: what differs between games at a table, one file per game.
 *
 * The table (bot/table/table.c: seats and commands; bot/table/table_play.c: the flow of
 * a match) drives every game through engine/core/game.h. What a game looks like
 * to its players sits behind this table of functions: the words for its
 * events and refusals, a hand, the state of play, its own commands, what a
 * computer player or a hint chooses, and how an action is written in a
 * record. A new game is one engine module (engine/core/game.h's list), one
 * presentation file and one line in present_find's list (bot/games/present.c).
 *
 * Every function may assume t->g is the running match of def's game, unless
 * it says otherwise. Nothing here may show a card to anyone not entitled to
 * it: hands and face-down cards go through table_send_hand / bot_say_story
 * to their seat only (docs/SECURITY.md).
 */
#ifndef CARDBOT_PRESENT_H
#define CARDBOT_PRESENT_H

#include <stddef.h>
#include "game.h"
#include "render.h"
#include "store.h"

struct table;
struct record;

/* Why a computer chooses a move (present.choose). */
enum present_why {
	PRESENT_MOVE,      /* a computer player's own turn */
	PRESENT_STAND_IN,  /* the live pace's deadline: the bot moves for an absent person */
	PRESENT_HINT,      /* `hint`: what the best player would do, told privately */
};

typedef struct present {
	const game_def *def;
	/* The game's own data for shared code (present_named.h's words), or NULL. */
	const void *words;
	/* The game uses the table's 304 options (table_settings.rules): passed
	 * to game_new and stored with the match. */
	int uses_rules;
	/* Who is offered the cut before a deal: the seat after the dealer
	 * (+1) or before (-1); 0: no cut. */
	int cutter_step;
	/* Line ids: the live pace's half-time warning (name, seconds left);
	 * all seats taken (seats); !start with seats empty (room, seats). */
	int t_warn, t_ready, t_need_seats;
	/* Line id: `rules`, the game in a few sentences for a newcomer (room). */
	int t_about;
	/* Line id: what the game is, in one line for !rules where no table is
	 * open ({1}: the command prefix). */
	int t_brief;
	/* Line id: the game's name as people say it ("304 for six", not "304six"). */
	int t_name;
	/* !table, !stats and !top name the game (tables of other games than 304). */
	int name_in_table_line;
	/* !stats and !top: the game's matches end with a winner (not
	 * Trump304's, which run until stopped: only deals are counted); the
	 * game has caps (304). */
	int stats_matches, stats_caps;
	/* Trump304: the timer makes a random legal move for an absent player
	 * (said with t_timed_out); 0: a computer player stands in for them. */
	int timeout_random, t_timed_out;

	/* The match begins: who plays with whom, and the game's terms. */
	void (*match_start)(struct table *t);
	/* A deal was just dealt: the deal line (number, dealer, first to act). */
	void (*dealt)(struct table *t);
	/* The events of an accepted action into words for the room, and the
	 * hands that changed without their owner acting. */
	void (*events)(struct table *t, const game_result *res);
	/* A refusal into words for the player who tried it (seat who). */
	void (*refusal)(struct table *t, const game_result *res, int who, char *buf, size_t len);
	/* Seat s's private line: the state, the hand, what may be done. */
	void (*hand)(struct table *t, int s);
	/* The turn line for seat s in the room; 0 when it has nothing to do. */
	int (*turn)(struct table *t, int s);
	/* !table's part while playing, appended to b (user: who asked). */
	void (*table_line)(struct table *t, const char *user, strbuf *b);
	/* !score's line (t->g may be NULL: no match yet). */
	void (*score)(struct table *t, char *buf, size_t len);
	/* `rules more`: the table's options. */
	void (*rules)(struct table *t, char *buf, size_t len);
	/* !last for user (seat s, or -1): the last trick, or why not. */
	void (*last)(struct table *t, const char *user, int s);
	/* A game command (bid, play, ...) from seated user at seat s while a
	 * match is on; 1 when it is this game's, 0 when the game has no such
	 * command. */
	int (*command)(struct table *t, const char *user, int s, int in_room, int argc, char **argv);
	/* A seat whose moves the bot makes though a person holds it (304: a
	 * caps caller's stated order, and who asked it to `finish`). NULL: none. */
	int (*auto_seat)(const struct table *t, int s);
	/* The rest of the deal is played out by the table at once, with any
	 * legal cards, for every seat (304: a pcc lost at a trick; the record
	 * still holds every card). NULL: never. */
	int (*play_out)(const struct table *t);
	/* A choice for seat s: 1 with *a set; 0 when it will come later
	 * through table_computer_done (a search on the worker thread); -1
	 * when there is none. */
	int (*choose)(struct table *t, int s, int why, game_action *a);
	/* A choice as the command the player would type (a hint). */
	void (*hint_text)(struct table *t, int s, const game_action *a, char *buf, size_t len);
	/* The action as the record's JSON object (docs/RECORD.md). */
	void (*action_json)(const struct table *t, const game_action *a, char *out, size_t len);
	/* The match's rules as stored with it ("{}" when the game has none). */
	void (*rules_json)(const struct table *t, char *out, size_t len);
	/* A deal ended: each seat's share of it for the statistics, and the
	 * match's state (end->match_over, winner, tokens). */
	void (*deal_results)(const struct table *t, store_deal_end *end);
	/* The match was rebuilt from its record (a restart): the table takes
	 * the record's options. NULL: nothing to take. */
	void (*restored)(struct table *t, const struct record *r);
	/* Forget whatever is pending for this table (a search in progress). */
	void (*forget)(struct table *t);
} present;

extern const present present_304, present_304six, present_trump304, present_rook;

/* The i-th game a table can host (from 0), or NULL past the last. */
const present *present_at(int i);
/* The presentation of a game, or NULL when the table cannot host it. */
const present *present_find(const game_def *def);

#endif
