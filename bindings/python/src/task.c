/*
 * task.c - leaseq.Task and the task calls of leaseq.Db: add (one or many,
 * or on a borrowed psycopg connection), claim, settle, read, the run
 * history, queues and stats.
 */
#include "leaseq_py.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>

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

PyObject *task_from_copy(const lq_task *t)
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

PyObject *str_or_none(const char *s)
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
	case 22: return str_or_none(t->concurrency_key);
	case 23: return str_or_none(t->partition);
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
	TASK_ATTR("concurrency_key", "The concurrency key (its limit: Db.limit(key)), or None.", 22),
	TASK_ATTR("partition", "The partition whose turn it takes (fair share), or None.", 23),
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

PyTypeObject TaskType = {
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
				       "max_attempts", "every", "cron", "tz", "missed", "concurrency_key",
				       "partition", "overlap", "catch_up", "alert_after", NULL};

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
		case 11: bad = !(s->o.concurrency_key = name_arg(v, "concurrency key")); break;
		case 12: bad = !(s->o.partition = name_arg(v, "partition")); break;
		case 13: bad = overlap_arg(v, &s->o.overlap) < 0; break;
		case 14: bad = int_arg(v, "catch_up", 1, LQ_CATCH_UP_MAX, &s->o.catch_up) < 0; break;
		case 15:
			bad = duration_ms(v, "alert_after", &s->o.alert_after_ms) < 0;
			if (!bad && s->o.alert_after_ms <= 0) {
				PyErr_SetString(PyExc_ValueError, "alert_after must be positive");
				bad = 1;
			}
			break;
		}
		if (bad || spec_keep(s, v) < 0)
			return -1;
	}
	if (s->o.every_ms && s->o.cron) {
		PyErr_Format(PyExc_ValueError, "%s: every and cron exclude each other", where);
		return -1;
	}
	if ((s->o.overlap || s->o.catch_up || s->o.alert_after_ms) && !s->o.every_ms && !s->o.cron) {
		PyErr_Format(PyExc_ValueError, "%s: overlap, catch_up and alert_after are for recurring tasks (every, cron)",
			     where);
		return -1;
	}
	if (s->o.concurrency_key && !strncmp(s->o.concurrency_key, "queue:", 6)) {
		PyErr_Format(PyExc_ValueError, "%s: a concurrency key does not start with \"queue:\" (a queue's limit "
					       "applies to its tasks already)", where);
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

PyObject *Db_add(DbObject *self, PyObject *args, PyObject *kw)
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

PyObject *Db_add_many(DbObject *self, PyObject *items)
{
	if (db_enter(self) < 0)
		return NULL;
	PyObject *r = add_many_on(self->db, self->mu, items);
	db_leave(self);
	return r;
}

void *collect_add(collect *c)
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

PyObject *rows_list(DbObject *self, lq_status st, const collect *c, PyObject *(*make)(void *row))
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

PyObject *Db_claim(DbObject *self, PyObject *args, PyObject *kw)
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

PyObject *Db_ack(DbObject *self, PyObject *arg)
{
	lq_task *t;
	lq_status st;
	if (!task_arg(arg, &t))
		return NULL;
	DB_RUN(self, st, lq_task_ack(self->db, t));
	return db_none(self, st);
}

PyObject *Db_release(DbObject *self, PyObject *arg)
{
	lq_task *t;
	lq_status st;
	if (!task_arg(arg, &t))
		return NULL;
	DB_RUN(self, st, lq_task_release(self->db, t));
	return db_none(self, st);
}

PyObject *Db_fail(DbObject *self, PyObject *args)
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

PyObject *Db_heartbeat(DbObject *self, PyObject *args, PyObject *kw)
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

int id_arg(PyObject *o, int64_t *id)
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

PyObject *Db_get(DbObject *self, PyObject *arg)
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

PyObject *Db_progress(DbObject *self, PyObject *arg)
{
	int64_t id;
	lq_progress p;
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, lq_task_progress_get(self->db, id, &p));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	if (p.percent < 0)
		Py_RETURN_NONE;
	PyObject *at = ms_to_datetime(p.updated_at);
	if (!at)
		return NULL;
	return Py_BuildValue("(isN)", p.percent, p.message, at);
}

PyObject *Db_result(DbObject *self, PyObject *arg)
{
	int64_t id;
	size_t len = 0;
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	unsigned char *buf = malloc(LQ_RESULT_MAX);
	if (!buf)
		return PyErr_NoMemory();
	if (db_enter(self) < 0) {
		free(buf);
		return NULL;
	}
	DB_CALL(self, st, lq_task_result(self->db, id, buf, LQ_RESULT_MAX, &len));
	db_leave(self);
	PyObject *out = st == LQ_OK ? PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len) : NULL;
	free(buf);
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return out;
}

/* The answer of an admin call on one thing: False when there is no such
 * thing (not an error), True when done. */
PyObject *db_found(DbObject *self, lq_status st)
{
	if (st == LQ_NOTFOUND)
		Py_RETURN_FALSE;
	if (st != LQ_OK)
		return db_raise(self, st);
	Py_RETURN_TRUE;
}

/* For the id-only admin calls: rm, retry, run now. */
PyObject *db_by_id(DbObject *self, PyObject *arg, lq_status (*fn)(lq_db *, int64_t))
{
	int64_t id;
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, fn(self->db, id));
	return db_found(self, st);
}

PyObject *Db_remove(DbObject *self, PyObject *arg)
{
	return db_by_id(self, arg, lq_task_rm);
}

PyObject *Db_retry(DbObject *self, PyObject *arg)
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

PyObject *Db_list(DbObject *self, PyObject *args, PyObject *kw)
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

/* A struct sequence of type from its n new values (stolen), or NULL when
 * one of them could not be made. */
PyObject *struct_new(PyTypeObject *type, PyObject **v, size_t n)
{
	PyObject *o = PyStructSequence_New(type);
	for (size_t i = 0; i < n; i++) {
		if (!o || !v[i]) {
			for (size_t j = i; j < n; j++)
				Py_XDECREF(v[j]);
			Py_XDECREF(o);
			return NULL;
		}
		PyStructSequence_SET_ITEM(o, (Py_ssize_t)i, v[i]);
	}
	return o;
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
	PyObject *v[] = {PyLong_FromLongLong(r->id),      PyLong_FromLongLong(r->task_id), ms_to_datetime(r->run_at),
			 PyUnicode_FromString(r->queue),  PyUnicode_FromString(r->name),   PyUnicode_FromString(r->worker),
			 PyLong_FromLong(r->attempt),     ms_to_datetime(r->started_at),   ms_to_datetime(r->ended_at),
			 PyUnicode_FromString(lq_outcome_name(r->outcome)), str_or_none(row->error)};
	return struct_new(RunType, v, sizeof(v) / sizeof(v[0]));
}

PyObject *Db_history(DbObject *self, PyObject *args, PyObject *kw)
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

PyObject *Db_queues(DbObject *self, PyObject *unused)
{
	if (db_enter(self) < 0)
		return NULL;
	PyObject *r = queues_list(self);
	db_leave(self);
	return r;
}

PyObject *Db_pause_queue(DbObject *self, PyObject *args, PyObject *kw)
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

PyObject *Db_stats(DbObject *self, PyObject *unused)
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
		PyObject *d = Py_BuildValue("{sssssLsLsLsLsL}", "queue", rows[i].queue, "name", rows[i].name, "done",
					    (long long)rows[i].c.done, "failed", (long long)rows[i].c.failed, "timed_out",
					    (long long)rows[i].c.timed_out, "dead", (long long)rows[i].c.dead, "cancelled",
					    (long long)rows[i].c.cancelled);
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

PyObject *mod_enqueue_pgconn(PyObject *m, PyObject *args)
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

PyObject *mod_check_task(PyObject *m, PyObject *items)
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
						"{sssNszsLsLszsisisLsLsOsOsO}", "name", s[i].name, "payload", payload,
						"queue", s[i].o.queue ? s[i].o.queue : LQ_DEFAULT_QUEUE, "delay_ms",
						(long long)s[i].o.delay_ms, "run_at_ms", (long long)s[i].o.run_at,
						"unique_key", s[i].o.unique_key, "priority", s[i].o.priority,
						"max_attempts", s[i].o.max_attempts ? s[i].o.max_attempts : LQ_DEFAULT_MAX_ATTEMPTS,
						"timeout_ms", (long long)s[i].o.timeout_ms, "every_ms",
						(long long)s[i].o.every_ms, "cron", s[i].o.cron ? Py_True : Py_False,
						"tz", s[i].o.tz ? Py_True : Py_False, "flow",
						s[i].o.concurrency_key || s[i].o.partition ? Py_True : Py_False)
					      : NULL;
		if (!t)
			Py_CLEAR(res);
		else
			PyList_SET_ITEM(res, i, t);
	}
	specs_free(s, n);
	return res;
}
