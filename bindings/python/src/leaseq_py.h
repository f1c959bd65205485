/*
 * leaseq_py.h - the C half of the leaseq Python module: thin Python objects
 * over lib/leaseq.h (a Db is one lq_db, a Lease one lq_lease, a Task one
 * lq_task).  Every call that may touch the database runs with the GIL
 * released and under the handle's own mutex; the Python half (leaseq/)
 * holds the exception classes, the worker loop and the cursor enqueue.
 * What the concept files (args, errors, db, lease, task, worker, module)
 * share is declared here.
 */
#ifndef LEASEQ_PY_H
#define LEASEQ_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <structseq.h>

#include <stdlib.h>
#include <string.h>

#include <leaseq.h>

/* Shared between the files of one module only: not exported from the .so
 * (PyInit__leaseq is, through PyMODINIT_FUNC). */
#pragma GCC visibility push(hidden)

extern PyObject *g_format_exc_only; /* traceback.format_exception_only */
extern PyTypeObject *RunType, *QueueType, *ReportType, *LimitType, *ScheduleType;

extern PyTypeObject DbType, LeaseType, TaskType, JobType, RunnerType;

/* args.c */
int args_init(void); /* the datetime C API and the epoch */
PyObject *ms_to_datetime(int64_t ms);
PyObject *ms_to_seconds(int64_t ms);
int duration_ms(PyObject *o, const char *what, int64_t *ms);
int time_ms(PyObject *o, const char *what, int64_t *ms);
const char *name_arg(PyObject *o, const char *what);
const char *opt_name_arg(PyObject *o, const char *what);
int int_arg(PyObject *o, const char *what, long lo, long hi, int *out);
PyObject *mod_parse_duration(PyObject *m, PyObject *arg);

/* errors.c */
PyObject *raise_msg(lq_status st, const char *msg, PyObject *holder);
PyObject *mod_init(PyObject *m, PyObject *args);
PyObject *mod_status_names(PyObject *m, PyObject *unused);

/* db.c */
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

int db_enter(DbObject *self);
void db_leave(DbObject *self);
PyObject *db_raise(DbObject *self, lq_status st);
PyObject *db_none(DbObject *self, lq_status st);
PyObject *mod_redact(PyObject *m, PyObject *arg);

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

/* lease.c */
PyObject *Db_lease(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_try_lease(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_lease_from(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_lease_info(DbObject *self, PyObject *arg);
PyObject *Db_break_lease(DbObject *self, PyObject *arg);

/* task.c */
#define CLAIM_MAX 1000

/* Callbacks that collect rows run without the GIL (inside the C call): they
 * copy into a C array, and the Python objects are made afterwards. */
typedef struct {
	void *rows;
	size_t n, cap, size;
	int nomem;
} collect;
void *collect_add(collect *c);
/* The list of c's rows, each made by make(row); NULL with the exception of
 * st, or of a row that could not be made.  The caller frees the rows. */
PyObject *rows_list(DbObject *self, lq_status st, const collect *c, PyObject *(*make)(void *row));
PyObject *str_or_none(const char *s);
int id_arg(PyObject *o, int64_t *id);
PyObject *db_found(DbObject *self, lq_status st);
PyObject *db_by_id(DbObject *self, PyObject *arg, lq_status (*fn)(lq_db *, int64_t));
PyObject *struct_new(PyTypeObject *type, PyObject **v, size_t n);

PyObject *task_from_copy(const lq_task *t);
PyObject *Db_add(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_add_many(DbObject *self, PyObject *items);
PyObject *Db_claim(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_ack(DbObject *self, PyObject *arg);
PyObject *Db_release(DbObject *self, PyObject *arg);
PyObject *Db_fail(DbObject *self, PyObject *args);
PyObject *Db_heartbeat(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_get(DbObject *self, PyObject *arg);
PyObject *Db_remove(DbObject *self, PyObject *arg);
PyObject *Db_progress(DbObject *self, PyObject *arg);
PyObject *Db_result(DbObject *self, PyObject *arg);
PyObject *Db_retry(DbObject *self, PyObject *arg);
PyObject *Db_list(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_history(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_queues(DbObject *self, PyObject *unused);
PyObject *Db_pause_queue(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_stats(DbObject *self, PyObject *unused);
PyObject *mod_enqueue_pgconn(PyObject *m, PyObject *args);
PyObject *mod_check_task(PyObject *m, PyObject *items);

/* flow.c */
PyObject *Db_cancel_task(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_partition(DbObject *self, PyObject *arg);
PyObject *Db_set_limit(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_limit(DbObject *self, PyObject *arg);
PyObject *Db_limits(DbObject *self, PyObject *unused);
PyObject *Db_remove_limit(DbObject *self, PyObject *arg);
PyObject *Db_pause_task(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_run_now(DbObject *self, PyObject *arg);
PyObject *Db_edit_schedule(DbObject *self, PyObject *args, PyObject *kw);
PyObject *Db_schedule(DbObject *self, PyObject *arg);
PyObject *Db_schedules(DbObject *self, PyObject *args, PyObject *kw);
int overlap_arg(PyObject *o, lq_overlap *out);
const char *overlap_name(lq_overlap o);

/* worker.c */
PyObject *mod_async_raise(PyObject *m, PyObject *args);

#pragma GCC visibility pop

#endif
