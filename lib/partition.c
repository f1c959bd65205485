/*
 * partition.c - fair share across the partitions (tenants) of a queue.
 *
 * A queue whose tasks carry partitions has a row per partition in
 * lq_partition with the stamp of its last stamped claim; a handle's first
 * claim there (task.c, claim_fair) takes the heads of the least recently
 * served partitions and stamps them, and its later claims go round the
 * partitions from the one it served last (db->turn), writing nothing.  A
 * queue without partitions has no row there and claims as it always did:
 * the only cost it pays is partition_any, once a second per handle.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* How long a handle trusts what it read of a queue's partitions: a queue
 * that starts using them (from another handle) is served in plain order
 * for at most this long. */
#define PART_RECHECK_MS 1000

void lq__part_known(lq_db *db, const char *queue, int on)
{
	lq__memo_set(&db->part, queue, on);
}

lq_status lq__part_on(lq_db *db, const char *queue, int *on)
{
	if (lq__memo_fresh(&db->part, queue, PART_RECHECK_MS)) {
		*on = db->part.yes;
		return LQ_OK;
	}
	int64_t any = 0;
	lq_value p[1] = {lq__v_text(queue)};
	lq_status st = lq__exec(db, "task claim", LQ_SQL_partition_any, p, 1, lq__row_int, &any, NULL);
	if (st != LQ_OK)
		return st;
	lq__part_known(db, queue, any != 0);
	*on = any != 0;
	return LQ_OK;
}

lq_status lq__part_touch(lq_db *db, const char *what, const char *queue, const char *part)
{
	/* The tasks without a partition are a partition of their own: the
	 * statement writes that row too. */
	lq_value p[2] = {lq__v_text(queue), lq__v_text(part)};
	return lq__exec(db, what, LQ_SQL_partition_touch, p, 2, NULL, NULL, NULL);
}

enum { PART_SET = 100 }; /* the ids a task_set_part_set takes */
_Static_assert(LQ_ADD_MANY_CHUNK <= PART_SET, "a chunk's tasks of one partition fit one task_set_part_set");

lq_status lq__part_add_many(lq_db *db, size_t n, const char *const *queues, const char *const *parts,
			    const int64_t *ids)
{
	if (n > LQ_ADD_MANY_CHUNK)
		return lq__fail(db, LQ_ERROR, "task add: %zu tasks for one chunk's partitions", n);
	unsigned char done[LQ_ADD_MANY_CHUNK] = {0};
	lq_value p[PART_SET + 1];
	lq_status st = LQ_OK;
	for (size_t i = 0; st == LQ_OK && i < n; i++) {
		if (done[i] || !parts[i])
			continue;
		/* The tasks of this queue and partition: one statement. */
		size_t k = 0;
		for (size_t j = i; j < n; j++) {
			if (done[j] || !parts[j] || strcmp(parts[j], parts[i]) || strcmp(queues[j], queues[i]))
				continue;
			done[j] = 1;
			p[k++] = lq_v_int(ids[j]);
		}
		for (size_t x = k; x < PART_SET; x++)
			p[x] = lq_v_null();
		p[PART_SET] = lq__v_text(parts[i]);
		st = lq__exec(db, "task add", LQ_SQL_task_set_part_set, p, PART_SET + 1, NULL, NULL, NULL);
		if (st == LQ_OK)
			st = lq__part_touch(db, "task add", queues[i], parts[i]);
	}
	return st;
}

static int part_row(void *arg, const lq_value *c, int n)
{
	char *buf = arg;
	if (n >= 1) {
		lq__col_str(&c[0], buf, LQ_NAME_MAX + 1);
		buf[LQ_NAME_MAX + 1] = 1; /* found */
	}
	return 1;
}

LQ_EXTERN(lq_status) lq_task_partition(lq_db *db, int64_t id, char *buf, size_t size)
{
	lq__ok(db);
	if (buf && size)
		buf[0] = '\0';
	if (!buf || size == 0)
		return lq__fail(db, LQ_EINVAL, "task partition: no buffer");
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	char got[LQ_NAME_MAX + 2] = "";
	got[LQ_NAME_MAX + 1] = 0;
	char what[64];
	snprintf(what, sizeof(what), "task %lld", (long long)id);
	lq_value p[1] = {lq_v_int(id)};
	if ((st = lq__exec(db, what, LQ_SQL_task_part_get, p, 1, part_row, got, NULL)) != LQ_OK)
		return st;
	if (!got[LQ_NAME_MAX + 1])
		return lq__fail(db, LQ_NOTFOUND, "task %lld: no such live task", (long long)id);
	snprintf(buf, size, "%s", got);
	return LQ_OK;
}
