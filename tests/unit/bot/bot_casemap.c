/* bot_casemap.c: IRC names folded by each CASEMAPPING (lib/casemap.c); the 005 tokens read (adapters/irc/ircline.c). */
#include <string.h>
#include "casemap.h"
#include "check.h"
#include "ircline.h"

/* Are a and b one name under rule m? */
static int same(casemap m, const char *a, const char *b)
{
	return casemap_cmp(m, a, b) == 0;
}

static void test_rules(void)
{
	/* Every rule folds the ASCII letters and nothing else beyond its own. */
	for (int r = CASEMAP_ASCII; r <= CASEMAP_STRICT_RFC1459; r++) {
		casemap m = (casemap)r;
		CHECK(same(m, "Alice", "aLICE"), "%s: letters fold", casemap_name(m));
		CHECK(!same(m, "alice", "alice_"), "%s: a longer name differs", casemap_name(m));
		CHECK(!same(m, "alice", "alic"), "%s: a shorter name differs", casemap_name(m));
		CHECK(same(m, "", ""), "%s: empty names are equal", casemap_name(m));
		CHECK(!same(m, "\xc3\x84", "\xc3\xa4"), "%s: no byte past ASCII folds (no locale)", casemap_name(m));
		CHECK(!same(m, "a@", "a`"), "%s: @ and ` are apart", casemap_name(m));
		CHECK(casemap_cmp(m, "a", "b") < 0 && casemap_cmp(m, "B", "a") > 0,
		      "%s: ordered as strcmp of the folds", casemap_name(m));
	}
	/* ascii: the brackets are four other characters (ngircd, InspIRCd 4, UnrealIRCd). */
	CHECK(!same(CASEMAP_ASCII, "alice[", "alice{"), "ascii: [ and { are two nicks");
	CHECK(!same(CASEMAP_ASCII, "a]", "a}") && !same(CASEMAP_ASCII, "a\\", "a|") && !same(CASEMAP_ASCII, "a~", "a^"),
	      "ascii: ]}, \\|, ~^ are apart");
	CHECK(!same(CASEMAP_ASCII, "ALICE{", "alice["), "ascii: ALICE{ is not alice[");
	/* rfc1459: {}|^ are the lower case of []\~. */
	CHECK(same(CASEMAP_RFC1459, "alice[", "alice{") && same(CASEMAP_RFC1459, "ALICE{", "alice["),
	      "rfc1459: [ and { are one");
	CHECK(same(CASEMAP_RFC1459, "a]", "a}") && same(CASEMAP_RFC1459, "a\\", "a|") &&
	      same(CASEMAP_RFC1459, "a~", "a^"), "rfc1459: ]}, \\|, ~^ are one");
	CHECK(casemap_lower(CASEMAP_RFC1459, '[') == '{' && casemap_lower(CASEMAP_RFC1459, '~') == '^',
	      "rfc1459: the lower case of [ is {, of ~ is ^");
	/* strict-rfc1459: the same without ~^. */
	CHECK(same(CASEMAP_STRICT_RFC1459, "a[]\\", "A{}|"), "strict-rfc1459: []\\ fold to {}|");
	CHECK(!same(CASEMAP_STRICT_RFC1459, "a~", "a^"), "strict-rfc1459: ~ and ^ are apart");
	/* ascii never merges what another rule keeps apart: a safe default. */
	for (int c = 0; c < 256; c++)
		for (int d = 0; d < 256; d++) {
			if (casemap_lower(CASEMAP_ASCII, c) != casemap_lower(CASEMAP_ASCII, d))
				continue;
			for (int r = CASEMAP_RFC1459; r <= CASEMAP_STRICT_RFC1459; r++)
				CHECK(casemap_lower((casemap)r, c) == casemap_lower((casemap)r, d),
				      "ascii merges %d and %d, which %s keeps apart", c, d, casemap_name((casemap)r));
		}
}

static void test_match(void)
{
	/* The operator masks' matching: * any run, ? one byte, folded by the rule. */
	CHECK(casemap_match(CASEMAP_ASCII, "boss!*@*", "BOSS!u@h"), "ascii: letters fold in a mask");
	CHECK(!casemap_match(CASEMAP_ASCII, "BOSS{!*@*", "boss[!u@h"), "ascii: { does not match [");
	CHECK(casemap_match(CASEMAP_RFC1459, "BOSS{!*@*", "boss[!u@h"), "rfc1459: { matches [");
	CHECK(casemap_match(CASEMAP_RFC1459, "a~", "A^") && !casemap_match(CASEMAP_STRICT_RFC1459, "a~", "A^"),
	      "~ matches ^ under rfc1459 only");
	CHECK(casemap_match(CASEMAP_ASCII, "*", "") && casemap_match(CASEMAP_ASCII, "", "") &&
	      !casemap_match(CASEMAP_ASCII, "", "x"), "empty texts and masks");
	CHECK(casemap_match(CASEMAP_ASCII, "a?c", "abc") && !casemap_match(CASEMAP_ASCII, "a?c", "ac"),
	      "? is exactly one byte");
	CHECK(casemap_match(CASEMAP_ASCII, "*!*@*.example.org", "n!u@a.b.example.org") &&
	      !casemap_match(CASEMAP_ASCII, "*!*@*.example.org", "n!u@example.org"), "a star backtracks");
	CHECK(casemap_match(CASEMAP_ASCII, "a**b*", "axxbyy") && !casemap_match(CASEMAP_ASCII, "a*b", "axxbyy"),
	      "stars in a row, and a mask that must end where the text ends");
	char many[4097];
	memset(many, 'a', sizeof many - 1);
	many[sizeof many - 1] = '\0';
	CHECK(!casemap_match(CASEMAP_ASCII, "*a*a*a*a*a*a*a*a*b", many), "a hostile mask ends (no b)");
}

static void test_parse(void)
{
	casemap m = CASEMAP_RFC1459;
	CHECK(casemap_parse("ascii", &m) == 1 && m == CASEMAP_ASCII, "ascii is known");
	CHECK(casemap_parse("rfc1459", &m) == 1 && m == CASEMAP_RFC1459, "rfc1459 is known");
	CHECK(casemap_parse("strict-rfc1459", &m) == 1 && m == CASEMAP_STRICT_RFC1459, "strict-rfc1459 is known");
	CHECK(casemap_parse("RFC1459", &m) == 1 && m == CASEMAP_RFC1459, "in any case");
	m = CASEMAP_RFC1459;
	CHECK(casemap_parse("rfc8265", &m) == 0 && m == CASEMAP_ASCII, "an unknown rule is ascii");
	m = CASEMAP_RFC1459;
	CHECK(casemap_parse("", &m) == 0 && m == CASEMAP_ASCII, "an empty one too");
	m = CASEMAP_RFC1459;
	CHECK(casemap_parse(NULL, &m) == 0 && m == CASEMAP_ASCII, "and none");
	CHECK(!strcmp(casemap_name(CASEMAP_STRICT_RFC1459), "strict-rfc1459"), "names as servers write them");
}

static void test_isupport(void)
{
	ircline_isupport s, before;
	ircline_isupport_default(&s);
	CHECK(s.casemap == CASEMAP_ASCII, "before 005 names fold as ascii");
	CHECK(ircline_is_channel(&s, "#304") && ircline_is_channel(&s, "&local") && !ircline_is_channel(&s, "alice"),
	      "before 005 # and & start channels");
	CHECK(!strcmp(s.prefixes, IRCLINE_PREFIXES_DEFAULT), "before 005 every usual status is stripped");

	CHECK(ircline_isupport_token(&s, "CASEMAPPING=rfc1459") == 1 && s.casemap == CASEMAP_RFC1459,
	      "CASEMAPPING read");
	CHECK(ircline_isupport_token(&s, "CASEMAPPING=strict-rfc1459") == 1 && s.casemap == CASEMAP_STRICT_RFC1459,
	      "CASEMAPPING read again");
	CHECK(ircline_isupport_token(&s, "CASEMAPPING=rfc7613") == -1 && s.casemap == CASEMAP_ASCII,
	      "an unknown CASEMAPPING is ascii, and said to be unusable");
	ircline_isupport_token(&s, "CASEMAPPING=rfc1459");
	CHECK(ircline_isupport_token(&s, "-CASEMAPPING") == 1 && s.casemap == CASEMAP_ASCII,
	      "-CASEMAPPING: ascii again");

	CHECK(ircline_isupport_token(&s, "CHANTYPES=#") == 1 && !strcmp(s.chantypes, "#"), "CHANTYPES read");
	CHECK(ircline_is_channel(&s, "#304") && !ircline_is_channel(&s, "&local") && !ircline_is_channel(&s, "+x"),
	      "only # starts a channel now");
	CHECK(ircline_isupport_token(&s, "CHANTYPES=") == 1 && !ircline_is_channel(&s, "#304"), "CHANTYPES= : none");
	CHECK(ircline_isupport_token(&s, "-CHANTYPES") == 1 && ircline_is_channel(&s, "&x"),
	      "-CHANTYPES: the defaults");
	before = s;
	CHECK(ircline_isupport_token(&s, "CHANTYPES=#a") == -1, "a letter cannot start a channel");
	CHECK(ircline_isupport_token(&s, "CHANTYPES=#,") == -1, "nor a comma");
	CHECK(ircline_isupport_token(&s, "CHANTYPES=#&+!#&+!#&+!#&+!") == -1, "too many are refused");
	CHECK(!memcmp(&s, &before, sizeof s), "a refused value changes nothing");

	CHECK(ircline_isupport_token(&s, "PREFIX=(ov)@+") == 1 && !strcmp(s.prefixes, "@+"), "PREFIX read");
	CHECK(ircline_isupport_token(&s, "PREFIX=(qaohv)~&@%+") == 1 && !strcmp(s.prefixes, "~&@%+"), "PREFIX of five");
	CHECK(ircline_isupport_token(&s, "PREFIX=") == 1 && !strcmp(s.prefixes, ""), "PREFIX= : no statuses");
	before = s;
	CHECK(ircline_isupport_token(&s, "PREFIX=(ov)@") == -1, "modes and characters must pair");
	CHECK(ircline_isupport_token(&s, "PREFIX=@+") == -1, "the modes are required");
	CHECK(ircline_isupport_token(&s, "PREFIX=(o)a") == -1, "a letter is no status");
	CHECK(!memcmp(&s, &before, sizeof s), "refused values change nothing");
	CHECK(ircline_isupport_token(&s, "-PREFIX") == 1 && !strcmp(s.prefixes, IRCLINE_PREFIXES_DEFAULT),
	      "-PREFIX: the defaults");

	CHECK(!s.whox && ircline_isupport_token(&s, "WHOX") == 1 && s.whox, "WHOX read");
	CHECK(ircline_isupport_token(&s, "-WHOX") == 1 && !s.whox, "-WHOX read");
	before = s;
	CHECK(ircline_isupport_token(&s, "NICKLEN=30") == 0 && ircline_isupport_token(&s, "CASEMAPPINGS=x") == 0 &&
	      ircline_isupport_token(&s, "") == 0 && ircline_isupport_token(&s, "-") == 0,
	      "other tokens are not ours");
	CHECK(!memcmp(&s, &before, sizeof s), "and change nothing");
	CHECK(ircline_is_channel(NULL, "!abc") && ircline_is_channel(NULL, "+x"), "NULL: the defaults");
}

int main(void)
{
	test_rules();
	test_match();
	test_parse();
	test_isupport();
	return check_report("bot_casemap");
}
