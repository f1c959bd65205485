/*
 * leasectl_env.c - what a child process inherits: an environment without
 * database secrets, and no descriptor it should not hold.
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

extern char **environ;

/* Database secrets a child must not inherit. */
static const char *const secret_vars[] = {"LEASEQ_DSN", "PGPASSWORD", "MYSQL_PWD", NULL};

static int env_name_is(const char *entry, const char *name)
{
	size_t n = strcspn(name, "=");

	return !strncmp(entry, name, n) && entry[n] == '=';
}


static int contains(const char *hay, const char *needle, size_t n)
{
	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return 1;
	return 0;
}

/* A variable that holds the DSN in use or its password (under whatever
 * name: DATABASE_URL, a test's DSN variable, ...) is a database secret too.
 * A short password is only matched in its ":PASS@" form, so that it does
 * not take PATH or HOME away by accident. */
static int holds_secret(const char *entry, const char *dsn)
{
	const char *value = strchr(entry, '='), *pw;
	size_t n = 0;
	char form[512];

	if (!value++ || !dsn || !*dsn)
		return 0;
	if (strstr(value, dsn))
		return 1;
	if (!(pw = lc_dsn_password(dsn, &n)))
		return 0;
	if (n >= 8 && contains(value, pw, n))
		return 1;
	if (n + 3 > sizeof(form))
		return 0;
	form[0] = ':';
	memcpy(form + 1, pw, n);
	form[n + 1] = '@';
	return contains(value, form, n + 2);
}

char **lc_child_env(const struct lc_ctx *ctx, const char *const *set, size_t nset)
{
	const char *dsn = lc_dsn(ctx);
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + nset + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int drop = holds_secret(environ[i], dsn);
		for (size_t s = 0; secret_vars[s] && !drop; s++)
			drop = env_name_is(environ[i], secret_vars[s]);
		for (size_t s = 0; s < nset && !drop; s++)
			drop = env_name_is(environ[i], set[s]);
		if (!drop)
			env[k++] = environ[i];
	}
	for (size_t s = 0; s < nset; s++)
		env[k++] = (char *)set[s];
	env[k] = NULL;
	return env;
}

void lc_env_free(char **env)
{
	free(env); /* the strings belong to environ and the caller */
}

/* The open fds, sorted; the directory's own fd excluded. */
static int *list_fds(size_t *count)
{
	size_t n = 0, cap = 16;
	int *fds = malloc(cap * sizeof(*fds));
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	*count = 0;
	if (!fds) {
		if (d)
			closedir(d);
		return NULL;
	}
	if (!d) {
		for (int fd = 0; fd < 1024; fd++) {
			if (fcntl(fd, F_GETFD) < 0)
				continue;
			if (n == cap) {
				int *p = realloc(fds, (cap *= 2) * sizeof(*fds));
				if (!p)
					break;
				fds = p;
			}
			fds[n++] = fd;
		}
		*count = n;
		return fds;
	}
	while ((e = readdir(d))) {
		int fd;
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		if (n == cap) {
			int *p = realloc(fds, (cap *= 2) * sizeof(*fds));
			if (!p)
				break;
			fds = p;
		}
		fds[n++] = fd;
	}
	closedir(d);
	*count = n;
	return fds;
}

void lc_snapshot_fds(struct lc_ctx *ctx)
{
	ctx->inherited = list_fds(&ctx->ninherited);
}

void lc_cloexec_new_fds(const struct lc_ctx *ctx)
{
	size_t n;
	int *fds = list_fds(&n);

	for (size_t i = 0; fds && i < n; i++) {
		int fd = fds[i], inherited = fd <= 2;
		for (size_t k = 0; k < ctx->ninherited && !inherited; k++)
			inherited = ctx->inherited[k] == fd;
		if (!inherited) {
			int fl = fcntl(fd, F_GETFD);
			if (fl >= 0 && !(fl & FD_CLOEXEC))
				fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
		}
	}
	free(fds);
}
