/* test_g304_solve.c: the exact 304 solver gives the same values as the
 * reference solver it replaced (session 9's plain alpha-beta, kept here
 * only as the reference) on the positions `cardbot bench ai` times (five
 * tricks before the end, after random bidding and play), and on positions
 * within a trick; both the points and the null-window question.
 *
 * Env knobs: SOLVE_TEST_POSITIONS (default 10,000; 1,000 under the
 * sanitizers, where PROPS_MATCHES is set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_ai.h"
#include "g304_ai_internal.h"
#include "g304_random.h"
#include "rng.h"

/* ---- the reference: the solver as it was before issue 33 ---- */

#define REF_TT_BITS 15
typedef struct ref_entry {
	uint64_t k1, k2;
	uint32_t k3;
	int16_t lo, hi;
} ref_entry;

static inline uint32_t ref_key3(const g304_ai_pos *p)
{
	return (uint32_t)p->turn | (uint32_t)p->open << 2 | (uint32_t)p->tdown << 3
		| (uint32_t)p->tsuit << 4 | (uint32_t)p->tcard << 6 | (uint32_t)p->trumper << 14
		| (uint32_t)(p->bid >= G304_BID8_MIN) << 16 | (uint32_t)p->pcc << 17
		| (uint32_t)(p->trick_no == 0) << 18 | 1u << 19;
}

static int ref_order(cardset legal, card *out)
{
	int n = 0;
	for (int r = RANK_COUNT - 1; r >= 0; r--)
		for (int x = 0; x < SUIT_COUNT; x++)
			if (legal & card_bit(card_make(x, r)))
				out[n++] = card_make(x, r);
	return n;
}

static int ref_rec(ref_entry *tt, const g304_ai_pos *p, int alpha, int beta)
{
	if (p->trick_no >= G304_TRICKS)
		return 0;
	int tm = p->trumper & 1;
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
	if (p->n == 0) {
		k1 = (uint64_t)p->hand[0] | (uint64_t)p->hand[1] << 32;
		k2 = (uint64_t)p->hand[2] | (uint64_t)p->hand[3] << 32;
		k3 = ref_key3(p);
		uint64_t h = (k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full)
			^ ((uint64_t)k3 * 0x165667b19e3779f9ull);
		e = &tt[(h >> 20) & ((1u << REF_TT_BITS) - 1)];
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
	int nm = ref_order(g304_ai_pos_legal(p), moves);
	if (nm > 2) {
		card first = g304_ai_policy(p, NULL, 0);
		for (int i = 1; i < nm; i++)
			if (moves[i] == first) {
				memmove(moves + 1, moves, sizeof moves[0] * (size_t)i);
				moves[0] = first;
				break;
			}
	}
	int maxing = (p->turn & 1) == tm;
	int best = maxing ? -1 : 1000;
	for (int i = 0; i < nm; i++) {
		g304_ai_pos q = *p;
		g304_ai_pos_play(&q, moves[i]);
		int gain = q.pts[tm] - p->pts[tm];
		int v = gain + ref_rec(tt, &q, alpha - gain, beta - gain);
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
	if (e) {
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

static int ref_solve(const g304_ai_pos *p)
{
	ref_entry *tt = calloc((size_t)1 << REF_TT_BITS, sizeof *tt);
	if (!tt)
		abort();
	int v = ref_rec(tt, p, -1, 1000);
	free(tt);
	return v;
}

/* ---- positions ---- */

/* A position at card `n` of trick `trick` after random bidding and play
 * (as `cardbot bench ai` draws them: pcc deals left out), or 0. */
static int position(rng *r, int trick, int n, g304_ai_pos *p)
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
		if (g.phase == G304_PHASE_PLAY && g.trick_no == trick && g.tricks[trick].n == n && !g.pcc)
			return g304_ai_pos_of(&g, p);
		if (!g304_random_action(&g, r, 0, &a) || g304_apply(&g, &a, NULL) != G304_ERR_OK)
			return 0;
	}
	return 0;
}

int main(void)
{
	int count = getenv("SOLVE_TEST_POSITIONS") ? atoi(getenv("SOLVE_TEST_POSITIONS"))
		: getenv("PROPS_MATCHES") ? 1000 : 10000;
	rng r;
	rng_seed(&r, 33);
	int differ = 0, wrong_reach = 0, checked = 0;
	unsigned long nodes = 0;
	for (int i = 0; i < count; i++) {
		/* Nine in ten at a trick's start five tricks before the end, as
		 * the benchmark; the rest within a trick, four to six left. */
		int trick = 3, n = 0;
		if (i % 10 == 9) {
			trick = 2 + (i / 10) % 3;
			n = 1 + (i / 30) % 3;
		}
		g304_ai_pos p;
		while (!position(&r, trick, n, &p))
			;
		int want = ref_solve(&p), got = g304_ai_solve(&p, &nodes);
		checked++;
		if (want != got && differ++ < 5)
			CHECK(0, "position %d: solver %d, reference %d", i, got, want);
		for (int need = want; need <= want + 1; need++)
			if (g304_ai_solve_reaches(&p, need, NULL) != (want >= need) && wrong_reach++ < 5)
				CHECK(0, "position %d: can the trumper's side take %d? (it takes %d)", i, need, want);
	}
	CHECK(differ == 0, "%d of %d values differ from the reference", differ, checked);
	CHECK(wrong_reach == 0, "%d null-window answers wrong", wrong_reach);
	printf("test_g304_solve: %d positions, %lu nodes a solve\n", checked, checked ? nodes / (unsigned long)checked : 0);
	return check_report("test_g304_solve");
}
