/*
 * worker.c - Leaseq\Worker and Leaseq\Runner (placeholder while being written).
 */
#include "php_leaseq.h"
#include "zend_exceptions.h"

void lq_php_worker_minit(void) {}
void lq_php_worker_mshutdown(void) {}
ZEND_METHOD(Leaseq_Worker, __construct) { zend_throw_error(NULL, "not yet"); }
ZEND_METHOD(Leaseq_Worker, handle) { zend_throw_error(NULL, "not yet"); }
ZEND_METHOD(Leaseq_Worker, run) { zend_throw_error(NULL, "not yet"); }
ZEND_METHOD(Leaseq_Worker, stop) { zend_throw_error(NULL, "not yet"); }
ZEND_METHOD(Leaseq_Runner, tick) { zend_throw_error(NULL, "not yet"); }
