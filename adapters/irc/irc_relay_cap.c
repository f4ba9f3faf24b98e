/* irc_relay_cap.c: the relay's IRCv3 capability negotiation (CAP LS, REQ, END) and SASL PLAIN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "irc_relay_internal.h"
#include "utf8.h"

/* The capabilities through which the server tells accounts (irc_relay.h). */
static const struct { const char *name; int bit; } account_caps[] = {
	{ "account-notify", IRC_RELAY_CAP_ACCOUNT_NOTIFY },
	{ "extended-join", IRC_RELAY_CAP_EXTENDED_JOIN },
	{ "account-tag", IRC_RELAY_CAP_ACCOUNT_TAG },
};
#define ACCOUNT_CAPS ((int)(sizeof account_caps / sizeof account_caps[0]))

/* ---- CAP and SASL ---- */

int relay_want_sasl(const irc_relay *r)
{
	return r->cfg.sasl_user[0] && r->cfg.sasl_password[0];
}

static void cap_end(irc_relay *r)
{
	if (r->cap == CAP_DONE)
		return;
	relay_send_server(r, "CAP END");
	r->cap = CAP_DONE;
	loop_cancel(r->ev, r->t_cap);
	r->t_cap = 0;
}

void relay_on_cap_timeout(void *ctx)
{
	irc_relay *r = ctx;
	r->t_cap = 0;
	if (r->cap != CAP_DONE) {
		LOG(r, "warn", "CAP negotiation did not finish in %d s; ending it", RELAY_CAP_TIMEOUT_MS / 1000);
		cap_end(r);
	}
}

/* 1 when the space-separated list holds `cap` (possibly as "cap=value"); *value gets the value or NULL. */
static int cap_find(const char *list, const char *cap, const char **value, size_t *vlen)
{
	size_t n = strlen(cap);
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t t = strcspn(p, " ");
		if (t >= n && !strncasecmp(p, cap, n) && (t == n || p[n] == '=')) {
			*value = t > n ? p + n + 1 : NULL;
			*vlen = t > n ? t - n - 1 : 0;
			return 1;
		}
		p += t;
	}
	return 0;
}

static int list_has_plain(const char *v, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t t = 0;
		while (i + t < len && v[i + t] != ',')
			t++;
		if (t == 5 && !strncasecmp(v + i, "PLAIN", 5))
			return 1;
		i += t + 1;
	}
	return 0;
}

/* CAP END once every REQ has its answer and SASL, if it began, is over. */
static void cap_maybe_end(irc_relay *r)
{
	if (r->cap == CAP_REQ && r->reqs_pending <= 0 && (r->sasl == SASL_NONE || r->sasl == SASL_OVER))
		cap_end(r);
}

/* Sets or clears, in *bits, the account capabilities named in list. */
static void account_caps_in(const char *list, int *bits, int set)
{
	const char *value;
	size_t vlen;
	for (int i = 0; i < ACCOUNT_CAPS; i++)
		if (cap_find(list, account_caps[i].name, &value, &vlen)) {
			if (set)
				*bits |= account_caps[i].bit;
			else
				*bits &= ~account_caps[i].bit;
		}
}

void relay_cap_line(irc_relay *r, const ircline_msg *m)
{
	if (m->nparams < 3)
		return;
	const char *sub = m->params[1], *list = m->params[m->nparams - 1];
	const char *value;
	size_t vlen;
	if (!strcasecmp(sub, "LS") && r->cap == CAP_LS) {
		/* "CAP * LS * :..." continues on another line (302 multiline). */
		int more = m->nparams >= 4 && !strcmp(m->params[2], "*");
		if (cap_find(list, "sasl", &value, &vlen) && (!value || list_has_plain(value, vlen)))
			r->sasl_offered = 1;
		account_caps_in(list, &r->caps_offered, 1);
		if (more)
			return;
		r->cap = CAP_REQ;
		if (r->caps_offered) {
			char req[128] = "CAP REQ :";
			for (int i = 0; i < ACCOUNT_CAPS; i++)
				if (r->caps_offered & account_caps[i].bit) {
					strcat(req, account_caps[i].name);
					strcat(req, " ");
				}
			req[strlen(req) - 1] = '\0';
			relay_send_server(r, req);
			r->reqs_pending++;
		}
		if (relay_want_sasl(r) && r->sasl_offered) {
			relay_send_server(r, "CAP REQ :sasl");
			r->reqs_pending++;
			r->sasl = SASL_REQ;
		} else if (relay_want_sasl(r)) {
			LOG(r, "warn", "the server offers no SASL PLAIN; continuing without SASL");
		}
		cap_maybe_end(r);
	} else if (!strcasecmp(sub, "ACK") && r->cap == CAP_REQ) {
		r->reqs_pending--;
		account_caps_in(list, &r->caps, 1);
		if (r->sasl == SASL_REQ && cap_find(list, "sasl", &value, &vlen)) {
			relay_send_server(r, "AUTHENTICATE PLAIN");
			r->sasl = SASL_START;
		}
		cap_maybe_end(r);
	} else if (!strcasecmp(sub, "NAK") && r->cap == CAP_REQ) {
		r->reqs_pending--;
		if (r->sasl == SASL_REQ && cap_find(list, "sasl", &value, &vlen)) {
			LOG(r, "warn", "the server refused the sasl capability; continuing without SASL");
			r->sasl = SASL_OVER;
		} else {
			LOG(r, "warn", "the server refused the account capabilities; accounts are learned from WHOX only");
		}
		cap_maybe_end(r);
	} else if (!strcasecmp(sub, "DEL")) {
		/* cap-notify (implied by CAP LS 302): the server withdrew some. */
		int before = r->caps;
		account_caps_in(list, &r->caps, 0);
		if (before != r->caps)
			LOG(r, "info", "the server withdrew an account capability");
	}
}

int irc_relay_caps(const irc_relay *r)
{
	return r ? r->caps : 0;
}

/* Sends base64("\0user\0password") in 400-byte AUTHENTICATE lines; a
 * payload that is an exact multiple of 400 ends with "AUTHENTICATE +". */
static void sasl_send_plain(irc_relay *r)
{
	const char *user = r->cfg.sasl_user, *pass = r->cfg.sasl_password;
	size_t ulen = strlen(user), plen = strlen(pass);
	size_t n = 1 + ulen + 1 + plen;
	unsigned char *raw = malloc(n);
	size_t b64cap = 4 * ((n + 2) / 3) + 1;
	char *b64 = malloc(b64cap);
	char line[16 + RELAY_SASL_CHUNK];
	if (!raw || !b64) {
		free(raw);
		free(b64);
		relay_close(r, "out of memory");
		return;
	}
	raw[0] = '\0';
	memcpy(raw + 1, user, ulen);
	raw[1 + ulen] = '\0';
	memcpy(raw + 2 + ulen, pass, plen);
	int blen = EVP_EncodeBlock((unsigned char *)b64, raw, (int)n);
	for (int off = 0; off < blen; off += RELAY_SASL_CHUNK) {
		int k = blen - off < RELAY_SASL_CHUNK ? blen - off : RELAY_SASL_CHUNK;
		snprintf(line, sizeof line, "AUTHENTICATE %.*s", k, b64 + off);
		relay_send_server(r, line);
	}
	if (blen % RELAY_SASL_CHUNK == 0)
		relay_send_server(r, "AUTHENTICATE +");
	OPENSSL_cleanse(raw, n);
	OPENSSL_cleanse(b64, b64cap);
	OPENSSL_cleanse(line, sizeof line);
	free(raw);
	free(b64);
}

void relay_authenticate_line(irc_relay *r, const ircline_msg *m)
{
	if (r->sasl == SASL_START && m->nparams >= 1 && !strcmp(m->params[0], "+")) {
		sasl_send_plain(r);
		r->sasl = SASL_SENT;
	}
}

void relay_sasl_numeric(irc_relay *r, int code, const ircline_msg *m)
{
	char text[128] = "";
	if (m->nparams >= 1)
		utf8_clean(m->params[m->nparams - 1], strlen(m->params[m->nparams - 1]), text, sizeof text);
	if (code == 900 && m->nparams >= 3) {
		char account[64];
		utf8_clean(m->params[2], strlen(m->params[2]), account, sizeof account);
		LOG(r, "info", "SASL: logged in as account %s", account);
		return;
	}
	if (r->sasl != SASL_START && r->sasl != SASL_SENT)
		return;
	switch (code) {
	case 903:
		LOG(r, "info", "SASL authentication succeeded");
		r->sasl = SASL_OVER;
		break;
	case 902: case 904: case 905:
		LOG(r, "error", "SASL authentication as %s failed (%d: %s); continuing without it",
		    r->cfg.sasl_user, code, text);
		r->sasl = SASL_OVER;
		break;
	case 906: case 907:
		r->sasl = SASL_OVER;
		break;
	default:
		return;  /* 908 lists mechanisms before a 904; 901 is a logout */
	}
	cap_maybe_end(r);
}
