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
static void colour_text(strbuf *b, int x, int style)
{
	render_rook_colour_word(b, x, text_rook_colour(table_reader_now(), x), style);
}

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
		memcpy(out->seats, v.last_trick.seat, sizeof v.last_trick.seat);
		memcpy(out->cards, v.last_trick.card, sizeof v.last_trick.card);
		out->winner = v.last_trick.winner;
	} else {
		out->n = v.phase == ROOK_PHASE_PLAY ? v.trick.n : 0;
		memcpy(out->seats, v.trick.seat, sizeof v.trick.seat);
		memcpy(out->cards, v.trick.card, sizeof v.trick.card);
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

static void state(const table *t, int s, named_state *x)
{
	rook_view v;
	game_view(t->g, s, &v);
	x->your_turn = v.turn == s;
	x->bid = v.bid;
	x->bidder = v.bidder;
	switch (v.phase) {
	case ROOK_PHASE_BID:
		x->phase = NAMED_BIDDING;
		break;
	case ROOK_PHASE_DISCARD:
	case ROOK_PHASE_TRUMP:
		x->phase = NAMED_WAITING;
		x->t_waiting = v.phase == ROOK_PHASE_DISCARD ? T_G_STATE_DISCARD : T_G_STATE_TRUMP;
		x->waiting = v.bidder;
		break;
	case ROOK_PHASE_PLAY: {
		x->phase = NAMED_PLAYING;
		x->trick_no = v.trick_no;
		x->t_trumps = T_STATE_TRUMPS;
		strbuf cb;
		sb_init(&cb, x->trumps, sizeof x->trumps);
		render_rook_colour(&cb, v.trump, table_style_of(t, s));
		break;
	}
	default:
		x->phase = NAMED_BETWEEN;
	}
}

static uint64_t held(const table *t, int s)
{
	rook_view v;
	game_view(t->g, s, &v);
	return v.hand;
}

/* A hand shows trumps last once the colour is named. */
static void cards(const table *t, int s, strbuf *b, uint64_t set, int numbered)
{
	rook_view v;
	game_view(t->g, s, &v);
	render_rook_hand(b, set, v.trump, table_style_of(t, s), numbered);
}

/* After the nest card: what may be discarded; the colour to name. */
static void hand_extras(table *t, int s, const game_legal *l, strbuf *b)
{
	char cs[TABLE_LINE], part[TABLE_LINE];
	if (named_can(t, l, "discard")) {
		strbuf cb;
		sb_init(&cb, cs, sizeof cs);
		render_rook_hand(&cb, l->cards & held(t, s), -1, table_style_of(t, s), 0);
		sb_add(b, table_txt(part, sizeof part, T_G_HAND_DISCARD, cs, NULL, NULL));
	}
	if (named_can(t, l, "trump"))
		sb_add(b, table_txt(part, sizeof part, T_G_HAND_COLOUR, NULL, NULL, NULL));
}

static const present_named_game words = {
	/* the hand line */
	.state = state, .held = held, .cards = cards, .hand_extras = hand_extras,
	/* cards and suits */
	.card = card_text, .suit = colour_text, .parse_card = parse_card, .t_bad_card = T_G_BAD_ROOK_CARD,
	/* bidding and the trump */
	.t_bid_usage = T_USAGE_BID_ROOK, .t_bidding_won = T_G_NEST, .t_turn_trump = T_G_TURN_COLOUR,
	.colour_parse = rook_colour_parse, .colour_letter = rook_colour_letter, .colour_name = rook_colour_name,
	/* tricks and the end of a deal */
	.trick = trick, .deal_end = deal_end, .hands_changed = hands_changed, .t_terms = T_G_ROOK_TERMS,
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
	table_txt(buf, len, T_G_RULES_ROOK, table_room_shown(t), paces[t->set.pace % 3], NULL);
}

const present present_rook = {
	.def = &game_def_rook,
	.words = &words,
	.stats_matches = 1,
	.cutter_step = -1, /* 004: "the player to his right cuts" */
	.t_warn = T_WARN,
	.t_ready = T_G_READY,
	.t_need_seats = T_G_NEED_SEATS,
	.t_about = T_ABOUT_ROOK,
	.t_brief = T_BRIEF_ROOK,
	.t_name = T_GAME_ROOK,
	PRESENT_NAMED_FUNCS,
	.rules = rules,
	.last = last,
};
