/*
 * race_cancel.c - cancels racing runs at every point of their life.
 *
 * NTASKS tasks; NWORKERS processes claim them, at-least-once or (every other
 * worker) at-most-once cancellable, and run each in
 * phases (claimed, running with heartbeats, finishing with the ack), saying
 * in shared memory which phase each task is in; NCANCELLERS processes
 * cancel every task, each at a chosen point: at once (mostly before its
 * claim), once it is claimed, while it runs, or as it finishes (the ack
 * racing the cancel).  Then, for every task: exactly one of "ack
 * succeeded" and "cancel succeeded" (nothing is acked after its cancel,
 * nothing is both or neither); the history holds exactly one run for it,
 * done or cancelled to match; a task cancelled while claimed was told so
 * (LQ_REVOKED at a heartbeat or at its ack); one cancelled while not
 * running was never claimed; the queue is empty and nothing is dead.
 *
 *     race_cancel --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NTASKS 400
#define NWORKERS 3
#define NCANCELLERS 2
#define CLAIM_TTL_MS 60000
#define DEADLINE_MS 240000
#define QUEUE "race-cancel"

enum phase { P_NEW, P_CLAIMED, P_RUNNING, P_FINISHING, P_ENDED };

struct shared {
	int phase[NTASKS];
	int claimed[NTASKS];
	int acked[NTASKS];     /* lq_task_ack said LQ_OK */
	int refused[NTASKS];   /* ack said LQ_REVOKED */
	int revoked[NTASKS];   /* a heartbeat or the ack said LQ_REVOKED */
	int cancelled[NTASKS]; /* lq_task_cancel said LQ_OK */
	int was_running[NTASKS];
	int notfound[NTASKS];  /* lq_task_cancel said LQ_NOTFOUND */
	int at_phase[NTASKS];  /* the phase the canceller saw before its cancel */
	int amo[NTASKS];       /* claimed at-most-once (cancellable) */
	int64_t id[NTASKS];    /* the task's id (MySQL's bulk inserts may leave gaps) */
	int errors;
	int ended;
	int64_t deadline_ms;
};

static const char *g_dsn;
static struct shared *g_sh;

static int index_of(const lq_task *t)
{
	char buf[16];
	char *end;
	long k;

	LQT_CHECK(t->payload && t->payload_len > 0 && t->payload_len < sizeof(buf), "payload");
	memcpy(buf, t->payload, t->payload_len);
	buf[t->payload_len] = '\0';
	k = strtol(buf, &end, 10);
	LQT_CHECK(*end == '\0' && k >= 0 && k < NTASKS, "payload %s", buf);
	return (int)k;
}

static void set_phase(int k, enum phase p)
{
	__atomic_store_n(&g_sh->phase[k], (int)p, __ATOMIC_RELEASE);
}

static void bad(const char *fmt, int k, lq_status st, lq_db *db)
{
	fprintf(stderr, fmt, k, lq_status_str(st), lq_errmsg(db));
	__atomic_add_fetch(&g_sh->errors, 1, __ATOMIC_RELAXED);
}

/* Run task k: heartbeats while it "works", then the ack. */
static void run_one(lq_db *db, lq_task *t, int k)
{
	lq_status st;

	__atomic_add_fetch(&g_sh->claimed[k], 1, __ATOMIC_RELAXED);
	set_phase(k, P_CLAIMED);
	usleep(lqt_rand() % 1500);
	set_phase(k, P_RUNNING);
	for (int beats = 1 + (int)(lqt_rand() % 4); beats > 0; beats--) {
		st = lq_task_heartbeat(db, t, CLAIM_TTL_MS);
		if (st == LQ_REVOKED) {
			g_sh->revoked[k] = 1;
			break; /* a well-behaved worker stops; the ack below must still be refused */
		}
		if (st != LQ_OK)
			bad("task %d: heartbeat: %s: %s\n", k, st, db);
		usleep(lqt_rand() % 1500);
	}
	set_phase(k, P_FINISHING);
	usleep(lqt_rand() % 500); /* the handler's last words: a cancel may land here */
	st = lq_task_ack(db, t);
	if (st == LQ_OK) {
		g_sh->acked[k] = 1;
	} else if (st == LQ_REVOKED) {
		g_sh->refused[k] = 1;
		g_sh->revoked[k] = 1;
	} else {
		bad("task %d: ack: %s: %s\n", k, st, db);
	}
	set_phase(k, P_ENDED);
	__atomic_add_fetch(&g_sh->ended, 1, __ATOMIC_RELEASE);
}

static int worker(int idx)
{
	lq_db *db = lqt_open(g_dsn);
	lq_task t;
	size_t n;
	lq_mode mode = idx % 2 == 0 ? LQ_AT_MOST_ONCE_CANCELLABLE : LQ_AT_LEAST_ONCE;

	LQT_CHECK(db != NULL, "open");
	for (;;) {
		/* Done once every task was either run here or cancelled there. */
		int settled = 0;
		for (int k = 0; k < NTASKS; k++)
			settled += g_sh->phase[k] == P_ENDED || __atomic_load_n(&g_sh->cancelled[k], __ATOMIC_ACQUIRE) ||
				   g_sh->notfound[k];
		if (settled == NTASKS)
			break;
		LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "worker %d: deadline passed", idx);
		n = 0;
		lq_status st = lq_task_claim(db, QUEUE, mode, CLAIM_TTL_MS, &t, 1, &n);
		if (st == LQ_EMPTY || st == LQ_BUSY) {
			lqt_sleep_ms(1 + lqt_rand() % 3);
			continue;
		}
		LQT_CHECK(st == LQ_OK && n == 1, "worker %d: claim: %s: %s", idx, lq_status_str(st), lq_errmsg(db));
		g_sh->amo[index_of(&t)] = t.mode == LQ_AT_MOST_ONCE;
		run_one(db, &t, index_of(&t));
		lq_task_clear(&t);
	}
	lq_close(db);
	return 0;
}

/* Task k is cancelled at the point (k / NCANCELLERS) % 4 of its run: at
 * once, once claimed, while running, or as it finishes. */
static int canceller(int idx)
{
	lq_db *db = lqt_open(g_dsn);

	LQT_CHECK(db != NULL, "open");
	for (int k = idx; k < NTASKS; k += NCANCELLERS) {
		int want = (k / NCANCELLERS) % 4, seen;
		while ((seen = __atomic_load_n(&g_sh->phase[k], __ATOMIC_ACQUIRE)) < want) {
			LQT_CHECK(lqt_mono_ms() < g_sh->deadline_ms, "canceller %d: deadline passed at task %d", idx, k);
			usleep(100);
		}
		if (want > 0)
			usleep(lqt_rand() % 700);
		g_sh->at_phase[k] = seen;
		int running = 0;
		lq_status st = lq_task_cancel(db, g_sh->id[k], NULL, &running);
		if (st == LQ_OK) {
			g_sh->was_running[k] = running;
			__atomic_store_n(&g_sh->cancelled[k], 1, __ATOMIC_RELEASE);
		} else if (st == LQ_NOTFOUND) {
			g_sh->notfound[k] = 1;
		} else {
			bad("task %d: cancel: %s: %s\n", k, st, db);
		}
	}
	lq_close(db);
	return 0;
}

static int child(int idx, void *ctx)
{
	(void)ctx;
	return idx < NWORKERS ? worker(idx) : canceller(idx - NWORKERS);
}

#define REPORT(...)                                                                                             \
	do {                                                                                                    \
		if (nbad++ < 10)                                                                                \
			fprintf(stderr, __VA_ARGS__);                                                           \
	} while (0)

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	static char payloads[NTASKS][16];
	static lq_task_opts opts[NTASKS];
	static const lq_task_opts *po[NTASKS];
	static const char *names[NTASKS];
	int nbad = 0, by_phase[5] = {0}, running_cancels = 0, refused = 0, amo_cancels = 0;
	int64_t left = 0, dead = 0, t0;
	lq_db *db;

	g_dsn = lqt_dsn(backend);
	g_sh = lqt_shared_alloc(sizeof(*g_sh));
	g_sh->deadline_ms = lqt_mono_ms() + DEADLINE_MS;
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	for (int i = 0; i < NTASKS; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		snprintf(payloads[i], sizeof(payloads[i]), "%d", i);
		o.queue = QUEUE;
		o.payload = payloads[i];
		o.payload_len = strlen(payloads[i]);
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "job";
	}
	LQT_CHECK_ST(db, LQ_OK, lq_task_add_many(db, NTASKS, names, po, g_sh->id, NULL, NULL));
	lq_close(db);
	t0 = lqt_mono_ms();
	int failed = lqt_run_children(NWORKERS + NCANCELLERS, child, NULL, NULL, DEADLINE_MS / 1000 + 30);

	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	for (int k = 0; k < NTASKS; k++) {
		struct lqt_runs rs;
		int acked = g_sh->acked[k], cancelled = g_sh->cancelled[k];
		if (acked + cancelled != 1)
			REPORT("task %lld: acked %d, cancelled %d (cancel not found: %d)\n", (long long)g_sh->id[k], acked, cancelled,
			       g_sh->notfound[k]);
		if (cancelled && g_sh->was_running[k] && !g_sh->revoked[k] && g_sh->claimed[k])
			REPORT("task %lld: cancelled while running, but its worker was never told\n", (long long)g_sh->id[k]);
		if (cancelled && !g_sh->was_running[k] && g_sh->claimed[k])
			REPORT("task %lld: cancelled before its claim, yet claimed\n", (long long)g_sh->id[k]);
		if (g_sh->claimed[k] > 1)
			REPORT("task %lld: claimed %d times\n", (long long)g_sh->id[k], g_sh->claimed[k]);
		lqt_runs_of(db, g_sh->id[k], &rs);
		if (rs.n != 1)
			REPORT("task %lld: %zu runs in the history\n", (long long)g_sh->id[k], rs.n);
		else if (rs.r[0].outcome != (cancelled ? LQ_RUN_CANCELLED : LQ_RUN_DONE))
			REPORT("task %lld: history says %s, acked %d, cancelled %d\n", (long long)g_sh->id[k],
			       lq_outcome_name(rs.r[0].outcome), acked, cancelled);
		if (cancelled) {
			by_phase[g_sh->at_phase[k]]++;
			running_cancels += g_sh->was_running[k];
			amo_cancels += g_sh->was_running[k] && g_sh->amo[k];
			refused += g_sh->refused[k];
		}
	}
	left = lqt_count_tasks(db, QUEUE, 0);
	dead = lqt_count_tasks(db, QUEUE, LQ_LIST_DEAD);
	lq_close(db);
	if (left || dead)
		REPORT("%lld tasks left, %lld dead\n", (long long)left, (long long)dead);
	/* Cancels did meet running tasks, not only waiting ones.  (The
	 * finishing window is short: hitting it is likely, not certain.) */
	if (!running_cancels || !by_phase[P_RUNNING] || !amo_cancels)
		REPORT("the cancels never met a running task (%d running, %d at-most-once, phases %d/%d/%d/%d)\n",
		       running_cancels, amo_cancels, by_phase[0], by_phase[1], by_phase[2], by_phase[3]);
	failed += nbad + g_sh->errors;
	printf("race_cancel %s: %d tasks, %d workers, %d cancellers, %lld ms; cancelled %d/%d/%d/%d "
	       "(seen new/claimed/running/finishing), %d of them running (%d at-most-once), %d acks refused: %s\n",
	       backend, NTASKS, NWORKERS, NCANCELLERS, (long long)(lqt_mono_ms() - t0), by_phase[0], by_phase[1],
	       by_phase[2], by_phase[3], running_cancels, amo_cancels, refused,
	       failed ? "FAILED" : "each task acked or cancelled, never both, one run each");
	lqt_shared_free(g_sh, sizeof(*g_sh));
	return failed ? 1 : 0;
}
