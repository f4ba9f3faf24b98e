/* ai_worker.c: one thread that runs the computer players' searches. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ai_worker.h"

typedef struct ai_job {
	uint64_t id;
	const game_def *def;
	void *view;             /* the seat's view: def->view_size bytes */
	game_legal legal;
	game_ai_params params;
	long budget_ms;
	uint64_t tag;
	ai_done_fn done;
	void *ctx;
	int cancelled;
	int ok;                 /* result */
	game_action action;
} ai_job;

static void job_free(ai_job *job)
{
	if (job) {
		free(job->view);
		free(job);
	}
}

struct ai_worker {
	loop *ev;
	int source;
	int pipe_rd, pipe_wr;
	pthread_t thread;
	int threaded;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int quit;
	uint64_t next_id;
	/* Jobs waiting, in order; the one being thought about; results to deliver. */
	ai_job *todo[AI_QUEUE_MAX];
	int ntodo;
	ai_job *busy;
	ai_job *done[AI_QUEUE_MAX + 1];
	int ndone;
};

static double mono_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct deadline {
	double at;
	ai_worker *w;
	ai_job *job;
} deadline;

static int past_deadline(void *ctx)
{
	deadline *d = ctx;
	if (d->w) {
		/* A cancelled job or a stopping worker need not finish its thinking. */
		pthread_mutex_lock(&d->w->mu);
		int stop = d->job->cancelled || d->w->quit;
		pthread_mutex_unlock(&d->w->mu);
		if (stop)
			return 1;
	}
	return d->at > 0 && mono_seconds() >= d->at;
}

static int run_decision(const game_def *def, const void *v, const game_legal *l, const game_ai_params *p,
			long budget_ms, ai_worker *w, ai_job *job, game_action *a)
{
	game_ai_params q = *p;
	/* The samples after the budget's end are not started; the one under
	 * way and the caps check may take a few more milliseconds, so aim a
	 * little short. */
	deadline d = { budget_ms > 0 ? mono_seconds() + budget_ms * 0.9 / 1000.0 : 0, w, job };
	q.stop = past_deadline;
	q.stop_ctx = &d;
	return def->ai_action(v, l, &q, NULL, a);
}

int ai_decide_now(const game *g, int seat, const game_ai_params *p, long budget_ms, game_action *a)
{
	if (!g->def->ai_action || p->level <= GAME_AI_EASY)
		return game_ai_decide(g, seat, p, NULL, a);
	game_legal l;
	game_legal_of(g, seat, &l);
	void *v = malloc(g->def->view_size);
	if (!v)
		return game_ai_decide(g, seat, p, NULL, a);
	game_view(g, seat, v);
	int ok = l.acts ? run_decision(g->def, v, &l, p, budget_ms, NULL, NULL, a) : 0;
	free(v);
	return ok;
}

static void wake_loop(ai_worker *w)
{
	char b = 1;
	ssize_t n;
	do
		n = write(w->pipe_wr, &b, 1);
	while (n < 0 && errno == EINTR);
	/* A full pipe already wakes the loop: nothing lost. */
}

static void *worker_main(void *arg)
{
	ai_worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->quit && !w->ntodo)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		ai_job *job = w->todo[0];
		memmove(w->todo, w->todo + 1, sizeof w->todo[0] * (size_t)--w->ntodo);
		w->busy = job;
		pthread_mutex_unlock(&w->mu);
		job->ok = run_decision(job->def, job->view, &job->legal, &job->params, job->budget_ms, w, job, &job->action);
		pthread_mutex_lock(&w->mu);
		w->busy = NULL;
		w->done[w->ndone++] = job;
		wake_loop(w);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static void prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	(void)wr;
	(void)timeout_ms;
	ai_worker *w = ctx;
	FD_SET(w->pipe_rd, rd);
	if (w->pipe_rd > *maxfd)
		*maxfd = w->pipe_rd;
}

static void deliver(ai_worker *w)
{
	for (;;) {
		pthread_mutex_lock(&w->mu);
		if (!w->ndone) {
			pthread_mutex_unlock(&w->mu);
			return;
		}
		ai_job *job = w->done[0];
		memmove(w->done, w->done + 1, sizeof w->done[0] * (size_t)--w->ndone);
		pthread_mutex_unlock(&w->mu);
		/* Cancelling happens on the loop too, so this read is settled. */
		if (!job->cancelled)
			job->done(job->ctx, job->tag, job->ok, &job->action);
		job_free(job);
	}
}

static void dispatch(void *ctx, fd_set *rd, fd_set *wr)
{
	(void)wr;
	ai_worker *w = ctx;
	if (!FD_ISSET(w->pipe_rd, rd))
		return;
	char buf[64];
	while (read(w->pipe_rd, buf, sizeof buf) > 0)
		;
	deliver(w);
}

ai_worker *ai_worker_new(loop *l)
{
	ai_worker *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	int fds[2];
	if (pipe(fds) != 0) {
		free(w);
		return NULL;
	}
	w->pipe_rd = fds[0];
	w->pipe_wr = fds[1];
	for (int i = 0; i < 2; i++) {
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
	}
	w->ev = l;
	w->next_id = 1;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	loop_source src = { w, prepare, dispatch };
	w->source = loop_add_source(l, &src);
	if (w->source < 0) {
		ai_worker_free(w);
		return NULL;
	}
	w->threaded = pthread_create(&w->thread, NULL, worker_main, w) == 0;
	if (!w->threaded)
		fprintf(stderr, "ai: no worker thread; computer players think on the loop\n");
	return w;
}

void ai_worker_free(ai_worker *w)
{
	if (!w)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->quit = 1;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	for (int i = 0; i < w->ntodo; i++)
		job_free(w->todo[i]);
	for (int i = 0; i < w->ndone; i++)
		job_free(w->done[i]);
	if (w->source >= 0 && w->ev)
		loop_remove_source(w->ev, w->source);
	close(w->pipe_rd);
	close(w->pipe_wr);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

uint64_t ai_worker_submit(ai_worker *w, const game *g, int seat, const game_ai_params *p, long budget_ms,
			  uint64_t tag, ai_done_fn done, void *ctx)
{
	if (!w || !done || !g || !g->def->ai_action)
		return 0;
	ai_job *job = calloc(1, sizeof *job);
	if (!job)
		return 0;
	job->def = g->def;
	job->view = malloc(g->def->view_size);
	if (!job->view) {
		free(job);
		return 0;
	}
	game_view(g, seat, job->view);
	game_legal_of(g, seat, &job->legal);
	job->params = *p;
	job->params.stop = NULL;
	job->params.stop_ctx = NULL;
	job->budget_ms = budget_ms;
	job->tag = tag;
	job->done = done;
	job->ctx = ctx;
	pthread_mutex_lock(&w->mu);
	if (w->ntodo >= AI_QUEUE_MAX || w->ndone >= AI_QUEUE_MAX) {
		pthread_mutex_unlock(&w->mu);
		job_free(job);
		return 0;
	}
	job->id = w->next_id++;
	uint64_t id = job->id;
	if (w->threaded) {
		w->todo[w->ntodo++] = job;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		return id;
	}
	pthread_mutex_unlock(&w->mu);
	/* No thread: decide now, deliver on the loop's next turn. */
	job->ok = run_decision(job->def, job->view, &job->legal, &job->params, budget_ms, NULL, NULL, &job->action);
	pthread_mutex_lock(&w->mu);
	w->done[w->ndone++] = job;
	pthread_mutex_unlock(&w->mu);
	wake_loop(w);
	return id;
}

/* Cancels the jobs matching id (if nonzero) or ctx (if id is zero). */
static void cancel(ai_worker *w, uint64_t id, const void *ctx)
{
	pthread_mutex_lock(&w->mu);
	for (int i = 0; i < w->ntodo; i++)
		if (id ? w->todo[i]->id == id : w->todo[i]->ctx == ctx) {
			job_free(w->todo[i]);
			memmove(w->todo + i, w->todo + i + 1, sizeof w->todo[0] * (size_t)(w->ntodo - i - 1));
			w->ntodo--;
			i--;
		}
	if (w->busy && (id ? w->busy->id == id : w->busy->ctx == ctx))
		w->busy->cancelled = 1;
	for (int i = 0; i < w->ndone; i++)
		if (id ? w->done[i]->id == id : w->done[i]->ctx == ctx)
			w->done[i]->cancelled = 1;
	pthread_mutex_unlock(&w->mu);
}

void ai_worker_cancel(ai_worker *w, uint64_t id)
{
	if (w && id)
		cancel(w, id, NULL);
}

void ai_worker_cancel_ctx(ai_worker *w, const void *ctx)
{
	if (w && ctx)
		cancel(w, 0, ctx);
}
