/*
 * conf_progress.c - conformance: snooze (later, the attempt not counted),
 * progress under a claim (visible, refused once the claim is lost), and a
 * run's result (stored with the ack, read back after the task row is gone,
 * bounded, pruned with its run).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add(lq_db *db, const char *name, int max_attempts, int64_t every_ms)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.max_attempts = max_attempts;
	o.every_ms = every_ms;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

static void claim(lq_db *db, lq_mode mode, int64_t ttl, lq_task *t)
{
	size_t n = 0;

	assert_lq_ok(db, lq_task_claim(db, NULL, mode, ttl, t, 1, &n));
	assert_int_equal(n, 1);
}

static void nothing_due(lq_db *db, lq_mode mode)
{
	lq_task t[1];
	size_t n = 0;

	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, mode, 30000, t, 1, &n));
	assert_int_equal(n, 0);
}

static void get(lq_db *db, int64_t id, lq_task *out)
{
	assert_lq_ok(db, lq_task_get(db, id, out));
}

/* At-least-once: the claim is handed back, due later, the attempt not
 * counted; a task with one attempt still runs after it. */
static void snooze_at_least_once(void **state)
{
	lq_db *db = DB(state);
	lq_task t, cur;
	int64_t id = add(db, "export", 1, 0);

	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.attempts, 1);
	int64_t before = lqt_db_now(db);
	assert_lq_ok(db, lq_task_snooze(db, &t, 3600 * 1000));
	get(db, id, &cur);
	assert_int_equal(cur.attempts, 0);
	assert_string_equal(cur.claim_owner, "");
	assert_true(cur.run_at >= before + 3600 * 1000);
	lq_task_clear(&cur);
	nothing_due(db, LQ_AT_LEAST_ONCE);
	/* The same claim cannot settle it again. */
	assert_lq(db, LQ_LOST, lq_task_snooze(db, &t, 1000));
	assert_lq(db, LQ_LOST, lq_task_ack(db, &t));
	lq_task_clear(&t);

	assert_lq_ok(db, lq_task_retry(db, id)); /* due now: it runs, as attempt 1 */
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.attempts, 1);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
}

/* At-most-once: the task comes back under its id, due later, its attempts
 * as they were. */
static void snooze_at_most_once(void **state)
{
	lq_db *db = DB(state);
	lq_task t, cur;
	int64_t id = add(db, "export", 1, 0);

	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	int64_t before = lqt_db_now(db);
	assert_lq_ok(db, lq_task_snooze(db, &t, 60000));
	lq_task_clear(&t);
	get(db, id, &cur);
	assert_int_equal(cur.attempts, 0);
	assert_false(cur.dead);
	assert_true(cur.run_at >= before + 60000);
	lq_task_clear(&cur);
	nothing_due(db, LQ_AT_MOST_ONCE);
}

/* A recurring at-most-once occurrence runs again after the delay, or with
 * the next occurrence if that comes first: never twice. */
static void snooze_recurring(void **state)
{
	lq_db *db = DB(state);
	lq_task t, cur;
	int64_t id = add(db, "hourly", 0, 3600 * 1000);

	assert_lq_ok(db, lq_task_retry(db, id)); /* the first occurrence: now */
	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	assert_true(t.recurring);
	int64_t next = t.next_run_at, before = lqt_db_now(db);
	assert_lq_ok(db, lq_task_snooze(db, &t, 60000));
	get(db, id, &cur);
	assert_true(cur.run_at >= before + 60000 && cur.run_at < next);
	lq_task_clear(&cur);
	lq_task_clear(&t);

	assert_lq_ok(db, lq_task_retry(db, id));
	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	next = t.next_run_at;
	assert_lq_ok(db, lq_task_snooze(db, &t, 2 * 3600 * 1000));
	get(db, id, &cur);
	assert_int_equal(cur.run_at, next);
	lq_task_clear(&cur);
	lq_task_clear(&t);

	/* At-least-once: the occurrence is handed back, its attempt not counted. */
	assert_lq_ok(db, lq_task_retry(db, id));
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.attempts, 1);
	assert_lq_ok(db, lq_task_snooze(db, &t, 60000));
	get(db, id, &cur);
	assert_int_equal(cur.attempts, 0);
	assert_string_equal(cur.claim_owner, "");
	lq_task_clear(&cur);
	lq_task_clear(&t);
	nothing_due(db, LQ_AT_LEAST_ONCE);
}

static void snooze_bad_delay(void **state)
{
	lq_db *db = DB(state);
	lq_task t, cur;
	int64_t id = add(db, "export", 0, 0);

	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq(db, LQ_EINVAL, lq_task_snooze(db, &t, 0));
	assert_lq(db, LQ_EINVAL, lq_task_snooze(db, &t, -5));
	assert_non_null(strstr(lq_errmsg(db), "snooze"));
	get(db, id, &cur); /* nothing changed: still ours */
	assert_string_equal(cur.claim_owner, t.claim_owner);
	lq_task_clear(&cur);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
}

static void progress_visible(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	lq_progress p;
	char big[LQ_PROGRESS_MSG_MAX + 2];
	int64_t id = add(db, "export", 0, 0);

	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, -1);
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, -1);
	assert_lq_ok(db, lq_task_progress(db, &t, 40, "exporting rows: é"));
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, 40);
	assert_string_equal(p.message, "exporting rows: é");
	assert_true(p.updated_at > 0 && p.updated_at <= p.now);

	/* Bad input: refused, nothing changed. */
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, 101, NULL));
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, -1, NULL));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, 50, big));
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, 50, "bad \xff utf-8"));
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, 50, "two\nlines"));
	big[LQ_PROGRESS_MSG_MAX] = '\0'; /* exactly the limit is fine */
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, 40);
	assert_lq_ok(db, lq_task_progress(db, &t, 100, big));
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, 100);
	assert_int_equal(strlen(p.message), LQ_PROGRESS_MSG_MAX);
	assert_lq_ok(db, lq_task_progress(db, &t, 100, NULL));
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_string_equal(p.message, "");
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_progress_get(db, id, &p));

	/* At-most-once: no row to report under. */
	add(db, "amo", 0, 0);
	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	assert_lq(db, LQ_EINVAL, lq_task_progress(db, &t, 10, NULL));
	lq_task_clear(&t);
}

static void progress_refused_after_claim_lost(void **state)
{
	lq_db *db = DB(state);
	lq_task t, t2;
	lq_progress p;
	int64_t id = add(db, "export", 5, 0);

	/* A lease long enough for the first report under the retry storm
	 * and a second test job (200 ms was not, once). */
	claim(db, LQ_AT_LEAST_ONCE, 1000, &t);
	assert_lq_ok(db, lq_task_progress(db, &t, 10, "started"));
	lqt_sleep_ms(1300); /* the claim expires */
	assert_lq(db, LQ_LOST, lq_task_progress(db, &t, 20, "late"));
	assert_non_null(strstr(lq_errmsg(db), "claim"));
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t2); /* another worker takes it */
	/* The new claim has reported nothing: the old progress is not its. */
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, -1);
	assert_lq(db, LQ_LOST, lq_task_progress(db, &t, 30, NULL));
	assert_lq_ok(db, lq_task_progress(db, &t2, 5, "again"));
	assert_lq_ok(db, lq_task_progress_get(db, id, &p));
	assert_int_equal(p.percent, 5);
	assert_string_equal(p.message, "again");
	lq_task_clear(&t);
	lq_task_clear(&t2);
}

static void result_read_back(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	unsigned char bin[256], buf[512];
	size_t len = 0;
	int64_t id = add(db, "export", 0, 0);

	assert_lq(db, LQ_NOTFOUND, lq_task_result(db, id, buf, sizeof(buf), &len));
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack_result(db, &t, "done\0rows=3", 11));
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &t)); /* the task row is gone */
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_result(db, id, buf, sizeof(buf), &len));
	assert_int_equal(len, 11);
	assert_memory_equal(buf, "done\0rows=3", 11);
	/* A small buffer gets the start, and the whole length. */
	memset(buf, 0, sizeof(buf));
	assert_lq_ok(db, lq_task_result(db, id, buf, 4, &len));
	assert_int_equal(len, 11);
	assert_memory_equal(buf, "done", 4);
	assert_int_equal(buf[4], 0);
	assert_lq_ok(db, lq_task_result(db, id, NULL, 0, &len));
	assert_int_equal(len, 11);

	/* At-most-once, every byte value. */
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)i;
	id = add(db, "amo", 0, 0);
	claim(db, LQ_AT_MOST_ONCE, 0, &t);
	assert_lq_ok(db, lq_task_ack_result(db, &t, bin, sizeof(bin)));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_result(db, id, buf, sizeof(buf), &len));
	assert_int_equal(len, sizeof(bin));
	assert_memory_equal(buf, bin, sizeof(bin));

	/* An empty result is a result. */
	id = add(db, "empty", 0, 0);
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack_result(db, &t, NULL, 0));
	lq_task_clear(&t);
	len = 99;
	assert_lq_ok(db, lq_task_result(db, id, buf, sizeof(buf), &len));
	assert_int_equal(len, 0);

	/* The run history says done, once. */
	lq_run_counts c;
	assert_lq_ok(db, lq_run_count_since(db, 3600 * 1000, NULL, &c));
	assert_int_equal(c.done, 3);
}

static void result_bound(void **state)
{
	lq_db *db = DB(state);
	lq_task t, cur;
	size_t len = 0;
	unsigned char *big = calloc(1, LQ_RESULT_MAX + 1);
	int64_t id = add(db, "export", 0, 0);

	assert_non_null(big);
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq(db, LQ_EINVAL, lq_task_ack_result(db, &t, big, LQ_RESULT_MAX + 1));
	assert_non_null(strstr(lq_errmsg(db), "result"));
	assert_lq(db, LQ_EINVAL, lq_task_ack_result(db, &t, NULL, 5));
	/* Nothing changed: still claimed by us, no run, no result. */
	get(db, id, &cur);
	assert_string_equal(cur.claim_owner, t.claim_owner);
	lq_task_clear(&cur);
	assert_lq(db, LQ_NOTFOUND, lq_task_result(db, id, NULL, 0, &len));
	lq_run_counts c;
	assert_lq_ok(db, lq_run_count_since(db, 3600 * 1000, NULL, &c));
	assert_int_equal(c.done, 0);
	/* The limit itself fits. */
	big[LQ_RESULT_MAX - 1] = 0x5a;
	assert_lq_ok(db, lq_task_ack_result(db, &t, big, LQ_RESULT_MAX));
	lq_task_clear(&t);
	unsigned char *back = malloc(LQ_RESULT_MAX);
	assert_non_null(back);
	assert_lq_ok(db, lq_task_result(db, id, back, LQ_RESULT_MAX, &len));
	assert_int_equal(len, LQ_RESULT_MAX);
	assert_memory_equal(back, big, LQ_RESULT_MAX);
	free(back);
	free(big);
}

/* A lost claim stores no result. */
static void result_claim_lost(void **state)
{
	lq_db *db = DB(state);
	lq_task t, t2;
	size_t len = 0;
	int64_t id = add(db, "export", 5, 0);

	claim(db, LQ_AT_LEAST_ONCE, 200, &t);
	lqt_sleep_ms(400);
	claim(db, LQ_AT_LEAST_ONCE, 30000, &t2);
	assert_lq(db, LQ_LOST, lq_task_ack_result(db, &t, "late", 4));
	assert_lq(db, LQ_NOTFOUND, lq_task_result(db, id, NULL, 0, &len));
	assert_lq_ok(db, lq_task_ack_result(db, &t2, "mine", 4));
	char buf[8];
	assert_lq_ok(db, lq_task_result(db, id, buf, sizeof(buf), &len));
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "mine", 4);
	lq_task_clear(&t);
	lq_task_clear(&t2);
}

static void result_pruned_with_history(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	size_t len = 0;
	int64_t removed = 0;
	int64_t id = add(db, "export", 0, 0);

	claim(db, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_ack_result(db, &t, "kept", 4));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_run_prune(db, 3600 * 1000, NULL, 0, &removed));
	assert_lq_ok(db, lq_task_result(db, id, NULL, 0, &len));
	lqt_sleep_ms(5); /* older than 0 ms: ended before now */
	assert_lq_ok(db, lq_run_prune(db, 0, NULL, 0, &removed));
	assert_int_equal(removed, 1);
	assert_lq(db, LQ_NOTFOUND, lq_task_result(db, id, NULL, 0, &len));
}

/* The same through a runner's handler: progress while it runs, then a
 * result with its ack, or a snooze instead of one. */
struct job_seen {
	int percent;
	int snooze;
};

static int job_handler(lq_job *job, void *arg)
{
	struct job_seen *js = arg;
	const lq_task *t = lq_job_task(job);
	lq_db *db2 = lqt_open(lqt_conf_dsn); /* a web page polling, say */
	lq_progress p;

	if (lq_job_progress(job, 60, "halfway") == LQ_OK && lq_task_progress_get(db2, t->id, &p) == LQ_OK)
		js->percent = p.percent;
	lq_close(db2);
	if (js->snooze)
		return lq_job_snooze(job, 3600 * 1000) == LQ_OK ? 0 : 1;
	if (lq_job_set_result(job, "x", LQ_RESULT_MAX + 1) != LQ_EINVAL)
		return 1;
	return lq_job_set_result(job, "report.csv", 10) == LQ_OK ? 0 : 1;
}

static void job_progress_result_snooze(void **state)
{
	lq_db *db = DB(state);
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	lq_run_report rep;
	struct job_seen js = {-1, 0};
	char buf[32];
	size_t len = 0;
	lq_task cur;
	int64_t id = add(db, "export", 0, 0);

	o.mode = LQ_AT_LEAST_ONCE;
	assert_lq_ok(db, lq_runner_new(db, &o, &r));
	assert_lq_ok(db, lq_runner_handle(r, "export", job_handler, &js));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(js.percent, 60);
	assert_lq_ok(db, lq_task_result(db, id, buf, sizeof(buf), &len));
	assert_int_equal(len, 10);
	assert_memory_equal(buf, "report.csv", 10);

	js.snooze = 1;
	id = add(db, "export", 1, 0);
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	get(db, id, &cur); /* still there, later, the attempt not counted */
	assert_int_equal(cur.attempts, 0);
	assert_true(cur.run_at > cur.now + 3000 * 1000);
	lq_task_clear(&cur);
	lq_runner_free(r);
}

int lqt_conf_progress(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(snooze_at_least_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(snooze_at_most_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(snooze_recurring, lqt_conf_test_setup),
		cmocka_unit_test_setup(snooze_bad_delay, lqt_conf_test_setup),
		cmocka_unit_test_setup(progress_visible, lqt_conf_test_setup),
		cmocka_unit_test_setup(progress_refused_after_claim_lost, lqt_conf_test_setup),
		cmocka_unit_test_setup(result_read_back, lqt_conf_test_setup),
		cmocka_unit_test_setup(result_bound, lqt_conf_test_setup),
		cmocka_unit_test_setup(result_claim_lost, lqt_conf_test_setup),
		cmocka_unit_test_setup(result_pruned_with_history, lqt_conf_test_setup),
		cmocka_unit_test_setup(job_progress_result_snooze, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "progress/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]), lqt_conf_group_setup,
				       lqt_conf_group_teardown);
}
