/* irc.h: the IRC adapter (libircclient, with TLS and SASL through a local relay). */
#ifndef CARDBOT_IRC_H
#define CARDBOT_IRC_H

#include "adapter.h"

#define IRC_CHANNELS_MAX 64
#define IRC_FIELD_MAX 256

typedef struct irc_channel {
	char name[IRC_FIELD_MAX];  /* "#304" */
	char key[IRC_FIELD_MAX];   /* "" for none */
} irc_channel;

/* Everything the adapter needs; filled by bot/config/config.c. Secrets are already
 * resolved (from the file, the environment or the config itself). */
typedef struct irc_settings {
	char server[IRC_FIELD_MAX];     /* host name or address */
	int port;                       /* 6667 plain, 6697 TLS by convention */
	int tls;                        /* connect with TLS (certificate verified) */
	char ca_file[IRC_FIELD_MAX];    /* "" = the system's CA store */
	char fingerprint[IRC_FIELD_MAX];/* "" or a SHA-256 of the server certificate, hex (colons allowed): pins it */
	int tls_verify;                 /* 1 (default): refuse an unverified certificate */
	char nick[IRC_FIELD_MAX];
	char username[IRC_FIELD_MAX];
	char realname[IRC_FIELD_MAX];
	char server_password[IRC_FIELD_MAX]; /* PASS, "" for none */
	char sasl_user[IRC_FIELD_MAX];  /* SASL PLAIN when both are set */
	char sasl_password[IRC_FIELD_MAX];
	char nickserv_password[IRC_FIELD_MAX]; /* "PRIVMSG NickServ :IDENTIFY ..." after connect, "" for none */
	irc_channel channels[IRC_CHANNELS_MAX];
	int nchannels;
	int private_notice;             /* private lines as NOTICE (1) or PRIVMSG (0), unless the person chose */
	double pace_burst;              /* token bucket: lines that may go at once */
	double pace_per_second;         /* then this many lines a second */
	int reconnect_min_ms;           /* backoff after a disconnect: from this... */
	int reconnect_max_ms;           /* ...doubling up to this, with jitter */
	int accept_invites;             /* join channels the bot is invited to */
	/* Files (a match record) offered by DCC SEND: the person's client
	 * connects to the bot, so the bot must be reachable from outside. */
	int dcc;                        /* offer files by DCC (0: off, the default; they come as lines) */
	char dcc_listen[IRC_FIELD_MAX]; /* the IPv4 address to listen on ("": every address) */
	char dcc_address[IRC_FIELD_MAX];/* the IPv4 address told to clients ("": the local address of
					 * the link to the server, right unless the bot is behind NAT) */
	int dcc_port_min, dcc_port_max; /* the ports to listen on (0 and 0: any the system gives) */
	int dcc_timeout_ms;             /* an offer not taken, or a transfer stalled, this long: the
					 * file comes as lines instead */
} irc_settings;

/* Sensible defaults: port 6667, no TLS, pace burst 4 then 1 line a second,
 * reconnect from 2 s to 5 minutes, private lines by PRIVMSG (a window of their
 * own in every common client; NOTICE lands in irssi's status window). */
void irc_settings_default(irc_settings *s);

/* A new IRC adapter on loop `ev` reporting to `host`; NULL on failure.
 * The settings are copied. Call ops->start to connect. */
adapter *irc_adapter_new(loop *ev, const adapter_host *host, const char *name, const irc_settings *s);

#endif
