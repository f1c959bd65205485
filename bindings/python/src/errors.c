/*
 * errors.c - the exception hierarchy as the module sees it: raising the
 * class of an lq_status with the library's sentence, and the status names.
 */
#include "leaseq_py.h"

/* Exception classes by lq_status, handed over by leaseq/__init__.py
 * (_leaseq._init) so that the hierarchy is written once, in Python. */
#define NSTATUS (LQ_REVOKED + 1)
static PyObject *g_err[NSTATUS];
static PyObject *g_error;           /* leaseq.Error */

static PyObject *status_class(lq_status st)
{
	if ((int)st >= 0 && (int)st < NSTATUS && g_err[st])
		return g_err[st];
	return g_error ? g_error : PyExc_RuntimeError;
}

/* Raise the exception of st with msg (the library's sentence). */
PyObject *raise_msg(lq_status st, const char *msg, PyObject *holder)
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

PyObject *mod_init(PyObject *m, PyObject *args)
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

PyObject *mod_status_names(PyObject *m, PyObject *unused)
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
