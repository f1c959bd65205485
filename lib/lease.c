/*
 * lease.c - named, renewable, fenced leases.  Acquire is one upsert that
 * inserts the lease if absent or takes it over if expired, judged by the row
 * it returns (or, where the dialect returns none, by re-reading our owner);
 * every expiry decision is made by the database clock inside the statement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The row as stored, the owner kept even when the lease has expired. */
static int lease_row_raw(void *ctx, const lq_value *c, int n)
{
	lq_lease *l = ctx;
	if (n < 6)
		return 1;
	lq__col_str(&c[0], l->name, sizeof(l->name));
	lq__col_str(&c[1], l->owner, sizeof(l->owner));
	l->token = lq__col_int(&c[2]);
	l->acquired_at = lq__col_int(&c[3]);
	l->expires_at = lq__col_int(&c[4]);
	l->now = lq__col_int(&c[5]);
	return 0;
}

static int lease_row(void *ctx, const lq_value *c, int n)
{
	lq_lease *l = ctx;
	if (lease_row_raw(ctx, c, n))
		return 1;
	/* An expired lease has no holder, whatever the row still says. */
	if (l->expires_at <= l->now)
		l->owner[0] = '\0';
	return 0;
}

LQ_EXTERN(int) lq_lease_held(const lq_lease *l)
{
	return l->owner[0] != '\0' && l->expires_at > l->now;
}

struct acquire_ctx {
	lq_lease *out;
	int rows;
	int got;
};

static int acquire_row(void *ctx, const lq_value *c, int n)
{
	struct acquire_ctx *a = ctx;
	if (n < 7 || a->rows++)
		return 1;
	a->got = lq__col_int(&c[6]) == 1;
	/* A row we took keeps our owner even if a TTL of a few milliseconds
	 * has already run out by the time the statement returns. */
	return a->got ? lease_row_raw(a->out, c, n) : lease_row(a->out, c, n);
}

/* One try: lease_acquire inserts or takes over the lease in one statement,
 * deciding on the database clock.  Where it returns the row it took (got)
 * or saw held, that is the whole round trip; otherwise (MySQL, or a racing
 * insert PostgreSQL's snapshot does not show) the row is read, and it is
 * ours only if it carries our owner, whose random part nobody else writes.
 * *sent: the statement may have been applied (it succeeded, or the
 * connection was lost with it: not every backend knows whether it had left),
 * so a failure leaves the outcome to be found by re-reading. */
static lq_status acquire_once(lq_db *db, const char *what, const char *name, const char *owner,
			      int64_t ttl, lq_lease *out, int *got, int *sent)
{
	lq_value p[3] = {lq__v_text(name), lq__v_text(owner), lq_v_int(ttl)};
	struct acquire_ctx a = {out, 0, 0};
	memset(out, 0, sizeof(*out));
	*got = 0;
	lq_status st = lq__exec_once(db, what, LQ_SQL_lease_acquire, p, 3, acquire_row, &a, NULL);
	*sent = st == LQ_OK || st == LQ_EUNKNOWN || st == LQ_ECONN;
	if (st != LQ_OK)
		return st;
	if (a.got) {
		*got = 1;
		return LQ_OK;
	}
	if (a.rows && lq_lease_held(out))
		return LQ_OK; /* held elsewhere, as the statement saw it */
	memset(out, 0, sizeof(*out));
	st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row_raw, out, NULL);
	if (st != LQ_OK)
		return st;
	if (out->name[0] && strcmp(out->owner, owner) == 0) {
		*got = 1;
		return LQ_OK;
	}
	if (out->expires_at <= out->now)
		out->owner[0] = '\0'; /* an expired lease has no holder */
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_lease_acquire(lq_db *db, const char *name, int64_t ttl_ms,
				      const char *owner, int64_t wait_ms, lq_lease *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	lq_status st;
	if ((st = lq__check_name(db, "lease name", name)) != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", name);
	if ((st = lq__check_ttl(db, what, ttl_ms)) != LQ_OK)
		return st;
	if (wait_ms < 0)
		return lq__fail(db, LQ_EINVAL, "%s: wait must not be negative", what);
	if (owner && *owner) {
		if ((st = lq__check_name(db, "lease owner", owner)) != LQ_OK)
			return st;
		if (strlen(owner) > LQ_OWNER_MAX - 20)
			return lq__fail(db, LQ_EINVAL, "lease owner is over %d bytes", LQ_OWNER_MAX - 20);
	}
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	char full_owner[LQ_OWNER_MAX + 1];
	lq__make_owner(db, owner, full_owner, sizeof(full_owner));

	int64_t deadline = lq__mono_ms() + wait_ms;
	for (int attempt = 1;; attempt++) {
		int got = 0, sent = 0;
		st = acquire_once(db, what, name, full_owner, ttl_ms, out, &got, &sent);
		if (st != LQ_OK && sent) {
			/* It may have been applied: re-read by (name, owner)
			 * before deciding; never report a guess. */
			char saved[sizeof(db->errmsg)];
			memcpy(saved, db->errmsg, sizeof(saved));
			lq_lease cur;
			lq_status gst = lq_lease_get(db, name, &cur);
			if (gst == LQ_OK && lq_lease_held(&cur) && strcmp(cur.owner, full_owner) == 0) {
				*out = cur;
				lq__ok(db);
				return LQ_OK;
			}
			memcpy(db->errmsg, saved, sizeof(saved));
			if (gst != LQ_OK && gst != LQ_NOTFOUND)
				return lq__fail(db, LQ_EUNKNOWN, "%s; the acquire may have been applied: outcome unknown",
						saved);
		}
		if (st != LQ_OK)
			return st;
		if (got)
			return LQ_OK;
		int64_t left = deadline - lq__mono_ms();
		if (left <= 0) {
			return lq__fail(db, LQ_BUSY, "lease \"%s\" is held by %s until %lld (token %lld)", name,
					out->owner[0] ? out->owner : "another holder",
					(long long)out->expires_at, (long long)out->token);
		}
		/* Back off with jitter, but wake no later than the holder's expiry. */
		int64_t pause = lq__backoff_ms(db, attempt, 50, 1000);
		int64_t until_expiry = out->expires_at - out->now + 5;
		if (until_expiry > 0 && until_expiry < pause)
			pause = until_expiry;
		if (pause > left)
			pause = left;
		lq__wait(db, LQ_CHANNEL_LEASE, pause);
	}
}

LQ_EXTERN(lq_status) lq_lease_get(lq_db *db, const char *name, lq_lease *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	lq_status st;
	if ((st = lq__check_name(db, "lease name", name)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", name);
	lq_value p[1] = {lq__v_text(name)};
	st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row, out, NULL);
	if (st != LQ_OK)
		return st;
	if (!out->name[0])
		return lq__fail(db, LQ_NOTFOUND, "lease \"%s\": not found", name);
	return LQ_OK;
}

static lq_status check_handle(lq_db *db, const lq_lease *l)
{
	lq_status st;
	if ((st = lq__check_name(db, "lease name", l->name)) != LQ_OK)
		return st;
	if (!l->owner[0] || l->token <= 0)
		return lq__fail(db, LQ_EINVAL, "lease \"%s\": handle has no owner or token", l->name);
	return lq__ready(db);
}

/* lease_renew's row where the dialect returns one: (expires_at, NOW). */
static int renew_row(void *ctx, const lq_value *c, int n)
{
	lq_lease *l = ctx;
	if (n < 2)
		return 1;
	l->expires_at = lq__col_int(&c[0]);
	l->now = lq__col_int(&c[1]);
	return 0;
}

LQ_EXTERN(lq_status) lq_lease_renew(lq_db *db, lq_lease *l, int64_t ttl_ms)
{
	lq__ok(db);
	lq_status st = check_handle(db, l);
	if (st != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", l->name);
	if ((st = lq__check_ttl(db, what, ttl_ms)) != LQ_OK)
		return st;
	lq_value p[4] = {lq__v_text(l->name), lq__v_text(l->owner), lq_v_int(l->token), lq_v_int(ttl_ms)};
	int64_t n = 0;
	lq_lease cur;
	memset(&cur, 0, sizeof(cur));
	st = lq__exec(db, what, LQ_SQL_lease_renew, p, 4, renew_row, &cur, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1)
		return lq__fail(db, LQ_LOST, "lease \"%s\" (token %lld) was lost: it expired or was taken",
				l->name, (long long)l->token);
	if (cur.expires_at) { /* the renewed row came back (RETURNING) */
		l->expires_at = cur.expires_at;
		l->now = cur.now;
		lq__ok(db);
		return LQ_OK;
	}
	memset(&cur, 0, sizeof(cur));
	if (lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row, &cur, NULL) == LQ_OK &&
	    cur.token == l->token) {
		l->expires_at = cur.expires_at;
		l->now = cur.now;
	}
	lq__ok(db);
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_lease_release(lq_db *db, const lq_lease *l)
{
	lq__ok(db);
	lq_status st = check_handle(db, l);
	if (st != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", l->name);
	lq_value p[3] = {lq__v_text(l->name), lq__v_text(l->owner), lq_v_int(l->token)};
	int64_t n = 0;
	st = lq__exec(db, what, LQ_SQL_lease_release, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n == 1) {
		lq__notify(db, LQ_CHANNEL_LEASE);
		return LQ_OK;
	}
	/* Released twice by its holder is fine; anything else is lost. */
	lq_lease cur;
	memset(&cur, 0, sizeof(cur));
	st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row, &cur, NULL);
	if (st != LQ_OK)
		return st;
	if (cur.name[0] && cur.token == l->token && !cur.owner[0])
		return LQ_OK;
	return lq__fail(db, LQ_LOST, "lease \"%s\" (token %lld) was lost: it expired and was taken (now token %lld)",
			l->name, (long long)l->token, (long long)cur.token);
}

LQ_EXTERN(lq_status) lq_lease_check(lq_db *db, const lq_lease *l)
{
	lq__ok(db);
	lq_status st = check_handle(db, l);
	if (st != LQ_OK)
		return st;
	lq_lease cur;
	st = lq_lease_get(db, l->name, &cur);
	if (st == LQ_NOTFOUND || (st == LQ_OK && !(lq_lease_held(&cur) && cur.token == l->token &&
						   strcmp(cur.owner, l->owner) == 0)))
		return lq__fail(db, LQ_LOST, "lease \"%s\" (token %lld) is no longer held", l->name,
				(long long)l->token);
	return st;
}

struct break_ctx {
	const char *name;
	lq_lease *prev;
	int64_t n;
};

static lq_status break_body(lq_db *db, void *arg)
{
	struct break_ctx *b = arg;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", b->name);
	lq_value p[1] = {lq__v_text(b->name)};
	lq_status st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row, b->prev, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_lease_break, p, 1, NULL, NULL, &b->n);
	return st;
}

LQ_EXTERN(lq_status) lq_lease_break(lq_db *db, const char *name, lq_lease *prev)
{
	lq__ok(db);
	lq_lease tmp;
	if (!prev)
		prev = &tmp;
	memset(prev, 0, sizeof(*prev));
	lq_status st;
	if ((st = lq__check_name(db, "lease name", name)) != LQ_OK)
		return st;
	if ((st = lq__ready(db)) != LQ_OK)
		return st;
	struct break_ctx b = {name, prev, 0};
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", name);
	st = lq__tx(db, 1, what, break_body, &b);
	if (st != LQ_OK)
		return st;
	if (b.n != 1)
		return lq__fail(db, LQ_NOTFOUND, "lease \"%s\": not found", name);
	lq__notify(db, LQ_CHANNEL_LEASE);
	return LQ_OK;
}

struct list_ctx {
	lq_lease_fn fn;
	void *ctx;
};

static int list_row(void *arg, const lq_value *c, int n)
{
	struct list_ctx *lc = arg;
	lq_lease l;
	memset(&l, 0, sizeof(l));
	if (lease_row(&l, c, n))
		return 1;
	return lc->fn(&l, lc->ctx);
}

LQ_EXTERN(lq_status) lq_lease_list(lq_db *db, lq_lease_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct list_ctx lc = {fn, ctx};
	return lq__exec(db, "lease list", LQ_SQL_lease_list, NULL, 0, list_row, &lc, NULL);
}

/* ------------------------------------------------------- encode / decode */

static int unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '.' || c == '_' || c == '~' || c == '/' || c == '@' || c == '+';
}

static int pct_append(char *buf, size_t size, size_t *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (unreserved(*p)) {
			if (*o + 1 >= size)
				return -1;
			buf[(*o)++] = (char)*p;
		} else {
			if (*o + 3 >= size)
				return -1;
			buf[(*o)++] = '%';
			buf[(*o)++] = hex[*p >> 4];
			buf[(*o)++] = hex[*p & 15];
		}
	}
	buf[*o] = '\0';
	return 0;
}

LQ_EXTERN(lq_status) lq_lease_encode(const lq_lease *l, char *buf, size_t size)
{
	if (!l->name[0] || !l->owner[0] || l->token <= 0 || size == 0)
		return LQ_EINVAL;
	int n = snprintf(buf, size, "lq1:%lld:", (long long)l->token);
	if (n < 0 || (size_t)n >= size)
		return LQ_EINVAL;
	size_t o = (size_t)n;
	if (pct_append(buf, size, &o, l->name) != 0 || o + 1 >= size)
		return LQ_EINVAL;
	buf[o++] = ':';
	buf[o] = '\0';
	if (pct_append(buf, size, &o, l->owner) != 0)
		return LQ_EINVAL;
	return LQ_OK;
}

/* One field of a handle: percent-decoded and not empty. */
static int pct_field(const char *s, size_t n, char *out, size_t size)
{
	return n > 0 ? lq__pct_decode(s, n, out, size) : -1;
}

LQ_EXTERN(lq_status) lq_lease_decode(const char *text, lq_lease *out)
{
	memset(out, 0, sizeof(*out));
	if (!text || strncmp(text, "lq1:", 4) != 0)
		return LQ_EINVAL;
	const char *p = text + 4;
	char *end;
	errno = 0;
	long long token = strtoll(p, &end, 10);
	if (errno || end == p || *end != ':' || token <= 0)
		return LQ_EINVAL;
	p = end + 1;
	const char *colon = strchr(p, ':');
	if (!colon || strchr(colon + 1, ':'))
		return LQ_EINVAL;
	if (pct_field(p, (size_t)(colon - p), out->name, sizeof(out->name)) != 0 ||
	    pct_field(colon + 1, strlen(colon + 1), out->owner, sizeof(out->owner)) != 0)
		return LQ_EINVAL;
	if (lq_check_name(NULL, out->name, NULL, 0) != LQ_OK)
		return LQ_EINVAL;
	out->token = token;
	return LQ_OK;
}
