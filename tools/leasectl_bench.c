/*
 * leasectl_bench.c - "leasectl bench": leaseq against the same jobs written
 * as raw SQL, with many client processes (tools/bench/).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "leasectl.h"

struct bench_args {
	struct lc_list workloads;
	const char *clients, *duration, *pending, *csv, *plot;
};
static const struct lc_opt bench_opts[] = {
	LC_LIST(struct bench_args, workloads, "workload", 'w', "W",
		"run workload W; repeat or give a comma list (default: all).  One of\n"
		"claim, claim-batch, claim-ack, claim-run, enqueue, enqueue-batch, lease,\n"
		"lease-hot, tick-idle, recurring, claim-fair, claim-fair-batch, claim-capped,\n"
		"claim-rated; and only when named: e2e-c, e2e-worker"),
	LC_VALUE(struct bench_args, clients, "clients", 'c', "N[,N]", 0,
		 "client processes, each with its own connection (default 1,4; at most 64)"),
	LC_VALUE(struct bench_args, duration, "duration", 'd', "DUR", 0,
		 "how long each side runs per workload and client count (default 3s)"),
	LC_VALUE(struct bench_args, pending, "pending", 0, "N", 0,
		 "tasks waiting in the claim queue before the claims start, half of\n"
		 "them due in a year, interleaved by id (default 10000)"),
	LC_VALUE(struct bench_args, csv, "csv", 0, "FILE", 0, "also write the results as CSV"),
	LC_VALUE(struct bench_args, plot, "plot", 0, "FILE.png", 0,
		 "also draw rows/s against clients with gnuplot (Debian: gnuplot-nox)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_bench_usage = {
	.path = "bench",
	.summary = "measure leaseq against the same jobs in raw SQL",
	.description =
		"Runs each workload twice on this database: through leaseq's C API, and as\n"
		"the same job written the fastest honest way in raw SQL through the same\n"
		"client library (tools/bench/sql/<dialect>/bench.sql), on leaseq's own\n"
		"tables.  Every client is a process with its own connection; the clients\n"
		"start together and run for --duration.  The two sides take turns (leaseq,\n"
		"raw, raw, leaseq, half the duration each).\n"
		"\n"
		"RATIO is leaseq's rows/s over the raw rows/s: 1.00 is the database's own\n"
		"speed, higher is better.  Rows are tasks claimed or enqueued, leases taken\n"
		"and released, or ticks.  P50 and P99 are leaseq's latency per call;\n"
		"STMT/OP counts the statements each side sends per call (lq_db_statements).\n"
		"\n"
		"Workloads (leaseq / raw):\n"
		"  claim        claim 1 task, at-most-once / DELETE ... WHERE id = (SELECT ...\n"
		"               FOR UPDATE SKIP LOCKED) RETURNING (MariaDB: SELECT ... SKIP\n"
		"               LOCKED, DELETE, COMMIT)\n"
		"  claim-batch  the same for 100 tasks\n"
		"  claim-ack    ack the task claimed last and claim the next, at-least-once,\n"
		"               in one call (lq_task_ack_claim) / UPDATE ... RETURNING, DELETE\n"
		"  claim-run    claim 1 at-most-once, then ack (the run's history row) / the\n"
		"               claim's DELETE, which keeps no history: claim-run's ratio\n"
		"               against claim's is what the history costs\n"
		"  enqueue      lq_task_add / one INSERT\n"
		"  enqueue-batch  lq_task_add_many of 100 tasks / one INSERT of 100\n"
		"               rows (one tuple per task, all or none)\n"
		"  lease        acquire + release, a lease per client / an upsert that takes\n"
		"               an expired lease, then a conditional UPDATE\n"
		"  lease-hot    the same with every client on one lease\n"
		"  tick-idle    a web hit's tick, nothing due / one SELECT: is a task due?\n"
		"  recurring    claim a due recurring task / UPDATE its run_at one interval on\n"
		"  claim-fair   claim 1 task of a queue whose tasks go round 10 partitions\n"
		"               (task add --partition: fair share) / claim's DELETE on that\n"
		"               queue: claim-fair's ratio against claim's is what fair share\n"
		"               costs\n"
		"  claim-fair-batch  the same for 100 tasks, against claim-batch\n"
		"  claim-capped claim 1 task whose concurrency key has a cap it never reaches\n"
		"               (limit set KEY --concurrency: the claim is at-least-once),\n"
		"               then ack / claim-ack's UPDATE and DELETE on that queue:\n"
		"               claim-capped's ratio against claim-ack's is what a cap costs\n"
		"  claim-rated  claim 1 task whose key has a rate it never uses up (limit set\n"
		"               KEY --rate) / claim's DELETE: against claim's, a rate's cost\n"
		"\n"
		"End to end (only when named with --workload; --clients counts workers):\n"
		"  e2e-c        worker processes running lq_runner_work at-least-once with an\n"
		"               empty C handler\n"
		"  e2e-worker   \"leasectl worker --at-least-once\" processes with a shell\n"
		"               handler (read the payload, echo it to a FIFO)\n"
		"  Rows/s: tasks run per second while a backlog of due tasks lasts; the raw\n"
		"  side is claim-ack's raw SQL with as many clients on the same queue (the\n"
		"  ceiling).  P50/P99: the pickup latency, from the return of a separate\n"
		"  enqueuer's lq_task_add (its commit) to the handler's start, both on\n"
		"  CLOCK_MONOTONIC, once the backlog is gone (100 tasks/s, e2e-worker 50/s,\n"
		"  at most a quarter of the workers' rate).\n"
		"  Idle workers poll with a back-off from 50-100 ms doubling to 5 s, and a\n"
		"  PostgreSQL NOTIFY ends the wait at once (the DSN's ?notify=off: polling\n"
		"  only).  --pending: tasks due in a year in the workers' queue.\n"
		"\n"
		"Everything the bench creates is named leaseq-bench-<random> and removed at\n"
		"the end, also on Ctrl-C; it applies leaseq's schema if it is missing.  It\n"
		"loads the server: do not run it on a busy production database.\n"
		"CSV columns: backend,workload,clients,pending,ops_per_s,rows_per_s,\n"
		"raw_rows_per_s,ratio,p50_us,p99_us,rss_kb (leaseq's side but raw_rows_per_s).\n"
		"JSON: {backend, dsn, duration_ms, pending, results: [{workload, clients,\n"
		"pending, ratio, dry, leaseq: {...}, raw: {...}}]}.",
	.opts = bench_opts,
	.examples = "leasectl bench\n"
		    "leasectl --db postgresql://app@db1/app bench -w claim -w claim-batch \\\n"
		    "    --clients 1,4,16\n"
		    "leasectl bench --pending 1000000 -w claim --csv claim-1m.csv\n"
		    "leasectl bench --duration 10s --csv bench.csv --plot bench.png",
	.exits = "0   measured\n64  bad usage\n69  database unreachable\n1   other failure, or stopped by a signal",
};

static volatile sig_atomic_t bench_stop;

static void on_signal(int sig)
{
	(void)sig;
	bench_stop = 1;
}

static void collect(const struct bench_result *r, void *ctx)
{
	struct bench_results *res = ctx;
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 16;
		struct bench_result *p = realloc(res->r, cap * sizeof(*p));
		if (!p)
			return;
		res->r = p;
		res->cap = cap;
	}
	res->r[res->n++] = *r;
}

static void json_side(struct lc_json *j, const char *key, const struct bench_side_result *s)
{
	lc_json_key(j, key);
	lc_json_obj(j);
	lc_json_kint(j, "ops", s->ops);
	lc_json_kint(j, "rows", s->rows);
	lc_json_knum(j, "ops_per_s", s->ops_s, 1);
	lc_json_knum(j, "rows_per_s", s->rows_s, 1);
	lc_json_knum(j, "p50_us", s->p50_us, 0);
	lc_json_knum(j, "p99_us", s->p99_us, 0);
	lc_json_knum(j, "statements_per_op", s->stmts_per_op, 3);
	lc_json_kint(j, "rss_start_kb", s->rss_start_kb);
	lc_json_kint(j, "rss_kb", s->rss_kb);
	lc_json_end_obj(j);
}

static void print_json(const struct lc_ctx *ctx, const char *backend, const struct bench_opts *o,
		       const struct bench_results *res)
{
	struct lc_json j;
	char dsn[512];
	lq_dsn_redact(lc_dsn(ctx), dsn, sizeof(dsn));
	lc_json_init(&j, stdout);
	lc_json_obj(&j);
	lc_json_kstr(&j, "backend", backend);
	lc_json_kstr(&j, "dsn", dsn);
	lc_json_kint(&j, "duration_ms", o->duration_ms);
	lc_json_kint(&j, "pending", o->pending);
	lc_json_key(&j, "results");
	lc_json_arr(&j);
	for (size_t i = 0; i < res->n; i++) {
		const struct bench_result *r = &res->r[i];
		lc_json_obj(&j);
		lc_json_kstr(&j, "workload", bench_workloads[r->w].name);
		lc_json_kint(&j, "clients", r->clients);
		lc_json_kint(&j, "pending", r->pending);
		lc_json_knum(&j, "ratio", r->ratio, 3);
		lc_json_kbool(&j, "dry", r->dry);
		if (BENCH_IS_E2E(r->w)) {
			lc_json_kint(&j, "enqueued", r->enqueued);
			lc_json_kint(&j, "enqueue_every_us", r->enqueue_every_us);
		}
		json_side(&j, "leaseq", &r->lq);
		json_side(&j, "raw", &r->raw);
		lc_json_end_obj(&j);
	}
	lc_json_end_arr(&j);
	lc_json_end_obj(&j);
	lc_json_end(&j);
}

static int parse_workloads(const struct lc_ctx *ctx, const struct lc_list *l, unsigned *out)
{
	*out = 0;
	for (size_t i = 0; i < l->n; i++) {
		const char *p = l->v[i];
		for (;;) {
			size_t n = strcspn(p, ",");
			char name[32];
			int w = -1;
			if (n > 0 && n < sizeof(name)) {
				memcpy(name, p, n);
				name[n] = '\0';
				w = bench_workload_find(name);
			}
			if (w < 0) {
				char pr[80];
				return lc_usage_error(ctx,
						      "--workload: \"%s\" is not a workload (claim, claim-batch, claim-ack, "
						      "claim-run, enqueue, enqueue-batch, lease, lease-hot, tick-idle, recurring, "
						      "claim-fair, claim-fair-batch, claim-capped, claim-rated, e2e-c, "
						      "e2e-worker)",
						      lc_pr(pr, sizeof(pr), l->v[i]));
			}
			*out |= 1u << w;
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	if (*out == 0)
		*out = BENCH_DEFAULT_WORKLOADS;
	return 0;
}

static int parse_clients(const struct lc_ctx *ctx, const char *text, struct bench_opts *o)
{
	o->nclients = 0;
	if (!text) {
		o->clients[o->nclients++] = 1;
		o->clients[o->nclients++] = 4;
		return 0;
	}
	const char *p = text;
	for (;;) {
		size_t n = strcspn(p, ",");
		char num[16];
		int64_t v;
		if (n == 0 || n >= sizeof(num)) {
			char pr[80];
			return lc_usage_error(ctx, "--clients: \"%s\" is not a comma list of client counts such as 1,4,16",
					      lc_pr(pr, sizeof(pr), text));
		}
		memcpy(num, p, n);
		num[n] = '\0';
		if (lc_integer(ctx, "--clients", num, 1, BENCH_CLIENTS_MAX, &v))
			return LC_EXIT_USAGE;
		if (o->nclients == BENCH_CLIENT_COUNTS_MAX)
			return lc_usage_error(ctx, "--clients: at most %d client counts", BENCH_CLIENT_COUNTS_MAX);
		o->clients[o->nclients++] = (int)v;
		if (!p[n])
			break;
		p += n + 1;
	}
	return 0;
}

static int bench_main(struct lc_ctx *ctx, struct bench_args *a);

int cmd_bench(struct lc_ctx *ctx, int argc, char **argv)
{
	struct bench_args a;
	memset(&a, 0, sizeof(a));
	int rc = lc_parse(ctx, &lc_bench_usage, &a, argc, argv);
	if (rc == 0)
		rc = bench_main(ctx, &a);
	free(a.workloads.v);
	return LC_PARSE_EXIT(rc);
}

static int bench_main(struct lc_ctx *ctx, struct bench_args *ap)
{
	const struct bench_args a = *ap;
	struct bench_opts o;
	struct bench_results res = {0};
	char err[1024];
	lq_db *db = NULL;
	int rc;

	memset(&o, 0, sizeof(o));
	int64_t pending = 10000;
	o.duration_ms = 3000;
	if (parse_workloads(ctx, &a.workloads, &o.workloads) || parse_clients(ctx, a.clients, &o) ||
	    (a.duration && lc_duration(ctx, "--duration", a.duration, 0, &o.duration_ms)) ||
	    (a.pending && lc_integer(ctx, "--pending", a.pending, 0, 100000000, &pending)))
		return LC_EXIT_USAGE;
	if (o.duration_ms < 100 || o.duration_ms > 3600 * 1000)
		return lc_usage_error(ctx, "--duration: %s is out of range (100ms to 1h)", a.duration);
	if (a.csv && !*a.csv)
		return lc_usage_error(ctx, "--csv: the file name is empty");
	if (a.plot && !*a.plot)
		return lc_usage_error(ctx, "--plot: the file name is empty");
	o.pending = pending;
	/* Say so now, not after minutes of measuring. */
	if (a.plot && !bench_have_gnuplot()) {
		lc_errorf("bench --plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
		return LC_EXIT_FAIL;
	}

	/* Both sides work on leaseq's tables: make sure they are there.  The
	 * connection is closed before the clients fork. */
	if ((rc = lc_open(ctx, &db)))
		return rc;
	lq_status st = lq_migrate(db, NULL, NULL);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		lq_close(db);
		return rc;
	}
	FILE *csv = NULL;
	if (a.csv && !(csv = fopen(a.csv, "w"))) {
		lc_errorf("bench --csv: cannot write %s: %s", a.csv, strerror(errno));
		lq_close(db);
		return LC_EXIT_FAIL;
	}
	char backend[16];
	snprintf(backend, sizeof(backend), "%s", lq_backend_name(db));
	lq_close(db);

	o.dsn = lc_dsn(ctx);
	o.backend = backend;
	/* e2e-worker starts this very program. */
	static char self[4096];
	ssize_t sn = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[sn > 0 ? sn : 0] = '\0';
	o.leasectl = self;
	o.progress = isatty(2);
	o.stop = &bench_stop;

	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = bench_run(&o, collect, &res, err, sizeof(err));
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	if (rc == 1) {
		lc_errorf("bench: stopped by a signal; its queues and leases were removed");
		rc = LC_EXIT_FAIL;
	} else if (rc != 0) {
		lc_errorf("bench: %s", err);
		rc = LC_EXIT_FAIL;
	} else {
		if (ctx->json) {
			print_json(ctx, backend, &o, &res);
		} else {
			char dsn[512];
			lq_dsn_redact(lc_dsn(ctx), dsn, sizeof(dsn));
			printf("%s on %s, %lld ms per side, clients", backend, dsn, (long long)o.duration_ms);
			for (int i = 0; i < o.nclients; i++)
				printf("%c%d", i ? ',' : ' ', o.clients[i]);
			printf(", %lld pending\n", (long long)o.pending);
			if (o.workloads & ((1u << BW_E2E_C) | (1u << BW_E2E_WORKER)))
				printf("end to end: at-least-once workers; idle ones poll with a back-off of 50-100 ms "
				       "doubling to 5 s%s\n",
				       strcmp(backend, "postgres") != 0 ? " (no NOTIFY on this backend)"
				       : strstr(lc_dsn(ctx), "notify=off") ? ", NOTIFY off (the DSN's notify=off)"
									  : ", woken by NOTIFY");
			printf("\n");
			bench_print_table(stdout, backend, &res);
		}
		if (csv && bench_write_csv(csv, a.csv, backend, &res, err, sizeof(err)) != 0) {
			lc_errorf("bench --csv: %s", err);
			rc = LC_EXIT_FAIL;
		}
		csv = NULL;
		if (rc == 0 && a.plot && bench_plot(a.plot, backend, &res, err, sizeof(err)) != 0) {
			lc_errorf("bench %s", err);
			rc = LC_EXIT_FAIL;
		}
	}
	if (csv) { /* nothing measured: no CSV */
		fclose(csv);
		remove(a.csv);
	}
	free(res.r);
	return rc;
}
