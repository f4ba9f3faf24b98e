/* record.c: reads a game record and checks every field into a struct record; json-c stays in here. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "record.h"
#include "present.h"
#include "utf8.h"

/* Longest piece of a bad string quoted back in an error message. */
#define QUOTE_MAX 24
/* Room for a field path such as "deals[9999].actions[999].order[7]". */
#define PATH_MAX_LEN 64

/* vsnprintf into out (size bytes), with instead written where the format
 * fails; returns vsnprintf's count. */
__attribute__((format(printf, 4, 0)))
static int vformat(char *out, size_t size, const char *instead, const char *fmt, va_list ap)
{
	int n = vsnprintf(out, size, fmt, ap);
	if (n < 0)
		snprintf(out, size, "%s", instead);
	return n;
}

__attribute__((format(printf, 2, 3)))
static int fail(char err[RECORD_ERR_MAX], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* A longer message is cut at RECORD_ERR_MAX; its start names the field. */
	vformat(err, RECORD_ERR_MAX, "malformed record", fmt, ap);
	va_end(ap);
	return -1;
}

/* Writes a field path; the record limits keep every path well under
 * PATH_MAX_LEN, so a cut path can only mean a bug, and still reads. */
__attribute__((format(printf, 2, 3)))
static const char *path_fmt(char out[PATH_MAX_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vformat(out, PATH_MAX_LEN, "?", fmt, ap);
	va_end(ap);
	if (n >= PATH_MAX_LEN)
		memcpy(out + PATH_MAX_LEN - 4, "...", 4);
	return out;
}

/* Writes s (n bytes) in double quotes, at most QUOTE_MAX bytes of it, with
 * control characters, quotes and backslashes escaped, so that an error stays
 * one readable line. */
static const char *quote(char out[QUOTE_MAX * 4 + 8], const char *s, size_t n)
{
	size_t o = 0, i;
	out[o++] = '"';
	for (i = 0; i < n && i < QUOTE_MAX; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\') {
			out[o++] = '\\';
			out[o++] = (char)ch;
		} else if (ch < 0x20 || ch == 0x7f) {
			snprintf(out + o, 5, "\\x%02x", ch);
			o += 4;
		} else {
			out[o++] = (char)ch;
		}
	}
	if (i < n) {
		/* Cut on a UTF-8 character boundary. */
		while (o > 1 && ((unsigned char)out[o - 1] & 0xc0) == 0x80)
			o--;
		if (o > 1 && ((unsigned char)out[o - 1] & 0xc0) == 0xc0)
			o--;
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o++] = '"';
	out[o] = '\0';
	return out;
}

/* The kind of a JSON value, in the words of an error message. */
static const char *kind(const json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return "null";
	case json_type_boolean: return "true/false";
	case json_type_double: return "a number with a fraction";
	case json_type_int: return "a number";
	case json_type_object: return "an object";
	case json_type_array: return "a list";
	case json_type_string: return "a string";
	}
	return "something else";
}

/* True when string value o is exactly word (a NUL inside o never matches). */
static int str_is(json_object *o, const char *word)
{
	size_t n = (size_t)json_object_get_string_len(o);
	return n == strlen(word) && !memcmp(json_object_get_string(o), word, n);
}

static int expect(const json_object *o, enum json_type t, const char *path,
		  const char *what, char err[RECORD_ERR_MAX])
{
	if (json_object_is_type(o, t))
		return 0;
	return fail(err, "%s: expected %s, found %s", path, what, kind(o));
}

/* A member that must be present. */
static json_object *member(json_object *obj, const char *key, const char *path,
			   char err[RECORD_ERR_MAX])
{
	json_object *v;
	if (json_object_object_get_ex(obj, key, &v))
		return v;
	if (path[0])
		fail(err, "%s.%s: missing", path, key);
	else
		fail(err, "%s: missing", key);
	return NULL;
}

/* A seat below nseats; what names it in an error (304 records have always
 * said "a seat number (0-3)", the other games "a seat number"). */
static int get_seat(json_object *o, const char *path, int nseats, const char *what, int *seat,
		    char err[RECORD_ERR_MAX])
{
	if (expect(o, json_type_int, path, what, err))
		return -1;
	int64_t v = json_object_get_int64(o);
	if (v < 0 || v >= nseats)
		return fail(err, "%s: %lld is not a seat (0-%d)", path, (long long)v, nseats - 1);
	*seat = (int)v;
	return 0;
}

/* A card of def's pack (game_def_304's codes are the engine's card codes). */
static int get_gcard(json_object *o, const char *path, const game_def *def, uint8_t *c,
		     char err[RECORD_ERR_MAX])
{
	char q[QUOTE_MAX * 4 + 8];
	const present *pr = present_find(def);
	char what[64];
	snprintf(what, sizeof what, "a card code such as \"%s\"", pr && pr->record_card ? pr->record_card : "JS");
	if (expect(o, json_type_string, path, what, err))
		return -1;
	const char *s = json_object_get_string(o);
	size_t n = (size_t)json_object_get_string_len(o);
	*c = strlen(s) == n ? def->card_parse(s) : GAME_NO_CARD;
	if (*c == GAME_NO_CARD)
		return fail(err, "%s: unknown card %s", path, quote(q, s, n));
	return 0;
}

/* players[i]: a name of 1 to RECORD_MAX_NAME bytes, copied to *out. */
static int parse_name(json_object *name, size_t i, char **out, char err[RECORD_ERR_MAX])
{
	char path[PATH_MAX_LEN];
	path_fmt(path, "players[%zu]", i);
	if (expect(name, json_type_string, path, "a name", err))
		return -1;
	const char *s = json_object_get_string(name);
	size_t len = (size_t)json_object_get_string_len(name);
	if (len == 0)
		return fail(err, "%s: empty name", path);
	if (len > RECORD_MAX_NAME)
		return fail(err, "%s: name longer than %d bytes", path, RECORD_MAX_NAME);
	if (strlen(s) != len)
		return fail(err, "%s: name holds a NUL character", path);
	if (!(*out = malloc(len + 1)))
		return fail(err, "%s: out of memory", path);
	memcpy(*out, s, len + 1);
	/* Shown in a page's title and story, and by replay: a bidirectional
	 * override from an older cardbot's record must not turn them around. */
	if (!utf8_strip_bidi(*out)) {
		free(*out);
		*out = NULL;
		return fail(err, "%s: the name is only bidirectional formatting characters", path);
	}
	return 0;
}

/* A deck at dpath: def->deck_size distinct cards of def's pack; what is
 * the expected list in the words of an error. */
static int parse_deck(json_object *o, const char *dpath, const game_def *def, const char *what,
		      uint8_t *deck, char err[RECORD_ERR_MAX])
{
	if (expect(o, json_type_array, dpath, what, err))
		return -1;
	size_t n = json_object_array_length(o);
	if (n != def->deck_size)
		return fail(err, "%s: expected %d cards, found %zu", dpath, def->deck_size, n);
	uint8_t where[GAME_MAX_DECK];
	game_cards seen = 0;
	for (size_t i = 0; i < n; i++) {
		char cpath[PATH_MAX_LEN], code[8];
		path_fmt(cpath, "%s[%zu]", dpath, i);
		if (get_gcard(json_object_array_get_idx(o, i), cpath, def, &deck[i], err))
			return -1;
		if (seen >> deck[i] & 1) {
			def->card_code(deck[i], code);
			return fail(err, "%s: duplicate card \"%s\" (also at %s[%u])", cpath, code,
				    dpath, (unsigned)where[deck[i]]);
		}
		seen |= (game_cards)1 << deck[i];
		where[deck[i]] = (uint8_t)i;
	}
	return 0;
}

/* The list member key of obj (at path; "" at the top): at most limit
 * items, with room for them in *items (n items of size bytes, NULL when
 * there are none), which the caller owns. Its path goes in lpath. */
static json_object *get_list(json_object *obj, const char *key, const char *path, int limit,
			     size_t size, void **items, size_t *n, char lpath[PATH_MAX_LEN],
			     char err[RECORD_ERR_MAX])
{
	json_object *v = member(obj, key, path, err);
	if (!v)
		return NULL;
	if (path[0])
		path_fmt(lpath, "%s.%s", path, key);
	else
		path_fmt(lpath, "%s", key);
	char what[PATH_MAX_LEN];
	path_fmt(what, "a list of %s", key);
	if (expect(v, json_type_array, lpath, what, err))
		return NULL;
	*n = json_object_array_length(v);
	*items = NULL;
	if (*n > (size_t)limit) {
		fail(err, "%s: %zu %s, more than the limit of %d", lpath, *n, key, limit);
		return NULL;
	}
	if (*n > 0 && !(*items = calloc(*n, size))) {
		fail(err, "%s: out of memory", lpath);
		return NULL;
	}
	return v;
}

/* The seat and the name every action starts with; returns the action's
 * type (act_parse's number) or -1. */
static int action_head(json_object *o, const char *path, int nseats, const char *seat_what,
		       int (*act_parse)(const char *), uint8_t *seat, const char **name,
		       char err[RECORD_ERR_MAX])
{
	char fpath[PATH_MAX_LEN];
	json_object *v;
	if (expect(o, json_type_object, path, "an action object", err))
		return -1;
	int s;
	if (!(v = member(o, "seat", path, err)))
		return -1;
	path_fmt(fpath, "%s.seat", path);
	if (get_seat(v, fpath, nseats, seat_what, &s, err))
		return -1;
	*seat = (uint8_t)s;
	if (!(v = member(o, "do", path, err)))
		return -1;
	path_fmt(fpath, "%s.do", path);
	if (expect(v, json_type_string, fpath, "an action name", err))
		return -1;
	*name = json_object_get_string(v);
	size_t nlen = (size_t)json_object_get_string_len(v);
	int type = strlen(*name) == nlen ? act_parse(*name) : -1;
	if (type < 0) {
		char q[QUOTE_MAX * 4 + 8];
		return fail(err, "%s: unknown action %s", fpath, quote(q, *name, nlen));
	}
	return type;
}

/* The accepted words of option o, for an error: "\"strict\", \"lenient\" or \"off\"". */
static void option_words(const game_option *o, char *out, size_t len)
{
	if (o->onoff) {
		snprintf(out, len, "\"on\", \"off\", true or false");
		return;
	}
	size_t n = 0;
	int count = 0;
	while (count < GAME_OPTION_WORDS && o->words[count])
		count++;
	out[0] = '\0';
	for (int i = 0; i < count && n < len; i++) {
		int k = snprintf(out + n, len - n, "%s\"%s\"", i == 0 ? "" : i == count - 1 ? " or " : ", ", o->words[i]);
		if (k > 0)
			n += (size_t)k;
		if (o->alias && o->alias_of == i && n < len && (k = snprintf(out + n, len - n, " (or \"%s\")", o->alias)) > 0)
			n += (size_t)k;
	}
}

static int parse_option(const game_option *opt, json_object *v, game_rules *rules, char err[RECORD_ERR_MAX])
{
	char expected[128];
	option_words(opt, expected, sizeof expected);
	if (opt->onoff && json_object_is_type(v, json_type_boolean)) {
		rules->b[opt->off] = json_object_get_boolean(v) ? 1 : 0;
		return 0;
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		size_t n = (size_t)json_object_get_string_len(v);
		int value = strlen(s) == n ? game_option_parse(opt, s, 0) : -1;
		if (value >= 0) {
			rules->b[opt->off] = (uint8_t)value;
			return 0;
		}
		char q[QUOTE_MAX * 4 + 8];
		return fail(err, "rules.%s: unknown value %s; expected %s", opt->key, quote(q, s, n), expected);
	}
	return fail(err, "rules.%s: expected %s, found %s", opt->key, expected, kind(v));
}

/* "rules": the game's options (engine/core/game.h), each at its default
 * unless the record says otherwise. */
static int parse_rules(json_object *top, const game_def *def, game_rules *rules, char err[RECORD_ERR_MAX])
{
	json_object *o;
	game_rules_default(def, rules);
	if (!json_object_object_get_ex(top, "rules", &o))
		return 0;
	if (expect(o, json_type_object, "rules", "an object of table options", err))
		return -1;
	json_object_object_foreach(o, key, v) {
		const game_option *opt = game_option_find(def, key, 0);
		if (opt) {
			if (parse_option(opt, v, rules, err))
				return -1;
			continue;
		}
		char q[QUOTE_MAX * 4 + 8], names[160];
		size_t n = 0;
		int count = 0;
		names[0] = '\0';
		for (const game_option *x = def->options; x && x->key; x++)
			count++;
		for (int i = 0; i < count && n < sizeof names; i++) {
			int k = snprintf(names + n, sizeof names - n, "%s%s", i == 0 ? "" : i == count - 1 ? " and " : ", ",
					 def->options[i].key);
			if (k > 0)
				n += (size_t)k;
		}
		if (!count)
			return fail(err, "rules: unknown option %s; %s has no options", quote(q, key, strlen(key)),
				    def->name);
		return fail(err, "rules: unknown option %s; the options are %s", quote(q, key, strlen(key)), names);
	}
	return 0;
}

/* A bid's value: a number below the game's limit (its presentation's
 * record_bid_limit), or the word it gives for the bid at that limit (304:
 * "pcc", 1000, above every size's highest bid). Numbers from 0 go to the
 * engine, which says why a bid is too low or too high (310 at a table of
 * four, 910 at 904's). */
static int parse_bid_value(json_object *o, const char *apath, const present *pr, game_action *a,
			   char err[RECORD_ERR_MAX])
{
	char path[PATH_MAX_LEN], q[QUOTE_MAX * 4 + 8];
	const char *word = pr ? pr->record_bid_word : NULL;
	int limit = pr && pr->record_bid_limit ? pr->record_bid_limit : 1000;
	path_fmt(path, "%s.value", apath);
	if (word && json_object_is_type(o, json_type_string)) {
		const char *s = json_object_get_string(o);
		size_t n = (size_t)json_object_get_string_len(o);
		if (strlen(s) == n && !strcasecmp(s, word)) {
			a->value = (uint16_t)limit;
			return 0;
		}
		return fail(err, "%s: %s is not a bid; expected a number or \"%s\"", path, quote(q, s, n), word);
	}
	char what[64];
	snprintf(what, sizeof what, word ? "a bid (a number or \"%s\")" : "a bid (a number)", word);
	if (expect(o, json_type_int, path, what, err))
		return -1;
	int64_t v = json_object_get_int64(o);
	if (v < 0 || v >= limit) {
		if (word)
			return fail(err, "%s: %lld is not a bid; expected a number below %d or \"%s\"", path,
				    (long long)v, limit, word);
		return fail(err, "%s: %lld is not a bid", path, (long long)v);
	}
	a->value = (uint16_t)v;
	return 0;
}

/* n cards at path (a list of from to upto cards of def's pack, distinct
 * when asked: a caps order; a card put down twice is the engine's to refuse)
 * into a->cards. */
static int parse_cards(json_object *o, const char *path, const game_def *def, size_t from, size_t upto,
		       int distinct, game_action *a, char err[RECORD_ERR_MAX])
{
	char what[32];
	snprintf(what, sizeof what, from == upto ? "a list of %zu cards" : "a list of cards", from);
	if (expect(o, json_type_array, path, what, err))
		return -1;
	size_t n = json_object_array_length(o);
	if (n < from || n > upto) {
		if (from == upto)
			return fail(err, "%s: expected %zu cards, found %zu", path, from, n);
		return fail(err, "%s: expected %zu to %zu cards, found %zu", path, from, upto, n);
	}
	game_cards seen = 0;
	for (size_t i = 0; i < n; i++) {
		char cpath[PATH_MAX_LEN];
		path_fmt(cpath, "%s[%zu]", path, i);
		if (get_gcard(json_object_array_get_idx(o, i), cpath, def, &a->cards[i], err))
			return -1;
		if (distinct && seen >> a->cards[i] & 1) {
			char code[8];
			def->card_code(a->cards[i], code);
			return fail(err, "%s: duplicate card \"%s\"", cpath, code);
		}
		seen |= (game_cards)1 << a->cards[i];
	}
	a->ncards = (uint8_t)n;
	return 0;
}

/* The member of an action that its name says it has (docs/RECORD.md): a
 * bid's value, a card, an exchange's two cards, a caps order (up to
 * GAME_ACTION_CARDS cards), a colour where the game's trump is one. */
static int parse_gaction(json_object *o, const char *path, const record *rec, game_action *a,
			 char err[RECORD_ERR_MAX])
{
	const game_def *def = rec->game;
	char fpath[PATH_MAX_LEN], q[QUOTE_MAX * 4 + 8];
	json_object *v;
	memset(a, 0, sizeof *a);
	memset(a->cards, GAME_NO_CARD, sizeof a->cards);
	const char *name;
	int type = action_head(o, path, rec->nseats, "a seat number", def->act_parse, &a->seat, &name,
			       err);
	if (type < 0)
		return -1;
	a->type = (uint8_t)type;
	const present *pr = present_find(def);
	int (*colour)(const char *) = pr ? pr->record_colour : NULL;
	const char *field = !strcmp(name, "bid") ? "value"
		: !strcmp(name, "play") || !strcmp(name, "discard") || !strcmp(name, "trump") ? (colour && !strcmp(name, "trump") ? "colour" : "card")
		: !strcmp(name, "exchange") ? "cards" : !strcmp(name, "caps") ? "order" : NULL;
	if (!field)
		return 0;
	if (!(v = member(o, field, path, err)))
		return -1;
	path_fmt(fpath, "%s.%s", path, field);
	if (!strcmp(field, "value"))
		return parse_bid_value(v, path, pr, a, err);
	if (!strcmp(field, "card")) {
		a->ncards = 1;
		return get_gcard(v, fpath, def, &a->cards[0], err);
	}
	if (!strcmp(field, "cards"))
		return parse_cards(v, fpath, def, 2, 2, 0, a, err);
	if (!strcmp(field, "order"))
		return parse_cards(v, fpath, def, 1, GAME_ACTION_CARDS, 1, a, err);
	if (expect(v, json_type_string, fpath, "a colour (R, G, Y, B)", err))
		return -1;
	const char *s = json_object_get_string(v);
	size_t n = (size_t)json_object_get_string_len(v);
	int c = strlen(s) == n ? colour(s) : -1;
	if (c < 0)
		return fail(err, "%s: unknown colour %s; expected R, G, Y or B", fpath, quote(q, s, n));
	a->value = (uint16_t)c;
	return 0;
}

/* deals[d]: its deck and actions, in every game's form (engine/game.h), so
 * that a host replays any game by one path. */
static int parse_deal(json_object *o, size_t d, const record *rec, record_deal *deal,
		      char err[RECORD_ERR_MAX])
{
	json_object *x;
	void *items;
	char path[PATH_MAX_LEN], dpath[PATH_MAX_LEN], what[48];
	path_fmt(path, "deals[%zu]", d);
	if (expect(o, json_type_object, path, "a deal object", err))
		return -1;
	if (!(x = member(o, "deck", path, err)))
		return -1;
	path_fmt(dpath, "%s.deck", path);
	snprintf(what, sizeof what, "a list of %d card codes", rec->game->deck_size);
	if (parse_deck(x, dpath, rec->game, what, deal->gdeck, err))
		return -1;
	size_t n;
	if (!(x = get_list(o, "actions", path, RECORD_MAX_ACTIONS, sizeof *deal->gactions, &items, &n, dpath, err)))
		return -1;
	deal->gactions = items;
	deal->nactions = n;
	for (size_t i = 0; i < n; i++) {
		char ipath[PATH_MAX_LEN];
		path_fmt(ipath, "%s[%zu]", dpath, i);
		if (parse_gaction(json_object_array_get_idx(x, i), ipath, rec, &deal->gactions[i], err))
			return -1;
	}
	return 0;
}

/* The rest of a record of game rec->game: options, players, dealer, deals. */
static int parse_game(json_object *top, record *rec, char err[RECORD_ERR_MAX])
{
	const game_def *def = rec->game;
	json_object *v, *deals;
	if (parse_rules(top, def, &rec->rules, err))
		return -1;
	if (!(v = member(top, "players", "", err)))
		return -1;
	if (expect(v, json_type_array, "players", "a list of names", err))
		return -1;
	size_t n = json_object_array_length(v);
	if (n < def->min_seats || n > def->max_seats) {
		if (def->min_seats == def->max_seats)
			return fail(err, "players: expected a list of %d names, found %zu", def->min_seats, n);
		return fail(err, "players: expected a list of %d to %d names, found %zu", def->min_seats,
			    def->max_seats, n);
	}
	rec->nseats = (int)n;
	for (size_t i = 0; i < n; i++)
		if (parse_name(json_object_array_get_idx(v, i), i, &rec->players[i], err))
			return -1;
	if (!(v = member(top, "dealer", "", err)) || get_seat(v, "dealer", rec->nseats, "a seat number", &rec->dealer, err))
		return -1;
	size_t nd;
	void *items;
	char lpath[PATH_MAX_LEN];
	if (!(deals = get_list(top, "deals", "", RECORD_MAX_DEALS, sizeof *rec->deals, &items, &nd, lpath, err)))
		return -1;
	rec->deals = items;
	rec->ndeals = nd;
	for (size_t d = 0; d < nd; d++)
		if (parse_deal(json_object_array_get_idx(deals, d), d, rec, &rec->deals[d], err))
			return -1;
	/* Other top-level keys are left for later versions of the format. */
	return 0;
}

static int parse_top(json_object *top, record *rec, char err[RECORD_ERR_MAX])
{
	json_object *v;
	char q[QUOTE_MAX * 4 + 8];
	if (!json_object_is_type(top, json_type_object))
		return fail(err, "record: expected an object, found %s", kind(top));

	if (!json_object_object_get_ex(top, "format", &v))
		return fail(err, "format: missing; expected \"%s\"", RECORD_FORMAT);
	if (expect(v, json_type_string, "format", "\"" RECORD_FORMAT "\"", err))
		return -1;
	if (!str_is(v, RECORD_FORMAT))
		return fail(err, "format: %s is not a format this cardbot reads; expected \"%s\"",
			    quote(q, json_object_get_string(v),
				  (size_t)json_object_get_string_len(v)), RECORD_FORMAT);

	if (!(v = member(top, "game", "", err)))
		return -1;
	if (expect(v, json_type_string, "game", "the name of a game", err))
		return -1;
	/* Any game a table can host (bot/games/present.c's list). */
	const char *gname = json_object_get_string(v);
	const game_def *def = strlen(gname) == (size_t)json_object_get_string_len(v) ? present_game(gname) : NULL;
	if (!def) {
		char names[128];
		present_names(names, sizeof names, 0);
		return fail(err, "game: %s is not a game cardbot knows; expected %s",
			    quote(q, gname, (size_t)json_object_get_string_len(v)), names);
	}
	rec->game = def;
	return parse_game(top, rec, err);
}

/* Line and column (from 1) of byte offset off. */
static void position(const char *text, size_t len, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

static json_object *parse_json(const char *text, size_t len, char err[RECORD_ERR_MAX])
{
	size_t line, col;
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		position(text, len, (size_t)(nul - text), &line, &col);
		fail(err, "bad JSON at line %zu, column %zu: a NUL byte", line, col);
		return NULL;
	}
	json_tokener *tok = json_tokener_new_ex(RECORD_MAX_DEPTH);
	if (!tok) {
		fail(err, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	/* The text ends here: a NUL tells the tokener so (see json_tokener_parse_ex). */
	char *copy = malloc(len + 1);
	if (!copy) {
		json_tokener_free(tok);
		fail(err, "out of memory");
		return NULL;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	json_object *top = json_tokener_parse_ex(tok, copy, (int)len + 1);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_success && end < len) {
		/* Strict mode stops at the end of the value; only blanks may follow. */
		size_t i = end;
		while (i < len && strchr(" \t\r\n", copy[i]))
			i++;
		if (i < len) {
			position(copy, len, i, &line, &col);
			fail(err, "bad JSON at line %zu, column %zu: text after the record", line, col);
			json_object_put(top);
			top = NULL;
		}
	} else if (jerr != json_tokener_success) {
		if (end > len)
			end = len;
		position(copy, len, end, &line, &col);
		if (jerr == json_tokener_continue || end >= len)
			fail(err, "bad JSON: the text ends before the record does");
		else
			fail(err, "bad JSON at line %zu, column %zu: %s", line, col,
			     json_tokener_error_desc(jerr));
		json_object_put(top);
		top = NULL;
	}
	free(copy);
	json_tokener_free(tok);
	return top;
}

record *record_parse_game(const char *text, size_t len, char err[RECORD_ERR_MAX])
{
	err[0] = '\0';
	if (len > RECORD_MAX_BYTES) {
		fail(err, "record: larger than the limit of %zu bytes", RECORD_MAX_BYTES);
		return NULL;
	}
	json_object *top = parse_json(text, len, err);
	if (!top)
		return NULL;
	record *rec = calloc(1, sizeof *rec);
	if (!rec) {
		json_object_put(top);
		fail(err, "out of memory");
		return NULL;
	}
	if (parse_top(top, rec, err)) {
		record_free(rec);
		rec = NULL;
	}
	json_object_put(top);
	return rec;
}

record *record_parse(const char *text, size_t len, char err[RECORD_ERR_MAX])
{
	return record_parse_game(text, len, err);
}

game *record_game_new(const record *r, int *err)
{
	return game_new(r->game, r->nseats, r->dealer, r->game->options ? r->rules.b : NULL, err);
}

void record_free(record *r)
{
	if (!r)
		return;
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		free(r->players[i]);
	for (size_t d = 0; d < r->ndeals; d++) {
		free(r->deals[d].gactions);
	}
	free(r->deals);
	free(r);
}

int record_read_file(const char *path, char **text, size_t *len, char err[RECORD_ERR_MAX])
{
	int is_stdin = !strcmp(path, "-");
	const char *shown = is_stdin ? "standard input" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	*text = NULL;
	*len = 0;
	if (!f) {
		fail(err, "%s: %s", shown, strerror(errno));
		return RECORD_READ_IO;
	}
	/* One byte past the limit tells "too large" from "exactly at the limit". */
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int status = RECORD_READ_OK;
	for (;;) {
		if (n + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			if (ncap > RECORD_MAX_BYTES + 2)
				ncap = RECORD_MAX_BYTES + 2;
			char *nbuf = realloc(buf, ncap);
			if (!nbuf) {
				fail(err, "%s: out of memory", shown);
				status = RECORD_READ_IO;
				break;
			}
			buf = nbuf;
			cap = ncap;
		}
		size_t want = cap - 1 - n;
		size_t got = fread(buf + n, 1, want, f);
		n += got;
		if (n > RECORD_MAX_BYTES) {
			fail(err, "%s: larger than the limit of %zu bytes for a record", shown,
			     RECORD_MAX_BYTES);
			status = RECORD_READ_TOO_BIG;
			break;
		}
		if (got < want) {
			if (ferror(f)) {
				fail(err, "%s: %s", shown, strerror(errno));
				status = RECORD_READ_IO;
			}
			break;
		}
	}
	if (!is_stdin)
		fclose(f);
	if (status != RECORD_READ_OK) {
		free(buf);
		return status;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return RECORD_READ_OK;
}

int record_read_say(const char *cmd, const char *path, char **text, size_t *len)
{
	char err[RECORD_ERR_MAX];
	int st = record_read_file(path, text, len, err);
	if (st != RECORD_READ_OK)
		fprintf(stderr, "cardbot %s: %s\n", cmd, err);
	return st;
}
