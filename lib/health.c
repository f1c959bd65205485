/*
 * health.c - the facts "leasectl doctor" judges: schema version, the
 * database clock, stuck claims and leases, overdue and dead tasks, missing
 * indexes and SQLite's journal mode.  Read-only.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The indexes the migrations create (the same names in every dialect). */
static const char *const expected_indexes[] = {
	"lq_task_due", "lq_task_unique", "lq_task_dead_queue", "lq_task_dead_died_at", "lq_task_claim",
	"lq_task_alert",
	"lq_task_part",
};
#define N_EXPECTED (sizeof(expected_indexes) / sizeof(expected_indexes[0]))

struct index_seen {
	int seen[N_EXPECTED];
};

static int index_row(void *ctx, const lq_value *cols, int ncols)
{
	struct index_seen *s = ctx;

	if (ncols < LQ_COLS_health_indexes || !cols[0].s) /* text or, from some catalogues, binary */
		return 0;
	for (size_t i = 0; i < N_EXPECTED; i++)
		if (cols[0].len == strlen(expected_indexes[i]) &&
		    !memcmp(cols[0].s, expected_indexes[i], cols[0].len))
			s->seen[i] = 1;
	return 0;
}

static int counts_row(void *ctx, const lq_value *cols, int ncols)
{
	lq_health *h = ctx;

	if (ncols < LQ_COLS_health_counts)
		return 0;
	h->expired_claims = lq__col_int(&cols[0]);
	h->oldest_expired_claim_ms = lq__col_int(&cols[1]);
	h->stale_leases = lq__col_int(&cols[2]);
	h->overdue_tasks = lq__col_int(&cols[3]);
	h->most_overdue_ms = lq__col_int(&cols[4]);
	h->dead_tasks = lq__col_int(&cols[5]);
	h->db_now = lq__col_int(&cols[6]);
	return 0;
}

static int journal_row(void *ctx, const lq_value *cols, int ncols)
{
	lq_health *h = ctx;

	if (ncols >= LQ_COLS_health_journal && cols[0].s) {
		size_t n = cols[0].len < sizeof(h->journal_mode) - 1 ? cols[0].len : sizeof(h->journal_mode) - 1;
		memcpy(h->journal_mode, cols[0].s, n);
		h->journal_mode[n] = '\0';
	}
	return 0;
}

LQ_EXTERN(lq_status) lq_health_check(lq_db *db, int64_t grace_ms, lq_health *out)
{
	struct index_seen seen = {{0}};
	lq_status st;

	lq__ok(db);
	memset(out, 0, sizeof(*out));
	if (grace_ms < 0)
		return lq__fail(db, LQ_EINVAL, "health check: the grace period must not be negative");
	/* One version read when the schema is current (lq__ready's); the
	 * versions are read again only to describe a schema that is not. */
	if ((st = lq__ready(db)) == LQ_ESCHEMA)
		lq_schema_status(db, &out->schema_current, &out->schema_latest);
	if (st != LQ_OK)
		return st;
	out->schema_current = out->schema_latest = lq__latest_version(db);
	lq_value p[1] = {lq_v_int(grace_ms)};
	if ((st = lq__exec(db, "health check", LQ_SQL_health_counts, p, 1, counts_row, out, NULL)) != LQ_OK ||
	    (st = lq__exec(db, "health check", LQ_SQL_health_indexes, NULL, 0, index_row, &seen, NULL)) != LQ_OK ||
	    (st = lq__exec(db, "health check", LQ_SQL_health_journal, NULL, 0, journal_row, out, NULL)) != LQ_OK)
		return st;
	for (size_t i = 0; i < N_EXPECTED; i++) {
		if (seen.seen[i])
			continue;
		size_t used = strlen(out->missing_indexes);
		snprintf(out->missing_indexes + used, sizeof(out->missing_indexes) - used, "%s%s", used ? " " : "",
			 expected_indexes[i]);
	}
	return LQ_OK;
}
