/* bench_ref.c: the 304 exact solver as it was before issue 33 (session
 * 9), kept once, for `cardbot bench ai`: the solver's ratio beside the new
 * one, and the strength figure of `--b strong0` (the engine's own player,
 * its card search given this solver through g304_ai_params.solve, and
 * strong's sample cap of then). tests/unit/bot/bot_solve.c checks the new
 * solver against it. Nothing but these calls it.
 */
#include <stdlib.h>
#include <string.h>
#include "bench_ref.h"
#include "g304_ai_internal.h"
#include "minimax.h"

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
	int (*budget)(void *ctx);  /* the decision's budget, polled once stop is set */
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
		if (minimax_fold(maxing, v, &best, &alpha, &beta))
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

/* The engine's card search calls this in place of its own solver
 * (g304_ai_params.solve). */
static int ref_hook(void *ctx, const g304_ai_pos *p, int alpha, int beta, int may_stop, int *aborted)
{
	ref_solver *sv = ctx;
	sv->stop = may_stop ? sv->budget : NULL;
	int v = ref_solve_rec(sv, p, alpha, beta);
	if (sv->aborted)
		*aborted = 1;
	return v;
}

int bench_ref_solve(const g304_ai_pos *p, unsigned long *nodes)
{
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(ref_entry)), 0, NULL, NULL, NULL, 0 };
	int v = ref_solve_rec(&sv, p, -1, 1000);
	free(sv.tt);
	if (nodes)
		*nodes += sv.nodes;
	return v;
}

int bench_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *prm, g304_ai_stats *st,
		     g304_action *a)
{
	/* The engine's player, its card search on the old solver, with
	 * strong's sample cap of then (200). */
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(ref_entry)), 0, NULL, prm->stop_ctx, prm->stop, 0 };
	g304_ai_params q = *prm;
	if (!q.samples && q.level >= G304_AI_STRONG)
		q.samples = 200;
	q.solve = ref_hook;
	q.solve_ctx = &sv;
	int ok = g304_ai_action(v, l, &q, st, a);
	if (st)
		st->nodes += sv.nodes;
	free(sv.tt);
	return ok;
}
