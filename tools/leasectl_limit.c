/*
 * leasectl_limit.c - "leasectl limit set|list|rm": concurrency caps and
 * rate limits on a concurrency key or a whole queue ("queue:Q").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

#define LIMIT_EXITS "0   done\n64  bad usage or invalid input (nothing changed)\n69  database unreachable\n1   other failure"

struct set_args {
	const char *key, *concurrency, *rate;
};
static const struct lc_opt set_opts[] = {
	LC_ARG(struct set_args, key, "KEY", 0, "a concurrency key (task add --concurrency-key), or queue:Q"),
	LC_VALUE(struct set_args, concurrency, "concurrency", 0, "N", 0,
		 "at most N tasks of KEY run at once, across all workers (1 to 1000000)"),
	LC_VALUE(struct set_args, rate, "rate", 0, "N/DUR", 0,
		 "at most N starts per DUR (e.g. 10/1s, 100/1m): up to N at once, then\n"
		 "one every DUR/N"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage set_usage = {
	.path = "limit set",
	.summary = "cap how many tasks of a key run at once, or how fast they start",
	.description = "Creates or replaces the limit of KEY (the rate starts with a full bucket).\n"
		       "KEY is a concurrency key given to 'task add --concurrency-key', or\n"
		       "queue:Q for every task of queue Q.  The claim decides, in the database:\n"
		       "a key at its limit is skipped, so other keys' tasks run past it.  A task\n"
		       "under a concurrency cap is claimed with a claim lease (renewed while it\n"
		       "runs) even by an at-most-once worker, so a crashed worker's slot frees\n"
		       "when its claim expires.  JSON: {key, concurrency, rate_n, rate_period_ms}.",
	.opts = set_opts,
	.examples = "leasectl limit set tenant-42 --concurrency 2\n"
		    "leasectl limit set queue:mail --rate 100/1m\n"
		    "leasectl limit set api --concurrency 5 --rate 10/1s",
	.exits = LIMIT_EXITS,
};

/* "N/DUR" into its parts; prints the error and returns LC_EXIT_USAGE. */
static int parse_rate(const struct lc_ctx *ctx, const char *key, const char *text, int *n, int64_t *period)
{
	char msg[256];

	if (lq_parse_rate(text, n, period, msg, sizeof(msg)) != LQ_OK)
		return lc_usage_error(ctx, "limit \"%s\": --rate: %s", key, msg);
	return 0;
}

static void print_limit_json(struct lc_json *j, const lq_limit *l, int filled)
{
	lc_json_obj(j);
	lc_json_kstr(j, "key", l->key);
	lc_json_kint_opt(j, "concurrency", l->concurrency);
	lc_json_kint_opt(j, "rate_n", l->rate_n);
	lc_json_kint_opt(j, "rate_period_ms", l->rate_n ? l->rate_period_ms : 0);
	if (filled) {
		lc_json_kint(j, "running", l->running);
		if (l->rate_n)
			lc_json_kint(j, "tokens", l->tokens);
		else
			lc_json_kint_opt(j, "tokens", 0);
		lc_json_kint(j, "now", l->now);
	}
	lc_json_end_obj(j);
}

static int cmd_limit_set(struct lc_ctx *ctx, int argc, char **argv)
{
	struct set_args a = {0};
	lq_limit l;
	int64_t conc = 0;
	char buf[600];
	lq_db *db = NULL;
	int rc = lc_parse(ctx, &set_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	memset(&l, 0, sizeof(l));
	if ((rc = lc_check_name(ctx, "limit key", a.key)))
		return rc;
	if (!a.concurrency && !a.rate)
		return lc_usage_error(ctx, "limit \"%s\": give --concurrency N, --rate N/DUR or both",
				      lc_pr(buf, sizeof(buf), a.key));
	if (a.concurrency && (rc = lc_integer(ctx, "--concurrency", a.concurrency, 1, 1000000, &conc)))
		return rc;
	if (a.rate && (rc = parse_rate(ctx, lc_pr(buf, sizeof(buf), a.key), a.rate, &l.rate_n, &l.rate_period_ms)))
		return rc;
	snprintf(l.key, sizeof(l.key), "%s", a.key);
	l.concurrency = (int)conc;
	if ((rc = lc_open(ctx, &db)))
		return rc;
	lq_status st = lq_limit_set(db, &l);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		print_limit_json(&j, &l, 0);
		lc_json_end(&j);
	} else {
		printf("limit \"%s\" set\n", lc_pr(buf, sizeof(buf), a.key));
	}
	lq_close(db);
	return rc;
}

struct list_args {
	int unused;
};
static const struct lc_opt list_opts[] = {
	LC_OPT_TABLE_END,
};
static const struct lc_usage list_usage = {
	.path = "limit list",
	.summary = "list limits with what runs under them now",
	.description = "One line per limit: its key, concurrency cap and how many of its tasks\n"
		       "hold a live claim now, its rate and how many starts it allows now.\n"
		       "JSON: an array of {key, concurrency, rate_n, rate_period_ms, running,\n"
		       "tokens, now} (null where no such limit is set).",
	.opts = list_opts,
	.examples = "leasectl limit list",
	.exits = "0   listed\n64  bad usage\n69  database unreachable\n1   other failure",
};

static int list_one(const lq_limit *l, void *arg)
{
	struct lc_listing *s = arg;
	char conc[32] = "-", running[32], rate[64] = "-", tokens[32] = "-", key[600];

	s->n++;
	if (s->json) {
		print_limit_json(&s->j, l, 1);
		return 0;
	}
	if (l->concurrency)
		snprintf(conc, sizeof(conc), "%d", l->concurrency);
	snprintf(running, sizeof(running), "%lld", (long long)l->running);
	if (l->rate_n) {
		char d[32];
		lc_fmt_duration(d, sizeof(d), l->rate_period_ms);
		snprintf(rate, sizeof(rate), "%d/%s", l->rate_n, d);
		snprintf(tokens, sizeof(tokens), "%lld", (long long)l->tokens);
	}
	lc_table_row(&s->t, (const char *const[]){lc_pr(key, sizeof(key), l->key), conc, running, rate, tokens});
	return 0;
}

static int cmd_limit_list(struct lc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {"KEY", "CONCURRENCY", "RUNNING", "RATE", "STARTS LEFT"};
	struct list_args a = {0};
	struct lc_listing s;
	lq_db *db = NULL;
	int rc = lc_parse(ctx, &list_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	memset(&s, 0, sizeof(s));
	if ((rc = lc_open_read(ctx, &db)))
		return rc;
	if ((rc = lc_listing_begin(&s, ctx->json, 5, heads))) {
		lq_close(db);
		return rc;
	}
	lq_status st = lq_limit_list(db, list_one, &s);
	rc = st == LQ_OK ? 0 : lc_db_error(db, st);
	lc_listing_end(&s, !rc, "no limits");
	lq_close(db);
	return rc;
}

struct rm_args {
	const char *key;
};
static const struct lc_opt rm_opts[] = {
	LC_ARG(struct rm_args, key, "KEY", 0, "the limit's key"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage rm_usage = {
	.path = "limit rm",
	.summary = "remove a limit",
	.description = "The key's tasks are no longer limited.  JSON: {key, removed}.",
	.opts = rm_opts,
	.examples = "leasectl limit rm tenant-42",
	.exits = "0   removed\n64  bad usage or invalid key\n69  database unreachable\n1   no such limit, or other failure",
};

static int cmd_limit_rm(struct lc_ctx *ctx, int argc, char **argv)
{
	struct rm_args a = {0};
	char buf[600];
	lq_db *db = NULL;
	int rc = lc_parse(ctx, &rm_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_check_name(ctx, "limit key", a.key)) || (rc = lc_open(ctx, &db)))
		return rc;
	lq_status st = lq_limit_remove(db, a.key);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "key", a.key);
		lc_json_kbool(&j, "removed", 1);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		printf("limit \"%s\" removed\n", lc_pr(buf, sizeof(buf), a.key));
	}
	lq_close(db);
	return rc;
}

const struct lc_cmd lc_limit_cmds[] = {
	{"set", cmd_limit_set, "cap how many tasks of a key run at once, or how fast they start", &set_usage, NULL},
	{"list", cmd_limit_list, "list limits with what runs under them now", &list_usage, NULL},
	{"rm", cmd_limit_rm, "remove a limit", &rm_usage, NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

int cmd_limit(struct lc_ctx *ctx, int argc, char **argv)
{
	return lc_dispatch(ctx, "limit", lc_limit_cmds, "Flow control: concurrency caps and rate limits", argc, argv);
}
