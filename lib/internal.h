/*
 * internal.h - what the concept files share.  Not installed.
 */
#ifndef LEASEQ_INTERNAL_H
#define LEASEQ_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "backend/backend.h"
#include "leaseq.h"

#define LQ_CLAIM_MAX 1000 /* tasks per lq_task_claim call */
#define LQ_CLAIM_SET_MAX 100 /* ids per task_claim_*_set statement */
#define LQ_PART_SERVE_MAX 16 /* partitions per partition_serve statement */
#define LQ_ADD_MANY_CHUNK 100 /* tasks per task_insert_many statement */

/* A yes or no about one queue (or lease) that a handle read from the
 * database and trusts for a while (lq__memo_fresh): the last one asked only. */
struct lq_queue_memo {
	char queue[LQ_NAME_MAX + 1];
	int yes;
	int64_t read_at; /* monotonic ms; 0: never, or to be read again */
};

/* memo holds an answer for queue no older than max_age_ms. */
int lq__memo_fresh(const struct lq_queue_memo *memo, const char *queue, int64_t max_age_ms);
/* memo holds yes for queue, no older than max_age_ms. */
int lq__memo_yes(const struct lq_queue_memo *memo, const char *queue, int64_t max_age_ms);
void lq__memo_set(struct lq_queue_memo *memo, const char *queue, int yes);

struct lq_db {
	const struct lq_backend *be;
	struct lq_conn *conn; /* NULL while disconnected: the next call reconnects */
	char *dsn;            /* as given (may hold a password: never print it) */
	char dsn_redacted[512];
	int schema_ok;        /* schema checked on this connection */
	int in_tx;
	int conflicted;       /* the last lq__tx gave up after conflicting attempts */
	uint64_t rng;         /* per-handle jitter and nonce source */
	char errmsg[1024];
	lq_err err;           /* scratch for backends */
	/* What the backend's waits look at: set by lq_cancel and by a stop
	 * request of the runner on this handle (runner_stop), so a statement
	 * still waiting for the server is cancelled after a grace. */
	volatile sig_atomic_t halt;
	volatile sig_atomic_t cancel;              /* lq_cancel, until lq_cancel_clear */
	const volatile sig_atomic_t *runner_stop;  /* the runner's stop flag, or NULL */
	int abi;              /* LQ_ABI_VERSION the caller was built with */
	int64_t statements;   /* sent to the server: lq_db_statements() */
	int borrowed;         /* conn is the application's (lq_open_borrowed) */
	unsigned open_flags;  /* lq_open_ex's LQ_OPEN_*, for every (re)connect */
	int joined;           /* lq__tx is running inside the application's transaction */
	int adding;           /* lq_task_add(_many) is writing the rows it inserted */
	lq_notice_fn notice_fn; /* lq_set_notice_fn, or NULL */
	void *notice_ctx;
	uint64_t noticed[8];  /* hashes of the remarks already passed on */
	size_t n_noticed;
	struct lq_run_batch *runs; /* at-most-once runs whose history rows wait (run.c), or NULL */
	/* Called by lq_close before the connection goes (NULL: nothing to do):
	 * set by a concept file that keeps work back on the handle, such as
	 * run.c's history rows, so that db.c need not know it. */
	void (*before_close)(lq_db *db);
	/* Fair share (partition.c): whether the queue has partitions. */
	struct lq_queue_memo part;
	/* Fair share (task.c): the partition of queue this handle's fair
	 * claims served last; its next claims there go on from it. */
	struct {
		char queue[LQ_NAME_MAX + 1];
		char part[LQ_NAME_MAX + 1];
		int set;
	} turn;
	/* Claims where the dialect has task_priority_step (task.c): whether
	 * the queue's highest priority had no task due, so that the claim's
	 * walk would read through it. */
	struct lq_queue_memo top_waits;
	/* Where the dialect has task_candidates_top or
	 * task_claim_one_delete_top (task.c): yes, the queue's top priority
	 * had a due task a moment ago, top_priority, so that a one-task claim
	 * may read that priority alone; no, such a read found nothing lately. */
	struct lq_queue_memo top_due;
	int64_t top_priority;
	/* One-task at-most-once claims where the dialect has
	 * task_claim_one_delete_occ (task.c): whether the handle's last claim
	 * of the queue took an interval occurrence, so that its next one
	 * sends the statement that can move one on. */
	struct lq_queue_memo occ_heads;
	/* Enqueues where the dialect has LQ_CAP_NOTIFY (task.c): yes, the
	 * handle's last look at the queue found due work free to claim, so
	 * its adds there send task_insert, no look and no wake-up, for
	 * LQ_WAKE_BUSY_MS. */
	struct lq_queue_memo wake_busy;
	/* Exclusive acquires where the dialect has lease_acquire_free
	 * (lease.c): yes, the handle found this lease held lately, so its
	 * next tries send lease_acquire, which returns the holder's row too. */
	struct lq_queue_memo lease_held;
	/* One-task claims where the dialect claims in one statement (task.c):
	 * yes, the handle's last transactional claim of the queue read a task
	 * under a limit first, which that statement hands back; HEAD_KEYED,
	 * one limit on its key, which task_claim_one_*_keyed can claim. */
	struct lq_queue_memo limited_heads;
	/* Yes: the handle's last task_claim_one_*_keyed of the queue had to
	 * leave its head to the transaction (a cap taken meanwhile). */
	struct lq_queue_memo keyed_left;
	/* Claims where the dialect has task_candidates_top (task.c): when a
	 * claim last found that lq_limit has rows (monotonic ms; 0: never). */
	int64_t limits_seen_at;
};

/* The runner's stop flag joins lq_cancel in db->halt (NULL: no runner). */
void lq__set_runner_stop(lq_db *db, const volatile sig_atomic_t *flag);
/* 1 for a layout (LQ_ABI_VERSION) this library can serve. */
int lq__abi_ok(int abi);

/* Set db->errmsg (printf style) and return st. */
lq_status lq__fail(lq_db *db, lq_status st, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* Clear the error text at the start of an API call. */
void lq__ok(lq_db *db);

/* Connect if needed.  Does not check the schema. */
lq_status lq__connect(lq_db *db);
/* Connect if needed and make sure the schema is there and not too new. */
lq_status lq__ready(lq_db *db);
/* A listing's queue filter (NULL: every queue) checked, then lq__ready. */
lq_status lq__ready_queue(lq_db *db, const char *queue);

/* Applied schema version (0: none) and the newest this library knows. */
lq_status lq__schema_version(lq_db *db, int *version);
int lq__latest_version(const lq_db *db);

/* Run a named statement.  On failure db->errmsg says "what: <db text>"; a
 * lost connection is dropped so the next call reconnects. */
lq_status lq__exec(lq_db *db, const char *what, lq_sql_id id, const lq_value *params, int n,
		   lq_row_fn fn, void *ctx, int64_t *affected);
/* lq__exec for a lone statement that commits by itself and whose effect the
 * caller must not guess: a connection lost after the statement was sent
 * (lq_err.sent) is LQ_EUNKNOWN, not LQ_ECONN. */
lq_status lq__exec_once(lq_db *db, const char *what, lq_sql_id id, const lq_value *params, int n,
			lq_row_fn fn, void *ctx, int64_t *affected);
/* Run a parameterless script (migrations, test resets). */
lq_status lq__exec_script(lq_db *db, const char *what, const char *sql);

/* Run body(db, ctx) inside a transaction, retrying deadlocks, serialization
 * failures and SQLITE_BUSY a bounded number of times.  body returns LQ_OK to
 * commit; anything else rolls back and is returned (LQ__RETRY retries).
 * what names the object for messages. */
typedef lq_status (*lq_tx_body)(lq_db *db, void *ctx);
lq_status lq__tx(lq_db *db, int write, const char *what, lq_tx_body body, void *ctx);

/* Random numbers and owners. */
uint64_t lq__rand(lq_db *db);
/* Fill buf with "<base>/<16 hex>" or "<host>:<pid>/<16 hex>" when base is NULL. */
void lq__make_owner(lq_db *db, const char *base, char *buf, size_t size);
/* Sleep ms milliseconds (monotonic). */
void lq__sleep_ms(int64_t ms);
/* Sleep up to ms, in short slices, until lq_cancel: 1 when cancelled. */
int lq__pause(lq_db *db, int64_t ms);

/* Copy a column into a fixed buffer ("" for NULL), truncating. */
void lq__col_str(const lq_value *v, char *buf, size_t size);
/* Duplicate a column (NULL for NULL).  Returns LQ_ENOMEM on failure. */
lq_status lq__col_dup(const lq_value *v, char **out, size_t *len);
int64_t lq__col_int(const lq_value *v);
/* Row callback: the first column of the row, as an integer, into *(int64_t *)ctx. */
int lq__row_int(void *ctx, const lq_value *cols, int ncols);
/* Row callback: the first two columns, as integers, into ((int64_t *)ctx)[0]
 * and [1]; a column the row lacks leaves its place as it was. */
int lq__row_int2(void *ctx, const lq_value *cols, int ncols);
/* Parameter for an optional string: NULL or "" -> NULL. */
lq_value lq__v_opt_text(const char *s);

/* Fill a task from TASK_COLS (LQ_TASK_COLS columns); payload copied when
 * present. */
lq_status lq__task_from_row(lq_task *t, const lq_value *cols, int ncols);

/* Run history (run.c).  lq__run_worker: "host:pid".  lq__run_record: one
 * lq_run row for claimed task t (attempt, started_at = t->now, run_at). */
void lq__run_worker(char *buf, size_t size);
int lq__run_attempt(const lq_task *t);
lq_status lq__run_record(lq_db *db, const char *what, const lq_task *t, lq_outcome o, const char *error);
/* *found = whether the history holds the row lq__run_record writes for t
 * (by this process, this attempt, this claim's start): an at-least-once
 * settle writes it in its own transaction, so it says the settle committed. */
lq_status lq__run_settled(lq_db *db, const char *what, const lq_task *t, int *found);
/* Write the history rows lq__run_record keeps back (at-most-once runs done;
 * a write of unknown outcome is LQ_OK: not repeated, nothing left to do).
 * lq_close writes and frees them through db->before_close. */
lq_status lq__run_flush(lq_db *db);
/* A run's result (lq_task_ack_result) and where it goes: into the history
 * row lq__run_record just wrote for t, in the same transaction. */
struct lq__result {
	const void *data;
	size_t len;
};
lq_status lq__run_set_result(lq_db *db, const char *what, const lq_task *t, const struct lq__result *res);
/* 1 when s[0..len) is valid UTF-8 (util.c). */
int lq__utf8_valid(const char *s, size_t len);
/* After an at-least-once claim was found gone: 1 when lq_task_cancel revoked
 * it (db->errmsg then says so, for LQ_REVOKED), else 0 (errmsg untouched). */
int lq__claim_revoked(lq_db *db, const lq_task *t);
/* The same look, saying when it could not look (*revoked: 1 when the
 * claim was revoked; then lq_errmsg says why). */
lq_status lq__claim_revoked_look(lq_db *db, const lq_task *t, int *revoked);
/* lq_task_fail, recording the run as timed_out (when timed_out) or failed. */
lq_status lq__task_fail(lq_db *db, const lq_task *t, const char *error, int timed_out);

/* The task calls on the library's own layout of lq_task (task.c,
 * progress.c); the exported lq_task_* in abi.c adapt a caller's older
 * layout to them.  The library's own code calls these. */
lq_status lq__task_claim(lq_db *db, const char *queue, lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks,
			 size_t n, size_t *claimed);
lq_status lq__task_ack_claim(lq_db *db, const lq_task *done, lq_status *done_st, const char *queue,
			     lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks, size_t n, size_t *claimed);
lq_status lq__task_ack(lq_db *db, const lq_task *t);
lq_status lq__task_ack_many(lq_db *db, const lq_task *tasks, size_t n, lq_status *statuses);
lq_status lq__task_release(lq_db *db, const lq_task *t);
lq_status lq__task_heartbeat(lq_db *db, lq_task *t, int64_t claim_ttl_ms);
lq_status lq__task_get(lq_db *db, int64_t id, lq_task *out);
lq_status lq__task_snooze(lq_db *db, const lq_task *t, int64_t delay_ms);
lq_status lq__task_ack_result(lq_db *db, const lq_task *t, const void *data, size_t len);
lq_status lq__task_progress(lq_db *db, const lq_task *t, int percent, const char *message);
/* sizeof(lq_task) in a caller's layout abi (abi.c). */
size_t lq__task_size(int abi);

/* Steering of recurring tasks (steer.c).  lq__steer: the columns the claim
 * and the ack read beside the task row; catch_up is effective (0 skip, 1
 * once, N). */
struct lq__steer {
	int overlap;
	int catch_up;
	int64_t next_at;
};
lq_status lq__steer_read(lq_db *db, const lq_task *t, struct lq__steer *s);
/* The same from the three columns c (overlap, catch_up, next_at) that a
 * candidate read returns beside t's row. */
void lq__steer_from_cols(const lq_task *t, const lq_value *c, struct lq__steer *s);
/* The occurrence to move on to from due time seen, with the slots up to
 * upto passed: the first slot after seen if none passed, else (*stale) the
 * first after upto, or with catch_up N >= 2 the oldest of the last N - 1
 * passed slots (the one to run and N - 1 more).  LQ_OK, or the cron's
 * status when it no longer parses. */
lq_status lq__catch_next(const lq_task *t, int catch_up, int64_t seen, int64_t upto, int64_t *next, int *stale);
/* An at-least-once occurrence claimed at t->now is settled at now: where
 * run_at goes (catch-up bound for the slots missed before the claim, the
 * overlap policy for those that came due while it ran). */
lq_status lq__ack_next(lq_db *db, const lq_task *t, int64_t now, int64_t *next);
/* Set or clear the steering of a task just added (opts version 2). */
int lq__steer_wanted(const lq_task_opts *opts);
lq_status lq__steer_store(lq_db *db, int64_t id, const lq_task_opts *opts);
lq_status lq__steer_check(lq_db *db, const char *name, const lq_task_opts *opts);
/* Resume of a recurring task whose due time passed while paused: at most one
 * late occurrence.  *done: it resumed it (else the caller unpauses). */
lq_status lq__steer_resume(lq_db *db, int64_t id, int *done);
/* cancel-previous: revoke the claim of t if its successor is due.
 * *revoked: it did (t's ack will be refused). */
lq_status lq__steer_preempt(lq_db *db, const lq_task *t, int64_t claim_ttl_ms, int *revoked);
/* Flow control (limit.c): the limits a claim of one task took. */
struct lq__limit_gate {
	char name[2][LQ_NAME_MAX + 8]; /* its key's limit, its queue's ("queue:Q") */
	int n;
	int capped; /* a concurrency cap applies: claim with a claim lease */
	int queue_shut; /* refused by the queue's limit: so is the rest of the queue */
};
lq_status lq__limit_take(lq_db *db, const char *what, const char *key, const char *queue,
			 struct lq__limit_gate *g, int *open);
lq_status lq__limit_untake(lq_db *db, const char *what, const struct lq__limit_gate *g);
/* The concurrency key of lq_task_opts (version 2), or NULL. */
const char *lq__opts_concurrency_key(const lq_task_opts *opts);
/* Fair share across partitions (partition.c).  lq__part_on: whether the
 * claims of queue go the fair way (read at most once a second per handle;
 * a handle that adds a partitioned task knows at once).
 * lq__part_touch_many: in a batch add's transaction, the partitions' rows
 * (and the row of the tasks without one) that the n tasks of a chunk need
 * (n up to LQ_ADD_MANY_CHUNK; parts[i] NULL: none), one write for up to 16
 * partitions of a queue.  The insert gave the tasks their partitions. */
lq_status lq__part_touch_many(lq_db *db, size_t n, const char *const *queues, const char *const *parts);
/* The partition rows a task of part in queue needs (a task put back or
 * revived: its row already says its partition).  Once they are committed,
 * lq__part_known tells this handle's memo. */
lq_status lq__part_touch(lq_db *db, const char *what, const char *queue, const char *part);
lq_status lq__part_on(lq_db *db, const char *queue, int *on);
void lq__part_known(lq_db *db, const char *queue, int on);

/* Validation with messages into db->errmsg; all return LQ_EINVAL on failure. */
lq_status lq__check_name(lq_db *db, const char *what, const char *name);
lq_status lq__check_ttl(lq_db *db, const char *what, int64_t ttl_ms);

/* Epoch ms as "2026-11-22T10:00:00Z" (UTC, whole seconds), for messages. */
void lq__fmt_time(char *buf, size_t size, int64_t ms);

/* Backoff with full jitter: base * 2^(attempt-1), capped, randomised. */
int64_t lq__backoff_ms(lq_db *db, int attempt, int64_t base_ms, int64_t cap_ms);

/* Notification channels (PostgreSQL LISTEN/NOTIFY). */
#define LQ_CHANNEL_TASK "leaseq_task"
#define LQ_CHANNEL_LEASE "leaseq_lease"
/* How long an enqueue that found due work free to claim in its queue lets
 * the handle's next adds there skip the look for it and the wake-up: the
 * queue's workers are on that work.  Under the runner's first idle pause
 * (LQ_IDLE_MIN_MS * 2), so that a worker that drains the queue meanwhile
 * and misses a wake-up still looks again about as soon as it would have
 * after a race with the look itself. */
#define LQ_WAKE_BUSY_MS 50
/* Best effort: send a notification when the backend can. */
void lq__notify(lq_db *db, const char *channel);
/* Wait up to ms for a notification (backend with LQ_CAP_NOTIFY) or sleep.
 * Returns 1 when woken by a notification. */
int lq__wait(lq_db *db, const char *channel, int64_t ms);

/* Borrowed connections (db.c): 1 when db is borrowed and the
 * application's transaction is open on it (not one of ours). */
int lq__app_tx(lq_db *db);
/* LQ_OK when statement id may run now; LQ_ETXOPEN (message set) when the
 * application's transaction is open and id is not a read or an enqueue. */
lq_status lq__borrow_check(lq_db *db, const char *what, lq_sql_id id);

/* Drop every leaseq table: for tests only. */
lq_status lq__drop_schema(lq_db *db);

#endif
