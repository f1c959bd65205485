/*
 * leasectl_stats.c - "leasectl stats [--format text|json|prometheus]":
 * lease and queue counts, for people and for monitoring.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

#define LC_STATS_RECENT_MS (3600 * 1000) /* "runs, last hour" */
#define LC_METRICS_CAP 10000             /* per-queue counts of /metrics stop here */

struct stats_args {
	const char *format;
};
static const struct lc_opt stats_opts[] = {
	LC_VALUE(struct stats_args, format, "format", 0, "FMT", 0,
		 "text (default; json with --json), json, or prometheus (the text\n"
		 "exposition format, e.g. for node_exporter's textfile collector)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_stats_usage = {
	.path = "stats",
	.summary = "lease and queue counts, as text, JSON or Prometheus metrics",
	.description = "Counts leases (held or not) and, per queue, live, due and dead tasks, whether\n"
		       "the queue is paused and when its next task is due; the runs that ended in\n"
		       "the last hour by outcome (from the run history, 'task history'); and the\n"
		       "lease counters since the schema began keeping them (taken, lost: taken\n"
		       "over after expiring in its holder's hands, broken).  These counts are\n"
		       "exact: they read every task (see 'serve' for bounded ones).  JSON: {now,\n"
		       "leases: {total, held}, tasks: {live, due, dead}, runs_last_hour: {done,\n"
		       "failed, timed_out, dead, cancelled}, leases_total: {taken, lost, broken},\n"
		       "queues: [{name, paused, tasks, due, dead, next_run_at}]}.  Prometheus: also\n"
		       "the _total counters of runs per queue and name, as /metrics.",
	.opts = stats_opts,
	.examples = "leasectl stats\n"
		    "leasectl stats --format prometheus > /var/lib/node_exporter/leaseq.prom",
	.exits = "0   printed\n64  bad usage\n69  database unreachable\n1   other failure",
};

static int count_lease(const lq_lease *l, void *arg)
{
	struct lc_stats *s = arg;

	s->leases++;
	s->held += lq_lease_held(l) != 0;
	return 0;
}

static int add_queue(const lq_queue_info *q, void *arg)
{
	struct lc_stats *s = arg;

	if (s->nq == s->capq) {
		size_t cap = s->capq ? s->capq * 2 : 16;
		lq_queue_info *v = realloc(s->q, cap * sizeof(*v));
		if (!v) {
			s->oom = 1;
			return 1;
		}
		s->q = v;
		s->capq = cap;
	}
	s->q[s->nq++] = *q;
	s->live += q->tasks;
	s->due += q->due;
	s->dead += q->dead;
	return 0;
}

/* A Prometheus label value: backslash, quote and newline escaped. */
static void prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void prom_queue_metric(FILE *f, const struct lc_stats *s, const char *name, const char *help, int which)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (size_t i = 0; i < s->nq; i++) {
		const lq_queue_info *q = &s->q[i];
		int64_t v = which == 0 ? q->tasks : which == 1 ? q->due : which == 2 ? q->dead : q->paused;
		if (which == 4 && !q->next_run_at)
			continue;
		fprintf(f, "%s{queue=\"", name);
		prom_label(f, q->name);
		if (which == 4)
			fprintf(f, "\"} %lld.%03lld\n", (long long)(q->next_run_at / 1000),
				(long long)(q->next_run_at % 1000));
		else
			fprintf(f, "\"} %lld\n", (long long)v);
	}
}

static void prom_run_counter(FILE *f, const struct lc_stats *s, const char *name, const char *help, int which)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	for (size_t i = 0; i < s->nrc; i++) {
		const lq_run_counts *c = &s->rc[i].c;
		int64_t v = which == 0 ? c->done : which == 1 ? c->failed + c->timed_out + c->dead
			  : which == 2 ? c->timed_out : which == 3 ? c->dead : c->cancelled;
		fprintf(f, "%s{queue=\"", name);
		prom_label(f, s->rc[i].queue);
		fputs("\",name=\"", f);
		prom_label(f, s->rc[i].name);
		fprintf(f, "\"} %lld\n", (long long)v);
	}
}

static void prom_counters(FILE *f, const struct lc_stats *s)
{
	prom_run_counter(f, s, "leaseq_tasks_completed_total",
			 "Runs that succeeded (their ack committed), per queue and task name.", 0);
	prom_run_counter(f, s, "leaseq_tasks_failed_total",
			 "Runs that did not succeed (failed, timed out or dead), per queue and task name.", 1);
	prom_run_counter(f, s, "leaseq_tasks_timed_out_total",
			 "Runs stopped past their time limit (also in failed), per queue and task name.", 2);
	prom_run_counter(f, s, "leaseq_tasks_dead_total",
			 "Runs that failed on their last attempt (also in failed), per queue and task name.", 3);
	prom_run_counter(f, s, "leaseq_tasks_cancelled_total",
			 "Tasks cancelled (task cancel), running or not yet started, per queue and task name.", 4);
	fprintf(f, "# HELP leaseq_leases_taken_total Lease acquisitions (from the fencing tokens).\n"
		   "# TYPE leaseq_leases_taken_total counter\nleaseq_leases_taken_total %lld\n",
		(long long)s->leases_total.taken);
	fprintf(f, "# HELP leaseq_leases_lost_total Leases taken over after expiring in their owner's hands.\n"
		   "# TYPE leaseq_leases_lost_total counter\nleaseq_leases_lost_total %lld\n",
		(long long)s->leases_total.lost);
	fprintf(f, "# HELP leaseq_leases_broken_total Leases broken by an administrator.\n"
		   "# TYPE leaseq_leases_broken_total counter\nleaseq_leases_broken_total %lld\n",
		(long long)s->leases_total.broken);
}

void lc_stats_prometheus(FILE *f, const struct lc_stats *s)
{
	fprintf(f, "# HELP leaseq_leases Leases ever acquired (rows in lq_lease).\n# TYPE leaseq_leases gauge\n"
	       "leaseq_leases %lld\n", (long long)s->leases);
	fprintf(f, "# HELP leaseq_leases_held Leases held now.\n# TYPE leaseq_leases_held gauge\n"
	       "leaseq_leases_held %lld\n", (long long)s->held);
	prom_queue_metric(f, s, "leaseq_queue_tasks", "Live tasks per queue.", 0);
	prom_queue_metric(f, s, "leaseq_queue_due", "Tasks due now per queue.", 1);
	prom_queue_metric(f, s, "leaseq_queue_dead", "Dead tasks (out of attempts) per queue.", 2);
	prom_queue_metric(f, s, "leaseq_queue_paused", "1 when the queue is paused.", 3);
	prom_queue_metric(f, s, "leaseq_queue_next_run_timestamp_seconds",
			  "When the queue's next unpaused task is due (Unix time).", 4);
	fprintf(f, "# HELP leaseq_database_time_seconds The database clock.\n"
	       "# TYPE leaseq_database_time_seconds gauge\nleaseq_database_time_seconds %lld.%03lld\n",
	       (long long)(s->now / 1000), (long long)(s->now % 1000));
	if (s->cap)
		fprintf(f, "# HELP leaseq_queue_count_cap Per-queue task, due and dead counts stop here: "
			   "this value means at least this many.\n# TYPE leaseq_queue_count_cap gauge\nleaseq_queue_count_cap %lld\n",
			(long long)s->cap);
	prom_counters(f, s);
}

static int add_counter(const char *queue, const char *name, const lq_run_counts *c, void *arg)
{
	struct lc_stats *s = arg;

	if (s->nrc == s->caprc) {
		size_t cap = s->caprc ? s->caprc * 2 : 16;
		struct lc_run_counter *v = realloc(s->rc, cap * sizeof(*v));
		if (!v) {
			s->oom = 1;
			return 1;
		}
		s->rc = v;
		s->caprc = cap;
	}
	snprintf(s->rc[s->nrc].queue, sizeof(s->rc[s->nrc].queue), "%s", queue);
	snprintf(s->rc[s->nrc].name, sizeof(s->rc[s->nrc].name), "%s", name);
	s->rc[s->nrc++].c = *c;
	return 0;
}

lq_status lc_stats_collect_counters(lq_db *db, struct lc_stats *s)
{
	lq_status st = lq_counters(db, &s->leases_total, add_counter, s);

	return st == LQ_OK && s->oom ? LQ_ENOMEM : st;
}

lq_status lc_stats_collect_bounded(lq_db *db, struct lc_stats *s)
{
	lq_status st = lq_now(db, &s->now);

	s->cap = LC_METRICS_CAP;
	if (st == LQ_OK)
		st = lq_lease_list(db, count_lease, s);
	if (st == LQ_OK)
		st = lq_queue_gauges(db, s->cap, add_queue, s);
	if (st == LQ_OK && s->oom)
		st = LQ_ENOMEM;
	if (st == LQ_OK)
		st = lc_stats_collect_counters(db, s);
	return st;
}

void lc_stats_free(struct lc_stats *s)
{
	free(s->q);
	free(s->rc);
	s->q = NULL;
	s->rc = NULL;
}

lq_status lc_stats_collect(lq_db *db, struct lc_stats *s)
{
	lq_status st = lq_now(db, &s->now);

	if (st == LQ_OK)
		st = lq_lease_list(db, count_lease, s);
	if (st == LQ_OK)
		st = lq_queue_list(db, add_queue, s);
	if (st == LQ_OK && s->oom)
		st = LQ_ENOMEM;
	if (st == LQ_OK)
		st = lq_run_count_since(db, LC_STATS_RECENT_MS, NULL, &s->last_hour);
	return st;
}

static void print_json(const struct lc_stats *s, const char *db)
{
	struct lc_json j;

	lc_json_init(&j, stdout);
	lc_json_obj(&j);
	if (db)
		lc_json_kstr(&j, "db", db);
	lc_json_kint(&j, "now", s->now);
	lc_json_key(&j, "leases");
	lc_json_obj(&j);
	lc_json_kint(&j, "total", s->leases);
	lc_json_kint(&j, "held", s->held);
	lc_json_end_obj(&j);
	lc_json_key(&j, "tasks");
	lc_json_obj(&j);
	lc_json_kint(&j, "live", s->live);
	lc_json_kint(&j, "due", s->due);
	lc_json_kint(&j, "dead", s->dead);
	lc_json_end_obj(&j);
	lc_json_key(&j, "runs_last_hour");
	lc_json_obj(&j);
	lc_json_kint(&j, "done", s->last_hour.done);
	lc_json_kint(&j, "failed", s->last_hour.failed);
	lc_json_kint(&j, "timed_out", s->last_hour.timed_out);
	lc_json_kint(&j, "dead", s->last_hour.dead);
	lc_json_kint(&j, "cancelled", s->last_hour.cancelled);
	lc_json_end_obj(&j);
	lc_json_key(&j, "leases_total");
	lc_json_obj(&j);
	lc_json_kint(&j, "taken", s->leases_total.taken);
	lc_json_kint(&j, "lost", s->leases_total.lost);
	lc_json_kint(&j, "broken", s->leases_total.broken);
	lc_json_end_obj(&j);
	lc_json_key(&j, "queues");
	lc_json_arr(&j);
	for (size_t i = 0; i < s->nq; i++) {
		lc_json_obj(&j);
		lc_json_kstr(&j, "name", s->q[i].name);
		lc_json_kbool(&j, "paused", s->q[i].paused);
		lc_json_kint(&j, "tasks", s->q[i].tasks);
		lc_json_kint(&j, "due", s->q[i].due);
		lc_json_kint(&j, "dead", s->q[i].dead);
		lc_json_kint_opt(&j, "next_run_at", s->q[i].next_run_at);
		lc_json_end_obj(&j);
	}
	lc_json_end_arr(&j);
	lc_json_end_obj(&j);
	lc_json_end(&j);
}

static void print_text(const struct lc_stats *s, const char *db)
{
	static const char *const heads[] = {"QUEUE", "STATE", "TASKS", "DUE", "DEAD", "NEXT RUN"};
	struct lc_table t;
	char now[40];

	if (db)
		printf("database:        %s\n", db);
	lc_fmt_time(now, sizeof(now), s->now);
	printf("database clock:  %s\n", now);
	printf("leases:          %lld (%lld held)\n", (long long)s->leases, (long long)s->held);
	printf("tasks:           %lld live, %lld due, %lld dead, in %zu queue%s\n", (long long)s->live,
	       (long long)s->due, (long long)s->dead, s->nq, s->nq == 1 ? "" : "s");
	printf("runs, last hour: %lld done, %lld failed, %lld timed out, %lld dead, %lld cancelled\n",
	       (long long)s->last_hour.done, (long long)s->last_hour.failed, (long long)s->last_hour.timed_out,
	       (long long)s->last_hour.dead, (long long)s->last_hour.cancelled);
	printf("leases, ever:    %lld taken, %lld lost, %lld broken\n", (long long)s->leases_total.taken,
	       (long long)s->leases_total.lost, (long long)s->leases_total.broken);
	if (!s->nq)
		return;
	putchar('\n');
	lc_table_init(&t, 6, heads);
	for (size_t i = 0; i < s->nq; i++) {
		const lq_queue_info *q = &s->q[i];
		char tasks[32], due[32], dead[32], next[96];
		snprintf(tasks, sizeof(tasks), "%lld", (long long)q->tasks);
		snprintf(due, sizeof(due), "%lld", (long long)q->due);
		snprintf(dead, sizeof(dead), "%lld", (long long)q->dead);
		lc_fmt_when(next, sizeof(next), q->next_run_at, s->now);
		lc_table_row(&t, (const char *const[]){q->name, q->paused ? "paused" : "active", tasks, due, dead, next});
	}
	lc_table_print(&t, stdout);
	lc_table_free(&t);
}

/* Several --db: one block (text) or object (in a JSON array) per database. */
struct stats_each {
	const char *fmt;
	int n;
};

static int stats_db(lq_db *db, const char *label, void *arg)
{
	struct stats_each *e = arg;
	struct lc_stats s = {0};
	lq_status st = lc_stats_collect(db, &s);

	if (st == LQ_OK)
		st = lc_stats_collect_counters(db, &s);
	if (st == LQ_OK) {
		if (!strcmp(e->fmt, "json"))
			printf("%s", e->n ? ",\n" : "[\n");
		else if (e->n)
			putchar('\n');
		if (!strcmp(e->fmt, "json"))
			print_json(&s, label);
		else
			print_text(&s, label);
		e->n++;
	}
	lc_stats_free(&s);
	return st == LQ_OK ? 0 : lc_db_error(db, st);
}

int cmd_stats(struct lc_ctx *ctx, int argc, char **argv)
{
	struct stats_args a = {0};
	struct lc_stats s = {0};
	int rc = lc_parse(ctx, &lc_stats_usage, &a, argc, argv);
	const char *fmt;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	fmt = a.format ? a.format : ctx->json ? "json" : "text";
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "prometheus"))
		return lc_usage_error(ctx, "--format: expected text, json or prometheus, not \"%s\"", fmt);
	if (ctx->ndsn > 1) {
		struct stats_each e = {fmt, 0};
		if (!strcmp(fmt, "prometheus"))
			return lc_usage_error(ctx, "--format prometheus reads one --db (one scrape target per database)");
		rc = lc_each_db(ctx, stats_db, &e);
		if (!strcmp(fmt, "json"))
			printf("%s]\n", e.n ? "" : "[\n");
		return rc;
	}
	if ((rc = lc_open_read(ctx, &db)))
		return rc;
	st = lc_stats_collect(db, &s);
	if (st == LQ_OK)
		st = lc_stats_collect_counters(db, &s);
	if (st != LQ_OK)
		rc = lc_db_error(db, st);
	else if (!strcmp(fmt, "prometheus"))
		lc_stats_prometheus(stdout, &s);
	else if (!strcmp(fmt, "json"))
		print_json(&s, NULL);
	else
		print_text(&s, NULL);
	lc_stats_free(&s);
	lq_close(db);
	return rc;
}
