/* text_en.c: English words for the engine's refusals; every user-facing refusal phrase lives here. */
#include <stdio.h>
#include <string.h>

#include "card.h"
#include "g304.h"
#include "text.h"

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

static const char *const refusal[G304_ERR_COUNT] = {
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

static const char *const phase_words[G304_PHASE_COUNT] = {
#define X(n, s) [G304_PHASE_##n] = PHASE_##n,
	G304_PHASE_LIST(X)
#undef X
};

#define REFUSAL_UNKNOWN "that is not allowed"
#define SEAT_UNKNOWN "another player"
#define PHASE_UNKNOWN "now"
#define DEAL_MATCH_OVER "the match is over: no more deals"
#define DEAL_IN_PROGRESS "the previous deal has not ended"

/* A writer that never overruns buf and counts what it would have written. */
struct out {
	char *buf;
	size_t len, n;
};

static void put(struct out *o, const char *s, size_t slen)
{
	if (o->n + 1 < o->len) {
		size_t room = o->len - 1 - o->n;
		memcpy(o->buf + o->n, s, slen < room ? slen : room);
	}
	o->n += slen;
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

static size_t finish(struct out *o)
{
	if (o->len > 0)
		o->buf[o->n < o->len ? o->n : o->len - 1] = '\0';
	return o->n;
}

/* Writes the value of one placeholder (name without braces) for parameter a. */
static void expand(struct out *o, const char *name, size_t nlen, int a,
		   const char *const names[G304_SEATS])
{
	char tmp[32];
	if (nlen == 4 && !memcmp(name, "seat", 4)) {
		if (a < 0 || a >= G304_SEATS) {
			puts_(o, SEAT_UNKNOWN);
		} else if (names && names[a]) {
			puts_(o, names[a]);
		} else {
			int k = snprintf(tmp, sizeof tmp, "seat %d", a);
			if (k > 0 && (size_t)k < sizeof tmp)
				puts_(o, tmp);
		}
	} else if (nlen == 1 && name[0] == 'n') {
		int k = snprintf(tmp, sizeof tmp, "%d", a);
		if (k > 0 && (size_t)k < sizeof tmp)
			puts_(o, tmp);
	} else if (nlen == 4 && !memcmp(name, "suit", 4)) {
		puts_(o, suit_name(a));
	} else if (nlen == 4 && !memcmp(name, "card", 4)) {
		card_code(a >= 0 && a < CARD_COUNT ? (card)a : CARD_NONE, tmp);
		puts_(o, tmp);
	} else if (nlen == 5 && !memcmp(name, "phase", 5)) {
		puts_(o, a >= 0 && a < G304_PHASE_COUNT ? phase_words[a] : PHASE_UNKNOWN);
	} else {
		/* Not a placeholder: keep the text as written. */
		put(o, name - 1, nlen + 2);
	}
}

size_t text_refusal(char *buf, size_t len, const game_result *res, const char *const names[G304_SEATS])
{
	struct out o = { buf, len, 0 };
	const char *t = REFUSAL_UNKNOWN;
	if (res && res->err >= 0 && res->err < G304_ERR_COUNT)
		t = refusal[res->err];
	int a = res ? res->a : 0;
	while (*t) {
		const char *open = strchr(t, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			puts_(&o, t);
			break;
		}
		put(&o, t, (size_t)(open - t));
		expand(&o, open + 1, (size_t)(close - open - 1), a, names);
		t = close + 1;
	}
	return finish(&o);
}

size_t text_deal_refused(char *buf, size_t len, int over)
{
	struct out o = { buf, len, 0 };
	puts_(&o, over ? DEAL_MATCH_OVER : DEAL_IN_PROGRESS);
	return finish(&o);
}

static const char *const messages[T_COUNT] = {
#define X(id, str) [id] = str,
	TEXT_LIST(X)
#undef X
};

size_t text_fmt(char *buf, size_t len, int id, int nargs, const char *const *args)
{
	struct out o = { buf, len, 0 };
	const char *t = id >= 0 && id < T_COUNT ? messages[id] : "";
	while (*t) {
		if (t[0] == '{' && t[1] >= '1' && t[1] <= '9' && t[2] == '}') {
			int k = t[1] - '1';
			if (k < nargs && args[k])
				puts_(&o, args[k]);
			t += 3;
		} else if (!strncmp(t, "{start}", 7)) {
			puts_(&o, "!start");
			t += 7;
		} else {
			put(&o, t, 1);
			t++;
		}
	}
	return finish(&o);
}
