/*
 * leaseq.h - leases and a task queue kept inside SQLite, PostgreSQL or
 * MySQL/MariaDB.  This is the only public header: what is not declared here
 * is not part of the API.
 *
 * Threads: an lq_db is one database connection.  It may be used by one
 * thread at a time; different lq_db handles are independent.  There is no
 * global state, so no library-wide initialisation is needed.
 *
 * Errors: every call that can fail returns an lq_status, and each says which
 * ones.  LQ_BUSY, LQ_LOST, LQ_EMPTY and LQ_NOTFOUND are outcomes, not
 * errors ("held elsewhere", "no longer yours", "nothing due", "no such
 * thing"), and so is LQ_REVOKED (a claimed task was cancelled, see
 * lq_task_cancel): lq_status_is_error() tells them apart.  Any call may also return
 * LQ_ENOMEM, and any call on a handle LQ_ECONN (the server could not be
 * reached or the connection was lost before anything was applied; the next
 * call reconnects), LQ_ESCHEMA (no schema yet, or a newer one) and
 * LQ_ERROR (the database refused a statement); these are not repeated in
 * each call's comment.  One error channel: after a failure of a call on a
 * handle, lq_errmsg(db) explains it in one sentence that names the object
 * involved and the database's own error text (the string belongs to the
 * handle and stays valid until the next call on it); a call without a
 * handle that can fail for several reasons takes a buffer for that
 * sentence as its last two parameters (msg, msgsize; NULL, 0 for none).
 * The text never contains a password.
 *
 * Time: every expiry and due-time decision is made by the database, on its
 * clock, inside the statement that acts on it.  All times in this API are
 * milliseconds since the Unix epoch as seen by the database clock.
 *
 * Ownership: structures filled in by the library belong to the caller.
 * lq_task may own heap memory (payload, last_error): release it with
 * lq_task_clear().  Destructors accept NULL.
 */
#ifndef LEASEQ_H
#define LEASEQ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LEASEQ_BUILDING) && defined(__GNUC__)
#define LQ_EXTERN(type) __attribute__((visibility("default"))) type
#else
#define LQ_EXTERN(type) type
#endif

#define LEASEQ_VERSION_STRING "0.2.0"

/*
 * Compatibility (docs/api.md has the whole policy).  The shared library's
 * SONAME, libleaseq.so.1, changes only when a program built against an
 * earlier header with the same SONAME could break: a function removed or
 * its parameters changed, a field of a structure moved, a status or enum
 * value renumbered.  Adding functions, statuses and enum values, and
 * appending fields to structures, keep it (CI compares the ABI with the
 * last release's, abi/libleaseq.abi, and fails on an incompatible change
 * without a new SONAME).
 *
 * Structures the library fills for the caller (lq_lease, lq_task,
 * lq_running, lq_health, lq_run, lq_run_counts, lq_lease_counts,
 * lq_queue_info, lq_limit, lq_run_report, lq_progress, lq_schedule) grow
 * only by appending fields, and each growth raises LQ_ABI_VERSION.  The
 * library learns which layout the caller was built
 * with from the calls: lq_open and lq_open_borrowed record it in the handle,
 * and the few calls that take such a structure without a handle pass it
 * themselves.  Those calls are macros over the *_abi functions, so source
 * code calls them as plain functions; an FFI calls the *_abi function with
 * the LQ_ABI_VERSION whose layouts it declares.  A library serves every
 * layout from 1 to its own, and refuses a newer one with LQ_EINVAL (a
 * program built against a newer header than the library installed).
 * Option structures (lq_task_opts, lq_lease_opts, lq_run_filter,
 * lq_runner_opts) carry a version field that their *_INIT macro sets.
 */
#define LQ_ABI_VERSION 3 /* 2: lq_run_counts.cancelled, lq_task.concurrency_key;
                          * 3: lq_task.partition */

/* Status codes.  Append only: never renumber or remove one.
 * The local-file statuses (SQLite's database file; a server backend never
 * returns them), so that a tool can tell a mistake on disk from an outage:
 *   ENODB    the file does not exist and the handle may not create it
 *            (LQ_OPEN_NOCREATE, LQ_OPEN_READONLY)
 *   ECREATE  the file does not exist and cannot be created (no such
 *            directory, no permission to create there, a read-only file
 *            system)
 *   EPERM    the file exists but the caller may not read it, or may not
 *            write it (or beside it: SQLite's -wal and -shm files) for a call
 *            that writes; also a write on a LQ_OPEN_READONLY handle
 *   ENOTDB   the path is a directory or a file that is not an SQLite
 *            database */
#define LQ_STATUS_MAP(X)                                                     \
	X(OK, 0, "success")                                                  \
	X(BUSY, 1, "held elsewhere")                                         \
	X(LOST, 2, "lease or claim lost")                                    \
	X(EMPTY, 3, "nothing to do")                                         \
	X(NOTFOUND, 4, "not found")                                          \
	X(EINVAL, 5, "invalid argument")                                     \
	X(ESCHEMA, 6, "schema missing or newer than this library")          \
	X(ECONN, 7, "database unreachable or connection lost")               \
	X(EUNKNOWN, 8, "outcome unknown: connection lost during commit")    \
	X(ENOMEM, 9, "out of memory")                                        \
	X(ERROR, 10, "database error")                                       \
	X(ETIMEDOUT, 11, "timed out")                                        \
	X(ETXOPEN, 12, "not allowed inside the application's open transaction") \
	X(ENODB, 13, "no such database file")                                \
	X(ECREATE, 14, "database file cannot be created")                    \
	X(EPERM, 15, "permission denied")                                    \
	X(ENOTDB, 16, "not a database file")                                 \
	X(ECANCELED, 17, "cancelled")                                        \
	X(REVOKED, 18, "task cancelled: its claim was revoked")

typedef enum lq_status {
#define LQ__STATUS_ENUM(name, value, text) LQ_##name = value,
	LQ_STATUS_MAP(LQ__STATUS_ENUM)
#undef LQ__STATUS_ENUM
} lq_status;

/* Limits. */
#define LQ_NAME_MAX 255                 /* bytes, for lease, task, queue names and unique keys */
#define LQ_OWNER_MAX 255                /* bytes, including the random part */
#define LQ_PAYLOAD_MAX (8 * 1024 * 1024) /* bytes */
#define LQ_CRON_MAX 127
#define LQ_TZ_MAX 63
#define LQ_HANDLE_MAX 1600              /* encoded lease handle, with its NUL (worst case ~1560) */
#define LQ_TTL_MAX_MS (366LL * 24 * 3600 * 1000) /* a TTL over a year is refused as absurd */
#define LQ_DEFAULT_QUEUE "default"

typedef struct lq_db lq_db;

/* Fixed text for a status ("held elsewhere"); never NULL. */
LQ_EXTERN(const char *) lq_status_str(lq_status st);
/* 0 for LQ_OK and for the outcomes that are not errors (LQ_BUSY, LQ_LOST,
 * LQ_EMPTY, LQ_NOTFOUND, LQ_REVOKED), 1 for every other status. */
LQ_EXTERN(int) lq_status_is_error(lq_status st);
/* The last failure on this handle, or "" after a success. */
LQ_EXTERN(const char *) lq_errmsg(const lq_db *db);
/* The library's version, "0.2.0" (LEASEQ_VERSION_STRING of its build). */
LQ_EXTERN(const char *) lq_version(void);

/*
 * Open a connection.  dsn: "sqlite:PATH[?synchronous=full|normal]",
 * "postgresql://..." / "postgres://...", "mysql://user:pass@host:port/db" /
 * "mariadb://...".  NULL means "sqlite:leaseq.db".
 * On any status but LQ_ENOMEM *out is set to a handle that holds the error
 * text; the caller closes it with lq_close() whatever the status.  A handle
 * whose connection failed reconnects on its next call.
 * LQ_OK; LQ_EINVAL: a malformed DSN, a backend this build lacks, or a
 * program built against a newer leaseq.h (abi) than this library;
 * LQ_ECONN: the database could not be reached (the handle is still usable).
 */
/*
 * lq_open with flags (0: the same as lq_open).  They concern SQLite's file;
 * PostgreSQL and MySQL ignore them (the server's grants decide).
 *   LQ_OPEN_NOCREATE  a missing file is LQ_ENODB, not a new empty database
 *                     (lq_open creates one, mode 0600)
 *   LQ_OPEN_READONLY  only read (implies NOCREATE): the file is opened
 *                     read-only, so it works on a file, or in a directory,
 *                     the caller may not write; a call that writes gets
 *                     LQ_EPERM.  When SQLite cannot keep its -shm file beside
 *                     a WAL database (a read-only directory and no writer
 *                     open), the file is read as it stands (SQLite's
 *                     "immutable"): a writer that starts meanwhile is not
 *                     seen, so use it for short reads, not a long-lived handle.
 * Besides lq_open's statuses: LQ_ENODB, LQ_ECREATE, LQ_EPERM, LQ_ENOTDB for
 * SQLite's file, as the status list above says.
 */
#define LQ_OPEN_NOCREATE 1u
#define LQ_OPEN_READONLY 2u
LQ_EXTERN(lq_status) lq_open_ex_abi(const char *dsn, unsigned flags, lq_db **out, int abi);
#define lq_open_ex(dsn, flags, out) lq_open_ex_abi((dsn), (flags), (out), LQ_ABI_VERSION)
#define lq_open(dsn, out) lq_open_ex_abi((dsn), 0u, (out), LQ_ABI_VERSION)
/* Close: writes the run history rows the handle keeps back (lq_run_flush:
 * call it first to hear of a failure), then disconnects. */
LQ_EXTERN(void) lq_close(lq_db *db);
/* The backend name: "sqlite", "postgres" or "mysql". */
LQ_EXTERN(const char *) lq_backend_name(const lq_db *db);
/* 1 if this build of the library has the backend named ("sqlite",
 * "postgres" or "mysql"; PostgreSQL and MySQL are optional at build time),
 * else 0.  Opens nothing. */
LQ_EXTERN(int) lq_backend_built(const char *name);
/* How many statements this handle has sent to the server since lq_open:
 * every statement, BEGIN, COMMIT, ROLLBACK and NOTIFY a call sent, and a
 * session change it sent first (MariaDB's autocommit), retries included;
 * not a BEGIN that needed no round trip, nor the session setup a
 * (re)connect sends.  For measuring (leasectl bench); 0 for NULL. */
LQ_EXTERN(int64_t) lq_db_statements(const lq_db *db);
/* The database clock, epoch milliseconds.  LQ_OK. */
LQ_EXTERN(lq_status) lq_now(lq_db *db, int64_t *now_ms);
/*
 * Cancel what db is waiting for, from another thread or a signal handler
 * (async-signal-safe): a lease acquire's wait for the lease to free up, a
 * runner's idle wait, a statement still waiting for the server (after a
 * short grace, so that a COMMIT already sent is answered).  The call that
 * was waiting returns LQ_ECANCELED, or its own outcome when it finished
 * first; what it changed is as that status says (a cancelled acquire holds
 * nothing).  The request stays until lq_cancel_clear(db), so a cancel that
 * lands between two calls ends the next wait at once.
 */
LQ_EXTERN(void) lq_cancel(lq_db *db);
/* Forget a cancel request, before using the handle for new waits. */
LQ_EXTERN(void) lq_cancel_clear(lq_db *db);
/*
 * dsn as it may be printed: the password (in a URL's user:password@ or a
 * password=... option) replaced by "***"; truncated to fit.  Never fails;
 * buf is always NUL-terminated when size > 0.
 */
LQ_EXTERN(void) lq_dsn_redact(const char *dsn, char *buf, size_t size);
/*
 * Remarks worth a line in the application's log, each said once per
 * handle: e.g. that a transaction pooler sits in front of PostgreSQL,
 * so statements go unnamed and idle workers poll instead of waiting for
 * wake-ups.  fn is called from inside a call on db with a one-line text
 * that stays valid until it returns; NULL fn: remarks are dropped (the
 * default).
 */
typedef void (*lq_notice_fn)(void *ctx, const char *text);
LQ_EXTERN(void) lq_set_notice_fn(lq_db *db, lq_notice_fn fn, void *ctx);

/* ------------------------------------------------- borrowed connections */

/*
 * Open a handle on a connection the application already has, so that
 * lq_task_add can join the application's own transaction: the task then
 * exists if and only if the application's writes commit (an "outbox").
 * conn is a sqlite3 *, PGconn * or MYSQL * as kind says.
 *
 * Ownership: the application keeps its connection.  lq_close() frees only
 * what leaseq made (its prepared statements, the handle) and leaves the
 * connection open; the application closes it, after lq_close().  leaseq
 * never reconnects a borrowed connection and changes none of its session
 * settings: after the application resets or replaces it, open a new handle.
 * MySQL/MariaDB: the connection must have been made with CLIENT_FOUND_ROWS
 * (LQ_EINVAL otherwise).  PostgreSQL: leaseq prepares statements named
 * "lq<N>" on the connection.
 *
 * While a transaction is open on the connection (PQtransactionStatus,
 * sqlite3_get_autocommit, SERVER_STATUS_IN_TRANS), leaseq never sends
 * BEGIN, COMMIT or ROLLBACK: lq_task_add and lq_task_add_many run inside
 * that transaction and the read-only calls (lq_task_get, lq_task_list,
 * lq_lease_get, lq_lease_list, lq_queue_list, lq_queue_next_due, lq_now,
 * lq_schema_status) read through it.  Every other call (claims, ack/fail,
 * leases, runners, migrations, admin changes), and an add of a task with a
 * partition (its row in lq_partition is the claims'), returns LQ_ETXOPEN before
 * sending anything: nothing is changed and the application's transaction
 * is untouched.  A conflict inside the application's transaction (a
 * deadlock, SQLITE_BUSY) is not retried: LQ_ERROR, the application rolls
 * back and retries its transaction.  With no transaction open, a borrowed
 * handle behaves like any other (its own short transactions).
 * On any status but LQ_ENOMEM *out is set; close it with lq_close().
 * LQ_OK; LQ_EINVAL: no connection, a kind this build lacks, a MySQL
 * connection without CLIENT_FOUND_ROWS, or a newer abi than this library.
 */
typedef enum lq_conn_kind {
	LQ_CONN_SQLITE = 1,   /* sqlite3 * */
	LQ_CONN_POSTGRES = 2, /* PGconn * */
	LQ_CONN_MYSQL = 3     /* MYSQL * (MariaDB Connector/C or libmysqlclient) */
} lq_conn_kind;
LQ_EXTERN(lq_status) lq_open_borrowed_abi(lq_conn_kind kind, void *conn, lq_db **out, int abi);
#define lq_open_borrowed(kind, conn, out) lq_open_borrowed_abi((kind), (conn), (out), LQ_ABI_VERSION)
/* 1 when db was opened with lq_open_borrowed. */
LQ_EXTERN(int) lq_db_borrowed(const lq_db *db);

/* Typed shorthands, declared only when the client library's header was
 * included before this one (leaseq.h itself needs none of them). */
#ifdef SQLITE_VERSION
static inline lq_status lq_open_sqlite3(sqlite3 *conn, lq_db **out)
{
	return lq_open_borrowed(LQ_CONN_SQLITE, conn, out);
}
#endif
#ifdef LIBPQ_FE_H
static inline lq_status lq_open_pgconn(PGconn *conn, lq_db **out)
{
	return lq_open_borrowed(LQ_CONN_POSTGRES, conn, out);
}
#endif
#ifdef _mysql_h
static inline lq_status lq_open_mysql(MYSQL *conn, lq_db **out)
{
	return lq_open_borrowed(LQ_CONN_MYSQL, conn, out);
}
#endif

/* ---------------------------------------------------------------- schema */

/* Apply every migration this library knows and the database lacks, each in
 * its own transaction.  *from / *to (may be NULL) receive the versions.
 * LQ_OK; LQ_ESCHEMA: the database's schema is newer than this library. */
LQ_EXTERN(lq_status) lq_migrate(lq_db *db, int *from, int *to);
/* *current: applied version (0 = no schema); *latest: what this library
 * knows.  LQ_OK (a missing schema is not an error here). */
LQ_EXTERN(lq_status) lq_schema_status(lq_db *db, int *current, int *latest);

/* ---------------------------------------------------------------- leases */

typedef struct lq_lease {
	char name[LQ_NAME_MAX + 1];
	char owner[LQ_OWNER_MAX + 1]; /* "" when the lease is free */
	int64_t token;                /* fencing token, strictly increasing per name */
	int64_t acquired_at;
	int64_t expires_at;
	int64_t now; /* database clock when this was read */
	int kind;     /* lq_lease_kind */
	int slots;    /* LQ_LEASE_SLOT: the semaphore's N; else 0 */
	int64_t slot; /* LQ_LEASE_SLOT: 0..N-1; LQ_LEASE_READ: the reader's slot (>= 1) */
} lq_lease;

/* What a handle holds.  A name is either a semaphore of a fixed N (its
 * slots only), or an exclusive lease whose holder may also share it with
 * readers: the write lease of a read/write lease IS its exclusive lease.
 * Asking a name for the other kind, or a semaphore for another N, is
 * LQ_EINVAL and changes nothing. */
typedef enum lq_lease_kind {
	LQ_LEASE_EXCLUSIVE = 0, /* one holder (also: the write lease) */
	LQ_LEASE_SLOT = 1,      /* one of a semaphore's N slots, its own token */
	LQ_LEASE_READ = 2,      /* one of many readers; no writer meanwhile */
} lq_lease_kind;
#define LQ_SLOTS_MAX 1000 /* slots of one semaphore */

/*
 * Acquire NAME for ttl_ms.  owner: NULL for "host:pid"; a random part is
 * always appended so that nobody can guess an owner.  wait_ms > 0 polls with
 * back-off and jitter until the lease is free or the wait ends, and rides
 * out lost connections meanwhile (each attempt reconnects; one whose answer
 * was lost is resolved by re-reading the owner first).
 * LQ_OK: *out is the held lease.  LQ_BUSY: *out describes the holder.
 * LQ_EINVAL: a bad name, TTL or owner, or NAME is a semaphore.
 * LQ_ECANCELED: lq_cancel() ended the wait (nothing held).
 * LQ_ECONN / LQ_EUNKNOWN: the connection was lost and the wait (if any)
 * ended; LQ_EUNKNOWN: the last attempt's answer was lost and could not be
 * re-read (the lease may be ours until its TTL runs out).
 */
LQ_EXTERN(lq_status) lq_lease_acquire(lq_db *db, const char *name, int64_t ttl_ms,
				      const char *owner, int64_t wait_ms, lq_lease *out);

/* How lq_lease_take takes a name: designated initialisers on top of
 * LQ_LEASE_OPTS_INIT, e.g. {.version = LQ_LEASE_OPTS_VERSION, .slots = 3}. */
#define LQ_LEASE_OPTS_VERSION 1
typedef struct lq_lease_opts {
	unsigned version;   /* LQ_LEASE_OPTS_VERSION */
	lq_lease_kind kind; /* LQ_LEASE_EXCLUSIVE (default), LQ_LEASE_SLOT or LQ_LEASE_READ */
	int slots;          /* LQ_LEASE_SLOT: the semaphore's N, 1..LQ_SLOTS_MAX */
	const char *owner;  /* NULL: "host:pid"; a random part is always appended */
	int64_t wait_ms;    /* > 0: wait for it as lq_lease_acquire does */
} lq_lease_opts;
#define LQ_LEASE_OPTS_INIT {.version = LQ_LEASE_OPTS_VERSION}

/*
 * Take NAME for ttl_ms as opts says (NULL: an exclusive lease, no wait):
 * - LQ_LEASE_EXCLUSIVE: lq_lease_acquire.
 * - LQ_LEASE_SLOT: one of NAME's opts->slots slots, each with its own
 *   owner, expiry and fencing token (strictly increasing per slot).
 *   LQ_BUSY: all slots held, *out describes the one that frees first.
 *   LQ_EINVAL: NAME is not a semaphore of that many slots.
 * - LQ_LEASE_READ: share NAME with other readers.  LQ_BUSY while a writer
 *   (an exclusive lease of NAME) holds it, or while a writer waits for it (a
 *   waiting writer's intent keeps new readers out for a couple of seconds
 *   at a time, so readers cannot starve it).  Readers share the fencing
 *   token of their group.  LQ_EINVAL for a semaphore name.
 * Renew, release and check what it returns with lq_lease_renew / _release /
 * _check.  Statuses as lq_lease_acquire.
 */
LQ_EXTERN(lq_status) lq_lease_take(lq_db *db, const char *name, int64_t ttl_ms, const lq_lease_opts *opts,
				   lq_lease *out);
/* Extend a held lease to now + ttl_ms; updates l->expires_at.  LQ_OK;
 * LQ_LOST when it expired or was taken or broken: the holder must stop
 * acting; LQ_EINVAL: a bad TTL or handle; LQ_EUNKNOWN: the answer was lost
 * and could not be re-read. */
LQ_EXTERN(lq_status) lq_lease_renew(lq_db *db, lq_lease *l, int64_t ttl_ms);
/* Hand a lease back.  LQ_OK; LQ_LOST when someone else holds it now
 * (nothing changed); LQ_EINVAL: a bad handle; LQ_EUNKNOWN as renew. */
LQ_EXTERN(lq_status) lq_lease_release(lq_db *db, const lq_lease *l);
/* LQ_OK while l is the valid holder, LQ_LOST otherwise; LQ_EINVAL: a bad
 * handle. */
LQ_EXTERN(lq_status) lq_lease_check(lq_db *db, const lq_lease *l);
/* Admin: free NAME whoever holds it, bumping the token.  *prev (may be NULL)
 * receives the state before the break.  LQ_OK; LQ_NOTFOUND for an unknown
 * name; LQ_EINVAL: a bad name. */
LQ_EXTERN(lq_status) lq_lease_break(lq_db *db, const char *name, lq_lease *prev);
/* Current state of NAME (owner "" when free).  LQ_OK; LQ_NOTFOUND if never
 * acquired; LQ_EINVAL: a bad name. */
LQ_EXTERN(lq_status) lq_lease_get(lq_db *db, const char *name, lq_lease *out);
/* Call fn for every lease, by name, and for every holder of a shared lease
 * (one call per live slot or reader).  fn returns non-zero to stop.  LQ_OK
 * (also when fn stopped it). */
typedef int (*lq_lease_fn)(const lq_lease *l, void *ctx);
LQ_EXTERN(lq_status) lq_lease_list(lq_db *db, lq_lease_fn fn, void *ctx);
/* 1 when l is held at l->now, else 0. */
LQ_EXTERN(int) lq_lease_held_abi(const lq_lease *l, int abi);
#define lq_lease_held(l) lq_lease_held_abi((l), LQ_ABI_VERSION)

/* Read -> write, atomically, keeping the expiry; *l becomes the exclusive
 * lease with a higher token.  LQ_OK; LQ_BUSY: other readers hold it
 * (nothing changed); LQ_LOST: l is no longer a valid reader; LQ_EINVAL: l
 * is not a reader. */
LQ_EXTERN(lq_status) lq_lease_promote(lq_db *db, lq_lease *l);
/* Write -> read, atomically, keeping the expiry; *l becomes a reader with a
 * higher token, and other readers may join.  LQ_OK; LQ_LOST: l no longer
 * holds it; LQ_EINVAL: l is not an exclusive lease. */
LQ_EXTERN(lq_status) lq_lease_demote(lq_db *db, lq_lease *l);
/* Call fn for every holder of NAME (a semaphore's live slots, a read lease's
 * readers), or once with the free lease.  LQ_OK; LQ_NOTFOUND if never
 * acquired; LQ_EINVAL: a bad name. */
LQ_EXTERN(lq_status) lq_lease_holders(lq_db *db, const char *name, lq_lease_fn fn, void *ctx);

/* A handle as one shell-safe word ("lq1:TOKEN:NAME:OWNER", percent-encoded;
 * "lq2:s|r:SLOT:TOKEN:NAME:OWNER" for a semaphore slot or a reader), so
 * another process can renew or release the lease.  LQ_OK; LQ_EINVAL: buf
 * is too small (LQ_HANDLE_MAX always fits) or l is not a handle. */
LQ_EXTERN(lq_status) lq_lease_encode_abi(const lq_lease *l, char *buf, size_t size, int abi);
#define lq_lease_encode(l, buf, size) lq_lease_encode_abi((l), (buf), (size), LQ_ABI_VERSION)
/* The handle back from its word.  LQ_OK; LQ_EINVAL: not a handle (msg says
 * why). */
LQ_EXTERN(lq_status) lq_lease_decode_abi(const char *text, lq_lease *out, char *msg, size_t msgsize, int abi);
#define lq_lease_decode(text, out, msg, msgsize) lq_lease_decode_abi((text), (out), (msg), (msgsize), LQ_ABI_VERSION)

/* ----------------------------------------------------------------- tasks */

typedef enum lq_missed { LQ_MISSED_ONCE = 0, LQ_MISSED_SKIP = 1 } lq_missed;

/* What an occurrence of a recurring task does when it is due while the
 * previous one still runs.  The previous one's claim is in the row: DEFAULT
 * and SKIP wait for it and drop the occurrences that came due meanwhile;
 * QUEUE runs the first of them right after it (then the catch-up bound
 * applies); CANCEL_PREVIOUS revokes the running one's claim at its next
 * heartbeat (LQ_REVOKED, its ack is refused, the run is recorded
 * "cancelled") and runs the new one.  A named policy (not DEFAULT) has its
 * occurrences claimed with a claim in every mode (lq_task.mode says
 * LQ_AT_LEAST_ONCE); under DEFAULT an at-most-once claim moves the row on
 * and nothing in it says that a run is still going: occurrences may overlap. */
typedef enum lq_overlap {
	LQ_OVERLAP_DEFAULT = 0,
	LQ_OVERLAP_SKIP = 1,
	LQ_OVERLAP_QUEUE = 2,
	LQ_OVERLAP_CANCEL_PREVIOUS = 3
} lq_overlap;
#define LQ_CATCH_UP_MAX 100 /* catch_up: at most this many missed occurrences */

/* Options of a new task: designated initialisers on top of
 * LQ_TASK_OPTS_INIT, e.g. {.version = LQ_TASK_OPTS_VERSION, .delay_ms = 5000}. */
#define LQ_TASK_OPTS_VERSION 2
typedef struct lq_task_opts {
	unsigned version;         /* LQ_TASK_OPTS_VERSION */
	const char *queue;        /* NULL: "default" */
	const void *payload;      /* may be NULL; binary-safe */
	size_t payload_len;
	int64_t delay_ms;         /* run at now + delay (ignored when run_at set) */
	int64_t run_at;           /* absolute epoch ms; 0 = not set */
	const char *unique_key;   /* NULL: not unique */
	int max_attempts;         /* 0: default (3) */
	int64_t every_ms;         /* recurring at a fixed interval (>= 10 ms); 0 = not */
	const char *cron;         /* recurring on a 5-field cron expression; NULL = not */
	const char *tz;           /* IANA zone for cron; NULL = UTC */
	lq_missed missed;         /* what a recurring task does after downtime */
	int priority;             /* higher is claimed first; default 0; any int.
	                           * Claims take priority, then run_at, then id.
	                           * A recurring task keeps it for every occurrence. */
	int64_t timeout_ms;       /* how long a handler may run (0: the worker's
	                           * default); leasectl's worker stops it past that */
	/* Version 2: steering a recurring task (read only when version >= 2;
	 * each needs every_ms or cron). */
	lq_overlap overlap;       /* see lq_overlap; default LQ_OVERLAP_DEFAULT */
	int catch_up;             /* after downtime run at most this many missed
	                           * occurrences, 1 to LQ_CATCH_UP_MAX; 0: as missed
	                           * says (once = 1, skip = 0) */
	int64_t alert_after_ms;   /* dead-man bound: lq_schedule says overdue when
	                           * the last success (or the creation) is older */
	/* Version 2: flow control (read only when version >= 2). */
	const char *concurrency_key; /* NULL: none.  Tasks sharing a key share its
	                              * limit (lq_limit_set); not "queue:..." */
	/* Version 2: fair share across partitions (tenants). */
	const char *partition;    /* NULL or "": none.  When several partitions of
	                           * a queue have due tasks of the top priority,
	                           * claims take them round-robin: each handle
	                           * goes round them in name order from the one
	                           * it served last (its first claim: the least
	                           * recently served); the tasks without a
	                           * partition are one partition of their own
	                           * there.  A name like a queue's. */
} lq_task_opts;
#define LQ_TASK_OPTS_INIT {.version = LQ_TASK_OPTS_VERSION}

#define LQ_DEFAULT_MAX_ATTEMPTS 3
/* The ranges lq_task_add accepts (outside them: LQ_EINVAL). */
#define LQ_MAX_ATTEMPTS_MAX 1000                      /* max_attempts: 1 to this (0: the default) */
#define LQ_DELAY_MAX_MS (100LL * 365 * 24 * 3600 * 1000) /* delay_ms: 0 to about 100 years */
#define LQ_EVERY_MIN_MS 10                            /* every_ms: from 10 ms ... */
#define LQ_EVERY_MAX_MS (LQ_TTL_MAX_MS * 10)          /* ... to ten years */

/* How a claim delivers.  LQ_AT_MOST_ONCE_CANCELLABLE is a claim mode only
 * (lq_task_claim, lq_task_ack_claim, lq_runner_opts.mode): at-most-once,
 * and each one-off task it claims stays cancellable while it runs
 * (lq_task_cancel), at the price of one more row written in the claim's
 * transaction.  Its tasks say LQ_AT_MOST_ONCE in lq_task.mode, with a
 * claim_owner and claim_until that lq_task_heartbeat keeps ahead. */
typedef enum lq_mode {
	LQ_AT_MOST_ONCE = 0,
	LQ_AT_LEAST_ONCE = 1,
	LQ_AT_MOST_ONCE_CANCELLABLE = 2
} lq_mode;

typedef struct lq_task {
	int64_t id;
	char queue[LQ_NAME_MAX + 1];
	char name[LQ_NAME_MAX + 1];
	unsigned char *payload; /* owned; NUL-terminated for convenience; NULL if empty */
	size_t payload_len;
	int64_t run_at;         /* due time (of this occurrence, for a claimed task) */
	int attempts;
	int max_attempts;
	char unique_key[LQ_NAME_MAX + 1]; /* "" if none */
	char claim_owner[LQ_OWNER_MAX + 1]; /* "" if unclaimed */
	int64_t claim_until;    /* 0 if unclaimed; after a claim, a conservative
	                         * estimate (never later than the stored value) */
	int64_t every_ms;       /* 0 if not interval-recurring */
	char cron[LQ_CRON_MAX + 1];
	char tz[LQ_TZ_MAX + 1];
	lq_missed missed;
	int paused;
	char *last_error;       /* owned; NULL if none */
	int64_t created_at;
	int dead;               /* 1: out of attempts, kept in lq_task_dead */
	int64_t died_at;
	int64_t now;            /* database clock when read */
	/* Set by a claim: */
	lq_mode mode;
	int recurring;          /* claimed one occurrence of a recurring task */
	int64_t next_run_at;    /* recurring: the next occurrence scheduled */
	int priority;           /* see lq_task_opts */
	int64_t timeout_ms;     /* 0: none of its own (the worker's default) */
	/* ABI 2: flow control (written only for callers built with abi >= 2). */
	char concurrency_key[LQ_NAME_MAX + 1]; /* "" if none */
	/* ABI 3 (written only for callers built with abi >= 3). */
	char partition[LQ_NAME_MAX + 1]; /* "" if none (lq_task_opts.partition) */
} lq_task;

/* Free what t owns and zero it.  Accepts NULL. */
LQ_EXTERN(void) lq_task_clear_abi(lq_task *t, int abi);
#define lq_task_clear(t) lq_task_clear_abi((t), LQ_ABI_VERSION)

/* Enqueue.  *id (may be NULL) receives the new id, or with a unique_key that
 * a live task already has, that task's id; *existed (may be NULL) says which.
 * LQ_OK (also for an existing unique task); LQ_EINVAL: bad input (a name,
 * queue, payload size, schedule, option out of range), nothing sent;
 * LQ_EUNKNOWN: the answer to the INSERT was lost (the task may exist). */
LQ_EXTERN(lq_status) lq_task_add(lq_db *db, const char *name, const lq_task_opts *opts,
				 int64_t *id, int *existed);

/*
 * Enqueue n tasks in one transaction: all of them or none.  Task i is
 * names[i] with opts[i] (opts, or opts[i], NULL: defaults).  They go to the
 * database 100 to a statement (one round trip each) and get ascending ids
 * in the order given, with their concurrency keys and partitions.  Up to
 * 100 tasks without unique keys, steering or partitions are that one
 * statement alone, with no transaction around it (on PostgreSQL with the
 * workers' wake-up).  Unique keys mean what they mean to lq_task_add: a
 * task whose key a live task holds is not added, ids[i] is the holder's id
 * and existed[i] is 1; a key repeated inside the batch goes to the first
 * task that has it, and the later ones get that task's id with existed[i]
 * = 1.  ids and existed (may be NULL) have n places.
 * LQ_OK; LQ_EINVAL: task *invalid (may be NULL) is bad input (lq_errmsg
 * says why); nothing was sent.  LQ_ETXOPEN: inside the application's open
 * transaction on a borrowed connection (lq_open_borrowed), task *invalid
 * has a partition; nothing was sent.  Any other failure rolls the whole batch
 * back; LQ_EUNKNOWN: the answer to the COMMIT (or to the one statement)
 * was lost (all or none were added).
 */
LQ_EXTERN(lq_status) lq_task_add_many(lq_db *db, size_t n, const char *const *names,
				      const lq_task_opts *const *opts, int64_t *ids, int *existed,
				      size_t *invalid);

/*
 * Claim up to n (at most 1000) due tasks of queue (NULL: "default") in one
 * transaction, highest priority first, then in (run_at, id) order; on PostgreSQL, one statement (one round
 * trip) claims the one-off tasks.  at-most-once: each one-off task is deleted
 * as it is claimed, so a crash loses that run.  at-least-once: each is marked
 * with a claim that lasts claim_ttl_ms; finish it with lq_task_ack() or
 * lq_task_fail(), extend it with lq_task_heartbeat().  A recurring task is
 * claimed one occurrence at a time.  at-most-once cancellable: as
 * at-most-once, and in the same transaction each one-off task's run is
 * recorded as running, under a claim owner and until now + claim_ttl_ms
 * (t->claim_owner, t->claim_until), so that lq_task_cancel can stop it;
 * keep it with lq_task_heartbeat (a run not renewed by claim_until can no
 * longer be cancelled; it never runs again either way), end it with
 * lq_task_ack (or fail, release, snooze).  A claim on a task under a
 * concurrency cap is at-least-once whatever the mode; a recurring task's
 * occurrence is claimed at-most-once (its schedule can be cancelled, not
 * the occurrence).  at-most-once: the claim moves run_at to
 * the next occurrence, so a crash or a failure loses that occurrence (a
 * failure is kept in last_error).  at-least-once: the occurrence is claimed
 * like a one-off task (owner, lease, attempts; run_at stays its due time):
 * a crash or a failure runs it again after a back-off, until max_attempts,
 * after which that occurrence is given up (last_error says why); lq_task_ack
 * moves run_at on.  The task itself never dies of its failures.
 * tasks[0..*claimed) are filled; release each with lq_task_clear().
 * LQ_EMPTY when nothing is due; LQ_BUSY when every due candidate was taken
 * by another claimer first (another runner is active); LQ_EUNKNOWN when the
 * COMMIT (or PostgreSQL's single statement) was sent but its answer was lost
 * and the outcome could not be re-read (run nothing); LQ_EINVAL: a bad
 * queue name, n over 1000 or a bad claim TTL.
 */
LQ_EXTERN(lq_status) lq_task_claim(lq_db *db, const char *queue, lq_mode mode,
				   int64_t claim_ttl_ms, lq_task *tasks, size_t n,
				   size_t *claimed);
/* The claimed task succeeded.  LQ_OK; LQ_LOST when an at-least-once claim
 * was lost before it was settled (it expired and was taken, or the task was
 * removed; the task may run again elsewhere), whatever state the task was
 * left in; LQ_REVOKED when lq_task_cancel revoked the claim (nothing
 * changed: the cancel recorded the run, the task never runs again);
 * LQ_EUNKNOWN: the answer was lost and whether the claim was
 * settled could not be read.  Ack, fail, release and heartbeat ride out one
 * lost connection: they reconnect and, where the lost attempt may have been
 * applied, look before answering (ack and fail for their run's history row,
 * which commits with them; release at the task).  At-most-once, the status may be that of writing the run
 * history rows the handle kept back (see lq_run_flush): the task itself was
 * settled by its claim. */
LQ_EXTERN(lq_status) lq_task_ack(lq_db *db, const lq_task *t);
/*
 * An at-least-once worker's one round trip per task: ack done (claimed
 * before; NULL: nothing to ack) and claim up to n tasks of queue, as
 * lq_task_ack(done) then lq_task_claim(...) would, in one statement on
 * PostgreSQL (n == 1; the ack alone after it when another transaction
 * holds done's row, rather than the claim waiting for it) and one
 * transaction on SQLite and MySQL/MariaDB.
 * The ack is conditional on done's claim, as lq_task_ack's; its history
 * row and count commit with it; the claim happens whether or not the ack
 * found its claim.  (done itself is never claimed again by this call,
 * even if its claim expired meanwhile.)  An occurrence of a recurring
 * task, an at-most-once task, mode at-most-once, n > 1 on PostgreSQL, or
 * a queue with partitions (the claim takes its turn among them, as
 * lq_task_claim's): the two calls one after the other.  Release tasks[0..*claimed) with
 * lq_task_clear(); done stays the caller's to clear.
 * *done_st (may be NULL) receives the ack's status, as lq_task_ack
 * returns it: LQ_OK; LQ_LOST: done's claim was lost (the task may run
 * again elsewhere), or LQ_REVOKED: lq_task_cancel cancelled done meanwhile,
 * the claim went ahead all the same; any other status
 * (a bad argument, the ack's answer lost and not re-read): nothing was
 * claimed and the call returns that status too.
 * Returns the claim's status, as lq_task_claim: LQ_OK with tasks, LQ_EMPTY,
 * LQ_BUSY, LQ_EINVAL, ...  A connection lost in the middle is ridden out
 * as lq_task_ack does (the ack is sent again, or looked up by its history
 * row); a claim made by the lost statement and never answered expires and
 * runs again, and a new claim is made.  lq_errmsg explains the returned
 * status, or the ack's when the claim returned LQ_OK and the ack did not.
 */
LQ_EXTERN(lq_status) lq_task_ack_claim(lq_db *db, const lq_task *done, lq_status *done_st, const char *queue,
				       lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks, size_t n,
				       size_t *claimed);
/* Ack n (at most 1000) claimed tasks: the at-least-once one-off ones
 * together (each one's ack and history row; on PostgreSQL one statement per
 * 100 tasks, elsewhere one transaction), the others one by one with
 * lq_task_ack.  statuses (may be NULL) has n places: task i's status, as
 * lq_task_ack's.  Returns LQ_OK when every one was acked; else the first
 * status that is not LQ_LOST, else LQ_LOST (lq_errmsg says which task).
 * Lost connections are ridden out per task as lq_task_ack does. */
LQ_EXTERN(lq_status) lq_task_ack_many(lq_db *db, const lq_task *tasks, size_t n, lq_status *statuses);
/* The claimed task failed with error (one line).  It is retried after an
 * exponential back-off with jitter, or moved to the dead tasks when out of
 * attempts.  A recurring task records the error and keeps its schedule (an
 * at-least-once occurrence is retried first, see lq_task_claim).
 * At-most-once: if a newer task took the task's unique key meanwhile, the
 * task is moved to the dead tasks with that reason (also by
 * lq_task_release) instead of going back in.  Statuses as lq_task_ack. */
LQ_EXTERN(lq_status) lq_task_fail(lq_db *db, const lq_task *t, const char *error);
/* Hand a claimed task back unrun (a worker stopping): it is due again at
 * once and the attempt does not count.  at-least-once: the claim is cleared
 * (LQ_LOST if it was taken meanwhile); at-most-once: the task goes back in
 * under its id; recurring: nothing to do (this occurrence is skipped, the
 * next one comes as scheduled).  Statuses as lq_task_ack. */
LQ_EXTERN(lq_status) lq_task_release(lq_db *db, const lq_task *t);
/* Extend an at-least-once claim to now + claim_ttl_ms on the database clock
 * (t->claim_until is not updated).  LQ_OK; LQ_LOST when it expired or was
 * taken; LQ_REVOKED when the task was cancelled (lq_task_cancel, or a
 * schedule's overlap cancel-previous when the next occurrence came due): stop;
 * LQ_EINVAL: t is not an at-least-once claim or a bad TTL.  At-most-once:
 * LQ_OK, nothing to keep, unless claimed LQ_AT_MOST_ONCE_CANCELLABLE: its
 * running mark is extended the same way; LQ_REVOKED: it was cancelled,
 * stop; LQ_LOST: the mark lapsed (not renewed in time), the run can no
 * longer be cancelled (it may go on: nobody else runs the task). */
LQ_EXTERN(lq_status) lq_task_heartbeat(lq_db *db, lq_task *t, int64_t claim_ttl_ms);

/*
 * Cancel task id: it leaves the queue at once and its run history gets one
 * row with outcome "cancelled" (worker: the process that cancelled it;
 * error: the reason, or "cancelled").  In one transaction, so exactly one
 * of a racing cancel and ack (or claim) wins.
 * - Not running (waiting, delayed, paused, backing off, or a claim that
 *   has expired): it never starts.  The run row has attempt 0 when it
 *   never ran.  A recurring task is cancelled as a whole (its schedule
 *   ends); to skip occurrences, pause it instead.
 * - Running under a live at-least-once claim: the claim is revoked.  The
 *   worker's next lq_task_heartbeat (lq_job_heartbeat) returns LQ_REVOKED:
 *   stop the work.  Its lq_task_ack, lq_task_fail and lq_task_release
 *   return LQ_REVOKED and change nothing, so a handler that finishes
 *   anyway is not acknowledged and the task never runs again.  The revoked
 *   claim is remembered until the claim would have expired; after that the
 *   worker hears LQ_LOST, as for any claim it failed to keep.
 * - Running at-most-once, claimed LQ_AT_MOST_ONCE_CANCELLABLE (leasectl's
 *   worker and tick do): the run is revoked as above (*was_running = 1);
 *   the worker's heartbeat, ack, fail and release say LQ_REVOKED and
 *   record nothing, so the history has the one "cancelled" run.
 * - Running at-most-once, claimed plainly LQ_AT_MOST_ONCE: the claim
 *   already deleted the task, so there is nothing left in the database to
 *   revoke: LQ_NOTFOUND, the run goes on (a recurring task's schedule is
 *   still cancelled, not that occurrence).
 * reason: NULL or a line of at most LQ_NAME_MAX bytes of UTF-8, kept in
 * the history.  *was_running (may be NULL): 1 when a live claim was
 * revoked.  LQ_OK; LQ_NOTFOUND: no live task with that id (finished,
 * dead, unknown, or running plainly at-most-once); LQ_EINVAL: a bad id or
 * reason.
 */
LQ_EXTERN(lq_status) lq_task_cancel(lq_db *db, int64_t id, const char *reason, int *was_running);

/* A run of an at-most-once task claimed LQ_AT_MOST_ONCE_CANCELLABLE: the
 * claim deleted the task row, so lq_task_get and lq_task_list do not see
 * it; its mark (kept by the worker's heartbeats until the run ends) is what
 * is read here.  A new structure: it grows by raising LQ_ABI_VERSION like
 * the others. */
typedef struct lq_running {
	int64_t task_id;
	char queue[LQ_NAME_MAX + 1];
	char name[LQ_NAME_MAX + 1];
	char owner[LQ_OWNER_MAX + 1]; /* the claim's owner: the worker running it */
	int64_t run_at;         /* due time of the occurrence that runs */
	int attempt;            /* 1 for the first (as lq_run.attempt) */
	int64_t started_at;     /* when it was claimed (database clock) */
	int64_t claim_until;    /* the claim's end unless a heartbeat renews it */
	int64_t now;            /* database clock when read */
} lq_running;
typedef int (*lq_running_fn)(const lq_running *r, void *ctx);
/* Call fn for every live cancellable at-most-once run (its claim_until
 * still ahead of the database clock: a crashed worker's run is not
 * listed) of queue (NULL: every queue), by started_at then task id; fn
 * returns non-zero to stop.  One statement; the rows are not buffered.
 * LQ_OK (also when fn stopped it); LQ_EINVAL: a bad queue name. */
LQ_EXTERN(lq_status) lq_task_running_list(lq_db *db, const char *queue, lq_running_fn fn, void *ctx);
/* The live cancellable at-most-once run of task id, as lq_task_running_list
 * reads it.  LQ_OK; LQ_NOTFOUND: no such run (the task may still be live:
 * lq_task_get). */
LQ_EXTERN(lq_status) lq_task_running_get(lq_db *db, int64_t id, lq_running *out);

/* One task by id, live or dead.  LQ_OK; LQ_NOTFOUND if neither. */
LQ_EXTERN(lq_status) lq_task_get(lq_db *db, int64_t id, lq_task *out);

/* The partition of live task id into buf ("" for none; see
 * lq_task_opts.partition).  LQ_OK; LQ_NOTFOUND: no such live task. */
LQ_EXTERN(lq_status) lq_task_partition(lq_db *db, int64_t id, char *buf, size_t size);

#define LQ_LIST_DUE 1u  /* only tasks due now */
#define LQ_LIST_DEAD 2u /* the dead tasks instead of the live ones */
/* Call fn for every matching task, by id (payload not loaded).  queue NULL:
 * every queue.  fn returns non-zero to stop.  LQ_OK (also when fn stopped
 * it); LQ_EINVAL: a bad queue name or unknown flags. */
typedef int (*lq_task_fn)(const lq_task *t, void *ctx);
LQ_EXTERN(lq_status) lq_task_list(lq_db *db, const char *queue, unsigned flags,
				  lq_task_fn fn, void *ctx);
/* Delete a live or dead task.  LQ_OK; LQ_NOTFOUND if neither. */
LQ_EXTERN(lq_status) lq_task_rm(lq_db *db, int64_t id);
/* Dead task: back to the queue with attempts reset, due now.  Live task:
 * due now.  LQ_OK; LQ_NOTFOUND if neither; LQ_ERROR: a dead task whose
 * unique key a live task holds now (nothing changed). */
LQ_EXTERN(lq_status) lq_task_retry(lq_db *db, int64_t id);
/* Pause or resume one task (a paused task is never claimed).  LQ_OK;
 * LQ_NOTFOUND: no live task with that id. */
LQ_EXTERN(lq_status) lq_task_pause(lq_db *db, int64_t id, int paused);
/* Resuming a recurring task whose due time passed while it was paused runs
 * at most one late occurrence (none with missed skip / catch_up 0), never
 * one per slot missed, and keeps the schedule's phase. */

/* ------------------------------------------------------ steering schedules */

/* One recurring task's schedule and its steering, as lq_schedule_get and
 * lq_schedule_list read it (a new structure: it grows by raising
 * LQ_ABI_VERSION like the others). */
typedef struct lq_schedule {
	int64_t id;
	char queue[LQ_NAME_MAX + 1];
	char name[LQ_NAME_MAX + 1];
	int64_t every_ms;        /* 0 if cron */
	char cron[LQ_CRON_MAX + 1];
	char tz[LQ_TZ_MAX + 1];
	int paused;
	lq_overlap overlap;
	int catch_up;            /* effective: 0 skip, 1 once, N */
	int64_t alert_after_ms;  /* 0: no dead-man check */
	int64_t last_success_at; /* 0: never succeeded */
	int64_t since_success_ms; /* since the last success, or the creation */
	int overdue;             /* alert_after_ms set, not paused, and
	                          * since_success_ms > alert_after_ms */
	int64_t run_at;          /* the row's due time (a run-now's, if pending) */
	int64_t next_at;         /* the regular occurrence a run-now (or an edit
	                          * under a live claim) set aside; 0 if none */
	int64_t created_at;
	int64_t now;             /* database clock when read */
} lq_schedule;

/* Replace the schedule of recurring task id in place: every_ms > 0, or cron
 * (tz NULL: UTC).  The next occurrence is the new schedule's first after
 * the database's now.  Conditional on the occurrence read: a claim racing
 * with the edit runs the occurrence under the old schedule or the new one,
 * never both.  An occurrence under a live at-least-once claim keeps running
 * and its ack moves on to the new schedule.  *next_run_at (may be NULL): the
 * new schedule's first occurrence.  LQ_OK; LQ_NOTFOUND; LQ_EINVAL: a bad
 * schedule, or a task that is not recurring (nothing changed); LQ_BUSY:
 * claims kept moving the row and the edit did not get in. */
LQ_EXTERN(lq_status) lq_task_edit_schedule(lq_db *db, int64_t id, int64_t every_ms, const char *cron,
					   const char *tz, int64_t *next_run_at);
/* One extra occurrence of recurring task id, due now; the regular next
 * occurrence stays where it is (the schedule is not shifted).  A one-off
 * task becomes due now (as lq_task_retry).  LQ_OK; LQ_NOTFOUND; LQ_BUSY: an
 * occurrence is due or running already, a run-now is pending, or the task
 * is paused (nothing changed; lq_errmsg says which). */
LQ_EXTERN(lq_status) lq_task_run_now(lq_db *db, int64_t id);
/* The schedule of recurring task id.  LQ_OK; LQ_NOTFOUND: no live recurring
 * task with that id. */
LQ_EXTERN(lq_status) lq_schedule_get(lq_db *db, int64_t id, lq_schedule *out);
#define LQ_SCHEDULE_ALERTED 1u /* only those with alert_after_ms (by an index, no scan) */
/* Call fn for every recurring task (by id), or with LQ_SCHEDULE_ALERTED for
 * those with a dead-man bound; fn returns non-zero to stop.  LQ_OK;
 * LQ_EINVAL: unknown flags. */
typedef int (*lq_schedule_fn)(const lq_schedule *s, void *ctx);
LQ_EXTERN(lq_status) lq_schedule_list(lq_db *db, unsigned flags, lq_schedule_fn fn, void *ctx);

/* What "leasectl doctor" reads: read-only, one pass over the task tables. */
typedef struct lq_health {
	int schema_current, schema_latest; /* as lq_schema_status */
	int64_t db_now;                    /* the database clock, epoch ms */
	int64_t expired_claims;            /* at-least-once claims expired more than grace ago */
	int64_t oldest_expired_claim_ms;   /* since when the oldest of them expired */
	int64_t stale_leases;              /* leases still owned, expired more than grace ago */
	int64_t overdue_tasks;             /* claimable tasks due more than grace ago (not paused) */
	int64_t most_overdue_ms;           /* how late the most overdue one is */
	int64_t dead_tasks;
	char missing_indexes[192];         /* space-separated names of indexes the schema lacks */
	char journal_mode[16];             /* SQLite's journal mode; "" on the servers */
} lq_health;
/* Fill *out.  grace_ms: how late counts as stuck or overdue.  Needs the
 * schema; LQ_OK; LQ_ESCHEMA (with schema_current/latest set) when it is
 * missing or behind. */
LQ_EXTERN(lq_status) lq_health_check(lq_db *db, int64_t grace_ms, lq_health *out);

#define LQ_PRUNE_DRY_RUN 1u /* count what would go, remove nothing */
/* Remove the dead tasks that died more than older_than_ms ago (queue NULL:
 * every queue), oldest first, in batches of at most 1000 rows, each its own
 * statement: no long lock on a big table.  *removed (may be NULL): how many
 * went (with LQ_PRUNE_DRY_RUN: would go).  Live tasks are never touched;
 * leases are never pruned (their fencing tokens must keep growing).  LQ_OK;
 * LQ_EINVAL: a negative age, a bad queue name or unknown flags. */
LQ_EXTERN(lq_status) lq_task_prune(lq_db *db, int64_t older_than_ms, const char *queue, unsigned flags,
				   int64_t *removed);

/* ----------------------------------------------------------- run history */

/*
 * Every run that ends leaves one row in the run history (table lq_run): the
 * task, the due time of the occurrence, queue, name, the worker (host:pid),
 * the attempt, when it was claimed and when it ended, its outcome and error.
 * At-least-once: the row is written in the transaction of the ack or fail
 * (the ack and its row are one round trip: one statement on PostgreSQL, one
 * procedure call on MySQL/MariaDB), so the history
 * never says "done" for a run whose ack did not commit, and never misses
 * one that did.  At-most-once: the claim already removed the task, so the
 * row is written after the run.  lq_task_fail writes it with a statement of
 * its own.  lq_task_ack keeps it back in the handle and writes up to 64 such
 * rows in one statement: when 64 wait, at the first ack more than a second
 * after the oldest, when a claim finds nothing (LQ_EMPTY), at the end of
 * lq_runner_tick, before this handle reads the history or the counters,
 * at lq_run_flush and at lq_close.  ended_at is then the database clock
 * at that write less the time since the run ended, measured by the worker.
 * The call that writes them returns the write's failure (one of the history
 * only: the tasks were settled by their claims), except a write whose
 * outcome is unknown (the connection was lost after it went out): its rows
 * are not sent again, never twice, and only lq_run_flush reports it
 * (LQ_EUNKNOWN).  The same holds for a failure's own row.
 * A crash of the worker before the row is written leaves no row (the run
 * itself was already given up by the claim).
 * Not recorded: tasks handed back unrun (lq_task_release), and attempts
 * whose worker vanished (the claim expired; the next attempt's row shows
 * the higher attempt number, and a task that dies of it is in the dead
 * tasks with the reason).
 * The history is bounded by age with lq_run_prune ("leasectl prune").
 */
typedef enum lq_outcome {
	LQ_RUN_DONE = 0,      /* "done": the handler succeeded and the ack committed */
	LQ_RUN_FAILED = 1,    /* "failed": will be retried after a back-off */
	LQ_RUN_TIMED_OUT = 2, /* "timed_out": stopped past its time limit; retried */
	LQ_RUN_DEAD = 3,      /* "dead": failed (or timed out) on its last attempt: the task
	                       * is dead, or for a recurring task the occurrence given up */
	LQ_RUN_CANCELLED = 4  /* "cancelled": lq_task_cancel ended it (running or not yet
	                       * started: attempt 0 when it never ran) */
} lq_outcome;
/* "done", "failed", "timed_out", "dead", "cancelled" (the text stored in lq_run.outcome);
 * "unknown" for any other value.  Never NULL. */
LQ_EXTERN(const char *) lq_outcome_name(lq_outcome o);

typedef struct lq_run {
	int64_t id;             /* increasing: a later row was written later */
	int64_t task_id;
	int64_t run_at;         /* due time of the occurrence that ran */
	char queue[LQ_NAME_MAX + 1];
	char name[LQ_NAME_MAX + 1];
	char worker[LQ_OWNER_MAX + 1]; /* host:pid of the process that ran it */
	int attempt;            /* 1 for the first */
	int64_t started_at;     /* when it was claimed (database clock) */
	int64_t ended_at;
	lq_outcome outcome;
	const char *error;      /* NULL for done; borrowed: valid during the callback only */
	int64_t now;            /* database clock when read */
} lq_run;

#define LQ_RUN_FILTER_VERSION 1
#define LQ_RUN_LIST_MAX 100000 /* rows one lq_run_list call returns at most */
typedef struct lq_run_filter {
	unsigned version;     /* LQ_RUN_FILTER_VERSION */
	int64_t task_id;      /* > 0: only this task's runs (queue and name are then ignored) */
	const char *queue;    /* NULL: every queue */
	const char *name;     /* NULL: every task name */
	int64_t since_ms;     /* > 0: only runs that ended in the last since_ms */
	size_t limit;         /* newest first, at most this many; 0: 100 */
} lq_run_filter;
#define LQ_RUN_FILTER_INIT {.version = LQ_RUN_FILTER_VERSION}

typedef int (*lq_run_fn)(const lq_run *r, void *ctx);
/* Call fn for the matching runs, newest first: by ended_at, latest first,
 * and by id (the later written first) among runs that ended in the same
 * millisecond.  (Ids alone do not say it: an at-most-once run that ended
 * well is written after runs that ended later.)  fn returns non-zero to
 * stop.  f NULL: the last 100 runs.  LQ_OK (also when fn stopped it);
 * LQ_EINVAL for a bad name, a negative since_ms, a limit over
 * LQ_RUN_LIST_MAX or an unknown filter version.  Writes the rows this
 * handle kept back first, and returns that write's failure. */
LQ_EXTERN(lq_status) lq_run_list(lq_db *db, const lq_run_filter *f, lq_run_fn fn, void *ctx);

typedef struct lq_run_counts {
	int64_t done, failed, timed_out, dead;
	/* Layout 2 (LQ_ABI_VERSION >= 2): */
	int64_t cancelled; /* tasks ended by lq_task_cancel */
} lq_run_counts;
/* Runs that ended in the last since_ms (> 0) of queue (NULL: every queue),
 * by outcome, from the history (reads that window's rows).  LQ_OK;
 * LQ_EINVAL: since_ms <= 0 or a bad queue name. */
LQ_EXTERN(lq_status) lq_run_count_since(lq_db *db, int64_t since_ms, const char *queue, lq_run_counts *out);

/*
 * Monotonic counters for monitoring (Prometheus counters), kept in the same
 * statement as what they count and never pruned: runs by outcome per queue
 * and task name, and leases taken (every acquisition; from the fencing
 * tokens), lost (taken by someone while its previous owner still held it
 * past its expiry) and broken (lq_lease_break).  fn (may be NULL) is called
 * once per queue and task name that ever ran, by queue then name.  LQ_OK.
 */
typedef struct lq_lease_counts {
	int64_t taken, lost, broken;
} lq_lease_counts;
typedef int (*lq_run_counter_fn)(const char *queue, const char *name, const lq_run_counts *c, void *ctx);
LQ_EXTERN(lq_status) lq_counters(lq_db *db, lq_lease_counts *leases, lq_run_counter_fn fn, void *ctx);

/* Write now the history rows of at-most-once runs this handle keeps back
 * (see above).  They are gone from the handle whatever the status: a row
 * whose write failed is not sent again.  LQ_EUNKNOWN: the connection was
 * lost after the write went out; the rows may or may not be there.  LQ_OK
 * when nothing waited. */
LQ_EXTERN(lq_status) lq_run_flush(lq_db *db);

/* Remove the runs that ended more than older_than_ms ago (queue NULL: every
 * queue), oldest first, in batches of at most 1000 rows, each its own
 * statement (as lq_task_prune, with the same flags).  The counters are
 * never pruned.  Statuses as lq_task_prune. */
LQ_EXTERN(lq_status) lq_run_prune(lq_db *db, int64_t older_than_ms, const char *queue, unsigned flags,
				  int64_t *removed);

/* ---------------------------------------------------------------- queues */

typedef struct lq_queue_info {
	char name[LQ_NAME_MAX + 1];
	int paused;
	int64_t tasks;  /* live tasks */
	int64_t due;    /* of which due now */
	int64_t dead;
	int64_t next_run_at; /* earliest run_at of an unpaused live task, 0 if none */
} lq_queue_info;
typedef int (*lq_queue_fn)(const lq_queue_info *q, void *ctx);
/* Call fn for every queue that has tasks or was paused, by name.  LQ_OK. */
LQ_EXTERN(lq_status) lq_queue_list(lq_db *db, lq_queue_fn fn, void *ctx);
/* Pause (paused != 0) or resume a whole queue: its tasks are not claimed
 * meanwhile.  LQ_OK (also for a queue that has no task yet); LQ_EINVAL: a
 * bad name. */
LQ_EXTERN(lq_status) lq_queue_pause(lq_db *db, const char *queue, int paused);
/* lq_queue_list for monitoring, bounded on a queue of any size: the queues
 * are found by skip scans, and tasks, due and dead each count at most cap
 * rows (an index range that stops there; cap 0: 10000): a value equal to
 * cap means "cap or more".  One statement per queue.  LQ_OK; LQ_EINVAL: a
 * negative cap. */
LQ_EXTERN(lq_status) lq_queue_gauges(lq_db *db, int64_t cap, lq_queue_fn fn, void *ctx);
/* Milliseconds until the next task of queue could be due (0 = now), or -1
 * when the queue has no claimable task.  LQ_OK; LQ_EINVAL: a bad name. */
LQ_EXTERN(lq_status) lq_queue_next_due(lq_db *db, const char *queue, int64_t *wait_ms);

/* ---------------------------------------------------------- flow control */
/*
 * Limits on a concurrency key (lq_task_opts.concurrency_key) or on a whole
 * queue (key "queue:" followed by the queue name).  concurrency: at most
 * that many tasks of the key run at once across all workers; rate: at most
 * rate_n starts per rate_period_ms (a GCRA: up to rate_n at once, then one
 * every period / rate_n).  Both are decided by the claim, in the database,
 * on its clock: a claim of a limited task counts the live claims of its key
 * under the limit row's lock.  A task whose key is at its limit is skipped,
 * not waited behind: other keys' due tasks are claimed past it.  A claim of
 * a task under a concurrency cap is an at-least-once claim in either mode
 * (lq_task.mode says so), renewed by heartbeats and settled by ack or fail:
 * the claim is the slot, and a crashed worker's slot frees when its claim
 * expires.  A key without a limit row is not limited.
 */
#define LQ_LIMIT_RATE_MAX 1000000 /* rate_n: 1 to this */
typedef struct lq_limit {
	char key[LQ_NAME_MAX + 1];
	int concurrency;        /* 0: no cap */
	int rate_n;             /* 0: no rate limit */
	int64_t rate_period_ms; /* with rate_n: 1 ms to a year */
	/* Filled by lq_limit_get and lq_limit_list: */
	int64_t running;        /* live claims of the key now */
	int64_t tokens;         /* starts the rate allows now (rate_n if no rate) */
	int64_t now;            /* database clock when read */
} lq_limit;
typedef int (*lq_limit_fn)(const lq_limit *l, void *ctx);
/* Create or replace the limit l->key (its rate starts with a full bucket).
 * LQ_OK; LQ_EINVAL: a bad key, no limit given, or a value out of range;
 * nothing changed. */
LQ_EXTERN(lq_status) lq_limit_set(lq_db *db, const lq_limit *l);
/* LQ_OK; LQ_NOTFOUND: no limit on key. */
LQ_EXTERN(lq_status) lq_limit_get(lq_db *db, const char *key, lq_limit *out);
/* Call fn for every limit, by key (stop when fn returns non-zero).  LQ_OK. */
LQ_EXTERN(lq_status) lq_limit_list(lq_db *db, lq_limit_fn fn, void *ctx);
/* LQ_OK; LQ_NOTFOUND: no limit on key. */
LQ_EXTERN(lq_status) lq_limit_remove(lq_db *db, const char *key);
/* A rate as "N/DUR" ("10/1s", "100/1m": at most N starts per DUR) into
 * *n and *period_ms, as lq_limit_set takes them (N 1 to LQ_LIMIT_RATE_MAX,
 * DUR a duration of lq_parse_duration from 1 ms to a year).  LQ_OK;
 * LQ_EINVAL (msg says why; *n and *period_ms unchanged). */
LQ_EXTERN(lq_status) lq_parse_rate(const char *text, int *n, int64_t *period_ms, char *msg, size_t msgsize);

/* ---------------------------------------------------------------- runner */

/* A running task, as a handler sees it. */
typedef struct lq_job lq_job;
/* The task (laid out as the runner's handle was opened with); never NULL. */
LQ_EXTERN(const lq_task *) lq_job_task(const lq_job *job);
/* Record why the job failed (copied).  One line. */
LQ_EXTERN(void) lq_job_set_error(lq_job *job, const char *error);
/* Keep a long job alive: extends the claim of an at-least-once job (or
 * the running mark of a cancellable at-most-once one) and, inside
 * lq_runner_tick, the runner lease.  Call it every
 * lq_job_claim_ttl()/3 ms.  While the handler runs, the runner does not
 * touch its handle, so another thread may call this (a watchdog), provided
 * that thread and the handler never use the handle at the same time (one
 * mutex around both).  LQ_OK; LQ_LOST: stop working on it; LQ_REVOKED:
 * the task was cancelled (lq_task_cancel), stop working on it (the runner
 * then neither acknowledges nor fails it: the cancel recorded the run). */
LQ_EXTERN(lq_status) lq_job_heartbeat(lq_job *job);
/* Record why the job failed, as lq_job_set_error, and that it was stopped
 * past its time limit: its run is recorded as timed_out (or dead on its
 * last attempt) in the history. */
LQ_EXTERN(void) lq_job_set_timed_out(lq_job *job, const char *error);
/* 1 once the runner has been asked to stop (signal or lq_runner_stop). */
LQ_EXTERN(int) lq_job_stopping(const lq_job *job);
/* The TTL that lq_job_heartbeat() extends (claim or, in a tick, the
 * shorter runner lease), in milliseconds. */
LQ_EXTERN(int64_t) lq_job_claim_ttl(const lq_job *job);

/* Return 0 for success; anything else is a failure (see lq_job_set_error). */
typedef int (*lq_handler_fn)(lq_job *job, void *ctx);

typedef struct lq_runner lq_runner;

#define LQ_RUNNER_OPTS_VERSION 1
typedef struct lq_runner_opts {
	unsigned version;           /* LQ_RUNNER_OPTS_VERSION */
	const char *const *queues;  /* NULL-terminated; NULL: {"default"} */
	lq_mode mode;               /* default at-most-once; also
	                             * LQ_AT_MOST_ONCE_CANCELLABLE */
	int64_t claim_ttl_ms;       /* at-least-once claim lease; 0: 30 s */
	int64_t lease_ttl_ms;       /* runner lease for lq_runner_tick; 0: 3 s */
	size_t batch;               /* tasks claimed per transaction; 0: 1 */
} lq_runner_opts;
#define LQ_RUNNER_OPTS_INIT {.version = LQ_RUNNER_OPTS_VERSION}

/* The runner borrows db, which must outlive it.  LQ_OK; LQ_EINVAL: a bad
 * queue name, mode, TTL, batch or options version.  On LQ_OK *out is set;
 * free it with lq_runner_free(). */
LQ_EXTERN(lq_status) lq_runner_new(lq_db *db, const lq_runner_opts *opts, lq_runner **out);
LQ_EXTERN(void) lq_runner_free(lq_runner *r);
/* Register fn for tasks named name ("*" = any task without its own handler).
 * Registering a name again replaces its handler.  LQ_OK; LQ_EINVAL: a bad
 * name or no fn. */
LQ_EXTERN(lq_status) lq_runner_handle(lq_runner *r, const char *name, lq_handler_fn fn, void *ctx);
/* Ask a running lq_runner_work / lq_runner_tick to stop after the current
 * task.  Async-signal-safe.  A statement of the runner's handle still waiting
 * for the database 2 s after the request is cancelled (LQ_ETIMEDOUT, or
 * LQ_EUNKNOWN for a COMMIT); lq_runner_work then returns that status. */
LQ_EXTERN(void) lq_runner_stop(lq_runner *r);

/* Why a run stopped: the name (one word, stable for scripts and JSON) and a
 * sentence for people, from this one list.  Append only. */
#define LQ_STOP_REASON_MAP(X)                                                              \
	X(NONE, 0, "none", "none")                             /* nothing was done */       \
	X(IDLE, 1, "idle", "idle")                             /* nothing more is due */    \
	X(HELD, 2, "held", "held elsewhere")                   /* another runner holds the runner lease */ \
	X(CLAIM_LOST, 3, "claim_lost", "claim lost to another runner")                      \
	X(LEASE_LOST, 4, "lease_lost", "runner lease lost")                                 \
	X(BUDGET, 5, "budget", "time budget reached")                                       \
	X(SIGNAL, 6, "signal", "stopped")                      /* lq_runner_stop was called */ \
	X(ERROR, 7, "error", "error")                          /* a database error (see lq_errmsg) */

typedef enum lq_stop_reason {
#define LQ__STOP_ENUM(name, value, word, text) LQ_STOP_##name = value,
	LQ_STOP_REASON_MAP(LQ__STOP_ENUM)
#undef LQ__STOP_ENUM
} lq_stop_reason;
/* The sentence ("time budget reached"); never NULL. */
LQ_EXTERN(const char *) lq_stop_reason_str(lq_stop_reason r);
/* The name ("budget"); never NULL ("unknown" for a value not in the list). */
LQ_EXTERN(const char *) lq_stop_reason_name(lq_stop_reason r);

typedef struct lq_run_report {
	int64_t ran;       /* handlers that succeeded */
	int64_t failed;    /* handlers that failed (retried or dead) */
	int64_t claimed;   /* tasks claimed */
	lq_stop_reason stopped;
} lq_run_report;

/*
 * One pseudo-cron tick on the first queue: take the runner lease (if held
 * elsewhere return LQ_BUSY at once, report->stopped = LQ_STOP_HELD), run due
 * tasks in order renewing the lease after each, stop when nothing is due, a
 * claim or the lease is lost, or budget_ms (minus a safety margin) is spent;
 * release the lease.  budget_ms <= 0: 25 s.  LQ_OK (report says why it
 * stopped); LQ_BUSY: held elsewhere; LQ_ECANCELED: lq_cancel() on the
 * runner's handle; a database failure's status otherwise.
 */
LQ_EXTERN(lq_status) lq_runner_tick(lq_runner *r, int64_t budget_ms, lq_run_report *report);
/*
 * Worker loop: claim and run due tasks of every queue until stopped; idle
 * back-off with jitter that never sleeps past the next known due time.
 * drain != 0: return once nothing is due.  LQ_OK when stopped (a stop
 * request, lq_cancel(), or drained); the status of a database failure that
 * ended it otherwise (report->stopped = LQ_STOP_ERROR).
 */
LQ_EXTERN(lq_status) lq_runner_work(lq_runner *r, int drain, lq_run_report *report);

/* ------------------------------------------- snooze, progress, results */

#define LQ_PROGRESS_MSG_MAX 200   /* bytes of a progress message (UTF-8) */
#define LQ_RESULT_MAX (64 * 1024) /* bytes of a run's result */

/*
 * Snooze a claimed task: it runs again delay_ms (1 ms to LQ_DELAY_MAX_MS)
 * from now on the database clock, and this attempt does not count.  This
 * settles the claim instead of an ack or a fail, and like them it writes no
 * history row (a snooze is not a run, as a task handed back unrun is not).
 * At-least-once: the claim is cleared and run_at moved, conditional on the
 * claim (LQ_LOST once it was taken); a recurring occurrence is the one
 * snoozed, and the schedule goes on from when it then runs.  At-most-once:
 * the task goes back under its id (as lq_task_release does, with the
 * delay); a recurring occurrence runs again at now + delay, or with the
 * next one if that comes first (never twice), LQ_LOST if the schedule was
 * changed meanwhile.  LQ_OK; LQ_EINVAL: a bad delay or t is not claimed.
 */
LQ_EXTERN(lq_status) lq_task_snooze(lq_db *db, const lq_task *t, int64_t delay_ms);

/*
 * Report how far a claimed task is: percent 0..100 and message (NULL or ""
 * for none; valid UTF-8, at most LQ_PROGRESS_MSG_MAX bytes, no control
 * characters), stored on the task row with the database clock.  Needs an
 * at-least-once claim (an at-most-once claim removed the row): conditional
 * on it, as lq_task_heartbeat.  LQ_OK; LQ_LOST: the claim expired or was
 * taken (nothing stored); LQ_EINVAL: a bad percent or message, or t is not
 * an at-least-once claim (nothing stored).
 */
LQ_EXTERN(lq_status) lq_task_progress(lq_db *db, const lq_task *t, int percent, const char *message);

/* A task's progress as lq_task_progress_get reads it. */
typedef struct lq_progress {
	int percent;     /* -1: none reported under the claim holding the task now */
	char message[LQ_PROGRESS_MSG_MAX + 1];
	int64_t updated_at; /* when it was reported; 0 if none */
	int64_t now;        /* database clock when read */
} lq_progress;
/* The progress of live task id, reported under the claim that holds it now
 * (an earlier attempt's or occurrence's is not shown).  LQ_OK (percent -1
 * when there is none); LQ_NOTFOUND: no live task id. */
LQ_EXTERN(lq_status) lq_task_progress_get(lq_db *db, int64_t id, lq_progress *out);

/*
 * lq_task_ack, storing data (len bytes, binary-safe, at most LQ_RESULT_MAX)
 * as the result of this run, in its history row and in the same transaction
 * as the ack: there is a result if and only if the ack committed.  The
 * result lives as long as the run's history row (lq_run_prune removes it),
 * also after the task row is gone.  At-most-once the history row is written
 * at once (not kept back).  Statuses as lq_task_ack; LQ_EINVAL: over
 * LQ_RESULT_MAX (data NULL with len > 0), nothing changed.
 */
LQ_EXTERN(lq_status) lq_task_ack_result(lq_db *db, const lq_task *t, const void *data, size_t len);
/*
 * The newest stored result of task id (live, dead or gone), from the run
 * history: up to size bytes copied to buf (NULL, 0: only the length), the
 * whole length in *len (more than size: buf holds the first size bytes).
 * LQ_OK; LQ_NOTFOUND: no run of it with a result in the history.
 */
LQ_EXTERN(lq_status) lq_task_result(lq_db *db, int64_t id, void *buf, size_t size, size_t *len);

/* The same from a runner's handler, for its job (the runner settles it):
 * progress is stored at once (lq_task_progress); snooze and result are
 * applied when the handler returns 0, in place of the plain ack (a snooze
 * wins over a result).  A failure ignores both.  LQ_OK; statuses of
 * lq_task_progress; LQ_EINVAL for a bad delay or an oversize result
 * (nothing recorded). */
LQ_EXTERN(lq_status) lq_job_progress(lq_job *job, int percent, const char *message);
LQ_EXTERN(lq_status) lq_job_snooze(lq_job *job, int64_t delay_ms);
LQ_EXTERN(lq_status) lq_job_set_result(lq_job *job, const void *data, size_t len);

/* ------------------------------------------------------------- utilities */

/* Parse "250ms", "3s", "5m", "2h", "1d" (a bare number is seconds).
 * LQ_OK; LQ_EINVAL for anything else, negative values or overflow (msg says
 * which). */
LQ_EXTERN(lq_status) lq_parse_duration(const char *text, int64_t *ms, char *msg, size_t msgsize);
/* Validate a name (lease, task, queue, unique key): non-empty, at most
 * LQ_NAME_MAX bytes, valid UTF-8, no NUL.  what names it in the message.
 * LQ_OK or LQ_EINVAL. */
LQ_EXTERN(lq_status) lq_check_name(const char *what, const char *name, char *msg, size_t msgsize);
/* Validate a cron expression (5 fields or @hourly etc.) and time zone.
 * LQ_OK or LQ_EINVAL. */
LQ_EXTERN(lq_status) lq_check_schedule(const char *cron, const char *tz, char *msg, size_t msgsize);
/* The first occurrence of cron (in tz, NULL = UTC) strictly after after_ms.
 * LQ_OK; LQ_EINVAL: a bad expression or zone, or a start time out of range
 * (msg says which). */
LQ_EXTERN(lq_status) lq_cron_next(const char *cron, const char *tz, int64_t after_ms, int64_t *next_ms,
				  char *msg, size_t msgsize);

#ifdef __cplusplus
}
#endif
#endif /* LEASEQ_H */
