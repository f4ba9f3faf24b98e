/* t304_ai_bid.c: bidding, the trump card and the three-player exchange by
 * simulation: the seat deals the cards it cannot see at random many times,
 * plays each deal out with the playout policy as the trumper, and reads
 * from the points it took how often each bid would be made. The strong
 * player of now (t3_strong_now) solves each deal's last T3_BID_EXACT tricks
 * exactly instead, and may be stopped by its budget after one deal.
 */
#include <stdlib.h>
#include <string.h>
#include "t304_ai_internal.h"

static unsigned sims_of(const game_ai_params *p)
{
	if (p->samples)
		return p->samples;
	if (t3_strong_now(p))
		return T3_STRONG_SIMS;
	return p->level >= GAME_AI_STRONG ? 160 : 40;
}

/* A fresh deal as seen by `me` (the trumper) holding `hand` with trump card
 * tc aside; the other cards dealt from `rest` at random. Three players:
 * *centre gets the two centre cards. */
static void fresh(t3pos *p, int nseats, int me, int dealer, int bid, cardset hand, card tc, cardset rest,
		  rng *r, cardset *centre)
{
	memset(p, 0, sizeof *p);
	p->nseats = (uint8_t)nseats;
	p->ntricks = (uint8_t)(nseats == 2 ? 16 : nseats == 3 ? 10 : 8);
	p->trumper = (uint8_t)me;
	p->tcard = tc;
	p->tsuit = (uint8_t)card_suit(tc);
	p->aside = 1;
	p->bid = (uint16_t)bid;
	card cards[CARD_COUNT];
	int n = rng_shuffle_set(r, rest, cards);
	int per = nseats == 4 ? 8 : 10, k = 0;
	p->hand[me] = hand & ~card_bit(tc);
	for (int s = 0; s < nseats; s++) {
		if (s == me)
			continue;
		for (int j = 0; j < per && k < n; j++)
			p->hand[s] |= card_bit(cards[k++]);
	}
	if (nseats == 2) {
		p->npile = T304_PILE;
		for (int j = 0; j < T304_PILE && k < n; j++)
			p->pile[j] = cards[k++];
	}
	if (centre)
		*centre = 0;
	if (nseats == 3)
		for (; k < n; k++)
			*centre |= card_bit(cards[k]);
	for (int s = 0; s < nseats; s++)
		p->held[s] = p->hand[s];
	t3_start(p, bid >= T304_BID_ALL ? me : (dealer + 1) % nseats);
}

/* Plays p out; the trumper's points, or -1 when the deal was spoilt. With
 * sv, the last `exact` tricks (the pile gone) are solved exactly: -2 when
 * the budget cut the solve short. */
static int play_out(t3pos *p, rng *r, game_ai_stats *st, t3solver *sv, int exact)
{
	cardset suit = suit_mask(p->tsuit);
	if (p->nseats != 2) {
		cardset side = card_bit(p->tcard);
		for (int s = 0; s < p->nseats; s++)
			if (t3_side(p, s) == 0)
				side |= p->hand[s];
		if ((side & suit) == suit)
			return -1;
	}
	if (sv && exact > 0) {
		while (!p->over && (p->npile || p->ntricks - p->trick_no > exact)) {
			card c = t3_policy(p, r, 1);
			if (c == CARD_NONE)
				break;
			t3_play(p, c);
		}
		if (!p->over) {
			int got = t3_solve(sv, p, -1, 1000);
			if (sv->aborted)
				return -2;
			p->pts = (int16_t)(p->pts + got);
			p->over = 1;
			if (st)
				st->solves++;
			return p->pts;
		}
		return p->spoilt ? -1 : p->pts;
	}
	t3_playout(p, r);
	if (st)
		st->playouts++;
	return p->spoilt ? -1 : p->pts;
}

/* The trump card of a suit: its cheapest card. */
static card trump_card_of(cardset hand, int su)
{
	cardset s = hand & suit_mask(su);
	card best = CARD_NONE;
	for (; s; s &= s - 1) {
		card c = cardset_first(s);
		if (best == CARD_NONE || card_points(c) < card_points(best))
			best = c;
	}
	return best;
}

/* The solver for a decision's simulated deals: the number of tricks to
 * solve exactly at the end of each (0: play them out, sv unused). */
static int exact_start(const game_ai_params *prm, t3solver *sv)
{
	memset(sv, 0, sizeof *sv);
	if (!t3_strong_now(prm))
		return 0;
	sv->tt = calloc((size_t)1 << T3_TT_BITS, sizeof *sv->tt);
	return sv->tt ? T3_BID_EXACT : 0;
}

/* From the second simulated deal on, the budget may cut a solve short. */
static void exact_may_stop(t3solver *sv, const game_ai_params *prm)
{
	sv->stop = prm->stop;
	sv->stop_ctx = prm->stop_ctx;
}

/* Expected tokens to the trumper of bidding `bid` given simulated points. */
static double ev_of(const int *pts, int n, int bid, int nseats)
{
	double sum = 0;
	int k = nseats == 3 ? 2 : 1;
	for (int i = 0; i < n; i++)
		if (pts[i] >= 0)
			sum += pts[i] >= bid ? t304_payoff(bid) * k : -t304_charge(bid) * k;
	return n ? sum / n : 0;
}

#define MAX_SIMS 1024

/* Simulated points for each suit the hand holds (n sims each; the same
 * deals for every suit). Returns the sims done (the stop may end them
 * early, after the first, for the strong player of now). */
static unsigned simulate(const t304_view *v, cardset hand, int me, int bid, unsigned n, uint64_t seed,
			 int pts[SUIT_COUNT][MAX_SIMS], const game_ai_params *prm, game_ai_stats *st)
{
	rng r[SUIT_COUNT];
	card tc[SUIT_COUNT];
	int nsuits = 0;
	for (int su = 0; su < SUIT_COUNT; su++) {
		tc[su] = trump_card_of(hand, su);
		rng_seed(&r[su], seed);
		nsuits += tc[su] != CARD_NONE;
	}
	t3solver sv;
	int now = t3_strong_now(prm), exact = exact_start(prm, &sv);
	unsigned i;
	for (i = 0; i < n; i++) {
		if (now && i && prm->stop && prm->stop(prm->stop_ctx))
			break;
		if (i == 1)
			exact_may_stop(&sv, prm);
		int aborted = 0;
		for (int su = 0; su < SUIT_COUNT; su++) {
			if (tc[su] == CARD_NONE)
				continue;
			t3pos p;
			cardset centre;
			fresh(&p, v->nseats, me, v->dealer, bid, hand, tc[su], ~hand, &r[su], &centre);
			pts[su][i] = play_out(&p, &r[su], st, exact ? &sv : NULL, exact);
			aborted |= pts[su][i] == -2;
		}
		if (aborted)
			break;
	}
	free(sv.tt);
	if (st && nsuits)
		st->samples += i;
	return i;
}

int t3_bid(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st, t304_action *a)
{
	a->type = T304_ACT_PASS;
	int can_bid = l->acts >> T304_ACT_BID & 1;
	if (can_bid && !l->can_pass) {
		a->type = T304_ACT_BID;
		a->value = l->bid_min;
		return 1;
	}
	if (!can_bid)
		return 1;
	unsigned n = sims_of(prm);
	if (n > MAX_SIMS)
		n = MAX_SIMS;
	int pts[SUIT_COUNT][MAX_SIMS];
	uint64_t seed = prm->seed ^ 0xb1d5eedull ^ ((uint64_t)v->deal_no << 24) ^ v->nbidlog;
	/* Points hardly depend on the bid (only who leads at 304). */
	n = simulate(v, v->hand, v->seat, l->bid_min, n, seed, pts, prm, st);
	/* Passing is worth about nothing: bid only for a clear gain. Over a
	 * partner's bid, passing leaves the partner a contract this hand
	 * helps: overbid only for a large gain. */
	double best_ev = 0.25;
	if (v->nseats == 4 && v->bidder < v->nseats && (v->bidder & 1) == (v->seat & 1))
		best_ev = 2.0;
	int best_bid = 0;
	for (int b = l->bid_min; b <= l->bid_max; b = b == T304_MAX_NUMERIC ? T304_BID_ALL : b >= T304_BID_ALL ? T304_BID_ALL + 1 : b + 10) {
		if (!t304_bid_ok(b))
			continue;
		for (int su = 0; su < SUIT_COUNT; su++) {
			if (trump_card_of(v->hand, su) == CARD_NONE)
				continue;
			double ev = ev_of(pts[su], (int)n, b, v->nseats);
			if (ev > best_ev + 1e-9) {
				best_ev = ev;
				best_bid = b;
			}
		}
	}
	if (best_bid) {
		a->type = T304_ACT_BID;
		a->value = (uint16_t)best_bid;
	}
	return 1;
}

int t3_trump(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st, t304_action *a)
{
	unsigned n = sims_of(prm);
	if (n > MAX_SIMS)
		n = MAX_SIMS;
	int pts[SUIT_COUNT][MAX_SIMS];
	uint64_t seed = prm->seed ^ 0x7e3bull ^ ((uint64_t)v->deal_no << 24);
	n = simulate(v, l->cards, v->seat, v->bid, n, seed, pts, prm, st);
	double best = -1e9;
	a->type = T304_ACT_TRUMP;
	a->card = CARD_NONE;
	for (int su = 0; su < SUIT_COUNT; su++) {
		card tc = trump_card_of(l->cards, su);
		if (tc == CARD_NONE)
			continue;
		double ev = ev_of(pts[su], (int)n, v->bid, v->nseats);
		long sum = 0;
		for (unsigned i = 0; i < n; i++)
			sum += pts[su][i] > 0 ? pts[su][i] : 0;
		ev += (double)sum / n * 0.002;
		if (ev > best) {
			best = ev;
			a->card = tc;
		}
	}
	return a->card != CARD_NONE;
}

/* Three players: keep, or put down two of the cheapest side cards for the
 * two unseen centre cards; each choice played out on the same deals. */
int t3_exchange(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st,
		t304_action *a)
{
	a->type = T304_ACT_KEEP;
	if (v->trump_card == CARD_NONE)
		return 1;
	cardset hand = l->cards;
	int tsuit = card_suit(v->trump_card);
	/* Candidates: the five cheapest cards outside the trump suit. */
	card cand[5];
	int nc = 0;
	cardset pool = hand & ~suit_mask(tsuit);
	while (nc < 5 && pool) {
		card best = CARD_NONE;
		for (cardset x = pool; x; x &= x - 1) {
			card c = cardset_first(x);
			if (best == CARD_NONE || card_points(c) < card_points(best))
				best = c;
		}
		cand[nc++] = best;
		pool &= ~card_bit(best);
	}
	int nopt = 1 + nc * (nc - 1) / 2;
	card put[11][2];
	int o = 1;
	for (int i = 0; i < nc; i++)
		for (int j = i + 1; j < nc; j++) {
			put[o][0] = cand[i];
			put[o][1] = cand[j];
			o++;
		}
	double sum[11] = { 0 };
	unsigned n = sims_of(prm);
	rng r;
	rng_seed(&r, prm->seed ^ 0xec5aull ^ ((uint64_t)v->deal_no << 24));
	cardset full = hand | card_bit(v->trump_card);
	t3solver sv;
	int exact = exact_start(prm, &sv);
	for (unsigned i = 0; i < n; i++) {
		if (i && prm->stop && prm->stop(prm->stop_ctx))
			break;
		if (i == 1)
			exact_may_stop(&sv, prm);
		double val[11];
		int aborted = 0;
		t3pos base;
		cardset centre;
		fresh(&base, 3, v->seat, v->dealer, v->bid, full, v->trump_card, ~full, &r, &centre);
		uint64_t sub = rng_next(&r);
		for (int k = 0; k < nopt; k++) {
			t3pos p = base;
			if (k) {
				p.hand[v->seat] = (p.hand[v->seat] & ~(card_bit(put[k][0]) | card_bit(put[k][1]))) | centre;
			}
			rng pr;
			rng_seed(&pr, sub);
			int pts = play_out(&p, &pr, st, exact ? &sv : NULL, exact);
			aborted |= pts == -2;
			val[k] = pts < 0 ? 0 : t3_value(&p, v->seat);
		}
		if (aborted)
			break;
		for (int k = 0; k < nopt; k++)
			sum[k] += val[k];
		if (st)
			st->samples++;
	}
	free(sv.tt);
	int best = 0;
	for (int k = 1; k < nopt; k++)
		if (sum[k] > sum[best] + 1e-9)
			best = k;
	if (best) {
		a->type = T304_ACT_EXCHANGE;
		a->put[0] = put[best][0];
		a->put[1] = put[best][1];
	}
	return 1;
}
