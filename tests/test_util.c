/*
 * test_util.c - unit tests of the helpers that need no database:
 * lq_parse_duration, lq_parse_rate, lq_check_name, lq_lease_encode/decode,
 * lq_status_str, lq_lease_held.
 */
#include <string.h>

#include "testutil.h"

static void duration_valid(void **state)
{
	static const struct {
		const char *text;
		int64_t ms;
	} cases[] = {
		{"250ms", 250},     {"3s", 3000},        {"5m", 300000},
		{"2h", 7200000},    {"1d", 86400000},    {"10", 10000},
		{"0s", 0},          {"0", 0},            {"1ms", 1},
		{"90s", 90000},     {"366d", 366LL * 86400000},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ms = -12345;
		lq_status st = lq_parse_duration(cases[i].text, &ms, NULL, 0);
		if (st != LQ_OK)
			fail_msg("lq_parse_duration(\"%s\") = %s", cases[i].text, lq_status_str(st));
		if (ms != cases[i].ms)
			fail_msg("lq_parse_duration(\"%s\") = %lld ms, expected %lld", cases[i].text,
				 (long long)ms, (long long)cases[i].ms);
	}
}

static void duration_invalid(void **state)
{
	static const char *const bad[] = {
		"", "ms", "s", "-1s", "-5", "1x", "1s2", "1 s", "s1", "1sec", "abc", "1..5s", "0x10s",
		"99999999999999999999", "9223372036854775807d", "106751991168d", "1e3s",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t ms = 0;
		if (lq_parse_duration(bad[i], &ms, NULL, 0) != LQ_EINVAL)
			fail_msg("lq_parse_duration(\"%s\") accepted (%lld ms)", bad[i], (long long)ms);
	}
}

static void rate_parse(void **state)
{
	static const struct {
		const char *text;
		int n;
		int64_t ms;
	} good[] = {{"10/1s", 10, 1000}, {"1/250ms", 1, 250}, {"100/1m", 100, 60000}, {"1000000/1d", 1000000, 86400000},
		    {"5/2", 5, 2000}, {"007/1h", 7, 3600000}};
	static const char *const bad[] = {"", "10", "/1s", "10/", "x/1s", "+5/1s", "-5/1s", " 5/1s", "0/1s",
					  "1000001/1s", "99999999999999999999/1s", "5/0s", "5/0ms", "5/367d", "5/soon",
					  "5/1s/2", "5 /1s"};
	char msg[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int n = 0;
		int64_t ms = 0;
		if (lq_parse_rate(good[i].text, &n, &ms, msg, sizeof(msg)) != LQ_OK || n != good[i].n || ms != good[i].ms)
			fail_msg("lq_parse_rate(\"%s\") = %d/%lld ms (%s)", good[i].text, n, (long long)ms, msg);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = -1;
		int64_t ms = -1;
		if (lq_parse_rate(bad[i], &n, &ms, msg, sizeof(msg)) != LQ_EINVAL || n != -1 || ms != -1)
			fail_msg("lq_parse_rate(\"%s\") accepted (%d/%lld ms)", bad[i], n, (long long)ms);
		if (!strstr(msg, "is not a rate"))
			fail_msg("lq_parse_rate(\"%s\"): message \"%s\"", bad[i], msg);
	}
	assert_int_equal(lq_parse_rate(NULL, NULL, NULL, NULL, 0), LQ_EINVAL);
}

static void name_valid(void **state)
{
	char max[LQ_NAME_MAX + 1], msg[256];
	static const char *const good[] = {
		"a", "with space", "a:b%c'd\"e", "\xc3\xa9",           /* e-acute */
		"\xe2\x82\xac",                                          /* euro */
		"\xf0\x9f\x98\x80",                                      /* emoji */
		"\xf4\x8f\xbf\xbf",                                      /* U+10FFFF */
		"tab\tnew\nline",
	};

	memset(max, 'n', LQ_NAME_MAX);
	max[LQ_NAME_MAX] = '\0';
	assert_int_equal(lq_check_name("lease name", max, msg, sizeof(msg)), LQ_OK);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (lq_check_name("lease name", good[i], msg, sizeof(msg)) != LQ_OK)
			fail_msg("name %zu refused: %s", i, msg);
	}
	/* msg may be left out. */
	assert_int_equal(lq_check_name("x", "fine", NULL, 0), LQ_OK);
}

static void name_invalid(void **state)
{
	char long_name[LQ_NAME_MAX + 2], msg[256];
	static const char *const bad[] = {
		"",
		"\xff", "\xfe\xff", "abc\xc3", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "ok\x80", "\xe2\x82",
	};

	memset(long_name, 'n', LQ_NAME_MAX + 1);
	long_name[LQ_NAME_MAX + 1] = '\0';
	msg[0] = '\0';
	assert_int_equal(lq_check_name("lease name", long_name, msg, sizeof(msg)), LQ_EINVAL);
	assert_non_null(strstr(msg, "lease name"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		if (lq_check_name("queue name", bad[i], msg, sizeof(msg)) != LQ_EINVAL)
			fail_msg("bad name %zu accepted", i);
		if (strstr(msg, "queue name") == NULL)
			fail_msg("bad name %zu: message does not name it: \"%s\"", i, msg);
	}
	assert_int_equal(lq_check_name("x", "", NULL, 0), LQ_EINVAL);
	/* A tiny buffer is truncated, not overrun. */
	memset(msg, 'Z', sizeof(msg));
	assert_int_equal(lq_check_name("queue name", "", msg, 4), LQ_EINVAL);
	assert_true(strlen(msg) <= 3);
	assert_int_equal(msg[4], 'Z');
}

static lq_lease make_lease(const char *name, const char *owner, int64_t token)
{
	lq_lease l;

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.owner, sizeof(l.owner), "%s", owner);
	l.token = token;
	return l;
}

static int shell_safe(const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr("%+,-./:=@_~", ch) != NULL))
			return 0;
	}
	return 1;
}

static void handle_round_trip(void **state)
{
	static const char *const names[] = {
		"plain", "with space", "co:lon", "per%cent%41", "\xc3\xbc" "tf-8 \xe2\x9c\x93",
		"quote's \"double\"", "back\\slash $HOME `cmd` ;&|<>*?!#", "tab\tnew\nline",
		"lq1:7:x:y", "+/@~._-",
	};
	static const int64_t tokens[] = {1, 2, 1000000007LL, INT64_MAX};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (size_t k = 0; k < sizeof(tokens) / sizeof(tokens[0]); k++) {
			lq_lease l = make_lease(names[i], "host:42/0123456789abcdef", tokens[k]), d;
			char buf[LQ_HANDLE_MAX];

			assert_int_equal(lq_lease_encode(&l, buf, sizeof(buf)), LQ_OK);
			assert_memory_equal(buf, "lq1:", 4);
			if (!shell_safe(buf))
				fail_msg("not one shell-safe word: %s", buf);
			assert_int_equal(lq_lease_decode(buf, &d, NULL, 0), LQ_OK);
			assert_string_equal(d.name, l.name);
			assert_string_equal(d.owner, l.owner);
			assert_int_equal(d.token, l.token);
			/* Only the owner's own name/owner/token go in: nothing else. */
			assert_null(strstr(buf, " "));
		}
	}
}

static void handle_owner_odd(void **state)
{
	lq_lease l = make_lease("n", "o w:n%er'\"\xc3\xa9/abc", 5), d;
	char buf[LQ_HANDLE_MAX];

	assert_int_equal(lq_lease_encode(&l, buf, sizeof(buf)), LQ_OK);
	assert_true(shell_safe(buf));
	assert_int_equal(lq_lease_decode(buf, &d, NULL, 0), LQ_OK);
	assert_string_equal(d.owner, l.owner);
}

static void handle_max_size(void **state)
{
	char name[LQ_NAME_MAX + 1], owner[LQ_OWNER_MAX + 1], buf[LQ_HANDLE_MAX];
	lq_lease l, d;

	/* The longest name (255 bytes, all escaped) and an owner as the
	 * library makes it: fits in LQ_HANDLE_MAX. */
	for (int i = 0; i < 85; i++)
		memcpy(name + 3 * i, "\xe2\x82\xac", 3);
	name[LQ_NAME_MAX] = '\0';
	l = make_lease(name, "some-host.example.com:4194304/0123456789abcdef", INT64_MAX);
	assert_int_equal(lq_lease_encode(&l, buf, sizeof(buf)), LQ_OK);
	assert_true(strlen(buf) < LQ_HANDLE_MAX);
	assert_int_equal(lq_lease_decode(buf, &d, NULL, 0), LQ_OK);
	assert_string_equal(d.name, name);

	/* The worst case lq_lease_acquire can hand out: a 255-byte name and
	 * the longest owner base it accepts (LQ_OWNER_MAX - 20 bytes) plus the
	 * random part, every byte escaped.  LQ_HANDLE_MAX is documented as the
	 * size of an encoded handle, so this must fit too. */
	memset(name, '%', LQ_NAME_MAX);
	name[LQ_NAME_MAX] = '\0';
	memset(owner, ' ', LQ_OWNER_MAX - 20);
	strcpy(owner + LQ_OWNER_MAX - 20, "/0123456789abcdef");
	l = make_lease(name, owner, INT64_MAX);
	assert_int_equal(lq_lease_encode(&l, buf, sizeof(buf)), LQ_OK);
	assert_int_equal(lq_lease_decode(buf, &d, NULL, 0), LQ_OK);
	assert_string_equal(d.name, name);
	assert_string_equal(d.owner, owner);
}

static void handle_small_buffer(void **state)
{
	lq_lease l = make_lease("name", "owner/0123", 7);
	char buf[LQ_HANDLE_MAX];
	size_t need;

	assert_int_equal(lq_lease_encode(&l, buf, sizeof(buf)), LQ_OK);
	need = strlen(buf) + 1;
	/* One byte short fails without overrunning; exactly enough works. */
	for (size_t size = 0; size < need; size++) {
		memset(buf, 'Z', sizeof(buf));
		if (lq_lease_encode(&l, buf, size) == LQ_OK)
			fail_msg("encode into %zu bytes (needs %zu) succeeded", size, need);
		assert_int_equal(buf[size], 'Z');
	}
	assert_int_equal(lq_lease_encode(&l, buf, need), LQ_OK);
	assert_int_equal(strlen(buf) + 1, need);
}

static void handle_invalid(void **state)
{
	static const char *const texts[] = {
		"", "lq1", "lq1:", "lq2:1:a:b", "LQ1:1:a:b", "lq1:x:a:b", "lq1:1::b", "lq1:1:a",
		"lq1:1:a:", "lq1:1:%zz:b", "lq1:1:%f:b", "lq1:1:a%:b", "lq1:1:%ff:b", "lq1:1:%00:b",
		"lq1:0:a:b", "lq1:-1:a:b", "lq1:99999999999999999999:a:b",
	};
	lq_lease d;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (lq_lease_decode(texts[i], &d, NULL, 0) != LQ_EINVAL)
			fail_msg("lq_lease_decode(\"%s\") accepted", texts[i]);
	}
	/* An empty lease has nothing to encode. */
	char buf[LQ_HANDLE_MAX];
	lq_lease e = make_lease("", "", 0);
	assert_int_equal(lq_lease_encode(&e, buf, sizeof(buf)), LQ_EINVAL);
	e = make_lease("n", "", 1);
	assert_int_equal(lq_lease_encode(&e, buf, sizeof(buf)), LQ_EINVAL);
	e = make_lease("n", "o", 0);
	assert_int_equal(lq_lease_encode(&e, buf, sizeof(buf)), LQ_EINVAL);
}

static void status_strings(void **state)
{
#define LQT_STATUS_CASE(name, value, text)                                       \
	assert_int_equal(LQ_##name, value);                                      \
	assert_string_equal(lq_status_str(LQ_##name), text);
	LQ_STATUS_MAP(LQT_STATUS_CASE)
#undef LQT_STATUS_CASE
	/* Codes are append-only: the first ones never move. */
	assert_int_equal(LQ_OK, 0);
	assert_int_equal(LQ_BUSY, 1);
	assert_int_equal(LQ_LOST, 2);
	assert_int_equal(LQ_EMPTY, 3);
	assert_int_equal(LQ_NOTFOUND, 4);
	assert_int_equal(LQ_EINVAL, 5);
	/* Unknown codes still give a string. */
	assert_non_null(lq_status_str((lq_status)999));
	assert_non_null(lq_status_str((lq_status)-1));
	for (int r = LQ_STOP_NONE; r <= LQ_STOP_ERROR; r++)
		assert_non_null(lq_stop_reason_str((lq_stop_reason)r));
	assert_non_null(lq_stop_reason_str((lq_stop_reason)999));
	/* Names: one word each, all different (scripts and JSON read them). */
	for (int r = LQ_STOP_NONE; r <= LQ_STOP_ERROR; r++) {
		const char *w = lq_stop_reason_name((lq_stop_reason)r);
		assert_true(w[0] && !strchr(w, ' '));
		for (int o = LQ_STOP_NONE; o < r; o++)
			assert_string_not_equal(w, lq_stop_reason_name((lq_stop_reason)o));
	}
	assert_string_equal(lq_stop_reason_name(LQ_STOP_BUDGET), "budget");
	assert_string_equal(lq_stop_reason_name((lq_stop_reason)999), "unknown");
	assert_string_equal(lq_version(), LEASEQ_VERSION_STRING);
}

static void lease_held(void **state)
{
	lq_lease l = make_lease("n", "o", 1);

	l.now = 1000;
	l.expires_at = 1001;
	assert_int_equal(lq_lease_held(&l), 1);
	l.expires_at = 1000; /* expiry is exclusive */
	assert_int_equal(lq_lease_held(&l), 0);
	l.expires_at = 5000;
	l.owner[0] = '\0';
	assert_int_equal(lq_lease_held(&l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(duration_valid),
		cmocka_unit_test(duration_invalid),
		cmocka_unit_test(rate_parse),
		cmocka_unit_test(name_valid),
		cmocka_unit_test(name_invalid),
		cmocka_unit_test(handle_round_trip),
		cmocka_unit_test(handle_owner_odd),
		cmocka_unit_test(handle_max_size),
		cmocka_unit_test(handle_small_buffer),
		cmocka_unit_test(handle_invalid),
		cmocka_unit_test(status_strings),
		cmocka_unit_test(lease_held),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
