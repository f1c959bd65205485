/*
 * common.c - what every backend file uses besides its client library: error
 * text, bound values, statement names, the clock and bounded waits, and the
 * duration syntax of DSN options.  Defined here, below the concept files,
 * so that a backend never calls up into them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"

/* ------------------------------------------------------------ values and text */

lq_value lq__v_text(const char *s)
{
	lq_value v = {s ? LQ_V_TEXT : LQ_V_NULL, 0, s, s ? strlen(s) : 0};
	return v;
}

void lq__err_set(lq_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	/* One line: fold the newlines client libraries like to add. */
	for (char *p = err->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	size_t n = strlen(err->msg);
	while (n > 0 && err->msg[n - 1] == ' ')
		err->msg[--n] = '\0';
}

const char *lq__sql_name(lq_sql_id id)
{
	static const char *const names[] = {
#define LQ__SQL_STR(name, cols) #name,
		LQ_SQL_LIST(LQ__SQL_STR)
#undef LQ__SQL_STR
	};
	return (unsigned)id < LQ_SQL__COUNT ? names[id] : "?";
}

/* ------------------------------------------------------------ clock and waits */

int64_t lq__mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void lq__wait_init(lq_wait_state *w, int64_t deadline_ms, const volatile sig_atomic_t *stop)
{
	w->start_ms = lq__mono_ms();
	w->deadline_ms = deadline_ms > 0 ? deadline_ms : LQ_STATEMENT_TIMEOUT_MS;
	w->stop_seen_ms = 0;
	w->stop = stop;
}

int lq__wait_check(lq_wait_state *w)
{
	int64_t now = lq__mono_ms();
	if (now - w->start_ms >= w->deadline_ms)
		return LQ__WAIT_DEADLINE;
	/* A graceful stop still lets a quick claim or ack finish. */
	if (w->stop && *w->stop) {
		if (!w->stop_seen_ms)
			w->stop_seen_ms = now;
		else if (now - w->stop_seen_ms >= LQ_STOP_GRACE_MS)
			return LQ__WAIT_STOP;
	}
	return 0;
}

const char *lq__wait_why(int why, const lq_wait_state *w, char *buf, size_t size)
{
	if (why == LQ__WAIT_STOP)
		snprintf(buf, size, "interrupted by a stop request");
	else if (w->deadline_ms % 1000 == 0)
		snprintf(buf, size, "timed out after %lld s", (long long)(w->deadline_ms / 1000));
	else
		snprintf(buf, size, "timed out after %lld ms", (long long)w->deadline_ms);
	return buf;
}

/* ------------------------------------------------------------ durations */

/* A duration that is not one: its reason into msg, LQ_EINVAL. */
static lq_status bad_duration(const char *text, char *msg, size_t msgsize, const char *why)
{
	if (msg && msgsize)
		snprintf(msg, msgsize, "\"%.64s\" is not a duration: %s", text ? text : "", why);
	return LQ_EINVAL;
}

LQ_EXTERN(lq_status) lq_parse_duration(const char *text, int64_t *ms, char *msg, size_t msgsize)
{
	static const char *const units = "a number with a unit: 250ms, 3s, 5m, 2h, 1d";
	if (msg && msgsize)
		msg[0] = '\0';
	if (!text || !*text)
		return bad_duration(text, msg, msgsize, "it is empty");
	const char *p = text;
	if (*p < '0' || *p > '9')
		return bad_duration(text, msg, msgsize, units); /* no sign, no space */
	errno = 0;
	char *end;
	unsigned long long n = strtoull(p, &end, 10);
	if (errno || end == p)
		return bad_duration(text, msg, msgsize, "too large");
	int64_t unit;
	if (strcmp(end, "ms") == 0)
		unit = 1;
	else if (strcmp(end, "s") == 0 || *end == '\0')
		unit = 1000;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		unit = 60 * 1000;
	else if (strcmp(end, "h") == 0)
		unit = 3600 * 1000;
	else if (strcmp(end, "d") == 0)
		unit = 24LL * 3600 * 1000;
	else
		return bad_duration(text, msg, msgsize, units);
	if (n > (unsigned long long)(INT64_MAX / unit))
		return bad_duration(text, msg, msgsize, "too large");
	*ms = (int64_t)n * unit;
	return LQ_OK;
}
