/*
 * queue.c - queues: listing, pausing, and when the next task is due.
 * A queue exists while it has tasks (live or dead) or a row in lq_queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct qlist_ctx {
	lq_queue_fn fn;
	void *ctx;
};

static int queue_row(void *arg, const lq_value *c, int n)
{
	struct qlist_ctx *qc = arg;
	if (n < LQ_COLS_queue_list)
		return 1;
	lq_queue_info q;
	memset(&q, 0, sizeof(q));
	lq__col_str(&c[0], q.name, sizeof(q.name));
	q.paused = lq__col_int(&c[1]) != 0;
	q.tasks = lq__col_int(&c[2]);
	q.due = lq__col_int(&c[3]);
	q.dead = lq__col_int(&c[4]);
	q.next_run_at = lq__col_int(&c[5]);
	return qc->fn(&q, qc->ctx);
}

LQ_EXTERN(lq_status) lq_queue_list(lq_db *db, lq_queue_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct qlist_ctx qc = {fn, ctx};
	return lq__exec(db, "queue list", LQ_SQL_queue_list, NULL, 0, queue_row, &qc, NULL);
}

LQ_EXTERN(lq_status) lq_queue_pause(lq_db *db, const char *queue, int paused)
{
	lq__ok(db);
	lq_status st = lq__check_name(db, "queue name", queue);
	if (st == LQ_OK)
		st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "queue \"%s\"", queue);
	lq_value p[2] = {lq__v_text(queue), lq_v_int(paused ? 1 : 0)};
	st = lq__exec(db, what, LQ_SQL_queue_set_paused, p, 2, NULL, NULL, NULL);
	if (st == LQ_OK && !paused)
		lq__notify(db, LQ_CHANNEL_TASK);
	return st;
}

struct next_ctx {
	int64_t next;
	int have;
	int64_t now;
};

static int next_row(void *arg, const lq_value *c, int n)
{
	struct next_ctx *nc = arg;
	if (n < LQ_COLS_queue_next_due)
		return 1;
	nc->have = c[0].type != LQ_V_NULL;
	nc->next = lq__col_int(&c[0]);
	nc->now = lq__col_int(&c[1]);
	return 0;
}

LQ_EXTERN(lq_status) lq_queue_next_due(lq_db *db, const char *queue, int64_t *wait_ms)
{
	lq__ok(db);
	*wait_ms = -1;
	if (!queue)
		queue = LQ_DEFAULT_QUEUE;
	lq_status st = lq__check_name(db, "queue name", queue);
	if (st == LQ_OK)
		st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct next_ctx nc = {0, 0, 0};
	lq_value p[1] = {lq__v_text(queue)};
	st = lq__exec(db, "queue next due", LQ_SQL_queue_next_due, p, 1, next_row, &nc, NULL);
	if (st != LQ_OK)
		return st;
	if (nc.have)
		*wait_ms = nc.next > nc.now ? nc.next - nc.now : 0;
	return LQ_OK;
}

#define LQ_GAUGE_CAP_DEFAULT 10000
#define LQ_GAUGE_QUEUES_MAX 10000 /* queues one call reports at most */

struct names_ctx {
	char (*names)[LQ_NAME_MAX + 1];
	size_t n, cap;
	int oom;
};

static int name_row(void *arg, const lq_value *c, int n)
{
	struct names_ctx *nc = arg;
	if (n < LQ_COLS_queue_names || nc->n >= LQ_GAUGE_QUEUES_MAX)
		return 1;
	if (nc->n == nc->cap) {
		size_t cap = nc->cap ? nc->cap * 2 : 16;
		void *p = realloc(nc->names, cap * sizeof(*nc->names));
		if (!p) {
			nc->oom = 1;
			return 1;
		}
		nc->names = p;
		nc->cap = cap;
	}
	lq__col_str(&c[0], nc->names[nc->n++], sizeof(*nc->names));
	return 0;
}

static int gauge_row(void *arg, const lq_value *c, int n)
{
	lq_queue_info *q = arg;
	if (n < LQ_COLS_queue_gauges)
		return 1;
	q->paused = lq__col_int(&c[0]) != 0;
	q->tasks = lq__col_int(&c[1]);
	q->due = lq__col_int(&c[2]);
	q->dead = lq__col_int(&c[3]);
	q->next_run_at = lq__col_int(&c[4]);
	return 0;
}

LQ_EXTERN(lq_status) lq_queue_gauges(lq_db *db, int64_t cap, lq_queue_fn fn, void *ctx)
{
	lq__ok(db);
	if (cap < 0)
		return lq__fail(db, LQ_EINVAL, "queue gauges: the cap must not be negative");
	if (cap == 0)
		cap = LQ_GAUGE_CAP_DEFAULT;
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	/* The names first: the per-queue statements must not run while the
	 * names' result is still being read. */
	struct names_ctx nc = {NULL, 0, 0, 0};
	st = lq__exec(db, "queue gauges", LQ_SQL_queue_names, NULL, 0, name_row, &nc, NULL);
	if (st == LQ_OK && nc.oom)
		st = lq__fail(db, LQ_ENOMEM, "queue gauges: out of memory");
	for (size_t i = 0; st == LQ_OK && i < nc.n; i++) {
		lq_queue_info q;
		char what[LQ_NAME_MAX + 32];
		memset(&q, 0, sizeof(q));
		snprintf(q.name, sizeof(q.name), "%s", nc.names[i]);
		snprintf(what, sizeof(what), "queue \"%s\"", q.name);
		lq_value p[2] = {lq__v_text(q.name), lq_v_int(cap)};
		st = lq__exec(db, what, LQ_SQL_queue_gauges, p, 2, gauge_row, &q, NULL);
		if (st == LQ_OK && fn(&q, ctx))
			break;
	}
	free(nc.names);
	return st;
}
