/*
 * util.c - status text, name checks, randomness, sleeping and the column
 * helpers every concept file uses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

LQ_EXTERN(int) lq_status_is_error(lq_status st)
{
	return !(st == LQ_OK || st == LQ_BUSY || st == LQ_LOST || st == LQ_EMPTY || st == LQ_NOTFOUND ||
		 st == LQ_REVOKED);
}

LQ_EXTERN(const char *) lq_status_str(lq_status st)
{
	switch (st) {
#define LQ__STATUS_CASE(name, value, text) \
	case LQ_##name:                     \
		return text;
		LQ_STATUS_MAP(LQ__STATUS_CASE)
#undef LQ__STATUS_CASE
	default:
		return "unknown status";
	}
}

void lq__fmt_time(char *buf, size_t size, int64_t ms)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "@%lld", (long long)(ms / 1000));
}

LQ_EXTERN(const char *) lq_version(void)
{
	return LEASEQ_VERSION_STRING;
}

lq_value lq__v_opt_text(const char *s)
{
	return (s && *s) ? lq__v_text(s) : lq_v_null();
}

/* ----------------------------------------------------------------- names */

static int utf8_valid(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			n = 1;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			n = 2;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if (i + n >= len) /* truncated sequence */
			return 0;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		/* Overlong forms, surrogates and out-of-range code points. */
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			return 0;
		i += n + 1;
	}
	return 1;
}

int lq__utf8_valid(const char *s, size_t len)
{
	return utf8_valid((const unsigned char *)s, len);
}

LQ_EXTERN(lq_status) lq_check_name(const char *what, const char *name, char *msg, size_t msgsize)
{
	const char *w = what ? what : "name";
	if (!name || !*name) {
		if (msg)
			snprintf(msg, msgsize, "%s is empty", w);
		return LQ_EINVAL;
	}
	size_t len = strlen(name);
	if (len > LQ_NAME_MAX) {
		if (msg)
			snprintf(msg, msgsize, "%s is %zu bytes, over the %d-byte limit", w, len, LQ_NAME_MAX);
		return LQ_EINVAL;
	}
	if (!utf8_valid((const unsigned char *)name, len)) {
		if (msg)
			snprintf(msg, msgsize, "%s is not valid UTF-8", w);
		return LQ_EINVAL;
	}
	return LQ_OK;
}

lq_status lq__check_name(lq_db *db, const char *what, const char *name)
{
	char msg[160];
	if (lq_check_name(what, name, msg, sizeof(msg)) != LQ_OK)
		return lq__fail(db, LQ_EINVAL, "%s", msg);
	return LQ_OK;
}

lq_status lq__check_ttl(lq_db *db, const char *what, int64_t ttl_ms)
{
	if (ttl_ms <= 0)
		return lq__fail(db, LQ_EINVAL, "%s: TTL must be positive (got %lld ms)", what,
				(long long)ttl_ms);
	if (ttl_ms > LQ_TTL_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "%s: TTL of %lld ms is over the one-year limit", what,
				(long long)ttl_ms);
	return LQ_OK;
}

/* ---------------------------------------------------- randomness, clocks */

uint64_t lq__rand(lq_db *db)
{
	/* xorshift64*: cheap jitter; owners and nonces mix in getrandom too. */
	uint64_t x = db->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	db->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void lq__make_owner(lq_db *db, const char *base, char *buf, size_t size)
{
	uint64_t r;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = lq__rand(db);
	r ^= lq__rand(db);
	if (base && *base) {
		snprintf(buf, size, "%s/%016llx", base, (unsigned long long)r);
	} else {
		char host[64] = "";
		if (gethostname(host, sizeof(host) - 1) != 0)
			strcpy(host, "localhost");
		host[sizeof(host) - 1] = '\0';
		snprintf(buf, size, "%s:%ld/%016llx", host, (long)getpid(), (unsigned long long)r);
	}
}

void lq__sleep_ms(int64_t ms)
{
	if (ms <= 0)
		return;
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int64_t lq__backoff_ms(lq_db *db, int attempt, int64_t base_ms, int64_t cap_ms)
{
	if (attempt < 1)
		attempt = 1;
	int64_t d = base_ms;
	for (int i = 1; i < attempt && d < cap_ms; i++)
		d *= 2;
	if (d > cap_ms)
		d = cap_ms;
	/* Equal jitter: at least half the step, so retries keep spreading out. */
	int64_t half = d / 2;
	return half + (half > 0 ? (int64_t)(lq__rand(db) % (uint64_t)(half + 1)) : 0);
}

/* --------------------------------------------------------------- columns */

void lq__col_str(const lq_value *v, char *buf, size_t size)
{
	if (size == 0)
		return;
	if (v->type == LQ_V_TEXT || v->type == LQ_V_BLOB) {
		size_t n = v->len < size - 1 ? v->len : size - 1;
		memcpy(buf, v->s, n);
		buf[n] = '\0';
	} else if (v->type == LQ_V_INT) {
		snprintf(buf, size, "%lld", (long long)v->i);
	} else {
		buf[0] = '\0';
	}
}

lq_status lq__col_dup(const lq_value *v, char **out, size_t *len)
{
	*out = NULL;
	if (len)
		*len = 0;
	if (v->type != LQ_V_TEXT && v->type != LQ_V_BLOB)
		return LQ_OK;
	char *p = malloc(v->len + 1);
	if (!p)
		return LQ_ENOMEM;
	if (v->len)
		memcpy(p, v->s, v->len);
	p[v->len] = '\0';
	*out = p;
	if (len)
		*len = v->len;
	return LQ_OK;
}

int64_t lq__col_int(const lq_value *v)
{
	if (v->type == LQ_V_INT)
		return v->i;
	if (v->type == LQ_V_TEXT || v->type == LQ_V_BLOB) {
		char buf[32];
		lq__col_str(v, buf, sizeof(buf));
		return strtoll(buf, NULL, 10);
	}
	return 0;
}

int lq__memo_fresh(const struct lq_queue_memo *memo, const char *queue, int64_t max_age_ms)
{
	return memo->read_at && lq__mono_ms() - memo->read_at < max_age_ms && strcmp(memo->queue, queue) == 0;
}

int lq__memo_yes(const struct lq_queue_memo *memo, const char *queue, int64_t max_age_ms)
{
	return lq__memo_fresh(memo, queue, max_age_ms) && memo->yes;
}

void lq__memo_set(struct lq_queue_memo *memo, const char *queue, int yes)
{
	snprintf(memo->queue, sizeof(memo->queue), "%s", queue);
	memo->yes = yes;
	memo->read_at = lq__mono_ms();
}
