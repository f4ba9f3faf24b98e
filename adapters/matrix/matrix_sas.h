/* matrix_sas.h: interactive verification of the bot's device by short authentication strings (m.sas.v1).
 *
 * One verification with one device of another user, the bot answering
 * (the other side requests and starts; the bot accepts). The operator
 * compares the emoji or numbers and confirms (mx_sas_confirm); the bot
 * then sends its MAC over its device key and its master cross-signing key,
 * so a client that trusts the result trusts the bot's whole identity.
 *
 * No network and no store here: events come in as (type, content) and the
 * events to send go out the same way, without transaction_id or
 * m.relates_to (the caller adds what its transport needs). A verification
 * lives only in memory: a restart ends it (the other side times out).
 */
#ifndef CARDBOT_MATRIX_SAS_H
#define CARDBOT_MATRIX_SAS_H

#include <stddef.h>
#include <json-c/json.h>
#include "matrix_crypto.h"

typedef struct mx_sas mx_sas;

enum mx_sas_state {
	MXS_WAITING,        /* waiting for the other side */
	MXS_SHOW,           /* the strings are known: the operator must compare and confirm */
	MXS_CONFIRMED,      /* the operator confirmed; waiting for the other side's MAC */
	MXS_DONE,           /* both sides' keys verified */
	MXS_CANCELLED,      /* ended without verifying (mx_sas_why says why) */
};

#define MX_SAS_OUT_MAX 2    /* events one step may send */

/* Events to send: type and content (owned by the verification until the next step). */
typedef struct mx_sas_out {
	int n;
	const char *type[MX_SAS_OUT_MAX];
	json_object *content[MX_SAS_OUT_MAX];
} mx_sas_out;

/* A verification with their user's device, under transaction id txn (the
 * request's event id in a room). master: the bot's public master key
 * (NULL: only the device key is offered). NULL on bad ids. */
mx_sas *mx_sas_new(mx_crypto *c, const char *their_user, const char *their_device, const char *txn,
		   const char *master);
void mx_sas_free(mx_sas *s);

/* Reads an m.key.verification.* event of theirs (content as received,
 * transaction_id or m.relates_to included). Writes what to send into out
 * and returns the state after it. A malformed or unexpected event cancels
 * (a cancel is then among the events to send). */
int mx_sas_event(mx_sas *s, const char *type, json_object *content, mx_sas_out *out);
/* The operator's answer in MXS_SHOW: match 1 (the strings are the same) or
 * 0 (they differ: cancelled as m.mismatched_sas). Returns the state after. */
int mx_sas_confirm(mx_sas *s, int match, mx_sas_out *out);
/* Cancels (timed out, or the bot stops): a cancel to send, unless done. */
void mx_sas_cancel(mx_sas *s, const char *code, const char *why, mx_sas_out *out);

int mx_sas_state(const mx_sas *s);
const char *mx_sas_txn(const mx_sas *s);
const char *mx_sas_user(const mx_sas *s);
const char *mx_sas_device(const mx_sas *s);
/* In MXS_SHOW and after: the seven emoji with their names ("🐶 Dog, ...")
 * and the three numbers ("1234 5678 9012"); "" before. */
const char *mx_sas_emoji(const mx_sas *s);
const char *mx_sas_decimals(const mx_sas *s);
/* Why it was cancelled ("" otherwise). */
const char *mx_sas_why(const mx_sas *s);

#endif
