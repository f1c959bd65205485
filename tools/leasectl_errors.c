/*
 * leasectl_errors.c - error lines and exit statuses: one line on standard error
 * naming the object and the reason, and the contract's status for it.
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

/* ------------------------------------------------------------ errors */

/* One line: a database's multi-line error text must not break the
 * "leasectl: <reason>" contract. */
static void vprint_error(const char *prefix, const char *fmt, va_list ap)
{
	char buf[2048];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	if (lc_log_is_json()) {
		char msg[2200];
		snprintf(msg, sizeof(msg), "%s%s", prefix, buf);
		lc_log_event("error", "error", &(struct lc_log_fields){.message = msg});
		return;
	}
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", LC_PROG, prefix, buf);
}

void lc_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_error("", fmt, ap);
	va_end(ap);
}

int lc_usage_error(const struct lc_ctx *ctx, const char *fmt, ...)
{
	char prefix[128] = "";
	va_list ap;

	if (ctx && ctx->cmd)
		snprintf(prefix, sizeof(prefix), "%s: ", ctx->cmd);
	va_start(ap, fmt);
	vprint_error(prefix, fmt, ap);
	va_end(ap);
	return LC_EXIT_USAGE;
}

int lc_exit_status(lq_status st)
{
	switch (st) {
	case LQ_OK:
		return LC_EXIT_OK;
	case LQ_BUSY:
		return LC_EXIT_HELD;
	case LQ_LOST:
		return LC_EXIT_LOST;
	case LQ_EINVAL:
		return LC_EXIT_USAGE;
	case LQ_ECONN:
		return LC_EXIT_CONN;
	case LQ_ENODB:
		return LC_EXIT_NOINPUT;
	case LQ_ENOTDB:
		return LC_EXIT_DATAERR;
	case LQ_ECREATE:
		return LC_EXIT_CANTCREAT;
	case LQ_EPERM:
		return LC_EXIT_NOPERM;
	default: /* NOTFOUND, ESCHEMA, EUNKNOWN, ENOMEM, ERROR, ... */
		return LC_EXIT_FAIL;
	}
}

int lc_db_error(lq_db *db, lq_status st)
{
	const char *msg = db ? lq_errmsg(db) : NULL;

	if (!msg || !*msg)
		msg = lq_status_str(st);
	lc_errorf("%s%s", msg, st == LQ_ENODB ? LC_NODB_HINT : "");
	return lc_exit_status(st);
}

int lc_finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		lc_errorf("cannot write to standard output: %s", strerror(errno));
		return status ? status : LC_EXIT_FAIL;
	}
	return status;
}


/* A shared lease that is busy: the library's sentence says why (all slots
 * held, a writer holds it, a writer waits, other readers). */
int lc_shared_held_error(lq_db *db, int code)
{
	const char *msg = lq_errmsg(db);
	char m[1200];

	lc_log_outcome("lease_held", NULL, "%s", msg && *msg ? lc_pr(m, sizeof(m), msg) : "the lease is held elsewhere");
	return code;
}

int lc_held_error(const char *name, const lq_lease *l, int code)
{
	char n[600], o[600], until[40];

	const struct lc_log_fields f = {.lease = name, .token = l->token};

	lc_pr(n, sizeof(n), name);
	if (!l->owner[0]) {
		lc_log_outcome("lease_held", &f, "lease \"%s\" is held elsewhere", n);
		return code;
	}
	lc_fmt_time(until, sizeof(until), l->expires_at);
	lc_log_outcome("lease_held", &f, "lease \"%s\" is held by %s until %s (token %lld)", n,
		       l->kind == LQ_LEASE_READ ? "readers" : lc_pr(o, sizeof(o), l->owner), until,
		       (long long)l->token);
	return code;
}
