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

/* Owners no handle can carry (every real owner ends in a random part): a
 * read/write lease's row while readers hold it, and a semaphore's header,
 * whose token 0 and far expiry keep every exclusive acquire out of it. */
#define READERS "lq:readers"
#define SLOTS_TAG "lq:slots:"
#define HEADER_EXPIRES ((int64_t)1 << 62)
/* How long a waiting writer's intent keeps new readers out; the writer
 * refreshes it at every try, so it outlives the writer by at most this. */
#define INTENT_MS 2000

static lq_status shared_renew(lq_db *db, const char *what, lq_lease *l, int64_t ttl_ms);
static lq_status shared_release(lq_db *db, const char *what, const lq_lease *l);
static lq_status slot_get(lq_db *db, const char *what, const lq_lease *l, lq_lease *out);

/* lease_row_raw and lease_row read the LEASE_COLS of these statements. */
_Static_assert(LQ_COLS_lease_get == LQ_LEASE_COLS && LQ_COLS_lease_lock == LQ_LEASE_COLS &&
		       LQ_COLS_lease_slot_get == LQ_LEASE_COLS && LQ_COLS_lease_list > LQ_LEASE_COLS,
	       "lease rows: sql_names.h and lease.c disagree");

/* The row as stored, the owner kept even when the lease has expired. */
static int lease_row_raw(void *ctx, const lq_value *c, int n)
{
	lq_lease *l = ctx;
	if (n < LQ_LEASE_COLS)
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

LQ_EXTERN(int) lq_lease_held_abi(const lq_lease *l, int abi)
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
	if (n < LQ_COLS_lease_acquire || a->rows++)
		return 1;
	a->got = lq__col_int(&c[6]) == 1;
	/* A row we took keeps our owner even if a TTL of a few milliseconds
	 * has already run out by the time the statement returns. */
	return a->got ? lease_row_raw(a->out, c, n) : lease_row(a->out, c, n);
}

static int header_slots(const lq_lease *row)
{
	if (row->token != 0 || row->expires_at != HEADER_EXPIRES ||
	    strncmp(row->owner, SLOTS_TAG, strlen(SLOTS_TAG)) != 0)
		return 0;
	return atoi(row->owner + strlen(SLOTS_TAG));
}

/* A reserved owner: never in a handle. */
static int reserved_owner(const char *owner)
{
	return strcmp(owner, READERS) == 0 ||
	       (strncmp(owner, SLOTS_TAG, strlen(SLOTS_TAG)) == 0 && !strchr(owner, '/'));
}

/* Drop our intent (best effort: it expires anyway), keeping the message. */
static void intent_clear(lq_db *db, const char *what, const char *name, const char *owner)
{
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	lq_value p[2] = {lq__v_text(name), lq__v_text(owner)};
	(void)lq__exec(db, what, LQ_SQL_lease_intent_clear, p, 2, NULL, NULL, NULL);
	memcpy(db->errmsg, saved, sizeof(saved));
}

/* An exclusive acquire that did not get the lease: a semaphore's name is
 * the wrong kind (LQ_EINVAL); readers holding it see a waiting writer's
 * intent, so that no new reader joins them until the writer is in. */
static lq_status held_by_shared(lq_db *db, const char *what, const char *name, const char *owner,
				int64_t wait_ms, lq_lease *out, int *intent)
{
	int n = header_slots(out);
	if (n)
		return lq__fail(db, LQ_EINVAL, "%s is a semaphore of %d slots: take one of its slots, not the whole lease",
				what, n);
	if (strcmp(out->owner, READERS) == 0)
		out->kind = LQ_LEASE_READ; /* held by readers */
	if (wait_ms > 0 && out->kind == LQ_LEASE_READ) {
		lq_value p[3] = {lq__v_text(name), lq__v_text(owner), lq_v_int(INTENT_MS)};
		if (lq__exec(db, what, LQ_SQL_lease_intent_set, p, 3, NULL, NULL, NULL) == LQ_OK)
			*intent = 1;
		lq__ok(db);
	}
	return LQ_OK;
}

/* How long a lease found held keeps the handle's tries on lease_acquire,
 * which returns the holder's row in the same round trip. */
#define LEASE_HELD_MEMO_MS 1000

/* One try: lease_acquire inserts or takes over the lease in one statement,
 * deciding on the database clock.  Where it returns the row it took (got)
 * or saw held, that is the whole round trip; otherwise (MySQL, PostgreSQL's
 * lease_acquire_free on a held lease, or a racing insert PostgreSQL's
 * snapshot does not show) the row is read, and it is ours only if it
 * carries our owner, whose random part nobody else writes.
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
	/* A lease not found held lately is most likely free: take it without
	 * the read of a holder's row, and read that row apart if it is held. */
	lq_sql_id id = LQ_SQL_lease_acquire;
	if (db->be->sql[LQ_SQL_lease_acquire_free] && !lq__memo_yes(&db->lease_held, name, LEASE_HELD_MEMO_MS))
		id = LQ_SQL_lease_acquire_free;
	lq_status st = lq__exec_once(db, what, id, p, 3, acquire_row, &a, NULL);
	*sent = st == LQ_OK || st == LQ_EUNKNOWN || st == LQ_ECONN;
	if (st != LQ_OK)
		return st;
	if (a.got) {
		*got = 1;
		return LQ_OK;
	}
	if (a.rows && lq_lease_held(out)) {
		lq__memo_set(&db->lease_held, name, 1);
		return LQ_OK; /* held elsewhere, as the statement saw it */
	}
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
	else if (id == LQ_SQL_lease_acquire_free)
		lq__memo_set(&db->lease_held, name, 1);
	return LQ_OK;
}

/* The checks every acquire makes; what (LQ_NAME_MAX + 32 bytes) names the
 * lease, full_owner (LQ_OWNER_MAX + 1) gets the owner with its random part. */
static lq_status acquire_args(lq_db *db, const char *name, int64_t ttl_ms, const char *owner, int64_t wait_ms,
			      char *what, char *full_owner)
{
	lq_status st;
	if ((st = lq__check_name(db, "lease name", name)) != LQ_OK)
		return st;
	snprintf(what, LQ_NAME_MAX + 32, "lease \"%s\"", name);
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
	lq__make_owner(db, owner, full_owner, LQ_OWNER_MAX + 1);
	return LQ_OK;
}

/* After an attempt whose answer was lost: LQ_OK (*out is the lease) when
 * NAME is held by owner, LQ_NOTFOUND when it is not (free, or another
 * holder's), else the error of the read. */
static lq_status ours_already(lq_db *db, const char *name, const char *owner, lq_lease *out)
{
	lq_lease cur;
	lq_status st = lq_lease_get(db, name, &cur);
	if (st == LQ_OK && lq_lease_held(&cur) && strcmp(cur.owner, owner) == 0) {
		*out = cur;
		lq__ok(db);
		return LQ_OK;
	}
	return st == LQ_OK ? LQ_NOTFOUND : st;
}

/* The re-read that was to settle an earlier attempt of this call (whose
 * answer was lost) failed too. */
static lq_status earlier_unknown(lq_db *db)
{
	return lq__fail(db, LQ_EUNKNOWN, "%s; an earlier attempt may have been applied: outcome unknown",
			db->errmsg);
}

/* A wait rides out a lost connection (a server restart, a failover): 1
 * after a back-off pause, and the next attempt reconnects; 0 for any other
 * status, or once the wait has ended (then st is the answer).  *unsure is
 * set when the lost attempt may have been applied. */
static int ride_out(lq_db *db, lq_status st, int attempt, int64_t deadline, int *unsure)
{
	if ((st != LQ_ECONN && st != LQ_EUNKNOWN) || deadline <= lq__mono_ms() || db->cancel)
		return 0;
	*unsure |= st == LQ_EUNKNOWN;
	int64_t pause = lq__backoff_ms(db, attempt, 50, 1000), left = deadline - lq__mono_ms();
	lq__pause(db, pause < left ? pause : left);
	return 1;
}

/* A waiter marks the lease so that its holder's release wakes it (only a
 * marked release sends a NOTIFY, see lease_release_notify).  The mark lasts
 * a bounded while and is renewed as the wait goes on, so a waiter that dies
 * stops costing releases soon.  A failed mark only costs the wake-up: the
 * wait polls anyway. */
#define WAIT_MARK_MS 30000

static void wait_mark(lq_db *db, const char *what, const char *name, int64_t left, int64_t *mark_until)
{
	int64_t now = lq__mono_ms();
	if (!(db->be->caps & LQ_CAP_NOTIFY) || now < *mark_until - 1000)
		return;
	int64_t span = left < WAIT_MARK_MS ? left : WAIT_MARK_MS;
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	lq_value p[2] = {lq__v_text(name), lq_v_int(span + 1000)};
	if (lq__exec(db, what, LQ_SQL_lease_wait_mark, p, 2, NULL, NULL, NULL) == LQ_OK)
		*mark_until = now + span;
	memcpy(db->errmsg, saved, sizeof(saved));
}

/* lq_cancel ended a wait between two attempts: nothing is held. */
static lq_status wait_cancelled(lq_db *db, const char *what)
{
	return lq__fail(db, LQ_ECANCELED, "%s: the wait was cancelled", what);
}

LQ_EXTERN(lq_status) lq_lease_acquire(lq_db *db, const char *name, int64_t ttl_ms,
				      const char *owner, int64_t wait_ms, lq_lease *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	char what[LQ_NAME_MAX + 32], full_owner[LQ_OWNER_MAX + 1];
	lq_status st = acquire_args(db, name, ttl_ms, owner, wait_ms, what, full_owner);
	if (st != LQ_OK)
		return st;

	int64_t deadline = lq__mono_ms() + wait_ms, mark_until = 0;
	int intent = 0, unsure = 0;
	for (int attempt = 1;; attempt++) {
		int got = 0, sent = 0;
		if (attempt > 1 && db->cancel && !unsure) {
			if (intent)
				intent_clear(db, what, name, full_owner);
			return wait_cancelled(db, what);
		}
		if (unsure) {
			/* An earlier attempt of this call may have been applied
			 * (its answer was lost): ours already? */
			lq_status gst = ours_already(db, name, full_owner, out);
			if (gst == LQ_OK)
				return LQ_OK;
			if (gst == LQ_NOTFOUND)
				unsure = 0;
			else
				st = earlier_unknown(db);
		}
		if (!unsure)
			st = acquire_once(db, what, name, full_owner, ttl_ms, out, &got, &sent);
		if (st != LQ_OK && sent) {
			/* It may have been applied: re-read by (name, owner)
			 * before deciding; never report a guess. */
			char saved[sizeof(db->errmsg)];
			memcpy(saved, db->errmsg, sizeof(saved));
			lq_status gst = ours_already(db, name, full_owner, out);
			if (gst == LQ_OK)
				return LQ_OK;
			memcpy(db->errmsg, saved, sizeof(saved));
			if (gst != LQ_NOTFOUND) {
				unsure = 1;
				st = lq__fail(db, LQ_EUNKNOWN, "%s; the acquire may have been applied: outcome unknown",
					      saved);
			}
		}
		if (st == LQ_OK && !got)
			st = held_by_shared(db, what, name, full_owner, wait_ms, out, &intent);
		if (ride_out(db, st, attempt, deadline, &unsure))
			continue;
		if (intent && (st != LQ_OK || got || deadline <= lq__mono_ms()))
			intent_clear(db, what, name, full_owner);
		if (st != LQ_OK)
			return st;
		if (got)
			return LQ_OK;
		int64_t left = deadline - lq__mono_ms();
		if (left <= 0) {
			char until[40];
			lq__fmt_time(until, sizeof(until), out->expires_at);
			return lq__fail(db, LQ_BUSY, "lease \"%s\" is held by %s until %s (token %lld)", name,
					out->kind == LQ_LEASE_READ ? "readers"
					: out->owner[0]		   ? out->owner
								   : "another holder",
					until, (long long)out->token);
		}
		/* Back off with jitter, but wake no later than the holder's expiry. */
		int64_t pause = lq__backoff_ms(db, attempt, 50, 1000);
		int64_t until_expiry = out->expires_at - out->now + 5;
		if (until_expiry > 0 && until_expiry < pause)
			pause = until_expiry;
		if (pause > left)
			pause = left;
		wait_mark(db, what, name, left, &mark_until);
		lq__wait(db, LQ_CHANNEL_LEASE, pause);
	}
}

/* The kind of a name's lq_lease row: a semaphore's header reads as free. */
static void annotate(lq_lease *l)
{
	int n = header_slots(l);
	if (n) {
		l->kind = LQ_LEASE_SLOT;
		l->slots = n;
		l->owner[0] = '\0';
		l->expires_at = l->acquired_at;
	} else if (strcmp(l->owner, READERS) == 0) {
		l->kind = LQ_LEASE_READ;
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
	annotate(out);
	return LQ_OK;
}

static lq_status check_handle(lq_db *db, const lq_lease *l)
{
	lq_status st;
	if ((st = lq__check_name(db, "lease name", l->name)) != LQ_OK)
		return st;
	if (!l->owner[0] || l->token <= 0 || reserved_owner(l->owner))
		return lq__fail(db, LQ_EINVAL, "lease \"%s\": handle has no owner or token", l->name);
	if (l->kind != LQ_LEASE_EXCLUSIVE && (l->slot < 0 || l->slot > INT32_MAX ||
					      (l->kind == LQ_LEASE_READ && l->slot == 0)))
		return lq__fail(db, LQ_EINVAL, "lease \"%s\": handle has no valid slot", l->name);
	return lq__ready(db);
}

/* lease_renew's row where the dialect returns one: (expires_at, NOW). */
static int renew_row(void *ctx, const lq_value *c, int n)
{
	lq_lease *l = ctx;
	if (n < LQ_COLS_lease_renew)
		return 1;
	l->expires_at = lq__col_int(&c[0]);
	l->now = lq__col_int(&c[1]);
	return 0;
}

/* LQ_LOST for the exclusive lease l, saying what became of it from its row
 * cur as stored (lease_row_raw), read after the failed renew or release
 * (have_cur 0: unread).  A break and a release both leave the row without
 * an owner: a newer token with no owner is a break, or a later holder that
 * has released it. */
static lq_status lost(lq_db *db, const lq_lease *l, const lq_lease *cur, int have_cur)
{
	char reason[LQ_OWNER_MAX + 128], when[40];

	if (!have_cur)
		snprintf(reason, sizeof(reason), "it expired and was taken, or was broken");
	else if (!cur->name[0])
		snprintf(reason, sizeof(reason), "it no longer exists");
	else if (cur->token == l->token && !cur->owner[0])
		snprintf(reason, sizeof(reason), "it was released");
	else if (cur->token == l->token) {
		lq__fmt_time(when, sizeof(when), cur->expires_at);
		snprintf(reason, sizeof(reason), "it expired at %s (nobody has taken it since)", when);
	} else if (!cur->owner[0] || header_slots(cur))
		snprintf(reason, sizeof(reason), "it was broken, or taken and released since (now token %lld, free)",
			 (long long)cur->token);
	else
		snprintf(reason, sizeof(reason), "it expired and was taken by %s (now token %lld)",
			 strcmp(cur->owner, READERS) == 0 ? "readers" : cur->owner, (long long)cur->token);
	return lq__fail(db, LQ_LOST, "lease \"%s\" (token %lld) was lost: %s", l->name, (long long)l->token, reason);
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
	if (l->kind != LQ_LEASE_EXCLUSIVE)
		return shared_renew(db, what, l, ttl_ms);
	lq_value p[4] = {lq__v_text(l->name), lq__v_text(l->owner), lq_v_int(l->token), lq_v_int(ttl_ms)};
	int64_t n = 0;
	lq_lease cur;
	memset(&cur, 0, sizeof(cur));
	st = lq__exec(db, what, LQ_SQL_lease_renew, p, 4, renew_row, &cur, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1) {
		memset(&cur, 0, sizeof(cur));
		return lost(db, l, &cur, lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row_raw, &cur, NULL) == LQ_OK);
	}
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
	if (l->kind != LQ_LEASE_EXCLUSIVE)
		return shared_release(db, what, l);
	lq_value p[3] = {lq__v_text(l->name), lq__v_text(l->owner), lq_v_int(l->token)};
	int64_t n = 0;
	/* Where waiters are woken, the wake-up rides on the release. */
	int notify = (db->be->caps & LQ_CAP_NOTIFY) != 0;
	st = lq__exec(db, what, notify ? LQ_SQL_lease_release_notify : LQ_SQL_lease_release, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n == 1)
		return LQ_OK;
	/* Released twice by its holder is fine; anything else is lost.  The
	 * row as stored: a later holder's expired lease still names it. */
	lq_lease cur;
	memset(&cur, 0, sizeof(cur));
	st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row_raw, &cur, NULL);
	if (st != LQ_OK)
		return st;
	if (cur.name[0] && cur.token == l->token && !cur.owner[0])
		return LQ_OK;
	return lost(db, l, &cur, 1);
}

LQ_EXTERN(lq_status) lq_lease_check(lq_db *db, const lq_lease *l)
{
	lq__ok(db);
	lq_status st = check_handle(db, l);
	if (st != LQ_OK)
		return st;
	lq_lease cur;
	if (l->kind != LQ_LEASE_EXCLUSIVE) {
		char what[LQ_NAME_MAX + 32];
		snprintf(what, sizeof(what), "lease \"%s\"", l->name);
		st = slot_get(db, what, l, &cur);
	} else {
		st = lq_lease_get(db, l->name, &cur);
	}
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
	if (st != LQ_OK || !b->prev->name[0])
		return st;
	/* A semaphore keeps its header; its slots (or a lease's readers and
	 * waiting writer) move on too. */
	if (header_slots(b->prev))
		b->n = 1;
	else
		st = lq__exec(db, what, LQ_SQL_lease_break, p, 1, NULL, NULL, &b->n);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_lease_slot_break, p, 1, NULL, NULL, NULL);
	annotate(b->prev);
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
	int rows;
};

/* lease_list's row: a lease, or one holder of a shared lease. */
static int list_row(void *arg, const lq_value *c, int n)
{
	struct list_ctx *lc = arg;
	lq_lease l, row;
	memset(&l, 0, sizeof(l));
	memset(&row, 0, sizeof(row));
	if (n < LQ_COLS_lease_list || lease_row(&l, c, n))
		return 1;
	lq__col_str(&c[7], row.owner, sizeof(row.owner));
	row.token = lq__col_int(&c[8]);
	row.expires_at = lq__col_int(&c[9]);
	lc->rows++;
	if (c[6].type == LQ_V_NULL) { /* the lease itself */
		annotate(&l);
		return lc->fn(&l, lc->ctx);
	}
	l.slot = lq__col_int(&c[6]);
	l.slots = header_slots(&row);
	l.kind = l.slots ? LQ_LEASE_SLOT : LQ_LEASE_READ;
	return lc->fn(&l, lc->ctx);
}

static lq_status list(lq_db *db, const char *what, const char *name, lq_lease_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct list_ctx lc = {fn, ctx, 0};
	lq_value p[1] = {lq__v_opt_text(name)};
	st = lq__exec(db, what, LQ_SQL_lease_list, p, 1, list_row, &lc, NULL);
	if (st == LQ_OK && name && !lc.rows)
		return lq__fail(db, LQ_NOTFOUND, "%s: not found", what);
	return st;
}

LQ_EXTERN(lq_status) lq_lease_list(lq_db *db, lq_lease_fn fn, void *ctx)
{
	return list(db, "lease list", NULL, fn, ctx);
}

LQ_EXTERN(lq_status) lq_lease_holders(lq_db *db, const char *name, lq_lease_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st = lq__check_name(db, "lease name", name);
	if (st != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", name);
	return list(db, what, name, fn, ctx);
}

/* ------------------------------------------------------- shared leases */

/* A slot row (semaphore slot, reader) as stored: owner "" once released. */
static lq_status slot_get(lq_db *db, const char *what, const lq_lease *l, lq_lease *out)
{
	memset(out, 0, sizeof(*out));
	lq_value p[2] = {lq__v_text(l->name), lq_v_int(l->slot)};
	lq_status st = lq__exec(db, what, LQ_SQL_lease_slot_get, p, 2, lease_row_raw, out, NULL);
	if (st == LQ_OK && !out->name[0])
		return lq__fail(db, LQ_NOTFOUND, "%s: slot %lld not found", what, (long long)l->slot);
	out->kind = l->kind;
	out->slot = l->slot;
	out->slots = l->slots;
	return st;
}

static lq_status lost_handle(lq_db *db, const char *what, const lq_lease *l)
{
	return lq__fail(db, LQ_LOST, "%s (%s %lld, token %lld) was lost: it expired or was taken or broken", what,
			l->kind == LQ_LEASE_READ ? "reader" : "slot", (long long)l->slot, (long long)l->token);
}

/* The lease's lq_lease row, locked until the transaction ends; created free
 * (token 0) when absent and create is set. */
static lq_status lock_row(lq_db *db, const char *what, const char *name, int create, lq_lease *row)
{
	lq_value p[3] = {lq__v_text(name), lq_v_null(), lq_v_null()};
	memset(row, 0, sizeof(*row));
	lq_status st = lq__exec(db, what, LQ_SQL_lease_lock, p, 1, lease_row_raw, row, NULL);
	if (st != LQ_OK || row->name[0] || !create)
		return st;
	st = lq__exec(db, what, LQ_SQL_lease_create, p, 3, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, what, LQ_SQL_lease_lock, p, 1, lease_row_raw, row, NULL);
	if (st == LQ_OK && !row->name[0])
		st = LQ__RETRY; /* created and gone (a racing prune): try again */
	return st;
}

struct rw_state {
	int64_t max_slot, readers;
	char intent[LQ_OWNER_MAX + 1];
};

static int rw_state_row(void *ctx, const lq_value *c, int n)
{
	struct rw_state *s = ctx;
	if (n < LQ_COLS_lease_rw_state)
		return 1;
	s->max_slot = lq__col_int(&c[0]);
	s->readers = lq__col_int(&c[1]);
	lq__col_str(&c[2], s->intent, sizeof(s->intent));
	return 0;
}

static lq_status rw_state(lq_db *db, const char *what, const char *name, struct rw_state *s)
{
	lq_value p[1] = {lq__v_text(name)};
	memset(s, 0, sizeof(*s));
	return lq__exec(db, what, LQ_SQL_lease_rw_state, p, 1, rw_state_row, s, NULL);
}

/* A new reader row for the group with this token: the next slot number
 * after the live readers (the gone ones are purged first). */
static lq_status add_reader(lq_db *db, const char *what, const char *name, const char *owner, int64_t token,
			    lq_value expires, int64_t ttl, lq_lease *out)
{
	lq_value p[6] = {lq__v_text(name), lq_v_null(), lq__v_text(owner), lq_v_int(token), expires, lq_v_int(ttl)};
	struct rw_state s;
	int64_t n = 0;
	lq_status st = lq__exec(db, what, LQ_SQL_lease_read_purge, p, 1, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = rw_state(db, what, name, &s);
	if (st != LQ_OK)
		return st;
	p[1] = lq_v_int(s.max_slot + 1);
	st = lq__exec(db, what, LQ_SQL_lease_read_insert, p, 6, NULL, NULL, &n);
	if (st == LQ_OK && n != 1)
		st = lq__fail(db, LQ_ERROR, "%s: reader slot %lld was taken", what, (long long)s.max_slot + 1);
	if (st != LQ_OK)
		return st;
	lq_lease h = {.kind = LQ_LEASE_READ, .slot = s.max_slot + 1};
	snprintf(h.name, sizeof(h.name), "%s", name);
	return slot_get(db, what, &h, out);
}

struct shared_ctx {
	const char *what, *name, *owner;
	int slots;
	int64_t ttl;
	lq_lease *l;      /* in/out: the handle or the new lease */
	int got;          /* acquired */
	char busy[LQ_NAME_MAX + LQ_OWNER_MAX + 128];
};

struct slot_scan {
	int64_t *exp; /* per slot: expires_at, or INT64_MAX for no row yet */
	int64_t now;
	int n;
};

static int scan_row(void *ctx, const lq_value *c, int n)
{
	struct slot_scan *sc = ctx;
	if (n < LQ_COLS_lease_slot_scan)
		return 1;
	int64_t slot = lq__col_int(&c[0]);
	sc->now = lq__col_int(&c[2]);
	if (slot >= 0 && slot < sc->n)
		sc->exp[slot] = lq__col_int(&c[1]);
	return 0;
}

static void slot_handle(lq_lease *h, const char *name, int kind, int slots, int64_t slot)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->kind = kind;
	h->slots = slots;
	h->slot = slot;
}

/* Semaphore: one try over the free slots, from a random one on so that
 * racing takers spread out.  Each take is one conditional statement
 * (insert if absent, or take if expired) judged by its affected rows. */
static lq_status slot_try(lq_db *db, struct shared_ctx *c)
{
	struct slot_scan sc = {malloc(sizeof(int64_t) * (size_t)c->slots), 0, c->slots};
	if (!sc.exp)
		return lq__fail(db, LQ_ENOMEM, "%s: out of memory", c->what);
	for (int i = 0; i < c->slots; i++)
		sc.exp[i] = INT64_MAX;
	lq_value p[4] = {lq__v_text(c->name), lq_v_int(c->slots), lq__v_text(c->owner), lq_v_int(c->ttl)};
	lq_status st = lq__exec(db, c->what, LQ_SQL_lease_slot_scan, p, 2, scan_row, &sc, NULL);
	int start = (int)(lq__rand(db) % (uint64_t)c->slots), first = -1;
	lq_lease h;
	for (int k = 0; st == LQ_OK && k < c->slots && !c->got; k++) {
		int i = (start + k) % c->slots;
		int64_t n = 0;
		if (sc.exp[i] != INT64_MAX && sc.exp[i] > sc.now) {
			if (first < 0 || sc.exp[i] < sc.exp[first])
				first = i;
			continue;
		}
		p[1] = lq_v_int(i);
		st = lq__exec_once(db, c->what,
				   sc.exp[i] == INT64_MAX ? LQ_SQL_lease_slot_insert : LQ_SQL_lease_slot_take, p, 4,
				   NULL, NULL, &n);
		if (st == LQ_OK && n != 1)
			continue; /* taken by a racer meanwhile */
		/* Taken, or perhaps (the connection went with the statement):
		 * the slot is ours only if it carries our owner. */
		lq_status sent = st;
		slot_handle(&h, c->name, LQ_LEASE_SLOT, c->slots, i);
		st = slot_get(db, c->what, &h, c->l);
		c->got = st == LQ_OK && strcmp(c->l->owner, c->owner) == 0;
		if (sent != LQ_OK && !c->got)
			st = st == LQ_OK || st == LQ_NOTFOUND || sent == LQ_EUNKNOWN ? sent : st;
	}
	free(sc.exp);
	if (st != LQ_OK || c->got)
		return st;
	memset(c->l, 0, sizeof(*c->l));
	if (first >= 0) {
		slot_handle(&h, c->name, LQ_LEASE_SLOT, c->slots, first);
		st = slot_get(db, c->what, &h, c->l);
	}
	char when[40];
	lq__fmt_time(when, sizeof(when), c->l->expires_at);
	snprintf(c->busy, sizeof(c->busy), "all %d slots are held; the first frees at %s (token %lld)", c->slots,
		 when, (long long)c->l->token);
	return st;
}

/* Read lease: one try, in a transaction that holds the lease's row, so
 * that readers, promotions and demotions of one name are serialised (an
 * exclusive acquire is one upsert that waits on that row lock). */
static lq_status read_try(lq_db *db, void *arg)
{
	struct shared_ctx *c = arg;
	lq_lease row;
	struct rw_state s;
	int64_t n = 0;
	c->got = 0;
	lq_status st = lock_row(db, c->what, c->name, 1, &row);
	if (st != LQ_OK)
		return st;
	if (header_slots(&row))
		return lq__fail(db, LQ_EINVAL, "%s is a semaphore of %d slots: it has no read lease", c->what,
				header_slots(&row));
	int readers = strcmp(row.owner, READERS) == 0;
	int live = row.expires_at > row.now;
	if (live && row.owner[0] && !readers) {
		char when[40];
		*c->l = row;
		lq__fmt_time(when, sizeof(when), row.expires_at);
		snprintf(c->busy, sizeof(c->busy), "a writer (%s) holds it until %s (token %lld)", row.owner, when,
			 (long long)row.token);
		return LQ_OK;
	}
	if ((st = rw_state(db, c->what, c->name, &s)) != LQ_OK)
		return st;
	if (s.intent[0]) {
		*c->l = row;
		snprintf(c->busy, sizeof(c->busy), "a writer (%s) is waiting for it", s.intent);
		return LQ_OK;
	}
	int64_t token = row.token;
	if (readers && live) { /* join the group */
		lq_value p[4] = {lq__v_text(c->name), lq__v_text(READERS), lq_v_int(token), lq_v_int(c->ttl)};
		st = lq__exec(db, c->what, LQ_SQL_lease_read_extend, p, 4, NULL, NULL, &n);
	} else { /* start a group: the fencing token moves on */
		lq_value p[3] = {lq__v_text(c->name), lq__v_text(READERS), lq_v_int(c->ttl)};
		st = lq__exec(db, c->what, LQ_SQL_lease_take, p, 3, NULL, NULL, &n);
		token++;
	}
	if (st == LQ_OK && n != 1)
		return LQ__RETRY; /* cannot happen under the row lock */
	if (st == LQ_OK)
		st = add_reader(db, c->what, c->name, c->owner, token, lq_v_null(), c->ttl, c->l);
	c->got = st == LQ_OK;
	return st;
}

static lq_status read_once(lq_db *db, struct shared_ctx *c)
{
	return lq__tx(db, 1, c->what, read_try, c);
}

struct ours_scan {
	const char *owner;
	int kind;
	lq_lease *out;
	int found;
};

static int ours_row(const lq_lease *l, void *ctx)
{
	struct ours_scan *s = ctx;
	if (l->kind == s->kind && lq_lease_held(l) && strcmp(l->owner, s->owner) == 0) {
		*s->out = *l;
		s->found = 1;
	}
	return 0;
}

/* After a try whose answer was lost: c->got tells whether c's owner holds
 * a slot (or a read share) of the name; else the read's error. */
static lq_status shared_ours_already(lq_db *db, struct shared_ctx *c)
{
	struct ours_scan s = {c->owner, c->slots ? LQ_LEASE_SLOT : LQ_LEASE_READ, c->l, 0};
	lq_status st = list(db, c->what, c->name, ours_row, &s);
	c->got = st == LQ_OK && s.found;
	return st == LQ_NOTFOUND ? LQ_OK : st;
}

/* Try until got or the wait ends, backing off like lq_lease_acquire, and
 * like it riding out a lost connection while the wait lasts. */
static lq_status shared_acquire(lq_db *db, struct shared_ctx *c, int64_t wait_ms,
				lq_status (*once)(lq_db *, struct shared_ctx *))
{
	int64_t deadline = lq__mono_ms() + wait_ms, mark_until = 0;
	int unsure = 0; /* an earlier try may have been applied */
	for (int attempt = 1;; attempt++) {
		lq_status st;
		if (attempt > 1 && db->cancel && !unsure)
			return wait_cancelled(db, c->what);
		if (unsure) {
			st = shared_ours_already(db, c);
			unsure = st != LQ_OK;
			if (st == LQ_OK && !c->got)
				st = once(db, c);
		} else {
			st = once(db, c);
		}
		if (ride_out(db, st, attempt, deadline, &unsure))
			continue;
		if (st != LQ_OK && unsure && st != LQ_EUNKNOWN)
			return earlier_unknown(db);
		if (st != LQ_OK)
			return st;
		if (c->got) {
			lq__ok(db);
			return LQ_OK;
		}
		int64_t left = deadline - lq__mono_ms();
		if (left <= 0)
			return lq__fail(db, LQ_BUSY, "%s: %s", c->what, c->busy);
		int64_t pause = lq__backoff_ms(db, attempt, 50, 1000);
		int64_t until_expiry = c->l->expires_at - c->l->now + 5;
		if (until_expiry > 0 && until_expiry < pause)
			pause = until_expiry;
		if (pause > left)
			pause = left;
		wait_mark(db, c->what, c->name, left, &mark_until);
		lq__wait(db, LQ_CHANNEL_LEASE, pause);
	}
}

/* The name must be a semaphore of `slots` slots: its header is created if
 * the name is new; any other kind is LQ_EINVAL. */
static lq_status slot_header(lq_db *db, const char *what, const char *name, int slots)
{
	char tag[32];
	snprintf(tag, sizeof(tag), SLOTS_TAG "%d", slots);
	lq_value p[3] = {lq__v_text(name), lq__v_text(tag), lq_v_int(HEADER_EXPIRES)};
	lq_lease row;
	memset(&row, 0, sizeof(row));
	lq_status st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row_raw, &row, NULL);
	if (st == LQ_OK && !row.name[0]) {
		st = lq__exec(db, what, LQ_SQL_lease_create, p, 3, NULL, NULL, NULL);
		if (st == LQ_OK)
			st = lq__exec(db, what, LQ_SQL_lease_get, p, 1, lease_row_raw, &row, NULL);
	}
	if (st != LQ_OK)
		return st;
	int n = header_slots(&row);
	if (n == slots)
		return LQ_OK;
	if (n)
		return lq__fail(db, LQ_EINVAL, "%s is a semaphore of %d slots, not %d (a name keeps its kind)", what, n,
				slots);
	return lq__fail(db, LQ_EINVAL, "%s is an exclusive (read/write) lease, not a semaphore (a name keeps its kind)",
			what);
}

LQ_EXTERN(lq_status) lq_lease_take(lq_db *db, const char *name, int64_t ttl_ms, const lq_lease_opts *opts,
				   lq_lease *out)
{
	static const lq_lease_opts defaults = LQ_LEASE_OPTS_INIT;
	if (!opts)
		opts = &defaults;
	lq__ok(db);
	if (opts->version != LQ_LEASE_OPTS_VERSION) {
		memset(out, 0, sizeof(*out));
		return lq__fail(db, LQ_EINVAL, "lease \"%s\": unknown lq_lease_opts version %u", name ? name : "",
				opts->version);
	}
	if (opts->kind == LQ_LEASE_EXCLUSIVE)
		return lq_lease_acquire(db, name, ttl_ms, opts->owner, opts->wait_ms, out);
	memset(out, 0, sizeof(*out));
	char what[LQ_NAME_MAX + 32], full_owner[LQ_OWNER_MAX + 1];
	lq_status st = acquire_args(db, name, ttl_ms, opts->owner, opts->wait_ms, what, full_owner);
	if (st != LQ_OK)
		return st;
	struct shared_ctx c = {.what = what, .name = name, .owner = full_owner, .ttl = ttl_ms, .l = out};
	switch (opts->kind) {
	case LQ_LEASE_SLOT:
		if (opts->slots < 1 || opts->slots > LQ_SLOTS_MAX)
			return lq__fail(db, LQ_EINVAL, "%s: slots must be 1 to %d", what, LQ_SLOTS_MAX);
		if ((st = slot_header(db, what, name, opts->slots)) != LQ_OK)
			return st;
		c.slots = opts->slots;
		return shared_acquire(db, &c, opts->wait_ms, slot_try);
	case LQ_LEASE_READ:
		return shared_acquire(db, &c, opts->wait_ms, read_once);
	default:
		return lq__fail(db, LQ_EINVAL, "%s: unknown lease kind %d", what, (int)opts->kind);
	}
}

/* A reader renews its row and stretches its group's row over it, both or
 * neither. */
static lq_status read_renew_body(lq_db *db, void *arg)
{
	struct shared_ctx *c = arg;
	lq_lease *l = c->l;
	int64_t n = 0;
	lq_value g[4] = {lq__v_text(l->name), lq__v_text(READERS), lq_v_int(l->token), lq_v_int(c->ttl)};
	lq_status st = lq__exec(db, c->what, LQ_SQL_lease_read_extend, g, 4, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1)
		return lost_handle(db, c->what, l);
	lq_value p[5] = {lq__v_text(l->name), lq_v_int(l->slot), lq__v_text(l->owner), lq_v_int(l->token),
			 lq_v_int(c->ttl)};
	if ((st = lq__exec(db, c->what, LQ_SQL_lease_slot_renew, p, 5, NULL, NULL, &n)) != LQ_OK)
		return st;
	return n == 1 ? LQ_OK : lost_handle(db, c->what, l);
}

static lq_status shared_renew(lq_db *db, const char *what, lq_lease *l, int64_t ttl_ms)
{
	struct shared_ctx c = {.what = what, .name = l->name, .ttl = ttl_ms, .l = l};
	lq_status st;
	if (l->kind == LQ_LEASE_READ) {
		st = lq__tx(db, 1, what, read_renew_body, &c);
	} else {
		int64_t n = 0;
		lq_value p[5] = {lq__v_text(l->name), lq_v_int(l->slot), lq__v_text(l->owner), lq_v_int(l->token),
				 lq_v_int(ttl_ms)};
		st = lq__exec(db, what, LQ_SQL_lease_slot_renew, p, 5, NULL, NULL, &n);
		if (st == LQ_OK && n != 1)
			st = lost_handle(db, what, l);
	}
	if (st != LQ_OK)
		return st;
	lq_lease cur;
	if (slot_get(db, what, l, &cur) == LQ_OK && cur.token == l->token) {
		l->acquired_at = cur.acquired_at;
		l->expires_at = cur.expires_at;
		l->now = cur.now;
	}
	lq__ok(db);
	return LQ_OK;
}

/* A reader leaves: its row is freed and its group shrinks to the latest
 * remaining reader, or ends now. */
static lq_status shared_release_body(lq_db *db, void *arg)
{
	struct shared_ctx *c = arg;
	const lq_lease *l = c->l;
	int64_t n = 0;
	lq_lease row;
	lq_status st = l->kind == LQ_LEASE_READ ? lock_row(db, c->what, l->name, 0, &row) : LQ_OK;
	if (st != LQ_OK)
		return st;
	/* A reader whose group ended (a writer came after it expired) has
	 * nothing left to hand back. */
	if (l->kind == LQ_LEASE_READ && (strcmp(row.owner, READERS) != 0 || row.token != l->token))
		return LQ_OK;
	lq_value p[4] = {lq__v_text(l->name), lq_v_int(l->slot), lq__v_text(l->owner), lq_v_int(l->token)};
	st = lq__exec(db, c->what, LQ_SQL_lease_slot_release, p, 4, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	c->got = n == 1;
	if (c->got && l->kind == LQ_LEASE_READ) {
		lq_value g[3] = {lq__v_text(l->name), lq__v_text(READERS), lq_v_int(l->token)};
		st = lq__exec(db, c->what, LQ_SQL_lease_read_shrink, g, 3, NULL, NULL, NULL);
	}
	return st;
}

static lq_status shared_release(lq_db *db, const char *what, const lq_lease *l)
{
	struct shared_ctx c = {.what = what, .name = l->name, .l = (lq_lease *)l};
	lq_status st = lq__tx(db, 1, what, shared_release_body, &c);
	if (st != LQ_OK)
		return st;
	if (c.got) {
		lq__notify(db, LQ_CHANNEL_LEASE);
		return LQ_OK;
	}
	/* Released twice by its holder is fine; anything else is lost. */
	lq_lease cur;
	st = slot_get(db, what, l, &cur);
	if (st == LQ_OK && cur.token == l->token && !cur.owner[0])
		return LQ_OK;
	if (st != LQ_OK && st != LQ_NOTFOUND)
		return st;
	return lost_handle(db, what, l);
}

/* The reader's own row, live and still its own; else LQ_LOST. */
static lq_status own_reader(lq_db *db, const char *what, const lq_lease *l, const lq_lease *row)
{
	lq_lease cur;
	if (strcmp(row->owner, READERS) != 0 || row->token != l->token || row->expires_at <= row->now)
		return lost_handle(db, what, l);
	lq_status st = slot_get(db, what, l, &cur);
	if (st == LQ_NOTFOUND || (st == LQ_OK && !(lq_lease_held(&cur) && cur.token == l->token &&
						   strcmp(cur.owner, l->owner) == 0)))
		return lost_handle(db, what, l);
	return st;
}

static lq_status promote_body(lq_db *db, void *arg)
{
	struct shared_ctx *c = arg;
	lq_lease *l = c->l, row;
	struct rw_state s;
	int64_t n = 0;
	lq_status st = lock_row(db, c->what, l->name, 0, &row);
	if (st == LQ_OK)
		st = own_reader(db, c->what, l, &row);
	if (st == LQ_OK)
		st = rw_state(db, c->what, l->name, &s);
	if (st != LQ_OK)
		return st;
	if (s.readers > 1)
		return lq__fail(db, LQ_BUSY, "%s: %lld other reader%s hold%s it: cannot promote", c->what,
				(long long)s.readers - 1, s.readers > 2 ? "s" : "", s.readers > 2 ? "" : "s");
	lq_value p[5] = {lq__v_text(l->name), lq__v_text(READERS), lq_v_int(l->token), lq__v_text(l->owner),
			 lq_v_int(l->slot)};
	if ((st = lq__exec(db, c->what, LQ_SQL_lease_promote, p, 5, NULL, NULL, &n)) != LQ_OK)
		return st;
	if (n != 1)
		return lost_handle(db, c->what, l);
	lq_value r[4] = {lq__v_text(l->name), lq_v_int(l->slot), lq__v_text(l->owner), lq_v_int(l->token)};
	if ((st = lq__exec(db, c->what, LQ_SQL_lease_slot_release, r, 4, NULL, NULL, NULL)) != LQ_OK ||
	    (st = lock_row(db, c->what, l->name, 0, &row)) != LQ_OK)
		return st;
	*l = row; /* the exclusive (write) lease */
	return LQ_OK;
}

static lq_status demote_body(lq_db *db, void *arg)
{
	struct shared_ctx *c = arg;
	lq_lease *l = c->l, row;
	int64_t n = 0;
	lq_status st = lock_row(db, c->what, l->name, 0, &row);
	if (st != LQ_OK)
		return st;
	if (strcmp(row.owner, l->owner) != 0 || row.token != l->token || row.expires_at <= row.now)
		return lq__fail(db, LQ_LOST, "%s (token %lld) was lost: it expired or was taken or broken", c->what,
				(long long)l->token);
	lq_value p[4] = {lq__v_text(l->name), lq__v_text(l->owner), lq_v_int(l->token), lq__v_text(READERS)};
	if ((st = lq__exec(db, c->what, LQ_SQL_lease_demote, p, 4, NULL, NULL, &n)) != LQ_OK)
		return st;
	if (n != 1)
		return LQ__RETRY; /* cannot happen under the row lock */
	lq_lease reader;
	st = add_reader(db, c->what, l->name, l->owner, l->token + 1, lq_v_int(row.expires_at), 0, &reader);
	if (st == LQ_OK)
		*l = reader;
	return st;
}

static lq_status change_kind(lq_db *db, lq_lease *l, int from, lq_tx_body body)
{
	lq__ok(db);
	lq_status st = check_handle(db, l);
	if (st != LQ_OK)
		return st;
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "lease \"%s\"", l->name);
	if (l->kind != from)
		return lq__fail(db, LQ_EINVAL, "%s: %s", what,
				from == LQ_LEASE_READ ? "only a read lease can be promoted"
						      : "only an exclusive (write) lease can be demoted");
	lq_lease tmp = *l;
	struct shared_ctx c = {.what = what, .name = tmp.name, .l = &tmp};
	st = lq__tx(db, 1, what, body, &c);
	if (st == LQ_OK) {
		*l = tmp;
		lq__notify(db, LQ_CHANNEL_LEASE);
	}
	return st;
}

LQ_EXTERN(lq_status) lq_lease_promote(lq_db *db, lq_lease *l)
{
	return change_kind(db, l, LQ_LEASE_READ, promote_body);
}

LQ_EXTERN(lq_status) lq_lease_demote(lq_db *db, lq_lease *l)
{
	return change_kind(db, l, LQ_LEASE_EXCLUSIVE, demote_body);
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

LQ_EXTERN(lq_status) lq_lease_encode_abi(const lq_lease *l, char *buf, size_t size, int abi)
{
	if (!lq__abi_ok(abi) || !l->name[0] || !l->owner[0] || l->token <= 0 || size == 0)
		return LQ_EINVAL;
	int n;
	if (l->kind == LQ_LEASE_SLOT || l->kind == LQ_LEASE_READ)
		n = snprintf(buf, size, "lq2:%c:%lld:%lld:", l->kind == LQ_LEASE_SLOT ? 's' : 'r', (long long)l->slot,
			     (long long)l->token);
	else
		n = snprintf(buf, size, "lq1:%lld:", (long long)l->token);
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

/* A malformed handle: its reason into msg, LQ_EINVAL. */
static lq_status bad_handle(char *msg, size_t msgsize, const char *why)
{
	if (msg && msgsize)
		snprintf(msg, msgsize, "not a lease handle: %s", why);
	return LQ_EINVAL;
}

LQ_EXTERN(lq_status) lq_lease_decode_abi(const char *text, lq_lease *out, char *msg, size_t msgsize, int abi)
{
	if (msg && msgsize)
		msg[0] = '\0';
	if (!lq__abi_ok(abi))
		return bad_handle(msg, msgsize, "built against a newer leaseq.h than this library");
	memset(out, 0, sizeof(*out));
	if (!text)
		return bad_handle(msg, msgsize, "none given");
	const char *p = text;
	char *end;
	if (strncmp(text, "lq2:", 4) == 0) { /* lq2:s|r:SLOT:TOKEN:... */
		p += 4;
		if ((p[0] != 's' && p[0] != 'r') || p[1] != ':')
			return bad_handle(msg, msgsize, "lq2: is not followed by s: or r:");
		out->kind = p[0] == 's' ? LQ_LEASE_SLOT : LQ_LEASE_READ;
		p += 2;
		errno = 0;
		long long slot = strtoll(p, &end, 10);
		if (errno || end == p || *end != ':' || slot < (out->kind == LQ_LEASE_READ) || slot > INT32_MAX ||
		    !(*p >= '0' && *p <= '9'))
			return bad_handle(msg, msgsize, "bad slot number");
		out->slot = slot;
		p = end + 1;
	} else if (strncmp(text, "lq1:", 4) == 0) {
		p += 4;
	} else {
		return bad_handle(msg, msgsize, "it starts with neither lq1: nor lq2: (a handle of another version?)");
	}
	errno = 0;
	long long token = strtoll(p, &end, 10);
	if (errno || end == p || *end != ':' || token <= 0)
		return bad_handle(msg, msgsize, "bad fencing token");
	p = end + 1;
	const char *colon = strchr(p, ':');
	if (!colon || strchr(colon + 1, ':'))
		return bad_handle(msg, msgsize, "it needs exactly NAME:OWNER after the token");
	if (pct_field(p, (size_t)(colon - p), out->name, sizeof(out->name)) != 0 ||
	    pct_field(colon + 1, strlen(colon + 1), out->owner, sizeof(out->owner)) != 0)
		return bad_handle(msg, msgsize, "bad percent-encoding, or an empty or too long name or owner");
	if (lq_check_name(NULL, out->name, NULL, 0) != LQ_OK)
		return bad_handle(msg, msgsize, "the lease name is not valid");
	out->token = token;
	return LQ_OK;
}
