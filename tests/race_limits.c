/*
 * race_limits.c - a concurrency cap under racing processes: never more
 * than CAP tasks of the key run at once, each task runs exactly once, none
 * is lost, and a crashed claimer's slots come back when its claims expire.
 *
 * NCAPPED tasks carry key "cap" (limit CAP), NFREE others have no key or a
 * key of their own.  NWORKERS processes, each with its own connection,
 * claim at-most-once and at-least-once, in batches of 1 and of 4.  A
 * "handler" counts itself in shared memory while it runs (from after the
 * claim to before the ack, so the count is a subset of the live claims the
 * database sees) and records the highest count; after each claim the
 * worker also reads the key's live claims (lq_limit_get), batches held
 * included, which must not exceed CAP either.  One more process claims
 * two capped tasks with a short claim lease and exits without settling
 * them: their slots must free and the tasks run later, once.
 *
 *     race_limits --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NCAPPED 240
#define NFREE 160
#define NTASKS (NCAPPED + NFREE)
#define CAP 3
#define NWORKERS 5
#define DEADLINE_MS 180000
#define QUEUE "race-limits"

struct shared {
	int ran[NTASKS];
	int total;
	int running; /* capped handlers running now */
	int max_running;
	int over;    /* times a handler saw more than CAP */
	int bad;
	int lost;
	int64_t deadline_ms;
};

static const char *g_dsn;
static struct shared *g_sh;

static void run_handler(const lq_task *t)
{
	int k = lqt_task_no(t, NTASKS);
	int capped = strcmp(t->concurrency_key, "cap") == 0;

	if (k < 0 || capped != (k < NCAPPED)) {
		__atomic_add_fetch(&g_sh->bad, 1, __ATOMIC_RELAXED);
		return;
	}
	if (capped) {
		int now = __atomic_add_fetch(&g_sh->running, 1, __ATOMIC_ACQ_REL);
		int seen = __atomic_load_n(&g_sh->max_running, __ATOMIC_RELAXED);
		while (now > seen && !__atomic_compare_exchange_n(&g_sh->max_running, &seen, now, 0, __ATOMIC_ACQ_REL,
								    __ATOMIC_RELAXED))
			;
		if (now > CAP)
			__atomic_add_fetch(&g_sh->over, 1, __ATOMIC_RELAXED);
		usleep(500 + lqt_rand() % 2000); /* the work */
		__atomic_sub_fetch(&g_sh->running, 1, __ATOMIC_ACQ_REL);
	}
	__atomic_add_fetch(&g_sh->ran[k], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_sh->total, 1, __ATOMIC_RELEASE);
}

static void enqueue(lq_db *db)
{
	static char payloads[NTASKS][16];
	static char keys[NTASKS][16];
	static lq_task_opts opts[NTASKS];
	static const lq_task_opts *po[NTASKS];
	static const char *names[NTASKS];

	for (int i = 0; i < NTASKS; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "%d", i);
		o.queue = QUEUE;
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		if (i < NCAPPED) {
			o.concurrency_key = "cap";
		} else if (i % 2) {
			snprintf(keys[i], sizeof(keys[i]), "free-%d", i);
			o.concurrency_key = keys[i];
		}
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "n";
	}
	LQT_CHECK_ST(db, LQ_OK, lq_task_add_many(db, NTASKS, names, po, NULL, NULL, NULL));
}

static int claimer(int idx)
{
	lq_db *db = lqt_open(g_dsn);
	lq_mode mode = idx % 2 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
	size_t batch = idx < 2 ? 1 : 4;
	lq_task t[4];

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
		/* The live claims the database counts, batches held included. */
		lq_limit l;
		LQT_CHECK_ST(db, LQ_OK, lq_limit_get(db, "cap", &l));
		if (l.running > CAP)
			__atomic_add_fetch(&g_sh->over, 1, __ATOMIC_RELAXED);
		for (size_t i = 0; i < n; i++) {
			run_handler(&t[i]);
			lqt_ack_counting_lost(db, &t[i], &g_sh->lost); /* a capped task comes back at-least-once */
			lq_task_clear(&t[i]);
		}
	}
	lq_close(db);
	return 0;
}

/* Claims two capped tasks, cuts their claims to 1 s and dies holding them.
 * (It claims with a long claim: a task of another key that it runs and
 * acks must not have its claim expire under a loaded machine, or another
 * worker would rightly run it again.) */
static int crasher(void)
{
	lq_db *db = lqt_open(g_dsn);
	lq_task t[2];
	size_t n = 0, got = 0;

	LQT_CHECK(db != NULL, "open");
	while (got < 2 && __atomic_load_n(&g_sh->total, __ATOMIC_ACQUIRE) < NTASKS) {
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "crasher: deadline passed");
		lq_status st = lq_task_claim(db, QUEUE, LQ_AT_LEAST_ONCE, 60000, t, 1, &n);
		if (st == LQ_OK && n == 1) {
			if (strcmp(t[0].concurrency_key, "cap") == 0) {
				LQT_CHECK_ST(db, LQ_OK, lq_task_heartbeat(db, &t[0], 1000));
				got++;
			} else {
				run_handler(&t[0]);
				LQT_CHECK_ST(db, LQ_OK, lq_task_ack(db, &t[0]));
			}
			lq_task_clear(&t[0]);
			continue;
		}
		lqt_sleep_ms(1);
	}
	_exit(0); /* no release, no ack: the claims expire */
}

static int child(int idx, void *ctx)
{
	(void)ctx;
	return idx == NWORKERS ? crasher() : claimer(idx);
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
	lq_limit l;

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	memset(&l, 0, sizeof(l));
	snprintf(l.key, sizeof(l.key), "cap");
	l.concurrency = CAP;
	LQT_CHECK_ST(db, LQ_OK, lq_limit_set(db, &l));
	enqueue(db);
	lq_close(db);
	t0 = lqt_mono_ms();
	int bad = lqt_run_children(NWORKERS + 1, child, NULL, NULL, DEADLINE_MS / 1000 + 30);

	for (int i = 0; i < NTASKS; i++) {
		if (g_sh->ran[i] == 0 && missing++ < 5)
			fprintf(stderr, "task %d never ran\n", i);
		if (g_sh->ran[i] > 1 && dup++ < 5)
			fprintf(stderr, "task %d ran %d times\n", i, g_sh->ran[i]);
	}
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, 0, count_cb, &left));
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, LQ_LIST_DEAD, count_cb, &dead));
	lq_close(db);
	if (g_sh->over)
		fprintf(stderr, "%d times more than %d capped tasks ran at once (at most %d)\n", g_sh->over, CAP,
			g_sh->max_running);
	if (g_sh->bad)
		fprintf(stderr, "%d bad payloads or keys\n", g_sh->bad);
	if (g_sh->lost)
		fprintf(stderr, "%d acks lost\n", g_sh->lost);
	if (left || dead)
		fprintf(stderr, "%lld tasks left, %lld dead\n", (long long)left, (long long)dead);
	bad += missing + dup + g_sh->over + g_sh->bad + g_sh->lost + (int)left + (int)dead;
	printf("race_limits %s: %d tasks (%d under a cap of %d, at most %d ran at once), %d workers + a "
	       "crashing claimer, %lld ms: %s\n",
	       backend, NTASKS, NCAPPED, CAP, g_sh->max_running, NWORKERS, (long long)(lqt_mono_ms() - t0),
	       bad ? "FAILED" : "never over the cap, every task ran exactly once, none left");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return bad ? 1 : 0;
}
