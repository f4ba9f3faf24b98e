/* testnet.h: the network of the bot tests: the real console adapter
 * (adapters/console.h) in the same process, its output lines recorded.
 *
 * What people do goes in as the console's JSON input lines (console_feed,
 * which hands each line to the host before it returns); what the bot says
 * comes back through the console's sink, one JSON line a message, parsed
 * here into the arrays the tests read: lines said in rooms, and lines said
 * privately with their recipient. A message of several parts is one line,
 * its parts joined with " · " (ADAPTER_PART_SEP). The console keeps the
 * host's text as it was sent (console_settings.codes: colours and any
 * control character included), so a test sees exactly what the bot said;
 * origins are "NICK!NICK@elsewhere.example", or the host testnet_host gave.
 *
 * One network per test program (`net`), created after the bot it talks to
 * (which owns the adapter and frees it); testnet_add gives more adapters
 * recording into the same arrays.
 *
 * Input no adapter hands over (adapter.h: bytes that are not UTF-8, names
 * with control characters, text past ADAPTER_TEXT_MAX) is refused by the
 * console at its edge, as by every network: a test of the host's own
 * guards against it calls bot_host()'s callbacks directly, with net.a. */
#ifndef CARDBOT_TESTNET_H
#define CARDBOT_TESTNET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "adapter.h"
#include "bot.h"
#include "console.h"
#include "loop.h"
#include "store.h"

typedef struct testnet {
	adapter *a;                  /* the console adapter (the bot's) */
	/* Lines said in rooms and privately, in order: the text, and the room
	 * or person it went to (owned here, kept until testnet_open). */
	int nroom, npriv;
	char **room_lines, **room_to;
	char **priv_lines, **priv_to;
	int room_cap, priv_cap;
	/* Called for every line said, as it is recorded (room 1: in room
	 * `to`; 0: privately to `to`); NULL: none. Kept by testnet_open. */
	void (*hook)(int room, const char *to, const char *text);
	int stopped;                 /* the console said it stopped */
	/* The host's adapter_ops.withdraw calls (the console sends at once and
	 * has none: the test network records them): how many, and the room of
	 * the last. */
	int withdrawn;
	char withdrawn_room[ADAPTER_ID_MAX];
} testnet;

static testnet net;

/* The console's sink: one JSON output line, parsed and recorded. */
/* A deck source for the tables (table_host.deck): the next deal at any
 * table takes *(const uint8_t **)ctx (the game's deck_size cards) as its
 * shuffle, before the cut, and the pointer is cleared; NULL: the table
 * shuffles. Arm it with testnet_deck. */
static inline int testnet_deck_once(void *ctx, const game_def *def, uint8_t *deck)
{
	const uint8_t **next = ctx;
	if (!*next)
		return 0;
	memcpy(deck, *next, def->deck_size);
	*next = NULL;
	return 1;
}

/* Deals deck at b's next deal (testnet_deck_once); *next is NULL once dealt. */
static inline void testnet_deck(bot *b, const uint8_t **next, const uint8_t *deck)
{
	*next = deck;
	b->thost.deck = testnet_deck_once;
	b->thost.deck_ctx = (void *)next;
}

static inline void testnet_sink(void *ctx, const char *line)
{
	(void)ctx;
	json_object *o = json_tokener_parse(line), *v;
	if (!o) {
		fprintf(stderr, "testnet: the console said something that is not JSON: %s\n", line);
		abort();
	}
	if (json_object_object_get_ex(o, "stopped", NULL)) {
		net.stopped = 1;
		json_object_put(o);
		return;
	}
	int room = json_object_object_get_ex(o, "to", &v);
	if (!room && !json_object_object_get_ex(o, "user", &v)) {
		fprintf(stderr, "testnet: a line with neither \"to\" nor \"user\": %s\n", line);
		abort();
	}
	const char *to = json_object_get_string(v);
	json_object *tv;
	const char *text = json_object_object_get_ex(o, "text", &tv) ? json_object_get_string(tv) : NULL;
	if (!to || !text) {
		fprintf(stderr, "testnet: a line without its text: %s\n", line);
		abort();
	}
	if (net.hook)
		net.hook(room, to, text);
	int *n = room ? &net.nroom : &net.npriv, *cap = room ? &net.room_cap : &net.priv_cap;
	char ***lines = room ? &net.room_lines : &net.priv_lines, ***tos = room ? &net.room_to : &net.priv_to;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*lines = realloc(*lines, (size_t)*cap * sizeof **lines);
		*tos = realloc(*tos, (size_t)*cap * sizeof **tos);
		if (!*lines || !*tos)
			abort();
	}
	if (!((*lines)[*n] = strdup(text)) || !((*tos)[*n] = strdup(to)))
		abort();
	(*n)++;
	json_object_put(o);
}

static inline void testnet_withdraw(adapter *a, const char *room)
{
	(void)a;
	net.withdrawn++;
	snprintf(net.withdrawn_room, sizeof net.withdrawn_room, "%s", room);
}

/* A console adapter on `ev` for bot `b`, called `name` there, recording
 * into net; added to the bot. Its operations are the console's, with a
 * withdraw that records (a network holding lines back would drop them). */
static inline adapter *testnet_console(loop *ev, bot *b, const char *name)
{
	console_settings s;
	console_settings_default(&s);
	s.in_fd = s.out_fd = -1;
	s.sink = testnet_sink;
	s.codes = 1;
	snprintf(s.origin_host, sizeof s.origin_host, "elsewhere.example");
	adapter_host h = bot_host(b);
	adapter *a = console_adapter_new(ev, &h, name, &s);
	if (!a || bot_add_network(b, a) != 0) {
		fprintf(stderr, "testnet: no console adapter\n");
		abort();
	}
	static adapter_ops ops;
	ops = *a->ops;
	ops.withdraw = testnet_withdraw;
	a->ops = &ops;
	return a;
}

/* A new database in a new directory (dir: a mkdtemp template, rewritten
 * with the name made), its path written into path; NULL with err set
 * when either cannot be made. */
static inline store *testnet_db(char *dir, char *path, size_t len, char *err, size_t errlen)
{
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "%s: no temporary directory", dir);
		return NULL;
	}
	snprintf(path, len, "%s/cardbot.db", dir);
	return store_open(path, err, errlen);
}

/* Forgets every line recorded. */
static inline void testnet_clear(void)
{
	for (int i = 0; i < net.nroom; i++)
		free(net.room_lines[i]), free(net.room_to[i]);
	for (int i = 0; i < net.npriv; i++)
		free(net.priv_lines[i]), free(net.priv_to[i]);
	net.nroom = net.npriv = 0;
}

/* The test network, nothing recorded, for bot `b` on `ev`: net.a, called `name`. */
static inline void testnet_open(loop *ev, bot *b, const char *name)
{
	testnet_clear();
	net.stopped = 0;
	net.a = testnet_console(ev, b, name);
}

/* One more network for the same bot, recording into net. */
static inline adapter *testnet_add(loop *ev, bot *b, const char *name)
{
	return testnet_console(ev, b, name);
}

/* From now on what comes in on net.a goes to bot b (which must have it
 * among its networks: bot_add_network). */
static inline void testnet_use(bot *b)
{
	net.a->host = bot_host(b);
}

/* Frees what was recorded (the bot frees the adapters). */
static inline void testnet_free(void)
{
	testnet_clear();
	free(net.room_lines), free(net.room_to), free(net.priv_lines), free(net.priv_to);
	net.room_lines = net.room_to = net.priv_lines = net.priv_to = NULL;
	net.room_cap = net.priv_cap = 0;
	net.a = NULL;
}

/* Feeds adapter a one input line: the JSON object o (taken). */
static inline void testnet_feed(adapter *a, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = strlen(s);
	char *line = malloc(n + 2);
	if (!line)
		abort();
	memcpy(line, s, n);
	line[n] = '\n';
	line[n + 1] = '\0';
	console_feed(a, line, n + 1);
	free(line);
	json_object_put(o);
}

static inline void testnet_add_str(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, value ? json_object_new_string(value) : NULL);
}

/* A message from `user` shown as `name` in `room` (NULL: privately), as a
 * notice or not, on adapter a. */
static inline void testnet_message(adapter *a, const char *room, const char *user, const char *name, const char *text,
				   int notice)
{
	json_object *o = json_object_new_object();
	if (room)
		testnet_add_str(o, "room", room);
	testnet_add_str(o, "user", user);
	if (name)
		testnet_add_str(o, "name", name);
	testnet_add_str(o, "text", text);
	if (notice)
		json_object_object_add(o, "notice", json_object_new_boolean(1));
	testnet_feed(a, o);
}

/* `user` says `text` in `room` (NULL: privately to the bot) on net.a. */
static inline void say(bot *b, const char *room, const char *user, const char *text)
{
	(void)b;
	testnet_message(net.a, room, user, NULL, text, 0);
}

/* `user` arrives in `room`. */
static inline void testnet_join(adapter *a, const char *room, const char *user)
{
	json_object *o = json_object_new_object();
	testnet_add_str(o, "join", room);
	testnet_add_str(o, "user", user);
	testnet_feed(a, o);
}

/* `user` leaves `room` (NULL: the network) saying why. */
static inline void testnet_part(adapter *a, const char *room, const char *user, const char *why)
{
	json_object *o = json_object_new_object();
	testnet_add_str(o, "part", room);
	testnet_add_str(o, "user", user);
	if (why && *why)
		testnet_add_str(o, "why", why);
	testnet_feed(a, o);
}

/* `from` is now `to` (shown as `to`). */
static inline void testnet_rename(adapter *a, const char *from, const char *to)
{
	json_object *o = json_object_new_object();
	testnet_add_str(o, "rename", from);
	testnet_add_str(o, "to", to);
	testnet_feed(a, o);
}

/* `user` speaks from `host` (their origin is then NICK!NICK@host): the
 * console hears it on a notice from them, which the bot never answers. */
static inline void testnet_host(adapter *a, const char *user, const char *host)
{
	json_object *o = json_object_new_object();
	testnet_add_str(o, "user", user);
	testnet_add_str(o, "host", host);
	testnet_add_str(o, "text", "(here)");
	json_object_object_add(o, "notice", json_object_new_boolean(1));
	testnet_feed(a, o);
}

#endif
