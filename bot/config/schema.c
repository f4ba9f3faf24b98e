/* schema.c: reads a libconfig file against tables of fields (schema.h), reporting every mistake. */
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
#include <sys/stat.h>
#include <unistd.h>

#include <libconfig.h>

#include "config.h"
#include "utf8.h"
#include "nearest.h"
#include "schema.h"


/* ---- reporting ---- */

__attribute__((format(printf, 6, 0)))
static void vreport(struct schema_loader *L, int warning, const char *file, int line, const char *path,
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
	config_errors_add(L->errs, warning, file, line, text);
}

/* The file setting s came from, as a path usable from here: libconfig names
 * an @include'd file as written, and resolves it from the include
 * directory, which is the main file's directory. */
static const char *setting_file(const struct schema_loader *L, const config_setting_t *s,
				char buf[CONFIG_PATH_MAX])
{
	const char *f = s ? config_setting_source_file(s) : NULL;
	if (!f)
		return L->name;
	if (f[0] == '/' || !L->dir[0])
		return f;
	int n = snprintf(buf, CONFIG_PATH_MAX, "%s/%s", L->dir, f);
	return n >= 0 && n < CONFIG_PATH_MAX ? buf : f;
}

int schema_setting_line(const config_setting_t *s)
{
	return s ? (int)config_setting_source_line(s) : 0;
}

/* A report at setting s: its file and line, as libconfig knows them. */
__attribute__((format(printf, 5, 0)))
static void vreport_at(struct schema_loader *L, int warning, const config_setting_t *s, const char *path,
		       const char *fmt, va_list ap)
{
	char file[CONFIG_PATH_MAX];
	vreport(L, warning, setting_file(L, s, file), schema_setting_line(s), path, fmt, ap);
}

__attribute__((format(printf, 5, 6)))
void schema_report(struct schema_loader *L, int warning, const config_setting_t *s, const char *path,
		   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_at(L, warning, s, path, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 4, 5)))
static void error_at(struct schema_loader *L, const char *file, int line, const char *fmt, ...)
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
	if (n < 0 || n >= SCHEMA_KEYPATH_MAX)
		memcpy(dst + SCHEMA_KEYPATH_MAX - 4, "...", 4);
}

void schema_path_key(char *dst, const char *parent, const char *key)
{
	path_cut(dst, snprintf(dst, SCHEMA_KEYPATH_MAX, "%s%s%s", parent, *parent ? "." : "", key));
}

void schema_path_index(char *dst, const char *parent, int i)
{
	path_cut(dst, snprintf(dst, SCHEMA_KEYPATH_MAX, "%s%s[%d]", parent, *parent ? "." : "", i));
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
 * to SCHEMA_SHOWN_MAX bytes with "..." marking the cut. */
const char *schema_shown(char buf[SCHEMA_SHOWN_MAX * 4 + 8], const char *s)
{
	size_t o = 0, i;
	buf[o++] = '"';
	for (i = 0; s[i] && i < SCHEMA_SHOWN_MAX; i++) {
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
	char q[SCHEMA_SHOWN_MAX * 4 + 8];
	int t = config_setting_type(s);
	if (secret || t == CONFIG_TYPE_GROUP || t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
		snprintf(dst, len, "%s", type_name(t));
	else if (t == CONFIG_TYPE_STRING)
		snprintf(dst, len, "a string (%s)", schema_shown(q, config_setting_get_string(s)));
	else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
		snprintf(dst, len, "an integer (%lld)", config_setting_get_int64(s));
	else if (t == CONFIG_TYPE_FLOAT)
		snprintf(dst, len, "a decimal number (%g)", config_setting_get_float(s));
	else if (t == CONFIG_TYPE_BOOL)
		snprintf(dst, len, "%s", config_setting_get_bool(s) ? "true" : "false");
	else
		snprintf(dst, len, "%s", type_name(t));
}

void schema_wrong_type(struct schema_loader *L, const config_setting_t *s, const char *path,
		       const char *expected, int secret)
{
	char found[SCHEMA_SHOWN_MAX * 4 + 40];
	found_text(found, sizeof found, s, secret);
	schema_error(L, s, path, "expected %s, found %s", expected, found);
}

/* Well-formed UTF-8 with no control characters: what may go into an IRC
 * line or a log without breaking either. */
const char *schema_text_problem(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		if (c < 0x20 || c == 0x7f)
			return "contains a control character (line break, tab...)";
		size_t n = utf8_seq((const char *)p, strnlen((const char *)p, 4));
		if (!n)
			return "is not valid UTF-8";
		p += n;
	}
	return NULL;
}

/* ---- loading by the tables ---- */

static void store_int(void *p, size_t size, long long v)
{
	if (size == 1)
		*(uint8_t *)p = (uint8_t)v;
	else
		*(int *)p = (int)v;
}

static int need_type(struct schema_loader *L, const config_setting_t *s, const char *path, int want,
		     const char *expected)
{
	int t = config_setting_type(s);
	if (t == want || (want == CONFIG_TYPE_INT && t == CONFIG_TYPE_INT64))
		return 1;
	schema_wrong_type(L, s, path, expected, 0);
	return 0;
}

/* A string value that fits size and reads as text. NULL on error (reported). */
const char *schema_get_text(struct schema_loader *L, const config_setting_t *s, const char *path, size_t size,
			    int secret)
{
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		schema_wrong_type(L, s, path, "a string", secret);
		return NULL;
	}
	const char *v = config_setting_get_string(s);
	size_t len = strlen(v);
	if (len >= size) {
		schema_error(L, s, path, "too long (%zu bytes; at most %zu)", len, size - 1);
		return NULL;
	}
	const char *why = secret ? NULL : schema_text_problem(v);
	if (secret)
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				why = "contains a control character (line break, tab...)";
	if (why) {
		schema_error(L, s, path, "%s", why);
		return NULL;
	}
	return v;
}

/* The directory relative paths in setting s start from. */
static void setting_dir(const struct schema_loader *L, const config_setting_t *s, char dir[CONFIG_PATH_MAX])
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

static void load_word(struct schema_loader *L, const config_setting_t *s, const char *path,
		      const struct schema_field *f, void *p)
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
	char list[256] = "", q[SCHEMA_SHOWN_MAX * 4 + 8];
	size_t o = 0;
	for (size_t i = 0; i < n && o < sizeof list; i++) {
		int w = snprintf(list + o, sizeof list - o, "%s\"%s\"", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				 f->words[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	const char *near = nearest_word(v, f->words, n);
	char hint[64] = "";
	if (near)
		snprintf(hint, sizeof hint, "; did you mean \"%s\"?", near);
	schema_error(L, s, path, "%s is not %s: use %s%s", schema_shown(q, v), f->what, list, hint);
}

/* Takes value (from `source`, for messages: "environment variable X") as the
 * secret if it is not empty, fits and holds no control character. */
static void secret_take(struct schema_loader *L, const config_setting_t *s, const char *path,
			const char *source, const char *value, char *dst, size_t size)
{
	size_t len = strlen(value);
	if (!len) {
		schema_error(L, s, path, "%s is empty", source);
		return;
	}
	if (len >= size) {
		schema_error(L, s, path, "%s is too long (%zu bytes; at most %zu)", source, len, size - 1);
		return;
	}
	for (const char *c = value; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			schema_error(L, s, path, "%s holds a control character", source);
			return;
		}
	memcpy(dst, value, len + 1);
}

/* KEY = "...": taken as it is, with a warning if others may read the file. */
static void secret_inline(struct schema_loader *L, const config_setting_t *s, const char *path,
			  const char *kfile, char *dst, size_t size)
{
	const char *t = schema_get_text(L, s, path, size, 1);
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
		schema_warning(L, s, path,
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
static void secret_file(struct schema_loader *L, const config_setting_t *s, const char *path, char *dst,
			size_t size)
{
	const char *name = schema_get_text(L, s, path, CONFIG_PATH_MAX, 0);
	if (!name)
		return;
	if (!*name) {
		schema_error(L, s, path, "is empty: name the file holding the secret");
		return;
	}
	char dir[CONFIG_PATH_MAX], full[CONFIG_PATH_MAX];
	setting_dir(L, s, dir);
	if (!resolve_path(full, sizeof full, dir, name)) {
		schema_error(L, s, path, "the path is too long");
		return;
	}
	int fd = open_regular(full);
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!in) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		schema_error(L, s, path, "cannot read \"%s\": %s", full, open_error(err));
		return;
	}
	struct stat st;
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IRGRP | S_IROTH)))
		schema_warning(L, s, path, "the secret in \"%s\" may be read by group or others (mode %04o): chmod 600 %s",
			       full, (unsigned)(st.st_mode & 07777), full);
	char line[CONFIG_STRING_MAX + 2]; /* a longest secret, "\r\n" would not fit: "too long" */
	size_t n = fread(line, 1, sizeof line - 1, in);
	int failed = ferror(in), err = errno;
	fclose(in);
	if (failed) {
		schema_error(L, s, path, "cannot read \"%s\": %s", full, strerror(err));
		return;
	}
	line[n] = '\0';
	const char *nl = memchr(line, '\n', n);
	size_t len = nl ? (size_t)(nl - line) : n;
	char source[CONFIG_PATH_MAX + 32];
	snprintf(source, sizeof source, "the first line of \"%s\"", full);
	if (!nl && n == sizeof line - 1) {
		schema_error(L, s, path, "%s is too long (at most %zu bytes)", source, size - 1);
		return;
	}
	if (memchr(line, '\0', len)) {
		schema_error(L, s, path, "%s holds a NUL byte", source);
		return;
	}
	line[len] = '\0';
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	secret_take(L, s, path, source, line, dst, size);
}

/* KEY_env = "VARIABLE": the variable's value. */
static void secret_env(struct schema_loader *L, const config_setting_t *s, const char *path, char *dst,
		       size_t size)
{
	const char *var = schema_get_text(L, s, path, CONFIG_STRING_MAX, 0);
	if (!var)
		return;
	int ok = *var && !isdigit((unsigned char)*var);
	for (const char *c = var; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			ok = 0;
	char source[CONFIG_STRING_MAX + 32];
	if (!ok) {
		char q[SCHEMA_SHOWN_MAX * 4 + 8];
		schema_error(L, s, path, "%s is not an environment variable name (letters, digits and _)",
			     schema_shown(q, var));
		return;
	}
	snprintf(source, sizeof source, "environment variable %s", var);
	const char *value = getenv(var);
	if (!value) {
		schema_error(L, s, path, "%s is not set", source);
		return;
	}
	secret_take(L, s, path, source, value, dst, size);
}

/* A secret: exactly one of KEY = "...", KEY_file = "path" or KEY_env =
 * "VARIABLE". */
static void load_secret(struct schema_loader *L, const config_setting_t *g, const char *path,
			const struct schema_field *f, char *dst)
{
	char names[3][64], paths[3][SCHEMA_KEYPATH_MAX];
	static const char *const suffix[3] = { "", "_file", "_env" };
	const config_setting_t *given[3];
	int first = -1;
	/* All three names first: the message below names them all. */
	for (int i = 0; i < 3; i++) {
		snprintf(names[i], sizeof names[i], "%s%s", f->key, suffix[i]);
		schema_path_key(paths[i], path, names[i]);
		given[i] = config_setting_get_member(g, names[i]);
	}
	for (int i = 0; i < 3; i++) {
		if (!given[i])
			continue;
		if (first >= 0) {
			schema_error(L, given[i], paths[i], "%s is given too (line %d): give the secret one way only, "
				     "as %s, %s or %s", names[first], schema_setting_line(given[first]), names[0], names[1],
				     names[2]);
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

void schema_load_field(struct schema_loader *L, const config_setting_t *s, const char *path,
		       const struct schema_field *f, void *base)
{
	void *p = (char *)base + f->off;
	switch (f->kind) {
	case SCHEMA_STRING: {
		const char *v = schema_get_text(L, s, path, f->size, 0);
		if (v && (!f->check || f->check(L, s, path, v) == 0))
			memcpy(p, v, strlen(v) + 1);
		break;
	}
	case SCHEMA_PATH: {
		const char *v = schema_get_text(L, s, path, CONFIG_PATH_MAX, 0);
		if (!v)
			break;
		char dir[CONFIG_PATH_MAX], full[CONFIG_PATH_MAX];
		setting_dir(L, s, dir);
		if (!resolve_path(full, sizeof full, dir, v) || strlen(full) >= f->size) {
			schema_error(L, s, path, "the path is too long (at most %zu bytes once resolved)", f->size - 1);
			break;
		}
		if (f->path_must_read && *full) {
			int fd = open_regular(full);
			if (fd < 0) {
				schema_error(L, s, path, "cannot read \"%s\": %s", full, open_error(errno));
				break;
			}
			close(fd);
		}
		memcpy(p, full, strlen(full) + 1);
		break;
	}
	case SCHEMA_INT: {
		int t = config_setting_type(s);
		if (t == CONFIG_TYPE_FLOAT) {
			schema_error(L, s, path, "expected a whole number, found %g", config_setting_get_float(s));
			break;
		}
		if (!need_type(L, s, path, CONFIG_TYPE_INT, "an integer"))
			break;
		long long v = config_setting_get_int64(s);
		if (v < f->min || v > f->max) {
			if (f->what && f->what[0] == 'a')
				schema_error(L, s, path, "%lld is not %s (%lld-%lld)", v, f->what, f->min, f->max);
			else
				schema_error(L, s, path, "%lld is out of range (%lld-%lld%s%s)", v, f->min, f->max,
					     f->what ? " " : "", f->what ? f->what : "");
			break;
		}
		store_int(p, f->size, v * (f->scale ? f->scale : 1));
		break;
	}
	case SCHEMA_NUMBER: {
		int t = config_setting_type(s);
		double v;
		if (t == CONFIG_TYPE_FLOAT)
			v = config_setting_get_float(s);
		else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			v = (double)config_setting_get_int64(s);
		else {
			schema_wrong_type(L, s, path, "a number", 0);
			break;
		}
		if (!(v >= f->dmin && v <= f->dmax)) {
			schema_error(L, s, path, "%g is out of range (%g-%g%s%s)", v, f->dmin, f->dmax, f->what ? " " : "",
				     f->what ? f->what : "");
			break;
		}
		*(double *)p = v;
		break;
	}
	case SCHEMA_ONOFF:
		if (config_setting_type(s) == CONFIG_TYPE_STRING) {
			const char *v = config_setting_get_string(s);
			if (!strcmp(v, "on") || !strcmp(v, "off")) {
				store_int(p, f->size, v[1] == 'n');
				break;
			}
			char q[SCHEMA_SHOWN_MAX * 4 + 8];
			schema_error(L, s, path, "expected true, false, \"on\" or \"off\", found %s", schema_shown(q, v));
			break;
		}
		/* fall through */
	case SCHEMA_BOOL:
		if (config_setting_type(s) == CONFIG_TYPE_STRING) {
			const char *v = config_setting_get_string(s);
			char q[SCHEMA_SHOWN_MAX * 4 + 8];
			if (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "on") || !strcmp(v, "off") ||
			    !strcmp(v, "yes") || !strcmp(v, "no"))
				schema_error(L, s, path, "expected true or false, found a string (%s): write true or false "
					     "without quotes", schema_shown(q, v));
			else
				schema_wrong_type(L, s, path, "true or false", 0);
			break;
		}
		if (need_type(L, s, path, CONFIG_TYPE_BOOL, f->kind == SCHEMA_ONOFF ? "true, false, \"on\" or \"off\"" :
			      "true or false"))
			store_int(p, f->size, config_setting_get_bool(s) ? 1 : 0);
		break;
	case SCHEMA_WORD:
		load_word(L, s, path, f, p);
		break;
	case SCHEMA_GROUP:
		if (need_type(L, s, path, CONFIG_TYPE_GROUP, "a group { ... }"))
			schema_load_group(L, s, path, f->sub, p);
		break;
	case SCHEMA_CUSTOM:
		f->custom(L, s, path, base);
		break;
	case SCHEMA_SECRET:
		break; /* schema_load_group handles secrets: they span three keys */
	}
}

/* Is key one the group knows (secrets answer to three names)? */
static int group_knows(const struct schema_group *grp, const char *key)
{
	for (size_t i = 0; i < grp->n; i++) {
		const struct schema_field *f = &grp->fields[i];
		if (!strcmp(key, f->key))
			return 1;
		if (f->kind == SCHEMA_SECRET) {
			size_t n = strlen(f->key);
			if (!strncmp(key, f->key, n) && (!strcmp(key + n, "_file") || !strcmp(key + n, "_env")))
				return 1;
		}
	}
	return 0;
}

static void check_keys(struct schema_loader *L, const config_setting_t *g, const char *path,
		       const struct schema_group *grp)
{
	const char *cands[64 * 3];
	char secret_names[64][2][64];
	size_t nc = 0;
	for (size_t i = 0; i < grp->n && i < 64; i++) {
		const struct schema_field *f = &grp->fields[i];
		cands[nc++] = f->key;
		if (f->kind == SCHEMA_SECRET) {
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
		const char *near = nearest_word(key, cands, nc);
		char hint[96] = "";
		if (near)
			snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
		char q[SCHEMA_SHOWN_MAX * 4 + 8];
		schema_shown(q, key);
		q[strlen(q) - 1] = '\0'; /* keys are quoted with '' below */
		schema_error(L, m, NULL, "unknown key '%s' in %s%s", q + 1, *path ? path : "the top level", hint);
	}
}

void schema_load_group(struct schema_loader *L, const config_setting_t *g, const char *path,
		       const struct schema_group *grp, void *base)
{
	check_keys(L, g, path, grp);
	for (size_t i = 0; i < grp->n; i++) {
		const struct schema_field *f = &grp->fields[i];
		char sub[SCHEMA_KEYPATH_MAX];
		schema_path_key(sub, path, f->key);
		if (f->kind == SCHEMA_SECRET) {
			load_secret(L, g, path, f, (char *)base + f->off);
			continue;
		}
		const config_setting_t *s = config_setting_get_member(g, f->key);
		if (s)
			schema_load_field(L, s, sub, f, base);
		else if (f->required)
			schema_error(L, g, path, "%s is missing", f->key);
	}
}

static int is_sequence(const config_setting_t *s)
{
	int t = config_setting_type(s);
	return t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY;
}

int schema_list_length(struct schema_loader *L, const config_setting_t *s, const char *path, const char *expected,
		       int max, const char *nouns, const char *where)
{
	if (!is_sequence(s)) {
		schema_wrong_type(L, s, path, expected, 0);
		return -1;
	}
	int n = config_setting_length(s);
	if (n > max) {
		schema_error(L, s, path, "%d %s; at most %d%s", n, nouns, max, where);
		n = max;
	}
	return n;
}

/* ---- the file ---- */

/* libconfig 1.5 silently wraps integers beyond 32 bits (port = 4294967297
 * reads as 1), so integer literals without an L suffix are checked here,
 * in the text, before it parses it. Strings and comments are skipped. */
static void scan_integers(struct schema_loader *L, const char *text)
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
static int check_includes(struct schema_loader *L, const char *text, const char *file, int depth)
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

int schema_load_text(struct schema_loader *L, const char *text, const struct schema_group *root)
{
	int before = L->errs->nerrors;
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
		schema_load_group(L, config_root_setting(&cf), "", root, L->out);
	}
	config_destroy(&cf);
	config_errors_sort(L->errs);
	return L->errs->nerrors - before;
}

static char *unreadable(config_errors *errs, const char *path, const char *why)
{
	char text[CONFIG_PATH_MAX + 128];
	snprintf(text, sizeof text, "%s: cannot read: %s", path, why);
	config_errors_add(errs, 0, path, 0, text);
	errs->unreadable = 1;
	return NULL;
}

char *schema_read_file(struct schema_loader *L, const char *path)
{
	config_errors *errs = L->errs;
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
	L->have_mode = 1;
	L->mode = st.st_mode;
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
		error_at(L, path, 0, "larger than %d bytes: is this a config file?", CONFIG_FILE_MAX);
		return NULL;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		int line = 1;
		for (const char *c = text; *c; c++)
			line += *c == '\n';
		free(text);
		error_at(L, path, line, "holds a NUL byte: is this a config file?");
		return NULL;
	}
	const char *slash = strrchr(path, '/');
	if (slash) {
		size_t n = slash == path ? 1 : (size_t)(slash - path);
		memcpy(L->dir, path, n);
		L->dir[n] = '\0';
	}
	return text;
}
