/* bot_lang.h: what each person chose for themselves, the language (!lang)
 * and how private lines reach them (!private), remembered in the database
 * (store_lang_*, store_option_*) and kept at hand for the lines the bot writes. */
#ifndef CARDBOT_BOT_LANG_H
#define CARDBOT_BOT_LANG_H

#include "adapter.h"
#include "text_lang.h"

struct bot;

#define BOT_LANG_CACHE 256 /* people whose choice (or lack of one) is kept at hand */

typedef struct bot_lang_entry {
	const adapter *net;           /* NULL: a free entry */
	char user[ADAPTER_ID_MAX];
	const text_lang *lang;        /* NULL: they chose none */
	int private_as;               /* !private: ADAPTER_AS_MESSAGE or ADAPTER_AS_NOTICE; 0: none chosen */
	int told;                     /* they were told where their cards come (the first time they sat) */
} bot_lang_entry;

/* The language user of net chose, or NULL when they chose none (then the
 * room's is theirs). Reads the database the first time a person is asked
 * about. */
const text_lang *bot_lang_of(struct bot *b, const adapter *net, const char *user);
/* What private lines to user are written in when no table is in question:
 * their choice, else the bot's default (bot.language). Never NULL. */
const text_lang *bot_lang_private(struct bot *b, const adapter *net, const char *user);
/* Remembers user's choice (NULL: forget it); 0, or -1 when the database
 * did not take it (the choice holds until the bot stops). */
int bot_lang_set(struct bot *b, const adapter *net, const char *user, const text_lang *lang);

/* How user asked for private lines (!private): ADAPTER_AS_MESSAGE,
 * ADAPTER_AS_NOTICE, or 0 (no choice, or the network has one way only). */
int bot_private_of(struct bot *b, const adapter *net, const char *user);
/* Has user been told where their cards come? 1 yes; 0 not yet, and from
 * now they have (remembered in the database): tell them. */
int bot_private_told(struct bot *b, const adapter *net, const char *user);
/* "!private [msg|notice]": says or chooses how private lines reach user,
 * answered privately; room: the language of the room it was said at. */
void bot_private_command(struct bot *b, adapter *net, const char *user, const text_lang *room, int argc, char **argv);

/* A nick change: the person keeps their choice under the new name while
 * the bot runs (the database keeps it under the name they chose it with). */
void bot_lang_renamed(struct bot *b, const adapter *net, const char *old_user, const char *new_user);
/* "!lang" (says the reader's language and the choices) or "!lang CODE"
 * (chooses), answered privately; room: the language of the room it was
 * said at (NULL: none, the bot's default). */
void bot_lang_command(struct bot *b, adapter *net, const char *user, const text_lang *room, int argc, char **argv);

#endif
