/*
 * bench.h - "leasectl bench": leaseq's public API against the same job
 * written as raw SQL through the same client library, side by side.
 *
 *   driver.c      processes: one client per process and connection, started
 *                 together, runs alternating leaseq / raw, queue top-ups,
 *                 clean-up (also on SIGINT)
 *   workload.c    the workloads and the leaseq side (lib/leaseq.h only)
 *   hist.c        latency histogram of constant size
 *   raw_*.c       the raw side, one file per client library, with its SQL
 *                 in tools/bench/sql/<dialect>/ (compiled in)
 *   report.c      table, JSON, CSV and gnuplot output
 */
#ifndef LC_BENCH_H
#define LC_BENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum bench_workload {
	BW_CLAIM,
	BW_CLAIM_BATCH,
	BW_CLAIM_ACK,
	BW_CLAIM_RUN,
	BW_ENQUEUE,
	BW_ENQUEUE_BATCH,
	BW_LEASE,
	BW_LEASE_HOT,
	BW_TICK_IDLE,
	BW_RECURRING,
	BW_CLAIM_FAIR,
	BW_CLAIM_FAIR_BATCH,
	BW_CLAIM_CAPPED,
	BW_CLAIM_RATED,
	BW_E2E_C,      /* real workers end to end (e2e.c): only when named, */
	BW_E2E_WORKER, /* so they stay last */
	BW__COUNT
};
/* The workloads a bench without --workload runs: all but the end-to-end
 * ones, which take much longer. */
#define BENCH_DEFAULT_WORKLOADS ((1u << BW_E2E_C) - 1)
#define BENCH_IS_E2E(w) ((w) == BW_E2E_C || (w) == BW_E2E_WORKER)

struct bench_workload_info {
	const char *name;   /* as on the command line and in the CSV */
	const char *leaseq; /* what the leaseq side does, in a few words */
	const char *raw;    /* what the raw side does */
	int claims;         /* consumes the claim queue's due tasks (BENCH_CLAIM_QUEUE), or
	                     * those of a queue the library fills (BENCH_FAIR_QUEUE and on) */
};
extern const struct bench_workload_info bench_workloads[BW__COUNT];
/* The workload's index, or -1. */
int bench_workload_find(const char *name);

#define BENCH_CLAIM_QUEUE 1
#define BENCH_FAIR_QUEUE 2   /* its tasks go round BENCH_PARTITIONS partitions */
#define BENCH_CAPPED_QUEUE 3 /* its tasks have a key with a cap they never reach */
#define BENCH_RATED_QUEUE 4  /* its tasks have a key with a rate they never use up */
#define BENCH_QUEUE_KINDS 5
#define BENCH_PARTITIONS 10      /* the fair queue's tasks go round these */
#define BENCH_BATCH 100          /* tasks per call in claim-batch and enqueue-batch */
#define BENCH_CLIENTS_MAX 64
#define BENCH_CLIENT_COUNTS_MAX 8
#define BENCH_LEASE_TTL_MS 30000
#define BENCH_RECURRING_TASKS 1000
#define BENCH_RECURRING_EVERY_MS 10 /* the shortest interval leaseq accepts */
#define BENCH_PAYLOAD "leaseq bench 16b"
#define BENCH_PAYLOAD_LEN 16

/* Everything one run creates is named after base ("leaseq-bench-<random>"). */
struct bench_names {
	char base[32];
	char claim_queue[48];   /* claim, claim-batch, claim-ack */
	char fair_queue[48];    /* claim-fair, claim-fair-batch */
	char capped_queue[48];  /* claim-capped; also its tasks' concurrency key */
	char rated_queue[48];   /* claim-rated; also its tasks' concurrency key */
	char enqueue_queue[48];
	char idle_queue[48];    /* tick-idle: never anything due */
	char recurring_queue[48];
	char e2e_queue[48];     /* e2e-c, e2e-worker */
	char e2e_raw_queue[48]; /* their raw claim-ack: its leftovers are not the workers' */
	char hot_lease[48];
	char task_pattern[48];  /* LIKE patterns for the clean-up */
	char lease_pattern[48];
	char runner_pattern[64];
};
void bench_names_init(struct bench_names *n, uint32_t tag);

/* What one client process does. */
struct bench_job {
	enum bench_workload w;
	const struct bench_names *names;
	int client;       /* 0 .. clients-1 */
	char owner[64];   /* unique to this client process */
	char lease[48];   /* the lease this client takes (lease-hot: the hot one) */
};
/* The queue a claiming workload takes its tasks from; by its kind
 * (bench_workload_info.claims). */
const char *bench_claim_queue(const struct bench_job *job);
const char *bench_kind_queue(const struct bench_names *n, int kind);

/* ------------------------------------------------------------ histogram */

/* Microseconds: exact below 32, then 16 steps per power of two (~6 %). */
#define BENCH_HIST_N (32 + 31 * 16)
struct bench_hist {
	uint32_t n[BENCH_HIST_N];
};
void bench_hist_add(struct bench_hist *h, int64_t us);
void bench_hist_merge(struct bench_hist *into, const struct bench_hist *h);
/* The q-quantile (0..1) in microseconds; 0 when empty. */
double bench_hist_quantile(const struct bench_hist *h, double q);

/* ------------------------------------------------------------ the sides */

/* One operation's outcome. */
struct bench_op {
	int64_t rows;  /* tasks claimed, tasks enqueued, leases taken, ticks */
	int empty;     /* the queue had nothing due (a claim queue ran dry) */
};

/* leaseq side (workload.c), public API only. */
struct bench_lq;
int bench_lq_open(const char *dsn, const struct bench_job *job, struct bench_lq **out, char *err, size_t errsize);
int bench_lq_op(struct bench_lq *c, struct bench_op *op, char *err, size_t errsize);
int64_t bench_lq_statements(const struct bench_lq *c);
void bench_lq_close(struct bench_lq *c);

/* Fill kinds for the raw side's fill. */
enum bench_fill {
	BF_DUE = 0,        /* due now */
	BF_INTERLEAVED = 1, /* every second row (by id) due in a year */
	BF_FUTURE = 2,     /* all due in a year */
	BF_RECURRING = 3   /* due now, every BENCH_RECURRING_EVERY_MS */
};

/* Raw side: one implementation per client library. */
struct bench_raw;
struct bench_raw_ops {
	const char *backend; /* lq_backend_name() of the same DSN */
	int (*open)(const char *dsn, struct bench_raw **out, char *err, size_t errsize);
	void (*close)(struct bench_raw *r);
	int (*op)(struct bench_raw *r, const struct bench_job *job, struct bench_op *op);
	/* n rows into queue, in batches inside transactions; stops early (-1)
	 * when *stop is set. */
	int (*fill)(struct bench_raw *r, const char *queue, int64_t n, enum bench_fill kind,
		    const volatile sig_atomic_t *stop);
	/* Between cells, outside the timed runs: let the server clean up
	 * after the last one (PostgreSQL: VACUUM), so that every cell starts
	 * from a table in the same state.  NULL: nothing to do. */
	int (*settle)(struct bench_raw *r);
	/* Delete every task, dead task and lease of the run. */
	int (*cleanup)(struct bench_raw *r, const struct bench_names *names);
	int64_t (*statements)(const struct bench_raw *r);
	const char *(*errmsg)(const struct bench_raw *r);
};
/* The raw side for a backend name, or NULL when this build has none. */
const struct bench_raw_ops *bench_raw_for(const char *backend);
/* Look up statement name in a generated {name, text} table (NULL-ended). */
const char *bench_sql(const char *const table[][2], const char *name);

/* ------------------------------------------------------------ end to end */

/* One run of real workers (e2e.c): clients workers on queue, which holds
 * due tasks due and any number not due; the tasks run in window_ms, then,
 * once the backlog is gone, the pickup latency of tasks a separate process
 * enqueues one every enqueue_every_us for window_ms. */
struct bench_e2e {
	const char *dsn;
	const char *leasectl; /* this program, for e2e-worker */
	const char *queue;
	enum bench_workload w;
	int clients;
	int64_t due;
	int64_t window_ms;
	int64_t enqueue_every_us;
	const volatile sig_atomic_t *stop;
};
struct bench_e2e_result {
	int64_t window_rows, window_us; /* tasks run in the throughput window */
	int64_t ran;                    /* every handler run */
	int64_t enqueued, picked;       /* the latency tasks, and those stamped */
	int64_t enqueue_every_us;       /* their pace: e->enqueue_every_us, slower
	                                 * when the workers ran under 4 times that */
	int dry;                        /* the backlog ran out in the window */
	int64_t rss_kb;                 /* the largest worker's */
	struct bench_hist hist;         /* pickup latency, microseconds */
};
/* 0; 1 stopped by *stop; -1 failed (err).  Every task it enqueued ran. */
int bench_e2e_run(const struct bench_e2e *e, struct bench_e2e_result *r, char *err, size_t errsize);
#define BENCH_E2E_EVERY_US 10000 /* the enqueuer's pace: 100 tasks/s */

/* ------------------------------------------------------------ the driver */

struct bench_opts {
	const char *dsn;
	const char *backend;          /* lq_backend_name() */
	unsigned workloads;           /* bit per enum bench_workload */
	int clients[BENCH_CLIENT_COUNTS_MAX];
	int nclients;
	int64_t duration_ms;          /* per side and cell */
	int64_t pending;              /* tasks waiting in the claim queue */
	int progress;                 /* a live line on stderr */
	const char *leasectl;         /* this program (e2e-worker runs it) */
	const volatile sig_atomic_t *stop;
};

struct bench_side_result {
	double ops_s, rows_s;
	double p50_us, p99_us;
	double stmts_per_op;
	int64_t rss_kb, rss_start_kb; /* the largest client's, at the end and before the first op */
	int64_t ops, rows;
};

struct bench_result {
	enum bench_workload w;
	int clients;
	int64_t pending;
	struct bench_side_result lq, raw;
	double ratio;   /* lq.rows_s / raw.rows_s */
	int dry;        /* the claim queue ran dry in a run even after refills */
	int64_t enqueued; /* e2e: the tasks whose pickup latency p50/p99 are */
	int64_t enqueue_every_us; /* e2e: the pace they were enqueued at */
};

typedef void (*bench_result_fn)(const struct bench_result *r, void *ctx);

/* 0: done; 1: stopped by *o->stop; -1: failed (err says why).  Either way
 * what the run created is removed. */
int bench_run(const struct bench_opts *o, bench_result_fn fn, void *ctx, char *err, size_t errsize);

/* ------------------------------------------------------------ output */

struct bench_results {
	struct bench_result *r;
	size_t n, cap;
};
void bench_print_table(FILE *f, const char *backend, const struct bench_results *res);
/* Writes the CSV to f (opened on path) and closes it. */
int bench_write_csv(FILE *f, const char *path, const char *backend, const struct bench_results *res, char *err,
		    size_t errsize);
/* Draws with gnuplot; -1 with err when gnuplot is missing or fails. */
int bench_plot(const char *path, const char *backend, const struct bench_results *res, char *err,
	       size_t errsize);
/* 1 when gnuplot is on PATH. */
int bench_have_gnuplot(void);

#endif
