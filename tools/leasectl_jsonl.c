/*
 * leasectl_jsonl.c - read one flat JSON object (a line of a JSON Lines
 * file): keys with string, number, true, false or null values.  Nested
 * objects and arrays are refused: "task add --from" needs no more.
 */
#include <stdio.h>
#include <string.h>

#include "leasectl.h"

struct jp {
	char *r; /* read position */
	char *w; /* write position (unescaped text goes here; never past r) */
	char *err;
	size_t errsize;
};

static void skip_ws(struct jp *p)
{
	while (*p->r == ' ' || *p->r == '\t' || *p->r == '\n' || *p->r == '\r')
		p->r++;
}

static int jfail(struct jp *p, const char *what)
{
	snprintf(p->err, p->errsize, "invalid JSON: %s", what);
	return -1;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void put_utf8(struct jp *p, unsigned cp)
{
	if (cp < 0x80) {
		*p->w++ = (char)cp;
	} else if (cp < 0x800) {
		*p->w++ = (char)(0xC0 | (cp >> 6));
		*p->w++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*p->w++ = (char)(0xE0 | (cp >> 12));
		*p->w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*p->w++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*p->w++ = (char)(0xF0 | (cp >> 18));
		*p->w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*p->w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*p->w++ = (char)(0x80 | (cp & 0x3F));
	}
}

/* The length of the UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing over U+10FFFF), 0 when it is not one: JSON text is
 * UTF-8, and Python's json, among others, refuses what is not. */
static size_t utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned lo = 0x80, hi = 0xBF;
	size_t n;

	if (u[0] >= 0xC2 && u[0] <= 0xDF)
		n = 2;
	else if (u[0] >= 0xE0 && u[0] <= 0xEF)
		n = 3, lo = u[0] == 0xE0 ? 0xA0 : 0x80, hi = u[0] == 0xED ? 0x9F : 0xBF;
	else if (u[0] >= 0xF0 && u[0] <= 0xF4)
		n = 4, lo = u[0] == 0xF0 ? 0x90 : 0x80, hi = u[0] == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	/* The second byte bounds the code point; the others are plain
	 * continuation bytes (a NUL stops the check: it is none). */
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xBF)
			return 0;
	return n;
}

/* A string at p->r (on its opening quote), unescaped to p->w and
 * NUL-terminated; *out points at it.  An escape never writes more bytes
 * than it reads, so the text stays behind the read position.  \u0000 is
 * refused (the values are C strings). */
static int jstring(struct jp *p, const char **out)
{
	*out = p->w;
	p->r++;
	for (;;) {
		unsigned char c = (unsigned char)*p->r;
		if (c == '\0')
			return jfail(p, "unterminated string");
		if (c < 0x20)
			return jfail(p, "control character in a string");
		if (c == '"') {
			p->r++;
			*p->w++ = '\0';
			return 0;
		}
		if (c >= 0x80) {
			size_t n = utf8_len(p->r);
			if (!n)
				return jfail(p, "invalid UTF-8 in a string");
			memmove(p->w, p->r, n);
			p->w += n;
			p->r += n;
			continue;
		}
		if (c != '\\') {
			*p->w++ = (char)c;
			p->r++;
			continue;
		}
		char e = p->r[1];
		p->r += 2;
		switch (e) {
		case '"': *p->w++ = '"'; break;
		case '\\': *p->w++ = '\\'; break;
		case '/': *p->w++ = '/'; break;
		case 'b': *p->w++ = '\b'; break;
		case 'f': *p->w++ = '\f'; break;
		case 'n': *p->w++ = '\n'; break;
		case 'r': *p->w++ = '\r'; break;
		case 't': *p->w++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (hex4(p->r, &cp))
				return jfail(p, "bad \\u escape");
			p->r += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (p->r[0] != '\\' || p->r[1] != 'u' || hex4(p->r + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return jfail(p, "unpaired surrogate in a \\u escape");
				p->r += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
				return jfail(p, "unpaired surrogate in a \\u escape");
			}
			if (cp == 0)
				return jfail(p, "\\u0000 in a string");
			put_utf8(p, cp);
			break;
		}
		default:
			return jfail(p, "bad escape in a string");
		}
	}
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and nothing
 * more: copied down to p->w (the key before it left room). */
static int jnumber(struct jp *p, const char **out)
{
	char *s = p->r;
	if (*p->r == '-')
		p->r++;
	if (!is_digit(*p->r))
		return jfail(p, "unexpected character");
	if (*p->r++ != '0')
		while (is_digit(*p->r))
			p->r++;
	if (*p->r == '.') {
		if (!is_digit(*++p->r))
			return jfail(p, "a digit must follow '.' in a number");
		while (is_digit(*p->r))
			p->r++;
	}
	if (*p->r == 'e' || *p->r == 'E') {
		p->r++;
		if (*p->r == '+' || *p->r == '-')
			p->r++;
		if (!is_digit(*p->r))
			return jfail(p, "a digit must follow the exponent's 'e' in a number");
		while (is_digit(*p->r))
			p->r++;
	}
	if (is_digit(*p->r) || *p->r == '.' || *p->r == 'e' || *p->r == 'E' || *p->r == '+' || *p->r == '-')
		return jfail(p, "malformed number (a leading zero, or a sign or point out of place)");
	size_t n = (size_t)(p->r - s);
	memmove(p->w, s, n);
	*out = p->w;
	p->w += n;
	*p->w++ = '\0';
	return 0;
}

/* key for an error message: on one line (control characters as JSON
 * escapes), cut after about 64 bytes at a character's start. */
static const char *shown(const char *key, char *buf, size_t size)
{
	size_t o = 0;
	for (const unsigned char *k = (const unsigned char *)key; *k && o + 8 < size; k++) {
		if (o >= 64 && (*k & 0xC0) != 0x80) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (*k < 0x20)
			o += (size_t)snprintf(buf + o, size - o, "\\u%04x", *k);
		else
			buf[o++] = (char)*k;
	}
	buf[o] = '\0';
	return buf;
}

int lc_jsonl_object(char *line, size_t len, struct lc_jfield *f, size_t max, size_t *n, char *err, size_t errsize)
{
	struct jp p = {line, line, err, errsize};
	char kbuf[80];
	*n = 0;
	if (strlen(line) != len) /* the fields are C strings */
		return jfail(&p, "a NUL byte in the line");
	skip_ws(&p);
	if (*p.r != '{')
		return jfail(&p, "a line must be one JSON object");
	p.r++;
	skip_ws(&p);
	if (*p.r == '}') {
		p.r++;
	} else {
		for (;;) {
			const char *key, *val = NULL;
			int type;
			skip_ws(&p);
			if (*p.r != '"')
				return jfail(&p, "expected a field name");
			if (jstring(&p, &key))
				return -1;
			skip_ws(&p);
			if (*p.r != ':')
				return jfail(&p, "expected ':'");
			p.r++;
			skip_ws(&p);
			if (*p.r == '"') {
				type = LC_JSTR;
				if (jstring(&p, &val))
					return -1;
			} else if (!strncmp(p.r, "true", 4) || !strncmp(p.r, "false", 5)) {
				type = LC_JBOOL;
				val = *p.r == 't' ? "true" : "false";
				p.r += *p.r == 't' ? 4 : 5;
			} else if (!strncmp(p.r, "null", 4)) {
				type = LC_JNULL;
				p.r += 4;
			} else if (*p.r == '{' || *p.r == '[') {
				snprintf(err, errsize, "field \"%s\": nested objects and arrays are not supported",
					 shown(key, kbuf, sizeof(kbuf)));
				return -1;
			} else {
				type = LC_JNUM;
				if (jnumber(&p, &val))
					return -1;
			}
			for (size_t i = 0; i < *n; i++) {
				if (!strcmp(f[i].key, key)) {
					snprintf(err, errsize, "field \"%s\" given twice", shown(key, kbuf, sizeof(kbuf)));
					return -1;
				}
			}
			if (*n >= max) {
				snprintf(err, errsize, "too many fields (at most %zu)", max);
				return -1;
			}
			f[*n].key = key;
			f[*n].val = val;
			f[*n].type = type;
			(*n)++;
			skip_ws(&p);
			if (*p.r == ',') {
				p.r++;
				continue;
			}
			if (*p.r == '}') {
				p.r++;
				break;
			}
			return jfail(&p, "expected ',' or '}'");
		}
	}
	skip_ws(&p);
	if (*p.r)
		return jfail(&p, "text after the object");
	return 0;
}
