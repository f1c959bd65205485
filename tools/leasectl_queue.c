/*
 * leasectl_queue.c - "leasectl queue list|pause|resume".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

struct list_args {
	int unused;
};
static const struct lc_opt list_opts[] = {
	LC_OPT_TABLE_END,
};
static const struct lc_usage list_usage = {
	.path = "queue list",
	.summary = "list queues with their task counts",
	.description = "One line per queue that has tasks or was paused: whether it is paused, its\n"
		       "live, due and dead task counts and when its next task is due.  JSON: an\n"
		       "array of {name, paused, tasks, due, dead, next_run_at, now}.",
	.opts = list_opts,
	.examples = "leasectl queue list",
	.exits = "0   listed\n64  bad usage\n69  database unreachable\n1   other failure",
};

struct queue_state {
	int64_t now;
	const char *db; /* several --db: the redacted DSN of the rows */
	struct lc_listing l;
};

static int list_one(const lq_queue_info *q, void *arg)
{
	struct queue_state *s = arg;
	char tasks[32], due[32], dead[32], next[96];

	s->l.n++;
	if (s->l.json) {
		lc_json_obj(&s->l.j);
		if (s->db)
			lc_json_kstr(&s->l.j, "db", s->db);
		lc_json_kstr(&s->l.j, "name", q->name);
		lc_json_kbool(&s->l.j, "paused", q->paused);
		lc_json_kint(&s->l.j, "tasks", q->tasks);
		lc_json_kint(&s->l.j, "due", q->due);
		lc_json_kint(&s->l.j, "dead", q->dead);
		lc_json_kint_opt(&s->l.j, "next_run_at", q->next_run_at);
		lc_json_kint(&s->l.j, "now", s->now);
		lc_json_end_obj(&s->l.j);
		return 0;
	}
	snprintf(tasks, sizeof(tasks), "%lld", (long long)q->tasks);
	snprintf(due, sizeof(due), "%lld", (long long)q->due);
	snprintf(dead, sizeof(dead), "%lld", (long long)q->dead);
	lc_fmt_when(next, sizeof(next), q->next_run_at, s->now);
	if (s->db)
		lc_table_row(&s->l.t, (const char *const[]){s->db, q->name, q->paused ? "paused" : "active", tasks, due,
							  dead, next});
	else
		lc_table_row(&s->l.t, (const char *const[]){q->name, q->paused ? "paused" : "active", tasks, due, dead,
							  next});
	return 0;
}

/* One database's queues into the listing, on its own clock. */
static int list_db(lq_db *db, const char *label, void *arg)
{
	struct queue_state *s = arg;
	lq_status st = lq_now(db, &s->now);

	s->db = label;
	if (st == LQ_OK)
		st = lq_queue_list(db, list_one, s);
	return st == LQ_OK ? 0 : lc_db_error(db, st);
}

static int cmd_queue_list(struct lc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {"QUEUE", "STATE", "TASKS", "DUE", "DEAD", "NEXT RUN"};
	static const char *const db_heads[] = {"DB", "QUEUE", "STATE", "TASKS", "DUE", "DEAD", "NEXT RUN"};
	struct list_args a = {0};
	struct queue_state s = {0};
	int rc = lc_parse(ctx, &list_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_listing_begin(&s.l, ctx->json, ctx->ndsn > 1 ? 7 : 6, ctx->ndsn > 1 ? db_heads : heads)))
		return rc;
	rc = lc_each_db(ctx, list_db, &s);
	/* Several databases: what the reachable ones hold, and the failure's status. */
	lc_listing_end(&s.l, !rc || ctx->ndsn > 1, "no queues");
	return rc;
}

struct name_args {
	const char *queue;
};
static const struct lc_opt name_opts[] = {
	LC_ARG(struct name_args, queue, "QUEUE", 0, "the queue"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage pause_usage = {
	.path = "queue pause",
	.summary = "stop workers from claiming a queue's tasks",
	.description = "Tasks can still be added; none of the queue's tasks is claimed until\n"
		       "'queue resume'.  A task already running finishes.  JSON: {name, paused}.",
	.opts = name_opts,
	.examples = "leasectl queue pause mail",
	.exits = "0   paused\n64  bad usage or invalid name\n69  database unreachable\n1   other failure",
};
static const struct lc_usage resume_usage = {
	.path = "queue resume",
	.summary = "let workers claim a paused queue's tasks again",
	.description = "Undoes 'queue pause'.  JSON: {name, paused}.",
	.opts = name_opts,
	.examples = "leasectl queue resume mail",
	.exits = "0   resumed\n64  bad usage or invalid name\n69  database unreachable\n1   other failure",
};

static int pause_command(struct lc_ctx *ctx, const struct lc_usage *u, int paused, int argc, char **argv)
{
	struct name_args a = {0};
	int rc = lc_parse(ctx, u, &a, argc, argv);
	char buf[600];
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_check_name(ctx, "queue name", a.queue)) || (rc = lc_open(ctx, &db)))
		return rc;
	st = lq_queue_pause(db, a.queue, paused);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "name", a.queue);
		lc_json_kbool(&j, "paused", paused);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		printf("%s queue \"%s\"\n", paused ? "paused" : "resumed", lc_pr(buf, sizeof(buf), a.queue));
	}
	lq_close(db);
	return rc;
}

static int cmd_queue_pause(struct lc_ctx *ctx, int argc, char **argv)
{
	return pause_command(ctx, &pause_usage, 1, argc, argv);
}

static int cmd_queue_resume(struct lc_ctx *ctx, int argc, char **argv)
{
	return pause_command(ctx, &resume_usage, 0, argc, argv);
}

const struct lc_cmd lc_queue_cmds[] = {
	{"list", cmd_queue_list, "list queues with their task counts", &list_usage, NULL},
	{"pause", cmd_queue_pause, "stop workers from claiming a queue's tasks", &pause_usage, NULL},
	{"resume", cmd_queue_resume, "let workers claim a paused queue's tasks again", &resume_usage, NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

int cmd_queue(struct lc_ctx *ctx, int argc, char **argv)
{
	return lc_dispatch(ctx, "queue", lc_queue_cmds, "Queues: named lines of tasks that can be paused", argc, argv);
}
