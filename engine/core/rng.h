/* rng.h: a small seeded generator (xoshiro256**) for shuffles in tests, benchmarks and search.
 * The bot's real deals use a CSPRNG instead; this one is for reproducible runs. */
#ifndef CARDBOT_RNG_H
#define CARDBOT_RNG_H

#include <stdint.h>
#include "card.h"

typedef struct rng { uint64_t s[4]; } rng;

/* Seeds the generator; every seed, zero included, gives a usable stream. */
void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* A uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t rng_below(rng *r, uint32_t n);
/* Fills deck with the numbers 0..n-1 in a uniformly random order
 * (Fisher-Yates, one rng_below a card from the last down). */
void rng_shuffle(rng *r, uint8_t *deck, int n);
/* Puts the n values of c in a uniformly random order, as rng_shuffle does. */
void rng_shuffle_in(rng *r, uint8_t *c, int n);
/* Writes the members of a set of up to 64 (a cardset, or Rook's rcardset)
 * to out in a uniformly random order (rng_shuffle_in); returns how many. */
int rng_shuffle_set(rng *r, uint64_t set, uint8_t *out);
/* Fills deck with the 32 cards in a uniformly random order. */
void rng_shuffle_deck(rng *r, card deck[CARD_COUNT]);
/* A uniformly chosen member of a non-empty set of up to 64 (a cardset, or
 * Rook's rcardset). */
uint8_t rng_pick(rng *r, uint64_t s);

#endif
