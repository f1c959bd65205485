/*
 * leaseq.c - the module: class registration, globals, phpinfo().
 */
#include "php_leaseq.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
#include "leaseq_arginfo.h"

ZEND_DECLARE_MODULE_GLOBALS(leaseq)

zend_class_entry *lq_php_ce_db, *lq_php_ce_lease, *lq_php_ce_task, *lq_php_ce_worker, *lq_php_ce_runner,
	*lq_php_ce_exception, *lq_php_ce_busy;
/* Indexed by lq_status; exception.c picks from it. */
zend_class_entry *lq_php_ce_status[32];

static PHP_GINIT_FUNCTION(leaseq)
{
#if defined(COMPILE_DL_LEASEQ) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(leaseq_globals, 0, sizeof(*leaseq_globals));
}

static PHP_MINIT_FUNCTION(leaseq)
{
	lq_php_ce_db = register_class_Leaseq_Db();
	lq_php_ce_lease = register_class_Leaseq_Lease();
	lq_php_ce_task = register_class_Leaseq_Task();
	lq_php_ce_worker = register_class_Leaseq_Worker();
	lq_php_ce_runner = register_class_Leaseq_Runner();
	lq_php_ce_exception = register_class_Leaseq_Exception(spl_ce_RuntimeException);
	zend_class_entry *root = lq_php_ce_exception;
	lq_php_ce_busy = register_class_Leaseq_BusyException(root);
	lq_php_ce_status[LQ_BUSY] = lq_php_ce_busy;
	lq_php_ce_status[LQ_LOST] = register_class_Leaseq_LostException(root);
	lq_php_ce_status[LQ_NOTFOUND] = register_class_Leaseq_NotFoundException(root);
	lq_php_ce_status[LQ_ESCHEMA] = register_class_Leaseq_SchemaException(root);
	lq_php_ce_status[LQ_ECONN] = register_class_Leaseq_ConnectionException(root);
	lq_php_ce_status[LQ_EUNKNOWN] = register_class_Leaseq_UnknownOutcomeException(root);
	lq_php_ce_status[LQ_ETIMEDOUT] = register_class_Leaseq_TimeoutException(root);
	lq_php_ce_status[LQ_ECANCELED] = register_class_Leaseq_CanceledException(root);
	lq_php_ce_status[LQ_ETXOPEN] = register_class_Leaseq_TransactionOpenException(root);
	lq_php_ce_status[LQ_ENODB] = register_class_Leaseq_NoDatabaseException(root);
	lq_php_ce_status[LQ_ECREATE] = register_class_Leaseq_CreateException(root);
	lq_php_ce_status[LQ_EPERM] = register_class_Leaseq_PermissionException(root);
	lq_php_ce_status[LQ_ENOTDB] = register_class_Leaseq_NotDatabaseException(root);
	lq_php_ce_status[LQ_REVOKED] = register_class_Leaseq_RevokedException(root);
	lq_php_exception_minit();
	lq_php_db_minit();
	lq_php_lease_minit();
	lq_php_task_minit();
	lq_php_worker_minit();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(leaseq)
{
	lq_php_worker_mshutdown();
	lq_php_db_pconns_free();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(leaseq)
{
	char n[32];
	php_info_print_table_start();
	php_info_print_table_header(2, "leaseq support", "enabled");
	php_info_print_table_row(2, "Extension version", PHP_LEASEQ_VERSION);
	php_info_print_table_row(2, "libleaseq version", lq_version());
	php_info_print_table_row(2, "Backends", lq_backend_built("postgres")
		? (lq_backend_built("mysql") ? "sqlite postgres mysql" : "sqlite postgres")
		: (lq_backend_built("mysql") ? "sqlite mysql" : "sqlite"));
	snprintf(n, sizeof(n), "%u", LQG(pconns_ready) ? zend_hash_num_elements(&LQG(pconns)) : 0);
	php_info_print_table_row(2, "Persistent handles", n);
	php_info_print_table_end();
}

static const zend_module_dep leaseq_deps[] = {
	ZEND_MOD_REQUIRED("spl")
	ZEND_MOD_REQUIRED("date")
	ZEND_MOD_END
};

zend_module_entry leaseq_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	leaseq_deps,
	"leaseq",
	NULL,
	PHP_MINIT(leaseq),
	PHP_MSHUTDOWN(leaseq),
	NULL,
	NULL,
	PHP_MINFO(leaseq),
	PHP_LEASEQ_VERSION,
	PHP_MODULE_GLOBALS(leaseq),
	PHP_GINIT(leaseq),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX,
};

#ifdef COMPILE_DL_LEASEQ
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(leaseq)
#endif
