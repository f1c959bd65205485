/*
 * leasectl_tick.c - "leasectl tick": one pseudo-cron tick, also as a CGI
 * program or detached (--spawn), with the worker's handlers
 * (tools/leasectl_run.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leasectl.h"
#include "leasectl_run.h"

extern char **environ;

/*
 * A tick triggered by a web hit must not make the hit wait.  Two ways:
 *
 *   CGI mode (GATEWAY_INTERFACE is set): answer "202 Accepted" at once,
 *   close standard output so that the web server ends the response, then
 *   run the tick in a detached process.  Detached, because web servers
 *   signal a CGI program that is still running once its output has ended
 *   (lighttpd sends SIGTERM at EOF; Apache kills it with the request).
 *
 *   --spawn: the caller (PHP, Python, a shell) gets its status 0 at once and
 *   the tick runs detached.
 *
 * Everything the tick runs comes from the command line (a wrapper script the
 * administrator writes): nothing in the request is read, and the request's
 * CGI variables are removed before handlers run.
 */

#define CGI_BODY "tick accepted\n"
#define CGI_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

static int cgi_env(void)
{
	const char *g = getenv("GATEWAY_INTERFACE");

	return g && *g;
}

static void cgi_answer(const char *status, const char *body)
{
	printf("Status: %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n\r\n%s", status, strlen(body), body);
	fflush(stdout);
}

/* The request's meta-variables (RFC 3875 and the usual server extras). */
static int is_cgi_var(const char *entry)
{
	static const char *const prefixes[] = {
		"HTTP_", "REQUEST_", "REMOTE_", "SERVER_", "SCRIPT_", "CONTENT_", "REDIRECT_", "DOCUMENT_",
		"CONTEXT_", "PATH_INFO=", "PATH_TRANSLATED=", "QUERY_STRING=", "GATEWAY_INTERFACE=",
		"AUTH_TYPE=", "HTTPS=", NULL,
	};

	for (size_t i = 0; prefixes[i]; i++)
		if (!strncmp(entry, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void scrub_cgi_env(void)
{
	size_t i = 0;

	while (environ[i]) {
		const char *e = environ[i], *eq = strchr(e, '=');
		char *name;
		if (!eq || !is_cgi_var(e) || !(name = strndup(e, (size_t)(eq - e)))) {
			i++;
			continue;
		}
		if (unsetenv(name) != 0)
			i++; /* environ shifted down otherwise: look at the same slot again */
		free(name);
	}
	/* Web servers give CGI programs no PATH; handlers want one. */
	setenv("PATH", CGI_DEFAULT_PATH, 0);
}

/* Standard input and output (and error, unless it is a regular file: a log
 * blocks nobody) on /dev/null. */
static void stdio_to_null(void)
{
	struct stat sb;
	int fd = open("/dev/null", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	if (fstat(STDERR_FILENO, &sb) != 0 || !S_ISREG(sb.st_mode))
		dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/*
 * Go on in a detached process: double fork, its own session (never a
 * session leader, so no controlling terminal), stdio as stdio_to_null(),
 * every other inherited descriptor closed (a web server's sockets must not
 * be held open by the tick), the working directory kept, mask restored to
 * *mask.  Returns 0 in the detached process, 1 in the caller once it runs,
 * -1 with errno on failure.
 */
static int detach(struct lc_ctx *ctx, const sigset_t *mask)
{
	pid_t pid;
	int st = 0;
	size_t keep = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0) {
			if (errno != EINTR)
				return -1;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			errno = WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) : EAGAIN;
			return -1;
		}
		return 1;
	}
	if (setsid() < 0)
		_exit(errno & 0xff ? errno & 0xff : EPERM);
	pid = fork();
	if (pid < 0)
		_exit(errno & 0xff ? errno & 0xff : EAGAIN);
	if (pid > 0)
		_exit(0);
	signal(SIGHUP, SIG_IGN);
	stdio_to_null();
	for (size_t i = 0; i < ctx->ninherited; i++) {
		if (ctx->inherited[i] > STDERR_FILENO)
			close(ctx->inherited[i]);
		else
			ctx->inherited[keep++] = ctx->inherited[i];
	}
	ctx->ninherited = keep;
	sigprocmask(SIG_SETMASK, mask, NULL);
	return 0;
}

/*
 * One detached tick per host, queue and database at a time.  A burst of web
 * hits starts as many detached ticks; all but one would only find the
 * runner lease held, after opening a database connection each (200 hits,
 * 200 connections).  So a detached tick first takes a host-local lock, and
 * when another detached tick holds it, it ends at once: that one runs the
 * queue.  Correctness stays with the runner lease; this only spares the
 * database.  The lock is a 0600 file of our own uid in $XDG_RUNTIME_DIR,
 * $TMPDIR or /tmp, named by a hash of the uid, working directory,
 * redacted DSN and queue; any trouble with it means "run uncoalesced".
 * Returns 0 when another detached tick holds the lock, 1 otherwise; the
 * descriptor stays open (close-on-exec, so handlers do not hold it) until
 * the tick exits.
 */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static int detached_tick_lock(const struct lc_ctx *ctx, const char *queue)
{
	const char *dirs[] = {getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR"), "/tmp"};
	char dsn[512], cwd[4096], path[4096 + 64], uid[32];
	uint64_t h = 14695981039346656037ULL;
	struct stat sb;
	int fd = -1;

	lq_dsn_redact(lc_dsn(ctx), dsn, sizeof(dsn));
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	snprintf(uid, sizeof(uid), "%ld", (long)geteuid());
	h = fnv1a(h, uid, strlen(uid) + 1);
	h = fnv1a(h, cwd, strlen(cwd) + 1);
	h = fnv1a(h, dsn, strlen(dsn) + 1);
	h = fnv1a(h, queue, strlen(queue) + 1);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && fd < 0; i++) {
		if (!dirs[i] || dirs[i][0] != '/')
			continue;
		snprintf(path, sizeof(path), "%s/leaseq-tick-%s-%016llx.lock", dirs[i], uid,
			 (unsigned long long)h);
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	}
	if (fd < 0)
		return 1;
	if (fstat(fd, &sb) != 0 || sb.st_uid != geteuid() || !S_ISREG(sb.st_mode)) {
		close(fd);
		return 1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int busy = errno == EWOULDBLOCK;
		close(fd);
		return !busy;
	}
	return 1; /* held until exit */
}

struct tick_args {
	const char *queue, *budget;
	struct lc_list handlers;
	const char *log_format, *timeout;
	int spawn, no_cgi;
};
static const struct lc_opt tick_opts[] = {
	LC_VALUE(struct tick_args, queue, "queue", 0, "Q", 0, "the queue (default \"default\")"),
	LC_VALUE(struct tick_args, budget, "budget", 0, "DUR", 0,
		 "stop starting tasks once DUR (minus a safety margin) is spent\n(default 25s)"),
	LC_LIST(struct tick_args, handlers, "handler", 0, "NAME=CMD",
		"as for 'worker': run tasks named NAME (\"*\": any) with /bin/sh -c CMD"),
	LC_FLAG(struct tick_args, spawn, "spawn", 0,
		"check the flags, then run the tick in a detached process (own\n"
		"session, standard input and output on /dev/null) and exit 0 at once"),
	LC_FLAG(struct tick_args, no_cgi, "no-cgi", 0,
		"an ordinary tick even when GATEWAY_INTERFACE is set (e.g. run\n"
		"synchronously from inside another CGI program)"),
	LC_VALUE(struct tick_args, timeout, "timeout", 0, "DUR", 0,
		 "as for 'worker': stop a handler that runs longer than DUR; the\n"
		 "attempt fails with \"timed out after DUR\""),
	LC_LOG_OPT(struct tick_args, log_format),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_tick_usage = {
	.path = "tick",
	.summary = "one pseudo-cron tick: run what is due, then return",
	.description =
		"The wp-cron pattern made correct: takes the queue's short runner lease (if\n"
		"another runner holds it, exits 75 at once: one cheap statement, no write;\n"
		"nothing due: exits 0 the same way), runs due tasks in order (at-most-once)\n"
		"renewing the lease after each, and hands the lease back before --budget\n"
		"ends.  Run it from cron every minute, or after web requests.  Failures\n"
		"(a task no --handler names too) are logged as by 'worker'.  Prints\n"
		"\"tick: ran N, failed M, stopped: REASON\" on standard error; JSON: {ran,\n"
		"failed, claimed, stopped} on standard output, and as for 'worker' a\n"
		"handler's standard output then goes to standard error (with\n"
		"--log-format json: handler_output events), so standard output stays JSON.\n"
		"\n"
		"As a CGI program (GATEWAY_INTERFACE set, no --spawn or --no-cgi): answers\n"
		"\"Status: 202 Accepted\" at once, ends the response, and runs the tick in a\n"
		"detached process; the query string and request are ignored, and the\n"
		"request's CGI variables are removed before handlers run.  Give the flags\n"
		"in a wrapper script that the web server runs.  A detached tick (CGI or\n"
		"--spawn) keeps standard error only when it is a regular file (a log) and\n"
		"logs only ticks that ran or failed something, and errors.  While one\n"
		"detached tick of this host runs a queue, further ones for the same\n"
		"database and queue end at once without connecting (a burst of hits\n"
		"opens one connection, not one per hit).",
	.opts = tick_opts,
	.examples = "* * * * * leasectl tick --budget 50s --handler '*=/usr/local/bin/run-task'\n"
		    "leasectl tick --queue mail --handler 'send=./send.sh' --json\n"
		    "leasectl tick --spawn --queue web --budget 20s \\\n"
		    "    --handler 'mail=/srv/app/send-mail' \\\n"
		    "    2>>/var/log/leaseq-tick.log\n"
		    "#!/bin/sh   (cgi-bin/tick: the wrapper a web server runs)\n"
		    "exec leasectl --db sqlite:/srv/app/leaseq.db tick --queue web --budget 20s \\\n"
		    "    --handler 'mail=/srv/app/send-mail'",
	.exits = "0   ticked (also when nothing was due); --spawn or CGI: the tick was started\n"
		 "75  another runner is active on the queue: nothing done\n"
		 "64  bad usage (CGI: answered \"500 Internal Server Error\")\n"
		 "69  database unreachable\n1   other failure",
};

/* Whether a word of argv is exactly w (for a command line that did not parse). */
static int has_word(int argc, char **argv, const char *w)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], w))
			return 1;
	return 0;
}

/* A tick on one of several databases (ctx->dsn). */
static int tick_one_db(struct lc_ctx *ctx, void *arg)
{
	lq_run_report rep;
	char msg[456];
	int rc = lc_run_runner(arg, &rep, msg, sizeof(msg));

	(void)ctx;
	lc_print_run_report(arg, &rep, rc, msg);
	return rc;
}

int cmd_tick(struct lc_ctx *ctx, int argc, char **argv)
{
	struct tick_args a = {0};
	struct wconf c = {0};
	int rc = lc_parse(ctx, &lc_tick_usage, &a, argc, argv);
	const char *queues[2] = {LQ_DEFAULT_QUEUE, NULL};
	int cgi, detached = 0;
	lq_run_report rep;
	char msg[456];

	if (rc == LC_PARSE_HELP) {
		free(a.handlers.v);
		return LC_EXIT_OK;
	}
	if (rc)
		cgi = rc != LC_PARSE_HELP && cgi_env() && !has_word(argc, argv, "--spawn") &&
		      !has_word(argc, argv, "--no-cgi");
	else
		cgi = cgi_env() && !a.spawn && !a.no_cgi;
	c.ctx = ctx;
	c.tick = 1;
	c.mode = LQ_AT_MOST_ONCE_CANCELLABLE; /* task cancel reaches a running handler */
	c.budget = DEFAULT_BUDGET_MS;
	c.queues = queues;
	if (!rc)
		rc = lc_log_set_format(ctx, a.log_format);
	if (!rc && a.spawn && a.no_cgi)
		rc = lc_usage_error(ctx, "--spawn and --no-cgi exclude each other");
	if (!rc && a.queue) {
		queues[0] = a.queue;
		rc = lc_check_name(ctx, "queue name", a.queue);
	}
	if (!rc && a.budget)
		rc = lc_duration(ctx, "--budget", a.budget, 0, &c.budget);
	if (!rc && a.timeout)
		rc = lc_duration(ctx, "--timeout", a.timeout, 0, &c.timeout);
	if (!rc)
		rc = lc_parse_handlers(ctx, &a.handlers, &c);
	if (rc && rc != LC_PARSE_HELP && cgi) /* the reason is on standard error: the server's log */
		cgi_answer("500 Internal Server Error", "leasectl tick: bad configuration (see the server's error log)\n");
	if (!rc && (cgi || a.spawn) && ctx->ndsn > 1)
		rc = lc_usage_error(ctx, "several --db are for a plain tick, not --spawn or CGI");
	if (!rc && (cgi || a.spawn)) {
		sigset_t block, old;
		int d;
		/* A web server signals its CGI program once the response ended:
		 * that must not stop us before the tick is handed on. */
		sigemptyset(&block);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGHUP);
		sigaddset(&block, SIGPIPE);
		sigprocmask(SIG_BLOCK, &block, &old);
		if (cgi) {
			cgi_answer("202 Accepted", CGI_BODY);
			stdio_to_null(); /* EOF for the web server: the response is complete */
		}
		d = detach(ctx, &old);
		if (d == 0) {
			detached = 1;
			if (cgi)
				scrub_cgi_env();
			if (!detached_tick_lock(ctx, queues[0])) {
				free(a.handlers.v);
				return lc_finish_run(&c, 0);
			}
		} else {
			if (d < 0) {
				lc_errorf("tick: cannot start a detached tick: %s", strerror(errno));
				rc = LC_EXIT_FAIL;
			} else if (ctx->json && !cgi) {
				struct lc_json j;
				lc_json_init(&j, stdout);
				lc_json_obj(&j);
				lc_json_kbool(&j, "spawned", 1);
				lc_json_end_obj(&j);
				lc_json_end(&j);
			}
			/* CGI: exit with the signals still blocked (they are moot now). */
			if (!cgi)
				sigprocmask(SIG_SETMASK, &old, NULL);
			free(a.handlers.v);
			return lc_finish_run(&c, rc);
		}
	}
	if (!rc && ctx->ndsn > 1) {
		rc = lc_run_per_db(ctx, 1, tick_one_db, &c); /* a tick is one try per database */
	} else if (!rc) {
		rc = lc_run_runner(&c, &rep, msg, sizeof(msg));
		/* A detached tick's log: what ran or failed, and errors; not every
		 * web hit that found nothing to do. */
		if (!detached || (rc && rc != LC_EXIT_HELD) || rep.ran || rep.failed)
			lc_print_run_report(&c, &rep, rc, msg);
	}
	free(a.handlers.v);
	return lc_finish_run(&c, rc);
}
