/*
 * conf_run.c - conformance: the run history and the counters: a
 * done run is recorded once, a failed attempt
 * with its error, a run whose ack did not happen never as done; lease
 * counters; capped queue gauges; prune of runs.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add(lq_db *db, const char *name, const char *queue, int max_attempts)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.queue = queue;
	o.max_attempts = max_attempts;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

static void claim(lq_db *db, lq_mode mode, int64_t ttl, lq_task *t)
{
	size_t n = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, mode, ttl, t, 1, &n));
	assert_int_equal(n, 1);
}

struct count_find {
	const char *queue, *name;
	lq_run_counts c;
	int found;
};

static int find_counter(const char *queue, const char *name, const lq_run_counts *c, void *arg)
{
	struct count_find *cf = arg;

	if (!strcmp(queue, cf->queue) && !strcmp(name, cf->name)) {
		cf->c = *c;
		cf->found = 1;
	}
	return 0;
}

static lq_run_counts counters_of(lq_db *db, const char *queue, const char *name)
{
	struct count_find cf = {queue, name, {0}, 0};

	assert_lq_ok(db, lq_counters(db, NULL, find_counter, &cf));
	return cf.c;
}

static void run_done_once(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	struct lqt_runs rs;
	int64_t id = add(db, "report", NULL, 0), before = lqt_db_now(db);

	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack(db, &t));
	/* A second ack of the same claim changes nothing and writes nothing. */
	assert_lq(db, LQ_LOST, lq_task_ack(db, &t));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].task_id, id);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	assert_string_equal(lq_outcome_name(rs.r[0].outcome), "done");
	assert_int_equal(rs.r[0].attempt, 1);
	assert_string_equal(rs.r[0].queue, LQ_DEFAULT_QUEUE);
	assert_string_equal(rs.r[0].name, "report");
	assert_int_equal(rs.r[0].run_at, t.run_at);
	assert_true(rs.r[0].worker[0] != '\0');
	assert_true(rs.r[0].started_at >= before - 1000);
	assert_true(rs.r[0].ended_at >= rs.r[0].started_at);
	assert_string_equal(rs.err[0], "");
	lq_task_clear(&t);

	lq_run_counts c = counters_of(db, LQ_DEFAULT_QUEUE, "report");
	assert_int_equal(c.done, 1);
	assert_int_equal(c.failed + c.timed_out + c.dead, 0);
}

static void run_failed_with_error(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	struct lqt_runs rs;
	int64_t id = add(db, "flaky", "q1", 2);
	size_t n = 0;

	assert_lq_ok(db, lq_task_claim(db, "q1", LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_fail(db, &t, "disk full"));
	lq_task_clear(&t);
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_FAILED);
	assert_int_equal(rs.r[0].attempt, 1);
	assert_string_equal(rs.err[0], "disk full");

	/* The last attempt fails: the run is recorded dead, newest first. */
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, lq_task_claim(db, "q1", LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_lq_ok(db, lq_task_fail(db, &t, "still full"));
	lq_task_clear(&t);
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 2);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DEAD);
	assert_int_equal(rs.r[0].attempt, 2);
	assert_string_equal(rs.err[0], "still full");
	assert_true(rs.r[0].id > rs.r[1].id);

	lq_run_counts c = counters_of(db, "q1", "flaky");
	assert_int_equal(c.done, 0);
	assert_int_equal(c.failed, 1);
	assert_int_equal(c.dead, 1);
	lq_run_counts last;
	assert_lq_ok(db, lq_run_count_since(db, 3600 * 1000, "q1", &last));
	assert_int_equal(last.failed, 1);
	assert_int_equal(last.dead, 1);
}

/* A claim whose handler died (no ack) is taken over after its lease: the
 * first claimer's late ack is refused and leaves no "done" row; only the
 * run that was acked is done. */
static void run_not_done_without_ack(void **state)
{
	lq_db *db = DB(state);
	lq_db *db2 = lqt_open(CONF(state)->dsn);
	lq_task t1, t2;
	struct lqt_runs rs;
	int64_t id = add(db, "killed", NULL, 0);

	claim(db, LQ_AT_LEAST_ONCE, 300, &t1);
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 0); /* running: nothing recorded yet */
	lqt_sleep_ms(450);
	claim(db2, LQ_AT_LEAST_ONCE, 30000, &t2);
	assert_lq(db, LQ_LOST, lq_task_ack(db, &t1));
	assert_lq(db, LQ_LOST, lq_task_fail(db, &t1, "late"));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 0);
	assert_lq_ok(db2, lq_task_ack(db2, &t2));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	assert_int_equal(rs.r[0].attempt, 2);
	assert_int_equal(counters_of(db, LQ_DEFAULT_QUEUE, "killed").done, 1);
	lq_task_clear(&t1);
	lq_task_clear(&t2);
	lq_close(db2);
}

static void run_at_most_once(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	struct lqt_runs rs;
	int64_t ok = add(db, "amo-ok", NULL, 0), bad = add(db, "amo-bad", NULL, 1);

	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, ok);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	lqt_runs_of(db, ok, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	assert_int_equal(rs.r[0].attempt, 1);

	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, bad);
	assert_lq_ok(db, lq_task_fail(db, &t, "no"));
	lq_task_clear(&t);
	lqt_runs_of(db, bad, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DEAD); /* its only attempt */
	assert_string_equal(rs.err[0], "no");
	/* Counted with the rows written after the runs. */
	assert_int_equal(counters_of(db, "default", "amo-ok").done, 1);
	assert_int_equal(counters_of(db, "default", "amo-bad").dead, 1);
}

#define BATCH_ROWS 256
struct batch_seen {
	int64_t n, in_order, newest_first, ended_ok;
	int64_t last_ended;
	struct batch_row {
		int64_t id, task_id;
	} rows[BATCH_ROWS];
};

static int batch_row(const lq_run *r, void *arg)
{
	struct batch_seen *b = arg;
	b->newest_first += b->n == 0 || r->ended_at <= b->last_ended;
	b->ended_ok += r->ended_at >= r->started_at && r->ended_at <= r->now;
	b->last_ended = r->ended_at;
	if (b->n < BATCH_ROWS)
		b->rows[b->n] = (struct batch_row){r->id, r->task_id};
	b->n++;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct batch_row *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* What another handle sees of the runs named name. */
static struct batch_seen batch_seen(lq_db *other, const char *name)
{
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	struct batch_seen b;

	memset(&b, 0, sizeof(b));
	f.name = name;
	f.limit = 1000;
	assert_lq_ok(other, lq_run_list(other, &f, batch_row, &b));
	/* Written in the order of the runs: by id, task ids rise by one.
	 * (The list is by ended_at, which a batch back-dates to the ms.) */
	size_t n = b.n < BATCH_ROWS ? (size_t)b.n : BATCH_ROWS;
	qsort(b.rows, n, sizeof(b.rows[0]), by_id);
	for (size_t i = 0; i < n; i++)
		b.in_order += i == 0 || b.rows[i].task_id == b.rows[i - 1].task_id + 1;
	return b;
}

/* The rows of at-most-once runs done are kept back and written together;
 * none is lost or doubled, they keep their order, and each moment that
 * writes them does (a claim that finds nothing, lq_run_flush, lq_close). */
static void run_at_most_once_batched(void **state)
{
	lq_db *db = DB(state), *worker = lqt_open(CONF(state)->dsn);
	lq_task t;
	size_t n = 0;
	enum { runs = 150 }; /* two batches (of 64) and some */

	for (int i = 0; i < runs; i++)
		add(db, "amo-batch", NULL, 0);
	for (int i = 0; i < runs; i++) {
		claim(worker, LQ_AT_MOST_ONCE, 0, &t);
		assert_lq_ok(worker, lq_task_ack(worker, &t));
		lq_task_clear(&t);
	}
	assert_int_equal(lq_task_claim(worker, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n), LQ_EMPTY);
	struct batch_seen b = batch_seen(db, "amo-batch");
	assert_int_equal(b.n, runs);
	assert_int_equal(b.in_order, runs);
	assert_int_equal(b.newest_first, runs);
	assert_int_equal(b.ended_ok, runs);
	assert_int_equal(counters_of(db, "default", "amo-batch").done, runs);

	int64_t id = add(db, "amo-flush", NULL, 0);
	claim(worker, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_lq_ok(worker, lq_task_ack(worker, &t));
	lq_task_clear(&t);
	assert_lq_ok(worker, lq_run_flush(worker));
	assert_lq_ok(worker, lq_run_flush(worker)); /* nothing left: nothing to do */
	assert_int_equal(batch_seen(db, "amo-flush").n, 1);

	id = add(db, "amo-close", NULL, 0);
	claim(worker, LQ_AT_MOST_ONCE, 0, &t);
	assert_lq_ok(worker, lq_task_ack(worker, &t));
	lq_task_clear(&t);
	lq_close(worker);
	assert_int_equal(batch_seen(db, "amo-close").n, 1);
	assert_int_equal(counters_of(db, "default", "amo-close").done, 1);
}

static int timeout_handler(lq_job *job, void *ctx)
{
	(void)ctx;
	lq_job_set_timed_out(job, "timed out after 1s");
	return 1;
}

/* A failed run written at once among done at-most-once runs kept back and
 * written after it (their ended_at back-dated): every run is listed, with
 * and without filters, newest ended_at first. */
static void run_list_out_of_order(void **state)
{
	lq_db *db = DB(state);
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	struct lqt_runs rs;
	lq_task t[3];
	size_t n = 0;

	add(db, "ok", "mix", 0);
	add(db, "bad", "mix", 1);
	add(db, "ok", "mix", 0);
	assert_lq_ok(db, lq_task_claim(db, "mix", LQ_AT_MOST_ONCE, 0, t, 3, &n));
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, "bad") == 0)
			assert_lq_ok(db, lq_task_fail(db, &t[i], "no"));
		else
			assert_lq_ok(db, lq_task_ack(db, &t[i]));
		lq_task_clear(&t[i]);
	}
	assert_lq_ok(db, lq_run_flush(db));

	/* The kept-back rows' ended_at is an estimate, so where the failed run
	 * falls among them depends on timing; the order by (ended_at, id),
	 * newest first, and that every run is there, do not. */
	memset(&rs, 0, sizeof(rs));
	assert_lq_ok(db, lq_run_list(db, NULL, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 3);
	size_t failed_rows = 0;
	for (size_t i = 0; i < rs.n; i++) {
		failed_rows += strcmp(rs.r[i].name, "bad") == 0;
		if (i > 0)
			assert_true(rs.r[i - 1].ended_at > rs.r[i].ended_at ||
				    (rs.r[i - 1].ended_at == rs.r[i].ended_at && rs.r[i - 1].id > rs.r[i].id));
	}
	assert_int_equal(failed_rows, 1);
	const int64_t newest_id = rs.r[0].id;

	memset(&rs, 0, sizeof(rs));
	f.name = "bad";
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DEAD);
	memset(&rs, 0, sizeof(rs));
	f.name = NULL;
	f.queue = "mix";
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 3);
	memset(&rs, 0, sizeof(rs));
	f.queue = NULL;
	f.since_ms = 3600 * 1000;
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 3);
	memset(&rs, 0, sizeof(rs));
	f.limit = 1;
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].id, newest_id); /* the head of the whole list */
}

static void run_timed_out(void **state)
{
	lq_db *db = DB(state);
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	lq_run_report rep;
	struct lqt_runs rs;
	int64_t id = add(db, "slow", NULL, 3);

	o.mode = LQ_AT_LEAST_ONCE;
	assert_lq_ok(db, lq_runner_new(db, &o, &r));
	assert_lq_ok(db, lq_runner_handle(r, "slow", timeout_handler, NULL));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	lq_runner_free(r);
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_TIMED_OUT);
	assert_string_equal(lq_outcome_name(rs.r[0].outcome), "timed_out");
	assert_string_equal(rs.err[0], "timed out after 1s");
	assert_int_equal(counters_of(db, LQ_DEFAULT_QUEUE, "slow").timed_out, 1);
}

static void run_recurring(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t;
	struct lqt_runs rs;
	int64_t id = 0;

	o.every_ms = 60000;
	o.run_at = lqt_db_now(db) - 10;
	assert_lq_ok(db, lq_task_add(db, "tick", &o, &id, NULL));
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lqt_runs_of(db, id, &rs);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].outcome, LQ_RUN_DONE);
	assert_int_equal(rs.r[0].run_at, o.run_at); /* the occurrence that ran */
	lq_task_clear(&t);
}

static void run_list_filters(void **state)
{
	lq_db *db = DB(state);
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	struct lqt_runs rs;
	lq_task t;

	for (int i = 0; i < 3; i++) {
		add(db, i == 2 ? "b" : "a", i == 0 ? "qa" : "qb", 0);
	}
	for (const char *q = "qa"; q; q = strcmp(q, "qa") ? NULL : "qb") {
		size_t n = 0;
		while (lq_task_claim(db, q, LQ_AT_LEAST_ONCE, 30000, &t, 1, &n) == LQ_OK && n == 1) {
			assert_lq_ok(db, lq_task_ack(db, &t));
			lq_task_clear(&t);
		}
	}
	memset(&rs, 0, sizeof(rs));
	assert_lq_ok(db, lq_run_list(db, NULL, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 3);
	assert_true(rs.r[0].id > rs.r[1].id && rs.r[1].id > rs.r[2].id);

	memset(&rs, 0, sizeof(rs));
	f.queue = "qb";
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 2);
	memset(&rs, 0, sizeof(rs));
	f.name = "b";
	f.since_ms = 3600 * 1000;
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 1);
	assert_string_equal(rs.r[0].name, "b");
	memset(&rs, 0, sizeof(rs));
	f.queue = f.name = NULL;
	f.limit = 2;
	assert_lq_ok(db, lq_run_list(db, &f, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 2);

	/* Bad input: one clear message, nothing read. */
	f.limit = LQ_RUN_LIST_MAX + 1;
	assert_lq(db, LQ_EINVAL, lq_run_list(db, &f, lqt_keep_run, &rs));
	f.limit = 0;
	f.since_ms = -1;
	assert_lq(db, LQ_EINVAL, lq_run_list(db, &f, lqt_keep_run, &rs));
	f.since_ms = 0;
	f.queue = "";
	assert_lq(db, LQ_EINVAL, lq_run_list(db, &f, lqt_keep_run, &rs));
}

static void run_prune(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	int64_t removed = -1;
	struct lqt_runs rs;

	add(db, "p", NULL, 0);
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_run_prune(db, 3600 * 1000, NULL, 0, &removed));
	assert_int_equal(removed, 0);
	lqt_sleep_ms(5); /* older than 0 ms: ended before now */
	assert_lq_ok(db, lq_run_prune(db, 0, NULL, LQ_PRUNE_DRY_RUN, &removed));
	assert_int_equal(removed, 1);
	assert_lq_ok(db, lq_run_prune(db, 0, NULL, 0, &removed));
	assert_int_equal(removed, 1);
	memset(&rs, 0, sizeof(rs));
	assert_lq_ok(db, lq_run_list(db, NULL, lqt_keep_run, &rs));
	assert_int_equal(rs.n, 0);
	/* Counters are never pruned: they only grow. */
	assert_int_equal(counters_of(db, LQ_DEFAULT_QUEUE, "p").done, 1);
	assert_lq(db, LQ_EINVAL, lq_run_prune(db, -1, NULL, 0, &removed));
}

static void run_lease_counters(void **state)
{
	lq_db *db = DB(state);
	lq_lease l, l2;
	lq_lease_counts c;

	/* The renewal shortens the lease, so that no slow call before it can
	 * let it expire first. */
	assert_lq_ok(db, lq_lease_acquire(db, "job", 30000, "a", 0, &l));
	assert_lq_ok(db, lq_lease_renew(db, &l, 200)); /* a renewal counts nothing */
	assert_lq_ok(db, lq_counters(db, &c, NULL, NULL));
	assert_int_equal(c.taken, 1);
	assert_int_equal(c.lost, 0);
	lqt_sleep_ms(300);
	assert_lq_ok(db, lq_lease_acquire(db, "job", 30000, "b", 0, &l2)); /* a's expired in its hands */
	assert_lq_ok(db, lq_lease_release(db, &l2));
	assert_lq_ok(db, lq_lease_acquire(db, "job", 30000, "c", 0, &l2)); /* was free: not lost */
	assert_lq_ok(db, lq_lease_break(db, "job", NULL));
	assert_lq_ok(db, lq_counters(db, &c, NULL, NULL));
	assert_int_equal(c.taken, 3);
	assert_int_equal(c.lost, 1);
	assert_int_equal(c.broken, 1);
}

struct gauges {
	lq_queue_info q[4];
	size_t n;
};

static int keep_gauge(const lq_queue_info *q, void *arg)
{
	struct gauges *g = arg;

	if (g->n < 4)
		g->q[g->n++] = *q;
	return 0;
}

static void run_queue_gauges(void **state)
{
	lq_db *db = DB(state);
	struct gauges g = {0};
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	for (int i = 0; i < 5; i++)
		add(db, "g", "big", 0);
	o.queue = "later";
	o.delay_ms = 3600 * 1000;
	assert_lq_ok(db, lq_task_add(db, "g", &o, NULL, NULL));
	assert_lq_ok(db, lq_queue_pause(db, "idle", 1));
	assert_lq_ok(db, lq_queue_gauges(db, 3, keep_gauge, &g));
	assert_int_equal(g.n, 3);
	assert_string_equal(g.q[0].name, "big");
	assert_int_equal(g.q[0].tasks, 3); /* capped */
	assert_int_equal(g.q[0].due, 3);
	assert_true(g.q[0].next_run_at > 0);
	assert_string_equal(g.q[1].name, "idle");
	assert_int_equal(g.q[1].paused, 1);
	assert_int_equal(g.q[1].tasks, 0);
	assert_string_equal(g.q[2].name, "later");
	assert_int_equal(g.q[2].tasks, 1);
	assert_int_equal(g.q[2].due, 0);
	memset(&g, 0, sizeof(g));
	assert_lq_ok(db, lq_queue_gauges(db, 0, keep_gauge, &g));
	assert_int_equal(g.q[0].tasks, 5);
	assert_lq(db, LQ_EINVAL, lq_queue_gauges(db, -1, keep_gauge, &g));
}

int lqt_conf_run(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(run_done_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_failed_with_error, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_not_done_without_ack, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_at_most_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_at_most_once_batched, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_list_out_of_order, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_timed_out, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_recurring, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_list_filters, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_prune, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_lease_counters, lqt_conf_test_setup),
		cmocka_unit_test_setup(run_queue_gauges, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "run/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
