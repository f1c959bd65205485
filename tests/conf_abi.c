/*
 * conf_abi.c - conformance: a program built against an older leaseq.h (a
 * lower LQ_ABI_VERSION, so a shorter lq_task) gets its own layout back.  A
 * claim fills its array at its own stride, a get or a clear writes no byte
 * past its structure, and a call given its task reads none past it (a put
 * back task keeps what the program's layout holds, nothing read beyond).
 *
 * The program's tasks live in one buffer end to end, as its compiler laid
 * the array out, followed by guard bytes that no call may touch.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

/* sizeof(lq_task) in layout 1: everything before the first field layout 2
 * appended. */
#define V1_SIZE offsetof(lq_task, concurrency_key)
#define GUARD_SIZE (4 * sizeof(lq_task))
#define GUARD_BYTE 0x5a

/* n tasks of layout 1 and the guard after them.  The guard ends in a NUL so
 * that a read of a string past the last task stops inside the buffer. */
static unsigned char *v1_tasks(size_t n)
{
	unsigned char *b = malloc(n * V1_SIZE + GUARD_SIZE);

	assert_non_null(b);
	memset(b, GUARD_BYTE, n * V1_SIZE + GUARD_SIZE);
	b[n * V1_SIZE + GUARD_SIZE - 1] = '\0';
	return b;
}

static lq_task *v1_at(unsigned char *b, size_t i)
{
	return (lq_task *)(void *)(b + i * V1_SIZE);
}

static void guard_intact(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i + 1 < GUARD_SIZE; i++) {
		if (b[n * V1_SIZE + i] != GUARD_BYTE)
			fail_msg("byte %zu past %zu tasks of layout 1 was written", i, n);
	}
}

static lq_db *open_v1(void)
{
	lq_db *db = NULL;

	assert_int_equal(lq_open_ex_abi(lqt_conf_dsn, 0, &db, 1), LQ_OK);
	return db;
}

static void add(lq_db *db, const char *name, const char *payload)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	o.payload = payload;
	o.payload_len = payload ? strlen(payload) : 0;
	assert_lq_ok(db, lq_task_add(db, name, &o, NULL, NULL));
}

static void abi1_claim_heartbeat_ack_many(void **state)
{
	lq_db *db = open_v1();
	unsigned char *b = v1_tasks(3);
	size_t got = 0;
	lq_status st[3];

	add(DB(state), "t0", "p0");
	add(DB(state), "t1", "p1");
	add(DB(state), "t2", "p2");
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 60000, v1_at(b, 0), 3, &got));
	assert_int_equal(got, 3);
	guard_intact(b, 3);
	for (size_t i = 0; i < 3; i++) {
		char name[8], payload[8];
		snprintf(name, sizeof(name), "t%zu", i);
		snprintf(payload, sizeof(payload), "p%zu", i);
		assert_string_equal(v1_at(b, i)->name, name);
		assert_string_equal((const char *)v1_at(b, i)->payload, payload);
		assert_true(v1_at(b, i)->claim_owner[0] != '\0');
	}
	assert_lq_ok(db, lq_task_heartbeat(db, v1_at(b, 2), 60000));
	guard_intact(b, 3);
	assert_lq_ok(db, lq_task_ack_many(db, v1_at(b, 0), 3, st));
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(st[i], LQ_OK);
	assert_int_equal(lqt_count_tasks(DB(state), "default", 0), 0);
	for (size_t i = 0; i < 3; i++)
		lq_task_clear_abi(v1_at(b, i), 1);
	guard_intact(b, 3);
	free(b);
	lq_close(db);
}

static void abi1_get_and_clear(void **state)
{
	lq_db *db = open_v1();
	unsigned char *b = v1_tasks(1);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.concurrency_key = "k";
	o.payload = "hello";
	o.payload_len = 5;
	assert_lq_ok(DB(state), lq_task_add(DB(state), "g", &o, &id, NULL));
	assert_lq_ok(db, lq_task_get(db, id, v1_at(b, 0)));
	guard_intact(b, 1);
	assert_int_equal(v1_at(b, 0)->id, id);
	assert_string_equal(v1_at(b, 0)->name, "g");
	assert_int_equal(v1_at(b, 0)->payload_len, 5);
	lq_task_clear_abi(v1_at(b, 0), 1);
	guard_intact(b, 1);
	assert_int_equal(v1_at(b, 0)->id, 0);
	free(b);
	lq_close(db);
}

/* An at-most-once claim deletes the row; a fail puts it back from the
 * program's task, which has no concurrency key to give. */
static void abi1_ack_claim_and_put_back(void **state)
{
	lq_db *db = open_v1();
	unsigned char *held = v1_tasks(1), *next = v1_tasks(2), *amo = v1_tasks(1);
	lq_status done_st = LQ_ERROR;
	size_t got = 0;
	lq_task t;

	add(DB(state), "a", NULL);
	add(DB(state), "b", NULL);
	add(DB(state), "c", NULL);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 60000, v1_at(held, 0), 1, &got));
	assert_lq_ok(db, lq_task_ack_claim(db, v1_at(held, 0), &done_st, NULL, LQ_AT_LEAST_ONCE, 60000,
					   v1_at(next, 0), 2, &got));
	assert_int_equal(done_st, LQ_OK);
	assert_int_equal(got, 2);
	guard_intact(held, 1);
	guard_intact(next, 2);
	assert_string_equal(v1_at(next, 0)->name, "b");
	assert_string_equal(v1_at(next, 1)->name, "c");
	assert_lq_ok(db, lq_task_release(db, v1_at(next, 0)));
	assert_lq_ok(db, lq_task_release(db, v1_at(next, 1)));

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, v1_at(amo, 0), 1, &got));
	assert_int_equal(got, 1);
	guard_intact(amo, 1);
	int64_t id = v1_at(amo, 0)->id;
	assert_lq_ok(db, lq_task_fail(db, v1_at(amo, 0), "boom"));
	guard_intact(amo, 1);
	assert_lq_ok(DB(state), lq_task_get(DB(state), id, &t));
	assert_string_equal(t.name, "b");
	assert_string_equal(t.concurrency_key, "");
	lq_task_clear(&t);
	for (size_t i = 0; i < 2; i++)
		lq_task_clear_abi(v1_at(next, i), 1);
	lq_task_clear_abi(v1_at(held, 0), 1);
	lq_task_clear_abi(v1_at(amo, 0), 1);
	free(held);
	free(next);
	free(amo);
	lq_close(db);
}

int lqt_conf_abi(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(abi1_claim_heartbeat_ack_many, lqt_conf_test_setup),
		cmocka_unit_test_setup(abi1_get_and_clear, lqt_conf_test_setup),
		cmocka_unit_test_setup(abi1_ack_claim_and_put_back, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "abi/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
