/* present_304.c: 304 at a table, at every table size (seeds 000 and 001,
 * RULES.md, docs/GAMES.md): bidding in two rounds with partners, the trump
 * card laid face down, face-down plays and the trumper's private look at
 * them, spoilt trumps, caps and `finish`, open games, tokens, and computer
 * players (players that search, through the game's ai entry, on the worker
 * thread, bot/table/ai_worker.c).
 *
 * The one file of bot/ that plays 304 through the typed engine API
 * (engine/g304/g304.h): the table hands it the match as a game
 * (engine/core/game.h) whose state is a g304 at some table size. What a
 * size changes (seats, tricks, the pack, the words of its second round) is
 * read from the game, so each rule's words are written once for every size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <json-c/json.h>
#include "ai_worker.h"
#include "g304_ai.h"
#include "g304_simple.h"
#include "g304_random.h"
#include "g304_options.h"
#include "log.h"
#include "loop.h"
#include "record.h"
#include "replay.h"
#include "table_int.h"
#include "table_store.h"

/* ---- the match at any table size ---- */

static const g304 *G(const table *t) { return t->g->state; }
static void state_of(const table *t, g304 *f) { *f = *G(t); }
static void view_of(const table *t, int s, g304_view *v) { g304_view_of(G(t), s, v); }
static void legal_of(const table *t, int s, g304_legal *l) { g304_legal_of(G(t), s, l); }
static const g304_pack *pack_of(const table *t) { return g304_variant_of(&G(t)->rules)->pack; }
static int nseats_of(const table *t) { return G(t)->seats; }
static int ntricks_of(const table *t) { return G(t)->ntricks; }
static int fsuit(const table *t, card c) { return g304_pack_suit_of(pack_of(t), c); }
static uint64_t fbit(card c) { return (uint64_t)1 << c; }

/* The words that name a table size's second round and its numbers. */
typedef struct size_words {
	int state_bid2, match_starts, dealt_rest, bid2_won, rules, state_bid1, state_bid1_high;
} size_words;
/* A size's row: its second round's number (the state and the won bid
 * share it), its match, dealt-rest and rules words, and its first round's
 * number (the state and its "high" line share it). */
#define SIZE_WORDS(N2, STARTS, REST, RULES, N1) \
	{ T_STATE_BID##N2, STARTS, REST, T_BID##N2##_WON, RULES, T_STATE_BID##N1, T_STATE_BID##N1##_HIGH }
static const size_words size_words_of[G304_SIZE_COUNT] = {
	[G304_SIZE_FOUR] = SIZE_WORDS(8, T_MATCH_STARTS, T_DEALT_REST, T_RULES, 4),
	[G304_SIZE_SIX] = SIZE_WORDS(6, T_MATCH_STARTS6, T_DEALT_REST6, T_RULES6, 4),
	/* Eight players bid on three cards and have no second round
	 * (state_bid2, bid2_won unused). */
	[G304_SIZE_EIGHT] = SIZE_WORDS(8, T_MATCH_STARTS8, T_DEALT_REST8, T_RULES8, 3),
	/* The 24-card six-player game: as eight players deal and bid. */
	[G304_SIZE_SIX24] = SIZE_WORDS(8, T_MATCH_STARTS6S, T_DEALT_REST8, T_RULES6S, 3),
	/* 504 deals and bids as six players do; 904 has a five-card second round. */
	[G304_SIZE_504] = SIZE_WORDS(6, T_MATCH_STARTS504, T_DEALT_REST6, T_RULES504, 4),
	[G304_SIZE_904] = SIZE_WORDS(5, T_MATCH_STARTS904, T_DEALT_REST5, T_RULES904, 4),
};
/* By the table's game, not its match: before the first deal there is none,
 * and after `!new 304 6` the last match is still the four-player one. */
static const size_words *words_of(const table *t)
{
	for (int z = 0; z < G304_SIZE_COUNT; z++)
		if (!strcmp(g304_variants[z].name, t->gdef->name))
			return &size_words_of[z];
	return &size_words_of[G304_SIZE_FOUR];
}

/* Cards in the match's pack (its game_def: after `!new` the table's game
 * may already be another size's). */
static void fcard(const table *t, strbuf *b, card c, int style) { render_card_of(b, t->g->def, c, style); }

/* A hand as table_sb_hand shows it, in the game's pack. */
static void fhand(const table *t, strbuf *b, uint64_t set, int style, int numbered)
{
	if (!set)
		table_sb_txt(t, b, T_NONE, NULL, NULL, NULL);
	else
		render_hand_of(b, t->g->def, set, style, numbered);
}

static card fparse(const table *t, const char *word) { return render_parse_card_of(t->g->def, word); }

/* The partner a seat asks in the four-card bidding: the next of its team. */
static int asked_partner(const table *t, int s) { return (s + 2) % nseats_of(t); }

static void room_card(const table *t, card c, char *buf, size_t len)
{
	strbuf b;
	sb_init(&b, buf, len);
	fcard(t, &b, c, RENDER_COLOUR);
}

static void bid_text(int bid, char *buf, size_t len)
{
	if (bid >= G304_BID_PCC)
		snprintf(buf, len, "pcc");
	else
		snprintf(buf, len, "%d", bid);
}

/* "ann & cat", or with six "ann, cat & eve": a team's seats, or with
 * but >= 0 the team of seat `but` without it (who sits out of a pcc). */
static void team_names_but(const table *t, int team, int but, char *buf, size_t len)
{
	const char *names[G304_SEATS_MAX];
	int n = 0;
	for (int s = team; s < nseats_of(t); s += 2)
		if (s != but)
			names[n++] = table_seat_name(t, s);
	strbuf b;
	sb_init(&b, buf, len);
	for (int i = 0; i < n; i++)
		sb_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " & " : ", ", names[i]);
}

static void team_names(const table *t, int team, char *buf, size_t len)
{
	team_names_but(t, team, -1, buf, len);
}

/* ---- what a seat is told privately ---- */

/* "trick 3, spades led, trump hidden" for a seat. */
static void state_line(const table *t, int s, char *buf, size_t len)
{
	g304_view v;
	view_of(t, s, &v);
	strbuf b;
	sb_init(&b, buf, len);
	sb_printf(&b, "%s: ", table_room_shown(t));
	char n[32], m[32];
	switch (v.phase) {
	case G304_PHASE_BID4:
		snprintf(n, sizeof n, "%d", v.bid);
		table_sb_txt(t, &b, v.bid ? words_of(t)->state_bid1_high : words_of(t)->state_bid1, n,
			     table_bid_name(t, v.bidder), NULL);
		break;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		table_sb_txt(t, &b, T_STATE_TRUMP, table_seat_name(t, v.trumper), NULL, NULL);
		break;
	case G304_PHASE_BID8:
		snprintf(n, sizeof n, "%d", v.bid);
		table_sb_txt(t, &b, words_of(t)->state_bid2, n, NULL, NULL);
		break;
	case G304_PHASE_PLAY: {
		const g304_trick *tr = &v.tricks[v.ntricks - 1];
		snprintf(n, sizeof n, "%d", v.ntricks);
		table_sb_txt(t, &b, T_STATE_TRICK, n, NULL, NULL);
		if (tr->n)
			table_sb_txt(t, &b, T_STATE_LED, text_suit(table_reader_now(t), fsuit(t, tr->card[0])), NULL, NULL);
		if (v.trump_open)
			table_sb_txt(t, &b, T_STATE_TRUMPS, text_suit(table_reader_now(t), v.trump_suit), NULL, NULL);
		else if (s == v.trumper)
			table_sb_txt(t, &b, T_STATE_MY_TRUMP, text_suit(table_reader_now(t), v.trump_suit), NULL, NULL);
		else
			table_sb_txt(t, &b, T_STATE_TRUMP_HIDDEN, NULL, NULL, NULL);
		bid_text(v.bid, m, sizeof m);
		table_sb_txt(t, &b, T_STATE_CONTRACT, m, table_bid_name(t, v.trumper), NULL);
		break;
	}
	default:
		table_sb_txt(t, &b, T_STATE_BETWEEN, NULL, NULL, NULL);
	}
	if (v.turn == s)
		table_sb_txt(t, &b, T_STATE_YOUR_TURN, NULL, NULL, NULL);
}

/* The private hand line: table, state, hand with positions, legal cards. */
static void hand(table *t, int s)
{
	g304_view v;
	g304_legal l;
	view_of(t, s, &v);
	legal_of(t, s, &l);
	char line[TABLE_LINE], st[256];
	strbuf b;
	sb_init(&b, line, sizeof line);
	state_line(t, s, st, sizeof st);
	char cards[TABLE_LINE];
	strbuf cb;
	sb_init(&cb, cards, sizeof cards);
	fhand(t, &cb, v.hand, table_style_of(t, s), 1);
	table_sb_txt(t, &b, T_HAND, st, cards, NULL);
	int play = (l.acts & (1u << G304_ACT_PLAY)) != 0;
	int table_card = s == v.trumper && v.trump_down && v.trump_card != CARD_NONE;
	/* Nothing else to play: said plainly, not as "(none) or the trump card"
	 * (with hints off, only when no other card is left at all). */
	int only_table_card = play && table_card && !(l.cards & v.hand) && (l.cards & fbit(v.trump_card))
			      && (t->set.hints || !v.hand);
	if (only_table_card) {
		sb_init(&cb, cards, sizeof cards);
		fcard(t, &cb, v.trump_card, table_style_of(t, s));
		table_sb_txt(t, &b, T_HAND_ONLY_TRUMP_CARD, cards, NULL, NULL);
	} else if (table_card) {
		sb_init(&cb, cards, sizeof cards);
		fcard(t, &cb, v.trump_card, table_style_of(t, s));
		table_sb_txt(t, &b, T_HAND_TRUMP_CARD, cards, NULL, NULL);
	}
	if (play && t->set.hints && !only_table_card) {
		sb_init(&cb, cards, sizeof cards);
		fhand(t, &cb, l.cards & v.hand, table_style_of(t, s), 0);
		table_sb_txt(t, &b, T_HAND_MAY_PLAY, cards, NULL, NULL);
		if (s == v.trumper && v.trump_down && (l.cards & fbit(v.trump_card)))
			table_sb_txt(t, &b, T_HAND_OR_TRUMP_CARD, NULL, NULL, NULL);
	} else if (l.acts & (1u << G304_ACT_TRUMP)) {
		table_sb_txt(t, &b, T_HAND_CHOOSE_TRUMP, NULL, NULL, NULL);
	}
	table_say_story(t, t->seats[s].user, line, ADAPTER_NOTICE | ADAPTER_REPLACES);
}

/* The turn line: "ann: your turn to bid: 170 or more, or pass." */
static int turn(table *t, int s)
{
	g304_legal l;
	legal_of(t, s, &l);
	g304 f;
	state_of(t, &f);
	char what[128];
	switch (f.phase) {
	case G304_PHASE_BID4:
	case G304_PHASE_BID8:
		if ((l.acts & (1u << G304_ACT_BID)) && l.bid_min) {
			char n[16];
			snprintf(n, sizeof n, "%d", l.bid_min);
			/* No pass offered: the first speaker's duty to open (eight players). */
			table_txt(t, what, sizeof what, !(l.acts & (1u << G304_ACT_PASS)) ? T_BID_MORE
				  : (l.acts & (1u << G304_ACT_PARTNER)) ? T_BID_RANGE_PARTNER
				  : l.pcc_ok ? T_BID_RANGE_PCC : T_BID_RANGE, n, NULL, NULL);
		} else if (l.pcc_ok) {
			table_txt(t, what, sizeof what, T_BID_PCC_OR_PASS, NULL, NULL, NULL);
		} else {
			table_txt(t, what, sizeof what, (l.acts & (1u << G304_ACT_PARTNER)) ? T_BID_PASS_OR_PARTNER : T_BID_PASS_ONLY,
				  NULL, NULL, NULL);
		}
		table_say_to(t, t->seats[s].user, T_TURN_BID, t->seats[s].name, what, NULL);
		return 1;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		table_say_to(t, t->seats[s].user, T_TURN_TRUMP, t->seats[s].name, NULL, NULL);
		return 1;
	case G304_PHASE_PLAY:
		table_say_to(t, t->seats[s].user, T_TURN_PLAY, t->seats[s].name, NULL, NULL);
		return 1;
	default:
		return 0;
	}
}

/* ---- events into words ---- */

static void match_start(table *t)
{
	char a[TEAM_TEXT], b[TEAM_TEXT];
	team_names(t, 0, a, sizeof a);
	team_names(t, 1, b, sizeof b);
	table_say(t, words_of(t)->match_starts, a, b, NULL);
}

static void dealt(table *t)
{
	g304 f;
	state_of(t, &f);
	char n[16];
	snprintf(n, sizeof n, "%d", f.deal_no);
	table_say(t, T_DEAL, n, table_seat_name(t, f.dealer), table_seat_name(t, (f.dealer + 1) % f.seats));
}

static void deal_end_words(table *t)
{
	g304 f;
	state_of(t, &f);
	const g304_deal_end *e = &f.last;
	char a[TEAM_TEXT], b[TEAM_TEXT], c[64];
	switch (e->outcome) {
	case G304_OUTCOME_REDEAL:
		return; /* the REJECTED event said it */
	case G304_OUTCOME_PASSED_OUT:
		table_say(t, T_PASSED_OUT, table_seat_name(t, f.dealer), NULL, NULL);
		break;
	case G304_OUTCOME_SPOILT:
		if (e->spoilt_right)
			table_say(t, T_SPOILT_RIGHT, table_seat_name(t, e->spoilt_seat), NULL, NULL);
		else
			table_say(t, T_SPOILT_WRONG, table_seat_name(t, e->spoilt_seat), NULL, NULL);
		break;
	case G304_OUTCOME_SCORED: {
		int tt = g304_team(e->trumper);
		bid_text(e->bid, c, sizeof c);
		snprintf(a, sizeof a, "%d", e->points[tt]);
		table_say(t, e->made ? T_MADE : T_FAILED, table_seat_name(t, e->trumper), c, a);
		if (e->caps != G304_CAPSO_NONE) {
			/* The verdict in the room's words (the engine's name is for records). */
			static const int verdict[] = { [G304_CAPSO_CORRECT] = T_CAPS_CORRECT,
						       [G304_CAPSO_LATE] = T_CAPS_LATE,
						       [G304_CAPSO_EARLY] = T_CAPS_EARLY,
						       [G304_CAPSO_FAILED] = T_CAPS_FAILED };
			char v[64];
			const char *vw = e->caps < sizeof verdict / sizeof verdict[0] && verdict[e->caps]
				? (text_fmt_in(table_lang(t), v, sizeof v, verdict[e->caps], 0, NULL), v)
				: g304_caps_outcome_name(e->caps);
			table_say(t, T_CAPS_RESULT, vw,
				  e->caps_seat < f.seats ? table_seat_name(t, e->caps_seat)
							  : table_txt(t, c, sizeof c, T_NOT_CALLED, NULL, NULL, NULL),
				  NULL);
		}
		break;
	}
	default:
		break;
	}
	team_names(t, 0, a, sizeof a);
	team_names(t, 1, b, sizeof b);
	char tok[64];
	snprintf(tok, sizeof tok, "%d : %d", f.tokens[0], f.tokens[1]);
	table_say(t, T_TOKENS, a, b, tok);
}

/* The trumper's private look at the face-down cards of a finished trick. */
static void inspection(table *t, int trick)
{
	g304 f;
	state_of(t, &f);
	int tr = f.trumper;
	if (tr == G304_NO_SEAT || !table_private_ok(t, tr) || trick < 0 || trick >= f.ntricks)
		return;
	g304_view v;
	view_of(t, tr, &v);
	const g304_trick *x = &v.tricks[trick];
	char cards[TABLE_LINE], line[TABLE_LINE], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	int any = 0;
	for (int k = 0; k < x->n; k++)
		if ((x->down >> k & 1) && x->seat[k] != tr && x->card[k] != CARD_NONE) {
			sb_printf(&b, " %s ", table_seat_name(t, x->seat[k]));
			fcard(t, &b, x->card[k], table_style_of(t, tr));
			any = 1;
		}
	snprintf(n, sizeof n, "%d", trick + 1);
	const text_lang *was = table_reader(t, table_lang_of(t, t->seats[tr].user)); /* the trumper's line */
	if (any)
		table_say_story(t, t->seats[tr].user,
			      table_txt(t, line, sizeof line, T_INSPECTION, table_room_shown(t), n, cards), ADAPTER_NOTICE);
	table_reader(t, was);
}

/* Brief: "trick 3: ann J♥, bob face down, ...; cat wins it", each card as
 * the room may see it. */
static void trick_all(table *t, int trick, const char *winner)
{
	g304 f;
	state_of(t, &f);
	if (trick < 0 || trick >= f.ntricks)
		return;
	const g304_trick *x = &f.tricks[trick];
	char cards[TABLE_LINE], down[64], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	table_txt(t, down, sizeof down, T_WORD_FACE_DOWN, NULL, NULL, NULL);
	for (int k = 0; k < x->n; k++) {
		sb_printf(&b, "%s %s ", k ? "," : "", table_seat_name(t, x->seat[k]));
		if ((x->down >> k & 1) && !(x->shown >> k & 1))
			sb_add(&b, down);
		else
			fcard(t, &b, x->card[k], RENDER_COLOUR);
	}
	snprintf(n, sizeof n, "%d", trick + 1);
	table_say(t, T_TRICK_ALL, winner, n, cards);
}

static int pcc_broken(const g304 *f);
static int pcc_lost(const table *t);

static void events(table *t, const game_result *res)
{
	g304 f;
	state_of(t, &f);
	const g304 *g = &f;
	char c1[32], c2[32], n[32], team[TEAM_TEXT];
	int opened = 0;
	for (int i = 0; i < res->nevents; i++) {
		const game_event *e = &res->events[i];
		const char *who = table_seat_name(t, e->seat);
		/* Brief: the move the room saw typed is not said again. */
		if (i == 0 && t->seen_seat >= 0 && e->seat == t->seen_seat
		    && (e->type == G304_EV_BID || e->type == G304_EV_PASS
			|| (e->type == G304_EV_PLAYED && !(e->flags & 1))))
			continue;
		switch (e->type) {
		case G304_EV_REJECTED:
			snprintf(n, sizeof n, "%d", e->value);
			table_say(t, T_REJECTED, who, n, NULL);
			break;
		case G304_EV_BID:
			if (e->seat < g->seats)
				snprintf(t->bid_by[e->seat], sizeof t->bid_by[0], "%s", who);
			bid_text(e->value, n, sizeof n);
			table_say(t, (e->flags & 1) ? T_BID_FOR_PARTNER : T_BID, who, n, NULL);
			break;
		case G304_EV_PASS: /* an answer to a partner's ask is not a turn of one's own */
			table_say(t, (e->flags & 1) ? T_PASS_FOR_PARTNER : T_PASS, who, NULL, NULL);
			break;
		case G304_EV_ASK:
			table_say(t, T_ASK, who, table_seat_name(t, asked_partner(t, e->seat)), NULL);
			break;
		case G304_EV_BIDDING_WON:
			snprintf(n, sizeof n, "%d", e->value);
			table_say(t, T_BIDDING_WON, table_bid_name(t, e->seat), n, NULL);
			break;
		case G304_EV_TRUMP_SET:
			table_say(t, T_TRUMP_SET, who, NULL, NULL);
			break;
		case G304_EV_DEALT_REST:
			snprintf(n, sizeof n, "%d", g304_variant_of(&g->rules)->bid_second);
			table_say(t, words_of(t)->dealt_rest, table_seat_name(t, g->trumper), n, NULL);
			/* The room hears of the last cards before anyone reads them.
			 * Every seat has its turn in this bidding round, and its turn
			 * prompt sends its hand: sent now as well, the same hand would
			 * come twice in a row; so it waits for that turn (or for play,
			 * if a pcc ends the round first). A brief room's prompts send
			 * no hand: there it goes now. */
			table_flush(t);
			for (int s = 0; s < g->seats; s++) {
				if (t->set.brief)
					table_send_hand(t, s);
				else if (s != g->turn)
					t->hand_due |= (uint8_t)(1u << s);
			}
			break;
		case G304_EV_TRUMP_BACK:
			table_say(t, T_TRUMP_BACK, who, NULL, NULL);
			/* The old trump card is back in its owner's hand: told with play. */
			t->hand_due |= (uint8_t)(1u << e->seat);
			break;
		case G304_EV_BID8_WON:
			bid_text(e->value, n, sizeof n);
			table_say(t, words_of(t)->bid2_won, table_bid_name(t, e->seat), n, NULL);
			if (e->value >= G304_BID_PCC && e->seat < g->seats) {
				if (g->seats / 2 - 1 > 1) { /* more partners than one sit out */
					team_names_but(t, g304_team(e->seat), e->seat, team, sizeof team);
					table_say(t, T_PCC_SIT_OUT6, team, table_bid_name(t, e->seat), NULL);
				} else {
					table_say(t, T_PCC_SITS_OUT, table_seat_name(t, g304_partner(e->seat)),
						  table_bid_name(t, e->seat), NULL);
				}
			}
			break;
		case G304_EV_PLAY_STARTS:
			table_say(t, T_PLAY_STARTS, who,
				  table_txt(t, c1, sizeof c1, g->trump_open ? T_WORD_OPEN : T_WORD_CLOSED, NULL, NULL, NULL), NULL);
			/* Hands that waited for a turn the bidding never gave (the
			 * leader's comes with its prompt). */
			if (t->hand_due) {
				table_flush(t);
				for (int s = 0; s < g->seats; s++)
					if ((t->hand_due >> s & 1) && s != g->turn)
						table_send_hand(t, s);
			}
			break;
		case G304_EV_OPENED:
			room_card(t, e->card, c1, sizeof c1);
			table_say(t, T_OPENED, who, text_suit(table_reader_now(t), fsuit(t, e->card)), c1);
			opened = 1;
			break;
		case G304_EV_PLAYED:
			if (e->flags & 1) {
				table_say(t, (e->flags & 2) ? T_PLAYED_TRUMP_CARD : T_PLAYED_DOWN, who, NULL, NULL);
			} else {
				room_card(t, e->card, c1, sizeof c1);
				table_say(t, T_PLAYED, who, c1, NULL);
			}
			break;
		case G304_EV_NO_TRUMP:
			table_say(t, T_NO_TRUMP, NULL, NULL, NULL);
			inspection(t, e->value);
			break;
		case G304_EV_REVEALED: {
			room_card(t, e->card, c1, sizeof c1);
			if (!opened) /* an opening said it: the trump once, in one line */
				table_say(t, T_REVEALED, text_suit(table_reader_now(t), fsuit(t, e->card)), c1, NULL);
			/* Cards turned up by the reveal, shown to all: in the trick
			 * the reveal ended, the one just finished, unless the reveal
			 * came from opening before any card. */
			int tn = g->trick_no;
			if (tn > 0 && (tn == g->ntricks || g->tricks[tn].n == 0))
				tn--;
			if (tn >= 0 && tn < g->ntricks) {
				const g304_trick *x = &g->tricks[tn];
				for (int k = 0; k < x->n; k++)
					if ((x->shown >> k & 1) && x->seat[k] != g->trumper) {
						room_card(t, x->card[k], c2, sizeof c2);
						table_say(t, T_TURNED_UP, table_seat_name(t, x->seat[k]), c2, NULL);
					}
			}
			if (e->flags & 1) {
				if (!t->set.brief)
					table_flush(t); /* what happened, then the hand it changed */
				table_send_hand(t, g->trumper);
			}
			break;
		}
		case G304_EV_TRICK:
			if (t->set.brief) {
				trick_all(t, e->value, who);
			} else {
				snprintf(n, sizeof n, "%d", e->value + 1);
				table_say(t, T_TRICK, who, n, NULL);
			}
			/* The pcc bidder's first lost trick, with tricks still to play. */
			if (g->pcc && e->seat != g->trumper && e->value + 1 < g->ntricks && pcc_lost(t)) {
				int earlier = 0;
				for (int k = 0; k < e->value; k++)
					earlier |= g->tricks[k].winner != g->trumper;
				if (!earlier)
					table_say(t, T_PCC_LOST, table_bid_name(t, g->trumper), NULL, NULL);
			}
			/* A lost pcc played out: a line a trick, not one for them all. */
			if (g->pcc && pcc_broken(g) && !t->set.brief)
				table_flush(t);
			break;
		case G304_EV_CAPS: {
			char order[160];
			strbuf b;
			sb_init(&b, order, sizeof order);
			for (int k = 0; k < g->caps_norder; k++) {
				if (k)
					sb_add(&b, " ");
				fcard(t, &b, g->caps_order[k], RENDER_COLOUR);
			}
			table_say(t, T_CAPS_CALLED, who, order, t->host->prefix);
			break;
		}
		case G304_EV_CAPS_BROKEN:
			table_say(t, T_CAPS_BROKEN, who, NULL, NULL);
			break;
		case G304_EV_DEAL_END:
			/* The deal's result in a line of its own, after its last trick. */
			if (!t->set.brief)
				table_flush(t);
			deal_end_words(t);
			break;
		case G304_EV_MATCH_END: {
			char a[TEAM_TEXT];
			team_names(t, e->seat, a, sizeof a);
			table_say(t, T_MATCH_WON, a, NULL, NULL);
			break;
		}
		default:
			break;
		}
	}
}

static void refusal(table *t, const game_result *res, int who, char *buf, size_t len)
{
	const char *names[G304_SEATS_MAX];
	for (int s = 0; s < nseats_of(t); s++)
		names[s] = table_seat_name(t, s);
	/* A card the refusal names reads as the player's hand shows it (K♥,
	 * or KH with ascii on), in this game's pack. */
	char ct[32];
	strbuf b;
	sb_init(&b, ct, sizeof ct);
	if (res && res->a >= 0 && res->a < t->gdef->deck_size)
		fcard(t, &b, (card)res->a, table_style_of(t, who));
	else
		sb_add(&b, "??");
	text_refusal_game_in(table_reader_now(t), &present_304_words, t->gdef, buf, len, res, names, ct);
}

/* A deal ended: each seat's share of it, for the statistics. */
static void deal_results(const table *t, store_deal_end *end)
{
	g304 f;
	state_of(t, &f);
	const g304_deal_end *e = &f.last;
	memset(end, 0, sizeof *end);
	for (int s = 0; s < f.seats; s++) {
		int team = g304_team(s);
		store_result *r = &end->seats[s];
		table_result_seat(t, s, r);
		r->team = team;
		r->outcome = g304_outcome_name(e->outcome);
		r->trumper = e->trumper == s;
		r->bid = e->bid == G304_BID_PCC ? 1000 : e->bid;
		r->made = e->made;
		r->won = e->paid[team ^ 1] > e->paid[team];
		r->points = e->points[team];
		r->caps = g304_caps_outcome_name(e->caps);
		r->caps_called = e->caps_seat == s;
	}
	end->match_over = f.phase == G304_PHASE_OVER;
	end->winner = f.winner;
	end->tokens[0] = f.tokens[0];
	end->tokens[1] = f.tokens[1];
}

/* An action as the record writes it ("JS", "6H": the game's card codes). */
static void action_json(const table *t, const game_action *a, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "{\"seat\": %d, \"do\": \"%s\"", a->seat, g304_act_name(a->type));
	char code[8];
	switch (a->type) {
	case G304_ACT_BID:
		if (a->value == G304_BID_PCC)
			n += (size_t)snprintf(out + n, len - n, ", \"value\": \"pcc\"");
		else
			n += (size_t)snprintf(out + n, len - n, ", \"value\": %d", a->value);
		break;
	case G304_ACT_TRUMP:
	case G304_ACT_PLAY:
		t->gdef->card_code(a->ncards ? a->cards[0] : CARD_NONE, code);
		n += (size_t)snprintf(out + n, len - n, ", \"card\": \"%s\"", code);
		break;
	case G304_ACT_CAPS:
		n += (size_t)snprintf(out + n, len - n, ", \"order\": [");
		for (int i = 0; i < a->ncards && n < len; i++) {
			t->gdef->card_code(a->cards[i], code);
			n += (size_t)snprintf(out + n, len - n, "%s\"%s\"", i ? ", " : "", code);
		}
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "]");
		break;
	default:
		break;
	}
	if (n < len)
		snprintf(out + n, len - n, "}");
}

/* ---- computer players (engine/g304/g304_ai.c for four, off the loop) ---- */

/* A pcc is lost once its bidder loses a trick: from then on the table
 * plays out the rest of the deal at once (the engine plays every trick,
 * so the record stays whole). */
static int pcc_broken(const g304 *f)
{
	if (!f->pcc)
		return 0;
	for (int i = 0; i < f->ntricks && (i < f->trick_no || f->phase != G304_PHASE_PLAY); i++)
		if (f->tricks[i].n && f->tricks[i].winner != G304_NO_SEAT && f->tricks[i].winner != f->trumper)
			return 1;
	return 0;
}

static int pcc_lost(const table *t)
{
	g304 f;
	state_of(t, &f);
	return f.phase == G304_PHASE_PLAY && pcc_broken(&f);
}

/* The cards seat s holds, its trump card on the table counted. */
static int cards_held(const table *t, int s)
{
	g304_view v;
	view_of(t, s, &v);
	return __builtin_popcountll(v.hand) + (s == v.trumper && v.trump_down && v.trump_card != CARD_NONE);
}

/* A caps caller's stated order, or a player who asked the bot to finish
 * the deal after a caps call. */
static int auto_seat(const table *t, int s)
{
	if (!t->g || s < 0 || s >= nseats_of(t))
		return 0;
	g304 f;
	state_of(t, &f);
	int caps_autoplay = f.caps_seat == s && f.caps_k < f.caps_norder;
	return caps_autoplay || (f.phase == G304_PHASE_PLAY && pcc_broken(&f))
	       || (t->seats[s].finish_deal == f.deal_no + 1 && f.caps_seat != G304_NO_SEAT && f.phase == G304_PHASE_PLAY);
}

static int choose(table *t, int s, int why, game_action *out)
{
	g304_legal fl;
	legal_of(t, s, &fl);
	/* A hint is for what a player must decide: not for a call of spoilt
	 * trumps or caps, which may be made at any time. */
	if (why == PRESENT_HINT && !(fl.acts & ~(1u << G304_ACT_SPOILT | 1u << G304_ACT_CAPS)))
		return -1;
	return table_think(t, s, why, out);
}

/* The hint, as the command the player would type. */
/* Card c as seat s would type it: its code ("QC", "TC") with letters, the
 * rank as the hand shows it and the suit symbol ("Q\u2663", "10\u2663",
 * which play reads too) with symbols. */
static void typed_card(const table *t, int s, card c, char out[16])
{
	char code[8];
	t->gdef->card_code(c, code);
	size_t n = strlen(code);
	if (table_style_of(t, s) == RENDER_ASCII || n < 2)
		snprintf(out, 16, "%s", code);
	else
		snprintf(out, 16, "%.*s%s", code[0] == 'T' ? 2 : (int)(n - 1), code[0] == 'T' ? "10" : code,
			 render_suit_symbol(fsuit(t, c), RENDER_COLOUR));
}

static void hint_text(table *t, int s, const game_action *a, char *what, size_t len)
{
	g304 f;
	state_of(t, &f);
	char code[16];
	card c = a->ncards ? a->cards[0] : CARD_NONE;
	switch (a->type) {
	case G304_ACT_BID:
		if (a->value >= G304_BID_PCC)
			snprintf(what, len, "bid pcc");
		else
			snprintf(what, len, "bid %d", a->value);
		break;
	case G304_ACT_TRUMP:
		typed_card(t, s, c, code);
		snprintf(what, len, "trump %s", code);
		break;
	case G304_ACT_PLAY:
		typed_card(t, s, c, code);
		snprintf(what, len, "play %s", f.trump_down && s == f.trumper && c == f.trump_card ? "trump" : code);
		break;
	case G304_ACT_CAPS: {
		size_t n = (size_t)snprintf(what, len, "caps");
		for (int k = 0; k < a->ncards && k < f.ntricks && n + 4 < len; k++) {
			typed_card(t, s, a->cards[k], code);
			n += (size_t)snprintf(what + n, len - n, " %s", code);
		}
		break;
	}
	default:
		snprintf(what, len, "%s", a->type == G304_ACT_PARTNER ? "ask" : g304_act_name(a->type));
		break;
	}
}

/* ---- commands ---- */

/* Turns "60" into 160 (304's shorthand, at the sizes that bid from 160)
 * and "pcc" into G304_BID_PCC; -1 if not a bid. */
static int parse_bid(const table *t, const char *s)
{
	if (!strcasecmp(s, "pcc"))
		return G304_BID_PCC;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < 0 || v > 999)
		return -1;
	if (v >= 60 && v <= 99 && g304_variant_of(&G(t)->rules)->bid_min == G304_MIN_BID)
		v += 100;
	return (int)v;
}

/* A card named by a player: a card ("js", "J♠", "10h") or a position in
 * the hand as shown; "trump" means the trump card on the table. */
static card parse_played(const table *t, int s, const char *word)
{
	g304 f;
	state_of(t, &f);
	if (!strcasecmp(word, "trump") && s == f.trumper && f.trump_down)
		return f.trump_card;
	char *end;
	long pos = strtol(word, &end, 10);
	/* "6" is a position, not the six: a six is named with its suit ("6s"). */
	if (!*end && end != word && pos >= 1 && pos <= f.ntricks)
		return render_hand_of_at(t->g->def, f.hand[s], (int)pos);
	return fparse(t, word);
}

/* An action with no cards yet (as the engine's own conversions make them). */
static void action_new(game_action *a, int type, int s)
{
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)type;
	a->seat = (uint8_t)s;
	memset(a->cards, GAME_NO_CARD, sizeof a->cards);
}

/* seen: the command, typed in the room, spelled out the move (a bid, a
 * pass, a card by its name), so in a brief room it need not be repeated. */
static void act(table *t, const char *user, int s, int type, int value, card c, int seen)
{
	table_seen(t, seen ? s : -1);
	game_action a;
	action_new(&a, type, s);
	a.value = (uint16_t)value;
	if (c != CARD_NONE) {
		a.ncards = 1;
		a.cards[0] = c;
	}
	table_act(t, &a, user);
}

static void cmd_bid(table *t, const char *user, int s, int in_room, char **argv)
{
	int v = parse_bid(t, argv[1]);
	if (v < 0) {
		char u[128];
		table_tell(t, user, T_USAGE, table_txt(t, u, sizeof u, T_USAGE_BID_304, NULL, NULL, NULL), NULL, NULL);
		table_refused_in_room(t, user, in_room);
		return;
	}
	act(t, user, s, G304_ACT_BID, v, CARD_NONE, in_room);
}

static void cmd_trump(table *t, const char *user, int s, int in_room, char **argv)
{
	if (in_room) {
		table_tell(t, user, T_TRUMP_PRIVATELY, table_room_shown(t), NULL, NULL);
		table_refused_in_room(t, user, in_room);
		return;
	}
	card c = parse_played(t, s, argv[1]);
	if (c == CARD_NONE) {
		table_bad_card(t, user, argv[1], T_BAD_CARD);
		return;
	}
	act(t, user, s, G304_ACT_TRUMP, 0, c, 0);
}

static void cmd_play(table *t, const char *user, int s, int in_room, char **argv)
{
	g304 f;
	state_of(t, &f);
	card c = parse_played(t, s, argv[1]);
	if (c == CARD_NONE) {
		table_bad_card(t, user, argv[1], T_BAD_CARD);
		table_refused_in_room(t, user, in_room);
		return;
	}
	/* A card that would go face down must not be named in the room. */
	const g304_trick *tr = &f.tricks[f.trick_no < f.ntricks ? f.trick_no : f.ntricks - 1];
	if (in_room && f.phase == G304_PHASE_PLAY && f.turn == s && tr->n > 0 && !f.trump_open
	    && fsuit(t, c) != fsuit(t, tr->card[0])) {
		table_tell(t, user, T_DOWN_PRIVATELY, table_room_shown(t), NULL, NULL);
		table_refused_in_room(t, user, in_room);
		return;
	}
	if (in_room && !strcasecmp(argv[1], "trump")) {
		table_tell(t, user, T_DOWN_PRIVATELY, table_room_shown(t), NULL, NULL);
		table_refused_in_room(t, user, in_room);
		return;
	}
	/* "!p 3" (a position) does not show the room which card it is. */
	act(t, user, s, G304_ACT_PLAY, 0, c, in_room && fparse(t, argv[1]) != CARD_NONE);
}

static void cmd_caps(table *t, const char *user, int s, int argc, char **argv)
{
	game_action a;
	action_new(&a, G304_ACT_CAPS, s);
	for (int i = 1; i < argc && a.ncards < ntricks_of(t); i++) {
		card c = parse_played(t, s, argv[i]);
		if (c == CARD_NONE) {
			table_bad_card(t, user, argv[i], T_BAD_CARD);
			return;
		}
		a.cards[a.ncards++] = c;
	}
	table_act(t, &a, user);
}

/* After a caps call, a player lets the bot play their cards to the end of
 * the deal (the caller's are played already, in the stated order). */
static void cmd_finish(table *t, const char *user, int s)
{
	g304 f;
	state_of(t, &f);
	if (f.phase != G304_PHASE_PLAY || f.caps_seat == G304_NO_SEAT) {
		table_tell(t, user, T_FINISH_NOT_NOW, table_room_shown(t), t->host->prefix, NULL);
		return;
	}
	if (t->seats[s].finish_deal != f.deal_no + 1) {
		t->seats[s].finish_deal = f.deal_no + 1;
		table_say_to(t, t->seats[s].user, T_FINISH_OK, table_seat_name(t, s), NULL, NULL);
		table_flush(t);
	}
	if (f.turn == s)
		table_schedule(t);
}

static int command(table *t, const char *user, int s, int in_room, int argc, char **argv)
{
	const char *w = argv[0];
	if (!strcmp(w, "bid"))
		cmd_bid(t, user, s, in_room, argv);
	else if (!strcmp(w, "trump"))
		cmd_trump(t, user, s, in_room, argv);
	else if (!strcmp(w, "play"))
		cmd_play(t, user, s, in_room, argv);
	else if (!strcmp(w, "caps"))
		cmd_caps(t, user, s, argc, argv);
	else if (!strcmp(w, "finish"))
		cmd_finish(t, user, s);
	else if (!strcmp(w, "pass"))
		act(t, user, s, G304_ACT_PASS, 0, CARD_NONE, in_room);
	else if (!strcmp(w, "partner"))
		act(t, user, s, G304_ACT_PARTNER, 0, CARD_NONE, 0);
	else if (!strcmp(w, "redeal"))
		act(t, user, s, G304_ACT_REDEAL, 0, CARD_NONE, 0);
	else if (!strcmp(w, "open"))
		act(t, user, s, G304_ACT_OPEN, 0, CARD_NONE, 0);
	else if (!strcmp(w, "spoilt"))
		act(t, user, s, G304_ACT_SPOILT, 0, CARD_NONE, 0);
	else
		return 0;
	return 1;
}

/* ---- looking at the table ---- */

static void table_line(table *t, const char *user, strbuf *b)
{
	g304 f;
	state_of(t, &f);
	char x[TABLE_LINE], y[TABLE_LINE], n[64];
	g304_view v;
	int me = table_seat_of(t, user);
	view_of(t, me >= 0 ? me : 0, &v);
	snprintf(n, sizeof n, "%d : %d", f.tokens[0], f.tokens[1]);
	table_sb_txt(t, b, T_TABLE_TOKENS, n, NULL, NULL);
	if (f.turn != G304_NO_SEAT)
		table_sb_txt(t, b, T_TABLE_WAITING, table_seat_name(t, f.turn),
			     table_phase_word(t, t->gdef->phase_name(f.phase)), NULL);
	if (v.phase == G304_PHASE_PLAY) {
		const g304_trick *tr = &v.tricks[v.ntricks - 1];
		strbuf cb;
		sb_init(&cb, x, sizeof x);
		for (int k = 0; k < tr->n; k++) {
			sb_printf(&cb, " %s ", table_seat_name(t, tr->seat[k]));
			if (tr->down >> k & 1)
				table_sb_txt(t, &cb, T_FACE_DOWN, NULL, NULL, NULL);
			else
				fcard(t, &cb, tr->card[k], RENDER_COLOUR);
		}
		snprintf(n, sizeof n, "%d", v.ntricks);
		table_sb_txt(t, b, T_TABLE_TRICK, n, x, NULL);
		if (v.trump_open)
			table_sb_txt(t, b, T_TABLE_TRUMPS, text_suit(table_reader_now(t), v.trump_suit), NULL, NULL);
		snprintf(n, sizeof n, "%d : %d", v.tricks_won[0], v.tricks_won[1]);
		table_sb_txt(t, b, T_TABLE_TRICKS, n, NULL, NULL);
	}
	if (v.bid) {
		bid_text(v.bid, y, sizeof y);
		table_sb_txt(t, b, T_TABLE_HIGH_BID, y, table_bid_name(t, v.bidder), NULL);
	}
	if (t->move_by) {
		int64_t left = (t->move_by - loop_now()) / 1000;
		snprintf(n, sizeof n, "%lld", (long long)(left > 0 ? left : 0));
		table_sb_txt(t, b, T_TABLE_TIME_LEFT, n, NULL, NULL);
	}
}

static void last(table *t, const char *user, int s)
{
	g304 f;
	state_of(t, &f);
	if (f.phase != G304_PHASE_PLAY || f.trick_no == 0) {
		table_tell(t, user, T_NO_LAST, table_room_shown(t), NULL, NULL);
		return;
	}
	/* Built from a view of a seat that is not the trumper, so face-down
	 * cards that stayed hidden show as face down. */
	int viewer = s >= 0 ? s : (f.trumper + 1) % f.seats;
	g304_view v;
	view_of(t, viewer, &v);
	const g304_trick *tr = &v.tricks[f.trick_no - 1];
	char cards[TABLE_LINE], line[TABLE_LINE], n[16];
	strbuf b;
	sb_init(&b, cards, sizeof cards);
	for (int k = 0; k < tr->n; k++) {
		sb_printf(&b, " %s ", table_seat_name(t, tr->seat[k]));
		int hidden_to_all = (tr->down >> k & 1) && !(tr->shown >> k & 1);
		if (hidden_to_all && tr->seat[k] != s)
			table_sb_txt(t, &b, T_FACE_DOWN, NULL, NULL, NULL);
		else
			fcard(t, &b, tr->card[k], table_style_of(t, s));
	}
	snprintf(n, sizeof n, "%d", f.trick_no);
	const char *args[4] = { table_room_shown(t), n, cards, table_seat_name(t, tr->winner) };
	text_fmt_in(table_reader_now(t), line, sizeof line, T_LAST_TRICK, 4, args);
	table_say_private(t, user, line, ADAPTER_NOTICE);
}

static void score(table *t, char *buf, size_t len)
{
	char a[TEAM_TEXT], b2[TEAM_TEXT], tok[64];
	team_names(t, 0, a, sizeof a);
	team_names(t, 1, b2, sizeof b2);
	int tk[2] = { 0, 0 };
	if (t->g) {
		g304 f;
		state_of(t, &f);
		tk[0] = f.tokens[0];
		tk[1] = f.tokens[1];
	} else {
		g304 fresh; /* six players start with four players' tokens (docs/GAMES.md S14) */
		game_rules opts;
		game_rules_of(t->gdef, &t->set.options, &opts);
		g304_init(&fresh, (const g304_rules *)opts.b, 0);
		tk[0] = fresh.tokens[0];
		tk[1] = fresh.tokens[1];
	}
	snprintf(tok, sizeof tok, "%d : %d", tk[0], tk[1]);
	const char *args[3] = { a, b2, tok };
	text_fmt_in(table_reader_now(t), buf, len, T_TOKENS, 3, args);
}

static void rules(table *t, char *buf, size_t len)
{
	game_rules opts;
	game_rules_of(t->gdef, &t->set.options, &opts);
	static const char *const paces[] = { "live", "casual", "correspondence" };
	const char *args[8] = { table_room_shown(t) };
	for (int i = 0; i < 5 && g304_options[i].key; i++)
		args[1 + i] = game_option_word(&g304_options[i], opts.b[g304_options[i].off]);
	args[6] = paces[t->set.pace % 3];
	args[7] = t->set.lastcard ? "on" : "off";
	text_fmt_in(table_reader_now(t), buf, len, words_of(t)->rules, 8, args);
}

/* ---- what `cardbot replay` and the match page show of 304 (present.replay;
 * the state of a game_def_304 game is a g304, of game_def_304six a g6).
 * The JSON pieces every game shares go by short names here. ---- */

#define j_seat replay_j_seat
#define j_bool replay_j_bool
#define j_pair replay_j_pair
#define j_card replay_j_card
#define j_view_head replay_j_view_head
#define j_acts replay_j_acts
#define j_known replay_j_known

/* A bid: a number, "pcc", or null for none (0). */
static json_object *j_bid(int value)
{
	if (value == 0)
		return NULL;
	if (value == G304_BID_PCC)
		return json_object_new_string("pcc");
	return json_object_new_int(value);
}

/* A card code, or "down" for a face-down card this seat may not know. */
static json_object *j_card_or_down_in(const game_def *def, card c)
{
	json_object *j = j_card(def, c);
	return j ? j : json_object_new_string("down");
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
			       e->spoilt_seat < GAME_MAX_SEATS ? j_bool(e->spoilt_right) : NULL);
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

/* ---- 304 at every table size (the state of a game_def_304 or
 * game_def_304six game is a g304) ---- */

static json_object *j_trick(const game_def *def, const g304_trick *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "leader", j_seat(t->leader));
	json_object *cards = json_object_new_array();
	for (int i = 0; i < t->n && i < G304_SEATS_MAX; i++) {
		json_object *c = json_object_new_object();
		json_object_object_add(c, "seat", j_seat(t->seat[i]));
		json_object_object_add(c, "card", j_card_or_down_in(def, t->card[i]));
		json_object_object_add(c, "down", j_bool(t->down >> i & 1));
		json_object_object_add(c, "shown", j_bool(t->shown >> i & 1));
		json_object_object_add(c, "from_table", j_bool(t->tcard >> i & 1));
		json_object_array_add(cards, c);
	}
	json_object_object_add(o, "cards", cards);
	json_object_object_add(o, "winner", j_seat(t->winner));
	return o;
}

/* Who sits out of a pcc: with four players the one partner (a seat or
 * null, as records have always shown it); with more, a list of seats. */
static json_object *j_sitting_out(const g304 *g, uint8_t mask)
{
	if (g->seats == G304_SEATS)
		return j_seat(g304_first_out(mask));
	json_object *arr = json_object_new_array();
	for (int s = 0; s < g->seats; s++)
		if (mask >> s & 1)
			json_object_array_add(arr, json_object_new_int(s));
	return arr;
}

static json_object *j_legal(const game_def *def, const g304 *g, const g304_view *v)
{
	g304_legal l;
	g304_legal_of(g, v->seat, &l);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "actions", j_acts(def, l.acts));
	/* null when no numeric bid is possible (only pcc, or no bid at all). */
	const g304_variant *w = g304_variant_of(&g->rules);
	int numeric = (l.acts >> G304_ACT_BID & 1) && l.bid_min >= w->bid_min && l.bid_min <= w->bid_max;
	json_object_object_add(o, "bid_min", numeric ? json_object_new_int(l.bid_min) : NULL);
	json_object_object_add(o, "pcc", j_bool(l.pcc_ok));
	game_cards known = v->hand;
	if (v->trump_card < g->ncards)
		known |= (game_cards)1 << v->trump_card;
	json_object_object_add(o, "cards", j_known(def, v->seat, l.cards, known));
	return o;
}

static json_object *view_304(const game *gm, int who)
{
	const game_def *def = gm->def;
	const g304 *g = gm->state;
	g304_view v;
	g304_view_of(g, who, &v);
	json_object *o = j_view_head(def, v.seat, v.phase, v.deal_no, v.dealer, v.turn, v.hand);
	json_object_object_add(o, "trumper", j_seat(v.trumper));
	json_object_object_add(o, "bid", j_bid(v.bid));
	json_object_object_add(o, "bidder", v.bid ? j_seat(v.bidder) : NULL);
	json_object_object_add(o, "trump_card", j_card(def, v.trump_card));
	char suit[2] = { suit_letter(v.trump_suit), '\0' };
	json_object_object_add(o, "trump_suit", v.trump_suit >= 0 && v.trump_suit < SUIT_COUNT
						? json_object_new_string(suit) : NULL);
	json_object_object_add(o, "trump_down", j_bool(v.trump_down));
	json_object_object_add(o, "trump_open", j_bool(v.trump_open));
	json_object_object_add(o, "pcc", j_bool(v.pcc));
	json_object_object_add(o, "sitting_out", j_sitting_out(g, v.sitting_out));
	json_object_object_add(o, "asker", j_seat(v.asker));
	json_object *bids = json_object_new_array();
	for (int i = 0; i < v.nbidlog && i < G304_BIDLOG_MAX; i++)
		json_object_array_add(bids, j_bidlog(&v.bidlog[i]));
	json_object_object_add(o, "bids", bids);
	json_object *tricks = json_object_new_array();
	for (int i = 0; i < v.ntricks && i < G304_TRICKS_MAX; i++)
		json_object_array_add(tricks, j_trick(def, &v.tricks[i]));
	json_object_object_add(o, "tricks", tricks);
	json_object_object_add(o, "tricks_won", j_pair(v.tricks_won[0], v.tricks_won[1]));
	json_object_object_add(o, "exhausted", j_bool(v.exhausted));
	json_object *caps = NULL;
	if (v.caps_seat < g->seats) {
		caps = json_object_new_object();
		json_object_object_add(caps, "seat", j_seat(v.caps_seat));
		json_object *order = json_object_new_array();
		for (int i = 0; i < v.caps_norder && i < G304_TRICKS_MAX; i++)
			json_object_array_add(order, j_card_or_down_in(def, v.caps_order[i]));
		json_object_object_add(caps, "order", order);
		json_object_object_add(caps, "next", json_object_new_int(v.caps_k));
	}
	json_object_object_add(o, "caps", caps);
	json_object_object_add(o, "tokens", j_pair(v.tokens[0], v.tokens[1]));
	json_object_object_add(o, "bank", json_object_new_int(v.bank));
	json_object_object_add(o, "winner", j_seat(v.winner));
	json_object_object_add(o, "last", v.last.outcome == G304_OUTCOME_NONE
					  ? NULL : j_deal_end(&v.last));
	json_object_object_add(o, "legal", j_legal(def, g, &v));
	return o;
}

static json_object *end_304(const game *g) { return j_deal_end(&((const g304 *)g->state)->last); }

/* The words the bot says at a 304 table; the second round's refusals name
 * its cards (eight, or six at six players). */
static void refusal_304(char *buf, size_t len, const game *g, const game_result *res,
			const char *const names[GAME_MAX_SEATS])
{
	const g304 *st = g->state;
	static const char *const card_words[G304_TRICKS_MAX + 1] = { [5] = "five", [6] = "six" };
	if (st->ntricks != G304_TRICKS && card_words[st->ntricks]) {
		const char *round = card_words[st->ntricks]; /* the second round's cards */
		if (res->err == G304_ERR_PCC_FOUR) {
			snprintf(buf, len, "pcc may be bid only in the %s-card bidding", round);
			return;
		}
		if (res->err == G304_ERR_BID8_PARTNER) {
			snprintf(buf, len, "your partner holds the highest %s-card bid: you must pass", round);
			return;
		}
		if (res->err == G304_ERR_ASK_EIGHT) {
			snprintf(buf, len, "you cannot ask a partner in the %s-card bidding", round);
			return;
		}
	}
	text_refusal_game_in(NULL, &present_304_words, g->def, buf, len, res, names, NULL);
}

/* One table size's replay view (cardbot replay, the match page). */
#define REPLAY_304(DEF) { &DEF, "deal_end", "tokens", view_304, end_304, refusal_304 }
static const replay_game replay_304 = REPLAY_304(game_def_304);

static const present_verb verbs[] = {
	PRESENT_VERB_BID,
	{ "caps", NULL, 1, 8, T_HELP_CAPS },
	{ "finish", NULL, 0, 0, T_HELP_FINISH },
	{ "open", NULL, 0, 0, T_HELP_OPEN },
	{ "partner", "ask", 0, 0, T_HELP_PARTNER },
	PRESENT_VERB_PASS,
	PRESENT_VERB_PLAY,
	{ "redeal", "reject", 0, 0, T_HELP_REDEAL },
	{ "spoilt", NULL, 0, 0, T_HELP_SPOILT },
	PRESENT_VERB_TRUMP,
	PRESENT_VERB_END,
};

/* !stats's bands of bids: 304's thresholds, and 504's and 904's (S21). */
static const present_bands bands = {
	{ 0, 200, 250, 1000 },
	{ "under 200", "200-249", "250 and over", "pcc" },
	{ T_BAND_UNDER_200, 0, T_BAND_250_OVER, 0 },
};
static const present_bands bands_504 = { { 0, 330, 410, 1000 }, { "under 330", "330-409", "410 and over", "pcc" }, { 0 } };
static const present_bands bands_904 = { { 0, 590, 740, 1000 }, { "under 590", "590-739", "740 and over", "pcc" }, { 0 } };

#define PRESENT_304_FAMILY                                     \
	.verbs = verbs,                                        \
	.stats_matches = 1,                                    \
	.stats_caps = 1,                                       \
	.record_bid_limit = G304_BID_PCC,                      \
	.record_bid_word = "pcc",                              \
	.page_bid_word = "partner close caps",                 \
	.page_down_flag = 1, /* g304.h: played, flag 1 */      \
	.page_reveal_inspects = 1,                             \
	.cutter_step = -1, /* RULES.md: the seat before the dealer */ \
	.t_warn = T_WARN,                                      \
	.match_start = match_start,                            \
	.dealt = dealt,                                        \
	.events = events,                                      \
	.refusal = refusal,                                    \
	.hand = hand,                                          \
	.turn = turn,                                          \
	.table_line = table_line,                              \
	.score = score,                                        \
	.rules = rules,                                        \
	.last = last,                                          \
	.command = command,                                    \
	.auto_seat = auto_seat,                                \
	.cards_held = cards_held,                              \
	.play_out = pcc_lost,                                  \
	.choose = choose,                                      \
	.hint_text = hint_text,                                \
	.action_json = action_json,                            \
	.deal_results = deal_results

const present present_304 = {
	.def = &game_def_304,
	.open_verb = "304",
	.t_ready = T_READY,
	.t_need_seats = T_NEED_FOUR,
	.t_about = T_ABOUT_304,
	.t_brief = T_BRIEF_304,
	.t_name = T_GAME_304,
	/* 304's parts name its other sizes, 504 and 904 too */
	.t_parts = { [PRESENT_PART_NEW] = T_PART_NEW_304, [PRESENT_PART_NEW_REFUSED] = T_PART_NEW_REFUSED_304,
		     [PRESENT_PART_STATS] = T_PART_STATS_304, [PRESENT_PART_CUT] = T_PART_CUT_304 },
	.page_first_batch = 4, /* cards each before the first bidding */
	.replay = &replay_304,
	.bands = &bands,
	PRESENT_304_FAMILY,
};

/* Every other table size: a row of its game, its words, the cards each
 * before the first bidding (g304_variant.first) and its bands of bids. */
#define PRESENT_304_SIZE(NAME, DEF, ABOUT, BRIEF, TNAME, FIRST, BANDS)                                  \
	static const replay_game replay_##NAME = REPLAY_304(DEF);                                      \
	const present NAME = { .def = &DEF, .t_ready = T_G_READY, .t_need_seats = T_G_NEED_SEATS,        \
			       .name_in_table_line = 1, .t_about = ABOUT, .t_brief = BRIEF, .t_name = TNAME, \
			       .page_first_batch = FIRST, .replay = &replay_##NAME, .bands = BANDS,          \
			       PRESENT_304_FAMILY }

PRESENT_304_SIZE(present_304six, game_def_304six, T_ABOUT_304SIX, T_BRIEF_304SIX, T_GAME_304SIX, 4, &bands);
PRESENT_304_SIZE(present_304eight, game_def_304eight, T_ABOUT_304EIGHT, T_BRIEF_304EIGHT, T_GAME_304EIGHT, 3, &bands);
PRESENT_304_SIZE(present_304six24, game_def_304six24, T_ABOUT_304SIX24, T_BRIEF_304SIX24, T_GAME_304SIX24, 3, &bands);
PRESENT_304_SIZE(present_504, game_def_504, T_ABOUT_504, T_BRIEF_504, T_GAME_504, 4, &bands_504);
PRESENT_304_SIZE(present_904, game_def_904, T_ABOUT_904, T_BRIEF_904, T_GAME_904, 4, &bands_904);
