/* irc_queue.c: what the IRC adapter says: lines cut to fit, queued fairly (sendq.h) and paced by a token bucket. */
#include <stdio.h>
#include <string.h>

#include "irc_internal.h"

/* ---- the outgoing queue ---- */

/* A queue result: says once that lines are being dropped. */
void irc_queued(irc *c, int r)
{
	if (r == SENDQ_NOMEM)
		LOG(c, "warn", "out of memory; a line was dropped");
	else if (r == SENDQ_DROPPED && sendq_len(c->q) >= SENDQ_LINES_MAX) {
		if (!c->qwarned)
			LOG(c, "warn", "send queue full (%d lines); dropping new lines", SENDQ_LINES_MAX);
		c->qwarned = 1;
	} else if (r == SENDQ_DROPPED)
		LOG(c, "debug", "one person's lines are waiting beyond %d; a line was dropped", SENDQ_CAUSED_MAX);
}

/* Queues a protocol line of our own (no CRLF) at the back, or at the front when `first`. */
void irc_queue_line(irc *c, const char *line, int first)
{
	irc_queued(c, sendq_push_control(c->q, line, first));
}

static void on_flush(void *ctx)
{
	irc *c = ctx;
	c->t_flush = 0;
	irc_flush(c);
}

/* Sends what the token bucket allows; a timer comes back for the rest. */
void irc_flush(irc *c)
{
	if (!c->registered || !c->session || c->dead || c->t_flush)
		return;
	int64_t now = loop_now();
	double burst = c->set.pace_burst, rate = c->set.pace_per_second;
	c->tokens += (double)(now - c->tokens_at) * rate / 1000.0;
	if (c->tokens > burst)
		c->tokens = burst;
	c->tokens_at = now;
	const char *line;
	while (c->tokens >= 1 && (line = sendq_peek(c->q, now))) {
		if (irc_send_raw(c->session, "%s", line)) {
			c->t_flush = loop_timer(c->base.ev, IRC_SEND_RETRY_MS, on_flush, c);
			return;
		}
		sendq_pop(c->q, now);
		c->tokens -= 1;
	}
	if (sendq_len(c->q) < SENDQ_LINES_MAX / 2)
		c->qwarned = 0;
	if (sendq_len(c->q))
		c->t_flush = loop_timer(c->base.ev, (long)((1.0 - c->tokens) * 1000.0 / rate) + 1, on_flush, c);
}

/* Room for text in one line to `target`; 0 when the target leaves too little. */
static size_t text_room(const irc *c, const char *cmd, const char *target)
{
	size_t prefix = IRC_PREFIX_BUDGET;
	if (c->userhost[0]) {
		size_t own = 1 + strlen(c->self) + 1 + strlen(c->userhost) + 1;
		if (own > prefix)
			prefix = own;
	}
	size_t fixed = 2 + prefix + strlen(cmd) + 1 + strlen(target) + 2;
	if (fixed + IRC_TEXT_CHUNK_MIN > IRCLINE_MAX)
		return 0;
	size_t room = IRCLINE_MAX - fixed;
	return room > IRC_TEXT_CHUNK_MAX ? IRC_TEXT_CHUNK_MAX : room;
}

/* Splits text into lines for `target` and queues them: a newline starts a
 * new line, CR is dropped, long lines break at spaces or character
 * boundaries, never inside a colour code; beyond ADAPTER_TEXT_MAX is cut.
 * They wait in the queue for `to` (the room when in_room, else the person's identity),
 * tagged as the host said (sendq.h). */
void irc_queue_text(irc *c, const char *cmd, const char *target, const char *to, int in_room, const char *text)
{
	if (!target || !ircline_is_word(target)) {
		LOG(c, "warn", "refusing to send to an invalid target");
		return;
	}
	size_t room = text_room(c, cmd, target);
	if (!room) {
		LOG(c, "warn", "target name too long to send to");
		return;
	}
	char buf[ADAPTER_TEXT_MAX + 1];
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)text;
	for (; *p && n < ADAPTER_TEXT_MAX; p++)
		if (*p != '\r')
			buf[n++] = (char)*p;
	if (*p) {
		/* Cut: do not leave half a character at the end. */
		if ((*p & 0xC0) == 0x80) {
			while (n > 0 && ((unsigned char)buf[n - 1] & 0xC0) == 0x80)
				n--;
			if (n > 0 && (unsigned char)buf[n - 1] >= 0xC0)
				n--;
		}
		LOG(c, "warn", "text longer than %d bytes was cut", ADAPTER_TEXT_MAX);
	}
	char line[IRCLINE_MAX];
	for (size_t start = 0; start < n;) {
		size_t end = start;
		while (end < n && buf[end] != '\n')
			end++;
		const char *s = buf + start;
		size_t len = end - start;
		while (len > 0) {
			size_t skip;
			size_t k = ircline_split(s, len, room, &skip);
			int w = snprintf(line, sizeof line, "%s %s :%.*s", cmd, target, (int)k, s);
			if (w > 0 && (size_t)w < sizeof line) {
				sendq_tag tag = { c->tag_cause, c->tag_key[0] ? c->tag_key : NULL, c->tag_answer,
						  c->tag_story };
				irc_queued(c, sendq_push(c->q, to, in_room, c->tagged ? &tag : NULL, line, loop_now()));
			}
			s += k + skip;
			len -= k + skip;
		}
		start = end + 1;
	}
	irc_flush(c);
}
