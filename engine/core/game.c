/* game.c: the common game interface: the registry of games (each game's
 * game_def lives in its own folder: engine/g304/g304_game.c,
 * engine/t304/t304_game.c, engine/rook/rook_game.c) and the generic driver. */
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "names.h"

/* ---- the interface ---- */

/* The computer players' levels, the same words in every game. */
static const char *const level_names[GAME_AI_LEVELS] = { "easy", "normal", "strong" };

const char *game_ai_level_name(int level)
{
	return level >= 0 && level < GAME_AI_LEVELS ? level_names[level] : "?";
}

int game_ai_level_parse(const char *name)
{
	for (int i = 0; i < GAME_AI_LEVELS; i++)
		if (name && strcmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

void game_ai_params_default(game_ai_params *p, int level, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	p->level = level;
	p->seed = seed;
}

int game_ai_decide(const game *g, int who, const game_ai_params *p, game_ai_stats *stats, game_action *a)
{
	rng r;
	rng_seed(&r, p->seed);
	if (!g->def->ai_action || p->level <= GAME_AI_EASY)
		return game_bot_action(g, who, &r, a);
	game_legal l;
	game_legal_of(g, who, &l);
	if (!l.acts)
		return 0;
	void *v = malloc(g->def->view_size);
	if (!v)
		return game_bot_action(g, who, &r, a);
	game_view(g, who, v);
	int ok = g->def->ai_action(v, &l, p, stats, a);
	free(v);
	return ok;
}

/* Every game, in the order game_at_seats prefers a family's sizes. */
static const game_def *const all_games[] = { &game_def_304, &game_def_304six, &game_def_304eight, &game_def_304six24,
					     &game_def_504, &game_def_904, &game_def_trump304, &game_def_rook };

const game_def *game_find(const char *name)
{
	for (size_t i = 0; i < sizeof all_games / sizeof all_games[0]; i++)
		if (name && !strcmp(name, all_games[i]->name))
			return all_games[i];
	return NULL;
}

const game_def *game_at_seats(const game_def *def, int nseats)
{
	if (!def || !def->family || (nseats >= def->min_seats && nseats <= def->max_seats))
		return def;
	for (size_t i = 0; i < sizeof all_games / sizeof all_games[0]; i++)
		if (all_games[i]->family && !strcmp(all_games[i]->family, def->family)
		    && nseats >= all_games[i]->min_seats && nseats <= all_games[i]->max_seats)
			return all_games[i];
	return def;
}

game *game_new(const game_def *def, int nseats, int first_dealer, const void *rules, int *err)
{
	int e = 0;
	game *g = NULL;
	if (nseats < def->min_seats || nseats > def->max_seats || first_dealer < 0 ||
	    first_dealer >= nseats) {
		e = 1;
	} else if (!(g = malloc(sizeof *g)) || !(g->state = calloc(1, def->state_size))) {
		free(g);
		g = NULL;
		e = 2;
	} else {
		g->def = def;
		if (def->init(g->state, nseats, first_dealer, rules)) {
			game_free(g);
			g = NULL;
			e = 1;
		}
	}
	if (err)
		*err = e;
	return g;
}

void game_free(game *g)
{
	if (!g)
		return;
	free(g->state);
	free(g);
}

game *game_copy(const game *g)
{
	game *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	c->def = g->def;
	c->state = malloc(g->def->state_size);
	if (!c->state) {
		free(c);
		return NULL;
	}
	memcpy(c->state, g->state, g->def->state_size);
	return c;
}

void game_shuffle(const game_def *def, rng *r, uint8_t *deck) { rng_shuffle(r, deck, def->deck_size); }

int game_deck_ok(const game_def *def, const uint8_t *deck)
{
	game_cards seen = 0;
	for (int i = 0; i < def->deck_size; i++) {
		if (deck[i] >= def->deck_size || (seen >> deck[i] & 1))
			return 0;
		seen |= (game_cards)1 << deck[i];
	}
	return 1;
}

int game_ev_parse(const game_def *def, const char *name)
{
	return names_find(def->ev_name, def->ev_count, name);
}
