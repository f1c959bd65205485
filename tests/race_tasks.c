/*
 * race_tasks.c - every task runs exactly once with concurrent workers.
 *
 * Three runs of NTASKS tasks (payload = the task's number), each drained by
 * NWORKERS processes with their own connections:
 *   1. at-most-once lq_task_claim, batches of 1 and of 8, while a producer
 *      process is still enqueueing;
 *   2. at-least-once lq_task_claim + lq_task_ack (the claim TTL is long, so
 *      no claim may expire and no task may run twice);
 *   3. lq_runner_work(drain=1) with a C handler, both modes, batches 1 and 8.
 * Each worker counts the payloads it ran in shared memory; the parent checks
 * each ran exactly once, and the database is empty afterwards.
 * A fourth run has the workers fight over a recurring task (every 100 ms)
 * for a few seconds: every occurrence must be claimed by exactly one.
 *
 *     race_tasks --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NTASKS 2000
#define NWORKERS 4
#define DEADLINE_MS 180000 /* a run that takes this long has lost tasks */
#define QUEUE "race"
#define REC_QUEUE "race-recurring"
#define REC_EVERY_MS 100
#define REC_RUN_MS 3000
#define MAXOCC 4096

struct shared {
	int ran[NTASKS];
	int total;
	int produced;
	int bad_payload;
	int lost;
	int by_worker[NWORKERS];
	int64_t deadline_ms;
	int nocc;
	int64_t occ[MAXOCC]; /* run_at of each recurring occurrence claimed */
};

static const char *g_dsn;
static struct shared *g_sh;

static void reset_shared(void)
{
	memset(g_sh, 0, sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
}

/* Count one run of the task whose payload is p. */
static void ran(int worker, const unsigned char *p, size_t len)
{
	char buf[16];
	char *end;
	long k;

	if (p == NULL || len == 0 || len >= sizeof(buf)) {
		__atomic_add_fetch(&g_sh->bad_payload, 1, __ATOMIC_RELAXED);
		return;
	}
	memcpy(buf, p, len);
	buf[len] = '\0';
	k = strtol(buf, &end, 10);
	if (*end != '\0' || k < 0 || k >= NTASKS) {
		__atomic_add_fetch(&g_sh->bad_payload, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_add_fetch(&g_sh->ran[k], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_sh->by_worker[worker], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_sh->total, 1, __ATOMIC_RELEASE);
}

static void enqueue(lq_db *db, int from, int to)
{
	for (int i = from; i < to; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		char p[16];
		snprintf(p, sizeof(p), "%d", i);
		o.queue = QUEUE;
		o.payload = p;
		o.payload_len = strlen(p);
		LQT_CHECK_ST(db, LQ_OK, lq_task_add(db, "n", &o, NULL, NULL));
		__atomic_add_fetch(&g_sh->produced, 1, __ATOMIC_RELEASE);
	}
}

/* Claim until every task has run (run 1 and 2). */
static int claimer(int idx, lq_mode mode)
{
	lq_db *db = lqt_open(g_dsn);
	lq_task t[8];
	size_t batch = idx % 2 ? 8 : 1;

	LQT_CHECK(db != NULL, "open");
	while (__atomic_load_n(&g_sh->total, __ATOMIC_ACQUIRE) < NTASKS) {
		size_t n = 0;
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: deadline passed with %d of %d run",
			  idx, g_sh->total, NTASKS);
		lq_status st = lq_task_claim(db, QUEUE, mode, 60000, t, batch, &n);
		/* LQ_BUSY: others claimed the candidates first (on Galera a
		 * claim can lose every retry to other nodes' claims). */
		if (st == LQ_EMPTY || st == LQ_BUSY) {
			LQT_CHECK(n == 0, "%s with %zu claimed", lq_status_str(st), n);
			lqt_sleep_ms(5 + lqt_rand() % 10);
			continue;
		}
		LQT_CHECK(st == LQ_OK, "worker %d: claim: %s: %s", idx, lq_status_str(st), lq_errmsg(db));
		LQT_CHECK(n >= 1 && n <= batch, "claimed %zu of at most %zu", n, batch);
		for (size_t i = 0; i < n; i++) {
			ran(idx, t[i].payload, t[i].payload_len);
			if (mode == LQ_AT_LEAST_ONCE) {
				lqt_ack_counting_lost(db, &t[i], &g_sh->lost);
			}
			lq_task_clear(&t[i]);
		}
		/* A moment of "work" outside the transaction, so that SQLite's
		 * busy waiters get their turn too. */
		usleep(lqt_rand() % 1000);
	}
	lq_close(db);
	return 0;
}

static int amo_child(int idx, void *ctx)
{
	if (idx == NWORKERS) {
		/* The producer: tasks keep arriving while workers claim. */
		lq_db *db = lqt_open(g_dsn);
		LQT_CHECK(db != NULL, "open");
		enqueue(db, NTASKS / 2, NTASKS);
		lq_close(db);
		return 0;
	}
	return claimer(idx, LQ_AT_MOST_ONCE);
}

static int alo_child(int idx, void *ctx)
{
	return claimer(idx, LQ_AT_LEAST_ONCE);
}

struct handler_ctx {
	int worker;
};

static int handler(lq_job *job, void *ctx)
{
	struct handler_ctx *h = ctx;
	const lq_task *t = lq_job_task(job);

	ran(h->worker, t->payload, t->payload_len);
	usleep(lqt_rand() % 1000);
	return 0;
}

static int runner_child(int idx, void *ctx)
{
	const char *queues[] = {QUEUE, NULL};
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	struct handler_ctx h = {idx};
	lq_run_report rep;
	lq_runner *r = NULL;
	lq_db *db = lqt_open(g_dsn);

	LQT_CHECK(db != NULL, "open");
	o.queues = queues;
	o.mode = idx < 2 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
	o.batch = idx % 2 ? 8 : 1;
	o.claim_ttl_ms = 60000;
	LQT_CHECK_ST(db, LQ_OK, lq_runner_new(db, &o, &r));
	LQT_CHECK_ST(db, LQ_OK, lq_runner_handle(r, "n", handler, &h));
	/* drain may return while others still hold the last tasks: go on
	 * until everything ran (bounded). */
	while (__atomic_load_n(&g_sh->total, __ATOMIC_ACQUIRE) < NTASKS) {
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: deadline passed with %d of %d run",
			  idx, g_sh->total, NTASKS);
		memset(&rep, 0, sizeof(rep));
		lq_status st = lq_runner_work(r, 1, &rep);
		LQT_CHECK(st == LQ_OK, "worker %d: work: %s (%s): %s", idx, lq_status_str(st),
			  lq_stop_reason_str(rep.stopped), lq_errmsg(db));
		LQT_CHECK(rep.failed == 0, "worker %d: %lld failed", idx, (long long)rep.failed);
		lqt_sleep_ms(10);
	}
	lq_runner_free(r);
	lq_close(db);
	return 0;
}

static int count_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

/* Run 4: claim occurrences of one recurring task for REC_RUN_MS. */
static int recurring_child(int idx, void *ctx)
{
	lq_db *db = lqt_open(g_dsn);
	lq_mode mode = idx % 2 ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
	int64_t until = lqt_mono_ms() + REC_RUN_MS;
	lq_task t;

	LQT_CHECK(db != NULL, "open");
	while (lqt_mono_ms() < until) {
		size_t n = 0;
		lq_status st = lq_task_claim(db, REC_QUEUE, mode, 60000, &t, 1, &n);
		if (st == LQ_EMPTY || st == LQ_BUSY) {
			lqt_sleep_ms(1 + lqt_rand() % 5);
			continue;
		}
		LQT_CHECK(st == LQ_OK, "worker %d: claim: %s: %s", idx, lq_status_str(st), lq_errmsg(db));
		LQT_CHECK(t.recurring == 1, "claimed a recurring task with recurring = 0");
		LQT_CHECK(t.next_run_at > t.run_at, "next_run_at %lld not after run_at %lld",
			  (long long)t.next_run_at, (long long)t.run_at);
		int i = __atomic_fetch_add(&g_sh->nocc, 1, __ATOMIC_ACQ_REL);
		LQT_CHECK(i < MAXOCC, "too many occurrences");
		g_sh->occ[i] = t.run_at;
		__atomic_add_fetch(&g_sh->by_worker[idx], 1, __ATOMIC_RELAXED);
		if (mode == LQ_AT_LEAST_ONCE)
			LQT_CHECK_ST(db, LQ_OK, lq_task_ack(db, &t));
		lq_task_clear(&t);
	}
	lq_close(db);
	return 0;
}

static int verify_recurring(int64_t id)
{
	int dup = 0, n = g_sh->nocc;
	lq_db *db;
	lq_task t;

	qsort(g_sh->occ, (size_t)n, sizeof(g_sh->occ[0]), lqt_cmp_int64);
	for (int i = 1; i < n; i++) {
		if (g_sh->occ[i] == g_sh->occ[i - 1] && dup++ < 5)
			fprintf(stderr, "recurring: occurrence at %lld claimed twice\n", (long long)g_sh->occ[i]);
	}
	/* The schedule survives all of it. */
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_get(db, id, &t));
	LQT_CHECK(t.dead == 0 && t.every_ms == REC_EVERY_MS, "recurring task changed");
	lq_task_clear(&t);
	LQT_CHECK_ST(db, LQ_OK, lq_task_rm(db, id));
	lq_close(db);
	printf("  %-38s %d occurrences in %d ms, per worker:", "recurring every 100 ms (both modes)", n,
	       REC_RUN_MS);
	for (int w = 0; w < NWORKERS; w++)
		printf(" %d", g_sh->by_worker[w]);
	printf("\n");
	/* Only a floor that any machine meets: the point is "no duplicates". */
	if (n < 3)
		fprintf(stderr, "recurring: only %d occurrences claimed in %d ms\n", n, REC_RUN_MS);
	return dup + (n < 3);
}

/* Check one run; returns the number of problems. */
static int verify(const char *what, int64_t ms)
{
	int missing = 0, dup = 0;
	int64_t left = 0, dead = 0;
	lq_db *db;

	for (int i = 0; i < NTASKS; i++) {
		if (g_sh->ran[i] == 0 && missing++ < 5)
			fprintf(stderr, "%s: task %d never ran\n", what, i);
		if (g_sh->ran[i] > 1 && dup++ < 5)
			fprintf(stderr, "%s: task %d ran %d times\n", what, i, g_sh->ran[i]);
	}
	/* Nothing may be left behind, live or dead. */
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, 0, count_cb, &left));
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, LQ_LIST_DEAD, count_cb, &dead));
	lq_close(db);
	printf("  %-38s %d runs in %lld ms, per worker:", what, g_sh->total, (long long)ms);
	for (int w = 0; w < NWORKERS; w++)
		printf(" %d", g_sh->by_worker[w]);
	printf("\n");
	if (missing || dup)
		fprintf(stderr, "%s: %d never ran, %d ran more than once\n", what, missing, dup);
	if (g_sh->bad_payload)
		fprintf(stderr, "%s: %d bad payloads\n", what, g_sh->bad_payload);
	if (g_sh->lost)
		fprintf(stderr, "%s: %d acks lost (a 60 s claim expired?)\n", what, g_sh->lost);
	if (left || dead)
		fprintf(stderr, "%s: %lld tasks left, %lld dead\n", what, (long long)left, (long long)dead);
	return missing + dup + g_sh->bad_payload + g_sh->lost + (int)left + (int)dead;
}

/* NTASKS enqueued up front, drained by NWORKERS children running child. */
static int drain_phase(const char *what, lqt_child_fn child)
{
	reset_shared();
	lq_db *db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	enqueue(db, 0, NTASKS);
	lq_close(db);
	int64_t t0 = lqt_mono_ms();
	int bad = lqt_run_children(NWORKERS, child, NULL, NULL, DEADLINE_MS / 1000 + 30);
	return bad + verify(what, lqt_mono_ms() - t0);
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	lq_db *db;
	int bad = 0;
	int64_t t0;

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");

	/* 1. at-most-once, half enqueued up front, half while claiming. */
	reset_shared();
	enqueue(db, 0, NTASKS / 2);
	lq_close(db);
	t0 = lqt_mono_ms();
	bad += lqt_run_children(NWORKERS + 1, amo_child, NULL, NULL, DEADLINE_MS / 1000 + 30);
	bad += verify("at-most-once claim (1 and 8)", lqt_mono_ms() - t0);

	/* 2. at-least-once + ack. */
	bad += drain_phase("at-least-once claim + ack (1 and 8)", alo_child);

	/* 3. the runner. */
	bad += drain_phase("lq_runner_work drain (both modes)", runner_child);

	/* 4. one recurring task, many claimers. */
	reset_shared();
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	{
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		int64_t id;
		o.queue = REC_QUEUE;
		o.every_ms = REC_EVERY_MS;
		LQT_CHECK_ST(db, LQ_OK, lq_task_add(db, "tick", &o, &id, NULL));
		lq_close(db);
		bad += lqt_run_children(NWORKERS, recurring_child, NULL, NULL, REC_RUN_MS / 1000 + 60);
		bad += verify_recurring(id);
	}

	printf("race_tasks %s: 3 runs x %d tasks + a recurring task, %d workers: %s\n", backend, NTASKS,
	       NWORKERS, bad ? "FAILED" : "every task and occurrence ran exactly once, none left");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return bad ? 1 : 0;
}
