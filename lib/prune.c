/*
 * prune.c - remove dead tasks that died long enough ago.  Each batch is one
 * autocommit DELETE of at most LQ_PRUNE_BATCH rows, oldest first, found
 * through the died_at index: a prune of a big table never holds many locks
 * or a long write transaction, so it can run from cron next to workers.
 */
#include "internal.h"

#define LQ_PRUNE_BATCH 1000

LQ_EXTERN(lq_status) lq_task_prune(lq_db *db, int64_t older_than_ms, const char *queue, unsigned flags,
				   int64_t *removed)
{
	int64_t total = 0, n;
	lq_status st;

	lq__ok(db);
	if (removed)
		*removed = 0;
	if (older_than_ms < 0)
		return lq__fail(db, LQ_EINVAL, "prune: the age must not be negative");
	if (queue && (st = lq__check_name(db, "queue name", queue)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	lq_value p[3] = {lq_v_int(older_than_ms), lq__v_text(queue), lq_v_int(LQ_PRUNE_BATCH)};
	if (flags & LQ_PRUNE_DRY_RUN) {
		n = 0;
		st = lq__exec(db, "prune (dry run)", LQ_SQL_task_dead_prune_count, p, 2, lq__row_int, &n, NULL);
		if (st == LQ_OK && removed)
			*removed = n;
		return st;
	}
	do {
		n = 0;
		st = lq__exec(db, "prune", LQ_SQL_task_dead_prune, p, 3, NULL, NULL, &n);
		if (st == LQ_OK)
			total += n;
	} while (st == LQ_OK && n == LQ_PRUNE_BATCH);
	if (removed)
		*removed = total;
	return st;
}
