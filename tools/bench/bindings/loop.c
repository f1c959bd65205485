/*
 * loop.c - the C side of tools/bench-bindings: the same loops as loop.php
 * and loop.py, on lib/leaseq.h through the shared library the bindings
 * load, one process and one connection.  It reads commands on standard
 * input, one a line, and answers each with one line:
 *
 *   lease NAME SECONDS     lq_lease_acquire (no wait) + lq_lease_release
 *   enqueue QUEUE SECONDS  lq_task_add of a 16-byte payload
 *   claim QUEUE SECONDS    lq_task_claim of 1, at-least-once + lq_task_ack
 *                          -> "ok OPS SECONDS_SPENT CPU_SECONDS" (the
 *                             process's user + system time meanwhile;
 *                             claim stops early, adding " empty", when the
 *                             queue runs out)
 *   fill QUEUE N           lq_task_add_many, 100 a call -> "ok N"
 *   drain QUEUE            claim at-most-once, 100 a call, until nothing
 *                          is due -> "ok N"
 *   pace QUEUE N MS        lq_task_add N tasks, one every MS on average
 *                          (0.5 to 1.5 times MS apart, so that arrivals
 *                          do not keep step with a poller) -> one line
 *                          "ID EPOCH_SECONDS" per task, the wall clock when
 *                          lq_task_add returned (committed), then "ok N"
 *   quit
 *
 * A failure answers "err TEXT".  A measurement tool: nothing is asserted.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "leaseq.h"

#define PAYLOAD "leaseq bench 16b"
#define TTL_MS 30000
#define BATCH 100

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's CPU time, user + system. */
static double cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int fail(lq_db *db, const char *what, lq_status st)
{
	printf("err %s: %s\n", what, *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
	return -1;
}

static int lease(lq_db *db, const char *name, double secs)
{
	long n = 0;
	double t0 = mono(), c0 = cpu(), t;
	do {
		lq_lease l;
		lq_status st = lq_lease_acquire(db, name, TTL_MS, NULL, 0, &l);
		if (st != LQ_OK)
			return fail(db, "lq_lease_acquire", st);
		if ((st = lq_lease_release(db, &l)) != LQ_OK)
			return fail(db, "lq_lease_release", st);
		n++;
	} while ((t = mono()) - t0 < secs);
	printf("ok %ld %.6f %.6f\n", n, t - t0, cpu() - c0);
	return 0;
}

static int enqueue(lq_db *db, const char *queue, double secs)
{
	long n = 0;
	double t0 = mono(), c0 = cpu(), t;
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = queue;
	o.payload = PAYLOAD;
	o.payload_len = strlen(PAYLOAD);
	do {
		int64_t id;
		lq_status st = lq_task_add(db, "bench", &o, &id, NULL);
		if (st != LQ_OK)
			return fail(db, "lq_task_add", st);
		n++;
	} while ((t = mono()) - t0 < secs);
	printf("ok %ld %.6f %.6f\n", n, t - t0, cpu() - c0);
	return 0;
}

static int claim(lq_db *db, const char *queue, double secs)
{
	long n = 0;
	int empty = 0;
	double t0 = mono(), c0 = cpu(), t;
	do {
		lq_task task;
		size_t got = 0;
		lq_status st = lq_task_claim(db, queue, LQ_AT_LEAST_ONCE, TTL_MS, &task, 1, &got);
		if (st == LQ_EMPTY) {
			empty = 1;
			t = mono();
			break;
		}
		if (st != LQ_OK)
			return fail(db, "lq_task_claim", st);
		st = lq_task_ack(db, &task);
		lq_task_clear(&task);
		if (st != LQ_OK)
			return fail(db, "lq_task_ack", st);
		n++;
	} while ((t = mono()) - t0 < secs);
	printf("ok %ld %.6f %.6f%s\n", n, t - t0, cpu() - c0, empty ? " empty" : "");
	return 0;
}

static int fill(lq_db *db, const char *queue, long count)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	const char *names[BATCH];
	const lq_task_opts *opts[BATCH];
	o.queue = queue;
	o.payload = PAYLOAD;
	o.payload_len = strlen(PAYLOAD);
	for (int i = 0; i < BATCH; i++) {
		names[i] = "bench";
		opts[i] = &o;
	}
	for (long done = 0; done < count;) {
		size_t k = count - done < BATCH ? (size_t)(count - done) : BATCH;
		lq_status st = lq_task_add_many(db, k, names, opts, NULL, NULL, NULL);
		if (st != LQ_OK)
			return fail(db, "lq_task_add_many", st);
		done += (long)k;
	}
	printf("ok %ld\n", count);
	return 0;
}

static int drain(lq_db *db, const char *queue)
{
	static lq_task tasks[BATCH];
	long n = 0;
	for (;;) {
		size_t got = 0;
		lq_status st = lq_task_claim(db, queue, LQ_AT_MOST_ONCE, 0, tasks, BATCH, &got);
		if (st == LQ_EMPTY)
			break;
		if (st != LQ_OK)
			return fail(db, "lq_task_claim", st);
		for (size_t i = 0; i < got; i++)
			lq_task_clear(&tasks[i]);
		n += (long)got;
	}
	printf("ok %ld\n", n);
	return 0;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int pace(lq_db *db, const char *queue, long count, double ms)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	o.queue = queue;
	o.payload = PAYLOAD;
	o.payload_len = strlen(PAYLOAD);
	srand((unsigned)wall());
	for (long i = 0; i < count; i++) {
		double gap = ms * (0.5 + (double)rand() / RAND_MAX) / 1e3;
		struct timespec ts = {(time_t)gap, (long)((gap - (double)(time_t)gap) * 1e9)};
		nanosleep(&ts, NULL);
		int64_t id;
		lq_status st = lq_task_add(db, "bench", &o, &id, NULL);
		if (st != LQ_OK)
			return fail(db, "lq_task_add", st);
		printf("%lld %.6f\n", (long long)id, wall());
	}
	printf("ok %ld\n", count);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DSN  (commands on standard input)\n", argv[0]);
		return 64;
	}
	lq_db *db;
	int64_t now;
	lq_status st = lq_open(argv[1], &db);
	if (st == LQ_OK) /* connect now, not in the first timed call */
		st = lq_now(db, &now);
	if (st != LQ_OK) {
		fprintf(stderr, "%s: %s\n", argv[0], db && *lq_errmsg(db) ? lq_errmsg(db) : lq_status_str(st));
		lq_close(db);
		return 69;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	char line[1024], cmd[32], arg[300];
	while (fgets(line, sizeof(line), stdin)) {
		double x = 0, y = 0;
		int k = sscanf(line, "%31s %299s %lf %lf", cmd, arg, &x, &y);
		if (k >= 1 && strcmp(cmd, "quit") == 0)
			break;
		if (k == 3 && strcmp(cmd, "lease") == 0)
			lease(db, arg, x);
		else if (k == 3 && strcmp(cmd, "enqueue") == 0)
			enqueue(db, arg, x);
		else if (k == 3 && strcmp(cmd, "claim") == 0)
			claim(db, arg, x);
		else if (k == 3 && strcmp(cmd, "fill") == 0)
			fill(db, arg, (long)x);
		else if (k == 4 && strcmp(cmd, "pace") == 0)
			pace(db, arg, (long)x, y);
		else if (k == 2 && strcmp(cmd, "drain") == 0)
			drain(db, arg);
		else
			printf("err unknown command: %s", line);
	}
	lq_close(db);
	return 0;
}
