/* irc_dcc.c: files offered by DCC SEND (a port for the person's client, the CTCP offer, the bytes and their acks); the file's lines instead when the offer is not taken. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "irc_internal.h"

/* One offer: listening until the client connects, then sending. */
struct irc_dcc {
	struct irc_dcc *next;
	char user[ADAPTER_ID_MAX];   /* whose file it is (their identity) */
	char nick[IRC_FIELD_MAX];    /* where the offer went */
	char name[IRC_DCC_NAME_MAX]; /* the file's name as offered */
	char *data;                  /* owned */
	size_t len, sent;
	uint32_t acked;              /* the client's last count of bytes received */
	unsigned char ack[4];        /* an ack read in part (TCP may split one) */
	int nack;
	int lfd, fd;                 /* listening, then connected; -1 when closed */
	int64_t deadline;            /* loop time by which it is taken, or moves on */
	char **lines;                /* owned: the file in private lines, for a failed offer */
	int nlines, flags;
	int over;                    /* 1 delivered, -1 failed: ended at the next pass */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void dcc_free(irc_dcc *d)
{
	close_fd(&d->lfd);
	close_fd(&d->fd);
	for (int i = 0; i < d->nlines; i++)
		free(d->lines[i]);
	free(d->lines);
	free(d->data);
	free(d);
}

/* A failed offer's lines, as the host would have sent them: private,
 * asked for in full by the person, paced. */
static void send_lines(irc *c, irc_dcc *d)
{
	char nick[IRC_FIELD_MAX];
	if (!d->nlines)
		return;
	if (!irc_nick_for(c, d->user, nick, sizeof nick)) {
		LOG(c, "info", "%s is gone; the lines of %s were not sent", d->user, d->name);
		return;
	}
	/* The host's tag is not in force now: the lines are tagged as its
	 * request was (the person's answer, whole), then the tag is put back. */
	int tagged = c->tagged, answer = c->tag_answer, replaces = c->tag_replaces, whole = c->tag_whole;
	unsigned long event = c->tag_event;
	char cause[sizeof c->tag_cause], story[sizeof c->tag_story], *key = strdup(c->tag_key);
	memcpy(cause, c->tag_cause, sizeof cause);
	memcpy(story, c->tag_story, sizeof story);
	c->tagged = 1, c->tag_answer = 1, c->tag_replaces = 0, c->tag_whole = 1, c->tag_event = 0;
	irc_set_str(c->tag_cause, sizeof c->tag_cause, d->user);
	c->tag_key[0] = c->tag_story[0] = '\0';
	const char *cmd = irc_private_cmd(c, d->flags);
	for (int i = 0; i < d->nlines; i++)
		irc_queue_text(c, cmd, nick, d->user, 0, d->lines[i]);
	c->tagged = tagged, c->tag_answer = answer, c->tag_replaces = replaces, c->tag_whole = whole;
	c->tag_event = event;
	memcpy(c->tag_cause, cause, sizeof cause);
	memcpy(c->tag_story, story, sizeof story);
	irc_set_str(c->tag_key, sizeof c->tag_key, key ? key : "");
	free(key);
}

static void fail(irc *c, irc_dcc *d, const char *why)
{
	if (d->over)
		return;
	d->over = -1;
	LOG(c, "info", "DCC SEND of %s to %s: %s; it goes as %d private lines instead", d->name, d->nick, why,
	    d->nlines);
	send_lines(c, d);
}

/* The address told to clients, as DCC writes it: an IPv4 address as one
 * decimal number. dcc_address, else the local end of the server link. */
static int offer_address(irc *c, unsigned long *out)
{
	struct in_addr a;
	char local[INET_ADDRSTRLEN];
	const char *s = c->set.dcc_address;
	if (!s[0]) {
		if (irc_relay_local_ipv4(c->relay, local, sizeof local) < 0)
			return -1;
		s = local;
	}
	if (inet_pton(AF_INET, s, &a) != 1)
		return -1;
	*out = (unsigned long)ntohl(a.s_addr);
	return 0;
}

/* A listening socket on a port of the configured range; its port in *port. */
static int listen_on(irc *c, int *port)
{
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (c->set.dcc_listen[0] && inet_pton(AF_INET, c->set.dcc_listen, &sa.sin_addr) != 1)
		return -1;
	int lo = c->set.dcc_port_min ? c->set.dcc_port_min : c->set.dcc_port_max;
	int hi = c->set.dcc_port_max ? c->set.dcc_port_max : c->set.dcc_port_min;
	if (hi < lo)
		hi = lo;
	for (int p = lo; p <= hi; p++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		sa.sin_port = htons((uint16_t)p);
		if (fd >= FD_SETSIZE || fcntl(fd, F_SETFL, O_NONBLOCK) < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
			close(fd);
			return -1;
		}
		if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(fd, 1) == 0) {
			socklen_t sl = sizeof sa;
			if (getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
				close(fd);
				return -1;
			}
			*port = ntohs(sa.sin_port);
			return fd;
		}
		close(fd);
	}
	return -1;
}

/* A name for the client's disk: letters, digits, '.', '-' and '_' only
 * (no path, no space, which DCC would need quoted). */
static void clean_name(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	for (; in && *in && n + 1 < cap; in++) {
		int ok = (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') || (*in >= '0' && *in <= '9')
			 || *in == '-' || *in == '_' || (*in == '.' && n > 0);
		out[n++] = ok ? *in : '_';
	}
	out[n] = '\0';
	if (!n)
		snprintf(out, cap, "file");
}

int irc_dcc_offer(irc *c, const char *user, const adapter_file *f)
{
	char nick[IRC_FIELD_MAX], name[IRC_DCC_NAME_MAX];
	if (!c->set.dcc || !f || !f->data || !f->len || f->len > IRC_DCC_FILE_MAX || !c->registered || c->dead)
		return -1;
	if (!irc_nick_for(c, user, nick, sizeof nick) || !ircline_is_word(nick))
		return -1;
	clean_name(f->filename, name, sizeof name);
	int n = 0;
	for (irc_dcc *d = c->dccs; d; d = d->next) {
		if (d->over)
			continue;
		/* Asked again while the offer stands: it is not made twice. */
		if (!irc_cmp(c, d->user, user) && !strcmp(d->name, name))
			return 1;
		n++;
	}
	if (n >= IRC_DCC_MAX) {
		LOG(c, "info", "DCC SEND of %s to %s: %d offers stand already; sent another way", name, nick, n);
		return -1;
	}
	unsigned long addr;
	if (offer_address(c, &addr) < 0) {
		LOG(c, "warn", "DCC SEND: no IPv4 address to offer (set dcc_address); %s is sent another way", name);
		return -1;
	}
	irc_dcc *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	d->lfd = d->fd = -1;
	int port = 0;
	d->data = malloc(f->len);
	d->lines = f->nlines > 0 ? calloc((size_t)f->nlines, sizeof *d->lines) : NULL;
	if (!d->data || (f->nlines > 0 && !d->lines) || (d->lfd = listen_on(c, &port)) < 0) {
		if (d->data && d->lfd < 0)
			LOG(c, "warn", "DCC SEND: no port to listen on (%s); %s is sent another way", strerror(errno), name);
		dcc_free(d);
		return -1;
	}
	memcpy(d->data, f->data, f->len);
	d->len = f->len;
	for (int i = 0; i < f->nlines; i++) {
		if (!(d->lines[i] = strdup(f->lines[i] ? f->lines[i] : ""))) {
			dcc_free(d);
			return -1;
		}
		d->nlines++;
	}
	d->flags = f->flags;
	irc_set_str(d->user, sizeof d->user, user);
	irc_set_str(d->nick, sizeof d->nick, nick);
	irc_set_str(d->name, sizeof d->name, name);
	d->deadline = loop_time(c->base.ev) + c->set.dcc_timeout_ms;
	d->next = c->dccs;
	c->dccs = d;
	char offer[IRC_DCC_NAME_MAX + 96];
	snprintf(offer, sizeof offer, "\001DCC SEND %s %lu %d %zu\001", name, addr, port, d->len);
	irc_queue_text(c, "PRIVMSG", nick, user, 0, offer);
	LOG(c, "info", "DCC SEND of %s (%zu bytes) offered to %s on port %d", name, d->len, nick, port);
	return 1;
}

/* The client's connection: bytes out, acks in. */
static void transfer(irc *c, irc_dcc *d, fd_set *rd, fd_set *wr)
{
	if (FD_ISSET(d->fd, rd)) {
		unsigned char buf[256];
		ssize_t r = recv(d->fd, buf, sizeof buf, 0);
		if (r > 0) {
			/* Acks are 4-byte big-endian counts; the last whole one counts. */
			for (ssize_t i = 0; i < r; i++) {
				d->ack[d->nack++] = buf[i];
				if (d->nack == 4) {
					d->acked = (uint32_t)d->ack[0] << 24 | (uint32_t)d->ack[1] << 16
						   | (uint32_t)d->ack[2] << 8 | d->ack[3];
					d->nack = 0;
					d->deadline = loop_time(c->base.ev) + c->set.dcc_timeout_ms;
				}
			}
			if (d->sent == d->len && d->acked == (uint32_t)d->len) {
				d->over = 1;
				LOG(c, "info", "DCC SEND of %s to %s: %zu bytes delivered", d->name, d->nick, d->len);
				return;
			}
		} else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			/* A client that closes once it has every byte, without
			 * the last ack, has the file too. */
			if (d->sent == d->len && (r == 0 || d->acked == (uint32_t)d->len)) {
				d->over = 1;
				LOG(c, "info", "DCC SEND of %s to %s: %zu bytes delivered", d->name, d->nick, d->len);
			} else {
				fail(c, d, r == 0 ? "the client closed before the end" : strerror(errno));
			}
			return;
		}
	}
	if (d->sent < d->len && FD_ISSET(d->fd, wr)) {
		ssize_t w = send(d->fd, d->data + d->sent, d->len - d->sent, MSG_NOSIGNAL);
		if (w > 0) {
			d->sent += (size_t)w;
			d->deadline = loop_time(c->base.ev) + c->set.dcc_timeout_ms;
		} else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			fail(c, d, strerror(errno));
		}
	}
}

void irc_dcc_prepare(irc *c, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms)
{
	int64_t now = loop_time(c->base.ev);
	for (irc_dcc **pp = &c->dccs; *pp;) {
		irc_dcc *d = *pp;
		if (!d->over && now >= d->deadline)
			fail(c, d, d->fd < 0 ? "not taken in time" : "no progress in time");
		if (d->over) {
			*pp = d->next;
			dcc_free(d);
			continue;
		}
		int fd = d->fd >= 0 ? d->fd : d->lfd;
		FD_SET(fd, rd);
		if (d->fd >= 0 && d->sent < d->len)
			FD_SET(fd, wr);
		if (fd > *maxfd)
			*maxfd = fd;
		long left = (long)(d->deadline - now);
		if (*timeout_ms < 0 || left < *timeout_ms)
			*timeout_ms = left;
		pp = &d->next;
	}
}

void irc_dcc_dispatch(irc *c, fd_set *rd, fd_set *wr)
{
	for (irc_dcc *d = c->dccs; d; d = d->next) {
		if (d->over)
			continue;
		if (d->fd < 0 && d->lfd >= 0 && FD_ISSET(d->lfd, rd)) {
			int fd = accept(d->lfd, NULL, NULL);
			if (fd < 0)
				continue;
			if (fd >= FD_SETSIZE || fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
				close(fd);
				continue;
			}
			/* One client: nobody else may take the file now. */
			close_fd(&d->lfd);
			d->fd = fd;
			d->deadline = loop_time(c->base.ev) + c->set.dcc_timeout_ms;
			LOG(c, "debug", "DCC SEND of %s: %s's client connected", d->name, d->nick);
			continue;
		}
		if (d->fd >= 0)
			transfer(c, d, rd, wr);
	}
}

void irc_dcc_free_all(irc *c)
{
	while (c->dccs) {
		irc_dcc *d = c->dccs;
		c->dccs = d->next;
		dcc_free(d);
	}
}
