/* bot_ai_worker.c: the worker thread on its own: decisions come back on the
 * loop, legal and within their budget; the loop keeps answering timers
 * while a search thinks; cancelled jobs never call back; freeing the worker
 * with a job in hand is safe; a full queue says so. */
#include <stdio.h>
#include <string.h>
#include "ai_worker.h"
#include "check.h"
#include "g304_random.h"
#include "loop.h"
#include "rng.h"

typedef struct result {
	int calls, ok;
	uint64_t tag;
	g304_action a;
	int64_t at;
} result;

static void done(void *ctx, uint64_t tag, int ok, const g304_action *a)
{
	result *r = ctx;
	r->calls++;
	r->ok = ok;
	r->tag = tag;
	if (ok)
		r->a = *a;
	r->at = loop_now();
}

static int ticks;
static void tick(void *ctx)
{
	loop *ev = ctx;
	ticks++;
	loop_timer(ev, 5, tick, ev);
}

/* A game in the middle of play (a card decision for the seat to move). */
static void mid_play(g304 *g, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	for (;;) {
		g304_init(g, &rules, 0);
		card deck[CARD_COUNT];
		for (int i = 0; i < CARD_COUNT; i++)
			deck[i] = (card)i;
		for (int i = CARD_COUNT - 1; i > 0; i--) {
			int j = (int)(rng_next(&r) % (uint64_t)(i + 1));
			card t = deck[i];
			deck[i] = deck[j];
			deck[j] = t;
		}
		g304_deal(g, deck);
		g304_action a;
		while (g->phase != G304_PHASE_PLAY && g->phase != G304_PHASE_DEAL && g304_random_action(g, &r, 0, &a))
			g304_apply(g, &a, NULL);
		if (g->phase == G304_PHASE_PLAY)
			return;
	}
}

static int legal_for(const g304 *g, const g304_action *a)
{
	g304 copy = *g;
	return g304_apply(&copy, a, NULL) == 0;
}

int main(void)
{
	loop *ev = loop_new();
	ai_worker *w = ai_worker_new(ev);
	CHECK(w != NULL, "a worker starts");
	g304 g;
	mid_play(&g, 7);
	int s = g.turn;
	g304_view v;
	g304_legal l;
	g304_view_of(&g, s, &v);
	g304_legal_of(&g, s, &l);

	/* A strong decision with a 200 ms budget comes back legal, in time,
	 * while the loop keeps running its timers. */
	g304_ai_params p;
	g304_ai_params_default(&p, G304_AI_STRONG, 42);
	p.samples = 1000000;    /* more than any budget allows: the clock must stop it */
	result r1 = { 0 };
	loop_timer(ev, 5, tick, ev);
	int64_t t0 = loop_now();
	uint64_t job = ai_worker_submit(w, &v, &l, &p, 200, 11, done, &r1);
	CHECK(job > 0, "the job is queued");
	while (!r1.calls && loop_now() - t0 < 3000)
		loop_once(ev, 10);
	CHECK(r1.calls == 1 && r1.ok && r1.tag == 11, "the decision comes back once, with its tag");
	CHECK(r1.ok && r1.a.seat == s && legal_for(&g, &r1.a), "the decision is a legal action for the seat");
	CHECK(r1.at - t0 >= 150 && r1.at - t0 <= 200 + 300, "it thought for its budget and no longer (%lld ms for 200)",
	      (long long)(r1.at - t0));
	CHECK(ticks >= 10, "the loop ran its timers meanwhile (%d ticks of 5 ms)", ticks);

	/* A cancelled job never calls back; another one queued after it does. */
	result rc = { 0 }, r2 = { 0 };
	uint64_t jc = ai_worker_submit(w, &v, &l, &p, 100, 21, done, &rc);
	uint64_t j2 = ai_worker_submit(w, &v, &l, &p, 50, 22, done, &r2);
	ai_worker_cancel(w, jc);
	t0 = loop_now();
	while (!r2.calls && loop_now() - t0 < 3000)
		loop_once(ev, 10);
	for (int i = 0; i < 20; i++)
		loop_once(ev, 5);
	CHECK(j2 > 0 && r2.calls == 1 && r2.tag == 22, "the job after a cancelled one answers");
	CHECK(rc.calls == 0, "a cancelled job never calls back");

	/* Cancel by context: a table that closes. */
	result rt = { 0 };
	ai_worker_submit(w, &v, &l, &p, 50, 31, done, &rt);
	ai_worker_submit(w, &v, &l, &p, 50, 32, done, &rt);
	ai_worker_cancel_ctx(w, &rt);
	for (int i = 0; i < 60; i++)
		loop_once(ev, 5);
	CHECK(rt.calls == 0, "jobs of a closed table never call back");

	/* The same seed and a sample budget (no clock) give the same decision. */
	g304_ai_params pn;
	g304_ai_params_default(&pn, G304_AI_NORMAL, 99);
	g304_action a1, a2;
	int ok1 = ai_decide_now(&v, &l, &pn, 0, &a1), ok2 = ai_decide_now(&v, &l, &pn, 0, &a2);
	CHECK(ok1 && ok2 && !memcmp(&a1, &a2, sizeof a1), "a decision is the same for the same seed");

	/* A full queue says so rather than growing without end. */
	result rq = { 0 };
	int refused = 0;
	for (int i = 0; i < AI_QUEUE_MAX + 8; i++)
		refused += ai_worker_submit(w, &v, &l, &p, 20, 40 + (uint64_t)i, done, &rq) == 0;
	CHECK(refused > 0, "a full queue refuses more jobs (%d refused)", refused);

	/* Freeing with jobs in hand and queued is safe, and nothing calls back. */
	int before = rq.calls;
	ai_worker_free(w);
	for (int i = 0; i < 10; i++)
		loop_once(ev, 2);
	CHECK(rq.calls == before, "no callback after the worker is freed");
	loop_free(ev);
	return check_report("bot_ai_worker");
}
