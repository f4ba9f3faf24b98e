/* g304.c: the rules of 304 at every table size: dealing, both biddings, the
 * trump card, closed and open play, caps, scoring. A table size is data
 * (g304_variant); the card arithmetic below reads the pack from the game. */
#include <stddef.h>
#include <string.h>
#include "g304.h"
#include "g304_caps.h"
#include "g304_caps_wide.h"
#include "names.h"

NAMES_FUNCTION(g304_phase_name, G304_PHASE_LIST)
#define G304SIX_PHASE_WORDS(X) \
	X(DEAL, "deal") X(BID4, "bid4") X(TRUMP4, "trump4") X(BID8, "bid6") \
	X(TRUMP8, "trump6") X(PLAY, "play") X(OVER, "over")
NAMES_FUNCTION(g304six_phase_name, G304SIX_PHASE_WORDS)
#define G304FIVE_PHASE_WORDS(X) \
	X(DEAL, "deal") X(BID4, "bid4") X(TRUMP4, "trump4") X(BID8, "bid5") \
	X(TRUMP8, "trump5") X(PLAY, "play") X(OVER, "over")
NAMES_FUNCTION(g304five_phase_name, G304FIVE_PHASE_WORDS)

/* 304's bid thresholds: lowest, limit, second round, highest, throw-in. */
#define BIDS_304 G304_MIN_BID, G304_LIMIT_BID, G304_BID8_MIN, G304_MAX_BID, G304_REJECT_BELOW

const g304_variant g304_variants[G304_SIZE_COUNT] = {
	/* name, pack, seats, first batch, hand, second round, opening duty, the
	 * bid thresholds, the phases' words */
	[G304_SIZE_FOUR] = { "304", &g304_pack_32, 4, 4, 8, 1, 0, BIDS_304, g304_phase_name },
	[G304_SIZE_SIX] = { "304six", &g304_pack_36, 6, 4, 6, 1, 0, BIDS_304, g304six_phase_name },
	/* Eight players as the seed's short six-player game (docs/GAMES.md, S15):
	 * three cards, a bidding the first speaker must open at 200 or more,
	 * the trump card, the fourth card, play. */
	[G304_SIZE_EIGHT] = { "304eight", &g304_pack_32, 8, 3, 4, 0, G304_LIMIT_BID, BIDS_304, g304_phase_name },
	/* Six players with 24 cards, no 8s or 7s (seed 001; docs/GAMES.md, S19). */
	[G304_SIZE_SIX24] = { "304six24", &g304_pack_24, 6, 3, 4, 0, G304_LIMIT_BID, BIDS_304, g304_phase_name },
	/* Tamil Nadu's 504 and 904 (seed 001; docs/GAMES.md S20-S21): six with
	 * the threes added, eight with the threes and twos; four cards, a
	 * bidding, the trump card, the rest, a second round; 304's thresholds
	 * as fractions of the pack. */
	[G304_SIZE_504] = { "504", &g304_pack_504, 6, 4, 6, 1, 0, 260, 330, 410, 500, 25, g304six_phase_name },
	[G304_SIZE_904] = { "904", &g304_pack_904, 8, 4, 5, 1, 0, 460, 590, 740, 900, 45, g304five_phase_name },
};
NAMES_FUNCTION(g304_act_name, G304_ACT_LIST)
NAMES_FUNCTION(g304_err_name, G304_ERR_LIST)
NAMES_FUNCTION(g304_ev_name, G304_EV_LIST)
NAMES_FUNCTION(g304_outcome_name, G304_OUTCOME_LIST)
NAMES_FUNCTION(g304_caps_outcome_name, G304_CAPS_OUTCOME_LIST)
int g304_act_parse(const char *name) { return names_find(g304_act_name, G304_ACT_COUNT, name); }

void g304_rules_default(g304_rules *r) { memset(r, 0, sizeof *r); }

int g304_payoff(const g304_variant *w, int bid)
{
	if (bid >= G304_BID_PCC)
		return 4;
	return bid >= w->bid_second ? 3 : bid >= w->bid_limit ? 2 : 1;
}

int g304_charge(const g304_variant *w, int bid) { return g304_payoff(w, bid) + 1; }

int g304_bid_step_ok(const g304_rules *r, int value)
{
	if (value % 10 == 0)
		return 1;
	return r->fives && value >= g304_variant_of(r)->bid_limit && value % 5 == 0;
}

/* The lowest well-formed bid above b. */
static int bid_above(const g304_rules *r, int b)
{
	const g304_variant *w = g304_variant_of(r);
	if (b < w->bid_min)
		return w->bid_min;
	if (r->fives && b + 5 >= w->bid_limit)
		return b + 5;
	return b + 10;
}

/* ---- the pack and the seats of this table size ---- */

static inline int seat_after_n(int seats, int seat) { return seat + 1 == seats ? 0 : seat + 1; }
#define seat_after(seat) seat_after_n(g->seats, (seat))

/* The card arithmetic of g304_pack.h with the pack's ranks from the game;
 * four players' eight ranks by shifts. */
static inline int suit_of(const g304 *g, card c) { return g->ranks == 8 ? c >> 3 : c / g->ranks; }
static inline g304_set bit_of(card c) { return (g304_set)1 << c; }
static inline g304_set suit_cards(const g304 *g, int suit) { return g->suits[suit]; }
static inline card top_of(g304_set s) { return (card)(63 - __builtin_clzll(s)); }
static inline int count_of(g304_set s) { return __builtin_popcountll(s); }
static int points_of(const g304 *g, g304_set s)
{
	if (g->ranks == 8)
		return cardset_points((cardset)s);
	return g304_pack_set_points(g304_variant_of(&g->rules)->pack, s);
}

/* Two different seats of one team. */
static inline int partners(int a, int b) { return a != b && a != G304_NO_SEAT && b != G304_NO_SEAT && g304_team(a) == g304_team(b); }
/* The partner a seat asks in the four-card bidding: the next of its team in
 * turn order. */
static inline int ask_partner(const g304 *g, int seat) { return (seat + 2) % g->seats; }

int g304_next_seat(const g304 *g, int seat)
{
	int next = seat_after(seat);
	while (g->sitting_out >> next & 1)
		next = seat_after(next);
	return next;
}

static inline g304_set trumps_of(const g304 *g) { return suit_cards(g, g->trump_suit); }

/* The cards of a team's seats in a per-seat array. */
static g304_set team_cards(const g304 *g, const g304_set *sets, int team)
{
	g304_set s = 0;
	for (int seat = team; seat < g->seats; seat += 2)
		s |= sets[seat];
	return s;
}

/* ---- match and deal ---- */

void g304_init(g304 *g, const g304_rules *rules, int first_dealer)
{
	memset(g, 0, sizeof *g);
	if (rules)
		g->rules = *rules;
	if (g->rules.size >= G304_SIZE_COUNT)
		g->rules.size = G304_SIZE_FOUR;
	const g304_variant *var = g304_variant_of(&g->rules);
	g->seats = var->seats;
	g->ntricks = var->hand;
	g->ranks = var->pack->ranks;
	g->ncards = (uint8_t)(var->pack->ranks * SUIT_COUNT);
	for (int x = 0; x < SUIT_COUNT; x++)
		g->suits[x] = g304_pack_suit(var->pack, x);
	g->dealer = (uint8_t)(first_dealer >= 0 && first_dealer < g->seats ? first_dealer : 0);
	g->tokens[0] = g->tokens[1] = G304_START_TOKENS;
	g->winner = -1;
	g->phase = G304_PHASE_DEAL;
	g->turn = G304_NO_SEAT;
	g->last.outcome = G304_OUTCOME_NONE;
	g->last.trumper = g->last.spoilt_seat = g->last.caps_seat = G304_NO_SEAT;
	g->last.made = -1;
}

/* No trick played yet, none won. */
static void tricks_clear(g304 *g)
{
	PLAY_TRICKS_CLEAR(g, G304_TRICKS_MAX, G304_NO_SEAT);
}

/* Deals `each` cards to every seat from deck[base], dealer+1 first. */
static void deal_batch(g304 *g, int base, int each)
{
	for (int k = 0; k < g->seats; k++) {
		int seat = (g->dealer + 1 + k) % g->seats;
		g304_set got = 0;
		for (int i = 0; i < each; i++)
			got |= bit_of(g->deck[base + each * k + i]);
		g->hand[seat] |= got;
		g->dealt[seat] |= got;
		if (base == 0)
			g->first4[seat] = got;
	}
}

int g304_deal(g304 *g, const card *deck)
{
	if (g->phase == G304_PHASE_OVER)
		return G304_ERR_MATCH_OVER;
	if (g->phase != G304_PHASE_DEAL)
		return G304_ERR_WRONG_PHASE;
	if (g->ncards == CARD_COUNT)
		memcpy(g->deck, deck, CARD_COUNT); /* four players: a fixed copy */
	else
		memcpy(g->deck, deck, g->ncards);
	memset(g->first4, 0, sizeof g->first4);
	memset(g->dealt, 0, sizeof g->dealt);
	memset(g->hand, 0, sizeof g->hand);
	deal_batch(g, 0, g304_variant_of(&g->rules)->first);
	g->deal_no++;
	g->phase = G304_PHASE_BID4;
	g->turn = (uint8_t)seat_after(g->dealer);
	g->asker = G304_NO_SEAT;
	g->spoke = g->passes = g->turns8 = g->any200 = 0;
	g->bid = g->bid8 = 0;
	g->bidder = g->bidder8 = G304_NO_SEAT;
	g->nbidlog = 0;
	g->trumper = G304_NO_SEAT;
	g->trump_suit = 0;
	g->trump_card = CARD_NONE;
	g->trump_down = g->trump_open = g->trump_public = 0;
	g->pcc = g->exhausted = 0;
	g->sitting_out = 0;
	tricks_clear(g);
	g->caps_seat = G304_NO_SEAT;
	g->caps_norder = g->caps_k = 0;
	g->caps_judged = G304_CAPSO_NONE;
	g->caps_bonus = 0;
	g->caps_since[0] = g->caps_since[1] = G304_CAPS_NEVER;
	g->caps_pend[0] = g->caps_pend[1] = 0;
	g->caps_pend_open = g->caps_opened = g->caps_settled = 0;
	return G304_ERR_OK;
}

/* Takes up to `amount` tokens from team `payer`: to the other team, or to
 * the bank. A team never pays more than it has; at none the match ends. */
static void pay(g304 *g, int payer, int amount, g304_deal_end *end)
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

/* Closes the deal: records the outcome, moves the dealer, ends the match if
 * a team has no tokens left. */
static void end_deal(g304 *g, g304_deal_end *end, int keep_dealer, g304_result *res)
{
	end->tokens[0] = g->tokens[0];
	end->tokens[1] = g->tokens[1];
	g->last = *end;
	g->turn = G304_NO_SEAT;
	if (!keep_dealer)
		g->dealer = (uint8_t)seat_after(g->dealer);
	play_emit(res, G304_EV_DEAL_END, end->trumper, end->outcome, CARD_NONE, 0);
	if (g->tokens[0] <= 0 || g->tokens[1] <= 0) {
		g->winner = (int8_t)(g->tokens[0] <= 0 ? 1 : 0);
		g->phase = G304_PHASE_OVER;
		play_emit(res, G304_EV_MATCH_END, g->winner, 0, CARD_NONE, 0);
	} else {
		g->phase = G304_PHASE_DEAL;
	}
}

static void end_init(const g304 *g, g304_deal_end *end, int outcome)
{
	memset(end, 0, sizeof *end);
	end->outcome = (uint8_t)outcome;
	end->trumper = g->trumper;
	end->bid = g->trumper == G304_NO_SEAT ? 0 : g->bid;
	end->made = -1;
	end->spoilt_seat = G304_NO_SEAT;
	end->caps = G304_CAPSO_NONE;
	end->caps_seat = G304_NO_SEAT;
	/* Points only for a deal played out: elsewhere they would mean nothing
	 * and could tell the value of cards that stayed face down. */
	if (outcome == G304_OUTCOME_SCORED) {
		end->points[0] = (int16_t)points_of(g, g->won[0]);
		end->points[1] = (int16_t)points_of(g, g->won[1]);
	}
}

/* ---- four-card bidding ---- */

static void bidlog_add(g304 *g, int seat, int asker, int round, int value)
{
	if (g->nbidlog >= G304_BIDLOG_MAX)
		return; /* cannot happen: bids rise strictly, see G304_BIDLOG_MAX */
	g304_bidlog *l = &g->bidlog[g->nbidlog++];
	l->seat = (uint8_t)seat;
	l->asker = (uint8_t)asker;
	l->round = (uint8_t)round;
	l->value = (uint16_t)value;
}

/* The first speaker's duty to open the bidding (g304_variant.open_min):
 * its first turn, no bid and no ask before it. */
static int must_open(const g304 *g, int seat)
{
	return g304_variant_of(&g->rules)->open_min && !g->spoke && g->asker == G304_NO_SEAT && g->bidder == G304_NO_SEAT
	       && seat == seat_after(g->dealer);
}

/* The lowest bid the four-card rules allow `seat` now, or 0 if none. */
static int bid4_min(const g304 *g, int seat)
{
	int lo = bid_above(&g->rules, g->bid);
	if (must_open(g, seat) && lo < g304_variant_of(&g->rules)->open_min)
		lo = g304_variant_of(&g->rules)->open_min;
	int spoke = (g->spoke >> seat) & 1;
	int over_partner = partners(g->bidder, seat);
	const g304_variant *w = g304_variant_of(&g->rules);
	if (g->rules.bidding == G304_BIDDING_SINGLE) {
		if (spoke || over_partner) {
			if (g->any200)
				return 0;
			if (lo < w->bid_limit)
				lo = w->bid_limit;
		}
	} else if ((spoke || over_partner) && lo < w->bid_limit) {
		lo = w->bid_limit;
	}
	return lo <= w->bid_max ? lo : 0;
}

static int bid4_check(const g304 *g, int seat, int v, g304_result *res)
{
	const g304_variant *w = g304_variant_of(&g->rules);
	if (v == G304_BID_PCC)
		return play_refuse(res, G304_ERR_PCC_FOUR, 0, 0);
	if (v > w->bid_max)
		return play_refuse(res, G304_ERR_BID_TOO_HIGH, w->bid_max, 0);
	if (!g304_bid_step_ok(&g->rules, v))
		return play_refuse(res, G304_ERR_BID_NOT_MULTIPLE, v, w->bid_limit);
	/* Name the lowest bid this seat may really make (not just 160), so a
	 * player who follows the message is not refused again. */
	int lowest = bid4_min(g, seat);
	if ((v < w->bid_min || (must_open(g, seat) && v < lowest)) && lowest)
		return play_refuse(res, G304_ERR_BID_TOO_LOW, lowest, 0);
	if (v <= g->bid)
		return play_refuse(res, G304_ERR_BID_NOT_HIGHER, g->bid, 0);
	int spoke = (g->spoke >> seat) & 1;
	int over_partner = partners(g->bidder, seat);
	if (g->rules.bidding == G304_BIDDING_SINGLE) {
		if ((spoke || over_partner) && (g->any200 || v < w->bid_limit))
			return play_refuse(res, spoke ? G304_ERR_SINGLE_ONCE : G304_ERR_SINGLE_PARTNER, g->any200, w->bid_limit);
	} else if (v < w->bid_limit) {
		if (spoke)
			return play_refuse(res, G304_ERR_BID_SECOND_TURN, 0, w->bid_limit);
		if (over_partner)
			return play_refuse(res, G304_ERR_BID_OVER_PARTNER, 0, w->bid_limit);
	}
	return G304_ERR_OK;
}

/* After a turn of the four-card round: the next seat speaks, unless the
 * round is over. `owner` is the seat whose turn it was (the asker, if any). */
static void bid4_next(g304 *g, int owner, g304_result *res)
{
	if (g->bidder == G304_NO_SEAT && g->passes >= g->seats) {
		g304_deal_end end;
		end_init(g, &end, G304_OUTCOME_PASSED_OUT);
		play_emit(res, G304_EV_PASSED_OUT, G304_NO_SEAT, 0, CARD_NONE, 0);
		end_deal(g, &end, 0, res);
		return;
	}
	if (g->bidder != G304_NO_SEAT && g->passes >= g->seats - 1) {
		g->trumper = g->bidder;
		g->phase = G304_PHASE_TRUMP4;
		g->turn = g->trumper;
		play_emit(res, G304_EV_BIDDING_WON, g->bidder, g->bid, CARD_NONE, 0);
		return;
	}
	int next = seat_after(owner);
	if (next == g->bidder)
		next = seat_after(next);
	g->turn = (uint8_t)next;
}

static int apply_bid4(g304 *g, const g304_action *a, g304_result *res)
{
	int seat = a->seat;
	int answering = g->asker != G304_NO_SEAT;
	if (must_open(g, seat) && a->type != G304_ACT_BID)
		return play_refuse(res, G304_ERR_MUST_OPEN, bid4_min(g, seat), 0);
	if (a->type == G304_ACT_REDEAL) {
		int first = seat_after(g->dealer);
		if (seat != first)
			return play_refuse(res, G304_ERR_REJECT_NOT_FIRST, first, 0);
		if (g->spoke || answering)
			return play_refuse(res, G304_ERR_REJECT_TOO_LATE, 0, 0);
		int pts = points_of(g, g->hand[seat]);
		if (pts >= g304_variant_of(&g->rules)->reject_below)
			return play_refuse(res, G304_ERR_REJECT_POINTS, pts, g304_variant_of(&g->rules)->reject_below);
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
		if (partners(g->bidder, seat))
			return play_refuse(res, G304_ERR_ASK_PARTNER_HIGH, g->bidder, 0);
		g->asker = (uint8_t)seat;
		g->turn = (uint8_t)ask_partner(g, seat);
		play_emit(res, G304_EV_ASK, seat, 0, CARD_NONE, 0);
		return G304_ERR_OK;
	case G304_ACT_BID: {
		int err = bid4_check(g, seat, a->value, res);
		if (err)
			return err;
		g->bid = a->value;
		g->bidder = (uint8_t)seat;
		if (a->value >= g304_variant_of(&g->rules)->bid_limit)
			g->any200 = 1;
		g->passes = 0;
		bidlog_add(g, seat, answering ? g->asker : G304_NO_SEAT, 4, a->value);
		play_emit(res, G304_EV_BID, seat, a->value, CARD_NONE, answering);
		break;
	}
	case G304_ACT_PASS:
		g->passes++;
		bidlog_add(g, seat, answering ? g->asker : G304_NO_SEAT, 4, 0);
		play_emit(res, G304_EV_PASS, seat, 0, CARD_NONE, answering);
		break;
	default:
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	}
	g->spoke |= (uint8_t)(1u << seat | 1u << owner);
	g->asker = G304_NO_SEAT;
	bid4_next(g, owner, res);
	return G304_ERR_OK;
}

/* ---- trump card and eight-card bidding ---- */

static void lay_trump_card(g304 *g, card c)
{
	g->trump_card = c;
	g->trump_suit = (uint8_t)suit_of(g, c);
	g->hand[g->trumper] &= ~bit_of(c);
	g->trump_down = 1;
}

/* ---- caps ---- */

static void reveal_trump(g304 *g, g304_result *res);

/* The trick a question after `cards` cards of play is about: the one in
 * progress, or the one just finished (-1 before the first card). There is
 * no caps in pcc, so every trick has a card from every seat. */
static int caps_trick_of(const g304 *g, int cards) { return cards == 0 ? -1 : (cards - 1) / g->seats; }

/* After every change of what players know: has caps become certain for a
 * player of a team that may call it? Records the trick it happened in.
 * `opened`: this is the moment right after the trumper opened the game. */
static void caps_track(g304 *g, int opened);
static inline void caps_update(g304 *g, int opened)
{
	if (g->rules.caps == G304_CAPS_OFF || g->pcc || g->caps_seat != G304_NO_SEAT
	    || g->phase != G304_PHASE_PLAY)
		return;
	caps_track(g, opened);
}

static void caps_track(g304 *g, int opened)
{
	const g304_trick *t = &g->tricks[g->trick_no];
	int cards = g->trick_no * g->seats + t->n;
	int when = caps_trick_of(g, cards);
	if (g->rules.size != G304_SIZE_FOUR) {
		g304_caps_wide_track(g, when);
		return;
	}
	/* One budget for every question asked after this card. */
	int unlimited = g->caps_budget == G304_CAPS_UNLIMITED;
	unsigned long left = g->caps_budget && !unlimited ? g->caps_budget : G304_CAPS_TRACK_BUDGET;
	for (int team = 0; team < 2; team++) {
		if (g->caps_since[team] != G304_CAPS_NEVER || g->tricks_won[!team] > 0)
			continue;
		int open = 0; /* a player's question left undecided or not asked */
		for (int seat = team; seat < G304_SEATS; seat += 2) {
			g304_view v;
			card order[G304_TRICKS];
			int n;
			if (!g304_caps_question(g, seat, &v))
				continue; /* may not call, or no cards left to call with */
			if (!left) {
				open = 1;
				break;
			}
			g304_caps_stats st = { 0, 0 };
			int found = g304_caps_find(&v, unlimited ? 0 : left, order, &n, &st);
			if (!unlimited)
				left = st.nodes < left ? left - st.nodes : 0;
			if (found == 1) {
				g->caps_since[team] = (int8_t)when;
				open = 0;
				break;
			}
			if (found < 0)
				open = 1;
		}
		/* Undecided within the budget counts as not yet certain for now,
		 * and is noted: where a verdict depends on it, caps_settle_team
		 * asks again with the judging budget (docs/ENGINE.md). */
		if (open) {
			if (opened)
				g->caps_pend_open |= (uint8_t)(1u << team);
			else
				g->caps_pend[team] |= 1u << cards;
		}
	}
}

int g304_play_position(const g304 *g, int cards, int opened, g304 *out)
{
	int played = g->trick_no * g->seats + (g->trick_no < g->ntricks ? g->tricks[g->trick_no].n : 0);
	if (g->phase != G304_PHASE_PLAY || g->pcc || g->trumper >= g->seats || cards < 0
	    || cards >= g->ntricks * g->seats || cards > played || (opened && (cards != 0 || !g->caps_opened)))
		return 0;
	g304 *r = out;
	*r = *g;
	/* The start of play: every card dealt is in hand but the trump card,
	 * which lies face down on the table; no trump is known yet. */
	for (int s = 0; s < g->seats; s++)
		r->hand[s] = r->dealt[s];
	r->hand[r->trumper] &= ~bit_of(r->trump_card);
	r->trump_down = 1;
	r->trump_open = r->trump_public = 0;
	r->exhausted = 0;
	tricks_clear(r);
	int leader = seat_after(r->dealer);
	r->tricks[0].leader = (uint8_t)leader;
	r->turn = (uint8_t)leader;
	r->caps_seat = G304_NO_SEAT;
	r->caps_norder = r->caps_k = 0;
	memset(r->caps_order, 0, sizeof r->caps_order);
	r->caps_judged = G304_CAPSO_NONE;
	r->caps_bonus = 0;
	r->rules.caps = G304_CAPS_OFF; /* no tracking while replaying */
	if (g->caps_opened && (opened || cards > 0))
		reveal_trump(r, NULL);
	for (int k = 0; k < cards; k++) {
		const g304_trick *t = &g->tricks[k / g->seats];
		g304_action a = { .type = G304_ACT_PLAY, .seat = t->seat[k % g->seats], .card = t->card[k % g->seats] };
		if (g304_apply(r, &a, NULL) != G304_ERR_OK)
			return 0; /* cannot happen: these cards were accepted in this order */
	}
	r->rules = g->rules;
	return 1;
}

/* Asks the question after `cards` cards (or right after the opening) again
 * for `team`, its players' questions sharing the judging budget: 1 if caps
 * was certain then for one of them. Undecided even so counts as not
 * certain. */
static int caps_ask_again(g304 *g, int team, int cards, int opened)
{
	g304 r;
	if (g->caps_settled < 255)
		g->caps_settled++;
	if (!g304_play_position(g, cards, opened, &r) || r.tricks_won[!team] > 0)
		return 0;
	unsigned long left = G304_CAPS_JUDGE_BUDGET;
	for (int seat = team; seat < G304_SEATS && left; seat += 2) {
		g304_view v;
		card order[G304_TRICKS];
		int n;
		if (!g304_caps_question(&r, seat, &v))
			continue;
		g304_caps_stats st = { 0, 0 };
		if (g304_caps_find(&v, left, order, &n, &st) == 1)
			return 1;
		left = st.nodes < left ? left - st.nodes : 0;
	}
	return 0;
}

/* Settles, earliest first, the team's unsettled questions about tricks
 * before `limit`; the first that proves certain becomes caps_since. */
static void caps_settle_team(g304 *g, int team, int limit)
{
	for (int cards = 0; cards < g->ntricks * g->seats && cards < 32 && caps_trick_of(g, cards) < limit; cards++) {
		for (int opened = 0; opened < 2; opened++) {
			int pend = opened ? cards == 0 && (g->caps_pend_open >> team & 1)
			                  : (int)(g->caps_pend[team] >> cards & 1);
			if (!pend)
				continue;
			if (opened)
				g->caps_pend_open &= (uint8_t)~(1u << team);
			else
				g->caps_pend[team] &= ~(1u << cards);
			if (caps_ask_again(g, team, cards, opened)) {
				g->caps_since[team] = (int8_t)caps_trick_of(g, cards);
				g->caps_pend[team] = 0;
				g->caps_pend_open &= (uint8_t)~(1u << team);
				return;
			}
		}
	}
}

void g304_caps_settle(g304 *g)
{
	if (g->phase != G304_PHASE_PLAY)
		return;
	for (int team = 0; team < 2; team++)
		caps_settle_team(g, team, g->caps_since[team] == G304_CAPS_NEVER ? g->ntricks : g->caps_since[team]);
}

/* Is a call now within the grace: before the end of the trick in which caps
 * became certain, or after it but before the next card is led (001)? */
static int caps_timely(const g304 *g, int team)
{
	int since = g->caps_since[team];
	if (since == G304_CAPS_NEVER)
		return 1;
	int now = g->trick_no, n = g->tricks[g->trick_no].n;
	return now <= since || (now == since + 1 && n == 0);
}

static int apply_caps(g304 *g, const g304_action *a, g304_result *res)
{
	int seat = a->seat;
	if (g->rules.caps == G304_CAPS_OFF)
		return play_refuse(res, G304_ERR_CAPS_OFF, 0, 0);
	if (g->phase != G304_PHASE_PLAY)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (g->pcc)
		return play_refuse(res, G304_ERR_CAPS_PCC, 0, 0);
	if (!g304_caps_may_call(g, seat))
		return play_refuse(res, G304_ERR_CAPS_NOT_YOURS, g->trumper, 0);
	if (g->caps_seat != G304_NO_SEAT)
		return play_refuse(res, G304_ERR_CAPS_CALLED, g->caps_seat, 0);
	g304_view v;
	g304_view_of(g, seat, &v);
	/* The cards a claim orders: the hand, and the trump card on the table
	 * if it is the seat's. */
	g304_set cards = v.hand, listed = 0;
	if (v.trump_down && seat == g->trumper)
		cards |= bit_of(g->trump_card);
	int ok = a->norder > 0 && a->norder == count_of(cards);
	for (int i = 0; ok && i < a->norder; i++) {
		ok = a->order[i] < g->ncards && (cards & bit_of(a->order[i])) && !(listed & bit_of(a->order[i]));
		if (ok)
			listed |= bit_of(a->order[i]);
	}
	if (!ok)
		return play_refuse(res, G304_ERR_CAPS_ORDER, count_of(cards), 0);
	int team = g304_team(seat);
	int judged;
	int four = g->rules.size == G304_SIZE_FOUR;
	int certain = g304_caps_judge(&v, a->order, a->norder);
	if (four && certain && caps_timely(g, team) && g->tricks_won[!team] == 0) {
		/* Timely by what the tracking proved; a question it left
		 * undecided about an earlier trick could make it late. */
		caps_settle_team(g, team, g->tricks[g->trick_no].n == 0 ? g->trick_no - 1 : g->trick_no);
	}
	if (!certain)
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
	/* The bonus: two tricks or more still to play (before the seventh of
	 * eight tricks, the fifth of six). */
	g->caps_bonus = g->trick_no < g->ntricks - 2
		|| (g->trick_no == g->ntricks - 2 && g->tricks[g->trick_no].n == 0);
	play_emit(res, G304_EV_CAPS, seat, 0, CARD_NONE, 0);
	return G304_ERR_OK;
}

/* The card a caller's caps order plays next, or CARD_NONE if there is no
 * call (or the order could no longer be followed). */
static card caps_next(const g304 *g, int seat)
{
	if (seat != g->caps_seat || g->caps_k >= g->caps_norder)
		return CARD_NONE;
	return g->caps_order[g->caps_k];
}

static void start_play(g304 *g, g304_result *res)
{
	g->phase = G304_PHASE_PLAY;
	int leader = g->pcc ? g->trumper : seat_after(g->dealer);
	g->tricks[0].leader = (uint8_t)leader;
	g->turn = (uint8_t)leader;
	play_emit(res, G304_EV_PLAY_STARTS, leader, 0, CARD_NONE, 0);
	caps_update(g, 0);
}

static int apply_trump(g304 *g, const g304_action *a, g304_result *res)
{
	if (a->type != G304_ACT_TRUMP)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (a->seat != g->trumper)
		return play_refuse(res, G304_ERR_NOT_TRUMPER, g->trumper, 0);
	/* After the four-card bidding the hand is the first four cards; the
	 * rest are dealt only once the trump card lies on the table. */
	if (a->card >= g->ncards || !(g->hand[a->seat] & bit_of(a->card)))
		return play_refuse(res, G304_ERR_NOT_IN_HAND, a->card, 0);
	lay_trump_card(g, a->card);
	play_emit(res, G304_EV_TRUMP_SET, a->seat, 0, CARD_NONE, 0);
	if (g->phase == G304_PHASE_TRUMP4) {
		const g304_variant *var = g304_variant_of(&g->rules);
		deal_batch(g, g->seats * var->first, var->hand - var->first);
		play_emit(res, G304_EV_DEALT_REST, G304_NO_SEAT, 0, CARD_NONE, 0);
		if (!var->bid2) {
			start_play(g, res);
			return G304_ERR_OK;
		}
		g->phase = G304_PHASE_BID8;
		g->turn = g->trumper;
	} else {
		start_play(g, res);
	}
	return G304_ERR_OK;
}

static int bid8_min(const g304 *g)
{
	const g304_variant *w = g304_variant_of(&g->rules);
	int lo = bid_above(&g->rules, g->bid);
	if (lo < w->bid_second)
		lo = w->bid_second;
	return lo <= w->bid_max ? lo : 0;
}

static void bid8_end(g304 *g, g304_result *res)
{
	if (g->bidder8 == G304_NO_SEAT) {
		start_play(g, res);
		return;
	}
	/* The old trump card goes back to its owner; the new trumper picks again. */
	g->hand[g->trumper] |= bit_of(g->trump_card);
	g->trump_down = 0;
	play_emit(res, G304_EV_TRUMP_BACK, g->trumper, 0, CARD_NONE, 0);
	g->trump_card = CARD_NONE;
	g->trumper = g->bidder8;
	g->bid = g->bid8;
	g->bidder = g->bidder8;
	if (g->bid8 == G304_BID_PCC) {
		/* Partner close caps: the trumper's partners lay their cards aside. */
		g->pcc = 1;
		for (int s = 0; s < g->seats; s++)
			if (partners(s, g->trumper))
				g->sitting_out |= (uint8_t)(1u << s);
	}
	g->phase = G304_PHASE_TRUMP8;
	g->turn = g->trumper;
	play_emit(res, G304_EV_BID8_WON, g->trumper, g->bid, CARD_NONE, 0);
}

static int apply_bid8(g304 *g, const g304_action *a, g304_result *res)
{
	int seat = a->seat;
	if (a->type == G304_ACT_REDEAL)
		return play_refuse(res, G304_ERR_REJECT_TOO_LATE, 0, 0);
	if (a->type != G304_ACT_BID && a->type != G304_ACT_PASS && a->type != G304_ACT_PARTNER)
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	if (seat != g->turn)
		return play_refuse(res, G304_ERR_NOT_YOUR_TURN, g->turn, 0);
	switch (a->type) {
	case G304_ACT_PARTNER:
		return play_refuse(res, G304_ERR_ASK_EIGHT, 0, 0);
	case G304_ACT_BID: {
		int v = a->value;
		if (partners(g->bidder8, seat))
			return play_refuse(res, G304_ERR_BID8_PARTNER, g->bidder8, 0);
		const g304_variant *w = g304_variant_of(&g->rules);
		if (v != G304_BID_PCC) {
			if (v > w->bid_max)
				return play_refuse(res, G304_ERR_BID_TOO_HIGH, w->bid_max, 0);
			if (!g304_bid_step_ok(&g->rules, v))
				return play_refuse(res, G304_ERR_BID_NOT_MULTIPLE, v, w->bid_limit);
			if (v < w->bid_second && bid8_min(g))
				return play_refuse(res, G304_ERR_BID_TOO_LOW, bid8_min(g), 0);
			if (v <= g->bid)
				return play_refuse(res, G304_ERR_BID_NOT_HIGHER, g->bid, 0);
		}
		g->bid8 = (uint16_t)v;
		g->bidder8 = (uint8_t)seat;
		if (v > g->bid)
			g->bid = (uint16_t)v; /* so the next bid must beat it */
		g->bidder = (uint8_t)seat;
		bidlog_add(g, seat, G304_NO_SEAT, 8, v);
		play_emit(res, G304_EV_BID, seat, v, CARD_NONE, 8);
		break;
	}
	case G304_ACT_PASS:
		bidlog_add(g, seat, G304_NO_SEAT, 8, 0);
		play_emit(res, G304_EV_PASS, seat, 0, CARD_NONE, 8);
		break;
	default:
		return play_refuse(res, G304_ERR_WRONG_PHASE, g->phase, 0);
	}
	g->turns8++;
	if (g->turns8 >= g->seats || g->bid8 == G304_BID_PCC)
		bid8_end(g, res);
	else
		g->turn = (uint8_t)seat_after(seat);
	return G304_ERR_OK;
}

/* ---- play ---- */

static inline int trick_size(const g304 *g) { return g->pcc ? g->seats - count_of(g->sitting_out) : g->seats; }

/* The first-trick rule: a trumper who is dealer+1 may not lead a trump to
 * the first trick of a closed game. */
static inline int first_lead_barred(const g304 *g, int seat)
{
	return g->trick_no == 0 && !g->trump_open && seat == seat_after(g->dealer)
		&& seat == g->trumper;
}

/* Cards `seat` may play now (its turn in PLAY assumed). Never empty for the
 * seat to move: see RULES.md's two corners. */
static g304_set play_mask(const g304 *g, int seat)
{
	const g304_trick *t = &g->tricks[g->trick_no];
	g304_set hand = g->hand[seat];
	int trumper = seat == g->trumper;
	if (t->n == 0) {
		if (!trumper)
			return hand;
		if (!hand) /* last trick: only the trump card is left */
			return g->trump_down ? bit_of(g->trump_card) : 0;
		g304_set m = hand;
		g304_set in_hand_trumps = hand & trumps_of(g);
		if (g->exhausted && in_hand_trumps)
			m = in_hand_trumps;
		if (first_lead_barred(g, seat)) {
			/* Only trumps in hand: leading one turns the game open. */
			if (m & ~trumps_of(g))
				m &= ~trumps_of(g);
		}
		return m;
	}
	int led = suit_of(g, t->card[0]);
	g304_set cut = trumper && g->trump_down ? bit_of(g->trump_card) : 0;
	return g304_follow(hand, suit_cards(g, led), cut, trumps_of(g), led == g->trump_suit);
}

/* Why `c` is not among play_mask(g, seat). */
static int play_refusal(const g304 *g, int seat, card c, g304_result *res)
{
	const g304_trick *t = &g->tricks[g->trick_no];
	int trumper = seat == g->trumper;
	int is_trump_card = trumper && g->trump_down && c == g->trump_card;
	if (c >= g->ncards || (!(g->hand[seat] & bit_of(c)) && !is_trump_card))
		return play_refuse(res, G304_ERR_NOT_IN_HAND, c, 0);
	if (t->n == 0) {
		if (is_trump_card)
			return play_refuse(res, G304_ERR_TRUMP_CARD_RESERVED, 0, 0);
		if (trumper && g->exhausted && suit_of(g, c) != g->trump_suit)
			return play_refuse(res, G304_ERR_EXHAUSTED_TRUMPS, 0, 0);
		return play_refuse(res, G304_ERR_NO_TRUMP_LEAD_FIRST, 0, 0);
	}
	int led = suit_of(g, t->card[0]);
	if (g->hand[seat] & suit_cards(g, led))
		return play_refuse(res, G304_ERR_FOLLOW_SUIT, led, 0);
	if (is_trump_card)
		return play_refuse(res, G304_ERR_TRUMP_CARD_RESERVED, 0, 0);
	return play_refuse(res, G304_ERR_CUT_WITH_TRUMP_CARD, 0, 0);
}

/* Turns the trump card face up for all; back to the trumper's hand if it
 * still lay on the table. */
static void reveal_trump(g304 *g, g304_result *res)
{
	int back = g->trump_down;
	if (back)
		g->hand[g->trumper] |= bit_of(g->trump_card);
	g->trump_down = 0;
	g->trump_open = 1;
	g->trump_public = 1;
	play_emit(res, G304_EV_REVEALED, g->trumper, 0, g->trump_card, back);
}

static void score_deal(g304 *g, g304_result *res)
{
	g304_deal_end end;
	end_init(g, &end, G304_OUTCOME_SCORED);
	int tt = g304_team(g->trumper);
	if (g->pcc) {
		/* The sitting-out partners' cards were never played; they count
		 * for the trumper's side so a deal's points always total 304. */
		end.points[tt] = (int16_t)(end.points[tt] + points_of(g, team_cards(g, g->hand, tt)));
		end.made = g->tricks_won[tt] == g->ntricks;
	} else {
		end.made = end.points[tt] >= g->bid;
	}
	end.caps_seat = g->caps_seat;
	int strict = g->rules.caps == G304_CAPS_STRICT;
	if (g->caps_seat != G304_NO_SEAT) {
		int ct = g304_team(g->caps_seat);
		/* Any trick the caller's side lost in this deal, before or after
		 * the call, makes it a failed call (000 4.3: "loses a trick in
		 * that game"). */
		int judged = g->tricks_won[!ct] > 0 ? G304_CAPSO_FAILED : g->caps_judged;
		end.caps = (uint8_t)judged;
		if (judged == G304_CAPSO_FAILED)
			pay(g, ct, G304_CAPS_FAILED_PAYS, &end);
		else if (judged == G304_CAPSO_EARLY || (judged == G304_CAPSO_LATE && strict))
			pay(g, ct, G304_WRONG_CAPS_PAYS, &end);
		else if (judged == G304_CAPSO_CORRECT && ct == tt)
			pay(g, !tt, g304_payoff(g304_variant_of(&g->rules), g->bid) + g->caps_bonus, &end);
		else if (judged == G304_CAPSO_CORRECT)
			pay(g, tt, g304_charge(g304_variant_of(&g->rules), g->bid) + 1, &end); /* external caps: the charge and 1 more */
		else
			goto by_bid; /* lenient: a late call costs nothing and earns nothing */
		end_deal(g, &end, 0, res);
		return;
	}
	if (strict && !g->pcc && g->caps_since[tt] == G304_CAPS_NEVER && g->tricks_won[tt] == g->ntricks)
		caps_settle_team(g, tt, g->ntricks); /* was it ever certain? settle what is undecided */
	if (strict && !g->pcc && g->caps_since[tt] != G304_CAPS_NEVER && g->tricks_won[tt] == g->ntricks) {
		/* Every trick won without the call the team could have made. */
		end.caps = G304_CAPSO_LATE;
		pay(g, tt, G304_WRONG_CAPS_PAYS, &end);
		end_deal(g, &end, 0, res);
		return;
	}
by_bid:
	if (end.made)
		pay(g, !tt, g304_payoff(g304_variant_of(&g->rules), g->bid), &end);
	else
		pay(g, tt, g304_charge(g304_variant_of(&g->rules), g->bid), &end);
	end_deal(g, &end, 0, res);
}

static void finish_trick(g304 *g, g304_result *res)
{
	g304_trick *t = &g->tricks[g->trick_no];
	int n = t->n;
	g304_set cards = 0;
	for (int i = 0; i < n; i++)
		cards |= bit_of(t->card[i]);
	int led = suit_of(g, t->card[0]);
	g304_set trumps = cards & trumps_of(g);
	card top = trumps ? top_of(trumps) : top_of(cards & suit_cards(g, led));
	int wi = 0;
	while (t->card[wi] != top)
		wi++;
	int winner = t->seat[wi];

	if (t->down && !g->trump_open) {
		/* The inspection: any trump face down opens the trump. */
		g304_set down = 0;
		for (int i = 0; i < n; i++)
			if (t->down >> i & 1)
				down |= bit_of(t->card[i]);
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
	if (g->trick_no == 0 && !g->trump_open && g->bid >= g304_variant_of(&g->rules)->bid_second)
		reveal_trump(g, res); /* 250 and over: closed for the first trick only */

	t->winner = (uint8_t)winner;
	g->won[g304_team(winner)] |= cards;
	g->tricks_won[g304_team(winner)]++;
	play_emit(res, G304_EV_TRICK, winner, g->trick_no, CARD_NONE, 0);
	if (g->exhausted && !(g->hand[g->trumper] & trumps_of(g)))
		g->exhausted = 0;
	if (++g->trick_no == g->ntricks) {
		score_deal(g, res);
		return;
	}
	g304_trick *next = &g->tricks[g->trick_no];
	next->leader = (uint8_t)winner;
	g->turn = (uint8_t)winner;
}

static int apply_play(g304 *g, const g304_action *a, g304_result *res)
{
	int seat = a->seat;
	g304_trick *t = &g->tricks[g->trick_no];
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
		g->caps_opened = 1;
		caps_update(g, 1);
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
	g304_set legal = play_mask(g, seat);
	card next = caps_next(g, seat);
	if (next != CARD_NONE && (legal & bit_of(next)) && c != next)
		return play_refuse(res, G304_ERR_CAPS_NEXT, next, 0);
	if (c >= g->ncards || !(legal & bit_of(c)))
		return play_refusal(g, seat, c, res);
	if (next != CARD_NONE) {
		if (c == next) {
			g->caps_k++;
		} else {
			/* The order cannot be played here, so the claim was never
			 * certain (judged early at the call); the player plays on freely. */
			g->caps_k = g->caps_norder;
			play_emit(res, G304_EV_CAPS_BROKEN, seat, 0, CARD_NONE, 0);
		}
	}

	int trumper = seat == g->trumper;
	int from_table_lead = g->trump_down && c == g->trump_card;
	if (t->n == 0 && trumper && suit_of(g, c) == g->trump_suit && !from_table_lead) {
		if (first_lead_barred(g, seat)) {
			/* RULES.md's corner: nothing but trumps in hand; the game goes open. */
			play_emit(res, G304_EV_OPENED, seat, 0, g->trump_card, 0);
			reveal_trump(g, res);
		}
		if (!g->pcc && !g->exhausted) {
			g304_set others = 0;
			for (int s = 0; s < g->seats; s++)
				if (s != seat)
					others |= g->hand[s];
			if (!(others & trumps_of(g)))
				g->exhausted = 1;
		}
	}
	int down = t->n > 0 && !g->trump_open && suit_of(g, c) != suit_of(g, t->card[0]);
	int from_table = trumper && g->trump_down && c == g->trump_card;
	if (from_table) {
		t->tcard |= (uint8_t)(1u << t->n);
		g->trump_down = 0;
		if (!down)
			g->trump_public = 1; /* the trumper's last card, played to a trump lead */
	} else
		g->hand[seat] &= ~bit_of(c);
	if (down)
		t->down |= (uint8_t)(1u << t->n);
	PLAY_TRICK_ADD(t, seat, c);
	play_emit(res, G304_EV_PLAYED, seat, 0, down ? CARD_NONE : c, down | from_table << 1);
	if (t->n == trick_size(g))
		finish_trick(g, res);
	else
		g->turn = (uint8_t)g304_next_seat(g, seat);
	caps_update(g, 0);
	return G304_ERR_OK;
}

static int apply_spoilt(g304 *g, const g304_action *a, g304_result *res)
{
	int tt = g304_team(g->trumper);
	g304_set opp = team_cards(g, g->dealt, !tt);
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
	/* A wrong call is a rule violation: the other team gets the deal's
	 * winnings as if it had won it, and 2 tokens more. */
	int caller = g304_team(a->seat);
	const g304_variant *w = g304_variant_of(&g->rules);
	int amount = (caller == tt ? g304_charge(w, g->bid) : g304_payoff(w, g->bid)) + 2;
	end.made = caller == tt ? 0 : 1;
	pay(g, caller, amount, &end);
	end_deal(g, &end, 0, res);
	return G304_ERR_OK;
}

int g304_apply(g304 *g, const g304_action *a, g304_result *res)
{
	int err = play_start(res, a->seat, g->seats, a->type, G304_ACT_COUNT, G304_ERR_BAD_SEAT, G304_ERR_BAD_ACTION);
	if (err)
		return err;
	if (g->phase == G304_PHASE_OVER)
		return play_refuse(res, G304_ERR_MATCH_OVER, g->winner, 0);
	if (g->phase == G304_PHASE_DEAL)
		return play_refuse(res, G304_ERR_NO_DEAL, 0, 0);
	if (a->type == G304_ACT_REDEAL && g->phase != G304_PHASE_BID4) {
		/* Same reasons as in the four-card bidding, not a bare "wrong phase". */
		int first = seat_after(g->dealer);
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
		return apply_bid8(g, a, res);
	default:
		return apply_play(g, a, res);
	}
}

/* ---- what a seat may do ---- */

void g304_legal_of(const g304 *g, int seat, g304_legal *out)
{
	memset(out, 0, sizeof *out);
	if (seat < 0 || seat >= g->seats)
		return;
	switch (g->phase) {
	case G304_PHASE_BID4:
		if (must_open(g, seat)) {
			out->acts |= 1u << G304_ACT_BID;
			out->bid_min = (uint16_t)bid4_min(g, seat);
			return;
		}
		if (seat == seat_after(g->dealer) && !g->spoke && g->asker == G304_NO_SEAT
		    && points_of(g, g->hand[seat]) < g304_variant_of(&g->rules)->reject_below)
			out->acts |= 1u << G304_ACT_REDEAL;
		if (seat != g->turn)
			return;
		out->acts |= 1u << G304_ACT_PASS;
		if (g->asker == G304_NO_SEAT && !partners(g->bidder, seat))
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
		if (!partners(g->bidder8, seat)) {
			out->pcc_ok = 1;
			out->acts |= 1u << G304_ACT_BID;
			out->bid_min = (uint16_t)bid8_min(g);
		}
		return;
	case G304_PHASE_PLAY:
		out->acts |= 1u << G304_ACT_SPOILT;
		if (seat == g->trumper && !g->trump_open && g->trick_no == 0 && g->tricks[0].n == 0)
			out->acts |= 1u << G304_ACT_OPEN;
		if (g->rules.caps != G304_CAPS_OFF && !g->pcc && g->caps_seat == G304_NO_SEAT && g304_caps_may_call(g, seat))
			out->acts |= 1u << G304_ACT_CAPS;
		if (seat == g->turn) {
			out->acts |= 1u << G304_ACT_PLAY;
			out->cards = play_mask(g, seat);
			card next = caps_next(g, seat);
			if (next != CARD_NONE && (out->cards & bit_of(next)))
				out->cards = bit_of(next);
		}
		return;
	default:
		return;
	}
}

/* ---- views ---- */

void g304_view_of(const g304 *g, int seat, g304_view *v)
{
	PLAY_VIEW_HEAD(v, g, seat);
	v->size = g->rules.size;
	v->tokens[0] = g->tokens[0];
	v->tokens[1] = g->tokens[1];
	v->bank = g->bank;
	v->winner = g->winner;
	v->last = g->last;
	v->asker = g->asker;
	v->sitting_out = g->sitting_out;
	v->trump_card = CARD_NONE;
	v->trump_suit = -1;
	v->trumper = G304_NO_SEAT;
	v->bidder = G304_NO_SEAT;
	v->caps_seat = G304_NO_SEAT;
	if (seat < 0 || seat >= g->seats || g->phase == G304_PHASE_DEAL || g->phase == G304_PHASE_OVER) {
		/* Between deals nothing of the old deal is shown but its end. */
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
	int knows_trump = g->trump_card != CARD_NONE && (seat == g->trumper || g->trump_public);
	if (knows_trump) {
		v->trump_card = g->trump_card;
		v->trump_suit = (int8_t)g->trump_suit;
	}
	if (g->phase != G304_PHASE_PLAY)
		return;
	/* A caps call shows the caller's remaining cards to everyone. */
	v->caps_seat = g->caps_seat;
	v->caps_norder = g->caps_norder;
	v->caps_k = g->caps_k;
	memcpy(v->caps_order, g->caps_order, sizeof v->caps_order);
	v->ntricks = (uint8_t)(g->trick_no + (g->trick_no < g->ntricks));
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &g->tricks[i];
		g304_trick *out = &v->tricks[i];
		*out = *t;
		int done = t->winner != G304_NO_SEAT;
		for (int k = 0; k < t->n; k++) {
			int hidden = (t->down >> k & 1) && !(t->shown >> k & 1);
			int inspected = done && seat == g->trumper;
			if (hidden && t->seat[k] != seat && !inspected)
				out->card[k] = CARD_NONE;
		}
		for (int k = t->n; k < G304_SEATS_MAX; k++)
			out->card[k] = CARD_NONE;
	}
	v->tricks_won[0] = g->tricks_won[0];
	v->tricks_won[1] = g->tricks_won[1];
	if (seat == g->trumper)
		v->exhausted = g->exhausted;
}
