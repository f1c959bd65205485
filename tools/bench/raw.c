/*
 * raw.c - the raw baselines of leasectl bench, by backend name.  Each
 * raw_<dialect>.c talks to its client library directly, with the statements
 * of tools/bench/sql/<dialect>/bench.sql, so that the baseline is what a
 * competent hand would write, not leaseq's own code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/raw.h"

extern const struct bench_raw_ops bench_raw_sqlite;
#ifdef LC_BENCH_POSTGRES
extern const struct bench_raw_ops bench_raw_postgres;
#endif
#ifdef LC_BENCH_MYSQL
extern const struct bench_raw_ops bench_raw_mysql;
#endif

static const struct bench_raw_ops *const raws[] = {
	&bench_raw_sqlite,
#ifdef LC_BENCH_POSTGRES
	&bench_raw_postgres,
#endif
#ifdef LC_BENCH_MYSQL
	&bench_raw_mysql,
#endif
};

const struct bench_raw_ops *bench_raw_for(const char *backend)
{
	for (size_t i = 0; i < sizeof(raws) / sizeof(raws[0]); i++)
		if (strcmp(raws[i]->backend, backend) == 0)
			return raws[i];
	return NULL;
}

const char *bench_sql(const char *const table[][2], const char *name)
{
	for (size_t i = 0; table[i][0]; i++)
		if (strcmp(table[i][0], name) == 0)
			return table[i][1];
	return NULL;
}

const char *const raw_stmt_names[R__COUNT] = {
	[R_CLAIM] = "claim",
	[R_CLAIM_BATCH] = "claim_batch",
	[R_ACK_CLAIM] = "claim_ack_claim",
	[R_ACK_ACK] = "claim_ack_ack",
	[R_ENQUEUE] = "enqueue",
	[R_ENQUEUE_BATCH] = "enqueue_batch",
	[R_LEASE_TAKE] = "lease_take",
	[R_LEASE_RELEASE] = "lease_release",
	[R_TICK] = "tick_due",
	[R_RECURRING] = "recurring",
	[R_FILL] = "fill",
	[R_CLEAR_TASKS] = "clear_tasks",
	[R_CLEAR_DEAD] = "clear_dead",
	[R_CLEAR_LEASES] = "clear_leases",
};

int raw_fail(struct raw_common *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	/* Client libraries end their messages in a newline: one line. */
	for (char *p = c->err; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return -1;
}

int64_t raw_statements(const struct bench_raw *r)
{
	return ((const struct raw_common *)(const void *)r)->statements;
}

const char *raw_errmsg(const struct bench_raw *r)
{
	return ((const struct raw_common *)(const void *)r)->err;
}

int raw_cleanup_each(struct bench_raw *r, const struct bench_names *n,
		     int (*clear)(struct bench_raw *r, int what, const char *pattern))
{
	const struct {
		int what;
		const char *pattern;
	} steps[] = {{0, n->task_pattern}, {1, n->task_pattern}, {2, n->lease_pattern}, {2, n->runner_pattern}};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (clear(r, steps[i].what, steps[i].pattern) != 0)
			return -1;
	return 0;
}
