/*
 * bench.h - the benchmark behind "leasectl bench".  Internal, not installed:
 * leasectl includes it to print what it measured.
 *
 * Every case times one leaseq operation and its raw SQL baseline (the
 * fewest statements a hand-written client would send for the same job, with
 * none of leaseq's checks: sql/<dialect>/bench.sql) on the same connection
 * in the same run, so the ratio between them does not depend on the machine.
 * Cases work in queues and leases of their own ("leaseq-bench-<random>")
 * and remove them at the end, even when stopped.
 */
#ifndef LEASEQ_BENCH_H
#define LEASEQ_BENCH_H

#include <signal.h>
#include <stdint.h>

#include "leaseq.h"

#define LQ_BENCH_OPS_MAX 1000000
#define LQ_BENCH_ROUNDS_MAX 100
#define LQ_BENCH_BATCH_MAX 1000 /* lq_task_claim's limit */

typedef struct lq_bench_opts {
	int ops;            /* operations per case and round (tasks for "batch") */
	int rounds;         /* each case runs this often; the fastest round counts */
	int batch;          /* tasks per claim in the "batch" case */
	const char *only;   /* NULL: every case; else one case's name */
	volatile sig_atomic_t *stop; /* may be NULL; non-zero: stop and clean up */
} lq_bench_opts;

typedef struct lq_bench_result {
	const char *name;     /* "enqueue", "claim", ... */
	const char *op;       /* what leaseq does, in a few words */
	const char *baseline; /* the raw SQL it is compared with */
	int64_t ops;          /* per round */
	double lq_sec;        /* fastest round, leaseq */
	double raw_sec;       /* fastest round, raw SQL */
} lq_bench_result;

/* 1 if name is one of the cases. */
int lq__bench_has_case(const char *name);

/* Called after each case. */
typedef void (*lq_bench_fn)(const lq_bench_result *r, void *ctx);

/* Run the cases.  LQ_EINVAL for bad options, LQ_ETIMEDOUT when stopped
 * through opts->stop, otherwise a database status; lq_errmsg(db) says why. */
lq_status lq__bench(lq_db *db, const lq_bench_opts *opts, lq_bench_fn done, void *ctx);

#endif
