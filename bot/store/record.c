/* record.c: reads a game record and checks every field into a struct record; json-c stays in here. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One table option: its key, where it goes, and the words it accepts. */
struct choice {
	const char *word;
	uint8_t value;
};
struct rule_option {
	const char *key;
	size_t offset;                 /* into g304_rules */
	const struct choice *choices;  /* ends with a NULL word */
	int boolean;                   /* true and false are accepted too */
	const char *expected;          /* the accepted words, for errors */
};

static const struct choice bidding_words[] = {
	{ "pagat", G304_BIDDING_PAGAT }, { "single", G304_BIDDING_SINGLE }, { NULL, 0 },
};
static const struct choice on_off_words[] = { { "on", 1 }, { "off", 0 }, { NULL, 0 } };
static const struct choice scoring_words[] = {
	{ "standard", G304_SCORING_STANDARD }, { "transfer", G304_SCORING_STANDARD },
	{ "bank", G304_SCORING_BANK }, { NULL, 0 },
};
static const struct choice caps_words[] = {
	{ "strict", G304_CAPS_STRICT }, { "lenient", G304_CAPS_LENIENT },
	{ "off", G304_CAPS_OFF }, { NULL, 0 },
};

static const struct rule_option rule_options[] = {
	{ "bidding", offsetof(g304_rules, bidding), bidding_words, 0, "\"pagat\" or \"single\"" },
	{ "fives", offsetof(g304_rules, fives), on_off_words, 1, "\"on\", \"off\", true or false" },
	{ "scoring", offsetof(g304_rules, scoring), scoring_words, 0,
	  "\"standard\" (or \"transfer\") or \"bank\"" },
	{ "caps", offsetof(g304_rules, caps), caps_words, 0, "\"strict\", \"lenient\" or \"off\"" },
	{ "external_caps", offsetof(g304_rules, external_caps), on_off_words, 1,
	  "\"on\", \"off\", true or false" },
};
#define RULE_OPTIONS (sizeof rule_options / sizeof rule_options[0])

static int parse_option(const struct rule_option *opt, json_object *v, g304_rules *rules,
			char err[RECORD_ERR_MAX])
{
	uint8_t *field = (uint8_t *)rules + opt->offset;
	if (opt->boolean && json_object_is_type(v, json_type_boolean)) {
		*field = json_object_get_boolean(v) ? 1 : 0;
		return 0;
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		for (const struct choice *c = opt->choices; c->word; c++) {
			if (str_is(v, c->word)) {
				*field = c->value;
				return 0;
			}
		}
		char q[QUOTE_MAX * 4 + 8];
		return fail(err, "rules.%s: unknown value %s; expected %s", opt->key,
			    quote(q, s, (size_t)json_object_get_string_len(v)), opt->expected);
	}
	return fail(err, "rules.%s: expected %s, found %s", opt->key, opt->expected, kind(v));
}

static int parse_rules(json_object *o, g304_rules *rules, char err[RECORD_ERR_MAX])
{
	g304_rules_default(rules);
	if (expect(o, json_type_object, "rules", "an object of table options", err))
		return -1;
	json_object_object_foreach(o, key, v) {
		size_t i;
		for (i = 0; i < RULE_OPTIONS; i++)
			if (!strcmp(key, rule_options[i].key))
				break;
		if (i == RULE_OPTIONS) {
			char q[QUOTE_MAX * 4 + 8];
			return fail(err, "rules: unknown option %s; the options are bidding, "
				    "fives, scoring, caps and external_caps",
				    quote(q, key, strlen(key)));
		}
		if (parse_option(&rule_options[i], v, rules, err))
			return -1;
	}
	return 0;
}

static int parse_players(json_object *o, record *rec, char err[RECORD_ERR_MAX])
{
	if (expect(o, json_type_array, "players", "a list of 4 names", err))
		return -1;
	size_t n = json_object_array_length(o);
	if (n != G304_SEATS)
		return fail(err, "players: expected a list of 4 names, found %zu", n);
	for (size_t i = 0; i < n; i++)
		if (parse_name(json_object_array_get_idx(o, i), i, &rec->players[i], err))
			return -1;
	return 0;
}

static int parse_bid_value(json_object *o, const char *apath, g304_action *a,
			   char err[RECORD_ERR_MAX])
{
	char path[PATH_MAX_LEN];
	path_fmt(path, "%s.value", apath);
	if (json_object_is_type(o, json_type_string)) {
		const char *s = json_object_get_string(o);
		if (str_is(o, "pcc") || str_is(o, "PCC")) {
			a->value = G304_BID_PCC;
			return 0;
		}
		char q[QUOTE_MAX * 4 + 8];
		return fail(err, "%s: %s is not a bid; expected a number or \"pcc\"", path,
			    quote(q, s, (size_t)json_object_get_string_len(o)));
	}
	if (expect(o, json_type_int, path, "a bid (a number or \"pcc\")", err))
		return -1;
	int64_t v = json_object_get_int64(o);
	/* Numbers from 0 go to the engine, which says why a bid is too low or
	 * too high; G304_BID_PCC and up would read as pcc or wrap. */
	if (v < 0 || v >= G304_BID_PCC)
		return fail(err, "%s: %lld is not a bid; expected a number up to %d or \"pcc\"",
			    path, (long long)v, G304_MAX_BID);
	a->value = (uint16_t)v;
	return 0;
}

static int parse_order(json_object *o, const char *apath, g304_action *a,
		       char err[RECORD_ERR_MAX])
{
	char path[PATH_MAX_LEN];
	path_fmt(path, "%s.order", apath);
	if (expect(o, json_type_array, path, "a list of cards", err))
		return -1;
	size_t n = json_object_array_length(o);
	if (n < 1 || n > G304_TRICKS)
		return fail(err, "%s: expected 1 to %d cards, found %zu", path, G304_TRICKS, n);
	cardset seen = 0;
	for (size_t i = 0; i < n; i++) {
		char cpath[PATH_MAX_LEN];
		path_fmt(cpath, "%s[%zu]", path, i);
		if (get_gcard(json_object_array_get_idx(o, i), cpath, &game_def_304, &a->order[i], err))
			return -1;
		if (seen & card_bit(a->order[i])) {
			char code[3];
			card_code(a->order[i], code);
			return fail(err, "%s: duplicate card \"%s\"", cpath, code);
		}
		seen |= card_bit(a->order[i]);
	}
	a->norder = (uint8_t)n;
	return 0;
}

static int parse_action(json_object *o, const char *path, g304_action *a,
			char err[RECORD_ERR_MAX])
{
	char fpath[PATH_MAX_LEN];
	json_object *v;
	memset(a, 0, sizeof *a);
	a->card = CARD_NONE;
	for (int i = 0; i < G304_TRICKS; i++)
		a->order[i] = CARD_NONE;
	const char *name;
	int type = action_head(o, path, G304_SEATS, "a seat number (0-3)", g304_act_parse, &a->seat,
			       &name, err);
	if (type < 0)
		return -1;
	a->type = (uint8_t)type;

	switch (type) {
	case G304_ACT_BID:
		if (!(v = member(o, "value", path, err)))
			return -1;
		return parse_bid_value(v, path, a, err);
	case G304_ACT_TRUMP:
	case G304_ACT_PLAY:
		if (!(v = member(o, "card", path, err)))
			return -1;
		path_fmt(fpath, "%s.card", path);
		return get_gcard(v, fpath, &game_def_304, &a->card, err);
	case G304_ACT_CAPS:
		if (!(v = member(o, "order", path, err)))
			return -1;
		return parse_order(v, path, a, err);
	default:
		return 0;
	}
}

/* ---- games other than 304 (304six, trump304, rook) ---- */

/* A caps order in def's pack (304six): 1 to GAME_ACTION_CARDS distinct cards. */
static int parse_gorder(json_object *o, const char *apath, const game_def *def, game_action *a,
			char err[RECORD_ERR_MAX])
{
	char path[PATH_MAX_LEN];
	path_fmt(path, "%s.order", apath);
	if (expect(o, json_type_array, path, "a list of cards", err))
		return -1;
	size_t n = json_object_array_length(o);
	if (n < 1 || n > GAME_ACTION_CARDS)
		return fail(err, "%s: expected 1 to %d cards, found %zu", path, GAME_ACTION_CARDS, n);
	game_cards seen = 0;
	for (size_t i = 0; i < n; i++) {
		char cpath[PATH_MAX_LEN];
		path_fmt(cpath, "%s[%zu]", path, i);
		if (get_gcard(json_object_array_get_idx(o, i), cpath, def, &a->cards[i], err))
			return -1;
		if (seen >> a->cards[i] & 1) {
			char code[8];
			def->card_code(a->cards[i], code);
			return fail(err, "%s: duplicate card \"%s\"", cpath, code);
		}
		seen |= (game_cards)1 << a->cards[i];
	}
	a->ncards = (uint8_t)n;
	return 0;
}

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
	if (game_304_size(def) > 0 && (!strcmp(name, "bid") || !strcmp(name, "caps"))) {
		/* 304's forms: a bid may be "pcc"; caps lists its order. */
		g304_action x;
		memset(&x, 0, sizeof x);
		if (!(v = member(o, !strcmp(name, "bid") ? "value" : "order", path, err)))
			return -1;
		if (!strcmp(name, "bid")) {
			if (parse_bid_value(v, path, &x, err))
				return -1;
			a->value = x.value;
			return 0;
		}
		return parse_gorder(v, path, def, a, err);
	}
	if (!strcmp(name, "bid")) {
		if (!(v = member(o, "value", path, err)))
			return -1;
		path_fmt(fpath, "%s.value", path);
		if (expect(v, json_type_int, fpath, "a bid (a number)", err))
			return -1;
		int64_t b = json_object_get_int64(v);
		/* The engine says why a bid is too low or too high. */
		if (b < 0 || b > 999)
			return fail(err, "%s: %lld is not a bid", fpath, (long long)b);
		a->value = (uint16_t)b;
	} else if (!strcmp(name, "play") || !strcmp(name, "discard") || (!colour && !strcmp(name, "trump"))) {
		if (!(v = member(o, "card", path, err)))
			return -1;
		path_fmt(fpath, "%s.card", path);
		if (get_gcard(v, fpath, def, &a->cards[0], err))
			return -1;
		a->ncards = 1;
	} else if (!strcmp(name, "exchange")) {
		if (!(v = member(o, "cards", path, err)))
			return -1;
		path_fmt(fpath, "%s.cards", path);
		if (expect(v, json_type_array, fpath, "a list of 2 cards", err))
			return -1;
		if (json_object_array_length(v) != 2)
			return fail(err, "%s: expected 2 cards, found %zu", fpath, json_object_array_length(v));
		for (size_t i = 0; i < 2; i++) {
			char cpath[PATH_MAX_LEN];
			path_fmt(cpath, "%s[%zu]", fpath, i);
			if (get_gcard(json_object_array_get_idx(v, i), cpath, def, &a->cards[i], err))
				return -1;
		}
		a->ncards = 2;
	} else if (colour && !strcmp(name, "trump")) {
		if (!(v = member(o, "colour", path, err)))
			return -1;
		path_fmt(fpath, "%s.colour", path);
		if (expect(v, json_type_string, fpath, "a colour (R, G, Y, B)", err))
			return -1;
		const char *s = json_object_get_string(v);
		size_t n = (size_t)json_object_get_string_len(v);
		int c = strlen(s) == n ? colour(s) : -1;
		if (c < 0)
			return fail(err, "%s: unknown colour %s; expected R, G, Y or B", fpath, quote(q, s, n));
		a->value = (uint16_t)c;
	}
	return 0;
}

/* deals[d]: its deck and actions into gdeck and gactions, every game's
 * form (engine/game.h), so that a host replays any game by one path. */
static int parse_deal(json_object *o, size_t d, const record *rec, record_deal *deal,
		      char err[RECORD_ERR_MAX])
{
	int is_304 = rec->game == &game_def_304;
	json_object *x;
	void *items;
	char path[PATH_MAX_LEN], dpath[PATH_MAX_LEN];
	path_fmt(path, "deals[%zu]", d);
	if (expect(o, json_type_object, path, "a deal object", err))
		return -1;
	if (!(x = member(o, "deck", path, err)))
		return -1;
	path_fmt(dpath, "%s.deck", path);
	if (parse_deck(x, dpath, rec->game, is_304 ? "a list of 32 card codes" : "a list of card codes", deal->gdeck,
		       err))
		return -1;
	size_t n;
	if (!(x = get_list(o, "actions", path, RECORD_MAX_ACTIONS, sizeof *deal->gactions, &items, &n, dpath, err)))
		return -1;
	deal->gactions = items;
	deal->nactions = n;
	for (size_t i = 0; i < n; i++) {
		char ipath[PATH_MAX_LEN];
		json_object *a = json_object_array_get_idx(x, i);
		path_fmt(ipath, "%s[%zu]", dpath, i);
		/* 304's actions are read in its engine's form (their checks),
		 * then kept in every game's. */
		g304_action g;
		if (is_304 ? parse_action(a, ipath, &g, err) : parse_gaction(a, ipath, rec, &deal->gactions[i], err))
			return -1;
		if (is_304)
			game_action_from_g304(&g, &deal->gactions[i]);
	}
	return 0;
}

/* The dealer (a seat; seat_what as in get_seat) and the deals. */
static int parse_deals(json_object *top, record *rec, const char *seat_what,
		       char err[RECORD_ERR_MAX])
{
	json_object *v;
	if (!(v = member(top, "dealer", "", err)) ||
	    get_seat(v, "dealer", rec->nseats, seat_what, &rec->dealer, err))
		return -1;
	size_t n;
	void *items;
	char lpath[PATH_MAX_LEN];
	if (!(v = get_list(top, "deals", "", RECORD_MAX_DEALS, sizeof *rec->deals, &items, &n, lpath,
			   err)))
		return -1;
	rec->deals = items;
	rec->ndeals = n;
	for (size_t d = 0; d < n; d++)
		if (parse_deal(json_object_array_get_idx(v, d), d, rec, &rec->deals[d], err))
			return -1;
	return 0;
}

static int parse_other(json_object *top, record *rec, char err[RECORD_ERR_MAX])
{
	const game_def *def = rec->game;
	json_object *v;
	char q[QUOTE_MAX * 4 + 8];
	if (game_304_size(def) > 0) {
		/* 304 at every other table size takes 304's table options. */
		g304_rules_default(&rec->rules);
		if (json_object_object_get_ex(top, "rules", &v) && parse_rules(v, &rec->rules, err))
			return -1;
	} else if (json_object_object_get_ex(top, "rules", &v)) {
		if (expect(v, json_type_object, "rules", "an object of table options", err))
			return -1;
		json_object_object_foreach(v, key, val) {
			(void)val;
			return fail(err, "rules: unknown option %s; %s has no options", quote(q, key, strlen(key)),
				    def->name);
		}
	}
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
	return parse_deals(top, rec, "a seat number", err);
}

static int parse_top(json_object *top, record *rec, int any, char err[RECORD_ERR_MAX])
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
	rec->game = &game_def_304;
	rec->nseats = G304_SEATS;
	if (!str_is(v, "304")) {
		/* Any game a table can host (bot/present.c's list). */
		const char *gname = json_object_get_string(v);
		const game_def *def = strlen(gname) == (size_t)json_object_get_string_len(v) ? present_game(gname) : NULL;
		char names[128];
		present_names(names, sizeof names);
		if (!any || !def)
			return fail(err, any ? "game: %s is not a game cardbot knows; expected %s" : "game: %s is not "
				    "supported yet; only \"304\" records can be replayed",
				    quote(q, json_object_get_string(v), (size_t)json_object_get_string_len(v)), names);
		rec->game = def;
		return parse_other(top, rec, err);
	}

	g304_rules_default(&rec->rules);
	if (json_object_object_get_ex(top, "rules", &v) && parse_rules(v, &rec->rules, err))
		return -1;

	if (!(v = member(top, "players", "", err)) || parse_players(v, rec, err))
		return -1;
	if (parse_deals(top, rec, "a seat number (0-3)", err))
		return -1;
	/* Other top-level keys are left for later versions of the format. */
	return 0;
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

static record *parse_record(const char *text, size_t len, int any, char err[RECORD_ERR_MAX])
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
	if (parse_top(top, rec, any, err)) {
		record_free(rec);
		rec = NULL;
	}
	json_object_put(top);
	return rec;
}

record *record_parse(const char *text, size_t len, char err[RECORD_ERR_MAX])
{
	return parse_record(text, len, 0, err);
}

record *record_parse_game(const char *text, size_t len, char err[RECORD_ERR_MAX])
{
	return parse_record(text, len, 1, err);
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
