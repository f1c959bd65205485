/*
 * workload.c - the workloads of leasectl bench and their leaseq side, on the
 * public API (leaseq.h) only, as an application would call it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "leaseq.h"

const struct bench_workload_info bench_workloads[BW__COUNT] = {
	[BW_CLAIM] = {"claim", "lq_task_claim, at-most-once, 1 task",
		      "DELETE ... WHERE id = (SELECT ... SKIP LOCKED) RETURNING", 1},
	[BW_CLAIM_BATCH] = {"claim-batch", "lq_task_claim, at-most-once, 100 tasks",
			    "the same DELETE for 100 rows", 1},
	[BW_CLAIM_ACK] = {"claim-ack", "lq_task_ack_claim: ack the task claimed last, claim the next, at-least-once",
			  "UPDATE ... RETURNING claim, then DELETE", 1},
	[BW_CLAIM_RUN] = {"claim-run", "lq_task_claim, at-most-once, 1 task + lq_task_ack (its history row)",
			  "the claim's DELETE (no history: against claim's ratio, the history's cost)", 1},
	[BW_ENQUEUE] = {"enqueue", "lq_task_add", "one INSERT", 0},
	[BW_ENQUEUE_BATCH] = {"enqueue-batch", "lq_task_add_many, 100 tasks",
			      "one INSERT of 100 VALUES tuples", 0},
	[BW_LEASE] = {"lease", "lq_lease_acquire + lq_lease_release, a lease per client",
		      "upsert that takes an expired lease, then conditional UPDATE", 0},
	[BW_LEASE_HOT] = {"lease-hot", "the same, all clients on one lease", "the same on one name", 0},
	[BW_TICK_IDLE] = {"tick-idle", "lq_runner_tick, nothing due", "one SELECT: is a task due?", 0},
	[BW_RECURRING] = {"recurring", "lq_task_claim of a due recurring task",
			  "UPDATE run_at = now + interval WHERE id = (SELECT ... SKIP LOCKED)", 0},
	[BW_E2E_C] = {"e2e-c", "lq_runner_work workers, at-least-once, empty handler",
		      "claim-ack's UPDATE ... RETURNING, then DELETE (the ceiling)", 0},
	[BW_E2E_WORKER] = {"e2e-worker", "leasectl worker --at-least-once, shell handler",
			   "claim-ack's UPDATE ... RETURNING, then DELETE (the ceiling)", 0},
	[BW_CLAIM_FAIR] = {"claim-fair", "lq_task_claim, at-most-once, 1 task, of a queue whose tasks go round "
			   "10 partitions (fair share)", "claim's DELETE on that queue (no fair share: against "
			   "claim's ratio, fair share's cost)", BENCH_FAIR_QUEUE},
	[BW_CLAIM_FAIR_BATCH] = {"claim-fair-batch", "the same, 100 tasks", "claim-batch's DELETE on that queue",
				 BENCH_FAIR_QUEUE},
	[BW_CLAIM_CAPPED] = {"claim-capped", "lq_task_claim of 1 task whose concurrency key has a cap it never "
			     "reaches (so the claim is at-least-once), then lq_task_ack", "claim-ack's UPDATE ... "
			     "RETURNING, then DELETE, on that queue (no cap: against claim-ack's ratio, the cap's cost)",
			     BENCH_CAPPED_QUEUE},
	[BW_CLAIM_RATED] = {"claim-rated", "lq_task_claim, at-most-once, 1 task whose concurrency key has a rate "
			    "limit it never uses up", "claim's DELETE on that queue (no rate: against claim's ratio, "
			    "the rate limit's cost)", BENCH_RATED_QUEUE},
};

const char *bench_kind_queue(const struct bench_names *n, int kind)
{
	switch (kind) {
	case BENCH_FAIR_QUEUE:
		return n->fair_queue;
	case BENCH_CAPPED_QUEUE:
		return n->capped_queue;
	case BENCH_RATED_QUEUE:
		return n->rated_queue;
	default:
		return n->claim_queue;
	}
}

const char *bench_claim_queue(const struct bench_job *job)
{
	return bench_kind_queue(job->names, bench_workloads[job->w].claims);
}

int bench_workload_find(const char *name)
{
	for (int i = 0; i < BW__COUNT; i++)
		if (strcmp(name, bench_workloads[i].name) == 0)
			return i;
	return -1;
}

void bench_names_init(struct bench_names *n, uint32_t tag)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->base, sizeof(n->base), "leaseq-bench-%08x", (unsigned)tag);
	snprintf(n->claim_queue, sizeof(n->claim_queue), "%s-claim", n->base);
	snprintf(n->enqueue_queue, sizeof(n->enqueue_queue), "%s-enqueue", n->base);
	snprintf(n->fair_queue, sizeof(n->fair_queue), "%s-fair", n->base);
	snprintf(n->capped_queue, sizeof(n->capped_queue), "%s-capped", n->base);
	snprintf(n->rated_queue, sizeof(n->rated_queue), "%s-rated", n->base);
	snprintf(n->idle_queue, sizeof(n->idle_queue), "%s-idle", n->base);
	snprintf(n->recurring_queue, sizeof(n->recurring_queue), "%s-recurring", n->base);
	snprintf(n->e2e_queue, sizeof(n->e2e_queue), "%s-e2e", n->base);
	snprintf(n->e2e_raw_queue, sizeof(n->e2e_raw_queue), "%s-e2e-raw", n->base);
	snprintf(n->hot_lease, sizeof(n->hot_lease), "%s-hot", n->base);
	/* The base holds no LIKE wildcard (hex digits and '-'). */
	snprintf(n->task_pattern, sizeof(n->task_pattern), "%s-%%", n->base);
	snprintf(n->lease_pattern, sizeof(n->lease_pattern), "%s-%%", n->base);
	snprintf(n->runner_pattern, sizeof(n->runner_pattern), "leaseq:runner:%s-%%", n->base);
}

struct bench_lq {
	lq_db *db;
	const struct bench_job *job;
	lq_runner *runner; /* tick-idle */
	lq_task tasks[BENCH_BATCH];
	lq_task held; /* claim-ack: claimed by the last call, acked by the next */
	int holding;
	lq_task_opts add;
	/* enqueue-batch: BENCH_BATCH times "bench" and &add */
	const char *names[BENCH_BATCH];
	const lq_task_opts *adds[BENCH_BATCH];
};

static int fail(char *err, size_t errsize, const char *what, lq_db *db, lq_status st)
{
	snprintf(err, errsize, "%s: %s", what, db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
	return -1;
}

int bench_lq_open(const char *dsn, const struct bench_job *job, struct bench_lq **out, char *err, size_t errsize)
{
	struct bench_lq *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (!c) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	c->job = job;
	lq_status st = lq_open(dsn, &c->db);
	if (st == LQ_OK) {
		int64_t now; /* connect now, not in the first timed call */
		st = lq_now(c->db, &now);
	}
	if (st != LQ_OK) {
		fail(err, errsize, "connect", c->db, st);
		bench_lq_close(c);
		return -1;
	}
	lq_task_opts add = LQ_TASK_OPTS_INIT;
	add.queue = job->names->enqueue_queue;
	add.payload = BENCH_PAYLOAD;
	add.payload_len = BENCH_PAYLOAD_LEN;
	c->add = add;
	for (int i = 0; i < BENCH_BATCH; i++) {
		c->names[i] = "bench";
		c->adds[i] = &c->add;
	}
	if (job->w == BW_TICK_IDLE) {
		const char *queues[2] = {job->names->idle_queue, NULL};
		lq_runner_opts ro = LQ_RUNNER_OPTS_INIT;
		ro.queues = queues;
		if ((st = lq_runner_new(c->db, &ro, &c->runner)) != LQ_OK) {
			fail(err, errsize, "runner", c->db, st);
			bench_lq_close(c);
			return -1;
		}
	}
	*out = c;
	return 0;
}

/* ack: also ack each task claimed at-most-once (its history row, as a run
 * that ends well writes it); at-least-once tasks are always acked. */
static int claim(struct bench_lq *c, const char *queue, lq_mode mode, size_t n, int ack, struct bench_op *op,
		 char *err, size_t errsize)
{
	size_t got = 0;
	lq_status st = lq_task_claim(c->db, queue, mode, mode == LQ_AT_LEAST_ONCE ? BENCH_LEASE_TTL_MS : 0, c->tasks,
				     n, &got);
	if (st == LQ_EMPTY) {
		op->empty = 1;
		return 0;
	}
	if (st == LQ_BUSY) /* every candidate went to another client first */
		return 0;
	if (st != LQ_OK)
		return fail(err, errsize, "lq_task_claim", c->db, st);
	for (size_t i = 0; i < got; i++) {
		if ((ack || mode == LQ_AT_LEAST_ONCE) && st == LQ_OK && (st = lq_task_ack(c->db, &c->tasks[i])) != LQ_OK)
			fail(err, errsize, "lq_task_ack", c->db, st);
		lq_task_clear(&c->tasks[i]);
	}
	op->rows = (int64_t)got;
	return st == LQ_OK ? 0 : -1;
}

/* claim-ack: what an at-least-once worker sends per task, the ack of the
 * task it ran and the claim of the next in one call; the last task is
 * acked when the client closes. */
static int claim_ack(struct bench_lq *c, const char *queue, struct bench_op *op, char *err, size_t errsize)
{
	size_t got = 0;
	lq_status ack = LQ_OK;
	lq_status st = lq_task_ack_claim(c->db, c->holding ? &c->held : NULL, &ack, queue, LQ_AT_LEAST_ONCE,
					 BENCH_LEASE_TTL_MS, c->tasks, 1, &got);
	if (c->holding) {
		lq_task_clear(&c->held);
		c->holding = 0;
	}
	if (ack != LQ_OK)
		return fail(err, errsize, "lq_task_ack_claim (the ack)", c->db, ack);
	if (st == LQ_EMPTY) {
		op->empty = 1;
		return 0;
	}
	if (st == LQ_BUSY)
		return 0;
	if (st != LQ_OK)
		return fail(err, errsize, "lq_task_ack_claim", c->db, st);
	c->held = c->tasks[0];
	memset(&c->tasks[0], 0, sizeof(c->tasks[0]));
	c->holding = 1;
	op->rows = (int64_t)got;
	return 0;
}

static int lease(struct bench_lq *c, const char *name, struct bench_op *op, char *err, size_t errsize)
{
	lq_lease l;
	lq_status st = lq_lease_acquire(c->db, name, BENCH_LEASE_TTL_MS, c->job->owner, 0, &l);
	if (st == LQ_BUSY)
		return 0;
	if (st != LQ_OK)
		return fail(err, errsize, "lq_lease_acquire", c->db, st);
	if ((st = lq_lease_release(c->db, &l)) != LQ_OK)
		return fail(err, errsize, "lq_lease_release", c->db, st);
	op->rows = 1;
	return 0;
}

int bench_lq_op(struct bench_lq *c, struct bench_op *op, char *err, size_t errsize)
{
	const struct bench_names *n = c->job->names;
	lq_status st;
	op->rows = 0;
	op->empty = 0;
	switch (c->job->w) {
	case BW_CLAIM:
		return claim(c, n->claim_queue, LQ_AT_MOST_ONCE, 1, 0, op, err, errsize);
	case BW_CLAIM_RUN:
		return claim(c, n->claim_queue, LQ_AT_MOST_ONCE, 1, 1, op, err, errsize);
	case BW_CLAIM_BATCH:
		return claim(c, n->claim_queue, LQ_AT_MOST_ONCE, BENCH_BATCH, 0, op, err, errsize);
	case BW_CLAIM_ACK:
		return claim_ack(c, n->claim_queue, op, err, errsize);
	case BW_RECURRING:
		return claim(c, n->recurring_queue, LQ_AT_MOST_ONCE, 1, 0, op, err, errsize);
	case BW_CLAIM_FAIR:
		return claim(c, n->fair_queue, LQ_AT_MOST_ONCE, 1, 0, op, err, errsize);
	case BW_CLAIM_FAIR_BATCH:
		return claim(c, n->fair_queue, LQ_AT_MOST_ONCE, BENCH_BATCH, 0, op, err, errsize);
	case BW_CLAIM_CAPPED: /* the cap's slot is the claim: acked, as an application would */
		return claim(c, n->capped_queue, LQ_AT_MOST_ONCE, 1, 1, op, err, errsize);
	case BW_CLAIM_RATED:
		return claim(c, n->rated_queue, LQ_AT_MOST_ONCE, 1, 0, op, err, errsize);
	case BW_ENQUEUE:
		if ((st = lq_task_add(c->db, "bench", &c->add, NULL, NULL)) != LQ_OK)
			return fail(err, errsize, "lq_task_add", c->db, st);
		op->rows = 1;
		return 0;
	case BW_ENQUEUE_BATCH:
		if ((st = lq_task_add_many(c->db, BENCH_BATCH, c->names, c->adds, NULL, NULL, NULL)) != LQ_OK)
			return fail(err, errsize, "lq_task_add_many", c->db, st);
		op->rows = BENCH_BATCH;
		return 0;
	case BW_LEASE:
	case BW_LEASE_HOT:
		return lease(c, c->job->lease, op, err, errsize);
	case BW_TICK_IDLE: {
		lq_run_report rep;
		st = lq_runner_tick(c->runner, 1000, &rep);
		if (st != LQ_OK && st != LQ_BUSY && st != LQ_EMPTY)
			return fail(err, errsize, "lq_runner_tick", c->db, st);
		if (rep.claimed != 0) {
			snprintf(err, errsize, "tick-idle: the tick claimed a task in a queue with nothing due");
			return -1;
		}
		op->rows = 1;
		return 0;
	}
	case BW_E2E_C:
	case BW_E2E_WORKER: /* e2e.c: not a client's loop */
	case BW__COUNT:
		break;
	}
	snprintf(err, errsize, "unknown workload");
	return -1;
}

int64_t bench_lq_statements(const struct bench_lq *c)
{
	return lq_db_statements(c->db);
}

void bench_lq_close(struct bench_lq *c)
{
	if (!c)
		return;
	if (c->holding) {
		(void)lq_task_ack(c->db, &c->held);
		lq_task_clear(&c->held);
	}
	lq_runner_free(c->runner);
	lq_close(c->db);
	free(c);
}
