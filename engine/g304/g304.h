/* g304.h: the rules of 304 (Jaffna rules, seeds 000 and 001 as settled by RULES.md)
 * at every table size (issue 31): four players with 32 cards, six with 36,
 * eight with 32.
 *
 * A game is a plain value (no pointers inside, copy it with =): a match of
 * deals between seats 0..n-1, the even seats forming team 0. The table size
 * is a table option (g304_rules.size) and a description (g304_variant) says
 * what differs: the pack, the deal batches, the seats and the tricks; one
 * rules module reads it. The host feeds it
 * a deck for each deal (g304_deal) and the players' actions (g304_apply);
 * it answers every refused action with a code and parameters that say why.
 * g304_view gives exactly what one seat may know. No I/O, no clock, no globals.
 */
#ifndef CARDBOT_G304_H
#define CARDBOT_G304_H

#include <stdint.h>
#include "card.h"
#include "answer.h"
#include "g304_pack.h"

#define G304_SEATS 4           /* four-player 304 (the search and its caps judge) */
#define G304_TRICKS 8
#define G304_SEATS_MAX 8       /* the largest table size */
#define G304_TRICKS_MAX 8
#define G304_CARDS_MAX 40       /* 904's pack */
#define G304_START_TOKENS 11   /* tokens each team starts a match with */
/* 304's bid thresholds (the rows of g304_variants give each size its own:
 * 504 and 904 scale them to their packs, docs/GAMES.md S21). */
#define G304_MIN_BID 160       /* more than half the 304 points */
#define G304_LIMIT_BID 200     /* the under-200 limits end here */
#define G304_BID8_MIN 250      /* lowest eight-card bid; also where "250+" rules start */
#define G304_MAX_BID 300       /* highest numeric bid: 304 rounded down to the step */
#define G304_REJECT_BELOW 15   /* a first hand worth less than this may be rejected */
#define G304_BID_PCC 1000      /* Partner Close Caps: above every numeric bid of every size
                                * (records write "pcc", never the number) */
#define G304_BIDLOG_MAX 640    /* bids strictly rise: in 904 up to 76 rising bids (460-580 by
                                * tens, 590-900 by fives), at most seats - 2 passes between
                                * two of them, and the second round: 76 * 7 + 16 < 640 */
#define G304_NO_SEAT 0xff
#define G304_WRONG_CAPS_PAYS 2 /* a call too early or too late, or none when due */
#define G304_CAPS_FAILED_PAYS 5 /* a trick lost after calling caps */

static inline int g304_team(int seat) { return seat & 1; }
static inline int g304_partner(int seat) { return (seat + 2) & 3; } /* four players */

/* A set of cards of any pack: bit c for card c (g304_pack.h's numbering). */
typedef uint64_t g304_set;

/* The table sizes. */
enum g304_size {
	G304_SIZE_FOUR, G304_SIZE_SIX, G304_SIZE_EIGHT, G304_SIZE_SIX24, G304_SIZE_504, G304_SIZE_904,
	G304_SIZE_COUNT
};

/* What a table size changes in the rules; everything else (the token
 * table's bands, caps, pcc, the inspection, spoilt and exhausted trumps)
 * applies alike at every size, at the row's thresholds. */
typedef struct g304_variant {
	const char *name;      /* the game's record name: "304", "304six", "304eight", "504" */
	const g304_pack *pack;
	uint8_t seats;         /* in two teams sitting alternately (team = seat & 1) */
	uint8_t first;         /* cards each in the first batch, before the first bidding */
	uint8_t hand;          /* cards each in all: the second batch deals the rest after
	                        * the trump card is laid; also the number of tricks */
	uint8_t bid2;          /* a second bidding round once the rest is dealt (the
	                        * eight-card round; six players' six-card one) */
	uint16_t open_min;     /* the first to speak must open the bidding with at least
	                        * this (no pass, no asking, no redeal); 0: no such duty */
	/* The bid thresholds (304's: 160, 200, 250, 300 and 15; docs/GAMES.md S21
	 * scales them to 504's and 904's packs). */
	uint16_t bid_min;      /* the lowest bid */
	uint16_t bid_limit;    /* under it: no second turn, no bid over a partner; fives from it;
	                        * the token table's second band starts here */
	uint16_t bid_second;   /* the second round's lowest bid; the 250 rule (closed for the
	                        * first trick only) and the token table's third band start here */
	uint16_t bid_max;      /* the highest numeric bid */
	uint8_t reject_below;  /* a first batch worth less than this may be thrown in */
	const char *(*phase_name)(int phase); /* the phases' names ("bid8", "bid6", "bid5") */
} g304_variant;
extern const g304_variant g304_variants[G304_SIZE_COUNT];

/* Table options (RULES.md). Zero is the default for every field. */
enum g304_bidding { G304_BIDDING_PAGAT, G304_BIDDING_SINGLE };
enum g304_scoring { G304_SCORING_STANDARD, G304_SCORING_BANK };
enum g304_caps { G304_CAPS_STRICT, G304_CAPS_LENIENT, G304_CAPS_OFF };
typedef struct g304_rules {
	uint8_t bidding;        /* enum g304_bidding */
	uint8_t fives;          /* bids of 200 and over may be multiples of 5 */
	uint8_t scoring;        /* enum g304_scoring */
	uint8_t caps;           /* enum g304_caps */
	uint8_t external_caps;  /* the trumper's opponents may call caps */
	uint8_t size;           /* enum g304_size; the game's record name says it */
} g304_rules;
static inline const g304_variant *g304_variant_of(const g304_rules *r)
{
	return &g304_variants[r->size < G304_SIZE_COUNT ? r->size : 0];
}

#define G304_PHASE_LIST(X) \
	X(DEAL, "deal")     /* waiting for the next deck */ \
	X(BID4, "bid4")     /* four-card bidding */ \
	X(TRUMP4, "trump4") /* the four-card winner picks the trump card */ \
	X(BID8, "bid8")     /* eight-card bidding, once round */ \
	X(TRUMP8, "trump8") /* the eight-card winner picks the trump card */ \
	X(PLAY, "play")     /* the eight tricks */ \
	X(OVER, "over")     /* the match has ended */
#define G304_PHASE_(n, s) G304_PHASE_##n,
enum g304_phase { G304_PHASE_LIST(G304_PHASE_) G304_PHASE_COUNT };
const char *g304_phase_name(int phase);     /* four players' words */
const char *g304six_phase_name(int phase);  /* six players': "bid6", "trump6" */
const char *g304five_phase_name(int phase); /* 904's: "bid5", "trump5" */

#define G304_ACT_LIST(X) \
	X(REDEAL, "redeal") X(BID, "bid") X(PASS, "pass") X(PARTNER, "partner") \
	X(TRUMP, "trump") X(OPEN, "open") X(PLAY, "play") X(CAPS, "caps") X(SPOILT, "spoilt")
#define G304_ACT_(n, s) G304_ACT_##n,
enum g304_act { G304_ACT_LIST(G304_ACT_) G304_ACT_COUNT };
const char *g304_act_name(int act);
/* The action type with this record name, or -1. */
int g304_act_parse(const char *name);

typedef struct g304_action {
	uint8_t type;     /* enum g304_act */
	uint8_t seat;     /* who acts */
	uint16_t value;   /* BID: the bid, or G304_BID_PCC */
	card card;        /* TRUMP and PLAY */
	uint8_t norder;   /* CAPS: how many cards in order */
	card order[G304_TRICKS];
} g304_action;

/* Why an action was refused. Parameters a and b of g304_result say more
 * where the comment names them. The host turns these into words. */
#define G304_ERR_LIST(X) \
	X(OK, "ok") \
	X(BAD_SEAT, "bad_seat")                 /* seat out of range */ \
	X(BAD_ACTION, "bad_action")             /* unknown action type */ \
	X(MATCH_OVER, "match_over") \
	X(NO_DEAL, "no_deal")                   /* between deals: nothing to act on */ \
	X(NOT_YOUR_TURN, "not_your_turn")       /* a: seat to move */ \
	X(WRONG_PHASE, "wrong_phase")           /* a: phase now */ \
	X(REJECT_NOT_FIRST, "reject_not_first") /* a: the seat that may reject */ \
	X(REJECT_TOO_LATE, "reject_too_late") \
	X(REJECT_POINTS, "reject_points")       /* a: points of the four cards */ \
	X(BID_NOT_MULTIPLE, "bid_not_multiple") /* a: the bid */ \
	X(BID_TOO_LOW, "bid_too_low")           /* a: lowest bid the rules allow here */ \
	X(BID_NOT_HIGHER, "bid_not_higher")     /* a: highest bid so far */ \
	X(BID_TOO_HIGH, "bid_too_high")         /* a: G304_MAX_BID */ \
	X(BID_SECOND_TURN, "bid_second_turn")   /* under 200 on a second turn */ \
	X(BID_OVER_PARTNER, "bid_over_partner") /* under 200 over partner's highest bid */ \
	X(MUST_OPEN, "must_open")               /* the first speaker must bid; a: the lowest opening */ \
	X(SINGLE_ONCE, "single_once")           /* single style: one bid only */ \
	X(SINGLE_PARTNER, "single_partner")     /* single style: not over partner */ \
	X(PCC_FOUR, "pcc_four")                 /* pcc only with eight cards */ \
	X(BID8_PARTNER, "bid8_partner")         /* partner holds the eight-card high bid */ \
	X(ASK_EIGHT, "ask_eight")               /* no asking partner with eight cards */ \
	X(ASK_ANSWERING, "ask_answering")       /* you were asked: bid or pass */ \
	X(ASK_PARTNER_HIGH, "ask_partner_high") /* partner holds the highest bid */ \
	X(NOT_TRUMPER, "not_trumper")           /* a: the trumper */ \
	X(NOT_IN_HAND, "not_in_hand")           /* a: card */ \
	X(OPEN_TOO_LATE, "open_too_late") \
	X(ALREADY_OPEN, "already_open") \
	X(FOLLOW_SUIT, "follow_suit")           /* a: led suit */ \
	X(TRUMP_CARD_RESERVED, "trump_card_reserved") \
	X(CUT_WITH_TRUMP_CARD, "cut_with_trump_card") \
	X(NO_TRUMP_LEAD_FIRST, "no_trump_lead_first") \
	X(EXHAUSTED_TRUMPS, "exhausted_trumps") \
	X(SITTING_OUT, "sitting_out") \
	X(SPOILT_NOT_IN_PLAY, "spoilt_not_in_play") /* spoilt is called during play only */ \
	X(CAPS_OFF, "caps_off")                 /* caps is off at this table */ \
	X(CAPS_PCC, "caps_pcc")                 /* no caps call in pcc */ \
	X(CAPS_NOT_YOURS, "caps_not_yours")     /* opponents may call only with external_caps */ \
	X(CAPS_CALLED, "caps_called")           /* a: who called already */ \
	X(CAPS_ORDER, "caps_order")             /* the order must list exactly your cards; a: how many */ \
	X(CAPS_NEXT, "caps_next")               /* a: the card your caps order plays next */
#define G304_ERR_(n, s) G304_ERR_##n,
enum g304_err { G304_ERR_LIST(G304_ERR_) G304_ERR_COUNT };
/* A stable short name for an error code ("follow_suit"), for logs and tests. */
const char *g304_err_name(int err);

/* What an accepted action set off, in order. Events name a hidden card only
 * where every seat may see it (see the comment of each); the host renders
 * them and asks g304_view for anything private. */
#define G304_EV_LIST(X) \
	X(REJECTED, "rejected")         /* seat rejected the hand: same dealer redeals */ \
	X(BID, "bid")                   /* seat, value; flag 1 = answering partner's ask, flag 8 = eight-card round */ \
	X(PASS, "pass")                 /* seat; flags as BID */ \
	X(ASK, "ask")                   /* seat asks partner */ \
	X(BIDDING_WON, "bidding_won")   /* seat, value: four-card winner */ \
	X(PASSED_OUT, "passed_out")     /* all passed: next dealer deals */ \
	X(TRUMP_SET, "trump_set")       /* seat laid a trump card face down (card not named) */ \
	X(DEALT_REST, "dealt_rest")     /* the last four cards each are dealt */ \
	X(TRUMP_BACK, "trump_back")     /* seat took the old trump card back (not named) */ \
	X(BID8_WON, "bid8_won")         /* seat, value: new trumper, new trump card to come */ \
	X(PLAY_STARTS, "play_starts")   /* seat leads */ \
	X(OPENED, "opened")             /* seat opened the game: card is the trump card */ \
	X(PLAYED, "played")             /* seat, card (CARD_NONE if face down), flag 1 = face down,
	                                 * flag 2 = it is the trump card from the table (all see that) */ \
	X(NO_TRUMP, "no_trump")         /* inspection: no face-down card was a trump */ \
	X(REVEALED, "revealed")         /* trump revealed: card is the trump card; flag 1 = back to hand */ \
	X(TRICK, "trick")               /* seat won trick value (0-7) */ \
	X(SPOILT, "spoilt")             /* seat called spoilt; flag 1 = right */ \
	X(CAPS, "caps")                 /* seat called caps; value = its judgement (enum
	                                 * g304_caps_outcome), shown at the deal's end;
	                                 * the order is public in every view */ \
	X(CAPS_BROKEN, "caps_broken")   /* seat cannot play its caps order (so it was never
	                                 * certain: judged early); it plays on freely */ \
	X(DEAL_END, "deal_end")         /* see g304_deal_end */ \
	X(MATCH_END, "match_end")       /* seat = winning team */
#define G304_EV_(n, s) G304_EV_##n,
enum g304_ev { G304_EV_LIST(G304_EV_) G304_EV_COUNT };
const char *g304_ev_name(int ev);

/* err: enum g304_err; a, b: see G304_ERR_LIST; events: enum g304_ev. */
typedef play_event g304_event;
typedef play_result g304_result;
#define G304_EVENTS_MAX PLAY_EVENTS_MAX

#define G304_OUTCOME_LIST(X) \
	X(NONE, "none") X(SCORED, "scored") X(PASSED_OUT, "passed_out") \
	X(REDEAL, "redeal") X(SPOILT, "spoilt")
#define G304_OUTCOME_(n, s) G304_OUTCOME_##n,
enum g304_outcome { G304_OUTCOME_LIST(G304_OUTCOME_) };
const char *g304_outcome_name(int outcome);

#define G304_CAPS_OUTCOME_LIST(X) \
	X(NONE, "none") X(CORRECT, "correct") X(LATE, "late") X(EARLY, "early") X(FAILED, "failed")
#define G304_CAPSO_(n, s) G304_CAPSO_##n,
enum g304_caps_outcome { G304_CAPS_OUTCOME_LIST(G304_CAPSO_) };
const char *g304_caps_outcome_name(int outcome);

/* How the last deal ended; public once the deal is over. */
typedef struct g304_deal_end {
	uint8_t outcome;        /* enum g304_outcome */
	uint8_t trumper;        /* G304_NO_SEAT if none */
	uint16_t bid;           /* 0 if none; G304_BID_PCC */
	int16_t points[2];      /* card points of each team in a played-out deal (in
	                         * pcc the sitting-out partner's cards count for the
	                         * trumper's team); 0 for other outcomes */
	int8_t made;            /* 1, 0, or -1 for "no bid was played" */
	uint8_t spoilt_seat;    /* who called spoilt, or G304_NO_SEAT */
	uint8_t spoilt_right;
	uint8_t caps;           /* enum g304_caps_outcome */
	uint8_t caps_seat;      /* who called caps, or G304_NO_SEAT */
	int8_t paid[2];         /* tokens each team paid in this deal */
	int8_t tokens[2];       /* match totals after the deal */
} g304_deal_end;

/* One turn of the bidding log (public). */
typedef struct g304_bidlog {
	uint8_t seat;     /* who spoke */
	uint8_t asker;    /* the seat that asked this one to speak, or G304_NO_SEAT */
	uint16_t round : 4;   /* 4 or 8 */
	uint16_t value : 12;  /* the bid (G304_BID_PCC fits), 0 for a pass */
} g304_bidlog;               /* four bytes: 904's log is long, and views copy it */
_Static_assert(sizeof(g304_bidlog) == 4, "a bidding log entry is four bytes");

typedef struct g304_trick {
	uint8_t leader, n, winner; /* winner is G304_NO_SEAT until the trick is done */
	uint8_t seat[G304_SEATS_MAX];
	card card[G304_SEATS_MAX];
	uint8_t down;              /* bit i: card i was played face down */
	uint8_t shown;             /* bit i: face-down card i was turned up for all */
	uint8_t tcard;             /* bit i: card i is the trump card, taken from the table
	                            * (public: everyone sees where the trumper took it from) */
} g304_trick;

typedef struct g304 {
	g304_rules rules;
	uint8_t phase;
	uint8_t dealer;
	int8_t tokens[2];
	int16_t bank;             /* tokens paid into the bank (bank scoring) */
	int8_t winner;            /* winning team once the match is over, else -1 */
	uint16_t deal_no;         /* deals started, redeals included */

	uint8_t seats, ntricks, ranks, ncards; /* the variant's (g304_init copies them) */
	g304_set suits[SUIT_COUNT];       /* each suit's cards in the pack */
	card deck[G304_CARDS_MAX];
	g304_set first4[G304_SEATS_MAX];  /* each seat's first batch of cards */
	g304_set dealt[G304_SEATS_MAX];   /* every card dealt to each seat this deal */
	g304_set hand[G304_SEATS_MAX];    /* cards in hand; the trump card lying on the
	                                   * table is not in its owner's hand */
	uint8_t turn;             /* seat to act, or G304_NO_SEAT */
	uint8_t asker;            /* four-card round: seat whose partner is answering */
	uint8_t spoke;            /* bit s: seat s has had a four-card turn */
	uint8_t passes;           /* passing turns in a row */
	uint8_t turns8;           /* turns taken in the second (eight- or six-card) round */
	uint8_t any200;           /* some bid of 200 or more was made (single style) */
	uint16_t bid;             /* highest bid so far (0: none) */
	uint8_t bidder;
	uint16_t bid8;            /* highest eight-card bid (0: none) */
	uint8_t bidder8;
	uint16_t nbidlog;
	g304_bidlog bidlog[G304_BIDLOG_MAX];

	uint8_t trumper;
	uint8_t trump_suit;       /* meaningful once a trump card is chosen */
	card trump_card;
	uint8_t trump_down;       /* the trump card lies face down on the table */
	uint8_t trump_open;       /* the trump suit is known to all */
	uint8_t trump_public;     /* the trump card has been shown to all */
	uint8_t pcc;
	uint8_t exhausted;        /* the exhausted-trumps rule binds the trumper */
	uint8_t sitting_out;      /* bit s: seat s sits out (pcc: the trumper's partners) */

	uint8_t trick_no;         /* the trick in play, 0..ntricks-1 */
	g304_trick tricks[G304_TRICKS_MAX];
	g304_set won[2];          /* cards in each team's tricks */
	uint8_t tricks_won[2];

	uint8_t caps_seat;        /* who called caps this deal, or G304_NO_SEAT */
	uint8_t caps_norder, caps_k;       /* the order and the next card in it */
	card caps_order[G304_TRICKS_MAX];
	uint8_t caps_judged;      /* enum g304_caps_outcome of the call */
	uint8_t caps_bonus;       /* the call came before the seventh trick */
	int8_t caps_since[2];     /* per team: the trick in which caps first became
	                           * certain for one of its players (-1: before the
	                           * first card), or G304_CAPS_NEVER */
	/* Deferred settlement (docs/ENGINE.md, Caps): the tracking's questions
	 * its per-card budget left undecided, asked again with the judging
	 * budget only when a verdict depends on them. */
	uint32_t caps_pend[2];    /* per team: bit s, the question after s cards of
	                           * play (bit 0: at the start of play, before any opening) */
	uint8_t caps_pend_open;   /* bit team: the question right after the trumper opened */
	uint8_t caps_opened;      /* the trumper opened the game before the first card */
	uint8_t caps_settled;     /* questions asked again this deal (stops at 255) */
	uint32_t caps_budget;     /* tests and benchmarks only, set after g304_init
	                           * (which makes it 0): positions for all the caps
	                           * tracking's questions after one card; 0 means
	                           * G304_CAPS_TRACK_BUDGET, G304_CAPS_UNLIMITED no limit */
	g304_deal_end last;       /* the last deal's end (outcome NONE before any) */
} g304;
#define G304_CAPS_NEVER (-2)
#define G304_CAPS_UNLIMITED 0xffffffffu

/* Settles now every question the caps tracking left undecided before the
 * trick it recorded for each team (the engine does this by itself only
 * where a verdict depends on it), the questions of one moment sharing the
 * judging budget, and corrects caps_since. Only during play; does nothing
 * otherwise. For tests and tools. */
void g304_caps_settle(g304 *g);

/* The deal as it stood after `cards` (0..31) cards of play, or, with
 * `opened`, right after the trumper opened the game (cards must be 0):
 * rebuilt in *out by replaying the cards from the start of play. Returns 1,
 * or 0 when there is no such moment (not in play, pcc, fewer cards played,
 * no opening). Used by the settlement; public so tests can compare it. */
int g304_play_position(const g304 *g, int cards, int opened, g304 *out);

void g304_rules_default(g304_rules *r);

/* Starts a match: 11 tokens a team, first_dealer (0..3) deals first. */
void g304_init(g304 *g, const g304_rules *rules, int first_dealer);

/* Deals the next deal from deck (the pack's g->ncards distinct cards, top
 * first): the first batch (g304_variant.first each) to dealer+1 and so on;
 * the rest follows the trump choice. Returns G304_ERR_OK,
 * G304_ERR_MATCH_OVER or G304_ERR_WRONG_PHASE (a deal is in progress). The
 * caller checks the deck holds the pack's distinct cards. */
int g304_deal(g304 *g, const card *deck);

/* Applies an action. On refusal nothing changes and the code is returned
 * (also in res->err with its parameters). res may be NULL. */
int g304_apply(g304 *g, const g304_action *a, g304_result *res);

/* What a seat may do now (g304_legal_of). bid_min is the lowest bid allowed when BID is in
 * acts (a value v is allowed iff v >= bid_min, v <= G304_MAX_BID and it is a
 * multiple of 10, or of 5 from 200 with `fives`; 0 means no number is
 * left, only pcc), pcc_ok whether pcc is.
 * cards: for TRUMP the candidates, for PLAY the legal cards. */
typedef struct g304_legal {
	uint16_t acts;    /* bit (1 << enum g304_act) */
	uint16_t bid_min;
	uint8_t pcc_ok;
	g304_set cards;
} g304_legal;
void g304_legal_of(const g304 *g, int seat, g304_legal *out);

/* True when value is a well-formed numeric bid step (multiple of 10, or of 5
 * from 200 with fives). */
int g304_bid_step_ok(const g304_rules *r, int value);

/* Tokens a team wins for making a bid, and pays for failing it, at the
 * thresholds of a table size (w). */
int g304_payoff(const g304_variant *w, int bid);
int g304_charge(const g304_variant *w, int bid);

/* The first seat of a sitting-out mask (four players: the one pcc partner),
 * or G304_NO_SEAT. */
static inline int g304_first_out(uint8_t mask) { return mask ? __builtin_ctz(mask) : G304_NO_SEAT; }

/* The seat that plays after seat in this deal (skipping pcc partners). */
int g304_next_seat(const g304 *g, int seat);

/* The follow rule of every size, over masks: hand; led, the led suit's
 * cards; cut, the trump card's bit when the seat is the trumper and it still
 * lies face down on the table (which may cut), else 0; trumps, the trump
 * suit's cards. */
static inline g304_set g304_follow(g304_set hand, g304_set led, g304_set cut, g304_set trumps, int led_is_trump)
{
	g304_set follow = hand & led;
	if (follow)
		return follow;
	if (!cut)
		return hand;
	if (!hand)
		return cut;
	if (led_is_trump)
		return hand; /* no trump in hand: throw any (non-trump) face down */
	/* Cut with the trump card, or throw a non-trump from hand. */
	return (hand & ~trumps) | cut;
}

/* The cards a seat may play to a trick led in suit led (the rules' play
 * and the search's compact position share this): hand is its hand;
 * cut_card is the trump card when the seat is the trumper and it still lies
 * face down on the table (which may cut), else CARD_NONE. */
static inline cardset g304_follow_cards(cardset hand, int led, card cut_card, int trump_suit)
{
	return (cardset)g304_follow(hand, suit_mask(led), cut_card == CARD_NONE ? 0 : card_bit(cut_card),
				    suit_mask(trump_suit), led == trump_suit);
}

/* The view of one seat: everything it may know, nothing more. Cards the
 * seat may not know are CARD_NONE; sets hold only known cards. */
typedef struct g304_view {
	uint8_t seat, phase, dealer, turn;
	int8_t tokens[2];
	int16_t bank;
	int8_t winner;
	uint16_t deal_no;
	uint8_t size;             /* enum g304_size */
	g304_set hand;            /* own cards in hand */
	uint8_t trumper;          /* the highest bidder once bidding ends, else G304_NO_SEAT */
	uint16_t bid;             /* highest bid so far */
	uint8_t bidder;
	card trump_card;          /* only for the trumper, or once shown to all */
	int8_t trump_suit;        /* -1 unless this seat knows it */
	uint8_t trump_down;       /* a trump card lies face down on the table */
	uint8_t trump_open;
	uint8_t pcc;
	uint8_t sitting_out;      /* bit s: seat s sits out */
	uint8_t asker;            /* four-card round: seat whose partner is answering */
	uint16_t nbidlog;
	g304_bidlog bidlog[G304_BIDLOG_MAX];
	uint8_t ntricks;          /* tricks started, the one in progress included */
	g304_trick tricks[G304_TRICKS_MAX]; /* hidden cards as CARD_NONE */
	uint8_t tricks_won[2];
	uint8_t exhausted;        /* the trumper's own view only: bound to lead trumps */
	uint8_t caps_seat;        /* who called caps, or G304_NO_SEAT */
	uint8_t caps_norder, caps_k;
	card caps_order[G304_TRICKS_MAX];  /* public once called */
	g304_deal_end last;       /* the last finished deal */
} g304_view;
void g304_view_of(const g304 *g, int seat, g304_view *v);

/* Total tokens in the match: conserved under standard scoring. */
/* May this seat call caps at all in this deal (its side is the trumper's,
 * or the table allows external caps)? The tracking asks only these seats. */
static inline int g304_caps_may_call(const g304 *g, int seat)
{
	return g304_team(seat) == g304_team(g->trumper) || g->rules.external_caps;
}
static inline int g304_tokens_total(const g304 *g) { return g->tokens[0] + g->tokens[1] + g->bank; }

#endif
