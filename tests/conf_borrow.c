/*
 * conf_borrow.c - conformance: a handle on the application's own connection
 * (lq_open_borrowed).  The test opens that connection the raw way, with the
 * client library, as an application would: an enqueue inside the
 * application's transaction exists if and only if the transaction commits;
 * lq_close leaves the connection open; claims, leases and migrations inside
 * the transaction are refused and change nothing.
 */
#include <string.h>

#include <sqlite3.h>
#ifdef LEASEQ_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#ifdef LEASEQ_HAVE_MYSQL
#include <mysql.h>
#endif

#include "backend/backend.h" /* lq__dsn_parse_url, to connect the raw way */
#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

/* The application's connection. */
struct app {
	lq_conn_kind kind;
	void *conn;
};

static void app_open(const char *dsn, struct app *a, int found_rows)
{
	memset(a, 0, sizeof(*a));
	if (strncmp(dsn, "sqlite:", 7) == 0) {
		a->kind = LQ_CONN_SQLITE;
		a->conn = lqt_sqlite_open(dsn, SQLITE_OPEN_READWRITE);
		return;
	}
#ifdef LEASEQ_HAVE_POSTGRES
	if (strncmp(dsn, "postgres", 8) == 0) {
		PGconn *pg = PQconnectdb(dsn);
		assert_int_equal(PQstatus(pg), CONNECTION_OK);
		PQclear(PQexec(pg, "SET client_min_messages = warning"));
		a->kind = LQ_CONN_POSTGRES;
		a->conn = pg;
		return;
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	lq_dsn_url u;
	lq_err err;
	assert_int_equal(lq__dsn_parse_url(dsn, &u, &err), LQ_OK);
	char sock[256] = "";
	int has_sock = lq__dsn_query_get(u.query, "socket", sock, sizeof(sock));
	MYSQL *my = mysql_init(NULL);
	assert_non_null(my);
	if (!mysql_real_connect(my, u.host[0] ? u.host : NULL, u.user, u.password, u.dbname,
				(unsigned)u.port, has_sock ? sock : NULL,
				found_rows ? CLIENT_FOUND_ROWS : 0)) {
		print_error("mysql connect: %s\n", mysql_error(my));
		fail();
	}
	a->kind = LQ_CONN_MYSQL;
	a->conn = my;
#else
	(void)found_rows;
	fail_msg("no raw client for %s", dsn);
#endif
}

static void app_close(struct app *a)
{
	if (a->kind == LQ_CONN_SQLITE)
		assert_int_equal(sqlite3_close(a->conn), SQLITE_OK); /* fails if statements leaked */
#ifdef LEASEQ_HAVE_POSTGRES
	if (a->kind == LQ_CONN_POSTGRES)
		PQfinish(a->conn);
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (a->kind == LQ_CONN_MYSQL)
		mysql_close(a->conn);
#endif
	a->conn = NULL;
}

/* Run sql on the application's connection; the first column of the first
 * row as an integer (0 when none). */
static int64_t app_sql(struct app *a, const char *sql)
{
	int64_t v = 0;
	if (a->kind == LQ_CONN_SQLITE) {
		sqlite3_stmt *s = NULL;
		int rc = sqlite3_prepare_v2(a->conn, sql, -1, &s, NULL);
		if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			fail_msg("%s: %s", sql, sqlite3_errmsg(a->conn));
		sqlite3_finalize(s);
	}
#ifdef LEASEQ_HAVE_POSTGRES
	if (a->kind == LQ_CONN_POSTGRES) {
		PGresult *r = PQexec(a->conn, sql);
		ExecStatusType t = PQresultStatus(r);
		if (t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK)
			fail_msg("%s: %s", sql, PQerrorMessage(a->conn));
		if (t == PGRES_TUPLES_OK && PQntuples(r) > 0)
			v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		PQclear(r);
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (a->kind == LQ_CONN_MYSQL) {
		if (mysql_query(a->conn, sql) != 0)
			fail_msg("%s: %s", sql, mysql_error(a->conn));
		MYSQL_RES *res = mysql_store_result(a->conn);
		if (res) {
			MYSQL_ROW row = mysql_fetch_row(res);
			if (row && row[0])
				v = strtoll(row[0], NULL, 10);
			mysql_free_result(res);
		}
	}
#endif
	return v;
}

static void app_setup(void **state, struct app *a)
{
	app_open(CONF(state)->dsn, a, 1);
	(void)app_sql(a, "DROP TABLE IF EXISTS outbox_app");
	(void)app_sql(a, "CREATE TABLE outbox_app (v INTEGER)");
}

struct seen {
	int n;
	char name[64];
};

static int record(lq_job *job, void *ctx)
{
	struct seen *s = ctx;
	s->n++;
	snprintf(s->name, sizeof(s->name), "%.63s", lq_job_task(job)->name);
	return 0;
}

/* Run what is due in the default queue on db; how many ran. */
static int64_t drain(lq_db *db, struct seen *s)
{
	lq_runner *r = NULL;
	lq_run_report rep;
	assert_lq_ok(db, lq_runner_new(db, NULL, &r));
	assert_lq_ok(db, lq_runner_handle(r, "*", record, s));
	memset(&rep, 0, sizeof(rep));
	assert_lq_ok(db, lq_runner_work(r, 1, &rep));
	lq_runner_free(r);
	return rep.ran;
}

/* Commit: the task appears with the application's row, and runs. */
static void borrow_commit(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	struct seen s = {0, ""};
	int64_t id = 0;

	app_setup(state, &a);
	app_sql(&a, CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION");
	app_sql(&a, "INSERT INTO outbox_app (v) VALUES (1)");
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	assert_int_equal(lq_db_borrowed(b), 1);
	assert_lq_ok(b, lq_task_add(b, "outbox-commit", NULL, &id, NULL));
	assert_true(id > 0);
	/* Read through the application's transaction: there. */
	assert_int_equal(lqt_count_tasks(b, NULL, 0), 1);
	/* Not yet committed: no one else sees it. */
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	app_sql(&a, "COMMIT");
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	assert_int_equal(app_sql(&a, "SELECT count(*) FROM outbox_app"), 1);
	assert_int_equal(drain(db, &s), 1);
	assert_string_equal(s.name, "outbox-commit");
	lq_close(b);
	app_close(&a);
}

/* Rollback: the task never existed. */
static void borrow_rollback(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	struct seen s = {0, ""};
	lq_task t;

	app_setup(state, &a);
	app_sql(&a, CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION");
	app_sql(&a, "INSERT INTO outbox_app (v) VALUES (1)");
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	int64_t id = 0;
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.unique_key = "outbox-key";
	assert_lq_ok(b, lq_task_add(b, "outbox-rollback", &o, &id, NULL));
	app_sql(&a, "ROLLBACK");
	assert_int_equal(app_sql(&a, "SELECT count(*) FROM outbox_app"), 0);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, id, &t));
	assert_int_equal(drain(db, &s), 0);
	/* The key is free again. */
	int existed = 1;
	assert_lq_ok(db, lq_task_add(db, "outbox-rollback", &o, &id, &existed));
	assert_int_equal(existed, 0);
	lq_close(b);
	app_close(&a);
}

/* A batch added inside the application's transaction, a full chunk and a
 * short one (their statements differ by backend), goes in with it, each
 * task under its own id. */
static void borrow_batch(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	enum { N = 100 };
	static const char *names[N];
	static char bufs[N][16];
	static int64_t ids[N];

	app_setup(state, &a);
	app_sql(&a, CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION");
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	for (int i = 0; i < N; i++) {
		snprintf(bufs[i], sizeof(bufs[i]), "batch-%d", i);
		names[i] = bufs[i];
	}
	assert_lq_ok(b, lq_task_add_many(b, N, names, NULL, ids, NULL, NULL));
	assert_lq_ok(b, lq_task_add_many(b, 37, names, NULL, ids + 63, NULL, NULL));
	for (int i = 0; i < N; i++) {
		lq_task t;
		assert_lq_ok(b, lq_task_get(b, ids[i], &t));
		assert_string_equal(t.name, bufs[i < 63 ? i : i - 63]);
		lq_task_clear(&t);
	}
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	app_sql(&a, "COMMIT");
	assert_int_equal(lqt_count_tasks(db, NULL, 0), N + 37);
	lq_close(b);
	app_close(&a);
}

/* Inside the application's transaction a task with a concurrency key or a
 * schedule's steering is added whole, alone or in a batch; one with a
 * partition (whose row in lq_partition the claims share) is refused before
 * anything is sent, and so is a batch with one: never a task without the
 * option asked for. */
static void borrow_task_options(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	lq_task t;
	lq_schedule sc;

	app_setup(state, &a);
	app_sql(&a, CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION");
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	lq_task_opts keyed = LQ_TASK_OPTS_INIT, part = LQ_TASK_OPTS_INIT, steered = LQ_TASK_OPTS_INIT;
	keyed.concurrency_key = "outbox-k";
	part.partition = "tenant-1";
	steered.every_ms = 60000;
	steered.overlap = LQ_OVERLAP_SKIP;
	int64_t ids[4] = {0, 0, 0, 0};
	assert_lq_ok(b, lq_task_add(b, "outbox-keyed", &keyed, &ids[0], NULL));
	assert_lq_ok(b, lq_task_add(b, "outbox-steered", &steered, &ids[1], NULL));
	int64_t refused = 7;
	assert_lq(b, LQ_ETXOPEN, lq_task_add(b, "outbox-part", &part, &refused, NULL));
	assert_int_equal(refused, 0);
	assert_non_null(strstr(lq_errmsg(b), "partition"));
	const char *names[2] = {"outbox-batch-keyed", "outbox-batch-part"};
	const lq_task_opts *both[2] = {&keyed, &part};
	size_t invalid = 9;
	assert_lq(b, LQ_ETXOPEN, lq_task_add_many(b, 2, names, both, ids + 2, NULL, &invalid));
	assert_int_equal(invalid, 1);
	assert_lq_ok(b, lq_task_add_many(b, 1, names, both, ids + 2, NULL, NULL));
	app_sql(&a, "COMMIT");
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 3);
	for (int i = 0; i < 3; i += 2) {
		assert_lq_ok(db, lq_task_get(db, ids[i], &t));
		assert_string_equal(t.concurrency_key, "outbox-k");
		lq_task_clear(&t);
	}
	assert_lq_ok(db, lq_schedule_get(db, ids[1], &sc));
	assert_int_equal(sc.overlap, LQ_OVERLAP_SKIP);
	/* Outside a transaction the same handle adds it. */
	assert_lq_ok(b, lq_task_add(b, "outbox-part", &part, &ids[3], NULL));
	char got[LQ_NAME_MAX + 1];
	assert_lq_ok(db, lq_task_partition(db, ids[3], got, sizeof(got)));
	assert_string_equal(got, "tenant-1");
	lq_close(b);
	app_close(&a);
}

/* lq_close leaves the connection to the application, still usable; a
 * second handle on it works inside a transaction too (PostgreSQL: the
 * statements the first one prepared are found, not prepared again). */
static void borrow_close_keeps_conn(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	const char *begin = CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION";

	app_setup(state, &a);
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	/* No transaction open: the handle commits its own. */
	assert_lq_ok(b, lq_task_add(b, "outside", NULL, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 1);
	lq_close(b);
	app_sql(&a, "INSERT INTO outbox_app (v) VALUES (7)");
	assert_int_equal(app_sql(&a, "SELECT max(v) FROM outbox_app"), 7);

	b = NULL;
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	app_sql(&a, begin);
	assert_lq_ok(b, lq_task_add(b, "second-handle", NULL, NULL, NULL));
	app_sql(&a, "COMMIT");
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 2);
	lq_close(b);
	assert_int_equal(app_sql(&a, "SELECT count(*) FROM outbox_app"), 1);
	app_close(&a); /* SQLite: fails if a statement of leaseq's was left open */
}

/* Inside the application's transaction, claims, leases, runners and
 * migrations are refused before anything is sent; the transaction goes on. */
static void borrow_refused_in_tx(void **state)
{
	lq_db *db = DB(state), *b = NULL;
	struct app a;
	lq_task tasks[2], t;
	lq_lease l;
	size_t n = 9;
	int64_t id = 0;

	app_setup(state, &a);
	assert_lq_ok(db, lq_task_add(db, "due", NULL, &id, NULL));
	app_sql(&a, CONF(state)->backend[0] == 's' ? "BEGIN" : "START TRANSACTION");
	app_sql(&a, "INSERT INTO outbox_app (v) VALUES (1)");
	assert_lq_ok(b, lq_open_borrowed(a.kind, a.conn, &b));
	assert_lq(b, LQ_ETXOPEN, lq_task_claim(b, NULL, LQ_AT_LEAST_ONCE, 30000, tasks, 2, &n));
	assert_int_equal(n, 0);
	assert_non_null(strstr(lq_errmsg(b), "application's open transaction"));
	assert_lq(b, LQ_ETXOPEN, lq_task_claim(b, NULL, LQ_AT_MOST_ONCE, 0, tasks, 2, &n));
	assert_lq(b, LQ_ETXOPEN, lq_lease_acquire(b, "outbox-lease", 10000, NULL, 0, &l));
	assert_lq(b, LQ_ETXOPEN, lq_task_rm(b, id));
	assert_lq(b, LQ_ETXOPEN, lq_migrate(b, NULL, NULL));
	lq_runner *r = NULL;
	lq_run_report rep;
	struct seen s = {0, ""};
	assert_lq_ok(b, lq_runner_new(b, NULL, &r));
	assert_lq_ok(b, lq_runner_handle(r, "*", record, &s));
	assert_lq(b, LQ_ETXOPEN, lq_runner_work(r, 1, &rep));
	assert_int_equal(s.n, 0);
	lq_runner_free(r);
	/* Reads are fine, and the enqueue still joins. */
	assert_lq_ok(b, lq_task_get(b, id, &t));
	lq_task_clear(&t);
	assert_lq_ok(b, lq_task_add(b, "joined", NULL, NULL, NULL));
	app_sql(&a, "COMMIT");
	assert_int_equal(app_sql(&a, "SELECT count(*) FROM outbox_app"), 1);
	/* Nothing was claimed or held. */
	assert_lq_ok(db, lq_task_get(db, id, &t));
	assert_int_equal(t.attempts, 0);
	assert_string_equal(t.claim_owner, "");
	lq_task_clear(&t);
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "outbox-lease", &l));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 2);
	/* Outside a transaction the same handle claims (its own transaction)
	 * and leaves none open. */
	assert_lq_ok(b, lq_task_claim(b, NULL, LQ_AT_MOST_ONCE, 0, tasks, 2, &n));
	assert_int_equal(n, 2);
	lq_task_clear(&tasks[0]);
	lq_task_clear(&tasks[1]);
	assert_lq_ok(b, lq_lease_acquire(b, "outbox-lease", 10000, NULL, 0, &l));
	assert_lq_ok(b, lq_lease_release(b, &l));
	lq_close(b);
	app_sql(&a, "INSERT INTO outbox_app (v) VALUES (2)");
	app_close(&a);
	/* Committed by itself: visible elsewhere. */
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
}

/* Bad arguments; MySQL needs CLIENT_FOUND_ROWS. */
static void borrow_bad(void **state)
{
	lq_db *b = NULL;
	/* The typed shorthands exist once the client header came first. */
	(void)lq_open_sqlite3;
#ifdef LEASEQ_HAVE_POSTGRES
	(void)lq_open_pgconn;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	(void)lq_open_mysql;
#endif
	assert_lq(b, LQ_EINVAL, lq_open_borrowed(LQ_CONN_SQLITE, NULL, &b));
	lq_close(b);
	b = NULL;
	assert_lq(b, LQ_EINVAL, lq_open_borrowed((lq_conn_kind)42, &b, &b));
	lq_close(b);
#ifdef LEASEQ_HAVE_MYSQL
	if (strcmp(CONF(state)->backend, "mysql") == 0) {
		struct app a;
		app_open(CONF(state)->dsn, &a, 0);
		b = NULL;
		assert_lq(b, LQ_EINVAL, lq_open_borrowed(a.kind, a.conn, &b));
		assert_non_null(strstr(lq_errmsg(b), "CLIENT_FOUND_ROWS"));
		lq_close(b);
		app_close(&a);
	}
#else
	(void)state;
#endif
}

int lqt_conf_borrow(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(borrow_commit, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_rollback, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_batch, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_task_options, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_close_keeps_conn, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_refused_in_tx, lqt_conf_test_setup),
		cmocka_unit_test_setup(borrow_bad, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "borrow/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
