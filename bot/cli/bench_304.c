/* bench_304.c: the benchmark's one place that knows games (bench.h's registry):
 * 304's engine figures (random deals, move generation, six players, caps
 * tracking) and its own duplicate match (strong0, bids by band); the exact
 * solvers of Trump304 and Rook beside theirs of before issue 33, and their
 * strong0 in the common match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "g304_ai_ref.h"
#include "rook_ai_ref.h"
#include "t304_ai_ref.h"
#include "g304.h"
#include "g304_caps.h"
#include "g304_random.h"
#include "g304_ai.h"
#include "g304_ai_match.h"
#include "g304_simple.h"
#include "game.h"

#define now_seconds bench_now
#define cpu_seconds bench_cpu
#define cmp_double bench_cmp_double
#define root bench_root

#define BENCH_STATES 4096            /* play positions sampled for the move-generation figure */

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

/* ---- cardbot bench ai: 304's search player ---- */

typedef struct ai_side {
	int simple;                 /* the rule-based player */
	int ref;                    /* strong0: the card search before issue 33 (engine/g304/g304_ai_ref.c) */
	double ms;                  /* time budget per decision, 0: none */
	g304_ai_params params;
	timings times;              /* seconds per decision */
	g304_ai_stats stats;
} ai_side;

typedef struct ai_bench {
	ai_side side[2];
	double deadline;            /* of the decision being made, 0: none */
} ai_bench;

static int ai_stop(void *ctx)
{
	const ai_bench *b = ctx;
	return b->deadline > 0 && bench_budget_now() >= b->deadline;
}

static int ai_bench_decide(void *ctx, int which, const g304_view *v, const g304_legal *l, g304_action *a)
{
	ai_bench *b = ctx;
	ai_side *sd = &b->side[which];
	double t0 = bench_budget_now();
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
		ok = sd->ref ? g304_ai_ref_action(v, l, &p, &sd->stats, a) : g304_ai_action(v, l, &p, &sd->stats, a);
	}
	timings_add(&sd->times, bench_budget_now() - t0);
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
	int level = game_ai_level_parse(name);
	if (level < 0)
		return -1;
	g304_ai_params_default(&sd->params, level, seed);
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
		n += g304_ai_ref_position(&r, 0, 0, 0, &pos[n]);
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
		while (!g304_ai_ref_position(&r, 3, 0, 0, &solve_pos[i]))
			;
	for (int i = 0; i < SOLVES; i++) {
		double s0 = cpu_seconds();
		value[i] = g304_ai_solve(&solve_pos[i], &nodes);
		times[i] = cpu_seconds() - s0;
		sink += value[i];
	}
	for (int i = 0; i < SOLVES; i++) {
		double s0 = cpu_seconds();
		int w = g304_ai_ref_solve(&solve_pos[i], &ref_nodes);
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

/* `bench ai --game 304`: the search player's speed, then A against B in
 * 304's own duplicate deals (engine/g304/g304_ai_match.h), bids by band. */
static int bench_304_ai(const bench_ai_args *args)
{
	const char *const *name = args->name;
	int deals = args->deals, samples = args->samples[0], samples_b = args->samples[1];
	double ms = args->ms[0], ms_b = args->ms[1], seconds = args->seconds;
	uint64_t seed = args->seed;
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
	printf("# cardbot bench ai --a %s --b %s --deals %d --samples %d --ms %.0f --samples-b %d --ms-b %.0f --seed %llu"
	       " --clock %s: one core\n", name[0], name[1], deals, samples, ms, samples_b, ms_b, (unsigned long long)seed,
	       args->on_cpu ? "cpu" : "wall");
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
			double h, m = bench_mean(x, d + 1, &h);
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
	double elapsed = now_seconds() - t0, half;
	double mean = bench_mean(x, deals, &half);
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
	return bench_ai_end(refused, x, &b.side[0].times, &b.side[1].times);
}


/* The exact solver of Trump304 (seats players) or Rook from five tricks
 * before the end, and the solver of before issue 33 on the same positions
 * (t304_ai_ref.c, rook_ai_ref.c), as ai_speed times 304's: every position in turn, in
 * CPU time, Trump304's solvers each from an empty table (cleared outside
 * the clock: the player clears one a decision, for all its samples). */
static void game_solver_figures(const game_def *def, int players)
{
	enum { SOLVES = 400 };
	int rook_game = def == &game_def_rook;
	if (!rook_game && def != &game_def_trump304)
		return;
	static t3pos t3[SOLVES];
	static rook_ai_pos rk[SOLVES];
	rng r;
	rng_seed(&r, 33);
	for (int i = 0; i < SOLVES; i++)
		while (rook_game ? !rook_ai_ref_position(&r, 5, &rk[i]) : !t304_ai_ref_position(&r, players, 5, &t3[i]))
			;
	double times[2][SOLVES];
	unsigned long nodes[2] = { 0, 0 };
	int value[SOLVES], differ = 0;
	for (int k = 0; k < 2; k++) {
		t3solver sv = { .tt = NULL };
		if (!rook_game)
			sv.tt = calloc((size_t)1 << T3_TT_BITS, sizeof *sv.tt);
		for (int i = 0; i < SOLVES; i++) {
			if (sv.tt) /* each position from an empty table, cleared outside the clock */
				memset(sv.tt, 0, sizeof *sv.tt << T3_TT_BITS);
			double s0 = cpu_seconds();
			int v;
			if (rook_game)
				v = k ? rook_ai_ref_solve(&rk[i], rk[i].bidder & 1, -100000, 100000, &nodes[k])
				      : rook_ai_solve(&rk[i], rk[i].bidder & 1, -100000, 100000, &nodes[k]);
			else
				v = k ? t304_ai_ref_solve(&sv, &t3[i], -1, 1000) : t3_solve(&sv, &t3[i], -1, 1000);
			times[k][i] = cpu_seconds() - s0;
			if (k == 0)
				value[i] = v;
			else
				differ += v != value[i];
		}
		nodes[k] += sv.nodes;
		free(sv.tt);
	}
	char what[2][64];
	snprintf(what[0], sizeof what[0], "%s solver", def->name);
	snprintf(what[1], sizeof what[1], "%s solver before issue 33", def->name);
	double mean = solve_figures(what[0], times[0], SOLVES, nodes[0]);
	double ref_mean = solve_figures(what[1], times[1], SOLVES, nodes[1]);
	printf("%s solver: %.1f times faster on average than before issue 33, p99 %.1f times; %d of %d values differ\n",
	       def->name, ref_mean / mean, times[1][SOLVES * 99 / 100] / times[0][SOLVES * 99 / 100], differ, SOLVES);
}

static void t304_solver(int players) { game_solver_figures(&game_def_trump304, players); }
static void rook_solver(int players) { game_solver_figures(&game_def_rook, players); }

/* strong0 in the common match: the engine's player on the solver of
 * before issue 33 (t304_ai_ref.c, rook_ai_ref.c), one decision at a time;
 * ref_end gives the nodes it searched. */
typedef struct bench_ref {
	t304_ai_ref t3;            /* Trump304's solver, its table and stop */
	unsigned long rook_nodes;  /* Rook's solver counts here */
	int rook;
} bench_ref;

static void *ref_begin(game_ai_params *p, int (*stop)(void *), void *stop_ctx, int is_rook)
{
	bench_ref *ref = bench_alloc(sizeof *ref);
	if (!ref)
		exit(1);
	memset(ref, 0, sizeof *ref);
	ref->rook = is_rook;
	if (is_rook) {
		p->solve = rook_ai_ref_hook;
		p->solve_ctx = &ref->rook_nodes;
	} else {
		t304_ai_ref_start(&ref->t3, stop, stop_ctx);
		p->solve = t304_ai_ref_hook;
		p->solve_ctx = &ref->t3;
	}
	return ref;
}

static void *t304_ref_begin(game_ai_params *p, int (*stop)(void *), void *stop_ctx)
{
	return ref_begin(p, stop, stop_ctx, 0);
}

static void *rook_ref_begin(game_ai_params *p, int (*stop)(void *), void *stop_ctx)
{
	return ref_begin(p, stop, stop_ctx, 1);
}

static unsigned long ref_end(void *r)
{
	bench_ref *ref = r;
	unsigned long nodes = ref->rook ? ref->rook_nodes : ref->t3.sv.nodes;
	if (!ref->rook)
		t304_ai_ref_end(&ref->t3);
	free(ref);
	return nodes;
}

/* `bench engine`: 304's figures. */
static void bench_304_engine(double seconds)
{
	bench_deals(seconds, G304_CAPS_OFF, G304_SIZE_FOUR);
	bench_deals(seconds, G304_CAPS_STRICT, G304_SIZE_FOUR);
	bench_movegen(seconds);
	bench_deals(seconds, G304_CAPS_OFF, G304_SIZE_SIX);
	bench_deals(seconds, G304_CAPS_STRICT, G304_SIZE_SIX);
}

static const bench_game games[] = {
	{ "304", bench_304_engine, bench_caps, bench_304_ai,
	  "in 304, trump304 and rook also strong0, the strong player of before issue 33 (its card search and\n"
	  "    solver; in rook also its sample counts, in trump304 its bidding)", NULL, NULL, NULL },
	{ "trump304", NULL, NULL, NULL, NULL, t304_solver, t304_ref_begin, ref_end },
	{ "rook", NULL, NULL, NULL, NULL, rook_solver, rook_ref_begin, ref_end },
};

const bench_game *bench_game_at(int i)
{
	return i >= 0 && (size_t)i < sizeof games / sizeof games[0] ? &games[i] : NULL;
}
