/* fuzz_config.c: the configuration loader (bot/config/config.c, bot/config/schema.c), from text in memory.
 *
 * The input is a would-be cardbot.cfg, given to config_load_string as
 * `cardbot check-config` gives a file. A load that succeeds must hold what
 * config.h promises (counts in range, strings terminated); a failed one
 * must say why. The messages are printed to a sink, as check-config would.
 *
 * The loader reads files a config names (KEY_file, ca_file, @include).
 * Inputs naming a device, /proc, /sys or /run are skipped: reading
 * /dev/stdin or /proc/kmsg would block the fuzzer, and that is the file
 * system's behaviour, not the loader's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fuzz.h"

#define INPUT_MAX (64 * 1024)

/* libconfig 1.5 (Debian 12) leaks its string buffer when a syntax error
 * comes inside a quoted string (corpus/config/libconfig-leak-in-string):
 * 64 bytes, once, in a process that then exits on the error. It is the
 * library's, not ours; LeakSanitizer is told to ignore leaks it allocated. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libconfig.so\n";
}

static FILE *sink;

static int names_special_file(const char *text, size_t size)
{
	static const char *const bad[] = { "/dev", "/proc", "/sys", "/run", "dev/", "proc/", "sys/" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t n = strlen(bad[i]);
		for (size_t k = 0; k + n <= size; k++)
			if (!memcmp(text + k, bad[i], n))
				return 1;
	}
	return 0;
}

static void check_text(const char *s, size_t cap)
{
	FUZZ_ASSERT(memchr(s, '\0', cap) != NULL);
	for (const char *c = s; *c; c++)
		FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > INPUT_MAX || names_special_file((const char *)data, size))
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	config c;
	config_errors errs = { 0 };
	int n = config_load_string(text, "fuzz.cfg", &c, &errs);
	config_errors_print(&errs, sink);
	FUZZ_ASSERT(n == errs.nerrors);
	FUZZ_ASSERT(errs.n <= CONFIG_MESSAGES_MAX && errs.n <= errs.nerrors + errs.nwarnings);
	if (n == 0) {
		FUZZ_ASSERT(c.nnetworks >= 1 && c.nnetworks <= CONFIG_NETWORKS_MAX);
		FUZZ_ASSERT(c.bot.noperators >= 0 && c.bot.noperators <= CONFIG_OPERATORS_MAX);
		check_text(c.bot.prefix, sizeof c.bot.prefix);
		FUZZ_ASSERT(c.bot.prefix[0]);
		for (int i = 0; i < c.bot.noperators; i++)
			check_text(c.bot.operators[i].text, sizeof c.bot.operators[i].text);
		for (int i = 0; i < c.nnetworks; i++) {
			const config_network *net = &c.networks[i];
			check_text(net->name, sizeof net->name);
			check_text(net->irc.server, sizeof net->irc.server);
			check_text(net->irc.nick, sizeof net->irc.nick);
			FUZZ_ASSERT(net->irc.port >= 1 && net->irc.port <= 65535);
			FUZZ_ASSERT(net->irc.nchannels >= 0 && net->irc.nchannels <= IRC_CHANNELS_MAX);
			for (int j = 0; j < net->irc.nchannels; j++) {
				check_text(net->irc.channels[j].name, sizeof net->irc.channels[j].name);
				(void)config_channel_table(&c, net, NULL, net->irc.channels[j].name);
			}
		}
		config_free(&c);
	}
	config_errors_free(&errs);
	free(text);
	return 0;
}
