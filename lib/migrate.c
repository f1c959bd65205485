/*
 * migrate.c - apply migrations/<dialect>/ in order, one transaction per
 * step with its version record.  (MySQL commits DDL implicitly, so its
 * steps are one DDL each and safe to re-run.)  A schema newer than the
 * library is refused before anything is written.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct step_ctx {
	int latest;
	int applied;    /* version after this step */
	int before;     /* version seen before this step */
	int newer;      /* the database is ahead of us */
};

static lq_status step_body(lq_db *db, void *arg)
{
	struct step_ctx *s = arg;
	lq_status st = lq__exec(db, "migrate: lock", LQ_SQL_migrate_lock, NULL, 0, NULL, NULL, NULL);
	if (st == LQ_OK)
		st = lq__exec(db, "migrate: lq_schema", LQ_SQL_schema_create, NULL, 0, NULL, NULL, NULL);
	int v = 0;
	if (st == LQ_OK)
		st = lq__schema_version(db, &v);
	if (st != LQ_OK)
		return st;
	s->before = v;
	s->applied = v;
	if (v > s->latest) {
		s->newer = 1;
		return LQ_ESCHEMA; /* roll back: nothing written */
	}
	const struct lq_migration *m = NULL;
	for (size_t i = 0; i < *db->be->n_migrations; i++) {
		if (db->be->migrations[i].version > v) {
			m = &db->be->migrations[i];
			break;
		}
	}
	if (!m)
		return LQ_OK;
	char what[96];
	snprintf(what, sizeof(what), "migration %s", m->name);
	st = lq__exec_script(db, what, m->sql);
	if (st != LQ_OK)
		return st;
	lq_value p[2] = {lq_v_int(m->version), lq__v_text(m->name)};
	int64_t n = 0;
	st = lq__exec(db, what, LQ_SQL_schema_record, p, 2, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1)
		return LQ__RETRY; /* another migrator recorded it first: look again */
	s->applied = m->version;
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_migrate(lq_db *db, int *from, int *to)
{
	lq__ok(db);
	struct step_ctx s = {lq__latest_version(db), 0, 0, 0};
	int first = -1;
	lq_status st = LQ_OK;
	for (;;) {
		st = lq__tx(db, 1, "migrate", step_body, &s);
		(void)lq__exec(db, "migrate: unlock", LQ_SQL_migrate_unlock, NULL, 0, NULL, NULL, NULL);
		if (st == LQ_ESCHEMA && s.newer) {
			lq__fail(db, LQ_ESCHEMA,
				 "database %s has schema version %d, newer than this leaseq knows (%d): "
				 "upgrade leaseq; nothing was written",
				 db->dsn_redacted, s.before, s.latest);
			break;
		}
		if (st != LQ_OK)
			break;
		if (first < 0)
			first = s.before;
		if (s.applied == s.before || s.applied >= s.latest)
			break;
	}
	if (from)
		*from = first < 0 ? s.before : first;
	if (to)
		*to = s.applied;
	if (st == LQ_OK) {
		db->schema_ok = 0; /* re-check on the next call */
		lq__ok(db);
	}
	return st;
}

LQ_EXTERN(lq_status) lq_schema_status(lq_db *db, int *current, int *latest)
{
	lq__ok(db);
	if (latest)
		*latest = db->be ? lq__latest_version(db) : 0;
	int v = 0;
	lq_status st = lq__connect(db);
	if (st == LQ_OK)
		st = lq__schema_version(db, &v);
	if (current)
		*current = v;
	return st;
}

lq_status lq__drop_schema(lq_db *db)
{
	static const char *const drops[] = {
		"DROP TABLE IF EXISTS lq_task_running", "DROP TABLE IF EXISTS lq_task_cancel", "DROP TABLE IF EXISTS lq_limit", "DROP TABLE IF EXISTS lq_partition", "DROP TABLE IF EXISTS lq_counter", "DROP TABLE IF EXISTS lq_run",
		"DROP TABLE IF EXISTS lq_queue", "DROP TABLE IF EXISTS lq_task_dead",
		"DROP TABLE IF EXISTS lq_task", "DROP TABLE IF EXISTS lq_lease_slot", "DROP TABLE IF EXISTS lq_lease",
		"DROP TABLE IF EXISTS lq_schema",
	};
	for (size_t i = 0; i < sizeof(drops) / sizeof(drops[0]); i++) {
		lq_status st = lq__exec_script(db, "drop schema", drops[i]);
		if (st != LQ_OK)
			return st;
	}
	db->schema_ok = 0;
	return LQ_OK;
}
