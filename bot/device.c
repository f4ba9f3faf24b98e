/* device.c: `cardbot device`: the Matrix devices the bot has made for end-to-end encryption, and their
 * fingerprints, read from its database, so an operator can verify them in a client. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "device.h"
#include "store.h"

static const char device_help[] =
	"usage: cardbot device DATABASE\n"
	"\n"
	"Prints the Matrix device the bot uses for end-to-end encryption on each\n"
	"network (encryption = true), as kept in its database (data_dir/cardbot.db):\n"
	"the user, the device id, and the device's ed25519 key as a fingerprint in\n"
	"groups of four, the way Element shows a session key. To verify the bot,\n"
	"compare that fingerprint with what your client shows for the bot's session\n"
	"(Element: the bot's profile, Sessions) and mark it verified there.\n"
	"Only public keys are printed; the database holds the private ones,\n"
	"encrypted with the pickle key. Exit status 2 when no network has a device.\n";

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
	if (argc != 2) {
		fputs(device_help, stderr);
		return 64;
	}
	FILE *probe = fopen(argv[1], "rb");
	if (!probe) {
		fprintf(stderr, "cardbot device: %s: cannot open the database\n", argv[1]);
		return 1;
	}
	fclose(probe);
	char err[STORE_ERR_MAX];
	store *db = store_open(argv[1], err, sizeof err);
	if (!db) {
		fprintf(stderr, "cardbot device: %s\n", err);
		return 1;
	}
	int shown = 0;
	int n = store_state_each(db, "e2ee.identity", print_one, &shown);
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
