/*
 * module.c - the module leaseq._leaseq: its functions, the Run / QueueInfo /
 * Report struct sequences and the types, put together at import.
 */
#include "leaseq_py.h"

PyObject *g_format_exc_only; /* traceback.format_exception_only */
PyTypeObject *RunType, *QueueType, *ReportType, *LimitType, *ScheduleType;

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
	{"ended_at", NULL},                                  {"outcome", "'done', 'failed', 'timed_out', 'dead' or 'cancelled'"},
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

static PyStructSequence_Field limit_fields[] = {
	{"key", "a concurrency key, or \"queue:\" and a queue name"},
	{"concurrency", "at most this many running at once, or None"},
	{"rate_n", "at most rate_n starts per rate_period, or None"},
	{"rate_period", "seconds, or None"},
	{"running", "live claims of the key now"},
	{"tokens", "starts the rate allows now, or None without a rate"},
	{NULL}};
static PyStructSequence_Desc limit_desc = {"leaseq.Limit", "A limit on a concurrency key or a queue.", limit_fields, 6};

static PyStructSequence_Field schedule_fields[] = {
	{"id", "the recurring task's id"}, {"queue", NULL}, {"name", NULL},
	{"every", "the interval in seconds, or None (cron)"}, {"cron", "the cron expression, or None"},
	{"tz", "the cron time zone, or None (UTC)"}, {"paused", NULL},
	{"overlap", "'default', 'skip', 'queue' or 'cancel-previous'"},
	{"catch_up", "missed occurrences run after downtime: 0 skip, 1 once, N"},
	{"alert_after", "the dead-man bound in seconds, or None"},
	{"last_success_at", "the last successful run, or None"},
	{"since_success", "seconds since the last success (or the creation)"},
	{"overdue", "alert_after set, not paused, and no success for longer"},
	{"run_at", "the row's due time (a run-now's, if pending)"},
	{"next_at", "the regular occurrence a run-now set aside, or None"},
	{"created_at", NULL},
	{NULL}};
static PyStructSequence_Desc schedule_desc = {"leaseq.Schedule", "A recurring task's schedule and its steering.",
					      schedule_fields, 16};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT, "leaseq._leaseq", "The C half of the leaseq module (import leaseq instead).", -1,
	mod_methods,
};

PyMODINIT_FUNC PyInit__leaseq(void)
{
	if (args_init() < 0)
		return NULL;
	PyObject *tb = PyImport_ImportModule("traceback");
	if (!tb)
		return NULL;
	g_format_exc_only = PyObject_GetAttrString(tb, "format_exception_only");
	Py_DECREF(tb);
	if (!g_format_exc_only)
		return NULL;
	RunType = PyStructSequence_NewType(&run_desc);
	QueueType = PyStructSequence_NewType(&queue_desc);
	ReportType = PyStructSequence_NewType(&report_desc);
	LimitType = PyStructSequence_NewType(&limit_desc);
	ScheduleType = PyStructSequence_NewType(&schedule_desc);
	if (!RunType || !QueueType || !ReportType || !LimitType || !ScheduleType)
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
	    PyModule_AddObjectRef(m, "Limit", (PyObject *)LimitType) < 0 ||
	    PyModule_AddObjectRef(m, "Schedule", (PyObject *)ScheduleType) < 0 ||
	    PyModule_AddStringConstant(m, "library_version", lq_version()) < 0 ||
	    PyModule_AddStringConstant(m, "header_version", LEASEQ_VERSION_STRING) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
