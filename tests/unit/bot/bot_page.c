/* bot_page.c: the match page's C side (bot/store/page.c): every game renders; hostile player names
 * are escaped in the HTML and in the embedded story; a match still in play has no page, from
 * `cardbot render` or from `cardbot export --html`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bot.h"
#include "check.h"
#include "loop.h"
#include "page.h"
#include "record.h"
#include "store.h"
#include "testnet.h"
#include "verify.h"

#define ROOM "#page"

static char *slurp(const char *path, size_t *len)
{
	char err[RECORD_ERR_MAX];
	char *text = NULL;
	if (record_read_file(path, &text, len, err) != RECORD_READ_OK) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	return text;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The story embedded in a page, parsed; NULL if it is not there or not JSON. */
static json_object *story_in(const char *html)
{
	const char *open = "<script type=\"application/json\" id=\"story\">";
	const char *s = strstr(html, open);
	if (!s)
		return NULL;
	s += strlen(open);
	const char *e = strstr(s, "</script>");
	if (!e)
		return NULL;
	json_tokener *tok = json_tokener_new();
	json_object *o = json_tokener_parse_ex(tok, s, (int)(e - s));
	json_tokener_free(tok);
	return o;
}

static void every_game_renders(void)
{
	static const char *const records[] = {
		"304/closed_cut_success", "304/match_end", "trump304/t304_two_players",
		"trump304/t304_three_players", "trump304/t304_four_players", "rook/rook_match",
		"304/passed_out", "304/spoilt_right", "304/pcc_made", "304six/six_play_inspection",
		"304six/six_spoilt_caps_pcc", "304six/six_exhausted_250",
	};
	for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
		char path[256], err[RECORD_ERR_MAX];
		snprintf(path, sizeof path, "tests/records/%s.json", records[i]);
		size_t len;
		char *text = slurp(path, &len);
		CHECK(text, "%s: read", records[i]);
		if (!text)
			continue;
		record *r = record_parse_game(text, len, err);
		free(text);
		CHECK(r, "%s: parse: %s", records[i], err);
		if (!r)
			continue;
		size_t hlen = 0;
		char *html = page_html(r, &hlen);
		CHECK(html && hlen == strlen(html), "%s: a page", records[i]);
		if (html) {
			CHECK(!strstr(html, "<!--@"), "%s: every template marker filled", records[i]);
			CHECK(!strstr(html, "http://") || count(html, "http://") == count(html, "http://www.w3.org/2000/svg"),
			      "%s: no address but the SVG namespace", records[i]);
			json_object *story = story_in(html);
			CHECK(story, "%s: the story is JSON", records[i]);
			json_object *steps = NULL, *gname = NULL;
			CHECK(story && json_object_object_get_ex(story, "steps", &steps) &&
			      json_object_array_length(steps) > 2, "%s: steps", records[i]);
			CHECK(story && json_object_object_get_ex(story, "game", &gname) &&
			      !strcmp(json_object_get_string(gname), r->game->name), "%s: its game", records[i]);
			/* Each step's hands: one list a seat. */
			int hands_ok = 1;
			for (size_t k = 0; steps && k < json_object_array_length(steps); k++) {
				json_object *h;
				if (!json_object_object_get_ex(json_object_array_get_idx(steps, k), "hands", &h) ||
				    (int)json_object_array_length(h) != r->nseats)
					hands_ok = 0;
			}
			CHECK(hands_ok, "%s: every step has every seat's hand", records[i]);
			json_object_put(story);
		}
		free(html);
		record_free(r);
	}
}

/* Six-player 304: six seats in the story, three a side; its own title; the
 * second round deals two more cards each; face-down plays stay unnamed. */
static void six_players_page(void)
{
	size_t len;
	char *text = slurp("tests/records/304six/six_play_inspection.json", &len);
	CHECK(text, "six: read");
	if (!text)
		return;
	char err[RECORD_ERR_MAX];
	record *r = record_parse_game(text, len, err);
	free(text);
	CHECK(r && r->nseats == 6 && r->game == &game_def_304six, "six: parse: %s", err);
	if (!r)
		return;
	size_t hlen = 0;
	char *html = page_html(r, &hlen);
	CHECK(html && strstr(html, "<title>304 for six: ann, ben, cat, dev, eve, fay</title>"), "six: the title");
	json_object *story = html ? story_in(html) : NULL;
	json_object *players = NULL, *steps = NULL, *match = NULL, *sides = NULL;
	CHECK(story && json_object_object_get_ex(story, "players", &players) &&
	      json_object_array_length(players) == 6, "six: six players");
	CHECK(story && json_object_object_get_ex(story, "match", &match) &&
	      json_object_object_get_ex(match, "sides", &sides) && json_object_array_length(sides) == 2 &&
	      !strcmp(json_object_to_json_string_ext(sides, JSON_C_TO_STRING_PLAIN), "[[0,2,4],[1,3,5]]"),
	      "six: two sides, seats 0 2 4 and 1 3 5");
	int two_more = 0, four_more = 0, end_names = 0, down_plays = 0, down_named = 0;
	if (story && json_object_object_get_ex(story, "steps", &steps)) {
		for (size_t k = 0; k < json_object_array_length(steps); k++) {
			json_object *st = json_object_array_get_idx(steps, k), *notes = NULL, *t = NULL;
			const char *line = json_object_object_get_ex(st, "text", &t) ? json_object_get_string(t) : "";
			if (strstr(line, "; card points: ann, cat & eve ") && strstr(line, ", ben, dev & fay "))
				end_names++;
			json_object *d = NULL;
			if (json_object_object_get_ex(st, "down", &d) && json_object_get_boolean(d)) {
				down_plays++;
				/* The line is "X plays a card face down": no card named. */
				size_t ll = strlen(line), tl = strlen(" plays a card face down");
				if (ll < tl || strcmp(line + ll - tl, " plays a card face down"))
					down_named++;
			}
			for (size_t n = 0; json_object_object_get_ex(st, "notes", &notes) &&
					   n < json_object_array_length(notes); n++) {
				const char *note = json_object_get_string(json_object_array_get_idx(notes, n));
				two_more += !strcmp(note, "Two more cards each are dealt.");
				four_more += !!strstr(note, "Four more");
			}
		}
	}
	CHECK(two_more > 0 && !four_more, "six: two more cards each, never four (%d, %d)", two_more, four_more);
	CHECK(end_names > 0, "six: the deal's end names the sides' card points, three players each");
	CHECK(down_plays > 0 && !down_named, "six: face-down plays, the card not named (%d)", down_plays);
	json_object_put(story);
	free(html);
	record_free(r);
}

static const char hostile[] = "</script><b>x</b>&amp;\"'<!--";

static void hostile_names_escaped(void)
{
	size_t len;
	char *text = slurp("tests/records/304/closed_cut_success.json", &len);
	CHECK(text, "read");
	if (!text)
		return;
	char err[RECORD_ERR_MAX];
	record *r = record_parse_game(text, len, err);
	free(text);
	CHECK(r, "parse: %s", err);
	if (!r)
		return;
	free(r->players[0]);
	r->players[0] = strdup(hostile);
	char *story = page_story(r);
	CHECK(story && !strchr(story, '<') && !strchr(story, '>') && !strchr(story, '&'),
	      "the story holds no < > & at all");
	CHECK(story && strstr(story, "\\u003c/script\\u003e\\u003cb\\u003ex"), "the name is in the story, escaped");
	free(story);
	size_t hlen;
	char *html = page_html(r, &hlen);
	CHECK(html, "a page");
	if (html) {
		
		/* The template's own: one story element and one script. */
		CHECK(count(html, "</script>") == 2, "the name closes no script (%zu)", count(html, "</script>"));
		CHECK(!strstr(html, "<b>x</b>"), "the name makes no element");
		CHECK(strstr(html, "<title>304: &lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;amp;&quot;&#39;&lt;!--, ben"),
		      "the title has the name escaped");
		json_object *story_o = story_in(html);
		json_object *players = NULL;
		CHECK(story_o && json_object_object_get_ex(story_o, "players", &players) &&
		      !strcmp(json_object_get_string(json_object_array_get_idx(players, 0)), hostile),
		      "the story gives the name back as it was");
		json_object_put(story_o);
	}
	free(html);
	record_free(r);
}

/* A name with bidirectional overrides (an older cardbot kept them) turns
 * neither the page's title nor its story around: the record reader drops
 * them (issue 29.5). */
static void bidi_names_stripped(void)
{
	size_t len;
	char *text = slurp("tests/records/304/closed_cut_success.json", &len);
	json_object *o = text ? json_tokener_parse(text) : NULL;
	free(text);
	json_object *players = NULL;
	CHECK(o && json_object_object_get_ex(o, "players", &players), "a record to change");
	if (!players) {
		json_object_put(o);
		return;
	}
	json_object_array_put_idx(players, 0, json_object_new_string("a" "\xe2\x80\xae" "b" "\xe2\x81\xa6" "c" "\xe2\x81\xa9" "\xd8\x9c"));
	const char *changed = json_object_to_json_string(o);
	char err[RECORD_ERR_MAX];
	record *r = record_parse_game(changed, strlen(changed), err);
	CHECK(r && !strcmp(r->players[0], "abc"), "the reader drops the overrides: %s", r ? r->players[0] : err);
	size_t hlen;
	char *html = r ? page_html(r, &hlen) : NULL;
	CHECK(html && strstr(html, "<title>304: abc, ") && !strstr(html, "\xe2\x80\xae") && !strstr(html, "\xe2\x81\xa6"),
	      "the page's title names abc, with no override in the page");
	free(html);
	record_free(r);
	json_object_array_put_idx(players, 0, json_object_new_string("\xe2\x80\xae"));
	changed = json_object_to_json_string(o);
	r = record_parse_game(changed, strlen(changed), err);
	CHECK(!r && strstr(err, "only bidirectional"), "a name of overrides alone is refused: %s", r ? "read" : err);
	record_free(r);
	json_object_put(o);
}

static void in_play_has_no_page(void)
{
	const char *in_play = "{\"format\": \"cardbot-record/1\", \"started\": 1}";
	const char *ended = "{\"format\": \"cardbot-record/1\", \"started\": 1, \"ended\": 2}";
	const char *hand = "{\"format\": \"cardbot-record/1\"}";
	CHECK(page_record_in_play(in_play, strlen(in_play)), "started, not ended: in play");
	CHECK(!page_record_in_play(ended, strlen(ended)), "ended: no longer in play");
	CHECK(!page_record_in_play(hand, strlen(hand)), "a hand-written record is taken as it is");

	/* A match in a database: no page while in play, a page once ended. */
	char dir[] = "/tmp/cardbot-page-XXXXXX", path[128], out[160], err[256];
	CHECK(mkdtemp(dir) != NULL, "temporary directory");
	snprintf(path, sizeof path, "%s/cardbot.db", dir);
	snprintf(out, sizeof out, "%s/match.html", dir);
	store *db = store_open(path, err, sizeof err);
	CHECK(db, "store: %s", err);
	if (!db)
		return;
	size_t len;
	char *text = slurp("tests/records/304/closed_cut_success.json", &len);
	json_object *rec = text ? json_tokener_parse(text) : NULL;
	free(text);
	CHECK(rec, "the record");
	if (!rec) {
		store_close(db);
		return;
	}
	store_seat seats[STORE_SEATS] = {
		{ "ann", hostile, 0 }, { "ben", "ben", 0 }, { "cat", "cat", 0 }, { "dev", "dev", 0 },
	};
	int64_t id = 0;
	json_object *deal = json_object_array_get_idx(json_object_object_get(rec, "deals"), 0);
	json_object *actions = json_object_object_get(deal, "actions");
	CHECK(store_match_begin(db, "net", "#304", "304", "{}", seats, 0, &id) == 0, "match begins");
	CHECK(store_deal_begin(db, id, 0, json_object_to_json_string(json_object_object_get(deal, "deck")),
			       "00112233445566778899aabbccddeeff",
			       "0000000000000000000000000000000000000000000000000000000000000000") == 0,
	      "deal begins");
	for (size_t i = 0; i < json_object_array_length(actions) / 2; i++)
		CHECK(store_action(db, id, 0, (int)i, json_object_to_json_string(json_object_array_get_idx(actions, i)),
				   NULL) == 0, "action %zu", i);
	char num[24];
	snprintf(num, sizeof num, "%lld", (long long)id);
	char *argv_html[] = { "export", "--html", "-o", out, path, num, NULL };
	unlink(out);
	CHECK(export_main(6, argv_html) == 2, "export --html refuses a match in play");
	CHECK(access(out, F_OK) != 0, "and writes no page");
	char *rtext = store_match_record(db, id, 1, 0);
	char rpath[160];
	snprintf(rpath, sizeof rpath, "%s/in_play.json", dir);
	FILE *f = fopen(rpath, "w");
	CHECK(f && rtext && fputs(rtext, f) >= 0, "the record in play written");
	if (f)
		fclose(f);
	free(rtext);
	char *argv_render[] = { "render", "-o", out, rpath, NULL };
	CHECK(page_render_main(4, argv_render) == 2, "render refuses a record of a match in play");
	CHECK(access(out, F_OK) != 0, "and writes no page");
	/* render's other exit statuses: unreadable, malformed, usage. */
	char missing[200], bad[200];
	snprintf(missing, sizeof missing, "%s/none.json", dir);
	snprintf(bad, sizeof bad, "%s/bad.json", dir);
	f = fopen(bad, "w");
	if (f) {
		fputs("{\"format\": \"cardbot-record/1\", \"players\": 3}", f);
		fclose(f);
	}
	char *argv_missing[] = { "render", missing, NULL };
	char *argv_bad_rec[] = { "render", "-o", out, bad, NULL };
	char *argv_no_file[] = { "render", "-o", out, NULL };
	CHECK(page_render_main(2, argv_missing) == 1, "render: a file that cannot be read is status 1");
	CHECK(page_render_main(4, argv_bad_rec) == 2, "render: a malformed record is status 2");
	CHECK(page_render_main(3, argv_no_file) == 64, "render: no FILE is a usage error");
	CHECK(access(out, F_OK) != 0, "and none of them writes a page");
	unlink(bad);
	CHECK(store_match_end(db, id, 0, 12, 10) == 0, "match ends");
	CHECK(export_main(6, argv_html) == 0, "export --html writes the page of a finished match");
	size_t hlen = 0;
	char *html = access(out, F_OK) == 0 ? slurp(out, &hlen) : NULL;
	CHECK(html && strstr(html, "&lt;/script&gt;&lt;b&gt;x") && count(html, "</script>") == 2,
	      "the page names the player, escaped");
	free(html);
	char *argv_bad[] = { "export", "--html", path, "x", NULL };
	CHECK(export_main(4, argv_bad) == 2, "export --html: MATCH must be a number");
	char *argv_none[] = { "export", "--html", path, "99", NULL };
	CHECK(export_main(4, argv_none) == 2, "export --html: no such match");
	char *argv_usage[] = { "export", "--html", path, NULL };
	CHECK(export_main(3, argv_usage) == 64, "export --html needs a match");
	json_object_put(rec);
	store_close(db);
	unlink(out);
	unlink(rpath);
	unlink(path);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", path);
	unlink(wal);
	rmdir(dir);
}

/* Files a fake send_file was given (the Matrix adapter's upload). */
static struct { int n; char name[4][64], type[4][32]; size_t len[4]; int html_ok; } sent;

static int fake_send_file(adapter *a, const char *user, const adapter_file *f)
{
	(void)a, (void)user;
	const char *filename = f->filename, *mimetype = f->mimetype, *data = f->data;
	size_t len = f->len;
	if (sent.n < 4) {
		snprintf(sent.name[sent.n], sizeof sent.name[0], "%s", filename);
		snprintf(sent.type[sent.n], sizeof sent.type[0], "%s", mimetype);
		sent.len[sent.n] = len;
		if (!strcmp(mimetype, "text/html"))
			sent.html_ok = len > 1000 && !strncmp(data, "<!DOCTYPE html>", 15) && strlen(data) == len;
	}
	sent.n++;
	return 0;
}

static const char *priv_from(int from, const char *needle)
{
	for (int i = net.npriv - 1; i >= from; i--)
		if (strstr(net.priv_lines[i], needle))
			return net.priv_lines[i];
	return NULL;
}

/* !record with public_dir and public_url: match-N.html beside match-N.json,
 * and both addresses; through an adapter with send_file, the page as a
 * second file (text/html). */
static void record_command_page(void)
{
	char dir[] = "/tmp/cardbot-page-rec-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db, "a database: %s", db ? "" : err);
	if (!db)
		return;
	loop *ev = loop_new();
	table_settings set;
	table_settings_default(&set);
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	testnet_open(ev, b, "fake");
	size_t len;
	char *text = slurp("tests/records/304/closed_cut_success.json", &len);
	json_object *rec = text ? json_tokener_parse(text) : NULL;
	free(text);
	store_seat seats[STORE_SEATS] = { { "ann", "ann", 0 }, { "ben", "ben", 0 }, { "cat", "cat", 0 }, { "dev", "dev", 0 } };
	int64_t id = 0;
	json_object *deal = rec ? json_object_array_get_idx(json_object_object_get(rec, "deals"), 0) : NULL;
	json_object *actions = json_object_object_get(deal, "actions");
	int ok = deal && store_match_begin(db, "fake", ROOM, "304", "{}", seats, 0, &id) == 0 &&
		 store_deal_begin(db, id, 0, json_object_to_json_string(json_object_object_get(deal, "deck")),
				  "00112233445566778899aabbccddeeff",
				  "0000000000000000000000000000000000000000000000000000000000000000") == 0;
	for (size_t i = 0; ok && i < json_object_array_length(actions); i++)
		ok = store_action(db, id, 0, (int)i, json_object_to_json_string(json_object_array_get_idx(actions, i)),
				  NULL) == 0;
	ok = ok && store_match_end(db, id, 0, 12, 10) == 0;
	CHECK(ok, "a finished match stored: %s", ok ? "" : store_error(db));

	snprintf(b->public_dir, sizeof b->public_dir, "%s", dir);
	snprintf(b->public_url, sizeof b->public_url, "https://example.org/304");
	say(b, ROOM, "ann", "!304");  /* a table in the room, as where matches are played */
	/* A link planted where the record goes is replaced, not written
	 * through; the files are readable by a web server under the service's
	 * UMask=0077 (issue 29.5). */
	char victim[300], json_link[300];
	snprintf(victim, sizeof victim, "%s.victim", dir);
	snprintf(json_link, sizeof json_link, "%s/match-1.json", dir);
	FILE *vf = fopen(victim, "w");
	if (vf) {
		fputs("untouched", vf);
		fclose(vf);
	}
	CHECK(symlink(victim, json_link) == 0, "a symbolic link planted at match-1.json");
	mode_t old_mask = umask(077);
	int p0 = net.npriv;
	say(b, ROOM, "ann", "!record 1");
	umask(old_mask);
	size_t vlen = 0;
	char *vtext = slurp(victim, &vlen);
	CHECK(vtext && !strcmp(vtext, "untouched"), "the link's target is not written: %s", vtext ? vtext : "(gone)");
	free(vtext);
	unlink(victim);
	struct stat jst, hst;
	char html_at[300];
	snprintf(html_at, sizeof html_at, "%s/match-1.html", dir);
	CHECK(lstat(json_link, &jst) == 0 && S_ISREG(jst.st_mode) && (jst.st_mode & 0777) == 0644,
	      "match-1.json is a regular file of mode 0644 under umask 077 (mode %o)", (unsigned)(jst.st_mode & 07777));
	CHECK(lstat(html_at, &hst) == 0 && S_ISREG(hst.st_mode) && (hst.st_mode & 0777) == 0644,
	      "match-1.html is a regular file of mode 0644 under umask 077");
	DIR *dp = opendir(dir);
	int leftovers = 0;
	for (struct dirent *de; dp && (de = readdir(dp));)
		leftovers += strstr(de->d_name, ".tmp") != NULL;
	if (dp)
		closedir(dp);
	CHECK(leftovers == 0, "no temporary file is left behind (%d)", leftovers);
	const char *line = priv_from(p0, "The record of match 1");
	CHECK(line && !strcmp(line, "The record of match 1: https://example.org/304/match-1.json and its page, to "
			      "replay it in a browser: https://example.org/304/match-1.html"),
	      "!record answers with both addresses: %s", line ? line : "(nothing)");
	char html_path[300], json_path[300];
	snprintf(html_path, sizeof html_path, "%s/match-1.html", dir);
	snprintf(json_path, sizeof json_path, "%s/match-1.json", dir);
	size_t hlen = 0;
	char *html = access(html_path, F_OK) == 0 ? slurp(html_path, &hlen) : NULL;
	json_object *st = html ? story_in(html) : NULL;
	CHECK(st != NULL, "match-1.html is written beside match-1.json, with its story");
	json_object_put(st);
	free(html);
	CHECK(access(json_path, F_OK) == 0, "match-1.json is written too");

	/* An adapter that carries files: the record, then the page. */
	static adapter_ops ops;
	const adapter_ops *orig = net.a->ops;
	ops = *orig;
	ops.send_file = fake_send_file;
	net.a->ops = &ops;
	memset(&sent, 0, sizeof sent);
	p0 = net.npriv;
	say(b, ROOM, "ann", "!record 1");
	CHECK(sent.n == 2 && !strcmp(sent.name[0], "match-1.json") && !strcmp(sent.type[0], "application/json") &&
	      !strcmp(sent.name[1], "match-1.html") && !strcmp(sent.type[1], "text/html") && sent.html_ok,
	      "send_file: the record, then the page as text/html (%d files)", sent.n);
	line = priv_from(p0, "The record of match 1");
	CHECK(line && !strcmp(line, "The record of match 1: match-1.json and its page, to replay it in a browser: "
			      "match-1.html"), "the answer names both files: %s", line ? line : "(nothing)");
	net.a->ops = orig;

	json_object_put(rec);
	bot_free(b);
	loop_free(ev);
	testnet_free();
	store_close(db);
	unlink(html_path);
	unlink(json_path);
	unlink(path);
	char wal[300];
	snprintf(wal, sizeof wal, "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", path);
	unlink(wal);
	rmdir(dir);
}

int main(void)
{
	every_game_renders();
	hostile_names_escaped();
	bidi_names_stripped();
	six_players_page();
	in_play_has_no_page();
	record_command_page();
	return check_report("bot_page");
}
