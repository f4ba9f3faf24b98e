/* fair.c: the shuffle and the deck commitments (see fair.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <openssl/evp.h>
#include "fair.h"

int fair_shuffle(card deck[CARD_COUNT])
{
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		/* Rejection sampling: values past the last whole multiple of
		 * the bound are drawn again, so every j is equally likely. */
		uint32_t bound = (uint32_t)i + 1, x, limit = UINT32_MAX - UINT32_MAX % bound;
		do {
			if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x)
				return -1;
		} while (x >= limit);
		uint32_t j = x % bound;
		card tmp = deck[i];
		deck[i] = deck[j];
		deck[j] = tmp;
	}
	return 0;
}

int fair_salt(char out[FAIR_SALT_HEX])
{
	unsigned char b[16];
	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
		return -1;
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

int fair_commit_codes(const char *const *codes, int n, const char *salt, char out[FAIR_COMMIT_HEX])
{
	char text[16 + 64 * 6 + 64];
	size_t len = (size_t)snprintf(text, sizeof text, "cardbot-deal/1:");
	for (int i = 0; i < n && len < sizeof text; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? "," : "", codes[i]);
	if (len < sizeof text)
		len += (size_t)snprintf(text + len, sizeof text - len, ":%.32s", salt);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	if (n > 64 || len >= sizeof text || !EVP_Digest(text, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
		return -1;
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int fair_commit(const card deck[CARD_COUNT], const char *salt, char out[FAIR_COMMIT_HEX])
{
	char codes[CARD_COUNT][3];
	const char *p[CARD_COUNT];
	for (int i = 0; i < CARD_COUNT; i++) {
		card_code(deck[i], codes[i]);
		p[i] = codes[i];
	}
	return fair_commit_codes(p, CARD_COUNT, salt, out);
}

void fair_cut(card deck[CARD_COUNT], int n)
{
	if (n < 1 || n >= CARD_COUNT)
		return;
	card top[CARD_COUNT];
	memcpy(top, deck, sizeof top);
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = top[(i + n) % CARD_COUNT];
	memset(top, 0, sizeof top);
}
