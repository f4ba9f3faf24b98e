/* present_rook.c: Rook at a table (seed 004; docs/GAMES.md): four players
 * in two teams, the nest, a trump colour named by the bidder, a match to
 * 500, and taken tricks that nobody may look at again until the hand ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rook.h"
#include "present_named.h"

static void card_text(strbuf *b, int c, int style) { render_rook_card(b, c, style); }
static void colour_text(strbuf *b, int x, int style) { render_rook_colour(b, x, style); }

static int parse_card(const table *t, int s, const char *w)
{
	char *end;
	long pos = strtol(w, &end, 10);
	rook_view v;
	game_view(t->g, s, &v);
	if (!*end && end != w) {
		if (pos < 1 || pos > 16)
			return -1;
		return render_rook_hand_at(v.hand, v.trump, (int)pos);
	}
	uint8_t c = t->gdef->card_parse(w);
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
	if (last) {
		out->n = v.last_trick.n;
		memcpy(out->seats, v.last_trick.seat, sizeof out->seats);
		memcpy(out->cards, v.last_trick.card, sizeof out->cards);
		out->winner = v.last_trick.winner;
	} else {
		out->n = v.phase == ROOK_PHASE_PLAY ? v.trick.n : 0;
		memcpy(out->seats, v.trick.seat, sizeof out->seats);
		memcpy(out->cards, v.trick.card, sizeof out->cards);
	}
}

static void deal_end(table *t)
{
	game_outcome o;
	game_outcome_of(t->g, &o);
	if (o.made >= 0 && o.bidder != GAME_NO_SEAT) {
		char bid[16], pts[16];
		snprintf(bid, sizeof bid, "%d", o.bid);
		snprintf(pts, sizeof pts, "%d", o.points[o.bidder & 1]);
		table_say(t, o.made ? T_G_ROOK_MADE : T_G_ROOK_SET, table_seat_name(t, o.bidder), bid, pts);
	}
	char x[TEAM_TEXT], y[TEAM_TEXT], sc[64];
	table_side_names(t, 0, x, sizeof x);
	table_side_names(t, 1, y, sizeof y);
	snprintf(sc, sizeof sc, "%ld : %ld", (long)o.score[0], (long)o.score[1]);
	table_say(t, T_G_ROOK_SCORE, x, y, sc);
}

static void hands_changed(table *t, int drew, int revealed)
{
	(void)revealed;
	int turn = table_turn(t);
	if (drew)
		for (int s = 0; s < t->nseats; s++)
			if (s != turn)
				table_send_hand(t, s);
}

static const present_named_game words = {
	.card = card_text,
	.suit = colour_text,
	.parse_card = parse_card,
	.t_bad_card = T_G_BAD_ROOK_CARD,
	.bid_usage = "bid N (70 to 200 in fives)",
	.t_bidding_won = T_G_NEST,
	.t_turn_trump = T_G_TURN_COLOUR,
	.colour_parse = rook_colour_parse,
	.colour_letter = rook_colour_letter,
	.colour_name = rook_colour_name,
	.trick = trick,
	.deal_end = deal_end,
	.hands_changed = hands_changed,
};

static void state_text(table *t, int s, strbuf *b)
{
	char n[32], line[TABLE_LINE];
	sb_printf(b, "%s: ", table_room_shown(t));
	rook_view v;
	game_view(t->g, s, &v);
	switch (v.phase) {
	case ROOK_PHASE_BID:
		sb_add(b, table_txt(n, sizeof n, T_G_STATE_BID, NULL, NULL, NULL));
		if (v.bid) {
			char bid[16];
			snprintf(bid, sizeof bid, "%d", v.bid);
			sb_add(b, table_txt(line, sizeof line, T_G_STATE_HIGH, bid, table_bid_name(t, v.bidder), NULL));
		}
		break;
	case ROOK_PHASE_DISCARD:
	case ROOK_PHASE_TRUMP:
		sb_add(b, table_txt(line, sizeof line, v.phase == ROOK_PHASE_DISCARD ? T_G_STATE_DISCARD : T_G_STATE_TRUMP,
				    table_seat_name(t, v.bidder), NULL, NULL));
		break;
	case ROOK_PHASE_PLAY: {
		char bid[16], col[64];
		snprintf(n, sizeof n, "%d", v.trick_no + 1);
		sb_add(b, table_txt(line, sizeof line, T_STATE_TRICK, n, NULL, NULL));
		strbuf cb;
		sb_init(&cb, col, sizeof col);
		render_rook_colour(&cb, v.trump, table_style_of(t, s));
		sb_add(b, table_txt(line, sizeof line, T_STATE_TRUMPS, col, NULL, NULL));
		snprintf(bid, sizeof bid, "%d", v.bid);
		sb_add(b, table_txt(line, sizeof line, T_STATE_CONTRACT, bid, table_bid_name(t, v.bidder), NULL));
		break;
	}
	default:
		sb_add(b, table_txt(n, sizeof n, T_STATE_BETWEEN, NULL, NULL, NULL));
	}
	if (v.turn == s)
		sb_add(b, table_txt(n, sizeof n, T_STATE_YOUR_TURN, NULL, NULL, NULL));
}

static void hand(table *t, int s)
{
	int style = table_style_of(t, s);
	char line[TABLE_LINE], st[TABLE_LINE], cards[TABLE_LINE], part[TABLE_LINE];
	strbuf b, sb, cb;
	sb_init(&sb, st, sizeof st);
	state_text(t, s, &sb);
	game_legal l;
	game_legal_of(t->g, s, &l);
	rook_view v;
	game_view(t->g, s, &v);
	sb_init(&cb, cards, sizeof cards);
	render_rook_hand(&cb, v.hand, v.trump, style, 1);
	sb_init(&b, line, sizeof line);
	sb_add(&b, table_txt(part, sizeof part, T_HAND, st, cards, NULL));
	if (named_can(t, &l, "discard")) {
		sb_init(&cb, cards, sizeof cards);
		render_rook_hand(&cb, l.cards & v.hand, -1, style, 0);
		sb_add(&b, table_txt(part, sizeof part, T_G_HAND_DISCARD, cards, NULL, NULL));
	}
	if (named_can(t, &l, "trump"))
		sb_add(&b, table_txt(part, sizeof part, T_G_HAND_COLOUR, NULL, NULL, NULL));
	if (named_can(t, &l, "play") && t->set.hints) {
		sb_init(&cb, cards, sizeof cards);
		render_rook_hand(&cb, l.cards & v.hand, v.trump, style, 0);
		sb_add(&b, table_txt(part, sizeof part, T_HAND_MAY_PLAY, cards, NULL, NULL));
	}
	bot_say_story(t->bot, t->net, t->room, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

static void match_start(table *t)
{
	char a[TEAM_TEXT], b[TEAM_TEXT], sides[4 * TABLE_NAME_MAX + 64];
	table_side_names(t, 0, a, sizeof a);
	table_side_names(t, 1, b, sizeof b);
	snprintf(sides, sizeof sides, "%s against %s", a, b);
	table_say(t, T_G_MATCH_STARTS, t->gdef->name, sides, NULL);
	table_say(t, T_G_ROOK_TERMS, NULL, NULL, NULL);
}

static void dealt(table *t)
{
	game_status st;
	game_status_of(t->g, &st);
	char n[16];
	snprintf(n, sizeof n, "%d", st.deal_no);
	table_say(t, T_G_DEAL, n, table_seat_name(t, st.dealer), table_seat_name(t, st.turn));
}

/* 004: "Tricks taken may not be reviewed by any player until the end of
 * the round": only between hands is the last trick shown again. */
static void last(table *t, const char *user, int s)
{
	if (table_turn(t) >= 0)
		table_tell(t, user, T_G_NO_REVIEW, table_room_shown(t), NULL, NULL);
	else
		named_last(t, user, s, &words);
}

static void events(table *t, const game_result *res) { named_events(t, res, &words); }
static void refusal(table *t, const game_result *res, int who, char *buf, size_t len)
{
	named_refusal(t, res, who, buf, len, &words);
}
static int turn(table *t, int s) { return named_turn(t, s, &words); }
static void table_line(table *t, const char *user, strbuf *b) { named_table_line(t, user, b, &words); }
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

static void score(table *t, char *buf, size_t len)
{
	char x[TABLE_LINE];
	if (t->g)
		named_scores(t, x, sizeof x);
	else
		snprintf(x, sizeof x, "-");
	table_txt(buf, len, T_G_SCORE_LINE, t->gdef->name, x, NULL);
}

static void rules(table *t, char *buf, size_t len)
{
	static const char *const paces[] = { "live", "casual", "correspondence" };
	table_txt(buf, len, T_G_RULES_ROOK, table_room_shown(t), paces[t->set.pace % 3], NULL);
}

static void rules_json(const table *t, char *out, size_t len)
{
	(void)t;
	snprintf(out, len, "{}");
}

static void deal_results(const table *t, store_deal_end *end)
{
	game_status st;
	game_status_of(t->g, &st);
	end->match_over = st.over;
	end->winner = st.winner;
	end->tokens[0] = st.score[0];
	end->tokens[1] = st.score[1];
}

const present present_rook = {
	.def = &game_def_rook,
	.cutter_step = -1, /* 004: "the player to his right cuts" */
	.t_warn = T_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.name_in_table_line = 1,
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
