/* t304.h: Trump304 (seed 002 as settled by RULES.md and docs/GAMES.md) for 2, 3 or 4 players.
 *
 * The 32-card 304 pack of card.h. A game is a plain value (copy it with =).
 * The host feeds a deck per deal (t304_deal) and the players' actions
 * (t304_apply); refusals come back with a code. t304_view_of gives exactly
 * what one seat may know. Matches have no end: after each scored deal the
 * losing side pays the winning side the token table's amount, and the
 * totals run (below zero too) for as long as the table plays. No I/O, no
 * clock, no globals.
 */
#ifndef CARDBOT_T304_H
#define CARDBOT_T304_H

#include <stdint.h>
#include "card.h"
#include "answer.h"
#include "names.h"

#define T304_MAX_SEATS 4
#define T304_MIN_BID 150
#define T304_LIMIT_BID 200      /* where the "200 and over" exceptions start */
#define T304_MAX_NUMERIC 300    /* highest bid in tens */
#define T304_BID_ALL 304        /* the bid of every point: the trumper leads */
#define T304_PILE 12            /* two players: the draw pile */
#define T304_CENTRE 2           /* three players: the centre cards */
#define T304_MAX_TRICKS 16
#define T304_BIDLOG_MAX 32
#define T304_NO_SEAT 0xff

#define T304_PHASE_LIST(X) \
	X(DEAL, "deal")         /* waiting for the next deck */ \
	X(BID, "bid")           /* the bidding */ \
	X(TRUMP, "trump")       /* the trumper lays the trump card face down */ \
	X(EXCHANGE, "exchange") /* three players: the trumper exchanges with the centre or keeps */ \
	X(PLAY, "play")
#define T304_PHASE_(n, s) T304_PHASE_##n,
enum t304_phase { T304_PHASE_LIST(T304_PHASE_) T304_PHASE_COUNT };

#define T304_ACT_LIST(X) \
	X(BID, "bid") X(PASS, "pass") X(TRUMP, "trump") X(EXCHANGE, "exchange") \
	X(KEEP, "keep") X(REVEAL, "reveal") X(PLAY, "play")
#define T304_ACT_(n, s) T304_ACT_##n,
enum t304_act { T304_ACT_LIST(T304_ACT_) T304_ACT_COUNT };

typedef struct t304_action {
	uint8_t type;      /* enum t304_act */
	uint8_t seat;
	uint16_t value;    /* BID */
	card card;         /* TRUMP, PLAY */
	card put[2];       /* EXCHANGE: the two cards put down */
} t304_action;

#define T304_ERR_LIST(X) \
	X(OK, "ok") \
	X(BAD_SEAT, "bad_seat") \
	X(BAD_ACTION, "bad_action") \
	X(NO_DEAL, "no_deal")                   /* between deals */ \
	X(NOT_YOUR_TURN, "not_your_turn")       /* a: seat to move */ \
	X(WRONG_PHASE, "wrong_phase")           /* a: phase now */ \
	X(BID_NOT_MULTIPLE, "bid_not_multiple") /* a: the bid (tens, or 304) */ \
	X(BID_TOO_LOW, "bid_too_low")           /* a: lowest bid allowed here */ \
	X(BID_NOT_HIGHER, "bid_not_higher")     /* a: highest bid so far */ \
	X(BID_TOO_HIGH, "bid_too_high")         /* a: 304 */ \
	X(BID_ONCE, "bid_once")                 /* spoke already: only 200+ before any 200+ bid */ \
	X(BID_OVER_PARTNER, "bid_over_partner") /* a: partner; only 200+ before any 200+ bid */ \
	X(DEALER_MUST_BID, "dealer_must_bid")   /* all others passed: a: 150 */ \
	X(DEALER_FORCED, "dealer_forced")       /* the forced bid is a: 150 */ \
	X(NOT_TRUMPER, "not_trumper")           /* a: the trumper */ \
	X(NOT_IN_HAND, "not_in_hand")           /* a: card */ \
	X(EXCHANGE_CARDS, "exchange_cards")     /* two distinct cards from hand */ \
	X(FOLLOW_SUIT, "follow_suit")           /* a: led suit */ \
	X(MUST_CUT, "must_cut")                 /* revealed to cut: play a trump; a: trump suit */ \
	X(REVEAL_LEAD, "reveal_lead")           /* nothing led yet */ \
	X(REVEAL_CAN_FOLLOW, "reveal_can_follow") /* a: led suit */ \
	X(ALREADY_REVEALED, "already_revealed") \
	X(TRUMP_CARD_ASIDE, "trump_card_aside") /* the trump card is set aside until revealed */
#define T304_ERR_(n, s) T304_ERR_##n,
enum t304_err { T304_ERR_LIST(T304_ERR_) T304_ERR_COUNT };

#define T304_EV_LIST(X) \
	X(BID, "bid")                 /* seat, value */ \
	X(PASS, "pass")               /* seat */ \
	X(BIDDING_WON, "bidding_won") /* seat, value */ \
	X(TRUMP_SET, "trump_set")     /* seat laid the trump card face down (not named) */ \
	X(EXCHANGED, "exchanged")     /* seat; flag 1 = exchanged, 0 = kept */ \
	X(PLAY_STARTS, "play_starts") /* seat leads */ \
	X(REVEALED, "revealed")       /* seat asked (flag 1), the trumper revealed to cut (flag 2),
	                               * or the last trick (flag 4); card = the trump card, now in hand */ \
	X(PLAYED, "played")           /* seat, card; flag 1 = a trump that counts as a cut */ \
	X(TRICK, "trick")             /* seat won trick value (from 0) */ \
	X(DRAW, "draw")               /* two players: seat drew a card (not named); value = pile left */ \
	X(SPOILT, "spoilt")           /* seat = trumper: all trumps on the trumper's side, void */ \
	X(DEAL_END, "deal_end")       /* see t304_deal_end */
#define T304_EV_(n, s) T304_EV_##n,
enum t304_ev { T304_EV_LIST(T304_EV_) T304_EV_COUNT };

typedef play_event t304_event;
typedef play_result t304_result;
#define T304_EVENTS_MAX PLAY_EVENTS_MAX

#define T304_OUTCOME_LIST(X) X(NONE, "none") X(SCORED, "scored") X(SPOILT, "spoilt")
#define T304_OUTCOME_(n, s) T304_OUTCOME_##n,
enum t304_outcome { T304_OUTCOME_LIST(T304_OUTCOME_) };

/* Sides: two teams (seats 0+2, 1+3) with four players; each seat its own
 * side with two or three players (in three, the two opponents of a trumper
 * play together for that deal, but each settles tokens with the trumper). */
typedef struct t304_deal_end {
	uint8_t outcome;        /* enum t304_outcome */
	uint8_t trumper;
	uint16_t bid;
	int16_t points[2];      /* the trumper's side, the other side (total 304); 0 if spoilt */
	int8_t made;            /* 1, 0, -1 when spoilt */
	uint8_t nsides;
	int16_t change[T304_MAX_SEATS]; /* each side's tokens this deal: + received, - paid */
	int32_t tokens[T304_MAX_SEATS]; /* totals after the deal (below zero once a side owes) */
} t304_deal_end;

typedef struct t304_bidlog { uint8_t seat; uint16_t value; } t304_bidlog; /* value 0: pass */

typedef struct t304_trick {
	uint8_t leader, n, winner;      /* winner T304_NO_SEAT until done */
	uint8_t seat[T304_MAX_SEATS];
	card card[T304_MAX_SEATS];
	uint8_t cut;                    /* bit i: card i is a cut (a trump played after the reveal
	                                 * to a trick led in another suit) */
} t304_trick;

typedef struct t304 {
	uint8_t nseats, phase, dealer, turn;
	uint16_t deal_no;
	card deck[CARD_COUNT];
	cardset held[T304_MAX_SEATS];   /* every card a seat has held this deal (dealt, drawn, picked up) */
	cardset hand[T304_MAX_SEATS];   /* the set-aside trump card is not in hand */
	cardset centre;                 /* three players: centre cards not picked up */
	cardset putdown;                /* three players: put down in the exchange */
	uint8_t npile;                  /* two players: cards left in the pile, top at deck[32 - npile] */
	uint8_t spoke, overbid, any200, passes;
	uint16_t bid;
	uint8_t bidder;
	uint8_t nbidlog;
	t304_bidlog bidlog[T304_BIDLOG_MAX];
	uint8_t trumper, trump_suit;
	card trump_card;
	uint8_t revealed;               /* the trump suit is known to all */
	uint8_t revealed_by;            /* who asked (or the trumper), once revealed */
	uint8_t must_cut;               /* seat that revealed (or asked) this turn and must play a trump */
	uint8_t ntricks;                /* tricks in a deal: 16, 10 or 8 */
	uint8_t trick_no;
	t304_trick tricks[T304_MAX_TRICKS];
	cardset won[T304_MAX_SEATS];    /* cards in each seat's tricks */
	int32_t tokens[T304_MAX_SEATS]; /* per side */
	t304_deal_end last;
	/* Public history of this deal, kept for the views (derived: nothing
	 * else reads it). */
	cardset played[T304_MAX_SEATS]; /* cards each seat played face up */
	uint8_t voids[T304_MAX_SEATS];  /* bit s: the seat showed it has no card of suit s
	                                 * (cleared for a seat when it draws, two players) */
} t304;

NAMES_DECLARE(t304);
const char *t304_outcome_name(int outcome);

/* Starts a match of nseats (2-4) players; first_dealer deals first. Returns
 * T304_ERR_OK or T304_ERR_BAD_SEAT. */
int t304_init(t304 *g, int nseats, int first_dealer);
/* Deals from deck (32 distinct cards, top first): rounds of 4, 4, 2 each
 * with two or three players (the rest is the pile or the centre), 4 and 4
 * with four, from the seat after the dealer. T304_ERR_WRONG_PHASE mid-deal. */
int t304_deal(t304 *g, const card deck[CARD_COUNT]);
int t304_apply(t304 *g, const t304_action *a, t304_result *res);

static inline int t304_nsides(const t304 *g) { return g->nseats == 4 ? 2 : g->nseats; }
static inline int t304_side(const t304 *g, int seat) { return g->nseats == 4 ? (seat & 1) : seat; }
/* Seats a and b are on the same side in play this deal, with nseats players
 * and this trumper (T304_NO_SEAT before one is known): partners with four,
 * both opponents of the trumper with three. A view knows as much as the game. */
int t304_same_side(int nseats, int trumper, int a, int b);
/* The index in t of the card winning a trick (of at least one card) so far:
 * the highest cut, else the highest card of the suit led. */
int t304_trick_best(const t304_trick *t);
static inline int t304_partners(const t304 *g, int a, int b) { return t304_same_side(g->nseats, g->trumper, a, b); }
/* A made bid: each opposing side pays the trumper's side 5, 6 or 10. */
int t304_payoff(int bid);
/* A failed bid: the trumper's side pays each opposing side 3, 5 or 7. */
int t304_charge(int bid);

typedef struct t304_legal {
	uint16_t acts;           /* bit (1 << enum t304_act) */
	uint16_t bid_min, bid_max; /* BID: tens from bid_min, and 304, up to bid_max */
	uint8_t can_pass;
	cardset cards;           /* TRUMP candidates, EXCHANGE candidates, PLAY legal cards */
} t304_legal;
void t304_legal_of(const t304 *g, int seat, t304_legal *out);
/* True when value is a bid step: a multiple of 10 from 150 to 300, or 304. */
int t304_bid_ok(int value);

typedef struct t304_view {
	uint8_t seat, nseats, phase, dealer, turn;
	uint16_t deal_no;
	cardset hand;
	uint8_t trumper;          /* once the bidding has ended */
	uint16_t bid;
	uint8_t bidder;
	uint8_t nbidlog;
	t304_bidlog bidlog[T304_BIDLOG_MAX];
	card trump_card;          /* the trumper, or everyone once revealed */
	int8_t trump_suit;        /* -1 unless this seat knows it */
	uint8_t trump_aside;      /* a face-down trump card is set aside */
	uint8_t revealed;
	uint8_t revealed_by;      /* public: the seat that asked, or the trumper */
	uint8_t must_cut;
	uint8_t centre;           /* cards in the centre (three players) */
	uint8_t exchanged;        /* the trumper exchanged (three players, public) */
	cardset putdown;          /* the trumper's own view: the cards it put down */
	uint8_t npile;            /* two players: cards left in the draw pile */
	uint8_t trick_no, ntricks;
	t304_trick trick;         /* the trick in play (n = 0 before its lead) */
	t304_trick last_trick;    /* the last completed one (n = 0 if none) */
	uint8_t nsides;
	int32_t tokens[T304_MAX_SEATS];
	t304_deal_end last;
	/* What the seat saw of this deal (all public but held): */
	cardset held;             /* every card this seat has held (dealt, drawn, picked up) */
	cardset played[T304_MAX_SEATS]; /* cards each seat played face up, this trick included */
	cardset won[T304_MAX_SEATS];    /* cards in each seat's completed tricks */
	uint8_t voids[T304_MAX_SEATS];  /* bit s: the seat is known to hold no card of suit s now
	                                 * (it failed to follow, or to cut when it had to) */
} t304_view;
void t304_view_of(const t304 *g, int seat, t304_view *v);

#endif
