/* fuzz_record.c: bot/store/record.c (the game-record loader) and the replay behind it.
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
	/* Every game's records (304, 304six, trump304, rook), as `cardbot replay` reads them. */
	record *rec = record_parse_game((const char *)data, size, err);
	if (!rec) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof err));
		return 0;
	}
	FUZZ_ASSERT(rec->nseats >= rec->game->min_seats && rec->nseats <= rec->game->max_seats);
	for (int s = 0; s < rec->nseats; s++)
		FUZZ_ASSERT(rec->players[s] && rec->players[s][0]);
	FUZZ_ASSERT(rec->dealer >= 0 && rec->dealer < rec->nseats);
	FUZZ_ASSERT(rec->ndeals <= RECORD_MAX_DEALS);
	int view = (int)(size % 7) - 1;
	replay_run(rec, view < rec->nseats ? view : -1, sink);
	record_free(rec);
	return 0;
}
