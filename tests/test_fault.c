/*
 * test_fault.c - every library operation with one fault injected at every
 * call it makes (tests/fault_backend.c over SQLite): a lost connection
 * before or after the call was applied, a COMMIT whose answer is lost, and a
 * retryable conflict.  For each (operation, fault kind, call number) the
 * test checks what the caller was told against what the database holds:
 *
 *   - a conflict is always retried away: the call succeeds;
 *   - a task reported claimed is claimed by us in the database (never run
 *     on a guess); a claim reported failed left its tasks unclaimed, unless
 *     the outcome was reported unknown;
 *   - ack, fail, release and heartbeat ride out one lost connection (the
 *     next statement reconnects): a worker whose claim is still valid
 *     finishes it instead of leaving it to expire and run again; one whose
 *     claim was lost before (removed, or expired and settled by another
 *     worker) is told LQ_LOST, whatever state the task was left in;
 *   - a lease reported held is held by us; a failed renew or release never
 *     reports the lease lost while it is still ours;
 *   - runs: at-most-once never runs a task twice; at-least-once runs every
 *     task, exactly once when only one fault strikes.
 */
#include <string.h>

#include "fault_backend.h"
#include "testutil.h"

struct fx {
	lq_db *db;    /* through the fault backend */
	lq_db *check; /* a plain handle on the same file */
	lq_db *other; /* another worker, through the fault backend (test clock) */
	const char *dsn;
	/* Scenario state */
	lq_task t[8];
	size_t got;
	lq_lease lease;
	int64_t id, run_at;
	int runs[16]; /* handler runs per task index */
	int64_t ids[16];
	int nids;
	/* What a lost claim's settle must leave alone (lost_* scenarios). */
	lq_status before_st; /* lq_task_get of f->id after setup */
	lq_task before;
	int runs_before;
};

typedef void (*setup_fn)(struct fx *f);
typedef lq_status (*op_fn)(struct fx *f);
typedef void (*check_fn)(struct fx *f, lq_status st, lqt_fault_kind kind);

static struct fx *g_fx;
static lq_status g_want = LQ_OK; /* what op returns without a fault */
static lqt_fault_kind g_kind;
static long g_at;
static const char *g_scenario;

#define CHECK(cond, ...)                                                                   \
	do {                                                                               \
		if (!(cond)) {                                                             \
			print_error("%s, fault %s at call %ld: check failed: %s: ", g_scenario, \
				    lqt_fault_kind_str(g_kind), g_at, #cond);              \
			print_error(__VA_ARGS__);                                          \
			print_error("\n");                                                 \
			fail();                                                            \
		}                                                                          \
	} while (0)

static void clear_fx(struct fx *f)
{
	for (size_t i = 0; i < sizeof(f->t) / sizeof(f->t[0]); i++)
		lq_task_clear(&f->t[i]);
	f->got = 0;
	memset(&f->lease, 0, sizeof(f->lease));
	f->id = f->run_at = 0;
	memset(f->runs, 0, sizeof(f->runs));
	memset(f->ids, 0, sizeof(f->ids));
	f->nids = 0;
	lq_task_clear(&f->before);
	f->before_st = LQ_OK;
	f->runs_before = 0;
}

/* Run op once with each fault kind at each of its calls, until a call
 * number past the last one (the fault did not fire: the plain path). */
static void sweep(const char *name, setup_fn setup, op_fn op, check_fn check)
{
	struct fx *f = g_fx;
	long points = 0;

	g_scenario = name;
	for (int k = LQT_FAULT_LOST_BEFORE; k < LQT_FAULT__COUNT; k++) {
		for (long at = 1;; at++) {
			lq_status st;
			int fired;

			g_kind = (lqt_fault_kind)k;
			g_at = at;
			lqt_fault_arm(LQT_FAULT_NONE, 0);
			lqt_clock_freeze(0); /* the real time: a setup's advance ends */
			clear_fx(f);
			assert_lq_ok(f->check, lqt_reset(f->check));
			if (setup)
				setup(f);
			lqt_fault_arm((lqt_fault_kind)k, at);
			st = op(f);
			fired = lqt_fault_fired();
			lqt_fault_arm(LQT_FAULT_NONE, 0);
			if (!fired) {
				g_kind = LQT_FAULT_NONE;
				CHECK(st == g_want, "without a fault: %s: %s", lq_status_str(st), lq_errmsg(f->db));
				check(f, st, LQT_FAULT_NONE);
				break;
			}
			points++;
			if (k == LQT_FAULT_RETRY)
				CHECK(st == g_want, "a conflict must be retried away: %s: %s", lq_status_str(st),
				      lq_errmsg(f->db));
			check(f, st, (lqt_fault_kind)k);
			assert_true(at < 200); /* an operation of bounded size */
		}
	}
	clear_fx(f);
	print_message("%s: %ld fault points checked\n", name, points);
	assert_true(points > 0);
}

static int64_t add_task(lq_db *db, const char *name, int64_t every_ms, int64_t run_at)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;

	o.every_ms = every_ms;
	o.run_at = run_at;
	assert_lq_ok(db, lq_task_add(db, name, &o, &id, NULL));
	return id;
}

/* The row as the plain handle sees it; 0 if gone. */
static int get_live(struct fx *f, int64_t id, lq_task *out)
{
	lq_status st = lq_task_get(f->check, id, out);

	assert_true(st == LQ_OK || st == LQ_NOTFOUND);
	return st == LQ_OK && !out->dead;
}

/* ------------------------------------------------------------ enqueue */

static lq_status op_add(struct fx *f)
{
	return lq_task_add(f->db, "job", NULL, &f->id, NULL);
}

static void check_add(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	int64_t n = lqt_count_tasks(f->check, NULL, 0);
	(void)kind;
	if (st == LQ_OK) {
		lq_task t;
		CHECK(n == 1, "reported added, %lld tasks", (long long)n);
		CHECK(get_live(f, f->id, &t), "the returned id %lld is not the task", (long long)f->id);
		lq_task_clear(&t);
	} else if (st == LQ_EUNKNOWN) {
		CHECK(n <= 1, "%lld tasks", (long long)n);
	} else {
		CHECK(n == 0, "reported %s, yet %lld tasks", lq_status_str(st), (long long)n);
	}
}

static void setup_unique(struct fx *f)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	o.unique_key = "k";
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &f->run_at, NULL)); /* run_at: the holder's id */
}

static lq_status op_add_unique(struct fx *f)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int existed = 0;
	lq_status st;

	o.unique_key = "k";
	st = lq_task_add(f->db, "job", &o, &f->id, &existed);
	if (st == LQ_OK && !existed)
		return LQ_ERROR;
	return st;
}

static void check_add_unique(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	(void)kind;
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 1, "a unique key made a second task");
	if (st == LQ_OK)
		CHECK(f->id == f->run_at, "existing id %lld, reported %lld", (long long)f->run_at, (long long)f->id);
}

/* ------------------------------------------------------------ claims */

static void setup_one_task(struct fx *f)
{
	f->id = add_task(f->check, "job", 0, 0);
}

static lq_status op_claim_amo(struct fx *f)
{
	return lq_task_claim(f->db, NULL, LQ_AT_MOST_ONCE, 0, f->t, 1, &f->got);
}

static lq_status op_claim_alo(struct fx *f)
{
	return lq_task_claim(f->db, NULL, LQ_AT_LEAST_ONCE, 0, f->t, 1, &f->got);
}

static void check_claim_amo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	int live = get_live(f, f->id, &t);
	(void)kind;
	if (st == LQ_OK) {
		CHECK(f->got == 1 && f->t[0].id == f->id, "claimed %zu", f->got);
		CHECK(!live, "a task reported claimed (at-most-once) is still queued");
	} else {
		CHECK(f->got == 0, "%zu tasks returned with %s", f->got, lq_status_str(st));
		if (st != LQ_EUNKNOWN)
			CHECK(live, "reported %s, yet the task is gone", lq_status_str(st));
	}
	lq_task_clear(&t);
}

static void check_claim_alo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	int live = get_live(f, f->id, &t);
	(void)kind;
	CHECK(live, "at-least-once lost the task");
	if (st == LQ_OK) {
		CHECK(f->got == 1 && f->t[0].id == f->id, "claimed %zu", f->got);
		CHECK(strcmp(t.claim_owner, f->t[0].claim_owner) == 0,
		      "reported claimed by %s, the row says \"%s\"", f->t[0].claim_owner, t.claim_owner);
		CHECK(t.attempts == 1, "attempts %d", t.attempts);
	} else {
		CHECK(f->got == 0, "%zu tasks returned with %s", f->got, lq_status_str(st));
		if (st != LQ_EUNKNOWN)
			CHECK(t.claim_owner[0] == '\0' && t.attempts == 0, "reported %s, yet claimed by \"%s\"",
			      lq_status_str(st), t.claim_owner);
	}
	lq_task_clear(&t);
}

/* A recurring task whose occurrence is due. */
static void setup_recurring(struct fx *f)
{
	f->run_at = lqt_db_now(f->check) - 1000;
	f->id = add_task(f->check, "tick", 60000, f->run_at);
}

static void check_occurrence(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(get_live(f, f->id, &t), "the recurring task is gone");
	if (st == LQ_OK && f->got == 1) {
		CHECK(f->t[0].recurring, "not claimed as an occurrence");
		/* Never run on a guess: the occurrence is ours only if run_at moved. */
		CHECK(t.run_at == f->t[0].next_run_at, "occurrence %lld returned, but run_at is %lld, not %lld",
		      (long long)f->t[0].run_at, (long long)t.run_at, (long long)f->t[0].next_run_at);
	} else if (st != LQ_OK) {
		CHECK(f->got == 0, "%zu tasks returned with %s", f->got, lq_status_str(st));
		if (st != LQ_EUNKNOWN)
			CHECK(t.run_at == f->run_at, "reported %s, yet run_at moved", lq_status_str(st));
	}
	lq_task_clear(&t);
}

/* At-least-once, an occurrence is claimed like a one-off task: by our
 * owner, run_at staying its due time until the ack. */
static void check_occurrence_alo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(get_live(f, f->id, &t), "the recurring task is gone");
	CHECK(t.run_at == f->run_at, "the claim moved run_at");
	if (st == LQ_OK) {
		CHECK(f->got == 1 && f->t[0].recurring, "claimed %zu", f->got);
		CHECK(f->t[0].claim_owner[0] && strcmp(t.claim_owner, f->t[0].claim_owner) == 0,
		      "occurrence returned as claimed by %s, the row says \"%s\"", f->t[0].claim_owner, t.claim_owner);
	} else {
		CHECK(f->got == 0, "%zu tasks returned with %s", f->got, lq_status_str(st));
		if (st != LQ_EUNKNOWN)
			CHECK(t.claim_owner[0] == '\0', "reported %s, yet claimed", lq_status_str(st));
	}
	lq_task_clear(&t);
}

static void setup_claimed_occurrence(struct fx *f)
{
	setup_recurring(f);
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_LEAST_ONCE, 0, f->t, 1, &f->got));
	assert_true(f->got == 1 && f->t[0].recurring);
}

static void check_occurrence_acked(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the ack of an occurrence: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(get_live(f, f->id, &t), "the recurring task is gone");
	CHECK(t.run_at > t.now && t.claim_owner[0] == '\0' && t.attempts == 0,
	      "not moved on: run_at %lld now %lld owner \"%s\" attempts %d", (long long)t.run_at, (long long)t.now,
	      t.claim_owner, t.attempts);
	lq_task_clear(&t);
}

static void check_occurrence_failed(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the failure of an occurrence: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(get_live(f, f->id, &t), "the recurring task is gone");
	/* Tried again after a back-off: same occurrence, held back, counted. */
	CHECK(t.run_at == f->run_at && t.claim_owner[0] == '\0' && t.claim_until > t.now && t.attempts == 1,
	      "run_at %lld (was %lld) owner \"%s\" claim_until %lld now %lld attempts %d", (long long)t.run_at,
	      (long long)f->run_at, t.claim_owner, (long long)t.claim_until, (long long)t.now, t.attempts);
	CHECK(t.last_error && strcmp(t.last_error, "boom") == 0, "last_error");
	lq_task_clear(&t);
}

/* Three one-off tasks and a recurring one, claimed together. */
static void setup_mixed(struct fx *f)
{
	for (int i = 0; i < 3; i++)
		f->ids[f->nids++] = add_task(f->check, "job", 0, 0);
	f->run_at = lqt_db_now(f->check) - 1000;
	f->ids[f->nids++] = add_task(f->check, "tick", 60000, f->run_at);
}

static lq_status op_claim_mixed_alo(struct fx *f)
{
	return lq_task_claim(f->db, NULL, LQ_AT_LEAST_ONCE, 0, f->t, 8, &f->got);
}

static void check_mixed_alo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	(void)kind;
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 4, "at-least-once lost a task");
	if (st != LQ_OK)
		CHECK(f->got == 0, "%zu tasks returned with %s", f->got, lq_status_str(st));
	for (size_t i = 0; i < f->got; i++) {
		lq_task t;
		CHECK(get_live(f, f->t[i].id, &t), "task %lld gone", (long long)f->t[i].id);
		CHECK(f->t[i].claim_owner[0] && strcmp(t.claim_owner, f->t[i].claim_owner) == 0,
		      "task %lld returned but not ours", (long long)f->t[i].id);
		lq_task_clear(&t);
	}
}

/* ------------------------------------------------ settling a claimed task */

static void setup_claimed_alo(struct fx *f)
{
	setup_one_task(f);
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_LEAST_ONCE, 0, f->t, 1, &f->got));
}

static void setup_claimed_amo(struct fx *f)
{
	setup_one_task(f);
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_MOST_ONCE, 0, f->t, 1, &f->got));
}

/* A task on its last attempt: a failure buries it. */
static void setup_last_attempt(struct fx *f, lq_mode mode)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	o.max_attempts = 1;
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &f->id, NULL));
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, mode, 0, f->t, 1, &f->got));
}

static void setup_last_alo(struct fx *f)
{
	setup_last_attempt(f, LQ_AT_LEAST_ONCE);
}

static void setup_last_amo(struct fx *f)
{
	setup_last_attempt(f, LQ_AT_MOST_ONCE);
}

static int count_history_row(const lq_run *r, void *arg)
{
	(void)r;
	++*(int *)arg;
	return 0;
}

/* The history says a run once at most: a write lost after it went out is
 * not sent again. */
static int runs_of(struct fx *f)
{
	lq_run_filter rf = LQ_RUN_FILTER_INIT;
	int n = 0;
	rf.task_id = f->id;
	assert_lq_ok(f->check, lq_run_list(f->check, &rf, count_history_row, &n));
	return n;
}

static void check_buried(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the failure report: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 0, "a task out of attempts is still queued");
	assert_lq_ok(f->check, lq_task_get(f->check, f->id, &t));
	CHECK(t.dead && t.attempts == 1, "dead %d attempts %d", t.dead, t.attempts);
	CHECK(t.last_error && strcmp(t.last_error, "boom") == 0, "last_error %s", t.last_error ? t.last_error : "NULL");
	CHECK(runs_of(f) <= 1, "the run is in the history %d times", runs_of(f));
	lq_task_clear(&t);
}

static lq_status op_ack(struct fx *f)
{
	return lq_task_ack(f->db, &f->t[0]);
}

static void check_ack(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the ack of a valid claim: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(!get_live(f, f->id, &t), "acked, yet the task is still queued");
	lq_task_clear(&t);
}

static lq_status op_fail(struct fx *f)
{
	return lq_task_fail(f->db, &f->t[0], "boom");
}

/* After a failure the task is queued again once, its attempt counted. */
static void check_failed(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the failure report: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(get_live(f, f->id, &t), "the failed task is not queued again");
	CHECK(t.attempts == 1, "attempts %d", t.attempts);
	CHECK(t.claim_owner[0] == '\0', "still claimed");
	CHECK(t.last_error && strcmp(t.last_error, "boom") == 0, "last_error %s", t.last_error ? t.last_error : "NULL");
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 1, "queued twice");
	CHECK(runs_of(f) <= 1, "the run is in the history %d times", runs_of(f));
	lq_task_clear(&t);
}

static lq_status op_release(struct fx *f)
{
	return lq_task_release(f->db, &f->t[0]);
}

static void check_released(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the hand-back: %s: %s", lq_status_str(st), lq_errmsg(f->db));
	CHECK(get_live(f, f->id, &t), "the handed-back task is not queued");
	CHECK(t.attempts == 0 && t.claim_owner[0] == '\0', "attempts %d owner \"%s\"", t.attempts, t.claim_owner);
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 1, "queued twice");
	lq_task_clear(&t);
}

/* At-most-once, the task's unique key was taken by a newer task while it
 * ran: its failure buries it with the reason instead of queueing it. */
static void setup_claimed_amo_key_taken(struct fx *f)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t newer = 0;

	o.unique_key = "k";
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &f->id, NULL));
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_MOST_ONCE, 0, f->t, 1, &f->got));
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &newer, NULL));
	assert_true(newer != f->id);
}

static void check_failed_key_taken(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed the failure report: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(lq_task_get(f->check, f->id, &t) == LQ_OK, "the failed task vanished");
	CHECK(t.dead, "the failed task is not among the dead");
	CHECK(t.last_error && strstr(t.last_error, "not queued again"), "last_error %s",
	      t.last_error ? t.last_error : "NULL");
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 1, "%lld live tasks", (long long)lqt_count_tasks(f->check, NULL, 0));
	lq_task_clear(&t);
}

/* A dead task whose unique key a live task took meanwhile: retry cannot
 * revive it, and says why after reading the task.  A connection lost on
 * that read must not turn into "not found". */
static void setup_dead_key_taken(struct fx *f)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t newer = 0;

	o.unique_key = "k";
	o.max_attempts = 1;
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &f->id, NULL));
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_LEAST_ONCE, 30000, f->t, 1, &f->got));
	assert_lq_ok(f->check, lq_task_fail(f->check, &f->t[0], "boom"));
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &newer, NULL));
	assert_true(newer != f->id);
}

static lq_status op_retry(struct fx *f)
{
	return lq_task_retry(f->db, f->id);
}

static void check_retry_key_taken(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_ERROR || st == LQ_ECONN || st == LQ_EUNKNOWN, "retry of a dead task whose key is taken: %s: %s",
	      lq_status_str(st), lq_errmsg(f->db));
	CHECK(lq_task_get(f->check, f->id, &t) == LQ_OK && t.dead, "the dead task is no longer dead");
	lq_task_clear(&t);
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 1, "%lld live tasks", (long long)lqt_count_tasks(f->check, NULL, 0));
}

/* ------------------------------------- settling a claim that was lost */

/* The claim in f->t[0] is lost before it is settled: the task is left as
 * the setup made it, for the op to find. */
static void lost_snapshot(struct fx *f)
{
	f->before_st = lq_task_get(f->check, f->id, &f->before);
	assert_true(f->before_st == LQ_OK || f->before_st == LQ_NOTFOUND);
	f->runs_before = runs_of(f);
}

static void setup_claimed_rm(struct fx *f)
{
	setup_claimed_alo(f);
	assert_lq_ok(f->check, lq_task_rm(f->check, f->id));
	lost_snapshot(f);
}

/* The claim of f->check in f->t[0] expires and f->other claims the task
 * (in f->t[1]) and settles it with how: the claim there buries a task out
 * of attempts instead. */
enum other_settle { OTHER_BURIES, OTHER_ACKS, OTHER_FAILS, OTHER_RELEASES };

static void setup_taken(struct fx *f, enum other_settle how)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	size_t got = 0;
	lq_status st;

	o.max_attempts = how == OTHER_BURIES ? 1 : 3;
	assert_lq_ok(f->check, lq_task_add(f->check, "job", &o, &f->id, NULL));
	assert_lq_ok(f->check, lq_task_claim(f->check, NULL, LQ_AT_LEAST_ONCE, 0, f->t, 1, &f->got));
	lqt_clock_advance(60000); /* past the default claim TTL */
	st = lq_task_claim(f->other, NULL, LQ_AT_LEAST_ONCE, 0, &f->t[1], 1, &got);
	assert_true(st == (how == OTHER_BURIES ? LQ_EMPTY : LQ_OK));
	assert_int_equal(got, how == OTHER_BURIES ? 0 : 1);
	if (how == OTHER_ACKS)
		assert_lq_ok(f->other, lq_task_ack(f->other, &f->t[1]));
	else if (how == OTHER_FAILS)
		assert_lq_ok(f->other, lq_task_fail(f->other, &f->t[1], "other"));
	else if (how == OTHER_RELEASES)
		assert_lq_ok(f->other, lq_task_release(f->other, &f->t[1]));
	lost_snapshot(f);
}

static void setup_taken_acked(struct fx *f) { setup_taken(f, OTHER_ACKS); }
static void setup_taken_failed(struct fx *f) { setup_taken(f, OTHER_FAILS); }
static void setup_taken_released(struct fx *f) { setup_taken(f, OTHER_RELEASES); }
static void setup_taken_buried(struct fx *f) { setup_taken(f, OTHER_BURIES); }

/* LQ_LOST, and the task and the history as the claim's loss left them. */
static void check_lost(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	lq_status got = lq_task_get(f->check, f->id, &t);
	(void)kind;
	CHECK(st == LQ_LOST, "a lost claim was settled: %s: %s", lq_status_str(st), lq_errmsg(f->db));
	CHECK(got == f->before_st, "the task: %s, before the call %s", lq_status_str(got),
	      lq_status_str(f->before_st));
	if (got == LQ_OK && f->before_st == LQ_OK) {
		CHECK(t.dead == f->before.dead && t.attempts == f->before.attempts && t.run_at == f->before.run_at &&
			      strcmp(t.claim_owner, f->before.claim_owner) == 0,
		      "the task changed: dead %d attempts %d owner \"%s\", before %d %d \"%s\"", t.dead, t.attempts,
		      t.claim_owner, f->before.dead, f->before.attempts, f->before.claim_owner);
	}
	CHECK(runs_of(f) == f->runs_before, "%d runs in the history, %d before", runs_of(f), f->runs_before);
	lq_task_clear(&t);
}

static lq_status op_heartbeat(struct fx *f)
{
	return lq_task_heartbeat(f->db, &f->t[0], 60000);
}

static void check_heartbeat(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_task t;
	(void)kind;
	CHECK(st == LQ_OK, "one lost connection failed a heartbeat of a valid claim: %s: %s", lq_status_str(st),
	      lq_errmsg(f->db));
	CHECK(get_live(f, f->id, &t), "task gone");
	CHECK(strcmp(t.claim_owner, f->t[0].claim_owner) == 0, "claim changed hands");
	CHECK(t.claim_until > t.now + 30000, "claim not extended");
	lq_task_clear(&t);
}

/* ------------------------------------------------------------ leases */

static lq_status op_acquire(struct fx *f)
{
	return lq_lease_acquire(f->db, "L", 60000, "me", 0, &f->lease);
}

static void check_acquire(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_lease cur;
	lq_status gst = lq_lease_get(f->check, "L", &cur);
	(void)kind;
	if (st == LQ_OK) {
		CHECK(gst == LQ_OK && lq_lease_held(&cur), "reported acquired, not held");
		CHECK(strcmp(cur.owner, f->lease.owner) == 0 && cur.token == f->lease.token,
		      "reported held as %s/%lld, the row says %s/%lld", f->lease.owner, (long long)f->lease.token,
		      cur.owner, (long long)cur.token);
	} else if (st != LQ_EUNKNOWN) {
		CHECK(gst == LQ_NOTFOUND || !lq_lease_held(&cur), "reported %s, yet held by %s", lq_status_str(st),
		      cur.owner);
	}
}

static void setup_held(struct fx *f)
{
	assert_lq_ok(f->check, lq_lease_acquire(f->check, "L", 60000, "me", 0, &f->lease));
}

static lq_status op_renew(struct fx *f)
{
	lq_status st = lq_lease_renew(f->db, &f->lease, 60000);

	if (st == LQ_LOST)
		return st;
	/* Whatever one fault did, the next call reconnects and renews. */
	if (st != LQ_OK)
		st = lq_lease_renew(f->db, &f->lease, 60000);
	return st;
}

static void check_renew(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_lease cur;
	(void)kind;
	CHECK(st == LQ_OK, "renew of a held lease: %s: %s", lq_status_str(st), lq_errmsg(f->db));
	assert_lq_ok(f->check, lq_lease_get(f->check, "L", &cur));
	CHECK(cur.token == f->lease.token && strcmp(cur.owner, f->lease.owner) == 0, "holder changed");
}

static lq_status op_release_lease(struct fx *f)
{
	lq_status st = lq_lease_release(f->db, &f->lease);

	if (st == LQ_LOST)
		return st;
	if (st != LQ_OK) /* the next call reconnects; a release already done is fine */
		st = lq_lease_release(f->db, &f->lease);
	return st;
}

static void check_release_lease(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	lq_lease cur;
	(void)kind;
	CHECK(st == LQ_OK, "release of a held lease: %s: %s", lq_status_str(st), lq_errmsg(f->db));
	assert_lq_ok(f->check, lq_lease_get(f->check, "L", &cur));
	CHECK(!lq_lease_held(&cur), "still held after release");
	CHECK(cur.token == f->lease.token, "token moved on a release");
}

/* ------------------------------------------------------------ runs */

static int count_run(lq_job *job, void *ctx)
{
	struct fx *f = ctx;
	const lq_task *t = lq_job_task(job);

	for (int i = 0; i < f->nids; i++)
		if (f->ids[i] == t->id)
			f->runs[i]++;
	return 0;
}

static void setup_three(struct fx *f)
{
	for (int i = 0; i < 3; i++)
		f->ids[f->nids++] = add_task(f->check, "job", 0, 0);
}

static lq_status drain(struct fx *f, lq_db *db, lq_mode mode)
{
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	lq_status st;

	o.mode = mode;
	o.claim_ttl_ms = 200; /* a claim left behind by a fault expires soon */
	st = lq_runner_new(db, &o, &r);
	if (st != LQ_OK)
		return st;
	st = lq_runner_handle(r, "*", count_run, f);
	if (st == LQ_OK)
		st = lq_runner_work(r, 1, NULL);
	lq_runner_free(r);
	return st;
}

/* The database clock of the faulty handle stands still while it drains: a
 * slow fsync must not expire a claim between the handler and its ack, which
 * would make a second run that no fault caused.  The plain handle finish()
 * drains with reads the real time, so the claims a fault left behind expire
 * for it. */
static lq_status drain_frozen(struct fx *f, lq_mode mode)
{
	lqt_clock_freeze(lqt_clock_now());
	lq_status st = drain(f, f->db, mode);
	lqt_clock_freeze(0);
	return st;
}

static lq_status op_drain_amo(struct fx *f)
{
	lq_status st = drain_frozen(f, LQ_AT_MOST_ONCE);
	return st == LQ_ECONN || st == LQ_EUNKNOWN ? LQ_OK : st; /* a drain reports the outage */
}

static lq_status op_drain_alo(struct fx *f)
{
	lq_status st = drain_frozen(f, LQ_AT_LEAST_ONCE);
	return st == LQ_ECONN || st == LQ_EUNKNOWN ? LQ_OK : st;
}

/* Drain what is left with no fault, waiting out claims left behind. */
static void finish(struct fx *f, lq_mode mode)
{
	for (int i = 0; i < 50 && lqt_count_tasks(f->check, NULL, 0) > 0; i++) {
		assert_lq_ok(f->check, drain(f, f->check, mode));
		if (lqt_count_tasks(f->check, NULL, 0) > 0)
			lqt_sleep_ms(50);
	}
}

static void check_runs_amo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	(void)st;
	(void)kind;
	finish(f, LQ_AT_MOST_ONCE);
	for (int i = 0; i < f->nids; i++)
		CHECK(f->runs[i] <= 1, "at-most-once task %lld ran %d times", (long long)f->ids[i], f->runs[i]);
}

static void check_runs_alo(struct fx *f, lq_status st, lqt_fault_kind kind)
{
	(void)st;
	(void)kind;
	finish(f, LQ_AT_LEAST_ONCE);
	CHECK(lqt_count_tasks(f->check, NULL, 0) == 0 && lqt_count_tasks(f->check, NULL, LQ_LIST_DEAD) == 0,
	      "tasks left over");
	for (int i = 0; i < f->nids; i++)
		CHECK(f->runs[i] == 1, "at-least-once task %lld ran %d times after one fault", (long long)f->ids[i],
		      f->runs[i]);
}

/* ------------------------------------------------------------ tests */

static void t_add(void **s) { (void)s; sweep("task add", NULL, op_add, check_add); }
static void t_add_unique(void **s) { (void)s; sweep("task add unique", setup_unique, op_add_unique, check_add_unique); }
static void t_claim_amo(void **s) { (void)s; sweep("claim at-most-once", setup_one_task, op_claim_amo, check_claim_amo); }
static void t_claim_alo(void **s) { (void)s; sweep("claim at-least-once", setup_one_task, op_claim_alo, check_claim_alo); }
static void t_occ_alo(void **s) { (void)s; sweep("occurrence at-least-once", setup_recurring, op_claim_alo, check_occurrence_alo); }
static void t_occ_ack(void **s) { (void)s; sweep("ack occurrence", setup_claimed_occurrence, op_ack, check_occurrence_acked); }
static void t_occ_fail(void **s) { (void)s; sweep("fail occurrence", setup_claimed_occurrence, op_fail, check_occurrence_failed); }
static void t_occ_amo(void **s) { (void)s; sweep("occurrence at-most-once", setup_recurring, op_claim_amo, check_occurrence); }
static void t_mixed_alo(void **s) { (void)s; sweep("batch at-least-once", setup_mixed, op_claim_mixed_alo, check_mixed_alo); }
static void t_ack(void **s) { (void)s; sweep("ack", setup_claimed_alo, op_ack, check_ack); }
static void t_fail_alo(void **s) { (void)s; sweep("fail at-least-once", setup_claimed_alo, op_fail, check_failed); }
static void t_fail_amo(void **s) { (void)s; sweep("fail at-most-once", setup_claimed_amo, op_fail, check_failed); }
static void t_bury_alo(void **s) { (void)s; sweep("fail last attempt at-least-once", setup_last_alo, op_fail, check_buried); }
static void t_bury_amo(void **s) { (void)s; sweep("fail last attempt at-most-once", setup_last_amo, op_fail, check_buried); }
static void t_fail_amo_key_taken(void **s) { (void)s; sweep("fail at-most-once, key taken", setup_claimed_amo_key_taken, op_fail, check_failed_key_taken); }
static void t_release_alo(void **s) { (void)s; sweep("release at-least-once", setup_claimed_alo, op_release, check_released); }
static void t_release_amo(void **s) { (void)s; sweep("release at-most-once", setup_claimed_amo, op_release, check_released); }
/* The claim was lost before the settle: never a success, whatever state the
 * task was left in. */
static void sweep_lost(const char *name, setup_fn setup, op_fn op)
{
	g_want = LQ_LOST;
	sweep(name, setup, op, check_lost);
	g_want = LQ_OK;
}

static void t_lost_ack_rm(void **s) { (void)s; sweep_lost("ack after rm", setup_claimed_rm, op_ack); }
static void t_lost_ack_acked(void **s) { (void)s; sweep_lost("ack, taken and acked", setup_taken_acked, op_ack); }
static void t_lost_ack_failed(void **s) { (void)s; sweep_lost("ack, taken and failed", setup_taken_failed, op_ack); }
static void t_lost_ack_buried(void **s) { (void)s; sweep_lost("ack, taken and buried", setup_taken_buried, op_ack); }
static void t_lost_fail_rm(void **s) { (void)s; sweep_lost("fail after rm", setup_claimed_rm, op_fail); }
static void t_lost_fail_acked(void **s) { (void)s; sweep_lost("fail, taken and acked", setup_taken_acked, op_fail); }
static void t_lost_fail_failed(void **s) { (void)s; sweep_lost("fail, taken and failed", setup_taken_failed, op_fail); }
static void t_lost_fail_released(void **s) { (void)s; sweep_lost("fail, taken and released", setup_taken_released, op_fail); }
static void t_lost_fail_buried(void **s) { (void)s; sweep_lost("fail, taken and buried", setup_taken_buried, op_fail); }
static void t_lost_release_rm(void **s) { (void)s; sweep_lost("release after rm", setup_claimed_rm, op_release); }
static void t_lost_release_failed(void **s) { (void)s; sweep_lost("release, taken and failed", setup_taken_failed, op_release); }
static void t_lost_release_released(void **s) { (void)s; sweep_lost("release, taken and released", setup_taken_released, op_release); }
static void t_lost_release_buried(void **s) { (void)s; sweep_lost("release, taken and buried", setup_taken_buried, op_release); }
static void t_heartbeat(void **s) { (void)s; sweep("heartbeat", setup_claimed_alo, op_heartbeat, check_heartbeat); }
static void t_retry_key_taken(void **s)
{
	(void)s;
	g_want = LQ_ERROR;
	sweep("retry, key taken", setup_dead_key_taken, op_retry, check_retry_key_taken);
	g_want = LQ_OK;
}
static void t_acquire(void **s) { (void)s; sweep("lease acquire", NULL, op_acquire, check_acquire); }
static void t_renew(void **s) { (void)s; sweep("lease renew", setup_held, op_renew, check_renew); }
static void t_release_lease(void **s) { (void)s; sweep("lease release", setup_held, op_release_lease, check_release_lease); }
static void t_runs_amo(void **s) { (void)s; sweep("worker at-most-once", setup_three, op_drain_amo, check_runs_amo); }
static void t_runs_alo(void **s) { (void)s; sweep("worker at-least-once", setup_three, op_drain_alo, check_runs_alo); }

static int group_setup(void **state)
{
	static struct fx f;
	const char *dsn = lqt_dsn("sqlite");

	(void)state;
	memset(&f, 0, sizeof(f));
	f.dsn = dsn;
	lqt_clock_freeze(0); /* the fault handles read the test clock, running */
	f.check = lqt_open_fresh(dsn);
	if (!f.check || lqt_fault_open(dsn, &f.db) != LQ_OK || lqt_fault_open(dsn, &f.other) != LQ_OK)
		return -1;
	g_fx = &f;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	lq_close(g_fx->db);
	lq_close(g_fx->check);
	lq_close(g_fx->other);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_add),          cmocka_unit_test(t_add_unique),
		cmocka_unit_test(t_claim_amo),    cmocka_unit_test(t_claim_alo),
		cmocka_unit_test(t_occ_alo),      cmocka_unit_test(t_occ_amo),
		cmocka_unit_test(t_occ_ack),      cmocka_unit_test(t_occ_fail),
		cmocka_unit_test(t_mixed_alo),    cmocka_unit_test(t_ack),
		cmocka_unit_test(t_fail_alo),     cmocka_unit_test(t_fail_amo),
		cmocka_unit_test(t_bury_alo),     cmocka_unit_test(t_bury_amo),
		cmocka_unit_test(t_release_alo),  cmocka_unit_test(t_release_amo),
		cmocka_unit_test(t_heartbeat),    cmocka_unit_test(t_acquire),
		cmocka_unit_test(t_renew),        cmocka_unit_test(t_release_lease),
		cmocka_unit_test(t_runs_amo),     cmocka_unit_test(t_runs_alo),
		cmocka_unit_test(t_lost_ack_rm),          cmocka_unit_test(t_lost_ack_acked),
		cmocka_unit_test(t_lost_ack_failed),      cmocka_unit_test(t_lost_ack_buried),
		cmocka_unit_test(t_lost_fail_rm),         cmocka_unit_test(t_lost_fail_acked),
		cmocka_unit_test(t_lost_fail_failed),     cmocka_unit_test(t_lost_fail_released),
		cmocka_unit_test(t_lost_fail_buried),     cmocka_unit_test(t_lost_release_rm),
		cmocka_unit_test(t_lost_release_failed),  cmocka_unit_test(t_lost_release_released),
		cmocka_unit_test(t_lost_release_buried),  cmocka_unit_test(t_fail_amo_key_taken),
		cmocka_unit_test(t_retry_key_taken),
	};
	return cmocka_run_group_tests_name("fault injection (sqlite)", tests, group_setup, group_teardown);
}
