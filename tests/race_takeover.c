/*
 * race_takeover.c - a stalled holder loses its lease to another process.
 *
 * Each round: A acquires with TTL 300 ms and stalls for 600 ms; B, another
 * process, waits for the lease and gets it once A's lease expired.  Only then
 * does A wake up: its renew, check and release must all say LQ_LOST, and B
 * must still hold the lease, with a larger token, after A's attempts.  Every
 * step that matters is ordered by flags in shared memory, never by timing
 * alone, so the outcome is the same on a slow machine.
 *
 *     race_takeover --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define ROUNDS 5
#define A_TTL_MS 300
#define A_STALL_MS 600
#define FLAG_WAIT_MS 30000
#define LEASE_NAME "takeover"

struct round {
	int a_acquired;    /* flag: A holds the lease */
	int b_acquired;    /* flag: B took it over */
	int a_done;        /* flag: A made its late attempts */
	int64_t a_token;
	int64_t a_expires_at;
	int64_t b_token;
	int64_t b_acquired_at;
	int a_renew, a_check, a_release; /* lq_status of A's late calls */
	int b_check_after, b_owner_kept;
};

struct shared {
	struct round r[ROUNDS];
};

static const char *g_dsn;

static int proc_a(struct shared *sh)
{
	lq_db *db = lqt_open(g_dsn);

	LQT_CHECK(db != NULL, "open");
	for (int i = 0; i < ROUNDS; i++) {
		struct round *r = &sh->r[i];
		lq_lease l;
		/* B releases at the end of the previous round: wait for that. */
		LQT_CHECK_ST(db, LQ_OK, lq_lease_acquire(db, LEASE_NAME, A_TTL_MS, "A", FLAG_WAIT_MS, &l));
		r->a_token = l.token;
		r->a_expires_at = l.expires_at;
		__atomic_store_n(&r->a_acquired, 1, __ATOMIC_RELEASE);
		/* The stall: a GC pause, a swapped-out process, a slow disk. */
		lqt_sleep_ms(A_STALL_MS);
		LQT_CHECK(lqt_wait_flag(&r->b_acquired, FLAG_WAIT_MS) == 0, "round %d: B never took over", i);
		r->a_renew = lq_lease_renew(db, &l, 5000);
		r->a_check = lq_lease_check(db, &l);
		r->a_release = lq_lease_release(db, &l);
		__atomic_store_n(&r->a_done, 1, __ATOMIC_RELEASE);
	}
	lq_close(db);
	return 0;
}

static int proc_b(struct shared *sh)
{
	lq_db *db = lqt_open(g_dsn);

	LQT_CHECK(db != NULL, "open");
	for (int i = 0; i < ROUNDS; i++) {
		struct round *r = &sh->r[i];
		lq_lease l, g;
		LQT_CHECK(lqt_wait_flag(&r->a_acquired, FLAG_WAIT_MS) == 0, "round %d: A never acquired", i);
		/* Wait for the lease: free once A's 300 ms are up. */
		LQT_CHECK_ST(db, LQ_OK, lq_lease_acquire(db, LEASE_NAME, 30000, "B", FLAG_WAIT_MS, &l));
		r->b_token = l.token;
		r->b_acquired_at = l.acquired_at;
		__atomic_store_n(&r->b_acquired, 1, __ATOMIC_RELEASE);
		LQT_CHECK(lqt_wait_flag(&r->a_done, FLAG_WAIT_MS) == 0, "round %d: A never woke up", i);
		r->b_check_after = lq_lease_check(db, &l);
		LQT_CHECK_ST(db, LQ_OK, lq_lease_get(db, LEASE_NAME, &g));
		r->b_owner_kept = strcmp(g.owner, l.owner) == 0 && g.token == l.token &&
				  g.expires_at == l.expires_at;
		LQT_CHECK_ST(db, LQ_OK, lq_lease_release(db, &l));
	}
	lq_close(db);
	return 0;
}

static int child(int idx, void *ctx)
{
	return idx == 0 ? proc_a(ctx) : proc_b(ctx);
}

int main(int argc, char **argv)
{
	const char *backend = lqt_backend_from_args(argc, argv);
	struct shared *sh;
	lq_db *db;
	int bad = 0;

	g_dsn = lqt_dsn(backend);
	db = lqt_open_fresh(g_dsn);
	LQT_CHECK(db != NULL, "fresh database");
	lq_close(db);

	sh = lqt_shared_alloc(sizeof(*sh));
	bad += lqt_run_children(2, child, sh, NULL, ROUNDS * 2 * FLAG_WAIT_MS / 1000 + 30);
	for (int i = 0; i < ROUNDS && bad == 0; i++) {
		struct round *r = &sh->r[i];
		int ok = r->a_renew == LQ_LOST && r->a_check == LQ_LOST && r->a_release == LQ_LOST &&
			 r->b_token > r->a_token && r->b_acquired_at >= r->a_expires_at &&
			 r->b_check_after == LQ_OK && r->b_owner_kept;
		if (!ok) {
			fprintf(stderr,
				"round %d: A token %lld renew %s, check %s, release %s (all must be LQ_LOST); "
				"B token %lld acquired at %lld (A expired at %lld), B check after A: %s, "
				"B's row untouched: %d\n",
				i, (long long)r->a_token, lq_status_str(r->a_renew), lq_status_str(r->a_check),
				lq_status_str(r->a_release), (long long)r->b_token, (long long)r->b_acquired_at,
				(long long)r->a_expires_at, lq_status_str(r->b_check_after), r->b_owner_kept);
			bad++;
		}
	}
	printf("race_takeover %s: %d rounds, A stalled %d ms on a %d ms lease: %s\n", backend, ROUNDS,
	       A_STALL_MS, A_TTL_MS, bad ? "FAILED" : "A lost every time, B kept the lease");
	lqt_shared_free(sh, sizeof(*sh));
	return bad ? 1 : 0;
}
