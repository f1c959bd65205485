/*
 * leasectl_util.c - what every leasectl command shares: error reporting and
 * exit statuses, input validation, time and text formatting, the JSON
 * writer, tables, child environments and the signal self-pipe.
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

extern char **environ;

/* ------------------------------------------------------------ errors */

/* One line: a database's multi-line error text must not break the
 * "leasectl: <reason>" contract. */
static void vprint_error(const char *prefix, const char *fmt, va_list ap)
{
	char buf[2048];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	if (lc_log_is_json()) {
		char msg[2200];
		snprintf(msg, sizeof(msg), "%s%s", prefix, buf);
		lc_log_event("error", "error", &(struct lc_log_fields){.message = msg});
		return;
	}
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", LC_PROG, prefix, buf);
}

void lc_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_error("", fmt, ap);
	va_end(ap);
}

int lc_usage_error(const struct lc_ctx *ctx, const char *fmt, ...)
{
	char prefix[128] = "";
	va_list ap;

	if (ctx && ctx->cmd)
		snprintf(prefix, sizeof(prefix), "%s: ", ctx->cmd);
	va_start(ap, fmt);
	vprint_error(prefix, fmt, ap);
	va_end(ap);
	return LC_EXIT_USAGE;
}

int lc_exit_status(lq_status st)
{
	switch (st) {
	case LQ_OK:
		return LC_EXIT_OK;
	case LQ_BUSY:
		return LC_EXIT_HELD;
	case LQ_LOST:
		return LC_EXIT_LOST;
	case LQ_EINVAL:
		return LC_EXIT_USAGE;
	case LQ_ECONN:
		return LC_EXIT_CONN;
	default: /* NOTFOUND, ESCHEMA, EUNKNOWN, ENOMEM, ERROR, ... */
		return LC_EXIT_FAIL;
	}
}

int lc_db_error(lq_db *db, lq_status st)
{
	const char *msg = db ? lq_errmsg(db) : NULL;

	if (!msg || !*msg)
		msg = lq_status_str(st);
	lc_errorf("%s", msg);
	return lc_exit_status(st);
}

int lc_finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		lc_errorf("cannot write to standard output: %s", strerror(errno));
		return status ? status : LC_EXIT_FAIL;
	}
	return status;
}

/* ------------------------------------------------------------ input */

const char *lc_dsn(const struct lc_ctx *ctx)
{
	const char *env;

	if (ctx->dsn)
		return ctx->dsn;
	env = getenv("LEASEQ_DSN");
	return env && *env ? env : LC_DEFAULT_DSN;
}

int lc_open(struct lc_ctx *ctx, lq_db **db)
{
	lq_status st = lq_open(lc_dsn(ctx), db);
	int rc;

	if (st == LQ_OK)
		return LC_EXIT_OK;
	rc = lc_db_error(*db, st);
	lq_close(*db);
	*db = NULL;
	return rc;
}

static void append(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + 1 >= size)
		return;
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

static int is_secret_param(const char *k, size_t n)
{
	static const char *const names[] = {"password", "pass", "passwd", "pwd", "sslpassword", NULL};

	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncasecmp(k, names[i], n))
			return 1;
	return 0;
}

void lc_redact_dsn(const char *dsn, char *buf, size_t size)
{
	const char *p = dsn, *auth, *end, *at = NULL, *colon = NULL, *q;
	size_t len = 0;

	if (!size)
		return;
	buf[0] = '\0';
	auth = strstr(dsn, "://");
	if (auth) {
		auth += 3;
		end = auth + strcspn(auth, "/?#");
		for (q = auth; q < end; q++)
			if (*q == '@')
				at = q;
		if (at)
			colon = memchr(auth, ':', (size_t)(at - auth));
		if (colon) {
			append(buf, size, &len, dsn, (size_t)(colon + 1 - dsn));
			append(buf, size, &len, "***", 3);
			p = at;
		}
	}
	q = strchr(p, '?');
	if (!q) {
		append(buf, size, &len, p, strlen(p));
		return;
	}
	append(buf, size, &len, p, (size_t)(q + 1 - p));
	for (p = q + 1; *p;) {
		size_t plen = strcspn(p, "&"), klen = strcspn(p, "=&");
		if (klen < plen && is_secret_param(p, klen)) {
			append(buf, size, &len, p, klen + 1);
			append(buf, size, &len, "***", 3);
		} else {
			append(buf, size, &len, p, plen);
		}
		p += plen;
		if (*p == '&')
			append(buf, size, &len, p++, 1);
	}
}

int lc_duration(const struct lc_ctx *ctx, const char *flag, const char *text, unsigned flags, int64_t *ms)
{
	if (lq_parse_duration(text, ms) != LQ_OK || *ms < 0)
		return lc_usage_error(ctx, "%s: invalid duration \"%s\" (use e.g. 250ms, 3s, 5m, 2h, 1d)", flag, text);
	if (*ms == 0 && !(flags & LC_DUR_ZERO_OK))
		return lc_usage_error(ctx, "%s: the duration must be positive, not \"%s\"", flag, text);
	if (*ms > LQ_TTL_MAX_MS && !(flags & LC_DUR_ZERO_OK))
		return lc_usage_error(ctx, "%s: \"%s\" is over a year", flag, text);
	return 0;
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

/* ------------------------------------------------------------ formatting */

void lc_fmt_time(char *buf, size_t size, int64_t ms)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "@%lld", (long long)(ms / 1000));
}

void lc_fmt_duration(char *buf, size_t size, int64_t ms)
{
	long long s = ms / 1000;

	if (ms < 60000 && ms % 1000)
		snprintf(buf, size, "%lldms", (long long)ms);
	else if (s < 60)
		snprintf(buf, size, "%llds", s);
	else if (s < 3600)
		snprintf(buf, size, s % 60 ? "%lldm%llds" : "%lldm", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, size, s % 3600 / 60 ? "%lldh%02lldm" : "%lldh", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, size, s % 86400 / 3600 ? "%lldd%lldh" : "%lldd", s / 86400, s % 86400 / 3600);
}

void lc_fmt_rel(char *buf, size_t size, int64_t ms, int64_t now)
{
	int64_t d = ms - now, a = d < 0 ? -d : d;
	char dur[32];

	if (d == 0) {
		snprintf(buf, size, "now");
		return;
	}
	/* Sub-second precision only where it is all there is. */
	lc_fmt_duration(dur, sizeof(dur), a < 1000 ? a : a - a % 1000);
	snprintf(buf, size, d > 0 ? "in %s" : "%s ago", dur);
}

void lc_fmt_when(char *buf, size_t size, int64_t ms, int64_t now)
{
	char iso[40], rel[40];

	if (ms == 0) {
		snprintf(buf, size, "-");
		return;
	}
	lc_fmt_time(iso, sizeof(iso), ms);
	lc_fmt_rel(rel, sizeof(rel), ms, now);
	snprintf(buf, size, "%s (%s)", iso, rel);
}

size_t lc_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong forms, surrogates or code points over U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int lc_utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k)
		if (!(k = lc_utf8_seq(s + i, n - i)))
			return 0;
	return 1;
}

char *lc_printable(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char *out = malloc(n * 6 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = lc_utf8_seq(s + i, n - i);
		if (k == 1 && s[i] >= 0x20 && s[i] != 0x7f) {
			*o++ = (char)s[i++];
		} else if (k == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0) {
			o += sprintf(o, "\\u%04x", s[i + 1]); /* C1 controls (CSI) */
			i += 2;
		} else if (k > 1) {
			memcpy(o, s + i, k);
			o += k;
			i += k;
		} else {
			if (s[i] == '\n')
				o += sprintf(o, "\\n");
			else if (s[i] == '\t')
				o += sprintf(o, "\\t");
			else if (s[i] == '\r')
				o += sprintf(o, "\\r");
			else
				o += sprintf(o, "\\x%02x", s[i]);
			i++;
		}
	}
	*o = '\0';
	return out;
}

const char *lc_pr(char *buf, size_t size, const char *s)
{
	char *p = lc_printable(s ? s : "", s ? strlen(s) : 0);
	size_t n;

	if (!size)
		return buf;
	snprintf(buf, size, "%s", p ? p : "?");
	/* Do not end on a cut UTF-8 sequence. */
	n = strlen(buf);
	if (p && n < strlen(p)) {
		size_t lead = n;
		while (lead && ((unsigned char)buf[lead - 1] & 0xc0) == 0x80)
			lead--;
		if (lead && !lc_utf8_seq((const unsigned char *)buf + lead - 1, n - lead + 1))
			buf[lead - 1] = '\0';
	}
	free(p);
	return buf;
}

int lc_held_error(const char *name, const lq_lease *l, int code)
{
	char n[600], o[600], until[40];

	lc_pr(n, sizeof(n), name);
	if (!l->owner[0]) {
		lc_errorf("lease \"%s\" is held elsewhere", n);
		return code;
	}
	lc_fmt_time(until, sizeof(until), l->expires_at);
	lc_errorf("lease \"%s\" is held by %s until %s (token %lld)", n, lc_pr(o, sizeof(o), l->owner), until,
		  (long long)l->token);
	return code;
}

/* Display width: code points (good enough for names and messages). */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* ------------------------------------------------------------ tables */

void lc_table_init(struct lc_table *t, size_t ncols, const char *const *heads)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < 16 ? ncols : 16;
	lc_table_row(t, heads);
}

void lc_table_row(struct lc_table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		char **c = realloc(t->cells, cap * t->ncols * sizeof(*c));
		if (!c)
			return;
		t->cells = c;
		t->cap = cap;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		const char *v = cells[i] ? cells[i] : "-";
		char *p = lc_printable(v, strlen(v));
		size_t w;
		t->cells[t->nrows * t->ncols + i] = p;
		w = p ? text_width(p) : 0;
		if (w > t->width[i])
			t->width[i] = w;
	}
	t->nrows++;
}

void lc_table_print(struct lc_table *t, FILE *f)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t i = 0; i < t->ncols; i++) {
			const char *c = t->cells[r * t->ncols + i];
			if (!c)
				c = "?";
			if (i + 1 == t->ncols) {
				fputs(c, f);
			} else {
				fputs(c, f);
				fprintf(f, "%*s", (int)(t->width[i] - text_width(c) + 2), "");
			}
		}
		fputc('\n', f);
	}
}

void lc_table_free(struct lc_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------ JSON */

void lc_json_init(struct lc_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void json_sep(struct lc_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->has_item[j->depth])
		fputs(j->compact ? ", " : ",", j->f);
	if (!j->compact)
		fprintf(j->f, "\n%*s", j->depth * 2, "");
	j->has_item[j->depth] = 1;
}

static void json_open(struct lc_json *j, int c)
{
	json_sep(j);
	fputc(c, j->f);
	if (j->depth < 31)
		j->depth++;
	j->has_item[j->depth] = 0;
}

static void json_close(struct lc_json *j, int c)
{
	int had = j->has_item[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had && !j->compact)
		fprintf(j->f, "\n%*s", j->depth * 2, "");
	fputc(c, j->f);
}

void lc_json_obj(struct lc_json *j) { json_open(j, '{'); }
void lc_json_end_obj(struct lc_json *j) { json_close(j, '}'); }
void lc_json_arr(struct lc_json *j) { json_open(j, '['); }
void lc_json_end_arr(struct lc_json *j) { json_close(j, ']'); }

static void json_string(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t k = lc_utf8_seq(s + i, n - i);
		unsigned char c = s[i];
		if (k == 0) {
			fputs("\\ufffd", f); /* invalid UTF-8 */
			i++;
			continue;
		}
		if (k > 1) {
			fwrite(s + i, 1, k, f);
			i += k;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
		i++;
	}
	fputc('"', f);
}

void lc_json_key(struct lc_json *j, const char *key)
{
	json_sep(j);
	json_string(j->f, key, strlen(key));
	fputs(": ", j->f);
	j->after_key = 1;
}

void lc_json_strn(struct lc_json *j, const char *s, size_t n)
{
	json_sep(j);
	json_string(j->f, s, n);
}

void lc_json_str(struct lc_json *j, const char *s)
{
	if (!s) {
		lc_json_null(j);
		return;
	}
	lc_json_strn(j, s, strlen(s));
}

void lc_json_int(struct lc_json *j, int64_t v)
{
	json_sep(j);
	fprintf(j->f, "%lld", (long long)v);
}

void lc_json_num(struct lc_json *j, double v, int decimals)
{
	json_sep(j);
	fprintf(j->f, "%.*f", decimals, v);
}

void lc_json_bool(struct lc_json *j, int v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void lc_json_null(struct lc_json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void lc_json_end(struct lc_json *j)
{
	fputc('\n', j->f);
}

void lc_json_kstr(struct lc_json *j, const char *key, const char *s)
{
	lc_json_key(j, key);
	lc_json_str(j, s);
}

void lc_json_kstr_opt(struct lc_json *j, const char *key, const char *s)
{
	lc_json_key(j, key);
	lc_json_str(j, s && *s ? s : NULL);
}

void lc_json_kint(struct lc_json *j, const char *key, int64_t v)
{
	lc_json_key(j, key);
	lc_json_int(j, v);
}

void lc_json_knum(struct lc_json *j, const char *key, double v, int decimals)
{
	lc_json_key(j, key);
	lc_json_num(j, v, decimals);
}

void lc_json_kint_opt(struct lc_json *j, const char *key, int64_t v)
{
	lc_json_key(j, key);
	if (v)
		lc_json_int(j, v);
	else
		lc_json_null(j);
}

void lc_json_kbool(struct lc_json *j, const char *key, int v)
{
	lc_json_key(j, key);
	lc_json_bool(j, v);
}

char *lc_base64(const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		*o++ = tab[v >> 18];
		*o++ = tab[(v >> 12) & 63];
		*o++ = tab[(v >> 6) & 63];
		*o++ = tab[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
		*o++ = tab[v >> 18];
		*o++ = tab[(v >> 12) & 63];
		*o++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

void lc_json_lease(struct lc_json *j, const lq_lease *l)
{
	lc_json_kstr(j, "name", l->name);
	lc_json_kstr_opt(j, "owner", l->owner);
	lc_json_kint(j, "token", l->token);
	lc_json_kint_opt(j, "acquired_at", l->acquired_at);
	lc_json_kint_opt(j, "expires_at", l->expires_at);
	lc_json_kbool(j, "held", lq_lease_held(l));
	lc_json_kint(j, "now", l->now);
}

void lc_json_task(struct lc_json *j, const lq_task *t, int with_payload)
{
	lc_json_kint(j, "id", t->id);
	lc_json_kstr(j, "queue", t->queue);
	lc_json_kstr(j, "name", t->name);
	lc_json_kint(j, "run_at", t->run_at);
	lc_json_kint(j, "attempts", t->attempts);
	lc_json_kint(j, "max_attempts", t->max_attempts);
	lc_json_kstr_opt(j, "unique_key", t->unique_key);
	lc_json_kstr_opt(j, "claim_owner", t->claim_owner);
	lc_json_kint_opt(j, "claim_until", t->claim_until);
	lc_json_kint_opt(j, "every_ms", t->every_ms);
	lc_json_kstr_opt(j, "cron", t->cron);
	lc_json_kstr_opt(j, "tz", t->tz);
	lc_json_kstr(j, "missed", t->missed == LQ_MISSED_SKIP ? "skip" : "once");
	lc_json_kbool(j, "paused", t->paused);
	lc_json_kstr_opt(j, "last_error", t->last_error);
	lc_json_kint(j, "created_at", t->created_at);
	lc_json_kbool(j, "dead", t->dead);
	if (t->dead)
		lc_json_kint_opt(j, "died_at", t->died_at);
	if (t->next_run_at)
		lc_json_kint(j, "next_run_at", t->next_run_at);
	lc_json_kint(j, "now", t->now);
	if (!with_payload)
		return;
	lc_json_kint(j, "payload_len", (int64_t)t->payload_len);
	if (!t->payload_len || lc_utf8_valid(t->payload, t->payload_len)) {
		lc_json_key(j, "payload");
		lc_json_strn(j, t->payload_len ? (const char *)t->payload : "", t->payload_len);
	} else {
		char *b64 = lc_base64(t->payload, t->payload_len);
		lc_json_kstr(j, "payload_base64", b64 ? b64 : "");
		free(b64);
	}
}

const char *lc_stop_str(lq_stop_reason r)
{
	/* One word each, stable for scripts (the library's are sentences). */
	switch (r) {
	case LQ_STOP_NONE:
		return "none";
	case LQ_STOP_IDLE:
		return "idle";
	case LQ_STOP_HELD:
		return "held";
	case LQ_STOP_CLAIM_LOST:
		return "claim_lost";
	case LQ_STOP_LEASE_LOST:
		return "lease_lost";
	case LQ_STOP_BUDGET:
		return "budget";
	case LQ_STOP_SIGNAL:
		return "signal";
	case LQ_STOP_ERROR:
		return "error";
	}
	return "unknown";
}

void lc_json_report(struct lc_json *j, const lq_run_report *r)
{
	lc_json_kint(j, "ran", r->ran);
	lc_json_kint(j, "failed", r->failed);
	lc_json_kint(j, "claimed", r->claimed);
	lc_json_kstr(j, "stopped", lc_stop_str(r->stopped));
}

/* ------------------------------------------------------------ processes */

int64_t lc_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Database secrets a child must not inherit. */
static const char *const secret_vars[] = {"LEASEQ_DSN", "PGPASSWORD", "MYSQL_PWD", NULL};

static int env_name_is(const char *entry, const char *name)
{
	size_t n = strcspn(name, "=");

	return !strncmp(entry, name, n) && entry[n] == '=';
}

/* The password of a DSN (user:PASS@ or ?password=PASS), or NULL. */
static const char *dsn_password(const char *dsn, size_t *len)
{
	const char *auth = strstr(dsn, "://"), *end, *at = NULL, *colon, *q;

	if (!auth)
		return NULL;
	auth += 3;
	end = auth + strcspn(auth, "/?#");
	for (q = auth; q < end; q++)
		if (*q == '@')
			at = q;
	if (at && (colon = memchr(auth, ':', (size_t)(at - auth))) && at > colon + 1) {
		*len = (size_t)(at - colon - 1);
		return colon + 1;
	}
	for (q = strchr(end, '?'); q && *q; q += strcspn(q, "&"), q += *q == '&') {
		size_t klen;
		q += *q == '?';
		klen = strcspn(q, "=&");
		if (q[klen] == '=' && is_secret_param(q, klen) && (*len = strcspn(q + klen + 1, "&#")) > 0)
			return q + klen + 1;
	}
	return NULL;
}

static int contains(const char *hay, const char *needle, size_t n)
{
	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return 1;
	return 0;
}

/* A variable that holds the DSN in use or its password (under whatever
 * name: DATABASE_URL, a test's DSN variable, ...) is a database secret too.
 * A short password is only matched in its ":PASS@" form, so that it does
 * not take PATH or HOME away by accident. */
static int holds_secret(const char *entry, const char *dsn)
{
	const char *value = strchr(entry, '='), *pw;
	size_t n = 0;
	char form[512];

	if (!value++ || !dsn || !*dsn)
		return 0;
	if (strstr(value, dsn))
		return 1;
	if (!(pw = dsn_password(dsn, &n)))
		return 0;
	if (n >= 8 && contains(value, pw, n))
		return 1;
	if (n + 3 > sizeof(form))
		return 0;
	form[0] = ':';
	memcpy(form + 1, pw, n);
	form[n + 1] = '@';
	return contains(value, form, n + 2);
}

char **lc_child_env(const struct lc_ctx *ctx, const char *const *set, size_t nset)
{
	const char *dsn = lc_dsn(ctx);
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + nset + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int drop = holds_secret(environ[i], dsn);
		for (size_t s = 0; secret_vars[s] && !drop; s++)
			drop = env_name_is(environ[i], secret_vars[s]);
		for (size_t s = 0; s < nset && !drop; s++)
			drop = env_name_is(environ[i], set[s]);
		if (!drop)
			env[k++] = environ[i];
	}
	for (size_t s = 0; s < nset; s++)
		env[k++] = (char *)set[s];
	env[k] = NULL;
	return env;
}

void lc_env_free(char **env)
{
	free(env); /* the strings belong to environ and the caller */
}

/* The open fds, sorted; the directory's own fd excluded. */
static int *list_fds(size_t *count)
{
	size_t n = 0, cap = 16;
	int *fds = malloc(cap * sizeof(*fds));
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	*count = 0;
	if (!fds) {
		if (d)
			closedir(d);
		return NULL;
	}
	if (!d) {
		for (int fd = 0; fd < 1024; fd++) {
			if (fcntl(fd, F_GETFD) < 0)
				continue;
			if (n == cap) {
				int *p = realloc(fds, (cap *= 2) * sizeof(*fds));
				if (!p)
					break;
				fds = p;
			}
			fds[n++] = fd;
		}
		*count = n;
		return fds;
	}
	while ((e = readdir(d))) {
		int fd;
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		if (n == cap) {
			int *p = realloc(fds, (cap *= 2) * sizeof(*fds));
			if (!p)
				break;
			fds = p;
		}
		fds[n++] = fd;
	}
	closedir(d);
	*count = n;
	return fds;
}

void lc_snapshot_fds(struct lc_ctx *ctx)
{
	ctx->inherited = list_fds(&ctx->ninherited);
}

void lc_cloexec_new_fds(const struct lc_ctx *ctx)
{
	size_t n;
	int *fds = list_fds(&n);

	for (size_t i = 0; fds && i < n; i++) {
		int fd = fds[i], inherited = fd <= 2;
		for (size_t k = 0; k < ctx->ninherited && !inherited; k++)
			inherited = ctx->inherited[k] == fd;
		if (!inherited) {
			int fl = fcntl(fd, F_GETFD);
			if (fl >= 0 && !(fl & FD_CLOEXEC))
				fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
		}
	}
	free(fds);
}

/* Signal handling: the only global mutable state in leasectl. */
static int sig_pipe[2] = {-1, -1};
static void (*volatile sig_extra[NSIG])(int);

static void sig_handler(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	unsigned char b = (unsigned char)(sig & 0x7f);

	(void)uc;
	if (sig > 0 && sig < NSIG && sig_extra[sig])
		sig_extra[sig](sig);
	if (si && si->si_code > 0 && sig != SIGCHLD)
		b |= LC_SIG_KERNEL;
	if (sig_pipe[1] >= 0)
		(void)!write(sig_pipe[1], &b, 1);
	errno = saved;
}

int lc_sig_init(void)
{
	int fds[2];

	/* Always a fresh pipe: a forked worker must not share its parent's. */
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
		return -1;
	if (sig_pipe[0] >= 0) {
		close(sig_pipe[0]);
		close(sig_pipe[1]);
	}
	sig_pipe[0] = fds[0];
	sig_pipe[1] = fds[1];
	return 0;
}

int lc_sig_fd(void)
{
	return sig_pipe[0];
}

int lc_sig_catch(int sig, void (*extra)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sig_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | (sig == SIGCHLD ? SA_NOCLDSTOP : 0);
	sigemptyset(&sa.sa_mask);
	if (sig > 0 && sig < NSIG)
		sig_extra[sig] = extra;
	return sigaction(sig, &sa, NULL);
}

int lc_sig_next(int *byte)
{
	unsigned char b;

	if (sig_pipe[0] < 0 || read(sig_pipe[0], &b, 1) != 1)
		return 0;
	*byte = b;
	return 1;
}

void lc_sig_reset_child(void)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM, SIGPIPE, SIGUSR1, SIGUSR2};
	sigset_t none;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void lc_fmt_wait(char *buf, size_t size, int wstatus)
{
	if (WIFEXITED(wstatus)) {
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(wstatus));
	} else if (WIFSIGNALED(wstatus)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(wstatus));
		if (abbrev)
			snprintf(buf, size, "killed by signal %d (SIG%s)", WTERMSIG(wstatus), abbrev);
		else
			snprintf(buf, size, "killed by signal %d", WTERMSIG(wstatus));
	} else {
		snprintf(buf, size, "stopped with wait status %d", wstatus);
	}
}

int lc_wait_exit(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return LC_EXIT_FAIL;
}
