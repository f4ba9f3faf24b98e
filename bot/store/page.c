/* page.c: the match page: runs a record through the replay driver into a story of steps
 * (JSON) and writes it, with the page's HTML, CSS and JS, as one self-contained HTML file.
 * The rules stay here and in the engine: the page's script only steps through the story. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include <json-c/json.h>

#include "game.h"
#include "page.h"
#include "present.h"
#include "record.h"
#include "replay.h"
#include "strbuf.h"
#include "text_lang.h"
#include "web_assets.h"

#define PAGE_FORMAT "cardbot-page/1"
/* Room for one step's words: two names (RECORD_MAX_NAME) and a caps order. */
#define PAGE_TEXT_MAX 1024

/* What the walk keeps between steps. */
typedef struct page_walk {
	const record *rec;
	json_object *steps, *plot;
	json_object *tricks;      /* the deal's finished tricks so far (for its end) */
	json_object *shown;       /* the trick last shown, or NULL (borrowed from a step) */
	json_object *match;       /* how the match stands at the end (owned until used) */
	int deal_tricks;          /* tricks finished in this deal */
} page_walk;

/* The game's presentation: what the page says differently for it. */
static const present *page_pr(const game_def *def)
{
	static const present none;
	const present *pr = present_find(def);
	return pr ? pr : &none;
}

/* A bid at or above the game's word for it (304: 400, "pcc"). */
static int bid_is_word(const game_def *def, int value)
{
	const present *pr = page_pr(def);
	return pr->record_bid_word && value >= pr->record_bid_limit;
}

/* A card's code in words for a step's line: "J♠", "10♥", or as the game
 * writes its cards (present.page_card: "Red 14", "the Rook"). */
static void card_words(const game_def *def, const char *code, char *out, size_t len)
{
	const present *pr = present_find(def);
	if (pr && pr->page_card) {
		pr->page_card(code, out, len);
		return;
	}
	const char *suit = "";
	switch (code[0] ? code[1] : 0) {
	case 'S': suit = "\xe2\x99\xa0"; break;
	case 'H': suit = "\xe2\x99\xa5"; break;
	case 'D': suit = "\xe2\x99\xa6"; break;
	case 'C': suit = "\xe2\x99\xa3"; break;
	}
	if (code[0] == 'T')
		snprintf(out, len, "10%s", suit);
	else
		snprintf(out, len, "%c%s", code[0], suit);
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v) : NULL;
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int jint(json_object *o, const char *key, int dflt)
{
	json_object *v = jget(o, key);
	return v && json_object_is_type(v, json_type_int) ? json_object_get_int(v) : dflt;
}

static json_object *jcopy(json_object *o)
{
	json_object *c = NULL;
	if (o && json_object_deep_copy(o, &c, NULL) != 0)
		return NULL;
	return c;
}

/* The trick on the table, seen by all seats at once: each card as the seat
 * that played it knows it, with "down" for one still face down (not turned
 * up by an inspection). views[s]: seat s's view. NULL when no trick is out. */
static json_object *trick_of(json_object *const *views, int nseats)
{
	json_object *t = NULL;
	json_object *tricks = jget(views[0], "tricks");
	size_t ti = 0;
	if (tricks) {   /* 304: every trick of the deal; the last with a card is on the table */
		for (ti = json_object_array_length(tricks); ti > 0; ti--) {
			json_object *c = jget(json_object_array_get_idx(tricks, ti - 1), "cards");
			if (c && json_object_array_length(c) > 0)
				break;
		}
		if (ti)
			t = json_object_array_get_idx(tricks, --ti);
	} else {        /* Trump304, Rook: the trick in play, else the one just taken */
		t = jget(views[0], "trick");
		if (!t || json_object_is_type(t, json_type_null))
			t = jget(views[0], "last_trick");
	}
	if (!t || json_object_is_type(t, json_type_null))
		return NULL;
	json_object *out = json_object_new_object();
	json_object_object_add(out, "leader", jcopy(jget(t, "leader")));
	json_object_object_add(out, "winner", jcopy(jget(t, "winner")));
	json_object *cards = json_object_new_array();
	json_object *src = jget(t, "cards");
	for (size_t i = 0; src && i < json_object_array_length(src); i++) {
		json_object *c = json_object_array_get_idx(src, i);
		int seat = jint(c, "seat", 0);
		const char *code = jstr(c, "card");
		/* The seat that played a face-down card knows it. */
		if (seat >= 0 && seat < nseats && code && !strcmp(code, "down")) {
			json_object *own = jget(views[seat], "tricks");
			json_object *ot = own ? json_object_array_get_idx(own, ti) : NULL;
			json_object *oc = ot ? json_object_array_get_idx(jget(ot, "cards"), i) : NULL;
			if (oc && jstr(oc, "card"))
				code = jstr(oc, "card");
		}
		json_object *down = jget(c, "down"), *shown = jget(c, "shown"), *cut = jget(c, "cut");
		json_object *o = json_object_new_object();
		json_object_object_add(o, "seat", json_object_new_int(seat));
		json_object_object_add(o, "card", code ? json_object_new_string(code) : NULL);
		json_object_object_add(o, "down", json_object_new_boolean(
			json_object_get_boolean(down) && !json_object_get_boolean(shown)));
		json_object_object_add(o, "shown", json_object_new_boolean(json_object_get_boolean(shown)));
		if (cut)
			json_object_object_add(o, "cut", jcopy(cut));
		json_object_array_add(cards, o);
	}
	json_object_object_add(out, "cards", cards);
	return out;
}

/* Cards set aside, as each game has them: the trump card laid down (304,
 * Trump304), the two put down in an exchange (Trump304 of three), the
 * bidder's discard (Rook). Each {what, seat, card, down}. */
static json_object *aside_of(json_object *const *views, int nseats)
{
	json_object *arr = json_object_new_array();
	for (int s = 0; s < nseats; s++) {
		json_object *v = views[s];
		const char *tc = jstr(v, "trump_card");
		int trumper = jint(v, "trumper", -1);
		int in_hand = 0;
		json_object *hand = jget(v, "hand");
		for (size_t i = 0; tc && hand && i < json_object_array_length(hand); i++)
			in_hand |= !strcmp(json_object_get_string(json_object_array_get_idx(hand, i)), tc);
		if (tc && trumper == s && !in_hand) {
			int down = json_object_get_boolean(jget(v, "trump_down")) ||
				   json_object_get_boolean(jget(v, "trump_aside"));
			/* Once shown, the trump card is back in the hand or played. */
			if (down) {
				json_object *o = json_object_new_object();
				json_object_object_add(o, "what", json_object_new_string("trump card"));
				json_object_object_add(o, "seat", json_object_new_int(s));
				json_object_object_add(o, "card", json_object_new_string(tc));
				json_object_object_add(o, "down", json_object_new_boolean(down));
				json_object_array_add(arr, o);
			}
		}
		json_object *pd = jget(v, "put_down");
		for (size_t i = 0; pd && i < json_object_array_length(pd); i++) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "what", json_object_new_string("put down"));
			json_object_object_add(o, "seat", json_object_new_int(s));
			json_object_object_add(o, "card", jcopy(json_object_array_get_idx(pd, i)));
			json_object_object_add(o, "down", json_object_new_boolean(1));
			json_object_array_add(arr, o);
		}
		const char *dc = jstr(v, "discard");
		if (dc) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "what", json_object_new_string("discard"));
			json_object_object_add(o, "seat", json_object_new_int(s));
			json_object_object_add(o, "card", json_object_new_string(dc));
			json_object_object_add(o, "down", json_object_new_boolean(1));
			json_object_array_add(arr, o);
		}
	}
	return arr;
}

/* The public state after a step, added to o: hands, trick, cards aside,
 * bidding, trump, turn, scores. */
static void add_state(page_walk *w, const game *g, json_object *o)
{
	const record *rec = w->rec;
	json_object *views[GAME_MAX_SEATS] = { 0 };
	for (int s = 0; s < rec->nseats; s++)
		views[s] = replay_view(g, s);
	json_object *hands = json_object_new_array();
	for (int s = 0; s < rec->nseats; s++)
		json_object_array_add(hands, jcopy(jget(views[s], "hand")));
	json_object_object_add(o, "hands", hands);
	json_object *trick = trick_of(views, rec->nseats);
	json_object_object_add(o, "trick", trick);
	w->shown = trick;
	json_object_object_add(o, "aside", aside_of(views, rec->nseats));
	json_object_object_add(o, "bids", jcopy(jget(views[0], "bids")));
	/* The trump as all know it (every seat's view names it): 304 and
	 * Trump304 a suit once shown, Rook a colour. */
	const char *key = jget(views[0], "trump_suit") ? "trump_suit" : "trump";
	const char *trump = jstr(views[0], key);
	for (int s = 1; s < rec->nseats && trump; s++)
		if (!jstr(views[s], key) || strcmp(jstr(views[s], key), trump))
			trump = NULL;
	json_object_object_add(o, "trump", trump ? json_object_new_string(trump) : NULL);
	json_object_object_add(o, "bid", jcopy(jget(views[0], "bid")));
	/* bidder: the highest bid's seat so far; trumper: the seat that plays
	 * the bid once the bidding is over (Rook: the bidder). */
	json_object *trumper = jget(views[0], "trumper");
	const char *phase = jstr(views[0], "phase");
	const present *pr = present_find(rec->game);
	if (!trumper && pr && pr->page_bidder_plays && phase && strcmp(phase, "bid") && strcmp(phase, "deal"))
		trumper = jget(views[0], "bidder");
	json_object_object_add(o, "bidder", jcopy(jget(views[0], "bidder")));
	json_object_object_add(o, "trumper", jcopy(trumper));
	game_status st;
	game_status_of(g, &st);
	json_object_object_add(o, "turn", st.turn < rec->nseats ? json_object_new_int(st.turn) : NULL);
	json_object *score = json_object_new_array();
	for (int i = 0; i < st.nsides && i < GAME_MAX_SIDES; i++)
		json_object_array_add(score, json_object_new_int(st.score[i]));
	json_object_object_add(o, "score", score);
	json_object_object_add(o, "ntricks", json_object_new_int(w->deal_tricks));
	for (int s = 0; s < rec->nseats; s++)
		json_object_put(views[s]);
}

/* The words after the player's name of the actions that need no more
 * (an action's word as the games name it). */
static const struct {
	const char *act, *words;
} plain_acts[] = {
	{ "pass", "passes" },
	{ "trump", "lays the trump card face down" },
	{ "discard", "takes the nest card and discards a card face down" },
	{ "exchange", "puts two cards down and takes the centre" },
	{ "keep", "keeps the hand (no exchange)" },
	{ "reveal", "asks for the trump to be revealed" },
	{ "redeal", "throws the hand in" },
	{ "partner", "asks partner to bid" },
	{ "open", "opens the game" },
	{ "spoilt", "calls spoilt trumps" },
};

static const char *plain_words(const char *act)
{
	for (size_t i = 0; i < sizeof plain_acts / sizeof plain_acts[0]; i++)
		if (!strcmp(plain_acts[i].act, act))
			return plain_acts[i].words;
	return NULL;
}

/* The state after the action that ended a deal, added to o. The engine's
 * views have moved on to the next deal by then, so this is the previous
 * step's state with the action's own mark on it: the card out of the hand
 * and onto the trick (face down when its event says so), the trick's
 * taker, the last bid or pass. */
static void last_state(page_walk *w, const game *g, const replay_step *st, json_object *o)
{
	const record *rec = w->rec;
	const game_def *def = rec->game;
	const game_action *a = st->act;
	size_t n = json_object_array_length(w->steps);
	json_object *prev = n ? json_object_array_get_idx(w->steps, n - 1) : NULL;
	static const char *const keep[] = { "hands", "trick", "aside", "bids", "trump", "bid", "bidder", "trumper",
					    "score" };
	for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
		json_object_object_add(o, keep[k], jcopy(jget(prev, keep[k])));
	json_object_object_add(o, "turn", NULL);
	json_object_object_add(o, "ntricks", json_object_new_int(w->deal_tricks));
	if (!jget(o, "hands"))
		json_object_object_add(o, "hands", json_object_new_array());
	if (!jget(o, "bids"))
		json_object_object_add(o, "bids", json_object_new_array());
	if (!jget(o, "aside"))
		json_object_object_add(o, "aside", json_object_new_array());
	const char *act = def->act_name(a->type);
	char code[8];
	if (!strcmp(act, "play") && a->ncards) {
		def->card_code(a->cards[0], code);
		json_object *hand = json_object_array_get_idx(jget(o, "hands"), a->seat);
		for (size_t i = 0; hand && i < json_object_array_length(hand); i++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(hand, i)), code)) {
				json_object_array_del_idx(hand, i, 1);
				break;
			}
		json_object *trick = jget(o, "trick");
		json_object *winner = jget(trick, "winner");
		if (!trick || json_object_is_type(trick, json_type_null) ||
		    (winner && !json_object_is_type(winner, json_type_null))) {
			trick = json_object_new_object();
			json_object_object_add(trick, "leader", json_object_new_int(a->seat));
			json_object_object_add(trick, "winner", NULL);
			json_object_object_add(trick, "cards", json_object_new_array());
			json_object_object_add(o, "trick", trick);
		}
		int down = 0;
		for (int k = 0; k < st->res->nevents && k < GAME_EVENTS_MAX; k++) {
			const game_event *e = &st->res->events[k];
			const char *ev = def->ev_name(e->type);
			if (!strcmp(ev, "played") && (e->flags & page_pr(def)->page_down_flag))
				down = 1;
			if (!strcmp(ev, "trick"))
				json_object_object_add(trick, "winner", json_object_new_int(e->seat));
		}
		json_object *c = json_object_new_object();
		json_object_object_add(c, "seat", json_object_new_int(a->seat));
		json_object_object_add(c, "card", json_object_new_string(code));
		json_object_object_add(c, "down", json_object_new_boolean(down));
		json_object_object_add(c, "shown", json_object_new_boolean(0));
		json_object_array_add(jget(trick, "cards"), c);
	} else if (!strcmp(act, "bid") || !strcmp(act, "pass")) {
		json_object *b = json_object_new_object();
		json_object_object_add(b, "seat", json_object_new_int(a->seat));
		json_object_object_add(b, "value", !strcmp(act, "pass") ? json_object_new_string("pass")
						   : bid_is_word(def, a->value)
						   ? json_object_new_string(page_pr(def)->record_bid_word)
						   : json_object_new_int(a->value));
		json_object_array_add(jget(o, "bids"), b);
	}
	(void)g;
	w->shown = jget(o, "trick");
}

/* The step's line: who did what, in words (a face-down card is not named). */
static void action_words(const record *rec, const game_action *a, int down, char *buf, size_t len)
{
	const game_def *def = rec->game;
	const char *who = a->seat < rec->nseats ? rec->players[a->seat] : "?";
	const char *act = def->act_name(a->type);
	char c[32] = "", code[8] = "";
	if (a->ncards) {
		def->card_code(a->cards[0], code);
		card_words(def, code, c, sizeof c);
	}
	if (!strcmp(act, "bid")) {
		if (bid_is_word(def, a->value))
			snprintf(buf, len, "%s bids %s", who, page_pr(def)->page_bid_word);
		else
			snprintf(buf, len, "%s bids %u", who, a->value);
	} else if (!strcmp(act, "play")) {
		if (down)
			snprintf(buf, len, "%s plays a card face down", who);
		else
			snprintf(buf, len, "%s plays %s", who, c);
	} else if (!strcmp(act, "trump") && present_find(def) && present_find(def)->page_trumps) {
		const char *const *trumps = present_find(def)->page_trumps;
		int n = 0;
		while (trumps[n])
			n++;
		snprintf(buf, len, "%s names %s trumps", who, a->value < n ? trumps[a->value] : "?");
	} else if (!strcmp(act, "caps")) {
		size_t o = (size_t)snprintf(buf, len, "%s calls caps:", who);
		for (int i = 0; i < a->ncards && o < len; i++) {
			def->card_code(a->cards[i], code);
			card_words(def, code, c, sizeof c);
			o += (size_t)snprintf(buf + o, len - o, " %s", c);
		}
	} else {
		const char *words = plain_words(act);
		if (words)
			snprintf(buf, len, "%s %s", who, words);
		else
			snprintf(buf, len, "%s: %s", who, act);
	}
}

/* What the events add to a step's line: inspections, reveals, tricks taken. */
static json_object *event_notes(const record *rec, const game_result *res, int *inspected, int *tricks)
{
	const game_def *def = rec->game;
	json_object *notes = json_object_new_array();
	char buf[PAGE_TEXT_MAX], code[8], c[32];
	for (int k = 0; k < res->nevents && k < GAME_EVENTS_MAX; k++) {
		const game_event *e = &res->events[k];
		const char *ev = def->ev_name(e->type);
		const char *who = e->seat < rec->nseats ? rec->players[e->seat] : "?";
		buf[0] = 0;
		if (!strcmp(ev, "no_trump")) {
			snprintf(buf, sizeof buf, "The trumper looks at the face-down cards: no trump among them.");
			*inspected = 1;
		} else if (!strcmp(ev, "revealed") && page_pr(def)->page_reveal_inspects) {
			def->card_code(e->card, code);
			card_words(def, code, c, sizeof c);
			snprintf(buf, sizeof buf, "The trumper looks at the face-down cards: a trump. "
				 "The trump card %s is shown to all.", c);
			*inspected = 1;
		} else if (!strcmp(ev, "revealed")) {
			def->card_code(e->card, code);
			card_words(def, code, c, sizeof c);
			snprintf(buf, sizeof buf, "The trump is revealed: %s.", c);
		} else if (!strcmp(ev, "opened")) {
			def->card_code(e->card, code);
			card_words(def, code, c, sizeof c);
			snprintf(buf, sizeof buf, "The game is open: the trump card is %s.", c);
		} else if (!strcmp(ev, "trick")) {
			snprintf(buf, sizeof buf, "%s takes the trick.", who);
			(*tricks)++;
		} else if (!strcmp(ev, "dealt_rest")) {
			static const char *const counts[] = { "No", "One", "Two", "Three", "Four", "Five", "Six" };
			int more = def->deck_size / (rec->nseats ? rec->nseats : 1) - page_pr(def)->page_first_batch;
			snprintf(buf, sizeof buf, "%s more %s dealt.", more >= 0 && more <= 6 ? counts[more] : "More",
				 more == 1 ? "card each is" : "cards each are");
		} else if (!strcmp(ev, "passed_out")) {
			snprintf(buf, sizeof buf, "Everyone passed: the deal is over.");
		} else if (!strcmp(ev, "spoilt") && def->act_parse("spoilt") < 0) { /* not called: the action told it */
			snprintf(buf, sizeof buf, "Spoilt trumps: every trump is on the trumper's side.");
		} else if (!strcmp(ev, "draw")) {
			snprintf(buf, sizeof buf, "%s draws a card.", who);
		}
		if (buf[0])
			json_object_array_add(notes, json_object_new_string(buf));
	}
	return notes;
}

/* The deal's end in words, from its end object (replay_end). */
static void end_words(const record *rec, json_object *end, char *buf, size_t len)
{
	const char *outcome = jstr(end, "outcome");
	json_object *bid = jget(end, "bid"), *made = jget(end, "made");
	int bidder = jint(end, "trumper", jint(end, "bidder", -1));
	/* The record's outcome codes in the words people use; a scored deal
	 * is told by its bid. */
	static const char *const words[][2] = {
		{ "scored", NULL }, { "passed_out", "passed out" }, { "spoilt", "spoilt trumps" },
		{ "redeal", "dealt again" },
	};
	const char *said = outcome ? outcome : "over";
	for (size_t i = 0; outcome && i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(outcome, words[i][0]))
			said = words[i][1];
	size_t o = (size_t)snprintf(buf, len, "End of the deal%s%s", said ? ": " : "", said ? said : "");
	if (o < len && bidder >= 0 && bidder < rec->nseats && bid && !json_object_is_type(bid, json_type_null))
		o += (size_t)snprintf(buf + o, len - o, "%s%s's bid of %s %s", said ? "; " : ": ", rec->players[bidder],
				      json_object_get_string(bid),
				      !made || json_object_is_type(made, json_type_null) ? "was not played"
				      : json_object_get_boolean(made) ? "was made" : "failed");
	json_object *pts = jget(end, "points");
	int p0 = pts && json_object_array_length(pts) == 2 ? json_object_get_int(json_object_array_get_idx(pts, 0)) : 0;
	int p1 = pts && json_object_array_length(pts) == 2 ? json_object_get_int(json_object_array_get_idx(pts, 1)) : 0;
	if (o >= len)
		return;  /* cut short: the line as far as it went */
	if (p0 + p1 == 0)
		snprintf(buf + o, len - o, ".");
	else if (present_find(rec->game) && present_find(rec->game)->page_points_by_bidder && bidder >= 0
		 && bidder < rec->nseats)
		/* Trump304 counts the trumper's side first. */
		snprintf(buf + o, len - o, "; card points: %s's side %d, the others %d.", rec->players[bidder], p0, p1);
	else if (rec->nseats == 4)
		snprintf(buf + o, len - o, "; card points: %s & %s %d, %s & %s %d.", rec->players[0], rec->players[2],
			 p0, rec->players[1], rec->players[3], p1);
	else if (rec->nseats == 6)  /* six-player 304: seats 0, 2, 4 against 1, 3, 5 */
		snprintf(buf + o, len - o, "; card points: %s, %s & %s %d, %s, %s & %s %d.", rec->players[0],
			 rec->players[2], rec->players[4], p0, rec->players[1], rec->players[3], rec->players[5], p1);
	else
		snprintf(buf + o, len - o, "; card points %d and %d.", p0, p1);
}

static json_object *plot_point(size_t deal, json_object *score)
{
	json_object *p = json_object_new_object();
	json_object_object_add(p, "deal", json_object_new_int64((int64_t)deal));
	json_object_object_add(p, "score", jcopy(score));
	return p;
}

static int page_hook(void *ctx, const game *g, const replay_step *st)
{
	page_walk *w = ctx;
	const record *rec = w->rec;
	char text[PAGE_TEXT_MAX];
	json_object *o;
	switch (st->kind) {
	case REPLAY_DEAL: {
		game_status gs;
		game_status_of(g, &gs);
		w->deal_tricks = 0;
		json_object_put(w->tricks);
		w->tricks = json_object_new_array();
		o = json_object_new_object();
		json_object_object_add(o, "kind", json_object_new_string("deal"));
		json_object_object_add(o, "deal", json_object_new_int64((int64_t)st->deal));
		json_object_object_add(o, "action", json_object_new_int(-1));
		json_object_object_add(o, "dealer", json_object_new_int(gs.dealer));
		snprintf(text, sizeof text, "Deal %zu: %s deals.", st->deal + 1,
			 gs.dealer < rec->nseats ? rec->players[gs.dealer] : "?");
		json_object_object_add(o, "text", json_object_new_string(text));
		add_state(w, g, o);
		if (json_object_array_length(w->plot) == 0)
			json_object_array_add(w->plot, plot_point(st->deal, jget(o, "score")));
		json_object_array_add(w->steps, o);
		return 0;
	}
	case REPLAY_ACTION: {
		o = json_object_new_object();
		const game_action *a = st->act;
		json_object_object_add(o, "kind", json_object_new_string("action"));
		json_object_object_add(o, "deal", json_object_new_int64((int64_t)st->deal));
		json_object_object_add(o, "action", json_object_new_int64(st->action));
		json_object_object_add(o, "seat", json_object_new_int(a->seat));
		json_object_object_add(o, "do", json_object_new_string(rec->game->act_name(a->type)));
		int inspected = 0, ntr = w->deal_tricks;
		json_object *notes = event_notes(rec, st->res, &inspected, &ntr);
		w->deal_tricks = ntr;
		if (st->ended)
			last_state(w, g, st, o);
		else
			add_state(w, g, o);
		/* A played card: face down if the trick shows it so. */
		int down = 0;
		char code[8] = "";
		if (a->ncards && !strcmp(rec->game->act_name(a->type), "play")) {
			rec->game->card_code(a->cards[0], code);
			json_object *cards = w->shown ? jget(w->shown, "cards") : NULL;
			for (size_t i = 0; cards && i < json_object_array_length(cards); i++) {
				json_object *c = json_object_array_get_idx(cards, i);
				if (jstr(c, "card") && !strcmp(jstr(c, "card"), code) &&
				    json_object_get_boolean(jget(c, "down")))
					down = 1;
			}
			json_object_object_add(o, "card", json_object_new_string(code));
			json_object_object_add(o, "down", json_object_new_boolean(down));
		}
		action_words(rec, a, down, text, sizeof text);
		json_object_object_add(o, "text", json_object_new_string(text));
		json_object_object_add(o, "notes", notes);
		json_object_object_add(o, "inspected", json_object_new_boolean(inspected));
		if (ntr > (int)json_object_array_length(w->tricks) && w->shown)
			json_object_array_add(w->tricks, jcopy(w->shown));
		json_object_array_add(w->steps, o);
		if (st->ended) {
			json_object *end = replay_end(g);
			json_object *e = json_object_new_object();
			json_object_object_add(e, "kind", json_object_new_string("end"));
			json_object_object_add(e, "deal", json_object_new_int64((int64_t)st->deal));
			json_object_object_add(e, "action", json_object_new_int(-1));
			end_words(rec, end, text, sizeof text);
			json_object_object_add(e, "text", json_object_new_string(text));
			json_object_object_add(e, "end", end);
			static const char *const keep[] = { "hands", "trick", "aside", "bids", "trump", "bid",
							    "bidder", "trumper", "ntricks" };
			for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
				json_object_object_add(e, keep[k], jcopy(jget(o, keep[k])));
			json_object_object_add(e, "turn", NULL);
			game_status gs;
			game_status_of(g, &gs);
			json_object *score = json_object_new_array();
			for (int i = 0; i < gs.nsides && i < GAME_MAX_SIDES; i++)
				json_object_array_add(score, json_object_new_int(gs.score[i]));
			json_object_object_add(e, "score", score);
			/* Every trick of the deal, each card face up at last. */
			json_object_object_add(e, "tricks", w->tricks);
			w->tricks = json_object_new_array();
			json_object_array_add(w->plot, plot_point(st->deal + 1, jget(e, "score")));
			json_object_array_add(w->steps, e);
		}
		return 0;
	}
	case REPLAY_MATCH: {
		game_status gs;
		game_status_of(g, &gs);
		json_object *m = json_object_new_object();
		json_object_object_add(m, "winner", gs.winner >= 0 ? json_object_new_int(gs.winner) : NULL);
		json_object_object_add(m, "complete", json_object_new_boolean(gs.over));
		json_object_object_add(m, "score_name", json_object_new_string(st->score_name));
		json_object *score = json_object_new_array();
		for (int i = 0; i < gs.nsides && i < GAME_MAX_SIDES; i++)
			json_object_array_add(score, json_object_new_int(gs.score[i]));
		json_object_object_add(m, "score", score);
		/* Sides: teams of two (seats s and s+2), or each seat alone. */
		json_object *sides = json_object_new_array();
		for (int i = 0; i < gs.nsides && i < GAME_MAX_SIDES; i++) {
			json_object *side = json_object_new_array();
			for (int s = i; s < rec->nseats; s += gs.nsides)
				json_object_array_add(side, json_object_new_int(s));
			json_object_array_add(sides, side);
		}
		json_object_object_add(m, "sides", sides);
		w->match = m;
		return 0;
	}
	default:  /* refused actions and deals change nothing: the page leaves them out */
		return 0;
	}
}

/* A page grows to this at most: far beyond any match's (a record is read
 * up to RECORD_MAX_BYTES, 16 MiB, and its page is a few times its size). */
#define PAGE_MAX ((size_t)1 << 30)

/* Appends s to b, writing '<', '>' and '&' as JSON escapes. */
static int append_escaped(strbuf *b, const char *s)
{
	for (; *s; s++) {
		char esc[8];
		int rc;
		if (*s == '<' || *s == '>' || *s == '&') {
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned char)*s);
			rc = sb_addn(b, esc, 6);
		} else {
			rc = sb_addn(b, s, 1);
		}
		if (rc)
			return -1;
	}
	return 0;
}

/* A suit card on the page ("JS"): "J♠", "jack of spades", red or black. */
static void suit_face(const char *code, char shown[16], char spoken[32], char cls[16])
{
	static const struct { char letter; const char *sym, *name; int red; } suits[] = {
		{ 'S', "\u2660", "spades", 0 }, { 'H', "\u2665", "hearts", 1 },
		{ 'D', "\u2666", "diamonds", 1 }, { 'C', "\u2663", "clubs", 0 },
	};
	static const struct { char letter; const char *name; } ranks[] = {
		{ 'J', "jack" }, { 'Q', "queen" }, { 'K', "king" }, { 'A', "ace" }, { 'T', "10" },
	};
	char r[3] = { code[0], '\0', '\0' };
	const char *rname = r;
	if (code[0] == 'T')
		snprintf(r, sizeof r, "10");
	for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
		if (ranks[i].letter == code[0])
			rname = ranks[i].name;
	for (size_t i = 0; i < sizeof suits / sizeof suits[0]; i++)
		if (code[0] && suits[i].letter == code[1]) {
			snprintf(shown, 16, "%s%s", r, suits[i].sym);
			snprintf(spoken, 32, "%s of %s", rname, suits[i].name);
			snprintf(cls, 16, "%s", suits[i].red ? "red" : "black");
			return;
		}
	snprintf(shown, 16, "%s?", r);
	snprintf(spoken, 32, "%s of ?", rname);
	snprintf(cls, 16, "black");
}

/* What the page's script shows of the game (it knows none): every card's
 * [face, words, class], the trumps by the letter a step names them with,
 * and what the side's player who plays the bid is called. */
static void story_game(json_object *top, const game_def *def)
{
	const present *pr = page_pr(def);
	json_object *faces = json_object_new_object();
	for (int c = 0; c < def->deck_size; c++) {
		char code[8], shown[16], spoken[32], cls[16];
		def->card_code((uint8_t)c, code);
		(pr->page_face ? pr->page_face : suit_face)(code, shown, spoken, cls);
		json_object *f = json_object_new_array();
		json_object_array_add(f, json_object_new_string(shown));
		json_object_array_add(f, json_object_new_string(spoken));
		json_object_array_add(f, json_object_new_string(cls));
		json_object_object_add(faces, code, f);
	}
	json_object_object_add(top, "faces", faces);
	static const char *const suit_keys[] = { "S", "H", "D", "C", NULL };
	static const char *const suit_names[] = { "spades", "hearts", "diamonds", "clubs", NULL };
	const char *const *keys = pr->page_trump_keys ? pr->page_trump_keys : suit_keys;
	const char *const *names = pr->page_trump_keys ? pr->page_trumps : suit_names;
	json_object *trumps = json_object_new_object();
	for (int i = 0; keys[i] && names[i]; i++)
		json_object_object_add(trumps, keys[i], json_object_new_string(names[i]));
	json_object_object_add(top, "trumps", trumps);
	json_object_object_add(top, "trumper", json_object_new_string(pr->page_bidder_plays ? "bidder" : "trumper"));
}

char *page_story(const record *rec)
{
	page_walk w = { .rec = rec, .steps = json_object_new_array(), .plot = json_object_new_array() };
	int rc = replay_walk(rec, page_hook, &w);
	json_object *match = w.match;
	json_object_put(w.tricks);
	if (rc != 0 || !match) {
		json_object_put(match);
		json_object_put(w.steps);
		json_object_put(w.plot);
		return NULL;
	}
	/* A step's bid list is left out when it is the step before's (page.js
	 * carries it forward): most steps change no bid, and the lists made
	 * up over half a long match's page. */
	json_object *prev_bids = NULL;
	for (size_t i = 0; i < json_object_array_length(w.steps); i++) {
		json_object *st = json_object_array_get_idx(w.steps, i), *b = jget(st, "bids");
		if (prev_bids && b && json_object_equal(prev_bids, b))
			json_object_object_del(st, "bids");
		else if (b)
			prev_bids = b;
	}
	json_object *top = json_object_new_object();
	json_object_object_add(top, "format", json_object_new_string(PAGE_FORMAT));
	json_object_object_add(top, "game", json_object_new_string(rec->game->name));
	story_game(top, rec->game);
	json_object *players = json_object_new_array();
	for (int s = 0; s < rec->nseats; s++)
		json_object_array_add(players, json_object_new_string(rec->players[s]));
	json_object_object_add(top, "players", players);
	json_object_object_add(top, "match", match);
	json_object_object_add(top, "plot", w.plot);
	json_object_object_add(top, "steps", w.steps);
	const char *s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	strbuf out;
	sb_init_grow(&out, PAGE_MAX);
	if (!s)
		out.cut = 1;
	else
		append_escaped(&out, s);
	json_object_put(top);
	return sb_take(&out);
}

/* Appends text with HTML's five special characters escaped. */
static int append_html(strbuf *b, const char *s)
{
	for (; *s; s++) {
		const char *p = NULL;
		switch (*s) {
		case '<': p = "&lt;"; break;
		case '>': p = "&gt;"; break;
		case '&': p = "&amp;"; break;
		case '"': p = "&quot;"; break;
		case '\'': p = "&#39;"; break;
		}
		if (p ? sb_add(b, p) : sb_addn(b, s, 1))
			return -1;
	}
	return 0;
}

char *page_html(const record *rec, size_t *lenp)
{
	char *story = page_story(rec);
	if (!story)
		return NULL;
	/* The page's title: the game and the players, escaped. */
	char title[64 + GAME_MAX_SEATS * (RECORD_MAX_NAME + 4)];
	const present *pr = present_find(rec->game);
	size_t o = (size_t)snprintf(title, sizeof title, "%s: ", pr ? text_line(NULL, pr->t_name) : rec->game->name);
	for (int s = 0; s < rec->nseats && o < sizeof title; s++)
		o += (size_t)snprintf(title + o, sizeof title - o, "%s%s", s ? ", " : "", rec->players[s]);
	strbuf b;
	sb_init_grow(&b, PAGE_MAX);
	int rc = 0;
	/* The template's markers, each replaced by what follows it here. */
	const char *t = web_page_html;
	while (rc == 0 && *t) {
		const char *m = strstr(t, "<!--@");
		if (!m) {
			rc = sb_add(&b, t);
			break;
		}
		rc = sb_addn(&b, t, (size_t)(m - t));
		const char *e = strstr(m, "@-->");
		if (!e) {
			rc = -1;
			break;
		}
		size_t n = (size_t)(m + 5 < e ? e - (m + 5) : 0);
		if (rc == 0) {
			if (n == 5 && !strncmp(m + 5, "TITLE", 5))
				rc = append_html(&b, title);
			else if (n == 5 && !strncmp(m + 5, "STYLE", 5))
				rc = sb_add(&b, web_page_css);
			else if (n == 6 && !strncmp(m + 5, "SCRIPT", 6))
				rc = sb_add(&b, web_page_js);
			else if (n == 5 && !strncmp(m + 5, "STORY", 5))
				rc = sb_add(&b, story);
		}
		t = e + 4;
	}
	free(story);
	if (rc != 0)
		b.cut = 1;
	size_t len = b.len;
	char *page = sb_take(&b);
	if (page)
		*lenp = len;
	return page;
}

int page_record_in_play(const char *text, size_t len)
{
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return 0;
	json_object *top = json_tokener_parse_ex(tok, text, (int)len);
	json_tokener_free(tok);
	int in_play = top && jget(top, "started") && !jget(top, "ended");
	json_object_put(top);
	return in_play;
}

int page_write_file(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	int to_stdout = !path || !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int ok = fwrite(data, 1, len, f) == len;
	if (to_stdout)
		ok = fflush(f) == 0 && ok;
	else if (fclose(f) != 0)
		ok = 0;
	if (!ok)
		snprintf(err, errlen, "%s: writing failed: %s", to_stdout ? "standard output" : path,
			 strerror(errno));
	return ok ? 0 : -1;
}

int page_publish(const char *dir, const char *name, const char *data, size_t len, char *err, size_t errlen)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	char tmp[256];
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		uint32_t r = 0;
		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
			r = (uint32_t)getpid() ^ (uint32_t)tries;
		if (snprintf(tmp, sizeof tmp, ".%s.%08x.tmp", name, (unsigned)r) >= (int)sizeof tmp) {
			snprintf(err, errlen, "%s/%s: the name is too long", dir, name);
			close(dfd);
			return -1;
		}
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, PAGE_PUBLIC_MODE);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s/%s: %s", dir, tmp, strerror(errno));
		close(dfd);
		return -1;
	}
	/* A web server reads it as another user, whatever umask the service has. */
	int ok = fchmod(fd, PAGE_PUBLIC_MODE) == 0;
	for (size_t off = 0; ok && off < len;) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0;
		off += n > 0 ? (size_t)n : 0;
	}
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (ok && renameat(dfd, tmp, dfd, name) != 0) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		unlinkat(dfd, tmp, 0);
		snprintf(err, errlen, "%s/%s: writing failed: %s", dir, name, strerror(e));
	}
	close(dfd);
	return ok ? 0 : -1;
}

int page_write_record(const char *cmd, const record *rec, const char *out)
{
	size_t len;
	char *html = page_html(rec, &len);
	if (!html) {
		fprintf(stderr, "cardbot %s: out of memory\n", cmd);
		return 1;
	}
	char werr[512];
	int rc = page_write_file(out, html, len, werr, sizeof werr);
	free(html);
	if (rc != 0) {
		fprintf(stderr, "cardbot %s: %s\n", cmd, werr);
		return 1;
	}
	return 0;
}

static const char render_help[] =
	"usage: cardbot render [-o FILE] RECORD.json\n"
	"\n"
	"Writes the match page of a game record (docs/RECORD.md): one self-contained\n"
	"HTML file that replays the match card by card, with every hand, the bidding,\n"
	"each trick (face-down cards face down until the deal's end), the end of each\n"
	"deal and a plot of the score. It needs no network: open it from disk or put\n"
	"it on a web server. A record of a match still in play (written by the bot,\n"
	"with no \"ended\") has no page.\n"
	"\n"
	"  -o FILE       write the page to FILE (default: standard output)\n"
	"  -h, --help    show this help\n"
	"\n"
	"Exit status: 0 written; 1 a file cannot be read or written; 2 the record is\n"
	"malformed or of a match still in play; 64 wrong arguments.\n";

int page_render_main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(render_help, stdout);
			return fflush(stdout) ? 1 : 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "-o")) {
			fprintf(stderr, "cardbot render: unknown option \"%s\"\n%s", argv[i], render_help);
			return EX_USAGE;
		} else if (!in && strcmp(argv[i], "-o")) {
			in = argv[i];
		} else {
			fputs(render_help, stderr);
			return EX_USAGE;
		}
	}
	if (!in) {
		fputs(render_help, stderr);
		return EX_USAGE;
	}
	char err[RECORD_ERR_MAX];
	char *text;
	size_t len;
	int st = record_read_say("render", in, &text, &len);
	if (st != RECORD_READ_OK)
		return st == RECORD_READ_TOO_BIG ? 2 : 1;
	record *rec = record_parse_game(text, len, err);
	if (!rec) {
		free(text);
		fprintf(stderr, "cardbot render: %s: %s\n", in, err);
		return 2;
	}
	if (page_record_in_play(text, len)) {
		free(text);
		record_free(rec);
		fprintf(stderr, "cardbot render: %s: the match is still in play: it has no page until it ends\n", in);
		return 2;
	}
	free(text);
	int rc = page_write_record("render", rec, out);
	record_free(rec);
	return rc;
}
