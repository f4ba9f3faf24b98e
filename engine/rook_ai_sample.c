/* rook_ai_sample.c: deals of the hidden cards consistent with one seat's
 * view: its own hand, every card it saw played, its own discard, the
 * colours each seat showed void, how many cards each seat holds, and the
 * nest (during bidding) or another seat's discard (never a counter).
 */
#include <string.h>
#include "rook_ai_internal.h"

void rook_ai_sample_view(const rook_view *v, rook_ai_vinfo *vi)
{
	memset(vi, 0, sizeof *vi);
	rcardset known = v->hand | v->played;
	if (v->discard != ROOK_NONE)
		known |= rook_bit(v->discard);
	vi->unknown = ROOK_AI_ALL & ~known;
	int played[ROOK_SEATS] = { 0 };
	if (v->phase == ROOK_PHASE_PLAY) {
		for (int t = 0; t < v->trick_no && t < ROOK_TRICKS; t++)
			for (int i = 0; i < v->taken[t].n; i++)
				played[v->taken[t].seat[i] & 3]++;
		for (int i = 0; i < v->trick.n; i++)
			played[v->trick.seat[i] & 3]++;
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
	int total = 0;
	for (int s = 0; s < 5; s++)
		total += vi->cap[s];
	vi->ok = total == rook_count(vi->unknown);
}

void rook_ai_sample_deal(const rook_ai_vinfo *vi, rng *r, rcardset hands[ROOK_SEATS], rcard *slot)
{
	rcard cards[ROOK_CARDS];
	int n = 0;
	for (rcardset s = vi->unknown; s; s &= s - 1)
		cards[n++] = rook_first(s);
	for (int attempt = 0; attempt < 40; attempt++) {
		int relax = attempt >= 39; /* the view's voids cannot all hold: deal anyway */
		rng_shuffle(r, cards, n);
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
		rcardset got[5] = { 0 };
		int ok = 1;
		for (int i = 0; i < k && ok; i++) {
			rcard c = order[i];
			int w = 0;
			for (int s = 0; s < 5; s++)
				if (cap[s] && (relax || (vi->allow[s] >> c & 1)))
					w += cap[s];
			if (!w) {
				ok = 0;
				break;
			}
			int x = (int)rng_below(r, (uint32_t)w), s = 0;
			for (;; s++)
				if (cap[s] && (relax || (vi->allow[s] >> c & 1))) {
					if (x < cap[s])
						break;
					x -= cap[s];
				}
			cap[s]--;
			got[s] |= rook_bit(c);
		}
		if (!ok)
			continue;
		for (int s = 0; s < ROOK_SEATS; s++)
			hands[s] |= got[s];
		*slot = got[4] ? rook_first(got[4]) : ROOK_NONE;
		return;
	}
	*slot = ROOK_NONE; /* unreachable: the relaxed attempt always deals */
}
