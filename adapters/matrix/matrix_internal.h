/* matrix_internal.h: what the Matrix adapter's files share: limits, the adapter's state, cross-file functions.
 *
 * Private to adapters/matrix*.c: nothing outside the adapter includes it
 * (the public face is matrix.h). Functions shared between the files carry
 * the mx_ prefix; each is described where it is defined.
 */
#ifndef CARDBOT_MATRIX_INTERNAL_H
#define CARDBOT_MATRIX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>
#include <json-c/json.h>
#include "strbuf.h"
#include "loop.h"
#include "log.h"
#include "matrix.h"
#include "matrix_crypto.h"

#define MX_SEND_TIMEOUT_MS 30000     /* one send, login, join...: then it counts as a network error */
#define MX_CONNECT_TIMEOUT_MS 10000
#define MX_RESPONSE_MAX (64 * 1024)  /* any reply but /sync */
#define MX_SYNC_MAX (32 * 1024 * 1024) /* a /sync reply: huge ones are refused, not swallowed */
#define MX_NAME_MAX 64               /* display names are cut to this (bytes, UTF-8 whole) */
#define MX_BATCH_MAX 8000            /* lines merged into one event: at most this much body */
#define MX_BATCH_LINES 24            /* ...and this many lines */
#define MX_QUEUE_MAX 500             /* lines waiting for one room; older ones are dropped past it */
#define MX_TOKEN_MAX 1024            /* a since token or a filter id */
#define MX_STATE_MAX (64 * 1024)     /* the saved direct-room map */
#define MX_MEMBERS_MAX 5000          /* members remembered per room (for names and mentions) */
#define MX_RETRY_AFTER_MAX 600000    /* a 429 asking for more than 10 minutes gets 10 */
#define MX_FILE_MAX (8 * 1024 * 1024) /* a file sent to someone (send_file): larger ones are refused */
#define MX_FILES_BYTES_MAX (32 * 1024 * 1024) /* all files waiting to be uploaded, together */
#define MX_ASK_DELAY_MS 4000         /* a player not in their direct room this long after a line is asked to join */
/* The budget (matrix_budget.c): Synapse's default message limit is
 * the first guess; a job waiting MX_AGE_MS counts one class more urgent, so
 * nothing waits for ever behind busier rooms. */
#define MX_RATE_GUESS 0.2            /* rc_message per_second, as Synapse ships */
#define MX_BURST_GUESS 10.0          /* rc_message burst_count */
#define MX_RATE_MIN 0.005            /* a learnt rate is never taken below this (one message in 200 s) */
#define MX_AGE_MS 45000
#define MX_SLOW_MS 10000             /* a room line waiting this long: the room is told, once, that it is slow */
#define MX_SLOW_AGAIN_MS 300000      /* ...and again only after this long */
#define MX_PROBE_MS 15000            /* no limit assumed: each this long without a 429, the learnt rate doubles */
#define MX_UNLIMIT_MS 60000          /* ...and after this long without one, the model is dropped */
#define MX_429_BACKOFF 3             /* a request refused this often in a row also backs off */
#define MX_LABEL_MAX 96              /* a room's name as kept for labels */
#define MX_TIMELY_MS 4000            /* an ADAPTER_TIMELY line not sent by then is dropped */
/* End-to-end encryption (matrix_e2ee.c). */
#define MX_UNREADABLE_MS 10000       /* an encrypted message still without its key this long: the sender is told */
#define MX_PENDING_KEEP_MS 600000    /* ...and it is kept this long for a late key */
#define MX_PENDING_MAX 200           /* encrypted messages waiting for their keys, all rooms together */
#define MX_KNOWN_MAX 5000            /* users whose devices the bot follows */
#define MX_KEYREQS_MAX 64            /* key requests waiting for an answer, all users together: more are dropped */
#define MX_KEYREQS_USER 8            /* ...and from one user, so that one cannot crowd out the others */

typedef struct matrix matrix;

enum req_kind {
	REQ_LOGIN, REQ_WHOAMI, REQ_FILTER, REQ_DIRECT_GET, REQ_SYNC, REQ_JOIN, REQ_LEAVE, REQ_FORGET,
	REQ_SEND, REQ_CREATE_DM, REQ_DIRECT_PUT, REQ_UPLOAD,
	REQ_KEYS_UPLOAD, REQ_KEYS_QUERY, REQ_KEYS_CLAIM, REQ_TO_DEVICE,
	REQ_XSIGN_KEYS, REQ_XSIGN_SIG, REQ_VERIFY_SEND,
};

typedef struct mx_req {
	struct mx_req *next;
	matrix *m;
	CURL *h;
	struct curl_slist *hdrs;
	char *out;                  /* request body, owned */
	char *in;                   /* response body */
	size_t inlen, incap, inmax;
	int too_big;
	int kind;
	char room[ADAPTER_ID_MAX];  /* join/leave/forget/send: the room; create: the direct room's user */
	int join_via_invite;        /* REQ_JOIN after an invite (not a configured room) */
	unsigned long file_id;      /* REQ_UPLOAD: which queued file */
	int solo;                   /* a budgeted request sent while no other was out (see bud_refused) */
	char errbuf[CURL_ERROR_SIZE];
} mx_req;

/* A file in a send queue: uploaded first, then sent as an m.file event in
 * its turn among the lines (the message's text is the file name). */
typedef struct mx_file {
	unsigned long id;
	char *data;                 /* the bytes, until they are uploaded */
	size_t len;
	char mime[128];
	char uri[512];              /* the mxc:// URI once uploaded, else "" */
	/* In an encrypted room the bytes go up encrypted (the spec's
	 * "Sending encrypted attachments": AES-256-CTR, the key in the event,
	 * which megolm encrypts): key (unpadded base64url), iv and the
	 * ciphertext's SHA-256 (unpadded base64). enc 0: sent as they are. */
	int enc;
	char key[48], iv[32], sha256[48];
} mx_file;

/* How urgent a job is, most urgent first (docs/MATRIX.md, "Sending"). */
enum mx_class { CLS_REPLY, CLS_ROOM, CLS_PRIVATE, CLS_CREATE };

typedef struct mx_msg {
	struct mx_msg *next;
	int flags;
	int cls;                    /* enum mx_class */
	int64_t at;                 /* when it was queued (loop_now) */
	mx_file *file;              /* NULL for a line of text */
	char mention[ADAPTER_ID_MAX]; /* the user the line alerts (adapter_msg.mention), "" nobody */
	char story[ADAPTER_ID_MAX]; /* ADAPTER_REPLACES: the room whose story the line tells (adapter_tag),
	                             * "" unknown: the line's "[label:" start stands for it */
	char text[];
} mx_msg;

typedef struct mx_member {
	char user[ADAPTER_ID_MAX];
	char name[MX_NAME_MAX];
} mx_member;

typedef struct mx_room {
	struct mx_room *next;
	struct matrix *m;              /* its adapter (for timers) */
	char id[ADAPTER_ID_MAX];       /* "" while a direct room is being created */
	int joined;                    /* the bot is in it (as /sync says) */
	int ready_told;                /* host->room_ready said for this stay */
	int joining;                   /* a join request is out */
	int gone;                      /* left or being left: sends are dropped */
	int left_done;                 /* the leave is complete: the record may be freed */
	char dm_user[ADAPTER_ID_MAX];  /* a direct room: with whom; "" otherwise */
	char alias[ADAPTER_ID_MAX];    /* its canonical alias ("#304:example.org"), "" when none */
	char name[MX_LABEL_MAX];       /* its m.room.name, cleaned, "" when none */
	int num;                       /* a table room's short number for private commands (0: none yet) */
	int create_wanted;             /* a direct room to make when the budget allows */
	int64_t create_at;             /* since when */
	int n429;                      /* refusals (429) in a row */
	int join_invited;              /* a join to retry was after an invitation */
	int64_t slow_at;               /* when the room was last told that the bot is slowed (0: never) */
	int dm_creating;               /* createRoom is out */
	int partner_joined;            /* the direct room's user is in it */
	int partner_told;              /* they were asked (in a shared room) to accept the invitation */
	int encrypted;                 /* encryption was turned on: say so once, then leave */
	int leave_when_sent;
	int batch_enc;                 /* batch holds the encrypted content (m.room.encrypted): resent as it is */
	int e2ee_fresh;                /* the room's outbound session was renewed since the start */
	/* The send queue: lines wait here; one event is in flight at a time. */
	mx_msg *head, *tail;
	int nqueued;
	char *batch;                   /* the event content in flight or to retry (JSON), owned */
	char txn[64];                  /* its transaction id: the same on every retry */
	int batch_lines;
	int attempts;
	int sending;                   /* a PUT is out */
	uint64_t retry_timer;
	void (*retry_fn)(void *);       /* what retry_timer calls (send_retry_fire or create_dm_retry) */
	uint64_t ask_timer;            /* asking the player to accept the direct room */
	mx_member *members;
	int nmembers;
	size_t capmembers;
} mx_room;

struct matrix {
	adapter base;                  /* first: the adapter head */
	matrix_settings set;
	CURLM *multi;
	int source_id;
	uint64_t tick_timer;
	mx_req *reqs;
	mx_room *rooms;
	char token[MATRIX_FIELD_MAX];  /* the access token in use */
	char device[MATRIX_FIELD_MAX];
	char filter_id[MX_TOKEN_MAX];
	char since[MX_TOKEN_MAX];
	int started, stopping, fatal, linked;
	int joined_configured;         /* the configured rooms were joined (after the first sync) */
	int synced_once;               /* a sync has been processed since the start */
	mx_req *sync_req;
	uint64_t sync_timer, start_timer;
	void (*start_fn)(void *);      /* what start_timer calls (start_step or filter_retry) */
	int sync_failures, start_failures;
	unsigned long long txn_base;
	unsigned long txn_counter;
	uint64_t rnd;
	/* The budget: a model of the homeserver's message limit for the
	 * account (a bucket of bud_burst tokens refilled at bud_rate a second). */
	int bud_on;                    /* a limit is assumed or was met */
	double bud_tokens, bud_rate, bud_burst;
	int64_t bud_at;                /* when bud_tokens was last brought up to date */
	int64_t last_ok, last_429;     /* the last budgeted request that succeeded, the last 429 */
	int64_t bud_raised;            /* when the model last loosened (no limit assumed) */
	unsigned long n429;
	uint64_t disp_timer;           /* the next look at what to send */
	int64_t disp_due;
	const char *cb_user, *cb_room; /* during host->message: who spoke, and where (NULL: in private) */
	char tag_story[ADAPTER_ID_MAX]; /* the host's tag (adapter_tag.story) for lines sent now; "" none */
	int room_serial;               /* the last short number given to a table room */
	int direct_dirty;              /* m.direct must be written again */
	int direct_putting;
	size_t file_bytes;             /* bytes of queued files not yet uploaded */
	unsigned long file_serial;
	/* End-to-end encryption (matrix_e2ee.c); crypto is NULL when it is off. */
	mx_crypto *crypto;
	int otk_count;                 /* one-time keys the server holds for the bot (-1: unknown) */
	int uploading;                 /* a /keys/upload is out */
	mx_req *key_req;               /* the query, claim or to-device request out (one at a time) */
	int key_failures;              /* such requests failed in a row (their back-off) */
	struct mx_known *known;        /* users whose device lists were read this run */
	int nknown, capknown;
	struct mx_pending *pending;    /* encrypted messages waiting for their keys, oldest first */
	int npending;
	uint64_t e2ee_timer;           /* looks at the waiting messages */
	unsigned long todev_serial;
	struct mx_keyreq *keyreqs;     /* key requests waiting, oldest first (MX_KEYREQS_MAX of them once used) */
	int nkeyreqs;
	/* Cross-signing and verification (matrix_verify.c). */
	int xsign_out;                 /* a cross-signing upload is out */
	int xsign_authed;              /* the password was given once this run */
	int xsign_stuck;               /* refused for good this run (logged) */
	int xsign_failures;
	int64_t xsign_retry_at;        /* no new try before this (loop_now) */
	struct mx_verif *verifs;       /* verifications under way */
	int nverifs;
	struct mx_vsend *vsend;        /* verification events to send, in order */
	int nvsend, vsend_out;
	int64_t vsend_retry_at;        /* the head of vsend waits until then (a 429, a failure) */
	uint64_t verify_timer;         /* reads the operator's answers */
};


#define LOG(m, lvl, ...) mx_log(m, lvl, __VA_ARGS__)

/* ---- matrix.c ---- */
__attribute__((format(printf, 3, 4)))
void mx_log(const matrix *m, const char *level, const char *fmt, ...);
long mx_backoff_ms(matrix *m, int failures);
size_t mx_utf8_len(const unsigned char *s);
int mx_text_ok(const char *str);
void mx_copy_clean(char *dst, size_t len, const char *src, int drop_ctl);
int mx_is_user_id(const char *s);
int mx_is_room_id(const char *s);
const char *mx_jstr(json_object *o, const char *key);
json_object *mx_jget(json_object *o, const char *key, json_type t);
void mx_link_state(matrix *m, int up, const char *why);
void mx_fatal(matrix *m, const char *why);
void mx_start_retry(matrix *m, const char *what, const char *why);
void mx_state_set(matrix *m, const char *key, const char *value);
const char *mx_words(matrix *m, const mx_room *r, int what, const char *name, const char *english, char *out,
		     size_t len);
void mx_start_step(void *ctx);
void mx_upload_filter(matrix *m);
void mx_direct_load(matrix *m, json_object *map, int from_server);
void mx_direct_save(matrix *m);
void mx_filter_retry(void *ctx);
void mx_after_filter(matrix *m);
void mx_after_direct(matrix *m);

/* ---- matrix_html.c ---- */
void mx_ob_str(strbuf *b, const char *s);
void mx_html_escape(strbuf *b, const char *s, size_t n);
void mx_render_into(const char *text, size_t n, strbuf *body, strbuf *html);

/* ---- matrix_rooms.c ---- */
mx_room *mx_room_find(matrix *m, const char *id);
void mx_withdraw(matrix *m, const char *room);
mx_room *mx_room_add(matrix *m, const char *id);
mx_room *mx_room_get(matrix *m, const char *id);
mx_room *mx_dm_find(matrix *m, const char *user);
void mx_file_drop_data(matrix *m, mx_file *f);
void mx_msg_free(matrix *m, mx_msg *msg);
void mx_queue_clear(mx_room *r);
mx_member *mx_member_find(mx_room *r, const char *user);
void mx_member_set(mx_room *r, const char *user, const char *name);
void mx_member_remove(mx_room *r, const char *user);
void mx_display_name(mx_room *r, const char *user, char *out, size_t len);
void mx_join_room(matrix *m, const char *room, int via_invite);
void mx_leave_room(matrix *m, const char *room, const char *why);
void mx_forget_room(matrix *m, const char *room);
void mx_room_left(matrix *m, const char *room, const char *why);
void mx_join_retry_fire(void *ctx);

/* ---- matrix_http.c ---- */
size_t mx_on_body(char *ptr, size_t size, size_t nmemb, void *ud);
void mx_req_free(mx_req *q);
void mx_req_unlink(matrix *m, mx_req *q);
void mx_path_escape(matrix *m, const char *seg, char *out, size_t len);
mx_req *mx_request_raw(matrix *m, int kind, const char *method, const char *path, char *body, size_t blen,
			   const char *ctype, long timeout_ms);
mx_req *mx_request(matrix *m, int kind, const char *method, const char *path, char *body, long timeout_ms);
char *mx_json_text(json_object *o);
void mx_error_text(json_object *body, char *out, size_t len);
long mx_retry_after(json_object *body);
void mx_on_done(matrix *m, mx_req *q, CURLcode rc, long status);
void mx_src_prepare(void *ctx, fd_set *rd, fd_set *wr, int *maxfd, long *timeout_ms);
void mx_src_dispatch(void *ctx, fd_set *rd, fd_set *wr);

/* ---- matrix_budget.c ---- */
long mx_bud_wait(matrix *m, double cost);
void mx_bud_spend(matrix *m, double cost);
void mx_bud_refused(matrix *m, long retry_ms, int solo);
int mx_budget_solo(const matrix *m, const mx_req *q);
void mx_kick(matrix *m, long ms);

/* ---- matrix_send.c ---- */
void mx_enqueue(matrix *m, mx_room *r, const char *text, int flags);
/* The same, alerting mention (NULL: nobody). */
void mx_enqueue_to(matrix *m, mx_room *r, const char *text, int flags, const char *mention);
void mx_enqueue_msg(matrix *m, mx_room *r, mx_msg *msg);
void mx_ask_fire(void *ctx);
void mx_send_next(matrix *m, mx_room *r);
void mx_dispatch(matrix *m);
void mx_room_retry(matrix *m, mx_room *r, long ms, void (*fn)(void *));
void mx_schedule_send_retry(matrix *m, mx_room *r, long ms);
void mx_send_done(matrix *m, mx_req *q, long status, json_object *body, const char *err);
void mx_upload_done(matrix *m, mx_req *q, long status, json_object *body, const char *err);
void mx_create_dm(matrix *m, mx_room *r);
void mx_create_done(matrix *m, mx_req *q, long status, json_object *body, const char *err);

/* ---- matrix_sync.c ---- */
void mx_sync_now(void *ctx);
const char *mx_table_named(matrix *m, const char *text, char *out, size_t len);
void mx_alias_event(mx_room *r, json_object *e);
void mx_name_event(mx_room *r, json_object *e);
void mx_handle_sync(matrix *m, json_object *body);
void mx_message_event(matrix *m, mx_room *r, json_object *e);

/* ---- matrix_e2ee.c ---- */
int mx_e2ee_start(matrix *m);
void mx_e2ee_free(matrix *m);
void mx_e2ee_sync(matrix *m, json_object *body);
void mx_e2ee_room_encryption(matrix *m, mx_room *r, json_object *e);
void mx_e2ee_member_left(matrix *m, mx_room *r, const char *user);
int mx_e2ee_ready(matrix *m, mx_room *r);
int mx_e2ee_encrypt_batch(matrix *m, mx_room *r);
void mx_e2ee_event(matrix *m, mx_room *r, json_object *e);
void mx_e2ee_done(matrix *m, mx_req *q, long status, json_object *body, const char *err);
void mx_e2ee_fire_timers(matrix *m);
int mx_e2ee_query_user(matrix *m, const char *user);
/* Answers the waiting key requests, one request out at a time (called by the dispatcher). */
void mx_e2ee_answer(matrix *m);

/* ---- matrix_verify.c ---- */
void mx_verify_publish(matrix *m);
void mx_verify_to_device(matrix *m, json_object *e);
void mx_verify_room_event(matrix *m, mx_room *r, json_object *e);
void mx_verify_done(matrix *m, mx_req *q, long status, json_object *body, const char *err);
void mx_verify_free(matrix *m);
void mx_verify_fire_timers(matrix *m);

#endif
