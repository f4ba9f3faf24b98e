/* g304_ai_sample.c: what a view tells about the hidden cards (voids, cards
 * known to be in a hand, face-down cards, the closed trump, the bids), and
 * the sampling of deals consistent with it.
 */
#include <string.h>
#include "g304_ai_internal.h"

#define MAX_GROUPS 40
typedef struct group {
	uint8_t seat, mask, cap, kind; /* kind: 0 hand, 1 hidden played card, 2 trump card */
	uint8_t trick, pos;
	cardset got;
} group;

void g304_ai_sample_view(const g304_view *v, g304_ai_vinfo *vi)
{
	memset(vi, 0, sizeof *vi);
	int me = v->seat;
	vi->me = me;
	vi->trumper = v->trumper;
	vi->tsuit = v->trump_suit;
	vi->pcc = v->pcc;
	vi->sitting_out = v->pcc ? g304_first_out(v->sitting_out) : -1;
	cardset seen = v->hand;
	int played[G304_SEATS] = { 0 };
	cardset tricks_seen = 0;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (t->n == 0)
			continue;
		int led = card_suit(t->card[0]);
		for (int k = 0; k < t->n; k++) {
			int s = t->seat[k];
			card c = t->card[k];
			played[s]++;
			if (c != CARD_NONE) {
				seen |= card_bit(c);
				tricks_seen |= card_bit(c);
				if (k > 0 && card_suit(c) != led)
					vi->voids[s] |= (uint8_t)(1u << led);
			} else if (vi->nhidden < 32) {
				int h = vi->nhidden++;
				vi->htrick[h] = (uint8_t)i;
				vi->hpos[h] = (uint8_t)k;
				vi->hseat[h] = (uint8_t)s;
				vi->hled[h] = (uint8_t)led;
				vi->hcur[h] = !g304_ai_trick_full(v, t);
				vi->voids[s] |= (uint8_t)(1u << led);
			}
		}
	}
	int trumper = v->trumper;
	if (v->trump_card != CARD_NONE) {
		seen |= card_bit(v->trump_card);
		if (trumper != me && trumper < G304_SEATS && !v->trump_down && !(tricks_seen & card_bit(v->trump_card)))
			vi->known[trumper] |= card_bit(v->trump_card);
	}
	vi->trump_slot = v->trump_down && trumper != me && v->trump_card == CARD_NONE;
	/* A caps call shows the caller's cards. */
	int cs = v->caps_seat;
	if (cs < G304_SEATS && cs != me && !(cs == trumper && v->trump_down))
		for (int k = v->caps_k; k < v->caps_norder && k < G304_TRICKS; k++)
			if (v->caps_order[k] < CARD_COUNT && !(seen & card_bit(v->caps_order[k])))
				vi->known[cs] |= card_bit(v->caps_order[k]);
	cardset known_all = seen;
	for (int s = 0; s < G304_SEATS; s++)
		known_all |= vi->known[s];
	vi->unknown = ALL_CARDS & ~known_all;
	int total = 0;
	for (int s = 0; s < G304_SEATS; s++) {
		if (s == me)
			continue;
		int size = G304_TRICKS - played[s] - (s == trumper && v->trump_down);
		vi->need[s] = size - cardset_count(vi->known[s]);
		if (vi->need[s] < 0)
			return;
		total += vi->need[s];
	}
	total += vi->nhidden + vi->trump_slot;
	for (int i = 0; i < v->nbidlog; i++) {
		const g304_bidlog *b = &v->bidlog[i];
		if (b->seat >= G304_SEATS)
			continue;
		int *m = b->round == 8 ? vi->bidmax8 : vi->bidmax4;
		if (b->value > m[b->seat])
			m[b->seat] = b->value;
	}
	vi->ok = total == cardset_count(vi->unknown);
}

/* Hall's condition over the four suits: can the remaining cards (count per
 * suit) fill the groups' remaining room exactly? cap is room per suit mask. */
static int hall_ok(const int cnt[SUIT_COUNT], const int cap[16])
{
	for (int S = 1; S < 16; S++) {
		int need = 0, room = 0;
		for (int x = 0; x < SUIT_COUNT; x++)
			if (S >> x & 1)
				need += cnt[x];
		for (int m = 1; m < 16; m++)
			if (m & S)
				room += cap[m];
		if (need > room)
			return 0;
	}
	return 1;
}

/* Lays out the groups for a trump suit ts (-1: none known, no constraint). */
static int make_groups(const g304_ai_vinfo *vi, int ts, group *gr)
{
	int ng = 0;
	uint8_t tbit = ts >= 0 ? (uint8_t)(1u << ts) : 0;
	for (int s = 0; s < G304_SEATS; s++)
		if (s != vi->me && vi->need[s] > 0)
			gr[ng++] = (group){ (uint8_t)s, (uint8_t)(0xf & ~vi->voids[s]), (uint8_t)vi->need[s], 0, 0, 0, 0 };
	for (int h = 0; h < vi->nhidden; h++) {
		/* A card still face down after its trick was inspected is no trump;
		 * in the trick in play it may be anything but the led suit. */
		uint8_t m = (uint8_t)(0xf & ~(1u << vi->hled[h]));
		if (!vi->hcur[h])
			m &= (uint8_t)~tbit;
		gr[ng++] = (group){ vi->hseat[h], m, 1, 1, vi->htrick[h], vi->hpos[h], 0 };
	}
	if (vi->trump_slot)
		gr[ng++] = (group){ (uint8_t)vi->trumper, tbit ? tbit : 0xf, 1, 2, 0, 0, 0 };
	return ng;
}

int g304_ai_sample_cards(cardset s, rng *r, card out[CARD_COUNT])
{
	return rng_shuffle_set(r, s, out);
}

/* Deals the unknown cards into the groups at random, keeping every step
 * completable. Returns 0 if the groups cannot be filled at all. */
static int fill_groups(const g304_ai_vinfo *vi, group *gr, int ng, rng *r)
{
	int cnt[SUIT_COUNT] = { 0 }, cap[16] = { 0 };
	card cards[CARD_COUNT];
	int nc = g304_ai_sample_cards(vi->unknown, r, cards);
	for (int i = 0; i < nc; i++)
		cnt[card_suit(cards[i])]++;
	for (int g = 0; g < ng; g++) {
		gr[g].got = 0;
		cap[gr[g].mask] += gr[g].cap;
	}
	if (!hall_ok(cnt, cap))
		return 0;
	uint8_t room[MAX_GROUPS];
	for (int g = 0; g < ng; g++)
		room[g] = gr[g].cap;
	for (int i = 0; i < nc; i++) {
		card c = cards[i];
		int x = card_suit(c);
		cnt[x]--;
		uint64_t tried = 0;
		for (;;) {
			int sum = 0;
			for (int g = 0; g < ng; g++)
				if (room[g] && (gr[g].mask >> x & 1) && !(tried >> g & 1))
					sum += room[g];
			if (!sum)
				return 0; /* cannot happen once Hall's condition held */
			int pick = (int)rng_below(r, (uint32_t)sum), g = 0;
			for (;; g++)
				if (room[g] && (gr[g].mask >> x & 1) && !(tried >> g & 1)) {
					if (pick < room[g])
						break;
					pick -= room[g];
				}
			cap[gr[g].mask]--;
			if (hall_ok(cnt, cap)) {
				room[g]--;
				gr[g].got |= card_bit(c);
				break;
			}
			cap[gr[g].mask]++;
			tried |= 1ull << g;
		}
	}
	return 1;
}

/* How likely the sampled cards make the bids: a seat that bid holds more
 * points than average. Returns an acceptance chance in 1/1024ths. */
static int bids_weight(const g304_ai_vinfo *vi, const cardset dealt[G304_SEATS])
{
	double w = 1.0;
	for (int s = 0; s < G304_SEATS; s++) {
		if (s == vi->me)
			continue;
		int pts = cardset_points(dealt[s]);
		int need = 0;
		if (vi->bidmax8[s] >= G304_BID8_MIN)
			need = vi->bidmax8[s] >= G304_BID_PCC ? 150 : 110 + (vi->bidmax8[s] - 250);
		else if (vi->bidmax4[s] >= G304_MIN_BID)
			need = 60 + (vi->bidmax4[s] - 160) / 2;
		if (need && pts < need) {
			double d = (need - pts) / 25.0;
			w *= 1.0 / (1.0 + d * d);
		}
	}
	return (int)(w * 1024);
}

/* Can the unseen cards fill the groups with ts as the trump suit? */
static int feasible(const g304_ai_vinfo *vi, int ts)
{
	group gr[MAX_GROUPS];
	int ng = make_groups(vi, ts, gr);
	int cnt[SUIT_COUNT] = { 0 }, cap[16] = { 0 };
	for (int x = 0; x < SUIT_COUNT; x++)
		cnt[x] = cardset_count(vi->unknown & suit_mask(x));
	for (int g = 0; g < ng; g++)
		cap[gr[g].mask] += gr[g].cap;
	return hall_ok(cnt, cap);
}

/* Builds a full position consistent with the view. Returns 0 on failure. */
int g304_ai_sample_deal(const g304_view *v, const g304_ai_vinfo *vi, rng *r, g304_ai_pos *p)
{
	group gr[MAX_GROUPS], good[MAX_GROUPS];
	int ts = vi->tsuit, ng = 0, filled = 0, good_ng = 0, good_ts = ts;
	for (int attempt = 0; attempt < 24; attempt++) {
		if (vi->tsuit < 0 && vi->trump_slot) {
			/* Unknown closed trump: a suit with cards left unseen, for
			 * which the unseen cards can fill every place. */
			int cnt[SUIT_COUNT] = { 0 }, sum = 0;
			for (int x = 0; x < SUIT_COUNT; x++) {
				int n = cardset_count(vi->unknown & suit_mask(x));
				if (n && feasible(vi, x))
					sum += cnt[x] = n;
			}
			if (!sum)
				return 0;
			int pick = (int)rng_below(r, (uint32_t)sum);
			for (ts = 0; pick >= cnt[ts]; ts++)
				pick -= cnt[ts];
		}
		ng = make_groups(vi, ts, gr);
		if (!fill_groups(vi, gr, ng, r))
			continue;
		filled = 1;
		memcpy(good, gr, sizeof gr[0] * (size_t)ng);
		good_ng = ng;
		good_ts = ts;
		if (attempt >= 16)
			break;
		/* The sampled deal's likelihood: the trumper named its best suit,
		 * and bidders hold points. */
		cardset dealt[G304_SEATS];
		for (int s = 0; s < G304_SEATS; s++)
			dealt[s] = s == vi->me ? v->hand : vi->known[s];
		for (int g = 0; g < ng; g++)
			dealt[gr[g].seat] |= gr[g].got;
		for (int i = 0; i < v->ntricks; i++)
			for (int k = 0; k < v->tricks[i].n; k++)
				if (v->tricks[i].card[k] != CARD_NONE)
					dealt[v->tricks[i].seat[k]] |= card_bit(v->tricks[i].card[k]);
		int w = bids_weight(vi, dealt);
		if (vi->tsuit < 0 && vi->trump_slot && vi->trumper < G304_SEATS) {
			cardset th = dealt[vi->trumper];
			int best = 0, mine = cardset_count(th & suit_mask(ts));
			for (int x = 0; x < SUIT_COUNT; x++)
				if (cardset_count(th & suit_mask(x)) > best)
					best = cardset_count(th & suit_mask(x));
			w = w * (mine + 1) / (best + 1);
		}
		if ((int)rng_below(r, 1024) < w)
			break;
	}
	if (!filled)
		return 0;
	/* The last deal that filled (a later attempt may have failed). */
	memcpy(gr, good, sizeof gr[0] * (size_t)good_ng);
	ng = good_ng;
	ts = good_ts;
	memset(p, 0, sizeof *p);
	for (int s = 0; s < G304_SEATS; s++)
		p->hand[s] = s == vi->me ? v->hand : vi->known[s];
	card tcard = v->trump_card;
	card tricks_card[G304_TRICKS][G304_SEATS];
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < G304_SEATS; k++)
			tricks_card[i][k] = v->tricks[i].card[k];
	for (int g = 0; g < ng; g++) {
		if (gr[g].kind == 0)
			p->hand[gr[g].seat] |= gr[g].got;
		else if (gr[g].kind == 1)
			tricks_card[gr[g].trick][gr[g].pos] = cardset_first(gr[g].got);
		else
			tcard = cardset_first(gr[g].got);
	}
	g304_ai_pos_contract(p, v->bid, v->trumper, (uint8_t)(ts >= 0 ? ts : tcard != CARD_NONE ? card_suit(tcard) : 0), tcard,
			     v->trump_down, v->trump_open, v->dealer, v->pcc, v->sitting_out);
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *t = &v->tricks[i];
		if (t->winner < G304_SEATS) {
			int pts = 0;
			for (int k = 0; k < t->n; k++)
				pts += g304_ai_pts(tricks_card[i][k]);
			p->pts[t->winner & 1] = (int16_t)(p->pts[t->winner & 1] + pts);
			p->tricks[t->winner & 1]++;
			continue;
		}
		p->trick_no = (uint8_t)i;
		p->n = t->n;
		for (int k = 0; k < t->n; k++) {
			p->seat[k] = t->seat[k];
			p->card[k] = tricks_card[i][k];
		}
	}
	p->turn = v->turn;
	return 1;
}
