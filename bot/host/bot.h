/* bot.h: the host: networks, the tables in their rooms, and the commands that reach them. */
#ifndef CARDBOT_BOT_H
#define CARDBOT_BOT_H

#include "adapter.h"
#include "bot_lang.h"
#include "loop.h"
#include "store.h"
#include "table.h"

#define BOT_TABLES_MAX 4096      /* one per room; far beyond a family server's needs */
#define BOT_NETWORKS_MAX 16
#define BOT_OPERATORS_MAX 32
#define BOT_USERS_MAX 1024       /* rate-limit buckets kept at once */
#define BOT_CMD_BURST 5.0        /* commands a user may send at once... */
#define BOT_CMD_PER_SECOND 1.0   /* ...then this many a second; more are ignored. Arrivals,
				  * departures, nick changes and CTCP requests have an allowance
				  * of the same size of their own */
#define BOT_TAG_KEY_MAX TABLE_KEY_MAX /* an answer's key: the command, its words and the room */

typedef struct user_bucket {
	char user[ADAPTER_ID_MAX];
	adapter *net;
	double tokens;
	int64_t last;
	int warned;
	/* The same allowance for what else the person makes the bot do:
	 * arrivals, departures, nick changes, CTCP. Kept apart, so coming
	 * back to a table never costs a player their next move. */
	double ptokens;
	int64_t plast;
} user_bucket;

typedef struct bot {
	loop *ev;
	adapter *nets[BOT_NETWORKS_MAX];
	int nnets;
	table *tables[BOT_TABLES_MAX];
	int ntables;
	char prefix[8];
	char operators[BOT_OPERATORS_MAX][ADAPTER_ID_MAX];
	int noperators;
	table_settings defaults;
	user_bucket users[BOT_USERS_MAX];
	bot_lang_entry langs[BOT_LANG_CACHE]; /* people's !lang choices at hand (bot_lang.c) */
	int nlang_next;            /* the entry of langs taken next */
	uint64_t reap_timer;
	/* Table settings for a new table in a room (per-channel defaults);
	 * NULL: the defaults above. */
	void (*settings_for)(void *ctx, adapter *net, const char *room, table_settings *out);
	void *settings_ctx;
	double cmd_burst, cmd_per_second; /* per-user limits (BOT_CMD_* by default) */
	int solo;                  /* cardbot play: a table opened by new or !304 seats computer players
	                            * in every other seat and starts at once */
	store *db;                 /* the database (not owned); NULL: nothing is kept */
	int db_file;               /* what store_check said last (STORE_FILE_*) */
	struct ai_worker *ai;      /* computer players' thinking thread (made on first use) */
	char public_dir[4096];     /* where !record writes files for the web ("" none) */
	char public_url[1024];      /* the address public_dir is served at ("" none) */
	/* What the tables reach of the bot (table.h): the bot's own functions,
	 * and a deck source that tests and `cardbot play --seed` may set. */
	table_host thost;
	/* Whose doing the lines said now are (adapter_tag), while an event
	 * from a network is handled; tag_net NULL between events. */
	adapter *tag_net;
	char tag_cause[ADAPTER_ID_MAX];
	char tag_key[BOT_TAG_KEY_MAX];
	int tag_answer;
	int tag_mute;              /* past the person's limit: the event's lines are not said */
	int tag_replaces, tag_whole; /* how the answer is meant (bot_answering_as) */
	unsigned long tag_event;   /* counts events, so one event's lines never merge with each other */
} bot;

/* A bot with no networks yet, on loop ev; NULL when out of memory. */
bot *bot_new(loop *ev, const table_settings *defaults, const char *prefix);
void bot_free(bot *b);
/* The callbacks an adapter reports to (ctx = the bot). */
adapter_host bot_host(bot *b);
/* Takes ownership of a started or unstarted adapter. */
int bot_add_network(bot *b, adapter *a);
/* Is this user an operator (a configured mask matches the origin the
 * network reports for them)? */
int bot_is_operator(const bot *b, adapter *net, const char *user);

/* Sends text to a table's room or to one person. */
void bot_say_room(bot *b, adapter *net, const char *room, const char *text, int flags);
void bot_say_private(bot *b, adapter *net, const char *user, const char *text, int flags);
/* The same, for a private line that is part of room's story (a hand dealt as the game moves
 * on): the network keeps it in order with the room's lines, unless it answers a question. */
void bot_say_story(bot *b, adapter *net, const char *room, const char *user, const char *text, int flags);
/* A message of parts (adapter_msg) to room (user NULL) or to user (room
 * NULL), alerting mention (NULL: nobody); story as bot_say_story (NULL:
 * none). The network packs the parts to its limits. */
void bot_send(bot *b, adapter *net, const char *room, const char *user, const char *story,
	      const char *const *parts, int nparts, const char *mention, int flags);
/* The lines said from now until the end of the event being handled
 * answer its person's question: they may wait behind other people's lines,
 * and one already waiting with the same key to the same place says it
 * (adapter_tag). Does nothing outside an event. */
void bot_answering(bot *b, const char *key);
/* Opens a table for `gname` (nseats 0: its usual count) in room, seats
 * user, fills the other seats with computer players and deals, said in one
 * opening line that tells them so (`cardbot play`). 0, or -1 when no table
 * was opened (user was told why). */
int bot_open_full(bot *b, adapter *net, const char *room, const char *user, const char *gname, int nseats);

/* How an answer (bot_answering_as) is meant: */
enum bot_answer_how {
	BOT_ANSWER_REPEATS = TABLE_ANSWER_REPEATS,   /* a waiting line with the key says it: the new one may be dropped */
	BOT_ANSWER_REPLACES = TABLE_ANSWER_REPLACES, /* it makes a waiting line with the key stale (where someone sits now) */
	BOT_ANSWER_WHOLE = TABLE_ANSWER_WHOLE,       /* asked for in full (a record): never cut at the limit on a person's answers */
};
/* bot_answering, saying how the answer is meant (enum bot_answer_how). */
void bot_answering_as(bot *b, const char *key, int how);
/* Marks a table for freeing at the next safe point. */
void bot_close_table(bot *b, table *t);
/* Rebuilds every table the database holds for the networks added so far
 * (each says "resumed" when the bot is back in its room); returns how many
 * tables were restored, or -1 when the database could not be read. */
int bot_restore(bot *b);
/* Looks whether the database file is still in place (store_check), and
 * when that changes says so: in the log at error level and at every
 * table. Called now and then from the loop. */
void bot_check_store(bot *b);

#endif
