/*
 * jsonl_lines.h - the JSON Lines parser of "leasectl task add --from"
 * (tools/leasectl_jsonl.c) as the tool drives it, for fuzz_jsonl and
 * jsonl_dump: the input is split after each '\n' as getline() does, lines
 * of blanks only are skipped, every other line is parsed on its own.
 */
#ifndef LQ_JSONL_LINES_H
#define LQ_JSONL_LINES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

#define LQJ_FIELDS_MAX 32 /* as tools/leasectl_task.c */

/* Called for each line that is not blank: its number (blank lines count),
 * line[0..len) as read (the parser has unescaped it in place when rc is 0),
 * its fields, err when rc is -1. */
typedef void (*lqj_line_fn)(void *arg, size_t lineno, const char *line, size_t len, int rc, const struct lc_jfield *f,
			    size_t n, const char *err);

/* Returns the number of lines parsed. */
static inline size_t lqj_each_line(const uint8_t *data, size_t size, lqj_line_fn fn, void *arg)
{
	size_t at = 0, lines = 0, lineno = 0;

	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) + 1 : size - at;
		char *line = malloc(len + 1);
		struct lc_jfield f[LQJ_FIELDS_MAX];
		char err[256] = "";
		size_t n = 0, blank = 0;

		if (!line)
			abort();
		memcpy(line, data + at, len);
		line[len] = '\0';
		at += len;
		lineno++;
		while (blank < len && strchr(" \t\r\n", line[blank]) && line[blank])
			blank++;
		if (blank < len) {
			int rc = lc_jsonl_object(line, len, f, LQJ_FIELDS_MAX, &n, err, sizeof(err));
			fn(arg, lineno, line, len, rc, f, n, err);
			lines++;
		}
		free(line);
	}
	return lines;
}

#endif
