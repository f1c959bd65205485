/*
 * fuzz_common.h - what every libFuzzer target of leaseq shares: inputs are
 * arbitrary bytes, the parsers take C strings.
 */
#ifndef LQ_FUZZ_COMMON_H
#define LQ_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of data[0..size) (cut at an embedded NUL, as a C
 * caller would see it).  Free it with free(). */
static inline char *lqf_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A property of the parser failed: say which and crash, so that libFuzzer
 * keeps the input as a reproducer. */
#define LQF_ASSERT(cond, ...)                                               \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "property failed: %s: ", #cond);    \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			abort();                                            \
		}                                                           \
	} while (0)

#endif
