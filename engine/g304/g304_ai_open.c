/* g304_ai_open.c: what playing the deal on is worth, closed as it stands
 * or turned open: the trumper's choice before the first lead, and whether
 * the trumper's own side should call a spoilt deal void.
 */
#include "g304_ai_internal.h"

#define PLAYOUTS_PER_SAMPLE 4

/* Tokens the deal ending in q is worth to team. */
static double tokens_for(const g304_ai_pos *q, int team)
{
	int tt = q->trumper & 1;
	int bid = q->pcc ? G304_BID_PCC : q->bid;
	int tp = q->pts[tt] + (q->pcc ? cardset_points(q->hand[q->sitting_out]) : 0);
	int made = q->pcc ? q->tricks[tt] == G304_TRICKS : tp >= bid;
	double u = made ? g304_payoff(FOUR, bid) : -g304_charge(FOUR, bid);
	return team == tt ? u : -u;
}

static void turn_open(g304_ai_pos *p)
{
	if (p->tdown) {
		p->hand[p->trumper] |= card_bit(p->tcard);
		p->tdown = 0;
	}
	p->open = 1;
}

void g304_ai_play_values(const g304_view *v, const g304_ai_params *prm, g304_ai_stats *st, double *closed,
			 double *opened, int *ok)
{
	g304_ai_vinfo vi;
	g304_ai_sample_view(v, &vi);
	*ok = 0;
	*closed = 0;
	if (opened)
		*opened = 0;
	if (!vi.ok)
		return;
	int n = prm->samples ? (int)prm->samples : prm->level >= G304_AI_STRONG ? 200 : 32;
	int team = g304_team(v->seat), done = 0;
	double sc = 0, so = 0;
	rng r;
	rng_seed(&r, prm->seed ^ 0x6f70656e5f766cull ^ ((uint64_t)v->deal_no << 32) ^ ((uint64_t)v->ntricks << 8));
	for (int i = 0; i < n; i++) {
		if (done && prm->stop && prm->stop(prm->stop_ctx))
			break;
		g304_ai_pos p;
		if (!g304_ai_sample_deal(v, &vi, &r, &p))
			break;
		uint64_t seed = rng_next(&r);
		for (int k = 0; k < PLAYOUTS_PER_SAMPLE; k++) {
			/* The same playout stream for both ways: only the choice differs. */
			rng pr;
			rng_seed(&pr, seed + (uint64_t)k);
			g304_ai_pos q = p;
			g304_ai_playout(&q, &pr);
			sc += tokens_for(&q, team);
			if (opened) {
				rng_seed(&pr, seed + (uint64_t)k);
				q = p;
				turn_open(&q);
				g304_ai_playout(&q, &pr);
				so += tokens_for(&q, team);
			}
		}
		done++;
		if (st) {
			st->samples++;
			st->playouts += PLAYOUTS_PER_SAMPLE * (opened ? 2 : 1);
		}
	}
	if (!done)
		return;
	*ok = 1;
	*closed = sc / (done * PLAYOUTS_PER_SAMPLE);
	if (opened)
		*opened = so / (done * PLAYOUTS_PER_SAMPLE);
}
