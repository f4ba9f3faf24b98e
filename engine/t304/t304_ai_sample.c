/* t304_ai_sample.c: what a Trump304 view tells about the cards the seat
 * cannot see, and deals sampled consistently with it: the voids each seat
 * showed, the cards gone, the revealed trump card in the trumper's hand,
 * the face-down trump card (its suit unknown to all but the trumper), the
 * two-player pile and the three-player centre or put-down cards.
 */
#include <string.h>
#include "t304_ai_internal.h"

static int in_trick(const t304_trick *t, int seat)
{
	for (int i = 0; i < t->n; i++)
		if (t->seat[i] == seat)
			return 1;
	return 0;
}

void t3_info(const t304_view *v, t3info *in)
{
	memset(in, 0, sizeof *in);
	in->me = v->seat;
	in->nseats = v->nseats;
	in->trumper = v->trumper;
	in->tsuit = v->trump_suit;
	if (v->phase != T304_PHASE_PLAY || v->trumper >= v->nseats)
		return;
	cardset gone = 0;
	for (int s = 0; s < v->nseats; s++)
		gone |= v->played[s];
	cardset seen = v->hand | gone | v->putdown;
	if (v->trump_card != CARD_NONE) {
		seen |= card_bit(v->trump_card);
		if (v->revealed && v->trumper != v->seat && !(gone & card_bit(v->trump_card)))
			in->known[v->trumper] |= card_bit(v->trump_card);
	}
	in->played_tr = v->played[v->trumper];
	int left = v->ntricks - v->trick_no - v->npile / 2;
	int slots = 0;
	for (int s = 0; s < v->nseats; s++) {
		int size = left - in_trick(&v->trick, s) - (s == v->trumper && v->trump_aside);
		if (s == v->seat) {
			if (size != cardset_count(v->hand))
				return;
			continue;
		}
		in->need[s] = size - cardset_count(in->known[s]);
		if (in->need[s] < 0)
			return;
		in->voids[s] = v->voids[s];
		slots += in->need[s];
	}
	in->aside_slot = v->trump_aside && v->seat != v->trumper;
	in->npile = v->npile;
	if (v->nseats == 3)
		in->nout = v->seat == v->trumper && v->exchanged ? 0 : 2;
	slots += in->aside_slot + in->npile + in->nout;
	cardset known = 0;
	for (int s = 0; s < v->nseats; s++)
		known |= in->known[s];
	in->unknown = 0xffffffffu & ~seen & ~known;
	in->ok = cardset_count(in->unknown) == slots;
}

/* Groups: seats 0..3, then the trump card aside, the pile, the cards out. */
enum { G_ASIDE = T304_MAX_SEATS, G_PILE, G_OUT, G_COUNT };

static int deal_once(const t3info *in, rng *r, int use_voids, cardset got[G_COUNT])
{
	int cap[G_COUNT] = { 0 };
	for (int s = 0; s < in->nseats; s++)
		cap[s] = s == in->me ? 0 : in->need[s];
	cap[G_ASIDE] = in->aside_slot;
	cap[G_PILE] = in->npile;
	cap[G_OUT] = in->nout;
	card cards[CARD_COUNT];
	int n = rng_shuffle_set(r, in->unknown, cards), nopt[CARD_COUNT];
	/* The most constrained cards first (a stable insertion sort). */
	for (int i = 0; i < n; i++) {
		int k = 0, su = card_suit(cards[i]);
		for (int g = 0; g < G_COUNT; g++)
			if (cap[g] && (g >= G_ASIDE || !use_voids || !(in->voids[g] >> su & 1)))
				k++;
		nopt[i] = k;
	}
	for (int i = 1; i < n; i++) {
		card c = cards[i];
		int k = nopt[i], j = i - 1;
		for (; j >= 0 && nopt[j] > k; j--) {
			cards[j + 1] = cards[j];
			nopt[j + 1] = nopt[j];
		}
		cards[j + 1] = c;
		nopt[j + 1] = k;
	}
	memset(got, 0, sizeof(cardset) * G_COUNT);
	for (int i = 0; i < n; i++) {
		int su = card_suit(cards[i]), total = 0;
		int ok[G_COUNT];
		for (int g = 0; g < G_COUNT; g++) {
			ok[g] = cap[g] && (g >= G_ASIDE || !use_voids || !(in->voids[g] >> su & 1)) ? cap[g] : 0;
			total += ok[g];
		}
		if (!total)
			return 0;
		int pick = (int)rng_below(r, (uint32_t)total), g = 0;
		while (pick >= ok[g])
			pick -= ok[g++];
		got[g] |= card_bit(cards[i]);
		cap[g]--;
	}
	return 1;
}

/* How likely the trumper chose suit su, from what it holds in the sample:
 * a plausible choice is among its longest suits. */
static int plausible(const t3info *in, cardset had, int su)
{
	int len = cardset_count(had & suit_mask(su)), max = 0;
	for (int x = 0; x < SUIT_COUNT; x++) {
		int k = cardset_count(had & suit_mask(x));
		if (k > max)
			max = k;
	}
	(void)in;
	return len >= max - 1 && len >= 2;
}

int t3_sample(const t304_view *v, const t3info *in, rng *r, t3pos *p)
{
	if (!in->ok)
		return 0;
	cardset got[G_COUNT];
	int done = 0;
	for (int attempt = 0; attempt < 40 && !done; attempt++) {
		if (!deal_once(in, r, attempt < 30, got))
			continue;
		done = 1;
		if (in->aside_slot && attempt < 20) {
			card tc = cardset_first(got[G_ASIDE]);
			cardset had = got[in->trumper] | in->known[in->trumper] | in->played_tr | got[G_ASIDE];
			if (!plausible(in, had, card_suit(tc)))
				done = 0;
		}
	}
	if (!done)
		return 0;
	memset(p, 0, sizeof *p);
	p->nseats = v->nseats;
	p->ntricks = v->ntricks;
	p->trick_no = v->trick_no;
	p->trumper = v->trumper;
	p->bid = v->bid;
	p->aside = v->trump_aside;
	if (in->aside_slot) {
		p->tcard = cardset_first(got[G_ASIDE]);
	} else {
		p->tcard = v->trump_card;
	}
	p->tsuit = (uint8_t)card_suit(p->tcard);
	for (int s = 0; s < v->nseats; s++) {
		p->hand[s] = s == v->seat ? v->hand : got[s] | in->known[s];
		p->held[s] = p->hand[s] | v->played[s];
		if (t304_same_side(v->nseats, v->trumper, s, v->trumper))
			p->pts = (int16_t)(p->pts + cardset_points(v->won[s]));
	}
	if (v->nseats == 2)
		p->held[v->seat] |= v->held;
	p->npile = (uint8_t)in->npile;
	int k = T304_PILE - in->npile;
	for (cardset x = got[G_PILE]; x; x &= x - 1)
		p->pile[k++] = cardset_first(x);
	rng_shuffle_in(r, p->pile + T304_PILE - in->npile, in->npile);
	p->n = v->trick.n;
	p->cut = v->trick.cut;
	for (int i = 0; i < v->trick.n; i++) {
		p->seat[i] = v->trick.seat[i];
		p->card[i] = v->trick.card[i];
	}
	p->turn = v->turn;
	p->must_cut = v->must_cut;
	return 1;
}
