/*
 * model.h - the reference model of the model-based test: what the public
 * API should show after a sequence of operations, written plainly.
 *
 * Times the database sets from its clock are spans [lo, hi]: on SQLite the
 * test clock is frozen and a span is one instant; on a server it is the
 * time between a reading of the clock before the call and one after.  The
 * comparison with what the database shows narrows every span to the value
 * seen (and checks it lies inside), so decisions stay exact wherever the
 * clock is known.  A decision that depends on where inside a span the
 * database's clock was is made for each side of the boundary: the driver
 * keeps every candidate model the call allows and drops those that the
 * call's result or the next observation contradict.
 */
#ifndef LQ_MODEL_H
#define LQ_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "leaseq.h"

#define M_QUEUES 2
#define M_NAMES 3
#define M_LEASES 3
#define M_UKEYS 2
#define M_TASKS 96
#define M_RUNS 512
#define M_HANDLES 24
#define M_JOBS 24
#define M_ERR 640

extern const char *const m_queue_names[M_QUEUES];
extern const char *const m_task_names[M_NAMES];
extern const char *const m_lease_names[M_LEASES];
extern const char *const m_ukey_names[M_UKEYS];

typedef struct span {
	int64_t lo, hi;
} span;

static inline span sp(int64_t v) { span s = {v, v}; return s; }
static inline span sp_add(span s, int64_t d) { s.lo += d; s.hi += d; return s; }

typedef struct mtask {
	int used;
	int64_t id; /* 0: not known yet (an add whose outcome was unknown) */
	int queue, name, ukey; /* indexes; ukey -1: none */
	span run_at, created_at, claim_until, died_at;
	int has_claim; /* claim_until set */
	int attempts, max_attempts, priority, paused, dead;
	int64_t every_ms;
	char owner[LQ_OWNER_MAX + 1]; /* claim owner, "" none, "?" unknown */
	char error[M_ERR];            /* last_error; has_error 0: NULL */
	int has_error;
} mtask;

typedef struct mlease {
	int used;
	char owner[LQ_OWNER_MAX + 1]; /* "" free, "?" unknown */
	int64_t token, lost, broken;
	span acquired_at, expires_at;
} mlease;

/* A lease handle the driver holds (released or stale ones too). */
typedef struct mhandle {
	int used, lease;
	char owner[LQ_OWNER_MAX + 1];
	int64_t token;
} mhandle;

/* A claimed task the driver holds, as the claim returned it. */
typedef struct mjob {
	int used;
	mtask t; /* the row as claimed (attempts counted for at-least-once) */
	lq_mode mode;
	int recurring;
	span started_at; /* the claim's clock (lq_task.now) */
} mjob;

enum { RUN_WRITTEN = 1, RUN_PENDING, RUN_MAYBE };

typedef struct mrun {
	int state; /* 0 unused */
	int64_t id; /* 0 until seen */
	int64_t seq; /* write order */
	int64_t task_id;
	span run_at, started_at, ended_at;
	int queue, name, attempt;
	lq_outcome outcome;
	char error[M_ERR];
	int has_error;
	int64_t mono_lo, mono_hi; /* pending: when the run ended, monotonic */
} mrun;

typedef struct model {
	mtask tasks[M_TASKS];
	mlease leases[M_LEASES];
	mhandle handles[M_HANDLES];
	mjob jobs[M_JOBS];
	mrun runs[M_RUNS];
	int queue_paused[M_QUEUES];
	int queue_known[M_QUEUES]; /* has a lq_queue row (paused once); 2: maybe */
	int64_t next_seq;
	int64_t batch_first_lo, batch_first_hi; /* monotonic, of the oldest pending row */
	int64_t gone_ids[M_TASKS]; /* ids of removed tasks: lq_task_get must say NOTFOUND */
	int ngone;
} model;

/* One operation's context: the database clock during it and the monotonic
 * clock around it.  now is the stretch of the clock the call's decisions
 * (due, expired) are taken in; at is the whole call, the clock of the
 * times it stores.  They differ because a call may run several statements,
 * each reading the clock anew: a claim reads its candidates and then
 * updates them (and on PostgreSQL claims the one-off tasks in a statement
 * of its own before the recurring ones), a claim that finds nothing then
 * writes the kept-back history, a failure buries a task and then writes
 * its run.  A later statement's clock may lie past a decision boundary
 * that the earlier statement's decision did not cross. */
typedef struct mctx {
	span now, at;
	span later; /* an ack with a claim: the claim's clock (from now on) */
	int64_t mono_lo, mono_hi;
	int unknown; /* the call's outcome is unknown: the model applies it */
} mctx;

void m_init(model *m);
int m_ntasks_live(const model *m);
mtask *m_task_by_id(model *m, int64_t id);

/* Transitions.  Each checks that status (and the outputs) are allowed,
 * and applies what the call did.  Return 0, or -1 with why filled. */
int m_lease_acquire(model *m, const mctx *c, int lease, int64_t ttl, lq_status st, const lq_lease *out,
		    char *why, size_t wsize);
int m_lease_renew(model *m, const mctx *c, int h, int64_t ttl, lq_status st, const lq_lease *l, char *why,
		  size_t wsize);
int m_lease_release(model *m, const mctx *c, int h, lq_status st, char *why, size_t wsize);
int m_lease_check(model *m, const mctx *c, int h, lq_status st, char *why, size_t wsize);
int m_lease_break(model *m, const mctx *c, int lease, lq_status st, const lq_lease *prev, char *why,
		  size_t wsize);

typedef struct madd {
	int queue, name, ukey, priority, max_attempts;
	int64_t delay, every;
} madd;
int m_task_add(model *m, const mctx *c, const madd *a, lq_status st, int64_t id, int existed, char *why,
	       size_t wsize);
/* The claim: claimed[0..n) as the library returned them. */
int m_claim(model *m, const mctx *c, int queue, lq_mode mode, size_t max, int64_t ttl, lq_status st,
	    const lq_task *claimed, size_t n, char *why, size_t wsize);
int m_ack(model *m, const mctx *c, int j, lq_status st, int flush, char *why, size_t wsize);
int m_fail(model *m, const mctx *c, int j, const char *error, lq_status st, char *why, size_t wsize);
int m_heartbeat(model *m, const mctx *c, int j, int64_t ttl, lq_status st, char *why, size_t wsize);
int m_release(model *m, const mctx *c, int j, lq_status st, char *why, size_t wsize);
int m_rm(model *m, const mctx *c, int64_t id, lq_status st, char *why, size_t wsize);
int m_retry(model *m, const mctx *c, int64_t id, lq_status st, char *why, size_t wsize);
int m_task_pause(model *m, const mctx *c, int64_t id, int paused, lq_status st, char *why, size_t wsize);
int m_queue_pause(model *m, const mctx *c, int queue, int paused, lq_status st, char *why, size_t wsize);
/* The kept-back history rows go to the database now (write clock c). */
void m_flush(model *m, const mctx *c);
/* After an ack: would the library flush now (1), not (0), maybe (-1)? */
int m_ack_flushes(const model *m, const mctx *c);

/* A worker's notion of due: task t is claimable at instant now. */
int m_claimable(const model *m, const mtask *t, int64_t now);

/* Time boundaries of the model's decisions inside span s (sorted, unique). */
size_t m_boundaries(const model *m, span s, int64_t *out, size_t max);

/* Runs of the history in the API's order (newest ended_at first, ties by
 * id, newest first). */
int m_run_cmp(const mrun *a, const mrun *b);

#endif
