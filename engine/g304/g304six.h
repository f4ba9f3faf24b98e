/* g304six.h: six-player 304 (seed 001, Suren Nanayakkara's report; the
 * decisions in docs/GAMES.md).
 *
 * A 36-card pack (the 32 of 304 and a six below the seven of each suit,
 * worth nothing), seats 0..5 in two teams of three sitting alternately
 * (team = seat & 1), four cards each and the four-card bidding, the trump
 * card, two more cards each and a six-card bidding once round with the
 * eight-card round's rules, then six tricks of six cards. Everything else
 * is four-player 304's: the same phases, actions, refusals, events,
 * outcomes, bids, token table and table options (engine/g304/g304.h), so a
 * host that reads 304's numbers reads these. Its own are the 36-card
 * representation (64-bit card sets), six seats and six tricks.
 *
 * Like g304, a game is a plain value (copy it with =), no I/O, no globals;
 * g6_view gives exactly what one seat may know.
 */
#ifndef CARDBOT_G304SIX_H
#define CARDBOT_G304SIX_H

#include <stdint.h>
#include "g304.h"
#include "rng.h"

#define G6_SEATS 6
#define G6_TRICKS 6
#define G6_HAND 6
#define G6_FIRST 4            /* cards dealt before the first bidding */
#define G6_CARDS 36
#define G6_RANKS 9
#define G6_BIDLOG_MAX 192   /* up to 26 rising bids, five passes or an ask between, and the second round */

/* A card is suit * 9 + rank, ranks in ascending strength 6 7 8 Q K 10 A 9 J
 * (rank 0 is the six; rank r > 0 is 304's rank r - 1). CARD_NONE: unknown. */
typedef uint64_t g6_set;
static inline int g6_suit(card c) { return c / G6_RANKS; }
static inline int g6_rank(card c) { return c % G6_RANKS; }
static inline card g6_make(int suit, int rank) { return (card)(suit * G6_RANKS + rank); }
static inline g6_set g6_bit(card c) { return (g6_set)1 << c; }
static inline g6_set g6_suit_mask(int suit) { return (g6_set)0x1ff << (suit * G6_RANKS); }
static inline int g6_count(g6_set s) { return __builtin_popcountll(s); }
static inline card g6_first(g6_set s) { return (card)__builtin_ctzll(s); }
/* The strongest card of a non-empty set within one suit. */
static inline card g6_top(g6_set s) { return (card)(63 - __builtin_clzll(s)); }
/* 304's point values; a six is worth nothing. */
int g6_points(card c);
int g6_set_points(g6_set s);
/* "6S", "JH", "TD" (as 304's codes); out has room for 3. */
void g6_code(card c, char out[8]);
/* 304's card codes and the sixes ("6S", "10H", any case); CARD_NONE else. */
card g6_parse(const char *s);

static inline int g6_team(int seat) { return seat & 1; }
static inline int g6_seat_after(int seat) { return seat == G6_SEATS - 1 ? 0 : seat + 1; }
/* The partner a seat asks in the four-card bidding: the next of its team
 * in turn order. */
static inline int g6_ask_partner(int seat) { return (seat + 2) % G6_SEATS; }
static inline int g6_partners(int a, int b) { return a != b && a < G6_SEATS && b < G6_SEATS && g6_team(a) == g6_team(b); }

/* Phases, actions, refusals, events and outcomes are 304's (g304.h); only
 * the words of the second round differ: "bid6", "trump6". */
const char *g6_phase_name(int phase);

typedef struct g6_action {
	uint8_t type;     /* enum g304_act */
	uint8_t seat;
	uint16_t value;   /* BID: the bid, or G304_BID_PCC */
	card card;        /* TRUMP and PLAY */
	uint8_t norder;   /* CAPS */
	card order[G6_TRICKS];
} g6_action;

typedef struct g6_trick {
	uint8_t leader, n, winner;
	uint8_t seat[G6_SEATS];
	card card[G6_SEATS];
	uint8_t down, shown, tcard; /* bit i: as in g304_trick */
} g6_trick;

typedef struct g6 {
	g304_rules rules;
	uint8_t phase, dealer;
	int8_t tokens[2];
	int16_t bank;
	int8_t winner;
	uint16_t deal_no;

	card deck[G6_CARDS];
	g6_set first4[G6_SEATS], dealt[G6_SEATS], hand[G6_SEATS];
	uint8_t turn, asker, spoke, passes, turns6, any200;
	uint16_t bid;
	uint8_t bidder;
	uint16_t bid6;
	uint8_t bidder6;
	uint8_t nbidlog;
	g304_bidlog bidlog[G6_BIDLOG_MAX];

	uint8_t trumper, trump_suit;
	card trump_card;
	uint8_t trump_down, trump_open, trump_public;
	uint8_t pcc, exhausted;
	uint8_t sitting_out;      /* bit s: seat s sits out (pcc: both partners) */

	uint8_t trick_no;
	g6_trick tricks[G6_TRICKS];
	g6_set won[2];
	uint8_t tricks_won[2];

	uint8_t caps_seat, caps_norder, caps_k, caps_judged, caps_bonus;
	card caps_order[G6_TRICKS];
	int8_t caps_since[2];     /* as g304's: G304_CAPS_NEVER, -1, or the trick */
	g304_deal_end last;
} g6;

void g6_init(g6 *g, const g304_rules *rules, int first_dealer);
/* deck: 36 distinct cards, top first: four each from dealer+1, then (after
 * the trump card is laid) two each from dealer+1. */
int g6_deal(g6 *g, const uint8_t *deck);
int g6_apply(g6 *g, const g6_action *a, play_result *res);

typedef struct g6_legal {
	uint16_t acts;
	uint16_t bid_min;
	uint8_t pcc_ok;
	g6_set cards;
} g6_legal;
void g6_legal_of(const g6 *g, int seat, g6_legal *out);
int g6_next_seat(const g6 *g, int seat);

typedef struct g6_view {
	uint8_t seat, phase, dealer, turn;
	int8_t tokens[2];
	int16_t bank;
	int8_t winner;
	uint16_t deal_no;
	g6_set hand;
	uint8_t trumper;
	uint16_t bid;
	uint8_t bidder;
	card trump_card;
	int8_t trump_suit;
	uint8_t trump_down, trump_open, pcc, sitting_out, asker;
	uint8_t nbidlog;
	g304_bidlog bidlog[G6_BIDLOG_MAX];
	uint8_t ntricks;
	g6_trick tricks[G6_TRICKS];
	uint8_t tricks_won[2];
	uint8_t exhausted;
	uint8_t caps_seat, caps_norder, caps_k;
	card caps_order[G6_TRICKS];
	g304_deal_end last;
} g6_view;
void g6_view_of(const g6 *g, int seat, g6_view *v);

/* Caps from the caller's view alone (docs/ENGINE.md, Six-player 304).
 * g6_caps_cards: the cards a claim must order (hand, and the trump card on
 * the table if it is the seat's). g6_caps_check: 1 if order[0..n-1] is
 * certain to win every remaining trick for the seat's team, whatever the
 * unseen cards and the other five do: an exact search from the view
 * (G6_CAPS_JUDGE_BUDGET positions; not refuted by then counts as certain,
 * as with four). g6_caps_find: 1 with an order proved certain (within
 * `budget` positions an order tried), else 0; it tries the orders a player
 * would (trumps from the top, the trump card last), so it may miss an
 * unusual one. */
#define G6_CAPS_JUDGE_BUDGET 2000000ul
#define G6_CAPS_TRACK_BUDGET 300ul    /* per order tried by the tracking after a card */
g6_set g6_caps_cards(const g6_view *v);
int g6_caps_check(const g6_view *v, const card *order, int n);
int g6_caps_find(const g6_view *v, unsigned long budget, card *order, int *n);

/* The timer's move (a random legal action for the seat to move, never
 * spoilt; allow_caps: now and then a random caps call) and the simple
 * rule-based player, which decides from the seat's view alone. */
int g6_random_action(const g6 *g, int seat, rng *r, g6_action *out);
int g6_random_any(const g6 *g, rng *r, int allow_odd, g6_action *out);
int g6_simple_action(const g6_view *v, const g6_legal *l, g6_action *a);

static inline int g6_tokens_total(const g6 *g) { return g->tokens[0] + g->tokens[1] + g->bank; }

#endif
