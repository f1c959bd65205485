/*
 * conf_partition.c - conformance: fair share across the partitions
 * (tenants) of a queue.  Each task's payload is its partition's name ("-"
 * for none), so a claim shows whose turn it was.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int64_t add_part(lq_db *db, const char *queue, const char *part, int priority, int64_t run_at)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.queue = queue;
	o.partition = part;
	o.priority = priority;
	o.run_at = run_at;
	o.payload = part ? part : "-";
	o.payload_len = strlen(o.payload);
	assert_lq_ok(db, lq_task_add(db, "t", &o, &id, NULL));
	assert_true(id > 0);
	return id;
}

static void add_n(lq_db *db, const char *queue, const char *part, int n)
{
	int64_t now = lqt_db_now(db);
	for (int i = 0; i < n; i++)
		add_part(db, queue, part, 0, now - 1000 + i);
}

/* The partitions of n one-by-one claims, as one letter each ('-': none). */
static void claim_order(lq_db *db, const char *queue, lq_mode mode, int n, char *out)
{
	for (int i = 0; i < n; i++) {
		lq_task t;
		size_t got = 0;
		assert_lq_ok(db, lq_task_claim(db, queue, mode, 30000, &t, 1, &got));
		assert_int_equal(got, 1);
		out[i] = (char)t.payload[0];
		if (mode == LQ_AT_LEAST_ONCE)
			assert_lq_ok(db, lq_task_ack(db, &t));
		lq_task_clear(&t);
	}
	out[n] = '\0';
}

/* The partitions of one batch claim of up to n tasks, in the order it gave
 * them back, as one letter each. */
static void batch_order(lq_db *db, const char *queue, lq_mode mode, size_t n, char *out)
{
	lq_task t[16];
	size_t got = 0;

	assert_true(n <= 16);
	assert_lq_ok(db, lq_task_claim(db, queue, mode, 30000, t, n, &got));
	for (size_t i = 0; i < got; i++) {
		out[i] = (char)t[i].payload[0];
		if (mode == LQ_AT_LEAST_ONCE)
			assert_lq_ok(db, lq_task_ack(db, &t[i]));
		lq_task_clear(&t[i]);
	}
	out[got] = '\0';
}

/* One big partition and small ones: each claim goes to the least recently
 * served partition with a due task (new ones by name), in both modes;
 * within a partition, the oldest first. */
static void round_robin(void **state)
{
	lq_db *db = DB(state);
	char got[32];

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "rr-alo" : "rr-amo";
		add_n(db, q, "A", 8);
		add_n(db, q, "B", 3);
		add_n(db, q, "C", 2);
		claim_order(db, q, m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, 13, got);
		assert_string_equal(got, "ABCABCABAAAAA");
		lq_task t;
		size_t n;
		assert_lq(db, LQ_EMPTY, lq_task_claim(db, q, LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	}
	/* Within a partition: (run_at, id) order. */
	int64_t now = lqt_db_now(db);
	int64_t late = add_part(db, "rr-in", "A", 0, now - 100);
	int64_t early = add_part(db, "rr-in", "A", 0, now - 900);
	lq_task t[2];
	size_t n = 0;
	assert_lq_ok(db, lq_task_claim(db, "rr-in", LQ_AT_MOST_ONCE, 0, t, 2, &n));
	assert_int_equal(n, 2);
	assert_int_equal(t[0].id, early);
	assert_int_equal(t[1].id, late);
	lq_task_clear(&t[0]);
	lq_task_clear(&t[1]);
}

static int by_char(const void *a, const void *b)
{
	return *(const char *)a - *(const char *)b;
}

/* An at-least-once worker acks each task and claims the next in one call
 * (lq_task_ack_claim): that claim takes its turn among the partitions as
 * lq_task_claim's does, one task and a batch alike. */
static void ack_claim_takes_turns(void **state)
{
	lq_db *db = DB(state);
	char got[32];
	lq_task t[4], next[4];
	size_t n = 0;
	lq_status done_st;

	add_n(db, "rr-ack", "A", 8);
	add_n(db, "rr-ack", "B", 3);
	add_n(db, "rr-ack", "C", 2);
	assert_lq_ok(db, lq_task_claim(db, "rr-ack", LQ_AT_LEAST_ONCE, 30000, t, 1, &n));
	got[0] = (char)t[0].payload[0];
	for (int i = 1; i < 13; i++) {
		assert_lq_ok(db, lq_task_ack_claim(db, &t[0], &done_st, "rr-ack", LQ_AT_LEAST_ONCE, 30000, next, 1, &n));
		assert_lq_ok(db, done_st);
		assert_int_equal(n, 1);
		lq_task_clear(&t[0]);
		t[0] = next[0];
		got[i] = (char)t[0].payload[0];
	}
	got[13] = '\0';
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	lq_task_clear(&t[0]);
	assert_string_equal(got, "ABCABCABAAAAA");

	/* A batch: the first of each partition, as lq_task_claim's batch. */
	add_n(db, "rr-ack-batch", "A", 4);
	add_n(db, "rr-ack-batch", "B", 2);
	add_n(db, "rr-ack-batch", "C", 2);
	assert_lq_ok(db, lq_task_claim(db, "rr-ack-batch", LQ_AT_LEAST_ONCE, 30000, t, 1, &n));
	assert_int_equal(t[0].payload[0], 'A');
	assert_lq_ok(db, lq_task_ack_claim(db, &t[0], &done_st, "rr-ack-batch", LQ_AT_LEAST_ONCE, 30000, next, 3,
					   &n));
	assert_lq_ok(db, done_st);
	assert_int_equal(n, 3);
	char parts[4] = {0};
	for (size_t i = 0; i < n; i++)
		parts[i] = (char)next[i].payload[0];
	qsort(parts, 3, 1, by_char);
	assert_string_equal(parts, "ABC");
	lq_task_clear(&t[0]);
	for (size_t i = 0; i < n; i++) {
		assert_lq_ok(db, lq_task_ack(db, &next[i]));
		lq_task_clear(&next[i]);
	}
}

/* A partition that is served goes to the back: with a small partition
 * that keeps getting tasks, the big one still gets every other turn. */
static void served_goes_back(void **state)
{
	lq_db *db = DB(state);
	char got[32];

	add_n(db, "back", "big", 6);
	add_n(db, "back", "x", 1);
	claim_order(db, "back", LQ_AT_MOST_ONCE, 2, got);
	assert_string_equal(got, "bx");
	add_n(db, "back", "x", 1);
	claim_order(db, "back", LQ_AT_MOST_ONCE, 3, got);
	assert_string_equal(got, "bxb");
}

/* Priority beats fairness: the top due priority is served first wherever
 * it is; fairness orders the partitions among the tasks of that priority. */
static void priority_first(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	char got[32];

	add_n(db, "prio", "A", 3);
	add_n(db, "prio", "B", 3);
	add_part(db, "prio", "B", 5, now - 10);
	add_part(db, "prio", "B", 5, now - 5);
	add_part(db, "prio", NULL, 9, now - 1);
	add_part(db, "prio", "C", 9, now + 3600 * 1000); /* not due: never claimed */
	claim_order(db, "prio", LQ_AT_MOST_ONCE, 9, got);
	/* 9 (no partition), the two 5s of B, then A and B in turn. */
	assert_string_equal(got, "-BBABABAB");
	lq_task t;
	size_t n;
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, "prio", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
}

/* The top due priority is that of an older task when the latest due one
 * has a lower priority (PostgreSQL finds it from the latest due task, then
 * looks above); a higher priority that is not due yet does not count. */
static void priority_above_latest(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	const int want[3] = {7, 0, 0};
	lq_task t[4];
	size_t n = 0;

	add_part(db, "prio-old", "A", 7, now - 100);
	add_part(db, "prio-old", "B", 0, now - 10);
	add_part(db, "prio-old", "C", 9, now + 3600 * 1000); /* not due */
	add_part(db, "prio-old", "A", 0, now - 5);
	for (int i = 0; i < 3; i++) {
		assert_lq_ok(db, lq_task_claim(db, "prio-old", LQ_AT_MOST_ONCE, 0, t, 1, &n));
		assert_int_equal(n, 1);
		assert_int_equal(t[0].priority, want[i]);
		assert_int_equal(t[0].payload[0], "ABA"[i]);
		lq_task_clear(&t[0]);
	}
	add_part(db, "prio-old", "B", 3, now - 50);
	add_part(db, "prio-old", "A", 1, now - 1);
	assert_lq_ok(db, lq_task_claim(db, "prio-old", LQ_AT_MOST_ONCE, 0, t, 4, &n));
	assert_int_equal(n, 2); /* the top priority first, in a batch too */
	assert_int_equal(t[0].priority, 3);
	assert_int_equal(t[1].priority, 1);
	for (size_t i = 0; i < n; i++)
		lq_task_clear(&t[i]);
}

/* A handle's claims trust for a moment which priority its last claim
 * took: a task of a higher priority another handle adds meanwhile still
 * goes first, in whichever partition it is. */
static void priority_came_between(void **state)
{
	lq_db *db = DB(state), *other = lqt_open(CONF(state)->dsn);
	int64_t now = lqt_db_now(db);
	lq_task t;
	size_t n = 0;

	for (int i = 0; i < 4; i++)
		add_part(db, "prio-came", i % 2 ? "B" : "A", 2, now - 300 + i);
	for (int i = 0; i < 5; i++) {
		if (i == 3)
			add_part(other, "prio-came", "A", 7, now - 10);
		assert_lq_ok(db, lq_task_claim(db, "prio-came", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
		assert_int_equal(n, 1);
		assert_int_equal(t.priority, i == 3 ? 7 : 2);
		lq_task_clear(&t);
	}
	lq_close(other);
}

/* A batch spreads over the partitions: round after round of one task of
 * each, not the biggest partition's first. */
static void batch_spreads(void **state)
{
	lq_db *db = DB(state);
	lq_task t[100];
	size_t n = 0;

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "batch-alo" : "batch-amo";
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		add_n(db, q, "A", 60);
		add_n(db, q, "B", 5);
		add_n(db, q, "C", 5);
		add_n(db, q, "D", 2);
		assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, t, 12, &n));
		assert_int_equal(n, 12);
		int per[4] = {0};
		for (size_t i = 0; i < n; i++) {
			per[t[i].payload[0] - 'A']++;
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t[i]));
			lq_task_clear(&t[i]);
		}
		/* D runs out after 2: its turns go to the others. */
		assert_int_equal(per[3], 2);
		assert_true(per[0] >= 3 && per[0] <= 4);
		assert_true(per[1] >= 3 && per[1] <= 4);
		assert_true(per[2] >= 3 && per[2] <= 4);
		/* The rest in one batch of 100: everything left, once. */
		assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, t, 100, &n));
		assert_int_equal(n, 72 - 12);
		for (size_t i = 0; i < n; i++) {
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t[i]));
			lq_task_clear(&t[i]);
		}
		assert_lq(db, LQ_EMPTY, lq_task_claim(db, q, mode, 30000, t, 1, &n));
	}
}

/* The tasks without a partition are one partition of their own among the
 * others; a queue without partitions claims in today's order. */
static void none_is_a_partition(void **state)
{
	lq_db *db = DB(state);
	char got[32];

	add_n(db, "mixed", NULL, 4);
	add_n(db, "mixed", "A", 2);
	claim_order(db, "mixed", LQ_AT_MOST_ONCE, 6, got);
	assert_string_equal(got, "-A-A--");

	/* No partition anywhere: priority, run_at, id, as always. */
	int64_t now = lqt_db_now(db);
	int64_t a = add_part(db, "plain", NULL, 0, now - 500);
	int64_t b = add_part(db, "plain", NULL, 0, now - 900);
	int64_t c = add_part(db, "plain", NULL, 1, now - 100);
	lq_task t[3];
	size_t n = 0;
	assert_lq_ok(db, lq_task_claim(db, "plain", LQ_AT_MOST_ONCE, 0, t, 3, &n));
	assert_int_equal(n, 3);
	assert_int_equal(t[0].id, c);
	assert_int_equal(t[1].id, b);
	assert_int_equal(t[2].id, a);
	for (int i = 0; i < 3; i++)
		lq_task_clear(&t[i]);
}

/* A drained queue forgets its partitions and claims the plain way again;
 * new partitioned tasks make it fair again. */
static void drained_forgets(void **state)
{
	lq_db *db = DB(state);
	char got[32];
	lq_task t;
	size_t n;

	add_n(db, "drain", "A", 2);
	claim_order(db, "drain", LQ_AT_MOST_ONCE, 2, got);
	assert_lq(db, LQ_EMPTY, lq_task_claim(db, "drain", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	/* Forgotten: A starts again at 0 with B, and goes first by name
	 * (remembered, A would follow B). */
	add_n(db, "drain", "A", 3);
	add_n(db, "drain", "B", 1);
	claim_order(db, "drain", LQ_AT_MOST_ONCE, 4, got);
	assert_string_equal(got, "ABAA");
}

/* The partition is stored and read back (lq_task_partition), also from
 * lq_task_add_many; a unique task added again keeps its partition; bad
 * names are refused with nothing added. */
static void stored_and_checked(void **state)
{
	lq_db *db = DB(state);
	char part[LQ_NAME_MAX + 1];
	int64_t id = add_part(db, "st", "tenant-7", 0, 0), id2 = 0;
	int existed = 0;

	assert_lq_ok(db, lq_task_partition(db, id, part, sizeof(part)));
	assert_string_equal(part, "tenant-7");
	id2 = add_part(db, "st", NULL, 0, 0);
	assert_lq_ok(db, lq_task_partition(db, id2, part, sizeof(part)));
	assert_string_equal(part, "");
	assert_lq(db, LQ_NOTFOUND, lq_task_partition(db, 999999999, part, sizeof(part)));

	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = "st";
	o.partition = "t1";
	o.unique_key = "u1";
	assert_lq_ok(db, lq_task_add(db, "u", &o, &id, &existed));
	o.partition = "t2";
	assert_lq_ok(db, lq_task_add(db, "u", &o, &id2, &existed));
	assert_int_equal(existed, 1);
	assert_int_equal(id2, id);
	assert_lq_ok(db, lq_task_partition(db, id, part, sizeof(part)));
	assert_string_equal(part, "t1");

	static const char *names[3] = {"m0", "m1", "m2"};
	lq_task_opts mo[3] = {LQ_TASK_OPTS_INIT, LQ_TASK_OPTS_INIT, LQ_TASK_OPTS_INIT};
	const lq_task_opts *po[3] = {&mo[0], &mo[1], &mo[2]};
	int64_t ids[3];
	mo[0].partition = "x";
	mo[2].partition = "y";
	assert_lq_ok(db, lq_task_add_many(db, 3, names, po, ids, NULL, NULL));
	assert_lq_ok(db, lq_task_partition(db, ids[0], part, sizeof(part)));
	assert_string_equal(part, "x");
	assert_lq_ok(db, lq_task_partition(db, ids[1], part, sizeof(part)));
	assert_string_equal(part, "");
	assert_lq_ok(db, lq_task_partition(db, ids[2], part, sizeof(part)));
	assert_string_equal(part, "y");

	int64_t before = lqt_count_tasks(db, NULL, 0);
	char longname[LQ_NAME_MAX + 2];
	memset(longname, 'p', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	o.unique_key = NULL;
	o.partition = longname;
	assert_lq(db, LQ_EINVAL, lq_task_add(db, "bad", &o, &id, NULL));
	assert_non_null(strstr(lq_errmsg(db), "partition"));
	/* A version 1 caller has no partition field: never read. */
	lq_task_opts v1 = LQ_TASK_OPTS_INIT;
	v1.version = 1;
	v1.queue = "st";
	v1.partition = "ignored";
	assert_lq_ok(db, lq_task_add(db, "v1", &v1, &id, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), before + 1);
	assert_lq_ok(db, lq_task_partition(db, id, part, sizeof(part)));
	assert_string_equal(part, "");
}

/* A task of partition part under concurrency key key (NULL: none); its
 * payload is the partition's letter, lower case when it has a key. */
static int64_t add_keyed_part(lq_db *db, const char *queue, const char *part, const char *key, int64_t run_at)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	char payload[2] = {part[0], '\0'};
	int64_t id = 0;

	if (key)
		payload[0] = (char)(payload[0] - 'A' + 'a');
	o.queue = queue;
	o.partition = part;
	o.concurrency_key = key;
	o.run_at = run_at;
	o.payload = payload;
	o.payload_len = 1;
	assert_lq_ok(db, lq_task_add(db, "t", &o, &id, NULL));
	return id;
}

/* One-by-one at-least-once claims until none is left: the payload letters
 * in out; the tasks without a key are acked, the keyed ones kept (their
 * slots stay taken) in held[], *nheld of them. */
static void claim_keep_keyed(lq_db *db, const char *queue, char *out, size_t size, lq_task *held, int *nheld)
{
	size_t k = 0;
	*nheld = 0;
	for (;;) {
		lq_task t;
		size_t got = 0;
		lq_status st = lq_task_claim(db, queue, LQ_AT_LEAST_ONCE, 30000, &t, 1, &got);
		if (st != LQ_OK) {
			assert_int_equal(st == LQ_EMPTY || st == LQ_BUSY, 1);
			break;
		}
		assert_int_equal(got, 1);
		assert_true(k + 1 < size);
		out[k++] = (char)t.payload[0];
		if (t.concurrency_key[0]) {
			held[(*nheld)++] = t;
		} else {
			assert_lq_ok(db, lq_task_ack(db, &t));
			lq_task_clear(&t);
		}
	}
	out[k] = '\0';
}

/* A task under a limit with room is claimed in its partition's turn, not
 * after every due task without a limit; a queue's cap holds across the
 * partitions. */
static void limited_in_turn(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task held[8];
	int nheld = 0;
	char got[32];

	lqt_set_limit(db, "room", 2, 0, 0);
	for (int i = 0; i < 3; i++)
		add_keyed_part(db, "lt", "A", NULL, now - 1000 + i);
	add_keyed_part(db, "lt", "B", "room", now - 500);
	claim_keep_keyed(db, "lt", got, sizeof(got), held, &nheld);
	assert_string_equal(got, "AbAA");
	assert_int_equal(nheld, 1);
	assert_int_equal(held[0].mode, LQ_AT_LEAST_ONCE);
	lq_task_clear(&held[0]);

	/* A queue's own cap: its tasks still go round the partitions, as
	 * many at once as the cap allows. */
	lqt_set_limit(db, "queue:lq", 2, 0, 0);
	for (int i = 0; i < 3; i++)
		add_keyed_part(db, "lq", "A", NULL, now - 1000 + i);
	add_keyed_part(db, "lq", "B", NULL, now - 500);
	lq_task t[2];
	for (int i = 0; i < 2; i++) {
		size_t n = 0;
		assert_lq_ok(db, lq_task_claim(db, "lq", LQ_AT_MOST_ONCE, 30000, &t[i], 1, &n));
		assert_int_equal(t[i].mode, LQ_AT_LEAST_ONCE);
		got[i] = (char)t[i].payload[0];
	}
	got[2] = '\0';
	assert_string_equal(got, "AB");
	size_t n = 0;
	lq_task more;
	lq_status st = lq_task_claim(db, "lq", LQ_AT_MOST_ONCE, 30000, &more, 1, &n);
	assert_int_equal(st == LQ_EMPTY || st == LQ_BUSY, 1);
	assert_lq_ok(db, lq_task_ack(db, &t[0]));
	assert_lq_ok(db, lq_task_claim(db, "lq", LQ_AT_MOST_ONCE, 30000, &more, 1, &n));
	assert_int_equal(more.payload[0], 'A');
	lq_task_clear(&more);
	lq_task_clear(&t[0]);
	lq_task_clear(&t[1]);

	/* The cap holds for a fair batch too, in either mode: its one
	 * statement leaves capped tasks to the limits' gate. */
	for (int mode = 0; mode < 2; mode++) {
		const char *queue = mode ? "lqb1" : "lqb0";
		char cap[16];
		snprintf(cap, sizeof(cap), "queue:%s", queue);
		lqt_set_limit(db, cap, 2, 0, 0);
		for (int i = 0; i < 6; i++)
			add_keyed_part(db, queue, i % 2 ? "B" : "A", NULL, now - 1000 + i);
		lq_task b[6];
		n = 0;
		assert_lq_ok(db, lq_task_claim(db, queue, mode ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, 30000, b, 6,
					       &n));
		assert_int_equal(n, 2);
		assert_int_equal(b[0].payload[0] + b[1].payload[0], 'A' + 'B');
		for (size_t i = 0; i < n; i++)
			lq_task_clear(&b[i]);
	}
}

/* A saturated key (or a rate with no start left) is skipped in its
 * partition's turn: the partition's other tasks flow, and the others'.
 * B's two capped tasks come first in B; C's two share a rate of one an
 * hour.  A batch skips them too, in either mode, and takes a capped task
 * with room. */
static void limited_skipped_when_shut(void **state)
{
	lq_db *db = DB(state);
	lq_task held[8], t[16];
	int nheld = 0;
	size_t n = 0;
	char got[32];
	lq_limit l;

	lqt_set_limit(db, "cap", 1, 0, 0);
	lqt_set_limit(db, "rate", 0, 1, 3600 * 1000);
	for (int m = 0; m < 3; m++) {
		const char *q = m == 0 ? "shut" : m == 1 ? "shut-amo" : "shut-alo";
		int64_t now = lqt_db_now(db);
		for (int i = 0; i < 3; i++)
			add_keyed_part(db, q, "A", NULL, now - 1000 + i);
		add_keyed_part(db, q, "B", "cap", now - 2000);
		add_keyed_part(db, q, "B", "cap", now - 1900);
		add_keyed_part(db, q, "B", NULL, now - 900);
		add_keyed_part(db, q, "B", NULL, now - 800);
		add_keyed_part(db, q, "C", "rate", now - 2000);
		add_keyed_part(db, q, "C", "rate", now - 1900);
		if (m == 0) {
			claim_keep_keyed(db, q, got, sizeof(got), held, &nheld);
			assert_string_equal(got, "AbcABAB");
		} else {
			/* shut-amo: cap is full (held[2], below), rate spent; then
			 * cap's slot is freed for shut-alo. */
			lq_mode mode = m == 1 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
			assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, t, 16, &n));
			assert_int_equal(n, m == 1 ? 5 : 6);
			int keyed = 0;
			for (size_t i = 0; i < n; i++) {
				if (t[i].concurrency_key[0]) {
					keyed++;
					assert_string_equal(t[i].concurrency_key, "cap");
					assert_int_equal(t[i].mode, LQ_AT_LEAST_ONCE);
				}
				lq_task_clear(&t[i]);
			}
			assert_int_equal(keyed, m == 1 ? 0 : 1);
			if (m == 1) {
				assert_lq_ok(db, lq_task_ack(db, &held[2]));
				lq_task_clear(&held[2]);
			}
			continue;
		}
		/* Nothing else may start: cap is full, rate spent. */
		assert_int_equal(nheld, 2);
		assert_lq_ok(db, lq_limit_get(db, "cap", &l));
		assert_int_equal(l.running, 1);
		/* The slot freed, B's second capped task goes. */
		assert_lq_ok(db, lq_task_ack(db, &held[0]));
		claim_keep_keyed(db, q, got, sizeof(got), held + 2, &nheld);
		assert_string_equal(got, "b");
		lq_task_clear(&held[0]);
		lq_task_clear(&held[1]);
		/* held[2] keeps the slot for shut-amo. */
	}
}

/* A batch that serves more partitions than one stamp statement takes
 * (16): every one is stamped, so the claims after it go round them in
 * the same order. */
static void many_partitions_stamped(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task t[64];
	size_t n = 0;
	char part[8];
	int per[26] = {0};

	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 20; i++) {
			snprintf(part, sizeof(part), "%c", 'A' + i);
			add_part(db, "many", part, 0, now - 1000 + r * 100 + i);
		}
	assert_lq_ok(db, lq_task_claim(db, "many", LQ_AT_MOST_ONCE, 0, t, 20, &n));
	assert_int_equal(n, 20);
	for (size_t i = 0; i < n; i++) {
		per[t[i].payload[0] - 'A']++;
		lq_task_clear(&t[i]);
	}
	for (int i = 0; i < 20; i++)
		assert_int_equal(per[i], 1);
	/* The batch served them in name order (all new); one by one they
	 * come in that order again.  A partition served but not stamped
	 * would come first. */
	char got[32];
	claim_order(db, "many", LQ_AT_MOST_ONCE, 20, got);
	assert_string_equal(got, "ABCDEFGHIJKLMNOPQRST");
}

/* Each handle keeps its own turn: after its first claim of a queue (which
 * starts at the least recently served partition and stamps it), its
 * claims go on from the partition it served last, in name order, whatever
 * other handles claim meanwhile, and a one-task claim costs what the plain
 * claim costs: nothing is written to lq_partition. */
static void turn_per_handle(void **state)
{
	lq_db *db = DB(state);
	lq_db *other = lqt_open(CONF(state)->dsn);
	assert_non_null(other);
	char got[8];

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "turn-alo" : "turn-amo";
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		add_n(db, q, "A", 4);
		add_n(db, q, "B", 4);
		add_n(db, q, "C", 4);
		claim_order(db, q, mode, 1, got);
		assert_string_equal(got, "A");
		/* A first claim of another handle: A was served, B was not. */
		claim_order(other, q, mode, 1, got);
		assert_string_equal(got, "B");
		/* This handle's turn goes on after A, not to the least
		 * recently served C; then round. */
		claim_order(db, q, mode, 4, got);
		assert_string_equal(got, "BCAB");
		claim_order(other, q, mode, 2, got);
		assert_string_equal(got, "CA");
		/* A batch goes on from the handle's turn too (the least
		 * recently served would be C, then A). */
		batch_order(other, q, mode, 2, got);
		assert_string_equal(got, "BC");
	}

	/* Once a handle has its turn, a one-task fair claim sends as many
	 * statements as the plain claim of a queue without partitions. */
	int64_t now = lqt_db_now(db);
	for (int i = 0; i < 4; i++) {
		add_part(db, "turn-cost", i % 2 ? "A" : "B", 0, now - 1000 + i);
		add_part(db, "turn-plain", NULL, 0, now - 1000 + i);
	}
	lq_task t;
	size_t n = 0;
	for (int m = 0; m < 2; m++) {
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		int64_t sent[2];
		for (int k = 0; k < 2; k++) {
			const char *q = k ? "turn-cost" : "turn-plain";
			assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, &t, 1, &n));
			assert_int_equal(n, 1);
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t));
			lq_task_clear(&t);
			int64_t before = lq_db_statements(db);
			assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, &t, 1, &n));
			sent[k] = lq_db_statements(db) - before;
			assert_int_equal(n, 1);
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t));
			lq_task_clear(&t);
		}
		print_message("one-task claim (%s): %lld statements plain, %lld fair\n",
			      m ? "alo" : "amo", (long long)sent[0], (long long)sent[1]);
		if (!lqt_retry_storm())
			assert_int_equal(sent[1], sent[0]);
	}
	lq_close(other);
}

/* A batch from a handle's turn takes whole rounds, and of a round it cannot
 * finish, the partitions next in its turn: with four partitions a batch of
 * 6 is a round and a half, whether a partition runs short or not. */
static void turn_batch_last_round(void **state)
{
	lq_db *db = DB(state);
	char got[17];

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "last-round-alo" : "last-round-amo";
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		add_n(db, q, "A", 6);
		add_n(db, q, "B", 1);
		add_n(db, q, "C", 6);
		add_n(db, q, "D", 6);
		claim_order(db, q, mode, 1, got);
		assert_string_equal(got, "A");
		/* From after A: B's one task, then C, D, A; then C and D again
		 * (A would be next, but the batch is full). */
		batch_order(db, q, mode, 6, got);
		assert_string_equal(got, "BCDACD");
		/* From after D, B empty: two whole rounds fill it exactly. */
		batch_order(db, q, mode, 6, got);
		assert_string_equal(got, "ACDACD");
		/* Two each left: a round, then A and C of the next. */
		batch_order(db, q, mode, 5, got);
		assert_string_equal(got, "ACDAC");
		batch_order(db, q, mode, 6, got);
		assert_string_equal(got, "D");
	}
}

/* A fair batch is set-based, as the plain one: a batch of 100 over ten
 * partitions takes a handful of statements, not one (or more) a task.
 * Each round of heads is one read; the claims of a round, one statement. */
static void batch_in_few_statements(void **state)
{
	lq_db *db = DB(state);
	int64_t now = lqt_db_now(db);
	lq_task t[100];
	char part[8];

	for (int m = 0; m < 2; m++) {
		const char *q = m ? "few-alo" : "few-amo";
		lq_mode mode = m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
		for (int i = 0; i < 100; i++) {
			snprintf(part, sizeof(part), "%c", 'A' + i % 10);
			add_part(db, q, part, 0, now - 1000 + i);
		}
		size_t n = 0;
		int64_t before = lq_db_statements(db);
		assert_lq_ok(db, lq_task_claim(db, q, mode, 30000, t, 100, &n));
		int64_t sent = lq_db_statements(db) - before;
		assert_int_equal(n, 100);
		int per[10] = {0};
		for (size_t i = 0; i < n; i++) {
			per[t[i].payload[0] - 'A']++;
			if (mode == LQ_AT_LEAST_ONCE)
				assert_lq_ok(db, lq_task_ack(db, &t[i]));
			lq_task_clear(&t[i]);
		}
		for (int i = 0; i < 10; i++)
			assert_int_equal(per[i], 10);
		print_message("fair batch of 100 (%s): %lld statements\n", q, (long long)sent);
		/* Injected conflicts retry the transaction, statements and all. */
		if (!lqt_retry_storm())
			assert_true(sent <= 12);
	}
}

/* A batch add's insert gives its tasks their partitions, and one statement
 * writes the partitions' rows: 100 tasks of 4 partitions sent 243
 * statements (a write of the task's partition and two of the partitions'
 * rows each), then 11 (one write of the tasks and one of the rows a
 * partition). */
static void add_many_by_partition(void **state)
{
	lq_db *db = DB(state);
	enum { N = 100, PARTS = 4 };
	static const char *names[N];
	static lq_task_opts opts[N];
	static const lq_task_opts *po[N];
	static int64_t ids[N];
	static const char *parts[PARTS] = {"pa", "pb", "pc", "pd"};
	char part[LQ_NAME_MAX + 1];

	for (int i = 0; i < N; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		o.queue = "many-parts";
		o.partition = i % 5 == 4 ? NULL : parts[i % PARTS];
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "t";
	}
	int64_t before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add_many(db, N, names, po, ids, NULL, NULL));
	int64_t sent = lq_db_statements(db) - before;
	for (int i = 0; i < N; i++) {
		assert_lq_ok(db, lq_task_partition(db, ids[i], part, sizeof(part)));
		assert_string_equal(part, i % 5 == 4 ? "" : parts[i % PARTS]);
	}
	print_message("a batch of %d in %d partitions: %lld statements\n", N, PARTS, (long long)sent);
	if (!lqt_retry_storm())
		assert_true(sent <= 4); /* BEGIN, the insert (and PostgreSQL's NOTIFY), the rows, COMMIT */
	/* One task: on PostgreSQL the insert writes the partition rows too (its
	 * own and that of the tasks without one); elsewhere BEGIN, the insert
	 * that returns its id, the rows, COMMIT. */
	lq_task_opts one = LQ_TASK_OPTS_INIT;
	one.queue = "many-parts";
	int64_t id = 0;
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add(db, "t", &one, &id, NULL));
	int64_t plain = lq_db_statements(db) - before;
	one.partition = "pe";
	before = lq_db_statements(db);
	assert_lq_ok(db, lq_task_add(db, "t", &one, &id, NULL));
	sent = lq_db_statements(db) - before;
	print_message("one add: %lld statements, %lld with a partition\n", (long long)plain, (long long)sent);
	if (!lqt_retry_storm())
		assert_true(strcmp(lqt_conf_backend, "postgres") == 0 ? sent == plain : sent <= plain + 3);
	/* Each partition's row is there: five claims take a task of each,
	 * the tasks without one included. */
	char taken[PARTS + 1][LQ_NAME_MAX + 1];
	for (int i = 0; i <= PARTS; i++) {
		lq_task t;
		size_t got = 0;
		assert_lq_ok(db, lq_task_claim(db, "many-parts", LQ_AT_MOST_ONCE, 30000, &t, 1, &got));
		assert_int_equal(got, 1);
		snprintf(taken[i], sizeof(taken[i]), "%s", t.partition);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(taken[j], taken[i]);
		lq_task_clear(&t);
	}
}

/* A task put back keeps its partition.  At most once the claim deleted the
 * row, so a retry, a snooze or a hand-back writes it again from the claimed
 * task; a task out of attempts keeps it among the dead and when revived. */
static void put_back_keeps_partition(void **state)
{
	lq_db *db = DB(state);
	const char *how[] = {"fail", "snooze", "release", "bury"};

	for (int h = 0; h < 4; h++) {
		for (int m = 0; m < 2; m++) {
			lq_task_opts o = LQ_TASK_OPTS_INIT;
			lq_task t;
			size_t got = 0;
			int64_t id = 0;
			char part[LQ_NAME_MAX + 1];

			o.queue = "pb";
			o.partition = "T";
			o.max_attempts = h == 3 ? 1 : 5;
			assert_lq_ok(db, lq_task_add(db, "t", &o, &id, NULL));
			assert_lq_ok(db, lq_task_claim(db, "pb", m ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, 30000, &t, 1, &got));
			assert_int_equal(t.id, id);
			assert_string_equal(t.partition, "T");
			if (h == 0 || h == 3)
				assert_lq_ok(db, lq_task_fail(db, &t, "x"));
			else if (h == 1)
				assert_lq_ok(db, lq_task_snooze(db, &t, 1));
			else
				assert_lq_ok(db, lq_task_release(db, &t));
			lq_task_clear(&t);
			if (h == 3) {
				assert_lq_ok(db, lq_task_get(db, id, &t));
				assert_true(t.dead);
				assert_string_equal(t.partition, "T");
				lq_task_clear(&t);
				assert_lq_ok(db, lq_task_retry(db, id));
			}
			assert_lq_ok(db, lq_task_partition(db, id, part, sizeof(part)));
			if (strcmp(part, "T") != 0)
				fail_msg("%s %s: the task came back in partition \"%s\"", m ? "at least once" : "at most once",
					 how[h], part);
			assert_lq_ok(db, lq_task_rm(db, id));
		}
	}
}

struct held_heads {
	const char *dsn;
	int64_t ids[2];
	volatile int locked; /* shared: the child holds the rows */
	volatile int done;   /* shared: the parent is through */
};

/* Hold the two heads, as claimers in the middle of their claims do, until
 * the parent is through. */
static int hold_heads(int idx, void *ctx)
{
	(void)idx;
	struct held_heads *h = ctx;
	lq_db *db = lqt_open(h->dsn);
	char sql[160];

	LQT_CHECK(db != NULL, "open");
	/* An UPDATE that changes nothing: a row lock, and no result set
	 * (MySQL's script runner takes none). */
	snprintf(sql, sizeof(sql), "UPDATE lq_task SET paused = 0 WHERE id IN (%lld, %lld)", (long long)h->ids[0],
		 (long long)h->ids[1]);
	LQT_CHECK_ST(db, LQ_OK, lqt_exec_sql(db, "BEGIN"));
	LQT_CHECK_ST(db, LQ_OK, lqt_exec_sql(db, sql));
	h->locked = 1;
	LQT_CHECK(lqt_wait_flag(&h->done, 30000) == 0, "the parent never finished");
	LQT_CHECK_ST(db, LQ_OK, lqt_exec_sql(db, "COMMIT"));
	lq_close(db);
	return 0;
}

static int64_t claim_one_id(lq_db *db, const char *queue)
{
	lq_task t;
	size_t got = 0;

	assert_lq_ok(db, lq_task_claim(db, queue, LQ_AT_MOST_ONCE, 0, &t, 1, &got));
	assert_int_equal(got, 1);
	int64_t id = t.id;
	lq_task_clear(&t);
	return id;
}

/* Other claimers hold the head of every partition (more claimers than
 * partitions): a claim takes the next task of a partition rather than
 * coming back empty-handed, on a handle's first claim in the queue and
 * in its turn after, as on a queue without partitions. */
static void claim_passes_held_heads(void **state)
{
	lqt_conf *c = CONF(state);
	const char *q = "heads held";
	int64_t now = lqt_db_now(c->db);
	int64_t a1 = add_part(c->db, q, "a", 0, now - 5000), b1 = add_part(c->db, q, "b", 0, now - 4000);
	int64_t a2 = add_part(c->db, q, "a", 0, now - 3000), b2 = add_part(c->db, q, "b", 0, now - 2000);
	struct held_heads *h = lqt_shared_alloc(sizeof(*h));

	h->dsn = c->dsn;
	h->ids[0] = a1;
	h->ids[1] = b1;
	pid_t pid = lqt_spawn(0, hold_heads, h);
	assert_int_equal(lqt_wait_flag(&h->locked, 10000), 0);
	assert_int_equal(claim_one_id(c->db, q), a2); /* stamped: the first claim here */
	assert_int_equal(claim_one_id(c->db, q), b2); /* in the handle's turn */
	h->done = 1;
	assert_int_equal(lqt_wait_children(&pid, 1, NULL, 30), 0);
	assert_int_equal(claim_one_id(c->db, q), a1);
	assert_int_equal(claim_one_id(c->db, q), b1);
	lqt_shared_free(h, sizeof(*h));
}

int lqt_conf_partition(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(round_robin, lqt_conf_test_setup),
		cmocka_unit_test_setup(served_goes_back, lqt_conf_test_setup),
		cmocka_unit_test_setup(ack_claim_takes_turns, lqt_conf_test_setup),
		cmocka_unit_test_setup(priority_first, lqt_conf_test_setup),
		cmocka_unit_test_setup(priority_above_latest, lqt_conf_test_setup),
		cmocka_unit_test_setup(priority_came_between, lqt_conf_test_setup),
		cmocka_unit_test_setup(batch_spreads, lqt_conf_test_setup),
		cmocka_unit_test_setup(none_is_a_partition, lqt_conf_test_setup),
		cmocka_unit_test_setup(drained_forgets, lqt_conf_test_setup),
		cmocka_unit_test_setup(stored_and_checked, lqt_conf_test_setup),
		cmocka_unit_test_setup(limited_in_turn, lqt_conf_test_setup),
		cmocka_unit_test_setup(limited_skipped_when_shut, lqt_conf_test_setup),
		cmocka_unit_test_setup(many_partitions_stamped, lqt_conf_test_setup),
		cmocka_unit_test_setup(turn_per_handle, lqt_conf_test_setup),
		cmocka_unit_test_setup(turn_batch_last_round, lqt_conf_test_setup),
		cmocka_unit_test_setup(batch_in_few_statements, lqt_conf_test_setup),
		cmocka_unit_test_setup(put_back_keeps_partition, lqt_conf_test_setup),
		cmocka_unit_test_setup(add_many_by_partition, lqt_conf_test_setup),
	};
	/* Row locks a claim skips: PostgreSQL and MariaDB (SQLite has one
	 * writer, whose claims hold no row meanwhile). */
	const struct CMUnitTest server_tests[] = {
		cmocka_unit_test_setup(claim_passes_held_heads, lqt_conf_test_setup),
	};
	char name[64];
	int failed;

	snprintf(name, sizeof(name), "partition/%s", lqt_conf_backend);
	failed = _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]), lqt_conf_group_setup,
					 lqt_conf_group_teardown);
	if (strcmp(lqt_conf_backend, "sqlite") != 0) {
		snprintf(name, sizeof(name), "partition-held/%s", lqt_conf_backend);
		failed += _cmocka_run_group_tests(name, server_tests, 1, lqt_conf_group_setup,
						  lqt_conf_group_teardown);
	}
	return failed;
}
