/*
 * steer.c - recurring tasks operators can steer: the overlap and catch-up
 * policies of the claim and the ack, editing a schedule in place, one extra
 * occurrence now, resume without a burst, and the dead-man check.  Every
 * change is conditional on the row as read (its run_at), so it and a racing
 * claim never both act on one occurrence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define EDIT_TRIES 20
#define CATCH_SCAN_MAX 100000 /* cron slots walked to find the last N missed */

static void what_of(char *buf, size_t size, int64_t id)
{
	snprintf(buf, size, "task %lld", (long long)id);
}

/* The start of a public call on task id: status cleared, its name for
 * messages, the schema ready. */
static lq_status begin_call(lq_db *db, int64_t id, char *what, size_t size)
{
	lq__ok(db);
	what_of(what, size, id);
	return lq__ready(db);
}

static int recurring(const lq_task *t)
{
	return t->every_ms > 0 || t->cron[0] != '\0';
}

/* The first slot of t's schedule strictly after x (an interval keeps the
 * phase of `anchor`). */
static lq_status slot_after(const lq_task *t, int64_t anchor, int64_t x, int64_t *out)
{
	if (t->every_ms > 0) {
		int64_t k = x >= anchor ? (x - anchor) / t->every_ms + 1 : 1;
		*out = anchor + k * t->every_ms;
		return LQ_OK;
	}
	return lq_cron_next(t->cron, t->tz[0] ? t->tz : NULL, x, out, NULL, 0);
}

lq_status lq__catch_next(const lq_task *t, int catch_up, int64_t seen, int64_t upto, int64_t *next, int *stale)
{
	int64_t s1 = 0;
	lq_status st = slot_after(t, seen, seen, &s1);
	if (st != LQ_OK)
		return st;
	*stale = s1 <= upto;
	if (!*stale) {
		*next = s1;
		return LQ_OK;
	}
	if (catch_up <= 1)
		return slot_after(t, seen, upto, next);
	int keep = catch_up - 1; /* slots still to run after this one */
	if (t->every_ms > 0) {
		int64_t m = (upto - seen) / t->every_ms; /* slots passed after seen */
		int64_t j = m - keep + 1;
		*next = seen + (j > 1 ? j : 1) * t->every_ms;
		return LQ_OK;
	}
	int64_t ring[LQ_CATCH_UP_MAX];
	int64_t x = s1;
	long n = 0;
	while (x <= upto) {
		if (n >= CATCH_SCAN_MAX)
			return slot_after(t, seen, upto, next); /* too far behind: once */
		ring[n % keep] = x;
		n++;
		if ((st = slot_after(t, seen, x, &x)) != LQ_OK)
			return st;
	}
	*next = n <= keep ? s1 : ring[n % keep];
	return LQ_OK;
}

struct steer_row {
	const lq_task *t;
	struct lq__steer *s;
};

void lq__steer_from_cols(const lq_task *t, const lq_value *c, struct lq__steer *s)
{
	s->overlap = (int)lq__col_int(&c[0]);
	s->catch_up = c[1].type == LQ_V_NULL ? -1 : (int)lq__col_int(&c[1]);
	s->next_at = lq__col_int(&c[2]);
	if (s->catch_up < 0)
		s->catch_up = t->missed == LQ_MISSED_SKIP ? 0 : 1;
}

static int steer_row(void *arg, const lq_value *c, int n)
{
	struct steer_row *r = arg;
	if (n < LQ_STEER_COLS)
		return 1;
	lq__steer_from_cols(r->t, c, r->s);
	return 0;
}

lq_status lq__steer_read(lq_db *db, const lq_task *t, struct lq__steer *s)
{
	char what[64];
	what_of(what, sizeof(what), t->id);
	memset(s, 0, sizeof(*s));
	s->catch_up = t->missed == LQ_MISSED_SKIP ? 0 : 1; /* the row gone: as if none set */
	struct steer_row r = {t, s};
	lq_value p[1] = {lq_v_int(t->id)};
	return lq__exec(db, what, LQ_SQL_task_steer_get, p, 1, steer_row, &r, NULL);
}

lq_status lq__ack_next(lq_db *db, const lq_task *t, int64_t now, int64_t *next)
{
	struct lq__steer s;
	lq_status st = lq__steer_read(db, t, &s);
	if (st != LQ_OK)
		return st;
	if (s.next_at) {
		*next = s.next_at; /* a run-now's or an edit's: the statement takes it too */
		return LQ_OK;
	}
	int stale = 0;
	int64_t n1 = 0;
	/* The slots missed before the claim, within the catch-up bound. */
	if ((st = lq__catch_next(t, s.catch_up < 1 ? 1 : s.catch_up, t->run_at, t->now, &n1, &stale)) != LQ_OK)
		return st;
	if (n1 <= t->now || n1 > now || s.overlap == LQ_OVERLAP_QUEUE) {
		*next = n1; /* a kept catch-up slot, nothing came due, or queued */
		return LQ_OK;
	}
	return slot_after(t, t->run_at, now, next); /* came due while it ran: dropped */
}

struct preempt_ctx {
	const lq_task *t;
	int64_t claim_ttl_ms;
	const char *what, *reason;
	int revoked;
};

/* One transaction: the claim revoked, remembered as a cancel's (its ack
 * and fail then answer LQ_REVOKED), and the occurrence's run recorded
 * "cancelled" -- all of it or none. */
static lq_status preempt_body(lq_db *db, void *arg)
{
	struct preempt_ctx *pc = arg;
	const lq_task *t = pc->t;
	lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq__v_text(pc->reason)};
	int64_t n = 0;
	pc->revoked = 0;
	lq_status st = lq__exec(db, pc->what, LQ_SQL_task_preempt, p, 3, NULL, NULL, &n);
	if (st != LQ_OK || n != 1)
		return st;
	p[2] = lq_v_int(pc->claim_ttl_ms);
	p[3] = lq__v_text(pc->reason);
	if ((st = lq__exec(db, pc->what, LQ_SQL_task_preempt_mark, p, 4, NULL, NULL, NULL)) != LQ_OK)
		return st;
	if ((st = lq__run_record(db, pc->what, t, LQ_RUN_CANCELLED, pc->reason)) != LQ_OK)
		return st;
	pc->revoked = 1;
	return LQ_OK;
}

lq_status lq__steer_preempt(lq_db *db, const lq_task *t, int64_t claim_ttl_ms, int *revoked)
{
	char what[64], err[160];
	what_of(what, sizeof(what), t->id);
	*revoked = 0;
	snprintf(err, sizeof(err), "occurrence %lld cancelled: the next one is due (overlap cancel-previous)",
		 (long long)t->run_at);
	struct preempt_ctx pc = {t, claim_ttl_ms, what, err, 0};
	lq_status st = lq__tx(db, 1, what, preempt_body, &pc);
	*revoked = st == LQ_OK && pc.revoked;
	return st;
}

/* ------------------------------------------------------------ add */

int lq__steer_wanted(const lq_task_opts *opts)
{
	return opts && opts->version >= 2 && (opts->overlap || opts->catch_up || opts->alert_after_ms);
}

lq_status lq__steer_check(lq_db *db, const char *name, const lq_task_opts *opts)
{
	if (!lq__steer_wanted(opts))
		return LQ_OK;
	if (opts->every_ms <= 0 && !opts->cron)
		return lq__fail(db, LQ_EINVAL,
				"task \"%s\": overlap, catch-up and alert-after need a recurring task (every or cron)",
				name);
	if ((int)opts->overlap < LQ_OVERLAP_DEFAULT || opts->overlap > LQ_OVERLAP_CANCEL_PREVIOUS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": overlap policy must be skip, queue or cancel-previous",
				name);
	if (opts->catch_up < 0 || opts->catch_up > LQ_CATCH_UP_MAX)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": catch-up must be 0 to %d (got %d)", name,
				LQ_CATCH_UP_MAX, opts->catch_up);
	if (opts->catch_up > 0 && opts->missed == LQ_MISSED_SKIP)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": give a catch-up bound or missed skip, not both", name);
	if (opts->alert_after_ms < 0 || opts->alert_after_ms > LQ_EVERY_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": alert-after must be between 0 and ten years", name);
	return LQ_OK;
}

lq_status lq__steer_store(lq_db *db, int64_t id, const lq_task_opts *opts)
{
	char what[64];
	what_of(what, sizeof(what), id);
	lq_value p[4] = {lq_v_int(id), lq_v_int(opts->overlap),
			 opts->catch_up > 0 ? lq_v_int(opts->catch_up) : lq_v_null(),
			 opts->alert_after_ms > 0 ? lq_v_int(opts->alert_after_ms) : lq_v_null()};
	return lq__exec(db, what, LQ_SQL_task_steer_set, p, 4, NULL, NULL, NULL);
}

/* ------------------------------------------------------------ resume */

lq_status lq__steer_resume(lq_db *db, int64_t id, int *done)
{
	char what[64];
	what_of(what, sizeof(what), id);
	*done = 0;
	lq_task t;
	lq_status st = lq__task_get(db, id, &t);
	if (st != LQ_OK)
		return st == LQ_NOTFOUND ? LQ_OK : st; /* the caller says not found */
	if (t.dead || !t.paused || !recurring(&t) || (t.claim_owner[0] && t.claim_until > t.now)) {
		lq_task_clear(&t);
		return LQ_OK;
	}
	struct lq__steer s;
	int64_t at = 0;
	int stale = 0;
	st = lq__steer_read(db, &t, &s);
	/* The latest slot passed (catch-up 2 keeps exactly one), so the claim
	 * sees one on-time occurrence; skip moves past them all. */
	if (st == LQ_OK)
		st = lq__catch_next(&t, s.catch_up == 0 ? 1 : 2, t.run_at, t.now, &at, &stale);
	if (st == LQ_OK && stale && s.next_at == 0) {
		int64_t n = 0;
		lq_value p[3] = {lq_v_int(id), lq_v_int(t.run_at), lq_v_int(at)};
		st = lq__exec(db, what, LQ_SQL_task_resume_at, p, 3, NULL, NULL, &n);
		*done = st == LQ_OK && n == 1;
	} else if (st != LQ_OK && st != LQ_ECONN && st != LQ_EUNKNOWN) {
		st = LQ_OK; /* a schedule that no longer parses: the claim buries it */
	}
	lq_task_clear(&t);
	return st;
}

/* ------------------------------------------------------------ edit */

LQ_EXTERN(lq_status) lq_task_edit_schedule(lq_db *db, int64_t id, int64_t every_ms, const char *cron,
					   const char *tz, int64_t *next_run_at)
{
	lq__ok(db);
	char what[64], msg[256];
	what_of(what, sizeof(what), id);
	if (next_run_at)
		*next_run_at = 0;
	if (cron && !*cron)
		cron = NULL;
	if (tz && !*tz)
		tz = NULL;
	if ((every_ms > 0) == (cron != NULL))
		return lq__fail(db, LQ_EINVAL, "%s: give an interval or a cron expression (one of them)", what);
	if (every_ms < 0 || (every_ms > 0 && (every_ms < LQ_EVERY_MIN_MS || every_ms > LQ_EVERY_MAX_MS)))
		return lq__fail(db, LQ_EINVAL, "%s: interval must be from %d ms to ten years", what, LQ_EVERY_MIN_MS);
	if (tz && !cron)
		return lq__fail(db, LQ_EINVAL, "%s: a time zone needs a cron expression", what);
	if (cron && lq_check_schedule(cron, tz, msg, sizeof(msg)) != LQ_OK)
		return lq__fail(db, LQ_EINVAL, "%s: %s", what, msg);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	for (int i = 0; i < EDIT_TRIES; i++) {
		lq_task t;
		if ((st = lq__task_get(db, id, &t)) != LQ_OK)
			return st == LQ_NOTFOUND ? lq__fail(db, st, "%s: not found", what) : st;
		int dead = t.dead, rec = recurring(&t);
		int64_t seen = t.run_at, now = t.now, next = 0;
		lq_task_clear(&t);
		if (dead)
			return lq__fail(db, LQ_NOTFOUND, "%s: not found (dead: retry it first)", what);
		if (!rec)
			return lq__fail(db, LQ_EINVAL, "%s: not a recurring task (no schedule to edit)", what);
		if (cron) {
			if ((st = lq_cron_next(cron, tz, now, &next, msg, sizeof(msg))) != LQ_OK)
				return lq__fail(db, LQ_EINVAL, "%s: no next occurrence of \"%s\" (%s)", what, cron, msg);
		} else {
			next = now + every_ms;
		}
		int64_t n = 0;
		lq_value p[6] = {lq_v_int(id), lq_v_int(seen), every_ms > 0 ? lq_v_int(every_ms) : lq_v_null(),
				 lq__v_opt_text(cron), lq__v_opt_text(tz), lq_v_int(next)};
		st = lq__exec(db, what, LQ_SQL_task_edit_schedule, p, 6, NULL, NULL, &n);
		if (st != LQ_OK)
			return st;
		if (n == 1) {
			if (next_run_at)
				*next_run_at = next;
			lq__notify(db, LQ_CHANNEL_TASK);
			lq__ok(db);
			return LQ_OK;
		}
		/* A claim moved the occurrence meanwhile: read it again. */
	}
	return lq__fail(db, LQ_BUSY, "%s: the schedule kept moving under claims; not edited", what);
}

/* ------------------------------------------------------------ run now */

LQ_EXTERN(lq_status) lq_task_run_now(lq_db *db, int64_t id)
{
	char what[64];
	lq_status st = begin_call(db, id, what, sizeof(what));
	if (st != LQ_OK)
		return st;
	lq_task t;
	if ((st = lq__task_get(db, id, &t)) != LQ_OK)
		return st == LQ_NOTFOUND ? lq__fail(db, st, "%s: not found", what) : st;
	int rec = recurring(&t) && !t.dead, paused = t.paused;
	lq_task_clear(&t);
	if (!rec)
		return lq_task_retry(db, id);
	int64_t n = 0;
	lq_value p[1] = {lq_v_int(id)};
	if ((st = lq__exec(db, what, LQ_SQL_task_run_extra, p, 1, NULL, NULL, &n)) != LQ_OK)
		return st;
	if (n == 1) {
		lq__notify(db, LQ_CHANNEL_TASK);
		lq__ok(db);
		return LQ_OK;
	}
	lq_schedule s;
	if ((st = lq_schedule_get(db, id, &s)) != LQ_OK)
		return st;
	if (paused || s.paused)
		return lq__fail(db, LQ_BUSY, "%s: paused (resume it first)", what);
	if (s.next_at)
		return lq__fail(db, LQ_BUSY, "%s: a run-now is pending already", what);
	return lq__fail(db, LQ_BUSY, "%s: an occurrence is due or running already", what);
}

/* ------------------------------------------------------------ read */

struct sched_ctx {
	lq_schedule_fn fn;
	void *ctx;
	lq_schedule one;
	int found;
};

static void schedule_from_row(lq_schedule *s, const lq_value *c)
{
	memset(s, 0, sizeof(*s));
	s->id = lq__col_int(&c[0]);
	lq__col_str(&c[1], s->queue, sizeof(s->queue));
	lq__col_str(&c[2], s->name, sizeof(s->name));
	s->every_ms = lq__col_int(&c[3]);
	lq__col_str(&c[4], s->cron, sizeof(s->cron));
	lq__col_str(&c[5], s->tz, sizeof(s->tz));
	s->paused = lq__col_int(&c[6]) != 0;
	s->overlap = (lq_overlap)lq__col_int(&c[7]);
	s->catch_up = c[8].type == LQ_V_NULL ? (lq__col_int(&c[9]) ? 0 : 1) : (int)lq__col_int(&c[8]);
	s->alert_after_ms = lq__col_int(&c[10]);
	s->last_success_at = lq__col_int(&c[11]);
	s->created_at = lq__col_int(&c[12]);
	s->run_at = lq__col_int(&c[13]);
	s->next_at = lq__col_int(&c[14]);
	s->now = lq__col_int(&c[15]);
	s->since_success_ms = s->now - (s->last_success_at ? s->last_success_at : s->created_at);
	s->overdue = s->alert_after_ms > 0 && !s->paused && s->since_success_ms > s->alert_after_ms;
}

static int sched_row(void *arg, const lq_value *c, int n)
{
	struct sched_ctx *sc = arg;
	if (n < LQ_COLS_schedule_list)
		return 1;
	schedule_from_row(&sc->one, c);
	sc->found = 1;
	return sc->fn ? sc->fn(&sc->one, sc->ctx) : 0;
}

LQ_EXTERN(lq_status) lq_schedule_get(lq_db *db, int64_t id, lq_schedule *out)
{
	char what[64];
	lq_status st = begin_call(db, id, what, sizeof(what));
	if (st != LQ_OK)
		return st;
	struct sched_ctx sc;
	memset(&sc, 0, sizeof(sc));
	lq_value p[1] = {lq_v_int(id)};
	if ((st = lq__exec(db, what, LQ_SQL_schedule_list, p, 1, sched_row, &sc, NULL)) != LQ_OK)
		return st;
	if (!sc.found)
		return lq__fail(db, LQ_NOTFOUND, "%s: no live recurring task with that id", what);
	*out = sc.one;
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_schedule_list(lq_db *db, unsigned flags, lq_schedule_fn fn, void *ctx)
{
	lq__ok(db);
	if (flags & ~LQ_SCHEDULE_ALERTED)
		return lq__fail(db, LQ_EINVAL, "schedule list: unknown flags 0x%x", flags);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct sched_ctx sc;
	memset(&sc, 0, sizeof(sc));
	sc.fn = fn;
	sc.ctx = ctx;
	if (flags & LQ_SCHEDULE_ALERTED)
		return lq__exec(db, "schedule list", LQ_SQL_schedule_alerts, NULL, 0, sched_row, &sc, NULL);
	lq_value p[1] = {lq_v_null()};
	return lq__exec(db, "schedule list", LQ_SQL_schedule_list, p, 1, sched_row, &sc, NULL);
}
