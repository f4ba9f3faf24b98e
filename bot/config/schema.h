/* schema.h: the configuration loader's private interface: a libconfig file read against tables of fields.
 *
 * Only bot/config/config.c (cardbot's tables), bot/config/schema.c (the loader) and
 * bot/config/config_errors.c include this. The loader knows types, ranges, words,
 * secrets and paths, never a key of cardbot's own: the tables say what
 * keys there are and where each value goes. Every mistake is reported into
 * a config_errors with file:line and the key's path, and loading goes on so
 * that one run names them all.
 */
#ifndef CARDBOT_SCHEMA_H
#define CARDBOT_SCHEMA_H

#include <stddef.h>
#include <sys/types.h>

#include <libconfig.h>

#include "config.h"

#define SCHEMA_KEYPATH_MAX 192   /* "networks.[15].channels.[63].rules.external_caps" and room to spare */
#define SCHEMA_SHOWN_MAX 48      /* a value quoted in a message is cut to this many bytes */

/* One load: where messages go and what relative paths start from. */
struct schema_loader {
	config_errors *errs;
	void *out;                     /* the whole being loaded, for custom loaders (config.c: a config) */
	const char *name;              /* the main file, for messages */
	char dir[CONFIG_PATH_MAX];     /* its directory; "" = the working directory */
	int have_mode;                 /* mode is the main file's (not for text in memory) */
	mode_t mode;
};

/* ---- the description of the file ---- */

enum schema_kind {
	SCHEMA_STRING,  /* copied into a char[size], after check() */
	SCHEMA_PATH,    /* a string naming a file, resolved from the file's directory */
	SCHEMA_INT,     /* int or uint8_t (size), min..max, times scale */
	SCHEMA_NUMBER,  /* double, dmin..dmax; integers accepted */
	SCHEMA_BOOL,    /* true or false into an int or uint8_t */
	SCHEMA_ONOFF,   /* as SCHEMA_BOOL, or the words "on" and "off" (RULES.md writes fives = on) */
	SCHEMA_WORD,    /* one of words[], its index into an int or uint8_t */
	SCHEMA_SECRET,  /* KEY, KEY_file or KEY_env, resolved into a char[size] */
	SCHEMA_GROUP,   /* a nested group described by sub */
	SCHEMA_CUSTOM,  /* custom() does it all */
};

struct schema_group;
/* 0 if v is acceptable; else -1, with the error reported. */
typedef int (*schema_string_check)(struct schema_loader *L, const config_setting_t *s, const char *path,
				   const char *v);
/* Loads setting s into base (the group's target), reporting any mistake. */
typedef void (*schema_custom_load)(struct schema_loader *L, const config_setting_t *s, const char *path,
				   void *base);

struct schema_field {
	const char *key;
	enum schema_kind kind;
	size_t off;                    /* into the group's target */
	size_t size;                   /* strings: the buffer; numbers and words: the width */
	int required;
	long long min, max;            /* SCHEMA_INT, in the file's unit */
	int scale;                     /* SCHEMA_INT: stored = value * scale (seconds to ms) */
	double dmin, dmax;             /* SCHEMA_NUMBER */
	const char *what;              /* SCHEMA_INT: "a port" gives "70000 is not a port (1-65535)";
	                                * SCHEMA_WORD: "a pace"; else a unit ("seconds") */
	const char *const *words;      /* SCHEMA_WORD */
	schema_string_check check;     /* SCHEMA_STRING */
	const struct schema_group *sub;/* SCHEMA_GROUP */
	schema_custom_load custom;     /* SCHEMA_CUSTOM */
	int path_must_read;            /* SCHEMA_PATH: the file must be readable now */
};

struct schema_group {
	const struct schema_field *fields;
	size_t n;
};
/* The initializer of a struct schema_group over an array of fields. */
#define SCHEMA_GROUP_OF(fields) { (fields), sizeof (fields) / sizeof (fields)[0] }

/* ---- loading (schema.c) ---- */

/* Reads the main file at path into memory, noting its mode and directory
 * in *L. The text (owned by the caller), or NULL with the reason reported
 * (L->errs->unreadable set if the file could not be read at all). */
char *schema_read_file(struct schema_loader *L, const char *path);

/* Parses text and loads its root group against root into L->out, which
 * holds its defaults already; then sorts L->errs. The number of errors
 * this load added. */
int schema_load_text(struct schema_loader *L, const char *text, const struct schema_group *root);

/* Loads group setting g into base: every field of grp, and an error for
 * each key grp does not know (with the nearest known key). */
void schema_load_group(struct schema_loader *L, const config_setting_t *g, const char *path,
		       const struct schema_group *grp, void *base);

/* Loads the one setting s as field f says, into base. */
void schema_load_field(struct schema_loader *L, const config_setting_t *s, const char *path,
		       const struct schema_field *f, void *base);

/* ---- reporting (schema.c) ---- */

/* An error (warning 0) or a warning about setting s (NULL: the main
 * file), at key path; schema_error and schema_warning say which. */
__attribute__((format(printf, 5, 6)))
void schema_report(struct schema_loader *L, int warning, const config_setting_t *s, const char *path,
		   const char *fmt, ...);
#define schema_error(L, s, path, ...) schema_report((L), 0, (s), (path), __VA_ARGS__)
#define schema_warning(L, s, path, ...) schema_report((L), 1, (s), (path), __VA_ARGS__)

/* "expected EXPECTED, found ..." about s; a secret's value is not shown. */
void schema_wrong_type(struct schema_loader *L, const config_setting_t *s, const char *path, const char *expected,
		       int secret);

/* The line setting s is on; 0 for NULL. */
int schema_setting_line(const config_setting_t *s);

/* parent.key and parent.[i] into dst (SCHEMA_KEYPATH_MAX bytes), cut with
 * "..." if absurdly long. */
void schema_path_key(char *dst, const char *parent, const char *key);
void schema_path_index(char *dst, const char *parent, int i);

/* s quoted for a message, into buf and returned: printable ASCII kept,
 * anything else as \xNN, cut to SCHEMA_SHOWN_MAX bytes. */
const char *schema_shown(char buf[SCHEMA_SHOWN_MAX * 4 + 8], const char *s);

/* ---- values (schema.c) ---- */

/* What is wrong with s as text (control characters, bad UTF-8), or NULL.
 * A static string. */
const char *schema_text_problem(const char *s);

/* s's string if it is one, fits size and reads as text (any control
 * character refused for a secret). Borrowed from s; NULL with the error
 * reported. */
const char *schema_get_text(struct schema_loader *L, const config_setting_t *s, const char *path, size_t size,
			    int secret);

/* How many elements of list (or array) s to read: its length, cut to max
 * with an error "N NOUNS; at most MAX[WHERE]". -1 with an error if s is no
 * list (expected: what it should have been). */
int schema_list_length(struct schema_loader *L, const config_setting_t *s, const char *path, const char *expected,
		       int max, const char *nouns, const char *where);

/* ---- the list of messages (config_errors.c) ---- */

/* Adds a message (counted even when not kept: past CONFIG_MESSAGES_MAX or
 * out of memory). */
void config_errors_add(config_errors *e, int warning, const char *file, int line, const char *text);

/* Sorts the messages by file, then line, keeping the order of equals. */
void config_errors_sort(config_errors *e);

#endif
