/* g304_caps_wide.c: the general caps judge (g304_caps_wide.h), for every
 * row of g304_variants: any pack (up to 64 cards), any number of seats,
 * any hand size. Four-player 304 is judged by g304_caps.c's fast path
 * (32-bit sets, deferred settlement) behind the same interface
 * (g304_caps_judge and g304_caps_search below); tests/unit/engine/
 * test_caps_wide.c checks the two against each other on four-player views.
 *
 * The judge never calls a claim certain that is not (a claim it accepts
 * wins every trick however the unseen cards lie and whatever the others
 * play); it decides from the view alone. First a relaxation of the
 * unknown: every card the caller has not seen may be in any other hand,
 * partners' included, and any of them may be played to any trick. Under
 * that relaxation a claim is certain when the caller wins every remaining
 * trick itself: each card it leads is the best of its suit among the unseen
 * cards and, unless it is a trump, no unseen trump is left; the card it
 * plays to a trick already begun beats everything there and everything
 * unseen; and every card of the order is legal when its turn comes (the
 * trump card on the table last, trumps first once the exhausted-trumps rule
 * binds, no trump led to a closed first trick by its first leader). Then,
 * when the relaxation proves nothing, the exact search below. A caller
 * who does not know the trump proves nothing. docs/ENGINE.md says more.
 */
#include <string.h>
#include "g304_caps_wide.h"
#include "g304_caps.h"
#include "g304_wide.h"


g304_set g304_caps_wide_cards(const g304_view *v)
{
	g304_set s = v->hand;
	if (v->seat == v->trumper && v->trump_down && v->trump_card != CARD_NONE)
		s |= BIT(v->trump_card);
	return s;
}

/* The 250 rule: a closed game bid at 250 or more is closed for the first
 * trick only, and then the trump card goes back to the trumper's hand. */
static int back_after_first(const g304_view *v)
{
	return !v->trump_open && v->trump_down && v->bid >= g304_variant_of(&(g304_rules){ .size = v->size })->bid_second
	       && v->bid != G304_BID_PCC && v->ntricks == 1;
}

typedef struct judge {
	const g304_view *v;
	shape sh;
	int ts;           /* the trump suit */
	g304_set unseen;    /* every card that may still be in another hand */
	g304_set trumps;
	int trumper;
	card table_card;  /* the caller's trump card on the table, or CARD_NONE */
	int back;         /* it goes back to the caller's hand once the first trick
	                   * ends (the 250 rule: a closed game of 250 or more is
	                   * closed for the first trick only) */
	int barred;       /* the first lead may not be a trump from hand (closed first trick) */
} judge;

/* No unseen card beats c when c is led (or played as the trick's best). */
static int unbeatable(const judge *j, card c)
{
	const shape *sh = &j->sh;
	g304_set suit = SMASK(SUIT(c));
	g304_set higher = j->unseen & suit & ~((BIT(c) << 1) - 1);
	if (higher)
		return 0;
	return SUIT(c) == j->ts || !(j->unseen & j->trumps);
}

/* The leads from order[k..n-1], hand = the cards not yet played. */
static int leads_ok(const judge *j, const card *order, int k, int n, g304_set hand, int exh, int first_trick)
{
	const shape *sh = &j->sh;
	for (; k < n; k++) {
		card c = order[k];
		if (!unbeatable(j, c))
			return 0;
		card table = j->back && !first_trick ? CARD_NONE : j->table_card;
		g304_set in_hand = hand & ~(table == CARD_NONE ? 0 : BIT(table));
		if (c == table) {
			if (in_hand)
				return 0; /* the trump card is led only as the last card */
		} else if (j->trumper) {
			int trump = SUIT(c) == j->ts;
			if (exh && !trump && (in_hand & j->trumps))
				return 0;
			if (first_trick && j->barred && trump && (in_hand & ~j->trumps))
				return 0;
			if (trump && !(j->unseen & j->trumps) && !j->v->pcc)
				exh = 1;
		}
		hand &= ~BIT(c);
		first_trick = 0;
	}
	return 1;
}

/* The trick in play: who holds it and with what, if every card is seen. */
static int trick_best(const judge *j, const g304_trick *t, card extra, int extra_seat, int *seat, card *best)
{
	const shape *sh = &j->sh;
	int led = SUIT(t->card[0]);
	*best = CARD_NONE;
	for (int i = 0; i <= t->n; i++) {
		card c = i < t->n ? t->card[i] : extra;
		int s = i < t->n ? t->seat[i] : extra_seat;
		if (i == t->n && extra == CARD_NONE)
			break;
		if (c == CARD_NONE)
			return 0; /* a face-down card the caller has not seen */
		int tr = SUIT(c) == j->ts, btr = *best != CARD_NONE && SUIT(*best) == j->ts;
		if (*best == CARD_NONE || (tr && (!btr || c > *best))
		    || (!tr && !btr && SUIT(c) == led && c > *best)) {
			*best = c;
			*seat = s;
		}
	}
	return 1;
}

static int judge_init(judge *j, const g304_view *v)
{
	memset(j, 0, sizeof *j);
	j->v = v;
	shape_of(&j->sh, v->size);
	const shape *sh = &j->sh;
	if (v->phase != G304_PHASE_PLAY || v->trump_suit < 0 || v->ntricks == 0
	    || v->tricks_won[!g304_team(v->seat)] > 0)
		return 0;
	j->ts = v->trump_suit;
	j->trumps = SMASK(j->ts);
	j->trumper = v->seat == v->trumper;
	j->table_card = j->trumper && v->trump_down ? v->trump_card : CARD_NONE;
	j->back = j->table_card != CARD_NONE && back_after_first(v);
	g304_set seen = g304_caps_wide_cards(v);
	for (int i = 0; i < v->ntricks; i++)
		for (int k = 0; k < v->tricks[i].n; k++)
			if (v->tricks[i].card[k] != CARD_NONE)
				seen |= BIT(v->tricks[i].card[k]);
	j->unseen = sh->all & ~seen;
	j->barred = j->trumper && !v->trump_open && v->seat == AFTER(v->dealer);
	return 1;
}

/* The order checked against the trick in play; then its leads. */
static int order_ok(const judge *j, const card *order, int n)
{
	const shape *sh = &j->sh;
	const g304_view *v = j->v;
	int seat = v->seat;
	const g304_trick *t = &v->tricks[v->ntricks - 1];
	g304_set hand = g304_caps_wide_cards(v);
	int k = 0, first_trick = v->ntricks == 1;
	int played = 0;
	for (int i = 0; i < t->n; i++)
		played |= t->seat[i] == seat;
	if (t->n > 0) {
		int wseat;
		card best;
		if (played) {
			if (!trick_best(j, t, CARD_NONE, 0, &wseat, &best))
				return 0;
		} else {
			card c = order[0];
			g304_set in_hand = hand & ~(j->table_card == CARD_NONE ? 0 : BIT(j->table_card));
			int led = SUIT(t->card[0]);
			g304_set legal = in_hand & SMASK(led);
			if (!legal && j->table_card == CARD_NONE)
				legal = in_hand;
			else if (!legal && !in_hand)
				legal = BIT(j->table_card);
			else if (!legal && led == j->ts)
				legal = in_hand;
			else if (!legal)
				legal = (in_hand & ~j->trumps) | BIT(j->table_card);
			if (!(legal & BIT(c)))
				return 0;
			if (!trick_best(j, t, c, seat, &wseat, &best))
				return 0;
			hand &= ~BIT(c);
			k = 1;
		}
		if (wseat != seat || !unbeatable(j, best))
			return 0;
		first_trick = 0;
	} else if (t->leader != seat || v->turn != seat) {
		return 0; /* another leads: it might lead what the caller cannot beat */
	}
	return leads_ok(j, order, k, n, hand, v->exhausted, first_trick);
}

/* Whether order lists each card the claimant may name exactly once. */
static int order_lists_cards(const g304_view *v, const card *order, int n)
{
	g304_set cards = g304_caps_wide_cards(v), listed = 0;
	if (n != CNT(cards) || n == 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (order[i] >= G304_CARDS_MAX || !(cards & BIT(order[i])) || (listed & BIT(order[i])))
			return 0;
		listed |= BIT(order[i]);
	}
	return 1;
}

static int relaxed_check(const g304_view *v, const card *order, int n)
{
	judge j;
	if (!judge_init(&j, v) || !order_lists_cards(v, order, n))
		return 0;
	return order_ok(&j, order, n);
}

/* Tries every order of the cards (at most 6! = 720, and only once every
 * lead is unbeatable on its own). */
static int permute(const judge *j, card *order, int k, int n, g304_set left)
{
	if (k == n)
		return order_ok(j, order, n);
	for (g304_set s = left; s; s &= s - 1) {
		order[k] = FIRST(s);
		if (permute(j, order, k + 1, n, left & ~BIT(order[k])))
			return 1;
	}
	return 0;
}

static int relaxed_find(const g304_view *v, card *order, int *n)
{
	judge j;
	*n = 0;
	if (!judge_init(&j, v))
		return 0;
	g304_set cards = g304_caps_wide_cards(v);
	if (!cards)
		return 0;
	/* Every card but one (the one played to the trick in progress) must
	 * win as a lead; most questions end here. */
	int weak = 0;
	for (g304_set s = cards; s; s &= s - 1)
		weak += !unbeatable(&j, FIRST(s));
	if (weak > 1)
		return 0;
	if (!permute(&j, order, 0, CNT(cards), cards))
		return 0;
	*n = CNT(cards);
	return 1;
}

/* ---- the exact search ----
 *
 * The adversary is the other five seats together with the placement of the
 * unseen cards: it places them as they are played, keeping every partial
 * placement completable (Hall's condition over the four suits: "holders"
 * are the five seats, each with the number of cards it holds and the suits
 * it may still hold, and each face-down card already played that the
 * caller has not seen). A seat that does not follow suit is void in the
 * suit led from then on. Of a run of unseen cards of one suit that no card
 * of the caller or of the trick in play separates, the adversary tries the
 * top and the bottom: the rest of the run is alike for every later trick.
 * The adversary's own restrictions that the caller cannot check from its
 * view (its exhausted trumps, its first lead) are not applied: that only
 * gives it more replies, so a claim proved certain is certain. A claim is
 * refuted when the caller's next card is not legal, or a trick goes to the
 * other team. */

#define HOLDERS (G304_SEATS_MAX + G304_TRICKS_MAX * G304_SEATS_MAX)

typedef struct xs {
	const g304_view *v;
	shape sh;
	const card *order;
	int n, me, team, ts;
	g304_set trumps;
	int nh;                       /* holders: seats first (index = seat), then hidden cards */
	int cap[HOLDERS];
	uint8_t allow[HOLDERS];       /* bit x: may hold suit x */
	unsigned long nodes, budget;
	int out;                      /* the budget ran out */
	int barred;                   /* the caller's first lead may not be a hand trump */
	/* The trick in play as seen, and its hidden cards' holders. */
	const g304_trick *cur;
	int hidden_holder[G304_SEATS_MAX];
	/* The trump card once shown and back in the trumper's hand: everyone
	 * knows where it is until it is played (CARD_NONE otherwise). */
	card known;
	int known_left;               /* it is still in the trumper's hand */
} xs;

static int hall_ok(const xs *x, g304_set unseen)
{
	const shape *sh = &x->sh;
	int supply[SUIT_COUNT];
	for (int su = 0; su < SUIT_COUNT; su++)
		supply[su] = CNT(unseen & SMASK(su));
	for (int m = 1; m < 1 << SUIT_COUNT; m++) {
		int need = 0, room = 0;
		for (int su = 0; su < SUIT_COUNT; su++)
			if (m >> su & 1)
				need += supply[su];
		if (!need)
			continue;
		for (int h = 0; h < x->nh; h++)
			if (x->cap[h] > 0 && (x->allow[h] & m))
				room += x->cap[h];
		if (need > room)
			return 0;
	}
	return 1;
}

typedef struct xtrick {
	int leader, n;
	uint8_t seat[G304_SEATS_MAX];
	card card[G304_SEATS_MAX];
} xtrick;

static int xt_winner(const xs *x, const xtrick *t)
{
	const shape *sh = &x->sh;
	int led = SUIT(t->card[0]), best = 0;
	for (int i = 1; i < t->n; i++) {
		card c = t->card[i], b = t->card[best];
		int tr = SUIT(c) == x->ts, btr = SUIT(b) == x->ts;
		if ((tr && (!btr || c > b)) || (!tr && !btr && SUIT(c) == led && c > b))
			best = i;
	}
	return t->seat[best];
}

/* The caller's next card legal here (its hand, the table card, the rules
 * it is bound by)? */
static int caller_legal(const xs *x, const xtrick *t, g304_set hand, card c, int first_trick, int exh)
{
	const shape *sh = &x->sh;
	const g304_view *v = x->v;
	card table = x->me == v->trumper && v->trump_down && !(first_trick == 0 && back_after_first(v)) ? v->trump_card
										     : CARD_NONE;
	g304_set in_hand = hand & ~(table == CARD_NONE ? 0 : BIT(table));
	if (!(hand & BIT(c)))
		return 0;
	if (t->n == 0) {
		if (c == table)
			return !in_hand;
		if (x->me != v->trumper)
			return 1;
		int trump = SUIT(c) == x->ts;
		if (exh && !trump && (in_hand & x->trumps))
			return 0;
		if (first_trick && x->barred && trump && (in_hand & ~x->trumps))
			return 0;
		return 1;
	}
	int led = SUIT(t->card[0]);
	g304_set legal = in_hand & SMASK(led);
	if (!legal && table == CARD_NONE)
		legal = in_hand;
	else if (!legal && !in_hand)
		legal = BIT(table);
	else if (!legal && led == x->ts)
		legal = in_hand;
	else if (!legal)
		legal = (in_hand & ~x->trumps) | BIT(table);
	return (legal & BIT(c)) != 0;
}

static int refute(xs *x, xtrick *t, int turn, int k, g304_set hand, g304_set unseen, int trick_no, int exh);

/* The adversary's card c by seat s (holder h) to trick t. */
static int adversary_plays(xs *x, xtrick *t, int s, card c, int k, g304_set hand, g304_set unseen, int trick_no,
			   int exh)
{
	const shape *sh = &x->sh;
	uint8_t allow = x->allow[s];
	int from_known = c == x->known && x->known_left;
	if (t->n > 0 && SUIT(c) != SUIT(t->card[0])) {
		/* Not following: a trumper still holding the known card holds its suit. */
		if (s == x->v->trumper && x->known_left && SUIT(x->known) == SUIT(t->card[0]))
			return 0;
		x->allow[s] &= (uint8_t)~(1u << SUIT(t->card[0]));
	}
	if (from_known)
		x->known_left = 0;
	else
		x->cap[s]--;
	int r = 0;
	if (hall_ok(x, unseen & ~BIT(c))) {
		xtrick t2 = *t;
		t2.seat[t2.n] = (uint8_t)s;
		t2.card[t2.n] = c;
		t2.n++;
		r = refute(x, &t2, AFTER(s), k, hand, unseen & ~BIT(c), trick_no, exh);
	}
	if (from_known)
		x->known_left = 1;
	else
		x->cap[s]++;
	x->allow[s] = allow;
	return r;
}

/* The lowest card of the run at the top of `in` (one suit, su, of the
 * pack sh): down to the next card of `sep`, which separates runs. */
static card run_bottom(const shape *sh, g304_set in, g304_set sep, int su)
{
	card top = TOP(in), bottom = top;
	for (card c = top; c > SUIT_LOW(su); c--) {
		card below = (card)(c - 1);
		if (sep & BIT(below))
			break;
		if (in & BIT(below))
			bottom = below;
	}
	return bottom;
}

/* 1 when the adversary can make the claim fail from here (or the budget ran out). */
static int refute(xs *x, xtrick *t, int turn, int k, g304_set hand, g304_set unseen, int trick_no, int exh)
{
	const shape *sh = &x->sh;
	if (++x->nodes > x->budget) {
		x->out = 1;
		return 1;
	}
	if (t->n == sh->seats) {
		int w = xt_winner(x, t);
		if (g304_team(w) != x->team)
			return 1;
		if (trick_no + 1 == sh->hand)
			return 0;
		xtrick next = { .leader = w, .n = 0 };
		return refute(x, &next, w, k, hand, unseen, trick_no + 1, exh);
	}
	if (turn == x->me) {
		if (k >= x->n)
			return 1;
		card c = x->order[k];
		if (!caller_legal(x, t, hand, c, trick_no == 0, exh))
			return 1;
		/* Exhausted trumps binds when the trumper leads a trump from hand
		 * and no other hand holds one: every unseen card is in a hand now
		 * (the hidden cards already played are not trumps). */
		int exh2 = exh;
		if (t->n == 0 && x->me == x->v->trumper && SUIT(c) == x->ts && !(unseen & x->trumps)
		    && !(x->v->trump_down && c == x->v->trump_card && !(trick_no > 0 && back_after_first(x->v))))
			exh2 = 1;
		xtrick t2 = *t;
		t2.seat[t2.n] = (uint8_t)turn;
		t2.card[t2.n] = c;
		t2.n++;
		return refute(x, &t2, AFTER(turn), k + 1, hand & ~BIT(c), unseen, trick_no, exh2);
	}
	/* An adversary seat: its candidates, the likeliest refutations first
	 * (the trick's winners: trumps and the led suit from the top). */
	g304_set sep = hand;
	for (int i = 0; i < t->n; i++)
		sep |= BIT(t->card[i]);
	if (x->known_left)
		sep |= BIT(x->known);
	int led = t->n ? SUIT(t->card[0]) : -1;
	/* The trumper may play the known card: an opponent tries it first (a
	 * trump), a partner last (it helps the claim). */
	int known_now = turn == x->v->trumper && x->known_left;
	int suits[SUIT_COUNT], ns = 0;
	if (x->ts >= 0)
		suits[ns++] = x->ts;
	if (led >= 0 && led != x->ts)
		suits[ns++] = led;
	for (int su = 0; su < SUIT_COUNT; su++)
		if (su != x->ts && su != led)
			suits[ns++] = su;
	/* A partner helps the claim most with its high cards: it tries the
	 * other suits first, and the bottom of a run before its top. */
	int partner = g304_team(turn) == x->team;
	if (known_now && !partner && adversary_plays(x, t, turn, x->known, k, hand, unseen, trick_no, exh))
		return 1;
	for (int j = 0; j < ns; j++) {
		int su = suits[partner ? ns - 1 - j : j];
		if (!(x->allow[turn] >> su & 1))
			continue;
		g304_set in = unseen & SMASK(su);
		while (in) {
			/* The run from the top of what is left: up to the next separator. */
			card top = TOP(in), bottom = run_bottom(sh, in, sep, su);
			g304_set run = in & ((BIT(top) << 1) - BIT(bottom));
			card first = partner ? bottom : top, second = partner ? top : bottom;
			if (adversary_plays(x, t, turn, first, k, hand, unseen, trick_no, exh))
				return 1;
			if (bottom != top && adversary_plays(x, t, turn, second, k, hand, unseen, trick_no, exh))
				return 1;
			in &= ~run;
		}
	}
	if (known_now && partner && adversary_plays(x, t, turn, x->known, k, hand, unseen, trick_no, exh))
		return 1;
	return 0; /* every reply fails to refute (a seat with no card left cannot be here) */
}

/* The runs of `in` (one suit) that `sep` does not separate: calls try(c)
 * for the top and the bottom of each, from the top; stops at a nonzero. */
static int each_run_end(const shape *sh, g304_set in, g304_set sep, int su, int (*try)(void *ctx, card c), void *ctx)
{
	while (in) {
		card top = TOP(in), bottom = run_bottom(sh, in, sep, su);
		int r = try(ctx, top);
		if (!r && bottom != top)
			r = try(ctx, bottom);
		if (r)
			return r;
		in &= ~(in & ((BIT(top) << 1) - BIT(bottom)));
	}
	return 0;
}

typedef struct place_ctx {
	xs *x;
	xtrick t;
	int i, nh;
	g304_set hand, unseen;
	int exh;
} place_ctx;

static int place(xs *x, xtrick t, int i, int h, g304_set hand, g304_set unseen, int exh);

static int place_try(void *ctx, card c)
{
	place_ctx *p = ctx;
	xs *x = p->x;
	int holder = x->hidden_holder[p->nh];
	x->cap[holder]--;
	int r = 0;
	if (hall_ok(x, p->unseen & ~BIT(c))) {
		xtrick t2 = p->t;
		t2.seat[t2.n] = x->cur->seat[p->i];
		t2.card[t2.n] = c;
		t2.n++;
		r = place(x, t2, p->i + 1, p->nh + 1, p->hand, p->unseen & ~BIT(c), p->exh);
	}
	x->cap[holder]++;
	return r;
}

/* Rebuilds the trick in play card by card from i, placing its hidden cards
 * (nh placed so far) in every way that matters; then the search. */
static int place(xs *x, xtrick t, int i, int nh, g304_set hand, g304_set unseen, int exh)
{
	const shape *sh = &x->sh;
	const g304_trick *cur = x->cur;
	for (; i < cur->n && cur->card[i] != CARD_NONE; i++) {
		t.seat[t.n] = cur->seat[i];
		t.card[t.n] = cur->card[i];
		t.n++;
	}
	if (i == cur->n) {
		int turn = cur->n ? AFTER(cur->seat[cur->n - 1]) : cur->leader;
		return refute(x, &t, turn, 0, hand, unseen, x->v->ntricks - 1, exh);
	}
	g304_set sep = hand;
	for (int k = 0; k < cur->n; k++)
		if (cur->card[k] != CARD_NONE)
			sep |= BIT(cur->card[k]);
	if (x->known_left)
		sep |= BIT(x->known);
	place_ctx p = { x, t, i, nh, hand, unseen, exh };
	for (int su = 0; su < SUIT_COUNT; su++) {
		if (!(x->allow[x->hidden_holder[nh]] >> su & 1))
			continue; /* the suit led, or one its player has shown void in */
		int r = each_run_end(sh, unseen & SMASK(su), sep, su, place_try, &p);
		if (r)
			return r;
	}
	return 0;
}

/* The exact question for one order: 0 refuted, 1 certain, -1 undecided
 * within the budget (budget 0: none). */
static int exact_check(const g304_view *v, const card *order, int n, unsigned long budget)
{
	xs x;
	memset(&x, 0, sizeof x);
	x.v = v;
	shape_of(&x.sh, v->size);
	const shape *sh = &x.sh;
	x.order = order;
	x.n = n;
	x.me = v->seat;
	x.team = g304_team(v->seat);
	x.budget = budget ? budget : ~0ul;
	if (v->phase != G304_PHASE_PLAY || v->pcc || v->trump_suit < 0 || v->ntricks == 0
	    || v->tricks_won[!x.team] > 0)
		return 0;
	x.ts = v->trump_suit;
	x.trumps = SMASK(x.ts);
	x.cur = &v->tricks[v->ntricks - 1];
	if (x.cur->winner != G304_NO_SEAT)
		return 0;
	x.nh = sh->seats;
	g304_set mine = g304_caps_wide_cards(v), seen = mine;
	for (int s = 0; s < sh->seats; s++) {
		x.cap[s] = s == x.me ? 0 : sh->hand;
		x.allow[s] = 0xf;
	}
	int nhidden = 0;
	for (int i = 0; i < v->ntricks; i++) {
		const g304_trick *tr = &v->tricks[i];
		if (tr->n && tr->card[0] == CARD_NONE)
			return 0; /* a lead is always face up */
		int led = tr->n ? SUIT(tr->card[0]) : 0;
		for (int k = 0; k < tr->n; k++) {
			int s = tr->seat[k];
			card c = tr->card[k];
			if (s != x.me)
				x.cap[s]--;
			/* Not following shows a void, except the trumper's on a trump
			 * lead: its trump card may have lain on the table then. */
			if (k > 0 && (c == CARD_NONE || SUIT(c) != led) && !(s == v->trumper && led == x.ts))
				x.allow[s] &= (uint8_t)~(1u << led);
			if (c != CARD_NONE) {
				seen |= BIT(c);
				continue;
			}
			if (x.nh >= HOLDERS)
				return 0;
			/* A face-down card the caller has not seen: not of the suit
			 * led; in a finished trick not a trump either (the
			 * inspection turns every trump up). */
			x.cap[x.nh] = 1;
			/* Nor of a suit its player has shown void in before. */
			x.allow[x.nh] = (uint8_t)(x.allow[s] & ~(1u << led));
			if (tr != x.cur)
				x.allow[x.nh] &= (uint8_t)~(1u << x.ts);
			else
				x.hidden_holder[nhidden++] = x.nh;
			x.nh++;
		}
	}
	x.known = CARD_NONE;
	if (x.me != v->trumper && v->trumper < sh->seats && v->trump_card != CARD_NONE && !v->trump_down
	    && !(seen & BIT(v->trump_card))) {
		x.known = v->trump_card;
		x.known_left = 1;
		seen |= BIT(x.known);
		x.cap[v->trumper]--;
	}
	g304_set unseen = sh->all & ~seen;
	int room = 0;
	for (int h = 0; h < x.nh; h++)
		room += x.cap[h];
	if (room != CNT(unseen) || !hall_ok(&x, unseen))
		return 0; /* cannot happen for a view of a real game */
	x.barred = x.me == v->trumper && !v->trump_open && x.me == AFTER(v->dealer);
	xtrick t = { .leader = x.cur->leader, .n = 0 };
	int r = place(&x, t, 0, 0, mine, unseen, v->exhausted);
	if (x.out)
		return -1;
	return r ? 0 : 1;
}

/* ---- the judge and the finder ---- */

int g304_caps_wide_decide(const g304_view *v, const card *order, int n, unsigned long budget)
{
	if (relaxed_check(v, order, n))
		return 1;
	if (!order_lists_cards(v, order, n))
		return 0;
	return exact_check(v, order, n, budget); /* -1: undecided within the budget */
}

int g304_caps_wide_check(const g304_view *v, const card *order, int n)
{
	/* Not refuted within the budget counts as certain (as with four). */
	return g304_caps_wide_decide(v, order, n, G304_CAPS_JUDGE_BUDGET) != 0;
}

/* Orders worth trying first: trumps from the top, then the other suits
 * each from the top, longest suit first or last; the trump card on the
 * table last; with the first lead barred, a non-trump first. */
static int candidate_orders(const g304_view *v, card out[4][G304_TRICKS_MAX], int *n)
{
	shape shv;
	shape_of(&shv, v->size);
	const shape *sh = &shv;
	g304_set cards = g304_caps_wide_cards(v);
	int count = CNT(cards), k = 0;
	card table = v->seat == v->trumper && v->trump_down ? v->trump_card : CARD_NONE;
	int ts = v->trump_suit;
	for (int variant = 0; variant < 4; variant++) {
		card *o = out[k];
		int m = 0;
		g304_set rest = cards & ~(table == CARD_NONE ? 0 : BIT(table));
		if (variant >= 2) {
			/* A non-trump first (its best), then as below. */
			g304_set non = rest & ~SMASK(ts);
			if (!non)
				continue;
			card best = CARD_NONE;
			for (int su = 0; su < SUIT_COUNT; su++) {
				g304_set in = non & SMASK(su);
				if (in && (best == CARD_NONE || RANK(TOP(in)) > RANK(best)))
					best = TOP(in);
			}
			o[m++] = best;
			rest &= ~BIT(best);
		}
		for (g304_set tr = rest & SMASK(ts); tr; tr &= ~BIT(TOP(tr)))
			o[m++] = TOP(tr);
		rest &= ~SMASK(ts);
		int su_order[SUIT_COUNT], ns = 0;
		for (int su = 0; su < SUIT_COUNT; su++)
			if (su != ts && (rest & SMASK(su)))
				su_order[ns++] = su;
		for (int a = 0; a < ns; a++)
			for (int b = a + 1; b < ns; b++) {
				int la = CNT(rest & SMASK(su_order[a])), lb = CNT(rest & SMASK(su_order[b]));
				if ((variant & 1) ? la > lb : la < lb) {
					int tmp = su_order[a];
					su_order[a] = su_order[b];
					su_order[b] = tmp;
				}
			}
		for (int a = 0; a < ns; a++)
			for (g304_set in = rest & SMASK(su_order[a]); in; in &= ~BIT(TOP(in)))
				o[m++] = TOP(in);
		if (table != CARD_NONE)
			o[m++] = table;
		if (m == count)
			k++;
	}
	*n = count;
	return k;
}

int g304_caps_wide_find(const g304_view *v, unsigned long budget, card *order, int *n)
{
	if (relaxed_find(v, order, n))
		return 1;
	*n = 0;
	if (v->phase != G304_PHASE_PLAY || v->trump_suit < 0 || !g304_caps_wide_cards(v))
		return 0;
	card cand[4][G304_TRICKS_MAX];
	int count, k = candidate_orders(v, cand, &count);
	for (int i = 0; i < k; i++) {
		if (exact_check(v, cand[i], count, budget) == 1) {
			memcpy(order, cand[i], (size_t)count);
			*n = count;
			return 1;
		}
	}
	return 0;
}

/* ---- the engine's caps tracking at this size ---- */

void g304_caps_wide_track(g304 *g, int when)
{
	shape shv;
	shape_of(&shv, g->rules.size);
	const shape *sh = &shv;
	for (int team = 0; team < 2; team++) {
		if (g->caps_since[team] != G304_CAPS_NEVER || g->tricks_won[!team] > 0)
			continue;
		for (int seat = team; seat < sh->seats; seat += 2) {
			if (!g304_caps_may_call(g, seat))
				continue;
			g304_view v;
			card order[G304_TRICKS_MAX];
			int n;
			g304_view_of(g, seat, &v);
			if (!g304_caps_wide_cards(&v))
				continue;
			if (g304_caps_wide_find(&v, G304_CAPS_WIDE_TRACK_BUDGET, order, &n)) {
				g->caps_since[team] = (int8_t)when;
				break;
			}
		}
	}
}

/* ---- one interface: the fast four-player path, or the general one ---- */

int g304_caps_judge(const g304_view *v, const card *order, int n)
{
	if (v->size == G304_SIZE_FOUR)
		return g304_caps_check(v, order, n, NULL);
	return g304_caps_wide_check(v, order, n);
}

int g304_caps_search(const g304_view *v, unsigned long budget, card *order, int *n)
{
	if (v->size == G304_SIZE_FOUR)
		return g304_caps_find(v, budget, order, n, NULL) == 1;
	return g304_caps_wide_find(v, budget, order, n);
}

int g304_caps_offer(const g304_view *v, const g304_legal *l, unsigned long budget, g304_action *a)
{
	if (v->size == G304_SIZE_FOUR)
		return g304_caps_try(v, l, budget, a);
	if (!(l->acts & 1u << G304_ACT_CAPS) || v->caps_seat != G304_NO_SEAT)
		return 0;
	card order[G304_TRICKS_MAX];
	int n;
	if (!g304_caps_wide_find(v, budget, order, &n))
		return 0;
	a->type = G304_ACT_CAPS;
	a->seat = v->seat;
	a->norder = (uint8_t)n;
	memcpy(a->order, order, (size_t)n);
	return 1;
}
