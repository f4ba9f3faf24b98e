/* card.c: card codes and point values. */
#include "card.h"

static const uint8_t rank_points[RANK_COUNT] = { 0, 0, 2, 3, 10, 11, 20, 30 };
static const char rank_chars[RANK_COUNT] = { '7', '8', 'Q', 'K', 'T', 'A', '9', 'J' };
static const char suit_chars[SUIT_COUNT] = {
#define X(name, ch, word) ch,
	SUIT_LIST(X)
#undef X
};
static const char *const suit_words[SUIT_COUNT] = {
#define X(name, ch, word) word,
	SUIT_LIST(X)
#undef X
};

int card_points(card c) { return rank_points[card_rank(c)]; }

/* Points of the cards of one suit, by the suit's byte of a set. */
#define SUIT_PTS(x) (((x) & 4 ? 2 : 0) + ((x) & 8 ? 3 : 0) + ((x) & 16 ? 10 : 0) \
		     + ((x) & 32 ? 11 : 0) + ((x) & 64 ? 20 : 0) + ((x) & 128 ? 30 : 0))
#define SUIT_PTS4(x) SUIT_PTS(x), SUIT_PTS((x) + 1), SUIT_PTS((x) + 2), SUIT_PTS((x) + 3)
#define SUIT_PTS16(x) SUIT_PTS4(x), SUIT_PTS4((x) + 4), SUIT_PTS4((x) + 8), SUIT_PTS4((x) + 12)
#define SUIT_PTS64(x) SUIT_PTS16(x), SUIT_PTS16((x) + 16), SUIT_PTS16((x) + 32), SUIT_PTS16((x) + 48)
const uint8_t card_suit_points[256] = { SUIT_PTS64(0), SUIT_PTS64(64), SUIT_PTS64(128), SUIT_PTS64(192) };

card cardset_cheapest_longest(cardset s, int tsuit, int floor)
{
	int len = floor, best = 0;
	for (int x = 0; x < SUIT_COUNT; x++) {
		int k = cardset_count(s & suit_mask(x)) - (x == tsuit) * 8;
		if ((s & suit_mask(x)) && k > len) {
			len = k;
			best = x;
		}
	}
	return cardset_cheapest(s & suit_mask(best), tsuit);
}

card cardset_cheapest(cardset s, int tsuit)
{
	card best = CARD_NONE;
	int bestk = 1 << 30;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		int k = rank_points[card_rank(c)] * 64 + (card_suit(c) == tsuit) * 16 + card_rank(c);
		if (k < bestk) {
			bestk = k;
			best = c;
		}
	}
	return best;
}

card cardset_dearest(cardset s, int tsuit)
{
	card best = CARD_NONE;
	int bestk = -1;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		int k = rank_points[card_rank(c)] * 64 + (card_suit(c) != tsuit) * 16 + card_rank(c);
		if (k > bestk) {
			bestk = k;
			best = c;
		}
	}
	return best;
}

void card_code(card c, char out[3])
{
	if (c >= CARD_COUNT) {
		out[0] = '?';
		out[1] = '?';
	} else {
		out[0] = rank_chars[card_rank(c)];
		out[1] = suit_chars[card_suit(c)];
	}
	out[2] = '\0';
}

static int upper(int ch) { return (ch >= 'a' && ch <= 'z') ? ch - 'a' + 'A' : ch; }

card card_parse(const char *s)
{
	if (!s)
		return CARD_NONE;
	int rank = -1;
	if (s[0] == '1' && s[1] == '0') {
		rank = RANK_T;
		s += 2;
	} else {
		for (int r = 0; r < RANK_COUNT; r++)
			if (upper((unsigned char)s[0]) == rank_chars[r])
				rank = r;
		if (rank < 0)
			return CARD_NONE;
		s += 1;
	}
	int suit = -1;
	for (int i = 0; i < SUIT_COUNT; i++)
		if (upper((unsigned char)s[0]) == suit_chars[i])
			suit = i;
	if (suit < 0 || s[1] != '\0')
		return CARD_NONE;
	return card_make(suit, rank);
}

const char *suit_name(int suit)
{
	return (suit >= 0 && suit < SUIT_COUNT) ? suit_words[suit] : "no suit";
}

char suit_letter(int suit)
{
	return (suit >= 0 && suit < SUIT_COUNT) ? suit_chars[suit] : '?';
}
