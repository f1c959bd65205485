/*
 * exception.c - lq_status to Leaseq\Exception and its subclasses, one to
 * one; LQ_EINVAL to PHP's ValueError.
 */
#include "php_leaseq.h"
#include "zend_exceptions.h"


static const char *status_name(zend_long st)
{
	switch (st) {
#define LQ_PHP_STATUS_CASE(name, value, text) \
	case value:                            \
		return #name;
		LQ_STATUS_MAP(LQ_PHP_STATUS_CASE)
#undef LQ_PHP_STATUS_CASE
	}
	return "unknown";
}

void lq_php_exception_minit(void)
{
}

void lq_php_throw_msg(lq_status st, const char *msg)
{
	if (st == LQ_EINVAL) {
		zend_throw_exception(zend_ce_value_error, msg, (zend_long)st);
		return;
	}
	zend_class_entry *ce = NULL;
	if ((unsigned)st < sizeof(lq_php_ce_status) / sizeof(lq_php_ce_status[0]))
		ce = lq_php_ce_status[st];
	zend_throw_exception(ce ? ce : lq_php_ce_exception, msg, (zend_long)st);
}

void lq_php_throw(lq_php_db *dbo, lq_status st, const char *fallback, ...)
{
	const char *m = dbo && dbo->db ? lq_errmsg(dbo->db) : "";
	char buf[512];
	if (!m || !*m) {
		va_list ap;
		va_start(ap, fallback);
		vsnprintf(buf, sizeof(buf), fallback, ap);
		va_end(ap);
		m = buf;
	}
	/* Whatever the connection's state now, it is not handed to the next
	 * request: its session may hold a half-done transaction. */
	if (dbo && (st == LQ_ECONN || st == LQ_EUNKNOWN || st == LQ_ETIMEDOUT || st == LQ_ENOMEM))
		dbo->broken = true;
	lq_php_throw_msg(st, m);
	/* A cancel ends one wait: the next one waits again. */
	if (dbo && dbo->db && st == LQ_ECANCELED)
		lq_cancel_clear(dbo->db);
}

void lq_php_lease_array(zval *out, const lq_lease *l)
{
	array_init(out);
	add_assoc_string(out, "name", (char *)l->name);
	add_assoc_string(out, "owner", (char *)l->owner);
	add_assoc_long(out, "token", (zend_long)l->token);
	add_assoc_long(out, "acquiredAt", (zend_long)l->acquired_at);
	add_assoc_long(out, "expiresAt", (zend_long)l->expires_at);
	add_assoc_long(out, "now", (zend_long)l->now);
	add_assoc_string(out, "kind", l->kind == LQ_LEASE_SLOT ? "slot" : l->kind == LQ_LEASE_READ ? "read" : "exclusive");
	add_assoc_long(out, "slots", l->slots);
	add_assoc_long(out, "slot", (zend_long)l->slot);
}

ZEND_METHOD(Leaseq_Exception, getStatusName)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval rv, *code = zend_read_property(zend_ce_exception, Z_OBJ_P(ZEND_THIS), "code", sizeof("code") - 1, 1, &rv);
	const char *n = status_name(Z_TYPE_P(code) == IS_LONG ? Z_LVAL_P(code) : -1);
	size_t len = strlen(n);
	zend_string *s = zend_string_alloc(len, 0);
	zend_str_tolower_copy(ZSTR_VAL(s), n, len);
	RETURN_NEW_STR(s);
}

ZEND_METHOD(Leaseq_BusyException, getHolder)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval rv, *h = zend_read_property(lq_php_ce_busy, Z_OBJ_P(ZEND_THIS), "holder", sizeof("holder") - 1, 1, &rv);
	RETURN_COPY_DEREF(h);
}
