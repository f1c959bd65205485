/*
 * test_backend_mysql.c - the MySQL/MariaDB backend through its vtable
 * (backend.h), against LEASEQ_TEST_MYSQL_DSN.  Skips (77) when that is
 * unset, fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
 *
 * The tests run in a scratch database leaseq_test_be_<pid> when the user may
 * create one (tests/servers/mariadb.sh grants leaseq_test_%), so the
 * conformance suite can drop and migrate the main test database meanwhile;
 * otherwise in the given database, with names unique to this process.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "backend/backend.h"

#ifndef LEASEQ_HAVE_MYSQL
int main(void)
{
	if (getenv("LEASEQ_REQUIRE_ALL_BACKENDS")) {
		fprintf(stderr, "test_backend_mysql: leaseq was built without MySQL support\n");
		return 1;
	}
	return LQT_SKIP;
}
#else

#include <mysql.h>

static const struct lq_backend *be = &lq__backend_mysql;
static char main_dsn[1024];    /* as given */
static char test_dsn[1100];    /* the scratch database, or main_dsn */
static char scratch_db[64];    /* "" when we use the given database */
static char pfx[32];           /* per-process name prefix */

/* ------------------------------------------------------------ helpers */

struct cell {
	lq_vtype type;
	int64_t i;
	char *s;
	size_t len;
};

#define MAXROWS 64
#define MAXCOLS 28 /* TASK_COLS and the fair reads' partition and stamp */

/* Rows copied out of the callback (values are borrowed there). */
struct rows {
	int n, ncols;
	int bad_nul; /* a TEXT/BLOB value without s[len] == '\0' */
	struct cell c[MAXROWS][MAXCOLS];
};

static int collect(void *ctx, const lq_value *cols, int ncols)
{
	struct rows *r = ctx;
	if (r->n >= MAXROWS)
		return 1;
	r->ncols = ncols;
	for (int i = 0; i < ncols && i < MAXCOLS; i++) {
		struct cell *c = &r->c[r->n][i];
		c->type = cols[i].type;
		c->i = cols[i].i;
		c->len = cols[i].len;
		c->s = NULL;
		if (cols[i].type == LQ_V_TEXT || cols[i].type == LQ_V_BLOB) {
			if (cols[i].s[cols[i].len] != '\0')
				r->bad_nul = 1;
			c->s = malloc(cols[i].len + 1);
			assert_non_null(c->s);
			memcpy(c->s, cols[i].s, cols[i].len + 1);
		}
	}
	r->n++;
	return 0;
}

static void rows_free(struct rows *r)
{
	for (int i = 0; i < r->n; i++)
		for (int j = 0; j < r->ncols && j < MAXCOLS; j++)
			free(r->c[i][j].s);
	memset(r, 0, sizeof(*r));
}

static struct rows *rows_new(void)
{
	struct rows *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	return r;
}

static void rows_del(struct rows *r)
{
	rows_free(r);
	free(r);
}

static lq_value txt(const char *s)
{
	return lq__v_text(s);
}

/* Run a statement; fail the test unless it returns want. */
static int64_t run_st(struct lq_conn *c, lq_status want, lq_sql_id id, const lq_value *p, int n,
		      struct rows *r, const char *where, int line)
{
	lq_err err = {{0}, 0, 0};
	int64_t aff = -1;
	if (r)
		rows_free(r);
	lq_status st = be->exec(c, id, p, n, r ? collect : NULL, r, &aff, &err);
	if (st != want) {
		print_error("%s:%d: %s returned %d, expected %d: %s\n", where, line, lq__sql_name(id), (int)st,
			    (int)want, err.msg);
		fail();
	}
	if (r)
		assert_int_equal(r->bad_nul, 0);
	return aff;
}
#define RUN(c, id, p, n, r) run_st((c), LQ_OK, (id), (p), (n), (r), __FILE__, __LINE__)

/* A held lease, token 1, as lease_acquire leaves a new one: the row made
 * free by lease_create (a plain INSERT), then taken -> 1; 0 if the name was
 * there already. */
static int64_t lease_row(struct lq_conn *c, const lq_value p[3], const char *where, int line)
{
	lq_value pc[3] = {p[0], p[1], lq_v_null()};
	if (run_st(c, LQ_OK, LQ_SQL_lease_create, pc, 3, NULL, where, line) == 0)
		return 0;
	return run_st(c, LQ_OK, LQ_SQL_lease_take, p, 3, NULL, where, line);
}
#define LEASE_ROW(c, p) lease_row((c), (p), __FILE__, __LINE__)

static struct lq_conn *conn_open(const char *dsn)
{
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	lq_status st = be->connect(dsn, 0, &c, &err);
	if (st != LQ_OK) {
		print_error("connect failed (%d): %s\n", (int)st, err.msg);
		fail();
	}
	return c;
}

static void script_ok(struct lq_conn *c, const char *sql)
{
	lq_err err = {{0}, 0, 0};
	lq_status st = be->exec_script(c, sql, &err);
	if (st != LQ_OK) {
		print_error("script failed (%d): %s\n  %s\n", (int)st, err.msg, sql);
		fail();
	}
}

static void tx(lq_status (*op)(struct lq_conn *, lq_err *), struct lq_conn *c)
{
	lq_err err = {{0}, 0, 0};
	lq_status st = op(c, &err);
	if (st != LQ_OK) {
		print_error("transaction step failed (%d): %s\n", (int)st, err.msg);
		fail();
	}
}

static void begin(struct lq_conn *c)
{
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->begin(c, 1, &err), LQ_OK);
}

static void name(char *buf, size_t size, const char *what)
{
	snprintf(buf, size, "%s%s", pfx, what);
}

/* The main DSN with its database replaced (the parser takes the first '/'
 * after "://" as the start of the database name). */
static void dsn_with_db(const char *dsn, const char *db, char *out, size_t size)
{
	const char *p = strstr(dsn, "://") + 3;
	const char *q = strchr(p, '?');
	size_t hl = strcspn(p, "/?");
	snprintf(out, size, "%.*s/%s%s", (int)(p - dsn + hl), dsn, db, q ? q : "");
}

/* A plain client connection for what the backend does not offer (KILL). */
static MYSQL *raw_connect(void)
{
	lq_dsn_url u;
	lq_err err;
	assert_int_equal(lq__dsn_parse_url(test_dsn, &u, &err), LQ_OK);
	char sock[256];
	int has_sock = lq__dsn_query_get(u.query, "socket", sock, sizeof(sock));
	MYSQL *m = mysql_init(NULL);
	assert_non_null(m);
	if (!mysql_real_connect(m, u.host[0] ? u.host : NULL, u.user, u.password, u.dbname, (unsigned)u.port,
				has_sock ? sock : NULL, 0)) {
		print_error("raw connect: %s\n", mysql_error(m));
		fail();
	}
	return m;
}

/* One number from a query on a plain client connection. */
static long long raw_number(MYSQL *m, const char *q)
{
	if (mysql_query(m, q) != 0) {
		print_error("%s: %s\n", q, mysql_error(m));
		fail();
	}
	MYSQL_RES *res = mysql_store_result(m);
	assert_non_null(res);
	MYSQL_ROW row = mysql_fetch_row(res);
	assert_non_null(row);
	assert_non_null(row[0]);
	long long n = strtoll(row[0], NULL, 10);
	mysql_free_result(res);
	return n;
}

/* Kill the connection that holds the named lock. */
static void kill_lock_holder(MYSQL *m, const char *lock)
{
	char q[256];
	snprintf(q, sizeof(q), "SELECT IS_USED_LOCK('%s')", lock);
	unsigned long id = (unsigned long)raw_number(m, q);
	snprintf(q, sizeof(q), "KILL CONNECTION %lu", id);
	if (mysql_query(m, q) != 0) {
		print_error("%s: %s\n", q, mysql_error(m));
		fail();
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ------------------------------------------------------- group set-up */

static void migrate(struct lq_conn *c)
{
	RUN(c, LQ_SQL_schema_create, NULL, 0, NULL);
	for (size_t i = 0; i < *be->n_migrations; i++) {
		const struct lq_migration *m = &be->migrations[i];
		script_ok(c, m->sql);
		script_ok(c, m->sql); /* one DDL per file, safe to re-run */
		lq_value p[2] = {lq_v_int(m->version), txt(m->name)};
		RUN(c, LQ_SQL_schema_record, p, 2, NULL);
	}
}

static int group_setup(void **state)
{
	struct lq_conn *c = conn_open(main_dsn);
	char sql[128];
	snprintf(scratch_db, sizeof(scratch_db), "leaseq_test_be_%ld", (long)getpid());
	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS %s CHARACTER SET utf8mb4", scratch_db);
	lq_err err = {{0}, 0, 0};
	if (be->exec_script(c, sql, &err) == LQ_OK) {
		dsn_with_db(main_dsn, scratch_db, test_dsn, sizeof(test_dsn));
	} else {
		fprintf(stderr, "note: no scratch database (%s); using the given one\n", err.msg);
		scratch_db[0] = '\0';
		snprintf(test_dsn, sizeof(test_dsn), "%s", main_dsn);
	}
	be->disconnect(c);
	c = conn_open(test_dsn);
	migrate(c);
	*state = c;
	return 0;
}

static int group_teardown(void **state)
{
	be->disconnect(*state);
	if (scratch_db[0]) {
		struct lq_conn *c = conn_open(main_dsn);
		char sql[128];
		snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", scratch_db);
		script_ok(c, sql);
		be->disconnect(c);
	}
	return 0;
}

/* ---------------------------------------------------------------- tests */

static void test_connect_errors(void **state)
{
	lq_dsn_url u;
	lq_err err = {{0}, 0, 0};
	assert_int_equal(lq__dsn_parse_url(test_dsn, &u, &err), LQ_OK);
	static const char bad[] = "Wr0ngPassw0rd-lqt";
	char dsn[1200];
	const char *p = strstr(test_dsn, "://") + 3;
	const char *at = strrchr(p, '@');
	assert_non_null(at);
	snprintf(dsn, sizeof(dsn), "mysql://%s:%s%s", u.user, bad, at);

	struct lq_conn *c = NULL;
	assert_int_equal(be->connect(dsn, 0, &c, &err), LQ_ECONN);
	assert_null(c);
	assert_true(err.msg[0] != '\0');
	assert_null(strstr(err.msg, bad));
	assert_null(strchr(err.msg, '\n'));
	if (u.password[0])
		assert_null(strstr(err.msg, u.password));
	assert_non_null(strstr(err.msg, "1045")); /* access denied */

	/* Malformed DSNs change nothing and say why. */
	assert_int_equal(be->connect("mysql://u:secretpw@127.0.0.1:notaport/db", 0, &c, &err), LQ_EINVAL);
	assert_null(strstr(err.msg, "secretpw"));
	assert_int_equal(be->connect("mysql://u:secretpw@127.0.0.1:3306", 0, &c, &err), LQ_EINVAL);
	assert_int_equal(be->connect("mysql://u:secretpw@127.0.0.1:3306/db?sokcet=/x", 0, &c, &err), LQ_EINVAL);
	assert_non_null(strstr(err.msg, "sokcet"));
	static const char *const bad_wait[] = {"16", "-1", "x", "", "3s"};
	for (size_t i = 0; i < sizeof(bad_wait) / sizeof(bad_wait[0]); i++) {
		snprintf(dsn, sizeof(dsn), "mysql://u:secretpw@127.0.0.1:3306/db?wsrep_sync_wait=%s", bad_wait[i]);
		assert_int_equal(be->connect(dsn, 0, &c, &err), LQ_EINVAL);
		assert_non_null(strstr(err.msg, "wsrep_sync_wait"));
	}
	/* A server built with wsrep (Debian's MariaDB) takes it outside a
	 * cluster too. */
	if (strstr(test_dsn, "?") == NULL) {
		snprintf(dsn, sizeof(dsn), "%s?wsrep_sync_wait=3", test_dsn);
		if (be->connect(dsn, 0, &c, &err) == LQ_OK)
			be->disconnect(c);
		else
			print_message("# wsrep_sync_wait not taken here (not MariaDB with wsrep?): %s\n", err.msg);
		c = NULL;
	}
	/* Nobody listens on port 1. */
	assert_int_equal(be->connect("mariadb://u:secretpw@127.0.0.1:1/db", 0, &c, &err), LQ_ECONN);
	assert_null(strstr(err.msg, "secretpw"));
	(void)state;
}

/* ?N may repeat and come in any order: each position gets its own value. */
static void test_placeholders(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char q[64], nm[64], uk[64];
	name(q, sizeof(q), "ph_q");
	name(nm, sizeof(nm), "ph_name");
	name(uk, sizeof(uk), "ph_key");
	int64_t id = 4000000000000LL + getpid();
	static const char payload[] = "pay\0load";
	/* task_reinsert: VALUES (?1, ?2, ?3, ?4, NOW + ?8, ?5, ?6, ?7, ?9, ?10, ?11, ?12, ?13, ?14) */
	lq_value p[14] = {lq_v_int(id),      txt(q),        txt(nm),        lq_v_blob(payload, sizeof(payload)),
			  lq_v_int(5),       lq_v_int(7),   txt(uk),        lq_v_int(-3600000),
			  txt("last err"),   lq_v_int(1234), lq_v_int(0),   lq_v_null(), lq_v_null(), txt("ph_part")};
	assert_int_equal(RUN(c, LQ_SQL_task_reinsert, p, 14, NULL), 1);
	lq_value pid[1] = {lq_v_int(id)};
	RUN(c, LQ_SQL_task_get, pid, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->ncols, LQ_TASK_COLS);
	struct cell *row = r->c[0];
	assert_int_equal(row[0].i, id);
	assert_string_equal(row[1].s, q);
	assert_int_equal(row[1].type, LQ_V_BLOB); /* VARBINARY */
	assert_string_equal(row[2].s, nm);
	assert_int_equal(row[3].type, LQ_V_BLOB);
	assert_int_equal(row[3].len, sizeof(payload));
	assert_memory_equal(row[3].s, payload, sizeof(payload));
	assert_int_equal(row[5].i, 5);
	assert_int_equal(row[6].i, 7);
	assert_string_equal(row[7].s, uk);
	assert_int_equal(row[8].type, LQ_V_NULL);
	int64_t now = row[19].i;
	assert_true(row[4].i <= now - 3590000 && row[4].i >= now - 3610000);
	assert_int_equal(row[15].type, LQ_V_TEXT);
	assert_string_equal(row[15].s, "last err");
	assert_int_equal(row[16].i, 1234);
	assert_int_equal(row[17].i, 0);
	assert_int_equal(row[18].type, LQ_V_NULL);
	assert_string_equal(row[23].s, "ph_part");

	/* task_list: ?1 twice (NULL and a value), ?2 after. */
	lq_value pl[2] = {txt(q), lq_v_int(1)};
	RUN(c, LQ_SQL_task_list, pl, 2, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][3].type, LQ_V_NULL); /* no payload in lists */
	lq_value pn[2] = {lq_v_null(), lq_v_int(0)};
	RUN(c, LQ_SQL_task_list, pn, 2, r);
	assert_true(r->n >= 1);

	/* task_bury: ?3 comes first in the text, ?2 three times. */
	lq_value pb[3] = {lq_v_int(id), lq_v_null(), txt("buried")};
	assert_int_equal(RUN(c, LQ_SQL_task_bury, pb, 3, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);
	RUN(c, LQ_SQL_task_get, pid, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][17].i, 1);
	assert_int_equal(r->c[0][18].type, LQ_V_INT);
	assert_string_equal(r->c[0][15].s, "buried");
	assert_int_equal(r->c[0][5].i, 5);

	/* queue_set_paused: ?2 in VALUES and in ON DUPLICATE KEY UPDATE. */
	lq_value pq[2] = {txt(q), lq_v_int(1)};
	RUN(c, LQ_SQL_queue_set_paused, pq, 2, NULL);
	pq[1] = lq_v_int(0);
	RUN(c, LQ_SQL_queue_set_paused, pq, 2, NULL);
	RUN(c, LQ_SQL_queue_list, NULL, 0, r);
	int seen = 0;
	for (int i = 0; i < r->n; i++) {
		if (strcmp(r->c[i][0].s, q) == 0) {
			seen = 1;
			assert_int_equal(r->c[i][1].i, 0);
			assert_int_equal(r->c[i][4].i, 1); /* dead */
		}
	}
	assert_true(seen);
	RUN(c, LQ_SQL_task_dead_delete, pid, 1, NULL);

	/* Too few parameters is an error, not a silent NULL. */
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec(c, LQ_SQL_task_bury, pb, 2, NULL, NULL, NULL, &err), LQ_ERROR);
	assert_non_null(strstr(err.msg, "needs 3 parameters"));
	rows_del(r);
}

static void blob_roundtrip(struct lq_conn *c, size_t size)
{
	struct rows *r = rows_new();
	unsigned char *buf = malloc(size);
	assert_non_null(buf);
	for (size_t i = 0; i < size; i++)
		buf[i] = (unsigned char)((i * 131) ^ (i >> 9)); /* every byte value, NULs included */
	buf[0] = 0;
	buf[size - 1] = 0;
	char q[64];
	name(q, sizeof(q), "blob_q");
	lq_value p[15] = {txt(q),      txt("blob"), lq_v_blob(buf, size), lq_v_null(), lq_v_int(60000),
			  lq_v_int(3), lq_v_null(), lq_v_null(),          lq_v_null(), lq_v_null(),
			  lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()};
	assert_int_equal(RUN(c, LQ_SQL_task_insert, p, 15, r), 1);
	assert_int_equal(r->n, 1);
	int64_t id = r->c[0][0].i;
	assert_true(id > 0);
	lq_value pid[1] = {lq_v_int(id)};
	RUN(c, LQ_SQL_task_get, pid, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][3].type, LQ_V_BLOB);
	assert_int_equal(r->c[0][3].len, size);
	assert_memory_equal(r->c[0][3].s, buf, size);
	assert_int_equal(r->c[0][3].s[size], '\0');
	/* And again, with the statement's buffers already grown. */
	RUN(c, LQ_SQL_task_get, pid, 1, r);
	assert_int_equal(r->c[0][3].len, size);
	assert_memory_equal(r->c[0][3].s, buf, size);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);
	free(buf);
	rows_del(r);
}

static void test_blob_roundtrip(void **state)
{
	blob_roundtrip(*state, 1024 * 1024 + 13);
	blob_roundtrip(*state, LQ_PAYLOAD_MAX);
	blob_roundtrip(*state, 1);
}

/* ER_DUP_ENTRY is "ON CONFLICT DO NOTHING": OK, 0 rows, transaction usable. */
static void test_duplicate_insert(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char l[64];
	name(l, sizeof(l), "dup");
	lq_value p[3] = {txt(l), txt("owner-1"), lq_v_int(60000)};
	assert_int_equal(LEASE_ROW(c, p), 1);
	assert_int_equal(LEASE_ROW(c, p), 0);

	begin(c);
	p[1] = txt("owner-2");
	assert_int_equal(LEASE_ROW(c, p), 0);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][1].s, "owner-1");
	lq_value pb[1] = {txt(l)};
	assert_int_equal(RUN(c, LQ_SQL_lease_break, pb, 1, NULL), 1);
	tx(be->commit, c);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->c[0][2].i, 2); /* the break after the duplicate was committed */

	char q[64], k[64];
	name(q, sizeof(q), "dup_q");
	name(k, sizeof(k), "dup_key");
	lq_value pt[15] = {txt(q),      txt("u"), lq_v_null(), lq_v_null(), lq_v_int(0),
			   lq_v_int(3), txt(k),   lq_v_null(), lq_v_null(), lq_v_null(),
			   lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()};
	assert_int_equal(RUN(c, LQ_SQL_task_insert, pt, 15, r), 1);
	int64_t id = r->c[0][0].i;
	assert_int_equal(RUN(c, LQ_SQL_task_insert, pt, 15, NULL), 0);
	lq_value pk[1] = {txt(k)};
	RUN(c, LQ_SQL_task_find_unique, pk, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, id);
	lq_value pid[1] = {lq_v_int(id)};
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);
	/* The one-statement enqueue: its row is the new id; a taken key gives none. */
	assert_int_equal(RUN(c, LQ_SQL_task_insert_notify, pt, 15, r), 1);
	assert_int_equal(r->n, 1);
	assert_true(r->c[0][0].i > id);
	pid[0] = lq_v_int(r->c[0][0].i);
	RUN(c, LQ_SQL_task_find_unique, pk, 1, r);
	assert_int_equal(r->c[0][0].i, pid[0].i);
	assert_int_equal(RUN(c, LQ_SQL_task_insert_notify, pt, 15, r), 0);
	assert_int_equal(r->n, 0);
	/* With a concurrency key and a partition in the insert: the key is
	 * still taken. */
	lq_value pkp[15];
	memcpy(pkp, pt, sizeof(pt));
	pkp[13] = txt("ck");
	pkp[14] = txt("pp");
	assert_int_equal(RUN(c, LQ_SQL_task_insert, pkp, 15, NULL), 0);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_insert, pkp, 15, NULL), 1);
	RUN(c, LQ_SQL_task_find_unique, pk, 1, r);
	pid[0] = lq_v_int(r->c[0][0].i);
	RUN(c, LQ_SQL_task_part_get, pid, 1, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][0].s, "pp");
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);

	/* Another migrator's record. */
	lq_value ps[2] = {lq_v_int(1), txt("0001_lease")};
	assert_int_equal(RUN(c, LQ_SQL_schema_record, ps, 2, NULL), 0);
	rows_del(r);
}

/* 'a', 'a ' and 'A' are three leases (VARBINARY). */
static void test_byte_exact_names(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	static const char *const suffix[] = {"a", "a ", "A", "\xc3\xa4", "a\xcc\x88"};
	char nm[5][64];
	for (int i = 0; i < 5; i++) {
		name(nm[i], sizeof(nm[i]), suffix[i]);
		lq_value p[3] = {txt(nm[i]), txt("o"), lq_v_int(60000)};
		assert_int_equal(LEASE_ROW(c, p), 1);
	}
	for (int i = 0; i < 5; i++) {
		lq_value p[1] = {txt(nm[i])};
		RUN(c, LQ_SQL_lease_get, p, 1, r);
		assert_int_equal(r->n, 1);
		assert_int_equal(r->c[0][0].len, strlen(nm[i]));
		assert_string_equal(r->c[0][0].s, nm[i]);
		assert_int_equal(r->c[0][2].i, 1);
		assert_int_equal(RUN(c, LQ_SQL_lease_break, p, 1, NULL), 1);
	}
	rows_del(r);
}

/* CLIENT_FOUND_ROWS: an UPDATE that matches but changes nothing counts. */
static void test_found_rows(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char q[64];
	name(q, sizeof(q), "found_q");
	lq_value pt[15] = {txt(q),      txt("f"),     lq_v_null(), lq_v_null(), lq_v_int(0),
			   lq_v_int(3), lq_v_null(), lq_v_null(), lq_v_null(), lq_v_null(),
			   lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()};
	assert_int_equal(RUN(c, LQ_SQL_task_insert, pt, 15, r), 1);
	lq_value p[2] = {lq_v_int(r->c[0][0].i), lq_v_int(0)};
	assert_int_equal(RUN(c, LQ_SQL_task_set_paused, p, 2, NULL), 1); /* already 0 */
	assert_int_equal(RUN(c, LQ_SQL_task_set_paused, p, 2, NULL), 1);
	lq_value pe[2] = {p[0], txt("same")};
	assert_int_equal(RUN(c, LQ_SQL_task_record_error, pe, 2, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_record_error, pe, 2, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, p, 1, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, p, 1, NULL), 0);
	rows_del(r);
}

/* The capability that makes statement id required (0: always required). */
static unsigned cap_of(lq_sql_id id)
{
	switch (id) {
	case LQ_SQL_task_claim_batch_delete:
	case LQ_SQL_task_claim_batch_update:
	case LQ_SQL_task_claim_one_delete:
	case LQ_SQL_task_claim_one_delete_occ:
	case LQ_SQL_task_claim_one_delete_top:
	case LQ_SQL_task_claim_one_delete_occ_top:
	case LQ_SQL_task_claim_one_update:
	case LQ_SQL_task_claim_one_delete_keyed:
	case LQ_SQL_task_claim_one_update_keyed:
	case LQ_SQL_task_claim_fair_delete:
	case LQ_SQL_task_claim_fair_update:
	case LQ_SQL_task_claim_one_delete_run:
	case LQ_SQL_task_claim_fair_one_delete:
	case LQ_SQL_task_claim_fair_one_update:
	case LQ_SQL_task_claim_fair_turn_delete:
	case LQ_SQL_task_claim_fair_turn_delete_top:
	case LQ_SQL_task_claim_fair_turn_update:
	case LQ_SQL_task_claim_fair_turn_batch_delete:
	case LQ_SQL_task_claim_fair_turn_batch_update:
		return LQ_CAP_CLAIM_RETURNING;
	case LQ_SQL_lease_release_notify:
	case LQ_SQL_lease_wait_mark:
	case LQ_SQL_task_insert_many_notify:
	case LQ_SQL_task_insert_many_same_notify:
		return LQ_CAP_NOTIFY;
	case LQ_SQL_task_fair_due_any:
		return LQ_CAP_SKIP_LOCKED;
	case LQ_SQL_task_insert_notify:
		return LQ_CAP_ONE_STATEMENT_ADD;
	case LQ_SQL_task_claim_delete_set:
	case LQ_SQL_task_claim_update_set:
		return LQ_CAP_CLAIM_SET;
	case LQ_SQL_task_ack_run:
	case LQ_SQL_task_ack_run_many:
		return LQ_CAP_ONE_STATEMENT_ACK;
	case LQ_SQL_task_ack_claim_one_update:
	case LQ_SQL_task_ack_claim_one_update_top:
		return LQ_CAP_ONE_STATEMENT_ACK_CLAIM;
	default:
		return 0;
	}
}

/* Every statement of the catalogue prepares on the migrated schema.  With
 * no parameters given, the backend prepares and then refuses to run a
 * statement that needs some; parameterless ones run (all harmless). */
static void test_all_statements_prepare(void **state)
{
	struct lq_conn *c = *state;
	for (int id = 0; id < LQ_SQL__COUNT; id++) {
		lq_err err = {{0}, 0, 0};
		unsigned cap = cap_of((lq_sql_id)id);
		if (id == LQ_SQL_task_insert_many_keyless && !be->last_insert_id) {
			assert_null(be->sql[id]); /* no consecutive ids to rely on */
			continue;
		}
		if (id == LQ_SQL_lease_acquire_free) {
			assert_null(be->sql[id]); /* lease_acquire returns a held row at no cost */
			continue;
		}
		if (id == LQ_SQL_task_candidates) {
			assert_null(be->sql[id]); /* one priority at a time: task_candidates_at */
			continue;
		}
		if (cap && !(be->caps & cap)) {
			assert_null(be->sql[id]); /* the library takes the transactional path */
			continue;
		}
		assert_non_null(be->sql[id]);
		lq_status st = be->exec(c, (lq_sql_id)id, NULL, 0, NULL, NULL, NULL, &err);
		if (st != LQ_OK && !strstr(err.msg, "parameters")) {
			print_error("statement %s: %d %s\n", lq__sql_name((lq_sql_id)id), (int)st, err.msg);
			fail();
		}
		assert_null(strstr(err.msg, "MySQL error"));
	}
}

static void test_exec_script(void **state)
{
	struct lq_conn *c = *state;
	script_ok(c, "-- a comment; not a statement\n"
		     "CREATE TEMPORARY TABLE lqt_tmp (\n"
		     "    a INT -- inline; comment\n"
		     ");\n"
		     "INSERT INTO lqt_tmp VALUES (1);\n"
		     "SELECT * FROM lqt_tmp;\n"
		     "DROP TEMPORARY TABLE lqt_tmp");
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec_script(c, "SELECT * FROM lqt_no_such_table;", &err), LQ_ERROR);
	assert_non_null(strstr(err.msg, "MySQL error 1146"));
	/* Strict mode: no silent truncation. */
	script_ok(c, "CREATE TEMPORARY TABLE lqt_tmp (a VARCHAR(2))");
	assert_int_equal(be->exec_script(c, "INSERT INTO lqt_tmp VALUES ('abc')", &err), LQ_ERROR);
	assert_non_null(strstr(err.msg, "1406"));
	script_ok(c, "DROP TEMPORARY TABLE lqt_tmp");
}

static void test_kill_connection(void **state)
{
	MYSQL *killer = raw_connect();
	char lock[64];
	name(lock, sizeof(lock), "victim");
	char sql[128];
	snprintf(sql, sizeof(sql), "DO GET_LOCK('%s', 0)", lock);

	/* Between statements. */
	struct lq_conn *v = conn_open(test_dsn);
	script_ok(v, sql);
	kill_lock_holder(killer, lock);
	sleep_ms(200);
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec(v, LQ_SQL_db_now, NULL, 0, NULL, NULL, NULL, &err), LQ_ECONN);
	assert_true(err.msg[0] != '\0');
	be->disconnect(v);

	/* Inside a transaction: the outcome of COMMIT is unknown. */
	v = conn_open(test_dsn);
	script_ok(v, sql);
	begin(v);
	char l[64];
	name(l, sizeof(l), "killed");
	lq_value p[3] = {txt(l), txt("o"), lq_v_int(60000)};
	assert_int_equal(LEASE_ROW(v, p), 1);
	kill_lock_holder(killer, lock);
	sleep_ms(200);
	assert_int_equal(be->commit(v, &err), LQ_EUNKNOWN);
	be->disconnect(v);
	mysql_close(killer);

	/* It was rolled back; a new connection works. */
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->n, 0);
	rows_del(r);
}

/* Two transactions lock two leases in opposite order: one is the victim. */
static int deadlock_child(const char *x, const char *y, int ready_fd)
{
	struct lq_conn *c = NULL;
	lq_err err = {{0}, 0, 0};
	int64_t n = 0;
	if (be->connect(test_dsn, 0, &c, &err) != LQ_OK)
		return 10;
	if (be->begin(c, 1, &err) != LQ_OK)
		return 11;
	lq_value py[1] = {txt(y)};
	if (be->exec(c, LQ_SQL_lease_break, py, 1, NULL, NULL, &n, &err) != LQ_OK || n != 1)
		return 12;
	if (write(ready_fd, "r", 1) != 1)
		return 13;
	lq_value px[1] = {txt(x)};
	lq_status st = be->exec(c, LQ_SQL_lease_break, px, 1, NULL, NULL, &n, &err);
	be->rollback(c, &err);
	be->disconnect(c);
	return st == LQ_OK ? 0 : st == LQ__RETRY ? 1 : 2;
}

static void test_deadlock(void **state)
{
	struct lq_conn *c = *state;
	char x[64], y[64];
	name(x, sizeof(x), "dl_x");
	name(y, sizeof(y), "dl_y");
	lq_value px[3] = {txt(x), txt("o"), lq_v_int(60000)};
	lq_value py[3] = {txt(y), txt("o"), lq_v_int(60000)};
	LEASE_ROW(c, px);
	LEASE_ROW(c, py);

	begin(c);
	assert_int_equal(RUN(c, LQ_SQL_lease_break, px, 1, NULL), 1);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(deadlock_child(x, y, fds[1]));
	}
	close(fds[1]);
	struct pollfd pfd = {fds[0], POLLIN, 0};
	char b;
	assert_int_equal(poll(&pfd, 1, 20000), 1);
	assert_int_equal(read(fds[0], &b, 1), 1);
	close(fds[0]);
	sleep_ms(300); /* let the child block on x */
	lq_err err = {{0}, 0, 0};
	lq_status st = be->exec(c, LQ_SQL_lease_break, py, 1, NULL, NULL, NULL, &err);
	lq_err rerr = {{0}, 0, 0};
	be->rollback(c, &rerr);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	int child = WEXITSTATUS(status);
	if (st == LQ__RETRY) {
		assert_non_null(strstr(err.msg, "1213"));
		assert_int_equal(child, 0);
	} else {
		if (st != LQ_OK)
			print_error("parent: %d %s\n", (int)st, err.msg);
		assert_int_equal(st, LQ_OK);
		assert_int_equal(child, 1);
	}
}

/* A lock-wait timeout rolls back only the statement in MySQL: the backend
 * says retry, so the core rolls back the whole transaction. */
static void test_lock_wait_timeout(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *c2 = conn_open(test_dsn);
	char x[64];
	name(x, sizeof(x), "lw_x");
	lq_value px[3] = {txt(x), txt("o"), lq_v_int(60000)};
	LEASE_ROW(c, px);
	begin(c);
	assert_int_equal(RUN(c, LQ_SQL_lease_break, px, 1, NULL), 1);
	script_ok(c2, "SET SESSION innodb_lock_wait_timeout = 1");
	begin(c2);
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec(c2, LQ_SQL_lease_break, px, 1, NULL, NULL, NULL, &err), LQ__RETRY);
	assert_non_null(strstr(err.msg, "1205"));
	tx(be->rollback, c2);
	tx(be->rollback, c);
	be->disconnect(c2);
}

/* Transactions in a row run without START TRANSACTION (autocommit off);
 * a lone statement between them still commits by itself, a rollback
 * undoes the whole transaction, also after a lock wait timeout. */
static int lease_seen(struct lq_conn *c, const char *nm)
{
	struct rows *r = rows_new();
	lq_value p[1] = {txt(nm)};
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	int n = r->n;
	rows_del(r);
	return n;
}

static void test_transactions_in_a_row(void **state)
{
	(void)state;
	struct lq_conn *a = conn_open(test_dsn), *b = conn_open(test_dsn);
	char n[5][64];
	const char *what[5] = {"row_t1", "row_t2", "row_lone", "row_rb", "row_lw"};
	lq_value p[5][3];
	for (int i = 0; i < 5; i++) {
		name(n[i], sizeof(n[i]), what[i]);
		p[i][0] = txt(n[i]), p[i][1] = txt("o"), p[i][2] = lq_v_null();
	}
	for (int i = 0; i < 2; i++) {
		begin(a);
		assert_int_equal(RUN(a, LQ_SQL_lease_create, p[i], 3, NULL), 1);
		tx(be->commit, a);
		assert_int_equal(lease_seen(b, n[i]), 1);
	}
	assert_int_equal(RUN(a, LQ_SQL_lease_create, p[2], 3, NULL), 1);
	assert_int_equal(be->app_tx(a), 0);
	assert_int_equal(lease_seen(b, n[2]), 1); /* committed by itself */
	for (int i = 0; i < 2; i++) { /* twice: the second with autocommit off */
		begin(a);
		assert_int_equal(RUN(a, LQ_SQL_lease_create, p[3], 3, NULL), 1);
		tx(be->rollback, a);
		assert_int_equal(lease_seen(b, n[3]), 0);
	}
	/* A lock wait timeout mid-transaction: the rollback undoes it all. */
	begin(b);
	assert_int_equal(RUN(b, LQ_SQL_lease_break, p[0], 1, NULL), 1);
	script_ok(a, "SET SESSION innodb_lock_wait_timeout = 1");
	for (int i = 0; i < 2; i++) {
		begin(a);
		tx(be->commit, a);
	}
	begin(a);
	assert_int_equal(RUN(a, LQ_SQL_lease_create, p[4], 3, NULL), 1);
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec(a, LQ_SQL_lease_break, p[0], 1, NULL, NULL, NULL, &err), LQ__RETRY);
	tx(be->rollback, a);
	tx(be->rollback, b);
	assert_int_equal(lease_seen(b, n[4]), 0);
	assert_int_equal(lease_seen(a, n[4]), 0);
	be->disconnect(a);
	be->disconnect(b);
}

/* The statements mean what the SQLite ones mean. */
/* lease_acquire: one upsert that inserts (token 1), leaves a held lease as
 * it is, or takes over an expired one (token + 1).  Where the server has
 * INSERT ... RETURNING (MariaDB 10.5+) the backend runs
 * lease_acquire_returning in its place: the row it leaves, got = 1 only
 * when it took it; else affected rows 1, 1, 2 and the caller reads. */
static int acquire_got(struct lq_conn *c, lq_value *p, struct rows *r)
{
	int64_t n = RUN(c, LQ_SQL_lease_acquire, p, 3, r);
	if (r->n == 0) { /* no RETURNING: what the affected rows and a read say */
		RUN(c, LQ_SQL_lease_get, p, 1, r);
		return n == 2 || (n == 1 && strcmp(r->c[0][1].s, p[1].s) == 0 && r->c[0][2].i == 1);
	}
	assert_int_equal(r->ncols, 7);
	assert_string_equal(r->c[0][0].s, p[0].s);
	assert_true(r->c[0][5].i >= r->c[0][3].i); /* now, on the server's clock */
	return (int)r->c[0][6].i;
}

static void test_lease_acquire_upsert(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char l[64];
	name(l, sizeof(l), "acq_lease");
	lq_value p[3] = {txt(l), txt("o1"), lq_v_int(60000)};
	assert_int_equal(acquire_got(c, p, r), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_string_equal(r->c[0][1].s, "o1");
	assert_int_equal(r->c[0][2].i, 1);
	assert_int_equal(r->c[0][4].i - r->c[0][3].i, 60000);

	p[1] = txt("o2");
	assert_int_equal(acquire_got(c, p, r), 0); /* held: unchanged */
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_string_equal(r->c[0][1].s, "o1");
	assert_int_equal(r->c[0][2].i, 1);

	lq_value pr[3] = {txt(l), txt("o1"), lq_v_int(1)};
	assert_int_equal(RUN(c, LQ_SQL_lease_release, pr, 3, NULL), 1);
	p[2] = lq_v_int(5000);
	assert_int_equal(acquire_got(c, p, r), 1); /* taken over */
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_string_equal(r->c[0][1].s, "o2");
	assert_int_equal(r->c[0][2].i, 2);
	assert_int_equal(r->c[0][4].i - r->c[0][3].i, 5000);
	assert_true(r->c[0][3].i <= r->c[0][5].i);

	assert_int_equal(RUN(c, LQ_SQL_lease_break, p, 1, NULL), 1);
	p[1] = txt("o3");
	assert_int_equal(acquire_got(c, p, r), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_string_equal(r->c[0][1].s, "o3");
	assert_int_equal(r->c[0][2].i, 4); /* break moved it to 3, the takeover to 4 */
	rows_del(r);
}

static void test_lease_semantics(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char l[64], q[64];
	name(l, sizeof(l), "sem_lease");
	name(q, sizeof(q), "sem_q");
	lq_value p[4] = {txt(l), txt("o1"), lq_v_int(60000)};
	assert_int_equal(LEASE_ROW(c, p), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->ncols, 6);
	assert_string_equal(r->c[0][1].s, "o1");
	assert_int_equal(r->c[0][2].i, 1);
	assert_int_equal(r->c[0][4].i - r->c[0][3].i, 60000);
	assert_true(r->c[0][5].i >= r->c[0][3].i);
	int64_t wall = (int64_t)time(NULL) * 1000;
	assert_true(r->c[0][5].i > wall - 300000 && r->c[0][5].i < wall + 300000); /* UTC epoch ms */

	lq_value pp[2] = {txt(l), txt(q)};
	RUN(c, LQ_SQL_tick_probe, pp, 2, r);
	assert_int_equal(r->c[0][0].i, 1); /* held */

	p[1] = txt("o2");
	assert_int_equal(RUN(c, LQ_SQL_lease_take, p, 3, NULL), 0); /* held */
	lq_value pr[4] = {txt(l), txt("o1"), lq_v_int(1), lq_v_int(5000)};
	assert_int_equal(RUN(c, LQ_SQL_lease_renew, pr, 4, NULL), 1);
	pr[2] = lq_v_int(2);
	assert_int_equal(RUN(c, LQ_SQL_lease_renew, pr, 4, NULL), 0); /* wrong token */
	pr[2] = lq_v_int(1);
	assert_int_equal(RUN(c, LQ_SQL_lease_release, pr, 3, NULL), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->c[0][1].type, LQ_V_NULL);
	assert_true(r->c[0][4].i <= r->c[0][5].i);
	RUN(c, LQ_SQL_tick_probe, pp, 2, r);
	assert_int_equal(r->c[0][0].i, 0);
	assert_int_equal(RUN(c, LQ_SQL_lease_renew, pr, 4, NULL), 0); /* released */

	assert_int_equal(RUN(c, LQ_SQL_lease_take, p, 3, NULL), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_string_equal(r->c[0][1].s, "o2");
	assert_int_equal(r->c[0][2].i, 2);
	assert_int_equal(RUN(c, LQ_SQL_lease_break, p, 1, NULL), 1);
	RUN(c, LQ_SQL_lease_get, p, 1, r);
	assert_int_equal(r->c[0][1].type, LQ_V_NULL);
	assert_int_equal(r->c[0][2].i, 3); /* break moves the token on */
	lq_value pr2[4] = {txt(l), txt("o2"), lq_v_int(2), lq_v_int(5000)};
	assert_int_equal(RUN(c, LQ_SQL_lease_renew, pr2, 4, NULL), 0);
	assert_int_equal(RUN(c, LQ_SQL_lease_release, pr2, 3, NULL), 0);

	lq_value all_names = lq_v_null();
	RUN(c, LQ_SQL_lease_list, &all_names, 1, r);
	int seen = 0;
	for (int i = 0; i < r->n; i++)
		seen += strcmp(r->c[i][0].s, l) == 0;
	assert_int_equal(seen, 1);
	rows_del(r);
}

static int64_t add_task(struct lq_conn *c, const char *q, const char *nm, lq_value run_at, int64_t delay,
			lq_value every)
{
	struct rows *r = rows_new();
	lq_value p[15] = {txt(q),      txt(nm),     lq_v_blob("x", 1), run_at,      lq_v_int(delay),
			  lq_v_int(3), lq_v_null(), every,             lq_v_null(), lq_v_null(),
			  lq_v_int(0), lq_v_int(0), lq_v_null(), lq_v_null(), lq_v_null()};
	assert_int_equal(RUN(c, LQ_SQL_task_insert, p, 15, r), 1);
	int64_t id = r->c[0][0].i;
	rows_del(r);
	return id;
}

static void test_task_semantics(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char q[64], l[64];
	name(q, sizeof(q), "task_q");
	name(l, sizeof(l), "task_runner");
	int64_t t1 = add_task(c, q, "t1", lq_v_null(), 0, lq_v_null());
	int64_t t2 = add_task(c, q, "t2", lq_v_null(), 3600000, lq_v_null());
	int64_t t3 = add_task(c, q, "t3", lq_v_int(1), 0, lq_v_null());
	int64_t t4 = add_task(c, q, "t4", lq_v_int(5), 0, lq_v_int(1000));

	lq_value pc[3] = {txt(q), lq_v_int(10), lq_v_int(0)};
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->ncols, LQ_TASK_COLS + LQ_STEER_COLS); /* the steering after the row */
	assert_int_equal(r->n, 3); /* t3 (run_at 1), t4 (5), t1 (now); not t2 */
	assert_int_equal(r->c[0][0].i, t3);
	assert_int_equal(r->c[1][0].i, t4);
	assert_int_equal(r->c[2][0].i, t1);
	assert_int_equal(r->c[1][10].i, 1000);
	assert_int_equal(r->c[0][17].i, 0);
	assert_int_equal(r->c[0][18].type, LQ_V_NULL);
	pc[1] = lq_v_int(1);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);

	lq_value pn[1] = {txt(q)};
	RUN(c, LQ_SQL_queue_next_due, pn, 1, r);
	assert_int_equal(r->ncols, 2);
	assert_int_equal(r->c[0][0].i, 1);
	lq_value pp[2] = {txt(l), txt(q)};
	RUN(c, LQ_SQL_tick_probe, pp, 2, r);
	assert_int_equal(r->c[0][0].i, 0);
	assert_int_equal(r->c[0][1].i, 1);

	/* At-most-once: one-off tasks only, once. */
	lq_value p3[1] = {lq_v_int(t3)}, p4[1] = {lq_v_int(t4)}, p1[1] = {lq_v_int(t1)};
	assert_int_equal(RUN(c, LQ_SQL_task_claim_delete, p3, 1, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_claim_delete, p3, 1, NULL), 0);
	assert_int_equal(RUN(c, LQ_SQL_task_claim_delete, p4, 1, NULL), 0); /* recurring */

	/* Recurring: one winner per occurrence. */
	lq_value po[3] = {lq_v_int(t4), lq_v_int(5), lq_v_int(4102444800000LL)};
	assert_int_equal(RUN(c, LQ_SQL_task_claim_occurrence, po, 3, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_claim_occurrence, po, 3, NULL), 0);

	/* At-least-once: claim, heartbeat, retry, claim again, ack. */
	lq_value pu[3] = {lq_v_int(t1), txt("w1"), lq_v_int(30000)};
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 1);
	pu[1] = txt("w2");
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 0);
	assert_int_equal(RUN(c, LQ_SQL_task_heartbeat, pu, 3, NULL), 0);
	pu[1] = txt("w1");
	assert_int_equal(RUN(c, LQ_SQL_task_heartbeat, pu, 3, NULL), 1);
	pc[1] = lq_v_int(10);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 0); /* t1 claimed, t4 moved on, t2 future */
	RUN(c, LQ_SQL_queue_next_due, pn, 1, r);
	assert_int_equal(r->c[0][0].type, LQ_V_INT); /* t2 */
	lq_value prl[4] = {lq_v_int(t1), txt("w1"), lq_v_int(0), txt("boom")};
	assert_int_equal(RUN(c, LQ_SQL_task_retry_later, prl, 4, NULL), 1);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, t1);
	assert_int_equal(r->c[0][5].i, 1); /* attempts */
	assert_int_equal(r->c[0][8].type, LQ_V_NULL);
	assert_string_equal(r->c[0][15].s, "boom");
	/* An at-least-once occurrence: retried after a back-off, then done. */
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 1);
	lq_value pro[4] = {lq_v_int(t1), txt("w1"), lq_v_int(60000), txt("again")};
	assert_int_equal(RUN(c, LQ_SQL_task_retry_occurrence, pro, 4, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 0); /* held back */
	assert_int_equal(RUN(c, LQ_SQL_task_run_now, p1, 1, NULL), 1);   /* back-off ended */
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 1);
	lq_value pao[4] = {lq_v_int(t1), txt("w1"), lq_v_int(5), lq_v_null()};
	assert_int_equal(RUN(c, LQ_SQL_task_ack_occurrence, pao, 4, NULL), 1);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][5].i, 0); /* attempts reset */
	assert_string_equal(r->c[0][15].s, "again"); /* the last error kept */
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 1);
	lq_value pa[2] = {lq_v_int(t1), txt("w2")};
	assert_int_equal(RUN(c, LQ_SQL_task_ack, pa, 2, NULL), 0);
	pa[1] = txt("w1");
	assert_int_equal(RUN(c, LQ_SQL_task_ack, pa, 2, NULL), 1);
	RUN(c, LQ_SQL_task_get, p1, 1, r);
	assert_int_equal(r->n, 0);

	/* Paused task and paused queue are not candidates. */
	lq_value p2[1] = {lq_v_int(t2)};
	assert_int_equal(RUN(c, LQ_SQL_task_run_now, p2, 1, NULL), 1);
	lq_value pz[2] = {lq_v_int(t2), lq_v_int(1)};
	assert_int_equal(RUN(c, LQ_SQL_task_set_paused, pz, 2, NULL), 1);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 0);
	pz[1] = lq_v_int(0);
	RUN(c, LQ_SQL_task_set_paused, pz, 2, NULL);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	lq_value pq[2] = {txt(q), lq_v_int(1)};
	RUN(c, LQ_SQL_queue_set_paused, pq, 2, NULL);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 0);
	RUN(c, LQ_SQL_tick_probe, pp, 2, r);
	assert_int_equal(r->c[0][1].i, 0);
	RUN(c, LQ_SQL_queue_next_due, pn, 1, r);
	assert_int_equal(r->c[0][0].type, LQ_V_NULL);
	pq[1] = lq_v_int(0);
	RUN(c, LQ_SQL_queue_set_paused, pq, 2, NULL);

	/* Dead and back. */
	lq_value pb[3] = {lq_v_int(t2), txt("nobody"), txt("dead")};
	assert_int_equal(RUN(c, LQ_SQL_task_bury, pb, 3, NULL), 0); /* not claimed by nobody */
	pb[1] = lq_v_null();
	assert_int_equal(RUN(c, LQ_SQL_task_bury, pb, 3, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_delete, p2, 1, NULL), 1);
	lq_value pd[1] = {txt(q)};
	RUN(c, LQ_SQL_task_list_dead, pd, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, t2);
	assert_int_equal(r->c[0][17].i, 1);
	assert_int_equal(RUN(c, LQ_SQL_task_revive, p2, 1, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_revive, p2, 1, NULL), 0); /* conflict: nothing */
	assert_int_equal(RUN(c, LQ_SQL_task_dead_delete, p2, 1, NULL), 1);
	RUN(c, LQ_SQL_task_get, p2, 1, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][5].i, 0);
	assert_int_equal(r->c[0][17].i, 0);
	assert_string_equal(r->c[0][15].s, "dead");

	lq_value pdi[13] = {lq_v_int(t2), txt(q),      txt("t2"), lq_v_blob("", 0), lq_v_int(3),
			    lq_v_int(3),  lq_v_null(), txt("out"), lq_v_int(77), lq_v_int(0), lq_v_null(), lq_v_null(),
			    txt("")};
	assert_int_equal(RUN(c, LQ_SQL_task_dead_insert, pdi, 13, NULL), 1);
	assert_int_equal(RUN(c, LQ_SQL_task_dead_insert, pdi, 13, NULL), 0);

	RUN(c, LQ_SQL_queue_list, NULL, 0, r);
	int seen = 0;
	for (int i = 0; i < r->n; i++) {
		if (strcmp(r->c[i][0].s, q) != 0)
			continue;
		seen = 1;
		assert_int_equal(r->c[i][2].i, 2); /* t2, t4 */
		assert_int_equal(r->c[i][3].i, 1); /* t2 due now */
		assert_int_equal(r->c[i][4].i, 1);
		assert_int_equal(r->c[i][5].type, LQ_V_INT);
	}
	assert_true(seen);
	RUN(c, LQ_SQL_schema_version, NULL, 0, r);
	assert_true(r->c[0][0].i >= 4);
	RUN(c, LQ_SQL_task_dead_delete, p2, 1, NULL);
	RUN(c, LQ_SQL_task_delete, p2, 1, NULL);
	RUN(c, LQ_SQL_task_delete, p4, 1, NULL);
	rows_del(r);
}

/* The plain INSERT from any application (docs/tasks.md) enqueues a due task, in
 * whatever time zone its session runs. */
static void test_plain_insert(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *app = conn_open(test_dsn);
	struct rows *r = rows_new();
	char q[64], sql[256];
	name(q, sizeof(q), "app_q");
	snprintf(sql, sizeof(sql),
		 "SET SESSION time_zone = '+05:00';\n"
		 "INSERT INTO lq_task (queue, name, payload) VALUES ('%s', 'app', 'data');", q);
	script_ok(app, sql);
	be->disconnect(app);
	lq_value pc[3] = {txt(q), lq_v_int(10), lq_v_int(0)};
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	struct cell *row = r->c[0];
	assert_string_equal(row[2].s, "app");
	assert_int_equal(row[3].len, 4);
	assert_memory_equal(row[3].s, "data", 4);
	assert_true(row[4].i <= row[19].i && row[4].i > row[19].i - 60000); /* run_at: now, in UTC */
	assert_int_equal(row[16].i, row[4].i);                               /* created_at */
	assert_int_equal(row[5].i, 0);
	assert_int_equal(row[6].i, 3);
	lq_value pid[1] = {lq_v_int(row[0].i)};
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pid, 1, NULL), 1);
	rows_del(r);
}

/* Rows locked by one claimer's candidates are skipped by another's. */
static void test_skip_locked(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *c2 = conn_open(test_dsn);
	struct rows *r = rows_new();
	char q[64];
	name(q, sizeof(q), "skip_q");
	int64_t ids[3];
	for (int i = 0; i < 3; i++)
		ids[i] = add_task(c, q, "s", lq_v_int(10 + i), 0, lq_v_null());
	lq_value pc[3] = {txt(q), lq_v_int(1), lq_v_int(0)};
	begin(c);
	RUN(c, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, ids[0]);
	begin(c2);
	pc[1] = lq_v_int(10);
	RUN(c2, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 2);
	assert_int_equal(r->c[0][0].i, ids[1]);
	assert_int_equal(r->c[1][0].i, ids[2]);
	tx(be->rollback, c2);
	tx(be->rollback, c);
	for (int i = 0; i < 3; i++) {
		lq_value p[1] = {lq_v_int(ids[i])};
		assert_int_equal(RUN(c, LQ_SQL_task_delete, p, 1, NULL), 1);
	}
	be->disconnect(c2);
	rows_del(r);
}

/* A server without FOR UPDATE SKIP LOCKED (MariaDB before 10.6, MySQL
 * 5.7) rejects the clause: no statement keeps it there, and each text
 * still prepares (here, with ?N as plain ?); without INSERT ... RETURNING
 * the lease's upsert loses its RETURNING. */
static void test_statements_without_skip_locked(void **state)
{
	(void)state;
	MYSQL *m = raw_connect();
	for (int id = 0; id < LQ_SQL__COUNT; id++) {
		size_t len = 0;
		char *text = lq__mysql_statement_text((lq_sql_id)id, 0, 0, &len);
		if (!lq__sql_mysql[id]) {
			assert_null(text);
			continue;
		}
		assert_non_null(text);
		assert_int_equal(strlen(text), len);
		if (strstr(text, "SKIP LOCKED"))
			fail_msg("statement %s keeps SKIP LOCKED on a server without it", lq__sql_name((lq_sql_id)id));
		if (id == LQ_SQL_lease_acquire)
			assert_null(strstr(text, "RETURNING"));
		char *plain = text, *o = text;
		for (const char *i = text; *i;) {
			*o++ = *i;
			if (*i++ == '?')
				while (*i >= '0' && *i <= '9')
					i++;
		}
		*o = '\0';
		MYSQL_STMT *st = mysql_stmt_init(m);
		assert_non_null(st);
		if (mysql_stmt_prepare(st, plain, (unsigned long)strlen(plain)) != 0)
			fail_msg("statement %s without SKIP LOCKED: %s", lq__sql_name((lq_sql_id)id), mysql_stmt_error(st));
		mysql_stmt_close(st);
		free(text);
	}
	mysql_close(m);
}

/* Session s's handler counters of index entries and rows read, which only
 * the session itself can see, copied into table reads as row k. */
static void copy_counters(struct lq_conn *s, const char *reads, int k)
{
	char sql[512];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO %s SELECT %d, SUM(VARIABLE_VALUE) FROM information_schema.SESSION_STATUS "
		 "WHERE VARIABLE_NAME IN ('HANDLER_ICP_ATTEMPTS', 'HANDLER_READ_NEXT', 'HANDLER_READ_PREV', "
		 "'HANDLER_READ_RND_NEXT')",
		 reads, k);
	script_ok(s, sql);
}

/* The rows session s's transaction holds locked, when the raw connection
 * may read INNODB_TRX (the PROCESS privilege), else -1; s is found by a
 * named lock it takes for the purpose. */
static long long rows_locked(struct lq_conn *s, MYSQL *m)
{
	char sql[256], lock[64];
	name(lock, sizeof(lock), "locked_by");
	snprintf(sql, sizeof(sql), "DO GET_LOCK('%s', 0)", lock);
	script_ok(s, sql);
	snprintf(sql, sizeof(sql),
		 "SELECT trx_rows_locked FROM information_schema.INNODB_TRX "
		 "WHERE trx_mysql_thread_id = IS_USED_LOCK('%s')",
		 lock);
	long long n = -1;
	if (mysql_query(m, sql) == 0) {
		MYSQL_RES *res = mysql_store_result(m);
		MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
		if (row && row[0])
			n = strtoll(row[0], NULL, 10);
		mysql_free_result(res);
	}
	snprintf(sql, sizeof(sql), "DO RELEASE_LOCK('%s')", lock);
	script_ok(s, sql);
	return n;
}

/* The index entries and rows session b reads in statement id (?1 q,
 * ?2 limit; want rows back) inside a transaction: its handler counters before and after, which
 * only the session itself can see, copied into table reads (k 0 and 1).
 * Also the rows its transaction holds locked when the raw connection may
 * read INNODB_TRX (the PROCESS privilege), else -1. */
static long long claim_reads(struct lq_conn *b, MYSQL *m, lq_sql_id id, const char *q, int limit, int want,
			     const char *reads, long long *locked)
{
	char sql[512];
	snprintf(sql, sizeof(sql), "DELETE FROM %s", reads);
	script_ok(b, sql);
	copy_counters(b, reads, 0);
	struct rows *r = rows_new();
	begin(b);
	/* The bounded walks: priority 0 alone (_fair_below: from 0 down). */
	lq_value pc[3] = {txt(q), lq_v_int(limit), lq_v_int(0)};
	int bounded = id == LQ_SQL_task_candidates_at || id == LQ_SQL_task_candidates_fair_below ||
		      id == LQ_SQL_task_candidates_top;
	if (id == LQ_SQL_task_candidates_fair_one)
		RUN(b, id, ((lq_value[]){pc[0], pc[2]}), 2, r);
	else
		RUN(b, id, pc, bounded ? 3 : 2, r);
	assert_int_equal(r->n, want);
	*locked = rows_locked(b, m);
	tx(be->rollback, b);
	copy_counters(b, reads, 1);
	snprintf(sql, sizeof(sql), "SELECT MAX(n) - MIN(n) FROM %s", reads);
	rows_del(r);
	return raw_number(m, sql);
}

/* The table copy_counters copies the handler counters into, named after
 * what into reads.  Not transactional: a session may write its counters
 * there inside its transaction, and the raw connection read them. */
static void reads_table(struct lq_conn *c, char *reads, size_t size, const char *what)
{
	char sql[256];
	name(reads, size, what);
	snprintf(sql, sizeof(sql), "CREATE TABLE %s (k INT PRIMARY KEY, n BIGINT) ENGINE=MEMORY", reads);
	script_ok(c, sql);
}

/* Deletes queue q's tasks and partitions. */
static void queue_done(struct lq_conn *c, const char *q)
{
	char sql[512];
	snprintf(sql, sizeof(sql), "DELETE FROM lq_task WHERE queue = '%s';\nDELETE FROM lq_partition WHERE queue = '%s'",
		 q, q);
	script_ok(c, sql);
}

/* Drops table reads, then queue_done. */
static void reads_done(struct lq_conn *c, const char *reads, const char *q)
{
	char sql[256];
	snprintf(sql, sizeof(sql), "DROP TABLE %s", reads);
	script_ok(c, sql);
	queue_done(c, q);
}

/* 20 000 tasks of queue q at priority, due in an hour and on. */
static void add_future(struct lq_conn *c, const char *q, int priority)
{
	char sql[768];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, priority) "
		 "SELECT '%s', 'future', 'x', UNIX_TIMESTAMP() * 1000 + 3600000 + n, %d "
		 "FROM (WITH RECURSIVE s (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 199) "
		 "SELECT a.n * 100 + b.n AS n FROM s a JOIN s b ON b.n < 100) AS f",
		 q, priority);
	script_ok(c, sql);
}

/* claim_reads, which must be a handful: no walk through the future tasks. */
static void few_reads(struct lq_conn *b, MYSQL *m, lq_sql_id id, const char *q, int limit, int want,
		      const char *reads, const char *what)
{
	long long locked, read = claim_reads(b, m, id, q, limit, want, reads, &locked);
	if (read >= 100 || locked >= 100)
		print_error("%s (%s): read %lld index entries, locked %lld rows\n", lq__sql_name(id), what, read,
			    locked);
	assert_true(read < 100);
	assert_true(locked < 100);
}

/* A claim does not walk the tasks not due yet: when nothing is claimable
 * (the only due task claimed by someone else, or held back by a shut
 * limit), or fewer than it asks for, the candidates' locking read reads a
 * handful of index entries, not one per future task, each of which it
 * locked in passing.  At a million future tasks such a walk filled the
 * server's lock memory. */
static void test_claim_reads(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *b = conn_open(test_dsn);
	MYSQL *m = raw_connect();
	char q[64], reads[64], sql[768];
	name(q, sizeof(q), "reads_q");
	reads_table(c, reads, sizeof(reads), "reads");
	add_future(c, q, 0);
	int64_t due = add_task(c, q, "due", lq_v_null(), 0, lq_v_null());
	lq_value pu[3] = {lq_v_int(due), txt("a"), lq_v_int(600000)};
	assert_int_equal(RUN(c, LQ_SQL_task_claim_update, pu, 3, NULL), 1); /* A keeps it */

	few_reads(b, m, LQ_SQL_task_candidates_at, q, 1, 0, reads, "the due task claimed");
	few_reads(b, m, LQ_SQL_task_candidates_top, q, 1, 0, reads, "the due task claimed");
	few_reads(b, m, LQ_SQL_task_candidates_due, q, 10, 0, reads, "the due task claimed");

	/* A claim of several when fewer are there: the read of one priority
	 * ends with its due tasks... */
	int64_t free1 = add_task(c, q, "free", lq_v_null(), 0, lq_v_null());
	few_reads(b, m, LQ_SQL_task_candidates_at, q, 10, 1, reads, "one free of 10 asked for");
	few_reads(b, m, LQ_SQL_task_candidates_top, q, 1, 1, reads, "one free, one asked for");
	/* A queue of one priority reads its due range, which ends the walk. */
	few_reads(b, m, LQ_SQL_task_candidates_due, q, 10, 1, reads, "one free of 10 asked for");
	/* ... and not the one a racing claimer has locked. */
	struct lq_conn *a2 = conn_open(test_dsn);
	struct rows *r = rows_new();
	begin(a2);
	lq_value pc[3] = {txt(q), lq_v_int(1), lq_v_int(0)};
	RUN(a2, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, free1);
	few_reads(b, m, LQ_SQL_task_candidates_at, q, 10, 0, reads, "the free one locked by another claimer");
	few_reads(b, m, LQ_SQL_task_candidates_top, q, 1, 0, reads, "the free one locked by another claimer");
	few_reads(b, m, LQ_SQL_task_candidates_due, q, 10, 0, reads, "the free one locked by another claimer");
	tx(be->rollback, a2);
	be->disconnect(a2);
	rows_del(r);
	lq_value pf[1] = {lq_v_int(free1)};
	assert_int_equal(RUN(c, LQ_SQL_task_delete, pf, 1, NULL), 1);

	/* The only free due task waits behind a concurrency limit its key
	 * has reached (the claimed one holds it): nothing claimable either. */
	char key[64];
	name(key, sizeof(key), "reads_key");
	lq_value pl[4] = {txt(key), lq_v_int(1), lq_v_null(), lq_v_null()};
	RUN(c, LQ_SQL_limit_set, pl, 4, NULL);
	int64_t held = add_task(c, q, "held", lq_v_null(), 0, lq_v_null());
	snprintf(sql, sizeof(sql), "UPDATE lq_task SET concurrency_key = '%s' WHERE id IN (%lld, %lld)", key,
		 (long long)due, (long long)held);
	script_ok(c, sql);
	few_reads(b, m, LQ_SQL_task_candidates_at, q, 10, 0, reads, "the free one under a shut limit");
	few_reads(b, m, LQ_SQL_task_candidates_due, q, 10, 0, reads, "the free one under a shut limit");

	/* The fair claim of a queue with partitions, the same. */
	lq_value pt[2] = {txt(q), txt("")};
	RUN(c, LQ_SQL_partition_touch, pt, 2, NULL);
	few_reads(b, m, LQ_SQL_task_candidates_fair, q, 1, 0, reads, "nothing claimable");
	few_reads(b, m, LQ_SQL_task_candidates_fair_one, q, 1, 0, reads, "nothing claimable");

	RUN(c, LQ_SQL_limit_delete, pl, 1, NULL);
	reads_done(c, reads, q);
	be->disconnect(b);
	mysql_close(m);
}

/* The read of a known top priority while lq_limit has rows: a task under
 * a key with room comes back marked limited, one under a key at its cap
 * does not come back, and nothing does once a task of a higher priority
 * is in the queue. */
static void test_top_filtered(void **state)
{
	struct lq_conn *c = *state;
	struct rows *r = rows_new();
	char q[64], open_key[64], shut_key[64], sql[512];
	name(q, sizeof(q), "topf_q");
	name(open_key, sizeof(open_key), "topf_open");
	name(shut_key, sizeof(shut_key), "topf_shut");
	lq_value po[4] = {txt(open_key), lq_v_int(5), lq_v_null(), lq_v_null()};
	lq_value ps[4] = {txt(shut_key), lq_v_int(0), lq_v_null(), lq_v_null()};
	RUN(c, LQ_SQL_limit_set, po, 4, NULL);
	RUN(c, LQ_SQL_limit_set, ps, 4, NULL);
	int64_t shut = add_task(c, q, "shut", lq_v_int(1), 0, lq_v_null());
	int64_t open = add_task(c, q, "open", lq_v_int(2), 0, lq_v_null());
	snprintf(sql, sizeof(sql),
		 "UPDATE lq_task SET concurrency_key = '%s' WHERE id = %lld;\n"
		 "UPDATE lq_task SET concurrency_key = '%s' WHERE id = %lld",
		 shut_key, (long long)shut, open_key, (long long)open);
	script_ok(c, sql);
	lq_value pt[3] = {txt(q), lq_v_int(1), lq_v_int(0)};
	RUN(c, LQ_SQL_task_candidates_top_filtered, pt, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, open);
	assert_int_equal(r->c[0][LQ_TASK_COLS - 1].i, 1); /* limited */
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, priority) "
		 "VALUES ('%s', 'high', 'x', UNIX_TIMESTAMP() * 1000 + 3600000, 5)",
		 q);
	script_ok(c, sql);
	RUN(c, LQ_SQL_task_candidates_top_filtered, pt, 3, r);
	assert_int_equal(r->n, 0);
	RUN(c, LQ_SQL_limit_delete, po, 1, NULL);
	RUN(c, LQ_SQL_limit_delete, ps, 1, NULL);
	rows_del(r);
	queue_done(c, q);
}

/* A racing claimer's walk that passed over a task this claimer holds
 * keeps that task's entry in lq_task_claim locked, and this claimer's walk
 * then skips its own task there.  A walk that does not end at the due
 * range went on through every task not due yet, and InnoDB keeps each
 * row a locking read has read locked to the commit, READ COMMITTED or
 * not: 16 workers over a million future tasks filled the lock memory and
 * the server aborted.  The candidates' read ends where the tasks stop
 * being due. */
static void test_walk_after_a_pass(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *a = conn_open(test_dsn), *b = conn_open(test_dsn);
	MYSQL *m = raw_connect();
	char q[64], reads[64], sql[256];
	name(q, sizeof(q), "pass_q");
	reads_table(c, reads, sizeof(reads), "pass_reads");
	add_future(c, q, 0);
	int64_t held = add_task(c, q, "held", lq_v_null(), 0, lq_v_null());
	struct rows *r = rows_new();
	/* b has read (and locked) the one due task on lq_task_due... */
	begin(b);
	lq_value pd[2] = {txt(q), lq_v_int(10)};
	RUN(b, LQ_SQL_task_candidates_due, pd, 2, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, held);
	/* ... when another comes due, and a's read walks past b's to it. */
	int64_t other = add_task(c, q, "other", lq_v_null(), 0, lq_v_null());
	begin(a);
	lq_value pc[3] = {txt(q), lq_v_int(1), lq_v_int(0)};
	RUN(a, LQ_SQL_task_candidates_at, pc, 3, r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->c[0][0].i, other);
	long long locked = rows_locked(b, m);
	copy_counters(b, reads, 0);
	RUN(b, LQ_SQL_task_candidates_at, pc, 3, r);
	copy_counters(b, reads, 1);
	if (locked >= 0)
		locked = rows_locked(b, m) - locked;
	snprintf(sql, sizeof(sql), "SELECT MAX(n) - MIN(n) FROM %s", reads);
	long long read = raw_number(m, sql);
	if (read >= 100 || locked >= 100)
		print_error("b's candidates read read %lld index entries, locked %lld rows more\n", read, locked);
	assert_true(read < 100);
	assert_true(locked < 100);
	tx(be->rollback, a);
	tx(be->rollback, b);
	be->disconnect(a);
	be->disconnect(b);
	mysql_close(m);
	rows_del(r);
	reads_done(c, reads, q);
}

/* Tasks of a higher priority not due yet: 20 000 of priority 5 in an hour,
 * a due one of priority 0.  task_priority_step finds that 5 has no due
 * task and 0 has, each step one seek, and the read of priority 0 alone
 * reads a few entries.  The fair claim's walk from the left reads them
 * all, from the bound a few. */
static void test_priority_bound_reads(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *b = conn_open(test_dsn);
	MYSQL *m = raw_connect();
	char q[64], reads[64];
	name(q, sizeof(q), "prio_q");
	reads_table(c, reads, sizeof(reads), "prio_reads");
	add_future(c, q, 5);
	add_task(c, q, "due", lq_v_null(), 0, lq_v_null());

	/* (priority below, rows, priority, due, lower): 5 not due, 0 due,
	 * none below 0. */
	static const struct {
		int below, n, priority, due, lower;
	} steps[] = {{-1, 1, 5, 0, 1}, {5, 1, 0, 1, 0}, {0, 0, 0, 0, 0}};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct rows *r = rows_new();
		lq_value ps[2] = {txt(q), steps[i].below < 0 ? lq_v_null() : lq_v_int(steps[i].below)};
		RUN(c, LQ_SQL_task_priority_step, ps, 2, r);
		assert_int_equal(r->n, steps[i].n);
		if (r->n) {
			assert_int_equal(r->c[0][0].i, steps[i].priority);
			assert_int_equal(r->c[0][1].i, steps[i].due);
			assert_int_equal(r->c[0][2].i, steps[i].lower);
		}
		rows_del(r);
	}

	/* The read of priority 0 alone seeks it. */
	few_reads(b, m, LQ_SQL_task_candidates_at, q, 1, 1, reads, "priority 0 after 5's 20 000 future tasks");

	/* The fair claim's top priority: from the left, all of them; from the
	 * bound, a few. */
	lq_value pt[2] = {txt(q), txt("")};
	RUN(c, LQ_SQL_partition_touch, pt, 2, NULL);
	long long locked, walk = claim_reads(b, m, LQ_SQL_task_candidates_fair, q, 1, 1, reads, &locked);
	if (walk < 20000)
		print_error("task_candidates_fair read %lld index entries: the walk from the left changed\n", walk);
	assert_true(walk >= 20000);
	few_reads(b, m, LQ_SQL_task_candidates_fair_below, q, 1, 1, reads, "below priority 5's 20 000 future tasks");
	few_reads(b, m, LQ_SQL_task_candidates_fair_one, q, 1, 1, reads, "below priority 5's 20 000 future tasks");
	reads_done(c, reads, q);
	be->disconnect(b);
	mysql_close(m);
}

/* Tasks t0..t(n-1) of queue q, due a second ago in that order, task k in
 * partition p(k % parts), and the partitions' rows, never served. */
static void add_partitioned(struct lq_conn *c, const char *q, int n, int parts)
{
	char sql[1024];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, part) "
		 "SELECT '%s', CONCAT('t', n), 'x', UNIX_TIMESTAMP() * 1000 - 1000 + n, CONCAT('p', n %% %d) "
		 "FROM (WITH RECURSIVE s (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < %d) "
		 "SELECT n FROM s) AS f;\n"
		 "INSERT INTO lq_partition (queue, name, served) "
		 "SELECT DISTINCT '%s', part, 0 FROM lq_task WHERE queue = '%s'",
		 q, parts, n - 1, q, q);
	script_ok(c, sql);
}

/* Two fair claims of several tasks at once: the second waits for the first
 * in partition_lock_all, and then reads the heads the first left.  Its
 * heads are read without locks, so without that wait it read the same
 * heads as the first, found every one locked and took nothing. */
static void test_fair_batches_take_turns(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *c2 = conn_open(test_dsn);
	char q[64], sql[1024];
	name(q, sizeof(q), "turns_q");
	add_partitioned(c, q, 16, 4);
	lq_value pq[2] = {txt(q), lq_v_int(4)};
	struct rows *first = rows_new(), *second = rows_new(), *held = rows_new();
	begin(c);
	assert_int_equal(RUN(c, LQ_SQL_partition_lock_all, pq, 1, held), 4);
	RUN(c, LQ_SQL_task_candidates_fair, pq, 2, first);
	assert_int_equal(first->n, 4);
	/* The heads' read alone, as the second claim made it: every head is
	 * the first one's, locked, so it finds none. */
	begin(c2);
	RUN(c2, LQ_SQL_task_candidates_fair, pq, 2, second);
	assert_int_equal(second->n, 0);
	tx(be->rollback, c2);
	/* With the wait, it waits. */
	script_ok(c2, "SET SESSION innodb_lock_wait_timeout = 1");
	begin(c2);
	lq_err err = {{0}, 0, 0};
	assert_int_equal(be->exec(c2, LQ_SQL_partition_lock_all, pq, 1, NULL, NULL, NULL, &err), LQ__RETRY);
	assert_non_null(strstr(err.msg, "1205"));
	tx(be->rollback, c2);
	/* The first claims its heads and commits; the second then reads the
	 * next heads, none of them the first one's. */
	snprintf(sql, sizeof(sql), "DELETE FROM lq_task WHERE id IN (%lld, %lld, %lld, %lld)",
		 (long long)first->c[0][0].i, (long long)first->c[1][0].i, (long long)first->c[2][0].i,
		 (long long)first->c[3][0].i);
	script_ok(c, sql);
	tx(be->commit, c);
	begin(c2);
	assert_int_equal(RUN(c2, LQ_SQL_partition_lock_all, pq, 1, NULL), 4);
	RUN(c2, LQ_SQL_task_candidates_fair, pq, 2, second);
	assert_int_equal(second->n, 4);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			assert_int_not_equal(second->c[i][0].i, first->c[k][0].i);
	tx(be->rollback, c2);
	rows_del(first);
	rows_del(second);
	rows_del(held);
	queue_done(c, q);
	be->disconnect(c2);
}

/* A fair claim of one task reads the partitions in served order only as
 * far as the first with a due head: 150 partitions, each with a due task,
 * and the read takes the least recently served one's head without probing
 * the other 149 (reading every partition's head and sorting them cost a
 * one-task fair claim twice a plain one). */
/* A cap counts its key's live claims, not its waiting tasks: with 20 000
 * due tasks of one capped key and one of them claimed, the claim's read of
 * the first reads a handful of index entries.  Counted by concurrency_key,
 * an outer column, MariaDB looked the count up by the key alone and
 * filtered claim_until in passing: every task of the key, on every claim. */
static void test_cap_count_reads_claims(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *b = conn_open(test_dsn);
	MYSQL *m = raw_connect();
	char q[64], reads[64], key[64], sql[1024];
	name(q, sizeof(q), "capq");
	name(key, sizeof(key), "capk");
	reads_table(c, reads, sizeof(reads), "capreads");
	lq_value pl[4] = {txt(key), lq_v_int(1000000), lq_v_null(), lq_v_null()};
	RUN(c, LQ_SQL_limit_set, pl, 4, NULL);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, priority, concurrency_key) "
		 "SELECT '%s', 'waiting', 'x', n, 0, '%s' "
		 "FROM (WITH RECURSIVE s (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 199) "
		 "SELECT a.n * 100 + b.n + 1 AS n FROM s a JOIN s b ON b.n < 100) AS f",
		 q, key);
	script_ok(c, sql);
	snprintf(sql, sizeof(sql),
		 "UPDATE lq_task SET claim_owner = 'a', claim_until = UNIX_TIMESTAMP() * 1000 + 600000 "
		 "WHERE queue = '%s' ORDER BY run_at LIMIT 1",
		 q);
	script_ok(c, sql);
	few_reads(b, m, LQ_SQL_task_candidates_at, q, 1, 1, reads, "a capped key's 20 000 due tasks");
	reads_done(c, reads, q);
	be->disconnect(b);
	mysql_close(m);
}

static void test_fair_one_reads(void **state)
{
	struct lq_conn *c = *state;
	struct lq_conn *b = conn_open(test_dsn);
	MYSQL *m = raw_connect();
	char q[64], reads[64], sql[1024];
	name(q, sizeof(q), "fair_q");
	reads_table(c, reads, sizeof(reads), "fair_reads");
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, part) "
		 "SELECT '%s', 'fair', 'x', UNIX_TIMESTAMP() * 1000 - 1000 + n, CONCAT('p', n) "
		 "FROM (WITH RECURSIVE s (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 149) "
		 "SELECT n FROM s) AS f;\n"
		 "INSERT INTO lq_partition (queue, name, served) "
		 "SELECT '%s', part, 1000 - CAST(SUBSTRING(part, 2) AS SIGNED) FROM lq_task WHERE queue = '%s'",
		 q, q, q);
	script_ok(c, sql);
	few_reads(b, m, LQ_SQL_task_candidates_fair_one, q, 1, 1, reads, "150 partitions, each with a head");
	/* The least recently served: p149 (served 851), then p148. */
	struct rows *r = rows_new();
	lq_value pc[2] = {txt(q), lq_v_int(INT64_MAX)}; /* no bound on the priority */
	begin(b);
	RUN(b, LQ_SQL_task_candidates_fair_one, pc, 2, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][LQ_TASK_COLS].s, "p149");
	assert_int_equal(r->c[0][LQ_TASK_COLS + 1].i, 1000);
	/* A second claimer passes the partition the first holds. */
	struct lq_conn *b2 = conn_open(test_dsn);
	struct rows *r2 = rows_new();
	begin(b2);
	RUN(b2, LQ_SQL_task_candidates_fair_one, pc, 2, r2);
	assert_int_equal(r2->n, 1);
	assert_string_equal(r2->c[0][LQ_TASK_COLS].s, "p148");
	tx(be->rollback, b2);
	tx(be->rollback, b);
	be->disconnect(b2);
	rows_del(r2);
	rows_del(r);
	reads_done(c, reads, q);
	be->disconnect(b);
	mysql_close(m);
}

/* The fair reads of a handle's turn from a known top priority: the head of
 * that priority in the next partition with one, round to the first (or
 * the second task), and nothing once a task of a higher priority is in the
 * queue, due or not. */
static void test_fair_turn_at(void **state)
{
	struct lq_conn *c = *state;
	char q[64], sql[1024];
	name(q, sizeof(q), "turn_at_q");
	add_partitioned(c, q, 6, 3);
	struct rows *r = rows_new();
	lq_value pa[3] = {txt(q), lq_v_int(0), txt("p0")};
	RUN(c, LQ_SQL_task_candidates_fair_after_at, pa, 3, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][2].s, "t1"); /* p1's head */
	assert_string_equal(r->c[0][LQ_TASK_COLS].s, "p1");
	pa[2] = txt("p2");
	RUN(c, LQ_SQL_task_candidates_fair_after_at, pa, 3, r);
	assert_int_equal(r->n, 0); /* none after the last */
	RUN(c, LQ_SQL_task_candidates_fair_upto_at, pa, 3, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][2].s, "t0");
	/* The second task of the first partition after p2, then round: p0's. */
	RUN(c, LQ_SQL_task_candidates_fair_next_at, pa, 3, r);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->c[0][2].s, "t3");
	pa[1] = lq_v_int(1);
	RUN(c, LQ_SQL_task_candidates_fair_upto_at, pa, 3, r);
	assert_int_equal(r->n, 0); /* no task of priority 1 */
	/* A task of a higher priority, not due: the reads of 0 give nothing. */
	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task (queue, name, payload, run_at, part, priority) "
		 "VALUES ('%s', 'high', 'x', UNIX_TIMESTAMP() * 1000 + 3600000, 'p1', 5)",
		 q);
	script_ok(c, sql);
	pa[1] = lq_v_int(0);
	RUN(c, LQ_SQL_task_candidates_fair_upto_at, pa, 3, r);
	assert_int_equal(r->n, 0);
	pa[2] = txt("p0");
	RUN(c, LQ_SQL_task_candidates_fair_after_at, pa, 3, r);
	assert_int_equal(r->n, 0);
	RUN(c, LQ_SQL_task_candidates_fair_next_at, pa, 3, r);
	assert_int_equal(r->n, 0);
	rows_del(r);
	queue_done(c, q);
}

/* The round trips a call makes besides its statement (lq_err.extra_trips,
 * which lq_db_statements adds).  A session of ours opens its first
 * transaction with START TRANSACTION and turns autocommit off at the
 * second (the BEGIN's own trip each); later BEGINs send nothing, and a
 * statement outside a transaction after them turns autocommit on first. */
static void test_extra_trips(void **state)
{
	(void)state;
	struct lq_conn *c = conn_open(test_dsn);
	lq_err err = {{0}, 0, 0};
	const int begin_extra[3] = {0, 0, -1};

	for (int i = 0; i < 3; i++) {
		err.extra_trips = 0;
		assert_int_equal(be->begin(c, 1, &err), LQ_OK);
		assert_int_equal(err.extra_trips, begin_extra[i]);
		err.extra_trips = 0;
		assert_int_equal(be->commit(c, &err), LQ_OK);
		assert_int_equal(err.extra_trips, 0);
	}
	for (int i = 0; i < 2; i++) {
		int64_t aff = 0;
		err.extra_trips = 0;
		assert_int_equal(be->exec(c, LQ_SQL_db_now, NULL, 0, NULL, NULL, &aff, &err), LQ_OK);
		assert_int_equal(err.extra_trips, i == 0 ? 1 : 0);
	}
	be->disconnect(c);
}

int main(void)
{
	snprintf(main_dsn, sizeof(main_dsn), "%s", lqt_dsn("mysql"));
	snprintf(pfx, sizeof(pfx), "lqt%ld_", (long)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_errors),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_extra_trips),
		cmocka_unit_test(test_blob_roundtrip),
		cmocka_unit_test(test_duplicate_insert),
		cmocka_unit_test(test_byte_exact_names),
		cmocka_unit_test(test_found_rows),
		cmocka_unit_test(test_all_statements_prepare),
		cmocka_unit_test(test_exec_script),
		cmocka_unit_test(test_kill_connection),
		cmocka_unit_test(test_deadlock),
		cmocka_unit_test(test_lock_wait_timeout),
		cmocka_unit_test(test_transactions_in_a_row),
		cmocka_unit_test(test_lease_semantics),
		cmocka_unit_test(test_lease_acquire_upsert),
		cmocka_unit_test(test_task_semantics),
		cmocka_unit_test(test_plain_insert),
		cmocka_unit_test(test_skip_locked),
		cmocka_unit_test(test_top_filtered),
		cmocka_unit_test(test_statements_without_skip_locked),
		cmocka_unit_test(test_claim_reads),
		cmocka_unit_test(test_walk_after_a_pass),
		cmocka_unit_test(test_fair_one_reads),
		cmocka_unit_test(test_cap_count_reads_claims),
		cmocka_unit_test(test_fair_turn_at),
		cmocka_unit_test(test_priority_bound_reads),
		cmocka_unit_test(test_fair_batches_take_turns),
	};
	return cmocka_run_group_tests_name("backend_mysql", tests, group_setup, group_teardown);
}

#endif /* LEASEQ_HAVE_MYSQL */
