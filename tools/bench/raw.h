/*
 * raw.h - what the raw baselines (raw_<dialect>.c) share.  Each one's
 * struct bench_raw starts with a struct raw_common.
 */
#ifndef LC_BENCH_RAW_H
#define LC_BENCH_RAW_H

#include "bench/bench.h"

struct raw_common {
	int64_t statements; /* sent, for STMT/OP */
	int64_t last_id;    /* the first column of the last statement's first row */
	char err[512];
};

/* Set c->err (one line) and return -1. */
int raw_fail(struct raw_common *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The ops' statements and errmsg for any struct bench_raw. */
int64_t raw_statements(const struct bench_raw *r);
const char *raw_errmsg(const struct bench_raw *r);

/* The statements SQLite and PostgreSQL name alike (one round trip each). */
enum raw_stmt {
	R_CLAIM, R_CLAIM_BATCH, R_ACK_CLAIM, R_ACK_ACK, R_ENQUEUE, R_ENQUEUE_BATCH, R_LEASE_TAKE, R_LEASE_RELEASE, R_TICK,
	R_RECURRING, R_FILL, R_CLEAR_TASKS, R_CLEAR_DEAD, R_CLEAR_LEASES, R__COUNT
};
extern const char *const raw_stmt_names[R__COUNT];

/* The clean-up: clear(r, what, pattern) runs the dialect's clear_tasks
 * (what 0), clear_dead (1) or clear_leases (2) with a LIKE pattern, for
 * every pattern of the run; stops at the first failure. */
int raw_cleanup_each(struct bench_raw *r, const struct bench_names *n,
		     int (*clear)(struct bench_raw *r, int what, const char *pattern));

#endif
