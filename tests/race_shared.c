/*
 * race_shared.c - shared leases under contention, with real processes.
 *
 * Phase 1, a semaphore: NPROC processes fight for the SLOTS slots of one
 * name (TTL 600 ms).  Phase 2, a read/write lease: the same processes take
 * it to read or to write (some waiting, so a writer's intent is in play),
 * and readers sometimes promote and writers demote.
 *
 * Whenever a process believes it holds something it writes the interval to
 * a ledger in shared memory, on CLOCK_MONOTONIC (one clock for the machine):
 * from after the call that gave it until before the call that ends it, and
 * never past (start of its last successful acquire/renew/promote/demote) +
 * TTL - margin, since past that it cannot know it still holds it.
 *
 * The parent checks from the ledger: never more than SLOTS holders at once;
 * per slot no overlap and tokens strictly increasing in time order; never a
 * writer beside a reader or another writer; a write's token above every
 * token held before it; every process got in at least once per phase.
 *
 *     race_shared --backend sqlite|postgres|mysql     (exit 77: skipped)
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NPROC 6
#define SLOTS 3
#define TTL_MS 600
#define MARGIN_MS 100
#define RUN_MS 3000
#define HARD_MS 45000
#define MAXREC 20000
#define SEM_NAME "race semaphore"
#define RW_NAME "race rw"

enum { K_SLOT, K_READ, K_WRITE };

struct rec {
	int64_t token, slot;
	int64_t start_us, end_us;
	int kind, proc;
};

struct shared {
	int nrec;
	int phase; /* 1 semaphore, 2 read/write */
	int got[NPROC];
	int promoted, demoted, busy_promote, writes, reads, lost;
	int64_t t_start_ms;
	struct rec rec[MAXREC];
};

static const char *g_dsn;

static void record(struct shared *sh, int proc, const lq_lease *l, int kind, int64_t start, int64_t end)
{
	if (end <= start)
		return;
	int i = __atomic_fetch_add(&sh->nrec, 1, __ATOMIC_ACQ_REL);
	LQT_CHECK(i < MAXREC, "too many records");
	sh->rec[i] = (struct rec){l->token, l->slot, start, end, kind, proc};
}

static int all_got(struct shared *sh)
{
	for (int i = 0; i < NPROC; i++)
		if (__atomic_load_n(&sh->got[i], __ATOMIC_ACQUIRE) == 0)
			return 0;
	return 1;
}

static int running(struct shared *sh)
{
	int64_t t = lqt_mono_ms() - sh->t_start_ms;
	return t < HARD_MS && (t < RUN_MS || !all_got(sh));
}

/* Hold l for a few slices, renewing between them; records the interval.
 * Returns 1 while still held (valid until *valid_until), 0 when lost. */
static int hold(lq_db *db, struct shared *sh, int idx, lq_lease *l, int kind, int64_t *valid_until)
{
	int64_t start = lqt_mono_us();
	int rounds = (int)(lqt_rand() % 3), ok = 1;
	for (int r = 0; r <= rounds; r++) {
		lqt_sleep_ms(lqt_rand() % (TTL_MS / 10));
		if (r == rounds)
			break;
		int64_t c = lqt_mono_us();
		lq_status st = lq_lease_renew(db, l, TTL_MS);
		if (st == LQ_OK) {
			*valid_until = c + (TTL_MS - MARGIN_MS) * 1000;
			continue;
		}
		LQT_CHECK(st == LQ_LOST, "renew: %s: %s", lq_status_str(st), lq_errmsg(db));
		__atomic_add_fetch(&sh->lost, 1, __ATOMIC_RELAXED);
		ok = 0;
		break;
	}
	int64_t end = lqt_mono_us();
	record(sh, idx, l, kind, start, end < *valid_until ? end : *valid_until);
	return ok;
}

static void release(lq_db *db, struct shared *sh, lq_lease *l)
{
	lq_status st = lq_lease_release(db, l);
	if (st == LQ_LOST)
		__atomic_add_fetch(&sh->lost, 1, __ATOMIC_RELAXED);
	else
		LQT_CHECK(st == LQ_OK, "release: %s: %s", lq_status_str(st), lq_errmsg(db));
}

static void semaphore_round(lq_db *db, struct shared *sh, int idx, const char *owner)
{
	lq_lease l;
	int64_t wait = idx % 2 ? 200 : 0, call = lqt_mono_us();
	lq_status st = lqt_acquire_slot(db, SEM_NAME, SLOTS, TTL_MS, owner, wait, &l);
	if (st == LQ_BUSY) {
		lqt_sleep_ms(1 + lqt_rand() % 20);
		return;
	}
	LQT_CHECK(st == LQ_OK, "acquire slot: %s: %s", lq_status_str(st), lq_errmsg(db));
	LQT_CHECK(l.kind == LQ_LEASE_SLOT && l.slot >= 0 && l.slot < SLOTS, "slot %lld", (long long)l.slot);
	__atomic_add_fetch(&sh->got[idx], 1, __ATOMIC_RELEASE);
	int64_t valid_until = call + (TTL_MS - MARGIN_MS) * 1000;
	if (hold(db, sh, idx, &l, K_SLOT, &valid_until) && lqt_rand() % 10 != 0)
		release(db, sh, &l); /* else walk away: it expires */
	lqt_sleep_ms(lqt_rand() % 20);
}

static void rw_round(lq_db *db, struct shared *sh, int idx, const char *owner)
{
	lq_lease l;
	int write = lqt_rand() % 3 == 0;
	int64_t wait = lqt_rand() % 2 ? 300 : 0, call = lqt_mono_us();
	lq_status st = write ? lq_lease_acquire(db, RW_NAME, TTL_MS, owner, wait, &l)
			     : lqt_acquire_read(db, RW_NAME, TTL_MS, owner, wait, &l);
	if (st == LQ_BUSY) {
		lqt_sleep_ms(1 + lqt_rand() % 20);
		return;
	}
	LQT_CHECK(st == LQ_OK, "acquire %s: %s: %s", write ? "write" : "read", lq_status_str(st), lq_errmsg(db));
	__atomic_add_fetch(&sh->got[idx], 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(write ? &sh->writes : &sh->reads, 1, __ATOMIC_RELAXED);
	int64_t valid_until = call + (TTL_MS - MARGIN_MS) * 1000;
	if (!hold(db, sh, idx, &l, write ? K_WRITE : K_READ, &valid_until))
		return;
	if (lqt_rand() % 3 == 0) { /* change kind, keeping the expiry */
		st = write ? lq_lease_demote(db, &l) : lq_lease_promote(db, &l);
		if (st == LQ_OK) {
			__atomic_add_fetch(write ? &sh->demoted : &sh->promoted, 1, __ATOMIC_RELAXED);
			write = !write;
			if (!hold(db, sh, idx, &l, write ? K_WRITE : K_READ, &valid_until))
				return;
		} else if (st == LQ_BUSY && !write) {
			__atomic_add_fetch(&sh->busy_promote, 1, __ATOMIC_RELAXED);
		} else {
			LQT_CHECK(st == LQ_LOST, "promote/demote: %s: %s", lq_status_str(st), lq_errmsg(db));
			return;
		}
	}
	release(db, sh, &l);
	lqt_sleep_ms(lqt_rand() % 20);
}

static int contender(int idx, void *ctx)
{
	struct shared *sh = ctx;
	lq_db *db = lqt_open(g_dsn);
	char owner[32];

	LQT_CHECK(db != NULL, "open");
	snprintf(owner, sizeof(owner), "proc%d", idx);
	while (running(sh)) {
		if (sh->phase == 1)
			semaphore_round(db, sh, idx, owner);
		else
			rw_round(db, sh, idx, owner);
	}
	lq_close(db);
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	return x->start_us < y->start_us ? -1 : x->start_us > y->start_us;
}

/* The ledger of one phase, sorted by start. */
static int check(struct shared *sh)
{
	int n = sh->nrec, bad = 0, maxc = 0;
	qsort(sh->rec, (size_t)n, sizeof(sh->rec[0]), cmp_start);
	for (int i = 0; i < n; i++) {
		const struct rec *c = &sh->rec[i];
		int live = 1;
		for (int j = 0; j < i; j++) {
			const struct rec *p = &sh->rec[j];
			int overlap = p->end_us > c->start_us;
			if (overlap)
				live++;
			if (sh->phase == 1 && p->slot == c->slot && (overlap || c->token <= p->token)) {
				if (bad++ < 10)
					fprintf(stderr, "SLOT %lld: token %lld [%lld,%lld] then token %lld [%lld,%lld]\n",
						(long long)c->slot, (long long)p->token, (long long)p->start_us,
						(long long)p->end_us, (long long)c->token, (long long)c->start_us,
						(long long)c->end_us);
			}
			if (sh->phase == 2 && (p->kind == K_WRITE || c->kind == K_WRITE) && overlap) {
				if (bad++ < 10)
					fprintf(stderr, "WRITER BESIDE %s: token %lld [%lld,%lld] and token %lld [%lld,%lld]\n",
						p->kind == K_WRITE && c->kind == K_WRITE ? "WRITER" : "READER",
						(long long)p->token, (long long)p->start_us, (long long)p->end_us,
						(long long)c->token, (long long)c->start_us, (long long)c->end_us);
			}
			if (sh->phase == 2 && c->kind == K_WRITE && c->token <= p->token) {
				if (bad++ < 10)
					fprintf(stderr, "WRITE TOKEN %lld not above earlier token %lld\n",
						(long long)c->token, (long long)p->token);
			}
		}
		if (live > maxc)
			maxc = live;
	}
	if (sh->phase == 1 && maxc > SLOTS) {
		fprintf(stderr, "%d holders at once, over %d slots\n", maxc, SLOTS);
		bad++;
	}
	for (int i = 0; i < NPROC; i++)
		if (sh->got[i] == 0) {
			fprintf(stderr, "phase %d: process %d never got in\n", sh->phase, i);
			bad++;
		}
	printf("race_shared phase %d: %d intervals, at most %d holders at once, %d reads, %d writes, "
	       "%d promoted (%d refused: other readers), %d demoted, %d lost, %d errors\n",
	       sh->phase, n, maxc, sh->reads, sh->writes, sh->promoted, sh->busy_promote, sh->demoted, sh->lost, bad);
	return bad + (n == 0);
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
	lq_close(db); /* no SQLite handle may cross the fork */

	sh = lqt_shared_alloc(sizeof(*sh));
	for (int phase = 1; phase <= 2; phase++) {
		memset(sh, 0, sizeof(*sh));
		sh->phase = phase;
		sh->t_start_ms = lqt_mono_ms();
		bad += lqt_run_children(NPROC, contender, sh, NULL, HARD_MS / 1000 + 60);
		bad += check(sh);
	}
	lqt_shared_free(sh, sizeof(*sh));
	printf("race_shared %s: %s\n", backend, bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
