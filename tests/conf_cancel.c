/*
 * conf_cancel.c - conformance: cancelling tasks.  A task cancelled before
 * its claim never runs; a task cancelled under a live at-least-once claim
 * has its claim revoked (heartbeat, ack, fail and release say
 * LQ_REVOKED and change nothing); so has a task claimed at-most-once
 * cancellable, whose run never comes back, not even after a crash; each
 * cancelled task has exactly one "cancelled" run; a finished, dead or
 * unknown id is LQ_NOTFOUND.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add(lq_db *db, const char *name, int64_t delay_ms)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.delay_ms = delay_ms;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

struct count_find {
	const char *name;
	lq_run_counts c;
};

static int find_counter(const char *queue, const char *name, const lq_run_counts *c, void *arg)
{
	struct count_find *cf = arg;

	if (!strcmp(queue, LQ_DEFAULT_QUEUE) && !strcmp(name, cf->name))
		cf->c = *c;
	return 0;
}

static void cancel_before_claim(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "export", 0), later = add(db, "export", 3600 * 1000);
	int running = -1;
	lq_task t[2];
	size_t n = 0;
	struct lqt_runs rs;

	assert_lq_ok(db, lq_task_cancel(db, id, "not needed", &running));
	assert_int_equal(running, 0);
	assert_lq_ok(db, lq_task_cancel(db, later, NULL, NULL));
	/* Neither is claimable, now or later: both are gone. */
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, t, 2, &n));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &t[0]));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, later, &t[0]));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_CANCELLED);
	assert_string_equal(lq_outcome_name(rs.r[0].outcome), "cancelled");
	assert_int_equal(rs.r[0].attempt, 0); /* it never ran */
	assert_string_equal(rs.err[0], "not needed");
	lqt_runs_of(db, later, &rs);
	assert_int_equal(rs.n, 1);
	assert_string_equal(rs.err[0], "cancelled");
	/* Once only. */
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, id, NULL, NULL));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);

	struct count_find cf = {"export", {0}};
	assert_lq_ok(db, lq_counters(db, NULL, find_counter, &cf));
	assert_int_equal(cf.c.cancelled, 2);
	lq_run_counts c;
	assert_lq_ok(db, lq_run_count_since(db, 3600 * 1000, NULL, &c));
	assert_int_equal(c.cancelled, 2);
	assert_int_equal(c.done + c.failed + c.timed_out + c.dead, 0);
}

/* Task id, cancelled while it ran (reason), never runs again, and its
 * history has the one cancelled run. */
static void cancelled_once(lq_db *db, int64_t id, lq_mode mode, const char *reason)
{
	lq_task u;
	size_t n = 0;
	struct lqt_runs rs;

	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &u));
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, mode, 30000, &u, 1, &n));
	assert_lq_ok(db, lq_run_flush(db));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_CANCELLED);
	assert_int_equal(rs.r[0].attempt, 1);
	assert_non_null(strstr(rs.err[0], reason));
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, id, NULL, NULL));
}

static void cancel_while_claimed(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "report", 0);
	lq_task t;
	size_t n = 0;
	int running = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_task_heartbeat(db, &t, 30000));
	assert_lq_ok(db, lq_task_cancel(db, id, "operator", &running));
	assert_int_equal(running, 1);
	/* The worker hears it at its next heartbeat, told apart from a lost claim. */
	assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t, 30000));
	assert_non_null(strstr(lq_errmsg(db), "cancelled"));
	assert_int_equal(lq_status_is_error(LQ_REVOKED), 0);
	/* A handler that finishes anyway cannot settle it. */
	assert_lq(db, LQ_REVOKED, lq_task_ack(db, &t));
	assert_lq(db, LQ_REVOKED, lq_task_fail(db, &t, "boom"));
	assert_lq(db, LQ_REVOKED, lq_task_release(db, &t));
	cancelled_once(db, id, LQ_AT_LEAST_ONCE, "operator");
	lq_task_clear(&t);
}

static void cancel_recurring_claimed(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;
	lq_task t;
	size_t n = 0;
	int running = 0;

	o.every_ms = 60000;
	o.run_at = lqt_db_now(db); /* due now */
	assert_lq_ok(db, lq_task_add(db, "tick", &o, &id, NULL));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_task_cancel(db, id, NULL, &running));
	assert_int_equal(running, 1);
	assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t, 30000));
	assert_lq(db, LQ_REVOKED, lq_task_ack(db, &t));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0); /* the schedule ended too */
	lq_task_clear(&t);
}

static void cancel_finished_or_unknown(void **state)
{
	lq_db *db = DB(state);
	int64_t done = add(db, "a", 0), dead;
	lq_task t;
	size_t n = 0;
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	struct lqt_runs rs;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, done, NULL, NULL));
	assert_non_null(strstr(lq_errmsg(db), "not found"));
	lqt_runs_of(db, done, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);

	o.max_attempts = 1;
	assert_lq_ok(db, lq_task_add(db, "b", &o, &dead, NULL));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_fail(db, &t, "no"));
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, dead, NULL, NULL));
	assert_lq_ok(db, lq_task_get(db, dead, &t)); /* still dead, untouched */
	assert_int_equal(t.dead, 1);
	lq_task_clear(&t);

	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, 987654321, NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_cancel(db, 0, NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_cancel(db, -1, NULL, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_cancel(db, done, "bad\xff", NULL));
}

/* At-most-once: the claim deleted the row; there is nothing to revoke. */
static void cancel_at_most_once_running(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "amo", 0);
	lq_task t;
	size_t n = 0;
	struct lqt_runs rs;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, id, NULL, NULL));
	assert_lq_ok(db, lq_task_heartbeat(db, &t, 0));
	assert_lq_ok(db, lq_task_ack(db, &t));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	lq_task_clear(&t);
}

/* At-most-once cancellable: the claim deleted the task but marked its
 * run, so a cancel finds it and the worker is fenced as at-least-once. */
static void cancel_amo_cancellable(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "amo", 0);
	lq_task t, u;
	size_t n = 0;
	int running = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &t, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t.mode, LQ_AT_MOST_ONCE);
	assert_true(t.claim_owner[0] != '\0');
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &u)); /* deleted, as at-most-once */
	assert_lq_ok(db, lq_task_heartbeat(db, &t, 30000));
	assert_lq_ok(db, lq_task_cancel(db, id, "operator", &running));
	assert_int_equal(running, 1);
	assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t, 30000));
	assert_non_null(strstr(lq_errmsg(db), "cancelled"));
	assert_lq(db, LQ_REVOKED, lq_task_ack(db, &t));
	assert_lq(db, LQ_REVOKED, lq_task_ack_result(db, &t, "x", 1));
	assert_lq(db, LQ_REVOKED, lq_task_fail(db, &t, "boom"));
	assert_lq(db, LQ_REVOKED, lq_task_release(db, &t));
	assert_lq(db, LQ_REVOKED, lq_task_snooze(db, &t, 1000));
	cancelled_once(db, id, LQ_AT_MOST_ONCE_CANCELLABLE, "operator");
	lq_task_clear(&t);
}

/* A marked run handed back (release, snooze) goes back in under its id,
 * unmarked: then it is a waiting task to a cancel. */
static void cancel_amo_cancellable_handback(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "back", 0);
	lq_task t;
	size_t n = 0;
	int running = -1;
	struct lqt_runs rs;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_release(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &t, 1, &n));
	assert_int_equal(t.id, id);
	assert_lq_ok(db, lq_task_heartbeat(db, &t, 30000));
	assert_lq_ok(db, lq_task_snooze(db, &t, 3600 * 1000));
	assert_lq(db, LQ_LOST, lq_task_heartbeat(db, &t, 30000)); /* unmarked */
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_cancel(db, id, NULL, &running));
	assert_int_equal(running, 0);
	assert_lq_ok(db, lq_run_flush(db));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_CANCELLED);
}

/* The fair-share claim of a queue with partitions marks its runs too. */
static void cancel_amo_cancellable_fair(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t a = 0, b = 0;
	lq_task t[2];
	size_t n = 0;
	int running = 0;

	o.partition = "tenant-a";
	assert_lq_ok(db, lq_task_add(db, "fair", &o, &a, NULL));
	o.partition = "tenant-b";
	assert_lq_ok(db, lq_task_add(db, "fair", &o, &b, NULL));
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &t[0], 1, &n));
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &t[1], 1, &n));
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_task_cancel(db, a, NULL, &running));
	assert_int_equal(running, 1);
	assert_lq_ok(db, lq_task_cancel(db, b, NULL, &running));
	assert_int_equal(running, 1);
	for (int i = 0; i < 2; i++) {
		assert_lq(db, LQ_REVOKED, lq_task_heartbeat(db, &t[i], 30000));
		lq_task_clear(&t[i]);
	}
}

/* A batch: the cancel stops one run, the others end as usual; a run that
 * ended (ack, ack with a result, a failure) is not there to cancel. */
static void cancel_amo_cancellable_batch(void **state)
{
	lq_db *db = DB(state);
	int64_t id[4] = {add(db, "b", 0), add(db, "b", 0), add(db, "b", 0), add(db, "b", 0)};
	lq_task t[4], u;
	size_t n = 0;
	int running = 0;
	struct lqt_runs rs;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, t, 4, &n));
	assert_int_equal(n, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(t[i].id, id[i]);
	assert_lq_ok(db, lq_task_cancel(db, id[1], NULL, &running));
	assert_int_equal(running, 1);
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	assert_lq(db, LQ_REVOKED, lq_task_ack(db, &t[1]));
	assert_lq_ok(db, lq_task_ack_result(db, &t[2], "ok", 2));
	assert_lq_ok(db, lq_task_fail(db, &t[3], "try again"));
	for (int i = 0; i < 3; i++)
		assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, id[i], NULL, NULL));
	assert_lq_ok(db, lq_run_flush(db));
	for (int i = 0; i < 4; i++) {
		lqt_runs_of(db, id[i], &rs);
		assert_int_equal(rs.n, 1);
		assert_int_equal(rs.r[0].outcome, i == 1 ? LQ_RUN_CANCELLED : i == 3 ? LQ_RUN_FAILED : LQ_RUN_DONE);
	}
	/* The failed one waits for its retry: cancelling it now is the plain
	 * cancel of a waiting task. */
	assert_lq_ok(db, lq_task_get(db, id[3], &u));
	lq_task_clear(&u);
	assert_lq_ok(db, lq_task_cancel(db, id[3], NULL, &running));
	assert_int_equal(running, 0);
	for (int i = 0; i < 4; i++)
		lq_task_clear(&t[i]);
}

/* Claim task id at-most-once cancellable into *t and let its run's mark
 * lapse, as when its worker crashed: then a cancel finds nothing to stop
 * (and sweeps the mark). */
static void claim_lapsed(lq_db *db, int64_t id, lq_task *t)
{
	size_t n = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 50, t, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t->id, id);
	lqt_sleep_ms(200);
	assert_lq(db, LQ_NOTFOUND, lq_task_cancel(db, id, NULL, NULL));
}

/* A crashed worker's mark outlives it only until its claim_until: then it
 * is not running, the cancel finds nothing, and the task never runs again
 * (at-most-once).  The late worker's heartbeat hears LQ_LOST, its ack
 * still records the run. */
static void cancel_amo_cancellable_crashed(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "crash", 0);
	lq_task t, u;
	size_t n = 0;
	struct lqt_runs rs;

	claim_lapsed(db, id, &t);
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, &u, 1, &n));
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, &u, 1, &n));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &u));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 0);
	assert_lq(db, LQ_LOST, lq_task_heartbeat(db, &t, 30000));
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq_ok(db, lq_run_flush(db));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	lq_task_clear(&t);
}

/* The end of a marked run whose mark is gone records the run as lapsed
 * only after it looked for a cancel and found none: a look that fails is
 * no answer (a cancel may have recorded the run already), so the ack says
 * so and records nothing. */
static void amo_end_unsure_of_cancel(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "unsure", 0);
	lq_task t;
	struct lqt_runs rs;

	claim_lapsed(db, id, &t);
	assert_lq_ok(db, lqt_exec_sql(db, "ALTER TABLE lq_task_cancel RENAME TO lq_task_cancel_away"));
	lq_status st = lq_task_ack(db, &t);
	assert_lq_ok(db, lqt_exec_sql(db, "ALTER TABLE lq_task_cancel_away RENAME TO lq_task_cancel"));
	if (st == LQ_OK)
		fail_msg("the ack recorded a run it could not tell from a cancelled one");
	assert_lq_ok(db, lq_run_flush(db));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 0);
	lq_task_clear(&t);
}

struct running_seen {
	int n;
	lq_running r[4];
};

static int running_seen(const lq_running *r, void *arg)
{
	struct running_seen *rs = arg;

	if (rs->n < 4)
		rs->r[rs->n] = *r;
	rs->n++;
	return 0;
}

static int running_of(lq_db *db, const char *queue, struct running_seen *rs)
{
	memset(rs, 0, sizeof(*rs));
	assert_lq_ok(db, lq_task_running_list(db, queue, running_seen, rs));
	return rs->n;
}

/* The runs of at-most-once cancellable claims are listed (with their claim
 * and their queue) while they run; an ack, a cancel or a crash (the claim
 * past its end) takes them off the list. */
static void running_list_amo_cancellable(void **state)
{
	lq_db *db = DB(state);
	int64_t a = add(db, "acked", 0), b = add(db, "cancelled", 0), c = add(db, "crashed", 0);
	lq_task t[2], u;
	size_t n = 0;
	struct running_seen rs;
	lq_running one;

	assert_int_equal(running_of(db, NULL, &rs), 0);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 30000, t, 2, &n));
	assert_int_equal(n, 2);
	assert_int_equal(t[0].id, a);
	assert_int_equal(t[1].id, b);
	/* c's claim must outlast the checks below even on a loaded machine
	 * (50 ms did not under the retry storm); its end is waited for. */
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE_CANCELLABLE, 2000, &u, 1, &n));
	assert_int_equal(u.id, c);
	assert_int_equal(running_of(db, NULL, &rs), 3);
	assert_int_equal(running_of(db, LQ_DEFAULT_QUEUE, &rs), 3);
	assert_int_equal(running_of(db, "elsewhere", &rs), 0);
	assert_lq_ok(db, lq_task_running_get(db, a, &one));
	assert_int_equal(one.task_id, a);
	assert_string_equal(one.name, "acked");
	assert_string_equal(one.queue, LQ_DEFAULT_QUEUE);
	assert_string_equal(one.owner, t[0].claim_owner);
	assert_int_equal(one.attempt, 1);
	assert_true(one.claim_until > one.now && one.started_at <= one.now);
	assert_int_equal(one.run_at, t[0].run_at);
	/* c's claim ends: a crashed worker's run */
	for (int64_t give_up = lqt_mono_ms() + 30000; lqt_mono_ms() < give_up;) {
		if (lq_task_running_get(db, c, &one) == LQ_NOTFOUND)
			break;
		lqt_sleep_ms(50);
	}
	assert_int_equal(running_of(db, NULL, &rs), 2);
	assert_int_equal(rs.r[0].task_id, a);
	assert_int_equal(rs.r[1].task_id, b);
	assert_lq(db, LQ_NOTFOUND, lq_task_running_get(db, c, &one));
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	assert_int_equal(running_of(db, NULL, &rs), 1);
	assert_int_equal(rs.r[0].task_id, b);
	assert_lq_ok(db, lq_task_cancel(db, b, NULL, NULL));
	assert_int_equal(running_of(db, NULL, &rs), 0);
	assert_lq(db, LQ_NOTFOUND, lq_task_running_get(db, b, &one));
	assert_lq(db, LQ_EINVAL, lq_task_running_list(db, "", running_seen, &rs));
	lq_task_clear(&t[0]);
	lq_task_clear(&t[1]);
	lq_task_clear(&u);
}

/* An expired claim is not running: the cancel takes the task, and the late
 * worker hears LQ_LOST as for any claim it failed to keep. */
static void cancel_expired_claim(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "slow", 0);
	lq_task t;
	size_t n = 0;
	int running = -1;

	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 50, &t, 1, &n));
	lqt_sleep_ms(200);
	assert_lq_ok(db, lq_task_cancel(db, id, NULL, &running));
	assert_int_equal(running, 0);
	assert_lq(db, LQ_LOST, lq_task_heartbeat(db, &t, 30000));
	assert_lq(db, LQ_LOST, lq_task_ack(db, &t));
	lq_task_clear(&t);
}

/* The runner's side: a handler cancelled while it runs hears LQ_REVOKED
 * from lq_job_heartbeat, stops, and the runner neither acks nor fails
 * it, counts it neither ran nor failed, and goes on with the next task. */
struct self_cancel {
	const char *dsn;
	lq_status heartbeat;
	int calls;
};

static int cancelled_handler(lq_job *job, void *arg)
{
	struct self_cancel *sc = arg;
	lq_db *other = lqt_open(sc->dsn);

	sc->calls++;
	if (sc->calls == 1) {
		LQT_CHECK_ST(other, LQ_OK, lq_task_cancel(other, lq_job_task(job)->id, "from another process", NULL));
		sc->heartbeat = lq_job_heartbeat(job);
	}
	lq_close(other);
	return 0; /* "finished anyway": the ack must be refused */
}

static void cancel_in_runner_mode(void **state, lq_mode mode)
{
	lq_db *db = DB(state);
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	struct self_cancel sc = {CONF(state)->dsn, LQ_OK, 0};
	lq_runner *r = NULL;
	lq_run_report rep;
	struct lqt_runs rs;
	int64_t first = add(db, "job", 0), second = add(db, "job", 0);

	o.mode = mode;
	assert_lq_ok(db, lq_runner_new(db, &o, &r));
	assert_lq_ok(db, lq_runner_handle(r, "job", cancelled_handler, &sc));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	lq_runner_free(r);
	assert_int_equal(sc.heartbeat, LQ_REVOKED);
	assert_int_equal(sc.calls, 2);
	assert_int_equal(rep.claimed, 2);
	assert_int_equal(rep.ran, 1);
	assert_int_equal(rep.failed, 0);
	lqt_runs_of(db, first, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_CANCELLED);
	assert_lq_ok(db, lq_run_flush(db));
	lqt_runs_of(db, second, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
}

static void cancel_in_runner(void **state)
{
	cancel_in_runner_mode(state, LQ_AT_LEAST_ONCE);
}

static void cancel_in_runner_amo(void **state)
{
	cancel_in_runner_mode(state, LQ_AT_MOST_ONCE_CANCELLABLE);
}

int lqt_conf_cancel(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(cancel_before_claim, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_while_claimed, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_recurring_claimed, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_finished_or_unknown, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_at_most_once_running, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_expired_claim, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_in_runner, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_amo_cancellable, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_amo_cancellable_batch, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_amo_cancellable_fair, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_amo_cancellable_handback, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_amo_cancellable_crashed, lqt_conf_test_setup),
		cmocka_unit_test_setup(amo_end_unsure_of_cancel, lqt_conf_test_setup),
		cmocka_unit_test_setup(cancel_in_runner_amo, lqt_conf_test_setup),
		cmocka_unit_test_setup(running_list_amo_cancellable, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "cancel/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
