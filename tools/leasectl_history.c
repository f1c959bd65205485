/*
 * leasectl_history.c - "leasectl task history [ID | --name N | --queue Q]
 * [--since DUR] [--limit N]": the run history, newest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

struct history_args {
	const char *id, *name, *queue, *since, *limit;
};
static const struct lc_opt history_opts[] = {
	LC_ARG(struct history_args, id, "ID", LC_OPTIONAL, "only this task's runs"),
	LC_VALUE(struct history_args, name, "name", 0, "N", 0, "only the runs of tasks named N"),
	LC_VALUE(struct history_args, queue, "queue", 0, "Q", 0, "only the runs of queue Q"),
	LC_VALUE(struct history_args, since, "since", 0, "DUR", 0, "only the runs that ended in the last DUR (e.g. 1h)"),
	LC_VALUE(struct history_args, limit, "limit", 0, "N", 0, "at most N runs, newest first (default 100)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_task_history_usage = {
	.path = "task history",
	.summary = "the runs of tasks: who ran what, when, and how it ended",
	.description =
		"One line per finished run, newest first: run id, task id, queue, name,\n"
		"attempt, outcome, when it ended, how long it took (from the claim), the\n"
		"worker (host:pid) and the error.  Outcomes: done (the ack committed),\n"
		"failed (retried later), timed_out (stopped past its time limit; retried),\n"
		"dead (failed on its last attempt), cancelled ('task cancel': attempt 0\n"
		"when it never started).  At-least-once runs are recorded in\n"
		"the transaction of their ack or failure, so \"done\" always means the ack\n"
		"committed; at-most-once runs are recorded just after they end.  Handed\n"
		"back (unrun) tasks leave no row.  The history is kept until 'leasectl\n"
		"prune' removes it.  JSON: an array of {id, task_id, run_at, queue, name,\n"
		"worker, attempt, started_at, ended_at, outcome, error} (times in epoch ms).",
	.opts = history_opts,
	.examples = "leasectl task history 42\n"
		    "leasectl task history --queue mail --since 1h\n"
		    "leasectl task history --name report --json |\n"
		    "    jq '.[] | select(.outcome != \"done\")'",
	.exits = "0   listed (also when there are none)\n64  bad usage\n69  database unreachable\n1   other failure",
};

struct history_state {
	struct lc_listing l;
};

static int history_one(const lq_run *r, void *arg)
{
	struct history_state *s = arg;
	char id[32], task[32], att[16], when[96], took[32], err[64];

	s->l.n++;
	if (s->l.json) {
		lc_json_obj(&s->l.j);
		lc_json_kint(&s->l.j, "id", r->id);
		lc_json_kint(&s->l.j, "task_id", r->task_id);
		lc_json_kint(&s->l.j, "run_at", r->run_at);
		lc_json_kstr(&s->l.j, "queue", r->queue);
		lc_json_kstr(&s->l.j, "name", r->name);
		lc_json_kstr(&s->l.j, "worker", r->worker);
		lc_json_kint(&s->l.j, "attempt", r->attempt);
		lc_json_kint(&s->l.j, "started_at", r->started_at);
		lc_json_kint(&s->l.j, "ended_at", r->ended_at);
		lc_json_kstr(&s->l.j, "outcome", lq_outcome_name(r->outcome));
		lc_json_kstr_opt(&s->l.j, "error", r->error);
		lc_json_end_obj(&s->l.j);
		return 0;
	}
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	snprintf(task, sizeof(task), "%lld", (long long)r->task_id);
	snprintf(att, sizeof(att), "%d", r->attempt);
	lc_fmt_when(when, sizeof(when), r->ended_at, r->now);
	lc_fmt_duration(took, sizeof(took), r->ended_at > r->started_at ? r->ended_at - r->started_at : 0);
	/* Keep the table readable: the whole text is in --json. */
	lc_fmt_excerpt(err, sizeof(err), r->error);
	lc_table_row(&s->l.t, (const char *const[]){id, task, r->queue, r->name, att, lq_outcome_name(r->outcome),
						  when, took, r->worker, err[0] ? err : NULL});
	return 0;
}

int cmd_task_history(struct lc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {"RUN",   "TASK", "QUEUE", "NAME",   "ATTEMPT",
					    "OUTCOME", "ENDED", "TOOK",  "WORKER", "ERROR"};
	struct history_args a = {0};
	struct history_state s = {0};
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	int rc = lc_parse(ctx, &lc_task_history_usage, &a, argc, argv);
	lq_db *db = NULL;
	int64_t v;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (a.id && (a.name || a.queue))
		return lc_usage_error(ctx, "give a task ID or --name/--queue, not both");
	if (a.id && (rc = lc_integer(ctx, "task id", a.id, 1, INT64_MAX, &f.task_id)))
		return rc;
	if ((a.name && (rc = lc_check_name(ctx, "task name", a.name))) ||
	    (a.queue && (rc = lc_check_name(ctx, "queue name", a.queue))))
		return rc;
	if (a.since && (rc = lc_duration(ctx, "--since", a.since, 0, &f.since_ms)))
		return rc;
	if (a.limit) {
		if ((rc = lc_integer(ctx, "--limit", a.limit, 1, LQ_RUN_LIST_MAX, &v)))
			return rc;
		f.limit = (size_t)v;
	}
	f.name = a.name;
	f.queue = a.queue;
	if ((rc = lc_open_read(ctx, &db)))
		return rc;
	if ((rc = lc_listing_begin(&s.l, ctx->json, 10, heads)))
		goto done;
	st = lq_run_list(db, &f, history_one, &s);
	if (st != LQ_OK)
		rc = lc_db_error(db, st);
	lc_listing_end(&s.l, st == LQ_OK, "no runs");
done:
	lq_close(db);
	return rc;
}
