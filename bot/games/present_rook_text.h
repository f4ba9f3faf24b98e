/* present_rook_text.h: Rook's own lines (its presentation's), in English: each id
 * with its words, joined to the host's (bot/text/text.h's TEXT_LIST) in one
 * list of ids by bot/games/present_texts.h. The other languages are in
 * present_rook_ta.inc and present_rook_si.inc. */
#ifndef CARDBOT_PRESENT_ROOK_TEXT_H
#define CARDBOT_PRESENT_ROOK_TEXT_H

#define PRESENT_ROOK_TEXT(X) \
	X(T_USAGE_BID_ROOK, "bid N (70 to 200 in fives)") \
	X(T_ABOUT_ROOK, "{1}: Rook is played by four, partners sitting opposite, with 57 cards: 1 to 14 in red, green, yellow and black, and the Rook. Counters score: each 5 is 5 points, each 10 and 14 is 10, each 1 is 15, the Rook 20, and the side with most tricks gets 20 more: 200 a hand. Bid 70 to 200 in fives (a pass is final); the winner takes the nest card, discards one face down, names the trump colour (the Rook is always a trump) and leads. Follow suit if you can. Make the bid and you score what you took; fall short and the bid is taken off your score. The first team to 500 wins. {prefix}rules more: this table's options.") \
	X(T_GAME_ROOK, "Rook") \
	X(T_G_ROOK_TERMS, "first team to 500 wins") \
	X(T_G_TURN_COLOUR, "{1}: name the trump colour ({prefix}trump red, green, yellow or black).") \
	X(T_G_NO_REVIEW, "[{1}] in Rook taken tricks may not be looked at again until the hand ends: each trick is shown once, when it is taken.") \
	X(T_G_NEST, "{1} wins the bidding at {2} and takes the nest card") \
	X(T_G_ROOK_MADE, "{1}'s team bid {2} and took {3}: made") \
	X(T_G_ROOK_SET, "{1}'s team bid {2} and took {3}: set") \
	X(T_G_ROOK_SCORE, "score: {1} {3} {2}") \
	X(T_G_BAD_ROOK_CARD, "I cannot read \"{1}\" as a card: try 14r, 5b, rook, or its position in your hand.") \
	X(T_G_STATE_DISCARD, "{1} is discarding") \
	X(T_G_HAND_DISCARD, " | discard CARD (not a counter): {1}") \
	X(T_G_HAND_COLOUR, " | trump red, green, yellow or black") \
	X(T_G_RULES_ROOK, "{1}: Rook | bids 70-200 by fives | game to 500 | pace {2} | lastcard {3} (on: your last card is played for you; {prefix}set lastcard on|off at any time) | change with {prefix}set pace or {prefix}new before {prefix}start") \
	X(T_HELP_DISCARD, "{1}discard CARD: Rook, privately: the bidder discards one card that is not a counter") \
	X(T_ROOK_RED, "red") \
	X(T_ROOK_GREEN, "green") \
	X(T_ROOK_YELLOW, "yellow") \
	X(T_ROOK_BLACK, "black") \
	X(T_BRIEF_ROOK, "Rook: four players in two teams, coloured cards 1 to 14 and the Rook bird; the highest bidder names the trump colour, and the first team to 500 wins ({1}new rook)") \
	X(T_PART_ROOK, "rook") \
	X(T_PART_STATS_ROOK, "rook: 70-119, 120-149, 150-200") \
	X(T_PART_CUT_ROOK, "Rook: before the dealer, 1 to 56") \
	/* end */

#endif
