/*
 * test_connloss_stress.c - a worker process claims tasks one by one,
 * at-most-once and at-least-once, while its connection is killed every few
 * milliseconds: no task runs twice (at-most-once) or is lost (at-least-once).
 * The harness, and how victims are found and killed: tests/connloss.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "connloss.h"

/* ------------------------------------------------------ claim under fire */

#define STRESS_MAX 256

struct stress {
	char queue[LQ_NAME_MAX + 1];
	lq_mode mode;
	int n;
	int64_t claim_ttl;
	struct cl_victim v;
	int ready, stop, finished;
	int ran_total;           /* runs so far (atomic) */
	int failures;            /* ECONN + EUNKNOWN + failed acks so far (atomic) */
	int recovered;           /* calls that lost their connection yet succeeded (atomic) */
	int runs[STRESS_MAX];
	int64_t last_ms[STRESS_MAX];
	int early_dups;          /* a run again before its claim could have expired */
	int econn, eunknown, ack_retries, ack_lost, other;
	char other_msg[512];
	char econn_msg[1024];
};

static int count_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

static void stress_other(struct stress *s, lq_db *db, const char *what, lq_status st)
{
	if (s->other++ == 0)
		snprintf(s->other_msg, sizeof(s->other_msg), "%s: %s: %s", what, lq_status_str(st), lq_errmsg(db));
}

/* Identity of this process's open sockets (0: none).  After a failed call
 * the library has closed its connection, so a call that starts and ends with
 * a socket, a different one, and succeeds lost its connection and recovered
 * inside the call (an at-least-once claim re-reads its rows after a lost
 * COMMIT). */
static unsigned long sockets_id(void)
{
	unsigned long inodes[64], id = 0;
	int n = cl_socket_inodes(getpid(), inodes, 64);
	for (int i = 0; i < n; i++)
		id = id * 1000003UL + inodes[i];
	return id;
}

static void note_recovery(struct stress *s, unsigned long before, lq_status st)
{
	unsigned long after = sockets_id();
	if (st == LQ_OK && before != 0 && after != 0 && before != after)
		__atomic_add_fetch(&s->recovered, 1, __ATOMIC_RELEASE);
}

static int stress_worker(int idx, void *arg)
{
	struct stress *s = arg;
	char dsn[2200];
	lq_db *db = NULL;
	int64_t deadline = lqt_mono_ms() + 40000;

	(void)idx;
	cl_child_prepare();
	cl_victim_dsn(&s->v, dsn, sizeof(dsn));
	lq_status st = lq_open(dsn, &db);
	if (st != LQ_OK) {
		stress_other(s, db, "open", st);
		__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
		return 1;
	}
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	while (lqt_mono_ms() < deadline) {
		/* Read before the claim: a kill before the stop is followed by
		 * at least one more call, which must fail. */
		int stopping = __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
		lq_task t[1];
		size_t got = 0;
		unsigned long sock = sockets_id();
		st = lq_task_claim(db, s->queue, s->mode, s->claim_ttl, t, 1, &got);
		note_recovery(s, sock, st);
		if (st == LQ_OK) {
			int i = t[0].payload ? atoi((const char *)t[0].payload) : -1;
			if (i < 0 || i >= s->n) {
				stress_other(s, db, "claim: bad payload", st);
				lq_task_clear(&t[0]);
				continue;
			}
			int64_t now = lqt_mono_ms();
			if (s->runs[i] > 0 && now - s->last_ms[i] < s->claim_ttl / 2)
				s->early_dups++;
			s->runs[i]++;
			s->last_ms[i] = now;
			lqt_sleep_ms(2); /* the task's work */
			for (int k = 0; s->mode == LQ_AT_LEAST_ONCE; k++) {
				sock = sockets_id();
				lq_status a = lq_task_ack(db, &t[0]);
				note_recovery(s, sock, a);
				if (a == LQ_OK)
					break;
				if (a == LQ_LOST) { /* an earlier ack took effect but its answer was lost */
					s->ack_lost++;
					break;
				}
				if ((a == LQ_ECONN || a == LQ_EUNKNOWN) && k < 100) {
					s->ack_retries++;
					__atomic_add_fetch(&s->failures, 1, __ATOMIC_RELEASE);
					continue;
				}
				stress_other(s, db, "ack", a);
				break;
			}
			lq_task_clear(&t[0]);
			__atomic_add_fetch(&s->ran_total, 1, __ATOMIC_RELEASE);
		} else if (st == LQ_ECONN || st == LQ_EUNKNOWN) {
			if (st == LQ_ECONN && s->econn++ == 0)
				snprintf(s->econn_msg, sizeof(s->econn_msg), "%s", lq_errmsg(db));
			if (st == LQ_EUNKNOWN)
				s->eunknown++;
			__atomic_add_fetch(&s->failures, 1, __ATOMIC_RELEASE);
		} else if (st == LQ_EMPTY) {
			if (stopping) {
				int64_t left = 0;
				if (s->mode == LQ_AT_MOST_ONCE)
					break;
				/* At-least-once: a claim whose COMMIT answer was lost
				 * holds its task until the claim expires. */
				st = lq_task_list(db, s->queue, 0, count_cb, &left);
				if (st == LQ_OK && left == 0)
					break;
				if (st != LQ_OK)
					stress_other(s, db, "list", st);
			}
			lqt_sleep_ms(5);
		} else {
			stress_other(s, db, "claim", st);
			lqt_sleep_ms(5);
		}
	}
	__atomic_store_n(&s->finished, 1, __ATOMIC_RELEASE);
	lq_close(db);
	return lqt_mono_ms() >= deadline ? 2 : 0;
}

/* n tasks claimed one by one by a worker process whose connection is killed
 * every few milliseconds; every run is recorded. */
static void stress(lq_mode mode, int n)
{
	struct stress *s = lqt_shared_alloc(sizeof(*s));
	char buf[16];
	int kills = 0;
	const char *mname = mode == LQ_AT_MOST_ONCE ? "at-most-once" : "at-least-once";

	cl_name_of(s->queue, sizeof(s->queue), mode == LQ_AT_MOST_ONCE ? "q-amo" : "q-alo");
	s->mode = mode;
	s->n = n;
	s->claim_ttl = 3000;
	cl_victim_new(&s->v);
	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%d", i);
		cl_add_task(s->queue, buf, 10);
	}
	pid_t pid = lqt_spawn(0, stress_worker, s);
	s->v.pid = pid;
	cl_kid_add(pid);
	if (lqt_wait_flag(&s->ready, CALL_WAIT_MS) != 0)
		fail_msg("the worker did not start");

	/* Kill until every task ran (or may have been lost with an unknown
	 * outcome); the worker then drains what is left. */
	int64_t end = lqt_mono_ms() + 20000;
	while (__atomic_load_n(&s->ran_total, __ATOMIC_ACQUIRE) + __atomic_load_n(&s->eunknown, __ATOMIC_ACQUIRE) < n &&
	       lqt_mono_ms() < end) {
		lqt_sleep_ms(3 + (int64_t)(lqt_rand() % 20));
		if (cl_kill_victim(&s->v) == 0)
			continue;
		/* One kill at a time: the next waits until the worker met this
		 * one, so that no call can meet two. */
		kills++;
		int64_t met_by = lqt_mono_ms() + 10000;
		while (__atomic_load_n(&s->failures, __ATOMIC_ACQUIRE) + __atomic_load_n(&s->recovered, __ATOMIC_ACQUIRE) <
		       kills) {
			if (lqt_mono_ms() > met_by || __atomic_load_n(&s->finished, __ATOMIC_ACQUIRE))
				break;
			lqt_sleep_ms(1);
		}
	}
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	int code = cl_wait_exit(pid, 45000);
	if (code != 0)
		fail_msg("worker exited %d: %s", code, s->other_msg);

	int dups = 0, notrun = 0;
	for (int i = 0; i < n; i++) {
		if (s->runs[i] > 1)
			dups += s->runs[i] - 1;
		if (s->runs[i] == 0)
			notrun++;
	}
	int64_t live = lqt_count_tasks(cl.db, s->queue, 0), dead = lqt_count_tasks(cl.db, s->queue, LQ_LIST_DEAD);
	printf("%s %s: %d tasks, %d kills: %d ECONN, %d EUNKNOWN, %d ack retries (%d found done), "
	       "%d recovered in the call; %d not run, %d run twice, %lld left, %lld dead\n",
	       cl.name, mname, n, kills, s->econn, s->eunknown, s->ack_retries, s->ack_lost, s->recovered, notrun,
	       dups, (long long)live, (long long)dead);
	fflush(stdout);
	if (s->other)
		fail_msg("%d unexpected outcomes; first: %s", s->other, s->other_msg);
	if (kills < 3)
		fail_msg("only %d kills hit the worker", kills);
	/* Every kill is met by the worker's next call: it fails, or (an
	 * at-least-once claim whose COMMIT answer was lost) it recovers. */
	if (s->failures + s->recovered < kills)
		fail_msg("%d kills but only %d failed calls and %d recovered ones", kills, s->failures,
			 s->recovered);
	if (mode == LQ_AT_MOST_ONCE && s->recovered)
		fail_msg("%d at-most-once calls recovered from a lost connection", s->recovered);
	/* A claim names its queue, or the task it was claiming.  A kill just
	 * after a reconnect hits the schema check that every call makes first
	 * on a new connection, whose message names no object of the call. */
	if (s->econn > 0)
		cl_check_msg3(s->econn_msg, s->queue, "task ", "schema check");
	assert_int_equal(live, 0);
	assert_int_equal(dead, 0);
	if (mode == LQ_AT_MOST_ONCE) {
		if (dups)
			fail_msg("at-most-once ran %d tasks twice", dups);
		/* A task is lost only when its DELETE committed but the COMMIT's
		 * answer never came back (EUNKNOWN), and then it is not run. */
		if (notrun > s->eunknown)
			fail_msg("%d tasks lost but only %d claims had an unknown outcome", notrun, s->eunknown);
	} else {
		if (notrun)
			fail_msg("at-least-once lost %d tasks", notrun);
		if (s->early_dups)
			fail_msg("%d tasks ran again while their claim was still valid", s->early_dups);
	}
	lqt_shared_free(s, sizeof(*s));
}

static void t_claim_stress_at_most_once(void **state)
{
	(void)state;
	stress(LQ_AT_MOST_ONCE, 150);
}

static void t_claim_stress_at_least_once(void **state)
{
	(void)state;
	stress(LQ_AT_LEAST_ONCE, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_claim_stress_at_most_once, cl_test_teardown),
		cmocka_unit_test_teardown(t_claim_stress_at_least_once, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_stress", tests);
}
