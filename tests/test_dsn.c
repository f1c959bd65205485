/*
 * test_dsn.c - unit tests of the URL DSN helpers (lib/dsn.c): parsing and
 * the redaction that goes into every message naming a DSN.  Cases found by
 * tests/fuzz/fuzz_dsn are kept here as regressions.
 */
#include <string.h>

#include "backend/backend.h"
#include "testutil.h"

static void redact_cases(void **state)
{
	static const struct {
		const char *dsn, *want;
	} cases[] = {
		{"sqlite:leaseq.db", "sqlite:leaseq.db"},
		{"postgresql://dev:devpw@127.0.0.1:5432/db", "postgresql://dev:***@127.0.0.1:5432/db"},
		{"mysql://u:p@ss@h/db", "mysql://u:***@h/db"},
		{"postgres://u@h/db?password=secretpw&sslmode=disable", "postgres://u@h/db?password=***&sslmode=disable"},
		/* Only the first "password=" was hidden, and a key merely ending
		 * in "password" took that place (fuzz_dsn's property catches it). */
		{"postgres://u@h/db?xpassword=1&password=secretpw", "postgres://u@h/db?xpassword=1&password=***"},
		{"postgres://u@h/db?password=1&password=secretpw", "postgres://u@h/db?password=***&password=***"},
		{"postgres://u@h/db?sslpassword=keypass&a=b", "postgres://u@h/db?sslpassword=***&a=b"},
		{"postgres://u:pw@h/db?PASSWORD=x", "postgres://u:***@h/db?PASSWORD=***"},
		{"postgres://u@h/db?password", "postgres://u@h/db?password"},
		/* Found by fuzz_dsn in a first version of this fix: the query starts
		 * at the first '?' after "://", as lq__dsn_parse_url has it. */
		{"pos?s://alice@h/app?password=s3cretpw", "pos?s://alice@h/app?password=***"},
		{"postgres://u@h/db?password=", "postgres://u@h/db?password=***"},
		/* Not a URL (libpq key=value words): everything from password= on. */
		{"host=h password=secretpw dbname=d", "host=h password=***"},
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lq_dsn_redact(cases[i].dsn, buf, sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("redact(\"%s\") = \"%s\", expected \"%s\"", cases[i].dsn, buf, cases[i].want);
	}
}

/* A buffer too small for the result truncates but never shows the password
 * (it showed the start of a password= option that did not fit). */
static void redact_small_buffer(void **state)
{
	const char *dsn = "postgres://u@h/db?a=1&password=secretpw";
	char buf[64];

	for (size_t size = 1; size <= sizeof buf; size++) {
		memset(buf, 'x', sizeof buf);
		lq_dsn_redact(dsn, buf, size);
		assert_non_null(memchr(buf, '\0', size));
		assert_null(strstr(buf, "secr"));
	}
}

static void parse_and_query(void **state)
{
	lq_dsn_url u;
	lq_err err;
	char val[64];

	assert_int_equal(lq__dsn_parse_url("mysql://ro%40t:pa%3Ass@[::1]:3307/d%2Fb?socket=%2Ftmp%2Fs&x=1", &u, &err),
			 LQ_OK);
	assert_string_equal(u.scheme, "mysql");
	assert_string_equal(u.user, "ro@t");
	assert_string_equal(u.password, "pa:ss");
	assert_string_equal(u.host, "::1");
	assert_int_equal(u.port, 3307);
	assert_string_equal(u.dbname, "d/b");
	assert_int_equal(lq__dsn_query_get(u.query, "socket", val, sizeof val), 1);
	assert_string_equal(val, "/tmp/s");
	assert_int_equal(lq__dsn_query_get(u.query, "sock", val, sizeof val), 0);
	assert_int_equal(lq__dsn_parse_url("mysql://u:p@h:0/db", &u, &err), LQ_EINVAL);
	assert_int_equal(lq__dsn_parse_url("mysql://u:%zz@h/db", &u, &err), LQ_EINVAL);
	assert_null(strstr(err.msg, "%zz"));
	assert_int_equal(lq__dsn_parse_url("no-scheme", &u, &err), LQ_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(redact_cases),
		cmocka_unit_test(redact_small_buffer),
		cmocka_unit_test(parse_and_query),
	};

	return cmocka_run_group_tests_name("dsn", tests, NULL, NULL);
}
