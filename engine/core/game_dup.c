/* game_dup.c: one duplicate deal between two players, in any game. */
#include <string.h>
#include "game_dup.h"

#define REDEALS_MAX 12

/* The side seat s plays for. */
static int side_of(int s, int nsides) { return nsides > 0 ? s % nsides : 0; }

/* One playing of the deal: A sits in side a_side (-1: nobody, the
 * reference). Fills *o with how it ended; 0, or -1 when it broke. */
static int playing(const game_def *def, int nseats, uint64_t deck_seed, int index, int a_side, game_dup_decider decide,
		   void *ctx, game_dup_deal *out, game_outcome *o)
{
	int err = 0;
	game *g = game_new(def, nseats, index % nseats, NULL, &err);
	if (!g)
		return -1;
	int ev_end = game_ev_parse(def, "deal_end");
	if (ev_end < 0)
		ev_end = game_ev_parse(def, "hand_end");
	rng r;
	rng_seed(&r, deck_seed * 0x9e3779b97f4a7c15ull + (uint64_t)index);
	memset(o, 0, sizeof *o);
	int rc = 0, deals = 0, ended = 0;
	while (!ended && rc == 0) {
		game_status st;
		game_status_of(g, &st);
		if (st.over)
			break;
		if (st.needs_deal) {
			uint8_t deck[GAME_MAX_DECK];
			if (deals++ >= REDEALS_MAX)
				break;
			game_shuffle(def, &r, deck);
			if (game_deal(g, deck) != 0)
				rc = -1;
			continue;
		}
		if (st.turn == GAME_NO_SEAT) {
			rc = -1;
			break;
		}
		int player = side_of(st.turn, st.nsides) == a_side ? 0 : 1;
		game_action a;
		game_result res;
		if (!decide(ctx, player, g, st.turn, &a) || game_apply(g, &a, &res) != 0) {
			out->refused++;
			rc = -1;
			break;
		}
		out->actions++;
		for (int i = 0; i < res.nevents; i++)
			if (res.events[i].type == ev_end) {
				game_outcome_of(g, o);
				/* A redeal draws the next deck; anything else ends the deal. */
				ended = !(o->outcome && !strcmp(o->outcome, "redeal"));
			}
	}
	game_free(g);
	return rc;
}

int game_dup_play(const game_def *def, int nseats, uint64_t deck_seed, int index, game_dup_decider decide, void *ctx,
		  game_dup_deal *out)
{
	memset(out, 0, sizeof *out);
	int err = 0;
	game *g = game_new(def, nseats, 0, NULL, &err);
	if (!g)
		return -1;
	game_status st;
	game_status_of(g, &st);
	game_free(g);
	int nsides = st.nsides ? st.nsides : nseats;
	game_outcome ref;
	if (playing(def, nseats, deck_seed, index, -1, decide, ctx, out, &ref) < 0)
		return 0;
	for (int h = 0; h < nsides && h < GAME_MAX_SIDES; h++) {
		game_outcome o;
		if (playing(def, nseats, deck_seed, index, h, decide, ctx, out, &o) < 0)
			return 0;
		out->halves++;
		out->score += o.change[h] - ref.change[h];
		if (o.nsides == 2 && ref.nsides == 2) /* card points are kept per team */
			out->points += o.points[h] - ref.points[h];
		if (o.made != -1 && o.bidder != GAME_NO_SEAT) {
			int who = side_of(o.bidder, nsides) == h ? 0 : 1;
			out->bids[who]++;
			out->made[who] += o.made > 0;
		}
	}
	return 0;
}
