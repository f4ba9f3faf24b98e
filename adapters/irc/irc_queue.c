/* irc_queue.c: what the IRC adapter says: lines cut to fit, queued fairly (sendq.h) and paced by a token bucket. */
#include <stdio.h>
#include <string.h>

#include "irc_internal.h"

/* ---- the outgoing queue ---- */

static size_t text_room(const irc *c, const char *cmd, const char *target);

/* Tells the person who caused a line that it was dropped (once until
 * their waiting lines have gone): nothing is dropped silently. */
static void tell_dropped(irc *c, const char *who)
{
	char nick[IRC_FIELD_MAX], text[ADAPTER_TEXT_MAX];
	if (!sendq_drop_note(c->q, who, loop_now()) || !irc_nick_for(c, who, nick, sizeof nick))
		return;
	if (!c->base.host.words || !c->base.host.words(c->base.host.ctx, &c->base, NULL, ADAPTER_W_DROPPED, who, text,
						    sizeof text))
		snprintf(text, sizeof text, "Some of my lines to you were dropped: more were waiting for you than I "
			 "may keep. Ask again once the rest has arrived.");
	size_t room = text_room(c, "NOTICE", nick), skip;
	if (!room)
		return;
	char line[IRCLINE_MAX];
	size_t k = ircline_split(text, strlen(text), room, &skip);
	int w = snprintf(line, sizeof line, "NOTICE %s :%.*s", nick, (int)k, text);
	/* After what they have waiting; nobody's doing, so never itself cut
	 * at the limit that dropped the line. */
	if (w > 0 && (size_t)w < sizeof line)
		sendq_push(c->q, who, 0, NULL, line, loop_now());
}

/* A queue result: says once that lines are being dropped. */
void irc_queued(irc *c, int r)
{
	if (r == SENDQ_NOMEM)
		LOG(c, "warn", "out of memory; a line was dropped");
	else if (r == SENDQ_DROPPED && sendq_len(c->q) >= SENDQ_LINES_MAX) {
		if (!c->qwarned)
			LOG(c, "warn", "send queue full (%d lines); dropping new lines", SENDQ_LINES_MAX);
		c->qwarned = 1;
	} else if (r == SENDQ_DROPPED) {
		LOG(c, "info", "%s has more than %d lines waiting; a line was dropped and they are told",
		    c->tagged && c->tag_cause[0] ? c->tag_cause : "someone",
		    c->tag_whole ? SENDQ_WHOLE_MAX : SENDQ_CAUSED_MAX);
		if (c->tagged && c->tag_cause[0])
			tell_dropped(c, c->tag_cause);
	}
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

/* Room for text in one private NOTICE to nick (adapter_ops.line_max). */
size_t irc_private_room(const irc *c, const char *nick)
{
	return ircline_is_word(nick) ? text_room(c, "NOTICE", nick) : 0;
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
				sendq_tag tag = { .cause = c->tag_cause, .key = c->tag_key[0] ? c->tag_key : NULL,
						  .answer = c->tag_answer, .story = c->tag_story, .batch = c->tag_event,
						  .replaces = c->tag_replaces, .whole = c->tag_whole };
				irc_queued(c, sendq_push(c->q, to, in_room, c->tagged ? &tag : NULL, line, loop_now()));
			}
			s += k + skip;
			len -= k + skip;
		}
		start = end + 1;
	}
	irc_flush(c);
}
