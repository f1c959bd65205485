/*
 * bench.c - "leasectl bench": leaseq's operations against raw SQL baselines
 * measured in the same run (see bench.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "internal.h"

struct bench {
	lq_db *db;
	const lq_bench_opts *o;
	char qa[64], qr[64];  /* leaseq's queue, the baseline's queue */
	char la[64], lr[64];  /* leaseq's lease, the baseline's lease */
	int64_t *ids;         /* baseline rows, by id */
	size_t nids;
	unsigned char payload[16];
};

static double mono_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static lq_status stopped(struct bench *b)
{
	if (b->o->stop && *b->o->stop)
		return lq__fail(b->db, LQ_ETIMEDOUT, "bench: stopped");
	return LQ_OK;
}

static lq_status raw(struct bench *b, lq_sql_id id, const lq_value *p, int n, int64_t want)
{
	int64_t affected = 0;
	lq_status st = lq__exec(b->db, "bench", id, p, n, NULL, NULL, &affected);
	if (st == LQ_OK && want >= 0 && affected != want)
		return lq__fail(b->db, LQ_ERROR, "bench: %s changed %lld rows, expected %lld", lq__sql_name(id),
				(long long)affected, (long long)want);
	return st;
}

static lq_status clear_queues(struct bench *b)
{
	const char *qs[2] = {b->qa, b->qr};
	lq_status st = LQ_OK;
	for (int i = 0; i < 2 && st == LQ_OK; i++) {
		lq_value p[1] = {lq__v_text(qs[i])};
		st = raw(b, LQ_SQL_bench_clear_tasks, p, 1, -1);
		if (st == LQ_OK)
			st = raw(b, LQ_SQL_bench_clear_dead, p, 1, -1);
	}
	return st;
}

/* Fill queue q with n due tasks the quick way. */
static lq_status fill(struct bench *b, const char *q, int n)
{
	lq_value p[2] = {lq__v_text(q), lq_v_blob(b->payload, sizeof(b->payload))};
	for (int i = 0; i < n; i++) {
		lq_status st = raw(b, LQ_SQL_bench_insert, p, 2, 1);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static int id_row(void *ctx, const lq_value *c, int n)
{
	struct bench *b = ctx;
	if (n < 1 || b->nids >= (size_t)b->o->ops)
		return 1;
	b->ids[b->nids++] = lq__col_int(&c[0]);
	return 0;
}

static lq_status read_ids(struct bench *b)
{
	lq_value p[2] = {lq__v_text(b->qr), lq_v_int(b->o->ops)};
	b->nids = 0;
	lq_status st = lq__exec(b->db, "bench", LQ_SQL_bench_ids, p, 2, id_row, b, NULL);
	if (st == LQ_OK && b->nids != (size_t)b->o->ops)
		st = lq__fail(b->db, LQ_ERROR, "bench: found %zu of the %d rows it inserted", b->nids, b->o->ops);
	return st;
}

/* ---------------------------------------------------------------- cases */

static lq_status ours_enqueue(struct bench *b)
{
	lq_task_opts to = LQ_TASK_OPTS_INIT;
	to.queue = b->qa;
	to.payload = b->payload;
	to.payload_len = sizeof(b->payload);
	for (int i = 0; i < b->o->ops; i++) {
		lq_status st = lq_task_add(b->db, "bench", &to, NULL, NULL);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static lq_status raw_enqueue(struct bench *b)
{
	return fill(b, b->qr, b->o->ops);
}

/* Claim ops tasks of qa, n at a time; at-least-once acks each. */
static lq_status ours_claim_n(struct bench *b, lq_mode mode, size_t n)
{
	lq_task *t = calloc(n, sizeof(*t));
	int64_t left = b->o->ops;
	lq_status st = LQ_OK;
	if (!t)
		return lq__fail(b->db, LQ_ENOMEM, "bench: out of memory");
	while (left > 0) {
		size_t got = 0, want = (size_t)left < n ? (size_t)left : n;
		st = lq_task_claim(b->db, b->qa, mode, 0, t, want, &got);
		if (st == LQ_EMPTY)
			st = lq__fail(b->db, LQ_ERROR, "bench: queue %s ran dry with %lld tasks to go", b->qa,
				      (long long)left);
		for (size_t i = 0; i < got; i++) {
			if (st == LQ_OK && mode == LQ_AT_LEAST_ONCE)
				st = lq_task_ack(b->db, &t[i]);
			lq_task_clear(&t[i]);
		}
		if (st != LQ_OK)
			break;
		left -= (int64_t)got;
	}
	free(t);
	return st;
}

static lq_status ours_claim(struct bench *b) { return ours_claim_n(b, LQ_AT_MOST_ONCE, 1); }
static lq_status ours_claim_ack(struct bench *b) { return ours_claim_n(b, LQ_AT_LEAST_ONCE, 1); }
static lq_status ours_batch(struct bench *b) { return ours_claim_n(b, LQ_AT_MOST_ONCE, (size_t)b->o->batch); }

/* The cheapest claim there is: delete a row whose id the client knows. */
static lq_status raw_claim(struct bench *b)
{
	for (size_t i = 0; i < b->nids; i++) {
		lq_value p[1] = {lq_v_int(b->ids[i])};
		lq_status st = raw(b, LQ_SQL_task_delete, p, 1, 1);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static lq_status raw_claim_ack(struct bench *b)
{
	for (size_t i = 0; i < b->nids; i++) {
		lq_value p[1] = {lq_v_int(b->ids[i])};
		lq_status st = raw(b, LQ_SQL_bench_touch, p, 1, 1);
		if (st == LQ_OK)
			st = raw(b, LQ_SQL_task_delete, p, 1, 1);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static lq_status raw_batch(struct bench *b)
{
	size_t n = (size_t)b->o->batch;
	for (size_t i = 0; i < b->nids; i += n) {
		size_t last = i + n < b->nids ? i + n - 1 : b->nids - 1;
		lq_value p[3] = {lq__v_text(b->qr), lq_v_int(b->ids[i]), lq_v_int(b->ids[last])};
		lq_status st = raw(b, LQ_SQL_bench_delete_range, p, 3, (int64_t)(last - i + 1));
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static lq_status ours_lease(struct bench *b)
{
	for (int i = 0; i < b->o->ops; i++) {
		lq_lease l;
		lq_status st = lq_lease_acquire(b->db, b->la, 30000, "bench", 0, &l);
		if (st == LQ_OK)
			st = lq_lease_release(b->db, &l);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

static lq_status raw_lease(struct bench *b)
{
	for (int i = 0; i < b->o->ops; i++) {
		lq_value take[2] = {lq__v_text(b->lr), lq__v_text("bench")};
		lq_value give[2] = {lq__v_text(b->lr), lq_v_null()};
		lq_status st = raw(b, LQ_SQL_bench_lease_touch, take, 2, 1);
		if (st == LQ_OK)
			st = raw(b, LQ_SQL_bench_lease_touch, give, 2, 1);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

/* A web hit's tick when nothing is due, against the one SELECT a
 * hand-written pseudo-cron would send: is a task due? */
static lq_status ours_tick(struct bench *b)
{
	const char *queues[2] = {b->qa, NULL};
	lq_runner_opts ro = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	ro.queues = queues;
	lq_status st = lq_runner_new(b->db, &ro, &r);
	for (int i = 0; st == LQ_OK && i < b->o->ops; i++) {
		lq_run_report rep;
		st = lq_runner_tick(r, 1000, &rep);
		if (st == LQ_OK && rep.claimed != 0)
			st = lq__fail(b->db, LQ_ERROR, "bench: the idle tick claimed a task");
	}
	lq_runner_free(r);
	return st;
}

static int ignore_row(void *ctx, const lq_value *c, int n)
{
	(void)ctx, (void)c, (void)n;
	return 0;
}

static lq_status raw_tick(struct bench *b)
{
	lq_value p[1] = {lq__v_text(b->qa)};
	for (int i = 0; i < b->o->ops; i++) {
		lq_status st = lq__exec(b->db, "bench", LQ_SQL_bench_due, p, 1, ignore_row, NULL, NULL);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

/* ------------------------------------------------------------ the driver */

struct bench_case {
	const char *name, *op, *baseline;
	lq_status (*lq_run)(struct bench *b);
	lq_status (*raw_run)(struct bench *b);
	int fill; /* fill both queues (and read the baseline's ids) first */
};

static const struct bench_case cases[] = {
	{"enqueue", "lq_task_add", "one INSERT", ours_enqueue, raw_enqueue, 0},
	{"claim", "lq_task_claim, at-most-once, 1 task", "DELETE by known id", ours_claim, raw_claim, 1},
	{"claim+ack", "lq_task_claim at-least-once + lq_task_ack", "UPDATE + DELETE by known id", ours_claim_ack,
	 raw_claim_ack, 1},
	{"batch", "lq_task_claim, at-most-once, N tasks", "DELETE of N known ids", ours_batch, raw_batch, 1},
	{"lease", "lq_lease_acquire + lq_lease_release", "two UPDATEs by name", ours_lease, raw_lease, 0},
	{"tick", "lq_runner_tick, nothing due", "SELECT: is a task due?", ours_tick, raw_tick, 0},
};

_Static_assert(LQ_BENCH_BATCH_MAX == LQ_CLAIM_MAX, "bench batches are lq_task_claim batches");

#define NCASES (sizeof(cases) / sizeof(cases[0]))

int lq__bench_has_case(const char *name)
{
	for (size_t i = 0; i < NCASES; i++)
		if (strcmp(name, cases[i].name) == 0)
			return 1;
	return 0;
}

static lq_status timed(struct bench *b, lq_status (*fn)(struct bench *), double *best)
{
	double t0 = mono_sec();
	lq_status st = fn(b);
	double dt = mono_sec() - t0;
	if (st == LQ_OK && (*best < 0 || dt < *best))
		*best = dt;
	return st;
}

static lq_status run_case(struct bench *b, const struct bench_case *c, lq_bench_result *res)
{
	lq_status st = LQ_OK;
	res->name = c->name;
	res->op = c->op;
	res->baseline = c->baseline;
	res->ops = b->o->ops;
	res->lq_sec = res->raw_sec = -1;
	for (int round = 0; round < b->o->rounds && st == LQ_OK; round++) {
		if ((st = stopped(b)) != LQ_OK || (st = clear_queues(b)) != LQ_OK)
			break;
		if (c->fill) {
			if ((st = fill(b, b->qa, b->o->ops)) != LQ_OK || (st = fill(b, b->qr, b->o->ops)) != LQ_OK ||
			    (st = read_ids(b)) != LQ_OK)
				break;
		}
		/* Take turns going first, so that neither side always meets a
		 * colder cache or a fuller table. */
		if (round % 2 == 0) {
			st = timed(b, c->lq_run, &res->lq_sec);
			if (st == LQ_OK)
				st = timed(b, c->raw_run, &res->raw_sec);
		} else {
			st = timed(b, c->raw_run, &res->raw_sec);
			if (st == LQ_OK)
				st = timed(b, c->lq_run, &res->lq_sec);
		}
	}
	return st;
}

lq_status lq__bench(lq_db *db, const lq_bench_opts *o, lq_bench_fn done, void *ctx)
{
	struct bench b;
	lq_status st;

	lq__ok(db);
	if (o->ops < 1 || o->ops > LQ_BENCH_OPS_MAX)
		return lq__fail(db, LQ_EINVAL, "bench: operations per case must be 1 to %d", LQ_BENCH_OPS_MAX);
	if (o->rounds < 1 || o->rounds > LQ_BENCH_ROUNDS_MAX)
		return lq__fail(db, LQ_EINVAL, "bench: rounds must be 1 to %d", LQ_BENCH_ROUNDS_MAX);
	if (o->batch < 1 || o->batch > LQ_BENCH_BATCH_MAX)
		return lq__fail(db, LQ_EINVAL, "bench: batch must be 1 to %d", LQ_BENCH_BATCH_MAX);
	if (o->only && !lq__bench_has_case(o->only))
		return lq__fail(db, LQ_EINVAL, "bench: no case named \"%s\"", o->only);
	if ((st = lq__ready(db)) != LQ_OK)
		return st;

	memset(&b, 0, sizeof(b));
	b.db = db;
	b.o = o;
	uint64_t tag = lq__rand(db);
	unsigned long long t32 = (unsigned long long)(tag & 0xffffffffu);
	snprintf(b.qa, sizeof(b.qa), "leaseq-bench-%08llx", t32);
	snprintf(b.qr, sizeof(b.qr), "leaseq-bench-%08llx-raw", t32);
	memcpy(b.la, b.qa, sizeof(b.la));
	memcpy(b.lr, b.qr, sizeof(b.lr));
	memcpy(b.payload, "leaseq bench 16b", sizeof(b.payload));
	b.ids = malloc((size_t)o->ops * sizeof(*b.ids));
	if (!b.ids)
		return lq__fail(db, LQ_ENOMEM, "bench: out of memory");

	/* The baseline's lease row, made the ordinary way. */
	lq_lease l;
	st = lq_lease_acquire(db, b.lr, 30000, "bench", 0, &l);
	if (st == LQ_OK)
		st = lq_lease_release(db, &l);
	for (size_t i = 0; i < NCASES && st == LQ_OK; i++) {
		if (o->only && strcmp(o->only, cases[i].name) != 0)
			continue;
		lq_bench_result res;
		st = run_case(&b, &cases[i], &res);
		if (st == LQ_OK && done)
			done(&res, ctx);
	}

	/* Leave nothing behind, keeping the first error's message. */
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	char runner[LQ_NAME_MAX + 1];
	snprintf(runner, sizeof(runner), "leaseq:runner:%s", b.qa);
	const char *leases[3] = {b.la, b.lr, runner};
	lq_status cst = clear_queues(&b);
	for (int i = 0; i < 3 && cst == LQ_OK; i++) {
		lq_value p[1] = {lq__v_text(leases[i])};
		cst = raw(&b, LQ_SQL_bench_clear_lease, p, 1, -1);
	}
	if (st != LQ_OK)
		memcpy(db->errmsg, saved, sizeof(saved));
	else
		st = cst;
	free(b.ids);
	return st;
}
