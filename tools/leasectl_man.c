/*
 * leasectl_man.c - the manual page leasectl(1) and the command reference of
 * tools/leasectl.md, both made from the --help texts (the option tables):
 * "leasectl help --man" and "leasectl help --markdown".  The build installs
 * the first; tests/check_docs.sh fails when the second differs from the
 * file, so the help, the man page and the reference cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

/* Run fn into a string (NULL when out of memory). */
static char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return buf;
}

/* The man page is formatted for its reader rather than copied: the --help
 * texts are laid out for a terminal's 80 columns, which a man page's indent
 * would overflow.  Prose is filled, tables (options, arguments, exit
 * statuses) become .TP entries, examples stay verbatim (long ones broken
 * with a shell continuation), and the global options, the environment and
 * the exit statuses every command shares are sections of their own, once. */
enum { MAN_TOP = 1, MAN_NO_GLOBAL = 2, MAN_NO_FIRST = 4 };
enum { K_NONE, K_PROSE, K_TABLE, K_USAGE, K_VERBATIM, K_SKIP };
#define MAN_VERBATIM_MAX 72 /* 80 columns less the indent of a section's text */

/* Text escaped for roff: a backslash is an escape, '-' a hyphen. */
static void roff_chars(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

/* One input line of filled text: it must not start a request. */
static void roff_text(FILE *f, const char *s, size_t n)
{
	if (n && (*s == '.' || *s == '\''))
		fputs("\\&", f);
	roff_chars(f, s, n);
	fputc('\n', f);
}

/* "Options:", "Exit status:", "Global options (before or after ...):". */
static int is_heading(const char *s, size_t n)
{
	size_t i;

	if (n < 2 || n > 60 || s[n - 1] != ':' || s[0] < 'A' || s[0] > 'Z')
		return 0;
	for (i = 0; i < n - 1 && s[i] != '('; i++)
		if (!(s[i] == ' ' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return 0;
	return memchr(s, ':', n - 1) == NULL;
}

static int heading_kind(const char *s, size_t n, int flags)
{
	if (!strncmp(s, "Examples:", n))
		return K_VERBATIM;
	if (!strncmp(s, "Synopsis:", n))
		return K_USAGE;
	if (!strncmp(s, "Global options", 14))
		return flags & MAN_NO_GLOBAL ? K_SKIP : K_TABLE;
	if ((flags & MAN_TOP) &&
	    (!strncmp(s, "Commands:", n) || !strncmp(s, "Environment:", n) || !strncmp(s, "Exit status:", n)))
		return K_SKIP;
	return K_TABLE;
}

/* Where a shell comment starts in an example line (outside quotes), or n. */
static size_t comment_at(const char *s, size_t n)
{
	char q = 0;

	for (size_t i = 0; i < n; i++) {
		if (q) {
			if (s[i] == q)
				q = 0;
		} else if (s[i] == '\'' || s[i] == '"') {
			q = s[i];
		} else if (s[i] == '#' && i > 0 && s[i - 1] == ' ') {
			return i;
		}
	}
	return n;
}

/* An example line: a trailing comment too long for the width goes on a line
 * of its own first; a command still too long is broken at a space outside
 * quotes, with " \" and four spaces, as a person would. */
static void verbatim_line(FILE *f, const char *s, size_t n)
{
	size_t c = comment_at(s, n), lead = strspn(s, " ");

	if (n > MAN_VERBATIM_MAX && c < n && c > lead) {
		size_t end = c;
		fprintf(f, "%.*s", (int)lead, s);
		roff_text(f, s + c, n - c);
		while (end > 0 && s[end - 1] == ' ')
			end--;
		n = end;
	}
	while (n > MAN_VERBATIM_MAX) {
		size_t cut = 0, cut_opt = 0;
		char q = 0;
		for (size_t i = lead + 1; i < n && i <= MAN_VERBATIM_MAX - 2; i++) {
			if (q) {
				if (s[i] == q)
					q = 0;
			} else if (s[i] == '\'' || s[i] == '"') {
				q = s[i];
			} else if (s[i] == ' ' && s[i - 1] != ' ') {
				cut = i;
				if (s[i + 1] == '-')
					cut_opt = i;
			}
		}
		if (cut_opt > lead + 24) /* rather before an option than inside one */
			cut = cut_opt;
		if (!cut)
			break;
		if (*s == '.' || *s == '\'')
			fputs("\\&", f);
		roff_chars(f, s, cut);
		fputs(" \\e\n", f);
		s += cut + 1;
		n -= cut + 1;
		fputs("    ", f);
		lead = 0;
	}
	roff_text(f, s, n);
}

static void man_format(FILE *f, const char *text, int flags)
{
	int kind = K_PROSE, out = K_NONE, first = 1, skip_usage = 0;
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p), ind = strspn(p, " ");
		const char *line = p;

		p = e ? e + 1 : p + n;
		if (out == K_VERBATIM && (n == 0 || is_heading(line, n))) {
			fputs(".fi\n", f);
			out = K_NONE;
		}
		if (n == 0) {
			/* a blank line ends a synopsis, a paragraph or a table, not a
			 * section of examples or one left out */
			if (kind == K_USAGE || (kind != K_VERBATIM && kind != K_SKIP) || skip_usage)
				kind = K_PROSE;
			skip_usage = 0;
			out = out == K_VERBATIM ? out : K_NONE;
			first = 0;
			continue;
		}
		if (is_heading(line, n)) {
			kind = heading_kind(line, n, flags);
			if (kind != K_SKIP && !(first && (flags & MAN_NO_FIRST))) {
				fputs(".PP\n.B \"", f);
				fwrite(line, 1, n, f);
				fputs("\"\n", f);
			}
			out = K_NONE;
			first = 0;
			continue;
		}
		first = 0;
		if (kind == K_SKIP)
			continue;
		if (!strncmp(line, "usage: ", 7)) {
			kind = K_USAGE;
			if (flags & MAN_TOP) {
				kind = K_SKIP;
				skip_usage = 1;
				continue;
			}
		}
		if (kind == K_VERBATIM) {
			if (out != K_VERBATIM)
				fputs(".PP\n.nf\n", f);
			out = K_VERBATIM;
			verbatim_line(f, line + (ind >= 2 ? 2 : ind), n - (ind >= 2 ? 2 : ind));
			continue;
		}
		if (kind == K_USAGE) {
			/* a synopsis entry: its continuation lines are indented deeper */
			if (out != K_USAGE)
				fputs(".PP\n", f);
			else if (ind <= 2)
				fputs(".br\n", f);
			out = K_USAGE;
			roff_text(f, line + ind, n - ind);
			continue;
		}
		if (ind == 0) {
			if (out != K_PROSE)
				fputs(".PP\n", f);
			out = K_PROSE;
			roff_text(f, line, n);
			continue;
		}
		if (ind == 2) {
			/* a table entry: LABEL, two spaces or more, its text */
			const char *gap = NULL;
			for (size_t i = ind; i + 1 < n; i++)
				if (line[i] == ' ' && line[i + 1] == ' ') {
					gap = line + i;
					break;
				}
			size_t lab = gap ? (size_t)(gap - line) - ind : n - ind;
			size_t col = gap ? (size_t)(gap - line) + strspn(gap, " ") : 0;
			if (!gap) /* a long label: its text starts on the next line */
				col = strspn(p, " ");
			fprintf(f, ".TP %dn\n", col > ind && col - ind <= 18 ? (int)(col - ind) : 4);
			fputs("\\fB", f);
			roff_chars(f, line + ind, lab);
			fputs("\\fR\n", f);
			if (gap)
				roff_text(f, line + col, n - col);
			out = K_TABLE;
			continue;
		}
		/* deeper: the text of the entry above goes on */
		if (out == K_NONE)
			fputs(".PP\n", f);
		if (out == K_NONE)
			out = K_PROSE;
		roff_text(f, line + ind, n - ind);
	}
	if (out == K_VERBATIM)
		fputs(".fi\n", f);
}

static void emit_help(FILE *f, int markdown, const char *title, const char *text)
{
	if (!text)
		return;
	if (markdown) {
		fprintf(f, "### %s\n\n```\n%s%s```\n\n", title, text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	} else {
		fprintf(f, ".SS \"%s\"\n", title);
		man_format(f, text, MAN_NO_GLOBAL);
	}
}

static void usage_help(FILE *f, const void *u)
{
	lc_print_help(f, u);
}

void lc_doc_write(FILE *f, int markdown, const struct lc_cmd *cmds, const struct lc_doc_parts *parts)
{
	char *text, title[128];

	if (markdown) {
		fputs("<!-- Generated by `leasectl help --markdown` from the --help texts: do not edit;\n"
		      "     tests/check_docs.sh fails when it differs. -->\n\n", f);
	} else {
		fprintf(f, ".\\\" Generated by \"leasectl help --man\" from the --help texts.\n"
			   ".TH LEASECTL 1 \"\" \"leaseq %s\" \"leaseq manual\"\n"
			   ".SH NAME\nleasectl \\- administer leaseq leases and task queues\n"
			   ".SH SYNOPSIS\n.B leasectl\n[\\-\\-db DSN] [\\-\\-json] COMMAND [ARGS]\n"
			   ".SH DESCRIPTION\n",
			LEASEQ_VERSION_STRING);
		fputs(".nh\n.ad l\n", f);
		text = capture(parts->main_help, NULL);
		if (text)
			man_format(f, text, MAN_TOP | MAN_NO_GLOBAL);
		free(text);
		fputs(".PP\n.B \"Commands:\"\n", f);
		for (const struct lc_cmd *c = cmds; c->name; c++) {
			fputs(".TP 11n\n\\fB", f);
			roff_chars(f, c->name, strlen(c->name));
			fputs("\\fR\n", f);
			roff_text(f, c->summary, strlen(c->summary));
		}
		fputs(".SH GLOBAL OPTIONS\n", f);
		man_format(f, parts->global_help, MAN_NO_FIRST);
		fputs(".SH COMMANDS\n", f);
	}
	for (const struct lc_cmd *c = cmds; c->name; c++) {
		if (c->usage) {
			snprintf(title, sizeof(title), "%s %s", LC_PROG, c->usage->path);
			text = capture(usage_help, c->usage);
			emit_help(f, markdown, title, text);
			free(text);
			continue;
		}
		snprintf(title, sizeof(title), "%s %s", LC_PROG, c->name);
		text = capture(parts->group_help, c);
		emit_help(f, markdown, title, text);
		free(text);
		for (const struct lc_cmd *s = c->subs; s && s->name; s++) {
			snprintf(title, sizeof(title), "%s %s", LC_PROG, s->usage->path);
			text = capture(usage_help, s->usage);
			emit_help(f, markdown, title, text);
			free(text);
		}
	}
	if (!markdown) {
		fputs(".SH ENVIRONMENT\n", f);
		man_format(f, parts->env_help, MAN_NO_FIRST);
		fputs(".SH EXIT STATUS\n", f);
		man_format(f, parts->exit_help, MAN_NO_FIRST);
		fputs(".SH SEE ALSO\n.BR leaseq (3),\n.BR psql (1),\n.BR sqlite3 (1),\n.BR flock (1)\n"
		      ".PP\nThe README, docs/ and leasectl.md in /usr/share/doc/leaseq.\n",
		      f);
	}
}
