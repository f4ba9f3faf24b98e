/* bench.c: `cardbot bench`: engine figures on one core, printed with how they were measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "bench_ref.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_random.h"
#include "g304_ai.h"
#include "g304_ai_match.h"
#include "g304_simple.h"
#include "g304six.h"
#include "game.h"
#include "game_dup.h"
#include "store.h"

#define BENCH_SECONDS_DEFAULT 2.0
#define BENCH_STATES 4096            /* play positions sampled for the move-generation figure */
#define BENCH_CAPS_DEALS 10000       /* random deals for the caps-tracking figure (--deals) */
#define BENCH_CAPS_DEALS_MAX 1000000

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread, in seconds. */
static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* malloc that says on stderr when it fails. */
static void *bench_alloc(size_t size)
{
	void *p = malloc(size);
	if (!p)
		fprintf(stderr, "bench: out of memory\n");
	return p;
}

/* A match of four-player 304 under the default rules but caps (seat 0
 * deals first), and r seeded with seed: where every random benchmark
 * starts; bench_start_size for another table size. */
static void bench_start_size(g304 *g, rng *r, int caps, uint64_t seed, int size)
{
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = (uint8_t)caps;
	rules.size = (uint8_t)size;
	g304_init(g, &rules, 0);
	rng_seed(r, seed);
}

static void bench_start(g304 *g, rng *r, int caps, uint64_t seed)
{
	bench_start_size(g, r, caps, seed, G304_SIZE_FOUR);
}

/* Deals g's next hand from a shuffle by r; a new match under the same
 * rules once the last is over. */
static void next_deal(g304 *g, rng *r)
{
	card deck[G304_CARDS_MAX];
	if (g->phase == G304_PHASE_OVER) {
		g304_rules rules = g->rules;
		g304_init(g, &rules, 0);
	}
	rng_shuffle(r, deck, g->ncards);
	g304_deal(g, deck);
}

/* Plays one deal with random legal actions (no spoilt calls), so bidding,
 * the trump choice and all eight tricks go through the public API. Returns
 * the number of actions. Rejected and passed-out deals count as deals too:
 * they are part of what random deals are. */
static long random_deal(g304 *g, rng *r)
{
	next_deal(g, r);
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

/* Random deals a second at a table size, caps off or strict (strict asks
 * the caps tracking after every card). */
static void bench_deals(double seconds, int caps, int size)
{
	g304 g;
	rng r;
	bench_start_size(&g, &r, caps, size == G304_SIZE_FOUR ? 304 : 306, size);
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
	int six = size == G304_SIZE_SIX;
	printf("engine.%sdeals_per_second.caps_%s %.0f  (%s%ld deals in %.2f s, %.1f%% played to the last trick, "
	       "%.1f actions a deal, %.0f ns an action)\n", six ? "six." : "",
	       caps == G304_CAPS_OFF ? "off" : "strict", deals / elapsed, six ? "six-player 304: " : "", deals, elapsed,
	       100.0 * played / deals, (double)actions / deals, elapsed * 1e9 / actions);
}

/* Collects positions in play, then times g304_legal_of on them. */
static void bench_movegen(double seconds)
{
	g304 *states = bench_alloc(sizeof *states * BENCH_STATES);
	if (!states)
		return;
	g304 g;
	rng r;
	bench_start(&g, &r, G304_CAPS_OFF, 29);
	int n = 0;
	while (n < BENCH_STATES) {
		next_deal(&g, &r);
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

/* What the engine's caps tracking decided, asked again from outside (the
 * same questions, the same budget) so that the bench can count them. */
typedef struct caps_counts {
	long queries;          /* questions asked after a card */
	long undecided;        /* left undecided within the per-card budget */
	long undecided_certain; /* of those, certain after all (decided without a budget) */
	long undecided_open;   /* of those, still undecided with the judging budget */
	long certain;          /* certain orders found */
	long judge_hits;       /* judging a found order reached G304_CAPS_JUDGE_BUDGET */
	double judge_worst;    /* seconds, judging a found order */
	unsigned long nodes_worst; /* positions, one question */
} caps_counts;

/* The engine's after-every-card questions (caps_track in engine/g304/g304.c),
 * asked again here only to count how many the budget leaves undecided. */
static void caps_mirror(const g304 *g, const int8_t since[2], caps_counts *k)
{
	if (g->rules.caps == G304_CAPS_OFF || g->pcc || g->caps_seat != G304_NO_SEAT || g->phase != G304_PHASE_PLAY)
		return;
	unsigned long left = G304_CAPS_TRACK_BUDGET;
	for (int team = 0; team < 2; team++) {
		if (since[team] != G304_CAPS_NEVER || g->tricks_won[!team] > 0)
			continue;
		for (int seat = team; seat < G304_SEATS; seat += 2) {
			g304_view v;
			card order[G304_TRICKS];
			int n;
			if (!g304_caps_question(g, seat, &v))
				continue;
			int found = -1;
			g304_caps_stats st = { 0, 0 };
			k->queries++;
			if (left) {
				found = g304_caps_find(&v, left, order, &n, &st);
				left = st.nodes < left ? left - st.nodes : 0;
				if (st.nodes > k->nodes_worst)
					k->nodes_worst = st.nodes;
			}
			if (found < 0) {
				k->undecided++;
				int again = g304_caps_find(&v, G304_CAPS_JUDGE_BUDGET, order, &n, NULL);
				k->undecided_certain += again == 1;
				k->undecided_open += again < 0;
				break;
			}
			if (found == 1) {
				g304_caps_stats js = { 0, 0 };
				double t0 = cpu_seconds();
				g304_caps_check(&v, order, n, &js);
				double t = cpu_seconds() - t0;
				k->certain++;
				k->judge_hits += js.nodes >= G304_CAPS_JUDGE_BUDGET;
				if (t > k->judge_worst)
					k->judge_worst = t;
				break;
			}
		}
	}
}

/* The cost, per card played, of the engine's after-every-card question
 * "has caps become certain for anyone?": each play is applied to the game
 * with strict caps and to a copy with caps off; the difference is the
 * tracking's share. */
static void bench_caps(int deals)
{
	long max_cards = (long)deals * CARD_COUNT;
	double *cost = bench_alloc(sizeof *cost * (size_t)max_cards);
	if (!cost)
		return;
	g304 g;
	rng r;
	bench_start(&g, &r, G304_CAPS_STRICT, 3);
	long n = 0;
	caps_counts k = { 0, 0, 0, 0, 0, 0, 0, 0 };
	long settle_n = 0, settle_questions = 0, settle_moved = 0;
	double settle_worst = 0;
	for (int d = 0; d < deals; d++) {
		next_deal(&g, &r);
		g304_action a;
		while (g304_random_action(&g, &r, 0, &a)) {
			g304 off = g;
			int8_t since[2] = { g.caps_since[0], g.caps_since[1] };
			int settled = g.caps_settled;
			off.rules.caps = G304_CAPS_OFF;
			/* CPU time: on a shared machine the clock also counts
			 * the other jobs' turns. */
			double t0 = cpu_seconds();
			g304_apply(&off, &a, NULL);
			double t1 = cpu_seconds();
			g304_apply(&g, &a, NULL);
			double t2 = cpu_seconds();
			if (g.caps_settled != settled) {
				/* A verdict needed the deferred settlement: timed apart. */
				settle_n++;
				settle_questions += g.caps_settled - settled;
				settle_moved += g.caps_since[0] != since[0] || g.caps_since[1] != since[1];
				if (t2 - t1 > settle_worst)
					settle_worst = t2 - t1;
				if (a.type == G304_ACT_PLAY || a.type == G304_ACT_OPEN)
					caps_mirror(&g, since, &k);
				continue;
			}
			if (a.type == G304_ACT_PLAY && n < max_cards) {
				double c = (t2 - t1) - (t1 - t0);
				cost[n++] = c > 0 ? c : 0;
			}
			if (a.type == G304_ACT_PLAY || a.type == G304_ACT_OPEN)
				caps_mirror(&g, since, &k);
		}
	}
	if (n == 0) {
		printf("caps.check_us_per_card n/a  (no card played in %d random deals)\n", deals);
		free(cost);
		return;
	}
	qsort(cost, (size_t)n, sizeof *cost, cmp_double);
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += cost[i];
	printf("caps.check_us_per_card median %.2f  p90 %.2f  p99 %.1f  worst %.0f  mean %.1f  "
	       "(%ld cards of %d random deals, strict caps, budget %lu positions a card; CPU time)\n",
	       cost[n / 2] * 1e6, cost[n * 9 / 10] * 1e6, cost[n * 99 / 100] * 1e6, cost[n - 1] * 1e6,
	       sum / (double)n * 1e6, n, deals, G304_CAPS_TRACK_BUDGET);
	printf("caps.track_undecided %ld  (of %ld questions after a card, the per-card budget of %lu positions left "
	       "%ld undecided; %ld of them were certain after all, %ld still undecided with %lu positions; "
	       "the hardest decided question took %lu positions)\n",
	       k.undecided, k.queries, G304_CAPS_TRACK_BUDGET, k.undecided, k.undecided_certain, k.undecided_open,
	       G304_CAPS_JUDGE_BUDGET, k.nodes_worst);
	printf("caps.settle_ms worst %.2f  (%ld deferred settlements in %d deals, where a verdict depended on a question "
	       "the tracking had left undecided: %ld questions asked again with the judging budget, %ld settlements moved "
	       "the trick recorded; the cards that set them off are timed here, not in check_us_per_card)\n",
	       settle_worst * 1e3, settle_n, deals, settle_questions, settle_moved);
	printf("caps.judge_worst_ms %.2f  (judging each of the %ld certain orders found: %ld reached the budget of "
	       "%lu positions)\n",
	       k.judge_worst * 1e3, k.certain, k.judge_hits, G304_CAPS_JUDGE_BUDGET);
	free(cost);
}

/* ---- cardbot bench ai: the search player's speed and a duplicate match ---- */

/* Seconds per decision of one player, and how they are summed up. */
typedef struct timings {
	double *t;
	long n, cap;
} timings;

static void timings_add(timings *tm, double dt)
{
	if (tm->n == tm->cap) {
		tm->cap = tm->cap ? tm->cap * 2 : 4096;
		tm->t = realloc(tm->t, (size_t)tm->cap * sizeof *tm->t);
		if (!tm->t) {
			fprintf(stderr, "bench: out of memory\n");
			exit(1);
		}
	}
	tm->t[tm->n++] = dt;
}

/* Sorts the times; returns their sum (0 when there are none). */
static double timings_sorted(timings *tm)
{
	double sum = 0;
	if (!tm->n)
		return 0;
	qsort(tm->t, (size_t)tm->n, sizeof tm->t[0], cmp_double);
	for (long i = 0; i < tm->n; i++)
		sum += tm->t[i];
	return sum;
}

typedef struct ai_side {
	int simple;                 /* the rule-based player */
	int ref;                    /* strong0: the card search before issue 33 (bench_ref.c) */
	double ms;                  /* time budget per decision, 0: none */
	g304_ai_params params;
	timings times;              /* seconds per decision */
	g304_ai_stats stats;
} ai_side;

typedef struct ai_bench {
	ai_side side[2];
	double deadline;            /* of the decision being made, 0: none */
} ai_bench;

/* Square root by Newton's method (no libm for one figure). */
static double root(double v)
{
	double x = v > 1 ? v : 1;
	for (int i = 0; i < 60 && v > 0; i++)
		x = 0.5 * (x + v / x);
	return v > 0 ? x : 0;
}

static int ai_stop(void *ctx)
{
	const ai_bench *b = ctx;
	return b->deadline > 0 && now_seconds() >= b->deadline;
}

static int ai_bench_decide(void *ctx, int which, const g304_view *v, const g304_legal *l, g304_action *a)
{
	ai_bench *b = ctx;
	ai_side *sd = &b->side[which];
	double t0 = now_seconds();
	int ok;
	if (sd->simple) {
		ok = g304_simple_action(v, l, a);
	} else {
		g304_ai_params p = sd->params;
		p.seed = sd->params.seed ^ ((uint64_t)v->deal_no << 40) ^ ((uint64_t)v->nbidlog << 20)
			^ ((uint64_t)v->ntricks << 8) ^ (uint64_t)v->seat;
		p.stop = ai_stop;
		p.stop_ctx = b;
		b->deadline = sd->ms > 0 ? t0 + sd->ms / 1000.0 : 0;
		ok = sd->ref ? bench_ref_action(v, l, &p, &sd->stats, a) : g304_ai_action(v, l, &p, &sd->stats, a);
	}
	timings_add(&sd->times, now_seconds() - t0);
	return ok;
}

static int ai_player(const char *name, ai_side *sd, uint64_t seed)
{
	memset(sd, 0, sizeof *sd);
	if (strcmp(name, "simple") == 0) {
		sd->simple = 1;
		return 0;
	}
	if (strcmp(name, "strong0") == 0) {
		sd->ref = 1;
		name = "strong";
	}
	int level = g304_ai_level_parse(name);
	if (level < 0)
		return -1;
	g304_ai_params_default(&sd->params, level, seed);
	return 0;
}

/* A position at the first card of play, after random bidding. */
static int ai_play_position(rng *r, int trick, g304_ai_pos *p)
{
	g304 g;
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	g304_init(&g, &rules, (int)rng_below(r, 4));
	card deck[CARD_COUNT];
	rng_shuffle_deck(r, deck);
	g304_deal(&g, deck);
	g304_action a;
	while (g.phase != G304_PHASE_DEAL && g.turn != G304_NO_SEAT) {
		if (g.phase == G304_PHASE_PLAY && g.trick_no == trick && g.tricks[trick].n == 0 && !g.pcc)
			return g304_ai_pos_of(&g, p);
		if (!g304_random_action(&g, r, 0, &a) || g304_apply(&g, &a, NULL) != G304_ERR_OK)
			return 0;
	}
	return 0;
}

/* Sorts the n solve times and prints them as `what`; returns their mean. */
static double solve_figures(const char *what, double *t, int n, unsigned long nodes)
{
	qsort(t, (size_t)n, sizeof t[0], cmp_double);
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += t[i];
	printf("%s, 5 tricks left: %d positions, mean %.3f ms, median %.3f ms, p99 %.3f ms, max %.3f ms, %lu nodes each"
	       " (CPU time)\n", what, n, 1e3 * sum / n, 1e3 * t[n / 2], 1e3 * t[n * 99 / 100], 1e3 * t[n - 1],
	       nodes / (unsigned long)n);
	return sum / n;
}

static void ai_speed(double seconds)
{
	rng r;
	rng_seed(&r, 99);
	g304_ai_pos pos[256];
	int n = 0;
	while (n < 256)
		n += ai_play_position(&r, 0, &pos[n]);
	long playouts = 0;
	double t0 = now_seconds(), t;
	long sink = 0;
	do {
		for (int i = 0; i < n; i++)
			sink += g304_ai_playouts(&pos[i], 100, (uint64_t)playouts + (uint64_t)i);
		playouts += 100L * n;
	} while ((t = now_seconds() - t0) < seconds);
	printf("ai playouts: %.0f full-deal playouts/s (8 tricks each, the search's policy) [%ld]\n",
	       playouts / t, sink % 10);
	/* The exact solver from five tricks before the end, and the solver of
	 * before issue 33 on the same positions, each over all of them in
	 * turn (as the player solves one after another); in CPU time, which
	 * other jobs on the machine disturb less than the clock. */
	enum { SOLVES = 400 };
	static g304_ai_pos solve_pos[SOLVES];
	double times[SOLVES], ref_times[SOLVES];
	int value[SOLVES];
	unsigned long nodes = 0, ref_nodes = 0;
	int differ = 0;
	for (int i = 0; i < SOLVES; i++)
		while (!ai_play_position(&r, 3, &solve_pos[i]))
			;
	for (int i = 0; i < SOLVES; i++) {
		double s0 = cpu_seconds();
		value[i] = g304_ai_solve(&solve_pos[i], &nodes);
		times[i] = cpu_seconds() - s0;
		sink += value[i];
	}
	for (int i = 0; i < SOLVES; i++) {
		double s0 = cpu_seconds();
		int w = bench_ref_solve(&solve_pos[i], &ref_nodes);
		ref_times[i] = cpu_seconds() - s0;
		differ += w != value[i];
	}
	double mean = solve_figures("ai solver", times, SOLVES, nodes);
	double ref_mean = solve_figures("ai solver before issue 33", ref_times, SOLVES, ref_nodes);
	printf("ai solver: %.1f times faster on average than before issue 33, p99 %.1f times; %d of %d values differ\n",
	       ref_mean / mean, ref_times[SOLVES * 99 / 100] / times[SOLVES * 99 / 100], differ, SOLVES);
}

static void ai_times(const char *name, ai_side *sd)
{
	timings *tm = &sd->times;
	double sum = timings_sorted(tm);
	if (!tm->n)
		return;
	printf("  %-7s %ld decisions, %.0f/s; time p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", name, tm->n, tm->n / sum,
	       1e3 * tm->t[tm->n / 2], 1e3 * tm->t[tm->n * 99 / 100], 1e3 * tm->t[tm->n - 1]);
	if (sd->stats.samples)
		printf("          %lu sampled deals, %lu playouts, %lu exact solves: %.0f iterations"
		       " (playouts + solves) per second of thinking\n",
		       sd->stats.samples, sd->stats.playouts, sd->stats.solves,
		       (sd->stats.playouts + sd->stats.solves) / sum);
}

/* ---- cardbot bench ai --game: duplicate matches in any game ---- */

typedef struct dup_side {
	int simple;                 /* the rule-based player */
	game_ai_params params;
	timings times;
	game_ai_stats stats;
} dup_side;

typedef struct dup_bench {
	dup_side side[2];
	double ms, deadline;
	long decisions;
} dup_bench;

static int dup_stop(void *ctx)
{
	const dup_bench *b = ctx;
	return b->ms > 0 && now_seconds() >= b->deadline;
}

static int dup_decide(void *ctx, int player, const game *g, int seat, game_action *a)
{
	dup_bench *b = ctx;
	dup_side *sd = &b->side[player];
	double t0 = now_seconds();
	game_ai_params p = sd->params;
	p.level = sd->simple ? GAME_AI_EASY : sd->params.level;
	p.seed = sd->params.seed ^ (uint64_t)b->decisions++ * 0x9e3779b97f4a7c15ull ^ (uint64_t)seat;
	p.stop = dup_stop;
	p.stop_ctx = b;
	b->deadline = t0 + b->ms / 1000.0;
	int ok = game_ai_decide(g, seat, &p, &sd->stats, a);
	timings_add(&sd->times, now_seconds() - t0);
	return ok;
}

static void dup_times(const char *name, dup_side *sd)
{
	timings *tm = &sd->times;
	timings_sorted(tm);
	if (!tm->n)
		return;
	printf("  %-7s %ld decisions; time p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", name, tm->n, 1e3 * tm->t[tm->n / 2],
	       1e3 * tm->t[tm->n * 99 / 100], 1e3 * tm->t[tm->n - 1]);
	if (sd->stats.samples)
		printf("          %lu sampled deals, %lu playouts, %lu exact solves\n", sd->stats.samples,
		       sd->stats.playouts, sd->stats.solves);
}

/* Trump304, Rook and six-player 304 (and 304 too): A against B in
 * duplicate deals through the common game interface (engine/core/game_dup.h). */
static int bench_ai_game(const game_def *def, int players, const char *const name[2], int deals, int samples,
			 double ms, uint64_t seed)
{
	dup_bench b;
	memset(&b, 0, sizeof b);
	b.ms = ms;
	for (int k = 0; k < 2; k++) {
		dup_side *sd = &b.side[k];
		if (!strcmp(name[k], "simple")) {
			sd->simple = 1;
		} else {
			int level = game_ai_level_parse(name[k]);
			if (level < 0) {
				fprintf(stderr, "bench ai: unknown player '%s' (strong, normal, easy, simple)\n", name[k]);
				return 64;
			}
			game_ai_params_default(&sd->params, level, seed * 2 + (uint64_t)k);
		}
		sd->params.seed = seed * 2 + (uint64_t)k;
		sd->params.samples = (unsigned)samples;
	}
	printf("# cardbot bench ai --game %s --players %d --a %s --b %s --deals %d --samples %d --ms %.0f --seed %llu: one core\n",
	       def->name, players, name[0], name[1], deals, samples, ms, (unsigned long long)seed);
	if (!def->ai_action)
		printf("  (%s has no search player: every level is the rule-based player)\n", def->name);
	double *x = malloc((size_t)deals * sizeof *x);
	if (!x)
		return 1;
	long points = 0, refused = 0;
	int bids[2] = { 0 }, made[2] = { 0 }, halves = 0;
	double t0 = now_seconds();
	for (int d = 0; d < deals; d++) {
		game_dup_deal out;
		if (game_dup_play(def, players, seed, d, dup_decide, &b, &out) < 0) {
			fprintf(stderr, "bench ai: %s cannot be played by %d\n", def->name, players);
			free(x);
			return 64;
		}
		x[d] = (double)out.score;
		points += out.points;
		refused += out.refused;
		halves = out.halves;
		for (int k = 0; k < 2; k++) {
			bids[k] += out.bids[k];
			made[k] += out.made[k];
		}
	}
	double elapsed = now_seconds() - t0, mean = 0, var = 0;
	for (int d = 0; d < deals; d++)
		mean += x[d];
	mean /= deals;
	for (int d = 0; d < deals; d++)
		var += (x[d] - mean) * (x[d] - mean);
	var = deals > 1 ? var / (deals - 1) : 0;
	double half = 1.96 * root(var / deals);
	const char *unit = strcmp(def->name, "rook") ? "tokens" : "points";
	printf("duplicate match, %s (A) vs %s (B): %d deals, each played with A in each of %d sides and once with B"
	       " everywhere, in %.1f s\n", name[0], name[1], deals, halves, elapsed);
	printf("  A's %s per 100 deals over B's in the same seats: %+.1f, 95%% interval [%+.1f, %+.1f]%s\n", unit,
	       100 * mean, 100 * (mean - half), 100 * (mean + half),
	       mean - half > 0 ? " (A better)" : mean + half < 0 ? " (B better)" : " (no clear difference)");
	if (points)
		printf("  A's card points per deal over B's: %+.1f\n", (double)points / deals);
	printf("  contracts won/made: A's side %d/%d, B's %d/%d\n", bids[0], made[0], bids[1], made[1]);
	dup_times("A", &b.side[0]);
	dup_times("B", &b.side[1]);
	if (refused)
		printf("  %ld actions refused: a player is broken\n", refused);
	free(x);
	free(b.side[0].times.t);
	free(b.side[1].times.t);
	return refused ? 1 : 0;
}

static int bench_ai(int argc, char **argv)
{
	const char *name[2] = { "strong", "simple" };
	const char *gname = "304";
	int deals = 40, samples = 0, players = 0, samples_b = -1;
	double ms = 300, seconds = 1.0, ms_b = -1;
	uint64_t seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			printf("usage: cardbot bench ai [--game G] [--players N] [--a P] [--b P] [--deals N] [--samples N] [--ms M]\n"
			       "                        [--samples-b N] [--ms-b M] [--seed S] [--seconds S]\n"
			       "  G is 304 (default), 304six, 304eight, 304six24, trump304 or rook; N its players (304: 4, 6 or 8;\n"
			       "  trump304: 2, 3 or 4)\n"
			       "  P is strong, normal, easy or simple (the rule-based player); defaults: strong vs simple;\n"
			       "    in 304 also strong0, the strong player with the card search and solver of before\n"
			       "    issue 33\n"
			       "  --deals N    duplicate deals, each played twice with the sides swapped (default 40)\n"
			       "  --samples N  sampled deals per card decision of a search player (default: its level's)\n"
			       "  --ms M       time budget per decision in ms (default 300; 0: samples only)\n"
			       "  --samples-b N, --ms-b M  the same for B alone (304; default: as A)\n"
			       "  --seconds S  time for the playout-speed figure (default 1)\n");
			return 0;
		}
		if (!val) {
			fprintf(stderr, "bench ai: '%s' needs a value (see --help)\n", arg);
			return 64;
		}
		i++;
		if (strcmp(arg, "--game") == 0)
			gname = val;
		else if (strcmp(arg, "--players") == 0)
			players = (int)strtol(val, &end, 10);
		else if (strcmp(arg, "--a") == 0)
			name[0] = val;
		else if (strcmp(arg, "--b") == 0)
			name[1] = val;
		else if (strcmp(arg, "--deals") == 0)
			deals = (int)strtol(val, &end, 10);
		else if (strcmp(arg, "--samples") == 0)
			samples = (int)strtol(val, &end, 10);
		else if (strcmp(arg, "--ms") == 0)
			ms = strtod(val, &end);
		else if (strcmp(arg, "--samples-b") == 0)
			samples_b = (int)strtol(val, &end, 10);
		else if (strcmp(arg, "--ms-b") == 0)
			ms_b = strtod(val, &end);
		else if (strcmp(arg, "--seed") == 0)
			seed = strtoull(val, &end, 10);
		else if (strcmp(arg, "--seconds") == 0)
			seconds = strtod(val, &end);
		else {
			fprintf(stderr, "bench ai: unknown option '%s' (see --help)\n", arg);
			return 64;
		}
		if (end && *end) {
			fprintf(stderr, "bench ai: '%s' is not a number for %s\n", val, arg);
			return 64;
		}
	}
	if (deals < 1 || deals > 1000000 || samples < 0 || ms < 0 || seconds <= 0 || seconds > 3600
	    || (samples_b < 0 && samples_b != -1) || (ms_b < 0 && ms_b != -1)) {
		fprintf(stderr, "bench ai: a value is out of range (see --help)\n");
		return 64;
	}
	const game_def *def = game_find(gname);
	if (!def) {
		fprintf(stderr, "bench ai: unknown game '%s' (304, 304six, 304eight, 304six24, trump304, rook)\n", gname);
		return 64;
	}
	/* "--game 304 --players 8" is 304 for eight, as at a table. */
	def = game_304_seats(def, players);
	if (!players)
		players = def->max_seats;
	if (players < def->min_seats || players > def->max_seats) {
		fprintf(stderr, "bench ai: %s is played by %d to %d, not %d\n", def->name, def->min_seats,
			def->max_seats, players);
		return 64;
	}
	if (def != &game_def_304 && (samples_b >= 0 || ms_b >= 0)) {
		fprintf(stderr, "bench ai: --samples-b and --ms-b are for 304 alone\n");
		return 64;
	}
	if (def != &game_def_304)
		return bench_ai_game(def, players, name, deals, samples, ms, seed);
	if (samples_b < 0)
		samples_b = samples;
	if (ms_b < 0)
		ms_b = ms;
	ai_bench b;
	memset(&b, 0, sizeof b);
	for (int k = 0; k < 2; k++) {
		if (ai_player(name[k], &b.side[k], seed * 2 + (uint64_t)k) < 0) {
			fprintf(stderr, "bench ai: unknown player '%s' (strong, strong0, normal, easy, simple)\n", name[k]);
			return 64;
		}
		b.side[k].params.samples = (unsigned)(k ? samples_b : samples);
		b.side[k].ms = k ? ms_b : ms;
	}
	printf("# cardbot bench ai --a %s --b %s --deals %d --samples %d --ms %.0f --samples-b %d --ms-b %.0f --seed %llu:"
	       " one core\n", name[0], name[1], deals, samples, ms, samples_b, ms_b, (unsigned long long)seed);
	ai_speed(seconds);
	g304_rules rules;
	g304_rules_default(&rules);
	double *x = malloc((size_t)deals * sizeof *x);
	if (!x)
		return 1;
	long points = 0, refused = 0;
	int won[2][4] = { { 0 } }, made[2][4] = { { 0 } };
	double t0 = now_seconds();
	for (int d = 0; d < deals; d++) {
		g304_dup_deal out;
		g304_dup_play(&rules, seed, d, ai_bench_decide, &b, &out);
		x[d] = out.tokens;
		if ((d + 1) % 10 == 0 && d + 1 < deals) {
			/* A long match says how it stands, on stderr. */
			double m = 0, q = 0;
			for (int i = 0; i <= d; i++)
				m += x[i];
			m /= d + 1;
			for (int i = 0; i <= d; i++)
				q += (x[i] - m) * (x[i] - m);
			double h = 1.96 * root(q / d / (d + 1));
			fprintf(stderr, "  after %d deals: %+.1f [%+.1f, %+.1f] tokens per 100 deals\n", d + 1, 100 * m,
				100 * (m - h), 100 * (m + h));
		}
		points += out.points;
		refused += out.refused;
		for (int h = 0; h < 2; h++) {
			const g304_deal_end *e = &out.end[h];
			if (e->outcome != G304_OUTCOME_SCORED || e->trumper >= G304_SEATS)
				continue;
			int side = g304_team(e->trumper) == h ? 0 : 1;
			int band = e->bid >= G304_BID_PCC ? 3 : e->bid >= G304_BID8_MIN ? 2 : e->bid >= G304_LIMIT_BID ? 1 : 0;
			won[side][band]++;
			made[side][band] += e->made > 0;
		}
	}
	double elapsed = now_seconds() - t0, mean = 0, var = 0;
	for (int d = 0; d < deals; d++)
		mean += x[d];
	mean /= deals;
	for (int d = 0; d < deals; d++)
		var += (x[d] - mean) * (x[d] - mean);
	var = deals > 1 ? var / (deals - 1) : 0;
	double half = 1.96 * root(var / deals);
	printf("duplicate match, %s (A) vs %s (B): %d deals x 2 in %.1f s\n", name[0], name[1], deals, elapsed);
	printf("  A's tokens per 100 deals: %+.1f, 95%% interval [%+.1f, %+.1f]%s\n", 100 * mean,
	       100 * (mean - half), 100 * (mean + half),
	       mean - half > 0 ? " (A better)" : mean + half < 0 ? " (B better)" : " (no clear difference)");
	printf("  A's card points per deal over B's: %+.1f\n", (double)points / deals);
	static const char *const bands[4] = { "160-199", "200-249", "250-300", "pcc" };
	for (int k = 0; k < 2; k++) {
		printf("  bids won/made by %c:", 'A' + k);
		for (int j = 0; j < 4; j++)
			printf(" %s %d/%d", bands[j], won[k][j], made[k][j]);
		printf("\n");
	}
	ai_times("A", &b.side[0]);
	ai_times("B", &b.side[1]);
	if (refused)
		printf("  %ld actions refused: a player is broken\n", refused);
	free(x);
	free(b.side[0].times.t);
	free(b.side[1].times.t);
	return refused ? 1 : 0;
}

/* The cost of one committed action: an INSERT that has reached the disk
 * (WAL, synchronous=FULL), in a scratch database in the current directory
 * (or $TMPDIR), as the bot pays it before announcing a move. */
static int bench_store(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : ".";
	char path[4200];
	snprintf(path, sizeof path, "%s/cardbot-bench-%ld.db", dir, (long)getpid());
	char err[STORE_ERR_MAX];
	store *db = store_open(path, err, sizeof err);
	if (!db) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	enum { N = 2000 };
	static double us[N];
	int rc = store_bench(db, N, us);
	if (rc < 0)
		fprintf(stderr, "bench: %s\n", store_error(db));
	store_close(db);
	char side[4300];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
	if (rc < 0)
		return 1;
	qsort(us, N, sizeof us[0], cmp_double);
	printf("store.commit_us median %.0f  p99 %.0f  worst %.0f  (%d committed actions, WAL, synchronous=FULL, in %s)\n",
	       us[N / 2], us[N * 99 / 100], us[N - 1], N, dir);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cardbot bench [engine|caps|store|all] [--seconds S] [--deals N]\n"
		   "       cardbot bench ai [options]   (the computer players; ai --help)\n"
		   "  engine       random 304 deals per second (caps off and strict), the\n"
		   "               cost of one legal-move generation, and random six-player\n"
		   "               304 deals per second (caps off and strict)\n"
		   "  caps         the per-card cost of caps tracking over %d random deals\n"
		   "  store        the cost of one action committed to the database\n"
		   "  all          all three (the default)\n"
		   "  --seconds S  time spent on each timed figure (default %.0f)\n"
		   "  --deals N    random deals for the caps figure (default %d)\n"
		   "Figures are for one core; run on an idle machine.\n",
		BENCH_CAPS_DEALS, BENCH_SECONDS_DEFAULT, BENCH_CAPS_DEALS);
}

int bench_main(int argc, char **argv)
{
	double seconds = BENCH_SECONDS_DEFAULT;
	int caps_deals = BENCH_CAPS_DEALS;
	const char *what = "all";
	if (argc > 1 && strcmp(argv[1], "ai") == 0)
		return bench_ai(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			char *end;
			seconds = strtod(argv[++i], &end);
			if (*end || seconds <= 0 || seconds > 3600) {
				fprintf(stderr, "bench: --seconds needs a number of seconds (0-3600)\n");
				return 64;
			}
		} else if (strcmp(argv[i], "--deals") == 0 && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > BENCH_CAPS_DEALS_MAX) {
				fprintf(stderr, "bench: --deals needs a number of deals (1-%d)\n", BENCH_CAPS_DEALS_MAX);
				return 64;
			}
			caps_deals = (int)v;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "engine") == 0 || strcmp(argv[i], "caps") == 0 || strcmp(argv[i], "all") == 0
			   || strcmp(argv[i], "store") == 0) {
			what = argv[i];
		} else {
			fprintf(stderr, "bench: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 64;
		}
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	printf("# cardbot bench %s --seconds %.1f --deals %d: one core used; this machine has %ld\n", what, seconds,
	       caps_deals, cpus);
	if (strcmp(what, "store") == 0)
		return bench_store();
	if (strcmp(what, "caps") != 0) {
		bench_deals(seconds, G304_CAPS_OFF, G304_SIZE_FOUR);
		bench_deals(seconds, G304_CAPS_STRICT, G304_SIZE_FOUR);
		bench_movegen(seconds);
		bench_deals(seconds, G304_CAPS_OFF, G304_SIZE_SIX);
		bench_deals(seconds, G304_CAPS_STRICT, G304_SIZE_SIX);
	}
	if (strcmp(what, "engine") != 0)
		bench_caps(caps_deals);
	if (strcmp(what, "all") == 0)
		return bench_store();
	return 0;
}
