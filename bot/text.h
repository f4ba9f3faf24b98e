/* text.h: the words players read when the engine refuses something (one table per language). */
#ifndef CARDBOT_TEXT_H
#define CARDBOT_TEXT_H

#include <stddef.h>
#include "g304.h"

/* Writes into buf (always NUL-terminated when len > 0, cut short if need be)
 * why res was refused, in words addressed to the player who acted: "you must
 * follow suit: you hold hearts". names are the players' names by seat
 * (borrowed; a NULL entry reads as "seat N"). The only card a message ever
 * names is one the acting player named. Returns the length of the whole
 * message, like snprintf, so a result >= len means it was cut short. */
size_t text_refusal(char *buf, size_t len, const g304_result *res, const char *const names[G304_SEATS]);

/* As text_refusal, for a deal that g304_deal refused with err
 * (G304_ERR_MATCH_OVER, G304_ERR_WRONG_PHASE). */
size_t text_deal_refused(char *buf, size_t len, int err);

#endif
