/* bench.c: `cardbot bench`: engine figures on one core, printed with how they were measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "game.h"
#include "game_dup.h"
#include "present.h"
#include "replay.h"
#include "store.h"

#define BENCH_SECONDS_DEFAULT 2.0
#define BENCH_CAPS_DEALS 10000       /* random deals for the caps-tracking figure (--deals) */
#define BENCH_CAPS_DEALS_MAX 1000000

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread, in seconds. */
double bench_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The clock `bench ai` measures budgets and decisions by: the monotonic
 * clock, or with --clock cpu this thread's CPU time. */
static int budget_on_cpu;

double bench_budget_now(void)
{
	return budget_on_cpu ? bench_cpu() : bench_now();
}

int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* malloc that says on stderr when it fails. */
void *bench_alloc(size_t size)
{
	void *p = malloc(size);
	if (!p)
		fprintf(stderr, "bench: out of memory\n");
	return p;
}

double bench_mean(const double *x, int n, double *half)
{
	double mean = 0, var = 0;
	for (int i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	for (int i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	var = n > 1 ? var / (n - 1) : 0;
	*half = 1.96 * bench_root(var / n);
	return mean;
}

int bench_ai_end(long refused, double *x, timings *a, timings *b)
{
	if (refused)
		printf("  %ld actions refused: a player is broken\n", refused);
	free(x);
	free(a->t);
	free(b->t);
	return refused ? 1 : 0;
}

/* ---- the games with figures of their own (bench.h) ---- */

static const bench_game *bench_game_of(const game_def *def)
{
	const bench_game *bg;
	for (int i = 0; (bg = bench_game_at(i)); i++)
		if (!strcmp(bg->name, def->name))
			return bg;
	return NULL;
}

/* ---- cardbot bench ai: a duplicate match between two players ---- */


void timings_add(timings *tm, double dt)
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
double timings_sorted(timings *tm)
{
	double sum = 0;
	if (!tm->n)
		return 0;
	qsort(tm->t, (size_t)tm->n, sizeof tm->t[0], bench_cmp_double);
	for (long i = 0; i < tm->n; i++)
		sum += tm->t[i];
	return sum;
}

/* Square root by Newton's method (no libm for one figure). */
double bench_root(double v)
{
	double x = v > 1 ? v : 1;
	for (int i = 0; i < 60 && v > 0; i++)
		x = 0.5 * (x + v / x);
	return v > 0 ? x : 0;
}

typedef struct dup_side {
	int simple;                 /* the rule-based player */
	int ref;                    /* strong0: the game's player of before issue 33 (bench_game.ref_begin) */
	double ms;                  /* its time budget per decision */
	game_ai_params params;
	timings times;
	game_ai_stats stats;
} dup_side;

typedef struct dup_bench {
	dup_side side[2];
	double ms, deadline;        /* of the decision being made (ms 0: none) */
	long decisions;
	const bench_game *bg;       /* the game's own figures and strong0, or NULL */
} dup_bench;

static int dup_stop(void *ctx)
{
	const dup_bench *b = ctx;
	return b->ms > 0 && bench_budget_now() >= b->deadline;
}

static int dup_decide(void *ctx, int player, const game *g, int seat, game_action *a)
{
	dup_bench *b = ctx;
	dup_side *sd = &b->side[player];
	double t0 = bench_budget_now();
	game_ai_params p = sd->params;
	p.level = sd->simple ? GAME_AI_EASY : sd->params.level;
	p.seed = sd->params.seed ^ (uint64_t)b->decisions++ * 0x9e3779b97f4a7c15ull ^ (uint64_t)seat;
	p.stop = dup_stop;
	p.stop_ctx = b;
	b->ms = sd->ms;
	b->deadline = t0 + b->ms / 1000.0;
	void *ref = sd->ref ? b->bg->ref_begin(&p, dup_stop, b) : NULL;
	int ok = game_ai_decide(g, seat, &p, &sd->stats, a);
	if (ref)
		sd->stats.nodes += b->bg->ref_end(ref);
	timings_add(&sd->times, bench_budget_now() - t0);
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
static int bench_ai_game(const game_def *def, int players, const char *const name[2], int deals,
			 const int samples[2], const double ms[2], uint64_t seed)
{
	dup_bench b;
	memset(&b, 0, sizeof b);
	b.bg = bench_game_of(def);
	for (int k = 0; k < 2; k++) {
		dup_side *sd = &b.side[k];
		sd->ms = ms[k];
		if (!strcmp(name[k], "simple")) {
			sd->simple = 1;
		} else if (!strcmp(name[k], "strong0") && b.bg && b.bg->ref_begin) {
			sd->ref = 1;
			game_ai_params_default(&sd->params, GAME_AI_STRONG, seed * 2 + (uint64_t)k);
			sd->params.counts_before = 1;
		} else {
			int level = game_ai_level_parse(name[k]);
			if (level < 0) {
				fprintf(stderr, "bench ai: unknown player '%s' (strong, normal, easy, simple; see --help)\n",
					name[k]);
				return 64;
			}
			game_ai_params_default(&sd->params, level, seed * 2 + (uint64_t)k);
		}
		sd->params.seed = seed * 2 + (uint64_t)k;
		sd->params.samples = (unsigned)samples[k];
	}
	printf("# cardbot bench ai --game %s --players %d --a %s --b %s --deals %d --samples %d --ms %.0f --samples-b %d"
	       " --ms-b %.0f --seed %llu --clock %s: one core\n", def->name, players, name[0], name[1], deals, samples[0],
	       ms[0], samples[1], ms[1], (unsigned long long)seed, budget_on_cpu ? "cpu" : "wall");
	if (b.bg && b.bg->solver)
		b.bg->solver(players);
	if (!def->ai_action)
		printf("  (%s has no search player: every level is the rule-based player)\n", def->name);
	double *x = malloc((size_t)deals * sizeof *x);
	if (!x)
		return 1;
	long points = 0, refused = 0;
	int bids[2] = { 0 }, made[2] = { 0 }, halves = 0;
	double t0 = bench_now();
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
	double elapsed = bench_now() - t0, half;
	double mean = bench_mean(x, deals, &half);
	const present *pr = present_find(def);
	const char *unit = pr && pr->replay && !strcmp(pr->replay->score, "tokens") ? "tokens" : "points";
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
	return bench_ai_end(refused, x, &b.side[0].times, &b.side[1].times);
}

static int bench_ai(int argc, char **argv)
{
	const char *name[2] = { "strong", "simple" };
	const char *gname = present_at(0)->def->name;
	int deals = 40, samples = 0, players = 0, samples_b = -1;
	double ms = 300, seconds = 1.0, ms_b = -1;
	uint64_t seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			char names[128];
			present_names(names, sizeof names, 0);
			printf("usage: cardbot bench ai [--game G] [--players N] [--a P] [--b P] [--deals N] [--samples N] [--ms M]\n"
			       "                        [--samples-b N] [--ms-b M] [--seed S] [--seconds S] [--clock C]\n"
			       "  G is %s (the first is the default); N its players (default: its most)\n"
			       "  P is strong, normal, easy or simple (the rule-based player); defaults: strong vs simple\n",
			       names);
			const bench_game *bg;
			for (int k = 0; (bg = bench_game_at(k)); k++)
				if (bg->ai_players)
					printf("    %s\n", bg->ai_players);
			printf("  --deals N    duplicate deals, each played twice with the sides swapped (default 40)\n"
			       "  --samples N  sampled deals per card decision of a search player (default: its level's)\n"
			       "  --ms M       time budget per decision in ms (default 300; 0: samples only)\n"
			       "  --samples-b N, --ms-b M  the same for B alone (default: as A)\n"
			       "  --seconds S  time for the playout-speed figure (default 1)\n"
			       "  --clock C    what budgets and decision times are measured in: wall (the default, as a\n"
			       "               table's budget is) or cpu (this thread's CPU time, which other jobs on a\n"
			       "               busy machine disturb less)\n");
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
		else if (strcmp(arg, "--clock") == 0 && (!strcmp(val, "cpu") || !strcmp(val, "wall")))
			budget_on_cpu = !strcmp(val, "cpu");
		else if (strcmp(arg, "--clock") == 0) {
			fprintf(stderr, "bench ai: --clock is wall or cpu, not '%s'\n", val);
			return 64;
		} else {
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
		char names[128];
		present_names(names, sizeof names, 0);
		fprintf(stderr, "bench ai: unknown game '%s' (%s)\n", gname, names);
		return 64;
	}
	/* "--game 304 --players 8" is 304 for eight, as at a table. */
	def = game_at_seats(def, players);
	if (!players)
		players = def->max_seats;
	if (players < def->min_seats || players > def->max_seats) {
		fprintf(stderr, "bench ai: %s is played by %d to %d, not %d\n", def->name, def->min_seats,
			def->max_seats, players);
		return 64;
	}
	const bench_game *bg = bench_game_of(def);
	int sm[2] = { samples, samples_b < 0 ? samples : samples_b };
	double budget[2] = { ms, ms_b < 0 ? ms : ms_b };
	if (!bg || !bg->ai)
		return bench_ai_game(def, players, name, deals, sm, budget, seed);
	bench_ai_args args = { { name[0], name[1] }, deals, { sm[0], sm[1] }, { budget[0], budget[1] }, seed, seconds,
			       budget_on_cpu };
	return bg->ai(&args);
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
	qsort(us, N, sizeof us[0], bench_cmp_double);
	printf("store.commit_us median %.0f  p99 %.0f  worst %.0f  (%d committed actions, WAL, synchronous=FULL, in %s)\n",
	       us[N / 2], us[N * 99 / 100], us[N - 1], N, dir);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cardbot bench [engine|caps|store|all] [--seconds S] [--deals N]\n"
		   "       cardbot bench ai [options]   (the computer players; ai --help)\n"
		   "  engine       each game's engine figures (bot/cli/bench_304.c): random\n"
		   "               deals per second, the cost of one legal-move generation\n"
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
	const bench_game *bg;
	for (int i = 0; (bg = bench_game_at(i)); i++) {
		if (strcmp(what, "caps") != 0 && bg->engine)
			bg->engine(seconds);
		if (strcmp(what, "engine") != 0 && bg->caps)
			bg->caps(caps_deals);
	}
	if (strcmp(what, "all") == 0)
		return bench_store();
	return 0;
}
