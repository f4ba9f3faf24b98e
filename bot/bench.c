/* bench.c: `cardbot bench`: engine figures on one core, printed with how they were measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_random.h"

#define BENCH_SECONDS_DEFAULT 2.0
#define BENCH_STATES 4096            /* play positions sampled for the move-generation figure */
#define BENCH_CAPS_DEALS 10000       /* random deals for the caps-tracking figure */
#define BENCH_CAPS_MAX_CARDS (BENCH_CAPS_DEALS * CARD_COUNT)

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Plays one deal with random legal actions (no spoilt calls), so bidding,
 * the trump choice and all eight tricks go through the public API. Returns
 * the number of actions. Rejected and passed-out deals count as deals too:
 * they are part of what random deals are. */
static long random_deal(g304 *g, rng *r)
{
	card deck[CARD_COUNT];
	if (g->phase == G304_PHASE_OVER) {
		g304_rules rules = g->rules;
		g304_init(g, &rules, 0);
	}
	rng_shuffle_deck(r, deck);
	g304_deal(g, deck);
	long n = 0;
	g304_action a;
	while (g304_random_action(g, r, 0, &a)) {
		if (g304_apply(g, &a, NULL) != G304_ERR_OK) {
			fprintf(stderr, "bench: a legal action was refused; the engine is broken\n");
			exit(1);
		}
		n++;
	}
	return n;
}

static void bench_deals(double seconds, int caps)
{
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = (uint8_t)caps;
	g304_init(&g, &rules, 0);
	rng r;
	rng_seed(&r, 304);
	long deals = 0, played = 0, actions = 0;
	double start = now_seconds(), elapsed;
	do {
		for (int i = 0; i < 1000; i++) {
			actions += random_deal(&g, &r);
			deals++;
			played += g.last.outcome == G304_OUTCOME_SCORED;
		}
		elapsed = now_seconds() - start;
	} while (elapsed < seconds);
	printf("engine.deals_per_second.caps_%s %.0f  (%ld deals in %.2f s, %.1f%% played to the last trick, "
	       "%.1f actions a deal, %.0f ns an action)\n",
	       caps == G304_CAPS_OFF ? "off" : "strict", deals / elapsed, deals, elapsed, 100.0 * played / deals,
	       (double)actions / deals, elapsed * 1e9 / actions);
}

/* Collects positions in play, then times g304_legal_of on them. */
static void bench_movegen(double seconds)
{
	g304 *states = malloc(sizeof *states * BENCH_STATES);
	if (!states) {
		fprintf(stderr, "bench: out of memory\n");
		return;
	}
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	g304_init(&g, &rules, 0);
	rng r;
	rng_seed(&r, 29);
	int n = 0;
	card deck[CARD_COUNT];
	while (n < BENCH_STATES) {
		if (g.phase == G304_PHASE_OVER)
			g304_init(&g, &rules, 0);
		rng_shuffle_deck(&r, deck);
		g304_deal(&g, deck);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) {
			if (g.phase == G304_PHASE_PLAY && n < BENCH_STATES)
				states[n++] = g;
			g304_apply(&g, &a, NULL);
		}
	}
	long calls = 0;
	unsigned sink = 0;
	double start = now_seconds(), elapsed;
	do {
		for (int i = 0; i < BENCH_STATES; i++) {
			g304_legal l;
			g304_legal_of(&states[i], states[i].turn, &l);
			sink += l.cards;
		}
		calls += BENCH_STATES;
		elapsed = now_seconds() - start;
	} while (elapsed < seconds);
	printf("engine.movegen_ns %.1f  (g304_legal_of on %d sampled positions in play, %ld calls; check %u)\n",
	       elapsed * 1e9 / calls, BENCH_STATES, calls, sink & 1);
	free(states);
}

/* The cost, per card played, of the engine's after-every-card question
 * "has caps become certain for anyone?": each play is applied to the game
 * with strict caps and to a copy with caps off; the difference is the
 * tracking's share. */
static void bench_caps(void)
{
	double *cost = malloc(sizeof *cost * BENCH_CAPS_MAX_CARDS);
	if (!cost) {
		fprintf(stderr, "bench: out of memory\n");
		return;
	}
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	g304_init(&g, &rules, 0);
	rng r;
	rng_seed(&r, 3);
	long n = 0;
	card deck[CARD_COUNT];
	for (int d = 0; d < BENCH_CAPS_DEALS; d++) {
		if (g.phase == G304_PHASE_OVER)
			g304_init(&g, &rules, 0);
		rng_shuffle_deck(&r, deck);
		g304_deal(&g, deck);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) {
			g304 off = g;
			off.rules.caps = G304_CAPS_OFF;
			double t0 = now_seconds();
			g304_apply(&off, &a, NULL);
			double t1 = now_seconds();
			g304_apply(&g, &a, NULL);
			double t2 = now_seconds();
			if (a.type == G304_ACT_PLAY && n < BENCH_CAPS_MAX_CARDS) {
				double c = (t2 - t1) - (t1 - t0);
				cost[n++] = c > 0 ? c : 0;
			}
		}
	}
	qsort(cost, (size_t)n, sizeof *cost, cmp_double);
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += cost[i];
	printf("caps.check_us_per_card median %.2f  p90 %.2f  p99 %.1f  worst %.0f  mean %.1f  "
	       "(%ld cards of %d random deals, strict caps, budget %lu positions a check)\n",
	       cost[n / 2] * 1e6, cost[n * 9 / 10] * 1e6, cost[n * 99 / 100] * 1e6, cost[n - 1] * 1e6,
	       sum / (double)n * 1e6, n, BENCH_CAPS_DEALS, G304_CAPS_TRACK_BUDGET);
	free(cost);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cardbot bench [engine|caps|all] [--seconds S]\n"
		   "  engine       random 304 deals per second (caps off and strict) and the\n"
		   "               cost of one legal-move generation\n"
		   "  caps         the per-card cost of caps tracking over %d random deals\n"
		   "  all          both (the default)\n"
		   "  --seconds S  time spent on each timed figure (default %.0f)\n"
		   "Figures are for one core; run on an idle machine.\n",
		BENCH_CAPS_DEALS, BENCH_SECONDS_DEFAULT);
}

int bench_main(int argc, char **argv)
{
	double seconds = BENCH_SECONDS_DEFAULT;
	const char *what = "all";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			char *end;
			seconds = strtod(argv[++i], &end);
			if (*end || seconds <= 0 || seconds > 3600) {
				fprintf(stderr, "bench: --seconds needs a number of seconds (0-3600)\n");
				return 64;
			}
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "engine") == 0 || strcmp(argv[i], "caps") == 0 || strcmp(argv[i], "all") == 0) {
			what = argv[i];
		} else {
			fprintf(stderr, "bench: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 64;
		}
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	printf("# cardbot bench %s --seconds %.1f: one core used; this machine has %ld\n", what, seconds, cpus);
	if (strcmp(what, "caps") != 0) {
		bench_deals(seconds, G304_CAPS_OFF);
		bench_deals(seconds, G304_CAPS_STRICT);
		bench_movegen(seconds);
	}
	if (strcmp(what, "engine") != 0)
		bench_caps();
	return 0;
}
