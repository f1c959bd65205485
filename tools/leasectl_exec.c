/*
 * leasectl_exec.c - "leasectl exec NAME -- COMMAND [ARG...]": run a command
 * while holding a lease, so that a cron line runs once across a fleet.
 *
 * The parent holds the database connection and does every library call: it
 * acquires the lease, forks, renews every TTL/3 while the child runs and
 * hands the lease back when it exits.  The child only execs the command (no
 * shell) with the handle in its environment and no database secrets.  If
 * the lease is lost the child is stopped with everything it started
 * (leasectl_child.c): SIGTERM, then SIGKILL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leasectl.h"

#define EXEC_DEFAULT_TTL_MS 30000
#define EXEC_MAX_GRACE_MS 10000
#define EXEC_MIN_GRACE_MS 100

struct exec_args {
	const char *ttl, *wait, *min_hold, *conflict_exit, *name, *log_format, *slots, *overlap;
	struct lc_rest cmd;
};

static const struct lc_opt exec_opts[] = {
	LC_VALUE(struct exec_args, ttl, "ttl", 0, "DUR", 0,
		 "the lease's time to live, renewed every DUR/3 while COMMAND runs\n"
		 "(default 30s): a host that dies frees the lease within DUR"),
	LC_VALUE(struct exec_args, wait, "wait", 0, "DUR", 0,
		 "if the lease is held, keep trying for up to DUR (default: give up\nat once); a lost connection meanwhile is retried"),
	LC_VALUE(struct exec_args, min_hold, "min-hold", 0, "DUR", 0,
		 "keep the lease until DUR after it was acquired even if COMMAND ends\n"
		 "sooner, so that other hosts do not run the same cron slot again\n"
		 "(default: release as soon as COMMAND ends)"),
	LC_VALUE(struct exec_args, conflict_exit, "conflict-exit", 0, "N", 0,
		 "exit status when the lease is held elsewhere (default 75; 0 makes\n"
		 "\"another host runs it\" a success for cron)"),
	LC_VALUE(struct exec_args, overlap, "overlap", 0, "skip|queue|cancel-previous", 0,
		 "when the previous run (another holder) is still going: skip this\n"
		 "one, exit 75 at once (the default), queue it: wait until the lease\n"
		 "is free, however long (--wait DUR bounds the wait), or cancel-previous:\n"
		 "break the holder's lease (it stops its COMMAND at its next renewal,\n"
		 "within its TTL/3, and exits 3) and run this one"),
	LC_VALUE(struct exec_args, slots, "slots", 0, "N", 0,
		 "NAME is a semaphore of N slots (1-1000): at most N runs of NAME at\n"
		 "once across the fleet, each holding its own slot"),
	LC_LOG_OPT(struct exec_args, log_format),
	LC_ARG(struct exec_args, name, "NAME", 0, "the lease"),
	LC_REST(struct exec_args, cmd, "COMMAND [ARG...]", LC_REQUIRED,
		"the program and its arguments, run directly (no shell; use\n"
		"sh -c '...' for one); the first word after NAME also starts it"),
	LC_OPT_TABLE_END,
};

const struct lc_usage lc_exec_usage = {
	.path = "exec",
	.summary = "run a command while holding a lease (once across a fleet)",
	.description =
		"Acquires the lease NAME; if it is held elsewhere, says by whom until when\n"
		"and exits 75 (or --conflict-exit).  Otherwise runs COMMAND with the\n"
		"environment of leasectl minus the database secrets (LEASEQ_DSN,\n"
		"PGPASSWORD, MYSQL_PWD), plus LEASEQ_LEASE (the encoded handle: 'leasectl\n"
		"lease renew/release' accept it) and LEASEQ_FENCING_TOKEN (pass it to\n"
		"whatever COMMAND writes, so that a stale holder's writes can be refused).\n"
		"\n"
		"While COMMAND runs the lease is renewed every TTL/3.  COMMAND runs in its\n"
		"own process group; SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to leasectl\n"
		"are passed on to that group (one that comes before COMMAND started\n"
		"releases the lease and exits 128+N).  If the lease is lost (it was\n"
		"broken, or could not be renewed before it expired), COMMAND's group gets\n"
		"SIGTERM, then SIGKILL after min(TTL/3, 10s), and leasectl exits 3.\n"
		"Descendants that left the group (setsid, double fork) come back to\n"
		"leasectl (a child subreaper) and are stopped with it, also when COMMAND\n"
		"ends: nothing it started outlives the lease.  COMMAND dies with leasectl\n"
		"(PR_SET_PDEATHSIG).  When COMMAND ends, the lease is released (or kept\n"
		"until --min-hold) and leasectl exits with COMMAND's status (128+N if it\n"
		"was killed by signal N).\n"
		"\n"
		"The overlap words of recurring tasks, for cron lines: --overlap skip (the\n"
		"default) drops a run whose predecessor still holds the lease; --overlap\n"
		"queue waits for it and runs after it (each waiting cron line holds one\n"
		"process); --overlap cancel-previous breaks the predecessor's lease and\n"
		"runs at once: the predecessor notices at its next renewal and stops its\n"
		"COMMAND's group, so both may run for up to its TTL/3 (keep --ttl short;\n"
		"the new run's LEASEQ_FENCING_TOKEN is higher, so a target that checks\n"
		"tokens refuses the old run's late writes).  A slot missed while the host\n"
		"was down is cron's business, so there is no --catch-up here.\n"
		"\n"
		"With --slots N, NAME is a semaphore: COMMAND runs if one of its N slots\n"
		"is free (at most N runs at once, fleet-wide), and LEASEQ_FENCING_TOKEN is\n"
		"that slot's token; every exec of NAME must give the same N.\n"
		"\n"
		"With --log-format json, the lines leasectl itself writes on standard\n"
		"error are JSON objects, one per line (a lease held elsewhere is an\n"
		"\"info\" event, lease_held, not an error).  COMMAND's standard output\n"
		"and error are its own and pass through unchanged, JSON or not: redirect\n"
		"them (e.g. sh -c 'report 2>>report.log') to keep the stream JSON only.",
	.opts = exec_opts,
	.examples = "# crontab on every host: the report runs once per night, on one host\n"
		    "0 3 * * * leasectl exec --min-hold 10m --conflict-exit 0 nightly -- report\n"
		    "leasectl exec deploy --wait 5m -- make deploy\n"
		    "*/5 * * * * leasectl exec --overlap queue sync -- ./sync.sh\n"
		    "leasectl exec --slots 3 --wait 10m import -- ./import.sh   # 3 at a time",
	.exits = "N    COMMAND's exit status (128+S if killed by signal S)\n"
		 "75   held elsewhere (or the --conflict-exit status)\n"
		 "3    the lease was lost while COMMAND ran: COMMAND was stopped\n"
		 "126  COMMAND is not executable; 127 COMMAND not found\n"
		 "64   bad usage or invalid input; 69 database unreachable; 1 other failure",
};

/* What the parent tracks while the child runs. */
struct run {
	lq_db *db;
	lq_lease lease;
	const char *name;
	char **argv;
	int64_t ttl;
	int64_t expires_mono; /* the lease's expiry, conservatively, on our clock */
	char why[700];        /* why the last renewal failed ("" if it did not) */
};

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

/* The handle whose lease wait a stop signal cancels (lq_cancel is
 * async-signal-safe), while exec waits for its lease; else NULL. */
static lq_db *volatile g_wait_db;

static void cancel_wait(int sig)
{
	lq_db *db = g_wait_db;
	(void)sig;
	if (db)
		lq_cancel(db);
}


struct exec_child {
	char **argv;
	char **env;
};

/* In the child (its own process group, see lc_child_spawn): run COMMAND. */
static void run_child(void *arg)
{
	const struct exec_child *c = arg;
	int err;

	execvpe(c->argv[0], c->argv, c->env);
	err = errno;
	dprintf(STDERR_FILENO, "%s: exec: cannot run %s: %s\n", LC_PROG, c->argv[0], strerror(err));
	_exit(err == ENOENT || err == ENOTDIR ? 127 : 126);
}

/* The first stop signal (TERM, INT, HUP, QUIT) reported so far, or 0. */
static int stop_requested(void)
{
	int b;

	while (lc_sig_next(&b)) {
		int sig = b & 0x7f;
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT)
			return sig;
	}
	return 0;
}

/* Bad input changes nothing: a command that cannot be run is found before the
 * lease is taken (which would bump its token).  Follows execvp's search:
 * returns 0, 127 (not found) or 126 (found, not executable), with the message. */
static int command_unrunnable(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *colon;
	char buf[4096];
	int err = ENOENT;

	if (strchr(cmd, '/')) {
		if (access(cmd, X_OK) == 0)
			return 0;
		err = errno;
	} else {
		for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; ; p = colon + 1) {
			colon = strchr(p, ':');
			size_t len = colon ? (size_t)(colon - p) : strlen(p);
			int n = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, len ? p : "",
					 len ? "/" : "", cmd);
			if (n > 0 && (size_t)n < sizeof(buf)) {
				if (access(buf, X_OK) == 0)
					return 0;
				if (errno == EACCES && access(buf, F_OK) == 0)
					err = EACCES;
			}
			if (!colon)
				break;
		}
	}
	lc_errorf("exec: cannot run %s: %s", cmd, strerror(err));
	return err == ENOENT || err == ENOTDIR ? 127 : 126;
}

/* The lease is lost: say so before COMMAND is stopped. */
static enum lc_keep lost(struct run *r, const char *why)
{
	char cmd[300];

	lc_errorf("lease \"%s\" lost (token %lld%s%s): stopping %s", r->name, (long long)r->lease.token,
		  *why ? "; " : "", why, lc_pr(cmd, sizeof(cmd), r->argv[0]));
	return LC_KEEP_LOST;
}

/* The keep-alive: renew every TTL/3, retry a failed renewal more often
 * until the lease would have expired. */
static enum lc_keep renew(struct lc_sup *s, int64_t now)
{
	struct run *r = s->arg;
	int64_t interval = r->ttl / 3 > 0 ? r->ttl / 3 : 1;
	int64_t retry = r->ttl / 10 < 1000 ? (r->ttl / 10 > 0 ? r->ttl / 10 : 1) : 1000;
	lq_status st;

	if (now >= r->expires_mono)
		return lost(r, r->why[0] ? r->why : "not renewed before it expired");
	/* The renewal may block (a busy SQLite file, a slow server) past the
	 * lease's expiry: then the command is stopped at once. */
	lc_sup_guard_arm(s, r->expires_mono - now);
	st = lq_lease_renew(r->db, &r->lease, r->ttl);
	if (lc_sup_guard_disarm()) {
		if (st == LQ_OK) /* renewed too late: it is ours again, hand it back */
			lq_lease_release(r->db, &r->lease);
		return lost(r, "the renewal took longer than the lease had left");
	}
	if (st == LQ_OK) {
		r->expires_mono = now + r->ttl;
		s->keep_at = now + interval;
		r->why[0] = '\0';
		return LC_KEEP_AGAIN;
	}
	if (st == LQ_LOST)
		return lost(r, "");
	/* Transient (the library reconnects on the next call); remember why. */
	{
		const char *msg = lq_errmsg(r->db);
		snprintf(r->why, sizeof(r->why), "not renewed before it expired: %s",
			 msg && *msg ? msg : lq_status_str(st));
	}
	s->keep_at = lc_mono_ms() + retry;
	if (s->keep_at > r->expires_mono)
		s->keep_at = r->expires_mono;
	return LC_KEEP_AGAIN;
}

/* Run COMMAND to its end under the lease: renewed every TTL/3, stop signals
 * passed on; if the lease is lost, SIGTERM, then SIGKILL after
 * min(TTL/3, 10 s).  Returns 0 when it ended, or LC_EXIT_LOST. */
static int supervise(struct run *r, struct lc_sup *s)
{
	int64_t grace = r->ttl / 3;

	if (grace > EXEC_MAX_GRACE_MS)
		grace = EXEC_MAX_GRACE_MS;
	if (grace < EXEC_MIN_GRACE_MS)
		grace = EXEC_MIN_GRACE_MS;
	s->arg = r;
	s->forward_stops = 1;
	s->keep_at = r->expires_mono - r->ttl + (r->ttl / 3 > 0 ? r->ttl / 3 : 1);
	s->keep = renew;
	s->grace_ms = s->lost_grace_ms = grace;
	/* What COMMAND left running must not go on without the lease. */
	s->rest_grace_ms = EXEC_MAX_GRACE_MS;
	s->rest_grace_stopped_ms = grace;
	lc_supervise(s);
	return s->end == LC_END_LOST ? LC_EXIT_LOST : 0;
}

/* After the child: keep the lease until acquired_at + min_hold, or release it. */
static void hand_back(struct run *r, int64_t min_hold, int64_t acquired_mono)
{
	const char *msg;
	int64_t now = 0, remaining = -1;
	lq_status st;

	if (min_hold > 0) {
		if (lq_now(r->db, &now) == LQ_OK && r->lease.acquired_at > 0)
			remaining = r->lease.acquired_at + min_hold - now;
		else
			remaining = min_hold - (lc_mono_ms() - acquired_mono);
	}
	/* Renewing to the end of the minimum hold, not releasing, stops other
	 * hosts from running a quick job again in the same cron slot. */
	if (remaining > 0)
		st = lq_lease_renew(r->db, &r->lease, remaining);
	else
		st = lq_lease_release(r->db, &r->lease);
	if (st == LQ_OK)
		return;
	msg = lq_errmsg(r->db);
	if (st == LQ_LOST)
		lc_errorf("lease \"%s\" was lost before %s (token %lld)", r->name,
			  remaining > 0 ? "the end of its minimum hold" : "it was released", (long long)r->lease.token);
	else
		lc_errorf("could not hand back lease \"%s\" (it expires on its own): %s", r->name,
			  msg && *msg ? msg : lq_status_str(st));
}

/* --overlap cancel-previous: free the lease whoever holds it (bumping the
 * token), and say whose run that stops.  Once only: a second new run that
 * takes the lease first wins, as under skip. */
static lq_status break_previous(lq_db *db, const char *name)
{
	lq_lease prev;
	char n[600], o[600], msg[1400];
	lq_status st = lq_lease_break(db, name, &prev);

	if (st != LQ_OK)
		return st;
	snprintf(msg, sizeof(msg),
		 "lease \"%s\" was held by %s (token %lld): broken (overlap cancel-previous); that run stops at "
		 "its next renewal", lc_pr(n, sizeof(n), name), lc_pr(o, sizeof(o), prev.owner), (long long)prev.token);
	if (lc_log_is_json())
		lc_log_event("info", "lease_broken",
			     &(struct lc_log_fields){.lease = name, .token = prev.token, .message = msg});
	else
		fprintf(stderr, "leasectl: exec: %s\n", msg);
	return LQ_OK;
}

int cmd_exec(struct lc_ctx *ctx, int argc, char **argv)
{
	struct exec_args a = {0};
	struct run r;
	struct lc_sup sup = {0};
	int rc = lc_parse(ctx, &lc_exec_usage, &a, argc, argv);
	int64_t ttl = EXEC_DEFAULT_TTL_MS, wait = 0, min_hold = 0, conflict = LC_EXIT_HELD, before, acquired,
		slots = 0;
	char handle[LQ_HANDLE_MAX + 16], tokenvar[64], nb[600], cb[300];
	const char *set[2];
	char **env = NULL;
	int stop_sig;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_log_set_format(ctx, a.log_format)) || (rc = lc_check_name(ctx, "lease name", a.name)) ||
	    (a.ttl && (rc = lc_duration(ctx, "--ttl", a.ttl, 0, &ttl))) ||
	    (a.wait && (rc = lc_duration(ctx, "--wait", a.wait, LC_DUR_ZERO_OK, &wait))) ||
	    (a.min_hold && (rc = lc_duration(ctx, "--min-hold", a.min_hold, 0, &min_hold))) ||
	    (a.conflict_exit && (rc = lc_integer(ctx, "--conflict-exit", a.conflict_exit, 0, 255, &conflict))) ||
	    (a.slots && (rc = lc_integer(ctx, "--slots", a.slots, 1, LQ_SLOTS_MAX, &slots))))
		return rc;
	if (a.overlap && strcmp(a.overlap, "skip") && strcmp(a.overlap, "queue") &&
	    strcmp(a.overlap, "cancel-previous"))
		return lc_usage_error(ctx, "--overlap: expected skip, queue or cancel-previous, not \"%s\"",
				      a.overlap);
	int cancel_previous = a.overlap && !strcmp(a.overlap, "cancel-previous");
	if (cancel_previous && slots)
		return lc_usage_error(ctx, "--overlap cancel-previous: a semaphore (--slots) has no one previous "
				      "run to cancel");
	if (a.overlap && !strcmp(a.overlap, "queue") && !a.wait)
		wait = LQ_TTL_MAX_MS; /* as long as it takes (a year is the bound) */
	if (!a.cmd.argv[0][0])
		return lc_usage_error(ctx, "COMMAND is empty");
	if ((rc = command_unrunnable(a.cmd.argv[0])))
		return rc;
	if (lc_sig_init() != 0) {
		lc_errorf("cannot create a pipe: %s", strerror(errno));
		return LC_EXIT_FAIL;
	}

	memset(&r, 0, sizeof(r));
	r.name = lc_pr(nb, sizeof(nb), a.name);
	r.argv = a.cmd.argv;
	r.ttl = ttl;
	/* The stop signals are ours from here on, before the lease is: a
	 * SIGTERM that lands between the acquisition and the command's start
	 * must release the lease, not leave it held with nothing running until
	 * its TTL.  While exec waits for the lease, they also cancel the wait. */
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		lc_sig_catch(forwarded[i], cancel_wait);
	lc_sig_catch(SIGCHLD, NULL);
	lc_child_subreaper();
	if ((rc = lc_open(ctx, &r.db)))
		return rc;
	/* One acquire for the whole --wait: the library rides out lost
	 * connections meanwhile (re-reading an attempt whose answer was lost),
	 * and a stop signal cancels the wait.  (Cutting the wait into short
	 * acquires instead made each one a new owner, and one whose answer was
	 * lost held the lease for a whole TTL with nobody to release it.) */
	{
		lq_lease_opts lo = LQ_LEASE_OPTS_INIT;
		lo.kind = slots ? LQ_LEASE_SLOT : LQ_LEASE_EXCLUSIVE;
		lo.slots = (int)slots;
		before = lc_mono_ms(); /* before the acquisition: a conservative expiry */
		g_wait_db = r.db;
		lo.wait_ms = cancel_previous ? 0 : wait;
		st = lq_lease_take(r.db, a.name, ttl, &lo, &r.lease);
		if (cancel_previous && st == LQ_BUSY && !stop_requested()) {
			st = break_previous(r.db, a.name);
			lo.wait_ms = wait;
			if (st == LQ_OK || st == LQ_NOTFOUND) /* (released meanwhile) */
				st = lq_lease_take(r.db, a.name, ttl, &lo, &r.lease);
		}
		g_wait_db = NULL;
		lq_cancel_clear(r.db);
		if ((stop_sig = stop_requested()) != 0) {
			if (st == LQ_OK)
				lq_lease_release(r.db, &r.lease);
			lc_errorf("exec: %s arrived before %s started; lease \"%s\" %s", strsignal(stop_sig),
				  lc_pr(cb, sizeof(cb), a.cmd.argv[0]), r.name, st == LQ_OK ? "released" : "not taken");
			rc = 128 + stop_sig;
			goto out;
		}
	}
	acquired = lc_mono_ms();
	if (st == LQ_BUSY || st == LQ_ETIMEDOUT) {
		rc = slots ? lc_shared_held_error(r.db, (int)conflict) : lc_held_error(a.name, &r.lease, (int)conflict);
		goto out;
	}
	if (st != LQ_OK) {
		rc = lc_db_error(r.db, st);
		goto out;
	}
	r.expires_mono = before + ttl;
	/* After a wait we do not know which attempt won: renew once so the
	 * expiry we track is exact again. */
	if (wait) {
		before = lc_mono_ms();
		st = lq_lease_renew(r.db, &r.lease, ttl);
		if (st == LQ_OK) {
			r.expires_mono = before + ttl;
		} else if (st == LQ_LOST) {
			lc_errorf("lease \"%s\" lost (token %lld) before %s started", r.name,
				  (long long)r.lease.token, lc_pr(cb, sizeof(cb), a.cmd.argv[0]));
			rc = LC_EXIT_LOST;
			goto out;
		}
	}

	memcpy(handle, "LEASEQ_LEASE=", 13);
	st = lq_lease_encode(&r.lease, handle + 13, sizeof(handle) - 13);
	snprintf(tokenvar, sizeof(tokenvar), "LEASEQ_FENCING_TOKEN=%lld", (long long)r.lease.token);
	set[0] = handle;
	set[1] = tokenvar;
	if (st != LQ_OK || !(env = lc_child_env(ctx, set, 2))) {
		lc_errorf("cannot prepare the environment of %s", a.cmd.argv[0]);
		lq_lease_release(r.db, &r.lease);
		rc = LC_EXIT_FAIL;
		goto out;
	}

	lc_cloexec_new_fds(ctx);
	{
		struct exec_child child = {a.cmd.argv, env};
		sup.pid = lc_child_spawn(run_child, &child);
	}
	if (sup.pid < 0) {
		lc_errorf("cannot fork: %s", strerror(errno));
		lq_lease_release(r.db, &r.lease);
		rc = LC_EXIT_FAIL;
		goto out;
	}

	lc_log_event("info", "lease_acquired", &(struct lc_log_fields){.lease = a.name, .token = r.lease.token});
	rc = supervise(&r, &sup);
	if (rc == LC_EXIT_LOST)
		goto out;
	if (sup.rest > 0)
		lc_errorf("exec: %s left processes running; they were stopped before lease \"%s\" was handed back",
			  lc_pr(cb, sizeof(cb), a.cmd.argv[0]), r.name);
	hand_back(&r, min_hold, acquired);
	rc = lc_wait_exit(sup.wstatus);
	lc_log_event(rc ? "error" : "info", "command_exited",
		     &(struct lc_log_fields){.lease = a.name, .token = r.lease.token, .exit_status = rc,
					     .has_exit_status = 1, .duration_ms = lc_mono_ms() - acquired,
					     .has_duration = 1});
out:
	lc_env_free(env);
	lq_close(r.db);
	return rc;
}
