/*
 * cancel.c - cancelling a task, also one that is running (lq_task_cancel),
 * and telling a worker whose claim was revoked so (lq__claim_revoked).
 *
 * One transaction reads the live task (locked), remembers a live
 * at-least-once claim in lq_task_cancel, deletes the task and writes its
 * "cancelled" run.  Deleting the row is what fences the worker: its
 * heartbeat, ack, fail and release are all conditional on the row and its
 * claim owner, so they change nothing; the remembered claim only lets them
 * say LQ_REVOKED instead of LQ_LOST.  An at-most-once claim deleted the row
 * when it ran the task: nothing is left to revoke (LQ_NOTFOUND), unless the
 * claim marked the run in lq_task_running (LQ_AT_MOST_ONCE_CANCELLABLE).
 * Then the cancel deletes the live mark instead, which fences the worker
 * the same way (its heartbeat and ack are conditional on the mark), and
 * remembers the revoked claim as above.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct cancel_ctx {
	int64_t id;
	const char *reason;
	lq_task t;
	int found, running;
	lq_status rowst;
	int marked; /* a mark of an at-most-once run was read into t */
};

static int cancel_row(void *arg, const lq_value *c, int n)
{
	struct cancel_ctx *cc = arg;

	if (cc->found)
		return 1;
	cc->rowst = lq__task_from_row(&cc->t, c, n);
	cc->found = cc->rowst == LQ_OK;
	return 0;
}

/* The mark of an at-most-once run, as much of a task as its history
 * row needs (at-most-once: the run's attempt is attempts + 1). */
static int mark_row(void *arg, const lq_value *c, int n)
{
	struct cancel_ctx *cc = arg;

	if (n < 8 || cc->marked)
		return 1;
	lq__col_str(&c[0], cc->t.claim_owner, sizeof(cc->t.claim_owner));
	cc->t.claim_until = lq__col_int(&c[1]);
	lq__col_str(&c[2], cc->t.queue, sizeof(cc->t.queue));
	lq__col_str(&c[3], cc->t.name, sizeof(cc->t.name));
	cc->t.run_at = lq__col_int(&c[4]);
	cc->t.attempts = (int)lq__col_int(&c[5]);
	cc->t.now = lq__col_int(&c[6]); /* the run's start, as its claim saw it */
	cc->t.id = cc->id;
	cc->t.mode = LQ_AT_MOST_ONCE;
	cc->marked = lq__col_int(&c[1]) > lq__col_int(&c[7]); /* live on the database clock */
	return 0;
}

/* No task row: a live mark of its at-most-once run is what is cancelled. */
static lq_status cancel_marked(lq_db *db, struct cancel_ctx *cc, const char *what)
{
	lq_value id = lq_v_int(cc->id);
	lq_status st = lq__exec(db, what, LQ_SQL_task_running_sweep, NULL, 0, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_task_running_get, &id, 1, mark_row, cc, NULL);
	if (st != LQ_OK || !cc->marked)
		return st;
	int64_t n = 0;
	lq_value p[4] = {id, lq__v_text(cc->t.claim_owner), lq_v_int(cc->t.claim_until), lq__v_opt_text(cc->reason)};
	/* The revoked claim is remembered before its mark goes: whoever finds
	 * the mark gone finds this row too, at worst by waiting for it. */
	st = lq__exec(db, what, LQ_SQL_task_cancel_sweep, NULL, 0, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_task_cancel_mark, p, 4, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_task_running_end, p, 2, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1) /* cannot happen under the row lock: start over */
		return lq__fail(db, LQ__RETRY, "%s: its run mark changed under a lock", what);
	cc->found = cc->running = 1;
	return lq__run_record(db, what, &cc->t, LQ_RUN_CANCELLED,
			      cc->reason && cc->reason[0] ? cc->reason : "cancelled");
}

static lq_status cancel_body(lq_db *db, void *arg)
{
	struct cancel_ctx *cc = arg;
	char what[64];
	snprintf(what, sizeof(what), "task %lld", (long long)cc->id);
	/* A retried transaction starts over. */
	lq_task_clear(&cc->t);
	cc->found = cc->running = cc->marked = 0;
	cc->rowst = LQ_OK;
	lq_value id = lq_v_int(cc->id);
	lq_status st = lq__exec(db, what, LQ_SQL_task_cancel_get, &id, 1, cancel_row, cc, NULL);
	if (st == LQ_OK)
		st = cc->rowst;
	if (st == LQ_OK && !cc->found)
		return cancel_marked(db, cc, what);
	if (st != LQ_OK)
		return st;
	/* Running: a claim that has not expired on the database clock (both
	 * read by the statement above).  An expired claim's worker hears
	 * LQ_LOST, as it would have anyway. */
	cc->running = cc->t.claim_owner[0] && cc->t.claim_until > cc->t.now;
	st = lq__exec(db, what, LQ_SQL_task_cancel_sweep, NULL, 0, NULL, NULL, NULL);
	if (st == LQ_OK && cc->running) {
		lq_value p[4] = {id, lq__v_text(cc->t.claim_owner), lq_v_int(cc->t.claim_until),
				 lq__v_opt_text(cc->reason)};
		st = lq__exec(db, what, LQ_SQL_task_cancel_mark, p, 4, NULL, NULL, NULL);
	}
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_task_delete, &id, 1, NULL, NULL, NULL);
	if (st != LQ_OK)
		return st;
	/* attempts counts the runs its claims started (0: it never ran). */
	cc->t.mode = LQ_AT_LEAST_ONCE;
	return lq__run_record(db, what, &cc->t, LQ_RUN_CANCELLED,
			      cc->reason && cc->reason[0] ? cc->reason : "cancelled");
}

LQ_EXTERN(lq_status) lq_task_cancel(lq_db *db, int64_t id, const char *reason, int *was_running)
{
	lq__ok(db);
	if (was_running)
		*was_running = 0;
	if (id <= 0)
		return lq__fail(db, LQ_EINVAL, "task %lld: a task id must be positive", (long long)id);
	lq_status st;
	if (reason && reason[0] && (st = lq__check_name(db, "cancel reason", reason)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	struct cancel_ctx cc = {.id = id, .reason = reason};
	st = lq__tx(db, 1, "task cancel", cancel_body, &cc);
	int found = cc.found, running = cc.running;
	lq_task_clear(&cc.t);
	if (st != LQ_OK)
		return st;
	if (!found)
		return lq__fail(db, LQ_NOTFOUND,
				"task %lld: not found (no waiting task, nor one running under an at-least-once "
				"claim or a cancellable at-most-once one, has that id)", (long long)id);
	if (was_running)
		*was_running = running;
	return LQ_OK;
}

struct reason_ctx {
	int found;
	char reason[LQ_NAME_MAX + 1];
};

static int reason_row(void *arg, const lq_value *c, int n)
{
	struct reason_ctx *rc = arg;

	rc->found = n >= 1;
	if (rc->found)
		lq__col_str(&c[0], rc->reason, sizeof(rc->reason));
	return 1;
}

lq_status lq__claim_revoked_look(lq_db *db, const lq_task *t, int *revoked)
{
	char what[64], saved[sizeof(db->errmsg)];
	snprintf(what, sizeof(what), "task %lld", (long long)t->id);
	memcpy(saved, db->errmsg, sizeof(saved));
	struct reason_ctx rc = {0, ""};
	lq_value p[2] = {lq_v_int(t->id), lq__v_text(t->claim_owner)};
	*revoked = 0;
	lq_status st = lq__exec(db, what, LQ_SQL_task_cancel_check, p, 2, reason_row, &rc, NULL);
	if (st != LQ_OK)
		return st;
	if (!rc.found) {
		memcpy(db->errmsg, saved, sizeof(saved));
		return LQ_OK;
	}
	*revoked = 1;
	lq__fail(db, LQ_REVOKED, "task %lld: cancelled (%s): its claim was revoked", (long long)t->id,
		 rc.reason[0] ? rc.reason : "no reason given");
	return LQ_OK;
}

int lq__claim_revoked(lq_db *db, const lq_task *t)
{
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	int revoked = 0;
	/* A failed look is no answer: the caller's LQ_LOST says "stop" too. */
	if (lq__claim_revoked_look(db, t, &revoked) != LQ_OK)
		memcpy(db->errmsg, saved, sizeof(saved));
	return revoked;
}

struct running_ctx {
	lq_running_fn fn;
	void *ctx;
	lq_running *out; /* lq_task_running_get: the one row */
	int found;
};

/* A row of task_running_list.  At-most-once: the run's attempt is the
 * attempts its task had before the claim, plus one (lq__run_attempt). */
static int running_row(void *arg, const lq_value *c, int n)
{
	struct running_ctx *rc = arg;
	lq_running r;

	if (n < 9)
		return 1;
	memset(&r, 0, sizeof(r));
	r.task_id = lq__col_int(&c[0]);
	lq__col_str(&c[1], r.owner, sizeof(r.owner));
	r.claim_until = lq__col_int(&c[2]);
	lq__col_str(&c[3], r.queue, sizeof(r.queue));
	lq__col_str(&c[4], r.name, sizeof(r.name));
	r.run_at = lq__col_int(&c[5]);
	r.attempt = (int)lq__col_int(&c[6]) + 1;
	r.started_at = lq__col_int(&c[7]);
	r.now = lq__col_int(&c[8]);
	rc->found = 1;
	if (rc->out) {
		*rc->out = r;
		return 1;
	}
	return rc->fn(&r, rc->ctx);
}

LQ_EXTERN(lq_status) lq_task_running_list(lq_db *db, const char *queue, lq_running_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st;
	if ((st = lq__ready_queue(db, queue)) != LQ_OK)
		return st;
	struct running_ctx rc = {fn, ctx, NULL, 0};
	lq_value p[2] = {lq__v_opt_text(queue), lq_v_int(0)};
	return lq__exec(db, "task running list", LQ_SQL_task_running_list, p, 2, running_row, &rc, NULL);
}

LQ_EXTERN(lq_status) lq_task_running_get(lq_db *db, int64_t id, lq_running *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	if (id <= 0)
		return lq__fail(db, LQ_EINVAL, "task %lld: a task id must be positive", (long long)id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	char what[64];
	snprintf(what, sizeof(what), "task %lld", (long long)id);
	struct running_ctx rc = {NULL, NULL, out, 0};
	lq_value p[2] = {lq__v_opt_text(NULL), lq_v_int(id)};
	st = lq__exec(db, what, LQ_SQL_task_running_list, p, 2, running_row, &rc, NULL);
	if (st != LQ_OK)
		return st;
	if (!rc.found)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: no cancellable at-most-once run of it is live",
				(long long)id);
	return LQ_OK;
}
