/* present_named.c: the words of games told by the names of their actions
 * and events (see present_named.h). A command that would name a card going
 * face down (a trump card, a discard, an exchange) in the room is refused
 * before it is read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loop.h"
#include "present_named.h"

int named_can(const table *t, const game_legal *l, const char *name)
{
	int a = t->gdef->act_parse(name);
	return a >= 0 && (l->acts >> a & 1);
}

/* The turn line for seat s ("ann: your turn to play."); 0 when the seat
 * has nothing to do. */
int named_turn(table *t, int s)
{
	const present_named_game *g = t->pr->words;
	game_legal l;
	game_legal_of(t->g, s, &l);
	const char *who = t->seats[s].name, *u = t->seats[s].user;
	if (named_can(t, &l, "bid") || (named_can(t, &l, "pass") && !named_can(t, &l, "play"))) {
		char what[128];
		char n[16];
		snprintf(n, sizeof n, "%d", l.bid_min);
		int pass = named_can(t, &l, "pass");
		if (named_can(t, &l, "bid") && l.bid_max <= l.bid_min)
			table_txt(t, what, sizeof what, pass ? T_BID_EXACT_OR_PASS : T_BID_EXACT_MUST, n, NULL, NULL);
		else if (named_can(t, &l, "bid"))
			table_txt(t, what, sizeof what, pass ? T_BID_RANGE : T_BID_MORE, n, NULL, NULL);
		else
			table_txt(t, what, sizeof what, T_BID_PASS_ONLY, NULL, NULL, NULL);
		table_say_to(t, u, T_TURN_BID, who, what, NULL);
	} else if (named_can(t, &l, "trump")) {
		table_say_to(t, u, g->t_turn_trump, who, NULL, NULL);
	} else if (named_can(t, &l, "exchange") || named_can(t, &l, "keep")) {
		table_say_to(t, u, T_G_TURN_EXCHANGE, who, NULL, NULL);
	} else if (named_can(t, &l, "discard")) {
		table_say_to(t, u, T_G_TURN_DISCARD, who, NULL, NULL);
	} else if (named_can(t, &l, "play")) {
		table_say_to(t, u, named_can(t, &l, "reveal") ? T_G_TURN_PLAY_REVEAL : T_TURN_PLAY, who, NULL, NULL);
	} else {
		return 0;
	}
	return 1;
}

void named_refusal(table *t, const game_result *res, int who, char *buf, size_t len)
{
	const present_named_game *g = t->pr->words;
	const char *name = t->gdef->err_name(res->err);
	char x[256]; /* a few words, in any language */
	strbuf b;
	sb_init(&b, x, sizeof x);
	if (!strcmp(name, "not_your_turn")) {
		table_txt(t, buf, len, T_G_REF_TURN, table_seat_name(t, res->a), NULL, NULL);
	} else if (!strcmp(name, "follow_suit")) {
		g->suit(t, &b, res->a, table_style_of(t, who));
		table_txt(t, buf, len, T_G_REF_FOLLOW, x, NULL, NULL);
	} else if (!strcmp(name, "not_in_hand")) {
		table_txt(t, buf, len, T_G_REF_HAND, NULL, NULL, NULL);
	} else if (!strcmp(name, "discard_counter")) {
		table_txt(t, buf, len, T_G_REF_COUNTER, NULL, NULL, NULL);
	} else if (!strcmp(name, "must_cut")) {
		g->suit(t, &b, res->a, table_style_of(t, who));
		table_txt(t, buf, len, T_G_REF_MUST_CUT, x, NULL, NULL);
	} else if (!strncmp(name, "bid_", 4) || !strncmp(name, "dealer_", 7) || !strcmp(name, "last_must_bid")) {
		game_legal l;
		game_legal_of(t->g, who, &l);
		char lo[16], hi[16];
		snprintf(lo, sizeof lo, "%d", l.bid_min);
		snprintf(hi, sizeof hi, "%d", l.bid_max);
		if (named_can(t, &l, "bid") && named_can(t, &l, "pass"))
			table_txt(t, x, sizeof x, T_G_REF_BID_RANGE, lo, hi, NULL);
		else if (named_can(t, &l, "bid"))
			table_txt(t, x, sizeof x, l.bid_max > l.bid_min ? T_G_REF_BID_MUST_MORE : T_G_REF_BID_MUST, lo, NULL, NULL);
		else
			table_txt(t, x, sizeof x, T_G_REF_PASS_ONLY, NULL, NULL, NULL);
		table_txt(t, buf, len, T_G_REF_BID, x, NULL, NULL);
	} else {
		for (size_t i = 0; name[i] && i + 1 < sizeof x; i++)
			x[i] = name[i] == '_' ? ' ' : name[i], x[i + 1] = 0;
		table_txt(t, buf, len, T_G_REF_OTHER, x, NULL, NULL);
	}
}

/* The record's action object (docs/GAMES.md), as record_parse_game reads it. */
void named_action_json(const table *t, const game_action *a, char *out, size_t len)
{
	const present_named_game *g = t->pr->words;
	const char *name = t->gdef->act_name(a->type);
	size_t n = (size_t)snprintf(out, len, "{\"seat\": %d, \"do\": \"%s\"", a->seat, name);
	char code[8];
	if (n >= len)
		return;
	if (!strcmp(name, "bid")) {
		n += (size_t)snprintf(out + n, len - n, ", \"value\": %d", a->value);
	} else if (!strcmp(name, "trump") && g->colour_parse) {
		n += (size_t)snprintf(out + n, len - n, ", \"colour\": \"%c\"", g->colour_letter(a->value));
	} else if (!strcmp(name, "exchange")) {
		char c2[8];
		t->gdef->card_code(a->cards[0], code);
		t->gdef->card_code(a->cards[1], c2);
		n += (size_t)snprintf(out + n, len - n, ", \"cards\": [\"%s\", \"%s\"]", code, c2);
	} else if (!strcmp(name, "trump") || !strcmp(name, "play") || !strcmp(name, "discard")) {
		t->gdef->card_code(a->cards[0], code);
		n += (size_t)snprintf(out + n, len - n, ", \"card\": \"%s\"", code);
	}
	if (n < len)
		snprintf(out + n, len - n, "}");
}

/* The hint, as the command the player would type. */
/* Card c as seat s reads it in its hand, and may type it back: "J\u2660"
 * and "14R", or "JS" after `ascii on` (without the colours of IRC). */
static const char *typed_card(const table *t, int s, int c, char *out, size_t len)
{
	const present_named_game *g = t->pr->words;
	strbuf b;
	sb_init(&b, out, len);
	g->card(&b, c, table_style_of(t, s));
	render_plain(out);
	return out;
}

void named_hint_text(table *t, int s, const game_action *a, char *buf, size_t len)
{
	const present_named_game *g = t->pr->words;
	char code[32], c2[32];
	const char *name = t->gdef->act_name(a->type);
	if (!strcmp(name, "bid")) {
		snprintf(buf, len, "bid %d", a->value);
	} else if (!strcmp(name, "trump") && g->colour_parse) {
		snprintf(buf, len, "trump %s", g->colour_name(a->value));
	} else if (!strcmp(name, "exchange")) {
		snprintf(buf, len, "exchange %s %s", typed_card(t, s, a->cards[0], code, sizeof code),
			 typed_card(t, s, a->cards[1], c2, sizeof c2));
	} else if (!strcmp(name, "trump") || !strcmp(name, "play") || !strcmp(name, "discard")) {
		snprintf(buf, len, "%s %s", name, typed_card(t, s, a->cards[0], code, sizeof code));
	} else {
		snprintf(buf, len, "%s", name);
	}
}

void named_events(table *t, const game_result *res)
{
	const present_named_game *g = t->pr->words;
	const game_def *d = t->gdef;
	char c[64], n[32];
	strbuf b;
	int drew = 0, revealed = 0;
	for (int i = 0; i < res->nevents; i++) {
		const game_event *e = &res->events[i];
		const char *ev = d->ev_name(e->type);
		const char *who = table_seat_name(t, e->seat);
		int cut = g->cut_flag && (e->flags & 1);
		snprintf(n, sizeof n, "%d", e->value);
		/* Brief: the move the room saw typed is not said again. */
		if (i == 0 && t->seen_seat >= 0 && e->seat == t->seen_seat
		    && (!strcmp(ev, "bid") || !strcmp(ev, "pass") || (!strcmp(ev, "played") && !cut)))
			continue;
		if (!strcmp(ev, "bid")) {
			if (e->seat < TABLE_SEATS)
				snprintf(t->bid_by[e->seat], sizeof t->bid_by[0], "%s", who);
			table_say(t, T_BID, who, n, NULL);
		} else if (!strcmp(ev, "pass")) {
			table_say(t, T_PASS, who, NULL, NULL);
		} else if (!strcmp(ev, "bidding_won")) {
			table_say(t, g->t_bidding_won, table_bid_name(t, e->seat), n, NULL);
		} else if (!strcmp(ev, "trump_set")) {
			table_say(t, T_TRUMP_SET, who, NULL, NULL);
		} else if (!strcmp(ev, "exchanged")) {
			table_say(t, e->flags & 1 ? T_G_EXCHANGED : T_G_KEPT, who, NULL, NULL);
		} else if (!strcmp(ev, "play_starts")) {
			table_say(t, T_G_LEADS, who, NULL, NULL);
		} else if (!strcmp(ev, "revealed")) {
			sb_init(&b, c, sizeof c);
			g->card(&b, e->card, RENDER_COLOUR);
			const char *suit = e->card < CARD_COUNT ? text_suit(table_reader_now(t), card_suit(e->card)) : "?";
			if (e->flags & 1)
				table_say(t, T_G_REVEAL_ASKED, who, suit, c);
			else if (e->flags & 2)
				table_say(t, T_G_REVEAL_SELF, who, suit, c);
			else
				table_say(t, T_G_REVEAL_LAST, suit, c, NULL);
			revealed = 1;
		} else if (!strcmp(ev, "played")) {
			sb_init(&b, c, sizeof c);
			g->card(&b, e->card, RENDER_COLOUR);
			table_say(t, cut ? T_G_CUT : T_PLAYED, who, c, NULL);
		} else if (!strcmp(ev, "trick")) {
			snprintf(n, sizeof n, "%d", e->value + 1);
			table_say(t, T_TRICK, who, n, NULL);
		} else if (!strcmp(ev, "draw")) {
			table_say(t, T_G_DRAW, who, n, NULL);
			drew = 1;
		} else if (!strcmp(ev, "spoilt")) {
			table_say(t, T_G_SPOILT, who, NULL, NULL);
		} else if (!strcmp(ev, "discarded")) {
			table_say(t, T_G_DISCARDED, who, NULL, NULL);
		} else if (!strcmp(ev, "trump")) {
			sb_init(&b, c, sizeof c);
			g->suit(t, &b, e->value, RENDER_COLOUR);
			table_say(t, T_G_TRUMP_COLOUR, who, c, NULL);
		} else if (!strcmp(ev, "deal_end") || !strcmp(ev, "hand_end")) {
			/* The deal's result in a line of its own, after its last trick. */
			if (!t->set.brief)
				table_flush(t);
			g->deal_end(t);
		} else if (!strcmp(ev, "match_end")) {
			char a[TEAM_TEXT];
			table_side_names(t, e->seat & 1, a, sizeof a);
			table_say(t, T_MATCH_WON, a, NULL, NULL);
		}
	}
	/* What happened, then the hands it changed. */
	if ((drew || revealed) && !t->set.brief)
		table_flush(t);
	int turn = table_turn(t);
	if (drew)
		for (int s = 0; s < t->nseats; s++)
			if (s != turn)
				table_send_hand(t, s);
	if (g->hands_changed)
		g->hands_changed(t, revealed);
}

void named_trick_cards(named_trick *out, int n, const uint8_t *seats, const uint8_t *cards, size_t size, int winner)
{
	out->n = n;
	memcpy(out->seats, seats, size < sizeof out->seats ? size : sizeof out->seats);
	memcpy(out->cards, cards, size < sizeof out->cards ? size : sizeof out->cards);
	out->winner = (uint8_t)winner;
}

void named_verdict(table *t, const game_outcome *o)
{
	const present_named_game *g = t->pr->words;
	if (o->made < 0 || o->bidder == GAME_NO_SEAT)
		return;
	char bid[16], pts[16];
	snprintf(bid, sizeof bid, "%d", o->bid);
	snprintf(pts, sizeof pts, "%d", o->points[g->points_by_bidder ? 0 : o->bidder & 1]);
	table_say(t, o->made ? g->t_made : g->t_set, table_seat_name(t, o->bidder), bid, pts);
}

void named_state_of(const table *t, int s, named_state *x)
{
	const present_named_game *g = t->pr->words;
	game_status st;
	game_status_of(t->g, &st);
	memset(x, 0, sizeof *x);
	x->your_turn = st.turn == s;
	if ((int)st.phase < g->nphases) {
		x->phase = g->phases[st.phase].named;
		x->t_waiting = g->phases[st.phase].t_waiting;
	}
	g->state(t, s, x);
}

/* A card by its position in seat s's hand as shown, or by its name; -1: neither. */
static int parse_card(const table *t, int s, const char *w, const present_named_game *g)
{
	char *end;
	long pos = strtol(w, &end, 10);
	if (*end || end == w)
		return g->card_word(w);
	named_state x;
	named_state_of(t, s, &x);
	return pos < 1 || pos > 16 ? -1 : g->hand_at(t, s, x.hand, (int)pos);
}

static int card_arg(table *t, const char *user, int s, const char *w, const present_named_game *g)
{
	int c = parse_card(t, s, w, g);
	if (c < 0)
		table_bad_card(t, user, w, g->t_bad_card);
	return c;
}

int named_command(table *t, const char *user, int s, int in_room, int argc, char **argv)
{
	const present_named_game *g = t->pr->words;
	const char *w = argv[0];
	int type = t->gdef->act_parse(w);
	if (type < 0)
		return 0;
	game_action a;
	memset(&a, 0, sizeof a);
	a.type = (uint8_t)type;
	a.seat = (uint8_t)s;
	if (!strcmp(w, "bid")) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (*end || end == argv[1] || v < 0 || v > 999) {
			char u[128];
			table_tell(t, user, T_USAGE, table_txt(t, u, sizeof u, g->t_bid_usage, NULL, NULL, NULL), NULL, NULL);
			table_refused_in_room(t, user, in_room);
			return 1;
		}
		a.value = (uint16_t)v;
	} else if (!strcmp(w, "trump") && g->colour_parse) {
		int col = g->colour_parse(argv[1]);
		if (col < 0) {
			table_tell(t, user, T_G_BAD_COLOUR, argv[1], NULL, NULL);
			return 1;
		}
		a.value = (uint16_t)col;
	} else if (!strcmp(w, "trump") || !strcmp(w, "discard") || !strcmp(w, "exchange")) {
		/* Each names a card that goes face down: never in the channel. */
		if (in_room) {
			table_tell(t, user, !strcmp(w, "trump") ? T_TRUMP_PRIVATELY : T_G_PRIVATELY, table_room_shown(t),
				   NULL, NULL);
			table_refused_in_room(t, user, in_room);
			return 1;
		}
		int need = !strcmp(w, "exchange") ? 2 : 1;
		if (argc - 1 != need) {
			char u[128];
			table_tell(t, user, T_USAGE, table_txt(t, u, sizeof u, need == 2 ? T_USAGE_EXCHANGE : T_USAGE_DISCARD, NULL,
							       NULL, NULL), NULL, NULL);
			return 1;
		}
		for (int i = 0; i < need; i++) {
			int c = card_arg(t, user, s, argv[1 + i], g);
			if (c < 0)
				return 1;
			a.cards[a.ncards++] = (uint8_t)c;
		}
	} else if (!strcmp(w, "play")) {
		int c = card_arg(t, user, s, argv[1], g);
		if (c < 0) {
			table_refused_in_room(t, user, in_room);
			return 1;
		}
		a.cards[a.ncards++] = (uint8_t)c;
	}
	/* Brief: a bid, a pass or a card named (not "!p 3", a position) in the
	 * room need not be repeated; see named_events. */
	t->seen_seat = -1;
	if (in_room && (!strcmp(w, "bid") || !strcmp(w, "pass")
			|| (!strcmp(w, "play") && strspn(argv[1], "0123456789") != strlen(argv[1]))))
		table_seen(t, s);
	table_act(t, &a, user);
	t->seen_seat = -1;
	return 1;
}

void named_last(table *t, const char *user, int s)
{
	const present_named_game *g = t->pr->words;
	named_trick x;
	g->trick(t, s, 1, &x);
	if (!x.n) {
		table_tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		return;
	}
	char cl[TABLE_LINE], line[TABLE_LINE], num[16];
	strbuf b;
	sb_init(&b, cl, sizeof cl);
	for (int k = 0; k < x.n; k++) {
		sb_printf(&b, " %s ", table_seat_name(t, x.seats[k]));
		g->card(&b, x.cards[k], table_style_of(t, s));
	}
	snprintf(num, sizeof num, "%d", x.trick_no);
	const char *args[4] = { table_room_shown(t), num, cl, table_seat_name(t, x.winner) };
	text_fmt_in(table_reader_now(t), line, sizeof line, T_LAST_TRICK, 4, args);
	table_say_private(t, user, line, ADAPTER_NOTICE);
}

void named_scores(const table *t, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	game_status st;
	game_status_of(t->g, &st);
	for (int i = 0; i < st.nsides && i < GAME_MAX_SIDES; i++) {
		char n[TEAM_TEXT];
		table_side_names(t, i, n, sizeof n);
		sb_printf(&b, "%s%s %ld", i ? ", " : "", n, (long)st.score[i]);
	}
}

void named_table_line(table *t, const char *user, strbuf *b)
{
	const present_named_game *g = t->pr->words;
	char x[TABLE_LINE], y[TABLE_LINE], n[64];
	named_scores(t, x, sizeof x);
	sb_printf(b, " | %s", x);
	int turn = table_turn(t);
	game_status st;
	game_status_of(t->g, &st);
	if (turn >= 0)
		sb_add(b, table_txt(t, y, sizeof y, T_TABLE_WAITING, table_seat_name(t, turn), table_phase_word(t, t->gdef->phase_name(st.phase)),
				    NULL));
	int me = table_seat_of(t, user);
	/* Only what all may see: the trick, a named or revealed trump, the bid. */
	named_trick tr;
	g->trick(t, me, 0, &tr);
	if (tr.n) {
		strbuf cb;
		sb_init(&cb, x, sizeof x);
		for (int k = 0; k < tr.n; k++) {
			sb_printf(&cb, " %s ", table_seat_name(t, tr.seats[k]));
			g->card(&cb, tr.cards[k], RENDER_COLOUR);
		}
		snprintf(n, sizeof n, "%d", tr.trick_no + 1);
		sb_add(b, table_txt(t, y, sizeof y, T_TABLE_TRICK, n, x, NULL));
	}
	if (tr.trump >= 0) {
		strbuf cb;
		sb_init(&cb, x, sizeof x);
		g->suit(t, &cb, tr.trump, RENDER_COLOUR);
		sb_add(b, table_txt(t, y, sizeof y, T_TABLE_TRUMPS, x, NULL, NULL));
	}
	if (tr.bid) {
		snprintf(n, sizeof n, "%d", tr.bid);
		sb_add(b, table_txt(t, y, sizeof y, T_TABLE_HIGH_BID, n, table_seat_name(t, tr.bidder), NULL));
	}
	if (t->move_by) {
		int64_t left = (t->move_by - loop_now()) / 1000;
		snprintf(n, sizeof n, "%lld", (long long)(left > 0 ? left : 0));
		sb_add(b, table_txt(t, y, sizeof y, T_TABLE_TIME_LEFT, n, NULL, NULL));
	}
}

void named_deal_results(const table *t, store_deal_end *end)
{
	int by_bidder = ((const present_named_game *)t->pr->words)->points_by_bidder;
	game_status st;
	game_outcome o;
	game_status_of(t->g, &st);
	game_outcome_of(t->g, &o);
	memset(end, 0, sizeof *end);
	int nsides = o.nsides < GAME_MAX_SIDES ? o.nsides : GAME_MAX_SIDES;
	long total = 0;
	for (int i = 0; i < nsides; i++)
		total += o.change[i];
	int bidder = o.bidder < t->nseats ? o.bidder : -1;
	int bidder_side = bidder < 0 ? -1 : t->nseats == 4 ? (bidder & 1) : bidder;
	for (int s = 0; s < t->nseats && s < 4; s++) {
		int side = t->nseats == 4 ? (s & 1) : s;
		store_result *r = &end->seats[s];
		table_result_seat(t, s, r);
		r->team = side;
		r->outcome = o.ended ? o.outcome : "none";
		r->trumper = s == bidder;
		r->bid = bidder < 0 ? 0 : o.bid;
		r->made = bidder < 0 ? -1 : o.made;
		r->won = side < nsides && (long)o.change[side] * nsides > total;
		r->points = by_bidder ? o.points[side == bidder_side ? 0 : 1] : o.points[side & 1];
		r->caps = "none";
	}
	end->match_over = st.over;
	end->winner = st.winner;
	end->tokens[0] = st.score[0];
	end->tokens[1] = st.score[1];
}

/* "#room: trick 3, spades led, trumps hidden, bid 160 by ann, your turn" */
static void state_text(table *t, strbuf *b, const named_state *x)
{
	char n[32], line[TABLE_LINE];
	sb_printf(b, "%s: ", table_room_shown(t));
	switch (x->phase) {
	case NAMED_BIDDING:
		sb_add(b, table_txt(t, n, sizeof n, T_G_STATE_BID, NULL, NULL, NULL));
		if (x->bid) {
			snprintf(n, sizeof n, "%d", x->bid);
			sb_add(b, table_txt(t, line, sizeof line, T_G_STATE_HIGH, n, table_bid_name(t, x->bidder), NULL));
		}
		break;
	case NAMED_WAITING:
		sb_add(b, table_txt(t, line, sizeof line, x->t_waiting, table_seat_name(t, x->waiting), NULL, NULL));
		break;
	case NAMED_PLAYING:
		snprintf(n, sizeof n, "%d", x->trick_no + 1);
		sb_add(b, table_txt(t, line, sizeof line, T_STATE_TRICK, n, NULL, NULL));
		if (x->led)
			sb_add(b, table_txt(t, line, sizeof line, T_STATE_LED, x->led, NULL, NULL));
		if (x->t_trumps)
			sb_add(b, table_txt(t, line, sizeof line, x->t_trumps, x->trumps, NULL, NULL));
		snprintf(n, sizeof n, "%d", x->bid);
		sb_add(b, table_txt(t, line, sizeof line, T_STATE_CONTRACT, n, table_bid_name(t, x->bidder), NULL));
		if (x->pile) {
			snprintf(n, sizeof n, "%d", x->pile);
			sb_add(b, table_txt(t, line, sizeof line, T_G_STATE_PILE, n, NULL, NULL));
		}
		break;
	default:
		sb_add(b, table_txt(t, n, sizeof n, T_STATE_BETWEEN, NULL, NULL, NULL));
	}
	if (x->your_turn)
		sb_add(b, table_txt(t, n, sizeof n, T_STATE_YOUR_TURN, NULL, NULL, NULL));
}

/* The private hand line: where the game is, the hand with positions, what may be done. */
int named_cards_held(const table *t, int s)
{
	named_state x;
	named_state_of(t, s, &x);
	return __builtin_popcountll(x.hand);
}

void named_hand(table *t, int s)
{
	const present_named_game *g = t->pr->words;
	char line[TABLE_LINE], st[TABLE_LINE], cards[TABLE_LINE], part[TABLE_LINE];
	strbuf b, sb, cb;
	named_state x;
	named_state_of(t, s, &x);
	sb_init(&sb, st, sizeof st);
	state_text(t, &sb, &x);
	game_legal l;
	game_legal_of(t->g, s, &l);
	uint64_t held = x.hand;
	sb_init(&cb, cards, sizeof cards);
	g->cards(t, s, &cb, held, 1);
	sb_init(&b, line, sizeof line);
	sb_add(&b, table_txt(t, part, sizeof part, T_HAND, st, cards, NULL));
	if (g->hand_extras)
		g->hand_extras(t, s, &l, &b);
	if (named_can(t, &l, "play") && t->set.hints) {
		sb_init(&cb, cards, sizeof cards);
		g->cards(t, s, &cb, l.cards & held, 0);
		sb_add(&b, table_txt(t, part, sizeof part, T_HAND_MAY_PLAY, cards, NULL, NULL));
	}
	table_say_story(t, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

void named_match_start(table *t)
{
	/* "A & C against B & D" or "A against B" in the room's words; three
	 * who each play on their own are listed as such. */
	char sides[4 * TABLE_NAME_MAX + 64] = "", list[sizeof sides] = "";
	int nsides = t->nseats == 4 ? 2 : t->nseats;
	char n[2][TEAM_TEXT];
	table_side_names(t, 0, n[0], sizeof n[0]);
	table_side_names(t, 1, n[1], sizeof n[1]);
	const char *args[2] = { n[0], n[1] };
	if (nsides > 2) {
		strbuf lb; /* cut short, if ever, by sb_printf */
		sb_init(&lb, list, sizeof list);
		for (int i = 0; i < nsides; i++) {
			char one[TEAM_TEXT];
			table_side_names(t, i, one, sizeof one);
			sb_printf(&lb, "%s%s", i ? ", " : "", one);
		}
		args[0] = list;
	}
	text_fmt_in(table_lang(t), sides, sizeof sides, nsides > 2 ? T_G_SIDES_ALONE : T_G_SIDES_AGAINST, 2, args);
	char g[64];
	table_say(t, T_G_MATCH_STARTS, table_game_shown(table_lang(t), g, sizeof g, t->gdef->name), sides, NULL);
	table_say(t, ((const present_named_game *)t->pr->words)->t_terms, NULL, NULL, NULL);
}

void named_dealt(table *t)
{
	game_status st;
	game_status_of(t->g, &st);
	char n[16];
	snprintf(n, sizeof n, "%d", st.deal_no);
	table_say(t, T_G_DEAL, n, table_seat_name(t, st.dealer), table_seat_name(t, st.turn));
}

void named_score(table *t, char *buf, size_t len)
{
	const present_named_game *g = t->pr->words;
	char x[TABLE_LINE];
	if (t->g)
		named_scores(t, x, sizeof x);
	else
		snprintf(x, sizeof x, "-");
	if (t->g && g->payments) {
		/* Who paid whom in the last deal, after the running totals. */
		char paid[TABLE_LINE], more[TABLE_LINE];
		g->payments(t, paid, sizeof paid);
		if (paid[0]) {
			size_t n = strlen(x);
			table_txt(t, more, sizeof more, T_G_LAST_DEAL, paid, NULL, NULL);
			snprintf(x + n, sizeof x - n, "%s", more);
		}
	}
	char gw[64];
	table_txt(t, buf, len, T_G_SCORE_LINE, table_game_shown(table_reader_now(t), gw, sizeof gw, t->gdef->name), x, NULL);
}

int named_choose(table *t, int s, int why, game_action *a)
{
	return table_think(t, s, why, a);
}
