/*
 * schedule.c - cron expressions in UTC or an IANA time zone, for recurring
 * tasks.
 *
 * Syntax: five fields "minute hour day-of-month month day-of-week" separated
 * by blanks, or a macro (@yearly @annually @monthly @weekly @daily @midnight
 * @hourly).  A field is a comma list of "*", "N", "A-B", each optionally
 * followed by "/STEP"; "A/STEP" means A to the field maximum.  Months
 * JAN-DEC and days SUN-SAT may be named (any case); day-of-week 7 is Sunday
 * like 0.  Vixie rule: when both day fields are restricted (neither starts
 * with '*') a day matches if either does, otherwise both must match.
 *
 * Time zones: the schedule is evaluated in the wall time of the zone, read
 * directly from its TZif file ($TZDIR or /usr/share/zoneinfo, RFC 8536),
 * including the POSIX TZ footer for times past the last transition.  We do
 * not use setenv("TZ") + localtime(): that is process-wide state, and the
 * library must work from several threads with different zones at once.
 *
 * DST policy (after Vixie cron and cronie), applied to every change of UTC
 * offset, not only DST:
 *  - A job with a fixed hour field (numbers, ranges or lists, no '*' and no
 *    step: "30 2 * * *", "0,30 2 * * *", "0 9-17 * * 1-5", @daily) follows
 *    the wall clock:
 *    * spring forward: occurrences whose wall time is skipped run once, at
 *      the first instant after the gap ("30 2 * * *" in Europe/Berlin on
 *      2026-03-29 runs at 03:00 CEST = 01:00 UTC);
 *    * fall back: a wall time that occurs twice runs once, at its first
 *      occurrence; the repeated part is skipped.
 *  - A job whose hour field is '*' or has a step (every N minutes, @hourly,
 *    every 2 hours) runs on real time: it fires at every instant whose wall
 *    time matches, so it fires in both passes of a fall-back overlap and
 *    gets no make-up run for wall times that a gap skipped.
 * Occurrences are whole minutes of local time (whole UTC minutes for every
 * zone offset in use since 1972).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "leaseq.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A satisfiable expression matches within one 400-year Gregorian cycle. */
#define SEARCH_SECS (401LL * 366 * 86400)
#define TZ_DEFAULT_DIR "/usr/share/zoneinfo"
#define TZIF_MAX_SIZE (1 << 20)
/* Epoch ms accepted by lq_cron_next: years 1 to 9999. */
#define AFTER_MIN_MS (-62135596800000LL)
#define AFTER_MAX_MS (253402300799999LL)

static void set_msg(char *msg, size_t size, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void set_msg(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!msg || size == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
}

/* ASCII only: the C locale classifiers depend on the process locale. */
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
static int to_upper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* ------------------------------------------------------------- calendar */

static int is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

static int month_days(int64_t y, int m)
{
	static const unsigned char d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy;

	y -= m <= 2;
	era = floor_div(y, 400);
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = floor_div(z, 146097);
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* 0 = Sunday; 1970-01-01 was a Thursday. */
static int weekday(int64_t days) { return (int)(days - floor_div(days + 4, 7) * 7 + 4); }

/* ----------------------------------------------------------------- cron */

typedef struct cron_spec {
	uint64_t min;  /* bit n set: minute n matches */
	uint32_t hour;
	uint32_t dom;  /* bits 1..31 */
	uint32_t mon;  /* bits 1..12 */
	uint32_t dow;  /* bits 0..6, Sunday = 0 (7 folded into 0) */
	int dom_star;  /* field starts with '*' (Vixie's DOM_STAR) */
	int dow_star;
	int hour_wild; /* hour is '*' or a step: the job runs on real time */
} cron_spec;

typedef struct field_def {
	const char *what;
	int lo, hi;
	const char *const *names; /* 3-letter names of lo, lo+1, ... or NULL */
} field_def;

static const char *const month_names[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
					   "JUL", "AUG", "SEP", "OCT", "NOV", "DEC", NULL};
static const char *const day_names[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", NULL};

static const field_def fields[5] = {
	{"minute", 0, 59, NULL},
	{"hour", 0, 23, NULL},
	{"day-of-month", 1, 31, NULL},
	{"month", 1, 12, month_names},
	{"day-of-week", 0, 7, day_names},
};

/* A number or a name at *pp, range-checked; 0 or -1 with err set. */
static int parse_value(const char **pp, const char *end, const field_def *f, int *v,
		       char *err, size_t errsize)
{
	const char *p = *pp, *s = p;
	long n = 0;
	int i, k;

	if (p < end && is_digit(*p)) {
		for (; p < end && is_digit(*p); p++)
			if (n < 100000)
				n = n * 10 + (*p - '0');
		if (n < f->lo || n > f->hi) {
			set_msg(err, errsize, "%.*s out of range %d-%d in %s field", (int)(p - s), s,
				f->lo, f->hi, f->what);
			return -1;
		}
		*v = (int)n;
		*pp = p;
		return 0;
	}
	while (p < end && is_alpha(*p))
		p++;
	if (p == s)
		return 1; /* not a value: the caller reports the element */
	if (!f->names) {
		set_msg(err, errsize, "unexpected \"%.*s\" in %s field", (int)(p - s), s, f->what);
		return -1;
	}
	for (i = 0; p - s == 3 && f->names[i]; i++) {
		for (k = 0; k < 3 && to_upper(s[k]) == f->names[i][k]; k++)
			;
		if (k == 3) {
			*v = f->lo + i;
			*pp = p;
			return 0;
		}
	}
	set_msg(err, errsize, "unknown name \"%.*s\" in %s field", (int)(p - s), s, f->what);
	return -1;
}

/* One list element: "*", "A", "A-B", each with an optional "/STEP". */
static int parse_elem(const char *p, const char *end, const field_def *f, uint64_t *bits,
		      char *err, size_t errsize)
{
	const char *s = p;
	int a, b, step = 1, ranged = 0, star = 0, rc = 0;
	long n = 0;

	if (p == end) {
		set_msg(err, errsize, "empty list item in %s field", f->what);
		return -1;
	}
	if (*p == '*') {
		a = f->lo;
		b = f->hi;
		star = 1;
		p++;
	} else {
		if ((rc = parse_value(&p, end, f, &a, err, errsize)) != 0)
			goto bad_or_rc;
		b = a;
		if (p < end && *p == '-') {
			p++;
			if ((rc = parse_value(&p, end, f, &b, err, errsize)) != 0)
				goto bad_or_rc;
			if (b < a) {
				set_msg(err, errsize, "reversed range \"%.*s\" in %s field",
					(int)(end - s), s, f->what);
				return -1;
			}
			ranged = 1;
		}
	}
	if (p < end && *p == '/') {
		if (++p == end || !is_digit(*p))
			goto bad;
		for (; p < end && is_digit(*p); p++)
			if (n < 100000)
				n = n * 10 + (*p - '0');
		if (n == 0) {
			set_msg(err, errsize, "step 0 in %s field", f->what);
			return -1;
		}
		if (n > f->hi) {
			set_msg(err, errsize, "step %ld out of range 1-%d in %s field", n, f->hi, f->what);
			return -1;
		}
		step = (int)n;
		if (!star && !ranged)
			b = f->hi; /* "A/STEP": A to the maximum */
	}
	if (p != end)
		goto bad;
	for (; a <= b; a += step)
		*bits |= (uint64_t)1 << a;
	return 0;
bad_or_rc:
	if (rc < 0)
		return -1;
bad:
	set_msg(err, errsize, "invalid \"%.*s\" in %s field", (int)(end - s), s, f->what);
	return -1;
}

static int parse_field(const char *p, const char *end, const field_def *f, uint64_t *bits,
		       char *err, size_t errsize)
{
	const char *e;

	*bits = 0;
	for (;;) {
		for (e = p; e < end && *e != ','; e++)
			;
		if (parse_elem(p, e, f, bits, err, errsize))
			return -1;
		if (e == end)
			return 0;
		p = e + 1;
	}
}

static const struct {
	const char *name, *expansion;
} macros[] = {
	{"@yearly", "0 0 1 1 *"}, {"@annually", "0 0 1 1 *"}, {"@monthly", "0 0 1 * *"},
	{"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"},   {"@midnight", "0 0 * * *"},
	{"@hourly", "0 * * * *"},
};

/* Parse an expression whose surrounding blanks are already stripped
 * (text[0..len)); 0 or -1 with the detail in err. */
static int parse_expr(const char *text, size_t len, cron_spec *c, char *err, size_t errsize)
{
	const char *p = text, *end = text + len, *fs[5], *fe[5];
	uint64_t bits[5];
	int n = 0, i, m, d;
	size_t k;

	if (len == 0) {
		set_msg(err, errsize, "empty expression");
		return -1;
	}
	if (*p == '@') {
		const char *e = p;

		while (e < end && !is_blank(*e))
			e++;
		if (e != end) {
			set_msg(err, errsize, "unexpected text after \"%.*s\"", (int)(e - p), p);
			return -1;
		}
		for (k = 0; k < sizeof macros / sizeof macros[0]; k++) {
			const char *q = macros[k].name;

			for (e = p; e < end && *q && to_upper(*e) == to_upper(*q); e++, q++)
				;
			if (e == end && !*q)
				return parse_expr(macros[k].expansion, strlen(macros[k].expansion), c,
						  err, errsize);
		}
		set_msg(err, errsize, "unknown macro \"%.*s\"", (int)len, text);
		return -1;
	}
	while (p < end) {
		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		if (n < 5)
			fs[n] = p;
		while (p < end && !is_blank(*p))
			p++;
		if (n < 5)
			fe[n] = p;
		n++;
	}
	if (n != 5) {
		set_msg(err, errsize, "expected 5 fields, got %d", n);
		return -1;
	}
	for (i = 0; i < 5; i++)
		if (parse_field(fs[i], fe[i], &fields[i], &bits[i], err, errsize))
			return -1;
	memset(c, 0, sizeof *c);
	c->min = bits[0];
	c->hour = (uint32_t)bits[1];
	c->dom = (uint32_t)bits[2];
	c->mon = (uint32_t)bits[3];
	c->dow = (uint32_t)((bits[4] | bits[4] >> 7) & 0x7f);
	c->dom_star = *fs[2] == '*';
	c->dow_star = *fs[4] == '*';
	c->hour_wild = *fs[1] == '*' || memchr(fs[1], '/', (size_t)(fe[1] - fs[1])) != NULL;
	/* Under the AND rule a day must exist in some month; every existing
	 * date falls on every weekday within 400 years.  Under the OR rule
	 * the weekday alone always matches some day. */
	if (c->dom_star || c->dow_star) {
		for (m = 1; m <= 12; m++)
			for (d = 1; d <= (m == 2 ? 29 : month_days(1, m)); d++)
				if ((c->mon >> m & 1) && (c->dom >> d & 1))
					return 0;
		set_msg(err, errsize, "never matches (no month in it has that day)");
		return -1;
	}
	return 0;
}

/* Parse cron; on failure msg gets a one-line message naming the expression. */
static int cron_parse(const char *cron, cron_spec *c, char *msg, size_t msgsize)
{
	char err[160], echo[LQ_CRON_MAX + 1];
	size_t len, i;
	const char *s, *e;

	for (len = 0; len <= LQ_CRON_MAX && cron[len]; len++)
		;
	if (len > LQ_CRON_MAX) {
		set_msg(msg, msgsize, "cron expression too long (%zu bytes, at most %d)",
			len + strlen(cron + len), LQ_CRON_MAX);
		return -1;
	}
	for (s = cron; *s && is_blank(*s); s++)
		;
	for (e = cron + len; e > s && is_blank(e[-1]); e--)
		;
	if (parse_expr(s, (size_t)(e - s), c, err, sizeof err) == 0)
		return 0;
	/* Keep the message on one printable line whatever the input. */
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)cron[i];

		echo[i] = ch == '\t' ? ' ' : ch < 0x20 || ch >= 0x7f ? '?' : (char)ch;
	}
	echo[len] = '\0';
	for (i = 0; err[i]; i++)
		if ((unsigned char)err[i] < 0x20 || (unsigned char)err[i] >= 0x7f)
			err[i] = '?';
	set_msg(msg, msgsize, "cron expression \"%s\": %s", echo, err);
	return -1;
}

static int day_matches(const cron_spec *c, int d, int64_t days)
{
	int dom = (int)(c->dom >> d & 1), dow = (int)(c->dow >> weekday(days) & 1);

	return c->dom_star || c->dow_star ? dom && dow : dom || dow;
}

/* First matching local minute w with from <= w < to (local seconds, i.e.
 * wall time counted as if it were UTC).  1 if found. */
static int cal_next(const cron_spec *c, int64_t from, int64_t to, int64_t *out)
{
	int64_t w = floor_div(from + 59, 60) * 60, days, y;
	int m, d, h, mi, sod;

	while (w < to) {
		days = floor_div(w, 86400);
		sod = (int)(w - days * 86400);
		civil_from_days(days, &y, &m, &d);
		if (!(c->mon >> m & 1)) {
			w = days_from_civil(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) * 86400;
			continue;
		}
		if (!day_matches(c, d, days)) {
			w = (days + 1) * 86400;
			continue;
		}
		for (h = sod / 3600; h < 24 && !(c->hour >> h & 1); h++)
			;
		if (h != sod / 3600) {
			w = days * 86400 + h * 3600; /* h == 24: the next day */
			continue;
		}
		for (mi = sod % 3600 / 60; mi < 60 && !(c->min >> mi & 1); mi++)
			;
		w = days * 86400 + h * 3600 + mi * 60; /* mi == 60: the next hour */
		if (mi < 60) {
			if (w >= to)
				return 0;
			*out = w;
			return 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ time zones */

/* A POSIX TZ transition rule: Jn (1..365, no Feb 29), n (0..365) or Mm.w.d. */
typedef struct tz_rule {
	char kind; /* 'J', 'D' or 'M' */
	int a, b, c;
	int32_t secs; /* local time of day of the change */
} tz_rule;

typedef struct posix_tz {
	int32_t std_off, dst_off; /* seconds east of UTC */
	int has_dst;
	tz_rule start, end;
} posix_tz;

typedef struct zone {
	unsigned char *buf;                        /* the file, owned */
	const unsigned char *times, *idx, *types;  /* into buf */
	uint32_t timecnt, typecnt;                 /* typecnt 0: UTC */
	int tsize;                                 /* 4 (v1) or 8 bytes per time */
	int has_footer;
	posix_tz footer;
} zone;

/* An interval of constant offset: [start, end) in UTC seconds; prev_off is
 * the offset before start.  INT64_MIN / INT64_MAX: unbounded. */
typedef struct seg {
	int64_t start, end;
	int32_t off, prev_off;
} seg;

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t trans_time(const zone *z, uint32_t i)
{
	const unsigned char *p = z->times + (size_t)i * (size_t)z->tsize;

	if (z->tsize == 4)
		return (int32_t)be32(p);
	return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

static int32_t type_off(const zone *z, uint32_t type) { return (int32_t)be32(z->types + 6 * (size_t)type); }

static const char *ptz_name(const char *p)
{
	const char *s;

	if (*p == '<') {
		for (s = ++p; *p && *p != '>'; p++)
			;
		return *p == '>' && p > s ? p + 1 : NULL;
	}
	for (s = p; is_alpha(*p); p++)
		;
	return p - s >= 3 ? p : NULL;
}

/* [+-]h[h][:mm[:ss]] with hours up to maxh. */
static const char *ptz_time(const char *p, int maxh, int32_t *out)
{
	long v[3] = {0, 0, 0};
	int sign = 1, i;

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	for (i = 0; i < 3; i++) {
		if (i > 0 && *p != ':')
			break;
		if (i > 0)
			p++;
		if (!is_digit(*p))
			return NULL;
		for (; is_digit(*p); p++)
			if (v[i] < 1000)
				v[i] = v[i] * 10 + (*p - '0');
	}
	if (v[0] > maxh || v[1] > 59 || v[2] > 59)
		return NULL;
	*out = (int32_t)(sign * (v[0] * 3600 + v[1] * 60 + v[2]));
	return p;
}

static const char *ptz_num(const char *p, int lo, int hi, int *out)
{
	int n = 0;

	if (!is_digit(*p))
		return NULL;
	for (; is_digit(*p); p++)
		if (n < 1000)
			n = n * 10 + (*p - '0');
	if (n < lo || n > hi)
		return NULL;
	*out = n;
	return p;
}

static const char *ptz_rule(const char *p, tz_rule *r)
{
	memset(r, 0, sizeof *r);
	if (*p == 'M') {
		r->kind = 'M';
		if (!(p = ptz_num(p + 1, 1, 12, &r->a)) || *p != '.' ||
		    !(p = ptz_num(p + 1, 1, 5, &r->b)) || *p != '.' ||
		    !(p = ptz_num(p + 1, 0, 6, &r->c)))
			return NULL;
	} else if (*p == 'J') {
		r->kind = 'J';
		if (!(p = ptz_num(p + 1, 1, 365, &r->a)))
			return NULL;
	} else {
		r->kind = 'D';
		if (!(p = ptz_num(p, 0, 365, &r->a)))
			return NULL;
	}
	r->secs = 7200;
	if (*p == '/')
		p = ptz_time(p + 1, 167, &r->secs); /* RFC 8536 allows -167..167 h */
	return p;
}

/* "std offset [dst [offset] [,start[/time],end[/time]]]"; 0 on success. */
static int ptz_parse(const char *s, posix_tz *tz)
{
	const char *p;
	int32_t o;

	memset(tz, 0, sizeof *tz);
	if (!(p = ptz_name(s)) || !(p = ptz_time(p, 24, &o)))
		return -1;
	tz->std_off = tz->dst_off = -o; /* POSIX offsets count west */
	if (!*p)
		return 0;
	if (!(p = ptz_name(p)))
		return -1;
	tz->has_dst = 1;
	tz->dst_off = tz->std_off + 3600;
	if (*p && *p != ',') {
		if (!(p = ptz_time(p, 24, &o)))
			return -1;
		tz->dst_off = -o;
	}
	if (!*p) /* no rule: the traditional US one */
		p = ",M3.2.0,M11.1.0";
	if (*p != ',' || !(p = ptz_rule(p + 1, &tz->start)) || *p != ',' ||
	    !(p = ptz_rule(p + 1, &tz->end)) || *p)
		return -1;
	return 0;
}

/* The local time (seconds) at which rule r fires in year y. */
static int64_t rule_local(const tz_rule *r, int64_t y)
{
	int64_t day, first;

	switch (r->kind) {
	case 'J':
		day = days_from_civil(y, 1, 1) + r->a - 1 + (is_leap(y) && r->a >= 60);
		break;
	case 'D':
		day = days_from_civil(y, 1, 1) + r->a;
		break;
	default: /* weekday c of week b (5 = last) of month a */
		first = days_from_civil(y, r->a, 1);
		day = first + (r->c - weekday(first) + 7) % 7 + 7 * (r->b - 1);
		while (day >= first + month_days(y, r->a))
			day -= 7;
		break;
	}
	return day * 86400 + r->secs;
}

/* The segment of the footer rule that holds t. */
static void footer_seg(const posix_tz *r, int64_t t, seg *s)
{
	struct {
		int64_t t;
		int32_t off;
	} tr[10], e[10];
	int64_t y, days = floor_div(t, 86400), a, b;
	int n = 0, m = 0, i, mo, d;
	int32_t before;

	s->start = INT64_MIN;
	s->end = INT64_MAX;
	s->off = s->prev_off = r->std_off;
	if (!r->has_dst)
		return;
	civil_from_days(days, &y, &mo, &d);
	/* Two years each side: rule times may stray a week past a year end. */
	for (y -= 2, i = 0; i < 5; i++, y++) {
		a = rule_local(&r->start, y) - r->std_off; /* given in standard time */
		b = rule_local(&r->end, y) - r->dst_off;   /* given in daylight time */
		tr[n].t = a < b ? a : b;
		tr[n++].off = a < b ? r->dst_off : r->std_off;
		tr[n].t = a < b ? b : a;
		tr[n++].off = a < b ? r->std_off : r->dst_off;
	}
	/* Collapse changes at the same instant (all-year DST) and non-changes. */
	for (i = 0; i < n; i++) {
		if (m > 0 && e[m - 1].t == tr[i].t) {
			e[m - 1].off = tr[i].off;
			if (m > 1 && e[m - 2].off == e[m - 1].off)
				m--;
		} else if (m == 0 || e[m - 1].off != tr[i].off) {
			e[m++] = tr[i];
		}
	}
	before = e[0].off == r->dst_off ? r->std_off : r->dst_off;
	for (i = 0; i < m && e[i].t <= t; i++)
		;
	if (i == 0) {
		s->off = s->prev_off = before;
		s->end = e[0].t;
		return;
	}
	s->start = e[i - 1].t;
	s->off = e[i - 1].off;
	s->prev_off = i > 1 ? e[i - 2].off : before;
	if (i < m)
		s->end = e[i].t;
}

/* The segment of zone z that holds t. */
static void zone_seg(const zone *z, int64_t t, seg *s)
{
	uint32_t lo, hi, mid;
	seg f;

	s->start = INT64_MIN;
	s->end = INT64_MAX;
	s->off = s->prev_off = 0;
	if (z->typecnt == 0)
		return; /* UTC */
	if (z->timecnt == 0 && z->has_footer) {
		footer_seg(&z->footer, t, s);
		return;
	}
	if (z->timecnt == 0 || t < trans_time(z, 0)) {
		/* RFC 8536: before the first transition, time type 0 applies. */
		s->off = s->prev_off = type_off(z, 0);
		if (z->timecnt > 0)
			s->end = trans_time(z, 0);
		return;
	}
	for (lo = 0, hi = z->timecnt; hi - lo > 1;) { /* last i with time[i] <= t */
		mid = lo + (hi - lo) / 2;
		if (trans_time(z, mid) <= t)
			lo = mid;
		else
			hi = mid;
	}
	s->start = trans_time(z, lo);
	s->off = type_off(z, z->idx[lo]);
	s->prev_off = type_off(z, lo > 0 ? z->idx[lo - 1] : 0);
	if (lo + 1 < z->timecnt) {
		s->end = trans_time(z, lo + 1);
	} else if (z->has_footer) {
		footer_seg(&z->footer, t, &f);
		s->end = f.end;
		s->off = f.off;
		if (f.start > s->start) {
			s->start = f.start;
			s->prev_off = f.prev_off;
		}
	}
}

/* Check a TZif file held in z->buf (len bytes, NUL after); 0 if valid, -2
 * for a zone that counts leap seconds ("right/..."), -1 otherwise. */
static int tzif_parse(zone *z, size_t len)
{
	unsigned char *p = z->buf, *end = z->buf + len, *foot;
	uint64_t isut, isstd, leap, timecnt, typecnt, charcnt, size;
	uint32_t i;
	int32_t off;
	int pass;

	for (pass = 1;; pass++) {
		if (end - p < 44 || memcmp(p, "TZif", 4) != 0)
			return -1;
		isut = be32(p + 20);
		isstd = be32(p + 24);
		leap = be32(p + 28);
		timecnt = be32(p + 32);
		typecnt = be32(p + 36);
		charcnt = be32(p + 40);
		z->tsize = pass == 1 ? 4 : 8;
		size = timecnt * (uint64_t)(z->tsize + 1) + typecnt * 6 + charcnt +
		       leap * (uint64_t)(z->tsize + 4) + isstd + isut;
		if (size > (uint64_t)(end - p - 44))
			return -1;
		if (pass == 2 || p[4] < '2')
			break;
		p += 44 + size; /* version 2+: skip the 32-bit data */
	}
	if (typecnt == 0 || typecnt > 256)
		return -1;
	if (leap > 0) /* its times are not POSIX seconds */
		return -2;
	z->timecnt = (uint32_t)timecnt;
	z->typecnt = (uint32_t)typecnt;
	z->times = p + 44;
	z->idx = z->times + timecnt * (uint64_t)z->tsize;
	z->types = z->idx + timecnt;
	for (i = 0; i < z->timecnt; i++)
		if (z->idx[i] >= typecnt || (i > 0 && trans_time(z, i) <= trans_time(z, i - 1)))
			return -1;
	for (i = 0; i < z->typecnt; i++) {
		off = type_off(z, i);
		if (off < -89999 || off > 93599) /* RFC 8536 bounds */
			return -1;
	}
	/* Version 2+ footer: "\n<POSIX TZ>\n" after the 64-bit data. */
	foot = p + 44 + size;
	if (z->tsize == 8 && foot < end && *foot == '\n') {
		unsigned char *nl = memchr(foot + 1, '\n', (size_t)(end - foot - 1));

		if (!nl)
			return -1;
		*nl = '\0';
		if (nl > foot + 1) {
			if (ptz_parse((const char *)foot + 1, &z->footer))
				return -1;
			z->has_footer = 1;
		}
	}
	return 0;
}

static void zone_free(zone *z)
{
	free(z->buf);
	z->buf = NULL;
}

/* Load zone name (NULL or "" = UTC); msg gets a one-line reason on failure. */
static lq_status zone_load(const char *name, zone *z, char *msg, size_t msgsize)
{
	const char *dir, *p;
	char path[4096];
	struct stat st;
	ssize_t got;
	size_t len = 0;
	int fd, n;

	memset(z, 0, sizeof *z);
	if (!name || !*name || strcmp(name, "UTC") == 0 || strcmp(name, "Etc/UTC") == 0)
		return LQ_OK; /* no file needed, even without tzdata */
	if (strlen(name) > LQ_TZ_MAX) {
		set_msg(msg, msgsize, "time zone name too long (%zu bytes, at most %d)", strlen(name), LQ_TZ_MAX);
		return LQ_EINVAL;
	}
	/* Only names of the database: no "..", no absolute or odd paths. */
	for (p = name; *p; p++)
		if (!is_alpha(*p) && !is_digit(*p) && !strchr("_+-/", *p))
			break;
	if (*p || name[0] == '/' || p[-1] == '/' || strstr(name, "//")) {
		char echo[LQ_TZ_MAX + 1];
		size_t i;

		for (i = 0; name[i]; i++)
			echo[i] = (unsigned char)name[i] < 0x20 || (unsigned char)name[i] >= 0x7f ? '?' : name[i];
		echo[i] = '\0';
		set_msg(msg, msgsize, "invalid time zone name \"%s\"", echo);
		return LQ_EINVAL;
	}
	dir = getenv("TZDIR");
	if (!dir || !*dir)
		dir = TZ_DEFAULT_DIR;
	n = snprintf(path, sizeof path, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof path) {
		set_msg(msg, msgsize, "unknown time zone \"%s\"", name);
		return LQ_EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 44 ||
	    st.st_size > TZIF_MAX_SIZE) {
		if (fd >= 0)
			close(fd);
		set_msg(msg, msgsize, "unknown time zone \"%s\"", name);
		return LQ_EINVAL;
	}
	z->buf = malloc((size_t)st.st_size + 1);
	if (!z->buf) {
		close(fd);
		set_msg(msg, msgsize, "time zone \"%s\": out of memory", name);
		return LQ_ENOMEM;
	}
	while (len < (size_t)st.st_size) {
		got = read(fd, z->buf + len, (size_t)st.st_size - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	z->buf[len] = '\0';
	if ((n = tzif_parse(z, len)) != 0) {
		zone_free(z);
		if (n == -2)
			set_msg(msg, msgsize, "time zone \"%s\" counts leap seconds: not supported", name);
		else
			set_msg(msg, msgsize, "unknown time zone \"%s\" (not a valid tz database file)", name);
		return LQ_EINVAL;
	}
	return LQ_OK;
}

/* ---------------------------------------------------------------- search */

static lq_status cron_search(const cron_spec *c, const zone *z, int64_t after_ms, int64_t *next_ms)
{
	int64_t umin = floor_div(after_ms, 1000) + 1; /* strictly after */
	int64_t limit = umin + SEARCH_SECS, u = umin, lo, end, w;
	seg s;

	while (u < limit) {
		zone_seg(z, u, &s);
		end = s.end < limit ? s.end : limit;
		lo = u;
		if (!c->hour_wild) {
			/* Gap: skipped wall times that match run at its end. */
			if (s.off > s.prev_off && s.start >= umin &&
			    cal_next(c, s.start + s.prev_off, s.start + s.off, &w)) {
				*next_ms = s.start * 1000;
				return LQ_OK;
			}
			/* Overlap: the repeated wall times already ran. */
			if (s.off < s.prev_off && s.start != INT64_MIN && lo < s.start + (s.prev_off - s.off))
				lo = s.start + (s.prev_off - s.off);
		}
		if (lo < end && cal_next(c, lo + s.off, end + s.off, &w)) {
			*next_ms = (w - s.off) * 1000;
			return LQ_OK;
		}
		u = end;
	}
	return LQ_EINVAL; /* unreachable for expressions that parse */
}

/* ---------------------------------------------------------------- public */

LQ_EXTERN(lq_status) lq_check_schedule(const char *cron, const char *tz, char *msg, size_t msgsize)
{
	cron_spec c;
	zone z;
	lq_status st;

	set_msg(msg, msgsize, "%s", "");
	if (cron && cron_parse(cron, &c, msg, msgsize))
		return LQ_EINVAL;
	if ((st = zone_load(tz, &z, msg, msgsize)) != LQ_OK)
		return st;
	zone_free(&z);
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_cron_next(const char *cron, const char *tz, int64_t after_ms, int64_t *next_ms,
				  char *msg, size_t msgsize)
{
	cron_spec c;
	zone z;
	lq_status st;

	if (msg && msgsize)
		msg[0] = '\0';
	if (!cron || !next_ms || after_ms < AFTER_MIN_MS || after_ms > AFTER_MAX_MS) {
		if (msg && msgsize)
			snprintf(msg, msgsize, "cron_next: %s", !cron || !next_ms ? "no expression or no result place"
										 : "the start time is out of range");
		return LQ_EINVAL;
	}
	if (cron_parse(cron, &c, msg, msgsize))
		return LQ_EINVAL;
	if ((st = zone_load(tz, &z, msg, msgsize)) != LQ_OK)
		return st;
	st = cron_search(&c, &z, after_ms, next_ms);
	zone_free(&z);
	return st;
}
