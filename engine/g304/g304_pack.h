/* g304_pack.h: the pack of a 304 table size as data (issue 31): how many
 * ranks each suit holds, weakest first, and their points. A card is
 * suit * ranks + rank and a set of cards a 64-bit mask, so one piece of code
 * reads four-player 304's 32 cards (card.h's numbering) and six-player 304's
 * 36 and 40 alike. Tables are constant; no state. */
#ifndef CARDBOT_G304_PACK_H
#define CARDBOT_G304_PACK_H

#include <stdint.h>
#include "card.h"

#define G304_PACK_RANKS_MAX 10 /* 904's 7 8 Q K 10 A 9 J 3 2 */

typedef struct g304_pack {
	uint8_t ranks;                       /* in each suit */
	uint8_t points[G304_PACK_RANKS_MAX]; /* of each rank, weakest first */
	char codes[G304_PACK_RANKS_MAX + 1]; /* each rank's code letter ('T' the ten) */
} g304_pack;

extern const g304_pack g304_pack_32; /* four players: 7 8 Q K 10 A 9 J */
extern const g304_pack g304_pack_36; /* six players: the 32 and a six below each seven */
extern const g304_pack g304_pack_24; /* six players, short game: the 32 without 8s and 7s */
extern const g304_pack g304_pack_504; /* 504: the 32 and a three above each jack (50) */
extern const g304_pack g304_pack_904; /* 904: the 504 pack and a two above each three (100) */

static inline int g304_pack_suit_of(const g304_pack *p, card c) { return c / p->ranks; }
static inline int g304_pack_rank(const g304_pack *p, card c) { return c % p->ranks; }
static inline card g304_pack_card(const g304_pack *p, int suit, int rank) { return (card)(suit * p->ranks + rank); }
static inline uint64_t g304_pack_bit(card c) { return (uint64_t)1 << c; }
static inline uint64_t g304_pack_suit(const g304_pack *p, int suit)
{
	return (((uint64_t)1 << p->ranks) - 1) << (suit * p->ranks);
}
static inline int g304_pack_points(const g304_pack *p, card c) { return p->points[c % p->ranks]; }
int g304_pack_set_points(const g304_pack *p, uint64_t s);
static inline int g304_pack_cards(const g304_pack *p) { return p->ranks * SUIT_COUNT; }
/* A card's code ("JS", "TH", "6D"; card.h's codes for 32 cards); "??" for
 * a card outside the pack. out has room for 3. */
void g304_pack_code(const g304_pack *p, card c, char out[8]);
/* The card with this code in the pack: a rank letter or "10", then a suit
 * letter, any case; CARD_NONE for anything else. */
card g304_pack_parse(const g304_pack *p, const char *s);

/* The 36-, 24-, 504- and 904-card packs' codes as game_def wants them (no pack
 * argument). */
void g304_36_code(card c, char out[8]);
card g304_36_parse(const char *s);
void g304_24_code(card c, char out[8]);
card g304_24_parse(const char *s);
void g304_504_code(card c, char out[8]);
card g304_504_parse(const char *s);
void g304_904_code(card c, char out[8]);
card g304_904_parse(const char *s);

#endif
