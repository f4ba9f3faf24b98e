/* test_t304_props.c: property tests over many seeded random Trump304 deals,
 * for 2, 3 and 4 players.
 *
 * The seat to move always has a legal action and nobody else has one; an
 * action is accepted exactly when t304_legal_of allows it, and a refused one
 * changes nothing; every card is in exactly one place; scored deals total
 * 304 points and the losers pay the winners the token table's amount
 * (totals may go below zero); a card counts as a cut exactly when
 * it is a trump played after the reveal to a trick led in another suit;
 * every trick goes to the highest card of the led suit unless a card of
 * another suit that was trump (known when played) fell, and then to the
 * highest such trump, worked out here from the cards and the moment of the
 * reveal alone (not from the engine's cut flags);
 * spoilt deals are really spoilt; the timer's random move always exists and
 * is accepted; no view names a card its seat may not know. What a seat may
 * know is modelled here from the deck and the events alone.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "t304.h"
#include "t304_simple.h"

#define DEALS_DEFAULT 10000   /* per player count; T304_PROPS_DEALS overrides */

typedef struct model {
	cardset known[T304_MAX_SEATS];
	int revealed;
	int pile;               /* next pile card: deck[pile] */
	int nplayed;            /* cards of the trick in play seen so far */
	card played[T304_MAX_SEATS];
	uint8_t played_by[T304_MAX_SEATS];
	uint8_t shown[T304_MAX_SEATS]; /* the trump was revealed when card i was played */
} model;

static long ev_count[T304_EV_COUNT], outcome_count[3], made_count[2], reveals_asked, reveals_own,
	reveals_last, hidden_trumps_played, exchanges, trump_follows_after_reveal;
static int tokens_below_zero;

static void model_deal(model *m, const t304 *g)
{
	memset(m, 0, sizeof *m);
	int n = g->nseats, k = 0;
	int rounds[3] = { 4, 4, 2 }, nr = n == 4 ? 2 : 3;
	for (int r = 0; r < nr; r++)
		for (int i = 1; i <= n; i++)
			for (int j = 0; j < rounds[r]; j++)
				m->known[(g->dealer + i) % n] |= card_bit(g->deck[k++]);
	m->pile = 20;
}

static void all_know(model *m, card c)
{
	for (int s = 0; s < T304_MAX_SEATS; s++)
		m->known[s] |= card_bit(c);
}

/* Every card in exactly one place. */
static void check_cards(const t304 *g, const char *when)
{
	if (g->phase == T304_PHASE_DEAL)
		return;
	cardset seen = 0;
	int total = 0, overlap = 0;
#define PUT(set) do { cardset s_ = (set); overlap |= (seen & s_) != 0; seen |= s_; total += cardset_count(s_); } while (0)
	for (int s = 0; s < g->nseats; s++)
		PUT(g->hand[s]);
	for (int s = 0; s < g->nseats; s++)
		PUT(g->won[s]);
	PUT(g->centre);
	PUT(g->putdown);
	for (int i = CARD_COUNT - g->npile; i < CARD_COUNT && g->npile; i++)
		PUT(card_bit(g->deck[i]));
	if (g->trump_card != CARD_NONE && !g->revealed)
		PUT(card_bit(g->trump_card));
	if (g->phase == T304_PHASE_PLAY) {
		const t304_trick *t = &g->tricks[g->trick_no];
		for (int i = 0; i < t->n; i++)
			PUT(card_bit(t->card[i]));
	}
#undef PUT
	CHECK(!overlap && total == CARD_COUNT && seen == 0xffffffffu,
	      "%s: cards misplaced (total %d, overlap %d)", when, total, overlap);
	if (g->phase == T304_PHASE_PLAY && g->tricks[g->trick_no].n == 0) {
		int want = g->ntricks - g->trick_no;
		if (g->nseats == 2 && want > 10)
			want = 10; /* the draws keep ten in hand */
		for (int s = 0; s < g->nseats; s++) {
			int have = cardset_count(g->hand[s]) +
				   (s == g->trumper && !g->revealed ? 1 : 0);
			CHECK(have == want, "%s: seat %d holds %d cards at a trick start, wants %d",
			      when, s, have, want);
		}
	}
}

static void check_views(const t304 *g, const model *m)
{
	for (int s = 0; s < g->nseats; s++) {
		t304_view v;
		t304_view_of(g, s, &v);
		cardset named = v.hand | v.putdown;
		if (v.trump_card != CARD_NONE)
			named |= card_bit(v.trump_card);
		for (int i = 0; i < v.trick.n; i++)
			named |= card_bit(v.trick.card[i]);
		for (int i = 0; i < v.last_trick.n; i++)
			named |= card_bit(v.last_trick.card[i]);
		named |= v.held;
		for (int o = 0; o < T304_MAX_SEATS; o++) {
			named |= v.played[o] | v.won[o];
			CHECK(!(v.hand & v.played[o]), "seat %d's view: a card in hand is also played", s);
			for (int x = 0; x < SUIT_COUNT && o < g->nseats; x++)
				if (v.voids[o] >> x & 1)
					CHECK(!(g->hand[o] & suit_mask(x)), "seat %d's view: seat %d void in %d holds it", s, o, x);
		}
		CHECK(!(named & ~m->known[s]), "seat %d's view names cards it may not know: %08x",
		      s, named & ~m->known[s]);
		if (g->phase != T304_PHASE_DEAL)
			CHECK(v.hand == g->hand[s], "seat %d's view hand differs", s);
		int knows_suit = g->phase != T304_PHASE_DEAL && g->trump_card != CARD_NONE && (g->revealed || s == g->trumper);
		CHECK(knows_suit ? v.trump_suit == g->trump_suit : v.trump_suit == -1,
		      "seat %d: trump suit %d in its view (knows: %d)", s, v.trump_suit, knows_suit);
	}
}

/* A random action, legal or not, biased to legal ones. */
static void random_any(const t304 *g, rng *r, t304_action *a)
{
	memset(a, 0, sizeof *a);
	a->seat = (uint8_t)(rng_below(r, 8) ? g->turn : rng_below(r, g->nseats + 1));
	a->type = (uint8_t)rng_below(r, T304_ACT_COUNT);
	a->value = (uint16_t)(140 + 10 * rng_below(r, 18) + (rng_below(r, 6) ? 0 : rng_below(r, 10)));
	a->card = (card)rng_below(r, CARD_COUNT);
	a->put[0] = (card)rng_below(r, CARD_COUNT);
	a->put[1] = (card)rng_below(r, CARD_COUNT);
}

static int legal_says(const t304 *g, const t304_action *a)
{
	t304_legal l;
	if (a->seat >= g->nseats)
		return 0;
	t304_legal_of(g, a->seat, &l);
	if (!(l.acts >> a->type & 1))
		return 0;
	switch (a->type) {
	case T304_ACT_BID:
		return t304_bid_ok(a->value) && a->value >= l.bid_min && a->value <= l.bid_max;
	case T304_ACT_TRUMP:
	case T304_ACT_PLAY:
		return a->card < CARD_COUNT && (l.cards >> a->card & 1);
	case T304_ACT_EXCHANGE:
		return a->put[0] != a->put[1] && (l.cards >> a->put[0] & 1) && (l.cards >> a->put[1] & 1);
	default:
		return 1;
	}
}

/* A wide random legal action for the seat to move (reveals, exchanges, all bids). */
static void random_legal(const t304 *g, rng *r, t304_action *a)
{
	t304_legal l;
	int seat = g->turn;
	t304_legal_of(g, seat, &l);
	memset(a, 0, sizeof *a);
	a->seat = (uint8_t)seat;
	a->card = a->put[0] = a->put[1] = CARD_NONE;
	if (l.acts >> T304_ACT_BID & 1 && (!l.can_pass || rng_below(r, 3) == 0)) {
		int vals[20], n = 0;
		for (int v = l.bid_min; v <= l.bid_max; v = v >= T304_MAX_NUMERIC ? T304_BID_ALL + 1 : v + 10)
			if (t304_bid_ok(v))
				vals[n++] = v;
		if (l.bid_max == T304_BID_ALL && l.bid_min <= T304_BID_ALL && (n == 0 || vals[n - 1] != T304_BID_ALL))
			vals[n++] = T304_BID_ALL;
		a->type = T304_ACT_BID;
		/* Lean to the low end so most deals are not bid to 304. */
		int k = (int)rng_below(r, (uint32_t)n);
		if (rng_below(r, 4))
			k = k / 3;
		a->value = (uint16_t)vals[k];
		return;
	}
	if (l.acts >> T304_ACT_PASS & 1) {
		a->type = T304_ACT_PASS;
		return;
	}
	if (l.acts >> T304_ACT_TRUMP & 1) {
		a->type = T304_ACT_TRUMP;
		a->card = rng_pick(r, l.cards);
		return;
	}
	if (l.acts >> T304_ACT_EXCHANGE & 1) {
		if (rng_below(r, 2)) {
			a->type = T304_ACT_KEEP;
			return;
		}
		a->type = T304_ACT_EXCHANGE;
		a->put[0] = rng_pick(r, l.cards);
		a->put[1] = rng_pick(r, l.cards & ~card_bit(a->put[0]));
		return;
	}
	if ((l.acts >> T304_ACT_REVEAL & 1) && rng_below(r, 3) == 0) {
		a->type = T304_ACT_REVEAL;
		return;
	}
	a->type = T304_ACT_PLAY;
	a->card = rng_pick(r, l.cards);
}

/* The trick's winner from its cards alone: the highest card of the led
 * suit, unless a card of another suit that is trump was played while the
 * trump was known, and then the highest such trump (002, 2.5, 2.5.1, 2.5.2). */
static int trick_winner_expected(const model *m, int trump)
{
	int led = card_suit(m->played[0]), best = -1;
	for (int i = 0; i < m->nplayed; i++)
		if (m->shown[i] && card_suit(m->played[i]) == trump && trump != led &&
		    (best < 0 || card_rank(m->played[i]) > card_rank(m->played[best])))
			best = i;
	if (best < 0) {
		best = 0;
		for (int i = 1; i < m->nplayed; i++)
			if (card_suit(m->played[i]) == led && card_rank(m->played[i]) > card_rank(m->played[best]))
				best = i;
	}
	return m->played_by[best];
}

static void check_end(const t304 *before, const t304 *g)
{
	const t304_deal_end *e = &g->last;
	outcome_count[e->outcome]++;
	int nsides = t304_nsides(g);
	if (e->outcome == T304_OUTCOME_SCORED) {
		CHECK(e->points[0] + e->points[1] == 304, "points %d + %d != 304", e->points[0], e->points[1]);
		made_count[e->made ? 1 : 0]++;
		CHECK(e->made == (e->points[0] >= e->bid), "made %d for %d of %d", e->made, e->points[0], e->bid);
		/* The losing side pays the winners (002, 3.0): each opposing side
		 * pays or is paid the table's amount, the trumper's side the sum. */
		int ts = t304_side(g, e->trumper), amount = e->made ? t304_payoff(e->bid) : t304_charge(e->bid);
		int sum = 0;
		for (int s = 0; s < nsides; s++) {
			int want = s == ts ? (nsides - 1) * (e->made ? amount : -amount) : (e->made ? -amount : amount);
			CHECK(e->change[s] == want, "side %d's tokens changed by %d, want %d (bid %d made %d)", s, e->change[s],
			      want, e->bid, e->made);
			CHECK(g->tokens[s] == before->tokens[s] + want && e->tokens[s] == g->tokens[s], "side %d's tokens", s);
			sum += e->change[s];
			if (g->tokens[s] < 0)
				tokens_below_zero = 1;
		}
		CHECK(sum == 0, "tokens changed hands unevenly: %d in all", sum);
	} else if (e->outcome == T304_OUTCOME_SPOILT) {
		/* Every trump on the trumper's side: two players, all the trumper
		 * ever held; three and four, the hands as play starts. */
		cardset side = card_bit(g->trump_card), suit = suit_mask(g->trump_suit);
		for (int s = 0; s < g->nseats; s++)
			if (t304_partners(g, s, g->trumper))
				side |= g->nseats == 2 ? g->held[s] : g->hand[s];
		if (g->nseats != 2)
			CHECK(g->trick_no == 0 && g->tricks[0].n == 0, "spoilt after play began");
		CHECK((side & suit) == suit, "spoilt deal with a trump off the trumper's side");
		for (int s = 0; s < nsides; s++)
			CHECK(e->change[s] == 0 && g->tokens[s] == before->tokens[s], "spoilt deal moved tokens");
	} else {
		CHECK(0, "unknown outcome %d", e->outcome);
	}
	CHECK(g->dealer == (before->dealer + 1) % g->nseats, "dealer did not move on");
}

static void run_deal(t304 *g, rng *r, long *accepted)
{
	card deck[CARD_COUNT];
	model m;
	rng_shuffle_deck(r, deck);
	CHECK(t304_deal(g, deck) == T304_ERR_OK, "deal refused");
	CHECK(t304_deal(g, deck) == T304_ERR_WRONG_PHASE, "second deal accepted");
	model_deal(&m, g);
	for (int steps = 0; steps < 1000; steps++) {
		check_cards(g, "step");
		check_views(g, &m);
		if (g->phase == T304_PHASE_DEAL)
			return;
		if (g->phase == T304_PHASE_BID)
			CHECK(g->turn != g->bidder, "the high bidder %d has the bidding turn", g->bidder);
		/* Only the seat to move may act, and it always may. */
		for (int s = 0; s < g->nseats; s++) {
			t304_legal l;
			t304_legal_of(g, s, &l);
			CHECK(s == g->turn ? l.acts != 0 : l.acts == 0, "seat %d legal acts %x (turn %d)", s, l.acts, g->turn);
		}
		/* The timer's move exists and is accepted. */
		t304_action ta;
		CHECK(t304_random_action(g, g->turn, r, &ta), "no timer move");
		t304 copy = *g;
		CHECK(t304_apply(&copy, &ta, NULL) == T304_ERR_OK, "timer move refused");
		/* Random actions: accepted exactly when legal; refusals change nothing. */
		for (int k = 0; k < 4; k++) {
			t304_action x;
			random_any(g, r, &x);
			t304_result res;
			copy = *g;
			int ok = t304_apply(&copy, &x, &res) == T304_ERR_OK;
			CHECK(ok == legal_says(g, &x), "act %s seat %d value %d card %d: apply %d legal %d (err %s)",
			      t304_act_name(x.type), x.seat, x.value, x.card, ok, legal_says(g, &x),
			      t304_err_name(res.err));
			if (!ok)
				CHECK(!memcmp(&copy, g, sizeof copy), "refusal changed the game");
		}
		t304_action a;
		random_legal(g, r, &a);
		t304 before = *g;
		t304_result res;
		int err = t304_apply(g, &a, &res);
		CHECK(err == T304_ERR_OK, "random legal %s refused: %s", t304_act_name(a.type), t304_err_name(err));
		if (err)
			return;
		(*accepted)++;
		if (a.type == T304_ACT_EXCHANGE) {
			m.known[a.seat] |= before.centre;
			exchanges++;
		}
		for (int i = 0; i < res.nevents; i++) {
			const t304_event *e = &res.events[i];
			ev_count[e->type]++;
			switch (e->type) {
			case T304_EV_PLAYED: {
				all_know(&m, e->card);
				int k = m.nplayed < T304_MAX_SEATS ? m.nplayed++ : T304_MAX_SEATS - 1;
				m.played[k] = e->card;
				m.played_by[k] = e->seat;
				m.shown[k] = (uint8_t)m.revealed;
				int ts = before.trump_suit, led = card_suit(m.played[0]);
				int is_cut = m.revealed && card_suit(e->card) == ts && k > 0 && led != ts;
				CHECK((e->flags & 1) == is_cut, "cut flag %d for %02x (revealed %d, led suit %d, trump %d)",
				      e->flags & 1, e->card, m.revealed, led, ts);
				if (!m.revealed && card_suit(e->card) == ts)
					hidden_trumps_played++;
				if (k > 0 && led == ts && !m.shown[0] && m.revealed && card_suit(e->card) == ts)
					trump_follows_after_reveal++;
				break;
			}
			case T304_EV_REVEALED:
				CHECK(!m.revealed, "revealed twice");
				m.revealed = 1;
				all_know(&m, e->card);
				CHECK(e->card == before.trump_card, "revealed card is not the trump card");
				if (e->flags & 1) reveals_asked++;
				if (e->flags & 2) reveals_own++;
				if (e->flags & 4) reveals_last++;
				break;
			case T304_EV_TRUMP_SET:
				m.known[e->seat] |= card_bit(g->trump_card);
				break;
			case T304_EV_DRAW:
				CHECK(g->nseats == 2 && m.pile < CARD_COUNT, "draw with no pile");
				if (m.pile < CARD_COUNT)
					m.known[e->seat] |= card_bit(before.deck[m.pile++]);
				break;
			case T304_EV_TRICK: {
				const t304_trick *t = &g->tricks[e->value];
				int want = trick_winner_expected(&m, before.trump_suit);
				CHECK(m.nplayed == g->nseats && e->seat == want && t->winner == want,
				      "trick %d won by %d, want %d (%d cards seen)", e->value, t->winner, want, m.nplayed);
				m.nplayed = 0;
				break;
			}
			case T304_EV_DEAL_END:
				check_end(&before, g);
				break;
			default:
				break;
			}
		}
		if (a.type == T304_ACT_PLAY && before.trick_no == before.ntricks - 1 && g->phase == T304_PHASE_DEAL)
			CHECK(before.revealed, "last trick played with the trump hidden");
	}
	CHECK(0, "deal did not end in 1000 steps");
}

int main(void)
{
	long deals = DEALS_DEFAULT;
	const char *env = getenv("T304_PROPS_DEALS");
	if (env)
		deals = atol(env);
	for (int n = 2; n <= 4; n++) {
		rng r;
		rng_seed(&r, 304u + (unsigned)n);
		t304 g;
		CHECK(t304_init(&g, n, (int)n - 1) == T304_ERR_OK, "init %d", n);
		long accepted = 0;
		memset(outcome_count, 0, sizeof outcome_count);
		memset(made_count, 0, sizeof made_count);
		reveals_asked = reveals_own = reveals_last = hidden_trumps_played = exchanges = 0;
		trump_follows_after_reveal = 0;
		tokens_below_zero = 0;
		for (long d = 0; d < deals; d++)
			run_deal(&g, &r, &accepted);
		printf("  %d players: %ld deals, %ld actions; scored %ld (made %ld, failed %ld), spoilt %ld; "
		       "reveals asked %ld, own %ld, last trick %ld; trumps played hidden %ld; exchanges %ld; "
		       "trumps following a hidden trump lead after a reveal %ld\n",
		       n, deals, accepted, outcome_count[1], made_count[1], made_count[0], outcome_count[2],
		       reveals_asked, reveals_own, reveals_last, hidden_trumps_played, exchanges,
		       trump_follows_after_reveal);
		if (deals >= 1000) {
			CHECK(outcome_count[1] > 0 && made_count[0] > 0 && made_count[1] > 0, "%d: outcomes not all seen", n);
			CHECK(reveals_asked > 0 && reveals_own > 0 && reveals_last > 0, "%d: reveal kinds not all seen", n);
			CHECK(hidden_trumps_played > 0, "%d: no hidden trump played", n);
			CHECK(trump_follows_after_reveal > 0, "%d: no trump followed a hidden trump lead after a reveal", n);
			CHECK(tokens_below_zero, "%d: no side's tokens went below zero", n);
			if (n == 3)
				CHECK(exchanges > 0, "no exchange");
		}
	}
	CHECK(t304_init(&(t304){ 0 }, 1, 0) != T304_ERR_OK, "one player accepted");
	CHECK(t304_init(&(t304){ 0 }, 5, 0) != T304_ERR_OK, "five players accepted");
	return check_report("test_t304_props");
}
