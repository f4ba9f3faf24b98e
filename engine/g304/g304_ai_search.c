/* g304_ai_search.c: the card by search: sampled deals, each legal card
 * judged by playouts or the exact solver, outcomes in tokens.
 */
#include <stdlib.h>
#include "g304_ai_internal.h"

/* What the deal is worth to `team` given the trumper's side's points and
 * tricks at the end: the tokens won or paid, points breaking ties. */
static double outcome(const g304_ai_pos *p, int team, int tpoints, int ttricks)
{
	int tt = p->trumper & 1;
	int bid = p->pcc ? G304_BID_PCC : p->bid;
	int made = p->pcc ? ttricks == G304_TRICKS : tpoints >= bid;
	double u = made ? g304_payoff(FOUR, bid) : -g304_charge(FOUR, bid);
	double pts = tpoints;
	if (team != tt) {
		u = -u;
		pts = 304 - tpoints;
	}
	return u + pts * 0.002;
}

/* Sampled deals per card. Strong's cap is high enough that the table's
 * time budget ends its search: with the solver of issue 33 it samples
 * about five times as many deals in 300 ms as its old cap of 200 allowed,
 * and that measured better (docs/AI.md, session 10). */
#define G304_AI_STRONG_SAMPLES 1000
#define G304_AI_NORMAL_SAMPLES 16

/* Exact from this many tricks before the end (earlier, one playout per
 * card and sample). Strong solved from 6 before issue 33 (strong0 still
 * does, g304_ai_ref.c); the faster solver answers the null window from 7
 * in about 0.3 ms, so strong now solves every card from the second trick
 * on, with fewer samples in its budget: measured at least as good
 * (docs/AI.md, "Session 13"). */
#define G304_AI_STRONG_SOLVE_TRICKS 7
#define G304_AI_NORMAL_SOLVE_TRICKS 4

static int samples_of(const g304_ai_params *p)
{
	if (p->samples)
		return (int)p->samples;
	return p->level >= G304_AI_STRONG ? G304_AI_STRONG_SAMPLES : G304_AI_NORMAL_SAMPLES;
}

card g304_ai_search_play(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
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
	int solve_from = prm->solve_tricks;
	if (solve_from <= 0)
		solve_from = prm->level >= G304_AI_STRONG ? G304_AI_STRONG_SOLVE_TRICKS : G304_AI_NORMAL_SOLVE_TRICKS;
	int nsamples = samples_of(prm), done = 0;
	int team = v->seat & 1;
	rng r;
	rng_seed(&r, prm->seed ^ ((uint64_t)v->deal_no << 32) ^ ((uint64_t)v->ntricks << 8)
		 ^ (uint64_t)v->tricks[v->ntricks ? v->ntricks - 1 : 0].n);
	g304_ai_solver sv;
	g304_ai_solver_init(&sv, prm->solve ? 0 : G304_AI_TT_BITS);
	int other_aborted = 0; /* prm->solve's budget ran out */
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
				int tp = q.pts[tt] + (prm->solve ? prm->solve(prm->solve_ctx, &q, need - 1, need,
									       sv.stop != NULL, &other_aborted)
							      : g304_ai_solve_rec(&sv, &q, need - 1, need));
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
		if (m < nm || sv.aborted || other_aborted)
			break;
		for (m = 0; m < nm; m++)
			sum[m] += val[m];
	}
	if (st)
		st->nodes += sv.nodes;
	g304_ai_solver_free(&sv);
	if (!done)
		return CARD_NONE;
	int best = 0;
	for (int m = 1; m < nm; m++)
		if (sum[m] > sum[best] + 1e-9)
			best = m;
	return moves[best];
}
