/*
 * conf_abi.c - conformance: a program built against an older leaseq.h (a
 * lower LQ_ABI_VERSION, so a shorter lq_task) gets its own layout back, for
 * each older layout.  A
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

#define GUARD_SIZE (4 * sizeof(lq_task))
#define GUARD_BYTE 0x5a

/* The older layouts, and the one the test plays now. */
#define OLDEST 1
static int layout;

/* sizeof(lq_task) in the layout played: up to the first field the next
 * layout appended, rounded up to the structure's alignment as a compiler
 * rounds it. */
struct task_after_char {
	char c;
	lq_task t;
};

static size_t layout_size(void)
{
	size_t align = offsetof(struct task_after_char, t);
	size_t end = layout == 1 ? offsetof(lq_task, concurrency_key) : offsetof(lq_task, partition);
	return (end + align - 1) / align * align;
}

/* n tasks of the layout played and the guard after them.  The guard ends
 * in a NUL so that a read of a string past the last task stops inside the
 * buffer. */
static unsigned char *old_tasks(size_t n)
{
	size_t size = n * layout_size() + GUARD_SIZE;
	unsigned char *b = malloc(size);

	assert_non_null(b);
	memset(b, GUARD_BYTE, size);
	b[size - 1] = '\0';
	return b;
}

static lq_task *old_at(unsigned char *b, size_t i)
{
	return (lq_task *)(void *)(b + i * layout_size());
}

static void guard_intact(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i + 1 < GUARD_SIZE; i++) {
		if (b[n * layout_size() + i] != GUARD_BYTE)
			fail_msg("byte %zu past %zu tasks of layout %d was written", i, n, layout);
	}
}

static lq_db *open_old(void)
{
	lq_db *db = NULL;

	assert_int_equal(lq_open_ex_abi(lqt_conf_dsn, 0, &db, layout), LQ_OK);
	return db;
}

static void add(lq_db *db, const char *name, const char *payload)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	o.payload = payload;
	o.payload_len = payload ? strlen(payload) : 0;
	assert_lq_ok(db, lq_task_add(db, name, &o, NULL, NULL));
}

static void old_claim_heartbeat_ack_many(void **state)
{
	lq_db *db = open_old();
	unsigned char *b = old_tasks(3);
	size_t got = 0;
	lq_status st[3];

	add(DB(state), "t0", "p0");
	add(DB(state), "t1", "p1");
	add(DB(state), "t2", "p2");
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 60000, old_at(b, 0), 3, &got));
	assert_int_equal(got, 3);
	guard_intact(b, 3);
	for (size_t i = 0; i < 3; i++) {
		char name[8], payload[8];
		snprintf(name, sizeof(name), "t%zu", i);
		snprintf(payload, sizeof(payload), "p%zu", i);
		assert_string_equal(old_at(b, i)->name, name);
		assert_string_equal((const char *)old_at(b, i)->payload, payload);
		assert_true(old_at(b, i)->claim_owner[0] != '\0');
	}
	assert_lq_ok(db, lq_task_heartbeat(db, old_at(b, 2), 60000));
	guard_intact(b, 3);
	assert_lq_ok(db, lq_task_ack_many(db, old_at(b, 0), 3, st));
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(st[i], LQ_OK);
	assert_int_equal(lqt_count_tasks(DB(state), "default", 0), 0);
	for (size_t i = 0; i < 3; i++)
		lq_task_clear_abi(old_at(b, i), layout);
	guard_intact(b, 3);
	free(b);
	lq_close(db);
}

static void old_get_and_clear(void **state)
{
	lq_db *db = open_old();
	unsigned char *b = old_tasks(1);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.concurrency_key = "k";
	o.payload = "hello";
	o.payload_len = 5;
	assert_lq_ok(DB(state), lq_task_add(DB(state), "g", &o, &id, NULL));
	assert_lq_ok(db, lq_task_get(db, id, old_at(b, 0)));
	guard_intact(b, 1);
	assert_int_equal(old_at(b, 0)->id, id);
	assert_string_equal(old_at(b, 0)->name, "g");
	assert_int_equal(old_at(b, 0)->payload_len, 5);
	lq_task_clear_abi(old_at(b, 0), layout);
	guard_intact(b, 1);
	assert_int_equal(old_at(b, 0)->id, 0);
	free(b);
	lq_close(db);
}

/* An at-most-once claim deletes the row; a fail puts it back from the
 * program's task, which has only the fields of its layout to give: layout
 * 1 no concurrency key, neither layout a partition. */
static void old_ack_claim_and_put_back(void **state)
{
	lq_db *db = open_old();
	unsigned char *held = old_tasks(1), *next = old_tasks(2), *amo = old_tasks(2);
	lq_status done_st = LQ_ERROR;
	size_t got = 0;
	lq_task t;

	lq_task_opts keyed = LQ_TASK_OPTS_INIT;
	keyed.concurrency_key = "k";
	keyed.partition = "P";
	add(DB(state), "a", NULL);
	assert_lq_ok(DB(state), lq_task_add(DB(state), "b", &keyed, NULL, NULL));
	add(DB(state), "c", NULL);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 60000, old_at(held, 0), 1, &got));
	assert_lq_ok(db, lq_task_ack_claim(db, old_at(held, 0), &done_st, NULL, LQ_AT_LEAST_ONCE, 60000,
					   old_at(next, 0), 2, &got));
	assert_int_equal(done_st, LQ_OK);
	assert_int_equal(got, 2);
	guard_intact(held, 1);
	guard_intact(next, 2);
	/* b and c, in the fair claim's order */
	assert_int_equal(strcmp(old_at(next, 0)->name, "b") + strcmp(old_at(next, 1)->name, "b"), 'c' - 'b');
	assert_lq_ok(db, lq_task_release(db, old_at(next, 0)));
	assert_lq_ok(db, lq_task_release(db, old_at(next, 1)));

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, old_at(amo, 0), 2, &got));
	assert_int_equal(got, 2);
	guard_intact(amo, 2);
	int b = strcmp(old_at(amo, 0)->name, "b") == 0 ? 0 : 1;
	int64_t id = old_at(amo, b)->id;
	assert_lq_ok(db, lq_task_fail(db, old_at(amo, b), "boom"));
	assert_lq_ok(db, lq_task_release(db, old_at(amo, 1 - b)));
	guard_intact(amo, 2);
	assert_lq_ok(DB(state), lq_task_get(DB(state), id, &t));
	assert_string_equal(t.name, "b");
	assert_string_equal(t.concurrency_key, layout >= 2 ? "k" : "");
	assert_string_equal(t.partition, "");
	lq_task_clear(&t);
	for (size_t i = 0; i < 2; i++)
		lq_task_clear_abi(old_at(next, i), layout);
	lq_task_clear_abi(old_at(held, 0), layout);
	for (size_t i = 0; i < 2; i++)
		lq_task_clear_abi(old_at(amo, i), layout);
	free(held);
	free(next);
	free(amo);
	lq_close(db);
}

/* The tests once per older layout. */
int lqt_conf_abi(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(old_claim_heartbeat_ack_many, lqt_conf_test_setup),
		cmocka_unit_test_setup(old_get_and_clear, lqt_conf_test_setup),
		cmocka_unit_test_setup(old_ack_claim_and_put_back, lqt_conf_test_setup),
	};
	int failed = 0;

	for (layout = OLDEST; layout < LQ_ABI_VERSION; layout++) {
		char name[64];
		snprintf(name, sizeof(name), "abi/layout %d/%s", layout, lqt_conf_backend);
		failed += _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
						  lqt_conf_group_setup, lqt_conf_group_teardown);
	}
	return failed;
}
