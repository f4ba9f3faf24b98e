/* sendq.h: a fair send queue: lines wait in flows (the protocol's own, each room's, each person's), served so that nobody's requests hold up anyone else's lines.
 *
 * Knows nothing of protocols or cards: lines are opaque text; rooms and
 * people are names compared with the adapter's own comparison (the IRC
 * server's case mapping). The adapter decides when a line may go (its
 * pacing) and asks for the next one; the queue decides which.
 *
 * Flows and the order they are served in:
 *   - the control flow (the protocol's own lines: JOIN, WHO, IDENTIFY):
 *     first, in order;
 *   - a room's flow: what happens in the room that nobody's question caused
 *     (a game's moves and timers), strictly in order so a story never reads
 *     backwards; rooms in turn, and before people, except that when people
 *     wait, at most SENDQ_ROOM_STREAK room lines go in a row;
 *     A private line tagged with a room's story waits in that room's flow
 *     too, so a player never reads the next hand before the room has heard
 *     how the last deal ended;
 *   - a person's flow: lines to that person privately, and the answers to
 *     their questions (wherever they go: a room answer waits here too). Of
 *     the people waiting, the one who has used least lately goes first
 *     (`usage`, which halves every SENDQ_HALF_LIFE_MS, plus their own lines
 *     still waiting: a new flooder's backlog counts before their use has
 *     grown), ties (within SENDQ_TIE) to whoever was served longest ago,
 *     so people who ask alike take turns: a quiet player's reply overtakes
 *     any number of lines for people who ask all the time.
 * Answers with a key (the same question, "!table" in #304) say the same as
 * a waiting line with that key to the same place, pushed under another
 * tag (batch): the new one is dropped, and charged to its asker as if
 * sent; the lines of one answer never merge with each other. A line that
 * `replaces` instead makes the waiting one stale: the old line goes, the
 * new one waits at the back (where someone sits now, not every move).
 * When SENDQ_LINES_MAX lines wait, new ones are dropped (SENDQ_FULL), and
 * each room and person that lost one gets one short note, ahead of their
 * other lines, per spell of a full queue (sendq_push_note): nobody loses
 * lines without a word.
 * A person may have at most SENDQ_CAUSED_MAX answers of their own causing
 * waiting; more are dropped, and sendq_push says so (SENDQ_DROPPED) so the
 * adapter can tell them. What a person asked for in full (a record:
 * `whole`) is not cut at SENDQ_CAUSED_MAX but at SENDQ_WHOLE_MAX, and
 * waits in their flow like any answer, so it is paced behind others' lines.
 */
#ifndef CARDBOT_SENDQ_H
#define CARDBOT_SENDQ_H

#include <stddef.h>
#include <stdint.h>

#define SENDQ_LINES_MAX 1000     /* lines waiting in all; past this new ones are dropped (a host in a loop) */
#define SENDQ_NOTES_MAX 32       /* kept beyond SENDQ_LINES_MAX for what a full queue owes people: one note to each
                                  * room or person who lost a line there (sendq_push_note), and answers that
                                  * must not be lost (sendq_tag.reserve: a CTCP VERSION or PING) */
#define SENDQ_CAUSED_MAX 16      /* lines one person's requests may have waiting: a long !help is a few */
#define SENDQ_WHOLE_MAX 300      /* lines of what one person asked for in full (a record of ~10 deals); a few
                                  * people's fit in SENDQ_LINES_MAX beside everyone else's */
#define SENDQ_ROOM_STREAK 1      /* room lines in a row while a person waits: at 1 line/s an answer waits at most
                                  * about a token behind a busy table (3 let it wait 3 s: issue 29, point 4) */
#define SENDQ_HALF_LIFE_MS 60000 /* how fast a person's recent use is forgotten */
#define SENDQ_TIE 1.0            /* people whose use differs by less than a line are even: whoever was served
                                  * longest ago goes first (compared exactly, the one just served, a line
                                  * fewer waiting, went again: of three people asking once a second, one got
                                  * 109 of 120 answers and the others 6 and 5; irc_flood's lang1 none) */
#define SENDQ_FLOWS_MAX 4096     /* flows kept (idle ones are forgotten first) */

typedef struct sendq sendq;

/* How a line came about, for sendq_push. */
typedef struct sendq_tag {
	const char *cause;   /* the person whose message or arrival caused it; NULL: nobody (a timer) */
	const char *key;     /* non-NULL: an answer that a waiting line with this key to the same place repeats */
	int answer;          /* it answers the cause (a question, their coming or going) rather than moves a room on */
	const char *story;   /* not an answer, a private line of this room's story (a hand dealt as the game
	                      * moves on): it waits in the room's flow, in order with what the room is told */
	uint64_t batch;      /* lines pushed under one tag (one answer): they never merge with each other; 0: none */
	int replaces;        /* with key, to a room: a waiting line with the key to that room is stale; it is
	                      * dropped (a private line is never made stale: it is pushed without its key) */
	int whole;           /* asked for in full (a record): not cut at SENDQ_CAUSED_MAX (SENDQ_WHOLE_MAX) */
	int reserve;         /* may use the SENDQ_NOTES_MAX lines past SENDQ_LINES_MAX: a short answer the host
	                      * rate-limits and that must reach a person even when the queue is full */
} sendq_tag;

enum sendq_result {
	SENDQ_QUEUED = 0,
	SENDQ_MERGED = 1,    /* the same answer was waiting: dropped, charged to its asker */
	SENDQ_DROPPED = 2,   /* over SENDQ_CAUSED_MAX (SENDQ_WHOLE_MAX): the cause is told (sendq_drop_note) */
	SENDQ_FULL = 3,      /* SENDQ_LINES_MAX lines were waiting: dropped; its reader is told (sendq_push_note) */
	SENDQ_NOMEM = -1,
};

/* Compares two names as the adapter does (0: the same), with the adapter's
 * own state: an IRC network's case mapping changes when its server says. */
typedef int (*sendq_cmp_fn)(const void *ctx, const char *a, const char *b);

/* A new empty queue comparing names with cmp(ctx, ...) (NULL: byte for
 * byte); ctx is borrowed for the queue's life. NULL without memory. */
sendq *sendq_new(sendq_cmp_fn cmp, const void *ctx);
void sendq_free(sendq *q);
/* Drops every waiting line (a connection ended); what people used is kept. */
void sendq_clear(sendq *q);

/* Queues a protocol line of the adapter's own, at the back (or the front). */
int sendq_push_control(sendq *q, const char *line, int front);
/* Queues `line` for `to`: a room (room = 1) or a person (their identity),
 * with how it came about (tag may be NULL: nobody's doing). The text is
 * copied. Returns an enum sendq_result. */
int sendq_push(sendq *q, const char *to, int room, const sendq_tag *tag, const char *line, int64_t now);

/* The line to send next (borrowed until sendq_pop), or NULL when none waits. */
const char *sendq_peek(sendq *q, int64_t now);
/* The line sendq_peek returned was sent: removes it (sendq_push counted it). */
void sendq_pop(sendq *q, int64_t now);
/* Lines waiting. */
size_t sendq_len(const sendq *q);
/* 1 the first time `who` has had a line dropped since their waiting lines
 * last ran out (tell them once), else 0. */
int sendq_drop_note(sendq *q, const char *who, int64_t now);
/* After a line to `to` (a room, or a person's identity) was dropped with
 * the queue full (SENDQ_FULL): queues `line`, which says so, at the front
 * of `to`'s lines and past SENDQ_LINES_MAX, the first time in this spell
 * of a full queue (until it has drained to half), while SENDQ_NOTES_MAX
 * allow. SENDQ_QUEUED, SENDQ_MERGED (told already: nothing queued),
 * SENDQ_FULL (no room for notes) or SENDQ_NOMEM. */
int sendq_push_note(sendq *q, const char *to, int room, const char *line, int64_t now);
/* How much `who` has used lately (lines, decayed), for tests and logs. */
double sendq_usage(sendq *q, const char *who, int64_t now);

#endif
