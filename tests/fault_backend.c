/*
 * fault_backend.c - the SQLite backend behind a switch that fails one call.
 * "Lost" faults return what the real backends return for a dropped
 * connection (LQ_ECONN for a statement, with lq_err.sent when it had left,
 * LQ_EUNKNOWN for a COMMIT), and the core then drops the connection, which
 * rolls back whatever the wrapped SQLite transaction had not committed —
 * as a server does with a dead session.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "fault_backend.h"

static struct {
	lqt_fault_kind kind;
	long at;
	long calls;
	int fired;
	int storm;
	int storm_armed; /* a storm fault is due within the next few calls */
	long storm_in;
	long storm_count;
	unsigned rng;
} g_fault = {LQT_FAULT_NONE, 0, 0, 0, 0, 0, 0, 0, 12345u};

const char *lqt_fault_kind_str(lqt_fault_kind k)
{
	switch (k) {
	case LQT_FAULT_NONE:
		return "none";
	case LQT_FAULT_LOST_BEFORE:
		return "lost-before";
	case LQT_FAULT_LOST_AFTER:
		return "lost-after";
	case LQT_FAULT_LOST_UNAPPLIED:
		return "lost-unapplied";
	case LQT_FAULT_RETRY:
		return "retry";
	default:
		return "?";
	}
}

void lqt_fault_arm(lqt_fault_kind kind, long at)
{
	g_fault.kind = kind;
	g_fault.at = at;
	g_fault.calls = 0;
	g_fault.fired = 0;
}

void lqt_fault_retry_storm(int on)
{
	/* LQT_STORM_SEED picks other victims, to explore other interleavings. */
	const char *seed = getenv("LQT_STORM_SEED");

	if (seed != NULL && *seed != '\0')
		g_fault.rng = (unsigned)strtoul(seed, NULL, 10);
	g_fault.storm = on;
	g_fault.storm_armed = on;
	g_fault.storm_in = 1;
}

long lqt_fault_calls(void)
{
	return g_fault.calls;
}

int lqt_fault_fired(void)
{
	return g_fault.fired;
}

long lqt_fault_storm_count(void)
{
	return g_fault.storm_count;
}

/* The fault for this call, if any: the armed one, else the storm's. */
static lqt_fault_kind next_fault(void)
{
	g_fault.calls++;
	if (g_fault.at > 0 && g_fault.calls == g_fault.at && !g_fault.fired) {
		g_fault.fired = 1;
		return g_fault.kind;
	}
	if (g_fault.storm && g_fault.storm_armed && --g_fault.storm_in <= 0) {
		g_fault.storm_armed = 0;
		g_fault.storm_count++;
		return LQT_FAULT_RETRY;
	}
	return LQT_FAULT_NONE;
}

/* A unit of work went through: the storm picks its next victim among the
 * next one to four calls. */
static void settled(void)
{
	if (g_fault.storm && !g_fault.storm_armed) {
		g_fault.rng = g_fault.rng * 1103515245u + 12345u;
		g_fault.storm_in = 1 + (long)((g_fault.rng >> 16) % 4);
		g_fault.storm_armed = 1;
	}
}

struct fault_conn {
	struct lq_conn *inner;
	int in_tx;
};

#define INNER (&lq__backend_sqlite)
#define FC(c) ((struct fault_conn *)(void *)(c))

/* ------------------------------------------------------------ test clock */

static struct {
	int on;         /* connections opened from now on get the override */
	int frozen;
	int64_t at_ms;  /* frozen: the time */
	int64_t offset; /* running: added to the real time */
	int64_t tick;   /* frozen: added before each statement */
} g_clock;

int64_t lqt_clock_now(void)
{
	if (g_clock.frozen)
		return g_clock.at_ms;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + g_clock.offset;
}

void lqt_clock_freeze(int64_t at_ms)
{
	g_clock.on = 1;
	g_clock.frozen = at_ms > 0;
	g_clock.at_ms = at_ms;
	g_clock.offset = 0;
}

void lqt_clock_advance(int64_t ms)
{
	g_clock.on = 1;
	if (g_clock.frozen)
		g_clock.at_ms += ms;
	else
		g_clock.offset += ms;
}

void lqt_clock_tick(int64_t ms)
{
	g_clock.tick = ms;
}

/* julianday('now') on the test clock.  The library asks for nothing else
 * of julianday; any other argument is an error, not a silent wrong date. */
static void test_julianday(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *arg = argc == 1 ? sqlite3_value_text(argv[0]) : NULL;
	if (!arg || strcmp((const char *)arg, "now") != 0) {
		sqlite3_result_error(ctx, "test clock: julianday() takes only 'now'", -1);
		return;
	}
	sqlite3_result_double(ctx, (double)lqt_clock_now() / 86400000.0 + 2440587.5);
}

/* Runs for every connection SQLite opens in this process (an automatic
 * extension): the fault backend's own, while the test clock is on. */
static int clock_extension(sqlite3 *db, char **errmsg, const void *api)
{
	(void)errmsg;
	(void)api;
	if (!g_clock.on)
		return SQLITE_OK;
	return sqlite3_create_function(db, "julianday", 1, SQLITE_UTF8, NULL, test_julianday, NULL, NULL);
}

static lq_status f_connect(const char *dsn, unsigned flags, struct lq_conn **out, lq_err *err)
{
	*out = NULL;
	struct fault_conn *fc = calloc(1, sizeof(*fc));
	if (!fc)
		return LQ_ENOMEM;
	if (g_clock.on)
		sqlite3_auto_extension((void (*)(void))clock_extension);
	lq_status st = INNER->connect(dsn, flags, &fc->inner, err);
	if (g_clock.on)
		sqlite3_cancel_auto_extension((void (*)(void))clock_extension);
	if (st != LQ_OK) {
		free(fc);
		return st;
	}
	*out = (struct lq_conn *)(void *)fc;
	return LQ_OK;
}

static void f_disconnect(struct lq_conn *c)
{
	if (!c)
		return;
	INNER->disconnect(FC(c)->inner); /* an open transaction rolls back */
	free(FC(c));
}

static lq_status lost(lq_err *err, int sent)
{
	lq__err_set(err, "injected fault: server closed the connection unexpectedly");
	err->sent = sent;
	return LQ_ECONN;
}

static lq_status f_exec(struct lq_conn *c, lq_sql_id id, const lq_value *params, int nparams,
			lq_row_fn fn, void *ctx, int64_t *affected, lq_err *err)
{
	struct fault_conn *fc = FC(c);
	lq_status st;
	if (g_clock.frozen)
		g_clock.at_ms += g_clock.tick;
	switch (next_fault()) {
	case LQT_FAULT_LOST_BEFORE:
		return lost(err, 0);
	case LQT_FAULT_LOST_UNAPPLIED:
		return lost(err, 1);
	case LQT_FAULT_RETRY:
		lq__err_set(err, "injected fault: deadlock detected");
		return LQ__RETRY;
	case LQT_FAULT_LOST_AFTER:
		/* Applied (committed at once outside a transaction), rows unseen. */
		st = INNER->exec(fc->inner, id, params, nparams, NULL, NULL, NULL, err);
		(void)st;
		return lost(err, 1);
	default:
		break;
	}
	st = INNER->exec(fc->inner, id, params, nparams, fn, ctx, affected, err);
	if (st == LQ_OK && !fc->in_tx)
		settled();
	return st;
}

static lq_status f_exec_script(struct lq_conn *c, const char *sql, lq_err *err)
{
	return INNER->exec_script(FC(c)->inner, sql, err);
}

static lq_status f_begin(struct lq_conn *c, int write, lq_err *err)
{
	struct fault_conn *fc = FC(c);
	switch (next_fault()) {
	case LQT_FAULT_LOST_BEFORE:
	case LQT_FAULT_LOST_UNAPPLIED:
	case LQT_FAULT_LOST_AFTER:
		return lost(err, 1);
	case LQT_FAULT_RETRY:
		lq__err_set(err, "injected fault: database is locked");
		return LQ__RETRY;
	default:
		break;
	}
	lq_status st = INNER->begin(fc->inner, write, err);
	fc->in_tx = st == LQ_OK;
	return st;
}

static lq_status f_commit(struct lq_conn *c, lq_err *err)
{
	struct fault_conn *fc = FC(c);
	lq_status st;
	switch (next_fault()) {
	case LQT_FAULT_LOST_BEFORE:
		lost(err, 0);
		return LQ_ECONN; /* never sent: the core drops the connection, which rolls back */
	case LQT_FAULT_LOST_UNAPPLIED:
		(void)INNER->rollback(fc->inner, err);
		fc->in_tx = 0;
		lq__err_set(err, "injected fault: connection lost during COMMIT (rolled back)");
		return LQ_EUNKNOWN;
	case LQT_FAULT_LOST_AFTER:
		st = INNER->commit(fc->inner, err);
		fc->in_tx = 0;
		lq__err_set(err, "injected fault: connection lost during COMMIT (%s)",
			    st == LQ_OK ? "committed" : "failed");
		return LQ_EUNKNOWN;
	case LQT_FAULT_RETRY:
		/* A conflict at COMMIT (a Galera certification failure) ends the
		 * transaction; the library must start it again. */
		(void)INNER->rollback(fc->inner, err);
		fc->in_tx = 0;
		lq__err_set(err, "injected fault: deadlock at COMMIT");
		return LQ__RETRY;
	default:
		break;
	}
	st = INNER->commit(fc->inner, err);
	if (st == LQ_OK) {
		fc->in_tx = 0;
		settled();
	}
	return st;
}

static lq_status f_rollback(struct lq_conn *c, lq_err *err)
{
	FC(c)->in_tx = 0;
	return INNER->rollback(FC(c)->inner, err);
}

static const struct lq_backend fault_backend = {
	.version = LQ_BACKEND_VERSION,
	.name = "sqlite",
	.caps = 0,
	.sql = lq__sql_sqlite,
	.migrations = lq__migrations_sqlite,
	.n_migrations = &lq__migrations_sqlite_count,
	.connect = f_connect,
	.disconnect = f_disconnect,
	.exec = f_exec,
	.exec_script = f_exec_script,
	.begin = f_begin,
	.commit = f_commit,
	.rollback = f_rollback,
};

lq_status lqt_fault_open(const char *dsn, lq_db **out)
{
	return lq__open_backend(dsn, &fault_backend, out);
}
