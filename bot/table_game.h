/* table_game.h: the glue between bot/table.c (seats, commands, storage
 * helpers) and bot/table_game.c (the flow of a Trump304 or Rook match
 * through engine/game.h). Internal to the table; nothing else includes it.
 */
#ifndef CARDBOT_TABLE_GAME_H
#define CARDBOT_TABLE_GAME_H

#include "store.h"
#include "table.h"

/* ---- from table.c ---- */
void tb_say(table *t, int id, const char *a1, const char *a2, const char *a3);
void tb_tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3);
const char *tb_txt(char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3);
void tb_flush(table *t);
/* The wait before the next deal: the pause, or the cut offer's time while one stands. */
int tb_deal_wait_ms(const table *t);
const char *tb_seat_name(const table *t, int s);
void tb_save_failed(table *t, const char *user);
void tb_save_works(table *t);
int tb_style_of(const table *t, int s);
/* Who bid for seat s in this deal (t->bid_by, else the seat's name now). */
const char *tb_bid_name(const table *t, int s);
/* May seat s be told its private cards (a person the bot has not lost sight of)? */
int tb_private_ok(const table *t, int s);
/* Brief rooms: marks a move typed in the room that went no further. */
void tb_refused_in_room(table *t, const char *user, int in_room);

/* ---- from table_game.c (t->gdef is Trump304 or Rook) ---- */
/* Starts a match with the seated players (the caller checked the seats). */
void tg_start(table *t, const char *user);
/* A game command (bid, pass, trump, exchange, keep, reveal, discard, play,
 * hint, hand, last); 1 when it is one of them (handled), 0 when not. */
int tg_command(table *t, const char *user, int in_room, int argc, char **argv);
/* The seat to move, or -1. */
int tg_turn(const table *t);
void tg_send_hand(table *t, int s);
void tg_schedule(table *t);
void tg_resumed(table *t);
/* !table's part while playing, !score, !rules. */
void tg_table_line(table *t, const char *user, char *line, size_t len);
void tg_score(table *t, const char *user, int in_room);
void tg_rules(table *t, const char *user);
/* A stop in the database: the match ends and the table goes, in one commit
 * (store_table_stop); -1 when that failed (store_error says why). */
int tg_stopped(table *t);
/* Rebuilds t->g from a parsed record of a game other than 304 (see
 * table_store.c); 0 or -1 with err. */
struct record;
int tg_rebuild(table *t, const struct record *r, int64_t id, char *err, size_t errlen);

#endif
