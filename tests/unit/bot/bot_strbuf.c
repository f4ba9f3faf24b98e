/* bot_strbuf.c: lib/strbuf.h, the one text buffer: fixed over caller memory
 * (cut, never overflowing) and growable up to a bound. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "strbuf.h"

int main(void)
{
	char mem[8];
	strbuf b;
	sb_init(&b, mem, sizeof mem);
	CHECK(sb_add(&b, "abc") == 0 && !b.cut && !strcmp(mem, "abc"), "fixed: an append that fits goes in whole");
	CHECK(sb_add(&b, "defghij") == -1 && b.cut && !strcmp(mem, "abcdefg") && b.len == 7,
	      "fixed: an append past the end is cut to what fits, and said so");
	sb_init(&b, mem, sizeof mem);
	sb_printf(&b, "%d-%s", 12345, "xyz");
	CHECK(!strcmp(mem, "12345-x") && b.cut, "fixed: sb_printf cuts too (%s)", mem);
	sb_init(&b, mem, 0);
	CHECK(sb_add(&b, "a") == -1 && b.cut, "fixed with no room: nothing goes in");

	strbuf g;
	sb_init_grow(&g, 1 << 20);
	for (int i = 0; i < 1000; i++)
		sb_printf(&g, "%04d,", i);
	CHECK(!g.cut && g.len == 5000 && !strncmp(g.s, "0000,0001,", 10) && !strcmp(g.s + 4995, "0999,"),
	      "growable: grows as text comes (%zu bytes)", g.len);
	sb_drop(&g, 4995);
	CHECK(g.len == 5 && !strcmp(g.s, "0999,"), "sb_drop removes the first bytes");
	sb_drop(&g, 100);
	CHECK(g.len == 0 && !strcmp(g.s, ""), "sb_drop past the end empties it");
	char *t = sb_take(&g);
	CHECK(t && !strcmp(t, "") && !g.s && !g.len, "sb_take gives the text away and leaves the buffer empty");
	free(t);
	t = sb_take(&g);
	CHECK(t && !strcmp(t, ""), "sb_take of a buffer never written is \"\"");
	free(t);

	sb_init_grow(&g, 8); /* seven bytes and the NUL */
	CHECK(sb_add(&g, "1234567") == 0 && sb_add(&g, "8") == -1 && g.cut && !strcmp(g.s, "1234567"),
	      "growable: an append past max adds nothing and is said");
	CHECK(sb_take(&g) == NULL && !g.s, "sb_take after a cut append gives NULL");
	sb_init_grow(&g, 8);
	sb_printf(&g, "%s", "123456789");
	CHECK(g.cut && g.len == 0, "growable: sb_printf past max adds nothing");
	sb_release(&g);
	CHECK(!g.s && !g.len && g.max == 8 && sb_add(&g, "ok") == 0, "sb_release leaves an empty buffer ready again");
	sb_release(&g);
	return check_report("bot_strbuf");
}
