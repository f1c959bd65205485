/*
 * test_schedule.c - cron expressions and time zones (lib/schedule.c).
 *
 * Every expected instant was worked out by hand from the wall-clock rule and
 * converted with `date -u -d '...' +%s` / python3 zoneinfo, never copied
 * from the implementation.  The comment on each row gives both sides in UTC.
 */
#define _POSIX_C_SOURCE 200809L /* gmtime_r, mkdtemp, setenv */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "leaseq.h"

struct next_case {
	const char *cron, *tz;
	int64_t after, want;
};

static const struct next_case next_cases[] = {
	/* UTC */
	{"*/5 * * * *", NULL, 1768471350000LL, 1768471500000LL}, /* 2026-01-15 10:02:30 -> 2026-01-15 10:05 UTC, every 5 minutes */
	{"*/5 * * * *", NULL, 1768471500000LL, 1768471800000LL}, /* 2026-01-15 10:05 -> 2026-01-15 10:10 UTC, on an occurrence: the next one */
	{"*/5 * * * *", NULL, 1768471499999LL, 1768471500000LL}, /* 2026-01-15 10:04:59.999 -> 2026-01-15 10:05 UTC, 1 ms before */
	{"* * * * *", NULL, 1768471320000LL, 1768471380000LL}, /* 2026-01-15 10:02 -> 2026-01-15 10:03 UTC, every minute */
	{"0 * * * *", NULL, 1768471350000LL, 1768474800000LL}, /* 2026-01-15 10:02:30 -> 2026-01-15 11:00 UTC, hourly */
	{"15,45 9-17 * * 1-5", NULL, 1768585800000LL, 1768814100000LL}, /* 2026-01-16 17:50 -> 2026-01-19 09:15 UTC, Fri evening -> Mon */
	{"15,45 9-17 * * 1-5", NULL, 1768814100000LL, 1768815900000LL}, /* 2026-01-19 09:15 -> 2026-01-19 09:45 UTC, list */
	{"10-50/20 * * * *", NULL, 1768473000000LL, 1768474200000LL}, /* 2026-01-15 10:30 -> 2026-01-15 10:50 UTC, range step */
	{"10-50/20 * * * *", NULL, 1768474200000LL, 1768475400000LL}, /* 2026-01-15 10:50 -> 2026-01-15 11:10 UTC, range step wraps */
	{"5/15 * * * *", NULL, 1768474200000LL, 1768475100000LL}, /* 2026-01-15 10:50 -> 2026-01-15 11:05 UTC, a/n: 5,20,35,50 */
	{"5/15 * * * *", NULL, 1768473300000LL, 1768474200000LL}, /* 2026-01-15 10:35 -> 2026-01-15 10:50 UTC, a/n */
	{"0 0 1 */3 *", NULL, 1770681600000LL, 1775001600000LL}, /* 2026-02-10 00:00 -> 2026-04-01 00:00 UTC, quarterly */
	{"0 12 * jan,Jul *", NULL, 1769860800000LL, 1782907200000LL}, /* 2026-01-31 12:00 -> 2026-07-01 12:00 UTC, month names, any case */
	{"0 0 * * MON-FRI", NULL, 1768521600000LL, 1768780800000LL}, /* 2026-01-16 00:00 -> 2026-01-19 00:00 UTC, day names range */
	{"0 0 * * 7", NULL, 1768435200000LL, 1768694400000LL}, /* 2026-01-15 00:00 -> 2026-01-18 00:00 UTC, 7 = Sunday */
	{"0 0 * * 0", NULL, 1768435200000LL, 1768694400000LL}, /* 2026-01-15 00:00 -> 2026-01-18 00:00 UTC, 0 = Sunday */
	{"0 0 * * sun", NULL, 1768435200000LL, 1768694400000LL}, /* 2026-01-15 00:00 -> 2026-01-18 00:00 UTC, sun */
	{"0 8 * * 5-7", NULL, 1768636800000LL, 1768723200000LL}, /* 2026-01-17 08:00 -> 2026-01-18 08:00 UTC, 5-7 reaches Sunday */
	{"0 8 * * 5-7", NULL, 1768723200000LL, 1769155200000LL}, /* 2026-01-18 08:00 -> 2026-01-23 08:00 UTC, then Friday */
	{"@hourly", NULL, 1768471350000LL, 1768474800000LL}, /* 2026-01-15 10:02:30 -> 2026-01-15 11:00 UTC */
	{"@daily", NULL, 1768471350000LL, 1768521600000LL}, /* 2026-01-15 10:02:30 -> 2026-01-16 00:00 UTC */
	{"@midnight", NULL, 1768471350000LL, 1768521600000LL}, /* 2026-01-15 10:02:30 -> 2026-01-16 00:00 UTC */
	{"@weekly", NULL, 1768471350000LL, 1768694400000LL}, /* 2026-01-15 10:02:30 -> 2026-01-18 00:00 UTC, Sunday */
	{"@monthly", NULL, 1768471350000LL, 1769904000000LL}, /* 2026-01-15 10:02:30 -> 2026-02-01 00:00 UTC */
	{"@yearly", NULL, 1768471350000LL, 1798761600000LL}, /* 2026-01-15 10:02:30 -> 2027-01-01 00:00 UTC */
	{"@annually", NULL, 1768471350000LL, 1798761600000LL}, /* 2026-01-15 10:02:30 -> 2027-01-01 00:00 UTC */
	{"  @Daily\t", NULL, 1768471350000LL, 1768521600000LL}, /* 2026-01-15 10:02:30 -> 2026-01-16 00:00 UTC, blanks, case */
	{" 0  12\t* *   * ", NULL, 1768471350000LL, 1768478400000LL}, /* 2026-01-15 10:02:30 -> 2026-01-15 12:00 UTC, blanks between fields */
	{"0 0 13 * 5", NULL, 1767225600000LL, 1767312000000LL}, /* 2026-01-01 00:00 -> 2026-01-02 00:00 UTC, Vixie OR: Friday 2nd */
	{"0 0 13 * 5", NULL, 1767916800000LL, 1768262400000LL}, /* 2026-01-09 00:00 -> 2026-01-13 00:00 UTC, Vixie OR: Tuesday 13th */
	{"0 0 13 * 5", NULL, 1768262400000LL, 1768521600000LL}, /* 2026-01-13 00:00 -> 2026-01-16 00:00 UTC, Vixie OR: Friday 16th */
	{"0 0 */7 * 1", NULL, 1767225600000LL, 1780272000000LL}, /* 2026-01-01 00:00 -> 2026-06-01 00:00 UTC, dom starts with *: AND */
	{"0 0 1 * */3", NULL, 1767225600000LL, 1769904000000LL}, /* 2026-01-01 00:00 -> 2026-02-01 00:00 UTC, dow starts with *: AND (Sun Feb 1) */
	{"0 0 30 2 MON", NULL, 1767225600000LL, 1769990400000LL}, /* 2026-01-01 00:00 -> 2026-02-02 00:00 UTC, OR: Feb 30 never, Mondays do */
	{"0 0 29 2 *", NULL, 1767225600000LL, 1835395200000LL}, /* 2026-01-01 00:00 -> 2028-02-29 00:00 UTC, leap day */
	{"0 0 29 2 *", NULL, 1835395200000LL, 1961625600000LL}, /* 2028-02-29 00:00 -> 2032-02-29 00:00 UTC, next leap day */
	{"0 0 29 2 *", NULL, 3981398400000LL, 4233686400000LL}, /* 2096-03-01 00:00 -> 2104-02-29 00:00 UTC, 2100 is no leap year */
	{"0 0 31 * *", NULL, 1769817600000LL, 1774915200000LL}, /* 2026-01-31 00:00 -> 2026-03-31 00:00 UTC, skips February */
	{"0 0 31 * *", NULL, 1774915200000LL, 1780185600000LL}, /* 2026-03-31 00:00 -> 2026-05-31 00:00 UTC, skips April */
	{"0 0 31 * *", NULL, 1785456000000LL, 1788134400000LL}, /* 2026-07-31 00:00 -> 2026-08-31 00:00 UTC, July, August */
	{"59 23 31 12 *", NULL, 1798761540000LL, 1830297540000LL}, /* 2026-12-31 23:59 -> 2027-12-31 23:59 UTC, year end */
	{"0 0 1 1 *", NULL, -18489600000LL, 0LL}, /* 1969-06-01 00:00 -> 1970-01-01 00:00 UTC, before the epoch */
	{"* * * * *", NULL, -1LL, 0LL}, /* 1969-12-31 23:59:59.999 -> 1970-01-01 00:00 UTC, -1 ms */
	{"30 6 * * *", NULL, -63000000LL, 23400000LL}, /* 1969-12-31 06:30 -> 1970-01-01 06:30 UTC */
	{"0 12 * * *", "", 1768471200000LL, 1768478400000LL}, /* 2026-01-15 10:00 -> 2026-01-15 12:00 UTC, "" is UTC */
	{"0 12 * * *", "UTC", 1768471200000LL, 1768478400000LL}, /* 2026-01-15 10:00 -> 2026-01-15 12:00 UTC, named UTC */
	{"0 12 * * *", "Etc/UTC", 1768478400000LL, 1768564800000LL}, /* 2026-01-15 12:00 -> 2026-01-16 12:00 UTC */
	/* New York: 2026-03-08 02:00 EST -> 03:00 EDT (07:00 UTC);
	 * 2026-11-01 02:00 EDT -> 01:00 EST (06:00 UTC) */
	{"0 9 * * *", "America/New_York", 1768435200000LL, 1768485600000LL}, /* 2026-01-15 00:00 -> 2026-01-15 14:00 UTC, EST */
	{"0 9 * * *", "America/New_York", 1782864000000LL, 1782910800000LL}, /* 2026-07-01 00:00 -> 2026-07-01 13:00 UTC, EDT */
	{"@daily", "America/New_York", 1772884800000LL, 1772946000000LL}, /* 2026-03-07 12:00 -> 2026-03-08 05:00 UTC, midnight EST */
	{"30 2 * * *", "America/New_York", 1772884800000LL, 1772953200000LL}, /* 2026-03-07 12:00 -> 2026-03-08 07:00 UTC, gap: 03:00 EDT */
	{"30 2 * * *", "America/New_York", 1772953200000LL, 1773037800000LL}, /* 2026-03-08 07:00 -> 2026-03-09 06:30 UTC, then 02:30 EDT */
	{"0 2 * * *", "America/New_York", 1772884800000LL, 1772953200000LL}, /* 2026-03-07 12:00 -> 2026-03-08 07:00 UTC, gap: 03:00 EDT */
	{"30 * * * *", "America/New_York", 1772951400000LL, 1772955000000LL}, /* 2026-03-08 06:30 -> 2026-03-08 07:30 UTC, real time: 01:30 EST -> 03:30 EDT */
	{"*/30 * * * *", "America/New_York", 1772951400000LL, 1772953200000LL}, /* 2026-03-08 06:30 -> 2026-03-08 07:00 UTC, real time: 01:30 EST -> 03:00 EDT */
	{"30 1 * * *", "America/New_York", 1793448000000LL, 1793511000000LL}, /* 2026-10-31 12:00 -> 2026-11-01 05:30 UTC, overlap: 01:30 EDT */
	{"30 1 * * *", "America/New_York", 1793511000000LL, 1793601000000LL}, /* 2026-11-01 05:30 -> 2026-11-02 06:30 UTC, not 01:30 EST again */
	{"0 1 * * *", "America/New_York", 1793509200000LL, 1793599200000LL}, /* 2026-11-01 05:00 -> 2026-11-02 06:00 UTC, not 01:00 EST again */
	{"*/15 1 * * *", "America/New_York", 1793511900000LL, 1793599200000LL}, /* 2026-11-01 05:45 -> 2026-11-02 06:00 UTC, fixed hour: first pass only */
	{"30 * * * *", "America/New_York", 1793511000000LL, 1793514600000LL}, /* 2026-11-01 05:30 -> 2026-11-01 06:30 UTC, real time: 01:30 EST too */
	{"0 * * * *", "America/New_York", 1793509200000LL, 1793512800000LL}, /* 2026-11-01 05:00 -> 2026-11-01 06:00 UTC, real time: 01:00 EST too */
	/* Berlin: 2026-03-29 01:00 UTC CET -> CEST; 2026-10-25 01:00 UTC CEST -> CET */
	{"30 2 * * *", "Europe/Berlin", 1774699200000LL, 1774746000000LL}, /* 2026-03-28 12:00 -> 2026-03-29 01:00 UTC, gap: 03:00 CEST */
	{"30 2 * * *", "Europe/Berlin", 1774746000000LL, 1774830600000LL}, /* 2026-03-29 01:00 -> 2026-03-30 00:30 UTC, then 02:30 CEST */
	{"0 2,3 * * *", "Europe/Berlin", 1774699200000LL, 1774746000000LL}, /* 2026-03-28 12:00 -> 2026-03-29 01:00 UTC, 02:00 and 03:00 coincide */
	{"0 2,3 * * *", "Europe/Berlin", 1774746000000LL, 1774828800000LL}, /* 2026-03-29 01:00 -> 2026-03-30 00:00 UTC, once */
	{"30 2 * * *", "Europe/Berlin", 1792843200000LL, 1792888200000LL}, /* 2026-10-24 12:00 -> 2026-10-25 00:30 UTC, overlap: 02:30 CEST */
	{"30 2 * * *", "Europe/Berlin", 1792888200000LL, 1792978200000LL}, /* 2026-10-25 00:30 -> 2026-10-26 01:30 UTC, not 02:30 CET again */
	{"0 3 * * *", "Europe/Berlin", 1792843200000LL, 1792893600000LL}, /* 2026-10-24 12:00 -> 2026-10-25 02:00 UTC, 03:00 CET */
	{"*/20 2 * * *", "Europe/Berlin", 1792888800000LL, 1792976400000LL}, /* 2026-10-25 00:40 -> 2026-10-26 01:00 UTC, fixed hour: first pass only */
	{"0 * * * *", "Europe/Berlin", 1792886400000LL, 1792890000000LL}, /* 2026-10-25 00:00 -> 2026-10-25 01:00 UTC, real time: 02:00 CET too */
	{"0 * * * *", "Europe/Berlin", 1792890000000LL, 1792893600000LL}, /* 2026-10-25 01:00 -> 2026-10-25 02:00 UTC, then 03:00 CET */
	{"0 12 * * *", "Europe/Berlin", 2224713600000LL, 2224749600000LL}, /* 2040-07-01 00:00 -> 2040-07-01 10:00 UTC, TZ footer rule, summer */
	{"0 12 * * *", "Europe/Berlin", 2525385600000LL, 2525425200000LL}, /* 2050-01-10 00:00 -> 2050-01-10 11:00 UTC, TZ footer rule, winter */
	{"30 2 * * *", "Europe/Berlin", 2374056000000LL, 2374102800000LL}, /* 2045-03-25 12:00 -> 2045-03-26 01:00 UTC, footer gap */
	{"30 2 * * *", "Europe/Berlin", 2392849800000LL, 2392939800000LL}, /* 2045-10-29 00:30 -> 2045-10-30 01:30 UTC, footer overlap */
	/* Lord Howe, +10:30 / +11: 2026-04-05 02:00 -> 01:30 (15:00 UTC Apr 4);
	 * 2026-10-04 02:00 -> 02:30 (15:30 UTC Oct 3) */
	{"15 2 * * *", "Australia/Lord_Howe", 1791028800000LL, 1791041400000LL}, /* 2026-10-03 12:00 -> 2026-10-03 15:30 UTC, 30-minute gap */
	{"45 1 * * *", "Australia/Lord_Howe", 1775304000000LL, 1775313900000LL}, /* 2026-04-04 12:00 -> 2026-04-04 14:45 UTC, 30-minute overlap: +11 */
	{"45 1 * * *", "Australia/Lord_Howe", 1775313900000LL, 1775402100000LL}, /* 2026-04-04 14:45 -> 2026-04-05 15:15 UTC, next day +10:30 */
	{"*/15 * * * *", "Australia/Lord_Howe", 1775313900000LL, 1775314800000LL}, /* 2026-04-04 14:45 -> 2026-04-04 15:00 UTC, real time: 01:30 again */
	/* Kathmandu, +05:45 */
	{"0 9 * * *", "Asia/Kathmandu", 1767225600000LL, 1767237300000LL}, /* 2026-01-01 00:00 -> 2026-01-01 03:15 UTC, +05:45 */
	{"*/30 * * * *", "Asia/Kathmandu", 1767225600000LL, 1767226500000LL}, /* 2026-01-01 00:00 -> 2026-01-01 00:15 UTC, 06:00 local */
	/* AND rule with a rare day: Feb 29 on a Sunday, Berlin midnight (CET) */
	{"0 0 29 2 */7", "Europe/Berlin", 1767225600000LL, 1961622000000LL}, /* 2026-01-01 00:00 -> 2032-02-28 23:00 UTC */
	{"0 0 29 2 */7", "Europe/Berlin", 1961622000000LL, 2845234800000LL}, /* 2032-02-28 23:00 -> 2060-02-28 23:00 UTC */
	{"0 0 29 2 */7", "Europe/Berlin", 3728847600000LL, 4991065200000LL}, /* 2088-02-28 23:00 -> 2128-02-28 23:00 UTC, 40 years */
};

static int have_zone(const char *tz)
{
	char path[256];

	snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", tz);
	return tz == NULL || !*tz || strcmp(tz, "UTC") == 0 || strcmp(tz, "Etc/UTC") == 0 ||
	       access(path, R_OK) == 0;
}

static void check_next(const struct next_case *c, size_t n)
{
	size_t i;
	int64_t got;
	lq_status st;
	char msg[256];

	for (i = 0; i < n; i++) {
		got = -1;
		st = lq_cron_next(c[i].cron, c[i].tz, c[i].after, &got, NULL, 0);
		if (st != LQ_OK || got != c[i].want) {
			lq_check_schedule(c[i].cron, c[i].tz, msg, sizeof msg);
			print_error("case %zu: \"%s\" in %s after %lld: status %d, got %lld, want %lld (%s)\n", i,
				    c[i].cron, c[i].tz ? c[i].tz : "UTC", (long long)c[i].after, (int)st,
				    (long long)got, (long long)c[i].want, msg);
		}
		assert_int_equal(st, LQ_OK);
		assert_int_equal(got, c[i].want);
		/* Always valid for lq_check_schedule too. */
		assert_int_equal(lq_check_schedule(c[i].cron, c[i].tz, msg, sizeof msg), LQ_OK);
		assert_string_equal(msg, "");
	}
}

static void test_next(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof next_cases / sizeof next_cases[0]; i++)
		if (!have_zone(next_cases[i].tz))
			skip(); /* tzdata missing: apt-get install tzdata */
	check_next(next_cases, sizeof next_cases / sizeof next_cases[0]);
}

/* Walking occurrence to occurrence gives every one exactly once. */
static void test_chain(void **state)
{
	int64_t t = 1768471350000LL, next; /* 2026-01-15 10:02:30 UTC */
	int i;

	(void)state;
	for (i = 1; i <= 100; i++) {
		assert_int_equal(lq_cron_next("*/15 * * * *", NULL, t, &next, NULL, 0), LQ_OK);
		assert_int_equal(next, 1768471200000LL + i * 900000LL); /* 10:00 + i * 15 min */
		t = next;
	}
	/* Every 15 minutes through the New York fall-back night: 5 hours of
	 * UTC (2026-11-01 04:00 to 09:00) are 20 runs, 15 minutes apart. */
	t = 1793505600000LL;
	for (i = 1; i <= 20; i++) {
		assert_int_equal(lq_cron_next("*/15 * * * *", "America/New_York", t, &next, NULL, 0), LQ_OK);
		assert_int_equal(next - t, 900000LL);
		t = next;
	}
	assert_int_equal(t, 1793523600000LL);
	/* Daily at 01:30 in New York, across the spring gap: once a day. */
	assert_int_equal(lq_cron_next("30 1 * * *", "America/New_York", 1772884800000LL, &next, NULL, 0), LQ_OK);
	assert_int_equal(next, 1772951400000LL); /* 2026-03-08 06:30 UTC = 01:30 EST */
	assert_int_equal(lq_cron_next("30 1 * * *", "America/New_York", next, &next, NULL, 0), LQ_OK);
	assert_int_equal(next, 1773034200000LL); /* 2026-03-09 05:30 UTC = 01:30 EDT */
}

struct err_case {
	const char *cron, *tz, *msg;
};

static const struct err_case err_cases[] = {
	{"*/0 * * * *", NULL, "cron expression \"*/0 * * * *\": step 0 in minute field"},
	{"* * *", NULL, "cron expression \"* * *\": expected 5 fields, got 3"},
	{"* * * * * *", NULL, "cron expression \"* * * * * *\": expected 5 fields, got 6"},
	{"* * * * * 2026", NULL, "cron expression \"* * * * * 2026\": expected 5 fields, got 6"},
	{"", NULL, "cron expression \"\": empty expression"},
	{" \t ", NULL, "cron expression \"   \": empty expression"},
	{"60 * * * *", NULL, "cron expression \"60 * * * *\": 60 out of range 0-59 in minute field"},
	{"* 24 * * *", NULL, "cron expression \"* 24 * * *\": 24 out of range 0-23 in hour field"},
	{"* * 0 * *", NULL, "cron expression \"* * 0 * *\": 0 out of range 1-31 in day-of-month field"},
	{"* * 32 * *", NULL, "cron expression \"* * 32 * *\": 32 out of range 1-31 in day-of-month field"},
	{"* * * 13 *", NULL, "cron expression \"* * * 13 *\": 13 out of range 1-12 in month field"},
	{"* * * 0 *", NULL, "cron expression \"* * * 0 *\": 0 out of range 1-12 in month field"},
	{"* * * * 8", NULL, "cron expression \"* * * * 8\": 8 out of range 0-7 in day-of-week field"},
	{"99999999999 * * * *", NULL,
	 "cron expression \"99999999999 * * * *\": 99999999999 out of range 0-59 in minute field"},
	{"1-60 * * * *", NULL, "cron expression \"1-60 * * * *\": 60 out of range 0-59 in minute field"},
	{"5-2 * * * *", NULL, "cron expression \"5-2 * * * *\": reversed range \"5-2\" in minute field"},
	{"* * * * FRI-MON", NULL,
	 "cron expression \"* * * * FRI-MON\": reversed range \"FRI-MON\" in day-of-week field"},
	{"1,,2 * * * *", NULL, "cron expression \"1,,2 * * * *\": empty list item in minute field"},
	{"1, * * * *", NULL, "cron expression \"1, * * * *\": empty list item in minute field"},
	{",1 * * * *", NULL, "cron expression \",1 * * * *\": empty list item in minute field"},
	{"a * * * *", NULL, "cron expression \"a * * * *\": unexpected \"a\" in minute field"},
	{"0 0 L * *", NULL, "cron expression \"0 0 L * *\": unexpected \"L\" in day-of-month field"},
	{"* * * JANUARY *", NULL,
	 "cron expression \"* * * JANUARY *\": unknown name \"JANUARY\" in month field"},
	{"* * * MON *", NULL, "cron expression \"* * * MON *\": unknown name \"MON\" in month field"},
	{"* * * * MON-", NULL, "cron expression \"* * * * MON-\": invalid \"MON-\" in day-of-week field"},
	{"*/x * * * *", NULL, "cron expression \"*/x * * * *\": invalid \"*/x\" in minute field"},
	{"1-5/ * * * *", NULL, "cron expression \"1-5/ * * * *\": invalid \"1-5/\" in minute field"},
	{"*/60 * * * *", NULL, "cron expression \"*/60 * * * *\": step 60 out of range 1-59 in minute field"},
	{"*x * * * *", NULL, "cron expression \"*x * * * *\": invalid \"*x\" in minute field"},
	{"? * * * *", NULL, "cron expression \"? * * * *\": invalid \"?\" in minute field"},
	{"-1 * * * *", NULL, "cron expression \"-1 * * * *\": invalid \"-1\" in minute field"},
	{"0 0 1 1 MON#2", NULL, "cron expression \"0 0 1 1 MON#2\": invalid \"MON#2\" in day-of-week field"},
	{"0 0 * * *\x01", NULL, "cron expression \"0 0 * * *?\": invalid \"*?\" in day-of-week field"},
	{"0 0 30 2 *", NULL, "cron expression \"0 0 30 2 *\": never matches (no month in it has that day)"},
	{"0 0 31 4,6,9,11 *", NULL,
	 "cron expression \"0 0 31 4,6,9,11 *\": never matches (no month in it has that day)"},
	{"0 0 30,31 2 */2", NULL,
	 "cron expression \"0 0 30,31 2 */2\": never matches (no month in it has that day)"},
	{"@reboot", NULL, "cron expression \"@reboot\": unknown macro \"@reboot\""},
	{"@", NULL, "cron expression \"@\": unknown macro \"@\""},
	{"@dailyx", NULL, "cron expression \"@dailyx\": unknown macro \"@dailyx\""},
	{"@daily x", NULL, "cron expression \"@daily x\": unexpected text after \"@daily\""},
	{"0 0 * * *", "Mars/Base", "unknown time zone \"Mars/Base\""},
	{"0 0 * * *", "Europe", "unknown time zone \"Europe\""},
	{"0 0 * * *", "leapseconds", "unknown time zone \"leapseconds\" (not a valid tz database file)"},
	{"0 0 * * *", "right/Europe/Berlin", "time zone \"right/Europe/Berlin\" counts leap seconds: not supported"},
	{"0 0 * * *", "../etc/passwd", "invalid time zone name \"../etc/passwd\""},
	{"0 0 * * *", "/etc/localtime", "invalid time zone name \"/etc/localtime\""},
	{"0 0 * * *", "Europe/", "invalid time zone name \"Europe/\""},
	{"0 0 * * *", "Europe//Berlin", "invalid time zone name \"Europe//Berlin\""},
	{"0 0 * * *", "Europe/Berlin ", "invalid time zone name \"Europe/Berlin \""},
	{"0 0 * * *", "zone.tab", "invalid time zone name \"zone.tab\""},
	{"0 0 * * *", "Europe/Berlin\n", "invalid time zone name \"Europe/Berlin?\""},
	{"0 0 * * *", "A123456789B123456789C123456789D123456789E123456789F123456789G123",
	 "time zone name too long (64 bytes, at most 63)"},
	{NULL, "Mars/Base", "unknown time zone \"Mars/Base\""},
	/* The expression is checked first. */
	{"*/0 * * * *", "Mars/Base", "cron expression \"*/0 * * * *\": step 0 in minute field"},
};

static void test_errors(void **state)
{
	size_t i;
	char msg[256];
	int64_t next;

	(void)state;
	for (i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
		const struct err_case *c = &err_cases[i];

		if ((c->tz && strcmp(c->tz, "leapseconds") == 0 && !have_zone(c->tz)) ||
		    (c->tz && strcmp(c->tz, "right/Europe/Berlin") == 0 && !have_zone(c->tz)))
			continue; /* optional files of the tzdata package */
		memset(msg, 'x', sizeof msg);
		assert_int_equal(lq_check_schedule(c->cron, c->tz, msg, sizeof msg), LQ_EINVAL);
		if (strcmp(msg, c->msg) != 0)
			print_error("case %zu\n", i);
		assert_string_equal(msg, c->msg);
		assert_null(strchr(msg, '\n'));
		next = 42;
		if (c->cron) {
			assert_int_equal(lq_cron_next(c->cron, c->tz, 0, &next, NULL, 0), LQ_EINVAL);
			assert_int_equal(next, 42); /* untouched on failure */
		}
	}
}

static void test_valid(void **state)
{
	static const char *const ok[] = {
		"0-59 0-23 1-31 1-12 0-7", "*/1 * * * *", "59 23 31 12 SAT", "* * * * 7",
		"0 0 * * SUN-SAT", "0 0 * Jan-dec mon-FRI", "*/59 */23 */31 */12 */7",
		"0,15,30,45 0-6,12,18-23/2 1,15 */2 1-5", "30/15 5/6 10/10 3/3 1/2",
		"0 0 29 2 *", "0 0 31 1-12 *", "0 0 30 2 1", "@HOURLY", "\n0 0 * * *\r\n",
		"0\t0\t*\t*\t*",
	};
	char msg[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		if (lq_check_schedule(ok[i], NULL, msg, sizeof msg) != LQ_OK)
			print_error("\"%s\": %s\n", ok[i], msg);
		assert_int_equal(lq_check_schedule(ok[i], NULL, msg, sizeof msg), LQ_OK);
		assert_string_equal(msg, "");
	}
	/* NULL expression: only the zone is checked. */
	assert_int_equal(lq_check_schedule(NULL, NULL, msg, sizeof msg), LQ_OK);
	assert_int_equal(lq_check_schedule(NULL, "", msg, sizeof msg), LQ_OK);
	if (have_zone("Europe/Berlin"))
		assert_int_equal(lq_check_schedule(NULL, "Europe/Berlin", msg, sizeof msg), LQ_OK);
	/* No message buffer is fine. */
	assert_int_equal(lq_check_schedule("0 0 * * *", NULL, NULL, 0), LQ_OK);
	assert_int_equal(lq_check_schedule("bad", NULL, NULL, 0), LQ_EINVAL);
}

static void test_length(void **state)
{
	char cron[LQ_CRON_MAX + 2], msg[128];
	int64_t next;

	(void)state;
	/* Exactly LQ_CRON_MAX bytes, padded with blanks: fine. */
	memset(cron, ' ', LQ_CRON_MAX);
	memcpy(cron, "0 0 * * *", 9);
	cron[LQ_CRON_MAX] = '\0';
	assert_int_equal(lq_check_schedule(cron, NULL, msg, sizeof msg), LQ_OK);
	assert_int_equal(lq_cron_next(cron, NULL, 0, &next, NULL, 0), LQ_OK);
	assert_int_equal(next, 86400000LL);
	/* One more: refused, without echoing the text. */
	cron[LQ_CRON_MAX] = ' ';
	cron[LQ_CRON_MAX + 1] = '\0';
	assert_int_equal(lq_check_schedule(cron, NULL, msg, sizeof msg), LQ_EINVAL);
	assert_string_equal(msg, "cron expression too long (128 bytes, at most 127)");
	assert_int_equal(lq_cron_next(cron, NULL, 0, &next, NULL, 0), LQ_EINVAL);
}

static void test_args(void **state)
{
	char msg[16];
	int64_t next = 7;

	(void)state;
	assert_int_equal(lq_cron_next(NULL, NULL, 0, &next, NULL, 0), LQ_EINVAL);
	assert_int_equal(lq_cron_next("* * * * *", NULL, 0, NULL, NULL, 0), LQ_EINVAL);
	/* Years 1 to 9999 only. */
	assert_int_equal(lq_cron_next("* * * * *", NULL, INT64_MAX, &next, NULL, 0), LQ_EINVAL);
	assert_int_equal(lq_cron_next("* * * * *", NULL, INT64_MIN, &next, NULL, 0), LQ_EINVAL);
	assert_int_equal(next, 7);
	/* 9999-12-31 23:59:59.999 -> 10000-01-01 00:00 UTC. */
	assert_int_equal(lq_cron_next("* * * * *", NULL, 253402300799999LL, &next, NULL, 0), LQ_OK);
	assert_int_equal(next, 253402300800000LL);
	/* 0001-01-01 00:00 -> 00:01 UTC. */
	assert_int_equal(lq_cron_next("* * * * *", NULL, -62135596800000LL, &next, NULL, 0), LQ_OK);
	assert_int_equal(next, -62135596740000LL);
	/* A short buffer truncates and stays terminated. */
	assert_int_equal(lq_check_schedule("* * *", NULL, msg, sizeof msg), LQ_EINVAL);
	assert_string_equal(msg, "cron expression");
	assert_int_equal(lq_check_schedule("* * *", NULL, msg, 1), LQ_EINVAL);
	assert_string_equal(msg, "");
}

/* ------------------------------------------------- zones built by the test */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* A TZif file (RFC 8536): types[] are UTC offsets (abbreviation "ZZZ"),
 * transition i switches to type idx[i] at times[i].  version 0 writes only
 * the 32-bit block; 2 adds the 64-bit block and the footer. */
static void write_tzif(const char *dir, const char *name, int version, const int64_t *times,
		       const unsigned char *idx, int ntimes, const int32_t *types, int ntypes,
		       const char *footer)
{
	unsigned char buf[1024];
	char path[1200];
	size_t n = 0;
	int block, i, tsize;
	FILE *f;

	for (block = 0; block < (version >= 2 ? 2 : 1); block++) {
		tsize = block ? 8 : 4;
		memset(buf + n, 0, 44);
		memcpy(buf + n, "TZif", 4);
		buf[n + 4] = version ? (unsigned char)('0' + version) : 0;
		put32(buf + n + 32, (uint32_t)ntimes);
		put32(buf + n + 36, (uint32_t)ntypes);
		put32(buf + n + 40, 4);
		n += 44;
		for (i = 0; i < ntimes; i++, n += (size_t)tsize) {
			if (tsize == 8) {
				put32(buf + n, (uint32_t)((uint64_t)times[i] >> 32));
				put32(buf + n + 4, (uint32_t)times[i]);
			} else {
				put32(buf + n, (uint32_t)times[i]);
			}
		}
		for (i = 0; i < ntimes; i++)
			buf[n++] = idx[i];
		for (i = 0; i < ntypes; i++, n += 6) {
			put32(buf + n, (uint32_t)types[i]);
			buf[n + 4] = i > 0; /* isdst */
			buf[n + 5] = 0;
		}
		memcpy(buf + n, "ZZZ", 4);
		n += 4;
	}
	if (version >= 2)
		n += (size_t)snprintf((char *)buf + n, sizeof buf - n, "\n%s\n", footer);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void write_raw(const char *dir, const char *name, const void *data, size_t len)
{
	char path[1200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static const struct next_case fixture_cases[] = {
	/* Test/Jump{1,2}: +00, +02 from 2026-06-01 00:00 UTC, +00 again from 2026-09-01 00:00 UTC */
	{"0 12 * * *", "Test/Jump", 1767225600000LL, 1767268800000LL}, /* 2026-01-01 00:00 -> 2026-01-01 12:00 UTC, before the first transition: type 0 */
	{"30 1 * * *", "Test/Jump", 1780228800000LL, 1780272000000LL}, /* 2026-05-31 12:00 -> 2026-06-01 00:00 UTC, 2-hour gap: at its end */
	{"30 1 * * *", "Test/Jump", 1780272000000LL, 1780356600000LL}, /* 2026-06-01 00:00 -> 2026-06-01 23:30 UTC, then 01:30 +02 */
	{"30 1 * * *", "Test/Jump", 1788177600000LL, 1788219000000LL}, /* 2026-08-31 12:00 -> 2026-08-31 23:30 UTC, overlap: 01:30 +02 */
	{"30 1 * * *", "Test/Jump", 1788219000000LL, 1788312600000LL}, /* 2026-08-31 23:30 -> 2026-09-02 01:30 UTC, not 01:30 +00 again */
	{"30 * * * *", "Test/Jump", 1788219000000LL, 1788222600000LL}, /* 2026-08-31 23:30 -> 2026-09-01 00:30 UTC, real time: 00:30 +00 */
	{"0 12 * * *", "Test/Jump", 1798761600000LL, 1798804800000LL}, /* 2027-01-01 00:00 -> 2027-01-01 12:00 UTC, after the last transition, no footer */
	/* Footer "EST5EDT": no rule given, so the US one */
	{"30 2 * * *", "Test/EST5EDT", 1772884800000LL, 1772953200000LL}, /* 2026-03-07 12:00 -> 2026-03-08 07:00 UTC, gap */
	{"0 12 * * *", "Test/EST5EDT", 1782864000000LL, 1782921600000LL}, /* 2026-07-01 00:00 -> 2026-07-01 16:00 UTC, EDT */
	{"0 12 * * *", "Test/EST5EDT", 1796083200000LL, 1796144400000LL}, /* 2026-12-01 00:00 -> 2026-12-01 17:00 UTC, EST */
	/* Footer "EST5EDT,0/0,J365/25": DST all year (RFC 8536 3.3.1) */
	{"0 12 * * *", "Test/AllYearDST", 1768435200000LL, 1768492800000LL}, /* 2026-01-15 00:00 -> 2026-01-15 16:00 UTC */
	{"0 12 * * *", "Test/AllYearDST", 1782864000000LL, 1782921600000LL}, /* 2026-07-01 00:00 -> 2026-07-01 16:00 UTC */
	{"0 0 1 1 *", "Test/AllYearDST", 1780272000000LL, 1798776000000LL}, /* 2026-06-01 00:00 -> 2027-01-01 04:00 UTC, across the year end */
	/* Footer "<-03>3<-02>,M10.1.0/0,M2.3.0/0": southern, changes at midnight */
	{"0 0 * * *", "Test/South", 1791028800000LL, 1791082800000LL}, /* 2026-10-03 12:00 -> 2026-10-04 03:00 UTC, midnight gap: at its end (01:00 -02) */
	{"30 23 * * *", "Test/South", 1803124800000LL, 1803173400000LL}, /* 2027-02-20 12:00 -> 2027-02-21 01:30 UTC, overlap: 23:30 -02 */
	{"30 23 * * *", "Test/South", 1803173400000LL, 1803263400000LL}, /* 2027-02-21 01:30 -> 2027-02-22 02:30 UTC, not 23:30 -03 again */
	/* Footer "<+0545>-5:45" and no transitions */
	{"0 9 * * *", "Test/Fixed0545", 1767225600000LL, 1767237300000LL}, /* 2026-01-01 00:00 -> 2026-01-01 03:15 UTC */
};

static void test_tzdir(void **state)
{
	static const int64_t jump_times[] = {1780272000LL, 1788220800LL}; /* 2026-06-01, 2026-09-01 */
	static const unsigned char jump_idx[] = {1, 0};
	static const int32_t jump_types[] = {0, 7200};
	static const int32_t est[] = {-18000}, ny_dst[] = {-18000, -14400}, south[] = {-10800},
			     npt[] = {20700};
	char tmpl[] = "/tmp/test_schedule.XXXXXX", sub[600], msg[256], *old, saved[512] = "";
	const char *dir;
	unsigned char trunc[40];
	size_t i;
	int had_old;

	(void)state;
	dir = mkdtemp(tmpl);
	assert_non_null(dir);
	snprintf(sub, sizeof sub, "%s/Test", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_tzif(sub, "Jump", 0, jump_times, jump_idx, 2, jump_types, 2, NULL);
	write_tzif(sub, "Jump2", 2, jump_times, jump_idx, 2, jump_types, 2, "");
	write_tzif(sub, "EST5EDT", 2, NULL, NULL, 0, est, 1, "EST5EDT");
	write_tzif(sub, "AllYearDST", 2, NULL, NULL, 0, ny_dst, 2, "EST5EDT,0/0,J365/25");
	write_tzif(sub, "South", 2, NULL, NULL, 0, south, 1, "<-03>3<-02>,M10.1.0/0,M2.3.0/0");
	write_tzif(sub, "Fixed0545", 2, NULL, NULL, 0, npt, 1, "<+0545>-5:45");
	write_tzif(sub, "BadFooter", 2, NULL, NULL, 0, est, 1, "EST5EDT,M13.1.0,M11.1.0");
	write_raw(sub, "Text", "This is not a TZif file, but it is long enough to be one.", 57);
	write_tzif(sub, "Trunc", 2, NULL, NULL, 0, est, 1, "EST5");
	{
		char path[700];
		FILE *f;

		snprintf(path, sizeof path, "%s/Trunc", sub);
		f = fopen(path, "rb");
		assert_non_null(f);
		assert_int_equal(fread(trunc, 1, sizeof trunc, f), sizeof trunc);
		fclose(f);
		write_raw(sub, "Trunc", trunc, sizeof trunc); /* a header cut short */
	}

	old = getenv("TZDIR");
	had_old = old != NULL;
	if (had_old)
		snprintf(saved, sizeof saved, "%s", old);
	assert_int_equal(setenv("TZDIR", dir, 1), 0);

	check_next(fixture_cases, sizeof fixture_cases / sizeof fixture_cases[0]);
	/* The v2 copy of Jump (64-bit times, empty footer) agrees with v1. */
	for (i = 0; i < 7; i++) {
		struct next_case c = fixture_cases[i];

		c.tz = "Test/Jump2";
		check_next(&c, 1);
	}
	assert_int_equal(lq_check_schedule(NULL, "Test/BadFooter", msg, sizeof msg), LQ_EINVAL);
	assert_string_equal(msg, "unknown time zone \"Test/BadFooter\" (not a valid tz database file)");
	assert_int_equal(lq_check_schedule(NULL, "Test/Text", msg, sizeof msg), LQ_EINVAL);
	assert_string_equal(msg, "unknown time zone \"Test/Text\" (not a valid tz database file)");
	assert_int_equal(lq_check_schedule(NULL, "Test/Trunc", msg, sizeof msg), LQ_EINVAL);
	assert_string_equal(msg, "unknown time zone \"Test/Trunc\"");
	/* The system zones are not there any more. */
	assert_int_equal(lq_check_schedule(NULL, "Europe/Berlin", msg, sizeof msg), LQ_EINVAL);
	/* UTC needs no file. */
	assert_int_equal(lq_check_schedule(NULL, "UTC", msg, sizeof msg), LQ_OK);

	if (had_old)
		setenv("TZDIR", saved, 1);
	else
		unsetenv("TZDIR");
	for (i = 0; i < 9; i++) {
		static const char *const names[] = {"Jump", "Jump2", "EST5EDT", "AllYearDST", "South",
						    "Fixed0545", "BadFooter", "Text", "Trunc"};
		char path[700];

		snprintf(path, sizeof path, "%s/%s", sub, names[i]);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* ------------------------------------------- UTC against a brute force */

struct pool {
	const char *text;
	int vals[64]; /* -1 ends; {-2}: every value */
};

static const struct pool minutes[] = {
	{"*", {-2}}, {"*/7", {0, 7, 14, 21, 28, 35, 42, 49, 56, -1}}, {"0", {0, -1}}, {"5,35", {5, 35, -1}},
	{"10-20", {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, -1}}, {"45-59/4", {45, 49, 53, 57, -1}},
	{"30/10", {30, 40, 50, -1}},
};
static const struct pool hours[] = {
	{"*", {-2}}, {"*/5", {0, 5, 10, 15, 20, -1}}, {"3", {3, -1}}, {"0-6", {0, 1, 2, 3, 4, 5, 6, -1}},
	{"22,23", {22, 23, -1}}, {"9-17/2", {9, 11, 13, 15, 17, -1}},
};
static const struct pool doms[] = {
	{"*", {-2}}, {"1", {1, -1}}, {"*/10", {1, 11, 21, 31, -1}},
	{"15-20", {15, 16, 17, 18, 19, 20, -1}}, {"31", {31, -1}}, {"1,29,30", {1, 29, 30, -1}},
};
static const struct pool months[] = {
	{"*", {-2}}, {"2", {2, -1}}, {"*/4", {1, 5, 9, -1}}, {"JAN-MAR", {1, 2, 3, -1}}, {"nov,dec", {11, 12, -1}},
};
static const struct pool dows[] = {
	{"*", {-2}}, {"1", {1, -1}}, {"0", {0, -1}}, {"MON-FRI", {1, 2, 3, 4, 5, -1}},
	{"SAT,7", {6, 0, -1}}, {"*/3", {0, 3, 6, -1}},
};

static int in_pool(const struct pool *p, int v)
{
	int i;

	if (p->vals[0] == -2)
		return 1;
	for (i = 0; p->vals[i] >= 0; i++)
		if (p->vals[i] == v)
			return 1;
	return 0;
}

static uint32_t lcg(uint32_t *s)
{
	*s = (uint32_t)(((uint64_t)*s * 1103515245u + 12345u) & 0xffffffffu);
	return *s >> 16;
}

static void test_utc_bruteforce(void **state)
{
	uint32_t seed = 12345;
	int n, skipped = 0;

	(void)state;
	for (n = 0; n < 400; n++) {
		const struct pool *p[5];
		char cron[128], msg[256];
		int64_t after, got = 0, want = -1, t, day;
		int and_rule;
		lq_status st;

		p[0] = &minutes[lcg(&seed) % (sizeof minutes / sizeof minutes[0])];
		p[1] = &hours[lcg(&seed) % (sizeof hours / sizeof hours[0])];
		p[2] = &doms[lcg(&seed) % (sizeof doms / sizeof doms[0])];
		p[3] = &months[lcg(&seed) % (sizeof months / sizeof months[0])];
		p[4] = &dows[lcg(&seed) % (sizeof dows / sizeof dows[0])];
		snprintf(cron, sizeof cron, "%s %s %s %s %s", p[0]->text, p[1]->text, p[2]->text, p[3]->text,
			 p[4]->text);
		and_rule = p[2]->text[0] == '*' || p[4]->text[0] == '*';
		/* 2020..2030, any millisecond. */
		after = 1577836800000LL + (int64_t)(lcg(&seed) % 3653) * 86400000LL +
			(int64_t)(lcg(&seed) % 86400) * 1000 + lcg(&seed) % 1000;
		/* Day by day, then minute by minute, for up to 3 years. */
		t = (after / 60000 + 1) * 60; /* first whole minute strictly after, seconds */
		for (day = 0; day < 3 * 366 && want < 0; day++) {
			time_t secs = (time_t)(t / 86400 * 86400 + day * 86400);
			struct tm tm;
			int dom_ok, dow_ok, m;

			gmtime_r(&secs, &tm);
			dom_ok = in_pool(p[2], tm.tm_mday);
			dow_ok = in_pool(p[4], tm.tm_wday) || (tm.tm_wday == 0 && in_pool(p[4], 7));
			if (!in_pool(p[3], tm.tm_mon + 1) || !(and_rule ? dom_ok && dow_ok : dom_ok || dow_ok))
				continue;
			for (m = 0; m < 1440; m++) {
				int64_t s = (int64_t)secs + m * 60;

				if (s >= t && in_pool(p[1], m / 60) && in_pool(p[0], m % 60)) {
					want = s * 1000;
					break;
				}
			}
		}
		st = lq_cron_next(cron, NULL, after, &got, NULL, 0);
		if (want < 0 && st == LQ_OK) {
			assert_true(got > t * 1000 + 3 * 365 * 86400000LL); /* beyond the horizon */
			continue;
		}
		if (want < 0) {
			/* Only "31" in February can never match here. */
			assert_int_equal(st, LQ_EINVAL);
			assert_int_equal(lq_check_schedule(cron, NULL, msg, sizeof msg), LQ_EINVAL);
			assert_non_null(strstr(msg, "never matches"));
			skipped++;
			continue;
		}
		if (st != LQ_OK || got != want)
			print_error("\"%s\" after %lld: status %d got %lld want %lld\n", cron, (long long)after,
				    (int)st, (long long)got, (long long)want);
		assert_int_equal(st, LQ_OK);
		assert_int_equal(got, want);
	}
	assert_true(skipped < 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_length),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_tzdir),
		cmocka_unit_test(test_utc_bruteforce),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
