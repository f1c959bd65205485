/*
 * _leaseq.c - the C half of the leaseq Python module: thin Python objects
 * over lib/leaseq.h (a Db is one lq_db, a Lease one lq_lease, a Task one
 * lq_task).  Every call that may touch the database runs with the GIL
 * released and under the handle's own mutex; the Python half (leaseq/)
 * holds the exception classes, the worker loop and the cursor enqueue.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <pythread.h>
#include <structseq.h>

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <leaseq.h>

/* --------------------------------------------------------------- globals */

/* Exception classes by lq_status, handed over by leaseq/__init__.py
 * (_leaseq._init) so that the hierarchy is written once, in Python. */
#define NSTATUS (LQ_ECANCELED + 1)
static PyObject *g_err[NSTATUS];
static PyObject *g_error;           /* leaseq.Error */
static PyObject *g_epoch;           /* datetime(1970, 1, 1, tzinfo=utc) */
static PyObject *g_format_exc_only; /* traceback.format_exception_only */
static PyTypeObject *RunType, *QueueType, *ReportType;

static PyTypeObject DbType, LeaseType, TaskType, JobType, RunnerType;

/* ------------------------------------------------------------ conversion */

static PyObject *ms_to_datetime(int64_t ms)
{
	if (ms <= 0)
		Py_RETURN_NONE;
	int64_t days = ms / 86400000, rest = ms % 86400000;
	PyObject *d = PyDelta_FromDSU((int)days, (int)(rest / 1000), (int)(rest % 1000) * 1000);
	if (!d)
		return NULL;
	PyObject *r = PyNumber_Add(g_epoch, d);
	Py_DECREF(d);
	return r;
}

static PyObject *ms_to_seconds(int64_t ms)
{
	if (ms <= 0)
		Py_RETURN_NONE;
	return PyFloat_FromDouble((double)ms / 1000.0);
}

/* A duration: a number of seconds (int or float), a leaseq duration string
 * ("250ms", "30s") or a datetime.timedelta.  Negative is refused. */
static int duration_ms(PyObject *o, const char *what, int64_t *ms)
{
	if (PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s: a duration is a number of seconds, a string such as \"30s\" or a "
					      "timedelta, not bool", what);
		return -1;
	}
	if (PyLong_Check(o)) {
		int overflow = 0;
		long long s = PyLong_AsLongLongAndOverflow(o, &overflow);
		if (s == -1 && PyErr_Occurred())
			return -1;
		if (overflow || s > INT64_MAX / 1000 || s < 0) {
			PyErr_Format(PyExc_ValueError, "%s: %R seconds is out of range", what, o);
			return -1;
		}
		*ms = s * 1000;
		return 0;
	}
	if (PyFloat_Check(o)) {
		double s = PyFloat_AsDouble(o);
		if (!isfinite(s) || s < 0 || s > 9.2e15) {
			PyErr_Format(PyExc_ValueError, "%s: %R seconds is out of range", what, o);
			return -1;
		}
		*ms = (int64_t)llround(s * 1000.0);
		return 0;
	}
	if (PyUnicode_Check(o)) {
		const char *t = PyUnicode_AsUTF8(o);
		char msg[256];
		if (!t)
			return -1;
		if (lq_parse_duration(t, ms, msg, sizeof(msg)) != LQ_OK) {
			PyErr_Format(PyExc_ValueError, "%s: %s", what, msg);
			return -1;
		}
		return 0;
	}
	if (PyDelta_Check(o)) {
		int64_t d = PyDateTime_DELTA_GET_DAYS(o), s = PyDateTime_DELTA_GET_SECONDS(o),
			us = PyDateTime_DELTA_GET_MICROSECONDS(o);
		if (d < 0) {
			PyErr_Format(PyExc_ValueError, "%s: a negative timedelta", what);
			return -1;
		}
		*ms = d * 86400000 + s * 1000 + us / 1000;
		return 0;
	}
	PyErr_Format(PyExc_TypeError, "%s: a duration is a number of seconds, a string such as \"30s\" or a "
				      "timedelta, not %.100s", what, Py_TYPE(o)->tp_name);
	return -1;
}

/* An absolute time: a datetime (aware, or naive = UTC) or epoch seconds. */
static int time_ms(PyObject *o, const char *what, int64_t *ms)
{
	double s;
	if (PyDateTime_Check(o)) {
		PyObject *aware, *ts;
		PyObject *tz = PyObject_GetAttrString(o, "tzinfo");
		if (!tz)
			return -1;
		if (tz == Py_None) {
			PyObject *kw = Py_BuildValue("{sO}", "tzinfo", PyDateTime_TimeZone_UTC);
			PyObject *meth = PyObject_GetAttrString(o, "replace");
			PyObject *args = PyTuple_New(0);
			aware = (kw && meth && args) ? PyObject_Call(meth, args, kw) : NULL;
			Py_XDECREF(kw);
			Py_XDECREF(meth);
			Py_XDECREF(args);
		} else {
			aware = Py_NewRef(o);
		}
		Py_DECREF(tz);
		if (!aware)
			return -1;
		ts = PyObject_CallMethod(aware, "timestamp", NULL);
		Py_DECREF(aware);
		if (!ts)
			return -1;
		s = PyFloat_AsDouble(ts);
		Py_DECREF(ts);
	} else if ((PyLong_Check(o) || PyFloat_Check(o)) && !PyBool_Check(o)) {
		s = PyFloat_AsDouble(o);
		if (s == -1.0 && PyErr_Occurred())
			return -1;
	} else {
		PyErr_Format(PyExc_TypeError, "%s: a datetime or epoch seconds, not %.100s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	if (!isfinite(s) || s <= 0 || s > 9.2e12) {
		PyErr_Format(PyExc_ValueError, "%s: %R is out of range", what, o);
		return -1;
	}
	*ms = (int64_t)llround(s * 1000.0);
	return 0;
}

/* A name (lease, task, queue, unique key), checked as the library would. */
static const char *name_arg(PyObject *o, const char *what)
{
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what, Py_TYPE(o)->tp_name);
		return NULL;
	}
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(o, &len);
	char msg[256];
	if (!s)
		return NULL;
	if (strlen(s) != (size_t)len) {
		PyErr_Format(PyExc_ValueError, "%s contains a NUL character", what);
		return NULL;
	}
	if (lq_check_name(what, s, msg, sizeof(msg)) != LQ_OK) {
		PyErr_SetString(PyExc_ValueError, msg);
		return NULL;
	}
	return s;
}

static const char *opt_name_arg(PyObject *o, const char *what)
{
	return o == Py_None ? NULL : name_arg(o, what);
}

static int int_arg(PyObject *o, const char *what, long lo, long hi, int *out)
{
	if (!PyLong_Check(o) || PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be int, not %.100s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	long v = PyLong_AsLong(o);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (v < lo || v > hi) {
		PyErr_Format(PyExc_ValueError, "%s must be between %ld and %ld, not %ld", what, lo, hi, v);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* ------------------------------------------------------------ exceptions */

static PyObject *status_class(lq_status st)
{
	if ((int)st >= 0 && (int)st < NSTATUS && g_err[st])
		return g_err[st];
	return g_error ? g_error : PyExc_RuntimeError;
}

/* Raise the exception of st with msg (the library's sentence). */
static PyObject *raise_msg(lq_status st, const char *msg, PyObject *holder)
{
	if (!msg || !*msg)
		msg = lq_status_str(st);
	/* One argument, so that the OSError subclasses keep it as the message;
	 * status and holder are attributes. */
	PyObject *exc = PyObject_CallFunction(status_class(st), "s", msg);
	PyObject *code = PyLong_FromLong((long)st);
	if (exc && code && PyObject_SetAttrString(exc, "status", code) == 0 &&
	    (!holder || PyObject_SetAttrString(exc, "holder", holder) == 0))
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
	Py_XDECREF(exc);
	Py_XDECREF(code);
	return NULL;
}

/* ------------------------------------------------------------------- Db */

typedef struct {
	PyObject_HEAD
	lq_db *db;
	PyThread_type_lock mu; /* held around every C call on db */
	unsigned long owner;   /* the thread using the Db (read and set with the GIL) */
	int depth;
	int runners;           /* lq_runners borrowing db: it must outlive them */
	char *dsn;             /* as given (NULL: the default); never shown */
	char shown[512];       /* the redacted DSN */
	PyObject *weakrefs;
} DbObject;

/* One Db is used by one thread at a time: a second thread is refused
 * (checked under the GIL, so no lock is needed for owner/depth).  The same
 * thread may re-enter (a worker's handler using the worker's Db). */
static int db_enter(DbObject *self)
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

static void db_leave(DbObject *self)
{
	if (--self->depth <= 0) {
		self->depth = 0;
		self->owner = 0;
	}
}

#define DB_CALL(self, st, expr)                                        \
	do {                                                           \
		Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock((self)->mu, WAIT_LOCK); \
		(st) = (expr);                                         \
		PyThread_release_lock((self)->mu);                     \
		Py_END_ALLOW_THREADS                                   \
	} while (0)

/* Enter self, run expr with the GIL released, leave; returns NULL from the
 * calling function when the Db cannot be entered. */
#define DB_RUN(self, st, expr)                 \
	do {                                   \
		if (db_enter(self) < 0)        \
			return NULL;           \
		DB_CALL(self, st, expr);       \
		db_leave(self);                \
	} while (0)

static PyObject *db_raise(DbObject *self, lq_status st)
{
	return raise_msg(st, lq_errmsg(self->db), NULL);
}

/* None for LQ_OK, else the status's exception. */
static PyObject *db_none(DbObject *self, lq_status st)
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

/* ---------------------------------------------------------------- Lease */

typedef struct {
	PyObject_HEAD
	DbObject *db;
	lq_lease l;
	int64_t ttl_ms; /* what it was taken with; 0 when decoded */
	int released;
} LeaseObject;

static const char *kind_name(int kind)
{
	return kind == LQ_LEASE_SLOT ? "slot" : kind == LQ_LEASE_READ ? "read" : "exclusive";
}

static PyObject *lease_dict(const lq_lease *l)
{
	PyObject *exp = ms_to_datetime(l->expires_at);
	if (!exp)
		return NULL;
	PyObject *d = Py_BuildValue("{sssssLsNsssisL}", "name", l->name, "owner", l->owner, "token",
				    (long long)l->token, "expires_at", exp, "kind", kind_name(l->kind), "slots",
				    l->slots, "slot", (long long)l->slot);
	return d;
}

static PyObject *lease_new(DbObject *db, const lq_lease *l, int64_t ttl_ms)
{
	LeaseObject *o = PyObject_GC_New(LeaseObject, &LeaseType);
	if (!o)
		return NULL;
	o->db = (DbObject *)Py_NewRef(db);
	o->l = *l;
	o->ttl_ms = ttl_ms;
	o->released = 0;
	PyObject_GC_Track(o);
	return (PyObject *)o;
}

/* db.lease() and db.try_lease(): try = 1 answers None when busy. */
static PyObject *db_take(DbObject *self, PyObject *args, PyObject *kw, int try)
{
	static char *kwlist[] = {"name", "ttl", "wait", "slots", "read", "owner", NULL};
	static char *trylist[] = {"name", "ttl", "slots", "read", "owner", NULL};
	PyObject *nameo, *ttlo, *waito = Py_None, *slotso = Py_None, *ownero = Py_None;
	int read = 0;
	int ok = try ? PyArg_ParseTupleAndKeywords(args, kw, "OO|$OpO:try_lease", trylist, &nameo, &ttlo, &slotso,
						   &read, &ownero)
		     : PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OpO:lease", kwlist, &nameo, &ttlo, &waito, &slotso,
						   &read, &ownero);
	if (!ok)
		return NULL;
	lq_lease_opts o = LQ_LEASE_OPTS_INIT;
	int64_t ttl = 0;
	const char *name = name_arg(nameo, "lease name");
	if (!name || duration_ms(ttlo, "ttl", &ttl) < 0)
		return NULL;
	if (ttl <= 0) {
		PyErr_SetString(PyExc_ValueError, "ttl must be positive");
		return NULL;
	}
	if (waito != Py_None && duration_ms(waito, "wait", &o.wait_ms) < 0)
		return NULL;
	if (slotso != Py_None) {
		if (int_arg(slotso, "slots", 1, LQ_SLOTS_MAX, &o.slots) < 0)
			return NULL;
		o.kind = LQ_LEASE_SLOT;
	}
	if (read) {
		if (o.kind == LQ_LEASE_SLOT) {
			PyErr_SetString(PyExc_ValueError, "a lease is either slots=N or read=True, not both");
			return NULL;
		}
		o.kind = LQ_LEASE_READ;
	}
	if (ownero != Py_None && !(o.owner = name_arg(ownero, "owner")))
		return NULL;
	lq_lease l;
	lq_status st;
	memset(&l, 0, sizeof(l));
	DB_RUN(self, st, lq_lease_take(self->db, name, ttl, &o, &l));
	if (st == LQ_OK)
		return lease_new(self, &l, ttl);
	if (st == LQ_BUSY && try)
		Py_RETURN_NONE;
	if (st == LQ_BUSY) {
		PyObject *holder = lease_dict(&l);
		if (!holder)
			return NULL;
		raise_msg(st, lq_errmsg(self->db), holder);
		Py_DECREF(holder);
		return NULL;
	}
	return db_raise(self, st);
}

static PyObject *Db_lease(DbObject *self, PyObject *args, PyObject *kw)
{
	return db_take(self, args, kw, 0);
}

static PyObject *Db_try_lease(DbObject *self, PyObject *args, PyObject *kw)
{
	return db_take(self, args, kw, 1);
}

static PyObject *Db_lease_from(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"handle", "ttl", NULL};
	const char *text;
	PyObject *ttlo = Py_None;
	int64_t ttl = 0;
	char msg[256];
	lq_lease l;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O:lease_from", kwlist, &text, &ttlo))
		return NULL;
	if (ttlo != Py_None && duration_ms(ttlo, "ttl", &ttl) < 0)
		return NULL;
	if (!self->db) {
		PyErr_SetString(PyExc_ValueError, "leaseq.Db: the connection is closed");
		return NULL;
	}
	if (lq_lease_decode(text, &l, msg, sizeof(msg)) != LQ_OK) {
		PyErr_Format(PyExc_ValueError, "not a lease handle: %s", msg);
		return NULL;
	}
	return lease_new(self, &l, ttl);
}

static PyObject *Db_lease_info(DbObject *self, PyObject *arg)
{
	const char *name = name_arg(arg, "lease name");
	lq_lease l;
	lq_status st;
	if (!name)
		return NULL;
	DB_RUN(self, st, lq_lease_get(self->db, name, &l));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return lease_dict(&l);
}

static PyObject *Db_break_lease(DbObject *self, PyObject *arg)
{
	const char *name = name_arg(arg, "lease name");
	lq_status st;
	if (!name)
		return NULL;
	DB_RUN(self, st, lq_lease_break(self->db, name, NULL));
	if (st == LQ_NOTFOUND)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return db_raise(self, st);
	Py_RETURN_TRUE;
}

static int lease_usable(LeaseObject *self)
{
	return db_enter(self->db);
}

static PyObject *Lease_renew(LeaseObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"ttl", NULL};
	PyObject *ttlo = Py_None;
	int64_t ttl = self->ttl_ms;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:renew", kwlist, &ttlo))
		return NULL;
	if (ttlo != Py_None && duration_ms(ttlo, "ttl", &ttl) < 0)
		return NULL;
	if (ttl <= 0) {
		PyErr_SetString(PyExc_ValueError, "renew: give a positive ttl (a lease taken over from a handle has "
						  "none of its own)");
		return NULL;
	}
	if (lease_usable(self) < 0)
		return NULL;
	DB_CALL(self->db, st, lq_lease_renew(self->db->db, &self->l, ttl));
	db_leave(self->db);
	if (st != LQ_OK)
		return db_raise(self->db, st);
	if (ttlo != Py_None)
		self->ttl_ms = ttl;
	Py_RETURN_NONE;
}

static PyObject *Lease_release(LeaseObject *self, PyObject *unused)
{
	lq_status st;
	if (self->released)
		Py_RETURN_FALSE;
	if (lease_usable(self) < 0)
		return NULL;
	DB_CALL(self->db, st, lq_lease_release(self->db->db, &self->l));
	db_leave(self->db);
	self->released = 1;
	if (st == LQ_LOST)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return db_raise(self->db, st);
	Py_RETURN_TRUE;
}

static PyObject *Lease_is_held(LeaseObject *self, PyObject *unused)
{
	lq_status st;
	if (lease_usable(self) < 0)
		return NULL;
	DB_CALL(self->db, st, lq_lease_check(self->db->db, &self->l));
	db_leave(self->db);
	if (st == LQ_LOST)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return db_raise(self->db, st);
	Py_RETURN_TRUE;
}

static PyObject *lease_change(LeaseObject *self, lq_status (*fn)(lq_db *, lq_lease *))
{
	lq_status st;
	if (lease_usable(self) < 0)
		return NULL;
	DB_CALL(self->db, st, fn(self->db->db, &self->l));
	db_leave(self->db);
	if (st != LQ_OK)
		return db_raise(self->db, st);
	Py_RETURN_NONE;
}

static PyObject *Lease_promote(LeaseObject *self, PyObject *unused)
{
	return lease_change(self, lq_lease_promote);
}

static PyObject *Lease_demote(LeaseObject *self, PyObject *unused)
{
	return lease_change(self, lq_lease_demote);
}

static PyObject *Lease_encode(LeaseObject *self, PyObject *unused)
{
	char buf[LQ_HANDLE_MAX];
	if (lq_lease_encode(&self->l, buf, sizeof(buf)) != LQ_OK)
		return raise_msg(LQ_EINVAL, "the lease cannot be encoded", NULL);
	return PyUnicode_FromString(buf);
}

static PyObject *Lease_enter(LeaseObject *self, PyObject *unused)
{
	return Py_NewRef(self);
}

/* Release on leaving the block (or when the object dies) only while this
 * process still holds it: a lost lease is not ours to free, and a lease
 * taken over from a handle (lease_from) is released only explicitly. */
static lq_status lease_release_if_held(LeaseObject *self)
{
	if (self->released || !self->db || !self->db->db || !lq_lease_held(&self->l))
		return LQ_OK;
	if (self->db->depth > 0 && self->db->owner != PyThread_get_thread_ident())
		return LQ_OK;
	lq_status st;
	self->db->depth++;
	self->db->owner = PyThread_get_thread_ident();
	DB_CALL(self->db, st, lq_lease_release(self->db->db, &self->l));
	db_leave(self->db);
	self->released = 1;
	return st == LQ_LOST ? LQ_OK : st;
}

/* A failed release is raised only when no exception is on its way out. */
static PyObject *Lease_exit(LeaseObject *self, PyObject *args)
{
	PyObject *type = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : Py_None;
	lq_status st = lease_release_if_held(self);
	if (st != LQ_OK && type == Py_None)
		return db_raise(self->db, st);
	Py_RETURN_FALSE;
}

static void Lease_finalize(LeaseObject *self)
{
	PyObject *t, *v, *tb;
	PyErr_Fetch(&t, &v, &tb);
	lease_release_if_held(self);
	PyErr_Restore(t, v, tb);
}

static int Lease_traverse(LeaseObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->db);
	return 0;
}

static int Lease_clear(LeaseObject *self)
{
	Py_CLEAR(self->db);
	return 0;
}

static void Lease_dealloc(LeaseObject *self)
{
	if (PyObject_CallFinalizerFromDealloc((PyObject *)self) < 0)
		return;
	PyObject_GC_UnTrack(self);
	Lease_clear(self);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Lease_repr(LeaseObject *self)
{
	PyObject *name = PyUnicode_FromString(self->l.name), *owner = PyUnicode_FromString(self->l.owner);
	PyObject *r = name && owner ? PyUnicode_FromFormat("<leaseq.Lease name=%R token=%lld kind=%s owner=%R>", name,
							  (long long)self->l.token, kind_name(self->l.kind), owner)
				    : NULL;
	Py_XDECREF(name);
	Py_XDECREF(owner);
	return r;
}

static PyObject *Lease_get(LeaseObject *self, void *which)
{
	switch ((intptr_t)which) {
	case 0: return PyUnicode_FromString(self->l.name);
	case 1: return PyUnicode_FromString(self->l.owner);
	case 2: return PyLong_FromLongLong(self->l.token);
	case 3: return PyUnicode_FromString(kind_name(self->l.kind));
	case 4: return PyLong_FromLong(self->l.slots);
	case 5: return PyLong_FromLongLong(self->l.slot);
	case 6: return ms_to_datetime(self->l.expires_at);
	case 7: return ms_to_seconds(self->ttl_ms);
	case 8: return PyBool_FromLong(!self->released && lq_lease_held(&self->l));
	case 9: return (PyObject *)Py_NewRef(self->db);
	}
	Py_RETURN_NONE;
}

/* One read-only attribute: its name, its doc, its case in Lease_get. */
#define LEASE_ATTR(name, doc, which) {name, (getter)Lease_get, NULL, doc, (void *)(which)}
static PyGetSetDef Lease_getset[] = {
	LEASE_ATTR("name", "The lease's name.", 0),
	LEASE_ATTR("owner", "The owner written in the database (host:pid plus a random part).", 1),
	LEASE_ATTR("token", "The fencing token: strictly increasing per name on every acquisition.", 2),
	LEASE_ATTR("kind", "'exclusive', 'slot' (one of a semaphore's slots) or 'read'.", 3),
	LEASE_ATTR("slots", "A slot's semaphore size N, else 0.", 4),
	LEASE_ATTR("slot", "A slot's number (0..N-1), a reader's slot (>= 1), else 0.", 5),
	LEASE_ATTR("expires_at",
		   "When it expires (datetime in UTC, database clock); None for a lease taken over with lease_from().", 6),
	LEASE_ATTR("ttl", "The TTL in seconds that renew() uses by default (None after lease_from()).", 7),
	LEASE_ATTR("held",
		   "True while this object believes it holds the lease (no database call; is_held() asks the database).", 8),
	LEASE_ATTR("db", "The Db the lease was taken on.", 9),
	{NULL}};

static PyMethodDef Lease_methods[] = {
	{"renew", (PyCFunction)(void (*)(void))Lease_renew, METH_VARARGS | METH_KEYWORDS,
	 "renew($self, ttl=None)\n--\n\nExtend the lease to now + ttl (default: the TTL it was taken with).\n"
	 "Raises LeaseLost when it expired and was taken or broken: stop acting."},
	{"release", (PyCFunction)Lease_release, METH_NOARGS,
	 "release($self)\n--\n\nHand the lease back.  True; False when it was no longer ours (someone else holds\n"
	 "it now, or this object released it already): nothing changed."},
	{"is_held", (PyCFunction)Lease_is_held, METH_NOARGS,
	 "is_held($self)\n--\n\nAsk the database whether this is still the valid holder."},
	{"promote", (PyCFunction)Lease_promote, METH_NOARGS,
	 "promote($self)\n--\n\nRead lease -> exclusive, atomically (higher token).  Busy while other readers hold it."},
	{"demote", (PyCFunction)Lease_demote, METH_NOARGS,
	 "demote($self)\n--\n\nExclusive lease -> read lease, atomically (higher token); readers may join."},
	{"encode", (PyCFunction)Lease_encode, METH_NOARGS,
	 "encode($self)\n--\n\nThe lease as one shell-safe word; another process takes it over with "
	 "Db.lease_from(word)."},
	{"__enter__", (PyCFunction)Lease_enter, METH_NOARGS, NULL},
	{"__exit__", (PyCFunction)Lease_exit, METH_VARARGS, NULL},
	{NULL}};

static PyTypeObject LeaseType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "leaseq.Lease",
	.tp_basicsize = sizeof(LeaseObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.tp_doc = "A held lease (Db.lease / Db.try_lease / Db.lease_from).\n\n"
		  "A context manager: leaving the block releases it if this process still holds it.\n"
		  "The object dying does the same; neither ever raises for a lost lease.",
	.tp_dealloc = (destructor)Lease_dealloc,
	.tp_finalize = (destructor)Lease_finalize,
	.tp_traverse = (traverseproc)Lease_traverse,
	.tp_clear = (inquiry)Lease_clear,
	.tp_repr = (reprfunc)Lease_repr,
	.tp_methods = Lease_methods,
	.tp_getset = Lease_getset,
};

/* ----------------------------------------------------------------- Task */

typedef struct {
	PyObject_HEAD
	lq_task t;
} TaskObject;

static int task_copy(lq_task *dst, const lq_task *src)
{
	*dst = *src;
	dst->payload = NULL;
	dst->last_error = NULL;
	if (src->payload) {
		dst->payload = malloc(src->payload_len + 1);
		if (!dst->payload)
			return -1;
		memcpy(dst->payload, src->payload, src->payload_len);
		dst->payload[src->payload_len] = 0;
	}
	if (src->last_error && !(dst->last_error = strdup(src->last_error))) {
		free(dst->payload);
		dst->payload = NULL;
		return -1;
	}
	return 0;
}

/* A Task that owns t's heap memory from now on (t is zeroed). */
static PyObject *task_take(lq_task *t)
{
	TaskObject *o = PyObject_New(TaskObject, &TaskType);
	if (!o) {
		lq_task_clear(t);
		return NULL;
	}
	o->t = *t;
	memset(t, 0, sizeof(*t));
	return (PyObject *)o;
}

static PyObject *task_from_copy(const lq_task *t)
{
	lq_task c;
	if (task_copy(&c, t) < 0)
		return PyErr_NoMemory();
	return task_take(&c);
}

static void Task_dealloc(TaskObject *self)
{
	lq_task_clear(&self->t);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *str_or_none(const char *s)
{
	if (!s || !*s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, strlen(s), "replace");
}

static PyObject *Task_get(TaskObject *self, void *which)
{
	const lq_task *t = &self->t;
	switch ((intptr_t)which) {
	case 0: return PyLong_FromLongLong(t->id);
	case 1: return PyUnicode_FromString(t->name);
	case 2: return PyUnicode_FromString(t->queue);
	case 3:
		if (!t->payload)
			Py_RETURN_NONE;
		return PyBytes_FromStringAndSize((const char *)t->payload, (Py_ssize_t)t->payload_len);
	case 4:
		if (!t->payload)
			Py_RETURN_NONE;
		return PyUnicode_DecodeUTF8((const char *)t->payload, (Py_ssize_t)t->payload_len, "strict");
	case 5: return PyLong_FromLong(t->attempts);
	case 6: return PyLong_FromLong(t->max_attempts);
	case 7: return PyLong_FromLong(t->priority);
	case 8: return ms_to_datetime(t->run_at);
	case 9: return str_or_none(t->unique_key);
	case 10: return str_or_none(t->last_error);
	case 11: return PyBool_FromLong(t->mode == LQ_AT_LEAST_ONCE);
	case 12: return PyBool_FromLong(t->recurring || t->every_ms > 0 || t->cron[0]);
	case 13: return ms_to_seconds(t->timeout_ms);
	case 14: return ms_to_datetime(t->created_at);
	case 15: return PyBool_FromLong(t->dead);
	case 16: return ms_to_seconds(t->every_ms);
	case 17: return str_or_none(t->cron);
	case 18: return str_or_none(t->tz);
	case 19: return PyBool_FromLong(t->paused);
	case 20: return ms_to_datetime(t->next_run_at);
	case 21: return str_or_none(t->claim_owner);
	}
	Py_RETURN_NONE;
}

/* One read-only attribute: its name, its doc, its case in Task_get. */
#define TASK_ATTR(name, doc, which) {name, (getter)Task_get, NULL, doc, (void *)(which)}
static PyGetSetDef Task_getset[] = {
	TASK_ATTR("id", "The task id (int).", 0),
	TASK_ATTR("name", "The task name (what selects the handler).", 1),
	TASK_ATTR("queue", "The queue.", 2),
	TASK_ATTR("payload", "The payload as bytes, or None (Db.list() does not load payloads).", 3),
	TASK_ATTR("text", "The payload decoded as UTF-8 (str), or None.", 4),
	TASK_ATTR("attempts", "Attempts so far (a claimed at-least-once task: this one included).", 5),
	TASK_ATTR("max_attempts", "Attempts allowed before the task is dead.", 6),
	TASK_ATTR("priority", "Higher is claimed first.", 7),
	TASK_ATTR("run_at", "Due time of this occurrence (datetime, UTC).", 8),
	TASK_ATTR("unique_key", "The unique key, or None.", 9),
	TASK_ATTR("last_error", "The error of the last failed attempt, or None.", 10),
	TASK_ATTR("at_least_once", "True when claimed at-least-once (ack/fail settle it).", 11),
	TASK_ATTR("recurring", "True for a task on a schedule (every / cron).", 12),
	TASK_ATTR("timeout", "Its own time limit in seconds, or None (the worker's).", 13),
	TASK_ATTR("created_at", "When it was added (datetime, UTC), if read back.", 14),
	TASK_ATTR("dead", "True for a dead task (out of attempts).", 15),
	TASK_ATTR("every", "The interval in seconds of an interval task, else None.", 16),
	TASK_ATTR("cron", "The cron expression, or None.", 17),
	TASK_ATTR("tz", "The cron time zone, or None (UTC).", 18),
	TASK_ATTR("paused", "True when paused.", 19),
	TASK_ATTR("next_run_at", "A claimed recurring task: the next occurrence, else None.", 20),
	TASK_ATTR("claim_owner", "Who holds its claim, or None.", 21),
	{NULL}};

static PyObject *Task_repr(TaskObject *self)
{
	PyObject *name = PyUnicode_FromString(self->t.name), *queue = PyUnicode_FromString(self->t.queue);
	PyObject *r = name && queue ? PyUnicode_FromFormat("<leaseq.Task id=%lld name=%R queue=%R attempts=%d/%d>",
							  (long long)self->t.id, name, queue, self->t.attempts,
							  self->t.max_attempts)
				    : NULL;
	Py_XDECREF(name);
	Py_XDECREF(queue);
	return r;
}

static PyTypeObject TaskType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "leaseq.Task",
	.tp_basicsize = sizeof(TaskObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A task as read or claimed (read-only attributes).  Settle a claimed one with\n"
		  "Db.ack / Db.fail / Db.release.",
	.tp_dealloc = (destructor)Task_dealloc,
	.tp_repr = (reprfunc)Task_repr,
	.tp_getset = Task_getset,
};

static int task_arg(PyObject *o, lq_task **t)
{
	if (!PyObject_TypeCheck(o, &TaskType)) {
		PyErr_Format(PyExc_TypeError, "expected a leaseq.Task, not %.100s", Py_TYPE(o)->tp_name);
		return 0;
	}
	*t = &((TaskObject *)o)->t;
	return 1;
}

/* ---------------------------------------------------------- task options */

/* What one task to add needs, kept alive until the call returns. */
typedef struct {
	const char *name;
	lq_task_opts o;
	PyObject *keep; /* a list of the objects whose buffers o points into */
} addspec;

static const char *const add_keys[] = {"queue", "delay", "run_at", "unique", "priority", "timeout",
				       "max_attempts", "every", "cron", "tz", "missed", NULL};

static int spec_keep(addspec *s, PyObject *o)
{
	if (!s->keep && !(s->keep = PyList_New(0)))
		return -1;
	return PyList_Append(s->keep, o);
}

/* Fill s from name, payload and the options dict kw (may be NULL); where
 * names the caller in messages. */
static int spec_fill(addspec *s, PyObject *nameo, PyObject *payload, PyObject *kw, const char *where)
{
	lq_task_opts init = LQ_TASK_OPTS_INIT;
	s->o = init;
	if (!(s->name = name_arg(nameo, "task name")) || spec_keep(s, nameo) < 0)
		return -1;
	if (payload && payload != Py_None) {
		PyObject *b;
		if (PyUnicode_Check(payload))
			b = PyUnicode_AsUTF8String(payload);
		else if (PyBytes_Check(payload))
			b = Py_NewRef(payload);
		else if (PyByteArray_Check(payload) || PyMemoryView_Check(payload))
			b = PyBytes_FromObject(payload);
		else {
			PyErr_Format(PyExc_TypeError, "%s: payload must be str, bytes or None, not %.100s", where,
				     Py_TYPE(payload)->tp_name);
			return -1;
		}
		if (!b)
			return -1;
		if (spec_keep(s, b) < 0) {
			Py_DECREF(b);
			return -1;
		}
		Py_DECREF(b);
		if (PyBytes_GET_SIZE(b) > LQ_PAYLOAD_MAX) {
			PyErr_Format(PyExc_ValueError, "%s: payload of %zd bytes is over the %d byte limit", where,
				     PyBytes_GET_SIZE(b), LQ_PAYLOAD_MAX);
			return -1;
		}
		s->o.payload = PyBytes_AS_STRING(b);
		s->o.payload_len = (size_t)PyBytes_GET_SIZE(b);
	}
	if (!kw)
		return 0;
	PyObject *k, *v;
	Py_ssize_t pos = 0;
	while (PyDict_Next(kw, &pos, &k, &v)) {
		const char *key = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
		int i;
		if (!key) {
			PyErr_Format(PyExc_TypeError, "%s: option names are str", where);
			return -1;
		}
		for (i = 0; add_keys[i] && strcmp(add_keys[i], key); i++)
			;
		if (!add_keys[i]) {
			PyErr_Format(PyExc_TypeError, "%s got an unexpected option '%s'", where, key);
			return -1;
		}
		if (v == Py_None)
			continue;
		int bad = 0;
		switch (i) {
		case 0: bad = !(s->o.queue = name_arg(v, "queue")); break;
		case 1: bad = duration_ms(v, "delay", &s->o.delay_ms) < 0; break;
		case 2: bad = time_ms(v, "run_at", &s->o.run_at) < 0; break;
		case 3: bad = !(s->o.unique_key = name_arg(v, "unique key")); break;
		case 4: bad = int_arg(v, "priority", -2147483647L, 2147483647L, &s->o.priority) < 0; break;
		case 5:
			bad = duration_ms(v, "timeout", &s->o.timeout_ms) < 0;
			if (!bad && s->o.timeout_ms <= 0) {
				PyErr_SetString(PyExc_ValueError, "timeout must be positive");
				bad = 1;
			}
			break;
		case 6: bad = int_arg(v, "max_attempts", 1, LQ_MAX_ATTEMPTS_MAX, &s->o.max_attempts) < 0; break;
		case 7:
			bad = duration_ms(v, "every", &s->o.every_ms) < 0;
			if (!bad && (s->o.every_ms < LQ_EVERY_MIN_MS || s->o.every_ms > LQ_EVERY_MAX_MS)) {
				PyErr_Format(PyExc_ValueError, "every must be between %d ms and ten years", LQ_EVERY_MIN_MS);
				bad = 1;
			}
			break;
		case 8:
			if (!PyUnicode_Check(v)) {
				PyErr_SetString(PyExc_TypeError, "cron must be str");
				bad = 1;
			} else {
				bad = !(s->o.cron = PyUnicode_AsUTF8(v));
			}
			break;
		case 9:
			if (!PyUnicode_Check(v)) {
				PyErr_SetString(PyExc_TypeError, "tz must be str");
				bad = 1;
			} else {
				bad = !(s->o.tz = PyUnicode_AsUTF8(v));
			}
			break;
		case 10: {
			const char *m = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
			if (m && !strcmp(m, "once"))
				s->o.missed = LQ_MISSED_ONCE;
			else if (m && !strcmp(m, "skip"))
				s->o.missed = LQ_MISSED_SKIP;
			else {
				PyErr_SetString(PyExc_ValueError, "missed must be 'once' or 'skip'");
				bad = 1;
			}
			break;
		}
		}
		if (bad || spec_keep(s, v) < 0)
			return -1;
	}
	if (s->o.every_ms && s->o.cron) {
		PyErr_Format(PyExc_ValueError, "%s: every and cron exclude each other", where);
		return -1;
	}
	if (s->o.cron || s->o.tz) {
		char msg[256];
		if (s->o.tz && !s->o.cron) {
			PyErr_Format(PyExc_ValueError, "%s: tz is for cron schedules", where);
			return -1;
		}
		if (lq_check_schedule(s->o.cron, s->o.tz, msg, sizeof(msg)) != LQ_OK) {
			PyErr_Format(PyExc_ValueError, "%s: %s", where, msg);
			return -1;
		}
	}
	return 0;
}

/* One item of add_many / enqueue_many: a dict {"name": ..., "payload": ...,
 * options...}, a str (the name), or a tuple (name[, payload[, options]]). */
static int spec_item(addspec *s, PyObject *item)
{
	const char *where = "add_many()";
	if (PyUnicode_Check(item))
		return spec_fill(s, item, NULL, NULL, where);
	if (PyTuple_Check(item)) {
		Py_ssize_t n = PyTuple_GET_SIZE(item);
		PyObject *kw = n > 2 ? PyTuple_GET_ITEM(item, 2) : NULL;
		if (n < 1 || n > 3 || (kw && kw != Py_None && !PyDict_Check(kw))) {
			PyErr_SetString(PyExc_TypeError, "add_many(): a tuple is (name, payload, options dict)");
			return -1;
		}
		return spec_fill(s, PyTuple_GET_ITEM(item, 0), n > 1 ? PyTuple_GET_ITEM(item, 1) : NULL,
				 kw == Py_None ? NULL : kw, where);
	}
	if (PyDict_Check(item)) {
		PyObject *name = PyDict_GetItemString(item, "name");
		PyObject *payload = PyDict_GetItemString(item, "payload");
		if (!name) {
			PyErr_SetString(PyExc_ValueError, "add_many(): a task dict needs a 'name'");
			return -1;
		}
		PyObject *kw = PyDict_Copy(item);
		if (!kw)
			return -1;
		PyDict_DelItemString(kw, "name");
		if (payload)
			PyDict_DelItemString(kw, "payload");
		int r = spec_fill(s, name, payload, kw, where);
		Py_DECREF(kw);
		return r;
	}
	PyErr_Format(PyExc_TypeError, "add_many(): a task is a dict, a tuple or a name, not %.100s",
		     Py_TYPE(item)->tp_name);
	return -1;
}

static PyObject *Db_add(DbObject *self, PyObject *args, PyObject *kw)
{
	PyObject *nameo, *payload = Py_None;
	addspec s = {0};
	int64_t id = 0;
	lq_status st;
	if (!PyArg_ParseTuple(args, "O|O:add", &nameo, &payload))
		return NULL;
	if (spec_fill(&s, nameo, payload, kw, "add()") < 0 || db_enter(self) < 0) {
		Py_XDECREF(s.keep);
		return NULL;
	}
	DB_CALL(self, st, lq_task_add(self->db, s.name, &s.o, &id, NULL));
	db_leave(self);
	Py_XDECREF(s.keep);
	if (st != LQ_OK)
		return db_raise(self, st);
	return PyLong_FromLongLong(id);
}

/* The tasks of items, for lq_task_add_many.  Returns n, or -1. */
static Py_ssize_t specs_from(PyObject *items, addspec **out)
{
	PyObject *seq = PySequence_Fast(items, "add_many() takes a list of tasks");
	if (!seq)
		return -1;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	addspec *s = calloc(n ? (size_t)n : 1, sizeof(*s));
	if (!s) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		if (spec_item(&s[i], PySequence_Fast_GET_ITEM(seq, i)) < 0) {
			for (Py_ssize_t j = 0; j <= i; j++)
				Py_XDECREF(s[j].keep);
			free(s);
			Py_DECREF(seq);
			return -1;
		}
	}
	/* The items (and so the strings the specs point into) stay alive in
	 * each spec's keep list. */
	Py_DECREF(seq);
	*out = s;
	return n;
}

static void specs_free(addspec *s, Py_ssize_t n)
{
	for (Py_ssize_t i = 0; i < n; i++)
		Py_XDECREF(s[i].keep);
	free(s);
}

/* lq_task_add_many on db (entered by the caller; mu may be NULL for a
 * private borrowed handle) for items; a list of ids. */
static PyObject *add_many_on(lq_db *db, PyThread_type_lock mu, PyObject *items)
{
	addspec *s = NULL;
	Py_ssize_t n = specs_from(items, &s);
	if (n < 0)
		return NULL;
	const char **names = calloc(n ? (size_t)n : 1, sizeof(*names));
	const lq_task_opts **opts = calloc(n ? (size_t)n : 1, sizeof(*opts));
	int64_t *ids = calloc(n ? (size_t)n : 1, sizeof(*ids));
	PyObject *res = NULL;
	if (!names || !opts || !ids) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		names[i] = s[i].name;
		opts[i] = &s[i].o;
	}
	lq_status st = LQ_OK;
	if (n > 0) {
		size_t invalid = 0;
		Py_BEGIN_ALLOW_THREADS if (mu) PyThread_acquire_lock(mu, WAIT_LOCK);
		st = lq_task_add_many(db, (size_t)n, names, opts, ids, NULL, &invalid);
		if (mu)
			PyThread_release_lock(mu);
		Py_END_ALLOW_THREADS
	}
	if (st != LQ_OK) {
		raise_msg(st, lq_errmsg(db), NULL);
		goto out;
	}
	if (!(res = PyList_New(n)))
		goto out;
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *v = PyLong_FromLongLong(ids[i]);
		if (!v) {
			Py_CLEAR(res);
			goto out;
		}
		PyList_SET_ITEM(res, i, v);
	}
out:
	free(names);
	free(opts);
	free(ids);
	specs_free(s, n);
	return res;
}

static PyObject *Db_add_many(DbObject *self, PyObject *items)
{
	if (db_enter(self) < 0)
		return NULL;
	PyObject *r = add_many_on(self->db, self->mu, items);
	db_leave(self);
	return r;
}

/* Callbacks that collect rows run without the GIL (inside the C call): they
 * copy into a C array, and the Python objects are made afterwards. */
typedef struct {
	void *rows;
	size_t n, cap, size;
	int nomem;
} collect;

static void *collect_add(collect *c)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		void *r = realloc(c->rows, cap * c->size);
		if (!r) {
			c->nomem = 1;
			return NULL;
		}
		c->rows = r;
		c->cap = cap;
	}
	return (char *)c->rows + c->size * c->n++;
}

/* The list of c's rows, each made by make(row); NULL with the exception of
 * st, or of a row that could not be made.  The caller frees the rows. */
static PyObject *rows_list(DbObject *self, lq_status st, const collect *c, PyObject *(*make)(void *row))
{
	if (c->nomem)
		return PyErr_NoMemory();
	if (st != LQ_OK)
		return db_raise(self, st);
	PyObject *res = PyList_New((Py_ssize_t)c->n);
	for (size_t i = 0; res && i < c->n; i++) {
		PyObject *o = make((char *)c->rows + c->size * i);
		if (!o)
			Py_CLEAR(res);
		else
			PyList_SET_ITEM(res, (Py_ssize_t)i, o);
	}
	return res;
}

static PyObject *task_row(void *row)
{
	return task_take(row);
}

#define CLAIM_MAX 1000

static PyObject *Db_claim(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"queue", "limit", "at_least_once", "claim_ttl", NULL};
	PyObject *queueo = Py_None, *ttlo = Py_None;
	int limit = 1, alo = 1;
	int64_t ttl = 30000;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|Oi$pO:claim", kwlist, &queueo, &limit, &alo, &ttlo))
		return NULL;
	const char *queue = opt_name_arg(queueo, "queue");
	if (!queue && PyErr_Occurred())
		return NULL;
	if (limit < 1 || limit > CLAIM_MAX) {
		PyErr_Format(PyExc_ValueError, "claim(): limit must be between 1 and %d", CLAIM_MAX);
		return NULL;
	}
	if (ttlo != Py_None && duration_ms(ttlo, "claim_ttl", &ttl) < 0)
		return NULL;
	if (ttl <= 0) {
		PyErr_SetString(PyExc_ValueError, "claim_ttl must be positive");
		return NULL;
	}
	lq_task *tasks = calloc((size_t)limit, sizeof(*tasks));
	size_t got = 0;
	lq_status st;
	if (!tasks)
		return PyErr_NoMemory();
	if (db_enter(self) < 0) {
		free(tasks);
		return NULL;
	}
	DB_CALL(self, st, lq_task_claim(self->db, queue, alo ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, ttl, tasks,
					(size_t)limit, &got));
	db_leave(self);
	collect c = {.rows = tasks, .n = st == LQ_OK ? got : 0, .size = sizeof(lq_task)};
	PyObject *res = rows_list(self, st == LQ_EMPTY || st == LQ_BUSY ? LQ_OK : st, &c, task_row);
	for (size_t i = 0; i < got; i++)
		lq_task_clear(&tasks[i]);
	free(tasks);
	return res;
}

static PyObject *Db_ack(DbObject *self, PyObject *arg)
{
	lq_task *t;
	lq_status st;
	if (!task_arg(arg, &t))
		return NULL;
	DB_RUN(self, st, lq_task_ack(self->db, t));
	return db_none(self, st);
}

static PyObject *Db_release(DbObject *self, PyObject *arg)
{
	lq_task *t;
	lq_status st;
	if (!task_arg(arg, &t))
		return NULL;
	DB_RUN(self, st, lq_task_release(self->db, t));
	return db_none(self, st);
}

static PyObject *Db_fail(DbObject *self, PyObject *args)
{
	PyObject *to, *erro;
	lq_task *t;
	lq_status st;
	if (!PyArg_ParseTuple(args, "OO:fail", &to, &erro) || !task_arg(to, &t))
		return NULL;
	PyObject *s = PyUnicode_Check(erro) ? Py_NewRef(erro) : PyObject_Str(erro);
	if (!s)
		return NULL;
	const char *err = PyUnicode_AsUTF8(s);
	if (!err || db_enter(self) < 0) {
		Py_DECREF(s);
		return NULL;
	}
	DB_CALL(self, st, lq_task_fail(self->db, t, err));
	db_leave(self);
	Py_DECREF(s);
	return db_none(self, st);
}

static PyObject *Db_heartbeat(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"task", "claim_ttl", NULL};
	PyObject *to, *ttlo = Py_None;
	lq_task *t;
	int64_t ttl = 30000;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:heartbeat", kwlist, &to, &ttlo) || !task_arg(to, &t))
		return NULL;
	if (ttlo != Py_None && duration_ms(ttlo, "claim_ttl", &ttl) < 0)
		return NULL;
	if (ttl <= 0) {
		PyErr_SetString(PyExc_ValueError, "claim_ttl must be positive");
		return NULL;
	}
	if (!t->claim_owner[0] || t->mode != LQ_AT_LEAST_ONCE) {
		PyErr_SetString(PyExc_ValueError, "heartbeat(): the task is not an at-least-once claim");
		return NULL;
	}
	DB_RUN(self, st, lq_task_heartbeat(self->db, t, ttl));
	return db_none(self, st);
}

static int id_arg(PyObject *o, int64_t *id)
{
	if (!PyLong_Check(o) || PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "a task id is an int, not %.100s", Py_TYPE(o)->tp_name);
		return -1;
	}
	*id = PyLong_AsLongLong(o);
	if (*id == -1 && PyErr_Occurred())
		return -1;
	if (*id <= 0) {
		PyErr_SetString(PyExc_ValueError, "a task id is positive");
		return -1;
	}
	return 0;
}

static PyObject *Db_get(DbObject *self, PyObject *arg)
{
	int64_t id;
	lq_task t;
	lq_status st;
	memset(&t, 0, sizeof(t));
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, lq_task_get(self->db, id, &t));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK) {
		lq_task_clear(&t);
		return db_raise(self, st);
	}
	return task_take(&t);
}

/* For the id-only admin calls: rm and retry. */
static PyObject *db_by_id(DbObject *self, PyObject *arg, lq_status (*fn)(lq_db *, int64_t))
{
	int64_t id;
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, fn(self->db, id));
	if (st == LQ_NOTFOUND)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return db_raise(self, st);
	Py_RETURN_TRUE;
}

static PyObject *Db_remove(DbObject *self, PyObject *arg)
{
	return db_by_id(self, arg, lq_task_rm);
}

static PyObject *Db_retry(DbObject *self, PyObject *arg)
{
	return db_by_id(self, arg, lq_task_retry);
}

static int collect_task(const lq_task *t, void *ctx)
{
	lq_task *d = collect_add(ctx);
	if (!d || task_copy(d, t) < 0) {
		((collect *)ctx)->nomem = 1;
		if (d)
			((collect *)ctx)->n--;
		return 1;
	}
	return 0;
}

static PyObject *Db_list(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"queue", "dead", "due", NULL};
	PyObject *queueo = Py_None;
	int dead = 0, due = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$pp:list", kwlist, &queueo, &dead, &due))
		return NULL;
	const char *queue = opt_name_arg(queueo, "queue");
	if (!queue && PyErr_Occurred())
		return NULL;
	collect c = {.size = sizeof(lq_task)};
	unsigned flags = (dead ? LQ_LIST_DEAD : 0) | (due ? LQ_LIST_DUE : 0);
	lq_status st;
	DB_RUN(self, st, lq_task_list(self->db, queue, flags, collect_task, &c));
	PyObject *res = rows_list(self, st, &c, task_row);
	lq_task *rows = c.rows;
	for (size_t i = 0; i < c.n; i++)
		lq_task_clear(&rows[i]);
	free(rows);
	return res;
}

typedef struct {
	lq_run r;
	char *error;
} run_row;

static int collect_run(const lq_run *r, void *ctx)
{
	run_row *d = collect_add(ctx);
	if (!d)
		return 1;
	d->r = *r;
	d->r.error = NULL;
	d->error = r->error ? strdup(r->error) : NULL;
	if (r->error && !d->error) {
		((collect *)ctx)->nomem = 1;
		return 1;
	}
	return 0;
}

static PyObject *run_tuple(void *p)
{
	const run_row *row = p;
	const lq_run *r = &row->r;
	PyObject *o = PyStructSequence_New(RunType);
	if (!o)
		return NULL;
	PyObject *v[] = {PyLong_FromLongLong(r->id),      PyLong_FromLongLong(r->task_id), ms_to_datetime(r->run_at),
			 PyUnicode_FromString(r->queue),  PyUnicode_FromString(r->name),   PyUnicode_FromString(r->worker),
			 PyLong_FromLong(r->attempt),     ms_to_datetime(r->started_at),   ms_to_datetime(r->ended_at),
			 PyUnicode_FromString(lq_outcome_name(r->outcome)), str_or_none(row->error)};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (!v[i]) {
			for (size_t j = i + 1; j < sizeof(v) / sizeof(v[0]); j++)
				Py_XDECREF(v[j]);
			Py_DECREF(o);
			return NULL;
		}
		PyStructSequence_SET_ITEM(o, (Py_ssize_t)i, v[i]);
	}
	return o;
}

static PyObject *Db_history(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"task_id", "queue", "name", "since", "limit", NULL};
	PyObject *ido = Py_None, *queueo = Py_None, *nameo = Py_None, *sinceo = Py_None;
	Py_ssize_t limit = 100;
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$OOOOn:history", kwlist, &ido, &queueo, &nameo, &sinceo, &limit))
		return NULL;
	if (ido != Py_None && id_arg(ido, &f.task_id) < 0)
		return NULL;
	if ((queueo != Py_None && !(f.queue = name_arg(queueo, "queue"))) ||
	    (nameo != Py_None && !(f.name = name_arg(nameo, "task name"))))
		return NULL;
	if (sinceo != Py_None && duration_ms(sinceo, "since", &f.since_ms) < 0)
		return NULL;
	if (limit < 1 || limit > LQ_RUN_LIST_MAX) {
		PyErr_Format(PyExc_ValueError, "history(): limit must be between 1 and %d", LQ_RUN_LIST_MAX);
		return NULL;
	}
	f.limit = (size_t)limit;
	collect c = {.size = sizeof(run_row)};
	lq_status st;
	DB_RUN(self, st, lq_run_list(self->db, &f, collect_run, &c));
	PyObject *res = rows_list(self, st, &c, run_tuple);
	run_row *rows = c.rows;
	for (size_t i = 0; i < c.n; i++)
		free(rows[i].error);
	free(rows);
	return res;
}

static int collect_queue(const lq_queue_info *q, void *ctx)
{
	lq_queue_info *d = collect_add(ctx);
	if (!d)
		return 1;
	*d = *q;
	return 0;
}

static PyObject *queue_tuple(void *p)
{
	const lq_queue_info *q = p;
	PyObject *o = PyStructSequence_New(QueueType);
	PyObject *nxt = o ? ms_to_datetime(q->next_run_at) : NULL;
	if (!nxt) {
		Py_XDECREF(o);
		return NULL;
	}
	PyStructSequence_SET_ITEM(o, 0, PyUnicode_FromString(q->name));
	PyStructSequence_SET_ITEM(o, 1, PyBool_FromLong(q->paused));
	PyStructSequence_SET_ITEM(o, 2, PyLong_FromLongLong(q->tasks));
	PyStructSequence_SET_ITEM(o, 3, PyLong_FromLongLong(q->due));
	PyStructSequence_SET_ITEM(o, 4, PyLong_FromLongLong(q->dead));
	PyStructSequence_SET_ITEM(o, 5, nxt);
	return o;
}

static PyObject *queues_list(DbObject *self)
{
	collect c = {.size = sizeof(lq_queue_info)};
	lq_status st;
	DB_CALL(self, st, lq_queue_list(self->db, collect_queue, &c));
	PyObject *res = rows_list(self, st, &c, queue_tuple);
	free(c.rows);
	return res;
}

static PyObject *Db_queues(DbObject *self, PyObject *unused)
{
	if (db_enter(self) < 0)
		return NULL;
	PyObject *r = queues_list(self);
	db_leave(self);
	return r;
}

static PyObject *Db_pause_queue(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"queue", "paused", NULL};
	PyObject *qo;
	int paused = 1;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p:pause_queue", kwlist, &qo, &paused))
		return NULL;
	const char *q = name_arg(qo, "queue");
	if (!q)
		return NULL;
	DB_RUN(self, st, lq_queue_pause(self->db, q, paused));
	return db_none(self, st);
}

typedef struct {
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	lq_run_counts c;
} counter_row;

static int collect_counter(const char *queue, const char *name, const lq_run_counts *c, void *ctx)
{
	counter_row *d = collect_add(ctx);
	if (!d)
		return 1;
	snprintf(d->queue, sizeof(d->queue), "%s", queue);
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->c = *c;
	return 0;
}

static PyObject *Db_stats(DbObject *self, PyObject *unused)
{
	lq_lease_counts lc = {0};
	collect c = {.size = sizeof(counter_row)};
	lq_status st;
	PyObject *queues = NULL, *runs = NULL, *res = NULL;
	if (db_enter(self) < 0)
		return NULL;
	queues = queues_list(self);
	if (queues)
		DB_CALL(self, st, lq_counters(self->db, &lc, collect_counter, &c));
	db_leave(self);
	if (!queues)
		goto out;
	if (c.nomem) {
		PyErr_NoMemory();
		goto out;
	}
	if (st != LQ_OK) {
		db_raise(self, st);
		goto out;
	}
	counter_row *rows = c.rows;
	if (!(runs = PyList_New((Py_ssize_t)c.n)))
		goto out;
	for (size_t i = 0; i < c.n; i++) {
		PyObject *d = Py_BuildValue("{sssssLsLsLsL}", "queue", rows[i].queue, "name", rows[i].name, "done",
					    (long long)rows[i].c.done, "failed", (long long)rows[i].c.failed, "timed_out",
					    (long long)rows[i].c.timed_out, "dead", (long long)rows[i].c.dead);
		if (!d)
			goto out;
		PyList_SET_ITEM(runs, (Py_ssize_t)i, d);
	}
	res = Py_BuildValue("{sOs{sLsLsL}sO}", "queues", queues, "leases", "taken", (long long)lc.taken, "lost",
			    (long long)lc.lost, "broken", (long long)lc.broken, "runs", runs);
out:
	Py_XDECREF(queues);
	Py_XDECREF(runs);
	free(c.rows);
	return res;
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
	 "    timeout=None, max_attempts=None, every=None, cron=None, tz=None, missed=None)\n--\n\n"
	 "Enqueue a task; returns its id (with unique=KEY and a live task holding KEY: that task's id).\n"
	 "payload: str (UTF-8) or bytes.  delay/timeout/every: seconds, \"5m\" or a timedelta.\n"
	 "run_at: a datetime (naive = UTC) or epoch seconds.  cron: 5 fields or @daily, in tz.\n"
	 "missed: 'once' (default) or 'skip', for recurring tasks after downtime."},
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
	{"remove", (PyCFunction)Db_remove, METH_O, "remove($self, id)\n--\n\nDelete a live or dead task.  False if none."},
	{"retry", (PyCFunction)Db_retry, METH_O,
	 "retry($self, id)\n--\n\nA dead task back to its queue (attempts reset), or a live one due now.  False if none."},
	{"list", (PyCFunction)(void (*)(void))Db_list, METH_VARARGS | METH_KEYWORDS,
	 "list($self, queue=None, *, dead=False, due=False)\n--\n\nTasks by id (payloads not loaded): every queue,\n"
	 "or one; the dead ones with dead=True; only those due now with due=True."},
	{"history", (PyCFunction)(void (*)(void))Db_history, METH_VARARGS | METH_KEYWORDS,
	 "history($self, *, task_id=None, queue=None, name=None, since=None, limit=100)\n--\n\n"
	 "Runs that ended, newest first: a list of Run (id, task_id, run_at, queue, name, worker,\n"
	 "attempt, started_at, ended_at, outcome: 'done'|'failed'|'timed_out'|'dead', error)."},
	{"queues", (PyCFunction)Db_queues, METH_NOARGS,
	 "queues($self)\n--\n\nEvery queue with tasks or paused: a list of QueueInfo (name, paused, tasks, due,\n"
	 "dead, next_run_at)."},
	{"pause_queue", (PyCFunction)(void (*)(void))Db_pause_queue, METH_VARARGS | METH_KEYWORDS,
	 "pause_queue($self, queue, paused=True)\n--\n\nPause (or with paused=False resume) a whole queue."},
	{"stats", (PyCFunction)Db_stats, METH_NOARGS,
	 "stats($self)\n--\n\n{'queues': [QueueInfo...], 'leases': {'taken', 'lost', 'broken'},\n"
	 " 'runs': [{'queue', 'name', 'done', 'failed', 'timed_out', 'dead'}...]}: the monotonic counters."},
	{NULL}};

static PyGetSetDef Db_getset[] = {
	{"closed", (getter)Db_get_closed, NULL, "True once closed.", NULL},
	{"backend", (getter)Db_get_backend, NULL, "'sqlite', 'postgres' or 'mysql'.", NULL},
	{"dsn", (getter)Db_get_dsn, NULL, "The DSN with its password replaced by ***.", NULL},
	{NULL}};

static PyTypeObject DbType = {
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

/* --------------------------------------------------------- Runner / Job */

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
	{"mark_timed_out", (PyCFunction)Job_mark_timed_out, METH_O,
	 "mark_timed_out($self, message)\n--\n\nRecord the run as timed out (the watchdog calls it)."},
	{NULL}};

static PyGetSetDef Job_getset[] = {
	{"task", (getter)Job_get_task, NULL, "The running task (a copy).", NULL},
	{"claim_ttl", (getter)Job_get_claim_ttl, NULL, "Seconds a heartbeat extends the claim by.", NULL},
	{"stopping", (getter)Job_get_stopping, NULL, "True once the runner was asked to stop.", NULL},
	{NULL}};

static PyTypeObject JobType = {
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
	o.mode = alo ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE;
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

static PyTypeObject RunnerType = {
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

/* --------------------------------------------------------- module funcs */

static PyObject *mod_init(PyObject *m, PyObject *args)
{
	PyObject *errors, *root, *k, *v;
	Py_ssize_t pos = 0;
	if (!PyArg_ParseTuple(args, "OO!:_init", &root, &PyDict_Type, &errors))
		return NULL;
	Py_XSETREF(g_error, Py_NewRef(root));
	while (PyDict_Next(errors, &pos, &k, &v)) {
		long st = PyLong_AsLong(k);
		if (st < 0 || st >= NSTATUS) {
			PyErr_SetString(PyExc_ValueError, "_init: status out of range");
			return NULL;
		}
		Py_XSETREF(g_err[st], Py_NewRef(v));
	}
	Py_RETURN_NONE;
}

static PyObject *mod_status_names(PyObject *m, PyObject *unused)
{
	PyObject *d = PyDict_New();
#define LQ__NAME(name, value, text)                                                             \
	if (d) {                                                                                \
		PyObject *t = Py_BuildValue("(ss)", #name, text), *key = PyLong_FromLong(value); \
		if (!t || !key || PyDict_SetItem(d, key, t) < 0)                                \
			Py_CLEAR(d);                                                            \
		Py_XDECREF(t);                                                                  \
		Py_XDECREF(key);                                                                \
	}
	LQ_STATUS_MAP(LQ__NAME)
#undef LQ__NAME
	return d;
}

static PyObject *mod_async_raise(PyObject *m, PyObject *args)
{
	unsigned long tid;
	PyObject *exc;
	if (!PyArg_ParseTuple(args, "kO:_async_raise", &tid, &exc))
		return NULL;
	return PyLong_FromLong(PyThreadState_SetAsyncExc(tid, exc == Py_None ? NULL : exc));
}

static PyObject *mod_parse_duration(PyObject *m, PyObject *arg)
{
	int64_t ms;
	if (duration_ms(arg, "duration", &ms) < 0)
		return NULL;
	return PyFloat_FromDouble((double)ms / 1000.0);
}

static PyObject *mod_redact(PyObject *m, PyObject *arg)
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

/* Borrowing psycopg's PGconn is safe only when psycopg and libleaseq call
 * the same libpq: a wheel that bundles its own copy gives a PGconn of
 * another library.  Count the libpq images in the process. */
static int count_libpq(struct dl_phdr_info *info, size_t size, void *ctx)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
	base = base ? base + 1 : info->dlpi_name;
	if (base && !strncmp(base, "libpq", 5) && (base[5] == '.' || base[5] == '-'))
		++*(int *)ctx;
	return 0;
}

static PyObject *mod_enqueue_pgconn(PyObject *m, PyObject *args)
{
	PyObject *ptro, *items;
	if (!PyArg_ParseTuple(args, "OO:_enqueue_pgconn", &ptro, &items))
		return NULL;
	void *conn = PyLong_AsVoidPtr(ptro);
	if (!conn) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_ValueError, "enqueue(): the psycopg connection is closed");
		return NULL;
	}
	int copies = 0;
	dl_iterate_phdr(count_libpq, &copies);
	if (copies != 1) {
		PyErr_Format(PyExc_RuntimeError,
			     "enqueue(): %d copies of libpq are loaded (a psycopg binary wheel bundles its own); "
			     "borrowing the connection needs psycopg built against the system libpq that libleaseq "
			     "uses (Debian's python3-psycopg2 / python3-psycopg)",
			     copies);
		return NULL;
	}
	lq_db *db = NULL;
	lq_status st = lq_open_borrowed(LQ_CONN_POSTGRES, conn, &db);
	if (st != LQ_OK) {
		if (!db)
			return PyErr_NoMemory();
		raise_msg(st, lq_errmsg(db), NULL);
		lq_close(db);
		return NULL;
	}
	/* The application's connection: the caller's thread is using it, so
	 * the GIL is released around the statements all the same (add_many_on). */
	PyObject *r = add_many_on(db, NULL, items);
	Py_BEGIN_ALLOW_THREADS lq_close(db);
	Py_END_ALLOW_THREADS return r;
}

static PyObject *mod_check_task(PyObject *m, PyObject *items)
{
	addspec *s = NULL;
	Py_ssize_t n = specs_from(items, &s);
	if (n < 0)
		return NULL;
	PyObject *res = PyList_New(n);
	for (Py_ssize_t i = 0; res && i < n; i++) {
		PyObject *payload = s[i].o.payload
					    ? PyBytes_FromStringAndSize(s[i].o.payload, (Py_ssize_t)s[i].o.payload_len)
					    : Py_NewRef(Py_None);
		PyObject *t = payload ? Py_BuildValue(
						"{sssNszsLsLszsisisLsLsOsO}", "name", s[i].name, "payload", payload,
						"queue", s[i].o.queue ? s[i].o.queue : LQ_DEFAULT_QUEUE, "delay_ms",
						(long long)s[i].o.delay_ms, "run_at_ms", (long long)s[i].o.run_at,
						"unique_key", s[i].o.unique_key, "priority", s[i].o.priority,
						"max_attempts", s[i].o.max_attempts ? s[i].o.max_attempts : LQ_DEFAULT_MAX_ATTEMPTS,
						"timeout_ms", (long long)s[i].o.timeout_ms, "every_ms",
						(long long)s[i].o.every_ms, "cron", s[i].o.cron ? Py_True : Py_False,
						"tz", s[i].o.tz ? Py_True : Py_False)
					      : NULL;
		if (!t)
			Py_CLEAR(res);
		else
			PyList_SET_ITEM(res, i, t);
	}
	specs_free(s, n);
	return res;
}

static PyMethodDef mod_methods[] = {
	{"_init", mod_init, METH_VARARGS, "_init(Error, {status: class}): the exception classes."},
	{"_status_names", mod_status_names, METH_NOARGS, "{status: (NAME, text)} from lq_status."},
	{"_async_raise", mod_async_raise, METH_VARARGS, "PyThreadState_SetAsyncExc(thread_id, exc or None)."},
	{"_enqueue_pgconn", mod_enqueue_pgconn, METH_VARARGS,
	 "Add tasks on a borrowed PGconn (an address), inside its open transaction."},
	{"_check_tasks", mod_check_task, METH_O,
	 "Validate add_many()-style tasks and return them as dicts (the cursor enqueue)."},
	{"parse_duration", mod_parse_duration, METH_O,
	 "parse_duration(d)\n--\n\nA duration (seconds, \"250ms\"/\"30s\"/\"5m\", or a timedelta) in seconds (float)."},
	{"redact_dsn", mod_redact, METH_O, "redact_dsn(dsn)\n--\n\nThe DSN with its password replaced by ***."},
	{NULL}};

static PyStructSequence_Field run_fields[] = {
	{"id", "increasing: a later row was written later"}, {"task_id", NULL},
	{"run_at", "due time of the occurrence"},            {"queue", NULL},
	{"name", NULL},                                      {"worker", "host:pid"},
	{"attempt", "1 for the first"},                      {"started_at", "when it was claimed"},
	{"ended_at", NULL},                                  {"outcome", "'done', 'failed', 'timed_out' or 'dead'"},
	{"error", "None for done"},                          {NULL}};
static PyStructSequence_Desc run_desc = {"leaseq.Run", "One run of a task in the history.", run_fields, 11};

static PyStructSequence_Field queue_fields[] = {
	{"name", NULL}, {"paused", NULL}, {"tasks", "live tasks"}, {"due", "of which due now"},
	{"dead", NULL}, {"next_run_at", "earliest run_at of an unpaused live task, or None"}, {NULL}};
static PyStructSequence_Desc queue_desc = {"leaseq.QueueInfo", "A queue's counts.", queue_fields, 6};

static PyStructSequence_Field report_fields[] = {
	{"ran", "handlers that succeeded"}, {"failed", "handlers that failed"}, {"claimed", "tasks claimed"},
	{"stopped", "why it stopped: 'idle', 'held', 'budget', 'signal', 'claim_lost', 'lease_lost', 'error'"},
	{NULL}};
static PyStructSequence_Desc report_desc = {"leaseq.Report", "What a run of the runner did.", report_fields, 4};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT, "leaseq._leaseq", "The C half of the leaseq module (import leaseq instead).", -1,
	mod_methods,
};

PyMODINIT_FUNC PyInit__leaseq(void)
{
	PyDateTime_IMPORT;
	if (!PyDateTimeAPI)
		return NULL;
	PyObject *tb = PyImport_ImportModule("traceback");
	if (!tb)
		return NULL;
	g_format_exc_only = PyObject_GetAttrString(tb, "format_exception_only");
	Py_DECREF(tb);
	if (!g_format_exc_only)
		return NULL;
	g_epoch = PyDateTimeAPI->DateTime_FromDateAndTime(1970, 1, 1, 0, 0, 0, 0, PyDateTime_TimeZone_UTC,
							  PyDateTimeAPI->DateTimeType);
	if (!g_epoch)
		return NULL;
	RunType = PyStructSequence_NewType(&run_desc);
	QueueType = PyStructSequence_NewType(&queue_desc);
	ReportType = PyStructSequence_NewType(&report_desc);
	if (!RunType || !QueueType || !ReportType)
		return NULL;
	if (PyType_Ready(&DbType) < 0 || PyType_Ready(&LeaseType) < 0 || PyType_Ready(&TaskType) < 0 ||
	    PyType_Ready(&JobType) < 0 || PyType_Ready(&RunnerType) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&moddef);
	if (!m)
		return NULL;
	if (PyModule_AddObjectRef(m, "Db", (PyObject *)&DbType) < 0 ||
	    PyModule_AddObjectRef(m, "Lease", (PyObject *)&LeaseType) < 0 ||
	    PyModule_AddObjectRef(m, "Task", (PyObject *)&TaskType) < 0 ||
	    PyModule_AddObjectRef(m, "Job", (PyObject *)&JobType) < 0 ||
	    PyModule_AddObjectRef(m, "Runner", (PyObject *)&RunnerType) < 0 ||
	    PyModule_AddObjectRef(m, "Run", (PyObject *)RunType) < 0 ||
	    PyModule_AddObjectRef(m, "QueueInfo", (PyObject *)QueueType) < 0 ||
	    PyModule_AddObjectRef(m, "Report", (PyObject *)ReportType) < 0 ||
	    PyModule_AddStringConstant(m, "library_version", lq_version()) < 0 ||
	    PyModule_AddStringConstant(m, "header_version", LEASEQ_VERSION_STRING) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
