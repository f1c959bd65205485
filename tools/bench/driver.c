/*
 * driver.c - leasectl bench's processes.  Each client is a process of its
 * own with its own connection; the clients of a run connect, wait at a
 * barrier (a pipe the parent closes), run for the same time and report
 * through a pipe.  Every cell (workload x clients) runs leaseq, raw, raw,
 * leaseq for half the duration each, so that neither side always meets the
 * warmer cache or the fuller table.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "leaseq.h"

enum side { SIDE_LQ = 0, SIDE_RAW = 1 };

/* What a client sends back (one write, one read). */
struct report {
	int64_t ops, rows, empty, statements, elapsed_us, rss_start_kb, rss_kb;
	int failed;
	char err[512];
	struct bench_hist hist;
};

/* The sum of a side's runs in a cell. */
struct agg {
	int64_t ops, rows, empty, statements, elapsed_us, rss_kb, rss_start_kb;
	struct bench_hist hist;
};

struct run {
	const struct bench_opts *o;
	const struct bench_raw_ops *raw;
	struct bench_names names;
	int64_t due_left;              /* due tasks left in the claim queue */
	int filled_pending, filled_recurring, filled_idle, filled_e2e;
	int filled_lib[BENCH_QUEUE_KINDS];       /* the queues the library fills, by kind */
	int64_t e2e_due_left[2];       /* due tasks left in the e2e queues (workers, raw) */
	struct bench_names e2e_names;  /* names with claim_queue = e2e_queue */
	const struct bench_names *job_names; /* what the clients use */
	int64_t lib_due_left[BENCH_QUEUE_KINDS]; /* and in those */
	double est_rate[BW__COUNT];    /* rows/s seen: how much to top up */
	int64_t *live;                 /* rows so far, per client (shared memory) */
	char *err;
	size_t errsize;
	int progress_shown;
};

static int64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int stopped(const struct run *run)
{
	return run->o->stop && *run->o->stop;
}

static int64_t max_rss_kb(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : 0;
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read exactly n bytes within timeout_ms: 0, or -1 (EOF, error, timeout). */
static int read_all(int fd, void *buf, size_t n, int64_t timeout_ms)
{
	char *p = buf;
	int64_t end = mono_us() + timeout_ms * 1000;
	while (n > 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int64_t left = (end - mono_us()) / 1000;
		if (left <= 0)
			return -1;
		int pr = poll(&pfd, 1, (int)(left > 1000 ? 1000 : left));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue;
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* ------------------------------------------------------------ the client */

static volatile sig_atomic_t child_stop;

static void on_child_signal(int sig)
{
	(void)sig;
	child_stop = 1;
}

static void client_job(const struct run *run, enum bench_workload w, int client, struct bench_job *job)
{
	memset(job, 0, sizeof(*job));
	job->w = w;
	job->names = run->job_names;
	job->client = client;
	snprintf(job->owner, sizeof(job->owner), "bench-%d-%ld", client, (long)getpid());
	if (w == BW_LEASE_HOT)
		snprintf(job->lease, sizeof(job->lease), "%s", run->names.hot_lease);
	else
		snprintf(job->lease, sizeof(job->lease), "%s-l%d", run->names.base, client);
}

static void client_main(struct run *run, enum side side, enum bench_workload w, int client, int64_t ms,
			int ready_fd, int go_fd, int res_fd)
{
	static struct report rep;
	struct bench_job job;
	struct bench_lq *lq = NULL;
	struct bench_raw *raw = NULL;
	struct sigaction sa;
	char c;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(&rep, 0, sizeof(rep));
	client_job(run, w, client, &job);

	int rc = side == SIDE_LQ ? bench_lq_open(run->o->dsn, &job, &lq, rep.err, sizeof(rep.err))
				 : run->raw->open(run->o->dsn, &raw, rep.err, sizeof(rep.err));
	c = rc == 0 ? 'r' : 'x';
	if (write_all(ready_fd, &c, 1) != 0 || rc != 0) {
		rep.failed = 1;
		(void)write_all(res_fd, &rep, sizeof(rep));
		_exit(1);
	}
	/* The barrier: the parent closes the pipe once every client is ready. */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR && !child_stop)
		;
	rep.rss_start_kb = max_rss_kb();
	int64_t st0 = side == SIDE_LQ ? bench_lq_statements(lq) : run->raw->statements(raw);
	int64_t t0 = mono_us(), end = t0 + ms * 1000, last = t0;
	while (!child_stop) {
		struct bench_op op = {0, 0};
		int64_t a = mono_us();
		if (a >= end)
			break;
		if (side == SIDE_LQ) {
			rc = bench_lq_op(lq, &op, rep.err, sizeof(rep.err));
		} else {
			rc = run->raw->op(raw, &job, &op);
			if (rc != 0)
				snprintf(rep.err, sizeof(rep.err), "raw %s: %s", bench_workloads[w].name,
					 run->raw->errmsg(raw));
		}
		last = mono_us();
		if (rc != 0) {
			rep.failed = 1;
			break;
		}
		bench_hist_add(&rep.hist, last - a);
		rep.ops++;
		rep.rows += op.rows;
		__atomic_store_n(&run->live[client], rep.rows, __ATOMIC_RELAXED);
		if (op.empty && bench_workloads[w].claims) {
			/* Dry: the parent tops the queue up and runs again. */
			rep.empty++;
			break;
		}
	}
	rep.elapsed_us = last - t0;
	rep.statements = (side == SIDE_LQ ? bench_lq_statements(lq) : run->raw->statements(raw)) - st0;
	rep.rss_kb = max_rss_kb();
	(void)write_all(res_fd, &rep, sizeof(rep));
	if (lq)
		bench_lq_close(lq);
	if (raw)
		run->raw->close(raw);
	_exit(rep.failed ? 1 : 0);
}

/* ------------------------------------------------------------ the parent */

static void progress(struct run *run, const char *what, int clients, int64_t t0, int64_t ms)
{
	if (!run->o->progress)
		return;
	int64_t rows = 0, el = mono_us() - t0;
	for (int i = 0; i < clients; i++)
		rows += __atomic_load_n(&run->live[i], __ATOMIC_RELAXED);
	fprintf(stderr, "\r\033[K%s  %.1fs/%.1fs  %.0f rows/s", what, (double)el / 1e6, (double)ms / 1e3,
		el > 0 ? (double)rows * 1e6 / (double)el : 0.0);
	fflush(stderr);
	run->progress_shown = 1;
}

static void progress_clear(struct run *run)
{
	if (run->progress_shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		run->progress_shown = 0;
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* One side of one cell for ms milliseconds: clients processes at once. */
static int run_side(struct run *run, enum side side, enum bench_workload w, int clients, int64_t ms,
		    const char *label, struct agg *out)
{
	int ready[2] = {-1, -1}, go[2] = {-1, -1}, res[BENCH_CLIENTS_MAX];
	pid_t pids[BENCH_CLIENTS_MAX];
	struct report *rep = calloc((size_t)clients, sizeof(*rep));
	int n = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	if (!rep) {
		snprintf(run->err, run->errsize, "out of memory");
		return -1;
	}
	for (int i = 0; i < clients; i++) {
		res[i] = -1;
		run->live[i] = 0;
	}
	if (pipe(ready) != 0 || pipe(go) != 0) {
		snprintf(run->err, run->errsize, "pipe: %s", strerror(errno));
		rc = -1;
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	for (n = 0; n < clients; n++) {
		int r[2];
		if (pipe(r) != 0) {
			snprintf(run->err, run->errsize, "pipe: %s", strerror(errno));
			rc = -1;
			break;
		}
		pid_t pid = fork();
		if (pid < 0) {
			snprintf(run->err, run->errsize, "fork: %s", strerror(errno));
			close(r[0]);
			close(r[1]);
			rc = -1;
			break;
		}
		if (pid == 0) {
			close(r[0]);
			close(ready[0]);
			close(go[1]);
			for (int i = 0; i < n; i++)
				close(res[i]);
			client_main(run, side, w, n, ms, ready[1], go[0], r[1]);
		}
		close(r[1]);
		res[n] = r[0];
		pids[n] = pid;
	}
	close_fd(&ready[1]);
	close_fd(&go[0]);

	/* Wait until every client has connected (or said why not). */
	int ready_n = 0, bad = 0;
	int64_t wait_end = mono_us() + 60 * 1000000LL;
	while (rc == 0 && ready_n < n && !stopped(run) && mono_us() < wait_end) {
		struct pollfd pfd = {.fd = ready[0], .events = POLLIN};
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		char c;
		ssize_t r = read(ready[0], &c, 1);
		if (r <= 0)
			break;
		ready_n++;
		bad |= c != 'r';
	}
	/* Go (the failed ones have exited already). */
	int64_t t0 = mono_us();
	close_fd(&go[1]);
	if (rc == 0 && !bad && ready_n == n) {
		while (!stopped(run) && mono_us() < t0 + ms * 1000) {
			progress(run, label, n, t0, ms);
			poll(NULL, 0, 100);
		}
	}
	if (stopped(run) || rc != 0 || bad || ready_n < n)
		for (int i = 0; i < n; i++)
			kill(pids[i], SIGTERM);
	for (int i = 0; i < n; i++) {
		if (read_all(res[i], &rep[i], sizeof(rep[i]), 30000) != 0) {
			kill(pids[i], SIGKILL);
			if (rc == 0 && !stopped(run)) {
				snprintf(run->err, run->errsize, "%s: client %d did not report (stuck or crashed)", label, i);
				rc = -1;
			}
		}
	}
	for (int i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (rc == 0 && !stopped(run) && ready_n < n) {
		snprintf(run->err, run->errsize, "%s: %d of %d clients did not connect within 60 s", label, n - ready_n,
			 n);
		rc = -1;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		if (rep[i].failed && !stopped(run)) {
			rep[i].err[sizeof(rep[i].err) - 1] = '\0';
			snprintf(run->err, run->errsize, "%s, client %d: %s", label, i, rep[i].err);
			rc = -1;
			break;
		}
		out->ops += rep[i].ops;
		out->rows += rep[i].rows;
		out->empty += rep[i].empty;
		out->statements += rep[i].statements;
		if (rep[i].elapsed_us > out->elapsed_us)
			out->elapsed_us = rep[i].elapsed_us;
		if (rep[i].rss_kb > out->rss_kb)
			out->rss_kb = rep[i].rss_kb;
		if (rep[i].rss_start_kb > out->rss_start_kb)
			out->rss_start_kb = rep[i].rss_start_kb;
		bench_hist_merge(&out->hist, &rep[i].hist);
	}
out:
	progress_clear(run);
	close_fd(&ready[0]);
	close_fd(&ready[1]);
	close_fd(&go[0]);
	close_fd(&go[1]);
	for (int i = 0; i < n; i++)
		close_fd(&res[i]);
	free(rep);
	if (rc == 0 && stopped(run))
		rc = 1;
	return rc;
}

/* ------------------------------------------------------------ the queues */

static int admin_fill(struct run *run, const char *queue, int64_t n, enum bench_fill kind)
{
	struct bench_raw *r = NULL;
	if (n <= 0)
		return 0;
	if (run->o->progress) {
		fprintf(stderr, "\r\033[Kfilling %s with %lld tasks", queue, (long long)n);
		fflush(stderr);
		run->progress_shown = 1;
	}
	int rc = run->raw->open(run->o->dsn, &r, run->err, run->errsize);
	if (rc == 0) {
		rc = run->raw->fill(r, queue, n, kind, run->o->stop);
		if (rc != 0 && !stopped(run))
			snprintf(run->err, run->errsize, "filling %s: %s", queue, run->raw->errmsg(r));
		run->raw->close(r);
	}
	progress_clear(run);
	if (stopped(run))
		return 1;
	return rc;
}

/* n tasks into the queue of a kind that the library fills (only it gives
 * tasks partitions and keys under limits): the fair queue's go round
 * BENCH_PARTITIONS partitions; the capped and rated queues' have the queue's
 * name as their concurrency key, whose limit the first fill sets (a cap of
 * a million running, a rate of a million starts a second: limits that are
 * checked on every claim and never hold one back).  Every second task due
 * in a year when interleaved (as BF_INTERLEAVED).  1000 to a transaction. */
static int lib_fill(struct run *run, int kind, int64_t n, int interleaved)
{
	static lq_task_opts opts[1000];
	static const lq_task_opts *po[1000];
	static const char *names[1000];
	static char parts[BENCH_PARTITIONS][8];
	const char *queue = bench_kind_queue(&run->names, kind);
	lq_db *db = NULL;
	lq_status st = lq_open(run->o->dsn, &db);
	for (int p = 0; p < BENCH_PARTITIONS; p++)
		snprintf(parts[p], sizeof(parts[p]), "p%d", p);
	if (st == LQ_OK && kind != BENCH_FAIR_QUEUE && !run->filled_lib[kind]) {
		lq_limit l;
		memset(&l, 0, sizeof(l));
		snprintf(l.key, sizeof(l.key), "%s", queue);
		if (kind == BENCH_CAPPED_QUEUE) {
			l.concurrency = 1000000;
		} else {
			l.rate_n = LQ_LIMIT_RATE_MAX;
			l.rate_period_ms = 1000;
		}
		st = lq_limit_set(db, &l);
	}
	for (int64_t done = 0; st == LQ_OK && done < n && !stopped(run);) {
		size_t k = 0;
		for (; k < 1000 && done < n; k++, done++) {
			lq_task_opts o = LQ_TASK_OPTS_INIT;
			o.queue = queue;
			o.payload = BENCH_PAYLOAD;
			o.payload_len = BENCH_PAYLOAD_LEN;
			if (kind == BENCH_FAIR_QUEUE)
				o.partition = parts[done % BENCH_PARTITIONS];
			else
				o.concurrency_key = queue;
			o.delay_ms = interleaved && done % 2 ? 365LL * 24 * 3600 * 1000 : 0;
			opts[k] = o;
			po[k] = &opts[k];
			names[k] = "bench";
		}
		st = lq_task_add_many(db, k, names, po, NULL, NULL, NULL);
	}
	if (st != LQ_OK)
		snprintf(run->err, run->errsize, "filling %s: %s", queue,
			 db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
	lq_close(db);
	if (stopped(run))
		return 1;
	return st == LQ_OK ? 0 : -1;
}

/* Enough due tasks in the claim queue for one run of w, and the fixed
 * queues of the other workloads. */
static int prepare(struct run *run, enum bench_workload w, int clients, int64_t ms)
{
	int rc = 0;
	int kind = bench_workloads[w].claims;
	if (kind > BENCH_CLAIM_QUEUE) {
		if (!run->filled_lib[kind]) {
			rc = lib_fill(run, kind, run->o->pending, 1);
			run->filled_lib[kind] = 1;
			run->lib_due_left[kind] += run->o->pending / 2;
		}
		double need = run->est_rate[w] * (double)ms / 1000.0 * 1.5 + BENCH_BATCH * clients + 100;
		if (rc == 0 && (double)run->lib_due_left[kind] < need) {
			int64_t add = (int64_t)(2 * need) - run->lib_due_left[kind];
			rc = lib_fill(run, kind, add, 0);
			run->lib_due_left[kind] += add;
		}
		return rc;
	}
	if (bench_workloads[w].claims && !run->filled_pending) {
		run->filled_pending = 1;
		rc = admin_fill(run, run->names.claim_queue, run->o->pending, BF_INTERLEAVED);
		run->due_left += run->o->pending / 2;
	}
	if (rc == 0 && bench_workloads[w].claims) {
		double need = run->est_rate[w] * (double)ms / 1000.0 * 1.5 + BENCH_BATCH * clients + 100;
		if ((double)run->due_left < need) {
			int64_t add = (int64_t)(2 * need) - run->due_left;
			rc = admin_fill(run, run->names.claim_queue, add, BF_DUE);
			run->due_left += add;
		}
	}
	if (rc == 0 && w == BW_RECURRING && !run->filled_recurring) {
		run->filled_recurring = 1;
		rc = admin_fill(run, run->names.recurring_queue, BENCH_RECURRING_TASKS, BF_RECURRING);
	}
	if (rc == 0 && w == BW_TICK_IDLE && !run->filled_idle) {
		run->filled_idle = 1;
		rc = admin_fill(run, run->names.idle_queue, 100, BF_FUTURE);
	}
	return rc;
}

/* The e2e queues, the workers' (0) and the raw side's (1): --pending tasks
 * due in a year each (what a claim searches), and at least need due ones. */
static int prepare_e2e(struct run *run, int q, double need)
{
	const char *queue = q ? run->names.e2e_raw_queue : run->names.e2e_queue;
	int rc = 0;
	if (!(run->filled_e2e & (1 << q))) {
		run->filled_e2e |= 1 << q;
		rc = admin_fill(run, queue, run->o->pending, BF_FUTURE);
	}
	if (rc == 0 && (double)run->e2e_due_left[q] < need) {
		int64_t add = (int64_t)need - run->e2e_due_left[q];
		rc = admin_fill(run, queue, add, BF_DUE);
		run->e2e_due_left[q] += add;
	}
	return rc;
}

static void agg_add(struct agg *into, const struct agg *a)
{
	into->ops += a->ops;
	into->rows += a->rows;
	into->empty += a->empty;
	into->statements += a->statements;
	into->elapsed_us += a->elapsed_us;
	if (a->rss_kb > into->rss_kb)
		into->rss_kb = a->rss_kb;
	if (a->rss_start_kb > into->rss_start_kb)
		into->rss_start_kb = a->rss_start_kb;
	bench_hist_merge(&into->hist, &a->hist);
}

static void side_result(const struct agg *a, struct bench_side_result *r)
{
	double s = (double)a->elapsed_us / 1e6;
	memset(r, 0, sizeof(*r));
	r->ops = a->ops;
	r->rows = a->rows;
	r->ops_s = s > 0 ? (double)a->ops / s : 0;
	r->rows_s = s > 0 ? (double)a->rows / s : 0;
	r->p50_us = bench_hist_quantile(&a->hist, 0.50);
	r->p99_us = bench_hist_quantile(&a->hist, 0.99);
	r->stmts_per_op = a->ops > 0 ? (double)a->statements / (double)a->ops : 0;
	r->rss_kb = a->rss_kb;
	r->rss_start_kb = a->rss_start_kb;
}

static int settle(struct run *run)
{
	struct bench_raw *r = NULL;
	if (!run->raw->settle)
		return 0;
	int rc = run->raw->open(run->o->dsn, &r, run->err, run->errsize);
	if (rc == 0) {
		if ((rc = run->raw->settle(r)) != 0)
			snprintf(run->err, run->errsize, "between runs: %s", run->raw->errmsg(r));
		run->raw->close(r);
	}
	return rc;
}

/* Real workers (e2e.c) between two quarters of the raw claim-ack on the
 * same queue with as many clients: raw, workers, raw. */
static int run_e2e_cell(struct run *run, enum bench_workload w, int clients, struct bench_result *res)
{
	int64_t half = run->o->duration_ms / 2, quarter = half / 2;
	struct agg raw_total, a;
	struct bench_e2e_result er;
	int rc = 0;
	memset(&raw_total, 0, sizeof(raw_total));
	memset(&er, 0, sizeof(er));
	memset(res, 0, sizeof(*res));
	res->w = w;
	res->clients = clients;
	res->pending = run->o->pending;
	if (quarter < 50)
		quarter = 50;
	for (int k = 0; k < 3 && rc == 0; k++) {
		char label[160];
		snprintf(label, sizeof(label), "%s %s, %d client%s, %s (%d/3)", run->o->backend,
			 bench_workloads[w].name, clients, clients == 1 ? "" : "s", k == 1 ? "workers" : "raw", k + 1);
		if (k != 1) {
			double need = run->est_rate[BW_CLAIM_ACK] * (double)quarter / 1000.0 * 2 + 100.0 * clients;
			if ((rc = prepare_e2e(run, 1, need)) != 0 || (k == 0 && (rc = settle(run)) != 0))
				break;
			run->job_names = &run->e2e_names;
			rc = run_side(run, SIDE_RAW, BW_CLAIM_ACK, clients, quarter, label, &a);
			run->job_names = &run->names;
			if (rc != 0)
				break;
			run->e2e_due_left[1] -= a.rows;
			if (a.elapsed_us > 0 &&
			    (double)a.rows * 1e6 / (double)a.elapsed_us > run->est_rate[BW_CLAIM_ACK])
				run->est_rate[BW_CLAIM_ACK] = (double)a.rows * 1e6 / (double)a.elapsed_us;
			if (a.empty)
				res->dry = 1;
			agg_add(&raw_total, &a);
			continue;
		}
		for (int attempt = 0;; attempt++) {
			double need = run->est_rate[w] * (double)half / 1000.0 * 1.5 + 20.0 * clients + 50;
			if ((rc = prepare_e2e(run, 0, need)) != 0)
				break;
			struct bench_e2e e = {
				.dsn = run->o->dsn,
				.leasectl = run->o->leasectl,
				.queue = run->names.e2e_queue,
				.w = w,
				.clients = clients,
				.due = run->e2e_due_left[0],
				.window_ms = half,
				.enqueue_every_us = BENCH_E2E_EVERY_US * (w == BW_E2E_WORKER ? 2 : 1),
				.stop = run->o->stop,
			};
			if (run->o->progress) {
				fprintf(stderr, "\r\033[K%s", label);
				fflush(stderr);
				run->progress_shown = 1;
			}
			rc = bench_e2e_run(&e, &er, run->err, run->errsize);
			progress_clear(run);
			if (rc != 0)
				break;
			/* The workers ran every due task, and the enqueued ones. */
			run->e2e_due_left[0] = 0;
			double rate = er.window_us > 0 ? (double)er.window_rows * 1e6 / (double)er.window_us : 0;
			if (rate > run->est_rate[w])
				run->est_rate[w] = rate;
			if (er.dry && attempt < 3) {
				run->est_rate[w] *= 2;
				continue;
			}
			res->dry |= er.dry;
			break;
		}
	}
	if (rc != 0)
		return rc == 1 || stopped(run) ? 1 : rc;
	side_result(&raw_total, &res->raw);
	struct bench_side_result *l = &res->lq;
	double s = (double)er.window_us / 1e6;
	l->ops = l->rows = er.window_rows;
	l->ops_s = l->rows_s = s > 0 ? (double)er.window_rows / s : 0;
	l->p50_us = bench_hist_quantile(&er.hist, 0.50);
	l->p99_us = bench_hist_quantile(&er.hist, 0.99);
	l->rss_kb = er.rss_kb;
	res->enqueued = er.enqueued;
	res->enqueue_every_us = er.enqueue_every_us;
	res->ratio = res->raw.rows_s > 0 ? l->rows_s / res->raw.rows_s : 0;
	return 0;
}

static int run_cell(struct run *run, enum bench_workload w, int clients, struct bench_result *res)
{
	if (BENCH_IS_E2E(w))
		return run_e2e_cell(run, w, clients, res);
	static const enum side order[4] = {SIDE_LQ, SIDE_RAW, SIDE_RAW, SIDE_LQ};
	struct agg total[2];
	int64_t half = run->o->duration_ms / 2;
	memset(total, 0, sizeof(total));
	memset(res, 0, sizeof(*res));
	res->w = w;
	res->clients = clients;
	res->pending = bench_workloads[w].claims ? run->o->pending : 0;
	if (half < 50)
		half = 50;
	for (int k = 0; k < 4; k++) {
		for (int attempt = 0;; attempt++) {
			char label[160];
			struct agg a;
			int rc = prepare(run, w, clients, half);
			if (rc == 0 && k == 0 && attempt == 0)
				rc = settle(run);
			if (rc != 0)
				return rc;
			snprintf(label, sizeof(label), "%s %s, %d client%s, %s (%d/4)", run->o->backend,
				 bench_workloads[w].name, clients, clients == 1 ? "" : "s",
				 order[k] == SIDE_LQ ? "leaseq" : "raw", k + 1);
			if ((rc = run_side(run, order[k], w, clients, half, label, &a)) != 0)
				return rc;
			double rate = a.elapsed_us > 0 ? (double)a.rows * 1e6 / (double)a.elapsed_us : 0;
			int kind = bench_workloads[w].claims;
			int64_t *due_left = kind > BENCH_CLAIM_QUEUE ? &run->lib_due_left[kind] : &run->due_left;
			if (bench_workloads[w].claims)
				*due_left -= a.rows;
			if (rate > run->est_rate[w])
				run->est_rate[w] = rate;
			if (a.empty && bench_workloads[w].claims && attempt < 3) {
				/* Ran dry: top up more and run this side again. */
				run->est_rate[w] *= 2;
				*due_left = 0;
				continue;
			}
			if (a.empty)
				res->dry = 1;
			agg_add(&total[order[k]], &a);
			break;
		}
	}
	side_result(&total[SIDE_LQ], &res->lq);
	side_result(&total[SIDE_RAW], &res->raw);
	res->ratio = res->raw.rows_s > 0 ? res->lq.rows_s / res->raw.rows_s : 0;
	return 0;
}

static uint32_t random_tag(void)
{
	uint32_t tag = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (!f || fread(&tag, sizeof(tag), 1, f) != 1) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		tag = (uint32_t)ts.tv_nsec ^ (uint32_t)getpid() << 16;
	}
	if (f)
		fclose(f);
	return tag;
}

static int cleanup(struct run *run)
{
	struct bench_raw *r = NULL;
	char err[512];
	int rc = run->raw->open(run->o->dsn, &r, err, sizeof(err));
	if (rc == 0) {
		rc = run->raw->cleanup(r, &run->names);
		if (rc != 0)
			snprintf(err, sizeof(err), "%s", run->raw->errmsg(r));
		run->raw->close(r);
	}
	if (rc == 0 && run->filled_lib[BENCH_FAIR_QUEUE]) {
		/* A claim of the emptied fair queue forgets its partitions. */
		lq_db *db = NULL;
		lq_task t;
		size_t n = 0;
		lq_status st = lq_open(run->o->dsn, &db);
		if (st == LQ_OK)
			st = lq_task_claim(db, run->names.fair_queue, LQ_AT_MOST_ONCE, 0, &t, 1, &n);
		if (st != LQ_EMPTY) {
			snprintf(err, sizeof(err), "%s", db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
			rc = -1;
		}
		if (st == LQ_OK)
			lq_task_clear(&t);
		lq_close(db);
	}
	for (int kind = BENCH_CAPPED_QUEUE; rc == 0 && kind <= BENCH_RATED_QUEUE; kind++) {
		if (!run->filled_lib[kind])
			continue;
		lq_db *db = NULL;
		lq_status st = lq_open(run->o->dsn, &db);
		if (st == LQ_OK)
			st = lq_limit_remove(db, bench_kind_queue(&run->names, kind));
		if (st != LQ_OK && st != LQ_NOTFOUND) {
			snprintf(err, sizeof(err), "%s", db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
			rc = -1;
		}
		lq_close(db);
	}
	if (rc != 0)
		snprintf(run->err, run->errsize, "removing the queues and leases %s-*: %s", run->names.base, err);
	return rc;
}

int bench_run(const struct bench_opts *o, bench_result_fn fn, void *ctx, char *err, size_t errsize)
{
	struct run run;
	memset(&run, 0, sizeof(run));
	run.o = o;
	run.err = err;
	run.errsize = errsize;
	err[0] = '\0';
	run.raw = bench_raw_for(o->backend);
	if (!run.raw) {
		snprintf(err, errsize, "this leasectl has no raw baseline for %s", o->backend);
		return -1;
	}
	run.est_rate[BW_CLAIM] = 20000;
	run.est_rate[BW_CLAIM_ACK] = 10000;
	run.est_rate[BW_CLAIM_RUN] = 15000;
	run.est_rate[BW_CLAIM_BATCH] = 80000;
	run.est_rate[BW_E2E_C] = 3000;
	run.est_rate[BW_E2E_WORKER] = 100;
	run.est_rate[BW_CLAIM_FAIR] = 20000;
	run.est_rate[BW_CLAIM_FAIR_BATCH] = 80000;
	run.est_rate[BW_CLAIM_CAPPED] = 10000;
	run.est_rate[BW_CLAIM_RATED] = 20000;
	bench_names_init(&run.names, random_tag());
	run.e2e_names = run.names;
	memcpy(run.e2e_names.claim_queue, run.names.e2e_raw_queue, sizeof(run.e2e_names.claim_queue));
	run.job_names = &run.names;
	run.live = mmap(NULL, BENCH_CLIENTS_MAX * sizeof(int64_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	if (run.live == MAP_FAILED) {
		snprintf(err, errsize, "mmap: %s", strerror(errno));
		return -1;
	}

	int rc = 0;
	for (int w = 0; w < BW__COUNT && rc == 0; w++) {
		if (!(o->workloads & (1u << w)))
			continue;
		for (int i = 0; i < o->nclients && rc == 0; i++) {
			struct bench_result res;
			rc = run_cell(&run, (enum bench_workload)w, o->clients[i], &res);
			if (rc == 0 && fn)
				fn(&res, ctx);
		}
	}
	progress_clear(&run);

	/* Leave nothing behind, keeping the first error's message. */
	char saved[1024];
	snprintf(saved, sizeof(saved), "%s", err);
	int crc = cleanup(&run);
	if (rc != 0)
		snprintf(err, errsize, "%s", saved);
	else if (crc != 0)
		rc = -1;
	munmap(run.live, BENCH_CLIENTS_MAX * sizeof(int64_t));
	return rc;
}
