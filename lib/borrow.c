/*
 * borrow.c - handles on the application's own connection: which statements
 * may run inside the application's open transaction.  Only reads and the
 * enqueue may: a claim, ack or lease change left uncommitted in someone
 * else's transaction would hold row locks for as long as the application
 * likes and vanish with its rollback.
 */
#include "internal.h"

/* The statements of lq_task_add and of the read-only calls. */
static int joins_app_tx(lq_sql_id id)
{
	switch (id) {
	case LQ_SQL_task_insert:
	case LQ_SQL_task_insert_notify:
	case LQ_SQL_task_insert_many:
	case LQ_SQL_task_last_id:
	case LQ_SQL_task_find_unique:
	case LQ_SQL_db_now:
	case LQ_SQL_schema_exists:
	case LQ_SQL_schema_version:
	case LQ_SQL_task_get:
	case LQ_SQL_task_list:
	case LQ_SQL_task_list_dead:
	case LQ_SQL_lease_get:
	case LQ_SQL_lease_list:
	case LQ_SQL_queue_list:
	case LQ_SQL_queue_next_due:
		return 1;
	default:
		return 0;
	}
}

int lq__app_tx(lq_db *db)
{
	/* Our own transaction on a borrowed connection is not the app's. */
	if (!db->borrowed || !db->conn || (db->in_tx && !db->joined))
		return 0;
	return db->be->app_tx && db->be->app_tx(db->conn);
}

lq_status lq__borrow_check(lq_db *db, const char *what, lq_sql_id id)
{
	if (!lq__app_tx(db) || ((int)id < LQ_SQL__COUNT && joins_app_tx(id)))
		return LQ_OK;
	return lq__fail(db, LQ_ETXOPEN,
			"%s: not allowed inside the application's open transaction on a borrowed "
			"connection (only enqueues and reads join it): commit or roll back first; "
			"nothing was changed",
			what);
}

LQ_EXTERN(int) lq_db_borrowed(const lq_db *db)
{
	return db ? db->borrowed : 0;
}
