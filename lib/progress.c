/*
 * progress.c - what a handler tells about its run while it runs (progress,
 * under its at-least-once claim) and reading it back, and reading a run's
 * result (task.c stores it with the ack, run.c in the history row).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

lq_status lq__task_progress(lq_db *db, const lq_task *t, int percent, const char *message)
{
	lq__ok(db);
	long long id = (long long)t->id;
	if (percent < 0 || percent > 100)
		return lq__fail(db, LQ_EINVAL, "task %lld: progress %d is not a percent (0 to 100)", id, percent);
	size_t len = message ? strlen(message) : 0;
	if (len > LQ_PROGRESS_MSG_MAX)
		return lq__fail(db, LQ_EINVAL, "task %lld: progress message is %zu bytes, over the %d-byte limit", id,
				len, LQ_PROGRESS_MSG_MAX);
	if (!lq__utf8_valid(message ? message : "", len))
		return lq__fail(db, LQ_EINVAL, "task %lld: progress message is not valid UTF-8", id);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)message[i] < 0x20 || message[i] == 0x7f)
			return lq__fail(db, LQ_EINVAL, "task %lld: progress message has a control character", id);
	/* An at-most-once claim deleted the row (or, recurring, holds no
	 * claim on it): there is nothing to report under. */
	if (t->mode != LQ_AT_LEAST_ONCE || !t->claim_owner[0])
		return lq__fail(db, LQ_EINVAL, "task %lld: progress needs an at-least-once claim", id);
	char what[64];
	snprintf(what, sizeof(what), "task %lld", id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(percent), lq__v_opt_text(message)};
	int64_t n = 0;
	/* Setting the same progress twice is harmless: lq__exec may repeat it. */
	st = lq__exec(db, what, LQ_SQL_task_progress_set, p, 4, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1 && lq__claim_revoked(db, t))
		return LQ_REVOKED;
	if (n != 1)
		return lq__fail(db, LQ_LOST, "task %lld: claim was lost (expired or taken); progress not stored", id);
	return LQ_OK;
}

struct progress_ctx {
	lq_progress *out;
	int found;
};

static int progress_row(void *arg, const lq_value *c, int n)
{
	struct progress_ctx *pc = arg;
	if (n < LQ_COLS_task_progress_get)
		return 1;
	pc->found = 1;
	pc->out->percent = c[0].type == LQ_V_NULL ? -1 : (int)lq__col_int(&c[0]);
	if (pc->out->percent >= 0) {
		lq__col_str(&c[1], pc->out->message, sizeof(pc->out->message));
		pc->out->updated_at = lq__col_int(&c[2]);
	}
	pc->out->now = lq__col_int(&c[3]);
	return 1;
}

LQ_EXTERN(lq_status) lq_task_progress_get(lq_db *db, int64_t id, lq_progress *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	out->percent = -1;
	char what[64];
	snprintf(what, sizeof(what), "task %lld", (long long)id);
	struct progress_ctx pc = {out, 0};
	lq_value p[1] = {lq_v_int(id)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_progress_get, p, 1, progress_row, &pc, NULL);
	if (st != LQ_OK)
		return st;
	if (!pc.found)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: no such live task", (long long)id);
	return LQ_OK;
}

struct result_ctx {
	void *buf;
	size_t size, len;
	int found;
};

static int result_row(void *arg, const lq_value *c, int n)
{
	struct result_ctx *rc = arg;
	if (n < 1 || c[0].type == LQ_V_NULL)
		return 1;
	rc->found = 1;
	rc->len = c[0].len;
	if (rc->buf && rc->size)
		memcpy(rc->buf, c[0].s, rc->len < rc->size ? rc->len : rc->size);
	return 1;
}

LQ_EXTERN(lq_status) lq_task_result(lq_db *db, int64_t id, void *buf, size_t size, size_t *len)
{
	lq__ok(db);
	char what[64];
	snprintf(what, sizeof(what), "task %lld", (long long)id);
	struct result_ctx rc = {buf, size, 0, 0};
	lq_value p[1] = {lq_v_int(id)};
	lq_status st = lq__exec(db, what, LQ_SQL_run_result, p, 1, result_row, &rc, NULL);
	if (len)
		*len = rc.len;
	if (st != LQ_OK)
		return st;
	if (!rc.found)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: no result in the run history", (long long)id);
	return LQ_OK;
}
