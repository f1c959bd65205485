/*
 * db.c - Leaseq\Db: one lq_db per object; opt-in persistent handles kept in
 * a per-process pool keyed by DSN, never handed on after an error that may
 * have left the session in an unknown state.  Lease and task calls live in
 * lease.c and task.c.
 */
#include <time.h>

#include "php_leaseq.h"
#include "SAPI.h"
#include "zend_exceptions.h"

/* A persistent handle idle for longer is pinged before it is handed on. */
#define LQ_PHP_PCONN_PING_S 30

static zend_object_handlers db_handlers;

/* lease.c */
void lq_php_lease_new(zval *out, zend_object *db, const lq_lease *l, int64_t ttl_ms, bool release_on_free);

static void pconn_dtor(zval *zv)
{
	lq_php_pconn *p = Z_PTR_P(zv);
	lq_close(p->db);
	pefree(p, 1);
}

void lq_php_db_pconns_free(void)
{
	if (LQG(pconns_ready)) {
		zend_hash_destroy(&LQG(pconns));
		LQG(pconns_ready) = false;
	}
}

/* Give the handle back: to the pool when it may serve the next request,
 * else close it. */
static void db_detach(lq_php_db *dbo)
{
	if (!dbo->db)
		return;
	if (dbo->pconn) {
		if (dbo->broken || dbo->in_call > 0) {
			zend_hash_del(&LQG(pconns), dbo->pkey); /* pconn_dtor closes it */
		} else {
			lq_cancel_clear(dbo->db);
			dbo->pconn->in_use = false;
			dbo->pconn->last_used = time(NULL);
		}
		dbo->pconn = NULL;
	} else {
		lq_close(dbo->db);
	}
	dbo->db = NULL;
}

static zend_object *db_create(zend_class_entry *ce)
{
	lq_php_db *dbo = zend_object_alloc(sizeof(lq_php_db), ce);
	zend_object_std_init(&dbo->std, ce);
	object_properties_init(&dbo->std, ce);
	dbo->std.handlers = &db_handlers;
	return &dbo->std;
}

static void db_free(zend_object *obj)
{
	lq_php_db *dbo = lq_php_db_from(obj);
	db_detach(dbo);
	if (dbo->pkey)
		zend_string_release(dbo->pkey);
	if (dbo->redacted)
		efree(dbo->redacted);
	zend_object_std_dtor(obj);
}

/* var_dump() and print_r() show the redacted DSN, never the password. */
static HashTable *db_debug_info(zend_object *obj, int *is_temp)
{
	lq_php_db *dbo = lq_php_db_from(obj);
	HashTable *ht = zend_new_array(5);
	zval v;
	*is_temp = 1;
	ZVAL_STRING(&v, dbo->redacted ? dbo->redacted : "");
	zend_hash_str_add(ht, "dsn", 3, &v);
	ZVAL_STRING(&v, dbo->db ? lq_backend_name(dbo->db) : "");
	zend_hash_str_add(ht, "backend", 7, &v);
	ZVAL_BOOL(&v, dbo->db != NULL);
	zend_hash_str_add(ht, "open", 4, &v);
	ZVAL_BOOL(&v, dbo->pconn != NULL);
	zend_hash_str_add(ht, "persistent", 10, &v);
	/* How many earlier Db objects (requests) had this persistent handle. */
	ZVAL_LONG(&v, dbo->pconn ? dbo->pconn->uses - 1 : 0);
	zend_hash_str_add(ht, "reused", 6, &v);
	return ht;
}

void lq_php_db_minit(void)
{
	lq_php_ce_db->create_object = db_create;
	memcpy(&db_handlers, zend_get_std_object_handlers(), sizeof(db_handlers));
	db_handlers.offset = XtOffsetOf(lq_php_db, std);
	db_handlers.free_obj = db_free;
	db_handlers.clone_obj = NULL;
	db_handlers.get_debug_info = db_debug_info;
}

lq_php_db *lq_php_db_open(zend_object *obj)
{
	lq_php_db *dbo = lq_php_db_from(obj);
	if (!dbo->db) {
		zend_throw_error(NULL, "Leaseq\\Db is closed");
		return NULL;
	}
	return dbo;
}

ZEND_METHOD(Leaseq_Db, __construct)
{
	zend_string *dsn = NULL;
	bool persistent = false;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(dsn)
		Z_PARAM_BOOL(persistent)
	ZEND_PARSE_PARAMETERS_END();
	lq_php_db *dbo = lq_php_db_from(Z_OBJ_P(ZEND_THIS));
	if (dbo->db) {
		zend_throw_error(NULL, "Leaseq\\Db is already open");
		RETURN_THROWS();
	}
	const char *d = NULL;
	if (dsn) {
		if (strlen(ZSTR_VAL(dsn)) != ZSTR_LEN(dsn)) {
			zend_argument_value_error(1, "must not contain any null bytes");
			RETURN_THROWS();
		}
		d = ZSTR_VAL(dsn);
	} else {
		d = sapi_getenv("LEASEQ_DSN", sizeof("LEASEQ_DSN") - 1);
		if (d) { /* sapi_getenv's copy is emalloc'd: keep it in the key */
			dbo->pkey = zend_string_init(d, strlen(d), 0);
			efree((char *)d);
			d = ZSTR_VAL(dbo->pkey);
		} else {
			d = getenv("LEASEQ_DSN");
		}
		if (d && !*d)
			d = NULL;
	}
	char red[512];
	lq_dsn_redact(d ? d : "sqlite:leaseq.db", red, sizeof(red));
	if (dbo->redacted)
		efree(dbo->redacted);
	dbo->redacted = estrdup(red);
	zend_string *key = zend_string_init(d ? d : "", d ? strlen(d) : 0, 0);
	if (dbo->pkey)
		zend_string_release(dbo->pkey);
	dbo->pkey = key;

	if (persistent) {
		if (!LQG(pconns_ready)) {
			zend_hash_init(&LQG(pconns), 4, NULL, pconn_dtor, 1);
			LQG(pconns_ready) = true;
		}
		lq_php_pconn *p = zend_hash_find_ptr(&LQG(pconns), key);
		if (p && !p->in_use) {
			p->in_use = true;
			p->uses++;
			dbo->pconn = p;
			dbo->db = p->db;
			/* A server may have dropped a connection idle this long:
			 * one cheap statement finds out, and the library reconnects
			 * at the next call, so the request's first call does not
			 * fail for it.  Nothing was applied by a failed ping. */
			if (time(NULL) - p->last_used > LQ_PHP_PCONN_PING_S) {
				int64_t now;
				LQ_PHP_CALL(dbo, lq_now(dbo->db, &now));
			}
			return;
		}
		/* In use by another Db of this request: this one gets its own,
		 * closed at its end. */
		if (p)
			persistent = false;
	}
	lq_db *db = NULL;
	lq_status st = lq_open(d, &db);
	if (st != LQ_OK) {
		/* lq_errmsg never contains the password. */
		if (db) {
			lq_php_throw_msg(st, lq_errmsg(db));
			lq_close(db);
		} else {
			lq_php_throw_msg(st, lq_status_str(st));
		}
		RETURN_THROWS();
	}
	dbo->db = db;
	if (persistent) {
		lq_php_pconn *p = pemalloc(sizeof(*p), 1);
		p->db = db;
		p->in_use = true;
		p->uses = 1;
		p->last_used = time(NULL);
		/* The key must be persistent memory too. */
		zend_string *pk = zend_string_init(ZSTR_VAL(key), ZSTR_LEN(key), 1);
		zend_hash_update_ptr(&LQG(pconns), pk, p);
		zend_string_release(pk);
		dbo->pconn = p;
	}
}

ZEND_METHOD(Leaseq_Db, backend)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	RETURN_STRING(lq_backend_name(dbo->db));
}

ZEND_METHOD(Leaseq_Db, migrate)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	int from = 0, to = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_migrate(dbo->db, &from, &to));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "migrate: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	array_init(return_value);
	add_next_index_long(return_value, from);
	add_next_index_long(return_value, to);
}

ZEND_METHOD(Leaseq_Db, now)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	int64_t now = 0;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_now(dbo->db, &now));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "now: %s", lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)now);
}

/* acquire() and tryAcquire(): options slots, read, owner. */
static void db_take(INTERNAL_FUNCTION_PARAMETERS, bool with_wait)
{
	zend_string *name;
	zval *zttl, *zwait = NULL;
	HashTable *opts = NULL;
	if (with_wait) {
		ZEND_PARSE_PARAMETERS_START(2, 4)
			Z_PARAM_STR(name)
			Z_PARAM_ZVAL(zttl)
			Z_PARAM_OPTIONAL
			Z_PARAM_ZVAL(zwait)
			Z_PARAM_ARRAY_HT(opts)
		ZEND_PARSE_PARAMETERS_END();
	} else {
		ZEND_PARSE_PARAMETERS_START(2, 3)
			Z_PARAM_STR(name)
			Z_PARAM_ZVAL(zttl)
			Z_PARAM_OPTIONAL
			Z_PARAM_ARRAY_HT(opts)
		ZEND_PARSE_PARAMETERS_END();
	}
	DB_THIS();
	uint32_t opt_arg = with_wait ? 4 : 3;
	lq_lease_opts o = LQ_LEASE_OPTS_INIT;
	int64_t ttl;
	if (lq_php_name("lease name", name, 1) < 0 || lq_php_duration(zttl, 2, NULL, &ttl) < 0)
		RETURN_THROWS();
	if (zwait && lq_php_duration(zwait, 3, NULL, &o.wait_ms) < 0)
		RETURN_THROWS();
	if (opts) {
		zend_string *k;
		zval *v;
		bool read = false;
		ZEND_HASH_FOREACH_STR_KEY_VAL(opts, k, v) {
			if (k && zend_string_equals_literal(k, "slots")) {
				zend_long n;
				if (lq_php_long(v, opt_arg, "slots", &n) < 0)
					RETURN_THROWS();
				if (n < 1 || n > LQ_SLOTS_MAX) {
					zend_argument_value_error(opt_arg, "option \"slots\" must be between 1 and %d", LQ_SLOTS_MAX);
					RETURN_THROWS();
				}
				o.slots = (int)n;
			} else if (k && zend_string_equals_literal(k, "read")) {
				bool r;
				if (lq_php_bool(v, opt_arg, "read", &r) < 0)
					RETURN_THROWS();
				read = r;
			} else if (k && zend_string_equals_literal(k, "owner")) {
				if (lq_php_cstring(v, opt_arg, "owner", &o.owner) < 0)
					RETURN_THROWS();
			} else {
				lq_php_unknown_option(opt_arg, k);
				RETURN_THROWS();
			}
		} ZEND_HASH_FOREACH_END();
		if (read && o.slots) {
			zend_argument_value_error(opt_arg, "cannot have both \"slots\" and \"read\"");
			RETURN_THROWS();
		}
		o.kind = read ? LQ_LEASE_READ : o.slots ? LQ_LEASE_SLOT : LQ_LEASE_EXCLUSIVE;
	}
	lq_lease l;
	lq_status st;
	memset(&l, 0, sizeof(l));
	/* With a handler of the application's for SIGTERM/SIGINT (pcntl), the
	 * signal ends the wait: no PHP code runs until the C call returns. */
	bool sigs = o.wait_ms > 0 && lq_php_signals_install(NULL, dbo->db, true);
	LQ_PHP_CALL(dbo, st = lq_lease_take(dbo->db, ZSTR_VAL(name), ttl, &o, &l));
	if (sigs && lq_php_signals_restore())
		lq_php_signals_dispatch();
	if (st == LQ_OK) {
		lq_php_lease_new(return_value, &dbo->std, &l, ttl, true);
		return;
	}
	if (st == LQ_BUSY && !with_wait)
		RETURN_NULL();
	if (st == LQ_BUSY) {
		char msg[LQ_NAME_MAX + LQ_OWNER_MAX + 64];
		snprintf(msg, sizeof(msg), "lease %s is held by %s", l.name[0] ? l.name : ZSTR_VAL(name),
			 l.owner[0] ? l.owner : "another owner");
		const char *m = lq_errmsg(dbo->db);
		zend_object *ex = zend_throw_exception(lq_php_ce_busy, m && *m ? m : msg, LQ_BUSY);
		zval h;
		lq_php_lease_array(&h, &l);
		zend_update_property(lq_php_ce_busy, ex, "holder", sizeof("holder") - 1, &h);
		zval_ptr_dtor(&h);
		RETURN_THROWS();
	}
	lq_php_throw(dbo, st, "lease %s: %s", ZSTR_VAL(name), lq_status_str(st));
	RETURN_THROWS();
}

ZEND_METHOD(Leaseq_Db, acquire)
{
	db_take(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Leaseq_Db, tryAcquire)
{
	db_take(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Leaseq_Db, lease)
{
	zend_string *name;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (lq_php_name("lease name", name, 1) < 0)
		RETURN_THROWS();
	lq_lease l;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_get(dbo->db, ZSTR_VAL(name), &l));
	if (st == LQ_NOTFOUND)
		RETURN_NULL();
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "lease %s: %s", ZSTR_VAL(name), lq_status_str(st));
		RETURN_THROWS();
	}
	lq_php_lease_array(return_value, &l);
}

ZEND_METHOD(Leaseq_Db, breakLease)
{
	zend_string *name;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();
	DB_THIS();
	if (lq_php_name("lease name", name, 1) < 0)
		RETURN_THROWS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_break(dbo->db, ZSTR_VAL(name), NULL));
	if (st == LQ_NOTFOUND)
		RETURN_FALSE;
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "lease %s: %s", ZSTR_VAL(name), lq_status_str(st));
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

ZEND_METHOD(Leaseq_Db, cancel)
{
	ZEND_PARSE_PARAMETERS_NONE();
	DB_THIS();
	lq_cancel(dbo->db);
}

ZEND_METHOD(Leaseq_Db, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	lq_php_db *dbo = lq_php_db_from(Z_OBJ_P(ZEND_THIS));
	if (dbo->in_call > 0) {
		/* A Worker's or a tick's handler: the runner still uses it. */
		zend_throw_error(NULL, "Leaseq\\Db cannot be closed while a Worker or a tick runs on it");
		RETURN_THROWS();
	}
	db_detach(dbo);
}
