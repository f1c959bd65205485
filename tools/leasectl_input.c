/*
 * leasectl_input.c - checking what the user typed: durations, names, integers
 * and times, each with a one-line reason when it is wrong.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "leasectl.h"

int lc_duration(const struct lc_ctx *ctx, const char *flag, const char *text, unsigned flags, int64_t *ms)
{
	if (lq_parse_duration(text, ms, NULL, 0) != LQ_OK || *ms < 0)
		return lc_usage_error(ctx, "%s: invalid duration \"%s\" (use e.g. 250ms, 3s, 5m, 2h, 1d)", flag, text);
	if (*ms == 0 && !(flags & LC_DUR_ZERO_OK))
		return lc_usage_error(ctx, "%s: the duration must be positive, not \"%s\"", flag, text);
	if (*ms > LQ_TTL_MAX_MS && !(flags & LC_DUR_ZERO_OK))
		return lc_usage_error(ctx, "%s: \"%s\" is over a year", flag, text);
	return 0;
}

int lc_input_error(const struct lc_ctx *ctx, const char *flag, const char *file, int err)
{
	lc_errorf("%s%s%s %s: %s", ctx && ctx->cmd ? ctx->cmd : "", ctx && ctx->cmd ? " " : "", flag, file,
		  strerror(err));
	return LC_EXIT_NOINPUT;
}

int lc_check_name(const struct lc_ctx *ctx, const char *what, const char *name)
{
	char msg[512] = "";

	if (lq_check_name(what, name, msg, sizeof(msg)) == LQ_OK)
		return 0;
	if (!msg[0])
		snprintf(msg, sizeof(msg), "invalid %s", what);
	return lc_usage_error(ctx, "%s", msg);
}

int lc_integer(const struct lc_ctx *ctx, const char *what, const char *text, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (!*text || isspace((unsigned char)*text) || *end || errno || v < min || v > max)
		return lc_usage_error(ctx, "invalid %s \"%s\" (expected an integer from %lld to %lld)", what, text,
				      (long long)min, (long long)max);
	*out = v;
	return 0;
}

/* Read exactly n digits at *p. */
static int digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

static int parse_epoch(const char *s, int64_t *ms)
{
	int64_t sec = 0, frac = 0, scale = 1000;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		if (sec > (INT64_MAX / 1000 - 9) / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++)
			if (scale > 1)
				frac += (*s - '0') * (scale /= 10);
	}
	if (*s)
		return -1;
	*ms = sec * 1000 + frac;
	return 0;
}

int lc_parse_time(const char *text, int64_t *ms)
{
	const char *p = text;
	struct tm tm = {0}, chk;
	int y, mo, d, h = 0, mi = 0, s = 0, oh = 0, om = 0, sign = 0, frac = 0, scale = 1000;
	time_t t;

	if (*p == '@')
		p++;
	if (*p && strspn(p, "0123456789.") == strlen(p))
		return parse_epoch(p, ms) || *ms <= 0 ? -1 : 0;
	if (p != text)
		return -1;
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' || digits(&p, 2, &d))
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &s))
				return -1;
			if (*p == '.' || *p == ',') {
				if (!isdigit((unsigned char)p[1]))
					return -1;
				for (p++; isdigit((unsigned char)*p); p++)
					if (scale > 1)
						frac += (*p - '0') * (scale /= 10);
			}
		}
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			sign = *p++ == '-' ? -1 : 1;
			if (digits(&p, 2, &oh))
				return -1;
			if (*p == ':')
				p++;
			if (*p && digits(&p, 2, &om))
				return -1;
			if (oh > 23 || om > 59)
				return -1;
		}
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	t = timegm(&tm);
	/* timegm normalises 2026-02-30 to March: refuse instead. */
	if (!gmtime_r(&t, &chk) || chk.tm_mday != d || chk.tm_mon != mo - 1)
		return -1;
	t -= sign * (oh * 3600 + om * 60);
	*ms = (int64_t)t * 1000 + frac;
	return *ms > 0 ? 0 : -1;
}
