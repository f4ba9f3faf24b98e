/* store.c: the bot's SQLite database (see store.h). Every statement is prepared with bound parameters: no text from chat is ever part of SQL. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "store.h"
#include "strbuf.h"

#define STORE_APP_ID 0x43423034 /* "CB04": marks the file as cardbot's */

struct store {
	sqlite3 *db;
	char path[1024];
	char err[STORE_ERR_MAX];
	int found_version;
	struct stat wal, shm; /* this connection's -wal and -shm, to know them from others' */
};

/* ---- schema ---- */

/* Version 1: the first schema. Kept exactly as it shipped: a database made
 * by it is migrated forward, step by step. */
static const char schema_v1[] =
	"CREATE TABLE adapter_state(network TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
	"  PRIMARY KEY(network, key));"
	"CREATE TABLE users(network TEXT NOT NULL, user TEXT NOT NULL, ascii INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY(network, user));"
	"CREATE TABLE tables(network TEXT NOT NULL, room TEXT NOT NULL, meta TEXT NOT NULL, match_id INTEGER,"
	"  updated INTEGER NOT NULL, PRIMARY KEY(network, room));"
	"CREATE TABLE matches(id INTEGER PRIMARY KEY, network TEXT NOT NULL, room TEXT NOT NULL,"
	"  game TEXT NOT NULL, rules TEXT NOT NULL, dealer INTEGER NOT NULL, started INTEGER NOT NULL,"
	"  ended INTEGER, winner INTEGER, tokens0 INTEGER, tokens1 INTEGER);"
	"CREATE TABLE match_players(match_id INTEGER NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL,"
	"  user TEXT NOT NULL, name TEXT NOT NULL, computer INTEGER NOT NULL, PRIMARY KEY(match_id, seat));"
	"CREATE TABLE deals(match_id INTEGER NOT NULL REFERENCES matches(id), idx INTEGER NOT NULL,"
	"  deck TEXT NOT NULL, salt TEXT NOT NULL, commitment TEXT NOT NULL, ended INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY(match_id, idx));"
	"CREATE TABLE actions(match_id INTEGER NOT NULL, deal_idx INTEGER NOT NULL, seq INTEGER NOT NULL,"
	"  action TEXT NOT NULL, PRIMARY KEY(match_id, deal_idx, seq),"
	"  FOREIGN KEY(match_id, deal_idx) REFERENCES deals(match_id, idx));"
	"CREATE TABLE deal_results(match_id INTEGER NOT NULL, deal_idx INTEGER NOT NULL, seat INTEGER NOT NULL,"
	"  network TEXT NOT NULL, user TEXT NOT NULL, name TEXT NOT NULL, computer INTEGER NOT NULL,"
	"  team INTEGER NOT NULL, outcome TEXT NOT NULL, trumper INTEGER NOT NULL, bid INTEGER NOT NULL,"
	"  made INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL, caps TEXT NOT NULL,"
	"  caps_called INTEGER NOT NULL, PRIMARY KEY(match_id, deal_idx, seat));";

/* Version 2: per-user language and notice settings; indexes for the
 * statistics commands. */
static const char migrate_v2[] =
	"ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en';"
	"ALTER TABLE users ADD COLUMN notices INTEGER NOT NULL DEFAULT 1;"
	"CREATE INDEX deal_results_user ON deal_results(network, user);"
	"CREATE INDEX matches_room ON matches(network, room, ended);"
	"CREATE TABLE channel_settings(network TEXT NOT NULL, room TEXT NOT NULL, option TEXT NOT NULL,"
	"  value TEXT NOT NULL, PRIMARY KEY(network, room, option));";

/* Version 3: the language each person chose with !lang. Apart from
 * users.language, which every row holds ('en' by default) whether or not
 * its person ever chose: a row here is a choice. */
static const char migrate_v3[] =
	"CREATE TABLE user_languages(network TEXT NOT NULL, user TEXT NOT NULL COLLATE NOCASE, lang TEXT NOT NULL,"
	"  PRIMARY KEY(network, user));";

/* Version 4: who asked to hear when a table opens in a channel (!notify
 * where none is open), and each person's own choices other than the
 * language (how private lines reach them: !private); a row is a choice,
 * unlike users.notices, which every row holds whether or not its person
 * ever chose (it is no longer read). */
static const char migrate_v4[] =
	"CREATE TABLE channel_notify(network TEXT NOT NULL, room TEXT NOT NULL COLLATE NOCASE,"
	"  user TEXT NOT NULL COLLATE NOCASE, PRIMARY KEY(network, room, user));"
	"CREATE TABLE user_options(network TEXT NOT NULL, user TEXT NOT NULL COLLATE NOCASE, option TEXT NOT NULL,"
	"  value TEXT NOT NULL, PRIMARY KEY(network, user, option));";

static const char *const migrations[STORE_VERSION] = { schema_v1, migrate_v2, migrate_v3, migrate_v4 };

static int fail(store *s, const char *what)
{
	snprintf(s->err, sizeof s->err, "%s: %s: %s", s->path, what, s->db ? sqlite3_errmsg(s->db) : "no database");
	return -1;
}

static int exec(store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(s->err, sizeof s->err, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int pragma_int(store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* A reason for a failed open, with what the person running the bot can do. */
static void open_advice(store *s, int rc, char *err, size_t errlen)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	const char *what = "cannot use the database", *todo = ".";
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		what = "the database is damaged or is not a database";
		todo = ". Stop the bot, move the file aside (with its -wal and -shm files) and start again for a new one, "
		       "or restore a backup.";
		break;
	case SQLITE_READONLY:
		what = "the database is read-only";
		todo = ". Give the user running cardbot write permission on the file and its directory, or set "
		       "bot.data_dir to a writable place.";
		break;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		what = "cannot open the database";
		todo = ". Check that the directory exists and that the user running cardbot may read and write there "
		       "(bot.data_dir).";
		break;
	case SQLITE_FULL:
		what = "the disk is full";
		todo = ". Free some space and start again.";
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		what = "the database is locked";
		todo = ": is another cardbot running on the same data_dir?";
		break;
	}
	snprintf(err, errlen, "%s: %s (%s)%s", s->path, what, msg, todo);
}

store *store_open(const char *path, char *err, size_t errlen)
{
	store *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	snprintf(s->path, sizeof s->path, "%s", path);
	/* Decks and salts of deals in play are in the file: a new database is
	 * made for its owner alone, and SQLite gives its -wal, -shm and
	 * -journal files the database's own mode. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		goto bad;
	sqlite3_extended_result_codes(s->db, 0);
	sqlite3_busy_timeout(s->db, 5000);
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		rc = SQLITE_READONLY;
		goto bad;
	}
	/* Reading the header is the first touch of the file: a damaged or
	 * foreign file shows here, before anything is written. */
	int app = 0, version = 0;
	if (pragma_int(s, "PRAGMA application_id", &app) < 0 || pragma_int(s, "PRAGMA user_version", &version) < 0) {
		rc = sqlite3_errcode(s->db);
		goto bad;
	}
	int ntables = 0;
	if (pragma_int(s, "SELECT count(*) FROM sqlite_master", &ntables) < 0) {
		rc = sqlite3_errcode(s->db);
		goto bad;
	}
	if (ntables > 0 && app != STORE_APP_ID) {
		snprintf(err, errlen,
			 "%s: this file is a database, but not cardbot's. Set bot.data_dir to a directory of "
			 "cardbot's own.", path);
		goto out;
	}
	if (version > STORE_VERSION) {
		snprintf(err, errlen,
			 "%s: the database was written by a newer cardbot (schema %d; this one knows up to %d). "
			 "It has not been changed: run the newer cardbot, or give this one another data_dir.",
			 path, version, STORE_VERSION);
		goto out;
	}
	s->found_version = version;
	if (exec(s, "PRAGMA journal_mode=WAL") < 0 || exec(s, "PRAGMA synchronous=FULL") < 0
	    || exec(s, "PRAGMA foreign_keys=ON") < 0) {
		rc = sqlite3_errcode(s->db);
		goto bad;
	}
	if (version > 0) {
		/* A quick structural check: a damaged file is refused whole
		 * rather than trusted in part. */
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK) {
			rc = sqlite3_errcode(s->db);
			goto bad;
		}
		rc = sqlite3_step(st);
		const unsigned char *res = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
		int ok = res && !strcmp((const char *)res, "ok");
		char what[200] = "";
		if (res && !ok)
			snprintf(what, sizeof what, "%s", (const char *)res);
		sqlite3_finalize(st);
		if (!ok) {
			if (rc != SQLITE_ROW) {
				rc = sqlite3_errcode(s->db);
				goto bad;
			}
			snprintf(err, errlen,
				 "%s: the database is damaged (%s). Stop the bot, move the file aside (with its -wal "
				 "and -shm files) and start again for a new one, or restore a backup.", path, what);
			goto out;
		}
	}
	if (version < STORE_VERSION) {
		if (exec(s, "BEGIN IMMEDIATE") < 0) {
			rc = sqlite3_errcode(s->db);
			goto bad;
		}
		for (int v = version; v < STORE_VERSION; v++)
			if (exec(s, migrations[v]) < 0) {
				snprintf(err, errlen, "%s: upgrading the database to schema %d failed, nothing was changed: %s",
					 path, v + 1, s->err);
				sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
				goto out;
			}
		char sql[128];
		snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d", STORE_APP_ID, STORE_VERSION);
		if (exec(s, sql) < 0 || exec(s, "COMMIT") < 0) {
			rc = sqlite3_errcode(s->db);
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			goto bad;
		}
	}
	/* The WAL and its index exist from the first read in WAL mode and
	 * stay the same files while this connection is open. */
	char side[sizeof s->path + 8];
	snprintf(side, sizeof side, "%s-wal", path);
	if (stat(side, &s->wal) < 0)
		memset(&s->wal, 0, sizeof s->wal);
	snprintf(side, sizeof side, "%s-shm", path);
	if (stat(side, &s->shm) < 0)
		memset(&s->shm, 0, sizeof s->shm);
	return s;
bad:
	open_advice(s, rc, err, errlen);
out:
	store_close(s);
	return NULL;
}

store *store_open_existing(const char *path, const char *cmd)
{
	FILE *probe = fopen(path, "rb");
	if (!probe) {
		fprintf(stderr, "cardbot %s: %s: cannot open the database\n", cmd, path);
		return NULL;
	}
	fclose(probe);
	char err[STORE_ERR_MAX];
	store *db = store_open(path, err, sizeof err);
	if (!db)
		fprintf(stderr, "cardbot %s: %s\n", cmd, err);
	return db;
}

void store_close(store *s)
{
	if (!s)
		return;
	if (s->db)
		sqlite3_close_v2(s->db);
	free(s);
}

/* Copies the open database, whole and consistent, into a new file of its
 * owner's alone at to (which must not exist), and syncs it to the disk. */
static int copy_into(store *s, const char *to)
{
	int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(s->err, sizeof s->err, "%s: cannot create: %s", to, strerror(errno));
		return -1;
	}
	close(fd);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "VACUUM INTO ?1", -1, &st, NULL) != SQLITE_OK
	    || sqlite3_bind_text(st, 1, to, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_finalize(st);
		fail(s, "copying the database");
		unlink(to);
		return -1;
	}
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(s->err, sizeof s->err, "%s: copying the database into %s: %s", s->path, to,
			 sqlite3_errmsg(s->db));
		unlink(to);
		return -1;
	}
	fd = open(to, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0) {
		snprintf(s->err, sizeof s->err, "%s: cannot sync: %s", to, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(to);
		return -1;
	}
	close(fd);
	return 0;
}

/* Removes path+suffix if it is the very file `mine` (this connection's
 * -wal or -shm), so that no later connection to whatever is at the path
 * takes this database's log for its own. */
static void unlink_if_mine(const char *path, const char *suffix, const struct stat *mine)
{
	char f[1100];
	struct stat st;
	snprintf(f, sizeof f, "%s%s", path, suffix);
	if (mine->st_ino && stat(f, &st) == 0 && st.st_ino == mine->st_ino && st.st_dev == mine->st_dev)
		unlink(f);
}

/* Moves the store onto the database file at path (a copy of its own),
 * closing the connection to the file that is gone or elsewhere. */
static int switch_to(store *s, const char *path)
{
	char err[STORE_ERR_MAX];
	store *fresh = store_open(path, err, sizeof err);
	if (!fresh) {
		snprintf(s->err, sizeof s->err, "%s", err);
		return -1;
	}
	sqlite3_close_v2(s->db);
	/* The old connection does not checkpoint or remove its -wal once its
	 * file has moved (SQLite's own guard): it is removed here, if still
	 * at the old path. */
	unlink_if_mine(s->path, "-wal", &s->wal);
	unlink_if_mine(s->path, "-shm", &s->shm);
	s->db = fresh->db;
	s->wal = fresh->wal;
	s->shm = fresh->shm;
	snprintf(s->path, sizeof s->path, "%s", fresh->path);
	fresh->db = NULL;
	store_close(fresh);
	return 0;
}

int store_check(store *s)
{
	int moved = 0;
	if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || !moved)
		return STORE_FILE_OK;
	char side[sizeof s->path + 16], old[sizeof s->path];
	snprintf(old, sizeof old, "%s", s->path);
	struct stat st;
	if (stat(s->path, &st) == 0 || errno != ENOENT) {
		/* Someone put another file there (a backup restored while the
		 * bot runs?): it is not overwritten, and the bot's -wal must not
		 * stay beside it (it would be read as that file's). The bot goes
		 * on with a copy of its own database beside it. */
		int r = -1;
		for (int i = 0; i < 10 && r < 0; i++) { /* a .kept of an earlier time is kept too */
			snprintf(side, sizeof side, i ? "%s.kept%d" : "%s.kept", old, i);
			if (lstat(side, &st) < 0 && errno == ENOENT)
				r = copy_into(s, side);
		}
		if (r < 0 && !strstr(s->err, side))
			snprintf(s->err, sizeof s->err, "%s and nine more names are taken", side);
		if (r == 0 && switch_to(s, side) < 0) {
			unlink(side);
			r = -1;
		}
		int w;
		if (r < 0) {
			char why[STORE_ERR_MAX];
			snprintf(why, sizeof why, "%s", s->err);
			w = snprintf(s->err, sizeof s->err,
				     "%s: another file has taken the database's place while cardbot runs, and a copy of "
				     "cardbot's own could not be made (%.1500s); the games go on from memory. Stop "
				     "cardbot before changing its files.", old, why);
		} else {
			w = snprintf(s->err, sizeof s->err,
				     "%.900s: another file has taken the database's place while cardbot runs; it is left "
				     "alone, and cardbot goes on with its own database, now in %.900s. To keep the games "
				     "in play, stop cardbot and move %.900s to %.900s; stop cardbot before changing its "
				     "files.",
				     old, side, side, old);
		}
		(void)w; /* a message cut short by a very long path still names it */
		return STORE_FILE_REPLACED;
	}
	/* The file was deleted: the open copy still holds every game, and is
	 * written anew at its path. Its directory may have gone with it. */
	char dir[sizeof s->path];
	snprintf(dir, sizeof dir, "%s", s->path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0700);
	}
	char tmp[sizeof s->path + 16];
	snprintf(tmp, sizeof tmp, "%s.new", s->path);
	unlink(tmp); /* left by a try that failed half way */
	if (copy_into(s, tmp) < 0)
		return STORE_FILE_LOST;
	/* A -wal or -shm left at the path belongs to the deleted file: the
	 * new one must not read it as its own. */
	static const char *const sides[] = { "-wal", "-shm", "-journal" };
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		snprintf(side, sizeof side, "%s%s", s->path, sides[i]);
		unlink(side);
	}
	if (rename(tmp, s->path) < 0) {
		snprintf(s->err, sizeof s->err, "%s: cannot put the new database in place: %s", s->path, strerror(errno));
		unlink(tmp);
		return STORE_FILE_LOST;
	}
	if (slash) {
		int dfd = open(slash == dir ? "/" : dir, O_RDONLY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	if (switch_to(s, old) < 0) {
		unlink(old); /* tried again at the next check, from the open copy */
		return STORE_FILE_LOST;
	}
	snprintf(s->err, sizeof s->err,
		 "%s: the database file was deleted while cardbot ran; it has been written anew from the open "
		 "database, with every table and match in it", s->path);
	return STORE_FILE_REWRITTEN;
}

const char *store_path(const store *s) { return s->path; }
const char *store_error(const store *s) { return s->err; }
int store_found_version(const store *s) { return s->found_version; }

/* ---- statements ---- */

/* Prepares sql and binds the arguments described by fmt: 't' text (const
 * char *), 'i' int, 'I' int64_t, 'n' NULL. */
static sqlite3_stmt *prep(store *s, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail(s, "preparing a statement");
		return NULL;
	}
	va_list ap;
	va_start(ap, fmt);
	int i = 1, rc = SQLITE_OK;
	for (const char *f = fmt; *f && rc == SQLITE_OK; f++, i++) {
		switch (*f) {
		case 't': rc = sqlite3_bind_text(st, i, va_arg(ap, const char *), -1, SQLITE_TRANSIENT); break;
		case 'i': rc = sqlite3_bind_int(st, i, va_arg(ap, int)); break;
		case 'I': rc = sqlite3_bind_int64(st, i, va_arg(ap, int64_t)); break;
		default: rc = sqlite3_bind_null(st, i); break;
		}
	}
	va_end(ap);
	if (rc != SQLITE_OK) {
		fail(s, "binding a value");
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Runs a statement that returns no rows, then frees it. */
static int run(store *s, sqlite3_stmt *st, const char *what)
{
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : fail(s, what);
	sqlite3_finalize(st);
	return r;
}

static int begin(store *s)
{
	return exec(s, "BEGIN IMMEDIATE");
}

static int commit(store *s)
{
	if (exec(s, "COMMIT") < 0) {
		char keep[STORE_ERR_MAX];
		snprintf(keep, sizeof keep, "%s", s->err);
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		snprintf(s->err, sizeof s->err, "%s", keep);
		return -1;
	}
	return 0;
}

static int rollback(store *s)
{
	char keep[STORE_ERR_MAX];
	snprintf(keep, sizeof keep, "%s", s->err);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	snprintf(s->err, sizeof s->err, "%s", keep);
	return -1;
}

static void copy_col(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(out, len, "%s", t ? (const char *)t : "");
}

/* The first column of st's first row into out (len bytes), and st
 * finalized: 1 found, 0 no row, -1 st NULL (prep failed). */
static int one_text(sqlite3_stmt *st, char *out, size_t len)
{
	if (!st)
		return -1;
	int found = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		copy_col(st, 0, out, len);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

/* ---- adapter state ---- */

int store_state_get(store *s, const char *net, const char *key, char *out, size_t len)
{
	sqlite3_stmt *st = prep(s, "SELECT value FROM adapter_state WHERE network=?1 AND key=?2", "tt", net, key);
	if (!st)
		return -1;
	int found = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0);
		if (v && n < len) {
			memcpy(out, v, n + 1);
			found = 1;
		}
	}
	sqlite3_finalize(st);
	return found;
}

int store_state_set(store *s, const char *net, const char *key, const char *value)
{
	if (!value)
		return run(s, prep(s, "DELETE FROM adapter_state WHERE network=?1 AND key=?2", "tt", net, key),
			   "forgetting an adapter's state");
	return run(s, prep(s, "INSERT OR REPLACE INTO adapter_state(network, key, value) VALUES(?1, ?2, ?3)", "ttt",
			   net, key, value), "saving an adapter's state");
}

int store_state_each(store *s, const char *key, void (*fn)(void *ctx, const char *net, const char *value), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT network, value FROM adapter_state WHERE key=?1 ORDER BY network", "t", key);
	if (!st)
		return -1;
	int n = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *net = sqlite3_column_text(st, 0), *v = sqlite3_column_text(st, 1);
		fn(ctx, net ? (const char *)net : "", v ? (const char *)v : "");
		n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}

/* ---- users ---- */

int store_user_get(store *s, const char *net, const char *user, store_user *out)
{
	sqlite3_stmt *st = prep(s, "SELECT ascii, language, notices FROM users WHERE network=?1 AND user=?2 COLLATE NOCASE",
				"tt", net, user);
	if (!st)
		return -1;
	int found = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		out->ascii = sqlite3_column_int(st, 0);
		copy_col(st, 1, out->language, sizeof out->language);
		out->notices = sqlite3_column_int(st, 2);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int store_user_set(store *s, const char *net, const char *user, const store_user *u)
{
	return run(s, prep(s, "INSERT OR REPLACE INTO users(network, user, ascii, language, notices) VALUES(?1, ?2, ?3, ?4, ?5)",
			   "ttiti", net, user, u->ascii, u->language[0] ? u->language : "en", u->notices),
		   "saving a player's settings");
}

int store_lang_get(store *s, const char *net, const char *user, char *code, size_t len)
{
	return one_text(prep(s, "SELECT lang FROM user_languages WHERE network=?1 AND user=?2", "tt", net, user), code,
			len);
}

int store_lang_set(store *s, const char *net, const char *user, const char *code)
{
	if (!code || !*code)
		return run(s, prep(s, "DELETE FROM user_languages WHERE network=?1 AND user=?2", "tt", net, user),
			   "forgetting a player's language");
	return run(s, prep(s, "INSERT OR REPLACE INTO user_languages(network, user, lang) VALUES(?1, ?2, ?3)", "ttt",
			   net, user, code), "saving a player's language");
}

/* ---- a channel's remembered !set choices ---- */

int store_channel_set(store *s, const char *net, const char *room, const char *option, const char *value)
{
	return run(s, prep(s, "INSERT OR REPLACE INTO channel_settings(network, room, option, value) VALUES(?1, ?2, lower(?3), ?4)",
			   "tttt", net, room, option, value), "saving a channel's setting");
}

int store_channel_each(store *s, const char *net, const char *room, store_setting_fn fn, void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT option, value FROM channel_settings WHERE network=?1 AND room=?2 COLLATE NOCASE"
				   " ORDER BY option", "tt", net, room);
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
	int r = rc == SQLITE_DONE ? 0 : fail(s, "reading a channel's settings");
	sqlite3_finalize(st);
	return r;
}

/* ---- who hears when a table opens in a channel ---- */

int store_notify_set(store *s, const char *net, const char *room, const char *user, int on)
{
	if (!on)
		return run(s, prep(s, "DELETE FROM channel_notify WHERE network=?1 AND room=?2 AND user=?3", "ttt", net, room,
				   user), "forgetting who hears of new tables");
	return run(s, prep(s, "INSERT OR IGNORE INTO channel_notify(network, room, user) VALUES(?1, ?2, ?3)", "ttt", net,
			   room, user), "saving who hears of new tables");
}

int store_notify_each(store *s, const char *net, const char *room, void (*fn)(void *ctx, const char *user), void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT user FROM channel_notify WHERE network=?1 AND room=?2 ORDER BY rowid", "tt",
				net, room);
	if (!st)
		return -1;
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(ctx, (const char *)sqlite3_column_text(st, 0));
		n++;
	}
	int r = rc == SQLITE_DONE ? n : fail(s, "reading who hears of new tables");
	sqlite3_finalize(st);
	return r;
}

/* ---- a person's own choices ---- */

int store_option_get(store *s, const char *net, const char *user, const char *option, char *out, size_t len)
{
	return one_text(prep(s, "SELECT value FROM user_options WHERE network=?1 AND user=?2 AND option=?3", "ttt", net,
				 user, option),
			out, len);
}

int store_option_set(store *s, const char *net, const char *user, const char *option, const char *value)
{
	if (!value)
		return run(s, prep(s, "DELETE FROM user_options WHERE network=?1 AND user=?2 AND option=?3", "ttt", net, user,
				   option), "forgetting a player's choice");
	return run(s, prep(s, "INSERT OR REPLACE INTO user_options(network, user, option, value) VALUES(?1, ?2, ?3, ?4)",
			   "tttt", net, user, option, value), "saving a player's choice");
}

/* ---- tables ---- */

int store_table_save(store *s, const char *net, const char *room, const char *meta, int64_t match_id)
{
	sqlite3_stmt *st = match_id > 0
		? prep(s, "INSERT OR REPLACE INTO tables(network, room, meta, match_id, updated) VALUES(?1, ?2, ?3, ?4, ?5)",
		       "tttII", net, room, meta, match_id, (int64_t)time(NULL))
		: prep(s, "INSERT OR REPLACE INTO tables(network, room, meta, match_id, updated) VALUES(?1, ?2, ?3, NULL, ?4)",
		       "tttI", net, room, meta, (int64_t)time(NULL));
	return run(s, st, "saving a table");
}

int store_table_delete(store *s, const char *net, const char *room)
{
	return run(s, prep(s, "DELETE FROM tables WHERE network=?1 AND room=?2", "tt", net, room), "removing a table");
}

int store_tables_each(store *s, store_table_fn fn, void *ctx)
{
	sqlite3_stmt *st = prep(s, "SELECT network, room, meta, match_id FROM tables ORDER BY rowid", "");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
		   (const char *)sqlite3_column_text(st, 2), sqlite3_column_int64(st, 3));
	int r = rc == SQLITE_DONE ? 0 : fail(s, "reading the tables");
	sqlite3_finalize(st);
	return r;
}

/* ---- matches ---- */

static int put_seats(store *s, int64_t id, const store_seat seats[STORE_SEATS])
{
	for (int i = 0; i < STORE_SEATS; i++)
		if (seats[i].name && run(s, prep(s, "INSERT OR REPLACE INTO match_players(match_id, seat, user, name, computer) "
				   "VALUES(?1, ?2, ?3, ?4, ?5)", "Iitti", id, i, seats[i].user ? seats[i].user : "",
				seats[i].name ? seats[i].name : "", seats[i].computer), "saving the players") < 0)
			return -1;
	return 0;
}

int store_match_begin(store *s, const char *net, const char *room, const char *game, const char *rules_json,
		      const store_seat seats[STORE_SEATS], int dealer, int64_t *id)
{
	if (begin(s) < 0)
		return -1;
	if (run(s, prep(s, "INSERT INTO matches(network, room, game, rules, dealer, started) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
			"ttttiI", net, room, game, rules_json, dealer, (int64_t)time(NULL)),
		"starting a match") < 0)
		return rollback(s);
	*id = sqlite3_last_insert_rowid(s->db);
	if (put_seats(s, *id, seats) < 0)
		return rollback(s);
	return commit(s);
}

int store_match_seats(store *s, int64_t id, const store_seat seats[STORE_SEATS])
{
	if (begin(s) < 0)
		return -1;
	if (put_seats(s, id, seats) < 0)
		return rollback(s);
	return commit(s);
}

int store_deal_begin(store *s, int64_t id, int idx, const char *deck_json, const char *salt, const char *commitment)
{
	return run(s, prep(s, "INSERT INTO deals(match_id, idx, deck, salt, commitment) VALUES(?1, ?2, ?3, ?4, ?5)", "Iittt",
			   id, idx, deck_json, salt, commitment), "saving a deal");
}

static int put_results(store *s, int64_t id, int idx, const store_result res[STORE_SEATS])
{
	if (run(s, prep(s, "UPDATE deals SET ended=1 WHERE match_id=?1 AND idx=?2", "Ii", id, idx), "ending a deal") < 0)
		return -1;
	for (int i = 0; i < STORE_SEATS; i++) {
		const store_result *r = &res[i];
		if (!r->outcome)
			continue; /* no seat (Trump304 with two or three) */
		if (run(s, prep(s, "INSERT OR REPLACE INTO deal_results(match_id, deal_idx, seat, network, user, name, computer,"
				   " team, outcome, trumper, bid, made, won, points, caps, caps_called)"
				   " SELECT ?1, ?2, ?3, network, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15"
				   " FROM matches WHERE id=?1",
				"Iiittiitiiiiiti", id, idx, r->seat, r->user ? r->user : "", r->name ? r->name : "",
				r->computer, r->team, r->outcome, r->trumper, r->bid, r->made, r->won, r->points,
				r->caps ? r->caps : "none", r->caps_called), "saving a deal's result") < 0)
			return -1;
	}
	return 0;
}

static int end_match(store *s, int64_t id, int winner, int tokens0, int tokens1)
{
	sqlite3_stmt *st = winner >= 0
		? prep(s, "UPDATE matches SET ended=?2, winner=?3, tokens0=?4, tokens1=?5 WHERE id=?1", "IIiii", id,
		       (int64_t)time(NULL), winner, tokens0, tokens1)
		: prep(s, "UPDATE matches SET ended=?2, winner=NULL, tokens0=?3, tokens1=?4 WHERE id=?1", "IIii", id,
		       (int64_t)time(NULL), tokens0, tokens1);
	return run(s, st, "ending a match");
}

int store_action(store *s, int64_t id, int idx, int seq, const char *action_json, const store_deal_end *end)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO actions(match_id, deal_idx, seq, action) VALUES(?1, ?2, ?3, ?4)", "Iiit",
				id, idx, seq, action_json);
	if (!end)
		return run(s, st, "saving a move");
	if (!st)
		return -1;
	if (begin(s) < 0) {
		sqlite3_finalize(st);
		return -1;
	}
	if (run(s, st, "saving a move") < 0 || put_results(s, id, idx, end->seats) < 0
	    || (end->match_over && end_match(s, id, end->winner, end->tokens[0], end->tokens[1]) < 0))
		return rollback(s);
	return commit(s);
}

int store_match_end(store *s, int64_t id, int winner, int tokens0, int tokens1)
{
	return end_match(s, id, winner, tokens0, tokens1);
}

int store_table_stop(store *s, const char *net, const char *room, int64_t id, int tokens0, int tokens1)
{
	if (begin(s) < 0)
		return -1;
	if ((id && end_match(s, id, -1, tokens0, tokens1) < 0) || store_table_delete(s, net, room) < 0)
		return rollback(s);
	return commit(s);
}

/* ---- building a record ---- */

/* A record being built grows to this at most: far beyond any match (a
 * record is read back up to RECORD_MAX_BYTES, 16 MiB). */
#define STORE_RECORD_MAX ((size_t)1 << 30)

/* A JSON string literal of t (UTF-8 passes through; controls escaped). */
static void sb_json(strbuf *b, const char *t)
{
	sb_add(b, "\"");
	for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
		char e[8];
		if (*p == '"' || *p == '\\') {
			e[0] = '\\', e[1] = (char)*p, e[2] = 0;
			sb_add(b, e);
		} else if (*p < 0x20) {
			snprintf(e, sizeof e, "\\u%04x", *p);
			sb_add(b, e);
		} else {
			sb_addn(b, (const char *)p, 1);
		}
	}
	sb_add(b, "\"");
}

char *store_match_record(store *s, int64_t id, int with_secrets, int only_ended)
{
	strbuf b;
	sb_init_grow(&b, STORE_RECORD_MAX);
	sqlite3_stmt *st = prep(s, "SELECT game, rules, dealer, network, room, started, ended FROM matches WHERE id=?1", "I", id);
	if (!st)
		return NULL;
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(s->err, sizeof s->err, "%s: no match number %lld", s->path, (long long)id);
		sqlite3_finalize(st);
		return NULL;
	}
	char num[64];
	sb_add(&b, "{\"format\": \"cardbot-record/1\", \"game\": ");
	sb_json(&b, (const char *)sqlite3_column_text(st, 0));
	sb_add(&b, ", \"rules\": ");
	sb_add(&b, (const char *)sqlite3_column_text(st, 1));
	snprintf(num, sizeof num, ", \"dealer\": %d, \"match\": %lld, \"network\": ", sqlite3_column_int(st, 2), (long long)id);
	sb_add(&b, num);
	sb_json(&b, (const char *)sqlite3_column_text(st, 3));
	sb_add(&b, ", \"room\": ");
	sb_json(&b, (const char *)sqlite3_column_text(st, 4));
	snprintf(num, sizeof num, ", \"started\": %lld", (long long)sqlite3_column_int64(st, 5));
	sb_add(&b, num);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
		snprintf(num, sizeof num, ", \"ended\": %lld", (long long)sqlite3_column_int64(st, 6));
		sb_add(&b, num);
	}
	sqlite3_finalize(st);

	sb_add(&b, ", \"players\": [");
	st = prep(s, "SELECT name FROM match_players WHERE match_id=?1 ORDER BY seat", "I", id);
	if (!st)
		goto bad;
	for (int i = 0; sqlite3_step(st) == SQLITE_ROW; i++) {
		if (i)
			sb_add(&b, ", ");
		sb_json(&b, (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	sb_add(&b, "], \"deals\": [");

	st = prep(s, "SELECT idx, deck, salt, commitment, ended FROM deals WHERE match_id=?1 ORDER BY idx", "I", id);
	if (!st)
		goto bad;
	int nd = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int idx = sqlite3_column_int(st, 0);
		if (only_ended && !sqlite3_column_int(st, 4))
			continue;
		if (nd++)
			sb_add(&b, ",");
		sb_add(&b, "\n  {\"deck\": ");
		sb_add(&b, (const char *)sqlite3_column_text(st, 1));
		if (with_secrets) {
			sb_add(&b, ", \"salt\": ");
			sb_json(&b, (const char *)sqlite3_column_text(st, 2));
		}
		sb_add(&b, ", \"commitment\": ");
		sb_json(&b, (const char *)sqlite3_column_text(st, 3));
		sb_add(&b, ", \"actions\": [");
		sqlite3_stmt *a = prep(s, "SELECT action FROM actions WHERE match_id=?1 AND deal_idx=?2 ORDER BY seq", "Ii", id, idx);
		if (!a) {
			sqlite3_finalize(st);
			goto bad;
		}
		for (int i = 0; sqlite3_step(a) == SQLITE_ROW; i++) {
			sb_add(&b, i ? ",\n    " : "\n    ");
			sb_add(&b, (const char *)sqlite3_column_text(a, 0));
		}
		sqlite3_finalize(a);
		sb_add(&b, "]}");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail(s, "reading the deals");
		goto bad;
	}
	sb_add(&b, "]}\n");
	char *text = sb_take(&b);
	if (!text)
		snprintf(s->err, sizeof s->err, "%s: out of memory building a record", s->path);
	return text;
bad:
	sb_release(&b);
	return NULL;
}

static void fill_info(sqlite3_stmt *st, store_match_info *m)
{
	memset(m, 0, sizeof *m);
	m->id = sqlite3_column_int64(st, 0);
	copy_col(st, 1, m->network, sizeof m->network);
	copy_col(st, 2, m->room, sizeof m->room);
	m->started = sqlite3_column_int64(st, 3);
	m->ended = sqlite3_column_int64(st, 4);
	m->winner = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5);
	m->tokens[0] = sqlite3_column_int(st, 6);
	m->tokens[1] = sqlite3_column_int(st, 7);
	copy_col(st, 8, m->game, sizeof m->game);
}

static int fill_players(store *s, store_match_info *m)
{
	sqlite3_stmt *st = prep(s, "SELECT seat, name FROM match_players WHERE match_id=?1", "I", m->id);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		if (seat >= 0 && seat < STORE_SEATS)
			copy_col(st, 1, m->players[seat], sizeof m->players[seat]);
	}
	sqlite3_finalize(st);
	return 0;
}

#define INFO_COLS "id, network, room, started, ifnull(ended, 0), winner, ifnull(tokens0, 0), ifnull(tokens1, 0), game"

int store_match_info_get(store *s, int64_t id, store_match_info *out)
{
	sqlite3_stmt *st = prep(s, "SELECT " INFO_COLS " FROM matches WHERE id=?1", "I", id);
	if (!st)
		return -1;
	int found = sqlite3_step(st) == SQLITE_ROW;
	if (found)
		fill_info(st, out);
	sqlite3_finalize(st);
	if (found && fill_players(s, out) < 0)
		return -1;
	return found;
}

int store_history(store *s, const char *net, const char *room, store_match_info *out, int n)
{
	sqlite3_stmt *st = prep(s, "SELECT " INFO_COLS " FROM matches WHERE network=?1 AND room=?2 AND ended IS NOT NULL"
				   " ORDER BY id DESC LIMIT ?3", "tti", net, room, n);
	if (!st)
		return -1;
	int k = 0;
	while (k < n && sqlite3_step(st) == SQLITE_ROW)
		fill_info(st, &out[k++]);
	sqlite3_finalize(st);
	for (int i = 0; i < k; i++)
		if (fill_players(s, &out[i]) < 0)
			return -1;
	return k;
}

/* ---- statistics ---- */

int store_stats_get(store *s, const char *net, const char *game, const int from[STORE_BANDS], const char *user,
		    store_stats *out)
{
	memset(out, 0, sizeof *out);
	/* A deal counts for the game of its match (deal_results.match_id is matches.id). */
	sqlite3_stmt *st = prep(s,
		"SELECT count(*), ifnull(sum(d.won), 0),"
		" ifnull(sum(d.trumper), 0), ifnull(avg(CASE WHEN d.trumper THEN d.points END), 0),"
		" ifnull(sum(d.caps_called), 0), ifnull(sum(d.caps_called AND d.caps = 'correct'), 0),"
		" (SELECT name FROM deal_results d2 WHERE d2.network=?1 AND d2.user=?2 COLLATE NOCASE"
		"   ORDER BY match_id DESC, deal_idx DESC LIMIT 1)"
		" FROM deal_results d JOIN matches m ON m.id = d.match_id"
		" WHERE d.network=?1 AND d.user=?2 COLLATE NOCASE AND d.computer=0 AND d.outcome != 'redeal' AND m.game=?3",
		"ttt", net, user, game);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return fail(s, "reading statistics");
	}
	out->deals = sqlite3_column_int(st, 0);
	out->deals_won = sqlite3_column_int(st, 1);
	out->trumper_deals = sqlite3_column_int(st, 2);
	out->trumper_points = sqlite3_column_double(st, 3);
	out->caps_calls = sqlite3_column_int(st, 4);
	out->caps_correct = sqlite3_column_int(st, 5);
	copy_col(st, 6, out->name, sizeof out->name);
	sqlite3_finalize(st);
	if (!out->deals)
		return 0;
	st = prep(s, "SELECT CASE WHEN d.bid >= ?6 THEN 3 WHEN d.bid >= ?5 THEN 2 WHEN d.bid >= ?4 THEN 1 ELSE 0 END AS band,"
		     " count(*), ifnull(sum(d.made), 0) FROM deal_results d JOIN matches m ON m.id = d.match_id"
		     " WHERE d.network=?1 AND d.user=?2 COLLATE NOCASE AND d.computer=0 AND d.trumper=1 AND d.made >= 0"
		     " AND m.game=?3 GROUP BY band",
		  "tttiii", net, user, game, from[1], from[2], from[3]);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int band = sqlite3_column_int(st, 0);
		if (band >= 0 && band < STORE_BANDS) {
			out->bids[band] = sqlite3_column_int(st, 1);
			out->bids_made[band] = sqlite3_column_int(st, 2);
		}
	}
	sqlite3_finalize(st);
	st = prep(s, "SELECT count(*), ifnull(sum(CASE WHEN m.winner = mp.seat % 2 THEN 1 ELSE 0 END), 0)"
		     " FROM match_players mp JOIN matches m ON m.id = mp.match_id"
		     " WHERE m.network=?1 AND mp.user=?2 COLLATE NOCASE AND mp.computer=0 AND m.winner IS NOT NULL"
		     " AND m.game=?3",
		  "ttt", net, user, game);
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		out->matches = sqlite3_column_int(st, 0);
		out->matches_won = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return 1;
}

int store_user_by_name(store *s, const char *net, const char *name, char *user, size_t len)
{
	return one_text(prep(s, "SELECT user FROM deal_results WHERE network=?1 AND name=?2 COLLATE NOCASE AND computer=0"
			     " ORDER BY match_id DESC LIMIT 1", "tt", net, name),
			user, len);
}

int store_top(store *s, const char *net, const char *room, const char *game, store_top_row *out, int n)
{
	/* The room's matches of the game; the people in them: those who
	 * played a deal, or sat in a match that was won. */
	sqlite3_stmt *st = prep(s,
		"WITH ms AS (SELECT id, winner FROM matches WHERE network=?1 AND room=?2 AND game=?3),"
		" seated AS (SELECT mp.user, mp.seat, ms.winner FROM match_players mp JOIN ms ON ms.id = mp.match_id"
		"   WHERE mp.computer=0 AND ms.winner IS NOT NULL),"
		" dealt AS (SELECT d.user, d.won, d.outcome FROM deal_results d WHERE d.match_id IN (SELECT id FROM ms)"
		"   AND d.computer=0),"
		" people AS (SELECT user FROM seated UNION SELECT user FROM dealt)"
		" SELECT p.user, ifnull((SELECT name FROM match_players p2 WHERE p2.user = p.user AND p2.computer=0"
		"   ORDER BY p2.match_id DESC LIMIT 1), p.user),"
		" (SELECT count(*) FROM seated WHERE seated.user = p.user),"
		" (SELECT count(*) FROM seated WHERE seated.user = p.user AND seated.winner = seated.seat % 2),"
		" (SELECT count(*) FROM dealt WHERE dealt.user = p.user AND dealt.outcome != 'redeal'),"
		" (SELECT ifnull(sum(won), 0) FROM dealt WHERE dealt.user = p.user)"
		" FROM people p ORDER BY 4 DESC, 6 DESC, 3 ASC LIMIT ?4",
		"ttti", net, room, game, n);
	if (!st)
		return -1;
	int k = 0, rc;
	while (k < n && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		store_top_row *t = &out[k++];
		copy_col(st, 1, t->name, sizeof t->name);
		t->matches = sqlite3_column_int(st, 2);
		t->matches_won = sqlite3_column_int(st, 3);
		t->deals = sqlite3_column_int(st, 4);
		t->deals_won = sqlite3_column_int(st, 5);
	}
	sqlite3_finalize(st);
	return k;
}

/* ---- measuring ---- */

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int store_bench(store *s, int n, double *us)
{
	store_seat seats[STORE_SEATS] = { { "a", "a", 0 }, { "b", "b", 0 }, { "c", "c", 0 }, { "d", "d", 0 } };
	int64_t id;
	/* The store never reads inside a match: the game and the actions are
	 * opaque labels and text here. */
	if (store_match_begin(s, "bench", "#bench", "bench", "{}", seats, 0, &id) < 0)
		return -1;
	if (store_deal_begin(s, id, 0, "[]", "00", "00") < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		double t0 = now_us();
		if (store_action(s, id, 0, i, "{\"seat\": 1, \"do\": \"bid\", \"value\": 160}", NULL) < 0)
			return -1;
		us[i] = now_us() - t0;
	}
	return 0;
}
