/*
 * php_leaseq.h - ext-leaseq's shared declarations: the objects behind the
 * classes of namespace Leaseq, and the helpers the concept files share.
 * Built on lib/leaseq.h only.
 */
#ifndef PHP_LEASEQ_H
#define PHP_LEASEQ_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "php.h"
#include <leaseq.h>

#define PHP_LEASEQ_VERSION LEASEQ_VERSION_STRING

extern zend_module_entry leaseq_module_entry;
#define phpext_leaseq_ptr &leaseq_module_entry

/* A connection kept for the next request (Db with $persistent). */
typedef struct lq_php_pconn {
	lq_db *db;
	bool in_use;    /* a Db object of this request has it */
	zend_long uses; /* requests (Db objects) that had it */
	time_t last_used;
} lq_php_pconn;

ZEND_BEGIN_MODULE_GLOBALS(leaseq)
	HashTable pconns; /* DSN -> lq_php_pconn *, persistent memory */
	bool pconns_ready;
ZEND_END_MODULE_GLOBALS(leaseq)

ZEND_EXTERN_MODULE_GLOBALS(leaseq)
#define LQG(v) ZEND_MODULE_GLOBALS_ACCESSOR(leaseq, v)

/* Leaseq\Db */
typedef struct lq_php_db {
	lq_db *db;          /* NULL once closed */
	lq_php_pconn *pconn; /* the persistent entry it took, or NULL */
	zend_string *pkey;  /* its key in LQG(pconns) */
	char *redacted;     /* the DSN as it may be shown (emalloc) */
	int in_call;        /* > 0 while a call on db is under way */
	bool broken;        /* saw a lost connection or an unknown outcome */
	zend_object std;
} lq_php_db;

/* Leaseq\Lease */
typedef struct lq_php_lease {
	lq_lease l;
	int64_t ttl_ms;     /* what renew(null) extends by; 0 unknown (decoded) */
	zend_object *db;    /* a reference to its Db's object */
	bool release_on_free; /* taken here (not decoded), not detach()ed */
	bool done;          /* released (or found lost) through this object */
	zend_object std;
} lq_php_lease;

/* Leaseq\Task */
typedef struct lq_php_task {
	lq_task t;          /* as claimed or read; payload and last_error not kept */
	bool valid;
	zend_object std;
} lq_php_task;

static inline lq_php_db *lq_php_db_from(zend_object *o)
{
	return (lq_php_db *)((char *)o - XtOffsetOf(lq_php_db, std));
}
static inline lq_php_lease *lq_php_lease_from(zend_object *o)
{
	return (lq_php_lease *)((char *)o - XtOffsetOf(lq_php_lease, std));
}
static inline lq_php_task *lq_php_task_from(zend_object *o)
{
	return (lq_php_task *)((char *)o - XtOffsetOf(lq_php_task, std));
}

extern zend_class_entry *lq_php_ce_db, *lq_php_ce_lease, *lq_php_ce_task, *lq_php_ce_worker,
	*lq_php_ce_runner, *lq_php_ce_exception, *lq_php_ce_busy;
/* The exception class of each lq_status (NULL: the root class). */
extern zend_class_entry *lq_php_ce_status[32];

/* Concept files' start-up (MINIT) and shut-down (MSHUTDOWN). */
void lq_php_exception_minit(void);
void lq_php_db_minit(void);
void lq_php_lease_minit(void);
void lq_php_task_minit(void);
void lq_php_worker_minit(void);
void lq_php_worker_mshutdown(void);
void lq_php_db_pconns_free(void);

/* exception.c: throw the exception of st with lq_errmsg(db) (or fallback
 * when the library said nothing).  LQ_EINVAL throws ValueError.  Marks a
 * persistent handle that must not be reused.  Always returns. */
void lq_php_throw(lq_php_db *dbo, lq_status st, const char *fallback, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
/* The same without a handle (e.g. lq_open failed, a decode). */
void lq_php_throw_msg(lq_status st, const char *msg);
/* ['name', 'owner', 'token', 'acquiredAt', 'expiresAt', 'now'] of l. */
void lq_php_lease_array(zval *out, const lq_lease *l);

/* db.c: the open handle of a Db object, or NULL after throwing an Error
 * for a closed one. */
lq_php_db *lq_php_db_open(zend_object *obj);
/* In a method of Db: dbo, its open handle, or return having thrown. */
#define DB_THIS()                                            \
	lq_php_db *dbo = lq_php_db_open(Z_OBJ_P(ZEND_THIS)); \
	if (!dbo)                                             \
		RETURN_THROWS()
/* Around each library call on a handle, so that a request that ends in the
 * middle of one (a fatal error, a hard timeout) closes the handle instead
 * of keeping it. */
#define LQ_PHP_CALL(dbo, expr) ((dbo)->in_call++, (expr)), (dbo)->in_call--

/* args.c: PHP values to the library's. Each returns 0, or -1 after
 * throwing ValueError or TypeError for argument arg (what, if not NULL,
 * names the option inside it). */
int lq_php_duration(zval *v, uint32_t arg, const char *what, int64_t *ms);
int lq_php_epoch_ms(zval *v, uint32_t arg, const char *what, int64_t *ms);
int lq_php_name(const char *kind, zend_string *s, uint32_t arg);
int lq_php_cstring(zval *v, uint32_t arg, const char *what, const char **out);
int lq_php_long(zval *v, uint32_t arg, const char *what, zend_long *out);
int lq_php_bool(zval *v, uint32_t arg, const char *what, bool *out);
void lq_php_unknown_option(uint32_t arg, zend_string *key);

/* signals.c: SIGTERM/SIGINT call lq_runner_stop(r) and/or lq_cancel(db)
 * until lq_php_signals_restore(), then the handler installed before.
 * only_if_handled: leave a signal alone that has no handler (it still
 * kills the process).  false when an outer run or wait has them already
 * (then do not restore). */
bool lq_php_signals_install(lq_runner *r, lq_db *db, bool only_if_handled);
/* true when one of them came meanwhile. */
bool lq_php_signals_restore(void);
/* Run the application's pcntl handlers of signals that came, if any. */
void lq_php_signals_dispatch(void);

/* task.c */
int lq_php_task_opts(HashTable *opts, uint32_t arg, bool allow_name, lq_task_opts *o, const char **name,
		     zend_string **payload_keep);
void lq_php_task_new(zval *out, const lq_task *t);
lq_php_task *lq_php_task_get(zend_object *obj);
/* A listing failed: drop what it gathered in return_value and throw. */
void lq_php_list_failed(lq_php_db *dbo, lq_status st, const char *what, zval *return_value);

/* flow.c: "skip", "queue" or "cancel-previous" (option 'overlap'). */
int lq_php_overlap(zval *v, uint32_t arg, lq_overlap *out);

/* Set a declared (readonly) property from inside the extension. */
void lq_php_prop(zend_object *obj, const char *name, zval *v);
void lq_php_prop_long(zend_object *obj, const char *name, zend_long v);
void lq_php_prop_str(zend_object *obj, const char *name, const char *s);
void lq_php_prop_bool(zend_object *obj, const char *name, bool v);

#endif
