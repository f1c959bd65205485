/*
 * leasectl_prune.c - "leasectl prune --older-than DUR [--queue Q] [--dry-run]".
 */
#include <stdio.h>

#include "leasectl.h"

struct prune_args {
	const char *older_than, *queue;
	int dry_run;
};

static const struct lc_opt prune_opts[] = {
	LC_VALUE(struct prune_args, older_than, "older-than", 0, "DUR", LC_REQUIRED,
		 "remove what died more than DUR ago (e.g. 30d; 0s: every dead\ntask)"),
	LC_VALUE(struct prune_args, queue, "queue", 0, "Q", 0, "only this queue (default: every queue)"),
	LC_FLAG(struct prune_args, dry_run, "dry-run", 'n', "count what would go; remove nothing"),
	LC_OPT_TABLE_END,
};

const struct lc_usage lc_prune_usage = {
	.path = "prune",
	.summary = "remove dead tasks and run history older than an age",
	.description =
		"Removes dead tasks (out of attempts, or given up) that died more than\n"
		"--older-than ago, and the run history ('task history') of runs that\n"
		"ended more than --older-than ago, oldest first, in batches of at most\n"
		"1000 rows, each its own statement: no long lock on a big table, so it is\n"
		"safe to run from cron next to workers.  Live tasks are never touched,\n"
		"and leases never pruned (a lease's fencing token must keep growing).\n"
		"Ages are measured on the database clock.  The counters that /metrics\n"
		"and 'stats' report are never pruned.  Prints \"pruned N dead tasks\"\n"
		"and \"pruned M runs\" (with --dry-run: \"would prune ...\"); JSON:\n"
		"{\"removed\": N, \"runs_removed\": M, \"dry_run\": bool}.",
	.opts = prune_opts,
	.examples = "leasectl prune --older-than 30d --dry-run\n"
		    "17 4 * * * leasectl prune --older-than 30d --queue mail",
	.exits = "0   pruned (also when nothing was old enough)\n"
		 "64  bad usage (e.g. --older-than missing or not a duration)\n"
		 "69  database unreachable\n"
		 "1   other failure (what was pruned before it stays pruned)",
};

int cmd_prune(struct lc_ctx *ctx, int argc, char **argv)
{
	struct prune_args a = {0};
	int rc = lc_parse(ctx, &lc_prune_usage, &a, argc, argv);
	int64_t age = 0, n = 0, runs = 0;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_duration(ctx, "--older-than", a.older_than, LC_DUR_ZERO_OK, &age)) ||
	    (a.queue && (rc = lc_check_name(ctx, "queue name", a.queue))))
		return rc;
	if ((rc = lc_open(ctx, &db)))
		return rc;
	st = lq_task_prune(db, age, a.queue, a.dry_run ? LQ_PRUNE_DRY_RUN : 0, &n);
	if (st == LQ_OK)
		st = lq_run_prune(db, age, a.queue, a.dry_run ? LQ_PRUNE_DRY_RUN : 0, &runs);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		if (n > 0)
			lc_errorf("prune: %lld dead task%s and %lld run%s were removed before the failure",
				  (long long)n, n == 1 ? "" : "s", (long long)runs, runs == 1 ? "" : "s");
		lq_close(db);
		return rc;
	}
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "removed", n);
		lc_json_kint(&j, "runs_removed", runs);
		lc_json_kbool(&j, "dry_run", a.dry_run);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		printf("%s %lld dead task%s\n", a.dry_run ? "would prune" : "pruned", (long long)n, n == 1 ? "" : "s");
		printf("%s %lld run%s\n", a.dry_run ? "would prune" : "pruned", (long long)runs, runs == 1 ? "" : "s");
	}
	lq_close(db);
	return LC_EXIT_OK;
}
