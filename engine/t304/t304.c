/* t304.c: the rules of Trump304 (2, 3 or 4 players). */
#include <string.h>
#include "t304.h"
#include "names.h"

NAMES_FUNCTION(t304_phase_name, T304_PHASE_LIST)
NAMES_FUNCTION(t304_act_name, T304_ACT_LIST)
NAMES_FUNCTION(t304_err_name, T304_ERR_LIST)
NAMES_FUNCTION(t304_ev_name, T304_EV_LIST)
NAMES_FUNCTION(t304_outcome_name, T304_OUTCOME_LIST)
int t304_act_parse(const char *name) { return names_find(t304_act_name, T304_ACT_COUNT, name); }

int t304_payoff(int bid) { return bid >= T304_BID_ALL ? 10 : bid >= T304_LIMIT_BID ? 6 : 5; }
int t304_charge(int bid) { return bid >= T304_BID_ALL ? 7 : bid >= T304_LIMIT_BID ? 5 : 3; }

int t304_bid_ok(int v)
{
	return v == T304_BID_ALL || (v >= T304_MIN_BID && v <= T304_MAX_NUMERIC && v % 10 == 0);
}

static int next_bid(int v) { return v == 0 ? T304_MIN_BID : v >= T304_MAX_NUMERIC ? T304_BID_ALL : v + 10; }

static int after(const t304 *g, int seat) { return (seat + 1) % g->nseats; }

int t304_same_side(int nseats, int trumper, int a, int b)
{
	if (a == b)
		return 1;
	if (nseats == 4)
		return (a & 1) == (b & 1);
	if (nseats == 3 && trumper != T304_NO_SEAT)
		return a != trumper && b != trumper;
	return 0;
}

int t304_init(t304 *g, int nseats, int first_dealer)
{
	memset(g, 0, sizeof *g);
	if (nseats < 2 || nseats > T304_MAX_SEATS || first_dealer < 0 || first_dealer >= nseats)
		return T304_ERR_BAD_SEAT;
	g->nseats = (uint8_t)nseats;
	g->dealer = (uint8_t)first_dealer;
	g->phase = T304_PHASE_DEAL;
	g->turn = g->bidder = g->trumper = g->must_cut = g->revealed_by = T304_NO_SEAT;
	g->trump_card = CARD_NONE;
	g->ntricks = (uint8_t)(nseats == 2 ? 16 : nseats == 3 ? 10 : 8);
	g->last.outcome = T304_OUTCOME_NONE;
	g->last.trumper = T304_NO_SEAT;
	g->last.made = -1;
	g->last.nsides = (uint8_t)t304_nsides(g);
	return T304_ERR_OK;
}

int t304_deal(t304 *g, const card deck[CARD_COUNT])
{
	if (g->phase != T304_PHASE_DEAL)
		return T304_ERR_WRONG_PHASE;
	int n = g->nseats, k = 0;
	memcpy(g->deck, deck, CARD_COUNT);
	memset(g->hand, 0, sizeof g->hand);
	memset(g->held, 0, sizeof g->held);
	memset(g->won, 0, sizeof g->won);
	memset(g->played, 0, sizeof g->played);
	memset(g->voids, 0, sizeof g->voids);
	static const int rounds4[] = { 4, 4 }, rounds23[] = { 4, 4, 2 };
	const int *rounds = n == 4 ? rounds4 : rounds23;
	int nrounds = n == 4 ? 2 : 3;
	for (int r = 0; r < nrounds; r++)
		for (int i = 1; i <= n; i++) {
			int seat = (g->dealer + i) % n;
			for (int j = 0; j < rounds[r]; j++)
				g->hand[seat] |= card_bit(deck[k++]);
		}
	for (int s = 0; s < n; s++)
		g->held[s] = g->hand[s];
	g->centre = 0;
	g->npile = 0;
	if (n == 3)
		g->centre = card_bit(deck[30]) | card_bit(deck[31]);
	else if (n == 2)
		g->npile = T304_PILE;
	g->putdown = 0;
	g->deal_no++;
	g->phase = T304_PHASE_BID;
	g->turn = (uint8_t)after(g, g->dealer);
	g->spoke = g->overbid = g->any200 = g->passes = 0;
	g->bid = 0;
	g->bidder = g->trumper = g->must_cut = T304_NO_SEAT;
	g->nbidlog = 0;
	g->trump_card = CARD_NONE;
	g->trump_suit = 0;
	g->revealed = 0;
	g->revealed_by = T304_NO_SEAT;
	g->trick_no = 0;
	memset(g->tricks, 0, sizeof g->tricks);
	for (int t = 0; t < T304_MAX_TRICKS; t++)
		g->tricks[t].winner = T304_NO_SEAT;
	return T304_ERR_OK;
}

/* ---- the end of a deal ---- */

static void end_deal(t304 *g, int outcome, t304_result *res)
{
	t304_deal_end *e = &g->last;
	memset(e, 0, sizeof *e);
	e->outcome = (uint8_t)outcome;
	e->trumper = g->trumper;
	e->bid = g->bid;
	e->made = -1;
	e->nsides = (uint8_t)t304_nsides(g);
	if (outcome == T304_OUTCOME_SCORED) {
		cardset mine = 0, theirs = g->putdown | g->centre;
		for (int s = 0; s < g->nseats; s++) {
			if (t304_partners(g, s, g->trumper))
				mine |= g->won[s];
			else
				theirs |= g->won[s];
		}
		e->points[0] = (int16_t)cardset_points(mine);
		e->points[1] = (int16_t)cardset_points(theirs);
		e->made = e->points[0] >= g->bid;
		/* The losing side pays the winning side (002, 3.0): each opposing
		 * side settles with the trumper's side, so with three players the
		 * trumper pays (or is paid by) each opponent. */
		int ts = t304_side(g, g->trumper);
		int amount = e->made ? t304_payoff(g->bid) : t304_charge(g->bid);
		for (int side = 0; side < e->nsides; side++)
			if (side != ts) {
				e->change[side] = (int16_t)(e->made ? -amount : amount);
				e->change[ts] = (int16_t)(e->change[ts] - e->change[side]);
			}
		for (int side = 0; side < e->nsides; side++)
			g->tokens[side] += e->change[side];
	}
	for (int side = 0; side < e->nsides; side++)
		e->tokens[side] = g->tokens[side];
	g->phase = T304_PHASE_DEAL;
	g->turn = g->must_cut = T304_NO_SEAT;
	g->dealer = (uint8_t)after(g, g->dealer);
	play_emit(res, T304_EV_DEAL_END, e->trumper, outcome, CARD_NONE, 0);
}

/* Every card of the trump suit is on the trumper's side. Two players: all
 * cards the trumper held (the draws included); three and four: the hands
 * (and the trump card) when play starts. */
static int spoilt(const t304 *g)
{
	cardset side = card_bit(g->trump_card);
	for (int s = 0; s < g->nseats; s++)
		if (t304_partners(g, s, g->trumper))
			side |= g->nseats == 2 ? g->held[s] : g->hand[s];
	cardset suit = suit_mask(g->trump_suit);
	return (side & suit) == suit;
}

static void reveal(t304 *g, int seat, int flags, t304_result *res)
{
	g->revealed = 1;
	g->revealed_by = (uint8_t)seat;
	g->hand[g->trumper] |= card_bit(g->trump_card);
	g->voids[g->trumper] &= (uint8_t)~(1u << g->trump_suit);
	play_emit(res, T304_EV_REVEALED, seat, 0, g->trump_card, flags);
}

static void start_trick(t304 *g, int leader, t304_result *res)
{
	t304_trick *t = &g->tricks[g->trick_no];
	t->leader = (uint8_t)leader;
	t->n = 0;
	t->winner = T304_NO_SEAT;
	g->turn = (uint8_t)leader;
	if (g->trick_no == g->ntricks - 1 && !g->revealed)
		reveal(g, g->trumper, 4, res);
}

static void start_play(t304 *g, t304_result *res)
{
	if (spoilt(g)) {
		play_emit(res, T304_EV_SPOILT, g->trumper, 0, CARD_NONE, 0);
		end_deal(g, T304_OUTCOME_SPOILT, res);
		return;
	}
	g->phase = T304_PHASE_PLAY;
	int leader = g->bid == T304_BID_ALL ? g->trumper : after(g, g->dealer);
	play_emit(res, T304_EV_PLAY_STARTS, leader, 0, CARD_NONE, 0);
	start_trick(g, leader, res);
}

/* ---- bidding ---- */

/* The bids seat may make now: *lo..*hi (tens, and 304); 0 if none. Sets
 * *forced when the dealer must bid 150. */
static int bid_range(const t304 *g, int seat, int *lo, int *forced)
{
	*forced = 0;
	if (g->bidder == T304_NO_SEAT && seat == g->dealer) {
		*forced = 1;
		*lo = T304_MIN_BID;
		return 1;
	}
	if (g->bid >= T304_BID_ALL)
		return 0;
	int l = next_bid(g->bid);
	int spoke = g->spoke >> seat & 1;
	int over_partner = g->bidder != T304_NO_SEAT && g->nseats == 4 &&
			   t304_partners(g, seat, g->bidder) && !(g->overbid >> g->bidder & 1);
	if (spoke || over_partner) {
		if (g->any200)
			return 0;
		if (l < T304_LIMIT_BID)
			l = T304_LIMIT_BID;
	}
	*lo = l;
	return 1;
}

static int bid_check(const t304 *g, int seat, int v, t304_result *res)
{
	int lo, forced;
	if (v > T304_BID_ALL)
		return play_refuse(res, T304_ERR_BID_TOO_HIGH, T304_BID_ALL, 0);
	if (!t304_bid_ok(v) && v >= T304_MIN_BID)
		return play_refuse(res, T304_ERR_BID_NOT_MULTIPLE, v, 0);
	if (v < T304_MIN_BID)
		return play_refuse(res, T304_ERR_BID_TOO_LOW, T304_MIN_BID, 0);
	if (!bid_range(g, seat, &lo, &forced)) {
		if (g->bid >= T304_BID_ALL)
			return play_refuse(res, T304_ERR_BID_NOT_HIGHER, g->bid, 0);
		if (g->spoke >> seat & 1)
			return play_refuse(res, T304_ERR_BID_ONCE, g->any200, 0);
		return play_refuse(res, T304_ERR_BID_OVER_PARTNER, g->bidder, g->any200);
	}
	if (forced)
		return v == T304_MIN_BID ? T304_ERR_OK : play_refuse(res, T304_ERR_DEALER_FORCED, T304_MIN_BID, 0);
	if (v <= g->bid)
		return play_refuse(res, T304_ERR_BID_NOT_HIGHER, g->bid, 0);
	if (v < lo) {
		if (g->spoke >> seat & 1)
			return play_refuse(res, T304_ERR_BID_ONCE, g->any200, 0);
		return play_refuse(res, T304_ERR_BID_OVER_PARTNER, g->bidder, g->any200);
	}
	return T304_ERR_OK;
}

static void bidlog_add(t304 *g, int seat, int value)
{
	if (g->nbidlog < T304_BIDLOG_MAX) {
		g->bidlog[g->nbidlog].seat = (uint8_t)seat;
		g->bidlog[g->nbidlog].value = (uint16_t)value;
		g->nbidlog++;
	}
}

static int apply_bid(t304 *g, const t304_action *a, t304_result *res)
{
	int seat = a->seat;
	if (a->type != T304_ACT_BID && a->type != T304_ACT_PASS)
		return play_refuse(res, T304_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, T304_ERR_NOT_YOUR_TURN, g->turn, 0);
	if (a->type == T304_ACT_BID) {
		int err = bid_check(g, seat, a->value, res);
		if (err)
			return err;
		if (g->bidder != T304_NO_SEAT && !t304_partners(g, seat, g->bidder))
			g->overbid |= (uint8_t)(1u << g->bidder);
		g->bid = a->value;
		g->bidder = (uint8_t)seat;
		if (a->value >= T304_LIMIT_BID)
			g->any200 = 1;
		g->passes = 0;
		bidlog_add(g, seat, a->value);
		play_emit(res, T304_EV_BID, seat, a->value, CARD_NONE, 0);
	} else {
		if (g->bidder == T304_NO_SEAT && seat == g->dealer)
			return play_refuse(res, T304_ERR_DEALER_MUST_BID, T304_MIN_BID, 0);
		g->passes++;
		bidlog_add(g, seat, 0);
		play_emit(res, T304_EV_PASS, seat, 0, CARD_NONE, 0);
	}
	g->spoke |= (uint8_t)(1u << seat);
	if (g->bidder != T304_NO_SEAT && g->passes >= g->nseats - 1) {
		g->trumper = g->bidder;
		g->phase = T304_PHASE_TRUMP;
		g->turn = g->trumper;
		play_emit(res, T304_EV_BIDDING_WON, g->bidder, g->bid, CARD_NONE, 0);
		return T304_ERR_OK;
	}
	int next = after(g, seat);
	if (next == g->bidder)
		next = after(g, next);
	g->turn = (uint8_t)next;
	return T304_ERR_OK;
}

/* ---- play ---- */

static cardset legal_cards(const t304 *g, int seat)
{
	cardset h = g->hand[seat];
	const t304_trick *t = &g->tricks[g->trick_no];
	if (g->must_cut == seat) {
		cardset tr = h & suit_mask(g->trump_suit);
		return tr ? tr : h;
	}
	if (t->n == 0)
		return h;
	cardset led = h & suit_mask(card_suit(t->card[0]));
	return led ? led : h;
}

static int may_reveal(const t304 *g, int seat)
{
	const t304_trick *t = &g->tricks[g->trick_no];
	return !g->revealed && t->n > 0 && !(g->hand[seat] & suit_mask(card_suit(t->card[0])));
}

int t304_trick_best(const t304_trick *t)
{
	int led = card_suit(t->card[0]), best = 0, best_cut = t->cut & 1;
	for (int i = 1; i < t->n; i++) {
		int cut = t->cut >> i & 1;
		if (cut && (!best_cut || t->card[i] > t->card[best])) {
			best = i;
			best_cut = 1;
		} else if (!best_cut && !cut && card_suit(t->card[i]) == led && t->card[i] > t->card[best]) {
			best = i;
		}
	}
	return best;
}

static void finish_trick(t304 *g, t304_result *res)
{
	t304_trick *t = &g->tricks[g->trick_no];
	int w = t->seat[t304_trick_best(t)];
	t->winner = (uint8_t)w;
	for (int i = 0; i < t->n; i++)
		g->won[w] |= card_bit(t->card[i]);
	play_emit(res, T304_EV_TRICK, w, g->trick_no, CARD_NONE, 0);
	if (g->npile > 0) {
		for (int k = 0; k < 2 && g->npile > 0; k++) {
			int s = k == 0 ? w : after(g, w);
			card c = g->deck[CARD_COUNT - g->npile];
			g->npile--;
			g->hand[s] |= card_bit(c);
			g->held[s] |= card_bit(c);
			g->voids[s] = 0; /* the drawn card is unseen */
			play_emit(res, T304_EV_DRAW, s, g->npile, CARD_NONE, 0);
		}
		if (g->npile == 0 && spoilt(g)) {
			play_emit(res, T304_EV_SPOILT, g->trumper, 0, CARD_NONE, 0);
			end_deal(g, T304_OUTCOME_SPOILT, res);
			return;
		}
	}
	if (g->trick_no + 1 >= g->ntricks) {
		end_deal(g, T304_OUTCOME_SCORED, res);
		return;
	}
	g->trick_no++;
	start_trick(g, w, res);
}

static int apply_play(t304 *g, const t304_action *a, t304_result *res)
{
	int seat = a->seat;
	t304_trick *t = &g->tricks[g->trick_no];
	if (a->type != T304_ACT_PLAY && a->type != T304_ACT_REVEAL)
		return play_refuse(res, T304_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, T304_ERR_NOT_YOUR_TURN, g->turn, 0);
	if (a->type == T304_ACT_REVEAL) {
		if (g->revealed)
			return play_refuse(res, T304_ERR_ALREADY_REVEALED, 0, 0);
		if (t->n == 0)
			return play_refuse(res, T304_ERR_REVEAL_LEAD, 0, 0);
		if (!may_reveal(g, seat))
			return play_refuse(res, T304_ERR_REVEAL_CAN_FOLLOW, card_suit(t->card[0]), 0);
		g->must_cut = (uint8_t)seat;
		reveal(g, seat, seat == g->trumper ? 2 : 1, res);
		return T304_ERR_OK;
	}
	card c = a->card;
	if (c >= CARD_COUNT || !(g->hand[seat] & card_bit(c))) {
		if (c < CARD_COUNT && seat == g->trumper && c == g->trump_card)
			return play_refuse(res, T304_ERR_TRUMP_CARD_ASIDE, 0, 0);
		return play_refuse(res, T304_ERR_NOT_IN_HAND, c, 0);
	}
	if (!(legal_cards(g, seat) & card_bit(c))) {
		if (g->must_cut == seat)
			return play_refuse(res, T304_ERR_MUST_CUT, g->trump_suit, 0);
		return play_refuse(res, T304_ERR_FOLLOW_SUIT, card_suit(t->card[0]), 0);
	}
	/* A cut is a trump played, once the trump is known, to a trick led in
	 * another suit (002, 2.5 and 2.5.2): a trump that follows a trump lead
	 * only follows suit, even when the reveal came after that lead. */
	int cut = g->revealed && card_suit(c) == g->trump_suit && t->n > 0 && card_suit(t->card[0]) != g->trump_suit;
	if (t->n > 0 && card_suit(c) != card_suit(t->card[0]))
		g->voids[seat] |= (uint8_t)(1u << card_suit(t->card[0]));
	if (g->must_cut == seat && card_suit(c) != g->trump_suit)
		g->voids[seat] |= (uint8_t)(1u << g->trump_suit);
	g->played[seat] |= card_bit(c);
	g->hand[seat] &= ~card_bit(c);
	if (cut)
		t->cut |= (uint8_t)(1u << t->n);
	PLAY_TRICK_ADD(t, seat, c);
	g->must_cut = T304_NO_SEAT;
	play_emit(res, T304_EV_PLAYED, seat, 0, c, cut);
	if (t->n == g->nseats)
		finish_trick(g, res);
	else
		g->turn = (uint8_t)after(g, seat);
	return T304_ERR_OK;
}

int t304_apply(t304 *g, const t304_action *a, t304_result *res)
{
	int err = play_start(res, a->seat, g->nseats, a->type, T304_ACT_COUNT, T304_ERR_BAD_SEAT, T304_ERR_BAD_ACTION);
	if (err)
		return err;
	switch (g->phase) {
	case T304_PHASE_DEAL:
		return play_refuse(res, T304_ERR_NO_DEAL, 0, 0);
	case T304_PHASE_BID:
		return apply_bid(g, a, res);
	case T304_PHASE_TRUMP: {
		if (a->type != T304_ACT_TRUMP)
			return play_refuse(res, T304_ERR_WRONG_PHASE, g->phase, 0);
		if (a->seat != g->trumper)
			return play_refuse(res, T304_ERR_NOT_TRUMPER, g->trumper, 0);
		if (a->card >= CARD_COUNT || !(g->hand[a->seat] & card_bit(a->card)))
			return play_refuse(res, T304_ERR_NOT_IN_HAND, a->card, 0);
		g->trump_card = a->card;
		g->trump_suit = (uint8_t)card_suit(a->card);
		g->hand[a->seat] &= ~card_bit(a->card);
		play_emit(res, T304_EV_TRUMP_SET, a->seat, 0, CARD_NONE, 0);
		if (g->nseats == 3) {
			g->phase = T304_PHASE_EXCHANGE;
			g->turn = g->trumper;
		} else {
			start_play(g, res);
		}
		return T304_ERR_OK;
	}
	case T304_PHASE_EXCHANGE:
		if (a->type != T304_ACT_EXCHANGE && a->type != T304_ACT_KEEP)
			return play_refuse(res, T304_ERR_WRONG_PHASE, g->phase, 0);
		if (a->seat != g->trumper)
			return play_refuse(res, T304_ERR_NOT_TRUMPER, g->trumper, 0);
		if (a->type == T304_ACT_EXCHANGE) {
			card p = a->put[0], q = a->put[1];
			if (p >= CARD_COUNT || q >= CARD_COUNT || p == q)
				return play_refuse(res, T304_ERR_EXCHANGE_CARDS, 0, 0);
			cardset put = card_bit(p) | card_bit(q);
			if ((g->hand[a->seat] & put) != put)
				return play_refuse(res, T304_ERR_NOT_IN_HAND, (g->hand[a->seat] & card_bit(p)) ? q : p, 0);
			g->hand[a->seat] = (g->hand[a->seat] & ~put) | g->centre;
			g->held[a->seat] |= g->centre;
			g->putdown = put;
			g->centre = 0;
		}
		play_emit(res, T304_EV_EXCHANGED, a->seat, 0, CARD_NONE, a->type == T304_ACT_EXCHANGE);
		start_play(g, res);
		return T304_ERR_OK;
	case T304_PHASE_PLAY:
		return apply_play(g, a, res);
	}
	return play_refuse(res, T304_ERR_WRONG_PHASE, g->phase, 0);
}

void t304_legal_of(const t304 *g, int seat, t304_legal *out)
{
	memset(out, 0, sizeof *out);
	if (seat < 0 || seat >= g->nseats || seat != g->turn)
		return;
	switch (g->phase) {
	case T304_PHASE_BID: {
		int lo, forced;
		if (bid_range(g, seat, &lo, &forced)) {
			out->acts |= 1u << T304_ACT_BID;
			out->bid_min = (uint16_t)lo;
			out->bid_max = forced ? T304_MIN_BID : T304_BID_ALL;
		}
		if (!forced) {
			out->acts |= 1u << T304_ACT_PASS;
			out->can_pass = 1;
		}
		break;
	}
	case T304_PHASE_TRUMP:
		out->acts = 1u << T304_ACT_TRUMP;
		out->cards = g->hand[seat];
		break;
	case T304_PHASE_EXCHANGE:
		out->acts = 1u << T304_ACT_EXCHANGE | 1u << T304_ACT_KEEP;
		out->cards = g->hand[seat];
		break;
	case T304_PHASE_PLAY:
		out->acts = 1u << T304_ACT_PLAY;
		out->cards = legal_cards(g, seat);
		if (g->must_cut != seat && may_reveal(g, seat))
			out->acts |= 1u << T304_ACT_REVEAL;
		break;
	default:
		break;
	}
}

void t304_view_of(const t304 *g, int seat, t304_view *v)
{
	PLAY_VIEW_HEAD(v, g, seat);
	v->nseats = g->nseats;
	v->trumper = v->bidder = T304_NO_SEAT;
	v->trump_card = CARD_NONE;
	v->trump_suit = -1;
	v->must_cut = g->must_cut;
	v->revealed_by = T304_NO_SEAT;
	v->nsides = (uint8_t)t304_nsides(g);
	for (int s = 0; s < T304_MAX_SEATS; s++)
		v->tokens[s] = g->tokens[s];
	v->last = g->last;
	v->trick.winner = v->last_trick.winner = T304_NO_SEAT;
	if (seat < 0 || seat >= g->nseats || g->phase == T304_PHASE_DEAL)
		return;
	v->hand = g->hand[seat];
	v->trumper = g->trumper;
	v->bid = g->bid;
	v->bidder = g->bid ? g->bidder : T304_NO_SEAT;
	v->nbidlog = g->nbidlog;
	memcpy(v->bidlog, g->bidlog, sizeof v->bidlog);
	if (g->trump_card != CARD_NONE) {
		v->trump_aside = !g->revealed;
		v->revealed = g->revealed;
		if (g->revealed)
			v->revealed_by = g->revealed_by;
		if (g->revealed || seat == g->trumper) {
			v->trump_card = g->trump_card;
			v->trump_suit = (int8_t)g->trump_suit;
		}
	}
	v->centre = (uint8_t)cardset_count(g->centre);
	v->exchanged = g->putdown != 0;
	if (seat == g->trumper)
		v->putdown = g->putdown;
	v->npile = g->npile;
	v->held = g->held[seat];
	for (int s = 0; s < g->nseats; s++) {
		v->played[s] = g->played[s];
		v->won[s] = g->won[s];
		v->voids[s] = g->voids[s];
	}
	v->ntricks = g->ntricks;
	v->trick_no = g->trick_no;
	if (g->phase == T304_PHASE_PLAY) {
		v->trick = g->tricks[g->trick_no];
		if (g->trick_no > 0)
			v->last_trick = g->tricks[g->trick_no - 1];
	}
}
