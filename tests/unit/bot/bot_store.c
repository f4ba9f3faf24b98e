/* bot_store.c: the bot core with a real SQLite file over the test network
 * (testnet.h): a whole match by one person and three computer players is
 * stored move by move; a second bot opened on the same file mid-match
 * rebuilds the table exactly; then !stats, !top, !history and !record
 * answer from the database, and the record's commitments check out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* (304's header before the host's: its parameters named seat come
 * before the table's seat type) */
#include "g304_simple.h"
#include "bot.h"
#include "check.h"
#include "fair.h"
#include "loop.h"
#include "record.h"
#include "present.h"
#include "store.h"
#include "table.h"
#include "testnet.h"

/* The 304 match of a table (its game state is a g304). */
#define G304(t) ((g304 *)(t)->g->state)

/* ann's move, typed as a person would. */
static void ann_moves(bot *b, table *t)
{
	g304_view v;
	g304_legal l;
	g304_action a;
	char cmd[64], code[3];
	g304_view_of(G304(t), 0, &v);
	g304_legal_of(G304(t), 0, &l);
	g304_simple_action(&v, &l, &a);
	const char *in = "#304";
	switch (a.type) {
	case G304_ACT_BID:
		if (a.value >= G304_BID_PCC)
			snprintf(cmd, sizeof cmd, "!bid pcc");
		else
			snprintf(cmd, sizeof cmd, "!bid %d", a.value);
		break;
	case G304_ACT_PASS: snprintf(cmd, sizeof cmd, "!pass"); break;
	case G304_ACT_REDEAL: snprintf(cmd, sizeof cmd, "!redeal"); break;
	case G304_ACT_PARTNER: snprintf(cmd, sizeof cmd, "!partner"); break;
	case G304_ACT_OPEN: snprintf(cmd, sizeof cmd, "!open"); break;
	case G304_ACT_SPOILT: snprintf(cmd, sizeof cmd, "!spoilt"); break;
	case G304_ACT_TRUMP:
		card_code(a.card, code);
		snprintf(cmd, sizeof cmd, "trump %s", code);
		in = NULL;
		break;
	case G304_ACT_PLAY:
		card_code(a.card, code);
		snprintf(cmd, sizeof cmd, "play %s", a.card == G304(t)->trump_card && G304(t)->trump_down ? "trump" : code);
		in = NULL;
		break;
	case G304_ACT_CAPS: {
		size_t n = (size_t)snprintf(cmd, sizeof cmd, "!caps");
		for (int i = 0; i < a.norder && n < sizeof cmd; i++) {
			card_code(a.order[i], code);
			n += (size_t)snprintf(cmd + n, sizeof cmd - n, " %s", code);
		}
		break;
	}
	default:
		snprintf(cmd, sizeof cmd, "!pass");
		break;
	}
	say(b, in, "ann", cmd);
}

static bot *new_bot(loop *ev, store *db)
{
	table_settings set;
	table_settings_default(&set);
	set.deal_pause_ms = 0;
	set.computer_delay_ms = 0;
	bot *b = bot_new(ev, &set, "!");
	b->cmd_burst = 1e9;
	b->cmd_per_second = 1e9;
	b->db = db;
	return b;
}

static const char *last_room_with(const char *needle)
{
	for (int i = net.nroom - 1; i >= 0; i--)
		if (strstr(net.room_lines[i], needle))
			return net.room_lines[i];
	return NULL;
}

/* A network whose private lines carry 64 bytes of record (adapter_ops.line_max). */
static size_t paced_line_max(const adapter *a, const char *user)
{
	(void)a, (void)user;
	return 64;
}

int main(void)
{
	char dir[] = "/tmp/cardbot-store-XXXXXX", path[256], err[STORE_ERR_MAX];
	store *db = testnet_db(dir, path, sizeof path, err, sizeof err);
	CHECK(db != NULL, "a new database opens: %s", db ? "" : err);
	if (!db)
		return 1;

	loop *ev = loop_new();
	bot *b = new_bot(ev, db);
	testnet_open(ev, b, "fake");
	say(b, "#304", "ann", "!304");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!bot");
	say(b, "#304", "ann", "!set think 77");
	say(b, "#304", "ann", "!start");
	table *t = b->tables[0];
	CHECK(t->state == TABLE_PLAYING && t->match_id == 1, "the match starts as match 1 in the database");
	CHECK(last_room_with("deck commitment ") != NULL, "the deal's commitment is told before play");

	/* Play some deals, then open a second bot on the same file: it must
	 * rebuild the same game. */
	int steps = 0;
	while (t->state == TABLE_PLAYING && G304(t)->deal_no < 4 && steps++ < 20000) {
		if (G304(t)->turn == 0)
			ann_moves(b, t);
		else
			loop_once(ev, 1);
	}
	/* somewhere in the middle of a deal */
	while (G304(t)->phase != G304_PHASE_PLAY && steps++ < 40000) {
		if (G304(t)->turn == 0)
			ann_moves(b, t);
		else
			loop_once(ev, 1);
	}
	loop_once(ev, 1);
	{
		bot *b2 = new_bot(ev, db);
		bot_add_network(b2, net.a);
		testnet_use(b2);
		int n = bot_restore(b2);
		CHECK(n == 1, "the second bot restores one table (%d)", n);
		table *t2 = b2->ntables ? b2->tables[0] : NULL;
		int same = t2 && t2->state == TABLE_PLAYING && G304(t2)->phase == G304(t)->phase && G304(t2)->turn == G304(t)->turn
			   && G304(t2)->deal_no == G304(t)->deal_no && t2->match_id == t->match_id && t2->seq == t->seq
			   && t2->deal_idx == t->deal_idx && !strcmp(t2->commitment, t->commitment)
			   && G304(t2)->tokens[0] == G304(t)->tokens[0] && G304(t2)->tokens[1] == G304(t)->tokens[1]
			   && t2->set.computer_think_ms == 77;
		for (int s = 0; same && s < G304_SEATS; s++) {
			g304_view v1, v2;
			g304_view_of(G304(t), s, &v1);
			g304_view_of(G304(t2), s, &v2);
			same = !memcmp(&v1, &v2, sizeof v1) && !strcmp(t->seats[s].name, t2->seats[s].name)
			       && t->seats[s].computer == t2->seats[s].computer;
		}
		CHECK(same, "the restored table is the same game, seats and deal (phase %d/%d, deal %d/%d)",
		      t2 ? G304(t2)->phase : -1, G304(t)->phase, t2 ? G304(t2)->deal_no : -1, G304(t)->deal_no);
		if (t2) {
			int before = net.npriv;
			table_resumed(t2);
			int hand = 0;
			for (int i = before; i < net.npriv; i++)
				hand |= strstr(net.priv_lines[i], "hand:") != NULL;
			CHECK(hand, "on resuming, the person gets their hand privately");
			CHECK(last_room_with("I am back") != NULL, "the table says it is back");
		}
		/* the second bot goes away without touching the first */
		for (int i = 0; i < b2->ntables; i++)
			b2->tables[i]->closing = 1;
		b2->db = NULL;
		b2->nnets = 0;
		bot_free(b2);
		testnet_use(b);
	}

	/* The rest of the match on the first bot. */
	while (t->state == TABLE_PLAYING && steps++ < 200000) {
		if (G304(t)->turn == 0)
			ann_moves(b, t);
		else
			loop_once(ev, 1);
	}
	CHECK(G304(t)->phase == G304_PHASE_OVER, "the match ended (%d steps)", steps);
	int winner = G304(t)->winner;

	/* The statistics from the database. */
	store_stats st;
	CHECK(store_stats_get(db, "fake", "304", present_304.bands->from, "ann", &st) == 1, "ann has statistics");
	CHECK(st.matches == 1 && st.matches_won == (winner == 0), "ann: 1 match, won %d (winner team %d)", st.matches_won,
	      winner);
	CHECK(st.deals > 0 && st.deals_won <= st.deals, "ann: %d deals, %d won", st.deals, st.deals_won);
	say(b, "#304", "ann", "!stats");
	const char *line = last_room_with("ann: matches 1");
	CHECK(line != NULL, "!stats answers in the room");
	char want[64];
	snprintf(want, sizeof want, "matches 1 (won %d), deals %d (won %d)", winner == 0, st.deals, st.deals_won);
	CHECK(line && strstr(line, want), "!stats says %s: %s", want, line ? line : "");
	say(b, "#304", "ann", "!stats nobody");
	CHECK(net.npriv > 0 && strstr(net.priv_lines[net.npriv - 1], "No finished deals for nobody"),
	      "!stats for a stranger says there is nothing");
	say(b, "#304", "ann", "!top");
	snprintf(want, sizeof want, "1. ann %d/1 matches", winner == 0);
	CHECK(last_room_with(want) != NULL, "!top lists ann: %s", want);
	say(b, "#304", "ann", "!history");
	CHECK(strstr(net.priv_lines[net.npriv - 1], "#1 ") != NULL, "!history lists match 1: %s",
	      net.priv_lines[net.npriv - 1]);

	/* !record: the pieces joined make the record; its commitments check. */
	int from = net.npriv;
	say(b, "#304", "ann", "!record");
	CHECK(net.npriv > from + 1 && strstr(net.priv_lines[from], "The record of match 1"), "!record sends the record: %s",
	      net.npriv > from ? net.priv_lines[from] : "(nothing)");
	size_t cap = 1 << 22, len = 0;
	char *text = malloc(cap);
	for (int i = from + 1; i < net.npriv; i++) {
		size_t k = strlen(net.priv_lines[i]);
		if (len + k < cap) {
			memcpy(text + len, net.priv_lines[i], k);
			len += k;
		}
	}
	text[len] = 0;
	char rerr[RECORD_ERR_MAX];
	record *r = record_parse(text, len, rerr);
	CHECK(r != NULL, "the record parses: %s", r ? "" : rerr);
	if (r) {
		int ok = 1;
		/* each deal's salt and commitment: find them in the text in order */
		const char *p = text;
		for (size_t d = 0; d < r->ndeals && ok; d++) {
			const char *c = strstr(p, "\"salt\": \"");
			const char *m = c ? strstr(c, "\"commitment\": \"") : NULL;
			if (!c || !m) {
				ok = 0;
				break;
			}
			char salt[FAIR_SALT_HEX], commit[FAIR_COMMIT_HEX], got[FAIR_COMMIT_HEX];
			snprintf(salt, sizeof salt, "%.32s", c + 9);
			snprintf(commit, sizeof commit, "%.64s", m + 15);
			ok = fair_commit(r->deals[d].gdeck, salt, got) == 0 && !strcmp(got, commit);
			p = m + 15;
		}
		CHECK(ok && r->ndeals > 0, "every deal's deck and salt give its commitment (%zu deals)", r->ndeals);
		/* The record's generic actions, through engine/game.h. */
		int gerr = 0, refused = 0;
		game *gm = record_game_new(r, &gerr);
		for (size_t d = 0; gm && d < r->ndeals; d++) {
			refused += game_deal(gm, r->deals[d].gdeck) != 0;
			for (size_t i = 0; i < r->deals[d].nactions; i++) {
				game_result res;
				refused += game_apply(gm, &r->deals[d].gactions[i], &res) != 0;
			}
		}
		const g304 *g = gm ? gm->state : NULL;
		CHECK(g && !refused && g->phase == G304_PHASE_OVER && g->winner == winner
		      && g->tokens[0] == G304(t)->tokens[0] && g->tokens[1] == G304(t)->tokens[1],
		      "the record replays to the same result (%d refused)", refused);
		game_free(gm);
		record_free(r);
	}
	free(text);

	/* On a network that paces its lines (IRC), a record of more than
	 * RECORD_LINES_MAX (300) lines is refused, saying how to get it: from
	 * whoever runs the bot, or as a link once public_dir is set. Lines of
	 * 64 bytes: most matches take more than 300; a short one (a few deals
	 * with big swings: 253 lines once) comes whole, in as many lines as
	 * its record needs. */
	size_t paced_lines = (len + 63) / 64;
	adapter_ops paced = *net.a->ops;
	const adapter_ops *was = net.a->ops;
	paced.line_max = paced_line_max;
	net.a->ops = &paced;
	from = net.npriv;
	say(b, "#304", "ann", "!record");
	net.a->ops = was;
	if (paced_lines > 300) {
		const char *refusal = net.npriv == from + 1 ? net.priv_lines[from] : "";
		CHECK(strstr(refusal, "[#304] the record of match 1 would take ") && strstr(refusal, "too many to send here")
		      && strstr(refusal, "cardbot export DB 1") && strstr(refusal, "public_dir") && strstr(refusal, "a link"),
		      "a record too long for the network (%zu lines) is refused in one line that says how to get it: %s "
		      "(%d lines)", paced_lines, refusal, net.npriv - from);
	} else {
		CHECK(net.npriv == from + 1 + (int)paced_lines && strstr(net.priv_lines[from], "The record of match 1"),
		      "a record that fits (%zu lines of 64 bytes) comes whole: %d lines", paced_lines, net.npriv - from);
	}

	/* Nothing but finished matches: a record number of a match not over
	 * (or of another room) is refused. */
	say(b, "#304", "ann", "!set caps lenient");
	say(b, "#304", "ann", "!start");
	say(b, "#304", "ann", "!record 2");
	CHECK(strstr(net.priv_lines[net.npriv - 1], "no finished match 2"), "!record of a match in play is refused: %s",
	      net.priv_lines[net.npriv - 1]);

	/* The channel remembers its !set choices for its next table. */
	say(b, "#304", "ann", "!stop");
	for (int i = 0; i < 5; i++)
		loop_once(ev, 1);
	CHECK(b->ntables == 0, "!stop closed the table");
	say(b, "#304", "ann", "!304");
	CHECK(b->ntables == 1 && game_choices_get(&b->tables[0]->set.options, "caps") == G304_CAPS_LENIENT,
	      "a new table in the channel starts with its earlier choice (caps lenient)");
	CHECK(last_room_with("choices from earlier tables: caps lenient") != NULL, "and says so");

	bot_free(b);
	loop_free(ev);
	store_close(db);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	testnet_free();
	return check_report("bot_store");
}
