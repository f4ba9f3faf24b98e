/* g304_ai_solve.c: the exact endgame solver: alpha-beta over the compact
 * position with a transposition table, for points or a null window.
 *
 * What makes it fast (issue 33), each exact:
 * - the last three tricks are searched on bit masks alone, without
 *   ordering (beyond the cards that take the other side's trick,
 *   lowest first), table or copies of the position, and the last trick is
 *   played out, not searched (every card is forced); the position where
 *   that search begins goes through the table first;
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

/* Does card c beat card b (the trick's best so far, led suit led)? */
static inline int beats(card c, card b, int tsuit)
{
	int cs = card_suit(c), bs = card_suit(b);
	if (cs == bs)
		return c > b;
	return cs == tsuit;
}

/* The last tricks (END_TRICKS) on bit masks alone: no ordering beyond
 * the cards that take the other side's trick first (lowest first), no table,
 * no copies of the position. The trump card still face down on the table
 * is in the trumper's hand here, and plays as the compact position plays
 * it (g304_follow_cards): not while the trumper holds another card, save
 * as a cut to a trick led in another suit; a trick cut with a
 * trump while the game is closed opens it, and the card becomes a card
 * like any other. The last trick is forced. Values are the points the
 * trumper's side takes from where the search on bit masks began. */
#define END_TRICKS 3
typedef struct endgame {
	cardset h[G304_SEATS];     /* hands, the trump card on the table included */
	cardset all;               /* every card in a hand */
	uint8_t owner[CARD_COUNT]; /* the seat holding each card in a hand */
	uint8_t next[G304_SEATS];  /* the seat that plays after each */
	int nseats, tsuit, tm, trumper, led;
	int tdown, open;           /* the trump card lies on the table; the trump is open */
	card tcard;
} endgame;

static int endgame_rec(endgame *e, int s, int k, card best, int bseat, int pts, int cut, int acc, int left,
		       int alpha, int beta);

/* The last trick, led by seat lead: every card is forced, and the
 * highest trump, or of the suit led, wins; acc the points the trumper's
 * side has taken before it. */
static inline int endgame_last(const endgame *e, int lead, int acc)
{
	cardset all = e->all;
	if (!all)
		return acc;
	cardset t = all & suit_mask(e->tsuit);
	card w = cardset_top(t ? t : all & suit_mask(card_suit(cardset_first(e->h[lead]))));
	return (e->owner[w] & 1) == e->tm ? acc + cardset_points(all) : acc;
}

/* A trick starts, led by seat lead, with `left` tricks to go; acc the
 * points the trumper's side has taken so far. */
static inline int endgame_trick(endgame *e, int lead, int acc, int left, int alpha, int beta)
{
	if (left == 1 || !e->all)
		return endgame_last(e, lead, acc);
	int rem = cardset_points(e->all);
	if (acc + rem <= alpha)
		return acc + rem;
	if (acc >= beta)
		return acc;
	return endgame_rec(e, lead, 0, CARD_NONE, 0, 0, 0, acc, left, alpha, beta);
}

/* Card k of the trick, seat s to play: best holds it so far (CARD_NONE at
 * the lead), for seat bseat; pts the points on it; cut: a trump has been
 * played to it in another suit led. */
static int endgame_rec(endgame *e, int s, int k, card best, int bseat, int pts, int cut, int acc, int left,
		       int alpha, int beta)
{
	cardset h = e->h[s];
	cardset tbit = e->tdown && s == e->trumper ? h & card_bit(e->tcard) : 0;
	cardset legal;
	if (best == CARD_NONE)
		legal = h & ~tbit ? h & ~tbit : h;
	else
		legal = g304_follow_cards(h & ~tbit, e->led, tbit ? e->tcard : CARD_NONE, e->tsuit);
	/* The 7 and the 8 of a suit in one hand are the same card (the trump
	 * card on the table is never playable beside another trump). */
	legal &= ~((legal & 0x01010101u) << 1 & legal);
	int maxi = (s & 1) == e->tm, val = maxi ? -1 : 1000, led = e->led;
	/* Against the other side's card, the cards that take the trick first, lowest first. */
	cardset first = 0;
	if (best != CARD_NONE && (bseat & 1) != maxi) {
		first = legal & card_above(best);
		if (card_suit(best) != e->tsuit)
			first |= legal & suit_mask(e->tsuit);
	}
	for (cardset rest = legal; rest;) {
		card c = cardset_first(first ? first : rest);
		first &= ~card_bit(c);
		rest &= ~card_bit(c);
		card nb = best;
		int ns = bseat, ncut = cut, v;
		if (best == CARD_NONE) {
			e->led = card_suit(c);
			nb = c;
			ns = s;
		} else {
			if (beats(c, best, e->tsuit)) {
				nb = c;
				ns = s;
			}
			ncut |= card_suit(c) == e->tsuit && e->led != e->tsuit;
		}
		e->h[s] = h & ~card_bit(c);
		e->all &= ~card_bit(c);
		int npts = pts + rank_pts[card_rank(c)];
		if (k + 1 < e->nseats) {
			v = endgame_rec(e, e->next[s], k + 1, nb, ns, npts, ncut, acc, left, alpha, beta);
		} else if (ncut && !e->open) {
			/* The cut opens the game: the trump card joins the hand. */
			e->open = 1;
			int td = e->tdown;
			e->tdown = 0;
			v = endgame_trick(e, ns, (ns & 1) == e->tm ? acc + npts : acc, left - 1, alpha, beta);
			e->open = 0;
			e->tdown = td;
		} else {
			v = endgame_trick(e, ns, (ns & 1) == e->tm ? acc + npts : acc, left - 1, alpha, beta);
		}
		e->all |= card_bit(c);
		e->h[s] = h;
		e->led = led;
		if (minimax_fold(maxi, v, &val, &alpha, &beta))
			break;
	}
	return val == -1 || val == 1000 ? 0 : val;
}

/* Points the trumper's team takes from p, END_TRICKS or fewer before the end. */
static int endgame_solve(const g304_ai_pos *p, int alpha, int beta)
{
	endgame e;
	e.nseats = p->pcc ? 3 : 4;
	e.tsuit = p->tsuit;
	e.tm = p->trumper & 1;
	e.trumper = p->trumper;
	e.tcard = p->tcard;
	e.tdown = p->tdown;
	e.open = p->open;
	e.all = 0;
	e.led = -1;
	for (int s = 0; s < G304_SEATS; s++) {
		e.h[s] = p->pcc && s == p->sitting_out ? 0
			: p->hand[s] | (s == p->trumper && p->tdown ? card_bit(p->tcard) : 0);
		e.all |= e.h[s];
		for (cardset m = e.h[s]; m; m &= m - 1)
			e.owner[cardset_first(m)] = (uint8_t)s;
		int t = (s + 1) & 3;
		if (p->pcc && t == p->sitting_out)
			t = (t + 1) & 3;
		e.next[s] = (uint8_t)t;
	}
	int left = G304_TRICKS - p->trick_no;
	if (!p->n)
		return endgame_trick(&e, p->turn, 0, left, alpha, beta);
	int w = g304_ai_pos_best(p), pts = 0, cut = 0;
	e.led = card_suit(p->card[0]);
	for (int i = 0; i < p->n; i++) {
		pts += rank_pts[card_rank(p->card[i])];
		cut |= i && card_suit(p->card[i]) != e.led && card_suit(p->card[i]) == p->tsuit;
	}
	return endgame_rec(&e, p->turn, p->n, p->card[w], p->seat[w], pts, cut, 0, left, alpha, beta);
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
	if (sv->aborted)
		return 0;
	/* The last tricks on bit masks; the position where that search
	 * begins, at a trick's start, through the table first (orders of the
	 * tricks before it that lead to the same hands are searched once). */
	int end = p->trick_no >= G304_TRICKS - END_TRICKS;
	if (end && (p->n || p->trick_no > G304_TRICKS - END_TRICKS)) {
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
	if (end)
		return g304_ai_tt_leave(e, &k, endgame_solve(p, alpha, beta), 1, sv->aborted, a0, b0);
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
