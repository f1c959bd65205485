/*
 * dsn.c - URL-style DSN parsing and redaction.  A password never leaves
 * this file except into the client library's connect call.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int lq__pct_decode(const char *src, size_t n, char *dst, size_t size)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)src[i];
		if (c == '%') {
			if (i + 2 >= n)
				return -1;
			int hi = hexval(src[i + 1]), lo = hexval(src[i + 2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0 || o + 1 >= size)
			return -1;
		dst[o++] = (char)c;
	}
	dst[o] = '\0';
	return 0;
}

lq_status lq__dsn_parse_url(const char *dsn, lq_dsn_url *out, lq_err *err)
{
	memset(out, 0, sizeof(*out));
	const char *sep = strstr(dsn, "://");
	if (!sep || (size_t)(sep - dsn) >= sizeof(out->scheme)) {
		lq__err_set(err, "DSN has no scheme:// prefix");
		return LQ_EINVAL;
	}
	memcpy(out->scheme, dsn, (size_t)(sep - dsn));
	const char *p = sep + 3;
	const char *q = strchr(p, '?');
	const char *end = q ? q : p + strlen(p);
	if (q && strlen(q + 1) >= sizeof(out->query)) {
		lq__err_set(err, "%s DSN: options are too long", out->scheme);
		return LQ_EINVAL;
	}
	if (q)
		strcpy(out->query, q + 1);
	/* The last '@' before the path separates credentials from the host. */
	const char *slash = memchr(p, '/', (size_t)(end - p));
	const char *hostend = slash ? slash : end;
	const char *at = NULL;
	for (const char *s = p; s < hostend; s++)
		if (*s == '@')
			at = s;
	const char *host = p;
	if (at) {
		const char *colon = memchr(p, ':', (size_t)(at - p));
		const char *uend = colon ? colon : at;
		if (lq__pct_decode(p, (size_t)(uend - p), out->user, sizeof(out->user)) != 0) {
			lq__err_set(err, "%s DSN: bad user name encoding", out->scheme);
			return LQ_EINVAL;
		}
		if (colon && lq__pct_decode(colon + 1, (size_t)(at - colon - 1), out->password,
					sizeof(out->password)) != 0) {
			lq__err_set(err, "%s DSN: bad password encoding", out->scheme);
			return LQ_EINVAL;
		}
		host = at + 1;
	}
	/* host, [v6]:port or host:port */
	const char *hp_end = hostend;
	const char *portsep = NULL;
	if (*host == '[') {
		const char *rb = memchr(host, ']', (size_t)(hp_end - host));
		if (!rb) {
			lq__err_set(err, "%s DSN: unterminated [ in host", out->scheme);
			return LQ_EINVAL;
		}
		if ((size_t)(rb - host - 1) >= sizeof(out->host)) {
			lq__err_set(err, "%s DSN: host name too long", out->scheme);
			return LQ_EINVAL;
		}
		memcpy(out->host, host + 1, (size_t)(rb - host - 1));
		if (rb + 1 < hp_end && rb[1] == ':')
			portsep = rb + 1;
	} else {
		portsep = memchr(host, ':', (size_t)(hp_end - host));
		const char *hend = portsep ? portsep : hp_end;
		if ((size_t)(hend - host) >= sizeof(out->host)) {
			lq__err_set(err, "%s DSN: host name too long", out->scheme);
			return LQ_EINVAL;
		}
		memcpy(out->host, host, (size_t)(hend - host));
	}
	if (portsep) {
		char *pe;
		long port = strtol(portsep + 1, &pe, 10);
		if (pe != hp_end || port <= 0 || port > 65535) {
			lq__err_set(err, "%s DSN: bad port", out->scheme);
			return LQ_EINVAL;
		}
		out->port = (int)port;
	}
	if (slash && slash + 1 < end &&
	    lq__pct_decode(slash + 1, (size_t)(end - slash - 1), out->dbname, sizeof(out->dbname)) != 0) {
		lq__err_set(err, "%s DSN: bad database name", out->scheme);
		return LQ_EINVAL;
	}
	return LQ_OK;
}

int lq__dsn_query_get(const char *query, const char *key, char *val, size_t size)
{
	size_t klen = strlen(key);
	const char *p = query;
	while (p && *p) {
		const char *amp = strchr(p, '&');
		const char *e = amp ? amp : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (eq && (size_t)(eq - p) == klen && strncmp(p, key, klen) == 0) {
			if (lq__pct_decode(eq + 1, (size_t)(e - eq - 1), val, size) != 0)
				return 0;
			return 1;
		}
		p = amp ? amp + 1 : NULL;
	}
	return 0;
}

/* Append s[0..n) to buf[*o..size), truncating; buf stays a string. */
static void put(char *buf, size_t size, size_t *o, const char *s, size_t n)
{
	if (n > size - 1 - *o)
		n = size - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
}

/* A query key whose value is a secret.  Compared percent-decoded and
 * ignoring case: libpq decodes keys too. */
static int secret_key(const char *k, size_t n)
{
	static const char *const keys[] = {"password", "sslpassword", "passwd", "pass", "pwd"};
	char dec[16];

	if (lq__pct_decode(k, n, dec, sizeof dec) != 0)
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcasecmp(dec, keys[i]) == 0)
			return 1;
	return 0;
}

LQ_EXTERN(void) lq_dsn_redact(const char *dsn, char *buf, size_t size)
{
	size_t o = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (!dsn)
		return;
	const char *sep = strstr(dsn, "://");
	if (!sep) {
		/* libpq key=value words: nothing from the first password= on. */
		const char *pw = strstr(dsn, "password=");
		put(buf, size, &o, dsn, pw ? (size_t)(pw + 9 - dsn) : strlen(dsn));
		if (pw)
			put(buf, size, &o, "***", 3);
		return;
	}
	/* user:password@ before the path or query, split as lq__dsn_parse_url does */
	const char *p = sep + 3;
	const char *stop = p + strcspn(p, "/?");
	const char *at = NULL;
	for (const char *s = p; s < stop; s++)
		if (*s == '@')
			at = s;
	const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (colon) {
		put(buf, size, &o, dsn, (size_t)(colon + 1 - dsn));
		put(buf, size, &o, "***", 3);
		p = at;
	} else {
		put(buf, size, &o, dsn, (size_t)(p - dsn));
	}
	/* The query starts at the first '?' after "://", as in the parser. */
	const char *q = strchr(p, '?');
	put(buf, size, &o, p, q ? (size_t)(q + 1 - p) : strlen(p));
	/* Every secret option of the query string, not only the first. */
	for (p = q ? q + 1 : ""; *p;) {
		size_t plen = strcspn(p, "&"), klen = strcspn(p, "=&");
		if (klen < plen && secret_key(p, klen)) {
			put(buf, size, &o, p, klen + 1);
			put(buf, size, &o, "***", 3);
		} else {
			put(buf, size, &o, p, plen);
		}
		p += plen;
		if (*p == '&')
			put(buf, size, &o, p++, 1);
	}
}
