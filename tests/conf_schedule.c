/*
 * conf_schedule.c - conformance: recurring tasks (fixed interval and cron),
 * one occurrence per claim, one catch-up run after downtime.
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add_every(lq_db *db, const char *name, int64_t every_ms, int64_t run_at)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.every_ms = every_ms;
	o.run_at = run_at;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

static int64_t add_cron(lq_db *db, const char *name, const char *cron, const char *tz)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.cron = cron;
	o.tz = tz;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

/* Claim one task, waiting up to wait_ms for one to be due. */
static lq_status claim_within(lq_db *db, lq_mode mode, lq_task *t, int64_t wait_ms)
{
	int64_t deadline = lqt_mono_ms() + wait_ms;
	size_t n;
	lq_status st;

	for (;;) {
		st = lq_task_claim(db, NULL, mode, 30000, t, 1, &n);
		if (st != LQ_EMPTY || lqt_mono_ms() > deadline)
			return st;
		lqt_sleep_ms(20);
	}
}

static void claim_none(lq_db *db)
{
	lq_task t;
	size_t n = 99;

	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_int_equal(n, 0);
}

static void sched_every(void **state)
{
	lq_db *db = DB(state);
	lq_task a, b, g;
	/* The claim below comes within ~20 ms of the due time; the interval
	 * keeps the next occurrence in the future for the check after it even
	 * when calls are slow (the retry storm under ASan took over 400 ms). */
	const int64_t every = 2000;
	int64_t id = add_every(db, "tick", every, 0);

	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.every_ms, every);
	assert_true(g.run_at >= g.created_at - 50 && g.run_at <= g.created_at + every + 50);
	lq_task_clear(&g);

	/* One occurrence per claim; the row stays with its next run_at. */
	assert_lq_ok(db, claim_within(db, LQ_AT_MOST_ONCE, &a, every + 2000));
	assert_int_equal(a.id, id);
	assert_int_equal(a.recurring, 1);
	assert_true(a.next_run_at > a.run_at);
	assert_true(a.next_run_at > a.now - 5);
	assert_true(a.next_run_at <= a.now + every + 50);
	claim_none(db);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at, a.next_run_at);
	assert_int_equal(g.dead, 0);
	lq_task_clear(&g);

	/* After the interval it is due again: that occurrence, not a later one. */
	lqt_sleep_ms(a.next_run_at - a.now + 100);
	assert_lq_ok(db, claim_within(db, LQ_AT_MOST_ONCE, &b, 2000));
	assert_int_equal(b.id, id);
	assert_int_equal(b.recurring, 1);
	assert_int_equal(b.run_at, a.next_run_at);
	assert_true(b.next_run_at > b.run_at);
	lq_task_clear(&a);
	lq_task_clear(&b);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_lq_ok(db, lq_task_rm(db, id));
}

static void sched_missed_once(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	/* Down for an hour: 60 missed one-minute slots, offset by 30 s so
	 * that no slot falls near "now". */
	int64_t run_at = now - 3600 * 1000 - 30000;
	int64_t id = add_every(db, "catch-up", 60000, run_at);
	lq_task t, g;
	size_t n;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t.id, id);
	assert_int_equal(t.recurring, 1);
	assert_int_equal(t.run_at, run_at);
	assert_true(t.next_run_at > t.now);
	assert_true(t.next_run_at <= t.now + 60000);
	lq_task_clear(&t);
	/* One catch-up run, not one per missed slot. */
	claim_none(db);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	lq_task_clear(&g);
}

static void sched_cron_first_run(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add_cron(db, "minutely", "* * * * *", NULL);
	int64_t next;
	lq_task g;

	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.cron, "* * * * *");
	assert_int_equal(g.every_ms, 0);
	/* The next minute boundary. */
	assert_int_equal(g.run_at % 60000, 0);
	assert_true(g.run_at > g.created_at - 1000);
	assert_true(g.run_at <= g.created_at + 60000);
	lq_task_clear(&g);

	id = add_cron(db, "hourly", "@hourly", NULL);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at % (3600 * 1000), 0);
	assert_true(g.run_at > g.created_at - 1000);
	assert_true(g.run_at <= g.created_at + 3600 * 1000);
	lq_task_clear(&g);

	/* 03:00 in Berlin is 01:00 or 02:00 UTC, whatever the season. */
	id = add_cron(db, "nightly", "0 3 * * *", "Europe/Berlin");
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.tz, "Europe/Berlin");
	assert_int_equal(g.run_at % (3600 * 1000), 0);
	int64_t hour = (g.run_at / (3600 * 1000)) % 24;
	assert_true(hour == 1 || hour == 2);
	assert_true(g.run_at > g.created_at);
	assert_true(g.run_at <= g.created_at + 25 * 3600 * 1000);
	assert_lq_ok(db, lq_cron_next("0 3 * * *", "Europe/Berlin", g.created_at, &next, NULL, 0));
	assert_int_equal(g.run_at, next);
	lq_task_clear(&g);
	claim_none(db);
}

static void sched_ack_keeps_recurring(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t id = add_every(db, "alo-recurring", 60000, now - 30000);
	lq_task t, g;

	/* at-least-once: acking an occurrence must not delete the schedule. */
	assert_lq_ok(db, claim_within(db, LQ_AT_LEAST_ONCE, &t, 0));
	assert_int_equal(t.id, id);
	assert_int_equal(t.recurring, 1);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 0);
	assert_int_equal(g.run_at, t.next_run_at);
	assert_true(g.run_at > g.now);
	lq_task_clear(&g);
	lq_task_clear(&t);
	claim_none(db);

	/* at-most-once likewise. */
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, claim_within(db, LQ_AT_MOST_ONCE, &t, 0));
	assert_int_equal(t.id, id);
	assert_int_equal(t.recurring, 1);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at, t.next_run_at);
	lq_task_clear(&g);
	lq_task_clear(&t);
}

/* at-most-once: a failed occurrence is over (error recorded), the
 * schedule goes on; never dead. */
static void sched_fail_keeps_schedule(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t id = add_every(db, "fails", 60000, now - 30000);
	lq_task t, g;

	for (int i = 0; i < LQ_DEFAULT_MAX_ATTEMPTS + 1; i++) {
		/* Make it due again, fail it: never dead, error recorded. */
		if (i > 0)
			assert_lq_ok(db, lq_task_retry(db, id));
		assert_lq_ok(db, claim_within(db, LQ_AT_MOST_ONCE, &t, 0));
		assert_int_equal(t.id, id);
		assert_lq_ok(db, lq_task_fail(db, &t, "oops"));
		assert_lq_ok(db, lq_task_get(db, id, &g));
		assert_int_equal(g.dead, 0);
		assert_non_null(g.last_error);
		assert_string_equal(g.last_error, "oops");
		assert_int_equal(g.every_ms, 60000);
		assert_true(g.run_at > g.now);
		lq_task_clear(&g);
		lq_task_clear(&t);
	}
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);
}

/* at-least-once: an occurrence is claimed like a one-off task (owner,
 * lease, attempts), tried again after a failure or a crash, given up after
 * max_attempts, and the schedule goes on.  (Moving run_at at the claim would
 * lose the occurrence to a crash or a failure.) */
static void sched_alo_occurrence(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), due = now - 30000;
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, g;
	int64_t id = 0;
	size_t n;

	o.every_ms = 60000;
	o.run_at = due;
	o.max_attempts = 3;
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id, NULL));
	assert_lq_ok(db, claim_within(db, LQ_AT_LEAST_ONCE, &t, 0));
	assert_int_equal(t.id, id);
	assert_int_equal(t.recurring, 1);
	assert_int_equal(t.run_at, due);
	assert_int_equal(t.attempts, 1);
	assert_string_not_equal(t.claim_owner, "");
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at, due); /* still this occurrence, under our claim */
	assert_string_equal(g.claim_owner, t.claim_owner);
	lq_task_clear(&g);
	/* Held: neither mode takes it from us. */
	claim_none(db);
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 0, &g, 1, &n));
	assert_lq_ok(db, lq_task_heartbeat(db, &t, 30000));

	/* A failure: the same occurrence again after a back-off. */
	assert_lq_ok(db, lq_task_fail(db, &t, "oops"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at, due);
	assert_string_equal(g.claim_owner, "");
	assert_true(g.claim_until > g.now);
	assert_int_equal(g.attempts, 1);
	assert_string_equal(g.last_error, "oops");
	lq_task_clear(&g);
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 0, &g, 1, &n));

	/* retry = due now; a crash (the claim expires) runs it again. */
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 100, &t, 1, &n));
	assert_int_equal(t.run_at, due);
	assert_int_equal(t.attempts, 2);
	lq_task_clear(&t);
	assert_lq_ok(db, claim_within(db, LQ_AT_LEAST_ONCE, &t, 5000));
	assert_int_equal(t.run_at, due);
	assert_int_equal(t.attempts, 3);

	/* The last attempt fails: this occurrence is given up, not the task. */
	assert_lq_ok(db, lq_task_fail(db, &t, "still failing"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 0);
	assert_true(g.run_at > g.now);
	assert_int_equal(g.attempts, 0);
	assert_string_equal(g.claim_owner, "");
	assert_string_equal(g.last_error, "still failing");
	lq_task_clear(&g);

	/* Success moves on to the next occurrence too. */
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, claim_within(db, LQ_AT_LEAST_ONCE, &t, 0));
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	assert_int_equal(g.attempts, 0);
	assert_string_equal(g.claim_owner, "");
	lq_task_clear(&g);
	lq_task_clear(&t);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);

	/* A worker lost on the last attempt: the occurrence is given up with
	 * that reason when the claim has expired. */
	o.max_attempts = 1;
	o.run_at = due;
	assert_lq_ok(db, lq_task_add(db, "fragile", &o, &id, NULL));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 100, &t, 1, &n));
	assert_int_equal(t.id, id);
	lq_task_clear(&t);
	lqt_sleep_ms(250);
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 0, &t, 1, &n));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	assert_string_equal(g.claim_owner, "");
	assert_non_null(strstr(g.last_error, "claim expired"));
	lq_task_clear(&g);
}

static void sched_unique_recurring(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id1, id2;
	int existed;

	/* The usual "install my cron job at every start" pattern. */
	o.cron = "*/5 * * * *";
	o.unique_key = "cleanup-job";
	assert_lq_ok(db, lq_task_add(db, "cleanup", &o, &id1, &existed));
	assert_int_equal(existed, 0);
	assert_lq_ok(db, lq_task_add(db, "cleanup", &o, &id2, &existed));
	assert_int_equal(existed, 1);
	assert_int_equal(id1, id2);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
}

int lqt_conf_schedule(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(sched_every, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_missed_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_cron_first_run, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_ack_keeps_recurring, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_fail_keeps_schedule, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_alo_occurrence, lqt_conf_test_setup),
		cmocka_unit_test_setup(sched_unique_recurring, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "schedule/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
