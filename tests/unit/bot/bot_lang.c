/* bot_lang.c: the three languages. Every table has every line, refusal and
 * phase with the English's placeholders; a missing entry reads as English;
 * over the test network, a person's !lang holds for their private lines
 * (and across a restart, in a real SQLite file) while the room reads the
 * room's language, which !set lang and the configuration choose; an unknown
 * code is refused; the longest lines of each language leave the IRC
 * adapter's splitter as whole UTF-8 pieces within a line, and the Matrix
 * renderer's HTML of them is valid UTF-8 with nothing lost.
 * A line of ta or si identical to the English fails too, beyond the
 * allow-list below (typed command syntax, names, bare placeholders). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* (304's header before the host's: its parameters named seat come
 * before the table's seat type) */
#include "g304.h"
#include "bot.h"
#include "check.h"
#include "config.h"
#include "ircline.h"
#include "loop.h"
#include "matrix_internal.h"
#include "store.h"
#include "table_int.h"
#include "testnet.h"
#include "present.h"
#include "text_lang.h"
#include "utf8.h"

static const char *const id_names[T_COUNT] = {
#define X(id, s) [id] = #id,
	TEXT_ALL(X)
#undef X
};

/* Lines that may read exactly as the English in every language: command
 * syntax that is typed as it stands. Lines with no letters outside their
 * placeholders ("{1}: {2}") are allowed without being listed. */
static const int same_ok[] = {
	T_USAGE_ASCII, T_USAGE_RECORD, T_USAGE_SIT, T_USAGE_BOT, T_USAGE_EXCHANGE, T_USAGE_DISCARD, T_USAGE_LANG, T_BID_PCC_OR_PASS,
	T_BID_PASS_ONLY, T_COMPUTER_NAMES, T_COMPUTER_NAMES6, T_COMPUTER_NAMES8, T_CAPS_RESULT, /* "caps" is a game word, and may stay */
	T_GAME_T304, T_GAME_ROOK, /* the games' own names */
	T_PART_ROOK, T_PART_STATS_T304, T_PART_STATS_ROOK, /* a game's name, and its bands of bids in figures */
};

static int in(const int *list, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == id)
			return 1;
	return 0;
}

/* The placeholders of s ("{1}", "{prefix}", "{seat}"), sorted and
 * deduplicated, joined into out. */
static void placeholders(const char *s, char *out, size_t len)
{
	char toks[32][16];
	int n = 0;
	for (const char *p = s; (p = strchr(p, '{')) && n < 32; p++) {
		const char *q = strchr(p, '}');
		if (!q || q - p > 12)
			continue;
		char tok[16];
		snprintf(tok, sizeof tok, "%.*s", (int)(q - p + 1), p);
		int dup = 0;
		for (int i = 0; i < n; i++)
			dup |= !strcmp(toks[i], tok);
		if (!dup)
			snprintf(toks[n++], sizeof toks[0], "%s", tok);
	}
	qsort(toks, (size_t)n, sizeof toks[0], (int (*)(const void *, const void *))strcmp);
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		strncat(out, toks[i], len - strlen(out) - 1);
}

/* Has s a letter outside its placeholders? */
static int has_words(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q;
				continue;
			}
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (unsigned char)*p >= 0x80)
			return 1;
	}
	return 0;
}

static void check_entry(const text_lang *l, const char *what, const char *name, const char *mine, const char *en,
			int allowed_same, int *missing, int *same)
{
	if (!mine || !*mine) {
		(*missing)++;
		CHECK(0, "%s: %s %s is missing", l->code, what, name);
		return;
	}
	CHECK(utf8_valid(mine, strlen(mine)), "%s: %s %s is not valid UTF-8", l->code, what, name);
	char a[256], b[256];
	placeholders(en, a, sizeof a);
	placeholders(mine, b, sizeof b);
	CHECK(!strcmp(a, b), "%s: %s %s has placeholders %s, the English %s", l->code, what, name, b, a);
	if (!strcmp(mine, en) && has_words(en) && !allowed_same) {
		(*same)++;
		CHECK(0, "%s: %s %s is the English word for word", l->code, what, name);
	}
}

static void test_tables(void)
{
	for (int k = 0; k < TEXT_LANGS; k++) {
		const text_lang *l = text_langs[k];
		CHECK(text_lang_find(l->code) == l, "%s is found by its code", l->code);
		int missing = 0, same = 0;
		for (int i = 0; i < T_COUNT; i++)
			check_entry(l, "line", id_names[i], l->lines[i], text_en_lines[i],
				    l == &text_lang_en || in(same_ok, sizeof same_ok / sizeof same_ok[0], i), &missing, &same);
		/* 304's own sentences, which its presentation holds. */
		const text_game *w = &present_304_words;
		CHECK(w->nrefusals == G304_ERR_COUNT && w->nphases == G304_PHASE_COUNT && w->refusals[k] && w->phases[k],
		      "%s has a word for each of 304's refusals and phases", l->code);
		for (int i = 0; i < G304_ERR_COUNT && i < w->nrefusals && w->refusals[k]; i++) {
			char name[32];
			snprintf(name, sizeof name, "refusal %d", i);
			check_entry(l, "refusal", name, w->refusals[k][i], w->refusals[0][i], l == &text_lang_en,
				    &missing, &same);
		}
		for (int i = 0; i < G304_PHASE_COUNT && i < w->nphases && w->phases[k]; i++) {
			char name[32];
			snprintf(name, sizeof name, "phase %d", i);
			check_entry(l, "phase", name, w->phases[k][i], w->phases[0][i], l == &text_lang_en, &missing,
				    &same);
		}
		if (missing || same)
			fprintf(stderr, "note: %s: %d ids missing, %d lines read as the English\n", l->code,
				missing, same);
	}
	CHECK(text_lang_find("TA") == &text_lang_ta, "codes are found whatever their case");
	CHECK(!text_lang_find("fr") && !text_lang_find("") && !text_lang_find(NULL), "unknown codes are not");
}

/* The host's sentences that list the games are composed in each language
 * from every game's part (present_parts): each part is in them, in the
 * registry's order, and the frame's words around them. */
static void test_parts(void)
{
	static const int frame[PRESENT_PARTS] = { [PRESENT_PART_NEW] = T_HELP_NEW, [PRESENT_PART_NEW_REFUSED] = T_G_NEW_USAGE,
						   [PRESENT_PART_STATS] = T_HELP_STATS, [PRESENT_PART_CUT] = T_HELP_CUT };
	for (int k = 0; k < TEXT_LANGS; k++) {
		const text_lang *l = text_langs[k];
		for (int part = PRESENT_PART_NEW; part < PRESENT_PARTS; part++) {
			char all[2048], piece[1024];
			present_parts(l, part, "!", all, sizeof all);
			const char *at = all;
			int n = 0;
			const present *pr;
			for (int i = 0; (pr = present_at(i)); i++) {
				if (!pr->t_parts[part])
					continue;
				const char *args[1] = { "!" };
				text_fmt_in(l, piece, sizeof piece, pr->t_parts[part], 1, args);
				const char *found = strstr(at, piece);
				CHECK(found, "%s: part %d holds %s's in its place: %s", l->code, part, pr->def->name, all);
				at = found ? found + strlen(piece) : at;
				n++;
			}
			CHECK(n >= 3 && !strstr(all, "{"), "%s: part %d lists the games: %s", l->code, part, all);
			const char *args[3] = { "!", all, "304" };
			text_fmt_in(l, piece, sizeof piece, frame[part], 3, args);
			CHECK(strstr(piece, all) && strlen(piece) > strlen(all) + 10, "%s: the frame holds them: %s", l->code, piece);
		}
		char caps[64];
		present_parts(l, PRESENT_PART_CAPS, "!", caps, sizeof caps);
		CHECK(!strcmp(caps, "304"), "%s: the games with caps: %s", l->code, caps);
		present_parts(l, PRESENT_PART_NONE, "!", caps, sizeof caps);
		CHECK(!*caps, "%s: no part is empty", l->code);
	}
	/* Cut short, a list ends on a whole letter. */
	for (size_t len = 1; len < 80; len++) {
		char small[80];
		present_parts(&text_lang_ta, PRESENT_PART_NEW, "!", small, len);
		CHECK(strlen(small) < len && utf8_valid(small, strlen(small)), "a Tamil list cut at %zu bytes is whole letters", len);
	}
	char en[1024];
	present_parts(&text_lang_en, PRESENT_PART_NEW, "!", en, sizeof en);
	CHECK(strstr(en, ", trump304 (2, 3 or 4 players; 4 by default) or rook"), "English joins the last with or: %s", en);
}

/* A language with nothing in it reads as English, never "(null)". */
static void test_fallback(void)
{
	static const char *const none_lines[T_COUNT];
	const text_lang empty = { "xx", "xx", none_lines };
	char a[1024], b[1024];
	const char *args[3] = { "ann", "7", "#304" };
	for (int i = 0; i < T_COUNT; i++) {
		text_fmt_in(&empty, a, sizeof a, i, 3, args);
		text_fmt_in(&text_lang_en, b, sizeof b, i, 3, args);
		CHECK(!strcmp(a, b) && !strstr(a, "(null)"), "a missing %s reads as the English: %s", id_names[i], a);
	}
	game_result res = { .err = G304_ERR_WRONG_PHASE, .a = G304_PHASE_PLAY };
	text_refusal_game_in(&empty, &present_304_words, &game_def_304, a, sizeof a, &res, NULL, NULL);
	text_refusal_game_in(NULL, &present_304_words, &game_def_304, b, sizeof b, &res, NULL, NULL);
	CHECK(!strcmp(a, b) && strstr(a, "during play"), "a missing refusal and phase read as the English: %s", a);
	text_deal_refused_in(&empty, a, sizeof a, 1);
	CHECK(!strcmp(a, "the match is over: no more deals"), "a missing deal refusal reads as the English: %s", a);
	CHECK(!strcmp(text_suit(&empty, 0), "spades") && !strcmp(text_line(&empty, T_ROOK_BLACK), "black"),
	      "suit and colour words fall back too");
	/* A cut never leaves half a Tamil letter. */
	const char *t = text_line(&text_lang_ta, T_HELP_STATS);
	for (size_t len = 1; len < 64; len++) {
		char small[64];
		const char *one[1] = { "!" };
		text_fmt_in(&text_lang_ta, small, len, T_HELP_STATS, 1, one);
		CHECK(utf8_valid(small, strlen(small)), "a Tamil line cut at %zu bytes is whole letters", len);
	}
	(void)t;
}

static table *table_in(bot *b, const char *room)
{
	for (int i = 0; i < b->ntables; i++)
		if (!strcmp(b->tables[i]->room, room) && !b->tables[i]->closing)
			return b->tables[i];
	return NULL;
}

/* The last private line to `who` from index `from`, or NULL. */
static const char *priv_to(int from, const char *who)
{
	for (int i = net.npriv - 1; i >= from; i--)
		if (!strcmp(net.priv_to[i], who))
			return net.priv_lines[i];
	return NULL;
}

static const char *room_last(int from)
{
	return net.nroom > from ? net.room_lines[net.nroom - 1] : NULL;
}

/* fmt(lang, id, args...) as the bot would write it (prefix "!"). */
static const char *fmt(const text_lang *l, int id, const char *a1, const char *a2, const char *a3)
{
	static char buf[1024];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt_in(l, buf, sizeof buf, id, 3, args);
	return buf;
}

static bot *new_bot(loop *ev, store *db, const char *lang)
{
	table_settings set;
	table_settings_default(&set);
	if (lang)
		snprintf(set.lang, sizeof set.lang, "%s", lang);
	set.deal_pause_ms = 5;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	testnet_open(ev, b, "fake");
	return b;
}

/* !lang: private, remembered across a restart; a wrong code refused. */
static void test_person(void)
{
	char dir[] = "/tmp/cardbot-lang-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db != NULL, "a new database opens: %s", db ? "" : err);
	if (!db)
		return;
	loop *ev = loop_new();
	bot *b = new_bot(ev, db, NULL);
	int from = net.npriv;
	say(b, NULL, "ann", "!lang ta");
	const char *got = priv_to(from, "ann");
	CHECK(got && !strcmp(got, fmt(&text_lang_ta, T_LANG_SET, NULL, NULL, NULL)), "!lang ta is answered in Tamil: %s",
	      got ? got : "(nothing)");
	CHECK(bot_lang_of(b, net.a, "ann") == &text_lang_ta, "ann reads Tamil now");
	from = net.npriv;
	say(b, NULL, "ann", "lang");
	got = priv_to(from, "ann");
	CHECK(got && strstr(got, "ta") && strstr(got, "si") && strstr(got, "en")
		      && !strncmp(got, fmt(&text_lang_ta, T_LANG_IS, "x", "x", "x"), 4),
	      "lang alone says the language and the choices, in Tamil: %s", got ? got : "(nothing)");
	from = net.npriv;
	say(b, NULL, "ann", "lang fr");
	got = priv_to(from, "ann");
	CHECK(got && strstr(got, "\"fr\"") && strstr(got, "en|si|ta") == NULL && strstr(got, "si "),
	      "an unknown code is refused, with the choices: %s", got ? got : "(nothing)");
	CHECK(bot_lang_of(b, net.a, "ann") == &text_lang_ta, "and ann's choice stands");
	say(b, NULL, "bob", "!lang SI");
	CHECK(bot_lang_of(b, net.a, "bob") == &text_lang_si, "codes are taken in any case");
	CHECK(bot_lang_of(b, net.a, "cat") == NULL, "cat chose nothing");
	testnet_rename(net.a, "bob", "bobby");
	CHECK(bot_lang_of(b, net.a, "bobby") == &text_lang_si, "bob's choice follows him to a new nick");
	/* A room's !set lang is remembered for the channel's next table. */
	say(b, "#k", "cat", "!304");
	say(b, "#k", "cat", "!set lang si");
	say(b, "#k", "cat", "!stop");
	CHECK(!table_in(b, "#k"), "the table at #k stops");
	int rfrom = net.nroom;
	say(b, "#k", "cat", "!304");
	table *k = table_in(b, "#k");
	int recalled = 0;
	for (int i = rfrom; i < net.nroom; i++)
		recalled |= strstr(net.room_lines[i], "lang si") != NULL;
	CHECK(k && table_lang(k) == &text_lang_si && recalled, "the next table at #k speaks Sinhala, and says so");
	bot_free(b);
	loop_free(ev);
	store_close(db);
	testnet_free();

	/* A restart: a new bot on the same file. */
	db = store_open(path, err, sizeof err);
	CHECK(db != NULL, "the database opens again: %s", db ? "" : err);
	if (!db)
		return;
	ev = loop_new();
	b = new_bot(ev, db, NULL);
	CHECK(bot_lang_of(b, net.a, "ann") == &text_lang_ta && bot_lang_of(b, net.a, "ANN") == &text_lang_ta,
	      "ann's Tamil survives the restart");
	CHECK(bot_lang_of(b, net.a, "bob") == &text_lang_si, "bob's Sinhala too");
	from = net.npriv;
	say(b, NULL, "ann", "!304");
	got = priv_to(from, "ann");
	CHECK(got && !strcmp(got, fmt(&text_lang_ta, T_NO_TABLE_FOR_YOU, "!", NULL, NULL)),
	      "after the restart ann's private lines are Tamil: %s", got ? got : "(nothing)");
	bot_free(b);
	loop_free(ev);
	store_close(db);
	testnet_free();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "note: %s was not removed\n", dir);
}

/* The room's language for the room, each person's for their private lines;
 * !set lang, at any time. */
static void test_room(void)
{
	loop *ev = loop_new();
	bot *b = new_bot(ev, NULL, NULL);
	say(b, "#r", "ann", "!304");
	table *t = table_in(b, "#r");
	CHECK(t && table_lang(t) == &text_lang_en, "a table opens in the default language, English");
	if (!t)
		return;
	say(b, "#r", "bob", "!lang ta");
	int rfrom = net.nroom;
	say(b, "#r", "bob", "!sit");
	const char *got = room_last(rfrom);
	CHECK(got && strstr(got, fmt(&text_lang_en, T_SIT, "bob", "2", NULL)), "the room hears bob sit in English: %s",
	      got ? got : "(nothing)");
	int from = net.npriv;
	say(b, "#r", "bob", "!sit");
	got = priv_to(from, "bob");
	CHECK(got && !strcmp(got, fmt(&text_lang_ta, T_ALREADY_SEATED, "#r", NULL, NULL)),
	      "bob's private line is in his Tamil: %s", got ? got : "(nothing)");
	from = net.npriv;
	say(b, "#r", "ann", "!sit");
	got = priv_to(from, "ann");
	CHECK(got && !strcmp(got, fmt(&text_lang_en, T_ALREADY_SEATED, "#r", NULL, NULL)),
	      "ann's private line is in the room's English: %s", got ? got : "(nothing)");
	CHECK(table_lang_of(t, "ann") == &text_lang_en && table_lang_of(t, "bob") == &text_lang_ta,
	      "ann reads the room's language, bob his own");

	/* The room changes language, during a match too. */
	say(b, "#r", "ann", "!bot");
	say(b, "#r", "ann", "!bot");
	say(b, "#r", "ann", "!start");
	CHECK(t->state == TABLE_PLAYING, "a match is on");
	rfrom = net.nroom;
	say(b, "#r", "ann", "!set lang si");
	got = room_last(rfrom);
	CHECK(table_lang(t) == &text_lang_si, "!set lang si works during a match");
	CHECK(got && strstr(got, fmt(&text_lang_si, T_LANG_ROOM_SET, "si", NULL, NULL)),
	      "the room is told in its new language: %s", got ? got : "(nothing)");
	CHECK(table_lang_of(t, "ann") == &text_lang_si && table_lang_of(t, "bob") == &text_lang_ta,
	      "ann now reads Sinhala with the room; bob keeps Tamil");
	from = net.npriv;
	say(b, "#r", "ann", "!set lang xx");
	got = priv_to(from, "ann");
	CHECK(got && strstr(got, "\"xx\"") && table_lang(t) == &text_lang_si,
	      "an unknown room language is refused clearly, nothing changed: %s", got ? got : "(nothing)");
	from = net.npriv;
	say(b, "#r", "ann", "!set fives on");
	got = priv_to(from, "ann");
	CHECK(got && !strcmp(got, fmt(&text_lang_si, T_ONLY_BETWEEN, "#r", "!", NULL)),
	      "other options still wait for the match's end (said in Sinhala): %s", got ? got : "(nothing)");
	/* !help names !lang and says the commands are the same words. */
	from = net.npriv;
	say(b, NULL, "ann", "help");
	int has_lang = 0, same = 0;
	for (int i = from; i < net.npriv; i++) {
		has_lang |= strstr(net.priv_lines[i], "!lang") != NULL;
		same |= !strcmp(net.priv_lines[i], fmt(&text_lang_en, T_HELP_SAME_WORDS, "!", NULL, NULL));
	}
	CHECK(has_lang && same, "help lists !lang and says the commands are the same in every language");
	bot_free(b);
	loop_free(ev);
	testnet_free();
}

/* The configuration: lang per channel and in [tables]; an unknown code is
 * an error naming the choices. */
static void test_config(void)
{
	const char *good = "bot = { language = \"si\"; };\n"
			   "tables = { lang = \"en\"; };\n"
			   "networks = ( { name = \"n\"; type = \"irc\"; server = \"127.0.0.1\";\n"
			   "  channels = ( \"#plain\", { name = \"#tamil\"; lang = \"ta\"; } ); } );\n";
	config c;
	config_errors e;
	memset(&e, 0, sizeof e);
	int n = config_load_string(good, "lang.cfg", &c, &e);
	CHECK(n == 0, "a config with lang settings loads");
	if (n == 0) {
		CHECK(!strcmp(c.bot.language, "si") && !strcmp(c.tables.lang, "en"), "bot.language and tables.lang are read");
		const config_table *ta = config_channel_table(&c, &c.networks[0], NULL, "#tamil");
		CHECK(ta && !strcmp(ta->lang, "ta"), "the channel's lang is read");
		config_free(&c);
	}
	config_errors_free(&e);
	const char *bad = "networks = ( { name = \"n\"; type = \"irc\"; server = \"127.0.0.1\";\n"
			  "  channels = ( { name = \"#x\"; lang = \"fr\"; } ); } );\n";
	memset(&e, 0, sizeof e);
	n = config_load_string(bad, "bad.cfg", &c, &e);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	config_errors_print(&e, f);
	fclose(f);
	CHECK(n > 0 && text && strstr(text, "bad.cfg:2") && strstr(text, "\"fr\"") && strstr(text, "\"ta\""),
	      "an unknown lang is an error with its line and the choices: %s", text ? text : "");
	free(text);
	if (n == 0)
		config_free(&c);
	config_errors_free(&e);
}

/* A table opened in a channel configured for Tamil speaks Tamil. */
static void settings_ta(void *ctx, adapter *a, const char *room, table_settings *out)
{
	(void)ctx, (void)a;
	table_settings_default(out);
	if (!strncmp(room, "#tamil", 6))
		snprintf(out->lang, sizeof out->lang, "ta");
}

static void test_room_config(void)
{
	loop *ev = loop_new();
	bot *b = new_bot(ev, NULL, NULL);
	b->settings_for = settings_ta;
	int rfrom = net.nroom;
	say(b, "#tamil", "ann", "!304");
	table *t = table_in(b, "#tamil");
	CHECK(t && table_lang(t) == &text_lang_ta, "the configured channel's table speaks Tamil");
	const char *got = net.nroom > rfrom ? net.room_lines[rfrom] : NULL;
	CHECK(got && !strcmp(got, fmt(&text_lang_ta, T_TABLE_OPENED, "!", "#tamil", "304")),
	      "its opening line is the Tamil one: %s", got ? got : "(nothing)");
	/* A match in Tamil: the room hears it begin in Tamil. */
	say(b, "#tamil", "ann", "!bot");
	say(b, "#tamil", "ann", "!bot");
	say(b, "#tamil", "ann", "!bot");
	rfrom = net.nroom;
	say(b, "#tamil", "ann", "!start");
	const char *begins = text_line(&text_lang_ta, T_MATCH_STARTS);
	char head[128];
	snprintf(head, sizeof head, "%.*s", (int)strcspn(begins, "{"), begins);
	int seen = 0;
	for (int i = rfrom; i < net.nroom; i++)
		seen |= !strcmp(net.room_to[i], "#tamil") && head[0] && strstr(net.room_lines[i], head) != NULL;
	CHECK(t && t->state == TABLE_PLAYING && seen, "the match's first lines in #tamil are Tamil (%s...)", head);
	say(b, "#other", "ann", "!304");
	t = table_in(b, "#other");
	CHECK(t && table_lang(t) == &text_lang_en, "another channel's table speaks English");
	/* The lines an adapter says by itself (adapter_host.words): the room's
	 * language at a table, the configured one in a room without a table. */
	adapter_host h = bot_host(b);
	static const int ids[] = { [ADAPTER_W_ASK_JOIN] = T_NET_ASK_JOIN, [ADAPTER_W_SLOW] = T_NET_SLOW,
				   [ADAPTER_W_ENCRYPTED_OFF] = T_NET_ENCRYPTED_OFF,
				   [ADAPTER_W_UNREADABLE] = T_NET_UNREADABLE };
	const struct {
		const char *room;
		const text_lang *lang;
	} rooms[] = { { "#tamil", &text_lang_ta }, { "#other", &text_lang_en }, { "#tamil-no-table", &text_lang_ta } };
	for (int w = ADAPTER_W_ASK_JOIN; w <= ADAPTER_W_UNREADABLE; w++)
		for (size_t i = 0; i < sizeof rooms / sizeof rooms[0]; i++) {
			char out[2048];
			int ok = h.words && h.words(h.ctx, net.a, rooms[i].room, w, "Ann", out, sizeof out) == 1;
			CHECK(ok && !strcmp(out, fmt(rooms[i].lang, ids[w], "Ann", NULL, NULL)),
			      "the adapter's line %d in %s is the %s one: %s", w, rooms[i].room, rooms[i].lang->code,
			      ok ? out : "(none)");
		}
	char out[64];
	CHECK(h.words && h.words(h.ctx, net.a, "#tamil", 99, "Ann", out, sizeof out) == 0,
	      "a line the bot has no words for is left to the adapter");
	bot_free(b);
	loop_free(ev);
	testnet_free();
}

/* Tamil and Sinhala through the IRC splitter and the Matrix renderer. */
static void test_adapters(void)
{
	for (int k = 1; k < TEXT_LANGS; k++) {
		const text_lang *l = text_langs[k];
		/* The three longest lines, with long Tamil/Sinhala arguments. */
		int longest[3] = { 0, 0, 0 };
		for (int i = 0; i < T_COUNT; i++) {
			size_t n = strlen(text_line(l, i));
			for (int j = 0; j < 3; j++)
				if (n > strlen(text_line(l, longest[j]))) {
					memmove(longest + j + 1, longest + j, (size_t)(2 - j) * sizeof longest[0]);
					longest[j] = i;
					break;
				}
		}
		const char *arg = l->name;
		char name[200] = "";
		for (int r = 0; r < 8; r++)
			strncat(name, arg, sizeof name - strlen(name) - 1);
		for (int j = 0; j < 3; j++) {
			char line[4096]; /* the longest, `rules` in Tamil, is near 2000 bytes before its arguments */
			const char *args[9] = { name, name, name, name, name, name, name, name, name };
			size_t n = text_fmt_in(l, line, sizeof line, longest[j], 9, args);
			CHECK(n < sizeof line && utf8_valid(line, n), "%s %s is whole UTF-8 (%zu bytes)", l->code,
			      id_names[longest[j]], n);
			/* IRC: the queue's pieces, "PRIVMSG #304 :" + piece + CRLF within 512. */
			const size_t room = 396;
			char joined[4096] = "";
			size_t jn = 0, left = n;
			const char *s = line;
			int pieces = 0, ok = 1;
			while (left > 0 && pieces < 64) {
				size_t skip = 0, kk = ircline_split(s, left, room, &skip);
				ok &= kk > 0 && kk <= room && utf8_valid(s, kk);
				/* As relayed: ":prefix PRIVMSG #304 :" + text + CRLF, the prefix with
				 * its ":" and " " in IRC_PREFIX_BUDGET's 100 (irc_internal.h). */
				ok &= 100 + strlen("PRIVMSG #304 :") + kk + 2 <= IRCLINE_MAX;
				memcpy(joined + jn, s, kk);
				jn += kk;
				if (skip)
					joined[jn++] = ' ';
				s += kk + skip;
				left -= kk + skip;
				pieces++;
			}
			joined[jn] = '\0';
			CHECK(ok && pieces >= 1, "%s %s: every IRC piece is whole UTF-8 within a line", l->code,
			      id_names[longest[j]]);
			CHECK(jn == n && !memcmp(joined, line, n), "%s %s: nothing is lost in the pieces (%d)", l->code,
			      id_names[longest[j]], pieces);
			/* Matrix: the plain body keeps the text; the HTML is valid UTF-8. */
			char body[8192], html[16384];
			strbuf ob, oh;
			sb_init(&ob, body, sizeof body);
			sb_init(&oh, html, sizeof html);
			mx_render_into(line, n, &ob, &oh);
			CHECK(!ob.cut && !oh.cut && utf8_valid(body, ob.len) && utf8_valid(html, oh.len),
			      "%s %s: the Matrix body and HTML are valid UTF-8", l->code, id_names[longest[j]]);
			CHECK(!strcmp(body, line), "%s %s: the Matrix body is the text", l->code, id_names[longest[j]]);
			size_t high_text = 0, high_html = 0;
			for (size_t i = 0; i < n; i++)
				high_text += (unsigned char)line[i] >= 0x80;
			for (size_t i = 0; i < oh.len; i++)
				high_html += (unsigned char)html[i] >= 0x80;
			CHECK(high_text > 0 && high_html == high_text, "%s %s: the HTML keeps every letter (%zu of %zu bytes)",
			      l->code, id_names[longest[j]], high_html, high_text);
		}
	}
}

/* The prefix configured is the one the lines name ({prefix}, {start}). */
static void test_prefix(void)
{
	loop *ev = loop_new();
	table_settings set;
	table_settings_default(&set);
	bot *b = bot_new(ev, &set, ".");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	testnet_open(ev, b, "fake");
	say(b, "#p", "ann", ".304");
	int rfrom = net.nroom;
	say(b, "#p", "ann", ".bot");
	say(b, "#p", "ann", ".bot");
	say(b, "#p", "ann", ".bot");
	int ready = 0, bang = 0;
	for (int i = rfrom; i < net.nroom; i++) {
		ready |= strstr(net.room_lines[i], ".start to deal") != NULL;
		bang |= strstr(net.room_lines[i], "!start") != NULL;
	}
	CHECK(ready && !bang, "with the prefix \".\" the ready line says .start");
	bot_free(b);
	loop_free(ev);
	testnet_free();
	text_prefix_set("!");
}

int main(void)
{
	log_set_level(LOG_ERROR);
	test_tables();
	test_parts();
	test_fallback();
	test_person();
	test_room();
	test_config();
	test_room_config();
	test_adapters();
	test_prefix();
	return check_report("bot_lang");
}
