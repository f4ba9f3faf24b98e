/* rook_ai_internal.h: the pieces of the Rook search player (engine/rook_ai*.c).
 *
 *   rook_ai_pos.c     the compact position, playout policy, exact solver
 *   rook_ai_sample.c  deals consistent with a seat's view
 *   rook_ai.c         the decisions: bid, discard, trump, card
 */
#ifndef CARDBOT_ROOK_AI_INTERNAL_H
#define CARDBOT_ROOK_AI_INTERNAL_H

#include "rook_ai.h"
#include "rng.h"

#define ROOK_AI_ALL ((((rcardset)1) << ROOK_CARDS) - 1)

/* A hand in play with every hand known. */
typedef struct rook_ai_pos {
	rcardset hand[ROOK_SEATS];
	int8_t trump;
	uint8_t bidder;
	uint16_t bid;
	uint8_t trick_no, n, turn;   /* tricks taken, cards in the one in play, seat to play */
	uint8_t seat[ROOK_SEATS];
	rcard card[ROOK_SEATS];
	int16_t pts[2];              /* counters each team has taken */
	uint8_t tricks[2];
	int16_t extra;               /* the discard's points, to the last trick's winners */
} rook_ai_pos;

/* The suit a card plays in (the Rook: trumps), and a suit's cards (inline:
 * the solver asks them at every position). */
static inline int rook_ai_suit(int trump, rcard c) { return c == ROOK_BIRD ? trump : rook_colour(c); }
static inline rcardset rook_ai_suit_mask(int trump, int suit)
{
	return rook_colour_mask(suit) | (suit == trump ? rook_bit(ROOK_BIRD) : 0);
}
/* The cards still in play: every hand and the trick on the table. */
static inline rcardset rook_ai_live(const rook_ai_pos *p)
{
	rcardset live = p->hand[0] | p->hand[1] | p->hand[2] | p->hand[3];
	for (int i = 0; i < p->n; i++)
		live |= rook_bit(p->card[i]);
	return live;
}
rcardset rook_ai_legal(const rook_ai_pos *p);
void rook_ai_play(rook_ai_pos *p, rcard c);
/* Points at the end: counters, the discard and the 20 for cards. */
void rook_ai_final_points(const rook_ai_pos *p, int pts[2]);
/* At the end: team's change of score less the other team's. */
int rook_ai_value(const rook_ai_pos *p, int team);
/* The playout policy's card (all hands known). */
rcard rook_ai_policy(const rook_ai_pos *p);
/* Plays the policy to the end; returns rook_ai_value for team. */
int rook_ai_playout(rook_ai_pos *p, int team);
/* A solved position at a trick's start: bounds on rook_ai_value for team. */
typedef struct rook_ai_tt {
	rcardset hand[ROOK_SEATS];
	int16_t pts[2], extra;
	uint8_t tricks[2], turn, team, used;
	int lo, hi;
} rook_ai_tt;
typedef struct rook_ai_solver {
	rook_ai_tt *tt;                        /* 1 << bits entries, or NULL */
	unsigned tt_mask;
	unsigned long nodes;
	rcard killer[ROOK_TRICKS][ROOK_SEATS]; /* the move that last cut, by trick and seat */
} rook_ai_solver;
/* The table of one solve (rook_ai_solve); a decision's solves share a
 * larger one (minimax_table; a killer of 0 is a card like any other: it
 * only orders the moves). */
#define ROOK_AI_TT_BITS_ONE 10
#define ROOK_AI_TT_BITS 14
/* The legal cards L less those equal to another: neighbours in a suit
 * with no live card between them and the same points. */
rcardset rook_ai_distinct(const rook_ai_pos *p, rcardset L);
/* rook_ai_value for team with best play by all (alpha-beta, fail-soft,
 * exact), with sv's table and killers. */
int rook_ai_solve_in(rook_ai_solver *sv, const rook_ai_pos *p, int team, int alpha, int beta);
/* The same with a table of its own; adds the positions searched to *nodes. */
int rook_ai_solve(const rook_ai_pos *p, int team, int alpha, int beta, unsigned long *nodes);
/* The compact position of a game in play, every hand known (tests and benchmarks). */
void rook_ai_pos_of(const rook *g, rook_ai_pos *p);

/* What a seat knows of the hidden cards: the unknown ones and where they
 * may lie (seats 0-3, and slot 4: the nest or another's discard). */
typedef struct rook_ai_vinfo {
	int ok;
	rcardset unknown;
	int cap[5];
	rcardset allow[5];
	rcardset favour[5];   /* cards a slot is likelier to hold (the bidder: trumps) */
	int factor;           /* how much likelier */
	/* The bidding: the highest bid each seat made (0: none) and the bid
	 * it passed rather than make (0: did not pass); the cards it has
	 * played since, to judge the hand it bid on. */
	int bid_hi[ROOK_SEATS], pass_at[ROOK_SEATS];
	rcardset gone[ROOK_SEATS];
	int me;
} rook_ai_vinfo;

void rook_ai_sample_view(const rook_view *v, rook_ai_vinfo *vi);
/* Deals the unknown cards: hands[4] get them added to (the seat's own is
 * to be set by the caller), *slot the nest or discard (ROOK_NONE if none). */
void rook_ai_sample_deal(const rook_ai_vinfo *vi, rng *r, rcardset hands[ROOK_SEATS], rcard *slot);

#endif
