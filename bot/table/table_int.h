/* table_int.h: inside the table. What bot/table/table.c (seats and commands),
 * bot/table/table_say.c (what the table says), bot/table/table_play.c (the flow of a
 * match, for every game) and the presentations (bot/present_*.c) share.
 * Nothing outside those files includes it.
 */
#ifndef CARDBOT_TABLE_INT_H
#define CARDBOT_TABLE_INT_H

#include <stddef.h>
#include "bot.h"
#include "present.h"
#include "render.h"
#include "table.h"
#include "text.h"
#include "text_lang.h"

#define TABLE_LINE 1024          /* a private line, or one announcement */
#define TABLE_PARTS_MAX 64       /* announcements in one message */
#define TABLE_SAVE_RETRY_MS 5000 /* the next try after a failed save */
#define TEAM_TEXT (3 * TABLE_NAME_MAX + 8) /* "ann & cat", or with six "ann, cat & eve" */

enum table_timer_kind { TK_NONE, TK_WARN, TK_MOVE, TK_REMIND };

/* ---- what the table says (table_say.c) ---- */
/* user's language: their !lang choice, else the room's (table_lang). */
const text_lang *table_lang_of(const table *t, const char *user);
/* Whom the pieces composed now (table_txt, seat names, suits) are for:
 * sets it (NULL: English) and returns what it was, to be set back. */
const text_lang *table_reader(const text_lang *lang);
/* The reader now (never NULL). */
const text_lang *table_reader_now(void);
/* An event reaches the table: what it composes is for the room. */
void table_enter(const table *t);
/* An announcement for the room, gathered until table_flush. */
void table_say(table *t, int id, const char *a1, const char *a2, const char *a3);
/* An announcement addressed to user (a turn, a warning, an offer): the
 * message it goes out in alerts them, unless it alerts someone already. */
void table_say_to(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3);
/* Sends the announcements gathered (flags: ADAPTER_*), and forgets them;
 * table_out_clear forgets them unsent. */
void table_send_out(table *t, int flags);
void table_out_clear(table *t);
/* A private line to user now. */
void table_tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3);
/* render_hand, with "(none)" for no cards in the reader's words. */
void table_sb_hand(strbuf *b, cardset hand, int style, int numbered);
/* A game phase's stable name ("bid4", engine/core/names.h) in the reader's
 * words (static); a name it does not know as it is. */
const char *table_phase_word(const char *name);
/* A private line id (T_USAGE, T_ERROR) whose argument is line inner, both
 * in user's language. */
void table_tell_txt(table *t, const char *user, int id, int inner);
/* Tells user a card they named cannot be read: a number is a position in
 * their hand that holds no card; anything else gets the game's line id
 * (its examples of card names). */
void table_bad_card(table *t, const char *user, const char *word, int id);
/* Message id with up to three arguments, written into buf (returned). */
const char *table_txt(char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3);
void table_sb_txt(strbuf *b, int id, const char *a1, const char *a2, const char *a3);
/* Sends what was announced (and saves the seats and settings if changed). */
void table_flush(table *t);
/* Saves the table's seats and settings when they changed since the last save. */
void table_persist(table *t);
/* A seat's name for everyone ("empty seat", "nobody" out of range). */
const char *table_seat_name(const table *t, int s);
/* Who bid for seat s in this deal (the name it had then), else its name now. */
const char *table_bid_name(const table *t, int s);
/* RENDER_ASCII for a player who asked for letters, else RENDER_COLOUR. */
int table_style_of(const table *t, int s);
/* May seat s be told its private cards (a person the bot has not lost sight of)? */
int table_private_ok(const table *t, int s);
/* A write to the database failed / works again: said once. */
void table_save_failed(table *t, const char *user);
void table_save_works(table *t);
/* Marks a move typed in the room that went no further (brief: each; else bounded, table.h). */
void table_refused_in_room(table *t, const char *user, int in_room);
/* Are x and y the same person on the table's network (adapter same_user)? */
int table_same_user(const table *t, const char *x, const char *y);
/* Who holds seat s, for a deal's statistics (store_result's user, name,
 * computer and seat). */
void table_result_seat(const table *t, int s, store_result *r);
/* "ann & cat" (four seats), else the seat's name: a side of the score. */
void table_side_names(const table *t, int side, char *buf, size_t len);
/* A line said in the room (in_room) or to user. */
void table_answer(table *t, const char *user, int in_room, const char *line);

/* Everyone seated now has seen their seat's cards (table.c). Called before
 * anything can take a person out of a seat (every command, a leave, a
 * rename) and before a deal's hands go out, so nobody leaves a seat
 * unrecorded and the record is saved before anyone reads a card. */
void table_viewers_sync(table *t);

/* ---- the flow of a match (table_play.c) ---- */
/* The seat to move, or -1 (no match, between deals, over). */
int table_turn(const table *t);
/* Is there a deal in play (cards out)? */
int table_in_deal(const table *t);
/* Starts a match with the seated players (the caller checked the seats). */
void table_play_start(table *t, const char *user);
/* Seat s's private hand line (nothing when it may not be told). */
void table_send_hand(table *t, int s);
/* Applies an action; refusals go privately to user (NULL: the bot's own
 * choice, whose refusal is logged). Stored before it is announced; a
 * failed write undoes it. 0 done, > 0 the game's refusal, < 0 not saved. */
int table_act(table *t, const game_action *a, const char *user);
/* Brief: seat s typed this move in the room, which need not hear it again. */
void table_seen(table *t, int s);
/* One pending deadline per table, set afresh after every change. */
void table_schedule(table *t);
/* A seat whose moves the bot makes now. */
int table_auto_seat(const table *t, int s);
/* The answer of a choice that presentation.choose left to the worker;
 * stamp: table_stamp when it was asked (a stale answer is dropped);
 * a NULL a: none (the table falls back to a legal move). */
void table_computer_done(table *t, int s, int why, uint64_t stamp, const game_action *a);
/* A computer player's choice for seat s (why: enum present_why), for
 * presentation.choose: the game's search player thinks on the worker
 * thread (returns 0; the answer comes through table_computer_done, or
 * table_hint for a hint); a game without one, or a full queue, gets the
 * rule-based player at once (1, *out filled); -1: no move. */
int table_think(table *t, int s, int why, game_action *out);
/* Where the match stands: changes with every accepted action. */
uint64_t table_stamp(const table *t);
/* Tells seat s the hint a (as the command it would type). */
void table_hint(table *t, int s, const game_action *a);
/* !cut N. */
void table_cut(table *t, const char *user, const char *arg);
/* The wait before the next deal: the pause, or the cut offer's time while one stands. */
int table_deal_wait_ms(const table *t);
/* The bot is back in the room (a restart): tells where the match stands. */
void table_play_resumed(table *t);
/* A stop in the database: the match ends and the table goes, in one commit. */
int table_play_stopped(table *t);

#endif
