/* answer.h: what a game answers to an action (304, Trump304 and Rook alike):
 * a refusal with its reason, or the events the action caused. */
#ifndef CARDBOT_ANSWER_H
#define CARDBOT_ANSWER_H

#include <stdint.h>

typedef struct play_event {
	uint8_t type, seat, flags;  /* the game's event number (its EV list) */
	uint8_t card;               /* a card of the game's pack, or its "none" */
	uint16_t value;
} play_event;

#define PLAY_EVENTS_MAX 16
typedef struct play_result {
	int err;            /* the game's refusal number; 0 (its ERR_OK) when accepted */
	int a, b;           /* parameters of the refusal (see the game's ERR list) */
	int nevents;
	play_event events[PLAY_EVENTS_MAX];
} play_result;

/* Each takes res NULL for "not wanted". */
/* Starts the answer to an action: accepted, no events yet. */
void play_clear(play_result *res);
/* What every game's apply does first: play_clear, then refuses a seat not
 * below nseats (err_seat, with the seat) or an action type not below
 * ntypes (err_action, with the type). Returns the refusal, or 0 to go on. */
int play_start(play_result *res, int seat, int nseats, int type, int ntypes, int err_seat, int err_action);
/* Makes res a refusal err with parameters a and b, and no events; returns err. */
int play_refuse(play_result *res, int err, int a, int b);
/* Adds an event (dropped once PLAY_EVENTS_MAX are there). */
void play_emit(play_result *res, int type, int seat, int value, uint8_t card, int flags);


/* What a seat's view of every game begins with (v: the game's view, g: its
 * state, which name these fields alike): the whole view cleared (views are
 * compared as bytes), the seat, and the state's phase, dealer, turn and
 * deal number. */
#define PLAY_VIEW_HEAD(v, g, seat_) \
	do { \
		memset((v), 0, sizeof *(v)); \
		(v)->seat = (uint8_t)(seat_); \
		(v)->phase = (g)->phase; \
		(v)->dealer = (g)->dealer; \
		(v)->turn = (g)->turn; \
		(v)->deal_no = (g)->deal_no; \
	} while (0)

/* A new deal's tricks in a game of two sides whose state names these
 * fields alike (g->trick_no, g->tricks[] with a winner, g->won[2] and
 * g->tricks_won[2]): no trick played yet (ntricks of them, each won by
 * no_seat), none won. */
#define PLAY_TRICKS_CLEAR(g, ntricks, no_seat) \
	do { \
		(g)->trick_no = 0; \
		memset((g)->tricks, 0, sizeof (g)->tricks); \
		for (int t_ = 0; t_ < (ntricks); t_++) \
			(g)->tricks[t_].winner = (no_seat); \
		(g)->won[0] = (g)->won[1] = 0; \
		(g)->tricks_won[0] = (g)->tricks_won[1] = 0; \
	} while (0)

/* Puts card c of seat in trick t (a game's trick with seat[], card[] and
 * n): the next place, then one more card in the trick. */
#define PLAY_TRICK_ADD(t, seat_, c_) \
	do { \
		(t)->seat[(t)->n] = (uint8_t)(seat_); \
		(t)->card[(t)->n] = (c_); \
		(t)->n++; \
	} while (0)

#endif
