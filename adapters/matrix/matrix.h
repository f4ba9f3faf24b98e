/* matrix.h: the Matrix adapter (Client-Server API over libcurl's multi interface, JSON by json-c). */
#ifndef CARDBOT_MATRIX_H
#define CARDBOT_MATRIX_H

#include "adapter.h"

#define MATRIX_FIELD_MAX 256
#define MATRIX_ROOMS_MAX 64
#define MATRIX_ALLOW_MAX 64

/* Everything the adapter needs; filled by bot/config/config.c. Secrets are already
 * resolved (from the file, the environment or the config itself). */
typedef struct matrix_settings {
	char homeserver[MATRIX_FIELD_MAX];  /* base URL: "https://matrix.example.org" */
	char user_id[MATRIX_FIELD_MAX];     /* "@cardbot:example.org" */
	char password[MATRIX_FIELD_MAX];    /* log in with this... */
	char access_token[MATRIX_FIELD_MAX];/* ...or use this token (one of the two) */
	char device_id[MATRIX_FIELD_MAX];   /* "" = the one kept from the last login, else the server's */
	char ca_file[MATRIX_FIELD_MAX];     /* "" = the system's CA store */
	int tls_verify;                     /* 1 (default): refuse an unverified certificate */
	char rooms[MATRIX_ROOMS_MAX][MATRIX_FIELD_MAX]; /* room ids or aliases joined at start */
	int nrooms;
	int accept_invites;                 /* join rooms the bot is invited to */
	/* Who may invite: "@user:server" exactly, or "server" for anyone on it.
	 * Empty: anyone. */
	char invite_allow[MATRIX_ALLOW_MAX][MATRIX_FIELD_MAX];
	int ninvite_allow;
	int sync_timeout_ms;                /* long-poll time of /sync */
	int backoff_min_ms;                 /* after a failed request: from this... */
	int backoff_max_ms;                 /* ...doubling up to this, with jitter */
	/* The homeserver limits the bot's messages (the network's rate_limited):
	 * the adapter keeps to Synapse's default limit (0.2 a second after a
	 * burst of 10) from the start, and learns the real one from 429s.
	 * 0: no limit is assumed until the first 429. */
	int assume_limit;
	int rate_per_minute;                /* the limit's first guess: messages a minute (Synapse: 12)... */
	int rate_burst;                     /* ...after a burst of this many (Synapse: 10) */
	/* End-to-end encryption (adapters/matrix/matrix_e2ee.c): 1 to play in
	 * encrypted rooms and make direct rooms encrypted; the pickle key
	 * (a secret of at least 16 bytes) encrypts the keys kept in the
	 * database. 0: encrypted rooms are told so and left. */
	int encryption;
	char pickle_key[MATRIX_FIELD_MAX];
	/* The account's password for the homeserver's interactive auth when
	 * the cross-signing keys first go up (the login password serves when
	 * the bot logs in with one). "" none. */
	char uia_password[MATRIX_FIELD_MAX];
} matrix_settings;

/* Defaults: invites accepted from anyone, 30 s long polls, backoff from
 * 1 s to 5 minutes, certificates verified. */
void matrix_settings_default(matrix_settings *s);

/* A new Matrix adapter on loop `ev` reporting to `host`; NULL on failure.
 * The settings are copied. Call ops->start to log in and sync. */
adapter *matrix_adapter_new(loop *ev, const adapter_host *host, const char *name, const matrix_settings *s);

/* Turns text with mIRC control codes (\x03NN colours, \x02 bold, \x1d
 * italic, \x1f underline, \x0f reset) into a plain body (codes removed) and
 * an HTML formatted_body (org.matrix.custom.html) with every character of
 * the text escaped. Both outputs are always NUL-terminated and cut, never
 * mid-character, to their sizes. Exposed for the tests. */
void matrix_render(const char *text, char *body, size_t body_len, char *html, size_t html_len);

/* For the tests and the fuzzer only (tests/fuzz/fuzz_matrix_sync.c); the
 * bot never calls it. Answers the oldest request of `kind` the adapter has
 * out as if the homeserver had replied: HTTP `status` (0 or less: the
 * connection failed) with the `len` bytes at `body` (not NUL-terminated;
 * any bytes at all), parsed and handled exactly as a reply from the
 * network. Kinds: "login", "whoami", "filter", "direct_get" (m.direct),
 * "sync", "join", "leave", "forget", "send", "createRoom", "direct_put",
 * "upload". The kind "timers" instead makes every timer the adapter has set
 * come due at once (retries, backoffs, the wait after a 429). Requests
 * the adapter makes meanwhile wait on its curl multi handle; none goes
 * out unless the loop runs (a test never runs it while the adapter lives).
 * Returns 0, or -1 when no request of that kind is out. */
int matrix_feed_reply(adapter *a, const char *kind, long status, const char *body, size_t len);

#endif
