/* config.c: cardbot's configuration: every key, its checks and its default, for schema.c to read. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <sys/stat.h>

#include <libconfig.h>

#include "casemap.h"
#include "config.h"
#include "present.h"
#include "schema.h"

/* Words of the enums, in step with config.h through the same X-macros. */
#define WORD(id, word) word,
#define WORD3(id, word, built) word,
#define BUILT3(id, word, built) built,
static const char *const pace_words[] = { CONFIG_PACES(WORD) NULL };
static const char *const log_words[] = { CONFIG_LOG_LEVELS(WORD) NULL };
static const char *const level_words[] = { CONFIG_LEVELS(WORD) NULL };
static const char *const network_words[] = { CONFIG_NETWORK_TYPES(WORD3) NULL };
static const int network_built[] = { CONFIG_NETWORK_TYPES(BUILT3) 0 };
/* Languages bot/text_*.c speak. */
static const char *const language_words[] = { "en", "ta", "si", NULL };
#undef WORD
#undef WORD3
#undef BUILT3


static const char *word_of(const char *const *words, int count, int i)
{
	return i >= 0 && i < count ? words[i] : "?";
}

const char *config_pace_name(int pace) { return word_of(pace_words, CONFIG_PACE_COUNT, pace); }
const char *config_log_level_name(int level) { return word_of(log_words, CONFIG_LOG_COUNT, level); }
const char *config_level_name(int level) { return word_of(level_words, CONFIG_LEVEL_COUNT, level); }
const char *config_network_type_name(int type)
{
	return word_of(network_words, CONFIG_NETWORK_COUNT, type);
}

/* ---- checks of particular strings ---- */

static int check_prefix(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (!*v) {
		schema_error(L, s, path, "is empty: commands in rooms need a prefix such as \"!\"");
		return -1;
	}
	for (const char *c = v; *c; c++)
		if (*c == ' ') {
			schema_error(L, s, path, "holds a space");
			return -1;
		}
	return 0;
}

static int check_nonempty(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (*v)
		return 0;
	schema_error(L, s, path, "is empty");
	return -1;
}

/* data_dir holds the database, with the decks and salts of deals in play:
 * a directory others may enter is worth a warning (run says it too). */
static int check_data_dir(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (check_nonempty(L, s, path, v) < 0)
		return -1;
	struct stat st;
	if (stat(v, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 077))
		schema_warning(L, s, path,
			       "the directory \"%s\" may be read or entered by group or others (mode %04o), and the "
			       "database there holds the decks of deals in play: chmod 700 %s",
			       v, (unsigned)(st.st_mode & 07777), v);
	return 0;
}

static int check_language(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	for (size_t i = 0; language_words[i]; i++)
		if (!strcmp(v, language_words[i]))
			return 0;
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	schema_error(L, s, path, "%s is not a language cardbot speaks: use \"en\" (English), \"ta\" (Tamil) or \"si\" (Sinhala)",
		     schema_shown(q, v));
	return -1;
}

static int check_server(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	int ok = *v != '\0' && *v != '-';
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".-:_", *c))
			ok = 0;
	if (!ok)
		schema_error(L, s, path, "%s is not a host name or address", schema_shown(q, v));
	return ok ? 0 : -1;
}

static int nick_special(int c) { return c && strchr("[]\\`_^{|}", c) != NULL; }

/* RFC 2812: a letter or special first, then letters, digits, specials, '-'. */
/* An IPv4 address in dotted form (DCC's offer carries IPv4 only). */
static int check_ipv4(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	struct in_addr a;
	if (!v[0] || inet_pton(AF_INET, v, &a) == 1)
		return 0;
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	schema_error(L, s, path, "%s is not an IPv4 address (a.b.c.d)", schema_shown(q, v));
	return -1;
}

static int check_nick(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	int ok = isalpha((unsigned char)v[0]) || nick_special(v[0]);
	for (const char *c = v; ok && *c; c++)
		if (!isalnum((unsigned char)*c) && !nick_special(*c) && *c != '-')
			ok = 0;
	if (!ok)
		schema_error(L, s, path, "%s is not an IRC nick: a letter or one of []\\`_^{|} first, then "
			     "letters, digits, those signs or -", schema_shown(q, v));
	return ok ? 0 : -1;
}

static int check_username(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	for (const char *c = v; *c; c++)
		if (*c == ' ' || *c == '@') {
			schema_error(L, s, path, "%s holds a space or @", schema_shown(q, v));
			return -1;
		}
	return 0;
}

static int check_fingerprint(struct schema_loader *L, const config_setting_t *s, const char *path,
			     const char *v)
{
	int hex = 0, ok = 1;
	for (const char *c = v; *c; c++) {
		if (isxdigit((unsigned char)*c))
			hex++;
		else if (*c != ':')
			ok = 0;
	}
	if (*v && (!ok || hex != 64)) {
		schema_error(L, s, path, "expected a SHA-256 fingerprint: 64 hexadecimal digits, colons allowed "
			     "(found %d digits)", hex);
		return -1;
	}
	return 0;
}

static int check_channel(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	if (!*v || !strchr("#&+!", v[0])) {
		schema_error(L, s, path, "%s is not a channel name: it starts with #, &, + or !", schema_shown(q, v));
		return -1;
	}
	if (strpbrk(v, " ,:") || strchr(v, 7)) {
		schema_error(L, s, path, "%s is not a channel name: no spaces, commas or colons", schema_shown(q, v));
		return -1;
	}
	return 0;
}

static int check_channel_key(struct schema_loader *L, const config_setting_t *s, const char *path,
			     const char *v)
{
	if (strpbrk(v, " ,")) {
		schema_error(L, s, path, "a channel key holds no spaces or commas");
		return -1;
	}
	return 0;
}

static int check_network_name(struct schema_loader *L, const config_setting_t *s, const char *path,
			      const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	int ok = *v != '\0';
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			ok = 0;
	if (!ok)
		schema_error(L, s, path, "%s is not a network name: letters, digits, _ and - only", schema_shown(q, v));
	return ok ? 0 : -1;
}

static int check_game(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (present_game(v) && strlen(v) < sizeof ((config_table *)0)->game)
		return 0;
	char q[SCHEMA_SHOWN_MAX * 4 + 8], names[128];
	present_names(names, sizeof names, 0);
	schema_error(L, s, path, "%s is not a game: use %s", schema_shown(q, v), names);
	return -1;
}

/* ---- custom loaders ---- */

static void load_game(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_table *t = base;
	const char *v = schema_get_text(L, s, path, CONFIG_STRING_MAX, 0);
	if (!v || check_game(L, s, path, v))
		return;
	snprintf(t->game, sizeof t->game, "%s", v);
}

/* Everyone-matching masks: nick, user and host all wildcards. */
static int mask_is_everyone(const char *m)
{
	for (const char *c = m; *c; c++)
		if (!strchr("*?!@", *c))
			return 0;
	return 1;
}

/* Does a mask's host part match nearly every host? Its user part is the
 * client's own to choose (ident is rarely checked), so then the mask
 * vouches for nothing but the nick. Nearly every host: no literal part at
 * all ("*", "*.*", "*:*"), or one that names only a top-level domain
 * ("*.com", "*.net"), which millions of hosts share. */
static int host_is_anyone(const char *host)
{
	int literal = 0, last_literal = 0, label_literal = 0, wild = 0;
	const char *label = host;
	for (const char *c = host;; c++) {
		if (!*c || strchr(".:/", *c)) {
			if (label_literal) {
				literal++;
				last_literal = 1;
				for (const char *d = label; d < c; d++)
					if (!((*d >= 'a' && *d <= 'z') || (*d >= 'A' && *d <= 'Z')))
						last_literal = 0; /* not a top-level domain's name */
			} else {
				last_literal = 0;
			}
			if (*c == '/')
				return 0; /* a cloak ("user/boss"): the server's word */
			if (!*c)
				break;
			label = c + 1;
			label_literal = 0;
			continue;
		}
		if (*c == '*' || *c == '?')
			wild = 1;
		else
			label_literal = 1;
	}
	return literal == 0 || (literal == 1 && last_literal && wild);
}

static void load_operator(struct schema_loader *L, const config_setting_t *s, const char *path,
			  config_operator *op)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	const char *v = schema_get_text(L, s, path, CONFIG_STRING_MAX + 8, 0);
	if (!v)
		return;
	if (!strncmp(v, "account:", 8)) {
		const char *name = v + 8;
		if (!*name || strpbrk(name, " *?!@")) {
			schema_error(L, s, path, "%s: an account name is exact and not empty (no spaces, *, ?, ! or @)",
				     schema_shown(q, v));
			return;
		}
		if (strlen(name) >= sizeof op->text) {
			schema_error(L, s, path, "too long (%zu bytes; at most %zu)", strlen(v), sizeof op->text - 1 + 8);
			return;
		}
		op->kind = CONFIG_OPERATOR_ACCOUNT;
		memcpy(op->text, name, strlen(name) + 1);
		return;
	}
	if (v[0] == '@' && strchr(v, ':')) {
		/* A Matrix user id, exact or with * and ?: matched against the id. */
		if (strpbrk(v, " !") || strlen(v) >= sizeof op->text) {
			schema_error(L, s, path, "%s is not a Matrix user id (@name:server, * and ? match anything)",
				     schema_shown(q, v));
			return;
		}
		op->kind = CONFIG_OPERATOR_MASK;
		memcpy(op->text, v, strlen(v) + 1);
		return;
	}
	const char *bang = strchr(v, '!'), *at = strchr(v, '@');
	if (!bang || !at || bang > at || bang == v || at == bang + 1 || !at[1] || strchr(bang + 1, '!') ||
	    strchr(at + 1, '@') || strchr(v, ' ')) {
		schema_error(L, s, path, "%s is not an operator: write nick!user@host (* and ? match anything) or "
			     "account:NAME", schema_shown(q, v));
		return;
	}
	if (strlen(v) >= sizeof op->text) {
		schema_error(L, s, path, "too long (%zu bytes; at most %zu)", strlen(v), sizeof op->text - 1);
		return;
	}
	int any_nick = 1;
	for (const char *c = v; c < bang; c++)
		any_nick &= *c == '*' || *c == '?';
	if (mask_is_everyone(v) || (any_nick && host_is_anyone(at + 1)))
		schema_warning(L, s, path, "%s matches everyone: every user would be an operator", schema_shown(q, v));
	else if (host_is_anyone(at + 1))
		schema_warning(L, s, path, "%s matches by nick alone: anyone who takes the nick is an operator (the "
			       "user part is the client's to choose and the host part matches nearly every host; use "
			       "account:NAME, or a host the server vouches for)", schema_shown(q, v));
	op->kind = CONFIG_OPERATOR_MASK;
	memcpy(op->text, v, strlen(v) + 1);
}

static void load_operators(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_bot *b = base;
	int n = schema_list_length(L, s, path, "a list of strings [ \"nick!user@host\", \"account:NAME\" ]",
				   CONFIG_OPERATORS_MAX, "operators", "");
	if (n < 0)
		return;
	b->noperators = 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_index(sub, path, i);
		config_operator op = { 0 };
		int before = L->errs->nerrors;
		load_operator(L, e, sub, &op);
		if (L->errs->nerrors == before)
			b->operators[b->noperators++] = op;
	}
}

/* `rules { ... }`: the games' options (present_option), each as its game
 * declares it (engine/core/game.h), into the table defaults' choices. */
static void load_choices(struct schema_loader *L, const config_setting_t *s, const char *path, game_choices *cs)
{
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		schema_wrong_type(L, s, path, "a group { ... }", 0);
		return;
	}
	struct schema_field fields[GAME_CHOICES_MAX];
	int vals[GAME_CHOICES_MAX];
	const game_option *opts[GAME_CHOICES_MAX];
	size_t n = 0;
	memset(fields, 0, sizeof fields);
	for (const game_option *o; n < GAME_CHOICES_MAX && (o = present_option_at((int)n)); n++) {
		opts[n] = o;
		vals[n] = -1; /* not in this group: the choice stays as it was */
		fields[n] = (struct schema_field){ .key = o->key, .kind = o->onoff ? SCHEMA_ONOFF : SCHEMA_WORD,
			.off = n * sizeof(int), .size = sizeof(int), .words = o->words, .what = o->what };
	}
	struct schema_group grp = { fields, n };
	schema_load_group(L, s, path, &grp, vals);
	for (size_t i = 0; i < n; i++)
		if (vals[i] >= 0)
			game_choices_set(cs, opts[i]->key, (uint8_t)vals[i]);
}

static void load_rules(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	load_choices(L, s, path, &((config_table *)base)->options);
}

#define TABLE_INT(k, lo, hi, unit) \
	{ .key = #k, .kind = SCHEMA_INT, .off = offsetof(config_table, k), .size = sizeof(int), .min = lo, \
	  .max = hi, .what = unit }
static const struct schema_field table_fields[] = {
	{ .key = "game", .kind = SCHEMA_CUSTOM, .custom = load_game },
	{ .key = "pace", .kind = SCHEMA_WORD, .off = offsetof(config_table, pace), .size = sizeof(int),
	  .words = pace_words, .what = "a pace" },
	TABLE_INT(live_turn_seconds, 10, 3600, "seconds"),
	TABLE_INT(correspondence_reminder_hours, 1, 168, "hours"),
	TABLE_INT(grace_seconds, 0, 86400, "seconds"),
	TABLE_INT(casual_reminder_minutes, 1, 1440, "minutes"),
	TABLE_INT(deal_pause_ms, 0, 60000, "milliseconds"),
	TABLE_INT(cut_offer_seconds, 0, 600, "seconds"),
	TABLE_INT(computer_delay_ms, 0, 10000, "milliseconds"),
	{ .key = "computer_level", .kind = SCHEMA_WORD, .off = offsetof(config_table, computer_level),
	  .size = sizeof(int), .words = level_words, .what = "a computer level" },
	TABLE_INT(computer_think_ms, 10, 10000, "milliseconds"),
	{ .key = "hints", .kind = SCHEMA_BOOL, .off = offsetof(config_table, hints), .size = sizeof(int) },
	{ .key = "lastcard", .kind = SCHEMA_BOOL, .off = offsetof(config_table, lastcard), .size = sizeof(int) },
	{ .key = "rules", .kind = SCHEMA_CUSTOM, .custom = load_rules },
	{ .key = "lang", .kind = SCHEMA_STRING, .off = offsetof(config_table, lang), .size = CONFIG_LANGUAGE_MAX,
	  .check = check_language },
};
#undef TABLE_INT
static const struct schema_group table_group = SCHEMA_GROUP_OF(table_fields);

static const struct schema_field bot_fields[] = {
	{ .key = "prefix", .kind = SCHEMA_STRING, .off = offsetof(config_bot, prefix), .size = CONFIG_PREFIX_MAX,
	  .check = check_prefix },
	{ .key = "operators", .kind = SCHEMA_CUSTOM, .custom = load_operators },
	{ .key = "language", .kind = SCHEMA_STRING, .off = offsetof(config_bot, language),
	  .size = CONFIG_LANGUAGE_MAX, .check = check_language },
	{ .key = "log_level", .kind = SCHEMA_WORD, .off = offsetof(config_bot, log_level), .size = sizeof(int),
	  .words = log_words, .what = "a log level" },
	{ .key = "data_dir", .kind = SCHEMA_STRING, .off = offsetof(config_bot, data_dir), .size = CONFIG_PATH_MAX,
	  .check = check_data_dir },
	{ .key = "public_dir", .kind = SCHEMA_STRING, .off = offsetof(config_bot, public_dir),
	  .size = CONFIG_PATH_MAX },
	{ .key = "public_url", .kind = SCHEMA_STRING, .off = offsetof(config_bot, public_url),
	  .size = CONFIG_STRING_MAX },
	{ .key = "allow_invites", .kind = SCHEMA_BOOL, .off = offsetof(config_bot, allow_invites),
	  .size = sizeof(int) },
	{ .key = "commands_burst", .kind = SCHEMA_INT, .off = offsetof(config_bot, commands_burst),
	  .size = sizeof(int), .min = 1, .max = 1000, .what = "commands" },
	{ .key = "commands_per_minute", .kind = SCHEMA_INT, .off = offsetof(config_bot, commands_per_minute),
	  .size = sizeof(int), .min = 1, .max = 60000, .what = "commands a minute" },
};
static const struct schema_group bot_group = SCHEMA_GROUP_OF(bot_fields);

/* A channel given as a group: its IRC part and its table defaults. */
struct channel_target {
	irc_channel ch;
	config_table table;
};
static void load_channel_rules(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	load_choices(L, s, path, &((struct channel_target *)base)->table.options);
}

static const struct schema_field channel_fields[] = {
	{ .key = "name", .kind = SCHEMA_STRING, .off = offsetof(struct channel_target, ch.name),
	  .size = IRC_FIELD_MAX, .check = check_channel, .required = 1 },
	{ .key = "key", .kind = SCHEMA_STRING, .off = offsetof(struct channel_target, ch.key), .size = IRC_FIELD_MAX,
	  .check = check_channel_key },
	{ .key = "pace", .kind = SCHEMA_WORD, .off = offsetof(struct channel_target, table.pace), .size = sizeof(int),
	  .words = pace_words, .what = "a pace" },
	{ .key = "rules", .kind = SCHEMA_CUSTOM, .custom = load_channel_rules },
	{ .key = "lastcard", .kind = SCHEMA_BOOL, .off = offsetof(struct channel_target, table.lastcard),
	  .size = sizeof(int) },
	{ .key = "lang", .kind = SCHEMA_STRING, .off = offsetof(struct channel_target, table.lang),
	  .size = CONFIG_LANGUAGE_MAX, .check = check_language },
};
static const struct schema_group channel_group = SCHEMA_GROUP_OF(channel_fields);

static void load_channels(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	int n = schema_list_length(L, s, path, "a list ( \"#name\", { name = \"#name\"; key = \"...\"; } )",
				   IRC_CHANNELS_MAX, "channels", " on one network");
	if (n < 0)
		return;
	int lines[IRC_CHANNELS_MAX];
	net->irc.nchannels = 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_index(sub, path, i);
		struct channel_target c;
		memset(&c, 0, sizeof c);
		c.table = ((const config *)L->out)->tables;
		int before = L->errs->nerrors;
		int t = config_setting_type(e);
		if (t == CONFIG_TYPE_STRING) {
			schema_load_field(L, e, sub, &channel_fields[0], &c);
		} else if (t == CONFIG_TYPE_GROUP) {
			schema_load_group(L, e, sub, &channel_group, &c);
		} else {
			schema_wrong_type(L, e, sub, "a channel name \"#name\" or a group { name = \"#name\"; ... }", 0);
			continue;
		}
		if (L->errs->nerrors != before)
			continue;
		int dup = -1;
		for (int j = 0; j < net->irc.nchannels && dup < 0; j++)
			/* No server has said how it folds names yet: RFC 1459's rule,
			 * which merges the most, finds every likely duplicate. */
			if (!casemap_cmp(CASEMAP_RFC1459, net->irc.channels[j].name, c.ch.name))
				dup = j;
		if (dup >= 0) {
			schema_error(L, e, sub, "%s is listed twice (first at line %d)", c.ch.name, lines[dup]);
			continue;
		}
		lines[net->irc.nchannels] = schema_setting_line(e);
		net->channel_tables[net->irc.nchannels] = c.table;
		net->irc.channels[net->irc.nchannels++] = c.ch;
	}
}

static void load_nothing(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	(void)L, (void)s, (void)path, (void)base;
}

static const struct schema_field irc_fields[] = {
	{ .key = "name", .kind = SCHEMA_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = SCHEMA_CUSTOM, .custom = load_nothing }, /* read first: see load_network */
#define IRC_STR(k, chk, req) \
	{ .key = #k, .kind = SCHEMA_STRING, .off = offsetof(config_network, irc.k), .size = IRC_FIELD_MAX, \
	  .check = chk, .required = req }
	IRC_STR(server, check_server, 1),
	{ .key = "port", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.port), .size = sizeof(int), .min = 1,
	  .max = 65535, .what = "a port" },
	{ .key = "tls", .kind = SCHEMA_BOOL, .off = offsetof(config_network, irc.tls), .size = sizeof(int) },
	{ .key = "ca_file", .kind = SCHEMA_PATH, .off = offsetof(config_network, irc.ca_file), .size = IRC_FIELD_MAX,
	  .path_must_read = 1 },
	IRC_STR(fingerprint, check_fingerprint, 0),
	{ .key = "tls_verify", .kind = SCHEMA_BOOL, .off = offsetof(config_network, irc.tls_verify),
	  .size = sizeof(int) },
	IRC_STR(nick, check_nick, 0),
	IRC_STR(username, check_username, 0),
	IRC_STR(realname, NULL, 0),
	{ .key = "server_password", .kind = SCHEMA_SECRET, .off = offsetof(config_network, irc.server_password),
	  .size = IRC_FIELD_MAX },
	IRC_STR(sasl_user, check_username, 0),
	{ .key = "sasl_password", .kind = SCHEMA_SECRET, .off = offsetof(config_network, irc.sasl_password),
	  .size = IRC_FIELD_MAX },
	{ .key = "nickserv_password", .kind = SCHEMA_SECRET, .off = offsetof(config_network, irc.nickserv_password),
	  .size = IRC_FIELD_MAX },
	{ .key = "channels", .kind = SCHEMA_CUSTOM, .custom = load_channels },
	{ .key = "private_notice", .kind = SCHEMA_BOOL, .off = offsetof(config_network, irc.private_notice),
	  .size = sizeof(int) },
	{ .key = "pace_burst", .kind = SCHEMA_NUMBER, .off = offsetof(config_network, irc.pace_burst), .dmin = 1,
	  .dmax = 100, .what = "lines" },
	{ .key = "pace_per_second", .kind = SCHEMA_NUMBER, .off = offsetof(config_network, irc.pace_per_second),
	  .dmin = 0.05, .dmax = 50, .what = "lines a second" },
	{ .key = "reconnect_min_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.reconnect_min_ms),
	  .size = sizeof(int), .min = 1, .max = 3600, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_max_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.reconnect_max_ms),
	  .size = sizeof(int), .min = 1, .max = 86400, .scale = 1000, .what = "seconds" },
	{ .key = "accept_invites", .kind = SCHEMA_BOOL, .off = offsetof(config_network, irc.accept_invites),
	  .size = sizeof(int) },
	{ .key = "dcc", .kind = SCHEMA_BOOL, .off = offsetof(config_network, irc.dcc), .size = sizeof(int) },
	IRC_STR(dcc_listen, check_ipv4, 0),
	IRC_STR(dcc_address, check_ipv4, 0),
	{ .key = "dcc_port_min", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.dcc_port_min),
	  .size = sizeof(int), .min = 1024, .max = 65535, .what = "a port" },
	{ .key = "dcc_port_max", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.dcc_port_max),
	  .size = sizeof(int), .min = 1024, .max = 65535, .what = "a port" },
	{ .key = "dcc_timeout_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, irc.dcc_timeout_ms),
	  .size = sizeof(int), .min = 2, .max = 3600, .scale = 1000, .what = "seconds" },
#undef IRC_STR
};
static const struct schema_group irc_group = SCHEMA_GROUP_OF(irc_fields);

static int is_loopback(const char *host)
{
	return !strcmp(host, "localhost") || !strncmp(host, "127.", 4) || !strcmp(host, "::1");
}

/* reconnect_min_seconds is at most reconnect_max_seconds (both networks). */
static void check_reconnect(struct schema_loader *L, const config_setting_t *g, const char *path, int min_ms,
			    int max_ms)
{
	if (min_ms <= max_ms)
		return;
	const config_setting_t *m = config_setting_get_member(g, "reconnect_max_seconds");
	char sub[SCHEMA_KEYPATH_MAX];
	schema_path_key(sub, path, "reconnect_max_seconds");
	schema_error(L, m ? m : g, sub, "%d is less than reconnect_min_seconds (%d)", max_ms / 1000, min_ms / 1000);
}

/* A network's accept_invites, and-ed with bot.allow_invites; a warning if
 * it would then join nothing (njoin channels or rooms: `what`). */
static void check_invites(struct schema_loader *L, const config_setting_t *g, const char *path,
			  int *accept_invites, int njoin, const char *what)
{
	const config *c = L->out;
	const config_setting_t *m = config_setting_get_member(g, "accept_invites");
	if (m && *accept_invites && !c->bot.allow_invites) {
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_key(sub, path, "accept_invites");
		schema_warning(L, m, sub, "has no effect while bot.allow_invites is false");
	}
	if (!c->bot.allow_invites)
		*accept_invites = 0;
	if (!njoin && !*accept_invites)
		schema_warning(L, g, path, "no %s, and invites are off: the bot would join nothing", what);
}

/* Checks that concern several keys at once. */
static void check_network(struct schema_loader *L, const config_setting_t *g, const char *path,
			  config_network *net, int clean)
{
	irc_settings *s = &net->irc;
	const config_setting_t *m;
	char sub[SCHEMA_KEYPATH_MAX];
	/* After an error in this network, a missing value may be that error's
	 * echo: cross-checks would only repeat it. */
	if (!clean)
		return;
	if (!!s->sasl_user[0] != !!s->sasl_password[0]) {
		m = config_setting_get_member(g, "sasl_user");
		schema_path_key(sub, path, s->sasl_user[0] ? "sasl_user" : "sasl_password");
		schema_error(L, m ? m : g, sub, "SASL needs both sasl_user and sasl_password");
	}
	check_reconnect(L, g, path, s->reconnect_min_ms, s->reconnect_max_ms);
	if (!s->tls) {
		static const char *const tls_only[] = { "ca_file", "fingerprint", "tls_verify" };
		for (size_t i = 0; i < sizeof tls_only / sizeof tls_only[0]; i++)
			if ((m = config_setting_get_member(g, tls_only[i]))) {
				schema_path_key(sub, path, tls_only[i]);
				schema_warning(L, m, sub, "has no effect while tls is false");
			}
		if ((s->server_password[0] || s->sasl_password[0] || s->nickserv_password[0]) &&
		    !is_loopback(s->server))
			schema_warning(L, g, path, "passwords go to %s without TLS, readable on the way: set tls = true",
				       s->server);
	} else if (!s->tls_verify && !s->fingerprint[0]) {
		m = config_setting_get_member(g, "tls_verify");
		schema_path_key(sub, path, "tls_verify");
		schema_warning(L, m ? m : g, sub, "the server's certificate is not checked, so anyone on the way can "
			       "pose as it: set fingerprint, or tls_verify = true");
	}
	check_invites(L, g, path, &s->accept_invites, s->nchannels, "channels");
}

/* ---- Matrix networks ---- */

static int check_homeserver(struct schema_loader *L, const config_setting_t *s, const char *path,
			    const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	const char *host = !strncmp(v, "https://", 8) ? v + 8 : !strncmp(v, "http://", 7) ? v + 7 : NULL;
	if (!host || !*host || *host == '/' || strpbrk(v, " \"?#")) {
		schema_error(L, s, path, "%s is not a homeserver URL: https://host[:port], http:// only for this machine",
			     schema_shown(q, v));
		return -1;
	}
	return 0;
}

static int check_user_id(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	const char *colon = strchr(v, ':');
	if (v[0] != '@' || !colon || colon == v + 1 || !colon[1] || strchr(v, ' ') || strlen(v) > 255) {
		schema_error(L, s, path, "%s is not a Matrix user id: @name:server", schema_shown(q, v));
		return -1;
	}
	return 0;
}

static int check_device_id(struct schema_loader *L, const config_setting_t *s, const char *path, const char *v)
{
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-.=", *c)) {
			char q[SCHEMA_SHOWN_MAX * 4 + 8];
			schema_error(L, s, path, "%s is not a device id: letters, digits, _ - . = only", schema_shown(q, v));
			return -1;
		}
	return 0;
}

/* A list of strings, each checked by `ok` (which says what is wrong, or NULL). */
static void load_string_list(struct schema_loader *L, const config_setting_t *s, const char *path,
			     char (*dst)[MATRIX_FIELD_MAX], int *count, int max, const char *what,
			     const char *(*ok)(const char *v))
{
	*count = 0;
	int n = schema_list_length(L, s, path, what, max, "entries", "");
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_index(sub, path, i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			schema_wrong_type(L, e, sub, "a string", 0);
			continue;
		}
		const char *v = config_setting_get_string(e);
		const char *why = schema_text_problem(v);
		char q[SCHEMA_SHOWN_MAX * 4 + 8];
		if (!why && strlen(v) >= MATRIX_FIELD_MAX)
			why = "is too long";
		if (!why)
			why = ok(v);
		if (why) {
			schema_error(L, e, sub, "%s %s", schema_shown(q, v), why);
			continue;
		}
		snprintf(dst[(*count)++], MATRIX_FIELD_MAX, "%s", v);
	}
}

static const char *room_problem(const char *v)
{
	if ((v[0] != '!' && v[0] != '#') || !strchr(v, ':') || strchr(v, ' '))
		return "is not a room: a room id !id:server or an alias #name:server";
	return NULL;
}

static const char *allow_problem(const char *v)
{
	if (v[0] == '@')
		return strchr(v, ':') && !strchr(v, ' ') ? NULL : "is not a user id @name:server";
	if (!*v || strpbrk(v, " @/"))
		return "is not a user id (@name:server) or a server name";
	return NULL;
}

static void load_matrix_rooms(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	load_string_list(L, s, path, net->matrix.rooms, &net->matrix.nrooms, MATRIX_ROOMS_MAX,
			 "a list ( \"!id:server\", \"#alias:server\" )", room_problem);
}

static void load_invite_allow(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	load_string_list(L, s, path, net->matrix.invite_allow, &net->matrix.ninvite_allow, MATRIX_ALLOW_MAX,
			 "a list of \"@user:server\" or \"server\"", allow_problem);
}

static const struct schema_field matrix_fields[] = {
	{ .key = "name", .kind = SCHEMA_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = SCHEMA_CUSTOM, .custom = load_nothing },
	{ .key = "homeserver", .kind = SCHEMA_STRING, .off = offsetof(config_network, matrix.homeserver),
	  .size = MATRIX_FIELD_MAX, .check = check_homeserver, .required = 1 },
	{ .key = "user_id", .kind = SCHEMA_STRING, .off = offsetof(config_network, matrix.user_id),
	  .size = MATRIX_FIELD_MAX, .check = check_user_id, .required = 1 },
	{ .key = "password", .kind = SCHEMA_SECRET, .off = offsetof(config_network, matrix.password),
	  .size = MATRIX_FIELD_MAX },
	{ .key = "access_token", .kind = SCHEMA_SECRET, .off = offsetof(config_network, matrix.access_token),
	  .size = MATRIX_FIELD_MAX },
	{ .key = "device_id", .kind = SCHEMA_STRING, .off = offsetof(config_network, matrix.device_id),
	  .size = MATRIX_FIELD_MAX, .check = check_device_id },
	{ .key = "ca_file", .kind = SCHEMA_PATH, .off = offsetof(config_network, matrix.ca_file),
	  .size = MATRIX_FIELD_MAX, .path_must_read = 1 },
	{ .key = "tls_verify", .kind = SCHEMA_BOOL, .off = offsetof(config_network, matrix.tls_verify),
	  .size = sizeof(int) },
	{ .key = "rooms", .kind = SCHEMA_CUSTOM, .custom = load_matrix_rooms },
	{ .key = "accept_invites", .kind = SCHEMA_BOOL, .off = offsetof(config_network, matrix.accept_invites),
	  .size = sizeof(int) },
	{ .key = "invite_allow", .kind = SCHEMA_CUSTOM, .custom = load_invite_allow },
	{ .key = "sync_timeout_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, matrix.sync_timeout_ms),
	  .size = sizeof(int), .min = 1, .max = 300, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_min_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, matrix.backoff_min_ms),
	  .size = sizeof(int), .min = 1, .max = 3600, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_max_seconds", .kind = SCHEMA_INT, .off = offsetof(config_network, matrix.backoff_max_ms),
	  .size = sizeof(int), .min = 1, .max = 86400, .scale = 1000, .what = "seconds" },
	{ .key = "rate_limited", .kind = SCHEMA_BOOL, .off = offsetof(config_network, rate_limited),
	  .size = sizeof(int) },
	{ .key = "rate_messages_per_minute", .kind = SCHEMA_INT,
	  .off = offsetof(config_network, matrix.rate_per_minute), .size = sizeof(int), .min = 1, .max = 600000,
	  .what = "messages a minute" },
	{ .key = "rate_burst", .kind = SCHEMA_INT, .off = offsetof(config_network, matrix.rate_burst),
	  .size = sizeof(int), .min = 1, .max = 100000, .what = "messages" },
	{ .key = "encryption", .kind = SCHEMA_BOOL, .off = offsetof(config_network, matrix.encryption),
	  .size = sizeof(int) },
	{ .key = "pickle_key", .kind = SCHEMA_SECRET, .off = offsetof(config_network, matrix.pickle_key),
	  .size = MATRIX_FIELD_MAX },
	{ .key = "cross_signing_password", .kind = SCHEMA_SECRET,
	  .off = offsetof(config_network, matrix.uia_password), .size = MATRIX_FIELD_MAX },
};
static const struct schema_group matrix_group = SCHEMA_GROUP_OF(matrix_fields);

static void check_matrix_network(struct schema_loader *L, const config_setting_t *g, const char *path,
				 config_network *net, int clean)
{
	matrix_settings *s = &net->matrix;
	const config_setting_t *m;
	char sub[SCHEMA_KEYPATH_MAX];
	s->assume_limit = net->rate_limited; /* the adapter keeps to the limit from the start */
	if (!clean)
		return;
	if (!s->password[0] == !s->access_token[0])
		schema_error(L, g, path, "%s", s->password[0] ? "give password or access_token, not both"
			     : "password or access_token is missing (or password_file, access_token_env...)");
	check_reconnect(L, g, path, s->backoff_min_ms, s->backoff_max_ms);
	if (s->encryption && strlen(s->pickle_key) < 16)
		schema_error(L, g, path, "%s", s->pickle_key[0]
			     ? "pickle_key is too short: give at least 16 characters (e.g. `openssl rand -hex 32`)"
			     : "encryption = true needs pickle_key (best as pickle_key_file: a file holding a random "
			       "secret, e.g. from `openssl rand -hex 32`)");
	else if (!s->encryption && s->pickle_key[0])
		schema_warning(L, g, path, "pickle_key is set but encryption is off: it is not used");
	if (s->encryption && s->access_token[0] && !s->uia_password[0])
		schema_warning(L, g, path, "the homeserver may ask for the account's password once, to publish the "
			       "bot's cross-signing keys (without them Element marks its messages as from a device not "
			       "verified by its owner): set cross_signing_password_file to a file holding it");
	else if (s->uia_password[0] && (!s->encryption || s->password[0]))
		schema_warning(L, g, path, "cross_signing_password is set but not used (%s)", s->encryption
			       ? "the login password serves" : "encryption is off");
	if (!strncmp(s->homeserver, "http://", 7)) {
		const char *h = s->homeserver + 7;
		char host[MATRIX_FIELD_MAX];
		snprintf(host, sizeof host, "%s", h);
		host[strcspn(host, "/")] = '\0';
		if (host[0] == '[') {
			host[strcspn(host, "]")] = '\0';
			memmove(host, host + 1, strlen(host));
		} else if (strchr(host, ':') == strrchr(host, ':')) {
			host[strcspn(host, ":")] = '\0';
		}
		if (!is_loopback(host))
			schema_warning(L, g, path, "the password or token goes to %s without TLS, readable on the way: use "
				       "https://", host);
	}
	if (!s->tls_verify && (m = config_setting_get_member(g, "tls_verify"))) {
		schema_path_key(sub, path, "tls_verify");
		schema_warning(L, m, sub,
			       "the homeserver's certificate is not checked, so anyone on the way can pose as it");
	}
	check_invites(L, g, path, &s->accept_invites, s->nrooms, "rooms");
}

/* A console network (adapters/console.h): JSON lines on standard input
 * and output; nothing to set but its name. */
static const struct schema_field console_fields[] = {
	{ .key = "name", .kind = SCHEMA_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = SCHEMA_CUSTOM, .custom = load_nothing },
};
static const struct schema_group console_group = SCHEMA_GROUP_OF(console_fields);

static void load_network(struct schema_loader *L, const config_setting_t *g, const char *path,
			 config_network *net)
{
	const config_setting_t *ts = config_setting_get_member(g, "type");
	char sub[SCHEMA_KEYPATH_MAX];
	schema_path_key(sub, path, "type");
	net->type = CONFIG_NETWORK_IRC;
	if (!ts) {
		schema_error(L, g, path, "type is missing: type = \"irc\"");
	} else if (config_setting_type(ts) != CONFIG_TYPE_STRING) {
		schema_wrong_type(L, ts, sub, "a string", 0);
	} else {
		const char *t = config_setting_get_string(ts);
		int found = -1;
		for (int i = 0; i < CONFIG_NETWORK_COUNT; i++)
			if (!strcmp(t, network_words[i]))
				found = i;
		if (found < 0) {
			char q[SCHEMA_SHOWN_MAX * 4 + 8];
			schema_error(L, ts, sub, "%s is not a network type: use \"irc\", \"matrix\" or \"console\"",
				     schema_shown(q, t));
			return;
		}
		if (!network_built[found]) {
			/* Its other keys would all be unknown to IRC: say the one thing. */
			schema_error(L, ts, sub, "Matrix support is not built yet");
			return;
		}
		net->type = found;
	}
	irc_settings_default(&net->irc);
	if (net->type == CONFIG_NETWORK_CONSOLE) {
		schema_load_group(L, g, path, &console_group, net);
		/* Two would read the same standard input. */
		const config *c = L->out;
		for (int i = 0; i < c->nnetworks; i++)
			if (c->networks[i].type == CONFIG_NETWORK_CONSOLE) {
				schema_error(L, ts, sub, "a second network of type \"console\": there is one standard input");
				break;
			}
		return;
	}
	if (net->type == CONFIG_NETWORK_MATRIX) {
		matrix_settings_default(&net->matrix);
		net->rate_limited = 1; /* as Synapse ships: 0.2 messages a second after a burst of 10 */
		int mbefore = L->errs->nerrors;
		schema_load_group(L, g, path, &matrix_group, net);
		check_matrix_network(L, g, path, net, L->errs->nerrors == mbefore);
		return;
	}
	int before = L->errs->nerrors;
	schema_load_group(L, g, path, &irc_group, net);
	check_network(L, g, path, net, L->errs->nerrors == before);
}

static void load_networks(struct schema_loader *L, const config_setting_t *s, const char *path, void *base)
{
	config *c = base;
	int t = config_setting_type(s);
	/* [] parses as an empty array; an array cannot hold groups otherwise. */
	if (t != CONFIG_TYPE_LIST && !(t == CONFIG_TYPE_ARRAY && config_setting_length(s) == 0)) {
		schema_wrong_type(L, s, path, "a list ( { name = ...; type = \"irc\"; ... } )", 0);
		return;
	}
	int n = config_setting_length(s);
	if (n == 0) {
		schema_error(L, s, path, "is empty: the bot needs a network to join");
		return;
	}
	if (n > CONFIG_NETWORKS_MAX) {
		schema_error(L, s, path, "%d networks; at most %d", n, CONFIG_NETWORKS_MAX);
		n = CONFIG_NETWORKS_MAX;
	}
	c->networks = calloc((size_t)n, sizeof *c->networks);
	if (!c->networks) {
		schema_error(L, s, path, "out of memory");
		return;
	}
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_index(sub, path, i);
		if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
			schema_wrong_type(L, e, sub, "a group { name = ...; type = \"irc\"; ... }", 0);
			continue;
		}
		config_network *net = &c->networks[c->nnetworks];
		load_network(L, e, sub, net);
		if (!net->name[0])
			continue; /* its name was missing or wrong: said already */
		for (int j = 0; j < c->nnetworks; j++)
			if (!strcasecmp(c->networks[j].name, net->name)) {
				const config_setting_t *m = config_setting_get_member(e, "name");
				char np[SCHEMA_KEYPATH_MAX];
				schema_path_key(np, sub, "name");
				schema_error(L, m, np, "network \"%s\" is named twice", net->name);
				break;
			}
		c->nnetworks++;
	}
}

static const struct schema_field root_fields[] = {
	{ .key = "bot", .kind = SCHEMA_GROUP, .off = offsetof(config, bot), .sub = &bot_group },
	{ .key = "tables", .kind = SCHEMA_GROUP, .off = offsetof(config, tables), .sub = &table_group },
	{ .key = "networks", .kind = SCHEMA_CUSTOM, .custom = load_networks, .required = 1 },
};
static const struct schema_group root_group = SCHEMA_GROUP_OF(root_fields);

/* ---- the whole ---- */

static void config_defaults(config *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->bot.prefix, sizeof c->bot.prefix, "!");
	snprintf(c->bot.language, sizeof c->bot.language, "en");
	c->bot.log_level = CONFIG_LOG_INFO;
	snprintf(c->bot.data_dir, sizeof c->bot.data_dir, "./data");
	c->bot.allow_invites = 1;
	c->bot.commands_burst = 5;
	c->bot.commands_per_minute = 60;
	snprintf(c->tables.game, sizeof c->tables.game, "%s", present_at(0)->def->name); /* the registry's first */
	c->tables.pace = CONFIG_PACE_CASUAL;
	c->tables.live_turn_seconds = 60;
	c->tables.correspondence_reminder_hours = 12;
	c->tables.grace_seconds = 120;
	c->tables.casual_reminder_minutes = 5;
	c->tables.deal_pause_ms = 4000;
	c->tables.cut_offer_seconds = 20;
	c->tables.computer_delay_ms = 700;
	c->tables.computer_level = CONFIG_LEVEL_NORMAL;
	c->tables.computer_think_ms = 300;
	c->tables.hints = 1;
}

static int load_text(struct schema_loader *L, const char *text, config *out)
{
	config_defaults(out);
	L->out = out;
	int n = schema_load_text(L, text, &root_group);
	if (n)
		config_free(out);
	return n;
}

int config_load_string(const char *text, const char *name, config *out, config_errors *errs)
{
	struct schema_loader L = { .errs = errs, .name = name };
	return load_text(&L, text, out);
}

int config_load(const char *path, config *out, config_errors *errs)
{
	memset(out, 0, sizeof *out);
	struct schema_loader L = { .errs = errs, .name = path };
	char *text = schema_read_file(&L, path);
	if (!text)
		return 1;
	int n = load_text(&L, text, out);
	free(text);
	return n;
}

void config_free(config *c)
{
	if (!c)
		return;
	free(c->networks);
	memset(c, 0, sizeof *c);
}

const config_table *config_channel_table(const config *c, const config_network *net, const adapter *a,
					  const char *channel)
{
	for (int i = 0; net && i < net->irc.nchannels; i++)
		if (adapter_same_room(a, net->irc.channels[i].name, channel))
			return &net->channel_tables[i];
	return &c->tables;
}
