/* g304six.h: six-player 304 (seed 001, Suren Nanayakkara's report; the
 * decisions in docs/GAMES.md) is g304.h's engine at table size
 * G304_SIZE_SIX: a 36-card pack (the 32 of 304 and a six below the seven of
 * each suit, worth nothing), seats 0..5 in two teams of three sitting
 * alternately, four cards each and the four-card bidding, the trump card,
 * two more cards each and a six-card bidding once round with the
 * eight-card round's rules, then six tricks of six cards.
 *
 * This header names that size's numbers and its card arithmetic for tests
 * and tools; the caps judge and the search player of every size other than
 * four are the general ones (g304_caps_wide.h, g304_ai_wide.h).
 */
#ifndef CARDBOT_G304SIX_H
#define CARDBOT_G304SIX_H

#include <stdint.h>
#include "g304.h"
#include "g304_random.h"
#include "g304_simple.h"
#include "rng.h"
#include "g304_caps.h"
#include "g304_caps_wide.h"

#define G6_SEATS 6
#define G6_TRICKS 6
#define G6_HAND 6
#define G6_FIRST 4            /* cards dealt before the first bidding */
#define G6_CARDS 36
#define G6_RANKS 9
#define G6_BIDLOG_MAX G304_BIDLOG_MAX

/* A card is suit * 9 + rank, ranks in ascending strength 6 7 8 Q K 10 A 9 J
 * (rank 0 is the six; rank r > 0 is 304's rank r - 1). CARD_NONE: unknown. */
typedef g304_set g6_set;
static inline int g6_suit(card c) { return c / G6_RANKS; }
static inline int g6_rank(card c) { return c % G6_RANKS; }
static inline card g6_make(int suit, int rank) { return (card)(suit * G6_RANKS + rank); }
static inline g6_set g6_bit(card c) { return (g6_set)1 << c; }
static inline g6_set g6_suit_mask(int suit) { return (g6_set)0x1ff << (suit * G6_RANKS); }
static inline int g6_count(g6_set s) { return __builtin_popcountll(s); }
static inline card g6_first(g6_set s) { return (card)__builtin_ctzll(s); }
/* The strongest card of a non-empty set within one suit. */
static inline card g6_top(g6_set s) { return (card)(63 - __builtin_clzll(s)); }
/* 304's point values; a six is worth nothing. */
int g6_points(card c);
int g6_set_points(g6_set s);
/* "6S", "JH", "TD" (as 304's codes); out has room for 3. */
void g6_code(card c, char out[8]);
/* 304's card codes and the sixes ("6S", "10H", any case); CARD_NONE else. */
card g6_parse(const char *s);

static inline int g6_team(int seat) { return seat & 1; }
static inline int g6_seat_after(int seat) { return seat == G6_SEATS - 1 ? 0 : seat + 1; }
/* The partner a seat asks in the four-card bidding: the next of its team
 * in turn order. */
static inline int g6_ask_partner(int seat) { return (seat + 2) % G6_SEATS; }
static inline int g6_partners(int a, int b) { return a != b && a < G6_SEATS && b < G6_SEATS && g6_team(a) == g6_team(b); }

/* The engine's types and entry points at this size. */
typedef g304 g6;
typedef g304_view g6_view;
typedef g304_legal g6_legal;
typedef g304_action g6_action;
typedef g304_trick g6_trick;
#define g6_phase_name g304six_phase_name
#define g6_deal g304_deal
#define g6_apply g304_apply
#define g6_legal_of g304_legal_of
#define g6_view_of g304_view_of
#define g6_next_seat g304_next_seat
/* Starts a six-player match (g304_init at G304_SIZE_SIX). */
static inline void g6_init(g6 *g, const g304_rules *rules, int first_dealer)
{
	g304_rules r;
	if (rules)
		r = *rules;
	else
		g304_rules_default(&r);
	r.size = G304_SIZE_SIX;
	g304_init(g, &r, first_dealer);
}

/* Caps at this size: the general judge (g304_caps_wide.h) under the
 * size's names, for tests and tools. */
#define G6_CAPS_JUDGE_BUDGET G304_CAPS_JUDGE_BUDGET
#define G6_CAPS_TRACK_BUDGET G304_CAPS_WIDE_TRACK_BUDGET
#define g6_caps_cards g304_caps_wide_cards
#define g6_caps_check g304_caps_wide_check
#define g6_caps_find g304_caps_wide_find

/* The timer's move (a random legal action for the seat to move, never
 * spoilt; allow_odd: now and then a random caps or spoilt call), from
 * g304_random.c's one random player for every size; and the simple
 * rule-based player, which decides from the seat's view alone. */
int g6_random_action(const g6 *g, int seat, rng *r, g6_action *out);
#define g6_random_any g304_random_action
#define g6_simple_action g304_simple_action

#define g6_ai_action g304_ai_wide_action

static inline int g6_tokens_total(const g6 *g) { return g->tokens[0] + g->tokens[1] + g->bank; }

#endif
