/*
 * limit.c - flow control: concurrency caps and rate limits kept in
 * lq_limit, and the gate a claim of a limited task passes (lq__limit_take)
 * inside the claim's transaction.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LQ_LIMIT_PERIOD_MAX_MS (366LL * 24 * 3600 * 1000)
#define LQ_LIMIT_CONCURRENCY_MAX 1000000

static lq_status check_key(lq_db *db, const char *key)
{
	lq_status st = lq__check_name(db, "limit key", key);
	if (st != LQ_OK)
		return st;
	if (strncmp(key, "queue:", 6) == 0 && key[6] == '\0')
		return lq__fail(db, LQ_EINVAL, "limit \"%s\": a queue limit needs a queue name after \"queue:\"", key);
	if (strncmp(key, "queue:", 6) == 0)
		return lq__check_name(db, "queue name", key + 6);
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_limit_set(lq_db *db, const lq_limit *l)
{
	lq__ok(db);
	if (!l)
		return lq__fail(db, LQ_EINVAL, "limit set: no limit given");
	lq_status st = check_key(db, l->key);
	if (st != LQ_OK)
		return st;
	if (l->concurrency < 0 || l->concurrency > LQ_LIMIT_CONCURRENCY_MAX)
		return lq__fail(db, LQ_EINVAL, "limit \"%s\": concurrency must be 1 to %d (got %d)", l->key,
				LQ_LIMIT_CONCURRENCY_MAX, l->concurrency);
	if (l->rate_n < 0 || l->rate_n > LQ_LIMIT_RATE_MAX)
		return lq__fail(db, LQ_EINVAL, "limit \"%s\": rate must be 1 to %d starts per period (got %d)",
				l->key, LQ_LIMIT_RATE_MAX, l->rate_n);
	if (l->rate_n > 0 && (l->rate_period_ms <= 0 || l->rate_period_ms > LQ_LIMIT_PERIOD_MAX_MS))
		return lq__fail(db, LQ_EINVAL, "limit \"%s\": rate period must be 1 ms to a year", l->key);
	if (l->concurrency == 0 && l->rate_n == 0)
		return lq__fail(db, LQ_EINVAL, "limit \"%s\": give a concurrency, a rate or both", l->key);
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "limit \"%s\"", l->key);
	lq_value p[4] = {lq__v_text(l->key), l->concurrency ? lq_v_int(l->concurrency) : lq_v_null(),
			 l->rate_n ? lq_v_int(l->rate_n) : lq_v_null(),
			 l->rate_n ? lq_v_int(l->rate_period_ms) : lq_v_null()};
	st = lq__exec(db, what, LQ_SQL_limit_set, p, 4, NULL, NULL, NULL);
	if (st == LQ_OK)
		lq__notify(db, LQ_CHANNEL_TASK); /* a raised limit may free tasks */
	return st;
}

struct limit_ctx {
	lq_limit_fn fn;
	void *ctx;
	lq_limit *out;
	int found;
};

static int limit_row(void *arg, const lq_value *c, int n)
{
	struct limit_ctx *lc = arg;
	if (n < LQ_COLS_limit_get)
		return 1;
	lq_limit l;
	memset(&l, 0, sizeof(l));
	lq__col_str(&c[0], l.key, sizeof(l.key));
	l.concurrency = (int)lq__col_int(&c[1]);
	l.rate_n = (int)lq__col_int(&c[2]);
	l.rate_period_ms = lq__col_int(&c[3]);
	int64_t tat = lq__col_int(&c[4]);
	l.running = lq__col_int(&c[5]);
	l.now = lq__col_int(&c[6]);
	if (l.rate_n > 0) {
		/* Starts left: how many more periods fit before tat passes
		 * now + one period (see LIMIT_RATE_SHUT). */
		int64_t base = tat > l.now * l.rate_n ? tat : l.now * l.rate_n;
		int64_t room = (l.now + l.rate_period_ms) * l.rate_n - base;
		l.tokens = room / l.rate_period_ms;
		if (l.tokens > l.rate_n)
			l.tokens = l.rate_n;
		if (l.tokens < 0)
			l.tokens = 0;
	}
	lc->found = 1;
	if (lc->out) {
		*lc->out = l;
		return 1;
	}
	return lc->fn(&l, lc->ctx);
}

LQ_EXTERN(lq_status) lq_limit_get(lq_db *db, const char *key, lq_limit *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	lq_status st = check_key(db, key);
	if (st != LQ_OK || (st = lq__ready(db)) != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "limit \"%s\"", key);
	struct limit_ctx lc = {NULL, NULL, out, 0};
	lq_value p[1] = {lq__v_text(key)};
	st = lq__exec(db, what, LQ_SQL_limit_get, p, 1, limit_row, &lc, NULL);
	if (st != LQ_OK)
		return st;
	if (!lc.found)
		return lq__fail(db, LQ_NOTFOUND, "limit \"%s\": no such limit", key);
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_limit_list(lq_db *db, lq_limit_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct limit_ctx lc = {fn, ctx, NULL, 0};
	return lq__exec(db, "limit list", LQ_SQL_limit_list, NULL, 0, limit_row, &lc, NULL);
}

LQ_EXTERN(lq_status) lq_limit_remove(lq_db *db, const char *key)
{
	lq__ok(db);
	lq_status st = check_key(db, key);
	if (st != LQ_OK || (st = lq__ready(db)) != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "limit \"%s\"", key);
	lq_value p[1] = {lq__v_text(key)};
	int64_t n = 0;
	st = lq__exec(db, what, LQ_SQL_limit_delete, p, 1, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n == 0)
		return lq__fail(db, LQ_NOTFOUND, "limit \"%s\": no such limit", key);
	lq__notify(db, LQ_CHANNEL_TASK);
	return LQ_OK;
}

/* ------------------------------------------------------- the claim gate */


static int lock_row(void *arg, const lq_value *c, int n)
{
	struct lq__limit_gate *g = arg;
	if (n < LQ_COLS_limit_lock || g->n >= 2)
		return 1;
	lq__col_str(&c[0], g->name[g->n], sizeof(g->name[g->n]));
	g->capped |= lq__col_int(&c[1]) != 0;
	g->n++;
	return 0;
}

/* Give back the starts taken by the first k limits of g. */
static lq_status refund(lq_db *db, const char *what, const struct lq__limit_gate *g, int k)
{
	for (int i = 0; i < k; i++) {
		lq_value p[1] = {lq__v_text(g->name[i])};
		lq_status st = lq__exec(db, what, LQ_SQL_limit_refund, p, 1, NULL, NULL, NULL);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

/* Lock the limits of a task (its key's and its queue's, in name order, so
 * two claimers never wait on each other in a cycle) and take one start of
 * each.  The takes run after the lock, so under READ COMMITTED they count
 * the claims that committed while this one waited.  *open: the claim may
 * go ahead (then lq__limit_untake undoes it if the claim is lost).  g->capped:
 * a cap applies, so the claim must hold a claim lease. */
lq_status lq__limit_take(lq_db *db, const char *what, const char *key, const char *queue,
			 struct lq__limit_gate *g, int *open)
{
	memset(g, 0, sizeof(*g));
	*open = 0;
	lq_value p[2] = {key && *key ? lq__v_text(key) : lq_v_null(), lq__v_text(queue)};
	lq_status st = lq__exec(db, what, LQ_SQL_limit_lock, p, 2, lock_row, g, NULL);
	if (st != LQ_OK)
		return st;
	for (int i = 0; i < g->n; i++) {
		int is_queue = strncmp(g->name[i], "queue:", 6) == 0 && strcmp(g->name[i] + 6, queue) == 0;
		lq_value q[1] = {lq__v_text(is_queue ? queue : g->name[i])};
		int64_t n = 0;
		st = lq__exec(db, what, is_queue ? LQ_SQL_limit_take_queue : LQ_SQL_limit_take_key, q, 1, NULL, NULL,
			      &n);
		if (st != LQ_OK)
			return st;
		if (n != 1) {
			g->queue_shut = is_queue;
			return refund(db, what, g, i); /* shut: not now */
		}
	}
	*open = 1;
	return LQ_OK;
}

lq_status lq__limit_untake(lq_db *db, const char *what, const struct lq__limit_gate *g)
{
	return refund(db, what, g, g->n);
}

static lq_status bad_rate(const char *text, char *msg, size_t msgsize, const char *why)
{
	if (msg && msgsize)
		snprintf(msg, msgsize, "\"%.64s\" is not a rate: %s", text ? text : "", why);
	return LQ_EINVAL;
}

LQ_EXTERN(lq_status) lq_parse_rate(const char *text, int *n, int64_t *period_ms, char *msg, size_t msgsize)
{
	const char *slash = text ? strchr(text, '/') : NULL;
	char why[160];
	int64_t ms = 0;
	if (msg && msgsize)
		msg[0] = '\0';
	if (!slash || slash == text || !slash[1] || strspn(text, "0123456789") != (size_t)(slash - text))
		return bad_rate(text, msg, msgsize, "expected N/DUR (e.g. 10/1s)");
	errno = 0;
	long long v = strtoll(text, NULL, 10);
	if (errno || v < 1 || v > LQ_LIMIT_RATE_MAX) {
		snprintf(why, sizeof(why), "N must be from 1 to %d", LQ_LIMIT_RATE_MAX);
		return bad_rate(text, msg, msgsize, why);
	}
	if (lq_parse_duration(slash + 1, &ms, why, sizeof(why)) != LQ_OK)
		return bad_rate(text, msg, msgsize, why);
	if (ms <= 0 || ms > LQ_LIMIT_PERIOD_MAX_MS)
		return bad_rate(text, msg, msgsize, "the period must be from 1 ms to a year");
	*n = (int)v;
	*period_ms = ms;
	return LQ_OK;
}
