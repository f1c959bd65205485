/*
 * leasectl_run.h - what "leasectl worker" and "leasectl tick" share: the
 * run configuration, handler commands, running the library's runner and
 * reporting what it did (tools/leasectl_worker.c).
 */
#ifndef LEASECTL_RUN_H
#define LEASECTL_RUN_H

#include "leasectl.h"

#define DEFAULT_BUDGET_MS 25000

struct handler;

struct wconf {
	struct lc_ctx *ctx;
	const char **queues; /* NULL-terminated, or NULL for "default" */
	struct handler *h;
	size_t nh;
	lq_mode mode;
	int64_t claim_ttl;
	int drain;
	int tick;
	int64_t budget;
	int64_t timeout; /* ms a handler may run; 0: no limit */
	lq_db *db;       /* the runner's handle, while it runs */
};

/* --handler NAME=CMD specs into c->h (errors printed: LC_EXIT_USAGE). */
int lc_parse_handlers(struct lc_ctx *ctx, const struct lc_list *specs, struct wconf *c);
/* Run the runner as c says; msg gets the error text when the status is not 0. */
int lc_run_runner(struct wconf *c, lq_run_report *rep, char *msg, size_t msgsize);
/* "worker: ran N, failed M, stopped: REASON" (or the JSON document / log event). */
void lc_print_run_report(const struct wconf *c, const lq_run_report *rep, int rc, const char *msg);
/* Free what lc_parse_handlers took; returns rc. */
int lc_finish_run(struct wconf *c, int rc);

#endif
