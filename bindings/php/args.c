/*
 * args.c - PHP values to the library's: durations (a number is seconds, a
 * string a leaseq duration), absolute times, names, option values.  Bad
 * ones are PHP's own TypeError and ValueError, before any call to C.
 */
#include <math.h>

#include "php_leaseq.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "ext/date/php_date.h"

/* "option 'delay' " or "" */
#define LQ_PHP_WHAT(what) (what) ? "option \"" : "", (what) ? (what) : "", (what) ? "\" " : ""

int lq_php_duration(zval *v, uint32_t arg, const char *what, int64_t *ms)
{
	ZVAL_DEREF(v);
	switch (Z_TYPE_P(v)) {
	case IS_LONG:
		if (Z_LVAL_P(v) < 0 || Z_LVAL_P(v) > INT64_MAX / 1000) {
			zend_argument_value_error(arg, "%s%s%smust be a duration from 0 seconds up, " ZEND_LONG_FMT " given",
						  LQ_PHP_WHAT(what), Z_LVAL_P(v));
			return -1;
		}
		*ms = (int64_t)Z_LVAL_P(v) * 1000;
		return 0;
	case IS_DOUBLE: {
		double d = Z_DVAL_P(v) * 1000.0;
		if (!isfinite(d) || d < 0 || d > 9.2e18) {
			zend_argument_value_error(arg, "%s%s%smust be a duration from 0 seconds up, %g given",
						  LQ_PHP_WHAT(what), Z_DVAL_P(v));
			return -1;
		}
		*ms = (int64_t)llround(d);
		return 0;
	}
	case IS_STRING: {
		char msg[256];
		if (strlen(Z_STRVAL_P(v)) != Z_STRLEN_P(v) ||
		    lq_parse_duration(Z_STRVAL_P(v), ms, msg, sizeof(msg)) != LQ_OK) {
			zend_argument_value_error(arg, "%s%s%smust be a duration such as \"250ms\", \"30s\" or \"5m\", \"%s\" given",
						  LQ_PHP_WHAT(what), strlen(Z_STRVAL_P(v)) == Z_STRLEN_P(v) ? Z_STRVAL_P(v) : "");
			return -1;
		}
		return 0;
	}
	default:
		zend_argument_type_error(arg, "%s%s%smust be of type int|float|string, %s given", LQ_PHP_WHAT(what),
					 zend_zval_type_name(v));
		return -1;
	}
}

int lq_php_epoch_ms(zval *v, uint32_t arg, const char *what, int64_t *ms)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) == IS_OBJECT && instanceof_function(Z_OBJCE_P(v), php_date_get_interface_ce())) {
		zval rv, fmt;
		ZVAL_STRING(&fmt, "U.v");
		zend_call_method_with_1_params(Z_OBJ_P(v), Z_OBJCE_P(v), NULL, "format", &rv, &fmt);
		zval_ptr_dtor(&fmt);
		if (EG(exception) || Z_TYPE(rv) != IS_STRING) {
			zval_ptr_dtor(&rv);
			return -1;
		}
		double d = zend_strtod(Z_STRVAL(rv), NULL);
		zval_ptr_dtor(&rv);
		*ms = (int64_t)llround(d * 1000.0);
		if (*ms <= 0) {
			zend_argument_value_error(arg, "%s%s%smust be after 1970", LQ_PHP_WHAT(what));
			return -1;
		}
		return 0;
	}
	if (Z_TYPE_P(v) == IS_LONG || Z_TYPE_P(v) == IS_DOUBLE) {
		double d = zval_get_double(v) * 1000.0;
		if (!isfinite(d) || d <= 0 || d > 9.2e18) {
			zend_argument_value_error(arg, "%s%s%smust be epoch seconds after 1970", LQ_PHP_WHAT(what));
			return -1;
		}
		*ms = (int64_t)llround(d);
		return 0;
	}
	zend_argument_type_error(arg, "%s%s%smust be of type DateTimeInterface|int|float, %s given", LQ_PHP_WHAT(what),
				 zend_zval_type_name(v));
	return -1;
}

int lq_php_name(const char *kind, zend_string *s, uint32_t arg)
{
	char msg[256];
	if (strlen(ZSTR_VAL(s)) != ZSTR_LEN(s)) {
		zend_argument_value_error(arg, "must not contain any null bytes");
		return -1;
	}
	if (lq_check_name(kind, ZSTR_VAL(s), msg, sizeof(msg)) != LQ_OK) {
		zend_argument_value_error(arg, "is not a valid %s: %s", kind, msg);
		return -1;
	}
	return 0;
}

int lq_php_cstring(zval *v, uint32_t arg, const char *what, const char **out)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) != IS_STRING) {
		zend_argument_type_error(arg, "%s%s%smust be of type string, %s given", LQ_PHP_WHAT(what),
					 zend_zval_type_name(v));
		return -1;
	}
	if (strlen(Z_STRVAL_P(v)) != Z_STRLEN_P(v)) {
		zend_argument_value_error(arg, "%s%s%smust not contain any null bytes", LQ_PHP_WHAT(what));
		return -1;
	}
	*out = Z_STRVAL_P(v);
	return 0;
}

int lq_php_long(zval *v, uint32_t arg, const char *what, zend_long *out)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) != IS_LONG) {
		zend_argument_type_error(arg, "%s%s%smust be of type int, %s given", LQ_PHP_WHAT(what),
					 zend_zval_type_name(v));
		return -1;
	}
	*out = Z_LVAL_P(v);
	return 0;
}

int lq_php_bool(zval *v, uint32_t arg, const char *what, bool *out)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
		zend_argument_type_error(arg, "%s%s%smust be of type bool, %s given", LQ_PHP_WHAT(what),
					 zend_zval_type_name(v));
		return -1;
	}
	*out = Z_TYPE_P(v) == IS_TRUE;
	return 0;
}

void lq_php_unknown_option(uint32_t arg, zend_string *key)
{
	if (key)
		zend_argument_value_error(arg, "has an unknown option \"%s\"", ZSTR_VAL(key));
	else
		zend_argument_value_error(arg, "must have string keys (option names)");
}

static zval *prop_slot(zend_object *obj, const char *name)
{
	zend_property_info *pi = zend_hash_str_find_ptr(&obj->ce->properties_info, name, strlen(name));
	ZEND_ASSERT(pi && !(pi->flags & ZEND_ACC_STATIC));
	return OBJ_PROP(obj, pi->offset);
}

/* Readonly properties are written here, from inside the class, directly in
 * their slots (renew() and promote() change them later). */
void lq_php_prop(zend_object *obj, const char *name, zval *v)
{
	zval *slot = prop_slot(obj, name);
	zval old;
	ZVAL_COPY_VALUE(&old, slot);
	ZVAL_COPY_VALUE(slot, v);
	Z_PROP_FLAG_P(slot) = 0;
	zval_ptr_dtor(&old);
}

void lq_php_prop_long(zend_object *obj, const char *name, zend_long v)
{
	zval z;
	ZVAL_LONG(&z, v);
	lq_php_prop(obj, name, &z);
}

void lq_php_prop_str(zend_object *obj, const char *name, const char *s)
{
	zval z;
	if (s)
		ZVAL_STRING(&z, s);
	else
		ZVAL_NULL(&z);
	lq_php_prop(obj, name, &z);
}

void lq_php_prop_bool(zend_object *obj, const char *name, bool v)
{
	zval z;
	ZVAL_BOOL(&z, v);
	lq_php_prop(obj, name, &z);
}
