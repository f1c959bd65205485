/*
 * lease.c - leaseq.Lease and the lease calls of leaseq.Db.
 */
#include "leaseq_py.h"

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

PyObject *Db_lease(DbObject *self, PyObject *args, PyObject *kw)
{
	return db_take(self, args, kw, 0);
}

PyObject *Db_try_lease(DbObject *self, PyObject *args, PyObject *kw)
{
	return db_take(self, args, kw, 1);
}

PyObject *Db_lease_from(DbObject *self, PyObject *args, PyObject *kw)
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

PyObject *Db_lease_info(DbObject *self, PyObject *arg)
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

PyObject *Db_break_lease(DbObject *self, PyObject *arg)
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

PyTypeObject LeaseType = {
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
