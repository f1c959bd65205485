/*
 * leasectl_dashboard.c - the page "leasectl serve" shows at /: queues with
 * their counts and due trend, recurring schedules, leases, recent failures.
 * Read-only unless serve was started with --allow-actions and a secret;
 * then each row carries its action (retry a dead task, run now, pause or
 * resume a schedule, pause or resume a queue, break a lease, cancel a
 * running task) as a small POST form, and a POST must pass three
 * checks before anything changes: the secret (HTTP basic auth), the same
 * origin (the Origin header, when the browser sends one) and the CSRF token
 * that only pages of this process carry.
 */
#ifdef LC_HAVE_MHD
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "leasectl_dashboard.h"

#define DASH_DEAD_ROWS 20
#define DASH_SCHEDULE_ROWS 50
#define DASH_RUNNING_ROWS 50
#define DASH_SECRET_MIN 16

/* ------------------------------------------------------------ setup */

int lc_dashboard_init(const struct lc_ctx *ctx, struct lc_dashboard *d, int allow_actions, const char *secret_file)
{
	unsigned char rnd[32];
	struct stat sb;
	FILE *f;
	int fd;

	memset(d, 0, sizeof(*d));
	if (!allow_actions) {
		if (secret_file)
			return lc_usage_error(ctx, "--secret-file is only used with --allow-actions");
		return 0;
	}
	if (!secret_file)
		return lc_usage_error(ctx, "--allow-actions needs --secret-file FILE (the password the dashboard asks for)");
	if (!(f = fopen(secret_file, "re"))) {
		lc_errorf("serve: --secret-file %s: %s", secret_file, strerror(errno));
		return LC_EXIT_USAGE;
	}
	if (fstat(fileno(f), &sb) != 0)
		sb.st_mode = 0;
	if (!fgets(d->secret, sizeof(d->secret), f))
		d->secret[0] = '\0';
	fclose(f);
	d->secret[strcspn(d->secret, "\r\n")] = '\0';
	d->secret_len = strlen(d->secret);
	if (d->secret_len < DASH_SECRET_MIN) {
		lc_errorf("serve: --secret-file %s: the secret (its first line) must be at least %d characters",
			  secret_file, DASH_SECRET_MIN);
		return LC_EXIT_USAGE;
	}
	if (sb.st_mode & 0077)
		fprintf(stderr, "serve: warning: --secret-file %s can be read by others (chmod 600 it)\n", secret_file);
	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0 || read(fd, rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd)) {
		lc_errorf("serve: cannot read /dev/urandom: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return LC_EXIT_FAIL;
	}
	close(fd);
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(d->csrf + 2 * i, 3, "%02x", rnd[i]);
	d->allow_actions = 1;
	return 0;
}

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

/* A one-button POST form; the target is HTML-escaped into a hidden field. */
static void action_form(const struct lc_dashboard *d, FILE *f, const char *action, const char *target, const char *label)
{
	if (!d->allow_actions)
		return;
	fprintf(f, "<form method=post action=/action class=act><input type=hidden name=csrf value=%s>"
		   "<input type=hidden name=action value=%s><input type=hidden name=target value=\"",
		d->csrf, action);
	html(f, target);
	fprintf(f, "\"><button type=submit>%s</button></form>", label);
}

/* Remember each queue's due count every LC_DASH_SAMPLE_MS (renders in
 * between change nothing), so the page can show where it is heading. */
static struct lc_dash_trend *trend_of(struct lc_dashboard *d, const char *queue)
{
	for (size_t i = 0; i < d->ntrend; i++)
		if (!strcmp(d->trend[i].queue, queue))
			return &d->trend[i];
	if (d->ntrend == LC_DASH_TREND_QUEUES)
		return NULL;
	struct lc_dash_trend *t = &d->trend[d->ntrend++];
	memset(t, 0, sizeof(*t));
	snprintf(t->queue, sizeof(t->queue), "%s", queue);
	return t;
}

static void trend_sample(struct lc_dashboard *d, const struct lc_stats *s)
{
	int64_t now = lc_mono_ms();

	if (d->last_sample_ms && now - d->last_sample_ms < LC_DASH_SAMPLE_MS)
		return;
	d->last_sample_ms = now;
	for (size_t i = 0; i < s->nq; i++) {
		struct lc_dash_trend *t = trend_of(d, s->q[i].name);
		if (!t)
			break;
		t->due[t->next] = s->q[i].due;
		t->next = (t->next + 1) % LC_DASH_TREND_SAMPLES;
		if (t->n < LC_DASH_TREND_SAMPLES)
			t->n++;
	}
}

/* An inline SVG polyline of the due counts, and the change over the window. */
static void trend_cell(FILE *f, const struct lc_dash_trend *t)
{
	int64_t max = 1, first, last;
	size_t start;

	if (!t || t->n < 2) {
		fputs("<td class=trend>&ndash;</td>", f);
		return;
	}
	start = (t->next + LC_DASH_TREND_SAMPLES - t->n) % LC_DASH_TREND_SAMPLES;
	for (size_t k = 0; k < t->n; k++)
		if (t->due[(start + k) % LC_DASH_TREND_SAMPLES] > max)
			max = t->due[(start + k) % LC_DASH_TREND_SAMPLES];
	first = t->due[start];
	last = t->due[(start + t->n - 1) % LC_DASH_TREND_SAMPLES];
	fputs("<td class=trend><svg width=120 height=20 viewBox=\"0 0 120 20\"><polyline fill=none stroke=#36c points=\"", f);
	for (size_t k = 0; k < t->n; k++) {
		int64_t v = t->due[(start + k) % LC_DASH_TREND_SAMPLES];
		fprintf(f, "%s%zu,%lld", k ? " " : "", k * 119 / (LC_DASH_TREND_SAMPLES - 1),
			(long long)(19 - v * 18 / max));
	}
	fprintf(f, "\"/></svg> %+lld due in %llds</td>", (long long)(last - first),
		(long long)((t->n - 1) * LC_DASH_SAMPLE_MS / 1000));
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

struct page {
	struct lc_dashboard *d;
	FILE *f;
	int64_t now;
};

static int lease_row(const lq_lease *l, void *arg)
{
	struct page *p = arg;
	char exp[96];

	lc_fmt_when(exp, sizeof(exp), l->expires_at, p->now);
	fputs("<tr><td>", p->f);
	html(p->f, l->name);
	fprintf(p->f, "</td><td>%s</td><td>", lq_lease_held(l) ? "held" : "free");
	html(p->f, lq_lease_held(l) ? l->owner : "");
	fprintf(p->f, "</td><td class=n>%lld</td><td>", (long long)l->token);
	html(p->f, lq_lease_held(l) ? exp : "");
	fputs("</td><td>", p->f);
	if (lq_lease_held(l))
		action_form(p->d, p->f, "break", l->name, "break");
	fputs("</td></tr>\n", p->f);
	return 0;
}

/* A recurring task as the schedules table shows it. */
struct sched_row {
	int64_t id, run_at, last_ended;
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1], sched[160];
	const char *state;
	char *last_error;
	lq_outcome last_outcome;
};

/* A task running under a live claim, with its cancel button. */
struct running_row {
	int64_t id, claim_until;
	int64_t started_at; /* 0: an at-least-once claim (its start is not kept) */
	int attempts;
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1], owner[LQ_OWNER_MAX + 1];
};

/* One pass over the live tasks: per queue, how many wait (not due yet) and
 * run (claimed now); the first DASH_SCHEDULE_ROWS recurring tasks and the
 * first DASH_RUNNING_ROWS running ones. */
struct live_scan {
	const struct lc_stats *s;
	int64_t *waiting, *running; /* by index into s->q */
	struct sched_row sched[DASH_SCHEDULE_ROWS];
	size_t nsched, more;
	struct running_row *run; /* DASH_RUNNING_ROWS of them */
	size_t nrun, more_run;
};

/* row: id, claim_until, started_at and attempts set; the names from
 * queue, name and owner. */
static void keep_running(struct live_scan *ls, struct running_row row, const char *queue, const char *name,
			 const char *owner)
{
	if (ls->nrun == DASH_RUNNING_ROWS) {
		ls->more_run++;
		return;
	}
	snprintf(row.queue, sizeof(row.queue), "%s", queue);
	snprintf(row.name, sizeof(row.name), "%s", name);
	snprintf(row.owner, sizeof(row.owner), "%s", owner);
	ls->run[ls->nrun++] = row;
}

/* A run of an at-most-once claim (worker's and tick's default): no task
 * row is left, its mark is read after the live tasks. */
static int live_running(const lq_running *run, void *arg)
{
	struct live_scan *ls = arg;

	for (size_t i = 0; i < ls->s->nq; i++)
		if (!strcmp(ls->s->q[i].name, run->queue)) {
			ls->running[i]++;
			break;
		}
	keep_running(ls, (struct running_row){run->task_id, run->claim_until, run->started_at, run->attempt, "", "", ""},
		     run->queue, run->name, run->owner);
	return 0;
}

/* The tasks workers run now (at-least-once claims, then the cancellable
 * at-most-once runs), each with what its handler last reported (one
 * indexed read per at-least-once row, at most DASH_RUNNING_ROWS; an
 * at-most-once run has no row to report into) and a button that cancels
 * it. */
static lq_status running_table(const struct lc_dashboard *d, lq_db *db, FILE *f, const struct live_scan *ls,
			       int64_t now)
{
	char until[96], when[96], started[96], pct[16], id[32];
	lq_status st = LQ_OK;

	fputs("<h2>Running tasks</h2>\n<table id=running><tr><th class=n>id</th><th>queue</th><th>name</th>"
	      "<th class=n>progress</th><th>message</th><th>reported</th>"
	      "<th class=n>attempt</th><th>claimed by</th><th>started</th><th>claim until</th><th></th></tr>\n",
	      f);
	for (size_t k = 0; k < ls->nrun && st == LQ_OK; k++) {
		const struct running_row *r = &ls->run[k];
		lq_progress p = {.percent = -1};
		if (!r->started_at)
			st = lq_task_progress_get(db, r->id, &p);
		if (st == LQ_NOTFOUND) { /* settled since the scan */
			st = LQ_OK;
			continue;
		}
		if (st != LQ_OK)
			break;
		snprintf(pct, sizeof(pct), p.percent >= 0 ? "%d%%" : "-", p.percent);
		lc_fmt_when(when, sizeof(when), p.percent >= 0 ? p.updated_at : 0, now);
		lc_fmt_when(until, sizeof(until), r->claim_until, now);
		fprintf(f, "<tr><td class=n>%lld</td><td>", (long long)r->id);
		html(f, r->queue);
		fputs("</td><td>", f);
		html(f, r->name);
		fprintf(f, "</td><td class=n>%s</td><td>", pct);
		html(f, p.message);
		fputs("</td><td>", f);
		html(f, p.percent >= 0 ? when : "");
		fprintf(f, "</td><td class=n>%d</td><td>", r->attempts);
		html(f, r->owner);
		fputs("</td><td>", f);
		if (r->started_at) {
			lc_fmt_when(started, sizeof(started), r->started_at, now);
			html(f, started);
		}
		fputs("</td><td>", f);
		html(f, until);
		fputs("</td><td>", f);
		snprintf(id, sizeof(id), "%lld", (long long)r->id);
		action_form(d, f, "cancel", id, "cancel");
		fputs("</td></tr>\n", f);
	}
	if (ls->more_run)
		fprintf(f, "<tr><td colspan=11>and %zu more: leasectl task list</td></tr>\n", ls->more_run);
	fputs("</table>\n", f);
	return st;
}

static int live_row(const lq_task *t, void *arg)
{
	struct live_scan *ls = arg;
	int running = t->claim_owner[0] && t->claim_until > t->now;

	for (size_t i = 0; i < ls->s->nq; i++) {
		if (strcmp(ls->s->q[i].name, t->queue))
			continue;
		if (running)
			ls->running[i]++;
		else if (t->run_at > t->now)
			ls->waiting[i]++;
		break;
	}
	if (running)
		keep_running(ls, (struct running_row){t->id, t->claim_until, 0, t->attempts, "", "", ""}, t->queue,
			     t->name, t->claim_owner);
	if (!t->every_ms && !t->cron[0])
		return 0;
	if (ls->nsched == DASH_SCHEDULE_ROWS) {
		ls->more++;
		return 0;
	}
	struct sched_row *r = &ls->sched[ls->nsched++];
	r->id = t->id;
	r->run_at = t->run_at;
	snprintf(r->queue, sizeof(r->queue), "%s", t->queue);
	snprintf(r->name, sizeof(r->name), "%s", t->name);
	lc_task_schedule(r->sched, sizeof(r->sched), t);
	r->state = t->paused ? "paused" : running ? "running" : "";
	r->last_error = t->last_error ? strdup(t->last_error) : NULL;
	return 0;
}

static int last_run(const lq_run *run, void *arg)
{
	struct sched_row *r = arg;
	r->last_ended = run->ended_at;
	r->last_outcome = run->outcome;
	return 1; /* newest first: one is enough */
}

/* The schedules table; each row's last run from the run history (one
 * indexed read per row, at most DASH_SCHEDULE_ROWS). */
static lq_status schedules_table(const struct lc_dashboard *d, lq_db *db, FILE *f, struct live_scan *ls, int64_t now)
{
	char when[96], last[140];
	lq_status st = LQ_OK;

	fputs("<h2>Recurring schedules</h2>\n<table id=schedules><tr><th class=n>id</th><th>queue</th>"
	      "<th>name</th><th>schedule</th><th>state</th><th>next run</th><th>last run</th><th>last error</th></tr>\n",
	      f);
	for (size_t k = 0; k < ls->nsched; k++) {
		struct sched_row *r = &ls->sched[k];
		lq_run_filter flt = LQ_RUN_FILTER_INIT;
		flt.task_id = r->id;
		flt.limit = 1;
		if (st == LQ_OK)
			st = lq_run_list(db, &flt, last_run, r);
		lc_fmt_when(when, sizeof(when), r->run_at, now);
		if (r->last_ended) {
			char ago[96];
			lc_fmt_when(ago, sizeof(ago), r->last_ended, now);
			snprintf(last, sizeof(last), "%s, %s", lq_outcome_name(r->last_outcome), ago);
		} else {
			snprintf(last, sizeof(last), "-");
		}
		fprintf(f, "<tr><td class=n>%lld</td><td>", (long long)r->id);
		html(f, r->queue);
		fputs("</td><td>", f);
		html(f, r->name);
		fputs("</td><td>", f);
		html(f, r->sched);
		fprintf(f, "</td><td>%s", r->state);
		if (d->allow_actions) {
			/* Steering a schedule: one extra occurrence now, pause or resume. */
			char id[32];
			int paused = !strcmp(r->state, "paused");
			snprintf(id, sizeof(id), "%lld", (long long)r->id);
			action_form(d, f, "run-now", id, "run now");
			action_form(d, f, paused ? "task-resume" : "task-pause", id, paused ? "resume" : "pause");
		}
		fputs("</td><td>", f);
		html(f, when);
		fputs("</td><td>", f);
		html(f, last);
		fputs("</td><td>", f);
		html(f, r->last_error);
		fputs("</td></tr>\n", f);
	}
	if (ls->more)
		fprintf(f, "<tr><td colspan=8>and %zu more: leasectl task list</td></tr>\n", ls->more);
	fputs("</table>\n", f);
	return st;
}

lq_status lc_dashboard_page(struct lc_dashboard *d, lq_db *db, FILE *f)
{
	struct lc_stats s = {0};
	struct dead_ring dead = {0};
	char now[40], when[96], id[32];
	lq_status st = lc_stats_collect(db, &s);

	if (st != LQ_OK) {
		free(s.q);
		return st;
	}
	trend_sample(d, &s);
	struct live_scan ls = {&s, calloc(s.nq + 1, sizeof(int64_t)), calloc(s.nq + 1, sizeof(int64_t)), {{0}}, 0, 0,
			       calloc(DASH_RUNNING_ROWS, sizeof(struct running_row)), 0, 0};
	if (!ls.waiting || !ls.running || !ls.run) {
		free(ls.waiting);
		free(ls.running);
		free(ls.run);
		free(s.q);
		return LQ_ENOMEM;
	}
	st = lq_task_list(db, NULL, 0, live_row, &ls);
	if (st == LQ_OK)
		st = lq_task_running_list(db, NULL, live_running, &ls);
	lc_fmt_time(now, sizeof(now), s.now);
	fputs("<!doctype html>\n<html><head><meta charset=utf-8><meta http-equiv=refresh content=5>\n"
	      "<title>leaseq</title><style>body{font:14px sans-serif;margin:2em}"
	      "table{border-collapse:collapse;margin-bottom:2em}td,th{padding:3px 10px;border-bottom:1px solid #ddd;"
	      "text-align:left}.n{text-align:right}form.act{display:inline;margin:0}</style></head><body>\n",
	      f);
	fprintf(f, "<h1>leaseq</h1>\n<p id=summary>database clock <span id=now>%s</span> &middot; "
		   "<span id=leases>%lld</span> leases (<span id=held>%lld</span> held) &middot; "
		   "<span id=live>%lld</span> live tasks, <span id=due>%lld</span> due, "
		   "<span id=dead>%lld</span> dead &middot; <span id=mode>%s</span></p>\n",
		now, (long long)s.leases, (long long)s.held, (long long)s.live, (long long)s.due, (long long)s.dead,
		d->allow_actions ? "actions allowed" : "read-only");
	fputs("<h2>Queues</h2>\n<table id=queues><tr><th>queue</th><th>state</th><th class=n>tasks</th>"
	      "<th class=n>due</th><th class=n>dead</th><th class=n>waiting</th><th class=n>running</th><th>next run</th>"
	      "<th>due, last minutes</th><th></th></tr>\n",
	      f);
	for (size_t i = 0; i < s.nq; i++) {
		const lq_queue_info *q = &s.q[i];
		lc_fmt_when(when, sizeof(when), q->next_run_at, s.now);
		fputs("<tr><td>", f);
		html(f, q->name);
		fprintf(f, "</td><td>%s</td><td class=n>%lld</td><td class=n>%lld</td><td class=n>%lld</td>"
			   "<td class=n>%lld</td><td class=n>%lld</td><td>",
			q->paused ? "paused" : "active", (long long)q->tasks, (long long)q->due, (long long)q->dead,
			(long long)ls.waiting[i], (long long)ls.running[i]);
		html(f, when);
		fputs("</td>", f);
		trend_cell(f, trend_of(d, q->name));
		fputs("<td>", f);
		action_form(d, f, q->paused ? "resume" : "pause", q->name, q->paused ? "resume" : "pause");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (st == LQ_OK)
		st = schedules_table(d, db, f, &ls, s.now);
	if (st == LQ_OK)
		st = running_table(d, db, f, &ls, s.now);
	free(ls.run);
	for (size_t k = 0; k < ls.nsched; k++)
		free(ls.sched[k].last_error);
	free(ls.waiting);
	free(ls.running);
	struct page p = {d, f, s.now};
	fputs("<h2>Leases</h2>\n<table id=leases-table><tr><th>name</th><th>state</th><th>holder</th>"
	      "<th class=n>token</th><th>expires</th><th></th></tr>\n",
	      f);
	if (st == LQ_OK)
		st = lq_lease_list(db, lease_row, &p);
	fputs("</table>\n<h2>Recent failures (dead tasks)</h2>\n<table id=failures><tr><th class=n>id</th>"
	      "<th>queue</th><th>name</th><th class=n>attempts</th><th>died</th><th>last error</th><th></th></tr>\n",
	      f);
	if (st == LQ_OK)
		st = lq_task_list(db, NULL, LQ_LIST_DEAD, keep_dead, &dead);
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
		fputs("</td><td>", f);
		snprintf(id, sizeof(id), "%lld", (long long)t->id);
		action_form(d, f, "retry", id, "retry");
		fputs("</td></tr>\n", f);
	}
	for (size_t k = 0; k < dead.n; k++)
		lq_task_clear(&dead.t[k]);
	fputs("</table>\n</body></html>\n", f);
	free(s.q);
	return st;
}

/* ------------------------------------------------------------ actions */

/* Equal, in a time that does not depend on where they differ. */
static int same_secret(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned char diff = alen != blen;

	for (size_t i = 0; i < blen; i++)
		diff |= (unsigned char)a[i % (alen ? alen : 1)] ^ (unsigned char)b[i];
	return alen && !diff;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The value of KEY in an application/x-www-form-urlencoded body, decoded
 * into out; 0 when absent, malformed or too long. */
static int form_value(const char *body, size_t len, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		size_t end = i;
		while (end < len && body[end] != '&')
			end++;
		if (end - i > klen && !memcmp(body + i, key, klen) && body[i + klen] == '=') {
			size_t n = 0;
			for (size_t k = i + klen + 1; k < end; k++) {
				int c = (unsigned char)body[k];
				if (c == '+') {
					c = ' ';
				} else if (c == '%') {
					int hi = k + 2 < end ? hexval(body[k + 1]) : -1, lo = k + 2 < end ? hexval(body[k + 2]) : -1;
					if (hi < 0 || lo < 0)
						return 0;
					c = hi * 16 + lo;
					k += 2;
				}
				if (c == 0 || n + 1 >= size)
					return 0;
				out[n++] = (char)c;
			}
			out[n] = '\0';
			return 1;
		}
		i = end + 1;
	}
	return 0;
}

static enum MHD_Result refuse(struct MHD_Connection *conn, unsigned code, const char *why)
{
	lc_log_event("warning", "action_refused", &(struct lc_log_fields){.error = why});
	if (!lc_log_is_json())
		fprintf(stderr, "serve: action refused: %s\n", why);
	return lc_serve_reply_text(conn, code, why);
}

/* The browser's Origin, when it sends one, must be this server's. */
static int same_origin(struct MHD_Connection *conn)
{
	const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
	const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);

	if (!origin)
		return 1; /* curl and other non-browser clients; the token still decides */
	return host && !strncmp(origin, "http://", 7) && !strcmp(origin + 7, host);
}

/* A task id target: 1 if it is one. */
static int target_id(const char *target, int64_t *id)
{
	char *end;

	errno = 0;
	*id = strtoll(target, &end, 10);
	return !errno && end != target && !*end && *id > 0;
}

static lq_status act(lq_db *db, const char *action, const char *target, char *done, size_t size)
{
	char t[600];
	int64_t id;

	lc_pr(t, sizeof(t), target);
	if (!strcmp(action, "retry") || !strcmp(action, "cancel")) {
		if (!target_id(target, &id))
			return LQ_EINVAL;
		int retry = action[0] == 'r';
		snprintf(done, size, "task %lld %s", (long long)id, retry ? "retried" : "cancelled");
		return retry ? lq_task_retry(db, id) : lq_task_cancel(db, id, "cancelled from the dashboard", NULL);
	}
	if (!strcmp(action, "run-now")) {
		if (!target_id(target, &id))
			return LQ_EINVAL;
		snprintf(done, size, "task %lld: an extra occurrence is due now", (long long)id);
		return lq_task_run_now(db, id);
	}
	if (!strcmp(action, "task-pause") || !strcmp(action, "task-resume")) {
		if (!target_id(target, &id))
			return LQ_EINVAL;
		snprintf(done, size, "task %lld %s", (long long)id, action[5] == 'p' ? "paused" : "resumed");
		return lq_task_pause(db, id, action[5] == 'p');
	}
	if (!strcmp(action, "pause") || !strcmp(action, "resume")) {
		snprintf(done, size, "queue \"%s\" %s", t, action[0] == 'p' ? "paused" : "resumed");
		return lq_queue_pause(db, target, action[0] == 'p');
	}
	if (!strcmp(action, "break")) {
		snprintf(done, size, "lease \"%s\" broken", t);
		return lq_lease_break(db, target, NULL);
	}
	return LQ_EINVAL;
}

enum MHD_Result lc_dashboard_action(struct lc_dashboard *d, lq_db *db, struct MHD_Connection *conn,
				    const char *body, size_t len)
{
	char *user, *pass = NULL, csrf[80], action[16], target[LQ_NAME_MAX + 1], done[700], why[800];
	const char *ctype = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	int authorized;
	lq_status st;

	user = MHD_basic_auth_get_username_password(conn, &pass);
	authorized = pass && same_secret(d->secret, d->secret_len, pass, strlen(pass));
	if (user)
		MHD_free(user);
	if (pass)
		MHD_free(pass);
	if (!authorized) {
		const char *msg = "the dashboard's secret is required (HTTP basic auth, any user name)\n";
		struct MHD_Response *r = MHD_create_response_from_buffer(strlen(msg), (void *)msg, MHD_RESPMEM_PERSISTENT);
		enum MHD_Result ret;
		lc_log_event("warning", "action_refused", &(struct lc_log_fields){.error = "no or wrong secret"});
		if (!lc_log_is_json())
			fprintf(stderr, "serve: action refused: no or wrong secret\n");
		if (!r)
			return MHD_NO;
		ret = MHD_queue_basic_auth_fail_response(conn, "leaseq dashboard", r);
		MHD_destroy_response(r);
		return ret;
	}
	if (!ctype || strncmp(ctype, "application/x-www-form-urlencoded", 33))
		return refuse(conn, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "an action is a form post (application/x-www-form-urlencoded)\n");
	if (!same_origin(conn))
		return refuse(conn, MHD_HTTP_FORBIDDEN, "cross-origin action refused\n");
	if (!form_value(body, len, "csrf", csrf, sizeof(csrf)) || !same_secret(d->csrf, strlen(d->csrf), csrf, strlen(csrf)))
		return refuse(conn, MHD_HTTP_FORBIDDEN, "missing or stale form token: reload the dashboard and try again\n");
	if (!form_value(body, len, "action", action, sizeof(action)) ||
	    !form_value(body, len, "target", target, sizeof(target)) || !target[0])
		return refuse(conn, MHD_HTTP_BAD_REQUEST, "an action needs action= and target=\n");
	st = act(db, action, target, done, sizeof(done));
	if (st == LQ_EINVAL) {
		snprintf(why, sizeof(why), "unknown action \"%s\" or bad target\n", lc_pr(done, sizeof(done), action));
		return refuse(conn, MHD_HTTP_BAD_REQUEST, why);
	}
	if (st == LQ_NOTFOUND) {
		snprintf(why, sizeof(why), "%s: not found\n", lc_pr(done, sizeof(done), target));
		return refuse(conn, MHD_HTTP_NOT_FOUND, why);
	}
	if (st != LQ_OK) {
		const char *m = lq_errmsg(db);
		snprintf(why, sizeof(why), "%s\n", m && *m ? m : lq_status_str(st));
		/* A run-now while an occurrence is due, running or paused. */
		if (st == LQ_BUSY)
			return refuse(conn, MHD_HTTP_CONFLICT, why);
		return lc_serve_reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, why);
	}
	lc_log_event("info", "action", &(struct lc_log_fields){.message = done});
	if (!lc_log_is_json())
		fprintf(stderr, "serve: %s\n", done);
	return lc_serve_redirect(conn, "/", done);
}
#endif
