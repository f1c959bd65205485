/*
 * flow.c - flow control on leaseq.Db: cancelling a task, limits on a
 * concurrency key or a queue (leaseq.Limit), and steering schedules
 * (pause, run now, edit; leaseq.Schedule).
 */
#include "leaseq_py.h"

static const char *const overlap_names[] = {"default", "skip", "queue", "cancel-previous"};

const char *overlap_name(lq_overlap o)
{
	return (unsigned)o < sizeof(overlap_names) / sizeof(overlap_names[0]) ? overlap_names[o] : "default";
}

/* "skip", "queue" or "cancel-previous" (as leasectl task add --overlap). */
int overlap_arg(PyObject *o, lq_overlap *out)
{
	const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
	if (!s) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_TypeError, "overlap must be str, not %.100s", Py_TYPE(o)->tp_name);
		return -1;
	}
	for (int i = 1; i < 4; i++) {
		if (!strcmp(s, overlap_names[i])) {
			*out = (lq_overlap)i;
			return 0;
		}
	}
	PyErr_Format(PyExc_ValueError, "overlap must be 'skip', 'queue' or 'cancel-previous', not %R", o);
	return -1;
}

/* ------------------------------------------------------------- cancel */

PyObject *Db_cancel_task(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"id", "reason", NULL};
	PyObject *ido, *reasono = Py_None;
	int64_t id;
	int was_running = 0;
	const char *reason = NULL;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:cancel_task", kwlist, &ido, &reasono) || id_arg(ido, &id) < 0)
		return NULL;
	if (reasono != Py_None) {
		Py_ssize_t len;
		if (!PyUnicode_Check(reasono)) {
			PyErr_Format(PyExc_TypeError, "reason must be str or None, not %.100s", Py_TYPE(reasono)->tp_name);
			return NULL;
		}
		if (!(reason = PyUnicode_AsUTF8AndSize(reasono, &len)))
			return NULL;
		if (strlen(reason) != (size_t)len || len > LQ_NAME_MAX || strchr(reason, '\n')) {
			PyErr_Format(PyExc_ValueError, "reason must be one line of at most %d bytes", LQ_NAME_MAX);
			return NULL;
		}
	}
	DB_RUN(self, st, lq_task_cancel(self->db, id, reason, &was_running));
	/* As remove() and retry(): no live task with that id is an answer,
	 * not an error (None, where the others say False). */
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return PyBool_FromLong(was_running);
}

PyObject *Db_partition(DbObject *self, PyObject *arg)
{
	int64_t id;
	char buf[LQ_NAME_MAX + 1];
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, lq_task_partition(self->db, id, buf, sizeof(buf)));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "replace");
}

/* ------------------------------------------------------------- limits */

/* "N/DUR" (as leasectl limit set --rate) or a tuple (n, duration). */
static int rate_arg(PyObject *o, int *n, int64_t *period)
{
	if (PyTuple_Check(o)) {
		if (PyTuple_GET_SIZE(o) != 2) {
			PyErr_SetString(PyExc_ValueError, "rate: a tuple is (n, duration)");
			return -1;
		}
		if (int_arg(PyTuple_GET_ITEM(o, 0), "rate n", 1, LQ_LIMIT_RATE_MAX, n) < 0 ||
		    duration_ms(PyTuple_GET_ITEM(o, 1), "rate period", period) < 0)
			return -1;
	} else if (PyUnicode_Check(o)) {
		Py_ssize_t len;
		const char *s = PyUnicode_AsUTF8AndSize(o, &len);
		char msg[256] = "a NUL character";
		if (!s)
			return -1;
		if (strlen(s) != (size_t)len || lq_parse_rate(s, n, period, msg, sizeof(msg)) != LQ_OK) {
			PyErr_Format(PyExc_ValueError, "rate: %s", msg);
			return -1;
		}
	} else {
		PyErr_Format(PyExc_TypeError, "rate must be \"N/DUR\" or a tuple (n, duration), not %.100s",
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	if (*period <= 0) {
		PyErr_SetString(PyExc_ValueError, "rate: the period must be positive");
		return -1;
	}
	return 0;
}

PyObject *Db_set_limit(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"key", "concurrency", "rate", NULL};
	PyObject *keyo, *conco = Py_None, *rateo = Py_None;
	lq_limit l;
	lq_status st;
	memset(&l, 0, sizeof(l));
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OO:set_limit", kwlist, &keyo, &conco, &rateo))
		return NULL;
	const char *key = name_arg(keyo, "limit key");
	if (!key)
		return NULL;
	if (conco == Py_None && rateo == Py_None) {
		PyErr_SetString(PyExc_ValueError, "set_limit(): give concurrency, rate or both");
		return NULL;
	}
	if (conco != Py_None && int_arg(conco, "concurrency", 1, 1000000, &l.concurrency) < 0)
		return NULL;
	if (rateo != Py_None && rate_arg(rateo, &l.rate_n, &l.rate_period_ms) < 0)
		return NULL;
	snprintf(l.key, sizeof(l.key), "%s", key);
	DB_RUN(self, st, lq_limit_set(self->db, &l));
	return db_none(self, st);
}

static PyObject *int_or_none(int64_t v)
{
	if (v <= 0)
		Py_RETURN_NONE;
	return PyLong_FromLongLong(v);
}

static PyObject *limit_tuple(void *p)
{
	const lq_limit *l = p;
	PyObject *v[] = {PyUnicode_FromString(l->key),
			 int_or_none(l->concurrency),
			 int_or_none(l->rate_n),
			 l->rate_n ? ms_to_seconds(l->rate_period_ms) : Py_NewRef(Py_None),
			 PyLong_FromLongLong(l->running),
			 l->rate_n ? PyLong_FromLongLong(l->tokens) : Py_NewRef(Py_None)};
	return struct_new(LimitType, v, sizeof(v) / sizeof(v[0]));
}

PyObject *Db_limit(DbObject *self, PyObject *arg)
{
	lq_limit l;
	lq_status st;
	const char *key = name_arg(arg, "limit key");
	if (!key)
		return NULL;
	DB_RUN(self, st, lq_limit_get(self->db, key, &l));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return limit_tuple(&l);
}

static int collect_limit(const lq_limit *l, void *ctx)
{
	lq_limit *d = collect_add(ctx);
	if (!d)
		return 1;
	*d = *l;
	return 0;
}

PyObject *Db_limits(DbObject *self, PyObject *unused)
{
	collect c = {.size = sizeof(lq_limit)};
	lq_status st;
	DB_RUN(self, st, lq_limit_list(self->db, collect_limit, &c));
	PyObject *res = rows_list(self, st, &c, limit_tuple);
	free(c.rows);
	return res;
}

PyObject *Db_remove_limit(DbObject *self, PyObject *arg)
{
	lq_status st;
	const char *key = name_arg(arg, "limit key");
	if (!key)
		return NULL;
	DB_RUN(self, st, lq_limit_remove(self->db, key));
	return db_found(self, st);
}

/* ---------------------------------------------------------- schedules */

PyObject *Db_pause_task(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"id", "paused", NULL};
	PyObject *ido;
	int64_t id;
	int paused = 1;
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p:pause_task", kwlist, &ido, &paused) || id_arg(ido, &id) < 0)
		return NULL;
	DB_RUN(self, st, lq_task_pause(self->db, id, paused));
	return db_found(self, st);
}

PyObject *Db_run_now(DbObject *self, PyObject *arg)
{
	return db_by_id(self, arg, lq_task_run_now);
}

PyObject *Db_edit_schedule(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"id", "every", "cron", "tz", NULL};
	PyObject *ido, *everyo = Py_None, *crono = Py_None, *tzo = Py_None;
	int64_t id, every = 0, next = 0;
	const char *cron = NULL, *tz = NULL;
	char msg[256];
	lq_status st;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OOO:edit_schedule", kwlist, &ido, &everyo, &crono, &tzo) ||
	    id_arg(ido, &id) < 0)
		return NULL;
	if (everyo != Py_None) {
		if (duration_ms(everyo, "every", &every) < 0)
			return NULL;
		if (every < LQ_EVERY_MIN_MS || every > LQ_EVERY_MAX_MS) {
			PyErr_Format(PyExc_ValueError, "every must be between %d ms and ten years", LQ_EVERY_MIN_MS);
			return NULL;
		}
	}
	if ((crono != Py_None && !PyUnicode_Check(crono)) || (tzo != Py_None && !PyUnicode_Check(tzo))) {
		PyErr_SetString(PyExc_TypeError, "cron and tz must be str");
		return NULL;
	}
	if ((crono != Py_None && !(cron = PyUnicode_AsUTF8(crono))) || (tzo != Py_None && !(tz = PyUnicode_AsUTF8(tzo))))
		return NULL;
	if (!every == !cron) {
		PyErr_SetString(PyExc_ValueError, "edit_schedule(): give every or cron (one of them)");
		return NULL;
	}
	if (tz && !cron) {
		PyErr_SetString(PyExc_ValueError, "edit_schedule(): tz is for cron schedules");
		return NULL;
	}
	if (cron && lq_check_schedule(cron, tz, msg, sizeof(msg)) != LQ_OK) {
		PyErr_Format(PyExc_ValueError, "edit_schedule(): %s", msg);
		return NULL;
	}
	DB_RUN(self, st, lq_task_edit_schedule(self->db, id, every, cron, tz, &next));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return ms_to_datetime(next);
}

static PyObject *schedule_tuple(void *p)
{
	const lq_schedule *s = p;
	PyObject *v[] = {PyLong_FromLongLong(s->id),
			 PyUnicode_FromString(s->queue),
			 PyUnicode_FromString(s->name),
			 ms_to_seconds(s->every_ms),
			 str_or_none(s->cron),
			 s->cron[0] ? str_or_none(s->tz) : Py_NewRef(Py_None),
			 PyBool_FromLong(s->paused),
			 PyUnicode_FromString(overlap_name(s->overlap)),
			 PyLong_FromLong(s->catch_up),
			 ms_to_seconds(s->alert_after_ms),
			 ms_to_datetime(s->last_success_at),
			 PyFloat_FromDouble((double)s->since_success_ms / 1000.0),
			 PyBool_FromLong(s->overdue),
			 ms_to_datetime(s->run_at),
			 ms_to_datetime(s->next_at),
			 ms_to_datetime(s->created_at)};
	return struct_new(ScheduleType, v, sizeof(v) / sizeof(v[0]));
}

PyObject *Db_schedule(DbObject *self, PyObject *arg)
{
	int64_t id;
	lq_schedule s;
	lq_status st;
	if (id_arg(arg, &id) < 0)
		return NULL;
	DB_RUN(self, st, lq_schedule_get(self->db, id, &s));
	if (st == LQ_NOTFOUND)
		Py_RETURN_NONE;
	if (st != LQ_OK)
		return db_raise(self, st);
	return schedule_tuple(&s);
}

static int collect_schedule(const lq_schedule *s, void *ctx)
{
	lq_schedule *d = collect_add(ctx);
	if (!d)
		return 1;
	*d = *s;
	return 0;
}

PyObject *Db_schedules(DbObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"alerted", NULL};
	int alerted = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p:schedules", kwlist, &alerted))
		return NULL;
	collect c = {.size = sizeof(lq_schedule)};
	lq_status st;
	DB_RUN(self, st, lq_schedule_list(self->db, alerted ? LQ_SCHEDULE_ALERTED : 0, collect_schedule, &c));
	PyObject *res = rows_list(self, st, &c, schedule_tuple);
	free(c.rows);
	return res;
}
