/*
 * leasectl_listing.c - the output of a listing command (task, queue, lease
 * list, task history): a JSON array, held back while it is small so that a
 * failure half-way prints no half document and streamed once it is not (a
 * listing of a million tasks must not sit in memory), or a text table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "leasectl.h"

static int emit(struct lc_listing *l, const char *buf, size_t n)
{
	if (l->write_failed)
		return -1;
	if (n && fwrite(buf, 1, n, stdout) != n)
		l->write_failed = 1;
	return l->write_failed ? -1 : 0;
}

/* The JSON stream: into l->out up to LC_LISTING_HOLD bytes, then all of it
 * to standard output and from then on straight through. */
static ssize_t hold_write(void *cookie, const char *buf, size_t n)
{
	struct lc_listing *l = cookie;
	if (!l->streaming && l->outlen + n <= LC_LISTING_HOLD) {
		memcpy(l->out + l->outlen, buf, n);
		l->outlen += n;
		return (ssize_t)n;
	}
	if (!l->streaming) {
		l->streaming = 1;
		if (emit(l, l->out, l->outlen) != 0)
			return -1;
		l->outlen = 0;
	}
	return emit(l, buf, n) == 0 ? (ssize_t)n : -1;
}

static int hold_close(void *cookie)
{
	(void)cookie;
	return 0;
}

int lc_listing_begin(struct lc_listing *l, int json, size_t ncols, const char *const *heads)
{
	l->json = json;
	l->n = 0;
	l->mem = NULL;
	l->out = NULL;
	l->outlen = 0;
	l->streaming = 0;
	l->write_failed = 0;
	if (!json) {
		lc_table_init(&l->t, ncols, heads);
		return 0;
	}
	static const cookie_io_functions_t io = {.write = hold_write, .close = hold_close};
	if (!(l->out = malloc(LC_LISTING_HOLD)) || !(l->mem = fopencookie(l, "w", io))) {
		free(l->out);
		l->out = NULL;
		lc_errorf("out of memory");
		return LC_EXIT_FAIL;
	}
	lc_json_init(&l->j, l->mem);
	lc_json_arr(&l->j);
	return 0;
}

void lc_listing_end(struct lc_listing *l, int print, const char *none)
{
	if (print && l->json) {
		lc_json_end_arr(&l->j);
		lc_json_end(&l->j);
		fflush(l->mem);
		emit(l, l->out, l->outlen);
	} else if (print && l->n) {
		lc_table_print(&l->t, stdout);
	} else if (print) {
		printf("%s\n", none);
	}
	if (!l->json)
		lc_table_free(&l->t);
	if (l->mem) {
		/* Not printing: what is held back goes nowhere. */
		if (!print) {
			l->streaming = 1;
			l->write_failed = 1;
		}
		fclose(l->mem);
	}
	free(l->out);
	l->mem = NULL;
	l->out = NULL;
}
