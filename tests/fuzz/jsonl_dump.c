/*
 * jsonl_dump.c - print what the JSON Lines parser of "task add --from" makes
 * of each line of the files given, for tests/fuzz/jsonl_diff to hold against
 * Python's json module.  One output line per parsed input line:
 *   FILE <TAB> LINENO <TAB> ok [<TAB> TYPE:HEXKEY:HEXVALUE]...   (HEXVALUE
 *                                                         "-" for null)
 *   FILE <TAB> LINENO <TAB> err <TAB> message
 * LINENO counts every line, blank ones included.
 */
#include <stdio.h>

#include "jsonl_lines.h"

static void hex(const char *s)
{
	for (; *s; s++)
		printf("%02x", (unsigned char)*s);
}

static void one(void *arg, size_t lineno, const char *line, size_t len, int rc, const struct lc_jfield *f, size_t n,
		const char *err)
{
	(void)line;
	(void)len;
	printf("%s\t%zu\t", (const char *)arg, lineno);
	if (rc) {
		printf("err\t");
		for (const char *c = err; *c; c++) /* one output line per input line */
			putchar((unsigned char)*c < 0x20 ? '?' : *c);
		putchar('\n');
		return;
	}
	printf("ok");
	for (size_t i = 0; i < n; i++) {
		printf("\t%d:", f[i].type);
		hex(f[i].key);
		putchar(':');
		if (f[i].val)
			hex(f[i].val);
		else
			putchar('-');
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		uint8_t *data = NULL;
		size_t size = 0, cap = 0, got;

		if (!fp) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		do {
			if (size == cap) {
				cap = cap ? cap * 2 : 65536;
				data = realloc(data, cap);
				if (!data)
					abort();
			}
			got = fread(data + size, 1, cap - size, fp);
			size += got;
		} while (got > 0);
		fclose(fp);
		lqj_each_line(data, size, one, argv[i]);
		free(data);
	}
	return bad;
}
