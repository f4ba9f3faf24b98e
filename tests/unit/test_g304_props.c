/* test_g304_props.c: property tests over many seeded random 304 matches.
 *
 * Every match ends; the seat to move always has a legal action; an action is
 * accepted exactly when g304_legal_of says it is allowed, and a refused one
 * changes nothing; no card is ever in two places; scored deals total 304
 * points; tokens are conserved under standard scoring; and no view names a
 * card its seat may not know. What a seat may know is modelled here from the
 * deck and the public events alone, not from the view code under test.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "g304.h"
#include "g304_random.h"
#include "g304_caps.h"

#define MATCHES_DEFAULT 1200 /* about 12,000 deals ("games" in the seeds' words); PROPS_MATCHES overrides */
#define DEALS_PER_MATCH_MAX 2000 /* a random match that runs longer has a bug */

static long ev_count[G304_EV_COUNT];
static long pcc_deals, exhausted_seen, spoilt_wrong;
static long caps_outcomes[8], caps_brute_checked, caps_calls_made;

/* What each seat may know in the current deal. */
typedef struct model {
	cardset known[G304_SEATS];
	int dealer;
} model;

static cardset batch(const g304 *g, int seat, int base)
{
	int k = (seat - g->dealer - 1 + 8) & 3;
	cardset s = 0;
	for (int i = 0; i < 4; i++)
		s |= card_bit(g->deck[base + 4 * k + i]);
	return s;
}

static void model_deal(model *m, const g304 *g)
{
	for (int s = 0; s < G304_SEATS; s++)
		m->known[s] = batch(g, s, 0);
}

static void all_know(model *m, card c)
{
	if (c < CARD_COUNT)
		for (int s = 0; s < G304_SEATS; s++)
			m->known[s] |= card_bit(c);
}

/* Updates the model from the events of one accepted action. `before` is the
 * state before the action (for the trick that the action completed). */
static void model_events(model *m, const g304 *before, const g304 *after, const g304_result *res)
{
	for (int i = 0; i < res->nevents; i++) {
		const g304_event *e = &res->events[i];
		ev_count[e->type]++;
		switch (e->type) {
		case G304_EV_DEALT_REST:
			for (int s = 0; s < G304_SEATS; s++)
				m->known[s] |= batch(after, s, 16);
			break;
		case G304_EV_PLAYED:
			CHECK((e->flags & 1) ? e->card == CARD_NONE : e->card < CARD_COUNT,
			      "a PLAYED event names a face-down card");
			all_know(m, e->card);
			break;
		case G304_EV_OPENED:
		case G304_EV_REVEALED:
			all_know(m, e->card);
			break;
		case G304_EV_TRICK: {
			/* The trick as it stands after the action. */
			const g304_trick *t = &after->tricks[e->value];
			int trumper = before->trumper;
			int revealed = 0;
			for (int k = 0; k < res->nevents; k++)
				revealed |= res->events[k].type == G304_EV_REVEALED && k < i;
			for (int k = 0; k < t->n; k++)
				m->known[trumper] |= card_bit(t->card[k]); /* the inspection */
			/* A reveal in this trick turns up every face-down card except
			 * the trumper's own throw. */
			if (revealed)
				for (int k = 0; k < t->n; k++) {
					int own_throw = t->seat[k] == trumper && t->card[k] != before->trump_card;
					if (!own_throw)
						all_know(m, t->card[k]);
				}
			break;
		}
		default:
			break;
		}
	}
}

/* Brute force on the true cards: can any sequence of legal replies beat
 * `seat` playing order[k..]? (Small endings only: the tree is exhaustive.) */
static int brute_beats(const g304 *g, int seat, const card *order, int k, int n)
{
	int team = g304_team(seat);
	if (g->tricks_won[!team] > 0)
		return 1;
	if (g->phase != G304_PHASE_PLAY)
		return 0;
	int s = g->turn;
	if (s == seat) {
		if (k >= n)
			return 1;
		g304 c = *g;
		g304_action a = { .type = G304_ACT_PLAY, .seat = (uint8_t)seat, .card = order[k] };
		if (g304_apply(&c, &a, NULL) != G304_ERR_OK)
			return 1;
		return brute_beats(&c, seat, order, k + 1, n);
	}
	g304_legal l;
	g304_legal_of(g, s, &l);
	for (cardset m = l.cards; m; m &= m - 1) {
		g304 c = *g;
		g304_action a = { .type = G304_ACT_PLAY, .seat = (uint8_t)s, .card = cardset_first(m) };
		if (g304_apply(&c, &a, NULL) != G304_ERR_OK)
			return 1;
		if (brute_beats(&c, seat, order, k, n))
			return 1;
	}
	return 0;
}

/* When caps has just become certain for a team: check the claim by brute
 * force if the ending is small, and sometimes call it (at once, or late). */
static void caps_moment(g304 *g, const g304 *before, rng *r, model *m)
{
	for (int team = 0; team < 2; team++) {
		if (g->caps_since[team] == G304_CAPS_NEVER || before->caps_since[team] != G304_CAPS_NEVER)
			continue;
		for (int seat = team; seat < G304_SEATS; seat += 2) {
			g304_view v;
			card order[G304_TRICKS];
			int n;
			g304_view_of(g, seat, &v);
			if (g304_caps_find(&v, 0, order, &n, NULL) != 1)
				continue;
			CHECK(g304_caps_check(&v, order, n, NULL), "found order fails its own check");
			if (G304_TRICKS - g->trick_no <= 4) {
				g304 copy = *g;
				copy.rules.caps = G304_CAPS_OFF;
				copy.caps_seat = G304_NO_SEAT; /* judge the order alone, not an earlier call */
				int beaten = brute_beats(&copy, seat, order, 0, n);
				CHECK(!beaten, "a certain caps claim is beaten on the true cards");
				if (beaten && getenv("CAPS_DEBUG")) {
					char b[3];
					printf("seat %d trumper %d trump %c closed %d down %d bid %d dealer %d turn %d trick %d\n", seat,
					       g->trumper, suit_letter(g->trump_suit), !g->trump_open, g->trump_down, g->bid, g->dealer,
					       g->turn, g->trick_no);
					card_code(g->trump_card, b);
					printf("trump card %s\n", b);
					for (int x = 0; x < 4; x++) {
						printf("hand %d:", x);
						for (int cc = 0; cc < 32; cc++)
							if (g->hand[x] >> cc & 1) {
								card_code((card)cc, b);
								printf(" %s", b);
							}
						printf("\n");
					}
					for (int i = 0; i <= g->trick_no && i < 8; i++) {
						printf("trick %d:", i);
						for (int k = 0; k < g->tricks[i].n; k++) {
							card_code(g->tricks[i].card[k], b);
							printf(" %d:%s%s", g->tricks[i].seat[k], b, (g->tricks[i].down >> k & 1) ? "(d)" : "");
						}
						printf("\n");
					}
					printf("order:");
					for (int i = 0; i < n; i++) {
						card_code(order[i], b);
						printf(" %s", b);
					}
					printf("\n");
					exit(3);
				}
				caps_brute_checked++;
			}
			if (g->caps_seat == G304_NO_SEAT && rng_below(r, 2)) {
				g304_action a = { .type = G304_ACT_CAPS, .seat = (uint8_t)seat, .norder = (uint8_t)n };
				memcpy(a.order, order, (size_t)n);
				g304 b2 = *g;
				g304_result res;
				CHECK(g304_apply(g, &a, &res) == G304_ERR_OK, "a certain caps call was refused: %s",
				      g304_err_name(res.err));
				model_events(m, &b2, g, &res);
				CHECK(g->caps_judged == G304_CAPSO_CORRECT, "a timely certain call judged %s",
				      g304_caps_outcome_name(g->caps_judged));
				caps_calls_made++;
			}
			return;
		}
	}
}

static void check_view(const g304 *g, const model *m, int seat, unsigned long where)
{
	g304_view v;
	g304_view_of(g, seat, &v);
	cardset k = m->known[seat];
	CHECK((v.hand & ~k) == 0, "view %lu seat %d: hand not known", where, seat);
	CHECK(v.hand == ((g->phase == G304_PHASE_DEAL || g->phase == G304_PHASE_OVER) ? 0 : g->hand[seat]),
	      "view %lu seat %d: hand differs", where, seat);
	if (v.trump_card != CARD_NONE)
		CHECK(k & card_bit(v.trump_card), "view %lu seat %d shows a trump card it may not know", where, seat);
	if (v.trump_suit >= 0 && seat != g->trumper)
		CHECK(g->trump_open || g->trump_public, "view %lu seat %d knows a closed trump suit", where, seat);
	for (int i = 0; i < v.ntricks; i++)
		for (int j = 0; j < v.tricks[i].n; j++) {
			card c = v.tricks[i].card[j];
			if (c == CARD_NONE)
				continue;
			CHECK(k & card_bit(c), "view %lu seat %d: trick %d shows a card it may not know", where, seat, i);
			CHECK(c == g->tricks[i].card[j], "view %lu seat %d: trick card differs", where, seat);
		}
	for (int i = v.ntricks; i < G304_TRICKS; i++)
		for (int j = 0; j < G304_SEATS; j++)
			CHECK(v.tricks[i].card[j] == 0 || v.tricks[i].card[j] == CARD_NONE, "view: trick beyond play");
}

/* Every card is in exactly one place: a hand, the trump card on the table,
 * a trick, or the undealt half of the deck. */
static void check_cards(const g304 *g, unsigned long where)
{
	if (g->phase == G304_PHASE_DEAL || g->phase == G304_PHASE_OVER)
		return;
	cardset seen = 0;
	int count = 0;
	for (int s = 0; s < G304_SEATS; s++) {
		CHECK(!(seen & g->hand[s]), "%lu: card in two hands", where);
		seen |= g->hand[s];
		count += cardset_count(g->hand[s]);
	}
	if (g->trump_down) {
		CHECK(!(seen & card_bit(g->trump_card)), "%lu: trump card also in a hand", where);
		seen |= card_bit(g->trump_card);
		count++;
	}
	if (g->phase == G304_PHASE_PLAY)
		for (int t = 0; t <= g->trick_no && t < G304_TRICKS; t++)
			for (int k = 0; k < g->tricks[t].n; k++) {
				CHECK(!(seen & card_bit(g->tricks[t].card[k])), "%lu: played card also elsewhere", where);
				seen |= card_bit(g->tricks[t].card[k]);
				count++;
			}
	if (g->phase == G304_PHASE_BID4 || g->phase == G304_PHASE_TRUMP4)
		for (int i = 16; i < CARD_COUNT; i++) {
			CHECK(!(seen & card_bit(g->deck[i])), "%lu: undealt card also dealt", where);
			seen |= card_bit(g->deck[i]);
			count++;
		}
	CHECK(seen == 0xffffffffu && count == CARD_COUNT, "%lu: cards lost (%d)", where, count);
}

/* Does g304_legal_of allow this action? */
static int allowed(const g304 *g, const g304_action *a)
{
	g304_legal l;
	g304_legal_of(g, a->seat, &l);
	if (!(l.acts & 1u << a->type))
		return 0;
	switch (a->type) {
	case G304_ACT_BID:
		if (a->value == G304_BID_PCC)
			return l.pcc_ok;
		return l.bid_min && a->value >= l.bid_min && a->value <= G304_MAX_BID
			&& g304_bid_step_ok(&g->rules, a->value);
	case G304_ACT_TRUMP:
	case G304_ACT_PLAY:
		return a->card < CARD_COUNT && (l.cards & card_bit(a->card));
	default:
		return 1;
	}
}

static void random_junk(rng *r, g304_action *a)
{
	static const uint16_t values[] = { 0, 150, 160, 165, 170, 190, 195, 200, 205, 210, 250, 255,
		260, 300, 305, 310, G304_BID_PCC, 999 };
	memset(a, 0, sizeof *a);
	a->type = (uint8_t)rng_below(r, G304_ACT_COUNT);
	if (a->type == G304_ACT_CAPS || a->type == G304_ACT_SPOILT)
		a->type = G304_ACT_PLAY; /* spoilt is always legal in play; caps comes later */
	a->seat = (uint8_t)rng_below(r, G304_SEATS);
	a->value = values[rng_below(r, sizeof values / sizeof values[0])];
	a->card = (card)rng_below(r, CARD_COUNT + 1);
	if (a->card == CARD_COUNT)
		a->card = CARD_NONE;
}

static void play_match(uint64_t seed, const g304_rules *rules, long *deals_scored, long *actions)
{
	rng r;
	rng_seed(&r, seed);
	g304 g;
	g304_init(&g, rules, (int)rng_below(&r, 4));
	model m;
	card deck[CARD_COUNT];
	int deals = 0;
	unsigned long where = (unsigned long)seed << 16;
	while (g.phase != G304_PHASE_OVER && deals < DEALS_PER_MATCH_MAX) {
		rng_shuffle_deck(&r, deck);
		CHECK(g304_deal(&g, deck) == G304_ERR_OK, "deal refused");
		deals++;
		model_deal(&m, &g);
		int steps = 0;
		while (g.phase != G304_PHASE_DEAL && g.phase != G304_PHASE_OVER) {
			where++;
			check_cards(&g, where);
			/* The seat to move always has a legal action. */
			g304_legal l;
			g304_legal_of(&g, g.turn, &l);
			int own = l.acts & ~(1u << G304_ACT_SPOILT);
			CHECK(g.turn < G304_SEATS && own != 0, "seed %llu: seat to move has no action", (unsigned long long)seed);
			if (!own)
				return;
			/* A junk action: accepted exactly when allowed; refusals change nothing. */
			g304_action a;
			random_junk(&r, &a);
			g304 before = g;
			g304_result res;
			int ok = allowed(&g, &a);
			int err = g304_apply(&g, &a, &res);
			CHECK((err == G304_ERR_OK) == ok, "seed %llu: %s by %d (v%d c%d) %s but legal says %d (%s)",
			      (unsigned long long)seed, g304_act_name(a.type), a.seat, a.value, a.card,
			      err ? "refused" : "accepted", ok, g304_err_name(err));
			if (err) {
				CHECK(memcmp(&before, &g, sizeof g) == 0, "refused action changed the state");
				CHECK(err != G304_ERR_BAD_ACTION && err != G304_ERR_BAD_SEAT, "junk gave a generic error");
			} else {
				model_events(&m, &before, &g, &res);
				(*actions)++;
			}
			if (g.phase == G304_PHASE_DEAL || g.phase == G304_PHASE_OVER)
				break;
			/* Then a legal action. */
			CHECK(g304_random_action(&g, &r, 1, &a), "no random action");
			before = g;
			err = g304_apply(&g, &a, &res);
			CHECK(err == G304_ERR_OK, "seed %llu: random legal %s refused: %s", (unsigned long long)seed,
			      g304_act_name(a.type), g304_err_name(err));
			if (!err)
				model_events(&m, &before, &g, &res);
			(*actions)++;
			if (!err && g.phase == G304_PHASE_PLAY)
				caps_moment(&g, &before, &r, &m);
			exhausted_seen += g.exhausted && !before.exhausted;
			for (int s = 0; s < G304_SEATS; s++)
				check_view(&g, &m, s, where);
			CHECK(++steps < 500, "a deal runs on for ever");
			if (steps >= 500)
				return;
		}
		const g304_deal_end *e = &g.last;
		if (e->outcome == G304_OUTCOME_SCORED) {
			caps_outcomes[e->caps]++;
			if (e->caps == G304_CAPSO_CORRECT)
				CHECK(e->caps_seat < G304_SEATS && e->points[!g304_team(e->caps_seat)] == 0,
				      "a correct caps call lost points");
			if (e->caps != G304_CAPSO_NONE && e->caps_seat == G304_NO_SEAT)
				CHECK(e->caps == G304_CAPSO_LATE && rules->caps == G304_CAPS_STRICT,
				      "caps judged without a call");
			if (rules->caps == G304_CAPS_OFF)
				CHECK(e->caps == G304_CAPSO_NONE, "caps judged with caps off");
		}
		pcc_deals += e->outcome == G304_OUTCOME_SCORED && e->bid == G304_BID_PCC;
		spoilt_wrong += e->outcome == G304_OUTCOME_SPOILT && !e->spoilt_right;
		if (e->outcome == G304_OUTCOME_SCORED) {
			CHECK(e->points[0] + e->points[1] == 304, "scored deal totals %d", e->points[0] + e->points[1]);
			CHECK(e->made == 0 || e->made == 1, "scored deal without made");
			(*deals_scored)++;
		}
		if (rules->scoring == G304_SCORING_STANDARD)
			CHECK(g.tokens[0] + g.tokens[1] == 2 * G304_START_TOKENS, "tokens not conserved");
		else
			CHECK(g304_tokens_total(&g) == 2 * G304_START_TOKENS, "bank tokens not conserved");
		CHECK(g.tokens[0] >= 0 && g.tokens[1] >= 0, "negative tokens");
	}
	CHECK(g.phase == G304_PHASE_OVER, "seed %llu: match did not end in %d deals", (unsigned long long)seed, deals);
	CHECK(g.winner == 0 || g.winner == 1, "no winner");
	CHECK(g.tokens[!g.winner] == 0 || g.tokens[g.winner] > 0, "winner/tokens mismatch");
	CHECK(g.tokens[g.winner] > 0 && g.tokens[!g.winner] == 0, "loser must have no tokens");
}

int main(int argc, char **argv)
{
	long matches = argc > 1 ? atol(argv[1]) : getenv("PROPS_MATCHES") ? atol(getenv("PROPS_MATCHES")) : MATCHES_DEFAULT;
	long scored = 0, actions = 0, bad_matches = 0;
	for (long i = 0; i < matches; i++) {
		int failed_before = check_failed;
		g304_rules rules;
		g304_rules_default(&rules);
		/* Cycle through the options so each is exercised. */
		rules.bidding = (uint8_t)(i % 2);
		rules.fives = (uint8_t)((i / 2) % 2);
		rules.scoring = (uint8_t)((i / 4) % 2);
		rules.caps = (uint8_t)(i % 3);
		rules.external_caps = (uint8_t)((i / 3) % 2);
		play_match((uint64_t)i + 1, &rules, &scored, &actions);
		bad_matches += check_failed != failed_before;
		if (check_failed > 20)
			break;
	}
	printf("props: %ld matches, %ld scored deals, %ld actions\n", matches, scored, actions);
	printf("props: seen:");
	for (int i = 0; i < G304_EV_COUNT; i++)
		printf(" %s=%ld", g304_ev_name(i), ev_count[i]);
	printf(" pcc_scored=%ld exhausted=%ld spoilt_wrong=%ld\n", pcc_deals, exhausted_seen, spoilt_wrong);
	printf("props: caps outcomes:");
	for (int i = 0; i <= G304_CAPSO_FAILED; i++)
		printf(" %s=%ld", g304_caps_outcome_name(i), caps_outcomes[i]);
	printf("; certain claims brute-forced=%ld, correct calls made=%ld\n", caps_brute_checked, caps_calls_made);
	int reached = pcc_deals > 0 && exhausted_seen > 0 && spoilt_wrong > 0 && ev_count[G304_EV_REJECTED] > 0
	      && ev_count[G304_EV_OPENED] > 0 && ev_count[G304_EV_NO_TRUMP] > 0 && ev_count[G304_EV_PASSED_OUT] > 0
	      && ev_count[G304_EV_BID8_WON] > 0;
	reached = reached && caps_brute_checked > 0 && caps_calls_made > 0 && caps_outcomes[G304_CAPSO_CORRECT] > 0
	      && caps_outcomes[G304_CAPSO_EARLY] > 0 && caps_outcomes[G304_CAPSO_LATE] > 0
	      && caps_outcomes[G304_CAPSO_FAILED] > 0;
	/* Coverage is a property of a full-size run only. */
	int coverage_failed = matches >= 1000 && !reached;
	if (coverage_failed)
		fprintf(stderr, "FAIL: random games did not reach every rule and caps outcome\n");
	/* One line per property run: a match passes when every check in it held. */
	printf("props: %d checks passed, %d failed\n", check_passed, check_failed);
	printf("g304_props: %ld passed, %ld failed\n", matches - bad_matches + !coverage_failed,
	       bad_matches + coverage_failed);
	return check_failed || coverage_failed ? 1 : 0;
}
