/* irc_relay.h: a local relay between libircclient and an IRC server, adding TLS, CAP and SASL.
 *
 * Debian's libircclient has no TLS and never sends CAP. The relay opens the
 * real connection itself (non-blocking TCP, then OpenSSL when asked), starts
 * CAP negotiation and SASL PLAIN, and offers libircclient a plain connection
 * on 127.0.0.1 (ephemeral port, one accepted peer). Bytes from libircclient go
 * to the server as they are; lines from the server are checked, rewritten in
 * a canonical form, and passed on, except CAP, AUTHENTICATE and the SASL
 * numerics (902-908), which the relay consumes (900 and 901, logged in and
 * out, go on to the adapter too).
 *
 * Accounts: the relay asks for account-notify, extended-join and
 * account-tag when offered. libircclient never sees message tags, so when
 * account-tag is granted each PRIVMSG or NOTICE from a person is preceded
 * by a line the relay makes, ":nick!user@host ACCOUNT NAME :tag" (NAME "*"
 * when the message carried no usable account tag). The server's own
 * ACCOUNT lines (account-notify) pass with exactly one parameter; others
 * are dropped, so a second parameter always means the relay's line.
 */
#ifndef CARDBOT_IRC_RELAY_H
#define CARDBOT_IRC_RELAY_H

#include <sys/select.h>

#include "ircline.h"
#include "loop.h"

#define IRC_RELAY_PIN_LEN 32  /* SHA-256 */

typedef struct irc_relay irc_relay;

/* Borrowed: every string must outlive the relay. "" means unset. */
typedef struct irc_relay_config {
	const char *name;            /* the network's name, for log lines */
	const char *server;
	int port;
	int tls;
	const char *ca_file;         /* "" = the system's store */
	int tls_verify;              /* refuse a certificate that does not verify */
	const unsigned char *pin;    /* NULL, or the SHA-256 of the leaf certificate (replaces CA checks) */
	const char *sasl_user;       /* SASL PLAIN when both are set */
	const char *sasl_password;
} irc_relay_config;

typedef struct irc_relay_events {
	void *ctx;
	/* The server link is up and CAP negotiation has begun: connect the
	 * client to 127.0.0.1:port now, then name its local port with
	 * irc_relay_expect_peer. */
	void (*ready)(void *ctx, int port);
	/* The relay has stopped for good; every descriptor is closed. May be
	 * called from inside irc_relay_start or irc_relay_dispatch: free the
	 * relay later, never from inside this call. */
	void (*closed)(void *ctx, const char *why);
} irc_relay_events;

/* Capabilities granted by the server (irc_relay_caps). */
enum {
	IRC_RELAY_CAP_ACCOUNT_NOTIFY = 1,  /* ACCOUNT lines when someone logs in or out */
	IRC_RELAY_CAP_EXTENDED_JOIN = 2,   /* "JOIN #chan ACCOUNT :realname" ("*": none) */
	IRC_RELAY_CAP_ACCOUNT_TAG = 4,     /* an account tag on messages (see above) */
};

/* The IRC_RELAY_CAP_* bits granted so far on this link; 0 for NULL. */
int irc_relay_caps(const irc_relay *r);

/* What the server has said of itself on this link in RPL_ISUPPORT (005),
 * read by the relay because libircclient keeps only 10 parameters of a
 * line; the defaults (ircline_isupport_default) until it has, or for NULL.
 * Borrowed: valid until the relay is freed (NULL's, for ever). */
const ircline_isupport *irc_relay_isupport(const irc_relay *r);

/* The local end of the link to the server, when it is IPv4 ("a.b.c.d"
 * into out): 0, or -1 (no link, IPv6, or r NULL). */
int irc_relay_local_ipv4(const irc_relay *r, char *out, size_t len);
/* A new relay (not connecting yet), or NULL when out of memory. */
irc_relay *irc_relay_new(loop *ev, const irc_relay_config *cfg, const irc_relay_events *events);

/* Resolves the server (blocking getaddrinfo, once per attempt) and starts a
 * non-blocking connect. Failures arrive through events->closed. */
void irc_relay_start(irc_relay *r);

/* Accept the local client only from 127.0.0.1:port (its bound port). */
void irc_relay_expect_peer(irc_relay *r, int port);

/* Adds the relay's descriptors; handles those that are ready. */
void irc_relay_prepare(irc_relay *r, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms);
void irc_relay_dispatch(irc_relay *r, fd_set *rd, fd_set *wr);

/* Closes everything and frees the relay without calling events->closed. NULL is fine. */
void irc_relay_free(irc_relay *r);

#endif
