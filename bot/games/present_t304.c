/* present_t304.c: Trump304 at a table (seed 002; docs/GAMES.md): 2, 3 or
 * 4 players, the trump card laid face down, the three-player exchange, the
 * reveal, and tokens that change hands after each deal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "t304.h"
#include <json-c/json.h>
#include "present_named.h"
#include "replay.h"

static void card_text(strbuf *b, int c, int style) { render_card(b, (card)c, style); }
static void suit_text(const table *t, strbuf *b, int x, int style) { (void)style; sb_add(b, text_suit(table_reader_now(t), x)); }

static int hand_at(const table *t, int s, uint64_t hand, int pos)
{
	(void)t;
	(void)s;
	card c = render_hand_at((cardset)hand, pos);
	return c == CARD_NONE ? -1 : c;
}

static int card_word(const char *w)
{
	card c = render_parse_card(w);
	return c == CARD_NONE ? -1 : c;
}

static void trick(const table *t, int s, int last, named_trick *out)
{
	t304_view v;
	game_view(t->g, s >= 0 ? s : 0, &v);
	memset(out, 0, sizeof *out);
	out->trump = v.revealed ? v.trump_suit : -1;
	out->bid = v.bid;
	out->bidder = v.bidder;
	out->trick_no = v.trick_no;
	const t304_trick *k = last ? &v.last_trick : &v.trick;
	named_trick_cards(out, last || v.phase == T304_PHASE_PLAY ? k->n : 0, k->seat, k->card, sizeof k->seat,
			  last ? k->winner : 0);
}

/* Who paid whom in the last deal, as a scorer says it: "5 tokens from ann
 * & cat to ben & dev" (three players: one payment per opponent). Empty
 * when no tokens changed hands (no deal yet, or a spoilt one). */
static void payments_text(const table *t, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	game_outcome o;
	game_outcome_of(t->g, &o);
	if (!o.ended || o.bidder == GAME_NO_SEAT)
		return;
	int ts = t->nseats == 4 ? (o.bidder & 1) : o.bidder, k = 0;
	for (int s = 0; s < o.nsides && s < GAME_MAX_SIDES; s++) {
		if (s == ts || !o.change[s])
			continue;
		char from[TEAM_TEXT], to[TEAM_TEXT], n[16], line[TABLE_LINE];
		table_side_names(t, o.change[s] > 0 ? ts : s, from, sizeof from);
		table_side_names(t, o.change[s] > 0 ? s : ts, to, sizeof to);
		snprintf(n, sizeof n, "%ld", labs((long)o.change[s]));
		sb_printf(&b, "%s%s", k++ ? ", " : "", table_txt(t, line, sizeof line, T_G_PAID, n, from, to));
	}
}

static void deal_end(table *t)
{
	game_outcome o;
	game_outcome_of(t->g, &o);
	named_verdict(t, &o);
	/* The losers pay the winners (002, 3.0): who paid whom, then the running totals. */
	char a[TABLE_LINE], paid[TABLE_LINE];
	named_scores(t, a, sizeof a);
	payments_text(t, paid, sizeof paid);
	if (paid[0])
		table_say(t, T_G_PAID_LINE, paid, NULL, NULL);
	table_say(t, T_G_TOKENS, a, NULL, NULL);
}

/* The trumper's hand changes when the trump card goes back to it. */
static void hands_changed(table *t, int revealed)
{
	if (revealed && t->g) {
		t304_view v;
		game_view(t->g, 0, &v);
		if (v.trumper != table_turn(t))
			table_send_hand(t, v.trumper);
	}
}

static const named_phase phases[T304_PHASE_COUNT] = {
	[T304_PHASE_BID] = { NAMED_BIDDING, 0 },
	[T304_PHASE_TRUMP] = { NAMED_WAITING, T_G_STATE_TRUMP },
	[T304_PHASE_EXCHANGE] = { NAMED_WAITING, T_G_STATE_EXCHANGE },
	[T304_PHASE_PLAY] = { NAMED_PLAYING, 0 },
};

/* "trick 3, spades led, trumps hidden, bid 160 by ann" for seat s: the
 * trumper is waited for and plays the contract. */
static void state(const table *t, int s, named_state *x)
{
	t304_view v;
	game_view(t->g, s, &v);
	x->hand = v.hand;
	x->bid = v.bid;
	x->bidder = v.bidder;
	x->waiting = v.trumper;
	x->trick_no = v.trick_no;
	if (x->phase == NAMED_PLAYING) {
		x->bidder = v.trumper;
		x->led = v.trick.n ? text_suit(table_reader_now(t), card_suit(v.trick.card[0])) : NULL;
		if (v.revealed || (s == v.trumper && v.trump_suit >= 0)) {
			x->t_trumps = v.revealed ? T_STATE_TRUMPS : T_STATE_MY_TRUMP;
			snprintf(x->trumps, sizeof x->trumps, "%s", text_suit(table_reader_now(t), v.trump_suit));
		} else {
			x->t_trumps = T_STATE_TRUMP_HIDDEN;
		}
		x->pile = v.npile;
	}
}

static void cards(const table *t, int s, strbuf *b, uint64_t set, int numbered)
{
	table_sb_hand(t, b, (cardset)set, table_style_of(t, s), numbered);
}

/* The trumper's card laid aside, the cards put down in the exchange, what
 * to choose. */
static void hand_extras(table *t, int s, const game_legal *l, strbuf *b)
{
	int style = table_style_of(t, s);
	char cs[TABLE_LINE], part[TABLE_LINE];
	strbuf cb;
	t304_view v;
	game_view(t->g, s, &v);
	if (s == v.trumper && v.trump_aside && v.trump_card != CARD_NONE) {
		sb_init(&cb, cs, sizeof cs);
		render_card(&cb, v.trump_card, style);
		sb_add(b, table_txt(t, part, sizeof part, T_G_HAND_TRUMP_CARD, cs, NULL, NULL));
	}
	if (v.putdown && s == v.trumper && v.phase == T304_PHASE_PLAY && v.trick_no == 0 && v.trick.n == 0) {
		sb_init(&cb, cs, sizeof cs);
		table_sb_hand(t, &cb, v.putdown, style, 0);
		sb_add(b, table_txt(t, part, sizeof part, T_G_HAND_PUT_DOWN, cs, NULL, NULL));
	}
	if (named_can(t, l, "trump"))
		sb_add(b, table_txt(t, part, sizeof part, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL));
	if (named_can(t, l, "exchange") || named_can(t, l, "keep"))
		sb_add(b, table_txt(t, part, sizeof part, T_G_HAND_EXCHANGE, NULL, NULL, NULL));
}

static const present_named_game words = {
	/* the hand line */
	.state = state, .phases = phases, .nphases = T304_PHASE_COUNT, .cards = cards, .hand_extras = hand_extras,
	/* cards and suits */
	.card = card_text, .suit = suit_text, .hand_at = hand_at, .card_word = card_word, .t_bad_card = T_BAD_CARD,
	/* bidding and the trump */
	.t_bid_usage = T_USAGE_BID_T304, .t_bidding_won = T_BIDDING_WON, .t_turn_trump = T_G_TURN_TRUMP,
	/* tricks and the end of a deal */
	.trick = trick, .deal_end = deal_end, .t_made = T_MADE, .t_set = T_FAILED,
	.hands_changed = hands_changed, .cut_flag = 1,
	.t_terms = T_G_T304_TERMS, .payments = payments_text, .points_by_bidder = 1,
};

static void rules(table *t, char *buf, size_t len)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	char n[16], secs[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	snprintf(secs, sizeof secs, "%d", t->set.live_turn_seconds);
	const char *args[5] = { table_room_shown(t), n, paces[t->set.pace % 3], secs, t->set.lastcard ? "on" : "off" };
	text_fmt_in(table_reader_now(t), buf, len, T_G_RULES_T304, 5, args);
}

/* ---- `cardbot replay` and the match page (replay.h) ---- */

static json_object *end_replay(const game *g)
{
	const t304_deal_end *e = &((const t304 *)g->state)->last;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "outcome", json_object_new_string(t304_outcome_name(e->outcome)));
	json_object_object_add(o, "trumper", replay_j_seat(e->trumper));
	json_object_object_add(o, "bid", e->bid ? json_object_new_int(e->bid) : NULL);
	json_object_object_add(o, "points", replay_j_pair(e->points[0], e->points[1]));
	json_object_object_add(o, "made", e->made < 0 ? NULL : replay_j_bool(e->made));
	json_object *change = json_object_new_array();
	for (int i = 0; i < e->nsides && i < T304_MAX_SEATS; i++)
		json_object_array_add(change, json_object_new_int(e->change[i]));
	json_object_object_add(o, "change", change);
	json_object_object_add(o, "tokens", replay_j_list(e->tokens, e->nsides));
	return o;
}

static json_object *view_replay(const game *g, int who)
{
	const game_def *def = g->def;
	t304_view v;
	t304_view_of(g->state, who, &v);
	json_object *bids = json_object_new_array();
	for (int i = 0; i < v.nbidlog && i < T304_BIDLOG_MAX; i++)
		json_object_array_add(bids, replay_j_bid(v.bidlog[i].seat, v.bidlog[i].value));
	json_object *o = replay_j_view_head(def, v.seat, v.phase, v.deal_no, v.dealer, v.turn, v.hand);
	json_object_object_add(o, "trumper", replay_j_seat(v.trumper));
	json_object_object_add(o, "bid", v.bid ? json_object_new_int(v.bid) : NULL);
	json_object_object_add(o, "bidder", replay_j_seat(v.bidder));
	json_object_object_add(o, "bids", bids);
	json_object_object_add(o, "trump_card", replay_j_card(def, v.trump_card));
	json_object_object_add(o, "trump_suit", replay_j_suit(v.trump_suit));
	json_object_object_add(o, "trump_aside", replay_j_bool(v.trump_aside));
	json_object_object_add(o, "revealed", replay_j_bool(v.revealed));
	json_object_object_add(o, "revealed_by", replay_j_seat(v.revealed_by));
	json_object_object_add(o, "must_cut", replay_j_seat(v.must_cut));
	json_object_object_add(o, "centre", json_object_new_int(v.centre));
	json_object_object_add(o, "exchanged", replay_j_bool(v.exchanged));
	json_object_object_add(o, "put_down", replay_j_cards(def, v.putdown));
	json_object_object_add(o, "pile", json_object_new_int(v.npile));
	const t304_trick *t = &v.trick, *l = &v.last_trick;
	json_object_object_add(o, "trick", replay_j_trick(def, t->leader, t->n, t->seat, t->card, t->winner, t->cut));
	json_object_object_add(o, "last_trick", replay_j_trick(def, l->leader, l->n, l->seat, l->card, l->winner, l->cut));
	json_object_object_add(o, "tokens", replay_j_list(v.tokens, v.nsides));
	json_object_object_add(o, "last", v.last.outcome != T304_OUTCOME_NONE ? end_replay(g) : NULL);
	json_object_object_add(o, "legal", replay_j_legal(g, who, v.hand));
	return o;
}

static void refusal_replay(char *buf, size_t len, const game *g, const game_result *res,
			 const char *const names[GAME_MAX_SEATS])
{
	replay_refusal_words(buf, len, g->def, res, names, suit_name(res->a & 3),
		      "bids go in tens from 150 to 300, or 304");
}

static const replay_game replay = { &game_def_trump304, "deal_end", "tokens", view_replay, end_replay, refusal_replay };

static const present_verb verbs[] = {
	PRESENT_VERB_BID,
	{ "exchange", NULL, 2, 2, T_HELP_EXCHANGE },
	{ "keep", NULL, 0, 0, T_HELP_KEEP },
	PRESENT_VERB_PASS,
	PRESENT_VERB_PLAY,
	{ "reveal", NULL, 0, 0, T_HELP_REVEAL },
	PRESENT_VERB_TRUMP,
	PRESENT_VERB_END,
};

static const present_bands bands = { { 0, 200, 250, 304 }, { "150-199", "200-249", "250-300", "304" }, { 0 } };

const present present_trump304 = {
	.def = &game_def_trump304,
	.verbs = verbs,
	.replay = &replay,
	.bands = &bands,
	.page_points_by_bidder = 1,
	.words = &words,
	.cutter_step = 1, /* 002, 2.2: the player to the dealer's left, who is dealt to first */
	.t_warn = T_G_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.t_about = T_ABOUT_T304,
	.t_brief = T_BRIEF_T304,
	.t_name = T_GAME_T304,
	.t_parts = { [PRESENT_PART_NEW] = T_PART_NEW_T304, [PRESENT_PART_NEW_REFUSED] = T_PART_NEW_REFUSED_T304,
		     [PRESENT_PART_STATS] = T_PART_STATS_T304, [PRESENT_PART_CUT] = T_PART_CUT_T304 },
	.timeout_random = 1,
	.live_turn_seconds = 30,
	.t_timed_out = T_G_TIMED_OUT,
	PRESENT_NAMED_FUNCS,
	.rules = rules,
	.last = named_last,
};
