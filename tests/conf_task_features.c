/*
 * conf_task_features.c - conformance: task priorities, per-task timeouts
 * and bulk enqueue (lq_task_add_many).
 */
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add_prio(lq_db *db, const char *queue, int priority, int64_t run_at)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.queue = queue;
	o.priority = priority;
	o.run_at = run_at;
	assert_lq_ok(db, lq_task_add(db, "p", &o, &id, NULL));
	assert_true(id > 0);
	return id;
}

/* Priority first (higher wins), then run_at, then id; in one batch, one
 * at a time, and in both modes. */
static void prio_order(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	int64_t want[2][6];
	lq_task t[10];
	size_t n;

	for (int q = 0; q < 2; q++) {
		const char *queue = q == 0 ? "p1" : "p2";
		int64_t a = add_prio(db, queue, 0, now - 5000);
		int64_t b = add_prio(db, queue, 5, now - 1000);
		int64_t c = add_prio(db, queue, -3, now - 9000);
		int64_t d = add_prio(db, queue, 5, now - 2000);
		int64_t e = add_prio(db, queue, 0, now - 5000);
		int64_t f = add_prio(db, queue, 9, now + 3600 * 1000); /* not due: never claimed */
		(void)f;
		int64_t g = add_prio(db, queue, 1, now - 1);
		want[q][0] = d; /* 5, earlier */
		want[q][1] = b; /* 5 */
		want[q][2] = g; /* 1 */
		want[q][3] = a; /* 0, same run_at as e, lower id */
		want[q][4] = e;
		want[q][5] = c; /* -3 */
	}
	assert_lq_ok(db, lq_task_claim(db, "p1", LQ_AT_MOST_ONCE, 0, t, 10, &n));
	assert_int_equal(n, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(t[i].id, want[0][i]);
		lq_task_clear(&t[i]);
	}
	for (int i = 0; i < 6; i++) {
		assert_lq_ok(db, lq_task_claim(db, "p2", LQ_AT_LEAST_ONCE, 30000, t, 1, &n));
		assert_int_equal(n, 1);
		assert_int_equal(t[0].id, want[1][i]);
		assert_lq_ok(db, lq_task_ack(db, &t[0]));
		lq_task_clear(&t[0]);
	}
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, "p1", LQ_AT_MOST_ONCE, 0, t, 1, &n));
}

/* A handle's one-task claims trust for a moment what they read of the
 * queue's highest priority (MariaDB then reads that priority's due range
 * alone): a task of a higher priority that another handle adds meanwhile
 * still goes first, and once that priority has no due task left the lower
 * ones are taken, its task not due yet is not. */
static void prio_top_memo(void **state)
{
	lq_db *db = DB(state), *other = lqt_open(CONF(state)->dsn);
	int64_t now = lqt_db_now(db);
	lq_task t, prev;
	size_t n;

	/* At most once, at least once, and at least once acking each task in
	 * the call that claims the next (lq_task_ack_claim). */
	for (int m = 0; m < 3; m++) {
		static const char *queues[] = {"top0", "top1", "top2"};
		const char *queue = queues[m];
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		int64_t a = add_prio(db, queue, 2, now - 3000);
		int64_t b = add_prio(db, queue, 2, now - 2000);
		add_prio(db, queue, 2, now + 3600 * 1000);
		int64_t c = add_prio(db, queue, 0, now - 9000);
		int64_t want[4] = {a, 0, b, c};
		for (int i = 0; i < 4; i++) {
			if (i == 1)
				want[1] = add_prio(other, queue, 7, now - 1000);
			if (m == 2 && i > 0) {
				lq_status done_st;
				assert_lq_ok(db, lq_task_ack_claim(db, &prev, &done_st, queue, mode, 30000, &t, 1, &n));
				assert_int_equal(done_st, LQ_OK);
				lq_task_clear(&prev);
			} else {
				assert_lq_ok(db, lq_task_claim(db, queue, mode, 30000, &t, 1, &n));
			}
			assert_int_equal(n, 1);
			assert_int_equal(t.id, want[i]);
			if (m == 2) {
				prev = t;
				continue;
			}
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t));
			lq_task_clear(&t);
		}
		if (m == 2) {
			assert_lq_ok(db, lq_task_ack(db, &prev));
			lq_task_clear(&prev);
		}
		assert_lq(db, LQ_EMPTY, lq_task_claim(db, queue, mode, 30000, &t, 1, &n));
	}
	lq_close(other);
}

/* A queue whose higher priority has only tasks not due yet: one-task
 * claims of its due ones send no more statements than those of a queue
 * without it, but the one that finds the top-priority read empty (MariaDB
 * steps down the priorities on every claim there, as before). */
static void prio_top_waiting(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db), sent[2];
	lq_task t;
	size_t n;

	for (int q = 0; q < 2; q++) {
		const char *queue = q ? "waiting-top" : "one-priority";
		for (int i = 0; i < 10; i++)
			add_prio(db, queue, 0, now - 1000 + i);
		if (q)
			add_prio(db, queue, 5, now + 3600 * 1000);
		int64_t before = lq_db_statements(db);
		for (int i = 0; i < 10; i++) {
			assert_lq_ok(db, lq_task_claim(db, queue, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
			assert_int_equal(t.priority, 0);
			lq_task_clear(&t);
		}
		sent[q] = lq_db_statements(db) - before;
	}
	print_message("10 claims: %lld statements, %lld with a higher priority waiting\n", (long long)sent[0],
		      (long long)sent[1]);
	if (strcmp(lqt_conf_backend, "mysql") != 0 && !lqt_retry_storm())
		assert_true(sent[1] <= sent[0] + 1);
}

/* Priority and timeout are stored, read back, kept by a failed retry and
 * through the dead tasks, and kept by every occurrence of a recurring task. */
static void prio_timeout_kept(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	lq_task t;
	int64_t id = 0, rid = 0;
	size_t n;

	o.queue = "keep";
	o.priority = -7;
	o.timeout_ms = 1500;
	o.max_attempts = 1;
	assert_lq_ok(db, lq_task_add(db, "k", &o, &id, NULL));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_int_equal(t.priority, -7);
	assert_int_equal(t.timeout_ms, 1500);
	lq_task_clear(&t);
	/* At-most-once failure on the last attempt: dead, with both kept. */
	assert_lq_ok(db, lq_task_claim(db, "keep", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_lq_ok(db, lq_task_fail(db, &t, "boom"));
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_true(t.dead);
	assert_int_equal(t.priority, -7);
	assert_int_equal(t.timeout_ms, 1500);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_retry(db, id));
	assert_lq_ok(db, lq_task_claim(db, "keep", LQ_AT_LEAST_ONCE, 30000, &t, 1, &n));
	assert_int_equal(t.id, id);
	assert_int_equal(t.priority, -7);
	assert_int_equal(t.timeout_ms, 1500);
	assert_lq_ok(db, lq_task_ack(db, &t));
	lq_task_clear(&t);

	/* Recurring: each occurrence keeps the priority, and outranks older
	 * due tasks of lower priority. */
	int64_t now = lqt_db_now(db);
	int64_t low = add_prio(db, "rec", 0, now - 60000);
	lq_task_opts r = LQ_TASK_OPTS_INIT;
	r.queue = "rec";
	r.every_ms = 50;
	r.run_at = now - 10;
	r.priority = 4;
	assert_lq_ok(db, lq_task_add(db, "r", &r, &rid, NULL));
	for (int i = 0; i < 2; i++) {
		if (i)
			lqt_sleep_ms(120);
		assert_lq_ok(db, lq_task_claim(db, "rec", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
		assert_int_equal(t.id, rid);
		assert_int_equal(t.priority, 4);
		lq_task_clear(&t);
	}
	assert_lq_ok(db, lq_task_rm(db, rid));
	assert_lq_ok(db, lq_task_claim(db, "rec", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_int_equal(t.id, low);
	lq_task_clear(&t);

	/* An options version this library does not know is refused. */
	lq_task_opts future = LQ_TASK_OPTS_INIT;
	future.version = LQ_TASK_OPTS_VERSION + 1;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "new", &future, &id, NULL));
	o.timeout_ms = -1;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "k", &o, &id, NULL));
}

/* Bulk enqueue: ids ascend in the order given, fields are stored, more
 * than one statement's worth goes in. */
static void many_basic(void **state)
{
	lq_db *db = DB(state);
	enum { N = 250 };
	static const char *names[N];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	static int64_t ids[N];
	static int existed[N];
	static char payloads[N][16];
	lq_task t;

	for (int i = 0; i < N; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "p%d", i);
		o.queue = "bulk";
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		o.priority = i % 3;
		o.timeout_ms = i == 7 ? 2500 : 0;
		o.delay_ms = i == 8 ? 3600 * 1000 : 0;
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = i % 2 ? "odd" : "even";
	}
	size_t bad = 99;
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, existed, &bad));
	for (int i = 0; i < N; i++) {
		assert_int_equal(existed[i], 0);
		if (i)
			assert_true(ids[i] > ids[i - 1]);
	}
	assert_int_equal(lqt_count_tasks(db, "bulk", 0), N);
	assert_lq_ok(db, lq_task_get(db, ids[7], &t));
	assert_string_equal(t.name, "odd");
	assert_memory_equal(t.payload, "p7", 2);
	assert_int_equal(t.priority, 1);
	assert_int_equal(t.timeout_ms, 2500);
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_get(db, ids[8], &t));
	assert_true(t.run_at > t.now + 3000 * 1000);
	lq_task_clear(&t);
	/* NULL opts: defaults. */
	const char *two[2] = {"x", "y"};
	assert_lq_ok(db, lq_task_add_many(db, 2, two, NULL, ids, NULL, NULL));
	assert_lq_ok(db, lq_task_get(db, ids[1], &t));
	assert_string_equal(t.queue, "default");
	assert_string_equal(t.name, "y");
	lq_task_clear(&t);
	assert_lq_ok(db, lq_task_add_many(db, 0, NULL, NULL, NULL, NULL, NULL));
}

/* A batch of up to 100 tasks that nothing follows up (no unique key to
 * look up; no steering, concurrency key or partition to write) is one
 * statement, atomic by itself, as a one-task add is: no transaction
 * around it.  With a unique key it goes in a transaction, as before. */
static void many_one_statement(void **state)
{
	lq_db *db = DB(state);
	enum { N = 100 };
	static const char *names[N];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	static int64_t ids[N];
	int64_t id = 0;

	for (int i = 0; i < N; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		o.queue = "bulk-one";
		o.priority = i % 2;
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "t";
	}
	/* The first call of a handle reads what it must know once. */
	lq_task_opts first = LQ_TASK_OPTS_INIT;
	first.queue = "bulk-one";
	assert_lq_ok(db, lq_task_add(db, "first", &first, &id, NULL));
	int64_t before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add(db, "t", &first, &id, NULL));
	int64_t one = lq_db_statements(db) - before;
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
	int64_t many = lq_db_statements(db) - before;
	for (int i = 1; i < N; i++)
		assert_true(ids[i] > ids[i - 1]);
	assert_int_equal(lqt_count_tasks(db, "bulk-one", 0), N + 2);
	print_message("statements: one add %lld, a batch of %d %lld\n", (long long)one, N, (long long)many);
	if (!lqt_retry_storm())
		assert_true(many <= one);

	/* A unique key: looked up when taken, all in one transaction. */
	opts[3].unique_key = "bulk-one-key";
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, "bulk-one", 0), 2 * N + 2);
	int existed[N];
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, existed, NULL));
	assert_int_equal(existed[3], 1);
	assert_int_equal(existed[4], 0);
	assert_int_equal(lqt_count_tasks(db, "bulk-one", 0), 3 * N + 1);

	/* A concurrency key goes in with the row: no more statements than a
	 * plain add, and the task has it. */
	lq_task_opts keyed = first;
	keyed.concurrency_key = "bulk-one-k";
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add(db, "keyed", &keyed, &id, NULL));
	int64_t with_key = lq_db_statements(db) - before;
	if (!lqt_retry_storm())
		assert_int_equal(with_key, one);
	lq_task t;
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_string_equal(t.concurrency_key, "bulk-one-k");
	lq_task_clear(&t);

	/* On PostgreSQL so does a partition: the insert writes the
	 * partition's rows too, and the task is claimed in its turn. */
	lq_task_opts part = first;
	part.queue = "bulk-one-part";
	part.partition = "tenant-a";
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add(db, "parted", &part, &id, NULL));
	int64_t with_part = lq_db_statements(db) - before;
	if (strcmp(CONF(state)->backend, "postgres") == 0 && !lqt_retry_storm())
		assert_int_equal(with_part, one);
	char got[LQ_NAME_MAX + 1];
	assert_lq_ok(db, lq_task_partition(db, id, got, sizeof(got)));
	assert_string_equal(got, "tenant-a");
	size_t n = 0;
	assert_lq_ok(db, lq_task_claim(db, "bulk-one-part", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(t.id, id);
	assert_string_equal(t.partition, "tenant-a");
	lq_task_clear(&t);
}

/* A batch of n tasks named "t" in queue, each with options of its own. */
static void batch_init(int n, const char **names, lq_task_opts *opts, const lq_task_opts **po, const char *queue)
{
	for (int i = 0; i < n; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		o.queue = queue;
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "t";
	}
}

/* A batch of tasks with concurrency keys or partitions: the keys and
 * partitions go in with the rows, so the keys cost no statement and the
 * partitions one for all (their rows in lq_partition) and the transaction
 * around it, whether the tasks share them or not. */
static void many_keys_and_partitions(void **state)
{
	lq_db *db = DB(state);
	enum { N = 100, PARTS = 3 };
	static const char *names[N];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	static int64_t ids[N];
	static char keys[N][16];
	static const char *parts[PARTS] = {"tenant-a", "tenant-b", "tenant-c"};

	batch_init(N, names, opts, po, "bulk-keyed");
	lq_task_opts first = LQ_TASK_OPTS_INIT;
	first.queue = "bulk-keyed";
	int64_t id = 0;
	assert_lq_ok(db, lq_task_add(db, "first", &first, &id, NULL));
	int64_t before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
	int64_t plain = lq_db_statements(db) - before;

	/* Keys that differ (the long statement), then one key for all. */
	for (int shared = 0; shared < 2; shared++) {
		for (int i = 0; i < N; i++) {
			snprintf(keys[i], sizeof(keys[i]), "ck-%d", shared ? 0 : i % 7);
			opts[i].concurrency_key = keys[i];
		}
		before = lq_db_statements(db);
		assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
		int64_t keyed = lq_db_statements(db) - before;
		print_message("statements: a batch of %d %lld, with %s keys %lld\n", N, (long long)plain,
			      shared ? "one" : "seven", (long long)keyed);
		if (!lqt_retry_storm())
			assert_int_equal(keyed, plain);
		for (int i = 0; i < N; i += 13) {
			lq_task t;
			assert_lq_ok(db, lq_task_get(db, ids[i], &t));
			assert_string_equal(t.concurrency_key, keys[i]);
			lq_task_clear(&t);
		}
	}

	/* Partitions, some tasks with a key as well, in another queue. */
	for (int i = 0; i < N; i++) {
		opts[i].queue = "bulk-parted";
		opts[i].partition = parts[i % PARTS];
		opts[i].concurrency_key = i % 2 ? keys[i] : NULL;
	}
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
	int64_t parted = lq_db_statements(db) - before;
	print_message("statements: a batch of %d in %d partitions %lld\n", N, PARTS, (long long)parted);
	/* BEGIN, the partitions' rows, COMMIT: the insert sends the wake-up
	 * where the dialect has one, as it does alone. */
	if (!lqt_retry_storm())
		assert_true(parted <= plain + 3);
	for (int i = 0; i < N; i += 7) {
		char got[LQ_NAME_MAX + 1];
		assert_lq_ok(db, lq_task_partition(db, ids[i], got, sizeof(got)));
		assert_string_equal(got, parts[i % PARTS]);
		lq_task t;
		assert_lq_ok(db, lq_task_get(db, ids[i], &t));
		assert_string_equal(t.concurrency_key, i % 2 ? keys[i] : "");
		lq_task_clear(&t);
	}
	/* Each partition's rows are there: the claims go round them. */
	lq_task t[PARTS];
	size_t n = 0;
	assert_lq_ok(db, lq_task_claim(db, "bulk-parted", LQ_AT_MOST_ONCE, 0, t, PARTS, &n));
	assert_int_equal(n, PARTS);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(t[i].partition, t[j].partition);
		lq_task_clear(&t[i]);
	}
}

/* A batch whose tasks share their options (the usual batch) goes with the
 * options once and each task's name and payload; every task still gets
 * them all, and its own payload.  One task that differs sends the batch
 * the long way, with the same result.  So do a short batch (its places
 * padded, its payloads bytes) and one of two statements, in a
 * transaction: each id must still be its own task's. */
static void many_same_options(void **state)
{
	lq_db *db = DB(state);
	enum { N = 150 };
	static const char *names[N];
	static char bufs[N][16];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	static int64_t ids[N];
	static size_t lens[N];
	static const int sizes[] = {100, 100, 37, 150};
	int total = 0;

	for (int round = 0; round < 4; round++) {
		int n = sizes[round];
		int64_t now = lqt_db_now(db);
		total += n;
		for (int i = 0; i < n; i++) {
			lq_task_opts o = LQ_TASK_OPTS_INIT;
			lens[i] = (size_t)snprintf(bufs[i], sizeof(bufs[i]), "pl-%d-%d", round, i);
			if (round == 2) { /* bytes, not text */
				bufs[i][0] = '\0';
				bufs[i][1] = (char)0xff;
			}
			o.queue = "bulk-same";
			o.priority = round == 1 && i == n / 2 ? 2 : 4;
			o.max_attempts = 5;
			o.timeout_ms = 1234;
			o.delay_ms = 3600000;
			o.payload = bufs[i];
			o.payload_len = lens[i];
			opts[i] = o;
			po[i] = &opts[i];
			names[i] = i % 2 ? "odd" : "even";
		}
		int64_t before = lq_db_statements(db);
		assert_lq_ok(db, lq_task_add_many(db, (size_t)n, names, po, ids, NULL, NULL));
		if (!lqt_retry_storm() && n <= 100)
			assert_int_equal(lq_db_statements(db) - before, 1);
		for (int i = 0; i < n; i++) {
			lq_task t;
			assert_lq_ok(db, lq_task_get(db, ids[i], &t));
			assert_string_equal(t.queue, "bulk-same");
			assert_string_equal(t.name, names[i]);
			assert_int_equal(t.payload_len, lens[i]);
			assert_memory_equal(t.payload, bufs[i], t.payload_len);
			assert_int_equal(t.priority, opts[i].priority);
			assert_int_equal(t.max_attempts, 5);
			assert_int_equal(t.timeout_ms, 1234);
			assert_true(t.run_at >= now + 3600000 && t.run_at < now + 3600000 + 600000);
			if (i > 0)
				assert_true(ids[i] > ids[i - 1]);
			lq_task_clear(&t);
		}
	}
	assert_int_equal(lqt_count_tasks(db, "bulk-same", 0), total);
}

/* All or nothing: one invalid task (here the 150th, past the first
 * statement) adds none and is named. */
static void many_all_or_nothing(void **state)
{
	lq_db *db = DB(state);
	enum { N = 160 };
	static const char *names[N];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	size_t bad = 0;

	batch_init(N, names, opts, po, "aon");
	opts[150].max_attempts = -1;
	assert_lq(db, LQ_EINVAL, lq_task_add_many(db, N, names, po, NULL, NULL, &bad));
	assert_int_equal(bad, 150);
	assert_non_null(strstr(lq_errmsg(db), "max attempts"));
	opts[150].max_attempts = 0;
	names[3] = "";
	assert_lq(db, LQ_EINVAL, lq_task_add_many(db, N, names, po, NULL, NULL, &bad));
	assert_int_equal(bad, 3);
	assert_int_equal(lqt_count_tasks(db, "aon", 0), 0);
	names[3] = "t";
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, NULL, NULL, &bad));
	assert_int_equal(lqt_count_tasks(db, "aon", 0), N);
}

/* Unique keys: a key a live task holds is not added (its id comes back,
 * existed = 1), a key repeated in the batch goes to its first task, and
 * the rest of the batch goes in. */
static void many_unique(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t held = 0;

	o.queue = "uq";
	o.unique_key = "k1";
	assert_lq_ok(db, lq_task_add(db, "held", &o, &held, NULL));

	enum { N = 5 };
	const char *names[N] = {"a", "b", "c", "d", "e"};
	lq_task_opts opts[N];
	const lq_task_opts *po[N];
	const char *keys[N] = {NULL, "k1", "k2", "k2", NULL};
	int64_t ids[N];
	int existed[N];
	for (int i = 0; i < N; i++) {
		lq_task_opts d = LQ_TASK_OPTS_INIT;
		d.queue = "uq";
		d.unique_key = keys[i];
		opts[i] = d;
		po[i] = &opts[i];
	}
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, existed, NULL));
	assert_int_equal(existed[0], 0);
	assert_int_equal(existed[1], 1);
	assert_int_equal(ids[1], held);
	assert_int_equal(existed[2], 0);
	assert_int_equal(existed[3], 1);
	assert_int_equal(ids[3], ids[2]);
	assert_int_equal(existed[4], 0);
	assert_true(ids[4] > ids[2] && ids[2] > ids[0] && ids[0] > held);
	assert_int_equal(lqt_count_tasks(db, "uq", 0), 4); /* held, a, c, e */
	lq_task t;
	assert_lq_ok(db, lq_task_get(db, ids[2], &t));
	assert_string_equal(t.name, "c");
	lq_task_clear(&t);
	/* The same batch again: everything with a key exists already. */
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, existed, NULL));
	assert_int_equal(existed[1] + existed[2] + existed[3], 3);
	assert_int_equal(existed[0] + existed[4], 0);
	assert_int_equal(lqt_count_tasks(db, "uq", 0), 6);
}

int lqt_conf_task_features(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(prio_order, lqt_conf_test_setup),
		cmocka_unit_test_setup(prio_top_memo, lqt_conf_test_setup),
		cmocka_unit_test_setup(prio_top_waiting, lqt_conf_test_setup),
		cmocka_unit_test_setup(prio_timeout_kept, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_basic, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_one_statement, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_keys_and_partitions, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_same_options, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_all_or_nothing, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_unique, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "task-features/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
