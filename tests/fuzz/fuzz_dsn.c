/*
 * fuzz_dsn.c - the URL-style DSN parser (mysql://, mariadb://), its query
 * string look-up and the redaction used in every message.  Properties: the
 * outputs are NUL-terminated, and a password that occurs once in the DSN
 * never survives redaction, neither the user-info one nor any password=
 * query option (libpq takes the last of several), not even cut short.
 */
#include "backend/backend.h"
#include "fuzz_common.h"

/* s occurs exactly once in dsn. */
static int once(const char *dsn, const char *s)
{
	const char *first = strstr(dsn, s);
	return first && !strstr(first + 1, s);
}

/* Every password= option of the query.  Checked where decidable without a
 * second parser: the value is alphanumeric (so the "***" put in its place
 * cannot join into it) and what is looked for occurs once in the DSN (so the
 * option is its source).  red may be cut short: no 4-byte prefix then. */
static void check_query_passwords(const char *dsn, const char *query, const char *red)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char pw[512];

	for (const char *p = query; *p;) {
		size_t n = strcspn(p, "&");
		if (n >= 9 + 4 && strncmp(p, "password=", 9) == 0 && strspn(p + 9, alnum) == n - 9) {
			memcpy(pw, p + 9, n - 9);
			pw[n - 9] = '\0';
			if (once(dsn, pw))
				LQF_ASSERT(!strstr(red, pw), "password option \"%s\" survives in \"%s\"", pw, red);
			pw[4] = '\0';
			if (once(dsn, pw))
				LQF_ASSERT(!strstr(red, pw), "password option starting \"%s\" shows in \"%s\"", pw, red);
		}
		p += n;
		if (*p)
			p++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dsn = lqf_cstr(data, size);
	lq_dsn_url url;
	lq_err err;
	char red[512], small[24], val[256];

	memset(&err, 0, sizeof(err));
	lq_dsn_redact(dsn, red, sizeof(red));
	LQF_ASSERT(memchr(red, '\0', sizeof(red)) != NULL, "redacted DSN not terminated");
	/* A buffer too small for it: cut short, still a string. */
	lq_dsn_redact(dsn, small, sizeof(small));
	LQF_ASSERT(memchr(small, '\0', sizeof(small)) != NULL, "short redacted DSN not terminated");
	if (lq__dsn_parse_url(dsn, &url, &err) == LQ_OK) {
		LQF_ASSERT(memchr(url.host, '\0', sizeof(url.host)) && memchr(url.user, '\0', sizeof(url.user)) &&
				   memchr(url.dbname, '\0', sizeof(url.dbname)) &&
				   memchr(url.query, '\0', sizeof(url.query)),
			   "parsed fields not terminated");
		size_t plen = strlen(url.password);
		/* Only a password written as is (no percent-encoding anywhere)
		 * that appears exactly once can be told apart from the rest of
		 * the DSN: that one occurrence is the password field.  And only
		 * one without '*': ":***" is hidden in "u::***@h" yet shows in
		 * its redaction "u:***@h", made of the mask and the text by it. */
		const char *first = plen >= 4 && !strchr(dsn, '%') && !strchr(url.password, '*')
					    ? strstr(dsn, url.password)
					    : NULL;
		if (first && !strstr(first + 1, url.password))
			LQF_ASSERT(!strstr(red, url.password), "password \"%s\" survives in \"%s\"", url.password, red);
		check_query_passwords(dsn, url.query, red);
		check_query_passwords(dsn, url.query, small);
		(void)lq__dsn_query_get(url.query, "socket", val, sizeof(val));
		(void)lq__dsn_query_get(url.query, "synchronous", val, sizeof(val));
	} else {
		LQF_ASSERT(memchr(err.msg, '\0', sizeof(err.msg)) != NULL, "error text not terminated");
	}
	/* The query look-up also takes any text. */
	if (lq__dsn_query_get(dsn, "a", val, sizeof(val)))
		LQF_ASSERT(memchr(val, '\0', sizeof(val)) != NULL, "value not terminated");
	free(dsn);
	return 0;
}
