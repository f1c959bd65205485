/*
 * race_rates.c - rate limits under racing processes: a key never starts
 * more tasks than its rate allows, a limited key is not starved, the tasks
 * of other keys run past it, and every task runs at most once.
 *
 * NBURST tasks carry key "burst", whose rate is BURST starts an hour: of
 * them exactly BURST run and the rest wait, none lost.  NTRICKLE carry key
 * "trickle", TRICKLE starts a second: all of them run, and the k-th start
 * (by the database clock of its claim) comes no sooner than the rate
 * allows, k <= TRICKLE + (since the limit was set) * TRICKLE / 1 s.  NFREE
 * others have no key or a key no limit names.  The tasks are added in a
 * mixed order, so the heads the claims meet change between the kinds.
 * NWORKERS processes, each with its own connection, claim at-most-once and
 * at-least-once, in batches of 1 and of 4, until every task but the
 * waiting burst has run and the burst's starts are spent; spread over a
 * cluster's nodes, each first waits for its node to show the setup.
 *
 *     race_rates --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NBURST 80
#define BURST 25
#define NTRICKLE 12
#define TRICKLE 4
#define NFREE 120
#define NTASKS (NBURST + NTRICKLE + NFREE)
#define NWORKERS 4
#define DEADLINE_MS 150000
#define QUEUE "race-rates"
/* A start's claim time can come before its start was taken (the
 * transactional claim reads the clock first): the bound allows this. */
#define CLOCK_SLACK_MS 1000

enum kind { BURSTY, TRICKLING, FREE };

struct shared {
	int ran[NTASKS];
	int others;  /* trickle and free tasks run */
	int bursts;  /* burst tasks run */
	int trickled;
	int64_t trickle_at[NTRICKLE]; /* database clock of each trickle claim */
	int bad;
	int lost;
	int64_t deadline_ms;
	char marker[64]; /* the limit the setup writes last */
};

static const char *g_dsn;
static struct shared *g_sh;

static enum kind kind_of(int k)
{
	return k < NBURST ? BURSTY : k < NBURST + NTRICKLE ? TRICKLING : FREE;
}

static void run_handler(const lq_task *t)
{
	int k = lqt_task_no(t, NTASKS);
	if (k < 0) {
		__atomic_add_fetch(&g_sh->bad, 1, __ATOMIC_RELAXED);
		return;
	}
	enum kind kind = kind_of(k);
	const char *want = kind == BURSTY ? "burst" : kind == TRICKLING ? "trickle" : NULL;
	if (want ? strcmp(t->concurrency_key, want) != 0 : strncmp(t->concurrency_key, "burst", 5) == 0 ||
								   strncmp(t->concurrency_key, "trickle", 7) == 0) {
		__atomic_add_fetch(&g_sh->bad, 1, __ATOMIC_RELAXED);
		return;
	}
	if (kind == TRICKLING) {
		int i = __atomic_fetch_add(&g_sh->trickled, 1, __ATOMIC_ACQ_REL);
		if (i < NTRICKLE)
			g_sh->trickle_at[i] = t->now;
	}
	__atomic_add_fetch(&g_sh->ran[k], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(kind == BURSTY ? &g_sh->bursts : &g_sh->others, 1, __ATOMIC_RELEASE);
}

/* Every task but the burst's waiting ones has run, and the burst's starts
 * are spent. */
static int all_done(void)
{
	return __atomic_load_n(&g_sh->others, __ATOMIC_ACQUIRE) >= NTRICKLE + NFREE &&
	       __atomic_load_n(&g_sh->bursts, __ATOMIC_ACQUIRE) >= BURST;
}

static void enqueue(lq_db *db)
{
	static char payloads[NTASKS][16];
	static char keys[NTASKS][16];
	static lq_task_opts opts[NTASKS];
	static const lq_task_opts *po[NTASKS];
	static const char *names[NTASKS];

	/* 7919 is prime and does not divide NTASKS: i -> i * 7919 mod NTASKS
	 * visits every task once, the kinds mixed. */
	for (int i = 0; i < NTASKS; i++) {
		int k = (int)((i * 7919L) % NTASKS);
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "%d", k);
		o.queue = QUEUE;
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		if (kind_of(k) == BURSTY) {
			o.concurrency_key = "burst";
		} else if (kind_of(k) == TRICKLING) {
			o.concurrency_key = "trickle";
		} else if (k % 2) {
			snprintf(keys[i], sizeof(keys[i]), "free-%d", k);
			o.concurrency_key = keys[i];
		}
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "n";
	}
	LQT_CHECK_ST(db, LQ_OK, lq_task_add_many(db, NTASKS, names, po, NULL, NULL, NULL));
}

/* Clients spread over a cluster's nodes (LEASEQ_TEST_SPREAD_DSNS): a
 * Galera node applies the setup after its origin commits it, and until it
 * has, it shows the last run's tables or a schema half migrated.  The
 * setup's last write is a limit named for this run: wait to see it. */
static void wait_for_setup(lq_db *db, int idx)
{
	lq_limit l;
	while (lq_limit_get(db, g_sh->marker, &l) != LQ_OK) {
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: its node never showed the setup: %s", idx,
			  lq_errmsg(db));
		lqt_sleep_ms(20);
	}
}

static int claimer(int idx, void *ctx)
{
	(void)ctx;
	lq_db *db = lqt_open(g_dsn);
	lq_mode mode = idx % 2 ? LQ_AT_MOST_ONCE : LQ_AT_LEAST_ONCE;
	size_t batch = idx < 2 ? 1 : 4;
	lq_task t[4];

	LQT_CHECK(db != NULL, "open");
	wait_for_setup(db, idx);
	while (!all_done()) {
		size_t n = 0;
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms,
			  "worker %d: deadline passed with %d of %d trickle and free tasks run, %d of %d burst", idx,
			  g_sh->others, NTRICKLE + NFREE, g_sh->bursts, BURST);
		lq_status st = lq_task_claim(db, QUEUE, mode, 60000, t, batch, &n);
		if (st == LQ_EMPTY || st == LQ_BUSY) {
			lqt_sleep_ms(5 + lqt_rand() % 10);
			continue;
		}
		LQT_CHECK(st == LQ_OK, "worker %d: claim: %s: %s", idx, lq_status_str(st), lq_errmsg(db));
		for (size_t i = 0; i < n; i++) {
			LQT_CHECK(t[i].mode == mode, "worker %d: task %lld claimed %s", idx, (long long)t[i].id,
				  t[i].mode == LQ_AT_MOST_ONCE ? "at most once" : "at least once");
			run_handler(&t[i]);
			if (t[i].mode == LQ_AT_LEAST_ONCE) {
				lqt_ack_counting_lost(db, &t[i], &g_sh->lost);
			}
			lq_task_clear(&t[i]);
		}
	}
	lq_close(db);
	return 0;
}

/* ctx: int[3], burst tasks, others, and burst tasks still claimed (a
 * start taken whose claim never reached a worker, or was never settled). */
static int count_cb(const lq_task *t, void *ctx)
{
	int *n = ctx;
	int burst = strcmp(t->concurrency_key, "burst") == 0;
	n[burst ? 0 : 1]++;
	if (burst && t->claim_owner[0]) {
		if (n[2]++ < 3)
			fprintf(stderr, "burst task %lld is claimed by %s, attempt %d\n", (long long)t->id,
				t->claim_owner, t->attempts);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	int dup = 0, missing = 0, bursts = 0, early = 0, left[3] = {0, 0, 0}, dead[3] = {0, 0, 0};

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
	lq_db *db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	enqueue(db);
	lqt_set_limit(db, "burst", 0, BURST, 3600 * 1000);
	int64_t set_at = lqt_db_now(db);
	lqt_set_limit(db, "trickle", 0, TRICKLE, 1000);
	snprintf(g_sh->marker, sizeof(g_sh->marker), "setup-%ld-%lld", (long)getpid(), (long long)set_at);
	lqt_set_limit(db, g_sh->marker, 0, 1, 1000);
	lq_close(db);
	int64_t t0 = lqt_mono_ms();
	int bad = lqt_run_children(NWORKERS, claimer, NULL, NULL, DEADLINE_MS / 1000 + 30);

	for (int k = 0; k < NTASKS; k++) {
		if (g_sh->ran[k] > 1 && dup++ < 5)
			fprintf(stderr, "task %d ran %d times\n", k, g_sh->ran[k]);
		if (kind_of(k) != BURSTY && g_sh->ran[k] == 0 && missing++ < 5)
			fprintf(stderr, "task %d (%s) never ran\n", k, kind_of(k) == TRICKLING ? "trickle" : "free");
		if (kind_of(k) == BURSTY && g_sh->ran[k])
			bursts++;
	}
	if (bursts != BURST)
		fprintf(stderr, "%d burst tasks ran, the rate allows %d\n", bursts, BURST);
	/* The k-th trickle start (from 1) came when the rate had room for it. */
	int got = g_sh->trickled < NTRICKLE ? g_sh->trickled : NTRICKLE;
	qsort(g_sh->trickle_at, (size_t)got, sizeof(int64_t), lqt_cmp_int64);
	for (int i = 0; i < got; i++) {
		int64_t since = g_sh->trickle_at[i] - set_at + CLOCK_SLACK_MS;
		if ((i + 1) * 1000LL > TRICKLE * 1000LL + since * TRICKLE && early++ < 5)
			fprintf(stderr, "trickle start %d came %lld ms after the limit was set: too early for %d/s\n",
				i + 1, (long long)(g_sh->trickle_at[i] - set_at), TRICKLE);
	}
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, 0, count_cb, left));
	LQT_CHECK_ST(db, LQ_OK, lq_task_list(db, QUEUE, LQ_LIST_DEAD, count_cb, dead));
	lq_limit burst;
	LQT_CHECK_ST(db, LQ_OK, lq_limit_get(db, "burst", &burst));
	lq_close(db);
	if (bursts != BURST)
		fprintf(stderr, "limit burst: %lld starts left\n", (long long)burst.tokens);
	if (left[0] != NBURST - BURST || left[1] || dead[0] || dead[1])
		fprintf(stderr, "left: %d burst tasks (want %d), %d others; dead: %d burst, %d others\n", left[0],
			NBURST - BURST, left[1], dead[0], dead[1]);
	if (g_sh->bad)
		fprintf(stderr, "%d bad payloads or keys\n", g_sh->bad);
	if (g_sh->lost)
		fprintf(stderr, "%d acks lost\n", g_sh->lost);
	bad += dup + missing + (bursts != BURST) + early + g_sh->bad + g_sh->lost + (left[0] != NBURST - BURST) +
	       left[1] + dead[0] + dead[1];
	printf("race_rates %s: %d tasks (%d under %d/h, %d under %d/s, %d free), %d workers, %lld ms: %s\n", backend,
	       NTASKS, NBURST, BURST, NTRICKLE, TRICKLE, NFREE, NWORKERS, (long long)(lqt_mono_ms() - t0),
	       bad ? "FAILED" : "never over a rate, every task ran at most once, the limited ones waiting");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return bad ? 1 : 0;
}
