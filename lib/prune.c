/*
 * prune.c - remove dead tasks that died, and runs that ended, long enough
 * ago.  Each batch is one autocommit DELETE of at most LQ_PRUNE_BATCH rows,
 * oldest first, found through the died_at / ended_at index: a prune of a
 * big table never holds many locks or a long write transaction, so it can
 * run from cron next to workers.
 */
#include "internal.h"

#define LQ_PRUNE_BATCH 1000

static lq_status prune(lq_db *db, const char *what, lq_sql_id count_id, lq_sql_id delete_id,
		       int64_t older_than_ms, const char *queue, unsigned flags, int64_t *removed)
{
	int64_t total = 0, n;
	lq_status st;

	lq__ok(db);
	if (removed)
		*removed = 0;
	if (older_than_ms < 0)
		return lq__fail(db, LQ_EINVAL, "%s: the age must not be negative", what);
	if (queue && (st = lq__check_name(db, "queue name", queue)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	lq_value p[3] = {lq_v_int(older_than_ms), lq__v_text(queue), lq_v_int(LQ_PRUNE_BATCH)};
	if (flags & LQ_PRUNE_DRY_RUN) {
		n = 0;
		st = lq__exec(db, what, count_id, p, 2, lq__row_int, &n, NULL);
		if (st == LQ_OK && removed)
			*removed = n;
		return st;
	}
	do {
		n = 0;
		st = lq__exec(db, what, delete_id, p, 3, NULL, NULL, &n);
		if (st == LQ_OK)
			total += n;
	} while (st == LQ_OK && n == LQ_PRUNE_BATCH);
	if (removed)
		*removed = total;
	return st;
}

LQ_EXTERN(lq_status) lq_task_prune(lq_db *db, int64_t older_than_ms, const char *queue, unsigned flags,
				   int64_t *removed)
{
	lq_status st = prune(db, flags & LQ_PRUNE_DRY_RUN ? "prune (dry run)" : "prune", LQ_SQL_task_dead_prune_count,
			     LQ_SQL_task_dead_prune, older_than_ms, queue, flags, removed);
	/* Also the running marks that crashed workers left (past their end:
	 * nothing can cancel those runs any more); they count as nothing. */
	if (st == LQ_OK && !(flags & LQ_PRUNE_DRY_RUN))
		st = lq__exec(db, "prune", LQ_SQL_task_running_sweep, NULL, 0, NULL, NULL, NULL);
	return st;
}

LQ_EXTERN(lq_status) lq_run_prune(lq_db *db, int64_t older_than_ms, const char *queue, unsigned flags,
				  int64_t *removed)
{
	return prune(db, flags & LQ_PRUNE_DRY_RUN ? "prune run history (dry run)" : "prune run history",
		     LQ_SQL_run_prune_count, LQ_SQL_run_prune, older_than_ms, queue, flags, removed);
}
