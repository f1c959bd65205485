/*
 * conf_errors.c - conformance: bad input is LQ_EINVAL and changes nothing;
 * DSNs; a missing or newer schema is LQ_ESCHEMA; error messages; what is
 * wrong with a local SQLite file has its own status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static char long_name[LQ_NAME_MAX + 2];

static const char *bad_name(int i)
{
	static const char *const names[] = {
		"",
		NULL,                /* LQ_NAME_MAX + 1 bytes */
		"\xff",              /* never valid in UTF-8 */
		"abc\xc3",           /* truncated sequence */
		"\xc0\xaf",          /* overlong '/' */
		"\xed\xa0\x80",      /* UTF-16 surrogate */
		"\xf4\x90\x80\x80",  /* above U+10FFFF */
		"ok\x80",            /* stray continuation byte */
	};

	if (i >= (int)(sizeof(names) / sizeof(names[0])))
		return NULL;
	if (i == 1) {
		memset(long_name, 'x', LQ_NAME_MAX + 1);
		long_name[LQ_NAME_MAX + 1] = '\0';
		return long_name;
	}
	return names[i];
}

static void err_lease_names(void **state)
{
	lq_db *db = DB(state);
	lq_lease l;
	const char *name;

	for (int i = 0; (name = bad_name(i)) != NULL; i++) {
		assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, name, 1000, NULL, 0, &l));
		assert_true(strlen(lq_errmsg(db)) > 0);
		assert_lq(db, LQ_EINVAL, lq_lease_get(db, name, &l));
		assert_lq(db, LQ_EINVAL, lq_lease_break(db, name, NULL));
	}
	/* A bad owner base too. */
	assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, "fine", 1000, "\xff", 0, &l));
	assert_int_equal(lqt_count_leases(db), 0);
}

static void err_lease_ttl(void **state)
{
	lq_db *db = DB(state);
	const int64_t bad[] = {0, -1, LQ_TTL_MAX_MS + 1, INT64_MIN, INT64_MAX};
	lq_lease l, g;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, "ttl", bad[i], NULL, 0, &l));
		assert_true(strlen(lq_errmsg(db)) > 0);
	}
	assert_int_equal(lqt_count_leases(db), 0);
	/* The limit itself is fine. */
	assert_lq_ok(db, lq_lease_acquire(db, "ttl", LQ_TTL_MAX_MS, NULL, 0, &l));
	assert_true(l.expires_at - l.acquired_at >= LQ_TTL_MAX_MS - 50);
	/* A bad renew changes nothing. */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_lq(db, LQ_EINVAL, lq_lease_renew(db, &l, bad[i]));
	assert_lq_ok(db, lq_lease_get(db, "ttl", &g));
	assert_int_equal(g.expires_at, l.expires_at);
	assert_lq_ok(db, lq_lease_check(db, &l));
	assert_int_equal(lqt_count_leases(db), 1);
}

static void err_lease_handle(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, bad;

	assert_lq_ok(db, lq_lease_acquire(db, "h", 10000, NULL, 0, &a));
	/* A handle without owner or token is not a handle. */
	bad = a;
	bad.owner[0] = '\0';
	assert_lq(db, LQ_EINVAL, lq_lease_release(db, &bad));
	assert_lq(db, LQ_EINVAL, lq_lease_renew(db, &bad, 1000));
	bad = a;
	bad.token = 0;
	assert_lq(db, LQ_EINVAL, lq_lease_release(db, &bad));
	assert_lq_ok(db, lq_lease_check(db, &a));
	/* Garbage handles do not decode. */
	static const char *const texts[] = {
		"", "lq1", "lq1:", "lq2:1:a:b", "lq1:x:a:b", "lq1:1::b", "lq1:1:a",
		"lq1:1:a:", "lq1:1:%zz:b", "lq1:1:%ff:b", "lq1:0:a:b", "lq1:-1:a:b",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (lq_lease_decode(texts[i], &bad, NULL, 0) != LQ_EINVAL)
			fail_msg("lq_lease_decode(\"%s\") is not LQ_EINVAL", texts[i]);
	}
}

/* One rejected lq_task_add, then check that nothing was written. */
static void reject_task(lq_db *db, const char *name, const lq_task_opts *o, const char *why)
{
	int64_t id = -7;
	lq_status st = lq_task_add(db, name, o, &id, NULL);

	if (st != LQ_EINVAL)
		fail_msg("task add (%s): %s, expected LQ_EINVAL: %s", why, lq_status_str(st), lq_errmsg(db));
	if (strlen(lq_errmsg(db)) == 0)
		fail_msg("task add (%s): no error message", why);
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	assert_int_equal(lqt_count_tasks(db, NULL, LQ_LIST_DEAD), 0);
}

static void err_task_add(void **state)
{
	lq_db *db = DB(state);
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	const char *name;
	unsigned char *big;
	static const char *const bad_crons[] = {
		"", "bogus", "* * * *", "60 * * * *", "* 24 * * *", "* * 32 * *", "* * * 13 *",
		"* * * * 8", "*/0 * * * *", "5-1 * * * *", "@sometimes", "* * * * * * *",
	};

	for (int i = 0; (name = bad_name(i)) != NULL; i++)
		reject_task(db, name, &o, "bad name");

	big = calloc(1, (size_t)LQ_PAYLOAD_MAX + 1);
	assert_non_null(big);
	o.payload = big;
	o.payload_len = (size_t)LQ_PAYLOAD_MAX + 1;
	reject_task(db, "big", &o, "payload over LQ_PAYLOAD_MAX");
	free(big);

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.max_attempts = -1;
	reject_task(db, "t", &o, "max_attempts -1");

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.every_ms = -1;
	reject_task(db, "t", &o, "every_ms -1");

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.every_ms = 60000;
	o.cron = "* * * * *";
	reject_task(db, "t", &o, "both cron and every_ms");

	for (size_t i = 0; i < sizeof(bad_crons) / sizeof(bad_crons[0]); i++) {
		o = (lq_task_opts)LQ_TASK_OPTS_INIT;
		o.cron = bad_crons[i];
		reject_task(db, "t", &o, bad_crons[i]);
	}

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.cron = "0 3 * * *";
	o.tz = "Mars/Olympus_Mons";
	reject_task(db, "t", &o, "unknown time zone");
	o.tz = "../../../etc/passwd";
	reject_task(db, "t", &o, "time zone path");

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.queue = bad_name(1);
	reject_task(db, "t", &o, "queue name too long");
	o.queue = "\xff";
	reject_task(db, "t", &o, "queue name not UTF-8");

	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.unique_key = bad_name(1);
	reject_task(db, "t", &o, "unique key too long");

	/* And the good ones of each kind pass. */
	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.cron = "*/5 1-3,7 * JAN-DEC mon-fri";
	o.tz = "America/New_York";
	assert_lq_ok(db, lq_task_add(db, "t", &o, NULL, NULL));
	o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	o.max_attempts = 1;
	o.every_ms = 1000;
	assert_lq_ok(db, lq_task_add(db, "t", &o, NULL, NULL));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 2);
}

static void err_queue_names(void **state)
{
	lq_db *db = DB(state);
	lq_task t;
	size_t n;
	int64_t wait;

	assert_lq(db, LQ_EINVAL, lq_queue_pause(db, bad_name(1), 1));
	assert_lq(db, LQ_EINVAL, lq_queue_pause(db, "\xff", 1));
	assert_lq(db, LQ_EINVAL, lq_task_claim(db, "\xff", LQ_AT_MOST_ONCE, 0, &t, 1, &n));
	assert_lq(db, LQ_EINVAL, lq_queue_next_due(db, bad_name(1), &wait));
}

static void err_open(void **state)
{
	static const char *const bad[] = {"foo://x", "sqlite::memory:", "sqlite:"};
	static const char *const secret[] = {
		"postgresql://leaseq:s3cr3t-pw@127.0.0.1:1/leaseq?connect_timeout=2",
		"mysql://leaseq:s3cr3t-pw@127.0.0.1:1/leaseq",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lq_db *db = NULL;
		lq_status st = lq_open(bad[i], &db);
		if (st != LQ_EINVAL)
			fail_msg("lq_open(\"%s\") = %s, expected LQ_EINVAL", bad[i], lq_status_str(st));
		assert_non_null(db); /* holds the error text */
		assert_true(strlen(lq_errmsg(db)) > 0);
		lq_close(db);
	}
	/* Nothing listens on port 1: refused (or backend not built), and the
	 * message never shows the password. */
	for (size_t i = 0; i < sizeof(secret) / sizeof(secret[0]); i++) {
		lq_db *db = NULL;
		lq_lease l;
		lq_status st = lq_open(secret[i], &db);
		assert_non_null(db);
		if (st == LQ_OK)
			st = lq_lease_acquire(db, "x", 1000, NULL, 0, &l);
		assert_true(st == LQ_ECONN || st == LQ_EINVAL);
		assert_true(strlen(lq_errmsg(db)) > 0);
		if (strstr(lq_errmsg(db), "s3cr3t") != NULL)
			fail_msg("password in error message: %s", lq_errmsg(db));
		lq_close(db);
	}
	lq_close(NULL);
}

static void expect_eschema(lq_db *db, lq_status st, const char *call)
{
	if (st != LQ_ESCHEMA)
		fail_msg("%s: %s, expected LQ_ESCHEMA: %s", call, lq_status_str(st), lq_errmsg(db));
}

static int count_lease(const lq_lease *l, void *ctx)
{
	(void)l;
	(*(int *)ctx)++;
	return 0;
}

static int count_task(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int *)ctx)++;
	return 0;
}

static int count_queue(const lq_queue_info *q, void *ctx)
{
	(void)q;
	(*(int *)ctx)++;
	return 0;
}

/* A program built against a newer header (a higher LQ_ABI_VERSION) than
 * the library is refused at open, before anything is sent; so is a
 * layout that never existed.  The handle still carries the reason. */
static void err_abi_newer(void **state)
{
	lq_db *db = NULL;
	assert_int_equal(lq_open_ex_abi(CONF(state)->dsn, 0, &db, LQ_ABI_VERSION + 1), LQ_EINVAL);
	assert_non_null(db);
	assert_non_null(strstr(lq_errmsg(db), "newer libleaseq"));
	lq_close(db);
	assert_int_equal(lq_open_ex_abi(CONF(state)->dsn, 0, &db, 0), LQ_EINVAL);
	lq_close(db);
	/* The calls without a handle refuse it too. */
	lq_lease l;
	char msg[200];
	assert_int_equal(lq_lease_decode_abi("lq1:1:a:b", &l, msg, sizeof(msg), LQ_ABI_VERSION + 1), LQ_EINVAL);
	assert_non_null(strstr(msg, "newer"));
	assert_int_equal(lq_lease_decode("lq1:1:a:b", &l, msg, sizeof(msg)), LQ_OK);
	assert_int_equal(lq_lease_decode("lq9:1:a:b", &l, msg, sizeof(msg)), LQ_EINVAL);
	assert_non_null(strstr(msg, "lq1"));
	int64_t ms;
	assert_int_equal(lq_parse_duration("5 parsecs", &ms, msg, sizeof(msg)), LQ_EINVAL);
	assert_non_null(strstr(msg, "5 parsecs"));
}

static void err_no_schema(void **state)
{
	lqt_conf *c = CONF(state);
	lq_db *db;
	lq_lease l;
	lq_task t;
	size_t n;
	int cur = -1, latest = -1, from = -1, to = -1, cnt = 0;

	assert_lq_ok(c->db, lqt_drop_schema(c->db));
	db = lqt_open(c->dsn);
	assert_non_null(db);
	expect_eschema(db, lq_lease_acquire(db, "x", 1000, NULL, 0, &l), "lease acquire");
	if (strstr(lq_errmsg(db), "leasectl migrate") == NULL)
		fail_msg("message does not say how to fix it: %s", lq_errmsg(db));
	expect_eschema(db, lq_lease_get(db, "x", &l), "lease get");
	expect_eschema(db, lq_lease_list(db, count_lease, &cnt), "lease list");
	expect_eschema(db, lq_task_add(db, "x", NULL, NULL, NULL), "task add");
	if (strstr(lq_errmsg(db), "leasectl migrate") == NULL)
		fail_msg("message does not say how to fix it: %s", lq_errmsg(db));
	expect_eschema(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n), "task claim");
	expect_eschema(db, lq_task_list(db, NULL, 0, count_task, &cnt), "task list");
	expect_eschema(db, lq_queue_list(db, count_queue, &cnt), "queue list");
	assert_int_equal(cnt, 0);
	/* Nothing was created by those calls. */
	assert_lq_ok(db, lq_schema_status(db, &cur, &latest));
	assert_int_equal(cur, 0);
	assert_true(latest >= 1);
	/* Migrate from zero, then it all works; migrating again is a no-op. */
	assert_lq_ok(db, lq_migrate(db, &from, &to));
	assert_int_equal(from, 0);
	assert_int_equal(to, latest);
	assert_lq_ok(db, lq_lease_acquire(db, "x", 1000, NULL, 0, &l));
	assert_lq_ok(db, lq_migrate(db, &from, &to));
	assert_int_equal(from, latest);
	assert_int_equal(to, latest);
	assert_lq_ok(db, lq_schema_status(db, &cur, &latest));
	assert_int_equal(cur, latest);
	lq_close(db);
}

static void err_newer_schema(void **state)
{
	lqt_conf *c = CONF(state);
	lq_db *db;
	lq_lease l;
	lq_task t;
	size_t n;
	int cur = -1, latest = -1;

	assert_lq_ok(c->db, lqt_exec_sql(c->db, "INSERT INTO lq_schema (version, name, applied_at) "
						"VALUES (999999, 'from the future', 0)"));
	db = lqt_open(c->dsn);
	assert_non_null(db);
	expect_eschema(db, lq_lease_acquire(db, "future", 1000, NULL, 0, &l), "lease acquire");
	expect_eschema(db, lq_task_add(db, "future", NULL, NULL, NULL), "task add");
	expect_eschema(db, lq_task_claim(db, NULL, LQ_AT_MOST_ONCE, 0, &t, 1, &n), "task claim");
	expect_eschema(db, lq_lease_break(db, "future", NULL), "lease break");
	/* Migrate refuses too: it never downgrades or touches a newer schema. */
	expect_eschema(db, lq_migrate(db, NULL, NULL), "migrate");
	lq_status st = lq_schema_status(db, &cur, &latest);
	assert_true(st == LQ_OK || st == LQ_ESCHEMA);
	if (st == LQ_OK)
		assert_int_equal(cur, 999999);
	lq_close(db);

	/* Back to the real version: nothing was written meanwhile. */
	assert_lq_ok(c->db, lqt_exec_sql(c->db, "DELETE FROM lq_schema WHERE version = 999999"));
	db = lqt_open(c->dsn);
	assert_non_null(db);
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "future", &l));
	assert_int_equal(lqt_count_tasks(db, NULL, 0), 0);
	assert_lq_ok(db, lq_schema_status(db, &cur, &latest));
	assert_int_equal(cur, latest);
	lq_close(db);
}

static void err_messages(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, b;
	lq_task t;

	/* A message names the object; a success clears it. */
	assert_lq(db, LQ_NOTFOUND, lq_task_get(db, 987654321, &t));
	assert_non_null(strstr(lq_errmsg(db), "987654321"));
	assert_lq(db, LQ_NOTFOUND, lq_task_rm(db, 987654321));
	assert_non_null(strstr(lq_errmsg(db), "987654321"));
	assert_lq_ok(db, lq_lease_acquire(db, "named lease", 10000, NULL, 0, &a));
	assert_string_equal(lq_errmsg(db), "");
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "named lease", 10000, NULL, 0, &b));
	assert_non_null(strstr(lq_errmsg(db), "named lease"));
	assert_lq(db, LQ_NOTFOUND, lq_lease_break(db, "unknown lease", NULL));
	assert_non_null(strstr(lq_errmsg(db), "unknown lease"));
	assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, "", 1000, NULL, 0, &b));
	assert_true(strlen(lq_errmsg(db)) > 0);
	assert_lq_ok(db, lq_lease_check(db, &a));
	assert_string_equal(lq_errmsg(db), "");
	assert_string_equal(lq_backend_name(db), CONF(state)->backend);
}

/* SQLite only (the contract says so for SQLite): a new database file is
 * private to its owner, and the DSN options are checked. */
static void err_sqlite_file(void **state)
{
	const char *dsn, *path;
	lq_db *db = NULL;
	struct stat sb;
	char opt[256];
	mode_t old;

	if (strcmp(CONF(state)->backend, "sqlite") != 0) {
		skip();
		return;
	}
	dsn = lqt_dsn("sqlite");
	path = dsn + strlen("sqlite:");
	old = umask(022);
	assert_lq_ok(db, lq_open(dsn, &db));
	assert_lq_ok(db, lq_migrate(db, NULL, NULL));
	umask(old);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	lq_close(db);

	snprintf(opt, sizeof(opt), "%s?synchronous=normal", dsn);
	db = NULL;
	assert_lq_ok(db, lq_open(opt, &db));
	assert_int_equal(lqt_count_leases(db), 0);
	lq_close(db);
	snprintf(opt, sizeof(opt), "%s?synchronous=sometimes", dsn);
	db = NULL;
	assert_lq(db, LQ_EINVAL, lq_open(opt, &db));
	lq_close(db);
}

/* open_file(flags, fmt, ...): lq_open_ex on sqlite:PATH; the status, the
 * message in msg. */
static lq_status open_file(unsigned flags, char *msg, size_t size, const char *path)
{
	char dsn[1200];
	lq_db *db = NULL;

	snprintf(dsn, sizeof(dsn), "sqlite:%s", path);
	lq_status st = lq_open_ex(dsn, flags, &db);
	snprintf(msg, size, "%s", lq_errmsg(db));
	lq_close(db);
	return st;
}

/* lq_open_ex's flags and the local-file statuses: a missing file with
 * NOCREATE or READONLY (LQ_ENODB, nothing created), a directory or a file
 * that is not a database (LQ_ENOTDB), a file that cannot be created
 * (LQ_ECREATE), a write on a read-only handle (LQ_EPERM).  Server backends
 * ignore the flags. */
static void err_open_flags(void **state)
{
	char dir[1024], path[1100], msg[1100];
	const char *tmp = getenv("TMPDIR");
	lq_db *db = NULL;
	lq_task t;
	int64_t id = 0;
	FILE *f;

	if (strcmp(CONF(state)->backend, "sqlite") != 0) {
		assert_lq_ok(db, lq_open_ex(lqt_dsn(CONF(state)->backend), LQ_OPEN_READONLY, &db));
		assert_int_equal(lqt_count_leases(db) >= 0, 1);
		lq_close(db);
		return;
	}
	db = NULL;
	assert_lq(db, LQ_EINVAL, lq_open_ex(lqt_dsn("sqlite"), 0x100, &db));
	lq_close(db);

	snprintf(dir, sizeof(dir), "%s/lq-open-flags.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));

	snprintf(path, sizeof(path), "%s/missing.db", dir);
	assert_int_equal(open_file(LQ_OPEN_NOCREATE, msg, sizeof(msg), path), LQ_ENODB);
	assert_non_null(strstr(msg, "no such database file"));
	assert_int_equal(open_file(LQ_OPEN_READONLY, msg, sizeof(msg), path), LQ_ENODB);
	assert_int_equal(access(path, F_OK), -1);

	snprintf(path, sizeof(path), "%s/no/such/dir.db", dir);
	assert_int_equal(open_file(0, msg, sizeof(msg), path), LQ_ECREATE);
	assert_non_null(strstr(msg, "cannot create"));

	assert_int_equal(open_file(0, msg, sizeof(msg), dir), LQ_ENOTDB);
	assert_int_equal(open_file(LQ_OPEN_READONLY, msg, sizeof(msg), dir), LQ_ENOTDB);
	assert_non_null(strstr(msg, "directory"));

	snprintf(path, sizeof(path), "%s/text.db", dir);
	assert_non_null(f = fopen(path, "w"));
	for (int i = 0; i < 20; i++)
		fputs("this is a text file, not an SQLite database\n", f);
	fclose(f);
	assert_int_equal(open_file(0, msg, sizeof(msg), path), LQ_ENOTDB);
	assert_int_equal(open_file(LQ_OPEN_READONLY, msg, sizeof(msg), path), LQ_ENOTDB);
	assert_non_null(strstr(msg, "not a database"));
	unlink(path);

	/* Read-only: reads work, a write is LQ_EPERM and changes nothing. */
	snprintf(path, sizeof(path), "sqlite:%s/ro.db", dir);
	db = NULL;
	assert_lq_ok(db, lq_open(path, &db));
	assert_lq_ok(db, lq_migrate(db, NULL, NULL));
	assert_lq_ok(db, lq_task_add(db, "before", NULL, &id, NULL));
	lq_close(db);
	db = NULL;
	assert_lq_ok(db, lq_open_ex(path, LQ_OPEN_READONLY, &db));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	lq_task_clear(&t);
	assert_lq(db, LQ_EPERM, lq_task_add(db, "after", NULL, NULL, NULL));
	assert_lq(db, LQ_EPERM, lq_task_rm(db, id));
	lq_close(db);
	db = NULL;
	assert_lq_ok(db, lq_open(path, &db));
	assert_lq_ok(db, lq_task_get(db, id, &t));
	lq_task_clear(&t);
	lq_close(db);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int lqt_conf_errors(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(err_lease_names, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_lease_ttl, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_lease_handle, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_task_add, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_queue_names, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_open, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_messages, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_newer_schema, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_sqlite_file, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_open_flags, lqt_conf_test_setup),
		cmocka_unit_test_setup(err_abi_newer, lqt_conf_test_setup),
		/* Last: it drops the schema (and migrates it back). */
		cmocka_unit_test_setup(err_no_schema, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "errors/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
