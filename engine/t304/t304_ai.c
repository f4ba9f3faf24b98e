/* t304_ai.c: the search player for Trump304 (see t304_ai.h and docs/AI.md):
 * levels, the top-level decision and the card (or the reveal) by search.
 * The pieces it is built of are listed in t304_ai_internal.h.
 */
#include <stdlib.h>
#include <string.h>
#include "t304_ai_internal.h"
#include "t304_simple.h"
#include "minimax.h"

static unsigned samples_of(const game_ai_params *p)
{
	if (p->samples)
		return p->samples;
	return p->level >= GAME_AI_STRONG ? 400 : 24;
}

/* Tricks left (the one in play included) from which the solver is exact. */
static int solve_from(const game_ai_params *p, int nseats)
{
	/* Two players: eight tricks, the pile gone; three: five; four: four.
	 * Normal solves fewer. Deeper was not clearly stronger in three and four
	 * players and took several times longer at the 99th percentile (with
	 * the faster solver of issue 33, five tricks and 1,000 samples in four
	 * players: +17.9 tokens per 100 deals over strong0, -6.8 to +42.6). */
	static const int strong[5] = { 0, 0, 8, 5, 4 }, normal[5] = { 0, 0, 6, 4, 3 };
	int n = nseats >= 2 && nseats <= 4 ? nseats : 4;
	return p->level >= GAME_AI_STRONG ? strong[n] : normal[n];
}

#define MAX_MOVES 12

/* The card to play, or the reveal (REVEAL in *a), by search. Returns 0
 * when the view makes no sense to the sampler. */
static int search_play(const t304_view *v, const t304_legal *l, const game_ai_params *prm, game_ai_stats *st,
		       t304_action *a)
{
	card moves[MAX_MOVES];
	int reveal = l->acts >> T304_ACT_REVEAL & 1;
	int nm = minimax_moves(l->cards, reveal, moves, MAX_MOVES);
	if (nm == 1) {
		a->type = moves[0] == CARD_NONE ? T304_ACT_REVEAL : T304_ACT_PLAY;
		a->card = moves[0];
		return 1;
	}
	t3info in;
	t3_info(v, &in);
	if (!in.ok)
		return 0;
	double sum[MAX_MOVES] = { 0 };
	int from = solve_from(prm, v->nseats);
	unsigned nsamples = samples_of(prm);
	int done = 0;
	rng r;
	rng_seed(&r, prm->seed ^ ((uint64_t)v->deal_no << 32) ^ ((uint64_t)v->trick_no << 8) ^
		 (uint64_t)v->trick.n ^ ((uint64_t)(v->must_cut == v->seat) << 16));
	t3solver sv = { .tt = NULL };
	if (v->ntricks - v->trick_no <= from + 1)
		sv.tt = calloc((size_t)1 << T3_TT_BITS, sizeof *sv.tt);
	for (unsigned i = 0; i < nsamples; i++) {
		if (done == 1) {
			sv.stop = prm->stop;
			sv.stop_ctx = prm->stop_ctx;
		}
		if (done && prm->stop && prm->stop(prm->stop_ctx))
			break;
		t3pos p;
		if (!t3_sample(v, &in, &r, &p))
			break;
		double val[MAX_MOVES];
		int left = p.ntricks - p.trick_no;
		for (int m = 0; m < nm; m++) {
			t3pos q = p;
			if (moves[m] == CARD_NONE)
				t3_reveal(&q);
			else
				t3_play(&q, moves[m]);
			if (left <= from && q.npile == 0 && !q.over) {
				int need = q.bid - q.pts;
				int got;
				if (prm->solve) {
					int aborted = 0;
					got = prm->solve(prm->solve_ctx, &q, 0, need - 1, need, done >= 1, &aborted);
					sv.aborted |= aborted;
				} else {
					got = t3_solve(&sv, &q, need - 1, need);
				}
				q.pts = (int16_t)(q.pts + got);
				q.over = 1;
				if (st)
					st->solves++;
			} else {
				t3_playout(&q, &r);
				if (st)
					st->playouts++;
			}
			val[m] = t3_value(&q, v->seat);
		}
		if (sv.aborted)
			break;
		done++;
		if (st)
			st->samples++;
		for (int m = 0; m < nm; m++)
			sum[m] += val[m];
	}
	if (st)
		st->nodes += sv.nodes;
	free(sv.tt);
	if (!done)
		return 0;
	int best = minimax_best(sum, nm);
	a->type = moves[best] == CARD_NONE ? T304_ACT_REVEAL : T304_ACT_PLAY;
	a->card = moves[best];
	return 1;
}

int t304_ai_action(const t304_view *v, const t304_legal *l, const game_ai_params *p, game_ai_stats *stats,
		   t304_action *a)
{
	if (p->level <= GAME_AI_EASY)
		return t304_simple_action(v, l, a);
	if (!l->acts)
		return 0;
	memset(a, 0, sizeof *a);
	a->seat = v->seat;
	a->card = a->put[0] = a->put[1] = CARD_NONE;
	switch (v->phase) {
	case T304_PHASE_BID:
		return t3_bid(v, l, p, stats, a);
	case T304_PHASE_TRUMP:
		if (t3_trump(v, l, p, stats, a))
			return 1;
		break;
	case T304_PHASE_EXCHANGE:
		return t3_exchange(v, l, p, stats, a);
	case T304_PHASE_PLAY:
		if (search_play(v, l, p, stats, a))
			return 1;
		break;
	default:
		return 0;
	}
	return t304_simple_action(v, l, a); /* the view made no sense: be safe */
}
