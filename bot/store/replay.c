/* replay.c: `cardbot replay`: runs a checked game record through the engine, printing JSON lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include <json-c/json.h>

#include "game.h"
#include "record.h"
#include "present.h"
#include "replay.h"
#include "text.h"
#include "text_lang.h"

/* Exit statuses of `cardbot replay` beyond the sysexits ones. */
#define REPLAY_EXIT_OK 0
#define REPLAY_EXIT_IO 1
#define REPLAY_EXIT_MALFORMED 2

/* Longest refusal message; a game's refusal is cut (names are at most
 * RECORD_MAX_NAME bytes, templates well under 200). */
#define REPLAY_TEXT_MAX 512

static const char replay_usage[] = "usage: cardbot replay [--view SEAT] FILE\n";
static const char replay_help[] =
	"usage: cardbot replay [--view SEAT] FILE\n"
	"\n"
	"Replays a game record (docs/RECORD.md) through the rules engine and prints\n"
	"what happened, one JSON object a line: each action, accepted or refused with\n"
	"the reason; how each deal ended; and, last, the state of the match.\n"
	"\n"
	"  FILE          the record; - reads standard input\n"
	"  --view SEAT   after each accepted action, also print everything seat SEAT\n"
	"                (0-3; 0-5 in six-player 304) may know at that moment, and\n"
	"                what it may do\n"
	"  -h, --help    show this help\n"
	"\n"
	"Exit status: 0 the record was replayed (refused actions included); 1 FILE\n"
	"cannot be read; 2 the record is malformed (one line on standard error names\n"
	"the field, and nothing is printed); 64 wrong arguments.\n";

/* ---- JSON pieces every game uses (replay.h). json-c treats a NULL member
 * as JSON null, which these helpers rely on. Inside this file they go by
 * their short names. ---- */

#define j_seat replay_j_seat
#define j_bool replay_j_bool
#define j_pair replay_j_pair
#define j_list replay_j_list
#define j_card replay_j_card
#define j_cards replay_j_cards
#define j_view_head replay_j_view_head
#define j_acts replay_j_acts
#define j_known replay_j_known

json_object *replay_j_seat(int seat)
{
	return seat >= 0 && seat < GAME_MAX_SEATS ? json_object_new_int(seat) : NULL;
}

json_object *replay_j_bool(int b) { return json_object_new_boolean(b ? 1 : 0); }

json_object *replay_j_pair(int a, int b)
{
	json_object *arr = json_object_new_array_ext(2);
	json_object_array_add(arr, json_object_new_int(a));
	json_object_array_add(arr, json_object_new_int(b));
	return arr;
}

json_object *replay_j_list(const int32_t *v, int n)
{
	json_object *arr = json_object_new_array_ext(n);
	for (int i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_int(v[i]));
	return arr;
}

/* A card code, or null where the card is not known. */
json_object *replay_j_card(const game_def *def, int c)
{
	char code[8];
	if (c < 0 || c >= def->deck_size)
		return NULL;
	def->card_code((uint8_t)c, code);
	return json_object_new_string(code);
}

json_object *replay_j_cards(const game_def *def, game_cards s)
{
	json_object *arr = json_object_new_array();
	for (; s; s &= s - 1)
		json_object_array_add(arr, j_card(def, __builtin_ctzll(s)));
	return arr;
}

json_object *replay_j_suit(int suit)
{
	char letter[2] = { suit_letter(suit), '\0' };
	return suit >= 0 && suit < SUIT_COUNT ? json_object_new_string(letter) : NULL;
}

/* The names of the actions in acts (bit per action number). */
json_object *replay_j_acts(const game_def *def, uint32_t acts)
{
	json_object *arr = json_object_new_array();
	for (int a = 0; a < def->act_count; a++)
		if (acts >> a & 1)
			json_object_array_add(arr, json_object_new_string(def->act_name(a)));
	return arr;
}

/* The cards a seat may act with. Only cards the seat knows are listed,
 * whatever the engine offers, so a view can never leak a card this way. */
json_object *replay_j_known(const game_def *def, int seat, game_cards cards, game_cards known)
{
	if (cards & ~known)
		fprintf(stderr, "replay: engine offered seat %d cards it does not hold; "
			"left out of the view\n", seat);
	return j_cards(def, cards & known);
}

/* A view's first keys, the same in every game. */
json_object *replay_j_view_head(const game_def *def, int seat, int phase, int deal_no, int dealer, int turn,
				game_cards hand)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "seat", j_seat(seat));
	json_object_object_add(o, "phase", json_object_new_string(def->phase_name(phase)));
	json_object_object_add(o, "deal_no", json_object_new_int(deal_no));
	json_object_object_add(o, "dealer", j_seat(dealer));
	json_object_object_add(o, "turn", j_seat(turn));
	json_object_object_add(o, "hand", j_cards(def, hand));
	return o;
}

/* ---- Trump304 and Rook ---- */

/* A refusal in words, for the player who acted: suit is what the game calls
 * suit (or colour) a, steps how its bids go. */
void replay_refusal_words(char *buf, size_t len, const game_def *def, const game_result *res,
			  const char *const names[GAME_MAX_SEATS], const char *suit, const char *steps)
{
	const char *code = def->err_name(res->err);
	const char *who = res->a >= 0 && res->a < GAME_MAX_SEATS && names[res->a] ? names[res->a]
										   : "nobody";
	char code_a[8] = "?";
	if (res->a >= 0 && res->a < def->deck_size)
		def->card_code((uint8_t)res->a, code_a);
	static const struct { const char *code, *text; } words[] = {
		{ "bad_seat", "there is no such seat" },
		{ "bad_action", "that is not an action of this game" },
		{ "match_over", "the match is over" },
		{ "no_deal", "no deal is in progress" },
		{ "not_your_turn", "it is not your turn: %s is to act" },
		{ "wrong_phase", "you cannot do that now" },
		{ "bid_too_high", "the highest bid is %d" },
		{ "bid_too_low", "the lowest bid allowed here is %d" },
		{ "bid_not_higher", "a bid must be higher than %d" },
		{ "bid_once", "you have spoken: only a bid of 200 or more, before any such bid, may be a second bid" },
		{ "bid_over_partner", "you may not overbid your partner %s, except with 200 or more before any such bid" },
		{ "dealer_must_bid", "everyone else passed: the dealer must bid %d" },
		{ "dealer_forced", "everyone else passed: the dealer's bid is %d" },
		{ "last_must_bid", "everyone else passed: you must bid, at least %d" },
		{ "not_trumper", "only the trumper, %s, may do that" },
		{ "not_bidder", "only the bidder, %s, may do that" },
		{ "not_in_hand", "you do not hold %c" },
		{ "exchange_cards", "an exchange puts down exactly two different cards from your hand" },
		{ "follow_suit", "you must follow suit: you hold %S" },
		{ "must_cut", "you asked for the trump to cut: play a trump (%S)" },
		{ "reveal_lead", "the trump can be revealed only when a card has been led" },
		{ "reveal_can_follow", "you can follow suit (%S): no reveal" },
		{ "already_revealed", "the trump is already revealed" },
		{ "trump_card_aside", "the trump card is set aside until the trump is revealed" },
		{ "discard_counter", "%c is a counter: counters may not be discarded" },
		{ "bad_colour", "the trump colour is red, green, yellow or black" },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strcmp(code, words[i].code))
			continue;
		const char *t = words[i].text;
		size_t o = 0;
		for (; *t && o + 1 < len; t++) {
			const char *ins = NULL;
			char num[16];
			if (t[0] == '%' && t[1]) {
				switch (*++t) {
				case 'd': snprintf(num, sizeof num, "%d", res->a); ins = num; break;
				case 's': ins = who; break;
				case 'c': ins = code_a; break;
				case 'S': ins = suit; break;
				default: ins = "?"; break;
				}
				size_t n = strlen(ins);
				if (o + n >= len)
					n = len - 1 - o;
				memcpy(buf + o, ins, n);
				o += n;
			} else {
				buf[o++] = *t;
			}
		}
		buf[o] = '\0';
		return;
	}
	if (!strcmp(code, "bid_not_multiple"))
		snprintf(buf, len, "%d is not a bid: %s", res->a, steps);
	else
		snprintf(buf, len, "refused (%s)", code);
}

/* A trick of Trump304 (cut: which cards cut) or Rook (cut -1: none); null
 * before its lead. */
json_object *replay_j_trick(const game_def *def, int leader, int n, const uint8_t *seat,
			     const uint8_t *cards, int winner, int cut)
{
	if (n == 0)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "leader", j_seat(leader));
	json_object *arr = json_object_new_array();
	for (int i = 0; i < n && i < GAME_MAX_SEATS; i++) {
		json_object *c = json_object_new_object();
		json_object_object_add(c, "seat", j_seat(seat[i]));
		json_object_object_add(c, "card", j_card(def, cards[i]));
		if (cut >= 0)
			json_object_object_add(c, "cut", j_bool(cut >> i & 1));
		json_object_array_add(arr, c);
	}
	json_object_object_add(o, "cards", arr);
	json_object_object_add(o, "winner", j_seat(winner));
	return o;
}

json_object *replay_j_bid(int seat, int value)
{
	json_object *b = json_object_new_object();
	json_object_object_add(b, "seat", j_seat(seat));
	json_object_object_add(b, "value", value ? json_object_new_int(value)
					       : json_object_new_string("pass"));
	return b;
}

json_object *replay_j_legal(const game *g, int seat, game_cards known)
{
	game_legal l;
	game_legal_of(g, seat, &l);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "actions", j_acts(g->def, l.acts));
	json_object_object_add(o, "bid_min", l.bid_min ? json_object_new_int(l.bid_min) : NULL);
	json_object_object_add(o, "bid_max", l.bid_max ? json_object_new_int(l.bid_max) : NULL);
	json_object_object_add(o, "cards", j_known(g->def, seat, l.cards, known));
	return o;
}

/* ---- One driver over engine/core/game.h for every game ---- */

/* Writes o as one compact line and releases it. */
static int emit(FILE *out, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = s ? 0 : -1;
	if (s) {
		fputs(s, out);
		fputc('\n', out);
	}
	json_object_put(o);
	return rc;
}

/* {"deal": deal, "action": action (none when < 0)}, to add to. */
static json_object *j_where(size_t deal, long action)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "deal", json_object_new_int64((int64_t)deal));
	if (action >= 0)
		json_object_object_add(o, "action", json_object_new_int64(action));
	return o;
}

static int emit_refused(FILE *out, size_t deal, long action, const char *text, const char *code)
{
	json_object *o = j_where(deal, action);
	json_object_object_add(o, "ok", j_bool(0));
	json_object_object_add(o, "error", json_object_new_string(text));
	json_object_object_add(o, "code", json_object_new_string(code));
	return emit(out, o);
}

static const replay_game *replay_game_of(const game_def *def)
{
	const present *pr = present_find(def);
	return pr ? pr->replay : NULL;
}

json_object *replay_view(const game *g, int seat)
{
	const replay_game *rg = replay_game_of(g->def);
	return rg ? rg->view(g, seat) : NULL;
}

json_object *replay_end(const game *g)
{
	const replay_game *rg = replay_game_of(g->def);
	return rg ? rg->end(g) : NULL;
}

int replay_walk(const record *rec, replay_hook hook, void *ctx)
{
	const game_def *def = rec->game;
	const replay_game *rg = replay_game_of(def);
	if (!rg)
		return -1;
	const char *names[GAME_MAX_SEATS] = { 0 };
	for (int s = 0; s < rec->nseats && s < GAME_MAX_SEATS; s++)
		names[s] = rec->players[s];
	int err;
	game *g = record_game_new(rec, &err);
	if (!g)
		return -1;
	int ev_end = game_ev_parse(def, rg->end_event);
	char text[REPLAY_TEXT_MAX];
	int rc = 0;
	for (size_t d = 0; d < rec->ndeals && rc == 0; d++) {
		const record_deal *deal = &rec->deals[d];
		replay_step st = { .kind = REPLAY_DEAL, .deal = d, .action = -1 };
		if ((err = game_deal(g, deal->gdeck)) != 0) {
			game_status gs;
			game_status_of(g, &gs);
			text_deal_refused(text, sizeof text, gs.over);
			st.kind = REPLAY_DEAL_REFUSED;
			st.error = text;
			st.code = def->err_name(err);
			rc = hook(ctx, g, &st);
			continue;
		}
		rc = hook(ctx, g, &st);
		for (size_t i = 0; i < deal->nactions && rc == 0; i++) {
			game_result res;
			memset(&res, 0, sizeof res);
			st = (replay_step){ .kind = REPLAY_ACTION, .deal = d, .action = (long)i,
					    .act = &deal->gactions[i], .res = &res };
			if (game_apply(g, &deal->gactions[i], &res) != 0) {
				rg->refusal(text, sizeof text, g, &res, names);
				st.kind = REPLAY_REFUSED;
				st.error = text;
				st.code = def->err_name(res.err);
				rc = hook(ctx, g, &st);
				continue;
			}
			for (int k = 0; k < res.nevents && k < GAME_EVENTS_MAX; k++)
				st.ended |= res.events[k].type == ev_end;
			rc = hook(ctx, g, &st);
		}
	}
	if (rc == 0) {
		replay_step st = { .kind = REPLAY_MATCH, .action = -1, .score_name = rg->score };
		rc = hook(ctx, g, &st);
	}
	game_free(g);
	return rc;
}

/* What replay_run prints to. */
typedef struct replay_print {
	FILE *out;
	int view_seat;
} replay_print;

static int print_step(void *ctx, const game *g, const replay_step *st)
{
	const replay_print *p = ctx;
	FILE *out = p->out;
	json_object *o;
	int rc;
	switch (st->kind) {
	case REPLAY_DEAL:
		return 0;
	case REPLAY_DEAL_REFUSED:
		return emit_refused(out, st->deal, -1, st->error, st->code);
	case REPLAY_REFUSED:
		return emit_refused(out, st->deal, st->action, st->error, st->code);
	case REPLAY_ACTION:
		o = j_where(st->deal, st->action);
		json_object_object_add(o, "ok", j_bool(1));
		rc = emit(out, o);
		if (rc == 0 && st->ended) {
			o = j_where(st->deal, -1);
			json_object_object_add(o, "end", replay_end(g));
			rc = emit(out, o);
		}
		if (rc == 0 && p->view_seat >= 0) {
			o = j_where(st->deal, st->action);
			json_object_object_add(o, "view", replay_view(g, p->view_seat));
			rc = emit(out, o);
		}
		return rc;
	default: {
		game_status gs;
		game_status_of(g, &gs);
		json_object *m = json_object_new_object();
		json_object_object_add(m, st->score_name, j_list(gs.score, gs.nsides));
		json_object_object_add(m, "winner", gs.winner >= 0 ? json_object_new_int(gs.winner) : NULL);
		json_object_object_add(m, "complete", j_bool(gs.over));
		o = json_object_new_object();
		json_object_object_add(o, "match", m);
		return emit(out, o);
	}
	}
}

int replay_run(const record *rec, int view_seat, FILE *out)
{
	replay_print p = { out, view_seat };
	return replay_walk(rec, print_step, &p);
}

/* Reads SEAT of --view: one digit 0..5 (the record says whether it has the seat). */
static int parse_seat(const char *s)
{
	if (s && s[0] >= '0' && s[0] < '0' + GAME_MAX_SEATS && s[1] == '\0')
		return s[0] - '0';
	return -1;
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "cardbot replay: %s%s%s%s\n%s", what, arg ? " \"" : "", arg ? arg : "",
		arg ? "\"" : "", replay_usage);
	return EX_USAGE;
}

int replay_main(int argc, char **argv)
{
	const char *path = NULL;
	int view = -1, options = 1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (options && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			fputs(replay_help, stdout);
			return fflush(stdout) ? REPLAY_EXIT_IO : REPLAY_EXIT_OK;
		} else if (options && !strcmp(arg, "--")) {
			options = 0;
		} else if (options && (!strcmp(arg, "--view") || !strncmp(arg, "--view=", 7))) {
			const char *seat = arg[6] == '=' ? arg + 7 : (i + 1 < argc ? argv[++i] : NULL);
			if (!seat)
				return usage_error("--view needs a seat (0-5)", NULL);
			if ((view = parse_seat(seat)) < 0)
				return usage_error("--view: not a seat (0-5):", seat);
		} else if (options && arg[0] == '-' && arg[1] != '\0') {
			return usage_error("unknown option", arg);
		} else if (path) {
			return usage_error("more than one FILE:", arg);
		} else {
			path = arg;
		}
	}
	if (!path)
		return usage_error("no FILE given (- reads standard input)", NULL);

	char err[RECORD_ERR_MAX];
	char *text;
	size_t len;
	int st = record_read_say("replay", path, &text, &len);
	if (st != RECORD_READ_OK)
		return st == RECORD_READ_TOO_BIG ? REPLAY_EXIT_MALFORMED : REPLAY_EXIT_IO;
	record *rec = record_parse_game(text, len, err);
	free(text);
	if (!rec) {
		fprintf(stderr, "cardbot replay: %s: %s\n", strcmp(path, "-") ? path : "standard input",
			err);
		return REPLAY_EXIT_MALFORMED;
	}
	if (view >= rec->nseats) {
		record_free(rec);
		return usage_error("--view: this record has no such seat", NULL);
	}
	int rc = replay_run(rec, view, stdout);
	record_free(rec);
	if (rc != 0) {
		fprintf(stderr, "cardbot replay: out of memory\n");
		return REPLAY_EXIT_IO;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cardbot replay: writing the output: %s\n", strerror(errno));
		return REPLAY_EXIT_IO;
	}
	return REPLAY_EXIT_OK;
}
