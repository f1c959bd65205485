/*
 * raw_postgres.c - leasectl bench's raw baseline on PostgreSQL: libpq,
 * synchronous calls, statements prepared once per connection, autocommit;
 * unnamed statements behind a transaction pooler (?pooler=transaction, or
 * a backend key that is not the server's), as the library does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bench/raw.h"

extern const char *const lc_bench_sql_postgres[][2];

struct bench_raw {
	struct raw_common c; /* first */
	PGconn *pg;
	const char *sql[R__COUNT];
	int unnamed;
	char payload[64];
};

static void raw_close(struct bench_raw *r)
{
	if (!r)
		return;
	PQfinish(r->pg);
	free(r);
}

/* The DSN without leaseq's own options, which libpq does not know. */
static char *libpq_dsn(const char *dsn)
{
	char *out = strdup(dsn);
	if (!out || (strncmp(dsn, "postgresql://", 13) != 0 && strncmp(dsn, "postgres://", 11) != 0))
		return out;
	char *q = strchr(out, '?');
	if (!q)
		return out;
	char *w = q;
	const char *p = q + 1;
	int first = 1;
	while (*p) {
		size_t n = strcspn(p, "&");
		int ours = (n >= 18 && strncmp(p, "statement_timeout=", 18) == 0) ||
			   (n >= 13 && strncmp(p, "lock_timeout=", 13) == 0) ||
			   (n >= 7 && strncmp(p, "pooler=", 7) == 0) || (n >= 7 && strncmp(p, "notify=", 7) == 0);
		if (!ours && n > 0) {
			*w++ = first ? '?' : '&';
			memmove(w, p, n);
			w += n;
			first = 0;
		}
		p += n + (p[n] == '&');
	}
	*w = '\0';
	return out;
}

static int raw_open(const char *dsn, struct bench_raw **out, char *err, size_t errsize)
{
	*out = NULL;
	struct bench_raw *r = calloc(1, sizeof(*r));
	char *uri = libpq_dsn(dsn);
	if (!r || !uri) {
		free(r);
		free(uri);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	const char *kw[4] = {"fallback_application_name", "dbname", NULL, NULL};
	const char *val[4] = {"leasectl-bench", uri, NULL, NULL};
	if (!getenv("PGCONNECT_TIMEOUT")) {
		kw[2] = "connect_timeout";
		val[2] = "10";
	}
	r->pg = PQconnectdbParams(kw, val, 1);
	free(uri);
	if (!r->pg || PQstatus(r->pg) != CONNECTION_OK) {
		raw_fail(&r->c, "raw postgres: %s", r->pg ? PQerrorMessage(r->pg) : "out of memory");
		snprintf(err, errsize, "%s", r->c.err);
		raw_close(r);
		return -1;
	}
	const char *pooler = strstr(dsn, "pooler=");
	if (pooler && (pooler[-1] == '?' || pooler[-1] == '&'))
		r->unnamed = strncmp(pooler + 7, "transaction", 11) == 0;
	else {
		PGresult *res = PQexec(r->pg, "SELECT pg_backend_pid()");
		r->unnamed = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
			     strtol(PQgetvalue(res, 0, 0), NULL, 10) != (long)PQbackendPID(r->pg);
		PQclear(res);
	}
	for (int i = 0; i < R__COUNT; i++) {
		const char *sql = bench_sql(lc_bench_sql_postgres, raw_stmt_names[i]);
		if (!sql) {
			snprintf(err, errsize, "raw postgres: statement %s is missing", raw_stmt_names[i]);
			raw_close(r);
			return -1;
		}
		r->sql[i] = sql;
		if (r->unnamed)
			continue;
		PGresult *res = PQprepare(r->pg, raw_stmt_names[i], sql, 0, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			raw_fail(&r->c, "raw postgres: prepare %s: %s", raw_stmt_names[i], PQresultErrorMessage(res));
			snprintf(err, errsize, "%s", r->c.err);
			PQclear(res);
			raw_close(r);
			return -1;
		}
		PQclear(res);
	}
	*out = r;
	return 0;
}

/* Run a prepared statement; read its rows as a client would.  A
 * serialization failure or deadlock runs it again. */
static int run(struct bench_raw *r, int which, int n, const char *const *vals, const int *lens, const int *fmts,
	       int64_t *rows, int64_t *changes)
{
	for (int attempt = 0;; attempt++) {
		r->c.statements++;
		PGresult *res = r->unnamed ? PQexecParams(r->pg, r->sql[which], n, NULL, vals, lens, fmts, 0)
					   : PQexecPrepared(r->pg, raw_stmt_names[which], n, vals, lens, fmts, 0);
		ExecStatusType st = PQresultStatus(res);
		if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
			int nt = PQntuples(res);
			for (int i = 0; i < nt; i++) {
				if (i == 0)
					r->c.last_id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
				if (PQnfields(res) >= 3)
					snprintf(r->payload, sizeof(r->payload), "%s", PQgetvalue(res, i, 2));
			}
			if (rows)
				*rows = nt;
			if (changes)
				*changes = strtoll(PQcmdTuples(res), NULL, 10);
			PQclear(res);
			return 0;
		}
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		int again = state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0);
		if (again && attempt < 10) {
			PQclear(res);
			continue;
		}
		raw_fail(&r->c, "%s: %s", raw_stmt_names[which], res ? PQresultErrorMessage(res) : PQerrorMessage(r->pg));
		PQclear(res);
		return -1;
	}
}

static int raw_op(struct bench_raw *r, const struct bench_job *job, struct bench_op *op)
{
	const struct bench_names *n = job->names;
	int64_t rows = 0, changes = 0;
	char num[2][24];
	op->rows = 0;
	op->empty = 0;
	switch (job->w) {
	case BW_CLAIM:
	case BW_CLAIM_RUN:
	case BW_CLAIM_FAIR:
	case BW_CLAIM_RATED: {
		const char *v[1] = {bench_claim_queue(job)};
		if (run(r, R_CLAIM, 1, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		break;
	}
	case BW_RECURRING: {
		const char *v[1] = {n->recurring_queue};
		if (run(r, R_RECURRING, 1, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		break;
	}
	case BW_CLAIM_BATCH:
	case BW_CLAIM_FAIR_BATCH: {
		snprintf(num[0], sizeof(num[0]), "%d", BENCH_BATCH);
		const char *v[2] = {bench_claim_queue(job), num[0]};
		if (run(r, R_CLAIM_BATCH, 2, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		break;
	}
	case BW_CLAIM_ACK:
	case BW_CLAIM_CAPPED: {
		snprintf(num[0], sizeof(num[0]), "%d", BENCH_LEASE_TTL_MS);
		const char *v[3] = {bench_claim_queue(job), job->owner, num[0]};
		if (run(r, R_ACK_CLAIM, 3, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		if (rows == 1) {
			snprintf(num[1], sizeof(num[1]), "%lld", (long long)r->c.last_id);
			const char *a[2] = {num[1], job->owner};
			if (run(r, R_ACK_ACK, 2, a, NULL, NULL, NULL, &changes) != 0)
				return -1;
			if (changes != 1)
				return raw_fail(&r->c, "claim_ack_ack: task %lld was not ours any more", (long long)r->c.last_id);
		}
		break;
	}
	case BW_ENQUEUE: {
		const char *v[2] = {n->enqueue_queue, BENCH_PAYLOAD};
		const int lens[2] = {0, BENCH_PAYLOAD_LEN}, fmts[2] = {0, 1};
		if (run(r, R_ENQUEUE, 2, v, lens, fmts, &rows, NULL) != 0)
			return -1;
		op->rows = rows;
		return 0;
	}
	case BW_ENQUEUE_BATCH: {
		const char *v[3 * BENCH_BATCH];
		int lens[3 * BENCH_BATCH], fmts[3 * BENCH_BATCH];
		for (int i = 0; i < 3 * BENCH_BATCH; i += 3) {
			v[i] = n->enqueue_queue;
			v[i + 1] = "bench";
			v[i + 2] = BENCH_PAYLOAD;
			lens[i] = lens[i + 1] = 0;
			lens[i + 2] = BENCH_PAYLOAD_LEN;
			fmts[i] = fmts[i + 1] = 0;
			fmts[i + 2] = 1;
		}
		if (run(r, R_ENQUEUE_BATCH, 3 * BENCH_BATCH, v, lens, fmts, &rows, NULL) != 0)
			return -1;
		op->rows = rows;
		return 0;
	}
	case BW_LEASE:
	case BW_LEASE_HOT: {
		snprintf(num[0], sizeof(num[0]), "%d", BENCH_LEASE_TTL_MS);
		const char *v[3] = {job->lease, job->owner, num[0]};
		if (run(r, R_LEASE_TAKE, 3, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		if (rows == 1) { /* taken: hand it back */
			snprintf(num[1], sizeof(num[1]), "%lld", (long long)r->c.last_id);
			const char *rel[3] = {job->lease, job->owner, num[1]};
			if (run(r, R_LEASE_RELEASE, 3, rel, NULL, NULL, NULL, &changes) != 0)
				return -1;
			if (changes != 1)
				return raw_fail(&r->c, "lease_release: lease %s was not ours any more", job->lease);
		}
		op->rows = rows;
		return 0;
	}
	case BW_TICK_IDLE: {
		const char *v[1] = {n->idle_queue};
		if (run(r, R_TICK, 1, v, NULL, NULL, &rows, NULL) != 0)
			return -1;
		if (rows != 0)
			return raw_fail(&r->c, "tick_due: a task is due in the idle queue");
		op->rows = 1;
		return 0;
	}
	case BW_E2E_C: /* e2e.c: its raw side is claim-ack */
	case BW_E2E_WORKER:
	case BW__COUNT:
		return raw_fail(&r->c, "unknown workload");
	}
	op->rows = rows;
	op->empty = rows == 0;
	return 0;
}

static int exec_plain(struct bench_raw *r, const char *sql)
{
	r->c.statements++;
	PGresult *res = PQexec(r->pg, sql);
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		raw_fail(&r->c, "%s: %s", sql, res ? PQresultErrorMessage(res) : PQerrorMessage(r->pg));
	PQclear(res);
	return ok ? 0 : -1;
}

/* Without it the claims of one cell walk over the index entries of the rows
 * the cells before deleted: each would start slower than the last. */
static int raw_settle(struct bench_raw *r)
{
	return exec_plain(r, "VACUUM (ANALYZE) lq_task, lq_lease");
}

static int raw_fill(struct bench_raw *r, const char *queue, int64_t n, enum bench_fill kind,
		    const volatile sig_atomic_t *stop)
{
	int64_t done = 0;
	while (done < n) {
		if (exec_plain(r, "BEGIN") != 0)
			return -1;
		/* 100 000 rows per transaction, 10 000 per statement. */
		for (int k = 0; k < 10 && done < n; k++) {
			int64_t chunk = n - done < 10000 ? n - done : 10000;
			char cnt[24], kd[8], every[24];
			if (stop && *stop) {
				exec_plain(r, "ROLLBACK");
				return raw_fail(&r->c, "stopped");
			}
			snprintf(cnt, sizeof(cnt), "%lld", (long long)chunk);
			snprintf(kd, sizeof(kd), "%d", kind == BF_RECURRING ? 0 : (int)kind);
			snprintf(every, sizeof(every), "%d", BENCH_RECURRING_EVERY_MS);
			const char *v[5] = {queue, BENCH_PAYLOAD, cnt, kd, kind == BF_RECURRING ? every : NULL};
			const int lens[5] = {0, BENCH_PAYLOAD_LEN, 0, 0, 0}, fmts[5] = {0, 1, 0, 0, 0};
			if (run(r, R_FILL, 5, v, lens, fmts, NULL, NULL) != 0) {
				char e[sizeof(r->c.err)];
				memcpy(e, r->c.err, sizeof(e));
				exec_plain(r, "ROLLBACK");
				memcpy(r->c.err, e, sizeof(e));
				return -1;
			}
			done += chunk;
		}
		if (exec_plain(r, "COMMIT") != 0)
			return -1;
	}
	return 0;
}

static int clear(struct bench_raw *r, int what, const char *pattern)
{
	const char *v[1] = {pattern};
	return run(r, R_CLEAR_TASKS + what, 1, v, NULL, NULL, NULL, NULL);
}

static int raw_cleanup(struct bench_raw *r, const struct bench_names *names)
{
	return raw_cleanup_each(r, names, clear);
}

const struct bench_raw_ops bench_raw_postgres = {
	.backend = "postgres",
	.open = raw_open,
	.close = raw_close,
	.op = raw_op,
	.fill = raw_fill,
	.settle = raw_settle,
	.cleanup = raw_cleanup,
	.statements = raw_statements,
	.errmsg = raw_errmsg,
};
