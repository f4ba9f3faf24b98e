/* rook.c: the rules of partnership Rook and its 57-card pack. */
#include <string.h>
#include "rook.h"
#include "names.h"

NAMES_FUNCTION(rook_phase_name, ROOK_PHASE_LIST)
NAMES_FUNCTION(rook_act_name, ROOK_ACT_LIST)
NAMES_FUNCTION(rook_err_name, ROOK_ERR_LIST)
NAMES_FUNCTION(rook_ev_name, ROOK_EV_LIST)
int rook_act_parse(const char *name) { return names_find(rook_act_name, ROOK_ACT_COUNT, name); }

static const char colour_letters[ROOK_COLOURS] = { 'R', 'G', 'Y', 'B' };
static const char *const colour_names[ROOK_COLOURS] = { "red", "green", "yellow", "black" };

char rook_colour_letter(int c) { return c >= 0 && c < ROOK_COLOURS ? colour_letters[c] : '?'; }
const char *rook_colour_name(int c) { return c >= 0 && c < ROOK_COLOURS ? colour_names[c] : "?"; }

static int upper(int ch) { return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch; }

static int word_is(const char *s, const char *w)
{
	for (; *s && *w; s++, w++)
		if (upper((unsigned char)*s) != upper((unsigned char)*w))
			return 0;
	return !*s && !*w;
}

int rook_colour_parse(const char *s)
{
	if (!s)
		return -1;
	for (int c = 0; c < ROOK_COLOURS; c++) {
		if (upper((unsigned char)s[0]) == colour_letters[c] && s[1] == '\0')
			return c;
		if (word_is(s, colour_names[c]))
			return c;
	}
	return -1;
}

void rook_code(rcard c, char out[5])
{
	if (c == ROOK_BIRD) {
		memcpy(out, "ROOK", 5);
		return;
	}
	if (c > ROOK_BIRD) {
		memcpy(out, "??", 3);
		return;
	}
	int n = rook_number(c), i = 0;
	if (n >= 10)
		out[i++] = (char)('0' + n / 10);
	out[i++] = (char)('0' + n % 10);
	out[i++] = colour_letters[rook_colour(c)];
	out[i] = '\0';
}

rcard rook_parse(const char *s)
{
	if (!s)
		return ROOK_NONE;
	if (word_is(s, "ROOK"))
		return ROOK_BIRD;
	int n = 0, digits = 0;
	while (s[digits] >= '0' && s[digits] <= '9' && digits < 3)
		n = n * 10 + (s[digits++] - '0');
	if (digits == 0 || digits > 2 || s[0] == '0' || n < 1 || n > 14)
		return ROOK_NONE;
	s += digits;
	if (!s[0] || s[1])
		return ROOK_NONE;
	for (int c = 0; c < ROOK_COLOURS; c++)
		if (upper((unsigned char)s[0]) == colour_letters[c])
			return rook_make(c, n);
	return ROOK_NONE;
}

void rook_shuffle(rng *r, rcard deck[ROOK_CARDS]) { rng_shuffle(r, deck, ROOK_CARDS); }

static int after(int seat) { return (seat + 1) & 3; }

void rook_init(rook *g, int first_dealer)
{
	memset(g, 0, sizeof *g);
	g->dealer = (uint8_t)(first_dealer & 3);
	g->phase = ROOK_PHASE_DEAL;
	g->turn = g->bidder = ROOK_NO_SEAT;
	g->winner = -1;
	g->trump = -1;
	g->nest = g->discard = ROOK_NONE;
	g->last.bidder = ROOK_NO_SEAT;
	g->last.made = -1;
	g->last.cards_team = -1;
}

int rook_deal(rook *g, const rcard deck[ROOK_CARDS])
{
	if (g->phase == ROOK_PHASE_OVER)
		return ROOK_ERR_MATCH_OVER;
	if (g->phase != ROOK_PHASE_DEAL)
		return ROOK_ERR_WRONG_PHASE;
	memcpy(g->deck, deck, ROOK_CARDS);
	memset(g->hand, 0, sizeof g->hand);
	for (int i = 0; i < ROOK_CARDS - 1; i++)
		g->hand[(g->dealer + 1 + i) & 3] |= rook_bit(deck[i]);
	g->nest = deck[ROOK_CARDS - 1];
	g->discard = ROOK_NONE;
	g->deal_no++;
	g->phase = ROOK_PHASE_BID;
	g->turn = (uint8_t)after(g->dealer);
	g->passed = 0;
	g->bid = 0;
	g->bidder = ROOK_NO_SEAT;
	g->nbidlog = 0;
	g->trump = -1;
	PLAY_TRICKS_CLEAR(g, ROOK_TRICKS, ROOK_NO_SEAT);
	return ROOK_ERR_OK;
}

/* ---- bidding ---- */

static int last_must_bid(const rook *g, int seat)
{
	return g->bidder == ROOK_NO_SEAT && (g->passed | 1u << seat) == 0xf;
}

static int bid_min(const rook *g) { return g->bid ? g->bid + 5 : ROOK_MIN_BID; }

static void bidlog_add(rook *g, int seat, int value)
{
	if (g->nbidlog < ROOK_BIDLOG_MAX) {
		g->bidlog[g->nbidlog].seat = (uint8_t)seat;
		g->bidlog[g->nbidlog].value = (uint16_t)value;
		g->nbidlog++;
	}
}

static void bidding_won(rook *g, rook_result *res)
{
	g->hand[g->bidder] |= rook_bit(g->nest);
	g->nest = ROOK_NONE;
	g->phase = ROOK_PHASE_DISCARD;
	g->turn = g->bidder;
	play_emit(res, ROOK_EV_BIDDING_WON, g->bidder, g->bid, ROOK_NONE, 0);
}

static int apply_bid(rook *g, const rook_action *a, rook_result *res)
{
	int seat = a->seat;
	if (a->type != ROOK_ACT_BID && a->type != ROOK_ACT_PASS)
		return play_refuse(res, ROOK_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, ROOK_ERR_NOT_YOUR_TURN, g->turn, 0);
	if (a->type == ROOK_ACT_BID) {
		int v = a->value;
		if (v > ROOK_MAX_BID)
			return play_refuse(res, ROOK_ERR_BID_TOO_HIGH, ROOK_MAX_BID, 0);
		if (v % 5)
			return play_refuse(res, ROOK_ERR_BID_NOT_MULTIPLE, v, 0);
		if (v < ROOK_MIN_BID)
			return play_refuse(res, ROOK_ERR_BID_TOO_LOW, ROOK_MIN_BID, 0);
		if (v <= g->bid)
			return play_refuse(res, ROOK_ERR_BID_NOT_HIGHER, g->bid, 0);
		g->bid = (uint16_t)v;
		g->bidder = (uint8_t)seat;
		bidlog_add(g, seat, v);
		play_emit(res, ROOK_EV_BID, seat, v, ROOK_NONE, 0);
		/* 200 wins at once; so does a bid when everyone else has passed. */
		if (v == ROOK_MAX_BID || (g->passed | 1u << seat) == 0xf) {
			bidding_won(g, res);
			return ROOK_ERR_OK;
		}
	} else {
		if (last_must_bid(g, seat))
			return play_refuse(res, ROOK_ERR_LAST_MUST_BID, ROOK_MIN_BID, 0);
		g->passed |= (uint8_t)(1u << seat);
		bidlog_add(g, seat, 0);
		play_emit(res, ROOK_EV_PASS, seat, 0, ROOK_NONE, 0);
		if (g->bidder != ROOK_NO_SEAT && (g->passed | 1u << g->bidder) == 0xf) {
			bidding_won(g, res);
			return ROOK_ERR_OK;
		}
	}
	int next = after(seat);
	while (g->passed >> next & 1)
		next = after(next);
	g->turn = (uint8_t)next;
	return ROOK_ERR_OK;
}

/* ---- play ---- */

/* The suit a card belongs to in play: its colour, the trump colour for the Rook. */
static int suit_of(const rook *g, rcard c) { return c == ROOK_BIRD ? g->trump : rook_colour(c); }

static rcardset suit_cards(const rook *g, int suit)
{
	rcardset s = rook_colour_mask(suit);
	if (suit == g->trump)
		s |= rook_bit(ROOK_BIRD);
	return s;
}

static rcardset legal_cards(const rook *g, int seat)
{
	rcardset h = g->hand[seat];
	const rook_trick *t = &g->tricks[g->trick_no];
	if (t->n == 0)
		return h;
	rcardset f = h & suit_cards(g, suit_of(g, t->card[0]));
	return f ? f : h;
}

static rcardset discardable(const rook *g, int seat)
{
	rcardset h = g->hand[seat], s = 0;
	for (rcardset x = h; x; x &= x - 1)
		if (!rook_points(rook_first(x)))
			s |= rook_bit(rook_first(x));
	return s ? s : h; /* a hand of nothing but counters: any card */
}

static void end_hand(rook *g, rook_result *res)
{
	rook_hand_end *e = &g->last;
	int bt = g->bidder & 1;
	memset(e, 0, sizeof *e);
	e->scored = 1;
	e->bidder = g->bidder;
	e->bid = g->bid;
	/* The discard is a non-counter except in the all-counters corner; then
	 * it goes with the last trick. */
	int last_team = g->tricks[ROOK_TRICKS - 1].winner & 1;
	for (int t = 0; t < 2; t++) {
		e->points[t] = (int16_t)rook_set_points(g->won[t]);
		e->tricks[t] = g->tricks_won[t];
	}
	e->points[last_team] = (int16_t)(e->points[last_team] + rook_points(g->discard));
	e->cards_team = (int8_t)(g->tricks_won[bt] * 2 >= ROOK_TRICKS ? bt : !bt);
	e->points[e->cards_team] = (int16_t)(e->points[e->cards_team] + ROOK_CARDS_BONUS);
	e->made = e->points[bt] >= g->bid;
	e->delta[bt] = (int16_t)(e->made ? e->points[bt] : -(int)g->bid);
	e->delta[!bt] = e->points[!bt];
	for (int t = 0; t < 2; t++) {
		g->score[t] += e->delta[t];
		e->score[t] = g->score[t];
	}
	g->turn = ROOK_NO_SEAT;
	g->dealer = (uint8_t)after(g->dealer);
	play_emit(res, ROOK_EV_HAND_END, g->bidder, 0, ROOK_NONE, 0);
	int over0 = g->score[0] >= ROOK_GAME, over1 = g->score[1] >= ROOK_GAME;
	if (over0 || over1) {
		if (over0 && over1)
			g->winner = (int8_t)(g->score[0] == g->score[1] ? bt : g->score[1] > g->score[0]);
		else
			g->winner = (int8_t)(over1 ? 1 : 0);
		g->phase = ROOK_PHASE_OVER;
		play_emit(res, ROOK_EV_MATCH_END, g->winner, 0, ROOK_NONE, 0);
	} else {
		g->phase = ROOK_PHASE_DEAL;
	}
}

static void finish_trick(rook *g, rook_result *res)
{
	rook_trick *t = &g->tricks[g->trick_no];
	int led = suit_of(g, t->card[0]), best = 0;
	for (int i = 1; i < ROOK_SEATS; i++) {
		int si = suit_of(g, t->card[i]), sb = suit_of(g, t->card[best]);
		if (si == g->trump && sb != g->trump)
			best = i;
		else if (si == sb && (si == g->trump || si == led) &&
			 rook_strength(t->card[i]) > rook_strength(t->card[best]))
			best = i;
	}
	int w = t->seat[best];
	t->winner = (uint8_t)w;
	for (int i = 0; i < ROOK_SEATS; i++)
		g->won[w & 1] |= rook_bit(t->card[i]);
	g->tricks_won[w & 1]++;
	play_emit(res, ROOK_EV_TRICK, w, g->trick_no, ROOK_NONE, 0);
	if (g->trick_no + 1 >= ROOK_TRICKS) {
		end_hand(g, res);
		return;
	}
	g->trick_no++;
	g->tricks[g->trick_no].leader = (uint8_t)w;
	g->tricks[g->trick_no].winner = ROOK_NO_SEAT;
	g->turn = (uint8_t)w;
}

int rook_apply(rook *g, const rook_action *a, rook_result *res)
{
	int err = play_start(res, a->seat, ROOK_SEATS, a->type, ROOK_ACT_COUNT, ROOK_ERR_BAD_SEAT, ROOK_ERR_BAD_ACTION);
	if (err)
		return err;
	switch (g->phase) {
	case ROOK_PHASE_OVER:
		return play_refuse(res, ROOK_ERR_MATCH_OVER, 0, 0);
	case ROOK_PHASE_DEAL:
		return play_refuse(res, ROOK_ERR_NO_DEAL, 0, 0);
	case ROOK_PHASE_BID:
		return apply_bid(g, a, res);
	case ROOK_PHASE_DISCARD:
		if (a->type != ROOK_ACT_DISCARD)
			return play_refuse(res, ROOK_ERR_WRONG_PHASE, g->phase, 0);
		if (a->seat != g->bidder)
			return play_refuse(res, ROOK_ERR_NOT_BIDDER, g->bidder, 0);
		if (a->card >= ROOK_CARDS || !(g->hand[a->seat] & rook_bit(a->card)))
			return play_refuse(res, ROOK_ERR_NOT_IN_HAND, a->card, 0);
		if (!(discardable(g, a->seat) & rook_bit(a->card)))
			return play_refuse(res, ROOK_ERR_DISCARD_COUNTER, a->card, 0);
		g->hand[a->seat] &= ~rook_bit(a->card);
		g->discard = a->card;
		g->phase = ROOK_PHASE_TRUMP;
		play_emit(res, ROOK_EV_DISCARDED, a->seat, 0, ROOK_NONE, 0);
		return ROOK_ERR_OK;
	case ROOK_PHASE_TRUMP:
		if (a->type != ROOK_ACT_TRUMP)
			return play_refuse(res, ROOK_ERR_WRONG_PHASE, g->phase, 0);
		if (a->seat != g->bidder)
			return play_refuse(res, ROOK_ERR_NOT_BIDDER, g->bidder, 0);
		if (a->value >= ROOK_COLOURS)
			return play_refuse(res, ROOK_ERR_BAD_COLOUR, a->value, 0);
		g->trump = (int8_t)a->value;
		g->phase = ROOK_PHASE_PLAY;
		g->tricks[0].leader = g->bidder;
		g->turn = g->bidder;
		play_emit(res, ROOK_EV_TRUMP, a->seat, a->value, ROOK_NONE, 0);
		return ROOK_ERR_OK;
	case ROOK_PHASE_PLAY: {
		if (a->type != ROOK_ACT_PLAY)
			return play_refuse(res, ROOK_ERR_WRONG_PHASE, g->phase, 0);
		if (a->seat != g->turn)
			return play_refuse(res, ROOK_ERR_NOT_YOUR_TURN, g->turn, 0);
		rcard c = a->card;
		if (c >= ROOK_CARDS || !(g->hand[a->seat] & rook_bit(c)))
			return play_refuse(res, ROOK_ERR_NOT_IN_HAND, c, 0);
		rook_trick *t = &g->tricks[g->trick_no];
		if (!(legal_cards(g, a->seat) & rook_bit(c)))
			return play_refuse(res, ROOK_ERR_FOLLOW_SUIT, suit_of(g, t->card[0]), 0);
		g->hand[a->seat] &= ~rook_bit(c);
		PLAY_TRICK_ADD(t, a->seat, c);
		play_emit(res, ROOK_EV_PLAYED, a->seat, 0, c, 0);
		if (t->n == ROOK_SEATS)
			finish_trick(g, res);
		else
			g->turn = (uint8_t)after(a->seat);
		return ROOK_ERR_OK;
	}
	}
	return play_refuse(res, ROOK_ERR_WRONG_PHASE, g->phase, 0);
}

void rook_legal_of(const rook *g, int seat, rook_legal *out)
{
	memset(out, 0, sizeof *out);
	if (seat < 0 || seat >= ROOK_SEATS || seat != g->turn)
		return;
	switch (g->phase) {
	case ROOK_PHASE_BID:
		out->acts = 1u << ROOK_ACT_BID;
		out->bid_min = (uint16_t)bid_min(g);
		if (!last_must_bid(g, seat))
			out->acts |= 1u << ROOK_ACT_PASS;
		break;
	case ROOK_PHASE_DISCARD:
		out->acts = 1u << ROOK_ACT_DISCARD;
		out->cards = discardable(g, seat);
		break;
	case ROOK_PHASE_TRUMP:
		out->acts = 1u << ROOK_ACT_TRUMP;
		break;
	case ROOK_PHASE_PLAY:
		out->acts = 1u << ROOK_ACT_PLAY;
		out->cards = legal_cards(g, seat);
		break;
	default:
		break;
	}
}

void rook_view_of(const rook *g, int seat, rook_view *v)
{
	PLAY_VIEW_HEAD(v, g, seat);
	v->winner = g->winner;
	v->discard = ROOK_NONE;
	v->trump = -1;
	v->bidder = ROOK_NO_SEAT;
	v->score[0] = g->score[0];
	v->score[1] = g->score[1];
	v->last = g->last;
	v->trick.winner = v->last_trick.winner = ROOK_NO_SEAT;
	v->nest_card = ROOK_NONE;
	if (seat < 0 || seat >= ROOK_SEATS || g->phase == ROOK_PHASE_DEAL || g->phase == ROOK_PHASE_OVER)
		return;
	v->hand = g->hand[seat];
	v->bid = g->bid;
	v->bidder = g->bidder;
	v->passed = g->passed;
	v->nbidlog = g->nbidlog;
	memcpy(v->bidlog, g->bidlog, sizeof v->bidlog);
	v->nest = g->nest != ROOK_NONE;
	if (seat == g->bidder && g->phase != ROOK_PHASE_BID) {
		v->discard = g->discard;
		v->nest_card = g->deck[ROOK_CARDS - 1]; /* taken by the bidder (rook_deal) */
	}
	v->trump = g->trump;
	v->trick_no = g->trick_no;
	if (g->phase == ROOK_PHASE_PLAY) {
		v->trick = g->tricks[g->trick_no];
		/* Taken tricks may not be reviewed until the end of the round
		 * (004): the trick just taken is shown until the next card. */
		if (g->trick_no > 0 && g->tricks[g->trick_no].n == 0)
			v->last_trick = g->tricks[g->trick_no - 1];
		/* What every seat saw played, for its memory. */
		for (int t = 0; t <= g->trick_no && t < ROOK_TRICKS; t++) {
			const rook_trick *k = &g->tricks[t];
			if (t < g->trick_no)
				v->taken[t] = *k;
			for (int i = 0; i < k->n; i++) {
				v->played |= rook_bit(k->card[i]);
				int led = suit_of(g, k->card[0]);
				if (i > 0 && suit_of(g, k->card[i]) != led)
					v->voids[k->seat[i]] |= (uint8_t)(1u << led);
			}
		}
	}
	for (int t = g->phase == ROOK_PHASE_PLAY ? g->trick_no : 0; t < ROOK_TRICKS; t++)
		v->taken[t].winner = ROOK_NO_SEAT;
	v->tricks_won[0] = g->tricks_won[0];
	v->tricks_won[1] = g->tricks_won[1];
}
