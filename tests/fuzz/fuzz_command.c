/* fuzz_command.c: the bot's command handling (bot/host/bot.c, bot/table/table.c) over the test network.
 *
 * The input is a script, one event a line. The first byte of a line picks
 * the event and who causes it; the rest is the text:
 *   bits 0-2  the person: alice, bob, carol, dave, boss (an operator by
 *             host mask), eve (nobody), or one of two more names
 *   bits 3-4  0 private message, 1 "#304", 2 "#other", 3 another event
 *   bit 5     sent as a notice (which the bot must ignore)
 *   bits 6-7  for "another event": 0 joined, 1 left the room, 2 quit the
 *             network, 3 renamed to the text, a room ready or lost, the
 *             link going down and up, or a run of the loop's timers
 * After each line the loop runs what is due, so computer players move and
 * deals follow one another with no pauses. A fresh loop and bot each input.
 * An input starting with 'R' keeps the per-user rate limit, and one
 * starting with 'C' keeps caps judging on (both off otherwise, for speed).
 * The network is the console adapter (tests/unit/bot/testnet.h): each event
 * it can carry goes in as its JSON input line and what the bot says comes
 * out of it. Text is of bounded length; bytes are passed as they are: an
 * event the console would refuse (text or names that are not UTF-8, names
 * with spaces or control characters) and those it has no line for (a room
 * ready or lost, the link) go to the host directly, so the bot's own
 * guards are exercised too.
 *
 * Checked: nothing sent holds a line break; and no room line names a card
 * that was hidden from the room before the event and still is after it
 * (the check of tests/unit/bot/bot_table.c, here over any sequence of events).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "g304.h" /* before bot.h: its inline functions name a parameter "seat" */
#include "g304_random.h"
#include "g304_simple.h"
#include "g304_caps_wide.h"
#include "g304_ai_wide.h"
#include "adapter.h"
#include "bot.h"
#include "card.h"
#include "fuzz.h"
#include "loop.h"
#include "render.h"
#include "table.h"
#include "utf8.h"
#include "../unit/bot/testnet.h"

/* Six-player 304's numbers (g304_variants[G304_SIZE_SIX]: 36 cards, six
 * seats, six tricks), as constants for arrays. */
#define SIX_CARDS 36
#define SIX_SEATS 6
#define SIX_TRICKS 6

/* The 304 match of a table (its game state is a g304, or a g304 for six
 * players); other games and a table with no match yet hide nothing this
 * check knows of. */
#define G304(t) ((g304 *)(t)->g->state)
#define G6(t) ((g304 *)(t)->g->state)
static int is304(const table *t) { return t->g && t->gdef == &game_def_304; }
static int is_six(const table *t) { return t->g && t->gdef == &game_def_304six; }
static int deal_of(const table *t) { return is304(t) ? G304(t)->deal_no : is_six(t) ? G6(t)->deal_no : -1; }

#define LINES_MAX 400    /* events in one input: enough for a deal with computer players */

/* The bot deals with getrandom(2); here the same input must give the same
 * deals, or libFuzzer could not minimise nor replay a crash. This
 * definition takes the place of the C library's for the whole program. */
static uint64_t dice;
ssize_t getrandom(void *buf, size_t len, unsigned int flags);
ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	(void)flags;
	unsigned char *p = buf;
	for (size_t i = 0; i < len; i++) {
		uint64_t z = (dice += 0x9e3779b97f4a7c15u);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		p[i] = (unsigned char)(z ^ (z >> 31));
	}
	return (ssize_t)len;
}

static const char *const people[8] = { "alice", "bob", "carol", "dave", "boss", "eve", "Alice", "zed" };
static char renamed[8][ADAPTER_ID_MAX];
static long sent;
static int verbose; /* FUZZ_VERBOSE=1 prints what the bot says, to write seeds */

/* Room lines said during the current event, for the hidden-card check. */
#define STEP_LINES 256
static char step_room[STEP_LINES][ADAPTER_ID_MAX];
static char step_text[STEP_LINES][ADAPTER_TEXT_MAX];
static int nstep;

/* The test network's hook: every line the bot says, as the console
 * carries it (the host's text with every byte it sent). */
static void said(int room, const char *to, const char *text)
{
	FUZZ_ASSERT(to && text);
	/* What goes out never holds a line break. */
	FUZZ_ASSERT(!strchr(text, '\n') && !strchr(text, '\r'));
	sent++;
	if (verbose)
		fprintf(stderr, "-> %s: %s\n", to, text);
	if (room && nstep < STEP_LINES) {
		snprintf(step_room[nstep], sizeof step_room[0], "%s", to);
		snprintf(step_text[nstep], sizeof step_text[0], "%s", text);
		nstep++;
	}
}

/* Every card a line names, as the room sees cards (as tests/unit/bot/bot_table.c). */
static uint64_t cards_in(const table *t, const char *line)
{
	uint64_t found = 0;
	int six = is_six(t);
	for (int c = 0; c < (six ? SIX_CARDS : CARD_COUNT); c++) {
		char buf[32];
		strbuf sb;
		sb_init(&sb, buf, sizeof buf);
		if (six)
			render_card_of(&sb, &game_def_304six, (card)c, RENDER_COLOUR);
		else
			render_card(&sb, (card)c, RENDER_COLOUR);
		if (strstr(line, buf))
			found |= (uint64_t)1 << c;
	}
	return found;
}

/* Cards the room may not know now: in hands, the trump card while face
 * down, unrevealed face-down plays of this deal; less what a caps call
 * showed (as tests/unit/bot/bot_table.c). */
#define HIDDEN_OF(g, nseats, ntricks, h)                                                           \
	do {                                                                                       \
		for (int s_ = 0; s_ < (nseats); s_++)                                              \
			(h) |= (g)->hand[s_];                                                      \
		if ((g)->trump_down)                                                               \
			(h) |= (uint64_t)1 << (g)->trump_card;                                     \
		if ((g)->trump_public)                                                             \
			(h) &= ~((uint64_t)1 << (g)->trump_card);                                  \
		for (int k_ = 0; (g)->caps_seat != G304_NO_SEAT && k_ < (g)->caps_norder; k_++)    \
			(h) &= ~((uint64_t)1 << (g)->caps_order[k_]);                              \
		for (int i_ = 0; i_ <= (g)->trick_no && i_ < (ntricks) && (g)->phase == G304_PHASE_PLAY; i_++) \
			for (int k_ = 0; k_ < (g)->tricks[i_].n; k_++)                             \
				if (((g)->tricks[i_].down >> k_ & 1) && !((g)->tricks[i_].shown >> k_ & 1)) \
					(h) |= (uint64_t)1 << (g)->tricks[i_].card[k_];            \
	} while (0)

static uint64_t hidden_now(const table *t)
{
	uint64_t h = 0;
	if (is_six(t))
		HIDDEN_OF(G6(t), SIX_SEATS, SIX_TRICKS, h);
	else if (is304(t))
		HIDDEN_OF(G304(t), G304_SEATS, G304_TRICKS, h);
	return h;
}

/* What each table hid before an event. */
static struct before {
	const table *t;
	int deal_no;
	uint64_t hidden;
} before[8];
static int nbefore;

static void note_before(const bot *b)
{
	nbefore = 0;
	nstep = 0;
	for (int i = 0; i < b->ntables && nbefore < 8; i++) {
		const table *t = b->tables[i];
		before[nbefore++] = (struct before){ t, deal_of(t), hidden_now(t) };
	}
}

/* Nothing said in a room names a card hidden there both before and after
 * the event (a card played face up leaves the hidden set as it is named). */
static void check_after(const bot *b)
{
	for (int k = 0; k < nbefore; k++) {
		const table *t = NULL;
		for (int i = 0; i < b->ntables; i++)
			if (b->tables[i] == before[k].t)
				t = b->tables[i];
		if (!t || deal_of(t) != before[k].deal_no)
			continue; /* closed, or a new deal: its cards are new */
		uint64_t hidden = before[k].hidden & hidden_now(t);
		for (int i = 0; i < nstep; i++)
			if (!strcasecmp(step_room[i], t->room) && (cards_in(t, step_text[i]) & hidden)) {
				fprintf(stderr, "room %s was told a hidden card: %s\n", t->room, step_text[i]);
				FUZZ_ASSERT(!(cards_in(t, step_text[i]) & hidden));
			}
	}
}
/* Would the console take s as a user or room id (console.h)? */
static int id_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n >= ADAPTER_ID_MAX || !utf8_valid(s, n))
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* As a part's "why" (a display text: no control characters)? */
static int why_ok(const char *s)
{
	size_t n = strlen(s);
	if (n >= ADAPTER_ID_MAX || !utf8_valid(s, n))
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static void event(bot *b, adapter *a, loop *ev, unsigned sel, const char *text)
{
	adapter_host h = bot_host(b);
	const char *user = renamed[sel & 7][0] ? renamed[sel & 7] : people[sel & 7];
	unsigned where = sel >> 3 & 3;
	static const char *const rooms[3] = { NULL, "#304", "#other" };
	if (where < 3) {
		if (id_ok(user) && utf8_valid(text, strlen(text)))
			testnet_message(a, rooms[where], user, NULL, text, !!(sel & 0x20));
		else
			h.message(h.ctx, a, rooms[where], user, user, text, sel & 0x20 ? ADAPTER_NOTICE : 0);
		return;
	}
	const char *room = sel & 0x20 ? "#other" : "#304";
	switch (sel >> 6) {
	case 0:
		if (id_ok(user))
			testnet_join(a, room, user);
		else
			h.joined(h.ctx, a, room, user, user);
		break;
	case 1:
	case 2:
		if (id_ok(user) && why_ok(text))
			testnet_part(a, sel >> 6 == 1 ? room : NULL, user, text);
		else
			h.left(h.ctx, a, sel >> 6 == 1 ? room : NULL, user, text);
		break;
	default:
		if (text[0] == '\0') {
			for (int i = 0; i < 50; i++)
				loop_once(ev, 0);
		} else if (text[0] == '+') {
			h.room_ready(h.ctx, a, room);
		} else if (text[0] == '-') {
			h.room_lost(h.ctx, a, room, text + 1);
		} else if (text[0] == '~') {
			h.link(h.ctx, a, 0, "ping timeout"); /* logged: keep the fuzzer's output short */
			h.link(h.ctx, a, 1, "");
		} else {
			char old[ADAPTER_ID_MAX];
			snprintf(old, sizeof old, "%s", user);
			/* Bytes as they come (the bot must clean display names), but
			 * no card glyphs: a name spelling "J♠" would look like a
			 * leak to the hidden-card check. */
			size_t l = 0;
			for (const char *c = text; *c && l < sizeof renamed[0] - 1; c++)
				if ((unsigned char)*c != 0xe2) /* the lead byte of every suit symbol */
					renamed[sel & 7][l++] = *c;
			renamed[sel & 7][l] = '\0';
			if (id_ok(old) && id_ok(renamed[sel & 7]))
				testnet_rename(a, old, renamed[sel & 7]);
			else
				h.renamed(h.ctx, a, old, renamed[sel & 7], renamed[sel & 7]);
		}
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0;
	dice = 304;
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	loop *ev = loop_new();
	if (!ev)
		abort();
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 0;
	set.computer_delay_ms = 0;
	/* Judging caps (engine/g304/g304_caps.c, tested on its own) costs most of
	 * the time of a deal: it is off unless the input starts with 'C' or a
	 * script turns it on with !set caps. */
	if (size == 0 || data[0] != 'C')
		game_choices_set(&set.options, "caps", G304_CAPS_OFF);
	bot *b = bot_new(ev, &set, "!");
	if (!b)
		abort();
	/* The rate limit is tested on its own (tests/ops/ops_security.py); here it
	 * would stop every script after five lines. Some inputs keep it. */
	if (size == 0 || data[0] != 'R') {
		b->cmd_burst = 1e9;
		b->cmd_per_second = 1e9;
	}
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "%s", "boss!*@home.example.org");
	snprintf(b->operators[b->noperators++], sizeof b->operators[0], "%s", "account:alice");
	net.hook = said;
	testnet_open(ev, b, "fake");
	/* Origins as a server reports them: boss alone comes from home.example.org. */
	testnet_host(net.a, "boss", "home.example.org");
	memset(renamed, 0, sizeof renamed);

	char text[ADAPTER_TEXT_MAX];
	size_t i = 0;
	int lines = 0;
	while (i < size && lines++ < LINES_MAX) {
		unsigned sel = data[i++];
		size_t n = 0;
		while (i < size && data[i] != '\n') {
			if (n < sizeof text - 1)
				text[n++] = (char)data[i];
			i++;
		}
		i++; /* the newline */
		text[n] = '\0';
		note_before(b);
		event(b, net.a, ev, sel, text);
		loop_once(ev, 0);
		check_after(b);
	}
	bot_free(b);
	testnet_free();
	loop_free(ev);
	return 0;
}
