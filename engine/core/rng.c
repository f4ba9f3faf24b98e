/* rng.c: xoshiro256** seeded through splitmix64. */
#include "rng.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t rng_below(rng *r, uint32_t n)
{
	/* Lemire's multiply-and-reject: unbiased for every n. */
	uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t threshold = (uint32_t)-n % n;
		while (low < threshold) {
			m = (uint64_t)(uint32_t)rng_next(r) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

void rng_shuffle_in(rng *r, uint8_t *c, int n)
{
	for (int i = n - 1; i > 0; i--) {
		uint32_t j = rng_below(r, (uint32_t)i + 1);
		uint8_t t = c[i];
		c[i] = c[j];
		c[j] = t;
	}
}

void rng_shuffle(rng *r, uint8_t *deck, int n)
{
	for (int i = 0; i < n; i++)
		deck[i] = (uint8_t)i;
	rng_shuffle_in(r, deck, n);
}

int rng_shuffle_set(rng *r, uint64_t set, uint8_t *out)
{
	int n = 0;
	for (; set; set &= set - 1)
		out[n++] = (uint8_t)__builtin_ctzll(set);
	rng_shuffle_in(r, out, n);
	return n;
}

void rng_shuffle_deck(rng *r, card deck[CARD_COUNT]) { rng_shuffle(r, deck, CARD_COUNT); }

uint8_t rng_pick(rng *r, uint64_t s)
{
	uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(s));
	while (k--)
		s &= s - 1;
	return (uint8_t)__builtin_ctzll(s);
}
