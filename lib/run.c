/*
 * run.c - the run history (lq_run) and the counters monitoring reads
 * (lq_counter).  task.c writes a run where it settles a claim; this file
 * holds the row, the readers and the outcome names.  The counters are kept
 * by triggers on lq_run and lq_lease (the run_history migrations),
 * so they change in the statement that writes what they count.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define LQ_RUN_LIST_DEFAULT 100
#define LQ_AGE_ANY (100LL * 366 * 24 * 3600 * 1000) /* "any age": a century */

static const char *const outcome_names[] = {
	[LQ_RUN_DONE] = "done",
	[LQ_RUN_FAILED] = "failed",
	[LQ_RUN_TIMED_OUT] = "timed_out",
	[LQ_RUN_DEAD] = "dead",
	[LQ_RUN_CANCELLED] = "cancelled",
};
#define N_OUTCOMES (sizeof(outcome_names) / sizeof(outcome_names[0]))

LQ_EXTERN(const char *) lq_outcome_name(lq_outcome o)
{
	return (unsigned)o < N_OUTCOMES ? outcome_names[o] : "unknown";
}

/* The outcome stored as text; -1 for a name this library does not know. */
static int outcome_of(const lq_value *v)
{
	for (size_t i = 0; i < N_OUTCOMES; i++)
		if (v->type != LQ_V_NULL && v->len == strlen(outcome_names[i]) &&
		    memcmp(v->s, outcome_names[i], v->len) == 0)
			return (int)i;
	return -1;
}

void lq__run_worker(char *buf, size_t size)
{
	char host[64] = "";
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(buf, size, "%s:%ld", host, (long)getpid());
}

int lq__run_attempt(const lq_task *t)
{
	/* An at-least-once claim counted the attempt; an at-most-once claim
	 * does not (its fail counts it). */
	return t->mode == LQ_AT_LEAST_ONCE ? t->attempts : t->attempts + 1;
}

/*
 * The rows of at-most-once runs that ended well wait here and go to the
 * database together, LQ_RUN_BATCH in one statement (run_insert_many): such
 * a row comes after its run, which the claim settled already, and a
 * statement of its own per run cost 10-30 % of a claim.  They go when the
 * batch is full, at the first row more than LQ_RUN_BATCH_MS after the
 * oldest, when a claim finds nothing to do, at the end of a runner's tick,
 * before this handle reads the history or the counters, and at lq_close.
 * A crash loses the rows not yet written, as it lost the one row before.
 */
#define LQ_RUN_BATCH 64 /* the runs in run_insert_many */
#define LQ_RUN_BATCH_MS 1000
#define RUN_BATCH_NPARAMS 8

struct lq_run_batch {
	size_t n;
	int64_t first_ms; /* monotonic: when the oldest row was added */
	struct pending_run {
		int64_t task_id, run_at, started_at, ended_ms; /* ended_ms: monotonic */
		int attempt;
		lq_outcome outcome;
		char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	} runs[LQ_RUN_BATCH];
};

/* The history write after settled runs: one whose outcome is unknown (the
 * connection was lost after it went out) is not repeated, never twice, and
 * is no failure of the call that made it: its runs are settled, nothing is
 * left to do.  Only lq_run_flush reports it. */
static lq_status settled(lq_db *db, lq_status st)
{
	if (st != LQ_EUNKNOWN)
		return st;
	lq__ok(db);
	return LQ_OK;
}

/* A history write, run_insert or run_insert_many, and where the backend
 * counts apart (LQ_CAP_RUN_COUNT_APART) its run_count or run_count_many
 * next, with the same parameters: inside a transaction, so that the
 * counters and the history cannot disagree. */
struct run_write {
	const char *what;
	lq_sql_id id;
	const lq_value *p;
	int np;
};

static lq_status run_write_body(lq_db *db, void *arg)
{
	const struct run_write *w = arg;
	lq_status st = lq__exec(db, w->what, w->id, w->p, w->np, NULL, NULL, NULL);
	if (st != LQ_OK || !(db->be->caps & LQ_CAP_RUN_COUNT_APART))
		return st;
	lq_sql_id count = w->id == LQ_SQL_run_insert ? LQ_SQL_run_count : LQ_SQL_run_count_many;
	return lq__exec(db, w->what, count, w->p, w->np, NULL, NULL, NULL);
}

static lq_status write_once(lq_db *db, const struct run_write *w)
{
	if (db->be->caps & LQ_CAP_RUN_COUNT_APART)
		return lq__tx(db, 1, w->what, run_write_body, (void *)w);
	return lq__exec_once(db, w->what, w->id, w->p, w->np, NULL, NULL, NULL);
}

/* A lone history write after settled runs.  A connection lost before it
 * went out (or, in a transaction, before COMMIT) must not lose the rows:
 * once more, on a new connection.  (Rows whose fate is unknown,
 * LQ_EUNKNOWN, are not sent again: the history would say them twice.  A
 * server that could not be reached is not tried twice: lq_close would wait
 * for it twice.) */
static lq_status write_after_run(lq_db *db, const char *what, lq_sql_id id, const lq_value *p, int np)
{
	int had_conn = db->conn != NULL;
	struct run_write w = {what, id, p, np};
	lq_status st = write_once(db, &w);
	if (st == LQ_ECONN && had_conn)
		st = write_once(db, &w);
	return st;
}

static lq_status flush_batch(lq_db *db)
{
	struct lq_run_batch *b = db->runs;
	if (!b || b->n == 0)
		return LQ_OK;
	char worker[LQ_OWNER_MAX + 1];
	lq__run_worker(worker, sizeof(worker));
	lq_value p[1 + LQ_RUN_BATCH * RUN_BATCH_NPARAMS];
	int64_t now = lq__mono_ms();
	p[0] = lq__v_text(worker);
	for (size_t i = 0; i < LQ_RUN_BATCH; i++) {
		lq_value *r = &p[1 + i * RUN_BATCH_NPARAMS];
		const struct pending_run *run = &b->runs[i];
		if (i >= b->n) {
			for (int k = 0; k < RUN_BATCH_NPARAMS; k++)
				r[k] = lq_v_null();
			continue;
		}
		r[0] = lq_v_int(run->task_id);
		r[1] = lq_v_int(run->run_at);
		r[2] = lq__v_text(run->queue);
		r[3] = lq__v_text(run->name);
		r[4] = lq_v_int(run->attempt);
		r[5] = lq_v_int(run->started_at);
		r[6] = lq_v_int(now - run->ended_ms);
		r[7] = lq__v_text(lq_outcome_name(run->outcome));
	}
	lq_status st = write_after_run(db, "run history", LQ_SQL_run_insert_many, p,
				       1 + LQ_RUN_BATCH * RUN_BATCH_NPARAMS);
	b->n = 0;
	return st;
}

lq_status lq__run_flush(lq_db *db)
{
	return settled(db, flush_batch(db));
}

/* lq_close's end of the rows kept back (lq_run_flush first, to hear of a
 * failure). */
static void run_batch_close(lq_db *db)
{
	(void)lq__run_flush(db);
	free(db->runs);
	db->runs = NULL;
}

LQ_EXTERN(lq_status) lq_run_flush(lq_db *db)
{
	lq__ok(db);
	return flush_batch(db);
}

/* Keep a lone row that needs no error text for the next batch. */
static lq_status run_defer(lq_db *db, const lq_task *t, lq_outcome o)
{
	if (!db->runs) {
		if (!(db->runs = calloc(1, sizeof(*db->runs))))
			return lq__fail(db, LQ_ENOMEM, "run history: out of memory");
		db->before_close = run_batch_close;
	}
	struct lq_run_batch *b = db->runs;
	int64_t now = lq__mono_ms();
	if (b->n == 0)
		b->first_ms = now;
	struct pending_run *run = &b->runs[b->n++];
	run->task_id = t->id;
	run->run_at = t->run_at;
	run->started_at = t->now;
	run->ended_ms = now;
	run->attempt = lq__run_attempt(t);
	run->outcome = o;
	snprintf(run->queue, sizeof(run->queue), "%s", t->queue);
	snprintf(run->name, sizeof(run->name), "%s", t->name);
	return b->n == LQ_RUN_BATCH || now - b->first_ms >= LQ_RUN_BATCH_MS ? lq__run_flush(db) : LQ_OK;
}

lq_status lq__run_record(lq_db *db, const char *what, const lq_task *t, lq_outcome o, const char *error)
{
	int alone = !db->in_tx; /* (a lost connection ends in_tx: read it first) */
	/* Alone, after the run (at-most-once): the run is settled already. */
	if (alone && o == LQ_RUN_DONE)
		return run_defer(db, t, o);
	char worker[LQ_OWNER_MAX + 1];
	lq__run_worker(worker, sizeof(worker));
	lq_value p[9] = {lq_v_int(t->id), lq_v_int(t->run_at), lq__v_text(t->queue), lq__v_text(t->name),
			 lq__v_text(worker), lq_v_int(lq__run_attempt(t)), lq_v_int(t->now),
			 lq__v_text(lq_outcome_name(o)), lq__v_opt_text(o == LQ_RUN_DONE ? NULL : error)};
	if (!alone) { /* the transaction's outcome decides */
		struct run_write w = {what, LQ_SQL_run_insert, p, 9};
		return run_write_body(db, &w);
	}
	return settled(db, write_after_run(db, what, LQ_SQL_run_insert, p, 9));
}

lq_status lq__run_settled(lq_db *db, const char *what, const lq_task *t, int *found)
{
	char worker[LQ_OWNER_MAX + 1];
	lq__run_worker(worker, sizeof(worker));
	lq_value p[4] = {lq_v_int(t->id), lq_v_int(lq__run_attempt(t)), lq_v_int(t->now), lq__v_text(worker)};
	int64_t one = 0;
	lq_status st = lq__exec(db, what, LQ_SQL_run_settled, p, 4, lq__row_int, &one, NULL);
	*found = one == 1;
	return st;
}

/* ---------------------------------------------------------------- read */

struct run_list_ctx {
	lq_run_fn fn;
	void *ctx;
};

/* run_row reads the RUN_COLS of both. */
_Static_assert(LQ_COLS_run_list == LQ_RUN_COLS && LQ_COLS_run_list_task == LQ_RUN_COLS,
	       "run rows: sql_names.h and run.c disagree");

static int run_row(void *arg, const lq_value *c, int n)
{
	struct run_list_ctx *rc = arg;
	lq_run r;
	if (n < LQ_RUN_COLS)
		return 1;
	memset(&r, 0, sizeof(r));
	r.id = lq__col_int(&c[0]);
	r.task_id = lq__col_int(&c[1]);
	r.run_at = lq__col_int(&c[2]);
	lq__col_str(&c[3], r.queue, sizeof(r.queue));
	lq__col_str(&c[4], r.name, sizeof(r.name));
	lq__col_str(&c[5], r.worker, sizeof(r.worker));
	r.attempt = (int)lq__col_int(&c[6]);
	r.started_at = lq__col_int(&c[7]);
	r.ended_at = lq__col_int(&c[8]);
	int o = outcome_of(&c[9]);
	r.outcome = o < 0 ? LQ_RUN_FAILED : (lq_outcome)o; /* a newer library's outcome: not done */
	r.error = c[10].type == LQ_V_NULL ? NULL : c[10].s;
	r.now = lq__col_int(&c[11]);
	return rc->fn(&r, rc->ctx);
}

LQ_EXTERN(lq_status) lq_run_list(lq_db *db, const lq_run_filter *f, lq_run_fn fn, void *ctx)
{
	static const lq_run_filter defaults = LQ_RUN_FILTER_INIT;
	lq_status st;
	lq__ok(db);
	if (!f)
		f = &defaults;
	if (f->version != LQ_RUN_FILTER_VERSION)
		return lq__fail(db, LQ_EINVAL, "run history: unknown lq_run_filter version %u", f->version);
	if (f->task_id < 0)
		return lq__fail(db, LQ_EINVAL, "run history: task id must be positive");
	if (f->since_ms < 0 || f->since_ms > LQ_AGE_ANY)
		return lq__fail(db, LQ_EINVAL, "run history: since must be between 0 and 100 years");
	if (f->limit > LQ_RUN_LIST_MAX)
		return lq__fail(db, LQ_EINVAL, "run history: limit must be at most %d (got %zu)", LQ_RUN_LIST_MAX,
				f->limit);
	if (f->task_id == 0 && f->queue && (st = lq__check_name(db, "queue name", f->queue)) != LQ_OK)
		return st;
	if (f->task_id == 0 && f->name && (st = lq__check_name(db, "task name", f->name)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK || (st = lq__run_flush(db)) != LQ_OK)
		return st; /* (this handle's own runs first) */
	struct run_list_ctx rc = {fn, ctx};
	int64_t age = f->since_ms > 0 ? f->since_ms : LQ_AGE_ANY;
	int64_t limit = f->limit ? (int64_t)f->limit : LQ_RUN_LIST_DEFAULT;
	if (f->task_id > 0) {
		char what[64];
		snprintf(what, sizeof(what), "task %lld: history", (long long)f->task_id);
		lq_value p[3] = {lq_v_int(f->task_id), lq_v_int(age), lq_v_int(limit)};
		return lq__exec(db, what, LQ_SQL_run_list_task, p, 3, run_row, &rc, NULL);
	}
	lq_value p[4] = {lq__v_opt_text(f->queue), lq__v_opt_text(f->name), lq_v_int(age), lq_v_int(limit)};
	return lq__exec(db, "run history", LQ_SQL_run_list, p, 4, run_row, &rc, NULL);
}

static void add_count(lq_run_counts *c, int outcome, int64_t n)
{
	switch (outcome) {
	case LQ_RUN_DONE: c->done += n; break;
	case LQ_RUN_FAILED: c->failed += n; break;
	case LQ_RUN_TIMED_OUT: c->timed_out += n; break;
	case LQ_RUN_DEAD: c->dead += n; break;
	case LQ_RUN_CANCELLED: c->cancelled += n; break;
	default: break; /* a newer library's outcome */
	}
}

static int count_row(void *arg, const lq_value *c, int n)
{
	if (n < LQ_COLS_run_count_since)
		return 1;
	add_count(arg, outcome_of(&c[0]), lq__col_int(&c[1]));
	return 0;
}

/* A caller built with layout 1 has no room for the counts added later. */
static size_t counts_size(const lq_db *db)
{
	return db->abi >= 2 ? sizeof(lq_run_counts) : offsetof(lq_run_counts, cancelled);
}

LQ_EXTERN(lq_status) lq_run_count_since(lq_db *db, int64_t since_ms, const char *queue, lq_run_counts *out)
{
	lq_status st;
	lq_run_counts c;
	lq__ok(db);
	memset(&c, 0, sizeof(c));
	memset(out, 0, counts_size(db));
	if (since_ms <= 0 || since_ms > LQ_AGE_ANY)
		return lq__fail(db, LQ_EINVAL, "run counts: since must be between 1 ms and 100 years");
	if (queue && (st = lq__check_name(db, "queue name", queue)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK || (st = lq__run_flush(db)) != LQ_OK)
		return st; /* (this handle's own runs first) */
	lq_value p[2] = {lq_v_int(since_ms), lq__v_opt_text(queue)};
	st = lq__exec(db, "run counts", LQ_SQL_run_count_since, p, 2, count_row, &c, NULL);
	memcpy(out, &c, counts_size(db));
	return st;
}

/* Rows come by queue, then name: one callback per (queue, name). */
struct counter_ctx {
	lq_lease_counts *leases;
	lq_run_counter_fn fn;
	void *ctx;
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	lq_run_counts c;
	int have, stop;
};

static void counter_flush(struct counter_ctx *cc)
{
	if (cc->have && cc->fn && !cc->stop)
		cc->stop = cc->fn(cc->queue, cc->name, &cc->c, cc->ctx);
	cc->have = 0;
	memset(&cc->c, 0, sizeof(cc->c));
}

static int counter_row(void *arg, const lq_value *c, int n)
{
	struct counter_ctx *cc = arg;
	char metric[32], queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	if (n < LQ_COLS_counter_list)
		return 1;
	lq__col_str(&c[0], metric, sizeof(metric));
	lq__col_str(&c[1], queue, sizeof(queue));
	lq__col_str(&c[2], name, sizeof(name));
	int64_t v = lq__col_int(&c[3]);
	if (!queue[0]) { /* the lease counters */
		int64_t *slot = !strcmp(metric, "lease_taken") ? &cc->leases->taken
			      : !strcmp(metric, "lease_lost") ? &cc->leases->lost
			      : !strcmp(metric, "lease_broken") ? &cc->leases->broken : NULL;
		if (slot)
			*slot = v;
		return 0;
	}
	if (cc->have && (strcmp(queue, cc->queue) || strcmp(name, cc->name)))
		counter_flush(cc);
	if (!cc->have) {
		snprintf(cc->queue, sizeof(cc->queue), "%s", queue);
		snprintf(cc->name, sizeof(cc->name), "%s", name);
		cc->have = 1;
	}
	if (!strncmp(metric, "run_", 4)) {
		lq_value o = lq__v_text(metric + 4);
		add_count(&cc->c, outcome_of(&o), v);
	}
	return cc->stop;
}

LQ_EXTERN(lq_status) lq_counters(lq_db *db, lq_lease_counts *leases, lq_run_counter_fn fn, void *ctx)
{
	lq_lease_counts scratch;
	struct counter_ctx cc;
	lq__ok(db);
	if (!leases)
		leases = &scratch;
	memset(leases, 0, sizeof(*leases));
	memset(&cc, 0, sizeof(cc));
	cc.leases = leases;
	cc.fn = fn;
	cc.ctx = ctx;
	lq_status st = lq__ready(db);
	if (st == LQ_OK)
		st = lq__run_flush(db); /* this handle's own runs first */
	if (st == LQ_OK)
		st = lq__exec(db, "counters", LQ_SQL_counter_list, NULL, 0, counter_row, &cc, NULL);
	if (st == LQ_OK)
		counter_flush(&cc);
	return st;
}

/* ---------------------------------------------------------------- results */

lq_status lq__run_set_result(lq_db *db, const char *what, const lq_task *t, const struct lq__result *res)
{
	char worker[LQ_OWNER_MAX + 1];
	lq__run_worker(worker, sizeof(worker));
	lq_value p[5] = {lq_v_int(t->id), lq_v_int(lq__run_attempt(t)), lq_v_int(t->now), lq__v_text(worker),
			 lq_v_blob(res->data, res->len)};
	int64_t n = 0;
	lq_status st = lq__exec(db, what, LQ_SQL_run_set_result, p, 5, NULL, NULL, &n);
	if (st == LQ_OK && n != 1) /* the row was written just before, in this transaction */
		return lq__fail(db, LQ_ERROR, "%s: the run's history row to keep its result in is missing", what);
	return st;
}
