/* bench_ref.c: the 304 search player's card search and exact solver as
 * they were before issue 33 (session 9), for the strength figure of
 * `cardbot bench ai --b strong0`. A copy, not a second player: nothing
 * but the benchmark calls it, and the rest of the player (bidding, open
 * or closed, spoilt, caps, the sampler, the policy) is the engine's own.
 */
#include <stdlib.h>
#include <string.h>
#include "bench_ref.h"
#include "g304_ai_internal.h"
#include "g304_caps.h"
#include "g304_simple.h"

#define REF_TT_BITS 15
typedef struct ref_entry {
	uint64_t k1, k2;
	uint32_t k3;
	int16_t lo, hi;
} ref_entry;

typedef struct ref_solver {
	ref_entry *tt;
	unsigned long nodes;
	int (*stop)(void *ctx);
	void *stop_ctx;
	int aborted;
} ref_solver;

static inline uint32_t key3(const g304_ai_pos *p)
{
	return (uint32_t)p->turn | (uint32_t)p->open << 2 | (uint32_t)p->tdown << 3
		| (uint32_t)p->tsuit << 4 | (uint32_t)p->tcard << 6 | (uint32_t)p->trumper << 14
		| (uint32_t)(p->bid >= G304_BID8_MIN) << 16 | (uint32_t)p->pcc << 17
		| (uint32_t)(p->trick_no == 0) << 18 | 1u << 19;
}

/* Orders the moves: high cards first (they decide tricks). */
static int order_moves(cardset legal, card *out)
{
	int n = 0;
	for (int r = RANK_COUNT - 1; r >= 0; r--)
		for (int x = 0; x < SUIT_COUNT; x++)
			if (legal & card_bit(card_make(x, r)))
				out[n++] = card_make(x, r);
	return n;
}

/* Points the trumper's team takes from here; alpha-beta, fail-soft. */
static int ref_solve_rec(ref_solver *sv, const g304_ai_pos *p, int alpha, int beta)
{
	if (p->trick_no >= G304_TRICKS || sv->aborted)
		return 0;
	if ((++sv->nodes & 4095) == 0 && sv->stop && sv->stop(sv->stop_ctx)) {
		sv->aborted = 1;
		return 0;
	}
	int tt = p->trumper & 1;
	/* The trumper's side takes between nothing and every point still in
	 * play (hands, the trump card on the table, the trick in progress;
	 * not a pcc partner's unplayed cards): a window outside that range is
	 * settled without a search. */
	cardset live = 0;
	for (int s = 0; s < G304_SEATS; s++)
		if (!p->pcc || s != p->sitting_out)
			live |= p->hand[s];
	if (p->tdown)
		live |= card_bit(p->tcard);
	for (int i = 0; i < p->n; i++)
		live |= card_bit(p->card[i]);
	int rem = cardset_points(live);
	if (rem <= alpha)
		return rem;
	if (beta <= 0)
		return 0;
	ref_entry *e = NULL;
	uint64_t k1 = 0, k2 = 0;
	uint32_t k3 = 0;
	if (sv->tt && p->n == 0) {
		k1 = (uint64_t)p->hand[0] | (uint64_t)p->hand[1] << 32;
		k2 = (uint64_t)p->hand[2] | (uint64_t)p->hand[3] << 32;
		k3 = key3(p);
		uint64_t h = (k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full) ^ ((uint64_t)k3 * 0x165667b19e3779f9ull);
		e = &sv->tt[(h >> 20) & ((1u << REF_TT_BITS) - 1)];
		if (e->k1 == k1 && e->k2 == k2 && e->k3 == k3) {
			if (e->lo >= beta)
				return e->lo;
			if (e->hi <= alpha)
				return e->hi;
			if (e->lo == e->hi)
				return e->lo;
			if (e->lo > alpha)
				alpha = e->lo;
			if (e->hi < beta)
				beta = e->hi;
		}
	}
	int a0 = alpha, b0 = beta;
	card moves[G304_TRICKS + 1];
	cardset legal = g304_ai_pos_legal(p);
	int nm = order_moves(legal, moves);
	if (nm > 2) {
		/* The policy's choice first: it is often best, and cuts early. */
		card first = g304_ai_policy(p, NULL, 0);
		for (int i = 1; i < nm; i++)
			if (moves[i] == first) {
				memmove(moves + 1, moves, sizeof moves[0] * (size_t)i);
				moves[0] = first;
				break;
			}
	}
	int maxing = (p->turn & 1) == tt;
	int best = maxing ? -1 : 1000;
	for (int i = 0; i < nm; i++) {
		g304_ai_pos q = *p;
		g304_ai_pos_play(&q, moves[i]);
		int gain = q.pts[tt] - p->pts[tt];
		int v = gain + ref_solve_rec(sv, &q, alpha - gain, beta - gain);
		if (maxing) {
			if (v > best)
				best = v;
			if (best > alpha)
				alpha = best;
		} else {
			if (v < best)
				best = v;
			if (best < beta)
				beta = best;
		}
		if (alpha >= beta)
			break;
	}
	if (nm == 0)
		best = 0;
	if (e && !sv->aborted) {
		int lo = 0, hi = 304;
		if (e->k1 == k1 && e->k2 == k2 && e->k3 == k3) {
			lo = e->lo;
			hi = e->hi;
		}
		if (best <= a0)
			hi = best < hi ? best : hi;
		else if (best >= b0)
			lo = best > lo ? best : lo;
		else
			lo = hi = best;
		e->k1 = k1;
		e->k2 = k2;
		e->k3 = k3;
		e->lo = (int16_t)lo;
		e->hi = (int16_t)hi;
	}
	return best;
}

/* What the deal is worth to `team` given the trumper's side's points and
 * tricks at the end: the tokens won or paid, points breaking ties. */
static double outcome(const g304_ai_pos *p, int team, int tpoints, int ttricks)
{
	int tt = p->trumper & 1;
	int bid = p->pcc ? G304_BID_PCC : p->bid;
	int made = p->pcc ? ttricks == G304_TRICKS : tpoints >= bid;
	double u = made ? g304_payoff(bid) : -g304_charge(bid);
	double pts = tpoints;
	if (team != tt) {
		u = -u;
		pts = 304 - tpoints;
	}
	return u + pts * 0.002;
}

static int samples_of(const g304_ai_params *p)
{
	if (p->samples)
		return (int)p->samples;
	return p->level >= G304_AI_STRONG ? 200 : 16;
}

static card ref_search_play(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
			g304_ai_stats *st)
{
	card moves[G304_TRICKS + 1];
	int nm = 0;
	for (cardset s = l->cards; s; s &= s - 1)
		moves[nm++] = cardset_first(s);
	if (nm == 1)
		return moves[0];
	g304_ai_vinfo vi;
	g304_ai_sample_view(v, &vi);
	if (!vi.ok)
		return CARD_NONE;
	double sum[G304_TRICKS + 1] = { 0 };
	int solve_from = prm->solve_tricks > 0 ? prm->solve_tricks : 6;
	if (prm->level < G304_AI_STRONG && !prm->solve_tricks)
		solve_from = 4;
	int nsamples = samples_of(prm), done = 0;
	int team = v->seat & 1;
	rng r;
	rng_seed(&r, prm->seed ^ ((uint64_t)v->deal_no << 32) ^ ((uint64_t)v->ntricks << 8)
		 ^ (uint64_t)v->tricks[v->ntricks ? v->ntricks - 1 : 0].n);
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(ref_entry)), 0, NULL, NULL, 0 };
	for (int i = 0; i < nsamples; i++) {
		if (done == 1) {
			/* One whole sample is in: from now on the budget may cut
			 * a solve short too (that sample is then dropped). */
			sv.stop = prm->stop;
			sv.stop_ctx = prm->stop_ctx;
		}
		if (done && prm->stop && prm->stop(prm->stop_ctx))
			break;
		g304_ai_pos p;
		if (!g304_ai_sample_deal(v, &vi, &r, &p))
			break;
		done++;
		if (st)
			st->samples++;
		int left = G304_TRICKS - p.trick_no;
		double val[G304_TRICKS + 1];
		int m = 0;
		for (; m < nm; m++) {
			/* Exact solves are slow enough to check the budget between
			 * them; a sample cut short is dropped whole. */
			if (m && done > 1 && left <= solve_from && prm->stop && prm->stop(prm->stop_ctx))
				break;
			g304_ai_pos q = p;
			g304_ai_pos_play(&q, moves[m]);
			int tt = q.trumper & 1;
			if (left <= solve_from && !q.pcc) {
				/* Exact (in pcc the trick count decides: playouts judge).
				 * Tokens depend only on making the bid, so a null
				 * window at the bid decides it, several times faster
				 * than the points themselves; the bound it returns
				 * breaks ties. */
				int need = q.bid - q.pts[tt];
				int tp = q.pts[tt] + ref_solve_rec(&sv, &q, need - 1, need);
				val[m] = outcome(&q, team, tp, 0);
				if (st)
					st->solves++;
			} else {
				g304_ai_playout(&q, &r);
				int tp = q.pts[tt] + (q.pcc ? cardset_points(q.hand[q.sitting_out]) : 0);
				val[m] = outcome(&q, team, tp, q.tricks[tt]);
				if (st)
					st->playouts++;
			}
		}
		if (m < nm || sv.aborted)
			break;
		for (m = 0; m < nm; m++)
			sum[m] += val[m];
	}
	if (st)
		st->nodes += sv.nodes;
	free(sv.tt);
	if (!done)
		return CARD_NONE;
	int best = 0;
	for (int m = 1; m < nm; m++)
		if (sum[m] > sum[best] + 1e-9)
			best = m;
	return moves[best];
}

int bench_ref_solve(const g304_ai_pos *p, unsigned long *nodes)
{
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(ref_entry)), 0, NULL, NULL, 0 };
	int v = ref_solve_rec(&sv, p, -1, 1000);
	free(sv.tt);
	if (nodes)
		*nodes += sv.nodes;
	return v;
}

int bench_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *prm, g304_ai_stats *st,
		     g304_action *a)
{
	/* g304_ai_action's play phase, with the old card search. */
	if (prm->level <= G304_AI_EASY || v->phase != G304_PHASE_PLAY)
		return g304_ai_action(v, l, prm, st, a);
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	if ((l->acts & 1u << G304_ACT_SPOILT) && g304_ai_spoilt_proven(v)) {
		int ours = g304_team(v->seat) == g304_team(v->trumper), ok = 1;
		double closed = 0;
		if (ours)
			g304_ai_play_values(v, prm, st, &closed, NULL, &ok);
		if (!ours || (ok && closed < 0)) {
			a->type = G304_ACT_SPOILT;
			return 1;
		}
	}
	if ((l->acts & 1u << G304_ACT_OPEN) && !v->pcc) {
		double closed, opened;
		int ok;
		g304_ai_play_values(v, prm, st, &closed, &opened, &ok);
		if (ok && opened > closed + 0.02) {
			a->type = G304_ACT_OPEN;
			return 1;
		}
	}
	if (!(l->acts & 1u << G304_ACT_PLAY))
		return 0;
	if (v->tricks_won[!(v->seat & 1)] == 0 && g304_caps_try(v, l, G304_CAPS_TRACK_BUDGET, a))
		return 1;
	a->type = G304_ACT_PLAY;
	a->card = ref_search_play(v, l, prm, st);
	if (a->card == CARD_NONE || !(l->cards & card_bit(a->card)))
		return g304_simple_action(v, l, a);
	return 1;
}
