/*
 * leasectl.c - the admin CLI: the command table, the option parser that
 * every command's option table drives, and --help.
 *
 * Each command lives in tools/leasectl_<name>.c as cmd_<name>(); its option
 * table (struct lc_opt[]) is the single source of its parsing, synopsis and
 * help.  "leasectl help CMD" is "leasectl CMD --help".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "leasectl.h"

static int cmd_version(struct lc_ctx *ctx, int argc, char **argv);
static int cmd_help(struct lc_ctx *ctx, int argc, char **argv);

struct version_args {
	int unused;
};
static const struct lc_opt version_opts[] = {
	LC_OPT_TABLE_END,
};
static const struct lc_usage version_usage = {
	.path = "version",
	.summary = "print the versions of leasectl and the library",
	.description = "Prints the leasectl and libleaseq versions and the optional parts this\n"
		       "build has (\"built with: sqlite, postgres, mysql, serve\"; a part whose\n"
		       "library was missing at build time is under \"built without:\"); with\n"
		       "--json, an object {\"leasectl\": ..., \"library\": ..., \"parts\":\n"
		       "{\"sqlite\": true, ...}}.  Does not open the database.",
	.opts = version_opts,
	.examples = "leasectl version",
	.exits = "0  always",
};

struct help_args {
	struct lc_rest topic;
	int man, markdown;
};
static const struct lc_opt help_opts[] = {
	LC_FLAG(struct help_args, man, "man", 0, "print the manual page leasectl(1) (roff) of every command"),
	LC_FLAG(struct help_args, markdown, "markdown", 0,
		"print every command's help as markdown (the reference in leasectl.md)"),
	LC_REST(struct help_args, topic, "COMMAND", 0, "the command (and subcommand) to explain"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage help_usage = {
	.path = "help",
	.summary = "explain a command (same as COMMAND --help)",
	.description = "Without COMMAND, lists the commands.  \"leasectl help lease acquire\"\n"
		       "prints the same text as \"leasectl lease acquire --help\".",
	.opts = help_opts,
	.examples = "leasectl help exec\nleasectl help task add\nleasectl help --man | man -l -",
	.exits = "0   help printed\n64  unknown command",
};

/* The command table: {name, fn, summary} plus what help needs. */
static const struct lc_cmd commands[] = {
	{"migrate", cmd_migrate, "create or upgrade the schema, or show its version", &lc_migrate_usage, NULL},
	{"lease", cmd_lease, "list, show, acquire, renew, release or break leases", NULL, lc_lease_cmds},
	{"exec", cmd_exec, "run a command while holding a lease (once across a fleet)", &lc_exec_usage, NULL},
	{"task", cmd_task, "add, list, show, remove, retry, pause or resume tasks; run history", NULL,
	 lc_task_cmds},
	{"queue", cmd_queue, "list, pause or resume queues", NULL, lc_queue_cmds},
	{"limit", cmd_limit, "concurrency caps and rate limits per key or queue", NULL, lc_limit_cmds},
	{"worker", cmd_worker, "run due tasks with handler commands until stopped", &lc_worker_usage, NULL},
	{"tick", cmd_tick, "one pseudo-cron tick: run what is due, then return", &lc_tick_usage, NULL},
	{"doctor", cmd_doctor, "check the database and say what to fix", &lc_doctor_usage, NULL},
	{"serve", cmd_serve, "HTTP: Prometheus /metrics, /healthz and a read-only dashboard", &lc_serve_usage, NULL},
	{"prune", cmd_prune, "remove dead tasks and run history older than an age", &lc_prune_usage, NULL},
	{"stats", cmd_stats, "lease and queue counts (text, JSON, Prometheus)", &lc_stats_usage, NULL},
	{"bench", cmd_bench, "measure leaseq against the same jobs in raw SQL", &lc_bench_usage, NULL},
	{"version", cmd_version, "print versions", &version_usage, NULL},
	{"help", cmd_help, "explain a command", &help_usage, NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static const char global_help[] =
	"Global options (before or after the command name):\n"
	"  --db DSN      the database: sqlite:PATH, postgresql://..., mysql://...,\n"
	"                mariadb://... (default: $LEASEQ_DSN, else sqlite:leaseq.db)\n"
	"                (worker, tick, task list, queue list, lease list, stats\n"
	"                take several)\n"
	"  --json        print one JSON document instead of text\n"
	"  -h, --help    explain the command\n";

static const char exit_help[] =
	"Exit status:\n"
	"  0   success\n"
	"  3   lease lost (it expired and was taken, or was broken)\n"
	"  64  bad usage or invalid input (nothing was changed)\n"
	"  65  the SQLite path is a directory or a file that is not a database\n"
	"  66  no such SQLite database file (read commands never create one), or\n"
	"      an input file (--from, --payload-file) is missing or unreadable\n"
	"  69  database server unreachable\n"
	"  73  the SQLite database file cannot be created\n"
	"  75  held elsewhere / another runner is active\n"
	"  77  permission denied on the SQLite database file or its directory\n"
	"  1   any other failure (e.g. schema missing: run 'leasectl migrate')\n";

static const char env_help[] =
	"Environment:\n"
	"  LEASEQ_DSN    the database when --db is not given\n"
	"  PATH          exec: where a COMMAND without a slash is found; bench --plot:\n"
	"                where gnuplot is found\n"
	"  GATEWAY_INTERFACE\n"
	"                tick: set by a web server, it makes tick answer as a CGI\n"
	"                program (not with --spawn or --no-cgi)\n"
	"  XDG_RUNTIME_DIR, TMPDIR\n"
	"                tick: the directory of a detached tick's host-local lock\n"
	"                file (the first one set, else /tmp)\n"
	"  TZDIR         the time zone database for --tz (default /usr/share/zoneinfo)\n"
	"  PGCONNECT_TIMEOUT\n"
	"                PostgreSQL: the connect timeout when the DSN sets none (else\n"
	"                10 s)\n";

/* ------------------------------------------------------------ help */

static int is_positional(const struct lc_opt *o)
{
	return o->type == LC_OPT_ARG || o->type == LC_OPT_REST;
}

/* Synopsis words are wrapped at 79 columns, continuation lines indented. */
struct wrap {
	FILE *f;
	int col, indent;
};

static void wrap_word(struct wrap *w, const char *word)
{
	int len = (int)strlen(word);

	if (w->col + 1 + len > 79 && w->col > w->indent) {
		fprintf(w->f, "\n%*s", w->indent, "");
		w->col = w->indent;
	} else {
		fputc(' ', w->f);
		w->col++;
	}
	fputs(word, w->f);
	w->col += len;
}

static void synopsis(FILE *f, const struct lc_usage *u, int col)
{
	struct wrap w = {f, col, col + 2};
	const struct lc_opt *o;
	char word[128];

	fprintf(f, "%s %s", LC_PROG, u->path);
	w.col += (int)strlen(LC_PROG) + 1 + (int)strlen(u->path);
	w.indent = w.col < 40 ? w.col + 1 : col + 4;
	for (o = u->opts; o->type != LC_OPT_END; o++) {
		const char *dash = o->name[1] ? "--" : "-";
		switch (o->type) {
		case LC_OPT_FLAG:
			snprintf(word, sizeof(word), "[%s%s]", dash, o->name);
			break;
		case LC_OPT_VALUE:
			snprintf(word, sizeof(word), (o->flags & LC_REQUIRED) ? "%s%s %s" : "[%s%s %s]", dash, o->name,
				 o->value_name);
			break;
		case LC_OPT_LIST:
			snprintf(word, sizeof(word), "[%s%s %s]...", dash, o->name, o->value_name);
			break;
		case LC_OPT_ARG:
			snprintf(word, sizeof(word), (o->flags & LC_OPTIONAL) ? "[%s]" : "%s", o->name);
			break;
		case LC_OPT_REST:
			snprintf(word, sizeof(word), (o->flags & LC_REQUIRED) ? "-- %s" : "[%s...]", o->name);
			break;
		default:
			word[0] = '\0';
			break;
		}
		wrap_word(&w, word);
	}
	fputc('\n', f);
}

void lc_print_synopsis(FILE *f, const struct lc_usage *u)
{
	synopsis(f, u, 0);
}

/* Print help text flowed into the columns from indent to 79 (its own
 * newlines are spaces: the text is one paragraph). */
static void print_flowed(FILE *f, const char *text, int indent)
{
	int col = indent;

	while (*text) {
		size_t len;
		while (*text == ' ' || *text == '\n')
			text++;
		len = strcspn(text, " \n");
		if (*text == '"' && strchr(text + 1, '"')) /* keep "0 3 * * *" whole */
			len = (size_t)(strchr(text + 1, '"') - text) + 1 + strcspn(strchr(text + 1, '"') + 1, " \n");
		if (!len)
			break;
		if (col > indent && col + 1 + (int)len > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		/* A quoted phrase kept whole may span the source's lines. */
		for (size_t k = 0; k < len; k++)
			fputc(text[k] == '\n' ? ' ' : text[k], f);
		col += (int)len;
		text += len;
	}
	fputc('\n', f);
}

static void print_block(FILE *f, const char *title, const char *text)
{
	const char *p = text;

	fprintf(f, "\n%s:\n  ", title);
	for (; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fputs("  ", f);
	}
	fputc('\n', f);
}

static void opt_label(const struct lc_opt *o, char *buf, size_t size)
{
	const char *dash = o->name[1] ? "--" : "-";

	if (is_positional(o))
		snprintf(buf, size, "%s", o->name);
	else if (o->alias && o->name[1])
		snprintf(buf, size, "-%c, --%s%s%s", o->alias, o->name, o->value_name ? " " : "",
			 o->value_name ? o->value_name : "");
	else
		snprintf(buf, size, "%s%s%s%s", dash, o->name, o->value_name ? " " : "",
			 o->value_name ? o->value_name : "");
}

void lc_print_help(FILE *f, const struct lc_usage *u)
{
	const struct lc_opt *o;
	char label[64];
	int width = 12, npos = 0, nopt = 0;

	fputs("usage: ", f);
	synopsis(f, u, 7);
	if (u->description)
		fprintf(f, "\n%s\n", u->description);
	for (o = u->opts; o->type != LC_OPT_END; o++) {
		int len;
		opt_label(o, label, sizeof(label));
		len = (int)strlen(label);
		if (len > width && len <= 26)
			width = len;
		if (is_positional(o))
			npos++;
		else
			nopt++;
	}
	for (int pass = 0; pass < 2; pass++) {
		if ((pass == 0 && !npos) || (pass == 1 && !nopt))
			continue;
		fprintf(f, "\n%s:\n", pass == 0 ? "Arguments" : "Options");
		for (o = u->opts; o->type != LC_OPT_END; o++) {
			if (is_positional(o) != (pass == 0))
				continue;
			opt_label(o, label, sizeof(label));
			if ((int)strlen(label) > width)
				fprintf(f, "  %s\n  %*s  ", label, width, "");
			else
				fprintf(f, "  %-*s  ", width, label);
			print_flowed(f, o->help ? o->help : "", width + 4);
		}
	}
	fputc('\n', f);
	fputs(global_help, f);
	if (u->examples)
		print_block(f, "Examples", u->examples);
	if (u->exits)
		print_block(f, "Exit status", u->exits);
}

/* Help for a command with subcommands. */
static void print_group_help(FILE *f, const char *group, const char *summary, const struct lc_cmd *subs)
{
	const struct lc_cmd *c;

	fprintf(f, "usage: %s %s SUBCOMMAND [OPTIONS] [ARGS]\n\n%s.\n\nSubcommands:\n", LC_PROG, group, summary);
	for (c = subs; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fputs("\nSynopsis:\n", f);
	for (c = subs; c->name; c++) {
		fputs("  ", f);
		synopsis(f, c->usage, 2);
	}
	fputc('\n', f);
	fputs(global_help, f);
	fprintf(f, "\nSee '%s %s SUBCOMMAND --help' for the options and examples of each.\n", LC_PROG, group);
}

static void print_main_help(FILE *f)
{
	const struct lc_cmd *c, *s;

	fprintf(f, "usage: %s [--db DSN] [--json] COMMAND [ARGS]\n\n"
		   "leasectl administers leaseq: leases (named, renewable, fenced mutexes) and a\n"
		   "task queue kept inside SQLite, PostgreSQL or MySQL/MariaDB.\n\nCommands:\n", LC_PROG);
	for (c = commands; c->name; c++) {
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
		for (s = c->subs; s && s->name; s++) {
			fputs("      ", f);
			synopsis(f, s->usage, 6);
		}
	}
	fputc('\n', f);
	fputs(global_help, f);
	fputc('\n', f);
	fputs(env_help, f);
	fputc('\n', f);
	fputs(exit_help, f);
	fprintf(f, "\nSee '%s help COMMAND' for more about a command.\n", LC_PROG);
}

/* ------------------------------------------------------------ parsing */

/* --db / --json / --help, accepted by every parser: G_YES when argv[*i]
 * was one (its value consumed), G_NO when not, G_HELP, or G_ERR after
 * printing the error. */
enum { G_NO = 0, G_YES = 1, G_HELP = -1, G_ERR = -2 };

/* --db again adds a database (the same one twice is one). */
static int add_db(struct lc_ctx *ctx, const char *dsn)
{
	for (size_t k = 0; k < ctx->ndsn; k++)
		if (!strcmp(ctx->dsns[k], dsn))
			return G_YES;
	if (ctx->ndsn >= LC_MAX_DBS) {
		lc_usage_error(ctx, "--db: at most %d databases", LC_MAX_DBS);
		return G_ERR;
	}
	ctx->dsns[ctx->ndsn++] = dsn;
	ctx->dsn = ctx->dsns[0];
	return G_YES;
}
static int parse_global(struct lc_ctx *ctx, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return G_HELP;
	if (!strcmp(a, "--json")) {
		ctx->json = 1;
		return G_YES;
	}
	if (!strncmp(a, "--db=", 5))
		return add_db(ctx, a + 5);
	if (!strcmp(a, "--db")) {
		if (*i + 1 >= argc) {
			lc_usage_error(ctx, "option --db needs a value (DSN)");
			return G_ERR;
		}
		return add_db(ctx, argv[++*i]);
	}
	return G_NO;
}

static const struct lc_opt *find_long(const struct lc_opt *opts, const char *name, size_t len)
{
	for (const struct lc_opt *o = opts; o->type != LC_OPT_END; o++)
		if (!is_positional(o) && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct lc_opt *find_short(const struct lc_opt *opts, char c)
{
	for (const struct lc_opt *o = opts; o->type != LC_OPT_END; o++)
		if (!is_positional(o) && (o->alias == c || (!o->name[1] && o->name[0] == c)))
			return o;
	return NULL;
}

static int store(struct lc_ctx *ctx, const struct lc_opt *o, void *args, const char *value)
{
	char *base = args;

	switch (o->type) {
	case LC_OPT_FLAG:
		*(int *)(base + o->offset) = 1;
		break;
	case LC_OPT_VALUE:
	case LC_OPT_ARG:
		*(const char **)(base + o->offset) = value;
		break;
	case LC_OPT_LIST: {
		struct lc_list *l = (struct lc_list *)(base + o->offset);
		const char **v = realloc(l->v, (l->n + 1) * sizeof(*v));
		if (!v) {
			lc_errorf("out of memory");
			return LC_EXIT_FAIL;
		}
		v[l->n++] = value;
		l->v = v;
		break;
	}
	default:
		break;
	}
	return 0;
}

/* A parse error: one line that also says where the usage is. */
static int parse_error(struct lc_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int parse_error(struct lc_ctx *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lc_usage_error(ctx, "%s; see '%s %s --help'", msg, LC_PROG, ctx->cmd);
}

int lc_parse(struct lc_ctx *ctx, const struct lc_usage *u, void *args, int argc, char **argv)
{
	const struct lc_opt *o, *rest = NULL;
	const struct lc_opt *pos[8];
	size_t npos = 0, next = 0;
	int only_args = 0, i, rc;
	unsigned char seen[64] = {0}; /* single-value options given, by table row */

	ctx->cmd = u->path;
	for (o = u->opts; o->type != LC_OPT_END; o++) {
		if (o->type == LC_OPT_ARG && npos < 8)
			pos[npos++] = o;
		else if (o->type == LC_OPT_REST)
			rest = o;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!only_args && !strcmp(a, "--")) {
			if (rest) {
				i++;
				break;
			}
			only_args = 1; /* e.g. a name that starts with '-' */
			continue;
		}
		if (!only_args && a[0] == '-' && a[1]) {
			const char *value = NULL, *eq;
			size_t len;
			rc = parse_global(ctx, argc, argv, &i);
			if (rc == G_HELP) {
				lc_print_help(stdout, u);
				return LC_PARSE_HELP;
			}
			if (rc == G_ERR)
				return LC_EXIT_USAGE;
			if (rc == G_YES)
				continue;
			if (a[1] == '-') {
				eq = strchr(a + 2, '=');
				len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
				o = find_long(u->opts, a + 2, len);
				if (eq)
					value = eq + 1;
			} else {
				o = find_short(u->opts, a[1]);
				if (a[2])
					value = a + 2;
			}
			if (!o)
				return parse_error(ctx, "unknown option %s", a);
			if (o->type == LC_OPT_FLAG) {
				if (value)
					return parse_error(ctx, "option %s takes no value", a);
			} else if (!value) {
				if (i + 1 >= argc)
					return parse_error(ctx, "option %s needs a value (%s)", a, o->value_name);
				value = argv[++i];
			}
			/* The last of two values silently winning hides a typo
			 * or a wrapper's default meeting the user's flag. */
			if (o->type == LC_OPT_VALUE && (size_t)(o - u->opts) < sizeof(seen)) {
				if (seen[o - u->opts]++)
					return lc_usage_error(ctx, "%s%s given twice", o->name[1] ? "--" : "-", o->name);
			}
			if ((rc = store(ctx, o, args, value)))
				return rc;
			continue;
		}
		if (next < npos) {
			store(ctx, pos[next++], args, a);
			continue;
		}
		if (rest)
			break; /* the command starts at its first word, like env(1) */
		return parse_error(ctx, "unexpected argument \"%s\"", a);
	}
	if (ctx->ndsn > 1 && !lc_multi_db_ok(u->path))
		return parse_error(ctx, "takes one --db (several are for worker, tick, task list, queue list, lease list and stats)");
	if (rest) {
		struct lc_rest *r = (struct lc_rest *)((char *)args + rest->offset);
		r->argv = argv + i;
		r->argc = argc - i;
	}
	for (size_t k = next; k < npos; k++)
		if (!(pos[k]->flags & LC_OPTIONAL))
			return parse_error(ctx, "missing argument %s", pos[k]->name);
	if (rest && (rest->flags & LC_REQUIRED) && i >= argc)
		return parse_error(ctx, "missing %s", rest->name);
	for (o = u->opts; o->type != LC_OPT_END; o++) {
		if (o->type == LC_OPT_VALUE && (o->flags & LC_REQUIRED) &&
		    !*(const char **)((char *)args + o->offset))
			return parse_error(ctx, "option --%s %s is required", o->name, o->value_name);
	}
	return LC_PARSE_OK;
}

int lc_dispatch(struct lc_ctx *ctx, const char *group, const struct lc_cmd *subs,
		const char *summary, int argc, char **argv)
{
	int i, rc;

	ctx->cmd = group;
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1])
			break;
		rc = parse_global(ctx, argc, argv, &i);
		if (rc == G_HELP) {
			print_group_help(stdout, group, summary, subs);
			return LC_EXIT_OK;
		}
		if (rc == G_ERR)
			return LC_EXIT_USAGE;
		if (rc == G_NO)
			return lc_usage_error(ctx, "unknown option %s (a subcommand comes first; see '%s %s --help')",
					      argv[i], LC_PROG, group);
	}
	if (i >= argc)
		return lc_usage_error(ctx, "missing subcommand; see '%s %s --help'", LC_PROG, group);
	for (const struct lc_cmd *c = subs; c->name; c++)
		if (!strcmp(c->name, argv[i]))
			return c->fn(ctx, argc - i, argv + i);
	return lc_usage_error(ctx, "unknown subcommand \"%s\"; see '%s %s --help'", argv[i], LC_PROG, group);
}

/* ------------------------------------------------------------ built-ins */

static int cmd_version(struct lc_ctx *ctx, int argc, char **argv)
{
	struct version_args a = {0};
	int rc = lc_parse(ctx, &version_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	/* The optional parts: the backends the library was built with, and
	 * serve, which is the tool's own (libmicrohttpd). */
	static const char *const parts[] = {"sqlite", "postgres", "mysql", "serve"};
	int built[sizeof(parts) / sizeof(parts[0])];
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		built[i] = strcmp(parts[i], "serve") ? lq_backend_built(parts[i]) : lc_serve_built();
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "leasectl", LEASEQ_VERSION_STRING);
		lc_json_kstr(&j, "library", lq_version());
		lc_json_key(&j, "parts");
		lc_json_obj(&j);
		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
			lc_json_kbool(&j, parts[i], built[i]);
		lc_json_end_obj(&j);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		printf("leasectl %s (libleaseq %s)\n", LEASEQ_VERSION_STRING, lq_version());
		for (int want = 1; want >= 0; want--) {
			const char *sep = want ? "built with: " : "built without: ";
			int any = 0;
			for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
				if (built[i] != want)
					continue;
				printf("%s%s", sep, parts[i]);
				sep = ", ";
				any = 1;
			}
			if (any)
				putchar('\n');
		}
	}
	return LC_EXIT_OK;
}

static void main_help_doc(FILE *f, const void *unused)
{
	(void)unused;
	print_main_help(f);
}

static void group_help_doc(FILE *f, const void *cmd)
{
	const struct lc_cmd *c = cmd;
	print_group_help(f, c->name, c->summary, c->subs);
}

static int cmd_help(struct lc_ctx *ctx, int argc, char **argv)
{
	struct help_args a = {0};
	int rc = lc_parse(ctx, &help_usage, &a, argc, argv);
	char **sub;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if (a.man || a.markdown) {
		static const struct lc_doc_parts parts = {main_help_doc, group_help_doc, env_help, exit_help, global_help};
		if (a.man && a.markdown)
			return lc_usage_error(ctx, "--man and --markdown exclude each other");
		lc_doc_write(stdout, a.markdown, commands, &parts);
		return LC_EXIT_OK;
	}
	if (a.topic.argc == 0) {
		print_main_help(stdout);
		return LC_EXIT_OK;
	}
	for (const struct lc_cmd *c = commands; c->name; c++) {
		if (strcmp(c->name, a.topic.argv[0]))
			continue;
		/* "help X Y" runs "X Y --help": the same text by construction. */
		sub = calloc((size_t)a.topic.argc + 2, sizeof(*sub));
		if (!sub) {
			lc_errorf("out of memory");
			return LC_EXIT_FAIL;
		}
		for (int k = 0; k < a.topic.argc; k++)
			sub[k] = a.topic.argv[k];
		sub[a.topic.argc] = (char *)"--help";
		rc = c->fn(ctx, a.topic.argc + 1, sub);
		free(sub);
		return rc;
	}
	return lc_usage_error(ctx, "unknown command \"%s\"; see '%s help'", a.topic.argv[0], LC_PROG);
}

static int run(struct lc_ctx *ctx, int argc, char **argv)
{
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1])
			break;
		if (!strcmp(argv[i], "--version"))
			return cmd_version(ctx, 1, (char *[]){(char *)"version", NULL});
		rc = parse_global(ctx, argc, argv, &i);
		if (rc == G_HELP) {
			print_main_help(stdout);
			return LC_EXIT_OK;
		}
		if (rc == G_ERR)
			return LC_EXIT_USAGE;
		if (rc == G_NO) {
			lc_errorf("unknown option %s; see '%s --help'", argv[i], LC_PROG);
			return LC_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		lc_errorf("missing command; see '%s --help'", LC_PROG);
		return LC_EXIT_USAGE;
	}
	for (const struct lc_cmd *c = commands; c->name; c++)
		if (!strcmp(c->name, argv[i]))
			return c->fn(ctx, argc - i, argv + i);
	lc_errorf("unknown command \"%s\"; see '%s --help'", argv[i], LC_PROG);
	return LC_EXIT_USAGE;
}

/*
 * Keep 1 MiB free at the top of glibc's heap.  Each SQLite statement with a
 * temporary b-tree (RETURNING, a VALUES list in order) allocates its page
 * cache, about 90 KiB, and frees it at the end; where that crossed the
 * default 128 KiB pad, every such statement moved the heap's end up and
 * back and touched its pages anew (a SQLite lease acquire + release: about
 * 20 page faults and twice the time, `leasectl bench -w lease`).  Worker,
 * tick and serve are long-lived; the memory kept is at most the pad.
 */
static void lc_tune_malloc(void)
{
#if defined(__GLIBC__)
	(void)mallopt(M_TOP_PAD, 1 << 20);
#endif
}

int main(int argc, char **argv)
{
	struct lc_ctx ctx = {0};
	int rc;

	lc_tune_malloc();
	lc_snapshot_fds(&ctx); /* first: before anything opens a file */
	rc = lc_finish(run(&ctx, argc, argv));
	free(ctx.inherited);
	return rc;
}
