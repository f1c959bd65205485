/*
 * backend.h - the dialect interface.  Concept files (lease.c, task.c, ...)
 * talk to a database only through struct lq_backend and the named statements
 * of sql_names.h; a backend file talks only to its client library.
 */
#ifndef LEASEQ_BACKEND_H
#define LEASEQ_BACKEND_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "leaseq.h"
#include "sql_names.h"

#define LQ_BACKEND_VERSION 1

/* Capability bits the core tests. */
#define LQ_CAP_SKIP_LOCKED (1u << 0) /* task_candidates locks rows with SKIP LOCKED */
#define LQ_CAP_NOTIFY (1u << 1)      /* wait_notify / notify work */
/* task_claim_batch_* claim in one statement; exec sets lq_err.sent so a lost
 * connection after sending reads as an unknown outcome. */
#define LQ_CAP_CLAIM_RETURNING (1u << 2)
/* task_insert_notify enqueues in one statement (same rule for lq_err.sent). */
#define LQ_CAP_ONE_STATEMENT_ADD (1u << 3)
/* task_claim_delete_set / task_claim_update_set claim the candidates a
 * transaction read and locked in one statement per LQ_CLAIM_SET_MAX ids. */
#define LQ_CAP_CLAIM_SET (1u << 4)
/* task_ack_run acks and writes the run history in one round trip. */
#define LQ_CAP_ONE_STATEMENT_ACK (1u << 5)
/* run_insert and run_insert_many do not count the runs: run_count and
 * run_count_many, next in the same transaction, do (MySQL: a statement
 * writes one table, and a trigger would need SUPER on a server with binary
 * logging). */
#define LQ_CAP_RUN_COUNT_APART (1u << 6)
/* task_ack_claim_one_update acks a task (task_ack_run) and claims the next
 * (task_claim_one_update) in one statement; exec sets lq_err.sent. */
#define LQ_CAP_ONE_STATEMENT_ACK_CLAIM (1u << 7)
/* With LQ_CAP_CLAIM_RETURNING: task_claim_batch_* return only the rows they
 * claimed, never the candidates they left (SQLite's RETURNING reports
 * changed rows only), so a short batch goes on to the transactional path. */
#define LQ_CAP_CLAIM_SHORT (1u << 8)
/* task_insert and task_insert_notify write a partitioned task's rows of
 * lq_partition themselves (partition_touch's): its add needs no statement
 * of its own for them, and may be the one-statement add. */
#define LQ_CAP_ADD_TOUCHES_PART (1u << 10)

typedef enum lq_vtype { LQ_V_NULL = 0, LQ_V_INT, LQ_V_TEXT, LQ_V_BLOB } lq_vtype;

/* A bound parameter or a result column.  s/len are borrowed: for results
 * they stay valid only during the row callback.  TEXT and BLOB columns that
 * the backend reads as text are NUL-terminated at s[len]. */
typedef struct lq_value {
	lq_vtype type;
	int64_t i;
	const char *s;
	size_t len;
} lq_value;

static inline lq_value lq_v_null(void) { lq_value v = {LQ_V_NULL, 0, NULL, 0}; return v; }
static inline lq_value lq_v_int(int64_t i) { lq_value v = {LQ_V_INT, i, NULL, 0}; return v; }
lq_value lq__v_text(const char *s); /* NULL s gives NULL */
static inline lq_value lq_v_blob(const void *p, size_t n) { lq_value v = {LQ_V_BLOB, 0, (const char *)p, n}; return v; }

/* Row callback: return 0 to go on, non-zero to stop reading (not an error). */
typedef int (*lq_row_fn)(void *ctx, const lq_value *cols, int ncols);

/* Backend results.  LQ_OK, LQ_ECONN (connection lost: the core reconnects
 * on the next call), LQ_EUNKNOWN (lost during COMMIT), LQ_ERROR, LQ_ENOMEM,
 * and LQ__RETRY: a deadlock, serialization failure, lock-wait timeout or
 * SQLITE_BUSY after which the core rolls back and retries the transaction. */
#define LQ__RETRY ((lq_status)100)

/* Per-connection error text written by backends (no passwords). */
typedef struct lq_err {
	char msg[768];
	int sent; /* exec: the statement left for the server (a CLAIM_RETURNING
	           * backend finds an idle connection's death before sending) */
	int extra_trips; /* round trips a call made besides the one statement
	                  * lq_db_statements counts for it: +1 for a session
	                  * change sent first, -1 for a BEGIN that needed no
	                  * round trip (MariaDB with autocommit off already);
	                  * the core zeroes it before each call */
} lq_err;

struct lq_conn; /* backend-private connection */

/* Bounded waits.  A backend never waits for the server longer than the
 * statement deadline (DSN option statement_timeout, default below) and, once
 * a stop was requested (*stop non-zero), not longer than LQ_STOP_GRACE_MS
 * more: then it cancels the statement.  A cancelled statement is
 * LQ_ETIMEDOUT; a cancelled COMMIT (or a lone statement that commits by
 * itself) whose result is not known to be durable is LQ_EUNKNOWN. */
#define LQ_STATEMENT_TIMEOUT_MS 30000
#define LQ_STOP_GRACE_MS 2000
#define LQ_BACKEND_SLICE_MS 100 /* how often a waiting backend looks at *stop */

/* One statement's wait: call lq__wait_init when it is sent, lq__wait_check
 * every slice.  lq__wait_check returns 0 (go on waiting), LQ__WAIT_DEADLINE
 * or LQ__WAIT_STOP (cancel now; it says so once). */
typedef struct lq_wait_state {
	int64_t start_ms, deadline_ms, stop_seen_ms;
	const volatile sig_atomic_t *stop;
} lq_wait_state;
#define LQ__WAIT_DEADLINE 1
#define LQ__WAIT_STOP 2
void lq__wait_init(lq_wait_state *w, int64_t deadline_ms, const volatile sig_atomic_t *stop);
int lq__wait_check(lq_wait_state *w);
/* "timed out after 30 s" / "interrupted by a stop request" for messages. */
const char *lq__wait_why(int why, const lq_wait_state *w, char *buf, size_t size);
int64_t lq__mono_ms(void);

struct lq_backend {
	unsigned version;        /* LQ_BACKEND_VERSION */
	const char *name;        /* "sqlite", "postgres", "mysql" */
	unsigned caps;           /* LQ_CAP_* */
	const char *const *sql;  /* [LQ_SQL__COUNT], from sql/<dialect>/ */
	const struct lq_migration *migrations; /* from migrations/<dialect>/, in order */
	const size_t *n_migrations; /* points at the generated count */

	/* Required.  dsn is the whole DSN string as the user gave it; flags
	 * are lq_open_ex's LQ_OPEN_* (a server backend may ignore them).  On
	 * failure returns LQ_EINVAL (bad DSN) or LQ_ECONN, or for a local file
	 * LQ_ENODB, LQ_ECREATE, LQ_EPERM or LQ_ENOTDB; message in err. */
	lq_status (*connect)(const char *dsn, unsigned flags, struct lq_conn **out, lq_err *err);
	void (*disconnect)(struct lq_conn *c);
	/* Run named statement id with params (placeholders numbered ?1.. /
	 * $1.. in the SQL text, params[0] is number 1).  Rows go to fn (may be
	 * NULL), *affected (may be NULL) gets the affected-row count, counting
	 * matched rows on MySQL (CLIENT_FOUND_ROWS).  Prepared statements are
	 * cached per connection. */
	lq_status (*exec)(struct lq_conn *c, lq_sql_id id, const lq_value *params, int nparams,
			  lq_row_fn fn, void *ctx, int64_t *affected, lq_err *err);
	/* Run a parameterless script of one or more statements (migrations). */
	lq_status (*exec_script)(struct lq_conn *c, const char *sql, lq_err *err);
	/* Transactions.  write != 0: a write transaction (SQLite BEGIN
	 * IMMEDIATE).  commit may return LQ_EUNKNOWN. */
	lq_status (*begin)(struct lq_conn *c, int write, lq_err *err);
	lq_status (*commit)(struct lq_conn *c, lq_err *err);
	lq_status (*rollback)(struct lq_conn *c, lq_err *err);
	/* Optional (LQ_CAP_NOTIFY).  notify: send on channel (inside or outside a
	 * transaction).  wait_notify: LISTEN on channel if not yet, then wait up
	 * to timeout_ms for a notification; LQ_OK woken, LQ_ETIMEDOUT not. */
	lq_status (*notify)(struct lq_conn *c, const char *channel, lq_err *err);
	lq_status (*wait_notify)(struct lq_conn *c, const char *channel, int64_t timeout_ms, lq_err *err);
	/* Optional.  The stop flag the backend's waits look at (NULL: none);
	 * the core sets it after every connect and when it changes. */
	void (*set_stop)(struct lq_conn *c, const volatile sig_atomic_t *stop);
	/* Optional: borrowed connections (lq_open_borrowed).  adopt wraps the
	 * application's native connection without taking it over and without
	 * changing its session; release frees the wrapper and what it
	 * prepared, leaving the connection open; app_tx is non-zero while a
	 * transaction is open on the connection (whoever began it). */
	lq_status (*adopt)(void *native, struct lq_conn **out, lq_err *err);
	void (*release)(struct lq_conn *c);
	int (*app_tx)(struct lq_conn *c);
	/* Optional.  A remark for the application's log that the backend has
	 * made since it was last asked ("behind a transaction pooler: ..."),
	 * each at most once per connection, or NULL.  Valid until the next
	 * call on c. */
	const char *(*notice)(struct lq_conn *c);
	/* Optional.  The id of the row this connection inserted last, read
	 * without a statement, where a multi-row INSERT gives its rows
	 * consecutive ids in their order (SQLite's rowid): with it the
	 * library adds a batch through task_insert_many_keyless, whose rows
	 * come back through no RETURNING. */
	int64_t (*last_insert_id)(struct lq_conn *c);
};

struct lq_migration {
	int version;
	const char *name; /* file name without .sql */
	const char *sql;
};

/* Embedded SQL, generated from sql/ and migrations/ at build time. */
extern const char *const lq__sql_sqlite[LQ_SQL__COUNT];
extern const char *const lq__sql_postgres[LQ_SQL__COUNT];
extern const char *const lq__sql_mysql[LQ_SQL__COUNT];
extern const struct lq_migration lq__migrations_sqlite[];
extern const size_t lq__migrations_sqlite_count;
extern const struct lq_migration lq__migrations_postgres[];
extern const size_t lq__migrations_postgres_count;
extern const struct lq_migration lq__migrations_mysql[];
extern const size_t lq__migrations_mysql_count;

extern const struct lq_backend lq__backend_sqlite;
#ifdef LEASEQ_HAVE_POSTGRES
extern const struct lq_backend lq__backend_postgres;
#endif
#ifdef LEASEQ_HAVE_MYSQL
extern const struct lq_backend lq__backend_mysql;
/* Statement id's text as the MySQL backend prepares it on a server with
 * or without FOR UPDATE SKIP LOCKED and INSERT ... RETURNING: malloc'd,
 * its length in *len; NULL when absent or out of memory (mysql.c). */
char *lq__mysql_statement_text(lq_sql_id id, int skip_locked, int returning, size_t *len);
#endif

/* Open a handle on a backend that is not in the registry (a wrapper such as
 * the tests' fault-injecting backend); dsn is handed to be->connect.  Same
 * contract as lq_open(). */
lq_status lq__open_backend(const char *dsn, const struct lq_backend *be, lq_db **out);

/* Parsed URL-style DSN (for mysql://; postgres hands the string to libpq). */
typedef struct lq_dsn_url {
	char scheme[16];
	char user[128];
	char password[256];
	char host[256];
	int port; /* 0 = default */
	char dbname[256];
	char query[512]; /* after '?', raw, "" if none */
} lq_dsn_url;
/* Parse scheme://[user[:password]@]host[:port][/db][?k=v&...], with %XX
 * decoding of user, password and dbname.  LQ_EINVAL with a message that
 * never contains the password. */
lq_status lq__dsn_parse_url(const char *dsn, lq_dsn_url *out, lq_err *err);
/* Look up key in a "k=v&k2=v2" query string (percent-decoded); 1 if found. */
int lq__dsn_query_get(const char *query, const char *key, char *val, size_t size);
/* Percent-decode src[0..n) into dst (NUL-terminated); 0 on success, -1 if
 * it does not fit, has a bad escape or decodes to a NUL byte. */
int lq__pct_decode(const char *src, size_t n, char *dst, size_t size);
/* lq_dsn_redact (leaseq.h): with the URL password and every password-like
 * query option (password, sslpassword, ...) shown as "***"; not a URL:
 * nothing from the first "password=" on. */

/* Portable snprintf into err. */
void lq__err_set(lq_err *err, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif /* LEASEQ_BACKEND_H */
