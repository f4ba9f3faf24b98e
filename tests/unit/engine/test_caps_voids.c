/* test_caps_voids.c: the caps judges of four- and six-player 304 on the two
 * cases of issue 31, each from a view built by hand (what the caller may
 * know, and no more):
 * - the shown trump card, back in the trumper's hand, is known to be there
 *   until it is played (a partner's claim that needs it accounted for);
 * - a face-down card of the trick in play comes from a seat that has shown
 *   void in trumps, so it cannot be a trump.
 * Each claim is certain; each is also checked with the one fact the judge
 * needs taken away (the void not shown, the card not known), where it is not.
 */
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"

/* Six-player 304's numbers (g304_variants[G304_SIZE_SIX]: 36 cards, six
 * seats, six tricks), as constants for arrays. */
#define SIX_CARDS 36
#define SIX_SEATS 6
#define SIX_TRICKS 6

/* ---- building a view by hand ---- */

/* The fields both sizes' views have, set alike (a macro: the two views are
 * two types while six-player 304 has an engine of its own). */
#define VIEW_HEAD(v, seat_, dealer_, trumper_, card_, down_, public_, suit_) do { \
	memset((v), 0, sizeof *(v)); \
	(v)->seat = (uint8_t)(seat_); \
	(v)->phase = G304_PHASE_PLAY; \
	(v)->dealer = (uint8_t)(dealer_); \
	(v)->winner = -1; \
	(v)->trumper = (v)->bidder = (uint8_t)(trumper_); \
	(v)->bid = 160; \
	(v)->trump_card = (card_); \
	(v)->trump_suit = (int8_t)(suit_); \
	(v)->trump_down = (uint8_t)(down_); \
	(v)->trump_open = (uint8_t)(public_); \
	(v)->asker = G304_NO_SEAT; \
	(v)->caps_seat = G304_NO_SEAT; \
} while (0)

/* Cards as "9D AD", in a size's numbering. */
static uint64_t hand_of(const char *hand, card (*parse)(const char *))
{
	uint64_t s = 0;
	for (const char *p = hand; *p; p += p[2] ? 3 : 2) {
		char code[3] = { p[0], p[1], 0 };
		s |= (uint64_t)1 << parse(code);
	}
	return s;
}

/* One trick from its cards in playing order ("-" face down, NULL not yet
 * played): its seats, cards and face-down bits; returns how many. */
static int trick_of(const char *const *codes, int leader, int nseats, card (*parse)(const char *), uint8_t *seat,
		    card *cards, uint8_t *down)
{
	int n = 0;
	for (; n < nseats && codes[n]; n++) {
		seat[n] = (uint8_t)((leader + n) % nseats);
		cards[n] = codes[n][0] == '-' ? CARD_NONE : parse(codes[n]);
		if (codes[n][0] == '-')
			*down |= (uint8_t)(1u << n);
	}
	return n;
}

/* ---- six players ---- */

typedef struct six_trick {
	int leader;
	const char *cards[SIX_SEATS];
} six_trick;

static void six_view(g304_view *v, int seat, int dealer, int trumper, const char *trump_card, int trump_down,
		     int trump_public, const char *hand, const six_trick *tricks, int ntricks)
{
	VIEW_HEAD(v, seat, dealer, trumper, trump_card ? g304_36_parse(trump_card) : CARD_NONE, trump_down, trump_public,
		  SUIT_SPADES);
	v->size = G304_SIZE_SIX; /* the general judge reads the pack and seats from it */
	v->hand = hand_of(hand, g304_36_parse);
	v->ntricks = (uint8_t)ntricks;
	for (int i = 0; i < ntricks; i++) {
		g304_trick *t = &v->tricks[i];
		t->leader = (uint8_t)tricks[i].leader;
		t->winner = G304_NO_SEAT;
		t->n = (uint8_t)trick_of(tricks[i].cards, t->leader, SIX_SEATS, g304_36_parse, t->seat, t->card, &t->down);
		v->turn = (uint8_t)((t->leader + t->n) % SIX_SEATS);
	}
}

static void six_won(g304_view *v, const int *winners, int n)
{
	for (int i = 0; i < n; i++) {
		v->tricks[i].winner = (uint8_t)winners[i];
		v->tricks_won[g304_team(winners[i])]++;
	}
}

/* Seat 0 is the trumper (spades; JS on the table), seats 0, 2, 4 a team.
 * Trick 1: eve leads 9S, fay, ben and dev play face down: void in spades.
 * Then clubs, hearts and diamonds go to seat 0's team; in trick 5 cat
 * leads 7D and dev, eve and fay play face down; seat 0 claims with AD and
 * then JS from the table. The unseen spades (6S, QS) can only be eve's or
 * cat's (partners): dev's and fay's face-down cards are no trumps. */
static void six_void_in_play(void)
{
	static const six_trick tr[] = {
		{ 4, { "9S", "-", "AS", "-", "8S", "-" } },
		{ 4, { "7S", "-", "TS", "-", "KS", "-" } },
		{ 0, { "JD", "9D", "8D", "QD", "KD", "TD" } },
		{ 0, { "6C", "7C", "JC", "8C", "QC", "KC" } },
		{ 2, { "7D", "-", "-", "-", NULL } },
	};
	g304_view v;
	six_view(&v, 0, 3, 0, "JS", 1, 0, "AD", tr, 5);
	six_won(&v, (const int[]){ 4, 0, 0, 2 }, 4);
	card order[2] = { g304_36_parse("AD"), g304_36_parse("JS") };
	CHECK(v.turn == 0, "six, void in play: seat 0 to play (turn %d)", v.turn);
	CHECK(g304_caps_wide_check(&v, order, 2), "six: a face-down card from a seat void in trumps taken for a trump");
	card found[SIX_TRICKS];
	int n = 0;
	CHECK(g304_caps_wide_find(&v, G304_CAPS_JUDGE_BUDGET, found, &n) == 1 && n == 2,
	      "six: caps_find (the late-caps tracking's question) does not find the claim with the void in play");
	/* dev (3) followed the one spade lead: its face-down card may be a trump. */
	static const six_trick tr2[] = {
		{ 4, { "9S", "-", "AS", "-", "8S", "QS" } },
		{ 4, { "7H", "8H", "JH", "QH", "KH", "TH" } },
		{ 0, { "JD", "9D", "8D", "QD", "KD", "TD" } },
		{ 0, { "6C", "7C", "JC", "8C", "QC", "KC" } },
		{ 2, { "7D", "-", "-", "-", NULL } },
	};
	six_view(&v, 0, 3, 0, "JS", 1, 0, "AD", tr2, 5);
	six_won(&v, (const int[]){ 4, 0, 0, 2 }, 4);
	CHECK(v.turn == 0, "six, dev follows: seat 0 to play (turn %d)", v.turn);
	CHECK(!g304_caps_wide_check(&v, order, 2), "six: a claim a trump cut from dev may beat is called certain");
}

/* dev (3) trumps with AH, shown when dev cut in trick 3 and back in his
 * hand; his partner ben (1) leads the last trick and claims with AD (tests/
 * records/six_caps_known_trump_card). Every other heart has been played:
 * only dev's AH is left, known to all. */
static void six_known_trump_card(void)
{
	static const six_trick tr[] = {
		{ 5, { "9H", "TH", "6D", "JD", "8H", "7H" } },
		{ 5, { "KS", "7S", "JS", "QS", "AS", "9S" } },
		{ 1, { "7D", "TS", "QH", "8C", "9D", "TD" } },
		{ 3, { "KH", "6H", "JH", "QD", "JC", "8S" } },
		{ 5, { "QC", "TC", "AC", "6C", "KC", "7C" } },
		{ 1, { NULL } },
	};
	g304_view v;
	/* ben's view: his own AD and what all saw. */
	six_view(&v, 1, 4, 3, "AH", 0, 1, "AD", tr, 6);
	v.trump_suit = SUIT_HEARTS;
	six_won(&v, (const int[]){ 5, 1, 3, 5, 1 }, 5);
	v.turn = 1;
	card order[1] = { g304_36_parse("AD") };
	CHECK(g304_caps_wide_check(&v, order, 1), "six: the shown trump card back in the trumper's hand taken for anyone's");
	card found[SIX_TRICKS];
	int n = 0;
	CHECK(g304_caps_wide_find(&v, G304_CAPS_WIDE_TRACK_BUDGET, found, &n) == 1 && n == 1,
	      "six: caps_find (the late-caps tracking's question) misses the claim the known card makes certain");
	/* Not shown (the trump card unknown to ben): AH may be anywhere. */
	v.trump_card = CARD_NONE;
	CHECK(!g304_caps_wide_check(&v, order, 1), "six: a claim an unknown trump may beat is called certain");
}

/* ---- four players ---- */

typedef struct four_trick {
	int leader;
	const char *cards[G304_SEATS];
} four_trick;

static void four_view(g304_view *v, int seat, int dealer, int trumper, const char *trump_card, int trump_down,
		      int trump_public, int trump_suit, const char *hand, const four_trick *tricks, int ntricks,
		      const int *winners)
{
	VIEW_HEAD(v, seat, dealer, trumper, trump_card ? card_parse(trump_card) : CARD_NONE, trump_down,
		  trump_public, trump_suit);
	v->sitting_out = 0;
	v->hand = (cardset)hand_of(hand, card_parse);
	v->ntricks = (uint8_t)ntricks;
	for (int i = 0; i < ntricks; i++) {
		g304_trick *t = &v->tricks[i];
		t->leader = (uint8_t)tricks[i].leader;
		t->winner = G304_NO_SEAT;
		t->n = (uint8_t)trick_of(tricks[i].cards, t->leader, G304_SEATS, card_parse, t->seat, t->card, &t->down);
		v->turn = (uint8_t)((t->leader + t->n) % G304_SEATS);
		if (t->n == G304_SEATS) {
			t->winner = (uint8_t)winners[i];
			v->tricks_won[g304_team(winners[i])]++;
		}
	}
}

/* The same two cases with four: seat 0 trumps in spades, JS on the table.
 * Trick 1: cat leads 9S, dev and ben throw face down (void in spades);
 * in trick 7 cat leads 7D, dev throws face down, and seat 0 claims with
 * AD then JS. The one unseen spade (KS) can only be cat's. */
static void four_void_in_play(void)
{
	static const four_trick tr[] = {
		{ 2, { "9S", "-", "AS", "-" } },
		{ 2, { "7S", "-", "TS", "-" } },
		{ 0, { "JD", "9D", "8D", "QD" } },
		{ 0, { "JH", "7H", "8H", "QH" } },
		{ 0, { "9H", "KH", "TH", "AH" } },
		{ 0, { "8S", "-", "QS", "-" } },
		{ 2, { "7D", "-", NULL } },
	};
	g304_view v;
	four_view(&v, 0, 1, 0, "JS", 1, 0, SUIT_SPADES, "AD", tr, 7, (const int[]){ 2, 0, 0, 0, 0, 2 });
	CHECK(v.turn == 0, "four, void in play: seat 0 to play (turn %d)", v.turn);
	card order[2] = { card_parse("AD"), card_parse("JS") };
	CHECK(g304_caps_check(&v, order, 2, NULL) == 1,
	      "four: a face-down card from a seat void in trumps taken for a trump");
	card found[G304_TRICKS];
	int n = 0;
	CHECK(g304_caps_find(&v, 0, found, &n, NULL) == 1 && n == 2,
	      "four: caps_find (the late-caps tracking's question) does not find the claim with the void in play");
	/* dev (3) follows spades: its face-down card may be TS. */
	static const four_trick tr2[] = {
		{ 2, { "9S", "KS", "AS", "-" } },
		{ 2, { "7C", "8C", "JC", "9C" } },
		{ 0, { "JD", "9D", "8D", "QD" } },
		{ 0, { "JH", "7H", "8H", "QH" } },
		{ 0, { "9H", "KH", "TH", "AH" } },
		{ 0, { "8S", "-", "QS", "7S" } },
		{ 2, { "7D", "-", NULL } },
	};
	four_view(&v, 0, 1, 0, "JS", 1, 0, SUIT_SPADES, "AD", tr2, 7, (const int[]){ 2, 0, 0, 0, 0, 2 });
	CHECK(v.turn == 0, "four, dev follows: seat 0 to play (turn %d)", v.turn);
	CHECK(g304_caps_check(&v, order, 2, NULL) == 0, "four: a claim a trump cut from ben may beat is called certain");
}

/* The trumper (ben, 1) opened the game: AH, the trump card, was shown and
 * went back to his hand. Every other heart and diamond is out; his partner
 * dev (3) leads the last trick and claims with AD: only AH could cut, and
 * it is ben's. */
static void four_known_trump_card(void)
{
	static const four_trick tr[] = {
		{ 3, { "JH", "9H", "TH", "KH" } },
		{ 3, { "7H", "8H", "QH", "AS" } },
		{ 1, { "JS", "9S", "7S", "8S" } },
		{ 1, { "JC", "9C", "AC", "TC" } },
		{ 1, { "KC", "QC", "8C", "7C" } },
		{ 1, { "7D", "8D", "JD", "QD" } },
		{ 3, { "9D", "QS", "KD", "TD" } },
		{ 3, { NULL } },
	};
	g304_view v;
	four_view(&v, 3, 2, 1, "AH", 0, 1, SUIT_HEARTS, "AD", tr, 8, (const int[]){ 3, 1, 1, 1, 1, 3, 3 });
	CHECK(v.turn == 3, "four, known card: dev to lead (turn %d)", v.turn);
	card order[1] = { card_parse("AD") };
	CHECK(g304_caps_check(&v, order, 1, NULL) == 1,
	      "four: the shown trump card back in the trumper's hand taken for anyone's");
	card found[G304_TRICKS];
	int n = 0;
	CHECK(g304_caps_find(&v, 0, found, &n, NULL) == 1 && n == 1,
	      "four: caps_find (the late-caps tracking's question) misses the claim the known card makes certain");
	v.trump_card = CARD_NONE;
	CHECK(g304_caps_check(&v, order, 1, NULL) == 0, "four: a claim an unknown trump may beat is called certain");
}

int main(void)
{
	six_void_in_play();
	six_known_trump_card();
	four_void_in_play();
	four_known_trump_card();
	return check_report("test_caps_voids");
}
