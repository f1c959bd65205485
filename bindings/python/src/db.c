/*
 * db.c - leaseq.Db: one lq_db, used by one thread at a time, every call
 * under its mutex with the GIL released; its method table (the lease and
 * task calls live in lease.c and task.c).
 */
#include "leaseq_py.h"

/* One Db is used by one thread at a time: a second thread is refused
 * (checked under the GIL, so no lock is needed for owner/depth).  The same
 * thread may re-enter (a worker's handler using the worker's Db). */
int db_enter(DbObject *self)
{
	if (!self->db) {
		PyErr_SetString(PyExc_ValueError, "leaseq.Db: the connection is closed");
		return -1;
	}
	unsigned long me = PyThread_get_thread_ident();
	if (self->depth > 0 && self->owner != me) {
		PyErr_Format(PyExc_RuntimeError,
			     "leaseq.Db(%s) is in use by another thread: use one Db per thread", self->shown);
		return -1;
	}
	self->owner = me;
	self->depth++;
	return 0;
}

void db_leave(DbObject *self)
{
	if (--self->depth <= 0) {
		self->depth = 0;
		self->owner = 0;
	}
}

PyObject *db_raise(DbObject *self, lq_status st)
{
	return raise_msg(st, lq_errmsg(self->db), NULL);
}

/* None for LQ_OK, else the status's exception. */
PyObject *db_none(DbObject *self, lq_status st)
{
	if (st != LQ_OK)
		return db_raise(self, st);
	Py_RETURN_NONE;
}

static int db_open(DbObject *self, const char *dsn)
{
	lq_db *db = NULL;
	lq_status st;
	lq_dsn_redact(dsn ? dsn : "sqlite:leaseq.db", self->shown, sizeof(self->shown));
	if (dsn) {
		self->dsn = strdup(dsn);
		if (!self->dsn) {
			PyErr_NoMemory();
			return -1;
		}
	}
	Py_BEGIN_ALLOW_THREADS st = lq_open(dsn, &db);
	Py_END_ALLOW_THREADS
	if (st != LQ_OK) {
		if (db) {
			raise_msg(st, lq_errmsg(db), NULL);
			lq_close(db);
		} else {
			PyErr_NoMemory();
		}
		return -1;
	}
	self->db = db;
	return 0;
}

static int Db_init(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"dsn", NULL};
	PyObject *dsno = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Db", kwlist, &dsno))
		return -1;
	if (self->db || self->dsn) {
		PyErr_SetString(PyExc_RuntimeError, "leaseq.Db is already open");
		return -1;
	}
	const char *dsn = NULL;
	if (dsno != Py_None) {
		if (!PyUnicode_Check(dsno)) {
			PyErr_Format(PyExc_TypeError, "dsn must be str, not %.100s", Py_TYPE(dsno)->tp_name);
			return -1;
		}
		if (!(dsn = PyUnicode_AsUTF8(dsno)))
			return -1;
	} else {
		dsn = getenv("LEASEQ_DSN");
		if (dsn && !*dsn)
			dsn = NULL;
	}
	return db_open(self, dsn);
}

static PyObject *Db_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	DbObject *self = (DbObject *)type->tp_alloc(type, 0);
	if (!self)
		return NULL;
	self->mu = PyThread_allocate_lock();
	if (!self->mu) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void db_close_now(DbObject *self)
{
	if (self->db) {
		lq_db *db = self->db;
		self->db = NULL;
		Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(self->mu, WAIT_LOCK);
		lq_close(db);
		PyThread_release_lock(self->mu);
		Py_END_ALLOW_THREADS
	}
}

static void Db_dealloc(DbObject *self)
{
	if (self->weakrefs)
		PyObject_ClearWeakRefs((PyObject *)self);
	db_close_now(self);
	if (self->mu)
		PyThread_free_lock(self->mu);
	free(self->dsn);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Db_close(DbObject *self, PyObject *unused)
{
	if (self->depth > 0 || self->runners > 0) {
		PyErr_SetString(PyExc_RuntimeError, "leaseq.Db.close(): the Db is in use (by a worker or another thread)");
		return NULL;
	}
	db_close_now(self);
	Py_RETURN_NONE;
}

static PyObject *Db_enter(DbObject *self, PyObject *unused)
{
	if (!self->db) {
		PyErr_SetString(PyExc_ValueError, "leaseq.Db: the connection is closed");
		return NULL;
	}
	return Py_NewRef(self);
}

static PyObject *Db_exit(DbObject *self, PyObject *args)
{
	if (self->depth == 0 && self->runners == 0)
		db_close_now(self);
	Py_RETURN_FALSE;
}

static PyObject *Db_repr(DbObject *self)
{
	if (!self->db)
		return PyUnicode_FromFormat("<leaseq.Db %s closed>", self->shown);
	return PyUnicode_FromFormat("<leaseq.Db %s backend=%s>", self->shown, lq_backend_name(self->db));
}

static PyObject *Db_get_closed(DbObject *self, void *c)
{
	return PyBool_FromLong(self->db == NULL);
}

static PyObject *Db_get_backend(DbObject *self, void *c)
{
	if (!self->db) {
		PyErr_SetString(PyExc_ValueError, "leaseq.Db: the connection is closed");
		return NULL;
	}
	return PyUnicode_FromString(lq_backend_name(self->db));
}

static PyObject *Db_get_dsn(DbObject *self, void *c)
{
	return PyUnicode_FromString(self->shown);
}

/* A new Db on the same DSN (a worker's other threads). */
static PyObject *Db_reopen(DbObject *self, PyObject *unused)
{
	DbObject *n = (DbObject *)Db_new(Py_TYPE(self), NULL, NULL);
	if (!n)
		return NULL;
	if (db_open(n, self->dsn) < 0) {
		Py_DECREF(n);
		return NULL;
	}
	return (PyObject *)n;
}

static PyObject *Db_migrate(DbObject *self, PyObject *unused)
{
	int from = 0, to = 0;
	lq_status st;
	DB_RUN(self, st, lq_migrate(self->db, &from, &to));
	if (st != LQ_OK)
		return db_raise(self, st);
	return Py_BuildValue("(ii)", from, to);
}

static PyObject *Db_schema(DbObject *self, PyObject *unused)
{
	int cur = 0, latest = 0;
	lq_status st;
	DB_RUN(self, st, lq_schema_status(self->db, &cur, &latest));
	if (st != LQ_OK)
		return db_raise(self, st);
	return Py_BuildValue("(ii)", cur, latest);
}

static PyObject *Db_now(DbObject *self, PyObject *unused)
{
	int64_t now = 0;
	lq_status st;
	DB_RUN(self, st, lq_now(self->db, &now));
	if (st != LQ_OK)
		return db_raise(self, st);
	return ms_to_datetime(now);
}

/* Not under the mutex: lq_cancel is meant for another thread (or a signal
 * handler) while the owner waits. */
static PyObject *Db_cancel(DbObject *self, PyObject *unused)
{
	if (self->db)
		lq_cancel(self->db);
	Py_RETURN_NONE;
}

static PyObject *Db_cancel_clear(DbObject *self, PyObject *unused)
{
	if (self->db)
		lq_cancel_clear(self->db);
	Py_RETURN_NONE;
}

static PyMethodDef Db_methods[] = {
	{"close", (PyCFunction)Db_close, METH_NOARGS, "close($self)\n--\n\nClose the connection (idempotent)."},
	{"__enter__", (PyCFunction)Db_enter, METH_NOARGS, NULL},
	{"__exit__", (PyCFunction)Db_exit, METH_VARARGS, NULL},
	{"_reopen", (PyCFunction)Db_reopen, METH_NOARGS, "A new Db on the same DSN (the worker's other threads)."},
	{"migrate", (PyCFunction)Db_migrate, METH_NOARGS,
	 "migrate($self)\n--\n\nApply the migrations the database lacks.  Returns (from_version, to_version)."},
	{"schema", (PyCFunction)Db_schema, METH_NOARGS,
	 "schema($self)\n--\n\n(current, latest): the applied schema version (0: none) and the library's."},
	{"now", (PyCFunction)Db_now, METH_NOARGS, "now($self)\n--\n\nThe database clock, a datetime in UTC."},
	{"cancel", (PyCFunction)Db_cancel, METH_NOARGS,
	 "cancel($self)\n--\n\nEnd what this Db waits for (a lease wait, a worker's idle wait) with Canceled.\n"
	 "The one method another thread may call.  The request stays until cancel_clear()."},
	{"cancel_clear", (PyCFunction)Db_cancel_clear, METH_NOARGS,
	 "cancel_clear($self)\n--\n\nForget a cancel() request."},
	{"lease", (PyCFunction)(void (*)(void))Db_lease, METH_VARARGS | METH_KEYWORDS,
	 "lease($self, name, ttl, wait=None, *, slots=None, read=False, owner=None)\n--\n\n"
	 "Take the lease name for ttl (seconds, \"30s\" or a timedelta), waiting up to wait for it.\n"
	 "slots=N takes one of a semaphore's N slots; read=True a shared read lease.\n"
	 "Returns a Lease (a context manager that releases it); raises Busy (its .holder says who\n"
	 "holds it) when it is not free by the end of the wait."},
	{"try_lease", (PyCFunction)(void (*)(void))Db_try_lease, METH_VARARGS | METH_KEYWORDS,
	 "try_lease($self, name, ttl, *, slots=None, read=False, owner=None)\n--\n\n"
	 "As lease() without waiting; None when it is held elsewhere."},
	{"lease_from", (PyCFunction)(void (*)(void))Db_lease_from, METH_VARARGS | METH_KEYWORDS,
	 "lease_from($self, handle, ttl=None)\n--\n\nTake over a lease from Lease.encode()'s word (another process's).\n"
	 "It is not released when the object dies: call release().  ttl: what renew() uses."},
	{"lease_info", (PyCFunction)Db_lease_info, METH_O,
	 "lease_info($self, name)\n--\n\nThe lease's state as a dict (name, owner ('' when free), token, expires_at,\n"
	 "kind, slots, slot), or None if it was never taken."},
	{"break_lease", (PyCFunction)Db_break_lease, METH_O,
	 "break_lease($self, name)\n--\n\nAdmin: free the lease whoever holds it (bumps the token).  False if unknown."},
	{"add", (PyCFunction)(void (*)(void))Db_add, METH_VARARGS | METH_KEYWORDS,
	 "add(name, payload=None, *, queue=None, delay=None, run_at=None, unique=None, priority=None,\n"
	 "    timeout=None, max_attempts=None, every=None, cron=None, tz=None, missed=None, concurrency_key=None,\n"
	 "    partition=None, overlap=None, catch_up=None, alert_after=None)\n--\n\n"
	 "Enqueue a task; returns its id (with unique=KEY and a live task holding KEY: that task's id).\n"
	 "payload: str (UTF-8) or bytes.  delay/timeout/every: seconds, \"5m\" or a timedelta.\n"
	 "run_at: a datetime (naive = UTC) or epoch seconds.  cron: 5 fields or @daily, in tz.\n"
	 "missed: 'once' (default) or 'skip', for recurring tasks after downtime.\n"
	 "concurrency_key: tasks sharing it share its limit (set_limit()).  partition: claims serve a\n"
	 "queue's partitions (tenants) round-robin.  A recurring task's overlap ('skip', 'queue',\n"
	 "'cancel-previous'), catch_up (1 to 100 missed occurrences) and alert_after (a duration:\n"
	 "Schedule.overdue past it without a success)."},
	{"add_many", (PyCFunction)Db_add_many, METH_O,
	 "add_many($self, tasks)\n--\n\nEnqueue many tasks in one transaction: all or none.  Each task is a dict\n"
	 "{'name': ..., 'payload': ..., <add() options>}, a tuple (name, payload, options) or a name.\n"
	 "Returns the ids in order."},
	{"claim", (PyCFunction)(void (*)(void))Db_claim, METH_VARARGS | METH_KEYWORDS,
	 "claim($self, queue='default', limit=1, *, at_least_once=True, claim_ttl=30)\n--\n\n"
	 "Claim up to limit due tasks; a list of Task, [] when nothing is due.\n"
	 "at_least_once: settle each with ack()/fail()/release() before claim_ttl ends\n"
	 "(heartbeat() extends it); otherwise the claim removed the task already."},
	{"ack", (PyCFunction)Db_ack, METH_O,
	 "ack($self, task)\n--\n\nThe claimed task succeeded.  LeaseLost when the claim was lost meanwhile."},
	{"fail", (PyCFunction)Db_fail, METH_VARARGS,
	 "fail($self, task, error)\n--\n\nThe claimed task failed with error (one line): retried after a back-off,\n"
	 "or dead when out of attempts."},
	{"release", (PyCFunction)Db_release, METH_O,
	 "release($self, task)\n--\n\nHand a claimed task back unrun: due again at once, the attempt not counted."},
	{"heartbeat", (PyCFunction)(void (*)(void))Db_heartbeat, METH_VARARGS | METH_KEYWORDS,
	 "heartbeat($self, task, claim_ttl=30)\n--\n\nExtend an at-least-once claim; LeaseLost when it was lost."},
	{"get", (PyCFunction)Db_get, METH_O, "get($self, id)\n--\n\nThe task (live or dead), or None."},
	{"progress", (PyCFunction)Db_progress, METH_O,
	 "progress($self, id)\n--\n\n(percent, message, reported_at) its handler reported under the claim holding "
	 "live task id now, or None."},
	{"result", (PyCFunction)Db_result, METH_O,
	 "result($self, id)\n--\n\nThe result (bytes) the task's newest successful run stored, also after the task "
	 "is gone, or None."},
	{"remove", (PyCFunction)Db_remove, METH_O, "remove($self, id)\n--\n\nDelete a live or dead task.  False if none."},
	{"retry", (PyCFunction)Db_retry, METH_O,
	 "retry($self, id)\n--\n\nA dead task back to its queue (attempts reset), or a live one due now.  False if none."},
	{"list", (PyCFunction)(void (*)(void))Db_list, METH_VARARGS | METH_KEYWORDS,
	 "list($self, queue=None, *, dead=False, due=False)\n--\n\nTasks by id (payloads not loaded): every queue,\n"
	 "or one; the dead ones with dead=True; only those due now with due=True."},
	{"history", (PyCFunction)(void (*)(void))Db_history, METH_VARARGS | METH_KEYWORDS,
	 "history($self, *, task_id=None, queue=None, name=None, since=None, limit=100)\n--\n\n"
	 "Runs that ended, newest first: a list of Run (id, task_id, run_at, queue, name, worker,\n"
	 "attempt, started_at, ended_at, outcome: 'done'|'failed'|'timed_out'|'dead'|'cancelled', error)."},
	{"queues", (PyCFunction)Db_queues, METH_NOARGS,
	 "queues($self)\n--\n\nEvery queue with tasks or paused: a list of QueueInfo (name, paused, tasks, due,\n"
	 "dead, next_run_at)."},
	{"pause_queue", (PyCFunction)(void (*)(void))Db_pause_queue, METH_VARARGS | METH_KEYWORDS,
	 "pause_queue($self, queue, paused=True)\n--\n\nPause (or with paused=False resume) a whole queue."},
	{"stats", (PyCFunction)Db_stats, METH_NOARGS,
	 "stats($self)\n--\n\n{'queues': [QueueInfo...], 'leases': {'taken', 'lost', 'broken'},\n"
	 " 'runs': [{'queue', 'name', 'done', 'failed', 'timed_out', 'dead', 'cancelled'}...]}: the monotonic\n"
	 " counters."},
	{"cancel_task", (PyCFunction)(void (*)(void))Db_cancel_task, METH_VARARGS | METH_KEYWORDS,
	 "cancel_task($self, id, reason=None)\n--\n\nCancel task id (lq_task_cancel): it never runs again and its history\n"
	 "gets a 'cancelled' run (error: reason).  True when it was running under an at-least-once claim:\n"
	 "that worker's next heartbeat raises Revoked and its ack is refused.  False when it was not\n"
	 "running.  None when no live task has that id (finished, dead, unknown, or running at-most-once).\n"
	 "A recurring task's schedule ends (pause_task() skips occurrences instead)."},
	{"partition", (PyCFunction)Db_partition, METH_O,
	 "partition($self, id)\n--\n\nThe partition of live task id (add(partition=...)): '' when it has none, None when\n"
	 "no live task has that id."},
	{"set_limit", (PyCFunction)(void (*)(void))Db_set_limit, METH_VARARGS | METH_KEYWORDS,
	 "set_limit($self, key, *, concurrency=None, rate=None)\n--\n\nCreate or replace the limit of key (a task's\n"
	 "concurrency_key, or \"queue:Q\" for every task of queue Q): at most concurrency running at once,\n"
	 "at most n starts per period with rate=\"N/DUR\" (e.g. \"10/1s\") or (n, duration)."},
	{"limit", (PyCFunction)Db_limit, METH_O, "limit($self, key)\n--\n\nThe Limit of key, or None."},
	{"limits", (PyCFunction)Db_limits, METH_NOARGS,
	 "limits($self)\n--\n\nEvery limit, by key: a list of Limit (key, concurrency, rate_n, rate_period,\n"
	 "running, tokens)."},
	{"remove_limit", (PyCFunction)Db_remove_limit, METH_O,
	 "remove_limit($self, key)\n--\n\nRemove the limit of key.  False if there was none."},
	{"pause_task", (PyCFunction)(void (*)(void))Db_pause_task, METH_VARARGS | METH_KEYWORDS,
	 "pause_task($self, id, paused=True)\n--\n\nPause (or with paused=False resume) one live task: a paused\n"
	 "task, or schedule, is not claimed.  False if there is no live task id."},
	{"run_now", (PyCFunction)Db_run_now, METH_O,
	 "run_now($self, id)\n--\n\nOne extra occurrence of recurring task id, due now (its schedule is not\n"
	 "shifted); a one-off task becomes due now.  False if there is no live task id; Busy when an\n"
	 "occurrence is due or running already, a run-now is pending, or the task is paused."},
	{"edit_schedule", (PyCFunction)(void (*)(void))Db_edit_schedule, METH_VARARGS | METH_KEYWORDS,
	 "edit_schedule($self, id, *, every=None, cron=None, tz=None)\n--\n\nReplace the schedule of recurring task\n"
	 "id (every, or cron in tz).  Returns the new schedule's first occurrence (datetime), or None if\n"
	 "there is no live task id.  ValueError for a task that is not recurring."},
	{"schedule", (PyCFunction)Db_schedule, METH_O,
	 "schedule($self, id)\n--\n\nThe Schedule of recurring task id, or None."},
	{"schedules", (PyCFunction)(void (*)(void))Db_schedules, METH_VARARGS | METH_KEYWORDS,
	 "schedules($self, *, alerted=False)\n--\n\nEvery recurring task's Schedule, by id; with alerted=True only\n"
	 "those with an alert_after (check .overdue)."},
	{NULL}};

static PyGetSetDef Db_getset[] = {
	{"closed", (getter)Db_get_closed, NULL, "True once closed.", NULL},
	{"backend", (getter)Db_get_backend, NULL, "'sqlite', 'postgres' or 'mysql'.", NULL},
	{"dsn", (getter)Db_get_dsn, NULL, "The DSN with its password replaced by ***.", NULL},
	{NULL}};

PyTypeObject DbType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "leaseq.Db",
	.tp_basicsize = sizeof(DbObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Db(dsn=None)\n--\n\n"
		  "One connection to a leaseq database (leaseq.connect() makes one).\n\n"
		  "dsn: 'sqlite:PATH', 'postgresql://...', 'mysql://user:pass@host/db'; None: $LEASEQ_DSN,\n"
		  "else 'sqlite:leaseq.db'.  A context manager: leaving the block closes it.\n\n"
		  "Threads: a Db is used by one thread at a time (use one Db per thread); a call from a\n"
		  "second thread while one is inside a call raises RuntimeError.  Every call that may\n"
		  "touch the database releases the GIL, so threads with their own Db run in parallel.",
	.tp_new = Db_new,
	.tp_init = (initproc)Db_init,
	.tp_dealloc = (destructor)Db_dealloc,
	.tp_repr = (reprfunc)Db_repr,
	.tp_methods = Db_methods,
	.tp_getset = Db_getset,
	.tp_weaklistoffset = offsetof(DbObject, weakrefs),
};

PyObject *mod_redact(PyObject *m, PyObject *arg)
{
	const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
	char buf[1024];
	if (!s) {
		PyErr_SetString(PyExc_TypeError, "redact_dsn(dsn: str)");
		return NULL;
	}
	lq_dsn_redact(s, buf, sizeof(buf));
	return PyUnicode_FromString(buf);
}
