/* present_named.h: words for games whose presentation works from the
 * names of their actions and events (Trump304, Rook): the turn line,
 * refusals, a record's action, the game's commands, hints, the events of
 * an action, !last, !table and !score. Each game gives the few things that
 * differ (its cards, its suits or colours, the words of a deal's end) in a
 * present_named_game; bot/games/present_t304.c and bot/games/present_rook.c use it.
 */
#ifndef CARDBOT_PRESENT_NAMED_H
#define CARDBOT_PRESENT_NAMED_H

#include "table_int.h"

/* A trick as everyone may see it (present_named_game.trick). */
typedef struct named_trick {
	int n;                    /* cards in it (0: none) */
	uint8_t seats[GAME_MAX_SEATS], cards[GAME_MAX_SEATS];
	uint8_t winner;           /* the last trick's */
	int trick_no;             /* the current trick's number from 0, or tricks taken */
	int bid, bidder;          /* the high bid and who made it (bid 0: none) */
	int trump;                /* a trump suit or colour everyone knows, or -1 */
} named_trick;

/* Where a deal stands as one seat may see it, for its hand line. */
enum { NAMED_BETWEEN, NAMED_BIDDING, NAMED_WAITING, NAMED_PLAYING };
typedef struct named_state {
	int phase;              /* NAMED_* */
	int bid, bidder;        /* the high bid and who made it (bid 0: none) */
	int t_waiting, waiting; /* NAMED_WAITING: the line and the seat it names */
	int trick_no;           /* NAMED_PLAYING: from 0 */
	const char *led;        /* the suit led, or NULL */
	int t_trumps;           /* the trump line (T_STATE_TRUMPS, ..._MY_TRUMP, ..._TRUMP_HIDDEN), 0: none */
	char trumps[64];        /* its word */
	int pile;               /* Trump304: cards in the pile, 0: none */
	int your_turn;
	uint64_t hand;          /* the seat's cards */
} named_state;

/* What a game's phase shows in the hand line: NAMED_*, and for
 * NAMED_WAITING the line that names the seat waited for. */
typedef struct named_phase {
	int named;
	int t_waiting;
} named_phase;

typedef struct present_named_game {
	/* One card, a suit (or colour: in the words of t's reader), in style (RENDER_*). */
	void (*card)(strbuf *b, int c, int style);
	void (*suit)(const table *t, strbuf *b, int x, int style);
	/* A card as a player names it: the card at position pos (from 1)
	 * of hand as seat s is shown it, or by its name; -1: none. */
	int (*hand_at)(const table *t, int s, uint64_t hand, int pos);
	int (*card_word)(const char *w);
	int t_bad_card;           /* the line for a card word not understood */
	int t_bid_usage;          /* "bid N (...)": a text id */
	int t_bidding_won;        /* the line when the bidding is won (name, bid) */
	int t_turn_trump;         /* "your turn to choose the trump" */
	/* `trump` names a colour (Rook), not a card: its number from a word
	 * (-1: none), its letter in a record, its name. NULL: a card. */
	int (*colour_parse)(const char *w);
	char (*colour_letter)(int colour);
	const char *(*colour_name)(int colour);
	/* Seat s's view of where the deal stands (named_state_of fills in
	 * its phase from phases, indexed by the game's phase, nphases of
	 * them, and whose turn it is): the seat's hand, the bid, the seat
	 * waited for, in play the trick and trumps; the cards of set
	 * in its hand's order (numbered: with positions, as `play 3` reads
	 * them); the parts of its hand line that only this game has, between
	 * the hand and the cards it may play. */
	void (*state)(const table *t, int s, named_state *out);
	const named_phase *phases;
	int nphases;
	void (*cards)(const table *t, int s, strbuf *b, uint64_t set, int numbered);
	void (*hand_extras)(table *t, int s, const game_legal *l, strbuf *b);
	/* The current trick (last 0) or the last one taken (last 1), as seat
	 * s (-1: nobody seated) may see it. */
	void (*trick)(const table *t, int s, int last, named_trick *out);
	/* The words of a deal's end after named_verdict's (the score included). */
	void (*deal_end)(table *t);
	int t_made, t_set;        /* the verdict's lines: the bidder's side made or missed its bid (name, bid, points) */
	/* After an action's events: a hand that changed without its owner
	 * acting besides a draw's (named_events sends every hand but the
	 * mover's after one); revealed: a trump was revealed. NULL: none. */
	void (*hands_changed)(table *t, int revealed);
	/* Trump304's cut: a played card with flags bit 0 cuts (said so). */
	int cut_flag;
	int t_terms;              /* the line of the match's terms, after who plays whom */
	/* Trump304: who paid whom in the last deal ("" none), for !score; NULL: none. */
	void (*payments)(const table *t, char *buf, size_t len);
	/* game_outcome.points are the bidder's side's, then the others'
	 * (Trump304), not team 0's and team 1's (Rook). */
	int points_by_bidder;
} present_named_game;

int named_can(const table *t, const game_legal *l, const char *name);
/* The cards of a trick into out (the first n of seats and cards, each of
 * size bytes), and the winner of a trick taken. */
void named_trick_cards(named_trick *out, int n, const uint8_t *seats, const uint8_t *cards, size_t size, int winner);
/* "ann bid 160 and took 170: made", from the deal's end (t_made, t_set):
 * what every such game says first at the end of a deal. */
void named_verdict(table *t, const game_outcome *o);
/* Where the deal stands as seat s may see it (present_named_game.state). */
void named_state_of(const table *t, int s, named_state *x);
/* "ann & cat 12, ben & dev -12": each side's score. */
void named_scores(const table *t, char *buf, size_t len);

/* The functions of a presentation (present.h) for such a game; each reads
 * the game's present_named_game from t->pr->words. */
int named_turn(table *t, int s);
void named_refusal(table *t, const game_result *res, int who, char *buf, size_t len);
void named_action_json(const table *t, const game_action *a, char *out, size_t len);
void named_hint_text(table *t, int s, const game_action *a, char *buf, size_t len);
void named_events(table *t, const game_result *res);
int named_command(table *t, const char *user, int s, int in_room, int argc, char **argv);
void named_last(table *t, const char *user, int s);
void named_table_line(table *t, const char *user, strbuf *b);
void named_match_start(table *t);
void named_hand(table *t, int s);
/* The cards seat s holds (present.cards_held). */
int named_cards_held(const table *t, int s);
void named_dealt(table *t);
void named_score(table *t, char *buf, size_t len);
/* Each seat's share of the deal that just ended (store_result): its side
 * (the team with four players, else the seat), the game's outcome word,
 * the bid and whether it was made for the bidder, won (the side came out
 * ahead in the deal), the card points of the seat's side, no caps. */
void named_deal_results(const table *t, store_deal_end *end);
/* The simple player's choice (every game has one). */
int named_choose(table *t, int s, int why, game_action *a);

/* The presentation functions that every such game shares. */
#define PRESENT_NAMED_FUNCS \
	.name_in_table_line = 1, .hand = named_hand, .match_start = named_match_start, .dealt = named_dealt, .events = named_events, \
	.refusal = named_refusal, .turn = named_turn, .table_line = named_table_line, .score = named_score, \
	.command = named_command, .choose = named_choose, .hint_text = named_hint_text, \
	.action_json = named_action_json, .deal_results = named_deal_results, \
	.cards_held = named_cards_held

#endif
