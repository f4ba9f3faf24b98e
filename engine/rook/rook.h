/* rook.h: partnership Rook (seed 004 as settled by RULES.md and docs/GAMES.md).
 *
 * Its own 57-card pack: colours Red, Green, Yellow, Black with cards 1 to 14,
 * and the Rook. Four seats, 0+2 against 1+3. A game is a plain value; the
 * host feeds a deck per hand (rook_deal) and the players' actions
 * (rook_apply); rook_view_of gives exactly what one seat may know.
 */
#ifndef CARDBOT_ROOK_H
#define CARDBOT_ROOK_H

#include <stdint.h>
#include "rng.h"
#include "answer.h"
#include "names.h"

/* A Rook card: colour * 14 + (number - 1) for 0..55; ROOK_BIRD is the Rook. */
typedef uint8_t rcard;
typedef uint64_t rcardset;
#define ROOK_CARDS 57
#define ROOK_BIRD ((rcard)56)
#define ROOK_NONE ((rcard)0xff)
#define ROOK_COLOURS 4
#define ROOK_SEATS 4
#define ROOK_TRICKS 14
#define ROOK_MIN_BID 70
#define ROOK_MAX_BID 200
#define ROOK_GAME 500
#define ROOK_CARDS_BONUS 20
#define ROOK_BIDLOG_MAX 64
#define ROOK_NO_SEAT 0xff

/* Colours in code order: R G Y B. */
enum rook_colour { ROOK_RED, ROOK_GREEN, ROOK_YELLOW, ROOK_BLACK };

static inline rcard rook_make(int colour, int number) { return (rcard)(colour * 14 + number - 1); }
/* Colour of a card; the Rook has none (-1): it belongs to the trump suit. */
static inline int rook_colour(rcard c) { return c < ROOK_BIRD ? c / 14 : -1; }
static inline int rook_number(rcard c) { return c < ROOK_BIRD ? c % 14 + 1 : 0; }
static inline rcardset rook_bit(rcard c) { return (rcardset)1 << c; }
static inline rcardset rook_colour_mask(int colour) { return (rcardset)0x3fff << (colour * 14); }
static inline int rook_count(rcardset s) { return __builtin_popcountll(s); }
static inline rcard rook_first(rcardset s) { return (rcard)__builtin_ctzll(s); }
/* Counters: 5 is 5, 10 and 14 are 10, 1 is 15, the Rook 20; others none
 * (bit masks of each kind over the four colours: the solver counts them
 * at every position). */
#define ROOK_ONES ((rcardset)0x0000040010004001ull)
#define ROOK_FIVES (ROOK_ONES << 4)
#define ROOK_TENS ((ROOK_ONES << 9) | (ROOK_ONES << 13))
static inline int rook_set_points(rcardset s)
{
	return 15 * rook_count(s & ROOK_ONES) + 5 * rook_count(s & ROOK_FIVES) + 10 * rook_count(s & ROOK_TENS)
	       + 20 * (int)(s >> ROOK_BIRD & 1);
}
static inline int rook_points(rcard c)
{
	if (c > ROOK_BIRD)
		return 0;
	return (int)(15 * (ROOK_ONES >> c & 1) + 5 * (ROOK_FIVES >> c & 1) + 10 * (ROOK_TENS >> c & 1)) + 20 * (c == ROOK_BIRD);
}
/* Strength within its suit (the Rook within trumps): higher wins.
 * 1 is top, then 14 down to 2; the Rook is below every trump. */
static inline int rook_strength(rcard c)
{
	if (c == ROOK_BIRD)
		return 0;
	int n = rook_number(c);
	return n == 1 ? 15 : n;
}
/* Writes "14R", "5B", "ROOK" (at most 4 characters and a NUL). */
void rook_code(rcard c, char out[5]);
/* Parses a code (any case): a number 1-14 and a colour letter R G Y B, or
 * "ROOK". Returns ROOK_NONE for anything else. */
rcard rook_parse(const char *s);
char rook_colour_letter(int colour);
const char *rook_colour_name(int colour);
/* The colour of a letter (R G Y B, any case) or a name ("red"), or -1. */
int rook_colour_parse(const char *s);

#define ROOK_PHASE_LIST(X) \
	X(DEAL, "deal") X(BID, "bid") X(DISCARD, "discard") X(TRUMP, "trump") \
	X(PLAY, "play") X(OVER, "over")
#define ROOK_PHASE_(n, s) ROOK_PHASE_##n,
enum rook_phase { ROOK_PHASE_LIST(ROOK_PHASE_) ROOK_PHASE_COUNT };

#define ROOK_ACT_LIST(X) \
	X(BID, "bid") X(PASS, "pass") X(DISCARD, "discard") X(TRUMP, "trump") X(PLAY, "play")
#define ROOK_ACT_(n, s) ROOK_ACT_##n,
enum rook_act { ROOK_ACT_LIST(ROOK_ACT_) ROOK_ACT_COUNT };

typedef struct rook_action {
	uint8_t type, seat;
	uint16_t value;    /* BID: the bid; TRUMP: the colour */
	rcard card;        /* DISCARD, PLAY */
} rook_action;

#define ROOK_ERR_LIST(X) \
	X(OK, "ok") \
	X(BAD_SEAT, "bad_seat") \
	X(BAD_ACTION, "bad_action") \
	X(MATCH_OVER, "match_over") \
	X(NO_DEAL, "no_deal") \
	X(NOT_YOUR_TURN, "not_your_turn")     /* a: seat to move */ \
	X(WRONG_PHASE, "wrong_phase")         /* a: phase */ \
	X(BID_NOT_MULTIPLE, "bid_not_multiple") /* a: the bid */ \
	X(BID_TOO_LOW, "bid_too_low")         /* a: lowest bid allowed */ \
	X(BID_NOT_HIGHER, "bid_not_higher")   /* a: highest bid so far */ \
	X(BID_TOO_HIGH, "bid_too_high")       /* a: 200 */ \
	X(LAST_MUST_BID, "last_must_bid")     /* everyone else passed without a bid */ \
	X(NOT_BIDDER, "not_bidder")           /* a: the bidder */ \
	X(NOT_IN_HAND, "not_in_hand")         /* a: card */ \
	X(DISCARD_COUNTER, "discard_counter") /* a: card; counters stay in play */ \
	X(BAD_COLOUR, "bad_colour") \
	X(FOLLOW_SUIT, "follow_suit")         /* a: led colour (trump colour when the Rook leads) */
#define ROOK_ERR_(n, s) ROOK_ERR_##n,
enum rook_err { ROOK_ERR_LIST(ROOK_ERR_) ROOK_ERR_COUNT };

#define ROOK_EV_LIST(X) \
	X(BID, "bid")                 /* seat, value */ \
	X(PASS, "pass")               /* seat */ \
	X(BIDDING_WON, "bidding_won") /* seat, value: takes the nest card (not named) */ \
	X(DISCARDED, "discarded")     /* seat laid a card face down (not named) */ \
	X(TRUMP, "trump")             /* seat named colour value */ \
	X(PLAYED, "played")           /* seat, card */ \
	X(TRICK, "trick")             /* seat won trick value (from 0) */ \
	X(HAND_END, "hand_end")       /* see rook_hand_end */ \
	X(MATCH_END, "match_end")     /* seat = winning team */
#define ROOK_EV_(n, s) ROOK_EV_##n,
enum rook_ev { ROOK_EV_LIST(ROOK_EV_) ROOK_EV_COUNT };

typedef play_event rook_event;
typedef play_result rook_result;
#define ROOK_EVENTS_MAX PLAY_EVENTS_MAX

/* How the last hand ended (public once over). */
typedef struct rook_hand_end {
	uint8_t scored;          /* 0 before any hand */
	uint8_t bidder;
	uint16_t bid;
	int16_t points[2];       /* counters and the 20 for cards, each team (total 200) */
	uint8_t tricks[2];
	int8_t cards_team;       /* the team that got the 20 for cards */
	int8_t made;
	int16_t delta[2];        /* change of each team's score */
	int32_t score[2];        /* scores after the hand */
} rook_hand_end;

typedef struct rook_bidlog { uint8_t seat; uint16_t value; } rook_bidlog; /* 0: pass */

typedef struct rook_trick {
	uint8_t leader, n, winner;
	uint8_t seat[ROOK_SEATS];
	rcard card[ROOK_SEATS];
} rook_trick;

typedef struct rook {
	uint8_t phase, dealer, turn;
	int8_t winner;            /* team, once the match is over; else -1 */
	uint16_t deal_no;
	rcard deck[ROOK_CARDS];
	rcardset hand[ROOK_SEATS];
	rcard nest;               /* the centre card until the bidder takes it */
	rcard discard;            /* the bidder's face-down discard */
	uint8_t passed;           /* bit s: seat s passed (final) */
	uint16_t bid;
	uint8_t bidder;
	uint8_t nbidlog;
	rook_bidlog bidlog[ROOK_BIDLOG_MAX];
	int8_t trump;             /* colour, -1 before it is named */
	uint8_t trick_no;
	rook_trick tricks[ROOK_TRICKS];
	rcardset won[2];
	uint8_t tricks_won[2];
	int32_t score[2];
	rook_hand_end last;
} rook;

NAMES_DECLARE(rook);

void rook_init(rook *g, int first_dealer);
/* Deals deck (57 distinct cards, top first) one at a time from the seat
 * after the dealer; deck[56] is the nest. */
int rook_deal(rook *g, const rcard deck[ROOK_CARDS]);
int rook_apply(rook *g, const rook_action *a, rook_result *res);
/* Fills deck with the 57 cards in a uniformly random order. */
void rook_shuffle(rng *r, rcard deck[ROOK_CARDS]);

typedef struct rook_legal {
	uint16_t acts;
	uint16_t bid_min;        /* BID: multiples of 5 from bid_min to 200 */
	rcardset cards;          /* DISCARD and PLAY candidates */
} rook_legal;
void rook_legal_of(const rook *g, int seat, rook_legal *out);

typedef struct rook_view {
	uint8_t seat, phase, dealer, turn;
	int8_t winner;
	uint16_t deal_no;
	rcardset hand;
	uint16_t bid;
	uint8_t bidder;           /* the high bidder so far */
	uint8_t passed;
	uint8_t nbidlog;
	rook_bidlog bidlog[ROOK_BIDLOG_MAX];
	uint8_t nest;             /* 1 while the nest card lies in the centre */
	rcard discard;            /* the bidder's own view only */
	int8_t trump;
	uint8_t trick_no;
	rook_trick trick;         /* in play */
	rook_trick last_trick;    /* the trick just taken, until the next card is played
	                           * (n = 0 otherwise: taken tricks are not reviewed) */
	uint8_t tricks_won[2];
	int32_t score[2];
	rook_hand_end last;
	/* What the seat has seen of this hand and may remember (a computer
	 * player does, as a person with a good memory would; the table does
	 * not show it): the tricks taken so far (trick_no of them, in order),
	 * every card played this hand (those and the trick in play), the
	 * colours each seat has shown it lacks (bit c: it did not follow
	 * colour c; for the trump colour that means no Rook either), and for
	 * the bidder alone the card it took from the nest (else ROOK_NONE). */
	rook_trick taken[ROOK_TRICKS];
	rcardset played;
	uint8_t voids[ROOK_SEATS];
	rcard nest_card;
} rook_view;
void rook_view_of(const rook *g, int seat, rook_view *v);

#endif
