/*
 * test_connloss_history.c - the run history rows a handle keeps for
 * at-most-once runs meet a killed connection: each run is written once.
 * The harness, and how victims are found and killed: tests/connloss.c.
 */
#include <stdio.h>

#include "connloss.h"

static int count_done(const lq_run *r, void *arg)
{
	*(int64_t *)arg += r->outcome == LQ_RUN_DONE;
	return 0;
}

/* Killed while the history rows of at-most-once runs wait in the handle:
 * each run is in the history once, never twice.  On PostgreSQL the write
 * sees the loss before it sends (the server's farewell is read first) and
 * rides it out on a new connection; MySQL reports the loss only after the
 * statement went out (error 2013), so its fate is unknown (LQ_EUNKNOWN) and
 * the rows are not sent again: none or all of them are there. */
static void t_history_rows_kept(void **state)
{
	char q[200];
	int64_t n = 0;
	struct cl_agent a;
	(void)state;

	cl_name_of(q, sizeof(q), "q-history");
	for (int i = 0; i < 3; i++)
		cl_add_task(q, NULL, 0);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_MOST_ONCE;
	for (int i = 0; i < 3; i++) {
		assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
		assert_st(cl_agent_call(&a, AG_ACK), LQ_OK, a.io->msg);
	}
	assert_true(cl_kill_victim(&a.v) >= 1);
	lq_status st = cl_agent_call(&a, AG_FLUSH);
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	f.queue = q;
	assert_lq_ok(cl.db, lq_run_list(cl.db, &f, count_done, &n));
	if (cl.be == BE_PG || st == LQ_OK) {
		assert_st(st, LQ_OK, a.io->msg);
		assert_int_equal(n, 3);
	} else {
		assert_st(st, LQ_EUNKNOWN, a.io->msg);
		assert_true(n == 0 || n == 3);
	}
	/* Written or given up: nothing is left to send twice. */
	assert_st(cl_agent_call(&a, AG_FLUSH), LQ_OK, a.io->msg);
	n = 0;
	assert_lq_ok(cl.db, lq_run_list(cl.db, &f, count_done, &n));
	assert_true(n == 0 || n == 3);
	cl_agent_stop(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_history_rows_kept, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_history", tests);
}
