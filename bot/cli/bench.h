/* bench.h: the `cardbot bench` subcommand, and the registry of the figures games give it. */
#ifndef CARDBOT_BENCH_H
#define CARDBOT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "game.h"

/* Runs the benchmarks named in argv (argv[0] is "bench"); returns an exit status. */
int bench_main(int argc, char **argv);

/* ---- what a game adds to the benchmark (bot/cli/bench_304.c: the one
 * place that names games; every other figure goes through engine/core/game.h) ---- */

/* `bench ai` as asked: A is 0, B is 1. */
typedef struct bench_ai_args {
	const char *name[2];     /* the players: strong, normal, easy, simple, or the game's own */
	int deals;
	int samples[2];          /* sampled deals per decision (0: the level's) */
	double ms[2];            /* time budget per decision (0: samples only) */
	uint64_t seed;
	double seconds;          /* for a speed figure */
	int on_cpu;              /* --clock cpu: budgets in this thread's CPU time (bench_budget_now) */
} bench_ai_args;

typedef struct bench_game {
	const char *name;                     /* the game's record name */
	void (*engine)(double seconds);       /* `bench engine`: its engine's figures */
	void (*caps)(int deals);              /* `bench caps`, or NULL */
	/* `bench ai --game NAME`: its own duplicate match and figures, or NULL
	 * for the common one (game_dup); an exit status. */
	int (*ai)(const bench_ai_args *a);
	const char *ai_players;               /* its own players, for --help (NULL: none) */
	/* `bench ai` in the common match: the exact solver's figures beside
	 * the solver of before issue 33, or NULL. */
	void (*solver)(int players);
	/* The common match's strong0 (the player of before issue 33), or NULL:
	 * ref_begin gives p the old solver for one decision (stopping when
	 * stop(stop_ctx) says) and returns its state; ref_end frees it and
	 * returns the positions it searched. */
	void *(*ref_begin)(game_ai_params *p, int (*stop)(void *), void *stop_ctx);
	unsigned long (*ref_end)(void *ref);
} bench_game;

/* The i-th game with figures of its own (from 0), or NULL past the last. */
const bench_game *bench_game_at(int i);

/* Helpers the figures share: a monotonic clock and this thread's CPU time
 * in seconds; qsort's order for doubles; malloc that says when it fails;
 * a square root without libm. */
double bench_now(void);
double bench_cpu(void);
/* What `bench ai` measures budgets by (bench_now, or bench_cpu with --clock cpu). */
double bench_budget_now(void);
int bench_cmp_double(const void *a, const void *b);
void *bench_alloc(size_t size);
double bench_root(double v);
/* The mean of x[0..n-1], and in *half the half-width of its 95% interval
 * (from the sample variance; 0 for one value). */
double bench_mean(const double *x, int n, double *half);

/* Seconds per decision of one player, and how they are summed up. */
typedef struct timings {
	double *t;
	long n, cap;
} timings;
void timings_add(timings *tm, double dt);
/* Sorts the times; returns their sum (0 when there are none). */
double timings_sorted(timings *tm);
/* A duplicate match's last words: the refused actions if any; frees the
 * scores x and both players' times; the exit status (1: a player is broken). */
int bench_ai_end(long refused, double *x, timings *a, timings *b);

#endif
