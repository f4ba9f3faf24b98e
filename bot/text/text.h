/* text.h: the words players read when the engine refuses something (one table per language). */
#ifndef CARDBOT_TEXT_H
#define CARDBOT_TEXT_H

#include <stddef.h>
#include "game.h"

/* Writes into buf (always NUL-terminated when len > 0, cut short if need
 * be) why a game refused a deal: over, the match has ended; else the
 * previous deal has not. Returns the whole length, like snprintf. (A
 * game's refusals of actions: text_refusal_game_in, text_lang.h.) */
size_t text_deal_refused(char *buf, size_t len, int over);

/* Everything the bot says at a table, in one list: each id with its English
 * (bot/text/text_ta.c and bot/text/text_si.c hold the other languages, bot/text/text_lang.h
 * chooses). {1} {2} {3} stand for the arguments of text_fmt; {prefix} for
 * the command prefix, {start} for the prefix and "start". They are never
 * printf formats. */
#define TEXT_LIST(X) \
	X(T_TABLE_OPENED, "A {3} table is open in {2}. Take a seat with {1}sit, add computer players with {1}bot, and {1}start when every seat is taken. {1}help lists every command.") \
	X(T_TABLE_EXISTS, "There is already a table here: {1}sit to join, {1}table to see it.") \
	X(T_NO_TABLE, "No table is open here: {1}304 opens one.") \
	X(T_NO_TABLE_FOR_YOU, "You are not at any table. Open one in a channel with {1}304.") \
	X(T_WHICH_TABLE, "You sit at several tables ({2}): name one first, e.g. {3} play js") \
	X(T_RATE_LIMITED, "Slow down please: you are sending commands faster than I take them; the extra ones are ignored.") \
	X(T_ERROR, "Something went wrong: {1}") \
	X(T_ERR_STATS, "the statistics could not be read") \
	X(T_ERR_TOP, "the leaderboard could not be read") \
	X(T_ERR_HISTORY, "the history could not be read") \
	X(T_ERR_RECORD, "the record could not be read") \
	X(T_ERR_RANDOM, "the random source failed; try {prefix}start again") \
	X(T_ERR_SETUP, "the game could not be set up") \
	X(T_ERR_MEMORY, "out of memory") \
	X(T_ERR_TOO_MANY_TABLES, "too many tables are open on this bot") \
	X(T_TURN_BID, "{1}: your turn to bid ({2}).") \
	X(T_TURN_PLAY, "{1}: your turn to play.") \
	X(T_BID, "{1} bids {2}") \
	X(T_BID_RANGE, "{1} or more, or pass") \
	X(T_BID_PASS_ONLY, "pass") \
	X(T_BID_EXACT_OR_PASS, "{1}, or pass") \
	X(T_BID_EXACT_MUST, "{1}: you must bid") \
	X(T_BID_MORE, "{1} or more") \
	X(T_PASS, "{1} passes") \
	X(T_BIDDING_WON, "{1} wins the bidding at {2}") \
	X(T_TRUMP_SET, "{1} lays a trump card face down") \
	X(T_PLAYED, "{1} {2}") \
	X(T_TRICK, "{1} wins trick {2}") \
	X(T_MADE, "{1}'s side bid {2} and took {3}: made") \
	X(T_FAILED, "{1}'s side bid {2} and took {3}: failed") \
	X(T_MATCH_WON, "the match is over: {1} win!") \
	X(T_MATCH_OVER_HINT, "{start} for another match with the same seats.") \
	X(T_REFUSED, "[{1}] {2}") \
	X(T_CUT_DONE, "{1} cuts the deck at {2}") \
	X(T_CUT_NOT_NOW, "[{1}] the cut is offered to {2} before a deal, and only then") \
	X(T_REFUSED_ROOM, "{1}: not accepted (I told you why privately).") \
	X(T_STOOD_IN, "{1} is away: a computer player moves for them") \
	X(T_WARN, "{1}: still your turn; {2} seconds left before a computer player moves for you.") \
	X(T_REMIND, "{1}: the table is waiting for you.") \
	X(T_LEFT_OPEN, "{1} leaves the table") \
	X(T_LEFT_PLAYING, "{1} has left; their seat is kept for {2} seconds, then anyone may {prefix}sit in it") \
	X(T_BACK, "{1} is back") \
	X(T_RESUMED, "I am back: the game resumes where it was.") \
	X(T_RESUMED_DEAL, "I am back: the game resumes where it was (deal {1}, deck commitment {2}).") \
	X(T_COMMITMENT, "deck commitment {1}") \
	X(T_COMMITMENT_HOW, "each deal's deck is fixed before it is dealt: its commitment comes with the deal, its salt in the match record ({prefix}record once the match has ended), and cardbot verify checks the two") \
	X(T_SAVE_FAILED, "[{1}] I could not save that, so it was not taken; the operator has been told. Try again shortly.") \
	X(T_SAVE_FAILED_ROOM, "I cannot save the game right now (a problem with my storage), so moves are not being taken. The game will go on when it is fixed.") \
	X(T_STATS, "{1}: {2}") \
	X(T_STATS_GAME, "{1} in {2}: {3}") \
	X(T_STATS_NONE, "No finished deals for {1} yet.") \
	X(T_STATS_NONE_GAME, "No finished {2} deals for {1} yet.") \
	X(T_STATS_MATCHES, "matches {1} (won {2}), ") \
	X(T_STATS_DEALS, "deals {1} (won {2}); bids made:") \
	X(T_STATS_BAND, "{1} {2}/{3}") \
	X(T_STATS_NO_BIDS, " none yet") \
	X(T_STATS_CAPS, "; caps called {1} (right {2})") \
	X(T_STATS_TRUMPER, "; as trumper {1} deals, {2} points on average") \
	X(T_TOP, "Leaderboard for {1}: {2}") \
	X(T_TOP_GAME, "Leaderboard for {1} in {2}: {3}") \
	X(T_TOP_ROW, "{1}. {2} ") \
	X(T_TOP_MATCHES, "{1}/{2} matches, ") \
	X(T_TOP_DEALS, "{1}/{2} deals") \
	X(T_TOP_NONE, "No finished matches here yet.") \
	X(T_TOP_NONE_GAME, "No finished {1} deals here yet.") \
	X(T_HISTORY, "Last matches here: {1}") \
	X(T_HISTORY_WON, "#{1} {2} {3}, won by ") \
	X(T_HISTORY_STOPPED, "#{1} {2} {3}, stopped: ") \
	X(T_HISTORY_NONE, "No finished matches here yet.") \
	X(T_RECORD_FILE, "The record of match {1}: {2}") \
	X(T_RECORD_PAGE, "The record of match {1}: {2} and its page, to replay it in a browser: {3}") \
	X(T_RECORD_TOO_LONG, "[{1}] the record of match {2} would take {3} private lines, too many to send here: " \
			     "whoever runs me can give it to you (cardbot export DB {2}), or set public_dir, and then every " \
			     "record comes as a link, with its page to replay the match in a browser.") \
	X(T_RECORD_OFFERED, "The record of match {1}: I am offering you {2} as a file (DCC SEND: accept it in your client; in irssi /dcc get {3}). If it is not taken soon, it comes as private lines instead.") \
	X(T_RECORD_LINE, "The record of match {1} (cardbot-record/1 JSON, in {2} lines: join them without separators): ") \
	X(T_RECORD_NONE, "There is no finished match {1} here. {2}history lists them.") \
	X(T_SAVE_WORKS, "Saving works again: the game goes on.") \
	X(T_DB_REWRITTEN, "My database file was deleted while I was running. I have written it anew with every game in it, so nothing is lost; the operator has been told.") \
	X(T_DB_LOST, "My database file was deleted while I am running, and I cannot write it anew yet: the game goes on from memory, but would be lost if I stopped now. The operator has been told.") \
	X(T_DB_REPLACED, "Another file has taken the place of my database while I am running: I leave it alone and go on with a copy of my own, beside it. The operator has been told.") \
	X(T_STOP_NOT_SAVED, "[{1}] I could not save the end of the match, so the table is not stopped (it would come back after a restart). Try {2}stop again shortly.") \
	X(T_SETTINGS_RECALLED, "This channel's choices from earlier tables: {1} ({2}set changes them).") \
	X(T_NO_STORAGE, "This bot keeps no database, so there is no history or statistics.") \
	X(T_ALREADY_SEATED, "[{1}] you already have a seat here.") \
	X(T_USAGE, "usage: {1}") \
	X(T_USAGE_ASCII, "ascii [on|off]") \
	X(T_USAGE_SIT, "sit [SEAT]") \
	X(T_USAGE_BOT, "bot [SEAT|all]") \
	X(T_USAGE_UNBOT, "unbot SEAT (a seat held by a computer player)") \
	X(T_USAGE_RECORD, "record [number]") \
	X(T_USAGE_EXCHANGE, "exchange CARD CARD") \
	X(T_USAGE_DISCARD, "discard CARD") \
	X(T_USAGE_LANG, "lang en|si|ta") \
	X(T_PRIVATE_USAGE, "usage: /msg me {2} COMMAND, e.g. /msg me {2} table ({1}help lists the commands)") \
	X(T_SEAT_TAKEN, "[{1}] that seat is taken.") \
	X(T_SEAT_KEY, "[{1}] your seat key is {2}: keep it. If I lose sight of you (a quit, a restart), /msg me {1} claim {2} gives you your seat back, under any nick.") \
	X(T_CLAIM_HOW, "[{1}] I lost sight of the player of seat {2} and cannot tell whether you are them: /msg me {1} claim KEY, with the seat key I gave you when you sat, takes the seat back.") \
	X(T_CLAIM_NO_KEY, "[{1}] I lost sight of the player of seat {2} and cannot tell whether you are them; the seat is kept for its grace, then anyone may {prefix}sit in it.") \
	X(T_CLAIM_PRIVATELY, "[{1}] a seat key is claimed privately (/msg me {1} claim KEY); one said in the channel no longer works.") \
	X(T_SEAT_KEY_NEW, "[{1}] the seat key said in the channel no longer works. Your new seat key is {2}: keep it to yourself, and claim privately: /msg me {1} claim {2}") \
	X(T_CLAIM_BAD, "[{1}] no seat here has that key.") \
	X(T_CLAIM_NOT_NEEDED, "[{1}] seat {2} is held by its player; a key is needed only when I have lost sight of them.") \
	X(T_CLAIMED, "{1} is back in seat {2}") \
	X(T_NOT_PRESENT, "[{1}] join {1} first: a table answers the people in its channel and its players.") \
	X(T_SEAT_MOVE_LATER, "[{1}] you hold seat {2}: nobody may see two hands of one deal, so you may move to another seat when this deal ends.") \
	X(T_SEAT_SEEN, "[{1}] you held seat {2} in this deal and saw its cards: nobody may see two hands of one deal, so you may take another seat when this deal ends (seat {2} is yours to take back).") \
	X(T_SEAT_SEEN_TAKEN, "[{1}] the seat you held in this deal is taken, and nobody may see two hands of one deal: you may take another seat when this deal ends.") \
	X(T_SEAT_SEEN_MAYBE, "[{1}] the cards of a seat in this deal were shown to someone I cannot tell apart from you (the same address, or a nick I lost sight of); nobody may see two hands of one deal, so you may take a seat when this deal ends.") \
	X(T_SEAT_CROWD, "[{1}] too many people have held seats in this deal; seats are free again when it ends.") \
	X(T_SEAT_GRACE, "[{1}] the player of seat {2} has left; the seat is kept for them {3} seconds more.") \
	X(T_TABLE_FULL, "[{1}] every seat is taken.") \
	X(T_SIT, "{1} sits in seat {2}") \
	X(T_SIT_REPLACE, "{1} takes seat {3} from {2}") \
	X(T_LEFT_TO_COMPUTER, "{1} leaves; a computer player takes the seat until someone {prefix}sits in it") \
	X(T_BOT_ADDED, "{1} (a computer player) sits in seat {2}") \
	X(T_NO_FREE_SEAT, "[{1}] there is no free seat for a computer player.") \
	X(T_BOT_REMOVED, "{1} leaves the table") \
	X(T_SET_USAGE, "usage: set OPTION VALUE; options: {1}, pace live|casual|correspondence, level easy|normal|strong, think MILLISECONDS (10-10000), lastcard on|off, lang en|si|ta") \
	X(T_SET_DONE, "{1} is now {2}") \
	X(T_SET_BAD_VALUE, "{1} cannot be \"{2}\": the choices are {3}") \
	X(T_NOTIFY_START, "a game of 304 is starting in {1}") \
	X(T_TRUMP_PRIVATELY, "[{1}] choose your trump card in a private message to me, not in the channel.") \
	X(T_NO_POSITION, "There is no card at position {1} in your hand ({prefix}hand shows it, numbered).") \
	X(T_BAD_CARD, "I cannot read \"{1}\" as a card: try js, J\xe2\x99\xa0, 10h, th, or its position in your hand.") \
	X(T_NO_HAND, "[{1}] no cards are dealt at the moment.") \
	X(T_NO_LAST, "[{1}] no trick has been played yet in this deal.") \
	X(T_NOT_SEATED, "[{1}] you do not have a seat at this table ({prefix}sit takes one).") \
	X(T_NOT_PLAYING, "[{1}] no match is in progress ({2}start begins one).") \
	X(T_SET_PLAYERS_ONLY, "[{1}] during a match only its players may change the table's settings " \
			      "({prefix}lang sets the language you read).") \
	X(T_ONLY_BETWEEN, "[{1}] that can be changed only between matches: {2}stop ends this one.") \
	X(T_ALREADY_PLAYING, "[{1}] a match is already being played here ({2}table shows it; {2}stop ends it).") \
	X(T_STOPPED, "{1} stops the table. Thanks for playing!") \
	X(T_STOP_VOTE, "{1} votes to stop ({2} of {3} votes needed)") \
	X(T_NOTIFY_ON, "[{1}] I will tell you when a game starts here ({prefix}notify again to stop).") \
	X(T_NOTIFY_OFF, "[{1}] no more game notices from this table.") \
	X(T_NOTIFY_FULL, "[{1}] too many people already asked for notices here.") \
	X(T_ASCII_ON, "Cards will be written with letters (S H D C) and no colours.") \
	X(T_ASCII_OFF, "Cards will be written with suit symbols and colours.") \
	X(T_LANG_SET, "I will write to you in English. ({prefix}lang en|si|ta changes it; commands are the same words in every language.)") \
	X(T_LANG_IS, "You read me in {1} ({2}). Choices: {3}. {prefix}lang CODE changes it; commands are the same words in every language.") \
	X(T_LANG_IS_ROOM, "You read me in the room's language, {1} ({2}). Choices: {3}. {prefix}lang CODE changes it; commands are the same words in every language.") \
	X(T_LANG_UNKNOWN, "I do not speak \"{1}\": the choices are {2}.") \
	X(T_LANG_ROOM_SET, "This room now reads me in English ({1}).") \
	X(T_UNKNOWN_COMMAND, "I do not know \"{1}\"; {2}help lists the commands.") \
	X(T_UNKNOWN_COMMAND_NEAR, "I do not know \"{1}\": did you mean {2}{3}? {2}help lists the commands.") \
	X(T_HELP_INTRO, "The commands of every game (in a channel start them with {1}; in private the {1} is optional; {1}help COMMAND explains one): ") \
	X(T_HELP_SAME_WORDS, "{1}lang en|si|ta: I write in English, தமிழ் or සිංහල; the commands are the same words in every language.") \
	X(T_HELP_ASCII, "{1}ascii [on|off]: write cards with letters instead of suit symbols") \
	X(T_HELP_CLAIM, "{1}claim KEY: privately, take back your seat with the seat key you were given when you sat, when I have lost sight of you (a quit, a restart), under any nick") \
	X(T_HELP_CUT, "{1}cut N: when offered, cut the deck N cards from the top before the deal ({2}); otherwise the deal starts after a short wait") \
	X(T_HELP_BID, "{1}bid N: bid N points (60 means 160); {1}bid pcc in the second round for partner close caps (your partner sits out, with six players both partners, and you must win every trick)") \
	X(T_HELP_BOT, "{1}bot [SEAT|all]: seat a computer player (in the first free seat, or SEAT 1-4, 1-6 at a table of six; {1}bot all fills every free seat; a player who left keeps their seat for its grace)") \
	X(T_HELP_HAND, "{1}hand: send me my hand again, privately") \
	X(T_HELP_HELP, "{1}help [COMMAND]: list the commands, or explain one") \
	X(T_HELP_LANG, "{1}lang [en|si|ta]: the language I write to you in (en English, ta தமிழ், si සිංහල); {1}set lang CODE sets the room's. Commands are the same words in every language.") \
	X(T_HELP_HINT, "{1}hint: the computer's suggestion for your move, sent to you privately (at tables that allow hints)") \
	X(T_HINT, "[{1}] The computer would: {2}") \
	X(T_HINT_OFF, "[{1}] Hints are off at this table.") \
	X(T_HINT_NOTHING, "[{1}] There is nothing for you to decide right now.") \
	X(T_HELP_LAST, "{1}last: the last trick (face-down cards stay face down unless they were turned up); not in Rook, where taken tricks stay face down until the hand ends") \
	X(T_HELP_LEAVE, "{1}leave: give up your seat (during a match a computer player takes it; until the deal ends you may take back only that seat)") \
	X(T_HELP_NOTIFY, "{1}notify: be told privately when a table opens or a game starts in this channel (again to stop)") \
	X(T_HELP_PASS, "{1}pass: pass in the bidding") \
	X(T_HELP_PLAY, "{1}play CARD (or {1}p): play a card by name (js, J\xe2\x99\xa0, 10h, th) or by its position in your hand; {1}play trump plays the trump card. Face-down plays go privately: /msg me play CARD") \
	X(T_HELP_RULES, "{1}rules [more]: the game in a few sentences; {1}rules more: this table's options; where no table is open, what each game is") \
	X(T_HELP_SCORE, "{1}score: the tokens (or points) of every side, and in Trump304 who paid whom in the last deal") \
	X(T_HELP_SET, "{1}set OPTION VALUE: between matches, change bidding, fives, scoring, caps, external_caps, pace, level or think; lastcard on (a player's last card is played for them) or off, and lang (the room's language) at any time (remembered for this channel; a wrong value gets that option's choices, an unknown option the list of them all)") \
	X(T_HELP_SIT, "{1}sit [SEAT]: take a seat (1-4, or 1-6 at a table of six), also one held by a computer player or by someone who left; within a deal, only the seat you held in it") \
	X(T_HELP_START, "{1}start: deal the first hand of a match once every seat is taken") \
	X(T_HELP_STOP, "{1}stop: vote to end the table (a majority of seated players, or an operator; those who took a computer's seat mid-match count only when no other player is left)") \
	X(T_HELP_TABLE, "{1}table: who sits where, whose turn it is, the trick so far, bids and tokens") \
	X(T_HELP_TRUMP, "{1}trump CARD: privately, choose your trump card") \
	X(T_HELP_UNBOT, "{1}unbot SEAT: remove a computer player between matches") \
	X(T_HELP_STATS, "{1}stats [name]: in the table's game, deals and matches played and won, bids made by band ({2}), caps ({3}), average points as trumper") \
	X(T_HELP_TOP, "{1}top: this channel's leaderboard in the table's game (matches won, then deals won)") \
	X(T_HELP_HISTORY, "{1}history: the last matches finished at this table, of every game, with their numbers") \
	X(T_HELP_RECORD, "{1}record [number]: the record of a finished match (the last one by default), sent to you") \
	X(T_STATE_TRICK, "trick {1}") \
	X(T_STATE_LED, ", {1} led") \
	X(T_STATE_TRUMPS, ", trumps {1}") \
	X(T_STATE_MY_TRUMP, ", your trump {1} (closed)") \
	X(T_STATE_TRUMP_HIDDEN, ", trump hidden") \
	X(T_STATE_CONTRACT, ", bid {1} by {2}") \
	X(T_STATE_BETWEEN, "between deals") \
	X(T_STATE_YOUR_TURN, ", your turn") \
	X(T_HAND, "[{1}] hand: {2}") \
	X(T_HAND_MAY_PLAY, " | you may play: {1}") \
	X(T_HAND_CHOOSE_TRUMP, " | choose your trump card: /msg me trump CARD") \
	X(T_SEAT_LIST_COMPUTER, " (computer)") \
	X(T_SEAT_LIST_AWAY, " (away)") \
	X(T_TABLE_WAITING, " | waiting for {1} ({2})") \
	X(T_PHASE_DEAL, "deal") \
	X(T_PHASE_BID4, "bid4") \
	X(T_PHASE_TRUMP4, "trump4") \
	X(T_PHASE_BID8, "bid8") \
	X(T_PHASE_TRUMP8, "trump8") \
	X(T_PHASE_BID6, "bid6") \
	X(T_PHASE_TRUMP6, "trump6") \
	X(T_PHASE_PLAY, "play") \
	X(T_PHASE_OVER, "over") \
	X(T_PHASE_BID, "bid") \
	X(T_PHASE_TRUMP, "trump") \
	X(T_PHASE_EXCHANGE, "exchange") \
	X(T_PHASE_DISCARD, "discard") \
	X(T_TABLE_TRICK, " | trick {1}:{2}") \
	X(T_TABLE_TRUMPS, " | trumps {1}") \
	X(T_TABLE_HIGH_BID, " | high bid {1} by {2}") \
	X(T_TABLE_TIME_LEFT, " | {1} s left for this turn") \
	X(T_TABLE_IDLE, " | no match in progress; {prefix}start when every seat is taken") \
	X(T_LAST_TRICK, "{1}: last trick ({2}):{3} | won by {4}") \
	X(T_G_NEW_USAGE, "[{1}] the games: {2}. Nothing changed.") \
	X(T_G_NEW_CROWDED, "[{1}] more people are seated than that game has seats: someone must {prefix}leave first.") \
	X(T_G_TABLE_GAME, "This table now plays {1} ({2} seats). Seat people with {prefix}sit or computer players with {prefix}bot, then {prefix}start.") \
	X(T_G_NEED_SEATS, "[{1}] {2} players are needed: seat people with {prefix}sit or computer players with {prefix}bot.") \
	X(T_G_READY, "all {1} seats are taken: {prefix}start to deal") \
	X(T_G_MATCH_STARTS, "a match of {1} begins: {2}") \
	X(T_G_DEAL, "Deal {1}: {2} deals; {3} speaks first. Hands are sent privately.") \
	X(T_G_TURN_EXCHANGE, "{1}: exchange two cards with the centre privately (/msg me exchange CARD CARD) or {prefix}keep.") \
	X(T_G_TURN_DISCARD, "{1}: you took the nest card; discard one card that is not a counter, privately (/msg me discard CARD).") \
	X(T_G_TURN_PLAY_REVEAL, "{1}: your turn to play (or {prefix}reveal to have the trump shown).") \
	X(T_G_EXCHANGED, "{1} puts two cards down and takes the centre") \
	X(T_G_KEPT, "{1} keeps the hand (no exchange)") \
	X(T_G_LEADS, "play begins: {1} leads") \
	X(T_G_REVEAL_ASKED, "{1} asks for the trump: trumps are {2} (the trump card {3} goes back to the trumper)") \
	X(T_G_REVEAL_SELF, "{1} reveals the trump to cut: trumps are {2}; the card laid face down was {3}") \
	X(T_G_REVEAL_LAST, "the last trick: trumps are {1}; the card laid face down was {2}") \
	X(T_G_CUT, "{1} {2} (cuts)") \
	X(T_G_DRAW, "{1} draws ({2} left in the pile)") \
	X(T_G_SPOILT, "spoilt trumps: every trump was on {1}'s side; the deal is void") \
	X(T_G_LAST_DEAL, " | last deal: {1}") \
	X(T_G_CUT_OFFER, "{1}: you may cut the deck before the next deal: {prefix}cut N (1 to {3}), within {2} s.") \
	X(T_G_CUT_USAGE, "[{1}] cut N: N from 1 to {2} cards go from the top to the bottom of the deck") \
	X(T_G_DISCARDED, "{1} discards a card face down") \
	X(T_G_TRUMP_COLOUR, "{1} names trumps: {2}") \
	X(T_G_PRIVATELY, "[{1}] send that to me privately (/msg me ...): it names a card that goes face down. Nothing was done.") \
	X(T_G_NOT_IN_GAME, "[{1}] there is no {2} in {3}.") \
	X(T_G_BAD_COLOUR, "I cannot read \"{1}\" as a colour: red, green, yellow or black.") \
	X(T_G_REF_TURN, "it is not your turn: waiting for {1}") \
	X(T_G_REF_FOLLOW, "you must follow suit ({1})") \
	X(T_G_REF_HAND, "that card is not in your hand") \
	X(T_G_REF_BID, "that bid is not allowed here ({1})") \
	X(T_G_REF_BID_RANGE, "{1} to {2}, or pass") \
	X(T_G_REF_BID_MUST, "you must bid {1}") \
	X(T_G_REF_BID_MUST_MORE, "you must bid {1} or more") \
	X(T_G_REF_PASS_ONLY, "you may only pass") \
	X(T_G_REF_COUNTER, "counters (5, 10, 14, 1 and the Rook) cannot be discarded") \
	X(T_G_REF_MUST_CUT, "you had the trump shown: play a trump ({1})") \
	X(T_G_REF_OTHER, "that is not allowed now ({1})") \
	X(T_G_STATE_BID, "bidding") \
	X(T_G_STATE_HIGH, ", {1} by {2}") \
	X(T_G_STATE_TRUMP, "{1} is choosing the trump") \
	X(T_G_STATE_PILE, ", {1} in the pile") \
	X(T_G_SCORE_LINE, "{1}: {2}") \
	X(T_HELP_NEW, "{1}new GAME [PLAYERS]: between matches, choose the game: {2}") \
	X(T_LIST_OR, " or ") \
	X(T_NOBODY, "nobody") \
	X(T_SEAT_N, "seat {1}") \
	X(T_ANOTHER_PLAYER, "another player") \
	X(T_NOT_ALLOWED, "that is not allowed") \
	X(T_PHASE_NOW, "now") \
	X(T_DEAL_OVER, "the match is over: no more deals") \
	X(T_DEAL_IN_PROGRESS, "the previous deal has not ended") \
	X(T_NONE, "(none)") \
	X(T_SUIT_SPADES, "spades") \
	X(T_SUIT_HEARTS, "hearts") \
	X(T_SUIT_DIAMONDS, "diamonds") \
	X(T_SUIT_CLUBS, "clubs") \
	X(T_SUIT_NONE, "no suit") \
	X(T_EMPTY_SEAT, "an empty seat") \
	X(T_COMPUTER_NAMES, "Robo-North Robo-East Robo-South Robo-West") \
	X(T_COMPUTER_NAMES8, "Robo-North Robo-NorthEast Robo-East Robo-SouthEast Robo-South Robo-SouthWest Robo-West Robo-NorthWest") \
	X(T_COMPUTER_NAMES6, "Robo-North Robo-NorthEast Robo-SouthEast Robo-South Robo-SouthWest Robo-NorthWest") \
	X(T_VIA_DIRECT_ROOM, "in our direct room: ") \
	/* Lines the Matrix adapter says by itself (adapter_host.words). */ \
	X(T_NET_ASK_JOIN, "{1}: I have sent you private messages in a direct room; accept my invitation to read them.") \
	X(T_NET_SLOW, "(The homeserver limits how fast I may post, so my lines come late; the game waits for them.)") \
	X(T_NET_ENCRYPTED_OFF, "This room is encrypted, and encryption is turned off in my configuration, so I cannot " \
	  "read it and I am leaving. Ask whoever runs me to turn it on, or invite me to a room without encryption " \
	  "to play.") \
	X(T_NET_DROPPED, "Some of my lines to you were dropped: more were waiting for you than I may keep. Ask " \
			 "again once the rest has arrived.") \
	X(T_NET_BUSY_ROOM, "Some of my lines here were dropped: I had more to say than the network lets me send. " \
			   "{2}table shows where the game stands.") \
	X(T_NET_BUSY_PRIVATE, "Some of my lines to you were dropped: I had more to say than the network lets me " \
			      "send. Ask again in a minute.") \
	X(T_NET_UNREADABLE, "{1}: I could not read your encrypted message: its key has not reached me. Please send it " \
	  "again; if this keeps happening, check that your client shares keys with unverified devices.") \
	X(T_G_SIDES_AGAINST, "{1} against {2}") \
	X(T_G_SIDES_ALONE, "{1}, each on their own") \
	X(T_NAME_ROOM, "Which channel? Name it first: /msg me #channel {1}") \
	X(T_NOTIFY_OPEN_ON, "[{1}] No table is open here: I will tell you privately when one opens ({prefix}notify again to stop).") \
	X(T_NOTIFY_OPEN_OFF, "[{1}] I will no longer tell you when a table opens here.") \
	X(T_NOTIFY_OPENED, "A {2} table is open in {1}: {prefix}sit there to play.") \
	X(T_GAMES_INTRO, "The games I host ({1}new GAME [PLAYERS] in a channel opens a table; at a table {1}rules gives its options):") \
	X(T_HELP_PRIVATE, "{1}private msg|notice: how my private lines (your hand, your prompts) reach you: as private messages, in a window of their own (msg), or as notices, which irssi and weechat show in their status window (notice); remembered for you") \
	X(T_PRIVATE_NOW_MSG, "My private lines come to you as private messages, in a window of their own; {prefix}private notice to have them as notices.") \
	X(T_PRIVATE_NOW_NOTICE, "My private lines come to you as notices (irssi and weechat show them in their status window); {prefix}private msg to have them as private messages, in a window of their own.") \
	X(T_PRIVATE_ONE_WAY, "Here my private lines reach you one way only, so there is nothing to choose.") \
	X(T_HANDS_AS_MSG, "{1}: your cards come as private messages from {2}, in a window of their own ({3}private notice for notices instead).") \
	X(T_HANDS_AS_NOTICE, "{1}: your cards come as notices from {2}, which irssi and weechat show in their status window ({3}private msg for a window of their own).") \
	X(T_TABLE_OPENED_FULL, "A {3} table is open in {2}: you in seat 1, computer players in the others, and the first deal on its way. {1}help lists every command; after {1}stop, {1}new GAME [PLAYERS] opens another.")

/* Every line: the host's above, then each game's own (its presentation's
 * list, bot/games/present_texts.h), in one list of ids. */
#include "present_texts.h"
#define TEXT_ALL(X) TEXT_LIST(X) PRESENT_TEXTS(X)

enum text_id {
#define X(id, s) id,
	TEXT_ALL(X)
#undef X
	T_COUNT
};

/* Writes message id into buf with {1}..{nargs} replaced by args (borrowed);
 * {start} reads "!start" with the default prefix. Never overruns; returns the
 * full length like snprintf. */
size_t text_fmt(char *buf, size_t len, int id, int nargs, const char *const *args);

#endif
