/* config_default.c: the configuration cardbot uses when given none: a local IRC server and one channel. */
#include "config.h"

/* Checked by `cardbot check-config --default` and tests/cli/config_check.py: it
 * must pass the same validation as any file. */
static const char default_text[] =
	"# cardbot's built-in configuration: one IRC server on this machine, one\n"
	"# channel, every other setting at its default. config/cardbot.cfg shows\n"
	"# and explains every key.\n"
	"\n"
	"bot = {\n"
	"  prefix = \"!\";\n"
	"};\n"
	"\n"
	"tables = {\n"
	"  pace = \"casual\";\n"
	"};\n"
	"\n"
	"networks = (\n"
	"  {\n"
	"    name = \"local\";\n"
	"    type = \"irc\";\n"
	"    server = \"127.0.0.1\";\n"
	"    port = 6667;\n"
	"    tls = false;\n"
	"    nick = \"cardbot\";\n"
	"    channels = ( \"#304\" );\n"
	"  }\n"
	");\n";

const char *config_default_text(void) { return default_text; }
