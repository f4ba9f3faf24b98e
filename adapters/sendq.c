/* sendq.c: the fair send queue (see sendq.h). */
#include <stdlib.h>
#include <string.h>

#include "sendq.h"
#include "grow.h"

typedef struct sq_line {
	struct sq_line *next;
	char *to;          /* the room or person it goes to, for merging */
	char *key;         /* an answer's key, or NULL */
	char *asker;       /* whose use it counts as, or NULL */
	uint64_t batch;    /* the tag it was pushed under (sendq_tag.batch) */
	int whole;         /* asked for in full: counted in its flow's `whole`, not `caused` */
	char text[];
} sq_line;

typedef struct sq_flow {
	char *name;        /* NULL: a free slot */
	int room;
	sq_line *head, *tail;
	size_t len;
	size_t caused;     /* of its lines, those its owner caused */
	size_t whole;      /* of those, the ones asked for in full (not in `caused`) */
	int told;          /* the owner was told a line was dropped; cleared when their lines run out */
	double usage;      /* lines used lately, as of usage_at */
	int64_t usage_at;
	uint64_t served;   /* q->sent when it last sent a line (0: never) */
} sq_flow;

struct sendq {
	sendq_cmp_fn cmp;
	const void *cmp_ctx;
	sq_flow control;
	sq_flow *flows;
	size_t nflows, capflows;
	size_t len;
	uint64_t sent;
	int streak;        /* room lines sent in a row */
	long picked;       /* the flow of the last peek: -1 control, -2 none */
	/* Who was told this spell of a full queue (sendq_push_note). */
	char *noted[SENDQ_NOTES_MAX];
	int noted_room[SENDQ_NOTES_MAX];
	size_t nnoted;
};

static int exact(const void *ctx, const char *a, const char *b)
{
	(void)ctx;
	return strcmp(a, b);
}

sendq *sendq_new(sendq_cmp_fn cmp, const void *ctx)
{
	sendq *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->cmp = cmp ? cmp : exact;
	q->cmp_ctx = ctx;
	q->picked = -2;
	return q;
}

static void line_free(sq_line *l)
{
	if (!l)
		return;
	free(l->to);
	free(l->key);
	free(l->asker);
	free(l);
}

static void flow_empty(sendq *q, sq_flow *f)
{
	while (f->head) {
		sq_line *l = f->head;
		f->head = l->next;
		line_free(l);
		q->len--;
	}
	f->tail = NULL;
	f->len = f->caused = f->whole = 0;
	f->told = 0;
}

/* The queue has drained (or was cleared): a new spell of a full queue
 * tells everyone again. */
static void noted_forget(sendq *q)
{
	for (size_t i = 0; i < q->nnoted; i++)
		free(q->noted[i]);
	q->nnoted = 0;
}

void sendq_clear(sendq *q)
{
	if (!q)
		return;
	noted_forget(q);
	flow_empty(q, &q->control);
	for (size_t i = 0; i < q->nflows; i++)
		flow_empty(q, &q->flows[i]);
	q->picked = -2;
}

void sendq_free(sendq *q)
{
	if (!q)
		return;
	sendq_clear(q);
	for (size_t i = 0; i < q->nflows; i++)
		free(q->flows[i].name);
	free(q->flows);
	free(q);
}

size_t sendq_len(const sendq *q)
{
	return q ? q->len : 0;
}

/* usage halved for each SENDQ_HALF_LIFE_MS since `at`; within a half-life
 * 2^-r is taken as 1 - r/2 (no libm; off by at most 6%). */
static double decayed(double usage, int64_t at, int64_t now)
{
	int64_t dt = now - at;
	if (dt <= 0)
		return usage;
	for (; dt >= SENDQ_HALF_LIFE_MS && usage > 1e-6; dt -= SENDQ_HALF_LIFE_MS)
		usage /= 2;
	if (usage <= 1e-6)
		return 0;
	return usage * (1.0 - 0.5 * (double)dt / SENDQ_HALF_LIFE_MS);
}

static long flow_find(const sendq *q, const char *name, int room)
{
	for (size_t i = 0; i < q->nflows; i++)
		if (q->flows[i].name && q->flows[i].room == room && !q->cmp(q->cmp_ctx, q->flows[i].name, name))
			return (long)i;
	return -1;
}

/* The flow for name, made when there is none; -1 when none can be made. */
static long flow_get(sendq *q, const char *name, int room, int64_t now)
{
	long i = flow_find(q, name, room);
	if (i >= 0)
		return i;
	long slot = -1;
	double least = 0;
	for (size_t k = 0; k < q->nflows; k++) {
		sq_flow *f = &q->flows[k];
		if (!f->name) {
			slot = (long)k;
			break;
		}
		/* An idle flow whose use is (nearly) forgotten may be reused. */
		double u = decayed(f->usage, f->usage_at, now);
		if (!f->len && u < 0.01 && (slot < 0 || u < least)) {
			slot = (long)k;
			least = u;
		}
	}
	if (slot < 0 && q->nflows < SENDQ_FLOWS_MAX) {
		sq_flow *v = grow_room(q->flows, sizeof *v, q->nflows, &q->capflows, 16);
		if (!v)
			return -1;
		q->flows = v;
		slot = (long)q->nflows++;
		memset(&q->flows[slot], 0, sizeof q->flows[slot]);
	}
	if (slot < 0)
		return -1;
	char *dup = strdup(name);
	if (!dup)
		return -1;
	sq_flow *f = &q->flows[slot];
	free(f->name);
	memset(f, 0, sizeof *f);
	f->name = dup;
	f->room = room;
	f->usage_at = now;
	return slot;
}

static void charge(sendq *q, const char *who, int64_t now)
{
	long i = flow_get(q, who, 0, now);
	if (i < 0)
		return;
	sq_flow *f = &q->flows[i];
	f->usage = decayed(f->usage, f->usage_at, now) + 1.0;
	f->usage_at = now;
}

static sq_line *line_new(const char *to, const char *key, const char *asker, const char *text)
{
	size_t n = strlen(text);
	sq_line *l = calloc(1, sizeof *l + n + 1);
	if (!l)
		return NULL;
	memcpy(l->text, text, n + 1);
	l->to = to ? strdup(to) : NULL;
	l->key = key ? strdup(key) : NULL;
	l->asker = asker ? strdup(asker) : NULL;
	if ((to && !l->to) || (key && !l->key) || (asker && !l->asker)) {
		line_free(l);
		return NULL;
	}
	return l;
}

static void append(sq_flow *f, sq_line *l)
{
	if (f->tail)
		f->tail->next = l;
	else
		f->head = l;
	f->tail = l;
	f->len++;
}

int sendq_push_control(sendq *q, const char *line, int front)
{
	if (!front && q->len >= SENDQ_LINES_MAX)
		return SENDQ_FULL;
	sq_line *l = line_new(NULL, NULL, NULL, line);
	if (!l)
		return SENDQ_NOMEM;
	if (front) {
		l->next = q->control.head;
		q->control.head = l;
		if (!q->control.tail)
			q->control.tail = l;
		q->control.len++;
	} else {
		append(&q->control, l);
	}
	q->len++;
	return SENDQ_QUEUED;
}

/* Does the line count against its flow's owner (their own doing)? */
static int line_own(const sendq *q, const sq_flow *f, const sq_line *l)
{
	return !f->room && l->asker && !q->cmp(q->cmp_ctx, l->asker, f->name);
}

/* l has left f (sent or detached): f's counts without it. */
static void line_gone(sendq *q, sq_flow *f, const sq_line *l)
{
	f->len--;
	if (line_own(q, f, l)) {
		if (l->whole)
			f->whole--;
		else
			f->caused--;
		if (!f->caused && !f->whole)
			f->told = 0;
	}
}

/* Takes l (after prev, or the head when prev is NULL) out of f, unsent,
 * and keeps it (the caller puts it elsewhere or frees it). */
static void line_detach(sendq *q, sq_flow *f, sq_line *prev, sq_line *l)
{
	if (prev)
		prev->next = l->next;
	else
		f->head = l->next;
	if (f->tail == l)
		f->tail = prev;
	line_gone(q, f, l);
	l->next = NULL;
	q->len--;
}

static void line_unlink(sendq *q, sq_flow *f, sq_line *prev, sq_line *l)
{
	line_detach(q, f, prev, l);
	line_free(l);
}

/* A room's story line caused by `who` is about to join room flow r: the
 * answers of theirs to that room still waiting (they sat down, then
 * played) go first, so nobody reads a move before its player's seat. */
static void pull_answers(sendq *q, long r, const char *who, const char *room)
{
	long p = flow_find(q, who, 0);
	if (p < 0)
		return;
	sq_flow *f = &q->flows[p];
	for (sq_line *prev = NULL, *l = f->head; l;) {
		sq_line *next = l->next;
		if (l->to && !q->cmp(q->cmp_ctx, l->to, room) && l->asker && !q->cmp(q->cmp_ctx, l->asker, who)) {
			if (q->picked == p && l == f->head)
				q->picked = -2;
			line_detach(q, f, prev, l);
			append(&q->flows[r], l);
			q->len++;
		} else {
			prev = l;
		}
		l = next;
	}
}

/* A waiting line with `key` to `to` from another batch: merges the new
 * one (SENDQ_MERGED), or when it replaces, drops the old ones (0). */
static int merge_key(sendq *q, const char *to, const char *key, uint64_t batch, int replaces)
{
	for (size_t i = 0; i < q->nflows; i++) {
		sq_flow *f = &q->flows[i];
		for (sq_line *prev = NULL, *l = f->head; l;) {
			sq_line *next = l->next;
			int same = l->key && l->to && !strcmp(l->key, key) && !q->cmp(q->cmp_ctx, l->to, to);
			if (same && (!batch || l->batch != batch)) {
				if (!replaces)
					return SENDQ_MERGED;
				if (q->picked == (long)i && l == f->head)
					q->picked = -2; /* peeked and not yet popped: peek again */
				line_unlink(q, f, prev, l);
			} else {
				prev = l;
			}
			l = next;
		}
	}
	return 0;
}

int sendq_push(sendq *q, const char *to, int room, const sendq_tag *tag, const char *line, int64_t now)
{
	const char *cause = tag && tag->cause && tag->cause[0] ? tag->cause : NULL;
	int answer = cause && tag->answer;
	const char *key = answer && tag->key && tag->key[0] ? tag->key : NULL;
	/* What a room was told goes stale; a private line (a seat key, a
	 * hand) is its reader's own and stays. */
	if (key && tag->replaces && !room)
		key = NULL;
	/* Every line counts against whoever caused it when they cause it,
	 * whether it is sent, merged, made stale or dropped: charged only when
	 * sent, twenty people sharing a line a second each looked quieter
	 * than a quiet player (20 !sit/!leave flooders: 46 s for his answer). */
	if (cause)
		charge(q, cause, now);
	if (key && merge_key(q, to, key, tag->batch, tag->replaces) == SENDQ_MERGED)
		return SENDQ_MERGED;
	if (q->len >= (tag && tag->reserve ? SENDQ_LINES_MAX + SENDQ_NOTES_MAX : SENDQ_LINES_MAX))
		return SENDQ_FULL;
	/* Private lines wait in their reader's flow (those of a room's story
	 * in the room's); a room's answers in the asker's; the rest of a
	 * room's lines in the room's. */
	const char *story = !room && !answer && tag && tag->story && tag->story[0] ? tag->story : NULL;
	const char *flow = story ? story : !room ? to : answer ? cause : to;
	int in_room_flow = story || (room && !answer);
	long i = flow_get(q, flow, in_room_flow, now);
	if (i < 0)
		return SENDQ_DROPPED;
	if (room && in_room_flow && cause)
		pull_answers(q, i, cause, to);
	sq_flow *f = &q->flows[i];
	int own = !in_room_flow && cause && !q->cmp(q->cmp_ctx, cause, f->name);
	int whole = own && tag->whole;
	if (own && (whole ? f->whole >= SENDQ_WHOLE_MAX : f->caused >= SENDQ_CAUSED_MAX))
		return SENDQ_DROPPED;
	sq_line *l = line_new(to, key, cause, line);
	if (!l)
		return SENDQ_NOMEM;
	l->batch = tag ? tag->batch : 0;
	l->whole = whole;
	append(f, l);
	if (whole)
		f->whole++;
	else if (own)
		f->caused++;
	q->len++;
	return SENDQ_QUEUED;
}

const char *sendq_peek(sendq *q, int64_t now)
{
	q->picked = -2;
	if (q->control.head) {
		q->picked = -1;
		return q->control.head->text;
	}
	long best_room = -1, best_person = -1;
	double best_usage = 0;
	for (size_t i = 0; i < q->nflows; i++) {
		const sq_flow *f = &q->flows[i];
		if (!f->head)
			continue;
		if (f->room) {
			if (best_room < 0 || f->served < q->flows[best_room].served)
				best_room = (long)i;
			continue;
		}
		/* What they asked for and still wait for counts as used: new
		 * flooders, whose use is only beginning, already have a backlog
		 * (ten of them went ahead of a player who had opened a table). */
		double u = decayed(f->usage, f->usage_at, now) + (double)(f->caused + f->whole);
		if (best_person < 0 || u < best_usage - SENDQ_TIE
		    || (u < best_usage + SENDQ_TIE && f->served < q->flows[best_person].served)) {
			best_person = (long)i;
			best_usage = u;
		}
	}
	if (best_room >= 0 && (best_person < 0 || q->streak < SENDQ_ROOM_STREAK))
		q->picked = best_room;
	else
		q->picked = best_person;
	return q->picked >= 0 ? q->flows[q->picked].head->text : NULL;
}

void sendq_pop(sendq *q, int64_t now)
{
	(void)now; /* kept in the interface: lines are counted when pushed */
	if (q->picked == -1) {
		sq_line *l = q->control.head;
		q->control.head = l->next;
		if (!q->control.head)
			q->control.tail = NULL;
		q->control.len--;
		q->len--;
		line_free(l);
		q->picked = -2;
		if (q->nnoted && q->len <= SENDQ_LINES_MAX / 2)
			noted_forget(q);
		return;
	}
	if (q->picked < 0 || (size_t)q->picked >= q->nflows || !q->flows[q->picked].head)
		return;
	sq_flow *f = &q->flows[q->picked];
	sq_line *l = f->head;
	f->head = l->next;
	if (!f->head)
		f->tail = NULL;
	line_gone(q, f, l);
	q->len--;
	f->served = ++q->sent;
	q->streak = f->room ? q->streak + 1 : 0;
	q->picked = -2;
	line_free(l);
	if (q->nnoted && q->len <= SENDQ_LINES_MAX / 2)
		noted_forget(q);
}

int sendq_push_note(sendq *q, const char *to, int room, const char *line, int64_t now)
{
	for (size_t i = 0; i < q->nnoted; i++)
		if (q->noted_room[i] == room && !q->cmp(q->cmp_ctx, q->noted[i], to))
			return SENDQ_MERGED;
	if (q->nnoted >= SENDQ_NOTES_MAX || q->len >= SENDQ_LINES_MAX + SENDQ_NOTES_MAX)
		return SENDQ_FULL;
	long i = flow_get(q, to, room, now);
	if (i < 0)
		return SENDQ_FULL;
	char *name = strdup(to);
	sq_line *l = line_new(to, NULL, NULL, line);
	if (!name || !l) {
		free(name);
		line_free(l);
		return SENDQ_NOMEM;
	}
	/* First in its flow: the news that lines are missing is worth more
	 * than the next of the lines waiting (people wonder what happened). */
	sq_flow *f = &q->flows[i];
	if (q->picked == i)
		q->picked = -2;
	l->next = f->head;
	f->head = l;
	if (!f->tail)
		f->tail = l;
	f->len++;
	q->len++;
	q->noted[q->nnoted] = name;
	q->noted_room[q->nnoted++] = room;
	return SENDQ_QUEUED;
}

int sendq_drop_note(sendq *q, const char *who, int64_t now)
{
	long i = flow_get(q, who, 0, now);
	if (i < 0 || q->flows[i].told)
		return 0;
	q->flows[i].told = 1;
	return 1;
}

double sendq_usage(sendq *q, const char *who, int64_t now)
{
	long i = flow_find(q, who, 0);
	return i < 0 ? 0 : decayed(q->flows[i].usage, q->flows[i].usage_at, now);
}
