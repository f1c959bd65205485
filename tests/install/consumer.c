/*
 * consumer.c - a program outside the tree that uses an installed leaseq:
 * built by tests/install/run through pkg-config and through find_package
 * (shared and static), it migrates an SQLite file, enqueues, claims and
 * acknowledges one task, and takes and releases a lease.
 */
#include <leaseq.h>
#include <stdio.h>

static int check(lq_db *db, lq_status st, const char *what)
{
	if (st == LQ_OK)
		return 0;
	fprintf(stderr, "consumer: %s: %s: %s\n", what, lq_status_str(st), lq_errmsg(db));
	return 1;
}

int main(int argc, char **argv)
{
	lq_db *db = NULL;
	lq_task t;
	lq_lease l;
	size_t n = 0;
	int64_t id = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: consumer sqlite:PATH\n");
		return 64;
	}
	if (check(db, lq_open(argv[1], &db), "open") || check(db, lq_migrate(db, NULL, NULL), "migrate") ||
	    check(db, lq_task_add(db, "hello", NULL, &id, NULL), "task add") ||
	    check(db, lq_task_claim(db, NULL, LQ_AT_LEAST_ONCE, 0, &t, 1, &n), "claim"))
		return lq_close(db), 1;
	if (n != 1 || t.id != id || check(db, lq_task_ack(db, &t), "ack"))
		return lq_task_clear(&t), lq_close(db), 1;
	lq_task_clear(&t);
	if (check(db, lq_lease_acquire(db, "consumer", 10000, NULL, 0, &l), "lease acquire") ||
	    check(db, lq_lease_release(db, &l), "lease release"))
		return lq_close(db), 1;
	printf("consumer: leaseq %s on %s: task %lld ran, lease token %lld\n", lq_version(), lq_backend_name(db),
	       (long long)id, (long long)l.token);
	lq_close(db);
	return 0;
}
