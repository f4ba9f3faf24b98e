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
static void suit_text(strbuf *b, int x, int style) { (void)style; sb_add(b, suit_name(x)); }

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
		memcpy(out->seats, v.last_trick.seat, sizeof out->seats);
		memcpy(out->cards, v.last_trick.card, sizeof out->cards);
		out->winner = v.last_trick.winner;
	} else {
		out->n = v.phase == T304_PHASE_PLAY ? v.trick.n : 0;
		memcpy(out->seats, v.trick.seat, sizeof out->seats);
		memcpy(out->cards, v.trick.card, sizeof out->cards);
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

static const present_named_game words = {
	.card = card_text,
	.suit = suit_text,
	.parse_card = parse_card,
	.t_bad_card = T_BAD_CARD,
	.bid_usage = "bid N (150 to 300 in tens, or 304)",
	.t_bidding_won = T_BIDDING_WON,
	.t_turn_trump = T_G_TURN_TRUMP,
	.trick = trick,
	.deal_end = deal_end,
	.hands_changed = hands_changed,
	.cut_flag = 1,
};

/* "trick 3, spades led, trumps hidden, bid 160 by ann" for seat s. */
static void state_text(table *t, int s, strbuf *b)
{
	char n[32], line[TABLE_LINE];
	sb_printf(b, "%s: ", table_room_shown(t));
	t304_view v;
	game_view(t->g, s, &v);
	switch (v.phase) {
	case T304_PHASE_BID:
		sb_add(b, table_txt(n, sizeof n, T_G_STATE_BID, NULL, NULL, NULL));
		if (v.bid) {
			char bid[16];
			snprintf(bid, sizeof bid, "%d", v.bid);
			sb_add(b, table_txt(line, sizeof line, T_G_STATE_HIGH, bid, table_bid_name(t, v.bidder), NULL));
		}
		break;
	case T304_PHASE_TRUMP:
	case T304_PHASE_EXCHANGE:
		sb_add(b, table_txt(line, sizeof line, v.phase == T304_PHASE_TRUMP ? T_G_STATE_TRUMP : T_G_STATE_EXCHANGE,
				    table_seat_name(t, v.trumper), NULL, NULL));
		break;
	case T304_PHASE_PLAY: {
		char bid[16];
		snprintf(n, sizeof n, "%d", v.trick_no + 1);
		sb_add(b, table_txt(line, sizeof line, T_STATE_TRICK, n, NULL, NULL));
		if (v.trick.n)
			sb_add(b, table_txt(line, sizeof line, T_STATE_LED, suit_name(card_suit(v.trick.card[0])), NULL, NULL));
		if (v.revealed)
			sb_add(b, table_txt(line, sizeof line, T_STATE_TRUMPS, suit_name(v.trump_suit), NULL, NULL));
		else if (s == v.trumper && v.trump_suit >= 0)
			sb_add(b, table_txt(line, sizeof line, T_STATE_MY_TRUMP, suit_name(v.trump_suit), NULL, NULL));
		else
			sb_add(b, table_txt(line, sizeof line, T_STATE_TRUMP_HIDDEN, NULL, NULL, NULL));
		snprintf(bid, sizeof bid, "%d", v.bid);
		sb_add(b, table_txt(line, sizeof line, T_STATE_CONTRACT, bid, table_bid_name(t, v.trumper), NULL));
		if (v.npile) {
			snprintf(n, sizeof n, "%d", v.npile);
			sb_add(b, table_txt(line, sizeof line, T_G_STATE_PILE, n, NULL, NULL));
		}
		break;
	}
	default:
		sb_add(b, table_txt(n, sizeof n, T_STATE_BETWEEN, NULL, NULL, NULL));
	}
	if (v.turn == s)
		sb_add(b, table_txt(n, sizeof n, T_STATE_YOUR_TURN, NULL, NULL, NULL));
}

/* The private hand line: where the game is, the hand with positions, what may be done. */
static void hand(table *t, int s)
{
	int style = table_style_of(t, s);
	char line[TABLE_LINE], st[TABLE_LINE], cards[TABLE_LINE], part[TABLE_LINE];
	strbuf b, sb, cb;
	sb_init(&sb, st, sizeof st);
	state_text(t, s, &sb);
	game_legal l;
	game_legal_of(t->g, s, &l);
	t304_view v;
	game_view(t->g, s, &v);
	sb_init(&cb, cards, sizeof cards);
	render_hand(&cb, (cardset)v.hand, style, 1);
	sb_init(&b, line, sizeof line);
	sb_add(&b, table_txt(part, sizeof part, T_HAND, st, cards, NULL));
	if (s == v.trumper && v.trump_aside && v.trump_card != CARD_NONE) {
		sb_init(&cb, cards, sizeof cards);
		render_card(&cb, v.trump_card, style);
		sb_add(&b, table_txt(part, sizeof part, T_G_HAND_TRUMP_CARD, cards, NULL, NULL));
	}
	if (v.putdown && s == v.trumper && v.phase == T304_PHASE_PLAY && v.trick_no == 0 && v.trick.n == 0) {
		sb_init(&cb, cards, sizeof cards);
		render_hand(&cb, v.putdown, style, 0);
		sb_add(&b, table_txt(part, sizeof part, T_G_HAND_PUT_DOWN, cards, NULL, NULL));
	}
	if (named_can(t, &l, "trump"))
		sb_add(&b, table_txt(part, sizeof part, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL));
	if (named_can(t, &l, "exchange") || named_can(t, &l, "keep"))
		sb_add(&b, table_txt(part, sizeof part, T_G_HAND_EXCHANGE, NULL, NULL, NULL));
	if (named_can(t, &l, "play") && t->set.hints) {
		sb_init(&cb, cards, sizeof cards);
		render_hand(&cb, (cardset)(l.cards & v.hand), style, 0);
		sb_add(&b, table_txt(part, sizeof part, T_HAND_MAY_PLAY, cards, NULL, NULL));
	}
	bot_say_story(t->bot, t->net, t->room, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

static void match_start(table *t)
{
	char sides[4 * TABLE_NAME_MAX + 64];
	strbuf b;
	sb_init(&b, sides, sizeof sides);
	int nsides = t->nseats == 4 ? 2 : t->nseats;
	for (int i = 0; i < nsides; i++) {
		char n[TEAM_TEXT];
		table_side_names(t, i, n, sizeof n);
		sb_printf(&b, "%s%s", i ? " against " : "", n);
	}
	table_say(t, T_G_MATCH_STARTS, t->gdef->name, sides, NULL);
	table_say(t, T_G_T304_TERMS, NULL, NULL, NULL);
}

static void dealt(table *t)
{
	game_status st;
	game_status_of(t->g, &st);
	char n[16];
	snprintf(n, sizeof n, "%d", st.deal_no);
	table_say(t, T_G_DEAL, n, table_seat_name(t, st.dealer), table_seat_name(t, st.turn));
}

static void events(table *t, const game_result *res) { named_events(t, res, &words); }
static void refusal(table *t, const game_result *res, int who, char *buf, size_t len)
{
	named_refusal(t, res, who, buf, len, &words);
}
static int turn(table *t, int s) { return named_turn(t, s, &words); }
static void table_line(table *t, const char *user, strbuf *b) { named_table_line(t, user, b, &words); }
static void last(table *t, const char *user, int s) { named_last(t, user, s, &words); }
static int command(table *t, const char *user, int s, int in_room, int argc, char **argv)
{
	return named_command(t, user, s, in_room, argc, argv, &words);
}
static void hint_text(table *t, int s, const game_action *a, char *buf, size_t len)
{
	(void)s;
	named_hint_text(t, a, buf, len, &words);
}
static void action_json(const table *t, const game_action *a, char *out, size_t len)
{
	named_action_json(t, a, out, len, &words);
}

/* Running totals, and who paid whom in the last deal. */
static void score(table *t, char *buf, size_t len)
{
	char x[TABLE_LINE];
	if (t->g)
		named_scores(t, x, sizeof x);
	else
		snprintf(x, sizeof x, "-");
	if (t->g) {
		char paid[TABLE_LINE], more[TABLE_LINE];
		payments_text(t, paid, sizeof paid);
		if (paid[0]) {
			size_t n = strlen(x);
			table_txt(more, sizeof more, T_G_LAST_DEAL, paid, NULL, NULL);
			snprintf(x + n, sizeof x - n, "%s", more);
		}
	}
	table_txt(buf, len, T_G_SCORE_LINE, t->gdef->name, x, NULL);
}

static void rules(table *t, char *buf, size_t len)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	char n[16], secs[16];
	snprintf(n, sizeof n, "%d", t->nseats);
	snprintf(secs, sizeof secs, "%d", t->set.live_turn_seconds);
	const char *args[4] = { table_room_shown(t), n, paces[t->set.pace % 3], secs };
	text_fmt(buf, len, T_G_RULES_T304, 4, args);
}

static void rules_json(const table *t, char *out, size_t len)
{
	(void)t;
	snprintf(out, len, "{}");
}

/* Statistics are counted for the deal's end and the match's state only. */
static void deal_results(const table *t, store_deal_end *end)
{
	game_status st;
	game_status_of(t->g, &st);
	end->match_over = st.over;
	end->winner = st.winner;
	end->tokens[0] = st.score[0];
	end->tokens[1] = st.score[1];
}

const present present_trump304 = {
	.def = &game_def_trump304,
	.cutter_step = 1, /* 002, 2.2: the player to the dealer's left, who is dealt to first */
	.t_warn = T_G_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.name_in_table_line = 1,
	.timeout_random = 1,
	.t_timed_out = T_G_TIMED_OUT,
	.match_start = match_start,
	.dealt = dealt,
	.events = events,
	.refusal = refusal,
	.hand = hand,
	.turn = turn,
	.table_line = table_line,
	.score = score,
	.rules = rules,
	.last = last,
	.command = command,
	.choose = named_choose,
	.hint_text = hint_text,
	.action_json = action_json,
	.rules_json = rules_json,
	.deal_results = deal_results,
};
