/* test_g304_wide_props.c: property tests over many seeded random 304
 * matches at every table size but four (which test_g304_props.c covers with
 * its own fast paths): six players with 36 cards, eight with 32, six with
 * 24 (the short game), 504 and 904. In the
 * style of test_g304_props.c.
 *
 * The seat to move always has a legal action and random legal play never
 * wedges (every match ends); an action is accepted exactly when
 * g304_legal_of allows it, and a refused one changes nothing; every card is
 * in exactly one place; a scored deal's points total the pack's (a pcc's
 * sitting-out hands counted for the trumper's side) and the tokens are
 * conserved; a deal called spoilt rightly is one where the trumper's
 * opponents were dealt no trump; no view names a card its seat may not
 * know, modelled here from the deck and the events alone; every caps claim
 * the general judge finds certain wins every remaining trick on the true
 * cards, whatever the others play (several random continuations); the
 * simple player and the timer always act legally; at a size whose first
 * speaker must open the bidding, it always does, at the minimum or more.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"

#define MATCHES_DEFAULT 2000  /* PROPS_MATCHES overrides (the sanitized run: 200); eight players: a quarter */

/* The size under test. */
static const g304_variant *W;
static int size_now;
#define SEATS (W->seats)
#define FIRST (W->first)
#define TRICKS (W->hand)
#define CARDS (g304_pack_cards(W->pack))
#define ALL ((((g304_set)1) << CARDS) - 1)
#define TOTAL (g304_pack_set_points(W->pack, ALL))

typedef struct model {
	g304_set known[G304_SEATS_MAX];
} model;

static long ev_seen[G304_EV_COUNT], outcomes[8], caps_claims, caps_continuations, caps_judged[8],
	pcc_deals, down_cards, inspections_seen, simple_actions, deals_total, matches_over, openings;

static void model_deal(model *m, const g304 *g, int part)
{
	/* part 0: the first batch each; 1: the rest each. */
	int rest = TRICKS - FIRST;
	for (int k = 0; k < SEATS; k++) {
		int seat = (g->dealer + 1 + k) % SEATS;
		if (part == 0)
			for (int i = 0; i < FIRST; i++)
				m->known[seat] |= ((g304_set)1 << g->deck[FIRST * k + i]);
		else
			for (int i = 0; i < rest; i++)
				m->known[seat] |= ((g304_set)1 << g->deck[SEATS * FIRST + rest * k + i]);
	}
}

static void all_know(model *m, card c)
{
	if (c == CARD_NONE)
		return;
	for (int s = 0; s < SEATS; s++)
		m->known[s] |= ((g304_set)1 << c);
}

/* What the events of an accepted action tell each seat. `before` is the
 * state before the action (for the trick that the inspection looked at). */
static void model_events(model *m, const g304 *before, const g304 *after, const play_result *res)
{
	for (int i = 0; i < res->nevents; i++) {
		const play_event *e = &res->events[i];
		ev_seen[e->type]++;
		switch (e->type) {
		case G304_EV_DEALT_REST:
			model_deal(m, after, 1);
			break;
		case G304_EV_PLAYED:
		case G304_EV_OPENED:
			all_know(m, e->card);
			if (e->type == G304_EV_PLAYED && e->card == CARD_NONE)
				down_cards++;
			break;
		case G304_EV_REVEALED:
			all_know(m, e->card);
			break;
		case G304_EV_TRICK: {
			/* The trumper inspects every card of a finished trick. */
			const g304_trick *t = &after->tricks[e->value];
			if (t->down)
				inspections_seen++;
			for (int k = 0; k < t->n; k++) {
				m->known[after->trumper] |= ((g304_set)1 << t->card[k]);
				if (t->shown >> k & 1)
					all_know(m, t->card[k]);
			}
			break;
		}
		case G304_EV_CAPS:
			for (int k = 0; k < after->caps_norder; k++)
				all_know(m, after->caps_order[k]);
			break;
		default:
			break;
		}
	}
	(void)before;
}

static void check_cards(const g304 *g, const char *when)
{
	if (g->phase == G304_PHASE_DEAL || g->phase == G304_PHASE_OVER)
		return;
	g304_set seen = 0;
	int total = 0, overlap = 0;
#define PUT(set) do { g304_set s_ = (set); overlap |= (seen & s_) != 0; seen |= s_; total += __builtin_popcountll(s_); } while (0)
	for (int s = 0; s < SEATS; s++)
		PUT(g->hand[s]);
	if (g->trump_down)
		PUT(((g304_set)1 << g->trump_card));
	if (g->phase == G304_PHASE_BID4 || g->phase == G304_PHASE_TRUMP4) {
		for (int i = SEATS * FIRST; i < CARDS; i++)
			PUT(((g304_set)1 << g->deck[i]));
	}
	if (g->phase == G304_PHASE_PLAY) {
		PUT(g->won[0]);
		PUT(g->won[1]);
		const g304_trick *t = &g->tricks[g->trick_no];
		for (int i = 0; i < t->n; i++)
			PUT(((g304_set)1 << t->card[i]));
	}
#undef PUT
	CHECK(!overlap && total == CARDS && seen == ALL, "%s: cards misplaced (total %d, overlap %d)",
	      when, total, overlap);
}

static void check_views(const g304 *g, const model *m)
{
	for (int s = 0; s < SEATS; s++) {
		g304_view v;
		g304_view_of(g, s, &v);
		g304_set named = v.hand;
		if (v.trump_card != CARD_NONE)
			named |= ((g304_set)1 << v.trump_card);
		for (int i = 0; i < v.ntricks; i++)
			for (int k = 0; k < SEATS; k++)
				if (v.tricks[i].card[k] != CARD_NONE)
					named |= ((g304_set)1 << v.tricks[i].card[k]);
		for (int k = 0; k < v.caps_norder; k++)
			named |= ((g304_set)1 << v.caps_order[k]);
		CHECK(!(named & ~m->known[s]), "seat %d's view names cards it may not know: %09llx", s,
		      (unsigned long long)(named & ~m->known[s]));
		if (g->phase != G304_PHASE_DEAL && g->phase != G304_PHASE_OVER)
			CHECK(v.hand == g->hand[s], "seat %d's view hand differs", s);
		int knows = g->phase != G304_PHASE_DEAL && g->phase != G304_PHASE_OVER && g->trump_card != CARD_NONE
			&& (s == g->trumper || g->trump_public);
		CHECK(knows ? v.trump_suit == g->trump_suit : v.trump_suit == -1, "seat %d: trump suit %d in its view",
		      s, v.trump_suit);
	}
}

/* Does g304_legal_of allow this action? */
static int legal_says(const g304 *g, const g304_action *a)
{
	g304_legal l;
	if (a->seat >= SEATS)
		return 0;
	g304_legal_of(g, a->seat, &l);
	if (!(l.acts >> a->type & 1))
		return 0;
	switch (a->type) {
	case G304_ACT_BID:
		if (a->value == G304_BID_PCC)
			return l.pcc_ok;
		return l.bid_min && a->value >= l.bid_min && a->value <= W->bid_max
			&& g304_bid_step_ok(&g->rules, a->value);
	case G304_ACT_TRUMP:
	case G304_ACT_PLAY:
		return a->card < CARDS && (l.cards >> a->card & 1);
	case G304_ACT_CAPS:
	case G304_ACT_SPOILT:
		return -1; /* judged by the engine: not a plain yes or no */
	default:
		return 1;
	}
}

static void random_probe(const g304 *g, rng *r, g304_action *a)
{
	memset(a, 0, sizeof *a);
	a->seat = (uint8_t)(rng_below(r, 6) ? g->turn : rng_below(r, SEATS + 1));
	if (a->seat == G304_NO_SEAT)
		a->seat = (uint8_t)rng_below(r, SEATS);
	do
		a->type = (uint8_t)rng_below(r, G304_ACT_COUNT);
	while (a->type == G304_ACT_CAPS || a->type == G304_ACT_SPOILT);
	/* From just under the size's lowest bid to just over its highest
	 * (304: 150 to 315). */
	a->value = (uint16_t)(W->bid_min - 10 + 5 * rng_below(r, (uint32_t)(W->bid_max - W->bid_min) / 5 + 6));
	if (rng_below(r, 20) == 0)
		a->value = G304_BID_PCC;
	a->card = (card)rng_below(r, CARDS + 2);
}

/* What a failed claim looked like (CAPS_DEBUG=1). */
static void dump_claim(const g304 *g, const g304 *after, int seat, const card *order, int n)
{
	char code[8];
	fprintf(stderr, "claim by %d (trumper %d, trump %d, open %d, down %d, dealer %d, trick %d):", seat, g->trumper,
		g->trump_suit, g->trump_open, g->trump_down, g->dealer, g->trick_no);
	for (int i = 0; i < n; i++) {
		g304_pack_code(W->pack, order[i], code);
		fprintf(stderr, " %s", code);
	}
	fprintf(stderr, "\nhands:");
	for (int s = 0; s < SEATS; s++) {
		fprintf(stderr, " [%d:", s);
		for (g304_set h = g->hand[s]; h; h &= h - 1) {
			g304_pack_code(W->pack, (card)__builtin_ctzll(h), code);
			fprintf(stderr, " %s", code);
		}
		fprintf(stderr, "]");
	}
	fprintf(stderr, "\nplay:");
	for (int t = 0; t < TRICKS; t++) {
		const g304_trick *tr = &after->tricks[t];
		fprintf(stderr, "\n  trick %d:", t);
		for (int k = 0; k < tr->n; k++) {
			g304_pack_code(W->pack, tr->card[k], code);
			fprintf(stderr, " %d:%s%s", tr->seat[k], code, tr->down >> k & 1 ? "(down)" : "");
		}
		fprintf(stderr, " -> %d", tr->winner);
	}
	fprintf(stderr, "\n");
}

/* Full information: can the five others, seeing every card, make `team`
 * lose a trick from here (the caller bound to its order by the engine)?
 * 1 yes, 0 no, -1 the node budget ran out. */
static long true_nodes;
static int true_refute(const g304 *g, int team, long *budget)
{
	if (g->tricks_won[!team] > 0)
		return 1;
	if (g->phase != G304_PHASE_PLAY)
		return 0;
	if (--*budget < 0)
		return -1;
	true_nodes++;
	g304_legal l;
	g304_legal_of(g, g->turn, &l);
	int undecided = 0;
	for (g304_set cs = l.cards; cs; cs &= cs - 1) {
		g304 c = *g;
		g304_action a = { .type = G304_ACT_PLAY, .seat = g->turn, .card = (card)__builtin_ctzll(cs) };
		if (g304_apply(&c, &a, NULL) != G304_ERR_OK)
			continue;
		int r = true_refute(&c, team, budget);
		if (r == 1)
			return 1;
		undecided |= r < 0;
	}
	return undecided ? -1 : 0;
}

static long true_checked, true_unfinished;

/* A claim found certain wins every remaining trick on the true cards. */
static void check_claim(const g304 *g, int seat, rng *r)
{
	g304_view v;
	card order[G304_TRICKS_MAX];
	int n;
	g304_view_of(g, seat, &v);
	if (!g304_caps_wide_find(&v, G304_CAPS_WIDE_TRACK_BUDGET, order, &n))
		return;
	caps_claims++;
	CHECK(g304_caps_wide_check(&v, order, n), "caps_find's order fails caps_check");
	for (int rep = 0; rep < 4; rep++) {
		g304 c = *g;
		g304_action a = { .type = G304_ACT_CAPS, .seat = (uint8_t)seat, .norder = (uint8_t)n };
		memcpy(a.order, order, (size_t)n);
		play_result res;
		int err = g304_apply(&c, &a, &res);
		CHECK(err == G304_ERR_OK, "a found caps call refused: %s", g304_err_name(err));
		if (err)
			return;
		CHECK(c.caps_judged == G304_CAPSO_CORRECT || c.caps_judged == G304_CAPSO_LATE,
		      "a found caps call judged %s", g304_caps_outcome_name(c.caps_judged));
		caps_judged[c.caps_judged]++;
		int team = g304_team(seat), broken = 0;
		if (rep == 0) {
			/* Against every line of play on the true cards, not only
			 * random ones. */
			long budget = 200000;
			int lost = true_refute(&c, team, &budget);
			CHECK(lost != 1, "a certain caps claim loses a trick on the true cards");
			if (lost == 1 && getenv("CAPS_DEBUG"))
				dump_claim(g, &c, seat, order, n);
			true_checked += lost == 0;
			true_unfinished += lost < 0;
		}
		while (c.phase == G304_PHASE_PLAY) {
			g304_action p;
			CHECK(g304_random_action(&c, r, 0, &p), "no move after a caps call");
			if (p.type == G304_ACT_OPEN) {
				g304_legal l;
				g304_legal_of(&c, p.seat, &l);
				p.type = G304_ACT_PLAY;
				p.card = rng_pick(r, l.cards);
			}
			err = g304_apply(&c, &p, &res);
			CHECK(err == G304_ERR_OK, "a move after a caps call refused: %s", g304_err_name(err));
			if (err)
				return;
			for (int i = 0; i < res.nevents; i++)
				broken |= res.events[i].type == G304_EV_CAPS_BROKEN;
		}
		caps_continuations++;
		CHECK(!broken, "%s: a certain caps order could not be played", W->name);
		if (broken && getenv("CAPS_DEBUG"))
			dump_claim(g, &c, seat, order, n);
		CHECK(c.last.caps != G304_CAPSO_FAILED && c.last.caps != G304_CAPSO_EARLY,
		      "a certain caps claim ended %s (team %d lost a trick)", g304_caps_outcome_name(c.last.caps), team);
		if (getenv("CAPS_DEBUG") && (c.last.caps == G304_CAPSO_FAILED || c.last.caps == G304_CAPSO_EARLY))
			dump_claim(g, &c, seat, order, n);
	}
}

static void play_match(uint64_t seed, int bank)
{
	rng r;
	rng_seed(&r, seed);
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.fives = seed % 3 == 0;
	rules.bidding = seed % 5 == 1 ? G304_BIDDING_SINGLE : G304_BIDDING_PAGAT;
	rules.external_caps = seed % 7 == 2;
	rules.caps = seed % 11 == 3 ? G304_CAPS_LENIENT : G304_CAPS_STRICT;
	if (bank)
		rules.scoring = G304_SCORING_BANK;
	rules.size = (uint8_t)size_now;
	g304_init(&g, &rules, (int)(seed % SEATS));
	model m;
	int steps = 0, deals = 0;
	while (g.phase != G304_PHASE_OVER && steps < 20000) {
		steps++;
		if (g.phase == G304_PHASE_DEAL) {
			uint8_t deck[G304_CARDS_MAX];
			rng_shuffle(&r, deck, CARDS);
			CHECK(g304_deal(&g, deck) == G304_ERR_OK, "deal refused");
			memset(&m, 0, sizeof m);
			model_deal(&m, &g, 0);
			deals++;
			deals_total++;
			check_cards(&g, "after the deal");
			continue;
		}
		/* Every seat's legal moves: the seat to move has one, the others
		 * only the out-of-turn calls (redeal, spoilt, caps, the trumper opening). */
		for (int s = 0; s < SEATS; s++) {
			g304_legal l;
			g304_legal_of(&g, s, &l);
			uint32_t turn_acts = l.acts & ~(1u << G304_ACT_REDEAL | 1u << G304_ACT_SPOILT | 1u << G304_ACT_CAPS
						  | 1u << G304_ACT_OPEN);
			if (s == g.turn)
				CHECK(turn_acts != 0, "seat %d to move has nothing to do (phase %d)", s, g.phase);
			else
				CHECK(turn_acts == 0, "seat %d may act out of turn (phase %d, acts %x)", s, g.phase, turn_acts);
		}
		/* Probes: accepted exactly when legal; refused ones change nothing. */
		for (int k = 0; k < 3; k++) {
			g304_action p;
			random_probe(&g, &r, &p);
			int says = legal_says(&g, &p);
			g304 c = g;
			play_result res;
			int err = g304_apply(&c, &p, &res);
			if (says >= 0)
				CHECK((err == G304_ERR_OK) == says, "%s by %d (%d, card %d) in phase %d: legal says %d, engine %s",
				      g304_act_name(p.type), p.seat, p.value, p.card, g.phase, says, g304_err_name(err));
			if (err)
				CHECK(!memcmp(&c, &g, sizeof g), "a refused %s changed the game", g304_act_name(p.type));
		}
		if (g.phase == G304_PHASE_PLAY && g.caps_seat == G304_NO_SEAT && !g.pcc && rules.caps != G304_CAPS_OFF
		    && steps % 3 == 0) {
			for (int s = 0; s < SEATS; s++) {
				g304_legal l;
				g304_legal_of(&g, s, &l);
				if (l.acts >> G304_ACT_CAPS & 1)
					check_claim(&g, s, &r);
			}
		}
		/* The move: the simple player one time in three, else random. */
		g304_action a;
		if (rng_below(&r, 3) == 0) {
			g304_view v;
			g304_legal l;
			g304_view_of(&g, g.turn, &v);
			g304_legal_of(&g, g.turn, &l);
			CHECK(g304_simple_action(&v, &l, &a), "the simple player has no move");
			simple_actions++;
		} else {
			CHECK(g304_random_action(&g, &r, 1, &a), "no random move");
		}
		g304 before = g;
		play_result res;
		int err = g304_apply(&g, &a, &res);
		if (!err && W->open_min && before.phase == G304_PHASE_BID4 && before.bidder == G304_NO_SEAT
		    && !before.spoke && before.asker == G304_NO_SEAT) {
			CHECK(a.type == G304_ACT_BID && a.value >= W->open_min,
			      "the first speaker did not open at %d or more (%s %d)", W->open_min, g304_act_name(a.type),
			      a.value);
			openings++;
		}
		CHECK(err == G304_ERR_OK, "%s by %d refused: %s", g304_act_name(a.type), a.seat, g304_err_name(err));
		if (err)
			break;
		model_events(&m, &before, &g, &res);
		if (g.phase == G304_PHASE_PLAY && before.phase != G304_PHASE_PLAY && g.pcc)
			pcc_deals++;
		for (int i = 0; i < res.nevents; i++) {
			if (res.events[i].type != G304_EV_DEAL_END)
				continue;
			const g304_deal_end *e = &g.last;
			outcomes[e->outcome]++;
			if (e->outcome == G304_OUTCOME_SCORED)
				CHECK(e->points[0] + e->points[1] == TOTAL, "a scored deal's points total %d",
				      e->points[0] + e->points[1]);
			if (e->outcome == G304_OUTCOME_SPOILT) {
				g304_set opp = 0;
				for (int s = 0; s < SEATS; s++)
					if (g304_team(s) != g304_team(before.trumper))
						opp |= before.dealt[s];
				CHECK(e->spoilt_right == !(opp & g304_pack_suit(W->pack, before.trump_suit)), "spoilt judged wrongly");
			}
			if (!bank)
				CHECK(g304_tokens_total(&g) == 2 * G304_START_TOKENS, "tokens not conserved: %d", g304_tokens_total(&g));
		}
		check_cards(&g, g304_act_name(a.type));
		check_views(&g, &m);
	}
	CHECK(g.phase == G304_PHASE_OVER, "match %llu did not end in %d steps (%d deals)",
	      (unsigned long long)seed, steps, deals);
	matches_over += g.phase == G304_PHASE_OVER;
}

/* The 36-card pack: codes round-trip, points total 304. */
static void check_pack(void)
{
	g304_set all = 0;
	int total = 0;
	for (card c = 0; c < CARDS; c++) {
		char code[8];
		g304_36_code(c, code);
		CHECK(g304_36_parse(code) == c, "card %d: code %s parses to %d", c, code, g304_36_parse(code));
		total += g304_pack_points(&g304_pack_36, c);
		all |= ((g304_set)1 << c);
	}
	CHECK(total == 304, "the 36-card pack totals %d", total);
	CHECK(g304_pack_set_points(&g304_pack_36, all) == 304, "set points %d", g304_pack_set_points(&g304_pack_36, all));
	CHECK(g304_36_parse("6S") == g304_pack_card(&g304_pack_36, SUIT_SPADES, 0) && g304_36_parse("10h") == g304_pack_card(&g304_pack_36, SUIT_HEARTS, 5)
	      && g304_36_parse("6") == CARD_NONE && g304_36_parse("6SS") == CARD_NONE && g304_36_parse("5S") == CARD_NONE,
	      "parsing sixes and tens");
	CHECK(g304_pack_points(&g304_pack_36, g304_36_parse("JD")) == 30 && g304_pack_points(&g304_pack_36, g304_36_parse("9C")) == 20 && g304_pack_points(&g304_pack_36, g304_36_parse("6H")) == 0,
	      "point values");
}

/* Every counter back to zero before the next size. */
static void counters_clear(void)
{
	memset(ev_seen, 0, sizeof ev_seen);
	memset(outcomes, 0, sizeof outcomes);
	memset(caps_judged, 0, sizeof caps_judged);
	caps_claims = caps_continuations = pcc_deals = down_cards = inspections_seen = simple_actions = 0;
	deals_total = matches_over = openings = true_checked = true_unfinished = 0;
}

static void run_size(int size, long matches)
{
	size_now = size;
	W = &g304_variants[size];
	counters_clear();
	for (long i = 0; i < matches; i++)
		play_match((uint64_t)i * 7919 + 13, i % 10 == 9);
	printf("304 for %d (%s): %ld matches (%ld over), %ld deals; outcomes scored %ld, passed out %ld, redeal %ld, "
	       "spoilt %ld; pcc %ld; %ld face-down cards, %ld tricks inspected with face-down cards; "
	       "caps claims %ld (%ld continuations; correct %ld, late %ld; %ld proved against every line on the "
	       "true cards, %ld too long to search); %ld simple-player moves; %ld forced openings\n",
	       W->seats, W->name, matches, matches_over, deals_total, outcomes[G304_OUTCOME_SCORED],
	       outcomes[G304_OUTCOME_PASSED_OUT], outcomes[G304_OUTCOME_REDEAL], outcomes[G304_OUTCOME_SPOILT], pcc_deals,
	       down_cards, inspections_seen, caps_claims, caps_continuations, caps_judged[G304_CAPSO_CORRECT],
	       caps_judged[G304_CAPSO_LATE], true_checked, true_unfinished, simple_actions, openings);
	CHECK(caps_claims > 0 && down_cards > 0 && outcomes[G304_OUTCOME_SPOILT] > 0,
	      "%s: the random matches reach caps, face-down cards and spoilt", W->name);
	CHECK(!W->bid2 || pcc_deals > 0, "%s: the random matches reach pcc", W->name);
	CHECK(!W->open_min || openings > 0, "%s: no forced opening seen", W->name);
	if (W->open_min)
		CHECK(outcomes[G304_OUTCOME_PASSED_OUT] == 0 && outcomes[G304_OUTCOME_REDEAL] == 0,
		      "%s: a deal passed out or redealt although the first speaker must open", W->name);
}

int main(int argc, char **argv)
{
	long matches = argc > 1 ? atol(argv[1]) : getenv("PROPS_MATCHES") ? atol(getenv("PROPS_MATCHES")) : MATCHES_DEFAULT;
	W = &g304_variants[G304_SIZE_SIX];
	check_pack();
	run_size(G304_SIZE_SIX, matches);
	run_size(G304_SIZE_EIGHT, matches / 4 > 0 ? matches / 4 : 1);
	run_size(G304_SIZE_SIX24, matches / 4 > 0 ? matches / 4 : 1);
	run_size(G304_SIZE_504, matches / 4 > 0 ? matches / 4 : 1);
	run_size(G304_SIZE_904, matches / 4 > 0 ? matches / 4 : 1);
	CHECK(g304_pack_set_points(&g304_pack_504, ~(g304_set)0 >> 28) == 504
	      && g304_pack_set_points(&g304_pack_904, ~(g304_set)0 >> 24) == 904, "the 504 and 904 packs' points");
	return check_report("test_g304_wide_props");
}
