/*
 * leasectl_doctor.c - "leasectl doctor": check a leaseq database and say
 * what to fix.  Exit 0 ok, 1 warning, 2 critical (Nagios-style).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "leasectl.h"

enum level { OK, WARNING, CRITICAL };
static const char *const level_names[] = {"ok", "warning", "critical"};

#define CLOCK_WARN_MS 2000
#define CLOCK_CRIT_MS 60000
#define OVERDUE_CRIT_MS (3600 * 1000)
#define MAX_FINDINGS 16

struct finding {
	enum level level;
	const char *check;
	char what[320];
	char fix[200];
};

struct report {
	struct finding f[MAX_FINDINGS];
	int n;
	enum level worst;
};

static void add(struct report *r, enum level lv, const char *check, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void add(struct report *r, enum level lv, const char *check, const char *fix, const char *fmt, ...)
{
	va_list ap;
	struct finding *f;

	if (r->n == MAX_FINDINGS)
		return;
	f = &r->f[r->n++];
	f->level = lv;
	f->check = check;
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	if (lv > r->worst)
		r->worst = lv;
}

/* How long, for people, in leasectl's one duration format. */
static const char *human(int64_t ms, char *buf, size_t size)
{
	lc_fmt_elapsed(buf, size, ms);
	return buf;
}

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void check_schema(struct report *r, const lq_health *h)
{
	if (h->schema_current == 0)
		add(r, CRITICAL, "schema", "run 'leasectl migrate'", "the database has no leaseq schema");
	else if (h->schema_current < h->schema_latest)
		add(r, CRITICAL, "schema", "run 'leasectl migrate'",
		    "schema version %d, this leasectl needs %d: every command refuses until it is migrated",
		    h->schema_current, h->schema_latest);
	else if (h->schema_current > h->schema_latest)
		add(r, WARNING, "schema", "upgrade leasectl on this host",
		    "schema version %d is newer than this leasectl knows (%d)", h->schema_current,
		    h->schema_latest);
	else
		add(r, OK, "schema", NULL, "version %d, up to date", h->schema_current);
}

/* The skew between this host and the database clock, half a round trip
 * counted in the host's favour. */
static void check_clock(struct report *r, lq_db *db)
{
	int64_t t0 = wall_ms(), now = 0, t1, skew, slack;
	char a[32], b[32];

	if (lq_now(db, &now) != LQ_OK)
		return;
	t1 = wall_ms();
	skew = now - (t0 + t1) / 2;
	slack = (t1 - t0) / 2;
	int64_t off = (skew < 0 ? -skew : skew) - slack;
	if (off > CLOCK_WARN_MS)
		add(r, off > CLOCK_CRIT_MS ? CRITICAL : WARNING, "clock",
		    "synchronise the clocks (chrony, systemd-timesyncd)",
		    "this host is %s %s the database (leases and schedules use the database clock; "
		    "times given with --at and shown here are this host's)",
		    human(skew, a, sizeof(a)), skew > 0 ? "behind" : "ahead of");
	else
		add(r, OK, "clock", NULL, "this host and the database agree within %s", human(off > 0 ? off : slack, b, sizeof(b)));
}

static void check_counts(struct report *r, const lq_health *h, int64_t grace)
{
	char a[32], g[32];

	human(grace, g, sizeof(g));
	if (h->expired_claims)
		add(r, WARNING, "claims", "start a worker for their queues ('leasectl task list --due' lists them)",
		    "%lld at-least-once claim%s expired more than %s ago and %s not taken back (the oldest %s "
		    "ago): no worker is running there",
		    (long long)h->expired_claims, h->expired_claims == 1 ? "" : "s", g,
		    h->expired_claims == 1 ? "was" : "were", human(h->oldest_expired_claim_ms, a, sizeof(a)));
	else
		add(r, OK, "claims", NULL, "no claim expired more than %s ago", g);
	if (h->stale_leases)
		add(r, WARNING, "leases",
		    "check the holders' logs; the next acquire takes them over ('leasectl lease list')",
		    "%lld lease%s expired more than %s ago without being released: the holder%s likely crashed",
		    (long long)h->stale_leases, h->stale_leases == 1 ? "" : "s", g, h->stale_leases == 1 ? "" : "s");
	else
		add(r, OK, "leases", NULL, "no lease expired unreleased more than %s ago", g);
	if (h->overdue_tasks)
		add(r, h->most_overdue_ms > OVERDUE_CRIT_MS ? CRITICAL : WARNING, "overdue",
		    "run a worker or a tick for their queues ('leasectl task list --due')",
		    "%lld task%s due more than %s ago, the most overdue by %s: no worker or tick runs them",
		    (long long)h->overdue_tasks, h->overdue_tasks == 1 ? " is" : "s are", g,
		    human(h->most_overdue_ms, a, sizeof(a)));
	else
		add(r, OK, "overdue", NULL, "no task is overdue by more than %s", g);
	if (h->dead_tasks)
		add(r, WARNING, "dead",
		    "'leasectl task list --dead', then 'task retry ID' or 'leasectl prune --older-than 30d'",
		    "%lld dead task%s (out of attempts)", (long long)h->dead_tasks, h->dead_tasks == 1 ? "" : "s");
	else
		add(r, OK, "dead", NULL, "no dead task");
	if (h->missing_indexes[0])
		add(r, CRITICAL, "indexes", "recreate them (see migrations/), or restore the schema",
		    "missing: %s (claims or prune scan whole tables)", h->missing_indexes);
	else
		add(r, OK, "indexes", NULL, "every index of the schema is there");
}

/* SQLite: WAL, and a file only its users can read and write. */
/* WAL is recorded in the file header (bytes 18 and 19 are 2): a read-only
 * pass that SQLite had to open "immutable" reports another journal mode. */
static int header_says_wal(const char *path)
{
	unsigned char hdr[20];
	FILE *f = fopen(path, "rb");
	int wal = f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) && hdr[18] == 2 && hdr[19] == 2;

	if (f)
		fclose(f);
	return wal;
}

static void check_sqlite(struct report *r, const char *dsn, const lq_health *h)
{
	char path[4096], dir[4096];
	const char *q;
	struct stat sb;
	size_t n;

	if (strncmp(dsn, "sqlite:", 7))
		return;
	q = strchr(dsn + 7, '?');
	n = q ? (size_t)(q - dsn - 7) : strlen(dsn + 7);
	if (n >= sizeof(path))
		return;
	memcpy(path, dsn + 7, n);
	path[n] = '\0';
	if (strcmp(h->journal_mode, "wal") && !header_says_wal(path))
		add(r, WARNING, "journal", "check the file system: WAL needs shared memory (no network file system)",
		    "journal mode is '%s', not 'wal': readers and the writer block each other", h->journal_mode);
	else
		add(r, OK, "journal", NULL, "journal mode wal");
	if (stat(path, &sb) != 0)
		return;
	if (sb.st_mode & S_IWOTH)
		add(r, CRITICAL, "file", "chmod o-rw the file (leasectl creates it 0600)",
		    "%s is writable by every user", path);
	else if (sb.st_mode & S_IROTH)
		add(r, WARNING, "file", "chmod o-r the file (payloads and errors are in it)",
		    "%s is readable by every user", path);
	else
		add(r, OK, "file", NULL, "%s is not open to other users", path);
	/* SQLite writes its -wal and -shm files next to the database. */
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (access(dir, W_OK) == 0)
		return;
	/* A user who may not write the file either is a reader (a monitor,
	 * say): leasectl's read commands work for it.  A writer cannot work. */
	if (access(path, W_OK) != 0)
		add(r, WARNING, "directory", "let this user write the file and the directory if it should write",
		    "this user can only read the database (%s and %s are not writable): enough for the read "
		    "commands, not for workers",
		    path, dir);
	else
		add(r, CRITICAL, "directory", "let this user write the directory, or move the database",
		    "%s is not writable: SQLite cannot create the database's -wal and -shm files there", dir);
}

struct doctor_args {
	const char *grace;
};
static const struct lc_opt doctor_opts[] = {
	LC_VALUE(struct doctor_args, grace, "grace", 0, "DUR", 0,
		 "how late counts as stuck or overdue (default 1m)"),
	LC_OPT_TABLE_END,
};
const struct lc_usage lc_doctor_usage = {
	.path = "doctor",
	.summary = "check the database and say what to fix",
	.description =
		"Checks, read-only: the schema version; the clock difference between this\n"
		"host and the database; at-least-once claims and leases that expired more\n"
		"than --grace ago and were not taken back or released (a worker or holder\n"
		"crashed, and none runs); tasks overdue by more than --grace (critical\n"
		"past an hour: nothing runs the queue); dead tasks; schedules whose last\n"
		"success is older than their --alert-after (a warning); missing indexes; and on\n"
		"SQLite the journal mode and who may read the file.  Never creates the\n"
		"database; a SQLite file that is missing, not a database or not\n"
		"permitted is critical, with the path or permissions to check.  Prints\n"
		"one line per check, LEVEL CHECK WHAT, and the fix under each problem.\n"
		"Exits like a Nagios plugin: 0 all ok, 1 a warning, 2 something critical\n"
		"(also when the database cannot be used).  The task counts scan the task\n"
		"table once: run it every few minutes, not every second.  JSON: {\"status\",\n"
		"\"findings\": [{\"level\", \"check\", \"message\", \"fix\"}]}.",
	.opts = doctor_opts,
	.examples = "leasectl doctor\n"
		    "leasectl --db postgresql://monitor@db/app doctor --grace 5m --json",
	.exits = "0   every check is ok\n1   at least one warning\n2   at least one critical finding, or "
		 "the database\n    is unreachable\n64  bad usage",
};

/* The dead-man check: schedules whose last success is older than their
 * --alert-after bound (said only when some schedule has one). */
struct dead_man {
	int bounded, overdue;
	char list[1024];
};

static int dead_man_one(const lq_schedule *s, void *arg)
{
	struct dead_man *d = arg;
	char a[32], b[32];
	size_t len = strlen(d->list);

	if (!s->alert_after_ms)
		return 0;
	d->bounded++;
	if (!s->overdue)
		return 0;
	if (d->overdue++ < 3 && len + 200 < sizeof(d->list))
		snprintf(d->list + len, sizeof(d->list) - len, "%stask %lld %.60s: no success for %s (bound %s)",
			 len ? "; " : "", (long long)s->id, s->name, human(s->since_success_ms, a, sizeof(a)),
			 human(s->alert_after_ms, b, sizeof(b)));
	return 0;
}

static void check_schedules(struct report *r, lq_db *db)
{
	struct dead_man d = {0};

	if (lq_schedule_list(db, LQ_SCHEDULE_ALERTED, dead_man_one, &d) != LQ_OK || !d.bounded)
		return;
	if (d.overdue)
		add(r, WARNING, "schedules", "see 'leasectl task history' and the worker's log for why they fail",
		    "%d schedule%s past --alert-after: %s%s", d.overdue, d.overdue == 1 ? " is" : "s are", d.list,
		    d.overdue > 3 ? "; ..." : "");
	else
		add(r, OK, "schedules", NULL, "%d schedule%s with --alert-after within %s bound", d.bounded,
		    d.bounded == 1 ? "" : "s", d.bounded == 1 ? "its" : "their");
}

/* What to do when the database could not be used: a local file's
 * problem is fixed on disk, not on the network. */
static const char *open_fix(const char *dsn, lq_status st)
{
	switch (st) {
	case LQ_ENODB:
		return "check the path in the DSN, or run 'leasectl migrate' to create the database";
	case LQ_EPERM:
		return "check the owner and permissions of the database file and its directory "
		       "(readers need to read the file; writers also need to write it and create files beside it)";
	case LQ_ENOTDB:
		return "check the path in the DSN: it must name a leaseq SQLite database file";
	case LQ_ECREATE:
		return "check that the directory exists and that this user may create files in it";
	default:
		return strncmp(dsn, "sqlite:", 7) == 0 ? "check the path in the DSN and the file system it is on"
						      : "check the DSN, the server and the network";
	}
}

static void print_report(const struct lc_ctx *ctx, const struct report *r)
{
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "status", level_names[r->worst]);
		lc_json_key(&j, "findings");
		lc_json_arr(&j);
		for (int i = 0; i < r->n; i++) {
			lc_json_obj(&j);
			lc_json_kstr(&j, "level", level_names[r->f[i].level]);
			lc_json_kstr(&j, "check", r->f[i].check);
			lc_json_kstr(&j, "message", r->f[i].what);
			if (r->f[i].fix[0])
				lc_json_kstr(&j, "fix", r->f[i].fix);
			lc_json_end_obj(&j);
		}
		lc_json_end_arr(&j);
		lc_json_end_obj(&j);
		lc_json_end(&j);
		return;
	}
	for (int i = 0; i < r->n; i++) {
		printf("%-8s  %-9s  %s\n", level_names[r->f[i].level], r->f[i].check, r->f[i].what);
		if (r->f[i].level != OK && r->f[i].fix[0])
			printf("%-8s  %-9s  fix: %s\n", "", "", r->f[i].fix);
	}
	printf("doctor: %s\n", level_names[r->worst]);
}

int cmd_doctor(struct lc_ctx *ctx, int argc, char **argv)
{
	struct doctor_args a = {0};
	int rc = lc_parse(ctx, &lc_doctor_usage, &a, argc, argv);
	int64_t grace = 60000;
	struct report r = {0};
	lq_health h;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (a.grace && (rc = lc_duration(ctx, "--grace", a.grace, 0, &grace)))
		return rc;
	/* A read-only pass: never creates the database, works on one it may
	 * only read. */
	st = lq_open_ex(lc_dsn(ctx), LQ_OPEN_READONLY, &db);
	if (st == LQ_OK)
		st = lq_health_check(db, grace, &h);
	if (st == LQ_ESCHEMA) {
		check_schema(&r, &h);
	} else if (st != LQ_OK) {
		const char *m = db ? lq_errmsg(db) : NULL;
		add(&r, CRITICAL, "database", open_fix(lc_dsn(ctx), st), "%s%s", m && *m ? m : lq_status_str(st),
		    st == LQ_ENODB ? LC_NODB_HINT : "");
	} else {
		check_schema(&r, &h);
		check_clock(&r, db);
		check_counts(&r, &h, grace);
		check_schedules(&r, db);
		check_sqlite(&r, lc_dsn(ctx), &h);
	}
	lq_close(db);
	print_report(ctx, &r);
	return (int)r.worst;
}
