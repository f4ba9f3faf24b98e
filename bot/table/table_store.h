/* table_store.h: a table as the database keeps it: its meta (seats, settings) and its match as a record.
 *
 * The text forms here are what bot/store/store.c stores and never looks inside:
 * the meta is a small JSON object of the table's own, and a match is the
 * pieces of a cardbot-record/1 record (docs/RECORD.md), so a restart
 * rebuilds a game exactly as `cardbot replay` would.
 */
#ifndef CARDBOT_TABLE_STORE_H
#define CARDBOT_TABLE_STORE_H

#include <stddef.h>
#include "store.h"
#include "table.h"

/* A meta at its largest: every string is at most 255 bytes, which json-c
 * may write twice as long ("/" as "\/"): 32 viewers (user and origin) about
 * 34 KB, 32 people to notify 16 KB, six seats 5 KB, the settings 1 KB. */
#define TSTORE_META_MAX 65536
#define TSTORE_ACTION_MAX 256
#define TSTORE_RULES_MAX 160
#define TSTORE_DECK_MAX 200

/* The table's meta as JSON into out; -1 if it does not fit. */
int tstore_meta(const table *t, char *out, size_t len);
/* Sets seats, settings and state from a meta; -1 (and err) when malformed. */
int tstore_apply_meta(table *t, const char *meta, char *err, size_t errlen);
/* A record's rules object: def's options as r has them ("{}": none). */
void tstore_rules_json(const game_def *def, const game_rules *r, char *out, size_t len);
/* A deck as a JSON array. */
void tstore_deck_json(const card deck[CARD_COUNT], char *out, size_t len);
/* Rebuilds t->game from stored match `id` by replaying it through the
 * engine; sets the deal and action counters. -1 (and err) when the record
 * cannot be read or does not replay cleanly. */
int tstore_rebuild(table *t, store *db, int64_t id, char *err, size_t errlen);

#endif
