/* table_store.c: a table's meta and match in the database's text forms (see table_store.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "record.h"
#include "present.h"
#include "table_store.h"
#include "text_lang.h"

/* Every seat a table has finds room in what the store keeps of a match. */
_Static_assert(STORE_SEATS >= TABLE_SEATS, "store.h's STORE_SEATS must hold a table's seats");

/* The seats a meta lists when the table has no more: every cardbot before
 * tables of six wrote four, and still does, so that they read it back. */
#define META_SEATS 4

/* A table's settings in its meta, each a number with its range: written
 * and read from these two lists, in this order. */
static const struct meta_int {
	const char *key;
	int lo, hi;
	size_t off;              /* an int in table_settings */
} meta_ints[] = {
	{ "pace", 0, 2, offsetof(table_settings, pace) },
	{ "live_turn_seconds", 1, 1 << 24, offsetof(table_settings, live_turn_seconds) },
	{ "casual_remind_seconds", 0, 1 << 24, offsetof(table_settings, casual_remind_seconds) },
	{ "corr_remind_seconds", 0, 1 << 26, offsetof(table_settings, corr_remind_seconds) },
	{ "grace_seconds", 0, 1 << 24, offsetof(table_settings, grace_seconds) },
	{ "deal_pause_ms", 0, 1 << 24, offsetof(table_settings, deal_pause_ms) },
	{ "computer_delay_ms", 0, 1 << 24, offsetof(table_settings, computer_delay_ms) },
	{ "computer_easy", 0, 1, offsetof(table_settings, computer_easy) },
	{ "hints", 0, 1, offsetof(table_settings, hints) },
	{ "lastcard", 0, 1, offsetof(table_settings, lastcard) },
	{ "computer_level", 0, 2, offsetof(table_settings, computer_level) },
	{ "computer_think_ms", 0, 1 << 24, offsetof(table_settings, computer_think_ms) },
};
#define NMETA_INTS (sizeof meta_ints / sizeof meta_ints[0])

void tstore_rules_json(const game_def *def, const game_rules *r, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "{");
	for (const game_option *o = def->options; o && o->key && n < len; o++)
		n += (size_t)snprintf(out + n, len - n, "%s\"%s\": \"%s\"", o == def->options ? "" : ", ", o->key,
				      game_option_word(o, r->b[o->off]));
	if (n < len)
		snprintf(out + n, len - n, "}");
}

/* The number of words option o takes. */
static int option_count(const game_option *o)
{
	int n = 0;
	while (n < GAME_OPTION_WORDS && o->words[n])
		n++;
	return n;
}

void tstore_deck_json(const card deck[CARD_COUNT], char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "[");
	for (int i = 0; i < CARD_COUNT && n < len; i++) {
		char code[3];
		card_code(deck[i], code);
		n += (size_t)snprintf(out + n, len - n, "%s\"%s\"", i ? ", " : "", code);
	}
	if (n < len)
		snprintf(out + n, len - n, "]");
}

/* ---- meta ---- */

int tstore_meta(const table *t, char *out, size_t len)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "v", json_object_new_int(1));
	json_object_object_add(o, "state", json_object_new_string(t->state == TABLE_PLAYING ? "playing" : "open"));
	json_object_object_add(o, "first_dealer", json_object_new_int(t->first_dealer));
	json_object_object_add(o, "deals_played", json_object_new_int64(t->deals_played));
	json_object_object_add(o, "stop_votes", json_object_new_int(t->stop_votes));
	json_object_object_add(o, "game", json_object_new_string(table_game_name(t)));
	json_object_object_add(o, "nseats", json_object_new_int(t->nseats));
	json_object *set = json_object_new_object();
	const table_settings *s = &t->set;
	/* The games' options, before the numbers above: every option any game
	 * has, as its value's number (chosen, else the option's default). */
	const game_option *go;
	for (int k = 0; (go = present_option_at(k)); k++) {
		int v = game_choices_get(&s->options, go->key);
		json_object_object_add(set, go->key, json_object_new_int(v >= 0 ? v : go->dflt));
	}
	for (size_t i = 0; i < NMETA_INTS; i++)
		json_object_object_add(set, meta_ints[i].key,
				       json_object_new_int(*(const int *)((const char *)s + meta_ints[i].off)));
	json_object_object_add(set, "lang", json_object_new_string(s->lang));
	json_object_object_add(o, "settings", set);
	/* Four seats (as every cardbot before six-player 304 wrote), or six. */
	json_object *seats = json_object_new_array();
	for (int i = 0; i < (t->nseats > META_SEATS ? TABLE_SEATS : META_SEATS); i++) {
		const seat *st = &t->seats[i];
		json_object *j = json_object_new_object();
		json_object_object_add(j, "user", json_object_new_string(st->user));
		json_object_object_add(j, "name", json_object_new_string(st->name));
		json_object_object_add(j, "computer", json_object_new_boolean(st->computer));
		json_object_object_add(j, "away", json_object_new_boolean(st->away));
		json_object_object_add(j, "ascii", json_object_new_boolean(st->ascii));
		if (st->key[0]) /* the proof a person gives to take the seat back after a restart */
			json_object_object_add(j, "key", json_object_new_string(st->key));
		if (st->mid_match)
			json_object_object_add(j, "mid_match", json_object_new_boolean(1));
		json_object_array_add(seats, j);
	}
	json_object_object_add(o, "seats", seats);
	json_object *nl = json_object_new_array();
	for (int i = 0; i < t->nnotify; i++)
		json_object_array_add(nl, json_object_new_string(t->notify[i]));
	json_object_object_add(o, "notify", nl);
	/* Who held which seat while this deal's cards were out: a restart in
	 * the deal must not let anyone see a second hand of it. */
	json_object *vl = json_object_new_array();
	for (int i = 0; t->state == TABLE_PLAYING && i < t->nviewers; i++) {
		const seat_viewer *sv = &t->viewers[i];
		if (sv->deal != t->deal_idx)
			continue;
		json_object *j = json_object_new_object();
		json_object_object_add(j, "user", json_object_new_string(sv->user));
		json_object_object_add(j, "origin", json_object_new_string(sv->origin));
		json_object_object_add(j, "seat", json_object_new_int(sv->seat));
		json_object_object_add(j, "deal", json_object_new_int(sv->deal));
		json_object_array_add(vl, j);
	}
	json_object_object_add(o, "viewers", vl);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	int r = snprintf(out, len, "%s", text) < (int)len ? 0 : -1;
	json_object_put(o);
	return r;
}

static int get_int(json_object *o, const char *key, int lo, int hi, int *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return 0; /* absent: keep what is there */
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_boolean))
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int)x;
	return 0;
}

static int get_str(json_object *o, const char *key, char *out, size_t len)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -1;
	const char *s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= len || strlen(s) != (size_t)json_object_get_string_len(v))
		return -1;
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

int tstore_apply_meta(table *t, const char *meta, char *err, size_t errlen)
{
	json_object *o = json_tokener_parse(meta);
	if (!o || !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "the table's saved state is not a JSON object");
		json_object_put(o);
		return -1;
	}
	const char *bad = NULL;
	char state[16];
	int v;
	if (get_str(o, "state", state, sizeof state) < 0 || (strcmp(state, "open") && strcmp(state, "playing")))
		bad = "state";
	table_settings s = t->set;
	json_object *set;
	if (!bad && json_object_object_get_ex(o, "settings", &set) && json_object_is_type(set, json_type_object)) {
		for (size_t i = 0; i < NMETA_INTS && !bad; i++)
			if (get_int(set, meta_ints[i].key, meta_ints[i].lo, meta_ints[i].hi,
				    (int *)((char *)&s + meta_ints[i].off)) < 0)
				bad = meta_ints[i].key;
		const game_option *go;
		for (int k = 0; !bad && (go = present_option_at(k)); k++) {
			v = -1;
			if (get_int(set, go->key, 0, option_count(go) - 1, &v) < 0)
				bad = go->key;
			else if (v >= 0 && game_choices_set(&s.options, go->key, (uint8_t)v) < 0)
				bad = go->key;
		}
		/* Absent (an older cardbot): the room's language stays as configured. */
		char lang[sizeof s.lang];
		json_object *lv;
		if (!bad && json_object_object_get_ex(set, "lang", &lv)) {
			if (get_str(set, "lang", lang, sizeof lang) < 0 || !text_lang_find(lang))
				bad = "lang";
			else
				snprintf(s.lang, sizeof s.lang, "%s", text_lang_find(lang)->code);
		}
	}
	seat seats[TABLE_SEATS];
	memset(seats, 0, sizeof seats);
	json_object *arr;
	size_t nsaved = 0;
	if (!bad && (!json_object_object_get_ex(o, "seats", &arr) || !json_object_is_type(arr, json_type_array)
		     || (nsaved = json_object_array_length(arr)) < META_SEATS || nsaved > TABLE_SEATS))
		/* (as many seats as the release that saved it had room for: four,
		 * six before eight-player 304, or eight) */
		bad = "seats";
	for (int i = 0; !bad && i < (int)nsaved; i++) {
		json_object *j = json_object_array_get_idx(arr, (size_t)i);
		int comp = 0, away = 0, ascii = 0;
		if (!json_object_is_type(j, json_type_object) || get_str(j, "user", seats[i].user, sizeof seats[i].user) < 0
		    || get_str(j, "name", seats[i].name, sizeof seats[i].name) < 0 || get_int(j, "computer", 0, 1, &comp) < 0
		    || get_int(j, "away", 0, 1, &away) < 0 || get_int(j, "ascii", 0, 1, &ascii) < 0)
			bad = "seats";
		seats[i].computer = comp;
		seats[i].away = away;
		seats[i].ascii = ascii;
		/* Optional (older metas have neither): a bad key is no key. */
		json_object *kv;
		if (!bad && json_object_object_get_ex(j, "key", &kv)
		    && get_str(j, "key", seats[i].key, sizeof seats[i].key) < 0)
			seats[i].key[0] = '\0';
		int mid = 0;
		if (!bad && json_object_object_get_ex(j, "mid_match", &kv) && get_int(j, "mid_match", 0, 1, &mid) == 0)
			seats[i].mid_match = mid;
	}
	int first = 0, votes = 0, nseats = META_SEATS;
	if (!bad && (get_int(o, "first_dealer", 0, TABLE_SEATS - 1, &first) < 0 || get_int(o, "stop_votes", 0, (1 << TABLE_SEATS) - 1, &votes) < 0))
		bad = "first_dealer";
	/* The game (absent in metas from before there were several: the
	 * registry's first, bot/games/present.c). */
	char gname[16];
	snprintf(gname, sizeof gname, "%s", present_at(0)->def->name);
	json_object *gv;
	if (!bad && json_object_object_get_ex(o, "game", &gv) && get_str(o, "game", gname, sizeof gname) < 0)
		bad = "game";
	const game_def *gdef = game_find(gname);
	if (!bad && (!gdef || get_int(o, "nseats", 1, TABLE_SEATS, &nseats) < 0 || nseats < gdef->min_seats
		     || nseats > gdef->max_seats || nseats > (int)nsaved || first >= nseats))
		bad = "game";
	for (int i = nseats; !bad && i < TABLE_SEATS; i++)
		if (seats[i].user[0])
			bad = "seats";
	if (bad) {
		snprintf(err, errlen, "the table's saved state has a bad \"%s\"", bad);
		json_object_put(o);
		return -1;
	}
	t->set = s;
	t->state = TABLE_OPEN;
	memset(t->seats, 0, sizeof t->seats);
	table_set_game(t, gdef->name, nseats);
	t->set = s; /* the saved pace, not the game's default */
	memcpy(t->seats, seats, sizeof seats);
	t->first_dealer = first;
	t->stop_votes = (uint8_t)votes;
	t->state = !strcmp(state, "playing") ? TABLE_PLAYING : TABLE_OPEN;
	json_object *dp;
	if (json_object_object_get_ex(o, "deals_played", &dp) && json_object_is_type(dp, json_type_int))
		t->deals_played = (long)json_object_get_int64(dp);
	t->nnotify = 0;
	json_object *nl;
	if (json_object_object_get_ex(o, "notify", &nl) && json_object_is_type(nl, json_type_array))
		for (size_t i = 0; i < json_object_array_length(nl) && t->nnotify < TABLE_NOTIFY_MAX; i++) {
			json_object *u = json_object_array_get_idx(nl, i);
			if (json_object_is_type(u, json_type_string) && json_object_get_string_len(u) > 0
			    && (size_t)json_object_get_string_len(u) < sizeof t->notify[0])
				snprintf(t->notify[t->nnotify++], sizeof t->notify[0], "%s", json_object_get_string(u));
		}
	/* Absent in metas from before it was kept; an entry that does not
	 * read is dropped (table_restore keeps only the current deal's). */
	t->nviewers = 0;
	json_object *vl;
	if (json_object_object_get_ex(o, "viewers", &vl) && json_object_is_type(vl, json_type_array))
		for (size_t i = 0; i < json_object_array_length(vl) && t->nviewers < TABLE_VIEWERS_MAX; i++) {
			json_object *j = json_object_array_get_idx(vl, i);
			seat_viewer sv = { 0 };
			if (json_object_is_type(j, json_type_object) && get_str(j, "user", sv.user, sizeof sv.user) == 0
			    && sv.user[0] && get_str(j, "origin", sv.origin, sizeof sv.origin) == 0
			    && json_object_object_get_ex(j, "seat", NULL) && get_int(j, "seat", 0, nseats - 1, &sv.seat) == 0
			    && json_object_object_get_ex(j, "deal", NULL) && get_int(j, "deal", 1, 1 << 24, &sv.deal) == 0)
				t->viewers[t->nviewers++] = sv;
		}
	json_object_put(o);
	return 0;
}

/* The match of record r, replayed through the engine, becomes the table's. */
static int rebuild(table *t, const record *r, int64_t id, char *err, size_t errlen)
{
	const present *pr = present_find(r->game);
	int e = 0;
	game *g = pr ? record_game_new(r, &e) : NULL;
	if (!g) {
		snprintf(err, errlen, "match %lld: the game cannot be set up", (long long)id);
		return -1;
	}
	size_t last_n = 0;
	for (size_t d = 0; d < r->ndeals; d++) {
		e = game_deal(g, r->deals[d].gdeck);
		if (e) {
			snprintf(err, errlen, "match %lld: deal %zu cannot start (%s)", (long long)id, d + 1, r->game->err_name(e));
			game_free(g);
			return -1;
		}
		for (size_t i = 0; i < r->deals[d].nactions; i++) {
			game_result res;
			e = game_apply(g, &r->deals[d].gactions[i], &res);
			if (e) {
				snprintf(err, errlen, "match %lld: deal %zu action %zu is refused (%s)", (long long)id, d + 1, i + 1,
					 r->game->err_name(e));
				game_free(g);
				return -1;
			}
		}
		last_n = r->deals[d].nactions;
	}
	game_free(t->g);
	t->g = g;
	t->gdef = r->game;
	t->pr = pr;
	t->nseats = r->nseats;
	game_choices_of(r->game, &r->rules, &t->set.options); /* the options the match was begun with */
	t->first_dealer = r->dealer;
	t->match_id = id;
	t->deal_idx = (int)r->ndeals;
	t->seq = (int)last_n;
	t->nacts++;
	return 0;
}

int tstore_rebuild(table *t, store *db, int64_t id, char *err, size_t errlen)
{
	char *text = store_match_record(db, id, 1, 0);
	if (!text) {
		snprintf(err, errlen, "%s", store_error(db));
		return -1;
	}
	char rerr[RECORD_ERR_MAX];
	record *r = record_parse_game(text, strlen(text), rerr);
	/* The current deal's salt and commitment (record_parse ignores them). */
	char salt[sizeof t->salt] = "", commitment[sizeof t->commitment] = "";
	json_object *top = r ? json_tokener_parse(text) : NULL, *deals, *last, *v;
	if (top && json_object_object_get_ex(top, "deals", &deals) && json_object_is_type(deals, json_type_array)
	    && json_object_array_length(deals) > 0) {
		last = json_object_array_get_idx(deals, json_object_array_length(deals) - 1);
		if (json_object_object_get_ex(last, "salt", &v) && json_object_is_type(v, json_type_string))
			snprintf(salt, sizeof salt, "%s", json_object_get_string(v));
		if (json_object_object_get_ex(last, "commitment", &v) && json_object_is_type(v, json_type_string))
			snprintf(commitment, sizeof commitment, "%s", json_object_get_string(v));
	}
	json_object_put(top);
	free(text);
	if (!r) {
		snprintf(err, errlen, "match %lld: %s", (long long)id, rerr);
		return -1;
	}
	int rc = rebuild(t, r, id, err, errlen);
	if (!rc) {
		memcpy(t->salt, salt, sizeof salt);
		memcpy(t->commitment, commitment, sizeof commitment);
	}
	record_free(r);
	return rc;
}
