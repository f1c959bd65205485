/*
 * conf_ack_claim.c - conformance: lq_task_ack_claim (ack the task run last
 * and claim the next, in one statement or transaction) and
 * lq_task_ack_many mean exactly lq_task_ack then lq_task_claim: the ack is
 * conditional on its claim and writes its history row and count once, a
 * lost claim is reported while the claim still goes ahead, bad input
 * changes nothing.
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add(lq_db *db, const char *name)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

static void claim(lq_db *db, int64_t ttl, lq_task *t, size_t n)
{
	size_t got = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, ttl, t, n, &got));
	assert_int_equal(got, n);
}

static int count_run(const lq_run *r, void *arg)
{
	assert_int_equal(r->outcome, LQ_RUN_DONE);
	(*(int *)arg)++;
	return 0;
}

/* How many history rows task id has (all must say "done"). */
static int runs_of(lq_db *db, int64_t id)
{
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	int n = 0;

	f.task_id = id;
	assert_lq_ok(db, lq_run_list(db, &f, count_run, &n));
	return n;
}

static int sum_done(const char *queue, const char *name, const lq_run_counts *c, void *arg)
{
	(void)queue;
	(void)name;
	*(int64_t *)arg += c->done;
	return 0;
}

static int64_t done_count(lq_db *db)
{
	int64_t n = 0;

	assert_lq_ok(db, lq_counters(db, NULL, sum_done, &n));
	return n;
}

static int gone(lq_db *db, int64_t id)
{
	lq_task t;
	lq_status st = lq_task_get(db, id, &t);

	lq_task_clear(&t);
	return st == LQ_NOTFOUND;
}

static void ack_claim_acks_and_claims(void **state)
{
	lq_db *db = DB(state);
	lq_task a, next[1];
	size_t got = 9;
	lq_status ack = LQ_ERROR;
	int64_t first = add(db, "one"), second = add(db, "two");

	claim(db, 30000, &a, 1);
	assert_int_equal(a.id, first);
	assert_lq_ok(db, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, next, 1, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 1);
	assert_int_equal(next[0].id, second);
	assert_int_equal(next[0].mode, LQ_AT_LEAST_ONCE);
	assert_int_equal(next[0].attempts, 1);
	assert_true(next[0].claim_owner[0] != '\0');
	assert_string_equal(next[0].name, "two");
	assert_true(gone(db, first));
	assert_int_equal(runs_of(db, first), 1);
	assert_int_equal(done_count(db), 1);
	/* The claim is a real one: a second claimer finds nothing. */
	lq_task other[1];
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, other, 1, &got));

	/* The last one: acked, and nothing left to claim. */
	got = 9;
	ack = LQ_ERROR;
	lq_task none[1];
	assert_lq(db, LQ_EMPTY, lq_task_ack_claim(db, &next[0], &ack, NULL, LQ_AT_LEAST_ONCE, 30000, none, 1, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 0);
	assert_true(gone(db, second));
	assert_int_equal(runs_of(db, second), 1);
	assert_int_equal(done_count(db), 2);
	/* Acked once: a second ack of the same claim is lost and writes nothing. */
	assert_lq(db, LQ_LOST, lq_task_ack(db, &next[0]));
	assert_int_equal(runs_of(db, second), 1);
	assert_int_equal(done_count(db), 2);
	lq_task_clear(&a);
	lq_task_clear(&next[0]);
}

static void ack_claim_nothing_to_ack(void **state)
{
	lq_db *db = DB(state);
	lq_task t[1];
	size_t got = 0;
	lq_status ack = LQ_ERROR;
	int64_t id = add(db, "one");

	assert_lq_ok(db, lq_task_ack_claim(db, NULL, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, t, 1, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 1);
	assert_int_equal(t[0].id, id);
	lq_task_clear(&t[0]);
}

/* The previous claim expired and went to another worker: its ack is lost
 * (no history row), the claim goes ahead, the other worker's claim stays. */
static void ack_claim_lost_previous(void **state)
{
	lq_db *db = DB(state), *db2 = lqt_open(CONF(state)->dsn);
	lq_task a, b, next[1];
	size_t got = 0;
	lq_status ack = LQ_OK;
	int64_t id = add(db, "slow");

	assert_non_null(db2);
	claim(db, 300, &a, 1);
	lqt_sleep_ms(500);
	claim(db2, 30000, &b, 1);
	assert_int_equal(b.id, id);
	int64_t later = add(db, "later");
	assert_lq_ok(db, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, next, 1, &got));
	assert_int_equal(ack, LQ_LOST);
	assert_non_null(strstr(lq_errmsg(db), "claim was lost"));
	assert_int_equal(got, 1);
	assert_int_equal(next[0].id, later);
	assert_int_equal(runs_of(db, id), 0);
	assert_int_equal(done_count(db), 0);
	/* B still holds its claim and finishes it. */
	assert_lq_ok(db2, lq_task_ack(db2, &b));
	assert_int_equal(runs_of(db, id), 1);

	lq_task_clear(&a);
	lq_task_clear(&b);
	lq_task_clear(&next[0]);
	lq_close(db2);
}

/* A claim that expired but nobody took is still ours: the ack settles it,
 * and the task is not claimed again by the same call. */
static void ack_claim_expired_not_reclaimed(void **state)
{
	lq_db *db = DB(state);
	lq_task a, none[1];
	size_t got = 9;
	lq_status ack = LQ_ERROR;
	int64_t id = add(db, "late");

	claim(db, 300, &a, 1);
	lqt_sleep_ms(500);
	assert_lq(db, LQ_EMPTY, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, none, 1, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 0);
	assert_true(gone(db, id));
	assert_int_equal(runs_of(db, id), 1);
	assert_int_equal(done_count(db), 1);
	lq_task_clear(&a);
}

/* Bad input: nothing is acked, nothing claimed. */
static void ack_claim_bad_input(void **state)
{
	lq_db *db = DB(state);
	lq_task a, t[1];
	size_t got = 9;
	lq_status ack = LQ_OK;
	int64_t id = add(db, "kept");

	add(db, "other");
	claim(db, 30000, &a, 1);
	assert_lq(db, LQ_EINVAL, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, t, 0, &got));
	assert_int_equal(ack, LQ_EINVAL);
	assert_int_equal(got, 0);
	assert_lq(db, LQ_EINVAL, lq_task_ack_claim(db, &a, &ack, "", LQ_AT_LEAST_ONCE, 30000, t, 1, &got));
	assert_lq(db, LQ_EINVAL, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, -5, t, 1, &got));
	assert_false(gone(db, id));
	assert_int_equal(runs_of(db, id), 0);
	/* The claim of the other task did not happen either. */
	assert_lq_ok(db, lq_task_ack_claim(db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, t, 1, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 1);
	assert_int_equal(t[0].attempts, 1);
	lq_task_clear(&t[0]);
	lq_task_clear(&a);
}

/* A batch: the acks of the one before go in one call, the last with the
 * next claim; a batch claim after an ack. */
static void ack_many_batch(void **state)
{
	lq_db *db = DB(state);
	lq_task t[3], next[2];
	lq_status sts[3] = {LQ_ERROR, LQ_ERROR, LQ_ERROR};
	size_t got = 0;
	lq_status ack = LQ_ERROR;
	int64_t ids[3];

	for (int i = 0; i < 3; i++)
		ids[i] = add(db, "batch");
	add(db, "batch");
	add(db, "batch");
	claim(db, 30000, t, 3);
	assert_lq_ok(db, lq_task_ack_many(db, t, 2, sts));
	assert_int_equal(sts[0], LQ_OK);
	assert_int_equal(sts[1], LQ_OK);
	assert_lq_ok(db, lq_task_ack_claim(db, &t[2], &ack, NULL, LQ_AT_LEAST_ONCE, 30000, next, 2, &got));
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 2);
	for (int i = 0; i < 3; i++) {
		assert_true(gone(db, ids[i]));
		assert_int_equal(runs_of(db, ids[i]), 1);
	}
	assert_int_equal(done_count(db), 3);
	assert_lq_ok(db, lq_task_ack_many(db, next, 2, NULL));
	assert_int_equal(done_count(db), 5);
	/* Again: every one lost now, nothing written. */
	assert_lq(db, LQ_LOST, lq_task_ack_many(db, next, 2, sts));
	assert_int_equal(sts[0], LQ_LOST);
	assert_int_equal(sts[1], LQ_LOST);
	assert_int_equal(done_count(db), 5);
	for (int i = 0; i < 3; i++)
		lq_task_clear(&t[i]);
	lq_task_clear(&next[0]);
	lq_task_clear(&next[1]);
}

/* One claim of a batch lost: that one says so, the others are acked. */
static void ack_many_one_lost(void **state)
{
	lq_db *db = DB(state), *db2 = lqt_open(CONF(state)->dsn);
	lq_task t[3], b;
	lq_status sts[3] = {LQ_ERROR, LQ_ERROR, LQ_ERROR};
	int64_t ids[3];

	assert_non_null(db2);
	for (int i = 0; i < 3; i++)
		ids[i] = add(db, "batch");
	claim(db, 300, t, 3);
	lqt_sleep_ms(500);
	claim(db2, 30000, &b, 1); /* takes the first, whose claim expired */
	assert_int_equal(b.id, ids[0]);
	assert_lq(db, LQ_LOST, lq_task_ack_many(db, t, 3, sts));
	assert_int_equal(sts[0], LQ_LOST);
	assert_int_equal(sts[1], LQ_OK);
	assert_int_equal(sts[2], LQ_OK);
	assert_int_equal(runs_of(db, ids[0]), 0);
	assert_int_equal(runs_of(db, ids[1]), 1);
	assert_int_equal(runs_of(db, ids[2]), 1);
	assert_int_equal(done_count(db), 2);
	assert_false(gone(db, ids[0]));
	assert_lq_ok(db2, lq_task_ack(db2, &b));
	for (int i = 0; i < 3; i++)
		lq_task_clear(&t[i]);
	lq_task_clear(&b);
	lq_close(db2);
}

static int ok_handler(lq_job *job, void *arg)
{
	(void)job;
	(*(int *)arg)++;
	return 0;
}

struct held_row {
	const char *dsn;
	int64_t acked_id, next_id;
	volatile int locked; /* shared: the child holds the row lock */
};

/* Hold a lock on the task to be acked, as a claim whose snapshot still saw
 * it unclaimed does, until the next task is seen claimed (0) or 5 s pass
 * (1: the claim waited for this transaction). */
static int hold_acked_row(int idx, void *ctx)
{
	(void)idx;
	struct held_row *h = ctx;
	lq_db *locker = lqt_open(h->dsn), *watcher = lqt_open(h->dsn);
	char sql[128];
	int seen = 0;

	LQT_CHECK(locker && watcher, "open");
	snprintf(sql, sizeof(sql), "BEGIN; SELECT id FROM lq_task WHERE id = %lld FOR UPDATE", (long long)h->acked_id);
	LQT_CHECK_ST(locker, LQ_OK, lqt_exec_sql(locker, sql));
	h->locked = 1;
	for (int64_t end = lqt_mono_ms() + 5000; !seen && lqt_mono_ms() < end; lqt_sleep_ms(20)) {
		lq_task t;
		LQT_CHECK_ST(watcher, LQ_OK, lq_task_get(watcher, h->next_id, &t));
		seen = t.claim_owner[0] != '\0';
		lq_task_clear(&t);
	}
	LQT_CHECK_ST(locker, LQ_OK, lqt_exec_sql(locker, "COMMIT"));
	lq_close(locker);
	lq_close(watcher);
	return seen ? 0 : 1;
}

/* Another transaction holds the row of the task being acked (PostgreSQL: a
 * claim whose snapshot predates the task's claim locks the row, finds it
 * changed, skips it, and keeps the lock to its end).  The claim of the next
 * task does not wait for it: it is committed while the row is held.  The
 * ack waits, and settles its claim once, when the row is free. */
static void ack_claim_row_held_elsewhere(void **state)
{
	lqt_conf *c = CONF(state);
	lq_task a, next[1];
	size_t got = 0;
	lq_status ack = LQ_ERROR;
	int64_t first = add(c->db, "one"), second = add(c->db, "two");
	struct held_row *h = lqt_shared_alloc(sizeof(*h));
	int code = -1;

	claim(c->db, 30000, &a, 1);
	assert_int_equal(a.id, first);
	h->dsn = c->dsn;
	h->acked_id = first;
	h->next_id = second;
	pid_t pid = lqt_spawn(0, hold_acked_row, h);
	assert_int_equal(lqt_wait_flag(&h->locked, 10000), 0);
	assert_lq_ok(c->db, lq_task_ack_claim(c->db, &a, &ack, NULL, LQ_AT_LEAST_ONCE, 30000, next, 1, &got));
	lqt_wait_children(&pid, 1, &code, 30);
	assert_int_equal(code, 0); /* the next task was claimed while the row was held */
	assert_int_equal(ack, LQ_OK);
	assert_int_equal(got, 1);
	assert_int_equal(next[0].id, second);
	assert_true(gone(c->db, first));
	assert_int_equal(runs_of(c->db, first), 1);
	assert_int_equal(done_count(c->db), 1);
	lq_task_clear(&a);
	lq_task_clear(&next[0]);
	lqt_shared_free(h, sizeof(*h));
}

/* The at-least-once worker acks each task with the next claim: every run
 * recorded once, every task gone; on PostgreSQL one statement per task
 * (with the ack alone, two). */
static void runner_acks_with_claims(void **state)
{
	lq_db *db = DB(state);
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	lq_run_report rep;
	int ran = 0;
	int64_t ids[20];

	for (int i = 0; i < 20; i++)
		ids[i] = add(db, "job");
	o.mode = LQ_AT_LEAST_ONCE;
	assert_lq_ok(db, lq_runner_new(db, &o, &r));
	assert_lq_ok(db, lq_runner_handle(r, "job", ok_handler, &ran));
	int64_t before = lq_db_statements(db);
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	int64_t sent = lq_db_statements(db) - before;
	assert_int_equal(ran, 20);
	assert_int_equal(rep.ran, 20);
	assert_int_equal(rep.claimed, 20);
	assert_int_equal(rep.stopped, LQ_STOP_IDLE);
	for (int i = 0; i < 20; i++) {
		assert_true(gone(db, ids[i]));
		assert_int_equal(runs_of(db, ids[i]), 1);
	}
	assert_int_equal(done_count(db), 20);
	if (strcmp(lqt_conf_backend, "postgres") == 0)
		assert_true(sent <= 20 + 4);
	lq_runner_free(r);
}

int lqt_conf_ack_claim(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(ack_claim_acks_and_claims, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_claim_nothing_to_ack, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_claim_lost_previous, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_claim_expired_not_reclaimed, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_claim_bad_input, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_many_batch, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_many_one_lost, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_acks_with_claims, lqt_conf_test_setup),
	};
	/* Only PostgreSQL's claims lock rows they then skip: a MariaDB
	 * locking read sees the row as it is now, and SQLite has one writer. */
	const struct CMUnitTest postgres_tests[] = {
		cmocka_unit_test_setup(ack_claim_row_held_elsewhere, lqt_conf_test_setup),
	};
	char name[64];
	int failed;

	snprintf(name, sizeof(name), "ack-claim/%s", lqt_conf_backend);
	failed = _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]), lqt_conf_group_setup,
					 lqt_conf_group_teardown);
	if (strcmp(lqt_conf_backend, "postgres") == 0)
		failed += _cmocka_run_group_tests("ack-claim-held/postgres", postgres_tests, 1, lqt_conf_group_setup,
						  lqt_conf_group_teardown);
	return failed;
}
