/* present_304_text.h: 304's own lines (its presentation's), in English: each id
 * with its words, joined to the host's (bot/text/text.h's TEXT_LIST) in one
 * list of ids by bot/games/present_texts.h. The other languages are in
 * present_304_ta.inc and present_304_si.inc. */
#ifndef CARDBOT_PRESENT_304_TEXT_H
#define CARDBOT_PRESENT_304_TEXT_H

#define PRESENT_304_TEXT(X) \
	X(T_DEAL, "Deal {1}: {2} deals; {3} bids first. Hands are sent privately.") \
	X(T_TURN_TRUMP, "{1}: choose your trump card privately (/msg me trump CARD).") \
	X(T_REJECTED, "{1} throws in the hand ({2} points): same dealer, new cards.") \
	X(T_BID_RANGE_PARTNER, "{1} or more, partner, or pass") \
	X(T_BID_RANGE_PCC, "{1} or more, pcc, or pass") \
	X(T_BID_PCC_OR_PASS, "pcc or pass") \
	X(T_BID_PASS_OR_PARTNER, "pass or partner") \
	X(T_BID_FOR_PARTNER, "{1} answers for their partner: {2}") \
	X(T_PASS_FOR_PARTNER, "{1} answers for their partner: pass") \
	X(T_ASK, "{1} asks {2} to bid") \
	X(T_DEALT_REST, "the last four cards are dealt; eight-card bidding, {1} first ({2} or more, pcc, or pass)") \
	X(T_TRUMP_BACK, "{1} takes the old trump card back") \
	X(T_BID8_WON, "{1} wins the eight-card bidding at {2}") \
	X(T_PCC_SITS_OUT, "{1} sits out this deal: {2} plays alone and must win every trick") \
	X(T_DEALT_REST6, "two more cards each are dealt; six-card bidding, {1} first ({2} or more, pcc, or pass)") \
	X(T_BID6_WON, "{1} wins the six-card bidding at {2}") \
	X(T_PCC_SIT_OUT6, "{1} sit out this deal: {2} plays alone and must win every trick") \
	X(T_PCC_LOST, "{1} has lost a trick, so the pcc is lost: I play out the rest of the deal for everyone at once") \
	X(T_PLAY_STARTS, "play begins ({2}): {1} leads") \
	X(T_OPENED, "{1} opens the game: trumps are {2}; the card laid face down was {3}") \
	X(T_PLAYED_DOWN, "{1} plays face down") \
	X(T_PLAYED_TRUMP_CARD, "{1} cuts with the trump card (face down)") \
	X(T_NO_TRUMP, "no trump was played") \
	X(T_REVEALED, "trumps are {1}! the trump card is {2}") \
	X(T_TURNED_UP, "{1} had played {2}") \
	X(T_TRICK_ALL, "trick {2}:{3}; {1} wins it") \
	X(T_CAPS_CALLED, "{1} calls CAPS and will play: {2}. I play those cards in turn; anyone else may type {3}finish to have me play theirs to the end of the deal.") \
	X(T_FINISH_OK, "{1}: I will play your cards to the end of this deal.") \
	X(T_FINISH_NOT_NOW, "[{1}] {2}finish works after a caps call, to have me play your cards to the end of the deal") \
	X(T_CAPS_BROKEN, "{1} cannot play the caps order: the call has failed") \
	X(T_CAPS_RESULT, "caps: {1} ({2})") \
	X(T_PASSED_OUT, "all pass: no play this deal") \
	X(T_SPOILT_RIGHT, "{1} calls spoilt trumps, rightly: the deal is void and the same dealer deals again") \
	X(T_SPOILT_WRONG, "{1} calls spoilt trumps, wrongly: that side pays for the violation") \
	X(T_TOKENS, "tokens: {1} {3} {2}") \
	X(T_BAND_UNDER_200, "under 200") \
	X(T_BAND_250_OVER, "250 and over") \
	X(T_PART_NEW_304, "304 (4 players, or 6: {1}new 304 6, or 8: {1}new 304 8; six with 24 cards: {1}new 304six24), 504 (6 players: {1}new 504), 904 (8 players: {1}new 904)") \
	X(T_PART_NEW_REFUSED_304, "304 (for six players: {1}new 304 6; for eight: {1}new 304 8; six with 24 cards: {1}new 304six24), Tamil Nadu's 504 for six ({1}new 504) and 904 for eight ({1}new 904)") \
	X(T_PART_STATS_304, "304: under 200, 200-249, 250 and over, pcc") \
	X(T_PART_CUT_304, "304: you sit before the dealer, 1 to 31, or to 35, 23 or 39 with 36, 24 or 40 cards") \
	X(T_USAGE_BID_304, "bid N (60 means 160), or bid pcc") \
	X(T_READY, "four are seated: {prefix}start to deal") \
	X(T_NEED_FOUR, "[{1}] four players are needed: seat people with {prefix}sit or computer players with {prefix}bot.") \
	X(T_MATCH_STARTS, "a match of 304 begins: {1} against {2}; 11 tokens each") \
	X(T_MATCH_STARTS6, "a match of 304 for six begins: {1} against {2}; 11 tokens each") \
	X(T_DOWN_PRIVATELY, "[{1}] that card would go face down: send it to me privately (/msg me play CARD). Nothing was played.") \
	X(T_HELP_FINISH, "{1}finish: after someone calls caps, let me play your cards to the end of the deal") \
	X(T_HELP_CAPS, "{1}caps CARD CARD ...: claim every remaining trick, naming all your cards in the order you will play them") \
	X(T_HELP_OPEN, "{1}open: as trumper, before the first card, play an open game (the trump card is shown)") \
	X(T_HELP_PARTNER, "{1}partner: ask your partner to bid in your place (four-card bidding)") \
	X(T_HELP_REDEAL, "{1}redeal: as first bidder, throw in four cards worth under 15 points") \
	X(T_HELP_SPOILT, "{1}spoilt: call spoilt trumps (the trumper's opponents hold no trump); a wrong call is a violation") \
	X(T_STATE_BID4, "four-card bidding") \
	X(T_STATE_BID4_HIGH, "four-card bidding, {1} by {2}") \
	X(T_STATE_TRUMP, "{1} is choosing a trump card") \
	X(T_STATE_BID8, "eight-card bidding, {1} to beat") \
	X(T_STATE_BID6, "six-card bidding, {1} to beat") \
	X(T_HAND_TRUMP_CARD, " | trump card on the table: {1}") \
	X(T_HAND_OR_TRUMP_CARD, " or the trump card (play trump)") \
	X(T_HAND_ONLY_TRUMP_CARD, " | your only card to play is the trump card on the table, {1}: play trump") \
	X(T_INSPECTION, "[{1}] trick {2}, face down:{3}") \
	X(T_TABLE_TOKENS, " | tokens {1}") \
	X(T_TABLE_TRICKS, " | tricks {1}") \
	X(T_FACE_DOWN, "(face down)") \
	X(T_RULES, "{1}: 304 | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_RULES6, "{1}: 304 for six | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_ABOUT_304, "{1}: 304 is played by four, partners sitting opposite, with 32 cards (7 to ace). The points are in the cards, 304 in all: J 30, 9 20, A 11, 10 10, K 3, Q 2, and J and 9 rank highest. With four cards each, bid the points your side will take in tricks (160 or more; 60 means 160) or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. Four more cards each, a second bidding from 250, then eight tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_ABOUT_304SIX, "{1}: 304 for six is played by two teams of three, sitting alternately, with 36 cards (6 to ace; the sixes are worth nothing). The points are in the cards, 304 in all: J 30, 9 20, A 11, 10 10, K 3, Q 2. With four cards each, bid the points your side will take in tricks (160 or more; 60 means 160) or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. Two more cards each, a second bidding from 250, then six tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_GAME_304, "304") \
	X(T_GAME_304SIX, "304 for six") \
	X(T_NOT_CALLED, "nobody called it") \
	X(T_WORD_OPEN, "open") \
	X(T_WORD_CLOSED, "closed") \
	X(T_WORD_FACE_DOWN, "face down") \
	X(T_CAPS_CORRECT, "correct") \
	X(T_CAPS_LATE, "late") \
	X(T_CAPS_EARLY, "early") \
	X(T_BRIEF_304, "304: four players in two teams bid for the right to choose a trump card, then take tricks for the 304 card points, by the Jaffna rules ({1}304)") \
	X(T_BRIEF_304SIX, "304 for six: the same game for six players in two teams of three ({1}new 304 6)") \
	X(T_DEALT_REST8, "the fourth card each is dealt; {1} holds the trump card, and play begins") \
	X(T_STATE_BID3, "three-card bidding") \
	X(T_STATE_BID3_HIGH, "three-card bidding, {1} by {2}") \
	X(T_RULES8, "{1}: 304 for eight | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_RULES6S, "{1}: 304 for six, short (24 cards) | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_ABOUT_304EIGHT, "{1}: 304 for eight is played by two teams of four, sitting alternately, with all 32 cards (7 to ace). The points are in the cards, 304 in all: J 30, 9 20, A 11, 10 10, K 3, Q 2. With three cards each, the first to speak must bid 200 or more; the others bid higher or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. One more card each, then four tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_ABOUT_304SIX24, "{1}: short 304 for six is played by two teams of three, sitting alternately, with 24 cards (queen to jack, no 8s or 7s). The points are in the cards, 304 in all: J 30, 9 20, A 11, 10 10, K 3, Q 2. With three cards each, the first to speak must bid 200 or more; the others bid higher or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. One more card each, then four tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_GAME_304EIGHT, "304 for eight") \
	X(T_GAME_304SIX24, "short 304 for six") \
	X(T_BRIEF_304EIGHT, "304 for eight: two teams of four, three cards then a fourth, and the first bid is 200 or more ({1}new 304 8)") \
	X(T_BRIEF_304SIX24, "short 304 for six: two teams of three with 24 cards, three cards then a fourth, and the first bid is 200 or more ({1}new 304six24)") \
	X(T_MATCH_STARTS6S, "a match of short 304 for six begins: {1} against {2}; 11 tokens each") \
	X(T_MATCH_STARTS8, "a match of 304 for eight begins: {1} against {2}; 11 tokens each") \
	X(T_ABOUT_504, "{1}: 504 (Tamil Nadu's game for six) is played by two teams of three, sitting alternately, with 36 cards: 7 to jack and a three above each jack. The points are in the cards, 504 in all: 3 50, J 30, 9 20, A 11, 10 10, K 3, Q 2. With four cards each, bid the points your side will take in tricks (260 to 500) or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. Two more cards each, a second bidding from 410, then six tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_ABOUT_904, "{1}: 904 (Tamil Nadu's game for eight) is played by two teams of four, sitting alternately, with 40 cards: 7 to jack, then a three and a two above each jack. The points are in the cards, 904 in all: 2 100, 3 50, J 30, 9 20, A 11, 10 10, K 3, Q 2. With four cards each, bid the points your side will take in tricks (460 to 900) or pass. The highest bidder lays a trump card face down: its suit stays secret until someone cuts. One more card each, a second bidding from 740, then five tricks; follow suit if you can. Make the bid and the other side pays you tokens; fail and your side pays. Each side starts with 11 tokens; a side left with none loses. {prefix}rules more: this table's options.") \
	X(T_GAME_504, "504") \
	X(T_GAME_904, "904") \
	X(T_BRIEF_504, "504: six players in two teams of three, the threes added above the jacks (50 each), bids from 260 ({1}new 504)") \
	X(T_BRIEF_904, "904: eight players in two teams of four, the threes (50) and twos (100) added, bids from 460 ({1}new 904)") \
	X(T_MATCH_STARTS504, "a match of 504 begins: {1} against {2}; 11 tokens each") \
	X(T_MATCH_STARTS904, "a match of 904 begins: {1} against {2}; 11 tokens each") \
	X(T_RULES504, "{1}: 504 | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_RULES904, "{1}: 904 | bidding {2} | fives {3} | scoring {4} | caps {5} | external_caps {6} | pace {7} | lastcard {8} | change with {prefix}set OPTION VALUE before {prefix}start") \
	X(T_DEALT_REST5, "one more card each is dealt; five-card bidding, {1} first ({2} or more, pcc, or pass)") \
	X(T_STATE_BID5, "five-card bidding, {1} to beat") \
	X(T_BID5_WON, "{1} wins the five-card bidding at {2}") \
	X(T_CAPS_FAILED, "failed") \
	/* end */

#endif
