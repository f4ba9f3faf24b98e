/* t304_ai_ref.c: Trump304's exact solver as it was before issue 33, kept
 * once, for `cardbot bench ai --game trump304`'s ratio beside the new one
 * and its strong0 player; tests/unit/bot/bot_solve.c checks the new solver
 * against it. Also the positions both draw: some tricks before the end
 * after random play. Nothing else calls it.
 */
#include <stdlib.h>
#include <string.h>
#include "minimax.h"
#include "t304_ai_ref.h"
#include "t304_simple.h"

int t304_ai_ref_solve(t3solver *sv, const t3pos *p, int alpha, int beta)
{
	if (p->over || t3_node(sv))
		return 0;
	t3tt *e = NULL;
	int alpha0 = alpha, beta0 = beta;
	if (sv->tt && p->n == 0) {
		e = t3_tt_slot(sv, p);
		if (t3_tt_same(e, p)) {
			if (e->lo >= beta)
				return e->lo;
			if (e->hi <= alpha)
				return e->hi;
			if (e->lo > alpha)
				alpha = e->lo;
			if (e->hi < beta)
				beta = e->hi;
			if (alpha >= beta)
				return alpha;
		}
	}
	alpha0 = alpha;
	beta0 = beta;
	int maxi = t3_side(p, p->turn) == 0;
	int best = maxi ? -1 : 1000;
	cardset legal = t3_legal(p);
	int nm = 0;
	card moves[12];
	for (cardset x = legal; x; x &= x - 1) {
		card c = cardset_first(x);
		if (c > 0 && card_suit(c - 1) == card_suit(c) && (legal & card_bit(c - 1)) &&
		    card_points(c - 1) == card_points(c))
			continue;
		moves[nm++] = c;
	}
	int can_reveal = t3_may_reveal(p);
	for (int m = nm - 1; m >= -can_reveal; m--) {
		int v = t3_child(sv, p, m < 0 ? T3_REVEAL : moves[m], alpha, beta, t304_ai_ref_solve);
		if (sv->aborted)
			return 0;
		if (minimax_fold(maxi, v, &best, &alpha, &beta))
			break;
	}
	if (e) {
		if (!t3_tt_same(e, p)) {
			memcpy(e->hand, p->hand, sizeof e->hand);
			e->turn = p->turn;
			e->aside = p->aside;
			e->tcard = p->tcard;
			e->used = 1;
			e->lo = 0;
			e->hi = 304;
		}
		if (best > alpha0 && best < beta0)
			e->lo = e->hi = (int16_t)best;
		else if (best <= alpha0)
			e->hi = (int16_t)(best < e->hi ? best : e->hi);
		else
			e->lo = (int16_t)(best > e->lo ? best : e->lo);
	}
	return best;
}

int t304_ai_ref_position(rng *r, int nseats, int left, t3pos *p)
{
	t304 g;
	t304_init(&g, nseats, (int)rng_below(r, (uint32_t)nseats));
	card deck[CARD_COUNT];
	rng_shuffle_deck(r, deck);
	t304_deal(&g, deck);
	for (int i = 0; i < 400 && g.phase != T304_PHASE_DEAL; i++) {
		if (g.phase == T304_PHASE_PLAY && g.ntricks - g.trick_no == left && g.tricks[g.trick_no].n == 0
		    && g.npile == 0) {
			t3_pos_of(&g, p);
			return 1;
		}
		t304_action a;
		t304_result res;
		if (!t304_random_action(&g, g.turn, r, &a) || t304_apply(&g, &a, &res) != T304_ERR_OK)
			return 0;
	}
	return 0;
}

void t304_ai_ref_start(t304_ai_ref *rf, int (*stop)(void *), void *stop_ctx)
{
	memset(rf, 0, sizeof *rf);
	rf->stop = stop;
	rf->stop_ctx = stop_ctx;
	/* The Trump304 player kept one table for a decision's solves. */
	rf->sv.tt = calloc((size_t)1 << T3_TT_BITS, sizeof *rf->sv.tt);
}

void t304_ai_ref_end(t304_ai_ref *rf)
{
	free(rf->sv.tt);
	rf->sv.tt = NULL;
}

int t304_ai_ref_hook(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted)
{
	t304_ai_ref *rf = ctx;
	(void)side;
	if (may_stop) {
		rf->sv.stop = rf->stop;
		rf->sv.stop_ctx = rf->stop_ctx;
	}
	int v = t304_ai_ref_solve(&rf->sv, pos, alpha, beta);
	if (rf->sv.aborted)
		*aborted = 1;
	return v;
}
