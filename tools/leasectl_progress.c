/*
 * leasectl_progress.c - a running task's progress in "task show", "task
 * result ID", and the control channel through which the handlers of
 * "leasectl worker" and "tick" (which get no database secrets) report
 * progress, snooze their task and hand over a result.
 *
 * The channel: fd 3 (LEASEQ_CONTROL_FD) takes lines, each at most
 * LC_CONTROL_LINE_MAX bytes with its newline:
 *     progress PERCENT [MESSAGE]      PERCENT 0-100, MESSAGE one line of UTF-8
 *     snooze DURATION                 e.g. 30s, 5m: run again then (on exit 0)
 * parsed strictly; anything else is logged and ignored, never executed.
 * fd 4 (LEASEQ_RESULT_FD) takes the result: whatever the handler writes
 * there, bytes as they are, at most LQ_RESULT_MAX.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leasectl.h"

/* ------------------------------------------------------------ task show */

void lc_print_progress(lq_db *db, int64_t id)
{
	lq_progress p;
	char buf[LQ_PROGRESS_MSG_MAX * 4 + 8], when[96];

	if (lq_task_progress_get(db, id, &p) != LQ_OK || p.percent < 0)
		return;
	lc_fmt_when(when, sizeof(when), p.updated_at, p.now);
	printf("progress:     %d%%%s%s, reported %s\n", p.percent, p.message[0] ? " " : "",
	       p.message[0] ? lc_pr(buf, sizeof(buf), p.message) : "", when);
}

void lc_json_progress(struct lc_json *j, lq_db *db, int64_t id)
{
	lq_progress p;

	if (lq_task_progress_get(db, id, &p) != LQ_OK)
		p.percent = -1;
	lc_json_key(j, "progress");
	if (p.percent >= 0)
		lc_json_int(j, p.percent);
	else
		lc_json_null(j);
	lc_json_kstr_opt(j, "progress_msg", p.percent >= 0 ? p.message : NULL);
	lc_json_kint_opt(j, "progress_at", p.percent >= 0 ? p.updated_at : 0);
}

/* ---------------------------------------------------------- task result */

struct result_args {
	const char *id;
};
static const struct lc_opt result_opts[] = {
	LC_ARG(struct result_args, id, "ID", 0, "the task id (the task itself may be gone)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_task_result_usage = {
	.path = "task result",
	.summary = "print the result a task's last successful run stored",
	.description =
		"Prints the newest result stored by a run of task ID (lq_task_ack_result, or\n"
		"what a worker's handler wrote to LEASEQ_RESULT_FD), byte for byte.  Results\n"
		"are kept with the run history, also after the task is gone, until 'leasectl\n"
		"prune' removes the run.  JSON: {\"task_id\": N, \"result_len\": N, \"result\":\n"
		"text} with \"result_base64\" in place of \"result\" when it is not UTF-8.",
	.opts = result_opts,
	.examples = "leasectl task result 42 > report.csv\n"
		    "leasectl --json task result 42 | jq -r .result",
	.exits = "0   printed\n1   no result for that task in the history, or other failure\n"
		 "64  bad usage or invalid id\n69  database unreachable",
};

int cmd_task_result(struct lc_ctx *ctx, int argc, char **argv)
{
	struct result_args a = {0};
	int rc = lc_parse(ctx, &lc_task_result_usage, &a, argc, argv);
	int64_t id = 0;
	lq_db *db = NULL;
	size_t len = 0;
	unsigned char *buf;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_integer(ctx, "task id", a.id, 1, INT64_MAX, &id)))
		return rc;
	if (!(buf = malloc(LQ_RESULT_MAX))) {
		lc_errorf("out of memory");
		return LC_EXIT_FAIL;
	}
	if ((rc = lc_open_read(ctx, &db))) {
		free(buf);
		return rc;
	}
	st = lq_task_result(db, id, buf, LQ_RESULT_MAX, &len);
	if (st == LQ_NOTFOUND) {
		lc_errorf("task %lld: no result in the run history", (long long)id);
		rc = LC_EXIT_FAIL;
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "task_id", id);
		lc_json_kint(&j, "result_len", (int64_t)len);
		lc_json_kbytes(&j, "result", buf, len);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		fwrite(buf, 1, len, stdout);
	}
	free(buf);
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------- control channel */

static void control_ignored(const lq_task *t, const char *why, const char *line, size_t n)
{
	char shown[96];

	n = n < 64 ? n : 64;
	memcpy(shown, line, n);
	shown[n] = '\0';
	char *p = lc_printable(shown, n);
	lc_errorf("task %lld: control line ignored (%s): %s", (long long)t->id, why, p ? p : "?");
	free(p);
}

/* A decimal 0..100, digits only. */
static int parse_percent(const char *s, size_t n, int *out)
{
	int v = 0;

	if (n == 0 || n > 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 100)
		return -1;
	*out = v;
	return 0;
}

static void control_line(struct lc_control *c, lq_job *job, const char *line, size_t n)
{
	const lq_task *t = lq_job_task(job);
	char text[LC_CONTROL_LINE_MAX + 1];
	lq_status st;

	if (n && line[n - 1] == '\r')
		n--;
	if (n == 0)
		return;
	if (memchr(line, '\0', n)) {
		control_ignored(t, "it holds a NUL byte", line, n);
		return;
	}
	memcpy(text, line, n);
	text[n] = '\0';
	if (!strncmp(text, "progress ", 9)) {
		const char *num = text + 9, *sp = strchr(num, ' ');
		size_t nl = sp ? (size_t)(sp - num) : strlen(num);
		int pct = 0;
		if (parse_percent(num, nl, &pct) != 0) {
			control_ignored(t, "the percent is not 0 to 100", line, n);
			return;
		}
		st = lq_job_progress(job, pct, sp ? sp + 1 : NULL);
		if (st == LQ_OK)
			return;
		/* Said once a run: a handler may report often. */
		if (!c->progress_failed)
			lc_errorf("task %lld: progress not stored: %s", (long long)t->id, lq_errmsg(c->db));
		c->progress_failed = 1;
		return;
	}
	if (!strncmp(text, "snooze ", 7)) {
		int64_t ms = 0;
		char msg[128];
		if (lq_parse_duration(text + 7, &ms, msg, sizeof(msg)) != LQ_OK || ms <= 0 ||
		    lq_job_snooze(job, ms) != LQ_OK) {
			control_ignored(t, "the duration is not a positive one, e.g. 30s or 5m", line, n);
			return;
		}
		c->snoozed = ms;
		return;
	}
	control_ignored(t, "unknown command: only 'progress N [MESSAGE]' and 'snooze DURATION'", line, n);
}

void lc_control_pump(struct lc_control *c, lq_job *job, int final)
{
	while (c->fd >= 0) {
		ssize_t got = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN && !final)
			break;
		if (got <= 0) { /* end of file, or the handler is gone and nothing more is there */
			close(c->fd);
			c->fd = -1;
		} else {
			c->len += (size_t)got;
		}
		size_t start = 0;
		for (size_t i = 0; i < c->len; i++) {
			if (c->buf[i] != '\n')
				continue;
			if (c->skipping)
				c->skipping = 0; /* the end of an overlong line */
			else
				control_line(c, job, c->buf + start, i - start);
			start = i + 1;
		}
		if (start == 0 && c->len == sizeof(c->buf)) {
			if (!c->skipping)
				control_ignored(lq_job_task(job), "longer than the line limit", c->buf, c->len);
			c->skipping = 1;
			start = c->len;
		}
		memmove(c->buf, c->buf + start, c->len - start);
		c->len -= start;
		if (got <= 0)
			break;
	}
	if (final && c->len) { /* a last line without its newline */
		if (!c->skipping)
			control_line(c, job, c->buf, c->len);
		c->len = 0;
	}
}

void lc_result_pump(struct lc_result *r, int final)
{
	unsigned char sink[4096];

	while (r->fd >= 0) {
		size_t room = LQ_RESULT_MAX + 1 - r->len;
		unsigned char *to = room ? r->data + r->len : sink;
		ssize_t got = read(r->fd, to, room ? room : sizeof(sink));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN && !final)
			break;
		if (got <= 0) {
			close(r->fd);
			r->fd = -1;
			break;
		}
		if (room)
			r->len += (size_t)got;
		else
			r->over = 1; /* read on, so that the handler never blocks on it */
	}
	if (r->len > LQ_RESULT_MAX)
		r->over = 1;
}
