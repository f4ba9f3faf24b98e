/* fair.h: commitments to a deal's deck, published before anyone bids and opened when the deal ends.
 *
 * commitment = SHA-256 of the text "cardbot-deal/1:" + the 32 card codes of
 * the deck, top first, joined by "," + ":" + the salt (32 hex digits from
 * the kernel's CSPRNG), written as 64 lower-case hex digits. Knowing the
 * commitment tells nothing of the deck (the salt is secret until the deal
 * ends); once the salt is out, anyone can recompute it from the record.
 */
#ifndef CARDBOT_FAIR_H
#define CARDBOT_FAIR_H

#include "card.h"

#define FAIR_SALT_HEX 33    /* 16 bytes as hex, NUL included */
#define FAIR_COMMIT_HEX 65  /* SHA-256 as hex, NUL included */

/* A fresh salt; -1 when the random source fails. */
int fair_salt(char out[FAIR_SALT_HEX]);
/* The commitment to deck under salt; -1 on a crypto library failure. */
int fair_commit(const card deck[CARD_COUNT], const char *salt, char out[FAIR_COMMIT_HEX]);
/* The same for any game's deck, given as its card codes top first (Rook's
 * 57 cards, say): the commitment covers "CODE,CODE,...". */
int fair_commit_codes(const char *const *codes, int n, const char *salt, char out[FAIR_COMMIT_HEX]);
/* An unbiased Fisher-Yates shuffle driven by the kernel's CSPRNG; -1 on failure. */
int fair_shuffle(card deck[CARD_COUNT]);
/* The courtesy cut: the top n cards (1 to CARD_COUNT - 1) go to the
 * bottom, their order kept; any other n leaves the deck as it is. */
void fair_cut(card deck[CARD_COUNT], int n);

#endif
