/*
 * fuzz_dsn.c - the URL-style DSN parser (mysql://, mariadb://), its query
 * string look-up and the redaction used in every message.  Properties: the
 * outputs are NUL-terminated, and a password that occurs once in the DSN
 * never survives redaction.
 */
#include "backend.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dsn = lqf_cstr(data, size);
	lq_dsn_url url;
	lq_err err;
	char red[512], val[256];

	memset(&err, 0, sizeof(err));
	lq__dsn_redact(dsn, red, sizeof(red));
	LQF_ASSERT(memchr(red, '\0', sizeof(red)) != NULL, "redacted DSN not terminated");
	if (lq__dsn_parse_url(dsn, &url, &err) == LQ_OK) {
		LQF_ASSERT(memchr(url.host, '\0', sizeof(url.host)) && memchr(url.user, '\0', sizeof(url.user)) &&
				   memchr(url.dbname, '\0', sizeof(url.dbname)) &&
				   memchr(url.query, '\0', sizeof(url.query)),
			   "parsed fields not terminated");
		size_t plen = strlen(url.password);
		/* Only a password written as is (no percent-encoding anywhere)
		 * that appears exactly once can be told apart from the rest of
		 * the DSN: that one occurrence is the password field. */
		const char *first = plen >= 4 && !strchr(dsn, '%') ? strstr(dsn, url.password) : NULL;
		if (first && !strstr(first + 1, url.password))
			LQF_ASSERT(!strstr(red, url.password), "password \"%s\" survives in \"%s\"", url.password, red);
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
