/* matrix_budget.c: the model of the homeserver's message limit that paces every budgeted request. */
#include "matrix_internal.h"

/* ---- the budget ----
 *
 * Synapse counts every send (and an upload) against the account's message
 * limit, and a room creation twice, one after the other: the room is made
 * with the first token and the creator's join needs the second. A 429 says
 * how long until ONE token is back. A client that retries each refused
 * request on its own timer sends several at the moment one token returns,
 * and they take turns failing for ever (a room creation each time leaving
 * an empty room behind). So the adapter keeps its own model of the limit,
 * a bucket of tokens, and one dispatcher spends it: the most urgent job
 * that is ready goes when its tokens are there, the next waits for its
 * own. Urgency: a reply to the person who just acted, then a room's lines,
 * then private lines, then room creations (two tokens, only when both are
 * there); a job gets one class more urgent for every MX_AGE_MS it waits. */

static void bud_refill(matrix *m)
{
	int64_t now = loop_now();
	if (now > m->bud_at) {
		m->bud_tokens += (double)(now - m->bud_at) / 1000.0 * m->bud_rate;
		if (m->bud_tokens > m->bud_burst)
			m->bud_tokens = m->bud_burst;
	}
	m->bud_at = now;
	/* No limit was assumed (an admin lifted it for the bot), yet one was
	 * met: perhaps for a moment. The model loosens while no 429 comes. */
	if (m->bud_on && !m->set.assume_limit && now - m->last_429 > MX_PROBE_MS && now - m->bud_raised > MX_PROBE_MS) {
		m->bud_rate *= 2;
		m->bud_raised = now;
		if (now - m->last_429 > MX_UNLIMIT_MS)
			m->bud_on = 0;
	}
}

/* Milliseconds until `cost` tokens are there (0: now). */
long mx_bud_wait(matrix *m, double cost)
{
	bud_refill(m);
	if (!m->bud_on || m->bud_tokens >= cost)
		return 0;
	return (long)((cost - m->bud_tokens) / m->bud_rate * 1000.0) + 1;
}

void mx_bud_spend(matrix *m, double cost)
{
	bud_refill(m);
	if (m->bud_on)
		m->bud_tokens -= cost;
}

/* A 429 with its retry_after_ms: the model learns. Right after a success
 * (which left the server's bucket at most full), one token taking retry
 * plus the time since says the rate is at most 1/(retry + since); what the
 * server has now is one token less retry's worth; a model that had more
 * than that overrated the burst. */
void mx_bud_refused(matrix *m, long retry_ms, int solo)
{
	int64_t now = loop_now();
	bud_refill(m);
	m->last_429 = m->bud_raised = now; /* (before bud_refill can loosen the model again) */
	if (!m->bud_on) {
		/* The first limit met with none assumed: one token in retry_ms
		 * says the rate is at least about that (a later 429 lowers it). */
		m->bud_on = 1;
		m->bud_tokens = 0;
		m->bud_at = now;
		double r = retry_ms > 0 ? 1000.0 / (double)retry_ms : 50.0;
		if (r > m->bud_rate)
			m->bud_rate = r > 50.0 ? 50.0 : r;
	}
	bud_refill(m);
	/* (Only for a request that was alone: with others out at once, a success
	 * the server counted first may not have been seen yet.) */
	if (solo && m->last_ok && now - m->last_ok < 10000 && retry_ms > 0) {
		double r = 1000.0 / (double)(retry_ms + (now - m->last_ok));
		if (r < m->bud_rate)
			m->bud_rate = r < MX_RATE_MIN ? MX_RATE_MIN : r;
	}
	double server = 1.0 - (double)retry_ms / 1000.0 * m->bud_rate;
	if (m->bud_tokens > server + 1.0) {
		m->bud_burst -= m->bud_tokens - server;
		if (m->bud_burst < 1)
			m->bud_burst = 1;
	}
	m->bud_tokens = server;
	m->last_429 = m->bud_raised = now;
	m->n429++;
}

/* Whether q is the only budgeted request out. */
int mx_budget_solo(const matrix *m, const mx_req *q)
{
	for (const mx_req *p = m->reqs; p; p = p->next)
		if (p != q && (p->kind == REQ_SEND || p->kind == REQ_UPLOAD || p->kind == REQ_CREATE_DM))
			return 0;
	return 1;
}

static void disp_fire(void *ctx)
{
	matrix *m = ctx;
	m->disp_timer = 0;
	mx_dispatch(m);
}

/* Looks at what to send in `ms` (sooner if already due sooner). */
void mx_kick(matrix *m, long ms)
{
	int64_t due = loop_now() + ms;
	if (m->disp_timer) {
		if (m->disp_due <= due)
			return;
		loop_cancel(m->base.ev, m->disp_timer);
	}
	m->disp_due = due;
	m->disp_timer = loop_timer(m->base.ev, ms, disp_fire, m);
}
