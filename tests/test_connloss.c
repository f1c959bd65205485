/*
 * test_connloss.c - connection loss on the server backends, for real: the
 * server ends a session (pg_terminate_backend / KILL CONNECTION) between
 * calls and in the middle of a claim, a lease renewal, a task heartbeat and
 * ack, and under a `leasectl exec` heartbeat.  The call that meets the dead
 * connection answers LQ_ECONN (LQ_EUNKNOWN when it was lost during COMMIT),
 * the next call reconnects, at-most-once never runs a task twice, and
 * at-least-once loses none.
 *
 * Runs every case against each server whose DSN is set
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

#include "testutil.h"

#include "internal.h" /* lq__dsn_parse_url */

#ifdef LEASEQ_HAVE_POSTGRES
#include <libpq-fe.h>
#endif
#ifdef LEASEQ_HAVE_MYSQL
#include <mysql.h>
#endif

enum { BE_PG = 0, BE_MY = 1 };

#define KILL_WAIT_MS 10000  /* a killed session leaves the server within this */
#define CALL_WAIT_MS 30000  /* an agent call returns within this */
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

struct victim {
	pid_t pid;     /* the process holding the victim connection */
	char app[64];  /* PostgreSQL application_name */
};

static struct {
	int be;
	const char *name;     /* "postgres" / "mysql" */
	const char *base_dsn; /* as given in the environment */
	char dsn[2048];       /* the isolated schema / database */
	char iso[128];        /* its name, "" when sharing the given one */
	char password[256];   /* must never show in a message */
	int port;             /* MySQL server port */
	struct raw killer, locker;
	lq_db *db;            /* helper handle, never killed */
	int nvictims;
	pid_t kids[16];
	int nkids;
	char tmpdir[64];
	char leasectl[PATH_MAX];
} g;

static void name_of(char *buf, size_t size, const char *what)
{
	snprintf(buf, size, "lqt-connloss-%ld-%s-%s", (long)getpid(), g.name, what);
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

static void victim_new(struct victim *v)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->app, sizeof(v->app), "lqt_cl_%ld_%d", (long)getpid(), ++g.nvictims);
}

static void victim_dsn(const struct victim *v, char *out, size_t size)
{
	char kv[96];
	if (g.be == BE_PG) {
		snprintf(kv, sizeof(kv), "application_name=%s", v->app);
		dsn_add(out, size, g.dsn, kv);
	} else {
		snprintf(out, size, "%s", g.dsn);
	}
}

static void kid_add(pid_t pid)
{
	if (g.nkids < (int)(sizeof(g.kids) / sizeof(g.kids[0])))
		g.kids[g.nkids++] = pid;
}

static void kid_forget(pid_t pid)
{
	for (int i = 0; i < g.nkids; i++)
		if (g.kids[i] == pid)
			g.kids[i] = g.kids[--g.nkids];
}

/* Wait for pid: its exit status, 128+signal, or 124 after timeout_ms (then
 * it is killed). */
static int wait_exit(pid_t pid, int64_t timeout_ms)
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
static void child_prepare(void)
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
static int socket_inodes(pid_t pid, unsigned long *out, int max)
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
	int ni = socket_inodes(pid, inodes, 64), n = 0;

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
static int victim_ids(const struct victim *v, int blocked, int64_t *ids, int max)
{
	char sql[1024];
	if (g.be == BE_PG) {
		snprintf(sql, sizeof(sql),
			 "SELECT pid FROM pg_stat_activity WHERE application_name = '%s' "
			 "AND pid <> pg_backend_pid()%s",
			 v->app, blocked ? " AND wait_event_type = 'Lock'" : "");
	} else {
		int ports[16];
		int np = proc_ports(v->pid, g.port, ports, 16);
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
	int n = raw_query(&g.killer, sql, ids, max, 0);
	if (n < 0)
		lqt_die(__FILE__, __LINE__, "cannot list the victim's sessions");
	return n < max ? n : max;
}

/* Kill every server session of v and wait until the server has ended them.
 * Returns how many there were. */
static int kill_victim(const struct victim *v)
{
	int64_t ids[8];
	char sql[320], list[200];
	int n = victim_ids(v, 0, ids, 8);
	size_t o = 0;

	if (n == 0)
		return 0;
	list[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (g.be == BE_PG)
			snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%lld)", (long long)ids[i]);
		else
			snprintf(sql, sizeof(sql), "KILL CONNECTION %lld", (long long)ids[i]);
		(void)raw_query(&g.killer, sql, NULL, 0, 1); /* gone already is fine */
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%lld", i ? "," : "", (long long)ids[i]);
	}
	if (g.be == BE_PG)
		snprintf(sql, sizeof(sql), "SELECT pid FROM pg_stat_activity WHERE pid IN (%s)", list);
	else
		snprintf(sql, sizeof(sql), "SELECT ID FROM information_schema.PROCESSLIST WHERE ID IN (%s)", list);
	int64_t deadline = lqt_mono_ms() + KILL_WAIT_MS;
	while (raw_query(&g.killer, sql, NULL, 0, 0) != 0) {
		if (lqt_mono_ms() > deadline)
			lqt_die(__FILE__, __LINE__, "sessions %s still there %d ms after the kill", list, KILL_WAIT_MS);
		lqt_sleep_ms(5);
	}
	return n;
}

/* Wait until v has a session (blocked: one waiting on a lock); 0 or -1. */
static int wait_victim(const struct victim *v, int blocked, int64_t timeout_ms)
{
	int64_t ids[4], deadline = lqt_mono_ms() + timeout_ms;
	while (victim_ids(v, blocked, ids, 4) == 0) {
		if (lqt_mono_ms() > deadline)
			return -1;
		lqt_sleep_ms(10);
	}
	return 0;
}

/* The locker opens a transaction and takes a lock with sql. */
static void lock_with(const char *sql)
{
	if (!raw_is_open(&g.locker) && raw_open(&g.locker, g.be, g.dsn) != 0)
		fail_msg("cannot open the locking connection");
	if (raw_query(&g.locker, "BEGIN", NULL, 0, 0) < 0 || raw_query(&g.locker, sql, NULL, 0, 0) < 0)
		fail_msg("cannot take the lock: %s", sql);
}

static void unlock(void)
{
	if (raw_is_open(&g.locker) && raw_query(&g.locker, "ROLLBACK", NULL, 0, 0) < 0)
		fail_msg("locker: ROLLBACK failed");
}

/* ---------------------------------------------------------- checks */

/* An error message names its object (or one of two others it may name)
 * and never holds the password. */
static void check_msg3(const char *msg, const char *object, const char *or_this, const char *or_that)
{
	if (!strstr(msg, object) && !(or_this && strstr(msg, or_this)) && !(or_that && strstr(msg, or_that)))
		fail_msg("message does not name %s: \"%s\"", object, msg);
	if (strlen(g.password) >= 4 && strstr(msg, g.password))
		fail_msg("message holds the password: \"%s\"", msg);
}

static void check_msg(const char *msg, const char *object)
{
	check_msg3(msg, object, NULL, NULL);
}

static void check_file_clean(const char *path)
{
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	if (strlen(g.password) >= 4 && strstr(buf, g.password))
		fail_msg("%s holds the password", path);
}

static int file_has(const char *path, const char *text)
{
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

#define assert_st(got, expected, msg)                                                              \
	do {                                                                                       \
		lq_status st_ = (got);                                                             \
		if (st_ != (expected))                                                             \
			fail_msg("%s (%d), expected %s: %s", lq_status_str(st_), (int)st_,         \
				 lq_status_str(expected), (msg));                                  \
	} while (0)

/* ---------------------------------------------------------- the agent */

/* A child process that makes library calls on its own lq_db (the victim
 * connection) when the test asks, so that the test can kill the connection
 * between calls or while one is waiting. */
enum { AG_QUIT = 1, AG_CLAIM, AG_ACK, AG_BEAT, AG_ACQUIRE, AG_RENEW, AG_CHECK, AG_FLUSH };

struct agent_io {
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
};

struct agent {
	pid_t pid;
	struct victim v;
	struct agent_io *io;
};

static int agent_main(int idx, void *arg)
{
	struct agent *a = arg;
	struct agent_io *io = a->io;
	char dsn[2200];
	lq_db *db = NULL;
	lq_task held;
	lq_lease lease;
	int last = 0;

	(void)idx;
	child_prepare();
	victim_dsn(&a->v, dsn, sizeof(dsn));
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
		case AG_CLAIM: {
			lq_task t[1];
			size_t n = 0;
			lq_task_clear(&held);
			st = lq_task_claim(db, io->name, io->mode, io->ttl, t, 1, &n);
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

static void agent_start(struct agent *a)
{
	memset(a, 0, sizeof(*a));
	victim_new(&a->v);
	a->io = lqt_shared_alloc(sizeof(*a->io));
	a->pid = lqt_spawn(0, agent_main, a);
	a->v.pid = a->pid;
	kid_add(a->pid);
	if (lqt_wait_flag(&a->io->ready, CALL_WAIT_MS) != 0)
		fail_msg("the agent did not start");
	assert_st(a->io->st, LQ_OK, a->io->msg);
}

static void agent_send(struct agent *a, int cmd)
{
	a->io->cmd = cmd;
	__atomic_add_fetch(&a->io->seq, 1, __ATOMIC_RELEASE);
}

static lq_status agent_wait(struct agent *a)
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

static lq_status agent_call(struct agent *a, int cmd)
{
	agent_send(a, cmd);
	return agent_wait(a);
}

static void agent_stop(struct agent *a)
{
	agent_send(a, AG_QUIT);
	assert_int_equal(wait_exit(a->pid, CALL_WAIT_MS), 0);
	lqt_shared_free(a->io, sizeof(*a->io));
	a->io = NULL;
}

/* ------------------------------------------------------ group set-up */

static int group_setup(void **state)
{
	char sql[512];
	(void)state;
	g.nkids = 0;
	snprintf(g.dsn, sizeof(g.dsn), "%s", g.base_dsn);
	g.iso[0] = '\0';
	if (raw_open(&g.killer, g.be, g.base_dsn) != 0)
		return -1;
	/* Our own schema / database, so nobody's resets touch our rows. */
	if (g.be == BE_PG) {
		snprintf(g.iso, sizeof(g.iso), "lqt_connloss_%ld", (long)getpid());
		snprintf(sql, sizeof(sql), "CREATE SCHEMA IF NOT EXISTS %s", g.iso);
		if (raw_query(&g.killer, sql, NULL, 0, 1) == 0) {
			char kv[200];
			snprintf(kv, sizeof(kv), "options=-csearch_path%%3D%s", g.iso);
			dsn_add(g.dsn, sizeof(g.dsn), g.base_dsn, kv);
		} else {
			g.iso[0] = '\0';
		}
	} else {
		lq_dsn_url u;
		lq_err err;
		if (lq__dsn_parse_url(g.base_dsn, &u, &err) == LQ_OK) {
			snprintf(g.iso, sizeof(g.iso), "%.64s_connloss_%ld", u.dbname, (long)getpid());
			snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS `%s`", g.iso);
			if (raw_query(&g.killer, sql, NULL, 0, 1) == 0)
				dsn_with_db(g.dsn, sizeof(g.dsn), g.base_dsn, g.iso);
			else
				g.iso[0] = '\0';
		}
		explicit_bzero(&u, sizeof(u));
	}
	if (!g.iso[0])
		printf("%s: cannot create a schema of our own: sharing the given one\n", g.name);
	g.db = lqt_open(g.dsn);
	if (!g.db)
		return -1;
	lq_status st = lq_migrate(g.db, NULL, NULL);
	if (st != LQ_OK) {
		fprintf(stderr, "lq_migrate: %s: %s\n", lq_status_str(st), lq_errmsg(g.db));
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	char sql[256];
	(void)state;
	lq_close(g.db);
	g.db = NULL;
	raw_close(&g.locker);
	if (g.iso[0]) {
		if (g.be == BE_PG)
			snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", g.iso);
		else
			snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS `%s`", g.iso);
		(void)raw_query(&g.killer, sql, NULL, 0, 0);
	}
	raw_close(&g.killer);
	return 0;
}

/* After each test, whatever it left behind: children and the locker's
 * transaction. */
static int test_teardown(void **state)
{
	(void)state;
	while (g.nkids > 0) {
		pid_t pid = g.kids[0];
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		kid_forget(pid);
	}
	if (raw_is_open(&g.locker))
		(void)raw_query(&g.locker, "ROLLBACK", NULL, 0, 1);
	return 0;
}

static int64_t add_task(const char *queue, const char *payload, int max_attempts)
{
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	int64_t id = 0;
	o.queue = queue;
	o.payload = payload;
	o.payload_len = payload ? strlen(payload) : 0;
	o.max_attempts = max_attempts;
	assert_lq_ok(g.db, lq_task_add(g.db, "connloss", &o, &id, NULL));
	return id;
}

/* ------------------------------------------------------------- claims */

/* Killed between two claims: the next claim says ECONN, the one after that
 * reconnects and claims the next task. */
static void t_claim_between(void **state)
{
	char q[200];
	int64_t ids[3];
	struct agent a;
	(void)state;

	name_of(q, sizeof(q), "q-between");
	for (int i = 0; i < 3; i++)
		ids[i] = add_task(q, NULL, 0);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_MOST_ONCE;
	assert_st(agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, ids[0]);

	assert_true(kill_victim(&a.v) >= 1);
	assert_st(agent_call(&a, AG_CLAIM), LQ_ECONN, a.io->msg);
	check_msg(a.io->msg, q);
	assert_st(agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, ids[1]);
	assert_int_equal(lqt_count_tasks(g.db, q, 0), 1);
	agent_stop(&a);
}

static int count_done(const lq_run *r, void *arg)
{
	*(int64_t *)arg += r->outcome == LQ_RUN_DONE;
	return 0;
}

/* Killed while the history rows of at-most-once runs wait in the handle:
 * each run is in the history once, never twice.  On PostgreSQL the write
 * sees the loss before it sends (the server's farewell is read first) and
 * rides it out on a new connection; MySQL reports the loss only after the
 * statement went out (error 2013), so its fate is unknown (LQ_EUNKNOWN) and
 * the rows are not sent again: none or all of them are there. */
static void t_history_rows_kept(void **state)
{
	char q[200];
	int64_t n = 0;
	struct agent a;
	(void)state;

	name_of(q, sizeof(q), "q-history");
	for (int i = 0; i < 3; i++)
		add_task(q, NULL, 0);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_MOST_ONCE;
	for (int i = 0; i < 3; i++) {
		assert_st(agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
		assert_st(agent_call(&a, AG_ACK), LQ_OK, a.io->msg);
	}
	assert_true(kill_victim(&a.v) >= 1);
	lq_status st = agent_call(&a, AG_FLUSH);
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	f.queue = q;
	assert_lq_ok(g.db, lq_run_list(g.db, &f, count_done, &n));
	if (g.be == BE_PG || st == LQ_OK) {
		assert_st(st, LQ_OK, a.io->msg);
		assert_int_equal(n, 3);
	} else {
		assert_st(st, LQ_EUNKNOWN, a.io->msg);
		assert_true(n == 0 || n == 3);
	}
	/* Written or given up: nothing is left to send twice. */
	assert_st(agent_call(&a, AG_FLUSH), LQ_OK, a.io->msg);
	n = 0;
	assert_lq_ok(g.db, lq_run_list(g.db, &f, count_done, &n));
	assert_true(n == 0 || n == 3);
	agent_stop(&a);
}

/*
 * Killed inside the claim transaction.  A task whose at-least-once claim
 * expired on its last attempt is buried by the next claim (INSERT into
 * lq_task_dead, in the claim transaction, with the candidate row locked).
 * The locker holds an uncommitted lq_task_dead row with that id, so the
 * INSERT waits on the key; then the victim is killed.  Its transaction is
 * rolled back (the task is still live), and the next claim reconnects and
 * buries it.
 */
static void t_claim_inside(void **state)
{
	char q[200], sql[512];
	struct agent a;
	lq_task t;
	(void)state;

	name_of(q, sizeof(q), "q-inside");
	int64_t id = add_task(q, NULL, 1);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_LEAST_ONCE;
	a.io->ttl = 200;
	assert_st(agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, id);
	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) { /* until the claim has expired on the database clock */
		assert_lq_ok(g.db, lq_task_get(g.db, id, &t));
		int expired = t.claim_until <= t.now;
		lq_task_clear(&t);
		if (expired)
			break;
		assert_true(lqt_mono_ms() < deadline);
		lqt_sleep_ms(20);
	}

	snprintf(sql, sizeof(sql),
		 "INSERT INTO lq_task_dead (id, queue, name, run_at, attempts, max_attempts, created_at, died_at) "
		 "VALUES (%lld, 'lqt-lock', 'lqt-lock', 0, 0, 1, 0, 0)",
		 (long long)id);
	lock_with(sql);
	a.io->mode = LQ_AT_MOST_ONCE;
	agent_send(&a, AG_CLAIM);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the claim never waited on the locked key");
	assert_true(kill_victim(&a.v) >= 1);
	assert_st(agent_wait(&a), LQ_ECONN, a.io->msg);
	snprintf(sql, sizeof(sql), "task %lld", (long long)id);
	check_msg(a.io->msg, sql);
	unlock();

	assert_lq_ok(g.db, lq_task_get(g.db, id, &t));
	assert_int_equal(t.dead, 0); /* the killed transaction buried nothing */
	assert_true(t.claim_owner[0] != '\0');
	lq_task_clear(&t);

	assert_st(agent_call(&a, AG_CLAIM), LQ_EMPTY, a.io->msg);
	assert_lq_ok(g.db, lq_task_get(g.db, id, &t));
	assert_int_equal(t.dead, 1);
	lq_task_clear(&t);
	agent_stop(&a);
}

/* ------------------------------------------------------ claim under fire */

#define STRESS_MAX 256

struct stress {
	char queue[LQ_NAME_MAX + 1];
	lq_mode mode;
	int n;
	int64_t claim_ttl;
	struct victim v;
	int ready, stop, finished;
	int ran_total;           /* runs so far (atomic) */
	int failures;            /* ECONN + EUNKNOWN + failed acks so far (atomic) */
	int recovered;           /* calls that lost their connection yet succeeded (atomic) */
	int runs[STRESS_MAX];
	int64_t last_ms[STRESS_MAX];
	int early_dups;          /* a run again before its claim could have expired */
	int econn, eunknown, ack_retries, ack_lost, other;
	char other_msg[512];
	char econn_msg[1024];
};

static int count_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

static void stress_other(struct stress *s, lq_db *db, const char *what, lq_status st)
{
	if (s->other++ == 0)
		snprintf(s->other_msg, sizeof(s->other_msg), "%s: %s: %s", what, lq_status_str(st), lq_errmsg(db));
}

/* Identity of this process's open sockets (0: none).  After a failed call
 * the library has closed its connection, so a call that starts and ends with
 * a socket, a different one, and succeeds lost its connection and recovered
 * inside the call (an at-least-once claim re-reads its rows after a lost
 * COMMIT). */
static unsigned long sockets_id(void)
{
	unsigned long inodes[64], id = 0;
	int n = socket_inodes(getpid(), inodes, 64);
	for (int i = 0; i < n; i++)
		id = id * 1000003UL + inodes[i];
	return id;
}

static void note_recovery(struct stress *s, unsigned long before, lq_status st)
{
	unsigned long after = sockets_id();
	if (st == LQ_OK && before != 0 && after != 0 && before != after)
		__atomic_add_fetch(&s->recovered, 1, __ATOMIC_RELEASE);
}

static int stress_worker(int idx, void *arg)
{
	struct stress *s = arg;
	char dsn[2200];
	lq_db *db = NULL;
	int64_t deadline = lqt_mono_ms() + 40000;

	(void)idx;
	child_prepare();
	victim_dsn(&s->v, dsn, sizeof(dsn));
	lq_status st = lq_open(dsn, &db);
	if (st != LQ_OK) {
		stress_other(s, db, "open", st);
		__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
		return 1;
	}
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	while (lqt_mono_ms() < deadline) {
		/* Read before the claim: a kill before the stop is followed by
		 * at least one more call, which must fail. */
		int stopping = __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
		lq_task t[1];
		size_t got = 0;
		unsigned long sock = sockets_id();
		st = lq_task_claim(db, s->queue, s->mode, s->claim_ttl, t, 1, &got);
		note_recovery(s, sock, st);
		if (st == LQ_OK) {
			int i = t[0].payload ? atoi((const char *)t[0].payload) : -1;
			if (i < 0 || i >= s->n) {
				stress_other(s, db, "claim: bad payload", st);
				lq_task_clear(&t[0]);
				continue;
			}
			int64_t now = lqt_mono_ms();
			if (s->runs[i] > 0 && now - s->last_ms[i] < s->claim_ttl / 2)
				s->early_dups++;
			s->runs[i]++;
			s->last_ms[i] = now;
			lqt_sleep_ms(2); /* the task's work */
			for (int k = 0; s->mode == LQ_AT_LEAST_ONCE; k++) {
				sock = sockets_id();
				lq_status a = lq_task_ack(db, &t[0]);
				note_recovery(s, sock, a);
				if (a == LQ_OK)
					break;
				if (a == LQ_LOST) { /* an earlier ack took effect but its answer was lost */
					s->ack_lost++;
					break;
				}
				if ((a == LQ_ECONN || a == LQ_EUNKNOWN) && k < 100) {
					s->ack_retries++;
					__atomic_add_fetch(&s->failures, 1, __ATOMIC_RELEASE);
					continue;
				}
				stress_other(s, db, "ack", a);
				break;
			}
			lq_task_clear(&t[0]);
			__atomic_add_fetch(&s->ran_total, 1, __ATOMIC_RELEASE);
		} else if (st == LQ_ECONN || st == LQ_EUNKNOWN) {
			if (st == LQ_ECONN && s->econn++ == 0)
				snprintf(s->econn_msg, sizeof(s->econn_msg), "%s", lq_errmsg(db));
			if (st == LQ_EUNKNOWN)
				s->eunknown++;
			__atomic_add_fetch(&s->failures, 1, __ATOMIC_RELEASE);
		} else if (st == LQ_EMPTY) {
			if (stopping) {
				int64_t left = 0;
				if (s->mode == LQ_AT_MOST_ONCE)
					break;
				/* At-least-once: a claim whose COMMIT answer was lost
				 * holds its task until the claim expires. */
				st = lq_task_list(db, s->queue, 0, count_cb, &left);
				if (st == LQ_OK && left == 0)
					break;
				if (st != LQ_OK)
					stress_other(s, db, "list", st);
			}
			lqt_sleep_ms(5);
		} else {
			stress_other(s, db, "claim", st);
			lqt_sleep_ms(5);
		}
	}
	__atomic_store_n(&s->finished, 1, __ATOMIC_RELEASE);
	lq_close(db);
	return lqt_mono_ms() >= deadline ? 2 : 0;
}

/* n tasks claimed one by one by a worker process whose connection is killed
 * every few milliseconds; every run is recorded. */
static void stress(lq_mode mode, int n)
{
	struct stress *s = lqt_shared_alloc(sizeof(*s));
	char buf[16];
	int kills = 0;
	const char *mname = mode == LQ_AT_MOST_ONCE ? "at-most-once" : "at-least-once";

	name_of(s->queue, sizeof(s->queue), mode == LQ_AT_MOST_ONCE ? "q-amo" : "q-alo");
	s->mode = mode;
	s->n = n;
	s->claim_ttl = 3000;
	victim_new(&s->v);
	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%d", i);
		add_task(s->queue, buf, 10);
	}
	pid_t pid = lqt_spawn(0, stress_worker, s);
	s->v.pid = pid;
	kid_add(pid);
	if (lqt_wait_flag(&s->ready, CALL_WAIT_MS) != 0)
		fail_msg("the worker did not start");

	/* Kill until every task ran (or may have been lost with an unknown
	 * outcome); the worker then drains what is left. */
	int64_t end = lqt_mono_ms() + 20000;
	while (__atomic_load_n(&s->ran_total, __ATOMIC_ACQUIRE) + __atomic_load_n(&s->eunknown, __ATOMIC_ACQUIRE) < n &&
	       lqt_mono_ms() < end) {
		lqt_sleep_ms(3 + (int64_t)(lqt_rand() % 20));
		if (kill_victim(&s->v) == 0)
			continue;
		/* One kill at a time: the next waits until the worker met this
		 * one, so that no call can meet two. */
		kills++;
		int64_t met_by = lqt_mono_ms() + 10000;
		while (__atomic_load_n(&s->failures, __ATOMIC_ACQUIRE) + __atomic_load_n(&s->recovered, __ATOMIC_ACQUIRE) <
		       kills) {
			if (lqt_mono_ms() > met_by || __atomic_load_n(&s->finished, __ATOMIC_ACQUIRE))
				break;
			lqt_sleep_ms(1);
		}
	}
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	int code = wait_exit(pid, 45000);
	if (code != 0)
		fail_msg("worker exited %d: %s", code, s->other_msg);

	int dups = 0, notrun = 0;
	for (int i = 0; i < n; i++) {
		if (s->runs[i] > 1)
			dups += s->runs[i] - 1;
		if (s->runs[i] == 0)
			notrun++;
	}
	int64_t live = lqt_count_tasks(g.db, s->queue, 0), dead = lqt_count_tasks(g.db, s->queue, LQ_LIST_DEAD);
	printf("%s %s: %d tasks, %d kills: %d ECONN, %d EUNKNOWN, %d ack retries (%d found done), "
	       "%d recovered in the call; %d not run, %d run twice, %lld left, %lld dead\n",
	       g.name, mname, n, kills, s->econn, s->eunknown, s->ack_retries, s->ack_lost, s->recovered, notrun,
	       dups, (long long)live, (long long)dead);
	fflush(stdout);
	if (s->other)
		fail_msg("%d unexpected outcomes; first: %s", s->other, s->other_msg);
	if (kills < 3)
		fail_msg("only %d kills hit the worker", kills);
	/* Every kill is met by the worker's next call: it fails, or (an
	 * at-least-once claim whose COMMIT answer was lost) it recovers. */
	if (s->failures + s->recovered < kills)
		fail_msg("%d kills but only %d failed calls and %d recovered ones", kills, s->failures,
			 s->recovered);
	if (mode == LQ_AT_MOST_ONCE && s->recovered)
		fail_msg("%d at-most-once calls recovered from a lost connection", s->recovered);
	/* A claim names its queue, or the task it was claiming.  A kill just
	 * after a reconnect hits the schema check that every call makes first
	 * on a new connection, whose message names no object of the call. */
	if (s->econn > 0)
		check_msg3(s->econn_msg, s->queue, "task ", "schema check");
	assert_int_equal(live, 0);
	assert_int_equal(dead, 0);
	if (mode == LQ_AT_MOST_ONCE) {
		if (dups)
			fail_msg("at-most-once ran %d tasks twice", dups);
		/* A task is lost only when its DELETE committed but the COMMIT's
		 * answer never came back (EUNKNOWN), and then it is not run. */
		if (notrun > s->eunknown)
			fail_msg("%d tasks lost but only %d claims had an unknown outcome", notrun, s->eunknown);
	} else {
		if (notrun)
			fail_msg("at-least-once lost %d tasks", notrun);
		if (s->early_dups)
			fail_msg("%d tasks ran again while their claim was still valid", s->early_dups);
	}
	lqt_shared_free(s, sizeof(*s));
}

static void t_claim_stress_at_most_once(void **state)
{
	(void)state;
	stress(LQ_AT_MOST_ONCE, 150);
}

static void t_claim_stress_at_least_once(void **state)
{
	(void)state;
	stress(LQ_AT_LEAST_ONCE, 100);
}

/* ------------------------------------------------------------- leases */

/* Killed while holding a lease, and while a renewal waits on the lease row:
 * that renewal says ECONN, the next one reconnects and keeps the lease. */
static void t_renew(void **state)
{
	char name[200], object[240], sql[512];
	struct agent a;
	lq_lease cur;
	(void)state;

	name_of(name, sizeof(name), "renew");
	snprintf(object, sizeof(object), "lease \"%s\"", name);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", name);
	a.io->ttl = 20000;
	assert_st(agent_call(&a, AG_ACQUIRE), LQ_OK, a.io->msg);
	int64_t token = a.io->token;

	assert_true(kill_victim(&a.v) >= 1);
	assert_st(agent_call(&a, AG_RENEW), LQ_ECONN, a.io->msg);
	check_msg(a.io->msg, object);
	assert_st(agent_call(&a, AG_RENEW), LQ_OK, a.io->msg);
	assert_int_equal(a.io->token, token);

	snprintf(sql, sizeof(sql), "SELECT token FROM lq_lease WHERE name = '%s' FOR UPDATE", name);
	lock_with(sql);
	agent_send(&a, AG_RENEW);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the renewal never waited on the locked row");
	assert_true(kill_victim(&a.v) >= 1);
	assert_st(agent_wait(&a), LQ_ECONN, a.io->msg);
	check_msg(a.io->msg, object);
	unlock();
	assert_st(agent_call(&a, AG_RENEW), LQ_OK, a.io->msg);
	assert_st(agent_call(&a, AG_CHECK), LQ_OK, a.io->msg);
	assert_int_equal(a.io->token, token);

	assert_lq_ok(g.db, lq_lease_get(g.db, name, &cur));
	assert_true(lq_lease_held(&cur));
	assert_int_equal(cur.token, token);
	agent_stop(&a);
}

/* Killed, and the lease expires and is taken meanwhile: the renewal that
 * meets the dead connection says ECONN, the next one LQ_LOST. */
static void t_renew_lost(void **state)
{
	char name[200], object[240];
	struct agent a;
	lq_lease cur, mine;
	(void)state;

	name_of(name, sizeof(name), "renew-lost");
	snprintf(object, sizeof(object), "lease \"%s\"", name);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", name);
	a.io->ttl = 1000;
	assert_st(agent_call(&a, AG_ACQUIRE), LQ_OK, a.io->msg);
	int64_t token = a.io->token;
	assert_true(kill_victim(&a.v) >= 1);

	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) {
		assert_lq_ok(g.db, lq_lease_get(g.db, name, &cur));
		if (!lq_lease_held(&cur))
			break;
		assert_true(lqt_mono_ms() < deadline);
		lqt_sleep_ms(50);
	}
	assert_lq_ok(g.db, lq_lease_acquire(g.db, name, 30000, "lqt-thief", 0, &mine));
	assert_true(mine.token > token);

	assert_st(agent_call(&a, AG_RENEW), LQ_ECONN, a.io->msg);
	check_msg(a.io->msg, object);
	assert_st(agent_call(&a, AG_RENEW), LQ_LOST, a.io->msg);
	check_msg(a.io->msg, object);
	assert_st(agent_call(&a, AG_CHECK), LQ_LOST, a.io->msg);
	assert_lq_ok(g.db, lq_lease_release(g.db, &mine));
	agent_stop(&a);
}

/* ------------------------------------------------ heartbeat and ack */

/* An at-least-once claim: killed while a heartbeat and an ack wait on the
 * task row, and between calls.  One kill is ridden out (the call reconnects
 * and settles the still valid claim); two in a row say ECONN and change
 * nothing, and the claim survives to be acknowledged. */
static void t_heartbeat_ack(void **state)
{
	char q[200], object[64], sql[512];
	struct agent a;
	lq_task t;
	(void)state;

	name_of(q, sizeof(q), "q-beat");
	int64_t id = add_task(q, NULL, 0);
	snprintf(object, sizeof(object), "task %lld", (long long)id);
	agent_start(&a);
	snprintf(a.io->name, sizeof(a.io->name), "%s", q);
	a.io->mode = LQ_AT_LEAST_ONCE;
	a.io->ttl = 30000;
	assert_st(agent_call(&a, AG_CLAIM), LQ_OK, a.io->msg);
	assert_int_equal(a.io->task_id, id);
	snprintf(sql, sizeof(sql), "SELECT id FROM lq_task WHERE id = %lld FOR UPDATE", (long long)id);

	/* One lost connection is ridden out: the heartbeat reconnects and
	 * extends the claim, which is still valid. */
	lock_with(sql);
	agent_send(&a, AG_BEAT);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the heartbeat never waited on the locked row");
	assert_true(kill_victim(&a.v) >= 1);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the heartbeat did not try again on a new connection");
	unlock();
	assert_st(agent_wait(&a), LQ_OK, a.io->msg);

	/* Two in a row are reported. */
	lock_with(sql);
	agent_send(&a, AG_BEAT);
	for (int i = 0; i < 2; i++) {
		if (wait_victim(&a.v, 1, 10000) != 0)
			fail_msg("the heartbeat never waited on the locked row (attempt %d)", i + 1);
		assert_true(kill_victim(&a.v) >= 1);
	}
	assert_st(agent_wait(&a), LQ_ECONN, a.io->msg);
	check_msg(a.io->msg, object);
	unlock();
	assert_st(agent_call(&a, AG_BEAT), LQ_OK, a.io->msg);

	/* An idle connection killed under it: the next heartbeat reconnects. */
	assert_true(kill_victim(&a.v) >= 1);
	assert_st(agent_call(&a, AG_BEAT), LQ_OK, a.io->msg);

	/* An ack killed twice while it waits deleted nothing.  PostgreSQL
	 * acks in one statement that commits by itself: the second was sent,
	 * so to the caller its outcome is unknown, as a COMMIT's.  MySQL acks
	 * in a transaction, which a lost connection rolls back: LQ_ECONN. */
	lq_status killed_twice = strcmp(lq_backend_name(g.db), "postgres") == 0 ? LQ_EUNKNOWN : LQ_ECONN;
	lock_with(sql);
	agent_send(&a, AG_ACK);
	for (int i = 0; i < 2; i++) {
		if (wait_victim(&a.v, 1, 10000) != 0)
			fail_msg("the ack never waited on the locked row (attempt %d)", i + 1);
		assert_true(kill_victim(&a.v) >= 1);
	}
	assert_st(agent_wait(&a), killed_twice, a.io->msg);
	check_msg(a.io->msg, object);
	unlock();
	assert_lq_ok(g.db, lq_task_get(g.db, id, &t)); /* the killed ack deleted nothing */
	lq_task_clear(&t);

	/* Killed once: it reconnects and acks. */
	lock_with(sql);
	agent_send(&a, AG_ACK);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack never waited on the locked row");
	assert_true(kill_victim(&a.v) >= 1);
	if (wait_victim(&a.v, 1, 10000) != 0)
		fail_msg("the ack did not try again on a new connection");
	unlock();
	assert_st(agent_wait(&a), LQ_OK, a.io->msg);
	assert_lq(g.db, LQ_NOTFOUND, lq_task_get(g.db, id, &t));
	agent_stop(&a);
}

/* -------------------------------------------------------- leasectl exec */

static pid_t spawn_leasectl(const char *dsn, const char *log, char *const argv[])
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		child_prepare();
		int in = open("/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(126);
		close(in);
		close(out);
		setenv("LEASEQ_DSN", dsn, 1);
		execv(g.leasectl, argv);
		_exit(127);
	}
	kid_add(pid);
	return pid;
}

static void need_leasectl(void)
{
	if (!g.leasectl[0]) {
		printf("%s: leasectl not found (set LEASECTL): exec cases skipped\n", g.name);
		skip();
	}
}

/* The lease name as held: token, waiting up to 10 s for it. */
static int64_t wait_held(const char *name)
{
	lq_lease l;
	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) {
		lq_status st = lq_lease_get(g.db, name, &l);
		if (st == LQ_OK && lq_lease_held(&l))
			return l.token;
		if (st != LQ_OK && st != LQ_NOTFOUND)
			fail_msg("lq_lease_get: %s", lq_errmsg(g.db));
		if (lqt_mono_ms() > deadline)
			fail_msg("leasectl exec never took lease %s", name);
		lqt_sleep_ms(20);
	}
}

/*
 * `leasectl exec --ttl 10s NAME -- CMD` whose connection is killed several
 * times, once while its renewal waits on the lease row: it keeps the lease
 * (each failed renewal is retried on a new connection well within the TTL;
 * 10 s, not less: on a loaded CI machine a reconnect can take seconds),
 * another exec meanwhile exits 75, and it exits 0 with CMD.  CMD runs until
 * the test says so, so no step races the command's end.
 */
static void t_exec_keeps_lease(void **state)
{
	char name[200], gate[128], log[128], log2[128], vdsn[2200], sql[512];
	struct victim v;
	lq_lease cur;
	(void)state;

	need_leasectl();
	name_of(name, sizeof(name), "exec");
	snprintf(gate, sizeof(gate), "%s/gate-%s", g.tmpdir, g.name);
	snprintf(log, sizeof(log), "%s/exec-%s.log", g.tmpdir, g.name);
	snprintf(log2, sizeof(log2), "%s/contender-%s.log", g.tmpdir, g.name);
	unlink(gate);
	victim_new(&v);
	victim_dsn(&v, vdsn, sizeof(vdsn));
	char *const argv[] = {g.leasectl, "exec", "--ttl", "10s", name, "--", "sh", "-c",
			      "i=0; while [ ! -e \"$1\" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done",
			      "sh", gate, NULL};
	v.pid = spawn_leasectl(vdsn, log, argv);
	int64_t token = wait_held(name);

	for (int i = 0; i < 3; i++) {
		if (wait_victim(&v, 0, 10000) != 0)
			fail_msg("leasectl exec did not reconnect");
		assert_true(kill_victim(&v) >= 1);
	}
	if (wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec did not reconnect");
	snprintf(sql, sizeof(sql), "SELECT token FROM lq_lease WHERE name = '%s' FOR UPDATE", name);
	lock_with(sql);
	if (wait_victim(&v, 1, 10000) != 0)
		fail_msg("the exec's renewal never waited on the locked row");
	assert_true(kill_victim(&v) >= 1);
	unlock();
	if (wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec did not reconnect");

	char *const argv2[] = {g.leasectl, "exec", name, "--", "true", NULL};
	pid_t other = spawn_leasectl(g.dsn, log2, argv2);
	assert_int_equal(wait_exit(other, 30000), 75);

	assert_lq_ok(g.db, lq_lease_get(g.db, name, &cur));
	assert_true(lq_lease_held(&cur));
	assert_int_equal(cur.token, token);
	FILE *f = fopen(gate, "w");
	assert_non_null(f);
	fclose(f);
	int code = wait_exit(v.pid, 30000);
	if (code != 0)
		fail_msg("leasectl exec exited %d (see %s)", code, log);
	assert_lq_ok(g.db, lq_lease_get(g.db, name, &cur));
	assert_false(lq_lease_held(&cur)); /* handed back */
	assert_int_equal(cur.token, token);
	check_file_clean(log);
	check_file_clean(log2);
}

/* Killed, and the lease broken and taken elsewhere meanwhile: exec finds
 * the lease lost on its next renewal, stops the command with SIGTERM and
 * exits 3. */
static void t_exec_lost(void **state)
{
	char name[200], term[128], up[128], log[128], vdsn[2200];
	struct victim v;
	lq_lease prev, mine;
	(void)state;

	need_leasectl();
	name_of(name, sizeof(name), "exec-lost");
	snprintf(term, sizeof(term), "%s/term-%s", g.tmpdir, g.name);
	snprintf(up, sizeof(up), "%s/up-%s", g.tmpdir, g.name);
	snprintf(log, sizeof(log), "%s/exec-lost-%s.log", g.tmpdir, g.name);
	unlink(term);
	unlink(up);
	victim_new(&v);
	victim_dsn(&v, vdsn, sizeof(vdsn));
	char *const argv[] = {g.leasectl, "exec", "--ttl", "3s", name, "--", "sh", "-c",
			      "trap 'echo TERM > \"$1\"; exit 0' TERM; echo up > \"$2\"; "
			      "i=0; while [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done",
			      "sh", term, up, NULL};
	v.pid = spawn_leasectl(vdsn, log, argv);
	int64_t token = wait_held(name);
	int64_t deadline = lqt_mono_ms() + 10000;
	while (access(up, F_OK) != 0) {
		assert_true(lqt_mono_ms() < deadline);
		lqt_sleep_ms(20);
	}

	if (wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec has no session");
	assert_true(kill_victim(&v) >= 1);
	assert_lq_ok(g.db, lq_lease_break(g.db, name, &prev));
	assert_int_equal(prev.token, token);
	assert_lq_ok(g.db, lq_lease_acquire(g.db, name, 30000, "lqt-thief", 0, &mine));

	int code = wait_exit(v.pid, 30000);
	if (code != 3)
		fail_msg("leasectl exec exited %d, expected 3 (see %s)", code, log);
	if (!file_has(term, "TERM"))
		fail_msg("the command did not get SIGTERM");
	if (!file_has(log, "lost"))
		fail_msg("leasectl exec did not say the lease was lost (see %s)", log);
	check_file_clean(log);
	assert_lq_ok(g.db, lq_lease_release(g.db, &mine));
}

/* Whether pid runs leasectl yet: between fork and exec the child still has
 * our own sockets, and a MySQL victim is found by its sockets' ports. */
static int runs_leasectl(pid_t pid)
{
	char path[64], comm[32] = "";
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = fgets(comm, sizeof(comm), f) && strncmp(comm, "leasectl", 8) == 0;
	fclose(f);
	return ok;
}

/* Wait until v's leasectl has had the same session for settle_ms: past its
 * start (a connection lost while leasectl opens the database ends it with
 * 69 by design, --wait or not).  0, or -1 after timeout_ms. */
static int wait_settled(const struct victim *v, int64_t settle_ms, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms, first[4], now[4];
	while (lqt_mono_ms() < deadline) {
		if (!runs_leasectl(v->pid) || victim_ids(v, 0, first, 4) < 1) {
			lqt_sleep_ms(20);
			continue;
		}
		lqt_sleep_ms(settle_ms);
		int n = victim_ids(v, 0, now, 4);
		for (int i = 0; i < n; i++)
			if (now[i] == first[0])
				return 0;
	}
	return -1;
}

/* Kill v's sessions as soon as its leasectl has one; 0, or -1 after
 * timeout_ms. */
static int kill_when_seen(const struct victim *v, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms;
	while (!runs_leasectl(v->pid) || kill_victim(v) < 1) {
		if (lqt_mono_ms() > deadline)
			return -1;
		lqt_sleep_ms(20);
	}
	return 0;
}

/*
 * `leasectl exec --wait` and `lease acquire --wait` (exclusive, --read and
 * --slots) whose connection is killed twice while they wait for a held
 * lease (what a server restart or a failover does to a waiter): the wait
 * goes on, on a new connection, and each takes the lease once its holder
 * lets go.  (Before: exit 1 at the first lost connection.)
 */
static void t_wait_rides_out(void **state)
{
	static const char *const modes[] = {"exec --wait", "lease acquire --wait", "lease acquire --read --wait",
					    "lease acquire --slots 1 --wait"};
	char name[200], slot_name[220], ran[128], log[128], vdsn[2200];
	struct victim v;
	lq_lease mine, prev;
	(void)state;

	need_leasectl();
	name_of(name, sizeof(name), "wait");
	snprintf(slot_name, sizeof(slot_name), "%s-slots", name);
	snprintf(ran, sizeof(ran), "%s/ran-%s", g.tmpdir, g.name);
	unlink(ran);
	for (int round = 0; round < 4; round++) {
		const char *what = modes[round];
		const int exec = round == 0, slots = round == 3;
		snprintf(log, sizeof(log), "%s/wait-%d-%s.log", g.tmpdir, round, g.name);
		if (slots)
			assert_lq_ok(g.db, lqt_acquire_slot(g.db, slot_name, 1, 60000, "lqt-holder", 0, &mine));
		else
			assert_lq_ok(g.db, lq_lease_acquire(g.db, name, 60000, "lqt-holder", 0, &mine));
		victim_new(&v);
		victim_dsn(&v, vdsn, sizeof(vdsn));
		char *const exec_argv[] = {g.leasectl, "exec", "--wait", "60s", "--ttl", "30s", name, "--",
					   "sh", "-c", "echo ran > \"$1\"", "sh", ran, NULL};
		char *const acquire_argv[] = {g.leasectl, "lease", "acquire", name, "--ttl", "30s",
					      "--wait", "60s", NULL};
		char *const read_argv[] = {g.leasectl, "lease", "acquire", name, "--read", "--ttl", "30s",
					   "--wait", "60s", NULL};
		char *const slots_argv[] = {g.leasectl, "lease", "acquire", slot_name, "--slots", "1", "--ttl", "30s",
					    "--wait", "60s", NULL};
		char *const *argv[] = {exec_argv, acquire_argv, read_argv, slots_argv};
		v.pid = spawn_leasectl(vdsn, log, argv[round]);
		if (wait_settled(&v, 2000, 30000) != 0)
			fail_msg("leasectl %s never settled into its wait: exit status %d (see %s)", what,
				 wait_exit(v.pid, 5000), log);
		for (int i = 0; i < 2; i++) {
			if (kill_when_seen(&v, 30000) != 0)
				fail_msg("leasectl %s had no session to kill (kill %d): exit status %d (see %s)", what,
					 i + 1, wait_exit(v.pid, 5000), log);
		}
		if (wait_victim(&v, 0, 30000) != 0)
			fail_msg("leasectl %s did not reconnect after its connection was killed", what);
		assert_lq_ok(g.db, lq_lease_release(g.db, &mine));
		int code = wait_exit(v.pid, 30000);
		if (code != 0)
			fail_msg("leasectl %s exited %d after its connection was killed (see %s)", what, code, log);
		if (exec && !file_has(ran, "ran"))
			fail_msg("leasectl exec --wait did not run its command");
		if (!exec && !file_has(log, round == 1 ? "lq1:" : "lq2:"))
			fail_msg("leasectl %s printed no handle (see %s)", what, log);
		if (!exec)
			assert_lq_ok(g.db, lq_lease_break(g.db, slots ? slot_name : name, &prev));
	}
}

/* ---------------------------------------------------------------- main */

static void find_leasectl(void)
{
	const char *env = getenv("LEASECTL");
	char self[PATH_MAX];
	ssize_t n;

	g.leasectl[0] = '\0';
	if (env && *env) {
		snprintf(g.leasectl, sizeof(g.leasectl), "%s", env);
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
	snprintf(g.leasectl, sizeof(g.leasectl), "%.*s/../leasectl", PATH_MAX - 16, self);
	if (access(g.leasectl, X_OK) != 0)
		g.leasectl[0] = '\0';
}

static void rm_tmpdir(void)
{
	DIR *d = opendir(g.tmpdir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof(path), "%s/%s", g.tmpdir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
	rmdir(g.tmpdir);
}

static int run_backend(int be, const char *dsn)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_claim_between, test_teardown),
		cmocka_unit_test_teardown(t_claim_inside, test_teardown),
		cmocka_unit_test_teardown(t_history_rows_kept, test_teardown),
		cmocka_unit_test_teardown(t_claim_stress_at_most_once, test_teardown),
		cmocka_unit_test_teardown(t_claim_stress_at_least_once, test_teardown),
		cmocka_unit_test_teardown(t_renew, test_teardown),
		cmocka_unit_test_teardown(t_renew_lost, test_teardown),
		cmocka_unit_test_teardown(t_heartbeat_ack, test_teardown),
		cmocka_unit_test_teardown(t_exec_keeps_lease, test_teardown),
		cmocka_unit_test_teardown(t_exec_lost, test_teardown),
		cmocka_unit_test_teardown(t_wait_rides_out, test_teardown),
	};
	lq_dsn_url u;
	lq_err err;

	g.be = be;
	g.name = be == BE_PG ? "postgres" : "mysql";
	g.base_dsn = dsn;
	g.password[0] = '\0';
	g.port = 3306;
	if (lq__dsn_parse_url(dsn, &u, &err) == LQ_OK) {
		snprintf(g.password, sizeof(g.password), "%s", u.password);
		if (u.port)
			g.port = u.port;
		if (be == BE_MY && (strstr(u.query, "socket=") || !strcmp(u.host, "localhost") || !u.host[0])) {
			printf("mysql: the DSN uses a unix socket: victims cannot be told apart: skipped\n");
			explicit_bzero(&u, sizeof(u));
			return 0;
		}
	}
	explicit_bzero(&u, sizeof(u));
	return cmocka_run_group_tests_name(g.name, tests, group_setup, group_teardown);
}

int main(void)
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
		fprintf(stderr, "test_connloss: %s not set (LEASEQ_REQUIRE_ALL_BACKENDS)\n",
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
	snprintf(g.tmpdir, sizeof(g.tmpdir), "/tmp/lqt-connloss-XXXXXX");
	if (!mkdtemp(g.tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (pg) {
#ifdef LEASEQ_HAVE_POSTGRES
		failures += run_backend(BE_PG, pg);
		ran++;
#else
		printf("postgres: this leaseq was built without PostgreSQL support\n");
		failures += require;
#endif
	}
	if (my) {
#ifdef LEASEQ_HAVE_MYSQL
		failures += run_backend(BE_MY, my);
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
