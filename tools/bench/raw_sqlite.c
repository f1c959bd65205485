/*
 * raw_sqlite.c - leasectl bench's raw baseline on SQLite: the sqlite3 API
 * with statements prepared once per connection, the same file and the same
 * synchronous setting as leaseq's connection to the DSN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench/raw.h"

extern const char *const lc_bench_sql_sqlite[][2];

struct bench_raw {
	struct raw_common c; /* first */
	sqlite3 *db;
	sqlite3_stmt *s[R__COUNT];
	unsigned char payload[64];
};

static void raw_close(struct bench_raw *r)
{
	if (!r)
		return;
	for (int i = 0; i < R__COUNT; i++)
		sqlite3_finalize(r->s[i]);
	sqlite3_close_v2(r->db);
	free(r);
}

static int raw_open(const char *dsn, struct bench_raw **out, char *err, size_t errsize)
{
	*out = NULL;
	if (strncmp(dsn, "sqlite:", 7) != 0) {
		snprintf(err, errsize, "not a sqlite: DSN");
		return -1;
	}
	const char *path = dsn + 7;
	size_t plen = strcspn(path, "?");
	const char *query = path[plen] == '?' ? path + plen + 1 : "";
	/* leaseq has checked the DSN already: only its one option matters here. */
	const char *sync = strstr(query, "synchronous=normal") ? "normal" : "full";
	char *file = strndup(path, plen);
	struct bench_raw *r = calloc(1, sizeof(*r));
	if (!file || !r) {
		free(file);
		free(r);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	int rc = sqlite3_open_v2(file, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	free(file);
	char pragma[64];
	snprintf(pragma, sizeof(pragma), "PRAGMA synchronous=%s", sync);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(r->db, 10000);
		rc = sqlite3_exec(r->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(r->db, pragma, NULL, NULL, NULL);
	for (int i = 0; i < R__COUNT && rc == SQLITE_OK; i++) {
		const char *sql = bench_sql(lc_bench_sql_sqlite, raw_stmt_names[i]);
		if (!sql) {
			snprintf(err, errsize, "raw sqlite: statement %s is missing", raw_stmt_names[i]);
			raw_close(r);
			return -1;
		}
		rc = sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &r->s[i], NULL);
	}
	if (rc != SQLITE_OK) {
		snprintf(err, errsize, "raw sqlite: %s", r->db ? sqlite3_errmsg(r->db) : sqlite3_errstr(rc));
		raw_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
}

/* Step s to the end, reading each row as a client would: *rows counts them;
 * the first row's first column lands in r->c.last_id.  Busy: start again. */
static int run(struct bench_raw *r, int which, int64_t *rows, int64_t *changes)
{
	sqlite3_stmt *s = r->s[which];
	for (int attempt = 0;; attempt++) {
		int rc;
		int64_t n = 0;
		r->c.statements++;
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			if (n == 0)
				r->c.last_id = sqlite3_column_int64(s, 0);
			int cols = sqlite3_column_count(s);
			if (cols >= 3) {
				int len = sqlite3_column_bytes(s, 2);
				const void *p = sqlite3_column_blob(s, 2);
				if (p && len > 0)
					memcpy(r->payload, p, (size_t)len < sizeof(r->payload) ? (size_t)len : sizeof(r->payload));
			}
			n++;
		}
		sqlite3_reset(s);
		if (rc == SQLITE_DONE) {
			if (rows)
				*rows = n;
			if (changes)
				*changes = sqlite3_changes64(r->db);
			return 0;
		}
		if (((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) && attempt < 100) {
			usleep(1000);
			continue;
		}
		return raw_fail(&r->c, "%s: %s", raw_stmt_names[which], sqlite3_errmsg(r->db));
	}
}

static int raw_op(struct bench_raw *r, const struct bench_job *job, struct bench_op *op)
{
	const struct bench_names *n = job->names;
	sqlite3_stmt *s;
	int64_t rows = 0, changes = 0;
	op->rows = 0;
	op->empty = 0;
	switch (job->w) {
	case BW_CLAIM:
	case BW_CLAIM_RUN:
	case BW_CLAIM_FAIR:
	case BW_CLAIM_RATED:
	case BW_RECURRING: {
		int rec = job->w == BW_RECURRING;
		s = r->s[rec ? R_RECURRING : R_CLAIM];
		bind_text(s, 1, rec ? n->recurring_queue : bench_claim_queue(job));
		if (run(r, rec ? R_RECURRING : R_CLAIM, &rows, NULL) != 0)
			return -1;
		break;
	}
	case BW_CLAIM_BATCH:
	case BW_CLAIM_FAIR_BATCH:
		s = r->s[R_CLAIM_BATCH];
		bind_text(s, 1, bench_claim_queue(job));
		sqlite3_bind_int(s, 2, BENCH_BATCH);
		if (run(r, R_CLAIM_BATCH, &rows, NULL) != 0)
			return -1;
		break;
	case BW_CLAIM_ACK:
	case BW_CLAIM_CAPPED:
		s = r->s[R_ACK_CLAIM];
		bind_text(s, 1, bench_claim_queue(job));
		bind_text(s, 2, job->owner);
		sqlite3_bind_int64(s, 3, BENCH_LEASE_TTL_MS);
		if (run(r, R_ACK_CLAIM, &rows, NULL) != 0)
			return -1;
		if (rows == 1) {
			s = r->s[R_ACK_ACK];
			sqlite3_bind_int64(s, 1, r->c.last_id);
			bind_text(s, 2, job->owner);
			if (run(r, R_ACK_ACK, NULL, &changes) != 0)
				return -1;
			if (changes != 1)
				return raw_fail(&r->c, "claim_ack_ack: task %lld was not ours any more", (long long)r->c.last_id);
		}
		break;
	case BW_ENQUEUE:
		s = r->s[R_ENQUEUE];
		bind_text(s, 1, n->enqueue_queue);
		sqlite3_bind_blob(s, 2, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, SQLITE_STATIC);
		if (run(r, R_ENQUEUE, NULL, &changes) != 0)
			return -1;
		r->c.last_id = sqlite3_last_insert_rowid(r->db);
		op->rows = changes;
		return 0;
	case BW_ENQUEUE_BATCH:
		s = r->s[R_ENQUEUE_BATCH];
		for (int i = 0; i < BENCH_BATCH; i++) {
			bind_text(s, 3 * i + 1, n->enqueue_queue);
			bind_text(s, 3 * i + 2, "bench");
			sqlite3_bind_blob(s, 3 * i + 3, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, SQLITE_STATIC);
		}
		if (run(r, R_ENQUEUE_BATCH, NULL, &changes) != 0)
			return -1;
		r->c.last_id = sqlite3_last_insert_rowid(r->db);
		op->rows = changes;
		return 0;
	case BW_LEASE:
	case BW_LEASE_HOT:
		s = r->s[R_LEASE_TAKE];
		bind_text(s, 1, job->lease);
		bind_text(s, 2, job->owner);
		sqlite3_bind_int64(s, 3, BENCH_LEASE_TTL_MS);
		if (run(r, R_LEASE_TAKE, &rows, NULL) != 0)
			return -1;
		if (rows == 1) { /* taken: hand it back */
			s = r->s[R_LEASE_RELEASE];
			bind_text(s, 1, job->lease);
			bind_text(s, 2, job->owner);
			sqlite3_bind_int64(s, 3, r->c.last_id);
			if (run(r, R_LEASE_RELEASE, NULL, &changes) != 0)
				return -1;
			if (changes != 1)
				return raw_fail(&r->c, "lease_release: lease %s was not ours any more", job->lease);
		}
		op->rows = rows;
		return 0;
	case BW_TICK_IDLE:
		s = r->s[R_TICK];
		bind_text(s, 1, n->idle_queue);
		if (run(r, R_TICK, &rows, NULL) != 0)
			return -1;
		if (rows != 0)
			return raw_fail(&r->c, "tick_due: a task is due in the idle queue");
		op->rows = 1;
		return 0;
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
	if (sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return raw_fail(&r->c, "%s: %s", sql, sqlite3_errmsg(r->db));
	return 0;
}

static int raw_fill(struct bench_raw *r, const char *queue, int64_t n, enum bench_fill kind,
		    const volatile sig_atomic_t *stop)
{
	sqlite3_stmt *s = r->s[R_FILL];
	int64_t done = 0;
	while (done < n) {
		if (exec_plain(r, "BEGIN IMMEDIATE") != 0)
			return -1;
		/* 100 000 rows per transaction, 1000 per statement. */
		for (int k = 0; k < 100 && done < n; k++) {
			int64_t chunk = n - done < 1000 ? n - done : 1000;
			if (stop && *stop) {
				exec_plain(r, "ROLLBACK");
				return raw_fail(&r->c, "stopped");
			}
			bind_text(s, 1, queue);
			sqlite3_bind_blob(s, 2, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, SQLITE_STATIC);
			sqlite3_bind_int64(s, 3, chunk);
			sqlite3_bind_int(s, 4, kind == BF_RECURRING ? 0 : (int)kind);
			if (kind == BF_RECURRING)
				sqlite3_bind_int64(s, 5, BENCH_RECURRING_EVERY_MS);
			else
				sqlite3_bind_null(s, 5);
			if (run(r, R_FILL, NULL, NULL) != 0) {
				sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
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
	bind_text(r->s[R_CLEAR_TASKS + what], 1, pattern);
	return run(r, R_CLEAR_TASKS + what, NULL, NULL);
}

static int raw_cleanup(struct bench_raw *r, const struct bench_names *names)
{
	return raw_cleanup_each(r, names, clear);
}

const struct bench_raw_ops bench_raw_sqlite = {
	.backend = "sqlite",
	.open = raw_open,
	.close = raw_close,
	.op = raw_op,
	.fill = raw_fill,
	.cleanup = raw_cleanup,
	.statements = raw_statements,
	.errmsg = raw_errmsg,
};
