/*
 * test_connloss_task.c - a task's claim, heartbeat and ack meet a killed
 * connection: between calls and while the statement waits on a lock.
 * The harness, and how victims are found and killed: tests/connloss.c.
 */
#include <stdio.h>
#include <string.h>

#include "connloss.h"

/* Killed between two claims: the next claim says ECONN, the one after that
 * reconnects and claims the next task. */
static void t_claim_between(void **state)
{
	char q[200];
	int64_t ids[3];
	struct cl_agent a;
	(void)state;

	cl_name_of(q, sizeof(q), "q-between");
	for (int i = 0; i < 3; i++)
		ids[i] = cl_add_task(q, NULL, 0);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_MOST_ONCE;
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, ids[0]);

	assert_true(cl_kill_victim(&a.v) >= 1);
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_ECONN, a.io->msg);
	cl_check_msg(a.io->msg, q);
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, ids[1]);
	assert_int_equal(lqt_count_tasks(cl.db, q, 0), 1);
	cl_agent_stop(&a);
}

/*
 * Killed inside the claim transaction.  A task whose at-least-once claim
 * expired on its last attempt is buried by the next claim (INSERT into
 * lq_task_dead, in the claim transaction, with the candidate row locked).
 * The locker holds an uncommitted lq_task_dead row with that id, so the
 * INSERT waits on the key; then the victim is killed.  Its transaction is
 * rolled back (the task is still live), and the next claim reconnects and
 * buries it.
 */
static void t_claim_inside(void **state)
{
	char q[200], sql[512];
	struct cl_agent a;
	lq_task t;
	(void)state;

	cl_name_of(q, sizeof(q), "q-inside");
	int64_t id = cl_add_task(q, NULL, 1);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_LEAST_ONCE;
	a.io->ttl = 200;
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, id);
	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) { /* until the claim has expired on the database clock */
		assert_lq_ok(cl.db, lq_task_get(cl.db, id, &t));
		int expired = t.claim_until <= t.now;
		lq_task_clear(&t);
		if (expired)
			break;
		assert_true(lqt_mono_ms() < deadline);
		lqt_sleep_ms(20);
	}

	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task_dead (id, queue, name, run_at, attempts, max_attempts, created_at, died_at) "
		 "VALUES (%lld, 'lqt-lock', 'lqt-lock', 0, 0, 1, 0, 0)",
		 (long long)id);
	cl_lock_with(sql);
	a.io->mode = LQ_AT_MOST_ONCE;
	cl_agent_send(&a, AG_CLAIM);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the claim never waited on the locked key");
	assert_true(cl_kill_victim(&a.v) >= 1);
	assert_st(cl_agent_wait(&a), LQ_ECONN, a.io->msg);
	snprintf(sql, sizeof(sql), "task %lld", (long long)id);
	cl_check_msg(a.io->msg, sql);
	cl_unlock();

	assert_lq_ok(cl.db, lq_task_get(cl.db, id, &t));
	assert_int_equal(t.dead, 0); /* the killed transaction buried nothing */
	assert_true(t.claim_owner[0] != '\0');
	lq_task_clear(&t);

	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_EMPTY, a.io->msg);
	assert_lq_ok(cl.db, lq_task_get(cl.db, id, &t));
	assert_int_equal(t.dead, 1);
	lq_task_clear(&t);
	cl_agent_stop(&a);
}

/* ------------------------------------------------ heartbeat and ack */

/* An at-least-once claim: killed while a heartbeat and an ack wait on the
 * task row, and between calls.  One kill is ridden out (the call reconnects
 * and settles the still valid claim); two in a row say ECONN and change
 * nothing, and the claim survives to be acknowledged. */
static void t_heartbeat_ack(void **state)
{
	char q[200], object[64], sql[512];
	struct cl_agent a;
	lq_task t;
	(void)state;

	cl_name_of(q, sizeof(q), "q-beat");
	int64_t id = cl_add_task(q, NULL, 0);
	snprintf(object, sizeof(object), "task %lld", (long long)id);
	cl_agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_LEAST_ONCE;
	a.io->ttl = 30000;
	assert_st(cl_agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, id);
	snprintf(sql, sizeof(sql), "SELECT id FROM lq_task WHERE id = %lld FOR UPDATE", (long long)id);

	/* One lost connection is ridden out: the heartbeat reconnects and
	 * extends the claim, which is still valid. */
	cl_lock_with(sql);
	cl_agent_send(&a, AG_BEAT);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the heartbeat never waited on the locked row");
	assert_true(cl_kill_victim(&a.v) >= 1);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the heartbeat did not try again on a new connection");
	cl_unlock();
	assert_st(cl_agent_wait(&a), LQ_OK, a.io->msg);

	/* Two in a row are reported. */
	cl_lock_with(sql);
	cl_agent_send(&a, AG_BEAT);
	for (int i = 0; i < 2; i++) {
		if (cl_wait_victim(&a.v, 1, 10000) != 0)
			fail_msg("the heartbeat never waited on the locked row (attempt %d)", i + 1);
		assert_true(cl_kill_victim(&a.v) >= 1);
	}
	assert_st(cl_agent_wait(&a), LQ_ECONN, a.io->msg);
	cl_check_msg(a.io->msg, object);
	cl_unlock();
	assert_st(cl_agent_call(&a, AG_BEAT), LQ_OK, a.io->msg);

	/* An idle connection killed under it: the next heartbeat reconnects. */
	assert_true(cl_kill_victim(&a.v) >= 1);
	assert_st(cl_agent_call(&a, AG_BEAT), LQ_OK, a.io->msg);

	/* An ack killed twice while it waits deleted nothing.  PostgreSQL
	 * acks in one statement that commits by itself: the second was sent,
	 * so to the caller its outcome is unknown, as a COMMIT's.  MySQL acks
	 * in a transaction, which a lost connection rolls back: LQ_ECONN. */
	lq_status killed_twice = strcmp(lq_backend_name(cl.db), "postgres") == 0 ? LQ_EUNKNOWN : LQ_ECONN;
	cl_lock_with(sql);
	cl_agent_send(&a, AG_ACK);
	for (int i = 0; i < 2; i++) {
		if (cl_wait_victim(&a.v, 1, 10000) != 0)
			fail_msg("the ack never waited on the locked row (attempt %d)", i + 1);
		assert_true(cl_kill_victim(&a.v) >= 1);
	}
	assert_st(cl_agent_wait(&a), killed_twice, a.io->msg);
	cl_check_msg(a.io->msg, object);
	cl_unlock();
	assert_lq_ok(cl.db, lq_task_get(cl.db, id, &t)); /* the killed ack deleted nothing */
	lq_task_clear(&t);

	/* Killed once: it reconnects and acks. */
	cl_lock_with(sql);
	cl_agent_send(&a, AG_ACK);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack never waited on the locked row");
	assert_true(cl_kill_victim(&a.v) >= 1);
	if (cl_wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack did not try again on a new connection");
	cl_unlock();
	assert_st(cl_agent_wait(&a), LQ_OK, a.io->msg);
	assert_lq(cl.db, LQ_NOTFOUND, lq_task_get(cl.db, id, &t));
	cl_agent_stop(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_claim_between, cl_test_teardown),
		cmocka_unit_test_teardown(t_claim_inside, cl_test_teardown),
		cmocka_unit_test_teardown(t_heartbeat_ack, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_task", tests);
}
