/*
 * connloss.h - what the lost-connection tests (tests/test_connloss_*.c)
 * share: a run per server whose DSN is set, in a schema / database of its
 * own, and the means to kill a chosen library connection between calls or
 * while its statement waits on a lock.  How victims are told apart on each
 * server is explained at the top of tests/connloss.c.
 */
#ifndef LEASEQ_TESTS_CONNLOSS_H
#define LEASEQ_TESTS_CONNLOSS_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "testutil.h"

enum { BE_PG = 0, BE_MY = 1 };

#define KILL_WAIT_MS 10000 /* a killed session leaves the server within this */
#define CALL_WAIT_MS 30000 /* an agent call returns within this */

/* The run's state, for one server at a time. */
struct cl_run {
	int be;
	const char *name;     /* "postgres" / "mysql" */
	const char *base_dsn; /* as given in the environment */
	char dsn[2048];       /* the isolated schema / database */
	char iso[128];        /* its name, "" when sharing the given one */
	char password[256];   /* must never show in a message */
	int port;             /* MySQL server port */
	lq_db *db;            /* helper handle, never killed */
	int nvictims;
	pid_t kids[16];
	int nkids;
	char tmpdir[64];      /* scratch files of this run */
	char leasectl[PATH_MAX]; /* "" when not found */
};
extern struct cl_run cl;

/* A process whose server sessions the test kills. */
struct cl_victim {
	pid_t pid;     /* the process holding the victim connection */
	char app[64];  /* PostgreSQL application_name */
};

/* The object names of this run: "lqt-connloss-PID-BACKEND-what". */
void cl_name_of(char *buf, size_t size, const char *what);
void cl_victim_new(struct cl_victim *v);
/* The DSN v must connect with (it names v on PostgreSQL). */
void cl_victim_dsn(const struct cl_victim *v, char *out, size_t size);

/* Children the test's teardown kills if a case leaves them behind. */
void cl_kid_add(pid_t pid);
/* Wait for pid: its exit status, 128+signal, or 124 after timeout_ms (then
 * it is killed). */
int cl_wait_exit(pid_t pid, int64_t timeout_ms);
/* In a forked child: die with the test, and drop every descriptor inherited
 * from it, so that the child's only server connections are its own. */
void cl_child_prepare(void);
/* Inodes of the sockets process pid has open (at most max). */
int cl_socket_inodes(pid_t pid, unsigned long *out, int max);

/* Server ids of v's sessions (blocked: only those waiting on a lock). */
int cl_victim_ids(const struct cl_victim *v, int blocked, int64_t *ids, int max);
/* Kill every server session of v and wait until the server has ended them.
 * Returns how many there were. */
int cl_kill_victim(const struct cl_victim *v);
/* Wait until v has a session (blocked: one waiting on a lock); 0 or -1. */
int cl_wait_victim(const struct cl_victim *v, int blocked, int64_t timeout_ms);
/* A second connection opens a transaction and takes a lock with sql, so
 * that a victim's statement waits on it; cl_unlock rolls it back. */
void cl_lock_with(const char *sql);
void cl_unlock(void);

/* An error message names its object (or one of two others it may name)
 * and never holds the password. */
void cl_check_msg3(const char *msg, const char *object, const char *or_this, const char *or_that);
void cl_check_msg(const char *msg, const char *object);
/* The file does not hold the password. */
void cl_check_file_clean(const char *path);
int cl_file_has(const char *path, const char *text);

#define assert_st(got, expected, msg)                                                              \
	do {                                                                                       \
		lq_status st_ = (got);                                                             \
		if (st_ != (expected))                                                             \
			fail_msg("%s (%d), expected %s: %s", lq_status_str(st_), (int)st_,         \
				 lq_status_str(expected), (msg));                                  \
	} while (0)

/* A child process that makes library calls on its own lq_db (the victim
 * connection) when the test asks, so that the test can kill the connection
 * between calls or while one is waiting. */
enum { AG_QUIT = 1, AG_CLAIM, AG_ACK, AG_BEAT, AG_ACQUIRE, AG_RENEW, AG_CHECK, AG_FLUSH, AG_ACK_CLAIM };

struct cl_agent_io {
	int seq, done, ready; /* request number, last answered, opened */
	int cmd;
	char name[LQ_NAME_MAX + 1];
	lq_mode mode;
	int64_t ttl;
	lq_status st;
	size_t claimed;
	int64_t task_id;
	int attempts;
	int64_t token;
	char msg[1024];
	lq_status ack_st; /* AG_ACK_CLAIM: the ack's status (st is the claim's) */
};

struct cl_agent {
	pid_t pid;
	struct cl_victim v;
	struct cl_agent_io *io;
};

void cl_agent_start(struct cl_agent *a);
void cl_agent_send(struct cl_agent *a, int cmd);
lq_status cl_agent_wait(struct cl_agent *a);
lq_status cl_agent_call(struct cl_agent *a, int cmd);
void cl_agent_stop(struct cl_agent *a);

/* A task "connloss" in queue, through the helper handle. */
int64_t cl_add_task(const char *queue, const char *payload, int max_attempts);

/* Each case's teardown: children and the locker's transaction. */
int cl_test_teardown(void **state);

/* Run the cases on each server whose DSN is set; main() of each test. */
int cl_main(const char *prog, const struct CMUnitTest *tests, size_t ntests);
#define CL_MAIN(prog, tests) cl_main((prog), (tests), sizeof(tests) / sizeof((tests)[0]))

#endif
