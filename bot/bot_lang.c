/* bot_lang.c: the language each person chose with !lang: a small cache in
 * front of the database, so the many private lines of a deal cost no query. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "bot.h"
#include "bot_lang.h"
#include "log.h"
#include "store.h"

static bot_lang_entry *find(bot *b, const adapter *net, const char *user)
{
	for (int i = 0; i < BOT_LANG_CACHE; i++)
		if (b->langs[i].net == net && adapter_same_user(net, b->langs[i].user, user))
			return &b->langs[i];
	return NULL;
}

static bot_lang_entry *add(bot *b, const adapter *net, const char *user)
{
	bot_lang_entry *e = &b->langs[b->nlang_next];
	b->nlang_next = (b->nlang_next + 1) % BOT_LANG_CACHE; /* the oldest goes */
	e->net = net;
	snprintf(e->user, sizeof e->user, "%s", user);
	e->lang = NULL;
	return e;
}

const text_lang *bot_lang_of(bot *b, const adapter *net, const char *user)
{
	if (!b || !net || !user || !*user)
		return NULL;
	bot_lang_entry *e = find(b, net, user);
	if (e)
		return e->lang;
	const text_lang *l = NULL;
	char code[16];
	if (b->db) {
		int r = store_lang_get(b->db, net->name, user, code, sizeof code);
		if (r < 0)
			log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
		else if (r == 1)
			l = text_lang_find(code);
		if (r < 0)
			return NULL; /* not kept: asked again next time */
	}
	add(b, net, user)->lang = l;
	return l;
}

const text_lang *bot_lang_private(bot *b, const adapter *net, const char *user)
{
	const text_lang *l = bot_lang_of(b, net, user);
	if (l)
		return l;
	l = text_lang_find(b->defaults.lang);
	return l ? l : &text_lang_en;
}

int bot_lang_set(bot *b, const adapter *net, const char *user, const text_lang *lang)
{
	bot_lang_entry *e = find(b, net, user);
	if (!e)
		e = add(b, net, user);
	e->lang = lang;
	if (b->db && store_lang_set(b->db, net->name, user, lang ? lang->code : NULL) < 0) {
		log_msg(LOG_ERROR, NULL, "%s", store_error(b->db));
		return -1;
	}
	return 0;
}

void bot_lang_renamed(bot *b, const adapter *net, const char *old_user, const char *new_user)
{
	const text_lang *l = bot_lang_of(b, net, old_user);
	if (!l || adapter_same_user(net, old_user, new_user))
		return;
	bot_lang_entry *e = find(b, net, new_user);
	if (!e)
		e = add(b, net, new_user);
	e->lang = l;
}

/* "en English, si සිංහල, ta தமிழ்": what !lang offers. */
static void choices(char *out, size_t len)
{
	static const text_lang *const order[] = { &text_lang_en, &text_lang_si, &text_lang_ta };
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof order / sizeof order[0] && n < len; i++) {
		int k = snprintf(out + n, len - n, "%s%s %s", i ? ", " : "", order[i]->code, order[i]->name);
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

static void say(bot *b, adapter *net, const char *user, const text_lang *l, int id, const char *a1, const char *a2,
		const char *a3)
{
	char buf[1024];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt_in(l, buf, sizeof buf, id, 3, args);
	bot_say_private(b, net, user, buf, ADAPTER_NOTICE);
}

void bot_lang_command(bot *b, adapter *net, const char *user, const text_lang *room, int argc, char **argv)
{
	char list[256];
	choices(list, sizeof list);
	const text_lang *mine = bot_lang_of(b, net, user);
	const text_lang *now = mine ? mine : room ? room : bot_lang_private(b, net, user);
	if (argc < 2) {
		say(b, net, user, now, mine ? T_LANG_IS : T_LANG_IS_ROOM, now->name, now->code, list);
		return;
	}
	const text_lang *l = text_lang_find(argv[1]);
	if (!l || argc > 2) {
		say(b, net, user, now, T_LANG_UNKNOWN, argv[1], list, NULL);
		return;
	}
	bot_lang_set(b, net, user, l);
	say(b, net, user, l, T_LANG_SET, NULL, NULL, NULL);
}
