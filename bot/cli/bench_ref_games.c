/* bench_ref_games.c: the exact solvers of Trump304 and Rook as they were
 * before issue 33, kept once, for `cardbot bench ai --game trump304|rook`'s
 * ratio beside the new ones; tests/unit/bot_solve.c checks the new solvers
 * against them. Also the positions both draw: five tricks before the end
 * after random play. Nothing else calls them.
 */
#include <stdlib.h>
#include <string.h>
#include "bench_ref.h"
#include "minimax.h"
#include "rook_simple.h"
#include "t304_simple.h"

/* ---- Trump304 ---- */

int bench_ref_t3_solve(t3solver *sv, const t3pos *p, int alpha, int beta)
{
	if (p->over)
		return 0;
	if ((++sv->nodes & 4095) == 0 && sv->stop && sv->stop(sv->stop_ctx))
		sv->aborted = 1;
	if (sv->aborted)
		return 0;
	t3tt *e = NULL;
	int alpha0 = alpha, beta0 = beta;
	if (sv->tt && p->n == 0) {
		uint64_t h = 0x9e3779b97f4a7c15ull;
		for (int i = 0; i < p->nseats; i++)
			h = (h ^ p->hand[i]) * 0xff51afd7ed558ccdull;
		h = (h ^ (uint64_t)(p->turn | p->aside << 4 | p->tcard << 8)) * 0xc4ceb9fe1a85ec53ull;
		e = &sv->tt[h >> (64 - T3_TT_BITS)];
		if (e->used && e->turn == p->turn && e->aside == p->aside && e->tcard == p->tcard &&
		    !memcmp(e->hand, p->hand, sizeof e->hand)) {
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
		t3pos q = *p;
		int v;
		if (m < 0) {
			t3_reveal(&q);
			v = bench_ref_t3_solve(sv, &q, alpha, beta);
		} else {
			t3_play(&q, moves[m]);
			int g = q.pts - p->pts;
			v = g + bench_ref_t3_solve(sv, &q, alpha - g, beta - g);
		}
		if (sv->aborted)
			return 0;
		if (minimax_fold(maxi, v, &best, &alpha, &beta))
			break;
	}
	if (e) {
		if (!(e->used && e->turn == p->turn && e->aside == p->aside && e->tcard == p->tcard &&
		      !memcmp(e->hand, p->hand, sizeof e->hand))) {
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

int bench_ref_t3_position(rng *r, int nseats, int left, t3pos *p)
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

/* ---- Rook ---- */

/* The legal cards less those equal to another, as the solver found them
 * before issue 33 (a walk up each suit; now rook_ai_distinct, by bits). */
static rcardset ref_distinct(const rook_ai_pos *p, rcardset L)
{
	rcardset live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
	for (int i = 0; i < p->n; i++)
		live |= rook_bit(p->card[i]);
	rcardset out = 0;
	for (int suit = 0; suit < ROOK_COLOURS; suit++) {
		if (!(L & rook_ai_suit_mask(p->trump, suit)))
			continue;
		rcard order[16];
		int k = 0;
		if (suit == p->trump)
			order[k++] = ROOK_BIRD;
		for (int n = 2; n <= 14; n++)
			order[k++] = rook_make(suit, n);
		order[k++] = rook_make(suit, 1);
		rcard prev = ROOK_NONE;
		for (int i = 0; i < k; i++) {
			rcard c = order[i];
			if (!(live & rook_bit(c)))
				continue;
			if (L & rook_bit(c)) {
				if (prev == ROOK_NONE || rook_points(prev) != rook_points(c))
					out |= rook_bit(c);
				prev = c;
			} else {
				prev = ROOK_NONE;
			}
		}
	}
	return out;
}

int bench_ref_rook_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes)
{
	(*nodes)++;
	if (p->trick_no >= ROOK_TRICKS)
		return rook_ai_value(p, team);
	int maxi = (p->turn & 1) == team;
	rcardset L = ref_distinct(p, rook_ai_legal(p));
	rcard first = rook_ai_policy(p);
	if (!(L & rook_bit(first)))
		first = rook_first(L);
	int best = maxi ? -100000 : 100000;
	for (int i = -1; L; i = 0) {
		rcard c = i < 0 ? first : rook_first(L);
		L &= ~rook_bit(c);
		rook_ai_pos q = *p;
		rook_ai_play(&q, c);
		int v = bench_ref_rook_solve(&q, team, alpha, beta, nodes);
		if (minimax_fold(maxi, v, &best, &alpha, &beta))
			break;
	}
	return best;
}

int bench_ref_rook_position(rng *r, int left, rook_ai_pos *p)
{
	rook g;
	rook_init(&g, (int)rng_below(r, ROOK_SEATS));
	rcard deck[ROOK_CARDS];
	rook_shuffle(r, deck);
	rook_deal(&g, deck);
	for (int i = 0; i < 400 && g.phase != ROOK_PHASE_DEAL; i++) {
		if (g.phase == ROOK_PHASE_PLAY && ROOK_TRICKS - g.trick_no == left && g.tricks[g.trick_no].n == 0) {
			rook_ai_pos_of(&g, p);
			return 1;
		}
		rook_action a;
		if (!rook_random_action(&g, g.turn, r, &a) || rook_apply(&g, &a, NULL))
			return 0;
	}
	return 0;
}

/* ---- the players of before issue 33: the engine's, on these solvers ---- */

void bench_ref_game_start(bench_ref_game *rg, int is_rook, int (*stop)(void *), void *stop_ctx)
{
	memset(rg, 0, sizeof *rg);
	rg->rook = is_rook;
	rg->stop = stop;
	rg->stop_ctx = stop_ctx;
	/* The Trump304 player kept one table for a decision's solves. */
	if (!is_rook)
		rg->sv.tt = calloc((size_t)1 << T3_TT_BITS, sizeof *rg->sv.tt);
}

void bench_ref_game_end(bench_ref_game *rg)
{
	free(rg->sv.tt);
	rg->sv.tt = NULL;
}

int bench_ref_game_solve(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted)
{
	bench_ref_game *rg = ctx;
	if (rg->rook)
		return bench_ref_rook_solve(pos, side, alpha, beta, &rg->sv.nodes);
	if (may_stop) {
		rg->sv.stop = rg->stop;
		rg->sv.stop_ctx = rg->stop_ctx;
	}
	int v = bench_ref_t3_solve(&rg->sv, pos, alpha, beta);
	if (rg->sv.aborted)
		*aborted = 1;
	return v;
}
