/*
 * signals.c - SIGTERM and SIGINT while the library waits in C, where no
 * PHP code runs: a Worker's run() (stop the runner after the current task)
 * and a lease wait (end it: CanceledException).  Our handler calls the
 * async-signal-safe lq_runner_stop / lq_cancel, then the handler installed
 * before it (for pcntl_signal, its queueing handler), so the application's
 * own PHP handler still runs afterwards.  It is installed with
 * zend_sigaction: with Zend signals the engine's handler stays in place
 * and calls ours (a plain sigaction would find the engine's handler as the
 * previous one, whose default is to die).
 */
#include <signal.h>

#include "php_leaseq.h"
#include "zend_signal.h"

static lq_runner *volatile sig_runner;
static lq_db *volatile sig_db;
static volatile bool sig_active;
static volatile sig_atomic_t sig_caught;
static struct sigaction sig_old[2];
static const int sig_nums[2] = {SIGTERM, SIGINT};

static bool is_handler(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) ? sa->sa_sigaction != NULL
					   : sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	lq_runner *r = sig_runner;
	lq_db *db = sig_db;
	sig_caught = 1;
	if (r)
		lq_runner_stop(r);
	if (db)
		lq_cancel(db);
	struct sigaction *old = &sig_old[sig == SIGTERM ? 0 : 1];
	if (!is_handler(old))
		return;
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, uc);
	else
		old->sa_handler(sig);
}

bool lq_php_signals_install(lq_runner *r, lq_db *db, bool only_if_handled)
{
	if (sig_active)
		return false; /* an outer run or wait has them */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sig_runner = r;
	sig_db = db;
	sig_caught = 0;
	for (int i = 0; i < 2; i++) {
		zend_sigaction(sig_nums[i], &sa, &sig_old[i]);
		bool ignored = !(sig_old[i].sa_flags & SA_SIGINFO) && sig_old[i].sa_handler == SIG_IGN;
		/* A signal the process ignores stays ignored (nohup); with
		 * only_if_handled, one that would kill the process still does. */
		if (ignored || (only_if_handled && !is_handler(&sig_old[i])))
			zend_sigaction(sig_nums[i], &sig_old[i], NULL);
	}
	sig_active = true;
	return true;
}

bool lq_php_signals_restore(void)
{
	bool caught = sig_caught;
	for (int i = 0; i < 2; i++)
		zend_sigaction(sig_nums[i], &sig_old[i], NULL);
	sig_runner = NULL;
	sig_db = NULL;
	sig_active = false;
	return caught;
}

void lq_php_signals_dispatch(void)
{
	/* pcntl runs the application's handlers at the next opcode boundary,
	 * but drops them when an exception is pending there: the exception a
	 * cancelled wait is about to throw.  So they run now, first. */
	zval fn, rv;
	if (EG(exception) || !zend_hash_str_exists(EG(function_table), "pcntl_signal_dispatch",
						   sizeof("pcntl_signal_dispatch") - 1))
		return;
	ZVAL_STRING(&fn, "pcntl_signal_dispatch");
	call_user_function(NULL, NULL, &fn, &rv, 0, NULL);
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&fn);
}
