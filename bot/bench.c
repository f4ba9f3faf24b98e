/* bench.c: stub for `cardbot bench` until the benchmarks are written. */
#include <stdio.h>

int bench_main(int argc, char **argv);

int bench_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("bench: not built yet\n", stderr);
	return 1;
}
