/*
 * leasectl_dsn.c - the DSN leasectl uses, opening it, and its redacted form
 * (never a password on screen).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "leasectl.h"

const char *lc_dsn(const struct lc_ctx *ctx)
{
	const char *env;

	if (ctx->dsn)
		return ctx->dsn;
	env = getenv("LEASEQ_DSN");
	return env && *env ? env : LC_DEFAULT_DSN;
}

int lc_open_dsn(const char *dsn, unsigned flags, lq_db **db)
{
	lq_status st = lq_open_ex(dsn, flags, db);
	int rc;

	if (st == LQ_OK)
		return LC_EXIT_OK;
	rc = lc_db_error(*db, st);
	lq_close(*db);
	*db = NULL;
	return rc;
}

int lc_open(struct lc_ctx *ctx, lq_db **db)
{
	return lc_open_dsn(lc_dsn(ctx), 0, db);
}

int lc_open_read(struct lc_ctx *ctx, lq_db **db)
{
	return lc_open_dsn(lc_dsn(ctx), LQ_OPEN_READONLY, db);
}

static void append(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + 1 >= size)
		return;
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

static int is_secret_param(const char *k, size_t n)
{
	static const char *const names[] = {"password", "pass", "passwd", "pwd", "sslpassword", NULL};

	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncasecmp(k, names[i], n))
			return 1;
	return 0;
}

void lc_redact_dsn(const char *dsn, char *buf, size_t size)
{
	const char *p = dsn, *auth, *end, *at = NULL, *colon = NULL, *q;
	size_t len = 0;

	if (!size)
		return;
	buf[0] = '\0';
	auth = strstr(dsn, "://");
	if (auth) {
		auth += 3;
		end = auth + strcspn(auth, "/?#");
		for (q = auth; q < end; q++)
			if (*q == '@')
				at = q;
		if (at)
			colon = memchr(auth, ':', (size_t)(at - auth));
		if (colon) {
			append(buf, size, &len, dsn, (size_t)(colon + 1 - dsn));
			append(buf, size, &len, "***", 3);
			p = at;
		}
	}
	q = strchr(p, '?');
	if (!q) {
		append(buf, size, &len, p, strlen(p));
		return;
	}
	append(buf, size, &len, p, (size_t)(q + 1 - p));
	for (p = q + 1; *p;) {
		size_t plen = strcspn(p, "&"), klen = strcspn(p, "=&");
		if (klen < plen && is_secret_param(p, klen)) {
			append(buf, size, &len, p, klen + 1);
			append(buf, size, &len, "***", 3);
		} else {
			append(buf, size, &len, p, plen);
		}
		p += plen;
		if (*p == '&')
			append(buf, size, &len, p++, 1);
	}
}

/* The password of a DSN (user:PASS@ or ?password=PASS), or NULL. */
const char *lc_dsn_password(const char *dsn, size_t *len)
{
	const char *auth = strstr(dsn, "://"), *end, *at = NULL, *colon, *q;

	if (!auth)
		return NULL;
	auth += 3;
	end = auth + strcspn(auth, "/?#");
	for (q = auth; q < end; q++)
		if (*q == '@')
			at = q;
	if (at && (colon = memchr(auth, ':', (size_t)(at - auth))) && at > colon + 1) {
		*len = (size_t)(at - colon - 1);
		return colon + 1;
	}
	for (q = strchr(end, '?'); q && *q; q += strcspn(q, "&"), q += *q == '&') {
		size_t klen;
		q += *q == '?';
		klen = strcspn(q, "=&");
		if (q[klen] == '=' && is_secret_param(q, klen) && (*len = strcspn(q + klen + 1, "&#")) > 0)
			return q + klen + 1;
	}
	return NULL;
}
