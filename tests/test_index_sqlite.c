/*
 * test_index_sqlite.c - on SQLite, the indexes of columns that most tasks
 * leave NULL (a unique key, a schedule's dead-man bound) are partial: they
 * hold the tasks that have a value, so adding or claiming a task without
 * one writes no entry there.  Every task written costs one b-tree insert
 * or delete per index it is in.
 */
#include <sqlite3.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

/* PRAGMA index_list's "partial" column of index name of lq_task: 1, 0,
 * or -1 when there is no such index. */
static int partial_of(sqlite3 *s, const char *name)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s, "SELECT partial FROM pragma_index_list('lq_task') WHERE name = ?1", -1, &st, NULL) !=
	    SQLITE_OK)
		fail_msg("index_list: %s", sqlite3_errmsg(s));
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int partial = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return partial;
}

static void sparse_columns_have_partial_indexes(void **state)
{
	(void)state;
	const char *dsn = lqt_dsn("sqlite");
	lq_db *db = lqt_open_fresh(dsn); /* migrated */
	sqlite3 *s = lqt_sqlite_open(dsn, SQLITE_OPEN_READONLY);
	int unique = partial_of(s, "lq_task_unique"), alert = partial_of(s, "lq_task_alert");
	assert_int_equal(sqlite3_close(s), SQLITE_OK);
	lq_close(db);
	if (unique != 1 || alert != 1)
		fail_msg("lq_task_unique partial %d, lq_task_alert partial %d (want 1 and 1)", unique, alert);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sparse_columns_have_partial_indexes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
