/* table.h: one table in one channel or room, for every game: seats, the match, announcements, the turn timer. */
#ifndef CARDBOT_TABLE_H
#define CARDBOT_TABLE_H

#include <stdint.h>
#include "adapter.h"
#include "game.h"
#include "loop.h"
#include "rng.h"
#include "store.h"

#define TABLE_NAME_MAX 64        /* display names are cut to this */
#define TABLE_OUT_MAX 4096       /* announcements gathered before they are sent */
#define TABLE_NOTIFY_MAX 32      /* people who asked to hear when a game starts */
#define TABLE_VIEWERS_MAX 32     /* identities that held a seat in one deal (more are refused a seat) */
#define TABLE_SEATS GAME_MAX_SEATS /* seats a table has room for (a game may use fewer) */
#define TABLE_KEY_LEN 8          /* a seat key's characters (40 bits: a guess a second takes ages) */
/* Not brief: a move typed in the room and refused is marked there at most
 * once a seat in this long, so refusals cannot flood the channel (every
 * accepted move is told there anyway). */
#define TABLE_REFUSED_MARK_MS 10000

enum table_state { TABLE_OPEN, TABLE_PLAYING };
enum table_pace { PACE_LIVE, PACE_CASUAL, PACE_CORRESPONDENCE };

/* Brief: a turn that passed in silence is named after this long, with a
 * mention (Matrix sends it as m.text, which notifies, where hands and
 * notices do not), so a player not watching the room learns of it. Short
 * enough not to keep a table waiting, long enough that most turns, taken
 * at once by people following the room, cost nothing. */
#define TURN_NUDGE_MS 12000
/* Brief: while the same turn is still awaited the mention is made again,
 * after twice and four times as long: a network that had to hold one back
 * drops it (ADAPTER_TIMELY), and the player would otherwise hear nothing
 * until the pace's reminder. */
#define TURN_NUDGES_MAX 3

typedef struct table_settings {
	game_choices options;      /* the game options chosen here (`set caps off`), by key: each
	                            * game takes its own (game_rules_of); none: the game's defaults */
	int pace;                  /* enum table_pace */
	int live_turn_seconds;     /* live: a computer moves for an absent player after this */
	int casual_remind_seconds; /* casual: a reminder after this */
	int corr_remind_seconds;   /* correspondence: a reminder after this */
	int grace_seconds;         /* a player who quit keeps the seat this long */
	int deal_pause_ms;         /* between one deal's end and the next deal */
	int turn_nudge_ms;         /* brief: a turn that passed in silence is named (a mention) this long
	                            * after, if still awaited (0: never) */
	int cut_offer_ms;          /* the cut offered before a deal waits this long for `cut N`
	                            * (0: no cut is offered); people on phones need more than the
	                            * pause between deals */
	int computer_delay_ms;     /* a computer player's move is told this long after it became due
	                            * (its decision is made meanwhile) */
	int computer_easy;         /* computer players play randomly (level "easy") */
	int computer_level;        /* enum game_ai_level: strong, else normal (when not easy) */
	int computer_think_ms;     /* a search player's budget per decision (0: 300 ms) */
	int hints;                 /* private prompts list the legal cards */
	int lastcard;              /* a person's last card is played for them (`set lastcard on`):
	                            * it is the only card they may play, and everyone knows it */
	int brief;                 /* the network limits the bot's messages (Matrix rate limits):
	                            * a move the room saw typed is not repeated, the turn is named
	                            * only in a line that goes out anyway, a trick is told in one
	                            * line, and hands go privately when they change, not every turn */
	char game[16];             /* what "!new" opens: a game's record name ([tables] game) */
	char lang[4];              /* the room's language: "en", "ta" or "si" (text_lang_find) */
} table_settings;
void table_settings_default(table_settings *s);

typedef struct seat {
	char user[ADAPTER_ID_MAX];  /* identity; "" for an empty seat */
	char name[TABLE_NAME_MAX];  /* shown to others */
	int computer;
	int away;                   /* left or quit; the seat may be taken after the grace */
	int64_t away_since;
	int ascii;                  /* this player's client shows boxes for suit symbols */
	int finish_deal;            /* after a caps call, `finish`: the bot plays this seat's cards
	                             * to the end of deal number finish_deal - 1 (0: not asked) */
	int mid_match;              /* took a computer's seat after the match started (a !stop vote
	                             * counts it only when none of the match's own players is left) */
	int unconfirmed;            /* the bot lost sight of this nick (a restart, a quit): nothing
	                             * private goes to it until `claim KEY` or the grace is over */
	char key[TABLE_KEY_LEN + 1];/* the seat key told privately when a nick sat ("" none) */
	int claim_told;             /* an unconfirmed seat's nick was told how to claim it */
} seat;

/* Someone who held a seat while the current deal's cards were out: within a
 * deal a person sees at most one seat's private cards, under every identity
 * they had in it. Kept with the table's meta, so a restart remembers it. */
typedef struct seat_viewer {
	char user[ADAPTER_ID_MAX];
	char origin[ADAPTER_ID_MAX]; /* the user@host it spoke from (IRC), "" unknown: only a hint, as
	                              * everyone behind a web gateway or one machine shares it */
	int seat;
	int deal;                   /* table.deal_idx when they held it */
	int lost;                   /* a nick the bot lost sight of (a quit, a restart): whoever holds
	                             * it now may be someone else, so it is a hint too */
} seat_viewer;

struct table;
struct ai_worker;
struct text_lang;

/* Answers' keys (table_host.answering): the command, its words and the room. */
#define TABLE_KEY_MAX 256
/* How an answer is meant (table_host.answering): */
enum table_answer_how {
	TABLE_ANSWER_REPEATS = 0,  /* a waiting line with the key says it: the new one may be dropped */
	TABLE_ANSWER_REPLACES = 1, /* it makes a waiting line with the key stale (where someone sits now) */
	TABLE_ANSWER_WHOLE = 2,    /* asked for in full (a record): never cut at the limit on a person's answers */
};

/* What a table needs of its host, and all it reaches of it, as an adapter
 * reaches the bot through adapter_host: bot/host/bot.c fills one for all its
 * tables (bot_table_host), which it outlives. ctx is passed back to each
 * function. */
typedef struct table_host {
	void *ctx;
	loop *ev;                        /* the event loop (timers) */
	const char *prefix;              /* the command prefix ("!"): the host's string, read when used */
	const char *public_dir, *public_url; /* where !record writes pages for the web, and its address ("" none) */
	/* A new table's settings in room: the host's defaults with the channel's. */
	void (*settings_for)(void *ctx, adapter *net, const char *room, table_settings *out);
	/* The database now; NULL: nothing is kept. */
	store *(*db)(void *ctx);
	/* The computer players' worker thread (make: made on first use); NULL
	 * when there is none (not made yet, or it cannot be). */
	struct ai_worker *(*ai)(void *ctx, int make);
	/* Lines out: to a room; privately; privately as part of room's story
	 * (a hand dealt as the game moves on); a message of parts alerting
	 * mention (bot.h's bot_say_room, bot_say_private, bot_say_story, bot_send). */
	void (*say_room)(void *ctx, adapter *net, const char *room, const char *text, int flags);
	void (*say_private)(void *ctx, adapter *net, const char *user, const char *text, int flags);
	void (*say_story)(void *ctx, adapter *net, const char *room, const char *user, const char *text, int flags);
	void (*send)(void *ctx, adapter *net, const char *room, const char *user, const char *story,
		     const char *const *parts, int nparts, const char *mention, int flags);
	/* The lines said from now until the end of the event answer its
	 * person's question, with this key (NULL: none), meant as how (enum
	 * table_answer_how). */
	void (*answering)(void *ctx, const char *key, int how);
	/* A person's language (NULL: none chosen); in private, theirs or the bot's. */
	const struct text_lang *(*lang_of)(void *ctx, const adapter *net, const char *user);
	const struct text_lang *(*lang_private)(void *ctx, const adapter *net, const char *user);
	/* How private lines reach a person (enum adapter_private_as); whether
	 * a room was told so already (and it is told now). */
	int (*private_of)(void *ctx, const adapter *net, const char *user);
	int (*private_told)(void *ctx, const adapter *net, const char *user);
	/* `lang` and `private`, answered by the host (room: the room's language). */
	void (*lang_command)(void *ctx, adapter *net, const char *user, const struct text_lang *room, int argc,
			     char **argv);
	void (*private_command)(void *ctx, adapter *net, const char *user, const struct text_lang *room, int argc,
				char **argv);
	int (*is_operator)(void *ctx, adapter *net, const char *user);
	/* Marks t to be freed at the next safe point. */
	void (*close)(void *ctx, struct table *t);
	/* The next deal's deck in def's pack, as its shuffle (before any
	 * cut): 1 with deck filled, 0 when the table shuffles. Tests and
	 * `cardbot play --seed` give one; NULL: the table always shuffles. */
	int (*deck)(void *deck_ctx, const game_def *def, uint8_t *deck);
	void *deck_ctx;
} table_host;

typedef struct table {
	const table_host *host;
	adapter *net;
	char room[ADAPTER_ID_MAX];
	int state;
	table_settings set;
	const game_def *gdef;      /* the game this table plays (304, Trump304, Rook) */
	const struct text_lang *reader; /* whom the pieces it composes now are for (NULL: the room):
	                                 * the room's from table_enter, a person's around their lines */
	const struct present *pr;  /* how it looks to its players (bot/games/present.h) */
	game *g;                   /* the match (NULL before the first; kept after it ends) */
	uint64_t nacts;            /* actions accepted at this table: a computer's late answer
	                            * to an older position is dropped */
	int nseats;                /* seats at this table: 4, or 2-4 for Trump304 */
	seat seats[TABLE_SEATS];
	int first_dealer;
	uint64_t timer;            /* the one pending deadline (0: none) */
	int64_t move_by;           /* live pace: when a computer moves for the player (0: no limit) */
	int timer_kind;
	int warned;                /* live pace: the half-time warning went out */
	uint64_t computer_timer;   /* a computer player's pending move */
	/* A computer's move is told computer_delay_ms after it became due,
	 * whatever it had to decide: it is decided meanwhile and held until
	 * then, so a move made at once (one legal card) looks like any other
	 * and tells nobody that the seat had no choice. */
	int64_t pace_due;          /* when the pending move may be told (loop_time; 0: none paced) */
	uint64_t pace_stamp;       /* the position it was asked for (table_stamp) */
	int pace_seat;
	int pace_ready;            /* its answer came (pace_act): told at pace_due */
	int pace_over;             /* pace_due passed first: told as soon as the answer comes */
	game_action pace_act;
	uint8_t stop_votes;        /* seats that voted to stop */
	uint64_t deal_timer;       /* the next deal */
	char notify[TABLE_NOTIFY_MAX][ADAPTER_ID_MAX];
	int nnotify;
	char out[TABLE_OUT_MAX];   /* channel announcements not yet sent, each ending in a NUL */
	size_t outlen;
	int nout;                  /* how many */
	char out_mention[ADAPTER_ID_MAX]; /* the person they alert ("" nobody): the first addressed */
	int closing;               /* to be freed at a safe point */
	long deals_played;
	rng dice;                  /* for easy computer players only; deals use the kernel's CSPRNG */
	/* Storage (bot->db; all unused when the bot runs without a database). */
	int64_t match_id;          /* the match in the database (0: none) */
	int deal_idx;              /* deals of this match stored so far (redeals included) */
	int seq;                   /* actions of the current deal stored so far */
	char salt[33];             /* the current deal's salt (in the record only, never said) */
	char commitment[65];       /* the current deal's commitment, told when it starts */
	unsigned long meta_hash;   /* of the meta last saved, to save only changes */
	int save_failed;           /* the last save failed (said once, not every line) */
	int seen_seat;             /* brief: the seat whose move the room just saw typed (-1: none) */
	int cmd_in_room;           /* the command being handled was typed in the room */
	int64_t refused_mark_at[TABLE_SEATS]; /* not brief: when each seat's refused move was last
	                                       * marked in the room (loop_now ms; 0: never) */
	uint64_t nudge_timer;      /* brief: names a turn that passed in silence, after TURN_NUDGE_MS */
	int nudges;                /* brief: mentions made for the turn awaited now */
	int nudged_seat;           /* brief: the seat the last mention named (-1: none since the turn moved) */
	int cut_seat;              /* the seat offered the cut before the next deal (-1: none) */
	int cut_at;                /* the cut it asked for (1-31), 0: none */
	seat_viewer viewers[TABLE_VIEWERS_MAX];
	int nviewers;
	int starting;              /* filled and started by one request (cardbot play): no "!start" hint */
	uint8_t hand_due;          /* seats whose changed hand is told at their turn (once, not
	                            * also when it changed), or when the bidding it came in ends */
	char bid_by[TABLE_SEATS][TABLE_NAME_MAX]; /* who held each seat when it last bid in this deal
	                                          * ("" unknown: the seat's name now) */
} table;

/* A table in room of net for host h (borrowed; it outlives the table). */
table *table_new(const table_host *h, adapter *net, const char *room, const table_settings *set);
void table_free(table *t);

/* A command from `user` (shown as `name`) at this table; in_room is 0 for a
 * private message. args[0] is the command word. */
void table_command(table *t, const char *user, const char *name, int in_room, int argc, char **argv);
/* The network told us about people and the room. */
void table_user_renamed(table *t, const char *old_user, const char *new_user, const char *new_name);
void table_user_left(table *t, const char *user);
void table_user_seen(table *t, const char *user);  /* spoke or joined */
void table_resumed(table *t);                       /* the bot is back in the room */
/* The bot lost its connection: it no longer sees who holds each nick. */
void table_link_lost(table *t);
/* May `user` act at or read this table by a private command? Those in its
 * room may, and its seated players (while briefly away too); 1 or 0. */
int table_admits(const table *t, const char *user);
/* A new table takes the choices players made with !set at this channel's
 * earlier tables (kept in the database), and says which. */
void table_recall_settings(table *t);
/* Sets a new table up from the database: its meta and, when match_id is
 * not 0, its match replayed through the engine. On -1 (err says why) the
 * table is left open with nobody seated. */
int table_restore(table *t, const char *meta, int64_t match_id, char *err, size_t errlen);
/* The game a player names with `new WORD [N]`: the game of that record
 * name, or the game of its family (game_def.family) that seats N when it
 * does not ("304" with 6 seats is 304six: game_at_seats). */
const char *table_game_word(const char *word, int nseats);
/* Makes an open table host a game: "304", "304six" (6 seats), "trump304"
 * (2-4 seats) or "rook"; nseats 0 means the game's usual count. -1 when the game or the
 * count is not possible (nothing changes). */
int table_set_game(table *t, const char *name, int nseats);
/* The record name of the table's game ("304", "trump304", "rook"). */
const char *table_game_name(const table *t);
/* The name people use for the game named gname ("304six": "304 for six"),
 * in language l, in buf; gname itself for a game the bot cannot host.
 * Returns buf. */
const char *table_game_shown(const struct text_lang *l, char *buf, size_t len, const char *gname);
/* The room's language (t->set.lang; English for a code it does not know). */
const struct text_lang *table_lang(const table *t);
/* The table's room as its people know it (a Matrix room's alias, else the
 * id), valid until the next call. */
const char *table_room_shown(const table *t);
/* `help [COMMAND]` answered privately to user, with no table needed (a
 * person at no table asks the bot privately). */
void table_help(const table_host *h, adapter *net, const char *user, int argc, char **argv);
/* A command in room (NULL: said privately, naming no room) where no table
 * is open: the room's past (history, stats, top, record), hearing when a
 * table opens there (notify), the games (rules), a person's own choices
 * (ascii), help; anything else of the table's is told how to open one.
 * in_room: typed in the room. Every command of the table's gets an answer
 * (in the room a word that is none of them is another bot's: ignored). */
void table_no_table(const table_host *h, adapter *net, const char *room, const char *user, const char *name, int in_room,
		    int argc, char **argv);
/* A table just opened: who asked to hear of one here is told privately,
 * and hears when its game starts (opener: who opened it, not told). */
void table_notify_opened(table *t, const char *opener);
/* The opener sits, computer players take every other seat and the match
 * begins, all at once (`cardbot play`): no line tells them to !start. */
void table_fill_and_start(table *t, const char *user, const char *name);
/* The seat of a user at this table, or -1. */
int table_seat_of(const table *t, const char *user);

#endif
