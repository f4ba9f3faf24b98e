/* g304six.c: the rules of six-player 304: the 36-card pack, both biddings,
 * the trump card, closed and open play, caps, scoring (docs/GAMES.md). */
#include <string.h>
#include "g304six.h"
#include "names.h"

/* ---- the 36-card pack ---- */

static const char six_rank_chars[G6_RANKS] = { '6', '7', '8', 'Q', 'K', 'T', 'A', '9', 'J' };

int g6_points(card c)
{
	if (c >= G6_CARDS || g6_rank(c) == 0)
		return 0;
	return card_points(card_make(0, g6_rank(c) - 1));
}

int g6_set_points(g6_set s)
{
	int total = 0;
	for (; s; s &= s - 1)
		total += g6_points(g6_first(s));
	return total;
}

void g6_code(card c, char out[8])
{
	if (c >= G6_CARDS) {
		strcpy(out, "??");
		return;
	}
	out[0] = six_rank_chars[g6_rank(c)];
	out[1] = suit_letter(g6_suit(c));
	out[2] = '\0';
}

card g6_parse(const char *s)
{
	if (!s)
		return CARD_NONE;
	if (s[0] == '6') {
		card c = card_parse((char[]){ '7', s[1], s[1] ? s[2] : '\0', '\0' });
		if (c == CARD_NONE || (s[1] && s[2]))
			return CARD_NONE;
		return g6_make(card_suit(c), 0);
	}
	card c = card_parse(s);
	return c == CARD_NONE ? CARD_NONE : g6_make(card_suit(c), card_rank(c) + 1);
}

#define G6_PHASE_WORDS(X) \
	X(DEAL, "deal") X(BID4, "bid4") X(TRUMP4, "trump4") X(BID8, "bid6") \
	X(TRUMP8, "trump6") X(PLAY, "play") X(OVER, "over")
NAMES_FUNCTION(g6_phase_name, G6_PHASE_WORDS)

/* ---- small helpers ---- */

static int bid_above(const g304_rules *r, int b)
{
	if (b < G304_MIN_BID)
		return G304_MIN_BID;
	if (r->fives && b + 5 >= G304_LIMIT_BID)
		return b + 5;
	return b + 10;
}

int g6_next_seat(const g6 *g, int seat)
{
	int next = g6_seat_after(seat);
	while (g->sitting_out >> next & 1)
		next = g6_seat_after(next);
	return next;
}

static inline g6_set trumps_of(const g6 *g) { return g6_suit_mask(g->trump_suit); }
static inline int first_seat(const g6 *g) { return g6_seat_after(g->dealer); }
static inline int trick_size(const g6 *g) { return G6_SEATS - g6_count(g->sitting_out); }

static g6_set team_cards(const g6_set *sets, int team)
{
	g6_set s = 0;
	for (int seat = team; seat < G6_SEATS; seat += 2)
		s |= sets[seat];
	return s;
}

/* ---- match and deal ---- */

void g6_init(g6 *g, const g304_rules *rules, int first_dealer)
{
	memset(g, 0, sizeof *g);
	if (rules)
		g->rules = *rules;
	g->dealer = (uint8_t)(first_dealer % G6_SEATS);
	g->tokens[0] = g->tokens[1] = G304_START_TOKENS;
	g->winner = -1;
	g->phase = G304_PHASE_DEAL;
	g->turn = G304_NO_SEAT;
	g->last.outcome = G304_OUTCOME_NONE;
	g->last.trumper = g->last.spoilt_seat = g->last.caps_seat = G304_NO_SEAT;
	g->last.made = -1;
}

/* Deals `each` cards to every seat from deck[base], dealer+1 first. */
static void deal_batch(g6 *g, int base, int each)
{
	for (int k = 0; k < G6_SEATS; k++) {
		int seat = (g->dealer + 1 + k) % G6_SEATS;
		g6_set got = 0;
		for (int i = 0; i < each; i++)
			got |= g6_bit(g->deck[base + each * k + i]);
		g->hand[seat] |= got;
		g->dealt[seat] |= got;
		if (base == 0)
			g->first4[seat] = got;
	}
}

int g6_deal(g6 *g, const uint8_t *deck)
{
	if (g->phase == G304_PHASE_OVER)
		return G304_ERR_MATCH_OVER;
	if (g->phase != G304_PHASE_DEAL)
		return G304_ERR_WRONG_PHASE;
	g304_rules rules = g->rules;
	g304_deal_end last = g->last;
	int8_t tokens[2] = { g->tokens[0], g->tokens[1] };
	int16_t bank = g->bank;
	uint8_t dealer = g->dealer;
	uint16_t deal_no = g->deal_no;
	memset(g, 0, sizeof *g);
	g->rules = rules;
	g->last = last;
	g->tokens[0] = tokens[0];
	g->tokens[1] = tokens[1];
	g->bank = bank;
	g->dealer = dealer;
	g->deal_no = (uint16_t)(deal_no + 1);
	g->winner = -1;
	memcpy(g->deck, deck, G6_CARDS);
	deal_batch(g, 0, G6_FIRST);
	g->phase = G304_PHASE_BID4;
	g->turn = (uint8_t)first_seat(g);
	g->asker = G304_NO_SEAT;
	g->bidder = g->bidder6 = G304_NO_SEAT;
	g->trumper = G304_NO_SEAT;
	g->trump_card = CARD_NONE;
	for (int t = 0; t < G6_TRICKS; t++)
		g->tricks[t].winner = G304_NO_SEAT;
	g->caps_seat = G304_NO_SEAT;
	g->caps_since[0] = g->caps_since[1] = G304_CAPS_NEVER;
	return G304_ERR_OK;
}

static void pay(g6 *g, int payer, int amount, g304_deal_end *end)
{
	if (amount > g->tokens[payer])
		amount = g->tokens[payer];
	g->tokens[payer] = (int8_t)(g->tokens[payer] - amount);
	if (g->rules.scoring == G304_SCORING_BANK)
		g->bank = (int16_t)(g->bank + amount);
	else
		g->tokens[!payer] = (int8_t)(g->tokens[!payer] + amount);
	end->paid[payer] = (int8_t)(end->paid[payer] + amount);
}

static void end_deal(g6 *g, g304_deal_end *end, int keep_dealer, play_result *res)
{
	end->tokens[0] = g->tokens[0];
	end->tokens[1] = g->tokens[1];
	g->last = *end;
	g->turn = G304_NO_SEAT;
	if (!keep_dealer)
		g->dealer = (uint8_t)g6_seat_after(g->dealer);
	play_emit(res, G304_EV_DEAL_END, end->trumper, end->outcome, CARD_NONE, 0);
	if (g->tokens[0] <= 0 || g->tokens[1] <= 0) {
		g->winner = (int8_t)(g->tokens[0] <= 0 ? 1 : 0);
		g->phase = G304_PHASE_OVER;
		play_emit(res, G304_EV_MATCH_END, g->winner, 0, CARD_NONE, 0);
	} else {
		g->phase = G304_PHASE_DEAL;
	}
}

static void end_init(const g6 *g, g304_deal_end *end, int outcome)
{
	memset(end, 0, sizeof *end);
	end->outcome = (uint8_t)outcome;
	end->trumper = g->trumper;
	end->bid = g->trumper == G304_NO_SEAT ? 0 : g->bid;
	end->made = -1;
	end->spoilt_seat = G304_NO_SEAT;
	end->caps = G304_CAPSO_NONE;
	end->caps_seat = G304_NO_SEAT;
	if (outcome == G304_OUTCOME_SCORED) {
		end->points[0] = (int16_t)g6_set_points(g->won[0]);
		end->points[1] = (int16_t)g6_set_points(g->won[1]);
	}
}

static void bidlog_add(g6 *g, int seat, int asker, int round, int value)
{
	if (g->nbidlog >= G6_BIDLOG_MAX)
		return;
	g304_bidlog *l = &g->bidlog[g->nbidlog++];
	l->seat = (uint8_t)seat;
	l->asker = (uint8_t)asker;
	l->round = (uint8_t)round;
	l->value = (uint16_t)value;
}

/* ---- four-card bidding ---- */

static int bid4_min(const g6 *g, int seat)
{
	int lo = bid_above(&g->rules, g->bid);
	int spoke = (g->spoke >> seat) & 1;
	int over_partner = g6_partners(g->bidder, seat);
	if (g->rules.bidding == G304_BIDDING_SINGLE) {
		if (spoke || over_partner) {
			if (g->any200)
				return 0;
			if (lo < G304_LIMIT_BID)
				lo = G304_LIMIT_BID;
		}
	} else if ((spoke || over_partner) && lo < G304_LIMIT_BID) {
		lo = G304_LIMIT_BID;
	}
	return lo <= G304_MAX_BID ? lo : 0;
}

static int bid4_check(const g6 *g, int seat, int v, play_result *res)
{
	if (v == G304_BID_PCC)
		return play_refuse(res, G304_ERR_PCC_FOUR, 0, 0);
	if (v > G304_MAX_BID)
		return play_refuse(res, G304_ERR_BID_TOO_HIGH, G304_MAX_BID, 0);
	if (!g304_bid_step_ok(&g->rules, v))
		return play_refuse(res, G304_ERR_BID_NOT_MULTIPLE, v, g->rules.fives);
	int lowest = bid4_min(g, seat);
	if (v < G304_MIN_BID && lowest)
		return play_refuse(res, G304_ERR_BID_TOO_LOW, lowest, 0);
	if (v <= g->bid)
		return play_refuse(res, G304_ERR_BID_NOT_HIGHER, g->bid, 0);
	int spoke = (g->spoke >> seat) & 1;
	int over_partner = g6_partners(g->bidder, seat);
	if (g->rules.bidding == G304_BIDDING_SINGLE) {
		if ((spoke || over_partner) && (g->any200 || v < G304_LIMIT_BID))
			return play_refuse(res, spoke ? G304_ERR_SINGLE_ONCE : G304_ERR_SINGLE_PARTNER, g->any200, 0);
	} else if (v < G304_LIMIT_BID) {
		if (spoke)
			return play_refuse(res, G304_ERR_BID_SECOND_TURN, 0, 0);
		if (over_partner)
			return play_refuse(res, G304_ERR_BID_OVER_PARTNER, 0, 0);
	}
	return G304_ERR_OK;
}

static void bid4_next(g6 *g, int owner, play_result *res)
{
	if (g->bidder == G304_NO_SEAT && g->passes >= G6_SEATS) {
		g304_deal_end end;
		end_init(g, &end, G304_OUTCOME_PASSED_OUT);
		play_emit(res, G304_EV_PASSED_OUT, G304_NO_SEAT, 0, CARD_NONE, 0);
		end_deal(g, &end, 0, res);
		return;
	}
	if (g->bidder != G304_NO_SEAT && g->passes >= G6_SEATS - 1) {
		g->trumper = g->bidder;
		g->phase = G304_PHASE_TRUMP4;
		g->turn = g->trumper;
		play_emit(res, G304_EV_BIDDING_WON, g->bidder, g->bid, CARD_NONE, 0);
		return;
	}
	int next = g6_seat_after(owner);
	if (next == g->bidder)
		next = g6_seat_after(next);
	g->turn = (uint8_t)next;
}

static int apply_bid4(g6 *g, const g6_action *a, play_result *res)
{
	int seat = a->seat;
	int answering = g->asker != G304_NO_SEAT;
	if (a->type == G304_ACT_REDEAL) {
		int first = first_seat(g);
		if (seat != first)
			return play_refuse(res, G304_ERR_REJECT_NOT_FIRST, first, 0);
		if (g->spoke || answering)
			return play_refuse(res, G304_ERR_REJECT_TOO_LATE, 0, 0);
		int pts = g6_set_points(g->hand[seat]);
		if (pts >= G304_REJECT_BELOW)
			return play_refuse(res, G304_ERR_REJECT_POINTS, pts, 0);
		g304_deal_end end;
		end_init(g, &end, G304_OUTCOME_REDEAL);
		play_emit(res, G304_EV_REJECTED, seat, pts, CARD_NONE, 0);
		end_deal(g, &end, 1, res);
		return G304_ERR_OK;
	}
	if (a->type != G304_ACT_BID && a->type != G304_ACT_PASS && a->type != G304_ACT_PARTNER)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, G304_ERR_NOT_YOUR_TURN, g->turn, 0);
	int owner = answering ? g->asker : seat;
	switch (a->type) {
	case G304_ACT_PARTNER:
		if (answering)
			return play_refuse(res, G304_ERR_ASK_ANSWERING, g->asker, 0);
		if (g6_partners(g->bidder, seat))
			return play_refuse(res, G304_ERR_ASK_PARTNER_HIGH, g->bidder, 0);
		g->asker = (uint8_t)seat;
		g->turn = (uint8_t)g6_ask_partner(seat);
		play_emit(res, G304_EV_ASK, seat, 0, CARD_NONE, 0);
		return G304_ERR_OK;
	case G304_ACT_BID: {
		int err = bid4_check(g, seat, a->value, res);
		if (err)
			return err;
		g->bid = a->value;
		g->bidder = (uint8_t)seat;
		if (a->value >= G304_LIMIT_BID)
			g->any200 = 1;
		g->passes = 0;
		bidlog_add(g, seat, answering ? g->asker : G304_NO_SEAT, 4, a->value);
		play_emit(res, G304_EV_BID, seat, a->value, CARD_NONE, answering);
		break;
	}
	default: /* PASS */
		g->passes++;
		bidlog_add(g, seat, answering ? g->asker : G304_NO_SEAT, 4, 0);
		play_emit(res, G304_EV_PASS, seat, 0, CARD_NONE, answering);
		break;
	}
	g->spoke |= (uint8_t)(1u << seat | 1u << owner);
	g->asker = G304_NO_SEAT;
	bid4_next(g, owner, res);
	return G304_ERR_OK;
}

/* ---- trump card and six-card bidding ---- */

static void start_play(g6 *g, play_result *res);

static int apply_trump(g6 *g, const g6_action *a, play_result *res)
{
	if (a->type != G304_ACT_TRUMP)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (a->seat != g->trumper)
		return play_refuse(res, G304_ERR_NOT_TRUMPER, g->trumper, 0);
	if (a->card >= G6_CARDS || !(g->hand[a->seat] & g6_bit(a->card)))
		return play_refuse(res, G304_ERR_NOT_IN_HAND, a->card, 0);
	g->trump_card = a->card;
	g->trump_suit = (uint8_t)g6_suit(a->card);
	g->hand[g->trumper] &= ~g6_bit(a->card);
	g->trump_down = 1;
	play_emit(res, G304_EV_TRUMP_SET, a->seat, 0, CARD_NONE, 0);
	if (g->phase == G304_PHASE_TRUMP4) {
		deal_batch(g, G6_SEATS * G6_FIRST, G6_HAND - G6_FIRST);
		play_emit(res, G304_EV_DEALT_REST, G304_NO_SEAT, 0, CARD_NONE, 0);
		g->phase = G304_PHASE_BID8;
		g->turn = g->trumper;
	} else {
		start_play(g, res);
	}
	return G304_ERR_OK;
}

static int bid6_min(const g6 *g)
{
	int lo = bid_above(&g->rules, g->bid);
	if (lo < G304_BID8_MIN)
		lo = G304_BID8_MIN;
	return lo <= G304_MAX_BID ? lo : 0;
}

static void bid6_end(g6 *g, play_result *res)
{
	if (g->bidder6 == G304_NO_SEAT) {
		start_play(g, res);
		return;
	}
	g->hand[g->trumper] |= g6_bit(g->trump_card);
	g->trump_down = 0;
	play_emit(res, G304_EV_TRUMP_BACK, g->trumper, 0, CARD_NONE, 0);
	g->trump_card = CARD_NONE;
	g->trumper = g->bidder6;
	g->bid = g->bid6;
	g->bidder = g->bidder6;
	if (g->bid6 == G304_BID_PCC) {
		/* Partner close caps: both partners lay their cards aside. */
		g->pcc = 1;
		for (int s = 0; s < G6_SEATS; s++)
			if (g6_partners(s, g->trumper))
				g->sitting_out |= (uint8_t)(1u << s);
	}
	g->phase = G304_PHASE_TRUMP8;
	g->turn = g->trumper;
	play_emit(res, G304_EV_BID8_WON, g->trumper, g->bid, CARD_NONE, 0);
}

static int apply_bid6(g6 *g, const g6_action *a, play_result *res)
{
	int seat = a->seat;
	if (a->type == G304_ACT_REDEAL)
		return play_refuse(res, G304_ERR_REJECT_TOO_LATE, 0, 0);
	if (a->type != G304_ACT_BID && a->type != G304_ACT_PASS && a->type != G304_ACT_PARTNER)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, G304_ERR_NOT_YOUR_TURN, g->turn, 0);
	if (a->type == G304_ACT_PARTNER)
		return play_refuse(res, G304_ERR_ASK_EIGHT, 0, 0);
	if (a->type == G304_ACT_BID) {
		int v = a->value;
		if (g6_partners(g->bidder6, seat))
			return play_refuse(res, G304_ERR_BID8_PARTNER, g->bidder6, 0);
		if (v != G304_BID_PCC) {
			if (v > G304_MAX_BID)
				return play_refuse(res, G304_ERR_BID_TOO_HIGH, G304_MAX_BID, 0);
			if (!g304_bid_step_ok(&g->rules, v))
				return play_refuse(res, G304_ERR_BID_NOT_MULTIPLE, v, g->rules.fives);
			if (v < G304_BID8_MIN && bid6_min(g))
				return play_refuse(res, G304_ERR_BID_TOO_LOW, bid6_min(g), 0);
			if (v <= g->bid)
				return play_refuse(res, G304_ERR_BID_NOT_HIGHER, g->bid, 0);
		}
		g->bid6 = (uint16_t)v;
		g->bidder6 = (uint8_t)seat;
		if (v > g->bid)
			g->bid = (uint16_t)v;
		g->bidder = (uint8_t)seat;
		bidlog_add(g, seat, G304_NO_SEAT, 8, v);
		play_emit(res, G304_EV_BID, seat, v, CARD_NONE, 8);
	} else {
		bidlog_add(g, seat, G304_NO_SEAT, 8, 0);
		play_emit(res, G304_EV_PASS, seat, 0, CARD_NONE, 8);
	}
	g->turns6++;
	if (g->turns6 >= G6_SEATS || g->bid6 == G304_BID_PCC)
		bid6_end(g, res);
	else
		g->turn = (uint8_t)g6_seat_after(seat);
	return G304_ERR_OK;
}

/* ---- caps ---- */

static void caps_track(g6 *g);

static card caps_next(const g6 *g, int seat)
{
	if (seat != g->caps_seat || g->caps_k >= g->caps_norder)
		return CARD_NONE;
	return g->caps_order[g->caps_k];
}

static inline int caps_may_call(const g6 *g, int seat)
{
	return g6_team(seat) == g6_team(g->trumper) || g->rules.external_caps;
}

static int caps_timely(const g6 *g, int team)
{
	int since = g->caps_since[team];
	if (since == G304_CAPS_NEVER)
		return 1;
	int now = g->trick_no, n = g->tricks[g->trick_no].n;
	return now <= since || (now == since + 1 && n == 0);
}

static int apply_caps(g6 *g, const g6_action *a, play_result *res)
{
	int seat = a->seat;
	if (g->rules.caps == G304_CAPS_OFF)
		return play_refuse(res, G304_ERR_CAPS_OFF, 0, 0);
	if (g->phase != G304_PHASE_PLAY)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (g->pcc)
		return play_refuse(res, G304_ERR_CAPS_PCC, 0, 0);
	if (!caps_may_call(g, seat))
		return play_refuse(res, G304_ERR_CAPS_NOT_YOURS, g->trumper, 0);
	if (g->caps_seat != G304_NO_SEAT)
		return play_refuse(res, G304_ERR_CAPS_CALLED, g->caps_seat, 0);
	g6_view v;
	g6_view_of(g, seat, &v);
	g6_set cards = g6_caps_cards(&v), listed = 0;
	int ok = a->norder > 0 && a->norder == g6_count(cards);
	for (int i = 0; ok && i < a->norder; i++) {
		ok = a->order[i] < G6_CARDS && (cards & g6_bit(a->order[i])) && !(listed & g6_bit(a->order[i]));
		if (ok)
			listed |= g6_bit(a->order[i]);
	}
	if (!ok)
		return play_refuse(res, G304_ERR_CAPS_ORDER, g6_count(cards), 0);
	int team = g6_team(seat);
	int judged;
	if (!g6_caps_check(&v, a->order, a->norder))
		judged = G304_CAPSO_EARLY;
	else if (!caps_timely(g, team))
		judged = G304_CAPSO_LATE;
	else
		judged = G304_CAPSO_CORRECT;
	g->caps_seat = (uint8_t)seat;
	g->caps_norder = a->norder;
	g->caps_k = 0;
	memcpy(g->caps_order, a->order, a->norder);
	g->caps_judged = (uint8_t)judged;
	/* The bonus: two tricks or more still to play (four-player: before the
	 * seventh of eight tricks; here before the fifth of six). */
	g->caps_bonus = g->trick_no < G6_TRICKS - 2
		|| (g->trick_no == G6_TRICKS - 2 && g->tricks[g->trick_no].n == 0);
	play_emit(res, G304_EV_CAPS, seat, 0, CARD_NONE, 0);
	return G304_ERR_OK;
}

/* ---- play ---- */

static void start_play(g6 *g, play_result *res)
{
	g->phase = G304_PHASE_PLAY;
	int leader = g->pcc ? g->trumper : first_seat(g);
	g->tricks[0].leader = (uint8_t)leader;
	g->turn = (uint8_t)leader;
	play_emit(res, G304_EV_PLAY_STARTS, leader, 0, CARD_NONE, 0);
	caps_track(g);
}

/* The first-trick rule, as with four: a trumper who leads the first trick
 * (dealer+1) may not lead a trump to it while the game is closed. */
static inline int first_lead_barred(const g6 *g, int seat)
{
	return g->trick_no == 0 && !g->trump_open && seat == first_seat(g) && seat == g->trumper;
}

static g6_set follow_cards(g6_set hand, int led, card cut_card, int trump_suit)
{
	g6_set follow = hand & g6_suit_mask(led);
	if (follow)
		return follow;
	if (cut_card == CARD_NONE)
		return hand;
	if (!hand)
		return g6_bit(cut_card);
	if (led == trump_suit)
		return hand;
	return (hand & ~g6_suit_mask(trump_suit)) | g6_bit(cut_card);
}

static g6_set play_mask(const g6 *g, int seat)
{
	const g6_trick *t = &g->tricks[g->trick_no];
	g6_set hand = g->hand[seat];
	int trumper = seat == g->trumper;
	if (t->n == 0) {
		if (!trumper)
			return hand;
		if (!hand)
			return g->trump_down ? g6_bit(g->trump_card) : 0;
		g6_set m = hand;
		g6_set in_hand_trumps = hand & trumps_of(g);
		if (g->exhausted && in_hand_trumps)
			m = in_hand_trumps;
		if (first_lead_barred(g, seat) && (m & ~trumps_of(g)))
			m &= ~trumps_of(g);
		return m;
	}
	card cut_card = trumper && g->trump_down ? g->trump_card : CARD_NONE;
	return follow_cards(hand, g6_suit(t->card[0]), cut_card, g->trump_suit);
}

static int play_refusal(const g6 *g, int seat, card c, play_result *res)
{
	const g6_trick *t = &g->tricks[g->trick_no];
	int trumper = seat == g->trumper;
	int is_trump_card = trumper && g->trump_down && c == g->trump_card;
	if (c >= G6_CARDS || (!(g->hand[seat] & g6_bit(c)) && !is_trump_card))
		return play_refuse(res, G304_ERR_NOT_IN_HAND, c, 0);
	if (t->n == 0) {
		if (is_trump_card)
			return play_refuse(res, G304_ERR_TRUMP_CARD_RESERVED, 0, 0);
		if (trumper && g->exhausted && g6_suit(c) != g->trump_suit)
			return play_refuse(res, G304_ERR_EXHAUSTED_TRUMPS, 0, 0);
		return play_refuse(res, G304_ERR_NO_TRUMP_LEAD_FIRST, 0, 0);
	}
	int led = g6_suit(t->card[0]);
	if (g->hand[seat] & g6_suit_mask(led))
		return play_refuse(res, G304_ERR_FOLLOW_SUIT, led, 0);
	if (is_trump_card)
		return play_refuse(res, G304_ERR_TRUMP_CARD_RESERVED, 0, 0);
	return play_refuse(res, G304_ERR_CUT_WITH_TRUMP_CARD, 0, 0);
}

static void reveal_trump(g6 *g, play_result *res)
{
	int back = g->trump_down;
	if (back)
		g->hand[g->trumper] |= g6_bit(g->trump_card);
	g->trump_down = 0;
	g->trump_open = 1;
	g->trump_public = 1;
	play_emit(res, G304_EV_REVEALED, g->trumper, 0, g->trump_card, back);
}

static void score_deal(g6 *g, play_result *res)
{
	g304_deal_end end;
	end_init(g, &end, G304_OUTCOME_SCORED);
	int tt = g6_team(g->trumper);
	if (g->pcc) {
		for (int s = 0; s < G6_SEATS; s++)
			if (g->sitting_out >> s & 1)
				end.points[tt] = (int16_t)(end.points[tt] + g6_set_points(g->hand[s]));
		end.made = g->tricks_won[tt] == G6_TRICKS;
	} else {
		end.made = end.points[tt] >= g->bid;
	}
	end.caps_seat = g->caps_seat;
	int strict = g->rules.caps == G304_CAPS_STRICT;
	if (g->caps_seat != G304_NO_SEAT) {
		int ct = g6_team(g->caps_seat);
		int judged = g->tricks_won[!ct] > 0 ? G304_CAPSO_FAILED : g->caps_judged;
		end.caps = (uint8_t)judged;
		if (judged == G304_CAPSO_FAILED)
			pay(g, ct, G304_CAPS_FAILED_PAYS, &end);
		else if (judged == G304_CAPSO_EARLY || (judged == G304_CAPSO_LATE && strict))
			pay(g, ct, G304_WRONG_CAPS_PAYS, &end);
		else if (judged == G304_CAPSO_CORRECT && ct == tt)
			pay(g, !tt, g304_payoff(g->bid) + g->caps_bonus, &end);
		else if (judged == G304_CAPSO_CORRECT)
			pay(g, tt, g304_charge(g->bid) + 1, &end);
		else
			goto by_bid;
		end_deal(g, &end, 0, res);
		return;
	}
	if (strict && !g->pcc && g->caps_since[tt] != G304_CAPS_NEVER && g->tricks_won[tt] == G6_TRICKS) {
		end.caps = G304_CAPSO_LATE;
		pay(g, tt, G304_WRONG_CAPS_PAYS, &end);
		end_deal(g, &end, 0, res);
		return;
	}
by_bid:
	if (end.made)
		pay(g, !tt, g304_payoff(g->bid), &end);
	else
		pay(g, tt, g304_charge(g->bid), &end);
	end_deal(g, &end, 0, res);
}

static void finish_trick(g6 *g, play_result *res)
{
	g6_trick *t = &g->tricks[g->trick_no];
	int n = t->n;
	g6_set cards = 0;
	for (int i = 0; i < n; i++)
		cards |= g6_bit(t->card[i]);
	int led = g6_suit(t->card[0]);
	g6_set trumps = cards & trumps_of(g);
	card top = trumps ? g6_top(trumps) : g6_top(cards & g6_suit_mask(led));
	int wi = 0;
	while (t->card[wi] != top)
		wi++;
	int winner = t->seat[wi];

	if (t->down && !g->trump_open) {
		/* The inspection: any trump face down opens the trump. */
		g6_set down = 0;
		for (int i = 0; i < n; i++)
			if (t->down >> i & 1)
				down |= g6_bit(t->card[i]);
		if (down & trumps_of(g)) {
			for (int i = 0; i < n; i++) {
				int own_throw = t->seat[i] == g->trumper && t->card[i] != g->trump_card;
				if ((t->down >> i & 1) && !own_throw)
					t->shown |= (uint8_t)(1u << i);
			}
			reveal_trump(g, res);
		} else {
			play_emit(res, G304_EV_NO_TRUMP, g->trumper, g->trick_no, CARD_NONE, 0);
		}
	}
	if (g->trick_no == 0 && !g->trump_open && g->bid >= G304_BID8_MIN)
		reveal_trump(g, res);

	t->winner = (uint8_t)winner;
	g->won[g6_team(winner)] |= cards;
	g->tricks_won[g6_team(winner)]++;
	play_emit(res, G304_EV_TRICK, winner, g->trick_no, CARD_NONE, 0);
	if (g->exhausted && !(g->hand[g->trumper] & trumps_of(g)))
		g->exhausted = 0;
	if (++g->trick_no == G6_TRICKS) {
		score_deal(g, res);
		return;
	}
	g->tricks[g->trick_no].leader = (uint8_t)winner;
	g->turn = (uint8_t)winner;
}

static int apply_play(g6 *g, const g6_action *a, play_result *res)
{
	int seat = a->seat;
	g6_trick *t = &g->tricks[g->trick_no];
	switch (a->type) {
	case G304_ACT_OPEN:
		if (seat != g->trumper)
			return play_refuse(res, G304_ERR_NOT_TRUMPER, g->trumper, 0);
		if (g->trump_open)
			return play_refuse(res, G304_ERR_ALREADY_OPEN, 0, 0);
		if (g->trick_no > 0 || t->n > 0)
			return play_refuse(res, G304_ERR_OPEN_TOO_LATE, 0, 0);
		play_emit(res, G304_EV_OPENED, seat, 0, g->trump_card, 0);
		reveal_trump(g, res);
		caps_track(g);
		return G304_ERR_OK;
	case G304_ACT_PLAY:
		break;
	case G304_ACT_BID:
	case G304_ACT_PASS:
	case G304_ACT_PARTNER:
	case G304_ACT_TRUMP:
	case G304_ACT_REDEAL:
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	default:
		return play_refuse(res, G304_ERR_BAD_ACTION, a->type, 0);
	}
	if (g->sitting_out >> seat & 1)
		return play_refuse(res, G304_ERR_SITTING_OUT, g->trumper, 0);
	if (seat != g->turn)
		return play_refuse(res, G304_ERR_NOT_YOUR_TURN, g->turn, 0);
	card c = a->card;
	g6_set legal = play_mask(g, seat);
	card next = caps_next(g, seat);
	if (next != CARD_NONE && (legal & g6_bit(next)) && c != next)
		return play_refuse(res, G304_ERR_CAPS_NEXT, next, 0);
	if (c >= G6_CARDS || !(legal & g6_bit(c)))
		return play_refusal(g, seat, c, res);
	if (next != CARD_NONE) {
		if (c == next) {
			g->caps_k++;
		} else {
			g->caps_k = g->caps_norder;
			play_emit(res, G304_EV_CAPS_BROKEN, seat, 0, CARD_NONE, 0);
		}
	}
	int trumper = seat == g->trumper;
	int from_table = trumper && g->trump_down && c == g->trump_card;
	if (t->n == 0 && trumper && g6_suit(c) == g->trump_suit && !from_table) {
		if (first_lead_barred(g, seat)) {
			play_emit(res, G304_EV_OPENED, seat, 0, g->trump_card, 0);
			reveal_trump(g, res);
		}
		if (!g->pcc && !g->exhausted) {
			g6_set others = 0;
			for (int s = 0; s < G6_SEATS; s++)
				if (s != seat)
					others |= g->hand[s];
			if (!(others & trumps_of(g)))
				g->exhausted = 1;
		}
	}
	int down = t->n > 0 && !g->trump_open && g6_suit(c) != g6_suit(t->card[0]);
	if (from_table) {
		t->tcard |= (uint8_t)(1u << t->n);
		g->trump_down = 0;
		if (!down)
			g->trump_public = 1;
	} else {
		g->hand[seat] &= ~g6_bit(c);
	}
	t->seat[t->n] = (uint8_t)seat;
	t->card[t->n] = c;
	if (down)
		t->down |= (uint8_t)(1u << t->n);
	t->n++;
	play_emit(res, G304_EV_PLAYED, seat, 0, down ? CARD_NONE : c, down | from_table << 1);
	if (t->n == trick_size(g))
		finish_trick(g, res);
	else
		g->turn = (uint8_t)g6_next_seat(g, seat);
	if (g->phase == G304_PHASE_PLAY)
		caps_track(g);
	return G304_ERR_OK;
}

static int apply_spoilt(g6 *g, const g6_action *a, play_result *res)
{
	int tt = g6_team(g->trumper);
	g6_set opp = team_cards(g->dealt, !tt);
	int right = !(opp & trumps_of(g));
	play_emit(res, G304_EV_SPOILT, a->seat, 0, CARD_NONE, right);
	g304_deal_end end;
	end_init(g, &end, G304_OUTCOME_SPOILT);
	end.spoilt_seat = a->seat;
	end.spoilt_right = (uint8_t)right;
	if (right) {
		end_deal(g, &end, 1, res);
		return G304_ERR_OK;
	}
	int caller = g6_team(a->seat);
	int amount = (caller == tt ? g304_charge(g->bid) : g304_payoff(g->bid)) + 2;
	end.made = caller == tt ? 0 : 1;
	pay(g, caller, amount, &end);
	end_deal(g, &end, 0, res);
	return G304_ERR_OK;
}

int g6_apply(g6 *g, const g6_action *a, play_result *res)
{
	play_clear(res);
	if (a->seat >= G6_SEATS)
		return play_refuse(res, G304_ERR_BAD_SEAT, a->seat, 0);
	if (a->type >= G304_ACT_COUNT)
		return play_refuse(res, G304_ERR_BAD_ACTION, a->type, 0);
	if (g->phase == G304_PHASE_OVER)
		return play_refuse(res, G304_ERR_MATCH_OVER, g->winner, 0);
	if (g->phase == G304_PHASE_DEAL)
		return play_refuse(res, G304_ERR_NO_DEAL, 0, 0);
	if (a->type == G304_ACT_REDEAL && g->phase != G304_PHASE_BID4) {
		int first = first_seat(g);
		if (a->seat != first)
			return play_refuse(res, G304_ERR_REJECT_NOT_FIRST, first, 0);
		return play_refuse(res, G304_ERR_REJECT_TOO_LATE, 0, 0);
	}
	if (a->type == G304_ACT_CAPS)
		return apply_caps(g, a, res);
	if (a->type == G304_ACT_SPOILT) {
		if (g->phase != G304_PHASE_PLAY)
			return play_refuse(res, G304_ERR_SPOILT_NOT_IN_PLAY, g->phase, 0);
		return apply_spoilt(g, a, res);
	}
	switch (g->phase) {
	case G304_PHASE_BID4:
		return apply_bid4(g, a, res);
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		return apply_trump(g, a, res);
	case G304_PHASE_BID8:
		return apply_bid6(g, a, res);
	default:
		return apply_play(g, a, res);
	}
}

/* ---- what a seat may do ---- */

void g6_legal_of(const g6 *g, int seat, g6_legal *out)
{
	memset(out, 0, sizeof *out);
	if (seat < 0 || seat >= G6_SEATS)
		return;
	switch (g->phase) {
	case G304_PHASE_BID4:
		if (seat == first_seat(g) && !g->spoke && g->asker == G304_NO_SEAT
		    && g6_set_points(g->hand[seat]) < G304_REJECT_BELOW)
			out->acts |= 1u << G304_ACT_REDEAL;
		if (seat != g->turn)
			return;
		out->acts |= 1u << G304_ACT_PASS;
		if (g->asker == G304_NO_SEAT && !g6_partners(g->bidder, seat))
			out->acts |= 1u << G304_ACT_PARTNER;
		out->bid_min = (uint16_t)bid4_min(g, seat);
		if (out->bid_min)
			out->acts |= 1u << G304_ACT_BID;
		return;
	case G304_PHASE_TRUMP4:
	case G304_PHASE_TRUMP8:
		if (seat != g->trumper)
			return;
		out->acts |= 1u << G304_ACT_TRUMP;
		out->cards = g->phase == G304_PHASE_TRUMP4 ? g->first4[seat] : g->hand[seat];
		return;
	case G304_PHASE_BID8:
		if (seat != g->turn)
			return;
		out->acts |= 1u << G304_ACT_PASS;
		if (!g6_partners(g->bidder6, seat)) {
			out->pcc_ok = 1;
			out->acts |= 1u << G304_ACT_BID;
			out->bid_min = (uint16_t)bid6_min(g);
		}
		return;
	case G304_PHASE_PLAY:
		out->acts |= 1u << G304_ACT_SPOILT;
		if (seat == g->trumper && !g->trump_open && g->trick_no == 0 && g->tricks[0].n == 0)
			out->acts |= 1u << G304_ACT_OPEN;
		if (g->rules.caps != G304_CAPS_OFF && !g->pcc && g->caps_seat == G304_NO_SEAT && caps_may_call(g, seat))
			out->acts |= 1u << G304_ACT_CAPS;
		if (seat == g->turn) {
			out->acts |= 1u << G304_ACT_PLAY;
			out->cards = play_mask(g, seat);
			card next = caps_next(g, seat);
			if (next != CARD_NONE && (out->cards & g6_bit(next)))
				out->cards = g6_bit(next);
		}
		return;
	default:
		return;
	}
}

/* ---- views ---- */

void g6_view_of(const g6 *g, int seat, g6_view *v)
{
	memset(v, 0, sizeof *v);
	v->seat = (uint8_t)seat;
	v->phase = g->phase;
	v->dealer = g->dealer;
	v->turn = g->turn;
	v->tokens[0] = g->tokens[0];
	v->tokens[1] = g->tokens[1];
	v->bank = g->bank;
	v->winner = g->winner;
	v->deal_no = g->deal_no;
	v->last = g->last;
	v->asker = g->asker;
	v->sitting_out = g->sitting_out;
	v->trump_card = CARD_NONE;
	v->trump_suit = -1;
	v->trumper = G304_NO_SEAT;
	v->bidder = G304_NO_SEAT;
	v->caps_seat = G304_NO_SEAT;
	if (seat < 0 || seat >= G6_SEATS || g->phase == G304_PHASE_DEAL || g->phase == G304_PHASE_OVER) {
		v->turn = G304_NO_SEAT;
		v->asker = G304_NO_SEAT;
		v->sitting_out = 0;
		return;
	}
	v->hand = g->hand[seat];
	v->bid = g->bid;
	v->bidder = g->bidder;
	v->nbidlog = g->nbidlog;
	memcpy(v->bidlog, g->bidlog, sizeof v->bidlog[0] * g->nbidlog);
	if (g->phase != G304_PHASE_BID4)
		v->trumper = g->trumper;
	v->pcc = g->pcc;
	v->trump_down = g->trump_down;
	v->trump_open = g->trump_open;
	if (g->trump_card != CARD_NONE && (seat == g->trumper || g->trump_public)) {
		v->trump_card = g->trump_card;
		v->trump_suit = (int8_t)g->trump_suit;
	}
	if (g->phase != G304_PHASE_PLAY)
		return;
	v->caps_seat = g->caps_seat;
	v->caps_norder = g->caps_norder;
	v->caps_k = g->caps_k;
	memcpy(v->caps_order, g->caps_order, sizeof v->caps_order);
	v->ntricks = (uint8_t)(g->trick_no + (g->trick_no < G6_TRICKS));
	for (int i = 0; i < v->ntricks; i++) {
		const g6_trick *t = &g->tricks[i];
		g6_trick *out = &v->tricks[i];
		*out = *t;
		int done = t->winner != G304_NO_SEAT;
		for (int k = 0; k < t->n; k++) {
			int hidden = (t->down >> k & 1) && !(t->shown >> k & 1);
			int inspected = done && seat == g->trumper;
			if (hidden && t->seat[k] != seat && !inspected)
				out->card[k] = CARD_NONE;
		}
		for (int k = t->n; k < G6_SEATS; k++)
			out->card[k] = CARD_NONE;
	}
	v->tricks_won[0] = g->tricks_won[0];
	v->tricks_won[1] = g->tricks_won[1];
	if (seat == g->trumper)
		v->exhausted = g->exhausted;
}

/* ---- the caps tracking ---- */

/* After every change of what players know: has caps become certain for a
 * player of a team that may call it? Records the trick it happened in
 * (-1 before the first card). */
static void caps_track(g6 *g)
{
	if (g->rules.caps == G304_CAPS_OFF || g->pcc || g->caps_seat != G304_NO_SEAT
	    || g->phase != G304_PHASE_PLAY)
		return;
	int cards = g->trick_no * trick_size(g) + g->tricks[g->trick_no].n;
	int when = cards == 0 ? -1 : (cards - 1) / trick_size(g);
	for (int team = 0; team < 2; team++) {
		if (g->caps_since[team] != G304_CAPS_NEVER || g->tricks_won[!team] > 0)
			continue;
		for (int seat = team; seat < G6_SEATS; seat += 2) {
			if (!caps_may_call(g, seat))
				continue;
			g6_view v;
			card order[G6_TRICKS];
			int n;
			g6_view_of(g, seat, &v);
			if (!g6_caps_cards(&v))
				continue;
			if (g6_caps_find(&v, G6_CAPS_TRACK_BUDGET, order, &n)) {
				g->caps_since[team] = (int8_t)when;
				break;
			}
		}
	}
}
