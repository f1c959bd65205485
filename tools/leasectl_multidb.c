/*
 * leasectl_multidb.c - several --db: one child process per database, each
 * with its own connection, runner lease and claims, so that a database that
 * is down or slow holds up none of the others.  No coordinator: the
 * databases know nothing of each other.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "leasectl.h"

#define BACKOFF_FIRST_MS 1000
#define BACKOFF_MAX_MS 30000

int lc_multi_db_ok(const char *path)
{
	static const char *const ok[] = {"worker", "tick", "task list", "queue list", "lease list", "stats", NULL};
	for (int i = 0; ok[i]; i++)
		if (!strcmp(path, ok[i]))
			return 1;
	return 0;
}

static volatile sig_atomic_t g_stop;

static void on_stop(int sig)
{
	g_stop = sig;
}

/* The runner's own handlers replace these while it runs: catch again. */
static void catch_stop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

static void sleep_ms(int64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (!g_stop && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* One database, in its own process: fn, again after a back-off while the
 * database is unreachable. */
static int serve_one(struct lc_ctx *ctx, int max_tries, int (*fn)(struct lc_ctx *ctx, void *arg), void *arg)
{
	int64_t wait = BACKOFF_FIRST_MS;
	int rc = LC_EXIT_FAIL;

	for (int tries = 1;; tries++) {
		rc = fn(ctx, arg);
		if (rc != LC_EXIT_CONN || g_stop || (max_tries > 0 && tries >= max_tries))
			return rc;
		/* Jitter, so that many workers do not knock at once. */
		int64_t ms = wait / 2 + (int64_t)(rand() % (int)(wait / 2 + 1));
		lc_errorf("%s: database %s unreachable; trying again in %lld ms", ctx->cmd, ctx->db_label,
			  (long long)ms);
		catch_stop();
		sleep_ms(ms);
		if (g_stop)
			return rc;
		wait = wait * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : wait * 2;
	}
}

int lc_run_per_db(struct lc_ctx *ctx, int max_tries, int (*fn)(struct lc_ctx *ctx, void *arg), void *arg)
{
	pid_t pids[LC_MAX_DBS];
	int codes[LC_MAX_DBS];
	size_t n = 0;
	pid_t parent = getpid();
	struct sigaction sa, old_term, old_int;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);
	fflush(NULL);
	for (; n < ctx->ndsn; n++) {
		pid_t pid = fork();
		if (pid == 0) {
			if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
				_exit(LC_EXIT_FAIL);
			srand((unsigned)getpid() ^ (unsigned)time(NULL));
			ctx->dsn = ctx->dsns[n];
			ctx->dsns[0] = ctx->dsn;
			ctx->ndsn = 1;
			lq_dsn_redact(ctx->dsn, ctx->db_label, sizeof(ctx->db_label));
			int rc = serve_one(ctx, max_tries, fn, arg);
			fflush(NULL);
			_exit(rc);
		}
		if (pid < 0) {
			lc_errorf("%s: cannot fork: %s", ctx->cmd, strerror(errno));
			break;
		}
		pids[n] = pid;
		codes[n] = -1;
	}
	int forwarded = 0, rc = n < ctx->ndsn ? LC_EXIT_FAIL : LC_EXIT_OK;
	if (rc)
		g_stop = SIGTERM;
	for (size_t left = n; left > 0;) {
		int ws;
		if (g_stop && !forwarded) {
			for (size_t i = 0; i < n; i++)
				if (codes[i] < 0)
					kill(pids[i], SIGTERM);
			forwarded = 1;
		}
		pid_t pid = waitpid(-1, &ws, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			if (pids[i] != pid || codes[i] >= 0)
				continue;
			codes[i] = lc_wait_exit(ws);
			left--;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (codes[i] == LC_EXIT_OK)
			continue;
		if (rc == LC_EXIT_OK || (rc == LC_EXIT_HELD && codes[i] != LC_EXIT_HELD))
			rc = codes[i] < 0 ? LC_EXIT_FAIL : codes[i];
	}
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	return rc;
}

int lc_each_db(struct lc_ctx *ctx, int (*fn)(lq_db *db, const char *label, void *arg), void *arg)
{
	const char *one[1] = {lc_dsn(ctx)};
	const char *const *dsns = ctx->ndsn > 1 ? ctx->dsns : one;
	size_t n = ctx->ndsn > 1 ? ctx->ndsn : 1;
	int rc = LC_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		char label[256];
		lq_db *db = NULL;
		/* Its callers only list: read-only, never creating a database. */
		int r = lc_open_dsn(dsns[i], LQ_OPEN_READONLY, &db);

		lq_dsn_redact(dsns[i], label, sizeof(label));
		if (!r) {
			r = fn(db, n > 1 ? label : NULL, arg);
			/* The library's message may not say which database. */
			if (r && n > 1)
				lc_errorf("%s: (the error above is from %s)", ctx->cmd, label);
		}
		lq_close(db);
		if (r && !rc)
			rc = r;
		if (r && n == 1)
			break;
	}
	return rc;
}
