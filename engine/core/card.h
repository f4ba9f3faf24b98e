/* card.h: the 32-card 304 pack, card codes, point values and card sets as bit masks. */
#ifndef CARDBOT_CARD_H
#define CARDBOT_CARD_H

#include <stdint.h>
#include <stddef.h>

/* Suits in the order of card codes: S H D C. */
#define SUIT_LIST(X) X(SPADES, 'S', "spades") X(HEARTS, 'H', "hearts") \
	X(DIAMONDS, 'D', "diamonds") X(CLUBS, 'C', "clubs")
enum suit {
#define X(name, ch, word) SUIT_##name,
	SUIT_LIST(X)
#undef X
	SUIT_COUNT
};

/* Ranks in ascending strength within a suit: 7 8 Q K 10 A 9 J. */
enum rank { RANK_7, RANK_8, RANK_Q, RANK_K, RANK_T, RANK_A, RANK_9, RANK_J, RANK_COUNT };

/* A card is suit * 8 + rank, 0..31; CARD_NONE marks "no card" or "not known". */
typedef uint8_t card;
#define CARD_COUNT 32
#define CARD_NONE ((card)0xff)

/* A set of cards: bit c stands for card c; a suit is one byte of the mask. */
typedef uint32_t cardset;

static inline card card_make(int suit, int rank) { return (card)(suit * 8 + rank); }
static inline int card_suit(card c) { return c >> 3; }
static inline int card_rank(card c) { return c & 7; }
static inline cardset card_bit(card c) { return (cardset)1 << c; }
static inline cardset suit_mask(int suit) { return (cardset)0xffu << (suit * 8); }
static inline int cardset_count(cardset s) { return __builtin_popcount(s); }
/* The lowest card in a non-empty set. */
static inline card cardset_first(cardset s) { return (card)__builtin_ctz(s); }
/* The strongest card of a non-empty set that lies within one suit. */
static inline card cardset_top(cardset s) { return (card)(31 - __builtin_clz(s)); }
/* The cards of c's suit above it. */
static inline cardset card_above(card c) { return suit_mask(card_suit(c)) & ~((card_bit(c) << 1) - 1); }
/* The masters among mine: in each suit, its top card of mine when no card
 * of out beats it. */
static inline cardset cardset_masters(cardset mine, cardset out)
{
	cardset masters = 0;
	for (int x = 0; x < SUIT_COUNT; x++) {
		cardset m = mine & suit_mask(x);
		if (m && !(out & card_above(cardset_top(m))))
			masters |= card_bit(cardset_top(m));
	}
	return masters;
}

/* Point value of a card: J 30, 9 20, A 11, 10 10, K 3, Q 2, 8 and 7 none. */
int card_points(card c);
/* Points of every card in a set (a table lookup a suit: the solvers ask
 * this at every position). */
extern const uint8_t card_suit_points[256];
static inline int cardset_points(cardset s)
{
	return card_suit_points[s & 0xff] + card_suit_points[s >> 8 & 0xff] + card_suit_points[s >> 16 & 0xff]
	       + card_suit_points[s >> 24];
}
/* What the search players throw and feed (CARD_NONE for an empty set):
 * the cheapest card (fewest points, then a non-trump of suit tsuit before
 * a trump, then the lowest), and the dearest (most points, a non-trump
 * first, then the highest). */
card cardset_cheapest(cardset s, int tsuit);
card cardset_dearest(cardset s, int tsuit);
/* The lead from a hand with no master to lead: the cheapest card of the
 * longest suit in s (a trump counts eight shorter); a suit counts only
 * when longer than floor (-100: every held suit; -1: a suit of trumps
 * alone never does), and suit 0 when none counts. */
card cardset_cheapest_longest(cardset s, int tsuit, int floor);

/* Writes the two-character code ("JS", "TH") and a NUL into out[3]. */
void card_code(card c, char out[3]);
/* Parses a card code: rank 7 8 9 T J Q K A or 10, then suit S H D C, any case.
 * Returns CARD_NONE for anything else (including trailing characters). */
card card_parse(const char *s);
/* Lower-case English name of a suit ("hearts"). */
const char *suit_name(int suit);
/* Code letter of a suit ('H'). */
char suit_letter(int suit);

#endif
