/*
 * worker.c - Leaseq\Worker and Leaseq\Runner: PHP callables run in this
 * process by the library's runner (lq_runner_work, lq_runner_tick), each
 * through a C trampoline that calls it with zend_call_function.
 *
 * While a callable runs, the runner's C code is waiting for it, so the
 * claim's heartbeat and the task's time limit are driven from inside PHP: a
 * helper thread sets EG(vm_interrupt) every TICK_MS while a job is armed,
 * and the engine then calls our zend_interrupt_function at the next opcode
 * boundary, on the PHP thread, which heartbeats the job (lq_job_heartbeat)
 * every claim TTL/3 and, past the deadline, throws Leaseq\TimeoutException
 * into the callable.  So a callable blocked inside one long C call (sleep(),
 * a slow query) is heartbeated and stopped when that call returns.
 *
 * SIGTERM and SIGINT during run() stop the runner after the current task
 * (signals.c).
 */
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "php_leaseq.h"
#include "zend_exceptions.h"
#include "zend_closures.h"

#define TICK_MS 50

typedef struct lq_php_worker {
	zend_object *db;
	HashTable handlers;   /* task name -> callable */
	HashTable queues;     /* list of queue names (strings) */
	lq_mode mode;
	int64_t claim_ttl_ms;
	int64_t timeout_ms;   /* default limit of a handler; 0 none */
	size_t batch;
	bool signals;
	lq_runner *runner;    /* while run() runs */
	zend_object std;
} lq_php_worker;

static inline lq_php_worker *worker_from(zend_object *o)
{
	return (lq_php_worker *)((char *)o - XtOffsetOf(lq_php_worker, std));
}

struct run;
typedef struct handler_call {
	zval callable;
	struct run *run;
} handler_call;

/* One run() or tick(). */
typedef struct run {
	lq_php_db *dbo;
	lq_runner *runner;
	int64_t timeout_ms;
	handler_call *calls;
	size_t ncalls;
	bool bailout; /* a fatal error passed through a handler */
} run;

/* ------------------------------------------------ the job being run */

/* The job a callable is running: one at a time per process (the runner
 * calls one handler at a time; a handler that runs a tick of its own
 * saves and restores the outer job around it). */
static struct {
	lq_job *job;
	int64_t hb_every_ms, next_hb, deadline; /* monotonic ms; deadline 0: none */
	int64_t limit_ms;
	bool timed_out, lost;
	bool lost_untold; /* lost, and the LostException not thrown yet */
	lq_status lost_st; /* LQ_LOST, or LQ_REVOKED: the task was cancelled */
} cur;

static zend_atomic_bool tick_pending;

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The helper thread: while armed, it wakes the engine every TICK_MS. */
static pthread_mutex_t tmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tcv;
static pthread_t tthread;
static bool t_started, t_quit;
static zend_atomic_bool *t_target; /* EG(vm_interrupt) of the armed thread, or NULL */

static void *timer_main(void *arg)
{
	pthread_mutex_lock(&tmu);
	while (!t_quit) {
		if (!t_target) {
			pthread_cond_wait(&tcv, &tmu);
			continue;
		}
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += TICK_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&tcv, &tmu, &ts) != 0 && t_target) {
			zend_atomic_bool_store(&tick_pending, true);
			zend_atomic_bool_store(t_target, true);
		}
	}
	pthread_mutex_unlock(&tmu);
	return NULL;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&tmu);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&tmu);
}

/* The thread does not exist in a child: it starts again when needed. */
static void atfork_child(void)
{
	t_started = false;
	t_target = NULL;
	pthread_mutex_unlock(&tmu);
}

static void timer_arm(bool on)
{
	pthread_mutex_lock(&tmu);
	if (on && !t_started) {
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&tcv, &ca);
		pthread_condattr_destroy(&ca);
		t_quit = false;
		sigset_t all, old;
		sigfillset(&all);
		/* Signals are for the PHP thread, never this one. */
		pthread_sigmask(SIG_SETMASK, &all, &old);
		t_started = pthread_create(&tthread, NULL, timer_main, NULL) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	t_target = on ? &EG(vm_interrupt) : NULL;
	pthread_cond_signal(&tcv);
	pthread_mutex_unlock(&tmu);
}

static void (*prev_interrupt)(zend_execute_data *ex);

/* Make the op about to run (ex->opline) a place an exception may come
 * from; false if it cannot be.  The live range of a rope includes its
 * ROPE_INIT, so when an exception is thrown just before one, the engine's
 * clean-up frees the rope's first part, which was never built (a crash
 * seen with a time limit passed during exec() followed by echo "$x").
 * When ROPE_INIT itself throws, the engine has set that part to ""
 * already: the same is done here. */
static bool prepare_throw(zend_execute_data *ex)
{
	if (!ex || !ex->func || !ZEND_USER_CODE(ex->func->type) || !ex->opline)
		return false;
	if (ex->opline->opcode == ZEND_ROPE_INIT) {
		zend_string **rope = (zend_string **)ZEND_CALL_VAR(ex, ex->opline->result.var);
		rope[0] = ZSTR_EMPTY_ALLOC();
	}
	return true;
}

static void job_interrupt(zend_execute_data *ex)
{
	/* The previous hook first (pcntl's runs the application's signal
	 * handlers): an exception of ours would make it skip them. */
	if (prev_interrupt)
		prev_interrupt(ex);
	if (!zend_atomic_bool_exchange(&tick_pending, false) || !cur.job)
		return;
	const lq_task *t = lq_job_task(cur.job);
	int64_t now = mono_ms();
	if (cur.hb_every_ms > 0 && now >= cur.next_hb && !cur.lost) {
		cur.next_hb = now + cur.hb_every_ms;
		lq_status st = lq_job_heartbeat(cur.job);
		/* At most once, a lost mark (or tick lease) only means the run can
		 * no longer be cancelled: nobody else runs the task, so it goes on. */
		if (st == LQ_REVOKED || (st == LQ_LOST && t->mode == LQ_AT_LEAST_ONCE)) {
			cur.lost = true;
			cur.lost_untold = true;
			cur.lost_st = st;
		}
	}
	if (cur.deadline && now >= cur.deadline)
		cur.timed_out = true;
	if (!(cur.lost_untold || cur.timed_out) || EG(exception))
		return;
	if (!prepare_throw(ex))
		return; /* at the next tick */
	if (cur.lost_untold) {
		cur.lost_untold = false;
		if (cur.lost_st == LQ_REVOKED)
			zend_throw_exception_ex(lq_php_ce_status[LQ_REVOKED], LQ_REVOKED,
						"task %lld (%s) was cancelled: stop working on it", (long long)t->id,
						t->name);
		else
			zend_throw_exception_ex(lq_php_ce_status[LQ_LOST], LQ_LOST,
						"task %lld (%s): its claim was lost; another worker may run it",
						(long long)t->id, t->name);
	} else {
		zend_throw_exception_ex(lq_php_ce_status[LQ_ETIMEDOUT], LQ_ETIMEDOUT,
					"task %lld (%s) ran past its time limit of %lld ms", (long long)t->id, t->name,
					(long long)cur.limit_ms);
	}
}

/* ------------------------------------------------------- the trampoline */

static void error_of(zend_object *ex, char *buf, size_t size)
{
	zval rv, *m = zend_read_property(zend_get_exception_base(ex), ex, "message", sizeof("message") - 1, 1, &rv);
	if (Z_TYPE_P(m) == IS_STRING && Z_STRLEN_P(m) > 0)
		snprintf(buf, size, "%s", Z_STRVAL_P(m));
	else
		snprintf(buf, size, "%s", ZSTR_VAL(ex->ce->name));
}

static int handler_trampoline(lq_job *job, void *ctx)
{
	handler_call *c = ctx;
	run *r = c->run;
	const lq_task *t = lq_job_task(job);
	char msg[1024];
	int rc = 0;

	if (EG(exception)) { /* an exit() under way: run nothing more */
		lq_job_set_error(job, "the worker is exiting");
		return 1;
	}
	zval task, retval;
	lq_php_task_new(&task, t);
	ZVAL_UNDEF(&retval);

	/* A handler may run a tick of its own: its job is put back after. */
	__typeof__(cur) outer = cur;
	memset(&cur, 0, sizeof(cur));
	cur.job = job;
	cur.hb_every_ms = lq_job_claim_ttl(job) / 3;
	cur.next_hb = mono_ms() + cur.hb_every_ms;
	cur.limit_ms = t->timeout_ms > 0 ? t->timeout_ms : r->timeout_ms;
	if (cur.limit_ms > 0)
		cur.deadline = mono_ms() + cur.limit_ms;
	timer_arm(true);

	zend_fcall_info fci = empty_fcall_info;
	fci.size = sizeof(fci);
	ZVAL_COPY_VALUE(&fci.function_name, &c->callable);
	fci.retval = &retval;
	fci.params = &task;
	fci.param_count = 1;
	zend_try {
		if (zend_call_function(&fci, NULL) != SUCCESS && !EG(exception)) {
			lq_job_set_error(job, "the handler could not be called");
			rc = 1;
		}
	} zend_catch {
		/* A fatal error: stop the runner, unwind through the library
		 * normally, and bail out again once run() has returned. */
		r->bailout = true;
		r->dbo->broken = true;
		lq_runner_stop(r->runner);
		lq_job_set_error(job, "the handler ended in a fatal error");
		rc = 1;
	} zend_end_try();
	bool timed_out = cur.timed_out;
	cur = outer;
	timer_arm(cur.job != NULL);
	zval_ptr_dtor(&retval);
	zval_ptr_dtor(&task);
	if (r->bailout)
		return 1;
	if (EG(exception)) {
		zend_object *ex = EG(exception);
		if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
			/* exit(): a failed attempt; the exit goes on once the
			 * runner has settled this task and stopped. */
			lq_job_set_error(job, "the handler called exit()");
			lq_runner_stop(r->runner);
			return 1;
		}
		error_of(ex, msg, sizeof(msg));
		if (timed_out)
			lq_job_set_timed_out(job, msg);
		else
			lq_job_set_error(job, msg);
		zend_clear_exception();
		return 1;
	}
	if (timed_out) { /* it caught the TimeoutException and returned */
		snprintf(msg, sizeof(msg), "task %lld (%s) ran past its time limit", (long long)t->id, t->name);
		lq_job_set_timed_out(job, msg);
		return 1;
	}
	return rc;
}

/* ------------------------------------------------------ a run's set-up */

/* Register every handler of handlers (name -> callable) on r->runner. */
static int run_handlers(run *r, HashTable *handlers)
{
	r->calls = ecalloc(zend_hash_num_elements(handlers) + 1, sizeof(*r->calls));
	zend_string *name;
	zval *fn;
	ZEND_HASH_FOREACH_STR_KEY_VAL(handlers, name, fn) {
		handler_call *c = &r->calls[r->ncalls++];
		ZVAL_COPY(&c->callable, fn);
		c->run = r;
		lq_status st = lq_runner_handle(r->runner, ZSTR_VAL(name), handler_trampoline, c);
		if (st != LQ_OK) {
			zend_value_error("handler name \"%s\" is not valid", ZSTR_VAL(name));
			return -1;
		}
	} ZEND_HASH_FOREACH_END();
	return 0;
}

static void run_end(run *r)
{
	if (r->runner)
		lq_runner_free(r->runner);
	for (size_t i = 0; i < r->ncalls; i++)
		zval_ptr_dtor(&r->calls[i].callable);
	if (r->calls)
		efree(r->calls);
}

static void report_array(zval *out, const lq_run_report *rep)
{
	array_init(out);
	add_assoc_long(out, "ran", (zend_long)rep->ran);
	add_assoc_long(out, "failed", (zend_long)rep->failed);
	add_assoc_long(out, "claimed", (zend_long)rep->claimed);
	add_assoc_string(out, "stopped", (char *)lq_stop_reason_name(rep->stopped));
}

/* The callable as the runner will call it: resolved now, in the caller's
 * scope, as Closure::fromCallable does (called later from the runner,
 * [$this, 'privateMethod'] would no longer be callable).  A __call
 * trampoline (fcc->function_handler NULL) is resolved at each call. */
static void handler_closure(zval *callable, zend_fcall_info_cache *fcc, zval *out)
{
	if (fcc->function_handler && !(Z_TYPE_P(callable) == IS_OBJECT && Z_OBJCE_P(callable) == zend_ce_closure)) {
		zval this_zv;
		if (fcc->object)
			ZVAL_OBJ(&this_zv, fcc->object);
		zend_create_fake_closure(out, fcc->function_handler, fcc->function_handler->common.scope,
					 fcc->called_scope, fcc->object ? &this_zv : NULL);
	} else {
		ZVAL_COPY(out, callable);
	}
}

/* A handler name: "*" or a task name.  0, or -1 after a ValueError. */
static int handler_name(zend_string *name, uint32_t arg)
{
	if (zend_string_equals_literal(name, "*"))
		return 0;
	return lq_php_name("task name", name, arg);
}

/* ------------------------------------------------------------- Worker */

static zend_object_handlers worker_handlers;

static zend_object *worker_create(zend_class_entry *ce)
{
	lq_php_worker *w = zend_object_alloc(sizeof(lq_php_worker), ce);
	zend_object_std_init(&w->std, ce);
	object_properties_init(&w->std, ce);
	w->std.handlers = &worker_handlers;
	zend_hash_init(&w->handlers, 4, NULL, ZVAL_PTR_DTOR, 0);
	zend_hash_init(&w->queues, 1, NULL, ZVAL_PTR_DTOR, 0);
	return &w->std;
}

static void worker_free(zend_object *obj)
{
	lq_php_worker *w = worker_from(obj);
	zend_hash_destroy(&w->handlers);
	zend_hash_destroy(&w->queues);
	if (w->db)
		OBJ_RELEASE(w->db);
	zend_object_std_dtor(obj);
}

/* Handlers may hold the worker (a closure using $worker): cycles. */
static HashTable *worker_gc(zend_object *obj, zval **table, int *n)
{
	lq_php_worker *w = worker_from(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zval *v;
	ZEND_HASH_FOREACH_VAL(&w->handlers, v) {
		zend_get_gc_buffer_add_zval(buf, v);
	} ZEND_HASH_FOREACH_END();
	if (w->db)
		zend_get_gc_buffer_add_obj(buf, w->db);
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

/* Runner options shared by Worker and Runner::tick.  0 or -1 (thrown). */
static int run_options(HashTable *opts, uint32_t arg, bool tick, lq_mode *mode, int64_t *claim_ttl,
		       int64_t *timeout, size_t *batch, bool *signals, int64_t *lease_ttl, const char **queue)
{
	zend_string *k;
	zval *v;
	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, k, v) {
		bool b;
		zend_long n;
		if (k && zend_string_equals_literal(k, "atLeastOnce")) {
			if (lq_php_bool(v, arg, "atLeastOnce", &b) < 0)
				return -1;
			*mode = b ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE_CANCELLABLE;
		} else if (k && zend_string_equals_literal(k, "claimTtl")) {
			if (lq_php_duration(v, arg, "claimTtl", claim_ttl) < 0)
				return -1;
		} else if (k && zend_string_equals_literal(k, "timeout")) {
			if (lq_php_duration(v, arg, "timeout", timeout) < 0)
				return -1;
		} else if (!tick && k && zend_string_equals_literal(k, "batch")) {
			if (lq_php_long(v, arg, "batch", &n) < 0)
				return -1;
			if (n < 1 || n > 1000) {
				zend_argument_value_error(arg, "option \"batch\" must be between 1 and 1000");
				return -1;
			}
			*batch = (size_t)n;
		} else if (!tick && k && zend_string_equals_literal(k, "signals")) {
			if (lq_php_bool(v, arg, "signals", signals) < 0)
				return -1;
		} else if (tick && k && zend_string_equals_literal(k, "leaseTtl")) {
			if (lq_php_duration(v, arg, "leaseTtl", lease_ttl) < 0)
				return -1;
		} else if (tick && k && zend_string_equals_literal(k, "queue")) {
			char msg[256];
			if (lq_php_cstring(v, arg, "queue", queue) < 0)
				return -1;
			if (lq_check_name("queue", *queue, msg, sizeof(msg)) != LQ_OK) {
				zend_argument_value_error(arg, "option \"queue\" is not valid: %s", msg);
				return -1;
			}
		} else {
			lq_php_unknown_option(arg, k);
			return -1;
		}
	} ZEND_HASH_FOREACH_END();
	if (*claim_ttl <= 0) {
		zend_argument_value_error(arg, "option \"claimTtl\" must be more than 0");
		return -1;
	}
	return 0;
}

void lq_php_worker_minit(void)
{
	lq_php_ce_worker->create_object = worker_create;
	memcpy(&worker_handlers, zend_get_std_object_handlers(), sizeof(worker_handlers));
	worker_handlers.offset = XtOffsetOf(lq_php_worker, std);
	worker_handlers.free_obj = worker_free;
	worker_handlers.clone_obj = NULL;
	worker_handlers.get_gc = worker_gc;
	prev_interrupt = zend_interrupt_function;
	zend_interrupt_function = job_interrupt;
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

void lq_php_worker_mshutdown(void)
{
	if (zend_interrupt_function == job_interrupt)
		zend_interrupt_function = prev_interrupt;
	pthread_mutex_lock(&tmu);
	bool started = t_started;
	t_quit = true;
	t_target = NULL;
	if (started)
		pthread_cond_signal(&tcv);
	pthread_mutex_unlock(&tmu);
	if (started)
		pthread_join(tthread, NULL);
	t_started = false;
}

ZEND_METHOD(Leaseq_Worker, __construct)
{
	zval *zdb;
	HashTable *queues = NULL, *opts = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_OBJECT_OF_CLASS(zdb, lq_php_ce_db)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(queues)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	lq_php_worker *w = worker_from(Z_OBJ_P(ZEND_THIS));
	if (w->db) {
		zend_throw_error(NULL, "Leaseq\\Worker is already constructed");
		RETURN_THROWS();
	}
	w->mode = LQ_AT_LEAST_ONCE;
	w->claim_ttl_ms = 30000;
	w->batch = 1;
	w->signals = true;
	if (opts && run_options(opts, 3, false, &w->mode, &w->claim_ttl_ms, &w->timeout_ms, &w->batch, &w->signals,
				NULL, NULL) < 0)
		RETURN_THROWS();
	if (queues) {
		zval *q;
		ZEND_HASH_FOREACH_VAL(queues, q) {
			ZVAL_DEREF(q);
			if (Z_TYPE_P(q) != IS_STRING) {
				zend_argument_type_error(2, "must be a list of strings, %s found", zend_zval_type_name(q));
				RETURN_THROWS();
			}
			if (lq_php_name("queue", Z_STR_P(q), 2) < 0)
				RETURN_THROWS();
			Z_TRY_ADDREF_P(q);
			zend_hash_next_index_insert(&w->queues, q);
		} ZEND_HASH_FOREACH_END();
		if (zend_hash_num_elements(&w->queues) == 0) {
			zend_argument_value_error(2, "must name at least one queue");
			RETURN_THROWS();
		}
	}
	w->db = Z_OBJ_P(zdb);
	GC_ADDREF(w->db);
}

static lq_php_worker *worker_this(zval *this_)
{
	lq_php_worker *w = worker_from(Z_OBJ_P(this_));
	if (!w->db) {
		zend_throw_error(NULL, "Leaseq\\Worker was not constructed");
		return NULL;
	}
	return w;
}

ZEND_METHOD(Leaseq_Worker, handle)
{
	zend_string *name;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(name)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	lq_php_worker *w = worker_this(ZEND_THIS);
	if (!w)
		RETURN_THROWS();
	if (handler_name(name, 1) < 0)
		RETURN_THROWS();
	zval fn;
	handler_closure(&fci.function_name, &fcc, &fn);
	zend_hash_update(&w->handlers, name, &fn);
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Leaseq_Worker, run)
{
	bool drain = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(drain)
	ZEND_PARSE_PARAMETERS_END();
	lq_php_worker *w = worker_this(ZEND_THIS);
	if (!w)
		RETURN_THROWS();
	if (w->runner) {
		zend_throw_error(NULL, "Leaseq\\Worker::run() is already running");
		RETURN_THROWS();
	}
	lq_php_db *dbo = lq_php_db_open(w->db);
	if (!dbo)
		RETURN_THROWS();
	size_t nq = zend_hash_num_elements(&w->queues), i = 0;
	const char **qs = ecalloc(nq + 1, sizeof(*qs));
	zval *q;
	ZEND_HASH_FOREACH_VAL(&w->queues, q) {
		qs[i++] = Z_STRVAL_P(q);
	} ZEND_HASH_FOREACH_END();
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	o.queues = nq ? qs : NULL;
	o.mode = w->mode;
	o.claim_ttl_ms = w->claim_ttl_ms;
	o.batch = w->batch;
	run r;
	memset(&r, 0, sizeof(r));
	r.dbo = dbo;
	r.timeout_ms = w->timeout_ms;
	lq_status st = lq_runner_new(dbo->db, &o, &r.runner);
	if (st != LQ_OK) {
		efree(qs);
		r.runner = NULL;
		lq_php_throw(dbo, st, "worker: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	if (run_handlers(&r, &w->handlers) < 0) {
		run_end(&r);
		efree(qs);
		RETURN_THROWS();
	}
	/* The Worker and its Db stay alive while it runs, whatever a handler
	 * does with its variables. */
	GC_ADDREF(&w->std);
	w->runner = r.runner;
	/* A run inside a handler of another leaves the signals to the outer. */
	bool own_signals = w->signals && lq_php_signals_install(r.runner, NULL, false);
	lq_run_report rep;
	memset(&rep, 0, sizeof(rep));
	LQ_PHP_CALL(dbo, st = lq_runner_work(r.runner, drain, &rep));
	if (own_signals)
		lq_php_signals_restore();
	w->runner = NULL;
	bool bailout = r.bailout;
	run_end(&r);
	efree(qs);
	OBJ_RELEASE(&w->std);
	if (bailout)
		zend_bailout();
	if (EG(exception))
		RETURN_THROWS();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "worker: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	report_array(return_value, &rep);
}

ZEND_METHOD(Leaseq_Worker, stop)
{
	ZEND_PARSE_PARAMETERS_NONE();
	lq_php_worker *w = worker_this(ZEND_THIS);
	if (!w)
		RETURN_THROWS();
	if (w->runner)
		lq_runner_stop(w->runner);
}

/* ---------------------------------------- progress, snooze, result */

/* The job of the handler running now, or null with an Error thrown. */
static lq_job *running_job(const char *what)
{
	if (!cur.job)
		zend_throw_error(NULL, "Worker::%s(): not inside a handler (it is for the task running now)", what);
	return cur.job;
}

ZEND_METHOD(Leaseq_Worker, progress)
{
	zend_long pct;
	zend_string *msg = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_LONG(pct)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(msg)
	ZEND_PARSE_PARAMETERS_END();
	if (pct < 0 || pct > 100) {
		zend_argument_value_error(1, "must be between 0 and 100");
		RETURN_THROWS();
	}
	lq_job *job = running_job("progress");
	if (!job)
		RETURN_THROWS();
	if (msg && (ZSTR_LEN(msg) > LQ_PROGRESS_MSG_MAX || memchr(ZSTR_VAL(msg), '\0', ZSTR_LEN(msg)))) {
		zend_argument_value_error(2, "must be at most %d bytes of one line of UTF-8", LQ_PROGRESS_MSG_MAX);
		RETURN_THROWS();
	}
	lq_status st = lq_job_progress(job, (int)pct, msg ? ZSTR_VAL(msg) : NULL);
	if (st == LQ_LOST)
		RETURN_FALSE;
	if (st == LQ_EINVAL) {
		zend_argument_value_error(2, "must be one line of UTF-8, and the worker at least once");
		RETURN_THROWS();
	}
	if (st != LQ_OK) {
		lq_php_throw_msg(st, "progress failed");
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

ZEND_METHOD(Leaseq_Worker, snooze)
{
	zval *zdelay;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(zdelay)
	ZEND_PARSE_PARAMETERS_END();
	int64_t ms = 0;
	if (lq_php_duration(zdelay, 1, "delay", &ms) < 0)
		RETURN_THROWS();
	lq_job *job = running_job("snooze");
	if (!job)
		RETURN_THROWS();
	if (lq_job_snooze(job, ms) != LQ_OK) {
		zend_argument_value_error(1, "must be a positive duration");
		RETURN_THROWS();
	}
}

ZEND_METHOD(Leaseq_Worker, setResult)
{
	zend_string *data;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(data)
	ZEND_PARSE_PARAMETERS_END();
	if (ZSTR_LEN(data) > LQ_RESULT_MAX) {
		zend_argument_value_error(1, "must be at most %d bytes", LQ_RESULT_MAX);
		RETURN_THROWS();
	}
	lq_job *job = running_job("setResult");
	if (!job)
		RETURN_THROWS();
	if (lq_job_set_result(job, ZSTR_VAL(data), ZSTR_LEN(data)) != LQ_OK) {
		lq_php_throw_msg(LQ_ENOMEM, "setResult: out of memory");
		RETURN_THROWS();
	}
}

/* ------------------------------------------------------------- Runner */

ZEND_METHOD(Leaseq_Runner, tick)
{
	zval *zdb, *zbudget = NULL;
	HashTable *handlers, *opts = NULL;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_OBJECT_OF_CLASS(zdb, lq_php_ce_db)
		Z_PARAM_ARRAY_HT(handlers)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(zbudget)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	lq_php_db *dbo = lq_php_db_open(Z_OBJ_P(zdb));
	if (!dbo)
		RETURN_THROWS();
	int64_t budget = 1000, claim_ttl = 30000, timeout = 0, lease_ttl = 0;
	lq_mode mode = LQ_AT_MOST_ONCE_CANCELLABLE; /* a running task stays cancellable */
	const char *queue = NULL;
	if (zbudget && lq_php_duration(zbudget, 3, NULL, &budget) < 0)
		RETURN_THROWS();
	if (opts && run_options(opts, 4, true, &mode, &claim_ttl, &timeout, NULL, NULL, &lease_ttl, &queue) < 0)
		RETURN_THROWS();
	zend_string *name;
	zval *fn;
	HashTable resolved;
	zend_hash_init(&resolved, zend_hash_num_elements(handlers), NULL, ZVAL_PTR_DTOR, 0);
	ZEND_HASH_FOREACH_STR_KEY_VAL(handlers, name, fn) {
		zend_fcall_info fci;
		zend_fcall_info_cache fcc;
		zval c;
		if (!name) {
			zend_argument_value_error(2, "must map task names to callables");
			goto fail;
		}
		if (handler_name(name, 2) < 0)
			goto fail;
		if (zend_fcall_info_init(fn, 0, &fci, &fcc, NULL, NULL) != SUCCESS) {
			zend_argument_type_error(2, "handler \"%s\" is not callable", ZSTR_VAL(name));
			goto fail;
		}
		zend_release_fcall_info_cache(&fcc);
		handler_closure(fn, &fcc, &c);
		zend_hash_update(&resolved, name, &c);
	} ZEND_HASH_FOREACH_END();
	const char *qs[2] = {queue, NULL};
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	o.queues = queue ? qs : NULL;
	o.mode = mode;
	o.claim_ttl_ms = claim_ttl;
	o.lease_ttl_ms = lease_ttl;
	run r;
	memset(&r, 0, sizeof(r));
	r.dbo = dbo;
	r.timeout_ms = timeout;
	lq_status st = lq_runner_new(dbo->db, &o, &r.runner);
	if (st != LQ_OK) {
		r.runner = NULL;
		lq_php_throw(dbo, st, "tick: %s", lq_status_str(st));
		goto fail;
	}
	if (run_handlers(&r, &resolved) < 0) {
		run_end(&r);
		goto fail;
	}
	zend_hash_destroy(&resolved); /* run_handlers holds its own references */
	GC_ADDREF(Z_OBJ_P(zdb));
	lq_run_report rep;
	memset(&rep, 0, sizeof(rep));
	LQ_PHP_CALL(dbo, st = lq_runner_tick(r.runner, budget, &rep));
	bool bailout = r.bailout;
	run_end(&r);
	OBJ_RELEASE(Z_OBJ_P(zdb));
	if (bailout)
		zend_bailout();
	if (EG(exception))
		RETURN_THROWS();
	if (st != LQ_OK && st != LQ_BUSY) {
		lq_php_throw(dbo, st, "tick: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	report_array(return_value, &rep);
	return;
fail:
	zend_hash_destroy(&resolved);
	RETURN_THROWS();
}
