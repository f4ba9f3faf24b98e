/* loop.c: select(2) loop with one-shot timers and a self-pipe for signals. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "loop.h"
#include "grow.h"

#define LOOP_SOURCES_MAX 64   /* adapters and helpers: a handful per network */
#define LOOP_SIGNALS_MAX 8

typedef struct timer {
	uint64_t id;
	int64_t due;
	loop_timer_fn fn;
	void *ctx;
} timer;

struct loop {
	loop_source src[LOOP_SOURCES_MAX];
	int used[LOOP_SOURCES_MAX];
	timer *timers;
	size_t ntimers, cap;
	uint64_t next_id;
	int pipe_rd, pipe_wr;
	struct { int sig; loop_signal_fn fn; void *ctx; } sigs[LOOP_SIGNALS_MAX];
	int nsigs;
	int stopped;
	int64_t skew;   /* loop_skew: added to loop_now() for this loop's timers */
};

/* The write end of the self-pipe, for the signal handler: the one piece of
 * process-wide state, since a handler has nowhere else to look. */
static volatile int signal_pipe = -1;

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	if (signal_pipe >= 0 && write(signal_pipe, &b, 1) < 0) {
		/* A full pipe already holds a wake-up; nothing to do. */
	}
	errno = saved;
}

int64_t loop_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t loop_time(const loop *l)
{
	return loop_now() + l->skew;
}

void loop_skew(loop *l, int64_t ms)
{
	l->skew += ms;
}

loop *loop_new(void)
{
	loop *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	int p[2];
	if (pipe(p) < 0) {
		free(l);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(p[i], F_SETFL, fcntl(p[i], F_GETFL) | O_NONBLOCK);
		fcntl(p[i], F_SETFD, FD_CLOEXEC);
	}
	l->pipe_rd = p[0];
	l->pipe_wr = p[1];
	l->next_id = 1;
	return l;
}

void loop_free(loop *l)
{
	if (!l)
		return;
	if (signal_pipe == l->pipe_wr)
		signal_pipe = -1;
	close(l->pipe_rd);
	close(l->pipe_wr);
	free(l->timers);
	free(l);
}

int loop_add_source(loop *l, const loop_source *src)
{
	for (int i = 0; i < LOOP_SOURCES_MAX; i++)
		if (!l->used[i]) {
			l->src[i] = *src;
			l->used[i] = 1;
			return i;
		}
	return -1;
}

void loop_remove_source(loop *l, int id)
{
	if (id >= 0 && id < LOOP_SOURCES_MAX)
		l->used[id] = 0;
}

uint64_t loop_timer(loop *l, long ms, loop_timer_fn fn, void *ctx)
{
	timer *grown = grow_room(l->timers, sizeof *grown, l->ntimers, &l->cap, 16);
	if (!grown)
		return 0;
	l->timers = grown;
	timer *t = &l->timers[l->ntimers++];
	t->id = l->next_id++;
	t->due = loop_time(l) + (ms < 0 ? 0 : ms);
	t->fn = fn;
	t->ctx = ctx;
	return t->id;
}

void loop_cancel(loop *l, uint64_t id)
{
	for (size_t i = 0; i < l->ntimers; i++)
		if (l->timers[i].id == id) {
			l->timers[i] = l->timers[--l->ntimers];
			return;
		}
}

int loop_on_signal(loop *l, int sig, loop_signal_fn fn, void *ctx)
{
	if (l->nsigs >= LOOP_SIGNALS_MAX)
		return -1;
	l->sigs[l->nsigs].sig = sig;
	l->sigs[l->nsigs].fn = fn;
	l->sigs[l->nsigs].ctx = ctx;
	l->nsigs++;
	signal_pipe = l->pipe_wr;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	return sigaction(sig, &sa, NULL);
}

/* Runs every timer that is due; a callback may add or cancel timers. */
static void run_timers(loop *l)
{
	int64_t now = loop_time(l);
	for (;;) {
		size_t best = l->ntimers;
		for (size_t i = 0; i < l->ntimers; i++)
			if (l->timers[i].due <= now && (best == l->ntimers || l->timers[i].due < l->timers[best].due))
				best = i;
		if (best == l->ntimers)
			return;
		timer t = l->timers[best];
		l->timers[best] = l->timers[--l->ntimers];
		t.fn(t.ctx);
	}
}

void loop_once(loop *l, long max_ms)
{
	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	int maxfd = l->pipe_rd;
	FD_SET(l->pipe_rd, &rd);
	long timeout = max_ms;
	int64_t now = loop_time(l);
	for (size_t i = 0; i < l->ntimers; i++) {
		long left = (long)(l->timers[i].due - now);
		if (left < 0)
			left = 0;
		if (timeout < 0 || left < timeout)
			timeout = left;
	}
	for (int i = 0; i < LOOP_SOURCES_MAX; i++)
		if (l->used[i] && l->src[i].prepare)
			l->src[i].prepare(l->src[i].ctx, &rd, &wr, &maxfd, &timeout);
	struct timeval tv, *tvp = NULL;
	if (timeout >= 0) {
		tv.tv_sec = timeout / 1000;
		tv.tv_usec = (timeout % 1000) * 1000;
		tvp = &tv;
	}
	int n = select(maxfd + 1, &rd, &wr, NULL, tvp);
	if (n < 0) {
		FD_ZERO(&rd);
		FD_ZERO(&wr);
	}
	if (n > 0 && FD_ISSET(l->pipe_rd, &rd)) {
		unsigned char buf[64];
		ssize_t got;
		while ((got = read(l->pipe_rd, buf, sizeof buf)) > 0)
			for (ssize_t k = 0; k < got; k++)
				for (int s = 0; s < l->nsigs; s++)
					if (l->sigs[s].sig == buf[k])
						l->sigs[s].fn(l->sigs[s].ctx, buf[k]);
	}
	if (n > 0)
		for (int i = 0; i < LOOP_SOURCES_MAX; i++)
			if (l->used[i] && l->src[i].dispatch)
				l->src[i].dispatch(l->src[i].ctx, &rd, &wr);
	run_timers(l);
}

void loop_run(loop *l)
{
	l->stopped = 0;
	while (!l->stopped)
		loop_once(l, -1);
}

void loop_stop(loop *l) { l->stopped = 1; }
