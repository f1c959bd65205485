/*
 * e2e.c - the end-to-end workloads of leasectl bench: real workers, each a
 * process with its own connection, run the tasks of one queue.
 *
 *   e2e-c       lq_runner_work at-least-once with an empty in-process
 *               handler (lib/leaseq.h only)
 *   e2e-worker  "leasectl worker --at-least-once" with a shell handler that
 *               reads the payload and writes it to a FIFO (dash builtins:
 *               no program is executed but the shell itself)
 *
 * Throughput: the workers start on a backlog of due tasks; after a short
 * warm-up the tasks run in a window of window_ms are counted.  Pickup
 * latency: once the backlog is gone and the workers are idle, a separate
 * enqueuer process adds one task every few milliseconds (lq_task_add; at
 * most a quarter of the rate the workers just showed) and
 * stamps CLOCK_MONOTONIC (one clock for every process of this machine) when
 * the call returned, that is after its commit; the handler's start is
 * stamped by the handler (e2e-c) or by the FIFO's reader when the shell's
 * line arrives (e2e-worker).  Latency = start - commit, 0 when the handler
 * started before the enqueuer's commit call returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "leaseq.h"

#define E2E_STAMPS 65536     /* latency samples at most per run */
#define E2E_WARMUP_MS 300    /* after the first task ran, before the window */
#define E2E_START_MS 60000   /* the first task must run within this */
#define E2E_STRAGGLE_MS 15000 /* the last enqueued tasks: > the 5 s idle cap */

struct e2e_shared {
	int64_t ran;      /* handler runs of every worker */
	int64_t enqueued; /* by the enqueuer, stamped */
	int stop_enqueue, stop_reader;
	int failed;
	char err[512];
	int64_t commit_us[E2E_STAMPS];
	int64_t start_us[E2E_STAMPS];
};

static int64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sleep_us(int64_t us)
{
	if (us <= 0)
		return;
	struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void child_fail(struct e2e_shared *sh, const char *what, lq_db *db, lq_status st)
{
	if (__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST) == 0)
		snprintf(sh->err, sizeof(sh->err), "%s: %s", what,
			 db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
}

/* "e2e K\n": the stamp index K, or -1. */
static int64_t stamp_index(const char *p, size_t n)
{
	if (n < 5 || memcmp(p, "e2e ", 4) != 0)
		return -1;
	int64_t k = 0;
	for (size_t i = 4; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		k = k * 10 + (p[i] - '0');
	return k < E2E_STAMPS ? k : -1;
}

static void stamp_start(struct e2e_shared *sh, const char *p, size_t n)
{
	int64_t k = stamp_index(p, n);
	if (k >= 0) {
		int64_t zero = 0;
		__atomic_compare_exchange_n(&sh->start_us[k], &zero, mono_us(), 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	}
	__atomic_add_fetch(&sh->ran, 1, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------ e2e-c */

static lq_runner *c_runner;

static void c_on_term(int sig)
{
	(void)sig;
	if (c_runner)
		lq_runner_stop(c_runner);
}

static int c_handler(lq_job *job, void *ctx)
{
	const lq_task *t = lq_job_task(job);
	stamp_start(ctx, (const char *)t->payload, t->payload ? t->payload_len : 0);
	return 0;
}

static void c_worker_main(const struct bench_e2e *e, struct e2e_shared *sh)
{
	lq_db *db = NULL;
	const char *queues[2] = {e->queue, NULL};
	lq_runner_opts ro = LQ_RUNNER_OPTS_INIT;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = c_on_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	ro.queues = queues;
	ro.mode = LQ_AT_LEAST_ONCE;
	lq_status st = lq_open(e->dsn, &db);
	if (st != LQ_OK) {
		child_fail(sh, "e2e-c worker: connect", db, st);
		_exit(1);
	}
	if ((st = lq_runner_new(db, &ro, &c_runner)) != LQ_OK ||
	    (st = lq_runner_handle(c_runner, "*", c_handler, sh)) != LQ_OK) {
		child_fail(sh, "e2e-c worker: runner", db, st);
		_exit(1);
	}
	lq_run_report rep;
	st = lq_runner_work(c_runner, 0, &rep);
	if (st != LQ_OK)
		child_fail(sh, "e2e-c worker: lq_runner_work", db, st);
	lq_runner_free(c_runner);
	lq_close(db);
	_exit(st == LQ_OK ? 0 : 1);
}

/* ------------------------------------------------------------ e2e-worker */

/* Reads the handlers' lines from the FIFO and stamps their arrival. */
static void reader_main(struct e2e_shared *sh, const char *fifo)
{
	/* Read-write: never an end of file while no handler has it open. */
	int fd = open(fifo, O_RDWR);
	char buf[8192];
	size_t have = 0;
	if (fd < 0) {
		snprintf(sh->err, sizeof(sh->err), "e2e-worker: cannot open the FIFO %s: %s", fifo, strerror(errno));
		sh->failed = 1;
		_exit(1);
	}
	while (!__atomic_load_n(&sh->stop_reader, __ATOMIC_SEQ_CST)) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		ssize_t r = read(fd, buf + have, sizeof(buf) - have);
		if (r <= 0)
			continue;
		have += (size_t)r;
		size_t start = 0;
		for (size_t i = 0; i < have; i++) {
			if (buf[i] != '\n')
				continue;
			stamp_start(sh, buf + start, i - start);
			start = i + 1;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == sizeof(buf)) /* no line end in 8 KiB: not ours */
			have = 0;
	}
	_exit(0);
}

static void worker_exec(const struct bench_e2e *e, const char *fifo)
{
	char handler[4200];
	/* read: the payload (the backlog's has no line end: read fails but
	 * has set k); echo: one line, atomic on a pipe. */
	snprintf(handler, sizeof(handler), "*=read -r k; echo \"$k\" >> '%s'", fifo);
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) { /* the worker's log lines are not the bench's output */
		dup2(null, 1);
		dup2(null, 2);
	}
	/* The DSN through the environment: a password on the command line
	 * would show in ps. */
	setenv("LEASEQ_DSN", e->dsn, 1);
	execl(e->leasectl, "leasectl", "worker", "--queue", e->queue, "--at-least-once", "--handler", handler,
	      (char *)NULL);
	_exit(127);
}

/* ------------------------------------------------------------ the enqueuer */

static void enqueuer_main(const struct bench_e2e *e, struct e2e_shared *sh)
{
	lq_db *db = NULL;
	lq_status st = lq_open(e->dsn, &db);
	int64_t now;
	if (st == LQ_OK)
		st = lq_now(db, &now);
	if (st != LQ_OK) {
		child_fail(sh, "e2e enqueuer: connect", db, st);
		_exit(1);
	}
	int64_t next = mono_us();
	for (int64_t k = 0; k < E2E_STAMPS && !__atomic_load_n(&sh->stop_enqueue, __ATOMIC_SEQ_CST); k++) {
		char payload[32];
		int n = snprintf(payload, sizeof(payload), "e2e %lld\n", (long long)k);
		lq_task_opts o = LQ_TASK_OPTS_INIT;
		o.queue = e->queue;
		o.payload = payload;
		o.payload_len = (size_t)n;
		if ((st = lq_task_add(db, "bench", &o, NULL, NULL)) != LQ_OK) {
			child_fail(sh, "e2e enqueuer: lq_task_add", db, st);
			break;
		}
		sh->commit_us[k] = mono_us();
		__atomic_store_n(&sh->enqueued, k + 1, __ATOMIC_SEQ_CST);
		next += e->enqueue_every_us;
		sleep_us(next - mono_us());
	}
	lq_close(db);
	_exit(st == LQ_OK ? 0 : 1);
}

/* ------------------------------------------------------------ the parent */

static pid_t spawn(void (*fn)(const struct bench_e2e *, struct e2e_shared *), const struct bench_e2e *e,
		   struct e2e_shared *sh)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(e, sh);
		_exit(0);
	}
	return pid;
}

static const char *fifo_path; /* for the forked reader */

static void reader_fn(const struct bench_e2e *e, struct e2e_shared *sh)
{
	(void)e;
	reader_main(sh, fifo_path);
}

static void worker_fn(const struct bench_e2e *e, struct e2e_shared *sh)
{
	(void)sh;
	if (e->w == BW_E2E_C)
		c_worker_main(e, sh);
	worker_exec(e, fifo_path);
}

static int stopped(const struct bench_e2e *e, const struct e2e_shared *sh)
{
	return (e->stop && *e->stop) || sh->failed;
}

/* Wait until cond(sh) or ms pass; 0 when it held. */
static int wait_for(const struct bench_e2e *e, struct e2e_shared *sh, int64_t target, int64_t ms)
{
	int64_t end = mono_us() + ms * 1000;
	while (__atomic_load_n(&sh->ran, __ATOMIC_SEQ_CST) < target) {
		if (stopped(e, sh) || mono_us() >= end)
			return -1;
		sleep_us(5000);
	}
	return 0;
}

int bench_e2e_run(const struct bench_e2e *e, struct bench_e2e_result *r, char *err, size_t errsize)
{
	pid_t pids[BENCH_CLIENTS_MAX], reader = -1, enq = -1;
	int n = 0, rc = 0;
	const char *tmp = getenv("TMPDIR");
	char dirbuf[4096];

	memset(r, 0, sizeof(*r));
	struct e2e_shared *sh =
		mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(err, errsize, "mmap: %s", strerror(errno));
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	dirbuf[0] = '\0';
	if (e->w == BW_E2E_WORKER) {
		if (tmp && *tmp && strlen(tmp) < sizeof(dirbuf) - 32)
			snprintf(dirbuf, sizeof(dirbuf), "%s/leaseq-bench-XXXXXX", tmp);
		else
			snprintf(dirbuf, sizeof(dirbuf), "/tmp/leaseq-bench-XXXXXX");
		if (!mkdtemp(dirbuf)) {
			snprintf(err, errsize, "mkdtemp: %s", strerror(errno));
			munmap(sh, sizeof(*sh));
			return -1;
		}
		static char fifobuf[4200];
		snprintf(fifobuf, sizeof(fifobuf), "%s/started", dirbuf);
		if (mkfifo(fifobuf, 0600) != 0) {
			snprintf(err, errsize, "mkfifo: %s", strerror(errno));
			rmdir(dirbuf);
			munmap(sh, sizeof(*sh));
			return -1;
		}
		fifo_path = fifobuf;
		reader = spawn(reader_fn, e, sh);
	}

	/* The workers, on a backlog of e->due due tasks. */
	for (n = 0; n < e->clients; n++)
		if ((pids[n] = spawn(worker_fn, e, sh)) < 0)
			break;
	if (n < e->clients) {
		snprintf(err, errsize, "fork: %s", strerror(errno));
		rc = -1;
	}
	int64_t t0 = 0, t1 = 0, n0 = 0, n1 = 0;
	if (rc == 0 && wait_for(e, sh, 1, E2E_START_MS) != 0 && !stopped(e, sh)) {
		snprintf(err, errsize, "%s: no task ran within %d s", bench_workloads[e->w].name, E2E_START_MS / 1000);
		rc = -1;
	}
	if (rc == 0 && !stopped(e, sh)) {
		sleep_us(E2E_WARMUP_MS * 1000);
		t0 = mono_us();
		n0 = __atomic_load_n(&sh->ran, __ATOMIC_SEQ_CST);
		while (!stopped(e, sh) && mono_us() < t0 + e->window_ms * 1000)
			sleep_us(10000);
		t1 = mono_us();
		n1 = __atomic_load_n(&sh->ran, __ATOMIC_SEQ_CST);
		r->window_rows = n1 - n0;
		r->window_us = t1 - t0;
		r->dry = n1 >= e->due;
		/* The rest of the backlog, so that the workers are idle: at
		 * the window's pace, with room to spare. */
		double rate = (double)(n1 - n0) * 1e6 / (double)(t1 - t0 > 0 ? t1 - t0 : 1);
		int64_t left_ms = rate > 0 ? (int64_t)((double)(e->due - n1) / rate * 3000) : 0;
		if (wait_for(e, sh, e->due, left_ms > E2E_START_MS ? left_ms : E2E_START_MS) != 0 && !stopped(e, sh)) {
			snprintf(err, errsize, "%s: %lld of the %lld due tasks ran", bench_workloads[e->w].name,
				 (long long)sh->ran, (long long)e->due);
			rc = -1;
		}
	}
	/* Pickup latency: the enqueuer's trickle on idle workers. */
	if (rc == 0 && !stopped(e, sh)) {
		sleep_us(200 * 1000);
		/* A trickle, a quarter of what the workers just did at most:
		 * the latency of idle workers, not of a queue that builds up. */
		struct bench_e2e pace = *e;
		if (r->window_rows > 0 && 4 * r->window_us / r->window_rows > pace.enqueue_every_us)
			pace.enqueue_every_us = 4 * r->window_us / r->window_rows;
		r->enqueue_every_us = pace.enqueue_every_us;
		enq = spawn(enqueuer_main, &pace, sh);
		int64_t end = mono_us() + e->window_ms * 1000;
		while (!stopped(e, sh) && mono_us() < end)
			sleep_us(10000);
		__atomic_store_n(&sh->stop_enqueue, 1, __ATOMIC_SEQ_CST);
		while (waitpid(enq, NULL, 0) < 0 && errno == EINTR)
			;
		enq = -1;
		r->enqueued = sh->enqueued;
		if (wait_for(e, sh, e->due + r->enqueued, E2E_STRAGGLE_MS) != 0 && !stopped(e, sh)) {
			snprintf(err, errsize, "%s: %lld of the %lld enqueued tasks ran within %d s",
				 bench_workloads[e->w].name, (long long)(sh->ran - e->due), (long long)r->enqueued,
				 E2E_STRAGGLE_MS / 1000);
			rc = -1;
		}
	}
	if (enq > 0) {
		sh->stop_enqueue = 1;
		while (waitpid(enq, NULL, 0) < 0 && errno == EINTR)
			;
	}
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	for (int i = 0; i < n; i++) {
		struct rusage ru;
		int status = 0;
		memset(&ru, 0, sizeof(ru));
		while (wait4(pids[i], &status, 0, &ru) < 0 && errno == EINTR)
			;
		if ((int64_t)ru.ru_maxrss > r->rss_kb)
			r->rss_kb = (int64_t)ru.ru_maxrss;
		if (rc == 0 && !stopped(e, sh) && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			snprintf(err, errsize, "%s: worker %d ended badly (status %d)", bench_workloads[e->w].name, i,
				 status);
			rc = -1;
		}
	}
	if (reader > 0) {
		sh->stop_reader = 1;
		while (waitpid(reader, NULL, 0) < 0 && errno == EINTR)
			;
		unlink(fifo_path);
		rmdir(dirbuf);
	}
	if (rc == 0 && sh->failed) {
		sh->err[sizeof(sh->err) - 1] = '\0';
		snprintf(err, errsize, "%s", sh->err);
		rc = -1;
	}
	r->ran = sh->ran;
	for (int64_t k = 0; k < r->enqueued && k < E2E_STAMPS; k++) {
		if (!sh->start_us[k] || !sh->commit_us[k])
			continue;
		int64_t d = sh->start_us[k] - sh->commit_us[k];
		bench_hist_add(&r->hist, d > 0 ? d : 0);
		r->picked++;
	}
	munmap(sh, sizeof(*sh));
	if (rc == 0 && e->stop && *e->stop)
		rc = 1;
	return rc;
}
