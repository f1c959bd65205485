/*
 * leasectl_signals.c - signals through a self-pipe, the monotonic clock, and
 * wait statuses turned into words and exit statuses.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "leasectl.h"

/* ------------------------------------------------------------ processes */

int64_t lc_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


/* Signal handling: the only global mutable state in leasectl. */
static int sig_pipe[2] = {-1, -1};
static void (*volatile sig_extra[NSIG])(int);

static void sig_handler(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	unsigned char b = (unsigned char)(sig & 0x7f);

	(void)uc;
	if (sig > 0 && sig < NSIG && sig_extra[sig])
		sig_extra[sig](sig);
	if (si && si->si_code > 0 && sig != SIGCHLD)
		b |= LC_SIG_KERNEL;
	if (sig_pipe[1] >= 0)
		(void)!write(sig_pipe[1], &b, 1);
	errno = saved;
}

int lc_sig_init(void)
{
	int fds[2];

	/* Always a fresh pipe: a forked worker must not share its parent's. */
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
		return -1;
	if (sig_pipe[0] >= 0) {
		close(sig_pipe[0]);
		close(sig_pipe[1]);
	}
	sig_pipe[0] = fds[0];
	sig_pipe[1] = fds[1];
	return 0;
}

int lc_sig_fd(void)
{
	return sig_pipe[0];
}

int lc_sig_catch(int sig, void (*extra)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sig_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | (sig == SIGCHLD ? SA_NOCLDSTOP : 0);
	sigemptyset(&sa.sa_mask);
	if (sig > 0 && sig < NSIG)
		sig_extra[sig] = extra;
	return sigaction(sig, &sa, NULL);
}

int lc_sig_next(int *byte)
{
	unsigned char b;

	if (sig_pipe[0] < 0 || read(sig_pipe[0], &b, 1) != 1)
		return 0;
	*byte = b;
	return 1;
}

void lc_sig_reset_child(void)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM, SIGPIPE, SIGUSR1, SIGUSR2};
	sigset_t none;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void lc_fmt_wait(char *buf, size_t size, int wstatus)
{
	if (WIFEXITED(wstatus)) {
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(wstatus));
	} else if (WIFSIGNALED(wstatus)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(wstatus));
		if (abbrev)
			snprintf(buf, size, "killed by signal %d (SIG%s)", WTERMSIG(wstatus), abbrev);
		else
			snprintf(buf, size, "killed by signal %d", WTERMSIG(wstatus));
	} else {
		snprintf(buf, size, "stopped with wait status %d", wstatus);
	}
}

int lc_wait_exit(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return LC_EXIT_FAIL;
}
