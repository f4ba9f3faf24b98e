/* irc_relay_internal.h: what the relay's files share: limits, its states, the relay's state, cross-file functions.
 *
 * Private to adapters/irc/irc_relay.c, irc_relay_tls.c and irc_relay_cap.c
 * (the public face is irc_relay.h). Functions shared between the files
 * carry the relay_ prefix; each is described where it is defined.
 */
#ifndef CARDBOT_IRC_RELAY_INTERNAL_H
#define CARDBOT_IRC_RELAY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <netdb.h>
#include <openssl/ssl.h>
#include "irc_relay.h"
#include "ircline.h"
#include "loop.h"

#define RELAY_BUF_MAX (1024 * 1024)     /* bytes queued either way before the link is deemed stuck */
#define RELAY_READ_CHUNK 4096
#define RELAY_CONNECT_TIMEOUT_MS 30000  /* resolve, TCP, TLS and libircclient's local connect */
#define RELAY_CAP_TIMEOUT_MS 20000      /* CAP and SASL get this long; then CAP END regardless */
#define RELAY_PING_CHECK_MS 30000
#define RELAY_IDLE_PING_MS 120000       /* server silent this long: ask it for a PONG */
#define RELAY_IDLE_DEAD_MS 240000       /* silent this long: the link is dead (a half-open TCP) */
#define RELAY_SASL_CHUNK 400            /* IRCv3 SASL: AUTHENTICATE payloads go in 400-byte pieces */
#define RELAY_LINE_MAX (IRCLINE_MAX - 2) /* a server line without CRLF; longer ones are cut */
#define RELAY_TAGS_MAX 8191             /* IRCv3 message-tags: the tag section may add this much before the 510 */
#define RELAY_WHY_MAX 256
#define RELAY_PING_TOKEN "cardbot-relay"

enum relay_state { R_IDLE, R_CONNECTING, R_TLS, R_RELAYING, R_CLOSED };
enum cap_state { CAP_LS, CAP_REQ, CAP_DONE };
enum sasl_state { SASL_NONE, SASL_REQ, SASL_START, SASL_SENT, SASL_OVER };

typedef struct rbuf {
	char *data;
	size_t len, cap;
} rbuf;

struct irc_relay {
	loop *ev;
	irc_relay_config cfg;
	irc_relay_events events;
	enum relay_state state;
	struct addrinfo *ai, *ai_next;
	char peer[96];                 /* "address port" being tried, for log lines */
	char last_error[RELAY_WHY_MAX];
	int srv_fd, listen_fd, local_fd;
	int expect_port;
	SSL_CTX *ctx;
	SSL *ssl;
	int hs_want_write;             /* the handshake waits for writability */
	int read_wants_write, write_wants_read;
	rbuf to_server, to_client;
	char line[RELAY_TAGS_MAX + 1 + RELAY_LINE_MAX + 1];
	size_t line_len;
	size_t tags_len;               /* the tag section's bytes with its space; 0 before the space or without tags */
	int line_cut;                  /* the current line overflowed and is being cut */
	enum cap_state cap;
	enum sasl_state sasl;
	int reqs_pending;              /* CAP REQs not yet answered by ACK or NAK */
	int sasl_offered;              /* CAP LS listed sasl with PLAIN (or with no mechanism list) */
	int caps_offered, caps;        /* IRC_RELAY_CAP_* offered by LS, and granted by ACK */
	ircline_isupport isupport;     /* from 005 (irc_relay_isupport) */
	uint64_t t_connect, t_cap, t_ping;
	int64_t last_rx;
	int ping_sent;
	char server_error[RELAY_WHY_MAX]; /* the text of an ERROR line, for the close reason */
};

#define LOG(r, level, ...) ircline_log((r)->cfg.name, level, __VA_ARGS__)

/* ---- irc_relay.c ---- */
void relay_send_server(irc_relay *r, const char *line);
void relay_close(irc_relay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void relay_on_server_up(irc_relay *r);
void relay_on_ping_timer(void *ctx);

/* ---- irc_relay_tls.c ---- */
void relay_tls_begin(irc_relay *r);
void relay_tls_step(irc_relay *r);

/* ---- irc_relay_cap.c ---- */
int relay_want_sasl(const irc_relay *r);
void relay_on_cap_timeout(void *ctx);
void relay_cap_line(irc_relay *r, const ircline_msg *m);
void relay_authenticate_line(irc_relay *r, const ircline_msg *m);
void relay_sasl_numeric(irc_relay *r, int code, const ircline_msg *m);

#endif
