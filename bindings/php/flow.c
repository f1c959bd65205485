/*
 * flow.c - flow control on Leaseq\Db: cancelling a task, limits on a
 * concurrency key or a queue, and steering schedules (pause, run now,
 * edit, read).
 */
#include "php_leaseq.h"
#include "zend_exceptions.h"

static const char *const overlap_names[] = {"default", "skip", "queue", "cancel-previous"};

int lq_php_overlap(zval *v, uint32_t arg, lq_overlap *out)
{
	const char *s;
	if (lq_php_cstring(v, arg, "overlap", &s) < 0)
		return -1;
	for (int i = 1; i < 4; i++) {
		if (!strcmp(s, overlap_names[i])) {
			*out = (lq_overlap)i;
			return 0;
		}
	}
	zend_argument_value_error(arg, "option \"overlap\" must be \"skip\", \"queue\" or \"cancel-previous\"");
	return -1;
}

/* An id argument: a task id is positive. */
static int id_ok(zend_long id, uint32_t arg)
{
	if (id < 1) {
		zend_argument_value_error(arg, "must be a task id (> 0)");
		return -1;
	}
	return 0;
}

/* true when done, false for no such thing (not an error), else throws. */
static void found_or_throw(lq_php_db *dbo, lq_status st, const char *what, zval *return_value)
{
	if (st == LQ_NOTFOUND)
		RETURN_FALSE;
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "%s: %s", what, lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

/* A read of one thing: true when there is one to return; else null for
 * none (not an error), or thrown. */
static bool got_one(lq_php_db *dbo, lq_status st, const char *what, zval *return_value)
{
	if (st == LQ_NOTFOUND)
		ZVAL_NULL(return_value);
	else if (st != LQ_OK)
		lq_php_throw(dbo, st, "%s: %s", what, lq_status_str(st));
	return st == LQ_OK;
}

ZEND_METHOD(Leaseq_Db, cancelTask)
{
	zend_long id;
	zend_string *reason = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_LONG(id)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(reason)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	if (reason && (strlen(ZSTR_VAL(reason)) != ZSTR_LEN(reason) || ZSTR_LEN(reason) > LQ_NAME_MAX ||
		       strchr(ZSTR_VAL(reason), '\n'))) {
		zend_argument_value_error(2, "must be one line of at most %d bytes", LQ_NAME_MAX);
		RETURN_THROWS();
	}
	int was_running = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_cancel(dbo->db, (int64_t)id, reason ? ZSTR_VAL(reason) : NULL, &was_running));
	/* As remove(): no live task with that id is an answer, not an error. */
	if (st == LQ_NOTFOUND)
		RETURN_NULL();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_BOOL(was_running);
}

ZEND_METHOD(Leaseq_Db, partition)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	char buf[LQ_NAME_MAX + 1];
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_partition(dbo->db, (int64_t)id, buf, sizeof(buf)));
	if (got_one(dbo, st, "partition", return_value))
		RETURN_STRING(buf);
}

/* ------------------------------------------------------------- limits */

/* "N/DUR" (as leasectl limit set --rate) or [N, duration]. */
static int rate_arg(zval *v, int *n, int64_t *period)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) == IS_ARRAY) {
		zval *zn = zend_hash_index_find(Z_ARRVAL_P(v), 0), *zd = zend_hash_index_find(Z_ARRVAL_P(v), 1);
		zend_long l;
		if (!zn || !zd || zend_hash_num_elements(Z_ARRVAL_P(v)) != 2) {
			zend_argument_value_error(3, "must be \"N/DUR\" or [N, duration]");
			return -1;
		}
		if (lq_php_long(zn, 3, "rate N", &l) < 0 || lq_php_duration(zd, 3, "rate period", period) < 0)
			return -1;
		if (l < 1 || l > LQ_LIMIT_RATE_MAX) {
			zend_argument_value_error(3, "N must be between 1 and %d", LQ_LIMIT_RATE_MAX);
			return -1;
		}
		*n = (int)l;
	} else {
		char msg[256];
		if (Z_TYPE_P(v) != IS_STRING) {
			zend_argument_type_error(3, "must be of type string|array|null, %s given", zend_zval_type_name(v));
			return -1;
		}
		if (strlen(Z_STRVAL_P(v)) != Z_STRLEN_P(v) ||
		    lq_parse_rate(Z_STRVAL_P(v), n, period, msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(3, "must be \"N/DUR\" (e.g. \"10/1s\"): %s",
						  strlen(Z_STRVAL_P(v)) == Z_STRLEN_P(v) ? msg : "a null byte");
			return -1;
		}
	}
	if (*period <= 0) {
		zend_argument_value_error(3, "must have a positive period");
		return -1;
	}
	return 0;
}

ZEND_METHOD(Leaseq_Db, setLimit)
{
	zend_string *key;
	zend_long conc = 0;
	bool conc_null = true;
	zval *rate = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(conc, conc_null)
		Z_PARAM_ZVAL_OR_NULL(rate)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	lq_limit l;
	memset(&l, 0, sizeof(l));
	if (lq_php_name("limit key", key, 1) < 0)
		RETURN_THROWS();
	if (conc_null && !rate) {
		zend_argument_value_error(2, "or $rate must be given (or both)");
		RETURN_THROWS();
	}
	if (!conc_null && (conc < 1 || conc > 1000000)) {
		zend_argument_value_error(2, "must be between 1 and 1000000");
		RETURN_THROWS();
	}
	if (rate && rate_arg(rate, &l.rate_n, &l.rate_period_ms) < 0)
		RETURN_THROWS();
	l.concurrency = conc_null ? 0 : (int)conc;
	snprintf(l.key, sizeof(l.key), "%s", ZSTR_VAL(key));
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_limit_set(dbo->db, &l));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "limit %s: %s", ZSTR_VAL(key), lq_status_str(st));
		RETURN_THROWS();
	}
}

static void limit_array(zval *row, const lq_limit *l)
{
	array_init(row);
	add_assoc_string(row, "key", (char *)l->key);
	add_assoc_long(row, "concurrency", l->concurrency);
	add_assoc_long(row, "rateN", l->rate_n);
	add_assoc_long(row, "ratePeriodMs", l->rate_n ? (zend_long)l->rate_period_ms : 0);
	add_assoc_long(row, "running", (zend_long)l->running);
	add_assoc_long(row, "tokens", l->rate_n ? (zend_long)l->tokens : 0);
	add_assoc_long(row, "now", (zend_long)l->now);
}

ZEND_METHOD(Leaseq_Db, limit)
{
	zend_string *key;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (lq_php_name("limit key", key, 1) < 0)
		RETURN_THROWS();
	lq_limit l;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_limit_get(dbo->db, ZSTR_VAL(key), &l));
	if (got_one(dbo, st, "limit", return_value))
		limit_array(return_value, &l);
}

static int limit_list_fn(const lq_limit *l, void *ctx)
{
	zval row;
	limit_array(&row, l);
	add_next_index_zval((zval *)ctx, &row);
	return 0;
}

ZEND_METHOD(Leaseq_Db, limits)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	array_init(return_value);
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_limit_list(dbo->db, limit_list_fn, return_value));
	if (st != LQ_OK)
		lq_php_list_failed(dbo, st, "limits", return_value);
}

ZEND_METHOD(Leaseq_Db, removeLimit)
{
	zend_string *key;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (lq_php_name("limit key", key, 1) < 0)
		RETURN_THROWS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_limit_remove(dbo->db, ZSTR_VAL(key)));
	found_or_throw(dbo, st, "removeLimit", return_value);
}

/* ---------------------------------------------------------- schedules */

ZEND_METHOD(Leaseq_Db, pauseTask)
{
	zend_long id;
	bool paused = true;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_LONG(id)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(paused)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_pause(dbo->db, (int64_t)id, paused));
	found_or_throw(dbo, st, "pauseTask", return_value);
}

ZEND_METHOD(Leaseq_Db, runNow)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_run_now(dbo->db, (int64_t)id));
	found_or_throw(dbo, st, "runNow", return_value);
}

ZEND_METHOD(Leaseq_Db, editSchedule)
{
	zend_long id;
	zval *zevery = NULL;
	zend_string *cron = NULL, *tz = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_LONG(id)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL_OR_NULL(zevery)
		Z_PARAM_STR_OR_NULL(cron)
		Z_PARAM_STR_OR_NULL(tz)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	int64_t every = 0, next = 0;
	char msg[256] = "a null byte";
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	if (zevery && lq_php_duration(zevery, 2, NULL, &every) < 0)
		RETURN_THROWS();
	if (zevery && (every < LQ_EVERY_MIN_MS || every > LQ_EVERY_MAX_MS)) {
		zend_argument_value_error(2, "must be between %d ms and ten years", LQ_EVERY_MIN_MS);
		RETURN_THROWS();
	}
	if (!zevery == !cron) {
		zend_argument_value_error(2, "or $cron must be given (one of them)");
		RETURN_THROWS();
	}
	if (tz && !cron) {
		zend_argument_value_error(4, "is for a $cron schedule");
		RETURN_THROWS();
	}
	if (cron && (strlen(ZSTR_VAL(cron)) != ZSTR_LEN(cron) || (tz && strlen(ZSTR_VAL(tz)) != ZSTR_LEN(tz)) ||
		     lq_check_schedule(ZSTR_VAL(cron), tz ? ZSTR_VAL(tz) : NULL, msg, sizeof(msg)) != LQ_OK)) {
		zend_argument_value_error(3, "is not a valid schedule: %s", msg);
		RETURN_THROWS();
	}
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_task_edit_schedule(dbo->db, (int64_t)id, every, cron ? ZSTR_VAL(cron) : NULL,
						    tz ? ZSTR_VAL(tz) : NULL, &next));
	if (st == LQ_NOTFOUND)
		RETURN_NULL();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "task " ZEND_LONG_FMT ": %s", id, lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)next);
}

static void schedule_array(zval *row, const lq_schedule *s)
{
	array_init(row);
	add_assoc_long(row, "id", (zend_long)s->id);
	add_assoc_string(row, "queue", (char *)s->queue);
	add_assoc_string(row, "name", (char *)s->name);
	add_assoc_long(row, "everyMs", (zend_long)s->every_ms);
	if (s->cron[0])
		add_assoc_string(row, "cron", (char *)s->cron);
	else
		add_assoc_null(row, "cron");
	if (s->cron[0] && s->tz[0])
		add_assoc_string(row, "tz", (char *)s->tz);
	else
		add_assoc_null(row, "tz");
	add_assoc_bool(row, "paused", s->paused != 0);
	add_assoc_string(row, "overlap",
			 (char *)overlap_names[(unsigned)s->overlap < 4 ? (unsigned)s->overlap : 0]);
	add_assoc_long(row, "catchUp", s->catch_up);
	add_assoc_long(row, "alertAfterMs", (zend_long)s->alert_after_ms);
	add_assoc_long(row, "lastSuccessAt", (zend_long)s->last_success_at);
	add_assoc_long(row, "sinceSuccessMs", (zend_long)s->since_success_ms);
	add_assoc_bool(row, "overdue", s->overdue != 0);
	add_assoc_long(row, "runAt", (zend_long)s->run_at);
	add_assoc_long(row, "nextAt", (zend_long)s->next_at);
	add_assoc_long(row, "createdAt", (zend_long)s->created_at);
	add_assoc_long(row, "now", (zend_long)s->now);
}

ZEND_METHOD(Leaseq_Db, schedule)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (id_ok(id, 1) < 0)
		RETURN_THROWS();
	lq_schedule s;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_schedule_get(dbo->db, (int64_t)id, &s));
	if (got_one(dbo, st, "schedule", return_value))
		schedule_array(return_value, &s);
}

static int schedule_list_fn(const lq_schedule *s, void *ctx)
{
	zval row;
	schedule_array(&row, s);
	add_next_index_zval((zval *)ctx, &row);
	return 0;
}

ZEND_METHOD(Leaseq_Db, schedules)
{
	bool alerted = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(alerted)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	array_init(return_value);
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_schedule_list(dbo->db, alerted ? LQ_SCHEDULE_ALERTED : 0u, schedule_list_fn,
					       return_value));
	if (st != LQ_OK)
		lq_php_list_failed(dbo, st, "schedules", return_value);
}
