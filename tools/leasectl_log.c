/*
 * leasectl_log.c - what worker, tick and exec write on standard error, as
 * the text lines they always wrote or, with --log-format json, one JSON
 * object per line for a log collector: time, level, event and the task or
 * lease it is about.  Every error line (lc_errorf) follows the same format.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "leasectl.h"

/* One process writes one format: chosen once, by the command's flag. */
static int log_json;

int lc_log_set_format(const struct lc_ctx *ctx, const char *format)
{
	if (!format || !strcmp(format, "text")) {
		log_json = 0;
		return LC_EXIT_OK;
	}
	if (!strcmp(format, "json")) {
		log_json = 1;
		return LC_EXIT_OK;
	}
	return lc_usage_error(ctx, "--log-format: \"%s\" is not text or json", format);
}

int lc_log_is_json(void)
{
	return log_json;
}

static void iso_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%03dZ", (int)(ts.tv_nsec / 1000000) % 1000);
}

void lc_log_event(const char *level, const char *event, const struct lc_log_fields *f)
{
	struct lc_json j;
	char when[40];

	if (!log_json)
		return;
	iso_now(when, sizeof(when));
	fflush(stdout);
	lc_json_init(&j, stderr);
	j.compact = 1;
	lc_json_obj(&j);
	lc_json_kstr(&j, "time", when);
	lc_json_kstr(&j, "level", level);
	lc_json_kstr(&j, "event", event);
	if (f) {
		if (f->task) {
			lc_json_kint(&j, "task_id", f->task->id);
			lc_json_kstr(&j, "queue", f->task->queue);
			lc_json_kstr(&j, "name", f->task->name);
		}
		if (f->attempt > 0)
			lc_json_kint(&j, "attempt", f->attempt);
		if (f->lease)
			lc_json_kstr(&j, "lease", f->lease);
		if (f->token > 0)
			lc_json_kint(&j, "token", f->token);
		if (f->has_duration)
			lc_json_kint(&j, "duration_ms", f->duration_ms);
		if (f->has_exit_status)
			lc_json_kint(&j, "exit_status", f->exit_status);
		if (f->report)
			lc_json_report(&j, f->report);
		if (f->error)
			lc_json_kstr(&j, "error", f->error);
		if (f->message)
			lc_json_kstr(&j, "message", f->message);
	}
	lc_json_end_obj(&j);
	lc_json_end(&j);
	fflush(stderr);
}

void lc_log_outcome(const char *event, const struct lc_log_fields *f, const char *fmt, ...)
{
	struct lc_log_fields with = {0};
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!log_json) {
		lc_errorf("%s", msg);
		return;
	}
	if (f)
		with = *f;
	with.message = msg;
	lc_log_event("info", event, &with);
}

void lc_log_notice(void *ctx, const char *text)
{
	(void)ctx;
	if (log_json) {
		lc_log_event("warning", "notice", &(struct lc_log_fields){.message = text});
		return;
	}
	fflush(stdout);
	fprintf(stderr, "leasectl: note: %s\n", text);
}
