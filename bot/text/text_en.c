/* text_en.c: the English table: every line (bot/text/text.h's TEXT_LIST), the
 * engine's refusals and its phases; and the English-only wrappers. */
#include "g304.h"
#include "text.h"
#include "text_lang.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * One template per refusal code. A template may hold one of these
 * placeholders, each standing for parameter a of the g304_result:
 *   {seat}   the name of seat a        {n}      a as a number
 *   {suit}   the suit a, in words      {card}   the card code of a
 *   {phase}  what the table is doing in phase a ("during play")
 * Templates are not printf formats, so a name or a stray '%' can never be
 * read as one. The table below is generated from G304_ERR_LIST: a code the
 * engine adds without a REFUSAL_ line here stops the build.
 */
#define REFUSAL_OK "that is allowed"
#define REFUSAL_BAD_SEAT "there is no such seat at this table"
#define REFUSAL_BAD_ACTION "that is not something you can do in 304"
#define REFUSAL_MATCH_OVER "the match is over"
#define REFUSAL_NO_DEAL "no deal is in play: the last one has ended and the next is not dealt yet"
#define REFUSAL_NOT_YOUR_TURN "it is not your turn: waiting for {seat}"
#define REFUSAL_WRONG_PHASE "that cannot be done {phase}"
#define REFUSAL_REJECT_NOT_FIRST \
	"only {seat}, the first to bid, may throw in the cards for a redeal"
#define REFUSAL_REJECT_TOO_LATE \
	"a redeal may be asked for only before your first bid or pass"
#define REFUSAL_REJECT_POINTS \
	"your four cards are worth {n} points; a redeal needs fewer than " STR(G304_REJECT_BELOW)
#define REFUSAL_BID_NOT_MULTIPLE \
	"you cannot bid {n}: bids go up in tens (in fives from " STR(G304_LIMIT_BID) \
	" where the table allows fives)"
#define REFUSAL_BID_TOO_LOW "the lowest bid allowed here is {n}"
#define REFUSAL_BID_NOT_HIGHER "a bid must be higher than {n}"
#define REFUSAL_BID_TOO_HIGH \
	"no bid may be over {n}; above that there is only pcc, with eight cards"
#define REFUSAL_BID_SECOND_TURN \
	"on your second turn a bid must be " STR(G304_LIMIT_BID) " or more"
#define REFUSAL_BID_OVER_PARTNER \
	"a bid under " STR(G304_LIMIT_BID) " is not allowed while your partner holds the highest bid"
#define REFUSAL_MUST_OPEN \
	"you speak first at this table size and must open the bidding: bid {n} or more"
#define REFUSAL_SINGLE_ONCE \
	"at this table you may bid only once, unless you make the first bid of " \
	STR(G304_LIMIT_BID) " or more"
#define REFUSAL_SINGLE_PARTNER \
	"at this table you may not bid over your partner, unless you make the first bid of " \
	STR(G304_LIMIT_BID) " or more"
#define REFUSAL_PCC_FOUR "pcc may be bid only in the eight-card bidding"
#define REFUSAL_BID8_PARTNER \
	"your partner holds the highest eight-card bid: you must pass"
#define REFUSAL_ASK_EIGHT "you cannot ask your partner in the eight-card bidding"
#define REFUSAL_ASK_ANSWERING "your partner asked you to speak: bid or pass"
#define REFUSAL_ASK_PARTNER_HIGH \
	"your partner already holds the highest bid: bid or pass yourself"
#define REFUSAL_NOT_TRUMPER "only the trumper ({seat}) may do that"
#define REFUSAL_TRUMP_NOT_FIRST4 \
	"the trump card must be one of your first four cards, and {card} is not"
#define REFUSAL_NOT_IN_HAND "you do not hold {card}"
#define REFUSAL_OPEN_TOO_LATE "the game can be opened only before the first card is played"
#define REFUSAL_ALREADY_OPEN "the game is already open"
#define REFUSAL_FOLLOW_SUIT "you must follow suit: you hold {suit}"
#define REFUSAL_TRUMP_CARD_RESERVED \
	"the trump card may only be played to cut, or as your last card"
#define REFUSAL_CUT_WITH_TRUMP_CARD \
	"while the trump card lies on the table you may cut only with it; " \
	"to throw, play a card that is not a trump"
#define REFUSAL_NO_TRUMP_LEAD_FIRST \
	"you may not lead a trump to the first trick of a closed game " \
	"(you sit after the dealer); open the game to lead trumps"
#define REFUSAL_EXHAUSTED_TRUMPS \
	"exhausted trumps: you must keep leading trumps while you hold them"
#define REFUSAL_SITTING_OUT "you sit out this deal: your partner bid partner close caps"
#define REFUSAL_SPOILT_NOT_IN_PLAY \
	"spoilt trumps can be called only during play, once all eight cards are dealt"
#define REFUSAL_CAPS_OFF "caps calls are off at this table"
#define REFUSAL_CAPS_PCC \
	"there is no caps call in partner close caps: winning every trick is the bid itself"
#define REFUSAL_CAPS_NOT_YOURS "at this table only the trumper's team may call caps"
#define REFUSAL_CAPS_CALLED "{seat} has already called caps"
#define REFUSAL_CAPS_ORDER \
	"a caps call must list each of your {n} cards once, in the order you will play them"
#define REFUSAL_CAPS_NEXT "you called caps: your next card must be {card}, as your order says"

static const char *const text_en_refusals[G304_ERR_COUNT] = {
#define X(n, s) [G304_ERR_##n] = REFUSAL_##n,
	G304_ERR_LIST(X)
#undef X
};

/* What the table is doing in each phase, to end "that cannot be done ...". */
#define PHASE_DEAL "between deals"
#define PHASE_BID4 "during the four-card bidding"
#define PHASE_TRUMP4 "while the trump card is being chosen"
#define PHASE_BID8 "during the eight-card bidding"
#define PHASE_TRUMP8 "while the new trump card is being chosen"
#define PHASE_PLAY "during play"
#define PHASE_OVER "now that the match is over"

static const char *const text_en_phases[G304_PHASE_COUNT] = {
#define X(n, s) [G304_PHASE_##n] = PHASE_##n,
	G304_PHASE_LIST(X)
#undef X
};

const char *const text_en_lines[T_COUNT] = {
#define X(id, str) [id] = str,
	TEXT_LIST(X)
#undef X
};

const text_lang text_lang_en = { "en", "English", text_en_lines, text_en_refusals, text_en_phases, G304_ERR_COUNT,
				 G304_PHASE_COUNT };

/* The English of callers with no reader (the CLI, replays, logs). */
size_t text_refusal(char *buf, size_t len, const game_result *res, const char *const *names)
{
	return text_refusal_in(&text_lang_en, buf, len, res, names);
}

size_t text_deal_refused(char *buf, size_t len, int over)
{
	return text_deal_refused_in(&text_lang_en, buf, len, over);
}

size_t text_fmt(char *buf, size_t len, int id, int nargs, const char *const *args)
{
	return text_fmt_in(&text_lang_en, buf, len, id, nargs, args);
}
