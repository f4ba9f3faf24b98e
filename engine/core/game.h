/* game.h: one interface for every game a table can host (304, Trump304, Rook).
 *
 * Each game is a table of functions (struct game_def) over its own state.
 * Actions, events, legal moves, status and the end of a deal are given in
 * game-neutral structs; names of phases, actions, refusals and events are
 * the game's own stable words (the ones records and tests use). Cards are
 * numbers in the game's own pack (0..deck_size-1): card_code/card_parse turn
 * them into record codes ("JS"; "14R", "ROOK").
 *
 * How a host drives a game:
 *   def = game_find("trump304");
 *   g = game_new(def, nseats, first_dealer, NULL, &err);
 *   loop: game_status_of(g, &st);
 *     st.over: the match has ended (304 and Rook; Trump304 never ends).
 *     st.needs_deal: game_shuffle(def, rng, deck); game_deal(g, deck).
 *     else st.turn is the seat to act: game_legal_of(g, st.turn, &l) says what it
 *       may do; game_apply(g, &action, &res) either refuses (res.err with
 *       def->err_name and res.a/res.b) or returns the events; after an event
 *       named "deal_end" (304, Trump304) or "hand_end" (Rook),
 *       game_outcome_of(g, &o) says how it ended. (304 only: spoilt, caps
 *       and open may come from a seat other than st.turn.)
 *     game_view(g, seat, buf) fills the game's own view struct (g304_view,
 *       t304_view, rook_view: def->view_size bytes) with what seat may know.
 *     A timer or an absent player: game_random_action (the timer's move) or
 *       game_bot_action (the simple computer player, which decides from the
 *       seat's view only).
 * No I/O, no clock; all randomness comes through the rng passed in.
 */
#ifndef CARDBOT_GAME_H
#define CARDBOT_GAME_H

#include <stddef.h>
#include <stdint.h>
#include "rng.h"
#include "answer.h"

typedef uint64_t game_cards;      /* bit c: card c of the game's pack */
#define GAME_NO_SEAT 0xff
#define GAME_NO_CARD 0xff
#define GAME_MAX_SEATS 8
#define GAME_MAX_SIDES 4
#define GAME_MAX_DECK 64
#define GAME_ACTION_CARDS 8
#define GAME_EVENTS_MAX 24

typedef struct game_action {
	uint8_t type;     /* the game's action number (def->act_name, def->act_parse) */
	uint8_t seat;
	uint16_t value;   /* bid (304's pcc: 400); Rook's trump: colour 0-3 */
	uint8_t ncards;
	uint8_t cards[GAME_ACTION_CARDS]; /* play/trump/discard: one card; Trump304's
	                                   * exchange: the two put down; 304's caps: the order */
} game_action;

/* Each game's own event: type is def->ev_name's number; card is GAME_NO_CARD
 * unless the event names a card all may see. */
typedef play_event game_event;

typedef struct game_result {
	int err;          /* 0 when accepted; else def->err_name(err) */
	int a, b;         /* parameters of a refusal (see the game's header) */
	int nevents;
	game_event events[GAME_EVENTS_MAX];
} game_result;

typedef struct game_legal {
	uint32_t acts;            /* bit (1 << action number) */
	uint16_t bid_min, bid_max; /* when a bid is allowed: the range (the game's steps apply) */
	game_cards cards;         /* the cards for the card actions allowed now */
} game_legal;

/* ---- computer players ----
 * Every game has its rule-based player (bot_action, level easy). A game
 * with a search player (def->ai_action) plays levels normal and strong
 * with it: it samples the cards the seat cannot see, consistently with
 * everything the seat has seen, and plays the moves out on each sample.
 * A search player decides from the seat's view alone, is pure (no clock,
 * no I/O: the same view, legal moves and params give the same action,
 * unless stop cuts it short) and safe to run on a worker thread. */
enum game_ai_level { GAME_AI_EASY, GAME_AI_NORMAL, GAME_AI_STRONG, GAME_AI_LEVELS };
/* "easy", "normal", "strong"; and back (-1 if unknown). */
const char *game_ai_level_name(int level);
int game_ai_level_parse(const char *name);

typedef struct game_ai_params {
	int level;              /* enum game_ai_level; easy is the rule-based player */
	uint64_t seed;          /* the search's random stream */
	unsigned samples;       /* sampled deals per decision (0: the level's default) */
	/* Polled between samples: nonzero ends the search with what it has
	 * (a time budget; at least one sample is always searched). May be NULL. */
	int (*stop)(void *ctx);
	void *stop_ctx;
	/* The card search's exact solver when it is not the engine's own (the
	 * benchmark's players of before issue 33; NULL: the engine's). pos is
	 * the game's compact position (t3pos, rook_ai_pos), side what the
	 * game's solver takes besides (Rook: the team), the answer fail-soft in
	 * (alpha, beta) as the game's solver gives it; may_stop: stop may cut
	 * this solve short, which sets *aborted. */
	int (*solve)(void *ctx, const void *pos, int side, int alpha, int beta, int may_stop, int *aborted);
	void *solve_ctx;
	/* The strong player as it was before issue 33 (the benchmark's
	 * strong0): Rook's sample counts; Trump304's bidding, trump choice
	 * and exchange on fewer simulated deals played out by its policy. */
	int counts_before;
} game_ai_params;

typedef struct game_ai_stats {
	unsigned long samples;   /* sampled deals */
	unsigned long playouts;  /* playouts to the end of the deal */
	unsigned long solves;    /* exact endgame solutions */
	unsigned long nodes;     /* positions an exact solver visited */
} game_ai_stats;

void game_ai_params_default(game_ai_params *p, int level, uint64_t seed);

typedef struct game_status {
	uint8_t phase;            /* def->phase_name */
	uint8_t turn;             /* seat to act, or GAME_NO_SEAT */
	uint8_t dealer;
	uint8_t nseats;
	uint8_t needs_deal;       /* waiting for a deck */
	uint8_t over;             /* the match has ended */
	int8_t winner;            /* the winning side once over, else -1 */
	uint8_t nsides;           /* sides of the score: teams, or seats (Trump304 with 2 or 3) */
	uint16_t deal_no;         /* deals started */
	int32_t score[GAME_MAX_SIDES]; /* 304: tokens left; Trump304: running tokens (may be < 0); Rook: points */
} game_status;

/* How the last deal ended (ended = 0 before any). */
typedef struct game_outcome {
	uint8_t ended;
	const char *outcome;      /* "scored", "spoilt", "passed_out", "redeal" */
	uint8_t bidder;           /* trumper or bidder, GAME_NO_SEAT if none */
	uint16_t bid;
	int8_t made;              /* 1, 0, -1 when no bid was played */
	int16_t points[2];        /* card points: 304 and Rook team 0, team 1; Trump304
	                           * the trumper's side, the other side */
	uint8_t nsides;
	int32_t change[GAME_MAX_SIDES]; /* score change of each side in this deal */
	int32_t score[GAME_MAX_SIDES];  /* scores after it */
} game_outcome;

/* ---- a game's options (RULES.md: the table options) ----
 * A game with options declares them here, and the host keeps, stores,
 * parses and prints them through this list alone: each option is one byte
 * of the game's own rules struct (what init takes), one of its words. */
#define GAME_RULES_MAX 16         /* bytes of a game's rules struct (304's: 5) */
#define GAME_OPTION_WORDS 4       /* words an option takes, at most */
typedef struct game_option {
	const char *key;              /* "caps": how records, settings and !set name it */
	uint8_t off;                  /* its byte in the rules struct */
	uint8_t dflt;                 /* its value where nothing says otherwise */
	uint8_t onoff;                /* a switch: words "off", "on"; true and false too */
	const char *words[GAME_OPTION_WORDS + 1]; /* value i's word, NULL-ended */
	const char *alias;            /* another word for value alias_of ("transfer"), or NULL */
	uint8_t alias_of;
	const char *what;             /* the value in words, for a message: "a caps rule" */
} game_option;

/* A game's rules struct as bytes, aligned for any struct of bytes. */
typedef struct game_rules {
	uint8_t b[GAME_RULES_MAX];
} game_rules;

typedef struct game_def {
	const char *name;               /* "304", "trump304", "rook" */
	uint8_t min_seats, max_seats;
	uint8_t deck_size;              /* 32, or 57 for Rook */
	size_t state_size, view_size;
	/* rules: the game's options (g304_rules for 304), NULL for defaults. */
	int (*init)(void *st, int nseats, int first_dealer, const void *rules);
	int (*deal)(void *st, const uint8_t *deck);
	int (*apply)(void *st, const game_action *a, game_result *res);
	void (*legal)(const void *st, int seat, game_legal *out);
	void (*view)(const void *st, int seat, void *out);
	void (*status)(const void *st, game_status *out);
	void (*outcome)(const void *st, game_outcome *out);
	int (*random_action)(const void *st, int seat, rng *r, game_action *out);
	int (*bot_action)(const void *st, int seat, rng *r, game_action *out);
	const char *(*phase_name)(int);
	const char *(*act_name)(int);
	int (*act_parse)(const char *);
	const char *(*err_name)(int);
	const char *(*ev_name)(int);
	void (*card_code)(uint8_t c, char out[8]);
	uint8_t (*card_parse)(const char *s);  /* GAME_NO_CARD when unknown */
	int act_count, ev_count;
	/* The search player (see "computer players" below): decides for the
	 * seat of view (the game's view struct) from its legal moves l.
	 * Returns 1 with *out filled, 0 when the seat has nothing to do.
	 * NULL: the game has none, and bot_action is its best player. */
	int (*ai_action)(const void *view, const game_legal *l, const struct game_ai_params *p,
			 struct game_ai_stats *stats, game_action *out);
	/* Its options, ended by one with a NULL key; NULL: the game has none
	 * (init is given NULL rules). */
	const game_option *options;
	/* The word that names the game at every table size it shares with
	 * other games ("304" for 304, 304six, 304eight and 304six24: "!new 304
	 * 8" is 304eight); NULL: only its name names it. */
	const char *family;
} game_def;

/* The option of def named key (exactly, or ignoring case when nocase), or NULL. */
const game_option *game_option_find(const game_def *def, const char *key, int nocase);
/* The value of word for option o (its words, its alias; a switch also takes
 * on/off/true/false/yes/no when nocase), or -1. Exact case unless nocase. */
int game_option_parse(const game_option *o, const char *word, int nocase);
/* The word of value v of option o ("?" when out of range). */
const char *game_option_word(const game_option *o, int v);
/* Every option of def at its default, into r (zero past them). */
void game_rules_default(const game_def *def, game_rules *r);

/* Options as a host keeps them without knowing the game: values by key
 * (a table's settings, a configuration), each game taking its own. */
#define GAME_CHOICES_MAX 16
typedef struct game_choices {
	uint8_t n;
	struct game_choice {
		const char *key;          /* an option's own key (static: game_option.key) */
		uint8_t value;
	} c[GAME_CHOICES_MAX];
} game_choices;
/* Chooses value for key (replacing an earlier choice); -1 when full. */
int game_choices_set(game_choices *cs, const char *key, uint8_t value);
/* The value chosen for key, or -1. */
int game_choices_get(const game_choices *cs, const char *key);
/* def's rules: each option at its chosen value (when it has such a word),
 * else at its default. */
void game_rules_of(const game_def *def, const game_choices *cs, game_rules *r);
/* The other way: every option of def chosen as it is in r. */
void game_choices_of(const game_def *def, const game_rules *r, game_choices *cs);

extern const game_def game_def_304, game_def_304six, game_def_304eight, game_def_304six24, game_def_504,
	game_def_904, game_def_trump304, game_def_rook;

/* The game of def's family that seats nseats, when def does not (the first
 * such game: six seats of 304 are "304six"); else def. */
const game_def *game_at_seats(const game_def *def, int nseats);

/* The game with this record name ("304", "304six", "304eight", "304six24",
 * "504", "904", "trump304", "rook"), or NULL. */
const game_def *game_find(const char *name);

typedef struct game {
	const game_def *def;
	void *state;
} game;

/* A new match; NULL with *err set (seat count or dealer out of range: 1;
 * out of memory: 2). Free with game_free. */
game *game_new(const game_def *def, int nseats, int first_dealer, const void *rules, int *err);
void game_free(game *g);
/* A copy of a game (NULL when out of memory). */
game *game_copy(const game *g);

/* Fills deck (def->deck_size cards) in a uniformly random order. */
void game_shuffle(const game_def *def, rng *r, uint8_t *deck);
/* Checks a deck: deck_size distinct cards of the pack. */
int game_deck_ok(const game_def *def, const uint8_t *deck);

static inline int game_deal(game *g, const uint8_t *deck) { return g->def->deal(g->state, deck); }
static inline int game_apply(game *g, const game_action *a, game_result *res) { return g->def->apply(g->state, a, res); }
static inline void game_legal_of(const game *g, int who, game_legal *l) { g->def->legal(g->state, who, l); }
static inline void game_view(const game *g, int who, void *v) { g->def->view(g->state, who, v); }
static inline void game_status_of(const game *g, game_status *s) { g->def->status(g->state, s); }
static inline void game_outcome_of(const game *g, game_outcome *o) { g->def->outcome(g->state, o); }
static inline int game_random_action(const game *g, int who, rng *r, game_action *a) { return g->def->random_action(g->state, who, r, a); }
static inline int game_bot_action(const game *g, int who, rng *r, game_action *a) { return g->def->bot_action(g->state, who, r, a); }
/* The best decision a level makes for seat who, from its view alone: the
 * search player (normal, strong) where the game has one, else the
 * rule-based player. For hosts without a worker thread and for tests. */
int game_ai_decide(const game *g, int who, const game_ai_params *p, game_ai_stats *stats, game_action *a);

/* 304 only: its actions in the typed form of engine/g304/g304.h and back (the
 * search player and the caps judge work in that form). */
struct g304_action;
void game_action_to_g304(const game_action *a, struct g304_action *x);
void game_action_from_g304(const struct g304_action *x, game_action *a);

/* The event number of a name in a game, or -1 (to find "deal_end"). */
int game_ev_parse(const game_def *def, const char *name);

#endif
