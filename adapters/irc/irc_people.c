/* irc_people.c: the people in the bot's IRC channels, their services accounts, and the identity the host sees. */
#include <stdio.h>
#include <string.h>

#include "irc_internal.h"
#include "utf8.h"

/* ---- accounts and identity ---- */

/* A nick the host may see as an identity: none contains ':', so none can
 * pass for "account:NAME" (a server that sends one is not believed). */
int irc_nick_ok(const char *nick)
{
	return nick[0] && !strchr(nick, ':');
}

/* Reads an account name as the server gave it: 1 and the name in out
 * (IRC_ACCOUNT_MAX bytes), or 0 for none ("*", "", or `none` such as
 * WHOX's "0"); a name that is too long, not one word or not UTF-8 is
 * logged and taken as none. */
int irc_account_arg(irc *c, const char *s, const char *none, char *out)
{
	out[0] = '\0';
	if (!s || !s[0] || !strcmp(s, "*") || (none && !strcmp(s, none)))
		return 0;
	size_t n = strlen(s);
	int ok = n < IRC_ACCOUNT_MAX && ircline_is_word(s) && utf8_valid(s, n);
	for (size_t i = 0; ok && i < n; i++)
		ok = (unsigned char)s[i] >= 0x20 && s[i] != 0x7f;
	if (!ok) {
		LOG(c, "warn", "an account name from the server is unusable (%zu bytes); taken as none", n);
		return 0;
	}
	memcpy(out, s, n + 1);
	return 1;
}

/* The identity for a nick with account `account` ("" = none). */
void irc_identity(const char *account, const char *nick, char *out, size_t cap)
{
	if (account && account[0])
		snprintf(out, cap, IRC_ACCOUNT_PREFIX "%s", account);
	else
		irc_clean(nick, out, cap);
}

irc_person *irc_person_find(irc *c, const char *nick)
{
	if (!c->people)
		return NULL;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++)
		if (c->people[i].nick[0] && !irc_cmp(c, c->people[i].nick, nick))
			return &c->people[i];
	return NULL;
}

static irc_person *person_add(irc *c, const char *nick)
{
	irc_person *p = irc_person_find(c, nick);
	if (p || !c->people || strlen(nick) >= IRC_PERSON_NICK_MAX)
		return p;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++)
		if (!c->people[i].nick[0]) {
			p = &c->people[i];
			memset(p, 0, sizeof *p);
			irc_set_str(p->nick, sizeof p->nick, nick);
			return p;
		}
	if (!c->people_warned)
		LOG(c, "warn", "tracking %d people already; newcomers count as not logged in", IRC_PEOPLE_MAX);
	c->people_warned = 1;
	return NULL;
}

void irc_person_drop(irc_person *p)
{
	memset(p, 0, sizeof *p);
}

/* The identity of a nick now: its account if it is known to have one. */
void irc_identity_of(irc *c, const char *nick, char *out, size_t cap)
{
	irc_person *p = irc_person_find(c, nick);
	irc_identity(p ? p->account : "", nick, out, cap);
}

/* 1 when someone other than `except` is logged in to `account` (and, with
 * chan_bit, is in that channel). */
static int account_elsewhere(irc *c, const char *account, const irc_person *except, uint64_t chan_bit)
{
	if (!account[0] || !c->people)
		return 0;
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (p != except && p->nick[0] && !irc_cmp(c, p->account, account) &&
		    (!chan_bit || (p->chans & chan_bit)))
			return 1;
	}
	return 0;
}

uint64_t irc_chan_bit(irc *c, const irc_chan *ch)
{
	return ch ? (uint64_t)1 << (ch - c->chans) : 0;
}

/* The server says `nick` is logged in to `account` ("" = not at all). When
 * that changes the person's identity, the host hears renamed, so a seat
 * follows the person. */
void irc_account_changed(irc *c, irc_person *p, const char *account)
{
	if (!irc_cmp(c, p->account, account))
		return;
	char before[ADAPTER_ID_MAX], after[ADAPTER_ID_MAX], name[ADAPTER_ID_MAX];
	irc_identity(p->account, p->nick, before, sizeof before);
	irc_set_str(p->account, sizeof p->account, account);
	irc_identity(p->account, p->nick, after, sizeof after);
	irc_clean(p->nick, name, sizeof name);
	LOG(c, "debug", "%s is now %s", name, after);
	if (strcmp(before, after) && c->base.host.renamed)
		c->base.host.renamed(c->base.host.ctx, &c->base, before, after, name);
}

/* `nick` is in channel ch (NULL: some channel of the bot's, unknown which)
 * with `account` (learned == 0: the server did not say). */
void irc_person_seen(irc *c, const char *nick, irc_chan *ch, int learned, const char *account)
{
	if (!irc_nick_ok(nick) || irc_is_self(c, nick))
		return;
	irc_person *p = irc_person_find(c, nick);
	if (!p && (ch || (learned && account[0])))
		p = person_add(c, nick);
	if (!p)
		return;
	if (ch)
		p->chans |= irc_chan_bit(c, ch);
	else if (!p->chans)
		p->loose = 1;
	if (learned)
		irc_account_changed(c, p, account);
}

/* `nick` left channel ch (NULL: the network). Writes the identity it had
 * into out; returns 0 when the host should not hear of it, because the
 * same account is still there under another nick. */
int irc_person_left(irc *c, const char *nick, irc_chan *ch, char *out, size_t cap)
{
	irc_identity_of(c, nick, out, cap);
	irc_person *p = irc_person_find(c, nick);
	if (!p)
		return 1;
	uint64_t bit = irc_chan_bit(c, ch);
	int still = account_elsewhere(c, p->account, p, ch ? bit : 0);
	if (ch)
		p->chans &= ~bit;
	if (!ch || p->loose || !p->chans)
		irc_person_drop(p);
	return !still;
}

/* The bot left channel ch (or, with NULL, every channel). */
void irc_people_forget_channel(irc *c, irc_chan *ch)
{
	if (!c->people)
		return;
	uint64_t bit = irc_chan_bit(c, ch);
	for (int i = 0; i < IRC_PEOPLE_MAX; i++) {
		irc_person *p = &c->people[i];
		if (!p->nick[0])
			continue;
		p->chans &= ch ? ~bit : 0;
		if (p->loose || !p->chans)
			irc_person_drop(p);
	}
}

/* The nick to send to for an identity: itself, or for "account:NAME" the
 * nick speaking now with that identity, else a nick in the bot's channels
 * logged in to NAME. 0 when there is none: a private line (a hand) never
 * goes to a nick merely hoped to be theirs. */
int irc_nick_for(const irc *c, const char *user, char *out, size_t cap)
{
	if (strncmp(user, IRC_ACCOUNT_PREFIX, strlen(IRC_ACCOUNT_PREFIX))) {
		irc_set_str(out, cap, user);
		return 1;
	}
	if (c->cur_user[0] && !strcmp(c->cur_user, user)) {
		irc_set_str(out, cap, c->cur_nick);
		return 1;
	}
	const char *account = user + strlen(IRC_ACCOUNT_PREFIX);
	const irc_person *best = NULL;
	for (int i = 0; c->people && i < IRC_PEOPLE_MAX; i++) {
		const irc_person *p = &c->people[i];
		if (p->nick[0] && p->account[0] && !irc_cmp(c, p->account, account) && (!best || !p->loose))
			best = p;
	}
	if (!best) {
		out[0] = '\0';
		return 0;
	}
	irc_set_str(out, cap, best->nick);
	return 1;
}

/* "WHO #chan %tcna,304": each member's nick and account (354 replies). */
void irc_whox_query(irc *c, const irc_chan *ch)
{
	if (!irc_relay_isupport(c->relay)->whox)
		return;
	char line[IRC_FIELD_MAX + 32];
	snprintf(line, sizeof line, "WHO %s %%tcna," IRC_WHOX_TOKEN, ch->name);
	irc_queue_line(c, line, 0);
	irc_flush(c);
}

void irc_people_reset(irc *c)
{
	if (c->people)
		memset(c->people, 0, IRC_PEOPLE_MAX * sizeof *c->people);
	c->people_warned = 0;
	c->self_account[0] = '\0';
	c->tag_nick[0] = c->tag_account[0] = '\0';
	c->cur_nick[0] = c->cur_user[0] = '\0';
}
