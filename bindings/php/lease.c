/*
 * lease.c - Leaseq\Lease: a held lease.  When the object dies it hands the
 * lease back if, as far as this process knows, it still holds it
 * (lq_lease_held: no database call to decide), and never throws.
 */
#include "php_leaseq.h"
#include "zend_exceptions.h"

static zend_object_handlers lease_handlers;

static const char *kind_name(int kind)
{
	return kind == LQ_LEASE_SLOT ? "slot" : kind == LQ_LEASE_READ ? "read" : "exclusive";
}

static void lease_props(lq_php_lease *lo)
{
	zend_object *o = &lo->std;
	lq_php_prop_str(o, "name", lo->l.name);
	lq_php_prop_str(o, "owner", lo->l.owner);
	lq_php_prop_long(o, "token", (zend_long)lo->l.token);
	lq_php_prop_str(o, "kind", kind_name(lo->l.kind));
	lq_php_prop_long(o, "slots", lo->l.slots);
	lq_php_prop_long(o, "slot", (zend_long)lo->l.slot);
	lq_php_prop_long(o, "expiresAt", (zend_long)lo->l.expires_at);
}

void lq_php_lease_new(zval *out, zend_object *db, const lq_lease *l, int64_t ttl_ms, bool release_on_free)
{
	object_init_ex(out, lq_php_ce_lease);
	lq_php_lease *lo = lq_php_lease_from(Z_OBJ_P(out));
	lo->l = *l;
	lo->ttl_ms = ttl_ms;
	lo->db = db;
	GC_ADDREF(db);
	lo->release_on_free = release_on_free;
	lease_props(lo);
}

static zend_object *lease_create(zend_class_entry *ce)
{
	lq_php_lease *lo = zend_object_alloc(sizeof(lq_php_lease), ce);
	zend_object_std_init(&lo->std, ce);
	object_properties_init(&lo->std, ce);
	lo->std.handlers = &lease_handlers;
	return &lo->std;
}

/* Hand the lease back if still ours.  In the destructor pass; at the end of
 * a request that failed (destructors skipped), free_obj does it, unless the
 * Db went first. */
static void lease_release_quietly(lq_php_lease *lo)
{
	if (!lo->db || !lo->release_on_free || lo->done)
		return;
	lo->done = true;
	lq_php_db *dbo = lq_php_db_from(lo->db);
	if (!dbo->db || !lq_lease_held(&lo->l))
		return;
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_release(dbo->db, &lo->l));
	if (st == LQ_ECONN || st == LQ_EUNKNOWN || st == LQ_ETIMEDOUT)
		dbo->broken = true;
}

static void lease_dtor(zend_object *obj)
{
	lease_release_quietly(lq_php_lease_from(obj));
	zend_objects_destroy_object(obj);
}

static void lease_free(zend_object *obj)
{
	lq_php_lease *lo = lq_php_lease_from(obj);
	if (lo->db) {
		if (!(GC_FLAGS(lo->db) & IS_OBJ_FREE_CALLED))
			lease_release_quietly(lo);
		OBJ_RELEASE(lo->db);
		lo->db = NULL;
	}
	zend_object_std_dtor(obj);
}

void lq_php_lease_minit(void)
{
	lq_php_ce_lease->create_object = lease_create;
	memcpy(&lease_handlers, zend_get_std_object_handlers(), sizeof(lease_handlers));
	lease_handlers.offset = XtOffsetOf(lq_php_lease, std);
	lease_handlers.dtor_obj = lease_dtor;
	lease_handlers.free_obj = lease_free;
	lease_handlers.clone_obj = NULL;
}

/* The lease and its open Db, or NULL after throwing. */
static lq_php_lease *lease_this(zval *this_, lq_php_db **dbo)
{
	lq_php_lease *lo = lq_php_lease_from(Z_OBJ_P(this_));
	if (!lo->db) {
		zend_throw_error(NULL, "Leaseq\\Lease was not made by Leaseq\\Db");
		return NULL;
	}
	*dbo = lq_php_db_open(lo->db);
	return *dbo ? lo : NULL;
}

#define LEASE_THIS()                                      \
	lq_php_db *dbo;                                   \
	lq_php_lease *lo = lease_this(ZEND_THIS, &dbo);   \
	if (!lo)                                          \
		RETURN_THROWS()

ZEND_METHOD(Leaseq_Lease, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(Leaseq_Lease, renew)
{
	zval *zttl = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(zttl)
	ZEND_PARSE_PARAMETERS_END();
	LEASE_THIS();
	int64_t ttl = lo->ttl_ms;
	if (zttl && Z_TYPE_P(zttl) != IS_NULL) {
		if (lq_php_duration(zttl, 1, NULL, &ttl) < 0)
			RETURN_THROWS();
	} else if (ttl <= 0) {
		zend_argument_value_error(1, "must be given for a decoded lease (its TTL is not known here)");
		RETURN_THROWS();
	}
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_renew(dbo->db, &lo->l, ttl));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "lease %s: %s", lo->l.name, lq_status_str(st));
		RETURN_THROWS();
	}
	if (lo->ttl_ms <= 0) /* decoded: the first TTL given is its TTL */
		lo->ttl_ms = ttl;
	lease_props(lo);
}

ZEND_METHOD(Leaseq_Lease, release)
{
	ZEND_PARSE_PARAMETERS_NONE();
	LEASE_THIS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_release(dbo->db, &lo->l));
	if (st == LQ_OK || st == LQ_LOST) {
		lo->done = true;
		RETURN_BOOL(st == LQ_OK);
	}
	lq_php_throw(dbo, st, "lease %s: %s", lo->l.name, lq_status_str(st));
	RETURN_THROWS();
}

ZEND_METHOD(Leaseq_Lease, isHeld)
{
	ZEND_PARSE_PARAMETERS_NONE();
	LEASE_THIS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = lq_lease_check(dbo->db, &lo->l));
	if (st == LQ_OK || st == LQ_LOST)
		RETURN_BOOL(st == LQ_OK);
	lq_php_throw(dbo, st, "lease %s: %s", lo->l.name, lq_status_str(st));
	RETURN_THROWS();
}

static void lease_change(INTERNAL_FUNCTION_PARAMETERS, bool promote)
{
	ZEND_PARSE_PARAMETERS_NONE();
	LEASE_THIS();
	lq_status st;
	LQ_PHP_CALL(dbo, st = promote ? lq_lease_promote(dbo->db, &lo->l) : lq_lease_demote(dbo->db, &lo->l));
	if (st != LQ_OK) {
		lq_php_throw(dbo, st, "lease %s: %s", lo->l.name, lq_status_str(st));
		RETURN_THROWS();
	}
	lease_props(lo);
}

ZEND_METHOD(Leaseq_Lease, promote)
{
	lease_change(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Leaseq_Lease, demote)
{
	lease_change(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Leaseq_Lease, encode)
{
	ZEND_PARSE_PARAMETERS_NONE();
	lq_php_lease *lo = lq_php_lease_from(Z_OBJ_P(ZEND_THIS));
	char buf[LQ_HANDLE_MAX];
	if (!lo->db || lq_lease_encode(&lo->l, buf, sizeof(buf)) != LQ_OK) {
		zend_throw_error(NULL, "Leaseq\\Lease cannot be encoded");
		RETURN_THROWS();
	}
	RETURN_STRING(buf);
}

ZEND_METHOD(Leaseq_Lease, decode)
{
	zval *zdb;
	zend_string *text;
	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_OBJECT_OF_CLASS(zdb, lq_php_ce_db)
		Z_PARAM_STR(text)
	ZEND_PARSE_PARAMETERS_END();
	if (!lq_php_db_open(Z_OBJ_P(zdb)))
		RETURN_THROWS();
	lq_lease l;
	char msg[256];
	if (strlen(ZSTR_VAL(text)) != ZSTR_LEN(text) ||
	    lq_lease_decode(ZSTR_VAL(text), &l, msg, sizeof(msg)) != LQ_OK) {
		zend_argument_value_error(2, "is not an encoded lease handle");
		RETURN_THROWS();
	}
	lq_php_lease_new(return_value, Z_OBJ_P(zdb), &l, 0, false);
}

/* The object's death no longer releases the lease (release_on_free off);
 * what it holds stays held until its TTL or a release(). */
ZEND_METHOD(Leaseq_Lease, detach)
{
	ZEND_PARSE_PARAMETERS_NONE();
	lq_php_lease *lo = lq_php_lease_from(Z_OBJ_P(ZEND_THIS));
	lo->release_on_free = false;
}
