/* rook_ai_sample.c: deals of the hidden cards consistent with one seat's
 * view: its own hand, every card it saw played, its own discard, the
 * colours each seat showed void, how many cards each seat holds, and the
 * nest (during bidding) or another seat's discard (never a counter).
 * Beyond what is certain, deals lean to what the auction said: the bidder
 * is likelier to hold trumps, and of several deals the one that best fits
 * every seat's bids and passes is kept.
 */
#include <string.h>
#include "rook_ai_internal.h"

/* The bidder is dealt trumps this many times likelier than another seat. */
#define ROOK_AI_TRUMP_FACTOR 3
/* Deals tried for one that fits every seat's bids (else the closest). */
#define ROOK_AI_BID_TRIES 24
#define ROOK_AI_BID_SLACK 10

void rook_ai_sample_view(const rook_view *v, rook_ai_vinfo *vi)
{
	memset(vi, 0, sizeof *vi);
	rcardset known = v->hand | v->played;
	if (v->discard != ROOK_NONE)
		known |= rook_bit(v->discard);
	vi->unknown = ROOK_AI_ALL & ~known;
	int played[ROOK_SEATS] = { 0 };
	vi->me = v->seat;
	if (v->phase == ROOK_PHASE_PLAY) {
		for (int t = 0; t < v->trick_no && t < ROOK_TRICKS; t++)
			for (int i = 0; i < v->taken[t].n; i++) {
				played[v->taken[t].seat[i] & 3]++;
				vi->gone[v->taken[t].seat[i] & 3] |= rook_bit(v->taken[t].card[i]);
			}
		for (int i = 0; i < v->trick.n; i++) {
			played[v->trick.seat[i] & 3]++;
			vi->gone[v->trick.seat[i] & 3] |= rook_bit(v->trick.card[i]);
		}
	}
	int high = 0;
	for (int i = 0; i < v->nbidlog && i < ROOK_BIDLOG_MAX; i++) {
		int s = v->bidlog[i].seat & 3, b = v->bidlog[i].value;
		if (b) {
			vi->bid_hi[s] = b;
			high = b;
		} else {
			vi->pass_at[s] = high ? high + 5 : ROOK_MIN_BID;
		}
	}
	for (int s = 0; s < ROOK_SEATS; s++) {
		if (s == v->seat)
			continue;
		vi->cap[s] = ROOK_TRICKS - played[s];
		rcardset allow = ROOK_AI_ALL;
		for (int c = 0; c < ROOK_COLOURS; c++)
			if (v->voids[s] >> c & 1)
				allow &= ~rook_ai_suit_mask(v->trump, c);
		vi->allow[s] = allow;
	}
	if (v->phase == ROOK_PHASE_BID) {
		vi->cap[4] = 1;
		vi->allow[4] = ROOK_AI_ALL;
	} else if (v->seat != v->bidder && v->bidder < ROOK_SEATS) {
		/* Another seat's discard: laid after the nest was taken. Before
		 * it is laid (the discard phase) the bidder holds 15. */
		rcardset counters = 0;
		for (rcard c = 0; c < ROOK_CARDS; c++)
			if (rook_points(c))
				counters |= rook_bit(c);
		if (v->phase == ROOK_PHASE_DISCARD) {
			vi->cap[v->bidder]++;
		} else {
			vi->cap[4] = 1;
			vi->allow[4] = ROOK_AI_ALL & ~counters;
		}
	}
	/* The bidder named trumps: it likely holds more of them. */
	if (v->trump >= 0 && v->bidder < ROOK_SEATS && v->bidder != v->seat) {
		vi->favour[v->bidder] = rook_ai_suit_mask(v->trump, v->trump);
		vi->factor = ROOK_AI_TRUMP_FACTOR;
	}
	int total = 0;
	for (int s = 0; s < 5; s++)
		total += vi->cap[s];
	vi->ok = total == rook_count(vi->unknown);
}

/* How far a hand is from what its seat's bids said of it: a plain
 * measure of strength (its counters and the length of its best colour,
 * as the rule-based player bids) against the bids it made and passed. */
static int bid_misfit(const rook_ai_vinfo *vi, const rcardset got[5])
{
	int miss = 0;
	for (int s = 0; s < ROOK_SEATS; s++) {
		if (s == vi->me || (!vi->bid_hi[s] && !vi->pass_at[s]))
			continue;
		rcardset h = got[s] | vi->gone[s];
		int best = 0;
		for (int c = 0; c < ROOK_COLOURS; c++) {
			int k = rook_count(h & rook_colour_mask(c));
			if (k > best)
				best = k;
		}
		int limit = rook_set_points(h) + 8 * best + 40;
		if (vi->bid_hi[s] && limit < vi->bid_hi[s] - ROOK_AI_BID_SLACK)
			miss += vi->bid_hi[s] - ROOK_AI_BID_SLACK - limit;
		if (vi->pass_at[s] && limit >= vi->pass_at[s] + ROOK_AI_BID_SLACK)
			miss += limit - vi->pass_at[s] - ROOK_AI_BID_SLACK + 1;
	}
	return miss;
}

static int deal_once(const rook_ai_vinfo *vi, rng *r, rcardset got[5]);


void rook_ai_sample_deal(const rook_ai_vinfo *vi, rng *r, rcardset hands[ROOK_SEATS], rcard *slot)
{
	rcardset best[5] = { 0 };
	int bm = -1;
	for (int k = 0; k < ROOK_AI_BID_TRIES; k++) {
		rcardset got[5];
		deal_once(vi, r, got);
		int m = bid_misfit(vi, got);
		if (bm < 0 || m < bm) {
			bm = m;
			memcpy(best, got, sizeof best);
		}
		if (!m)
			break;
	}
	for (int s = 0; s < ROOK_SEATS; s++)
		hands[s] |= best[s];
	*slot = best[4] ? rook_first(best[4]) : ROOK_NONE;
}

static int deal_once(const rook_ai_vinfo *vi, rng *r, rcardset got[5])
{
	rcard cards[ROOK_CARDS];
	int n = 0;
	for (rcardset s = vi->unknown; s; s &= s - 1)
		cards[n++] = rook_first(s);
	for (int attempt = 0; attempt < 40; attempt++) {
		int relax = attempt >= 39; /* the view's voids cannot all hold: deal anyway */
		rng_shuffle_in(r, cards, n);
		/* The most constrained cards first. */
		rcard order[ROOK_CARDS];
		int k = 0;
		for (int want = 1; want <= 5; want++)
			for (int i = 0; i < n; i++) {
				int e = 0;
				for (int s = 0; s < 5; s++)
					e += vi->cap[s] && (vi->allow[s] >> cards[i] & 1);
				if ((e < 1 ? 1 : e) == want)
					order[k++] = cards[i];
			}
		int cap[5];
		memcpy(cap, vi->cap, sizeof cap);
		memset(got, 0, 5 * sizeof got[0]);
		int ok = 1;
		for (int i = 0; i < k && ok; i++) {
			rcard c = order[i];
			int w = 0;
			int wt[5];
			for (int s = 0; s < 5; s++) {
				wt[s] = cap[s] && (relax || (vi->allow[s] >> c & 1)) ? cap[s] : 0;
				if (vi->favour[s] >> c & 1)
					wt[s] *= vi->factor;
				w += wt[s];
			}
			if (!w) {
				ok = 0;
				break;
			}
			int x = (int)rng_below(r, (uint32_t)w), s = 0;
			for (;; s++)
				if (wt[s]) {
					if (x < wt[s])
						break;
					x -= wt[s];
				}
			cap[s]--;
			got[s] |= rook_bit(c);
		}
		if (ok)
			return 1;
	}
	return 0; /* unreachable: the relaxed attempt always deals */
}
