/*
 * leasectl_child.c - the commands leasectl runs for a user (exec's COMMAND,
 * the worker's and tick's handlers) and how they are stopped.
 *
 * Each runs in its own process group and is stopped as a group: SIGTERM,
 * then SIGKILL after a grace period.  leasectl is also a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so a descendant that left the group (setsid, a
 * double fork) is reparented to leasectl instead of init and is still found
 * and stopped: nothing a command started may outlive it, or keep working
 * after its lease or claim is gone.
 *
 * lc_supervise is the one loop that watches such a command while it runs;
 * each caller only says its policy (what keeps it alive, its deadlines,
 * what a stop signal does, where its output goes).
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leasectl.h"

#define REST_MAX 1024 /* descendants handled per sweep */

void lc_child_subreaper(void)
{
	/* Best effort: without it (old kernels) escaped descendants go to init. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
}

pid_t lc_child_spawn(void (*run)(void *arg), void *arg)
{
	sigset_t all, old;
	pid_t parent = getpid(), pid;

	/* Blocked across fork: the child resets its dispositions before any
	 * signal can reach it, and the parent's are queued. */
	sigfillset(&all);
	fflush(NULL);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		lc_sig_reset_child();
		setpgid(0, 0);
		/* It must not outlive us: our renewals are what make it the
		 * holder.  Check the parent after arming, in case it died first. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(LC_EXIT_FAIL);
		run(arg);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid); /* also here, so a group signal works at once */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* The child's group, or the child if the group is gone. */
static void child_signal(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}


/* Our living children (with their process groups), read from /proc: the
 * descendants reparented to us are among them. */
static int list_children(pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d)) != NULL) {
		char path[300], buf[512], *rp;
		FILE *f;
		long ppid = 0;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		if (!fgets(buf, sizeof(buf), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		/* "pid (comm) state ppid ...": comm may hold spaces and ')'. */
		rp = strrchr(buf, ')');
		if (rp && sscanf(rp + 1, " %*c %ld", &ppid) == 1 && ppid == self)
			out[n++] = (pid_t)atol(e->d_name);
	}
	closedir(d);
	return n;
}

int lc_child_stop_rest(pid_t pgid, int64_t grace_ms)
{
	int64_t deadline = lc_mono_ms() + grace_ms, hard_end = deadline + 5000;
	int sig = SIGTERM, stopped = 0;
	pid_t kids[REST_MAX];

	for (;;) {
		int n = 0, found = 0, children;
		pid_t w;

		/* Reap first: a zombie is no one to stop. */
		while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		children = w == 0 || errno != ECHILD;
		if (pgid > 0 && kill(-pgid, 0) == 0) {
			kill(-pgid, sig);
			found++;
		}
		/* A descendant that escaped the group is reparented to us (we
		 * are a subreaper), or is below one that was: with no living
		 * child (ECHILD) there is none, and /proc is not read.  That is
		 * the usual end of a handler, once per task. */
		if (children)
			n = list_children(kids, REST_MAX);
		for (int i = 0; i < n; i++) {
			kill(-kids[i], sig); /* the group it may have made for itself */
			kill(kids[i], sig);
		}
		found += n;
		if (!found)
			return stopped;
		if (!stopped)
			stopped = found;
		if (sig == SIGTERM && lc_mono_ms() >= deadline)
			sig = SIGKILL;
		else if (lc_mono_ms() >= hard_end)
			return stopped; /* unkillable (D state): give up, say nothing more */
		usleep(20000);
	}
}

/* ------------------------------------------------------------ supervising */

/* Where the child is in being stopped.  Only ever moves forward. */
enum sup_state {
	SUP_RUNNING,  /* left alone */
	SUP_DRAINING, /* to get SIGTERM at term_at (a stop request, a lost lease, a timeout) */
	SUP_TERMED,   /* got SIGTERM; SIGKILL at kill_at */
	SUP_KILLED,   /* got SIGKILL; only its exit is awaited */
};

static int is_stop_signal(int sig)
{
	return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

static int64_t earliest(int64_t a, int64_t b)
{
	return b && b < a ? b : a;
}

void lc_supervise(struct lc_sup *s)
{
	enum sup_state state = SUP_RUNNING;
	int64_t now, term_at = 0, kill_at = 0;

	s->end = LC_END_EXITED;
	for (;;) {
		struct pollfd pfd[2] = {{.fd = lc_sig_fd(), .events = POLLIN}, {.fd = s->out_fd, .events = POLLIN}};
		/* Without a reason to wake sooner, a minute: SIGCHLD wakes us anyway. */
		int64_t wake;
		int b;

		now = lc_mono_ms(); /* keep() may have taken a while */
		wake = now + (s->poll_ms > 0 ? s->poll_ms : 60000);
		wake = earliest(wake, s->keep_at);
		if (state < SUP_TERMED) {
			wake = earliest(wake, term_at);
			wake = earliest(wake, s->timeout_at);
		}
		if (state == SUP_TERMED)
			wake = earliest(wake, kill_at);
		if (wake > now)
			poll(pfd, s->output && s->out_fd >= 0 ? 2 : 1, (int)(wake - now));
		if (s->output)
			s->output(s);
		while (lc_sig_next(&b)) {
			/* The child has a process group of its own: a terminal's ^C
			 * (and every other stop signal) reaches it only through us. */
			if (s->forward_stops && is_stop_signal(b & 0x7f))
				child_signal(s->pid, b & 0x7f);
		}
		if (waitpid(s->pid, &s->wstatus, WNOHANG) == s->pid)
			break;
		now = lc_mono_ms();

		if (s->stop_ask && state < SUP_TERMED) {
			enum lc_stop_ask ask = s->stop_ask(s);
			if (ask == LC_STOP_DRAIN && state == SUP_RUNNING)
				term_at = now + s->drain_ms;
			else if (ask == LC_STOP_NOW)
				term_at = now;
			if (ask != LC_STOP_NO && state == SUP_RUNNING)
				state = SUP_DRAINING;
		}
		/* Keep-alive goes on while the child is being stopped: the claim
		 * or lease must last until it is gone. */
		if (s->keep_at && now >= s->keep_at) {
			enum lc_keep k = s->keep(s, now);
			if (k != LC_KEEP_AGAIN)
				s->keep_at = 0;
			if (k == LC_KEEP_LOST) {
				s->end = LC_END_LOST;
				if (state < SUP_TERMED) {
					term_at = now;
					state = SUP_DRAINING;
				}
			}
		}
		if (s->timeout_at && state < SUP_TERMED && now >= s->timeout_at) {
			if (s->end != LC_END_LOST)
				s->end = LC_END_TIMED_OUT;
			term_at = now;
			state = SUP_DRAINING;
		}
		if (state == SUP_DRAINING && now >= term_at) {
			child_signal(s->pid, SIGTERM);
			if (s->end == LC_END_EXITED)
				s->end = LC_END_STOPPED;
			kill_at = now + (s->end == LC_END_LOST ? s->lost_grace_ms : s->grace_ms);
			state = SUP_TERMED;
		}
		if (state == SUP_TERMED && now >= kill_at) {
			child_signal(s->pid, SIGKILL);
			state = SUP_KILLED;
		}
	}
	/* Whatever it started, in its group or escaped from it, stops with it:
	 * the lease or claim it worked under is handed back next. */
	s->rest = lc_child_stop_rest(s->pid, state >= SUP_TERMED || s->end == LC_END_LOST ? s->rest_grace_stopped_ms
											 : s->rest_grace_ms);
}

/* The guard: the child it stops, and whether it did. */
static volatile sig_atomic_t g_guard_pid;
static volatile sig_atomic_t g_guard_fired;

static void guard_fire(int sig)
{
	(void)sig;
	if (g_guard_pid > 0)
		kill(-(pid_t)g_guard_pid, SIGTERM); /* async-signal-safe */
	g_guard_fired = 1;
}

static void guard_timer(int64_t ms)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	if (ms > 0) {
		it.it_value.tv_sec = (time_t)(ms / 1000);
		it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	}
	setitimer(ITIMER_REAL, &it, NULL); /* 0 disarms */
}

void lc_sup_guard_arm(const struct lc_sup *s, int64_t ms)
{
	g_guard_pid = s->pid;
	g_guard_fired = 0;
	lc_sig_catch(SIGALRM, guard_fire);
	guard_timer(ms);
}

int lc_sup_guard_disarm(void)
{
	guard_timer(0);
	g_guard_pid = 0;
	return g_guard_fired;
}
