/*
 * backend/postgres.c - the PostgreSQL dialect, over libpq.
 *
 * Named statements are prepared once per connection ("lq<id>") and run
 * with binary results in single-row mode, so a long list costs constant
 * memory.  Behind a transaction-mode pooler (PgBouncer) a session outlives
 * no transaction: there (DSN ?pooler=transaction, or a pooler found before
 * the first prepare or LISTEN, or a named statement reported missing) statements go unnamed,
 * nothing is SET for the session and nobody LISTENs: waiters poll.  Parameters: integers as decimal text, text as text, blobs as
 * binary bytea; the SQL casts every parameter ($1::text, $3::bytea, ...) so
 * the server never has to guess a type.  Errors are mapped by SQLSTATE.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "backend.h"

/* Built-in type OIDs (pg_type.dat); fixed across server versions. */
#define PG_BOOLOID 16
#define PG_BYTEAOID 17
#define PG_CHAROID 18
#define PG_NAMEOID 19
#define PG_INT8OID 20
#define PG_INT2OID 21
#define PG_INT4OID 23
#define PG_TEXTOID 25
#define PG_OIDOID 26
#define PG_UNKNOWNOID 705
#define PG_BPCHAROID 1042
#define PG_VARCHAROID 1043
#define PG_VOIDOID 2278

#define PG_MAX_PARAMS 1500 /* the catalogue uses at most 1500 (task_insert_many) */
#define PG_MAX_COLS 32    /* TASK_COLS and claimed are the widest */
_Static_assert(PG_MAX_COLS >= LQ_TASK_COLS + 1, "PG_MAX_COLS too small for TASK_COLS");
#define PG_MAX_CHANNELS 8
#define PG_CHANNEL_MAX 63 /* NAMEDATALEN - 1 */

/* The server default connect_timeout is "wait forever". */
#define PG_CONNECT_TIMEOUT "10"
/* After a cancel request, how long the server has to answer before the
 * connection is given up. */
#define PG_CANCEL_GRACE_MS 5000

struct pg_channel {
	char name[PG_CHANNEL_MAX + 1];
	int pending; /* a notification arrived that nobody has waited for yet */
};

struct lq_conn {
	PGconn *pg;
	unsigned char prepared[LQ_SQL__COUNT];
	int nchannels;
	struct pg_channel channels[PG_MAX_CHANNELS];
	int farewell; /* the server sent FATAL or PANIC outside a query: it is closing */
	char farewell_msg[256];
	PGcancel *cancel;  /* for statements past their deadline or a stop */
	int64_t deadline_ms; /* per statement, from ?statement_timeout= */
	int quiet;           /* ?notify=off: send no wake-ups (NOTIFY) */
	const volatile sig_atomic_t *stop;
	int unnamed; /* send unnamed statements (PQsendQueryParams): no session state */
	int jit_off; /* this session's JIT is off (see session_jit_off) */
	int pooled;  /* a transaction pooler is in between: no LISTEN either */
	int detect;  /* ?pooler=auto, not yet found out */
	int noted;   /* LQ_NOTE_* already said on this connection */
	char note[320]; /* a remark for the log, until pg_notice takes it */
	char note_out[320];
	int warned;  /* a WARNING came with the current statement (a cancelled
	              * wait for synchronous replication says so) */
	int broken;  /* a wait was given up mid-statement: unusable */
	int begin_pending; /* BEGIN not sent yet: it goes with the first statement */
	int app_nonblocking; /* borrowed: the application's PQisnonblocking, restored on release */
};

/* Remarks said once per connection (pg_notice). */
#define LQ_NOTE_UNNAMED 1
#define LQ_NOTE_POLL 2

/* ------------------------------------------------------------ messages */

/* Copy src into dst as one line: each run of line breaks and tabs becomes
 * one space (PostgreSQL's "ERROR:  text" spacing stays), no trailing blanks. */
static void one_line(char *dst, size_t size, const char *src)
{
	size_t o = 0;
	int brk = 0;

	if (!size)
		return;
	for (; src && *src && o + 1 < size; src++) {
		if (*src == '\n' || *src == '\r' || *src == '\t') {
			brk = o > 0;
			continue;
		}
		if (brk && dst[o - 1] != ' ' && *src != ' ' && o + 2 < size)
			dst[o++] = ' ';
		brk = 0;
		dst[o++] = *src;
	}
	while (o > 0 && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
}

/* Replace every occurrence of find in msg (in place) with repl.  What does
 * not fit is cut off, never copied unchanged. */
static void replace(char *msg, size_t size, const char *find, const char *repl)
{
	char out[sizeof(((lq_err *)0)->msg)];
	size_t n = strlen(find), r = strlen(repl), o = 0;
	const char *p = msg, *q;

	if (!n || size > sizeof(out) || !strstr(msg, find))
		return;
	while ((q = strstr(p, find)) != NULL) {
		size_t k = (size_t)(q - p);
		if (o + k + r >= size) {
			p = "";
			break;
		}
		memcpy(out + o, p, k);
		memcpy(out + o + k, repl, r);
		o += k + r;
		p = q + n;
	}
	snprintf(out + o, size - o, "%s", p);
	memcpy(msg, out, strlen(out) + 1);
}

/* Mask a password in msg.  One of under four bytes would mask every
 * matching letter: mask it only where libpq quotes it as a token. */
static void hide(char *msg, size_t size, const char *secret)
{
	char quoted[8];
	size_t n = strlen(secret);

	if (n >= 4) {
		replace(msg, size, secret, "***");
	} else if (n > 0) {
		snprintf(quoted, sizeof(quoted), "\"%s\"", secret);
		replace(msg, size, quoted, "\"***\"");
	}
}

/* Put prefix in front of the message already in err, truncating its end. */
static void err_prefix(lq_err *err, const char *prefix)
{
	size_t cap = sizeof(err->msg) - 1;
	size_t p = strlen(prefix), m = strlen(err->msg);

	if (p > cap)
		p = cap;
	if (m > cap - p)
		m = cap - p;
	memmove(err->msg + p, err->msg, m);
	memcpy(err->msg, prefix, p);
	err->msg[p + m] = '\0';
}

static int sqlstate_is(const char *st, const char *want)
{
	return st && strcmp(st, want) == 0;
}

/* The connection is gone (class 08, or the server is shutting it down). */
static int sqlstate_conn(const char *st)
{
	return st && (strncmp(st, "08", 2) == 0 || strcmp(st, "57P01") == 0 ||
		      strcmp(st, "57P02") == 0 || strcmp(st, "57P03") == 0 ||
		      strcmp(st, "57P05") == 0);
}

/*
 * Map a failed result (r may be NULL) to a status and write a one-line
 * message: "ERROR:  primary text (SQLSTATE)" or libpq's own text.
 * in_commit: a lost connection leaves the outcome unknown.
 */
static lq_status pg_fail(struct lq_conn *c, const PGresult *r, int in_commit, lq_err *err)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *sev = r ? PQresultErrorField(r, PG_DIAG_SEVERITY) : NULL;
	const char *prim = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char text[sizeof(err->msg)];
	lq_status st;

	if (PQstatus(c->pg) == CONNECTION_BAD || sqlstate_conn(state))
		st = in_commit ? LQ_EUNKNOWN : LQ_ECONN;
	else if (sqlstate_is(state, "40001") || sqlstate_is(state, "40P01") ||
		 sqlstate_is(state, "55P03"))
		st = LQ__RETRY;
	else if (sqlstate_is(state, "57014")) /* query_canceled: statement_timeout */
		st = LQ_ETIMEDOUT;
	else if (!r && !*PQerrorMessage(c->pg))
		st = LQ_ENOMEM;
	else
		st = LQ_ERROR;

	if (prim && state)
		snprintf(text, sizeof(text), "%s:  %s (%s)", sev ? sev : "ERROR", prim, state);
	else if (prim)
		snprintf(text, sizeof(text), "%s:  %s", sev ? sev : "ERROR", prim);
	else if (r && *PQresultErrorMessage(r))
		snprintf(text, sizeof(text), "%s", PQresultErrorMessage(r));
	else if (*PQerrorMessage(c->pg))
		snprintf(text, sizeof(text), "%s", PQerrorMessage(c->pg));
	else
		snprintf(text, sizeof(text), "out of memory");
	one_line(err->msg, sizeof(err->msg), text);
	if (st == LQ_EUNKNOWN)
		err_prefix(err, "connection lost during COMMIT, outcome unknown: ");
	return st;
}

/* ------------------------------------------------------------ bounded waits */

/* The connection can take a statement: libpq's view, and no wait was
 * given up on it. */
static int conn_ok(const struct lq_conn *c)
{
	return PQstatus(c->pg) == CONNECTION_OK && !c->broken;
}

/* One command in flight: its wait bounds and what became of them.  The
 * connection is non-blocking: every wait is a poll() in short slices that
 * looks at the deadline and the stop flag. */
struct pg_call {
	lq_wait_state w;
	int cancelled;  /* LQ__WAIT_DEADLINE or LQ__WAIT_STOP: a cancel request went out */
	int64_t cancel_ms;
	int gave_up;    /* no answer after the cancel request: connection abandoned */
	int lost;       /* the connection failed while waiting */
	int in_commit;  /* COMMIT: a lost or cancelled one has an unknown outcome */
	int autocommit; /* the command is its own transaction (it commits too) */
};

static void call_start(struct lq_conn *c, struct pg_call *k, int in_commit)
{
	memset(k, 0, sizeof(*k));
	lq__wait_init(&k->w, c->deadline_ms, c->stop);
	k->in_commit = in_commit;
	k->autocommit = PQtransactionStatus(c->pg) == PQTRANS_IDLE;
	c->warned = 0;
}

/* Wait until a result can be read without blocking: 1; 0 when the wait
 * ended otherwise (k->lost, k->gave_up). */
static int await_result(struct lq_conn *c, struct pg_call *k)
{
	for (;;) {
		int pending = PQflush(c->pg);
		if (pending < 0) {
			k->lost = 1;
			return 0;
		}
		/* What is buffered first: PQconsumeInput moves the unparsed
		 * rest of libpq's buffer to its front on every call, so reading
		 * before each of a large result's rows (single-row mode) grew
		 * the buffer to the whole result and made reading it quadratic. */
		if (!pending && !PQisBusy(c->pg))
			return 1;
		if (!PQconsumeInput(c->pg)) {
			k->lost = 1;
			return 0;
		}
		if (!pending && !PQisBusy(c->pg))
			return 1;
		if (!k->cancelled) {
			int why = lq__wait_check(&k->w);
			if (why) {
				char buf[256];
				k->cancelled = why;
				k->cancel_ms = lq__mono_ms();
				/* The server's answer, or its silence, decides below. */
				if (c->cancel)
					(void)PQcancel(c->cancel, buf, sizeof(buf));
			}
		} else if (lq__mono_ms() - k->cancel_ms >= PG_CANCEL_GRACE_MS) {
			k->gave_up = 1;
			c->broken = 1;
			return 0;
		}
		struct pollfd p = {PQsocket(c->pg), (short)(POLLIN | (pending ? POLLOUT : 0)), 0};
		if (p.fd < 0) {
			k->lost = 1;
			return 0;
		}
		(void)poll(&p, 1, LQ_BACKEND_SLICE_MS); /* EINTR: look at the flags again */
	}
}

/* The next result of the command, or NULL at its end or when the wait ended. */
static PGresult *next_result(struct lq_conn *c, struct pg_call *k)
{
	if (k->lost || k->gave_up || !await_result(c, k))
		return NULL;
	return PQgetResult(c->pg);
}

/* The status of a command whose results were read, given st from them. */
static lq_status call_end(struct lq_conn *c, struct pg_call *k, lq_status st, lq_err *err)
{
	char why[64];
	int commits = k->in_commit || k->autocommit;

	if (k->lost) {
		c->broken = 1;
		st = pg_fail(c, NULL, k->in_commit, err);
		return st == LQ_EUNKNOWN || st == LQ_ENOMEM ? st : k->in_commit ? LQ_EUNKNOWN : LQ_ECONN;
	}
	if (k->gave_up) {
		lq__err_set(err, "%s; no answer to the cancel request: connection abandoned%s",
			    lq__wait_why(k->cancelled, &k->w, why, sizeof(why)),
			    k->in_commit ? ", outcome of COMMIT unknown" : "");
		return k->in_commit ? LQ_EUNKNOWN : LQ_ECONN;
	}
	if (k->cancelled) {
		lq__wait_why(k->cancelled, &k->w, why, sizeof(why));
		/* PostgreSQL ends a cancelled wait for synchronous replication
		 * with a WARNING and a successful COMMIT: committed here, not
		 * confirmed by the standby.  The caller re-reads before acting,
		 * as after a lost COMMIT. */
		if (commits && (st == LQ_OK || k->in_commit)) {
			lq__err_set(err, "%s %s: %s", k->in_commit ? "COMMIT" : "statement", why,
				    st == LQ_OK ? "committed locally but not confirmed (a synchronous "
						  "standby did not answer?), outcome unknown"
						: "outcome unknown");
			return LQ_EUNKNOWN;
		}
		if (st != LQ_OK) {
			char text[sizeof(err->msg)];
			snprintf(text, sizeof(text), "%s", err->msg);
			lq__err_set(err, "%s, statement cancelled (%s)", why, text);
			return LQ_ETIMEDOUT;
		}
		return LQ_OK; /* it finished before the cancel took effect */
	}
	if (st == LQ_OK && commits && c->warned) {
		/* Someone else cancelled the wait (pg_cancel_backend). */
		lq__err_set(err, "the server warned while committing (synchronous replication "
			    "wait cancelled?), outcome unknown");
		return LQ_EUNKNOWN;
	}
	return st;
}

/* Read every result of a command sent (sent != 0) without rows for us; the
 * first failure decides.  sqlstate (6 bytes) gets that failure's code and
 * cmd (16 bytes) the last command tag; either may be NULL. */
static lq_status finish_call(struct lq_conn *c, struct pg_call *k, int sent, char *sqlstate,
			     char *cmd, lq_err *err)
{
	PGresult *r;
	lq_status st = LQ_OK;
	int failed = 0;

	if (!sent) {
		st = pg_fail(c, NULL, 0, err);
		return st == LQ_ERROR ? LQ_ECONN : st;
	}
	while ((r = next_result(c, k)) != NULL) {
		ExecStatusType t = PQresultStatus(r);
		if (t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK) {
			if (cmd)
				snprintf(cmd, 16, "%s", PQcmdStatus(r));
		} else if (!failed) {
			const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
			failed = 1;
			if (sqlstate)
				snprintf(sqlstate, 6, "%s", state ? state : "");
			st = pg_fail(c, r, k->in_commit, err);
		}
		PQclear(r);
	}
	if (!failed && !k->lost && !k->gave_up && PQstatus(c->pg) == CONNECTION_BAD)
		st = pg_fail(c, NULL, k->in_commit, err);
	return call_end(c, k, st, err);
}

/* Run a parameterless command (or script) that returns no rows we read. */
static lq_status pg_command(struct lq_conn *c, const char *sql, int in_commit, char *cmd, lq_err *err)
{
	struct pg_call k;

	call_start(c, &k, in_commit);
	return finish_call(c, &k, PQsendQuery(c->pg, sql), NULL, cmd, err);
}

/* A transaction whose BEGIN waits for its first statement, before
 * something that cannot take it along (a script, a NOTIFY): BEGIN now. */
static lq_status flush_begin(struct lq_conn *c, lq_err *err)
{
	if (!c->begin_pending)
		return LQ_OK;
	c->begin_pending = 0;
	err->extra_trips++;
	return pg_command(c, "BEGIN", 0, NULL, err);
}

/* ------------------------------------------------------------ connect */

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Percent-decode n bytes of s into out (size bytes); bad escapes stay as they are. */
static void pct_decode(const char *s, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < size; i++) {
		if (s[i] == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0 &&
		    hexval((unsigned char)s[i + 2]) >= 0) {
			out[o++] = (char)(hexval((unsigned char)s[i + 1]) * 16 +
					  hexval((unsigned char)s[i + 2]));
			i += 2;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
}

/* Digits and an optional PostgreSQL time unit: what SET accepts for a timeout. */
static int valid_timeout(const char *v)
{
	static const char *const units[] = {"", "us", "ms", "s", "min", "h", "d"};
	size_t d = strspn(v, "0123456789");

	if (d == 0 || d > 10)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(v + d, units[i]) == 0)
			return 1;
	return 0;
}

/* Where the query string of a postgres URI starts ('?'), or NULL. */
static const char *uri_query(const char *dsn)
{
	const char *p = strstr(dsn, "://");

	if (!p)
		return NULL;
	p += 3;
	/* As libpq does: user info ends at the first '@' before any '/'. */
	const char *at = p + strcspn(p, "@/");
	if (*at == '@')
		p = at + 1;
	return strchr(p, '?');
}

/* Session settings leaseq itself takes from the DSN query string. */
struct pg_opts {
	char statement_timeout[32];
	char lock_timeout[32];
	int64_t deadline_ms; /* statement_timeout in ms, else the default */
	int quiet;           /* notify=off */
	int pooler;          /* PG_POOLER_* */
};

/* ?pooler=: what sits between us and the server. */
#define PG_POOLER_AUTO 0        /* find out at connect (a pooler's backend key is its own) */
#define PG_POOLER_TRANSACTION 1 /* transaction pooling: no session state */
#define PG_POOLER_SESSION 2     /* none, or session pooling: sessions are ours */

/* A valid_timeout() value in milliseconds (a bare number is ms, as for SET). */
static int64_t timeout_ms(const char *v)
{
	static const struct {
		const char *unit;
		int64_t mul, div;
	} units[] = {{"", 1, 1}, {"us", 1, 1000}, {"ms", 1, 1}, {"s", 1000, 1},
		     {"min", 60000, 1}, {"h", 3600000, 1}, {"d", 86400000, 1}};
	char *end;
	long long n = strtoll(v, &end, 10);

	if (n <= 0) /* 0: no server-side timeout; ours stays */
		return LQ_STATEMENT_TIMEOUT_MS;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0) {
			int64_t ms = (int64_t)n * units[i].mul / units[i].div;
			return ms > 0 ? ms : 1;
		}
	return LQ_STATEMENT_TIMEOUT_MS;
}

/*
 * Copy dsn into *out without leaseq's own query options (libpq would refuse
 * them), which go to o.  Only postgresql:// and postgres:// URIs have them.
 */
static lq_status strip_options(const char *dsn, char **out, struct pg_opts *o, lq_err *err)
{
	size_t len = strlen(dsn);
	char *buf = malloc(len + 1);
	const char *q = NULL;

	if (!buf) {
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	*out = buf;
	memset(o, 0, sizeof(*o));
	o->deadline_ms = LQ_STATEMENT_TIMEOUT_MS;
	if (strncmp(dsn, "postgresql://", 13) == 0 || strncmp(dsn, "postgres://", 11) == 0)
		q = uri_query(dsn);
	if (!q) {
		memcpy(buf, dsn, len + 1);
		return LQ_OK;
	}

	size_t o_len = (size_t)(q - dsn);
	memcpy(buf, dsn, o_len);
	int first = 1;
	for (const char *p = q + 1; *p;) {
		size_t n = strcspn(p, "&");
		const char *eq = memchr(p, '=', n);
		size_t klen = eq ? (size_t)(eq - p) : n;
		char *dst = NULL;
		const char *key = NULL;

		if (klen == 17 && strncmp(p, "statement_timeout", 17) == 0) {
			dst = o->statement_timeout;
			key = "statement_timeout";
		} else if (klen == 12 && strncmp(p, "lock_timeout", 12) == 0) {
			dst = o->lock_timeout;
			key = "lock_timeout";
		}
		if (klen == 6 && strncmp(p, "pooler", 6) == 0) {
			char val[16] = "";
			const char *v = eq ? eq + 1 : p + n;
			if ((size_t)(p + n - v) < sizeof(val))
				pct_decode(v, (size_t)(p + n - v), val, sizeof(val));
			if (strcmp(val, "transaction") == 0)
				o->pooler = PG_POOLER_TRANSACTION;
			else if (strcmp(val, "session") == 0 || strcmp(val, "none") == 0)
				o->pooler = PG_POOLER_SESSION;
			else if (strcmp(val, "auto") == 0)
				o->pooler = PG_POOLER_AUTO;
			else {
				lq__err_set(err, "invalid pooler \"%.40s\" in the DSN: want transaction, "
					    "session, none or auto", val);
				free(buf);
				*out = NULL;
				return LQ_EINVAL;
			}
		} else if (klen == 6 && strncmp(p, "notify", 6) == 0) {
			char val[8] = "";
			const char *v = eq ? eq + 1 : p + n;
			if ((size_t)(p + n - v) < sizeof(val))
				pct_decode(v, (size_t)(p + n - v), val, sizeof(val));
			if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
				lq__err_set(err, "invalid notify \"%.40s\" in the DSN: want on or off", val);
				free(buf);
				*out = NULL;
				return LQ_EINVAL;
			}
			o->quiet = strcmp(val, "off") == 0;
		} else if (dst) {
			char val[64];
			const char *v = eq ? eq + 1 : p + n;
			pct_decode(v, (size_t)(p + n - v), val, sizeof(val));
			if (!valid_timeout(val) || strlen(val) >= sizeof(o->lock_timeout)) {
				lq__err_set(err, "invalid %s \"%.40s\" in the DSN: want milliseconds "
					    "or a number with a unit (ms, s, min, h, d)", key, val);
				free(buf);
				*out = NULL;
				return LQ_EINVAL;
			}
			strcpy(dst, val);
			if (dst == o->statement_timeout)
				o->deadline_ms = timeout_ms(val);
		} else if (n > 0) {
			buf[o_len++] = first ? '?' : '&';
			memcpy(buf + o_len, p, n);
			o_len += n;
			first = 0;
		}
		p += n;
		if (*p == '&')
			p++;
	}
	buf[o_len] = '\0';
	return LQ_OK;
}

/* Hide any form of a password the DSN holds from a libpq message; uri is
 * the DSN as handed to libpq (without leaseq's options). */
static void hide_passwords(char *msg, size_t size, const char *dsn, const char *uri)
{
	char dec[256], red[512];
	const char *p = strstr(dsn, "://");

	/* libpq may quote the whole URI back (a syntax error). */
	lq_dsn_redact(uri, red, sizeof(red));
	replace(msg, size, uri, red);

	/* URI user info: scheme://user:password@host */
	if (p) {
		p += 3;
		size_t n = strcspn(p, "@/");
		const char *colon = memchr(p, ':', n);
		if (p[n] == '@' && colon) {
			size_t plen = (size_t)(p + n - colon - 1);
			char raw[256];
			if (plen > 0 && plen < sizeof(raw)) {
				memcpy(raw, colon + 1, plen);
				raw[plen] = '\0';
				pct_decode(raw, plen, dec, sizeof(dec));
				hide(msg, size, raw);
				hide(msg, size, dec);
			}
		}
	}
	/* password= as a URI query option or a key=value conninfo word */
	for (const char *s = dsn; (s = strstr(s, "password=")) != NULL; s += 9) {
		const char *v = s + 9;
		size_t n = strcspn(v, "& '");
		char raw[256];
		if (n > 0 && n < sizeof(raw)) {
			memcpy(raw, v, n);
			raw[n] = '\0';
			pct_decode(raw, n, dec, sizeof(dec));
			hide(msg, size, raw);
			hide(msg, size, dec);
		}
	}
	/* and whatever libpq itself makes of it */
	PQconninfoOption *opts = PQconninfoParse(dsn, NULL);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val)
			hide(msg, size, o->val);
	PQconninfoFree(opts);
}

/* Notices are not for stderr ("relation already exists, skipping").  An
 * error that arrives between queries comes here too: when it is FATAL, the
 * server is about to close the connection. */
static void quiet_notices(void *arg, const PGresult *r)
{
	struct lq_conn *c = arg;
	const char *sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
	if (sev && strcmp(sev, "WARNING") == 0)
		c->warned = 1;
	if (sev && (strcmp(sev, "FATAL") == 0 || strcmp(sev, "PANIC") == 0)) {
		const char *prim = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
		c->farewell = 1;
		snprintf(c->farewell_msg, sizeof(c->farewell_msg), "%s:  %s", sev, prim ? prim : "connection closed");
	}
}

/* Set a session setting; origin says where it came from, for the error
 * ("from the DSN"). */
static lq_status set_option(struct lq_conn *c, const char *name, const char *value, const char *origin,
			    lq_err *err)
{
	const char *vals[2] = {name, value};
	struct pg_call k;
	lq_status st;

	call_start(c, &k, 0);
	st = finish_call(c, &k, PQsendQueryParams(c->pg, "SELECT set_config($1, $2, false)", 2, NULL, vals,
						   NULL, NULL, 0),
			 NULL, NULL, err);
	if (st != LQ_OK) {
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "%s %s: ", name, origin);
		err_prefix(err, prefix);
		if (st == LQ_ERROR)
			st = LQ_EINVAL; /* e.g. out of range: a bad DSN */
	}
	return st;
}

/* The DSN copy holds the password: don't leave it in freed memory. */
static void free_secret(char *s)
{
	if (s) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

/* Say something for the log once per connection. */
static void note_once(struct lq_conn *c, int which, const char *text)
{
	if ((c->noted & which) || c->note[0]) /* the pending one first */
		return;
	c->noted |= which;
	snprintf(c->note, sizeof(c->note), "%s", text);
}

/*
 * A pooler answers the startup itself: the backend key it hands out is its
 * own (PgBouncer's is random), so the process id it names is not the
 * server's pg_backend_pid().  Directly connected, they are the same.
 */
static lq_status detect_pooler(struct lq_conn *c, lq_err *err)
{
	struct pg_call k;
	PGresult *r;
	lq_status st = LQ_OK;
	long pid = -1;

	c->detect = 0;
	call_start(c, &k, 0);
	k.autocommit = 0; /* reads only */
	if (!PQsendQueryParams(c->pg, "SELECT pg_backend_pid()", 0, NULL, NULL, NULL, NULL, 0)) {
		st = pg_fail(c, NULL, 0, err);
		return st == LQ_ERROR ? LQ_ECONN : st;
	}
	while ((r = next_result(c, &k)) != NULL) {
		if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
			pid = strtol(PQgetvalue(r, 0, 0), NULL, 10);
		else if (PQresultStatus(r) != PGRES_TUPLES_OK && st == LQ_OK)
			st = pg_fail(c, r, 0, err);
		PQclear(r);
	}
	st = call_end(c, &k, st, err);
	if (st == LQ__RETRY)
		st = LQ_ECONN;
	if (st == LQ_OK && pid != (long)PQbackendPID(c->pg)) {
		c->pooled = 1;
		c->unnamed = 1;
		note_once(c, LQ_NOTE_UNNAMED, "a connection pooler answers for the server (its backend key "
			  "is not the server's): statements go unnamed and enqueue wake-ups are off, idle "
			  "workers poll; add ?pooler=transaction to the DSN to say so, or ?pooler=session "
			  "if it pools sessions");
	}
	return st;
}

static void pg_disconnect(struct lq_conn *c)
{
	if (!c)
		return;
	if (c->cancel)
		PQfreeCancel(c->cancel);
	PQfinish(c->pg);
	free(c);
}

static lq_status pg_connect(const char *dsn, unsigned flags, struct lq_conn **out, lq_err *err)
{
	(void)flags; /* LQ_OPEN_*: about SQLite's file; the server's grants decide here */
	struct pg_opts opts;
	char *uri = NULL;
	char *perr = NULL;
	lq_status st;

	*out = NULL;
	st = strip_options(dsn, &uri, &opts, err);
	if (st != LQ_OK)
		return st;

	/* A DSN libpq cannot parse is bad input, not an unreachable server. */
	PQconninfoOption *parsed = PQconninfoParse(uri, &perr);
	if (!parsed) {
		if (perr) {
			one_line(err->msg, sizeof(err->msg), perr);
			hide_passwords(err->msg, sizeof(err->msg), dsn, uri);
			PQfreemem(perr);
			st = LQ_EINVAL;
		} else {
			lq__err_set(err, "out of memory");
			st = LQ_ENOMEM;
		}
		free_secret(uri);
		return st;
	}
	PQconninfoFree(parsed);

	struct lq_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		free_secret(uri);
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}

	/* Defaults first: the DSN (expanded in place of dbname) overrides them. */
	const char *kw[5], *val[5];
	int n = 0;
	if (!getenv("PGCONNECT_TIMEOUT")) {
		kw[n] = "connect_timeout";
		val[n++] = PG_CONNECT_TIMEOUT;
	}
	kw[n] = "fallback_application_name";
	val[n++] = "leaseq";
	kw[n] = "client_encoding";
	val[n++] = "UTF8";
	kw[n] = "dbname";
	val[n++] = uri;
	kw[n] = NULL;
	val[n] = NULL;

	c->pg = PQconnectdbParams(kw, val, 1);
	if (!c->pg) {
		free_secret(uri);
		free(c);
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	if (PQstatus(c->pg) != CONNECTION_OK) {
		one_line(err->msg, sizeof(err->msg), PQerrorMessage(c->pg));
		if (!err->msg[0])
			lq__err_set(err, "could not connect to the server");
		hide_passwords(err->msg, sizeof(err->msg), dsn, uri);
		free_secret(uri);
		pg_disconnect(c);
		return LQ_ECONN;
	}
	free_secret(uri);
	PQsetNoticeReceiver(c->pg, quiet_notices, c);
	/* Every wait is ours to bound: non-blocking, with a cancel handle. */
	c->deadline_ms = opts.deadline_ms;
	c->quiet = opts.quiet;
	c->cancel = PQgetCancel(c->pg);
	if (!c->cancel || PQsetnonblocking(c->pg, 1) != 0) {
		lq__err_set(err, "out of memory");
		pg_disconnect(c);
		return LQ_ENOMEM;
	}

	st = LQ_OK;
	/* auto: found out before the first statement that needs a session
	 * (a connect stays one round trip shorter) */
	c->detect = opts.pooler == PG_POOLER_AUTO;
	c->pooled = opts.pooler == PG_POOLER_TRANSACTION;
	c->unnamed = c->pooled;
	if (st == LQ_OK && c->detect && (opts.lock_timeout[0] || opts.statement_timeout[0]))
		st = detect_pooler(c, err);
	if (st == LQ_OK && c->pooled && opts.lock_timeout[0]) {
		/* A SET would stay on a server connection other clients get next. */
		lq__err_set(err, "lock_timeout from the DSN cannot be set behind a transaction pooler "
			    "(the setting would outlive the transaction): set it for the role "
			    "(ALTER ROLE ... SET lock_timeout) instead");
		st = LQ_EINVAL;
	}
	/* Behind a pooler statement_timeout bounds our own wait only (a cancel
	 * goes through the pooler); the server is not told. */
	if (st == LQ_OK && opts.statement_timeout[0] && !c->pooled)
		st = set_option(c, "statement_timeout", opts.statement_timeout, "from the DSN", err);
	if (st == LQ_OK && opts.lock_timeout[0])
		st = set_option(c, "lock_timeout", opts.lock_timeout, "from the DSN", err);
	if (st != LQ_OK) {
		if (st == LQ__RETRY)
			st = LQ_ECONN;
		pg_disconnect(c);
		return st;
	}
	*out = c;
	return LQ_OK;
}

/* ------------------------------------------------------------ statements */

static int64_t be_int(const unsigned char *p, int n)
{
	uint64_t v = (p[0] & 0x80) ? UINT64_MAX : 0; /* sign-extend */

	for (int i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return (int64_t)v;
}

/* One binary result column into an lq_value; -1 for a type we do not read. */
static int column(const PGresult *r, int row, int col, lq_value *v)
{
	const char *s = PQgetvalue(r, row, col);
	int len = PQgetlength(r, row, col);
	const unsigned char *u = (const unsigned char *)s;

	*v = lq_v_null();
	if (PQgetisnull(r, row, col))
		return 0;
	switch (PQftype(r, col)) {
	case PG_INT8OID:
	case PG_INT4OID:
	case PG_INT2OID:
		if (len != 8 && len != 4 && len != 2)
			return -1;
		*v = lq_v_int(be_int(u, len));
		return 0;
	case PG_OIDOID:
		if (len != 4)
			return -1;
		*v = lq_v_int((int64_t)(((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) |
					((uint32_t)u[2] << 8) | u[3]));
		return 0;
	case PG_BOOLOID:
		if (len != 1)
			return -1;
		*v = lq_v_int(u[0] != 0);
		return 0;
	case PG_TEXTOID:
	case PG_VARCHAROID:
	case PG_BPCHAROID:
	case PG_NAMEOID:
	case PG_CHAROID:
	case PG_UNKNOWNOID:
		/* libpq puts a NUL after every value, binary ones too */
		v->type = LQ_V_TEXT;
		v->s = s;
		v->len = (size_t)len;
		return 0;
	case PG_BYTEAOID:
		*v = lq_v_blob(s, (size_t)len);
		return 0;
	case PG_VOIDOID:
		return 0;
	default:
		return -1;
	}
}

/* Hand each row of r to fn; 1 when fn asked to stop, -1 on a bad column. */
static int deliver(const PGresult *r, lq_sql_id id, lq_row_fn fn, void *ctx, lq_err *err)
{
	lq_value cols[PG_MAX_COLS];
	int ncols = PQnfields(r);

	if (ncols > PG_MAX_COLS) {
		lq__err_set(err, "statement %s returns %d columns, more than %d", lq__sql_name(id),
			    ncols, PG_MAX_COLS);
		return -1;
	}
	for (int row = 0; row < PQntuples(r); row++) {
		for (int i = 0; i < ncols; i++) {
			if (column(r, row, i, &cols[i]) != 0) {
				lq__err_set(err, "statement %s: column %d has type OID %u, which "
					    "leaseq does not read (cast it to bigint or text)",
					    lq__sql_name(id), i + 1, (unsigned)PQftype(r, i));
				return -1;
			}
		}
		if (fn(ctx, cols, ncols) != 0)
			return 1;
	}
	return 0;
}

/* Statement name "lq<id>" on the server. */
static void stmt_name(lq_sql_id id, char *buf, size_t size)
{
	snprintf(buf, size, "lq%d", (int)id);
}

/* leaseq's statements are short OLTP ones, but a claim's generic plan can
 * be costed above jit_above_cost, and then every call compiled it (~55 ms
 * for a batch claim of a few ms).  A connection that keeps a session (it
 * prepares statements: no transaction pooler) turns JIT off once, outside
 * any transaction (a rollback would undo it).  Behind a pooler, the role's
 * setting rules (ALTER ROLE ... SET jit = off). */
static lq_status session_jit_off(struct lq_conn *c, lq_err *err)
{
	if (c->jit_off || PQtransactionStatus(c->pg) != PQTRANS_IDLE)
		return LQ_OK;
	lq_status st = set_option(c, "jit", "off", "off for the session", err);
	if (st == LQ_EINVAL)
		st = LQ_OK; /* a server without the setting: nothing to turn off */
	c->jit_off = st == LQ_OK;
	return st;
}

static lq_status prepare(struct lq_conn *c, lq_sql_id id, lq_err *err)
{
	char name[16], state[6] = "";
	struct pg_call k;
	lq_status st;

	stmt_name(id, name, sizeof(name));
	call_start(c, &k, 0);
	k.autocommit = 0; /* PREPARE commits nothing */
	st = finish_call(c, &k, PQsendPrepare(c->pg, name, lq__sql_postgres[id], 0, NULL), state, NULL, err);
	if (st == LQ_OK) {
		c->prepared[id] = 1;
	} else if (sqlstate_is(state, "42P05")) {
		/* Already there (we lost track): use it.  Inside a transaction the
		 * error aborted it, so have the core run it again. */
		c->prepared[id] = 1;
		st = LQ_OK;
		if (PQtransactionStatus(c->pg) != PQTRANS_IDLE) {
			lq__err_set(err, "statement %s was already prepared", lq__sql_name(id));
			st = LQ__RETRY;
		}
	} else if (st == LQ_ERROR) {
		char prefix[80];
		snprintf(prefix, sizeof(prefix), "statement %s: ", lq__sql_name(id));
		err_prefix(err, prefix);
	}
	return st;
}

/* The results of the BEGIN a pipeline sent first, to its end. */
static lq_status begin_result(struct lq_conn *c, struct pg_call *k, lq_err *err)
{
	PGresult *r;
	lq_status st = LQ_OK;
	while ((r = next_result(c, k)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && st == LQ_OK)
			st = pg_fail(c, r, 0, err);
		PQclear(r);
	}
	return st;
}

/* A pipeline's end: its sync, then out of pipeline mode; a connection that
 * cannot get there is given up. */
static void pipeline_end(struct lq_conn *c, struct pg_call *k)
{
	PGresult *r;
	while ((r = next_result(c, k)) != NULL) {
		ExecStatusType t = PQresultStatus(r);
		PQclear(r);
		if (t == PGRES_PIPELINE_SYNC)
			break;
	}
	if (k->lost || k->gave_up || PQexitPipelineMode(c->pg) != 1)
		c->broken = 1;
}

/* Execute prepared statement id; *gone set when the server lost it (26000). */
static lq_status run(struct lq_conn *c, lq_sql_id id, const char *const *values,
		     const int *lengths, const int *formats, int nparams, lq_row_fn fn, void *ctx,
		     int64_t *affected, int *gone, lq_err *err)
{
	char name[16];
	PGresult *r;
	lq_status st = LQ_OK;
	int stopped = 0, failed = 0;
	struct pg_call k;

	*gone = 0;
	stmt_name(id, name, sizeof(name));
	/* A transaction's BEGIN and its first statement in one round trip;
	 * through a pooler (unnamed statements) BEGIN goes apart. */
	int with_begin = c->begin_pending && !c->unnamed && PQenterPipelineMode(c->pg) == 1;
	if (c->begin_pending && !with_begin && (st = flush_begin(c, err)) != LQ_OK)
		return st;
	c->begin_pending = 0;
	call_start(c, &k, 0);
	if (with_begin)
		k.autocommit = 0;
	err->sent = 1;
	/* Unnamed: parse, bind and execute in one message, no state kept. */
	if ((with_begin && !PQsendQueryParams(c->pg, "BEGIN", 0, NULL, NULL, NULL, NULL, 0)) ||
	    !(c->unnamed ? PQsendQueryParams(c->pg, lq__sql_postgres[id], nparams, NULL, values, lengths,
					     formats, 1)
			 : PQsendQueryPrepared(c->pg, name, nparams, values, lengths, formats, 1)) ||
	    (with_begin && !PQpipelineSync(c->pg))) {
		st = pg_fail(c, NULL, 0, err);
		c->broken |= with_begin; /* a pipeline half sent */
		return st == LQ_ERROR ? LQ_ECONN : st;
	}
	if (with_begin && (st = begin_result(c, &k, err)) != LQ_OK)
		failed = 1; /* the statement comes back aborted */
	PQsetSingleRowMode(c->pg);
	/* Read to the end even after fn stopped or a column failed: the
	 * connection must be idle for the next statement. */
	while ((r = next_result(c, &k)) != NULL) {
		switch (PQresultStatus(r)) {
		case PGRES_SINGLE_TUPLE:
		case PGRES_TUPLES_OK:
			if (fn && !stopped && !failed) {
				int d = deliver(r, id, fn, ctx, err);
				if (d < 0) {
					failed = 1;
					st = LQ_ERROR;
				} else if (d > 0) {
					stopped = 1;
				}
			}
			if (PQresultStatus(r) == PGRES_TUPLES_OK && affected && !failed)
				*affected = strtoll(PQcmdTuples(r), NULL, 10);
			break;
		case PGRES_COMMAND_OK:
			if (affected)
				*affected = strtoll(PQcmdTuples(r), NULL, 10);
			break;
		default:
			if (!failed) {
				failed = 1;
				*gone = sqlstate_is(PQresultErrorField(r, PG_DIAG_SQLSTATE), "26000");
				st = pg_fail(c, r, 0, err);
			}
			break;
		}
		PQclear(r);
	}
	if (with_begin)
		pipeline_end(c, &k);
	if (!failed && !k.lost && !k.gave_up && PQstatus(c->pg) == CONNECTION_BAD)
		st = pg_fail(c, NULL, 0, err);
	return call_end(c, &k, st, err);
}

/* Between transactions, a connection the server has ended
 * (pg_terminate_backend, a restart, idle_session_timeout) has its goodbye
 * waiting on the socket.  Read it before sending, so that a statement that
 * fails here is known never to have run. */
static int idle_conn_dead(struct lq_conn *c)
{
	if (PQtransactionStatus(c->pg) != PQTRANS_IDLE)
		return 0;
	/* The server's FATAL message and its end of stream may come in
	 * separate reads; a NOTIFY also makes the socket readable (it stays
	 * queued for PQnotifies). */
	for (int reads = 0; reads < 4; reads++) {
		struct pollfd p = {PQsocket(c->pg), POLLIN, 0};
		if (p.fd < 0)
			return 1;
		if (poll(&p, 1, 0) <= 0)
			return 0;
		if (!PQconsumeInput(c->pg))
			return 1;
		(void)PQisBusy(c->pg); /* parses what came: a FATAL reaches quiet_notices */
		if (PQstatus(c->pg) != CONNECTION_OK || c->farewell)
			return 1;
	}
	return 0;
}

static lq_status pg_exec(struct lq_conn *c, lq_sql_id id, const lq_value *params, int nparams,
			 lq_row_fn fn, void *ctx, int64_t *affected, lq_err *err)
{
	const char *values[PG_MAX_PARAMS];
	int lengths[PG_MAX_PARAMS], formats[PG_MAX_PARAMS];
	char ints[PG_MAX_PARAMS][24];
	lq_status st;
	int gone;

	if (affected)
		*affected = 0;
	/* NOTIFY takes a database-wide lock from its commit to the end of the
	 * transaction, serialising concurrent enqueuers: ?notify=off trades the
	 * workers' wake-ups (they poll instead) for that. */
	if (id == LQ_SQL_task_insert_notify && c->quiet)
		id = LQ_SQL_task_insert; /* it returns the id too (sql/postgres/task.sql) */
	if (id == LQ_SQL_task_insert_many_notify && c->quiet)
		id = LQ_SQL_task_insert_many;
	if (id == LQ_SQL_task_insert_many_same_notify && c->quiet)
		id = LQ_SQL_task_insert_many_same;
	if (id == LQ_SQL_lease_release_notify && c->quiet)
		id = LQ_SQL_lease_release; /* affected rows as the row count */
	if (id == LQ_SQL_lease_wait_mark && c->quiet)
		return LQ_OK; /* nobody will be woken: no mark to leave */
	if ((int)id < 0 || id >= LQ_SQL__COUNT || !lq__sql_postgres[id]) {
		lq__err_set(err, "statement %d is not defined for postgres", (int)id);
		return LQ_ERROR;
	}
	if (nparams < 0 || nparams > PG_MAX_PARAMS) {
		lq__err_set(err, "statement %s: %d parameters, at most %d", lq__sql_name(id),
			    nparams, PG_MAX_PARAMS);
		return LQ_ERROR;
	}
	err->sent = 0;
	if (!conn_ok(c) || idle_conn_dead(c)) {
		one_line(err->msg, sizeof(err->msg),
			 c->farewell ? c->farewell_msg
				     : *PQerrorMessage(c->pg) ? PQerrorMessage(c->pg) : "connection lost");
		return LQ_ECONN;
	}
	for (int i = 0; i < nparams; i++) {
		const lq_value *v = &params[i];
		lengths[i] = 0;
		formats[i] = 0;
		switch (v->type) {
		case LQ_V_INT:
			snprintf(ints[i], sizeof(ints[i]), "%" PRId64, v->i);
			values[i] = ints[i];
			break;
		case LQ_V_TEXT:
			values[i] = v->s; /* NUL-terminated; NULL s is SQL NULL */
			break;
		case LQ_V_BLOB:
			if (v->len > INT_MAX) {
				lq__err_set(err, "statement %s: parameter %d is too large",
					    lq__sql_name(id), i + 1);
				return LQ_ERROR;
			}
			values[i] = v->s ? v->s : ""; /* an empty blob is not NULL */
			lengths[i] = (int)v->len;
			formats[i] = 1;
			break;
		default:
			values[i] = NULL;
			break;
		}
	}

	for (int attempt = 0;; attempt++) {
		if (c->detect && !c->prepared[id]) {
			st = detect_pooler(c, err);
			if (st != LQ_OK)
				return st;
		}
		if (!c->unnamed && !c->prepared[id]) {
			st = session_jit_off(c, err);
			if (st == LQ_OK)
				st = prepare(c, id, err);
			if (st != LQ_OK)
				return st;
		}
		st = run(c, id, values, lengths, formats, nparams, fn, ctx, affected, &gone, err);
		if (!gone || c->unnamed)
			return st;
		/* The server connection we prepared on is not the one that ran
		 * the statement (a transaction pooler): from now on this
		 * connection keeps nothing on the server.  Inside a transaction
		 * the error aborted it: the core retries the whole transaction. */
		c->prepared[id] = 0;
		c->unnamed = 1;
		c->pooled = 1;
		note_once(c, LQ_NOTE_UNNAMED, "a prepared statement disappeared from the server "
			  "connection (a transaction pooler such as PgBouncer?): this connection now "
			  "sends unnamed statements and enqueue wake-ups are off, idle workers poll; "
			  "add ?pooler=transaction to the DSN");
		if (attempt > 0)
			return st;
		if (PQtransactionStatus(c->pg) != PQTRANS_IDLE)
			return LQ__RETRY;
	}
}

static lq_status pg_exec_script(struct lq_conn *c, const char *sql, lq_err *err)
{
	if (!conn_ok(c)) {
		lq__err_set(err, "connection lost");
		return LQ_ECONN;
	}
	lq_status st = flush_begin(c, err);
	if (st != LQ_OK)
		return st;
	/* The simple protocol runs every statement of the string, stopping at
	 * the first error; without BEGIN they form one transaction. */
	return pg_command(c, sql, 0, NULL, err);
}

/* ------------------------------------------------------------ transactions */

static lq_status pg_begin(struct lq_conn *c, int write, lq_err *err)
{
	(void)write; /* READ COMMITTED; row locks and conditional writes do the rest */
	if (!conn_ok(c)) {
		lq__err_set(err, "connection lost");
		return LQ_ECONN;
	}
	/* Sent with the first statement (run), one round trip fewer. */
	c->begin_pending = 1;
	err->extra_trips--;
	return LQ_OK;
}

static lq_status pg_commit(struct lq_conn *c, lq_err *err)
{
	char cmd[16] = "";
	lq_status st;

	if (c->begin_pending) { /* no statement: nothing began */
		c->begin_pending = 0;
		err->extra_trips--;
		return LQ_OK;
	}
	if (!conn_ok(c)) {
		/* COMMIT never left: the server rolls the transaction back. */
		lq__err_set(err, "connection lost before COMMIT");
		return LQ_ECONN;
	}
	st = pg_command(c, "COMMIT", 1, cmd, err);
	if (st == LQ_OK && strcmp(cmd, "ROLLBACK") == 0) {
		/* COMMIT of a failed transaction answers ROLLBACK, not an error. */
		lq__err_set(err, "COMMIT rolled back: the transaction had failed");
		st = LQ_ERROR;
	}
	return st;
}

static lq_status pg_rollback(struct lq_conn *c, lq_err *err)
{
	if (c->begin_pending) {
		c->begin_pending = 0;
		err->extra_trips--;
		return LQ_OK;
	}
	if (!conn_ok(c)) {
		lq__err_set(err, "connection lost");
		return LQ_ECONN;
	}
	return pg_command(c, "ROLLBACK", 0, NULL, err);
}

/* ------------------------------------------------------------ LISTEN/NOTIFY */

static lq_status check_channel(const char *channel, lq_err *err)
{
	size_t n = channel ? strlen(channel) : 0;

	if (n == 0 || n > PG_CHANNEL_MAX) {
		lq__err_set(err, "notification channel name must be 1 to %d bytes", PG_CHANNEL_MAX);
		return LQ_ERROR;
	}
	return LQ_OK;
}

static lq_status pg_notify(struct lq_conn *c, const char *channel, lq_err *err)
{
	const char *vals[1] = {channel};
	lq_status st = check_channel(channel, err);

	if (st != LQ_OK || c->quiet)
		return st;
	if (!conn_ok(c)) {
		lq__err_set(err, "connection lost");
		return LQ_ECONN;
	}
	if ((st = flush_begin(c, err)) != LQ_OK) /* inside a transaction it goes at the commit */
		return st;
	struct pg_call k;
	call_start(c, &k, 0);
	k.autocommit = 0; /* a notification is best effort: nothing to re-read */
	return finish_call(c, &k, PQsendQueryParams(c->pg, "SELECT pg_notify($1, '')", 1, NULL, vals, NULL, NULL, 0),
			   NULL, NULL, err);
}

/* Move notifications libpq has read into the channels' pending flags. */
static void drain(struct lq_conn *c)
{
	PGnotify *n;

	while ((n = PQnotifies(c->pg)) != NULL) {
		for (int i = 0; i < c->nchannels; i++)
			if (strcmp(c->channels[i].name, n->relname) == 0)
				c->channels[i].pending = 1;
		PQfreemem(n);
	}
}

static lq_status listen_on(struct lq_conn *c, const char *channel, struct pg_channel **out,
			   lq_err *err)
{
	for (int i = 0; i < c->nchannels; i++) {
		if (strcmp(c->channels[i].name, channel) == 0) {
			*out = &c->channels[i];
			return LQ_OK;
		}
	}
	if (c->nchannels == PG_MAX_CHANNELS) {
		lq__err_set(err, "too many notification channels (at most %d)", PG_MAX_CHANNELS);
		return LQ_ERROR;
	}

	/* The channel is an identifier: quote it, never paste it. */
	char *ident = PQescapeIdentifier(c->pg, channel, strlen(channel));
	if (!ident)
		return pg_fail(c, NULL, 0, err);
	size_t n = strlen(ident) + sizeof("LISTEN ");
	char *sql = malloc(n);
	lq_status st;
	if (!sql) {
		PQfreemem(ident);
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	snprintf(sql, n, "LISTEN %s", ident);
	PQfreemem(ident);
	st = pg_command(c, sql, 0, NULL, err);
	free(sql);
	if (st != LQ_OK)
		return st;

	struct pg_channel *ch = &c->channels[c->nchannels++];
	snprintf(ch->name, sizeof(ch->name), "%s", channel);
	ch->pending = 0;
	*out = ch;
	return LQ_OK;
}

static lq_status pg_wait_notify(struct lq_conn *c, const char *channel, int64_t timeout_ms,
				lq_err *err)
{
	struct pg_channel *ch = NULL;
	lq_status st = check_channel(channel, err);

	if (st != LQ_OK)
		return st;
	if (!conn_ok(c)) {
		lq__err_set(err, "connection lost");
		return LQ_ECONN;
	}
	if (c->detect && (st = detect_pooler(c, err)) != LQ_OK)
		return st;
	if (c->pooled) {
		/* LISTEN would stay on a server connection we may never see
		 * again: the caller sleeps and polls instead. */
		note_once(c, LQ_NOTE_POLL, "behind a transaction pooler there are no wake-ups on "
			  "enqueue (LISTEN needs a session): idle workers poll the queue");
		lq__err_set(err, "no LISTEN behind a transaction pooler");
		return LQ_ERROR;
	}
	st = listen_on(c, channel, &ch, err);
	if (st != LQ_OK)
		return st;

	int64_t deadline = lq__mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		/* Notifications read with earlier results are already queued. */
		if (!PQconsumeInput(c->pg) || PQstatus(c->pg) == CONNECTION_BAD)
			return pg_fail(c, NULL, 0, err);
		drain(c);
		if (ch->pending) {
			ch->pending = 0;
			return LQ_OK;
		}
		int64_t left = deadline - lq__mono_ms();
		if (left <= 0)
			return LQ_ETIMEDOUT;

		struct pollfd p = {.fd = PQsocket(c->pg), .events = POLLIN};
		if (p.fd < 0)
			return pg_fail(c, NULL, 0, err);
		int n = poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (n < 0) {
			if (errno == EINTR)
				return LQ_ETIMEDOUT; /* a signal: let the caller look at it */
			lq__err_set(err, "poll: %s", strerror(errno));
			return LQ_ERROR;
		}
	}
}

static void pg_set_stop(struct lq_conn *c, const volatile sig_atomic_t *stop)
{
	c->stop = stop;
}

/* ------------------------------------------------------------ borrowed */

/* The application's PGconn, as it is: no session settings and no notice
 * receiver of ours (it would outlive the handle).  Statements an earlier
 * handle prepared on it are still there: read which, so that none is
 * prepared twice (that error would abort the application's transaction). */
static lq_status pg_adopt(void *native, struct lq_conn **out, lq_err *err)
{
	PGconn *pg = native;
	if (PQstatus(pg) != CONNECTION_OK) {
		lq__err_set(err, "the connection is not open");
		return LQ_ECONN;
	}
	if (PQtransactionStatus(pg) == PQTRANS_ACTIVE) {
		lq__err_set(err, "a command is in progress on the connection");
		return LQ_EINVAL;
	}
	struct lq_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	c->pg = pg;
	c->deadline_ms = LQ_STATEMENT_TIMEOUT_MS;
	PGresult *r = PQexec(pg, "SELECT name FROM pg_prepared_statements WHERE name ~ '^lq[0-9]+$'");
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		one_line(err->msg, sizeof(err->msg), PQerrorMessage(pg));
		err_prefix(err, "reading the prepared statements: ");
		PQclear(r);
		free(c);
		return LQ_ERROR;
	}
	for (int i = 0; i < PQntuples(r); i++) {
		long id = strtol(PQgetvalue(r, i, 0) + 2, NULL, 10);
		if (id >= 0 && id < LQ_SQL__COUNT)
			c->prepared[id] = 1;
	}
	PQclear(r);
	c->app_nonblocking = PQisnonblocking(pg);
	c->cancel = PQgetCancel(pg);
	if (!c->cancel || PQsetnonblocking(pg, 1) != 0) {
		if (c->cancel)
			PQfreeCancel(c->cancel);
		free(c);
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	*out = c;
	return LQ_OK;
}

/* The prepared statements stay for the next handle on this connection. */
static void pg_release(struct lq_conn *c)
{
	if (!c)
		return;
	if (c->cancel)
		PQfreeCancel(c->cancel);
	(void)PQsetnonblocking(c->pg, c->app_nonblocking);
	free(c);
}

static int pg_app_tx(struct lq_conn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(c->pg);
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

static const char *pg_notice(struct lq_conn *c)
{
	if (!c->note[0])
		return NULL;
	/* The caller copies it before the next call: hand it over once. */
	memcpy(c->note_out, c->note, sizeof(c->note));
	c->note[0] = '\0';
	return c->note_out;
}

/* ------------------------------------------------------------ the vtable */

const struct lq_backend lq__backend_postgres = {
	.version = LQ_BACKEND_VERSION,
	.name = "postgres",
	.caps = LQ_CAP_SKIP_LOCKED | LQ_CAP_NOTIFY | LQ_CAP_CLAIM_RETURNING | LQ_CAP_ONE_STATEMENT_ADD |
		LQ_CAP_ONE_STATEMENT_ACK | LQ_CAP_ONE_STATEMENT_ACK_CLAIM | LQ_CAP_ADD_TOUCHES_PART,
	.sql = lq__sql_postgres,
	.migrations = lq__migrations_postgres,
	.n_migrations = &lq__migrations_postgres_count,
	.connect = pg_connect,
	.disconnect = pg_disconnect,
	.exec = pg_exec,
	.exec_script = pg_exec_script,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.notify = pg_notify,
	.wait_notify = pg_wait_notify,
	.set_stop = pg_set_stop,
	.adopt = pg_adopt,
	.release = pg_release,
	.app_tx = pg_app_tx,
	.notice = pg_notice,
};
