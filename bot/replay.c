/* replay.c: `cardbot replay`: runs a checked game record through the engine, printing JSON lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include <json-c/json.h>

#include "g304.h"
#include "record.h"
#include "replay.h"
#include "text.h"

/* Exit statuses of `cardbot replay` beyond the sysexits ones. */
#define REPLAY_EXIT_OK 0
#define REPLAY_EXIT_IO 1
#define REPLAY_EXIT_MALFORMED 2

/* Longest refusal message; text_refusal cuts longer ones (names are at most
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
	"                (0-3) may know at that moment, and what it may do\n"
	"  -h, --help    show this help\n"
	"\n"
	"Exit status: 0 the record was replayed (refused actions included); 1 FILE\n"
	"cannot be read; 2 the record is malformed (one line on standard error names\n"
	"the field, and nothing is printed); 64 wrong arguments.\n";

/* json-c treats a NULL member as JSON null, which these helpers rely on. */
static json_object *j_seat(int seat)
{
	return seat >= 0 && seat < G304_SEATS ? json_object_new_int(seat) : NULL;
}

static json_object *j_bool(int b) { return json_object_new_boolean(b ? 1 : 0); }

static json_object *j_pair(int a, int b)
{
	json_object *arr = json_object_new_array_ext(2);
	json_object_array_add(arr, json_object_new_int(a));
	json_object_array_add(arr, json_object_new_int(b));
	return arr;
}

/* A bid: a number, "pcc", or null for none (0). */
static json_object *j_bid(int value)
{
	if (value == 0)
		return NULL;
	if (value == G304_BID_PCC)
		return json_object_new_string("pcc");
	return json_object_new_int(value);
}

/* A card code, or null where the card is not known; never CARD_NONE's code. */
static json_object *j_card_or_null(card c)
{
	char code[3];
	if (c >= CARD_COUNT)
		return NULL;
	card_code(c, code);
	return json_object_new_string(code);
}

/* A card code, or "down" for a face-down card this seat may not know. */
static json_object *j_card_or_down(card c)
{
	json_object *j = j_card_or_null(c);
	return j ? j : json_object_new_string("down");
}

static json_object *j_cards(cardset s)
{
	json_object *arr = json_object_new_array_ext(cardset_count(s));
	for (; s; s &= s - 1)
		json_object_array_add(arr, j_card_or_null(cardset_first(s)));
	return arr;
}

static json_object *j_deal_end(const g304_deal_end *e)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "outcome", json_object_new_string(g304_outcome_name(e->outcome)));
	json_object_object_add(o, "trumper", j_seat(e->trumper));
	json_object_object_add(o, "bid", j_bid(e->bid));
	json_object_object_add(o, "points", j_pair(e->points[0], e->points[1]));
	json_object_object_add(o, "made", e->made < 0 ? NULL : j_bool(e->made));
	json_object_object_add(o, "tokens", j_pair(e->tokens[0], e->tokens[1]));
	json_object_object_add(o, "caps", json_object_new_string(g304_caps_outcome_name(e->caps)));
	json_object_object_add(o, "caps_seat", j_seat(e->caps_seat));
	json_object_object_add(o, "spoilt_seat", j_seat(e->spoilt_seat));
	json_object_object_add(o, "spoilt_right",
			       e->spoilt_seat < G304_SEATS ? j_bool(e->spoilt_right) : NULL);
	json_object_object_add(o, "paid", j_pair(e->paid[0], e->paid[1]));
	return o;
}

static json_object *j_bidlog(const g304_bidlog *b)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "seat", j_seat(b->seat));
	json_object_object_add(o, "value", b->value == 0 ? json_object_new_string("pass")
							 : j_bid(b->value));
	json_object_object_add(o, "asked_by", j_seat(b->asker));
	json_object_object_add(o, "round", json_object_new_int(b->round));
	return o;
}

static json_object *j_trick(const g304_trick *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "leader", j_seat(t->leader));
	json_object *cards = json_object_new_array();
	for (int i = 0; i < t->n && i < G304_SEATS; i++) {
		json_object *c = json_object_new_object();
		json_object_object_add(c, "seat", j_seat(t->seat[i]));
		json_object_object_add(c, "card", j_card_or_down(t->card[i]));
		json_object_object_add(c, "down", j_bool(t->down >> i & 1));
		json_object_object_add(c, "shown", j_bool(t->shown >> i & 1));
		json_object_object_add(c, "from_table", j_bool(t->tcard >> i & 1));
		json_object_array_add(cards, c);
	}
	json_object_object_add(o, "cards", cards);
	json_object_object_add(o, "winner", j_seat(t->winner));
	return o;
}

/* What seat may do now. Only cards the seat knows are listed, whatever the
 * engine offers, so a view can never leak a card through this list. */
static json_object *j_legal(const g304 *g, const g304_view *v)
{
	g304_legal l;
	g304_legal_of(g, v->seat, &l);
	json_object *o = json_object_new_object();
	json_object *acts = json_object_new_array();
	for (int a = 0; a < G304_ACT_COUNT; a++)
		if (l.acts >> a & 1)
			json_object_array_add(acts, json_object_new_string(g304_act_name(a)));
	json_object_object_add(o, "actions", acts);
	/* null when no numeric bid is possible (only pcc, or no bid at all). */
	int numeric = (l.acts >> G304_ACT_BID & 1) && l.bid_min >= G304_MIN_BID &&
		      l.bid_min <= G304_MAX_BID;
	json_object_object_add(o, "bid_min", numeric ? json_object_new_int(l.bid_min) : NULL);
	json_object_object_add(o, "pcc", j_bool(l.pcc_ok));
	cardset known = v->hand;
	if (v->trump_card < CARD_COUNT)
		known |= card_bit(v->trump_card);
	if (l.cards & ~known)
		fprintf(stderr, "replay: engine offered seat %d cards it does not hold; "
			"left out of the view\n", v->seat);
	json_object_object_add(o, "cards", j_cards(l.cards & known));
	return o;
}

static json_object *j_view(const g304 *g, int seat)
{
	g304_view v;
	g304_view_of(g, seat, &v);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "seat", j_seat(v.seat));
	json_object_object_add(o, "phase", json_object_new_string(g304_phase_name(v.phase)));
	json_object_object_add(o, "deal_no", json_object_new_int(v.deal_no));
	json_object_object_add(o, "dealer", j_seat(v.dealer));
	json_object_object_add(o, "turn", j_seat(v.turn));
	json_object_object_add(o, "hand", j_cards(v.hand));
	json_object_object_add(o, "trumper", j_seat(v.trumper));
	json_object_object_add(o, "bid", j_bid(v.bid));
	json_object_object_add(o, "bidder", v.bid ? j_seat(v.bidder) : NULL);
	json_object_object_add(o, "trump_card", j_card_or_null(v.trump_card));
	char suit[2] = { suit_letter(v.trump_suit), '\0' };
	json_object_object_add(o, "trump_suit", v.trump_suit >= 0 && v.trump_suit < SUIT_COUNT
						? json_object_new_string(suit) : NULL);
	json_object_object_add(o, "trump_down", j_bool(v.trump_down));
	json_object_object_add(o, "trump_open", j_bool(v.trump_open));
	json_object_object_add(o, "pcc", j_bool(v.pcc));
	json_object_object_add(o, "sitting_out", j_seat(v.sitting_out));
	json_object_object_add(o, "asker", j_seat(v.asker));
	json_object *bids = json_object_new_array();
	for (int i = 0; i < v.nbidlog && i < G304_BIDLOG_MAX; i++)
		json_object_array_add(bids, j_bidlog(&v.bidlog[i]));
	json_object_object_add(o, "bids", bids);
	json_object *tricks = json_object_new_array();
	for (int i = 0; i < v.ntricks && i < G304_TRICKS; i++)
		json_object_array_add(tricks, j_trick(&v.tricks[i]));
	json_object_object_add(o, "tricks", tricks);
	json_object_object_add(o, "tricks_won", j_pair(v.tricks_won[0], v.tricks_won[1]));
	json_object_object_add(o, "exhausted", j_bool(v.exhausted));
	json_object *caps = NULL;
	if (v.caps_seat < G304_SEATS) {
		caps = json_object_new_object();
		json_object_object_add(caps, "seat", j_seat(v.caps_seat));
		json_object *order = json_object_new_array();
		for (int i = 0; i < v.caps_norder && i < G304_TRICKS; i++)
			json_object_array_add(order, j_card_or_down(v.caps_order[i]));
		json_object_object_add(caps, "order", order);
		json_object_object_add(caps, "next", json_object_new_int(v.caps_k));
	}
	json_object_object_add(o, "caps", caps);
	json_object_object_add(o, "tokens", j_pair(v.tokens[0], v.tokens[1]));
	json_object_object_add(o, "bank", json_object_new_int(v.bank));
	json_object_object_add(o, "winner", j_seat(v.winner));
	json_object_object_add(o, "last", v.last.outcome == G304_OUTCOME_NONE
					  ? NULL : j_deal_end(&v.last));
	json_object_object_add(o, "legal", j_legal(g, &v));
	return o;
}

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

static json_object *j_where(size_t deal, long action)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "deal", json_object_new_int64((int64_t)deal));
	if (action >= 0)
		json_object_object_add(o, "action", json_object_new_int64(action));
	return o;
}

static int has_event(const g304_result *res, int type)
{
	for (int i = 0; i < res->nevents && i < G304_EVENTS_MAX; i++)
		if (res->events[i].type == type)
			return 1;
	return 0;
}

int replay_run(const record *rec, int view_seat, FILE *out)
{
	char text[REPLAY_TEXT_MAX];
	const char *names[G304_SEATS];
	for (int s = 0; s < G304_SEATS; s++)
		names[s] = rec->players[s];
	g304 *g = malloc(sizeof *g);
	if (!g)
		return -1;
	g304_init(g, &rec->rules, rec->dealer);
	int rc = 0;

	for (size_t d = 0; d < rec->ndeals && rc == 0; d++) {
		const record_deal *deal = &rec->deals[d];
		int err = g304_deal(g, deal->deck);
		if (err != G304_ERR_OK) {
			json_object *o = j_where(d, -1);
			text_deal_refused(text, sizeof text, err);
			json_object_object_add(o, "ok", j_bool(0));
			json_object_object_add(o, "error", json_object_new_string(text));
			json_object_object_add(o, "code", json_object_new_string(g304_err_name(err)));
			rc = emit(out, o);
			continue;
		}
		for (size_t i = 0; i < deal->nactions && rc == 0; i++) {
			g304_result res;
			memset(&res, 0, sizeof res);
			json_object *o = j_where(d, (long)i);
			if (g304_apply(g, &deal->actions[i], &res) != G304_ERR_OK) {
				text_refusal(text, sizeof text, &res, names);
				json_object_object_add(o, "ok", j_bool(0));
				json_object_object_add(o, "error", json_object_new_string(text));
				json_object_object_add(o, "code",
						       json_object_new_string(g304_err_name(res.err)));
				rc = emit(out, o);
				continue;
			}
			json_object_object_add(o, "ok", j_bool(1));
			rc = emit(out, o);
			if (rc == 0 && has_event(&res, G304_EV_DEAL_END)) {
				o = j_where(d, -1);
				json_object_object_add(o, "end", j_deal_end(&g->last));
				rc = emit(out, o);
			}
			if (rc == 0 && view_seat >= 0) {
				o = j_where(d, (long)i);
				json_object_object_add(o, "view", j_view(g, view_seat));
				rc = emit(out, o);
			}
		}
	}

	if (rc == 0) {
		json_object *m = json_object_new_object();
		json_object_object_add(m, "tokens", j_pair(g->tokens[0], g->tokens[1]));
		json_object_object_add(m, "winner", g->winner >= 0 ? json_object_new_int(g->winner) : NULL);
		json_object_object_add(m, "complete", j_bool(g->phase == G304_PHASE_OVER));
		json_object *o = json_object_new_object();
		json_object_object_add(o, "match", m);
		rc = emit(out, o);
	}
	free(g);
	return rc;
}

/* Reads SEAT of --view: one digit 0..3. */
static int parse_seat(const char *s)
{
	if (s && s[0] >= '0' && s[0] < '0' + G304_SEATS && s[1] == '\0')
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
				return usage_error("--view needs a seat (0-3)", NULL);
			if ((view = parse_seat(seat)) < 0)
				return usage_error("--view: not a seat (0-3):", seat);
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
	int st = record_read_file(path, &text, &len, err);
	if (st != RECORD_READ_OK) {
		fprintf(stderr, "cardbot replay: %s\n", err);
		return st == RECORD_READ_TOO_BIG ? REPLAY_EXIT_MALFORMED : REPLAY_EXIT_IO;
	}
	record *rec = record_parse(text, len, err);
	free(text);
	if (!rec) {
		fprintf(stderr, "cardbot replay: %s: %s\n", strcmp(path, "-") ? path : "standard input",
			err);
		return REPLAY_EXIT_MALFORMED;
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
