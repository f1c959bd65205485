/*
 * fault_backend.h - a struct lq_backend that wraps the SQLite one and fails
 * one chosen call (exec, begin or commit) the way a server connection fails:
 * lost before the statement was applied, lost after it was applied, a COMMIT
 * whose answer is lost whether or not it was applied, or a conflict that the
 * library must retry.  Tests use it to drive every "unknown outcome" path in
 * lib/ on every commit, without a server.
 *
 * The plan is process-global (test programs are single-threaded; a forked
 * child inherits a copy).
 */
#ifndef LQT_FAULT_BACKEND_H
#define LQT_FAULT_BACKEND_H

#include "leaseq.h"

typedef enum lqt_fault_kind {
	LQT_FAULT_NONE = 0,
	LQT_FAULT_LOST_BEFORE,  /* connection lost before the call reached the server */
	LQT_FAULT_LOST_AFTER,   /* applied (a COMMIT committed), then the answer was lost */
	LQT_FAULT_LOST_UNAPPLIED, /* sent, not applied (a COMMIT rolled back), answer lost */
	LQT_FAULT_RETRY,        /* a deadlock / serialization failure / SQLITE_BUSY */
	LQT_FAULT__COUNT
} lqt_fault_kind;

const char *lqt_fault_kind_str(lqt_fault_kind k);

/* Fail the call number `at` (1-based, counted from now over exec, begin and
 * commit of every wrapped handle) with kind; at 0 disarms. */
void lqt_fault_arm(lqt_fault_kind kind, long at);
/* Retry storm: after every successful COMMIT or lone statement, fail one of
 * the next few calls with a retryable conflict, once.  The library must hide
 * every one of them.  0 turns it off. */
void lqt_fault_retry_storm(int on);
/* Calls counted since the last lqt_fault_arm, and whether the fault fired. */
long lqt_fault_calls(void);
int lqt_fault_fired(void);
/* Faults injected by the retry storm so far. */
long lqt_fault_storm_count(void);

/*
 * The test clock: the database clock of the handles this backend opens
 * afterwards.  The SQLite dialect reads its clock as julianday('now'); the
 * backend overrides that function (same name and argument count) on each
 * new connection while the test clock is on.  lqt_clock_freeze(at_ms)
 * stops the clock at at_ms (epoch ms) until lqt_clock_advance moves it;
 * lqt_clock_freeze(0) lets it run with the real time again.  An advance of
 * a running clock adds to its offset from the real time.
 */
void lqt_clock_freeze(int64_t at_ms);
void lqt_clock_advance(int64_t ms);
/* A frozen clock moves on by ms before every statement this backend runs
 * (0: it stays), as a server's clock does between the statements of one
 * call. */
void lqt_clock_tick(int64_t ms);
/* The test clock now (epoch ms), as the database reads it. */
int64_t lqt_clock_now(void);

/* Open an SQLite DSN through the fault backend (contract of lq_open). */
lq_status lqt_fault_open(const char *dsn, lq_db **out);

#endif
