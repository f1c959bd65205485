/*
 * test_backend_postgres.c - the PostgreSQL backend through its vtable
 * (backend.h), against the server in LEASEQ_TEST_PG_DSN.
 *
 * Everything runs in a private PostgreSQL schema (lqt_be_<pid>, dropped at
 * the end), so this program can run beside the conformance suite on the
 * same database.  Skips (77) without a DSN unless LEASEQ_REQUIRE_ALL_BACKENDS
 * is set.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "internal.h"

#ifdef LEASEQ_HAVE_POSTGRES
#include <pthread.h>

#include <libpq-fe.h>

#define NCOLS 32

static const struct lq_backend *const be = &lq__backend_postgres;
static const char *dsn;
static char schema[64];

/* ------------------------------------------------------------ helpers */

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* What a statement returned: the first row in detail, then counts. */
struct rows {
	int n;
	int ncols;
	int stop_after; /* stop after this many rows; 0 = read all */
	int unterminated; /* a TEXT column without its NUL */
	lq_vtype type[NCOLS];
	int64_t i[NCOLS];
	char s[NCOLS][256];
	unsigned char *blob; /* first BLOB column of the first row */
	size_t blob_len;
};

static int collect(void *ctx, const lq_value *cols, int ncols)
{
	struct rows *r = ctx;

	if (r->n == 0) {
		r->ncols = ncols;
		for (int k = 0; k < ncols && k < NCOLS; k++) {
			r->type[k] = cols[k].type;
			r->i[k] = cols[k].i;
			if (cols[k].type == LQ_V_TEXT) {
				if (cols[k].s[cols[k].len] != '\0')
					r->unterminated = 1;
				snprintf(r->s[k], sizeof(r->s[k]), "%.*s", (int)cols[k].len, cols[k].s);
			} else if (cols[k].type == LQ_V_BLOB && !r->blob) {
				r->blob = malloc(cols[k].len + 1);
				assert_non_null(r->blob);
				memcpy(r->blob, cols[k].s, cols[k].len);
				r->blob_len = cols[k].len;
			}
		}
	}
	r->n++;
	return r->stop_after && r->n >= r->stop_after;
}

static void rows_reset(struct rows *r)
{
	free(r->blob);
	memset(r, 0, sizeof(*r));
}

/* Run statement id and demand status want; rows into r (may be NULL). */
static int64_t run_st(struct lq_conn *c, lq_status want, lq_sql_id id, const lq_value *p, int n,
		      struct rows *r)
{
	lq_err err = {{0}, 0, 0};
	int64_t affected = -1;
	struct rows scratch = {0};

	if (r)
		rows_reset(r);
	lq_status st = be->exec(c, id, p, n, collect, r ? r : &scratch, &affected, &err);
	rows_reset(&scratch);
	if (st != want)
		fail_msg("%s: status %d, wanted %d: %s", lq__sql_name(id), (int)st, (int)want, err.msg);
	if (r)
		assert_int_equal(r->unterminated, 0);
	return affected;
}

#define RUN(c, id, r, ...)                                                              \
	run_st((c), LQ_OK, LQ_SQL_##id, (const lq_value[]){__VA_ARGS__},                \
	       (int)(sizeof((const lq_value[]){__VA_ARGS__}) / sizeof(lq_value)), (r))
#define RUN0(c, id, r) run_st((c), LQ_OK, LQ_SQL_##id, NULL, 0, (r))

/* A held lease, token 1, as lease_acquire leaves a new one: the row made
 * free by lease_create, then taken -> 1; 0 if the name was there already. */
static int64_t lease_row(struct lq_conn *c, lq_value name, lq_value owner, lq_value ttl)
{
	if (RUN(c, lease_create, NULL, name, owner, lq_v_null()) == 0)
		return 0;
	return RUN(c, lease_take, NULL, name, owner, ttl);
}

static void script_ok(struct lq_conn *c, const char *sql)
{
	lq_err err = {{0}, 0, 0};
	lq_status st = be->exec_script(c, sql, &err);
	if (st != LQ_OK)
		fail_msg("script \"%.60s\": status %d: %s", sql, (int)st, err.msg);
}

static void tx_ok(lq_status st, const lq_err *err, const char *what)
{
	if (st != LQ_OK)
		fail_msg("%s: status %d: %s", what, (int)st, err->msg);
}

/* Connections a failed test leaves open (with locks held) are closed by
 * close_all, so the next test does not wait on them. */
static struct lq_conn *open_conns[16];

static void track(struct lq_conn *c)
{
	for (size_t i = 0; i < sizeof(open_conns) / sizeof(open_conns[0]); i++) {
		if (!open_conns[i]) {
			open_conns[i] = c;
			return;
		}
	}
	fail_msg("too many test connections");
}

static void done(struct lq_conn *c)
{
	for (size_t i = 0; i < sizeof(open_conns) / sizeof(open_conns[0]); i++)
		if (open_conns[i] == c)
			open_conns[i] = NULL;
	be->disconnect(c);
}

static int close_all(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(open_conns) / sizeof(open_conns[0]); i++) {
		if (open_conns[i])
			be->disconnect(open_conns[i]);
		open_conns[i] = NULL;
	}
	return 0;
}

/* Connect to dsn_ (the test DSN if NULL), inside our schema. */
static struct lq_conn *connect_to(const char *dsn_)
{
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	char sql[128];

	lq_status st = be->connect(dsn_ ? dsn_ : dsn, 0, &c, &err);
	if (st != LQ_OK)
		fail_msg("connect: status %d: %s", (int)st, err.msg);
	assert_non_null(c);
	track(c);
	snprintf(sql, sizeof(sql), "SET search_path TO %s", schema);
	script_ok(c, sql);
	return c;
}

static struct lq_conn *conn(void)
{
	return connect_to(NULL);
}

/* Where the password of a URI DSN is: [*start, *end), 0 if it has none. */
static int find_password(const char *d, size_t *start, size_t *end)
{
	const char *p = strstr(d, "://");
	if (!p)
		return 0;
	p += 3;
	size_t n = strcspn(p, "@/");
	const char *colon = memchr(p, ':', n);
	if (p[n] != '@' || !colon)
		return 0;
	*start = (size_t)(colon + 1 - d);
	*end = (size_t)(p + n - d);
	return 1;
}

/* The test DSN with another password; 0 if it has none to replace. */
static int dsn_with_password(const char *pw, char *out, size_t size)
{
	size_t s, e;
	if (!find_password(dsn, &s, &e))
		return 0;
	snprintf(out, size, "%.*s%s%s", (int)s, dsn, pw, dsn + e);
	return 1;
}

/* The test DSN with one more query option. */
static void dsn_with_option(const char *opt, char *out, size_t size)
{
	const char *p = strstr(dsn, "://");
	p = p ? p + 3 : dsn;
	const char *at = p + strcspn(p, "@/");
	if (*at == '@')
		p = at + 1;
	snprintf(out, size, "%s%c%s", dsn, strchr(p, '?') ? '&' : '?', opt);
}

/* ------------------------------------------------------------ fixtures */

static int group_setup(void **state)
{
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	char sql[512];

	(void)state;
	snprintf(schema, sizeof(schema), "lqt_be_%ld", (long)getpid());
	if (be->connect(dsn, 0, &c, &err) != LQ_OK) {
		fprintf(stderr, "test_backend_postgres: cannot connect: %s\n", err.msg);
		return -1;
	}
	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s; SET search_path TO %s",
		 schema, schema, schema);
	if (be->exec_script(c, sql, &err) != LQ_OK) {
		fprintf(stderr, "test_backend_postgres: %s\n", err.msg);
		be->disconnect(c);
		return -1;
	}

	/* Migrate the way lib/migrate.c does: one transaction per step. */
	lq_status st = be->begin(c, 1, &err);
	if (st == LQ_OK)
		st = be->exec(c, LQ_SQL_migrate_lock, NULL, 0, NULL, NULL, NULL, &err);
	if (st == LQ_OK)
		st = be->exec(c, LQ_SQL_schema_create, NULL, 0, NULL, NULL, NULL, &err);
	for (size_t i = 0; st == LQ_OK && i < *be->n_migrations; i++) {
		lq_value rec[2] = {lq_v_int(be->migrations[i].version), lq__v_text(be->migrations[i].name)};
		st = be->exec_script(c, be->migrations[i].sql, &err);
		if (st == LQ_OK)
			st = be->exec(c, LQ_SQL_schema_record, rec, 2, NULL, NULL, NULL, &err);
	}
	if (st == LQ_OK)
		st = be->commit(c, &err);
	be->disconnect(c);
	if (st != LQ_OK) {
		fprintf(stderr, "test_backend_postgres: migration: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	char sql[128];

	(void)state;
	if (be->connect(dsn, 0, &c, &err) != LQ_OK)
		return -1;
	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", schema);
	lq_status st = be->exec_script(c, sql, &err);
	be->disconnect(c);
	return st == LQ_OK ? 0 : -1;
}

/* Empty the tables between tests. */
static int reset(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	script_ok(c, "SET lock_timeout = '10s'; TRUNCATE lq_lease, lq_task, lq_task_dead, lq_queue");
	done(c);
	return 0;
}

/* ------------------------------------------------------------ connect */

static void test_connect(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	struct rows r = {0};

	RUN0(c, db_now, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, 1);
	assert_int_equal(r.type[0], LQ_V_INT);
	/* The server is this machine: its clock is ours within a minute. */
	int64_t now = (int64_t)time(NULL) * 1000;
	assert_true(r.i[0] > now - 60000 && r.i[0] < now + 60000);

	RUN0(c, schema_exists, &r);
	assert_int_equal(r.i[0], 1);
	RUN0(c, schema_version, &r);
	assert_int_equal(r.i[0], be->migrations[*be->n_migrations - 1].version);
	rows_reset(&r);
	done(c);
}

static void test_connect_bad_password(void **state)
{
	(void)state;
	const char *wrong = "Wr0ng-pAss-xyzzy";
	char bad[1024];
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	size_t s = 0, e = 0;

	if (!dsn_with_password(wrong, bad, sizeof(bad)))
		skip(); /* the DSN has no password to get wrong */
	lq_status st = be->connect(bad, 0, &c, &err);
	assert_int_equal(st, LQ_ECONN);
	assert_null(c);
	assert_true(err.msg[0] != '\0');
	assert_null(strchr(err.msg, '\n'));
	assert_null(strstr(err.msg, wrong));
	assert_true(find_password(dsn, &s, &e));
	char real[256];
	snprintf(real, sizeof(real), "%.*s", (int)(e - s), dsn + s);
	assert_null(strstr(err.msg, real));
	print_message("    bad password: %s\n", err.msg);
}

static void test_connect_bad_dsn(void **state)
{
	(void)state;
	char bad[1024];
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};

	/* libpq quotes a bad %-escape back: the password must not come with it. */
	if (dsn_with_password("pa%ZZss-s3cret", bad, sizeof(bad))) {
		lq_status st = be->connect(bad, 0, &c, &err);
		assert_int_equal(st, LQ_EINVAL);
		assert_null(strstr(err.msg, "ZZss-s3cret"));
		assert_null(strchr(err.msg, '\n'));
		print_message("    bad escape: %s\n", err.msg);
	}

	dsn_with_option("statement_timeout=soon", bad, sizeof(bad));
	assert_int_equal(be->connect(bad, 0, &c, &err), LQ_EINVAL);
	assert_non_null(strstr(err.msg, "statement_timeout"));
	dsn_with_option("lock_timeout=5s%3Bx", bad, sizeof(bad));
	assert_int_equal(be->connect(bad, 0, &c, &err), LQ_EINVAL);
	dsn_with_option("no_such_libpq_option=1", bad, sizeof(bad));
	assert_int_equal(be->connect(bad, 0, &c, &err), LQ_EINVAL);
	dsn_with_option("notify=maybe", bad, sizeof(bad));
	assert_int_equal(be->connect(bad, 0, &c, &err), LQ_EINVAL);
	assert_non_null(strstr(err.msg, "notify"));
	assert_null(c);
}

static void test_connect_refused(void **state)
{
	(void)state;
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};

	lq_status st = be->connect("postgresql://nobody:secret-pw@127.0.0.1:1/x", 0, &c, &err);
	assert_int_equal(st, LQ_ECONN);
	assert_null(c);
	assert_null(strstr(err.msg, "secret-pw"));
	assert_null(strchr(err.msg, '\n'));
}

/* statement_timeout and lock_timeout are leaseq's options, applied with SET;
 * statement_timeout is the client's deadline too: a cancelled statement is
 * LQ_ETIMEDOUT. */
static void test_dsn_timeouts(void **state)
{
	(void)state;
	char d[1024];
	lq_err err = {{0}, 0, 0};

	dsn_with_option("statement_timeout=100ms&lock_timeout=2s", d, sizeof(d));
	struct lq_conn *c = connect_to(d);
	/* Cancelled by the server (57014, query_canceled), not run to its end. */
	lq_status st = be->exec_script(c, "SELECT pg_sleep(3)", &err);
	assert_int_equal(st, LQ_ETIMEDOUT);
	assert_non_null(strstr(err.msg, "(57014)"));
	done(c);

	/* application_name in the URI overrides leaseq's default. */
	dsn_with_option("application_name=lqt_app&statement_timeout=0", d, sizeof(d));
	c = connect_to(d);
	done(c);
}

/* A connection that keeps a session (no transaction pooler) turns JIT off
 * before its first prepared statement: a claim's generic plan can cost
 * more than jit_above_cost, and compiling it took ~55 ms a call. */
static void test_session_jit_off(void **state)
{
	(void)state;
	lq_err err = {{0}, 0, 0};
	struct rows r = {0};
	struct lq_conn *c = conn();

	RUN0(c, db_now, &r);
	lq_status st = be->exec_script(c, "DO $$ BEGIN IF current_setting('jit') <> 'off' THEN "
					  "RAISE EXCEPTION 'jit is %', current_setting('jit'); END IF; END $$",
				       &err);
	assert_int_equal(st, LQ_OK);
	rows_reset(&r);
	done(c);
}

/* ------------------------------------------------------------ values */

static void test_bytea_roundtrip(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	struct rows r = {0};
	size_t n = 1u << 20;
	unsigned char *p = malloc(n);

	assert_non_null(p);
	for (size_t k = 0; k < n; k++)
		p[k] = (k % 3 == 0) ? 0 : (unsigned char)(k * 131 + (k >> 9));
	int64_t aff = RUN(c, task_insert, &r, lq__v_text("default"), lq__v_text("big"), lq_v_blob(p, n),
			  lq_v_null(), lq_v_int(0), lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(),
			  lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	assert_int_equal(aff, 1);
	int64_t id = r.i[0];
	assert_true(id > 0);

	RUN(c, task_get, &r, lq_v_int(id));
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, LQ_TASK_COLS);
	assert_int_equal(r.type[3], LQ_V_BLOB);
	assert_int_equal(r.blob_len, n);
	assert_memory_equal(r.blob, p, n);
	assert_string_equal(r.s[1], "default");
	assert_string_equal(r.s[2], "big");
	assert_int_equal(r.type[18], LQ_V_NULL); /* died_at */
	assert_int_equal(r.i[17], 0);            /* dead */

	/* An empty payload is not NULL, and NULL stays NULL. */
	RUN(c, task_insert, &r, lq__v_text("default"), lq__v_text("empty"), lq_v_blob(NULL, 0),
	    lq_v_null(), lq_v_int(0), lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(),
	    lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	RUN(c, task_get, &r, lq_v_int(r.i[0]));
	assert_int_equal(r.type[3], LQ_V_BLOB);
	assert_int_equal(r.blob_len, 0);
	RUN(c, task_insert, &r, lq__v_text("default"), lq__v_text("none"), lq_v_null(), lq_v_null(),
	    lq_v_int(0), lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	RUN(c, task_get, &r, lq_v_int(r.i[0]));
	assert_int_equal(r.type[3], LQ_V_NULL);

	/* Text keeps its bytes (UTF-8 included). */
	const char *utf = "t\xc3\xa2" "che \xe2\x9c\x93";
	lease_row(c, lq__v_text(utf), lq__v_text("o"), lq_v_int(1000));
	RUN(c, lease_get, &r, lq__v_text(utf));
	assert_int_equal(r.n, 1);
	assert_string_equal(r.s[0], utf);
	rows_reset(&r);
	free(p);
	done(c);
}

static void test_affected_rows(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	struct rows r = {0};

	assert_int_equal(lease_row(c, lq__v_text("a"), lq__v_text("o1"), lq_v_int(60000)), 1);
	assert_int_equal(lease_row(c, lq__v_text("a"), lq__v_text("o2"), lq_v_int(60000)), 0);
	/* Byte-exact names: 'a', 'a ' and 'A' are three leases. */
	assert_int_equal(lease_row(c, lq__v_text("a "), lq__v_text("o1"), lq_v_int(60000)), 1);
	assert_int_equal(lease_row(c, lq__v_text("A"), lq__v_text("o1"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(c, lease_take, NULL, lq__v_text("a"), lq__v_text("o2"), lq_v_int(60000)), 0);
	assert_int_equal(RUN(c, lease_renew, NULL, lq__v_text("a"), lq__v_text("o1"), lq_v_int(1),
			     lq_v_int(60000)), 1);
	assert_int_equal(RUN(c, lease_renew, NULL, lq__v_text("a"), lq__v_text("o1"), lq_v_int(2),
			     lq_v_int(60000)), 0);
	assert_int_equal(RUN(c, lease_release, NULL, lq__v_text("a"), lq__v_text("o1"), lq_v_int(1)), 1);
	assert_int_equal(RUN(c, lease_take, NULL, lq__v_text("a"), lq__v_text("o2"), lq_v_int(5000)), 1);

	RUN(c, lease_get, &r, lq__v_text("a"));
	assert_int_equal(r.ncols, 6);
	assert_string_equal(r.s[1], "o2");
	assert_int_equal(r.i[2], 2);                   /* token moved on */
	assert_int_equal(r.i[4] - r.i[3], 5000);       /* one instant per statement */
	assert_true(r.i[5] >= r.i[3] && r.i[5] < r.i[4]);

	assert_int_equal(RUN(c, lease_break, NULL, lq__v_text("a")), 1);
	assert_int_equal(RUN(c, lease_break, NULL, lq__v_text("nope")), 0);
	RUN(c, lease_get, &r, lq__v_text("a"));
	assert_int_equal(r.type[1], LQ_V_NULL);
	assert_int_equal(r.i[2], 3);

	/* A SELECT counts its rows; a stopped reader leaves the connection usable. */
	assert_int_equal(RUN(c, lease_list, &r, lq_v_null()), 3);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.s[0], "A"); /* byte order */
	rows_reset(&r);
	r.stop_after = 1;
	lq_err err = {{0}, 0, 0};
	int64_t aff = 0;
	const lq_value all_names = lq_v_null();
	assert_int_equal(be->exec(c, LQ_SQL_lease_list, &all_names, 1, collect, &r, &aff, &err), LQ_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(RUN0(c, db_now, NULL), 1);
	rows_reset(&r);
	done(c);
}

/* ------------------------------------------------------------ the catalogue */

/* The highest ?N / $N in a statement: its parameter count. */
static int max_param(const char *sql, char mark)
{
	int m = 0;
	for (const char *p = sql; (p = strchr(p, mark)) != NULL; p++) {
		int v = atoi(p + 1);
		if (v > m)
			m = v;
	}
	return m;
}

/* Statements only MySQL/MariaDB has: it takes a priority bound only as a
 * constant, and a locking read keeps every row it read locked, so it reads
 * one priority at a time (task_priority_step, task_candidates_at, _top,
 * _due), and it reads a fair claim's heads in statements of their own
 * (task_candidates_fair_one, _after, _upto, _next, partition_lock_all);
 * PostgreSQL claims in one statement. */
static int mysql_only(lq_sql_id id)
{
	return id == LQ_SQL_task_priority_step || id == LQ_SQL_task_candidates_at ||
	       id == LQ_SQL_task_candidates_fair_below || id == LQ_SQL_task_candidates_fair_one ||
	       id == LQ_SQL_task_candidates_fair_after || id == LQ_SQL_task_candidates_fair_upto ||
	       id == LQ_SQL_task_candidates_fair_after_at || id == LQ_SQL_task_candidates_fair_upto_at ||
	       id == LQ_SQL_task_candidates_fair_next_at ||
	       id == LQ_SQL_task_candidates_fair_next || id == LQ_SQL_partition_lock_all ||
	       id == LQ_SQL_task_candidates_due || id == LQ_SQL_task_candidates_top ||
	       id == LQ_SQL_task_candidates_top_filtered;
}

/* Statements only SQLite has: a batch add without RETURNING, whose ids
 * its backend reads without a statement (last_insert_id). */
static int sqlite_only(lq_sql_id id)
{
	return id == LQ_SQL_task_insert_many_keyless;
}

static void test_catalogue_matches_sqlite(void **state)
{
	(void)state;
	for (int id = 0; id < LQ_SQL__COUNT; id++) {
		const char *pg = lq__sql_postgres[id], *lite = lq__sql_sqlite[id];
		if (id == LQ_SQL_run_count || id == LQ_SQL_run_count_many)
			continue; /* only where LQ_CAP_RUN_COUNT_APART (MySQL) */
		if (mysql_only((lq_sql_id)id) || sqlite_only((lq_sql_id)id))
			continue;
		if (id == LQ_SQL_task_candidates_fair_turn)
			continue; /* PostgreSQL claims a turn's batch in one statement */
		if (!pg)
			fail_msg("statement %s is missing in sql/postgres", lq__sql_name((lq_sql_id)id));
		if (lite && max_param(lite, '?') != max_param(pg, '$'))
			fail_msg("statement %s: %d parameters in sqlite, %d in postgres",
				 lq__sql_name((lq_sql_id)id), max_param(lite, '?'), max_param(pg, '$'));
	}
}

/* Every statement prepares and runs, with the columns the catalogue says. */
static void test_every_statement(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	struct rows r = {0};
	lq_err err = {{0}, 0, 0};
	int ran[LQ_SQL__COUNT] = {0};
	const lq_value q = lq__v_text("q"), nm = lq__v_text("job");
	const unsigned char pl[] = {1, 0, 2};
	const lq_value pay = lq_v_blob(pl, sizeof(pl));

#define DID(id) ran[LQ_SQL_##id] = 1
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	RUN0(c, db_now, &r), DID(db_now);
	assert_int_equal(r.ncols, 1);
	int64_t now = r.i[0];
	RUN0(c, schema_exists, &r), DID(schema_exists);
	assert_int_equal(r.i[0], 1);
	RUN0(c, migrate_lock, NULL), DID(migrate_lock);
	RUN0(c, schema_create, NULL), DID(schema_create);
	RUN0(c, schema_version, &r), DID(schema_version);
	assert_int_equal(r.i[0], be->migrations[*be->n_migrations - 1].version);
	assert_int_equal(RUN(c, schema_record, NULL, lq_v_int(999), lq__v_text("0999_test")), 1);
	DID(schema_record);
	RUN0(c, migrate_unlock, NULL), DID(migrate_unlock);

	assert_int_equal(lease_row(c, nm, lq__v_text("o"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(c, lease_take, NULL, nm, lq__v_text("o2"), lq_v_int(60000)), 0);
	DID(lease_take);
	/* Held: no take, and the row as the statement saw it, got = 0. */
	RUN(c, lease_acquire, &r, nm, lq__v_text("o2"), lq_v_int(60000)), DID(lease_acquire);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, 7);
	assert_int_equal(r.i[2], 1);
	assert_int_equal(r.i[6], 0);
	/* Held: no row (the caller reads it). */
	RUN(c, lease_acquire_free, &r, nm, lq__v_text("o2"), lq_v_int(60000)), DID(lease_acquire_free);
	assert_int_equal(r.n, 0);
	RUN(c, lease_get, &r, nm), DID(lease_get);
	assert_int_equal(r.ncols, 6);
	assert_int_equal(RUN(c, lease_renew, NULL, nm, lq__v_text("o"), lq_v_int(1), lq_v_int(60000)), 1);
	DID(lease_renew);
	assert_int_equal(RUN(c, lease_release_notify, NULL, nm, lq__v_text("o2"), lq_v_int(1)), 0);
	DID(lease_release_notify); /* not the holder: a row only when released */
	assert_int_equal(RUN(c, lease_release, NULL, nm, lq__v_text("o"), lq_v_int(1)), 1);
	DID(lease_release);
	assert_int_equal(RUN(c, lease_renew, NULL, nm, lq__v_text("o"), lq_v_int(1), lq_v_int(60000)), 0);
	assert_int_equal(RUN(c, lease_take, NULL, nm, lq__v_text("o3"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(c, lease_release_notify, NULL, nm, lq__v_text("o3"), lq_v_int(2)), 1);
	assert_int_equal(RUN(c, lease_break, NULL, nm), 1);
	DID(lease_break);
	/* Free: taken, token + 1, got = 1, NOW the acquired_at. */
	RUN(c, lease_acquire_free, &r, nm, lq__v_text("o4"), lq_v_int(60000));
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, 7);
	assert_int_equal(r.i[2], 4);
	assert_int_equal(r.i[5], r.i[3]);
	assert_int_equal(r.i[6], 1);
	assert_int_equal(RUN(c, lease_release, NULL, nm, lq__v_text("o4"), lq_v_int(4)), 1);
	RUN(c, lease_list, &r, lq_v_null()), DID(lease_list);
	assert_int_equal(r.ncols, 10); /* LEASE_COLS, slot, the row's owner, token, expires_at */

	assert_int_equal(RUN(c, task_insert, &r, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
			     lq__v_text("u1"), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
	int64_t id = r.i[0];
	assert_int_equal(RUN(c, task_insert, NULL, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
			     lq__v_text("u1"), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 0);
	DID(task_insert);
	/* One-statement enqueue: the id back, nothing for a taken key. */
	RUN(c, task_insert_notify, &r, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3), lq__v_text("u2"),
	    lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	DID(task_insert_notify);
	assert_int_equal(r.n, 1);
	assert_true(r.i[0] > id);
	int64_t id2 = r.i[0];
	RUN(c, task_insert_notify, &r, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3), lq__v_text("u2"),
	    lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	assert_int_equal(r.n, 0);
	assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(id2)), 1);
	/* A task with a concurrency key and a partition: both in the insert. */
	assert_int_equal(RUN(c, task_insert, NULL, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
			     lq__v_text("u3"), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0),
			     lq_v_null(), lq__v_text("ck"), lq__v_text("pp")), 1);
	assert_int_equal(RUN(c, task_insert, NULL, q, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
			     lq__v_text("u3"), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0),
			     lq_v_null(), lq__v_text("ck"), lq_v_null()), 0);
		RUN(c, task_find_unique, &r, lq__v_text("u3"));
	int64_t id3 = r.i[0];
	RUN(c, task_part_get, &r, lq_v_int(id3));
	assert_string_equal(r.s[0], "pp");
	assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(id3)), 1);
	{
		/* Bulk enqueue: two tasks in the NULL-padded statement, the one
		 * with the taken key "u1" skipped. */
		static lq_value pm[100 * 15]; /* LQ_ADD_MANY_CHUNK tasks */
		for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++)
			pm[k] = lq_v_null();
		for (int t = 0; t < 2; t++) {
			lq_value *v = pm + t * 15;
			v[0] = q, v[1] = nm, v[4] = lq_v_int(0), v[5] = lq_v_int(3);
			v[6] = t ? lq__v_text("u1") : lq_v_null();
			v[10] = lq_v_int(0), v[11] = lq_v_int(7);
		}
		run_st(c, LQ_OK, LQ_SQL_task_insert_many, pm, (int)(sizeof(pm) / sizeof(pm[0])), &r);
		DID(task_insert_many);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.type[1], LQ_V_NULL);
		assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(r.i[0])), 1);
		/* The same options once, then two names and payloads. */
		static lq_value ps[13 + 100 * 2];
		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++)
			ps[k] = lq_v_null();
		ps[0] = lq__v_text("pg_same"), ps[2] = lq_v_int(0), ps[3] = lq_v_int(3), ps[8] = lq_v_int(0), ps[9] = lq_v_int(7);
		ps[13] = nm, ps[14] = lq_v_blob("p1", 2), ps[15] = nm, ps[16] = lq_v_blob("p2", 2);
		run_st(c, LQ_OK, LQ_SQL_task_insert_many_same, ps, (int)(sizeof(ps) / sizeof(ps[0])), &r);
		DID(task_insert_many_same);
		assert_int_equal(r.n, 2);
		int64_t s1 = r.i[0];
		RUN(c, task_get, &r, lq_v_int(s1));
		assert_int_equal(r.n, 1);
		assert_int_equal(r.blob_len, 2);
		assert_memory_equal(r.blob, "p1", 2);
		assert_int_equal(r.i[6], 3);  /* max_attempts */
		assert_int_equal(r.i[20], 7); /* priority */
		RUN(c, task_claim_batch_delete, &r, lq__v_text("pg_same"), lq_v_int(10));
		assert_int_equal(r.n, 2); /* both, due now */
		assert_int_equal(r.i[0], s1);
	}
	RUN(c, task_find_unique, &r, lq__v_text("u1")), DID(task_find_unique);
	assert_int_equal(r.i[0], id);
	{
		/* One-statement claims, on queue qb: a plain task is claimed, a
		 * recurring one is only reported (claimed = 0). */
		const lq_value qb = lq__v_text("qb");
		int64_t plain1, plain2, every;
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
				     lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		plain1 = r.i[0];
		RUN(c, task_claim_batch_update, &r, qb, lq_v_int(10), lq__v_text("wb"), lq_v_int(30000));
		DID(task_claim_batch_update);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.ncols, LQ_TASK_COLS + 1);
		assert_int_equal(r.i[0], plain1);
		assert_string_equal(r.s[8], "wb"); /* the row as updated */
		assert_int_equal(r.i[5], 1);
		assert_true(r.i[9] >= r.i[19] + 30000);
		assert_int_equal(r.i[LQ_TASK_COLS], 1); /* claimed */
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, lq_v_null(), lq_v_null(), lq_v_int(0),
				     lq_v_int(3), lq_v_null(), lq_v_int(60000), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		every = r.i[0];
		assert_int_equal(RUN(c, task_run_now, NULL, lq_v_int(every)), 1);
		RUN(c, task_claim_batch_delete, &r, qb, lq_v_int(10)), DID(task_claim_batch_delete);
		assert_int_equal(r.n, 1); /* the claimed plain task is not due */
		assert_int_equal(r.ncols, LQ_TASK_COLS + 1);
		assert_int_equal(r.type[0], LQ_V_NULL);
		assert_int_equal(r.i[LQ_TASK_COLS], 0); /* claimed */
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
				     lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		plain2 = r.i[0];
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(every), lq_v_int(1)), 1);
		RUN(c, task_claim_batch_delete, &r, qb, lq_v_int(10));
		assert_int_equal(r.n, 1);
		assert_int_equal(r.i[0], plain2);
		assert_int_equal(r.blob_len, sizeof(pl));
		assert_int_equal(r.i[LQ_TASK_COLS], 1); /* claimed */
		RUN(c, task_claim_batch_delete, &r, qb, lq_v_int(10));
		assert_int_equal(r.n, 0); /* gone */
		/* The one-task forms: the same results without the limit. */
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, pay, lq_v_null(), lq_v_int(0), lq_v_int(3),
				     lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		plain2 = r.i[0];
		RUN(c, task_claim_one_update, &r, qb, lq__v_text("wo"), lq_v_int(30000)), DID(task_claim_one_update);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.ncols, LQ_TASK_COLS + 1);
		assert_int_equal(r.i[0], plain2);
		assert_string_equal(r.s[8], "wo");
		assert_true(r.i[9] >= r.i[19] + 30000);
		assert_int_equal(r.i[LQ_TASK_COLS], 1);
		assert_int_equal(RUN(c, task_release_claim, NULL, lq_v_int(plain2), lq__v_text("wo")), 1);
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(every), lq_v_int(0)), 1);
		assert_int_equal(RUN(c, task_run_now, NULL, lq_v_int(every)), 1);
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(plain2), lq_v_int(1)), 1);
		RUN(c, task_claim_one_delete, &r, qb), DID(task_claim_one_delete);
		assert_int_equal(r.n, 1); /* the recurring task: reported, not claimed */
		assert_int_equal(r.type[0], LQ_V_NULL);
		assert_int_equal(r.i[LQ_TASK_COLS], 0);
		RUN(c, task_claim_one_delete_top, &r, qb, lq_v_int(0)), DID(task_claim_one_delete_top);
		assert_int_equal(r.n, 1); /* the same, from priority 0 */
		assert_int_equal(r.ncols, LQ_TASK_COLS + 1);
		assert_int_equal(r.i[LQ_TASK_COLS], 0);
		RUN(c, task_claim_one_delete_top, &r, qb, lq_v_int(-1));
		assert_int_equal(r.n, 0); /* priority 0 is above it */
		RUN(c, task_claim_one_delete_occ, &r, qb), DID(task_claim_one_delete_occ);
		assert_int_equal(r.n, 1); /* an interval occurrence: moved on, one slot */
		assert_int_equal(r.ncols, LQ_TASK_COLS + 2);
		assert_int_equal(r.i[0], every);
		assert_int_equal(r.i[LQ_TASK_COLS], 2);
		assert_int_equal(r.i[LQ_TASK_COLS + 1], r.i[4] + 60000);
		/* A cron occurrence: reported, not claimed. */
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(3),
				     lq_v_null(), lq_v_null(), lq__v_text("* * * * *"), lq_v_null(), lq_v_int(0),
				     lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		int64_t cron = r.i[0];
		RUN(c, task_claim_one_delete_occ, &r, qb);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.type[0], LQ_V_NULL);
		assert_int_equal(r.i[LQ_TASK_COLS], 0);
		/* From the priority known: the cron head reported as above, an
		 * interval occurrence due now moved on, and nothing read from
		 * below a priority that has tasks. */
		RUN(c, task_claim_one_delete_occ_top, &r, qb, lq_v_int(0)), DID(task_claim_one_delete_occ_top);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.ncols, LQ_TASK_COLS + 2);
		assert_int_equal(r.type[0], LQ_V_NULL);
		assert_int_equal(r.i[LQ_TASK_COLS], 0);
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(cron), lq_v_int(1)), 1);
		assert_int_equal(RUN(c, task_insert, &r, qb, nm, lq_v_null(), lq_v_null(), lq_v_int(0),
				     lq_v_int(3), lq_v_null(), lq_v_int(60000), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()), 1);
		int64_t every2 = r.i[0];
		RUN(c, task_claim_one_delete_occ_top, &r, qb, lq_v_int(-1));
		assert_int_equal(r.n, 0); /* priority 0 is above it */
		RUN(c, task_claim_one_delete_occ_top, &r, qb, lq_v_int(0));
		assert_int_equal(r.n, 1);
		assert_int_equal(r.i[0], every2);
		assert_int_equal(r.i[LQ_TASK_COLS], 2);
		assert_int_equal(r.i[LQ_TASK_COLS + 1], r.i[4] + 60000);
		RUN(c, task_claim_one_delete_occ_top, &r, qb, lq_v_int(0));
		assert_int_equal(r.n, 0); /* moved on: nothing of priority 0 is due */
		assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(every2)), 1);
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(every), lq_v_int(1)), 1);
		assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(plain2), lq_v_int(0)), 1);
		RUN(c, task_claim_one_delete, &r, qb);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.i[0], plain2);
		assert_int_equal(r.i[LQ_TASK_COLS], 1);
		RUN(c, task_claim_one_delete, &r, qb);
		assert_int_equal(r.n, 0);
		assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(plain1)), 1);
		assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(every)), 1);
		assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(cron)), 1);
	}
	RUN(c, task_candidates, &r, q, lq_v_int(10)), DID(task_candidates);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, LQ_TASK_COLS + LQ_STEER_COLS); /* the steering after the row */
	assert_int_equal(r.i[0], id);
	assert_true(r.i[19] >= now);
	int64_t created = r.i[16];
	assert_int_equal(RUN(c, task_claim_update, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(30000)), 1);
	DID(task_claim_update);
	{
		/* The set claims leave a live claim alone (NULLs match nothing). */
		lq_value set[102];
		for (int k = 0; k < 102; k++)
			set[k] = lq_v_null();
		set[0] = lq__v_text("w2");
		set[1] = lq_v_int(30000);
		set[2] = lq_v_int(id);
		assert_int_equal(run_st(c, LQ_OK, LQ_SQL_task_claim_update_set, set, 102, NULL), 0);
		DID(task_claim_update_set);
		assert_int_equal(run_st(c, LQ_OK, LQ_SQL_task_claim_delete_set, set + 2, 100, NULL), 0);
		DID(task_claim_delete_set);
	}
	assert_int_equal(RUN(c, task_heartbeat, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(30000)), 1);
	DID(task_heartbeat);
	/* Progress under the claim, read back; refused to another owner. */
	assert_int_equal(RUN(c, task_progress_set, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(40), lq__v_text("m")), 1);
	assert_int_equal(RUN(c, task_progress_set, NULL, lq_v_int(id), lq__v_text("x"), lq_v_int(50), lq_v_null()), 0);
	DID(task_progress_set);
	RUN(c, task_progress_get, &r, lq_v_int(id)), DID(task_progress_get);
	assert_int_equal(r.ncols, 4);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.i[0], 40);
	/* Snoozes that match no claim and no occurrence change nothing. */
	assert_int_equal(RUN(c, task_snooze_claim, NULL, lq_v_int(id), lq__v_text("x"), lq_v_int(1000)), 0);
	DID(task_snooze_claim);
	assert_int_equal(RUN(c, task_snooze_occurrence, NULL, lq_v_int(id), lq_v_int(1), lq_v_int(1000)), 0);
	DID(task_snooze_occurrence);
	/* Handed back unclaimed, then claimed again by the same owner. */
	assert_int_equal(RUN(c, task_release_claim, NULL, lq_v_int(id), lq__v_text("w")), 1);
	DID(task_release_claim);
	assert_int_equal(RUN(c, task_release_claim, NULL, lq_v_int(id), lq__v_text("w")), 0);
	assert_int_equal(RUN(c, task_claim_update, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(30000)), 1);
	assert_int_equal(RUN(c, task_retry_later, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(0),
			     lq__v_text("boom")), 1);
	DID(task_retry_later);
	/* An at-least-once occurrence: retried after a back-off (0 here), then
	 * done (run_at to a due time again, so the delete below can claim it). */
	assert_int_equal(RUN(c, task_claim_update, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(30000)), 1);
	assert_int_equal(RUN(c, task_retry_occurrence, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(0),
			     lq__v_text("boom")), 1);
	DID(task_retry_occurrence);
	assert_int_equal(RUN(c, task_claim_update, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(30000)), 1);
	assert_int_equal(RUN(c, task_ack_occurrence, NULL, lq_v_int(id), lq__v_text("x"), lq_v_int(now - 1),
			     lq_v_null()), 0);
	assert_int_equal(RUN(c, task_ack_occurrence, NULL, lq_v_int(id), lq__v_text("w"), lq_v_int(now - 1),
			     lq_v_null()), 1);
	DID(task_ack_occurrence);
	assert_int_equal(RUN(c, task_claim_delete, NULL, lq_v_int(id)), 1);
	DID(task_claim_delete);
	assert_int_equal(RUN(c, task_reinsert, NULL, lq_v_int(id), q, nm, pay, lq_v_int(1), lq_v_int(3),
			     lq__v_text("u1"), lq_v_int(0), lq__v_text("e"), lq_v_int(created), lq_v_int(0), lq_v_null(), lq_v_null(),
			     lq__v_text("p")), 1);
	assert_int_equal(RUN(c, task_reinsert, NULL, lq_v_int(id), q, nm, pay, lq_v_int(1), lq_v_int(3),
			     lq__v_text("u1"), lq_v_int(0), lq__v_text("e"), lq_v_int(created), lq_v_int(0), lq_v_null(), lq_v_null(),
			     lq__v_text("p")), 0);
	DID(task_reinsert);
	RUN(c, task_get, &r, lq_v_int(id)), DID(task_get);
	assert_int_equal(r.ncols, LQ_TASK_COLS);
	assert_int_equal(r.blob_len, sizeof(pl));
	assert_memory_equal(r.blob, pl, sizeof(pl));
	assert_int_equal(r.i[5], 1); /* attempts */
	assert_string_equal(r.s[15], "e");
	assert_string_equal(r.s[23], "p"); /* partition */
	int64_t run_at = r.i[4];
	assert_int_equal(RUN(c, task_claim_occurrence, NULL, lq_v_int(id), lq_v_int(run_at),
			     lq_v_int(run_at + 60000)), 1);
	DID(task_claim_occurrence);
	assert_int_equal(RUN(c, task_ack, NULL, lq_v_int(id), lq__v_text("nobody")), 0);
	DID(task_ack);
	assert_int_equal(RUN(c, task_record_error, NULL, lq_v_int(id), lq__v_text("x")), 1);
	DID(task_record_error);
	assert_int_equal(RUN(c, task_set_paused, NULL, lq_v_int(id), lq_v_int(1)), 1);
	DID(task_set_paused);
	assert_int_equal(RUN(c, task_run_now, NULL, lq_v_int(id)), 1);
	DID(task_run_now);
	RUN(c, task_list, &r, lq_v_null(), lq_v_int(0)), DID(task_list);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, LQ_TASK_COLS);
	assert_int_equal(r.type[3], LQ_V_NULL); /* no payloads in lists */
	RUN(c, task_list, &r, q, lq_v_int(1));
	assert_int_equal(r.n, 0); /* paused */
	assert_int_equal(RUN(c, task_bury, NULL, lq_v_int(id), lq_v_null(), lq__v_text("dead")), 1);
	DID(task_bury);
	assert_int_equal(RUN(c, task_delete, NULL, lq_v_int(id)), 1);
	DID(task_delete);
	assert_int_equal(RUN(c, task_dead_insert, NULL, lq_v_int(id + 1000), q, nm, pay, lq_v_int(3),
			     lq_v_int(3), lq_v_null(), lq__v_text("err"), lq_v_int(created), lq_v_int(0), lq_v_null(), lq_v_null(),
			     lq__v_text("p")), 1);
	DID(task_dead_insert);
	RUN(c, task_list_dead, &r, q), DID(task_list_dead);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.ncols, LQ_TASK_COLS);
	assert_int_equal(r.i[17], 1);
	RUN(c, task_get, &r, lq_v_int(id));
	assert_int_equal(r.i[17], 1);
	assert_int_equal(r.type[18], LQ_V_INT); /* died_at */
	/* Both dead rows died just now: older than -1 min, not older than 1 h. */
	RUN(c, task_dead_prune_count, &r, lq_v_int(-60000), q), DID(task_dead_prune_count);
	assert_int_equal(r.i[0], 2);
	assert_int_equal(RUN(c, task_dead_prune, NULL, lq_v_int(3600000), q, lq_v_int(10)), 0);
	DID(task_dead_prune);
	RUN(c, health_counts, &r, lq_v_int(3600000)), DID(health_counts);
	assert_int_equal(r.ncols, 7);
	assert_true(r.i[5] >= 2); /* the dead rows above */
	RUN0(c, health_indexes, &r), DID(health_indexes);
	assert_true(r.n >= 4);
	RUN0(c, health_journal, &r), DID(health_journal);
	assert_int_equal(r.n, 1);
	assert_int_equal(RUN(c, task_dead_delete, NULL, lq_v_int(id + 1000)), 1);
	DID(task_dead_delete);
	assert_int_equal(RUN(c, task_revive, NULL, lq_v_int(id)), 1);
	DID(task_revive);

	assert_int_equal(RUN(c, queue_set_paused, NULL, q, lq_v_int(1)), 1);
	assert_int_equal(RUN(c, queue_set_paused, NULL, q, lq_v_int(1)), 1);
	DID(queue_set_paused);
	RUN0(c, queue_list, &r), DID(queue_list);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, 6);
	assert_string_equal(r.s[0], "q");
	assert_int_equal(r.i[1], 1);
	assert_int_equal(r.i[2], 1);
	assert_int_equal(r.i[4], 1); /* the dead copy is still there */
	RUN(c, queue_next_due, &r, q), DID(queue_next_due);
	assert_int_equal(r.ncols, 2);
	assert_int_equal(r.type[0], LQ_V_NULL); /* queue paused */
	assert_int_equal(r.type[1], LQ_V_INT);
	RUN(c, tick_probe, &r, nm, q), DID(tick_probe);
	assert_int_equal(r.ncols, 2);
	assert_int_equal(r.i[0], 0); /* broken above */
	assert_int_equal(r.i[1], 0); /* queue paused */
	assert_int_equal(RUN(c, queue_set_paused, NULL, q, lq_v_int(0)), 1);
	assert_int_equal(RUN(c, lease_take, NULL, nm, lq__v_text("r"), lq_v_int(60000)), 1);
	RUN(c, tick_probe, &r, nm, q);
	assert_int_equal(r.i[0], 1);
	assert_int_equal(r.i[1], 1); /* revived: due now */
	RUN(c, queue_next_due, &r, q);
	assert_int_equal(r.type[0], LQ_V_INT);
	assert_true(r.i[0] <= r.i[1]);
	tx_ok(be->rollback(c, &err), &err, "ROLLBACK");
#undef DID

	/* Run through the library by the conformance groups "shared" (the
	 * semaphore and read/write lease statements), "run" (the run history
	 * and counters), "cancel", "steer" (steering schedules), "limits"
	 * (flow control) and "partition" on this server, not one by one here
	 * yet. */
	static const lq_sql_id via_conformance[] = {
		LQ_SQL_lease_create, LQ_SQL_lease_lock, LQ_SQL_lease_slot_get, LQ_SQL_lease_slot_scan,
		LQ_SQL_lease_slot_insert, LQ_SQL_lease_slot_take, LQ_SQL_lease_slot_renew, LQ_SQL_lease_slot_release,
		LQ_SQL_lease_slot_break, LQ_SQL_lease_rw_state, LQ_SQL_lease_read_purge, LQ_SQL_lease_read_insert,
		LQ_SQL_lease_read_extend, LQ_SQL_lease_read_shrink, LQ_SQL_lease_promote, LQ_SQL_lease_demote,
		LQ_SQL_lease_intent_set, LQ_SQL_lease_intent_clear, LQ_SQL_run_insert, LQ_SQL_run_insert_many,
		LQ_SQL_task_ack_run, LQ_SQL_task_ack_run_many, LQ_SQL_task_ack_claim_one_update,
		LQ_SQL_task_ack_claim_one_update_top,
		LQ_SQL_partition_touch, LQ_SQL_partition_touch_many, LQ_SQL_partition_any, LQ_SQL_partition_serve,
		LQ_SQL_partition_forget, LQ_SQL_task_part_get,
		LQ_SQL_task_claim_fair_delete, LQ_SQL_task_claim_fair_update, LQ_SQL_task_claim_fair_one_delete,
		LQ_SQL_task_claim_fair_one_update,
		LQ_SQL_task_candidates_fair, LQ_SQL_task_fair_due_any, LQ_SQL_task_claim_fair_turn_delete,
		LQ_SQL_task_claim_fair_turn_update, LQ_SQL_task_claim_fair_turn_delete_top,
		LQ_SQL_task_claim_fair_turn_batch_delete,
		LQ_SQL_task_claim_fair_turn_batch_update,
		LQ_SQL_run_list, LQ_SQL_run_list_task, LQ_SQL_run_count_since, LQ_SQL_run_prune,
		LQ_SQL_run_prune_count, LQ_SQL_queue_names, LQ_SQL_queue_gauges,
		LQ_SQL_task_cancel_get, LQ_SQL_task_cancel_mark, LQ_SQL_task_cancel_sweep, LQ_SQL_task_cancel_check,
		LQ_SQL_task_running_insert, LQ_SQL_task_running_beat, LQ_SQL_task_running_end,
		LQ_SQL_task_running_get, LQ_SQL_task_running_sweep, LQ_SQL_task_running_list,
		LQ_SQL_task_claim_one_delete_run, LQ_SQL_task_claim_one_delete_keyed, LQ_SQL_task_claim_one_update_keyed,
		LQ_SQL_task_steer_set, LQ_SQL_task_steer_get, LQ_SQL_task_edit_schedule, LQ_SQL_task_run_extra,
		LQ_SQL_task_resume_at, LQ_SQL_task_set_preempt, LQ_SQL_task_preempt, LQ_SQL_task_preempt_mark, LQ_SQL_lease_wait_mark, LQ_SQL_task_mark_success,
		LQ_SQL_schedule_list, LQ_SQL_schedule_alerts,
		LQ_SQL_limit_set, LQ_SQL_limit_get, LQ_SQL_limit_list, LQ_SQL_limit_delete, LQ_SQL_limit_lock,
		LQ_SQL_limit_take_key, LQ_SQL_limit_take_queue, LQ_SQL_limit_refund,
		LQ_SQL_task_insert_many_notify, LQ_SQL_task_insert_many_same_notify,
	};
	for (size_t k = 0; k < sizeof(via_conformance) / sizeof(via_conformance[0]); k++)
		ran[via_conformance[k]] = 1;
	/* Only where LQ_CAP_RUN_COUNT_APART: run_insert counts here itself. */
	assert_false(be->caps & LQ_CAP_RUN_COUNT_APART);
	assert_null(be->sql[LQ_SQL_run_count]);
	assert_null(be->sql[LQ_SQL_run_count_many]);
	ran[LQ_SQL_run_count] = ran[LQ_SQL_run_count_many] = 1;
	for (int k = 0; k < LQ_SQL__COUNT; k++) {
		if (mysql_only((lq_sql_id)k) || sqlite_only((lq_sql_id)k)) {
			assert_null(be->sql[k]);
			ran[k] = 1;
		}
	}
	assert_null(be->sql[LQ_SQL_task_candidates_fair_turn]);
	ran[LQ_SQL_task_candidates_fair_turn] = 1;
	/* A settle's own history row, looked up after an unknown outcome:
	 * none for a run that never ended. */
	assert_int_equal(RUN(c, run_settled, &r, lq_v_int(987654321), lq_v_int(1), lq_v_int(1),
			     lq__v_text("nobody:1")), 0);
	ran[LQ_SQL_run_settled] = 1;
	/* A result for a run that is not there, and none to read. */
	assert_int_equal(RUN(c, run_set_result, NULL, lq_v_int(987654321), lq_v_int(1), lq_v_int(1),
			     lq__v_text("nobody:1"), pay), 0);
	ran[LQ_SQL_run_set_result] = 1;
	RUN(c, run_result, &r, lq_v_int(987654321));
	assert_int_equal(r.n, 0);
	ran[LQ_SQL_run_result] = 1;
	RUN0(c, counter_list, &r);
	ran[LQ_SQL_counter_list] = 1;
	assert_int_equal(r.ncols, 4);
	for (int k = 0; k < LQ_SQL__COUNT; k++)
		if (!ran[k])
			fail_msg("statement %s is not exercised here", lq__sql_name((lq_sql_id)k));
	rows_reset(&r);
	done(c);
}

/* ------------------------------------------------------------ errors */

static void test_error_text(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	lq_err err = {{0}, 0, 0};

	assert_int_equal(be->exec_script(c, "SELECT * FROM lq_no_such_table", &err), LQ_ERROR);
	assert_non_null(strstr(err.msg, "ERROR:  relation \"lq_no_such_table\" does not exist (42P01)"));
	assert_null(strchr(err.msg, '\n'));

	/* COMMIT of a failed transaction answers ROLLBACK: not a success. */
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	assert_int_equal(be->exec_script(c, "SELECT 1/0", &err), LQ_ERROR);
	assert_non_null(strstr(err.msg, "(22012)"));
	assert_int_equal(be->commit(c, &err), LQ_ERROR);
	assert_int_equal(RUN0(c, db_now, NULL), 1);

	/* A statement the server forgot (DISCARD ALL, a pooler): the
	 * connection goes on with unnamed statements; inside a transaction
	 * the error aborted it, so the core retries the transaction. */
	RUN(c, lease_get, NULL, lq__v_text("x"));
	script_ok(c, "DEALLOCATE ALL");
	RUN(c, lease_get, NULL, lq__v_text("x"));
	done(c);
	c = conn();
	RUN(c, lease_get, NULL, lq__v_text("x"));
	script_ok(c, "DEALLOCATE ALL");
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	run_st(c, LQ__RETRY, LQ_SQL_lease_get, (lq_value[]){lq__v_text("x")}, 1, NULL);
	tx_ok(be->rollback(c, &err), &err, "ROLLBACK");
	RUN(c, lease_get, NULL, lq__v_text("x"));
	done(c);
}

static void terminate(const char *app)
{
	struct lq_conn *admin = conn();
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '%s'", app);
	script_ok(admin, sql);
	/* Wait until it is gone. */
	snprintf(sql, sizeof(sql),
		 "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '%s') "
		 "THEN RAISE EXCEPTION 'still there'; END IF; END $$", app);
	lq_err err = {{0}, 0, 0};
	int64_t t0 = mono_ms();
	while (be->exec_script(admin, sql, &err) != LQ_OK) {
		if (mono_ms() - t0 > 10000)
			fail_msg("backend %s was not terminated: %s", app, err.msg);
		sleep_ms(20);
	}
	done(admin);
}

static void test_killed_connection(void **state)
{
	(void)state;
	char app[64], opt[96], d[1024];
	lq_err err = {{0}, 0, 0};

	snprintf(app, sizeof(app), "lqt_kill_%ld", (long)getpid());
	snprintf(opt, sizeof(opt), "application_name=%s", app);
	dsn_with_option(opt, d, sizeof(d));

	/* Killed between statements: the next one says ECONN. */
	struct lq_conn *c = connect_to(d);
	assert_int_equal(RUN0(c, db_now, NULL), 1);
	terminate(app);
	assert_int_equal(be->exec(c, LQ_SQL_db_now, NULL, 0, NULL, NULL, NULL, &err), LQ_ECONN);
	assert_null(strchr(err.msg, '\n'));
	print_message("    killed: %s\n", err.msg);
	assert_int_equal(be->exec(c, LQ_SQL_db_now, NULL, 0, NULL, NULL, NULL, &err), LQ_ECONN);
	assert_int_equal(be->begin(c, 1, &err), LQ_ECONN);
	done(c);

	/* Killed inside a transaction: COMMIT cannot know what happened. */
	c = connect_to(d);
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	lease_row(c, lq__v_text("k"), lq__v_text("o"), lq_v_int(1000));
	terminate(app);
	lq_status st = be->commit(c, &err);
	assert_int_equal(st, LQ_EUNKNOWN);
	print_message("    commit: %s\n", err.msg);
	done(c);
}

/* A transaction's BEGIN goes out with its first statement, one round trip
 * (libpq's pipeline mode): the begin sends nothing, the statement runs
 * inside the transaction (a rollback undoes it), and a transaction that
 * sent no statement sends nothing at its end either. */
static void test_begin_with_first_statement(void **state)
{
	(void)state;
	struct lq_conn *c = conn();
	lq_err err = {{0}, 0, 0};
	struct rows r = {0};

	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	assert_int_equal(err.extra_trips, -1); /* nothing sent */
	assert_int_equal(lease_row(c, lq__v_text("b"), lq__v_text("o"), lq_v_int(60000)), 1);
	tx_ok(be->rollback(c, &err), &err, "ROLLBACK");
	assert_int_equal(RUN(c, lease_get, &r, lq__v_text("b")), 0);

	err.extra_trips = 0;
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	tx_ok(be->commit(c, &err), &err, "COMMIT");
	assert_int_equal(err.extra_trips, -2);

	/* A failed first statement fails the transaction as before. */
	tx_ok(be->begin(c, 1, &err), &err, "BEGIN");
	assert_int_equal(lease_row(c, lq__v_text("b"), lq__v_text("o"), lq_v_int(60000)), 1);
	assert_int_equal(be->exec_script(c, "SELECT 1/0", &err), LQ_ERROR);
	assert_int_equal(be->commit(c, &err), LQ_ERROR);
	assert_int_equal(RUN(c, lease_get, &r, lq__v_text("b")), 0);
	done(c);
}

/* ------------------------------------------------------------ notify */

struct later_notify {
	const char *channel;
	int delay_ms;
	lq_status st;
	lq_err err;
};

static void *notify_later(void *arg)
{
	struct later_notify *n = arg;
	struct lq_conn *c = NULL;

	n->st = be->connect(dsn, 0, &c, &n->err);
	if (n->st != LQ_OK)
		return NULL;
	sleep_ms(n->delay_ms);
	n->st = be->notify(c, n->channel, &n->err);
	be->disconnect(c);
	return NULL;
}

static void test_notify(void **state)
{
	(void)state;
	struct lq_conn *a = conn(), *b = conn();
	lq_err err = {{0}, 0, 0};
	char chan[64];

	assert_true(be->caps & LQ_CAP_NOTIFY);
	snprintf(chan, sizeof(chan), "lqt_chan_%ld", (long)getpid());

	/* Nothing sent: a timeout. */
	assert_int_equal(be->wait_notify(a, chan, 200, &err), LQ_ETIMEDOUT);

	/* Sent while a waits: the notification ends the wait (LQ_OK; the
	 * 30 s are only a bound against a hang). */
	struct later_notify n = {chan, 200, LQ_OK, {{0}, 0, 0}};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, notify_later, &n), 0);
	lq_status st = be->wait_notify(a, chan, 30000, &err);
	pthread_join(th, NULL);
	tx_ok(n.st, &n.err, "notify");
	assert_int_equal(st, LQ_OK);
	assert_int_equal(be->wait_notify(a, chan, 50, &err), LQ_ETIMEDOUT);

	/* Sent while a ran other statements: still counts, even with no wait. */
	tx_ok(be->notify(b, chan, &err), &err, "notify");
	sleep_ms(100);
	RUN0(a, db_now, NULL);
	assert_int_equal(be->wait_notify(a, chan, 0, &err), LQ_OK);

	/* Inside a transaction it is delivered at COMMIT. */
	tx_ok(be->begin(b, 1, &err), &err, "BEGIN");
	tx_ok(be->notify(b, chan, &err), &err, "notify");
	assert_int_equal(be->wait_notify(a, chan, 200, &err), LQ_ETIMEDOUT);
	tx_ok(be->commit(b, &err), &err, "COMMIT");
	assert_int_equal(be->wait_notify(a, chan, 5000, &err), LQ_OK);

	/* Another channel does not wake this one. */
	char other[80];
	snprintf(other, sizeof(other), "%s_other", chan);
	assert_int_equal(be->wait_notify(a, other, 0, &err), LQ_ETIMEDOUT);
	tx_ok(be->notify(b, chan, &err), &err, "notify");
	assert_int_equal(be->wait_notify(a, other, 300, &err), LQ_ETIMEDOUT);
	assert_int_equal(be->wait_notify(a, chan, 0, &err), LQ_OK);

	/* notify=off: no wake-ups, from notify or from an enqueue. */
	char quiet_dsn[1024];
	dsn_with_option("notify=off", quiet_dsn, sizeof(quiet_dsn));
	struct lq_conn *q = connect_to(quiet_dsn);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 0, &err), LQ_ETIMEDOUT);
	tx_ok(be->notify(q, chan, &err), &err, "notify");
	struct rows r = {0};
	RUN(q, task_insert_notify, &r, lq__v_text("lqt_quiet"), lq__v_text("t"), lq_v_null(), lq_v_null(),
	    lq_v_int(0), lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0), lq_v_int(0), lq_v_null(),
	    lq_v_null(), lq_v_null());
	assert_int_equal(r.n, 1);
	assert_int_equal(RUN(q, task_delete, NULL, lq_v_int(r.i[0])), 1);
	assert_int_equal(be->wait_notify(a, chan, 300, &err), LQ_ETIMEDOUT);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 0, &err), LQ_ETIMEDOUT);

	/* A lease released wakes the lease's waiters in the same statement,
	 * when a waiter has marked the lease (lease_wait_mark, until its wait
	 * ends); a release nobody waits for, a release that released nothing,
	 * or one with notify=off wakes nobody (each NOTIFY serialises every
	 * committer on the commit lock). */
	char lname[64];
	snprintf(lname, sizeof(lname), "lqt_wake_%ld", (long)getpid());
	const lq_value ln = lq__v_text(lname);
	assert_int_equal(be->wait_notify(a, "leaseq_lease", 0, &err), LQ_ETIMEDOUT);
	assert_int_equal(lease_row(b, ln, lq__v_text("o"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(b, lease_release_notify, NULL, ln, lq__v_text("o"), lq_v_int(1)), 1);
	assert_int_equal(be->wait_notify(a, "leaseq_lease", 300, &err), LQ_ETIMEDOUT);
	assert_int_equal(RUN(b, lease_take, NULL, ln, lq__v_text("o"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(a, lease_wait_mark, NULL, ln, lq_v_int(60000)), 1);
	assert_int_equal(RUN(b, lease_release_notify, NULL, ln, lq__v_text("x"), lq_v_int(2)), 0);
	assert_int_equal(be->wait_notify(a, "leaseq_lease", 300, &err), LQ_ETIMEDOUT);
	assert_int_equal(RUN(b, lease_release_notify, NULL, ln, lq__v_text("o"), lq_v_int(2)), 1);
	assert_int_equal(be->wait_notify(a, "leaseq_lease", 5000, &err), LQ_OK);
	assert_int_equal(RUN(q, lease_take, NULL, ln, lq__v_text("o2"), lq_v_int(60000)), 1);
	assert_int_equal(RUN(q, lease_release_notify, NULL, ln, lq__v_text("o2"), lq_v_int(3)), 1);
	assert_int_equal(be->wait_notify(a, "leaseq_lease", 300, &err), LQ_ETIMEDOUT);
	script_ok(b, "DELETE FROM lq_lease WHERE name LIKE 'lqt\\_wake\\_%'");
	rows_reset(&r);
	done(q);
	done(a);
	done(b);
}

/* An enqueue wakes the workers when it makes the queue's work appear:
 * the first due task of an empty queue, or a task due before any other
 * waiting one.  A queue that already has due work, whose workers are
 * busy or about to claim, sends no NOTIFY (each one serialised every
 * enqueuer on the commit lock), and says so in its second column, busy
 * (the library then skips the look for a moment).  busy_want: 1 or 0. */
static struct rows enqueue_at(struct lq_conn *c, const char *queue, int64_t delay_ms, int busy_want)
{
	struct rows r = {0};
	RUN(c, task_insert_notify, &r, lq__v_text(queue), lq__v_text("t"), lq_v_null(), lq_v_null(),
	    lq_v_int(delay_ms), lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_int(0),
	    lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null());
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ncols, 2);
	assert_int_equal(r.i[1], busy_want);
	return r;
}

static void test_enqueue_wakes_idle_worker(void **state)
{
	(void)state;
	struct lq_conn *a = conn(), *b = conn();
	lq_err err = {{0}, 0, 0};
	char queue[64];
	snprintf(queue, sizeof(queue), "lqt_wake_q_%ld", (long)getpid());

	/* a is a worker idle on the empty queue: LISTENing, nothing pending. */
	assert_int_equal(be->wait_notify(a, "leaseq_task", 0, &err), LQ_ETIMEDOUT);
	/* A future task in an empty queue: the idle worker's next due time
	 * moves, so it is woken to look. */
	enqueue_at(b, queue, 3600000, 0);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	/* A later future task changes nothing: no wake-up.  Not busy either:
	 * what it found is not due yet. */
	enqueue_at(b, queue, 7200000, 0);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 300, &err), LQ_ETIMEDOUT);
	/* The first due task wakes it (the 30 s only bound a hang). */
	enqueue_at(b, queue, 0, 0);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	/* More due work on a queue that has some: no wake-up. */
	enqueue_at(b, queue, 0, 1);
	enqueue_at(b, queue, 0, 1);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 300, &err), LQ_ETIMEDOUT);
	/* Due work under a live at-least-once claim is not claimable: the
	 * next enqueue wakes the idle workers again. */
	char sql[256];
	snprintf(sql, sizeof(sql),
		 "UPDATE lq_task SET claim_owner = 'w', claim_until = 9000000000000 WHERE queue = '%s'", queue);
	script_ok(b, sql);
	enqueue_at(b, queue, 0, 0);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	snprintf(sql, sizeof(sql), "DELETE FROM lq_task WHERE queue = '%s'", queue);
	script_ok(b, sql);
	done(a);
	done(b);
}

/* A handle on this test's tables (those of conn()). */
static lq_db *open_here(void)
{
	char opt[128], ours[1024];
	lq_db *db = NULL;
	snprintf(opt, sizeof(opt), "options=-csearch_path%%3D%s", schema);
	dsn_with_option(opt, ours, sizeof(ours));
	assert_int_equal(lq_open(ours, &db), LQ_OK);
	return db;
}

/* Through the library: an add that finds due work in its queue spares the
 * handle's next adds there the look and the wake-up for a moment
 * (LQ_WAKE_BUSY_MS); once that is over, an add into the queue drained
 * meanwhile wakes the idle workers again.  The memo's clock is set by hand,
 * so that a slow machine cannot end the moment early or late. */
static void test_add_skips_look_while_busy(void **state)
{
	(void)state;
	struct lq_conn *a = conn(), *b = conn();
	lq_err err = {{0}, 0, 0};
	lq_db *db = NULL;
	char queue[64], sql[256];
	snprintf(queue, sizeof(queue), "lqt_busy_q_%ld", (long)getpid());
	snprintf(sql, sizeof(sql), "DELETE FROM lq_task WHERE queue = '%s'", queue);
	db = open_here();
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = queue;
	int64_t ids[4];

	assert_int_equal(be->wait_notify(a, "leaseq_task", 0, &err), LQ_ETIMEDOUT);
	assert_int_equal(lq_task_add(db, "t", &o, &ids[0], NULL), LQ_OK);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	assert_int_equal(lq_task_add(db, "t", &o, &ids[1], NULL), LQ_OK);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 300, &err), LQ_ETIMEDOUT);
	assert_int_equal(db->wake_busy.yes, 1);
	assert_string_equal(db->wake_busy.queue, queue);

	/* Within the moment: the queue drained by others, an add sends
	 * task_insert, which wakes nobody. */
	script_ok(b, sql);
	db->wake_busy.read_at = lq__mono_ms() + 600000;
	assert_int_equal(lq_task_add(db, "t", &o, &ids[2], NULL), LQ_OK);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 300, &err), LQ_ETIMEDOUT);

	/* After it: the look again, and the wake-up. */
	script_ok(b, sql);
	db->wake_busy.read_at = lq__mono_ms() - LQ_WAKE_BUSY_MS;
	assert_int_equal(lq_task_add(db, "t", &o, &ids[3], NULL), LQ_OK);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	for (int i = 1; i < 4; i++)
		assert_true(ids[i] > ids[i - 1]);
	lq_task t;
	size_t n = 0;
	assert_int_equal(lq_task_claim(db, queue, LQ_AT_MOST_ONCE, 0, &t, 1, &n), LQ_OK);
	assert_int_equal(n, 1);
	assert_int_equal(t.id, ids[3]);
	lq_task_clear(&t);
	lq_close(db);
	done(a);
	done(b);
}

/* Through the library: a batch add that needs a transaction (here its
 * partitions' rows) sends the wake-up with its insert, and the listener
 * gets it when the transaction commits: no NOTIFY statement after it. */
static void test_batch_in_tx_wakes_at_commit(void **state)
{
	(void)state;
	struct lq_conn *a = conn();
	lq_err err = {{0}, 0, 0};
	lq_db *db = open_here();
	char queue[64];
	snprintf(queue, sizeof(queue), "lqt_batch_wake_%ld", (long)getpid());
	enum { N = 10 };
	const char *names[N];
	lq_task_opts opts[N];
	const lq_task_opts *po[N];
	for (int i = 0; i < N; i++) {
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		o.queue = queue;
		o.partition = i % 2 ? "p1" : "p2";
		opts[i] = o;
		po[i] = &opts[i];
		names[i] = "t";
	}
	/* The handle's first batch reads what it must know once. */
	assert_int_equal(be->wait_notify(a, "leaseq_task", 0, &err), LQ_ETIMEDOUT);
	assert_int_equal(lq_task_add_many(db, N, names, po, NULL, NULL, NULL), LQ_OK);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	int64_t before = lq_db_statements(db);
	assert_int_equal(lq_task_add_many(db, N, names, po, NULL, NULL, NULL), LQ_OK);
	/* BEGIN with the insert and its wake-up, the partitions' rows, COMMIT */
	assert_int_equal(lq_db_statements(db) - before, 3);
	assert_int_equal(be->wait_notify(a, "leaseq_task", 30000, &err), LQ_OK);
	lq_close(db);
	done(a);
}

/* Through the library: an exclusive acquire takes a free lease in one
 * statement (lease_acquire_free); a try that finds it held reads the
 * holder apart, and the handle's next tries of that lease send
 * lease_acquire, whose one statement returns the holder with its answer. */
static void test_acquire_reads_holder_apart(void **state)
{
	(void)state;
	lq_db *a = open_here(), *b = open_here();
	lq_lease la, lb;
	char name[64];
	snprintf(name, sizeof(name), "lqt_held_%ld", (long)getpid());
	/* Connected, schema checked: what follows counts the acquires alone. */
	assert_int_equal(lq_lease_get(a, name, &la), LQ_NOTFOUND);
	assert_int_equal(lq_lease_get(b, name, &lb), LQ_NOTFOUND);

	int64_t sent = lq_db_statements(a);
	assert_int_equal(lq_lease_acquire(a, name, 60000, "a", 0, &la), LQ_OK);
	assert_int_equal(lq_db_statements(a) - sent, 1);
	sent = lq_db_statements(b);
	assert_int_equal(lq_lease_acquire(b, name, 60000, "b", 0, &lb), LQ_BUSY);
	assert_int_equal(lq_db_statements(b) - sent, 2);
	assert_non_null(strstr(lq_errmsg(b), "held by a"));
	sent = lq_db_statements(b);
	assert_int_equal(lq_lease_acquire(b, name, 60000, "b", 0, &lb), LQ_BUSY);
	assert_int_equal(lq_db_statements(b) - sent, 1);
	assert_non_null(strstr(lq_errmsg(b), "held by a"));
	assert_int_equal(lq_lease_release(a, &la), LQ_OK);
	sent = lq_db_statements(b);
	assert_int_equal(lq_lease_acquire(b, name, 60000, "b", 0, &lb), LQ_OK);
	assert_int_equal(lq_db_statements(b) - sent, 1);
	assert_int_equal(lb.token, la.token + 1);
	assert_int_equal(lq_lease_release(b, &lb), LQ_OK);
	lq_close(a);
	lq_close(b);
}

/* ------------------------------------------------------------ poolers */

/* ?pooler=: bad values and session settings are refused; in transaction
 * mode statements work unnamed and nobody LISTENs (said once); a direct
 * connection is not taken for a pooler; a named statement that disappears
 * (what a transaction pooler does) switches the connection to unnamed
 * statements instead of failing. */
static void test_pooler(void **state)
{
	(void)state;
	char d[1024];
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};

	dsn_with_option("pooler=maybe", d, sizeof(d));
	assert_int_equal(be->connect(d, 0, &c, &err), LQ_EINVAL);
	assert_non_null(strstr(err.msg, "pooler"));
	dsn_with_option("pooler=transaction&lock_timeout=2s", d, sizeof(d));
	assert_int_equal(be->connect(d, 0, &c, &err), LQ_EINVAL);
	assert_non_null(strstr(err.msg, "lock_timeout"));
	assert_null(c);

	dsn_with_option("pooler=transaction", d, sizeof(d));
	c = connect_to(d);
	RUN0(c, db_now, NULL);
	RUN0(c, db_now, NULL);
	assert_int_equal(be->wait_notify(c, "leaseq_task", 10, &err), LQ_ERROR);
	const char *note = be->notice(c);
	assert_non_null(note);
	assert_non_null(strstr(note, "poll"));
	assert_int_equal(be->wait_notify(c, "leaseq_task", 10, &err), LQ_ERROR);
	assert_null(be->notice(c));
	done(c);

	c = conn(); /* ?pooler=auto */
	RUN0(c, db_now, NULL);
	assert_null(be->notice(c));
	script_ok(c, "DEALLOCATE ALL");
	RUN0(c, db_now, NULL);
	note = be->notice(c);
	assert_non_null(note);
	assert_non_null(strstr(note, "disappeared"));
	script_ok(c, "DEALLOCATE ALL");
	RUN0(c, db_now, NULL);
	assert_null(be->notice(c));
	done(c);
}

/* ------------------------------------------------------------ retries */

struct blocked {
	struct lq_conn *c;
	const char *name;
	lq_status st;
	lq_err err;
};

static void *break_lease(void *arg)
{
	struct blocked *b = arg;
	lq_value p = lq__v_text(b->name);
	b->st = be->exec(b->c, LQ_SQL_lease_break, &p, 1, NULL, NULL, NULL, &b->err);
	return NULL;
}

static void test_retry_mapping(void **state)
{
	(void)state;
	struct lq_conn *a = conn(), *b = conn();
	lq_err err = {{0}, 0, 0};
	const lq_value x = lq__v_text("x"), y = lq__v_text("y");

	lease_row(a, x, lq__v_text("o"), lq_v_int(1000));
	lease_row(a, y, lq__v_text("o"), lq_v_int(1000));

	/* Serialization failure (40001): a REPEATABLE READ snapshot older
	 * than a committed change of the row it updates. */
	script_ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ");
	RUN(a, lease_get, NULL, x);
	RUN(b, lease_break, NULL, x);
	run_st(a, LQ__RETRY, LQ_SQL_lease_break, &x, 1, NULL);
	tx_ok(be->rollback(a, &err), &err, "ROLLBACK");

	/* Lock wait timeout (55P03), with lock_timeout from the DSN. */
	char d[1024];
	dsn_with_option("lock_timeout=100", d, sizeof(d));
	struct lq_conn *impatient = connect_to(d);
	tx_ok(be->begin(a, 1, &err), &err, "BEGIN");
	RUN(a, lease_break, NULL, x);
	/* a holds the row until its ROLLBACK below: only lock_timeout ends
	 * the wait, with 55P03. */
	assert_int_equal(be->exec(impatient, LQ_SQL_lease_break, &x, 1, NULL, NULL, NULL, &err), LQ__RETRY);
	assert_non_null(strstr(err.msg, "(55P03)"));
	tx_ok(be->rollback(a, &err), &err, "ROLLBACK");
	done(impatient);

	/* Deadlock (40P01): a holds x and wants y, b holds y and wants x. */
	tx_ok(be->begin(a, 1, &err), &err, "BEGIN");
	tx_ok(be->begin(b, 1, &err), &err, "BEGIN");
	RUN(a, lease_break, NULL, x);
	RUN(b, lease_break, NULL, y);
	struct blocked bl = {b, "x", LQ_OK, {{0}, 0, 0}};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, break_lease, &bl), 0);
	sleep_ms(300);
	lq_status st = be->exec(a, LQ_SQL_lease_break, &y, 1, NULL, NULL, NULL, &err);
	pthread_join(th, NULL);
	print_message("    deadlock: a %d, b %d: %s%s\n", (int)st, (int)bl.st, err.msg, bl.err.msg);
	assert_true((st == LQ__RETRY && bl.st == LQ_OK) || (st == LQ_OK && bl.st == LQ__RETRY));
	assert_non_null(strstr(st == LQ__RETRY ? err.msg : bl.err.msg, "(40P01)"));
	tx_ok(be->rollback(a, &err), &err, "ROLLBACK");
	tx_ok(be->rollback(b, &err), &err, "ROLLBACK");
	done(a);
	done(b);
}

/* A raw libpq statement that must succeed. */
static void pq_ok(PGconn *pg, const char *sql)
{
	PGresult *r = PQexec(pg, sql);
	ExecStatusType s = PQresultStatus(r);
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(pg));
	PQclear(r);
}

/* ------------------------------------------------------------ run counters */

static char *pq_value(PGconn *pg, const char *sql, char *out, size_t size)
{
	PGresult *r = PQexec(pg, sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
		fail_msg("%s: %s", sql, PQerrorMessage(pg));
	snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return out;
}

/* A libpq connection of the test's own on the test's schema; skips the
 * test where libpq alone cannot use the DSN (leaseq-only options). */
static PGconn *pq_here(void)
{
	char sql[128];
	PGconn *pg = PQconnectdb(dsn);
	if (PQstatus(pg) != CONNECTION_OK)
		skip();
	snprintf(sql, sizeof(sql), "SET search_path TO %s", schema);
	pq_ok(pg, sql);
	return pg;
}

/* One catalogue statement, unprepared, with its n text parameters. */
static void pq_run(PGconn *pg, lq_sql_id id, int n, const char *const *p)
{
	PGresult *r = PQexecParams(pg, lq__sql_postgres[id], n, NULL, p, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", lq__sql_name(id), PQerrorMessage(pg));
	PQclear(r);
}

/*
 * The run counters are counted by the statements that write the history
 * (no trigger since schema 6): run_insert_many, the at-most-once rows kept
 * back and written together, counts each of its rows, in their order, with
 * ended_at the clock less each one's age but never before its start.
 */
static void test_run_counted_in_statement(void **state)
{
	(void)state;
	char v[64];
	struct lq_conn *c = conn();
	script_ok(c, "DELETE FROM lq_run; DELETE FROM lq_counter");
	done(c);

	PGconn *pg = pq_here();
	assert_string_equal(pq_value(pg, "SELECT count(*) FROM pg_trigger WHERE tgname = 'lq_run_counted'", v,
				     sizeof(v)),
			    "0");
	enum { per_run = 8, n_params = 1 + 64 * per_run };
	const char *p[n_params] = {"w:1"}; /* the rest NULL: unused places */
	/* task_id, run_at, queue, name, attempt, started_at, ago, outcome:
	 * three runs; the second ended 60 s ago, the third "before" it began. */
	const char *runs[3][per_run] = {{"7", "0", "q", "job", "1", "1000", "0", "done"},
					{"8", "0", "q", "job", "1", "1000", "60000", "done"},
					{"9", "0", "q", "job", "2", "4102444800000", "0", "failed"}};
	memcpy(&p[1], runs, sizeof(runs));
	pq_run(pg, LQ_SQL_run_insert_many, n_params, p);
	assert_string_equal(pq_value(pg, "SELECT string_agg(task_id::text, ',' ORDER BY id) FROM lq_run", v,
				     sizeof(v)),
			    "7,8,9");
	assert_string_equal(pq_value(pg,
				     "SELECT count(*) FROM lq_run, (SELECT ended_at e FROM lq_run WHERE task_id = 7) a "
				     "WHERE task_id = 8 AND ended_at BETWEEN a.e - 70000 AND a.e - 50000",
				     v, sizeof(v)),
			    "1");
	assert_string_equal(pq_value(pg, "SELECT ended_at = started_at FROM lq_run WHERE task_id = 9", v, sizeof(v)),
			    "t");
	assert_string_equal(pq_value(pg, "SELECT sum(n) FROM lq_counter WHERE metric = 'run_done' AND queue = 'q'", v,
				     sizeof(v)),
			    "2");
	assert_string_equal(pq_value(pg, "SELECT sum(n) FROM lq_counter WHERE metric = 'run_failed'", v, sizeof(v)),
			    "1");
	/* Inside a transaction of ours (at-least-once), run_insert counts too. */
	pq_ok(pg, "BEGIN");
	const char *one[9] = {"8", "0", "q", "job", "w:1", "2", "0", "dead", "gave up"};
	pq_run(pg, LQ_SQL_run_insert, 9, one);
	pq_ok(pg, "COMMIT");
	assert_string_equal(pq_value(pg, "SELECT sum(n) FROM lq_counter WHERE metric = 'run_dead'", v, sizeof(v)), "1");
	PQfinish(pg);
}

/* ------------------------------------------------------------ plans */

/* One catalogue statement prepared as name. */
static void prepare_ok(PGconn *pg, const char *name, lq_sql_id id)
{
	PGresult *r = PQprepare(pg, name, lq__sql_postgres[id], 0, NULL);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("prepare %s: %s", lq__sql_name(id), PQerrorMessage(pg));
	PQclear(r);
}

/* EXPLAIN (opts) of the prepared statement name, as one string, a line
 * per plan line. */
static void explain_prepared(PGconn *pg, const char *opts, const char *name, const char *args, char *out,
			     size_t size)
{
	char sql[256];
	snprintf(sql, sizeof(sql), "EXPLAIN (%s) EXECUTE %s(%s)", opts, name, args);
	PGresult *r = PQexec(pg, sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(pg));
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < PQntuples(r); i++)
		o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s\n", PQgetvalue(r, i, 0));
	PQclear(r);
}

/* The same of one catalogue statement (with our search_path), prepared
 * for it and deallocated after. */
static void explain_with(PGconn *pg, const char *opts, const char *name, lq_sql_id id, const char *args, char *out,
			 size_t size)
{
	prepare_ok(pg, name, id);
	explain_prepared(pg, opts, name, args, out, size);
	PGresult *r = PQexec(pg, "DEALLOCATE ALL");
	PQclear(r);
}

static void explain(PGconn *pg, const char *name, lq_sql_id id, const char *args, char *out, size_t size)
{
	explain_with(pg, "COSTS OFF", name, id, args, out, size);
}

/*
 * The due-task statements walk lq_task_claim (claims) or lq_task_due (the
 * next due time) however many tasks wait in the future: NOW is an InitPlan,
 * so run_at <= NOW is an index condition.
 */
static void test_due_index_used(void **state)
{
	(void)state;
	char sql[256], plan[8192];

	PGconn *pg = pq_here();
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at) "
		  "SELECT CASE WHEN g % 10 = 0 THEN 'other' ELSE 'default' END, 'job', "
		  "(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000 + g "
		  "FROM generate_series(1, 200000) g");
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at) SELECT 'default', 'due', g "
		  "FROM generate_series(1, 20) g");
	pq_ok(pg, "ANALYZE lq_task");
	pq_ok(pg, "ANALYZE lq_queue");

	for (int generic = 0; generic < 2; generic++) {
		pq_ok(pg, generic ? "SET plan_cache_mode = force_generic_plan"
				  : "SET plan_cache_mode = force_custom_plan");
		/* Claims walk lq_task_claim (queue, priority DESC, run_at, id):
		 * priority order without a sort of the due tasks. */
		explain(pg, "cand", LQ_SQL_task_candidates, "'default', 10", plan, sizeof(plan));
		if (!strstr(plan, "Index Scan using lq_task_claim") || !strstr(plan, "run_at <= ") ||
		    strstr(plan, "Seq Scan on lq_task") || strstr(plan, "Sort"))
			fail_msg("task_candidates does not walk lq_task_claim:\n%s", plan);
		explain(pg, "cbd", LQ_SQL_task_claim_batch_delete, "'default', 10", plan, sizeof(plan));
		if (!strstr(plan, "Index Scan using lq_task_claim") || strstr(plan, "Seq Scan on lq_task") ||
		    strstr(plan, "Sort"))
			fail_msg("task_claim_batch_delete does not walk lq_task_claim:\n%s", plan);
		explain(pg, "cod", LQ_SQL_task_claim_one_delete, "'default'", plan, sizeof(plan));
		if (!strstr(plan, "Index Scan using lq_task_claim") || strstr(plan, "Seq Scan on lq_task") ||
		    strstr(plan, "Sort"))
			fail_msg("task_claim_one_delete does not walk lq_task_claim:\n%s", plan);
		/* Their "is anything due?" probe reads lq_task_due from the
		 * newest due task back: the oldest, at the left, are the ones
		 * claimed already, whose dead entries wait there for VACUUM (a
		 * forward probe read them a second time: 18 % of a claim). */
		static const struct {
			const char *stmt;
			lq_sql_id id;
			const char *args;
		} probed[] = {{"c1", LQ_SQL_task_candidates, "'default', 10"},
			      {"c2", LQ_SQL_task_claim_batch_delete, "'default', 10"},
			      {"c3", LQ_SQL_task_claim_batch_update, "'default', 10, 'w', 30000"},
			      {"c4", LQ_SQL_task_claim_one_delete, "'default'"},
			      {"c5", LQ_SQL_task_claim_one_update, "'default', 'w', 30000"},
			      {"c6", LQ_SQL_task_claim_one_delete_keyed, "'default', 'w', 30000"},
			      {"c7", LQ_SQL_task_claim_one_update_keyed, "'default', 'w', 30000"}};
		for (size_t k = 0; k < sizeof(probed) / sizeof(probed[0]); k++) {
			explain(pg, probed[k].stmt, probed[k].id, probed[k].args, plan, sizeof(plan));
			if (!strstr(plan, "Index Scan Backward using lq_task_due"))
				fail_msg("%s does not probe lq_task_due backward:\n%s", lq__sql_name(probed[k].id),
					 plan);
		}
		explain(pg, "nd", LQ_SQL_queue_next_due, "'default'", plan, sizeof(plan));
		if (!strstr(plan, "Index Scan using lq_task_due") || strstr(plan, "Seq Scan on lq_task") ||
		    strstr(plan, "Sort"))
			fail_msg("queue_next_due does not walk lq_task_due:\n%s", plan);
		explain(pg, "tp", LQ_SQL_tick_probe, "'runner', 'default'", plan, sizeof(plan));
		if (!strstr(plan, "Index Scan using lq_task_due") || !strstr(plan, "run_at <= ") ||
		    strstr(plan, "Seq Scan on lq_task"))
			fail_msg("tick_probe does not walk lq_task_due:\n%s", plan);
	}

	/* Under the default plan_cache_mode the claims settle on a generic
	 * plan after PostgreSQL's five custom ones: planning on every call
	 * cost more than the claim.  Batches too, whatever the statistics say
	 * of their queue: a custom plan that could see the queue and the batch
	 * size was priced below the generic one, and chosen every time (0.5 ms
	 * of planning a claim of 100 on a queue ANALYZE had seen empty). */
	pq_ok(pg, "SET plan_cache_mode = auto");
	static const struct {
		const char *name;
		lq_sql_id id;
		const char *args;
	} once[] = {{"cod", LQ_SQL_task_claim_one_delete, "'none'"},
		    {"coo", LQ_SQL_task_claim_one_delete_occ, "'none'"},
		    {"coot", LQ_SQL_task_claim_one_delete_occ_top, "'none', 0"},
		    {"cot", LQ_SQL_task_claim_one_delete_top, "'none', 0"},
		    {"cou", LQ_SQL_task_claim_one_update, "'none', 'w', 30000"},
		    {"cokd", LQ_SQL_task_claim_one_delete_keyed, "'none', 'w', 30000"},
		    {"coku", LQ_SQL_task_claim_one_update_keyed, "'none', 'w', 30000"},
		    {"cfd", LQ_SQL_task_claim_fair_one_delete, "'none'"},
		    {"cfu", LQ_SQL_task_claim_fair_one_update, "'none', 'w', 30000"},
		    {"ctd", LQ_SQL_task_claim_fair_turn_delete, "'none', 'p'"},
		    {"ctt", LQ_SQL_task_claim_fair_turn_delete_top, "'none', 'p', 0"},
		    {"ctu", LQ_SQL_task_claim_fair_turn_update, "'none', 'p', 'w', 30000"},
		    {"acu", LQ_SQL_task_ack_claim_one_update, "'none', 0, 'w', 'w', 0, 'w', 30000"},
		    {"act", LQ_SQL_task_ack_claim_one_update_top, "'none', 0, 'w', 'w', 0, 'w', 30000, 0"},
		    {"cand", LQ_SQL_task_candidates, "'none', 100"},
		    {"cbd", LQ_SQL_task_claim_batch_delete, "'none', 100"},
		    {"cbu", LQ_SQL_task_claim_batch_update, "'none', 100, 'w', 30000"},
		    {"cf", LQ_SQL_task_candidates_fair, "'none', 100"},
		    {"cfbd", LQ_SQL_task_claim_fair_delete, "'none', 100"},
		    {"cfbu", LQ_SQL_task_claim_fair_update, "'none', 100, 'w', 30000"},
		    {"ctbd", LQ_SQL_task_claim_fair_turn_batch_delete, "'none', 100, 'p'"},
		    {"ctbu", LQ_SQL_task_claim_fair_turn_batch_update, "'none', 100, 'p', 'w', 30000"}};
	int custom = 0;
	for (size_t k = 0; k < sizeof(once) / sizeof(once[0]); k++) {
		prepare_ok(pg, once[k].name, once[k].id);
		snprintf(sql, sizeof(sql), "EXECUTE %s(%s)", once[k].name, once[k].args);
		for (int i = 0; i < 6; i++)
			pq_ok(pg, sql);
		explain_prepared(pg, "COSTS OFF", once[k].name, once[k].args, plan, sizeof(plan));
		if (strstr(plan, "'none'") || !strstr(plan, "$1")) {
			print_message("%s is planned anew on every call (no generic plan)\n",
				      lq__sql_name(once[k].id));
			custom++;
		}
	}
	PQfinish(pg);
	if (custom)
		fail_msg("%d claims are planned anew on every call", custom);
}

/* The most pages any node of the statement's EXPLAIN (ANALYZE, BUFFERS)
 * read (the root's count includes its children's; planning not counted),
 * run and rolled back. */
static long pages_read(PGconn *pg, const char *name, lq_sql_id id, const char *args)
{
	static char plan[32768];
	pq_ok(pg, "BEGIN");
	explain_with(pg, "ANALYZE, BUFFERS, COSTS OFF, TIMING OFF", name, id, args, plan, sizeof(plan));
	pq_ok(pg, "ROLLBACK");
	long most = 0;
	for (const char *line = plan, *end; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		if (strncmp(line, "Planning", 8) == 0)
			break; /* the catalogue's pages, not the statement's */
		const char *b = strstr(line, "Buffers: shared");
		if (!b || b > end)
			continue;
		long pages = 0;
		const char *hit = strstr(b, "hit="), *rd = strstr(b, "read=");
		if (hit && hit < end)
			pages += strtol(hit + 4, NULL, 10);
		if (rd && rd < end)
			pages += strtol(rd + 5, NULL, 10);
		if (pages > most)
			most = pages;
	}
	return most;
}

/*
 * The indexes of columns that most tasks leave NULL hold only the tasks
 * that have a value: a task added, or claimed (an UPDATE that changes an
 * indexed column writes an entry in every index that takes the row), then
 * writes nothing there.  The unique key's upserts name the predicate
 * (ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL) to infer it.
 */
static void test_sparse_indexes_partial(void **state)
{
	(void)state;
	char full[256];

	PGconn *pg = pq_here();
	pq_value(pg,
		 "SELECT coalesce(string_agg(c.relname, ', ' ORDER BY c.relname), '') FROM pg_index i "
		 "JOIN pg_class c ON c.oid = i.indexrelid "
		 "WHERE i.indrelid = 'lq_task'::regclass AND c.relname IN ('lq_task_unique', 'lq_task_alert') "
		 "AND i.indpred IS NULL",
		 full, sizeof(full));
	PQfinish(pg);
	if (full[0])
		fail_msg("indexes of every task, NULL keys included: %s", full);
}

/*
 * A claim starts at the highest priority that has a due task: the tasks of
 * higher priorities that are not due yet are skipped, not walked.  With
 * 100 000 of them at priority 5 and the due ones at 0, each claim read
 * every one of their index entries (a walk of lq_task_claim from the left):
 * over 500 pages (fair claims, over 900) where a claim of two tasks, writes
 * included, reads 30 to 100.
 */
static void test_claim_skips_future_priorities(void **state)
{
	(void)state;

	PGconn *pg = pq_here();
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at, priority) "
		  "SELECT 'pw', 'later', (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000 + g, 5 "
		  "FROM generate_series(1, 100000) g");
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at, priority) SELECT 'pw', 'due', g, 0 "
		  "FROM generate_series(1, 20) g");
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at, priority, part) "
		  "SELECT 'pwf', name, run_at, priority, 'p' || (id % 4) FROM lq_task WHERE queue = 'pw'");
	pq_ok(pg, "INSERT INTO lq_partition (queue, name, served) SELECT 'pwf', 'p' || g, g FROM generate_series(0, 3) g");
	pq_ok(pg, "ANALYZE lq_task");

	static const struct {
		const char *name;
		lq_sql_id id;
		const char *args;
	} claims[] = {{"cand", LQ_SQL_task_candidates, "'pw', 2"},
		      {"cbd", LQ_SQL_task_claim_batch_delete, "'pw', 2"},
		      {"cbu", LQ_SQL_task_claim_batch_update, "'pw', 2, 'w', 30000"},
		      {"cod", LQ_SQL_task_claim_one_delete, "'pw'"},
		      {"coo", LQ_SQL_task_claim_one_delete_occ, "'pw'"},
		      {"coot", LQ_SQL_task_claim_one_delete_occ_top, "'pw', 0"},
		      {"cou", LQ_SQL_task_claim_one_update, "'pw', 'w', 30000"},
		      {"cokd", LQ_SQL_task_claim_one_delete_keyed, "'pw', 'w', 30000"},
		      {"coku", LQ_SQL_task_claim_one_update_keyed, "'pw', 'w', 30000"},
		      {"acu", LQ_SQL_task_ack_claim_one_update, "'pw', 0, 'w', 'w', 0, 'w', 30000"},
		      {"cot", LQ_SQL_task_claim_one_delete_top, "'pw', 0"},
		      {"act", LQ_SQL_task_ack_claim_one_update_top, "'pw', 0, 'w', 'w', 0, 'w', 30000, 0"},
		      /* queue pwf: the same tasks in partitions, claimed fairly */
		      {"cfd", LQ_SQL_task_claim_fair_delete, "'pwf', 2"},
		      {"cfu", LQ_SQL_task_claim_fair_update, "'pwf', 2, 'w', 30000"},
		      {"cfod", LQ_SQL_task_claim_fair_one_delete, "'pwf'"},
		      {"cfou", LQ_SQL_task_claim_fair_one_update, "'pwf', 'w', 30000"},
		      {"cftd", LQ_SQL_task_claim_fair_turn_delete, "'pwf', 'p1'"},
		      {"cftt", LQ_SQL_task_claim_fair_turn_delete_top, "'pwf', 'p1', 0"},
		      {"cftu", LQ_SQL_task_claim_fair_turn_update, "'pwf', 'p1', 'w', 30000"},
		      {"cftbd", LQ_SQL_task_claim_fair_turn_batch_delete, "'pwf', 2, 'p1'"},
		      {"cftbu", LQ_SQL_task_claim_fair_turn_batch_update, "'pwf', 2, 'p1', 'w', 30000"},
		      {"cf", LQ_SQL_task_candidates_fair, "'pwf', 2"},
		      {"cfa", LQ_SQL_task_fair_due_any, "'pwf'"}};
	int walked = 0;
	for (int generic = 0; generic < 2; generic++) {
		pq_ok(pg, generic ? "SET plan_cache_mode = force_generic_plan"
				  : "SET plan_cache_mode = force_custom_plan");
		for (size_t k = 0; k < sizeof(claims) / sizeof(claims[0]); k++) {
			long pages = pages_read(pg, claims[k].name, claims[k].id, claims[k].args);
			print_message("%s (%s plan): %ld pages\n", lq__sql_name(claims[k].id),
				      generic ? "generic" : "custom", pages);
			if (pages > 200)
				walked++;
		}
	}
	PQfinish(pg);
	if (walked)
		fail_msg("%d claims read more than 200 pages: they walk the tasks of priority 5 not due yet", walked);
}

/*
 * A cap counts its key's live claims through lq_task_ckey, which holds only
 * claimed tasks that have a key: a key whose waiting tasks are most of the
 * table (20 000 here, 3 of them claimed) must not make the count a scan of
 * lq_task on every claim.  With every task of the key in the index,
 * PostgreSQL priced the range of claim_until > now as a third of the key's
 * rows and read the table instead (1.2 ms a count, more as it grew).
 */
static void test_cap_count_reads_claims(void **state)
{
	(void)state;
	char plan[16384];

	PGconn *pg = pq_here();
	/* The key's past: 40 000 tasks added, claimed and acked. */
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at, concurrency_key) "
		  "SELECT 'qk', 'job', g, 'busy' FROM generate_series(1, 40000) g");
	pq_ok(pg, "UPDATE lq_task SET claim_owner = 'w', claim_until = 1000 + id WHERE queue = 'qk'");
	pq_ok(pg, "DELETE FROM lq_task WHERE queue = 'qk'");
	pq_ok(pg, "VACUUM lq_task");
	pq_ok(pg, "INSERT INTO lq_task (queue, name, run_at, concurrency_key) "
		  "SELECT 'qk', 'job', g, 'busy' FROM generate_series(1, 20000) g");
	pq_ok(pg, "UPDATE lq_task SET claim_owner = 'w', "
		  "claim_until = (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000 "
		  "WHERE id IN (SELECT id FROM lq_task WHERE queue = 'qk' ORDER BY id LIMIT 3)");
	pq_ok(pg, "INSERT INTO lq_limit (name, concurrency, tat, updated_at) VALUES ('busy', 1000000, 0, 0)");
	pq_ok(pg, "ANALYZE lq_task");

	static const struct {
		const char *name;
		lq_sql_id id;
		const char *args;
	} counts[] = {{"ltk", LQ_SQL_limit_take_key, "'busy'"},
		      {"cokd", LQ_SQL_task_claim_one_delete_keyed, "'qk', 'w', 30000"},
		      {"coku", LQ_SQL_task_claim_one_update_keyed, "'qk', 'w', 30000"},
		      {"cand", LQ_SQL_task_candidates, "'qk', 1"}};
	for (int generic = 0; generic < 2; generic++) {
		pq_ok(pg, generic ? "SET plan_cache_mode = force_generic_plan"
				  : "SET plan_cache_mode = force_custom_plan");
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			explain(pg, counts[k].name, counts[k].id, counts[k].args, plan, sizeof(plan));
			if (strstr(plan, "Seq Scan on lq_task") || !strstr(plan, "lq_task_ckey"))
				fail_msg("%s (%s plan) counts the claims without lq_task_ckey:\n%s",
					 lq__sql_name(counts[k].id), generic ? "generic" : "custom", plan);
		}
	}
	PQfinish(pg);
}

int main(void)
{
	dsn = getenv("LEASEQ_TEST_PG_DSN");
	if (!dsn || !*dsn) {
		if (getenv("LEASEQ_REQUIRE_ALL_BACKENDS")) {
			fprintf(stderr, "test_backend_postgres: LEASEQ_TEST_PG_DSN is not set "
					"(and LEASEQ_REQUIRE_ALL_BACKENDS is)\n");
			return 1;
		}
		fprintf(stderr, "test_backend_postgres: LEASEQ_TEST_PG_DSN is not set: skipped\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_catalogue_matches_sqlite, close_all),
		cmocka_unit_test_setup_teardown(test_connect, reset, close_all),
		cmocka_unit_test_teardown(test_connect_bad_password, close_all),
		cmocka_unit_test_teardown(test_connect_bad_dsn, close_all),
		cmocka_unit_test_teardown(test_connect_refused, close_all),
		cmocka_unit_test_teardown(test_dsn_timeouts, close_all),
		cmocka_unit_test_teardown(test_session_jit_off, close_all),
		cmocka_unit_test_setup_teardown(test_bytea_roundtrip, reset, close_all),
		cmocka_unit_test_setup_teardown(test_affected_rows, reset, close_all),
		cmocka_unit_test_setup_teardown(test_every_statement, reset, close_all),
		cmocka_unit_test_setup_teardown(test_run_counted_in_statement, reset, close_all),
		cmocka_unit_test_setup_teardown(test_error_text, reset, close_all),
		cmocka_unit_test_setup_teardown(test_killed_connection, reset, close_all),
		cmocka_unit_test_setup_teardown(test_begin_with_first_statement, reset, close_all),
		cmocka_unit_test_teardown(test_notify, close_all),
		cmocka_unit_test_teardown(test_enqueue_wakes_idle_worker, close_all),
		cmocka_unit_test_teardown(test_add_skips_look_while_busy, close_all),
		cmocka_unit_test_teardown(test_batch_in_tx_wakes_at_commit, close_all),
		cmocka_unit_test_teardown(test_acquire_reads_holder_apart, close_all),
		cmocka_unit_test_teardown(test_pooler, close_all),
		cmocka_unit_test_setup_teardown(test_retry_mapping, reset, close_all),
		cmocka_unit_test_setup_teardown(test_due_index_used, reset, close_all),
		cmocka_unit_test_setup_teardown(test_claim_skips_future_priorities, reset, close_all),
		cmocka_unit_test_setup_teardown(test_sparse_indexes_partial, reset, close_all),
		cmocka_unit_test_setup_teardown(test_cap_count_reads_claims, reset, close_all),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

#else /* !LEASEQ_HAVE_POSTGRES */

int main(void)
{
	if (getenv("LEASEQ_REQUIRE_ALL_BACKENDS")) {
		fprintf(stderr, "test_backend_postgres: leaseq was built without PostgreSQL\n");
		return 1;
	}
	return 77;
}

#endif
