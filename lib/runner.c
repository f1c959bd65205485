/*
 * runner.c - handlers, the worker loop and the pseudo-cron tick.
 *
 * A tick takes a short runner lease for its queue so that, of all the web
 * hits that trigger one, only one runs tasks at a time; it renews the lease
 * after every task and hands it back before its time budget ends.  Claims
 * stay exclusive on their own, so the lease is about not wasting work, not
 * about correctness.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LQ_RUNNER_LEASE_TTL_MS 3000
#define LQ_TICK_BUDGET_MS 25000
#define LQ_IDLE_MIN_MS 50
#define LQ_IDLE_MAX_MS 5000
#define LQ_WAIT_SLICE_MS 250
#define LQ_BATCH_MAX 100
/* Passes in a row a drain tries after a lost connection. */
#define LQ_DRAIN_CONN_TRIES 3

struct handler {
	char *name;
	lq_handler_fn fn;
	void *ctx;
};

struct lq_runner {
	lq_db *db;
	lq_mode mode;
	int64_t claim_ttl;
	int64_t lease_ttl;
	size_t batch;
	char **queues;
	size_t nq;
	struct handler *handlers;
	size_t nh;
	lq_lease *tick_lease; /* during a tick: the runner lease jobs keep alive */
	/* lq_runner_work, at-least-once: the last task of a batch that
	 * succeeded, acked with the next claim (lq_task_ack_claim). */
	lq_task done;
	int has_done, defer;
	volatile sig_atomic_t stop;
};

struct lq_job {
	lq_runner *r;
	lq_task *t;
	char *error;
	int timed_out;
	/* What the handler asked for, applied when it returns 0: */
	int64_t snooze_ms; /* > 0: lq_task_snooze instead of the ack */
	void *result;      /* owned; with has_result: lq_task_ack_result */
	size_t result_len;
	int has_result;
};

/* Indexed by lq_stop_reason: its values run 0, 1, 2, ... */
static const struct {
	const char *word, *text;
} stop_reasons[] = {
#define LQ__STOP_ENTRY(name, value, word, text) [value] = {word, text},
	LQ_STOP_REASON_MAP(LQ__STOP_ENTRY)
#undef LQ__STOP_ENTRY
};

LQ_EXTERN(const char *) lq_stop_reason_str(lq_stop_reason r)
{
	if ((unsigned)r >= sizeof(stop_reasons) / sizeof(stop_reasons[0]) || !stop_reasons[r].text)
		return "unknown";
	return stop_reasons[r].text;
}

LQ_EXTERN(const char *) lq_stop_reason_name(lq_stop_reason r)
{
	if ((unsigned)r >= sizeof(stop_reasons) / sizeof(stop_reasons[0]) || !stop_reasons[r].word)
		return "unknown";
	return stop_reasons[r].word;
}

LQ_EXTERN(void) lq_runner_free(lq_runner *r)
{
	if (!r)
		return;
	if (r->db && r->db->runner_stop == &r->stop)
		lq__set_runner_stop(r->db, NULL);
	if (r->has_done)
		lq_task_clear(&r->done);
	for (size_t i = 0; i < r->nq; i++)
		free(r->queues[i]);
	free(r->queues);
	for (size_t i = 0; i < r->nh; i++)
		free(r->handlers[i].name);
	free(r->handlers);
	free(r);
}

LQ_EXTERN(lq_status) lq_runner_new(lq_db *db, const lq_runner_opts *opts, lq_runner **out)
{
	static const lq_runner_opts defaults = LQ_RUNNER_OPTS_INIT;
	static const char *const default_queues[] = {LQ_DEFAULT_QUEUE, NULL};
	*out = NULL;
	lq__ok(db);
	if (!opts)
		opts = &defaults;
	if (opts->version != LQ_RUNNER_OPTS_VERSION)
		return lq__fail(db, LQ_EINVAL, "runner: unknown lq_runner_opts version %u", opts->version);
	if (opts->mode != LQ_AT_MOST_ONCE && opts->mode != LQ_AT_LEAST_ONCE && opts->mode != LQ_AT_MOST_ONCE_CANCELLABLE)
		return lq__fail(db, LQ_EINVAL, "runner: unknown mode %d", (int)opts->mode);
	if (opts->claim_ttl_ms < 0 || opts->lease_ttl_ms < 0)
		return lq__fail(db, LQ_EINVAL, "runner: TTLs must be positive");
	if (opts->claim_ttl_ms && lq__check_ttl(db, "runner claim", opts->claim_ttl_ms) != LQ_OK)
		return LQ_EINVAL;
	if (opts->lease_ttl_ms && lq__check_ttl(db, "runner lease", opts->lease_ttl_ms) != LQ_OK)
		return LQ_EINVAL;
	if (opts->batch > LQ_BATCH_MAX)
		return lq__fail(db, LQ_EINVAL, "runner: batch must be at most %d", LQ_BATCH_MAX);
	const char *const *queues = opts->queues && opts->queues[0] ? opts->queues : default_queues;
	size_t nq = 0;
	for (; queues[nq]; nq++) {
		lq_status st = lq__check_name(db, "queue name", queues[nq]);
		if (st != LQ_OK)
			return st;
	}
	lq_runner *r = calloc(1, sizeof(*r));
	if (!r || !(r->queues = calloc(nq, sizeof(char *)))) {
		free(r);
		return lq__fail(db, LQ_ENOMEM, "runner: out of memory");
	}
	r->db = db;
	/* A stop request also ends a wait on the database (after a grace). */
	lq__set_runner_stop(db, &r->stop);
	r->mode = opts->mode;
	r->claim_ttl = opts->claim_ttl_ms ? opts->claim_ttl_ms : 30000;
	r->lease_ttl = opts->lease_ttl_ms ? opts->lease_ttl_ms : LQ_RUNNER_LEASE_TTL_MS;
	r->batch = opts->batch ? opts->batch : 1;
	for (size_t i = 0; i < nq; i++) {
		if (!(r->queues[i] = strdup(queues[i]))) {
			lq_runner_free(r);
			return lq__fail(db, LQ_ENOMEM, "runner: out of memory");
		}
		r->nq++;
	}
	*out = r;
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_runner_handle(lq_runner *r, const char *name, lq_handler_fn fn, void *ctx)
{
	lq__ok(r->db);
	if (!fn)
		return lq__fail(r->db, LQ_EINVAL, "handler for \"%s\": no function", name ? name : "");
	lq_status st = lq__check_name(r->db, "handler name", name);
	if (st != LQ_OK)
		return st;
	for (size_t i = 0; i < r->nh; i++) {
		if (strcmp(r->handlers[i].name, name) == 0) {
			r->handlers[i].fn = fn;
			r->handlers[i].ctx = ctx;
			return LQ_OK;
		}
	}
	struct handler *h = realloc(r->handlers, (r->nh + 1) * sizeof(*h));
	if (!h)
		return lq__fail(r->db, LQ_ENOMEM, "runner: out of memory");
	r->handlers = h;
	if (!(h[r->nh].name = strdup(name)))
		return lq__fail(r->db, LQ_ENOMEM, "runner: out of memory");
	h[r->nh].fn = fn;
	h[r->nh].ctx = ctx;
	r->nh++;
	return LQ_OK;
}

LQ_EXTERN(void) lq_runner_stop(lq_runner *r)
{
	r->stop = 1;
	r->db->halt = 1;
}

/* Asked to stop: lq_runner_stop, or lq_cancel on the runner's handle. */
static int stopping(const lq_runner *r)
{
	return r->stop || r->db->cancel;
}

/* ------------------------------------------------------------------ jobs */

LQ_EXTERN(const lq_task *) lq_job_task(const lq_job *job)
{
	return job->t;
}

LQ_EXTERN(void) lq_job_set_error(lq_job *job, const char *error)
{
	char *copy = strdup(error ? error : "failed");
	if (copy) {
		free(job->error);
		job->error = copy;
	}
}

LQ_EXTERN(void) lq_job_set_timed_out(lq_job *job, const char *error)
{
	lq_job_set_error(job, error);
	job->timed_out = 1;
}

LQ_EXTERN(lq_status) lq_job_heartbeat(lq_job *job)
{
	lq_runner *r = job->r;
	/* In a tick a long handler must also keep the runner lease, or a second
	 * tick would start running the queue beside it. */
	if (r->tick_lease) {
		lq_status st = lq_lease_renew(r->db, r->tick_lease, r->lease_ttl);
		if (st != LQ_OK)
			return st;
	}
	return lq__task_heartbeat(r->db, job->t, r->claim_ttl);
}

LQ_EXTERN(int) lq_job_stopping(const lq_job *job)
{
	return stopping(job->r);
}

LQ_EXTERN(int64_t) lq_job_claim_ttl(const lq_job *job)
{
	const lq_runner *r = job->r;
	return r->tick_lease && r->lease_ttl < r->claim_ttl ? r->lease_ttl : r->claim_ttl;
}

LQ_EXTERN(lq_status) lq_job_progress(lq_job *job, int percent, const char *message)
{
	return lq__task_progress(job->r->db, job->t, percent, message);
}

LQ_EXTERN(lq_status) lq_job_snooze(lq_job *job, int64_t delay_ms)
{
	lq_db *db = job->r->db;
	lq__ok(db);
	if (delay_ms <= 0 || delay_ms > LQ_DELAY_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task %lld: snooze delay %lld ms is out of range (1 ms to 100 years)",
				(long long)job->t->id, (long long)delay_ms);
	job->snooze_ms = delay_ms;
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_job_set_result(lq_job *job, const void *data, size_t len)
{
	lq_db *db = job->r->db;
	lq__ok(db);
	if (len > LQ_RESULT_MAX || (!data && len))
		return lq__fail(db, LQ_EINVAL, "task %lld: result of %zu bytes is over the %d-byte limit or has no data",
				(long long)job->t->id, len, LQ_RESULT_MAX);
	void *copy = malloc(len ? len : 1);
	if (!copy)
		return lq__fail(db, LQ_ENOMEM, "task %lld: out of memory for its result", (long long)job->t->id);
	if (len)
		memcpy(copy, data, len);
	free(job->result);
	job->result = copy;
	job->result_len = len;
	job->has_result = 1;
	return LQ_OK;
}

static const struct handler *find_handler(const lq_runner *r, const char *name)
{
	const struct handler *any = NULL;
	for (size_t i = 0; i < r->nh; i++) {
		if (strcmp(r->handlers[i].name, name) == 0)
			return &r->handlers[i];
		if (strcmp(r->handlers[i].name, "*") == 0)
			any = &r->handlers[i];
	}
	return any;
}

/* Run one claimed task and settle it.  Database errors while settling are
 * returned; the handler's own failure is not an error of the runner.
 * last: no handler of this batch runs after it, so a success may wait
 * for the next claim to be acked (r->defer): no claim waits for its ack
 * while another handler runs. */
static lq_status run_task(lq_runner *r, lq_task *t, lq_run_report *rep, int last)
{
	const struct handler *h = find_handler(r, t->name);
	lq_status st;
	if (!h) {
		char msg[LQ_NAME_MAX + 32];
		snprintf(msg, sizeof(msg), "no handler for %s", t->name);
		rep->failed++;
		st = lq__task_fail(r->db, t, msg, 0);
		return st == LQ_LOST || st == LQ_REVOKED ? LQ_OK : st;
	}
	lq_job job = {r, t, NULL, 0, 0, NULL, 0, 0};
	int rc = h->fn(&job, h->ctx);
	if (rc == 0 && r->defer && last && job.snooze_ms <= 0 && !job.has_result) {
		rep->ran++;
		r->done = *t; /* the caller's copy is cleared, so this one owns it */
		memset(t, 0, sizeof(*t));
		r->has_done = 1;
		st = LQ_OK;
	} else if (rc == 0) {
		rep->ran++;
		if (job.snooze_ms > 0)
			st = lq__task_snooze(r->db, t, job.snooze_ms);
		else if (job.has_result)
			st = lq__task_ack_result(r->db, t, job.result, job.result_len);
		else
			st = lq__task_ack(r->db, t);
	} else {
		rep->failed++;
		st = lq__task_fail(r->db, t, job.error ? job.error : "handler failed", job.timed_out);
	}
	free(job.error);
	free(job.result);
	if (st == LQ_REVOKED) { /* cancelled: it neither ran nor failed */
		if (rc == 0)
			rep->ran--;
		else
			rep->failed--;
	}
	/* A lost claim means the task is someone else's now, a revoked one that
	 * it was cancelled (the cancel recorded the run): not our error. */
	return st == LQ_LOST || st == LQ_REVOKED ? LQ_OK : st;
}

/* Claim up to one batch from queue and run it.  *any: something was due. */
static lq_status run_batch(lq_runner *r, const char *queue, lq_run_report *rep, int *any, int *lost)
{
	lq_task tasks[LQ_BATCH_MAX];
	size_t got = 0;
	*any = 0;
	*lost = 0;
	lq_status st;
	if (r->has_done) {
		/* The last success acked with this claim: one round trip. */
		lq_status ack = LQ_OK;
		st = lq__task_ack_claim(r->db, &r->done, &ack, queue, r->mode, r->claim_ttl, tasks, r->batch, &got);
		lq_task_clear(&r->done);
		r->has_done = 0;
		/* A lost claim means the task is someone else's now, a revoked one
		 * that it was cancelled meanwhile: not our error. */
		if (ack == LQ_REVOKED)
			rep->ran--;
		else if (ack != LQ_OK && ack != LQ_LOST)
			return ack;
	} else {
		st = lq__task_claim(r->db, queue, r->mode, r->claim_ttl, tasks, r->batch, &got);
	}
	if (st == LQ_EMPTY)
		return LQ_OK;
	if (st == LQ_BUSY) {
		*any = 1;
		*lost = 1;
		return LQ_OK;
	}
	if (st != LQ_OK)
		return st;
	*any = 1;
	rep->claimed += (int64_t)got;
	lq_status first = LQ_OK;
	/* A stop hands back what has not started yet (lq_task_release: due
	 * again, the attempt not counted); a handler once started settles as
	 * it ends. */
	for (size_t i = 0; i < got; i++) {
		if (stopping(r)) {
			st = lq__task_release(r->db, &tasks[i]);
			if (st == LQ_LOST || st == LQ_REVOKED)
				st = LQ_OK; /* someone else's now */
		} else {
			st = run_task(r, &tasks[i], rep, i + 1 == got);
		}
		if (st != LQ_OK && first == LQ_OK)
			first = st;
		lq_task_clear(&tasks[i]);
	}
	return first;
}

/* The ack kept for the next claim, sent alone: the loop ends. */
static lq_status ack_done(lq_runner *r, lq_status st, lq_run_report *rep)
{
	r->defer = r->mode == LQ_AT_LEAST_ONCE;
	if (!r->has_done)
		return st;
	char saved[sizeof(r->db->errmsg)];
	memcpy(saved, r->db->errmsg, sizeof(saved));
	lq_status ack = lq__task_ack(r->db, &r->done);
	lq_task_clear(&r->done);
	r->has_done = 0;
	if (ack == LQ_REVOKED) /* cancelled meanwhile: it did not run */
		rep->ran--;
	if (ack == LQ_OK || ack == LQ_LOST || ack == LQ_REVOKED || st != LQ_OK) {
		memcpy(r->db->errmsg, saved, sizeof(saved));
		return st;
	}
	return ack;
}

static lq_status work(lq_runner *r, int drain, lq_run_report *rep);

LQ_EXTERN(lq_status) lq_runner_work(lq_runner *r, int drain, lq_run_report *report)
{
	lq_run_report tmp;
	lq_run_report *rep = report ? report : &tmp;
	r->defer = r->mode == LQ_AT_LEAST_ONCE;
	lq_status st = work(r, drain, rep);
	st = ack_done(r, st, rep);
	if (st != LQ_OK && rep->stopped != LQ_STOP_ERROR && rep->stopped != LQ_STOP_SIGNAL)
		rep->stopped = LQ_STOP_ERROR;
	return st;
}

static lq_status work(lq_runner *r, int drain, lq_run_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	lq__ok(r->db);
	lq_status st = lq__ready(r->db);
	if (st != LQ_OK) {
		rep->stopped = LQ_STOP_ERROR;
		return st;
	}
	int idle = 0, errors = 0;
	lq_status last = LQ_OK; /* the last pass's error, reported when a stop ends it */
	while (!stopping(r)) {
		int busy = 0;
		lq_status err = LQ_OK;
		for (size_t q = 0; q < r->nq && !stopping(r); q++) {
			int any = 0, lost = 0;
			st = run_batch(r, r->queues[q], rep, &any, &lost);
			if (st != LQ_OK)
				err = st;
			busy |= any;
		}
		if (err != LQ_OK) {
			/* A daemon rides out a database outage; a drain reports it,
			 * but first rides out a connection lost now and then (a
			 * Galera node closing it, a proxy restarting): the next
			 * pass reconnects, and an unreachable server still ends
			 * the drain after a few quick tries. */
			int lost_conn = err == LQ_ECONN || err == LQ_EUNKNOWN;
			if ((drain && (!lost_conn || errors + 1 >= LQ_DRAIN_CONN_TRIES)) || err == LQ_ESCHEMA ||
			    err == LQ_EINVAL || err == LQ_ENOMEM) {
				rep->stopped = LQ_STOP_ERROR;
				return err;
			}
			last = err;
			lq__sleep_ms(lq__backoff_ms(r->db, ++errors, 100, LQ_IDLE_MAX_MS));
			continue;
		}
		errors = 0;
		last = LQ_OK;
		if (busy) {
			idle = 0;
			continue;
		}
		if (drain) {
			rep->stopped = LQ_STOP_IDLE;
			return LQ_OK;
		}
		/* Idle: back off with jitter, never past the next known due time. */
		int64_t pause = lq__backoff_ms(r->db, ++idle, LQ_IDLE_MIN_MS * 2, LQ_IDLE_MAX_MS);
		for (size_t q = 0; q < r->nq; q++) {
			int64_t wait = -1;
			if (lq_queue_next_due(r->db, r->queues[q], &wait) == LQ_OK && wait >= 0 && wait < pause)
				pause = wait;
		}
		int64_t until = lq__mono_ms() + pause;
		/* Short slices so a stop request is seen; an enqueue (NOTIFY) ends the wait. */
		for (int64_t left = pause; left > 0 && !stopping(r); left = until - lq__mono_ms())
			if (lq__wait(r->db, LQ_CHANNEL_TASK, left < LQ_WAIT_SLICE_MS ? left : LQ_WAIT_SLICE_MS))
				break;
	}
	rep->stopped = LQ_STOP_SIGNAL;
	/* Stopped while the database failed (an interrupted COMMIT, say): the
	 * caller should hear why, in the words already in errmsg. */
	if (last != LQ_OK)
		return last;
	lq__ok(r->db);
	return LQ_OK;
}

/* The runner lease of a queue: "leaseq:runner:QUEUE" (hashed when long). */
static void runner_lease_name(const char *queue, char *buf, size_t size)
{
	static const char prefix[] = "leaseq:runner:";
	if (strlen(queue) + sizeof(prefix) - 1 <= LQ_NAME_MAX) {
		snprintf(buf, size, "%s%s", prefix, queue);
		return;
	}
	uint64_t h = 1469598103934665603ULL; /* FNV-1a keeps long names distinct */
	for (const unsigned char *p = (const unsigned char *)queue; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	snprintf(buf, size, "%s#%016llx", prefix, (unsigned long long)h);
}

LQ_EXTERN(lq_status) lq_runner_tick(lq_runner *r, int64_t budget_ms, lq_run_report *report)
{
	lq_run_report tmp;
	lq_run_report *rep = report ? report : &tmp;
	memset(rep, 0, sizeof(*rep));
	lq__ok(r->db);
	if (budget_ms <= 0)
		budget_ms = LQ_TICK_BUDGET_MS;
	int64_t start = lq__mono_ms();
	/* Stop early enough to hand the lease back inside the budget. */
	int64_t margin = budget_ms / 5 < 1000 ? budget_ms / 5 : 1000;
	const char *queue = r->queues[0];
	char name[LQ_NAME_MAX + 1];
	runner_lease_name(queue, name, sizeof(name));
	/* The cheap path every web hit pays: one read, no schema check, no write. */
	int64_t probe[LQ_COLS_tick_probe] = {0, 0};
	lq_value pp[2] = {lq__v_text(name), lq__v_text(queue)};
	lq_status st = lq__exec(r->db, "tick", LQ_SQL_tick_probe, pp, 2, lq__row_int2, probe, NULL);
	if (st != LQ_OK) {
		rep->stopped = LQ_STOP_ERROR;
		/* A database without the schema says so in the usual words. */
		lq_status rst = lq__ready(r->db);
		return rst != LQ_OK ? rst : st;
	}
	if (probe[0]) {
		rep->stopped = LQ_STOP_HELD;
		return lq__fail(r->db, LQ_BUSY, "queue \"%s\": another runner is active", queue);
	}
	if (!probe[1]) {
		rep->stopped = LQ_STOP_IDLE;
		return LQ_OK;
	}
	lq_lease lease;
	st = lq_lease_acquire(r->db, name, r->lease_ttl, "runner", 0, &lease);
	if (st == LQ_BUSY) {
		rep->stopped = LQ_STOP_HELD;
		return lq__fail(r->db, LQ_BUSY, "queue \"%s\": another runner is active", queue);
	}
	if (st != LQ_OK) {
		rep->stopped = LQ_STOP_ERROR;
		return st;
	}
	lq_status result = LQ_OK;
	r->tick_lease = &lease;
	for (;;) {
		if (stopping(r)) {
			rep->stopped = LQ_STOP_SIGNAL;
			break;
		}
		if (lq__mono_ms() - start >= budget_ms - margin) {
			rep->stopped = LQ_STOP_BUDGET;
			break;
		}
		int any = 0, lost = 0;
		st = run_batch(r, queue, rep, &any, &lost);
		if (st != LQ_OK) {
			rep->stopped = LQ_STOP_ERROR;
			result = st;
			break;
		}
		if (lost) {
			rep->stopped = LQ_STOP_CLAIM_LOST;
			break;
		}
		if (!any) {
			rep->stopped = LQ_STOP_IDLE;
			break;
		}
		st = lq_lease_renew(r->db, &lease, r->lease_ttl);
		if (st == LQ_LOST) {
			rep->stopped = LQ_STOP_LEASE_LOST;
			r->tick_lease = NULL;
			lq__ok(r->db);
			return LQ_OK;
		}
		if (st != LQ_OK) {
			rep->stopped = LQ_STOP_ERROR;
			result = st;
			break;
		}
	}
	r->tick_lease = NULL;
	/* The process may stay idle until its next tick. */
	lq_status fst = lq__run_flush(r->db);
	if (result == LQ_OK)
		result = fst;
	char saved[sizeof(r->db->errmsg)];
	memcpy(saved, r->db->errmsg, sizeof(saved));
	(void)lq_lease_release(r->db, &lease);
	memcpy(r->db->errmsg, saved, sizeof(saved));
	return result;
}
