/* config.c: reads cardbot's libconfig file into the typed structs of config.h, collecting every error. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include <libconfig.h>

#include "config.h"

#define KEYPATH_MAX 192   /* "networks.[15].channels.[63].rules.external_caps" and room to spare */
#define SHOWN_MAX 48      /* a value quoted in a message is cut to this many bytes */
#define SUGGEST_LEN_MAX 64 /* no suggestions for longer keys: the distance table stays small */

/* Words of the enums, in step with config.h through the same X-macros. */
#define WORD(id, word) word,
#define WORD3(id, word, built) word,
#define BUILT3(id, word, built) built,
static const char *const pace_words[] = { CONFIG_PACES(WORD) NULL };
static const char *const log_words[] = { CONFIG_LOG_LEVELS(WORD) NULL };
static const char *const level_words[] = { CONFIG_LEVELS(WORD) NULL };
static const char *const game_words[] = { CONFIG_GAMES(WORD3) NULL };
static const int game_built[] = { CONFIG_GAMES(BUILT3) 0 };
static const char *const network_words[] = { CONFIG_NETWORK_TYPES(WORD3) NULL };
static const int network_built[] = { CONFIG_NETWORK_TYPES(BUILT3) 0 };
/* The 304 options, in the order of the engine's enums. */
static const char *const bidding_words[] = { "pagat", "single", NULL };
static const char *const scoring_words[] = { "standard", "bank", NULL };
static const char *const caps_words[] = { "strict", "lenient", "off", NULL };
/* Languages bot/text_*.c speak. */
static const char *const language_words[] = { "en", NULL };
#undef WORD
#undef WORD3
#undef BUILT3

_Static_assert(G304_BIDDING_PAGAT == 0 && G304_BIDDING_SINGLE == 1, "bidding_words order");
_Static_assert(G304_SCORING_STANDARD == 0 && G304_SCORING_BANK == 1, "scoring_words order");
_Static_assert(G304_CAPS_STRICT == 0 && G304_CAPS_LENIENT == 1 && G304_CAPS_OFF == 2, "caps_words order");

static const char *word_of(const char *const *words, int count, int i)
{
	return i >= 0 && i < count ? words[i] : "?";
}

const char *config_pace_name(int pace) { return word_of(pace_words, CONFIG_PACE_COUNT, pace); }
const char *config_log_level_name(int level) { return word_of(log_words, CONFIG_LOG_COUNT, level); }
const char *config_level_name(int level) { return word_of(level_words, CONFIG_LEVEL_COUNT, level); }
const char *config_game_name(int game) { return word_of(game_words, CONFIG_GAME_COUNT, game); }
const char *config_network_type_name(int type)
{
	return word_of(network_words, CONFIG_NETWORK_COUNT, type);
}

/* ---- messages ---- */

void config_errors_free(config_errors *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->n; i++) {
		free(e->items[i].file);
		free(e->items[i].text);
	}
	free(e->items);
	memset(e, 0, sizeof *e);
}

static void errors_add(config_errors *e, int warning, const char *file, int line, const char *text)
{
	if (warning)
		e->nwarnings++;
	else
		e->nerrors++;
	if (e->n >= CONFIG_MESSAGES_MAX)
		return;
	if (e->n == e->cap) {
		int cap = e->cap ? e->cap * 2 : 16;
		config_message *items = realloc(e->items, (size_t)cap * sizeof *items);
		if (!items)
			return; /* counted, not kept: the count still fails the load */
		e->items = items;
		e->cap = cap;
	}
	config_message *m = &e->items[e->n];
	m->warning = warning;
	m->line = line;
	m->file = strdup(file);
	m->text = strdup(text);
	if (!m->file || !m->text) {
		free(m->file);
		free(m->text);
		return;
	}
	e->n++;
}

/* Stable, by file then line: reads like a compiler's output. */
static void errors_sort(config_errors *e)
{
	for (int i = 1; i < e->n; i++) {
		config_message m = e->items[i];
		int j = i;
		while (j > 0) {
			const config_message *p = &e->items[j - 1];
			int c = strcmp(p->file, m.file);
			if (c < 0 || (c == 0 && p->line <= m.line))
				break;
			e->items[j] = e->items[j - 1];
			j--;
		}
		e->items[j] = m;
	}
}

int config_errors_print(const config_errors *e, FILE *f)
{
	for (int i = 0; i < e->n; i++)
		if (fprintf(f, "%s\n", e->items[i].text) < 0)
			return -1;
	int more = e->nerrors + e->nwarnings - e->n;
	if (more > 0 && fprintf(f, "... and %d more\n", more) < 0)
		return -1;
	return 0;
}

/* ---- the loader ---- */

struct loader {
	config_errors *errs;
	config *out;
	const char *name;              /* the main file, for messages */
	char dir[CONFIG_PATH_MAX];     /* its directory; "" = the working directory */
	int have_mode;                 /* mode is the main file's (not for text in memory) */
	mode_t mode;
};

__attribute__((format(printf, 6, 0)))
static void vreport(struct loader *L, int warning, const char *file, int line, const char *path,
		    const char *fmt, va_list ap)
{
	char msg[1024], text[1400];
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	if (n < 0)
		snprintf(msg, sizeof msg, "(message lost)");
	/* Messages are built from short parts; a cut one still says enough. */
	char where[64] = "";
	if (line > 0)
		snprintf(where, sizeof where, ":%d", line);
	n = snprintf(text, sizeof text, "%s%s: %s%s%s%s", file, where, warning ? "warning: " : "",
		     path && *path ? path : "", path && *path ? ": " : "", msg);
	if (n < 0)
		return;
	errors_add(L->errs, warning, file, line, text);
}

/* The file setting s came from, as a path usable from here: libconfig names
 * an @include'd file as written, and resolves it from the include
 * directory, which is the main file's directory. */
static const char *setting_file(const struct loader *L, const config_setting_t *s, char buf[CONFIG_PATH_MAX])
{
	const char *f = s ? config_setting_source_file(s) : NULL;
	if (!f)
		return L->name;
	if (f[0] == '/' || !L->dir[0])
		return f;
	int n = snprintf(buf, CONFIG_PATH_MAX, "%s/%s", L->dir, f);
	return n >= 0 && n < CONFIG_PATH_MAX ? buf : f;
}

static int setting_line(const config_setting_t *s)
{
	return s ? (int)config_setting_source_line(s) : 0;
}

__attribute__((format(printf, 4, 5)))
static void error(struct loader *L, const config_setting_t *s, const char *path, const char *fmt, ...)
{
	char file[CONFIG_PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	vreport(L, 0, setting_file(L, s, file), setting_line(s), path, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 4, 5)))
static void warning(struct loader *L, const config_setting_t *s, const char *path, const char *fmt, ...)
{
	char file[CONFIG_PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	vreport(L, 1, setting_file(L, s, file), setting_line(s), path, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 4, 5)))
static void error_at(struct loader *L, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(L, 0, file, line, NULL, fmt, ap);
	va_end(ap);
}

/* "networks" + "[2]" -> "networks.[2]", libconfig's own path syntax. Cut
 * deliberately if absurdly long: it only names a place in a message. */
static void path_cut(char *dst, int n)
{
	if (n < 0 || n >= KEYPATH_MAX)
		memcpy(dst + KEYPATH_MAX - 4, "...", 4);
}

static void path_key(char *dst, const char *parent, const char *key)
{
	path_cut(dst, snprintf(dst, KEYPATH_MAX, "%s%s%s", parent, *parent ? "." : "", key));
}

static void path_index(char *dst, const char *parent, int i)
{
	path_cut(dst, snprintf(dst, KEYPATH_MAX, "%s%s[%d]", parent, *parent ? "." : "", i));
}

/* ---- small checks ---- */

static const char *type_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group { ... }";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a decimal number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "true or false";
	case CONFIG_TYPE_ARRAY: return "an array [ ... ]";
	case CONFIG_TYPE_LIST: return "a list ( ... )";
	default: return "nothing";
	}
}

/* Quotes s for a message: printable ASCII kept, anything else as \xNN, cut
 * to SHOWN_MAX bytes with "..." marking the cut. */
static const char *shown(char buf[SHOWN_MAX * 4 + 8], const char *s)
{
	size_t o = 0, i;
	buf[o++] = '"';
	for (i = 0; s[i] && i < SHOWN_MAX; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, 5, "\\x%02x", c);
	}
	if (s[i]) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

/* What a wrong-typed value was, for "expected X, found Y": the type, and
 * the value itself unless it is a secret. */
static void found_text(char *dst, size_t len, const config_setting_t *s, int secret)
{
	char q[SHOWN_MAX * 4 + 8];
	int t = config_setting_type(s);
	if (secret || t == CONFIG_TYPE_GROUP || t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
		snprintf(dst, len, "%s", type_name(t));
	else if (t == CONFIG_TYPE_STRING)
		snprintf(dst, len, "a string (%s)", shown(q, config_setting_get_string(s)));
	else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
		snprintf(dst, len, "an integer (%lld)", config_setting_get_int64(s));
	else if (t == CONFIG_TYPE_FLOAT)
		snprintf(dst, len, "a decimal number (%g)", config_setting_get_float(s));
	else if (t == CONFIG_TYPE_BOOL)
		snprintf(dst, len, "%s", config_setting_get_bool(s) ? "true" : "false");
	else
		snprintf(dst, len, "%s", type_name(t));
}

static void wrong_type(struct loader *L, const config_setting_t *s, const char *path, const char *expected,
		       int secret)
{
	char found[SHOWN_MAX * 4 + 40];
	found_text(found, sizeof found, s, secret);
	error(L, s, path, "expected %s, found %s", expected, found);
}

/* Levenshtein distance, case-insensitive; SIZE_MAX when too long to bother. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUGGEST_LEN_MAX || lb > SUGGEST_LEN_MAX)
		return SIZE_MAX;
	size_t row[SUGGEST_LEN_MAX + 1];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = diag + (same ? 0 : 1);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The candidate closest to s if close enough to be a slip of the keyboard:
 * one edit per three characters, at least one. */
static const char *closest(const char *s, const char *const *cands, size_t n)
{
	size_t len = strlen(s), limit = len / 3 > 1 ? len / 3 : 1, best = SIZE_MAX;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = distance(s, cands[i]);
		if (d <= limit && d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return pick;
}

/* Well-formed UTF-8 with no control characters: what may go into an IRC
 * line or a log without breaking either. */
static const char *text_problem(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		if (c < 0x20 || c == 0x7f)
			return "contains a control character (line break, tab...)";
		if (c < 0x80) {
			p++;
			continue;
		}
		int more = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
		if (c >= 0xf5 || more < 0)
			return "is not valid UTF-8";
		for (int k = 1; k <= more; k++)
			if ((p[k] & 0xc0) != 0x80)
				return "is not valid UTF-8";
		p += more + 1;
	}
	return NULL;
}

/* IRC's rfc1459 case mapping, which servers use for nicks and channels. */
static int irc_lower(int c)
{
	c = tolower(c);
	return c == '[' ? '{' : c == ']' ? '}' : c == '\\' ? '|' : c == '~' ? '^' : c;
}

static int irc_casecmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = irc_lower((unsigned char)*a), y = irc_lower((unsigned char)*b);
		if (x != y || !x)
			return x - y;
	}
}

/* ---- the description of the file ---- */

enum kind {
	K_STRING,  /* copied into a char[size], after check() */
	K_PATH,    /* a string naming a file, resolved from the file's directory */
	K_INT,     /* int or uint8_t (size), min..max, times scale */
	K_NUMBER,  /* double, dmin..dmax; integers accepted */
	K_BOOL,    /* true or false into an int or uint8_t */
	K_ONOFF,   /* as K_BOOL, or the words "on" and "off" (RULES.md writes fives = on) */
	K_WORD,    /* one of words[], its index into an int or uint8_t */
	K_SECRET,  /* KEY, KEY_file or KEY_env, resolved into a char[size] */
	K_GROUP,   /* a nested group described by sub */
	K_CUSTOM,  /* custom() does it all */
};

struct group;
typedef int (*string_check)(struct loader *L, const config_setting_t *s, const char *path, const char *v);
typedef void (*custom_load)(struct loader *L, const config_setting_t *s, const char *path, void *base);

struct field {
	const char *key;
	enum kind kind;
	size_t off;                    /* into the group's target */
	size_t size;                   /* strings: the buffer; numbers and words: the width */
	int required;
	long long min, max;            /* K_INT, in the file's unit */
	int scale;                     /* K_INT: stored = value * scale (seconds to ms) */
	double dmin, dmax;             /* K_NUMBER */
	const char *what;              /* K_INT: "a port" gives "70000 is not a port (1-65535)";
	                                * K_WORD: "a pace"; else a unit ("seconds") */
	const char *const *words;      /* K_WORD */
	string_check check;            /* K_STRING */
	const struct group *sub;       /* K_GROUP */
	custom_load custom;            /* K_CUSTOM */
	int path_must_read;            /* K_PATH: the file must be readable now */
};

struct group {
	const struct field *fields;
	size_t n;
};

static void store_int(void *p, size_t size, long long v)
{
	if (size == 1)
		*(uint8_t *)p = (uint8_t)v;
	else
		*(int *)p = (int)v;
}

static int need_type(struct loader *L, const config_setting_t *s, const char *path, int want,
		     const char *expected)
{
	int t = config_setting_type(s);
	if (t == want || (want == CONFIG_TYPE_INT && t == CONFIG_TYPE_INT64))
		return 1;
	wrong_type(L, s, path, expected, 0);
	return 0;
}

/* A string value that fits size and reads as text. NULL on error (reported). */
static const char *get_text(struct loader *L, const config_setting_t *s, const char *path, size_t size,
			    int secret)
{
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wrong_type(L, s, path, "a string", secret);
		return NULL;
	}
	const char *v = config_setting_get_string(s);
	size_t len = strlen(v);
	if (len >= size) {
		error(L, s, path, "too long (%zu bytes; at most %zu)", len, size - 1);
		return NULL;
	}
	const char *why = secret ? NULL : text_problem(v);
	if (secret)
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				why = "contains a control character (line break, tab...)";
	if (why) {
		error(L, s, path, "%s", why);
		return NULL;
	}
	return v;
}

/* The directory relative paths in setting s start from. */
static void setting_dir(const struct loader *L, const config_setting_t *s, char dir[CONFIG_PATH_MAX])
{
	char buf[CONFIG_PATH_MAX];
	if (!s || !config_setting_source_file(s)) {
		memcpy(dir, L->dir, strlen(L->dir) + 1);
		return;
	}
	const char *f = setting_file(L, s, buf);
	const char *slash = strrchr(f, '/');
	size_t n = slash ? (size_t)(slash - f) : 0;
	if (slash == f)
		n = 1; /* "/x.cfg" lives in "/" */
	if (n >= CONFIG_PATH_MAX)
		n = CONFIG_PATH_MAX - 1;
	memcpy(dir, f, n);
	dir[n] = '\0';
}

/* Joins dir and a relative path into dst (size bytes); 0 if it does not fit. */
static int resolve_path(char *dst, size_t size, const char *dir, const char *path)
{
	int n;
	if (path[0] == '/' || !dir[0] || !path[0])
		n = snprintf(dst, size, "%s", path);
	else
		n = snprintf(dst, size, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", path);
	return n >= 0 && (size_t)n < size;
}

static void load_group(struct loader *L, const config_setting_t *g, const char *path, const struct group *grp,
		       void *base);

static void load_word(struct loader *L, const config_setting_t *s, const char *path, const struct field *f,
		      void *p)
{
	if (!need_type(L, s, path, CONFIG_TYPE_STRING, "a string"))
		return;
	const char *v = config_setting_get_string(s);
	size_t n = 0;
	for (; f->words[n]; n++)
		if (!strcmp(v, f->words[n])) {
			store_int(p, f->size, (long long)n);
			return;
		}
	char list[256] = "", q[SHOWN_MAX * 4 + 8];
	size_t o = 0;
	for (size_t i = 0; i < n && o < sizeof list; i++) {
		int w = snprintf(list + o, sizeof list - o, "%s\"%s\"", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				 f->words[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	const char *near = closest(v, f->words, n);
	char hint[64] = "";
	if (near)
		snprintf(hint, sizeof hint, "; did you mean \"%s\"?", near);
	error(L, s, path, "%s is not %s: use %s%s", shown(q, v), f->what, list, hint);
}

/* Takes value (from `source`, for messages: "environment variable X") as the
 * secret if it is not empty, fits and holds no control character. */
static void secret_take(struct loader *L, const config_setting_t *s, const char *path, const char *source,
			const char *value, char *dst, size_t size)
{
	size_t len = strlen(value);
	if (!len) {
		error(L, s, path, "%s is empty", source);
		return;
	}
	if (len >= size) {
		error(L, s, path, "%s is too long (%zu bytes; at most %zu)", source, len, size - 1);
		return;
	}
	for (const char *c = value; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			error(L, s, path, "%s holds a control character", source);
			return;
		}
	memcpy(dst, value, len + 1);
}

/* KEY = "...": taken as it is, with a warning if others may read the file. */
static void secret_inline(struct loader *L, const config_setting_t *s, const char *path, const char *kfile,
			  char *dst, size_t size)
{
	const char *t = get_text(L, s, path, size, 1);
	if (!t)
		return;
	memcpy(dst, t, strlen(t) + 1);
	if (!*t)
		return; /* "" is no secret at all */
	char buf[CONFIG_PATH_MAX];
	const char *file = setting_file(L, s, buf);
	struct stat st;
	mode_t mode = 0;
	if (config_setting_source_file(s)) /* an @include'd file */
		mode = stat(file, &st) == 0 ? st.st_mode : 0;
	else if (L->have_mode)
		mode = L->mode;
	if (mode & (S_IRGRP | S_IROTH))
		warning(L, s, path,
			"secret written in %s, which group or others may read (mode %04o): "
			"chmod 600 %s, or move the secret to %s",
			file, (unsigned)(mode & 07777), file, kfile);
}

/* Opens a file the configuration names, for reading, refusing anything but
 * a regular file: a FIFO would block the bot (at start, or at a SIGHUP
 * reload, with every table waiting) and a device is no file of settings.
 * The fd, or -1 with errno set (EINVAL for "not a regular file"). */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	return fd;
}

/* strerror, but "not a regular file" where open_regular refused one. */
static const char *open_error(int err)
{
	return err == EINVAL ? "not a regular file (a FIFO, socket or device?)" : strerror(err);
}

/* KEY_file = "path": the first line of the file, its line ending removed. */
static void secret_file(struct loader *L, const config_setting_t *s, const char *path, char *dst, size_t size)
{
	const char *name = get_text(L, s, path, CONFIG_PATH_MAX, 0);
	if (!name)
		return;
	if (!*name) {
		error(L, s, path, "is empty: name the file holding the secret");
		return;
	}
	char dir[CONFIG_PATH_MAX], full[CONFIG_PATH_MAX];
	setting_dir(L, s, dir);
	if (!resolve_path(full, sizeof full, dir, name)) {
		error(L, s, path, "the path is too long");
		return;
	}
	int fd = open_regular(full);
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!in) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		error(L, s, path, "cannot read \"%s\": %s", full, open_error(err));
		return;
	}
	struct stat st;
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IRGRP | S_IROTH)))
		warning(L, s, path, "the secret in \"%s\" may be read by group or others (mode %04o): chmod 600 %s",
			full, (unsigned)(st.st_mode & 07777), full);
	char line[CONFIG_STRING_MAX + 2]; /* a longest secret, "\r\n" would not fit: "too long" */
	size_t n = fread(line, 1, sizeof line - 1, in);
	int failed = ferror(in), err = errno;
	fclose(in);
	if (failed) {
		error(L, s, path, "cannot read \"%s\": %s", full, strerror(err));
		return;
	}
	line[n] = '\0';
	const char *nl = memchr(line, '\n', n);
	size_t len = nl ? (size_t)(nl - line) : n;
	char source[CONFIG_PATH_MAX + 32];
	snprintf(source, sizeof source, "the first line of \"%s\"", full);
	if (!nl && n == sizeof line - 1) {
		error(L, s, path, "%s is too long (at most %zu bytes)", source, size - 1);
		return;
	}
	if (memchr(line, '\0', len)) {
		error(L, s, path, "%s holds a NUL byte", source);
		return;
	}
	line[len] = '\0';
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	secret_take(L, s, path, source, line, dst, size);
}

/* KEY_env = "VARIABLE": the variable's value. */
static void secret_env(struct loader *L, const config_setting_t *s, const char *path, char *dst, size_t size)
{
	const char *var = get_text(L, s, path, CONFIG_STRING_MAX, 0);
	if (!var)
		return;
	int ok = *var && !isdigit((unsigned char)*var);
	for (const char *c = var; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			ok = 0;
	char source[CONFIG_STRING_MAX + 32];
	if (!ok) {
		char q[SHOWN_MAX * 4 + 8];
		error(L, s, path, "%s is not an environment variable name (letters, digits and _)", shown(q, var));
		return;
	}
	snprintf(source, sizeof source, "environment variable %s", var);
	const char *value = getenv(var);
	if (!value) {
		error(L, s, path, "%s is not set", source);
		return;
	}
	secret_take(L, s, path, source, value, dst, size);
}

/* A secret: exactly one of KEY = "...", KEY_file = "path" or KEY_env =
 * "VARIABLE". */
static void load_secret(struct loader *L, const config_setting_t *g, const char *path, const struct field *f,
			char *dst)
{
	char names[3][64], paths[3][KEYPATH_MAX];
	static const char *const suffix[3] = { "", "_file", "_env" };
	const config_setting_t *given[3];
	int first = -1;
	for (int i = 0; i < 3; i++) {
		snprintf(names[i], sizeof names[i], "%s%s", f->key, suffix[i]);
		path_key(paths[i], path, names[i]);
		given[i] = config_setting_get_member(g, names[i]);
		if (!given[i])
			continue;
		if (first >= 0) {
			error(L, given[i], paths[i], "%s is given too (line %d): give the secret one way only, "
			      "as %s, %s or %s", names[first], setting_line(given[first]), names[0], names[1], names[2]);
			return;
		}
		first = i;
	}
	if (first == 0)
		secret_inline(L, given[0], paths[0], names[1], dst, f->size);
	else if (first == 1)
		secret_file(L, given[1], paths[1], dst, f->size);
	else if (first == 2)
		secret_env(L, given[2], paths[2], dst, f->size);
}

static void load_field(struct loader *L, const config_setting_t *s, const char *path, const struct field *f,
		       void *base)
{
	void *p = (char *)base + f->off;
	switch (f->kind) {
	case K_STRING: {
		const char *v = get_text(L, s, path, f->size, 0);
		if (v && (!f->check || f->check(L, s, path, v) == 0))
			memcpy(p, v, strlen(v) + 1);
		break;
	}
	case K_PATH: {
		const char *v = get_text(L, s, path, CONFIG_PATH_MAX, 0);
		if (!v)
			break;
		char dir[CONFIG_PATH_MAX], full[CONFIG_PATH_MAX];
		setting_dir(L, s, dir);
		if (!resolve_path(full, sizeof full, dir, v) || strlen(full) >= f->size) {
			error(L, s, path, "the path is too long (at most %zu bytes once resolved)", f->size - 1);
			break;
		}
		if (f->path_must_read && *full) {
			int fd = open_regular(full);
			if (fd < 0) {
				error(L, s, path, "cannot read \"%s\": %s", full, open_error(errno));
				break;
			}
			close(fd);
		}
		memcpy(p, full, strlen(full) + 1);
		break;
	}
	case K_INT: {
		int t = config_setting_type(s);
		if (t == CONFIG_TYPE_FLOAT) {
			error(L, s, path, "expected a whole number, found %g", config_setting_get_float(s));
			break;
		}
		if (!need_type(L, s, path, CONFIG_TYPE_INT, "an integer"))
			break;
		long long v = config_setting_get_int64(s);
		if (v < f->min || v > f->max) {
			if (f->what && f->what[0] == 'a')
				error(L, s, path, "%lld is not %s (%lld-%lld)", v, f->what, f->min, f->max);
			else
				error(L, s, path, "%lld is out of range (%lld-%lld%s%s)", v, f->min, f->max,
				      f->what ? " " : "", f->what ? f->what : "");
			break;
		}
		store_int(p, f->size, v * (f->scale ? f->scale : 1));
		break;
	}
	case K_NUMBER: {
		int t = config_setting_type(s);
		double v;
		if (t == CONFIG_TYPE_FLOAT)
			v = config_setting_get_float(s);
		else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			v = (double)config_setting_get_int64(s);
		else {
			wrong_type(L, s, path, "a number", 0);
			break;
		}
		if (!(v >= f->dmin && v <= f->dmax)) {
			error(L, s, path, "%g is out of range (%g-%g%s%s)", v, f->dmin, f->dmax, f->what ? " " : "",
			      f->what ? f->what : "");
			break;
		}
		*(double *)p = v;
		break;
	}
	case K_ONOFF:
		if (config_setting_type(s) == CONFIG_TYPE_STRING) {
			const char *v = config_setting_get_string(s);
			if (!strcmp(v, "on") || !strcmp(v, "off")) {
				store_int(p, f->size, v[1] == 'n');
				break;
			}
			char q[SHOWN_MAX * 4 + 8];
			error(L, s, path, "expected true, false, \"on\" or \"off\", found %s", shown(q, v));
			break;
		}
		/* fall through */
	case K_BOOL:
		if (config_setting_type(s) == CONFIG_TYPE_STRING) {
			const char *v = config_setting_get_string(s);
			char q[SHOWN_MAX * 4 + 8];
			if (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "on") || !strcmp(v, "off") ||
			    !strcmp(v, "yes") || !strcmp(v, "no"))
				error(L, s, path, "expected true or false, found a string (%s): write true or false "
				      "without quotes", shown(q, v));
			else
				wrong_type(L, s, path, "true or false", 0);
			break;
		}
		if (need_type(L, s, path, CONFIG_TYPE_BOOL, f->kind == K_ONOFF ? "true, false, \"on\" or \"off\"" :
			      "true or false"))
			store_int(p, f->size, config_setting_get_bool(s) ? 1 : 0);
		break;
	case K_WORD:
		load_word(L, s, path, f, p);
		break;
	case K_GROUP:
		if (need_type(L, s, path, CONFIG_TYPE_GROUP, "a group { ... }"))
			load_group(L, s, path, f->sub, p);
		break;
	case K_CUSTOM:
		f->custom(L, s, path, base);
		break;
	case K_SECRET:
		break; /* load_group handles secrets: they span three keys */
	}
}

/* Is key one the group knows (secrets answer to three names)? */
static int group_knows(const struct group *grp, const char *key)
{
	for (size_t i = 0; i < grp->n; i++) {
		const struct field *f = &grp->fields[i];
		if (!strcmp(key, f->key))
			return 1;
		if (f->kind == K_SECRET) {
			size_t n = strlen(f->key);
			if (!strncmp(key, f->key, n) && (!strcmp(key + n, "_file") || !strcmp(key + n, "_env")))
				return 1;
		}
	}
	return 0;
}

static void check_keys(struct loader *L, const config_setting_t *g, const char *path, const struct group *grp)
{
	const char *cands[64 * 3];
	char secret_names[64][2][64];
	size_t nc = 0;
	for (size_t i = 0; i < grp->n && i < 64; i++) {
		const struct field *f = &grp->fields[i];
		cands[nc++] = f->key;
		if (f->kind == K_SECRET) {
			snprintf(secret_names[i][0], 64, "%s_file", f->key);
			snprintf(secret_names[i][1], 64, "%s_env", f->key);
			cands[nc++] = secret_names[i][0];
			cands[nc++] = secret_names[i][1];
		}
	}
	int n = config_setting_length(g);
	for (int i = 0; i < n; i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *key = config_setting_name(m);
		if (!key || group_knows(grp, key))
			continue;
		const char *near = closest(key, cands, nc);
		char hint[96] = "";
		if (near)
			snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
		char q[SHOWN_MAX * 4 + 8];
		shown(q, key);
		q[strlen(q) - 1] = '\0'; /* keys are quoted with '' below */
		error(L, m, NULL, "unknown key '%s' in %s%s", q + 1, *path ? path : "the top level", hint);
	}
}

static void load_group(struct loader *L, const config_setting_t *g, const char *path, const struct group *grp,
		       void *base)
{
	check_keys(L, g, path, grp);
	for (size_t i = 0; i < grp->n; i++) {
		const struct field *f = &grp->fields[i];
		char sub[KEYPATH_MAX];
		path_key(sub, path, f->key);
		if (f->kind == K_SECRET) {
			load_secret(L, g, path, f, (char *)base + f->off);
			continue;
		}
		const config_setting_t *s = config_setting_get_member(g, f->key);
		if (s)
			load_field(L, s, sub, f, base);
		else if (f->required)
			error(L, g, path, "%s is missing", f->key);
	}
}

/* ---- checks of particular strings ---- */

static int check_prefix(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (!*v) {
		error(L, s, path, "is empty: commands in rooms need a prefix such as \"!\"");
		return -1;
	}
	for (const char *c = v; *c; c++)
		if (*c == ' ') {
			error(L, s, path, "holds a space");
			return -1;
		}
	return 0;
}

static int check_nonempty(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (*v)
		return 0;
	error(L, s, path, "is empty");
	return -1;
}

/* data_dir holds the database, with the decks and salts of deals in play:
 * a directory others may enter is worth a warning (run says it too). */
static int check_data_dir(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (check_nonempty(L, s, path, v) < 0)
		return -1;
	struct stat st;
	if (stat(v, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 077))
		warning(L, s, path,
			"the directory \"%s\" may be read or entered by group or others (mode %04o), and the "
			"database there holds the decks of deals in play: chmod 700 %s",
			v, (unsigned)(st.st_mode & 07777), v);
	return 0;
}

static int check_language(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	for (size_t i = 0; language_words[i]; i++)
		if (!strcmp(v, language_words[i]))
			return 0;
	char q[SHOWN_MAX * 4 + 8];
	error(L, s, path, "%s is not a language cardbot speaks: use \"en\"", shown(q, v));
	return -1;
}

static int check_server(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	int ok = *v != '\0' && *v != '-';
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".-:_", *c))
			ok = 0;
	if (!ok)
		error(L, s, path, "%s is not a host name or address", shown(q, v));
	return ok ? 0 : -1;
}

static int nick_special(int c) { return c && strchr("[]\\`_^{|}", c) != NULL; }

/* RFC 2812: a letter or special first, then letters, digits, specials, '-'. */
static int check_nick(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	int ok = isalpha((unsigned char)v[0]) || nick_special(v[0]);
	for (const char *c = v; ok && *c; c++)
		if (!isalnum((unsigned char)*c) && !nick_special(*c) && *c != '-')
			ok = 0;
	if (!ok)
		error(L, s, path, "%s is not an IRC nick: a letter or one of []\\`_^{|} first, then "
		      "letters, digits, those signs or -", shown(q, v));
	return ok ? 0 : -1;
}

static int check_username(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	for (const char *c = v; *c; c++)
		if (*c == ' ' || *c == '@') {
			error(L, s, path, "%s holds a space or @", shown(q, v));
			return -1;
		}
	return 0;
}

static int check_fingerprint(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	int hex = 0, ok = 1;
	for (const char *c = v; *c; c++) {
		if (isxdigit((unsigned char)*c))
			hex++;
		else if (*c != ':')
			ok = 0;
	}
	if (*v && (!ok || hex != 64)) {
		error(L, s, path, "expected a SHA-256 fingerprint: 64 hexadecimal digits, colons allowed "
		      "(found %d digits)", hex);
		return -1;
	}
	return 0;
}

static int check_channel(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	if (!*v || !strchr("#&+!", v[0])) {
		error(L, s, path, "%s is not a channel name: it starts with #, &, + or !", shown(q, v));
		return -1;
	}
	if (strpbrk(v, " ,:") || strchr(v, 7)) {
		error(L, s, path, "%s is not a channel name: no spaces, commas or colons", shown(q, v));
		return -1;
	}
	return 0;
}

static int check_channel_key(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	if (strpbrk(v, " ,")) {
		error(L, s, path, "a channel key holds no spaces or commas");
		return -1;
	}
	return 0;
}

static int check_network_name(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	int ok = *v != '\0';
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			ok = 0;
	if (!ok)
		error(L, s, path, "%s is not a network name: letters, digits, _ and - only", shown(q, v));
	return ok ? 0 : -1;
}

static int check_game(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	for (int i = 0; i < CONFIG_GAME_COUNT; i++)
		if (!strcmp(v, game_words[i])) {
			if (game_built[i])
				return 0;
			error(L, s, path, "the game \"%s\" is not built yet: use \"304\"", v);
			return -1;
		}
	char q[SHOWN_MAX * 4 + 8];
	error(L, s, path, "%s is not a game: use \"304\", \"trump304\" or \"rook\"", shown(q, v));
	return -1;
}

/* ---- custom loaders ---- */

static void load_game(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_table *t = base;
	const char *v = get_text(L, s, path, CONFIG_STRING_MAX, 0);
	if (!v || check_game(L, s, path, v))
		return;
	for (int i = 0; i < CONFIG_GAME_COUNT; i++)
		if (!strcmp(v, game_words[i]))
			t->game = i;
}

/* Everyone-matching masks: nick, user and host all wildcards. */
static int mask_is_everyone(const char *m)
{
	for (const char *c = m; *c; c++)
		if (!strchr("*?!@", *c))
			return 0;
	return 1;
}

static void load_operator(struct loader *L, const config_setting_t *s, const char *path, config_operator *op)
{
	char q[SHOWN_MAX * 4 + 8];
	const char *v = get_text(L, s, path, CONFIG_STRING_MAX + 8, 0);
	if (!v)
		return;
	if (!strncmp(v, "account:", 8)) {
		const char *name = v + 8;
		if (!*name || strpbrk(name, " *?!@")) {
			error(L, s, path, "%s: an account name is exact and not empty (no spaces, *, ?, ! or @)",
			      shown(q, v));
			return;
		}
		if (strlen(name) >= sizeof op->text) {
			error(L, s, path, "too long (%zu bytes; at most %zu)", strlen(v), sizeof op->text - 1 + 8);
			return;
		}
		op->kind = CONFIG_OPERATOR_ACCOUNT;
		memcpy(op->text, name, strlen(name) + 1);
		return;
	}
	if (v[0] == '@' && strchr(v, ':')) {
		/* A Matrix user id, exact or with * and ?: matched against the id. */
		if (strpbrk(v, " !") || strlen(v) >= sizeof op->text) {
			error(L, s, path, "%s is not a Matrix user id (@name:server, * and ? match anything)",
			      shown(q, v));
			return;
		}
		op->kind = CONFIG_OPERATOR_MASK;
		memcpy(op->text, v, strlen(v) + 1);
		return;
	}
	const char *bang = strchr(v, '!'), *at = strchr(v, '@');
	if (!bang || !at || bang > at || bang == v || at == bang + 1 || !at[1] || strchr(bang + 1, '!') ||
	    strchr(at + 1, '@') || strchr(v, ' ')) {
		error(L, s, path, "%s is not an operator: write nick!user@host (* and ? match anything) or "
		      "account:NAME", shown(q, v));
		return;
	}
	if (strlen(v) >= sizeof op->text) {
		error(L, s, path, "too long (%zu bytes; at most %zu)", strlen(v), sizeof op->text - 1);
		return;
	}
	if (mask_is_everyone(v))
		warning(L, s, path, "%s matches everyone: every user would be an operator", shown(q, v));
	else if (mask_is_everyone(bang))
		warning(L, s, path, "%s matches by nick alone: anyone who takes the nick is an operator (use "
			"account:NAME, or a host the server vouches for)", shown(q, v));
	op->kind = CONFIG_OPERATOR_MASK;
	memcpy(op->text, v, strlen(v) + 1);
}

static int is_sequence(const config_setting_t *s)
{
	int t = config_setting_type(s);
	return t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY;
}

static void load_operators(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_bot *b = base;
	if (!is_sequence(s)) {
		wrong_type(L, s, path, "a list of strings [ \"nick!user@host\", \"account:NAME\" ]", 0);
		return;
	}
	int n = config_setting_length(s);
	if (n > CONFIG_OPERATORS_MAX) {
		error(L, s, path, "%d operators; at most %d", n, CONFIG_OPERATORS_MAX);
		n = CONFIG_OPERATORS_MAX;
	}
	b->noperators = 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[KEYPATH_MAX];
		path_index(sub, path, i);
		config_operator op = { 0 };
		int before = L->errs->nerrors;
		load_operator(L, e, sub, &op);
		if (L->errs->nerrors == before)
			b->operators[b->noperators++] = op;
	}
}

static const struct field rules_fields[] = {
	{ .key = "bidding", .kind = K_WORD, .off = offsetof(g304_rules, bidding), .size = 1,
	  .words = bidding_words, .what = "a bidding style" },
	{ .key = "fives", .kind = K_ONOFF, .off = offsetof(g304_rules, fives), .size = 1 },
	{ .key = "scoring", .kind = K_WORD, .off = offsetof(g304_rules, scoring), .size = 1,
	  .words = scoring_words, .what = "a scoring" },
	{ .key = "caps", .kind = K_WORD, .off = offsetof(g304_rules, caps), .size = 1,
	  .words = caps_words, .what = "a caps rule" },
	{ .key = "external_caps", .kind = K_ONOFF, .off = offsetof(g304_rules, external_caps), .size = 1 },
};
static const struct group rules_group = { rules_fields, sizeof rules_fields / sizeof rules_fields[0] };

#define TABLE_INT(k, lo, hi, unit) \
	{ .key = #k, .kind = K_INT, .off = offsetof(config_table, k), .size = sizeof(int), .min = lo, .max = hi, \
	  .what = unit }
static const struct field table_fields[] = {
	{ .key = "game", .kind = K_CUSTOM, .custom = load_game },
	{ .key = "pace", .kind = K_WORD, .off = offsetof(config_table, pace), .size = sizeof(int),
	  .words = pace_words, .what = "a pace" },
	TABLE_INT(live_turn_seconds, 10, 3600, "seconds"),
	TABLE_INT(correspondence_reminder_hours, 1, 168, "hours"),
	TABLE_INT(grace_seconds, 0, 86400, "seconds"),
	TABLE_INT(casual_reminder_minutes, 1, 1440, "minutes"),
	TABLE_INT(deal_pause_ms, 0, 60000, "milliseconds"),
	TABLE_INT(cut_offer_seconds, 0, 600, "seconds"),
	TABLE_INT(computer_delay_ms, 0, 10000, "milliseconds"),
	{ .key = "computer_level", .kind = K_WORD, .off = offsetof(config_table, computer_level),
	  .size = sizeof(int), .words = level_words, .what = "a computer level" },
	TABLE_INT(computer_think_ms, 10, 10000, "milliseconds"),
	{ .key = "hints", .kind = K_BOOL, .off = offsetof(config_table, hints), .size = sizeof(int) },
	{ .key = "rules", .kind = K_GROUP, .off = offsetof(config_table, rules), .sub = &rules_group },
};
#undef TABLE_INT
static const struct group table_group = { table_fields, sizeof table_fields / sizeof table_fields[0] };

static const struct field bot_fields[] = {
	{ .key = "prefix", .kind = K_STRING, .off = offsetof(config_bot, prefix), .size = CONFIG_PREFIX_MAX,
	  .check = check_prefix },
	{ .key = "operators", .kind = K_CUSTOM, .custom = load_operators },
	{ .key = "language", .kind = K_STRING, .off = offsetof(config_bot, language), .size = CONFIG_LANGUAGE_MAX,
	  .check = check_language },
	{ .key = "log_level", .kind = K_WORD, .off = offsetof(config_bot, log_level), .size = sizeof(int),
	  .words = log_words, .what = "a log level" },
	{ .key = "data_dir", .kind = K_STRING, .off = offsetof(config_bot, data_dir), .size = CONFIG_PATH_MAX,
	  .check = check_data_dir },
	{ .key = "public_dir", .kind = K_STRING, .off = offsetof(config_bot, public_dir), .size = CONFIG_PATH_MAX },
	{ .key = "public_url", .kind = K_STRING, .off = offsetof(config_bot, public_url), .size = CONFIG_STRING_MAX },
	{ .key = "allow_invites", .kind = K_BOOL, .off = offsetof(config_bot, allow_invites), .size = sizeof(int) },
	{ .key = "commands_burst", .kind = K_INT, .off = offsetof(config_bot, commands_burst), .size = sizeof(int),
	  .min = 1, .max = 1000, .what = "commands" },
	{ .key = "commands_per_minute", .kind = K_INT, .off = offsetof(config_bot, commands_per_minute),
	  .size = sizeof(int), .min = 1, .max = 60000, .what = "commands a minute" },
};
static const struct group bot_group = { bot_fields, sizeof bot_fields / sizeof bot_fields[0] };

/* A channel given as a group: its IRC part and its table defaults. */
struct channel_target {
	irc_channel ch;
	config_table table;
};
static const struct field channel_fields[] = {
	{ .key = "name", .kind = K_STRING, .off = offsetof(struct channel_target, ch.name), .size = IRC_FIELD_MAX,
	  .check = check_channel, .required = 1 },
	{ .key = "key", .kind = K_STRING, .off = offsetof(struct channel_target, ch.key), .size = IRC_FIELD_MAX,
	  .check = check_channel_key },
	{ .key = "pace", .kind = K_WORD, .off = offsetof(struct channel_target, table.pace), .size = sizeof(int),
	  .words = pace_words, .what = "a pace" },
	{ .key = "rules", .kind = K_GROUP, .off = offsetof(struct channel_target, table.rules), .sub = &rules_group },
};
static const struct group channel_group = { channel_fields, sizeof channel_fields / sizeof channel_fields[0] };

static void load_channels(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	if (!is_sequence(s)) {
		wrong_type(L, s, path, "a list ( \"#name\", { name = \"#name\"; key = \"...\"; } )", 0);
		return;
	}
	int n = config_setting_length(s);
	if (n > IRC_CHANNELS_MAX) {
		error(L, s, path, "%d channels; at most %d on one network", n, IRC_CHANNELS_MAX);
		n = IRC_CHANNELS_MAX;
	}
	int lines[IRC_CHANNELS_MAX];
	net->irc.nchannels = 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[KEYPATH_MAX];
		path_index(sub, path, i);
		struct channel_target c;
		memset(&c, 0, sizeof c);
		c.table = L->out->tables;
		int before = L->errs->nerrors;
		int t = config_setting_type(e);
		if (t == CONFIG_TYPE_STRING) {
			load_field(L, e, sub, &channel_fields[0], &c);
		} else if (t == CONFIG_TYPE_GROUP) {
			load_group(L, e, sub, &channel_group, &c);
		} else {
			wrong_type(L, e, sub, "a channel name \"#name\" or a group { name = \"#name\"; ... }", 0);
			continue;
		}
		if (L->errs->nerrors != before)
			continue;
		int dup = -1;
		for (int j = 0; j < net->irc.nchannels && dup < 0; j++)
			if (!irc_casecmp(net->irc.channels[j].name, c.ch.name))
				dup = j;
		if (dup >= 0) {
			error(L, e, sub, "%s is listed twice (first at line %d)", c.ch.name, lines[dup]);
			continue;
		}
		lines[net->irc.nchannels] = setting_line(e);
		net->channel_tables[net->irc.nchannels] = c.table;
		net->irc.channels[net->irc.nchannels++] = c.ch;
	}
}

static void load_nothing(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	(void)L, (void)s, (void)path, (void)base;
}

static const struct field irc_fields[] = {
	{ .key = "name", .kind = K_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = K_CUSTOM, .custom = load_nothing }, /* read first: see load_network */
#define IRC_STR(k, chk, req) \
	{ .key = #k, .kind = K_STRING, .off = offsetof(config_network, irc.k), .size = IRC_FIELD_MAX, .check = chk, \
	  .required = req }
	IRC_STR(server, check_server, 1),
	{ .key = "port", .kind = K_INT, .off = offsetof(config_network, irc.port), .size = sizeof(int), .min = 1,
	  .max = 65535, .what = "a port" },
	{ .key = "tls", .kind = K_BOOL, .off = offsetof(config_network, irc.tls), .size = sizeof(int) },
	{ .key = "ca_file", .kind = K_PATH, .off = offsetof(config_network, irc.ca_file), .size = IRC_FIELD_MAX,
	  .path_must_read = 1 },
	IRC_STR(fingerprint, check_fingerprint, 0),
	{ .key = "tls_verify", .kind = K_BOOL, .off = offsetof(config_network, irc.tls_verify),
	  .size = sizeof(int) },
	IRC_STR(nick, check_nick, 0),
	IRC_STR(username, check_username, 0),
	IRC_STR(realname, NULL, 0),
	{ .key = "server_password", .kind = K_SECRET, .off = offsetof(config_network, irc.server_password),
	  .size = IRC_FIELD_MAX },
	IRC_STR(sasl_user, check_username, 0),
	{ .key = "sasl_password", .kind = K_SECRET, .off = offsetof(config_network, irc.sasl_password),
	  .size = IRC_FIELD_MAX },
	{ .key = "nickserv_password", .kind = K_SECRET, .off = offsetof(config_network, irc.nickserv_password),
	  .size = IRC_FIELD_MAX },
	{ .key = "channels", .kind = K_CUSTOM, .custom = load_channels },
	{ .key = "private_notice", .kind = K_BOOL, .off = offsetof(config_network, irc.private_notice),
	  .size = sizeof(int) },
	{ .key = "pace_burst", .kind = K_NUMBER, .off = offsetof(config_network, irc.pace_burst), .dmin = 1,
	  .dmax = 100, .what = "lines" },
	{ .key = "pace_per_second", .kind = K_NUMBER, .off = offsetof(config_network, irc.pace_per_second),
	  .dmin = 0.05, .dmax = 50, .what = "lines a second" },
	{ .key = "reconnect_min_seconds", .kind = K_INT, .off = offsetof(config_network, irc.reconnect_min_ms),
	  .size = sizeof(int), .min = 1, .max = 3600, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_max_seconds", .kind = K_INT, .off = offsetof(config_network, irc.reconnect_max_ms),
	  .size = sizeof(int), .min = 1, .max = 86400, .scale = 1000, .what = "seconds" },
	{ .key = "accept_invites", .kind = K_BOOL, .off = offsetof(config_network, irc.accept_invites),
	  .size = sizeof(int) },
#undef IRC_STR
};
static const struct group irc_group = { irc_fields, sizeof irc_fields / sizeof irc_fields[0] };

static int is_loopback(const char *host)
{
	return !strcmp(host, "localhost") || !strncmp(host, "127.", 4) || !strcmp(host, "::1");
}

/* Checks that concern several keys at once. */
static void check_network(struct loader *L, const config_setting_t *g, const char *path, config_network *net,
			  int clean)
{
	irc_settings *s = &net->irc;
	const config_setting_t *m;
	char sub[KEYPATH_MAX];
	/* After an error in this network, a missing value may be that error's
	 * echo: cross-checks would only repeat it. */
	if (!clean)
		return;
	if (!!s->sasl_user[0] != !!s->sasl_password[0]) {
		m = config_setting_get_member(g, "sasl_user");
		path_key(sub, path, s->sasl_user[0] ? "sasl_user" : "sasl_password");
		error(L, m ? m : g, sub, "SASL needs both sasl_user and sasl_password");
	}
	if (s->reconnect_min_ms > s->reconnect_max_ms) {
		m = config_setting_get_member(g, "reconnect_max_seconds");
		path_key(sub, path, "reconnect_max_seconds");
		error(L, m ? m : g, sub, "%d is less than reconnect_min_seconds (%d)", s->reconnect_max_ms / 1000,
		      s->reconnect_min_ms / 1000);
	}
	if (!s->tls) {
		static const char *const tls_only[] = { "ca_file", "fingerprint", "tls_verify" };
		for (size_t i = 0; i < sizeof tls_only / sizeof tls_only[0]; i++)
			if ((m = config_setting_get_member(g, tls_only[i]))) {
				path_key(sub, path, tls_only[i]);
				warning(L, m, sub, "has no effect while tls is false");
			}
		if ((s->server_password[0] || s->sasl_password[0] || s->nickserv_password[0]) &&
		    !is_loopback(s->server))
			warning(L, g, path, "passwords go to %s without TLS, readable on the way: set tls = true",
				s->server);
	} else if (!s->tls_verify && !s->fingerprint[0]) {
		m = config_setting_get_member(g, "tls_verify");
		path_key(sub, path, "tls_verify");
		warning(L, m ? m : g, sub, "the server's certificate is not checked, so anyone on the way can "
			"pose as it: set fingerprint, or tls_verify = true");
	}
	m = config_setting_get_member(g, "accept_invites");
	if (m && s->accept_invites && !L->out->bot.allow_invites) {
		path_key(sub, path, "accept_invites");
		warning(L, m, sub, "has no effect while bot.allow_invites is false");
	}
	if (!L->out->bot.allow_invites)
		s->accept_invites = 0;
	if (!s->nchannels && !s->accept_invites)
		warning(L, g, path, "no channels, and invites are off: the bot would join nothing");
}

/* ---- Matrix networks ---- */

static int check_homeserver(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	const char *host = !strncmp(v, "https://", 8) ? v + 8 : !strncmp(v, "http://", 7) ? v + 7 : NULL;
	if (!host || !*host || *host == '/' || strpbrk(v, " \"?#")) {
		error(L, s, path, "%s is not a homeserver URL: https://host[:port], http:// only for this machine",
		      shown(q, v));
		return -1;
	}
	return 0;
}

static int check_user_id(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	char q[SHOWN_MAX * 4 + 8];
	const char *colon = strchr(v, ':');
	if (v[0] != '@' || !colon || colon == v + 1 || !colon[1] || strchr(v, ' ') || strlen(v) > 255) {
		error(L, s, path, "%s is not a Matrix user id: @name:server", shown(q, v));
		return -1;
	}
	return 0;
}

static int check_device_id(struct loader *L, const config_setting_t *s, const char *path, const char *v)
{
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-.=", *c)) {
			char q[SHOWN_MAX * 4 + 8];
			error(L, s, path, "%s is not a device id: letters, digits, _ - . = only", shown(q, v));
			return -1;
		}
	return 0;
}

/* A list of strings, each checked by `ok` (which says what is wrong, or NULL). */
static void load_string_list(struct loader *L, const config_setting_t *s, const char *path,
			     char (*dst)[MATRIX_FIELD_MAX], int *count, int max, const char *what,
			     const char *(*ok)(const char *v))
{
	*count = 0;
	if (!is_sequence(s)) {
		wrong_type(L, s, path, what, 0);
		return;
	}
	int n = config_setting_length(s);
	if (n > max) {
		error(L, s, path, "%d entries; at most %d", n, max);
		n = max;
	}
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[KEYPATH_MAX];
		path_index(sub, path, i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			wrong_type(L, e, sub, "a string", 0);
			continue;
		}
		const char *v = config_setting_get_string(e);
		const char *why = text_problem(v);
		char q[SHOWN_MAX * 4 + 8];
		if (!why && strlen(v) >= MATRIX_FIELD_MAX)
			why = "is too long";
		if (!why)
			why = ok(v);
		if (why) {
			error(L, e, sub, "%s %s", shown(q, v), why);
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

static void load_matrix_rooms(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	load_string_list(L, s, path, net->matrix.rooms, &net->matrix.nrooms, MATRIX_ROOMS_MAX,
			 "a list ( \"!id:server\", \"#alias:server\" )", room_problem);
}

static void load_invite_allow(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config_network *net = base;
	load_string_list(L, s, path, net->matrix.invite_allow, &net->matrix.ninvite_allow, MATRIX_ALLOW_MAX,
			 "a list of \"@user:server\" or \"server\"", allow_problem);
}

static const struct field matrix_fields[] = {
	{ .key = "name", .kind = K_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = K_CUSTOM, .custom = load_nothing },
	{ .key = "homeserver", .kind = K_STRING, .off = offsetof(config_network, matrix.homeserver),
	  .size = MATRIX_FIELD_MAX, .check = check_homeserver, .required = 1 },
	{ .key = "user_id", .kind = K_STRING, .off = offsetof(config_network, matrix.user_id),
	  .size = MATRIX_FIELD_MAX, .check = check_user_id, .required = 1 },
	{ .key = "password", .kind = K_SECRET, .off = offsetof(config_network, matrix.password),
	  .size = MATRIX_FIELD_MAX },
	{ .key = "access_token", .kind = K_SECRET, .off = offsetof(config_network, matrix.access_token),
	  .size = MATRIX_FIELD_MAX },
	{ .key = "device_id", .kind = K_STRING, .off = offsetof(config_network, matrix.device_id),
	  .size = MATRIX_FIELD_MAX, .check = check_device_id },
	{ .key = "ca_file", .kind = K_PATH, .off = offsetof(config_network, matrix.ca_file), .size = MATRIX_FIELD_MAX,
	  .path_must_read = 1 },
	{ .key = "tls_verify", .kind = K_BOOL, .off = offsetof(config_network, matrix.tls_verify),
	  .size = sizeof(int) },
	{ .key = "rooms", .kind = K_CUSTOM, .custom = load_matrix_rooms },
	{ .key = "accept_invites", .kind = K_BOOL, .off = offsetof(config_network, matrix.accept_invites),
	  .size = sizeof(int) },
	{ .key = "invite_allow", .kind = K_CUSTOM, .custom = load_invite_allow },
	{ .key = "sync_timeout_seconds", .kind = K_INT, .off = offsetof(config_network, matrix.sync_timeout_ms),
	  .size = sizeof(int), .min = 1, .max = 300, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_min_seconds", .kind = K_INT, .off = offsetof(config_network, matrix.backoff_min_ms),
	  .size = sizeof(int), .min = 1, .max = 3600, .scale = 1000, .what = "seconds" },
	{ .key = "reconnect_max_seconds", .kind = K_INT, .off = offsetof(config_network, matrix.backoff_max_ms),
	  .size = sizeof(int), .min = 1, .max = 86400, .scale = 1000, .what = "seconds" },
	{ .key = "rate_limited", .kind = K_BOOL, .off = offsetof(config_network, rate_limited), .size = sizeof(int) },
	{ .key = "rate_messages_per_minute", .kind = K_INT, .off = offsetof(config_network, matrix.rate_per_minute),
	  .size = sizeof(int), .min = 1, .max = 600000, .what = "messages a minute" },
	{ .key = "rate_burst", .kind = K_INT, .off = offsetof(config_network, matrix.rate_burst),
	  .size = sizeof(int), .min = 1, .max = 100000, .what = "messages" },
};
static const struct group matrix_group = { matrix_fields, sizeof matrix_fields / sizeof matrix_fields[0] };

static void check_matrix_network(struct loader *L, const config_setting_t *g, const char *path,
				 config_network *net, int clean)
{
	matrix_settings *s = &net->matrix;
	const config_setting_t *m;
	char sub[KEYPATH_MAX];
	s->assume_limit = net->rate_limited; /* the adapter keeps to the limit from the start */
	if (!clean)
		return;
	if (!s->password[0] == !s->access_token[0])
		error(L, g, path, "%s", s->password[0] ? "give password or access_token, not both"
		      : "password or access_token is missing (or password_file, access_token_env...)");
	if (s->backoff_min_ms > s->backoff_max_ms) {
		m = config_setting_get_member(g, "reconnect_max_seconds");
		path_key(sub, path, "reconnect_max_seconds");
		error(L, m ? m : g, sub, "%d is less than reconnect_min_seconds (%d)", s->backoff_max_ms / 1000,
		      s->backoff_min_ms / 1000);
	}
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
			warning(L, g, path, "the password or token goes to %s without TLS, readable on the way: use "
				"https://", host);
	}
	if (!s->tls_verify && (m = config_setting_get_member(g, "tls_verify"))) {
		path_key(sub, path, "tls_verify");
		warning(L, m, sub, "the homeserver's certificate is not checked, so anyone on the way can pose as it");
	}
	m = config_setting_get_member(g, "accept_invites");
	if (m && s->accept_invites && !L->out->bot.allow_invites) {
		path_key(sub, path, "accept_invites");
		warning(L, m, sub, "has no effect while bot.allow_invites is false");
	}
	if (!L->out->bot.allow_invites)
		s->accept_invites = 0;
	if (!s->nrooms && !s->accept_invites)
		warning(L, g, path, "no rooms, and invites are off: the bot would join nothing");
}

/* A console network (adapters/console.h): JSON lines on standard input
 * and output; nothing to set but its name. */
static const struct field console_fields[] = {
	{ .key = "name", .kind = K_STRING, .off = offsetof(config_network, name), .size = CONFIG_NAME_MAX,
	  .check = check_network_name, .required = 1 },
	{ .key = "type", .kind = K_CUSTOM, .custom = load_nothing },
};
static const struct group console_group = { console_fields, sizeof console_fields / sizeof console_fields[0] };

static void load_network(struct loader *L, const config_setting_t *g, const char *path, config_network *net)
{
	const config_setting_t *ts = config_setting_get_member(g, "type");
	char sub[KEYPATH_MAX];
	path_key(sub, path, "type");
	net->type = CONFIG_NETWORK_IRC;
	if (!ts) {
		error(L, g, path, "type is missing: type = \"irc\"");
	} else if (config_setting_type(ts) != CONFIG_TYPE_STRING) {
		wrong_type(L, ts, sub, "a string", 0);
	} else {
		const char *t = config_setting_get_string(ts);
		int found = -1;
		for (int i = 0; i < CONFIG_NETWORK_COUNT; i++)
			if (!strcmp(t, network_words[i]))
				found = i;
		if (found < 0) {
			char q[SHOWN_MAX * 4 + 8];
			error(L, ts, sub, "%s is not a network type: use \"irc\", \"matrix\" or \"console\"", shown(q, t));
			return;
		}
		if (!network_built[found]) {
			/* Its other keys would all be unknown to IRC: say the one thing. */
			error(L, ts, sub, "Matrix support is not built yet");
			return;
		}
		net->type = found;
	}
	irc_settings_default(&net->irc);
	if (net->type == CONFIG_NETWORK_CONSOLE) {
		load_group(L, g, path, &console_group, net);
		/* Two would read the same standard input. */
		for (int i = 0; i < L->out->nnetworks; i++)
			if (L->out->networks[i].type == CONFIG_NETWORK_CONSOLE) {
				error(L, ts, sub, "a second network of type \"console\": there is one standard input");
				break;
			}
		return;
	}
	if (net->type == CONFIG_NETWORK_MATRIX) {
		matrix_settings_default(&net->matrix);
		net->rate_limited = 1; /* as Synapse ships: 0.2 messages a second after a burst of 10 */
		int mbefore = L->errs->nerrors;
		load_group(L, g, path, &matrix_group, net);
		check_matrix_network(L, g, path, net, L->errs->nerrors == mbefore);
		return;
	}
	int before = L->errs->nerrors;
	load_group(L, g, path, &irc_group, net);
	check_network(L, g, path, net, L->errs->nerrors == before);
}

static void load_networks(struct loader *L, const config_setting_t *s, const char *path, void *base)
{
	config *c = base;
	int t = config_setting_type(s);
	/* [] parses as an empty array; an array cannot hold groups otherwise. */
	if (t != CONFIG_TYPE_LIST && !(t == CONFIG_TYPE_ARRAY && config_setting_length(s) == 0)) {
		wrong_type(L, s, path, "a list ( { name = ...; type = \"irc\"; ... } )", 0);
		return;
	}
	int n = config_setting_length(s);
	if (n == 0) {
		error(L, s, path, "is empty: the bot needs a network to join");
		return;
	}
	if (n > CONFIG_NETWORKS_MAX) {
		error(L, s, path, "%d networks; at most %d", n, CONFIG_NETWORKS_MAX);
		n = CONFIG_NETWORKS_MAX;
	}
	c->networks = calloc((size_t)n, sizeof *c->networks);
	if (!c->networks) {
		error(L, s, path, "out of memory");
		return;
	}
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char sub[KEYPATH_MAX];
		path_index(sub, path, i);
		if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
			wrong_type(L, e, sub, "a group { name = ...; type = \"irc\"; ... }", 0);
			continue;
		}
		config_network *net = &c->networks[c->nnetworks];
		load_network(L, e, sub, net);
		if (!net->name[0])
			continue; /* its name was missing or wrong: said already */
		for (int j = 0; j < c->nnetworks; j++)
			if (!strcasecmp(c->networks[j].name, net->name)) {
				const config_setting_t *m = config_setting_get_member(e, "name");
				char np[KEYPATH_MAX];
				path_key(np, sub, "name");
				error(L, m, np, "network \"%s\" is named twice", net->name);
				break;
			}
		c->nnetworks++;
	}
}

static const struct field root_fields[] = {
	{ .key = "bot", .kind = K_GROUP, .off = offsetof(config, bot), .sub = &bot_group },
	{ .key = "tables", .kind = K_GROUP, .off = offsetof(config, tables), .sub = &table_group },
	{ .key = "networks", .kind = K_CUSTOM, .custom = load_networks, .required = 1 },
};
static const struct group root_group = { root_fields, sizeof root_fields / sizeof root_fields[0] };

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
	c->tables.game = CONFIG_GAME_G304;
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
	g304_rules_default(&c->tables.rules);
}

/* libconfig 1.5 silently wraps integers beyond 32 bits (port = 4294967297
 * reads as 1), so integer literals without an L suffix are checked here,
 * in the text, before it parses it. Strings and comments are skipped. */
static void scan_integers(struct loader *L, const char *text)
{
	int line = 1;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line++;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				if (*p == '\n')
					line++;
			}
			if (!*p)
				return;
		} else if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					line++;
			if (!*p)
				return;
			p++;
		} else if (isdigit((unsigned char)*p) &&
			   (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))) {
			int negative = p > text && p[-1] == '-';
			int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
			const char *q = p + (hex ? 2 : 0);
			unsigned long long v = 0;
			int big = 0;
			for (; hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q); q++) {
				unsigned d = isdigit((unsigned char)*q) ? (unsigned)(*q - '0')
									 : (unsigned)(tolower((unsigned char)*q) - 'a' + 10);
				if (v > (ULLONG_MAX - d) / (hex ? 16 : 10))
					big = 1;
				else
					v = v * (hex ? 16 : 10) + d;
			}
			int is_float = !hex && (*q == '.' || *q == 'e' || *q == 'E');
			unsigned long long limit = hex ? 0xffffffffULL : negative ? 2147483648ULL : 2147483647ULL;
			if (!is_float && *q != 'L' && (big || v > limit))
				error_at(L, L->name, line, "%.*s is too large for an integer (at most %s%llu; "
					 "write it with an L suffix if it is meant)", (int)(q - p), p,
					 negative ? "-" : "", limit);
			while (isalnum((unsigned char)*q) || *q == '.' ||
			       ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E')))
				q++;
			p = q - 1;
		}
	}
}

#define INCLUDE_DEPTH_MAX 10 /* libconfig's own limit on nested @include */

/* libconfig opens @include'd files itself, and would wait for ever on a
 * FIFO: each one (and what it includes) is looked at first. 0, or -1 with
 * the error reported. */
static int check_includes(struct loader *L, const char *text, const char *file, int depth)
{
	int line = 1;
	for (const char *p = text; *p; line++) {
		const char *q = p + strspn(p, " \t");
		const char *eol = strchr(p, '\n');
		p = eol ? eol + 1 : p + strlen(p);
		if (strncmp(q, "@include", 8))
			continue;
		q += 8;
		q += strspn(q, " \t");
		if (*q != '"')
			continue; /* libconfig says what is wrong with it */
		const char *end = strchr(q + 1, '"');
		if (!end || (eol && end > eol) || (size_t)(end - q - 1) >= CONFIG_PATH_MAX)
			continue;
		char name[CONFIG_PATH_MAX], full[CONFIG_PATH_MAX];
		memcpy(name, q + 1, (size_t)(end - q - 1));
		name[end - q - 1] = '\0';
		int n = name[0] == '/' || !L->dir[0] ? snprintf(full, sizeof full, "%s", name)
						       : snprintf(full, sizeof full, "%s/%s", L->dir, name);
		if (n < 0 || (size_t)n >= sizeof full)
			continue;
		int fd = open_regular(full);
		if (fd < 0) {
			error_at(L, file, line, "@include \"%s\": cannot read \"%s\": %s", name, full, open_error(errno));
			return -1;
		}
		char *inc = malloc(CONFIG_FILE_MAX + 1);
		ssize_t got = inc ? read(fd, inc, CONFIG_FILE_MAX) : -1;
		close(fd);
		if (got < 0) {
			free(inc);
			continue; /* libconfig reports it */
		}
		inc[got] = '\0';
		int r = depth < INCLUDE_DEPTH_MAX ? check_includes(L, inc, full, depth + 1) : 0;
		free(inc);
		if (r < 0)
			return -1;
	}
	return 0;
}

static int load_text(struct loader *L, const char *text, config *out)
{
	int before = L->errs->nerrors;
	config_defaults(out);
	L->out = out;
	config_t cf;
	config_init(&cf);
	if (L->dir[0])
		config_set_include_dir(&cf, L->dir);
	scan_integers(L, text);
	if (check_includes(L, text, L->name, 0) < 0) {
		/* reported */
	} else if (!config_read_string(&cf, text)) {
		const char *f = config_error_file(&cf);
		char buf[CONFIG_PATH_MAX];
		if (f && f[0] != '/' && L->dir[0]) {
			int w = snprintf(buf, sizeof buf, "%s/%s", L->dir, f);
			if (w >= 0 && (size_t)w < sizeof buf)
				f = buf;
		}
		error_at(L, f ? f : L->name, config_error_line(&cf), "%s", config_error_text(&cf));
	} else {
		load_group(L, config_root_setting(&cf), "", &root_group, out);
	}
	config_destroy(&cf);
	errors_sort(L->errs);
	int n = L->errs->nerrors - before;
	if (n)
		config_free(out);
	return n;
}

int config_load_string(const char *text, const char *name, config *out, config_errors *errs)
{
	struct loader L = { .errs = errs, .name = name };
	return load_text(&L, text, out);
}

static int unreadable(config_errors *errs, const char *path, const char *why)
{
	char text[CONFIG_PATH_MAX + 128];
	snprintf(text, sizeof text, "%s: cannot read: %s", path, why);
	errors_add(errs, 0, path, 0, text);
	errs->unreadable = 1;
	return 1;
}

int config_load(const char *path, config *out, config_errors *errs)
{
	memset(out, 0, sizeof *out);
	struct loader L = { .errs = errs, .name = path };
	if (strlen(path) >= CONFIG_PATH_MAX)
		return unreadable(errs, path, strerror(ENAMETOOLONG));
	int fd = open_regular(path);
	if (fd < 0)
		return unreadable(errs, path, open_error(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int err = errno;
		close(fd);
		return unreadable(errs, path, strerror(err));
	}
	L.have_mode = 1;
	L.mode = st.st_mode;
	char *text = malloc(CONFIG_FILE_MAX + 1);
	if (!text) {
		close(fd);
		return unreadable(errs, path, strerror(ENOMEM));
	}
	size_t len = 0;
	for (;;) {
		ssize_t r = read(fd, text + len, CONFIG_FILE_MAX + 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			free(text);
			return unreadable(errs, path, strerror(err));
		}
		if (r == 0 || (len += (size_t)r) > CONFIG_FILE_MAX)
			break;
	}
	close(fd);
	if (len > CONFIG_FILE_MAX) {
		free(text);
		error_at(&L, path, 0, "larger than %d bytes: is this a config file?", CONFIG_FILE_MAX);
		return 1;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		int line = 1;
		for (const char *c = text; *c; c++)
			line += *c == '\n';
		free(text);
		error_at(&L, path, line, "holds a NUL byte: is this a config file?");
		return 1;
	}
	const char *slash = strrchr(path, '/');
	if (slash) {
		size_t n = slash == path ? 1 : (size_t)(slash - path);
		memcpy(L.dir, path, n);
		L.dir[n] = '\0';
	}
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

const config_table *config_channel_table(const config *c, const config_network *net, const char *channel)
{
	for (int i = 0; net && i < net->irc.nchannels; i++)
		if (!irc_casecmp(net->irc.channels[i].name, channel))
			return &net->channel_tables[i];
	return &c->tables;
}

/* ---- cardbot check-config ---- */

static const char check_usage[] = "usage: cardbot check-config FILE | --default\n";
static const char check_help[] =
	"usage: cardbot check-config FILE | --default\n"
	"\n"
	"Reads a configuration file and checks every value in it, as the bot would\n"
	"at start-up. Every problem is printed, one line each on standard error, as\n"
	"FILE:LINE: KEY: what is wrong; warnings too. A valid file gets a short\n"
	"summary on standard output: its networks, channels and operators.\n"
	"\n"
	"  FILE          the configuration (libconfig syntax; see config/cardbot.cfg)\n"
	"  --default     check the built-in configuration and print it on standard\n"
	"                output (the summary goes to standard error), so that\n"
	"                `cardbot check-config --default > cardbot.cfg` starts a file\n"
	"  -h, --help    show this help\n"
	"\n"
	"Secrets (server_password, sasl_password, nickserv_password) are read from\n"
	"KEY_file or KEY_env as the bot would, so run it where the bot runs.\n"
	"\n"
	"Exit status: 0 valid (warnings allowed); 78 invalid; 66 FILE cannot be\n"
	"read; 64 wrong arguments.\n";

static void rules_text(char *buf, size_t len, const g304_rules *r)
{
	snprintf(buf, len, "bidding %s, fives %s, scoring %s, caps %s, external_caps %s",
		 word_of(bidding_words, 2, r->bidding), r->fives ? "on" : "off", word_of(scoring_words, 2, r->scoring),
		 word_of(caps_words, 3, r->caps), r->external_caps ? "on" : "off");
}

static void table_text(char *buf, size_t len, const config_table *t)
{
	char rules[160];
	rules_text(rules, sizeof rules, &t->rules);
	snprintf(buf, len, "%s, %s; %s", config_game_name(t->game), config_pace_name(t->pace), rules);
}

static void print_summary(FILE *f, const char *name, const config *c)
{
	int nch = 0;
	for (int i = 0; i < c->nnetworks; i++)
		nch += c->networks[i].irc.nchannels;
	fprintf(f, "%s: valid: %d network%s, %d channel%s, %d operator%s\n", name, c->nnetworks,
		c->nnetworks == 1 ? "" : "s", nch, nch == 1 ? "" : "s", c->bot.noperators,
		c->bot.noperators == 1 ? "" : "s");
	char t[256];
	table_text(t, sizeof t, &c->tables);
	fprintf(f, "tables: %s\n", t);
	for (int i = 0; i < c->nnetworks; i++) {
		const config_network *n = &c->networks[i];
		if (n->type == CONFIG_NETWORK_CONSOLE) {
			fprintf(f, "network %s (console): JSON lines on standard input and output\n", n->name);
			continue;
		}
		if (n->type == CONFIG_NETWORK_MATRIX) {
			fprintf(f, "network %s (matrix): %s as %s, %d room%s, invites %s, %s\n", n->name,
				n->matrix.homeserver, n->matrix.user_id, n->matrix.nrooms, n->matrix.nrooms == 1 ? "" : "s",
				n->matrix.accept_invites ? "accepted" : "declined",
				n->rate_limited ? "rate-limited (brief tables)" : "not rate-limited");
			continue;
		}
		fprintf(f, "network %s (%s): %s:%d%s, nick %s, %d channel%s\n", n->name,
			config_network_type_name(n->type), n->irc.server, n->irc.port, n->irc.tls ? " TLS" : "",
			n->irc.nick, n->irc.nchannels, n->irc.nchannels == 1 ? "" : "s");
		for (int j = 0; j < n->irc.nchannels; j++) {
			table_text(t, sizeof t, &n->channel_tables[j]);
			fprintf(f, "  %s: %s\n", n->irc.channels[j].name, t);
		}
	}
	for (int i = 0; i < c->bot.noperators; i++)
		fprintf(f, "operator: %s%s\n", c->bot.operators[i].kind == CONFIG_OPERATOR_ACCOUNT ? "account:" : "",
			c->bot.operators[i].text);
}

int config_check_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(check_help, stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--default"))) {
		if (argc == 2)
			fprintf(stderr, "cardbot check-config: unknown option %s\n", argv[1]);
		fputs(check_usage, stderr);
		return EX_USAGE;
	}
	int builtin = !strcmp(argv[1], "--default");
	const char *name = builtin ? "(default)" : argv[1];
	config c;
	config_errors errs = { 0 };
	int n = builtin ? config_load_string(config_default_text(), name, &c, &errs)
			: config_load(argv[1], &c, &errs);
	fflush(stdout);
	config_errors_print(&errs, stderr);
	int status = 0;
	if (errs.unreadable) {
		status = EX_NOINPUT;
	} else if (n) {
		fprintf(stderr, "%s: %d error%s, %d warning%s\n", name, errs.nerrors, errs.nerrors == 1 ? "" : "s",
			errs.nwarnings, errs.nwarnings == 1 ? "" : "s");
		status = EX_CONFIG;
	} else {
		if (builtin)
			fputs(config_default_text(), stdout);
		print_summary(builtin ? stderr : stdout, name, &c);
		if (fflush(stdout))
			status = 1;
	}
	config_free(&c);
	config_errors_free(&errs);
	return status;
}
