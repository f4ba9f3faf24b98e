/* g304_caps.c: exact caps certainty by adversarial search with lazy card placement.
 *
 * The claimer's order is fixed; everything else is the adversary's: which
 * consistent placement of the unseen cards is true (chosen card by card as
 * the other seats play them), and every legal reply of the other three
 * seats, the claimer's partner included. The claim is certain when no line
 * makes the claimer's team lose a trick or leaves the claimer unable to play
 * its next card.
 *
 * Unseen cards of one suit that no other live card separates in rank form
 * a run; the adversary tries the top and the bottom of each (see unk_reps). What
 * the claimer has seen becomes constraints per suit: the suits each seat is
 * known to lack, face-down cards already played (not of the suit led, and not
 * trumps when no trump was revealed), the trump card on the table (a trump).
 * A placement can be completed exactly when Hall's condition holds for every
 * set of suits; each step of the search keeps it so.
 *
 * One rule is left out of the adversary's side on purpose: an opponent
 * trumper bound by exhausted trumps is allowed any lead. That only gives the
 * adversary more lines, so "certain" stays sound.
 *
 * Speed (docs/ENGINE.md, Caps): positions at trick boundaries are memoised
 * up to renaming ranks (memo_key); the adversary tries the moves that win
 * the trick first; the finder probes prefixes briefly, jumps back past the
 * cards a refutation did not use, and drops a prefix when even a claimer
 * free to choose each later card seeing everything is beaten (the relaxed
 * search, me_play past c->fixed). Each of these rests on a real refuting
 * line or strategy, so the answers stay exact.
 */
#include <stdlib.h>
#include <string.h>
#include "g304_caps.h"

#define ALL_SUITS 0xfu
#define ALL_CARDS 0xffffffffu

/* Results at trick boundaries, keyed by the position up to renaming ranks
 * and the part of the order still to play (so they hold across the orders
 * the finder tries); a refutation keeps how many cards of the order it
 * used. Allocated only once a search grows past CAPS_MEMO_AFTER nodes. */
#define CAPS_MEMO_BITS 18
#define CAPS_MEMO_AFTER 2000
/* An entry is one word: the bits of memo_key's h1 above the slot's, then
 * in the slot's place 12 bits of its check, the refutation's depth (at
 * most G304_TRICKS), whether refuted, and whether used (bit 0). 2 MB in
 * all, so that fewer of a search's probes miss the caches. */
typedef uint64_t memo_entry;
#define MEMO_SLOT_MASK (((uint64_t)1 << CAPS_MEMO_BITS) - 1)
static inline uint64_t memo_tag(uint64_t h1, uint32_t chk)
{
	return (h1 & ~MEMO_SLOT_MASK) | (uint64_t)(chk & 0xfffu) << 6;
}
/* memo_key's sixteen mixing steps over the face-down cards played earlier
 * (the same for every position of one trump hypothesis) from the chain's
 * value before them: remembered, as the same positions come back with
 * other orders to play. trump is the hypothesis plus one (0: empty). */
#define CAPS_SINK_BITS 10
typedef struct sink_step { uint64_t in, out; uint8_t trump; } sink_step;
/* memo_key's whole chain, by the key's words (the order's with its top bit
 * set, so that an empty entry matches nothing). */
#define CAPS_KEYS_BITS 10
typedef struct key_step { uint64_t w[5], h1; } key_step;

typedef struct ctx {
	const g304_view *v;
	int me, team, trumper, dealer, bid;
	const card *order;
	int horizon;               /* the adversary wins nothing past this order index */
	int fixed;                 /* the claimer plays order[k] while k < fixed, and
	                            * past it any card it likes (the relaxed search) */
	g304_caps_stats *stats;
	memo_entry *memo;          /* NULL until needed; freed by the caller (memo_free) */
	uint64_t *memo_set;        /* which entries of memo were written (memo is not
	                            * cleared: 2 MB, where this is 32 kB) */
	struct sink_step *sink_steps; /* memo_key's steps over sink, remembered */
	struct key_step *key_steps;   /* and its whole chain */
	int memo_failed;           /* allocation failed: search on without */
	unsigned long limit;       /* stop looking after this many nodes (0: never) */
	unsigned long budget;      /* the finder's whole budget (0: none) */
	int out_of_budget;
	unsigned long start;       /* stats->nodes when this search began */
	int gave_up;               /* the limit was reached: "no refutation" means nothing */
	int ref_depth;             /* the refutation found last: how many cards of the order it used */
	uint8_t sink[16];          /* face-down cards played earlier, by allowed suits
	                            * (the trump hypothesis being searched, build) */
	int sink_within[16];       /* sink's share of feasible's sums (sink_sum) */
	int sink_total;
} ctx;

/* A prefix of an order is only searched for cheap refutations, to prune
 * it; the decision itself is always an unbounded search of a whole order. */
#define CAPS_PREFIX_NODES 400ul    /* doubled every second card of the prefix */
#define CAPS_RELAX_NODES 400ul     /* for each trump suit, for the relaxed search */

typedef struct cs {
	uint64_t slack[2];         /* Hall's condition's slack for each set of suits S,
	                            * plus SLACK_BIAS, in byte S (feasible); first, so
	                            * that a copy of the whole writes it in one piece */
	cardset unk;               /* cards the claimer has not seen placed */
	cardset known[G304_SEATS]; /* cards known to be in another seat's hand */
	cardset hand;              /* the claimer's hand */
	card ptc;                  /* the claimer's own trump card on the table */
	uint8_t cap[G304_SEATS];   /* unseen cards in each other seat's hand */
	uint8_t voids[G304_SEATS]; /* suits a seat is known not to hold (unseen part) */
	uint8_t tslot;             /* the trump card lies on the table, unseen by the claimer */
	uint8_t trump, open, exhausted, trick_no, k, turn;
	uint8_t leader, n, down, tcard;
	uint8_t seat[G304_SEATS];
	card card[G304_SEATS];
	uint8_t pmask[G304_SEATS]; /* a face-down card in this trick not yet placed: allowed suits */
} cs;

static int refute(const ctx *c, const cs *s);

static inline int suit_bit(int suit) { return 1 << suit; }

/* Cards in each set of a suit's eight bits. */
#define POP2(x) ((x) & 1) + ((x) >> 1 & 1)
#define POP8(x) (POP2(x) + POP2((x) >> 2) + POP2((x) >> 4) + POP2((x) >> 6))
#define POP8X4(x) POP8(x), POP8((x) + 1), POP8((x) + 2), POP8((x) + 3)
#define POP8X16(x) POP8X4(x), POP8X4((x) + 4), POP8X4((x) + 8), POP8X4((x) + 12)
#define POP8X64(x) POP8X16(x), POP8X16((x) + 16), POP8X16((x) + 32), POP8X16((x) + 48)
static const uint8_t pop8[256] = { POP8X64(0), POP8X64(64), POP8X64(128), POP8X64(192) };

/* Room in the groups of cards whose allowed suits lie within each set of
 * suits: group `mask` holding k cards adds k to every superset of mask.
 * (A group that allows every suit is never within a smaller set, and the
 * whole set is never asked for, so within[ALL_SUITS] is left out.) */
static inline void within_add(int within[16], unsigned mask, int k)
{
	for (unsigned t = mask; t < ALL_SUITS; t = (t + 1) | mask)
		within[t] += k;
}

/* Can the unseen cards still be placed? Hall's condition over suit sets:
 * for each set of suits S, the unseen cards of S fit in the room of the
 * groups that may take a suit of S. feasible works it out afresh and keeps
 * each set's slack (room less cards) in s->slack, a byte a set, biased by
 * SLACK_BIAS so that a byte below it is a set that does not fit;
 * feasible_less updates the slack when one unseen card of `suit` fills a
 * place of a group that takes the suits of `mask` (a card of a hand, or a
 * face-down card of the trick, placed): the room falls by one for every set
 * that can use the group, and the cards by one for the sets with `suit`, so
 * the slack falls by one exactly for the sets that meet mask but lack
 * suit. (The hottest functions of the search: written for speed. The
 * face-down cards played earlier, c->sink, never change during a search:
 * their share is summed once per trump hypothesis, in c->sink_within.) */
#define SLACK_BIAS 0x4040404040404040ull
#define SLACK_SIGN 0x8080808080808080ull
static const uint64_t sets_without[SUIT_COUNT][2] = { /* byte S: 1 when S lacks the suit */
	{ 0x0001000100010001ull, 0x0001000100010001ull }, { 0x0000010100000101ull, 0x0000010100000101ull },
	{ 0x0000000001010101ull, 0x0000000001010101ull }, { 0x0101010101010101ull, 0x0000000000000000ull },
};
static const uint64_t sets_meeting[16][2] = { /* byte S: 1 when S meets the mask */
	{ 0x0000000000000000ull, 0x0000000000000000ull }, { 0x0100010001000100ull, 0x0100010001000100ull },
	{ 0x0101000001010000ull, 0x0101000001010000ull }, { 0x0101010001010100ull, 0x0101010001010100ull },
	{ 0x0101010100000000ull, 0x0101010100000000ull }, { 0x0101010101000100ull, 0x0101010101000100ull },
	{ 0x0101010101010000ull, 0x0101010101010000ull }, { 0x0101010101010100ull, 0x0101010101010100ull },
	{ 0x0000000000000000ull, 0x0101010101010101ull }, { 0x0100010001000100ull, 0x0101010101010101ull },
	{ 0x0101000001010000ull, 0x0101010101010101ull }, { 0x0101010001010100ull, 0x0101010101010101ull },
	{ 0x0101010100000000ull, 0x0101010101010101ull }, { 0x0101010101000100ull, 0x0101010101010101ull },
	{ 0x0101010101010000ull, 0x0101010101010101ull }, { 0x0101010101010100ull, 0x0101010101010101ull },
};

/* Seat x shows it lacks `suit` (which its group allowed): its k unseen
 * cards now fit only the suits of mask less suit, so every set with suit
 * that no longer meets the group loses k of room. */
static void slack_void(cs *s, int x, int suit)
{
	unsigned m = ~s->voids[x] & ALL_SUITS;
	if (!(m >> suit & 1) || !s->cap[x])
		return;
	m &= ~(unsigned)suit_bit(suit);
	uint64_t k = s->cap[x];
	s->slack[0] -= (~sets_without[suit][0] & ~sets_meeting[m][0] & 0x0101010101010101ull) * k;
	s->slack[1] -= (~sets_without[suit][1] & ~sets_meeting[m][1] & 0x0101010101010101ull) * k;
}

/* Works the slack out afresh (no count): 1 if every set fits. */
static int slack_fill(const ctx *c, cs *s)
{
	int u[SUIT_COUNT], total_u = 0, total_cap = c->sink_total;
	for (int i = 0; i < SUIT_COUNT; i++) {
		u[i] = pop8[s->unk >> (8 * i) & 0xff];
		total_u += u[i];
	}
	int within[16];
	memcpy(within, c->sink_within, sizeof within);
	for (int x = 0; x < G304_SEATS; x++)
		if (x != c->me && s->cap[x]) {
			total_cap += s->cap[x];
			if (s->voids[x] & ALL_SUITS)
				within_add(within, ~s->voids[x] & ALL_SUITS, s->cap[x]);
		}
	if (s->tslot) {
		within_add(within, (unsigned)suit_bit(s->trump), 1);
		total_cap++;
	}
	for (int i = 0; i < s->n; i++)
		if (s->pmask[i]) {
			within_add(within, s->pmask[i], 1);
			total_cap++;
		}
	/* A set of suits S can use every group except those within the
	 * other suits. */
	int need[16], ok = total_u == total_cap;
	uint8_t slack[16];
	need[0] = 0;
	slack[0] = (uint8_t)SLACK_BIAS;
	for (int set = 1; set < 16; set++) {
		need[set] = need[set & (set - 1)] + u[__builtin_ctz((unsigned)set)];
		int room = total_cap - within[ALL_SUITS & ~set] - need[set];
		ok &= room >= 0;
		slack[set] = (uint8_t)((int)(uint8_t)SLACK_BIAS + room);
	}
	memcpy(s->slack, slack, sizeof slack);
	return ok;
}

static int feasible(const ctx *c, cs *s)
{
	c->stats->checks++;
	return slack_fill(c, s);
}

static int feasible_less(const ctx *c, cs *s, int suit, unsigned mask)
{
	c->stats->checks++;
	s->slack[0] -= sets_without[suit][0] & sets_meeting[mask][0];
	s->slack[1] -= sets_without[suit][1] & sets_meeting[mask][1];
	/* Each byte stays within 0..127 (it is SLACK_BIAS plus a slack of at
	 * most 32 either way), so a byte is below the bias exactly when
	 * (byte | 0x80) - 0x40 leaves its top bit clear. */
	return (((s->slack[0] | SLACK_SIGN) - SLACK_BIAS) & ((s->slack[1] | SLACK_SIGN) - SLACK_BIAS) & SLACK_SIGN)
	       == SLACK_SIGN;
}

/* The face-down cards played earlier, for feasible: their share of within
 * and of the room. */
static void sink_sum(ctx *c)
{
	memset(c->sink_within, 0, sizeof c->sink_within);
	c->sink_total = 0;
	for (unsigned m = 0; m < 16; m++)
		if (c->sink[m]) {
			if (m != ALL_SUITS)
				within_add(c->sink_within, m, c->sink[m]);
			c->sink_total += c->sink[m];
		}
}

/* The unseen cards worth trying: the highest and the lowest of each run of
 * unseen cards that no live card splits. Cards of one run are alike for
 * every later trick (what is left of the run is a run of the same size), so
 * within a trick only which seat plays the run's highest card matters; any
 * seat can take it by taking the top while the others take the bottom. */
static cardset unk_reps(const cs *s)
{
	cardset other = s->hand | s->known[0] | s->known[1] | s->known[2] | s->known[3];
	if (s->ptc != CARD_NONE)
		other |= card_bit(s->ptc);
	for (int i = 0; i < s->n; i++)
		if (s->card[i] != CARD_NONE)
			other |= card_bit(s->card[i]);
	/* Over the live cards alone (cards gone are passed over): an unseen
	 * card is a run's top when the nearest live card above it is not
	 * unseen, and its bottom when the nearest below is not. below_unk:
	 * the places whose nearest live card above is unseen, filled down
	 * through the cards gone, one suit at a time (bit 8 * suit + rank);
	 * above_unk likewise upwards. */
	cardset gone = ~(s->unk | other);
	/* Place p is below an unseen card u across cards gone when u is 1 to 8
	 * places above and every place between is gone: filled in three
	 * doubling steps (t: the places whose next 1, 2, 4 above are gone),
	 * never across a suit's edge. */
	cardset below_unk = s->unk >> 1 & 0x7f7f7f7fu, t = gone >> 1 & 0x7f7f7f7fu;
	below_unk |= t & (below_unk >> 1 & 0x7f7f7f7fu);
	t &= t >> 1 & 0x7f7f7f7fu;
	below_unk |= t & (below_unk >> 2 & 0x3f3f3f3fu);
	t &= t >> 2 & 0x3f3f3f3fu;
	below_unk |= t & (below_unk >> 4 & 0x0f0f0f0fu);
	cardset above_unk = s->unk << 1 & 0xfefefefeu;
	t = gone << 1 & 0xfefefefeu;
	above_unk |= t & (above_unk << 1 & 0xfefefefeu);
	t &= t << 1 & 0xfefefefeu;
	above_unk |= t & (above_unk << 2 & 0xfcfcfcfcu);
	t &= t << 2 & 0xfcfcfcfcu;
	above_unk |= t & (above_unk << 4 & 0xf0f0f0f0u);
	return s->unk & ~(below_unk & above_unk);
}

static inline int first_lead_barred(const ctx *c, const cs *s, int seat)
{
	return s->trick_no == 0 && !s->open && seat == c->trumper && seat == ((c->dealer + 1) & 3);
}

static int trick_winner(const cs *s)
{
	cardset cards = 0;
	for (int i = 0; i < s->n; i++)
		cards |= card_bit(s->card[i]);
	cardset tr = cards & suit_mask(s->trump);
	card top = tr ? cardset_top(tr) : cardset_top(cards & suit_mask(card_suit(s->card[0])));
	for (int i = 0; i < s->n; i++)
		if (s->card[i] == top)
			return s->seat[i];
	return s->seat[0];
}

/* Puts card y from `seat` on the trick (the caller removed it from where it was). */
static void place(cs *t, int seat, card y, int from_table)
{
	int down = t->n > 0 && !t->open && card_suit(y) != card_suit(t->card[0]);
	t->seat[t->n] = (uint8_t)seat;
	t->card[t->n] = y;
	t->pmask[t->n] = 0;
	if (down)
		t->down |= (uint8_t)(1u << t->n);
	if (from_table)
		t->tcard |= (uint8_t)(1u << t->n);
	t->n++;
	t->turn = (uint8_t)((seat + 1) & 3);
}

/* After the trick: the claimer's team must have won it; then the inspection
 * and the reveals, and on to the next trick. s is the caller's own copy of
 * the position, and is changed (copying it again stalls on the stores that
 * just made it). */
static int next_trick(const ctx *c, cs *s)
{
	int w = trick_winner(s);
	if (g304_team(w) != c->team) {
		((ctx *)c)->ref_depth = s->k;
		return 1;
	}
	cs *t = s; /* the caller's copy, changed in place */
	int reveal = 0;
	if (!t->open) {
		for (int i = 0; i < t->n; i++)
			if ((t->down >> i & 1) && card_suit(t->card[i]) == t->trump)
				reveal = 1;
		if (t->trick_no == 0 && c->bid >= G304_BID8_MIN)
			reveal = 1;
	}
	t->trick_no++;
	t->leader = t->turn = (uint8_t)w;
	t->n = t->down = t->tcard = 0;
	memset(t->pmask, 0, sizeof t->pmask);
	if (t->exhausted && !(t->hand & suit_mask(t->trump)))
		t->exhausted = 0;
	if (t->trick_no >= G304_TRICKS)
		return 0; /* every trick won: the claim held on this line */
	if (reveal) {
		t->open = 1;
		if (t->ptc != CARD_NONE) {
			t->hand |= card_bit(t->ptc);
			t->ptc = CARD_NONE;
		}
		if (t->tslot) {
			/* The trump card is shown and goes back to the trumper's hand. */
			t->tslot = 0;
			cardset reps = unk_reps(t) & suit_mask(t->trump);
			for (; reps; reps &= reps - 1) {
				card y = cardset_first(reps);
				cs u = *t;
				u.unk &= ~card_bit(y);
				u.known[c->trumper] |= card_bit(y);
				if (feasible(c, &u) && refute(c, &u))
					return 1;
			}
			return 0;
		}
	}
	return refute(c, t);
}

/* Places the face-down cards of this trick that the claimer has not seen. */
static int end_trick(const ctx *c, cs *s)
{
	for (int i = 0; i < s->n; i++) {
		if (!s->pmask[i])
			continue;
		cardset reps = unk_reps(s);
		for (; reps; reps &= reps - 1) {
			card y = cardset_first(reps);
			if (!(s->pmask[i] & suit_bit(card_suit(y))))
				continue;
			cs t = *s;
			t.unk &= ~card_bit(y);
			t.card[i] = y;
			t.pmask[i] = 0;
			if (feasible_less(c, &t, card_suit(y), s->pmask[i]) && end_trick(c, &t))
				return 1;
		}
		return 0;
	}
	return next_trick(c, s);
}

static int after_place(const ctx *c, cs *t)
{
	return t->n == G304_SEATS ? end_trick(c, t) : refute(c, t);
}

/* Is x a legal next card for the claimer? */
static int me_legal(const ctx *c, const cs *s, card x)
{
	int trumper = c->me == c->trumper;
	int from_table = trumper && s->ptc == x;
	cardset trumps = suit_mask(s->trump);
	if (!from_table && !(s->hand & card_bit(x)))
		return 0;
	if (s->n == 0) {
		if (from_table)
			return s->hand == 0;
		if (trumper && s->exhausted && (s->hand & trumps) && !(card_bit(x) & trumps))
			return 0;
		if (first_lead_barred(c, s, c->me) && (card_bit(x) & trumps) && (s->hand & ~trumps))
			return 0;
		return 1;
	}
	int led = card_suit(s->card[0]);
	if (s->hand & suit_mask(led))
		return !from_table && card_suit(x) == led;
	if (!trumper || s->ptc == CARD_NONE)
		return 1;
	if (!s->hand)
		return from_table;
	if (led == s->trump)
		return !from_table;
	return from_table || !(card_bit(x) & trumps);
}

/* The claimer plays x (legal here). */
static int me_play_card(const ctx *c, const cs *s, card x)
{
	cs t = *s;
	t.k++;
	int from_table = t.ptc == x;
	if (from_table)
		t.ptc = CARD_NONE;
	else
		t.hand &= ~card_bit(x);
	int trumper = c->me == c->trumper;
	if (t.n == 0 && trumper && !from_table && card_suit(x) == t.trump) {
		if (first_lead_barred(c, s, c->me)) {
			/* Nothing but trumps in hand: the game is played open. */
			t.open = 1;
			if (t.ptc != CARD_NONE)
				t.hand |= card_bit(t.ptc);
			t.ptc = CARD_NONE;
		}
		if (!t.exhausted && !c->v->pcc) {
			/* The adversary may make this the moment trumps are exhausted:
			 * nobody else holds one, and the claimer must lead trumps on. */
			cs e = t;
			int ok = 1;
			for (int x2 = 0; x2 < G304_SEATS; x2++)
				if (x2 != c->me) {
					ok &= !(e.known[x2] & suit_mask(e.trump));
					e.voids[x2] |= (uint8_t)suit_bit(e.trump);
				}
			e.exhausted = 1;
			place(&e, c->me, x, 0);
			if (ok && feasible(c, &e) && after_place(c, &e))
				return 1;
		}
	}
	place(&t, c->me, x, from_table);
	return after_place(c, &t);
}

static int me_play(const ctx *c, const cs *s)
{
	if (s->k >= c->horizon)
		return 0;
	if (s->k < c->fixed) {
		card x = c->order[s->k];
		if (!me_legal(c, s, x)) {
			((ctx *)c)->ref_depth = s->k + 1;
			return 1; /* the order cannot be played here */
		}
		return me_play_card(c, s, x);
	}
	/* Past the fixed part of the order (the relaxed search): the claimer
	 * picks any legal card, seeing the position; refuted only if every
	 * card is. */
	cardset cards = s->hand | (s->ptc != CARD_NONE ? card_bit(s->ptc) : 0);
	for (; cards; cards &= cards - 1) {
		card x = cardset_first(cards);
		if (me_legal(c, s, x) && !me_play_card(c, s, x))
			return 0;
	}
	return 1;
}

/* Tries card y for an adversary seat: from its known cards, its unseen
 * cards, or the table (the trump card); `newvoid` is a suit the play shows
 * it lacks, or -1. */
enum { FROM_KNOWN, FROM_UNSEEN, FROM_TABLE };
static int adv_try(const ctx *c, const cs *s, int seat, card y, int from, int newvoid)
{
	cs t = *s;
	if (newvoid >= 0) {
		if (t.known[seat] & suit_mask(newvoid))
			return 0;
		slack_void(&t, seat, newvoid);
		t.voids[seat] |= (uint8_t)suit_bit(newvoid);
	}
	if (from == FROM_KNOWN) {
		t.known[seat] &= ~card_bit(y);
	} else {
		t.unk &= ~card_bit(y);
		if (from == FROM_UNSEEN) {
			if (!t.cap[seat])
				return 0;
			t.cap[seat]--;
		} else {
			t.tslot = 0;
		}
	}
	/* The slack as feasible would work it out afresh, kept up to date:
	 * the void shown, then the card placed (from the seat's unseen cards
	 * or the trump card's place on the table). */
	if (from == FROM_UNSEEN) {
		if (!feasible_less(c, &t, card_suit(y), ~t.voids[seat] & ALL_SUITS))
			return 0;
	} else if (from == FROM_TABLE) {
		if (!feasible_less(c, &t, s->trump, (unsigned)suit_bit(s->trump)))
			return 0;
	} else if (newvoid >= 0) {
		if (!feasible_less(c, &t, 0, 0))
			return 0;
	}
	place(&t, seat, y, from == FROM_TABLE);
	if (s->n == 0 && first_lead_barred(c, s, seat) && card_suit(y) == s->trump) {
		/* Leading a trump here is allowed only from a hand of trumps, and
		 * then the game goes open. Allowing it more widely, with the trump
		 * card back in hand unseen, only strengthens the adversary. */
		t.open = 1;
		if (t.tslot) {
			t.tslot = 0;
			t.cap[seat]++;
			slack_fill(c, &t); /* the groups changed: the slack afresh */
		}
	}
	return after_place(c, &t);
}

/* The ranks present in a set, one bit a rank, over every suit. */
static inline unsigned ranks_of(cardset set)
{
	return (set | set >> 8 | set >> 16 | set >> 24) & 0xffu;
}

/* The card of a set most likely to win a trick: trumps first, then by rank
 * (of equal ranks, the card of the highest suit if it is that suit's top,
 * else of the lowest suit: the order of the walk this replaced). */
static card by_strength(cardset set, int trump)
{
	cardset tr = set & suit_mask(trump);
	if (tr)
		return cardset_top(tr);
	card top = cardset_top(set);
	cardset best = set & (cardset)0x01010101u << (31 - __builtin_clz(ranks_of(set)));
	return best & card_bit(top) ? top : cardset_first(best);
}

/* The card of a set least likely to win a trick: side cards first, then by
 * rank (of equal ranks, the lowest suit). */
static card by_weakness(cardset set, int trump)
{
	cardset side = set & ~suit_mask(trump);
	cardset from = side ? side : set;
	return cardset_first(from & (cardset)0x01010101u << __builtin_ctz(ranks_of(from)));
}

/* The cards that would beat every card on the trick so far (face-down
 * cards not yet placed are left out: this only orders moves). */
static cardset beaters(const cs *s)
{
	if (s->n == 0 || s->card[0] == CARD_NONE)
		return ALL_CARDS;
	cardset cards = 0;
	for (int i = 0; i < s->n; i++)
		if (s->card[i] != CARD_NONE)
			cards |= card_bit(s->card[i]);
	cardset tr = cards & suit_mask(s->trump);
	if (tr)
		return card_above(cardset_top(tr));
	int led = card_suit(s->card[0]);
	card top = cardset_top(cards & suit_mask(led));
	return card_above(top) | suit_mask(s->trump);
}

/* Every move of one adversary seat, over its known and unseen cards. A
 * trick the opponents win is a refutation at once, and the shortest
 * refutations prune the most orders, so an opponent first tries the cards
 * that would take the trick (strongest first), then keeps its high cards
 * for later (weakest first); the claimer's partner, following, tries its
 * weakest first. */
static int adv_each(const ctx *c, const cs *s, int seat, cardset allowed, int newvoid)
{
	int partner = g304_team(seat) == c->team;
	cardset known = s->known[seat] & allowed;
	cardset reps = 0;
	if (s->cap[seat]) {
		reps = unk_reps(s) & allowed;
		for (int suit = 0; suit < SUIT_COUNT; suit++)
			if (s->voids[seat] & suit_bit(suit))
				reps &= ~suit_mask(suit);
	}
	if (s->n == 0) {
		/* Leading: strongest first. */
		while (known) {
			card y = by_strength(known, s->trump);
			known &= ~card_bit(y);
			if (adv_try(c, s, seat, y, FROM_KNOWN, newvoid))
				return 1;
		}
		while (reps) {
			card y = by_strength(reps, s->trump);
			reps &= ~card_bit(y);
			if (adv_try(c, s, seat, y, FROM_UNSEEN, newvoid))
				return 1;
		}
		return 0;
	}
	cardset beat = partner ? 0 : beaters(s);
	for (int pass = partner; pass < 2; pass++) {
		cardset kp = known, rp = reps;
		if (!partner) {
			cardset kb = known & beat, rb = reps & beat;
			kp = pass == 0 ? kb : known & ~kb;
			rp = pass == 0 ? rb : reps & ~rb;
		}
		while (kp) {
			card y = pass == 0 ? by_strength(kp, s->trump) : by_weakness(kp, s->trump);
			kp &= ~card_bit(y);
			if (adv_try(c, s, seat, y, FROM_KNOWN, newvoid))
				return 1;
		}
		while (rp) {
			card y = pass == 0 ? by_strength(rp, s->trump) : by_weakness(rp, s->trump);
			rp &= ~card_bit(y);
			if (adv_try(c, s, seat, y, FROM_UNSEEN, newvoid))
				return 1;
		}
	}
	return 0;
}

/* The trumper plays the trump card from the table; its rank is the adversary's choice. */
static int adv_trump_card(const ctx *c, const cs *s, int seat, int newvoid)
{
	cardset reps = unk_reps(s) & suit_mask(s->trump);
	for (; reps; reps &= reps - 1)
		if (adv_try(c, s, seat, cardset_first(reps), FROM_TABLE, newvoid))
			return 1;
	return 0;
}

static int adv_play(const ctx *c, const cs *s, int seat)
{
	int closed_trumper = seat == c->trumper && s->tslot;
	int hand_empty = !s->cap[seat] && !s->known[seat];
	cardset trumps = suit_mask(s->trump);
	if (s->n == 0) {
		if (closed_trumper && hand_empty)
			return adv_trump_card(c, s, seat, -1);
		return adv_each(c, s, seat, ALL_CARDS, -1);
	}
	int led = card_suit(s->card[0]);
	if (adv_each(c, s, seat, suit_mask(led), -1))
		return 1;
	/* Not following: the seat shows it lacks the suit led. */
	if (!closed_trumper)
		return adv_each(c, s, seat, ALL_CARDS & ~suit_mask(led), led);
	if (hand_empty)
		return adv_trump_card(c, s, seat, -1);
	if (led != s->trump && adv_trump_card(c, s, seat, led))
		return 1;
	return adv_each(c, s, seat, ALL_CARDS & ~suit_mask(led) & ~trumps, led);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* Rank r's bit of a suit's eight moved to bit 3 * (7 - r): the ranks from
 * the top, three bits each (memo_key). */
static const uint32_t spread_down[256] = {
	0x000000, 0x200000, 0x040000, 0x240000, 0x008000, 0x208000, 0x048000, 0x248000,
	0x001000, 0x201000, 0x041000, 0x241000, 0x009000, 0x209000, 0x049000, 0x249000,
	0x000200, 0x200200, 0x040200, 0x240200, 0x008200, 0x208200, 0x048200, 0x248200,
	0x001200, 0x201200, 0x041200, 0x241200, 0x009200, 0x209200, 0x049200, 0x249200,
	0x000040, 0x200040, 0x040040, 0x240040, 0x008040, 0x208040, 0x048040, 0x248040,
	0x001040, 0x201040, 0x041040, 0x241040, 0x009040, 0x209040, 0x049040, 0x249040,
	0x000240, 0x200240, 0x040240, 0x240240, 0x008240, 0x208240, 0x048240, 0x248240,
	0x001240, 0x201240, 0x041240, 0x241240, 0x009240, 0x209240, 0x049240, 0x249240,
	0x000008, 0x200008, 0x040008, 0x240008, 0x008008, 0x208008, 0x048008, 0x248008,
	0x001008, 0x201008, 0x041008, 0x241008, 0x009008, 0x209008, 0x049008, 0x249008,
	0x000208, 0x200208, 0x040208, 0x240208, 0x008208, 0x208208, 0x048208, 0x248208,
	0x001208, 0x201208, 0x041208, 0x241208, 0x009208, 0x209208, 0x049208, 0x249208,
	0x000048, 0x200048, 0x040048, 0x240048, 0x008048, 0x208048, 0x048048, 0x248048,
	0x001048, 0x201048, 0x041048, 0x241048, 0x009048, 0x209048, 0x049048, 0x249048,
	0x000248, 0x200248, 0x040248, 0x240248, 0x008248, 0x208248, 0x048248, 0x248248,
	0x001248, 0x201248, 0x041248, 0x241248, 0x009248, 0x209248, 0x049248, 0x249248,
	0x000001, 0x200001, 0x040001, 0x240001, 0x008001, 0x208001, 0x048001, 0x248001,
	0x001001, 0x201001, 0x041001, 0x241001, 0x009001, 0x209001, 0x049001, 0x249001,
	0x000201, 0x200201, 0x040201, 0x240201, 0x008201, 0x208201, 0x048201, 0x248201,
	0x001201, 0x201201, 0x041201, 0x241201, 0x009201, 0x209201, 0x049201, 0x249201,
	0x000041, 0x200041, 0x040041, 0x240041, 0x008041, 0x208041, 0x048041, 0x248041,
	0x001041, 0x201041, 0x041041, 0x241041, 0x009041, 0x209041, 0x049041, 0x249041,
	0x000241, 0x200241, 0x040241, 0x240241, 0x008241, 0x208241, 0x048241, 0x248241,
	0x001241, 0x201241, 0x041241, 0x241241, 0x009241, 0x209241, 0x049241, 0x249241,
	0x000009, 0x200009, 0x040009, 0x240009, 0x008009, 0x208009, 0x048009, 0x248009,
	0x001009, 0x201009, 0x041009, 0x241009, 0x009009, 0x209009, 0x049009, 0x249009,
	0x000209, 0x200209, 0x040209, 0x240209, 0x008209, 0x208209, 0x048209, 0x248209,
	0x001209, 0x201209, 0x041209, 0x241209, 0x009209, 0x209209, 0x049209, 0x249209,
	0x000049, 0x200049, 0x040049, 0x240049, 0x008049, 0x208049, 0x048049, 0x248049,
	0x001049, 0x201049, 0x041049, 0x241049, 0x009049, 0x209049, 0x049049, 0x249049,
	0x000249, 0x200249, 0x040249, 0x240249, 0x008249, 0x208249, 0x048249, 0x248249,
	0x001249, 0x201249, 0x041249, 0x241249, 0x009249, 0x209249, 0x049249, 0x249249,
};

/* One suit of memo_key's pattern: the labels of its live cards (lab, three
 * bit masks), three bits a card from the top: the labels three bits a rank
 * from the top, then the places of the cards gone taken out, the lowest
 * first. */
static inline uint32_t suit_pattern(const cardset lab[3], cardset live, int suit)
{
	int sh = 8 * suit;
	uint32_t p = spread_down[lab[0] >> sh & 0xff] | spread_down[lab[1] >> sh & 0xff] << 1
		| spread_down[lab[2] >> sh & 0xff] << 2;
	unsigned in = live >> sh & 0xff, gone = ~in & 0xff & ~((in & -in) - 1); /* above the lowest live card */
	for (; gone; gone &= gone - 1) {
		uint32_t low = ((uint32_t)1 << (3 * (7 - __builtin_ctz(gone)))) - 1;
		p = (p & low) | (p >> 3 & ~low);
	}
	return p;
}

/* Hashes a position at a trick boundary with the order still to play, up
 * to renaming ranks: only the rank order of the live cards matters, so each
 * suit is written as the owners of its live cards from the top (cards seen
 * played are gone and left out), and the order as (suit, place among the
 * suit's live cards). Positions that differ only in which card of a run of
 * unseen cards went where share one entry.
 *
 * The slot is the low bits of a chain of mixing steps over the key's words
 * (*h1); which positions share a slot decides which entries a search
 * overwrites, and so the positions it visits within a budget: the chain is
 * kept as it was, and remembered (key_steps, sink_steps) rather than
 * worked out again. The entry is told apart by *h1's bits above the slot's
 * and 12 bits of *chk, a cheaper hash of the same words (packed, not mixed
 * in a chain): 58 bits in all. */
static void memo_key(const ctx *c, const cs *s, uint64_t *h1, uint32_t *chk)
{
	uint64_t a = 0x243f6a8885a308d3ull;
	/* Each live card's label (1 unseen, 2 in hand, 3 the claimer's trump
	 * card, 4 + seat known in that seat's hand) as three bit masks, the
	 * sets taken in that order of precedence. */
	cardset ptc = s->ptc != CARD_NONE ? card_bit(s->ptc) : 0;
	cardset m1 = s->unk, live = m1;
	cardset m2 = s->hand & ~live;
	live |= m2;
	cardset m3 = ptc & ~live;
	live |= m3;
	cardset m4 = s->known[0] & ~live;
	live |= m4;
	cardset m5 = s->known[1] & ~live;
	live |= m5;
	cardset m6 = s->known[2] & ~live;
	live |= m6;
	cardset m7 = s->known[3] & ~live;
	live |= m7;
	const cardset lab[3] = { m1 | m3 | m5 | m7, m2 | m3 | m6 | m7, m4 | m5 | m6 | m7 };
	uint64_t pat[2] = { suit_pattern(lab, live, 0) | (uint64_t)suit_pattern(lab, live, 1) << 32,
		            suit_pattern(lab, live, 2) | (uint64_t)suit_pattern(lab, live, 3) << 32 };
	uint64_t f[] = {
		pat[0], pat[1],
		(uint64_t)s->cap[0] | (uint64_t)s->cap[1] << 8 | (uint64_t)s->cap[2] << 16 | (uint64_t)s->cap[3] << 24
			| (uint64_t)s->voids[0] << 32 | (uint64_t)s->voids[1] << 40 | (uint64_t)s->voids[2] << 48
			| (uint64_t)s->voids[3] << 56,
		(uint64_t)s->tslot | (uint64_t)s->trump << 8 | (uint64_t)s->open << 16 | (uint64_t)s->exhausted << 24
			| (uint64_t)s->trick_no << 32 | (uint64_t)s->leader << 40 | (uint64_t)(c->horizon - s->k) << 48
			| (uint64_t)(c->fixed < c->horizon) << 56,
	};
	/* The order still to play: each card's place (suit, live cards of
	 * its suit above it), 5 bits a card, with where it starts. */
	uint64_t ord = 0;
	int end = c->horizon < c->fixed ? c->horizon : c->fixed, len = 0;
	for (int k = s->k; k < end; k++, len++) {
		card x = c->order[k];
		uint64_t place = (uint64_t)card_suit(x) << 3 | (uint64_t)pop8[(live & card_above(x)) >> (8 * card_suit(x)) & 0xff];
		ord |= place << (5 * len);
	}
	if (len)
		ord |= (uint64_t)len << 40 | (uint64_t)s->k << 48;
	ord |= (uint64_t)1 << 63; /* (so no entry of key_steps is all zeros) */
	uint64_t x = f[0] * 0x9e3779b97f4a7c15ull ^ f[1] * 0xc2b2ae3d27d4eb4full ^ f[2] * 0x165667b19e3779f9ull
		^ f[3] * 0xd6e8feb86659fd93ull ^ ord * 0xff51afd7ed558ccdull;
	*chk = (uint32_t)(x >> 32 ^ x);
	/* The same key asked again (another order with the same rest, the
	 * same position reached again): its chain as it came out before. */
	key_step *ks = &c->key_steps[x >> (64 - CAPS_KEYS_BITS)];
	if (ks->w[0] == f[0] && ks->w[1] == f[1] && ks->w[2] == f[2] && ks->w[3] == f[3] && ks->w[4] == ord) {
		*h1 = ks->h1;
		return;
	}
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		a = mix(a, f[i]);
	/* The face-down cards played earlier are the same for every position
	 * of one trump hypothesis (and the trump is in f[3]). */
	sink_step *st = &c->sink_steps[(a >> 7) & (((uint64_t)1 << CAPS_SINK_BITS) - 1)];
	if (st->trump == s->trump + 1 && st->in == a) {
		a = st->out;
	} else {
		st->in = a;
		st->trump = (uint8_t)(s->trump + 1);
		for (int i = 0; i < 16; i++)
			a = mix(a, c->sink[i]);
		st->out = a;
	}
	for (int i = 0; i < len; i++)
		a = mix(a, ord >> (5 * i) & 31);
	*h1 = a;
	memcpy(ks->w, f, sizeof f);
	ks->w[4] = ord;
	ks->h1 = a;
	*h1 = a;
	*chk = (uint32_t)(x >> 32 ^ x);
}

static void memo_free(ctx *c)
{
	free(c->memo);
	free(c->memo_set);
	free(c->sink_steps);
	free(c->key_steps);
	c->sink_steps = NULL;
	c->key_steps = NULL;
	c->memo = NULL;
	c->memo_set = NULL;
}

static int refute(const ctx *c, const cs *s)
{
	c->stats->nodes++;
	if ((c->limit && c->stats->nodes - c->start > c->limit) || c->out_of_budget) {
		((ctx *)c)->gave_up = 1;
		return 0;
	}
	if (c->budget && c->stats->nodes > c->budget) {
		((ctx *)c)->out_of_budget = 1;
		((ctx *)c)->gave_up = 1;
		return 0;
	}
	memo_entry *e = NULL;
	uint64_t tag = 0;
	if (s->n == 0) {
		ctx *mc = (ctx *)c; /* the memo is the one mutable part of the context */
		if (!mc->memo && !mc->memo_failed && c->stats->nodes > CAPS_MEMO_AFTER) {
			mc->memo = malloc(((size_t)1 << CAPS_MEMO_BITS) * sizeof *mc->memo);
			mc->memo_set = calloc((size_t)1 << (CAPS_MEMO_BITS - 6), sizeof *mc->memo_set);
			mc->sink_steps = calloc((size_t)1 << CAPS_SINK_BITS, sizeof *mc->sink_steps);
			mc->key_steps = calloc((size_t)1 << CAPS_KEYS_BITS, sizeof *mc->key_steps);
			if (!mc->memo || !mc->memo_set || !mc->sink_steps || !mc->key_steps)
				memo_free(mc);
			mc->memo_failed = !mc->memo;
		}
		if (mc->memo) {
			uint64_t h1;
			uint32_t chk;
			memo_key(c, s, &h1, &chk);
			size_t i = (size_t)(h1 & MEMO_SLOT_MASK);
			tag = memo_tag(h1, chk);
			e = &mc->memo[i];
			uint64_t *w = &mc->memo_set[i >> 6], bit = (uint64_t)1 << (i & 63);
			if (!(*w & bit)) {
				*w |= bit;
				*e = 0;
			}
			if ((*e & 1) && (*e & ~(uint64_t)0x3f) == tag) {
				int refuted = (int)(*e >> 1 & 1);
				if (refuted)
					mc->ref_depth = s->k + (int)(*e >> 2 & 0xf);
				return refuted;
			}
		}
	}
	int r = s->turn == c->me ? me_play(c, s) : adv_play(c, s, s->turn);
	if (e && (r || !c->gave_up)) {
		uint64_t depth = r ? (uint64_t)(c->ref_depth - s->k) : 0;
		*e = tag | (depth & 0xf) << 2 | (uint64_t)(r != 0) << 1 | 1;
	}
	return r;
}

/* Builds the search state for one trump hypothesis; 0 if the hypothesis
 * does not fit what the claimer has seen. */
static int build(const ctx *c, int trump, cs *s)
{
	const g304_view *v = c->v;
	memset(s, 0, sizeof *s);
	memset(((ctx *)c)->sink, 0, sizeof c->sink);
	s->trump = (uint8_t)trump;
	s->open = v->trump_open;
	s->hand = v->hand;
	s->ptc = (c->me == c->trumper && v->trump_down) ? v->trump_card : CARD_NONE;
	s->tslot = c->me != c->trumper && v->trump_down;
	s->exhausted = c->me == c->trumper && v->exhausted;
	cardset seen = s->hand;
	if (s->ptc != CARD_NONE)
		seen |= card_bit(s->ptc);
	int played[G304_SEATS] = { 0 };
	int cur = v->ntricks - 1;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (!t->n)
			continue;
		int led = card_suit(t->card[0]);
		for (int k = 0; k < t->n; k++) {
			int x = t->seat[k];
			card y = t->card[k];
			played[x]++;
			if (k > 0 && (y == CARD_NONE || card_suit(y) != led))
				s->voids[x] |= (uint8_t)suit_bit(led);
			if (y != CARD_NONE) {
				seen |= card_bit(y);
				continue;
			}
			uint8_t mask = (uint8_t)(ALL_SUITS & ~suit_bit(led));
			if (i < cur || (x == c->trumper && !(t->tcard >> k & 1)))
				mask &= (uint8_t)~suit_bit(trump); /* inspected, or the trumper's throw */
			if (x == c->trumper && (t->tcard >> k & 1))
				mask = (uint8_t)suit_bit(trump); /* the trump card, cutting */
			else
				mask &= (uint8_t)~s->voids[x]; /* nor of a suit its player showed void in */
			if (!mask)
				return 0; /* no card fits: not this trump hypothesis */
			if (i < cur)
				((ctx *)c)->sink[mask]++;
			else
				s->pmask[k] = mask;
		}
	}
	if (c->me != c->trumper && v->trump_card != CARD_NONE && !(seen & card_bit(v->trump_card))
	    && !v->trump_down) {
		s->known[c->trumper] |= card_bit(v->trump_card);
		seen |= card_bit(v->trump_card);
	}
	/* A closed game whose trumper sat after the dealer: its first lead was no trump. */
	if (!s->open && c->me != c->trumper && v->ntricks > 0 && v->tricks[0].n > 0
	    && v->tricks[0].seat[0] == c->trumper && c->trumper == ((c->dealer + 1) & 3)
	    && card_suit(v->tricks[0].card[0]) == trump)
		return 0;
	for (int x = 0; x < G304_SEATS; x++) {
		if (x == c->me)
			continue;
		int held = G304_TRICKS - played[x] - cardset_count(s->known[x]);
		if (x == c->trumper && v->trump_down)
			held--;
		if (held < 0)
			return 0;
		s->cap[x] = (uint8_t)held;
	}
	s->unk = ALL_CARDS & ~seen;
	const g304_trick *t = &v->tricks[cur];
	s->trick_no = (uint8_t)cur;
	s->leader = t->leader;
	s->n = t->n;
	s->down = t->down;
	s->tcard = t->tcard;
	memcpy(s->seat, t->seat, sizeof s->seat);
	memcpy(s->card, t->card, sizeof s->card);
	s->turn = v->turn;
	sink_sum((ctx *)c);
	return feasible(c, s);
}

/* Does some consistent world and line beat the order (up to the horizon)? */
static int refute_all(const ctx *c)
{
	const g304_view *v = c->v;
	for (int trump = 0; trump < SUIT_COUNT; trump++) {
		if (v->trump_suit >= 0 && trump != v->trump_suit)
			continue;
		cs s;
		((ctx *)c)->start = c->stats->nodes; /* each hypothesis gets the whole limit */
		if (build(c, trump, &s) && refute(c, &s))
			return 1;
	}
	return 0;
}

cardset g304_caps_cards(const g304_view *v)
{
	cardset s = v->hand;
	if (v->seat == v->trumper && v->trump_down && v->trump_card != CARD_NONE)
		s |= card_bit(v->trump_card);
	return s;
}

int g304_caps_try(const g304_view *v, const g304_legal *l, unsigned long budget, g304_action *a)
{
	int n;
	if (!(l->acts & 1u << G304_ACT_CAPS) || v->caps_seat != G304_NO_SEAT)
		return 0;
	if (g304_caps_find(v, budget, a->order, &n, NULL) != 1)
		return 0;
	a->type = G304_ACT_CAPS;
	a->norder = (uint8_t)n;
	return 1;
}

int g304_caps_question(const g304 *g, int seat, g304_view *v)
{
	if (!g304_caps_may_call(g, seat))
		return 0;
	g304_view_of(g, seat, v);
	return g304_caps_cards(v) != 0;
}

/* A quick sufficient test, tried before any search: the claimer is to
 * lead now and every card of the order, when led, wins for certain. A
 * trump wins when it beats every trump still outside the claimer's hand;
 * and each trump lead draws at least one of those (whoever holds one must
 * follow), so after as many trump leads as there were trumps outside, none
 * can be left, wherever they lay. From then on a side card wins when no
 * card of its suit outside the claimer's hand is higher. Nobody, partner
 * included, can then win a trick or take the lead, so the claimer leads
 * every trick; the order must only respect the claimer's own lead rules
 * (the trump card last, the first-trick rule, exhausted trumps). Hidden
 * cards count as still in play, which only makes the test stricter. */
static int sure_cash(const g304_view *v, const card *order, int n)
{
	if (v->trump_suit < 0 || v->ntricks == 0 || v->pcc)
		return 0;
	const g304_trick *cur = &v->tricks[v->ntricks - 1];
	/* Either the claimer is to lead now, or it led the trick in progress
	 * (its card there is then checked like a lead, below). */
	int led_now = cur->n > 0 && cur->seat[0] == v->seat;
	if (!led_now && (cur->n != 0 || v->turn != v->seat))
		return 0;
	int trump = v->trump_suit, me = v->seat;
	int trumper = me == v->trumper;
	card ptc = (trumper && v->trump_down) ? v->trump_card : CARD_NONE;
	cardset left = g304_caps_cards(v), played = 0;
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < v->tricks[i].n; k++)
			if (v->tricks[i].card[k] != CARD_NONE)
				played |= card_bit(v->tricks[i].card[k]);
	cardset others = ALL_CARDS & ~left & ~played;
	cardset outside_trumps = others & suit_mask(trump);
	int trumps_left = cardset_count(outside_trumps); /* at most this many still out */
	int exhausted = trumper && v->exhausted;
	if (led_now) {
		card c0 = cur->card[0];
		cardset higher = card_above(c0);
		cardset on_table = 0;
		for (int k = 1; k < cur->n; k++)
			if (cur->card[k] != CARD_NONE)
				on_table |= card_bit(cur->card[k]);
		if (card_suit(c0) == trump) {
			/* No trump left out is drawn for sure by this lead: those who
			 * have played to it may still hold one. */
			if ((outside_trumps | on_table) & higher)
				return 0;
		} else if (trumps_left > 0 || ((others | on_table) & higher) || (on_table & suit_mask(trump))) {
			return 0;
		}
		/* Face-down cards already on the table are among `others`, so the
		 * tests above cover them too. */
	}
	for (int i = 0; i < n; i++) {
		card c = order[i];
		if (c >= CARD_COUNT || !(left & card_bit(c)))
			return 0;
		cardset hand = left & ~(ptc != CARD_NONE ? card_bit(ptc) : 0);
		int from_table = c == ptc;
		if (from_table && hand)
			return 0; /* the trump card leads only as the last card */
		if (trumper && !v->trump_open && v->ntricks - 1 + i + led_now == 0 && me == ((v->dealer + 1) & 3)
		    && card_suit(c) == trump && (hand & ~suit_mask(trump)))
			return 0; /* no trump lead to the first trick of a closed game */
		if (exhausted && (hand & suit_mask(trump)) && card_suit(c) != trump)
			return 0;
		if (trumper && card_suit(c) == trump && !from_table)
			exhausted = 1; /* assume the worst: nobody else holds a trump */
		cardset higher = card_above(c);
		if (card_suit(c) == trump) {
			if (outside_trumps & higher)
				return 0;
			if (trumps_left > 0)
				trumps_left--;
		} else if (trumps_left > 0 || (others & higher)) {
			return 0;
		}
		left &= ~card_bit(c);
		if (!(left & ~(ptc != CARD_NONE ? card_bit(ptc) : 0) & suit_mask(trump)))
			exhausted = 0;
	}
	return 1;
}

/* Two plain orders for sure_cash: trumps first or side suits first, each
 * suit from the top, the trump card last. */
static int sure_cash_order(const g304_view *v, card *order, int *n)
{
	cardset cards = g304_caps_cards(v);
	card ptc = (v->seat == v->trumper && v->trump_down) ? v->trump_card : CARD_NONE;
	for (int trumps_first = 1; trumps_first >= 0; trumps_first--) {
		int m = 0;
		for (int pass = 0; pass < 2; pass++) {
			int want_trumps = pass == 0 ? trumps_first : !trumps_first;
			for (int suit = 0; suit < SUIT_COUNT; suit++) {
				if ((suit == v->trump_suit) != want_trumps)
					continue;
				for (int r = RANK_COUNT - 1; r >= 0; r--) {
					card c = card_make(suit, r);
					if ((cards & card_bit(c)) && c != ptc)
						order[m++] = c;
				}
			}
		}
		if (ptc != CARD_NONE)
			order[m++] = ptc;
		if (sure_cash(v, order, m)) {
			*n = m;
			return 1;
		}
	}
	return 0;
}

/* Can a claim be judged at all in this view? */
static int claimable(const g304_view *v)
{
	if (v->phase != G304_PHASE_PLAY || v->pcc || v->ntricks == 0 || v->trumper >= G304_SEATS
	    || v->seat >= G304_SEATS)
		return 0;
	for (int i = 0; i < v->ntricks; i++)
		if (v->tricks[i].winner != G304_NO_SEAT && g304_team(v->tricks[i].winner) != g304_team(v->seat))
			return 0;
	return 1;
}

static void ctx_init(ctx *c, const g304_view *v, const card *order, int n, g304_caps_stats *stats)
{
	c->v = v;
	c->me = v->seat;
	c->team = g304_team(v->seat);
	c->trumper = v->trumper;
	c->dealer = v->dealer;
	c->bid = v->bid;
	c->order = order;
	c->horizon = n;
	c->stats = stats;
	c->memo = NULL;
	c->memo_set = NULL;
	c->sink_steps = NULL;
	c->key_steps = NULL;
	c->memo_failed = 0;
	c->limit = 0;
	c->start = 0;
	c->gave_up = 0;
	c->budget = 0;
	c->out_of_budget = 0;
	c->ref_depth = 0;
	c->fixed = G304_TRICKS + 1;
}

int g304_caps_check(const g304_view *v, const card *order, int n, g304_caps_stats *stats)
{
	g304_caps_stats dummy = { 0, 0 };
	if (!claimable(v))
		return 0;
	cardset cards = g304_caps_cards(v), listed = 0;
	if (n != cardset_count(cards))
		return 0;
	for (int i = 0; i < n; i++) {
		if (order[i] >= CARD_COUNT || (listed & card_bit(order[i])) || !(cards & card_bit(order[i])))
			return 0;
		listed |= card_bit(order[i]);
	}
	if (sure_cash(v, order, n))
		return 1;
	ctx c;
	ctx_init(&c, v, order, n, stats ? stats : &dummy);
	c.budget = c.stats->nodes + G304_CAPS_JUDGE_BUDGET;
	int certain = !refute_all(&c);
	memo_free(&c);
	/* No refutation found within the budget: the call has the benefit of
	 * the doubt (a trick lost later still makes it a failed call). */
	return certain || c.out_of_budget;
}

/* The search for an order, position by position. Each prefix is first
 * searched briefly for a refutation (CAPS_PREFIX_NODES positions for each
 * trump suit), to prune it and every order that starts with it; a whole
 * order is always searched to the end. A refutation is a line of play that
 * used only the first ref_depth cards of the order, so every order with the
 * same first ref_depth cards is refuted too: the search then goes straight
 * back to the last of those positions (backjumping). Returns 1 when
 * order[0..m-1] is certain; otherwise 0, with *back the last position whose
 * change might help (-1: none, no order is certain).
 *
 * Cards of the claimer that are interchangeable with a higher one it holds
 * (same suit, no card outside its hand between them) need not lead a branch. */
static int find_rec(ctx *c, card *order, int d, int m, cardset left, cardset others, int *back)
{
	*back = d - 1;
	if (d > 0 || d == m) { /* with no cards left, the rest of this trick still counts */
		c->horizon = d;
		c->limit = d < m ? CAPS_PREFIX_NODES << (d / 2) : 0;
		c->start = c->stats->nodes;
		c->gave_up = 0;
		int refuted = refute_all(c);
		c->limit = 0;
		if (c->out_of_budget)
			return 0;
		if (refuted) {
			if (c->ref_depth - 1 < *back)
				*back = c->ref_depth - 1;
			return 0;
		}
	}
	if (d == m)
		return 1;
	/* The relaxed search: can the adversary beat every way of going on
	 * after this prefix, even a claimer who picks each later card seeing
	 * the whole position? Then no order with this prefix is certain. */
	c->horizon = m;
	c->fixed = d;
	c->limit = CAPS_RELAX_NODES;
	c->gave_up = 0;
	int hopeless = refute_all(c);
	c->fixed = G304_TRICKS + 1;
	c->limit = 0;
	if (c->out_of_budget || hopeless)
		return 0;
	for (cardset l = left; l; l &= l - 1) {
		card x = cardset_first(l);
		/* Skip x if the next higher card of its suit that is still in play
		 * is also the claimer's, still to be ordered. */
		int dup = 0;
		card ptc = (c->me == c->trumper && c->v->trump_down) ? c->v->trump_card : CARD_NONE;
		for (int r = card_rank(x) + 1; r < RANK_COUNT && x != ptc; r++) {
			card y = card_make(card_suit(x), r);
			if (y == ptc)
				break; /* the trump card plays by other rules: not interchangeable */
			if (left & card_bit(y)) {
				dup = 1;
				break;
			}
			if (others & card_bit(y))
				break;
		}
		if (dup)
			continue;
		order[d] = x;
		int b;
		if (find_rec(c, order, d + 1, m, left & ~card_bit(x), others, &b))
			return 1;
		if (c->out_of_budget)
			return 0;
		if (b < d) {
			/* The refutation did not use order[d]: no other card here helps. */
			*back = b;
			return 0;
		}
	}
	*back = d - 1;
	return 0;
}

int g304_caps_find(const g304_view *v, unsigned long budget, card *order, int *n, g304_caps_stats *stats)
{
	g304_caps_stats dummy = { 0, 0 };
	*n = 0;
	if (!claimable(v))
		return 0;
	if (sure_cash_order(v, order, n))
		return 1;
	cardset cards = g304_caps_cards(v);
	/* Cards not the claimer's and not seen played: they may split its runs. */
	cardset played = 0;
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < v->tricks[i].n; k++)
			if (v->tricks[i].card[k] != CARD_NONE)
				played |= card_bit(v->tricks[i].card[k]);
	cardset others = ALL_CARDS & ~cards & ~played;
	card buf[G304_TRICKS];
	ctx c;
	ctx_init(&c, v, buf, 0, stats ? stats : &dummy);
	c.budget = budget ? c.stats->nodes + budget : 0;
	int m = cardset_count(cards);
	int back;
	int found = find_rec(&c, buf, 0, m, cards, others, &back);
	memo_free(&c);
	if (c.out_of_budget)
		return -1;
	if (!found)
		return 0;
	memcpy(order, buf, sizeof buf[0] * (size_t)m);
	*n = m;
	return 1;
}
