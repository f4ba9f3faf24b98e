/* g304_options.c: 304's table options, each a byte of g304_rules, in RULES.md's words. */
#include <stddef.h>
#include "g304.h"
#include "g304_options.h"

_Static_assert(sizeof(g304_rules) <= GAME_RULES_MAX, "g304_rules fits a game_rules");
_Static_assert(G304_BIDDING_PAGAT == 0 && G304_BIDDING_SINGLE == 1, "bidding words order");
_Static_assert(G304_SCORING_STANDARD == 0 && G304_SCORING_BANK == 1, "scoring words order");
_Static_assert(G304_CAPS_STRICT == 0 && G304_CAPS_LENIENT == 1 && G304_CAPS_OFF == 2, "caps words order");

const game_option g304_options[] = {
	{ "bidding", offsetof(g304_rules, bidding), G304_BIDDING_PAGAT, 0, { "pagat", "single" }, NULL, 0,
	  "a bidding style" },
	{ "fives", offsetof(g304_rules, fives), 0, 1, { "off", "on" }, NULL, 0, "on or off" },
	/* RULES.md called standard scoring "transfer" once; records may say so. */
	{ "scoring", offsetof(g304_rules, scoring), G304_SCORING_STANDARD, 0, { "standard", "bank" }, "transfer",
	  G304_SCORING_STANDARD, "a scoring" },
	{ "caps", offsetof(g304_rules, caps), G304_CAPS_STRICT, 0, { "strict", "lenient", "off" }, NULL, 0,
	  "a caps rule" },
	{ "external_caps", offsetof(g304_rules, external_caps), 0, 1, { "off", "on" }, NULL, 0, "on or off" },
	{ NULL, 0, 0, 0, { NULL }, NULL, 0, NULL },
};
