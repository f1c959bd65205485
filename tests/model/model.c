/*
 * model.c - the reference model: leases, tasks, the run history and the
 * counters as lib/leaseq.h and ARCHITECTURE.md describe them, written
 * without SQL.  See model.h for how times and ambiguity are handled.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

const char *const m_queue_names[M_QUEUES] = {"default", "q2"};
const char *const m_task_names[M_NAMES] = {"a", "b", "c"};
const char *const m_lease_names[M_LEASES] = {"L1", "L2", "L3"};
const char *const m_ukey_names[M_UKEYS] = {"k1", "k2"};

#define BACKOFF_BASE_MS 1000
#define BACKOFF_CAP_MS (3600 * 1000)
#define RUN_BATCH 64
#define RUN_BATCH_MS 1000

static int fail(char *why, size_t wsize, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, wsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* The status the call must return, or any other is a failure. */
#define EXPECT(st, want)                                                                              \
	do {                                                                                          \
		if ((st) != (want))                                                                   \
			return fail(why, wsize, "status %s, model expects %s", lq_status_str(st),     \
				    lq_status_str(want));                                             \
	} while (0)

void m_init(model *m)
{
	memset(m, 0, sizeof(*m));
	m->next_seq = 1;
}

mtask *m_task_by_id(model *m, int64_t id)
{
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used && m->tasks[i].id == id && id > 0)
			return &m->tasks[i];
	return NULL;
}

int m_ntasks_live(const model *m)
{
	int n = 0;
	for (int i = 0; i < M_TASKS; i++)
		n += m->tasks[i].used && !m->tasks[i].dead;
	return n;
}

static void forget_task(model *m, mtask *t)
{
	if (t->id > 0 && m->ngone < M_TASKS)
		m->gone_ids[m->ngone++] = t->id;
	memset(t, 0, sizeof(*t));
}

static mtask *new_task(model *m)
{
	for (int i = 0; i < M_TASKS; i++)
		if (!m->tasks[i].used) {
			memset(&m->tasks[i], 0, sizeof(m->tasks[i]));
			m->tasks[i].used = 1;
			return &m->tasks[i];
		}
	return NULL;
}

static void set_error(mtask *t, const char *e)
{
	if (!e) {
		t->has_error = 0;
		t->error[0] = '\0';
		return;
	}
	t->has_error = 1;
	snprintf(t->error, sizeof(t->error), "%s", e);
}

int m_claimable(const model *m, const mtask *t, int64_t now)
{
	return t->used && !t->dead && t->run_at.hi <= now && !t->paused && !m->queue_paused[t->queue] &&
	       (!t->has_claim || t->claim_until.hi <= now);
}

/* The equal-jitter back-off of attempt: [d/2, d]. */
static span backoff(int attempt)
{
	int64_t d = BACKOFF_BASE_MS;
	for (int i = 1; i < attempt && d < BACKOFF_CAP_MS; i++)
		d *= 2;
	if (d > BACKOFF_CAP_MS)
		d = BACKOFF_CAP_MS;
	span s = {d / 2, d};
	return s;
}

static span sp_sum(span a, span b)
{
	span s = {a.lo + b.lo, a.hi + b.hi};
	return s;
}

/* The next occurrence of an interval task whose occurrence `seen` came at now. */
static int64_t next_every(int64_t every, int64_t seen, int64_t now)
{
	int64_t k = now >= seen ? (now - seen) / every + 1 : 1;
	return seen + k * every;
}

static void add_bound(int64_t *out, size_t *n, size_t max, span s, int64_t v)
{
	if (v > s.lo && v <= s.hi && *n < max)
		out[(*n)++] = v;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

size_t m_boundaries(const model *m, span s, int64_t *out, size_t max)
{
	size_t n = 0;
	if (s.lo == s.hi)
		return 0;
	for (int i = 0; i < M_TASKS; i++) {
		const mtask *t = &m->tasks[i];
		if (!t->used || t->dead)
			continue;
		add_bound(out, &n, max, s, t->run_at.hi);
		if (t->has_claim)
			add_bound(out, &n, max, s, t->claim_until.hi);
		if (t->every_ms > 0)
			for (int64_t v = t->run_at.hi + t->every_ms; v <= s.hi; v += t->every_ms)
				add_bound(out, &n, max, s, v);
	}
	for (int i = 0; i < M_LEASES; i++)
		if (m->leases[i].used)
			add_bound(out, &n, max, s, m->leases[i].expires_at.hi);
	qsort(out, n, sizeof(*out), cmp_i64);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || out[u - 1] != out[i])
			out[u++] = out[i];
	return u;
}

/* ---------------------------------------------------------------- history */

static mrun *new_run(model *m)
{
	for (int i = 0; i < M_RUNS; i++)
		if (!m->runs[i].state) {
			memset(&m->runs[i], 0, sizeof(m->runs[i]));
			return &m->runs[i];
		}
	return NULL;
}

static int npending(const model *m)
{
	int n = 0;
	for (int i = 0; i < M_RUNS; i++)
		n += m->runs[i].state == RUN_PENDING;
	return n;
}

/* A run's row as the library writes it from the claimed task. */
static mrun *record(model *m, const mctx *c, const mjob *j, lq_outcome o, const char *error)
{
	mrun *r = new_run(m);
	if (!r)
		return NULL;
	r->task_id = j->t.id;
	r->run_at = j->t.run_at;
	r->queue = j->t.queue;
	r->name = j->t.name;
	r->attempt = j->mode == LQ_AT_LEAST_ONCE ? j->t.attempts : j->t.attempts + 1;
	r->started_at = j->started_at;
	r->outcome = o;
	if (error) {
		r->has_error = 1;
		snprintf(r->error, sizeof(r->error), "%s", error);
	}
	/* A failure's row, or any row of an at-least-once settlement, is
	 * written by the call; an at-most-once success waits in the handle. */
	if (j->mode == LQ_AT_MOST_ONCE && o == LQ_RUN_DONE) {
		if (npending(m) == 0) {
			m->batch_first_lo = c->mono_lo;
			m->batch_first_hi = c->mono_hi;
		}
		r->state = RUN_PENDING;
		r->seq = m->next_seq++; /* the order kept back; the write gives another */
		r->mono_lo = c->mono_lo;
		r->mono_hi = c->mono_hi;
		r->ended_at = sp(0);
		return r;
	}
	r->state = c->unknown ? RUN_MAYBE : RUN_WRITTEN;
	r->seq = m->next_seq++;
	r->ended_at = c->at;
	return r;
}

int m_ack_flushes(const model *m, const mctx *c)
{
	/* (asked before the ack's own row is added) */
	if (npending(m) == 0)
		return 0;
	if (npending(m) + 1 >= RUN_BATCH)
		return 1;
	int64_t lo = c->mono_lo - m->batch_first_hi, hi = c->mono_hi - m->batch_first_lo;
	if (lo >= RUN_BATCH_MS + 2)
		return 1;
	if (hi < RUN_BATCH_MS - 2)
		return 0;
	return -1;
}

void m_flush(model *m, const mctx *c)
{
	/* Rows go in the order they were kept back (array order is not that
	 * order once rows were removed: go by the monotonic time, then index). */
	for (;;) {
		mrun *first = NULL;
		for (int i = 0; i < M_RUNS; i++) {
			mrun *r = &m->runs[i];
			if (r->state == RUN_PENDING && (!first || r->seq < first->seq))
				first = r;
		}
		if (!first)
			break;
		/* ended_at: the write's clock less the age the worker measured
		 * (its monotonic clock), never before started_at; 2 ms for the
		 * two clocks' truncation. */
		int64_t age_lo = c->mono_lo - first->mono_hi - 2, age_hi = c->mono_hi - first->mono_lo + 2;
		if (age_lo < 0)
			age_lo = 0;
		span e = {c->at.lo - age_hi, c->at.hi - age_lo};
		if (e.lo < first->started_at.lo)
			e.lo = first->started_at.lo;
		if (e.hi < first->started_at.hi)
			e.hi = first->started_at.hi;
		first->ended_at = e;
		first->state = c->unknown ? RUN_MAYBE : RUN_WRITTEN;
		first->seq = m->next_seq++;
	}
}

int m_run_cmp(const mrun *a, const mrun *b)
{
	if (a->ended_at.hi != b->ended_at.hi)
		return a->ended_at.hi > b->ended_at.hi ? -1 : 1;
	if (a->id != b->id)
		return a->id > b->id ? -1 : 1;
	return 0;
}

/* ----------------------------------------------------------------- leases */

static mhandle *new_handle(model *m, int *idx)
{
	for (int i = 0; i < M_HANDLES; i++)
		if (!m->handles[i].used) {
			memset(&m->handles[i], 0, sizeof(m->handles[i]));
			m->handles[i].used = 1;
			*idx = i;
			return &m->handles[i];
		}
	return NULL;
}

int m_lease_acquire(model *m, const mctx *c, int lease, int64_t ttl, lq_status st, const lq_lease *out,
		    char *why, size_t wsize)
{
	mlease *l = &m->leases[lease];
	int64_t now = c->now.lo;
	if (l->used && l->expires_at.hi > now) {
		EXPECT(st, LQ_BUSY);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	if (!l->used) {
		memset(l, 0, sizeof(*l));
		l->used = 1;
	} else if (l->owner[0]) {
		l->lost++; /* taken from an owner whose lease expired in its hands */
	}
	l->token++;
	l->acquired_at = c->at;
	l->expires_at = sp_add(c->at, ttl);
	if (c->unknown) {
		snprintf(l->owner, sizeof(l->owner), "?");
		return 0;
	}
	if (strcmp(out->name, m_lease_names[lease]) || out->token != l->token || !out->owner[0])
		return fail(why, wsize, "acquired %s: name \"%s\" token %lld, model expects token %lld", m_lease_names[lease],
			    out->name, (long long)out->token, (long long)l->token);
	snprintf(l->owner, sizeof(l->owner), "%s", out->owner);
	int h;
	mhandle *mh = new_handle(m, &h);
	if (mh) {
		mh->lease = lease;
		mh->token = out->token;
		snprintf(mh->owner, sizeof(mh->owner), "%s", out->owner);
	}
	return 0;
}

/* The handle is the lease's valid holder (owner and token) at now. */
static int holds(const model *m, const mhandle *h, int64_t now, int need_live)
{
	const mlease *l = &m->leases[h->lease];
	return l->used && strcmp(l->owner, h->owner) == 0 && l->token == h->token &&
	       (!need_live || l->expires_at.hi > now);
}

int m_lease_renew(model *m, const mctx *c, int h, int64_t ttl, lq_status st, const lq_lease *out, char *why,
		  size_t wsize)
{
	mhandle *mh = &m->handles[h];
	if (!holds(m, mh, c->now.lo, 1)) {
		EXPECT(st, LQ_LOST);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	m->leases[mh->lease].expires_at = sp_add(c->at, ttl);
	(void)out;
	return 0;
}

int m_lease_release(model *m, const mctx *c, int h, lq_status st, char *why, size_t wsize)
{
	mhandle *mh = &m->handles[h];
	const mlease *cur = &m->leases[mh->lease];
	if (!holds(m, mh, c->now.lo, 0)) {
		/* Released twice by its holder is fine: same token, no owner. */
		EXPECT(st, cur->token == mh->token && !cur->owner[0] ? LQ_OK : LQ_LOST);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	mlease *l = &m->leases[mh->lease];
	l->owner[0] = '\0';
	l->expires_at = c->at;
	return 0;
}

int m_lease_check(model *m, const mctx *c, int h, lq_status st, char *why, size_t wsize)
{
	EXPECT(st, holds(m, &m->handles[h], c->now.lo, 1) ? LQ_OK : LQ_LOST);
	return 0;
}

int m_lease_break(model *m, const mctx *c, int lease, lq_status st, const lq_lease *prev, char *why,
		  size_t wsize)
{
	mlease *l = &m->leases[lease];
	if (!l->used) {
		EXPECT(st, LQ_NOTFOUND);
		return 0;
	}
	if (!c->unknown) {
		EXPECT(st, LQ_OK);
		const char *shown = l->expires_at.hi > prev->now ? l->owner : "";
		if (prev->token != l->token || (strcmp(prev->owner, shown) != 0 && strcmp(shown, "?") != 0))
			return fail(why, wsize, "break %s: previous token %lld owner \"%s\", model %lld \"%s\"",
				    m_lease_names[lease], (long long)prev->token, prev->owner, (long long)l->token,
				    l->owner);
	}
	l->owner[0] = '\0';
	l->token++;
	l->broken++;
	l->expires_at = c->at;
	return 0;
}

/* ------------------------------------------------------------------ tasks */

static mtask *ukey_holder(model *m, int ukey)
{
	if (ukey < 0)
		return NULL;
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used && !m->tasks[i].dead && m->tasks[i].ukey == ukey)
			return &m->tasks[i];
	return NULL;
}

static int64_t max_id(const model *m)
{
	int64_t x = 0;
	for (int i = 0; i < M_TASKS; i++)
		if (m->tasks[i].used && m->tasks[i].id > x)
			x = m->tasks[i].id;
	for (int i = 0; i < m->ngone; i++)
		if (m->gone_ids[i] > x)
			x = m->gone_ids[i];
	return x;
}

int m_task_add(model *m, const mctx *c, const madd *a, lq_status st, int64_t id, int existed, char *why,
	       size_t wsize)
{
	mtask *h = ukey_holder(m, a->ukey);
	if (h) {
		if (c->unknown)
			return 0;
		EXPECT(st, LQ_OK);
		if (!existed || id != h->id)
			return fail(why, wsize, "add with unique key %s: id %lld existed %d, model expects %lld existed 1",
				    m_ukey_names[a->ukey], (long long)id, existed, (long long)h->id);
		return 0;
	}
	if (!c->unknown) {
		EXPECT(st, LQ_OK);
		if (existed || id <= max_id(m))
			return fail(why, wsize, "add: id %lld existed %d, model expects a new id above %lld", (long long)id,
				    existed, (long long)max_id(m));
	}
	mtask *t = new_task(m);
	if (!t)
		return fail(why, wsize, "model: too many tasks");
	t->id = c->unknown ? 0 : id;
	t->queue = a->queue;
	t->name = a->name;
	t->ukey = a->ukey;
	t->priority = a->priority;
	t->max_attempts = a->max_attempts ? a->max_attempts : LQ_DEFAULT_MAX_ATTEMPTS;
	t->every_ms = a->every;
	/* A recurring task's first occurrence is one interval away. */
	t->run_at = sp_add(c->at, a->delay ? a->delay : a->every);
	t->created_at = c->at;
	return 0;
}

/* A recurring task goes on to its next occurrence, unclaimed. */
static void move_on(mtask *t, int64_t next)
{
	t->run_at = sp(next);
	t->owner[0] = '\0';
	t->has_claim = 0;
	t->attempts = 0;
}

/* The claimable tasks of queue at now, best first (priority, run_at, id). */
static int rank_cmp(const void *a, const void *b)
{
	const mtask *x = *(const mtask *const *)a, *y = *(const mtask *const *)b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	if (x->run_at.hi != y->run_at.hi)
		return x->run_at.hi < y->run_at.hi ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static mjob *new_job(model *m)
{
	for (int i = 0; i < M_JOBS; i++)
		if (!m->jobs[i].used) {
			memset(&m->jobs[i], 0, sizeof(m->jobs[i]));
			m->jobs[i].used = 1;
			return &m->jobs[i];
		}
	return NULL;
}

static int check_claimed(const mtask *want, lq_mode mode, const lq_task *got, char *why, size_t wsize)
{
	if (got->id != want->id || strcmp(got->queue, m_queue_names[want->queue]) ||
	    strcmp(got->name, m_task_names[want->name]) || got->run_at != want->run_at.hi ||
	    got->attempts != want->attempts || got->max_attempts != want->max_attempts ||
	    got->priority != want->priority || got->every_ms != want->every_ms || got->mode != mode ||
	    got->recurring != (want->every_ms > 0))
		return fail(why, wsize,
			    "claimed task %lld %s/%s run_at %lld attempts %d/%d prio %d every %lld; model: %lld %s/%s "
			    "run_at %lld attempts %d/%d prio %d every %lld",
			    (long long)got->id, got->queue, got->name, (long long)got->run_at, got->attempts,
			    got->max_attempts, got->priority, (long long)got->every_ms, (long long)want->id,
			    m_queue_names[want->queue], m_task_names[want->name], (long long)want->run_at.hi,
			    want->attempts, want->max_attempts, want->priority, (long long)want->every_ms);
	return 0;
}

/* A claim's candidate that it drops instead of claiming: an expired claim
 * on its last attempt (an at-least-once occurrence, or a one-off task). */
static int claim_drops(const mtask *t, lq_mode mode)
{
	if (!t->owner[0] || t->attempts < t->max_attempts)
		return 0;
	return t->every_ms == 0 || mode == LQ_AT_LEAST_ONCE;
}

static int has_id(const int64_t *ids, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* A claim round's candidates at now, best first, at most room: the
 * claimable tasks of queue but the recurring ones this call claimed
 * already (one occurrence a call). */
static size_t round_cands(model *m, int queue, int64_t now, size_t room, const int64_t *ids, size_t nids,
			  mtask **cand)
{
	size_t nc = 0;
	for (int i = 0; i < M_TASKS; i++) {
		mtask *t = &m->tasks[i];
		if (t->queue == queue && m_claimable(m, t, now) && !(t->every_ms > 0 && has_id(ids, nids, t->id)))
			cand[nc++] = t;
	}
	qsort(cand, nc, sizeof(cand[0]), rank_cmp);
	return nc > room ? room : nc;
}

/* The clock of a claim round after the first: each round reads it anew,
 * so it may have moved on (a claim expired meanwhile, a slot came due)
 * up to the end of the call.  The earliest stretch whose candidates the
 * claim's answer shows: each one it claims is among the tasks returned
 * and not matched yet (ids), and a round that drops none is the last, so
 * it accounts for all of them. */
static int64_t round_now(model *m, const mctx *c, int queue, lq_mode mode, int64_t now, size_t room,
			 const int64_t *ids, size_t nids, const lq_task *claimed, size_t n)
{
	int64_t at[65];
	size_t nat = 1;
	at[0] = now;
	span later = {now, c->at.hi};
	nat += m_boundaries(m, later, at + 1, 64);
	for (size_t a = 0; a < nat; a++) {
		mtask *cand[M_TASKS];
		size_t nc = round_cands(m, queue, at[a], room, ids, nids, cand), picks = 0;
		int drops = 0, ok = 1;
		for (size_t k = 0; k < nc && ok; k++) {
			if (claim_drops(cand[k], mode)) {
				drops++;
				continue;
			}
			int found = 0;
			for (size_t i = 0; i < n; i++)
				if (claimed[i].id == cand[k]->id && !(has_id(ids, nids, claimed[i].id)))
					found = 1;
			ok = found;
			picks++;
		}
		if (ok && (drops > 0 || nids + picks == n))
			return at[a];
	}
	return now;
}

int m_claim(model *m, const mctx *c, int queue, lq_mode mode, size_t max, int64_t ttl, lq_status st,
	    const lq_task *claimed, size_t n, char *why, size_t wsize)
{
	int64_t now = c->now.lo;
	size_t got = 0;
	int64_t ids[M_TASKS]; /* what this call claimed */
	for (int round = 0; round < 8 && got < max; round++) {
		mtask *cand[M_TASKS];
		if (round > 0 && !c->unknown)
			now = round_now(m, c, queue, mode, now, max - got, ids, got, claimed, n);
		size_t nc = round_cands(m, queue, now, max - got, ids, got, cand);
		if (nc == 0)
			break;
		int dropped = 0;
		for (size_t k = 0; k < nc; k++) {
			mtask *t = cand[k];
			mtask before = *t;
			if (t->every_ms > 0 && mode == LQ_AT_LEAST_ONCE && t->owner[0] && t->attempts >= t->max_attempts) {
				/* its worker died holding the last attempt of the occurrence */
				char e[M_ERR];
				snprintf(e, sizeof(e),
					 "occurrence %lld given up: claim expired after attempt %d of %d (worker lost?)",
					 (long long)t->run_at.hi, t->attempts, t->max_attempts);
				set_error(t, e);
				move_on(t, next_every(t->every_ms, t->run_at.hi, now));
				dropped++;
				continue;
			}
			if (t->every_ms == 0 && t->owner[0] && t->attempts >= t->max_attempts) {
				char e[M_ERR];
				snprintf(e, sizeof(e), "claim expired after attempt %d of %d (worker lost?)%s%.400s", t->attempts,
					 t->max_attempts, t->has_error ? "; last error: " : "", t->has_error ? t->error : "");
				set_error(t, e);
				t->dead = 1;
				t->died_at = c->at;
				t->owner[0] = '\0';
				t->has_claim = 0;
				t->paused = 0;
				dropped++;
				continue;
			}
			if (mode == LQ_AT_LEAST_ONCE) {
				t->attempts++;
				t->has_claim = 1;
				t->claim_until = sp_add(c->at, ttl);
				before.attempts = t->attempts;
			} else if (t->every_ms > 0) {
				move_on(t, next_every(t->every_ms, t->run_at.hi, now));
			}
			/* What the claim returned for this task.  The order of the
			 * array is not checked: PostgreSQL returns the one-off
			 * tasks its one statement claimed before the others. */
			const lq_task *g = NULL;
			for (size_t i = 0; !c->unknown && i < n; i++)
				if (claimed[i].id == t->id)
					g = &claimed[i];
			if (!c->unknown && !g) {
				/* What it returned instead, and the clocks, to tell a
				 * boundary of time from a wrong claim. */
				char returned[256] = "";
				size_t o = 0;
				for (size_t i = 0; i < n && o < sizeof(returned); i++)
					o += (size_t)snprintf(returned + o, sizeof(returned) - o, " %lld (run_at %lld, now %lld)",
							      (long long)claimed[i].id, (long long)claimed[i].run_at,
							      (long long)claimed[i].now);
				return fail(why, wsize,
					    "claim returned %zu tasks, model expects task %lld among them (its run_at "
					    "[%lld, %lld], the round's clock %lld, the call's [%lld, %lld]); returned:%s",
					    n, (long long)t->id, (long long)t->run_at.lo, (long long)t->run_at.hi,
					    (long long)now, (long long)c->now.lo, (long long)c->now.hi, returned);
			}
			if (g && check_claimed(&before, mode, g, why, wsize) != 0)
				return -1;
			if (mode == LQ_AT_LEAST_ONCE)
				snprintf(t->owner, sizeof(t->owner), "%s", g ? g->claim_owner : "?");
			mjob *j = g ? new_job(m) : NULL;
			if (j) {
				j->t = before;
				j->mode = mode;
				j->recurring = t->every_ms > 0;
				j->started_at = sp(g->now);
				snprintf(j->t.owner, sizeof(j->t.owner), "%s", mode == LQ_AT_LEAST_ONCE ? g->claim_owner : "");
			}
			if (got < M_TASKS)
				ids[got] = t->id;
			got++;
			if (mode == LQ_AT_MOST_ONCE && t->every_ms == 0)
				forget_task(m, t);
		}
		if (!dropped)
			break;
	}
	if (c->unknown)
		return 0;
	if (n != got)
		return fail(why, wsize, "claim returned %zu tasks, model expects %zu", n, got);
	if (got > 0) {
		EXPECT(st, LQ_OK);
		return 0;
	}
	EXPECT(st, LQ_EMPTY);
	m_flush(m, c); /* nothing to do: the kept-back rows go now */
	return 0;
}

static mjob *job(model *m, int j)
{
	return m->jobs[j].used ? &m->jobs[j] : NULL;
}

/* The at-least-once claim of job j is still on its task (owner). */
static mtask *claim_of(model *m, const mjob *j)
{
	mtask *t = m_task_by_id(m, j->t.id);
	return t && !t->dead && j->t.owner[0] && strcmp(t->owner, j->t.owner) == 0 ? t : NULL;
}

int m_ack(model *m, const mctx *c, int ji, lq_status st, int flush, char *why, size_t wsize)
{
	mjob *j = job(m, ji);
	if (j->mode == LQ_AT_MOST_ONCE) {
		if (!c->unknown)
			EXPECT(st, LQ_OK);
		record(m, c, j, LQ_RUN_DONE, NULL);
		if (flush)
			m_flush(m, c);
		j->used = 0;
		return 0;
	}
	mtask *t = claim_of(m, j);
	if (!t) {
		EXPECT(st, LQ_LOST);
		j->used = 0;
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	if (j->recurring) {
		move_on(t, next_every(t->every_ms, j->t.run_at.hi, c->now.lo));
	} else {
		forget_task(m, t);
	}
	record(m, c, j, LQ_RUN_DONE, NULL);
	j->used = 0;
	return 0;
}

int m_fail(model *m, const mctx *c, int ji, const char *err, lq_status st, char *why, size_t wsize)
{
	mjob *j = job(m, ji);
	if (!c->unknown && j->mode == LQ_AT_MOST_ONCE)
		EXPECT(st, LQ_OK); /* the claim settled the run: its failure is only recorded */
	if (j->mode == LQ_AT_MOST_ONCE && j->recurring) {
		mtask *t = m_task_by_id(m, j->t.id);
		if (t && !t->dead)
			set_error(t, err);
		record(m, c, j, LQ_RUN_FAILED, err);
		j->used = 0;
		return 0;
	}
	if (j->mode == LQ_AT_MOST_ONCE) {
		int attempts = j->t.attempts + 1;
		mtask *holder = ukey_holder(m, j->t.ukey);
		mtask *t = new_task(m);
		*t = j->t;
		t->used = 1;
		t->attempts = attempts;
		t->owner[0] = '\0';
		t->has_claim = 0;
		t->paused = 0;
		t->every_ms = 0;
		lq_outcome o = LQ_RUN_FAILED;
		if (attempts >= j->t.max_attempts) {
			t->dead = 1;
			t->run_at = c->at;
			t->died_at = c->at;
			set_error(t, err);
			o = LQ_RUN_DEAD;
		} else if (holder) {
			char e[M_ERR];
			snprintf(e, sizeof(e), "failed: %.400s; not queued again: unique key \"%s\" is held by a newer task", err,
				 m_ukey_names[t->ukey]);
			t->dead = 1;
			t->run_at = c->at;
			t->died_at = c->at;
			set_error(t, e);
			o = LQ_RUN_DEAD;
		} else {
			t->run_at = sp_sum(c->at, backoff(attempts));
			set_error(t, err);
		}
		/* (the task had left the model with its claim) */
		for (int i = 0; i < m->ngone; i++)
			if (m->gone_ids[i] == t->id)
				m->gone_ids[i] = m->gone_ids[--m->ngone];
		record(m, c, j, o, err);
		j->used = 0;
		return 0;
	}
	mtask *t = claim_of(m, j);
	if (!t) {
		EXPECT(st, LQ_LOST);
		j->used = 0;
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	lq_outcome o = LQ_RUN_FAILED;
	if (j->recurring && j->t.attempts >= j->t.max_attempts) {
		move_on(t, next_every(t->every_ms, j->t.run_at.hi, c->now.lo));
		set_error(t, err);
		o = LQ_RUN_DEAD;
	} else if (j->recurring) {
		t->owner[0] = '\0';
		t->has_claim = 1;
		t->claim_until = sp_sum(c->at, backoff(j->t.attempts));
		set_error(t, err);
	} else if (j->t.attempts >= j->t.max_attempts) {
		t->dead = 1;
		t->died_at = c->at;
		t->owner[0] = '\0';
		t->has_claim = 0;
		t->paused = 0;
		set_error(t, err);
		o = LQ_RUN_DEAD;
	} else {
		t->owner[0] = '\0';
		t->has_claim = 0;
		t->run_at = sp_sum(c->at, backoff(j->t.attempts));
		set_error(t, err);
	}
	record(m, c, j, o, err);
	j->used = 0;
	return 0;
}

int m_heartbeat(model *m, const mctx *c, int ji, int64_t ttl, lq_status st, char *why, size_t wsize)
{
	mjob *j = job(m, ji);
	mtask *t = claim_of(m, j);
	if (!t || !t->has_claim || t->claim_until.hi <= c->now.lo) {
		EXPECT(st, LQ_LOST);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	t->claim_until = sp_add(c->at, ttl);
	return 0;
}

int m_release(model *m, const mctx *c, int ji, lq_status st, char *why, size_t wsize)
{
	mjob *j = job(m, ji);
	if (j->mode == LQ_AT_MOST_ONCE && j->recurring) {
		EXPECT(st, LQ_OK);
		j->used = 0;
		return 0;
	}
	if (j->mode == LQ_AT_LEAST_ONCE) {
		mtask *t = claim_of(m, j);
		if (!t) {
			EXPECT(st, LQ_LOST);
			j->used = 0;
			return 0;
		}
		if (!c->unknown)
			EXPECT(st, LQ_OK);
		t->owner[0] = '\0';
		t->has_claim = 0;
		t->attempts = t->attempts > 0 ? t->attempts - 1 : 0;
		j->used = 0;
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	mtask *holder = ukey_holder(m, j->t.ukey);
	mtask *t = new_task(m);
	*t = j->t;
	t->used = 1;
	t->owner[0] = '\0';
	t->has_claim = 0;
	t->paused = 0;
	t->every_ms = 0;
	if (holder) {
		char e[M_ERR];
		snprintf(e, sizeof(e), "handed back unrun%s%.400s; not queued again: unique key \"%s\" is held by a newer task",
			 j->t.has_error ? ": " : "", j->t.has_error ? j->t.error : "", m_ukey_names[t->ukey]);
		t->dead = 1;
		t->run_at = c->at;
		t->died_at = c->at;
		set_error(t, e);
	} else {
		t->run_at = c->at;
	}
	for (int i = 0; i < m->ngone; i++)
		if (m->gone_ids[i] == t->id)
			m->gone_ids[i] = m->gone_ids[--m->ngone];
	j->used = 0;
	return 0;
}

int m_rm(model *m, const mctx *c, int64_t id, lq_status st, char *why, size_t wsize)
{
	mtask *t = m_task_by_id(m, id);
	if (!t) {
		EXPECT(st, LQ_NOTFOUND);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	forget_task(m, t);
	return 0;
}

int m_retry(model *m, const mctx *c, int64_t id, lq_status st, char *why, size_t wsize)
{
	mtask *t = m_task_by_id(m, id);
	if (!t) {
		EXPECT(st, LQ_NOTFOUND);
		return 0;
	}
	if (t->dead) {
		mtask *h = ukey_holder(m, t->ukey);
		if (h) {
			EXPECT(st, LQ_ERROR);
			return 0;
		}
		if (!c->unknown)
			EXPECT(st, LQ_OK);
		t->dead = 0;
		t->run_at = c->at;
		t->attempts = 0;
		t->owner[0] = '\0';
		t->has_claim = 0;
		t->paused = 0;
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	if (t->run_at.hi > c->now.lo)
		t->run_at = c->at;
	if (!t->owner[0])
		t->has_claim = 0;
	return 0;
}

/* A schedule resumed after slots passed runs one late occurrence, in its
 * phase: run_at moves to the latest slot at or before the resume's clock
 * (unless a live claim holds the row).  Every pair of bounds is tried, and
 * run_at keeps its old value as a possibility where the move is not sure. */
static void resume_moves_on(mtask *t, const mctx *c)
{
	const int64_t xs[2] = {t->run_at.lo, t->run_at.hi}, ns[2] = {c->now.lo, c->now.hi};
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int kept = t->owner[0] && t->has_claim && t->claim_until.hi > c->now.lo;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++) {
			int64_t v = xs[i];
			if (xs[i] + t->every_ms <= ns[k])
				v = xs[i] + (ns[k] - xs[i]) / t->every_ms * t->every_ms;
			else
				kept = 1;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	if (kept) {
		lo = t->run_at.lo < lo ? t->run_at.lo : lo;
		hi = t->run_at.hi > hi ? t->run_at.hi : hi;
	}
	t->run_at.lo = lo;
	t->run_at.hi = hi;
}

int m_task_pause(model *m, const mctx *c, int64_t id, int paused, lq_status st, char *why, size_t wsize)
{
	mtask *t = m_task_by_id(m, id);
	if (!t || t->dead) {
		EXPECT(st, LQ_NOTFOUND);
		return 0;
	}
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	if (!paused && t->paused && t->every_ms > 0)
		resume_moves_on(t, c);
	t->paused = paused;
	return 0;
}

int m_queue_pause(model *m, const mctx *c, int queue, int paused, lq_status st, char *why, size_t wsize)
{
	if (!c->unknown)
		EXPECT(st, LQ_OK);
	m->queue_paused[queue] = paused;
	/* An unknown outcome: the queue's row may be there or not; the queue
	 * list says which once the queue has no task. */
	m->queue_known[queue] = c->unknown && !m->queue_known[queue] ? 2 : 1;
	return 0;
}
