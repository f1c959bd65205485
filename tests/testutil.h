/*
 * testutil.h - helpers shared by the unit tests, the conformance suite and
 * the race programs.  cmocka asserts are for the test's own process only:
 * a forked child that failed a cmocka assert would longjmp back into its
 * copy of the test runner, so children use LQT_CHECK instead.
 */
#ifndef LQ_TESTUTIL_H
#define LQ_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <cmocka.h>

#include "leaseq.h"

/* Exit status of a skipped test program (ctest SKIP_RETURN_CODE). */
#define LQT_SKIP 77

/* "--backend B" from argv; "sqlite" when absent.  Exits 64 on bad usage. */
const char *lqt_backend_from_args(int argc, char **argv);
/*
 * The DSN to test backend against.  sqlite: a new file in a new temporary
 * directory (removed when the creating process exits).  postgres / mysql:
 * LEASEQ_TEST_PG_DSN / LEASEQ_TEST_MYSQL_DSN; when unset, exit 77, or exit
 * 1 if LEASEQ_REQUIRE_ALL_BACKENDS is set (a missing server fails CI).
 */
const char *lqt_dsn(const char *backend);
/* 1 when --retry-storm was given: handles go through tests/fault_backend.c. */
int lqt_retry_storm(void);
/* Remove the temporary SQLite directories now (also done at exit). */
void lqt_cleanup(void);

/* Open dsn; on failure print why and return NULL.  In a child of
 * lqt_spawn with index i, when LEASEQ_TEST_SPREAD_DSNS lists DSNs of
 * one cluster's nodes and dsn is the first of them, it opens the (i mod n)th:
 * the race programs' clients spread over the nodes (tests/lib/via_galera.sh). */
lq_db *lqt_open(const char *dsn);
/* Open dsn, drop every leaseq table, migrate.  Fails the cmocka test (or
 * exits 1 outside one) when any step fails. */
lq_db *lqt_open_fresh(const char *dsn);
/* A SQLite connection of the test's own on the file of a sqlite: DSN
 * (flags as sqlite3_open_v2's), waiting up to 5 s for a lock; fails the
 * cmocka test when it cannot open.  The caller closes it. */
struct sqlite3;
struct sqlite3 *lqt_sqlite_open(const char *dsn, int flags);
/* Delete every row of every leaseq table but lq_schema: a clean slate for
 * the next test without paying for a migration.  LQ_OK or the failure. */
lq_status lqt_reset(lq_db *db);
/* Drop every leaseq table, lq_schema included (as before any migration). */
lq_status lqt_drop_schema(lq_db *db);
/* Run one SQL statement through the backend (test set-up only). */
lq_status lqt_exec_sql(lq_db *db, const char *sql);

/* Clocks: CLOCK_MONOTONIC is one clock for every process on the machine. */
int64_t lqt_mono_ms(void);
int64_t lqt_mono_us(void);
void lqt_sleep_ms(int64_t ms);
/* The database clock; fails the test (or exits) when it cannot be read. */
int64_t lqt_db_now(lq_db *db);
/* lq_limit_set of key (concurrency, rate_n starts per period ms; 0: none);
 * fails the test (or exits) when refused. */
void lqt_set_limit(lq_db *db, const char *key, int concurrency, int rate_n, int64_t period_ms);
/* lq_lease_take of one of a semaphore's slots, and of a read lease. */
lq_status lqt_acquire_slot(lq_db *db, const char *name, int slots, int64_t ttl_ms, const char *owner,
			   int64_t wait_ms, lq_lease *out);
lq_status lqt_acquire_read(lq_db *db, const char *name, int64_t ttl_ms, const char *owner, int64_t wait_ms,
			   lq_lease *out);
/* A per-process pseudo-random number (seeded from pid and time). */
uint32_t lqt_rand(void);
/* The task number 0..n-1 a race program wrote as t's payload, or -1. */
int lqt_task_no(const lq_task *t, int n);
/* qsort's comparison of two int64_t. */
int lqt_cmp_int64(const void *a, const void *b);
/* lq_task_ack of t in a race program: LQ_LOST (its claim expired, and
 * another claimer may run it) counts in *lost, shared between processes;
 * any other failure ends the process. */
void lqt_ack_counting_lost(lq_db *db, const lq_task *t, int *lost);

/* ------------------------------------------------------------ processes */

/* Body of a child: its index 0..n-1; the return value is its exit status. */
typedef int (*lqt_child_fn)(int idx, void *ctx);
/*
 * Fork n children running fn, wait for all of them (killing any still alive
 * after timeout_s seconds) and store each exit status in codes[] (may be
 * NULL): 128+signal for a child killed by a signal, 124 for a timeout.
 * Returns how many did not exit 0.  The caller must have no lq_db open on an
 * SQLite file at the time (SQLite must not cross a fork); children open their
 * own handles.
 */
int lqt_run_children(int n, lqt_child_fn fn, void *ctx, int *codes, int timeout_s);
/* The same in two steps: start one child, and later wait for several. */
pid_t lqt_spawn(int idx, lqt_child_fn fn, void *ctx);
int lqt_wait_children(const pid_t *pids, int n, int *codes, int timeout_s);
/* Zeroed memory shared between this process and the children it forks. */
void *lqt_shared_alloc(size_t size);
void lqt_shared_free(void *p, size_t size);
/* Wait until *flag (shared memory) is non-zero; 0 on success, -1 after
 * timeout_ms. */
int lqt_wait_flag(volatile int *flag, int64_t timeout_ms);

/* Print "file:line: message" to stderr and end the process with status 1
 * (_exit in a forked child, exit in the main process). */
void lqt_die(const char *file, int line, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4), noreturn))
#endif
	;

/* A check usable anywhere, children included. */
#define LQT_CHECK(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond))                                                   \
			lqt_die(__FILE__, __LINE__, "check failed: " __VA_ARGS__); \
	} while (0)

/* A status check usable anywhere: expected status or die with errmsg. */
#define LQT_CHECK_ST(db, expected, call)                                       \
	do {                                                                   \
		lq_status lqt_st_ = (call);                                    \
		if (lqt_st_ != (expected))                                     \
			lqt_die(__FILE__, __LINE__, "%s = %s (%d), expected %s: %s", #call, \
				lq_status_str(lqt_st_), (int)lqt_st_,          \
				lq_status_str(expected), lq_errmsg(db));       \
	} while (0)

/* cmocka: assert that call returns expected, showing lq_errmsg(db) if not. */
#define assert_lq(db, expected, call)                                          \
	do {                                                                   \
		lq_status lqt_st_ = (call);                                    \
		if (lqt_st_ != (expected)) {                                   \
			print_error("%s:%d: %s = %s (%d), expected %s (%d): %s\n", \
				    __FILE__, __LINE__, #call,                 \
				    lq_status_str(lqt_st_), (int)lqt_st_,      \
				    lq_status_str(expected), (int)(expected),  \
				    lq_errmsg(db));                            \
			fail();                                                \
		}                                                              \
	} while (0)
#define assert_lq_ok(db, call) assert_lq(db, LQ_OK, call)

/* ---------------------------------------------------------- conformance */

/* State of every conformance test: the group's DSN and an open handle. */
typedef struct lqt_conf {
	const char *backend;
	const char *dsn;
	lq_db *db;
} lqt_conf;

/* Set by conf_main.c before any group runs. */
extern const char *lqt_conf_backend;
extern const char *lqt_conf_dsn;

/* Group setup/teardown (fresh schema) and per-test setup (empty tables). */
int lqt_conf_group_setup(void **state);
int lqt_conf_group_teardown(void **state);
int lqt_conf_test_setup(void **state);
/* Close the group handle (before a fork) and open it again (after). */
void lqt_conf_close(lqt_conf *c);
void lqt_conf_reopen(lqt_conf *c);

/* One function per conformance group; each returns the failures. */
int lqt_conf_lease(void);
int lqt_conf_task(void);
int lqt_conf_task_features(void);
int lqt_conf_limits(void);
int lqt_conf_partition(void);
int lqt_conf_run(void);
int lqt_conf_schedule(void);
int lqt_conf_steer(void);
int lqt_conf_runner(void);
int lqt_conf_errors(void);
int lqt_conf_borrow(void);
int lqt_conf_shared(void);
int lqt_conf_progress(void);
int lqt_conf_cancel(void);
int lqt_conf_ack_claim(void);
int lqt_conf_abi(void);

/* Count the rows a list call reports. */
int64_t lqt_count_leases(lq_db *db);
int64_t lqt_count_tasks(lq_db *db, const char *queue, unsigned flags);

/* Run history rows kept by lq_run_list's callback lqt_keep_run (the first
 * LQT_RUNS_MAX, errors copied); lqt_runs_of: the runs of task id, newest
 * first (dies on failure). */
#define LQT_RUNS_MAX 16
struct lqt_runs {
	lq_run r[LQT_RUNS_MAX];
	char err[LQT_RUNS_MAX][256];
	size_t n;
};
int lqt_keep_run(const lq_run *r, void *arg);
void lqt_runs_of(lq_db *db, int64_t id, struct lqt_runs *rs);

#endif
