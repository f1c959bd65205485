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
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

void lc_child_signal(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

int lc_child_poll(pid_t pid, int *wstatus)
{
	return waitpid(pid, wstatus, WNOHANG) == pid;
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
		int n, found = 0;

		/* Reap first: a zombie is no one to stop. */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (pgid > 0 && kill(-pgid, 0) == 0) {
			kill(-pgid, sig);
			found++;
		}
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
