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
#include <stdlib.h>
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

enum { PART_TOUCH_MANY = 16 }; /* the partitions a partition_touch_many takes */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

lq_status lq__part_touch_many(lq_db *db, size_t n, const char *const *queues, const char *const *parts)
{
	if (n > LQ_ADD_MANY_CHUNK)
		return lq__fail(db, LQ_ERROR, "task add: %zu tasks for one chunk's partitions", n);
	unsigned char done[LQ_ADD_MANY_CHUNK] = {0};
	const char *names[LQ_ADD_MANY_CHUNK];
	lq_status st = LQ_OK;
	for (size_t i = 0; st == LQ_OK && i < n; i++) {
		if (done[i] || !parts[i])
			continue;
		/* The queue's partitions, each once, in name order: the order
		 * in which partition_serve and the fair claims lock the rows. */
		size_t k = 0;
		for (size_t j = i; j < n; j++) {
			if (!done[j] && parts[j] && !strcmp(queues[j], queues[i])) {
				done[j] = 1;
				names[k++] = parts[j];
			}
		}
		qsort(names, k, sizeof(*names), by_name);
		size_t u = 0;
		for (size_t j = 0; j < k; j++)
			if (u == 0 || strcmp(names[j], names[u - 1]))
				names[u++] = names[j];
		if (u == 1) { /* a cheaper statement on MariaDB (partition.sql) */
			st = lq__part_touch(db, "task add", queues[i], names[0]);
			continue;
		}
		for (size_t from = 0; st == LQ_OK && from < u; from += PART_TOUCH_MANY) {
			lq_value p[1 + PART_TOUCH_MANY];
			p[0] = lq__v_text(queues[i]);
			for (size_t j = 0; j < PART_TOUCH_MANY; j++)
				p[1 + j] = from + j < u ? lq__v_text(names[from + j]) : lq_v_null();
			st = lq__exec(db, "task add", LQ_SQL_partition_touch_many, p, 1 + PART_TOUCH_MANY, NULL, NULL,
				      NULL);
		}
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
