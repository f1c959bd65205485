/*
 * race_priority.c - tasks of mixed priorities, claimed by racing processes,
 * each run exactly once, none lost.
 *
 * NTASKS tasks with priorities -2, 0, 3 and 9 (payload = the task's number)
 * are enqueued with lq_task_add_many: half before the workers start, half in
 * batches by a producer while they claim.  NWORKERS processes, each with its
 * own connection, claim at-most-once and at-least-once (+ ack), in batches
 * of 1 and of 8.  Shared memory counts every run; the parent checks each
 * task ran exactly once and the queue is empty afterwards.  The order
 * itself (priority, then due time, then id) is the conformance suite's
 * single-claimer test: racing claimers only promise "each exactly once".
 *
 *     race_priority --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NTASKS 2000
#define NWORKERS 4
#define PRODUCER_BATCH 50
#define DEADLINE_MS 180000 /* a run that takes this long has lost tasks */
#define QUEUE "race-prio"

struct shared {
	int ran[NTASKS];
	int total;
	int bad_payload;
	int lost;
	int by_prio[4];
	int64_t deadline_ms;
};

static const char *g_dsn;
static struct shared *g_sh;
static const int prios[4] = {-2, 0, 3, 9};

static int prio_of(int k)
{
	return prios[(k * 7) % 4];
}

static void ran(const lq_task *t)
{
	char buf[16];
	char *end;
	long k;

	if (t->payload == NULL || t->payload_len == 0 || t->payload_len >= sizeof(buf)) {
		__atomic_add_fetch(&g_sh->bad_payload, 1, __ATOMIC_RELAXED);
		return;
	}
	memcpy(buf, t->payload, t->payload_len);
	buf[t->payload_len] = '\0';
	k = strtol(buf, &end, 10);
	if (*end != '\0' || k < 0 || k >= NTASKS || t->priority != prio_of((int)k)) {
		__atomic_add_fetch(&g_sh->bad_payload, 1, __ATOMIC_RELAXED);
		return;
	}
	for (int i = 0; i < 4; i++)
		if (prios[i] == t->priority)
			__atomic_add_fetch(&g_sh->by_prio[i], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_sh->ran[k], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_sh->total, 1, __ATOMIC_RELEASE);
}

/* Tasks from..to in one lq_task_add_many call. */
static void enqueue(lq_db *db, int from, int to)
{
	static char payloads[NTASKS][16];
	static lq_task_opts opts[NTASKS];
	static const lq_task_opts *po[NTASKS];
	static const char *names[NTASKS];

	for (int i = from; i < to; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "%d", i);
		o.queue = QUEUE;
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		o.priority = prio_of(i);
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "n";
	}
	LQT_CHECK_ST(db, LQ_OK, lq_task_add_many(db, (size_t)(to - from), names + from, po + from, NULL, NULL, NULL));
}

static int claimer(int idx)
{
	lq_db *db = lqt_open(g_dsn);
	lq_mode mode = idx < 2 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
	size_t batch = idx % 2 ? 8 : 1;
	lq_task t[8];

	LQT_CHECK(db != NULL, "open");
	while (__atomic_load_n(&g_sh->total, __ATOMIC_ACQUIRE) < NTASKS) {
		size_t n = 0;
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: deadline passed with %d of %d run", idx,
			  g_sh->total, NTASKS);
		lq_status st = lq_task_claim(db, QUEUE, mode, 60000, t, batch, &n);
		if (st == LQ_EMPTY || st == LQ_BUSY) {
			lqt_sleep_ms(2 + lqt_rand() % 5);
			continue;
		}
		LQT_CHECK(st == LQ_OK, "worker %d: claim: %s: %s", idx, lq_status_str(st), lq_errmsg(db));
		for (size_t i = 0; i < n; i++) {
			ran(&t[i]);
			if (mode == LQ_AT_LEAST_ONCE) {
				lqt_ack_counting_lost(db, &t[i], &g_sh->lost);
			}
			lq_task_clear(&t[i]);
		}
		usleep(lqt_rand() % 1000);
	}
	lq_close(db);
	return 0;
}

static int child(int idx, void *ctx)
{
	(void)ctx;
	if (idx == NWORKERS) {
		/* The producer: bulk batches arrive while the workers claim. */
		lq_db *db = lqt_open(g_dsn);
		LQT_CHECK(db != NULL, "open");
		for (int i = NTASKS / 2; i < NTASKS; i += PRODUCER_BATCH) {
			enqueue(db, i, i + PRODUCER_BATCH < NTASKS ? i + PRODUCER_BATCH : NTASKS);
			usleep(lqt_rand() % 5000);
		}
		lq_close(db);
		return 0;
	}
	return claimer(idx);
}

static int count_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	int missing = 0, dup = 0;
	int64_t left = 0, dead = 0, t0;
	lq_db *db;

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	enqueue(db, 0, NTASKS / 2);
	lq_close(db);
	t0 = lqt_mono_ms();
	int bad = lqt_run_children(NWORKERS + 1, child, NULL, NULL, DEADLINE_MS / 1000 + 30);

	for (int i = 0; i < NTASKS; i++) {
		if (g_sh->ran[i] == 0 && missing++ < 5)
			fprintf(stderr, "task %d (priority %d) never ran\n", i, prio_of(i));
		if (g_sh->ran[i] > 1 && dup++ < 5)
			fprintf(stderr, "task %d ran %d times\n", i, g_sh->ran[i]);
	}
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, 0, count_cb, &left));
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, LQ_LIST_DEAD, count_cb, &dead));
	lq_close(db);
	if (g_sh->bad_payload)
		fprintf(stderr, "%d bad payloads or priorities\n", g_sh->bad_payload);
	if (g_sh->lost)
		fprintf(stderr, "%d acks lost (a 60 s claim expired?)\n", g_sh->lost);
	if (left || dead)
		fprintf(stderr, "%lld tasks left, %lld dead\n", (long long)left, (long long)dead);
	bad += missing + dup + g_sh->bad_payload + g_sh->lost + (int)left + (int)dead;
	printf("race_priority %s: %d tasks (priorities -2/0/3/9: %d/%d/%d/%d runs), %d workers + a bulk "
	       "producer, %lld ms: %s\n",
	       backend, NTASKS, g_sh->by_prio[0], g_sh->by_prio[1], g_sh->by_prio[2], g_sh->by_prio[3], NWORKERS,
	       (long long)(lqt_mono_ms() - t0), bad ? "FAILED" : "every task ran exactly once, none left");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return bad ? 1 : 0;
}
