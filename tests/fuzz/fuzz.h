/* fuzz.h: what every harness in tests/fuzz/ provides.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput (and may define
 * LLVMFuzzerInitialize). Built two ways:
 *   make fuzz        clang -fsanitize=fuzzer,address,undefined: libFuzzer
 *                    drives it, growing tests/fuzz/corpus/NAME/
 *   make test        any compiler, linked with replay_main.c: every file in
 *                    tests/fuzz/corpus/NAME/ is run once, so a crash input
 *                    saved there is a regression test from then on
 * A harness must not keep state from one input to the next, must not block,
 * and must abort() (never just print) when a property it checks fails.
 */
#ifndef CARDBOT_FUZZ_H
#define CARDBOT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Stops the process with a message when a harness's property fails. */
#define FUZZ_ASSERT(cond)                                                                        \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                                 \
		}                                                                                \
	} while (0)

#endif
