/* loop.h: the one event loop (shared by the host and the adapters): descriptors, timers and signals, single-threaded.
 *
 * Sources are polled through select(2) fd_sets so that libircclient
 * (irc_add_select_descriptors) and libcurl (curl_multi_fdset) plug in as they
 * are. Timers are one-shot, in monotonic milliseconds. Signal handlers only
 * write to a self-pipe; the callbacks run on the loop.
 */
#ifndef CARDBOT_LOOP_H
#define CARDBOT_LOOP_H

#include <stdint.h>
#include <sys/select.h>

typedef struct loop loop;

/* A descriptor source: prepare adds its descriptors and may shorten the
 * wait (*timeout_ms, never lengthen it); dispatch handles what is ready. */
typedef struct loop_source {
	void *ctx;
	void (*prepare)(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms);
	void (*dispatch)(void *ctx, fd_set *rd, fd_set *wr);
} loop_source;

typedef void (*loop_timer_fn)(void *ctx);
typedef void (*loop_signal_fn)(void *ctx, int sig);

/* A new loop, or NULL (out of memory, or the self-pipe failed). */
loop *loop_new(void);
/* Frees the loop; sources and timers are forgotten, not called. NULL is fine. */
void loop_free(loop *l);

/* Registers a source (copied); returns an id >= 0, or -1. */
int loop_add_source(loop *l, const loop_source *src);
void loop_remove_source(loop *l, int id);

/* Calls fn(ctx) once after ms milliseconds; returns an id > 0, or 0 on failure. */
uint64_t loop_timer(loop *l, long ms, loop_timer_fn fn, void *ctx);
/* Cancels a pending timer; unknown or fired ids are ignored. */
void loop_cancel(loop *l, uint64_t id);

/* Calls fn(ctx, sig) on the loop when sig arrives. */
int loop_on_signal(loop *l, int sig, loop_signal_fn fn, void *ctx);

/* Monotonic milliseconds. */
int64_t loop_now(void);
/* This loop's clock, which its timers follow: loop_now() plus what
 * loop_skew added. */
int64_t loop_time(const loop *l);
/* Moves this loop's clock ms forward (tests: a long pace passes without
 * waiting for it; the timers it makes due run at the next loop_once). */
void loop_skew(loop *l, int64_t ms);

/* Waits at most max_ms (-1: until something happens) and runs what is due. */
void loop_once(loop *l, long max_ms);
/* Runs until loop_stop. */
void loop_run(loop *l);
void loop_stop(loop *l);

#endif
