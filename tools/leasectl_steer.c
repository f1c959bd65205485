/*
 * leasectl_steer.c - steering recurring tasks: "task edit", "task run-now",
 * the --overlap/--catch-up/--alert-after words of "task add", and what
 * "task show" prints of a schedule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

const char *lc_overlap_name(lq_overlap o)
{
	switch (o) {
	case LQ_OVERLAP_SKIP:
		return "skip";
	case LQ_OVERLAP_QUEUE:
		return "queue";
	case LQ_OVERLAP_CANCEL_PREVIOUS:
		return "cancel-previous";
	default:
		return "skip"; /* the default: what skip does */
	}
}

int lc_steer_parse(const struct lc_ctx *ctx, const char *overlap, const char *catch_up, const char *alert_after,
		   int recurring, lq_task_opts *o)
{
	int64_t n = 0;
	int rc;

	if ((overlap || catch_up || alert_after) && !recurring)
		return lc_usage_error(ctx, "--%s only applies to recurring tasks (--every or --cron)",
				      overlap ? "overlap" : catch_up ? "catch-up" : "alert-after");
	if (overlap) {
		if (!strcmp(overlap, "skip"))
			o->overlap = LQ_OVERLAP_SKIP;
		else if (!strcmp(overlap, "queue"))
			o->overlap = LQ_OVERLAP_QUEUE;
		else if (!strcmp(overlap, "cancel-previous"))
			o->overlap = LQ_OVERLAP_CANCEL_PREVIOUS;
		else
			return lc_usage_error(ctx, "--overlap: expected skip, queue or cancel-previous, not \"%s\"",
					      overlap);
	}
	if (catch_up) {
		if ((rc = lc_integer(ctx, "--catch-up", catch_up, 0, LQ_CATCH_UP_MAX, &n)))
			return rc;
		if (o->missed == LQ_MISSED_SKIP && n > 0)
			return lc_usage_error(ctx, "--catch-up %lld and --missed skip cannot be combined", (long long)n);
		/* once is catch-up 1 and skip is catch-up 0: stored as missed. */
		if (n == 0)
			o->missed = LQ_MISSED_SKIP;
		else if (n > 1)
			o->catch_up = (int)n;
	}
	if (alert_after && (rc = lc_duration(ctx, "--alert-after", alert_after, 0, &o->alert_after_ms)))
		return rc;
	return 0;
}

void lc_json_schedule(struct lc_json *j, const lq_schedule *s)
{
	lc_json_kstr(j, "overlap", lc_overlap_name(s->overlap));
	lc_json_kint(j, "catch_up", s->catch_up);
	lc_json_kint_opt(j, "alert_after_ms", s->alert_after_ms);
	lc_json_kint_opt(j, "last_success_at", s->last_success_at);
	lc_json_kint(j, "since_success_ms", s->since_success_ms);
	lc_json_kbool(j, "overdue", s->overdue);
	lc_json_kint_opt(j, "next_at", s->next_at);
}

void lc_print_schedule(const lq_schedule *s)
{
	char d[32], when[64];

	printf("overlap:      %s\n", lc_overlap_name(s->overlap));
	printf("catch_up:     %d\n", s->catch_up);
	if (s->next_at) {
		lc_fmt_when(when, sizeof(when), s->next_at, s->now);
		printf("regular next: %s (after the run-now)\n", when);
	}
	if (s->last_success_at) {
		lc_fmt_when(when, sizeof(when), s->last_success_at, s->now);
		printf("last_success: %s\n", when);
	} else {
		printf("last_success: never\n");
	}
	if (s->alert_after_ms) {
		lc_fmt_duration(d, sizeof(d), s->alert_after_ms);
		printf("alert_after:  %s%s\n", d, s->overdue ? " (OVERDUE)" : "");
	}
}

#define STEER_EXITS "0   done\n1   no such task (\"task 42: not found\"), or other failure\n" \
		    "64  bad usage, invalid id or schedule, or not a recurring task\n    (nothing changed)\n"

/* ------------------------------------------------------------ edit */

struct edit_args {
	const char *id, *every, *cron, *tz;
};
static const struct lc_opt edit_opts[] = {
	LC_ARG(struct edit_args, id, "ID", 0, "the recurring task's id"),
	LC_VALUE(struct edit_args, every, "every", 0, "DUR", 0, "the new schedule: every DUR, 10ms to ten years"),
	LC_VALUE(struct edit_args, cron, "cron", 0, "EXPR", 0, "the new schedule: a 5-field cron expression, or @daily etc."),
	LC_VALUE(struct edit_args, tz, "tz", 0, "ZONE", 0, "the IANA time zone of --cron (default UTC)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_task_edit_usage = {
	.path = "task edit",
	.summary = "change a recurring task's schedule in place",
	.description = "Replaces the schedule of a recurring task, keeping its id, payload, history\n"
		       "and policies.  The next occurrence is the new schedule's first after now on\n"
		       "the database clock.  The edit is conditional on the occurrence it read, so\n"
		       "an occurrence claimed at the same moment runs under the old schedule or the\n"
		       "new one, never both.  An occurrence running under an at-least-once claim\n"
		       "finishes, and its ack moves on to the new schedule.  Prints the next\n"
		       "occurrence.  JSON: the task afterwards.",
	.opts = edit_opts,
	.examples = "leasectl task edit 42 --every 10m\n"
		    "leasectl task edit 42 --cron '30 2 * * *' --tz Europe/Paris",
	.exits = STEER_EXITS "69  database unreachable\n75  claims kept moving the row; try again",
};

static int print_task_json(lq_db *db, int64_t id)
{
	struct lc_json j;
	lq_task t;
	lq_schedule s;

	memset(&t, 0, sizeof(t));
	lc_json_init(&j, stdout);
	lc_json_obj(&j);
	if (lq_task_get(db, id, &t) == LQ_OK) {
		lc_json_task(&j, &t, 0);
		lq_task_clear(&t);
	} else {
		lc_json_kint(&j, "id", id);
	}
	if (lq_schedule_get(db, id, &s) == LQ_OK)
		lc_json_schedule(&j, &s);
	lc_json_end_obj(&j);
	lc_json_end(&j);
	return 0;
}

int cmd_task_edit(struct lc_ctx *ctx, int argc, char **argv)
{
	struct edit_args a = {0};
	int rc = lc_parse(ctx, &lc_task_edit_usage, &a, argc, argv);
	int64_t id = 0, every = 0, next = 0;
	char msg[256] = "", when[64];
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_integer(ctx, "task id", a.id, 1, INT64_MAX, &id)))
		return rc;
	if (!a.every == !a.cron)
		return lc_usage_error(ctx, "task %lld: give --every DUR or --cron EXPR (one of them)", (long long)id);
	if (a.tz && !a.cron)
		return lc_usage_error(ctx, "task %lld: --tz only applies to --cron", (long long)id);
	if (a.every && (rc = lc_duration(ctx, "--every", a.every, 0, &every)))
		return rc;
	if (a.every && (every < LQ_EVERY_MIN_MS || every > LQ_EVERY_MAX_MS))
		return lc_usage_error(ctx, "task %lld: --every \"%s\" is not from %dms to ten years", (long long)id,
				      a.every, LQ_EVERY_MIN_MS);
	if (a.cron && lq_check_schedule(a.cron, a.tz, msg, sizeof(msg)) != LQ_OK)
		return lc_usage_error(ctx, "task %lld: %s", (long long)id, msg[0] ? msg : "invalid --cron or --tz");
	if ((rc = lc_open(ctx, &db)))
		return rc;
	st = lq_task_edit_schedule(db, id, every, a.cron, a.tz, &next);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		rc = print_task_json(db, id);
	} else {
		lq_schedule s;
		int64_t now = lq_schedule_get(db, id, &s) == LQ_OK ? s.now : next;
		lc_fmt_when(when, sizeof(when), next, now);
		printf("task %lld: next occurrence %s\n", (long long)id, when);
	}
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ run-now */

struct run_now_args {
	const char *id;
};
static const struct lc_opt run_now_opts[] = {
	LC_ARG(struct run_now_args, id, "ID", 0, "the task id"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_task_run_now_usage = {
	.path = "task run-now",
	.summary = "one extra occurrence of a recurring task, now",
	.description = "Makes one extra occurrence of a recurring task due now; the next regular\n"
		       "occurrence stays where it was (the schedule does not shift).  Refused\n"
		       "(exit 75, nothing changed) while an occurrence is due or running, while a\n"
		       "run-now is pending, or while the task is paused.  A one-off task becomes\n"
		       "due now, as with 'task retry'.  JSON: the task afterwards.",
	.opts = run_now_opts,
	.examples = "leasectl task run-now 42",
	.exits = "0   the extra occurrence is due\n1   no such task, or other failure\n"
		 "64  bad usage or invalid id\n69  database unreachable\n"
		 "75  an occurrence is due or running, a run-now is pending, or paused",
};

int cmd_task_run_now(struct lc_ctx *ctx, int argc, char **argv)
{
	struct run_now_args a = {0};
	int rc = lc_parse(ctx, &lc_task_run_now_usage, &a, argc, argv);
	int64_t id = 0;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_integer(ctx, "task id", a.id, 1, INT64_MAX, &id)) || (rc = lc_open(ctx, &db)))
		return rc;
	st = lq_task_run_now(db, id);
	if (st != LQ_OK)
		rc = lc_db_error(db, st);
	else if (ctx->json)
		rc = print_task_json(db, id);
	else
		printf("task %lld: an extra occurrence is due now\n", (long long)id);
	lq_close(db);
	return rc;
}

/* /metrics: the dead-man gauges of the schedules with --alert-after, one
 * family after the other (a family's samples must stay together). */
struct prom_ctx {
	FILE *f;
	int overdue; /* which family */
};

/* A Prometheus label value: backslash, quote and newline escaped. */
static void prom_value(char *out, size_t size, const char *s)
{
	size_t o = 0;

	for (; *s && o + 3 < size; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			out[o++] = '\\';
		out[o++] = *s == '\n' ? 'n' : *s;
	}
	out[o] = '\0';
}

static int prom_schedule(const lq_schedule *s, void *arg)
{
	struct prom_ctx *p = arg;
	char queue[2 * LQ_NAME_MAX + 2], name[2 * LQ_NAME_MAX + 2];

	prom_value(queue, sizeof(queue), s->queue);
	prom_value(name, sizeof(name), s->name);
	if (p->overdue)
		fprintf(p->f, "leaseq_schedule_overdue{queue=\"%s\",name=\"%s\",id=\"%lld\"} %d\n", queue, name,
			(long long)s->id, s->overdue);
	else
		fprintf(p->f, "leaseq_schedule_seconds_since_success{queue=\"%s\",name=\"%s\",id=\"%lld\"} %lld.%03lld\n",
			queue, name, (long long)s->id, (long long)(s->since_success_ms / 1000),
			(long long)(s->since_success_ms % 1000));
	return 0;
}

lq_status lc_prom_schedules(FILE *f, lq_db *db)
{
	struct prom_ctx p = {f, 0};
	lq_status st;

	fputs("# HELP leaseq_schedule_seconds_since_success Since the last success (or the creation) of a "
	      "schedule with --alert-after.\n# TYPE leaseq_schedule_seconds_since_success gauge\n",
	      f);
	if ((st = lq_schedule_list(db, LQ_SCHEDULE_ALERTED, prom_schedule, &p)) != LQ_OK)
		return st;
	fputs("# HELP leaseq_schedule_overdue 1 when a schedule's last success is older than its --alert-after.\n"
	      "# TYPE leaseq_schedule_overdue gauge\n",
	      f);
	p.overdue = 1;
	return lq_schedule_list(db, LQ_SCHEDULE_ALERTED, prom_schedule, &p);
}
