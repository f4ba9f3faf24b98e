/* device.c: `cardbot device`: the Matrix devices the bot has made for end-to-end encryption, and their
 * fingerprints, read from its database, so an operator can verify them in a client. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "device.h"
#include "store.h"

static const char device_help[] =
	"usage: cardbot device DATABASE\n"
	"       cardbot device DATABASE confirm|deny TRANSACTION\n"
	"\n"
	"Prints the Matrix device the bot uses for end-to-end encryption on each\n"
	"network (encryption = true), as kept in its database (data_dir/cardbot.db):\n"
	"the user, the device id, and the device's ed25519 key as a fingerprint in\n"
	"groups of four, the way Element shows a session key. To verify the bot,\n"
	"compare that fingerprint with what your client shows for the bot's session\n"
	"(Element: the bot's profile, Sessions) and mark it verified there.\n"
	"Only public keys are printed; the database holds the private ones,\n"
	"encrypted with the pickle key. Exit status 2 when no network has a device.\n"
	"\n"
	"When a player verifies the bot interactively (Element: Verify, by emoji or\n"
	"numbers), the running bot logs the emoji and numbers it computed, and they\n"
	"are listed here under the verification's transaction id. Ask the player\n"
	"what their client shows; if it is the same, `confirm TRANSACTION` lets the\n"
	"bot finish the verification; if not, `deny TRANSACTION` cancels it. The\n"
	"running bot reads the answer from the database within a second.\n";

/* A verification waiting for the operator, as the running bot wrote it. */
static void print_waiting(void *ctx, const char *net, const char *value)
{
	int *shown = ctx;
	json_object *o = json_tokener_parse(value);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return;
	}
	json_object_object_foreach(o, txn, e) {
		json_object *u, *d, *em, *n;
		if (!json_object_object_get_ex(e, "user", &u) || !json_object_object_get_ex(e, "device", &d)
		    || !json_object_object_get_ex(e, "emoji", &em) || !json_object_object_get_ex(e, "decimals", &n))
			continue;
		printf("network %s: verification %s with %s, device %s, waits for you:\n  emoji: %s\n  numbers: %s\n",
		       net, txn, json_object_get_string(u), json_object_get_string(d), json_object_get_string(em),
		       json_object_get_string(n));
		(*shown)++;
	}
	json_object_put(o);
}

#define DEVICE_NETS_MAX 64 /* networks one answer goes to */

/* The networks where a verification waits: found while reading, written
 * after (a write inside the read would upgrade its snapshot, which SQLite
 * refuses at once when the running bot wrote in between). */
struct answer {
	const char *txn;
	char nets[DEVICE_NETS_MAX][128];
	int n;
};

static void find_waiting(void *ctx, const char *net, const char *value)
{
	struct answer *a = ctx;
	json_object *o = json_tokener_parse(value);
	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, a->txn, NULL)
	    && a->n < DEVICE_NETS_MAX && strlen(net) < sizeof a->nets[0])
		snprintf(a->nets[a->n++], sizeof a->nets[0], "%s", net);
	json_object_put(o);
}

/* Adds txn's answer to the network's "e2ee.sas.answer": 0, or -1. */
static int write_answer(store *db, const char *net, const char *txn, const char *what)
{
	char buf[65536];
	json_object *ans = NULL;
	if (store_state_get(db, net, "e2ee.sas.answer", buf, sizeof buf) == 1)
		ans = json_tokener_parse(buf);
	if (!ans || !json_object_is_type(ans, json_type_object)) {
		json_object_put(ans);
		ans = json_object_new_object();
	}
	json_object_object_add(ans, txn, json_object_new_string(what));
	int rc = store_state_set(db, net, "e2ee.sas.answer", json_object_to_json_string(ans));
	json_object_put(ans);
	return rc < 0 ? -1 : 0;
}

static void print_one(void *ctx, const char *net, const char *value)
{
	int *shown = ctx;
	json_object *o = json_tokener_parse(value);
	json_object *u, *d, *f, *c;
	if (!o || !json_object_object_get_ex(o, "user", &u) || !json_object_object_get_ex(o, "device", &d) ||
	    !json_object_object_get_ex(o, "fingerprint", &f) || !json_object_object_get_ex(o, "curve25519", &c)) {
		fprintf(stderr, "cardbot device: network %s: the kept identity is unreadable\n", net);
		json_object_put(o);
		return;
	}
	printf("network %s: %s, device %s\n  fingerprint (ed25519): %s\n  curve25519: %s\n", net,
	       json_object_get_string(u), json_object_get_string(d), json_object_get_string(f),
	       json_object_get_string(c));
	(*shown)++;
	json_object_put(o);
}

int device_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(device_help, stdout);
		return 0;
	}
	if (argc != 2 && !(argc == 4 && (!strcmp(argv[2], "confirm") || !strcmp(argv[2], "deny")))) {
		fputs(device_help, stderr);
		return 64;
	}
	store *db = store_open_existing(argv[1], "device");
	if (!db)
		return 1;
	if (argc == 4) {
		struct answer a = { .txn = argv[3] };
		int n = store_state_each(db, "e2ee.sas.waiting", find_waiting, &a);
		for (int i = 0; n >= 0 && i < a.n; i++)
			if (write_answer(db, a.nets[i], argv[3], argv[2]) < 0)
				n = -1;
		if (n < 0)
			fprintf(stderr, "cardbot device: %s\n", store_error(db));
		else if (!a.n)
			fprintf(stderr, "cardbot device: no verification %s waits (it may have ended or timed out)\n",
				argv[3]);
		store_close(db);
		return n < 0 ? 1 : a.n ? 0 : 2;
	}
	int shown = 0;
	int n = store_state_each(db, "e2ee.identity", print_one, &shown);
	int waiting = 0;
	if (n >= 0 && store_state_each(db, "e2ee.sas.waiting", print_waiting, &waiting) < 0)
		n = -1;
	if (n < 0)
		fprintf(stderr, "cardbot device: %s\n", store_error(db));
	store_close(db);
	if (n < 0)
		return 1;
	if (!shown) {
		fprintf(stderr, "cardbot device: no Matrix network in %s has an encryption device yet (it is made at the "
			"first start with encryption = true)\n", argv[1]);
		return 2;
	}
	return 0;
}
