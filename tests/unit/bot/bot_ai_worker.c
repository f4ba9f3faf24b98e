/* bot_ai_worker.c: the worker thread on its own: decisions come back on the
 * loop, legal and within their budget; the loop keeps answering timers
 * while a search thinks; cancelled jobs never call back; freeing the worker
 * with a job in hand is safe; a full queue says so. */
#include <stdio.h>
#include <string.h>
#include "ai_worker.h"
#include "check.h"
#include "g304.h"
#include "loop.h"
#include "rng.h"

typedef struct result {
	int calls, ok;
	uint64_t tag;
	game_action a;
	int64_t at;
} result;

static void done(void *ctx, uint64_t tag, int ok, const game_action *a)
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

/* A match of def in the middle of play (a card decision for the seat to
 * move), after random moves; 304 without caps. */
static game *mid_play(const game_def *def, int nseats, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	g304_rules rules;
	g304_rules_default(&rules);
	rules.caps = G304_CAPS_OFF;
	for (;;) {
		int err = 0;
		game *g = game_new(def, nseats, 0, def == &game_def_304 ? &rules : NULL, &err);
		if (!g)
			return NULL;
		for (int steps = 0; steps < 400; steps++) {
			game_status st;
			game_status_of(g, &st);
			if (st.over)
				break;
			if (st.needs_deal) {
				if (st.deal_no > 0)
					break;
				uint8_t deck[GAME_MAX_DECK];
				game_shuffle(def, &r, deck);
				game_deal(g, deck);
				continue;
			}
			if (!strcmp(def->phase_name(st.phase), "play"))
				return g;
			game_action a;
			game_result res;
			if (!game_random_action(g, st.turn, &r, &a) || game_apply(g, &a, &res) != 0)
				break;
		}
		game_free(g);
	}
}

static int legal_for(const game *g, const game_action *a)
{
	game *copy = game_copy(g);
	game_result res;
	int ok = copy && game_apply(copy, a, &res) == 0;
	game_free(copy);
	return ok;
}

int main(void)
{
	loop *ev = loop_new();
	ai_worker *w = ai_worker_new(ev);
	CHECK(w != NULL, "a worker starts");
	game *g = mid_play(&game_def_304, 4, 7);
	CHECK(g != NULL, "a 304 match in play");
	if (!g)
		return check_report("bot_ai_worker");
	game_status st;
	game_status_of(g, &st);
	int s = st.turn;

	/* The loop keeps running its timers while a search thinks: a job
	 * whose budget (a minute) outlasts this check is still out after ten
	 * ticks of the loop's 5 ms timer; then it is cancelled. (Counted in
	 * events, not in time: a busy machine only makes it slower.) */
	game_ai_params p;
	game_ai_params_default(&p, GAME_AI_STRONG, 42);
	p.samples = 1000000;    /* more than any budget allows: the clock must stop it */
	result rl = { 0 };
	loop_timer(ev, 5, tick, ev);
	uint64_t jl = ai_worker_submit(w, g, s, &p, 60000, 10, done, &rl);
	CHECK(jl > 0, "a long job is queued");
	while (ticks < 10 && !rl.calls)
		loop_once(ev, 10);
	CHECK(ticks >= 10 && rl.calls == 0, "the loop ran its timers while a search thought (%d ticks, %d answers)",
	      ticks, rl.calls);
	ai_worker_cancel(w, jl);

	/* A strong decision with a 200 ms budget comes back once, legal, after
	 * thinking for its budget, and stopped by the clock: a million samples
	 * would take many minutes, so anything under 25 times the budget is
	 * the clock (the bound on the wait only ends a hung test). */
	result r1 = { 0 };
	int64_t t0 = loop_now();
	uint64_t job = ai_worker_submit(w, g, s, &p, 200, 11, done, &r1);
	CHECK(job > 0, "the job is queued");
	while (!r1.calls && loop_now() - t0 < 60000)
		loop_once(ev, 10);
	CHECK(r1.calls == 1 && r1.ok && r1.tag == 11, "the decision comes back once, with its tag");
	CHECK(r1.ok && r1.a.seat == s && legal_for(g, &r1.a), "the decision is a legal action for the seat");
	CHECK(r1.at - t0 >= 150 && r1.at - t0 < 25 * 200,
	      "it thought for its budget and the clock stopped it (%lld ms for 200)", (long long)(r1.at - t0));
	CHECK(rl.calls == 0, "the cancelled long job never called back");

	/* A cancelled job never calls back; another one queued after it does. */
	result rc = { 0 }, r2 = { 0 };
	uint64_t jc = ai_worker_submit(w, g, s, &p, 100, 21, done, &rc);
	uint64_t j2 = ai_worker_submit(w, g, s, &p, 50, 22, done, &r2);
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
	ai_worker_submit(w, g, s, &p, 50, 31, done, &rt);
	ai_worker_submit(w, g, s, &p, 50, 32, done, &rt);
	ai_worker_cancel_ctx(w, &rt);
	for (int i = 0; i < 60; i++)
		loop_once(ev, 5);
	CHECK(rt.calls == 0, "jobs of a closed table never call back");

	/* The same seed and a sample budget (no clock) give the same decision. */
	game_ai_params pn;
	game_ai_params_default(&pn, GAME_AI_NORMAL, 99);
	game_action a1, a2;
	int ok1 = ai_decide_now(g, s, &pn, 0, &a1), ok2 = ai_decide_now(g, s, &pn, 0, &a2);
	CHECK(ok1 && ok2 && !memcmp(&a1, &a2, sizeof a1), "a decision is the same for the same seed");

	/* Every game with a search player thinks on the worker, 304 for six too. */
	static const struct { const game_def *def; int n; } others[] = {
		{ &game_def_trump304, 2 }, { &game_def_trump304, 3 }, { &game_def_trump304, 4 }, { &game_def_rook, 4 },
		{ &game_def_304six, 6 },
	};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		game *o = mid_play(others[i].def, others[i].n, 11 + i);
		game_status os;
		game_status_of(o, &os);
		result ro = { 0 };
		uint64_t jo = ai_worker_submit(w, o, os.turn, &p, 100, 50 + i, done, &ro);
		int64_t t1 = loop_now();
		while (jo && !ro.calls && loop_now() - t1 < 3000)
			loop_once(ev, 10);
		CHECK(jo > 0 && ro.calls == 1 && ro.ok && ro.a.seat == os.turn && legal_for(o, &ro.a),
		      "%s for %d: the worker's decision is a legal action for the seat", others[i].def->name, others[i].n);
		game_free(o);
	}

	/* A full queue says so rather than growing without end. */
	result rq = { 0 };
	int refused = 0;
	for (int i = 0; i < AI_QUEUE_MAX + 8; i++)
		refused += ai_worker_submit(w, g, s, &p, 20, 40 + (uint64_t)i, done, &rq) == 0;
	CHECK(refused > 0, "a full queue refuses more jobs (%d refused)", refused);

	/* Freeing with jobs in hand and queued is safe, and nothing calls back. */
	int before = rq.calls;
	ai_worker_free(w);
	for (int i = 0; i < 10; i++)
		loop_once(ev, 2);
	CHECK(rq.calls == before, "no callback after the worker is freed");
	loop_free(ev);
	game_free(g);
	return check_report("bot_ai_worker");
}
