/* g304_options.h: 304's table options (g304_rules) as game.h declares a game's options. */
#ifndef CARDBOT_G304_OPTIONS_H
#define CARDBOT_G304_OPTIONS_H

#include "game.h"

/* bidding, fives, scoring, caps, external_caps (RULES.md), over g304_rules. */
extern const game_option g304_options[];

#endif
