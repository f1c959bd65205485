/*
 * test_connloss_exec.c - `leasectl exec` and the --wait of exec and lease
 * acquire, whose connections are killed while they hold or wait for a lease.
 * The harness, and how victims are found and killed: tests/connloss.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "connloss.h"

/* -------------------------------------------------------- leasectl exec */

static pid_t spawn_leasectl(const char *dsn, const char *log, char *const argv[])
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		cl_child_prepare();
		int in = open("/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(126);
		close(in);
		close(out);
		setenv("LEASEQ_DSN", dsn, 1);
		execv(cl.leasectl, argv);
		_exit(127);
	}
	cl_kid_add(pid);
	return pid;
}

static void need_leasectl(void)
{
	if (!cl.leasectl[0]) {
		printf("%s: leasectl not found (set LEASECTL): exec cases skipped\n", cl.name);
		skip();
	}
}

/* The lease name as held: token, waiting up to 10 s for it. */
static int64_t wait_held(const char *name)
{
	lq_lease l;
	int64_t deadline = lqt_mono_ms() + 10000;
	for (;;) {
		lq_status st = lq_lease_get(cl.db, name, &l);
		if (st == LQ_OK && lq_lease_held(&l))
			return l.token;
		if (st != LQ_OK && st != LQ_NOTFOUND)
			fail_msg("lq_lease_get: %s", lq_errmsg(cl.db));
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
	struct cl_victim v;
	lq_lease cur;
	(void)state;

	need_leasectl();
	cl_name_of(name, sizeof(name), "exec");
	snprintf(gate, sizeof(gate), "%s/gate-%s", cl.tmpdir, cl.name);
	snprintf(log, sizeof(log), "%s/exec-%s.log", cl.tmpdir, cl.name);
	snprintf(log2, sizeof(log2), "%s/contender-%s.log", cl.tmpdir, cl.name);
	unlink(gate);
	cl_victim_new(&v);
	cl_victim_dsn(&v, vdsn, sizeof(vdsn));
	char *const argv[] = {cl.leasectl, "exec", "--ttl", "10s", name, "--", "sh", "-c",
			      "i=0; while [ ! -e \"$1\" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done",
			      "sh", gate, NULL};
	v.pid = spawn_leasectl(vdsn, log, argv);
	int64_t token = wait_held(name);

	for (int i = 0; i < 3; i++) {
		if (cl_wait_victim(&v, 0, 10000) != 0)
			fail_msg("leasectl exec did not reconnect");
		assert_true(cl_kill_victim(&v) >= 1);
	}
	if (cl_wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec did not reconnect");
	snprintf(sql, sizeof(sql), "SELECT token FROM lq_lease WHERE name = '%s' FOR UPDATE", name);
	cl_lock_with(sql);
	if (cl_wait_victim(&v, 1, 10000) != 0)
		fail_msg("the exec's renewal never waited on the locked row");
	assert_true(cl_kill_victim(&v) >= 1);
	cl_unlock();
	if (cl_wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec did not reconnect");

	char *const argv2[] = {cl.leasectl, "exec", name, "--", "true", NULL};
	pid_t other = spawn_leasectl(cl.dsn, log2, argv2);
	assert_int_equal(cl_wait_exit(other, 30000), 75);

	assert_lq_ok(cl.db, lq_lease_get(cl.db, name, &cur));
	assert_true(lq_lease_held(&cur));
	assert_int_equal(cur.token, token);
	FILE *f = fopen(gate, "w");
	assert_non_null(f);
	fclose(f);
	int code = cl_wait_exit(v.pid, 30000);
	if (code != 0)
		fail_msg("leasectl exec exited %d (see %s)", code, log);
	assert_lq_ok(cl.db, lq_lease_get(cl.db, name, &cur));
	assert_false(lq_lease_held(&cur)); /* handed back */
	assert_int_equal(cur.token, token);
	cl_check_file_clean(log);
	cl_check_file_clean(log2);
}

/* Killed, and the lease broken and taken elsewhere meanwhile: exec finds
 * the lease lost on its next renewal, stops the command with SIGTERM and
 * exits 3. */
static void t_exec_lost(void **state)
{
	char name[200], term[128], up[128], log[128], vdsn[2200];
	struct cl_victim v;
	lq_lease prev, mine;
	(void)state;

	need_leasectl();
	cl_name_of(name, sizeof(name), "exec-lost");
	snprintf(term, sizeof(term), "%s/term-%s", cl.tmpdir, cl.name);
	snprintf(up, sizeof(up), "%s/up-%s", cl.tmpdir, cl.name);
	snprintf(log, sizeof(log), "%s/exec-lost-%s.log", cl.tmpdir, cl.name);
	unlink(term);
	unlink(up);
	cl_victim_new(&v);
	cl_victim_dsn(&v, vdsn, sizeof(vdsn));
	char *const argv[] = {cl.leasectl, "exec", "--ttl", "3s", name, "--", "sh", "-c",
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

	if (cl_wait_victim(&v, 0, 10000) != 0)
		fail_msg("leasectl exec has no session");
	assert_true(cl_kill_victim(&v) >= 1);
	assert_lq_ok(cl.db, lq_lease_break(cl.db, name, &prev));
	assert_int_equal(prev.token, token);
	assert_lq_ok(cl.db, lq_lease_acquire(cl.db, name, 30000, "lqt-thief", 0, &mine));

	int code = cl_wait_exit(v.pid, 30000);
	if (code != 3)
		fail_msg("leasectl exec exited %d, expected 3 (see %s)", code, log);
	if (!cl_file_has(term, "TERM"))
		fail_msg("the command did not get SIGTERM");
	if (!cl_file_has(log, "lost"))
		fail_msg("leasectl exec did not say the lease was lost (see %s)", log);
	cl_check_file_clean(log);
	assert_lq_ok(cl.db, lq_lease_release(cl.db, &mine));
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
static int wait_settled(const struct cl_victim *v, int64_t settle_ms, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms, first[4], now[4];
	while (lqt_mono_ms() < deadline) {
		if (!runs_leasectl(v->pid) || cl_victim_ids(v, 0, first, 4) < 1) {
			lqt_sleep_ms(20);
			continue;
		}
		lqt_sleep_ms(settle_ms);
		int n = cl_victim_ids(v, 0, now, 4);
		for (int i = 0; i < n; i++)
			if (now[i] == first[0])
				return 0;
	}
	return -1;
}

/* Kill v's sessions as soon as its leasectl has one; 0, or -1 after
 * timeout_ms. */
static int kill_when_seen(const struct cl_victim *v, int64_t timeout_ms)
{
	int64_t deadline = lqt_mono_ms() + timeout_ms;
	while (!runs_leasectl(v->pid) || cl_kill_victim(v) < 1) {
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
	struct cl_victim v;
	lq_lease mine, prev;
	(void)state;

	need_leasectl();
	cl_name_of(name, sizeof(name), "wait");
	snprintf(slot_name, sizeof(slot_name), "%s-slots", name);
	snprintf(ran, sizeof(ran), "%s/ran-%s", cl.tmpdir, cl.name);
	unlink(ran);
	for (int round = 0; round < 4; round++) {
		const char *what = modes[round];
		const int exec = round == 0, slots = round == 3;
		snprintf(log, sizeof(log), "%s/wait-%d-%s.log", cl.tmpdir, round, cl.name);
		if (slots)
			assert_lq_ok(cl.db, lqt_acquire_slot(cl.db, slot_name, 1, 60000, "lqt-holder", 0, &mine));
		else
			assert_lq_ok(cl.db, lq_lease_acquire(cl.db, name, 60000, "lqt-holder", 0, &mine));
		cl_victim_new(&v);
		cl_victim_dsn(&v, vdsn, sizeof(vdsn));
		char *const exec_argv[] = {cl.leasectl, "exec", "--wait", "60s", "--ttl", "30s", name, "--",
					   "sh", "-c", "echo ran > \"$1\"", "sh", ran, NULL};
		char *const acquire_argv[] = {cl.leasectl, "lease", "acquire", name, "--ttl", "30s",
					      "--wait", "60s", NULL};
		char *const read_argv[] = {cl.leasectl, "lease", "acquire", name, "--read", "--ttl", "30s",
					   "--wait", "60s", NULL};
		char *const slots_argv[] = {cl.leasectl, "lease", "acquire", slot_name, "--slots", "1", "--ttl", "30s",
					    "--wait", "60s", NULL};
		char *const *argv[] = {exec_argv, acquire_argv, read_argv, slots_argv};
		v.pid = spawn_leasectl(vdsn, log, argv[round]);
		if (wait_settled(&v, 2000, 30000) != 0)
			fail_msg("leasectl %s never settled into its wait: exit status %d (see %s)", what,
				 cl_wait_exit(v.pid, 5000), log);
		for (int i = 0; i < 2; i++) {
			if (kill_when_seen(&v, 30000) != 0)
				fail_msg("leasectl %s had no session to kill (kill %d): exit status %d (see %s)", what,
					 i + 1, cl_wait_exit(v.pid, 5000), log);
		}
		if (cl_wait_victim(&v, 0, 30000) != 0)
			fail_msg("leasectl %s did not reconnect after its connection was killed", what);
		assert_lq_ok(cl.db, lq_lease_release(cl.db, &mine));
		int code = cl_wait_exit(v.pid, 30000);
		if (code != 0)
			fail_msg("leasectl %s exited %d after its connection was killed (see %s)", what, code, log);
		if (exec && !cl_file_has(ran, "ran"))
			fail_msg("leasectl exec --wait did not run its command");
		if (!exec && !cl_file_has(log, round == 1 ? "lq1:" : "lq2:"))
			fail_msg("leasectl %s printed no handle (see %s)", what, log);
		if (!exec)
			assert_lq_ok(cl.db, lq_lease_break(cl.db, slots ? slot_name : name, &prev));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_exec_keeps_lease, cl_test_teardown),
		cmocka_unit_test_teardown(t_exec_lost, cl_test_teardown),
		cmocka_unit_test_teardown(t_wait_rides_out, cl_test_teardown),
	};
	return CL_MAIN("test_connloss_exec", tests);
}
