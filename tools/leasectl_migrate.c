/*
 * leasectl_migrate.c - "leasectl migrate [--status]".
 */
#include <stdio.h>

#include "leasectl.h"

struct migrate_args {
	int status;
};

static const struct lc_opt migrate_opts[] = {
	LC_FLAG(struct migrate_args, status, "status", 0,
		"only show the applied and the latest schema versions; change nothing"),
	LC_OPT_TABLE_END,
};

const struct lc_usage lc_migrate_usage = {
	.path = "migrate",
	.summary = "create or upgrade the schema, or show its version",
	.description =
		"Applies every schema migration this leasectl knows and the database lacks,\n"
		"each in its own transaction, then prints \"migrated from version A to B\" or\n"
		"\"schema is up to date (version N)\".  Safe to run again, and from several\n"
		"hosts at once.  A schema newer than this leasectl is never touched.\n"
		"With --status, prints the applied version, the latest known one and whether\n"
		"the database is behind.  JSON: {\"from\", \"to\"} or {\"current\", \"latest\",\n"
		"\"up_to_date\", \"backend\"}.",
	.opts = migrate_opts,
	.examples = "leasectl --db sqlite:/var/lib/app/leaseq.db migrate\n"
		    "LEASEQ_DSN=postgresql://app@db/app leasectl migrate --status",
	.exits = "0   migrated, already up to date, or status shown (even when behind)\n"
		 "69  database unreachable\n"
		 "1   a migration failed (nothing of that step was applied), or the schema\n"
		 "    is newer than this leasectl",
};

static int show_status(struct lc_ctx *ctx, lq_db *db)
{
	int current = 0, latest = 0;
	lq_status st = lq_schema_status(db, &current, &latest);
	char dsn[512];

	if (st != LQ_OK)
		return lc_db_error(db, st);
	lq_dsn_redact(lc_dsn(ctx), dsn, sizeof(dsn));
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "backend", lq_backend_name(db));
		lc_json_kstr(&j, "database", dsn);
		lc_json_kint(&j, "current", current);
		lc_json_kint(&j, "latest", latest);
		lc_json_kbool(&j, "up_to_date", current == latest);
		lc_json_end_obj(&j);
		lc_json_end(&j);
		return LC_EXIT_OK;
	}
	printf("database:        %s (%s)\n", dsn, lq_backend_name(db));
	printf("schema version:  %d%s\n", current, current == 0 ? " (no schema)" : "");
	printf("latest version:  %d\n", latest);
	if (current < latest)
		printf("status:          behind by %d migration%s: run 'leasectl migrate'\n", latest - current,
		       latest - current == 1 ? "" : "s");
	else if (current > latest)
		printf("status:          the database is newer than this leasectl: upgrade leasectl\n");
	else
		printf("status:          up to date\n");
	return LC_EXIT_OK;
}

int cmd_migrate(struct lc_ctx *ctx, int argc, char **argv)
{
	struct migrate_args a = {0};
	int rc = lc_parse(ctx, &lc_migrate_usage, &a, argc, argv), from = 0, to = 0;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = (a.status ? lc_open_read(ctx, &db) : lc_open(ctx, &db))))
		return rc;
	if (a.status) {
		rc = show_status(ctx, db);
		lq_close(db);
		return rc;
	}
	st = lq_migrate(db, &from, &to);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		lq_close(db);
		return rc;
	}
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "from", from);
		lc_json_kint(&j, "to", to);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else if (from == to) {
		printf("schema is up to date (version %d)\n", to);
	} else {
		printf("migrated from version %d to %d\n", from, to);
	}
	lq_close(db);
	return LC_EXIT_OK;
}
