/*
 * fault_tool.c - the pieces of the process-level fault suite (tests/fault/)
 * that need a database connection of their own:
 *
 *   fault_tool setup                 create the ledger tables (idempotent)
 *   fault_tool enqueue QUEUE N ALO   enqueue N tasks "job", record their ids
 *   fault_tool handler               a task handler for `leasectl worker`:
 *                                    ledger row "started" (committed first),
 *                                    sleep FAULT_WORK_MS, then "ended"
 *   fault_tool fence NAME HOLDER N MS   an `exec` child: N fenced writes with
 *                                    $LEASEQ_FENCING_TOKEN, MS apart
 *   fault_tool fence-init NAME       the fenced resource NAME (last_token 0)
 *   fault_tool event KIND            a fault happened now (database clock)
 *   fault_tool killconns LOGFILE     kill every other connection of this
 *                                    database (PostgreSQL, MariaDB), log them
 *   fault_tool started            print the number of ledger rows of this run
 *   fault_tool drive QUEUE alo|amo LOG   a worker loop on the public API that
 *                                    logs every operation (JSON lines)
 *   fault_tool rm N                remove up to N random live tasks (recorded)
 *   fault_tool lockhold MS         hold the claimers' locks for MS, roll back
 *   fault_tool purge              delete this run's rows from the fault_* tables
 *   fault_tool live QUEUE            print the number of live tasks of QUEUE
 *   fault_tool check QUEUE MODE      the checker (MODE alo | amo | fence)
 *
 * Environment: FAULT_DSN_FILE (a file holding the DSN: a handler's
 * environment never carries the password), FAULT_RUN (this run's number:
 * every ledger row carries it, the tables are shared between runs),
 * FAULT_WORKER, FAULT_WORK_MS.
 *
 * Values in the SQL are bound parameters on SQLite and PostgreSQL; on MariaDB
 * they are int64 values this program formats itself (no text from outside
 * ever reaches a statement), which spares the prepared-statement API.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>
#ifdef LEASEQ_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#ifdef LEASEQ_HAVE_MYSQL
#include <mysql.h>
#endif

#include "backend/backend.h" /* lq__dsn_parse_url, for the MariaDB DSN */
#include "leaseq.h"

enum kind { K_SQLITE, K_PG, K_MY };

struct fdb {
	enum kind kind;
	char dsn[2048];
	sqlite3 *sl;
#ifdef LEASEQ_HAVE_POSTGRES
	PGconn *pg;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	MYSQL *my;
#endif
	char err[512];
	int64_t affected;
};

typedef void (*row_fn)(void *ctx, char **cols, int n);

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fault_tool: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void sleep_ms(int64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int64_t env_i64(const char *name, int64_t dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtoll(v, NULL, 10) : dflt;
}

static void read_dsn(char *buf, size_t size)
{
	const char *path = getenv("FAULT_DSN_FILE");
	FILE *f;
	size_t n;

	if (!path || !(f = fopen(path, "r")))
		die("FAULT_DSN_FILE must name a readable file holding the DSN");
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
}

/* ------------------------------------------------------------ connections */

static void fdb_close(struct fdb *d)
{
	if (d->sl)
		sqlite3_close(d->sl);
	d->sl = NULL;
#ifdef LEASEQ_HAVE_POSTGRES
	if (d->pg)
		PQfinish(d->pg);
	d->pg = NULL;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (d->my)
		mysql_close(d->my);
	d->my = NULL;
#endif
}

static int fdb_open(struct fdb *d)
{
	d->err[0] = '\0';
	if (!strncmp(d->dsn, "sqlite:", 7)) {
		d->kind = K_SQLITE;
		if (sqlite3_open_v2(d->dsn + 7, &d->sl, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
			snprintf(d->err, sizeof d->err, "sqlite open: %s", d->sl ? sqlite3_errmsg(d->sl) : "?");
			fdb_close(d);
			return -1;
		}
		sqlite3_busy_timeout(d->sl, 30000);
		return 0;
	}
#ifdef LEASEQ_HAVE_POSTGRES
	if (!strncmp(d->dsn, "postgres", 8)) {
		d->kind = K_PG;
		d->pg = PQconnectdb(d->dsn);
		if (PQstatus(d->pg) != CONNECTION_OK) {
			snprintf(d->err, sizeof d->err, "postgres connect: %s", PQerrorMessage(d->pg));
			fdb_close(d);
			return -1;
		}
		/* the ledger must survive a server crash even where the test
		 * server runs with synchronous_commit=off */
		PQclear(PQexec(d->pg, "SET synchronous_commit = on"));
		return 0;
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (!strncmp(d->dsn, "mysql:", 6) || !strncmp(d->dsn, "mariadb:", 8)) {
		lq_dsn_url u;
		lq_err e;
		char sock[512];
		int has_sock;
		unsigned timeout = 10;

		d->kind = K_MY;
		if (lq__dsn_parse_url(d->dsn, &u, &e) != LQ_OK)
			die("bad DSN: %s", e.msg);
		has_sock = lq__dsn_query_get(u.query, "socket", sock, sizeof sock);
		d->my = mysql_init(NULL);
		mysql_options(d->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		if (!mysql_real_connect(d->my, has_sock ? NULL : u.host, u.user, u.password, u.dbname,
					(unsigned)u.port, has_sock ? sock : NULL, CLIENT_FOUND_ROWS)) {
			snprintf(d->err, sizeof d->err, "mysql connect: %s", mysql_error(d->my));
			fdb_close(d);
			return -1;
		}
		return 0;
	}
#endif
	die("unsupported DSN scheme");
	return -1;
}

/* sql with "?" placeholders and @NOW (database clock, epoch ms), @AUTO (an
 * auto-increment primary key) in this dialect; p[] inlined on MariaDB. */
static void dialect(const struct fdb *d, const char *sql, const int64_t *p, int np, char *out, size_t size)
{
	size_t o = 0;
	int k = 0;

	for (const char *s = sql; *s && o + 120 < size; s++) {
		if (!strncmp(s, "@NOW", 4)) {
			const char *now = d->kind == K_SQLITE ? "CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)"
					  : d->kind == K_PG ? "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint"
							    : "CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
			o += (size_t)snprintf(out + o, size - o, "%s", now);
			s += 3;
		} else if (!strncmp(s, "@AUTO", 5)) {
			const char *a = d->kind == K_SQLITE ? "INTEGER PRIMARY KEY AUTOINCREMENT"
					: d->kind == K_PG ? "BIGSERIAL PRIMARY KEY"
							  : "BIGINT AUTO_INCREMENT PRIMARY KEY";
			o += (size_t)snprintf(out + o, size - o, "%s", a);
			s += 4;
		} else if (*s == '?' && d->kind == K_PG) {
			o += (size_t)snprintf(out + o, size - o, "$%d", ++k);
		} else if (*s == '?' && d->kind == K_MY) {
			if (k >= np)
				die("internal: too few parameters for %s", sql);
			o += (size_t)snprintf(out + o, size - o, "%" PRId64, p[k++]);
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

/* Run one statement; rows (as text) to fn.  0 ok, -1 error (d->err). */
static int fq(struct fdb *d, const char *sql, const int64_t *p, int np, row_fn fn, void *ctx)
{
	char text[4096];

	d->affected = 0;
	d->err[0] = '\0';
	if (!d->sl
#ifdef LEASEQ_HAVE_POSTGRES
	    && !d->pg
#endif
#ifdef LEASEQ_HAVE_MYSQL
	    && !d->my
#endif
	    && fdb_open(d) != 0)
		return -1;
	dialect(d, sql, p, np, text, sizeof text);
	if (d->kind == K_SQLITE) {
		sqlite3_stmt *st;
		int rc;
		if (sqlite3_prepare_v2(d->sl, text, -1, &st, NULL) != SQLITE_OK) {
			snprintf(d->err, sizeof d->err, "%s", sqlite3_errmsg(d->sl));
			return -1;
		}
		for (int i = 0; i < np; i++)
			sqlite3_bind_int64(st, i + 1, p[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int n = sqlite3_column_count(st);
			char *cols[32];
			for (int i = 0; i < n && i < 32; i++)
				cols[i] = (char *)sqlite3_column_text(st, i);
			if (fn)
				fn(ctx, cols, n);
		}
		if (rc != SQLITE_DONE) {
			snprintf(d->err, sizeof d->err, "%s", sqlite3_errmsg(d->sl));
			sqlite3_finalize(st);
			return -1;
		}
		d->affected = sqlite3_changes(d->sl);
		sqlite3_finalize(st);
		return 0;
	}
#ifdef LEASEQ_HAVE_POSTGRES
	if (d->kind == K_PG) {
		char vals[16][24];
		const char *pv[16];
		PGresult *r;
		for (int i = 0; i < np && i < 16; i++) {
			snprintf(vals[i], sizeof vals[i], "%" PRId64, p[i]);
			pv[i] = vals[i];
		}
		r = PQexecParams(d->pg, text, np, NULL, pv, NULL, NULL, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
			snprintf(d->err, sizeof d->err, "%s", PQerrorMessage(d->pg));
			PQclear(r);
			if (PQstatus(d->pg) != CONNECTION_OK)
				fdb_close(d);
			return -1;
		}
		for (int row = 0; fn && row < PQntuples(r); row++) {
			int n = PQnfields(r);
			char *cols[32];
			for (int i = 0; i < n && i < 32; i++)
				cols[i] = PQgetisnull(r, row, i) ? NULL : PQgetvalue(r, row, i);
			fn(ctx, cols, n);
		}
		d->affected = strtoll(PQcmdTuples(r), NULL, 10);
		PQclear(r);
		return 0;
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (d->kind == K_MY) {
		MYSQL_RES *res;
		MYSQL_ROW row;
		if (mysql_query(d->my, text) != 0) {
			unsigned e = mysql_errno(d->my);
			snprintf(d->err, sizeof d->err, "%s", mysql_error(d->my));
			if (e == 2006 || e == 2013 || e == 1927 || e == 2026)
				fdb_close(d); /* gone: reconnect next time */
			return -1;
		}
		res = mysql_store_result(d->my);
		if (res) {
			unsigned n = mysql_num_fields(res);
			while ((row = mysql_fetch_row(res)))
				if (fn)
					fn(ctx, row, (int)n);
			mysql_free_result(res);
		}
		d->affected = (int64_t)mysql_affected_rows(d->my);
		return 0;
	}
#endif
	return -1;
}

/* A write that must happen: retried over reconnects for up to ~60 s.  Only
 * for statements that are harmless to repeat. */
static void fq_must(struct fdb *d, const char *sql, const int64_t *p, int np)
{
	for (int i = 0; i < 600; i++) {
		if (fq(d, sql, p, np, NULL, NULL) == 0)
			return;
		fdb_close(d);
		sleep_ms(100);
	}
	die("giving up on '%s': %s", sql, d->err);
}

static void get_i64(void *ctx, char **cols, int n)
{
	if (n > 0 && cols[0])
		*(int64_t *)ctx = strtoll(cols[0], NULL, 10);
}

static void open_env(struct fdb *d)
{
	memset(d, 0, sizeof *d);
	read_dsn(d->dsn, sizeof d->dsn);
	for (int i = 0; i < 300 && fdb_open(d) != 0; i++)
		sleep_ms(100);
	if (!d->sl
#ifdef LEASEQ_HAVE_POSTGRES
	    && !d->pg
#endif
#ifdef LEASEQ_HAVE_MYSQL
	    && !d->my
#endif
	)
		die("cannot connect: %s", d->err);
}

/* ------------------------------------------------------------ commands */

static int cmd_setup(struct fdb *d)
{
	static const char *const ddl[] = {
		"CREATE TABLE IF NOT EXISTS fault_ledger (id @AUTO, run BIGINT NOT NULL, nonce BIGINT NOT NULL,"
		" task_id BIGINT NOT NULL, occurrence BIGINT NOT NULL, worker BIGINT NOT NULL,"
		" token BIGINT NOT NULL, started BIGINT NOT NULL, ended BIGINT, UNIQUE (run, nonce))",
		"CREATE TABLE IF NOT EXISTS fault_fence (run BIGINT NOT NULL, name BIGINT NOT NULL,"
		" last_token BIGINT NOT NULL, PRIMARY KEY (run, name))",
		"CREATE TABLE IF NOT EXISTS fault_fence_log (id @AUTO, run BIGINT NOT NULL, name BIGINT NOT NULL,"
		" holder BIGINT NOT NULL, token BIGINT NOT NULL, accepted INT NOT NULL, at BIGINT NOT NULL)",
		"CREATE TABLE IF NOT EXISTS fault_enqueued (run BIGINT NOT NULL, task_id BIGINT NOT NULL,"
		" PRIMARY KEY (run, task_id))",
		"CREATE TABLE IF NOT EXISTS fault_removed (run BIGINT NOT NULL, task_id BIGINT NOT NULL,"
		" PRIMARY KEY (run, task_id))",
		"CREATE TABLE IF NOT EXISTS fault_event (id @AUTO, run BIGINT NOT NULL, kind BIGINT NOT NULL,"
		" at BIGINT NOT NULL)",
	};
	for (size_t i = 0; i < sizeof ddl / sizeof *ddl; i++)
		if (fq(d, ddl[i], NULL, 0, NULL, NULL) != 0)
			die("setup: %s", d->err);
	return 0;
}

static int cmd_enqueue(const char *dsn, const char *queue, int64_t n, int alo, int64_t run)
{
	lq_db *db;
	struct fdb d;
	lq_task_opts o = LQ_TASK_OPTS_INIT;

	open_env(&d);
	if (lq_open(dsn, &db) != LQ_OK)
		die("enqueue: cannot open the queue");
	o.queue = queue;
	/* at-least-once: enough attempts that kills never make a task dead */
	o.max_attempts = alo ? 50 : 3;
	/* FAULT_ENQUEUE_RETRY=1 (an enqueuer through a failover): a lost
	 * connection is retried, an unknown outcome is not recorded (the
	 * caller was not told the task exists), the record is retried. */
	int retry = env_i64("FAULT_ENQUEUE_RETRY", 0) != 0;
	for (int64_t i = 0; i < n; i++) {
		int64_t id = 0;
		lq_status st;
		for (int tries = 0; (st = lq_task_add(db, "job", &o, &id, NULL)) == LQ_ECONN && retry && tries < 300;
		     tries++)
			sleep_ms(100);
		if (st == LQ_EUNKNOWN && retry) {
			fprintf(stderr, "enqueue: outcome unknown, not recorded: %s\n", lq_errmsg(db));
			continue;
		}
		if (st != LQ_OK)
			die("enqueue: %s", lq_errmsg(db));
		int64_t p[2] = {run, id};
		if (!retry) {
			fq_must(&d, "INSERT INTO fault_enqueued (run, task_id) VALUES (?, ?)", p, 2);
			continue;
		}
		for (int tries = 0; fq(&d, "INSERT INTO fault_enqueued (run, task_id) VALUES (?, ?)", p, 2, NULL, NULL) != 0;
		     tries++) {
			if (tries > 300)
				die("enqueue: %s", d.err);
			fdb_close(&d);
			sleep_ms(100);
		}
	}
	lq_close(db);
	fdb_close(&d);
	return 0;
}

static int cmd_handler(void)
{
	struct fdb d;
	int64_t run = env_i64("FAULT_RUN", 0), id = env_i64("LEASEQ_TASK_ID", 0);
	int64_t occ = env_i64("LEASEQ_TASK_RUN_AT", 0), worker = env_i64("FAULT_WORKER", 0);
	int64_t attempt = env_i64("LEASEQ_TASK_ATTEMPT", 0), work = env_i64("FAULT_WORK_MS", 50);
	int64_t nonce;
	struct timespec ts;

	if (!id)
		die("handler: LEASEQ_TASK_ID is not set");
	clock_gettime(CLOCK_REALTIME, &ts);
	/* unique per invocation, so a retried insert after a lost answer
	 * never records a second start */
	nonce = ((int64_t)getpid() << 32) ^ (int64_t)ts.tv_nsec ^ ((int64_t)ts.tv_sec << 20);
	open_env(&d);
	{
		int64_t p[6] = {run, nonce, id, occ, worker, attempt};
		const char *ins = d.kind == K_SQLITE ? "INSERT OR IGNORE" : d.kind == K_PG ? "INSERT" : "INSERT IGNORE";
		char sql[400];
		snprintf(sql, sizeof sql,
			 "%s INTO fault_ledger (run, nonce, task_id, occurrence, worker, token, started)"
			 " VALUES (?, ?, ?, ?, ?, ?, @NOW)%s",
			 ins, d.kind == K_PG ? " ON CONFLICT DO NOTHING" : "");
		fq_must(&d, sql, p, 6);
	}
	sleep_ms(work);
	{
		int64_t p[2] = {run, nonce};
		fq_must(&d, "UPDATE fault_ledger SET ended = @NOW WHERE run = ? AND nonce = ?", p, 2);
		if (d.affected != 1) /* the start row was lost: fail, so the task runs again */
			die("handler: the ledger lost the start of task %" PRId64, id);
	}
	fdb_close(&d);
	return 0;
}

static int fence_write(struct fdb *d, int64_t run, int64_t name, int64_t holder, int64_t token, int *accepted)
{
	int64_t p[4] = {token, run, name, token};
	const char *begin = d->kind == K_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN";

	if (fq(d, begin, NULL, 0, NULL, NULL) != 0)
		return -1;
	if (fq(d, "UPDATE fault_fence SET last_token = ? WHERE run = ? AND name = ? AND last_token <= ?", p, 4, NULL,
	       NULL) != 0)
		goto fail;
	*accepted = d->affected == 1;
	{
		int64_t q[5] = {run, name, holder, token, *accepted};
		if (fq(d, "INSERT INTO fault_fence_log (run, name, holder, token, accepted, at) VALUES (?, ?, ?, ?, ?, @NOW)",
		       q, 5, NULL, NULL) != 0)
			goto fail;
	}
	if (fq(d, "COMMIT", NULL, 0, NULL, NULL) != 0)
		goto fail;
	return 0;
fail:
	fq(d, "ROLLBACK", NULL, 0, NULL, NULL);
	fdb_close(d);
	return -1;
}

static int cmd_fence(int64_t name, int64_t holder, int64_t n, int64_t ms)
{
	struct fdb d;
	int64_t run = env_i64("FAULT_RUN", 0), token = env_i64("LEASEQ_FENCING_TOKEN", 0);
	int refused = 0;
	const char *pidfile = getenv("FAULT_PIDFILE");

	if (!token)
		die("fence: LEASEQ_FENCING_TOKEN is not set");
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	open_env(&d);
	for (int64_t i = 0; i < n; i++) {
		int acc = 0;
		int tries = 0;
		while (fence_write(&d, run, name, holder, token, &acc) != 0) {
			if (++tries > 300)
				die("fence: %s", d.err);
			sleep_ms(100);
		}
		if (!acc)
			refused++;
		printf("%s token %" PRId64 "\n", acc ? "accepted" : "refused", token);
		fflush(stdout);
		sleep_ms(ms);
	}
	fdb_close(&d);
	return refused ? 2 : 0;
}

/* killconns: the victims' ids, each logged with what it was doing */
struct victims {
	int64_t ids[256];
	int n;
	FILE *log;
};

static void victim_row(void *ctx, char **c, int n)
{
	struct victims *v = ctx;

	if (n < 5)
		return;
	if (v->n < 256)
		v->ids[v->n++] = strtoll(c[0] ? c[0] : "0", NULL, 10);
	for (char *q = c[3]; q && *q; q++) /* one line per victim */
		if (*q == '\n' || *q == '\r' || *q == '\t')
			*q = ' ';
	fprintf(v->log, "kill at=%s id=%s app=%s state=%s stmt=%s\n", c[4] ? c[4] : "", c[0] ? c[0] : "",
		c[1] ? c[1] : "", c[2] ? c[2] : "", c[3] ? c[3] : "");
}

static int cmd_killconns(struct fdb *d, const char *logpath)
{
	struct victims v = {{0}, 0, NULL};
	/* PostgreSQL terminates in the SELECT itself; MariaDB needs a KILL each */
	const char *sel = d->kind == K_PG
				  ? "SELECT pid, application_name, state, left(query, 160), @NOW, pg_terminate_backend(pid)"
				    " FROM pg_stat_activity WHERE datname = current_database()"
				    " AND usename = current_user AND pid <> pg_backend_pid()"
				  : "SELECT id, host, command, left(coalesce(info, ''), 160), @NOW"
				    " FROM information_schema.processlist WHERE db = database()"
				    " AND user = substring_index(current_user(), '@', 1) AND id <> connection_id()";

	if (d->kind == K_SQLITE)
		die("killconns: not for SQLite");
	if (!(v.log = fopen(logpath, "a")))
		die("killconns: cannot open %s", logpath);
	if (fq(d, sel, NULL, 0, victim_row, &v) != 0)
		die("killconns: %s", d->err);
	for (int i = 0; d->kind == K_MY && i < v.n; i++) {
		int64_t p[1] = {v.ids[i]};
		fq(d, "KILL CONNECTION ?", p, 1, NULL, NULL); /* gone already: fine */
	}
	fclose(v.log);
	printf("%d\n", v.n);
	return 0;
}

/* ------------------------------------------------------------ driver */

/* One JSON line per operation outcome: what a worker saw. */
static void oplog(FILE *log, int64_t worker, const char *op, int64_t task, const char *phase, lq_status st,
		  lq_db *db)
{
	char msg[300] = "";
	if (st != LQ_OK && db) {
		/* one line, no quotes or backslashes (the message is our library's) */
		snprintf(msg, sizeof msg, "%s", lq_errmsg(db));
		for (char *c = msg; *c; c++)
			if (*c == '"' || *c == '\\' || *c == '\n' || (unsigned char)*c < 32)
				*c = ' ';
	}
	fprintf(log, "{\"worker\":%" PRId64 ",\"op\":\"%s\",\"task\":%" PRId64 ",\"phase\":\"%s\",\"status\":\"%s\","
		     "\"msg\":\"%s\"}\n",
		worker, op, task, phase, st == LQ_OK ? "ok" : lq_status_str(st), msg);
	fflush(log);
}

static const char *phase_of(lq_status st)
{
	return st == LQ_OK ? "ok" : st == LQ_EUNKNOWN ? "unknown" : "fail";
}

/*
 * fault_tool drive QUEUE alo|amo LOG: a worker loop on the public API that
 * does what lq_runner does (claim one, run, ack or fail) and logs every
 * operation as invoke / ok / fail / unknown.  The handler is in-process:
 * ledger start, FAULT_WORK_MS of work with a heartbeat every TTL/3, ledger
 * end.  FAULT_ACK_RETRY=1: an ack that fails with LQ_ECONN is tried again on
 * the reconnected handle (the ack is conditional on the claim, so this can
 * never acknowledge someone else's run).  Runs until killed.
 */
static int cmd_drive(const char *dsn, const char *queue, const char *mode, const char *logpath)
{
	int alo = !strcmp(mode, "alo"), retry = (int)env_i64("FAULT_ACK_RETRY", 0);
	int64_t worker = env_i64("FAULT_WORKER", 0), work = env_i64("FAULT_WORK_MS", 20), ttl = 3000;
	int64_t run = env_i64("FAULT_RUN", 0);
	FILE *log = fopen(logpath, "a");
	lq_db *db = NULL;
	struct fdb d;

	if (!log)
		die("drive: cannot open %s", logpath);
	open_env(&d);
	while (lq_open(dsn, &db) != LQ_OK) {
		lq_close(db);
		db = NULL;
		sleep_ms(100);
	}
	for (;;) {
		lq_task t;
		size_t got = 0;
		lq_status st;

		memset(&t, 0, sizeof t);
		oplog(log, worker, "claim", 0, "invoke", LQ_OK, NULL);
		st = lq_task_claim(db, queue, alo ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, ttl, &t, 1, &got);
		if (st == LQ_EMPTY || st == LQ_BUSY || (st == LQ_OK && !got)) {
			sleep_ms(50);
			continue;
		}
		oplog(log, worker, "claim", got ? t.id : 0, phase_of(st), st, db);
		if (st != LQ_OK) {
			sleep_ms(50);
			continue;
		}
		/* the handler */
		{
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			int64_t nonce = ((int64_t)getpid() << 32) ^ (int64_t)ts.tv_nsec ^ ((int64_t)ts.tv_sec << 20);
			int64_t p[6] = {run, nonce, t.id, t.run_at, worker, t.attempts};
			const char *ins = d.kind == K_SQLITE ? "INSERT OR IGNORE" : d.kind == K_PG ? "INSERT" : "INSERT IGNORE";
			char sql[400];
			snprintf(sql, sizeof sql,
				 "%s INTO fault_ledger (run, nonce, task_id, occurrence, worker, token, started)"
				 " VALUES (?, ?, ?, ?, ?, ?, @NOW)%s",
				 ins, d.kind == K_PG ? " ON CONFLICT DO NOTHING" : "");
			fq_must(&d, sql, p, 6);
			int lost = 0;
			for (int64_t done = 0; done < work && !lost; done += ttl / 3) {
				int64_t slice = work - done < ttl / 3 ? work - done : ttl / 3;
				sleep_ms(slice);
				if (alo && done + slice < work) {
					oplog(log, worker, "heartbeat", t.id, "invoke", LQ_OK, NULL);
					st = lq_task_heartbeat(db, &t, ttl);
					oplog(log, worker, "heartbeat", t.id, phase_of(st), st, db);
					lost = st == LQ_LOST;
				}
			}
			int64_t q[2] = {run, nonce};
			fq_must(&d, "UPDATE fault_ledger SET ended = @NOW WHERE run = ? AND nonce = ?", q, 2);
		}
		if (alo) {
			for (int tries = 0;; tries++) {
				oplog(log, worker, "ack", t.id, "invoke", LQ_OK, NULL);
				st = lq_task_ack(db, &t);
				oplog(log, worker, "ack", t.id, phase_of(st), st, db);
				if (!(retry && st == LQ_ECONN && tries < 20))
					break;
				sleep_ms(50);
			}
		}
		lq_task_clear(&t);
	}
	return 0;
}

/* ------------------------------------------------------------ checker */

struct idset {
	int64_t *v;
	size_t n, cap;
};

static void idset_add(struct idset *s, int64_t id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		if (!(s->v = realloc(s->v, s->cap * sizeof *s->v)))
			die("out of memory");
	}
	s->v[s->n++] = id;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int idset_has(const struct idset *s, int64_t id)
{
	return s->n && bsearch(&id, s->v, s->n, sizeof *s->v, cmp_i64) != NULL;
}

static void idset_row(void *ctx, char **cols, int n)
{
	if (n > 0 && cols[0])
		idset_add(ctx, strtoll(cols[0], NULL, 10));
}

static int list_cb(const lq_task *t, void *ctx)
{
	idset_add(ctx, t->id);
	return 0;
}

/* one ledger row */
struct lrow {
	int64_t task, occ, worker, token, started, ended; /* ended -1: never */
};
struct ledger {
	struct lrow *v;
	size_t n, cap;
};

static void ledger_row(void *ctx, char **c, int n)
{
	struct ledger *l = ctx;
	if (n < 6)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		if (!(l->v = realloc(l->v, l->cap * sizeof *l->v)))
			die("out of memory");
	}
	l->v[l->n++] = (struct lrow){strtoll(c[0], NULL, 10), strtoll(c[1], NULL, 10), strtoll(c[2], NULL, 10),
				     strtoll(c[3], NULL, 10), strtoll(c[4], NULL, 10),
				     c[5] ? strtoll(c[5], NULL, 10) : -1};
}

static int cmp_lrow(const void *a, const void *b)
{
	const struct lrow *x = a, *y = b;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->started < y->started ? -1 : x->started > y->started;
}

/* fence log row */
struct frow {
	int64_t holder, token, accepted, at;
};
struct fence {
	struct frow *v;
	size_t n, cap;
};

static void fence_row(void *ctx, char **c, int n)
{
	struct fence *f = ctx;
	if (n < 4)
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		if (!(f->v = realloc(f->v, f->cap * sizeof *f->v)))
			die("out of memory");
	}
	f->v[f->n++] = (struct frow){strtoll(c[0], NULL, 10), strtoll(c[1], NULL, 10), strtoll(c[2], NULL, 10),
				     strtoll(c[3], NULL, 10)};
}

/* Recovery after each fault event: the first completed handler (or accepted
 * fenced write) after it, on the database clock.  Printed, never asserted. */
static void recovery(struct idset *events, const int64_t *done_at, size_t ndone, int64_t *max, int64_t *median,
		     int64_t *unrecovered)
{
	struct idset r = {0};
	*max = *median = -1;
	*unrecovered = 0;
	for (size_t i = 0; i < events->n; i++) {
		int64_t best = -1;
		for (size_t k = 0; k < ndone; k++)
			if (done_at[k] >= events->v[i] && (best < 0 || done_at[k] < best))
				best = done_at[k];
		if (best < 0)
			(*unrecovered)++;
		else
			idset_add(&r, best - events->v[i]);
	}
	if (r.n) {
		qsort(r.v, r.n, sizeof *r.v, cmp_i64);
		*max = r.v[r.n - 1];
		*median = r.v[r.n / 2];
	}
	free(r.v);
}

static int cmd_check(struct fdb *d, const char *dsn, const char *queue, const char *mode, int64_t fence_name)
{
	int64_t run = env_i64("FAULT_RUN", 0);
	int64_t p[2] = {run, fence_name};
	struct idset enq = {0}, live = {0}, dead = {0}, events = {0}, done = {0}, removed = {0};
	struct ledger l = {0};
	struct fence f = {0};
	int alo = !strcmp(mode, "alo"), amo = !strcmp(mode, "amo"), fencing = !strcmp(mode, "fence");
	int64_t completed = 0, lost = 0, dup_tasks = 0, extra_starts = 0, open_rows = 0, not_run = 0;
	int64_t accepted = 0, refused = 0, stale = 0, overlaps = 0, shared = 0, rmax, rmed, unrec;
	const char *seed = getenv("FAULT_SEED");
	int bad = 0;

	if (!alo && !amo && !fencing)
		die("check: MODE is alo, amo or fence");
	if (fq(d, "SELECT at FROM fault_event WHERE run = ? ORDER BY at", p, 1, idset_row, &events) != 0)
		die("check: %s", d->err);
	if (!fencing) {
		lq_db *db;
		if (lq_open(dsn, &db) != LQ_OK || lq_task_list(db, queue, 0, list_cb, &live) != LQ_OK ||
		    lq_task_list(db, queue, LQ_LIST_DEAD, list_cb, &dead) != LQ_OK)
			die("check: cannot list the queue");
		lq_close(db);
		if (fq(d, "SELECT task_id FROM fault_enqueued WHERE run = ? ORDER BY task_id", p, 1, idset_row, &enq) != 0 ||
		    fq(d, "SELECT task_id, occurrence, worker, token, started, ended FROM fault_ledger WHERE run = ?", p, 1,
		       ledger_row, &l) != 0)
			die("check: %s", d->err);
		if (fq(d, "SELECT task_id FROM fault_removed WHERE run = ? ORDER BY task_id", p, 1, idset_row, &removed) != 0)
			die("check: %s", d->err);
		/* qsort's base may not be NULL, even for no rows */
		if (live.n)
			qsort(live.v, live.n, sizeof *live.v, cmp_i64);
		if (dead.n)
			qsort(dead.v, dead.n, sizeof *dead.v, cmp_i64);
		if (l.n)
			qsort(l.v, l.n, sizeof *l.v, cmp_lrow);
		for (size_t i = 0; i < l.n; i++) {
			if (l.v[i].ended < 0)
				open_rows++;
			else
				idset_add(&done, l.v[i].ended);
		}
		/* per task: starts and completions, from the sorted ledger */
		for (size_t e = 0, i = 0; e < enq.n; e++) {
			int64_t id = enq.v[e], ended = 0;
			while (i < l.n && l.v[i].task < id)
				i++;
			size_t j = i;
			while (j < l.n && l.v[j].task == id) {
				size_t k = j, starts = 0, repeats = 0;
				/* one-off tasks only here: a hand-back or retry moves run_at,
				 * so the task id alone is the occurrence.  At-most-once, a
				 * failed attempt (a handler killed by a shutdown included)
				 * is retried as the next attempt: a duplicate start is the
				 * same attempt started twice.  At-least-once, every extra
				 * start is counted (they are allowed, and measured). */
				while (k < l.n && l.v[k].task == id) {
					starts++;
					ended += l.v[k].ended >= 0;
					for (size_t m = j; m < k; m++)
						if (l.v[m].token == l.v[k].token) {
							repeats++;
							break;
						}
					k++;
				}
				if (alo ? starts > 1 : repeats > 0) {
					dup_tasks++;
					extra_starts += alo ? (int64_t)starts - 1 : (int64_t)repeats;
					printf("duplicate: task %" PRId64 " started %zu times:", id, starts);
					for (size_t m = j; m < k; m++)
						printf(" [worker %" PRId64 " attempt %" PRId64 " run_at %" PRId64 " started %" PRId64
						       " ended %" PRId64 "]",
						       l.v[m].worker, l.v[m].token, l.v[m].occ, l.v[m].started, l.v[m].ended);
					printf("\n");
				}
				j = k;
			}
			if (idset_has(&live, id) || idset_has(&dead, id) || idset_has(&removed, id))
				continue;
			if (ended) {
				completed++;
			} else if (alo) {
				lost++;
				printf("lost: task %" PRId64 " is gone, never completed, not dead\n", id);
			} else {
				not_run++; /* at-most-once: a crash after the claim loses the run, by design */
			}
		}
		recovery(&events, done.v, done.n, &rmax, &rmed, &unrec);
		printf("FIGURES mode=%s seed=%s tasks=%zu completed=%" PRId64 " lost=%" PRId64 " live=%zu dead=%zu"
		       " dup_tasks=%" PRId64 " extra_starts=%" PRId64 " started_not_ended=%" PRId64
		       " amo_not_run=%" PRId64 " removed=%zu faults=%zu recovery_median_ms=%" PRId64 " recovery_max_ms=%" PRId64
		       " unrecovered=%" PRId64 "\n",
		       mode, seed ? seed : "?", enq.n, completed, lost, live.n, dead.n, dup_tasks, extra_starts,
		       open_rows, not_run, removed.n, events.n, rmed, rmax, unrec);
		if (alo && lost) {
			printf("FAIL: %" PRId64 " task(s) lost in at-least-once mode\n", lost);
			bad = 1;
		}
		if (amo && dup_tasks) {
			printf("FAIL: %" PRId64 " duplicate start(s) in at-most-once mode\n", dup_tasks);
			bad = 1;
		}
	} else {
		if (fq(d, "SELECT holder, token, accepted, at FROM fault_fence_log WHERE run = ? AND name = ? ORDER BY id",
		       p, 2, fence_row, &f) != 0)
			die("check: %s", d->err);
		int64_t maxtok = 0;
		for (size_t i = 0; i < f.n; i++) {
			if (!f.v[i].accepted) {
				refused++;
				continue;
			}
			accepted++;
			idset_add(&done, f.v[i].at);
			if (f.v[i].token < maxtok) {
				stale++;
				printf("stale: holder %" PRId64 " token %" PRId64 " accepted after token %" PRId64 "\n",
				       f.v[i].holder, f.v[i].token, maxtok);
			}
			if (f.v[i].token > maxtok)
				maxtok = f.v[i].token;
		}
		/* per token: one holder; accepted-write intervals never overlap */
		for (size_t i = 0; i < f.n; i++) {
			if (!f.v[i].accepted)
				continue;
			int64_t t = f.v[i].token, first = -1, last = -1;
			int seen = 0;
			for (size_t k = 0; k < i; k++)
				seen |= f.v[k].accepted && f.v[k].token == t;
			if (seen)
				continue;
			for (size_t k = 0; k < f.n; k++) {
				if (!f.v[k].accepted || f.v[k].token != t)
					continue;
				if (f.v[k].holder != f.v[i].holder)
					shared++;
				if (first < 0)
					first = f.v[k].at;
				last = f.v[k].at;
			}
			for (size_t k = 0; k < f.n; k++) {
				if (!f.v[k].accepted || f.v[k].token <= t)
					continue;
				/* a later epoch wrote strictly inside this one's span */
				if (f.v[k].at > first && f.v[k].at < last) {
					overlaps++;
					printf("overlap: token %" PRId64 " wrote %" PRId64 "..%" PRId64
					       " and token %" PRId64 " at %" PRId64 "\n",
					       t, first, last, f.v[k].token, f.v[k].at);
					break;
				}
			}
		}
		recovery(&events, done.v, done.n, &rmax, &rmed, &unrec);
		printf("FIGURES mode=fence seed=%s writes=%zu accepted=%" PRId64 " refused=%" PRId64 " stale=%" PRId64
		       " overlaps=%" PRId64 " shared_tokens=%" PRId64 " max_token=%" PRId64 " faults=%zu"
		       " recovery_median_ms=%" PRId64 " recovery_max_ms=%" PRId64 " unrecovered=%" PRId64 "\n",
		       seed ? seed : "?", f.n, accepted, refused, stale, overlaps, shared, maxtok, events.n, rmed, rmax,
		       unrec);
		if (stale || overlaps || shared) {
			printf("FAIL: stale writes accepted %" PRId64 ", overlapping holders %" PRId64
			       ", tokens with two holders %" PRId64 "\n",
			       stale, overlaps, shared);
			bad = 1;
		}
	}
	if (bad)
		printf("seed: %s (rerun with LEASEQ_FAULT_SEED=%s)\n", seed ? seed : "?", seed ? seed : "?");
	free(enq.v);
	free(live.v);
	free(dead.v);
	free(events.v);
	free(done.v);
	free(removed.v);
	free(l.v);
	free(f.v);
	return bad;
}

static int cmd_live(const char *dsn, const char *queue)
{
	lq_db *db;
	struct idset live = {0};
	lq_status st = lq_open(dsn, &db);

	if (st == LQ_OK)
		st = lq_task_list(db, queue, 0, list_cb, &live);
	if (st != LQ_OK) {
		fprintf(stderr, "fault_tool live: %s\n", db ? lq_errmsg(db) : lq_status_str(st));
		lq_close(db);
		return 1;
	}
	printf("%zu\n", live.n);
	lq_close(db);
	free(live.v);
	return 0;
}

/* fault_tool rm N: remove up to N live tasks of this run, chosen at random
 * (`task rm` racing the claimers); each removal that succeeded is recorded,
 * so the checker does not count it as lost. */
static int cmd_rm(struct fdb *d, const char *dsn, int64_t n)
{
	int64_t run = env_i64("FAULT_RUN", 0), p[1] = {run};
	struct idset enq = {0};
	lq_db *db;
	int64_t removed = 0;

	if (fq(d, "SELECT task_id FROM fault_enqueued WHERE run = ?", p, 1, idset_row, &enq) != 0)
		die("rm: %s", d->err);
	if (lq_open(dsn, &db) != LQ_OK)
		die("rm: cannot open the queue");
	srand((unsigned)getpid());
	for (int64_t i = 0; i < n * 4 && removed < n && enq.n; i++) {
		int64_t id = enq.v[(size_t)rand() % enq.n];
		if (lq_task_rm(db, id) == LQ_OK) {
			int64_t q[2] = {run, id};
			fq_must(d, "INSERT INTO fault_removed (run, task_id) VALUES (?, ?)", q, 2);
			removed++;
		}
	}
	lq_close(db);
	free(enq.v);
	printf("%" PRId64 "\n", removed);
	return 0;
}

/* fault_tool lockhold MS: hold locks the claimers need for MS, then roll
 * back: the rows of this run's tasks FOR UPDATE on a server, the write lock
 * (BEGIN IMMEDIATE) on SQLite. */
static int cmd_lockhold(struct fdb *d, int64_t ms)
{
	int64_t p[1] = {env_i64("FAULT_RUN", 0)};

	if (fq(d, d->kind == K_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN", NULL, 0, NULL, NULL) != 0)
		die("lockhold: %s", d->err);
	if (d->kind != K_SQLITE &&
	    fq(d, "SELECT id FROM lq_task WHERE id IN (SELECT task_id FROM fault_enqueued WHERE run = ?) FOR UPDATE", p, 1,
	       NULL, NULL) != 0)
		die("lockhold: %s", d->err);
	sleep_ms(ms);
	fq(d, "ROLLBACK", NULL, 0, NULL, NULL);
	return 0;
}

/* The commands that need a connection of their own (in d, closed by main). */
static int dispatch(struct fdb *d, int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int64_t run = env_i64("FAULT_RUN", 0);

	if (!strcmp(cmd, "setup"))
		return cmd_setup(d);
	if (!strcmp(cmd, "enqueue") && argc == 5)
		return cmd_enqueue(d->dsn, argv[2], strtoll(argv[3], NULL, 10), !strcmp(argv[4], "alo"), run);
	if (!strcmp(cmd, "fence-init") && argc == 3) {
		int64_t p[2] = {run, strtoll(argv[2], NULL, 10)};
		fq_must(d, "INSERT INTO fault_fence (run, name, last_token) VALUES (?, ?, 0)", p, 2);
		return 0;
	}
	if (!strcmp(cmd, "event") && argc == 3) {
		int64_t p[2] = {run, strtoll(argv[2], NULL, 10)};
		fq_must(d, "INSERT INTO fault_event (run, kind, at) VALUES (?, ?, @NOW)", p, 2);
		return 0;
	}
	if (!strcmp(cmd, "started") && argc == 2) {
		int64_t p[1] = {run}, n = 0;
		if (fq(d, "SELECT count(*) FROM fault_ledger WHERE run = ?", p, 1, get_i64, &n) != 0)
			die("started: %s", d->err);
		printf("%" PRId64 "\n", n);
		return 0;
	}
	if (!strcmp(cmd, "killconns") && argc == 3)
		return cmd_killconns(d, argv[2]);
	if (!strcmp(cmd, "drive") && argc == 5)
		return cmd_drive(d->dsn, argv[2], argv[3], argv[4]);
	if (!strcmp(cmd, "purge") && argc == 2) {
		/* a passed run's rows: the server databases are shared */
		static const char *const del[] = {
			"DELETE FROM fault_ledger WHERE run = ?", "DELETE FROM fault_fence WHERE run = ?",
			"DELETE FROM fault_fence_log WHERE run = ?", "DELETE FROM fault_enqueued WHERE run = ?",
			"DELETE FROM fault_removed WHERE run = ?", "DELETE FROM fault_event WHERE run = ?",
		};
		int64_t p[1] = {run};
		for (size_t i = 0; i < sizeof del / sizeof *del; i++)
			fq_must(d, del[i], p, 1);
		return 0;
	}
	if (!strcmp(cmd, "rm") && argc == 3)
		return cmd_rm(d, d->dsn, strtoll(argv[2], NULL, 10));
	if (!strcmp(cmd, "lockhold") && argc == 3)
		return cmd_lockhold(d, strtoll(argv[2], NULL, 10));
	if (!strcmp(cmd, "live") && argc == 3)
		return cmd_live(d->dsn, argv[2]);
	if (!strcmp(cmd, "check") && argc >= 4)
		return cmd_check(d, d->dsn, argv[2], argv[3], argc > 4 ? strtoll(argv[4], NULL, 10) : 0);
	fprintf(stderr, "usage: fault_tool setup | enqueue QUEUE N alo|amo | handler | fence NAME HOLDER N MS |"
			" fence-init NAME | event KIND | killconns LOG | drive QUEUE alo|amo LOG | rm N | lockhold MS | purge | live QUEUE | check QUEUE alo|amo|fence [NAME]\n");
	return 64;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	struct fdb d;
	int rc;

	if (!strcmp(cmd, "handler"))
		return cmd_handler();
	if (!strcmp(cmd, "fence") && argc == 6)
		return cmd_fence(strtoll(argv[2], NULL, 10), strtoll(argv[3], NULL, 10), strtoll(argv[4], NULL, 10),
				 strtoll(argv[5], NULL, 10));
	open_env(&d);
	rc = dispatch(&d, argc, argv);
	fdb_close(&d);
	return rc;
}
