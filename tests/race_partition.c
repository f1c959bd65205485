/*
 * race_partition.c - fair share under racing claimers: each task run once,
 * none lost, and the small partitions are not left for last.
 *
 * NPART partitions of very different sizes (the biggest enqueued first, so
 * that plain (run_at, id) order would drain it before any other) go in
 * with lq_task_add_many before NWORKERS processes, each with its own
 * connection, claim at-most-once and at-least-once (+ ack), in batches of
 * 1 and of 8.  Shared memory numbers every run in the order it was seen.
 * The parent checks that each task ran exactly once, the queue is empty,
 * and each partition of size s had run (but for one task a worker) by
 * claim number sum_j min(size_j, s), where round-robin finishes it, plus
 * a slack for the batches in flight.  It prints the spread (max/min runs
 * per partition) over the first round-robin window.
 *
 *     race_partition --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NPART 8
#define NWORKERS 4
#define BATCH 8
#define DEADLINE_MS 180000 /* a run that takes this long has lost tasks */
#define QUEUE "race-part"
/* Claims in flight when one is numbered: every worker's batch, twice. */
#define SLACK (NWORKERS * BATCH * 2)

static const int sizes[NPART] = {300, 60, 20, 20, 10, 10, 5, 5};
#define NTASKS (300 + 60 + 20 + 20 + 10 + 10 + 5 + 5)

struct shared {
	int ran[NTASKS];
	int seq;                 /* runs numbered so far */
	int part_at[NTASKS];     /* partition of run number i */
	int bad_payload;
	int lost;
	int64_t deadline_ms;
};

static const char *g_dsn;
static struct shared *g_sh;

static int part_of(int k)
{
	int p = 0;
	while (k >= sizes[p])
		k -= sizes[p++];
	return p;
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
	if (*end != '\0' || k < 0 || k >= NTASKS) {
		__atomic_add_fetch(&g_sh->bad_payload, 1, __ATOMIC_RELAXED);
		return;
	}
	int i = __atomic_fetch_add(&g_sh->seq, 1, __ATOMIC_ACQ_REL);
	if (i < NTASKS)
		g_sh->part_at[i] = part_of((int)k);
	__atomic_add_fetch(&g_sh->ran[k], 1, __ATOMIC_RELAXED);
}

static void enqueue(lq_db *db)
{
	static char payloads[NTASKS][16];
	static char parts[NPART][16];
	static lq_task_opts opts[NTASKS];
	static const lq_task_opts *po[NTASKS];
	static const char *names[NTASKS];
	int64_t now = lqt_db_now(db);

	for (int p = 0; p < NPART; p++)
		snprintf(parts[p], sizeof(parts[p]), "tenant-%d", p);
	for (int i = 0; i < NTASKS; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "%d", i);
		o.queue = QUEUE;
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		o.partition = parts[part_of(i)];
		o.run_at = now - 60000 + i; /* the biggest partition is the oldest */
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "n";
	}
	LQT_CHECK_ST(db, LQ_OK, lq_task_add_many(db, NTASKS, names, po, NULL, NULL, NULL));
}

static int claimer(int idx, void *ctx)
{
	lq_db *db = lqt_open(g_dsn);
	lq_mode mode = idx < NWORKERS / 2 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
	size_t batch = idx % 2 ? BATCH : 1;
	lq_task t[BATCH];

	(void)ctx;
	LQT_CHECK(db != NULL, "open");
	while (__atomic_load_n(&g_sh->seq, __ATOMIC_ACQUIRE) < NTASKS) {
		size_t n = 0;
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: deadline passed with %d of %d run", idx,
			  g_sh->seq, NTASKS);
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

static int count_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	int missing = 0, dup = 0, unfair = 0;
	int64_t left = 0, dead = 0, t0;
	lq_db *db;

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	enqueue(db);
	lq_close(db);
	t0 = lqt_mono_ms();
	int bad = lqt_run_children(NWORKERS, claimer, NULL, NULL, DEADLINE_MS / 1000 + 30);

	for (int i = 0; i < NTASKS; i++) {
		if (g_sh->ran[i] == 0 && missing++ < 5)
			fprintf(stderr, "task %d (partition %d) never ran\n", i, part_of(i));
		if (g_sh->ran[i] > 1 && dup++ < 5)
			fprintf(stderr, "task %d ran %d times\n", i, g_sh->ran[i]);
	}
	/* How much of each partition ran by the claim where round-robin has
	 * done it (plus the slack).  A run is numbered when its worker gets
	 * to it, and a worker descheduled on a busy machine numbers a batch it
	 * claimed in its turn late: each worker may hold back one task of a
	 * partition.  Draining the biggest partition first runs none of the
	 * small ones by then. */
	for (int p = 0; p < NPART; p++) {
		int ideal = 0, by = 0;
		for (int j = 0; j < NPART; j++)
			ideal += sizes[j] < sizes[p] ? sizes[j] : sizes[p];
		for (int i = 0; i < ideal + SLACK && i < NTASKS && i < g_sh->seq; i++)
			by += g_sh->part_at[i] == p;
		if (by < sizes[p] - NWORKERS) {
			fprintf(stderr, "partition %d (%d tasks): %d ran in the first %d claims; round-robin: all of "
				"them in %d (+%d)\n", p, sizes[p], by, ideal + SLACK, ideal, SLACK);
			unfair++;
		}
	}
	if (unfair && getenv("RACE_PARTITION_TRACE")) {
		for (int i = 0; i < g_sh->seq && i < NTASKS; i++)
			fputc('0' + g_sh->part_at[i], stderr);
		fputc('\n', stderr);
	}
	/* The spread over the first window where every partition has work. */
	int window = NPART * sizes[NPART - 1], per[NPART] = {0}, lo = NTASKS, hi = 0;
	for (int i = 0; i < window; i++)
		per[g_sh->part_at[i]]++;
	for (int p = 0; p < NPART; p++) {
		lo = per[p] < lo ? per[p] : lo;
		hi = per[p] > hi ? per[p] : hi;
	}
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, 0, count_cb, &left));
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, LQ_LIST_DEAD, count_cb, &dead));
	lq_close(db);
	if (g_sh->bad_payload)
		fprintf(stderr, "%d bad payloads\n", g_sh->bad_payload);
	if (g_sh->lost)
		fprintf(stderr, "%d acks lost (a 60 s claim expired?)\n", g_sh->lost);
	if (left || dead)
		fprintf(stderr, "%lld tasks left, %lld dead\n", (long long)left, (long long)dead);
	bad += missing + dup + unfair + g_sh->bad_payload + g_sh->lost + (int)left + (int)dead;
	printf("race_partition %s: %d tasks in %d partitions (%d..%d), %d workers, %lld ms; first %d claims: "
	       "%d..%d per partition: %s\n",
	       backend, NTASKS, NPART, sizes[NPART - 1], sizes[0], NWORKERS, (long long)(lqt_mono_ms() - t0),
	       window, lo, hi, bad ? "FAILED" : "every task ran exactly once, none left, fair");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return bad ? 1 : 0;
}
