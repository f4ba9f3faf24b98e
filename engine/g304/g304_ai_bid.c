/* g304_ai_bid.c: bidding and the choice of the trump card, by simulated
 * play of the seat's own cards.
 */
#include <string.h>
#include "g304_ai_internal.h"

/* How far under break-even a simulated chance may be and still bid. The
 * simulated defenders see the closed trump, which undervalues the
 * trumper, and a margin of 0.26 once made up for playouts that lost every
 * deal whose leader held trumps alone; with that fixed, break-even itself
 * measured best (cardbot bench ai --a normal --ms 0 --deals 3000 --seed
 * 78, tokens per 100 deals over simple: margin 0.26 +47.6, 0.18 +59.7,
 * 0.10 +68.5, 0.04 +72.5, 0 +75.9). */
#define BID_BOLDNESS 0.0

struct g304_ai_simres {
	int n;
	int hist[31];      /* trumper's side's points, by tens (0..300+) */
	int caps;          /* all eight tricks */
	long sum;
};

/* Plays `n` random completions of the seat's known cards with `c` as its
 * trump card, the seat as trumper at `bid`, and counts the points. */
static void simulate(cardset mine, int me, int dealer, card c, int bid, int pcc, int n, rng *r,
		     g304_ai_stats *st, g304_ai_simres *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		card rest[CARD_COUNT];
		g304_ai_sample_cards(ALL_CARDS & ~mine, r, rest);
		g304_ai_pos p;
		memset(&p, 0, sizeof p);
		p.hand[me] = mine;
		int k = 0;
		while (cardset_count(p.hand[me]) < G304_TRICKS)
			p.hand[me] |= card_bit(rest[k++]);
		for (int s = 0; s < G304_SEATS; s++)
			if (s != me)
				for (int j = 0; j < G304_TRICKS; j++)
					p.hand[s] |= card_bit(rest[k++]);
		p.hand[me] &= ~card_bit(c);
		p.bid = (uint16_t)bid;
		p.trumper = (uint8_t)me;
		p.tsuit = (uint8_t)card_suit(c);
		p.tcard = c;
		p.tdown = 1;
		p.barred = (uint8_t)((dealer + 1) & 3);
		p.pcc = (uint8_t)pcc;
		p.sitting_out = pcc ? (uint8_t)g304_partner(me) : NONE8;
		p.turn = pcc ? (uint8_t)me : (uint8_t)((dealer + 1) & 3);
		g304_ai_playout(&p, r);
		int tt = me & 1;
		int pts = p.pts[tt] + (pcc ? cardset_points(p.hand[g304_partner(me)]) : 0);
		out->hist[pts / 10 > 30 ? 30 : pts / 10]++;
		out->sum += pts;
		out->caps += p.tricks[tt] == G304_TRICKS;
		out->n++;
		if (st)
			st->playouts++;
	}
}

double g304_ai_chance(const int *hist, int nbins, int n, int bid)
{
	if (!n || bid / 10 >= nbins)
		return 0;
	int k = 0;
	for (int i = bid / 10; i < nbins; i++)
		k += hist[i];
	/* Bids are multiples of 5: count half of the straddling ten. */
	if (bid % 10)
		k -= hist[bid / 10] / 2;
	return (double)k / n;
}

/* Chance of taking at least `bid` points. */
static double chance(const g304_ai_simres *s, int bid) { return g304_ai_chance(s->hist, 31, s->n, bid); }

/* The chance needed to make a bid worth taking on: just above break-even. */
static double needed(int bid)
{
	int pay = g304_payoff(FOUR, bid), charge = g304_charge(FOUR, bid);
	double bold = bid < G304_LIMIT_BID ? BID_BOLDNESS : BID_BOLDNESS / 2; /* (a smaller margin for bigger bids) */
	return (double)charge / (pay + charge) - bold;
}

static int sim_count(const g304_ai_params *p)
{
	return p->level >= G304_AI_STRONG ? 240 : 48;
}

/* The best trump card from `from` for a hand `mine`: the lowest card of the
 * suit that scores best in simulation; *res gets that suit's results. */
card g304_ai_bid_trump(cardset mine, cardset from, int me, int dealer, int bid, int pcc,
		       const g304_ai_params *prm, g304_ai_stats *st, g304_ai_simres *res)
{
	card best = CARD_NONE;
	long best_score = -1;
	int n = sim_count(prm);
	for (int x = 0; x < SUIT_COUNT; x++) {
		cardset in = from & suit_mask(x);
		if (!in)
			continue;
		card c = cardset_first(in);
		rng r;
		rng_seed(&r, prm->seed ^ 0x7f4a7c15u); /* the same deals for every suit */
		g304_ai_simres s;
		simulate(mine, me, dealer, c, bid, pcc, n, &r, st, &s);
		long score = pcc ? s.caps * 1000L + s.sum / 100 : s.sum;
		if (score > best_score) {
			best_score = score;
			best = c;
			if (res)
				*res = s;
		}
	}
	return best;
}

static int partner_spoke4(const g304_view *v)
{
	int partner = g304_partner(v->seat);
	for (int i = 0; i < v->nbidlog; i++)
		if (v->bidlog[i].round == 4 && v->bidlog[i].seat == partner)
			return 1;
	return 0;
}

int g304_ai_bid4(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		       g304_ai_stats *st, g304_action *a)
{
	if (l->acts & 1u << G304_ACT_REDEAL) {
		a->type = G304_ACT_REDEAL;
		return 1;
	}
	if (!(l->acts & 1u << G304_ACT_PASS))
		return 0;
	a->type = G304_ACT_PASS;
	int partner_high = v->bidder == g304_partner(v->seat) && v->bid;
	if (!(l->acts & 1u << G304_ACT_BID) || !l->bid_min || partner_high)
		return 1;
	int b = l->bid_min;
	g304_ai_simres s;
	if (g304_ai_bid_trump(v->hand, v->hand, v->seat, v->dealer, b, 0, prm, st, &s) == CARD_NONE)
		return 1;
	double pr = chance(&s, b);
	if (pr >= needed(b)) {
		a->type = G304_ACT_BID;
		a->value = (uint16_t)b;
	} else if ((l->acts & 1u << G304_ACT_PARTNER) && !partner_spoke4(v) && pr >= needed(b) - 0.12
		   && v->asker == G304_NO_SEAT) {
		/* Close, and partner has not said anything yet: let partner judge. */
		a->type = G304_ACT_PARTNER;
	}
	return 1;
}

int g304_ai_bid8(const g304_view *v, const g304_legal *l, const g304_ai_params *prm,
		       g304_ai_stats *st, g304_action *a)
{
	if (!(l->acts & 1u << G304_ACT_PASS))
		return 0;
	a->type = G304_ACT_PASS;
	if (!(l->acts & 1u << G304_ACT_BID))
		return 1;
	int pts = cardset_points(v->hand);
	/* Only hands that could take 250 are worth simulating. */
	if (pts < 110)
		return 1;
	g304_ai_simres s;
	if (l->pcc_ok && pts >= 150) {
		g304_ai_bid_trump(v->hand, v->hand, v->seat, v->dealer, G304_BID_PCC, 1, prm, st, &s);
		if (s.n && (double)s.caps / s.n >= needed(G304_BID_PCC) + 0.15) {
			a->type = G304_ACT_BID;
			a->value = G304_BID_PCC;
			return 1;
		}
	}
	if (l->bid_min) {
		int b = l->bid_min;
		g304_ai_bid_trump(v->hand, v->hand, v->seat, v->dealer, b, 0, prm, st, &s);
		if (chance(&s, b) >= needed(b)) {
			a->type = G304_ACT_BID;
			a->value = (uint16_t)b;
		}
	}
	return 1;
}
