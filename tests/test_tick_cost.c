/*
 * test_tick_cost.c - what a pseudo-cron tick costs every web hit.  A counting
 * backend wraps the real one (SQLite here; the statement is the same named
 * statement on every dialect) and the test asserts that a tick whose runner
 * lease is held elsewhere, or whose queue has nothing due, runs exactly one
 * statement and opens no transaction.
 */
#include <string.h>

#include "internal.h"
#include "testutil.h"

static struct lq_backend counting;
static const struct lq_backend *real;
static int n_exec, n_begin;
static lq_sql_id last_id;

static lq_status count_exec(struct lq_conn *c, lq_sql_id id, const lq_value *p, int n, lq_row_fn fn,
			    void *ctx, int64_t *affected, lq_err *err)
{
	n_exec++;
	last_id = id;
	return real->exec(c, id, p, n, fn, ctx, affected, err);
}

static lq_status count_begin(struct lq_conn *c, int write, lq_err *err)
{
	n_begin++;
	return real->begin(c, write, err);
}

/* A fresh handle on dsn whose statements are counted. */
static lq_db *counted(const char *dsn)
{
	lq_db *db = lqt_open(dsn);
	assert_non_null(db);
	real = db->be;
	counting = *real;
	counting.exec = count_exec;
	counting.begin = count_begin;
	db->be = &counting;
	n_exec = n_begin = 0;
	return db;
}

static int ok_handler(lq_job *job, void *ctx)
{
	(*(int *)ctx)++;
	return 0;
}

static void tick_cost(void **state)
{
	const char *dsn = lqt_dsn("sqlite");
	lq_db *admin = lqt_open_fresh(dsn);

	/* Nothing due: one read, no transaction. */
	lq_db *db = counted(dsn);
	lq_runner *r;
	int ran = 0;
	assert_int_equal(lq_runner_new(db, NULL, &r), LQ_OK);
	assert_int_equal(lq_runner_handle(r, "*", ok_handler, &ran), LQ_OK);
	lq_run_report rep;
	assert_int_equal(lq_runner_tick(r, 5000, &rep), LQ_OK);
	assert_int_equal(rep.stopped, LQ_STOP_IDLE);
	assert_int_equal(n_exec, 1);
	assert_int_equal(last_id, LQ_SQL_tick_probe);
	assert_int_equal(n_begin, 0);

	/* Work due but the runner lease held by another runner: one read. */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	assert_int_equal(lq_task_add(admin, "t", &o, NULL, NULL), LQ_OK);
	lq_lease held;
	assert_int_equal(lq_lease_acquire(admin, "leaseq:runner:default", 30000, NULL, 0, &held), LQ_OK);
	n_exec = n_begin = 0;
	assert_int_equal(lq_runner_tick(r, 5000, &rep), LQ_BUSY);
	assert_int_equal(rep.stopped, LQ_STOP_HELD);
	assert_int_equal(n_exec, 1);
	assert_int_equal(n_begin, 0);
	assert_int_equal(ran, 0);

	/* Lease free and work due: the tick runs it (and costs more, rightly). */
	assert_int_equal(lq_lease_release(admin, &held), LQ_OK);
	assert_int_equal(lq_runner_tick(r, 5000, &rep), LQ_OK);
	assert_int_equal(ran, 1);
	assert_int_equal(rep.stopped, LQ_STOP_IDLE);

	lq_runner_free(r);
	db->be = real;
	lq_close(db);
	lq_close(admin);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tick_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
