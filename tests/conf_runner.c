/*
 * conf_runner.c - conformance: the runner (work with drain, tick, the
 * runner lease between processes, failing and missing handlers, stop).
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

/* What the handlers saw. */
struct seen {
	int n;
	int64_t ids[64];
	char payload[64][16];
	char name[64][32];
	int attempts[64];
	int heartbeat_failed;
	int stop_at;       /* call lq_runner_stop on this call (1-based), 0: never */
	lq_runner *runner;
	const char *error; /* fail with this error text when set */
};

static int record(lq_job *job, void *ctx)
{
	struct seen *s = ctx;
	const lq_task *t = lq_job_task(job);
	int i = s->n++;

	if (i < 64) {
		s->ids[i] = t->id;
		snprintf(s->payload[i], sizeof(s->payload[i]), "%.*s", (int)t->payload_len,
			 t->payload != NULL ? (const char *)t->payload : "");
		snprintf(s->name[i], sizeof(s->name[i]), "%.31s", t->name);
		s->attempts[i] = t->attempts;
	}
	if (t->mode == LQ_AT_LEAST_ONCE && lq_job_heartbeat(job) != LQ_OK)
		s->heartbeat_failed++;
	if (s->stop_at > 0 && s->n == s->stop_at)
		lq_runner_stop(s->runner);
	if (s->error != NULL) {
		if (s->error[0] != '\0')
			lq_job_set_error(job, s->error);
		return 1;
	}
	return 0;
}

static int64_t add(lq_db *db, const char *name, const char *queue, const char *payload, int max_attempts)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.queue = queue;
	o.payload = payload;
	o.payload_len = payload != NULL ? strlen(payload) : 0;
	o.max_attempts = max_attempts;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

static void runner_work_drain(void **state)
{
	lq_db *db = DB(state);
	lq_runner *r = NULL;
	lq_run_report rep;
	struct seen echo, any;
	int64_t ids[5], other;
	char p[16];

	memset(&echo, 0, sizeof(echo));
	memset(&any, 0, sizeof(any));
	for (int i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%d", i);
		ids[i] = add(db, "echo", NULL, p, 0);
	}
	other = add(db, "something else", NULL, "x", 0);
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "echo", record, &echo));
	assert_lq_ok(db, lq_runner_handle(r, "*", record, &any));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.ran, 6);
	assert_int_equal(rep.failed, 0);
	assert_int_equal(rep.claimed, 6);
	assert_int_equal(rep.stopped, LQ_STOP_IDLE);
	/* Each once, in id order, with its payload. */
	assert_int_equal(echo.n, 5);
	for (int i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%d", i);
		assert_int_equal(echo.ids[i], ids[i]);
		assert_string_equal(echo.payload[i], p);
	}
	assert_int_equal(any.n, 1);
	assert_int_equal(any.ids[0], other);
	assert_string_equal(any.name[0], "something else");
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	/* Nothing left: a second drain runs nothing. */
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.ran, 0);
	assert_int_equal(echo.n, 5);
	lq_runner_free(r);
	lq_runner_free(NULL);
}

static void runner_at_least_once(void **state)
{
	lq_db *db = DB(state);
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	const char *queues[] = {"qa", "qb", NULL};
	lq_runner *r = NULL;
	lq_run_report rep;
	struct seen s;

	memset(&s, 0, sizeof(s));
	add(db, "job", "qa", "a1", 0);
	add(db, "job", "qb", "b1", 0);
	add(db, "job", "qa", "a2", 0);
	add(db, "job", "qc", "not mine", 0);
	o.mode = LQ_AT_LEAST_ONCE;
	o.claim_ttl_ms = 10000;
	o.queues = queues;
	o.batch = 2;
	assert_lq_ok(db, lq_runner_new(db, &o, &r));
	assert_lq_ok(db, lq_runner_handle(r, "job", record, &s));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.ran, 3);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.heartbeat_failed, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.attempts[i], 1);
	/* Acked: gone from both queues; the third queue untouched. */
	assert_int_equal(lqt_count_tasks(db, "qa", 0), 0);
	assert_int_equal(lqt_count_tasks(db, "qb", 0), 0);
	assert_int_equal(lqt_count_tasks(db, "qc", 0), 1);
	lq_runner_free(r);
}

static void runner_handler_fails(void **state)
{
	lq_db *db = DB(state);
	lq_runner *r = NULL;
	lq_run_report rep;
	struct seen s;
	lq_task t;
	int64_t once, twice;

	memset(&s, 0, sizeof(s));
	s.error = "disk on fire";
	once = add(db, "bad", NULL, NULL, 1);
	/* Enough attempts that a short back-off cannot use them all up. */
	twice = add(db, "bad", NULL, NULL, 50);
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "bad", record, &s));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.ran, 0);
	assert_true(rep.failed >= 2);
	assert_int_equal(rep.failed, s.n);
	/* Out of attempts: dead with the handler's error. */
	assert_lq_ok(db, lq_task_get(db, once, &t));
	assert_int_equal(t.dead, 1);
	assert_non_null(t.last_error);
	assert_non_null(strstr(t.last_error, "disk on fire"));
	lq_task_clear(&t);
	/* Attempts left: kept for a retry, with the error. */
	assert_lq_ok(db, lq_task_get(db, twice, &t));
	assert_int_equal(t.dead, 0);
	assert_true(t.attempts >= 1);
	assert_non_null(t.last_error);
	assert_non_null(strstr(t.last_error, "disk on fire"));
	lq_task_clear(&t);

	/* A failure without a message still leaves a reason. */
	s.error = NULL;
	lq_runner_free(r);
	assert_lq_ok(db, lq_task_rm(db, twice));
	once = add(db, "silent", NULL, NULL, 1);
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "silent", record, &s));
	s.error = "";
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.failed, 1);
	assert_lq_ok(db, lq_task_get(db, once, &t));
	assert_int_equal(t.dead, 1);
	assert_non_null(t.last_error);
	assert_true(strlen(t.last_error) > 0);
	lq_task_clear(&t);
	lq_runner_free(r);
}

/* Shared between the test and its child. */
struct orphan_result {
	int status;
	lq_run_report rep;
	int known_ran;
};

struct orphan_ctx {
	const char *dsn;
	struct orphan_result *res;
};

static int count_call(lq_job *job, void *ctx)
{
	(void)job;
	(*(int *)ctx)++;
	return 0;
}

static int orphan_child(int idx, void *arg)
{
	struct orphan_ctx *c = arg;
	lq_db *db = lqt_open(c->dsn);
	lq_runner *r = NULL;
	int ran = 0;

	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_runner_new(db, NULL, &r));
	LQT_CHECK_ST(db, LQ_OK, lq_runner_handle(r, "known", count_call, &ran));
	c->res->status = lq_runner_work(r, 1, &c->res->rep);
	c->res->known_ran = ran;
	lq_runner_free(r);
	lq_close(db);
	return 0;
}

static void runner_no_handler(void **state)
{
	lqt_conf *c = CONF(state);
	struct orphan_ctx oc;
	lq_task t;
	int64_t orphan;

	add(c->db, "known", NULL, NULL, 0);
	orphan = add(c->db, "orphan", NULL, NULL, 0);
	oc.dsn = c->dsn;
	oc.res = lqt_shared_alloc(sizeof(*oc.res));
	/* In a child: a runner that spun on the orphan would never return. */
	lqt_conf_close(c);
	assert_int_equal(lqt_run_children(1, orphan_child, &oc, NULL, 60), 0);
	lqt_conf_reopen(c);
	assert_int_equal(oc.res->status, LQ_OK);
	assert_int_equal(oc.res->known_ran, 1);
	/* Never silently dropped: still there, or dead saying why. */
	assert_lq_ok(c->db, lq_task_get(c->db, orphan, &t));
	if (t.dead) {
		assert_non_null(t.last_error);
		assert_non_null(strstr(t.last_error, "no handler for orphan"));
	}
	lq_task_clear(&t);
	lqt_shared_free(oc.res, sizeof(*oc.res));
}

struct stop_shared {
	struct seen s;
	lq_run_report rep;
	int status;
};

struct stop_ctx {
	const char *dsn;
	struct stop_shared *sh;
};

static int stop_child(int idx, void *arg)
{
	struct stop_ctx *c = arg;
	lq_db *db = lqt_open(c->dsn);
	lq_runner *r = NULL;

	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_runner_new(db, NULL, &r));
	LQT_CHECK_ST(db, LQ_OK, lq_runner_handle(r, "job", record, &c->sh->s));
	c->sh->s.runner = r;
	c->sh->s.stop_at = 1;
	/* Not draining: only the stop request ends it. */
	c->sh->status = lq_runner_work(r, 0, &c->sh->rep);
	lq_runner_free(r);
	lq_close(db);
	return 0;
}

static void runner_stop(void **state)
{
	lqt_conf *c = CONF(state);
	struct stop_ctx sc;

	for (int i = 0; i < 3; i++)
		add(c->db, "job", NULL, NULL, 0);
	sc.dsn = c->dsn;
	sc.sh = lqt_shared_alloc(sizeof(*sc.sh));
	/* In a child: a runner that ignored the stop would never return. */
	lqt_conf_close(c);
	assert_int_equal(lqt_run_children(1, stop_child, &sc, NULL, 60), 0);
	lqt_conf_reopen(c);
	assert_int_equal(sc.sh->status, LQ_OK);
	assert_int_equal(sc.sh->s.n, 1);
	assert_int_equal(sc.sh->rep.ran, 1);
	assert_int_equal(sc.sh->rep.stopped, LQ_STOP_SIGNAL);
	assert_int_equal(lqt_count_tasks(c->db, NULL, 0), 2);
	lqt_shared_free(sc.sh, sizeof(*sc.sh));
}

static int count_held(const lq_lease *l, void *ctx)
{
	if (lq_lease_held(l))
		(*(int *)ctx)++;
	return 0;
}

static void runner_tick(void **state)
{
	lq_db *db = DB(state);
	lq_runner *r = NULL;
	lq_run_report rep;
	lq_status st;
	struct seen s;
	int held = 0;

	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 3; i++)
		add(db, "job", NULL, NULL, 0);
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "job", record, &s));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_tick(r, 10000, &rep));
	assert_int_equal(rep.ran, 3);
	assert_int_equal(rep.stopped, LQ_STOP_IDLE);
	assert_int_equal(s.n, 3);
	assert_true(s.ids[0] < s.ids[1] && s.ids[1] < s.ids[2]);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	/* The tick handed its runner lease back. */
	assert_lq_ok(db, lq_lease_list(db, count_held, &held));
	assert_int_equal(held, 0);
	/* Nothing due: nothing run, and a second tick right away is not
	 * blocked by the first. */
	memset(&rep, 0, sizeof(rep));
	st = lq_runner_tick(r, 10000, &rep);
	if (st != LQ_OK && st != LQ_EMPTY)
		fail_msg("idle tick: %s: %s", lq_status_str(st), lq_errmsg(db));
	assert_int_equal(rep.ran, 0);
	assert_true(rep.stopped == LQ_STOP_IDLE || rep.stopped == LQ_STOP_NONE);
	lq_runner_free(r);
}

/* Two ticks at once from two processes: one runs, one is told "held". */
struct tick_shared {
	int in_handler;   /* A is inside its (slow) handler, holding the lease */
	int b_done;       /* B has ticked */
	int status[2];
	lq_run_report rep[2];
};

struct tick_ctx {
	const char *dsn;
	struct tick_shared *sh;
};

static int slow_handler(lq_job *job, void *ctx)
{
	struct tick_shared *sh = ctx;

	(void)job;
	__atomic_store_n(&sh->in_handler, 1, __ATOMIC_RELEASE);
	/* Hold the runner lease until B has tried (bounded). */
	lqt_wait_flag(&sh->b_done, 10000);
	return 0;
}

static int tick_child(int idx, void *arg)
{
	struct tick_ctx *c = arg;
	lq_db *db = lqt_open(c->dsn);
	lq_runner *r = NULL;

	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_runner_new(db, NULL, &r));
	LQT_CHECK_ST(db, LQ_OK, lq_runner_handle(r, "slow", slow_handler, c->sh));
	if (idx == 1)
		LQT_CHECK(lqt_wait_flag(&c->sh->in_handler, 20000) == 0, "A never ran its task");
	c->sh->status[idx] = lq_runner_tick(r, 20000, &c->sh->rep[idx]);
	if (idx == 1)
		__atomic_store_n(&c->sh->b_done, 1, __ATOMIC_RELEASE);
	lq_runner_free(r);
	lq_close(db);
	return 0;
}

static void runner_tick_concurrent(void **state)
{
	lqt_conf *c = CONF(state);
	struct tick_ctx tc;

	add(c->db, "slow", NULL, NULL, 0);
	add(c->db, "slow", NULL, NULL, 0);
	tc.dsn = c->dsn;
	tc.sh = lqt_shared_alloc(sizeof(*tc.sh));
	lqt_conf_close(c);
	assert_int_equal(lqt_run_children(2, tick_child, &tc, NULL, 60), 0);
	lqt_conf_reopen(c);
	/* A ran both tasks; B returned at once. */
	assert_int_equal(tc.sh->status[0], LQ_OK);
	assert_int_equal(tc.sh->rep[0].ran, 2);
	assert_int_equal(tc.sh->status[1], LQ_BUSY);
	assert_int_equal(tc.sh->rep[1].stopped, LQ_STOP_HELD);
	assert_int_equal(tc.sh->rep[1].ran, 0);
	assert_int_equal(tc.sh->rep[1].claimed, 0);
	assert_int_equal(lqt_count_tasks(c->db, NULL, 0), 0);
	lqt_shared_free(tc.sh, sizeof(*tc.sh));
}

static void runner_recurring(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_runner *r = NULL;
	lq_run_report rep;
	struct seen s;
	lq_task t;
	int64_t id;

	memset(&s, 0, sizeof(s));
	o.every_ms = 3600 * 1000;
	o.run_at = lqt_db_now(db) - 1000;
	assert_lq_ok(db, lq_task_add(db, "hourly", &o, &id, NULL));
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "hourly", record, &s));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	assert_int_equal(rep.ran, 1);
	assert_int_equal(s.n, 1);
	/* The schedule stays, next run in the future. */
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_int_equal(t.dead, 0);
	assert_true(t.run_at > t.now);
	lq_task_clear(&t);
	lq_runner_free(r);
}

int lqt_conf_runner(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(runner_work_drain, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_at_least_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_handler_fails, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_no_handler, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_stop, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_tick, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_tick_concurrent, lqt_conf_test_setup),
		cmocka_unit_test_setup(runner_recurring, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "runner/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
