/*
 * fuzz_jsonl.c - the JSON Lines parser of "task add --from"
 * (tools/leasectl_jsonl.c), line by line as the tool reads a file.
 * Properties, checked here without a second parser (tests/fuzz/jsonl_diff
 * holds the same inputs against Python's json module):
 *   - accepted: at most LQJ_FIELDS_MAX fields, each inside the line; keys
 *     distinct; keys and strings valid UTF-8; a number is JSON's number
 *     grammar exactly; true/false/null as typed; and writing the fields out
 *     again as JSON parses back to the same fields;
 *   - refused: a reason, on one line.
 */
#include <stdio.h>

#include "fuzz_common.h"
#include "jsonl_lines.h"

/* Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, <= U+10FFFF. */
static int utf8_ok(const unsigned char *s)
{
	while (*s) {
		unsigned c = *s, cp, n;
		if (c < 0x80) {
			s++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			n = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			n = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			n = 3, cp = c & 0x07;
		else
			return 0;
		for (unsigned i = 1; i <= n; i++) {
			if ((s[i] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3F);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		s += n + 1;
	}
	return 1;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_ok(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

struct out {
	char *p;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			abort();
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = '\0';
}

static void put_jstring(struct out *o, const char *s)
{
	put(o, "\"", 1);
	for (; *s; s++) {
		char esc[8];
		if (*s == '"' || *s == '\\') {
			esc[0] = '\\', esc[1] = *s;
			put(o, esc, 2);
		} else if ((unsigned char)*s < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned char)*s);
			put(o, esc, 6);
		} else {
			put(o, s, 1);
		}
	}
	put(o, "\"", 1);
}

static int same_fields(const struct lc_jfield *a, size_t na, const struct lc_jfield *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		if (a[i].type != b[i].type || strcmp(a[i].key, b[i].key))
			return 0;
		if (!a[i].val != !b[i].val || (a[i].val && strcmp(a[i].val, b[i].val)))
			return 0;
	}
	return 1;
}

static void check_line(void *arg, size_t lineno, const char *line, size_t len, int rc, const struct lc_jfield *f,
		       size_t n, const char *err)
{
	(void)arg;
	if (rc) {
		LQF_ASSERT(rc == -1, "line %zu: rc %d", lineno, rc);
		LQF_ASSERT(err[0] != '\0', "line %zu refused without a reason", lineno);
		for (const char *c = err; *c; c++)
			LQF_ASSERT((unsigned char)*c >= 0x20, "line %zu: the reason is not one line: %s", lineno, err);
		return;
	}
	LQF_ASSERT(n <= LQJ_FIELDS_MAX, "line %zu: %zu fields", lineno, n);
	struct out o = {0};
	put(&o, "{", 1);
	for (size_t i = 0; i < n; i++) {
		const char *k = f[i].key, *v = f[i].val;
		LQF_ASSERT(k >= line && k + strlen(k) < line + len, "line %zu: key %zu outside the line", lineno, i);
		LQF_ASSERT(utf8_ok((const unsigned char *)k), "line %zu: key %zu is not UTF-8", lineno, i);
		for (size_t j = 0; j < i; j++)
			LQF_ASSERT(strcmp(f[j].key, k), "line %zu: key \"%s\" twice", lineno, k);
		if (i)
			put(&o, ",", 1);
		put_jstring(&o, k);
		put(&o, ":", 1);
		switch (f[i].type) {
		case LC_JSTR:
			LQF_ASSERT(v && v >= line && v + strlen(v) < line + len, "line %zu: value %zu outside the line",
				   lineno, i);
			LQF_ASSERT(utf8_ok((const unsigned char *)v), "line %zu: value %zu is not UTF-8", lineno, i);
			put_jstring(&o, v);
			break;
		case LC_JNUM:
			LQF_ASSERT(v && v >= line && v + strlen(v) < line + len, "line %zu: value %zu outside the line",
				   lineno, i);
			LQF_ASSERT(number_ok(v), "line %zu: \"%s\" is not a JSON number", lineno, v);
			put(&o, v, strlen(v));
			break;
		case LC_JBOOL:
			LQF_ASSERT(v && (!strcmp(v, "true") || !strcmp(v, "false")), "line %zu: boolean %zu", lineno, i);
			put(&o, v, strlen(v));
			break;
		case LC_JNULL:
			LQF_ASSERT(!v, "line %zu: null %zu has a value", lineno, i);
			put(&o, "null", 4);
			break;
		default:
			LQF_ASSERT(0, "line %zu: field %zu has type %d", lineno, i, f[i].type);
		}
	}
	put(&o, "}", 1);

	/* Written out again, it reads back the same. */
	struct lc_jfield g[LQJ_FIELDS_MAX];
	size_t ng = 0;
	char err2[256];
	char *again = strdup(o.p);
	if (!again)
		abort();
	int rc2 = lc_jsonl_object(again, o.n, g, LQJ_FIELDS_MAX, &ng, err2, sizeof(err2));
	LQF_ASSERT(rc2 == 0, "line %zu: written out as %s, refused: %s", lineno, o.p, err2);
	LQF_ASSERT(same_fields(f, n, g, ng), "line %zu: written out as %s, read back otherwise", lineno, o.p);
	free(again);
	free(o.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lqj_each_line(data, size, check_line, NULL);
	return 0;
}
