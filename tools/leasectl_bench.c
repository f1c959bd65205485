/*
 * leasectl_bench.c - "leasectl bench": time leaseq's operations against raw
 * SQL baselines on the same database in the same run (lib/bench.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "leasectl.h"

struct bench_args {
	const char *ops, *rounds, *batch, *only;
};
static const struct lc_opt bench_opts[] = {
	LC_VALUE(struct bench_args, ops, "ops", 'n', "N", 0,
		 "operations per case and round (default 1000; for batch: tasks)"),
	LC_VALUE(struct bench_args, rounds, "rounds", 0, "N", 0,
		 "run each case N times and keep the fastest round (default 3)"),
	LC_VALUE(struct bench_args, batch, "batch", 0, "N", 0, "tasks per claim in the batch case (default 100)"),
	LC_VALUE(struct bench_args, only, "case", 0, "NAME", 0,
		 "run one case: enqueue, claim, claim+ack, batch, lease or tick"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_bench_usage = {
	.path = "bench",
	.summary = "time leaseq against raw SQL on this database",
	.description =
		"Runs each case twice on one connection: once through leaseq, and once as\n"
		"the fewest raw SQL statements a hand-written client would send for the\n"
		"same job, with none of leaseq's checks (sql/<dialect>/bench.sql).  The\n"
		"ratio is leaseq's time over the raw time: 1.00 is the database's own\n"
		"speed, 2.00 is half of it.  The two sides take turns going first and the\n"
		"fastest of --rounds counts.  Cases:\n"
		"  enqueue    lq_task_add                    vs one INSERT\n"
		"  claim      claim 1 task, at-most-once     vs DELETE by a known id\n"
		"  claim+ack  claim 1 task, at-least-once,   vs UPDATE + DELETE by id\n"
		"             then ack it\n"
		"  batch      claim --batch tasks at once    vs one DELETE of that many ids\n"
		"  lease      acquire + release a lease      vs two UPDATEs by name\n"
		"  tick       a web hit's tick, nothing due  vs one SELECT: is a task due?\n"
		"The benchmark writes to the database, in queues and leases named\n"
		"leaseq-bench-<random>, and removes them when it ends (also on Ctrl-C).\n"
		"It leaves other tasks and leases alone, but it does load the server: do\n"
		"not run it on a busy production database.  JSON: {backend, ops, rounds,\n"
		"batch, cases: [{name, op, baseline, ops, leaseq_sec, raw_sec,\n"
		"leaseq_ops_per_sec, raw_ops_per_sec, ratio}]}.",
	.opts = bench_opts,
	.examples = "leasectl bench\n"
		    "leasectl --db postgresql://app@db1/app bench --ops 5000 --case claim\n"
		    "leasectl bench --json | jq '.cases[] | {name, ratio}'",
	.exits = "0   measured\n64  bad usage\n69  database unreachable\n1   other failure, or stopped by a signal",
};

#define BENCH_MAX_CASES 16

struct bench_out {
	lq_bench_result r[BENCH_MAX_CASES];
	size_t n;
};

static volatile sig_atomic_t bench_stop;

static void on_signal(int sig)
{
	(void)sig;
	bench_stop = 1;
}

static void collect(const lq_bench_result *r, void *ctx)
{
	struct bench_out *out = ctx;
	if (out->n < BENCH_MAX_CASES)
		out->r[out->n++] = *r;
}

static double per_sec(int64_t ops, double sec)
{
	return sec > 0 ? (double)ops / sec : 0;
}

static double ratio(const lq_bench_result *r)
{
	return r->raw_sec > 0 ? r->lq_sec / r->raw_sec : 0;
}

static void print_json(lq_db *db, const lq_bench_opts *o, const struct bench_out *out)
{
	struct lc_json j;
	lc_json_init(&j, stdout);
	lc_json_obj(&j);
	lc_json_kstr(&j, "backend", lq_backend_name(db));
	lc_json_kint(&j, "ops", o->ops);
	lc_json_kint(&j, "rounds", o->rounds);
	lc_json_kint(&j, "batch", o->batch);
	lc_json_key(&j, "cases");
	lc_json_arr(&j);
	for (size_t i = 0; i < out->n; i++) {
		const lq_bench_result *r = &out->r[i];
		lc_json_obj(&j);
		lc_json_kstr(&j, "name", r->name);
		lc_json_kstr(&j, "op", r->op);
		lc_json_kstr(&j, "baseline", r->baseline);
		lc_json_kint(&j, "ops", r->ops);
		lc_json_knum(&j, "leaseq_sec", r->lq_sec, 6);
		lc_json_knum(&j, "raw_sec", r->raw_sec, 6);
		lc_json_knum(&j, "leaseq_ops_per_sec", per_sec(r->ops, r->lq_sec), 1);
		lc_json_knum(&j, "raw_ops_per_sec", per_sec(r->ops, r->raw_sec), 1);
		lc_json_knum(&j, "ratio", ratio(r), 2);
		lc_json_end_obj(&j);
	}
	lc_json_end_arr(&j);
	lc_json_end_obj(&j);
	lc_json_end(&j);
}

static void print_text(const struct lc_ctx *ctx, lq_db *db, const lq_bench_opts *o, const struct bench_out *out)
{
	static const char *const heads[] = {"CASE", "LEASEQ", "RAW SQL", "RATIO", "LEASEQ DOES", "BASELINE"};
	char dsn[512];
	struct lc_table t;

	lc_redact_dsn(lc_dsn(ctx), dsn, sizeof(dsn));
	printf("%s on %s, %d operation%s per case, fastest of %d round%s\n\n", lq_backend_name(db), dsn, o->ops,
	       o->ops == 1 ? "" : "s", o->rounds, o->rounds == 1 ? "" : "s");
	lc_table_init(&t, 6, heads);
	for (size_t i = 0; i < out->n; i++) {
		const lq_bench_result *r = &out->r[i];
		const char *unit = strcmp(r->name, "batch") == 0 ? "tasks/s" : "op/s";
		char ours[48], theirs[48], rt[16], op[128];
		snprintf(ours, sizeof(ours), "%.0f %s", per_sec(r->ops, r->lq_sec), unit);
		snprintf(theirs, sizeof(theirs), "%.0f %s", per_sec(r->ops, r->raw_sec), unit);
		snprintf(rt, sizeof(rt), "%.2f", ratio(r));
		if (strcmp(r->name, "batch") == 0)
			snprintf(op, sizeof(op), "%s (N = %d)", r->op, o->batch);
		else
			snprintf(op, sizeof(op), "%s", r->op);
		lc_table_row(&t, (const char *const[]){r->name, ours, theirs, rt, op, r->baseline});
	}
	lc_table_print(&t, stdout);
	lc_table_free(&t);
	printf("\nRATIO is leaseq's time over the raw SQL's: 1.00 is the database's own speed.\n");
}

static int int_opt(const struct lc_ctx *ctx, const char *flag, const char *text, int64_t def, int64_t max,
		   int *out)
{
	int64_t v = def;
	if (text && lc_integer(ctx, flag, text, 1, max, &v))
		return LC_EXIT_USAGE;
	*out = (int)v;
	return 0;
}

int cmd_bench(struct lc_ctx *ctx, int argc, char **argv)
{
	struct bench_args a = {0};
	lq_bench_opts o = {0};
	struct bench_out out = {0};
	lq_db *db = NULL;
	int rc = lc_parse(ctx, &lc_bench_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (int_opt(ctx, "--ops", a.ops, 1000, LQ_BENCH_OPS_MAX, &o.ops) ||
	    int_opt(ctx, "--rounds", a.rounds, 3, LQ_BENCH_ROUNDS_MAX, &o.rounds) ||
	    int_opt(ctx, "--batch", a.batch, 100, LQ_BENCH_BATCH_MAX, &o.batch))
		return LC_EXIT_USAGE;
	if (a.only && !lq__bench_has_case(a.only)) {
		char pr[80];
		return lc_usage_error(ctx, "--case: \"%s\" is not a case (enqueue, claim, claim+ack, batch, lease, tick)",
				      lc_pr(pr, sizeof(pr), a.only));
	}
	o.only = a.only;
	o.stop = &bench_stop;
	if ((rc = lc_open(ctx, &db)))
		return rc;

	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	lq_status st = lq__bench(db, &o, collect, &out);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	if (st == LQ_ETIMEDOUT) {
		lc_errorf("bench: stopped by a signal; its queues and leases were removed");
		rc = LC_EXIT_FAIL;
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		print_json(db, &o, &out);
	} else {
		print_text(ctx, db, &o, &out);
	}
	lq_close(db);
	return rc;
}
