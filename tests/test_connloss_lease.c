/*
 * test_connloss_lease.c - lease renewals meet a killed connection: the
 * lease is kept when it could be, reported lost when it was taken.
 * The harness, and how victims are found and killed: tests/connloss.c.
 */
#include <stdio.h>

#include "connloss.h"

/* ------------------------------------------------------------- leases */

/* Killed while holding a lease, and while a renewal waits on the lease row:
 * that renewal says ECONN, the next one reconnects and keeps the lease. */
static void t_renew(void **state)
{
	char name[200], object[240], sql[512];
	struct cl_agent a;
	lq_lease cur;
	(void)state;

	cl_name_of(name, sizeof(name), "renew");
	snprintf(object, sizeof(object), "lease \"%s\"", name);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", name);
	a.io->ttl = 20000;
	assert_st(cl_agent_call(&a, AG_ACQUIRE), LQ_OK, a.io->msg);
	int64_t token = a.io->token;

	assert_true(cl_kill_victim(&a.v) >= 1);
	assert_st(cl_agent_call(&a, AG_RENEW), LQ_ECONN, a.io->msg);
	cl_check_msg(a.io->msg, object);
	assert_st(cl_agent_call(&a, AG_RENEW), LQ_OK, a.io->msg);
	assert_int_equal(a.io->token, token);

	snprintf(sql, sizeof(sql), "SELECT token FROM lq_lease WHERE name = '%s' FOR UPDATE", name);
	cl_lock_with(sql);
	cl_agent_send(&a, AG_RENEW);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the renewal never waited on the locked row");
	assert_true(cl_kill_victim(&a.v) >= 1);
	assert_st(cl_agent_wait(&a), LQ_ECONN, a.io->msg);
	cl_check_msg(a.io->msg, object);
	cl_unlock();
	assert_st(cl_agent_call(&a, AG_RENEW), LQ_OK, a.io->msg);
	assert_st(cl_agent_call(&a, AG_CHECK), LQ_OK, a.io->msg);
	assert_int_equal(a.io->token, token);

	assert_lq_ok(cl.db, lq_lease_get(cl.db, name, &cur));
	assert_true(lq_lease_held(&cur));
	assert_int_equal(cur.token, token);
	cl_agent_stop(&a);
}

/* Killed, and the lease expires and is taken meanwhile: the renewal that
 * meets the dead connection says ECONN, the next one LQ_LOST. */
static void t_renew_lost(void **state)
{
	char name[200], object[240];
	struct cl_agent a;
	lq_lease cur, mine;
	(void)state;

	cl_name_of(name, sizeof(name), "renew-lost");
	snprintf(object, sizeof(object), "lease \"%s\"", name);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", name);
	a.io->ttl = 1000;
	assert_st(cl_agent_call(&a, AG_ACQUIRE), LQ_OK, a.io->msg);
	int64_t token = a.io->token;
	assert_true(cl_kill_victim(&a.v) >= 1);

	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) {
		assert_lq_ok(cl.db, lq_lease_get(cl.db, name, &cur));
		if (!lq_lease_held(&cur))
			break;
		assert_true(lqt_mono_ms() < deadline);
		lqt_sleep_ms(50);
	}
	assert_lq_ok(cl.db, lq_lease_acquire(cl.db, name, 30000, "lqt-thief", 0, &mine));
	assert_true(mine.token > token);

	assert_st(cl_agent_call(&a, AG_RENEW), LQ_ECONN, a.io->msg);
	cl_check_msg(a.io->msg, object);
	assert_st(cl_agent_call(&a, AG_RENEW), LQ_LOST, a.io->msg);
	cl_check_msg(a.io->msg, object);
	assert_st(cl_agent_call(&a, AG_CHECK), LQ_LOST, a.io->msg);
	assert_lq_ok(cl.db, lq_lease_release(cl.db, &mine));
	cl_agent_stop(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_renew, cl_test_teardown),
		cmocka_unit_test_teardown(t_renew_lost, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_lease", tests);
}
