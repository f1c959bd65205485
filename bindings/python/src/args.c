/*
 * args.c - conversions between Python values and the library's: durations,
 * times, names and bounded ints, checked as the library would check them.
 */
#include "leaseq_py.h"

#include <datetime.h>
#include <math.h>

static PyObject *g_epoch; /* datetime(1970, 1, 1, tzinfo=utc) */

/* The datetime C API is reached through a pointer of each translation
 * unit (datetime.h makes it static): this file imports it for itself. */
int args_init(void)
{
	PyDateTime_IMPORT;
	if (!PyDateTimeAPI)
		return -1;
	g_epoch = PyDateTimeAPI->DateTime_FromDateAndTime(1970, 1, 1, 0, 0, 0, 0, PyDateTime_TimeZone_UTC,
							  PyDateTimeAPI->DateTimeType);
	return g_epoch ? 0 : -1;
}

PyObject *ms_to_datetime(int64_t ms)
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

PyObject *ms_to_seconds(int64_t ms)
{
	if (ms <= 0)
		Py_RETURN_NONE;
	return PyFloat_FromDouble((double)ms / 1000.0);
}

/* A duration: a number of seconds (int or float), a leaseq duration string
 * ("250ms", "30s") or a datetime.timedelta.  Negative is refused. */
int duration_ms(PyObject *o, const char *what, int64_t *ms)
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
int time_ms(PyObject *o, const char *what, int64_t *ms)
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
const char *name_arg(PyObject *o, const char *what)
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

const char *opt_name_arg(PyObject *o, const char *what)
{
	return o == Py_None ? NULL : name_arg(o, what);
}

int int_arg(PyObject *o, const char *what, long lo, long hi, int *out)
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

PyObject *mod_parse_duration(PyObject *m, PyObject *arg)
{
	int64_t ms;
	if (duration_ms(arg, "duration", &ms) < 0)
		return NULL;
	return PyFloat_FromDouble((double)ms / 1000.0);
}
