/* irc_internal.h: what the IRC adapter's files share: limits, the connection's state, cross-file functions.
 *
 * Private to adapters/irc/irc.c, irc_queue.c, irc_people.c and irc_events.c
 * (the public face is irc.h). Functions shared between the files carry the
 * irc_ prefix; each is described where it is defined.
 */
#ifndef CARDBOT_IRC_INTERNAL_H
#define CARDBOT_IRC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <libircclient.h>
#include "irc.h"
#include "irc_relay.h"
#include "ircline.h"
#include "loop.h"
#include "sendq.h"

/* How long a line of text may be. The server relays what we say to others
 * as ":nick!user@host PRIVMSG #target :text\r\n" and that whole line must fit
 * in 512 bytes, but only the server knows our exact prefix (a cloak may
 * replace the host). We budget IRC_PREFIX_BUDGET bytes for it (nick 30,
 * user 10, host up to ~55, and ":!@ "), or our real prefix if we have seen
 * it (our own JOIN echo) and it is longer. Text per line is then
 *     512 - 2 (CRLF) - prefix - strlen("PRIVMSG ") - strlen(target) - 2 (" :")
 * capped at IRC_TEXT_CHUNK_MAX: for "#304" that is 512-2-100-8-4-2 = 396. */
#define IRC_PREFIX_BUDGET 100
#define IRC_TEXT_CHUNK_MAX 400
#define IRC_TEXT_CHUNK_MIN 64        /* a target so long that less room is left is refused */
#define IRC_SEND_RETRY_MS 50         /* libircclient's send buffer was full: try again shortly */
#define IRC_NICK_UNDERSCORES 4       /* nick_, nick__, ... then a short nick with digits */
#define IRC_NICK_TRIES 8             /* then give up on this connection */
#define IRC_NICK_DIGITS_STEM 5       /* stem kept before 4 digits, so the nick fits NICKLEN 9 */
#define IRC_REGAIN_MS 60000          /* while wearing another nick, ask for ours this often */
#define IRC_QUIT_WAIT_MS 3000        /* after QUIT, how long the server gets to close the link */
#define IRC_STABLE_MS 60000          /* a link up this long resets the reconnect backoff */
#define IRC_JOIN_LINE_MAX 400        /* several channels share one JOIN up to this length */
#define IRC_WHY_MAX 256
#define IRC_VERSION_REPLY "cardbot"
#define IRC_CTCP_ARG_MAX 64          /* a CTCP PING argument echoed back (a client's timestamp is ~20) */
#define IRC_ACCOUNT_PREFIX "account:"  /* identity of a logged-in person: "account:NAME" */
#define IRC_ACCOUNT_MAX 64           /* account names this long or longer are not believed (services
				      * allow far less: Atheme 31, Anope 31); such a person is treated
				      * as not logged in, which grants nothing */
#define IRC_PERSON_NICK_MAX 64       /* longer nicks are not tracked (NICKLEN is 9 to 32 in practice) */
#define IRC_PEOPLE_MAX 4096          /* people tracked in the bot's channels: card channels hold tens,
				      * this allows a few busy ones (about 600 KB). Past it newcomers go
				      * untracked and count as not logged in (their nick is their
				      * identity), which can make seats and operator checks stricter,
				      * never looser; message tags still name their account. */
#define IRC_WHOX_TOKEN "304"         /* our WHOX queries, told apart from anyone else's */
#define IRC_LINE_NAMES_MAX 512       /* one NAMES reply's list: a line is at most 512 bytes */

#define IRC_DCC_MAX 16               /* offers standing at once (each holds a port and its file) */
#define IRC_DCC_FILE_MAX (4 * 1024 * 1024) /* a file offered: larger ones go another way (a record is ~2 KB a deal) */
#define IRC_DCC_NAME_MAX 64          /* a file's name in the offer */

typedef struct irc irc;
typedef struct irc_dcc irc_dcc;

typedef struct irc_chan {
	irc *owner;                 /* for the rejoin timer */
	int used;
	char name[IRC_FIELD_MAX];   /* as configured or first seen */
	char key[IRC_FIELD_MAX];
	int wanted;                 /* the bot means to be there */
	int joined;                 /* the server has confirmed the bot is there */
	int ever_ready;             /* the host has heard room_ready for it */
	int tries;                  /* failed joins in a row, for the rejoin backoff */
	uint64_t t_rejoin;
} irc_chan;

#define IRC_SEEN_MAX 64 /* recent speakers whose origin is remembered */

/* Someone in the bot's channels. */
typedef struct irc_person {
	char nick[IRC_PERSON_NICK_MAX];     /* "" = a free slot */
	char account[IRC_ACCOUNT_MAX];      /* "" = not logged in (or not known to be) */
	uint64_t chans;                     /* bit i: shares chans[i] with the bot */
	int loose;                          /* learned from ACCOUNT without knowing the channels:
					     * forgotten at the first PART or KICK */
} irc_person;
_Static_assert(IRC_CHANNELS_MAX <= 64, "a person's channels are bits of a uint64_t");

struct irc {
	adapter base;               /* first: an irc * is an adapter * */
	irc_settings set;
	unsigned char pin[IRC_RELAY_PIN_LEN];
	int pinned;
	int src_id;

	/* The current connection. */
	irc_relay *relay;
	irc_session_t *session;
	int registered;             /* 001 seen */
	int dead;                   /* the connection is over; t_reap tears it down */
	char dead_why[IRC_WHY_MAX];
	int link_up;
	int64_t link_since;
	int nick_tries;
	char self[IRC_FIELD_MAX];   /* the nick we have (or are trying) */
	char userhost[IRC_FIELD_MAX]; /* "user@host" from our own JOIN, for the line budget */

	int started, stopping;
	int reconnect_tries;
	uint64_t t_reconnect, t_reap, t_flush, t_regain, t_stop;

	irc_chan chans[IRC_CHANNELS_MAX];

	/* The origin (nick!user@host) last seen for recent speakers, so the
	 * host can match operator masks. A small ring: speakers come and go. */
	struct { char nick[IRC_FIELD_MAX]; char origin[IRC_FIELD_MAX]; } seen[IRC_SEEN_MAX];
	int seen_next;

	/* Accounts (see the top of this file). */
	irc_person *people;         /* IRC_PEOPLE_MAX slots */
	int people_warned;
	char self_account[IRC_ACCOUNT_MAX]; /* the bot's own, from 900 */
	/* The account tag of the message about to be delivered (the relay's
	 * ACCOUNT line comes just before the message it belongs to). */
	char tag_nick[IRC_PERSON_NICK_MAX];
	char tag_account[IRC_ACCOUNT_MAX];
	/* Who is speaking while the host handles a message: answers to that
	 * identity go to that nick, even when one account has several. */
	char cur_nick[IRC_FIELD_MAX];
	char cur_user[ADAPTER_ID_MAX];

	/* Outgoing lines and the token bucket that paces them. */
	sendq *q;
	int qwarned;
	double tokens;
	int64_t tokens_at;
	/* The host's tag for what it sends now (adapter.h). */
	int tagged;
	int tag_answer, tag_replaces, tag_whole;
	unsigned long tag_event;
	char tag_cause[ADAPTER_ID_MAX];
	char tag_key[ADAPTER_TEXT_MAX];
	char tag_story[ADAPTER_ID_MAX];   /* the room whose story a private line belongs to ("" none) */

	irc_dcc *dccs;              /* files offered by DCC SEND (irc_dcc.c) */
};

#define LOG(c, level, ...) ircline_log((c)->base.name, level, __VA_ARGS__)

/* ---- irc.c ---- */
int irc_cmp(const irc *c, const char *a, const char *b);
int irc_is_channel(const irc *c, const char *s);
void irc_set_str(char *dst, size_t cap, const char *src);
irc_chan *irc_chan_find(irc *c, const char *name);
irc_chan *irc_chan_add(irc *c, const char *name, const char *key);
void irc_clean(const char *in, char *out, size_t cap);
int irc_is_self(const irc *c, const char *nick);
void irc_join_wanted(irc *c, int first);
void irc_join_one(irc *c, irc_chan *ch);
void irc_schedule_rejoin(irc *c, irc_chan *ch);
void irc_join_refused(irc *c, const char *name, int code, const char *text, int retry);
void irc_set_self(irc *c, const char *nick);
void irc_regain_nick(irc *c);
void irc_on_regain(void *ctx);
void irc_next_nick(irc *c);

const char *irc_private_cmd(const irc *c, int flags);

/* ---- irc_dcc.c ---- */
int irc_dcc_offer(irc *c, const char *user, const adapter_file *f);
void irc_dcc_prepare(irc *c, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms);
void irc_dcc_dispatch(irc *c, fd_set *rd, fd_set *wr);
void irc_dcc_free_all(irc *c);

/* ---- irc_queue.c ---- */
void irc_queued(irc *c, int r);
size_t irc_private_room(const irc *c, const char *nick);
void irc_queue_line(irc *c, const char *line, int first);
void irc_flush(irc *c);
void irc_queue_text(irc *c, const char *cmd, const char *target, const char *to, int in_room, const char *text);

/* ---- irc_people.c ---- */
int irc_nick_ok(const char *nick);
int irc_account_arg(irc *c, const char *s, const char *none, char *out);
void irc_identity(const char *account, const char *nick, char *out, size_t cap);
irc_person *irc_person_find(irc *c, const char *nick);
void irc_person_drop(irc_person *p);
void irc_identity_of(irc *c, const char *nick, char *out, size_t cap);
uint64_t irc_chan_bit(irc *c, const irc_chan *ch);
void irc_account_changed(irc *c, irc_person *p, const char *account);
void irc_person_seen(irc *c, const char *nick, irc_chan *ch, int learned, const char *account);
int irc_person_left(irc *c, const char *nick, irc_chan *ch, char *out, size_t cap);
void irc_people_forget_channel(irc *c, irc_chan *ch);
int irc_nick_for(const irc *c, const char *user, char *out, size_t cap);
void irc_whox_query(irc *c, const irc_chan *ch);
void irc_people_reset(irc *c);

/* ---- irc_events.c ---- */
void irc_ev_connect(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_numeric(irc_session_t *s, unsigned code, const char *origin, const char **params, unsigned count);
void irc_ev_nick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_quit(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_join(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_part(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_kick(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_invite(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_unknown(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_message(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_action(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_ctcp_request(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);
void irc_ev_ignore(irc_session_t *s, const char *event, const char *origin, const char **params, unsigned count);

#endif
