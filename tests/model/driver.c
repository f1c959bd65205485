/*
 * driver.c - the model-based test: runs random operation sequences against
 * the library and the reference model (model.c) side by side and, after
 * every operation, compares everything the public API shows with the
 * model; at the end of a sequence also what leasectl --json prints.  A
 * failing sequence is printed with its seed, then shrunk (gen.c) and
 * printed again.
 *
 *   model [--backend B] [--faults] [--sequences N] [--length L] [--seed S]
 *         [--replay SEED] [--long SECONDS] [--leasectl PATH] [--leasectl-every N] [--tick MS] [-v]
 *
 * Two handles: the worker W runs the operations; the observer O reads.
 * W keeps its at-most-once history rows back (lib/run.c), and a read on W
 * would write them: reading through O lets the model see when W writes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fault_backend.h"
#include "gen.h"
#include "model.h"
#include "testutil.h"

#define MAX_CAND 24
#define SNAP_ROWS 1024

typedef struct env {
	const char *backend, *dsn, *leasectl;
	int sqlite, faults, verbose;
	int64_t tick; /* SQLite: the test clock moves on by tick ms at each statement of an operation */
	int lc_every; /* leasectl --json at the end of every lc_every-th sequence (0: never) */
	int lc_now;   /* ... of this one */
	long lc_checks;
	lq_db *w, *o;
	lq_lease handles[M_HANDLES];
	lq_task jobs[M_JOBS];
	int job_held[M_JOBS];
	model m;
	char worker[LQ_OWNER_MAX + 1];
	size_t nops_run;
	long faults_fired, faults_unknown; /* injected faults that hit, and of those the unknown outcomes */
	int64_t since[2]; /* the history windows the comparison reads */
} env;

/* ------------------------------------------------------------ handles */

static lq_status open_handle(env *e, lq_db **db)
{
	lq_status st = e->sqlite ? lqt_fault_open(e->dsn, db) : lq_open(e->dsn, db);
	if (st != LQ_OK) {
		fprintf(stderr, "model: open %s: %s: %s\n", e->backend, lq_status_str(st), *db ? lq_errmsg(*db) : "");
		lq_close(*db);
		*db = NULL;
	}
	return st;
}

static void drop_driver_state(env *e)
{
	for (int i = 0; i < M_JOBS; i++) {
		if (e->job_held[i])
			lq_task_clear(&e->jobs[i]);
		e->job_held[i] = 0;
	}
	memset(e->handles, 0, sizeof(e->handles));
}

/* A fresh database: every leaseq row deleted, the clock where it was. */
static int fresh(env *e)
{
	drop_driver_state(e);
	if (e->w)
		lq_close(e->w);
	e->w = NULL;
	lqt_fault_arm(LQT_FAULT_NONE, 0);
	if (!e->o && open_handle(e, &e->o) != LQ_OK)
		return -1;
	lq_status st = lqt_reset(e->o);
	if (st != LQ_OK) {
		fprintf(stderr, "model: reset: %s: %s\n", lq_status_str(st), lq_errmsg(e->o));
		return -1;
	}
	if (open_handle(e, &e->w) != LQ_OK)
		return -1;
	m_init(&e->m);
	return 0;
}

static int64_t db_now(env *e)
{
	if (e->sqlite)
		return lqt_clock_now();
	int64_t now = 0;
	if (lq_now(e->o, &now) != LQ_OK) {
		fprintf(stderr, "model: cannot read the clock: %s\n", lq_errmsg(e->o));
		exit(1);
	}
	return now;
}

/* ------------------------------------------------------------ snapshot */

typedef struct stask {
	lq_task t;
	char err[M_ERR];
	int has_err;
	lq_status st; /* for lq_task_get */
} stask;

typedef struct srun {
	lq_run r;
	char err[M_ERR];
	int has_err;
} srun;

typedef struct slist {
	srun *rows;
	size_t n, cap;
	lq_status st;
	int skip; /* not read (leasectl reads a few of the filters) */
} slist;

typedef struct scount {
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	lq_run_counts c;
} scount;

/* The filters of lq_run_list the comparison reads (besides one per task). */
enum { RF_ALL, RF_DEFAULT, RF_Q0, RF_Q1, RF_N0, RF_N1, RF_N2, RF_S0, RF_S1, RF_Q0N0S1, RF_Q1N1S0, RF_LIMIT3, RF__COUNT };

typedef struct snap {
	span now; /* the clock around the whole read */
	lq_lease leases[16];
	size_t nleases;
	lq_status lease_get[M_LEASES];
	lq_lease lease_one[M_LEASES];
	stask live[M_TASKS], dead[M_TASKS];
	size_t nlive, ndead;
	int64_t due[M_QUEUES][M_TASKS];
	size_t ndue[M_QUEUES];
	int64_t due_now[M_QUEUES]; /* the rows' clock, 0 when no row */
	int64_t get_ids[M_TASKS * 2];
	stask gets[M_TASKS * 2];
	size_t ngets;
	lq_queue_info queues[8];
	size_t nqueues;
	int64_t task_ids[M_TASKS * 2];
	slist per_task[M_TASKS * 2];
	size_t ntask_ids;
	slist lists[RF__COUNT];
	lq_lease_counts lc;
	scount counts[16];
	size_t ncounts;
	lq_run_counts since_counts[2][M_QUEUES + 1];
	int64_t since_ms[2];
	int ok;
	char why[512];
} snap;

static int on_lease(const lq_lease *l, void *ctx)
{
	snap *s = ctx;
	if (s->nleases < 16)
		s->leases[s->nleases++] = *l;
	return 0;
}

static void copy_task(stask *d, const lq_task *t)
{
	d->t = *t;
	d->t.payload = NULL;
	d->t.last_error = NULL;
	d->has_err = t->last_error != NULL;
	snprintf(d->err, sizeof(d->err), "%s", t->last_error ? t->last_error : "");
}

struct task_sink {
	stask *rows;
	size_t n, max;
};

static int on_task(const lq_task *t, void *ctx)
{
	struct task_sink *k = ctx;
	if (k->n < k->max)
		copy_task(&k->rows[k->n++], t);
	return 0;
}

static int on_run(const lq_run *r, void *ctx)
{
	slist *l = ctx;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		srun *rows = realloc(l->rows, cap * sizeof(*rows));
		if (!rows)
			return 1;
		l->rows = rows;
		l->cap = cap;
	}
	srun *d = &l->rows[l->n++];
	d->r = *r;
	d->r.error = NULL;
	d->has_err = r->error != NULL;
	snprintf(d->err, sizeof(d->err), "%s", r->error ? r->error : "");
	return 0;
}

static int on_counter(const char *queue, const char *name, const lq_run_counts *c, void *ctx)
{
	snap *s = ctx;
	if (s->ncounts < 16) {
		scount *d = &s->counts[s->ncounts++];
		snprintf(d->queue, sizeof(d->queue), "%s", queue);
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->c = *c;
	}
	return 0;
}

static int on_queue(const lq_queue_info *q, void *ctx)
{
	snap *s = ctx;
	if (s->nqueues < 8)
		s->queues[s->nqueues++] = *q;
	return 0;
}

static void snap_free(snap *s)
{
	for (size_t i = 0; i < s->ntask_ids; i++)
		free(s->per_task[i].rows);
	for (int i = 0; i < RF__COUNT; i++)
		free(s->lists[i].rows);
}

static void add_id(int64_t *ids, size_t *n, size_t max, int64_t id)
{
	if (id <= 0)
		return;
	for (size_t i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	if (*n < max)
		ids[(*n)++] = id;
}

#define SNAP_CHECK(call)                                                                             \
	do {                                                                                         \
		lq_status st_ = (call);                                                              \
		if (st_ != LQ_OK) {                                                                  \
			snprintf(s->why, sizeof(s->why), "observer: %s: %s: %s", #call, lq_status_str(st_), \
				 lq_errmsg(e->o));                                                  \
			return -1;                                                                   \
		}                                                                                    \
	} while (0)

static void run_filter(env *e, int which, lq_run_filter *f)
{
	lq_run_filter init = LQ_RUN_FILTER_INIT;
	*f = init;
	f->limit = LQ_RUN_LIST_MAX;
	switch (which) {
	case RF_Q0: f->queue = m_queue_names[0]; break;
	case RF_Q1: f->queue = m_queue_names[1]; break;
	case RF_N0: f->name = m_task_names[0]; break;
	case RF_N1: f->name = m_task_names[1]; break;
	case RF_N2: f->name = m_task_names[2]; break;
	case RF_S0: f->since_ms = e->since[0]; break;
	case RF_S1: f->since_ms = e->since[1]; break;
	case RF_Q0N0S1: f->queue = m_queue_names[0]; f->name = m_task_names[0]; f->since_ms = e->since[1]; break;
	case RF_Q1N1S0: f->queue = m_queue_names[1]; f->name = m_task_names[1]; f->since_ms = e->since[0]; break;
	case RF_LIMIT3: f->limit = 3; break;
	case RF_DEFAULT: f->limit = 0; break;
	default: break;
	}
}

/* How far a server's clock reading in a statement may stray from the
 * span of lq_now readings around it: the clock expressions round to the
 * millisecond (PostgreSQL's ::bigint, MySQL's CAST of NOW(3)), and a
 * kept-back history row's ended_at is the clock at its write less an age
 * the worker measured in whole milliseconds.  Seen: one and two
 * milliseconds past (claim_until on PostgreSQL, ended_at on MariaDB). */
#define SERVER_CLOCK_SLACK_MS 3

static int take_snapshot(env *e, const model *m, snap *s)
{
	memset(s, 0, sizeof(*s));
	s->since_ms[0] = e->since[0];
	s->since_ms[1] = e->since[1];
	s->now.lo = db_now(e);
	SNAP_CHECK(lq_lease_list(e->o, on_lease, s));
	for (int i = 0; i < M_LEASES; i++)
		s->lease_get[i] = lq_lease_get(e->o, m_lease_names[i], &s->lease_one[i]);
	struct task_sink live = {s->live, 0, M_TASKS}, dead = {s->dead, 0, M_TASKS};
	SNAP_CHECK(lq_task_list(e->o, NULL, 0, on_task, &live));
	SNAP_CHECK(lq_task_list(e->o, NULL, LQ_LIST_DEAD, on_task, &dead));
	s->nlive = live.n;
	s->ndead = dead.n;
	for (int q = 0; q < M_QUEUES; q++) {
		stask rows[M_TASKS];
		struct task_sink due = {rows, 0, M_TASKS};
		SNAP_CHECK(lq_task_list(e->o, m_queue_names[q], LQ_LIST_DUE, on_task, &due));
		for (size_t i = 0; i < due.n; i++)
			s->due[q][i] = rows[i].t.id;
		s->ndue[q] = due.n;
		s->due_now[q] = due.n ? rows[0].t.now : 0;
	}
	/* Every id the model or the database knows, for lq_task_get. */
	for (size_t i = 0; i < s->nlive; i++)
		add_id(s->get_ids, &s->ngets, M_TASKS * 2, s->live[i].t.id);
	for (size_t i = 0; i < s->ndead; i++)
		add_id(s->get_ids, &s->ngets, M_TASKS * 2, s->dead[i].t.id);
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used)
			add_id(s->get_ids, &s->ngets, M_TASKS * 2, m->tasks[i].id);
	for (int i = 0; i < m->ngone; i++)
		add_id(s->get_ids, &s->ngets, M_TASKS * 2, m->gone_ids[i]);
	for (size_t i = 0; i < s->ngets; i++) {
		lq_task t;
		memset(&t, 0, sizeof(t));
		s->gets[i].st = lq_task_get(e->o, s->get_ids[i], &t);
		if (s->gets[i].st == LQ_OK)
			copy_task(&s->gets[i], &t);
		lq_task_clear(&t);
	}
	SNAP_CHECK(lq_queue_list(e->o, on_queue, s));
	/* The history of every task the model or the database knows. */
	for (size_t i = 0; i < s->ngets; i++)
		add_id(s->task_ids, &s->ntask_ids, M_TASKS * 2, s->get_ids[i]);
	for (int i = 0; i < M_RUNS; i++)
		if (m->runs[i].state)
			add_id(s->task_ids, &s->ntask_ids, M_TASKS * 2, m->runs[i].task_id);
	for (size_t i = 0; i < s->ntask_ids; i++) {
		lq_run_filter f = LQ_RUN_FILTER_INIT;
		f.task_id = s->task_ids[i];
		f.limit = LQ_RUN_LIST_MAX;
		s->per_task[i].st = lq_run_list(e->o, &f, on_run, &s->per_task[i]);
	}
	for (int k = 0; k < RF__COUNT; k++) {
		lq_run_filter f;
		run_filter(e, k, &f);
		s->lists[k].st = lq_run_list(e->o, k == RF_DEFAULT ? NULL : &f, on_run, &s->lists[k]);
	}
	SNAP_CHECK(lq_counters(e->o, &s->lc, on_counter, s));
	for (int w = 0; w < 2; w++)
		for (int q = 0; q <= M_QUEUES; q++)
			SNAP_CHECK(lq_run_count_since(e->o, e->since[w], q ? m_queue_names[q - 1] : NULL,
						      &s->since_counts[w][q]));
	s->now.hi = db_now(e);
	if (!e->sqlite) { /* (rounding, as in step) */
		s->now.lo -= SERVER_CLOCK_SLACK_MS;
		s->now.hi += SERVER_CLOCK_SLACK_MS;
	}
	s->ok = 1;
	return 0;
}

/* ---------------------------------------------------------- comparison */

#define DIFF(...)                                     \
	do {                                          \
		snprintf(why, wsize, __VA_ARGS__);    \
		return -1;                            \
	} while (0)

/* v inside span *s: narrow *s to v. */
static int learn(span *s, int64_t v)
{
	if (v < s->lo || v > s->hi)
		return -1;
	s->lo = s->hi = v;
	return 0;
}

static int learn_owner(char *model_owner, size_t size, const char *seen)
{
	if (strcmp(model_owner, "?") == 0 && seen[0]) {
		snprintf(model_owner, size, "%s", seen);
		return 0;
	}
	return strcmp(model_owner, seen) == 0 ? 0 : -1;
}

static int cmp_lease(model *m, int li, const lq_lease *l, char *why, size_t wsize)
{
	mlease *ml = &m->leases[li];
	if (strcmp(l->name, m_lease_names[li]) != 0)
		DIFF("lease %s: listed as \"%s\"", m_lease_names[li], l->name);
	if (l->token != ml->token)
		DIFF("lease %s: token %lld, model %lld", l->name, (long long)l->token, (long long)ml->token);
	if (learn(&ml->acquired_at, l->acquired_at) != 0)
		DIFF("lease %s: acquired_at %lld, model [%lld, %lld]", l->name, (long long)l->acquired_at,
		     (long long)ml->acquired_at.lo, (long long)ml->acquired_at.hi);
	if (learn(&ml->expires_at, l->expires_at) != 0)
		DIFF("lease %s: expires_at %lld, model [%lld, %lld]", l->name, (long long)l->expires_at,
		     (long long)ml->expires_at.lo, (long long)ml->expires_at.hi);
	/* An expired lease is shown without its holder. */
	if (ml->expires_at.hi <= l->now) {
		if (l->owner[0])
			DIFF("lease %s: expired, shown with owner \"%s\"", l->name, l->owner);
	} else if (learn_owner(ml->owner, sizeof(ml->owner), l->owner) != 0) {
		DIFF("lease %s: owner \"%s\", model \"%s\"", l->name, l->owner, ml->owner);
	}
	return 0;
}

static int cmp_leases(model *m, const snap *s, char *why, size_t wsize)
{
	size_t k = 0;
	for (int i = 0; i < M_LEASES; i++) {
		if (!m->leases[i].used) {
			if (s->lease_get[i] != LQ_NOTFOUND)
				DIFF("lease_get %s: %s, model: never acquired", m_lease_names[i], lq_status_str(s->lease_get[i]));
			continue;
		}
		if (k >= s->nleases)
			DIFF("lease list: %s missing", m_lease_names[i]);
		if (cmp_lease(m, i, &s->leases[k++], why, wsize) != 0)
			return -1;
		if (s->lease_get[i] != LQ_OK || cmp_lease(m, i, &s->lease_one[i], why, wsize) != 0) {
			if (s->lease_get[i] != LQ_OK)
				DIFF("lease_get %s: %s", m_lease_names[i], lq_status_str(s->lease_get[i]));
			return -1;
		}
	}
	if (k != s->nleases)
		DIFF("lease list: %zu leases, model %zu (extra \"%s\")", s->nleases, k, s->leases[k].name);
	return 0;
}

static int cmp_task(mtask *t, const stask *st, char *why, size_t wsize)
{
	const lq_task *g = &st->t;
	char label[64];
	snprintf(label, sizeof(label), "task %lld", (long long)g->id);
	if (t->id == 0)
		t->id = g->id; /* an add whose outcome was unknown */
	if (g->id != t->id || strcmp(g->queue, m_queue_names[t->queue]) || strcmp(g->name, m_task_names[t->name]))
		DIFF("%s: %s/%s, model task %lld %s/%s", label, g->queue, g->name, (long long)t->id,
		     m_queue_names[t->queue], m_task_names[t->name]);
	if (learn(&t->run_at, g->run_at) != 0)
		DIFF("%s: run_at %lld, model [%lld, %lld]", label, (long long)g->run_at, (long long)t->run_at.lo,
		     (long long)t->run_at.hi);
	if (learn(&t->created_at, g->created_at) != 0)
		DIFF("%s: created_at %lld, model [%lld, %lld]", label, (long long)g->created_at,
		     (long long)t->created_at.lo, (long long)t->created_at.hi);
	if (g->attempts != t->attempts || g->max_attempts != t->max_attempts)
		DIFF("%s: attempts %d/%d, model %d/%d", label, g->attempts, g->max_attempts, t->attempts, t->max_attempts);
	if (strcmp(g->unique_key, t->ukey >= 0 ? m_ukey_names[t->ukey] : ""))
		DIFF("%s: unique key \"%s\", model \"%s\"", label, g->unique_key, t->ukey >= 0 ? m_ukey_names[t->ukey] : "");
	if (g->dead != t->dead)
		DIFF("%s: dead %d, model %d", label, g->dead, t->dead);
	if (learn_owner(t->owner, sizeof(t->owner), g->claim_owner) != 0)
		DIFF("%s: claim owner \"%s\", model \"%s\"", label, g->claim_owner, t->owner);
	if (t->has_claim ? learn(&t->claim_until, g->claim_until) != 0 : g->claim_until != 0)
		DIFF("%s: claim_until %lld, model %s[%lld, %lld]", label, (long long)g->claim_until,
		     t->has_claim ? "" : "none ", (long long)t->claim_until.lo, (long long)t->claim_until.hi);
	if (g->every_ms != t->every_ms || g->priority != t->priority || g->paused != t->paused)
		DIFF("%s: every %lld priority %d paused %d, model %lld %d %d", label, (long long)g->every_ms, g->priority,
		     g->paused, (long long)t->every_ms, t->priority, t->paused);
	if (st->has_err != t->has_error || strcmp(st->err, t->error))
		DIFF("%s: last_error %s\"%.300s\", model %s\"%.300s\"", label, st->has_err ? "" : "NULL ", st->err,
		     t->has_error ? "" : "NULL ", t->error);
	if (t->dead && learn(&t->died_at, g->died_at) != 0)
		DIFF("%s: died_at %lld, model [%lld, %lld]", label, (long long)g->died_at, (long long)t->died_at.lo,
		     (long long)t->died_at.hi);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const mtask *x = *(const mtask *const *)a, *y = *(const mtask *const *)b;
	int64_t ix = x->id ? x->id : INT64_MAX, iy = y->id ? y->id : INT64_MAX;
	return ix < iy ? -1 : ix > iy;
}

static int cmp_task_list(model *m, int dead, const stask *rows, size_t n, char *why, size_t wsize)
{
	mtask *want[M_TASKS];
	size_t k = 0;
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used && m->tasks[i].dead == dead)
			want[k++] = &m->tasks[i];
	qsort(want, k, sizeof(want[0]), by_id);
	for (size_t i = 0; i < k || i < n; i++) {
		if (i >= n)
			DIFF("%s tasks: task %lld (%s) missing", dead ? "dead" : "live", (long long)want[i]->id,
			     m_task_names[want[i]->name]);
		if (i >= k)
			DIFF("%s tasks: task %lld (%s) not in the model", dead ? "dead" : "live", (long long)rows[i].t.id,
			     rows[i].t.name);
		if (want[i]->id && want[i]->id != rows[i].t.id)
			DIFF("%s tasks: task %lld listed where the model has %lld", dead ? "dead" : "live",
			     (long long)rows[i].t.id, (long long)want[i]->id);
		if (cmp_task(want[i], &rows[i], why, wsize) != 0)
			return -1;
	}
	return 0;
}

/* Due as lq_task_list(LQ_LIST_DUE) says it (a paused queue's tasks too). */
static int listed_due(const mtask *t, int64_t now)
{
	return t->used && !t->dead && t->run_at.hi <= now && !t->paused && (!t->has_claim || t->claim_until.hi <= now);
}

static int cmp_tasks(model *m, const snap *s, char *why, size_t wsize)
{
	if (cmp_task_list(m, 0, s->live, s->nlive, why, wsize) != 0 ||
	    cmp_task_list(m, 1, s->dead, s->ndead, why, wsize) != 0)
		return -1;
	for (int q = 0; q < M_QUEUES; q++) {
		/* The rows' own clock, or either end of the read when none. */
		int64_t lo = s->due_now[q] ? s->due_now[q] : s->now.lo, hi = s->due_now[q] ? s->due_now[q] : s->now.hi;
		size_t k = 0;
		for (int i = 0; i < M_TASKS; i++) {
			const mtask *t = &m->tasks[i];
			if (!t->used || t->queue != q)
				continue;
			int listed = 0;
			for (size_t j = 0; j < s->ndue[q]; j++)
				listed |= s->due[q][j] == t->id;
			if (listed ? !listed_due(t, hi) : listed_due(t, lo))
				DIFF("due tasks of %s: task %lld %s, model says %s", m_queue_names[q], (long long)t->id,
				     listed ? "listed" : "not listed", listed ? "not due" : "due");
			k += listed;
		}
		if (k != s->ndue[q])
			DIFF("due tasks of %s: %zu listed, %zu of them in the model", m_queue_names[q], s->ndue[q], k);
	}
	for (size_t i = 0; i < s->ngets; i++) {
		mtask *t = m_task_by_id(m, s->get_ids[i]);
		if (!t) {
			if (s->gets[i].st != LQ_NOTFOUND)
				DIFF("task_get %lld: %s, model: not found", (long long)s->get_ids[i], lq_status_str(s->gets[i].st));
			continue;
		}
		if (s->gets[i].st != LQ_OK)
			DIFF("task_get %lld: %s", (long long)t->id, lq_status_str(s->gets[i].st));
		if (cmp_task(t, &s->gets[i], why, wsize) != 0)
			return -1;
	}
	/* Queues: those with tasks, dead tasks or a paused row, by name. */
	size_t k = 0;
	for (int q = 0; q < M_QUEUES; q++) {
		lq_queue_info want = {{0}, m->queue_paused[q], 0, 0, 0, 0};
		int exists = m->queue_known[q] == 1;
		for (int i = 0; i < M_TASKS; i++) {
			const mtask *t = &m->tasks[i];
			if (!t->used || t->queue != q)
				continue;
			exists = 1;
			if (t->dead) {
				want.dead++;
				continue;
			}
			want.tasks++;
			if (!t->paused && (want.next_run_at == 0 || t->run_at.hi < want.next_run_at))
				want.next_run_at = t->run_at.hi;
		}
		if (m->queue_known[q] == 2 && !exists) { /* learn whether its row is there */
			exists = m->queue_known[q] = k < s->nqueues && !strcmp(s->queues[k].name, m_queue_names[q]);
			if (!exists)
				m->queue_paused[q] = 0; /* (no row: not paused) */
		}
		if (!exists)
			continue;
		if (k >= s->nqueues || strcmp(s->queues[k].name, m_queue_names[q]))
			DIFF("queue list: %s missing", m_queue_names[q]);
		const lq_queue_info *g = &s->queues[k++];
		/* due is read at an instant inside the read: between the counts
		 * at either end. */
		int64_t dlo = 0, dhi = 0;
		for (int i = 0; i < M_TASKS; i++)
			if (m->tasks[i].used && m->tasks[i].queue == q) {
				dlo += listed_due(&m->tasks[i], s->now.lo);
				dhi += listed_due(&m->tasks[i], s->now.hi);
			}
		if (g->paused != want.paused || g->tasks != want.tasks || g->dead != want.dead ||
		    g->next_run_at != want.next_run_at || g->due < dlo || g->due > dhi)
			DIFF("queue %s: paused %d tasks %lld due %lld dead %lld next %lld; model %d %lld [%lld,%lld] %lld %lld",
			     g->name, g->paused, (long long)g->tasks, (long long)g->due, (long long)g->dead,
			     (long long)g->next_run_at, want.paused, (long long)want.tasks, (long long)dlo, (long long)dhi,
			     (long long)want.dead, (long long)want.next_run_at);
	}
	if (k != s->nqueues)
		DIFF("queue list: %zu queues, model %zu", s->nqueues, k);
	return 0;
}

static const char *outcome_str(lq_outcome o)
{
	return lq_outcome_name(o);
}

static void run_text(const lq_run *r, char *buf, size_t size)
{
	snprintf(buf, size, "run %lld (task %lld %.40s/%.40s attempt %d %s ended %lld)", (long long)r->id,
		 (long long)r->task_id, r->queue, r->name, r->attempt, outcome_str(r->outcome), (long long)r->ended_at);
}

static void mrun_text(const mrun *r, char *buf, size_t size)
{
	snprintf(buf, size, "run %lld (task %lld %s/%s attempt %d %s ended [%lld,%lld])", (long long)r->id,
		 (long long)r->task_id, m_queue_names[r->queue], m_task_names[r->name], r->attempt,
		 outcome_str(r->outcome), (long long)r->ended_at.lo, (long long)r->ended_at.hi);
}

/* Does the row fit the model's run (learning its times when learn_it)? */
static int run_fits(mrun *w, const srun *g, const char *worker, int learn_it)
{
	const lq_run *r = &g->r;
	if (r->task_id != w->task_id || strcmp(r->queue, m_queue_names[w->queue]) ||
	    strcmp(r->name, m_task_names[w->name]) || r->attempt != w->attempt || r->outcome != w->outcome ||
	    g->has_err != w->has_error || strcmp(g->err, w->error) || strcmp(r->worker, worker))
		return 0;
	if (w->id && r->id != w->id)
		return 0;
	span ra = w->run_at, sa = w->started_at, ea = w->ended_at;
	if (learn(&ra, r->run_at) || learn(&sa, r->started_at) || learn(&ea, r->ended_at))
		return 0;
	if (learn_it) {
		w->run_at = ra;
		w->started_at = sa;
		w->ended_at = ea;
		w->id = r->id;
		w->state = RUN_WRITTEN;
	}
	return 1;
}

static int by_seq(const void *a, const void *b)
{
	const mrun *x = *(const mrun *const *)a, *y = *(const mrun *const *)b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_run_id(const void *a, const void *b)
{
	const srun *x = a, *y = b;
	return x->r.id < y->r.id ? -1 : x->r.id > y->r.id;
}

static int by_api_order(const void *a, const void *b)
{
	return m_run_cmp(*(const mrun *const *)a, *(const mrun *const *)b);
}

/* The rows of one task's history: learn ids and times, settle the runs
 * whose write had an unknown outcome. */
static int learn_task_runs(model *m, int64_t task_id, const slist *l, const char *worker, char *why, size_t wsize)
{
	mrun *want[M_RUNS];
	size_t k = 0;
	for (int i = 0; i < M_RUNS; i++) {
		mrun *r = &m->runs[i];
		if ((r->state == RUN_WRITTEN || r->state == RUN_MAYBE) && r->task_id == task_id)
			want[k++] = r;
	}
	qsort(want, k, sizeof(want[0]), by_seq);
	srun *got = malloc((l->n ? l->n : 1) * sizeof(*got));
	if (!got)
		DIFF("out of memory");
	if (l->n) /* an empty list has no rows to copy (rows may be NULL) */
		memcpy(got, l->rows, l->n * sizeof(*got));
	qsort(got, l->n, sizeof(*got), by_run_id);
	size_t j = 0;
	char a[200], b[200];
	for (size_t i = 0; i < k; i++) {
		if (j < l->n && run_fits(want[i], &got[j], worker, 1)) {
			j++;
			continue;
		}
		if (want[i]->state == RUN_MAYBE) {
			want[i]->state = 0; /* its write did not happen */
			continue;
		}
		mrun_text(want[i], a, sizeof(a));
		if (j < l->n)
			run_text(&got[j].r, b, sizeof(b));
		free(got);
		if (j < l->n)
			DIFF("history of task %lld: %s where the model has %s", (long long)task_id, b, a);
		DIFF("history of task %lld: %s missing", (long long)task_id, a);
	}
	if (j < l->n) {
		run_text(&got[j].r, b, sizeof(b));
		free(got);
		DIFF("history of task %lld: %s not in the model", (long long)task_id, b);
	}
	free(got);
	return 0;
}

/* One listing of the history against the model's runs that match it, in
 * the API's order.  In the window: ended_at >= now - since, now being the
 * rows' clock (or either end of the read when no row came). */
static int cmp_run_list(model *m, const char *label, const slist *l, int64_t task_id, int queue, int name,
			int64_t since, size_t limit, span now, const char *worker, char *why, size_t wsize)
{
	mrun *want[M_RUNS];
	size_t k = 0;
	if (l->st != LQ_OK)
		DIFF("history %s: %s", label, lq_status_str(l->st));
	if (l->n && l->rows[0].r.now) /* (leasectl's rows do not say it) */
		now = sp(l->rows[0].r.now);
	for (int i = 0; i < M_RUNS; i++) {
		mrun *r = &m->runs[i];
		if (r->state != RUN_WRITTEN || (task_id && r->task_id != task_id) || (queue >= 0 && r->queue != queue) ||
		    (name >= 0 && r->name != name))
			continue;
		if (since && r->ended_at.hi < now.lo - since)
			continue;
		want[k++] = r;
	}
	qsort(want, k, sizeof(want[0]), by_api_order);
	size_t j = 0;
	char a[200], b[200];
	for (size_t i = 0; i < k && j < limit; i++) {
		/* At the window's edge a run may be in or out. */
		int edge = since && want[i]->ended_at.hi < now.hi - since;
		if (j < l->n && want[i]->id == l->rows[j].r.id) {
			if (!run_fits(want[i], &l->rows[j], worker, 0)) {
				run_text(&l->rows[j].r, b, sizeof(b));
				mrun_text(want[i], a, sizeof(a));
				DIFF("history %s: %s, model %s", label, b, a);
			}
			j++;
			continue;
		}
		if (edge)
			continue;
		mrun_text(want[i], a, sizeof(a));
		if (j < l->n) {
			run_text(&l->rows[j].r, b, sizeof(b));
			DIFF("history %s: row %zu is %s, model expects %s (newest ended_at first, then id)", label, j + 1, b, a);
		}
		DIFF("history %s: %s missing (%zu rows listed)", label, a, l->n);
	}
	if (j < l->n) {
		run_text(&l->rows[j].r, b, sizeof(b));
		DIFF("history %s: %s listed, not expected there", label, b);
	}
	return 0;
}

static int cmp_history(model *m, const snap *s, const char *worker, char *why, size_t wsize)
{
	for (size_t i = 0; i < s->ntask_ids; i++) {
		if (s->per_task[i].st != LQ_OK)
			DIFF("history of task %lld: %s", (long long)s->task_ids[i], lq_status_str(s->per_task[i].st));
		if (learn_task_runs(m, s->task_ids[i], &s->per_task[i], worker, why, wsize) != 0)
			return -1;
	}
	/* ids grow in the order the rows were written */
	mrun *all[M_RUNS];
	size_t k = 0;
	for (int i = 0; i < M_RUNS; i++)
		if (m->runs[i].state == RUN_WRITTEN)
			all[k++] = &m->runs[i];
	qsort(all, k, sizeof(all[0]), by_seq);
	for (size_t i = 1; i < k; i++)
		if (all[i]->id <= all[i - 1]->id)
			DIFF("history: run %lld was written after run %lld but has a lower id", (long long)all[i]->id,
			     (long long)all[i - 1]->id);
	char label[64];
	for (size_t i = 0; i < s->ntask_ids; i++) {
		snprintf(label, sizeof(label), "of task %lld", (long long)s->task_ids[i]);
		if (cmp_run_list(m, label, &s->per_task[i], s->task_ids[i], -1, -1, 0, LQ_RUN_LIST_MAX, s->now, worker,
				 why, wsize) != 0)
			return -1;
	}
	static const char *const labels[RF__COUNT] = {
		"(all)", "(default filter)", "--queue default", "--queue q2", "--name a", "--name b", "--name c",
		"--since S0", "--since S1", "--queue default --name a --since S1", "--queue q2 --name b --since S0",
		"--limit 3"};
	for (int f = 0; f < RF__COUNT; f++) {
		int queue = f == RF_Q0 || f == RF_Q0N0S1 ? 0 : f == RF_Q1 || f == RF_Q1N1S0 ? 1 : -1;
		int name = f == RF_N0 || f == RF_Q0N0S1 ? 0 : f == RF_N1 || f == RF_Q1N1S0 ? 1 : f == RF_N2 ? 2 : -1;
		int64_t since = f == RF_S0 || f == RF_Q1N1S0 ? s->since_ms[0] : f == RF_S1 || f == RF_Q0N0S1 ? s->since_ms[1] : 0;
		size_t limit = f == RF_LIMIT3 ? 3 : f == RF_DEFAULT ? 100 : LQ_RUN_LIST_MAX;
		if (s->lists[f].skip)
			continue;
		if (cmp_run_list(m, labels[f], &s->lists[f], 0, queue, name, since, limit, s->now, worker, why, wsize) != 0)
			return -1;
	}
	return 0;
}

static void add_counts(lq_run_counts *c, lq_outcome o)
{
	switch (o) {
	case LQ_RUN_DONE: c->done++; break;
	case LQ_RUN_FAILED: c->failed++; break;
	case LQ_RUN_TIMED_OUT: c->timed_out++; break;
	case LQ_RUN_DEAD: c->dead++; break;
	case LQ_RUN_CANCELLED: c->cancelled++; break;
	}
}

static int counts_within(const lq_run_counts *g, const lq_run_counts *lo, const lq_run_counts *hi)
{
	return g->done >= lo->done && g->done <= hi->done && g->failed >= lo->failed && g->failed <= hi->failed &&
	       g->timed_out >= lo->timed_out && g->timed_out <= hi->timed_out && g->dead >= lo->dead &&
	       g->dead <= hi->dead;
}

static lq_lease_counts model_lease_counts(const model *m)
{
	lq_lease_counts lc = {0, 0, 0};
	for (int i = 0; i < M_LEASES; i++) {
		lc.taken += m->leases[i].token - m->leases[i].broken;
		lc.lost += m->leases[i].lost;
		lc.broken += m->leases[i].broken;
	}
	return lc;
}

/* The runs of queue q (-1: every queue) that ended in the last since ms
 * of an instant inside now: at least lo, at most hi. */
static void window_counts(const model *m, int q, int64_t since, span now, lq_run_counts *lo, lq_run_counts *hi)
{
	memset(lo, 0, sizeof(*lo));
	memset(hi, 0, sizeof(*hi));
	for (int i = 0; i < M_RUNS; i++) {
		const mrun *r = &m->runs[i];
		if (r->state != RUN_WRITTEN || (q >= 0 && r->queue != q))
			continue;
		if (r->ended_at.hi >= now.hi - since)
			add_counts(lo, r->outcome);
		if (r->ended_at.hi >= now.lo - since)
			add_counts(hi, r->outcome);
	}
}

static int cmp_counters(model *m, const snap *s, char *why, size_t wsize)
{
	lq_lease_counts lc = model_lease_counts(m);
	if (lc.taken != s->lc.taken || lc.lost != s->lc.lost || lc.broken != s->lc.broken)
		DIFF("lease counters: taken %lld lost %lld broken %lld, model %lld %lld %lld", (long long)s->lc.taken,
		     (long long)s->lc.lost, (long long)s->lc.broken, (long long)lc.taken, (long long)lc.lost,
		     (long long)lc.broken);
	size_t k = 0;
	for (int q = 0; q < M_QUEUES; q++)
		for (int n = 0; n < M_NAMES; n++) {
			lq_run_counts c = {0};
			int any = 0;
			for (int i = 0; i < M_RUNS; i++)
				if (m->runs[i].state == RUN_WRITTEN && m->runs[i].queue == q && m->runs[i].name == n) {
					add_counts(&c, m->runs[i].outcome);
					any = 1;
				}
			if (!any)
				continue;
			if (k >= s->ncounts || strcmp(s->counts[k].queue, m_queue_names[q]) ||
			    strcmp(s->counts[k].name, m_task_names[n]))
				DIFF("run counters: %s/%s missing or out of order", m_queue_names[q], m_task_names[n]);
			const lq_run_counts *g = &s->counts[k++].c;
			if (!counts_within(g, &c, &c))
				DIFF("run counters %s/%s: done %lld failed %lld timed_out %lld dead %lld; model %lld %lld %lld %lld",
				     m_queue_names[q], m_task_names[n], (long long)g->done, (long long)g->failed,
				     (long long)g->timed_out, (long long)g->dead, (long long)c.done, (long long)c.failed,
				     (long long)c.timed_out, (long long)c.dead);
		}
	if (k != s->ncounts)
		DIFF("run counters: %zu (queue, name) pairs, model %zu", s->ncounts, k);
	for (int w = 0; w < 2; w++)
		for (int q = 0; q <= M_QUEUES; q++) {
			lq_run_counts lo, hi;
			window_counts(m, q - 1, s->since_ms[w], s->now, &lo, &hi);
			const lq_run_counts *g = &s->since_counts[w][q];
			if (!counts_within(g, &lo, &hi))
				DIFF("run counts of the last %lld ms (%s): done %lld failed %lld dead %lld; model done %lld-%lld "
				     "failed %lld-%lld dead %lld-%lld",
				     (long long)s->since_ms[w], q ? m_queue_names[q - 1] : "every queue", (long long)g->done,
				     (long long)g->failed, (long long)g->dead, (long long)lo.done, (long long)hi.done,
				     (long long)lo.failed, (long long)hi.failed, (long long)lo.dead, (long long)hi.dead);
		}
	return 0;
}

/* Everything the snapshot shows against model m (which learns from it). */
static int compare(model *m, const snap *s, const char *worker, char *why, size_t wsize)
{
	if (cmp_leases(m, s, why, wsize) || cmp_tasks(m, s, why, wsize) || cmp_history(m, s, worker, why, wsize) ||
	    cmp_counters(m, s, why, wsize))
		return -1;
	return 0;
}

/* ------------------------------------------------------------ operations */

typedef struct result {
	lq_status st;
	lq_status done_st; /* lq_task_ack_claim: the ack's */
	lq_lease lease;
	int64_t id;
	int existed;
	lq_task claimed[3];
	size_t n;
	char err[32];
	int fired;
} result;

static int cmp_i64_asc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The ref-th (mod count) used slot, or -1. */
static int pick_handle(const model *m, int ref)
{
	int idx[M_HANDLES], n = 0;
	for (int i = 0; i < M_HANDLES; i++)
		if (m->handles[i].used)
			idx[n++] = i;
	return n ? idx[ref % n] : -1;
}

static int pick_job(const model *m, int ref, int alo_only)
{
	int idx[M_JOBS], n = 0;
	for (int i = 0; i < M_JOBS; i++)
		if (m->jobs[i].used && (!alo_only || m->jobs[i].mode == LQ_AT_LEAST_ONCE))
			idx[n++] = i;
	return n ? idx[ref % n] : -1;
}

/* A task id the model knows (live, dead or gone), or one nobody has. */
static int64_t pick_task(const model *m, int ref)
{
	int64_t ids[M_TASKS * 2];
	size_t n = 0;
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used && m->tasks[i].id)
			ids[n++] = m->tasks[i].id;
	for (int i = 0; i < m->ngone; i++)
		ids[n++] = m->gone_ids[i];
	qsort(ids, n, sizeof(ids[0]), cmp_i64_asc);
	return (size_t)ref % (n + 1) < n ? ids[(size_t)ref % (n + 1)] : 999999;
}

/* What an operation works on, resolved against the model before it runs. */
typedef struct target {
	int h, j;   /* handle, job: -1 none */
	int64_t id; /* task */
} target;

/* Resolve o's references; 0: nothing to do (no handle or job to use). */
static int resolve(const model *m, const op *o, target *t)
{
	t->h = t->j = -1;
	t->id = 0;
	switch (o->kind) {
	case OP_RENEW:
	case OP_RELEASE:
	case OP_CHECK:
		return (t->h = pick_handle(m, o->a)) >= 0;
	case OP_ACK:
	case OP_FAIL:
	case OP_HANDBACK:
	case OP_ACK_CLAIM:
		return (t->j = pick_job(m, o->a, 0)) >= 0;
	case OP_HEARTBEAT:
		return (t->j = pick_job(m, o->a, 1)) >= 0;
	case OP_RM:
	case OP_RETRY:
	case OP_PAUSE:
		t->id = pick_task(m, o->a);
		return 1;
	default:
		return 1;
	}
}

static void task_opts(const op *o, lq_task_opts *opts)
{
	lq_task_opts init = LQ_TASK_OPTS_INIT;
	*opts = init;
	opts->queue = m_queue_names[o->a];
	opts->unique_key = o->c >= 0 ? m_ukey_names[o->c] : NULL;
	opts->priority = o->d;
	opts->max_attempts = o->e;
	opts->delay_ms = o->x;
	opts->every_ms = o->y;
}

/* Run o on the worker handle. */
static void execute(env *e, const op *o, const target *t, result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->err, sizeof(r->err), "boom %d", o->b % 7);
	if (o->fault)
		lqt_fault_arm(o->fault, o->fault_at);
	switch (o->kind) {
	case OP_ADVANCE:
		if (e->sqlite)
			lqt_clock_advance(o->x);
		else
			lqt_sleep_ms(o->x);
		r->st = LQ_OK;
		break;
	case OP_ACQUIRE:
		r->st = lq_lease_acquire(e->w, m_lease_names[o->a], o->x, "model", 0, &r->lease);
		break;
	case OP_RENEW:
		r->lease = e->handles[t->h];
		r->st = lq_lease_renew(e->w, &r->lease, o->x);
		break;
	case OP_RELEASE:
		r->st = lq_lease_release(e->w, &e->handles[t->h]);
		break;
	case OP_CHECK:
		r->st = lq_lease_check(e->w, &e->handles[t->h]);
		break;
	case OP_BREAK:
		r->st = lq_lease_break(e->w, m_lease_names[o->a], &r->lease);
		break;
	case OP_ADD: {
		lq_task_opts opts;
		task_opts(o, &opts);
		r->st = lq_task_add(e->w, m_task_names[o->b], &opts, &r->id, &r->existed);
		break;
	}
	case OP_CLAIM:
		r->st = lq_task_claim(e->w, m_queue_names[o->a], o->b ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, o->x,
				      r->claimed, (size_t)o->c, &r->n);
		break;
	case OP_ACK:
		r->st = lq_task_ack(e->w, &e->jobs[t->j]);
		break;
	case OP_ACK_CLAIM:
		r->st = lq_task_ack_claim(e->w, &e->jobs[t->j], &r->done_st, m_queue_names[o->b], LQ_AT_LEAST_ONCE,
					  o->x, r->claimed, (size_t)o->c, &r->n);
		break;
	case OP_FAIL:
		r->st = lq_task_fail(e->w, &e->jobs[t->j], r->err);
		break;
	case OP_HEARTBEAT:
		r->st = lq_task_heartbeat(e->w, &e->jobs[t->j], o->x);
		break;
	case OP_HANDBACK:
		r->st = lq_task_release(e->w, &e->jobs[t->j]);
		break;
	case OP_RM:
		r->st = lq_task_rm(e->w, t->id);
		break;
	case OP_RETRY:
		r->st = lq_task_retry(e->w, t->id);
		break;
	case OP_PAUSE:
		r->st = lq_task_pause(e->w, t->id, o->b);
		break;
	case OP_QPAUSE:
		r->st = lq_queue_pause(e->w, m_queue_names[o->a], o->b);
		break;
	case OP_FLUSH:
		r->st = lq_run_flush(e->w);
		break;
	case OP_REOPEN:
		lq_close(e->w);
		e->w = NULL;
		r->fired = lqt_fault_fired();
		lqt_fault_arm(LQT_FAULT_NONE, 0);
		r->st = open_handle(e, &e->w);
		break;
	}
	if (o->fault && o->kind != OP_REOPEN) {
		r->fired = lqt_fault_fired();
		lqt_fault_arm(LQT_FAULT_NONE, 0);
	}
}

/* The model's side of o with clock c; flush: an at-most-once ack wrote the
 * kept-back rows. */
static int apply(model *m, const op *o, const target *t, const mctx *c, const result *r, int flush, char *why,
		 size_t wsize)
{
	switch (o->kind) {
	case OP_ADVANCE:
		return 0;
	case OP_ACQUIRE:
		return m_lease_acquire(m, c, o->a, o->x, r->st, &r->lease, why, wsize);
	case OP_RENEW:
		return m_lease_renew(m, c, t->h, o->x, r->st, &r->lease, why, wsize);
	case OP_RELEASE:
		return m_lease_release(m, c, t->h, r->st, why, wsize);
	case OP_CHECK:
		return m_lease_check(m, c, t->h, r->st, why, wsize);
	case OP_BREAK:
		return m_lease_break(m, c, o->a, r->st, &r->lease, why, wsize);
	case OP_ADD: {
		madd a = {o->a, o->b, o->c, o->d, o->e, o->x, o->y};
		return m_task_add(m, c, &a, r->st, r->id, r->existed, why, wsize);
	}
	case OP_CLAIM:
		return m_claim(m, c, o->a, o->b ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, (size_t)o->c, o->x, r->st,
			       r->claimed, r->n, why, wsize);
	case OP_ACK:
		return m_ack(m, c, t->j, r->st, flush, why, wsize);
	case OP_ACK_CLAIM: {
		/* The ack, then the claim on the clock of its own statements. */
		if (m_ack(m, c, t->j, r->done_st, flush, why, wsize) != 0)
			return -1;
		mctx later = *c;
		later.now = c->later;
		return m_claim(m, &later, o->b, LQ_AT_LEAST_ONCE, (size_t)o->c, o->x, r->st, r->claimed, r->n, why,
			       wsize);
	}
	case OP_FAIL:
		return m_fail(m, c, t->j, r->err, r->st, why, wsize);
	case OP_HEARTBEAT:
		return m_heartbeat(m, c, t->j, o->x, r->st, why, wsize);
	case OP_HANDBACK:
		return m_release(m, c, t->j, r->st, why, wsize);
	case OP_RM:
		return m_rm(m, c, t->id, r->st, why, wsize);
	case OP_RETRY:
		return m_retry(m, c, t->id, r->st, why, wsize);
	case OP_PAUSE:
		return m_task_pause(m, c, t->id, o->b, r->st, why, wsize);
	case OP_QPAUSE:
		return m_queue_pause(m, c, o->a, o->b, r->st, why, wsize);
	case OP_FLUSH:
		if (!c->unknown && r->st != LQ_OK) {
			snprintf(why, wsize, "run flush: %s", lq_status_str(r->st));
			return -1;
		}
		m_flush(m, c);
		return 0;
	case OP_REOPEN:
		if (r->st != LQ_OK) {
			snprintf(why, wsize, "reopen: %s", lq_status_str(r->st));
			return -1;
		}
		m_flush(m, c);
		return 0;
	}
	return 0;
}

/* The driver's handles and jobs follow the model's tables. */
static void sync_tables(env *e, const op *o, const target *t, const result *r)
{
	if (o->kind == OP_ACQUIRE && r->st == LQ_OK)
		for (int i = 0; i < M_HANDLES; i++)
			if (e->m.handles[i].used && !e->handles[i].name[0]) {
				e->handles[i] = r->lease;
				break;
			}
	if (o->kind == OP_RENEW && r->st == LQ_OK)
		e->handles[t->h] = r->lease;
	lq_task *claimed = (lq_task *)r->claimed;
	if (o->kind == OP_ACK_CLAIM && t->j >= 0 && e->job_held[t->j]) {
		/* Acked (or lost): its slot may hold a task the call claimed. */
		lq_task_clear(&e->jobs[t->j]);
		e->job_held[t->j] = 0;
	}
	for (int i = 0; i < M_JOBS; i++) {
		if (e->m.jobs[i].used && !e->job_held[i] && (o->kind == OP_CLAIM || o->kind == OP_ACK_CLAIM)) {
			for (size_t k = 0; k < r->n; k++)
				if (claimed[k].id == e->m.jobs[i].t.id && claimed[k].name[0]) {
					e->jobs[i] = claimed[k];
					memset(&claimed[k], 0, sizeof(lq_task));
					e->job_held[i] = 1;
				}
		} else if (!e->m.jobs[i].used && e->job_held[i]) {
			lq_task_clear(&e->jobs[i]);
			e->job_held[i] = 0;
		}
	}
	for (size_t k = 0; k < r->n; k++)
		lq_task_clear(&claimed[k]);
}

/* ------------------------------------------------------------ sequences */

typedef struct cand {
	model m;
	span now; /* the stretch of the clock it assumed */
	int flush, unknown;
	char why[1024];
} cand;

static cand g_cands[MAX_CAND];

static void transcript(const op *ops, size_t n, FILE *f)
{
	char line[256];
	for (size_t i = 0; i < n; i++) {
		op_format(&ops[i], line, sizeof(line));
		fprintf(f, "  %3zu  %s\n", i + 1, line);
	}
}

/* Stretch seg of whole, cut at the nb decision boundaries bounds. */
static span stretch(const int64_t *bounds, size_t nb, span whole, size_t seg)
{
	span s = {seg == 0 ? whole.lo : bounds[seg - 1], seg == nb ? whole.hi : bounds[seg] - 1};
	return s;
}

/* One operation and the comparison after it.  0, or -1 with why. */
static int step(env *e, const op *o, char *why, size_t wsize)
{
	target t;
	if (!resolve(&e->m, o, &t))
		return 0;
	mctx c;
	memset(&c, 0, sizeof(c));
	int64_t t0 = db_now(e);
	c.mono_lo = lqt_mono_ms();
	result r;
	lqt_clock_tick(e->tick);
	execute(e, o, &t, &r);
	lqt_clock_tick(0);
	int fired = r.fired;
	if (e->verbose > 1) {
		char line[256];
		op_format(o, line, sizeof(line));
		printf("    %-60s -> %s (job %d handle %d task %lld, %zu claimed)\n", line, lq_status_str(r.st), t.j, t.h,
		       (long long)t.id, r.n);
	}
	int64_t t1 = o->kind == OP_ADVANCE ? t0 : db_now(e);
	if (o->kind == OP_ADVANCE && e->sqlite)
		t0 = t1 = db_now(e);
	/* A fault may have left kept-back rows written, lost or still kept:
	 * write what is left now, so that each is either in the history or
	 * gone for good. */
	if (fired && e->w)
		(void)lq_run_flush(e->w);
	c.mono_hi = lqt_mono_ms();
	if (fired && !e->sqlite)
		t1 = db_now(e);
	if (!e->sqlite) {
		t0 -= SERVER_CLOCK_SLACK_MS;
		t1 += SERVER_CLOCK_SLACK_MS;
	}

	/* Candidates: each stretch of the clock between decision boundaries,
	 * each side of the batch's one-second rule, applied or not when the
	 * outcome is unknown. */
	int64_t bounds[64];
	span whole = {t0, t1};
	c.at = whole; /* the times the call stores: its statements read the clock anew */
	size_t nb = m_boundaries(&e->m, whole, bounds, 64);
	int unknown = fired && (r.st == LQ_ECONN || r.st == LQ_EUNKNOWN || o->kind == OP_REOPEN);
	e->faults_fired += fired;
	e->faults_unknown += unknown;
	size_t nc = 0;
	char first_why[1024] = "";
	for (size_t seg = 0; seg <= nb; seg++) {
		/* An ack with a claim: the claim's stretch is the ack's or a later
		 * one, as its statements read the clock after the ack's. */
		size_t last = o->kind == OP_ACK_CLAIM ? nb : seg;
		for (size_t seg2 = seg; seg2 <= last; seg2++) {
			c.now = stretch(bounds, nb, whole, seg);
			c.later = stretch(bounds, nb, whole, seg2);
			int acks = o->kind == OP_ACK || o->kind == OP_ACK_CLAIM;
			int fl = acks && e->m.jobs[t.j].mode == LQ_AT_MOST_ONCE ? m_ack_flushes(&e->m, &c) : 0;
			for (int variant = 0; variant < 4 && nc < MAX_CAND; variant++) {
				int v_flush = variant & 1, v_unknown = variant >> 1;
				if (v_flush && fl == 0)
					continue;
				if (!v_flush && fl == 1)
					continue;
				if (v_unknown && !unknown)
					continue;
				cand *k = &g_cands[nc];
				k->m = e->m;
				k->now = c.now;
				k->flush = v_flush;
				k->unknown = v_unknown;
				c.unknown = v_unknown;
				if (apply(&k->m, o, &t, &c, &r, v_flush, k->why, sizeof(k->why)) != 0) {
					if (!first_why[0])
						snprintf(first_why, sizeof(first_why), "%s", k->why);
					continue;
				}
				if (fired) {
					/* A history write whose answer was lost is not sent
					 * again and the call still succeeds (leaseq.h, run
					 * history): the rows this call wrote may be missing. */
					mctx u = c;
					u.unknown = 1;
					m_flush(&k->m, &u);
					for (int i = 0; i < M_RUNS; i++)
						if (k->m.runs[i].state == RUN_WRITTEN && k->m.runs[i].seq >= e->m.next_seq)
							k->m.runs[i].state = RUN_MAYBE;
				}
				nc++;
			}
		}
	}
	if (unknown && nc < MAX_CAND) {
		/* not applied at all (a job op still lets go of its job) */
		g_cands[nc].m = e->m;
		g_cands[nc].now = c.now;
		g_cands[nc].flush = 0;
		g_cands[nc].unknown = 2;
		if (t.j >= 0 && o->kind != OP_HEARTBEAT)
			g_cands[nc].m.jobs[t.j].used = 0;
		mctx u = c;
		u.unknown = 1;
		m_flush(&g_cands[nc].m, &u);
		nc++;
	}
	if (nc == 0) {
		snprintf(why, wsize, "%s", first_why);
		sync_tables(e, o, &t, &r);
		return -1;
	}
	snap *s = malloc(sizeof(*s));
	if (!s || take_snapshot(e, &g_cands[0].m, s) != 0) {
		snprintf(why, wsize, "%s", s ? s->why : "out of memory");
		if (s)
			snap_free(s);
		free(s);
		sync_tables(e, o, &t, &r);
		return -1;
	}
	int found = -1;
	for (size_t i = 0; i < nc && found < 0; i++)
		if (compare(&g_cands[i].m, s, e->worker, g_cands[i].why, sizeof(g_cands[i].why)) == 0)
			found = (int)i;
	snap_free(s);
	free(s);
	if (found < 0) {
		/* Every candidate's reason: the first one's alone can mislead
		 * (its stretch of the clock may simply be the wrong one). */
		size_t w = (size_t)snprintf(why, wsize, "%s", g_cands[0].why);
		for (size_t i = 0; nc > 1 && i < nc && w < wsize; i++)
			w += (size_t)snprintf(why + w, wsize - w, "\n    candidate %zu (now [%lld, %lld]%s%s): %s", i,
					      (long long)g_cands[i].now.lo, (long long)g_cands[i].now.hi,
					      g_cands[i].flush ? ", flushed" : "",
					      g_cands[i].unknown == 2 ? ", not applied" : g_cands[i].unknown ? ", unknown" : "",
					      g_cands[i].why);
		sync_tables(e, o, &t, &r);
		return -1;
	}
	e->m = g_cands[found].m;
	sync_tables(e, o, &t, &r);
	return 0;
}

/* ------------------------------------------------------ leasectl --json */

/*
 * What leasectl --json prints, read by python3 (the one JSON reader the
 * test trusts) and flattened to lines "LABEL TAB PATH TAB VALUE": PATH
 * joins object keys and array indexes with dots ("3.name"; "holders.#" is
 * an array's length), VALUE is ~ for null, true/false, a number, or " and
 * the string with \\, \t and \n escaped.  Per command also "!exit" (its
 * exit status), "!err" (its standard error) and "!bad" when its output
 * was not JSON.  One python3 for the whole run (its start-up costs more
 * than the commands): each request is a line of TAB-separated commands
 * "LABEL=ARGS" (ARGS split at spaces); the answer ends with a line "!end".
 * The commands of a request run four at a time: nothing writes meanwhile.
 */
static const char lc_flatten_py[] =
	"import json, subprocess, sys\n"
	"from concurrent.futures import ThreadPoolExecutor\n"
	"lc, dsn = sys.argv[1], sys.argv[2]\n"
	"def esc(s): return s.replace('\\\\', '\\\\\\\\').replace('\\t', '\\\\t').replace('\\n', '\\\\n')\n"
	"def flat(out, label, path, v):\n"
	"    if isinstance(v, dict):\n"
	"        for k, x in v.items(): flat(out, label, path + [k], x)\n"
	"    elif isinstance(v, list):\n"
	"        out.append(label + '\\t' + '.'.join(path + ['#']) + '\\t' + str(len(v)))\n"
	"        for i, x in enumerate(v): flat(out, label, path + [str(i)], x)\n"
	"    else:\n"
	"        s = '~' if v is None else 'true' if v is True else 'false' if v is False else \\\n"
	"            '\"' + esc(v) if isinstance(v, str) else str(v)\n"
	"        out.append(label + '\\t' + '.'.join(path) + '\\t' + s)\n"
	"def one(arg):\n"
	"    label, _, cmd = arg.partition('=')\n"
	"    p = subprocess.run([lc, '--db', dsn, '--json'] + cmd.split(' '), capture_output=True, text=True)\n"
	"    out = [label + '\\t!exit\\t' + str(p.returncode), label + '\\t!err\\t\"' + esc(p.stderr.strip())]\n"
	"    if p.returncode == 0:\n"
	"        try: flat(out, label, [], json.loads(p.stdout))\n"
	"        except ValueError as e: out.append(label + '\\t!bad\\t\"' + esc(str(e)))\n"
	"    return out\n"
	"with ThreadPoolExecutor(4) as pool:\n"
	"    for req in sys.stdin:\n"
	"        for out in pool.map(one, req.rstrip('\\n').split('\\t')):\n"
	"            sys.stdout.write(''.join(l + '\\n' for l in out))\n"
	"        sys.stdout.write('!end\\n')\n"
	"        sys.stdout.flush()\n";

typedef struct jline {
	char *label, *path, *val;
} jline;

typedef struct jdoc {
	char *text;
	jline *v;
	size_t n;
} jdoc;

static void jdoc_free(jdoc *d)
{
	free(d->text);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* The python3 that reads leasectl's output, started at the first use. */
static FILE *lc_req, *lc_ans;

static int lc_start(env *e)
{
	int in[2], out[2];
	if (lc_req)
		return 0;
	if (pipe(in) != 0 || pipe(out) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execlp("python3", "python3", "-c", lc_flatten_py, e->leasectl, e->dsn, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	lc_req = fdopen(in[1], "w");
	lc_ans = fdopen(out[0], "r");
	return lc_req && lc_ans ? 0 : -1;
}

/* Run the commands ("LABEL=ARGS") and read what they printed into d; 0,
 * or -1 with why. */
static int lc_run(env *e, char **cmds, size_t ncmds, jdoc *d, char *why, size_t wsize)
{
	memset(d, 0, sizeof(*d));
	if (lc_start(e) != 0)
		DIFF("leasectl: cannot start python3");
	for (size_t i = 0; i < ncmds; i++)
		fprintf(lc_req, "%s%s", i ? "\t" : "", cmds[i]);
	fputc('\n', lc_req);
	fflush(lc_req);
	size_t len = 0, cap = 0, lines = 0;
	char *line = NULL;
	size_t lsize = 0;
	ssize_t got;
	int ended = 0;
	while ((got = getline(&line, &lsize, lc_ans)) > 0) {
		if (!strcmp(line, "!end\n")) {
			ended = 1;
			break;
		}
		if (len + (size_t)got + 1 > cap) {
			cap = (len + (size_t)got + 1) * 2;
			char *t = realloc(d->text, cap);
			if (!t)
				break;
			d->text = t;
		}
		memcpy(d->text + len, line, (size_t)got);
		len += (size_t)got;
		lines++;
	}
	free(line);
	if (!ended)
		DIFF("leasectl: python3 reading its --json output stopped");
	if (!d->text && !(d->text = calloc(1, 1)))
		DIFF("out of memory");
	d->text[len] = '\0';
	d->v = calloc(lines + 1, sizeof(*d->v));
	if (!d->v)
		DIFF("out of memory");
	for (char *p = d->text, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		char *t1 = strchr(p, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!t2)
			continue;
		*t1 = *t2 = '\0';
		jline *l = &d->v[d->n++];
		l->label = p;
		l->path = t1 + 1;
		l->val = t2 + 1;
	}
	return 0;
}

/* The value at label, path (printf-style), or NULL when absent. */
static const char *jv(const jdoc *d, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static const char *jv(const jdoc *d, const char *label, const char *fmt, ...)
{
	char path[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].label, label) && !strcmp(d->v[i].path, path))
			return d->v[i].val;
	return NULL;
}

/* An integer (null, false or absent: 0; true: 1). */
static int64_t jint(const char *v)
{
	if (!v || *v == '~' || *v == '"')
		return 0;
	if (!strcmp(v, "true"))
		return 1;
	return strtoll(v, NULL, 10);
}

/* A string into buf (unescaped); 1 when it was a string, 0 for null or absent. */
static int jstr(const char *v, char *buf, size_t size)
{
	size_t k = 0;
	if (size)
		buf[0] = '\0';
	if (!v || *v != '"')
		return 0;
	for (v++; *v && k + 1 < size; v++) {
		char c = *v;
		if (c == '\\' && v[1]) {
			v++;
			c = *v == 't' ? '\t' : *v == 'n' ? '\n' : *v;
		}
		buf[k++] = c;
	}
	buf[k] = '\0';
	return 1;
}

/* The exit status of command label as an lq_status: 0 is LQ_OK, a "not
 * found" failure LQ_NOTFOUND, anything else LQ_ERROR. */
static lq_status jstatus(const jdoc *d, const char *label)
{
	char err[512];
	int64_t rc = jint(jv(d, label, "!exit"));
	jstr(jv(d, label, "!err"), err, sizeof(err));
	if (rc == 0)
		return jv(d, label, "!bad") ? LQ_ERROR : LQ_OK;
	return rc == 1 && strstr(err, "not found") ? LQ_NOTFOUND : LQ_ERROR;
}

#define JI(label, ...) jint(jv(d, label, __VA_ARGS__))

static void j_lease(const jdoc *d, const char *label, const char *pre, lq_lease *l)
{
	char kind[16];
	memset(l, 0, sizeof(*l));
	jstr(jv(d, label, "%sname", pre), l->name, sizeof(l->name));
	jstr(jv(d, label, "%sowner", pre), l->owner, sizeof(l->owner));
	l->token = JI(label, "%stoken", pre);
	l->acquired_at = JI(label, "%sacquired_at", pre);
	l->expires_at = JI(label, "%sexpires_at", pre);
	l->now = JI(label, "%snow", pre);
	jstr(jv(d, label, "%skind", pre), kind, sizeof(kind));
	l->kind = !strcmp(kind, "slot") ? LQ_LEASE_SLOT : !strcmp(kind, "read") ? LQ_LEASE_READ : LQ_LEASE_EXCLUSIVE;
	l->slots = (int)JI(label, "%sslots", pre);
	l->slot = JI(label, "%sslot", pre);
}

static void j_task(const jdoc *d, const char *label, const char *pre, stask *st)
{
	lq_task *t = &st->t;
	memset(st, 0, sizeof(*st));
	t->id = JI(label, "%sid", pre);
	jstr(jv(d, label, "%squeue", pre), t->queue, sizeof(t->queue));
	jstr(jv(d, label, "%sname", pre), t->name, sizeof(t->name));
	t->run_at = JI(label, "%srun_at", pre);
	t->attempts = (int)JI(label, "%sattempts", pre);
	t->max_attempts = (int)JI(label, "%smax_attempts", pre);
	t->priority = (int)JI(label, "%spriority", pre);
	jstr(jv(d, label, "%sunique_key", pre), t->unique_key, sizeof(t->unique_key));
	jstr(jv(d, label, "%sclaim_owner", pre), t->claim_owner, sizeof(t->claim_owner));
	t->claim_until = JI(label, "%sclaim_until", pre);
	t->every_ms = JI(label, "%severy_ms", pre);
	t->paused = (int)JI(label, "%spaused", pre);
	st->has_err = jstr(jv(d, label, "%slast_error", pre), st->err, sizeof(st->err));
	t->created_at = JI(label, "%screated_at", pre);
	t->dead = (int)JI(label, "%sdead", pre);
	t->died_at = JI(label, "%sdied_at", pre);
	t->now = JI(label, "%snow", pre);
}

static void j_queue(const jdoc *d, const char *label, const char *pre, lq_queue_info *q)
{
	memset(q, 0, sizeof(*q));
	jstr(jv(d, label, "%sname", pre), q->name, sizeof(q->name));
	q->paused = (int)JI(label, "%spaused", pre);
	q->tasks = JI(label, "%stasks", pre);
	q->due = JI(label, "%sdue", pre);
	q->dead = JI(label, "%sdead", pre);
	q->next_run_at = JI(label, "%snext_run_at", pre);
}

static void j_runs(const jdoc *d, const char *label, slist *l)
{
	l->st = jstatus(d, label);
	int64_t n = JI(label, "#");
	for (int64_t i = 0; i < n; i++) {
		lq_run r;
		memset(&r, 0, sizeof(r));
		r.id = JI(label, "%lld.id", (long long)i);
		r.task_id = JI(label, "%lld.task_id", (long long)i);
		r.run_at = JI(label, "%lld.run_at", (long long)i);
		jstr(jv(d, label, "%lld.queue", (long long)i), r.queue, sizeof(r.queue));
		jstr(jv(d, label, "%lld.name", (long long)i), r.name, sizeof(r.name));
		jstr(jv(d, label, "%lld.worker", (long long)i), r.worker, sizeof(r.worker));
		r.attempt = (int)JI(label, "%lld.attempt", (long long)i);
		r.started_at = JI(label, "%lld.started_at", (long long)i);
		r.ended_at = JI(label, "%lld.ended_at", (long long)i);
		char out[32], err[M_ERR];
		jstr(jv(d, label, "%lld.outcome", (long long)i), out, sizeof(out));
		r.outcome = !strcmp(out, "done") ? LQ_RUN_DONE : !strcmp(out, "failed") ? LQ_RUN_FAILED
			  : !strcmp(out, "timed_out") ? LQ_RUN_TIMED_OUT : !strcmp(out, "dead") ? LQ_RUN_DEAD : 99;
		int has = jstr(jv(d, label, "%lld.error", (long long)i), err, sizeof(err));
		r.error = has ? err : NULL;
		on_run(&r, l);
	}
}

#define LC_STATS_RECENT_MS (3600 * 1000) /* stats: runs_last_hour */

/* stats --format json against the model and the listings read with it. */
static int cmp_stats(const model *m, const snap *s, const jdoc *d, char *why, size_t wsize)
{
	/* Its "now" was read first, the rest after: at instants up to the end
	 * of leasectl's reads. */
	span now = {JI("st", "now"), s->now.hi};
	lq_lease_counts lc = model_lease_counts(m);
	if (JI("st", "leases_total.taken") != lc.taken || JI("st", "leases_total.lost") != lc.lost ||
	    JI("st", "leases_total.broken") != lc.broken)
		DIFF("leases_total taken %lld lost %lld broken %lld, model %lld %lld %lld",
		     (long long)JI("st", "leases_total.taken"), (long long)JI("st", "leases_total.lost"),
		     (long long)JI("st", "leases_total.broken"), (long long)lc.taken, (long long)lc.lost,
		     (long long)lc.broken);
	lq_run_counts lo, hi, g = {JI("st", "runs_last_hour.done"), JI("st", "runs_last_hour.failed"),
				   JI("st", "runs_last_hour.timed_out"), JI("st", "runs_last_hour.dead"), 0};
	window_counts(m, -1, LC_STATS_RECENT_MS, now, &lo, &hi);
	if (!counts_within(&g, &lo, &hi))
		DIFF("runs_last_hour done %lld failed %lld dead %lld, model done %lld-%lld failed %lld-%lld dead %lld-%lld",
		     (long long)g.done, (long long)g.failed, (long long)g.dead, (long long)lo.done, (long long)hi.done,
		     (long long)lo.failed, (long long)hi.failed, (long long)lo.dead, (long long)hi.dead);
	int64_t leases = 0, held_lo = 0, held_hi = 0, live = 0, dead = 0, due_lo = 0, due_hi = 0;
	for (int i = 0; i < M_LEASES; i++) {
		const mlease *l = &m->leases[i];
		leases += l->used;
		held_hi += l->used && l->owner[0] && l->expires_at.hi > now.lo;
		held_lo += l->used && l->owner[0] && l->expires_at.hi > now.hi;
	}
	for (int i = 0; i < M_TASKS; i++) {
		const mtask *t = &m->tasks[i];
		live += t->used && !t->dead;
		dead += t->used && t->dead;
		due_lo += listed_due(t, now.lo);
		due_hi += listed_due(t, now.hi);
	}
	int64_t held = JI("st", "leases.held"), due = JI("st", "tasks.due");
	if (JI("st", "leases.total") != leases || held < held_lo || held > held_hi || JI("st", "tasks.live") != live ||
	    JI("st", "tasks.dead") != dead || due < due_lo || due > due_hi)
		DIFF("leases %lld held %lld, tasks live %lld due %lld dead %lld at [%lld, %lld]; model %lld %lld-%lld, "
		     "%lld %lld-%lld %lld",
		     (long long)JI("st", "leases.total"), (long long)held, (long long)JI("st", "tasks.live"),
		     (long long)due, (long long)JI("st", "tasks.dead"), (long long)now.lo, (long long)now.hi,
		     (long long)leases, (long long)held_lo, (long long)held_hi, (long long)live, (long long)due_lo,
		     (long long)due_hi, (long long)dead);
	/* its queues are the queue list's (but for due, read at its own instant) */
	if (JI("st", "queues.#") != (int64_t)s->nqueues)
		DIFF("%lld queues, queue list %zu", (long long)JI("st", "queues.#"), s->nqueues);
	for (size_t i = 0; i < s->nqueues; i++) {
		lq_queue_info q;
		char pre[32];
		snprintf(pre, sizeof(pre), "queues.%zu.", i);
		j_queue(d, "st", pre, &q);
		const lq_queue_info *w = &s->queues[i];
		if (strcmp(q.name, w->name) || q.paused != w->paused || q.tasks != w->tasks || q.dead != w->dead ||
		    q.next_run_at != w->next_run_at)
			DIFF("queue %s: paused %d tasks %lld dead %lld next %lld; queue list: %s %d %lld %lld %lld", q.name,
			     q.paused, (long long)q.tasks, (long long)q.dead, (long long)q.next_run_at, w->name, w->paused,
			     (long long)w->tasks, (long long)w->dead, (long long)w->next_run_at);
	}
	return 0;
}

/* The clock leasectl's own connections read: the database's on a server;
 * on SQLite the real time (the test clock lives in this process only). */
static int64_t lc_clock(env *e)
{
	if (!e->sqlite)
		return db_now(e);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* leasectl's listings must show what the model (and the API, compared
 * with it after the last operation) says. */
static int leasectl_check(env *e, char *why, size_t wsize)
{
	model *m = malloc(sizeof(*m));
	snap *s = calloc(1, sizeof(*s));
	char cmdbuf[48][160], *cmds[48];
	size_t nc = 0;
	jdoc doc, *d = &doc;
	int rc = -1;
	memset(&doc, 0, sizeof(doc));
	if (!m || !s) {
		snprintf(why, wsize, "out of memory");
		goto out;
	}
	*m = e->m;
	s->since_ms[0] = e->since[0];
	s->since_ms[1] = e->since[1];
#define CMD(...) (void)(nc < 48 ? (snprintf(cmdbuf[nc], sizeof(cmdbuf[nc]), __VA_ARGS__), cmds[nc] = cmdbuf[nc], nc++) : 0)
	CMD("ll=lease list");
	for (int i = 0; i < M_LEASES; i++)
		CMD("ls%d=lease show %s", i, m_lease_names[i]);
	CMD("tl=task list");
	CMD("td=task list --dead");
	CMD("tdue=task list --due");
	CMD("ql=queue list");
	CMD("st=stats --format json");
	/* task show: the first and last live task, the first dead one and one
	 * that is gone (or never was) */
	int64_t first = 0, last = 0, dead = 0, gone = m->ngone ? m->gone_ids[m->ngone - 1] : 999999;
	for (int i = 0; i < M_TASKS; i++) {
		const mtask *t = &m->tasks[i];
		if (!t->used || !t->id)
			continue;
		if (t->dead)
			dead = !dead || t->id < dead ? t->id : dead;
		else {
			first = !first || t->id < first ? t->id : first;
			last = t->id > last ? t->id : last;
		}
	}
	int64_t show[4] = {first, last, dead, gone};
	for (int i = 0; i < 4; i++)
		if (show[i])
			add_id(s->get_ids, &s->ngets, M_TASKS * 2, show[i]);
	for (size_t i = 0; i < s->ngets; i++)
		CMD("ts%zu=task show %lld", i, (long long)s->get_ids[i]);
	/* task history: by id (the tasks of the oldest and the newest run),
	 * and some of the filters */
	const mrun *old = NULL, *new = NULL;
	for (int i = 0; i < M_RUNS; i++) {
		const mrun *r = &m->runs[i];
		if (r->state != RUN_WRITTEN)
			continue;
		if (!old || r->seq < old->seq)
			old = r;
		if (!new || r->seq > new->seq)
			new = r;
	}
	if (old)
		add_id(s->task_ids, &s->ntask_ids, 2, old->task_id);
	if (new)
		add_id(s->task_ids, &s->ntask_ids, 2, new->task_id);
	if (!s->ntask_ids && first)
		add_id(s->task_ids, &s->ntask_ids, 2, first);
	for (size_t i = 0; i < s->ntask_ids; i++)
		CMD("hid%zu=task history %lld --limit %d", i, (long long)s->task_ids[i], LQ_RUN_LIST_MAX);
	for (int k = 0; k < RF__COUNT; k++)
		s->lists[k].skip = 1;
	static const int lc_filters[] = {RF_DEFAULT, RF_Q1, RF_N0, RF_S1, RF_Q0N0S1, RF_LIMIT3};
	for (size_t i = 0; i < sizeof(lc_filters) / sizeof(lc_filters[0]); i++) {
		int k = lc_filters[i];
		lq_run_filter f;
		run_filter(e, k, &f);
		char opts[100] = ""; /* short names: fits cmdbuf with room */
		size_t o = 0;
		if (f.queue)
			o += (size_t)snprintf(opts + o, sizeof(opts) - o, " --queue %s", f.queue);
		if (f.name)
			o += (size_t)snprintf(opts + o, sizeof(opts) - o, " --name %s", f.name);
		if (f.since_ms)
			o += (size_t)snprintf(opts + o, sizeof(opts) - o, " --since %lldms", (long long)f.since_ms);
		if (k != RF_DEFAULT)
			snprintf(opts + o, sizeof(opts) - o, " --limit %zu", f.limit);
		CMD("h%d=task history%s", k, opts);
		s->lists[k].skip = 0;
	}
#undef CMD
	s->now.lo = lc_clock(e) - 1;
	if (lc_run(e, cmds, nc, d, why, wsize) != 0)
		goto out;
	s->now.hi = lc_clock(e) + 1;
	for (size_t i = 0; i < nc; i++) {
		char *label = cmds[i], *eq = strchr(label, '=');
		*eq = '\0';
		lq_status st = jstatus(d, label);
		char err[300];
		jstr(jv(d, label, "!err"), err, sizeof(err));
		if (st != LQ_OK && strncmp(label, "ts", 2) && strncmp(label, "ls", 2)) {
			snprintf(why, wsize, "leasectl --json %s: exit %lld: %s%s", eq + 1, (long long)JI(label, "!exit"),
				 err, jv(d, label, "!bad") ? " (not JSON)" : "");
			*eq = '=';
			goto out;
		}
		*eq = '=';
	}
	/* leases */
	int64_t n = JI("ll", "#");
	for (int64_t i = 0; i < n && s->nleases < 16; i++) {
		char pre[32];
		snprintf(pre, sizeof(pre), "%lld.", (long long)i);
		lq_lease *l = &s->leases[s->nleases];
		j_lease(d, "ll", pre, l);
		/* held: what lq_lease_held says of the row */
		if (JI("ll", "%sheld", pre) != lq_lease_held(l)) {
			snprintf(why, wsize, "leasectl lease list: %s held %lld at %lld, expires_at %lld", l->name,
				 (long long)JI("ll", "%sheld", pre), (long long)l->now, (long long)l->expires_at);
			goto out;
		}
		s->nleases++;
	}
	for (int i = 0; i < M_LEASES; i++) {
		char label[24];
		snprintf(label, sizeof(label), "ls%d", i);
		s->lease_get[i] = jstatus(d, label);
		j_lease(d, label, "", &s->lease_one[i]);
	}
	/* tasks */
	struct {
		const char *label;
		stask *rows;
		size_t *n;
	} lists[] = {{"tl", s->live, &s->nlive}, {"td", s->dead, &s->ndead}};
	for (int k = 0; k < 2; k++) {
		n = JI(lists[k].label, "#");
		for (int64_t i = 0; i < n && *lists[k].n < M_TASKS; i++) {
			char pre[32];
			snprintf(pre, sizeof(pre), "%lld.", (long long)i);
			j_task(d, lists[k].label, pre, &lists[k].rows[(*lists[k].n)++]);
		}
	}
	n = JI("tdue", "#");
	for (int64_t i = 0; i < n; i++) {
		stask t;
		char pre[32];
		snprintf(pre, sizeof(pre), "%lld.", (long long)i);
		j_task(d, "tdue", pre, &t);
		for (int q = 0; q < M_QUEUES; q++)
			if (!strcmp(t.t.queue, m_queue_names[q]) && s->ndue[q] < M_TASKS) {
				s->due[q][s->ndue[q]++] = t.t.id;
				s->due_now[q] = t.t.now;
			}
	}
	for (size_t i = 0; i < s->ngets; i++) {
		char label[24];
		snprintf(label, sizeof(label), "ts%zu", i);
		j_task(d, label, "", &s->gets[i]);
		s->gets[i].st = jstatus(d, label);
	}
	n = JI("ql", "#");
	for (int64_t i = 0; i < n && s->nqueues < 8; i++) {
		char pre[32];
		snprintf(pre, sizeof(pre), "%lld.", (long long)i);
		j_queue(d, "ql", pre, &s->queues[s->nqueues++]);
	}
	/* the history */
	for (size_t i = 0; i < s->ntask_ids; i++) {
		char label[24];
		snprintf(label, sizeof(label), "hid%zu", i);
		j_runs(d, label, &s->per_task[i]);
	}
	for (int k = 0; k < RF__COUNT; k++) {
		char label[24];
		snprintf(label, sizeof(label), "h%d", k);
		if (!s->lists[k].skip)
			j_runs(d, label, &s->lists[k]);
	}
	char sub[1024];
	if (cmp_leases(m, s, sub, sizeof(sub)) || cmp_tasks(m, s, sub, sizeof(sub)) ||
	    cmp_history(m, s, e->worker, sub, sizeof(sub))) {
		snprintf(why, wsize, "leasectl --json: %s", sub);
		goto out;
	}
	if (cmp_stats(m, s, d, sub, sizeof(sub)) != 0) {
		snprintf(why, wsize, "leasectl --json stats: %s", sub);
		goto out;
	}
	rc = 0;
out:
	jdoc_free(&doc);
	if (s)
		snap_free(s);
	free(s);
	free(m);
	return rc;
}

static int run_ops(void *ctx, const op *ops, size_t n, char *why, size_t wsize)
{
	env *e = ctx;
	if (fresh(e) != 0) {
		/* Says nothing of the sequence: shrinking on it would only
		 * shrink the database's trouble. */
		fprintf(stderr, "model: cannot start a sequence from a fresh database; stopping\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		e->nops_run++;
		if (step(e, &ops[i], why, wsize) != 0)
			return (int)i + 1;
	}
	if (e->lc_now && n > 0) {
		if (leasectl_check(e, why, wsize) != 0)
			return (int)n;
		e->lc_checks++;
	}
	return 0;
}

/* ------------------------------------------------------------------ main */

/* host:pid, as the library names the worker of a run */
static void worker_name(char *buf, size_t size)
{
	char host[64] = "";
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(buf, size, "%s:%ld", host, (long)getpid());
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--backend sqlite|postgres|mysql] [--faults] [--sequences N] [--length L]\n"
		"          [--seed S] [--replay SEED] [--long SECONDS] [--leasectl PATH]\n"
		"          [--leasectl-every N] [--tick MS] [-v]\n",
		argv0);
	exit(64);
}

/* Run one sequence; on failure print it, shrink it and print that. */
static int one_sequence(env *e, uint64_t seed, size_t length, const gen_opts *g, long index)
{
	e->lc_now = e->leasectl && e->lc_every > 0 && index % e->lc_every == 0;
	op *ops = calloc(length, sizeof(*ops));
	char why[8192];
	if (!ops)
		return 1;
	gen_sequence(seed, g, ops, length);
	if (e->verbose) {
		printf("sequence %llu:\n", (unsigned long long)seed);
		transcript(ops, length, stdout);
	}
	int failed = run_ops(e, ops, length, why, sizeof(why));
	if (!failed) {
		free(ops);
		return 0;
	}
	size_t n = (size_t)failed;
	printf("FAILED: backend %s%s, seed %llu, at operation %zu of %zu:\n  %s\n", e->backend,
	       e->faults ? " (faults)" : "", (unsigned long long)seed, n, length, why);
	transcript(ops, n, stdout);
	printf("shrinking...\n");
	fflush(stdout);
	e->verbose = 0;
	shrink(run_ops, e, ops, &n, why, sizeof(why));
	/* Run the shrunk sequence once more for its own message, saying
	 * what each call returned. */
	printf("the minimal sequence once more:\n");
	int verbose = e->verbose;
	e->verbose = 2;
	int again = run_ops(e, ops, n, why, sizeof(why));
	e->verbose = verbose;
	printf("MINIMAL (%zu operations, seed %llu%s):\n", n, (unsigned long long)seed,
	       again ? "" : ", did not fail again: timing?");
	transcript(ops, n, stdout);
	printf("  => %s\n", why);
	char tick[32] = "";
	if (e->tick)
		snprintf(tick, sizeof(tick), " --tick %lld", (long long)e->tick);
	printf("replay: tests/model/run --backend %s%s%s --replay %llu --length %zu\n", e->backend,
	       e->faults ? " --faults" : "", tick, (unsigned long long)seed, length);
	fflush(stdout);
	free(ops);
	return 1;
}

int main(int argc, char **argv)
{
	env e;
	memset(&e, 0, sizeof(e));
	e.backend = "sqlite";
	e.leasectl = getenv("LEASECTL");
	e.lc_every = 1;
	long sequences = 200, length = 40, long_s = 0;
	uint64_t seed = (uint64_t)time(NULL) * 1000 + (uint64_t)getpid() % 1000;
	int replay = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--backend") && v)
			e.backend = argv[++i];
		else if (!strcmp(a, "--faults"))
			e.faults = 1;
		else if (!strcmp(a, "--sequences") && v)
			sequences = atol(argv[++i]);
		else if (!strcmp(a, "--length") && v)
			length = atol(argv[++i]);
		else if (!strcmp(a, "--seed") && v)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(a, "--replay") && v) {
			seed = strtoull(argv[++i], NULL, 10);
			replay = 1;
		} else if (!strcmp(a, "--tick") && v)
			e.tick = atol(argv[++i]);
		else if (!strcmp(a, "--long") && v)
			long_s = atol(argv[++i]);
		else if (!strcmp(a, "--leasectl") && v)
			e.leasectl = argv[++i];
		else if (!strcmp(a, "--leasectl-every") && v)
			e.lc_every = atoi(argv[++i]);
		else if (!strcmp(a, "-v"))
			e.verbose++;
		else
			usage(argv[0]);
	}
	if (length < 1 || sequences < 1)
		usage(argv[0]);
	e.sqlite = !strcmp(e.backend, "sqlite");
	if ((e.faults || e.tick) && !e.sqlite) {
		fprintf(stderr, "model: --faults and --tick wrap the sqlite backend only\n");
		return 64;
	}
	e.dsn = lqt_dsn(e.backend);
	lq_db *db = lqt_open_fresh(e.dsn);
	if (!db)
		return 1;
	lq_close(db);
	if (e.sqlite) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		lqt_clock_freeze((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	}
	e.since[0] = e.sqlite ? 1500 : 150;
	e.since[1] = e.sqlite ? 6000 : 800;
	worker_name(e.worker, sizeof(e.worker));
	gen_opts g = {!e.sqlite, e.faults};
	printf("model: backend %s%s, seed %llu, %s\n", e.backend, e.faults ? " with faults" : "",
	       (unsigned long long)seed, replay ? "replay" : "");
	fflush(stdout);
	int64_t start = lqt_mono_ms();
	long done = 0;
	int rc = 0;
	for (long i = 0; replay ? i < 1 : long_s ? lqt_mono_ms() - start < long_s * 1000 : i < sequences; i++) {
		if (one_sequence(&e, replay ? seed : seed + (uint64_t)i, (size_t)length, &g, i) != 0) {
			rc = 1;
			break;
		}
		done++;
	}
	printf("model: %ld sequences, %zu operations in %.1f s: %s\n", done, e.nops_run,
	       (double)(lqt_mono_ms() - start) / 1000.0, rc ? "FAILED" : "all agree with the model");
	if (e.lc_checks)
		printf("model: leasectl --json agreed at the end of %ld sequences\n", e.lc_checks);
	if (e.faults)
		printf("model: %ld injected faults hit a call, %ld of them left its outcome unknown\n", e.faults_fired,
		       e.faults_unknown);
	if (lc_req) {
		fclose(lc_req); /* python3 ends at the end of its input */
		fclose(lc_ans);
	}
	drop_driver_state(&e);
	lq_close(e.w);
	lq_close(e.o);
	return rc;
}
