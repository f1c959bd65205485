/*
 * test_connloss_ackclaim.c - lq_task_ack_claim (the ack of one task and the
 * claim of the next in one statement or transaction) meets a killed
 * connection while its ack waits on the task row.  As lq_task_ack: one
 * kill is ridden out (the ack is sent again, then the claim is made); two
 * in a row are reported, and then nothing was acked and nothing claimed.
 * The harness: tests/connloss.c.
 */
#include <stdio.h>
#include <string.h>

#include "connloss.h"

static void t_ack_claim_killed(void **state)
{
	char q[200], object[64], sql[512];
	struct cl_agent a;
	lq_task t;
	(void)state;

	cl_name_of(q, sizeof(q), "q-ackclaim");
	int64_t first = cl_add_task(q, NULL, 0);
	int64_t second = cl_add_task(q, NULL, 0);
	snprintf(object, sizeof(object), "task %lld", (long long)first);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_LEAST_ONCE;
	a.io->ttl = 30000;
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, first);
	snprintf(sql, sizeof(sql), "SELECT id FROM lq_task WHERE id = %lld FOR UPDATE", (long long)first);

	/* Killed twice while the ack waits: the ack's outcome is reported
	 * (PostgreSQL: the statement claimed without waiting for the held
	 * row, the ack sent alone after it was lost, unknown, and the task
	 * claimed went back; MySQL: the transaction died, ECONN), nothing was
	 * acked, nothing claimed. */
	lq_status killed_twice = strcmp(lq_backend_name(cl.db), "postgres") == 0 ? LQ_EUNKNOWN : LQ_ECONN;
	cl_lock_with(sql);
	cl_agent_send(&a, AG_ACK_CLAIM);
	for (int i = 0; i < 2; i++) {
		if (cl_wait_victim(&a.v, 1, 10000) != 0)
			fail_msg("the ack never waited on the locked row (attempt %d)", i + 1);
		assert_true(cl_kill_victim(&a.v) >= 1);
	}
	assert_st(cl_agent_wait(&a), killed_twice, a.io->msg);
	assert_int_equal(a.io->ack_st, killed_twice);
	assert_int_equal(a.io->claimed, 0);
	cl_check_msg(a.io->msg, object);
	cl_unlock();
	assert_lq_ok(cl.db, lq_task_get(cl.db, first, &t)); /* not acked */
	lq_task_clear(&t);
	assert_lq_ok(cl.db, lq_task_get(cl.db, second, &t)); /* not claimed */
	assert_string_equal(t.claim_owner, "");
	lq_task_clear(&t);

	/* The agent let go of the first task with the failed call (its
	 * claim stays valid, so a new claim finds the second). */
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	int64_t held = a.io->task_id;
	assert_int_equal(held, second);
	snprintf(sql, sizeof(sql), "SELECT id FROM lq_task WHERE id = %lld FOR UPDATE", (long long)held);

	/* Killed once: it reconnects, acks, and claims the next. */
	int64_t third = cl_add_task(q, NULL, 0);
	cl_lock_with(sql);
	cl_agent_send(&a, AG_ACK_CLAIM);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack never waited on the locked row");
	assert_true(cl_kill_victim(&a.v) >= 1);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack did not try again on a new connection");
	cl_unlock();
	assert_st(cl_agent_wait(&a), LQ_OK, a.io->msg);
	assert_int_equal(a.io->ack_st, LQ_OK);
	assert_int_equal(a.io->claimed, 1);
	assert_int_equal(a.io->task_id, third);
	assert_lq(cl.db, LQ_NOTFOUND, lq_task_get(cl.db, held, &t));
	cl_agent_stop(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_ack_claim_killed, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_ackclaim", tests);
}
