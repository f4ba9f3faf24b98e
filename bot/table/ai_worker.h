/* ai_worker.h: the computer players think off the event loop.
 *
 * A decision (the game's search player, def->ai_action, on a copy of
 * the seat's view and legal moves: never the game itself) runs in one
 * worker thread; its result comes back to the loop through a pipe that is
 * a loop source, and the callback runs on the loop like everything else.
 * Each job has a time budget: the search stops when it is spent and
 * answers with the best it has, so no table waits longer than its budget,
 * and the loop answers other tables' commands meanwhile.
 */
#ifndef CARDBOT_AI_WORKER_H
#define CARDBOT_AI_WORKER_H

#include <stdint.h>
#include "game.h"
#include "loop.h"

typedef struct ai_worker ai_worker;

/* Called on the loop with the decision (ok 0: the player had nothing to
 * do, *a undefined) and the submitter's tag. Never called for a cancelled job. */
typedef void (*ai_done_fn)(void *ctx, uint64_t tag, int ok, const game_action *a);

#define AI_BUDGET_MS_DEFAULT 300
#define AI_QUEUE_MAX 64

/* A worker on loop l, or NULL (out of memory). Without a thread (it could
 * not be started) jobs run at once on the loop, results still delivered
 * through the loop. */
ai_worker *ai_worker_new(loop *l);
/* Stops the thread (waits for the job in hand: at most its budget) and
 * frees everything; pending callbacks are dropped. NULL is fine. */
void ai_worker_free(ai_worker *w);

/* Queues a decision for seat of g: the job takes a copy of the seat's view
 * and legal moves, nothing else of g. budget_ms caps its thinking time (0:
 * the level's sample count alone decides). Returns a job id > 0, or 0 if
 * the queue is full or the game has no search player (the caller then
 * decides some other way). */
uint64_t ai_worker_submit(ai_worker *w, const game *g, int seat, const game_ai_params *p, long budget_ms,
			  uint64_t tag, ai_done_fn done, void *ctx);

/* Forgets a job: its callback will not run. Unknown or finished ids are fine. */
void ai_worker_cancel(ai_worker *w, uint64_t job);
/* Forgets every job submitted with this ctx (a table that closes). */
void ai_worker_cancel_ctx(ai_worker *w, const void *ctx);

/* Runs a decision at once on the calling thread (tests, hints without a worker). */
int ai_decide_now(const game *g, int seat, const game_ai_params *p, long budget_ms, game_action *a);

#endif
