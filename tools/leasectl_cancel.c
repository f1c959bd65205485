/*
 * leasectl_cancel.c - "leasectl task cancel ID [--reason TEXT]": end a
 * task, also one a worker is running (lq_task_cancel).
 */
#include <stdio.h>

#include "leasectl.h"

struct cancel_args {
	const char *id, *reason;
};
static const struct lc_opt cancel_opts[] = {
	LC_ARG(struct cancel_args, id, "ID", 0, "the task id"),
	LC_VALUE(struct cancel_args, reason, "reason", 0, "TEXT", 0,
		 "why, kept in the run history (one line, at most 255 bytes)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_task_cancel_usage = {
	.path = "task cancel",
	.summary = "cancel a task, also one that is running: revoke its claim",
	.description =
		"The task leaves its queue at once and its run history gets one run with\n"
		"outcome \"cancelled\" ('task history'; attempt 0 when it never started).  A\n"
		"task not yet started never starts; a recurring task's schedule ends (use\n"
		"'task pause' to skip occurrences instead).  A task that a worker or tick is\n"
		"running (at-least-once or, by default, at-most-once) has its claim revoked:\n"
		"the worker notices at its next heartbeat (every --claim-ttl/3; 10s by\n"
		"default), stops the handler's process group (SIGTERM, then SIGKILL 5s\n"
		"later) and cannot acknowledge it, so it never runs again.  The occurrence\n"
		"of a recurring task running at-most-once goes on (its schedule ends).\n"
		"JSON: {\"id\": N, \"cancelled\": true, \"running\": true|false} (running: a\n"
		"worker's claim was revoked).",
	.opts = cancel_opts,
	.examples = "leasectl task cancel 42\n"
		    "leasectl task cancel 42 --reason \"customer withdrew the export\"",
	.exits = "0   cancelled\n"
		 "1   no such task (\"task 42: not found\": finished, dead or unknown), or\n"
		 "    other failure\n"
		 "64  bad usage, invalid id or reason\n69  database unreachable",
};

int cmd_task_cancel(struct lc_ctx *ctx, int argc, char **argv)
{
	struct cancel_args a = {0};
	int rc = lc_parse(ctx, &lc_task_cancel_usage, &a, argc, argv);
	int64_t id = 0;
	int running = 0;
	lq_db *db = NULL;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_integer(ctx, "task id", a.id, 1, INT64_MAX, &id)) || (rc = lc_open(ctx, &db)))
		return rc;
	lq_status st = lq_task_cancel(db, id, a.reason, &running);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (!ctx->json) {
		printf("cancelled task %lld%s\n", (long long)id, running ? " (its running handler is being stopped)" : "");
	} else {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "id", id);
		lc_json_kbool(&j, "cancelled", 1);
		lc_json_kbool(&j, "running", running);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	}
	lq_close(db);
	return rc;
}
