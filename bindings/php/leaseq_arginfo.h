/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 962c40612b39892e3b6564a9273ccdb683024359 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Leaseq_Db___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dsn, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, persistent, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_backend, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_migrate, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_now, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Leaseq_Db_acquire, 0, 2, Leaseq\\Lease, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_MASK(0, ttl, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, NULL)
	ZEND_ARG_TYPE_MASK(0, wait, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Leaseq_Db_tryAcquire, 0, 2, Leaseq\\Lease, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_MASK(0, ttl, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_lease, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_breakLease, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_add, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, payload, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_addMany, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, tasks, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_claim, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, queue, IS_STRING, 0, "\"default\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limit, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, atLeastOnce, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_MASK(0, claimTtl, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, "30")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_ack, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, task, Leaseq\\Task, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_fail, 0, 2, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, task, Leaseq\\Task, 0)
	ZEND_ARG_TYPE_INFO(0, error, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_release arginfo_class_Leaseq_Db_ack

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_heartbeat, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, task, Leaseq\\Task, 0)
	ZEND_ARG_TYPE_MASK(0, claimTtl, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, "30")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Leaseq_Db_task, 0, 1, Leaseq\\Task, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_progress, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_result, 0, 1, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_tasks, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, queue, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, dead, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, due, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_history, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, filter, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_queues arginfo_class_Leaseq_Db_migrate

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_cancel, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_remove, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_cancelTask, 0, 1, _IS_BOOL, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, reason, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_partition arginfo_class_Leaseq_Db_result

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_setLimit, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, concurrency, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_MASK(0, rate, MAY_BE_STRING|MAY_BE_ARRAY|MAY_BE_NULL, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_limit, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_limits arginfo_class_Leaseq_Db_migrate

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_removeLimit, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_pauseTask, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, paused, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_runNow arginfo_class_Leaseq_Db_remove

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_editSchedule, 0, 1, IS_LONG, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
	ZEND_ARG_TYPE_MASK(0, every, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING|MAY_BE_NULL, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, cron, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, tz, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_schedule arginfo_class_Leaseq_Db_progress

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Db_schedules, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, alerted, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Db_close arginfo_class_Leaseq_Db_cancel

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Leaseq_Lease___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Lease_renew, 0, 0, IS_VOID, 0)
	ZEND_ARG_TYPE_MASK(0, ttl, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING|MAY_BE_NULL, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Lease_release, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Lease_isHeld arginfo_class_Leaseq_Lease_release

#define arginfo_class_Leaseq_Lease_promote arginfo_class_Leaseq_Db_cancel

#define arginfo_class_Leaseq_Lease_demote arginfo_class_Leaseq_Db_cancel

#define arginfo_class_Leaseq_Lease_encode arginfo_class_Leaseq_Db_backend

#define arginfo_class_Leaseq_Lease_detach arginfo_class_Leaseq_Db_cancel

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Leaseq_Lease_decode, 0, 2, Leaseq\\Lease, 0)
	ZEND_ARG_OBJ_INFO(0, db, Leaseq\\Db, 0)
	ZEND_ARG_TYPE_INFO(0, handle, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Task___construct arginfo_class_Leaseq_Lease___construct

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Leaseq_Worker___construct, 0, 0, 1)
	ZEND_ARG_OBJ_INFO(0, db, Leaseq\\Db, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, queues, IS_ARRAY, 0, "[\"default\"]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Worker_handle, 0, 2, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, handler, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Worker_run, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, drain, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Worker_stop arginfo_class_Leaseq_Db_cancel

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Worker_progress, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, percent, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, message, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Worker_snooze, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_MASK(0, delay, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, NULL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Worker_setResult, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_Runner_tick, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_OBJ_INFO(0, db, Leaseq\\Db, 0)
	ZEND_ARG_TYPE_INFO(0, handlers, IS_ARRAY, 0)
	ZEND_ARG_TYPE_MASK(0, budget, MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_Leaseq_Exception_getStatusName arginfo_class_Leaseq_Db_backend

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Leaseq_BusyException_getHolder, 0, 0, IS_ARRAY, 1)
ZEND_END_ARG_INFO()


ZEND_METHOD(Leaseq_Db, __construct);
ZEND_METHOD(Leaseq_Db, backend);
ZEND_METHOD(Leaseq_Db, migrate);
ZEND_METHOD(Leaseq_Db, now);
ZEND_METHOD(Leaseq_Db, acquire);
ZEND_METHOD(Leaseq_Db, tryAcquire);
ZEND_METHOD(Leaseq_Db, lease);
ZEND_METHOD(Leaseq_Db, breakLease);
ZEND_METHOD(Leaseq_Db, add);
ZEND_METHOD(Leaseq_Db, addMany);
ZEND_METHOD(Leaseq_Db, claim);
ZEND_METHOD(Leaseq_Db, ack);
ZEND_METHOD(Leaseq_Db, fail);
ZEND_METHOD(Leaseq_Db, release);
ZEND_METHOD(Leaseq_Db, heartbeat);
ZEND_METHOD(Leaseq_Db, task);
ZEND_METHOD(Leaseq_Db, progress);
ZEND_METHOD(Leaseq_Db, result);
ZEND_METHOD(Leaseq_Db, tasks);
ZEND_METHOD(Leaseq_Db, history);
ZEND_METHOD(Leaseq_Db, queues);
ZEND_METHOD(Leaseq_Db, cancel);
ZEND_METHOD(Leaseq_Db, remove);
ZEND_METHOD(Leaseq_Db, cancelTask);
ZEND_METHOD(Leaseq_Db, partition);
ZEND_METHOD(Leaseq_Db, setLimit);
ZEND_METHOD(Leaseq_Db, limit);
ZEND_METHOD(Leaseq_Db, limits);
ZEND_METHOD(Leaseq_Db, removeLimit);
ZEND_METHOD(Leaseq_Db, pauseTask);
ZEND_METHOD(Leaseq_Db, runNow);
ZEND_METHOD(Leaseq_Db, editSchedule);
ZEND_METHOD(Leaseq_Db, schedule);
ZEND_METHOD(Leaseq_Db, schedules);
ZEND_METHOD(Leaseq_Db, close);
ZEND_METHOD(Leaseq_Lease, __construct);
ZEND_METHOD(Leaseq_Lease, renew);
ZEND_METHOD(Leaseq_Lease, release);
ZEND_METHOD(Leaseq_Lease, isHeld);
ZEND_METHOD(Leaseq_Lease, promote);
ZEND_METHOD(Leaseq_Lease, demote);
ZEND_METHOD(Leaseq_Lease, encode);
ZEND_METHOD(Leaseq_Lease, detach);
ZEND_METHOD(Leaseq_Lease, decode);
ZEND_METHOD(Leaseq_Task, __construct);
ZEND_METHOD(Leaseq_Worker, __construct);
ZEND_METHOD(Leaseq_Worker, handle);
ZEND_METHOD(Leaseq_Worker, run);
ZEND_METHOD(Leaseq_Worker, stop);
ZEND_METHOD(Leaseq_Worker, progress);
ZEND_METHOD(Leaseq_Worker, snooze);
ZEND_METHOD(Leaseq_Worker, setResult);
ZEND_METHOD(Leaseq_Runner, tick);
ZEND_METHOD(Leaseq_Exception, getStatusName);
ZEND_METHOD(Leaseq_BusyException, getHolder);


static const zend_function_entry class_Leaseq_Db_methods[] = {
	ZEND_ME(Leaseq_Db, __construct, arginfo_class_Leaseq_Db___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, backend, arginfo_class_Leaseq_Db_backend, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, migrate, arginfo_class_Leaseq_Db_migrate, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, now, arginfo_class_Leaseq_Db_now, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, acquire, arginfo_class_Leaseq_Db_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, tryAcquire, arginfo_class_Leaseq_Db_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, lease, arginfo_class_Leaseq_Db_lease, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, breakLease, arginfo_class_Leaseq_Db_breakLease, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, add, arginfo_class_Leaseq_Db_add, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, addMany, arginfo_class_Leaseq_Db_addMany, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, claim, arginfo_class_Leaseq_Db_claim, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, ack, arginfo_class_Leaseq_Db_ack, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, fail, arginfo_class_Leaseq_Db_fail, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, release, arginfo_class_Leaseq_Db_release, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, heartbeat, arginfo_class_Leaseq_Db_heartbeat, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, task, arginfo_class_Leaseq_Db_task, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, progress, arginfo_class_Leaseq_Db_progress, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, result, arginfo_class_Leaseq_Db_result, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, tasks, arginfo_class_Leaseq_Db_tasks, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, history, arginfo_class_Leaseq_Db_history, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, queues, arginfo_class_Leaseq_Db_queues, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, cancel, arginfo_class_Leaseq_Db_cancel, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, remove, arginfo_class_Leaseq_Db_remove, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, cancelTask, arginfo_class_Leaseq_Db_cancelTask, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, partition, arginfo_class_Leaseq_Db_partition, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, setLimit, arginfo_class_Leaseq_Db_setLimit, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, limit, arginfo_class_Leaseq_Db_limit, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, limits, arginfo_class_Leaseq_Db_limits, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, removeLimit, arginfo_class_Leaseq_Db_removeLimit, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, pauseTask, arginfo_class_Leaseq_Db_pauseTask, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, runNow, arginfo_class_Leaseq_Db_runNow, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, editSchedule, arginfo_class_Leaseq_Db_editSchedule, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, schedule, arginfo_class_Leaseq_Db_schedule, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, schedules, arginfo_class_Leaseq_Db_schedules, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Db, close, arginfo_class_Leaseq_Db_close, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_Lease_methods[] = {
	ZEND_ME(Leaseq_Lease, __construct, arginfo_class_Leaseq_Lease___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Leaseq_Lease, renew, arginfo_class_Leaseq_Lease_renew, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, release, arginfo_class_Leaseq_Lease_release, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, isHeld, arginfo_class_Leaseq_Lease_isHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, promote, arginfo_class_Leaseq_Lease_promote, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, demote, arginfo_class_Leaseq_Lease_demote, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, encode, arginfo_class_Leaseq_Lease_encode, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, detach, arginfo_class_Leaseq_Lease_detach, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Lease, decode, arginfo_class_Leaseq_Lease_decode, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_Task_methods[] = {
	ZEND_ME(Leaseq_Task, __construct, arginfo_class_Leaseq_Task___construct, ZEND_ACC_PRIVATE)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_Worker_methods[] = {
	ZEND_ME(Leaseq_Worker, __construct, arginfo_class_Leaseq_Worker___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Worker, handle, arginfo_class_Leaseq_Worker_handle, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Worker, run, arginfo_class_Leaseq_Worker_run, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Worker, stop, arginfo_class_Leaseq_Worker_stop, ZEND_ACC_PUBLIC)
	ZEND_ME(Leaseq_Worker, progress, arginfo_class_Leaseq_Worker_progress, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Leaseq_Worker, snooze, arginfo_class_Leaseq_Worker_snooze, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Leaseq_Worker, setResult, arginfo_class_Leaseq_Worker_setResult, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_Runner_methods[] = {
	ZEND_ME(Leaseq_Runner, tick, arginfo_class_Leaseq_Runner_tick, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_Exception_methods[] = {
	ZEND_ME(Leaseq_Exception, getStatusName, arginfo_class_Leaseq_Exception_getStatusName, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_BusyException_methods[] = {
	ZEND_ME(Leaseq_BusyException, getHolder, arginfo_class_Leaseq_BusyException_getHolder, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_LostException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_NotFoundException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_SchemaException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_ConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_UnknownOutcomeException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_TimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_CanceledException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_TransactionOpenException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_NoDatabaseException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_CreateException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_PermissionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_NotDatabaseException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Leaseq_RevokedException_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_Leaseq_Db(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Db", class_Leaseq_Db_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_Lease(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Lease", class_Leaseq_Lease_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval property_name_default_value;
	ZVAL_UNDEF(&property_name_default_value);
	zend_string *property_name_name = zend_string_init("name", sizeof("name") - 1, 1);
	zend_declare_typed_property(class_entry, property_name_name, &property_name_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_name_name);

	zval property_owner_default_value;
	ZVAL_UNDEF(&property_owner_default_value);
	zend_string *property_owner_name = zend_string_init("owner", sizeof("owner") - 1, 1);
	zend_declare_typed_property(class_entry, property_owner_name, &property_owner_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_owner_name);

	zval property_token_default_value;
	ZVAL_UNDEF(&property_token_default_value);
	zend_string *property_token_name = zend_string_init("token", sizeof("token") - 1, 1);
	zend_declare_typed_property(class_entry, property_token_name, &property_token_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_token_name);

	zval property_kind_default_value;
	ZVAL_UNDEF(&property_kind_default_value);
	zend_string *property_kind_name = zend_string_init("kind", sizeof("kind") - 1, 1);
	zend_declare_typed_property(class_entry, property_kind_name, &property_kind_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_kind_name);

	zval property_slots_default_value;
	ZVAL_UNDEF(&property_slots_default_value);
	zend_string *property_slots_name = zend_string_init("slots", sizeof("slots") - 1, 1);
	zend_declare_typed_property(class_entry, property_slots_name, &property_slots_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_slots_name);

	zval property_slot_default_value;
	ZVAL_UNDEF(&property_slot_default_value);
	zend_string *property_slot_name = zend_string_init("slot", sizeof("slot") - 1, 1);
	zend_declare_typed_property(class_entry, property_slot_name, &property_slot_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_slot_name);

	zval property_expiresAt_default_value;
	ZVAL_UNDEF(&property_expiresAt_default_value);
	zend_string *property_expiresAt_name = zend_string_init("expiresAt", sizeof("expiresAt") - 1, 1);
	zend_declare_typed_property(class_entry, property_expiresAt_name, &property_expiresAt_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_expiresAt_name);

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_Task(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Task", class_Leaseq_Task_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval property_id_default_value;
	ZVAL_UNDEF(&property_id_default_value);
	zend_string *property_id_name = zend_string_init("id", sizeof("id") - 1, 1);
	zend_declare_typed_property(class_entry, property_id_name, &property_id_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_id_name);

	zval property_name_default_value;
	ZVAL_UNDEF(&property_name_default_value);
	zend_string *property_name_name = zend_string_init("name", sizeof("name") - 1, 1);
	zend_declare_typed_property(class_entry, property_name_name, &property_name_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_name_name);

	zval property_queue_default_value;
	ZVAL_UNDEF(&property_queue_default_value);
	zend_string *property_queue_name = zend_string_init("queue", sizeof("queue") - 1, 1);
	zend_declare_typed_property(class_entry, property_queue_name, &property_queue_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_queue_name);

	zval property_payload_default_value;
	ZVAL_UNDEF(&property_payload_default_value);
	zend_string *property_payload_name = zend_string_init("payload", sizeof("payload") - 1, 1);
	zend_declare_typed_property(class_entry, property_payload_name, &property_payload_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_payload_name);

	zval property_attempts_default_value;
	ZVAL_UNDEF(&property_attempts_default_value);
	zend_string *property_attempts_name = zend_string_init("attempts", sizeof("attempts") - 1, 1);
	zend_declare_typed_property(class_entry, property_attempts_name, &property_attempts_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_attempts_name);

	zval property_maxAttempts_default_value;
	ZVAL_UNDEF(&property_maxAttempts_default_value);
	zend_string *property_maxAttempts_name = zend_string_init("maxAttempts", sizeof("maxAttempts") - 1, 1);
	zend_declare_typed_property(class_entry, property_maxAttempts_name, &property_maxAttempts_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_maxAttempts_name);

	zval property_priority_default_value;
	ZVAL_UNDEF(&property_priority_default_value);
	zend_string *property_priority_name = zend_string_init("priority", sizeof("priority") - 1, 1);
	zend_declare_typed_property(class_entry, property_priority_name, &property_priority_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_priority_name);

	zval property_runAtMs_default_value;
	ZVAL_UNDEF(&property_runAtMs_default_value);
	zend_string *property_runAtMs_name = zend_string_init("runAtMs", sizeof("runAtMs") - 1, 1);
	zend_declare_typed_property(class_entry, property_runAtMs_name, &property_runAtMs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_runAtMs_name);

	zval property_uniqueKey_default_value;
	ZVAL_UNDEF(&property_uniqueKey_default_value);
	zend_string *property_uniqueKey_name = zend_string_init("uniqueKey", sizeof("uniqueKey") - 1, 1);
	zend_declare_typed_property(class_entry, property_uniqueKey_name, &property_uniqueKey_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_uniqueKey_name);

	zval property_lastError_default_value;
	ZVAL_UNDEF(&property_lastError_default_value);
	zend_string *property_lastError_name = zend_string_init("lastError", sizeof("lastError") - 1, 1);
	zend_declare_typed_property(class_entry, property_lastError_name, &property_lastError_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_lastError_name);

	zval property_atLeastOnce_default_value;
	ZVAL_UNDEF(&property_atLeastOnce_default_value);
	zend_string *property_atLeastOnce_name = zend_string_init("atLeastOnce", sizeof("atLeastOnce") - 1, 1);
	zend_declare_typed_property(class_entry, property_atLeastOnce_name, &property_atLeastOnce_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_BOOL));
	zend_string_release(property_atLeastOnce_name);

	zval property_recurring_default_value;
	ZVAL_UNDEF(&property_recurring_default_value);
	zend_string *property_recurring_name = zend_string_init("recurring", sizeof("recurring") - 1, 1);
	zend_declare_typed_property(class_entry, property_recurring_name, &property_recurring_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_BOOL));
	zend_string_release(property_recurring_name);

	zval property_timeoutMs_default_value;
	ZVAL_UNDEF(&property_timeoutMs_default_value);
	zend_string *property_timeoutMs_name = zend_string_init("timeoutMs", sizeof("timeoutMs") - 1, 1);
	zend_declare_typed_property(class_entry, property_timeoutMs_name, &property_timeoutMs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_timeoutMs_name);

	zval property_dead_default_value;
	ZVAL_UNDEF(&property_dead_default_value);
	zend_string *property_dead_name = zend_string_init("dead", sizeof("dead") - 1, 1);
	zend_declare_typed_property(class_entry, property_dead_name, &property_dead_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_BOOL));
	zend_string_release(property_dead_name);

	zval property_createdAtMs_default_value;
	ZVAL_UNDEF(&property_createdAtMs_default_value);
	zend_string *property_createdAtMs_name = zend_string_init("createdAtMs", sizeof("createdAtMs") - 1, 1);
	zend_declare_typed_property(class_entry, property_createdAtMs_name, &property_createdAtMs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_createdAtMs_name);

	zval property_everyMs_default_value;
	ZVAL_UNDEF(&property_everyMs_default_value);
	zend_string *property_everyMs_name = zend_string_init("everyMs", sizeof("everyMs") - 1, 1);
	zend_declare_typed_property(class_entry, property_everyMs_name, &property_everyMs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_everyMs_name);

	zval property_cron_default_value;
	ZVAL_UNDEF(&property_cron_default_value);
	zend_string *property_cron_name = zend_string_init("cron", sizeof("cron") - 1, 1);
	zend_declare_typed_property(class_entry, property_cron_name, &property_cron_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_cron_name);

	zval property_tz_default_value;
	ZVAL_UNDEF(&property_tz_default_value);
	zend_string *property_tz_name = zend_string_init("tz", sizeof("tz") - 1, 1);
	zend_declare_typed_property(class_entry, property_tz_name, &property_tz_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_tz_name);

	zval property_concurrencyKey_default_value;
	ZVAL_UNDEF(&property_concurrencyKey_default_value);
	zend_string *property_concurrencyKey_name = zend_string_init("concurrencyKey", sizeof("concurrencyKey") - 1, 1);
	zend_declare_typed_property(class_entry, property_concurrencyKey_name, &property_concurrencyKey_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_concurrencyKey_name);

	zval property_partition_default_value;
	ZVAL_UNDEF(&property_partition_default_value);
	zend_string *property_partition_name = zend_string_init("partition", sizeof("partition") - 1, 1);
	zend_declare_typed_property(class_entry, property_partition_name, &property_partition_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING|MAY_BE_NULL));
	zend_string_release(property_partition_name);

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_Worker(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Worker", class_Leaseq_Worker_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_Runner(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Runner", class_Leaseq_Runner_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_Exception(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "Exception", class_Leaseq_Exception_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_BusyException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "BusyException", class_Leaseq_BusyException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	zval property_holder_default_value;
	ZVAL_NULL(&property_holder_default_value);
	zend_string *property_holder_name = zend_string_init("holder", sizeof("holder") - 1, 1);
	zend_declare_typed_property(class_entry, property_holder_name, &property_holder_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY|MAY_BE_NULL));
	zend_string_release(property_holder_name);

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_LostException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "LostException", class_Leaseq_LostException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_NotFoundException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "NotFoundException", class_Leaseq_NotFoundException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_SchemaException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "SchemaException", class_Leaseq_SchemaException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_ConnectionException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "ConnectionException", class_Leaseq_ConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_UnknownOutcomeException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "UnknownOutcomeException", class_Leaseq_UnknownOutcomeException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_TimeoutException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "TimeoutException", class_Leaseq_TimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_CanceledException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "CanceledException", class_Leaseq_CanceledException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_TransactionOpenException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "TransactionOpenException", class_Leaseq_TransactionOpenException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_NoDatabaseException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "NoDatabaseException", class_Leaseq_NoDatabaseException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_CreateException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "CreateException", class_Leaseq_CreateException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_PermissionException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "PermissionException", class_Leaseq_PermissionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_NotDatabaseException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "NotDatabaseException", class_Leaseq_NotDatabaseException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Leaseq_RevokedException(zend_class_entry *class_entry_Leaseq_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Leaseq", "RevokedException", class_Leaseq_RevokedException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Leaseq_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
