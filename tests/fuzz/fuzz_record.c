/* fuzz_record.c: bot/record.c (the game-record loader) and the replay behind it.
 *
 * The input is a would-be record (docs/RECORD.md). A record that loads is
 * replayed through the engine, as `cardbot replay` does, its output thrown
 * away; the seat whose view is printed too is chosen from the input's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "record.h"
#include "replay.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	char err[RECORD_ERR_MAX];
	err[0] = '\0';
	record *rec = record_parse((const char *)data, size, err);
	if (!rec) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof err));
		return 0;
	}
	for (int s = 0; s < G304_SEATS; s++)
		FUZZ_ASSERT(rec->players[s] && rec->players[s][0]);
	FUZZ_ASSERT(rec->dealer >= 0 && rec->dealer < G304_SEATS);
	FUZZ_ASSERT(rec->ndeals <= RECORD_MAX_DEALS);
	replay_run(rec, (int)(size % 5) - 1, sink);
	record_free(rec);
	return 0;
}
