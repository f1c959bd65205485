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

static int is_secret_param(const char *k, size_t n)
{
	static const char *const names[] = {"password", "pass", "passwd", "pwd", "sslpassword", NULL};

	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncasecmp(k, names[i], n))
			return 1;
	return 0;
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
