/*
 * leasectl_worker.c - "leasectl worker" (and what "leasectl tick" shares with it,
 * leasectl_run.h): the library's runner with handlers that are shell commands
 * given on the command line.
 *
 * A handler NAME=CMD runs "/bin/sh -c CMD" with the task's payload on
 * standard input (from an in-memory file, so any size works without a
 * writer loop) and the task in LEASEQ_TASK_* variables.  Only the command
 * line decides what runs: nothing read from the database is executed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leasectl.h"
#include "leasectl_run.h"

#define STOP_GRACE_MS 10000  /* a stopping worker lets the handler finish this long */
#define KILL_GRACE_MS 5000   /* then SIGTERM, and SIGKILL this long after */
#define MAX_JOBS 256
#define DEFAULT_CLAIM_TTL_MS 30000

/* Signal handling state: the runner to stop and how often we were asked. */
static lq_runner *volatile g_runner;
static volatile sig_atomic_t g_stops;

static void stop_runner(int sig)
{
	lq_runner *r = g_runner;

	(void)sig;
	/* Handlers of different signals may nest: an atomic add, not ++. */
	__atomic_add_fetch(&g_stops, 1, __ATOMIC_SEQ_CST);
	if (r)
		lq_runner_stop(r);
}

struct handler {
	char *name;      /* task name or "*" */
	const char *cmd; /* run with /bin/sh -c */
	const struct wconf *conf;
};

/* What a worker process reports to the -j parent (atomic: < PIPE_BUF). */
struct wreport {
	int64_t ran, failed, claimed;
	int32_t stopped;
	int32_t exit;
	char msg[456];
};

/* ------------------------------------------------------------ handlers */

int lc_parse_handlers(struct lc_ctx *ctx, const struct lc_list *specs, struct wconf *c)
{
	int rc;

	c->h = calloc(specs->n ? specs->n : 1, sizeof(*c->h));
	if (!c->h) {
		lc_errorf("out of memory");
		return LC_EXIT_FAIL;
	}
	for (size_t i = 0; i < specs->n; i++) {
		const char *spec = specs->v[i], *eq = strchr(spec, '=');
		struct handler *h = &c->h[c->nh];
		if (!eq)
			return lc_usage_error(ctx, "--handler \"%s\": expected NAME=CMD (NAME may be \"*\")", spec);
		if (!(h->name = strndup(spec, (size_t)(eq - spec)))) {
			lc_errorf("out of memory");
			return LC_EXIT_FAIL;
		}
		c->nh++;
		if (strcmp(h->name, "*") && (rc = lc_check_name(ctx, "--handler task name", h->name)))
			return rc;
		if (!eq[1])
			return lc_usage_error(ctx, "--handler \"%s\": the command is empty", spec);
		h->cmd = eq + 1;
		h->conf = c;
	}
	return 0;
}

/* The payload as a file descriptor positioned at 0 (-1 on failure). */
static int payload_fd(const lq_task *t)
{
	int fd = memfd_create("leaseq-payload", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0) {
		FILE *f = tmpfile(); /* no memfd: an unlinked temporary file */
		if (!f)
			return -1;
		fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 3);
		fclose(f);
		if (fd < 0)
			return -1;
	}
	while (off < t->payload_len) {
		ssize_t n = write(fd, t->payload + off, t->payload_len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

struct sh_child {
	const char *cmd;
	int in;
	int err; /* -1: standard error inherited */
	int out; /* -1: standard output inherited */
	int ctl; /* write ends for fds 3 (control) and 4 (result); -1: none */
	int res;
	char **env;
};

/* In the child: fd to target, where target may be another of ours. */
static int move_fd(int fd, int target)
{
	if (fd == target) /* keep it, without close-on-exec */
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* In the child (its own process group, see lc_child_spawn). */
static void run_sh(void *arg)
{
	const struct sh_child *c = arg;

	if (dup2(c->in, STDIN_FILENO) < 0 || (c->err >= 0 && dup2(c->err, STDERR_FILENO) < 0) ||
	    (c->out >= 0 && dup2(c->out, STDOUT_FILENO) < 0))
		_exit(126);
	if (c->ctl >= 0 && c->res >= 0) {
		/* Above 4 first, so neither lands on the other's place. */
		int ctl = fcntl(c->ctl, F_DUPFD, 10), res = fcntl(c->res, F_DUPFD, 10);
		if (ctl < 0 || res < 0 || move_fd(ctl, LC_CONTROL_FD) < 0 || move_fd(res, LC_RESULT_FD) < 0)
			_exit(126);
		close(ctl);
		close(res);
	}
	execve("/bin/sh", (char *[]){(char *)"sh", (char *)"-c", (char *)c->cmd, NULL}, c->env);
	dprintf(STDERR_FILENO, "%s: cannot run /bin/sh: %s\n", LC_PROG, strerror(errno));
	_exit(127);
}

/* With --log-format json a handler's standard error and output must not
 * break the log's one-object-per-line format: each line it writes becomes a
 * handler_output event of its task. */
struct relay {
	int fd; /* read end, non-blocking; -1 when done or unused */
	char buf[2048];
	size_t len;
};

static void relay_emit(const lq_task *t, const char *s, size_t n)
{
	char line[2049];

	memcpy(line, s, n);
	line[n] = '\0';
	lc_log_event("info", "handler_output", &(struct lc_log_fields){.task = t, .message = line});
}

/* Read what is there; emit complete lines (and a full buffer as one line).
 * final: the handler ended, emit the rest too. */
static void relay_pump(struct relay *r, const lq_task *t, int final)
{
	while (r->fd >= 0) {
		ssize_t got = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
		if (got > 0) {
			r->len += (size_t)got;
		} else if (got < 0 && errno == EINTR) {
			continue;
		} else if (got < 0 && errno == EAGAIN && !final) {
			break;
		} else { /* end of file, or the handler is gone and nothing more is there */
			close(r->fd);
			r->fd = -1;
		}
		size_t start = 0;
		for (size_t i = 0; i < r->len; i++) {
			if (r->buf[i] == '\n') {
				relay_emit(t, r->buf + start, i - start);
				start = i + 1;
			}
		}
		if (start == 0 && r->len == sizeof(r->buf)) {
			relay_emit(t, r->buf, r->len);
			start = r->len;
		}
		memmove(r->buf, r->buf + start, r->len - start);
		r->len -= start;
		if (got <= 0)
			break;
	}
	if (final && r->len) {
		relay_emit(t, r->buf, r->len);
		r->len = 0;
	}
}

/* The attempt a job is: at-least-once claims count it, at-most-once ones
 * do not. */
static int job_attempt(const lq_task *t)
{
	return t->mode == LQ_AT_LEAST_ONCE ? (t->attempts > 0 ? t->attempts : 1) : t->attempts + 1;
}

/* A failed attempt, in the log: a long-running worker's log is where
 * operators look first. */
/* A run that ended without success: "worker: task N "NAME" VERB: ERR", or
 * a JSON event. */
static void log_ended(const struct wconf *c, const lq_task *t, int64_t started, const char *err, const char *level,
		      const char *event, const char *verb)
{
	if (lc_log_is_json()) {
		lc_log_event(level, event,
			     &(struct lc_log_fields){.task = t, .attempt = job_attempt(t),
						     .duration_ms = lc_mono_ms() - started, .has_duration = 1, .error = err});
	} else {
		char name[300];
		lc_errorf("%s: task %lld \"%s\" %s: %s", c->tick ? "tick" : "worker", (long long)t->id,
			  lc_pr(name, sizeof(name), t->name), verb, err);
	}
}

static void log_failed(const struct wconf *c, const lq_task *t, int64_t started, const char *err)
{
	log_ended(c, t, started, err, "error", "task_failed", "failed");
}

/* The handler of the names no --handler gives (when there is no "*"): a
 * failed attempt, said like any other, naming the handlers there are (a
 * typo in a --handler name shows here). */
static int unmatched_fn(lq_job *job, void *arg)
{
	const struct wconf *c = arg;
	const lq_task *t = lq_job_task(job);
	char err[1024];
	size_t n = (size_t)snprintf(err, sizeof(err), "no handler for %s (--handler given for: ", t->name);

	for (size_t i = 0; i < c->nh && n < sizeof(err); i++)
		n += (size_t)snprintf(err + n, sizeof(err) - n, "%s%s", i ? ", " : "", c->h[i].name);
	if (n + 2 >= sizeof(err))
		strcpy(err + sizeof(err) - 5, "...)");
	else
		strcpy(err + n, ")");
	lq_job_set_error(job, err);
	log_failed(c, t, lc_mono_ms(), err);
	return 1;
}

/* A handler's run, for the supervisor's callbacks. */
struct hrun {
	lq_job *job;
	const lq_task *t;
	const struct wconf *c;
	int64_t interval; /* between heartbeats: a third of the claim's TTL */
	int64_t expiry;   /* the claim's end, on our clock */
	int cancelled;    /* the heartbeat said the task was cancelled */
	struct relay out;
	struct lc_control ctl; /* fd 3: progress, snooze */
	struct lc_result res;  /* fd 4: the result */
};

static void claim_renewed(struct hrun *h, int64_t now)
{
	int64_t ttl = lq_job_claim_ttl(h->job) > 0 ? lq_job_claim_ttl(h->job) : h->c->claim_ttl;

	h->expiry = now + ttl;
	h->interval = ttl / 3 > 0 ? ttl / 3 : 1;
}

/* Heartbeats keep an at-least-once claim (or a cancellable at-most-once
 * run's mark, which is how a cancel reaches it) and, in a tick, the runner
 * lease (whose TTL is short): without them a second tick would start
 * beside a long handler. */
static enum lc_keep heartbeat(struct lc_sup *s, int64_t now)
{
	struct hrun *h = s->arg;
	lq_status st = lq_job_heartbeat(h->job); /* measured from now: before the call */

	if (st == LQ_OK) {
		claim_renewed(h, now);
		s->keep_at = now + h->interval;
		return LC_KEEP_AGAIN;
	}
	if (st == LQ_REVOKED) { /* task cancel: stop it as a timeout would */
		h->cancelled = 1;
		s->lost_grace_ms = KILL_GRACE_MS;
		return LC_KEEP_LOST;
	}
	if (st != LQ_LOST && lc_mono_ms() < h->expiry) {
		s->keep_at = now + (h->interval < 1000 ? h->interval : 1000); /* transient: retry sooner */
		return LC_KEEP_AGAIN;
	}
	/* Only the runner lease, or the mark of an at-most-once run, is gone:
	 * the task was ours when claimed, so let it finish (the tick ends
	 * after it). */
	if (h->t->mode != LQ_AT_LEAST_ONCE)
		return LC_KEEP_DONE;
	s->lost_grace_ms = h->interval < KILL_GRACE_MS ? h->interval : KILL_GRACE_MS;
	return LC_KEEP_LOST;
}

/* A stopping worker lets the handler finish for a while; asked twice, it
 * does not wait. */
static enum lc_stop_ask shutdown_ask(struct lc_sup *s)
{
	const struct hrun *h = s->arg;

	if (!lq_job_stopping(h->job))
		return LC_STOP_NO;
	return g_stops >= 2 ? LC_STOP_NOW : LC_STOP_DRAIN;
}

static void relay_output(struct lc_sup *s)
{
	struct hrun *h = s->arg;

	relay_pump(&h->out, h->t, 0);
	s->out_fd = h->out.fd;
	lc_control_pump(&h->ctl, h->job, 0);
	lc_result_pump(&h->res, 0);
}

/* The read ends of the control and result pipes, non-blocking; the write
 * ends go to the handler as fds 3 and 4.  0, or -1 (nothing left open). */
static int open_channels(struct hrun *h, int *ctl_w, int *res_w)
{
	int cp[2], rp[2];

	if (pipe2(cp, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(rp, O_CLOEXEC) != 0 || !(h->res.data = malloc(LQ_RESULT_MAX + 1))) {
		close(cp[0]);
		close(cp[1]);
		if (h->res.data) {
			close(rp[0]);
			close(rp[1]);
		}
		return -1;
	}
	fcntl(cp[0], F_SETFL, fcntl(cp[0], F_GETFL) | O_NONBLOCK);
	fcntl(rp[0], F_SETFL, fcntl(rp[0], F_GETFL) | O_NONBLOCK);
	h->ctl.fd = cp[0];
	h->res.fd = rp[0];
	*ctl_w = cp[1];
	*res_w = rp[1];
	return 0;
}

static void close_channels(struct hrun *h)
{
	if (h->ctl.fd >= 0)
		close(h->ctl.fd);
	if (h->res.fd >= 0)
		close(h->res.fd);
	h->ctl.fd = h->res.fd = -1;
	free(h->res.data);
	h->res.data = NULL;
}

static int handler_fn(lq_job *job, void *arg)
{
	const struct handler *hd = arg;
	const struct wconf *c = hd->conf;
	const lq_task *t = lq_job_task(job);
	char v_id[48], v_attempt[48], v_run_at[48], *v_name = NULL, *v_queue = NULL, why[128], err[256];
	const char *set[7];
	int64_t started = lc_mono_ms();
	int attempt = job_attempt(t);
	int fd, timed_out = 0, errpipe[2] = {-1, -1};
	struct hrun h = {.job = job, .t = t, .c = c, .out = {.fd = -1}, .ctl = {.fd = -1, .db = c->db},
			 .res = {.fd = -1}};
	int ctl_w = -1, res_w = -1;
	struct lc_sup s = {0};
	char **env;

	snprintf(v_id, sizeof(v_id), "LEASEQ_TASK_ID=%lld", (long long)t->id);
	snprintf(v_attempt, sizeof(v_attempt), "LEASEQ_TASK_ATTEMPT=%d", attempt);
	snprintf(v_run_at, sizeof(v_run_at), "LEASEQ_TASK_RUN_AT=%lld", (long long)t->run_at);
	if (asprintf(&v_name, "LEASEQ_TASK_NAME=%s", t->name) < 0)
		v_name = NULL;
	if (asprintf(&v_queue, "LEASEQ_TASK_QUEUE=%s", t->queue) < 0)
		v_queue = NULL;
	set[0] = v_id;
	set[1] = v_attempt;
	set[2] = v_run_at;
	set[3] = v_name;
	set[4] = v_queue;
	set[5] = "LEASEQ_CONTROL_FD=3";
	set[6] = "LEASEQ_RESULT_FD=4";
	env = v_name && v_queue ? lc_child_env(c->ctx, set, 7) : NULL;
	fd = env ? payload_fd(t) : -1;
	if (fd >= 0 && open_channels(&h, &ctl_w, &res_w) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		snprintf(err, sizeof(err), "leasectl could not prepare the handler (out of memory or temporary files)");
		goto fail;
	}

	lc_cloexec_new_fds(c->ctx);
	if (lc_log_is_json() && pipe2(errpipe, O_CLOEXEC) == 0) {
		h.out.fd = errpipe[0];
		fcntl(h.out.fd, F_SETFL, fcntl(h.out.fd, F_GETFL) | O_NONBLOCK);
	}
	{
		/* In JSON (--json, --log-format json) our standard output is JSON
		 * only: the handler's goes where its standard error goes. */
		int json = c->ctx->json || lc_log_is_json();
		struct sh_child sc = {hd->cmd, fd, errpipe[1], errpipe[1] >= 0 ? errpipe[1] : json ? STDERR_FILENO : -1,
				      ctl_w, res_w, env};
		s.pid = lc_child_spawn(run_sh, &sc);
	}
	close(fd);
	close(ctl_w);
	close(res_w);
	if (errpipe[1] >= 0)
		close(errpipe[1]);
	if (s.pid < 0) {
		snprintf(err, sizeof(err), "leasectl could not start the handler: %s", strerror(errno));
		goto fail;
	}

	s.arg = &h;
	s.poll_ms = 250; /* also notices lq_job_stopping, and reads the control channel */
	s.stop_ask = shutdown_ask;
	s.drain_ms = STOP_GRACE_MS;
	s.grace_ms = KILL_GRACE_MS;
	s.rest_grace_ms = KILL_GRACE_MS;
	s.out_fd = h.out.fd;
	s.output = relay_output;
	if (c->mode != LQ_AT_MOST_ONCE || t->mode == LQ_AT_LEAST_ONCE || c->tick) {
		int64_t now = lc_mono_ms();
		claim_renewed(&h, now);
		s.keep_at = now + h.interval;
		s.keep = heartbeat;
	}
	/* The task's own timeout (task add --timeout) wins over --timeout. */
	int64_t limit = t->timeout_ms > 0 ? t->timeout_ms : c->timeout;
	if (limit > 0)
		s.timeout_at = started + limit;
	lc_supervise(&s);
	relay_pump(&h.out, t, 1);
	lc_control_pump(&h.ctl, job, 1);
	lc_result_pump(&h.res, 1);
	lc_fmt_wait(why, sizeof(why), s.wstatus);
	if (s.end == LC_END_LOST && h.cancelled) {
		/* The cancel recorded the run; the runner's fail is refused. */
		snprintf(err, sizeof(err), "the handler was stopped (%s)", why);
		log_ended(c, t, started, err, "info", "task_cancelled", "cancelled");
		lq_job_set_error(job, err);
		if (h.out.fd >= 0)
			close(h.out.fd);
		close_channels(&h);
		lc_env_free(env);
		free(v_name);
		free(v_queue);
		return 1;
	}
	if (s.end == LC_END_LOST) {
		snprintf(err, sizeof(err), "claim lost while the handler ran; handler stopped (%s)", why);
		goto fail;
	}
	if (s.end != LC_END_TIMED_OUT && WIFEXITED(s.wstatus) && WEXITSTATUS(s.wstatus) == 0 && h.res.over) {
		snprintf(err, sizeof(err), "its result (LEASEQ_RESULT_FD) is over %d bytes", LQ_RESULT_MAX);
		goto fail;
	}
	if (s.end != LC_END_TIMED_OUT && WIFEXITED(s.wstatus) && WEXITSTATUS(s.wstatus) == 0) {
		if (h.res.len && !h.ctl.snoozed)
			lq_job_set_result(job, h.res.data, h.res.len); /* within the bound: cannot fail but for memory */
		close_channels(&h);
		lc_log_event("info", "task_done",
			     &(struct lc_log_fields){.task = t, .attempt = attempt,
						     .duration_ms = lc_mono_ms() - started, .has_duration = 1});
		lc_env_free(env);
		free(v_name);
		free(v_queue);
		return 0;
	}
	/* A handler that started and was then stopped by our shutdown may have
	 * done part of its work: that is a failed attempt (counted, backed
	 * off, dead when out of attempts), never a task handed back unrun. */
	if (s.end == LC_END_TIMED_OUT) {
		char dur[32];
		timed_out = 1;
		lc_fmt_duration(dur, sizeof(dur), limit);
		snprintf(err, sizeof(err), "timed out after %s: the handler was stopped (%s)", dur, why);
	} else if (s.end == LC_END_STOPPED)
		snprintf(err, sizeof(err), "interrupted by shutdown: the handler was stopped (%s)", why);
	else
		snprintf(err, sizeof(err), "handler %s", why);
fail:
	if (h.out.fd >= 0)
		close(h.out.fd);
	close_channels(&h);
	if (timed_out)
		lq_job_set_timed_out(job, err); /* the history says timed_out */
	else
		lq_job_set_error(job, err);
	log_failed(c, t, started, err);
	lc_env_free(env);
	free(v_name);
	free(v_queue);
	return 1;
}

/* ------------------------------------------------------------ running */

static void summary_line(char *buf, size_t size, const lq_run_report *rep)
{
	snprintf(buf, size, "ran %lld, failed %lld, stopped: %s", (long long)rep->ran, (long long)rep->failed,
		 lq_stop_reason_name(rep->stopped));
}

/* One runner in this process.  On failure msg says why (no prefix). */
int lc_run_runner(struct wconf *c, lq_run_report *rep, char *msg, size_t msgsize)
{
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	lq_runner *r = NULL;
	lq_db *db = NULL;
	lq_status st;
	sigset_t set;
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	msg[0] = '\0';
	o.queues = c->queues;
	o.mode = c->mode;
	o.claim_ttl_ms = c->claim_ttl;
	st = lq_open(lc_dsn(c->ctx), &db);
	c->db = db; /* the handlers' control channels report through it */
	lq_set_notice_fn(db, lc_log_notice, NULL);
	if (st == LQ_OK)
		st = lq_runner_new(db, &o, &r);
	int any = 0;
	for (size_t i = 0; st == LQ_OK && i < c->nh; i++) {
		st = lq_runner_handle(r, c->h[i].name, handler_fn, &c->h[i]);
		any |= !strcmp(c->h[i].name, "*");
	}
	if (st == LQ_OK && !any)
		st = lq_runner_handle(r, "*", unmatched_fn, c);
	if (st != LQ_OK)
		goto fail;
	if (lc_sig_init() != 0) {
		snprintf(msg, msgsize, "cannot create a pipe: %s", strerror(errno));
		rc = LC_EXIT_FAIL;
		goto out;
	}
	g_runner = r;
	lc_child_subreaper(); /* handlers' escaped descendants come back to us */
	lc_sig_catch(SIGTERM, stop_runner);
	lc_sig_catch(SIGINT, stop_runner);
	lc_sig_catch(SIGCHLD, NULL);
	/* -j children start with these blocked (see run_jobs). */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (c->tick)
		st = lq_runner_tick(r, c->budget, rep);
	else
		st = lq_runner_work(r, c->drain, rep);
	g_runner = NULL;
	if (st == LQ_OK || (st == LQ_BUSY && rep->stopped == LQ_STOP_HELD) || (c->tick && st == LQ_BUSY)) {
		if (st == LQ_BUSY || rep->stopped == LQ_STOP_HELD) {
			rep->stopped = LQ_STOP_HELD;
			rc = LC_EXIT_HELD;
		}
		goto out;
	}
fail:
	{
		const char *e = db ? lq_errmsg(db) : "";
		snprintf(msg, msgsize, "%s", e && *e ? e : lq_status_str(st));
		rc = lc_exit_status(st);
		if (rc == LC_EXIT_OK)
			rc = LC_EXIT_FAIL;
	}
out:
	g_runner = NULL;
	lq_runner_free(r);
	lq_close(db);
	return rc;
}

void lc_print_run_report(const struct wconf *c, const lq_run_report *rep, int rc, const char *msg)
{
	char what[300];
	char sum[160];

	/* Several databases: say which one this report is about. */
	if (c->ctx->db_label[0])
		snprintf(what, sizeof(what), "%s (%s)", c->tick ? "tick" : "worker", c->ctx->db_label);
	else
		snprintf(what, sizeof(what), "%s", c->tick ? "tick" : "worker");

	summary_line(sum, sizeof(sum), rep);
	if (c->ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		if (c->ctx->db_label[0])
			lc_json_kstr(&j, "db", c->ctx->db_label);
		lc_json_report(&j, rep);
		if (rc && msg[0])
			lc_json_kstr(&j, "error", msg);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	}
	/* One line on standard error either way. */
	if (lc_log_is_json())
		lc_log_event(rc && rc != LC_EXIT_HELD ? "error" : "info", c->tick ? "tick_done" : "worker_stopped",
			     &(struct lc_log_fields){.report = rep,
						     .error = rc && msg[0] ? msg : NULL});
	else if (rc == LC_EXIT_HELD && c->tick)
		lc_errorf("tick: another runner is active on queue \"%s\"; nothing to do", c->queues[0]);
	else if (rc && msg[0] && !c->ctx->db_label[0] && !strncmp(msg, what, strlen(what)) && msg[strlen(what)] == ':')
		lc_errorf("%s (%s)", msg, sum); /* the library named it already */
	else if (rc && msg[0])
		lc_errorf("%s: %s (%s)", what, msg, sum);
	else if (rc)
		lc_errorf("%s: %s", what, sum);
	else
		fprintf(stderr, "%s: %s\n", what, sum);
}

/* -j N: N worker processes, each with its own connection.  The parent only
 * forwards stop signals, collects reports and waits. */
static int run_jobs(struct wconf *c, int64_t jobs)
{
	pid_t pids[MAX_JOBS];
	int status[MAX_JOBS], done[MAX_JOBS] = {0}, rp[2], rc = 0, left = 0;
	struct wreport agg = {0}, one;
	lq_run_report rep;
	sigset_t block, old;
	size_t got = 0;
	pid_t parent = getpid();
	char first_msg[456] = "";

	if (lc_sig_init() != 0 || pipe2(rp, O_CLOEXEC) != 0) {
		lc_errorf("cannot create a pipe: %s", strerror(errno));
		return LC_EXIT_FAIL;
	}
	fcntl(rp[0], F_SETFL, O_NONBLOCK);
	lc_sig_catch(SIGTERM, NULL);
	lc_sig_catch(SIGINT, NULL);
	lc_sig_catch(SIGCHLD, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGCHLD);
	lc_cloexec_new_fds(c->ctx);
	fflush(NULL);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (int64_t i = 0; i < jobs; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			lq_run_report r1;
			int code;
			close(rp[0]);
			if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
				_exit(LC_EXIT_FAIL);
			memset(&one, 0, sizeof(one));
			code = lc_run_runner(c, &r1, one.msg, sizeof(one.msg));
			one.ran = r1.ran;
			one.failed = r1.failed;
			one.claimed = r1.claimed;
			one.stopped = (int32_t)r1.stopped;
			one.exit = code;
			(void)!write(rp[1], &one, sizeof(one));
			fflush(NULL);
			_exit(code);
		}
		if (pid < 0) {
			lc_errorf("cannot fork: %s", strerror(errno));
			rc = LC_EXIT_FAIL;
			break;
		}
		pids[left++] = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(rp[1]);
	if (rc) /* could not start them all: stop those that run */
		for (int i = 0; i < left; i++)
			kill(pids[i], SIGTERM);

	for (int alive = left; alive > 0 || got < (size_t)left;) {
		struct pollfd pfd[2] = {{.fd = lc_sig_fd(), .events = POLLIN}, {.fd = rp[0], .events = POLLIN}};
		int b;
		ssize_t n;

		if (alive > 0 || got < (size_t)left)
			poll(pfd, 2, alive > 0 ? 1000 : 100);
		while (lc_sig_next(&b)) {
			int sig = b & 0x7f;
			/* A terminal's ^C reached the children already. */
			if ((sig == SIGTERM || sig == SIGINT) && !(b & LC_SIG_KERNEL))
				for (int i = 0; i < left; i++)
					if (!done[i])
						kill(pids[i], sig);
		}
		while ((n = read(rp[0], &one, sizeof(one))) == (ssize_t)sizeof(one)) {
			if (got++ == 0)
				agg.stopped = one.stopped;
			else if (one.stopped != agg.stopped && one.stopped == LQ_STOP_ERROR)
				agg.stopped = one.stopped;
			agg.ran += one.ran;
			agg.failed += one.failed;
			agg.claimed += one.claimed;
			one.msg[sizeof(one.msg) - 1] = '\0';
			if (one.exit && !first_msg[0])
				snprintf(first_msg, sizeof(first_msg), "%s", one.msg);
		}
		if (n == 0 && alive == 0)
			break; /* all writers gone */
		for (int i = 0; i < left; i++) {
			if (!done[i] && waitpid(pids[i], &status[i], WNOHANG) == pids[i]) {
				done[i] = 1;
				alive--;
			}
		}
	}
	close(rp[0]);
	for (int i = 0; i < left && !rc; i++)
		if (lc_wait_exit(status[i]) != 0)
			rc = lc_wait_exit(status[i]);
	rep.ran = agg.ran;
	rep.failed = agg.failed;
	rep.claimed = agg.claimed;
	rep.stopped = (lq_stop_reason)agg.stopped;
	lc_print_run_report(c, &rep, rc, first_msg);
	return rc;
}

/* ------------------------------------------------------------ worker */

struct worker_args {
	struct lc_list queues, handlers;
	const char *jobs, *claim_ttl, *log_format, *timeout;
	int at_least_once, drain;
};
static const struct lc_opt worker_opts[] = {
	LC_LIST(struct worker_args, queues, "queue", 0, "Q", "a queue to work on; repeat for several (default \"default\")"),
	LC_VALUE(struct worker_args, jobs, "j", 0, "N", 0,
		 "run N worker processes, each with its own connection (default 1)"),
	LC_LIST(struct worker_args, handlers, "handler", 0, "NAME=CMD",
		"run tasks named NAME with /bin/sh -c CMD; NAME \"*\" takes any task\n"
		"without its own handler.  The payload is on CMD's standard input;\n"
		"LEASEQ_TASK_ID, _NAME, _QUEUE, _ATTEMPT and _RUN_AT (epoch ms) are set;\n"
		"exit 0 is success.  CMD may write lines \"progress PERCENT [MESSAGE]\"\n"
		"(with --at-least-once; shown by 'task show') and \"snooze DURATION\" to\n"
		"fd 3 (LEASEQ_CONTROL_FD), and its result (at most 64 KiB; 'task result')\n"
		"to fd 4 (LEASEQ_RESULT_FD); bad lines are logged and ignored"),
	LC_FLAG(struct worker_args, at_least_once, "at-least-once", 0,
		"claim tasks with a renewable claim instead of deleting them: a crash\n"
		"runs the task again; failures are retried with back-off up to\n"
		"max_attempts, then the task is dead (a recurring task's occurrence is\n"
		"given up instead, and the schedule goes on) (default: at-most-once)"),
	LC_VALUE(struct worker_args, claim_ttl, "claim-ttl", 0, "DUR", 0,
		 "the claim's lease, renewed every DUR/3 while the handler runs: with\n"
		 "--at-least-once, and for the tasks claimed with a claim in any mode\n"
		 "(under a concurrency cap, or of a schedule with --overlap) (default 30s)"),
	LC_FLAG(struct worker_args, drain, "drain", 0, "exit once nothing is due (default: run until stopped)"),
	LC_VALUE(struct worker_args, timeout, "timeout", 0, "DUR", 0,
		 "stop a handler that runs longer than DUR (SIGTERM to its process\n"
		 "group, SIGKILL 5s later); the attempt fails with \"timed out after\n"
		 "DUR\" (default: no limit); a task added with --timeout uses its own\n"
		 "limit instead"),
	LC_LOG_OPT(struct worker_args, log_format),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_worker_usage = {
	.path = "worker",
	.summary = "run due tasks with handler commands until stopped",
	.description =
		"Claims due tasks of the queues in order and runs each with its handler.\n"
		"An idle worker backs off but never sleeps past the next known due time,\n"
		"so recurring tasks run on time.  SIGTERM or SIGINT stop it gracefully: the\n"
		"running handler may finish for up to 10s, then gets SIGTERM (SIGKILL 5s\n"
		"later); a second signal stops it at once.  A handler stopped that way is\n"
		"a failed attempt (\"interrupted by shutdown\": counted, retried after a\n"
		"back-off, dead when out of attempts); claimed tasks whose handler had not\n"
		"started go back unrun.  The handler runs in its own process group, without\n"
		"LEASEQ_DSN or other database secrets.  A handler whose claim is lost\n"
		"(at-least-once) gets SIGTERM and the run counts as failed.  'task cancel\n"
		"ID' reaches a running handler in either mode: at its next heartbeat (every\n"
		"10s, or --claim-ttl/3) the worker stops its process group the same way and\n"
		"the run is recorded cancelled.  Each failure is logged on standard error,\n"
		"also a task whose name no --handler gives (and no \"*\"): \"no handler for\n"
		"NAME\", with the names given.  At the end prints \"worker: ran N, failed M,\n"
		"stopped: REASON\" (idle, signal, error...) on standard error; JSON: {ran,\n"
		"failed, claimed, stopped} on standard output.  With --json or --log-format\n"
		"json standard output holds JSON only: a handler's standard output goes\n"
		"where its standard error goes (standard error; with --log-format json,\n"
		"each line a handler_output event, split at 2048 bytes).",
	.opts = worker_opts,
	.examples = "leasectl worker --handler 'send-mail=/usr/local/bin/send-mail' \\\n"
		    "    --handler '*=logger -t leaseq'\n"
		    "leasectl worker -j 4 --queue mail --queue reports --at-least-once \\\n"
		    "    --claim-ttl 2m --handler 'report=./report.sh \"$LEASEQ_TASK_ID\"'\n"
		    "leasectl worker --drain --handler '*=cat >> /tmp/payloads'",
	.exits = "0   stopped by a signal, or drained (with --drain)\n"
		 "64  bad usage (e.g. a --handler without '=')\n69  database unreachable\n1   other failure",
};

int lc_finish_run(struct wconf *c, int rc)
{
	for (size_t i = 0; i < c->nh; i++)
		free(c->h[i].name);
	free(c->h);
	return rc;
}

/* Make sure the database answers (and has the schema) before forking, so a
 * bad DSN is one error line, not one per process. */
static int preflight(struct wconf *c)
{
	lq_db *db = NULL;
	int64_t wait = 0;
	int rc = lc_open(c->ctx, &db);
	lq_status st;

	if (rc)
		return rc;
	st = lq_queue_next_due(db, c->queues ? c->queues[0] : NULL, &wait);
	rc = st == LQ_OK ? 0 : lc_db_error(db, st);
	lq_close(db);
	return rc;
}

#define DRAIN_DB_TRIES 3

struct one_db {
	struct wconf *c;
	int64_t jobs;
};

/* The worker on one database (ctx->dsn): -j processes or this one. */
static int work_one_db(struct lc_ctx *ctx, void *arg)
{
	struct one_db *o = arg;
	lq_run_report rep;
	char msg[456];
	int rc;

	(void)ctx;
	if (o->jobs > 1) {
		rc = preflight(o->c);
		return rc ? rc : run_jobs(o->c, o->jobs);
	}
	rc = lc_run_runner(o->c, &rep, msg, sizeof(msg));
	lc_print_run_report(o->c, &rep, rc, msg);
	return rc;
}

int cmd_worker(struct lc_ctx *ctx, int argc, char **argv)
{
	struct worker_args a = {0};
	struct wconf c = {0};
	int rc = lc_parse(ctx, &lc_worker_usage, &a, argc, argv);
	int64_t jobs = 1;
	const char **queues = NULL;

	if (rc) {
		free(a.queues.v);
		free(a.handlers.v);
		return LC_PARSE_EXIT(rc);
	}
	c.ctx = ctx;
	/* At-most-once runs stay cancellable (task cancel): one more row per
	 * claim, next to a shell handler's fork and exec. */
	c.mode = a.at_least_once ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE_CANCELLABLE;
	c.claim_ttl = DEFAULT_CLAIM_TTL_MS;
	c.drain = a.drain;
	rc = lc_log_set_format(ctx, a.log_format);
	for (size_t i = 0; i < a.queues.n && !rc; i++)
		rc = lc_check_name(ctx, "queue name", a.queues.v[i]);
	if (!rc && a.jobs)
		rc = lc_integer(ctx, "-j", a.jobs, 1, MAX_JOBS, &jobs);
	if (!rc && a.claim_ttl)
		rc = lc_duration(ctx, "--claim-ttl", a.claim_ttl, 0, &c.claim_ttl);
	if (!rc && a.timeout)
		rc = lc_duration(ctx, "--timeout", a.timeout, 0, &c.timeout);
	if (!rc)
		rc = lc_parse_handlers(ctx, &a.handlers, &c);
	if (!rc && a.queues.n) {
		if (!(queues = calloc(a.queues.n + 1, sizeof(*queues)))) {
			lc_errorf("out of memory");
			rc = LC_EXIT_FAIL;
		} else {
			memcpy(queues, a.queues.v, a.queues.n * sizeof(*queues));
			c.queues = queues;
		}
	}
	if (!rc && ctx->ndsn > 1) {
		/* --drain: an unreachable database is tried a few times, not for ever. */
		rc = lc_run_per_db(ctx, c.drain ? DRAIN_DB_TRIES : 0, work_one_db, &(struct one_db){&c, jobs});
	} else if (!rc) {
		struct one_db o = {&c, jobs};
		rc = work_one_db(ctx, &o);
	}
	free(queues);
	free(a.queues.v);
	free(a.handlers.v);
	return lc_finish_run(&c, rc);
}
