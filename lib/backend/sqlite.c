/*
 * backend/sqlite.c - the embedded default.  WAL, a busy timeout, BEGIN
 * IMMEDIATE for every write transaction (a deferred read-then-write gets
 * SQLITE_BUSY despite the timeout), synchronous=FULL unless the DSN opts
 * into normal, statements (transaction control too) prepared once per
 * connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"

#define LQ_SQLITE_BUSY_MS 5000

/* Transaction control, prepared once per connection like the catalogue. */
enum { TX_BEGIN, TX_BEGIN_IMMEDIATE, TX_COMMIT, TX_ROLLBACK, TX__COUNT };

struct lq_conn {
	sqlite3 *db;
	sqlite3_stmt *stmt[LQ_SQL__COUNT];
	sqlite3_stmt *tx[TX__COUNT];
	const volatile sig_atomic_t *stop;
	lq_wait_state busy; /* the current lock wait */
};

/* SQLite's own busy timeout, except that a stop request ends the wait
 * (after the grace every backend gives): SQLITE_BUSY, retried by the core
 * only while no stop is pending. */
static int busy_wait(void *arg, int count)
{
	static const int delay_ms[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
	struct lq_conn *c = arg;
	int n = (int)(sizeof(delay_ms) / sizeof(delay_ms[0]));

	if (count == 0)
		lq__wait_init(&c->busy, LQ_SQLITE_BUSY_MS, c->stop);
	if (lq__wait_check(&c->busy))
		return 0;
	usleep(1000 * (useconds_t)delay_ms[count < n ? count : n - 1]);
	return 1;
}

static void sqlite_set_stop(struct lq_conn *c, const volatile sig_atomic_t *stop)
{
	c->stop = stop;
}

static lq_status map_rc(sqlite3 *db, int rc, lq_err *err, const char *what)
{
	int prim = rc & 0xff;
	lq__err_set(err, "%s%s%s (SQLite %d)", what ? what : "", what ? ": " : "",
		    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), rc);
	if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED)
		return LQ__RETRY;
	if (prim == SQLITE_NOMEM)
		return LQ_ENOMEM;
	/* A file problem is the user's to fix, not an outage to wait out. */
	if (prim == SQLITE_NOTADB)
		return LQ_ENOTDB;
	if (prim == SQLITE_PERM || prim == SQLITE_READONLY)
		return LQ_EPERM;
	if (prim == SQLITE_CANTOPEN || prim == SQLITE_IOERR)
		return LQ_ECONN;
	return LQ_ERROR;
}

/* Our statements and the wrapper; a borrowed connection stays open. */
static void sqlite_release(struct lq_conn *c)
{
	if (!c)
		return;
	for (int i = 0; i < LQ_SQL__COUNT; i++)
		sqlite3_finalize(c->stmt[i]);
	for (int i = 0; i < TX__COUNT; i++)
		sqlite3_finalize(c->tx[i]);
	free(c);
}

static void sqlite_disconnect(struct lq_conn *c)
{
	if (!c)
		return;
	sqlite3 *db = c->db;
	sqlite_release(c);
	sqlite3_close_v2(db);
}

/* Run a pragma or other parameterless statement, retrying while busy. */
static int exec_busy(sqlite3 *db, const char *sql)
{
	int rc;
	for (int i = 0; i < 50; i++) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return rc;
		usleep(20000);
	}
	return rc;
}

/* The directory a database file's -wal and -shm files go to. */
static void dir_of(const char *file, char *buf, size_t size)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		snprintf(buf, size, ".");
	else if (slash == file)
		snprintf(buf, size, "/");
	else
		snprintf(buf, size, "%.*s", (int)(slash - file), file);
}

/*
 * What the file system says before SQLite is asked: a missing file is
 * created (mode 0600: private to its owner) only when flags allow it, and
 * each way a local file can be wrong gets its own status, because a tool
 * must not treat a typo or a permission as an outage to retry.
 */
static lq_status check_file(const char *file, unsigned flags, lq_err *err)
{
	struct stat sb;
	if (stat(file, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			lq__err_set(err, "is a directory, not a database file");
			return LQ_ENOTDB;
		}
		if (!S_ISREG(sb.st_mode)) {
			lq__err_set(err, "not a database file (not a regular file)");
			return LQ_ENOTDB;
		}
		if (faccessat(AT_FDCWD, file, R_OK, AT_EACCESS) != 0) {
			lq__err_set(err, "permission denied (cannot read %s)", file);
			return LQ_EPERM;
		}
		if (!(flags & LQ_OPEN_READONLY) && faccessat(AT_FDCWD, file, W_OK, AT_EACCESS) != 0) {
			if (errno == EACCES)
				lq__err_set(err, "permission denied (cannot write to %s)", file);
			else
				lq__err_set(err, "permission denied (cannot write to %s: %s)", file, strerror(errno));
			return LQ_EPERM;
		}
		return LQ_OK;
	}
	int e = errno;
	if (e == EACCES) {
		lq__err_set(err, "permission denied (cannot look up %s)", file);
		return LQ_EPERM;
	}
	if (flags & (LQ_OPEN_NOCREATE | LQ_OPEN_READONLY)) {
		if (e == ENOENT || e == ENOTDIR) {
			lq__err_set(err, "no such database file");
			return LQ_ENODB;
		}
		lq__err_set(err, "cannot open %s: %s", file, strerror(e));
		return LQ_ECONN;
	}
	int fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
	} else if (errno != EEXIST) {
		lq__err_set(err, "cannot create %s: %s", file, strerror(errno));
		return LQ_ECREATE;
	}
	return LQ_OK;
}

/* A failure while opening or setting up: the file named, the status
 * map_rc gives (a file problem keeps its own; anything else means the
 * database cannot be used now). */
static lq_status setup_error(sqlite3 *db, int rc, const char *file, lq_err *err)
{
	char dir[1024];
	if (rc == SQLITE_READONLY_DIRECTORY || rc == SQLITE_READONLY_CANTINIT) {
		dir_of(file, dir, sizeof(dir));
		lq__err_set(err, "permission denied (cannot create files in %s: SQLite keeps the database's "
				 "-wal and -shm files there)",
			    dir);
		return LQ_EPERM;
	}
	if ((rc & 0xff) == SQLITE_NOTADB) {
		lq__err_set(err, "not a database file (SQLite: %s)", db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		return LQ_ENOTDB;
	}
	lq_status st = map_rc(db, rc, err, "open");
	return st == LQ__RETRY || st == LQ_ERROR ? LQ_ECONN : st;
}

static void setup_conn(struct lq_conn *c)
{
	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_handler(c->db, busy_wait, c);
}

static lq_status open_readwrite(struct lq_conn *c, const char *file, const char *sync, lq_err *err)
{
	int rc = sqlite3_open_v2(file, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return setup_error(c->db, rc, file, err);
	setup_conn(c);
	char pragma[64];
	snprintf(pragma, sizeof(pragma), "PRAGMA synchronous=%s", sync);
	if ((rc = exec_busy(c->db, "PRAGMA journal_mode=WAL")) != SQLITE_OK ||
	    (rc = exec_busy(c->db, pragma)) != SQLITE_OK)
		return setup_error(c->db, rc, file, err);
	return LQ_OK;
}

/* Read the schema: the first read is where SQLite finds that a WAL
 * database's -shm file cannot be made, or that this is no database. */
static int probe(sqlite3 *db)
{
	return exec_busy(db, "SELECT count(*) FROM sqlite_master");
}

/*
 * Read-only: no journal mode change (that writes).  A WAL database needs
 * its -shm file.  When it is absent (nobody has the database open) and the
 * directory is not writable, SQLite can read the file only as "immutable",
 * which is what that state is until a writer comes.  A user who may not
 * write the database goes that way even when it could create the file:
 * the -wal and -shm files it left (its own, read-only for the owner) would
 * stop the owner's writes.
 */
static lq_status open_readonly(struct lq_conn *c, const char *file, lq_err *err)
{
	int rc = SQLITE_CANTOPEN;
	char *shm = malloc(strlen(file) + 5);
	if (!shm)
		return LQ_ENOMEM;
	sprintf(shm, "%s-shm", file);
	int as_is = faccessat(AT_FDCWD, file, W_OK, AT_EACCESS) != 0 && access(shm, F_OK) != 0;
	free(shm);
	if (!as_is) {
		rc = sqlite3_open_v2(file, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
		if (rc == SQLITE_OK) {
			setup_conn(c);
			rc = probe(c->db);
		}
	}
	if (rc == SQLITE_READONLY_DIRECTORY || rc == SQLITE_READONLY_CANTINIT || (rc & 0xff) == SQLITE_CANTOPEN) {
		/* file:PATH?immutable=1, the path percent-encoded for the URI. */
		static const char keep[] = "/._-~";
		size_t n = strlen(file);
		char *uri = malloc(3 * n + 32);
		if (!uri)
			return LQ_ENOMEM;
		char *p = uri + sprintf(uri, "file:");
		for (const unsigned char *q = (const unsigned char *)file; *q; q++) {
			if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
			    strchr(keep, *q))
				*p++ = (char)*q;
			else
				p += sprintf(p, "%%%02X", *q);
		}
		strcpy(p, "?immutable=1");
		sqlite3_close_v2(c->db);
		c->db = NULL;
		rc = sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
				     NULL);
		free(uri);
		if (rc == SQLITE_OK) {
			setup_conn(c);
			rc = probe(c->db);
		}
	}
	return rc == SQLITE_OK ? LQ_OK : setup_error(c->db, rc, file, err);
}

static lq_status sqlite_connect(const char *dsn, unsigned flags, struct lq_conn **out, lq_err *err)
{
	*out = NULL;
	const char *path = dsn + strlen("sqlite:");
	size_t plen = strcspn(path, "?");
	const char *query = path[plen] == '?' ? path + plen + 1 : "";
	if (plen == 0) {
		lq__err_set(err, "sqlite DSN has no file path (use sqlite:PATH)");
		return LQ_EINVAL;
	}
	char *file = strndup(path, plen);
	if (!file)
		return LQ_ENOMEM;
	/* Each process would get its own private database. */
	if (strcmp(file, ":memory:") == 0 || strncmp(file, "file:", 5) == 0 ||
	    strstr(file, "mode=memory")) {
		lq__err_set(err, "sqlite:%s is refused: an in-memory or URI database is not shared "
				 "between processes; give a file path",
			    file);
		free(file);
		return LQ_EINVAL;
	}
	char sync[16] = "full";
	if (*query && !lq__dsn_query_get(query, "synchronous", sync, sizeof(sync))) {
		lq__err_set(err, "sqlite DSN option \"%s\" is unknown (known: synchronous=full|normal)", query);
		free(file);
		return LQ_EINVAL;
	}
	if (strcmp(sync, "full") != 0 && strcmp(sync, "normal") != 0) {
		lq__err_set(err, "sqlite DSN: synchronous=%s is not full or normal", sync);
		free(file);
		return LQ_EINVAL;
	}
	lq_status st = check_file(file, flags, err);
	if (st != LQ_OK) {
		free(file);
		return st;
	}
	struct lq_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		free(file);
		return LQ_ENOMEM;
	}
	st = (flags & LQ_OPEN_READONLY) ? open_readonly(c, file, err) : open_readwrite(c, file, sync, err);
	free(file);
	if (st != LQ_OK) {
		sqlite_disconnect(c);
		return st;
	}
	*out = c;
	return LQ_OK;
}

static lq_status bind_all(struct lq_conn *c, sqlite3_stmt *s, const lq_value *p, int n, lq_err *err)
{
	for (int i = 0; i < n; i++) {
		int rc;
		switch (p[i].type) {
		case LQ_V_INT:
			rc = sqlite3_bind_int64(s, i + 1, p[i].i);
			break;
		case LQ_V_TEXT:
			rc = sqlite3_bind_text64(s, i + 1, p[i].s, p[i].len, SQLITE_STATIC, SQLITE_UTF8);
			break;
		case LQ_V_BLOB:
			/* An empty payload is an empty blob, not NULL. */
			rc = p[i].len ? sqlite3_bind_blob64(s, i + 1, p[i].s, p[i].len, SQLITE_STATIC)
				      : sqlite3_bind_zeroblob(s, i + 1, 0);
			break;
		default:
			rc = sqlite3_bind_null(s, i + 1);
			break;
		}
		if (rc != SQLITE_OK)
			return map_rc(c->db, rc, err, "bind");
	}
	return LQ_OK;
}

static lq_status sqlite_exec(struct lq_conn *c, lq_sql_id id, const lq_value *params, int nparams,
			     lq_row_fn fn, void *ctx, int64_t *affected, lq_err *err)
{
	extern const char *const lq__sql_sqlite[LQ_SQL__COUNT];
	sqlite3_stmt *s = c->stmt[id];
	int rc;
	if (!s) {
		rc = sqlite3_prepare_v3(c->db, lq__sql_sqlite[id], -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);
		if (rc != SQLITE_OK)
			return map_rc(c->db, rc, err, "prepare");
		c->stmt[id] = s;
	}
	lq_status st = bind_all(c, s, params, nparams, err);
	if (st != LQ_OK) {
		sqlite3_clear_bindings(s);
		return st;
	}
	int stop = 0;
	lq_value cols[32];
	int rows = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		rows = 1;
		if (stop || !fn)
			continue;
		int n = sqlite3_column_count(s);
		if (n > 32)
			n = 32;
		for (int i = 0; i < n; i++) {
			switch (sqlite3_column_type(s, i)) {
			case SQLITE_INTEGER:
			case SQLITE_FLOAT:
				cols[i] = lq_v_int(sqlite3_column_int64(s, i));
				break;
			case SQLITE_TEXT:
				cols[i].type = LQ_V_TEXT;
				cols[i].s = (const char *)sqlite3_column_text(s, i);
				cols[i].len = (size_t)sqlite3_column_bytes(s, i);
				cols[i].i = 0;
				break;
			case SQLITE_BLOB:
				cols[i].type = LQ_V_BLOB;
				cols[i].s = sqlite3_column_blob(s, i);
				cols[i].len = (size_t)sqlite3_column_bytes(s, i);
				cols[i].i = 0;
				if (!cols[i].s)
					cols[i].s = "";
				break;
			default:
				cols[i] = lq_v_null();
				break;
			}
		}
		stop = fn(ctx, cols, n);
	}
	if (rc != SQLITE_DONE) {
		st = map_rc(c->db, rc, err, NULL);
		/* A write's RETURNING rows come after its changes: once one was
		 * handed over, a retry would hand it over twice. */
		if (st == LQ__RETRY && rows)
			st = LQ_ERROR;
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		return st;
	}
	if (affected)
		*affected = sqlite3_changes64(c->db);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return LQ_OK;
}

static lq_status sqlite_exec_script(struct lq_conn *c, const char *sql, lq_err *err)
{
	char *msg = NULL;
	int rc = sqlite3_exec(c->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		lq_status st = map_rc(c->db, rc, err, NULL);
		sqlite3_free(msg);
		return st;
	}
	return LQ_OK;
}

static lq_status simple(struct lq_conn *c, const char *sql, int which, lq_err *err)
{
	sqlite3_stmt **s = &c->tx[which];
	int rc = SQLITE_OK;
	if (!*s)
		rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, s, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(*s);
		sqlite3_reset(*s);
	}
	return rc == SQLITE_OK || rc == SQLITE_DONE ? LQ_OK : map_rc(c->db, rc, err, sql);
}

static lq_status sqlite_begin(struct lq_conn *c, int write, lq_err *err)
{
	return write ? simple(c, "BEGIN IMMEDIATE", TX_BEGIN_IMMEDIATE, err) : simple(c, "BEGIN", TX_BEGIN, err);
}

static lq_status sqlite_commit(struct lq_conn *c, lq_err *err)
{
	return simple(c, "COMMIT", TX_COMMIT, err);
}

static lq_status sqlite_rollback(struct lq_conn *c, lq_err *err)
{
	if (sqlite3_get_autocommit(c->db))
		return LQ_OK; /* already rolled back by SQLite itself */
	return simple(c, "ROLLBACK", TX_ROLLBACK, err);
}

/* Borrowed: the application's handle, its busy timeout and pragmas as
 * the application set them. */
static lq_status sqlite_adopt(void *native, struct lq_conn **out, lq_err *err)
{
	struct lq_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	c->db = native;
	*out = c;
	return LQ_OK;
}

static int sqlite_app_tx(struct lq_conn *c)
{
	return !sqlite3_get_autocommit(c->db);
}

static int64_t sqlite_last_insert_id(struct lq_conn *c)
{
	return sqlite3_last_insert_rowid(c->db);
}

const struct lq_backend lq__backend_sqlite = {
	.version = LQ_BACKEND_VERSION,
	.name = "sqlite",
	.caps = LQ_CAP_ONE_STATEMENT_ADD | LQ_CAP_CLAIM_RETURNING | LQ_CAP_CLAIM_SHORT | LQ_CAP_CLAIM_SET,
	.sql = lq__sql_sqlite,
	.migrations = lq__migrations_sqlite,
	.n_migrations = &lq__migrations_sqlite_count,
	.connect = sqlite_connect,
	.disconnect = sqlite_disconnect,
	.exec = sqlite_exec,
	.exec_script = sqlite_exec_script,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.set_stop = sqlite_set_stop,
	.adopt = sqlite_adopt,
	.release = sqlite_release,
	.app_tx = sqlite_app_tx,
	.last_insert_id = sqlite_last_insert_id,
};
