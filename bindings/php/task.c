/*
 * task.c - Leaseq\Task and the task calls of Leaseq\Db: enqueue (one or
 * many, all or nothing), claim, settle, read, the run history and queues.
 */
#include "php_leaseq.h"
#include "zend_exceptions.h"

static zend_object_handlers task_handlers;

static zend_object *task_create(zend_class_entry *ce)
{
	lq_php_task *to = zend_object_alloc(sizeof(lq_php_task), ce);
	zend_object_std_init(&to->std, ce);
	object_properties_init(&to->std, ce);
	to->std.handlers = &task_handlers;
	return &to->std;
}

void lq_php_task_minit(void)
{
	lq_php_ce_task->create_object = task_create;
	memcpy(&task_handlers, zend_get_std_object_handlers(), sizeof(task_handlers));
	task_handlers.offset = XtOffsetOf(lq_php_task, std);
	task_handlers.clone_obj = NULL;
}

/* A Task object from t (t keeps what it owns: the object copies it). */
void lq_php_task_new(zval *out, const lq_task *t)
{
	object_init_ex(out, lq_php_ce_task);
	zend_object *o = Z_OBJ_P(out);
	lq_php_task *to = lq_php_task_from(o);
	to->t = *t;
	to->t.payload = NULL;
	to->t.payload_len = 0;
	to->t.last_error = NULL;
	to->valid = true;
	lq_php_prop_long(o, "id", (zend_long)t->id);
	lq_php_prop_str(o, "name", t->name);
	lq_php_prop_str(o, "queue", t->queue);
	zval p;
	if (t->payload)
		ZVAL_STRINGL(&p, (const char *)t->payload, t->payload_len);
	else
		ZVAL_NULL(&p);
	lq_php_prop(o, "payload", &p);
	lq_php_prop_long(o, "attempts", t->attempts);
	lq_php_prop_long(o, "maxAttempts", t->max_attempts);
	lq_php_prop_long(o, "priority", t->priority);
	lq_php_prop_long(o, "runAtMs", (zend_long)t->run_at);
	lq_php_prop_str(o, "uniqueKey", t->unique_key[0] ? t->unique_key : NULL);
	lq_php_prop_str(o, "lastError", t->last_error);
	lq_php_prop_bool(o, "atLeastOnce", t->mode == LQ_AT_LEAST_ONCE);
	lq_php_prop_bool(o, "recurring", t->recurring || t->every_ms > 0 || t->cron[0]);
	lq_php_prop_long(o, "timeoutMs", (zend_long)t->timeout_ms);
	lq_php_prop_bool(o, "dead", t->dead != 0);
	lq_php_prop_long(o, "createdAtMs", (zend_long)t->created_at);
	/* lq_task_list reads the schedule too (only the payload is left out). */
	lq_php_prop_long(o, "everyMs", (zend_long)t->every_ms);
	lq_php_prop_str(o, "cron", t->cron[0] ? t->cron : NULL);
	lq_php_prop_str(o, "tz", t->cron[0] && t->tz[0] ? t->tz : NULL);
	lq_php_prop_str(o, "concurrencyKey", t->concurrency_key[0] ? t->concurrency_key : NULL);
	lq_php_prop_str(o, "partition", t->partition[0] ? t->partition : NULL);
}

lq_php_task *lq_php_task_get(zend_object *obj)
{
	lq_php_task *to = lq_php_task_from(obj);
	if (!to->valid) {
		zend_throw_error(NULL, "Leaseq\\Task was not made by Leaseq\\Db");
		return NULL;
	}
	return to;
}

ZEND_METHOD(Leaseq_Task, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

/* add()'s options into o.  allow_name: addMany's items, which also carry
 * 'name' and 'payload' (payload_keep gets the payload string).  Strings in o
 * point into opts' values, which outlive the call. */
int lq_php_task_opts(HashTable *opts, uint32_t arg, bool allow_name, lq_task_opts *o, const char **name,
		     zend_string **payload_keep)
{
	zend_string *k;
	zval *v;
	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, k, v) {
		zend_long n;
		if (!k) {
			lq_php_unknown_option(arg, k);
			return -1;
		}
		ZVAL_DEREF(v);
		if (allow_name && zend_string_equals_literal(k, "name")) {
			if (lq_php_cstring(v, arg, "name", name) < 0)
				return -1;
		} else if (allow_name && zend_string_equals_literal(k, "payload")) {
			if (Z_TYPE_P(v) == IS_NULL)
				continue;
			if (Z_TYPE_P(v) != IS_STRING) {
				zend_argument_type_error(arg, "option \"payload\" must be of type ?string, %s given",
							 zend_zval_type_name(v));
				return -1;
			}
			*payload_keep = Z_STR_P(v);
			o->payload = Z_STRVAL_P(v);
			o->payload_len = Z_STRLEN_P(v);
		} else if (zend_string_equals_literal(k, "queue")) {
			if (lq_php_cstring(v, arg, "queue", &o->queue) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "delay")) {
			if (lq_php_duration(v, arg, "delay", &o->delay_ms) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "runAt")) {
			if (Z_TYPE_P(v) != IS_NULL && lq_php_epoch_ms(v, arg, "runAt", &o->run_at) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "unique")) {
			if (Z_TYPE_P(v) != IS_NULL && lq_php_cstring(v, arg, "unique", &o->unique_key) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "priority")) {
			if (lq_php_long(v, arg, "priority", &n) < 0)
				return -1;
			if (n < INT_MIN || n > INT_MAX) {
				zend_argument_value_error(arg, "option \"priority\" is out of range");
				return -1;
			}
			o->priority = (int)n;
		} else if (zend_string_equals_literal(k, "timeout")) {
			if (lq_php_duration(v, arg, "timeout", &o->timeout_ms) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "maxAttempts")) {
			if (lq_php_long(v, arg, "maxAttempts", &n) < 0)
				return -1;
			if (n < 1 || n > LQ_MAX_ATTEMPTS_MAX) {
				zend_argument_value_error(arg, "option \"maxAttempts\" must be between 1 and %d",
							  LQ_MAX_ATTEMPTS_MAX);
				return -1;
			}
			o->max_attempts = (int)n;
		} else if (zend_string_equals_literal(k, "every")) {
			if (lq_php_duration(v, arg, "every", &o->every_ms) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "cron")) {
			if (lq_php_cstring(v, arg, "cron", &o->cron) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "tz")) {
			if (lq_php_cstring(v, arg, "tz", &o->tz) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "concurrencyKey")) {
			if (Z_TYPE_P(v) != IS_NULL && lq_php_cstring(v, arg, "concurrencyKey", &o->concurrency_key) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "partition")) {
			if (Z_TYPE_P(v) != IS_NULL && lq_php_cstring(v, arg, "partition", &o->partition) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "overlap")) {
			if (lq_php_overlap(v, arg, &o->overlap) < 0)
				return -1;
		} else if (zend_string_equals_literal(k, "catchUp")) {
			if (lq_php_long(v, arg, "catchUp", &n) < 0)
				return -1;
			if (n < 1 || n > LQ_CATCH_UP_MAX) {
				zend_argument_value_error(arg, "option \"catchUp\" must be between 1 and %d", LQ_CATCH_UP_MAX);
				return -1;
			}
			o->catch_up = (int)n;
		} else if (zend_string_equals_literal(k, "alertAfter")) {
			if (lq_php_duration(v, arg, "alertAfter", &o->alert_after_ms) < 0)
				return -1;
			if (o->alert_after_ms <= 0) {
				zend_argument_value_error(arg, "option \"alertAfter\" must be positive");
				return -1;
			}
		} else {
			lq_php_unknown_option(arg, k);
			return -1;
		}
	} ZEND_HASH_FOREACH_END();
	if ((o->overlap || o->catch_up || o->alert_after_ms) && !o->every_ms && !o->cron) {
		zend_argument_value_error(arg, "options \"overlap\", \"catchUp\" and \"alertAfter\" need \"every\" or \"cron\"");
		return -1;
	}
	const char *flow[2] = {o->concurrency_key, o->partition};
	static const char *const flow_opt[2] = {"concurrencyKey", "partition"};
	for (int i = 0; i < 2; i++) {
		char msg[256];
		if (flow[i] && lq_check_name(flow_opt[i], flow[i], msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(arg, "option \"%s\" is not valid: %s", flow_opt[i], msg);
			return -1;
		}
	}
	if (o->concurrency_key && !strncmp(o->concurrency_key, "queue:", 6)) {
		zend_argument_value_error(arg, "option \"concurrencyKey\" must not start with \"queue:\"");
		return -1;
	}
	if (o->queue) {
		char msg[256];
		if (lq_check_name("queue", o->queue, msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(arg, "option \"queue\" is not valid: %s", msg);
			return -1;
		}
	}
	if (o->cron || o->tz) {
		char msg[256];
		if (!o->cron) {
			zend_argument_value_error(arg, "option \"tz\" needs \"cron\"");
			return -1;
		}
		if (lq_check_schedule(o->cron, o->tz, msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(arg, "option \"cron\" is not valid: %s", msg);
			return -1;
		}
	}
	return 0;
}

ZEND_METHOD(Leaseq_Db, add)
{
	zend_string *name, *payload = NULL;
	HashTable *opts = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(name)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(payload)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	if (lq_php_name("task name", name, 1) < 0)
		RETURN_THROWS();
	if (payload) {
		if (ZSTR_LEN(payload) > LQ_PAYLOAD_MAX) {
			zend_argument_value_error(2, "must be at most %d bytes", LQ_PAYLOAD_MAX);
			RETURN_THROWS();
		}
		o.payload = ZSTR_VAL(payload);
		o.payload_len = ZSTR_LEN(payload);
	}
	if (opts && lq_php_task_opts(opts, 3, false, &o, NULL, NULL) < 0)
		RETURN_THROWS();
	int64_t id = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_add(dbo->db, ZSTR_VAL(name), &o, &id, NULL));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task %s: %s", ZSTR_VAL(name), lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)id);
}

ZEND_METHOD(Leaseq_Db, addMany)
{
	HashTable *tasks;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(tasks)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	size_t n = zend_hash_num_elements(tasks), i = 0;
	array_init(return_value);
	if (n == 0)
		return;
	const char **names = ecalloc(n, sizeof(*names));
	lq_task_opts *opts = ecalloc(n, sizeof(*opts));
	const lq_task_opts **optp = ecalloc(n, sizeof(*optp));
	int64_t *ids = ecalloc(n, sizeof(*ids));
	zval *item;
	ZEND_HASH_FOREACH_VAL(tasks, item) {
		ZVAL_DEREF(item);
		lq_task_opts init = LQ_TASK_OPTS_INIT;
		zend_string *keep = NULL;
		opts[i] = init;
		optp[i] = &opts[i];
		if (Z_TYPE_P(item) != IS_ARRAY) {
			zend_argument_type_error(1, "must be a list of arrays, %s found", zend_zval_type_name(item));
			goto out;
		}
		if (lq_php_task_opts(Z_ARRVAL_P(item), 1, true, &opts[i], &names[i], &keep) < 0)
			goto out;
		char msg[256];
		if (!names[i]) {
			zend_argument_value_error(1, "task %zu has no \"name\"", i);
			goto out;
		}
		if (lq_check_name("task name", names[i], msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(1, "task %zu: %s", i, msg);
			goto out;
		}
		i++;
	} ZEND_HASH_FOREACH_END();
	size_t invalid = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_add_many(dbo->db, n, names, optp, ids, NULL, &invalid));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task %zu: %s", invalid, lq_status_str(st));
		goto out;
	}
	for (i = 0; i < n; i++)
		add_next_index_long(return_value, (zend_long)ids[i]);
out:
	efree(names);
	efree(opts);
	efree(optp);
	efree(ids);
	if (EG(exception)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

ZEND_METHOD(Leaseq_Db, claim)
{
	zend_string *queue = NULL;
	zend_long limit = 1;
	bool alo = true;
	zval *zttl = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 4)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(queue)
		Z_PARAM_LONG(limit)
		Z_PARAM_BOOL(alo)
		Z_PARAM_ZVAL(zttl)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	int64_t ttl = 30000;
	if (queue && lq_php_name("queue", queue, 1) < 0)
		RETURN_THROWS();
	if (limit < 1 || limit > 1000) {
		zend_argument_value_error(2, "must be between 1 and 1000");
		RETURN_THROWS();
	}
	if (zttl && lq_php_duration(zttl, 4, NULL, &ttl) < 0)
		RETURN_THROWS();
	lq_task *ts = ecalloc((size_t)limit, sizeof(*ts));
	size_t got = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_claim(dbo->db, queue ? ZSTR_VAL(queue) : NULL,
					    alo ? LQ_AT_LEAST_ONCE : LQ_AT_MOST_ONCE, ttl, ts, (size_t)limit, &got));
	if (st != LQ_OK && st != LQ_EMPTY && st != LQ_BUSY) {
		for (size_t i = 0; i < got; i++)
			lq_task_clear(&ts[i]);
		efree(ts);
		lq_php_throw(dbo, st, "claim: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	array_init(return_value);
	for (size_t i = 0; i < got; i++) {
		zval t;
		lq_php_task_new(&t, &ts[i]);
		lq_task_clear(&ts[i]);
		add_next_index_zval(return_value, &t);
	}
	efree(ts);
}

static void settle(INTERNAL_FUNCTION_PARAMETERS, int what)
{
	zval *zt, *zttl = NULL;
	zend_string *err = NULL;
	if (what == 1) {
		ZEND_PARSE_PARAMETERS_START(2, 2)
			Z_PARAM_OBJECT_OF_CLASS(zt, lq_php_ce_task)
			Z_PARAM_STR(err)
		ZEND_PARSE_PARAMETERS_END();
	} else if (what == 3) {
		ZEND_PARSE_PARAMETERS_START(1, 2)
			Z_PARAM_OBJECT_OF_CLASS(zt, lq_php_ce_task)
			Z_PARAM_OPTIONAL
			Z_PARAM_ZVAL(zttl)
		ZEND_PARSE_PARAMETERS_END();
	} else {
		ZEND_PARSE_PARAMETERS_START(1, 1)
			Z_PARAM_OBJECT_OF_CLASS(zt, lq_php_ce_task)
		ZEND_PARSE_PARAMETERS_END();
	}
	DB_THIS();
	lq_php_task *to = lq_php_task_get(Z_OBJ_P(zt));
	if (!to)
		RETURN_THROWS();
	int64_t ttl = 30000;
	if (zttl && lq_php_duration(zttl, 2, NULL, &ttl) < 0)
		RETURN_THROWS();
	if (err && strlen(ZSTR_VAL(err)) != ZSTR_LEN(err)) {
		zend_argument_value_error(2, "must not contain any null bytes");
		RETURN_THROWS();
	}
	lq_status st;
	switch (what) {
	case 0:
		LQ_PHP_CALL(dbo, st = lq_task_ack(dbo->db, &to->t));
		break;
	case 1:
		LQ_PHP_CALL(dbo, st = lq_task_fail(dbo->db, &to->t, ZSTR_VAL(err)));
		break;
	case 2:
		LQ_PHP_CALL(dbo, st = lq_task_release(dbo->db, &to->t));
		break;
	default:
		LQ_PHP_CALL(dbo, st = lq_task_heartbeat(dbo->db, &to->t, ttl));
		break;
	}
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task %lld: %s", (long long)to->t.id, lq_status_str(st));
		RETURN_THROWS();
	}
}

ZEND_METHOD(Leaseq_Db, ack)
{
	settle(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0);
}

ZEND_METHOD(Leaseq_Db, fail)
{
	settle(INTERNAL_FUNCTION_PARAM_PASSTHRU, 1);
}

ZEND_METHOD(Leaseq_Db, release)
{
	settle(INTERNAL_FUNCTION_PARAM_PASSTHRU, 2);
}

ZEND_METHOD(Leaseq_Db, heartbeat)
{
	settle(INTERNAL_FUNCTION_PARAM_PASSTHRU, 3);
}

ZEND_METHOD(Leaseq_Db, task)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	lq_task t;
	memset(&t, 0, sizeof(t));
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_get(dbo->db, (int64_t)id, &t));
	if (st == LQ_NOTFOUND)
		RETURN_NULL();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	lq_php_task_new(return_value, &t);
	lq_task_clear(&t);
}

/* A listing failed: drop what it gathered and throw. */
void lq_php_list_failed(lq_php_db *dbo, lq_status st, const char *what, zval *return_value)
{
	zval_ptr_dtor(return_value);
	ZVAL_UNDEF(return_value);
	lq_php_throw(dbo, st, "%s: %s", what, lq_status_str(st));
}

static int task_list_fn(const lq_task *t, void *ctx)
{
	zval z;
	lq_php_task_new(&z, t);
	add_next_index_zval((zval *)ctx, &z);
	return 0;
}

ZEND_METHOD(Leaseq_Db, tasks)
{
	zend_string *queue = NULL;
	bool dead = false, due = false;
	ZEND_PARSE_PARAMETERS_START(0, 3)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(queue)
		Z_PARAM_BOOL(dead)
		Z_PARAM_BOOL(due)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (queue && lq_php_name("queue", queue, 1) < 0)
		RETURN_THROWS();
	array_init(return_value);
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_list(dbo->db, queue ? ZSTR_VAL(queue) : NULL,
					   (dead ? LQ_LIST_DEAD : 0u) | (due ? LQ_LIST_DUE : 0u), task_list_fn,
					   return_value));
	if (st != LQ_OK)
		lq_php_list_failed(dbo, st, "tasks", return_value);
}

static int run_list_fn(const lq_run *r, void *ctx)
{
	zval row;
	array_init(&row);
	add_assoc_long(&row, "id", (zend_long)r->id);
	add_assoc_long(&row, "taskId", (zend_long)r->task_id);
	add_assoc_long(&row, "runAt", (zend_long)r->run_at);
	add_assoc_string(&row, "queue", (char *)r->queue);
	add_assoc_string(&row, "name", (char *)r->name);
	add_assoc_string(&row, "worker", (char *)r->worker);
	add_assoc_long(&row, "attempt", r->attempt);
	add_assoc_long(&row, "startedAt", (zend_long)r->started_at);
	add_assoc_long(&row, "endedAt", (zend_long)r->ended_at);
	add_assoc_string(&row, "outcome", (char *)lq_outcome_name(r->outcome));
	if (r->error)
		add_assoc_string(&row, "error", (char *)r->error);
	else
		add_assoc_null(&row, "error");
	add_next_index_zval((zval *)ctx, &row);
	return 0;
}

ZEND_METHOD(Leaseq_Db, history)
{
	HashTable *filter = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(filter)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	lq_run_filter f = LQ_RUN_FILTER_INIT;
	if (filter) {
		zend_string *k;
		zval *v;
		ZEND_HASH_FOREACH_STR_KEY_VAL(filter, k, v) {
			zend_long n;
			if (k && zend_string_equals_literal(k, "taskId")) {
				if (lq_php_long(v, 1, "taskId", &n) < 0)
					RETURN_THROWS();
				if (n < 1) {
					zend_argument_value_error(1, "option \"taskId\" must be a task id (> 0)");
					RETURN_THROWS();
				}
				f.task_id = n;
			} else if (k && zend_string_equals_literal(k, "queue")) {
				if (lq_php_cstring(v, 1, "queue", &f.queue) < 0)
					RETURN_THROWS();
			} else if (k && zend_string_equals_literal(k, "name")) {
				if (lq_php_cstring(v, 1, "name", &f.name) < 0)
					RETURN_THROWS();
			} else if (k && zend_string_equals_literal(k, "since")) {
				if (lq_php_duration(v, 1, "since", &f.since_ms) < 0)
					RETURN_THROWS();
			} else if (k && zend_string_equals_literal(k, "limit")) {
				if (lq_php_long(v, 1, "limit", &n) < 0)
					RETURN_THROWS();
				if (n < 1 || n > LQ_RUN_LIST_MAX) {
					zend_argument_value_error(1, "option \"limit\" must be between 1 and %d",
								  LQ_RUN_LIST_MAX);
					RETURN_THROWS();
				}
				f.limit = (size_t)n;
			} else {
				lq_php_unknown_option(1, k);
				RETURN_THROWS();
			}
		} ZEND_HASH_FOREACH_END();
	}
	array_init(return_value);
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_run_list(dbo->db, &f, run_list_fn, return_value));
	if (st != LQ_OK)
		lq_php_list_failed(dbo, st, "history", return_value);
}

static int queue_list_fn(const lq_queue_info *q, void *ctx)
{
	zval row;
	array_init(&row);
	add_assoc_string(&row, "name", (char *)q->name);
	add_assoc_bool(&row, "paused", q->paused != 0);
	add_assoc_long(&row, "tasks", (zend_long)q->tasks);
	add_assoc_long(&row, "due", (zend_long)q->due);
	add_assoc_long(&row, "dead", (zend_long)q->dead);
	add_assoc_long(&row, "nextRunAt", (zend_long)q->next_run_at);
	add_next_index_zval((zval *)ctx, &row);
	return 0;
}

ZEND_METHOD(Leaseq_Db, queues)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	array_init(return_value);
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_queue_list(dbo->db, queue_list_fn, return_value));
	if (st != LQ_OK)
		lq_php_list_failed(dbo, st, "queues", return_value);
}

ZEND_METHOD(Leaseq_Db, progress)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	lq_progress p;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_progress_get(dbo->db, (int64_t)id, &p));
	if (st == LQ_NOTFOUND || (st == LQ_OK && p.percent < 0))
		RETURN_NULL();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	array_init(return_value);
	add_assoc_long(return_value, "percent", p.percent);
	add_assoc_string(return_value, "message", p.message);
	add_assoc_long(return_value, "at", (zend_long)p.updated_at);
}

ZEND_METHOD(Leaseq_Db, result)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	zend_string *buf = zend_string_alloc(LQ_RESULT_MAX, 0);
	size_t len = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_result(dbo->db, (int64_t)id, ZSTR_VAL(buf), LQ_RESULT_MAX, &len));
	if (st != LQ_OK) {
		zend_string_efree(buf);
		if (st == LQ_NOTFOUND)
			RETURN_NULL();
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	ZSTR_LEN(buf) = len;
	ZSTR_VAL(buf)[len] = '\0';
	RETURN_NEW_STR(buf);
}

ZEND_METHOD(Leaseq_Db, remove)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id < 1) {
		zend_argument_value_error(1, "must be a task id (> 0)");
		RETURN_THROWS();
	}
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_rm(dbo->db, (int64_t)id));
	/* No such task: false, as task() answers null for it. */
	if (st == LQ_NOTFOUND)
		RETURN_FALSE;
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_TRUE;
}
