/* replay_main.c: runs a fuzz harness over its saved corpus without libFuzzer.
 *
 * Linked with one fuzz_NAME.c by `make test` (gcc or clang, plain or under
 * ASan+UBSan). With no arguments it replays every file in FUZZ_CORPUS (the
 * harness's directory, set by the Makefile); arguments name other files or
 * directories. A crash or a sanitizer report stops the run with a non-zero
 * status; otherwise it ends with the usual "NAME: N passed, 0 failed" line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#ifndef FUZZ_NAME
#define FUZZ_NAME "fuzz"
#endif
#ifndef FUZZ_CORPUS
#define FUZZ_CORPUS "."
#endif

#define INPUT_MAX (4u << 20) /* libFuzzer's default -max_len is far below this */

/* Harnesses that need no set-up do not define it. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open %s: %s\n", FUZZ_NAME, path, strerror(errno));
		return -1;
	}
	uint8_t *buf = malloc(INPUT_MAX);
	if (!buf) {
		fclose(f);
		return -1;
	}
	size_t n = fread(buf, 1, INPUT_MAX, f);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		fprintf(stderr, "%s: cannot read %s\n", FUZZ_NAME, path);
		return -1;
	}
	/* An exact-size copy, so ASan sees any read past the input's end. */
	uint8_t *in = malloc(n ? n : 1);
	if (!in) {
		free(buf);
		return -1;
	}
	memcpy(in, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(in, n);
	free(in);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file in dir, in name order (so runs are repeatable). */
static int run_dir(const char *dir, int *passed, int *failed)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: cannot open %s: %s\n", FUZZ_NAME, dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **more = realloc(names, cap * sizeof *names);
			if (!more)
				break;
			names = more;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) == 0)
				(*passed)++;
			else
				(*failed)++;
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	int passed = 0, failed = 0;
	if (argc < 2) {
		if (run_dir(FUZZ_CORPUS, &passed, &failed) < 0)
			failed++;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &passed, &failed) < 0)
				failed++;
		} else if (run_file(argv[i]) == 0) {
			passed++;
		} else {
			failed++;
		}
	}
	if (passed == 0 && failed == 0)
		failed = 1; /* an empty corpus tests nothing: say so */
	printf("%s: %d passed, %d failed\n", FUZZ_NAME, passed, failed);
	return failed ? 1 : 0;
}
