/*
 * race_lease.c - mutual exclusion under contention, with real processes.
 *
 * 8 processes fight over one lease (TTL 600 ms) for about 5 s.  Whenever a
 * process believes it holds the lease it records the interval in shared
 * memory on CLOCK_MONOTONIC (one clock for the whole machine).  An interval
 * starts when acquire has returned and ends before release is called, and
 * never later than (start of the last successful acquire/renew call) + TTL -
 * margin: past that point the holder cannot know it still holds the lease,
 * so it claims nothing.  Some holders renew, some let the lease expire, some
 * acquire with a wait.
 *
 * The parent checks: no two intervals overlap, tokens strictly increase in
 * time order, every process held the lease at least once.
 *
 *     race_lease --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NPROC 8
#define TTL_MS 600
#define MARGIN_MS 100      /* clock granularity and rounding, generously */
#define RUN_MS 5000        /* contention phase */
#define HARD_MS 60000      /* give up waiting for a starved process */
#define MAXREC 20000
#define LEASE_NAME "race lease"

struct rec {
	int64_t token;
	int64_t start_us;
	int64_t end_us;
	int proc;
};

struct shared {
	int nrec;
	int acquired[NPROC];
	int renewed;
	int lost_renew;
	int lost_release;
	int expired;
	int waited;
	int64_t t_start_ms;
	struct rec rec[MAXREC];
};

static const char *g_dsn;

static int all_acquired(struct shared *sh)
{
	for (int i = 0; i < NPROC; i++)
		if (__atomic_load_n(&sh->acquired[i], __ATOMIC_ACQUIRE) == 0)
			return 0;
	return 1;
}

static void record(struct shared *sh, int proc, int64_t token, int64_t start, int64_t end)
{
	int i = __atomic_fetch_add(&sh->nrec, 1, __ATOMIC_ACQ_REL);

	LQT_CHECK(i < MAXREC, "too many records");
	sh->rec[i].token = token;
	sh->rec[i].start_us = start;
	sh->rec[i].end_us = end;
	__atomic_store_n(&sh->rec[i].proc, proc + 1, __ATOMIC_RELEASE);
}

static int contender(int idx, void *ctx)
{
	struct shared *sh = ctx;
	lq_db *db = lqt_open(g_dsn);
	char owner[32];
	int mine = 0;

	LQT_CHECK(db != NULL, "open");
	snprintf(owner, sizeof(owner), "proc%d", idx);
	for (;;) {
		int64_t now = lqt_mono_ms();
		if (now - sh->t_start_ms > HARD_MS)
			break;
		if (now - sh->t_start_ms > RUN_MS && all_acquired(sh))
			break;

		/* Odd processes sometimes wait for the lease instead of polling. */
		int64_t wait = (idx % 2 == 1 && lqt_rand() % 2 == 0) ? 300 : 0;
		lq_lease l;
		int64_t call_us = lqt_mono_us();
		lq_status st = lq_lease_acquire(db, LEASE_NAME, TTL_MS, owner, wait, &l);
		if (st == LQ_BUSY) {
			LQT_CHECK(l.token > 0, "busy without a holder's token");
			/* A process that already had its turn backs off longer,
			 * so that every process gets one. */
			lqt_sleep_ms(mine ? 20 + lqt_rand() % 60 : 1 + lqt_rand() % 8);
			continue;
		}
		LQT_CHECK(st == LQ_OK, "acquire: %s: %s", lq_status_str(st), lq_errmsg(db));
		int64_t start = lqt_mono_us();
		int64_t valid_until = call_us + (TTL_MS - MARGIN_MS) * 1000;
		int ok = 1;
		mine++;
		if (wait > 0)
			__atomic_add_fetch(&sh->waited, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&sh->acquired[idx], 1, __ATOMIC_RELEASE);

		/* Work in slices of at most a tenth of the TTL, renewing
		 * between them. */
		int rounds = (int)(lqt_rand() % 3);
		for (int r = 0; r <= rounds; r++) {
			lqt_sleep_ms(lqt_rand() % (TTL_MS / 10));
			if (r == rounds)
				break;
			int64_t c = lqt_mono_us();
			st = lq_lease_renew(db, &l, TTL_MS);
			if (st == LQ_OK) {
				valid_until = c + (TTL_MS - MARGIN_MS) * 1000;
				__atomic_add_fetch(&sh->renewed, 1, __ATOMIC_RELAXED);
				continue;
			}
			/* Lost only if this process stalled past its TTL. */
			LQT_CHECK(st == LQ_LOST, "renew: %s: %s", lq_status_str(st), lq_errmsg(db));
			__atomic_add_fetch(&sh->lost_renew, 1, __ATOMIC_RELAXED);
			ok = 0;
			break;
		}
		int64_t end = lqt_mono_us();
		if (end > valid_until)
			end = valid_until;
		if (end > start)
			record(sh, idx, l.token, start, end);
		if (!ok)
			continue;
		if (lqt_rand() % 12 == 0) {
			/* Walk away: the others get it once it expires. */
			__atomic_add_fetch(&sh->expired, 1, __ATOMIC_RELAXED);
			lqt_sleep_ms(TTL_MS + 50);
			continue;
		}
		st = lq_lease_release(db, &l);
		if (st == LQ_LOST)
			__atomic_add_fetch(&sh->lost_release, 1, __ATOMIC_RELAXED);
		else
			LQT_CHECK(st == LQ_OK, "release: %s: %s", lq_status_str(st), lq_errmsg(db));
		lqt_sleep_ms(lqt_rand() % 30);
	}
	lq_close(db);
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->start_us < y->start_us ? -1 : x->start_us > y->start_us;
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	struct shared *sh;
	lq_db *db;
	lq_lease g;
	int bad, overlaps = 0, order = 0, n, acquisitions = 0;
	int64_t max_token = 0;

	g_dsn = lqt_dsn(backend);
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	lq_close(db); /* no SQLite handle may cross the fork */

	sh = lqt_shared_alloc(sizeof(*sh));
	sh->t_start_ms = lqt_mono_ms();
	bad = lqt_run_children(NPROC, contender, sh, NULL, HARD_MS / 1000 + 60);
	n = sh->nrec;
	qsort(sh->rec, (size_t)n, sizeof(sh->rec[0]), cmp_start);
	for (int i = 0; i < n; i++) {
		if (sh->rec[i].token > max_token)
			max_token = sh->rec[i].token;
		if (i == 0)
			continue;
		const struct rec *p = &sh->rec[i - 1], *c = &sh->rec[i];
		if (p->end_us > c->start_us) {
			if (overlaps++ < 10)
				fprintf(stderr,
					"OVERLAP: proc %d token %lld [%lld, %lld] and proc %d token %lld [%lld, %lld] (us)\n",
					p->proc - 1, (long long)p->token, (long long)p->start_us,
					(long long)p->end_us, c->proc - 1, (long long)c->token,
					(long long)c->start_us, (long long)c->end_us);
		}
		if (c->token <= p->token) {
			if (order++ < 10)
				fprintf(stderr, "TOKEN ORDER: token %lld (proc %d) after token %lld (proc %d)\n",
					(long long)c->token, c->proc - 1, (long long)p->token, p->proc - 1);
		}
	}
	for (int i = 0; i < NPROC; i++) {
		acquisitions += sh->acquired[i];
		if (sh->acquired[i] == 0) {
			fprintf(stderr, "process %d never acquired the lease\n", i);
			bad++;
		}
	}
	db = lqt_open(g_dsn);
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_lease_get(db, LEASE_NAME, &g));
	if (g.token < max_token) {
		fprintf(stderr, "final token %lld is below a recorded token %lld\n", (long long)g.token,
			(long long)max_token);
		bad++;
	}
	lq_close(db);

	printf("race_lease %s: %d procs, %d acquisitions (%d after a wait, %d intervals), %d renewals, "
	       "%d left to expire, %d renewals lost, %d releases lost, %d overlaps, %d token order errors, "
	       "final token %lld\n",
	       backend, NPROC, acquisitions, sh->waited, n, sh->renewed, sh->expired, sh->lost_renew, sh->lost_release,
	       overlaps, order, (long long)g.token);
	bad += overlaps + order;
	if (n == 0)
		bad++;
	lqt_shared_free(sh, sizeof(*sh));
	return bad ? 1 : 0;
}
