/*
 * leasectl_dashboard.h - the page "leasectl serve" shows at /, and the
 * actions it takes (only with --allow-actions and a secret).
 */
#ifndef LEASECTL_DASHBOARD_H
#define LEASECTL_DASHBOARD_H

#include <microhttpd.h>
#include <stdio.h>

#include "leasectl.h"

#define LC_DASH_TREND_QUEUES 64  /* queues whose trend is kept */
#define LC_DASH_TREND_SAMPLES 60 /* one per LC_DASH_SAMPLE_MS: ten minutes */
#define LC_DASH_SAMPLE_MS 10000

struct lc_dash_trend {
	char queue[LQ_NAME_MAX + 1];
	int64_t due[LC_DASH_TREND_SAMPLES]; /* oldest first once full */
	size_t n, next;
};

struct lc_dashboard {
	int allow_actions;
	char secret[256];
	size_t secret_len;
	char csrf[65]; /* random per process; in every form, required on POST */
	struct lc_dash_trend trend[LC_DASH_TREND_QUEUES];
	size_t ntrend;
	int64_t last_sample_ms;
};

/* With allow_actions, read the secret from secret_file (its first line, at
 * least 16 bytes) and make the CSRF token.  0 or an exit status (the error
 * printed). */
int lc_dashboard_init(const struct lc_ctx *ctx, struct lc_dashboard *d, int allow_actions, const char *secret_file);
/* Write the page. */
lq_status lc_dashboard_page(struct lc_dashboard *d, lq_db *db, FILE *f);
/* POST /action with its form body: checks the method, secret (HTTP basic
 * auth, any user name), same origin and CSRF token, then acts.  Queues the
 * response itself. */
enum MHD_Result lc_dashboard_action(struct lc_dashboard *d, lq_db *db, struct MHD_Connection *conn,
				    const char *body, size_t len);

/* In leasectl_serve.c: a text reply, and a 303 to location with text. */
enum MHD_Result lc_serve_reply_text(struct MHD_Connection *c, unsigned code, const char *text);
enum MHD_Result lc_serve_redirect(struct MHD_Connection *c, const char *location, const char *text);

#endif
