/*
 * worker.c - leaseq.Runner (an lq_runner calling Python handlers) and
 * leaseq.Job (what a handler is given), and the watchdog's async raise.
 */
#include "leaseq_py.h"

typedef struct {
	PyObject_HEAD
	DbObject *db;
	lq_runner *r;
	PyObject *handlers; /* name -> callable(job) */
	PyObject *queues;   /* the queue names (their UTF-8 stays valid) */
	const char **qv;
} RunnerObject;

typedef struct {
	PyObject_HEAD
	lq_job *job; /* valid only while the handler runs */
	RunnerObject *runner;
	char *timed_out; /* set by the watchdog: the run is recorded as timed out */
} JobObject;

static int job_live(JobObject *self)
{
	if (!self->job) {
		PyErr_SetString(PyExc_RuntimeError, "the job has ended (a Job is valid while its handler runs)");
		return -1;
	}
	return 0;
}

static PyObject *Job_get_task(JobObject *self, void *c)
{
	if (job_live(self) < 0)
		return NULL;
	return task_from_copy(lq_job_task(self->job));
}

static PyObject *Job_get_claim_ttl(JobObject *self, void *c)
{
	if (job_live(self) < 0)
		return NULL;
	return ms_to_seconds(lq_job_claim_ttl(self->job));
}

static PyObject *Job_get_stopping(JobObject *self, void *c)
{
	if (job_live(self) < 0)
		return NULL;
	return PyBool_FromLong(lq_job_stopping(self->job));
}

/* From the heartbeat thread, while the handler runs in the runner's thread:
 * the runner's handle is idle then (the trampoline released its mutex), and
 * the mutex keeps a handler's own use of the Db from overlapping. */
static PyObject *Job_heartbeat(JobObject *self, PyObject *unused)
{
	lq_status st;
	if (job_live(self) < 0)
		return NULL;
	DB_CALL(self->runner->db, st, lq_job_heartbeat(self->job));
	if (st == LQ_LOST)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return raise_msg(st, "heartbeat failed", NULL);
	Py_RETURN_TRUE;
}

/* progress(percent, message=None): True when stored, False when the claim
 * was lost (stop working). */
static PyObject *Job_progress(JobObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"percent", "message", NULL};
	PyObject *po;
	const char *msg = NULL;
	int pct;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|z:progress", kwlist, &po, &msg) ||
	    int_arg(po, "percent", 0, 100, &pct) < 0 || job_live(self) < 0)
		return NULL;
	DB_CALL(self->runner->db, st, lq_job_progress(self->job, pct, msg));
	if (st == LQ_LOST)
		Py_RETURN_FALSE;
	if (st == LQ_EINVAL) {
		PyErr_SetString(PyExc_ValueError, lq_errmsg(self->runner->db->db));
		return NULL;
	}
	if (st != LQ_OK)
		return raise_msg(st, "progress failed", NULL);
	Py_RETURN_TRUE;
}

/* snooze(delay): the task runs again after delay, this attempt not
 * counted, once the handler returns. */
static PyObject *Job_snooze(JobObject *self, PyObject *arg)
{
	int64_t ms;
	if (duration_ms(arg, "delay", &ms) < 0 || job_live(self) < 0)
		return NULL;
	if (lq_job_snooze(self->job, ms) != LQ_OK) {
		PyErr_SetString(PyExc_ValueError, "delay must be positive (at most about 100 years)");
		return NULL;
	}
	Py_RETURN_NONE;
}

/* set_result(data): stored with the ack once the handler returns. */
static PyObject *Job_set_result(JobObject *self, PyObject *arg)
{
	Py_buffer b;
	if (PyUnicode_Check(arg)) {
		Py_ssize_t n;
		const char *u = PyUnicode_AsUTF8AndSize(arg, &n);
		if (!u)
			return NULL;
		if (PyBuffer_FillInfo(&b, NULL, (void *)u, n, 1, PyBUF_SIMPLE) < 0)
			return NULL;
	} else if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) {
		return NULL;
	}
	if (job_live(self) < 0) {
		PyBuffer_Release(&b);
		return NULL;
	}
	lq_status st = b.len > LQ_RESULT_MAX ? LQ_EINVAL : lq_job_set_result(self->job, b.buf, (size_t)b.len);
	PyBuffer_Release(&b);
	if (st == LQ_EINVAL) {
		PyErr_Format(PyExc_ValueError, "result is over %d bytes", LQ_RESULT_MAX);
		return NULL;
	}
	if (st != LQ_OK)
		return PyErr_NoMemory();
	Py_RETURN_NONE;
}

static PyObject *Job_mark_timed_out(JobObject *self, PyObject *arg)
{
	const char *m = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
	if (!m) {
		PyErr_SetString(PyExc_TypeError, "mark_timed_out(message: str)");
		return NULL;
	}
	free(self->timed_out);
	self->timed_out = strdup(m);
	Py_RETURN_NONE;
}

static void Job_dealloc(JobObject *self)
{
	Py_XDECREF(self->runner);
	free(self->timed_out);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Job_methods[] = {
	{"heartbeat", (PyCFunction)Job_heartbeat, METH_NOARGS,
	 "heartbeat($self)\n--\n\nExtend the claim (and a tick's runner lease).  False when lost: stop working."},
	{"progress", (PyCFunction)(void (*)(void))Job_progress, METH_VARARGS | METH_KEYWORDS,
	 "progress($self, percent, message=None)\n--\n\nReport how far the task is (0-100, at-least-once).  False when "
	 "the claim was lost: stop working."},
	{"snooze", (PyCFunction)Job_snooze, METH_O,
	 "snooze($self, delay)\n--\n\nRun the task again after delay, this attempt not counted (when the handler "
	 "returns)."},
	{"set_result", (PyCFunction)Job_set_result, METH_O,
	 "set_result($self, data)\n--\n\nStore data (bytes or str, at most 64 KiB) with the ack (when the handler "
	 "returns)."},
	{"mark_timed_out", (PyCFunction)Job_mark_timed_out, METH_O,
	 "mark_timed_out($self, message)\n--\n\nRecord the run as timed out (the watchdog calls it)."},
	{NULL}};

static PyGetSetDef Job_getset[] = {
	{"task", (getter)Job_get_task, NULL, "The running task (a copy).", NULL},
	{"claim_ttl", (getter)Job_get_claim_ttl, NULL, "Seconds a heartbeat extends the claim by.", NULL},
	{"stopping", (getter)Job_get_stopping, NULL, "True once the runner was asked to stop.", NULL},
	{NULL}};

PyTypeObject JobType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "leaseq._leaseq.Job",
	.tp_basicsize = sizeof(JobObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A running task as the runner hands it to a handler (internal; see Worker).",
	.tp_dealloc = (destructor)Job_dealloc,
	.tp_methods = Job_methods,
	.tp_getset = Job_getset,
};

/* The last line of the exception's format_exception_only: "ValueError: bad". */
static char *exception_line(void)
{
	PyObject *t, *v, *tb, *lines = NULL;
	char *out = NULL;
	PyErr_Fetch(&t, &v, &tb);
	PyErr_NormalizeException(&t, &v, &tb);
	if (g_format_exc_only && t)
		lines = PyObject_CallFunctionObjArgs(g_format_exc_only, t, v ? v : Py_None, NULL);
	if (lines && PyList_Check(lines) && PyList_GET_SIZE(lines) > 0) {
		PyObject *last = PyList_GET_ITEM(lines, PyList_GET_SIZE(lines) - 1);
		const char *s = PyUnicode_Check(last) ? PyUnicode_AsUTF8(last) : NULL;
		if (s) {
			out = strdup(s);
			if (out) {
				size_t n = strlen(out);
				while (n && (out[n - 1] == '\n' || out[n - 1] == '\r'))
					out[--n] = 0;
			}
		}
	}
	PyErr_Clear();
	Py_XDECREF(lines);
	Py_XDECREF(t);
	Py_XDECREF(v);
	Py_XDECREF(tb);
	return out ? out : strdup("handler failed");
}

/* Every task the runner runs comes here, in the runner's thread, without
 * the GIL and holding the handle's mutex. */
static int trampoline(lq_job *job, void *ctx)
{
	RunnerObject *self = ctx;
	int rc = 1;
	PyThread_release_lock(self->db->mu);
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *fn = PyDict_GetItemString(self->handlers, lq_job_task(job)->name);
	if (!fn)
		fn = PyDict_GetItemString(self->handlers, "*");
	JobObject *jo = fn ? PyObject_New(JobObject, &JobType) : NULL;
	if (jo) {
		jo->job = job;
		jo->runner = (RunnerObject *)Py_NewRef(self);
		jo->timed_out = NULL;
		PyObject *res = PyObject_CallOneArg(fn, (PyObject *)jo);
		if (jo->timed_out) {
			/* Stopped past its limit, even if the handler swallowed
			 * the Timeout and returned. */
			PyErr_Clear();
			lq_job_set_timed_out(job, jo->timed_out);
		} else if (res) {
			rc = 0;
		} else {
			char *line = exception_line();
			lq_job_set_error(job, line ? line : "handler failed");
			free(line);
		}
		Py_XDECREF(res);
		jo->job = NULL;
		Py_DECREF(jo);
		/* A watchdog's Timeout that arrived too late must not hit the
		 * next handler of this thread. */
		PyThreadState_SetAsyncExc(PyThread_get_thread_ident(), NULL);
	} else {
		PyErr_Clear();
		lq_job_set_error(job, "no handler");
	}
	PyGILState_Release(g);
	PyThread_acquire_lock(self->db->mu, WAIT_LOCK);
	return rc;
}

static int Runner_init(RunnerObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"db", "queues", "at_least_once", "claim_ttl", "lease_ttl", "batch", NULL};
	PyObject *dbo, *queues = Py_None, *ttlo = Py_None, *lttlo = Py_None;
	int alo = 0;
	Py_ssize_t batch = 1;
	lq_runner_opts o = LQ_RUNNER_OPTS_INIT;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|O$pOOn:Runner", kwlist, &DbType, &dbo, &queues, &alo, &ttlo,
					 &lttlo, &batch))
		return -1;
	if (self->r) {
		PyErr_SetString(PyExc_RuntimeError, "Runner already initialised");
		return -1;
	}
	DbObject *db = (DbObject *)dbo;
	if (!db->db) {
		PyErr_SetString(PyExc_ValueError, "leaseq.Db: the connection is closed");
		return -1;
	}
	if (queues == Py_None)
		queues = Py_BuildValue("[s]", LQ_DEFAULT_QUEUE);
	else if (PyUnicode_Check(queues))
		queues = Py_BuildValue("[O]", queues);
	else
		queues = PySequence_List(queues);
	if (!queues)
		return -1;
	self->queues = queues;
	Py_ssize_t n = PyList_GET_SIZE(queues);
	if (n < 1) {
		PyErr_SetString(PyExc_ValueError, "queues: at least one queue");
		return -1;
	}
	if (!(self->qv = calloc((size_t)n + 1, sizeof(*self->qv)))) {
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (!(self->qv[i] = name_arg(PyList_GET_ITEM(queues, i), "queue")))
			return -1;
	o.queues = self->qv;
	/* At most once, a run stays cancellable (Db.cancel_task) while it runs. */
	o.mode = alo ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE_CANCELLABLE;
	if (ttlo != Py_None && duration_ms(ttlo, "claim_ttl", &o.claim_ttl_ms) < 0)
		return -1;
	if (lttlo != Py_None && duration_ms(lttlo, "lease_ttl", &o.lease_ttl_ms) < 0)
		return -1;
	if (batch < 1 || batch > CLAIM_MAX) {
		PyErr_Format(PyExc_ValueError, "batch must be between 1 and %d", CLAIM_MAX);
		return -1;
	}
	o.batch = (size_t)batch;
	if (!(self->handlers = PyDict_New()))
		return -1;
	lq_status st = lq_runner_new(db->db, &o, &self->r);
	if (st != LQ_OK) {
		raise_msg(st, lq_errmsg(db->db), NULL);
		return -1;
	}
	self->db = (DbObject *)Py_NewRef(db);
	db->runners++;
	return 0;
}

static void Runner_dealloc(RunnerObject *self)
{
	lq_runner_free(self->r);
	if (self->db)
		self->db->runners--;
	Py_XDECREF(self->db);
	Py_XDECREF(self->handlers);
	Py_XDECREF(self->queues);
	free(self->qv);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Runner_handle(RunnerObject *self, PyObject *args)
{
	PyObject *nameo, *fn;
	if (!PyArg_ParseTuple(args, "OO:handle", &nameo, &fn))
		return NULL;
	const char *name = PyUnicode_Check(nameo) && PyUnicode_CompareWithASCIIString(nameo, "*") == 0
				   ? "*"
				   : name_arg(nameo, "task name");
	if (!name)
		return NULL;
	if (!PyCallable_Check(fn)) {
		PyErr_SetString(PyExc_TypeError, "handle(): the handler must be callable");
		return NULL;
	}
	if (PyDict_SetItem(self->handlers, nameo, fn) < 0)
		return NULL;
	lq_status st = lq_runner_handle(self->r, name, trampoline, self);
	if (st != LQ_OK)
		return raise_msg(st, "cannot register the handler", NULL);
	Py_RETURN_NONE;
}

static PyObject *report_tuple(const lq_run_report *r)
{
	PyObject *o = PyStructSequence_New(ReportType);
	if (!o)
		return NULL;
	PyStructSequence_SET_ITEM(o, 0, PyLong_FromLongLong(r->ran));
	PyStructSequence_SET_ITEM(o, 1, PyLong_FromLongLong(r->failed));
	PyStructSequence_SET_ITEM(o, 2, PyLong_FromLongLong(r->claimed));
	PyStructSequence_SET_ITEM(o, 3, PyUnicode_FromString(lq_stop_reason_name(r->stopped)));
	return o;
}

/* work() and tick(): budget < 0 means work(drain). */
static PyObject *runner_go(RunnerObject *self, int drain, int64_t budget)
{
	lq_run_report rep = {0};
	lq_status st;
	if (db_enter(self->db) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(self->db->mu, WAIT_LOCK);
	st = budget < 0 ? lq_runner_work(self->r, drain, &rep) : lq_runner_tick(self->r, budget, &rep);
	PyThread_release_lock(self->db->mu);
	Py_END_ALLOW_THREADS db_leave(self->db);
	if (st != LQ_OK && st != LQ_BUSY)
		return db_raise(self->db, st);
	return report_tuple(&rep);
}

static PyObject *Runner_work(RunnerObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"drain", NULL};
	int drain = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:work", kwlist, &drain))
		return NULL;
	return runner_go(self, drain, -1);
}

static PyObject *Runner_tick(RunnerObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"budget", NULL};
	PyObject *bo = Py_None;
	int64_t budget = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:tick", kwlist, &bo))
		return NULL;
	if (bo != Py_None && duration_ms(bo, "budget", &budget) < 0)
		return NULL;
	return runner_go(self, 0, budget);
}

/* Async-signal-safe in C; from Python, any thread may call it. */
static PyObject *Runner_stop(RunnerObject *self, PyObject *unused)
{
	if (self->r)
		lq_runner_stop(self->r);
	Py_RETURN_NONE;
}

static PyMethodDef Runner_methods[] = {
	{"handle", (PyCFunction)Runner_handle, METH_VARARGS,
	 "handle($self, name, fn)\n--\n\nfn(job) runs tasks named name ('*': any other)."},
	{"work", (PyCFunction)(void (*)(void))Runner_work, METH_VARARGS | METH_KEYWORDS,
	 "work($self, drain=False)\n--\n\nlq_runner_work: run tasks until stopped (or, drain, until none is due)."},
	{"tick", (PyCFunction)(void (*)(void))Runner_tick, METH_VARARGS | METH_KEYWORDS,
	 "tick($self, budget=None)\n--\n\nlq_runner_tick: one pseudo-cron tick on the first queue."},
	{"stop", (PyCFunction)Runner_stop, METH_NOARGS, "stop($self)\n--\n\nStop after the current task."},
	{NULL}};

PyTypeObject RunnerType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "leaseq._leaseq.Runner",
	.tp_basicsize = sizeof(RunnerObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Runner(db, queues=None, *, at_least_once=False, claim_ttl=None, lease_ttl=None, batch=1)\n"
		  "--\n\nThe C runner (internal: use leaseq.Worker and leaseq.tick).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Runner_init,
	.tp_dealloc = (destructor)Runner_dealloc,
	.tp_methods = Runner_methods,
};

PyObject *mod_async_raise(PyObject *m, PyObject *args)
{
	unsigned long tid;
	PyObject *exc;
	if (!PyArg_ParseTuple(args, "kO:_async_raise", &tid, &exc))
		return NULL;
	return PyLong_FromLong(PyThreadState_SetAsyncExc(tid, exc == Py_None ? NULL : exc));
}
