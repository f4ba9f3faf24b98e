/* table_say.c: what a table says, and to whom: announcements gathered for
 * the room and sent in as few lines as fit, private lines, seat names, and
 * what saving the table's state tells its people.
 *
 * What is private stays private: hands, the trump choice, face-down plays
 * and the trumper's inspection go only to the seat entitled to them, and
 * every refusal goes privately too (a refusal can say something about the
 * refused card, such as that it is a trump).
 *
 * In which language: a line for the room in the room's (table_lang); a
 * private line in the language its reader chose with !lang, else the
 * room's (table_lang_of). Pieces composed before they are said (a status
 * line, a hand, a seat's name) are written in the language of the reader
 * being written for (table_reader): the room's from the moment an event
 * reaches the table (table_enter), a person's around their private lines.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "log.h"
#include "loop.h"
#include "table_int.h"
#include "table_store.h"

const text_lang *table_reader(table *t, const text_lang *lang)
{
	const text_lang *was = t->reader;
	t->reader = lang;
	return was;
}

const text_lang *table_reader_now(const table *t)
{
	return t->reader ? t->reader : table_lang(t);
}

const text_lang *table_lang(const table *t)
{
	const text_lang *l = text_lang_find(t->set.lang);
	return l ? l : &text_lang_en;
}

const text_lang *table_lang_of(const table *t, const char *user)
{
	const text_lang *l = user && *user ? t->host->lang_of(t->host->ctx, t->net, user) : NULL;
	return l ? l : table_lang(t);
}

void table_enter(table *t)
{
	table_reader(t, table_lang(t));
}

const char *table_seat_name(const table *t, int s)
{
	/* Per language, written once: the words never change. */
	static char nobody[TEXT_LANGS][64], empty[TEXT_LANGS][64];
	int k = 0;
	while (k < TEXT_LANGS - 1 && text_langs[k] != table_reader_now(t))
		k++;
	if (!nobody[k][0]) {
		table_txt(t, nobody[k], sizeof nobody[k], T_NOBODY, NULL, NULL, NULL);
		table_txt(t, empty[k], sizeof empty[k], T_EMPTY_SEAT, NULL, NULL, NULL);
	}
	if (s < 0 || s >= TABLE_SEATS)
		return nobody[k];
	return t->seats[s].user[0] ? t->seats[s].name : empty[k];
}

/* The table's room as its people know it, for what the bot tells them: a
 * Matrix room's alias rather than its id. The result lives until the next
 * call (one table is rendered at a time). */
const char *table_room_shown(const table *t)
{
	static char label[ADAPTER_ID_MAX];
	if (t->net && t->net->ops->room_label && t->net->ops->room_label(t->net, t->room, label, sizeof label)
	    && label[0])
		return label;
	return t->room;
}

/* Appends one announcement; they are sent together, as one message of
 * parts, when the table flushes. */
static void announce(table *t, const char *text)
{
	size_t n = strlen(text);
	if (n >= sizeof t->out)
		n = sizeof t->out - 1;
	/* Full (a long run of computer moves): what was gathered goes now. */
	if (t->outlen + n + 1 > sizeof t->out || t->nout >= TABLE_PARTS_MAX)
		table_send_out(t, ADAPTER_NOTICE);
	memcpy(t->out + t->outlen, text, n);
	t->out[t->outlen + n] = '\0';
	t->outlen += n + 1;
	t->nout++;
}

void table_say(table *t, int id, const char *a1, const char *a2, const char *a3)
{
	char buf[TABLE_LINE];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt_in(table_lang(t), buf, sizeof buf, id, 3, args);
	announce(t, buf);
}

void table_say_to(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3)
{
	if (user && !t->out_mention[0])
		snprintf(t->out_mention, sizeof t->out_mention, "%s", user);
	table_say(t, id, a1, a2, a3);
}

const char *table_txt(const table *t, char *buf, size_t len, int id, const char *a1, const char *a2, const char *a3)
{
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt_in(table_reader_now(t), buf, len, id, 3, args);
	return buf;
}

void table_sb_txt(const table *t, strbuf *b, int id, const char *a1, const char *a2, const char *a3)
{
	char buf[TABLE_LINE];
	sb_add(b, table_txt(t, buf, sizeof buf, id, a1, a2, a3));
}

void table_persist(table *t)
{
	store *db = table_db(t);
	if (!db || t->closing)
		return;
	static char meta[TSTORE_META_MAX];
	if (tstore_meta(t, meta, sizeof meta) < 0) {
		log_msg(LOG_ERROR, NULL, "table %s: its state does not fit in %d bytes and is not saved", t->room,
			TSTORE_META_MAX);
		return;
	}
	unsigned long h = 5381;
	for (const unsigned char *p = (const unsigned char *)meta; *p; p++)
		h = h * 33 + *p;
	h ^= (unsigned long)t->match_id * 0x9e3779b9ul;
	if (h == t->meta_hash)
		return;
	if (store_table_save(db, t->net->name, t->room, meta, t->match_id) < 0) {
		log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(db));
		return;
	}
	if (t->match_id && t->state == TABLE_PLAYING) {
		/* Who plays each seat now (a newcomer, a computer standing in). */
		store_seat ss[TABLE_SEATS];
		memset(ss, 0, sizeof ss); /* seats past the table's count stay unnamed (not stored) */
		for (int s = 0; s < t->nseats; s++)
			ss[s] = (store_seat){ t->seats[s].computer ? "" : t->seats[s].user, t->seats[s].name,
					      t->seats[s].computer };
		if (store_match_seats(db, t->match_id, ss) < 0)
			log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(db));
	}
	t->meta_hash = h;
}

/* A write to the database failed: the table says so (once until a write
 * works again), and the log has the reason. */
void table_save_failed(table *t, const char *user)
{
	log_msg(LOG_ERROR, NULL, "table %s: %s", t->room, store_error(table_db(t)));
	if (user)
		table_tell(t, user, T_SAVE_FAILED, table_room_shown(t), NULL, NULL);
	if (!t->save_failed) {
		t->save_failed = 1;
		table_say(t, T_SAVE_FAILED_ROOM, NULL, NULL, NULL);
	}
}

/* A write to the database worked: if the last one had failed, the table
 * hears that the game goes on. */
void table_save_works(table *t)
{
	if (t->save_failed) {
		t->save_failed = 0;
		table_say(t, T_SAVE_WORKS, NULL, NULL, NULL);
	}
}

void table_send_out(table *t, int flags)
{
	const char *parts[TABLE_PARTS_MAX];
	int n = 0;
	for (size_t off = 0; off < t->outlen && n < t->nout; off += strlen(t->out + off) + 1)
		parts[n++] = t->out + off;
	if (n)
		t->host->send(t->host->ctx, t->net, t->room, NULL, NULL, parts, n, t->out_mention[0] ? t->out_mention : NULL, flags);
	table_out_clear(t);
}

void table_out_clear(table *t)
{
	t->outlen = 0;
	t->nout = 0;
	t->out[0] = '\0';
	t->out_mention[0] = '\0';
}

/* Sends what was announced: one message of parts, which the network packs
 * into lines of its own size. */
void table_flush(table *t)
{
	table_persist(t);
	table_send_out(t, ADAPTER_NOTICE);
}

void table_tell(table *t, const char *user, int id, const char *a1, const char *a2, const char *a3)
{
	if (!user || !*user)
		return; /* nobody to tell (settings recalled from the database) */
	char buf[TABLE_LINE];
	const char *args[3] = { a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "" };
	text_fmt_in(table_lang_of(t, user), buf, sizeof buf, id, 3, args);
	table_say_private(t, user, buf, ADAPTER_NOTICE);
}

const char *table_phase_word(const table *t, const char *name)
{
	static const struct { const char *name; int id; } words[] = {
		{ "deal", T_PHASE_DEAL },
		{ "bid4", T_PHASE_BID4 },
		{ "trump4", T_PHASE_TRUMP4 },
		{ "bid8", T_PHASE_BID8 },
		{ "trump8", T_PHASE_TRUMP8 },
		{ "bid6", T_PHASE_BID6 },
		{ "trump6", T_PHASE_TRUMP6 },
		{ "play", T_PHASE_PLAY },
		{ "over", T_PHASE_OVER },
		{ "bid", T_PHASE_BID },
		{ "trump", T_PHASE_TRUMP },
		{ "exchange", T_PHASE_EXCHANGE },
		{ "discard", T_PHASE_DISCARD },
	};
	for (size_t i = 0; name && i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(name, words[i].name))
			return text_line(table_reader_now(t), words[i].id);
	return name ? name : "";
}

void table_sb_hand(const table *t, strbuf *b, cardset hand, int style, int numbered)
{
	if (hand)
		render_hand(b, hand, style, numbered);
	else
		table_sb_txt(t, b, T_NONE, NULL, NULL, NULL);
}

void table_tell_txt(table *t, const char *user, int id, int inner)
{
	char in[TABLE_LINE];
	const char *args[1] = { "" };
	text_fmt_in(table_lang_of(t, user), in, sizeof in, inner, 1, args);
	table_tell(t, user, id, in, NULL, NULL);
}

const char *table_game_shown(const text_lang *l, char *buf, size_t len, const char *gname)
{
	const game_def *def = game_find(gname);
	const present *pr = def ? present_find(def) : NULL;
	if (pr && pr->t_name)
		text_fmt_in(l, buf, len, pr->t_name, 0, NULL);
	else
		snprintf(buf, len, "%s", gname);
	return buf;
}

void table_bad_card(table *t, const char *user, const char *word, int id)
{
	size_t digits = strspn(word, "0123456789");
	table_tell(t, user, digits && !word[digits] ? T_NO_POSITION : id, word, NULL, NULL);
}

void table_answer(table *t, const char *user, int in_room, const char *line)
{
	/* The room hears the computers' moves gathered for one line before
	 * a status line that shows them (irc_six saw `!table` name two cards
	 * of a trick whose line came after it). */
	if (in_room) {
		table_flush(t);
		t->host->say_room(t->host->ctx, t->net, t->room, line, ADAPTER_NOTICE);
	} else {
		table_say_private(t, user, line, ADAPTER_NOTICE);
	}
}

int table_style_of(const table *t, int s)
{
	return (s >= 0 && s < TABLE_SEATS && t->seats[s].ascii) ? RENDER_ASCII : RENDER_COLOUR;
}

/* Who bid for seat s in this deal: the name it had then (a computer's seat
 * may have been taken since), else its name now. */
const char *table_bid_name(const table *t, int s)
{
	if (s >= 0 && s < TABLE_SEATS && t->bid_by[s][0])
		return t->bid_by[s];
	return table_seat_name(t, s);
}

/* May seat s be told its private cards? A person, and one the bot has
 * not lost sight of since they sat (see `claim`). */
int table_private_ok(const table *t, int s)
{
	return s >= 0 && s < TABLE_SEATS && t->seats[s].user[0] && !t->seats[s].computer && !t->seats[s].unconfirmed;
}

/* A move typed in the room that goes no further is marked there too (the
 * reason goes privately, as it may say something of a hidden card), so
 * nobody takes it for a move. Brief rooms, where a typed move is not told
 * again, hear of every one; elsewhere (each accepted move is told) at most
 * one a seat in TABLE_REFUSED_MARK_MS. */
void table_refused_in_room(table *t, const char *user, int in_room)
{
	int s = table_seat_of(t, user);
	if (!in_room || s < 0)
		return;
	if (!t->set.brief) {
		int64_t now = loop_now();
		if (t->refused_mark_at[s] && now - t->refused_mark_at[s] < TABLE_REFUSED_MARK_MS)
			return;
		t->refused_mark_at[s] = now ? now : 1;
	}
	table_say_to(t, user, T_REFUSED_ROOM, table_seat_name(t, s), NULL, NULL);
	table_flush(t);
}

int table_same_user(const table *t, const char *x, const char *y)
{
	return adapter_same_user(t->net, x, y);
}

void table_result_seat(const table *t, int s, store_result *r)
{
	r->user = t->seats[s].computer ? "" : t->seats[s].user;
	r->name = t->seats[s].name;
	r->computer = t->seats[s].computer;
	r->seat = s;
}

/* A side's players: a team with four seats, else one seat. */
void table_side_names(const table *t, int side, char *buf, size_t len)
{
	if (t->nseats == 4)
		snprintf(buf, len, "%s & %s", table_seat_name(t, side), table_seat_name(t, side + 2));
	else
		snprintf(buf, len, "%s", table_seat_name(t, side));
}
