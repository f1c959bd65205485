/*
 * db.c - open/close, the backend registry, error text, statement dispatch,
 * borrowed connections, transactions with bounded retries and reconnects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define LQ_DEFAULT_DSN "sqlite:leaseq.db"
#define LQ_TX_TRIES 10
/* Conflict retries stop after this long, however few they were: each may
 * have waited for a lock up to its own timeout. */
#define LQ_RETRY_BUDGET_MS LQ_STATEMENT_TIMEOUT_MS

/* The dialects built in, chosen by DSN scheme. */
static const struct {
	const char *prefix;
	const struct lq_backend *be;
	const char *missing; /* why it is not here, when not built */
} registry[] = {
	{"sqlite:", &lq__backend_sqlite, NULL},
#ifdef LEASEQ_HAVE_POSTGRES
	{"postgresql://", &lq__backend_postgres, NULL},
	{"postgres://", &lq__backend_postgres, NULL},
#else
	{"postgresql://", NULL, "this leaseq was built without PostgreSQL support"},
	{"postgres://", NULL, "this leaseq was built without PostgreSQL support"},
#endif
#ifdef LEASEQ_HAVE_MYSQL
	{"mysql://", &lq__backend_mysql, NULL},
	{"mariadb://", &lq__backend_mysql, NULL},
#else
	{"mysql://", NULL, "this leaseq was built without MySQL/MariaDB support"},
	{"mariadb://", NULL, "this leaseq was built without MySQL/MariaDB support"},
#endif
};

LQ_EXTERN(int) lq_backend_built(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i].be && registry[i].be->name && !strcmp(registry[i].be->name, name))
			return 1;
	return 0;
}

lq_status lq__fail(lq_db *db, lq_status st, const char *fmt, ...)
{
	/* Formatted aside first, so that db->errmsg may be one of the
	 * arguments (the message that led to this one). */
	char msg[sizeof(db->errmsg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(db->errmsg, msg, sizeof(msg));
	for (char *p = db->errmsg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return st;
}

void lq__ok(lq_db *db)
{
	db->errmsg[0] = '\0';
}

LQ_EXTERN(const char *) lq_errmsg(const lq_db *db)
{
	if (!db)
		return "out of memory";
	return db->errmsg;
}

LQ_EXTERN(const char *) lq_backend_name(const lq_db *db)
{
	return db && db->be ? db->be->name : "none";
}

/* A backend must fill in every required operation. */
static int backend_ok(const struct lq_backend *be)
{
	return be->version == LQ_BACKEND_VERSION && be->sql && be->connect && be->disconnect &&
	       be->exec && be->exec_script && be->begin && be->commit && be->rollback &&
	       (!(be->caps & LQ_CAP_NOTIFY) || (be->notify && be->wait_notify));
}

/* A handle with its DSN and random seed, not yet bound to a backend. */
static lq_status db_new(const char *dsn, lq_db **out)
{
	*out = NULL;
	lq_db *db = calloc(1, sizeof(*db));
	if (!db)
		return LQ_ENOMEM;
	*out = db;
	db->dsn = strdup(dsn);
	if (!db->dsn)
		return lq__fail(db, LQ_ENOMEM, "out of memory");
	lq_dsn_redact(dsn, db->dsn_redacted, sizeof(db->dsn_redacted));
	uint64_t seed = 0;
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid() << 40;
	}
	db->rng = seed | 1;
	return LQ_OK;
}

int lq__abi_ok(int abi)
{
	return abi >= 1 && abi <= LQ_ABI_VERSION;
}

/* A program built against a newer leaseq.h than this library would read
 * and write its structures past their end here: refused. */
static lq_status abi_check(lq_db *db, int abi)
{
	db->abi = abi;
	if (lq__abi_ok(abi))
		return LQ_OK;
	return lq__fail(db, LQ_EINVAL,
			"this program was built against leaseq.h with structure layout %d; this library "
			"(libleaseq %s) serves layouts 1 to %d: install a newer libleaseq",
			abi, LEASEQ_VERSION_STRING, LQ_ABI_VERSION);
}

LQ_EXTERN(lq_status) lq_open_ex_abi(const char *dsn, unsigned flags, lq_db **out, int abi)
{
	if (!dsn || !*dsn)
		dsn = LQ_DEFAULT_DSN;
	lq_status st = db_new(dsn, out);
	if (st != LQ_OK)
		return st;
	lq_db *db = *out;
	if ((st = abi_check(db, abi)) != LQ_OK)
		return st;
	if (flags & ~(LQ_OPEN_NOCREATE | LQ_OPEN_READONLY))
		return lq__fail(db, LQ_EINVAL, "lq_open_ex: unknown flags 0x%x", flags);
	/* Read-only never creates: an empty file would be all it could make. */
	db->open_flags = flags & LQ_OPEN_READONLY ? flags | LQ_OPEN_NOCREATE : flags;
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++) {
		if (strncmp(dsn, registry[i].prefix, strlen(registry[i].prefix)) != 0)
			continue;
		if (!registry[i].be)
			return lq__fail(db, LQ_EINVAL, "DSN %s: %s", db->dsn_redacted, registry[i].missing);
		if (!backend_ok(registry[i].be))
			return lq__fail(db, LQ_ERROR, "backend %s is incomplete", registry[i].be->name);
		db->be = registry[i].be;
		break;
	}
	if (!db->be) {
		size_t n = strcspn(dsn, ":");
		return lq__fail(db, LQ_EINVAL,
				"DSN \"%.*s…\": unknown scheme (expected sqlite:PATH, postgresql://, "
				"mysql:// or mariadb://)",
				(int)(n < 32 ? n : 32), dsn);
	}
	return lq__connect(db);
}

lq_status lq__open_backend(const char *dsn, const struct lq_backend *be, lq_db **out)
{
	lq_status st = db_new(dsn, out);
	if (st != LQ_OK)
		return st;
	if (!backend_ok(be))
		return lq__fail(*out, LQ_ERROR, "backend %s is incomplete", be->name ? be->name : "?");
	(*out)->be = be;
	(*out)->abi = LQ_ABI_VERSION; /* the library's own callers (tests) */
	return lq__connect(*out);
}

LQ_EXTERN(lq_status) lq_open_borrowed_abi(lq_conn_kind kind, void *conn, lq_db **out, int abi)
{
	static const char *const names[] = {"", "sqlite", "postgres", "mysql"};
	const char *name = kind >= LQ_CONN_SQLITE && kind <= LQ_CONN_MYSQL ? names[kind] : "?";
	char label[64];
	/* Stands in for the DSN in messages: we never learn the real one. */
	snprintf(label, sizeof(label), "borrowed %s connection", name);
	lq_status st = db_new(label, out);
	if (st != LQ_OK)
		return st;
	lq_db *db = *out;
	if ((st = abi_check(db, abi)) != LQ_OK)
		return st;
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i].be && strcmp(registry[i].be->name, name) == 0)
			db->be = registry[i].be;
	if (!db->be)
		return lq__fail(db, LQ_EINVAL, "lq_open_borrowed: kind %d is not a backend this leaseq was built with",
				(int)kind);
	if (!conn)
		return lq__fail(db, LQ_EINVAL, "lq_open_borrowed: no %s connection given", name);
	if (!db->be->adopt || !db->be->release || !db->be->app_tx)
		return lq__fail(db, LQ_EINVAL, "backend %s cannot borrow a connection", name);
	db->err.msg[0] = '\0';
	st = db->be->adopt(conn, &db->conn, &db->err);
	if (st != LQ_OK) {
		db->conn = NULL;
		return lq__fail(db, st, "%s: %s", label, db->err.msg);
	}
	db->borrowed = 1;
	if (db->be->set_stop)
		db->be->set_stop(db->conn, &db->halt);
	return LQ_OK;
}

LQ_EXTERN(void) lq_close(lq_db *db)
{
	if (!db)
		return;
	if (db->before_close)
		db->before_close(db);
	if (db->conn && db->borrowed)
		db->be->release(db->conn); /* the connection stays the application's */
	else if (db->conn)
		db->be->disconnect(db->conn);
	if (db->dsn) {
		/* The DSN may hold a password: don't leave it in freed memory. */
		explicit_bzero(db->dsn, strlen(db->dsn));
		free(db->dsn);
	}
	free(db);
}

/* --------------------------------------------------- borrowed connections */

/* A handle on the application's own connection (lq_open_borrowed) may run
 * only reads and the enqueue inside the application's open transaction: a
 * claim, ack or lease change left uncommitted in someone else's transaction
 * would hold row locks for as long as the application likes and vanish
 * with its rollback. */

/* The statements of lq_task_add and of the read-only calls. */
static int joins_app_tx(lq_sql_id id)
{
	switch (id) {
	case LQ_SQL_task_insert:
	case LQ_SQL_task_insert_notify:
	case LQ_SQL_task_insert_many:
	case LQ_SQL_task_insert_many_notify:
	case LQ_SQL_task_insert_many_same:
	case LQ_SQL_task_insert_many_same_notify:
	case LQ_SQL_task_insert_many_keyless:
	case LQ_SQL_task_find_unique:
	case LQ_SQL_db_now:
	case LQ_SQL_schema_exists:
	case LQ_SQL_schema_version:
	case LQ_SQL_task_get:
	case LQ_SQL_task_list:
	case LQ_SQL_task_list_dead:
	case LQ_SQL_lease_get:
	case LQ_SQL_lease_list:
	case LQ_SQL_queue_list:
	case LQ_SQL_queue_next_due:
		return 1;
	default:
		return 0;
	}
}

int lq__app_tx(lq_db *db)
{
	/* Our own transaction on a borrowed connection is not the app's. */
	if (!db->borrowed || !db->conn || (db->in_tx && !db->joined))
		return 0;
	return db->be->app_tx && db->be->app_tx(db->conn);
}

lq_status lq__borrow_check(lq_db *db, const char *what, lq_sql_id id)
{
	if (!lq__app_tx(db) || ((int)id < LQ_SQL__COUNT && joins_app_tx(id)))
		return LQ_OK;
	/* An add's own rows, inserted by this transaction and seen by no one
	 * else: writing them holds no lock anyone could wait on. */
	if (db->adding && id == LQ_SQL_task_steer_set)
		return LQ_OK;
	return lq__fail(db, LQ_ETXOPEN,
			"%s: not allowed inside the application's open transaction on a borrowed "
			"connection (only enqueues and reads join it): commit or roll back first; "
			"nothing was changed",
			what);
}

LQ_EXTERN(int) lq_db_borrowed(const lq_db *db)
{
	return db ? db->borrowed : 0;
}

/* Statuses after which the connection is not reused: lost, or a wait was
 * cancelled (what the server still does with it is not ours to wait for). */
static int conn_spent(lq_status st)
{
	return st == LQ_ECONN || st == LQ_EUNKNOWN || st == LQ_ETIMEDOUT;
}

/* Whether another try of a conflicting statement or transaction is worth
 * it: not past the retry budget, and not once a stop was requested and the
 * last try had to wait (a lock held elsewhere, not a quick conflict). */
static int may_retry(lq_db *db, int attempt, int64_t first_ms, int64_t try_ms)
{
	int64_t now = lq__mono_ms();
	if (attempt >= LQ_TX_TRIES || now - first_ms >= LQ_RETRY_BUDGET_MS)
		return 0;
	return !(db->halt && now - try_ms >= LQ_STOP_GRACE_MS);
}

/* Hand the backend's remark, if any, to the application's notice function. */
static void pass_notice(lq_db *db)
{
	const char *text;

	/* Without a function yet, the remark waits (lq_open connects first). */
	if (!db->notice_fn || !db->conn || !db->be->notice || !(text = db->be->notice(db->conn)))
		return;
	/* Once per handle, not once per connection: a reconnect says it again. */
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	for (size_t i = 0; i < db->n_noticed; i++)
		if (db->noticed[i] == h)
			return;
	if (db->n_noticed < sizeof(db->noticed) / sizeof(db->noticed[0]))
		db->noticed[db->n_noticed++] = h;
	db->notice_fn(db->notice_ctx, text);
}

LQ_EXTERN(void) lq_set_notice_fn(lq_db *db, lq_notice_fn fn, void *ctx)
{
	if (!db)
		return;
	db->notice_fn = fn;
	db->notice_ctx = ctx;
}

static void drop_conn(lq_db *db)
{
	/* A borrowed connection is the application's to reset or replace. */
	if (db->borrowed) {
		db->schema_ok = 0;
		db->in_tx = 0;
		return;
	}
	if (db->conn)
		db->be->disconnect(db->conn);
	db->conn = NULL;
	db->schema_ok = 0;
	db->in_tx = 0;
}

lq_status lq__connect(lq_db *db)
{
	if (!db->be)
		return lq__fail(db, LQ_EINVAL, "no database backend");
	if (db->conn)
		return LQ_OK;
	if (db->borrowed)
		return lq__fail(db, LQ_ECONN, "the borrowed connection was released");
	db->err.msg[0] = '\0';
	lq_status st = db->be->connect(db->dsn, db->open_flags, &db->conn, &db->err);
	if (st != LQ_OK) {
		db->conn = NULL;
		if (st == LQ_ENODB || st == LQ_ECREATE || st == LQ_EPERM || st == LQ_ENOTDB)
			/* The backend's text says what is wrong with which file. */
			return lq__fail(db, st, "%s: %s", db->dsn_redacted, db->err.msg);
		return lq__fail(db, st, "cannot open %s: %s", db->dsn_redacted, db->err.msg);
	}
	if (db->be->set_stop)
		db->be->set_stop(db->conn, &db->halt);
	pass_notice(db);
	return LQ_OK;
}

void lq__set_runner_stop(lq_db *db, const volatile sig_atomic_t *flag)
{
	db->runner_stop = flag;
	db->halt = db->cancel || (flag && *flag);
}

LQ_EXTERN(void) lq_cancel(lq_db *db)
{
	if (!db)
		return;
	db->cancel = 1;
	db->halt = 1;
}

LQ_EXTERN(void) lq_cancel_clear(lq_db *db)
{
	if (!db)
		return;
	db->cancel = 0;
	db->halt = db->runner_stop && *db->runner_stop;
}

int lq__pause(lq_db *db, int64_t ms)
{
	int64_t until = lq__mono_ms() + ms;
	for (int64_t left = ms; left > 0 && !db->cancel; left = until - lq__mono_ms())
		lq__sleep_ms(left < 50 ? left : 50);
	return db->cancel != 0;
}

/* A conflict (deadlock, SQLITE_BUSY) inside the application's transaction:
 * it aborted that transaction or is part of it, so only the application
 * can retry. */
static lq_status app_tx_conflict(lq_db *db, const char *what, const char *detail)
{
	return lq__fail(db, LQ_ERROR, "%s: conflict inside the application's transaction: roll it back "
			"and retry it (%s)", what, detail);
}

lq_status lq__exec(lq_db *db, const char *what, lq_sql_id id, const lq_value *params, int n,
		   lq_row_fn fn, void *ctx, int64_t *affected)
{
	lq_status st = lq__connect(db);
	if (st != LQ_OK)
		return st;
	if (!db->be->sql[id])
		return lq__fail(db, LQ_ERROR, "%s: statement %s is missing for %s", what,
				lq__sql_name(id), db->be->name);
	if ((st = lq__borrow_check(db, what, id)) != LQ_OK)
		return st;
	int app_tx = lq__app_tx(db);
	int attempt = 1;
	for (int64_t first = lq__mono_ms(), try_ms = first;; attempt++, try_ms = lq__mono_ms()) {
		if (affected)
			*affected = 0;
		db->err.msg[0] = '\0';
		db->err.sent = 0; /* backends that do not track it leave it so */
		db->err.extra_trips = 0;
		st = db->be->exec(db->conn, id, params, n, fn, ctx, affected, &db->err);
		db->statements += 1 + db->err.extra_trips;
		/* Inside a transaction the whole transaction retries (lq__tx);
		 * a lone statement retries here. */
		if (st != LQ__RETRY || db->in_tx || app_tx || !may_retry(db, attempt, first, try_ms))
			break;
		lq__sleep_ms(lq__backoff_ms(db, attempt, 5, 200));
	}
	pass_notice(db);
	if (st == LQ_OK)
		return LQ_OK;
	if (st == LQ__RETRY && app_tx && !db->in_tx)
		return app_tx_conflict(db, what, db->err.msg);
	if (st == LQ__RETRY)
		return db->in_tx ? st
				 : lq__fail(db, LQ_ERROR, "%s: gave up after %d conflicting attempts: %s", what,
					    attempt, db->err.msg);
	if (conn_spent(st))
		drop_conn(db);
	return lq__fail(db, st, "%s: %s", what, db->err.msg[0] ? db->err.msg : lq_status_str(st));
}

lq_status lq__exec_once(lq_db *db, const char *what, lq_sql_id id, const lq_value *params, int n,
			lq_row_fn fn, void *ctx, int64_t *affected)
{
	lq_status st = lq__exec(db, what, id, params, n, fn, ctx, affected);
	if (st != LQ_ECONN || !db->err.sent)
		return st;
	char lost[sizeof(db->err.msg)];
	snprintf(lost, sizeof(lost), "%s", db->err.msg);
	return lq__fail(db, LQ_EUNKNOWN, "%s: connection lost after the statement was sent, outcome unknown (%s)",
			what, lost);
}

lq_status lq__exec_script(lq_db *db, const char *what, const char *sql)
{
	lq_status st = lq__connect(db);
	if (st != LQ_OK)
		return st;
	if ((st = lq__borrow_check(db, what, LQ_SQL__COUNT)) != LQ_OK)
		return st;
	db->err.msg[0] = '\0';
	db->err.extra_trips = 0;
	st = db->be->exec_script(db->conn, sql, &db->err);
	db->statements += 1 + db->err.extra_trips;
	if (st == LQ_OK)
		return LQ_OK;
	if (conn_spent(st))
		drop_conn(db);
	return lq__fail(db, st, "%s: %s", what, db->err.msg[0] ? db->err.msg : lq_status_str(st));
}

static lq_status tx_call(lq_db *db, lq_status (*op)(struct lq_conn *, lq_err *), const char *what,
			 const char *verb)
{
	db->err.msg[0] = '\0';
	db->err.extra_trips = 0;
	lq_status st = op(db->conn, &db->err);
	db->statements += 1 + db->err.extra_trips;
	if (st == LQ_OK)
		return LQ_OK;
	if (conn_spent(st))
		drop_conn(db);
	return lq__fail(db, st, "%s: %s failed: %s", what, verb,
			db->err.msg[0] ? db->err.msg : lq_status_str(st));
}

static lq_status tx_begin(struct lq_conn *c, lq_err *err, const struct lq_backend *be, int write)
{
	return be->begin(c, write, err);
}

/* lq__tx inside the application's transaction: no BEGIN, COMMIT, ROLLBACK
 * or retry (the outcome is the application's), and each statement of body
 * is checked by lq__borrow_check. */
static lq_status tx_joined(lq_db *db, const char *what, lq_tx_body body, void *ctx)
{
	db->in_tx = 1;
	db->joined = 1;
	lq_status st = body(db, ctx);
	db->in_tx = 0;
	db->joined = 0;
	if (st == LQ__RETRY) {
		return app_tx_conflict(db, what, db->errmsg[0] ? db->errmsg : db->err.msg);
	}
	return st;
}

lq_status lq__tx(lq_db *db, int write, const char *what, lq_tx_body body, void *ctx)
{
	lq_status st = LQ_ERROR;
	db->conflicted = 0;
	if (db->borrowed && lq__connect(db) == LQ_OK && lq__app_tx(db))
		return tx_joined(db, what, body, ctx);
	int attempt = 1;
	for (int64_t first = lq__mono_ms(), try_ms = first;; attempt++, try_ms = lq__mono_ms()) {
		st = lq__connect(db);
		if (st != LQ_OK)
			return st;
		db->err.msg[0] = '\0';
		db->err.extra_trips = 0;
		st = tx_begin(db->conn, &db->err, db->be, write);
		db->statements += 1 + db->err.extra_trips;
		if (st != LQ_OK) {
			if (conn_spent(st))
				drop_conn(db);
			if (st == LQ__RETRY) {
				if (!may_retry(db, attempt, first, try_ms))
					break;
				lq__sleep_ms(lq__backoff_ms(db, attempt, 5, 200));
				continue;
			}
			return lq__fail(db, st == LQ_EUNKNOWN ? LQ_ECONN : st, "%s: BEGIN failed: %s", what,
					db->err.msg);
		}
		db->in_tx = 1;
		st = body(db, ctx);
		if (st == LQ_OK) {
			st = tx_call(db, db->be->commit, what, "COMMIT");
			/* A COMMIT that met a conflict may leave the transaction
			 * open (SQLite keeps it after SQLITE_BUSY): end it before
			 * the next BEGIN. */
			if (st == LQ__RETRY && db->conn) {
				db->statements++;
				(void)db->be->rollback(db->conn, &db->err);
			}
			db->in_tx = 0;
			if (st != LQ__RETRY)
				return st;
		} else {
			char saved[sizeof(db->errmsg)];
			memcpy(saved, db->errmsg, sizeof(saved));
			if (db->conn)
				(void)tx_call(db, db->be->rollback, what, "ROLLBACK");
			memcpy(db->errmsg, saved, sizeof(saved));
			db->in_tx = 0;
			if (st != LQ__RETRY)
				return st;
		}
		/* Deadlock, serialization failure, lock wait or SQLITE_BUSY. */
		if (!may_retry(db, attempt, first, try_ms))
			break;
		lq__sleep_ms(lq__backoff_ms(db, attempt, 5, 200));
	}
	db->conflicted = 1;
	return lq__fail(db, LQ_ERROR, "%s: gave up after %d conflicting attempts (%s)", what, attempt,
			db->errmsg[0] ? db->errmsg : db->err.msg);
}

/* ----------------------------------------------------------- schema check */

int lq__row_int(void *ctx, const lq_value *cols, int ncols)
{
	if (ncols > 0)
		*(int64_t *)ctx = lq__col_int(&cols[0]);
	return 0;
}

int lq__row_int2(void *ctx, const lq_value *cols, int ncols)
{
	int64_t *out = ctx;
	for (int i = 0; i < ncols && i < 2; i++)
		out[i] = lq__col_int(&cols[i]);
	return 0;
}

lq_status lq__schema_version(lq_db *db, int *version)
{
	int64_t exists = 0, v = 0;
	char what[600];
	snprintf(what, sizeof(what), "schema check of %s", db->dsn_redacted);
	lq_status st = lq__exec(db, what, LQ_SQL_schema_exists, NULL, 0, lq__row_int, &exists, NULL);
	if (st != LQ_OK)
		return st;
	if (exists) {
		st = lq__exec(db, what, LQ_SQL_schema_version, NULL, 0, lq__row_int, &v, NULL);
		if (st != LQ_OK)
			return st;
	}
	*version = (int)v;
	return LQ_OK;
}

int lq__latest_version(const lq_db *db)
{
	int latest = 0;
	for (size_t i = 0; i < *db->be->n_migrations; i++)
		if (db->be->migrations[i].version > latest)
			latest = db->be->migrations[i].version;
	return latest;
}

lq_status lq__ready_queue(lq_db *db, const char *queue)
{
	lq_status st;
	if (queue && (st = lq__check_name(db, "queue name", queue)) != LQ_OK)
		return st;
	return lq__ready(db);
}

lq_status lq__ready(lq_db *db)
{
	lq_status st = lq__connect(db);
	if (st != LQ_OK || db->schema_ok)
		return st;
	int v = 0, latest = lq__latest_version(db);
	st = lq__schema_version(db, &v);
	if (st != LQ_OK)
		return st;
	if (v == 0)
		return lq__fail(db, LQ_ESCHEMA, "database %s has no leaseq schema: run `leasectl migrate`",
				db->dsn_redacted);
	if (v > latest)
		return lq__fail(db, LQ_ESCHEMA,
				"database %s has schema version %d, newer than this leaseq knows (%d): "
				"upgrade leaseq; nothing was written",
				db->dsn_redacted, v, latest);
	if (v < latest)
		return lq__fail(db, LQ_ESCHEMA,
				"database %s has schema version %d, this leaseq needs %d: run `leasectl migrate`",
				db->dsn_redacted, v, latest);
	db->schema_ok = 1;
	return LQ_OK;
}

LQ_EXTERN(int64_t) lq_db_statements(const lq_db *db)
{
	return db ? db->statements : 0;
}

LQ_EXTERN(lq_status) lq_now(lq_db *db, int64_t *now_ms)
{
	lq__ok(db);
	*now_ms = 0;
	return lq__exec(db, "database clock", LQ_SQL_db_now, NULL, 0, lq__row_int, now_ms, NULL);
}

/* ---------------------------------------------------------- notifications */

void lq__notify(lq_db *db, const char *channel)
{
	if (!(db->be->caps & LQ_CAP_NOTIFY) || !db->conn)
		return;
	lq_err err;
	db->statements++;
	/* Best effort: a missed wake-up only costs the waiter a poll interval. */
	if (db->be->notify(db->conn, channel, &err) == LQ_ECONN)
		drop_conn(db);
}

int lq__wait(lq_db *db, const char *channel, int64_t ms)
{
	int64_t until = lq__mono_ms() + ms;
	/* In slices, so that lq_cancel ends the wait soon. */
	while (ms > 0 && !db->cancel && (db->be->caps & LQ_CAP_NOTIFY) && lq__connect(db) == LQ_OK) {
		lq_err err;
		lq_status st = db->be->wait_notify(db->conn, channel, ms < LQ_BACKEND_SLICE_MS ? ms : LQ_BACKEND_SLICE_MS,
						   &err);
		pass_notice(db);
		if (st == LQ_OK)
			return 1;
		if (st == LQ_ECONN)
			drop_conn(db);
		if (st != LQ_ETIMEDOUT)
			break;
		ms = until - lq__mono_ms();
	}
	lq__pause(db, until - lq__mono_ms());
	return 0;
}
