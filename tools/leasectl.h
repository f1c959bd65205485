/*
 * leasectl.h - what the leasectl source files share.  Internal to the tool:
 * leasectl uses only the public lib/leaseq.h (and, for the raw baselines of
 * "leasectl bench" in tools/bench/, the database client libraries).
 */
#ifndef LEASECTL_H
#define LEASECTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "leaseq.h"

/* Exit statuses (ARCHITECTURE.md, "leasectl"). */
#define LC_EXIT_OK 0
#define LC_EXIT_FAIL 1
#define LC_EXIT_LOST 3
#define LC_EXIT_USAGE 64   /* EX_USAGE */
/* A file that is there but is no SQLite database (or is a directory):
 * EX_DATAERR, the user's data is wrong.  Not EX_NOINPUT (66): that says
 * the input is missing, and its advice, "run leasectl migrate", would be
 * wrong here (migrate cannot turn the file into a database). */
#define LC_EXIT_DATAERR 65
#define LC_EXIT_NOINPUT 66 /* EX_NOINPUT: no such database file, or an input file (--from, --payload-file) */
#define LC_EXIT_CONN 69    /* EX_UNAVAILABLE: the server cannot be reached */
#define LC_EXIT_CANTCREAT 73 /* EX_CANTCREAT: the database file cannot be created */
#define LC_EXIT_HELD 75    /* EX_TEMPFAIL */
#define LC_EXIT_NOPERM 77  /* EX_NOPERM: permission denied on the database file */

#define LC_PROG "leasectl"
/* Follows the library's "no such database file". */
#define LC_NODB_HINT " (run 'leasectl migrate' to create it)"
#define LC_DEFAULT_DSN "sqlite:leaseq.db"

/* State shared by every command: the global flags and the fds leasectl was
 * started with (everything else is closed in the programs it runs). */
#define LC_MAX_DBS 16 /* --db given several times (worker, tick, read-only lists) */

struct lc_ctx {
	const char *dsn;  /* --db; NULL: $LEASEQ_DSN, else LC_DEFAULT_DSN */
	const char *dsns[LC_MAX_DBS]; /* every --db, in order (dsn is the first) */
	size_t ndsn;
	char db_label[256]; /* the redacted DSN this process serves, when several */
	int json;         /* --json */
	const char *cmd;  /* "lease acquire": prefixes usage errors */
	int *inherited;   /* fds open at start, sorted */
	size_t ninherited;
};

/* ------------------------------------------------------------ options */

enum lc_opt_type {
	LC_OPT_END = 0,
	LC_OPT_FLAG,  /* --name: int, set to 1 */
	LC_OPT_VALUE, /* --name V or --name=V: const char *, given at most once */
	LC_OPT_LIST,  /* --name V, repeatable: struct lc_list */
	LC_OPT_ARG,   /* a positional argument: const char * */
	LC_OPT_REST   /* the rest of the line, after the arguments or "--": struct lc_rest */
};

#define LC_REQUIRED 1u /* an option (or the rest) that must be given */
#define LC_OPTIONAL 2u /* a positional argument that may be left out */

/* One row of a command's option table.  The table drives parsing, the
 * synopsis and --help; values land at offset in the command's args struct. */
struct lc_opt {
	enum lc_opt_type type;
	const char *name;       /* long name without "--", or the argument's name */
	char alias;             /* short option letter, or 0 */
	const char *value_name; /* "DUR"; NULL for flags */
	size_t offset;
	unsigned flags;
	const char *help;       /* meaning and default; '\n' starts a new line */
};

struct lc_list {
	const char **v;
	size_t n;
};

struct lc_rest {
	char **argv; /* NULL-terminated (points into main's argv) */
	int argc;
};

#define LC_FLAG(T, f, name, alias, help) {LC_OPT_FLAG, name, alias, NULL, offsetof(T, f), 0, help}
#define LC_VALUE(T, f, name, alias, vn, flags, help) {LC_OPT_VALUE, name, alias, vn, offsetof(T, f), flags, help}
#define LC_LIST(T, f, name, alias, vn, help) {LC_OPT_LIST, name, alias, vn, offsetof(T, f), 0, help}
#define LC_ARG(T, f, name, flags, help) {LC_OPT_ARG, name, 0, NULL, offsetof(T, f), flags, help}
#define LC_REST(T, f, name, flags, help) {LC_OPT_REST, name, 0, NULL, offsetof(T, f), flags, help}
#define LC_OPT_TABLE_END {LC_OPT_END, NULL, 0, NULL, 0, 0, NULL}

/* Everything --help says about one command. */
struct lc_usage {
	const char *path;        /* "lease acquire" */
	const char *summary;     /* one line, for command lists */
	const char *description; /* paragraphs */
	const struct lc_opt *opts;
	const char *examples;    /* one example per line */
	const char *exits;       /* the exit statuses, one per line */
};

/* A command: git-style {name, fn, summary}.  fn gets argv[0] = name.  A leaf
 * command has usage; a command with subcommands has subs. */
typedef int (*lc_cmd_fn)(struct lc_ctx *ctx, int argc, char **argv);
struct lc_cmd {
	const char *name;
	lc_cmd_fn fn;
	const char *summary;
	const struct lc_usage *usage;
	const struct lc_cmd *subs; /* NULL-name terminated */
};

#define LC_PARSE_OK 0
#define LC_PARSE_HELP (-1) /* --help was printed: exit 0 */

/* Parse argv[1..] (argv[0] is the command's name) into args.  Global flags
 * are accepted anywhere before the rest.  Returns LC_PARSE_OK, LC_PARSE_HELP
 * or LC_EXIT_USAGE after printing one line to stderr. */
int lc_parse(struct lc_ctx *ctx, const struct lc_usage *u, void *args, int argc, char **argv);
/* lc_parse's status as an exit status (LC_PARSE_HELP -> 0). */
#define LC_PARSE_EXIT(rc) ((rc) == LC_PARSE_HELP ? LC_EXIT_OK : (rc))
void lc_print_help(FILE *f, const struct lc_usage *u);
void lc_print_synopsis(FILE *f, const struct lc_usage *u);
/* Dispatch argv[1] among subs (global flags may come first). */
int lc_dispatch(struct lc_ctx *ctx, const char *group, const struct lc_cmd *subs,
		const char *summary, int argc, char **argv);

/* Several --db (leasectl_multidb.c).  Whether the command (u->path) takes
 * them: worker, tick and the read-only lists. */
int lc_multi_db_ok(const char *path);
/* Run fn once per database, each in its own child process with ctx->dsn
 * set to that database (ctx->db_label its redacted form).  A database that
 * is unreachable (fn returns LC_EXIT_CONN) is retried with back-off, up to
 * max_tries (0: until stopped); the others go on.  SIGTERM and SIGINT are
 * passed on to every child.  Returns 0 when every run ended 0, else the
 * first failure's status (LC_EXIT_HELD only when no run failed otherwise). */
int lc_run_per_db(struct lc_ctx *ctx, int max_tries, int (*fn)(struct lc_ctx *ctx, void *arg), void *arg);

/* Open each database of ctx in turn, read-only (lc_open_read), and call fn (label: the redacted DSN
 * when there are several, else NULL); one that fails is reported and the
 * others still listed.  Returns the first failure's status, or 0. */
int lc_each_db(struct lc_ctx *ctx, int (*fn)(lq_db *db, const char *label, void *arg), void *arg);

/* Lease and queue counts (leasectl_stats.c), for stats and serve. */
struct lc_run_counter {
	char queue[LQ_NAME_MAX + 1], name[LQ_NAME_MAX + 1];
	lq_run_counts c;
};
struct lc_stats {
	int64_t now, leases, held, live, due, dead;
	lq_queue_info *q; /* free() it (lc_stats_free) */
	size_t nq, capq;
	int oom;
	int64_t cap;              /* bounded: the cap of every per-queue count, else 0 */
	lq_run_counts last_hour;  /* exact collection only: runs that ended in the last hour */
	lq_lease_counts leases_total;
	struct lc_run_counter *rc; /* counters per queue and task name */
	size_t nrc, caprc;
};
/* Exact counts (reads every task) and the last hour of the run history. */
lq_status lc_stats_collect(lq_db *db, struct lc_stats *s);
/* The counters (s->rc, s->leases_total): free with lc_stats_free. */
lq_status lc_stats_collect_counters(lq_db *db, struct lc_stats *s);
/* For /metrics: counts with per-queue counts capped (lq_queue_gauges) and
 * the counters, no history read: bounded on a queue of any size. */
lq_status lc_stats_collect_bounded(lq_db *db, struct lc_stats *s);
void lc_stats_prometheus(FILE *f, const struct lc_stats *s);
void lc_stats_free(struct lc_stats *s);

/* The manual page and the markdown reference (leasectl_man.c). */
struct lc_doc_parts {
	void (*main_help)(FILE *f, const void *unused);
	void (*group_help)(FILE *f, const void *cmd); /* a struct lc_cmd with subs */
	const char *env_help, *exit_help, *global_help;
};
void lc_doc_write(FILE *f, int markdown, const struct lc_cmd *cmds, const struct lc_doc_parts *parts);

/* Subcommand groups and commands (one file each). */
extern const struct lc_cmd lc_lease_cmds[];
extern const struct lc_cmd lc_task_cmds[];
extern const struct lc_cmd lc_queue_cmds[];
extern const struct lc_cmd lc_limit_cmds[];
extern const struct lc_usage lc_migrate_usage, lc_exec_usage, lc_worker_usage, lc_tick_usage, lc_stats_usage,
	lc_bench_usage, lc_prune_usage, lc_doctor_usage, lc_serve_usage;
extern const struct lc_usage lc_task_history_usage;
/* Steering recurring tasks (leasectl_steer.c). */
extern const struct lc_usage lc_task_edit_usage, lc_task_run_now_usage;
int cmd_task_edit(struct lc_ctx *ctx, int argc, char **argv);
int cmd_task_run_now(struct lc_ctx *ctx, int argc, char **argv);
const char *lc_overlap_name(lq_overlap o);
int lc_steer_parse(const struct lc_ctx *ctx, const char *overlap, const char *catch_up, const char *alert_after,
		   int recurring, lq_task_opts *o);
struct lc_json;
void lc_json_schedule(struct lc_json *j, const lq_schedule *s);
void lc_print_schedule(const lq_schedule *s);
lq_status lc_prom_schedules(FILE *f, lq_db *db);
int cmd_task_history(struct lc_ctx *ctx, int argc, char **argv);
extern const struct lc_usage lc_task_cancel_usage;
int cmd_task_cancel(struct lc_ctx *ctx, int argc, char **argv);
int cmd_migrate(struct lc_ctx *ctx, int argc, char **argv);
int cmd_lease(struct lc_ctx *ctx, int argc, char **argv);
int cmd_exec(struct lc_ctx *ctx, int argc, char **argv);
int cmd_task(struct lc_ctx *ctx, int argc, char **argv);
int cmd_queue(struct lc_ctx *ctx, int argc, char **argv);
int cmd_limit(struct lc_ctx *ctx, int argc, char **argv);
int cmd_worker(struct lc_ctx *ctx, int argc, char **argv);
int cmd_tick(struct lc_ctx *ctx, int argc, char **argv);
int cmd_stats(struct lc_ctx *ctx, int argc, char **argv);
int cmd_bench(struct lc_ctx *ctx, int argc, char **argv);
int cmd_prune(struct lc_ctx *ctx, int argc, char **argv);
int cmd_doctor(struct lc_ctx *ctx, int argc, char **argv);
int cmd_serve(struct lc_ctx *ctx, int argc, char **argv);
/* 1 if this leasectl was built with serve (GNU libmicrohttpd). */
int lc_serve_built(void);

/* ------------------------------------------------------------ errors */

/* Print "leasectl: <text>" as one line on stderr. */
void lc_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error of the current command: one line, returns LC_EXIT_USAGE. */
int lc_usage_error(const struct lc_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The exit status for a library status. */
int lc_exit_status(lq_status st);
/* Print the library's explanation of st (lq_errmsg) and return its exit status. */
int lc_db_error(lq_db *db, lq_status st);
/* 'lease "NAME" is held by OWNER until TIME (token N)'; returns code. */
int lc_held_error(const char *name, const lq_lease *l, int code);
/* The same for a shared lease (semaphore slot, read lease), from lq_errmsg. */
int lc_shared_held_error(lq_db *db, int code);
/* Flush stdout; on a write error say so and return LC_EXIT_FAIL. */
int lc_finish(int status);

/* ------------------------------------------------------------ input */

/* Open the database named by --db / $LEASEQ_DSN / the default.  On failure
 * prints the reason and returns its exit status (*db is then NULL). */
int lc_open(struct lc_ctx *ctx, lq_db **db);
/* The same for a command that only reads: never creates the database
 * (a missing SQLite file exits 66) and works on one the user may only
 * read (LQ_OPEN_READONLY). */
int lc_open_read(struct lc_ctx *ctx, lq_db **db);
/* Open dsn with lq_open_ex flags; on failure says why (with the advice
 * for a missing file) and returns the exit status, *db NULL. */
int lc_open_dsn(const char *dsn, unsigned flags, lq_db **db);
const char *lc_dsn(const struct lc_ctx *ctx);
/* The password in dsn (URL userinfo or a password-like query option), not
 * NUL-terminated: *len bytes; NULL if none. */
const char *lc_dsn_password(const char *dsn, size_t *len);

#define LC_DUR_ZERO_OK 1u /* 0 is allowed (a delay), else it must be positive */
/* An input file named by flag (--from, --payload-file) that cannot be
 * opened or read: "task add --from F: <strerror(err)>", returns
 * LC_EXIT_NOINPUT (EX_NOINPUT: missing or unreadable input, not bad usage).
 * Pass errno as it was right after the failing call. */
int lc_input_error(const struct lc_ctx *ctx, const char *flag, const char *file, int err);
/* Parse a duration flag; prints the error and returns LC_EXIT_USAGE. */
int lc_duration(const struct lc_ctx *ctx, const char *flag, const char *text, unsigned flags, int64_t *ms);
/* Validate a name with lq_check_name; prints the error and returns LC_EXIT_USAGE. */
int lc_check_name(const struct lc_ctx *ctx, const char *what, const char *name);
/* Parse a decimal integer in [min, max]; prints and returns LC_EXIT_USAGE. */
int lc_integer(const struct lc_ctx *ctx, const char *what, const char *text, int64_t min, int64_t max, int64_t *out);
/* Parse "--at" times: epoch seconds, @EPOCH, ISO-8601 (UTC unless an offset
 * is given).  Returns 0 and epoch ms, or -1. */
int lc_parse_time(const char *text, int64_t *ms);

/* One field of a flat JSON object (leasectl_jsonl.c). */
enum { LC_JSTR = 1, LC_JNUM, LC_JBOOL, LC_JNULL };
struct lc_jfield {
	const char *key;
	const char *val; /* the string, the number's text, "true"/"false"; NULL for null */
	int type;        /* LC_J* */
};
/* Parse line[0..len) (NUL-terminated at len), one JSON object whose values
 * are strings, numbers, booleans or null, unescaping in place (the fields
 * point into line).  -1 with a reason in err when it is not. */
int lc_jsonl_object(char *line, size_t len, struct lc_jfield *f, size_t max, size_t *n, char *err, size_t errsize);

/* ------------------------------------------------------------ output */

/* "2026-11-22T10:00:00Z": UTC, whole seconds (truncated). */
void lc_fmt_time(char *buf, size_t size, int64_t ms);
/* "in 3s", "5m12s ago", "now" relative to now. */
void lc_fmt_rel(char *buf, size_t size, int64_t ms, int64_t now);
/* "2026-11-22T10:00:00Z (in 3s)", or "-" for 0. */
void lc_fmt_when(char *buf, size_t size, int64_t ms, int64_t now);
/* "250ms", "3s", "2m05s", "1h30m": exact to the millisecond (a setting). */
void lc_fmt_duration(char *buf, size_t size, int64_t ms);
/* A measured time, |ms|, the same way but in whole seconds from 1s up
 * ("21s", not "21415ms"). */
void lc_fmt_elapsed(char *buf, size_t size, int64_t ms);
/* A task's schedule in words: "once", "every 5m", "cron 0 3 * * * Europe/Paris". */
void lc_task_schedule(char *buf, size_t size, const lq_task *t);
/* text cut to fit size with "..." (at a UTF-8 boundary); "" for NULL. */
void lc_fmt_excerpt(char *buf, size_t size, const char *text);
/* A copy safe for a terminal: control bytes and invalid UTF-8 escaped. */
char *lc_printable(const char *s, size_t n);
/* The same into buf (truncated to size); returns buf.  For messages. */
const char *lc_pr(char *buf, size_t size, const char *s);
/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
size_t lc_utf8_seq(const unsigned char *s, size_t n);
int lc_utf8_valid(const unsigned char *s, size_t n);

/* A table printed with aligned columns (the last one is not padded).  The
 * widths need every row before the first is printed: past LC_TABLE_SPOOL
 * rows they go to a temporary file (in $TMPDIR) rather than the heap, so a
 * table of a million rows costs no more memory than one of a thousand. */
#define LC_TABLE_SPOOL 4096
struct lc_table {
	size_t ncols;
	size_t nrows, cap;
	char **cells; /* nrows * ncols printable copies (those not spooled) */
	size_t width[16];
	FILE *spool;  /* the rows after the first LC_TABLE_SPOOL: NUL-ended cells */
};
void lc_table_init(struct lc_table *t, size_t ncols, const char *const *heads);
/* Add a row of ncols strings (copied, made printable; NULL prints as "-"). */
void lc_table_row(struct lc_table *t, const char *const *cells);
void lc_table_print(struct lc_table *t, FILE *f);
void lc_table_free(struct lc_table *t);

/* A JSON writer that indents and escapes (invalid UTF-8 becomes U+FFFD). */
struct lc_json {
	FILE *f;
	int depth;
	int has_item[32]; /* an element was written at this depth */
	int after_key;
	int compact; /* one line (log events), not indented */
};
void lc_json_init(struct lc_json *j, FILE *f);
void lc_json_obj(struct lc_json *j);
void lc_json_end_obj(struct lc_json *j);
void lc_json_arr(struct lc_json *j);
void lc_json_end_arr(struct lc_json *j);
void lc_json_key(struct lc_json *j, const char *key);
void lc_json_strn(struct lc_json *j, const char *s, size_t n);
void lc_json_str(struct lc_json *j, const char *s); /* NULL -> null */
void lc_json_int(struct lc_json *j, int64_t v);
void lc_json_bool(struct lc_json *j, int v);
void lc_json_num(struct lc_json *j, double v, int decimals); /* finite v only */
void lc_json_null(struct lc_json *j);
void lc_json_end(struct lc_json *j); /* the final newline */

/* A listing command's output (leasectl_listing.c): JSON rows go to j (an
 * array: its first LC_LISTING_HOLD bytes are held back, so that a failure
 * in a listing of that size prints no half document, and the rest streams
 * to standard output as the rows come), text rows to t; n counts the rows.
 * begin: 0, or LC_EXIT_FAIL (said).  end: prints it if print (none: the
 * text when there are no rows), and frees it. */
#define LC_LISTING_HOLD 65536
struct lc_listing {
	int json;
	size_t n;
	struct lc_json j;
	struct lc_table t;
	FILE *mem;     /* j's stream */
	char *out;     /* what it holds back */
	size_t outlen;
	int streaming; /* the held bytes went out: the rest goes straight on */
	int write_failed;
};
int lc_listing_begin(struct lc_listing *l, int json, size_t ncols, const char *const *heads);
void lc_listing_end(struct lc_listing *l, int print, const char *none);
/* key + value shorthands; _opt writes null for NULL/"" strings and 0 times. */
void lc_json_kstr(struct lc_json *j, const char *key, const char *s);
void lc_json_kstr_opt(struct lc_json *j, const char *key, const char *s);
void lc_json_kint(struct lc_json *j, const char *key, int64_t v);
void lc_json_kint_opt(struct lc_json *j, const char *key, int64_t v);
void lc_json_kbool(struct lc_json *j, const char *key, int v);
void lc_json_knum(struct lc_json *j, const char *key, double v, int decimals);
/* Standard base64 with padding; returns a malloc'd string. */
char *lc_base64(const unsigned char *p, size_t n);

/* Shared JSON/human renderings of library structs. */
void lc_json_lease(struct lc_json *j, const lq_lease *l);
void lc_json_task(struct lc_json *j, const lq_task *t, int with_payload);
void lc_json_running(struct lc_json *j, const lq_running *r);
void lc_json_report(struct lc_json *j, const lq_run_report *r);

/* Logs (leasectl_log.c): --log-format text|json for worker, tick and exec.
 * In JSON every line on standard error is an object: time, level, event and
 * the fields given; lc_errorf lines become {"level": "error", "event":
 * "error", "message"}.  In text, lc_log_event writes nothing (the commands
 * keep their text lines). */
struct lc_log_fields {
	const lq_task *task;         /* task_id, queue, name */
	int attempt;                 /* > 0 */
	const char *lease;
	int64_t token;               /* > 0 */
	int64_t duration_ms;         /* with has_duration */
	int exit_status;             /* with has_exit_status */
	int has_duration, has_exit_status;
	const lq_run_report *report; /* ran, failed, claimed, stopped */
	const char *error, *message;
};
#define LC_LOG_OPT(T, f)                                                                   \
	LC_VALUE(T, f, "log-format", 0, "FMT", 0,                                          \
		 "text (default) or json: one JSON object per line on standard\n"          \
		 "error (time, level, event, task or lease, duration, error)")
int lc_log_set_format(const struct lc_ctx *ctx, const char *format);
int lc_log_is_json(void);
void lc_log_event(const char *level, const char *event, const struct lc_log_fields *f);
/* An expected outcome that ends the command, not a failure (a lease held
 * elsewhere): the "leasectl: <text>" line of lc_errorf in text, an object
 * at level info with this event and f's fields (may be NULL) in JSON. */
void lc_log_outcome(const char *event, const struct lc_log_fields *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An lq_notice_fn: the library's remark as a "leasectl: note: ..." line, or
 * a {"level": "warning", "event": "notice"} object in JSON. */
void lc_log_notice(void *ctx, const char *text);

/* ------------------------------------------------------------ processes */

/* Monotonic milliseconds. */
int64_t lc_mono_ms(void);
/* An environment for a child: environ without the database secrets
 * (LEASEQ_DSN, PGPASSWORD, MYSQL_PWD, and any variable holding the DSN in
 * use or its password) and without the names in set, then set ("NAME=value"
 * strings).  malloc'd; free with lc_env_free. */
char **lc_child_env(const struct lc_ctx *ctx, const char *const *set, size_t nset);
void lc_env_free(char **env);
/* Mark every fd opened since start close-on-exec, so that database
 * connections and files never leak into the programs leasectl runs. */
void lc_cloexec_new_fds(const struct lc_ctx *ctx);
/* Remember the fds open at start. */
void lc_snapshot_fds(struct lc_ctx *ctx);

/* Signals: handlers write one byte per signal into a self-pipe so that a
 * poll() on lc_sig_fd() wakes.  The byte is the signal number, with
 * LC_SIG_KERNEL set when the kernel sent it (a terminal's ^C reaches the
 * whole foreground process group, so it need not be forwarded). */
#define LC_SIG_KERNEL 0x80
int lc_sig_init(void);        /* a new pipe (closing any old one): 0 or -1 with errno */
int lc_sig_fd(void);
/* Install the self-pipe handler for sig; extra (may be NULL) is called
 * first from the handler and must be async-signal-safe. */
int lc_sig_catch(int sig, void (*extra)(int sig));
/* Read one pending byte: 1 and *byte, or 0 when none. */
int lc_sig_next(int *byte);
/* Restore default dispositions and an empty mask (in a child before exec). */
void lc_sig_reset_child(void);

/* ---- commands run for the user (leasectl_child.c): own process group,
 * stopped as a group, descendants that escaped it reaped and stopped too. */
/* Make this process the reaper of its orphaned descendants. */
void lc_child_subreaper(void);
/* Fork a child in a process group of its own (pgid = its pid) with default
 * signal dispositions and PR_SET_PDEATHSIG; it calls run(arg), which execs
 * or _exits.  The pid, or -1 with errno. */
pid_t lc_child_spawn(void (*run)(void *arg), void *arg);
/* After the child was reaped: SIGTERM what it left running (the rest of its
 * group, descendants reparented to us), SIGKILL after grace_ms, reap them.
 * Returns how many processes there were to stop (0: none). */
int lc_child_stop_rest(pid_t pgid, int64_t grace_ms);

/* Supervising a spawned child (lc_supervise): the one loop behind exec's
 * COMMAND and the worker's and tick's handlers.  The caller fills in its
 * policy; the engine keeps the child alive, enforces the deadlines, stops
 * it as a group (SIGTERM, SIGKILL after a grace), reaps it and stops what
 * it left running.  Needs lc_sig_init() and SIGCHLD caught, so that the
 * child's end wakes the loop. */
enum lc_keep {
	LC_KEEP_AGAIN, /* renewed or worth retrying: due again at s->keep_at */
	LC_KEEP_DONE,  /* nothing left to keep alive; the child may finish */
	LC_KEEP_LOST,  /* what the child works under is gone: stop it */
};
enum lc_stop_ask {
	LC_STOP_NO,    /* carry on */
	LC_STOP_DRAIN, /* SIGTERM after drain_ms unless it ends first */
	LC_STOP_NOW,   /* SIGTERM now */
};
enum lc_sup_end {
	LC_END_EXITED,    /* it ended before we sent it SIGTERM */
	LC_END_STOPPED,   /* we stopped it because stop_ask said so */
	LC_END_TIMED_OUT, /* we stopped it at timeout_at */
	LC_END_LOST,      /* keep() said lost (whether or not it ended first) */
};
struct lc_sup {
	/* Policy, set by the caller (zero: not used). */
	pid_t pid;             /* from lc_child_spawn */
	void *arg;             /* the caller's, for its callbacks */
	int forward_stops;     /* pass SIGTERM/INT/HUP/QUIT on to the child's group */
	int64_t poll_ms;       /* wake at least this often (for stop_ask) */
	int64_t keep_at;       /* first keep() call, monotonic ms */
	/* Renew what the child works under; now is taken before the call.
	 * AGAIN must set keep_at; LOST must say why first (the engine only
	 * stops the child). */
	enum lc_keep (*keep)(struct lc_sup *s, int64_t now);
	enum lc_stop_ask (*stop_ask)(struct lc_sup *s); /* asked on each wake */
	int64_t timeout_at;    /* monotonic ms */
	int64_t drain_ms;      /* LC_STOP_DRAIN: how long it may still run */
	int64_t grace_ms;      /* SIGTERM to SIGKILL */
	int64_t lost_grace_ms; /* the same after LC_KEEP_LOST (keep() may change it) */
	int64_t rest_grace_ms; /* for what it left running, if it ended on its own */
	int64_t rest_grace_stopped_ms; /* the same after SIGTERM or LC_KEEP_LOST */
	/* With output: out_fd is polled too and output() called on each wake;
	 * it sets out_fd to -1 once that is done. */
	int out_fd;
	void (*output)(struct lc_sup *s);
	/* Outcome. */
	enum lc_sup_end end;
	int wstatus;
	int rest;              /* processes it left running, now stopped */
};
/* Run the loop until s->pid is reaped and what it left is stopped. */
void lc_supervise(struct lc_sup *s);
/* Around a keep-alive call that may block past the lease's end: arm(s, ms)
 * makes SIGALRM send SIGTERM to the child's group after ms, from the signal
 * handler; disarm returns 1 if that happened. */
void lc_sup_guard_arm(const struct lc_sup *s, int64_t ms);
int lc_sup_guard_disarm(void);
/* Describe a wait() status: "exited with status 3", "killed by signal 15". */
void lc_fmt_wait(char *buf, size_t size, int wstatus);
/* The exit status a wrapper passes on: the code, or 128 + signal. */
int lc_wait_exit(int wstatus);

/* Snooze, progress and results (leasectl_progress.c).  "task show" adds the
 * progress of a live task's current claim; "task result ID". */
void lc_print_progress(lq_db *db, int64_t id);
void lc_json_progress(struct lc_json *j, lq_db *db, int64_t id);
/* key: p as a JSON string when it is UTF-8, else key_base64: base64. */
void lc_json_kbytes(struct lc_json *j, const char *key, const unsigned char *p, size_t n);
extern const struct lc_usage lc_task_result_usage;
int cmd_task_result(struct lc_ctx *ctx, int argc, char **argv);
/* A handler's control channel (fd 3, LEASEQ_CONTROL_FD): lines read as they
 * come (fd non-blocking), applied to job through db; final: the handler
 * ended, read what is left. */
#define LC_CONTROL_FD 3
#define LC_RESULT_FD 4
#define LC_CONTROL_LINE_MAX 512
struct lc_control {
	int fd; /* read end; -1 when done or unused */
	lq_db *db;
	char buf[LC_CONTROL_LINE_MAX];
	size_t len;
	int skipping;        /* inside a line over the limit: drop it to its newline */
	int progress_failed; /* said once */
	int64_t snoozed;     /* > 0: asked to snooze that long */
};
void lc_control_pump(struct lc_control *c, lq_job *job, int final);
/* Its result (fd 4, LEASEQ_RESULT_FD): data has room for LQ_RESULT_MAX + 1
 * bytes; over: the handler wrote more than LQ_RESULT_MAX. */
struct lc_result {
	int fd;
	unsigned char *data;
	size_t len;
	int over;
};
void lc_result_pump(struct lc_result *r, int final);

#endif /* LEASECTL_H */
