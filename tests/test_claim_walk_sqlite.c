/*
 * test_claim_walk_sqlite.c - a claim on SQLite starts at the highest
 * priority that has a due task.  The claims walk lq_task_claim (queue,
 * priority DESC, run_at, id); from the left, a walk read every task of a
 * higher priority that is not due yet before the due ones of a lower one.
 * The work of each claim statement is counted in SQLite's own virtual
 * machine steps (sqlite3_stmt_status), on the library's statement text.
 */
#include <sqlite3.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"
#include "backend/backend.h"

static void exec_ok(sqlite3 *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* The VM steps of one run of catalogue statement id (text parameters),
 * rolled back; *rows: the rows it returned. */
static int steps_of(sqlite3 *s, lq_sql_id id, const char *const *params, int n, int *rows)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s, lq__sql_sqlite[id], -1, &st, NULL) != SQLITE_OK)
		fail_msg("prepare %s: %s", lq__sql_name(id), sqlite3_errmsg(s));
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC);
	exec_ok(s, "BEGIN");
	int rc;
	*rows = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		(*rows)++;
	if (rc != SQLITE_DONE)
		fail_msg("%s: %s", lq__sql_name(id), sqlite3_errmsg(s));
	int steps = sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0);
	sqlite3_finalize(st);
	exec_ok(s, "ROLLBACK");
	return steps;
}

static void claims_skip_future_priorities(void **state)
{
	(void)state;
	const char *dsn = lqt_dsn("sqlite");
	lq_db *db = lqt_open_fresh(dsn); /* migrated */
	sqlite3 *s = lqt_sqlite_open(dsn, SQLITE_OPEN_READWRITE);
	/* 20 000 tasks of priority 5 due in a year; 20 due ones of priority 0. */
	exec_ok(s, "WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 20000) "
		   "INSERT INTO lq_task (queue, name, run_at, priority) "
		   "SELECT 'pw', 'later', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) "
		   "+ 31536000000 + i, 5 FROM g");
	exec_ok(s, "WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 20) "
		   "INSERT INTO lq_task (queue, name, run_at, priority) SELECT 'pw', 'due', i, 0 FROM g");
	/* queue pwf: the same tasks in four partitions, claimed fairly */
	exec_ok(s, "INSERT INTO lq_task (queue, name, run_at, priority, part) "
		   "SELECT 'pwf', name, run_at, priority, 'p' || (id % 4) FROM lq_task WHERE queue = 'pw'");
	exec_ok(s, "INSERT INTO lq_partition (queue, name, served) VALUES ('pwf', 'p0', 0), ('pwf', 'p1', 1), "
		   "('pwf', 'p2', 2), ('pwf', 'p3', 3)");
	exec_ok(s, "ANALYZE");

	static const struct {
		lq_sql_id id;
		int n;
		const char *params[4];
	} claims[] = {{LQ_SQL_task_candidates, 2, {"pw", "2"}},
		      {LQ_SQL_task_claim_batch_delete, 2, {"pw", "2"}},
		      {LQ_SQL_task_claim_batch_update, 4, {"pw", "2", "w", "30000"}},
		      {LQ_SQL_task_claim_one_delete, 1, {"pw"}},
		      {LQ_SQL_task_claim_one_update, 3, {"pw", "w", "30000"}},
		      {LQ_SQL_task_candidates_fair, 2, {"pwf", "2"}}};
	int walked = 0;
	for (size_t k = 0; k < sizeof(claims) / sizeof(claims[0]); k++) {
		int rows = 0;
		int steps = steps_of(s, claims[k].id, claims[k].params, claims[k].n, &rows);
		print_message("%s: %d rows, %d VM steps\n", lq__sql_name(claims[k].id), rows, steps);
		assert_int_equal(rows, claims[k].n == 1 || claims[k].id == LQ_SQL_task_claim_one_update ? 1 : 2);
		/* A claim of one or two tasks takes hundreds of steps; a walk
		 * over the 20 000 future tasks, hundreds of thousands. */
		if (steps > 20000)
			walked++;
	}
	assert_int_equal(sqlite3_close(s), SQLITE_OK);
	lq_close(db);
	if (walked)
		fail_msg("%d claims walk the tasks of priority 5 not due yet", walked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(claims_skip_future_priorities),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
