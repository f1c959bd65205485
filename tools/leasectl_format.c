/*
 * leasectl_format.c - text for people: times, durations, printable names, and
 * aligned tables.
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
		snprintf(buf, size, s % 60 ? "%lldm%02llds" : "%lldm", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, size, s % 3600 / 60 ? "%lldh%02lldm" : "%lldh", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, size, s % 86400 / 3600 ? "%lldd%lldh" : "%lldd", s / 86400, s % 86400 / 3600);
}

void lc_fmt_elapsed(char *buf, size_t size, int64_t ms)
{
	int64_t a = ms < 0 ? -ms : ms;

	/* Sub-second precision only where it is all there is. */
	lc_fmt_duration(buf, size, a < 1000 ? a : a - a % 1000);
}

void lc_fmt_rel(char *buf, size_t size, int64_t ms, int64_t now)
{
	int64_t d = ms - now;
	char dur[32];

	if (d == 0) {
		snprintf(buf, size, "now");
		return;
	}
	lc_fmt_elapsed(dur, sizeof(dur), d);
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

/* A temporary file of ours, already unlinked: in $TMPDIR, else /tmp. */
static FILE *spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	if (!dir || !*dir || strlen(dir) > sizeof(path) - 32)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/leasectl-table-XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	FILE *f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

void lc_table_row(struct lc_table *t, const char *const *cells)
{
	/* Past LC_TABLE_SPOOL rows, on to the spool (the heap when there is
	 * no temporary file to be had). */
	if (t->nrows == LC_TABLE_SPOOL && !t->spool)
		t->spool = spool_open();
	if (!t->spool && t->nrows == t->cap) {
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
		size_t w = p ? text_width(p) : 0;
		if (w > t->width[i])
			t->width[i] = w;
		if (t->spool) {
			fputs(p ? p : "?", t->spool);
			fputc('\0', t->spool);
			free(p);
		} else {
			t->cells[t->nrows * t->ncols + i] = p;
		}
	}
	t->nrows++;
}

static void print_cell(const struct lc_table *t, size_t i, const char *c, FILE *f)
{
	if (!c)
		c = "?";
	fputs(c, f);
	if (i + 1 < t->ncols)
		fprintf(f, "%*s", (int)(t->width[i] - text_width(c) + 2), "");
	else
		fputc('\n', f);
}

void lc_table_print(struct lc_table *t, FILE *f)
{
	size_t held = t->spool ? LC_TABLE_SPOOL : t->nrows;
	for (size_t r = 0; r < held; r++)
		for (size_t i = 0; i < t->ncols; i++)
			print_cell(t, i, t->cells[r * t->ncols + i], f);
	if (!t->spool)
		return;
	char *cell = NULL;
	size_t cap = 0, i = 0;
	rewind(t->spool);
	while (getdelim(&cell, &cap, '\0', t->spool) > 0) {
		print_cell(t, i, cell, f);
		i = (i + 1) % t->ncols;
	}
	free(cell);
}

void lc_table_free(struct lc_table *t)
{
	size_t held = t->spool ? LC_TABLE_SPOOL : t->nrows;
	for (size_t i = 0; i < held * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	if (t->spool)
		fclose(t->spool);
	memset(t, 0, sizeof(*t));
}

void lc_fmt_excerpt(char *buf, size_t size, const char *text)
{
	buf[0] = '\0';
	if (!text || size < 4)
		return;
	snprintf(buf, size, "%s", text);
	if (strlen(text) >= size) {
		size_t n = size - 4;
		while (n && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--; /* never cut a UTF-8 sequence */
		memcpy(buf + n, "...", 4);
	}
}
