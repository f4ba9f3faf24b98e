/* present_t304.c: Trump304 at a table (seed 002; docs/GAMES.md): 2, 3 or
 * 4 players, the trump card laid face down, the three-player exchange, the
 * reveal, and tokens that change hands after each deal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "t304.h"
#include "present_named.h"

static void card_text(strbuf *b, int c, int style) { render_card(b, (card)c, style); }
static void suit_text(strbuf *b, int x, int style) { (void)style; sb_add(b, text_suit(table_reader_now(), x)); }

static int parse_card(const table *t, int s, const char *w)
{
	char *end;
	long pos = strtol(w, &end, 10);
	t304_view v;
	game_view(t->g, s, &v);
	card c;
	if (!*end && end != w) {
		if (pos < 1 || pos > 16)
			return -1;
		c = render_hand_at((cardset)v.hand, (int)pos);
	} else {
		c = render_parse_card(w);
	}
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
	if (last) {
		out->n = v.last_trick.n;
		memcpy(out->seats, v.last_trick.seat, sizeof v.last_trick.seat);
		memcpy(out->cards, v.last_trick.card, sizeof v.last_trick.card);
		out->winner = v.last_trick.winner;
	} else {
		out->n = v.phase == T304_PHASE_PLAY ? v.trick.n : 0;
		memcpy(out->seats, v.trick.seat, sizeof v.trick.seat);
		memcpy(out->cards, v.trick.card, sizeof v.trick.card);
	}
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
		sb_printf(&b, "%s%s", k++ ? ", " : "", table_txt(line, sizeof line, T_G_PAID, n, from, to));
	}
}

static void deal_end(table *t)
{
	game_outcome o;
	game_outcome_of(t->g, &o);
	if (o.made >= 0 && o.bidder != GAME_NO_SEAT) {
		char bid[16], pts[16];
		snprintf(bid, sizeof bid, "%d", o.bid);
		snprintf(pts, sizeof pts, "%d", o.points[0]);
		table_say(t, o.made ? T_MADE : T_FAILED, table_seat_name(t, o.bidder), bid, pts);
	}
	/* The losers pay the winners (002, 3.0): who paid whom, then the running totals. */
	char a[TABLE_LINE], paid[TABLE_LINE];
	named_scores(t, a, sizeof a);
	payments_text(t, paid, sizeof paid);
	if (paid[0])
		table_say(t, T_G_PAID_LINE, paid, NULL, NULL);
	table_say(t, T_G_TOKENS, a, NULL, NULL);
}

/* The trumper's hand changes when the trump card goes back to it. */
static void hands_changed(table *t, int drew, int revealed)
{
	int turn = table_turn(t);
	if (drew)
		for (int s = 0; s < t->nseats; s++)
			if (s != turn)
				table_send_hand(t, s);
	if (revealed && t->g) {
		t304_view v;
		game_view(t->g, 0, &v);
		if (v.trumper != turn)
			table_send_hand(t, v.trumper);
	}
}

/* "trick 3, spades led, trumps hidden, bid 160 by ann" for seat s. */
static void state(const table *t, int s, named_state *x)
{
	t304_view v;
	game_view(t->g, s, &v);
	x->your_turn = v.turn == s;
	x->bid = v.bid;
	x->bidder = v.bidder;
	switch (v.phase) {
	case T304_PHASE_BID:
		x->phase = NAMED_BIDDING;
		break;
	case T304_PHASE_TRUMP:
	case T304_PHASE_EXCHANGE:
		x->phase = NAMED_WAITING;
		x->t_waiting = v.phase == T304_PHASE_TRUMP ? T_G_STATE_TRUMP : T_G_STATE_EXCHANGE;
		x->waiting = v.trumper;
		break;
	case T304_PHASE_PLAY:
		x->phase = NAMED_PLAYING;
		x->trick_no = v.trick_no;
		x->bidder = v.trumper;
		x->led = v.trick.n ? text_suit(table_reader_now(), card_suit(v.trick.card[0])) : NULL;
		if (v.revealed || (s == v.trumper && v.trump_suit >= 0)) {
			x->t_trumps = v.revealed ? T_STATE_TRUMPS : T_STATE_MY_TRUMP;
			snprintf(x->trumps, sizeof x->trumps, "%s", text_suit(table_reader_now(), v.trump_suit));
		} else {
			x->t_trumps = T_STATE_TRUMP_HIDDEN;
		}
		x->pile = v.npile;
		break;
	default:
		x->phase = NAMED_BETWEEN;
	}
}

static uint64_t held(const table *t, int s)
{
	t304_view v;
	game_view(t->g, s, &v);
	return v.hand;
}

static void cards(const table *t, int s, strbuf *b, uint64_t set, int numbered)
{
	table_sb_hand(b, (cardset)set, table_style_of(t, s), numbered);
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
		sb_add(b, table_txt(part, sizeof part, T_G_HAND_TRUMP_CARD, cs, NULL, NULL));
	}
	if (v.putdown && s == v.trumper && v.phase == T304_PHASE_PLAY && v.trick_no == 0 && v.trick.n == 0) {
		sb_init(&cb, cs, sizeof cs);
		table_sb_hand(&cb, v.putdown, style, 0);
		sb_add(b, table_txt(part, sizeof part, T_G_HAND_PUT_DOWN, cs, NULL, NULL));
	}
	if (named_can(t, l, "trump"))
		sb_add(b, table_txt(part, sizeof part, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL));
	if (named_can(t, l, "exchange") || named_can(t, l, "keep"))
		sb_add(b, table_txt(part, sizeof part, T_G_HAND_EXCHANGE, NULL, NULL, NULL));
}

static const present_named_game words = {
	/* the hand line */
	.state = state, .held = held, .cards = cards, .hand_extras = hand_extras,
	/* cards and suits */
	.card = card_text, .suit = suit_text, .parse_card = parse_card, .t_bad_card = T_BAD_CARD,
	/* bidding and the trump */
	.t_bid_usage = T_USAGE_BID_T304, .t_bidding_won = T_BIDDING_WON, .t_turn_trump = T_G_TURN_TRUMP,
	/* tricks and the end of a deal */
	.trick = trick, .deal_end = deal_end, .hands_changed = hands_changed, .cut_flag = 1,
	.t_terms = T_G_T304_TERMS, .payments = payments_text, .points_by_bidder = 1,
};

static void rules(table *t, char *buf, size_t len)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	char n[16], secs[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	snprintf(secs, sizeof secs, "%d", t->set.live_turn_seconds);
	const char *args[4] = { table_room_shown(t), n, paces[t->set.pace % 3], secs };
	text_fmt_in(table_reader_now(), buf, len, T_G_RULES_T304, 4, args);
}

const present present_trump304 = {
	.def = &game_def_trump304,
	.words = &words,
	.cutter_step = 1, /* 002, 2.2: the player to the dealer's left, who is dealt to first */
	.t_warn = T_G_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.t_about = T_ABOUT_T304,
	.t_brief = T_BRIEF_T304,
	.t_name = T_GAME_T304,
	.timeout_random = 1,
	.t_timed_out = T_G_TIMED_OUT,
	PRESENT_NAMED_FUNCS,
	.rules = rules,
	.last = named_last,
};
