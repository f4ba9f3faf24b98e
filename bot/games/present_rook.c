/* present_rook.c: Rook at a table (seed 004; docs/GAMES.md): four players
 * in two teams, the nest, a trump colour named by the bidder, a match to
 * 500, and taken tricks that nobody may look at again until the hand ends.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rook.h"
#include <json-c/json.h>
#include "present_named.h"
#include "replay.h"

/* ---- Rook's cards as chat text (57 cards: engine/rook.h numbering, 56
 * is the bird) ----
 * A card is its number and colour letter ("14R", "5B") in the colour's mIRC
 * colour (Red 04, Green 03, Yellow 07, Black 14: readable on light and dark
 * backgrounds), or plain with RENDER_ASCII; the bird is "ROOK" (bold). */

static const char *const rook_irc[4] = { "04", "03", "07", "14" };

static void rook_card_text(strbuf *b, int c, int style)
{
	if (c < 0 || c >= ROOK_CARDS) {
		sb_add(b, "??");
		return;
	}
	char code[5];
	rook_code((rcard)c, code);
	if (style == RENDER_ASCII) {
		sb_add(b, code);
	} else if (c == ROOK_BIRD) {
		sb_add(b, "\x02ROOK\x02");
	} else {
		sb_add(b, RENDER_IRC_COLOUR);
		sb_add(b, rook_irc[rook_colour((rcard)c)]);
		sb_add(b, code);
		sb_add(b, RENDER_IRC_COLOUR);
	}
}

static void rook_colour_word(strbuf *b, int colour, const char *name, int style);

/* A colour in words ("Red"), coloured unless RENDER_ASCII. */
static void rook_colour_text(strbuf *b, int colour, int style)
{
	rook_colour_word(b, colour, rook_colour_name(colour), style);
}

static void rook_colour_word(strbuf *b, int colour, const char *name, int style)
{
	if (colour < 0 || colour > 3) {
		sb_add(b, "?");
		return;
	}
	if (style != RENDER_ASCII) {
		sb_add(b, RENDER_IRC_COLOUR);
		sb_add(b, rook_irc[colour]);
	}
	char word[64]; /* a colour's name in any language */
	snprintf(word, sizeof word, "%s", name);
	if (word[0] >= 'a' && word[0] <= 'z')
		word[0] = (char)(word[0] - 'a' + 'A');
	sb_add(b, word);
	if (style != RENDER_ASCII)
		sb_add(b, RENDER_IRC_COLOUR);
}

/* The cards of a 57-card set by colour (R G Y B, the trump colour first
 * when trump >= 0) and strength, highest first; the bird last (with the
 * trumps when trump >= 0). */
static int rook_order(uint64_t hand, int trump, int out[ROOK_CARDS])
{
	int n = 0;
	int colours[4] = { 0, 1, 2, 3 };
	if (trump >= 0 && trump < 4) {
		colours[0] = trump;
		for (int i = 0, k = 1; i < 4; i++)
			if (i != trump)
				colours[k++] = i;
	}
	for (int i = 0; i < 4; i++) {
		int col = colours[i];
		/* strongest first: 1, then 14 down to 2 */
		if (hand >> (col * 14) & 1)
			out[n++] = col * 14;
		for (int num = 14; num >= 2; num--)
			if (hand >> (col * 14 + num - 1) & 1)
				out[n++] = col * 14 + num - 1;
		if (i == 0 && trump >= 0 && (hand >> ROOK_BIRD & 1))
			out[n++] = ROOK_BIRD;
	}
	if (trump < 0 && (hand >> ROOK_BIRD & 1))
		out[n++] = ROOK_BIRD;
	return n;
}

static void rook_hand_text(strbuf *b, uint64_t hand, int trump, int style, int numbered)
{
	int order[ROOK_CARDS];
	int n = rook_order(hand, trump, order);
	for (int i = 0; i < n; i++) {
		render_hand_gap(b, i, numbered);
		rook_card_text(b, order[i], style);
	}
}

static int rook_hand_at(uint64_t hand, int trump, int pos)
{
	int order[ROOK_CARDS];
	int n = rook_order(hand, trump, order);
	return pos >= 1 && pos <= n ? order[pos - 1] : -1;
}

/* A colour (enum rook_colour) in the reader's words ("?" out of range);
 * the engine's rook_colour_name stays English, for records and the CLI. */
static const char *colour_words(const text_lang *lang, int colour)
{
	static const int ids[] = { T_ROOK_RED, T_ROOK_GREEN, T_ROOK_YELLOW, T_ROOK_BLACK };
	return colour >= 0 && colour < (int)(sizeof ids / sizeof ids[0]) ? text_line(lang, ids[colour]) : "?";
}

static void card_text(strbuf *b, int c, int style) { rook_card_text(b, c, style); }
static void colour_text(const table *t, strbuf *b, int x, int style)
{
	rook_colour_word(b, x, colour_words(table_reader_now(t), x), style);
}

/* Trumps come last in a hand once the colour is named (rook_order). */
static int hand_at(const table *t, int s, uint64_t hand, int pos)
{
	rook_view v;
	game_view(t->g, s, &v);
	return rook_hand_at(hand, v.trump, pos);
}

static int card_word(const char *w)
{
	uint8_t c = rook_parse(w);
	return c == GAME_NO_CARD ? -1 : c;
}

static void trick(const table *t, int s, int last, named_trick *out)
{
	rook_view v;
	game_view(t->g, s >= 0 ? s : 0, &v);
	memset(out, 0, sizeof *out);
	out->trump = v.trump;
	out->bid = v.bid;
	out->bidder = v.bidder;
	out->trick_no = v.trick_no;
	const rook_trick *k = last ? &v.last_trick : &v.trick;
	named_trick_cards(out, last || v.phase == ROOK_PHASE_PLAY ? k->n : 0, k->seat, k->card, sizeof k->seat,
			  last ? k->winner : 0);
}

static void deal_end(table *t)
{
	game_outcome o;
	game_outcome_of(t->g, &o);
	named_verdict(t, &o);
	char x[TEAM_TEXT], y[TEAM_TEXT], sc[64];
	table_side_names(t, 0, x, sizeof x);
	table_side_names(t, 1, y, sizeof y);
	snprintf(sc, sizeof sc, "%ld : %ld", (long)o.score[0], (long)o.score[1]);
	table_say(t, T_G_ROOK_SCORE, x, y, sc);
}

static const named_phase phases[ROOK_PHASE_COUNT] = {
	[ROOK_PHASE_BID] = { NAMED_BIDDING, 0 },
	[ROOK_PHASE_DISCARD] = { NAMED_WAITING, T_G_STATE_DISCARD },
	[ROOK_PHASE_TRUMP] = { NAMED_WAITING, T_G_STATE_TRUMP },
	[ROOK_PHASE_PLAY] = { NAMED_PLAYING, 0 },
};

/* The bidder is waited for, and in play names the trump colour. */
static void state(const table *t, int s, named_state *x)
{
	rook_view v;
	game_view(t->g, s, &v);
	x->hand = v.hand;
	x->bid = v.bid;
	x->bidder = x->waiting = v.bidder;
	x->trick_no = v.trick_no;
	if (x->phase == NAMED_PLAYING) {
		x->t_trumps = T_STATE_TRUMPS;
		strbuf cb;
		sb_init(&cb, x->trumps, sizeof x->trumps);
		rook_colour_text(&cb, v.trump, table_style_of(t, s));
	}
}

/* A hand shows trumps last once the colour is named. */
static void cards(const table *t, int s, strbuf *b, uint64_t set, int numbered)
{
	rook_view v;
	game_view(t->g, s, &v);
	rook_hand_text(b, set, v.trump, table_style_of(t, s), numbered);
}

/* After the nest card: what may be discarded; the colour to name. */
static void hand_extras(table *t, int s, const game_legal *l, strbuf *b)
{
	char cs[TABLE_LINE], part[TABLE_LINE];
	if (named_can(t, l, "discard")) {
		named_state x;
		named_state_of(t, s, &x);
		strbuf cb;
		sb_init(&cb, cs, sizeof cs);
		rook_hand_text(&cb, l->cards & x.hand, -1, table_style_of(t, s), 0);
		sb_add(b, table_txt(t, part, sizeof part, T_G_HAND_DISCARD, cs, NULL, NULL));
	}
	if (named_can(t, l, "trump"))
		sb_add(b, table_txt(t, part, sizeof part, T_G_HAND_COLOUR, NULL, NULL, NULL));
}

static const present_named_game words = {
	/* the hand line */
	.state = state, .phases = phases, .nphases = ROOK_PHASE_COUNT, .cards = cards, .hand_extras = hand_extras,
	/* cards and suits */
	.card = card_text, .suit = colour_text, .hand_at = hand_at, .card_word = card_word, .t_bad_card = T_G_BAD_ROOK_CARD,
	/* bidding and the trump */
	.t_bid_usage = T_USAGE_BID_ROOK, .t_bidding_won = T_G_NEST, .t_turn_trump = T_G_TURN_COLOUR,
	.colour_parse = rook_colour_parse, .colour_letter = rook_colour_letter, .colour_name = rook_colour_name,
	/* tricks and the end of a deal */
	.trick = trick, .deal_end = deal_end, .t_made = T_G_ROOK_MADE, .t_set = T_G_ROOK_SET, .t_terms = T_G_ROOK_TERMS,
};

/* 004: "Tricks taken may not be reviewed by any player until the end of
 * the round": only between hands is the last trick shown again. */
static void last(table *t, const char *user, int s)
{
	if (table_turn(t) >= 0)
		table_tell(t, user, T_G_NO_REVIEW, table_room_shown(t), NULL, NULL);
	else
		named_last(t, user, s);
}

static void rules(table *t, char *buf, size_t len)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	table_txt(t, buf, len, T_G_RULES_ROOK, table_room_shown(t), paces[t->set.pace % 3], t->set.lastcard ? "on" : "off");
}

/* ---- `cardbot replay` and the match page (replay.h) ---- */

static json_object *end_replay(const game *g)
{
	const rook_hand_end *e = &((const rook *)g->state)->last;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "outcome", json_object_new_string("scored"));
	json_object_object_add(o, "bidder", replay_j_seat(e->bidder));
	json_object_object_add(o, "bid", json_object_new_int(e->bid));
	json_object_object_add(o, "points", replay_j_pair(e->points[0], e->points[1]));
	json_object_object_add(o, "tricks", replay_j_pair(e->tricks[0], e->tricks[1]));
	json_object_object_add(o, "cards", json_object_new_int(e->cards_team));
	json_object_object_add(o, "made", replay_j_bool(e->made));
	json_object_object_add(o, "change", replay_j_pair(e->delta[0], e->delta[1]));
	json_object_object_add(o, "score", replay_j_list(e->score, 2));
	return o;
}

static json_object *view_replay(const game *g, int who)
{
	const game_def *def = g->def;
	rook_view v;
	rook_view_of(g->state, who, &v);
	json_object *bids = json_object_new_array();
	for (int i = 0; i < v.nbidlog && i < ROOK_BIDLOG_MAX; i++)
		json_object_array_add(bids, replay_j_bid(v.bidlog[i].seat, v.bidlog[i].value));
	char trump[2] = { rook_colour_letter(v.trump), '\0' };
	json_object *o = replay_j_view_head(def, v.seat, v.phase, v.deal_no, v.dealer, v.turn, v.hand);
	json_object_object_add(o, "bid", v.bid ? json_object_new_int(v.bid) : NULL);
	json_object_object_add(o, "bidder", replay_j_seat(v.bidder));
	json_object_object_add(o, "bids", bids);
	json_object_object_add(o, "nest", replay_j_bool(v.nest));
	json_object_object_add(o, "discard", replay_j_card(def, v.discard));
	json_object_object_add(o, "trump", v.trump >= 0 ? json_object_new_string(trump) : NULL);
	const rook_trick *t = &v.trick, *l = &v.last_trick;
	json_object_object_add(o, "trick", replay_j_trick(def, t->leader, t->n, t->seat, t->card, t->winner, -1));
	json_object_object_add(o, "last_trick", replay_j_trick(def, l->leader, l->n, l->seat, l->card, l->winner, -1));
	json_object_object_add(o, "tricks_won", replay_j_pair(v.tricks_won[0], v.tricks_won[1]));
	json_object_object_add(o, "score", replay_j_list(v.score, 2));
	json_object_object_add(o, "winner", v.winner >= 0 ? json_object_new_int(v.winner) : NULL);
	json_object_object_add(o, "last", v.last.scored ? end_replay(g) : NULL);
	json_object_object_add(o, "legal", replay_j_legal(g, who, v.hand));
	return o;
}

static void refusal_replay(char *buf, size_t len, const game *g, const game_result *res,
			 const char *const names[GAME_MAX_SEATS])
{
	replay_refusal_words(buf, len, g->def, res, names, rook_colour_name(res->a),
		      "bids go in fives from 70 to 200");
}

static const replay_game replay = { &game_def_rook, "hand_end", "score", view_replay, end_replay, refusal_replay };

/* The match page's words (present.page_card, page_trumps): "Red 14", "the Rook". */
static void page_card(const char *code, char *out, size_t len)
{
	static const struct {
		char letter;
		const char *name;
	} colours[] = {
		{ 'R', "Red" }, { 'G', "Green" }, { 'Y', "Yellow" }, { 'B', "Black" },
	};
	size_t n = strlen(code);
	if (!strcmp(code, "ROOK") || n < 2) {
		snprintf(out, len, "the Rook");
		return;
	}
	for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++)
		if (code[n - 1] == colours[i].letter) {
			snprintf(out, len, "%s %.*s", colours[i].name, (int)(n - 1), code);
			return;
		}
	snprintf(out, len, "%s", code);
}

static const char *const page_trumps[] = { "red", "green", "yellow", "black", NULL };
static const char *const page_trump_keys[] = { "R", "G", "Y", "B", NULL };

/* A card on the page: "14R", "red 14", in its colour's ink (web/page.css);
 * the Rook, a word. */
static void page_face(const char *code, char shown[16], char spoken[32], char cls[16])
{
	size_t n = strlen(code);
	if (!strcmp(code, "ROOK") || n < 2) {
		snprintf(shown, 16, "Rook");
		snprintf(spoken, 32, "the Rook");
		snprintf(cls, 16, "word");
		return;
	}
	const char *colour = NULL;
	for (int i = 0; page_trump_keys[i] && !colour; i++)
		if (code[n - 1] == page_trump_keys[i][0])
			colour = page_trumps[i];
	snprintf(shown, 16, "%s", code);
	snprintf(spoken, 32, "%s %.*s", colour ? colour : code + n - 1, (int)(n - 1), code);
	snprintf(cls, 16, "%s", colour ? colour : "black"); /* page_trumps are the inks' names */
}

static const present_verb verbs[] = {
	PRESENT_VERB_BID,
	{ "discard", NULL, 1, 1, T_HELP_DISCARD },
	PRESENT_VERB_PASS,
	PRESENT_VERB_PLAY,
	PRESENT_VERB_TRUMP,
	PRESENT_VERB_END,
};

static const present_bands bands = { { 0, 120, 150, INT_MAX }, { "70-119", "120-149", "150-200", NULL }, { 0 } };

const present present_rook = {
	.def = &game_def_rook,
	.verbs = verbs,
	.replay = &replay,
	.bands = &bands,
	.page_card = page_card,
	.page_trumps = page_trumps,
	.page_trump_keys = page_trump_keys,
	.page_face = page_face,
	.page_bidder_plays = 1,
	.record_colour = rook_colour_parse,
	.record_card = "14R",
	.words = &words,
	.stats_matches = 1,
	.cutter_step = -1, /* 004: "the player to his right cuts" */
	.t_warn = T_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.t_about = T_ABOUT_ROOK,
	.t_brief = T_BRIEF_ROOK,
	.t_name = T_GAME_ROOK,
	.t_parts = { [PRESENT_PART_NEW] = T_PART_ROOK, [PRESENT_PART_NEW_REFUSED] = T_PART_ROOK,
		     [PRESENT_PART_STATS] = T_PART_STATS_ROOK, [PRESENT_PART_CUT] = T_PART_CUT_ROOK },
	PRESENT_NAMED_FUNCS,
	.rules = rules,
	.last = last,
};
