/* bot_sendq.c: the fair send queue (adapters/sendq.c) on its own: which line
 * goes next, never how fast. Times are given, not read from a clock. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "check.h"
#include "sendq.h"

static int eq(const void *ctx, const char *a, const char *b) { (void)ctx; return strcasecmp(a, b); }

/* Pops the next line into out; "" when none waits. */
static const char *next(sendq *q, int64_t now, char *out, size_t len)
{
	const char *l = sendq_peek(q, now);
	snprintf(out, len, "%s", l ? l : "");
	if (l)
		sendq_pop(q, now);
	return out;
}

static void answer(sendq *q, const char *who, const char *to, int room, const char *key, const char *text, int64_t now)
{
	sendq_tag t = { .cause = who, .key = key, .answer = 1, .story = NULL };
	sendq_push(q, to, room, &t, text, now);
}

int main(void)
{
	char buf[256];
	int64_t now = 1000000;

	/* Control lines go first, in order, and "front" ones before them. */
	sendq *q = sendq_new(eq, NULL);
	CHECK(q != NULL, "sendq_new");
	sendq_push(q, "#r", 1, NULL, "story 1", now);
	sendq_push_control(q, "JOIN #a", 0);
	sendq_push_control(q, "IDENTIFY", 1);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "IDENTIFY"), "front control line first, got %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "JOIN #a"), "then the control line, got %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "story 1"), "then the room, got %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), ""), "then nothing, got %s", buf);
	CHECK(sendq_len(q) == 0, "empty");
	sendq_free(q);

	/* A room's story keeps its order whoever caused each line. */
	q = sendq_new(eq, NULL);
	sendq_tag alice = { .cause = "alice", .key = NULL, .answer = 0, .story = NULL }, bob = { .cause = "bob" };
	sendq_push(q, "#r", 1, &alice, "alice plays", now);
	sendq_push(q, "#r", 1, NULL, "computer plays", now);
	sendq_push(q, "#r", 1, &bob, "bob plays", now);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "alice plays"), "story 1: %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "computer plays"), "story 2: %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "bob plays"), "story 3: %s", buf);
	CHECK(sendq_usage(q, "alice", now) > 0.9, "a story line counts as its cause's use");
	sendq_free(q);

	/* A private line of a room's story (the next hand) waits behind all
	 * the room is still to hear (the last deal's end): a person's flow
	 * would have let it in after SENDQ_ROOM_STREAK room lines. */
	q = sendq_new(eq, NULL);
	sendq_tag deal = { .cause = NULL, .key = NULL, .answer = 0, .story = "#r" };
	for (int i = 0; i < SENDQ_ROOM_STREAK + 1; i++) {
		char text[32];
		snprintf(text, sizeof text, "trick %d", i + 1);
		sendq_push(q, "#r", 1, NULL, text, now);
	}
	sendq_push(q, "bob", 0, &deal, "bob's new hand", now);
	for (int i = 0; i < SENDQ_ROOM_STREAK + 1; i++) {
		char want[32];
		snprintf(want, sizeof want, "trick %d", i + 1);
		CHECK(!strcmp(next(q, now, buf, sizeof buf), want), "the room's story first: want %s, got %s", want, buf);
	}
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "bob's new hand"), "then the hand, got %s", buf);
	sendq_free(q);

	/* A quiet person's answer overtakes a heavy asker's backlog. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 10; i++) {
		char key[16], text[32];
		snprintf(key, sizeof key, "q%d", i);
		snprintf(text, sizeof text, "flood %d", i);
		answer(q, "flood", "flood", 0, key, text, now);
	}
	for (int i = 0; i < 3; i++)
		next(q, now, buf, sizeof buf);
	answer(q, "quiet", "quiet", 0, "table", "for quiet", now);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "for quiet"), "the quiet person first, got %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "flood 3"), "then the flood, in order, got %s", buf);
	/* A room answer waits in the asker's flow: it overtakes a heavy asker too. */
	answer(q, "quiet2", "#r", 1, "#r table", "room answer for quiet2", now);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "room answer for quiet2"), "a quiet asker's room answer first, "
	      "got %s", buf);
	sendq_free(q);

	/* The same question while its answer waits is said once, and charged. */
	q = sendq_new(eq, NULL);
	answer(q, "f1", "#r", 1, "#r table", "table 1", now);
	sendq_tag f2 = { .cause = "f2", .key = "#r table", .answer = 1, .story = NULL };
	CHECK(sendq_push(q, "#r", 1, &f2, "table 2", now) == SENDQ_MERGED, "merged");
	CHECK(sendq_push(q, "#s", 1, &f2, "table 2", now) == SENDQ_QUEUED, "another room is another answer");
	CHECK(sendq_usage(q, "f2", now) > 0.9, "a merged answer is charged to its asker");
	CHECK(sendq_len(q) == 2, "two lines wait, not %zu", sendq_len(q));
	next(q, now, buf, sizeof buf);
	next(q, now, buf, sizeof buf);
	CHECK(sendq_push(q, "#r", 1, &f2, "table 3", now) == SENDQ_QUEUED, "once sent, it is asked anew");
	sendq_free(q);

	/* One person's own lines are bounded; a room's story is not. */
	q = sendq_new(eq, NULL);
	int queued = 0, dropped = 0;
	for (int i = 0; i < SENDQ_CAUSED_MAX + 5; i++) {
		char key[16];
		snprintf(key, sizeof key, "k%d", i);
		sendq_tag t = { .cause = "f", .key = key, .answer = 1, .story = NULL };
		int r = sendq_push(q, "f", 0, &t, "x", now);
		queued += r == SENDQ_QUEUED;
		dropped += r == SENDQ_DROPPED;
	}
	CHECK(queued == SENDQ_CAUSED_MAX && dropped == 5, "queued %d dropped %d", queued, dropped);
	/* lines to f that f did not cause (a hand after someone else's move) still go */
	CHECK(sendq_push(q, "f", 0, NULL, "your turn", now) == SENDQ_QUEUED, "a line to f, nobody's doing");
	sendq_tag fs = { .cause = "f", .key = NULL, .answer = 0, .story = NULL };
	int stories = 0;
	for (int i = 0; i < SENDQ_CAUSED_MAX + 5; i++)
		stories += sendq_push(q, "#r", 1, &fs, "story", now) == SENDQ_QUEUED;
	CHECK(stories == SENDQ_CAUSED_MAX + 5, "story lines queued: %d", stories);
	sendq_free(q);

	/* A busy room cannot starve answers: one in SENDQ_ROOM_STREAK + 1. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 10; i++)
		sendq_push(q, "#busy", 1, NULL, "room", now);
	answer(q, "p", "p", 0, "help", "answer", now);
	int at = -1;
	for (int i = 0; i < 11; i++)
		if (!strcmp(next(q, now, buf, sizeof buf), "answer"))
			at = i;
	CHECK(at == SENDQ_ROOM_STREAK, "the answer went after %d room lines", at);
	/* Rooms take turns. */
	for (int i = 0; i < 3; i++) {
		sendq_push(q, "#a", 1, NULL, "a", now);
		sendq_push(q, "#b", 1, NULL, "b", now);
	}
	sendq_push(q, "#a", 1, NULL, "a", now);
	char order[16] = "";
	for (int i = 0; i < 7; i++)
		strcat(order, next(q, now, buf, sizeof buf));
	CHECK(!strcmp(order, "ababa" "ba") || !strcmp(order, "babaaba") || !strcmp(order, "abababa"),
	      "rooms in turn: %s", order);
	sendq_free(q);

	/* Use is forgotten with time. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 8; i++) {
		answer(q, "u", "u", 0, NULL, "x", now);
		next(q, now, buf, sizeof buf);
	}
	double u0 = sendq_usage(q, "u", now);
	double u1 = sendq_usage(q, "u", now + SENDQ_HALF_LIFE_MS);
	double u10 = sendq_usage(q, "u", now + 10 * (int64_t)SENDQ_HALF_LIFE_MS);
	CHECK(u0 > 7.9 && u0 < 8.1, "usage %f", u0);
	CHECK(u1 > 3.9 && u1 < 4.1, "usage after a half-life %f", u1);
	CHECK(u10 < 0.01, "usage after ten %f", u10);
	sendq_free(q);

	/* The lines of one answer (one batch) never merge with each other: a
	 * two-line !help lost its second line while the first waited. */
	q = sendq_new(eq, NULL);
	sendq_tag h1 = { .cause = "p", .key = "#r help", .answer = 1, .batch = 7 };
	CHECK(sendq_push(q, "p", 0, &h1, "help 1", now) == SENDQ_QUEUED, "help line 1");
	CHECK(sendq_push(q, "p", 0, &h1, "help 2", now) == SENDQ_QUEUED, "help line 2 of the same answer is kept");
	sendq_tag h2 = { .cause = "p", .key = "#r help", .answer = 1, .batch = 8 };
	CHECK(sendq_push(q, "p", 0, &h2, "help 1", now) == SENDQ_MERGED, "the same question again is merged");
	sendq_free(q);

	/* A newer seat change makes the waiting one stale: the old line goes,
	 * the new one waits; another person's is untouched. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 3; i++) {
		sendq_tag st = { .cause = "s", .key = "#r seat s", .answer = 1, .batch = (uint64_t)i + 1,
				 .replaces = 1 };
		sendq_push(q, "#r", 1, &st, i % 2 ? "s leaves" : "s sits", now);
	}
	sendq_tag other = { .cause = "o", .key = "#r seat o", .answer = 1, .batch = 9, .replaces = 1 };
	sendq_push(q, "#r", 1, &other, "o sits", now);
	CHECK(sendq_len(q) == 2, "three seat changes by one person are one line: %zu wait", sendq_len(q));
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "s sits") || !strcmp(buf, "o sits"), "got %s", buf);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "s sits") || !strcmp(buf, "o sits"), "got %s", buf);
	sendq_free(q);

	/* A game's lines go ahead of anyone's noise (at most SENDQ_ROOM_STREAK
	 * of them, then one answer); a mover's own waiting answer in that room
	 * (they sat down, then played) goes just before their move. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 5; i++) {
		sendq_tag n = { .cause = "noisy", .answer = 1, .batch = (uint64_t)i + 1 };
		sendq_push(q, "#r", 1, &n, "noise", now);
	}
	sendq_tag sat = { .cause = "mover", .key = "#r seat mover", .answer = 1, .batch = 20, .replaces = 1 };
	sendq_push(q, "#r", 1, &sat, "mover sits", now);
	sendq_tag mv = { .cause = "mover", .batch = 21 };
	sendq_push(q, "#r", 1, &mv, "mover plays", now);
	sendq_tag quiet = { .cause = "quiet", .batch = 22 };
	sendq_push(q, "#r", 1, &quiet, "quiet plays", now);
	const char *game[] = { "mover sits", "mover plays", "quiet plays" };
	int g = 0, noise_run = 0, worst_run = 0;
	for (int i = 0; i < 8; i++) {
		next(q, now, buf, sizeof buf);
		if (!strcmp(buf, "noise")) {
			if (g < 3 && ++noise_run > worst_run)
				worst_run = noise_run;
			continue;
		}
		noise_run = 0;
		CHECK(g < 3 && !strcmp(buf, game[g]), "game line %d: want %s, got %s", g, g < 3 ? game[g] : "", buf);
		g++;
	}
	CHECK(g == 3, "the three game lines went, in order (%d)", g);
	CHECK(worst_run <= 1, "at most one noise line between two game lines, not %d", worst_run);
	sendq_free(q);

	/* What a person asked for in full is not cut at SENDQ_CAUSED_MAX; a
	 * drop is noted once until their lines have gone. */
	q = sendq_new(eq, NULL);
	int whole = 0;
	for (int i = 0; i < 3 * SENDQ_CAUSED_MAX; i++) {
		sendq_tag w = { .cause = "r", .key = "#r record 1", .answer = 1, .batch = 30, .whole = 1 };
		whole += sendq_push(q, "r", 0, &w, "piece", now) == SENDQ_QUEUED;
	}
	CHECK(whole == 3 * SENDQ_CAUSED_MAX, "a record of %d lines queued %d", 3 * SENDQ_CAUSED_MAX, whole);
	int plain = 0;
	for (int i = 0; i < SENDQ_CAUSED_MAX + 1; i++) {
		sendq_tag a = { .cause = "r", .answer = 1, .batch = 40 + (uint64_t)i };
		plain += sendq_push(q, "r", 0, &a, "answer", now) == SENDQ_DROPPED;
	}
	CHECK(plain == 1, "answers beside it still stop at SENDQ_CAUSED_MAX: %d dropped", plain);
	CHECK(sendq_drop_note(q, "r", now) == 1 && sendq_drop_note(q, "r", now) == 0, "a drop is told once");
	while (sendq_len(q))
		next(q, now, buf, sizeof buf);
	CHECK(sendq_drop_note(q, "r", now) == 1, "and told again after the lines ran out");
	sendq_free(q);

	/* Many people: flows are reused, never more than SENDQ_FLOWS_MAX, and
	 * the total is bounded. */
	q = sendq_new(eq, NULL);
	int sent = 0;
	for (int i = 0; i < 3 * SENDQ_FLOWS_MAX; i++) {
		char who[16];
		snprintf(who, sizeof who, "p%d", i);
		answer(q, who, who, 0, NULL, "x", now + (int64_t)i * SENDQ_HALF_LIFE_MS);
		sent += !strcmp(next(q, now + (int64_t)i * SENDQ_HALF_LIFE_MS, buf, sizeof buf), "x");
	}
	CHECK(sent == 3 * SENDQ_FLOWS_MAX, "lines for many people sent: %d", sent);
	int full = 0;
	for (int i = 0; i < SENDQ_LINES_MAX + 10; i++)
		full += sendq_push(q, "#r", 1, NULL, "y", now) == SENDQ_FULL;
	CHECK(full == 10 && sendq_len(q) == SENDQ_LINES_MAX, "bounded: %d dropped, %zu wait", full, sendq_len(q));
	CHECK(sendq_push_control(q, "PONG", 1) == SENDQ_QUEUED, "a priority control line still goes in");
	sendq_clear(q);
	CHECK(sendq_len(q) == 0, "cleared");
	sendq_free(q);

	/* New flooders have used little so far, but what they wait for counts:
	 * a player who has used ten lines (they opened the table) still goes
	 * before three newcomers with eight answers each waiting. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < 10; i++) {
		answer(q, "p", "p", 0, NULL, "setup", now);
		next(q, now, buf, sizeof buf);
	}
	for (int i = 0; i < 8; i++) {
		answer(q, "n1", "n1", 0, NULL, "noise", now);
		answer(q, "n2", "n2", 0, NULL, "noise", now);
		answer(q, "n3", "n3", 0, NULL, "noise", now);
	}
	answer(q, "p", "p", 0, NULL, "mine", now);
	CHECK(!strcmp(next(q, now, buf, sizeof buf), "mine"), "the player's answer before newcomers' backlog, got %s", buf);
	sendq_free(q);

	/* People who ask alike take turns: three askers, each a line every
	 * 1.05 s (answers alike), a busy room, one line a second sent. Each
	 * gets a third of the people's lines or near it; before SENDQ_TIE the
	 * one just served (a line fewer waiting) went again, 109 of 120. */
	q = sendq_new(eq, NULL);
	{
		const char *who[3] = { "lang1", "lang2", "seat" };
		int served[3] = { 0, 0, 0 }, people = 0;
		for (int64_t t = 0; t < 240000; t += 50) {
			for (int k = 0; k < 3; k++)
				if ((t + k * 50) % 1050 == 0) {
					sendq_tag tag = { .cause = who[k], .answer = 1, .batch = (uint64_t)t * 4 + (uint64_t)k };
					sendq_push(q, who[k], 0, &tag, who[k], t);
				}
			if (t % 700 == 0)
				sendq_push(q, "#chan", 1, NULL, "story", t);
			if (t % 1000 == 0) {
				next(q, t, buf, sizeof buf);
				for (int k = 0; k < 3; k++)
					if (!strcmp(buf, who[k])) {
						served[k]++;
						people++;
					}
			}
		}
		for (int k = 0; k < 3; k++)
			CHECK(served[k] * 4 >= people, "%s got %d of the %d lines people got (%d, %d, %d)", who[k],
			      served[k], people, served[0], served[1], served[2]);
	}
	sendq_free(q);

	/* A full queue: whoever lost a line is told once a spell, first in
	 * their flow; notes and reserved answers use the room past the cap. */
	q = sendq_new(eq, NULL);
	for (int i = 0; i < SENDQ_LINES_MAX; i++)
		sendq_push(q, i % 2 ? "#a" : "#b", 1, NULL, "story", now);
	CHECK(sendq_push(q, "#a", 1, NULL, "lost", now) == SENDQ_FULL, "full: a room's line is dropped");
	answer(q, "quiet", "quiet", 0, NULL, "lost too", now);
	CHECK(sendq_len(q) == SENDQ_LINES_MAX, "full: a private answer is dropped as well");
	CHECK(sendq_push_note(q, "#a", 1, "note #a", now) == SENDQ_QUEUED, "the room is told");
	CHECK(sendq_push_note(q, "#A", 1, "note #a", now) == SENDQ_MERGED, "once (names compared as the adapter does)");
	CHECK(sendq_push_note(q, "quiet", 0, "note quiet", now) == SENDQ_QUEUED, "the person is told");
	sendq_tag ctcp = { .cause = "v", .key = "\x01VERSION", .answer = 1, .reserve = 1 };
	CHECK(sendq_push(q, "v", 0, &ctcp, "version", now) == SENDQ_QUEUED, "a reserved answer goes in past the cap");
	CHECK(sendq_len(q) == SENDQ_LINES_MAX + 3, "three past the cap: %zu", sendq_len(q));
	/* The notes go first: the people and the room hear at once. */
	int seen_room = 0, seen_quiet = 0, seen_version = 0;
	for (int i = 0; i < 6; i++) {
		next(q, now, buf, sizeof buf);
		seen_room |= !strcmp(buf, "note #a");
		seen_quiet |= !strcmp(buf, "note quiet");
		seen_version |= !strcmp(buf, "version");
	}
	CHECK(seen_room && seen_quiet && seen_version, "the notes and the answer are among the first six lines sent "
	      "(room %d, person %d, version %d)", seen_room, seen_quiet, seen_version);
	while (sendq_push(q, "#b", 1, NULL, "story", now) == SENDQ_QUEUED)
		;
	int notes = 2;
	for (int i = 0; i < 2 * SENDQ_NOTES_MAX; i++) {
		char who[16];
		snprintf(who, sizeof who, "n%d", i);
		notes += sendq_push_note(q, who, 0, "note", now) == SENDQ_QUEUED;
	}
	CHECK(notes == SENDQ_NOTES_MAX, "one note each to at most SENDQ_NOTES_MAX a spell: %d", notes);
	for (int i = 0; i < SENDQ_NOTES_MAX; i++) {
		char who[16];
		snprintf(who, sizeof who, "v%d", i);
		ctcp.cause = who;
		sendq_push(q, who, 0, &ctcp, "version", now);
	}
	CHECK(sendq_len(q) == SENDQ_LINES_MAX + SENDQ_NOTES_MAX, "the reserve is bounded: %zu wait", sendq_len(q));
	CHECK(sendq_push_note(q, "#a", 1, "note #a", now) == SENDQ_MERGED, "not told twice while still full");
	while (sendq_len(q) > SENDQ_LINES_MAX / 2)
		next(q, now, buf, sizeof buf);
	CHECK(sendq_push_note(q, "#a", 1, "note #a", now) == SENDQ_QUEUED, "told again in the next spell");
	sendq_free(q);
	sendq_free(NULL);
	return check_report("bot_sendq");
}
