/*
 * raw_mysql.c - leasectl bench's raw baseline on MySQL/MariaDB: the client
 * library's prepared statements (binary protocol), prepared once per
 * connection.  A claim is SELECT ... FOR UPDATE SKIP LOCKED, the write by
 * id, COMMIT: the session runs with autocommit off for the workloads that
 * need a transaction, so no BEGIN is sent, and on for the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bench/raw.h"

extern const char *const lc_bench_sql_mysql[][2];

#if defined(MARIADB_PACKAGE_VERSION_ID) || !defined(MYSQL_VERSION_ID) || MYSQL_VERSION_ID < 80000
typedef my_bool mybool;
#else
typedef bool mybool;
#endif

enum { M_CLAIM_PICK, M_CLAIM_DELETE, M_CLAIM_DELETE_BATCH, M_ACK_PICK, M_ACK_MARK, M_ACK_ACK, M_ENQUEUE,
       M_ENQUEUE_BATCH, M_LEASE_TAKE, M_LEASE_RELEASE, M_TICK, M_REC_PICK, M_REC_MOVE, M_FILL, M_CLEAR_TASKS, M_CLEAR_DEAD,
       M_CLEAR_LEASES, M__COUNT };
static const char *const stmt_names[M__COUNT] = {
	[M_CLAIM_PICK] = "claim_pick",	 [M_CLAIM_DELETE] = "claim_delete", [M_CLAIM_DELETE_BATCH] = "claim_delete_batch",
	[M_ACK_PICK] = "claim_ack_pick", [M_ACK_MARK] = "claim_ack_mark",   [M_ACK_ACK] = "claim_ack_ack",
	[M_ENQUEUE] = "enqueue",	 [M_ENQUEUE_BATCH] = "enqueue_batch", [M_LEASE_TAKE] = "lease_take",	    [M_LEASE_RELEASE] = "lease_release",
	[M_TICK] = "tick_due",		 [M_REC_PICK] = "recurring_pick",   [M_REC_MOVE] = "recurring_move",
	[M_FILL] = "fill",		 [M_CLEAR_TASKS] = "clear_tasks",   [M_CLEAR_DEAD] = "clear_dead",
	[M_CLEAR_LEASES] = "clear_leases",
};

#define ER_LOCK_WAIT_TIMEOUT 1205
#define ER_LOCK_DEADLOCK 1213

struct bench_raw {
	struct raw_common c; /* first */
	MYSQL *my;
	MYSQL_STMT *s[M__COUNT];
	int mode;            /* autocommit chosen for the workload: -1 not yet */
	int64_t ids[BENCH_BATCH];
	int64_t acquisitions;
	char owner[96];
};

/* One bound parameter. */
struct mp {
	enum enum_field_types type; /* MYSQL_TYPE_LONGLONG, _STRING, _BLOB or _NULL */
	const char *s;
	unsigned long len;
	long long i;
};
#define P_INT(v) {MYSQL_TYPE_LONGLONG, NULL, 0, (long long)(v)}
#define P_TEXT(v) {MYSQL_TYPE_STRING, (v), (unsigned long)strlen(v), 0}

static void raw_close(struct bench_raw *r)
{
	if (!r)
		return;
	for (int i = 0; i < M__COUNT; i++)
		if (r->s[i])
			mysql_stmt_close(r->s[i]);
	if (r->my)
		mysql_close(r->my);
	free(r);
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Percent-decode src[0..n) into dst. */
static void pct(const char *src, size_t n, char *dst, size_t size)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < size; i++) {
		if (src[i] == '%' && i + 2 < n && hexval(src[i + 1]) >= 0 && hexval(src[i + 2]) >= 0) {
			dst[o++] = (char)(hexval(src[i + 1]) * 16 + hexval(src[i + 2]));
			i += 2;
		} else {
			dst[o++] = src[i];
		}
	}
	dst[o] = '\0';
}

struct my_dsn {
	char user[128], password[256], host[256], db[128], socket[256];
	unsigned port;
};

/* mysql://user:password@host:port/db?socket=PATH (leaseq has checked it). */
static int parse_dsn(const char *dsn, struct my_dsn *d)
{
	memset(d, 0, sizeof(*d));
	const char *p = strstr(dsn, "://");
	if (!p)
		return -1;
	p += 3;
	const char *q = strchr(p, '?'), *end = q ? q : p + strlen(p);
	const char *slash = memchr(p, '/', (size_t)(end - p)), *hostend = slash ? slash : end, *at = NULL;
	for (const char *s = p; s < hostend; s++)
		if (*s == '@')
			at = s;
	const char *host = p;
	if (at) {
		const char *colon = memchr(p, ':', (size_t)(at - p));
		pct(p, (size_t)((colon ? colon : at) - p), d->user, sizeof(d->user));
		if (colon)
			pct(colon + 1, (size_t)(at - colon - 1), d->password, sizeof(d->password));
		host = at + 1;
	}
	const char *hs = host, *he = hostend, *port = NULL;
	if (*host == '[') {
		const char *rb = memchr(host, ']', (size_t)(hostend - host));
		if (!rb)
			return -1;
		hs = host + 1;
		he = rb;
		if (rb + 1 < hostend && rb[1] == ':')
			port = rb + 2;
	} else if ((port = memchr(host, ':', (size_t)(hostend - host))) != NULL) {
		he = port++;
	}
	pct(hs, (size_t)(he - hs), d->host, sizeof(d->host));
	if (port)
		d->port = (unsigned)strtoul(port, NULL, 10);
	if (slash)
		pct(slash + 1, (size_t)(end - slash - 1), d->db, sizeof(d->db));
	for (const char *o = q ? q + 1 : NULL; o && *o;) {
		size_t n = strcspn(o, "&");
		if (n > 7 && strncmp(o, "socket=", 7) == 0)
			pct(o + 7, n - 7, d->socket, sizeof(d->socket));
		o += n + (o[n] == '&');
	}
	return 0;
}

static int raw_open(const char *dsn, struct bench_raw **out, char *err, size_t errsize)
{
	struct my_dsn d;
	*out = NULL;
	if (parse_dsn(dsn, &d) != 0) {
		snprintf(err, errsize, "raw mysql: cannot read the DSN");
		return -1;
	}
	struct bench_raw *r = calloc(1, sizeof(*r));
	if (!r || !(r->my = mysql_init(NULL))) {
		explicit_bzero(d.password, sizeof(d.password));
		free(r);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	r->mode = -1;
	unsigned timeout = 10;
	mybool no = 0;
	mysql_options(r->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(r->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(r->my, MYSQL_REPORT_DATA_TRUNCATION, &no);
	if (d.socket[0]) {
		unsigned proto = MYSQL_PROTOCOL_SOCKET;
		mysql_options(r->my, MYSQL_OPT_PROTOCOL, &proto);
	}
	/* No CLIENT_FOUND_ROWS: lease_take reads insert / take / held from
	 * the affected rows. */
	MYSQL *ok = mysql_real_connect(r->my, d.host[0] ? d.host : NULL, d.user[0] ? d.user : NULL,
				       d.password[0] ? d.password : NULL, d.db, d.port, d.socket[0] ? d.socket : NULL, 0);
	explicit_bzero(d.password, sizeof(d.password));
	const char *setup[] = {
		"SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE,"
		"ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00', autocommit = 1",
		"SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
	};
	for (size_t i = 0; ok && i < sizeof(setup) / sizeof(setup[0]); i++)
		if (mysql_query(r->my, setup[i]) != 0)
			ok = NULL;
	for (int i = 0; ok && i < M__COUNT; i++) {
		const char *sql = bench_sql(lc_bench_sql_mysql, stmt_names[i]);
		if (!sql) {
			snprintf(err, errsize, "raw mysql: statement %s is missing", stmt_names[i]);
			raw_close(r);
			return -1;
		}
		if (!(r->s[i] = mysql_stmt_init(r->my)))
			ok = NULL;
		else if (mysql_stmt_prepare(r->s[i], sql, strlen(sql)) != 0) {
			raw_fail(&r->c, "raw mysql: prepare %s: %s", stmt_names[i], mysql_stmt_error(r->s[i]));
			snprintf(err, errsize, "%s", r->c.err);
			raw_close(r);
			return -1;
		}
	}
	if (!ok) {
		raw_fail(&r->c, "raw mysql: %s (error %u)", mysql_error(r->my), mysql_errno(r->my));
		snprintf(err, errsize, "%s", r->c.err);
		raw_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* A failure the whole transaction should be run again for. */
static int retryable(unsigned e)
{
	return e == ER_LOCK_DEADLOCK || e == ER_LOCK_WAIT_TIMEOUT;
}

/* Execute stmt which with p[0..n); fetch its rows as a client would (ids
 * into r->ids).  -1 with r->c.err, or -2 for a retryable failure. */
static int run(struct bench_raw *r, int which, const struct mp *p, int n, int64_t *rows, int64_t *changes)
{
	MYSQL_STMT *st = r->s[which];
	MYSQL_BIND b[3 * BENCH_BATCH]; /* enqueue_batch binds the most */
	memset(b, 0, sizeof(b[0]) * (size_t)n);
	for (int i = 0; i < n; i++) {
		b[i].buffer_type = p[i].type;
		if (p[i].type == MYSQL_TYPE_LONGLONG) {
			b[i].buffer = (void *)&p[i].i;
		} else if (p[i].type != MYSQL_TYPE_NULL) {
			b[i].buffer = (void *)p[i].s;
			b[i].buffer_length = p[i].len;
			b[i].length = (unsigned long *)&p[i].len;
		}
	}
	r->c.statements++;
	if ((n && mysql_stmt_bind_param(st, b) != 0) || mysql_stmt_execute(st) != 0) {
		unsigned e = mysql_stmt_errno(st);
		raw_fail(&r->c, "%s: %s (error %u)", stmt_names[which], mysql_stmt_error(st), e);
		return retryable(e) ? -2 : -1;
	}
	int64_t nrows = 0;
	unsigned cols = mysql_stmt_field_count(st);
	if (cols > 0) {
		long long id = 0;
		char text[3][256];
		unsigned long len[4];
		MYSQL_BIND rb[4];
		memset(rb, 0, sizeof(rb));
		rb[0].buffer_type = MYSQL_TYPE_LONGLONG;
		rb[0].buffer = &id;
		rb[0].length = &len[0];
		for (unsigned i = 1; i < cols && i < 4; i++) {
			rb[i].buffer_type = MYSQL_TYPE_BLOB;
			rb[i].buffer = text[i - 1];
			rb[i].buffer_length = sizeof(text[i - 1]);
			rb[i].length = &len[i];
		}
		if (mysql_stmt_bind_result(st, rb) != 0)
			return raw_fail(&r->c, "%s: %s", stmt_names[which], mysql_stmt_error(st));
		int rc;
		while ((rc = mysql_stmt_fetch(st)) == 0 || rc == MYSQL_DATA_TRUNCATED) {
			if (nrows < BENCH_BATCH)
				r->ids[nrows] = id;
			nrows++;
		}
		if (rc != MYSQL_NO_DATA) {
			unsigned e = mysql_stmt_errno(st);
			raw_fail(&r->c, "%s: %s (error %u)", stmt_names[which], mysql_stmt_error(st), e);
			mysql_stmt_free_result(st);
			return retryable(e) ? -2 : -1;
		}
		mysql_stmt_free_result(st);
		r->c.last_id = nrows ? r->ids[0] : 0;
	}
	if (rows)
		*rows = nrows;
	if (changes)
		*changes = (int64_t)mysql_stmt_affected_rows(st);
	return 0;
}

static int query(struct bench_raw *r, const char *sql)
{
	r->c.statements++;
	if (mysql_query(r->my, sql) != 0) {
		unsigned e = mysql_errno(r->my);
		raw_fail(&r->c, "%s: %s (error %u)", sql, mysql_error(r->my), e);
		return retryable(e) ? -2 : -1;
	}
	return 0;
}

static int commit(struct bench_raw *r)
{
	return query(r, "COMMIT");
}

/* Pick up to want due tasks of queue (locked), then write them by id. */
static int claim(struct bench_raw *r, int pick, const char *queue, int want, struct bench_op *op)
{
	int64_t rows = 0, changes = 0;
	struct mp p[BENCH_BATCH] = {P_TEXT(queue), P_INT(want)};
	int rc = run(r, pick, p, pick == M_CLAIM_PICK ? 2 : 1, &rows, NULL);
	if (rc == 0 && rows > 0) {
		if (pick == M_CLAIM_PICK && want > 1) {
			for (int i = 0; i < BENCH_BATCH; i++)
				p[i] = (struct mp)P_INT(r->ids[i < rows ? i : 0]);
			rc = run(r, M_CLAIM_DELETE_BATCH, p, BENCH_BATCH, NULL, &changes);
		} else if (pick == M_CLAIM_PICK || pick == M_REC_PICK) {
			p[0] = (struct mp)P_INT(r->ids[0]);
			rc = run(r, pick == M_CLAIM_PICK ? M_CLAIM_DELETE : M_REC_MOVE, p, 1, NULL, &changes);
		} else { /* claim-ack */
			struct mp m[3] = {P_TEXT(r->owner), P_INT(BENCH_LEASE_TTL_MS), P_INT(r->ids[0])};
			rc = run(r, M_ACK_MARK, m, 3, NULL, &changes);
		}
		if (rc == 0 && changes != rows)
			rc = raw_fail(&r->c, "%s: %lld of %lld locked rows written", stmt_names[pick], (long long)changes,
				      (long long)rows);
	}
	if (rc == 0)
		rc = commit(r);
	if (rc == 0 && pick == M_ACK_PICK && rows == 1) {
		struct mp a[2] = {P_INT(r->c.last_id), P_TEXT(r->owner)};
		rc = run(r, M_ACK_ACK, a, 2, NULL, &changes);
		if (rc == 0 && changes != 1)
			rc = raw_fail(&r->c, "claim_ack_ack: task %lld was not ours any more", (long long)r->c.last_id);
		if (rc == 0)
			rc = commit(r);
	}
	op->rows = rows;
	op->empty = rows == 0;
	return rc;
}

static int op_once(struct bench_raw *r, const struct bench_job *job, struct bench_op *op)
{
	const struct bench_names *n = job->names;
	int64_t rows = 0, changes = 0;
	int rc;
	switch (job->w) {
	case BW_CLAIM:
	case BW_CLAIM_RUN:
	case BW_CLAIM_FAIR:
	case BW_CLAIM_RATED:
		return claim(r, M_CLAIM_PICK, bench_claim_queue(job), 1, op);
	case BW_CLAIM_BATCH:
	case BW_CLAIM_FAIR_BATCH:
		return claim(r, M_CLAIM_PICK, bench_claim_queue(job), BENCH_BATCH, op);
	case BW_CLAIM_ACK:
	case BW_CLAIM_CAPPED:
		return claim(r, M_ACK_PICK, bench_claim_queue(job), 1, op);
	case BW_RECURRING:
		return claim(r, M_REC_PICK, n->recurring_queue, 1, op);
	case BW_ENQUEUE: {
		struct mp p[2] = {P_TEXT(n->enqueue_queue), {MYSQL_TYPE_BLOB, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, 0}};
		if ((rc = run(r, M_ENQUEUE, p, 2, NULL, &changes)) != 0)
			return rc;
		r->c.last_id = (int64_t)mysql_stmt_insert_id(r->s[M_ENQUEUE]);
		op->rows = changes;
		return 0;
	}
	case BW_ENQUEUE_BATCH: {
		struct mp p[3 * BENCH_BATCH];
		for (int i = 0; i < 3 * BENCH_BATCH; i += 3) {
			p[i] = (struct mp)P_TEXT(n->enqueue_queue);
			p[i + 1] = (struct mp)P_TEXT("bench");
			p[i + 2] = (struct mp){MYSQL_TYPE_BLOB, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, 0};
		}
		if ((rc = run(r, M_ENQUEUE_BATCH, p, 3 * BENCH_BATCH, NULL, &changes)) != 0)
			return rc;
		r->c.last_id = (int64_t)mysql_stmt_insert_id(r->s[M_ENQUEUE_BATCH]);
		op->rows = changes;
		return 0;
	}
	case BW_LEASE:
	case BW_LEASE_HOT: {
		/* An owner per acquisition: the release cannot free a later one. */
		snprintf(r->owner, sizeof(r->owner), "%s:%lld", job->owner, (long long)++r->acquisitions);
		struct mp p[3] = {P_TEXT(job->lease), P_TEXT(r->owner), P_INT(BENCH_LEASE_TTL_MS)};
		if ((rc = run(r, M_LEASE_TAKE, p, 3, NULL, &changes)) != 0)
			return rc;
		int64_t token = changes == 2 ? (int64_t)mysql_stmt_insert_id(r->s[M_LEASE_TAKE]) : 1;
		if ((changes == 1 || changes == 2) && token < 1)
			return raw_fail(&r->c, "lease_take: lease %s taken without its token", job->lease);
		if (changes == 1 || changes == 2) {
			struct mp rel[2] = {P_TEXT(job->lease), P_TEXT(r->owner)};
			if ((rc = run(r, M_LEASE_RELEASE, rel, 2, NULL, &rows)) != 0)
				return rc;
			if (rows != 1)
				return raw_fail(&r->c, "lease_release: lease %s was not ours any more", job->lease);
			op->rows = 1;
		}
		return 0;
	}
	case BW_TICK_IDLE: {
		struct mp p[1] = {P_TEXT(n->idle_queue)};
		if ((rc = run(r, M_TICK, p, 1, &rows, NULL)) != 0)
			return rc;
		if (rows != 0)
			return raw_fail(&r->c, "tick_due: a task is due in the idle queue");
		op->rows = 1;
		return 0;
	}
	case BW_E2E_C: /* e2e.c: its raw side is claim-ack */
	case BW_E2E_WORKER:
	case BW__COUNT:
		break;
	}
	return raw_fail(&r->c, "unknown workload");
}

static int raw_op(struct bench_raw *r, const struct bench_job *job, struct bench_op *op)
{
	if (r->mode < 0) {
		/* The claims are transactions: autocommit off spares a BEGIN. */
		r->mode = bench_workloads[job->w].claims || job->w == BW_RECURRING ? 0 : 1;
		if (query(r, r->mode ? "SET autocommit = 1" : "SET autocommit = 0") != 0)
			return -1;
		snprintf(r->owner, sizeof(r->owner), "%s", job->owner);
	}
	for (int attempt = 0;; attempt++) {
		op->rows = 0;
		op->empty = 0;
		int rc = op_once(r, job, op);
		if (rc != -2 || attempt >= 10)
			return rc == 0 ? 0 : -1;
		/* A lock wait time-out rolls back only the statement. */
		mysql_rollback(r->my);
	}
}

static int raw_fill(struct bench_raw *r, const char *queue, int64_t n, enum bench_fill kind,
		    const volatile sig_atomic_t *stop)
{
	int64_t done = 0;
	int kd = kind == BF_RECURRING ? 0 : (int)kind;
	while (done < n) {
		if (query(r, "START TRANSACTION") != 0)
			return -1;
		/* 100 000 rows per transaction, 1000 per statement (MySQL's
		 * default cte_max_recursion_depth). */
		for (int k = 0; k < 100 && done < n; k++) {
			int64_t chunk = n - done < 1000 ? n - done : 1000;
			if (stop && *stop) {
				mysql_rollback(r->my);
				return raw_fail(&r->c, "stopped");
			}
			struct mp p[6] = {P_INT(chunk),
					  P_TEXT(queue),
					  {MYSQL_TYPE_BLOB, BENCH_PAYLOAD, BENCH_PAYLOAD_LEN, 0},
					  P_INT(kd),
					  P_INT(kd),
					  P_INT(BENCH_RECURRING_EVERY_MS)};
			if (kind != BF_RECURRING)
				p[5].type = MYSQL_TYPE_NULL;
			if (run(r, M_FILL, p, 6, NULL, NULL) != 0) {
				char e[sizeof(r->c.err)];
				memcpy(e, r->c.err, sizeof(e));
				mysql_rollback(r->my);
				memcpy(r->c.err, e, sizeof(e));
				return -1;
			}
			done += chunk;
		}
		if (commit(r) != 0)
			return -1;
	}
	return 0;
}

static int clear(struct bench_raw *r, int what, const char *pattern)
{
	struct mp p[1] = {P_TEXT(pattern)};
	return run(r, M_CLEAR_TASKS + what, p, 1, NULL, NULL) == 0 ? 0 : -1;
}

static int raw_cleanup(struct bench_raw *r, const struct bench_names *names)
{
	return raw_cleanup_each(r, names, clear);
}

const struct bench_raw_ops bench_raw_mysql = {
	.backend = "mysql",
	.open = raw_open,
	.close = raw_close,
	.op = raw_op,
	.fill = raw_fill,
	.cleanup = raw_cleanup,
	.statements = raw_statements,
	.errmsg = raw_errmsg,
};
