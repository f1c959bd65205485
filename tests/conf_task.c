/*
 * conf_task.c - conformance: one-off tasks (add, claim in both modes, ack,
 * heartbeat, fail, dead tasks, retry, rm, pause, queues, batches).
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static lq_db *other(void **state)
{
	lq_db *db = lqt_open(CONF(state)->dsn);
	assert_non_null(db);
	return db;
}

/* Add a task; run_at 0 means "now". */
static int64_t add(lq_db *db, const char *name, const char *queue, int64_t run_at, const char *payload)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;
	int existed = -1;

	o.queue = queue;
	o.run_at = run_at;
	o.payload = payload;
	o.payload_len = payload != NULL ? strlen(payload) : 0;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, &existed));
	assert_true(id > 0);
	assert_int_equal(existed, 0);
	return id;
}

static void claim_one(lq_db *db, const char *queue, lq_mode mode, int64_t ttl, lq_task *t)
{
	size_t n = 99;

	assert_lq_ok(db, lq_task_claim(db, queue, mode, ttl, t, 1, &n));
	assert_int_equal(n, 1);
}

static void claim_none(lq_db *db, const char *queue, lq_mode mode)
{
	lq_task t;
	size_t n = 99;

	memset(&t, 0, sizeof(t));
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, queue, mode, 30000, &t, 1, &n));
	assert_int_equal(n, 0);
}

static void task_add_and_get(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	int64_t id1, id2, id3;

	id1 = add(db, "first", NULL, 0, "hello");
	id2 = add(db, "second", NULL, 0, NULL);
	id3 = add(db, "third", "other", 0, "x");
	assert_true(id1 < id2);
	assert_true(id2 < id3);
	/* id and existed may be NULL. */
	assert_lq_ok(db, lq_task_add(db, "fourth", NULL, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 4);

	assert_lq_ok(db, lq_task_get(db, id1, &t));
	assert_int_equal(t.id, id1);
	assert_string_equal(t.queue, LQ_DEFAULT_QUEUE);
	assert_string_equal(t.name, "first");
	assert_int_equal(t.payload_len, 5);
	assert_memory_equal(t.payload, "hello", 6); /* NUL-terminated */
	assert_int_equal(t.attempts, 0);
	assert_int_equal(t.max_attempts, LQ_DEFAULT_MAX_ATTEMPTS);
	assert_string_equal(t.unique_key, "");
	assert_string_equal(t.claim_owner, "");
	assert_int_equal(t.claim_until, 0);
	assert_int_equal(t.every_ms, 0);
	assert_string_equal(t.cron, "");
	assert_int_equal(t.paused, 0);
	assert_null(t.last_error);
	assert_int_equal(t.dead, 0);
	assert_true(t.created_at > 0);
	/* No delay: due at creation. */
	assert_true(t.run_at >= t.created_at - 50 && t.run_at <= t.created_at + 50);
	assert_true(t.run_at <= t.now);
	lq_task_clear(&t);
	assert_null(t.payload);

	assert_lq_ok(db, lq_task_get(db, id2, &t));
	assert_null(t.payload);
	assert_int_equal(t.payload_len, 0);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id3, &t));
	assert_string_equal(t.queue, "other");
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id3 + 1000, &t));
	lq_task_clear(NULL);
}

static void task_payload_binary(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	size_t len = 1024 * 1024;
	unsigned char *p = malloc(LQ_PAYLOAD_MAX);
	lq_task t;
	int64_t id;

	assert_non_null(p);
	for (size_t i = 0; i < LQ_PAYLOAD_MAX; i++)
		p[i] = (unsigned char)(i * 7 + i / 256); /* every byte value, NUL included */
	o.payload = p;
	o.payload_len = len;
	assert_lq_ok(db, lq_task_add(db, "bin", &o, &id, NULL));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_int_equal(t.payload_len, len);
	assert_memory_equal(t.payload, p, len);
	lq_task_clear(&t);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_int_equal(t.payload_len, len);
	assert_memory_equal(t.payload, p, len);
	assert_int_equal(t.payload[len], 0);
	lq_task_clear(&t);

	/* The documented maximum is accepted whole. */
	o.payload_len = LQ_PAYLOAD_MAX;
	assert_lq_ok(db, lq_task_add(db, "max", &o, &id, NULL));
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.id, id);
	assert_int_equal(t.payload_len, LQ_PAYLOAD_MAX);
	assert_memory_equal(t.payload, p, LQ_PAYLOAD_MAX);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	free(p);
}

static void task_delay(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, c;
	int64_t id, wait = -2;

	o.delay_ms = 1000;
	assert_lq_ok(db, lq_task_add(db, "later", &o, &id, NULL));
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	claim_none(db, NULL, LQ_AT_LEAST_ONCE);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DUE), 0);
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_true(t.run_at - t.created_at >= 1000 - 50 && t.run_at - t.created_at <= 1000 + 50);
	assert_lq_ok(db, lq_queue_next_due(db, NULL, &wait));
	assert_true(wait > 0 && wait <= 1000);
	/* Due once the database clock passes run_at. */
	lqt_sleep_ms(t.run_at - t.now + 200);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DUE), 1);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &c);
	assert_int_equal(c.id, id);
	assert_int_equal(c.run_at, t.run_at);
	lq_task_clear(&t);
	lq_task_clear(&c);
}

static void task_run_at(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), past, future;
	lq_task t;

	future = add(db, "future", NULL, now + 3600 * 1000, NULL);
	past = add(db, "past", NULL, now - 10000, NULL);
	assert_lq_ok(db, lq_task_get(db, future, &t));
	assert_int_equal(t.run_at, now + 3600 * 1000);
	lq_task_clear(&t);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, past);
	assert_int_equal(t.run_at, now - 10000);
	lq_task_clear(&t);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
}

static void task_unique_key(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id1, id2, id3, id;
	int existed;
	lq_task t;

	o.unique_key = "report:2024";
	o.payload = "one";
	o.payload_len = 3;
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id1, &existed));
	assert_int_equal(existed, 0);
	/* Second enqueue of a live task: a no-op returning the same id. */
	o.payload = "two";
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id, &existed));
	assert_int_equal(existed, 1);
	assert_int_equal(id, id1);
	assert_lq_ok(db, lq_task_add(db, "other name, same key", &o, &id, &existed));
	assert_int_equal(existed, 1);
	assert_int_equal(id, id1);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_lq_ok(db, lq_task_get(db, id1, &t));
	assert_string_equal(t.unique_key, "report:2024");
	assert_memory_equal(t.payload, "one", 3);
	lq_task_clear(&t);
	/* Another key is another task. */
	o.unique_key = "report:2025";
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id, &existed));
	assert_int_equal(existed, 0);
	assert_true(id > id1);

	/* Done (claimed at-most-once): the key is free again. */
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id1);
	lq_task_clear(&t);
	o.unique_key = "report:2024";
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id2, &existed));
	assert_int_equal(existed, 0);
	assert_true(id2 > id1);

	/* Claimed at-least-once it is still live until acked. */
	lq_task_clear(&t);
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.id, id);
	lq_task_clear(&t);
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.id, id2);
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id3, &existed));
	assert_int_equal(existed, 1);
	assert_int_equal(id3, id2);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id3, &existed));
	assert_int_equal(existed, 0);
	assert_true(id3 > id2);
}

static void task_claim_order(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t want[2][4];
	lq_task t[10];
	size_t n;

	/* Same tasks in two queues: one claimed in one batch, one by one. */
	for (int q = 0; q < 2; q++) {
		const char *queue = q == 0 ? "q1" : "q2";
		int64_t a = add(db, "a", queue, now - 1000, NULL);
		int64_t b = add(db, "b", queue, now - 3000, NULL);
		int64_t c = add(db, "c", queue, now - 2000, NULL);
		int64_t d = add(db, "d", queue, now - 3000, NULL);
		/* (run_at, id): b and d share a run_at, b has the lower id. */
		want[q][0] = b;
		want[q][1] = d;
		want[q][2] = c;
		want[q][3] = a;
	}
	assert_lq_ok(db, lq_task_claim(db, "q1", LQ_AT_MOST_ONCE, 0, t, 10, &n));
	assert_int_equal(n, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(t[i].id, want[0][i]);
		lq_task_clear(&t[i]);
	}
	for (int i = 0; i < 4; i++) {
		claim_one(db, "q2", LQ_AT_LEAST_ONCE, 30000, &t[0]);
		assert_int_equal(t[0].id, want[1][i]);
		assert_lq_ok(db, lq_task_ack(db, &t[0]));
		lq_task_clear(&t[0]);
	}
	claim_none(db, "q1", LQ_AT_MOST_ONCE);
	claim_none(db, "q2", LQ_AT_MOST_ONCE);
}

static void task_at_most_once(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_task t, g;
	int64_t id = add(db, "amo", NULL, 0, "p");

	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_int_equal(t.mode, LQ_AT_MOST_ONCE);
	assert_int_equal(t.recurring, 0);
	assert_string_equal(t.name, "amo");
	/* The claim deleted it: nobody else can get it, not even later. */
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &g));
	claim_none(db2, NULL, LQ_AT_MOST_ONCE);
	claim_none(db2, NULL, LQ_AT_LEAST_ONCE);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &g));
	lq_task_clear(&t);
	lq_close(db2);
}

static void task_at_least_once(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_task t, g;
	int64_t id = add(db, "alo", NULL, 0, "p");

	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.id, id);
	assert_int_equal(t.mode, LQ_AT_LEAST_ONCE);
	assert_int_equal(t.attempts, 1);
	assert_true(strlen(t.claim_owner) > 0);
	assert_true(t.claim_until - t.now >= 30000 - 1000 && t.claim_until - t.now <= 30000 + 50);
	assert_memory_equal(t.payload, "p", 2);
	/* The row stays, marked with the claim. */
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.claim_owner, t.claim_owner);
	/* The claim's own report may be a hair early, never late. */
	assert_true(g.claim_until >= t.claim_until && g.claim_until - t.claim_until < 1000);
	assert_int_equal(g.attempts, 1);
	lq_task_clear(&g);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DUE), 0);
	/* Nobody else gets it while the claim lasts. */
	claim_none(db2, NULL, LQ_AT_LEAST_ONCE);
	claim_none(db2, NULL, LQ_AT_MOST_ONCE);
	assert_lq_ok(db, lq_task_ack(db, &t));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &g));
	lq_task_clear(&t);
	lq_close(db2);
}

static void task_ack_stale(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_task a, b, g, before;
	int64_t id = add(db, "stale", NULL, 0, NULL);

	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 300, &a);
	lqt_sleep_ms(500);
	/* The claim expired: another worker takes the task again. */
	claim_one(db2, NULL, LQ_AT_LEAST_ONCE, 30000, &b);
	assert_int_equal(b.id, id);
	assert_int_equal(b.attempts, 2);
	assert_string_not_equal(b.claim_owner, a.claim_owner);
	assert_lq_ok(db, lq_task_get(db, id, &before));
	assert_lq(db, LQ_LOST, lq_task_ack(db, &a));
	assert_lq(db, LQ_LOST, lq_task_heartbeat(db, &a, 30000));
	assert_lq(db, LQ_LOST, lq_task_fail(db, &a, "late failure"));
	/* B's claim is untouched by A's late calls. */
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.claim_owner, b.claim_owner);
	assert_int_equal(g.claim_until, before.claim_until);
	assert_int_equal(g.attempts, 2);
	assert_int_equal(g.run_at, before.run_at);
	assert_null(g.last_error);
	assert_int_equal(g.dead, 0);
	lq_task_clear(&g);
	lq_task_clear(&before);
	assert_lq_ok(db2, lq_task_ack(db2, &b));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &g));
	lq_task_clear(&a);
	lq_task_clear(&b);
	lq_close(db2);
}

static void task_heartbeat(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_task a, b, g;
	int64_t id = add(db, "hb", NULL, 0, NULL), old;

	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 1500, &a); /* outlasts a slow commit */
	old = a.claim_until;
	assert_lq_ok(db, lq_task_heartbeat(db, &a, 10000));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_true(g.claim_until > old);
	assert_string_equal(g.claim_owner, a.claim_owner);
	assert_true(g.claim_until - g.now > 9000);
	lq_task_clear(&g);
	/* Past the first TTL, the heartbeat kept it claimed. */
	lqt_sleep_ms(1800);
	claim_none(db2, NULL, LQ_AT_LEAST_ONCE);
	/* A short heartbeat, then expiry and a new claimer: A has lost it. */
	assert_lq_ok(db, lq_task_heartbeat(db, &a, 200));
	lqt_sleep_ms(400);
	claim_one(db2, NULL, LQ_AT_LEAST_ONCE, 30000, &b);
	assert_int_equal(b.id, id);
	assert_lq(db, LQ_LOST, lq_task_heartbeat(db, &a, 10000));
	assert_lq(db, LQ_LOST, lq_task_ack(db, &a));
	assert_lq_ok(db2, lq_task_heartbeat(db2, &b, 10000));
	assert_lq_ok(db2, lq_task_ack(db2, &b));
	lq_task_clear(&a);
	lq_task_clear(&b);
	lq_close(db2);
}

struct tasks_seen {
	int64_t ids[64];
	int n;
	int loaded_payload;
};

static int collect_tasks(const lq_task *t, void *ctx)
{
	struct tasks_seen *s = ctx;

	if (s->n < 64)
		s->ids[s->n] = t->id;
	s->n++;
	if (t->payload != NULL)
		s->loaded_payload = 1;
	return 0;
}

static void task_fail_retry_dead(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, g;
	int64_t id, before;
	struct tasks_seen seen;
	char err[32];

	o.max_attempts = 3;
	o.payload = "keep me";
	o.payload_len = 7;
	assert_lq_ok(db, lq_task_add(db, "flaky", &o, &id, NULL));
	for (int attempt = 1; attempt <= 3; attempt++) {
		claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
		assert_int_equal(t.id, id);
		assert_int_equal(t.attempts, attempt);
		before = lqt_db_now(db);
		snprintf(err, sizeof(err), "boom %d", attempt);
		assert_lq_ok(db, lq_task_fail(db, &t, err));
		lq_task_clear(&t);
		assert_lq_ok(db, lq_task_get(db, id, &g));
		assert_string_equal(g.last_error, err);
		assert_int_equal(g.attempts, attempt);
		assert_memory_equal(g.payload, "keep me", 8);
		if (attempt < 3) {
			/* Retried later: unclaimed, run_at after the failure. */
			assert_int_equal(g.dead, 0);
			assert_string_equal(g.claim_owner, "");
			assert_int_equal(g.claim_until, 0);
			assert_true(g.run_at > before);
			claim_none(db, NULL, LQ_AT_LEAST_ONCE);
			assert_lq_ok(db, lq_task_retry(db, id)); /* skip the back-off */
		} else {
			/* Out of attempts: dead, kept with its last error. */
			assert_int_equal(g.dead, 1);
			assert_true(g.died_at > 0);
			assert_string_equal(g.name, "flaky");
		}
		lq_task_clear(&g);
	}
	claim_none(db, NULL, LQ_AT_LEAST_ONCE);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	memset(&seen, 0, sizeof(seen));
	assert_lq_ok(db, lq_task_list(db, NULL, LQ_LIST_DEAD, collect_tasks, &seen));
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ids[0], id);
	assert_int_equal(lqt_count_tasks(db, LQ_DEFAULT_QUEUE, LQ_LIST_DEAD), 1);
	assert_int_equal(lqt_count_tasks(db, "elsewhere", LQ_LIST_DEAD), 0);

	/* Retry brings it back: attempts 0, due now, payload intact. */
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 0);
	assert_int_equal(g.attempts, 0);
	assert_true(g.run_at <= g.now);
	lq_task_clear(&g);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_memory_equal(t.payload, "keep me", 8);
	lq_task_clear(&t);
}

static void task_fail_backoff(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, g;
	int64_t id, before, wait;

	/* at-most-once: the failed run is put back for later. */
	o.max_attempts = 2;
	assert_lq_ok(db, lq_task_add(db, "amo-fail", &o, &id, NULL));
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	before = lqt_db_now(db);
	assert_lq_ok(db, lq_task_fail(db, &t, "first"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 0);
	assert_int_equal(g.attempts, 1);
	assert_string_equal(g.last_error, "first");
	assert_true(g.run_at > before);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	lq_task_clear(&g);
	/* The back-off ends: due again by itself (bounded wait). */
	assert_lq_ok(db, lq_queue_next_due(db, NULL, &wait));
	assert_true(wait >= 0 && wait <= 60000);
	lqt_sleep_ms(wait + 100);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_lq_ok(db, lq_task_fail(db, &t, "second"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 1);
	assert_int_equal(g.attempts, 2);
	assert_string_equal(g.last_error, "second");
	lq_task_clear(&g);

	/* max_attempts 1: dead at the first failure. */
	o.max_attempts = 1;
	assert_lq_ok(db, lq_task_add(db, "once", &o, &id, NULL));
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_fail(db, &t, "only try"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.dead, 1);
	assert_string_equal(g.last_error, "only try");
	lq_task_clear(&g);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 2);
}

static void task_retry_rm(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t live = add(db, "live", NULL, now + 3600 * 1000, NULL);
	int64_t gone = add(db, "gone", NULL, 0, NULL);
	lq_task t;

	/* Retry of a waiting live task: due now. */
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, gone);
	lq_task_clear(&t);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	assert_lq_ok(db, lq_task_retry(db, live));
	assert_lq_ok(db, lq_task_get(db, live, &t));
	assert_true(t.run_at <= t.now);
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_retry(db, gone));
	assert_lq(db, LQ_NOTFOUND, lq_task_retry(db, live + 1000));

	assert_lq_ok(db, lq_task_rm(db, live));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, live, &t));
	assert_lq(db, LQ_NOTFOUND, lq_task_rm(db, live));
	assert_lq(db, LQ_NOTFOUND, lq_task_rm(db, live + 1000));
	claim_none(db, NULL, LQ_AT_MOST_ONCE);

	/* rm of a dead task. */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t dead;
	o.max_attempts = 1;
	assert_lq_ok(db, lq_task_add(db, "dies", &o, &dead, NULL));
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_lq_ok(db, lq_task_fail(db, &t, "x"));
	lq_task_clear(&t);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 1);
	assert_lq_ok(db, lq_task_rm(db, dead));
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, dead, &t));
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
}

/* n tasks named name on queue q, failed once with max_attempts 1: dead. */
static void make_dead(lq_db *db, const char *q, const char *name, int n)
{
	static lq_task t[200];
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	o.queue = q;
	o.max_attempts = 1;
	for (int i = 0; i < n; i++)
		assert_lq_ok(db, lq_task_add(db, name, &o, NULL, NULL));
	for (int left = n; left > 0;) {
		size_t got = 0;
		assert_lq_ok(db, lq_task_claim(db, q, LQ_AT_LEAST_ONCE, 60000, t, 200, &got));
		assert_true(got > 0);
		for (size_t i = 0; i < got; i++) {
			assert_lq_ok(db, lq_task_fail(db, &t[i], "boom"));
			lq_task_clear(&t[i]);
		}
		left -= (int)got;
	}
}

/* prune: only dead tasks older than the age, per queue, in batches (more
 * than one batch of 1000), a dry run changes nothing. */
static void task_prune(void **state)
{
	lq_db *db = DB(state);
	int64_t n = -1;
	int64_t live = add(db, "lives", "pa", 0, NULL);

	make_dead(db, "pa", "old", 1100);
	make_dead(db, "pb", "old", 3);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 1103);
	/* Nothing died an hour ago. */
	assert_lq_ok(db, lq_task_prune(db, 3600000, NULL, 0, &n));
	assert_int_equal(n, 0);
	lqt_sleep_ms(20); /* died_at < NOW - 0 must hold for every one */
	assert_lq_ok(db, lq_task_prune(db, 0, NULL, LQ_PRUNE_DRY_RUN, &n));
	assert_int_equal(n, 1103);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 1103);
	assert_lq_ok(db, lq_task_prune(db, 0, "pb", 0, &n));
	assert_int_equal(n, 3);
	assert_int_equal(lqt_count_tasks(db, "pb", LQ_LIST_DEAD), 0);
	assert_lq_ok(db, lq_task_prune(db, 0, NULL, 0, &n));
	assert_int_equal(n, 1100);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);
	/* Live tasks are never pruned. */
	lq_task t;
	assert_lq_ok(db, lq_task_get(db, live, &t));
	assert_false(t.dead);
	lq_task_clear(&t);
	assert_lq(db, LQ_EINVAL, lq_task_prune(db, -1, NULL, 0, &n));
	assert_lq(db, LQ_EINVAL, lq_task_prune(db, 0, "", 0, &n));
}

static void task_pause(void **state)
{
	lq_db *db = DB(state);
	int64_t id = add(db, "pausable", NULL, 0, NULL);
	lq_task t;

	assert_lq_ok(db, lq_task_pause(db, id, 1));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_int_equal(t.paused, 1);
	lq_task_clear(&t);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	claim_none(db, NULL, LQ_AT_LEAST_ONCE);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DUE), 0);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_lq_ok(db, lq_task_pause(db, id, 0));
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_task_pause(db, id, 1));
}

struct queues_seen {
	lq_queue_info q[8];
	int n;
};

static int collect_queues(const lq_queue_info *q, void *ctx)
{
	struct queues_seen *s = ctx;

	if (s->n < 8)
		s->q[s->n] = *q;
	s->n++;
	return 0;
}

static const lq_queue_info *find_queue(const struct queues_seen *s, const char *name)
{
	for (int i = 0; i < s->n && i < 8; i++)
		if (strcmp(s->q[i].name, name) == 0)
			return &s->q[i];
	return NULL;
}

static void task_queue_pause(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), wait = -2;
	int64_t due = add(db, "due", "qp", 0, NULL);
	int64_t later = add(db, "later", "qp", now + 3600 * 1000, NULL);
	int64_t other_q = add(db, "other", NULL, 0, NULL);
	struct queues_seen s;
	const lq_queue_info *q;
	lq_task t;

	assert_lq_ok(db, lq_queue_pause(db, "qp", 1));
	claim_none(db, "qp", LQ_AT_MOST_ONCE);
	claim_none(db, "qp", LQ_AT_LEAST_ONCE);
	assert_lq_ok(db, lq_queue_next_due(db, "qp", &wait));
	assert_int_equal(wait, -1);
	/* Other queues are not affected. */
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, other_q);
	lq_task_clear(&t);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_queue_list(db, collect_queues, &s));
	q = find_queue(&s, "qp");
	assert_non_null(q);
	assert_int_equal(q->paused, 1);
	assert_int_equal(q->tasks, 2);
	assert_int_equal(q->dead, 0);

	assert_lq_ok(db, lq_queue_pause(db, "qp", 0));
	claim_one(db, "qp", LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, due);
	lq_task_clear(&t);
	claim_none(db, "qp", LQ_AT_MOST_ONCE);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_queue_list(db, collect_queues, &s));
	q = find_queue(&s, "qp");
	assert_non_null(q);
	assert_int_equal(q->paused, 0);
	assert_int_equal(q->tasks, 1);
	assert_int_equal(q->due, 0);
	assert_int_equal(q->dead, 0);
	assert_int_equal(q->next_run_at, now + 3600 * 1000);
	assert_lq_ok(db, lq_task_get(db, later, &t));
	lq_task_clear(&t);
	/* Pausing a queue that has no task yet is allowed and sticks. */
	assert_lq_ok(db, lq_queue_pause(db, "empty-q", 1));
	add(db, "x", "empty-q", 0, NULL);
	claim_none(db, "empty-q", LQ_AT_MOST_ONCE);
}

static void task_queue_counts(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	struct queues_seen s;
	const lq_queue_info *q;
	lq_task t;

	add(db, "a", "qc", now - 5000, NULL);
	add(db, "b", "qc", now - 4000, NULL);
	add(db, "c", "qc", now + 100000, NULL);
	o.queue = "qc";
	o.max_attempts = 1;
	o.run_at = now - 6000;
	assert_lq_ok(db, lq_task_add(db, "d", &o, NULL, NULL));
	claim_one(db, "qc", LQ_AT_LEAST_ONCE, 30000, &t);
	assert_string_equal(t.name, "d");
	assert_lq_ok(db, lq_task_fail(db, &t, "dead"));
	lq_task_clear(&t);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_queue_list(db, collect_queues, &s));
	q = find_queue(&s, "qc");
	assert_non_null(q);
	assert_int_equal(q->tasks, 3);
	assert_int_equal(q->due, 2);
	assert_int_equal(q->dead, 1);
	assert_int_equal(q->paused, 0);
	assert_int_equal(q->next_run_at, now - 5000);
}

static void task_batch(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), ids[25];
	lq_task t[10];
	size_t n;

	for (int i = 0; i < 25; i++)
		ids[i] = add(db, "batch", NULL, now - 1000, NULL);
	for (int round = 0; round < 3; round++) {
		size_t want = round < 2 ? 10 : 5;
		n = 99;
		assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, t, 10, &n));
		assert_int_equal(n, want);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(t[i].id, ids[round * 10 + (int)i]);
			lq_task_clear(&t[i]);
		}
	}
	n = 99;
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, t, 10, &n));
	assert_int_equal(n, 0);

	/* at-least-once batches: every row claimed, none twice. */
	for (int i = 0; i < 12; i++)
		ids[i] = add(db, "batch2", NULL, now - 1000, NULL);
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, t, 10, &n));
	assert_int_equal(n, 10);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(t[i].id, ids[i]);
		assert_int_equal(t[i].attempts, 1);
		assert_lq_ok(db, lq_task_ack(db, &t[i]));
		lq_task_clear(&t[i]);
	}
	assert_lq_ok(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 30000, t, 10, &n));
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(t[i].id, ids[10 + i]);
		assert_lq_ok(db, lq_task_ack(db, &t[i]));
		lq_task_clear(&t[i]);
	}
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
}

/* One claim of 10 meets one-off tasks, a recurring task and an at-least-once
 * claim that expired on its last attempt: it returns the one-off tasks and the
 * occurrence, and buries the exhausted task.  (On PostgreSQL the one-off tasks
 * come from the one-statement claim and the rest from the transaction.) */
static void task_batch_mixed(void **state)
{
	lq_db *db = DB(state);
	static const lq_mode modes[2] = {LQ_AT_MOST_ONCE, LQ_AT_LEAST_ONCE};
	static const char *const queues[2] = {"mixed-amo", "mixed-alo"};

	for (int m = 0; m < 2; m++) {
		const char *q = queues[m];
		int64_t now = lqt_db_now(db), plain[3], every, spent;
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		lq_task t[10];
		size_t n = 0;

		/* Spent: claimed at-least-once on its only attempt, then left to expire. */
		o.queue = q;
		o.run_at = now - 5000;
		o.max_attempts = 1;
		assert_lq_ok(db, lq_task_add(db, "spent", &o, &spent, NULL));
		assert_lq_ok(db, lq_task_claim(db, q, LQ_AT_LEAST_ONCE, 50, t, 1, &n));
		assert_int_equal(n, 1);
		lq_task_clear(&t[0]);
		int64_t deadline = now + 10000;
		while (lqt_db_now(db) <= now + 200 && lqt_db_now(db) < deadline)
			lqt_sleep_ms(20);

		for (int i = 0; i < 3; i++)
			plain[i] = add(db, "plain", q, now - 3000 + i * 1000, NULL);
		o = (lq_task_opts)LQ_TASK_OPTS_INIT;
		o.queue = q;
		o.run_at = now - 2500;
		o.every_ms = 3600 * 1000;
		assert_lq_ok(db, lq_task_add(db, "every", &o, &every, NULL));

		n = 99;
		assert_lq_ok(db, lq_task_claim(db, q, modes[m], 30000, t, 10, &n));
		assert_int_equal(n, 4);
		int seen_plain = 0, seen_every = 0;
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(t[i].mode, modes[m]);
			if (t[i].id == every) {
				seen_every++;
				assert_int_equal(t[i].recurring, 1);
				assert_true(t[i].next_run_at > now);
			} else {
				assert_true(t[i].id == plain[0] || t[i].id == plain[1] || t[i].id == plain[2]);
				assert_int_equal(t[i].recurring, 0);
				seen_plain++;
				if (modes[m] == LQ_AT_LEAST_ONCE) {
					assert_int_equal(t[i].attempts, 1);
					assert_true(t[i].claim_owner[0] != '\0');
					assert_lq_ok(db, lq_task_ack(db, &t[i]));
				}
			}
			lq_task_clear(&t[i]);
		}
		assert_int_equal(seen_plain, 3);
		assert_int_equal(seen_every, 1);
		lq_task got;
		assert_lq_ok(db, lq_task_get(db, spent, &got));
		assert_int_equal(got.dead, 1);
		lq_task_clear(&got);
		claim_none(db, q, modes[m]);
		assert_int_equal(lqt_count_tasks(db, q, 0), 1); /* the recurring task, next hour */
	}
}

static void task_empty(void **state)
{
	lq_db *db = DB(state);
	int64_t wait = -2;

	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	claim_none(db, NULL, LQ_AT_LEAST_ONCE);
	claim_none(db, "never used", LQ_AT_MOST_ONCE);
	assert_lq_ok(db, lq_queue_next_due(db, NULL, &wait));
	assert_int_equal(wait, -1);
}

static void task_list(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t a = add(db, "a", "l1", 0, "payload");
	int64_t b = add(db, "b", "l2", 0, NULL);
	int64_t c = add(db, "c", "l1", now + 3600 * 1000, NULL);
	struct tasks_seen s;

	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_task_list(db, NULL, 0, collect_tasks, &s));
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ids[0], a);
	assert_int_equal(s.ids[1], b);
	assert_int_equal(s.ids[2], c);
	assert_int_equal(s.loaded_payload, 0);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_task_list(db, "l1", 0, collect_tasks, &s));
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ids[0], a);
	assert_int_equal(s.ids[1], c);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_task_list(db, NULL, LQ_LIST_DUE, collect_tasks, &s));
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ids[0], a);
	assert_int_equal(s.ids[1], b);
	memset(&s, 0, sizeof(s));
	assert_lq_ok(db, lq_task_list(db, "l1", LQ_LIST_DUE, collect_tasks, &s));
	assert_int_equal(s.n, 1);
	assert_int_equal(s.ids[0], a);
	assert_int_equal(lqt_count_tasks(db, "nope", 0), 0);
}

static void task_next_due(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), wait = -2;
	lq_task t;

	assert_lq_ok(db, lq_queue_next_due(db, "nd", &wait));
	assert_int_equal(wait, -1);
	add(db, "later", "nd", now + 10000, NULL);
	assert_lq_ok(db, lq_queue_next_due(db, "nd", &wait));
	assert_true(wait > 8000 && wait <= 10000);
	add(db, "now", "nd", now - 10, NULL);
	assert_lq_ok(db, lq_queue_next_due(db, "nd", &wait));
	assert_int_equal(wait, 0);
	/* A claimed task is not claimable: only the waiting one counts. */
	claim_one(db, "nd", LQ_AT_LEAST_ONCE, 5000, &t);
	assert_string_equal(t.name, "now");
	lq_task_clear(&t);
	assert_lq_ok(db, lq_queue_next_due(db, "nd", &wait));
	assert_true(wait > 8000 && wait <= 10000);
	add(db, "alone", "nd2", now - 10, NULL);
	claim_one(db, "nd2", LQ_AT_LEAST_ONCE, 5000, &t);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_queue_next_due(db, "nd2", &wait));
	assert_int_equal(wait, -1);
	/* Other queues do not count. */
	assert_lq_ok(db, lq_queue_next_due(db, NULL, &wait));
	assert_int_equal(wait, -1);
}

static void task_names_are_data(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	const char *evil = "x'); DROP TABLE lq_task;--";
	lq_task t;
	int64_t id;

	o.queue = evil;
	o.unique_key = evil;
	o.payload = evil;
	o.payload_len = strlen(evil);
	assert_lq_ok(db, lq_task_add(db, evil, &o, &id, NULL));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_string_equal(t.name, evil);
	assert_string_equal(t.queue, evil);
	assert_string_equal(t.unique_key, evil);
	lq_task_clear(&t);
	/* Byte-exact queue names. */
	claim_none(db, "X'); DROP TABLE lq_task;--", LQ_AT_MOST_ONCE);
	claim_one(db, evil, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_memory_equal(t.payload, evil, strlen(evil));
	lq_task_clear(&t);
}

/* A stopping worker hands a task back unrun: due again, attempt not counted. */
static void task_release(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_task t, g;

	/* at-least-once: the claim is cleared and attempts go back to 0. */
	int64_t id = add(db, "rel", NULL, 0, "p1");
	claim_one(db, NULL, LQ_AT_LEAST_ONCE, 30000, &t);
	assert_int_equal(t.attempts, 1);
	assert_lq_ok(db, lq_task_release(db, &t));
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_string_equal(g.claim_owner, "");
	assert_int_equal(g.attempts, 0);
	assert_null(g.last_error);
	lq_task_clear(&g);
	/* A second hand-back of the same claim is lost: nothing changes. */
	assert_lq(db, LQ_LOST, lq_task_release(db, &t));
	lq_task_clear(&t);
	/* Due at once for anyone. */
	claim_one(db2, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	assert_int_equal(t.attempts, 0);

	/* at-most-once: the deleted row comes back under its id, unchanged. */
	assert_lq_ok(db2, lq_task_release(db2, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &g));
	assert_int_equal(g.attempts, 0);
	assert_memory_equal(g.payload, "p1", 3);
	lq_task_clear(&g);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 0, &t);
	assert_int_equal(t.id, id);
	lq_task_clear(&t);
	claim_none(db, NULL, LQ_AT_MOST_ONCE);
	lq_close(db2);
}

/* Defect: an at-most-once task that failed (or was handed back) while a
 * newer task had taken its unique key vanished without a trace.  It is now
 * recorded dead with the reason. */
static void task_unique_requeue(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t, dead;
	int64_t id1, id2, id3, id4;
	int existed = -1;

	o.unique_key = "nightly";
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id1, NULL));
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 30000, &t);
	assert_int_equal(t.id, id1);
	/* The claim deleted it: the key is free for a newer task. */
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id2, &existed));
	assert_int_equal(existed, 0);
	assert_true(id2 != id1);
	assert_lq_ok(db, lq_task_fail(db, &t, "boom"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id1, &dead));
	assert_true(dead.dead);
	assert_int_equal(dead.attempts, 1);
	assert_non_null(dead.last_error);
	assert_non_null(strstr(dead.last_error, "boom"));
	assert_non_null(strstr(dead.last_error, "unique key \"nightly\""));
	lq_task_clear(&dead);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);

	/* The same for a task handed back unrun. */
	o.unique_key = "hourly";
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id3, NULL));
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 30000, &t);
	assert_int_equal(t.id, id2); /* older first */
	lq_task_clear(&t);
	claim_one(db, NULL, LQ_AT_MOST_ONCE, 30000, &t);
	assert_int_equal(t.id, id3);
	assert_lq_ok(db, lq_task_add(db, "report", &o, &id4, NULL));
	assert_lq_ok(db, lq_task_release(db, &t));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id3, &dead));
	assert_true(dead.dead);
	assert_int_equal(dead.attempts, 0);
	assert_non_null(strstr(dead.last_error, "handed back unrun"));
	lq_task_clear(&dead);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 2);
}

/* A batch of a queue whose tasks share one priority costs no more
 * statements than a one-task claim (tasks not due yet behind the due
 * ones): its claim order is due order, so no count of the due tasks goes
 * first to bound the read.  (A handle's first claim of a queue reads what
 * it remembers of it; a batch the due tasks do not fill may look further.) */
static void batch_costs_a_claim(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task t[20];
	size_t n = 0;

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "one-prio-alo" : "one-prio-amo";
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		for (int i = 0; i < 12; i++)
			add(db, "t", q, now - 1000 + i, "due");
		for (int i = 0; i < 30; i++)
			add(db, "t", q, now + 3600000, "later");
		const size_t asked[4] = {1, 1, 3, 20}, want[4] = {1, 1, 3, 7};
		int64_t sent[4];
		for (int k = 0; k < 4; k++) {
			int64_t before = lq_db_statements(db);
			assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, t, asked[k], &n));
			sent[k] = lq_db_statements(db) - before;
			assert_int_equal(n, want[k]);
			for (size_t i = 0; i < n; i++) {
				assert_string_equal(t[i].payload, "due");
				if (i > 0)
					assert_true(t[i].run_at >= t[i - 1].run_at);
				if (mode == LQ_AT_LEAST_ONCE)
					assert_lq_ok(db, lq_task_ack(db, &t[i]));
				lq_task_clear(&t[i]);
			}
		}
		print_message("statements (%s): one %lld, batch of 3 %lld, batch of 20 (7 due) %lld\n", q,
			      (long long)sent[1], (long long)sent[2], (long long)sent[3]);
		if (!lqt_retry_storm())
			assert_true(sent[2] <= sent[1]);
	}
}

int lqt_conf_task(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(task_add_and_get, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_payload_binary, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_delay, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_run_at, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_unique_key, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_claim_order, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_at_most_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_at_least_once, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_ack_stale, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_heartbeat, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_release, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_unique_requeue, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_fail_retry_dead, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_fail_backoff, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_retry_rm, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_prune, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_pause, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_queue_pause, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_queue_counts, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_batch, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_batch_mixed, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_empty, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_list, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_next_due, lqt_conf_test_setup),
		cmocka_unit_test_setup(task_names_are_data, lqt_conf_test_setup),
		cmocka_unit_test_setup(batch_costs_a_claim, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "task/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
