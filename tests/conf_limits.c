/*
 * conf_limits.c - conformance: flow control.  Limits are set, listed and
 * removed; a concurrency cap holds across claims and frees with ack and
 * with an expired claim; a saturated key does not hold back other keys'
 * tasks; a rate limit allows its burst, then nothing early, then more; a
 * start taken for a claim that does not happen is given back.
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add_keyed(lq_db *db, const char *queue, const char *key)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.queue = queue;
	o.concurrency_key = key;
	assert_lq_ok(db, lq_task_add(db, "k", &o, &id, NULL));
	assert_true(id > 0);
	return id;
}

/* Claim up to n, one call; returns how many, acking none. */
static size_t claim(lq_db *db, const char *queue, lq_mode mode, int64_t ttl, lq_task *t, size_t n)
{
	size_t got = 0;
	lq_status st = lq_task_claim(db, queue, mode, ttl, t, n, &got);

	if (st != LQ_OK)
		assert_int_equal(st == LQ_EMPTY || st == LQ_BUSY, 1);
	return st == LQ_OK ? got : 0;
}

static void clear_all(lq_task *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lq_task_clear(&t[i]);
}

struct seen {
	char keys[4][LQ_NAME_MAX + 1];
	int n;
};

static int list_cb(const lq_limit *l, void *ctx)
{
	struct seen *s = ctx;
	if (s->n < 4)
		snprintf(s->keys[s->n], sizeof(s->keys[0]), "%s", l->key);
	s->n++;
	return 0;
}

static void set_list_rm(void **state)
{
	lq_db *db = DB(state);
	lq_limit l, got;
	struct seen s = {0};

	lqt_set_limit(db, "k", 2, 0, 0);
	lqt_set_limit(db, "queue:q", 0, 10, 1000);
	lqt_set_limit(db, "k", 3, 5, 60000); /* replaces */
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_string_equal(got.key, "k");
	assert_int_equal(got.concurrency, 3);
	assert_int_equal(got.rate_n, 5);
	assert_int_equal(got.rate_period_ms, 60000);
	assert_int_equal(got.running, 0);
	assert_int_equal(got.tokens, 5);
	assert_lq_ok(db, lq_limit_list(db, list_cb, &s));
	assert_int_equal(s.n, 2);
	assert_string_equal(s.keys[0], "k");
	assert_string_equal(s.keys[1], "queue:q");

	/* Bad input: LQ_EINVAL, nothing changed. */
	memset(&l, 0, sizeof(l));
	assert_lq(db, LQ_EINVAL, lq_limit_set(db, &l)); /* empty key */
	snprintf(l.key, sizeof(l.key), "k");
	assert_lq(db, LQ_EINVAL, lq_limit_set(db, &l)); /* no limit */
	l.concurrency = -1;
	assert_lq(db, LQ_EINVAL, lq_limit_set(db, &l));
	l.concurrency = 0;
	l.rate_n = 5;
	l.rate_period_ms = 0;
	assert_lq(db, LQ_EINVAL, lq_limit_set(db, &l)); /* a rate needs a period */
	snprintf(l.key, sizeof(l.key), "queue:");
	l.concurrency = 1;
	l.rate_n = 0;
	assert_lq(db, LQ_EINVAL, lq_limit_set(db, &l)); /* no queue name */
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.concurrency, 3);

	/* A task's key may not name a queue's limit. */
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.concurrency_key = "queue:q";
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "k", &o, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);

	assert_lq_ok(db, lq_limit_remove(db, "k"));
	assert_lq(db, LQ_NOTFOUND, lq_limit_remove(db, "k"));
	assert_lq(db, LQ_NOTFOUND, lq_limit_get(db, "k", &got));
	s.n = 0;
	assert_lq_ok(db, lq_limit_list(db, list_cb, &s));
	assert_int_equal(s.n, 1);
}

/* At most N claims of a key live at once, in either mode; an ack frees a
 * slot.  A capped task is claimed with a claim lease even at-most-once. */
static void cap_holds(void **state)
{
	lq_db *db = DB(state);
	lq_task t[10];
	lq_limit got;
	size_t n;

	lqt_set_limit(db, "k", 2, 0, 0);
	for (int i = 0; i < 5; i++)
		add_keyed(db, "c", "k");
	for (int m = 0; m < 2; m++) {
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		n = claim(db, "c", mode, 30000, t, 10);
		assert_int_equal(n, m ? 1 : 2); /* the second round: one slot was freed */
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(t[i].mode, LQ_AT_LEAST_ONCE);
			assert_true(t[i].claim_owner[0] != '\0');
			assert_string_equal(t[i].concurrency_key, "k");
		}
		lq_task more[2];
		assert_int_equal(claim(db, "c", mode, 30000, more, 2), 0);
		assert_lq_ok(db, lq_limit_get(db, "k", &got));
		assert_int_equal(got.running, 2);
		assert_lq_ok(db, lq_task_ack(db, &t[0])); /* frees one slot */
		clear_all(t, n);
	}
	/* A failed attempt frees its slot too. */
	n = claim(db, "c", LQ_AT_LEAST_ONCE, 30000, t, 10);
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_task_fail(db, &t[0], "boom"));
	clear_all(t, n);
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.running, 1);
	/* Without the limit the key runs freely. */
	assert_lq_ok(db, lq_limit_remove(db, "k"));
	n = claim(db, "c", LQ_AT_LEAST_ONCE, 30000, t, 10);
	assert_int_equal(n, 1); /* the one left due (one runs, one waits for its back-off) */
	clear_all(t, n);
}

/* A whole queue's cap. */
static void queue_cap(void **state)
{
	lq_db *db = DB(state);
	lq_task t[10];
	size_t n;

	lqt_set_limit(db, "queue:qc", 2, 0, 0);
	for (int i = 0; i < 4; i++)
		add_keyed(db, "qc", NULL);
	add_keyed(db, "other", NULL);
	n = claim(db, "qc", LQ_AT_MOST_ONCE, 30000, t, 10);
	assert_int_equal(n, 2);
	assert_int_equal(claim(db, "qc", LQ_AT_LEAST_ONCE, 30000, t + 2, 1), 0);
	assert_lq_ok(db, lq_task_ack(db, &t[1]));
	clear_all(t, n);
	n = claim(db, "qc", LQ_AT_LEAST_ONCE, 30000, t, 10);
	assert_int_equal(n, 1);
	clear_all(t, n);
	/* Another queue is not limited by it. */
	n = claim(db, "other", LQ_AT_MOST_ONCE, 30000, t, 10);
	assert_int_equal(n, 1);
	clear_all(t, n);
}

/* One saturated key with many due tasks in front, many free keys behind:
 * everything behind is claimed, one call after another and in batches. */
static void no_head_of_line(void **state)
{
	lq_db *db = DB(state);
	lq_task t[8];
	char key[32];
	size_t total = 0, n;

	lqt_set_limit(db, "hot", 1, 0, 0);
	for (int i = 0; i < 60; i++)
		add_keyed(db, "h", "hot");
	for (int i = 0; i < 20; i++) {
		snprintf(key, sizeof(key), "free-%d", i);
		if (i % 2)
			lqt_set_limit(db, key, 1, 0, 0); /* limited, but open */
		add_keyed(db, "h", key);
	}
	for (int i = 0; i < 10; i++)
		add_keyed(db, "h", NULL);
	/* One at a time, at-least-once: 1 hot, then the 30 behind it. */
	while ((n = claim(db, "h", LQ_AT_LEAST_ONCE, 30000, t, 1)) > 0) {
		total += n;
		clear_all(t, n);
		assert_true(total <= 31);
	}
	assert_int_equal(total, 31);

	/* The same in batches, at-most-once, on a fresh queue. */
	total = 0;
	for (int i = 0; i < 60; i++)
		add_keyed(db, "h2", "hot2");
	lqt_set_limit(db, "hot2", 2, 0, 0);
	for (int i = 0; i < 30; i++)
		add_keyed(db, "h2", NULL);
	while ((n = claim(db, "h2", LQ_AT_MOST_ONCE, 30000, t, 8)) > 0) {
		total += n;
		clear_all(t, n);
		assert_true(total <= 32);
	}
	assert_int_equal(total, 32);
}

/* A crashed worker's slot frees when its claim expires. */
static void expired_claim_frees(void **state)
{
	lq_db *db = DB(state);
	lq_task t[4];
	size_t n;

	lqt_set_limit(db, "k", 1, 0, 0);
	add_keyed(db, "x", "k");
	add_keyed(db, "x", "k");
	n = claim(db, "x", LQ_AT_LEAST_ONCE, 300, t, 4); /* then "crash": never acked */
	assert_int_equal(n, 1);
	clear_all(t, n);
	assert_int_equal(claim(db, "x", LQ_AT_LEAST_ONCE, 300, t, 4), 0);
	int64_t until = lqt_db_now(db) + 2000;
	n = 0;
	while (n == 0 && lqt_db_now(db) < until) {
		lqt_sleep_ms(100);
		n = claim(db, "x", LQ_AT_LEAST_ONCE, 30000, t, 4);
	}
	assert_int_equal(n, 1);
	clear_all(t, n);
}

/* A rate: its burst, then nothing early, then more once starts come back
 * (not starved). */
static void rate_limits(void **state)
{
	lq_db *db = DB(state);
	lq_task t[10];
	lq_limit got;
	size_t n;

	lqt_set_limit(db, "slow", 0, 3, 3600 * 1000);
	for (int i = 0; i < 5; i++)
		add_keyed(db, "r", "slow");
	n = claim(db, "r", LQ_AT_MOST_ONCE, 30000, t, 10);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(t[i].mode, LQ_AT_MOST_ONCE); /* a rate alone keeps the mode */
	clear_all(t, n);
	assert_int_equal(claim(db, "r", LQ_AT_LEAST_ONCE, 30000, t, 10), 0);
	assert_lq_ok(db, lq_limit_get(db, "slow", &got));
	assert_int_equal(got.tokens, 0);

	/* A queue's rate. */
	lqt_set_limit(db, "queue:rq", 0, 2, 3600 * 1000);
	for (int i = 0; i < 4; i++)
		add_keyed(db, "rq", NULL);
	n = claim(db, "rq", LQ_AT_LEAST_ONCE, 30000, t, 10);
	assert_int_equal(n, 2);
	clear_all(t, n);
	assert_int_equal(claim(db, "rq", LQ_AT_MOST_ONCE, 30000, t, 10), 0);

	/* Starts come back: one every 200 ms. */
	lqt_set_limit(db, "fast", 0, 1, 200);
	for (int i = 0; i < 3; i++)
		add_keyed(db, "f", "fast");
	size_t total = 0;
	int64_t until = lqt_db_now(db) + 10000;
	while (total < 3 && lqt_db_now(db) < until) {
		n = claim(db, "f", LQ_AT_MOST_ONCE, 30000, t, 10);
		assert_true(n <= 1);
		total += n;
		clear_all(t, n);
		lqt_sleep_ms(20);
	}
	assert_int_equal(total, 3);
}

/* A key's start taken and then refused by its queue's cap is given back. */
static void refused_start_returns(void **state)
{
	lq_db *db = DB(state);
	lq_task t[4];
	lq_limit got;
	size_t n;

	lqt_set_limit(db, "k", 0, 3, 3600 * 1000);
	lqt_set_limit(db, "queue:rf", 1, 0, 0);
	for (int i = 0; i < 3; i++)
		add_keyed(db, "rf", "k");
	n = claim(db, "rf", LQ_AT_LEAST_ONCE, 30000, t, 4);
	assert_int_equal(n, 1);
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.tokens, 2);
	assert_int_equal(claim(db, "rf", LQ_AT_LEAST_ONCE, 30000, t + 1, 1), 0); /* the queue is full */
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.tokens, 2); /* not spent by the refused claims */
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	clear_all(t, n);
	n = claim(db, "rf", LQ_AT_LEAST_ONCE, 30000, t, 4);
	assert_int_equal(n, 1);
	clear_all(t, n);
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.tokens, 1);
}

/* A task keeps its key through an at-most-once retry, the dead tasks and
 * a retry from there, so no retry runs outside its limit. */
static void key_kept(void **state)
{
	lq_db *db = DB(state);
	lq_task t, got;

	lqt_set_limit(db, "k", 0, 100, 1000);
	for (int max = 2; max >= 1; max--) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		int64_t id = 0;
		o.queue = max == 2 ? "kk2" : "kk1";
		o.concurrency_key = "k";
		o.max_attempts = max;
		assert_lq_ok(db, lq_task_add(db, "k", &o, &id, NULL));
		assert_int_equal(claim(db, o.queue, LQ_AT_MOST_ONCE, 30000, &t, 1), 1);
		assert_lq_ok(db, lq_task_fail(db, &t, "boom")); /* max 2: requeued; max 1: dead */
		lq_task_clear(&t);
		assert_lq_ok(db, lq_task_get(db, id, &got));
		assert_string_equal(got.concurrency_key, "k");
		assert_int_equal(got.dead, max == 1);
		lq_task_clear(&got);
		if (max == 1) {
			assert_lq_ok(db, lq_task_retry(db, id));
			assert_lq_ok(db, lq_task_get(db, id, &got));
			assert_int_equal(got.dead, 0);
			assert_string_equal(got.concurrency_key, "k");
			lq_task_clear(&got);
		}
	}
}

/* Every claim path passes the gate: the ack-and-claim call (one statement
 * on PostgreSQL) and the fair claim of a queue with partitions. */
static void cap_holds_every_path(void **state)
{
	lq_db *db = DB(state);
	lq_task t[10], plain[1], keyed[1];
	lq_status done_st = LQ_OK;
	lq_limit got;
	size_t n = 0;

	lqt_set_limit(db, "k", 1, 0, 0);
	add_keyed(db, "c", NULL);
	assert_int_equal(claim(db, "c", LQ_AT_LEAST_ONCE, 30000, plain, 1), 1);
	for (int i = 0; i < 3; i++)
		add_keyed(db, "c", "k");
	/* The ack of the plain task claims one of k's tasks, the only slot. */
	assert_lq_ok(db, lq_task_ack_claim(db, &plain[0], &done_st, "c", LQ_AT_LEAST_ONCE, 30000, keyed, 1, &n));
	assert_int_equal(done_st, LQ_OK);
	assert_int_equal(n, 1);
	assert_string_equal(keyed[0].concurrency_key, "k");
	lq_task_clear(&plain[0]);
	/* k is full: another plain task comes, and its ack claims nothing. */
	add_keyed(db, "c", NULL);
	assert_int_equal(claim(db, "c", LQ_AT_LEAST_ONCE, 30000, plain, 1), 1);
	assert_string_equal(plain[0].concurrency_key, "");
	lq_status st = lq_task_ack_claim(db, &plain[0], &done_st, "c", LQ_AT_LEAST_ONCE, 30000, t, 1, &n);
	assert_int_equal(done_st, LQ_OK);
	assert_int_equal(st == LQ_EMPTY || st == LQ_BUSY, 1);
	assert_int_equal(n, 0);
	lq_task_clear(&plain[0]);
	assert_lq_ok(db, lq_limit_get(db, "k", &got));
	assert_int_equal(got.running, 1);
	lq_task_clear(&keyed[0]);

	/* A queue whose tasks have partitions (tenants) and a key. */
	lqt_set_limit(db, "k2", 1, 0, 0);
	for (int i = 0; i < 3; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		char part[8];
		snprintf(part, sizeof(part), "p%d", i);
		o.queue = "f";
		o.concurrency_key = "k2";
		o.partition = part;
		assert_lq_ok(db, lq_task_add(db, "k", &o, NULL, NULL));
	}
	n = claim(db, "f", LQ_AT_LEAST_ONCE, 30000, t, 10);
	assert_int_equal(n, 1);
	clear_all(t, n);
	assert_int_equal(claim(db, "f", LQ_AT_MOST_ONCE, 30000, t, 10), 0);
	assert_lq_ok(db, lq_limit_get(db, "k2", &got));
	assert_int_equal(got.running, 1);
}


/* A handle that has claimed while no limit existed honours one that
 * another handle sets, at its next claim, and does not take it for "no
 * task due" either; a limit removed frees the key again. */
static void limit_set_elsewhere(void **state)
{
	lq_db *db = DB(state);
	lq_task t[4];

	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = "else";
	assert_lq_ok(db, lq_task_add(db, "plain", &o, NULL, NULL));
	assert_int_equal(claim(db, "else", LQ_AT_MOST_ONCE, 30000, t, 1), 1);
	clear_all(t, 1);
	assert_int_equal(claim(db, "else", LQ_AT_MOST_ONCE, 30000, t, 1), 0);

	lq_db *other = lqt_open(CONF(state)->dsn);
	lqt_set_limit(other, "ek", 1, 0, 0);
	add_keyed(other, "else", "ek");
	add_keyed(other, "else", "ek");
	assert_int_equal(claim(db, "else", LQ_AT_LEAST_ONCE, 30000, t, 1), 1);
	assert_string_equal(t[0].concurrency_key, "ek");
	lq_task held;
	assert_int_equal(claim(db, "else", LQ_AT_LEAST_ONCE, 30000, &held, 1), 0); /* the key is full */
	assert_lq_ok(other, lq_task_add(other, "free", &o, NULL, NULL));
	lq_task freed;
	assert_int_equal(claim(db, "else", LQ_AT_MOST_ONCE, 30000, &freed, 1), 1);
	assert_string_equal(freed.name, "free");
	lq_task_clear(&freed);

	assert_lq_ok(other, lq_limit_remove(other, "ek"));
	assert_int_equal(claim(db, "else", LQ_AT_LEAST_ONCE, 30000, &held, 1), 1);
	assert_string_equal(held.concurrency_key, "ek");
	assert_lq_ok(db, lq_task_ack(db, &held));
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	lq_task_clear(&held);
	clear_all(t, 1);
	lq_close(other);
}

/* A handle whose claims of a queue keep meeting a task under a limit the
 * one-statement claim cannot take (here its queue's, beside its key's)
 * sends the transactional claim straight away: that statement would only
 * hand the task back (PostgreSQL, SQLite).  Once the head is a plain
 * task, the one statement comes back. */
static void limited_head_skips_one_statement(void **state)
{
	lq_db *db = DB(state);
	lq_task t[1];
	int64_t sent[4];
	int one_statement = strcmp(lqt_conf_backend, "mysql") != 0;

	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = "h";
	assert_lq_ok(db, lq_task_add(db, "first", &o, NULL, NULL));
	lqt_set_limit(db, "hk", 100, 0, 0);
	for (int i = 0; i < 3; i++)
		add_keyed(db, "h", "hk");
	/* The handle's first claim there reads what a first claim reads. */
	assert_int_equal(claim(db, "h", LQ_AT_MOST_ONCE, 30000, t, 1), 1);
	assert_string_equal(t[0].name, "first");
	lq_task_clear(&t[0]);
	lqt_set_limit(db, "queue:h", 0, 1000, 1000);
	for (int i = 0; i < 3; i++) {
		int64_t before = lq_db_statements(db);
		assert_int_equal(claim(db, "h", LQ_AT_MOST_ONCE, 30000, t, 1), 1);
		sent[i] = lq_db_statements(db) - before;
		assert_int_equal(t[0].mode, LQ_AT_LEAST_ONCE); /* capped: the claim is the slot */
		assert_lq_ok(db, lq_task_ack(db, &t[0]));
		lq_task_clear(&t[0]);
	}
	/* (Under the retry storm, retried transactions send more.) */
	if (!lqt_retry_storm()) {
		assert_int_equal(sent[2], sent[1]);
		if (one_statement)
			assert_int_equal(sent[1], sent[0] - 1);
		else /* MariaDB's first keyed claim also looks at lq_limit once */
			assert_true(sent[1] <= sent[0]);
	}
	/* Tasks without a key come next, the queue's limit gone: the
	 * transaction claims the first of them, and the claim after it is one
	 * statement again. */
	assert_lq_ok(db, lq_limit_remove(db, "queue:h"));
	assert_lq_ok(db, lq_task_add(db, "free", &o, NULL, NULL));
	assert_lq_ok(db, lq_task_add(db, "free", &o, NULL, NULL));
	assert_int_equal(claim(db, "h", LQ_AT_MOST_ONCE, 30000, t, 1), 1);
	lq_task_clear(&t[0]);
	int64_t before = lq_db_statements(db);
	assert_int_equal(claim(db, "h", LQ_AT_MOST_ONCE, 30000, t, 1), 1);
	sent[3] = lq_db_statements(db) - before;
	assert_string_equal(t[0].name, "free");
	lq_task_clear(&t[0]);
	if (one_statement && !lqt_retry_storm())
		assert_int_equal(sent[3], 1);
}

/* Claim one task of queue into *t (it must come); the statements sent. */
static int64_t claim_counted(lq_db *db, const char *queue, lq_mode mode, lq_task *t)
{
	int64_t before = lq_db_statements(db);
	assert_int_equal(claim(db, queue, mode, 30000, t, 1), 1);
	return lq_db_statements(db) - before;
}

/* A task whose key has one limit (a rate, a cap or both) or none, in a
 * queue without a limit of its own, is claimed by one statement where the
 * plain claim is one (PostgreSQL): the start is taken with the claim.
 * The rate still holds, in either mode, and so does the cap, whose claim
 * is the slot. */
static void keyed_head_in_one_statement(void **state)
{
	lq_db *db = DB(state);
	lq_task t[1], second[1];
	lq_limit got;
	int pg = strcmp(lqt_conf_backend, "postgres") == 0;

	lqt_set_limit(db, "rk", 0, 4, 3600 * 1000);
	for (int i = 0; i < 6; i++)
		add_keyed(db, "rh", "rk");
	for (int i = 0; i < 4; i++) {
		lq_mode mode = i % 2 ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		int64_t sent = claim_counted(db, "rh", mode, t);
		assert_int_equal(t[0].mode, mode); /* a rate alone keeps the mode */
		if (mode == LQ_AT_LEAST_ONCE)
			assert_lq_ok(db, lq_task_ack(db, &t[0]));
		lq_task_clear(&t[0]);
		/* The first claim learns what the head is. */
		if (pg && i > 0 && !lqt_retry_storm())
			assert_int_equal(sent, 1);
	}
	assert_int_equal(claim(db, "rh", LQ_AT_MOST_ONCE, 30000, t, 1), 0);
	assert_int_equal(claim(db, "rh", LQ_AT_LEAST_ONCE, 30000, t, 1), 0);
	assert_lq_ok(db, lq_limit_get(db, "rk", &got));
	assert_int_equal(got.tokens, 0);

	/* A key no limit names. */
	for (int i = 0; i < 3; i++)
		add_keyed(db, "rn", "no-limit-here");
	for (int i = 0; i < 3; i++) {
		int64_t sent = claim_counted(db, "rn", LQ_AT_MOST_ONCE, t);
		assert_int_equal(t[0].mode, LQ_AT_MOST_ONCE);
		lq_task_clear(&t[0]);
		if (pg && i > 0 && !lqt_retry_storm())
			assert_int_equal(sent, 1);
	}

	/* The key's limit becomes a cap of one: the claim is the slot, at
	 * least once in either mode, and a second waits for the ack. */
	lqt_set_limit(db, "rk", 1, 0, 0);
	for (int i = 0; i < 2; i++)
		add_keyed(db, "rh", "rk");
	for (int i = 0; i < 4; i++) {
		int64_t sent = claim_counted(db, "rh", i % 2 ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, t);
		assert_int_equal(t[0].mode, LQ_AT_LEAST_ONCE);
		assert_true(t[0].claim_owner[0] != '\0');
		assert_int_equal(claim(db, "rh", LQ_AT_MOST_ONCE, 30000, second, 1), 0); /* the cap is full */
		assert_lq_ok(db, lq_limit_get(db, "rk", &got));
		assert_int_equal(got.running, 1);
		assert_lq_ok(db, lq_task_ack(db, &t[0]));
		lq_task_clear(&t[0]);
		if (pg && i > 0 && !lqt_retry_storm())
			assert_int_equal(sent, 1);
	}
	assert_int_equal(claim(db, "rh", LQ_AT_MOST_ONCE, 30000, t, 1), 0);
}

int lqt_conf_limits(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(set_list_rm, lqt_conf_test_setup),
		cmocka_unit_test_setup(cap_holds, lqt_conf_test_setup),
		cmocka_unit_test_setup(queue_cap, lqt_conf_test_setup),
		cmocka_unit_test_setup(no_head_of_line, lqt_conf_test_setup),
		cmocka_unit_test_setup(expired_claim_frees, lqt_conf_test_setup),
		cmocka_unit_test_setup(rate_limits, lqt_conf_test_setup),
		cmocka_unit_test_setup(refused_start_returns, lqt_conf_test_setup),
		cmocka_unit_test_setup(key_kept, lqt_conf_test_setup),
		cmocka_unit_test_setup(cap_holds_every_path, lqt_conf_test_setup),
		cmocka_unit_test_setup(limit_set_elsewhere, lqt_conf_test_setup),
		cmocka_unit_test_setup(limited_head_skips_one_statement, lqt_conf_test_setup),
		cmocka_unit_test_setup(keyed_head_in_one_statement, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "limits/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
