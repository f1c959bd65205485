/*
 * conf_steer.c - conformance: recurring tasks operators can steer.  The
 * catch-up bound after downtime, resume without a burst, one extra
 * occurrence now that leaves the schedule where it was, editing a schedule
 * in place (also under a live claim), the overlap policies of at-least-once
 * occurrences, and the dead-man check's last success.
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add_steered(lq_db *db, const char *name, int64_t every_ms, int64_t run_at, lq_overlap overlap,
			   int catch_up, int64_t alert_after_ms)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.every_ms = every_ms;
	o.run_at = run_at;
	o.overlap = overlap;
	o.catch_up = catch_up;
	o.alert_after_ms = alert_after_ms;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

/* How many occurrences claims get, one at a time, until none is due. */
static int claim_all(lq_db *db, lq_mode mode)
{
	lq_task t;
	size_t n = 0;
	int runs = 0;

	for (int i = 0; i < 200; i++) {
		lq_status st = lq_task_claim(db, NULL, mode, 30000, &t, 1, &n);
		if (st == LQ_EMPTY)
			return runs;
		assert_lq_ok(db, st);
		assert_int_equal(n, 1);
		if (t.mode == LQ_AT_LEAST_ONCE)
			assert_lq_ok(db, lq_task_ack(db, &t));
		lq_task_clear(&t);
		runs++;
	}
	fail_msg("claims never ran out");
	return runs;
}

static void steer_options(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_schedule s;
	int64_t id = add_steered(db, "steered", 60000, 0, LQ_OVERLAP_QUEUE, 4, 3600000);

	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.id, id);
	assert_string_equal(s.name, "steered");
	assert_int_equal(s.every_ms, 60000);
	assert_int_equal(s.overlap, LQ_OVERLAP_QUEUE);
	assert_int_equal(s.catch_up, 4);
	assert_int_equal(s.alert_after_ms, 3600000);
	assert_int_equal(s.last_success_at, 0);
	assert_int_equal(s.overdue, 0);

	/* once and skip read as catch-up 1 and 0. */
	o.cron = "*/5 * * * *";
	o.missed = LQ_MISSED_SKIP;
	assert_lq_ok(db, lq_task_add(db, "skipper", &o, &id, NULL));
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.catch_up, 0);
	assert_int_equal(s.overlap, LQ_OVERLAP_DEFAULT);

	/* Bad input changes nothing. */
	int64_t before = lqt_count_tasks(db, NULL, 0);
	lq_task_opts bad = LQ_TASK_OPTS_INIT;
	bad.overlap = LQ_OVERLAP_SKIP; /* not recurring */
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "one-off", &bad, NULL, NULL));
	assert_non_null(strstr(lq_errmsg(db), "one-off"));
	bad.every_ms = 1000;
	bad.overlap = (lq_overlap)7;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "x", &bad, NULL, NULL));
	bad.overlap = LQ_OVERLAP_DEFAULT;
	bad.catch_up = LQ_CATCH_UP_MAX + 1;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "x", &bad, NULL, NULL));
	bad.catch_up = 2;
	bad.missed = LQ_MISSED_SKIP;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "x", &bad, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), before);
	/* Version 1 options still work (the new fields are not read). */
	lq_task_opts v1 = LQ_TASK_OPTS_INIT;
	v1.version = 1;
	v1.every_ms = 1000;
	assert_lq_ok(db, lq_task_add(db, "v1", &v1, &id, NULL));
	assert_lq(db, LQ_NOTFOUND, lq_schedule_get(db, 999999999, &s));
}

static void steer_catch_up(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	/* Down for ten slots (offset by 30 s, away from any slot). */
	int64_t id = add_steered(db, "three", 60000, now - 600000 - 30000, LQ_OVERLAP_DEFAULT, 3, 0);
	lq_task g;

	assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 3);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	lq_task_clear(&g);
	assert_lq_ok(db, lq_task_rm(db, id));

	now = lqt_db_now(db);
	id = add_steered(db, "three-alo", 60000, now - 600000 - 30000, LQ_OVERLAP_DEFAULT, 3, 0);
	assert_int_equal(claim_all(db, LQ_AT_LEAST_ONCE), 3);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	lq_task_clear(&g);
	assert_lq_ok(db, lq_task_rm(db, id));

	/* A cron schedule walks its slots: ten hours down, at most four runs
	 * (hourly, so that no new slot comes due while the test claims). */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	now = lqt_db_now(db);
	o.cron = "0 * * * *";
	o.run_at = (now - 36000000) / 3600000 * 3600000;
	o.catch_up = 4;
	assert_lq_ok(db, lq_task_add(db, "hourly", &o, &id, NULL));
	assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 4);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	assert_int_equal(g.run_at % 3600000, 0);
	lq_task_clear(&g);
}

static void steer_resume_no_burst(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	/* Paused across ten slots, with a catch-up bound of 5: resuming is
	 * not downtime, and runs one late occurrence, not five. */
	int64_t id = add_steered(db, "paused", 60000, now - 600000 - 30000, LQ_OVERLAP_DEFAULT, 5, 0);
	lq_task g;

	assert_lq_ok(db, lq_task_pause(db, id, 1));
	assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 0);
	assert_lq_ok(db, lq_task_pause(db, id, 0));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.paused, 0);
	/* The schedule keeps its phase: the late occurrence is a slot. */
	assert_int_equal((g.run_at - (now - 600000 - 30000)) % 60000, 0);
	lq_task_clear(&g);
	assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 1);

	/* skip: none at all. */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.every_ms = 60000;
	o.run_at = now - 600000 - 30000;
	o.missed = LQ_MISSED_SKIP;
	assert_lq_ok(db, lq_task_add(db, "paused-skip", &o, &id, NULL));
	assert_lq_ok(db, lq_task_pause(db, id, 1));
	assert_lq_ok(db, lq_task_pause(db, id, 0));
	assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 0);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	lq_task_clear(&g);
}

static void steer_run_now(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add_steered(db, "hourly", 3600000, 0, LQ_OVERLAP_DEFAULT, 0, 0);
	lq_task g, t;
	lq_schedule s;
	size_t n;

	for (int mode = LQ_AT_MOST_ONCE; mode <= LQ_AT_LEAST_ONCE; mode++) {
		assert_lq_ok(db, lq_task_get(db, id, &g));
		int64_t regular = g.run_at;
		assert_true(regular > g.now);
		lq_task_clear(&g);

		assert_lq_ok(db, lq_task_run_now(db, id));
		assert_lq_ok(db, lq_schedule_get(db, id, &s));
		assert_true(s.run_at <= s.now);
		assert_int_equal(s.next_at, regular);
		/* A second one while the first is pending: refused. */
		assert_lq(db, LQ_BUSY, lq_task_run_now(db, id));

		assert_lq_ok(db, lq_task_claim(db, NULL, (lq_mode)mode, 30000, &t, 1, &n));
		assert_int_equal(t.id, id);
		assert_int_equal(t.recurring, 1);
		assert_int_equal(t.next_run_at, regular);
		assert_lq_ok(db, lq_task_ack(db, &t));
		lq_task_clear(&t);
		/* The regular occurrence is where it was, and it is the only one. */
		assert_lq_ok(db, lq_task_get(db, id, &g));
		assert_int_equal(g.run_at, regular);
		lq_task_clear(&g);
		assert_lq_ok(db, lq_schedule_get(db, id, &s));
		assert_int_equal(s.next_at, 0);
		assert_true(s.last_success_at > 0);
		assert_int_equal(claim_all(db, LQ_AT_MOST_ONCE), 0);
	}

	/* Paused: refused, nothing changed. */
	assert_lq_ok(db, lq_task_pause(db, id, 1));
	assert_lq(db, LQ_BUSY, lq_task_run_now(db, id));
	assert_non_null(strstr(lq_errmsg(db), "paused"));
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_true(s.run_at > s.now);
	assert_lq(db, LQ_NOTFOUND, lq_task_run_now(db, 999999999));

	/* A one-off task: due now, as retry makes it. */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.delay_ms = 3600000;
	assert_lq_ok(db, lq_task_add(db, "later", &o, &id, NULL));
	assert_lq_ok(db, lq_task_run_now(db, id));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at <= g.now);
	lq_task_clear(&g);
}

static void steer_edit(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add_steered(db, "edited", 60000, 0, LQ_OVERLAP_SKIP, 2, 0);
	int64_t next = 0, before;
	lq_task g, t;
	lq_schedule s;
	size_t n;

	assert_lq_ok(db, lq_task_edit_schedule(db, id, 7200000, NULL, NULL, &next));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.every_ms, 7200000);
	assert_int_equal(g.run_at, next);
	assert_true(next > g.now + 7000000 && next <= g.now + 7200000);
	lq_task_clear(&g);

	assert_lq_ok(db, lq_task_edit_schedule(db, id, 0, "0 3 * * *", "Europe/Berlin", &next));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.every_ms, 0);
	assert_string_equal(g.cron, "0 3 * * *");
	assert_string_equal(g.tz, "Europe/Berlin");
	assert_int_equal(g.run_at, next);
	assert_int_equal(g.run_at % 3600000, 0);
	lq_task_clear(&g);
	/* The policies stay. */
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.overlap, LQ_OVERLAP_SKIP);
	assert_int_equal(s.catch_up, 2);

	/* Bad input: nothing changes. */
	assert_lq(db, LQ_EINVAL, lq_task_edit_schedule(db, id, 0, "61 * * * *", NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_edit_schedule(db, id, 5, NULL, NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_edit_schedule(db, id, 1000, "* * * * *", NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_edit_schedule(db, id, 1000, NULL, "Europe/Berlin", NULL));
	assert_lq(db, LQ_NOTFOUND, lq_task_edit_schedule(db, 999999999, 1000, NULL, NULL, NULL));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.cron, "0 3 * * *");
	assert_int_equal(g.run_at, next);
	lq_task_clear(&g);
	int64_t one = 0;
	assert_lq_ok(db, lq_task_add(db, "one-off", NULL, &one, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_edit_schedule(db, one, 1000, NULL, NULL, NULL));
	assert_non_null(strstr(lq_errmsg(db), "not a recurring task"));
	assert_lq_ok(db, lq_task_rm(db, one));

	/* Under a live at-least-once claim: the occurrence keeps running and
	 * its ack moves on to the new schedule. */
	assert_lq_ok(db, lq_task_edit_schedule(db, id, 60000, NULL, NULL, NULL));
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(t.id, id);
	before = t.run_at;
	assert_lq_ok(db, lq_task_edit_schedule(db, id, 7200000, NULL, NULL, &next));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.claim_owner, t.claim_owner);
	assert_int_equal(g.run_at, before);
	lq_task_clear(&g);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.run_at, next);
	assert_int_equal(g.every_ms, 7200000);
	lq_task_clear(&g);
}

static void steer_overlap(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task t, u;
	size_t n;

	/* A 1 s schedule whose occurrence runs for 1.5 s (one slot comes due
	 * meanwhile; the claims come well within the first second). */
	int64_t q = add_steered(db, "queued", 1000, now - 10, LQ_OVERLAP_QUEUE, 0, 0);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(t.id, q);
	lqt_sleep_ms(1500);
	assert_lq_ok(db, lq_task_ack(db, &t));
	/* queue: the one that came due meanwhile runs right after. */
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &u, 1, &n));
	assert_int_equal(u.id, q);
	assert_int_equal(u.run_at, t.run_at + 1000);
	assert_lq_ok(db, lq_task_ack(db, &u));
	lq_task_clear(&t);
	lq_task_clear(&u);
	assert_lq_ok(db, lq_task_rm(db, q));

	/* skip: dropped, the next one is in the future. */
	now = lqt_db_now(db);
	int64_t s = add_steered(db, "skipped", 1000, now - 10, LQ_OVERLAP_SKIP, 0, 0);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(t.id, s);
	lqt_sleep_ms(1500);
	int64_t acked = lqt_db_now(db);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_task_get(db, s, &u));
	/* After the ack's instant, not after the read's: a slot a second
	 * apart can be due again by the time a busy machine reads it. */
	assert_true(u.run_at > acked);
	lq_task_clear(&u);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_rm(db, s));

	/* cancel-previous: the holder's heartbeat finds its claim revoked
	 * (a cancel, as `task cancel` is), its ack and fail are refused, the
	 * run is recorded "cancelled" once, and the new occurrence is claimed. */
	now = lqt_db_now(db);
	int64_t c = add_steered(db, "cancelling", 1000, now - 10, LQ_OVERLAP_CANCEL_PREVIOUS, 0, 0);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(t.id, c);
	lqt_sleep_ms(1200);
	assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t, 30000));
	assert_non_null(strstr(lq_errmsg(db), "cancel-previous"));
	assert_lq(db, LQ_REVOKED, lq_task_ack(db, &t));
	assert_lq(db, LQ_REVOKED, lq_task_fail(db, &t, "stopped"));
	struct lqt_runs rs;
	lqt_runs_of(db, c, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_CANCELLED);
	assert_int_equal(rs.r[0].run_at, t.run_at);
	assert_non_null(strstr(rs.err[0], "cancel-previous"));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &u, 1, &n));
	assert_int_equal(u.id, c);
	assert_true(u.run_at > t.run_at);
	assert_lq_ok(db, lq_task_ack(db, &u));
	lqt_runs_of(db, c, &rs);
	assert_int_equal(rs.n, 2);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	lq_task_clear(&t);
	lq_task_clear(&u);
}

/* A named overlap policy holds for at-most-once workers too: the occurrence
 * is claimed with a claim (as at-least-once), so the row shows that it runs. */
/* One at-most-once claim, which must get task id. */
static void claim_at_most_once(lq_db *db, lq_task *t, int64_t id)
{
	size_t n = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 30000, t, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t->id, id);
}

static void steer_overlap_at_most_once(void **state)
{
	lq_db *db = DB(state);
	lq_task t, u;
	size_t n = 0;

	int64_t now = lqt_db_now(db);
	int64_t s = add_steered(db, "skipped", 1000, now - 10, LQ_OVERLAP_SKIP, 0, 0);
	claim_at_most_once(db, &t, s);
	assert_int_equal(t.mode, LQ_AT_LEAST_ONCE);
	assert_true(t.claim_owner[0] != '\0');
	lqt_sleep_ms(1500);
	/* The next slot is due, but the previous occurrence still runs. */
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 30000, &u, 1, &n));
	int64_t acked = lqt_db_now(db);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_task_get(db, s, &u));
	assert_true(u.run_at > acked); /* skip: the slots due meanwhile were dropped */
	lq_task_clear(&u);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_rm(db, s));

	int64_t c = add_steered(db, "cancelling", 1000, now - 10, LQ_OVERLAP_CANCEL_PREVIOUS, 0, 0);
	claim_at_most_once(db, &t, c);
	lqt_sleep_ms(1200);
	assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t, 30000));
	claim_at_most_once(db, &u, c);
	assert_true(u.run_at > t.run_at);
	assert_lq_ok(db, lq_task_ack(db, &u));
	lq_task_clear(&t);
	lq_task_clear(&u);
	assert_lq_ok(db, lq_task_rm(db, c));

	/* Without a named policy an at-most-once claim stays as it was. */
	int64_t d = add_steered(db, "plain", 1000, now - 10, LQ_OVERLAP_DEFAULT, 0, 0);
	claim_at_most_once(db, &t, d);
	assert_int_equal(t.mode, LQ_AT_MOST_ONCE);
	lq_task_clear(&t);
}

/* The ids of tasks[0..n) are all different. */
static void assert_distinct(const lq_task *tasks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_int_not_equal(tasks[i].id, tasks[j].id);
}

/* A batch claim takes one occurrence of a recurring task, however many are
 * due: a claim looks again after it made room (an expired last attempt
 * buried) and, in a queue with partitions, after every round; a kept
 * catch-up slot is due at once, but it is the next claim's. */
static void steer_batch_one_occurrence(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t[8];
	size_t n = 0;
	int64_t stale = 0;

	for (int fair = 0; fair < 2; fair++) {
		o.max_attempts = 1;
		o.partition = fair ? "tenant" : NULL;
		assert_lq_ok(db, lq_task_add(db, "stale", &o, &stale, NULL));
		assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 50, t, 1, &n));
		assert_int_equal(n, 1);
		assert_int_equal(t[0].id, stale);
		lq_task_clear(&t[0]);
		lqt_sleep_ms(300); /* its claim expires on its last attempt */
		int64_t now = lqt_db_now(db);
		/* Down for ten slots, three to run (offset by 30 s, away from any slot). */
		int64_t id = add_steered(db, "burst", 60000, now - 600000 - 30000, LQ_OVERLAP_DEFAULT, 3, 0);

		for (int run = 0; run < 3; run++) {
			assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 30000, t, 8, &n));
			assert_int_equal(n, 1);
			assert_int_equal(t[0].id, id);
			assert_distinct(t, n);
			lq_task_clear(&t[0]);
		}
		assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 30000, t, 8, &n));
		assert_lq_ok(db, lq_task_rm(db, id));
	}
}

/* One at-most-once claim of queue q (nothing else due there): the
 * statements it sent; *t receives the task. */
static int64_t claim_counted(lq_db *db, const char *q, lq_task *t)
{
	size_t n = 0;
	int64_t before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_claim(db, q, LQ_AT_MOST_ONCE, 30000, t, 1, &n));
	assert_int_equal(n, 1);
	return lq_db_statements(db) - before;
}

/* An interval occurrence claimed at-most-once with no steering set is the
 * common recurring claim (a cron line run once across a fleet): its
 * steering comes with the candidate read, and on PostgreSQL, once the
 * handle has claimed one in the queue, the whole claim is one statement,
 * as a one-off task's is.  Its next run is the first slot after the
 * claim, late or not.  A one-off task claimed there sends the handle back
 * to the plain statement. */
static void steer_occurrence_statements(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, g;
	int64_t id = 0;

	o.queue = "occ-plain";
	for (int i = 0; i < 2; i++)
		assert_lq_ok(db, lq_task_add(db, "one-off", &o, &id, NULL));
	claim_counted(db, "occ-plain", &t); /* the handle's first claim reads what it keeps */
	lq_task_clear(&t);
	int64_t plain = claim_counted(db, "occ-plain", &t);
	lq_task_clear(&t);
	size_t n = 0;
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, "occ-rec", LQ_AT_MOST_ONCE, 30000, &t, 1, &n));
	o.queue = "occ-rec";
	o.every_ms = 60000;
	o.run_at = lqt_db_now(db) - 1000;
	assert_lq_ok(db, lq_task_add(db, "first", &o, &id, NULL));
	claim_counted(db, "occ-rec", &t);
	assert_int_equal(t.id, id);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_rm(db, id));

	/* On time, then ten slots late (30 s away from any slot). */
	for (int late = 0; late < 2; late++) {
		int64_t now = lqt_db_now(db);
		int64_t seen = late ? now - 600000 - 30000 : now - 1000;
		o.run_at = seen;
		assert_lq_ok(db, lq_task_add(db, late ? "late" : "on-time", &o, &id, NULL));
		int64_t occ = claim_counted(db, "occ-rec", &t);
		assert_int_equal(t.id, id);
		assert_int_equal(t.recurring, 1);
		assert_int_equal(t.mode, LQ_AT_MOST_ONCE);
		assert_int_equal(t.run_at, seen);
		assert_string_equal(t.claim_owner, "");
		int64_t next = seen + ((t.now - seen) / 60000 + 1) * 60000;
		assert_int_equal(t.next_run_at, next);
		lq_task_clear(&t);
		assert_lq_ok(db, lq_task_get(db, id, &g));
		assert_int_equal(g.run_at, next);
		assert_string_equal(g.claim_owner, "");
		lq_task_clear(&g);
		assert_lq(db, LQ_EMPTY, lq_task_claim(db, "occ-rec", LQ_AT_MOST_ONCE, 30000, &t, 1, &n));
		assert_lq_ok(db, lq_task_rm(db, id));

		print_message("statements: one-off claim %lld, occurrence claim %lld\n", (long long)plain,
			      (long long)occ);
		if (lqt_retry_storm())
			continue;
		if (strcmp(lq_backend_name(db), "postgres") == 0 || plain > 1)
			assert_true(occ <= plain); /* or a transaction: the move instead of the delete */
		else /* the one-off's DELETE ... RETURNING, then BEGIN, the read, the move, COMMIT */
			assert_true(occ <= plain + 4);
	}

	/* A one-off task there, then the plain claim's statements again. */
	lq_task_opts one = LQ_TASK_OPTS_INIT;
	one.queue = "occ-rec";
	for (int i = 0; i < 2; i++)
		assert_lq_ok(db, lq_task_add(db, "one-off", &one, NULL, NULL));
	claim_counted(db, "occ-rec", &t);
	assert_int_equal(t.recurring, 0);
	lq_task_clear(&t);
	int64_t again = claim_counted(db, "occ-rec", &t);
	assert_int_equal(t.recurring, 0);
	lq_task_clear(&t);
	if (!lqt_retry_storm())
		assert_int_equal(again, plain);

	/* A schedule that skips what it missed moves on without running. */
	int64_t now = lqt_db_now(db);
	o.missed = LQ_MISSED_SKIP;
	o.run_at = now - 600000 - 30000;
	assert_lq_ok(db, lq_task_add(db, "skipper", &o, &id, NULL));
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, "occ-rec", LQ_AT_MOST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.run_at > g.now);
	assert_int_equal((g.run_at - o.run_at) % 60000, 0);
	lq_task_clear(&g);
}

static int count_overdue(const lq_schedule *s, void *arg)
{
	if (s->overdue)
		(*(int *)arg)++;
	return 0;
}

static void steer_dead_man(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add_steered(db, "watched", 3600000, 0, LQ_OVERLAP_DEFAULT, 0, 1000);
	lq_schedule s;
	lq_task t;
	size_t n;
	int overdue = 0;

	add_steered(db, "unwatched", 3600000, 0, LQ_OVERLAP_DEFAULT, 0, 0);
	lqt_sleep_ms(1200);
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.overdue, 1);
	assert_true(s.since_success_ms > 1000);
	assert_lq_ok(db, lq_schedule_list(db, LQ_SCHEDULE_ALERTED, count_overdue, &overdue));
	assert_int_equal(overdue, 1);
	assert_lq(db, LQ_EINVAL, lq_schedule_list(db, 8u, count_overdue, &overdue));

	/* A paused schedule is not expected to succeed. */
	assert_lq_ok(db, lq_task_pause(db, id, 1));
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.overdue, 0);
	assert_lq_ok(db, lq_task_pause(db, id, 0));

	/* A success resets it. */
	assert_lq_ok(db, lq_task_run_now(db, id));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_true(s.last_success_at > 0);
	assert_int_equal(s.overdue, 0);
	/* A failure does not. */
	lqt_sleep_ms(1200);
	assert_lq_ok(db, lq_task_run_now(db, id));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_fail(db, &t, "boom"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_schedule_get(db, id, &s));
	assert_int_equal(s.overdue, 1);
}

int lqt_conf_steer(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(steer_options, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_catch_up, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_resume_no_burst, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_run_now, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_edit, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_overlap, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_overlap_at_most_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_dead_man, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_batch_one_occurrence, lqt_conf_test_setup),
		cmocka_unit_test_setup(steer_occurrence_statements, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "steer/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]), lqt_conf_group_setup,
				       lqt_conf_group_teardown);
}
