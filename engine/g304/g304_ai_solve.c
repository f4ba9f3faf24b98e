/* g304_ai_solve.c: the exact endgame solver: alpha-beta over the compact
 * position with a transposition table, for points or a null window.
 *
 * What makes it fast (issue 33), each exact:
 * - the last trick is played out, not searched (every card is forced),
 *   and the one before it is searched on bit masks alone, without
 *   ordering, table or copies of the position;
 * - one solve uses a small table (it stores a hundred positions or so),
 *   so clearing it costs little;
 * - the points still in play bound the value, from the scores alone;
 * - cards of one hand that no other live card separates are one card for
 *   the rest of the deal: the 7 and the 8 of a suit (no points either)
 *   are tried once; and of such a run, the cards that take the trick and
 *   those that leave it where it is are each tried once when no seat
 *   still to play could take the trick from the side that then holds it
 *   (the same seat leads on whichever card it is, and the other cards of
 *   the run would only give this trick's winners fewer points and a later
 *   trick's more): the dearest where that side is the seat's own, else
 *   the cheapest;
 * - moves are ordered by what a player would do (win cheaply, feed a
 *   partner who holds the trick, lead masters), and when solving for the
 *   points after the card that last cut for the same seat in the same
 *   trick, so cuts come early.
 */
#include <stdlib.h>
#include <string.h>
#include "g304_ai_internal.h"
#include "minimax.h"

/* The card that last cut for the same seat in the same trick is tried first. */
#define KILLER_BONUS 1000
static const int8_t rank_pts[RANK_COUNT] = { 0, 0, 2, 3, 10, 11, 20, 30 };

/* Points still to be taken: every card not in a finished trick (a pcc
 * partner's cards never are). */
static inline int remaining(const g304_ai_pos *p)
{
	int r = 304 - p->pts[0] - p->pts[1];
	if (p->pcc && p->sitting_out < G304_SEATS)
		r -= cardset_points(p->hand[p->sitting_out]);
	return r;
}

/* The last trick, where every card is forced: the winner takes the
 * points of every card still in play. */
static int last_trick(const g304_ai_pos *p)
{
	cardset all = 0, hands[G304_SEATS];
	for (int s = 0; s < G304_SEATS; s++) {
		hands[s] = p->pcc && s == p->sitting_out ? 0 : p->hand[s];
		if (p->tdown && s == p->trumper)
			hands[s] |= card_bit(p->tcard);
		all |= hands[s];
	}
	for (int i = 0; i < p->n; i++)
		all |= card_bit(p->card[i]);
	card lead = p->n ? p->card[0] : (hands[p->turn] ? cardset_first(hands[p->turn]) : CARD_NONE);
	if (lead == CARD_NONE)
		return 0;
	cardset t = all & suit_mask(p->tsuit);
	card w = cardset_top(t ? t : all & suit_mask(card_suit(lead)));
	int seat = -1;
	for (int i = 0; i < p->n; i++)
		if (p->card[i] == w)
			seat = p->seat[i];
	for (int s = 0; s < G304_SEATS && seat < 0; s++)
		if (hands[s] & card_bit(w))
			seat = s;
	return (seat & 1) == (p->trumper & 1) ? cardset_points(all) : 0;
}

/* Does card c beat card b (the trick's best so far, led suit led)? */
static inline int beats(card c, card b, int tsuit)
{
	int cs = card_suit(c), bs = card_suit(b);
	if (cs == bs)
		return c > b;
	return cs == tsuit;
}

/* The last two tricks on bit masks alone: at most two cards a hand, so
 * no ordering, no table, no copies of the position. */
typedef struct endgame {
	cardset h[G304_SEATS];     /* hands, the trump card on the table included */
	cardset all;               /* every card in a hand */
	uint8_t owner[CARD_COUNT]; /* the seat holding each card in a hand */
	uint8_t order[G304_SEATS]; /* the seats in the order they play this trick */
	int nseats, tsuit, tm;
	int trumper, led;
	card tcard;                /* the trump card while it lies on the table, else CARD_NONE */
} endgame;

/* The trick is done: its points to its winner, then the forced last trick. */
static inline int endgame_last(const endgame *e, int wseat, int trick_pts)
{
	int v = (wseat & 1) == e->tm ? trick_pts : 0;
	cardset all = e->all;
	if (!all)
		return v;
	card lead = cardset_first(e->h[wseat]);
	cardset t = all & suit_mask(e->tsuit);
	card w = cardset_top(t ? t : all & suit_mask(card_suit(lead)));
	return (e->owner[w] & 1) == e->tm ? v + cardset_points(all) : v;
}

/* Card k of the trick; best is the card winning it so far (CARD_NONE at
 * the lead), bseat its seat. */
static int endgame_rec(endgame *e, int k, card best, int bseat, int trick_pts, int alpha, int beta)
{
	int s = e->order[k];
	cardset h = e->h[s];
	cardset tbit = s == e->trumper && e->tcard != CARD_NONE ? card_bit(e->tcard) : 0;
	cardset legal;
	if (best == CARD_NONE)
		legal = h & ~tbit ? h & ~tbit : h;
	else
		legal = g304_follow_cards(h & ~tbit, e->led, tbit ? e->tcard : CARD_NONE, e->tsuit);
	int maxing = (s & 1) == e->tm;
	int val = maxing ? -1 : 1000;
	for (; legal; legal &= legal - 1) {
		card c = cardset_first(legal);
		e->h[s] = h & ~card_bit(c);
		e->all &= ~card_bit(c);
		card nb = best;
		int ns = bseat;
		if (best == CARD_NONE || beats(c, best, e->tsuit)) {
			nb = c;
			ns = s;
		}
		if (best == CARD_NONE)
			e->led = card_suit(c);
		int v = k + 1 == e->nseats ? endgame_last(e, ns, trick_pts + rank_pts[card_rank(c)])
			: endgame_rec(e, k + 1, nb, ns, trick_pts + rank_pts[card_rank(c)], alpha, beta);
		e->all |= card_bit(c);
		if (minimax_fold(maxing, v, &val, &alpha, &beta))
			break;
	}
	e->h[s] = h;
	return val == -1 || val == 1000 ? 0 : val;
}

/* Points the trumper's team takes from p, two tricks before the end. */
static int endgame_solve(const g304_ai_pos *p, int alpha, int beta)
{
	endgame e;
	e.nseats = p->pcc ? 3 : 4;
	e.tsuit = p->tsuit;
	e.tm = p->trumper & 1;
	e.trumper = p->trumper;
	e.tcard = p->tdown ? p->tcard : CARD_NONE;
	e.all = 0;
	for (int s = 0; s < G304_SEATS; s++) {
		e.h[s] = p->pcc && s == p->sitting_out ? 0
			: p->hand[s] | (s == p->trumper && p->tdown ? card_bit(p->tcard) : 0);
		e.all |= e.h[s];
		for (cardset m = e.h[s]; m; m &= m - 1)
			e.owner[cardset_first(m)] = (uint8_t)s;
	}
	/* The seats in playing order from the trick's leader. */
	int s = p->n ? p->seat[0] : p->turn;
	for (int k = 0; k < e.nseats; k++) {
		e.order[k] = (uint8_t)s;
		s = (s + 1) & 3;
		if (p->pcc && s == p->sitting_out)
			s = (s + 1) & 3;
	}
	if (!p->n)
		return endgame_rec(&e, 0, CARD_NONE, 0, 0, alpha, beta);
	int w = g304_ai_pos_best(p), pts = 0;
	for (int i = 0; i < p->n; i++)
		pts += rank_pts[card_rank(p->card[i])];
	e.led = card_suit(p->card[0]);
	return endgame_rec(&e, p->n, p->card[w], p->seat[w], pts, alpha, beta);
}

/* The moves worth trying from p, best guesses first; returns how many. */
static int gen_moves(const g304_ai_pos *p, card killer, card *out)
{
	cardset legal = g304_ai_pos_legal(p);
	if (!(legal & (legal - 1))) {
		if (!legal)
			return 0;
		out[0] = cardset_first(legal);
		return 1;
	}
	int s = p->turn, team = s & 1;
	int nseats = p->pcc ? 3 : 4;
	cardset trumps = suit_mask(p->tsuit);
	cardset own = p->hand[s] & legal; /* the trump card on the table left out */
	cardset others = 0, opp = 0, rest = 0;
	for (int t = 0; t < G304_SEATS; t++) {
		if (t == s || (p->pcc && t == p->sitting_out))
			continue;
		cardset h = p->hand[t];
		if (p->tdown && t == p->trumper)
			h |= card_bit(p->tcard);
		others |= h;
		if ((t & 1) != team)
			opp |= h;
	}
	/* The 7 and the 8 of a suit in one hand are the same card. */
	legal &= ~((own & 0x01010101u) << 1 & own);
	int last = p->n == nseats - 1;
	card wb = CARD_NONE;
	int wteam = 0;
	if (p->n) {
		int w = g304_ai_pos_best(p);
		wb = p->card[w];
		wteam = p->seat[w] & 1;
	}
	/* The seats still to play to this trick after s, by side. */
	cardset later[2] = { 0, 0 }; /* [0]: partners, [1]: opponents */
	for (int k = p->n + 1, t = s; k < nseats; k++) {
		t = (t + 1) & 3;
		if (p->pcc && t == p->sitting_out)
			t = (t + 1) & 3;
		cardset h = p->hand[t];
		if (p->tdown && t == p->trumper)
			h |= card_bit(p->tcard);
		later[(t & 1) != team] |= h;
	}
	rest = later[0] | later[1];
	cardset takes = 0;
	for (cardset l = legal; l && wb != CARD_NONE; l &= l - 1)
		if (beats(cardset_first(l), wb, p->tsuit))
			takes |= l & -l;
	int cut[2] = { (later[0] & trumps) != 0, (later[1] & trumps) != 0 };
	legal = minimax_runs(legal, own, others, takes, wb, wteam == team, later, cut, p->tsuit);
	/* Scores: higher first. */
	int score[G304_TRICKS + 1];
	int n = 0;
	int trick_pts = 0;
	for (int i = 0; i < p->n; i++)
		trick_pts += rank_pts[card_rank(p->card[i])];
	cardset opp_trumps = opp & trumps;
	for (cardset l = legal; l; l &= l - 1) {
		card c = cardset_first(l);
		int x = card_suit(c);
		minimax_card mc = { .pts = rank_pts[card_rank(c)], .trump = x == p->tsuit, .lead = p->n == 0 };
		if (p->n == 0) {
			mc.master = !(others & card_above(c));
			mc.opp_trumps = opp_trumps != 0;
			mc.suit_len = cardset_count(own & suit_mask(x));
		} else {
			mc.wins = beats(c, wb, p->tsuit);
			mc.partner = wteam == team;
			mc.trick_pts = trick_pts;
			if (mc.wins) /* nobody left can beat it */
				mc.safe = last || (!(rest & card_above(c)) && (x == p->tsuit || !(rest & trumps)));
			else /* nobody left can beat the partner's card */
				mc.safe = last || (!(rest & card_above(wb)) && (card_suit(wb) == p->tsuit || !(rest & trumps)));
		}
		n = minimax_add_killer(out, score, n, c, minimax_card_score(&mc), killer, KILLER_BONUS);
	}
	return n;
}

/* Points the trumper's team takes from here; alpha-beta, fail-soft. */
int g304_ai_solve_rec(g304_ai_solver *sv, const g304_ai_pos *p, int alpha, int beta)
{
	if (p->trick_no >= G304_TRICKS - 1)
		return p->trick_no >= G304_TRICKS ? 0 : last_trick(p);
	if (sv->aborted)
		return 0;
	if (p->trick_no == G304_TRICKS - 2) {
		sv->nodes++;
		return endgame_solve(p, alpha, beta);
	}
	if ((++sv->nodes & 4095) == 0 && sv->stop && sv->stop(sv->stop_ctx)) {
		sv->aborted = 1;
		return 0;
	}
	int tm = p->trumper & 1;
	/* The trumper's side takes between nothing and every point still in
	 * play: a window outside that range is settled without a search, as
	 * is a position the table settles. */
	g304_ai_tt_entry *e;
	g304_ai_key k;
	int settled;
	if (g304_ai_tt_enter(sv->tt, sv->tt_mask, p, remaining(p), &alpha, &beta, &e, &k, &settled))
		return settled;
	int a0 = alpha, b0 = beta;
	card moves[G304_TRICKS + 1];
	card *killer = &sv->killer[p->trick_no & 7][p->turn & 3];
	/* The killer helps a wide window (the points) and costs a null one
	 * (the search's question) more than it saves. */
	int nm = gen_moves(p, beta - alpha > 1 ? *killer : CARD_NONE, moves);
	int maxing = (p->turn & 1) == tm;
	int best = maxing ? -1 : 1000;
	for (int i = 0; i < nm; i++) {
		int v;
		G304_AI_CHILD(v, g304_ai_solve_rec, sv, p, moves[i], tm, alpha, beta);
		if (minimax_fold(maxing, v, &best, &alpha, &beta)) {
			*killer = moves[i];
			break;
		}
	}
	return g304_ai_tt_leave(e, &k, best, nm, sv->aborted, a0, b0);
}

int g304_ai_solver_init(g304_ai_solver *sv, int bits)
{
	memset(sv, 0, sizeof *sv);
	memset(sv->killer, CARD_NONE, sizeof sv->killer);
	sv->tt = minimax_table(bits, sizeof *sv->tt, &sv->tt_mask);
	return sv->tt != NULL;
}

void g304_ai_solver_free(g304_ai_solver *sv)
{
	free(sv->tt);
	sv->tt = NULL;
}

int g304_ai_solve(const g304_ai_pos *p, unsigned long *nodes)
{
	g304_ai_solver sv;
	g304_ai_solver_init(&sv, G304_AI_TT_BITS_ONE);
	int v;
	v = g304_ai_solve_rec(&sv, p, -1, 1000);
	g304_ai_solver_free(&sv);
	if (nodes)
		*nodes += sv.nodes;
	return v;
}

int g304_ai_solve_reaches(const g304_ai_pos *p, int need, unsigned long *nodes)
{
	g304_ai_solver sv;
	g304_ai_solver_init(&sv, G304_AI_TT_BITS_ONE);
	int v = g304_ai_solve_rec(&sv, p, need - 1, need);
	g304_ai_solver_free(&sv);
	if (nodes)
		*nodes += sv.nodes;
	return v >= need;
}
