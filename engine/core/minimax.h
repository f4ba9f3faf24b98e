/* minimax.h: what the exact solvers of every game (304, Trump304, Rook)
 * share: one step of a fail-soft alpha-beta search, the bounds a
 * transposition table keeps, and the order in which a trick-taking
 * player's moves are tried.
 */
#ifndef CARDBOT_MINIMAX_H
#define CARDBOT_MINIMAX_H

#include <stdint.h>
#include <stdlib.h>
#include "card.h"

/* Folds one move's value v into a node: the best value so far (*best) and
 * the window (*alpha, *beta), for the side that maximises (maxi) or the
 * one that minimises. Returns nonzero when the window has closed: the
 * node's remaining moves cannot change its value (a cutoff). */
static inline int minimax_fold(int maxi, int v, int *best, int *alpha, int *beta)
{
	if (maxi) {
		if (v > *best)
			*best = v;
		if (*best > *alpha)
			*alpha = *best;
	} else {
		if (v < *best)
			*best = v;
		if (*best < *beta)
			*beta = *best;
	}
	return *alpha >= *beta;
}

/* A table entry's bounds lo..hi on a node's value, against the window:
 * returns 1 with the value in *v when they settle the node; else narrows
 * the window to them and returns 0. */
static inline int minimax_probe(int lo, int hi, int *alpha, int *beta, int *v)
{
	if (lo >= *beta || lo == hi) {
		*v = lo;
		return 1;
	}
	if (hi <= *alpha) {
		*v = hi;
		return 1;
	}
	if (lo > *alpha)
		*alpha = lo;
	if (hi < *beta)
		*beta = hi;
	return 0;
}

/* What a search of window a0..b0 that returned best tells the entry's
 * bounds (fail-soft): an upper bound, a lower bound, or the value. */
static inline void minimax_store(int *lo, int *hi, int best, int a0, int b0)
{
	if (best <= a0) {
		if (best < *hi)
			*hi = best;
	} else if (best >= b0) {
		if (best > *lo)
			*lo = best;
	} else {
		*lo = *hi = best;
	}
}

/* A transposition table: 1 << bits zeroed entries of `size` bytes, and
 * its index mask in *mask (0, and NULL returned, when it cannot be had:
 * the solver then searches without; free() it). */
static inline void *minimax_table(int bits, size_t size, unsigned *mask)
{
	void *t = calloc((size_t)1 << bits, size);
	*mask = t ? (1u << bits) - 1 : 0;
	return t;
}

/* How a card looks to a trick-taking player, for ordering the moves of a
 * search (each game works these out by its own rules). */
typedef struct minimax_card {
	int pts;          /* the card's points */
	int trump;        /* it is a trump */
	int lead;         /* it leads the trick */
	/* Leading: */
	int master;       /* no card outside the hand beats it */
	int opp_trumps;   /* the other side still holds trumps */
	int suit_len;     /* own cards of its suit */
	/* Following: */
	int wins;         /* it would take the trick now */
	int partner;      /* the trick is the player's side's now */
	int safe;         /* what holds the trick after it (this card if it
	                   * wins, else the partner's) cannot be taken by
	                   * the seats still to play, or it is the last card */
	int trick_pts;    /* points on the trick already */
} minimax_card;

/* The card's score, higher first: what a player would do (win cheaply,
 * feed a partner who holds the trick, lead masters, keep trumps). */
static inline int minimax_card_score(const minimax_card *c)
{
	int pts = c->pts;
	if (c->lead) {
		if (c->trump)
			return c->master && c->opp_trumps ? 200 + pts : 20 - pts;
		if (c->master)
			return (c->opp_trumps ? 120 : 150) + pts;
		return 60 - pts - 4 * c->suit_len;
	}
	if (!c->wins && c->partner)
		return c->safe ? 150 + pts : 100 - pts;
	if (c->wins) {
		if (c->partner)
			return c->safe ? 140 + pts : 40 - pts;
		return c->safe ? 180 - pts - c->trump * 8 + (c->trick_pts >= 10) * 10 : 120 + pts - c->trump * 8;
	}
	return 100 - pts - c->trump * 16;
}

/* Adds move m with score sc to moves[0..n-1], kept best first (a later
 * move of equal score after the earlier); returns n + 1. */
static inline int minimax_add(uint8_t *moves, int *score, int n, uint8_t m, int sc)
{
	int i = n;
	while (i > 0 && score[i - 1] < sc) {
		score[i] = score[i - 1];
		moves[i] = moves[i - 1];
		i--;
	}
	score[i] = sc;
	moves[i] = m;
	return n + 1;
}

/* minimax_add with a killer move's bonus: m's score sc, plus bonus when m
 * is the killer (the move that cut off a sibling). */
static inline int minimax_add_killer(uint8_t *moves, int *score, int n, uint8_t m, int sc, int killer, int bonus)
{
	return minimax_add(moves, score, n, m, m == killer ? sc + bonus : sc);
}

/* The cards of `legal` worth trying in a trick-taking game of the 32-card
 * pack (304, Trump304), where cards of one hand that no other live card
 * separates are one card for the rest of the deal. Of such a run, the
 * cards that take the trick and those that leave it where it is are each
 * tried once when no seat still to play could take the trick from the
 * side that then holds it (the same seat leads on whichever card it is,
 * and the other cards of the run would only give this trick's winners
 * fewer points and a later trick's more): the dearest where that side is
 * the mover's own, else the cheapest.
 *   own     the mover's cards (legal cards not in own are always kept)
 *   others  every other live card not yet played
 *   takes   the legal cards that would take the trick now (all at the lead)
 *   wb      the card holding the trick now (CARD_NONE at the lead)
 *   holds   the trick is the mover's side's now
 *   later   the cards of the seats still to play this trick: [0] the
 *           mover's side, [1] the other
 *   cut     whether those seats could cut a card that is not a trump
 *   tsuit   the trump suit */
static inline cardset minimax_runs(cardset legal, cardset own, cardset others, cardset takes, card wb, int holds,
				   const cardset later[2], const int cut[2], int tsuit)
{
	cardset keep = legal & ~own;
	for (int x = 0; x < SUIT_COUNT; x++) {
		cardset m = own & legal & suit_mask(x);
		while (m) {
			card lo = cardset_first(m);
			cardset sep = others & card_above(lo);
			cardset run = sep ? m & ((card_bit(cardset_first(sep))) - 1) : m;
			m &= ~run;
			if (!(run & (run - 1))) {
				keep |= run;
				continue;
			}
			/* [0]: the cards that leave the trick where it is,
			 * [1]: those that take it. */
			card pick[2] = { CARD_NONE, CARD_NONE };
			int pick_k[2] = { 0, 0 };
			for (cardset r = run; r; r &= r - 1) {
				card c = cardset_first(r);
				int take = (takes >> c & 1) || wb == CARD_NONE;
				card top = take ? c : wb;
				int ours = take || holds;
				/* Who could still take it from that side. */
				if ((later[ours] & card_above(top)) || (card_suit(top) != tsuit && cut[ours])) {
					keep |= card_bit(c);
					continue;
				}
				int k = card_points(c) * 8 + card_rank(c);
				if (!ours)
					k = -k;
				if (pick[take] == CARD_NONE || k > pick_k[take]) {
					pick[take] = c;
					pick_k[take] = k;
				}
			}
			for (int t = 0; t < 2; t++)
				if (pick[t] != CARD_NONE)
					keep |= card_bit(pick[t]);
		}
	}
	return keep;
}

/* The moves a search player weighs in play (304's and Trump304's sampled
 * search): the cards of `cards` from the lowest, then CARD_NONE for the
 * one move that is no card (304's open, Trump304's reveal) when `other`;
 * at most max in all. Returns how many. */
static inline int minimax_moves(uint64_t cards, int other, card *moves, int max)
{
	int n = 0;
	for (; cards && n < max - 1; cards &= cards - 1)
		moves[n++] = (card)__builtin_ctzll(cards);
	if (other)
		moves[n++] = CARD_NONE;
	return n;
}

/* The move whose summed value over the samples is highest: the first of
 * those within 1e-9 of each other. */
static inline int minimax_best(const double *sum, int n)
{
	int best = 0;
	for (int m = 1; m < n; m++)
		if (sum[m] > sum[best] + 1e-9)
			best = m;
	return best;
}

#endif
