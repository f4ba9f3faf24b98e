/* bench.h: the `cardbot bench` subcommand. */
#ifndef CARDBOT_BENCH_H
#define CARDBOT_BENCH_H

/* Runs the benchmarks named in argv (argv[0] is "bench"); returns an exit status. */
int bench_main(int argc, char **argv);

#endif
