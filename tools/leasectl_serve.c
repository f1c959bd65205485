/*
 * leasectl_serve.c - "leasectl serve": /metrics (Prometheus), /healthz and a
 * read-only dashboard at /, over HTTP with GNU libmicrohttpd.  One database
 * connection, used by the server's one thread; every page is read fresh
 * from the database.  Nothing can be changed through it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

struct serve_args {
	const char *listen;
};
static const struct lc_opt serve_opts[] = {
	LC_VALUE(struct serve_args, listen, "listen", 0, "HOST:PORT", 0,
		 "where to listen (default 127.0.0.1:9464; port 0 picks a free one,\n"
		 "printed on standard error)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_serve_usage = {
	.path = "serve",
	.summary = "HTTP: Prometheus /metrics, /healthz and a read-only dashboard",
	.description =
		"Serves, until SIGTERM or SIGINT:\n"
		"  /metrics  the counts of 'leasectl stats --format prometheus', plus\n"
		"            leaseq_up (1: the database answered); bounded on a queue\n"
		"            of any size: per-queue task, due and dead counts stop at\n"
		"            leaseq_queue_count_cap (10000); counters (_total) of runs\n"
		"            per queue and name and of leases taken, lost and broken\n"
		"  /healthz  200 \"ok\" when the database answers and its schema is current,\n"
		"            else 503 and the reason (for load balancers and monitors)\n"
		"  /         a dashboard that refreshes itself every 5 s: queues with\n"
		"            their live, due and dead tasks, leases with holder, token and\n"
		"            expiry, and the most recent dead tasks with their errors\n"
		"Read-only: GET and HEAD only, nothing can be changed through it.  Listens\n"
		"on loopback unless told otherwise; put a reverse proxy with\n"
		"authentication in front of it before exposing it.  The DSN and its\n"
		"password are never shown.",
	.opts = serve_opts,
	.examples = "leasectl serve\n"
		    "leasectl --db postgresql://monitor@db/app serve --listen 0.0.0.0:9464",
	.exits = "0   stopped by SIGTERM or SIGINT\n64  bad usage (e.g. --listen without a port)\n"
		 "1   could not listen",
};

#ifdef LC_HAVE_MHD
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define SERVE_DEFAULT_PORT 9464
#define DASH_DEAD_ROWS 20

struct server {
	struct lc_ctx *ctx;
	lq_db *db;
};

/* ------------------------------------------------------------ output */

static void html(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

struct dead_ring {
	lq_task t[DASH_DEAD_ROWS];
	size_t n, next;
};

/* Keep the last DASH_DEAD_ROWS dead tasks (the list comes by id). */
static int keep_dead(const lq_task *t, void *arg)
{
	struct dead_ring *r = arg;
	lq_task *slot = &r->t[r->next];

	if (r->n == DASH_DEAD_ROWS)
		lq_task_clear(slot);
	else
		r->n++;
	*slot = *t;
	slot->payload = NULL; /* lists load none */
	slot->payload_len = 0;
	slot->last_error = t->last_error ? strdup(t->last_error) : NULL; /* t's belongs to the library */
	r->next = (r->next + 1) % DASH_DEAD_ROWS;
	return 0;
}

struct lease_rows {
	FILE *f;
	int64_t now;
};

static int lease_row(const lq_lease *l, void *arg)
{
	struct lease_rows *lr = arg;
	char exp[96];

	lc_fmt_when(exp, sizeof(exp), l->expires_at, lr->now);
	fputs("<tr><td>", lr->f);
	html(lr->f, l->name);
	fprintf(lr->f, "</td><td>%s</td><td>", lq_lease_held(l) ? "held" : "free");
	html(lr->f, lq_lease_held(l) ? l->owner : "");
	fprintf(lr->f, "</td><td class=n>%lld</td><td>", (long long)l->token);
	html(lr->f, lq_lease_held(l) ? exp : "");
	fputs("</td></tr>\n", lr->f);
	return 0;
}

static lq_status dashboard(struct server *sv, FILE *f)
{
	struct lc_stats s = {0};
	struct dead_ring dead = {0};
	char now[40], when[96];
	lq_status st = lc_stats_collect(sv->db, &s);

	if (st != LQ_OK) {
		free(s.q);
		return st;
	}
	lc_fmt_time(now, sizeof(now), s.now);
	fputs("<!doctype html>\n<html><head><meta charset=utf-8><meta http-equiv=refresh content=5>\n"
	      "<title>leaseq</title><style>body{font:14px sans-serif;margin:2em}"
	      "table{border-collapse:collapse;margin-bottom:2em}td,th{padding:3px 10px;border-bottom:1px solid #ddd;"
	      "text-align:left}.n{text-align:right}</style></head><body>\n",
	      f);
	fprintf(f, "<h1>leaseq</h1>\n<p id=summary>database clock <span id=now>%s</span> &middot; "
		   "<span id=leases>%lld</span> leases (<span id=held>%lld</span> held) &middot; "
		   "<span id=live>%lld</span> live tasks, <span id=due>%lld</span> due, "
		   "<span id=dead>%lld</span> dead</p>\n",
		now, (long long)s.leases, (long long)s.held, (long long)s.live, (long long)s.due, (long long)s.dead);
	fputs("<h2>Queues</h2>\n<table id=queues><tr><th>queue</th><th>state</th><th class=n>tasks</th>"
	      "<th class=n>due</th><th class=n>dead</th><th>next run</th></tr>\n",
	      f);
	for (size_t i = 0; i < s.nq; i++) {
		const lq_queue_info *q = &s.q[i];
		lc_fmt_when(when, sizeof(when), q->next_run_at, s.now);
		fputs("<tr><td>", f);
		html(f, q->name);
		fprintf(f, "</td><td>%s</td><td class=n>%lld</td><td class=n>%lld</td><td class=n>%lld</td><td>",
			q->paused ? "paused" : "active", (long long)q->tasks, (long long)q->due, (long long)q->dead);
		html(f, when);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Leases</h2>\n<table id=leases-table><tr><th>name</th><th>state</th><th>holder</th>"
	      "<th class=n>token</th><th>expires</th></tr>\n",
	      f);
	struct lease_rows lr = {f, s.now};
	st = lq_lease_list(sv->db, lease_row, &lr);
	fputs("</table>\n<h2>Recent failures (dead tasks)</h2>\n<table id=failures><tr><th class=n>id</th>"
	      "<th>queue</th><th>name</th><th class=n>attempts</th><th>died</th><th>last error</th></tr>\n",
	      f);
	if (st == LQ_OK)
		st = lq_task_list(sv->db, NULL, LQ_LIST_DEAD, keep_dead, &dead);
	for (size_t k = 0; k < dead.n; k++) {
		/* newest first */
		lq_task *t = &dead.t[(dead.next + DASH_DEAD_ROWS - 1 - k) % DASH_DEAD_ROWS];
		lc_fmt_when(when, sizeof(when), t->died_at, s.now);
		fprintf(f, "<tr><td class=n>%lld</td><td>", (long long)t->id);
		html(f, t->queue);
		fputs("</td><td>", f);
		html(f, t->name);
		fprintf(f, "</td><td class=n>%d</td><td>", t->attempts);
		html(f, when);
		fputs("</td><td>", f);
		html(f, t->last_error);
		fputs("</td></tr>\n", f);
	}
	for (size_t k = 0; k < dead.n; k++)
		lq_task_clear(&dead.t[k]);
	fputs("</table>\n</body></html>\n", f);
	free(s.q);
	return st;
}

/* ------------------------------------------------------------ HTTP */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned code, const char *text)
{
	char *b = strdup(text);
	return b ? reply(c, code, "text/plain; charset=utf-8", b, strlen(b)) : MHD_NO;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
			      const char *version, const char *upload, size_t *upload_size, void **state)
{
	struct server *sv = cls;
	char *buf = NULL, line[600];
	size_t len = 0;
	FILE *f;
	lq_status st = LQ_OK;
	unsigned code = MHD_HTTP_OK;
	const char *type = "text/plain; charset=utf-8";

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)state;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only: GET and HEAD only\n");
	if (strcmp(url, "/") && strcmp(url, "/metrics") && strcmp(url, "/healthz"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /, /metrics or /healthz\n");
	if (!(f = open_memstream(&buf, &len)))
		return MHD_NO;
	if (!strcmp(url, "/healthz")) {
		int current = 0, latest = 0;
		st = lq_schema_status(sv->db, &current, &latest);
		if (st == LQ_OK && current != latest) {
			code = MHD_HTTP_SERVICE_UNAVAILABLE;
			fprintf(f, "schema version %d, leasectl knows %d: run 'leasectl migrate'\n", current, latest);
		} else if (st == LQ_OK) {
			fputs("ok\n", f);
		}
	} else if (!strcmp(url, "/metrics")) {
		struct lc_stats s = {0};
		type = "text/plain; version=0.0.4; charset=utf-8";
		/* Bounded on a queue of any size: capped per-queue counts and
		 * the counters, no scan of the task table or the history. */
		st = lc_stats_collect_bounded(sv->db, &s);
		fprintf(f, "# HELP leaseq_up 1 when the database answered this scrape.\n# TYPE leaseq_up gauge\n"
			   "leaseq_up %d\n", st == LQ_OK);
		if (st == LQ_OK)
			lc_stats_prometheus(f, &s);
		lc_stats_free(&s);
		st = LQ_OK; /* a scrape of a database that is down is still an answer: leaseq_up 0 */
	} else {
		type = "text/html; charset=utf-8";
		st = dashboard(sv, f);
	}
	if (st != LQ_OK) {
		const char *m = lq_errmsg(sv->db);
		fclose(f);
		free(buf);
		code = !strcmp(url, "/healthz") ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_INTERNAL_SERVER_ERROR;
		snprintf(line, sizeof(line), "%s\n", m && *m ? m : lq_status_str(st));
		return reply_text(conn, code, line);
	}
	fclose(f);
	return reply(conn, code, type, buf, len);
}

/* HOST:PORT, [V6]:PORT or PORT into addr; 0 or LC_EXIT_USAGE. */
static int parse_listen(const struct lc_ctx *ctx, const char *text, struct sockaddr_storage *ss, socklen_t *sl)
{
	char host[256] = "127.0.0.1";
	const char *port = text, *colon = strrchr(text, ':');
	int64_t p;

	if (colon) {
		size_t n = (size_t)(colon - text);
		const char *h = text;
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (n == 0 || n >= sizeof(host))
			return lc_usage_error(ctx, "--listen \"%s\": expected HOST:PORT", text);
		memcpy(host, h, n);
		host[n] = '\0';
		port = colon + 1;
	}
	if (lc_integer(ctx, "--listen port", port, 0, 65535, &p))
		return LC_EXIT_USAGE;
	memset(ss, 0, sizeof(*ss));
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		*sl = sizeof(*v4);
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		*sl = sizeof(*v6);
	} else {
		return lc_usage_error(ctx, "--listen \"%s\": \"%s\" is not an IP address", text, host);
	}
	return 0;
}

int cmd_serve(struct lc_ctx *ctx, int argc, char **argv)
{
	struct serve_args a = {0};
	int rc = lc_parse(ctx, &lc_serve_usage, &a, argc, argv);
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	struct server sv = {ctx, NULL};
	struct MHD_Daemon *d;
	char addr[INET6_ADDRSTRLEN + 2] = "";
	unsigned port = 0;
	char def[32];

	if (rc)
		return LC_PARSE_EXIT(rc);
	snprintf(def, sizeof(def), "127.0.0.1:%d", SERVE_DEFAULT_PORT);
	if ((rc = parse_listen(ctx, a.listen ? a.listen : def, &ss, &sl)))
		return rc;
	if (lc_sig_init() != 0) {
		lc_errorf("cannot create a pipe: %s", strerror(errno));
		return LC_EXIT_FAIL;
	}
	lc_sig_catch(SIGTERM, NULL);
	lc_sig_catch(SIGINT, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Opened lazily: a database that is down at start is a 503, not an exit. */
	if (lq_open(lc_dsn(ctx), &sv.db) != LQ_OK && !sv.db) {
		lc_errorf("serve: out of memory");
		return LC_EXIT_FAIL;
	}
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
			     0, NULL, NULL, handle, &sv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
			     MHD_OPTION_END);
	if (!d) {
		lc_errorf("serve: cannot listen on %s: %s", a.listen ? a.listen : def, strerror(errno));
		lq_close(sv.db);
		return LC_EXIT_FAIL;
	}
	{
		const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
		port = info ? info->port : 0;
		if (ss.ss_family == AF_INET6) {
			addr[0] = '[';
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, addr + 1, INET6_ADDRSTRLEN);
			strcat(addr, "]");
		} else {
			inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, addr, sizeof(addr));
		}
	}
	fprintf(stderr, "serve: listening on http://%s:%u/ (/metrics, /healthz)\n", addr, port);
	for (;;) {
		struct pollfd pfd = {.fd = lc_sig_fd(), .events = POLLIN};
		int b, stop = 0;
		poll(&pfd, 1, -1);
		while (lc_sig_next(&b))
			stop = 1;
		if (stop)
			break;
	}
	MHD_stop_daemon(d);
	lq_close(sv.db);
	fprintf(stderr, "serve: stopped\n");
	return LC_EXIT_OK;
}
#else
int cmd_serve(struct lc_ctx *ctx, int argc, char **argv)
{
	int rc = lc_parse(ctx, &lc_serve_usage, &(struct serve_args){0}, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	lc_errorf("serve: this leasectl was built without GNU libmicrohttpd (libmicrohttpd-dev)");
	return LC_EXIT_FAIL;
}
#endif
