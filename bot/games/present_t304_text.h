/* present_t304_text.h: Trump304's own lines (its presentation's), in English: each id
 * with its words, joined to the host's (bot/text/text.h's TEXT_LIST) in one
 * list of ids by bot/games/present_texts.h. The other languages are in
 * present_t304_ta.inc and present_t304_si.inc. */
#ifndef CARDBOT_PRESENT_T304_TEXT_H
#define CARDBOT_PRESENT_T304_TEXT_H

#define PRESENT_T304_TEXT(X) \
	X(T_G_WARN, "{1}: still your turn; {2} seconds left before a random move is made for you.") \
	X(T_USAGE_BID_T304, "bid N (150 to 300 in tens, or 304)") \
	X(T_ABOUT_T304, "{1}: Trump304 is 304 for two, three or four players (two: a draw pile; three: the trumper may swap two cards with the centre; four: partners opposite). The points are in the cards: J 30, 9 20, A 11, 10 10, K 3, Q 2. Bid 150 to 300 in tens, or 304, for the points you will take in tricks; if all pass, the dealer must bid 150. The trumper lays a trump card face down; one who cannot follow suit may ask to have the trump shown, and only a shown trump cuts. After each deal the losers pay the winners tokens; play goes on until {prefix}stop. At the live pace a turn left too long gets a random legal card. {prefix}rules more: this table's options.") \
	X(T_GAME_T304, "Trump304") \
	X(T_G_T304_TERMS, "after each deal the losing side pays the winners in tokens (totals may go below zero); {prefix}stop ends the match") \
	X(T_G_TURN_TRUMP, "{1}: lay your trump card face down, privately (/msg me trump CARD).") \
	X(T_G_TOKENS, "tokens: {1}") \
	X(T_G_PAID, "{1} tokens from {2} to {3}") \
	X(T_G_PAID_LINE, "{1}") \
	X(T_G_TIMED_OUT, "{1} ran out of time: a random legal move is made for them") \
	X(T_G_STATE_EXCHANGE, "{1} may exchange with the centre") \
	X(T_G_HAND_TRUMP_CARD, " | your trump card (face down): {1}") \
	X(T_G_HAND_EXCHANGE, " | exchange CARD CARD or keep") \
	X(T_G_HAND_PUT_DOWN, " | put down: {1}") \
	X(T_G_RULES_T304, "{1}: Trump304 with {2} players | pace {3} (live: {4} s a turn, then a random legal card is played) | lastcard {5} (on: your last card is played for you; {prefix}set lastcard on|off at any time) | change with {prefix}set pace or {prefix}new before {prefix}start") \
	X(T_HELP_EXCHANGE, "{1}exchange CARD CARD: Trump304 with three players, privately: put two cards down and take the centre") \
	X(T_HELP_KEEP, "{1}keep: Trump304 with three players: keep your hand (no exchange)") \
	X(T_HELP_REVEAL, "{1}reveal: Trump304: when you cannot follow suit, have the trump shown (the trumper reveals before cutting)") \
	X(T_BRIEF_T304, "Trump304: two, three or four players; the trumper lays the trump card face down, the losers pay tokens after each deal, and play goes on until the table stops ({1}new trump304 3)") \
	X(T_PART_NEW_T304, "trump304 (2, 3 or 4 players; 4 by default)") \
	X(T_PART_NEW_REFUSED_T304, "trump304 with 2, 3 or 4 players (e.g. {1}new trump304 3)") \
	X(T_PART_STATS_T304, "trump304: 150-199, 200-249, 250-300, 304") \
	X(T_PART_CUT_T304, "Trump304: after the dealer, 1 to 31") \
	/* end */

#endif
