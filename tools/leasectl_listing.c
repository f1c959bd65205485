/*
 * leasectl_listing.c - the output of a listing command (task, queue, lease
 * list, task history): a JSON array, buffered so that a failure half-way
 * prints no half document, or a text table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "leasectl.h"

int lc_listing_begin(struct lc_listing *l, int json, size_t ncols, const char *const *heads)
{
	l->json = json;
	l->n = 0;
	l->mem = NULL;
	l->out = NULL;
	l->outlen = 0;
	if (!json) {
		lc_table_init(&l->t, ncols, heads);
		return 0;
	}
	if (!(l->mem = open_memstream(&l->out, &l->outlen))) {
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
		fwrite(l->out, 1, l->outlen, stdout);
	} else if (print && l->n) {
		lc_table_print(&l->t, stdout);
	} else if (print) {
		printf("%s\n", none);
	}
	if (!l->json)
		lc_table_free(&l->t);
	if (l->mem)
		fclose(l->mem);
	free(l->out);
	l->mem = NULL;
	l->out = NULL;
}
