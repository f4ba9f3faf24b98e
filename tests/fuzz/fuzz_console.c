/* fuzz_console.c: the console adapter's input (adapters/console.c), any
 * bytes, through console_feed.
 *
 * The first byte chooses: 'H' the human mode (the rest is what a person
 * types), anything else the JSON mode; its value also sets the size of the
 * pieces the rest is fed in (1 to 64 bytes), so lines arrive split as reads
 * split them. Then the input ends. The host echoes every message it is
 * given back through send_room or send_private with every flag, so the
 * output side (formatting codes out, mentions) sees the same bytes.
 *
 * Checked beyond "no crash, no sanitizer report, no leak once freed":
 * every string handed to the host is NUL-terminated valid UTF-8 within
 * ADAPTER_ID_MAX (ids, names, reasons) or ADAPTER_TEXT_MAX (texts); ids
 * are non-empty with no space or control character, names and reasons
 * hold no control character; in the human mode every message is private,
 * from the person, and holds no control character; the link goes down
 * exactly once, at the end of the input or earlier on "quit".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "fuzz.h"
#include "log.h"
#include "loop.h"
#include "utf8.h"

typedef struct host {
	int human, downs;
	adapter *a;
} host;

static void check_str(const char *s, size_t max, int id, int controls)
{
	FUZZ_ASSERT(s != NULL);
	size_t n = strnlen(s, max);
	FUZZ_ASSERT(n < max);
	FUZZ_ASSERT(utf8_valid(s, n));
	if (id)
		FUZZ_ASSERT(n > 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (id)
			FUZZ_ASSERT(c > 0x20 && c != 0x7f);
		if (!controls)
			FUZZ_ASSERT(c >= 0x20 && c != 0x7f);
	}
}

static void on_message(void *ctx, adapter *a, const char *room, const char *user, const char *name, const char *text,
		       int flags)
{
	host *h = ctx;
	if (room)
		check_str(room, ADAPTER_ID_MAX, 1, 0);
	check_str(user, ADAPTER_ID_MAX, 1, 0);
	check_str(name, ADAPTER_ID_MAX, 0, 0);
	check_str(text, ADAPTER_TEXT_MAX, 0, !h->human);
	if (h->human)
		FUZZ_ASSERT(!room && !strcmp(user, "you") && !flags);
	int echo = ADAPTER_NOTICE | ADAPTER_HIGHLIGHT | ADAPTER_REPLACES | ADAPTER_TIMELY;
	if (room)
		a->ops->send_room(a, room, text, echo);
	else
		a->ops->send_private(a, user, text, echo);
}

static void on_joined(void *ctx, adapter *a, const char *room, const char *user, const char *name)
{
	(void)ctx, (void)a;
	check_str(room, ADAPTER_ID_MAX, 1, 0);
	check_str(user, ADAPTER_ID_MAX, 1, 0);
	check_str(name, ADAPTER_ID_MAX, 0, 0);
}

static void on_left(void *ctx, adapter *a, const char *room, const char *user, const char *why)
{
	(void)ctx, (void)a;
	if (room)
		check_str(room, ADAPTER_ID_MAX, 1, 0);
	check_str(user, ADAPTER_ID_MAX, 1, 0);
	check_str(why, ADAPTER_ID_MAX, 0, 0);
}

static void on_renamed(void *ctx, adapter *a, const char *old_user, const char *new_user, const char *new_name)
{
	(void)ctx, (void)a;
	check_str(old_user, ADAPTER_ID_MAX, 1, 0);
	check_str(new_user, ADAPTER_ID_MAX, 1, 0);
	check_str(new_name, ADAPTER_ID_MAX, 0, 0);
}

static void on_link(void *ctx, adapter *a, int up, const char *why)
{
	(void)a, (void)why;
	host *h = ctx;
	if (!up)
		h->downs++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (!getenv("FUZZ_VERBOSE"))
		log_set_level(LOG_ERROR); /* the malformed lines are meant */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	loop *ev = loop_new();
	FUZZ_ASSERT(ev != NULL);
	host h = { .human = data[0] == 'H' };
	adapter_host ah = { .ctx = &h, .message = on_message, .joined = on_joined, .left = on_left,
			    .renamed = on_renamed, .link = on_link };
	console_settings s;
	console_settings_default(&s);
	int devnull = open("/dev/null", O_RDWR);
	FUZZ_ASSERT(devnull >= 0);
	s.in_fd = s.out_fd = devnull;
	s.human = h.human;
	s.colour = data[0] & 1;
	adapter *a = console_adapter_new(ev, &ah, "fuzz", &s);
	FUZZ_ASSERT(a != NULL);
	h.a = a;
	size_t piece = 1 + data[0] % 64;
	for (size_t at = 1; at < size; at += piece)
		console_feed(a, (const char *)data + at, size - at < piece ? size - at : piece);
	console_feed(a, NULL, 0);
	FUZZ_ASSERT(h.downs == 1);
	console_flush(a, 1000); /* to /dev/null: at once */
	FUZZ_ASSERT(console_finished(a));
	a->ops->free(a);
	loop_free(ev);
	close(devnull);
	return 0;
}
