/* irc_relay.c: a local relay between libircclient and an IRC server, adding TLS, CAP and SASL.
 *
 * One relay serves one connection attempt. Its life:
 *   R_CONNECTING  non-blocking connect to each resolved address in turn
 *   R_TLS         OpenSSL handshake, then certificate checks (CA + host, or pin)
 *   R_RELAYING    "CAP LS 302" is queued first, a listener opens on
 *                 127.0.0.1:0 and events->ready tells the adapter to point
 *                 libircclient at it; bytes then flow both ways
 *   R_CLOSED      every descriptor closed; events->closed has been called
 * The server does not finish registration before CAP END, so libircclient's
 * PASS/NICK/USER can go out at once while CAP and SASL play out here.
 * CAP: after the whole LS list, one REQ asks for the account capabilities
 * offered (account-notify, extended-join, account-tag) and another for sasl
 * when SASL is configured, so that a refusal of one leaves the other; CAP
 * END follows once every REQ is answered and SASL is over.
 * The TLS steps live in irc_relay_tls.c, CAP and SASL in irc_relay_cap.c,
 * and the relay's state in irc_relay_internal.h; this file holds the
 * buffers, connecting, the server's lines, the local side and the loop.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "irc_relay_internal.h"
#include "utf8.h"

void relay_send_server(irc_relay *r, const char *line)
{
	if (sb_add(&r->to_server, line) || sb_addn(&r->to_server, "\r\n", 2))
		relay_close(r, "the send buffer to the server overflowed");
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Closes descriptors, TLS and timers; leaves the struct usable for free. */
static void relay_shut(irc_relay *r)
{
	if (r->ssl) {
		/* Best effort close_notify: a non-blocking socket may refuse it. */
		if (r->state == R_RELAYING)
			SSL_shutdown(r->ssl);
		SSL_free(r->ssl);
		r->ssl = NULL;
	}
	SSL_CTX_free(r->ctx);
	r->ctx = NULL;
	close_fd(&r->srv_fd);
	close_fd(&r->listen_fd);
	close_fd(&r->local_fd);
	if (r->ai)
		freeaddrinfo(r->ai);
	r->ai = r->ai_next = NULL;
	loop_cancel(r->ev, r->t_connect);
	loop_cancel(r->ev, r->t_cap);
	loop_cancel(r->ev, r->t_ping);
	r->t_connect = r->t_cap = r->t_ping = 0;
	sb_release(&r->to_server);
	sb_release(&r->to_client);
	ERR_clear_error();
}

void relay_close(irc_relay *r, const char *fmt, ...)
{
	if (r->state == R_CLOSED)
		return;
	char why[RELAY_WHY_MAX];
	va_list ap;
	va_start(ap, fmt);
	if (vsnprintf(why, sizeof why, fmt, ap) < 0)
		strcpy(why, "closed");
	va_end(ap);
	relay_shut(r);
	r->state = R_CLOSED;
	if (r->events.closed)
		r->events.closed(r->events.ctx, why);
}

/* RPL_ISUPPORT: "me TOKEN... :are supported by this server". */
static void isupport_line(irc_relay *r, const ircline_msg *m)
{
	for (int i = 1; i + 1 < m->nparams; i++) {
		char shown[64];
		int took = ircline_isupport_token(&r->isupport, m->params[i]);
		if (took == 0)
			continue;
		utf8_clean(m->params[i], strlen(m->params[i]), shown, sizeof shown);
		if (took < 0)
			LOG(r, "warn", "005 %s: not usable; %s", shown,
			    strncmp(shown, "CASEMAPPING", 11) ? "ignored"
							       : "names compare as ascii, which merges the fewest");
		else if (!strncmp(shown, "CASEMAPPING", 11))
			LOG(r, "info", "names compare as %s (005 %s)", casemap_name(r->isupport.casemap), shown);
	}
}

const ircline_isupport *irc_relay_isupport(const irc_relay *r)
{
	static const ircline_isupport none = {
		.casemap = CASEMAP_ASCII, .chantypes = IRCLINE_CHANTYPES_DEFAULT, .prefixes = IRCLINE_PREFIXES_DEFAULT,
	};
	return r ? &r->isupport : &none;
}

int irc_relay_local_ipv4(const irc_relay *r, char *out, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	if (!r || r->srv_fd < 0 || getsockname(r->srv_fd, (struct sockaddr *)&ss, &sl) < 0 || ss.ss_family != AF_INET)
		return -1;
	return inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, out, (socklen_t)len) ? 0 : -1;
}

irc_relay *irc_relay_new(loop *ev, const irc_relay_config *cfg, const irc_relay_events *events)
{
	irc_relay *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->ev = ev;
	r->cfg = *cfg;
	r->events = *events;
	r->srv_fd = r->listen_fd = r->local_fd = -1;
	r->state = R_IDLE;
	sb_init_grow(&r->to_server, RELAY_BUF_MAX + 1);
	sb_init_grow(&r->to_client, RELAY_BUF_MAX + 1);
	ircline_isupport_default(&r->isupport);
	return r;
}

void irc_relay_free(irc_relay *r)
{
	if (!r)
		return;
	relay_shut(r);
	free(r);
}

void irc_relay_expect_peer(irc_relay *r, int port)
{
	r->expect_port = port;
}

/* ---- connecting ---- */

static void try_next_address(irc_relay *r);

static void on_connect_timeout(void *ctx)
{
	irc_relay *r = ctx;
	r->t_connect = 0;
	relay_close(r, "timed out connecting to %s:%d", r->cfg.server, r->cfg.port);
}

void irc_relay_start(irc_relay *r)
{
	if (r->state != R_IDLE)
		return;
	struct addrinfo hints;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	char port[16];
	snprintf(port, sizeof port, "%d", r->cfg.port);
	r->state = R_CONNECTING;
	/* Blocking, once per attempt: the resolver's own timeouts bound it, and
	 * it runs only when (re)connecting, never while serving a link. */
	int rc = getaddrinfo(r->cfg.server, port, &hints, &r->ai);
	if (rc) {
		r->ai = NULL;
		relay_close(r, "cannot resolve %s: %s", r->cfg.server, gai_strerror(rc));
		return;
	}
	r->t_connect = loop_timer(r->ev, RELAY_CONNECT_TIMEOUT_MS, on_connect_timeout, r);
	r->ai_next = r->ai;
	try_next_address(r);
}

static void try_next_address(irc_relay *r)
{
	while (r->ai_next) {
		struct addrinfo *a = r->ai_next;
		r->ai_next = a->ai_next;
		char host[64] = "?", serv[16] = "?";
		getnameinfo(a->ai_addr, a->ai_addrlen, host, sizeof host, serv, sizeof serv,
			    NI_NUMERICHOST | NI_NUMERICSERV);
		snprintf(r->peer, sizeof r->peer, "%s port %s", host, serv);
		int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (fd < 0) {
			snprintf(r->last_error, sizeof r->last_error, "%s", strerror(errno));
			continue;
		}
		set_nonblock(fd);
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
			r->srv_fd = fd;
			return;   /* completion shows as writability */
		}
		snprintf(r->last_error, sizeof r->last_error, "%s", strerror(errno));
		LOG(r, "warn", "connect to %s failed: %s", r->peer, r->last_error);
		close(fd);
	}
	relay_close(r, "cannot connect to %s:%d: %s", r->cfg.server, r->cfg.port,
		    r->last_error[0] ? r->last_error : "no address");
}

static void connect_done(irc_relay *r)
{
	int err = 0;
	socklen_t len = sizeof err;
	if (getsockopt(r->srv_fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err) {
		snprintf(r->last_error, sizeof r->last_error, "%s", strerror(err));
		LOG(r, "warn", "connect to %s failed: %s", r->peer, r->last_error);
		close_fd(&r->srv_fd);
		try_next_address(r);
		return;
	}
	freeaddrinfo(r->ai);
	r->ai = r->ai_next = NULL;
	if (r->cfg.tls)
		relay_tls_begin(r);
	else
		relay_on_server_up(r);
}

/* ---- lines from the server ---- */

/* The value of the "account" tag in a line's tag section ("@k=v;k2=v2 ..."),
 * unescaped (IRCv3 message-tags) into out. Returns 1 when it is there and
 * is one IRC word other than "*", 0 when the line has no such tag, -1 when
 * it is there but unusable: empty, given twice, too long for out, or not a
 * word once unescaped. A client-only "+account" is another tag. */
static int tag_account(const char *line, char *out, size_t cap)
{
	if (line[0] != '@')
		return 0;
	const char *end = line + strcspn(line, " ");
	int found = 0, bad = 0;
	out[0] = '\0';
	for (const char *p = line + 1; p < end;) {
		const char *q = p;
		while (q < end && *q != ';')
			q++;
		const char *eq = memchr(p, '=', (size_t)(q - p));
		size_t klen = (size_t)((eq ? eq : q) - p);
		if (klen == 7 && !memcmp(p, "account", 7) && found++ == 0) {
			size_t n = 0;
			for (const char *v = eq ? eq + 1 : q; v < q && !bad; v++) {
				char ch = *v;
				if (ch == '\\') {
					if (++v == q)
						break;  /* a lone trailing backslash is dropped */
					ch = *v == ':' ? ';' : *v == 's' ? ' ' : *v == 'r' ? '\r' : *v == 'n' ? '\n' : *v;
				}
				if (n + 1 >= cap)
					bad = 1;
				else
					out[n++] = ch;
			}
			out[n] = '\0';
			if (!n || !ircline_is_word(out) || !strcmp(out, "*"))
				bad = 1;
		} else if (klen == 7 && !memcmp(p, "account", 7)) {
			bad = 1;
		}
		p = q + 1;
	}
	if (bad)
		out[0] = '\0';
	return !found ? 0 : bad ? -1 : 1;
}

/* Passes m to libircclient; -1 when it does not fit in a line (dropped). */
static int to_client(irc_relay *r, const ircline_msg *m)
{
	char out[IRCLINE_MAX + 16];
	int n = ircline_format(m, out, sizeof out - 2);
	if (n < 0) {
		LOG(r, "warn", "dropped a line that does not fit once rewritten");
		return -1;
	}
	memcpy(out + n, "\r\n", 2);
	if (sb_addn(&r->to_client, out, (size_t)n + 2))
		relay_close(r, "libircclient is not reading; the relay buffer overflowed");
	return 0;
}

/* Checks one server line, consumes CAP/SASL traffic and passes the rest to
 * libircclient in canonical form: libircclient's parser trusts its input
 * (it reads past a NOTICE's missing text, a bare numeric, a lone \x01), so
 * only well-formed lines reach it. */
static void server_line(irc_relay *r, char *line)
{
	ircline_msg m;
	size_t raw_len = strlen(line);
	char account[IRCLINE_MAX];
	int tagged = tag_account(line, account, sizeof account);
	if (ircline_parse(line, &m) < 0) {
		LOG(r, "warn", "dropped a malformed line from the server (%zu bytes)", raw_len);
		return;
	}
	int code = ircline_numeric(&m);
	const char *cmd = m.command;
	if (!strcasecmp(cmd, "CAP")) {
		relay_cap_line(r, &m);
		return;
	}
	if (!strcasecmp(cmd, "AUTHENTICATE")) {
		relay_authenticate_line(r, &m);
		return;
	}
	if (code >= 900 && code <= 908) {
		relay_sasl_numeric(r, code, &m);
		if (code > 901 || m.nparams < 3)
			return;  /* 900 logged in, 901 logged out: the adapter hears them too */
	}
	if (!strcasecmp(cmd, "ACCOUNT") && (m.nparams != 1 || !m.prefix || !strchr(m.prefix, '!'))) {
		/* Only the relay's own ACCOUNT lines (below) carry a second parameter. */
		LOG(r, "warn", "dropped a malformed ACCOUNT line");
		return;
	}
	if (code == 410 || (code == 421 && m.nparams >= 2 &&
			    (!strcasecmp(m.params[1], "CAP") || !strcasecmp(m.params[1], "AUTHENTICATE")))) {
		if (r->cap != CAP_DONE)
			LOG(r, "warn", "the server does not support CAP%s", relay_want_sasl(r) ? "; continuing without SASL" : "");
		r->cap = CAP_DONE;
		return;
	}
	if (!strcasecmp(cmd, "PONG") && m.nparams >= 1 && !strcmp(m.params[m.nparams - 1], RELAY_PING_TOKEN))
		return;
	if (code == 1 && r->cap != CAP_DONE) {
		/* Registered without CAP END: the server ignored CAP. */
		r->cap = CAP_DONE;
		loop_cancel(r->ev, r->t_cap);
		r->t_cap = 0;
	}
	if (code >= 0 && m.nparams == 0) {
		LOG(r, "warn", "dropped numeric %03d without parameters", code);
		return;
	}
	if (code == 5)
		isupport_line(r, &m);
	if (!strcasecmp(cmd, "ERROR") && m.nparams >= 1)
		utf8_clean(m.params[0], strlen(m.params[0]), r->server_error, sizeof r->server_error);
	if (!strcasecmp(cmd, "PRIVMSG") || !strcasecmp(cmd, "NOTICE")) {
		if (m.nparams < 2) {
			LOG(r, "warn", "dropped a %s without text", cmd);
			return;
		}
		const char *text = m.params[1];
		/* A lone \x01 makes libircclient read before its buffer; DCC would open sockets. */
		if ((text[0] == '\x01' && strlen(text) < 2) || !strncasecmp(text, "\x01" "DCC", 4))
			return;
		/* With account-tag, every message from a person says whether its
		 * sender is logged in. libircclient drops tags, so the relay puts
		 * the answer just before the message, in band, as
		 * ":nick!user@host ACCOUNT <name or *> :tag". */
		if ((r->caps & IRC_RELAY_CAP_ACCOUNT_TAG) && m.prefix && strchr(m.prefix, '!')) {
			if (tagged < 0)
				LOG(r, "warn", "a message carried an unusable account tag; taken as no account");
			ircline_msg a;
			memset(&a, 0, sizeof a);
			a.prefix = m.prefix;
			a.command = "ACCOUNT";
			a.params[0] = tagged > 0 ? account : "*";
			a.params[1] = "tag";
			a.nparams = 2;
			if (to_client(r, &a) < 0) {
				/* A long prefix and a long name: "*" always fits, since
				 * the message itself fitted with that prefix. */
				a.params[0] = "*";
				to_client(r, &a);
			}
			if (r->state != R_RELAYING)
				return;
		}
	}
	to_client(r, &m);
}

/* Splits the server's bytes into lines: CR and LF both end a line (a bare
 * CR included), NULs are dropped, empty lines skipped, and a line longer
 * than 510 bytes (not counting an IRCv3 tag section of up to 8191) is cut
 * there, the rest discarded up to its end. */
static void server_bytes(irc_relay *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n && r->state == R_RELAYING; i++) {
		char ch = buf[i];
		if (ch == '\r' || ch == '\n') {
			if (r->line_len > 0) {
				r->line[r->line_len] = '\0';
				server_line(r, r->line);
			}
			r->line_len = 0;
			r->tags_len = 0;
			r->line_cut = 0;
		} else if (ch == '\0') {
			continue;
		} else if (r->line_len > 0 && r->line[0] == '@' && !r->tags_len && r->line_len < RELAY_TAGS_MAX) {
			/* Still in the tag section. */
			r->line[r->line_len++] = ch;
			if (ch == ' ')
				r->tags_len = r->line_len;
		} else if (r->line_len - r->tags_len < RELAY_LINE_MAX &&
			   !(r->line_len > 0 && r->line[0] == '@' && !r->tags_len)) {
			r->line[r->line_len++] = ch;
		} else if (!r->line_cut) {
			r->line_cut = 1;
			LOG(r, "warn", "a line from the server is longer than %d bytes; cut", RELAY_LINE_MAX);
		}
	}
}

/* One recv (or send, when writing) on a non-blocking socket, again after
 * EINTR. Returns the count (0: the peer closed a read), SOCK_AGAIN when the
 * socket would block, or SOCK_FAILED once the relay is closed with
 * "<failed>: <the system's reason>". */
enum { SOCK_AGAIN = -1, SOCK_FAILED = -2 };
static ssize_t sock_io(irc_relay *r, int fd, char *buf, size_t n, int writing, const char *failed)
{
	for (;;) {
		ssize_t k = writing ? send(fd, buf, n, MSG_NOSIGNAL) : recv(fd, buf, n, 0);
		if (k >= 0)
			return k;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return SOCK_AGAIN;
		relay_close(r, "%s: %s", failed, strerror(errno));
		return SOCK_FAILED;
	}
}

static void srv_read(irc_relay *r)
{
	char buf[RELAY_READ_CHUNK];
	r->read_wants_write = 0;
	while (r->state == R_RELAYING) {
		ssize_t n;
		if (r->ssl) {
			ERR_clear_error();
			int k = SSL_read(r->ssl, buf, sizeof buf);
			if (k <= 0) {
				int e = SSL_get_error(r->ssl, k);
				if (e == SSL_ERROR_WANT_READ)
					return;
				if (e == SSL_ERROR_WANT_WRITE) {
					r->read_wants_write = 1;
					return;
				}
				if (e == SSL_ERROR_ZERO_RETURN || e == SSL_ERROR_SYSCALL)
					break;
				char ebuf[256];
				ERR_error_string_n(ERR_get_error(), ebuf, sizeof ebuf);
				relay_close(r, "TLS read failed: %s", ebuf);
				return;
			}
			n = k;
		} else {
			n = sock_io(r, r->srv_fd, buf, sizeof buf, 0, "read from the server failed");
			if (n < 0)
				return;
			if (n == 0)
				break;
		}
		r->last_rx = loop_now();
		r->ping_sent = 0;
		server_bytes(r, buf, (size_t)n);
	}
	if (r->state != R_RELAYING)
		return;
	if (r->server_error[0])
		relay_close(r, "the server closed the link: %s", r->server_error);
	else
		relay_close(r, "the server closed the connection");
}

static void srv_write(irc_relay *r)
{
	r->write_wants_read = 0;
	while (r->to_server.len && r->state == R_RELAYING) {
		ssize_t k;
		if (r->ssl) {
			ERR_clear_error();
			k = SSL_write(r->ssl, r->to_server.s, (int)r->to_server.len);
			if (k <= 0) {
				int e = SSL_get_error(r->ssl, (int)k);
				if (e == SSL_ERROR_WANT_WRITE)
					return;
				if (e == SSL_ERROR_WANT_READ) {
					r->write_wants_read = 1;
					return;
				}
				relay_close(r, "TLS write to the server failed");
				return;
			}
		} else if ((k = sock_io(r, r->srv_fd, r->to_server.s, r->to_server.len, 1,
					"write to the server failed")) < 0) {
			return;
		}
		sb_drop(&r->to_server, (size_t)k);
	}
}

/* ---- the local side (libircclient) ---- */

void relay_on_server_up(irc_relay *r)
{
	r->state = R_RELAYING;
	r->last_rx = loop_now();
	r->cap = CAP_LS;
	relay_send_server(r, "CAP LS 302");
	r->t_cap = loop_timer(r->ev, RELAY_CAP_TIMEOUT_MS, relay_on_cap_timeout, r);
	r->t_ping = loop_timer(r->ev, RELAY_PING_CHECK_MS, relay_on_ping_timer, r);

	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;   /* ephemeral */
	socklen_t alen = sizeof a;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 1) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &alen) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		relay_close(r, "cannot open the local relay socket: %s", strerror(e));
		return;
	}
	set_nonblock(fd);
	r->listen_fd = fd;
	if (r->events.ready)
		r->events.ready(r->events.ctx, ntohs(a.sin_port));
}

static void accept_local(irc_relay *r)
{
	struct sockaddr_in peer;
	socklen_t plen = sizeof peer;
	int fd = accept(r->listen_fd, (struct sockaddr *)&peer, &plen);
	if (fd < 0)
		return;
	/* Only libircclient's socket, known by its port, may use the relay:
	 * any other local process racing for the port is turned away. */
	if (peer.sin_family != AF_INET || peer.sin_addr.s_addr != htonl(INADDR_LOOPBACK) ||
	    ntohs(peer.sin_port) != r->expect_port || r->expect_port == 0) {
		LOG(r, "warn", "refused an unexpected local connection from port %d", ntohs(peer.sin_port));
		close(fd);
		return;
	}
	set_nonblock(fd);
	r->local_fd = fd;
	close_fd(&r->listen_fd);
	loop_cancel(r->ev, r->t_connect);
	r->t_connect = 0;
}

static void local_read(irc_relay *r)
{
	char buf[RELAY_READ_CHUNK];
	for (;;) {
		ssize_t n = sock_io(r, r->local_fd, buf, sizeof buf, 0, "the local link failed");
		if (n < 0)
			return;
		if (n == 0) {
			relay_close(r, "the client closed the local link");
			return;
		}
		if (sb_addn(&r->to_server, buf, (size_t)n)) {
			relay_close(r, "the server is not reading; the relay buffer overflowed");
			return;
		}
	}
}

static void local_write(irc_relay *r)
{
	while (r->to_client.len) {
		ssize_t n = sock_io(r, r->local_fd, r->to_client.s, r->to_client.len, 1,
				    "the local link failed");
		if (n < 0)
			return;
		sb_drop(&r->to_client, (size_t)n);
	}
}

void relay_on_ping_timer(void *ctx)
{
	irc_relay *r = ctx;
	r->t_ping = 0;
	int64_t idle = loop_now() - r->last_rx;
	if (idle >= RELAY_IDLE_DEAD_MS) {
		relay_close(r, "no data from the server for %d s", (int)(idle / 1000));
		return;
	}
	if (idle >= RELAY_IDLE_PING_MS && !r->ping_sent) {
		relay_send_server(r, "PING :" RELAY_PING_TOKEN);
		r->ping_sent = 1;
	}
	if (r->state == R_RELAYING)
		r->t_ping = loop_timer(r->ev, RELAY_PING_CHECK_MS, relay_on_ping_timer, r);
}

/* ---- the loop ---- */

static void add_fd(int fd, fd_set *set, int *maxfd)
{
	FD_SET(fd, set);
	if (fd > *maxfd)
		*maxfd = fd;
}

void irc_relay_prepare(irc_relay *r, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	(void)timeout_ms;
	switch (r->state) {
	case R_CONNECTING:
		if (r->srv_fd >= 0)
			add_fd(r->srv_fd, wr, maxfd);
		break;
	case R_TLS:
		add_fd(r->srv_fd, r->hs_want_write ? wr : rd, maxfd);
		break;
	case R_RELAYING:
		add_fd(r->srv_fd, rd, maxfd);
		if ((r->to_server.len && !r->write_wants_read) || r->read_wants_write)
			add_fd(r->srv_fd, wr, maxfd);
		if (r->listen_fd >= 0)
			add_fd(r->listen_fd, rd, maxfd);
		if (r->local_fd >= 0) {
			add_fd(r->local_fd, rd, maxfd);
			if (r->to_client.len)
				add_fd(r->local_fd, wr, maxfd);
		}
		break;
	default:
		break;
	}
}

static int fd_isset(int fd, fd_set *set)
{
	return fd >= 0 && FD_ISSET(fd, set);
}

void irc_relay_dispatch(irc_relay *r, fd_set *rd, fd_set *wr)
{
	switch (r->state) {
	case R_CONNECTING:
		if (fd_isset(r->srv_fd, wr))
			connect_done(r);
		return;
	case R_TLS:
		if (fd_isset(r->srv_fd, rd) || fd_isset(r->srv_fd, wr))
			relay_tls_step(r);
		return;
	case R_RELAYING:
		break;
	default:
		return;
	}
	int sr = fd_isset(r->srv_fd, rd), sw = fd_isset(r->srv_fd, wr);
	int lr = fd_isset(r->local_fd, rd);
	if (fd_isset(r->listen_fd, rd))
		accept_local(r);
	if (lr && r->state == R_RELAYING)
		local_read(r);
	if (r->state == R_RELAYING && (sr || (r->read_wants_write && sw)))
		srv_read(r);
	/* Writes are tried whenever there is something to write: a
	 * non-blocking write that cannot proceed costs one system call. */
	if (r->state == R_RELAYING && r->to_server.len)
		srv_write(r);
	if (r->state == R_RELAYING && r->local_fd >= 0 && r->to_client.len)
		local_write(r);
}
