/*
 * leasectl_json.c - the JSON writer and the JSON shape of leases, tasks and
 * run reports.
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
	/* Shared leases only, so an exclusive lease reads as it always did. */
	if (l->kind == LQ_LEASE_SLOT) {
		lc_json_kstr(j, "kind", "slot");
		lc_json_kint(j, "slots", l->slots);
		if (l->owner[0])
			lc_json_kint(j, "slot", l->slot);
	} else if (l->kind == LQ_LEASE_READ) {
		lc_json_kstr(j, "kind", "read");
		if (l->owner[0])
			lc_json_kint(j, "slot", l->slot);
	}
}

/* KEY as a JSON string when p[0..n) is UTF-8 (or empty), else KEY_base64
 * (a payload, a result). */
void lc_json_kbytes(struct lc_json *j, const char *key, const unsigned char *p, size_t n)
{
	if (!n || lc_utf8_valid(p, n)) {
		lc_json_key(j, key);
		lc_json_strn(j, n ? (const char *)p : "", n);
	} else {
		char k[64], *b64 = lc_base64(p, n);
		snprintf(k, sizeof(k), "%s_base64", key);
		lc_json_kstr(j, k, b64 ? b64 : "");
		free(b64);
	}
}

void lc_json_task(struct lc_json *j, const lq_task *t, int with_payload)
{
	lc_json_kint(j, "id", t->id);
	lc_json_kstr(j, "queue", t->queue);
	lc_json_kstr(j, "name", t->name);
	lc_json_kint(j, "run_at", t->run_at);
	lc_json_kint(j, "attempts", t->attempts);
	lc_json_kint(j, "max_attempts", t->max_attempts);
	lc_json_kint(j, "priority", t->priority);
	lc_json_kint_opt(j, "timeout_ms", t->timeout_ms);
	lc_json_kstr_opt(j, "unique_key", t->unique_key);
	lc_json_kstr_opt(j, "concurrency_key", t->concurrency_key);
	lc_json_kstr_opt(j, "partition", t->partition);
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
	lc_json_kbytes(j, "payload", t->payload, t->payload_len);
}

/* A cancellable at-most-once run (lq_task_running_list) with a task's keys
 * where they apply: its task row is gone, its mark is what is left. */
void lc_json_running(struct lc_json *j, const lq_running *r)
{
	lc_json_kint(j, "id", r->task_id);
	lc_json_kstr(j, "queue", r->queue);
	lc_json_kstr(j, "name", r->name);
	lc_json_kint(j, "run_at", r->run_at);
	lc_json_kint(j, "attempts", r->attempt);
	lc_json_kstr(j, "claim_owner", r->owner);
	lc_json_kint(j, "claim_until", r->claim_until);
	lc_json_kbool(j, "dead", 0);
	lc_json_kstr(j, "state", "running");
	lc_json_kstr(j, "mode", "at-most-once");
	lc_json_kint(j, "started_at", r->started_at);
	lc_json_kint(j, "now", r->now);
}

void lc_json_report(struct lc_json *j, const lq_run_report *r)
{
	lc_json_kint(j, "ran", r->ran);
	lc_json_kint(j, "failed", r->failed);
	lc_json_kint(j, "claimed", r->claimed);
	lc_json_kstr(j, "stopped", lq_stop_reason_name(r->stopped));
}
