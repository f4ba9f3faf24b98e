/* adapter.h: what the bot needs from a chat network, and what a network tells the bot.
 *
 * An adapter speaks one protocol (IRC, Matrix, the console) and knows
 * nothing of cards. It joins rooms, delivers messages, and reports who said
 * what where. Everything it hands the bot is already parsed and checked:
 * NUL-terminated UTF-8 strings of bounded length, never raw protocol lines.
 *
 * Identity: `user` is the stable identity the adapter vouches for (an IRC
 * account when the network says one is logged in, else the nick, which the
 * adapter follows through renames; a Matrix user id). `name` is for display
 * only. Rooms are named as the network names them ("#304", "!abc:server").
 */
#ifndef CARDBOT_ADAPTER_H
#define CARDBOT_ADAPTER_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "casemap.h"

#define ADAPTER_TEXT_MAX 2048  /* longest text passed either way; longer is cut by the adapter */
#define ADAPTER_ID_MAX 256     /* longest user or room identifier */

typedef struct adapter adapter;
typedef struct loop loop;

/* How a line is meant, so each network can render it: */
enum adapter_send_flags {
	ADAPTER_NOTICE = 1,     /* informational (IRC NOTICE, Matrix m.notice) */
	ADAPTER_HIGHLIGHT = 2,  /* addressed to someone who should be alerted (your turn) */
	/* A private line that makes older ones stale (a hand or a prompt): it
	 * replaces any line with this flag queued for the same person and not
	 * yet sent whose text starts with the same "[label:" tag (lines of the
	 * same table); a network that sends at once may ignore it. */
	ADAPTER_REPLACES = 4,
	/* Worth sending only soon (a reminder of whose turn it is): a network
	 * that must hold it back (a rate limit) drops it after a few seconds
	 * rather than deliver it stale. */
	ADAPTER_TIMELY = 8,
	/* A private line, for a person who chose how theirs reach them
	 * (!private): as messages (IRC PRIVMSG, which opens a window of its
	 * own) or as notices (which irssi and weechat show in their status
	 * window). Neither: the network's default. A network with one way
	 * only (private_kind NULL) ignores them. */
	ADAPTER_AS_MESSAGE = 16,
	ADAPTER_AS_NOTICE = 32,
};

/* Callbacks into the host. Strings are borrowed for the call only. The host
 * must not free the adapter from inside a callback (GUIDE: reap later). */
typedef struct adapter_host {
	void *ctx;
	/* A message in a room, or (room == NULL) a private one; flags has
	 * ADAPTER_NOTICE when it was sent as a notice (which a bot must never
	 * answer: two bots answering each other's notices loop for ever). */
	void (*message)(void *ctx, adapter *a, const char *room, const char *user, const char *name,
			const char *text, int flags);
	/* Someone arrived in a room the bot is in. */
	void (*joined)(void *ctx, adapter *a, const char *room, const char *user, const char *name);
	/* Someone left a room (room == NULL: left the network). `why` may be "". */
	void (*left)(void *ctx, adapter *a, const char *room, const char *user, const char *why);
	/* A user's identity or name changed: an IRC nick change without an
	 * account, or a login to or logout from services (the id moves between
	 * the nick and "account:NAME"); a logged-in person's nick change comes
	 * with old_user equal to new_user and only new_name new. */
	void (*renamed)(void *ctx, adapter *a, const char *old_user, const char *new_user, const char *new_name);
	/* The bot is connected and in `room` (after a join or a rejoin). */
	void (*room_ready)(void *ctx, adapter *a, const char *room);
	/* The bot is no longer in `room` (kicked, banned, parted); `why` may be "". */
	void (*room_lost)(void *ctx, adapter *a, const char *room, const char *why);
	/* The connection is up (first time or after a reconnect) or down. */
	void (*link)(void *ctx, adapter *a, int up, const char *why);
	/* Small state the adapter keeps across restarts (Matrix: the sync token,
	 * the direct-room map), stored by the host in its database under the
	 * adapter's network name. state_get copies the value of `key` into `out`
	 * and returns 1, or returns 0 when there is none (or it does not fit);
	 * state_set stores `value` (NULL deletes) and returns 0, or -1 when it
	 * could not be stored. Either may be NULL: then nothing is kept. */
	int (*state_get)(void *ctx, adapter *a, const char *key, char *out, size_t len);
	int (*state_set)(void *ctx, adapter *a, const char *key, const char *value);
	/* May the adapter answer `user` by itself (an IRC CTCP VERSION)? The
	 * host counts it against the person's limits and returns 1 (answer)
	 * or 0 (stay silent). NULL: always answer. */
	int (*allow)(void *ctx, adapter *a, const char *user);
	/* The words of a line the adapter says by itself in a room (enum
	 * adapter_words), in the room's language; `name` is the display name
	 * of the person the line speaks to, or "". Writes the line into out and
	 * returns 1; 0 (or NULL) lets the adapter say it in English. */
	int (*words)(void *ctx, adapter *a, const char *room, int what, const char *name, char *out, size_t len);
} adapter_host;

/* Lines an adapter says by itself (adapter_host.words). */
enum adapter_words {
	ADAPTER_W_ASK_JOIN,       /* NAME: accept my invitation to the direct room where your lines are */
	ADAPTER_W_SLOW,           /* the homeserver's rate limit makes my lines late */
	ADAPTER_W_ENCRYPTED_OFF,  /* this room is encrypted and encryption is off: leaving */
	ADAPTER_W_UNREADABLE,     /* NAME: I could not read your encrypted message (no key) */
	ADAPTER_W_DROPPED,        /* (privately; room NULL, name the user's identity) some of my lines to you were
				   * dropped: too many were waiting */
	ADAPTER_W_BUSY,           /* (in a room, or privately as W_DROPPED) some of my lines here (to you) were
				   * dropped: I had more to say than the network lets me send */
};

/* How the lines the host sends came about, so an adapter can queue them
 * fairly (adapters/sendq.h): whose doing they are, and whether they answer
 * that person or move a room's story on. Strings are borrowed for the call. */
typedef struct adapter_tag {
	const char *cause;  /* the user whose message, arrival, departure or rename caused them; NULL: nobody's */
	const char *key;    /* an answer that says the same as any line with this key to the same place still
			     * waiting (the same question asked again): it may be dropped; NULL: none */
	int answer;         /* 1: they answer the cause and may wait behind other people's lines (never
			     * behind the cause's own); 0: a room's story, kept in order */
	const char *story;  /* a private line that is part of this room's story (a hand dealt as the game
			     * moves on), kept in order with the room's lines; NULL: none */
	int replaces;       /* with key: this line makes any waiting one with the key to the same place stale
			     * (a seat change: where someone sits now); the old one is dropped instead */
	unsigned long event; /* the host's event the lines belong to (a count): lines of one event never merge
			      * with each other under `key`; 0: none */
	int whole;          /* asked for in full (a record): delivered whole and paced, not cut at the limit on a
			     * person's waiting answers */
} adapter_tag;

/* A message: its parts in order (one announcement or sentence each), and
 * the person it alerts, if any (the player whose turn it names). Each
 * network packs the parts to its own limits and shows the mention its own
 * way (IRC: the nick in the line does it; Matrix: a pill and m.mentions).
 * Strings are borrowed for the call. */
typedef struct adapter_msg {
	const char *const *parts;
	int nparts;
	const char *mention;  /* a user to alert, NULL: none */
	int flags;            /* enum adapter_send_flags */
} adapter_msg;

/* A file for adapter_ops.send_file. Borrowed for the call (the adapter
 * copies what it keeps). */
typedef struct adapter_file {
	const char *filename;       /* a name for the person's disk: "match-12.json" */
	const char *mimetype;       /* "application/json" */
	const char *data;
	size_t len;
	/* The same in private lines, for a network that offers the file and
	 * may have to send it another way after all (IRC's DCC): sent as
	 * private lines with `flags` (enum adapter_send_flags), asked for in
	 * full (adapter_tag.whole). nlines 0: none. */
	const char *const *lines;
	int nlines;
	int flags;
} adapter_file;

/* adapter_ops.private_how's answers. */
enum adapter_how { ADAPTER_HOW_WORDS, ADAPTER_HOW_DIRECT_ROOM, ADAPTER_HOW_TYPED };

/* The separator a network shows between the parts of a message on one line. */
#define ADAPTER_PART_SEP " \xc2\xb7 "

typedef struct adapter_ops {
	const char *kind;  /* "irc", "matrix", "console" */
	/* Starts connecting; progress comes through the loop and the host. */
	int (*start)(adapter *a);
	/* Queue a line for a room or a person. Never blocks; the adapter paces,
	 * splits over-long text on UTF-8 boundaries, and keeps order. */
	void (*send_room)(adapter *a, const char *room, const char *text, int flags);
	void (*send_private)(adapter *a, const char *user, const char *text, int flags);
	/* Queue a message for a room (user NULL) or a person (room NULL). May
	 * be NULL: the host then packs the parts into lines of at most 380
	 * bytes itself and sends them with send_room or send_private. */
	void (*send)(adapter *a, const char *room, const char *user, const adapter_msg *m);
	/* How a person writes a command to the bot privately (enum
	 * adapter_how): ADAPTER_HOW_WORDS with the words before the command
	 * written into out ("/msg cardbot " on IRC); ADAPTER_HOW_DIRECT_ROOM
	 * ("in the direct room", Matrix: the host says so in the line's
	 * language, T_VIA_DIRECT_ROOM); ADAPTER_HOW_TYPED (whatever the person
	 * types is private already, the terminal: "trump 3" as it is). NULL:
	 * ADAPTER_HOW_WORDS with "/msg NAME ". */
	int (*private_how)(const adapter *a, char *out, size_t len);
	/* The room a person's private command is meant for when it names none
	 * and they sit at no table (the terminal's one table): written into
	 * out, returning 1; 0 when there is none. May be NULL (none: IRC and
	 * Matrix people are in many rooms). */
	int (*home_room)(const adapter *a, const char *user, char *out, size_t len);
	/* How a private line sent with these flags reaches its person:
	 * ADAPTER_AS_MESSAGE or ADAPTER_AS_NOTICE (the person's choice among
	 * the flags, else the network's default), so the host can tell them
	 * where to look. NULL: the network has one way only (a direct room,
	 * the terminal), and nothing to choose. */
	int (*private_kind)(const adapter *a, int flags);
	/* Do two user identities name the same person? (IRC: nicks and
	 * accounts folded by the server's CASEMAPPING, ascii until it has said;
	 * Matrix: the same id.) 1 or 0. NULL: ASCII case aside. The host asks
	 * here (adapter_same_user) and never compares names itself. */
	int (*same_user)(const adapter *a, const char *x, const char *y);
	/* Do two room names name the same room? (IRC: channel names folded
	 * by the same rule.) 1 or 0. NULL: ASCII case aside. */
	int (*same_room)(const adapter *a, const char *x, const char *y);
	/* Does a word a person typed name a room ("#304": IRC by the server's
	 * CHANTYPES)? 1 or 0. NULL: one starting with '#', '!' or '&'. */
	int (*is_room)(const adapter *a, const char *word);
	/* Does `text` (a user id, or the origin the network reports) match an
	 * operator's mask (* any run, ? one character), folded as the network
	 * folds names? 1 or 0. NULL: ASCII case aside. */
	int (*match)(const adapter *a, const char *mask, const char *text);
	/* Tags every line sent from now until the next call (NULL: untagged,
	 * nobody's doing). May be NULL: the adapter sends in order. */
	void (*tag)(adapter *a, const adapter_tag *t);
	void (*join)(adapter *a, const char *room, const char *key);
	void (*part)(adapter *a, const char *room, const char *why);
	/* Says goodbye and disconnects; the adapter stays valid until freed. */
	void (*stop)(adapter *a, const char *why);
	/* The name of the bot itself on this network, for "is this addressed to me". */
	const char *(*self)(const adapter *a);
	/* The full origin last seen for a user ("nick!user@host" on IRC), for
	 * operator masks; writes "" and returns 0 when unknown. May be NULL. */
	int (*origin)(const adapter *a, const char *user, char *out, size_t len);
	/* Sends a file to a person. Matrix: an upload and an m.file message
	 * in their direct room; returns 0 (queued). IRC: an offer by DCC
	 * SEND, which the person's client must accept; returns 1 (offered),
	 * and when it is not taken in time or the transfer breaks off, the
	 * file's lines (adapter_file.lines) come instead, whole and paced.
	 * -1: it cannot be sent (files off, too large); the host finds
	 * another way. NULL where the network carries no files. */
	int (*send_file)(adapter *a, const char *user, const adapter_file *f);
	/* Gets ready to talk privately with a person before there is anything
	 * to say (Matrix: makes the direct room and invites them now, so they
	 * can accept before the first private line). NULL where nothing needs
	 * doing (IRC). */
	void (*open_private)(adapter *a, const char *user);
	/* The most bytes of text one private line to `user` carries without
	 * the network splitting it (IRC: 512 less the prefix and command), for
	 * text the reader joins back together (a record). 0 or NULL: no limit
	 * the host need mind. */
	size_t (*line_max)(const adapter *a, const char *user);
	/* The name people know a room by, when it is not its id (a Matrix
	 * room's alias, "#304:example.org"): written into out, returning 1;
	 * 0 (out "") when there is none. NULL where ids are the names (IRC). */
	int (*room_label)(const adapter *a, const char *room, char *out, size_t len);
	/* Is `user` in `room` now (room NULL: in any room the bot is in)? 1
	 * yes, 0 no, -1 the network cannot tell. May be NULL (cannot tell). */
	int (*present)(const adapter *a, const char *room, const char *user);
	/* Does the network vouch for this identity for good (an IRC services
	 * account, a Matrix user id), or is it a name anyone may take once its
	 * holder is gone (an IRC nick)? 1 vouched, 0 not. May be NULL: every
	 * identity is vouched for. */
	int (*vouched)(const adapter *a, const char *user);
	/* A short handle by which a person names the room in a private command
	 * ("2" on Matrix, where names are long and may hold spaces): written
	 * into out, returning 1; 0 (out "") when there is none. May be NULL. */
	int (*room_ref)(const adapter *a, const char *room, char *out, size_t len);
	/* Drops the lines queued for `room` with ADAPTER_TIMELY and not yet
	 * sent: what they say (whose turn it is) has passed. May be NULL (a
	 * network that holds no line back). */
	void (*withdraw)(adapter *a, const char *room);
	void (*free)(adapter *a);
} adapter_ops;

/* The common head of every adapter; each kind embeds it first. */
struct adapter {
	const adapter_ops *ops;
	adapter_host host;
	loop *ev;
	char name[64];     /* the network's name in the configuration */
};

/* The host's way to ask the questions above, with their defaults. */
static inline int adapter_same_user(const adapter *a, const char *x, const char *y)
{
	return a && a->ops->same_user ? a->ops->same_user(a, x, y) : !strcasecmp(x, y);
}

static inline int adapter_same_room(const adapter *a, const char *x, const char *y)
{
	return a && a->ops->same_room ? a->ops->same_room(a, x, y) : !strcasecmp(x, y);
}

static inline int adapter_match(const adapter *a, const char *mask, const char *text)
{
	return a && a->ops->match ? a->ops->match(a, mask, text) : casemap_match(CASEMAP_ASCII, mask, text);
}

static inline int adapter_is_room(const adapter *a, const char *word)
{
	return a && a->ops->is_room ? a->ops->is_room(a, word) : word[0] && strchr("#!&", word[0]) != NULL;
}

#endif
