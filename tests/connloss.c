/*
 * connloss.c - the harness of tests/test_connloss_*.c (connloss.h):
 * connection loss on the server backends, for real.  The server ends a
 * session (pg_terminate_backend / KILL CONNECTION) between calls and in the
 * middle of a claim, a lease renewal, a task heartbeat and ack, and under a
 * `leasectl exec` heartbeat.  The call that meets the dead connection
 * answers LQ_ECONN (LQ_EUNKNOWN when it was lost during COMMIT), the next
 * call reconnects, at-most-once never runs a task twice, and at-least-once
 * loses none.  The cases, by concern: test_connloss_task.c (claim,
 * heartbeat, ack), test_connloss_stress.c (claims under repeated kills),
 * test_connloss_history.c (the run history), test_connloss_lease.c
 * (renewals), test_connloss_exec.c (leasectl exec and --wait).
 *
 * Each test runs every case of its own against each server whose DSN is set
 * (LEASEQ_TEST_PG_DSN, LEASEQ_TEST_MYSQL_DSN); neither set: exit 77, unless
 * LEASEQ_REQUIRE_ALL_BACKENDS is set, which makes a missing one a failure.
 *
 * Isolation: other tests may use the same server at the same time, and the
 * conformance suite empties every leaseq table between its tests.  So each
 * run works in a PostgreSQL schema / MySQL database of its own (created and
 * dropped here; the shared one, with names unique to this run, if the server
 * refuses), and kills only sessions it can attribute to its own victims:
 *  - PostgreSQL: every victim connects with an application_name of its own
 *    (lqt_cl_<pid>_<n>, added to its DSN); pg_stat_activity finds it.
 *  - MySQL/MariaDB: the DSN has no such option.  Every victim is a process
 *    of its own whose only server connection is the victim's, so its TCP
 *    client ports (/proc/PID/fd -> socket inodes -> /proc/net/tcp*) pick its
 *    rows of information_schema.PROCESSLIST (HOST is "ip:port").  A
 *    unix-socket DSN cannot be told apart that way: those cases are skipped.
 * To kill a victim *inside* a statement, a second raw connection holds a
 * lock on one of our own rows so that the victim's statement waits on it;
 * the server shows the wait (pg_stat_activity.wait_event_type = 'Lock'; a
 * MySQL statement executing for over 300 ms, which ours never do otherwise),
 * and then the victim is killed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "connloss.h"

#include "internal.h" /* lq__dsn_parse_url */

#ifdef LEASEQ_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#ifdef LEASEQ_HAVE_MYSQL
#include <mysql.h>
#endif

#define MY_BLOCKED_MS 300   /* a MySQL statement running this long is waiting on a lock */
#define LQT_STR_(x) #x
#define LQT_STR(x) LQT_STR_(x)

/* ------------------------------------------------------------ raw clients */

/* A plain client connection: the killer, and the locker that makes a
 * victim's statement wait. */
struct raw {
	int be;
#ifdef LEASEQ_HAVE_POSTGRES
	PGconn *pg;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	MYSQL *my;
#endif
};

#ifdef LEASEQ_HAVE_POSTGRES
static void quiet_notices(void *arg, const char *message)
{
	(void)arg;
	(void)message; /* "drop cascades to ...", "no transaction in progress" */
}
#endif

static int raw_open(struct raw *r, int be, const char *dsn)
{
	memset(r, 0, sizeof(*r));
	r->be = be;
#ifdef LEASEQ_HAVE_POSTGRES
	if (be == BE_PG) {
		r->pg = PQconnectdb(dsn);
		if (r->pg && PQstatus(r->pg) == CONNECTION_OK) {
			PQsetNoticeProcessor(r->pg, quiet_notices, NULL);
			return 0;
		}
		fprintf(stderr, "raw postgres connection: %s", r->pg ? PQerrorMessage(r->pg) : "out of memory\n");
		PQfinish(r->pg);
		r->pg = NULL;
		return -1;
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (be == BE_MY) {
		lq_dsn_url u;
		lq_err err;
		unsigned timeout = 10;
		if (lq__dsn_parse_url(dsn, &u, &err) != LQ_OK) {
			fprintf(stderr, "raw mysql connection: %s\n", err.msg);
			return -1;
		}
		r->my = mysql_init(NULL);
		if (!r->my)
			return -1;
		mysql_options(r->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		if (!mysql_real_connect(r->my, u.host[0] ? u.host : NULL, u.user, u.password[0] ? u.password : NULL,
					u.dbname[0] ? u.dbname : NULL, (unsigned)u.port, NULL, 0)) {
			fprintf(stderr, "raw mysql connection: %s\n", mysql_error(r->my));
			mysql_close(r->my);
			r->my = NULL;
			explicit_bzero(&u, sizeof(u));
			return -1;
		}
		explicit_bzero(&u, sizeof(u));
		return 0;
	}
#endif
	(void)dsn;
	return -1;
}

static void raw_close(struct raw *r)
{
#ifdef LEASEQ_HAVE_POSTGRES
	if (r->pg)
		PQfinish(r->pg);
	r->pg = NULL;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (r->my)
		mysql_close(r->my);
	r->my = NULL;
#endif
}

static int raw_is_open(const struct raw *r)
{
#ifdef LEASEQ_HAVE_POSTGRES
	if (r->pg)
		return 1;
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (r->my)
		return 1;
#endif
	(void)r;
	return 0;
}

/* Run sql; the first column of up to max rows goes to out (may be NULL).
 * Returns the number of rows, or -1 (error printed unless quiet). */
static int raw_query(struct raw *r, const char *sql, int64_t *out, int max, int quiet)
{
	int n = 0;
#ifdef LEASEQ_HAVE_POSTGRES
	if (r->pg) {
		PGresult *res = PQexec(r->pg, sql);
		ExecStatusType s = PQresultStatus(res);
		if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
			if (!quiet)
				fprintf(stderr, "raw query \"%s\": %s", sql, PQresultErrorMessage(res));
			PQclear(res);
			return -1;
		}
		for (int i = 0; i < PQntuples(res) && PQnfields(res) > 0; i++) {
			if (out && n < max)
				out[n] = strtoll(PQgetvalue(res, i, 0), NULL, 10);
			n++;
		}
		PQclear(res);
		return n;
	}
#endif
#ifdef LEASEQ_HAVE_MYSQL
	if (r->my) {
		if (mysql_query(r->my, sql) != 0) {
			if (!quiet)
				fprintf(stderr, "raw query \"%s\": %s\n", sql, mysql_error(r->my));
			return -1;
		}
		if (mysql_field_count(r->my) == 0)
			return 0;
		MYSQL_RES *res = mysql_store_result(r->my);
		if (!res) {
			if (!quiet)
				fprintf(stderr, "raw query \"%s\": %s\n", sql, mysql_error(r->my));
			return -1;
		}
		MYSQL_ROW row;
		while ((row = mysql_fetch_row(res)) != NULL) {
			if (out && n < max)
				out[n] = row[0] ? strtoll(row[0], NULL, 10) : 0;
			n++;
		}
		mysql_free_result(res);
		return n;
	}
#endif
	(void)sql;
	(void)out;
	(void)max;
	(void)quiet;
	return -1;
}

/* -------------------------------------------------------- the run's state */


struct cl_run cl;
/* The killer, and the locker that makes a victim's statement wait. */
static struct raw killer, locker;

void cl_name_of(char *buf, size_t size, const char *what)
{
	snprintf(buf, size, "lqt-connloss-%ld-%s-%s", (long)getpid(), cl.name, what);
}

/* dsn with one more query option key=value. */
static void dsn_add(char *out, size_t size, const char *dsn, const char *kv)
{
	snprintf(out, size, "%s%c%s", dsn, strchr(dsn, '?') ? '&' : '?', kv);
}

/* A MySQL DSN naming database db instead. */
static void dsn_with_db(char *out, size_t size, const char *dsn, const char *db)
{
	const char *p = strstr(dsn, "://");
	p = p ? p + 3 : dsn;
	const char *q = strchr(p, '?');
	const char *slash = memchr(p, '/', q ? (size_t)(q - p) : strlen(p));
	const char *hostend = slash ? slash : q ? q : p + strlen(p);
	snprintf(out, size, "%.*s/%s%s", (int)(hostend - dsn), dsn, db, q ? q : "");
}

void cl_victim_new(struct cl_victim *v)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->app, sizeof(v->app), "lqt_cl_%ld_%d", (long)getpid(), ++cl.nvictims);
}

void cl_victim_dsn(const struct cl_victim *v, char *out, size_t size)
{
	char kv[96];
	if (cl.be == BE_PG) {
		snprintf(kv, sizeof(kv), "application_name=%s", v->app);
		dsn_add(out, size, cl.dsn, kv);
	} else {
		snprintf(out, size, "%s", cl.dsn);
	}
}

void cl_kid_add(pid_t pid)
{
	if (cl.nkids < (int)(sizeof(cl.kids) / sizeof(cl.kids[0])))
		cl.kids[cl.nkids++] = pid;
}

static void kid_forget(pid_t pid)
{
	for (int i = 0; i < cl.nkids; i++)
		if (cl.kids[i] == pid)
			cl.kids[i] = cl.kids[--cl.nkids];
}

/* Wait for pid: its exit status, 128+signal, or 124 after timeout_ms (then
 * it is killed). */
int cl_wait_exit(pid_t pid, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms;
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid) {
			kid_forget(pid);
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
		if (r < 0 && errno != EINTR) {
			kid_forget(pid);
			return 125;
		}
		if (lqt_mono_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			kid_forget(pid);
			return 124;
		}
		lqt_sleep_ms(5);
	}
}

/* In a forked child: die with the test, and drop every descriptor inherited
 * from it, so that the child's only server connections are its own. */
void cl_child_prepare(void)
{
	int fds[256], n = 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 256) {
		int fd = atoi(e->d_name);
		if (fd > 2 && fd != dirfd(d))
			fds[n++] = fd;
	}
	closedir(d);
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* -------------------------------------------------------- finding victims */

/* Inodes of the sockets process pid has open (at most max). */
int cl_socket_inodes(pid_t pid, unsigned long *out, int max)
{
	int n = 0;
	char path[64], link[PATH_MAX], target[64];

	snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		snprintf(link, sizeof(link), "%s/%s", path, e->d_name);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (sscanf(target, "socket:[%lu]", &out[n]) == 1)
			n++;
	}
	closedir(d);
	return n;
}

/* TCP client ports of process pid's sockets connected to the server port. */
static int proc_ports(pid_t pid, int port, int *out, int max)
{
	unsigned long inodes[64];
	int ni = cl_socket_inodes(pid, inodes, 64), n = 0;

	static const char *const tables[] = {"/proc/net/tcp", "/proc/net/tcp6"};
	for (size_t t = 0; t < 2; t++) {
		FILE *f = fopen(tables[t], "r");
		char line[512];
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char la[64], ra[64];
			unsigned lport, rport, state;
			unsigned long ino;
			if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%x %63[0-9A-Fa-f]:%x %x %*s %*s %*s %*u %*u %lu", la,
				   &lport, ra, &rport, &state, &ino) != 6 ||
			    (int)rport != port)
				continue;
			for (int i = 0; i < ni; i++)
				if (inodes[i] == ino && n < max)
					out[n++] = (int)lport;
		}
		fclose(f);
	}
	return n;
}

/* Server ids of v's sessions (blocked: only those waiting on a lock). */
int cl_victim_ids(const struct cl_victim *v, int blocked, int64_t *ids, int max)
{
	char sql[1024];
	if (cl.be == BE_PG) {
		snprintf(sql, sizeof(sql),
			 "SELECT pid FROM pg_stat_activity WHERE application_name = '%s' "
			 "AND pid <> pg_backend_pid()%s",
			 v->app, blocked ? " AND wait_event_type = 'Lock'" : "");
	} else {
		int ports[16];
		int np = proc_ports(v->pid, cl.port, ports, 16);
		if (np == 0)
			return 0;
		size_t o = (size_t)snprintf(sql, sizeof(sql),
					    "SELECT ID FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() "
					    "AND USER = SUBSTRING_INDEX(USER(), '@', 1) "
					    "AND SUBSTRING_INDEX(HOST, ':', -1) IN (");
		for (int i = 0; i < np; i++)
			o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s'%d'", i ? "," : "", ports[i]);
		snprintf(sql + o, sizeof(sql) - o, ")%s",
			 blocked ? " AND COMMAND IN ('Query', 'Execute') AND TIME_MS >= " LQT_STR(MY_BLOCKED_MS) : "");
	}
	int n = raw_query(&killer, sql, ids, max, 0);
	if (n < 0)
		lqt_die(__FILE__, __LINE__, "cannot list the victim's sessions");
	return n < max ? n : max;
}

/* Kill every server session of v and wait until the server has ended them.
 * Returns how many there were. */
int cl_kill_victim(const struct cl_victim *v)
{
	int64_t ids[8];
	char sql[320], list[200];
	int n = cl_victim_ids(v, 0, ids, 8);
	size_t o = 0;

	if (n == 0)
		return 0;
	list[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (cl.be == BE_PG)
			snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%lld)", (long long)ids[i]);
		else
			snprintf(sql, sizeof(sql), "KILL CONNECTION %lld", (long long)ids[i]);
		(void)raw_query(&killer, sql, NULL, 0, 1); /* gone already is fine */
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%lld", i ? "," : "", (long long)ids[i]);
	}
	if (cl.be == BE_PG)
		snprintf(sql, sizeof(sql), "SELECT pid FROM pg_stat_activity WHERE pid IN (%s)", list);
	else
		snprintf(sql, sizeof(sql), "SELECT ID FROM information_schema.PROCESSLIST WHERE ID IN (%s)", list);
	int64_t deadline = lqt_mono_ms() + KILL_WAIT_MS;
	while (raw_query(&killer, sql, NULL, 0, 0) != 0) {
		if (lqt_mono_ms() > deadline)
			lqt_die(__FILE__, __LINE__, "sessions %s still there %d ms after the kill", list, KILL_WAIT_MS);
		lqt_sleep_ms(5);
	}
	return n;
}

/* Wait until v has a session (blocked: one waiting on a lock); 0 or -1. */
int cl_wait_victim(const struct cl_victim *v, int blocked, int64_t timeout_ms)
{
	int64_t ids[4], deadline = lqt_mono_ms() + timeout_ms;
	while (cl_victim_ids(v, blocked, ids, 4) == 0) {
		if (lqt_mono_ms() > deadline)
			return -1;
		lqt_sleep_ms(10);
	}
	return 0;
}

/* The locker opens a transaction and takes a lock with sql. */
void cl_lock_with(const char *sql)
{
	if (!raw_is_open(&locker) && raw_open(&locker, cl.be, cl.dsn) != 0)
		fail_msg("cannot open the locking connection");
	if (raw_query(&locker, "BEGIN", NULL, 0, 0) < 0 || raw_query(&locker, sql, NULL, 0, 0) < 0)
		fail_msg("cannot take the lock: %s", sql);
}

void cl_unlock(void)
{
	if (raw_is_open(&locker) && raw_query(&locker, "ROLLBACK", NULL, 0, 0) < 0)
		fail_msg("locker: ROLLBACK failed");
}

/* ---------------------------------------------------------- checks */

/* An error message names its object (or one of two others it may name)
 * and never holds the password. */
void cl_check_msg3(const char *msg, const char *object, const char *or_this, const char *or_that)
{
	if (!strstr(msg, object) && !(or_this && strstr(msg, or_this)) && !(or_that && strstr(msg, or_that)))
		fail_msg("message does not name %s: \"%s\"", object, msg);
	if (strlen(cl.password) >= 4 && strstr(msg, cl.password))
		fail_msg("message holds the password: \"%s\"", msg);
}

void cl_check_msg(const char *msg, const char *object)
{
	cl_check_msg3(msg, object, NULL, NULL);
}

void cl_check_file_clean(const char *path)
{
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	if (strlen(cl.password) >= 4 && strstr(buf, cl.password))
		fail_msg("%s holds the password", path);
}

int cl_file_has(const char *path, const char *text)
{
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}


/* ---------------------------------------------------------- the agent */

static int agent_main(int idx, void *arg)
{
	struct cl_agent *a = arg;
	struct cl_agent_io *io = a->io;
	char dsn[2200];
	lq_db *db = NULL;
	lq_task held;
	lq_lease lease;
	int last = 0;

	(void)idx;
	cl_child_prepare();
	cl_victim_dsn(&a->v, dsn, sizeof(dsn));
	io->st = lq_open(dsn, &db);
	snprintf(io->msg, sizeof(io->msg), "%s", lq_errmsg(db));
	__atomic_store_n(&io->ready, 1, __ATOMIC_RELEASE);
	if (io->st != LQ_OK)
		return 1;
	memset(&held, 0, sizeof(held));
	memset(&lease, 0, sizeof(lease));
	for (;;) {
		int s = __atomic_load_n(&io->seq, __ATOMIC_ACQUIRE);
		lq_status st = LQ_EINVAL;
		if (s == last) {
			lqt_sleep_ms(1);
			continue;
		}
		last = s;
		switch (io->cmd) {
		case AG_QUIT:
			lq_task_clear(&held);
			lq_close(db);
			return 0;
		case AG_CLAIM:
		case AG_ACK_CLAIM: {
			/* AG_ACK_CLAIM: ack the task held and claim the next in one call. */
			lq_task t[1];
			size_t n = 0;
			if (io->cmd == AG_CLAIM)
				st = lq_task_claim(db, io->name, io->mode, io->ttl, t, 1, &n);
			else
				st = lq_task_ack_claim(db, &held, &io->ack_st, io->name, io->mode, io->ttl, t, 1, &n);
			lq_task_clear(&held);
			io->claimed = n;
			if (st == LQ_OK && n == 1) {
				held = t[0];
				io->task_id = held.id;
				io->attempts = held.attempts;
			}
			break;
		}
		case AG_ACK:
			st = lq_task_ack(db, &held);
			break;
		case AG_BEAT:
			st = lq_task_heartbeat(db, &held, io->ttl);
			break;
		case AG_ACQUIRE:
			st = lq_lease_acquire(db, io->name, io->ttl, NULL, 0, &lease);
			break;
		case AG_RENEW:
			st = lq_lease_renew(db, &lease, io->ttl);
			break;
		case AG_CHECK:
			st = lq_lease_check(db, &lease);
			break;
		case AG_FLUSH:
			st = lq_run_flush(db);
			break;
		}
		io->st = st;
		io->token = lease.token;
		snprintf(io->msg, sizeof(io->msg), "%s", lq_errmsg(db));
		__atomic_store_n(&io->done, s, __ATOMIC_RELEASE);
	}
}

void cl_agent_start(struct cl_agent *a)
{
	memset(a, 0, sizeof(*a));
	cl_victim_new(&a->v);
	a->io = lqt_shared_alloc(sizeof(*a->io));
	a->pid = lqt_spawn(0, agent_main, a);
	a->v.pid = a->pid;
	cl_kid_add(a->pid);
	if (lqt_wait_flag(&a->io->ready, CALL_WAIT_MS) != 0)
		fail_msg("the agent did not start");
	assert_st(a->io->st, LQ_OK, a->io->msg);
}

void cl_agent_send(struct cl_agent *a, int cmd)
{
	a->io->cmd = cmd;
	__atomic_add_fetch(&a->io->seq, 1, __ATOMIC_RELEASE);
}

lq_status cl_agent_wait(struct cl_agent *a)
{
	int want = __atomic_load_n(&a->io->seq, __ATOMIC_ACQUIRE);
	int64_t deadline = lqt_mono_ms() + CALL_WAIT_MS;
	while (__atomic_load_n(&a->io->done, __ATOMIC_ACQUIRE) != want) {
		if (lqt_mono_ms() > deadline)
			fail_msg("the agent's call did not return within %d ms", CALL_WAIT_MS);
		lqt_sleep_ms(1);
	}
	return a->io->st;
}

lq_status cl_agent_call(struct cl_agent *a, int cmd)
{
	cl_agent_send(a, cmd);
	return cl_agent_wait(a);
}

void cl_agent_stop(struct cl_agent *a)
{
	cl_agent_send(a, AG_QUIT);
	assert_int_equal(cl_wait_exit(a->pid, CALL_WAIT_MS), 0);
	lqt_shared_free(a->io, sizeof(*a->io));
	a->io = NULL;
}

/* ------------------------------------------------------ group set-up */

static int group_setup(void **state)
{
	char sql[512];
	(void)state;
	cl.nkids = 0;
	snprintf(cl.dsn, sizeof(cl.dsn), "%s", cl.base_dsn);
	cl.iso[0] = '\0';
	if (raw_open(&killer, cl.be, cl.base_dsn) != 0)
		return -1;
	/* Our own schema / database, so nobody's resets touch our rows. */
	if (cl.be == BE_PG) {
		snprintf(cl.iso, sizeof(cl.iso), "lqt_connloss_%ld", (long)getpid());
		snprintf(sql, sizeof(sql), "CREATE SCHEMA IF NOT EXISTS %s", cl.iso);
		if (raw_query(&killer, sql, NULL, 0, 1) == 0) {
			char kv[200];
			snprintf(kv, sizeof(kv), "options=-csearch_path%%3D%s", cl.iso);
			dsn_add(cl.dsn, sizeof(cl.dsn), cl.base_dsn, kv);
		} else {
			cl.iso[0] = '\0';
		}
	} else {
		lq_dsn_url u;
		lq_err err;
		if (lq__dsn_parse_url(cl.base_dsn, &u, &err) == LQ_OK) {
			snprintf(cl.iso, sizeof(cl.iso), "%.64s_connloss_%ld", u.dbname, (long)getpid());
			snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS `%s`", cl.iso);
			if (raw_query(&killer, sql, NULL, 0, 1) == 0)
				dsn_with_db(cl.dsn, sizeof(cl.dsn), cl.base_dsn, cl.iso);
			else
				cl.iso[0] = '\0';
		}
		explicit_bzero(&u, sizeof(u));
	}
	if (!cl.iso[0])
		printf("%s: cannot create a schema of our own: sharing the given one\n", cl.name);
	cl.db = lqt_open(cl.dsn);
	if (!cl.db)
		return -1;
	lq_status st = lq_migrate(cl.db, NULL, NULL);
	if (st != LQ_OK) {
		fprintf(stderr, "lq_migrate: %s: %s\n", lq_status_str(st), lq_errmsg(cl.db));
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	char sql[256];
	(void)state;
	lq_close(cl.db);
	cl.db = NULL;
	raw_close(&locker);
	if (cl.iso[0]) {
		if (cl.be == BE_PG)
			snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", cl.iso);
		else
			snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS `%s`", cl.iso);
		(void)raw_query(&killer, sql, NULL, 0, 0);
	}
	raw_close(&killer);
	return 0;
}

/* After each test, whatever it left behind: children and the locker's
 * transaction. */
int cl_test_teardown(void **state)
{
	(void)state;
	while (cl.nkids > 0) {
		pid_t pid = cl.kids[0];
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		kid_forget(pid);
	}
	if (raw_is_open(&locker))
		(void)raw_query(&locker, "ROLLBACK", NULL, 0, 1);
	return 0;
}

int64_t cl_add_task(const char *queue, const char *payload, int max_attempts)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;
	o.queue = queue;
	o.payload = payload;
	o.payload_len = payload ? strlen(payload) : 0;
	o.max_attempts = max_attempts;
	assert_lq_ok(cl.db, lq_task_add(cl.db, "connloss", &o, &id, NULL));
	return id;
}


/* ------------------------------------------------------------ the run */

static void find_leasectl(void)
{
	const char *env = getenv("LEASECTL");
	char self[PATH_MAX];
	ssize_t n;

	cl.leasectl[0] = '\0';
	if (env && *env) {
		snprintf(cl.leasectl, sizeof(cl.leasectl), "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(cl.leasectl, sizeof(cl.leasectl), "%.*s/../leasectl", PATH_MAX - 16, self);
	if (access(cl.leasectl, X_OK) != 0)
		cl.leasectl[0] = '\0';
}

static void rm_tmpdir(void)
{
	DIR *d = opendir(cl.tmpdir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof(path), "%s/%s", cl.tmpdir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
	rmdir(cl.tmpdir);
}

static int run_backend(int be, const char *dsn, const struct CMUnitTest *tests, size_t ntests)
{
	lq_dsn_url u;
	lq_err err;

	cl.be = be;
	cl.name = be == BE_PG ? "postgres" : "mysql";
	cl.base_dsn = dsn;
	cl.password[0] = '\0';
	cl.port = 3306;
	if (lq__dsn_parse_url(dsn, &u, &err) == LQ_OK) {
		snprintf(cl.password, sizeof(cl.password), "%s", u.password);
		if (u.port)
			cl.port = u.port;
		if (be == BE_MY && (strstr(u.query, "socket=") || !strcmp(u.host, "localhost") || !u.host[0])) {
			printf("mysql: the DSN uses a unix socket: victims cannot be told apart: skipped\n");
			explicit_bzero(&u, sizeof(u));
			return 0;
		}
	}
	explicit_bzero(&u, sizeof(u));
	return _cmocka_run_group_tests(cl.name, tests, ntests, group_setup, group_teardown);
}

int cl_main(const char *prog, const struct CMUnitTest *tests, size_t ntests)
{
	const char *pg = getenv("LEASEQ_TEST_PG_DSN");
	const char *my = getenv("LEASEQ_TEST_MYSQL_DSN");
	int require = getenv("LEASEQ_REQUIRE_ALL_BACKENDS") != NULL;
	int failures = 0, ran = 0;

	if (pg && !*pg)
		pg = NULL;
	if (my && !*my)
		my = NULL;
	if (require && (!pg || !my)) {
		fprintf(stderr, "%s: %s not set (LEASEQ_REQUIRE_ALL_BACKENDS)\n", prog,
			!pg ? "LEASEQ_TEST_PG_DSN" : "LEASEQ_TEST_MYSQL_DSN");
		return 1;
	}
	if (!pg && !my) {
		printf("skipped: neither LEASEQ_TEST_PG_DSN nor LEASEQ_TEST_MYSQL_DSN is set\n");
		return LQT_SKIP;
	}
	/* LQT_FILTER=t_renew* runs only the matching cases (development). */
	if (getenv("LQT_FILTER") && *getenv("LQT_FILTER"))
		cmocka_set_test_filter(getenv("LQT_FILTER"));
	find_leasectl();
	snprintf(cl.tmpdir, sizeof(cl.tmpdir), "/tmp/lqt-connloss-XXXXXX");
	if (!mkdtemp(cl.tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (pg) {
#ifdef LEASEQ_HAVE_POSTGRES
		failures += run_backend(BE_PG, pg, tests, ntests);
		ran++;
#else
		printf("postgres: this leaseq was built without PostgreSQL support\n");
		failures += require;
#endif
	}
	if (my) {
#ifdef LEASEQ_HAVE_MYSQL
		failures += run_backend(BE_MY, my, tests, ntests);
		ran++;
#else
		printf("mysql: this leaseq was built without MySQL support\n");
		failures += require;
#endif
	}
	if (!getenv("LEASEQ_TEST_KEEP"))
		rm_tmpdir();
	if (!ran && !failures)
		return LQT_SKIP;
	return failures ? 1 : 0;
}

