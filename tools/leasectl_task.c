/*
 * leasectl_task.c - "leasectl task add|list|show|rm|retry|pause|resume"
 * (cancel: leasectl_cancel.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

#include "leasectl.h"

#define TASK_EXITS_ID "0   done\n1   no such task (\"task 42: not found\"), or other failure\n" \
		      "64  bad usage or invalid id\n69  database unreachable"

static int parse_id(const struct lc_ctx *ctx, const char *text, int64_t *id)
{
	return lc_integer(ctx, "task id", text, 1, INT64_MAX, id);
}

static int task_not_found(int64_t id)
{
	lc_errorf("task %lld: not found", (long long)id);
	return LC_EXIT_FAIL;
}

static const char *task_state(const lq_task *t)
{
	if (t->dead)
		return "dead";
	if (t->paused)
		return "paused";
	if (t->claim_owner[0] && t->claim_until > t->now)
		return "claimed";
	if (!t->claim_owner[0] && t->claim_until > t->now)
		return "backoff"; /* an at-least-once occurrence waiting to be tried again */
	if (t->run_at <= t->now)
		return "due";
	return "waiting";
}

void lc_task_schedule(char *buf, size_t size, const lq_task *t)
{
	char d[32];

	if (t->every_ms) {
		lc_fmt_duration(d, sizeof(d), t->every_ms);
		snprintf(buf, size, "every %s", d);
	} else if (t->cron[0]) {
		snprintf(buf, size, "cron %s%s%s", t->cron, t->tz[0] ? " " : "", t->tz);
	} else {
		snprintf(buf, size, "once");
		return;
	}
	if (t->missed == LQ_MISSED_SKIP)
		snprintf(buf + strlen(buf), size - strlen(buf), ", missed: skip");
}

/* ------------------------------------------------------------ add */

struct add_args {
	const char *name, *queue, *payload, *payload_file, *in, *at, *every, *cron, *tz, *missed, *unique,
		*max_attempts, *priority, *timeout, *from, *overlap, *catch_up, *alert_after, *concurrency_key;
	const char *partition; /* fair share */
};
static const struct lc_opt add_opts[] = {
	LC_ARG(struct add_args, name, "NAME", LC_OPTIONAL,
	       "the task's name: selects the worker's --handler NAME=CMD (not with --from)"),
	LC_VALUE(struct add_args, queue, "queue", 0, "Q", 0, "the queue (default \"default\")"),
	LC_VALUE(struct add_args, payload, "payload", 0, "STR", 0, "the payload, given to the handler on standard input"),
	LC_VALUE(struct add_args, payload_file, "payload-file", 0, "F", 0,
		 "read the payload from file F, byte for byte (\"-\": standard input)"),
	LC_VALUE(struct add_args, in, "in", 0, "DUR", 0, "due DUR from now (default: due now)"),
	LC_VALUE(struct add_args, at, "at", 0, "TIME", 0,
		 "due at TIME: epoch seconds, @EPOCH, 2026-11-22T10:00:00Z or\n"
		 "\"2026-11-22 10:00[:00]\" (UTC unless an offset like +02:00 is given)"),
	LC_VALUE(struct add_args, every, "every", 0, "DUR", 0, "recurring: run every DUR, 10ms to ten years (the row stays)"),
	LC_VALUE(struct add_args, cron, "cron", 0, "EXPR", 0,
		 "recurring: a 5-field cron expression (\"*/5 * * * *\", \"0 3 * * mon-fri\")\n"
		 "or @hourly, @daily, @weekly, @monthly, @yearly"),
	LC_VALUE(struct add_args, tz, "tz", 0, "ZONE", 0, "the IANA time zone of --cron (default UTC), e.g. Europe/Paris"),
	LC_VALUE(struct add_args, missed, "missed", 0, "once|skip", 0,
		 "recurring: after downtime run a missed occurrence once (default),\nor skip to the next one"),
	LC_VALUE(struct add_args, catch_up, "catch-up", 0, "N", 0,
		 "recurring: after downtime run at most N missed occurrences, 0 to 100\n"
		 "(1 is --missed once, 0 is --missed skip)"),
	LC_VALUE(struct add_args, overlap, "overlap", 0, "skip|queue|cancel-previous", 0,
		 "recurring, at-least-once workers: an occurrence due while the previous\n"
		 "one runs is skipped (the default), queued to run right after it, or\n"
		 "cancels it (its claim is revoked at its next heartbeat); at-most-once\n"
		 "runs are not seen in the row and may overlap"),
	LC_VALUE(struct add_args, alert_after, "alert-after", 0, "DUR", 0,
		 "recurring: doctor warns and /metrics flags the schedule when its last\n"
		 "success (or its creation) is older than DUR"),
	LC_VALUE(struct add_args, unique, "unique", 0, "KEY", 0,
		 "at most one live task with KEY: adding it again prints the existing\nid and changes nothing"),
	LC_VALUE(struct add_args, max_attempts, "max-attempts", 0, "N", 0,
		 "attempts before the task is dead, 1 to 1000 (default 3; at-least-once\n"
		 "workers)"),
	LC_VALUE(struct add_args, priority, "priority", 0, "N", 0,
		 "claimed before tasks of lower priority that are due (default 0; may be\n"
		 "negative); among equals, the earliest due first"),
	LC_VALUE(struct add_args, timeout, "timeout", 0, "DUR", 0,
		 "stop the handler after DUR (its process group) and count the attempt as\n"
		 "failed; wins over the worker's --timeout"),
	LC_VALUE(struct add_args, concurrency_key, "concurrency-key", 0, "K", 0,
		 "the task counts against the limit of K ('leasectl limit set K ...'):\n"
		 "no more of K's tasks run at once, or start per period, than it allows"),
	LC_VALUE(struct add_args, partition, "partition", 0, "P", 0,
		 "fair share: when several partitions (tenants) of the queue have due\n"
		 "tasks, claims take them round-robin, not the biggest first (see\n"
		 "docs/tasks.md); priority still comes first"),
	LC_VALUE(struct add_args, from, "from", 0, "FILE|-", 0,
		 "add every task of a JSON Lines file (\"-\": standard input), all or\n"
		 "nothing: one object per line with the fields name, queue, payload, in,\n"
		 "at, every, cron, tz, missed, unique, max_attempts, priority, timeout,\n"
		 "overlap, catch_up, alert_after, concurrency_key, partition (the flags'\n"
		 "values; flags given too are the defaults of every line)"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage add_usage = {
	.path = "task add",
	.summary = "enqueue a task (one-off, delayed or recurring)",
	.description = "Adds a task and prints its id.  With --unique, a second add of a live task\n"
		       "with the same key adds nothing, prints the existing id and says so on\n"
		       "standard error (exit 0).  JSON: {\"id\": N, \"existed\": bool}.  Payloads\n"
		       "are binary-safe, up to 8 MiB.\n"
		       "\n"
		       "With --from, every line is checked before anything is sent, and the tasks\n"
		       "go in in one transaction (100 to a statement): a bad line adds nothing and\n"
		       "is named (\"--from tasks.jsonl: line 17: ...\", exit 64).  Empty lines are\n"
		       "skipped.  A line whose unique key a live task (or an earlier line) holds\n"
		       "adds nothing, as a second add would.  Prints how many were added; JSON:\n"
		       "{\"added\": N, \"existed\": N, \"ids\": [...]} in the order of the lines.",
	.opts = add_opts,
	.examples = "leasectl task add send-mail --payload '{\"to\":\"a@example.com\"}'\n"
		    "leasectl task add report --cron '0 3 * * *' --tz Europe/Paris --unique report\n"
		    "leasectl task add cleanup --every 10m --missed skip\n"
		    "leasectl task add sync --every 1m --overlap queue --alert-after 10m\n"
		    "leasectl task add resize --in 30s --payload-file photo.jpg\n"
		    "echo hello | leasectl task add echo --payload-file - --at 2026-11-22T10:00:00Z\n"
		    "leasectl task add urgent-mail --priority 10 --timeout 30s\n"
		    "leasectl task add sync --concurrency-key tenant-42\n"
		    "leasectl task add export --partition tenant-42\n"
		    "leasectl task add --from tasks.jsonl --queue mail",
	.exits = "0   added (or already there with --unique)\n"
		 "64  bad usage or invalid input (name, duration, time, cron, zone, payload\n"
		 "    over 8 MiB, a bad --from line): nothing was added\n"
		 "66  the --from or --payload-file file is missing or unreadable\n"
		 "69  database unreachable\n1   other failure",
};

struct buf {
	unsigned char *p;
	size_t n, cap;
};

/* Read all of f; over LQ_PAYLOAD_MAX keep counting (for the message) but
 * stop storing. */
static int read_all(FILE *f, struct buf *b, uint64_t *total)
{
	unsigned char chunk[65536];
	size_t got;

	*total = 0;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		*total += got;
		if (*total > LQ_PAYLOAD_MAX)
			continue;
		if (b->n + got > b->cap) {
			size_t cap = b->cap ? b->cap : 65536;
			unsigned char *p;
			while (cap < b->n + got)
				cap *= 2;
			if (!(p = realloc(b->p, cap)))
				return -1;
			b->p = p;
			b->cap = cap;
		}
		memcpy(b->p + b->n, chunk, got);
		b->n += got;
	}
	return ferror(f) ? -1 : 0;
}

static int too_big(const struct lc_ctx *ctx, uint64_t n)
{
	return lc_usage_error(ctx, "payload is %llu bytes, over the %d MiB limit", (unsigned long long)n,
			      LQ_PAYLOAD_MAX / (1024 * 1024));
}

static int load_payload(const struct lc_ctx *ctx, const struct add_args *a, struct buf *b)
{
	uint64_t total = 0;
	struct stat sb;
	FILE *f;
	int err;

	if (a->payload) {
		size_t n = strlen(a->payload);
		if (n > LQ_PAYLOAD_MAX)
			return too_big(ctx, n);
		b->p = (unsigned char *)a->payload;
		b->n = n;
		return 0;
	}
	if (!a->payload_file)
		return 0;
	if (!strcmp(a->payload_file, "-"))
		f = stdin;
	else if (!(f = fopen(a->payload_file, "rb")))
		return lc_input_error(ctx, "--payload-file", a->payload_file, errno);
	/* A huge regular file is refused without reading it. */
	if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > LQ_PAYLOAD_MAX) {
		if (f != stdin)
			fclose(f);
		return too_big(ctx, (uint64_t)sb.st_size);
	}
	errno = 0;
	err = read_all(f, b, &total) ? (errno ? errno : EIO) : 0;
	if (f != stdin)
		fclose(f);
	if (err)
		return lc_input_error(ctx, "--payload-file", a->payload_file, err);
	if (total > LQ_PAYLOAD_MAX)
		return too_big(ctx, total);
	return 0;
}

static int validate_add(const struct lc_ctx *ctx, const struct add_args *a, lq_task_opts *o, int64_t *max)
{
	char msg[512] = "";
	int64_t prio = 0;
	int rc;

	if ((rc = lc_check_name(ctx, "task name", a->name)) ||
	    (a->queue && (rc = lc_check_name(ctx, "queue name", a->queue))) ||
	    (a->unique && (rc = lc_check_name(ctx, "unique key", a->unique))) ||
	    (a->concurrency_key && (rc = lc_check_name(ctx, "concurrency key", a->concurrency_key))) ||
	    (a->partition && (rc = lc_check_name(ctx, "partition", a->partition))))
		return rc;
	if (a->concurrency_key && !strncmp(a->concurrency_key, "queue:", 6))
		return lc_usage_error(ctx, "--concurrency-key: \"%s\" is reserved (\"queue:\" names a queue's limit)",
				      a->concurrency_key);
	if (a->payload && a->payload_file)
		return lc_usage_error(ctx, "--payload and --payload-file cannot be combined");
	if (a->in && a->at)
		return lc_usage_error(ctx, "--in and --at cannot be combined");
	if (a->every && a->cron)
		return lc_usage_error(ctx, "--every and --cron cannot be combined");
	if (a->tz && !a->cron)
		return lc_usage_error(ctx, "--tz only applies to --cron");
	if (a->tz && !a->tz[0])
		return lc_usage_error(ctx, "--tz: the time zone is empty (omit --tz for UTC)");
	if (a->missed && !a->every && !a->cron)
		return lc_usage_error(ctx, "--missed only applies to recurring tasks (--every or --cron)");
	if (a->in && (rc = lc_duration(ctx, "--in", a->in, LC_DUR_ZERO_OK, &o->delay_ms)))
		return rc;
	if (a->in && o->delay_ms > LQ_DELAY_MAX_MS)
		return lc_usage_error(ctx, "--in: \"%s\" is over 100 years", a->in);
	if (a->at && lc_parse_time(a->at, &o->run_at))
		return lc_usage_error(ctx, "--at: invalid time \"%s\" (use epoch seconds, @EPOCH or "
				      "2026-11-22T10:00:00Z)", a->at);
	/* The library's range, not lc_duration's year. */
	if (a->every && (rc = lc_duration(ctx, "--every", a->every, LC_DUR_ZERO_OK, &o->every_ms)))
		return rc;
	if (a->every && (o->every_ms < LQ_EVERY_MIN_MS || o->every_ms > LQ_EVERY_MAX_MS))
		return lc_usage_error(ctx, "--every: \"%s\" is not from %dms to ten years", a->every,
				      LQ_EVERY_MIN_MS);
	if (a->cron && lq_check_schedule(a->cron, a->tz, msg, sizeof(msg)) != LQ_OK)
		return lc_usage_error(ctx, "%s", msg[0] ? msg : "invalid --cron or --tz");
	if (a->missed) {
		if (!strcmp(a->missed, "once"))
			o->missed = LQ_MISSED_ONCE;
		else if (!strcmp(a->missed, "skip"))
			o->missed = LQ_MISSED_SKIP;
		else
			return lc_usage_error(ctx, "--missed: expected once or skip, not \"%s\"", a->missed);
	}
	if ((rc = lc_steer_parse(ctx, a->overlap, a->catch_up, a->alert_after, a->every || a->cron, o)))
		return rc;
	if (a->max_attempts && (rc = lc_integer(ctx, "--max-attempts", a->max_attempts, 1, LQ_MAX_ATTEMPTS_MAX, max)))
		return rc;
	if (a->priority && (rc = lc_integer(ctx, "--priority", a->priority, INT_MIN, INT_MAX, &prio)))
		return rc;
	if (a->timeout && (rc = lc_duration(ctx, "--timeout", a->timeout, 0, &o->timeout_ms)))
		return rc;
	o->priority = (int)prio;
	o->queue = a->queue;
	o->unique_key = a->unique;
	o->concurrency_key = a->concurrency_key;
	o->partition = a->partition;
	o->cron = a->cron;
	o->tz = a->tz;
	o->max_attempts = (int)*max;
	return 0;
}

/* --from: a JSON Lines field is the flag of the same name. */
static const struct {
	const char *key;
	size_t off;
} from_fields[] = {
	{"name", offsetof(struct add_args, name)},
	{"queue", offsetof(struct add_args, queue)},
	{"payload", offsetof(struct add_args, payload)},
	{"in", offsetof(struct add_args, in)},
	{"at", offsetof(struct add_args, at)},
	{"every", offsetof(struct add_args, every)},
	{"cron", offsetof(struct add_args, cron)},
	{"tz", offsetof(struct add_args, tz)},
	{"missed", offsetof(struct add_args, missed)},
	{"unique", offsetof(struct add_args, unique)},
	{"max_attempts", offsetof(struct add_args, max_attempts)},
	{"max-attempts", offsetof(struct add_args, max_attempts)},
	{"priority", offsetof(struct add_args, priority)},
	{"timeout", offsetof(struct add_args, timeout)},
	{"overlap", offsetof(struct add_args, overlap)},
	{"catch_up", offsetof(struct add_args, catch_up)},
	{"alert_after", offsetof(struct add_args, alert_after)},
	{"concurrency_key", offsetof(struct add_args, concurrency_key)},
	{"partition", offsetof(struct add_args, partition)},
};
#define FROM_FIELDS_MAX 32
#define FROM_PROGRESS_LINES 10000

struct from_task {
	char *line;       /* owns the text the fields point into */
	size_t lineno;
	lq_task_opts o;
	const char *name;
};

struct from_set {
	struct from_task *t;
	size_t n, cap;
};

static void from_free(struct from_set *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->t[i].line);
	free(fs->t);
}

/* One line into a task: its fields over the flags' defaults, then the
 * checks of a single add, every error naming the line. */
static int from_line(struct lc_ctx *ctx, const struct add_args *defaults, char *line, size_t len,
		     struct from_task *t)
{
	struct lc_jfield f[FROM_FIELDS_MAX];
	struct add_args a = *defaults;
	char err[256];
	size_t nf = 0;
	int64_t max = 0;

	if (lc_jsonl_object(line, len, f, FROM_FIELDS_MAX, &nf, err, sizeof(err)))
		return lc_usage_error(ctx, "%s", err);
	for (size_t i = 0; i < nf; i++) {
		size_t k = 0;
		while (k < sizeof(from_fields) / sizeof(from_fields[0]) && strcmp(from_fields[k].key, f[i].key))
			k++;
		if (k == sizeof(from_fields) / sizeof(from_fields[0]))
			return lc_usage_error(ctx, "unknown field \"%s\"", f[i].key);
		if (f[i].type == LC_JBOOL)
			return lc_usage_error(ctx, "field \"%s\": expected a string or a number", f[i].key);
		*(const char **)((char *)&a + from_fields[k].off) = f[i].type == LC_JNULL ? NULL : f[i].val;
	}
	if (!a.name)
		return lc_usage_error(ctx, "field \"name\" is missing");
	t->o = (lq_task_opts)LQ_TASK_OPTS_INIT;
	int rc = validate_add(ctx, &a, &t->o, &max);
	if (rc)
		return rc;
	t->name = a.name;
	if (a.payload) {
		t->o.payload = a.payload;
		t->o.payload_len = strlen(a.payload);
		if (t->o.payload_len > LQ_PAYLOAD_MAX)
			return too_big(ctx, t->o.payload_len);
	}
	return 0;
}

static int from_read(struct lc_ctx *ctx, const struct add_args *defaults, struct from_set *fs)
{
	const char *file = defaults->from;
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	int open_errno = errno; /* before isatty() below sets it */
	char *line = NULL, prefix[256];
	size_t cap = 0, lineno = 0;
	int progress = isatty(2), rc = 0;
	const char *cmd = ctx->cmd;
	ssize_t got;

	if (!f)
		return lc_input_error(ctx, "--from", file, open_errno);
	errno = 0;
	while ((got = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (progress && lineno % FROM_PROGRESS_LINES == 0)
			fprintf(stderr, "\rleasectl: task add --from %s: read %zu lines", file, lineno);
		if (strspn(line, " \t\r\n") == (size_t)got)
			continue; /* an empty line */
		if (fs->n == fs->cap) {
			size_t ncap = fs->cap ? fs->cap * 2 : 256;
			struct from_task *nt = realloc(fs->t, ncap * sizeof(*nt));
			if (!nt) {
				rc = lc_usage_error(ctx, "--from %s: out of memory at line %zu", file, lineno);
				break;
			}
			fs->t = nt;
			fs->cap = ncap;
		}
		struct from_task *t = &fs->t[fs->n];
		memset(t, 0, sizeof(*t));
		t->line = line; /* the next getline allocates anew */
		t->lineno = lineno;
		fs->n++;
		line = NULL;
		cap = 0;
		snprintf(prefix, sizeof(prefix), "%s: --from %s: line %zu", cmd, file, lineno);
		ctx->cmd = prefix;
		rc = from_line(ctx, defaults, t->line, (size_t)got, t);
		ctx->cmd = cmd;
		if (rc)
			break;
	}
	if (!rc && ferror(f))
		rc = lc_input_error(ctx, "--from", file, errno ? errno : EIO);
	if (progress && lineno >= FROM_PROGRESS_LINES)
		fprintf(stderr, "\rleasectl: task add --from %s: read %zu lines, %zu tasks%s\n", file, lineno, fs->n,
			rc ? "" : "; adding them");
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

static int cmd_task_add_from(struct lc_ctx *ctx, const struct add_args *a)
{
	struct from_set fs = {0};
	const char **names = NULL;
	const lq_task_opts **opts = NULL;
	int64_t *ids = NULL;
	int *existed = NULL, rc;
	lq_db *db = NULL;
	size_t bad = 0;
	lq_status st;

	if (a->name)
		return lc_usage_error(ctx, "NAME and --from cannot be combined (each line names its task)");
	if (a->payload_file)
		return lc_usage_error(ctx, "--payload-file and --from cannot be combined");
	if ((rc = from_read(ctx, a, &fs)))
		goto out;
	names = calloc(fs.n + 1, sizeof(*names));
	opts = calloc(fs.n + 1, sizeof(*opts));
	ids = calloc(fs.n + 1, sizeof(*ids));
	existed = calloc(fs.n + 1, sizeof(*existed));
	if (!names || !opts || !ids || !existed) {
		lc_errorf("task add: out of memory for %zu tasks", fs.n);
		rc = LC_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < fs.n; i++) {
		names[i] = fs.t[i].name;
		opts[i] = &fs.t[i].o;
	}
	if ((rc = lc_open(ctx, &db)))
		goto out;
	st = lq_task_add_many(db, fs.n, names, opts, ids, existed, &bad);
	if (st == LQ_EINVAL && bad < fs.n) {
		rc = lc_usage_error(ctx, "--from %s: line %zu: %s", a->from, fs.t[bad].lineno, lq_errmsg(db));
		goto out;
	}
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		goto out;
	}
	size_t n_existed = 0;
	for (size_t i = 0; i < fs.n; i++)
		n_existed += existed[i] != 0;
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "added", (int64_t)(fs.n - n_existed));
		lc_json_kint(&j, "existed", (int64_t)n_existed);
		lc_json_key(&j, "ids");
		lc_json_arr(&j);
		for (size_t i = 0; i < fs.n; i++)
			lc_json_int(&j, ids[i]);
		lc_json_end_arr(&j);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		printf("added %zu tasks", fs.n - n_existed);
		if (n_existed)
			printf(" (%zu already there by their unique key)", n_existed);
		printf("\n");
	}
out:
	free(names);
	free(opts);
	free(ids);
	free(existed);
	from_free(&fs);
	lq_close(db);
	return rc;
}

static int cmd_task_add(struct lc_ctx *ctx, int argc, char **argv)
{
	struct add_args a = {0};
	lq_task_opts o = LQ_TASK_OPTS_INIT;
	struct buf payload = {0};
	int rc = lc_parse(ctx, &add_usage, &a, argc, argv), existed = 0;
	int64_t id = 0, max = 0;
	lq_db *db = NULL;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (a.from)
		return cmd_task_add_from(ctx, &a);
	if (!a.name)
		return lc_usage_error(ctx, "give the task's NAME (or --from FILE)");
	if ((rc = validate_add(ctx, &a, &o, &max)) || (rc = load_payload(ctx, &a, &payload)))
		goto out;
	o.payload = payload.p;
	o.payload_len = payload.n;
	if ((rc = lc_open(ctx, &db)))
		goto out;
	st = lq_task_add(db, a.name, &o, &id, &existed);
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		goto out;
	}
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kint(&j, "id", id);
		lc_json_kbool(&j, "existed", existed);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		char k[600];
		printf("%lld\n", (long long)id);
		/* A documented no-op, but not a silent one: stdout stays the id
		 * alone, for id=$(leasectl task add ...). */
		if (existed)
			lc_errorf("task add: unique key \"%s\" is taken by live task %lld; nothing added",
				  lc_pr(k, sizeof(k), a.unique), (long long)id);
	}
out:
	if (payload.p != (unsigned char *)a.payload)
		free(payload.p);
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ list */

struct list_args {
	const char *queue;
	int due, dead;
};
static const struct lc_opt list_opts[] = {
	LC_VALUE(struct list_args, queue, "queue", 0, "Q", 0, "only the tasks of queue Q (default: every queue)"),
	LC_FLAG(struct list_args, due, "due", 0, "only the tasks that are due now"),
	LC_FLAG(struct list_args, dead, "dead", 0, "the dead tasks (out of attempts) instead of the live ones"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage list_usage = {
	.path = "task list",
	.summary = "list tasks",
	.description = "One line per task, by id: queue, name, when it runs next, attempts,\n"
		       "priority, state (due, waiting, claimed, running, paused or dead), schedule\n"
		       "(once, every DUR, cron EXPR ZONE) and the last error.  JSON: an array of\n"
		       "task objects with the schema's field names (id, queue, name, run_at,\n"
		       "attempts, max_attempts, priority, timeout_ms, unique_key, concurrency_key,\n"
		       "partition, claim_owner, claim_until, every_ms, cron, tz, missed, paused,\n"
		       "last_error, created_at, dead, died_at; times in epoch ms).  Then, unless\n"
		       "--due or --dead, the tasks running at most once (claimed by 'worker' or\n"
		       "'tick', which deletes their rows), by start, in state running: in JSON\n"
		       "with id, queue, name, run_at, attempts, claim_owner, claim_until, dead,\n"
		       "\"state\": \"running\", \"mode\": \"at-most-once\" and started_at.",
	.opts = list_opts,
	.examples = "leasectl task list --queue mail --due\nleasectl task list --dead --json | jq '.[].last_error'",
	.exits = "0   listed (also when there are none)\n64  bad usage\n69  database unreachable\n1   other failure",
};

struct list_state {
	int dead, oom;
	const char *db; /* several --db: the redacted DSN of the rows */
	const char *queue;
	unsigned flags;
	struct lc_listing l;
};

static int list_one(const lq_task *t, void *arg)
{
	struct list_state *s = arg;
	char id[32], when[96], att[48], prio[16], sched[300], err[64];

	s->l.n++;
	if (s->l.json) {
		lc_json_obj(&s->l.j);
		if (s->db)
			lc_json_kstr(&s->l.j, "db", s->db);
		lc_json_task(&s->l.j, t, 0);
		lc_json_end_obj(&s->l.j);
		return 0;
	}
	snprintf(id, sizeof(id), "%lld", (long long)t->id);
	lc_fmt_when(when, sizeof(when), t->dead ? t->died_at : t->run_at, t->now);
	snprintf(att, sizeof(att), "%d/%d", t->attempts, t->max_attempts);
	snprintf(prio, sizeof(prio), "%d", t->priority);
	lc_task_schedule(sched, sizeof(sched), t);
	/* Keep the table readable: the whole text is in 'task show'. */
	lc_fmt_excerpt(err, sizeof(err), t->last_error);
	if (s->db)
		lc_table_row(&s->l.t, (const char *const[]){s->db, id, t->queue, t->name, when, att, prio,
							  task_state(t), sched, err[0] ? err : NULL});
	else
		lc_table_row(&s->l.t, (const char *const[]){id, t->queue, t->name, when, att, prio, task_state(t),
							  sched, err[0] ? err : NULL});
	return 0;
}

/* A task running at most once: its row is gone, its run's mark is listed
 * after the tasks (a second query, streamed like the first). */
static int list_running_one(const lq_running *r, void *arg)
{
	struct list_state *s = arg;
	char id[32], when[96], att[16];

	s->l.n++;
	if (s->l.json) {
		lc_json_obj(&s->l.j);
		if (s->db)
			lc_json_kstr(&s->l.j, "db", s->db);
		lc_json_running(&s->l.j, r);
		lc_json_end_obj(&s->l.j);
		return 0;
	}
	snprintf(id, sizeof(id), "%lld", (long long)r->task_id);
	lc_fmt_when(when, sizeof(when), r->run_at, r->now);
	snprintf(att, sizeof(att), "%d", r->attempt);
	if (s->db)
		lc_table_row(&s->l.t, (const char *const[]){s->db, id, r->queue, r->name, when, att, "-", "running",
							  "once", NULL});
	else
		lc_table_row(&s->l.t,
			     (const char *const[]){id, r->queue, r->name, when, att, "-", "running", "once", NULL});
	return 0;
}

/* One database's tasks into the listing. */
static int list_db(lq_db *db, const char *label, void *arg)
{
	struct list_state *s = arg;
	lq_status st;

	s->db = label;
	st = lq_task_list(db, s->queue, s->flags, list_one, s);
	/* Running is neither due nor dead. */
	if (st == LQ_OK && !s->flags)
		st = lq_task_running_list(db, s->queue, list_running_one, s);
	return st == LQ_OK ? 0 : lc_db_error(db, st);
}

static int cmd_task_list(struct lc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {"ID", "QUEUE", "NAME", "NEXT RUN", "ATTEMPTS", "PRIO", "STATE",
					    "SCHEDULE", "LAST ERROR"};
	static const char *const dead_heads[] = {"ID", "QUEUE", "NAME", "DIED", "ATTEMPTS", "PRIO", "STATE",
						 "SCHEDULE", "LAST ERROR"};
	static const char *const db_heads[] = {"DB", "ID", "QUEUE", "NAME", "NEXT RUN", "ATTEMPTS", "PRIO", "STATE",
					       "SCHEDULE", "LAST ERROR"};
	static const char *const db_dead_heads[] = {"DB", "ID", "QUEUE", "NAME", "DIED", "ATTEMPTS", "PRIO", "STATE",
						    "SCHEDULE", "LAST ERROR"};
	struct list_args a = {0};
	struct list_state s = {0};
	int rc = lc_parse(ctx, &list_usage, &a, argc, argv);
	char none[LQ_NAME_MAX + 64];

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (a.queue && (rc = lc_check_name(ctx, "queue name", a.queue)))
		return rc;
	if (a.due && a.dead)
		return lc_usage_error(ctx, "--due and --dead cannot be combined (dead tasks are never due)");
	s.dead = a.dead;
	s.queue = a.queue;
	s.flags = (a.due ? LQ_LIST_DUE : 0u) | (a.dead ? LQ_LIST_DEAD : 0u);
	if (ctx->ndsn > 1)
		rc = lc_listing_begin(&s.l, ctx->json, 10, a.dead ? db_dead_heads : db_heads);
	else
		rc = lc_listing_begin(&s.l, ctx->json, 9, a.dead ? dead_heads : heads);
	if (rc)
		return rc;
	rc = lc_each_db(ctx, list_db, &s);
	snprintf(none, sizeof(none), "no %stasks%s%s", a.dead ? "dead " : a.due ? "due " : "",
		 a.queue ? " in queue " : "", a.queue ? a.queue : "");
	/* Several databases: what the reachable ones hold, and the failure's status. */
	lc_listing_end(&s.l, !rc || ctx->ndsn > 1, none);
	return rc;
}

/* ------------------------------------------------------------ show */

struct show_args {
	const char *id;
	int raw;
};
static const struct lc_opt show_opts[] = {
	LC_ARG(struct show_args, id, "ID", 0, "the task id (live or dead)"),
	LC_FLAG(struct show_args, raw, "raw", 0, "print only the payload, byte for byte"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage show_usage = {
	.path = "task show",
	.summary = "show one task, with its payload",
	.description = "Prints every field of a live or dead task and its payload (as text when it\n"
		       "is printable UTF-8), and the progress its handler reported under the claim\n"
		       "that holds it now (percent and message; see 'worker').  JSON: the task\n"
		       "object, with \"payload\" as a string when it is valid UTF-8, else\n"
		       "\"payload_base64\"; \"progress\", \"progress_msg\" and \"progress_at\" for a\n"
		       "live task (null when none).  A task running at most once (claimed by\n"
		       "'worker' or 'tick', which deleted its row and its payload) shows as its\n"
		       "run: id, queue, name, since when and on which worker it runs, run_at and\n"
		       "attempt; JSON: the keys of 'task list' for it (\"state\": \"running\",\n"
		       "\"mode\": \"at-most-once\"), and no payload (--raw fails).",
	.opts = show_opts,
	.examples = "leasectl task show 42\nleasectl task show 42 --raw > payload.bin",
	.exits = TASK_EXITS_ID,
};

static int printable_text(const unsigned char *p, size_t n)
{
	if (!lc_utf8_valid(p, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] == 0x7f)
			return 0;
	return 1;
}

static void print_task(const lq_task *t, const lq_schedule *s)
{
	char buf[600], when[96], sched[300], d[32];

	printf("id:           %lld\n", (long long)t->id);
	printf("queue:        %s\n", lc_pr(buf, sizeof(buf), t->queue));
	printf("name:         %s\n", lc_pr(buf, sizeof(buf), t->name));
	printf("state:        %s\n", task_state(t));
	lc_task_schedule(sched, sizeof(sched), t);
	printf("schedule:     %s\n", lc_pr(buf, sizeof(buf), sched));
	lc_fmt_when(when, sizeof(when), t->run_at, t->now);
	printf("run_at:       %s\n", when);
	if (t->next_run_at) {
		lc_fmt_when(when, sizeof(when), t->next_run_at, t->now);
		printf("next_run_at:  %s\n", when);
	}
	printf("attempts:     %d of %d\n", t->attempts, t->max_attempts);
	printf("priority:     %d\n", t->priority);
	if (t->partition[0])
		printf("partition:    %s\n", lc_pr(buf, sizeof(buf), t->partition));
	if (t->timeout_ms) {
		lc_fmt_duration(d, sizeof(d), t->timeout_ms);
		printf("timeout:      %s\n", d);
	}
	printf("unique_key:   %s\n", t->unique_key[0] ? lc_pr(buf, sizeof(buf), t->unique_key) : "-");
	printf("concurrency_key: %s\n", t->concurrency_key[0] ? lc_pr(buf, sizeof(buf), t->concurrency_key) : "-");
	if (t->claim_owner[0]) {
		lc_fmt_when(when, sizeof(when), t->claim_until, t->now);
		printf("claimed by:   %s until %s\n", lc_pr(buf, sizeof(buf), t->claim_owner), when);
	}
	if (t->every_ms) {
		lc_fmt_duration(d, sizeof(d), t->every_ms);
		printf("every:        %s\n", d);
	}
	printf("paused:       %s\n", t->paused ? "yes" : "no");
	if (s)
		lc_print_schedule(s);
	lc_fmt_when(when, sizeof(when), t->created_at, t->now);
	printf("created_at:   %s\n", when);
	if (t->dead) {
		lc_fmt_when(when, sizeof(when), t->died_at, t->now);
		printf("died_at:      %s\n", when);
	}
	if (t->last_error) {
		char *e = lc_printable(t->last_error, strlen(t->last_error));
		printf("last_error:   %s\n", e ? e : "?");
		free(e);
	} else {
		printf("last_error:   -\n");
	}
	if (!t->payload_len) {
		printf("payload:      (empty)\n");
	} else if (printable_text(t->payload, t->payload_len)) {
		printf("payload:      %zu bytes\n", t->payload_len);
		fwrite(t->payload, 1, t->payload_len, stdout);
		if (t->payload[t->payload_len - 1] != '\n')
			fputc('\n', stdout);
	} else {
		printf("payload:      %zu bytes, binary (see --raw or --json)\n", t->payload_len);
	}
}

/* A task whose row its at-most-once claim deleted, while it runs. */
static int show_running(const struct lc_ctx *ctx, lq_db *db, int64_t id, int raw)
{
	lq_running r;
	lq_status st = lq_task_running_get(db, id, &r);
	char buf[600], when[96];

	if (st == LQ_NOTFOUND)
		return task_not_found(id);
	if (st != LQ_OK)
		return lc_db_error(db, st);
	if (raw) {
		lc_errorf("task %lld: running at most once: its payload went with its claim", (long long)id);
		return LC_EXIT_FAIL;
	}
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_running(&j, &r);
		lc_json_end_obj(&j);
		lc_json_end(&j);
		return 0;
	}
	printf("id:           %lld\n", (long long)r.task_id);
	printf("queue:        %s\n", lc_pr(buf, sizeof(buf), r.queue));
	printf("name:         %s\n", lc_pr(buf, sizeof(buf), r.name));
	lc_fmt_when(when, sizeof(when), r.started_at, r.now);
	printf("state:        running at most once since %s on %s\n", when, lc_pr(buf, sizeof(buf), r.owner));
	lc_fmt_when(when, sizeof(when), r.run_at, r.now);
	printf("run_at:       %s\n", when);
	printf("attempt:      %d\n", r.attempt);
	return 0;
}

static int cmd_task_show(struct lc_ctx *ctx, int argc, char **argv)
{
	struct show_args a = {0};
	int rc = lc_parse(ctx, &show_usage, &a, argc, argv);
	int64_t id = 0;
	lq_db *db = NULL;
	lq_task t;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = parse_id(ctx, a.id, &id)))
		return rc;
	if (a.raw && ctx->json)
		return lc_usage_error(ctx, "--raw and --json cannot be combined");
	if ((rc = lc_open_read(ctx, &db)))
		return rc;
	memset(&t, 0, sizeof(t));
	st = lq_task_get(db, id, &t);
	if (st == LQ_NOTFOUND) {
		rc = show_running(ctx, db, id, a.raw);
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (a.raw) {
		if (t.payload_len)
			fwrite(t.payload, 1, t.payload_len, stdout);
	} else {
		/* A live recurring task's steering, read beside it. */
		lq_schedule s;
		int has_s = !t.dead && (t.every_ms || t.cron[0]) && lq_schedule_get(db, id, &s) == LQ_OK;
		if (ctx->json) {
			struct lc_json j;
			lc_json_init(&j, stdout);
			lc_json_obj(&j);
			lc_json_task(&j, &t, 1);
			if (has_s)
				lc_json_schedule(&j, &s);
			if (!t.dead)
				lc_json_progress(&j, db, id);
			lc_json_end_obj(&j);
			lc_json_end(&j);
		} else {
			print_task(&t, has_s ? &s : NULL);
			if (!t.dead)
				lc_print_progress(db, id);
		}
	}
	lq_task_clear(&t);
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ rm, retry, pause, resume */

struct id_args {
	const char *id;
};
static const struct lc_opt id_opts[] = {
	LC_ARG(struct id_args, id, "ID", 0, "the task id"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage rm_usage = {
	.path = "task rm",
	.summary = "delete a task (live or dead)",
	.description = "Deletes the task.  A recurring task stops recurring.  A task a worker is\n"
		       "running right now finishes that run.  JSON: {\"id\": N, \"removed\": true}.",
	.opts = id_opts,
	.examples = "leasectl task rm 42",
	.exits = TASK_EXITS_ID,
};
static const struct lc_usage retry_usage = {
	.path = "task retry",
	.summary = "make a task due now (a dead one comes back)",
	.description = "A dead task goes back to its queue with its attempts reset, due now.  A\n"
		       "live task becomes due now.  JSON: the task afterwards.",
	.opts = id_opts,
	.examples = "leasectl task list --dead\nleasectl task retry 42",
	.exits = TASK_EXITS_ID,
};
static const struct lc_usage pause_usage = {
	.path = "task pause",
	.summary = "stop a task from being claimed",
	.description = "A paused task stays in its queue (a recurring one keeps its row) but no\n"
		       "worker claims it until 'task resume'.  JSON: the task afterwards.",
	.opts = id_opts,
	.examples = "leasectl task pause 42",
	.exits = TASK_EXITS_ID,
};
static const struct lc_usage resume_usage = {
	.path = "task resume",
	.summary = "let a paused task be claimed again",
	.description = "Undoes 'task pause'.  JSON: the task afterwards.",
	.opts = id_opts,
	.examples = "leasectl task resume 42",
	.exits = TASK_EXITS_ID,
};

enum id_op { OP_RM, OP_RETRY, OP_PAUSE, OP_RESUME };

static int id_command(struct lc_ctx *ctx, const struct lc_usage *u, enum id_op op, int argc, char **argv)
{
	static const char *const done[] = {"removed task %lld\n", "task %lld is due now\n", "paused task %lld\n",
					   "resumed task %lld\n"};
	struct id_args a = {0};
	int rc = lc_parse(ctx, u, &a, argc, argv);
	int64_t id = 0;
	lq_db *db = NULL;
	lq_status st;
	lq_task t;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = parse_id(ctx, a.id, &id)) || (rc = lc_open(ctx, &db)))
		return rc;
	switch (op) {
	case OP_RM:
		st = lq_task_rm(db, id);
		break;
	case OP_RETRY:
		st = lq_task_retry(db, id);
		break;
	default:
		st = lq_task_pause(db, id, op == OP_PAUSE);
		break;
	}
	if (st == LQ_NOTFOUND) {
		rc = task_not_found(id);
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (!ctx->json) {
		printf(done[op], (long long)id);
	} else {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		memset(&t, 0, sizeof(t));
		if (op != OP_RM && lq_task_get(db, id, &t) == LQ_OK) {
			lc_json_task(&j, &t, 0);
			lq_task_clear(&t);
		} else {
			lc_json_kint(&j, "id", id);
			if (op == OP_RM)
				lc_json_kbool(&j, "removed", 1);
		}
		lc_json_end_obj(&j);
		lc_json_end(&j);
	}
	lq_close(db);
	return rc;
}

static int cmd_task_rm(struct lc_ctx *ctx, int argc, char **argv)
{
	return id_command(ctx, &rm_usage, OP_RM, argc, argv);
}

static int cmd_task_retry(struct lc_ctx *ctx, int argc, char **argv)
{
	return id_command(ctx, &retry_usage, OP_RETRY, argc, argv);
}

static int cmd_task_pause(struct lc_ctx *ctx, int argc, char **argv)
{
	return id_command(ctx, &pause_usage, OP_PAUSE, argc, argv);
}

static int cmd_task_resume(struct lc_ctx *ctx, int argc, char **argv)
{
	return id_command(ctx, &resume_usage, OP_RESUME, argc, argv);
}

const struct lc_cmd lc_task_cmds[] = {
	{"add", cmd_task_add, "enqueue a task (one-off, delayed or recurring)", &add_usage, NULL},
	{"list", cmd_task_list, "list tasks", &list_usage, NULL},
	{"show", cmd_task_show, "show one task, with its payload", &show_usage, NULL},
	{"rm", cmd_task_rm, "delete a task", &rm_usage, NULL},
	{"retry", cmd_task_retry, "make a task due now (a dead one comes back)", &retry_usage, NULL},
	{"pause", cmd_task_pause, "stop a task from being claimed", &pause_usage, NULL},
	{"resume", cmd_task_resume, "let a paused task be claimed again", &resume_usage, NULL},
	{"cancel", cmd_task_cancel, "cancel a task, also one that is running", &lc_task_cancel_usage, NULL},
	{"edit", cmd_task_edit, "change a recurring task's schedule in place", &lc_task_edit_usage, NULL},
	{"run-now", cmd_task_run_now, "one extra occurrence of a recurring task, now", &lc_task_run_now_usage, NULL},
	{"history", cmd_task_history, "the runs of tasks: who ran what, when, and how it ended",
	 &lc_task_history_usage, NULL},
	{"result", cmd_task_result, "print the result a task's last successful run stored", &lc_task_result_usage,
	 NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

int cmd_task(struct lc_ctx *ctx, int argc, char **argv)
{
	return lc_dispatch(ctx, "task", lc_task_cmds, "Tasks: one-off, delayed and recurring work in named queues",
			   argc, argv);
}
