/* present.h: what differs between games at a table, one file per game.
 *
 * The table (bot/table/table.c: seats and commands; bot/table/table_play.c: the flow of
 * a match) drives every game through engine/core/game.h. What a game looks like
 * to its players sits behind this table of functions: the words for its
 * events and refusals, a hand, the state of play, its own commands, what a
 * computer player or a hint chooses, and how an action is written in a
 * record; its own commands (present.verbs, which the table's command
 * table takes), what replay, the match page, records and statistics show
 * of it. A new game is its engine folder, its presentation here (with
 * its lines) and one line in each registry: docs/ENGINE.md, "Adding a
 * game", lists them. The host reads records, options, pages and texts
 * through this struct and game.h, and names no game anywhere else: a
 * game's cards are drawn through its game_def (render_card_of), and
 * "!new 304 6" finds 304six through game_def.family (game_at_seats).
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
struct text_lang;

/* Why a computer chooses a move (present.choose). */
enum present_why {
	PRESENT_MOVE,      /* a computer player's own turn */
	PRESENT_STAND_IN,  /* the live pace's deadline: the bot moves for an absent person */
	PRESENT_HINT,      /* `hint`: what the best player would do, told privately */
};

/* A command of the game's own (bid, play, ...). The table's command table
 * takes these beside its own (bot/table/table.c): each is for a seated player
 * while a match is on, is checked for its word count there, and reaches
 * present.command. A word several games share is written alike in each. */
typedef struct present_verb {
	const char *name, *alias;  /* alias: NULL for none */
	int min_args, max_args;    /* words after the command */
	int help;                  /* line id of its help (`help WORD`) */
} present_verb;

/* The verbs several games share, written once (their help lines are the
 * host's, bot/text/text.h). */
#define PRESENT_VERB_BID { "bid", "b", 1, 1, T_HELP_BID }
#define PRESENT_VERB_PASS { "pass", NULL, 0, 0, T_HELP_PASS }
#define PRESENT_VERB_PLAY { "play", "p", 1, 1, T_HELP_PLAY }
#define PRESENT_VERB_TRUMP { "trump", NULL, 1, 1, T_HELP_TRUMP }
#define PRESENT_VERB_END { NULL, NULL, 0, 0, 0 }

/* !stats's bands of bids as trumper (store_stats_get): band i holds the
 * bids from from[i] up to from[i + 1] (from[0] is 0; INT_MAX: no band);
 * its name ("200-249"; NULL past the last), and a line id for it in the
 * reader's words (0: the name as it is). */
typedef struct present_bands {
	int from[STORE_BANDS];
	const char *names[STORE_BANDS];
	int lines[STORE_BANDS];
} present_bands;

/* The host's sentences that list the games (bot/text/text.h): `help new`
 * (T_HELP_NEW), `new`'s refusal of an unknown game (T_G_NEW_USAGE), `help
 * stats`'s bands of bids (T_HELP_STATS) and `help cut`'s cut per game
 * (T_HELP_CUT). The host's line is the frame; each game gives its part of
 * it (present.t_parts), and present_parts joins them. PRESENT_PART_CAPS,
 * `help stats`'s games with caps, is no game's line: it is the names of
 * the games with stats_caps that have a stats part. */
enum present_part {
	PRESENT_PART_NONE,
	PRESENT_PART_NEW,
	PRESENT_PART_NEW_REFUSED,
	PRESENT_PART_STATS,
	PRESENT_PART_CUT,
	PRESENT_PARTS,
	PRESENT_PART_CAPS = PRESENT_PARTS,
};

typedef struct present {
	const game_def *def;
	/* A command that opens a table of this game ("304": `!304`), or NULL. */
	const char *open_verb;
	/* The game's commands, ended by one with a NULL name. */
	const present_verb *verbs;
	/* Its record's actions (bot/store/record.c, docs/RECORD.md): `trump` names a
	 * colour (Rook's "colour": "R"), read by this (-1: none such); NULL:
	 * `trump` names a card. */
	int (*record_colour)(const char *word);
	/* A card code to give as an example where a record's card is wrong
	 * (NULL: "JS"). */
	const char *record_card;
	/* A record's bid is a number below record_bid_limit (0: 1000), or
	 * the word record_bid_word (NULL: none; 304's "pcc") for the bid
	 * record_bid_limit itself. */
	int record_bid_limit;
	const char *record_bid_word;
	/* The match page's words for it (bot/store/page.c, in English): a card code
	 * in words (NULL: a suit card, "J♠"); the trump a `trump` action names
	 * by its value (NULL: a card laid face down); the bidder plays the bid
	 * once the bidding is over (its views name no trumper); the deal's
	 * card points are the trumper's side's, then the others'. */
	void (*page_card)(const char *code, char *out, size_t len);
	const char *const *page_trumps;
	int page_bidder_plays, page_points_by_bidder;
	/* How the page's script shows a card (web/page.js knows no game): its
	 * face, its words read aloud, its class (web/page.css: red, green,
	 * yellow or black ink, or word) (NULL: a suit card, "J♠", "jack of
	 * spades", "black"); the letters a view's "trump" names,
	 * in page_trumps' order (NULL: suits, S H D C). */
	void (*page_face)(const char *code, char shown[16], char spoken[32], char cls[16]);
	const char *const *page_trump_keys;
	/* More of the page's words: a bid at record_bid_limit in words
	 * ("partner close caps"); the bit of a "played" event's flags that
	 * marks a card played face down (0: none); a "revealed" event is the
	 * trumper's look at the face-down cards that found a trump; the cards
	 * each seat holds before a "dealt_rest" event. */
	const char *page_bid_word;
	int page_down_flag, page_reveal_inspects, page_first_batch;
	/* !stats's bands of bids. */
	const present_bands *bands;
	/* What `cardbot replay` and the match page show of it (replay.h). */
	const struct replay_game *replay;
	/* The game's own data for shared code (present_named.h's words), or NULL. */
	const void *words;
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
	/* Line ids: its part of each sentence that lists the games, by
	 * enum present_part ({1}: the command prefix); 0: none, where another
	 * game of its file speaks for it (304's parts name its other sizes). */
	int t_parts[PRESENT_PARTS];
	/* !stats and !top: the game's matches end with a winner (not
	 * Trump304's, which run until stopped: only deals are counted); the
	 * game has caps (304). */
	int stats_matches, stats_caps;
	/* Trump304: the timer makes a random legal move for an absent player
	 * (said with t_timed_out); 0: a computer player stands in for them. */
	int timeout_random, t_timed_out;
	/* The game's own pace: a table that takes the game plays live with
	 * this many seconds a turn (Trump304: 30); 0: the table's pace. */
	int live_turn_seconds;

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
	/* The cards seat s holds now (304: its trump card on the table too). */
	int (*cards_held)(const struct table *t, int s);
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
	/* A deal ended: each seat's share of it for the statistics, and the
	 * match's state (end->match_over, winner, tokens). */
	void (*deal_results)(const struct table *t, store_deal_end *end);
	/* Forget whatever is pending for this table (a search in progress). */
	void (*forget)(struct table *t);
} present;

extern const present present_304, present_304six, present_304eight, present_304six24, present_504, present_904,
	present_trump304,
	present_rook;
/* 304's refusals and phases in each language (bot/games/present_304_text.c). */
extern const struct text_game present_304_words;

/* The i-th game a table can host (from 0), or NULL past the last. */
const present *present_at(int i);
/* The presentation of a game, or NULL when the table cannot host it. */
const present *present_find(const game_def *def);
/* The game whose open_verb is word (any case), or NULL. */
const present *present_by_verb(const char *word);
/* The game of this record name that a table can host, or NULL. */
const game_def *present_game(const char *name);
/* The games a table can host, in the registry's order, for a line that
 * lists them (cut to len): their record names, "\"304\", \"304six\", ...
 * or \"rook\"", or with titles their English titles, "304, 304 for six,
 * ... and Rook" (--help). */
void present_names(char *out, size_t len, int titles);
/* The games' parts of a sentence that lists them (enum present_part), in
 * lang, joined as that sentence joins them, with prefix for {1}; "" for
 * PRESENT_PART_NONE. Cut to len, on a whole character. */
void present_parts(const struct text_lang *lang, int part, const char *prefix, char *out, size_t len);
/* The option named key of any game a table can host (the first game to
 * declare it), or NULL: what `set`, the configuration and a table's saved
 * settings accept. */
const game_option *present_option(const char *key, int nocase);
/* The k-th distinct option of those games (from 0), or NULL past the last. */
const game_option *present_option_at(int k);

#endif
