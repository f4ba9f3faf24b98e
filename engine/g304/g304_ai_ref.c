/* g304_ai_ref.c: the 304 exact solver as it was before issue 33 (session
 * 9), kept once, for `cardbot bench ai`: the solver's ratio beside the new
 * one, and the strength figure of `--b strong0` (the engine's own player,
 * its card search given this solver through g304_ai_params.solve, and
 * strong's sample cap of then). tests/unit/bot/bot_solve.c checks the new
 * solver against it. Nothing but these calls it. Also the 304 positions
 * those figures and that test draw (g304_ai_ref_position).
 */
#include <stdlib.h>
#include <string.h>
#include "g304_ai_ref.h"
#include "g304_ai_internal.h"
#include "g304_random.h"
#include "minimax.h"

/* Its table: 2^15 entries of the solver's kind (g304_ai_tt_slot's key,
 * probed and kept as the solver of today does, the same bounds). */
#define REF_TT_BITS 15

typedef struct ref_solver {
	g304_ai_tt_entry *tt;
	unsigned long nodes;
	int (*stop)(void *ctx);
	void *stop_ctx;
	int (*budget)(void *ctx);  /* the decision's budget, polled once stop is set */
	int aborted;
} ref_solver;

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
	g304_ai_tt_entry *e;
	g304_ai_key k;
	int settled;
	if (g304_ai_tt_enter(sv->tt, (1u << REF_TT_BITS) - 1, p, cardset_points(live), &alpha, &beta, &e, &k, &settled))
		return settled;
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
		int v;
		G304_AI_CHILD(v, ref_solve_rec, sv, p, moves[i], tt, alpha, beta);
		if (minimax_fold(maxing, v, &best, &alpha, &beta))
			break;
	}
	return g304_ai_tt_leave(e, &k, best, nm, sv->aborted, a0, b0);
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

int g304_ai_ref_solve(const g304_ai_pos *p, unsigned long *nodes)
{
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(g304_ai_tt_entry)), 0, NULL, NULL, NULL, 0 };
	int v = ref_solve_rec(&sv, p, -1, 1000);
	free(sv.tt);
	if (nodes)
		*nodes += sv.nodes;
	return v;
}

int g304_ai_ref_action(const g304_view *v, const g304_legal *l, const g304_ai_params *prm, g304_ai_stats *st,
		     g304_action *a)
{
	/* The engine's player, its card search on the old solver, with
	 * strong's sample cap of then (200). */
	ref_solver sv = { calloc((size_t)1 << REF_TT_BITS, sizeof(g304_ai_tt_entry)), 0, NULL, prm->stop_ctx, prm->stop, 0 };
	g304_ai_params q = *prm;
	if (!q.samples && q.level >= G304_AI_STRONG)
		q.samples = 200;
	q.solve = ref_hook;
	if (!q.solve_tricks && q.level >= G304_AI_STRONG)
		q.solve_tricks = 6; /* strong's of then, whatever strong's is now */
	q.solve_ctx = &sv;
	int ok = g304_ai_action(v, l, &q, st, a);
	if (st)
		st->nodes += sv.nodes;
	free(sv.tt);
	return ok;
}

int g304_ai_ref_position(rng *r, int trick, int n, int pcc, g304_ai_pos *p)
{
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	g304_init(&g, &rules, (int)rng_below(r, 4));
	card deck[CARD_COUNT];
	rng_shuffle_deck(r, deck);
	g304_deal(&g, deck);
	g304_action a;
	while (g.phase != G304_PHASE_DEAL && g.turn != G304_NO_SEAT) {
		if (g.phase == G304_PHASE_PLAY && g.trick_no == trick && g.tricks[trick].n == n && !g.pcc == !pcc)
			return g304_ai_pos_of(&g, p);
		if (!g304_random_action(&g, r, 0, &a) || g304_apply(&g, &a, NULL) != G304_ERR_OK)
			return 0;
	}
	return 0;
}
