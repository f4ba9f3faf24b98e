/* rook_ai_ref.c: Rook's exact solver as it was before issue 33, kept
 * once, for `cardbot bench ai --game rook`'s ratio beside the new one and
 * its strong0 player; tests/unit/bot/bot_solve.c checks the new solver
 * against it. Also the positions both draw. Nothing else calls it.
 */
#include "minimax.h"
#include "rook_ai_ref.h"
#include "rook_simple.h"

/* The legal cards less those equal to another, as the solver found them
 * before issue 33 (a walk up each suit; now rook_ai_distinct, by bits). */
static rcardset ref_distinct(const rook_ai_pos *p, rcardset L)
{
	rcardset live = rook_ai_live(p);
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

int rook_ai_ref_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes)
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
		int v = rook_ai_ref_solve(&q, team, alpha, beta, nodes);
		if (minimax_fold(maxi, v, &best, &alpha, &beta))
			break;
	}
	return best;
}

int rook_ai_ref_position(rng *r, int left, rook_ai_pos *p)
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

int rook_ai_ref_hook(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted)
{
	(void)may_stop;
	(void)aborted;
	return rook_ai_ref_solve(pos, side, alpha, beta, ctx);
}
