/*
 * testutil.c - see testutil.h.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fault_backend.h"
#include "internal.h"

const char *lqt_conf_backend;
/* --retry-storm: every handle goes through the fault backend, which makes
 * one call of each transaction or lone statement fail with a conflict. */
static int lqt_storm;
const char *lqt_conf_dsn;

/* Temporary SQLite directories, removed by the process that made them. */
#define LQT_MAX_TMPDIRS 64
static char lqt_tmpdirs[LQT_MAX_TMPDIRS][64];
static int lqt_ntmpdirs;
static pid_t lqt_main_pid;

void lqt_die(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[pid %ld] %s:%d: ", (long)getpid(), file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	/* A child must not run the parent's atexit handlers (they would
	 * remove the database under everybody's feet). */
	if (lqt_main_pid != 0 && getpid() != lqt_main_pid)
		_exit(1);
	exit(1);
}

const char *lqt_backend_from_args(int argc, char **argv)
{
	const char *b = "sqlite";

	if (lqt_main_pid == 0)
		lqt_main_pid = getpid();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
			b = argv[++i];
		} else if (strncmp(argv[i], "--backend=", 10) == 0) {
			b = argv[i] + 10;
		} else if (strcmp(argv[i], "--retry-storm") == 0) {
			lqt_storm = 1;
		} else {
			fprintf(stderr, "usage: %s [--backend sqlite|postgres|mysql] [--retry-storm]\n", argv[0]);
			exit(64);
		}
	}
	if (strcmp(b, "sqlite") != 0 && strcmp(b, "postgres") != 0 && strcmp(b, "mysql") != 0) {
		fprintf(stderr, "%s: unknown backend '%s' (sqlite, postgres or mysql)\n", argv[0], b);
		exit(64);
	}
	if (lqt_storm && strcmp(b, "sqlite") != 0) {
		fprintf(stderr, "%s: --retry-storm wraps the sqlite backend only\n", argv[0]);
		exit(64);
	}
	if (lqt_storm)
		lqt_fault_retry_storm(1);
	return b;
}

static void lqt_rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

void lqt_cleanup(void)
{
	if (getpid() != lqt_main_pid)
		return;
	if (getenv("LEASEQ_TEST_KEEP") != NULL) {
		for (int i = 0; i < lqt_ntmpdirs; i++)
			fprintf(stderr, "kept %s\n", lqt_tmpdirs[i]);
		return;
	}
	for (int i = 0; i < lqt_ntmpdirs; i++)
		lqt_rm_dir(lqt_tmpdirs[i]);
	lqt_ntmpdirs = 0;
}

static const char *lqt_env_dsn(const char *backend, const char *var)
{
	const char *dsn = getenv(var);

	if (dsn != NULL && *dsn != '\0')
		return dsn;
	if (getenv("LEASEQ_REQUIRE_ALL_BACKENDS") != NULL) {
		fprintf(stderr, "backend %s: %s not set\n", backend, var);
		exit(1);
	}
	printf("skipped: backend %s: %s not set\n", backend, var);
	fflush(stdout);
	exit(LQT_SKIP);
}

const char *lqt_dsn(const char *backend)
{
	static char dsn[LQT_MAX_TMPDIRS][96];
	char *dir;

	if (strcmp(backend, "postgres") == 0)
		return lqt_env_dsn(backend, "LEASEQ_TEST_PG_DSN");
	if (strcmp(backend, "mysql") == 0)
		return lqt_env_dsn(backend, "LEASEQ_TEST_MYSQL_DSN");
	if (strcmp(backend, "sqlite") != 0)
		lqt_die(__FILE__, __LINE__, "unknown backend %s", backend);

	static int registered;

	if (lqt_main_pid == 0)
		lqt_main_pid = getpid();
	if (!registered) {
		registered = 1;
		atexit(lqt_cleanup);
	}
	if (lqt_ntmpdirs == LQT_MAX_TMPDIRS)
		lqt_die(__FILE__, __LINE__, "too many temporary databases");
	dir = lqt_tmpdirs[lqt_ntmpdirs];
	snprintf(dir, sizeof(lqt_tmpdirs[0]), "/tmp/lqt-XXXXXX");
	if (mkdtemp(dir) == NULL)
		lqt_die(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
	snprintf(dsn[lqt_ntmpdirs], sizeof(dsn[0]), "sqlite:%s/test.db", dir);
	return dsn[lqt_ntmpdirs++];
}

int lqt_retry_storm(void)
{
	return lqt_storm;
}

/* lq_open, or the fault backend's open under --retry-storm. */
static lq_status lqt_open_handle(const char *dsn, lq_db **db)
{
	return lqt_storm && strncmp(dsn, "sqlite:", 7) == 0 ? lqt_fault_open(dsn, db) : lq_open(dsn, db);
}

/* The index lqt_spawn gave this process; -1 in the test's own process. */
static int lqt_child_idx = -1;

/* With LEASEQ_TEST_SPREAD_DSNS ("D0 D1 ..."), child i opens D(i mod n) in
 * place of D0: clients spread over the nodes of a cluster. */
static const char *lqt_spread(const char *dsn, char *buf, size_t size)
{
	const char *list = getenv("LEASEQ_TEST_SPREAD_DSNS");
	const char *w[16];
	size_t len[16], n = 0;

	if (list == NULL || lqt_child_idx < 0)
		return dsn;
	for (const char *p = list; *p != '\0' && n < 16;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		w[n] = p;
		while (*p != '\0' && *p != ' ')
			p++;
		len[n] = (size_t)(p - w[n]);
		n++;
	}
	if (n == 0 || strlen(dsn) != len[0] || strncmp(dsn, w[0], len[0]) != 0)
		return dsn;
	size_t i = (size_t)lqt_child_idx % n;
	if (len[i] >= size)
		return dsn;
	memcpy(buf, w[i], len[i]);
	buf[len[i]] = '\0';
	return buf;
}

lq_db *lqt_open(const char *dsn)
{
	lq_db *db = NULL;
	char spread[1024];
	lq_status st = lqt_open_handle(lqt_spread(dsn, spread, sizeof(spread)), &db);

	if (st != LQ_OK) {
		fprintf(stderr, "[pid %ld] lq_open: %s: %s\n", (long)getpid(), lq_status_str(st),
			db != NULL ? lq_errmsg(db) : "");
		lq_close(db);
		return NULL;
	}
	return db;
}

/* Fail the running cmocka test, or exit when there is none. */
static void lqt_fail_setup(lq_db *db, const char *what, lq_status st)
{
	print_error("%s: %s: %s\n", what, lq_status_str(st), db != NULL ? lq_errmsg(db) : "");
	fail();
}

sqlite3 *lqt_sqlite_open(const char *dsn, int flags)
{
	char path[1024];
	snprintf(path, sizeof(path), "%.*s", (int)strcspn(dsn + 7, "?"), dsn + 7); /* after "sqlite:" */
	sqlite3 *s = NULL;
	if (sqlite3_open_v2(path, &s, flags, NULL) != SQLITE_OK)
		fail_msg("%s: %s", path, s ? sqlite3_errmsg(s) : "out of memory");
	sqlite3_busy_timeout(s, 5000);
	return s;
}

lq_db *lqt_open_fresh(const char *dsn)
{
	lq_db *db = NULL;
	lq_status st;

	if (lqt_main_pid == 0)
		lqt_main_pid = getpid();
	st = lqt_open_handle(dsn, &db);
	if (st != LQ_OK) {
		lqt_fail_setup(db, "lq_open", st);
		lq_close(db);
		return NULL;
	}
	st = lq__drop_schema(db);
	if (st != LQ_OK) {
		lqt_fail_setup(db, "lq__drop_schema", st);
		lq_close(db);
		return NULL;
	}
	st = lq_migrate(db, NULL, NULL);
	if (st != LQ_OK) {
		lqt_fail_setup(db, "lq_migrate", st);
		lq_close(db);
		return NULL;
	}
	return db;
}

lq_status lqt_drop_schema(lq_db *db)
{
	return lq__drop_schema(db);
}

lq_status lqt_exec_sql(lq_db *db, const char *sql)
{
	lq_status st = lq__connect(db);

	if (st != LQ_OK)
		return st;
	return lq__exec_script(db, "test set-up", sql);
}

lq_status lqt_reset(lq_db *db)
{
	static const char *const stmts[] = {
		"DELETE FROM lq_lease", "DELETE FROM lq_lease_slot", "DELETE FROM lq_task", "DELETE FROM lq_task_dead",
		"DELETE FROM lq_queue", "DELETE FROM lq_run", "DELETE FROM lq_counter", "DELETE FROM lq_task_cancel", "DELETE FROM lq_task_running", "DELETE FROM lq_limit",
		"DELETE FROM lq_partition",
	};

	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		lq_status st = lqt_exec_sql(db, stmts[i]);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

int64_t lqt_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t lqt_mono_ms(void)
{
	return lqt_mono_us() / 1000;
}

void lqt_sleep_ms(int64_t ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

lq_status lqt_acquire_slot(lq_db *db, const char *name, int slots, int64_t ttl_ms, const char *owner,
			   int64_t wait_ms, lq_lease *out)
{
	lq_lease_opts o = {.version = LQ_LEASE_OPTS_VERSION, .kind = LQ_LEASE_SLOT, .slots = slots, .owner = owner,
			   .wait_ms = wait_ms};
	return lq_lease_take(db, name, ttl_ms, &o, out);
}

lq_status lqt_acquire_read(lq_db *db, const char *name, int64_t ttl_ms, const char *owner, int64_t wait_ms,
			   lq_lease *out)
{
	lq_lease_opts o = {.version = LQ_LEASE_OPTS_VERSION, .kind = LQ_LEASE_READ, .owner = owner, .wait_ms = wait_ms};
	return lq_lease_take(db, name, ttl_ms, &o, out);
}

int64_t lqt_db_now(lq_db *db)
{
	int64_t now = 0;
	lq_status st = lq_now(db, &now);

	if (st != LQ_OK)
		lqt_die(__FILE__, __LINE__, "lq_now: %s: %s", lq_status_str(st), lq_errmsg(db));
	return now;
}

void lqt_set_limit(lq_db *db, const char *key, int concurrency, int rate_n, int64_t period_ms)
{
	lq_limit l;
	lq_status st;

	memset(&l, 0, sizeof(l));
	snprintf(l.key, sizeof(l.key), "%s", key);
	l.concurrency = concurrency;
	l.rate_n = rate_n;
	l.rate_period_ms = period_ms;
	st = lq_limit_set(db, &l);
	if (st != LQ_OK)
		lqt_die(__FILE__, __LINE__, "lq_limit_set %s: %s: %s", key, lq_status_str(st), lq_errmsg(db));
}

int lqt_task_no(const lq_task *t, int n)
{
	char buf[16];
	char *end;
	long k;

	if (t->payload == NULL || t->payload_len == 0 || t->payload_len >= sizeof(buf))
		return -1;
	memcpy(buf, t->payload, t->payload_len);
	buf[t->payload_len] = '\0';
	k = strtol(buf, &end, 10);
	return *end != '\0' || k < 0 || k >= n ? -1 : (int)k;
}

int lqt_cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

void lqt_ack_counting_lost(lq_db *db, const lq_task *t, int *lost)
{
	lq_status st = lq_task_ack(db, t);
	if (st == LQ_LOST)
		__atomic_add_fetch(lost, 1, __ATOMIC_RELAXED);
	else
		LQT_CHECK(st == LQ_OK, "ack: %s: %s", lq_status_str(st), lq_errmsg(db));
}

uint32_t lqt_rand(void)
{
	static uint64_t s;
	static pid_t seeded_for;

	/* Reseed after a fork so that children do not share one sequence. */
	if (seeded_for != getpid()) {
		seeded_for = getpid();
		s = (uint64_t)lqt_mono_us() * 6364136223846793005ULL ^ (uint64_t)getpid() << 32;
		s |= 1;
	}
	/* xorshift64* */
	s ^= s >> 12;
	s ^= s << 25;
	s ^= s >> 27;
	return (uint32_t)((s * 2685821657736338717ULL) >> 32);
}

/* ------------------------------------------------------------ processes */

pid_t lqt_spawn(int idx, lqt_child_fn fn, void *ctx)
{
	pid_t pid;

	if (lqt_main_pid == 0)
		lqt_main_pid = getpid();
	fflush(NULL); /* or the child prints the parent's buffered output again */
	pid = fork();
	if (pid < 0)
		lqt_die(__FILE__, __LINE__, "fork: %s", strerror(errno));
	if (pid == 0) {
		lqt_child_idx = idx;
		int rc = fn(idx, ctx);
		fflush(NULL);
		_exit(rc);
	}
	return pid;
}

int lqt_wait_children(const pid_t *pids, int n, int *codes, int timeout_s)
{
	int status[256];
	int left = n, bad = 0;
	int64_t deadline = lqt_mono_ms() + (int64_t)timeout_s * 1000;

	if (n > 256)
		lqt_die(__FILE__, __LINE__, "too many children");
	for (int i = 0; i < n; i++)
		status[i] = -1;
	while (left > 0) {
		for (int i = 0; i < n; i++) {
			int st;
			if (status[i] != -1)
				continue;
			pid_t pid = waitpid(pids[i], &st, WNOHANG);
			if (pid == pids[i]) {
				status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				left--;
			} else if (pid < 0 && errno != EINTR) {
				status[i] = 125; /* not our child: a bug in the test */
				left--;
			}
		}
		if (left == 0)
			break;
		if (lqt_mono_ms() > deadline) {
			for (int i = 0; i < n; i++) {
				if (status[i] != -1)
					continue;
				fprintf(stderr, "child %d (pid %ld) still running after %d s: killed\n", i,
					(long)pids[i], timeout_s);
				kill(pids[i], SIGKILL);
				waitpid(pids[i], NULL, 0);
				status[i] = 124;
			}
			break;
		}
		lqt_sleep_ms(5);
	}
	for (int i = 0; i < n; i++) {
		if (codes != NULL)
			codes[i] = status[i];
		if (status[i] != 0) {
			bad++;
			fprintf(stderr, "child %d exited with status %d\n", i, status[i]);
		}
	}
	return bad;
}

int lqt_run_children(int n, lqt_child_fn fn, void *ctx, int *codes, int timeout_s)
{
	pid_t pids[256];

	if (n > 256)
		lqt_die(__FILE__, __LINE__, "too many children");
	for (int i = 0; i < n; i++)
		pids[i] = lqt_spawn(i, fn, ctx);
	return lqt_wait_children(pids, n, codes, timeout_s);
}

void *lqt_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		lqt_die(__FILE__, __LINE__, "mmap %zu bytes: %s", size, strerror(errno));
	return p; /* anonymous mappings start zeroed */
}

void lqt_shared_free(void *p, size_t size)
{
	if (p != NULL)
		munmap(p, size);
}

int lqt_wait_flag(volatile int *flag, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms;

	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
		if (lqt_mono_ms() > deadline)
			return -1;
		lqt_sleep_ms(2);
	}
	return 0;
}

/* ---------------------------------------------------------- conformance */

int lqt_conf_group_setup(void **state)
{
	lqt_conf *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return -1;
	c->backend = lqt_conf_backend;
	c->dsn = lqt_conf_dsn;
	c->db = lqt_open_fresh(c->dsn);
	if (c->db == NULL) {
		free(c);
		return -1;
	}
	*state = c;
	return 0;
}

int lqt_conf_group_teardown(void **state)
{
	lqt_conf *c = *state;

	if (c != NULL) {
		lq_close(c->db);
		free(c);
	}
	*state = NULL;
	return 0;
}

int lqt_conf_test_setup(void **state)
{
	lqt_conf *c = *state;
	lq_status st;

	/* A test that failed half-way may have left the handle closed. */
	if (c->db == NULL)
		c->db = lqt_open(c->dsn);
	if (c->db == NULL)
		return -1;
	st = lqt_reset(c->db);
	if (st != LQ_OK) {
		print_error("reset: %s: %s\n", lq_status_str(st), lq_errmsg(c->db));
		return -1;
	}
	return 0;
}

void lqt_conf_close(lqt_conf *c)
{
	lq_close(c->db);
	c->db = NULL;
}

void lqt_conf_reopen(lqt_conf *c)
{
	if (c->db == NULL)
		c->db = lqt_open(c->dsn);
	assert_non_null(c->db);
}

static int lqt_count_lease_cb(const lq_lease *l, void *ctx)
{
	(void)l;
	(*(int64_t *)ctx)++;
	return 0;
}

int64_t lqt_count_leases(lq_db *db)
{
	int64_t n = 0;

	assert_lq_ok(db, lq_lease_list(db, lqt_count_lease_cb, &n));
	return n;
}

static int lqt_count_task_cb(const lq_task *t, void *ctx)
{
	(void)t;
	(*(int64_t *)ctx)++;
	return 0;
}

int64_t lqt_count_tasks(lq_db *db, const char *queue, unsigned flags)
{
	int64_t n = 0;

	assert_lq_ok(db, lq_task_list(db, queue, flags, lqt_count_task_cb, &n));
	return n;
}

int lqt_keep_run(const lq_run *r, void *arg)
{
	struct lqt_runs *rs = arg;

	if (rs->n < LQT_RUNS_MAX) {
		rs->r[rs->n] = *r;
		snprintf(rs->err[rs->n], sizeof(rs->err[0]), "%s", r->error ? r->error : "");
		rs->r[rs->n].error = NULL; /* borrowed: keep the copy */
		rs->n++;
	}
	return 0;
}

void lqt_runs_of(lq_db *db, int64_t id, struct lqt_runs *rs)
{
	lq_run_filter f = LQ_RUN_FILTER_INIT;

	memset(rs, 0, sizeof(*rs));
	f.task_id = id;
	LQT_CHECK_ST(db, LQ_OK, lq_run_list(db, &f, lqt_keep_run, rs));
}
