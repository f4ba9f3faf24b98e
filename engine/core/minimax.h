/* minimax.h: one step of a fail-soft alpha-beta search, shared by every
 * game's exact solver (304, Trump304, Rook).
 */
#ifndef CARDBOT_MINIMAX_H
#define CARDBOT_MINIMAX_H

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

#endif
