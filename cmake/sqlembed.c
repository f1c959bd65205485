/*
 * sqlembed - build-time tool: turns sql/<dialect>/NAME.sql and
 * migrations/<dialect>/NNNN_name.sql into C source, so the library reads no
 * SQL file at run time.
 *
 *   sqlembed stmts OUT.c SYMBOL FILE...
 *       Each FILE holds blocks that start with a line "-- name: NAME"; the
 *       block runs to the next such line.  Comment lines ("--") and a final
 *       ';' are dropped.  Emits
 *       const char *const SYMBOL[LQ_SQL__COUNT] = {[LQ_SQL_NAME] = "...", ...};
 *       Every statement sql_names.h names must be defined, or declared
 *       missing in this dialect by a line "-- absent: NAME reason" (a
 *       capability the dialect lacks, say); an unknown NAME, or one both
 *       defined and declared absent, fails with the file and line.  A block that starts with
 *       "-- fragment: NAME" instead is no statement: its text (comment and
 *       blank lines dropped, trimmed) replaces every {{NAME}} in the
 *       statements and fragments of the same run, so an expression written
 *       the same way everywhere (the clock, a claim guard) is written once
 *       per dialect (sql/<dialect>/fragments.sql), or once for all of them
 *       (sql/shared/fragments.sql, given with every dialect's files).  An unknown {{NAME}}, a
 *       fragment or statement defined twice, or a fragment using itself
 *       fails with the file and line.  Each statement's result columns,
 *       counted in its text (see result_cols), must be the catalogue's
 *       X(NAME, COLS), or what a line "-- columns: NAME N reason" of the
 *       dialect says instead (N a count, or "unchecked": text this tool
 *       cannot count); docs/testing.md lists what this does not see.
 *   sqlembed named OUT.c SYMBOL FILE...
 *       The same blocks, for code outside the library (leasectl bench's raw
 *       baselines): emits const char *const SYMBOL[][2] =
 *       {{"NAME", "..."}, ..., {NULL, NULL}}; looked up by name.
 *   sqlembed migrations OUT.c SYMBOL FILE...
 *       Each FILE is one migration, version from its NNNN_ prefix, in the
 *       order given (which must be ascending).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/sql_names.h"

/* The catalogue's names and result columns, to check each dialect
 * against. */
static const char *const catalogue[] = {
#define LQ__SQL_STR(name, cols) #name,
	LQ_SQL_LIST(LQ__SQL_STR)
#undef LQ__SQL_STR
};
static const int catalogue_cols[] = {
#define LQ__SQL_COLS(name, cols) (cols),
	LQ_SQL_LIST(LQ__SQL_COLS)
#undef LQ__SQL_COLS
};

/* The file being written: removed if sqlembed fails, so a failed run leaves
 * nothing the build could take for up to date. */
static const char *out_path;
static int out_done;

static void remove_partial(void)
{
	if (out_path && !out_done)
		remove(out_path);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "sqlembed: out of memory\n");
		exit(1);
	}
	buf[len] = '\0';
	return buf;
}

/* Write text as a C string literal, one source line per SQL line. */
static void emit_literal(FILE *out, const char *text, size_t len)
{
	fputs("\"", out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\n') {
			fputs("\\n\"\n\t\"", out);
		} else if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 32 || c > 126) {
			fprintf(out, "\\%03o", c);
		} else {
			fputc(c, out);
		}
	}
	fputs("\"", out);
}

/* Drop comment lines, blank lines and the final ';' of a statement. */
static size_t clean_stmt(const char *in, size_t len, char *out)
{
	size_t o = 0, i = 0;
	while (i < len) {
		size_t e = i;
		while (e < len && in[e] != '\n')
			e++;
		size_t s = i;
		while (s < e && (in[s] == ' ' || in[s] == '\t'))
			s++;
		int skip = (s == e) || (e - s >= 2 && in[s] == '-' && in[s + 1] == '-');
		if (!skip) {
			memcpy(out + o, in + i, e - i);
			o += e - i;
			out[o++] = '\n';
		}
		i = e + 1;
	}
	while (o > 0 && isspace((unsigned char)out[o - 1]))
		o--;
	if (o > 0 && out[o - 1] == ';')
		o--;
	out[o] = '\0';
	return o;
}

/* One "-- name:" or "-- fragment:" block of a file. */
struct block {
	const char *file;
	int line;      /* of the marker */
	int fragment;  /* 1: "-- fragment: NAME", 0: "-- name: NAME" */
	char name[64];
	const char *body; /* the lines after the marker, up to the next marker */
	size_t len;
	int busy;         /* fragment being expanded: a cycle if met again */
};

static struct block *blocks;
static int nblocks, capblocks;

/* "-- absent: NAME reason" lines. */
struct absent {
	const char *file;
	int line;
	char name[64];
};
static struct absent absents[LQ_SQL__COUNT];
static int nabsents;

/* "-- columns: NAME N|unchecked reason" lines: this dialect's statement
 * returns N columns, not the catalogue's, or is not counted. */
struct columns {
	const char *file;
	int line;
	char name[64];
	int cols; /* -1: unchecked */
	int used;
};
static struct columns columns[LQ_SQL__COUNT];
static int ncolumns;

/* "-- name: NAME" or "-- fragment: NAME" at p (a line start): 1 or 0 as
 * fragment, -1 if neither; the name into name. */
static int marker(const char *p, const char *file, int line, char *name)
{
	static const char *const kinds[2] = {"-- name:", "-- fragment:"};
	for (int k = 0; k < 2; k++) {
		size_t kl = strlen(kinds[k]);
		if (strncmp(p, kinds[k], kl) != 0)
			continue;
		p += kl;
		while (*p == ' ')
			p++;
		size_t n = 0;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n == 0 || n >= 64) {
			fprintf(stderr, "%s:%d: %s needs a name (letters, digits, _)\n", file, line, kinds[k]);
			exit(1);
		}
		memcpy(name, p, n);
		name[n] = '\0';
		return k;
	}
	return -1;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* The length of the name (letters, digits, _) at p. */
static size_t name_len(const char *p)
{
	size_t n = 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

/* "-- columns: NAME N|unchecked reason" after the colon, at a. */
static void read_columns(const char *a, const char *file, int line)
{
	a = skip_spaces(a);
	size_t n = name_len(a);
	const char *v = skip_spaces(a + n);
	char *end = NULL;
	long cols = strtol(v, &end, 10);
	if (strncmp(v, "unchecked", 9) == 0) {
		cols = -1;
		end = (char *)v + 9;
	} else if (end == v || cols < 0 || cols > 1000) {
		end = NULL;
	}
	const char *why = end ? skip_spaces(end) : NULL;
	if (n == 0 || n >= 64 || !end || (*end != ' ' && *end != '\t') || *why == '\n' || *why == '\0') {
		fprintf(stderr, "%s:%d: write \"-- columns: NAME N reason\" (N a count, or unchecked)\n", file, line);
		exit(1);
	}
	if (ncolumns == LQ_SQL__COUNT) {
		fprintf(stderr, "%s:%d: more column declarations than the catalogue has statements\n", file, line);
		exit(1);
	}
	struct columns *c = &columns[ncolumns++];
	*c = (struct columns){.file = file, .line = line, .cols = (int)cols};
	memcpy(c->name, a, n);
	c->name[n] = '\0';
}

/* Split a file's text (kept alive) into blocks; text before the first
 * marker is a header and dropped. */
static void read_blocks(const char *file)
{
	char *text = slurp(file);
	struct block *cur = NULL;
	int line = 1;
	for (char *p = text; *p; line++) {
		char name[64];
		int k = marker(p, file, line, name);
		char *eol = strchr(p, '\n');
		char *next = eol ? eol + 1 : p + strlen(p);
		if (strncmp(p, "-- absent:", 10) == 0) {
			const char *a = skip_spaces(p + 10);
			size_t n = name_len(a);
			const char *why = skip_spaces(a + n);
			if (n == 0 || n >= 64 || *why == '\n' || *why == '\0') {
				fprintf(stderr, "%s:%d: write \"-- absent: NAME reason\"\n", file, line);
				exit(1);
			}
			if (nabsents == LQ_SQL__COUNT) {
				fprintf(stderr, "%s:%d: more absent statements than the catalogue has\n", file, line);
				exit(1);
			}
			struct absent *ab = &absents[nabsents++];
			ab->file = file;
			ab->line = line;
			memcpy(ab->name, a, n);
			ab->name[n] = '\0';
		}
		if (strncmp(p, "-- columns:", 11) == 0)
			read_columns(p + 11, file, line);
		if (k >= 0) {
			if (cur)
				cur->len = (size_t)(p - cur->body);
			if (nblocks == capblocks) {
				capblocks = capblocks ? 2 * capblocks : 256;
				blocks = realloc(blocks, capblocks * sizeof *blocks);
				if (!blocks) {
					fprintf(stderr, "sqlembed: out of memory\n");
					exit(1);
				}
			}
			cur = &blocks[nblocks++];
			*cur = (struct block){.file = file, .line = line, .fragment = k, .body = next};
			strcpy(cur->name, name);
		}
		p = next;
	}
	if (cur)
		cur->len = strlen(cur->body);
	else
		free(text); /* no block points into it (only absent statements) */
}

static struct block *find_fragment(const char *name, size_t n)
{
	for (int i = 0; i < nblocks; i++)
		if (blocks[i].fragment && strlen(blocks[i].name) == n && strncmp(blocks[i].name, name, n) == 0)
			return &blocks[i];
	return NULL;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "sqlembed: out of memory\n");
			exit(1);
		}
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Append blk's body to b with every {{NAME}} replaced by that fragment's
 * text (comments and blank lines dropped, leading and trailing space
 * trimmed), itself expanded.  Comment lines are copied as they are: the
 * statement cleaner drops them. */
static void expand(struct buf *b, struct block *blk)
{
	const char *p = blk->body, *end = blk->body + blk->len;
	int line = blk->line + 1;
	for (; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol ? eol + 1 : end;
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (eol - s >= 2 && s[0] == '-' && s[1] == '-') {
			put(b, p, (size_t)(eol - p));
			p = eol;
			continue;
		}
		while (p < eol) {
			const char *o = p;
			while (o + 1 < eol && !(o[0] == '{' && o[1] == '{'))
				o++;
			if (o + 1 >= eol) {
				put(b, p, (size_t)(eol - p));
				break;
			}
			put(b, p, (size_t)(o - p));
			const char *name = o + 2, *c = name;
			while (c < eol && (isalnum((unsigned char)*c) || *c == '_'))
				c++;
			if (c + 1 >= eol || c[0] != '}' || c[1] != '}') {
				fprintf(stderr, "%s:%d: '{{' must be followed by NAME}}\n", blk->file, line);
				exit(1);
			}
			struct block *f = find_fragment(name, (size_t)(c - name));
			if (!f) {
				fprintf(stderr, "%s:%d: unknown fragment {{%.*s}}\n", blk->file, line, (int)(c - name), name);
				exit(1);
			}
			if (f->busy) {
				fprintf(stderr, "%s:%d: fragment %s uses itself\n", f->file, f->line, f->name);
				exit(1);
			}
			f->busy = 1;
			struct buf fb = {0};
			expand(&fb, f);
			f->busy = 0;
			char *clean = malloc(fb.len + 1);
			size_t n = clean_stmt(fb.p ? fb.p : "", fb.len, clean);
			size_t lead = 0;
			while (lead < n && isspace((unsigned char)clean[lead]))
				lead++;
			put(b, clean + lead, n - lead);
			free(clean);
			free(fb.p);
			p = c + 2;
		}
		p = eol;
	}
}

/* ------------------------------------------------ result columns */

/* Whether the word at p (length n) is kw, case-insensitively. */
static int is_kw(const char *p, size_t n, const char *kw)
{
	return strlen(kw) == n && strncasecmp(p, kw, n) == 0;
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The top level of a statement: quoted text ('..', "..", `..`, $tag$..$tag$)
 * and parenthesised text are skipped whole; fn gets each depth-0 word (kind
 * 'w', n its length) and each depth-0 ',', ';' and '*' (kind the
 * character). */
typedef void (*tok_fn)(void *ctx, int kind, const char *p, size_t n);

static void walk_top(const char *sql, tok_fn fn, void *ctx)
{
	int depth = 0;
	for (const char *p = sql; *p;) {
		char c = *p;
		if (c == '\'' || c == '"' || c == '`') {
			p++;
			while (*p && !(*p == c && p[1] != c))
				p += *p == c ? 2 : 1;
			if (*p)
				p++;
		} else if (c == '$' && (p[1] == '$' || isalpha((unsigned char)p[1]) || p[1] == '_')) {
			/* PostgreSQL $tag$...$tag$ (a $1 parameter has a digit) */
			const char *t = p + 1;
			while (word_char(*t))
				t++;
			if (*t != '$') {
				p = t;
				continue;
			}
			size_t tl = (size_t)(t + 1 - p);
			const char *e;
			for (e = t + 1; *e && strncmp(e, p, tl) != 0; e++)
				;
			p = *e ? e + tl : e;
		} else if (c == '(') {
			depth++;
			p++;
		} else if (c == ')') {
			depth--;
			p++;
		} else if (word_char(c)) {
			const char *s = p;
			while (word_char(*p))
				p++;
			if (depth == 0)
				fn(ctx, 'w', s, (size_t)(p - s));
		} else {
			if (depth == 0 && (c == ',' || c == ';' || c == '*'))
				fn(ctx, c, p, 1);
			p++;
		}
	}
}

/* Finding the result list, after the main SELECT or after RETURNING, and
 * counting its items. */
struct cols_walk {
	const char *sql;
	int state;      /* 0 before the list, 2 in it, 3 done */
	int main;       /* the main statement's verb seen (after any WITH) */
	int select;     /* the main statement is a SELECT */
	int commas;     /* in the list */
	int item_words; /* words of the list's current item so far */
	int cols;       /* the count, once done; -1 none */
	int words;      /* top-level words so far */
	int semis;      /* top-level ';' (several statements) */
	int unknown;    /* the statement starts with a word not read here */
	int star;       /* a "*" or "t.*" item */
};

static void cols_tok(void *ctx, int kind, const char *p, size_t n)
{
	struct cols_walk *w = ctx;
	if (kind == ';') {
		w->semis++;
		if (w->state == 2) {
			w->cols = w->commas + 1;
			w->state = 3;
		}
		return;
	}
	if (w->state == 3)
		return;
	if (kind == '*') {
		/* "*" or "t.*" as an item: as many columns as the table has */
		const char *b = p;
		while (b > w->sql && isspace((unsigned char)b[-1]))
			b--;
		if (w->state == 2 && (w->item_words == 0 || (b > w->sql && b[-1] == '.')))
			w->star = 1;
		return;
	}
	if (w->state == 2) {
		static const char *const ends[] = {"FROM",   "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
						   "UNION",  "FOR",   "INTO",  "WINDOW", "EXCEPT", "INTERSECT",
						   "OFFSET", "LOCK",  NULL};
		if (kind == ',') {
			w->commas++;
			w->item_words = 0;
			return;
		}
		w->item_words++;
		for (int i = 0; ends[i]; i++)
			if (is_kw(p, n, ends[i]) && w->select) {
				w->cols = w->commas + 1;
				w->state = 3;
				return;
			}
		return;
	}
	if (kind != 'w')
		return;
	if (w->words++ == 0) {
		/* Statements that return no rows, and those read below; any
		 * other (PRAGMA, SHOW, CALL, ...) cannot be vouched for. */
		static const char *const quiet[] = {"DO", "CREATE", "DROP", "ALTER", "SET", "LOCK", NULL};
		static const char *const read[] = {"WITH",   "SELECT",  "INSERT", "UPDATE",
						   "DELETE", "REPLACE", "VALUES", NULL};
		for (int i = 0; quiet[i]; i++)
			if (is_kw(p, n, quiet[i])) {
				w->state = 3;
				w->cols = 0;
				return;
			}
		int known = 0;
		for (int i = 0; read[i]; i++)
			known |= is_kw(p, n, read[i]);
		if (!known) {
			w->unknown = 1;
			w->state = 3;
			return;
		}
	}
	if (!w->main && (is_kw(p, n, "SELECT") || is_kw(p, n, "INSERT") || is_kw(p, n, "UPDATE") ||
			 is_kw(p, n, "DELETE") || is_kw(p, n, "REPLACE") || is_kw(p, n, "VALUES"))) {
		w->main = 1;
		if (is_kw(p, n, "SELECT")) {
			w->select = 1;
			w->state = 2;
			w->commas = 0;
			w->item_words = 0;
		}
		return;
	}
	if (w->main && !w->select && is_kw(p, n, "RETURNING")) {
		w->state = 2;
		w->commas = 0;
		w->item_words = 0;
	}
}

/* How many columns a statement returns: the top-level commas of its main
 * SELECT list (up to FROM, WHERE, ...) or of its RETURNING list, plus one;
 * 0 for a statement that returns no rows; -1 for text this reading cannot
 * vouch for (several statements in one, a "*" item, a first word other
 * than those below). */
static int result_cols(const char *sql)
{
	struct cols_walk w = {.cols = -1, .sql = sql};
	walk_top(sql, cols_tok, &w);
	if (w.state == 2)
		w.cols = w.commas + 1;
	if (w.semis > 0 || w.unknown || w.star)
		return -1;
	return w.cols < 0 ? 0 : w.cols;
}

static int in_catalogue(const char *name)
{
	for (int i = 0; i < LQ_SQL__COUNT; i++)
		if (strcmp(catalogue[i], name) == 0)
			return 1;
	return 0;
}

/* Every name of the catalogue defined in this dialect or declared absent,
 * nothing else, and not both: a statement left out by mistake fails the
 * build, not the first caller at run time. */
static int check_catalogue(const char *where)
{
	int bad = 0;
	for (int i = 0; i < nblocks; i++)
		if (!blocks[i].fragment && !in_catalogue(blocks[i].name)) {
			fprintf(stderr, "%s:%d: statement %s is not in lib/backend/sql_names.h\n", blocks[i].file,
				blocks[i].line, blocks[i].name);
			bad = 1;
		}
	for (int a = 0; a < nabsents; a++) {
		if (!in_catalogue(absents[a].name)) {
			fprintf(stderr, "%s:%d: absent statement %s is not in lib/backend/sql_names.h\n",
				absents[a].file, absents[a].line, absents[a].name);
			bad = 1;
		}
		for (int i = 0; i < nblocks; i++)
			if (!blocks[i].fragment && strcmp(blocks[i].name, absents[a].name) == 0) {
				fprintf(stderr, "%s:%d: statement %s is defined at %s:%d but declared absent\n",
					absents[a].file, absents[a].line, absents[a].name, blocks[i].file,
					blocks[i].line);
				bad = 1;
			}
		for (int b = 0; b < a; b++)
			if (strcmp(absents[b].name, absents[a].name) == 0) {
				fprintf(stderr, "%s:%d: statement %s declared absent twice\n", absents[a].file,
					absents[a].line, absents[a].name);
				bad = 1;
			}
	}
	for (int c = 0; c < LQ_SQL__COUNT; c++) {
		int found = 0;
		for (int i = 0; i < nblocks && !found; i++)
			found = !blocks[i].fragment && strcmp(blocks[i].name, catalogue[c]) == 0;
		for (int a = 0; a < nabsents && !found; a++)
			found = strcmp(absents[a].name, catalogue[c]) == 0;
		if (!found) {
			fprintf(stderr,
				"%s: statement %s (lib/backend/sql_names.h) is missing from this dialect: "
				"write it, or \"-- absent: %s reason\"\n",
				where, catalogue[c], catalogue[c]);
			bad = 1;
		}
	}
	return bad;
}

/* The result columns of blk (its text expanded and cleaned) against the
 * catalogue's count, or the dialect's own "-- columns:" line: 0 or 1. */
static int check_columns(const struct block *blk, const char *sql)
{
	int want = -1;
	for (int i = 0; i < LQ_SQL__COUNT; i++)
		if (strcmp(catalogue[i], blk->name) == 0)
			want = catalogue_cols[i];
	struct columns *decl = NULL;
	for (int c = 0; c < ncolumns; c++)
		if (strcmp(columns[c].name, blk->name) == 0) {
			if (decl) {
				fprintf(stderr, "%s:%d: columns of %s declared twice\n", columns[c].file,
					columns[c].line, blk->name);
				return 1;
			}
			decl = &columns[c];
		}
	int got = result_cols(sql);
	if (decl) {
		decl->used = 1;
		if (decl->cols < 0 && got >= 0) {
			fprintf(stderr, "%s:%d: statement %s can be counted (%d columns): drop \"unchecked\"\n",
				decl->file, decl->line, blk->name, got);
			return 1;
		}
		if (decl->cols == want) {
			fprintf(stderr, "%s:%d: statement %s returns %d columns as the catalogue says: drop the line\n",
				decl->file, decl->line, blk->name, want);
			return 1;
		}
		want = decl->cols;
		if (want < 0)
			return 0;
	}
	if (got < 0) {
		fprintf(stderr,
			"%s:%d: cannot count the result columns of statement %s (a \"*\" item, several "
			"statements, or not a SELECT, INSERT, UPDATE or DELETE): declare \"-- columns: %s unchecked "
			"reason\"\n",
			blk->file, blk->line, blk->name, blk->name);
		return 1;
	}
	if (got != want) {
		fprintf(stderr, "%s:%d: statement %s returns %d columns, %s %d\n", blk->file, blk->line, blk->name,
			got, decl ? "its \"-- columns:\" line says" : "lib/backend/sql_names.h says", want);
		return 1;
	}
	return 0;
}

static int stmts(FILE *out, const char *symbol, int named, int nfiles, char **files)
{
	for (int f = 0; f < nfiles; f++)
		read_blocks(files[f]);
	for (int i = 0; i < nblocks; i++)
		for (int j = 0; j < i; j++)
			if (blocks[j].fragment == blocks[i].fragment && strcmp(blocks[j].name, blocks[i].name) == 0) {
				fprintf(stderr, "%s:%d: %s %s defined twice (first at %s:%d)\n", blocks[i].file,
					blocks[i].line, blocks[i].fragment ? "fragment" : "statement", blocks[i].name,
					blocks[j].file, blocks[j].line);
				return 1;
			}
	if (!named && check_catalogue(symbol) != 0)
		return 1;
	fprintf(out, "/* Generated by sqlembed from sql/: do not edit. */\n");
	if (named) {
		fprintf(out, "#include <stddef.h>\n\n");
		fprintf(out, "extern const char *const %s[][2];\n", symbol);
		fprintf(out, "const char *const %s[][2] = {\n", symbol);
	} else {
		fprintf(out, "#include \"backend/sql_names.h\"\n\n");
		fprintf(out, "extern const char *const %s[LQ_SQL__COUNT];\n", symbol);
		fprintf(out, "const char *const %s[LQ_SQL__COUNT] = {\n", symbol);
	}
	for (int i = 0; i < nblocks; i++) {
		struct block *blk = &blocks[i];
		if (blk->fragment)
			continue;
		struct buf b = {0};
		expand(&b, blk);
		char *clean = malloc(b.len + 1);
		size_t clen = clean_stmt(b.p ? b.p : "", b.len, clean);
		if (clen == 0) {
			fprintf(stderr, "%s:%d: statement %s is empty\n", blk->file, blk->line, blk->name);
			return 1;
		}
		if (!named && check_columns(blk, clean) != 0)
			return 1;
		if (named)
			fprintf(out, "\t{\"%s\", ", blk->name);
		else
			fprintf(out, "\t[LQ_SQL_%s] = ", blk->name);
		emit_literal(out, clean, clen);
		fputs(named ? "},\n" : ",\n", out);
		free(clean);
		free(b.p);
	}
	for (int c = 0; c < ncolumns && !named; c++)
		if (!columns[c].used) {
			fprintf(stderr, "%s:%d: \"-- columns:\" for %s, which this dialect does not define\n",
				columns[c].file, columns[c].line, columns[c].name);
			return 1;
		}
	if (named)
		fputs("\t{NULL, NULL}\n", out);
	fputs("};\n", out);
	return 0;
}

static int migrations(FILE *out, const char *symbol, int nfiles, char **files)
{
	fprintf(out, "/* Generated by sqlembed from migrations/: do not edit. */\n");
	fprintf(out, "#include \"backend/backend.h\"\n\n");
	fprintf(out, "const struct lq_migration %s[] = {\n", symbol);
	int last = 0;
	for (int f = 0; f < nfiles; f++) {
		const char *base = strrchr(files[f], '/');
		base = base ? base + 1 : files[f];
		int version = atoi(base);
		if (version <= last) {
			fprintf(stderr, "%s: migration versions must ascend (after %d)\n", files[f], last);
			return 1;
		}
		last = version;
		size_t blen = strlen(base);
		if (blen > 4 && strcmp(base + blen - 4, ".sql") == 0)
			blen -= 4;
		char *text = slurp(files[f]);
		fprintf(out, "\t{%d, \"%.*s\",\n\t", version, (int)blen, base);
		emit_literal(out, text, strlen(text));
		fputs("},\n", out);
		free(text);
	}
	if (nfiles == 0)
		fputs("\t{0, 0, 0}\n", out);
	fputs("};\n", out);
	fprintf(out, "const size_t %s_count = %d;\n", symbol, nfiles);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: sqlembed stmts|named|migrations OUT.c SYMBOL FILE...\n");
		return 2;
	}
	FILE *out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	out_path = argv[2];
	atexit(remove_partial);
	int rc = strcmp(argv[1], "stmts") == 0	  ? stmts(out, argv[3], 0, argc - 4, argv + 4)
		 : strcmp(argv[1], "named") == 0 ? stmts(out, argv[3], 1, argc - 4, argv + 4)
						  : migrations(out, argv[3], argc - 4, argv + 4);
	if (fclose(out) != 0)
		rc = 1;
	out_done = rc == 0;
	return rc;
}
