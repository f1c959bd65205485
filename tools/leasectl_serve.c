/*
 * leasectl_serve.c - "leasectl serve": /metrics (Prometheus), /healthz and
 * the dashboard at / (leasectl_dashboard.c), over HTTP with GNU
 * libmicrohttpd.  One database connection, used by the server's one thread;
 * every page is read fresh from the database.  Nothing can be changed
 * through it unless it was started with --allow-actions and a secret.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

struct serve_args {
	const char *listen, *secret_file, *log_format;
	int allow_actions;
};
static const struct lc_opt serve_opts[] = {
	LC_VALUE(struct serve_args, listen, "listen", 0, "HOST:PORT", 0,
		 "where to listen (default 127.0.0.1:9464; port 0 picks a free one,\n"
		 "printed on standard error)"),
	LC_FLAG(struct serve_args, allow_actions, "allow-actions", 0,
		"let the dashboard retry dead tasks, run a schedule now, pause and\n"
		"resume schedules and queues, break leases and cancel running tasks\n"
		"(needs --secret-file)"),
	LC_VALUE(struct serve_args, secret_file, "secret-file", 0, "FILE", 0,
		 "the password for actions: the file's first line, 16 characters\n"
		 "or more (the browser asks for it; any user name)"),
	LC_LOG_OPT(struct serve_args, log_format),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_serve_usage = {
	.path = "serve",
	.summary = "HTTP: Prometheus /metrics, /healthz and a dashboard (read-only by default)",
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
		"            their live, due and dead tasks and the trend of their due\n"
		"            count, recurring schedules with their next run, the tasks\n"
		"            running under at-least-once claims, leases with holder,\n"
		"            token and expiry, and the most recent dead tasks\n"
		"            with their errors\n"
		"Read-only by default: GET and HEAD only, nothing can be changed through\n"
		"it.  With --allow-actions the dashboard also shows buttons (retry a dead\n"
		"task, run a schedule now, pause or resume a schedule or a queue, break a\n"
		"held lease, cancel a running task as 'task cancel' does; a run-now refused\n"
		"because an occurrence is due, running or paused answers 409); each is a POST to\n"
		"/action that needs the secret of --secret-file (HTTP basic auth), comes\n"
		"from the dashboard's own origin and carries the page's form token\n"
		"(CSRF protection); anything else is refused and changes nothing.\n"
		"Listens on loopback unless told otherwise; use a TLS reverse proxy\n"
		"before exposing it.  The DSN and its password are never shown.",
	.opts = serve_opts,
	.examples = "leasectl serve\n"
		    "leasectl --db postgresql://monitor@db/app serve --listen 0.0.0.0:9464\n"
		    "(umask 077; tr -dc A-Za-z0-9 </dev/urandom | head -c 32 > ~/.leaseq-dashboard)\n"
		    "leasectl serve --allow-actions --secret-file ~/.leaseq-dashboard \\\n"
		    "    --log-format json",
	.exits = "0   stopped by SIGTERM or SIGINT\n"
		 "64  bad usage (e.g. --listen without a port, --allow-actions without a\n"
		 "    secret of 16 characters or more)\n"
		 "1   could not listen",
};

#ifdef LC_HAVE_MHD
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>

#include "leasectl_dashboard.h"
#include <sys/socket.h>

#define SERVE_DEFAULT_PORT 9464

#define ACTION_BODY_MAX 4096

struct server {
	struct lc_ctx *ctx;
	lq_db *db;
	struct lc_dashboard dash;
};

/* A POST body being received. */
struct upload {
	size_t len;
	int too_big;
	char body[ACTION_BODY_MAX];
};

/* libmicrohttpd's own messages ("Failed to bind to port 0: ...", naming
 * the port option, not the address) are kept while the daemon starts:
 * leasectl says why in its own line; once it runs, they are logged as ours. */
struct mhd_log {
	int started;
	char last[256];
};

static void mhd_logger(void *cls, const char *fmt, va_list ap)
{
	struct mhd_log *ml = cls;
	char msg[512];
	size_t n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	if (!ml->started)
		snprintf(ml->last, sizeof(ml->last), "%.*s", (int)sizeof(ml->last) - 1, msg); /* cut, on purpose */
	else
		lc_errorf("serve: %s", msg);
}

/* ------------------------------------------------------------ HTTP */

static enum MHD_Result reply_to(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len,
				 const char *location)
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
	/* No scripts at all; forms post only here; no framing (clickjacking). */
	MHD_add_response_header(r, "Content-Security-Policy",
				"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	if (location)
		MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, location);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len)
{
	return reply_to(c, code, type, body, len, NULL);
}

enum MHD_Result lc_serve_reply_text(struct MHD_Connection *c, unsigned code, const char *text)
{
	char *b = strdup(text);
	return b ? reply(c, code, "text/plain; charset=utf-8", b, strlen(b)) : MHD_NO;
}

enum MHD_Result lc_serve_redirect(struct MHD_Connection *c, const char *location, const char *text)
{
	char *b = strdup(text);
	return b ? reply_to(c, MHD_HTTP_SEE_OTHER, "text/plain; charset=utf-8", b, strlen(b), location) : MHD_NO;
}

/* Collect a POST /action body (bounded), then hand it to the dashboard. */
static enum MHD_Result action(struct server *sv, struct MHD_Connection *conn, const char *upload,
			      size_t *upload_size, void **state)
{
	struct upload *u = *state;

	if (!u) {
		if (!(u = calloc(1, sizeof(*u))))
			return MHD_NO;
		*state = u;
		return MHD_YES;
	}
	if (*upload_size) {
		if (u->len + *upload_size > sizeof(u->body))
			u->too_big = 1;
		else
			memcpy(u->body + u->len, upload, *upload_size);
		u->len += *upload_size;
		*upload_size = 0;
		return MHD_YES;
	}
	if (u->too_big)
		return lc_serve_reply_text(conn, MHD_HTTP_CONTENT_TOO_LARGE, "an action's form is at most 4096 bytes\n");
	return lc_dashboard_action(&sv->dash, sv->db, conn, u->body, u->len);
}

static void request_done(void *cls, struct MHD_Connection *conn, void **state, enum MHD_RequestTerminationCode tc)
{
	(void)cls;
	(void)conn;
	(void)tc;
	free(*state);
	*state = NULL;
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
	if (sv->dash.allow_actions && !strcmp(url, "/action") && !strcmp(method, "POST"))
		return action(sv, conn, upload, upload_size, state);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return lc_serve_reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
					   sv->dash.allow_actions ? "GET and HEAD only (actions: POST /action)\n"
								  : "read-only: GET and HEAD only\n");
	if (strcmp(url, "/") && strcmp(url, "/metrics") && strcmp(url, "/healthz"))
		return lc_serve_reply_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /, /metrics or /healthz\n");
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
		if (st == LQ_OK)
			lc_prom_schedules(f, sv->db); /* the dead-man gauges; a failure only shortens them */
		lc_stats_free(&s);
		st = LQ_OK; /* a scrape of a database that is down is still an answer: leaseq_up 0 */
	} else {
		type = "text/html; charset=utf-8";
		st = lc_dashboard_page(&sv->dash, sv->db, f);
	}
	if (st != LQ_OK) {
		const char *m = lq_errmsg(sv->db);
		fclose(f);
		free(buf);
		code = !strcmp(url, "/healthz") ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_INTERNAL_SERVER_ERROR;
		snprintf(line, sizeof(line), "%s\n", m && *m ? m : lq_status_str(st));
		return lc_serve_reply_text(conn, code, line);
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
	static struct server sv; /* large (the trend samples): not on the stack */
	static struct mhd_log ml; /* the daemon's thread writes it */
	int err;
	struct MHD_Daemon *d;
	char addr[INET6_ADDRSTRLEN + 2] = "";
	unsigned port = 0;
	char def[32], url[INET6_ADDRSTRLEN + 32];

	if (rc)
		return LC_PARSE_EXIT(rc);
	snprintf(def, sizeof(def), "127.0.0.1:%d", SERVE_DEFAULT_PORT);
	if ((rc = lc_log_set_format(ctx, a.log_format)) || (rc = parse_listen(ctx, a.listen ? a.listen : def, &ss, &sl)) ||
	    (rc = lc_dashboard_init(ctx, &sv.dash, a.allow_actions, a.secret_file)))
		return rc;
	sv.ctx = ctx;
	if (lc_sig_init() != 0) {
		lc_errorf("cannot create a pipe: %s", strerror(errno));
		return LC_EXIT_FAIL;
	}
	lc_sig_catch(SIGTERM, NULL);
	lc_sig_catch(SIGINT, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Opened lazily: a database that is down at start is a 503, not an
	 * exit.  Never creates one (a missing file is a 503 until migrate);
	 * not LQ_OPEN_READONLY: it runs for long, and a read-only handle may
	 * read a WAL file as it stands and miss later writes (--allow-actions
	 * writes, too). */
	if (lq_open_ex(lc_dsn(ctx), LQ_OPEN_NOCREATE, &sv.db) != LQ_OK && !sv.db) {
		lc_errorf("serve: out of memory");
		return LC_EXIT_FAIL;
	}
	errno = 0;
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
			     0, NULL, NULL, handle, &sv, MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, &ml,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
			     MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL, MHD_OPTION_END);
	err = errno;
	if (!d) {
		lc_errorf("serve: cannot listen on %s: %s", a.listen ? a.listen : def,
			  err ? strerror(err) : ml.last[0] ? ml.last : "libmicrohttpd could not start");
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
	ml.started = 1;
	snprintf(url, sizeof(url), "http://%s:%u/", addr, port);
	if (lc_log_is_json())
		lc_log_event("info", "listening", &(struct lc_log_fields){.message = url});
	else
		fprintf(stderr, "serve: listening on %s (/metrics, /healthz%s)\n", url,
			sv.dash.allow_actions ? ", actions allowed" : "");
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
	if (lc_log_is_json())
		lc_log_event("info", "stopped", NULL);
	else
		fprintf(stderr, "serve: stopped\n");
	return LC_EXIT_OK;
}

int lc_serve_built(void)
{
	return 1;
}
#else
int lc_serve_built(void)
{
	return 0;
}

int cmd_serve(struct lc_ctx *ctx, int argc, char **argv)
{
	int rc = lc_parse(ctx, &lc_serve_usage, &(struct serve_args){0}, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	lc_errorf("serve: this leasectl was built without GNU libmicrohttpd (libmicrohttpd-dev)");
	return LC_EXIT_FAIL;
}
#endif
