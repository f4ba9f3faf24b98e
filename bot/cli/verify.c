/* verify.c: `cardbot verify FILE` checks that every deal of a record was fixed before the deal
 * (its deck and salt give the commitment published at the start) and that the record replays
 * cleanly; `cardbot export` writes records out of the bot's database. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include "fair.h"
#include "game.h"
#include "page.h"
#include "present.h"
#include "record.h"
#include "store.h"
#include "verify.h"

static const char verify_help[] =
	"usage: cardbot verify FILE|-\n"
	"\n"
	"Checks a match record (as `!record` gives it): for every deal, the\n"
	"SHA-256 of its deck and salt must equal the commitment the bot\n"
	"published before the deal, and every action must replay through the\n"
	"engine without a refusal. Prints one line per deal.\n"
	"\n"
	"Exit status: 0 every deal checks out; 1 the file cannot be read;\n"
	"2 the record is malformed; 3 a deal does not match its commitment,\n"
	"has no salt, or does not replay; 64 wrong arguments.\n";

static const char export_help[] =
	"usage: cardbot export DATABASE [MATCH]\n"
	"       cardbot export --html [-o FILE] DATABASE MATCH\n"
	"\n"
	"Without MATCH, lists the matches in the bot's database (data_dir/cardbot.db):\n"
	"number, network, room, game, start and end (ISO 8601 in UTC; - while in\n"
	"play), winner (the side's number; -1 for none).\n"
	"With MATCH, prints that match's record (cardbot-record/1 JSON, with each\n"
	"deal's salt and commitment) for `cardbot replay` and `cardbot verify`.\n"
	"With --html, writes the finished match's page instead: one self-contained\n"
	"HTML file that replays it card by card (a match in play has none; exit 2).\n"
	"-o FILE writes to FILE instead of standard output.\n"
	"The database holds the decks of deals still in play: it is for the\n"
	"operator's eyes only.\n";

/* A subcommand's words (argv[0] is its name): -h or --help prints help on
 * standard output (0); fewer than lo or more than hi words print it on
 * standard error (64); -1 when the words are fine. */
static int words_check(int argc, char **argv, int lo, int hi, const char *help)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(help, stdout);
		return 0;
	}
	if (argc < lo || argc > hi) {
		fputs(help, stderr);
		return 64;
	}
	return -1;
}

int verify_main(int argc, char **argv)
{
	int rc = words_check(argc, argv, 2, 2, verify_help);
	if (rc >= 0)
		return rc;
	char err[RECORD_ERR_MAX];
	char *text;
	size_t len;
	if (record_read_say("verify", argv[1], &text, &len) != RECORD_READ_OK)
		return 1;
	record *r = record_parse_game(text, len, err);
	if (!r) {
		fprintf(stderr, "cardbot verify: %s: %s\n", argv[1], err);
		free(text);
		return 2;
	}
	json_object *top = json_tokener_parse(text), *deals = NULL;
	free(text);
	json_object_object_get_ex(top, "deals", &deals);
	int bad = 0;
	/* Every game by one path: the record's decks and actions in the
	 * game-neutral form, with the game's options. */
	int gerr = 0;
	game *g = record_game_new(r, &gerr);
	if (!g) {
		fprintf(stderr, "cardbot verify: %s: the game cannot be set up (%d)\n", argv[1], gerr);
		json_object_put(top);
		record_free(r);
		return 2;
	}
	for (size_t d = 0; d < r->ndeals; d++) {
		json_object *jd = json_object_array_get_idx(deals, d), *v;
		const char *salt = NULL, *commitment = NULL;
		if (json_object_object_get_ex(jd, "salt", &v) && json_object_is_type(v, json_type_string))
			salt = json_object_get_string(v);
		if (json_object_object_get_ex(jd, "commitment", &v) && json_object_is_type(v, json_type_string))
			commitment = json_object_get_string(v);
		/* The deck as the game's own card numbers and codes. */
		uint8_t deck[GAME_MAX_DECK];
		char codes[GAME_MAX_DECK][8];
		const char *cp[GAME_MAX_DECK];
		int n = r->game->deck_size;
		for (int i = 0; i < n; i++) {
			deck[i] = r->deals[d].gdeck[i];
			r->game->card_code(deck[i], codes[i]);
			cp[i] = codes[i];
		}
		char want[FAIR_COMMIT_HEX] = "";
		const char *verdict = "ok";
		if (!salt || !commitment)
			verdict = "no salt or commitment in the record: cannot be checked";
		else if (strlen(salt) != FAIR_SALT_HEX - 1 || fair_commit_codes(cp, n, salt, want) < 0)
			verdict = "the salt is not 32 hex digits";
		else if (strcmp(want, commitment))
			verdict = "MISMATCH: the deck and salt do not give the published commitment";
		int e = game_deal(g, deck);
		char why[160] = "";
		if (e)
			snprintf(why, sizeof why, "; the deal cannot start (%s)", r->game->err_name(e));
		for (size_t i = 0; !e && i < r->deals[d].nactions; i++) {
			game_result res;
			e = game_apply(g, &r->deals[d].gactions[i], &res);
			if (e)
				snprintf(why, sizeof why, "; action %zu is refused (%s)", i + 1, r->game->err_name(e));
		}
		if (strcmp(verdict, "ok") || e)
			bad = 1;
		printf("deal %zu: commitment %s: %s%s\n", d + 1, commitment ? commitment : "-", verdict, why);
	}
	printf("%s: %s, %zu deal%s, %s\n", argv[1], r->game->name, r->ndeals, r->ndeals == 1 ? "" : "s",
	       bad ? "NOT verified" : "every deal verified");
	game_free(g);
	json_object_put(top);
	record_free(r);
	return bad ? 3 : 0;
}

/* `cardbot export --html [-o FILE] DB MATCH`: the match page of a finished match. */
static int export_html(const char *dbpath, const char *match, const char *out)
{
	char *end;
	long long id = strtoll(match, &end, 10);
	if (*end || id <= 0) {
		fprintf(stderr, "cardbot export: MATCH must be a match number\n");
		return 2;
	}
	store *db = store_open_existing(dbpath, "export");
	if (!db)
		return 1;
	store_match_info m;
	int found = store_match_info_get(db, id, &m);
	if (found != 1 || !m.ended) {
		fprintf(stderr, "cardbot export: %s\n", found < 0 ? store_error(db)
			: !found ? "no such match" : "the match is still in play: it has no page until it ends");
		store_close(db);
		return found < 0 ? 1 : 2;
	}
	char *text = store_match_record(db, id, 1, 1);
	if (!text) {
		fprintf(stderr, "cardbot export: %s\n", store_error(db));
		store_close(db);
		return 1;
	}
	store_close(db);
	char rerr[RECORD_ERR_MAX];
	record *r = record_parse_game(text, strlen(text), rerr);
	free(text);
	if (!r) {
		fprintf(stderr, "cardbot export: match %lld: %s\n", id, rerr);
		return 2;
	}
	int rc = page_write_record("export", r, out);
	record_free(r);
	return rc;
}

/* Unix seconds as ISO 8601 in UTC ("2026-11-29T06:20:21Z"); "-" for 0 (not yet). */
static void iso_utc(int64_t when, char *buf, size_t len)
{
	time_t t = (time_t)when;
	struct tm tmv;
	if (!when || !gmtime_r(&t, &tmv) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tmv))
		snprintf(buf, len, "-");
}

int export_main(int argc, char **argv)
{
	/* --html and -o anywhere before the words. */
	int html = 0;
	const char *out = NULL;
	char *words[4];
	int nw = 0;
	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--html")) {
			html = 1;
		} else if (i > 0 && !strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (nw < 4) {
			words[nw++] = argv[i];
		} else {
			fputs(export_help, stderr);
			return 64;
		}
	}
	if (html || out) {
		if (!html || nw != 3) {
			fputs(export_help, stderr);
			return 64;
		}
		return export_html(words[1], words[2], out);
	}
	int rc = words_check(argc, argv, 2, 3, export_help);
	if (rc >= 0)
		return rc;
	store *db = store_open_existing(argv[1], "export");
	if (!db)
		return 1;
	rc = 0;
	if (argc == 3) {
		char *end;
		long long id = strtoll(argv[2], &end, 10);
		char *rec = *end || id <= 0 ? NULL : store_match_record(db, id, 1, 0);
		if (!rec) {
			fprintf(stderr, "cardbot export: %s\n", *end || id <= 0 ? "MATCH must be a match number" : store_error(db));
			rc = 2;
		} else {
			fputs(rec, stdout);
			free(rec);
		}
	} else {
		for (int64_t id = 1;; id++) {
			store_match_info m;
			int found = store_match_info_get(db, id, &m);
			if (found < 0) {
				fprintf(stderr, "cardbot export: %s\n", store_error(db));
				rc = 1;
				break;
			}
			if (!found) {
				/* ids may have gaps only at the end; stop at the first missing one past the last */
				break;
			}
			char started[32], ended[32];
			iso_utc(m.started, started, sizeof started);
			iso_utc(m.ended, ended, sizeof ended);
			printf("%lld %s %s %s %s %s %d\n", (long long)m.id, m.network, m.room, m.game, started, ended,
			       m.winner);
		}
	}
	store_close(db);
	return rc;
}
