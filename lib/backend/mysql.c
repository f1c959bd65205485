/*
 * backend/mysql.c - the MySQL/MariaDB dialect on the MySQL C API
 * (libmariadb or libmysqlclient).
 *
 * Statements are server-side prepared once per connection and cached.  The
 * SQL files number their placeholders (?1 ?2 ..., repeated or out of order);
 * at prepare time each ?N becomes a plain ? and we remember which parameter
 * feeds each position.  Results are stored client side (so the connection is
 * free again when the row callback runs) and fetched into buffers that grow.
 *
 * Semantics the SQL files rely on:
 *   - CLIENT_FOUND_ROWS: affected rows are matched rows.
 *   - ER_DUP_ENTRY is LQ_OK with 0 affected rows: a plain INSERT is
 *     "INSERT ... ON CONFLICT DO NOTHING" (InnoDB rolls back only the
 *     failing statement).
 *   - Strict sql_mode, time_zone +00:00, READ COMMITTED, autocommit.
 */
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <mysql.h>

/* MariaDB Connector/C (Debian's default-libmysqlclient-dev) has a
 * non-blocking API: every wait for the server is then our poll(), bounded
 * by the deadline and the stop flag.  With MySQL's libmysqlclient the waits
 * are bounded by the read timeout and the server's timeouts only. */
#if defined(MARIADB_PACKAGE_VERSION_ID) && defined(MYSQL_WAIT_READ)
#define MY_NONBLOCK 1
#endif

#include "backend.h"

/* MySQL 8's client library dropped my_bool for bool. */
#if defined(MARIADB_PACKAGE_VERSION_ID) || !defined(MYSQL_VERSION_ID) || MYSQL_VERSION_ID < 80000
typedef my_bool lq_mybool;
#else
typedef bool lq_mybool;
#endif

/* Server and client error numbers we act on (stable across MySQL and
 * MariaDB; spelled out because the MariaDB-only ones are missing from
 * MySQL's headers and vice versa). */
enum {
	MY_ER_CHECKREAD = 1020,         /* record changed since last read (snapshot isolation) */
	MY_ER_CON_COUNT = 1040,         /* too many connections */
	MY_ER_SERVER_SHUTDOWN = 1053,
	MY_ER_DUP_ENTRY = 1062,
	MY_ER_NET_FIRST = 1153,         /* ER_NET_PACKET_TOO_LARGE .. */
	MY_ER_NET_LAST = 1161,          /* .. ER_NET_WRITE_INTERRUPTED: the server hangs up */
	MY_ER_LOCK_WAIT_TIMEOUT = 1205,
	MY_ER_LOCK_DEADLOCK = 1213,
	MY_ER_UNKNOWN_STMT_HANDLER = 1243,
	MY_ER_DUP_ENTRY_WITH_KEY_NAME = 1586,
	MY_ER_XA_RBDEADLOCK = 1614,
	MY_ER_NEED_REPREPARE = 1615,
	MY_ER_QUERY_INTERRUPTED = 1317,
	MY_ER_STATEMENT_TIMEOUT = 1969, /* MariaDB max_statement_time */
	MY_ER_QUERY_TIMEOUT = 3024,     /* MySQL max_execution_time */
	MY_ER_CONNECTION_KILLED = 1927, /* MariaDB */
	MY_ER_CLIENT_INTERACTION_TIMEOUT = 4031, /* MySQL 8 */
	MY_CR_UNKNOWN_ERROR = 2000,
	MY_CR_OUT_OF_MEMORY = 2008,
	MY_CR_SERVER_GONE = 2006,       /* the request could not be written */
	MY_CR_COMMANDS_OUT_OF_SYNC = 2014,
	MY_CR_ERR_NET_READ = 5013,      /* libmariadb */
	MY_CR_ERR_NET_WRITE = 5014,
};

/* Timeouts in seconds.  The read timeout must outlast the longest wait the
 * server may make us do: GET_LOCK(.., 60) in migrate_lock, and the row-lock
 * wait, which we cap per session so it ends as a retryable error instead. */
#define MY_CONNECT_TIMEOUT 10
#define MY_READ_TIMEOUT 90
#define MY_WRITE_TIMEOUT 30
#define MY_LOCK_WAIT_TIMEOUT 20
/* The server's max_statement_time ends a statement at the deadline with a
 * clean error; the client gives it this long more before closing the socket. */
#define MY_SERVER_GRACE_MS 5000

/* Column buffers start small, grow to fit, and are given back after a
 * statement if a row made them big (payloads go up to 8 MiB). */
#define MY_COL_MIN 256
#define MY_COL_KEEP (1024 * 1024)

struct my_col {
	lq_vtype kind;
	char *buf;
	unsigned long cap;
	unsigned long len;
	int64_t i;
	lq_mybool is_null;
	lq_mybool error;
};

struct my_stmt {
	MYSQL_STMT *st;
	unsigned npos;       /* '?' positions in the prepared text */
	int *pos_param;      /* position -> index into params */
	int nneed;           /* highest ?N: parameters the caller must pass */
	MYSQL_BIND *pbind;   /* [npos] */
	unsigned long *plen; /* [npos] */
	int64_t *pint;       /* [npos] */
	unsigned ncap;       /* columns allocated below */
	MYSQL_BIND *rbind;
	struct my_col *cols;
	lq_value *vals;
};

struct lq_conn {
	MYSQL *my;
	int skip_locked; /* server knows FOR UPDATE SKIP LOCKED */
	int returning;   /* server knows INSERT ... RETURNING (MariaDB) */
	struct my_stmt *stmt[LQ_SQL__COUNT];
	int64_t deadline_ms; /* per statement, from ?statement_timeout= */
	const volatile sig_atomic_t *stop;
	int closed; /* a wait was given up and the socket shut: unusable */
	/* Transactions in a row run with autocommit off, so that each starts
	 * with its first statement instead of a START TRANSACTION round trip;
	 * a lone statement turns autocommit back on first (own sessions only:
	 * a borrowed one keeps the application's setting). */
	int own;    /* our session: its autocommit is ours to change */
	int ac_off; /* the session runs with autocommit = 0 */
	int in_tx;  /* between begin and commit or rollback */
	int lone;   /* the last call was a statement outside a transaction */
};

/* One call to the server: its bounds and whether we gave up waiting. */
struct my_call {
	lq_wait_state w;
	int why; /* LQ__WAIT_DEADLINE or LQ__WAIT_STOP: the socket was shut */
};

static void call_start(struct lq_conn *c, struct my_call *k)
{
	lq__wait_init(&k->w, c->deadline_ms + MY_SERVER_GRACE_MS, c->stop);
	k->why = 0;
}

#ifdef MY_NONBLOCK
/* Wait for what a non-blocking call asks for (status) and return what is
 * ready.  Past the deadline, or a stop request's grace, shut the socket: the
 * call then ends with a connection error, and the connection is spent. */
static int my_wait(struct lq_conn *c, struct my_call *k, int status)
{
	int fd = (int)mysql_get_socket(c->my);
	for (;;) {
		struct pollfd p = {fd, 0, 0};
		if (status & MYSQL_WAIT_READ)
			p.events |= POLLIN;
		if (status & MYSQL_WAIT_WRITE)
			p.events |= POLLOUT;
		if (status & MYSQL_WAIT_EXCEPT)
			p.events |= POLLPRI;
		if (fd < 0 || poll(&p, 1, LQ_BACKEND_SLICE_MS) > 0 || k->why) {
			int r = 0;
			if (p.revents & (POLLIN | POLLHUP | POLLERR))
				r |= MYSQL_WAIT_READ;
			if (p.revents & (POLLOUT | POLLHUP | POLLERR))
				r |= MYSQL_WAIT_WRITE;
			if (p.revents & POLLPRI)
				r |= MYSQL_WAIT_EXCEPT;
			r &= status;
			if (r || fd < 0 || k->why)
				return r ? r : status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE);
			continue;
		}
		int why = lq__wait_check(&k->w);
		if (why) {
			k->why = why;
			c->closed = 1;
			(void)shutdown(fd, SHUT_RDWR);
		}
	}
}

/* Run a non-blocking call pair to its end: start_call returns the first
 * status, cont_fn(retp, obj, ready) the next. */
#define MY_DRIVE(c, k, start_call, cont_fn, retp, obj)                        \
	do {                                                                  \
		int s_ = (start_call);                                        \
		while (s_)                                                    \
			s_ = cont_fn(retp, obj, my_wait(c, k, s_));           \
	} while (0)
#endif

static int x_stmt_prepare(struct lq_conn *c, struct my_call *k, MYSQL_STMT *st, const char *q, unsigned long n)
{
#ifdef MY_NONBLOCK
	int ret = 1;
	MY_DRIVE(c, k, mysql_stmt_prepare_start(&ret, st, q, n), mysql_stmt_prepare_cont, &ret, st);
	return ret;
#else
	(void)c, (void)k;
	return mysql_stmt_prepare(st, q, n);
#endif
}

static int x_stmt_execute(struct lq_conn *c, struct my_call *k, MYSQL_STMT *st)
{
#ifdef MY_NONBLOCK
	int ret = 1;
	MY_DRIVE(c, k, mysql_stmt_execute_start(&ret, st), mysql_stmt_execute_cont, &ret, st);
	return ret;
#else
	(void)c, (void)k;
	return mysql_stmt_execute(st);
#endif
}

static int x_stmt_store_result(struct lq_conn *c, struct my_call *k, MYSQL_STMT *st)
{
#ifdef MY_NONBLOCK
	int ret = 1;
	MY_DRIVE(c, k, mysql_stmt_store_result_start(&ret, st), mysql_stmt_store_result_cont, &ret, st);
	return ret;
#else
	(void)c, (void)k;
	return mysql_stmt_store_result(st);
#endif
}

static int x_stmt_fetch(struct lq_conn *c, struct my_call *k, MYSQL_STMT *st)
{
#ifdef MY_NONBLOCK
	int ret = 1;
	MY_DRIVE(c, k, mysql_stmt_fetch_start(&ret, st), mysql_stmt_fetch_cont, &ret, st);
	return ret;
#else
	(void)c, (void)k;
	return mysql_stmt_fetch(st);
#endif
}

static int x_real_query(struct lq_conn *c, struct my_call *k, const char *q, unsigned long n)
{
#ifdef MY_NONBLOCK
	int ret = 1;
	MY_DRIVE(c, k, mysql_real_query_start(&ret, c->my, q, n), mysql_real_query_cont, &ret, c->my);
	return ret;
#else
	(void)k;
	return mysql_real_query(c->my, q, n);
#endif
}

static MYSQL_RES *x_store_result(struct lq_conn *c, struct my_call *k)
{
#ifdef MY_NONBLOCK
	MYSQL_RES *ret = NULL;
	MY_DRIVE(c, k, mysql_store_result_start(&ret, c->my), mysql_store_result_cont, &ret, c->my);
	return ret;
#else
	(void)k;
	return mysql_store_result(c->my);
#endif
}

/* After a failed call: when we shut the socket, say why instead of "lost
 * connection".  Returns the status to use. */
static lq_status gave_up(struct my_call *k, lq_status st, int in_commit, lq_err *err)
{
	char why[64], text[sizeof(err->msg)];
	if (!k->why)
		return st;
	snprintf(text, sizeof(text), "%s", err->msg);
	lq__err_set(err, "%s: connection closed%s (%s)", lq__wait_why(k->why, &k->w, why, sizeof(why)),
		    in_commit ? ", outcome of COMMIT unknown" : "", text);
	return in_commit ? LQ_EUNKNOWN : LQ_ECONN;
}

/* ------------------------------------------------------------- errors */

static int is_conn_error(unsigned e)
{
	switch (e) {
	case MY_ER_CON_COUNT:
	case MY_ER_SERVER_SHUTDOWN:
	case MY_ER_CONNECTION_KILLED:
	case MY_ER_CLIENT_INTERACTION_TIMEOUT:
	case MY_CR_ERR_NET_READ:
	case MY_CR_ERR_NET_WRITE:
		return 1;
	}
	if (e >= MY_ER_NET_FIRST && e <= MY_ER_NET_LAST)
		return 1;
	if (e <= MY_CR_UNKNOWN_ERROR || e >= 3000)
		return 0;
	/* Client errors 2001..2999 are about the link, except these, which
	 * are about how the API was used. */
	switch (e) {
	case MY_CR_OUT_OF_MEMORY:
	case MY_CR_COMMANDS_OUT_OF_SYNC:
		return 0;
	}
	if ((e >= 2030 && e <= 2036) || (e >= 2050 && e <= 2054) || e == 2057)
		return 0;
	return 1;
}

static lq_status map_error(unsigned e, int in_commit)
{
	switch (e) {
	case MY_ER_LOCK_DEADLOCK:
	case MY_ER_LOCK_WAIT_TIMEOUT:
	case MY_ER_XA_RBDEADLOCK:
	case MY_ER_CHECKREAD:
		return LQ__RETRY;
	case MY_CR_OUT_OF_MEMORY:
		return LQ_ENOMEM;
	case MY_ER_STATEMENT_TIMEOUT:
	case MY_ER_QUERY_TIMEOUT:
	case MY_ER_QUERY_INTERRUPTED:
		return LQ_ETIMEDOUT;
	}
	if (is_conn_error(e))
		return in_commit ? LQ_EUNKNOWN : LQ_ECONN;
	return LQ_ERROR;
}

/* One line: the server's text may hold newlines. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

static lq_status set_error(lq_err *err, unsigned e, const char *text, const char *stmt, int in_commit)
{
	if (stmt)
		lq__err_set(err, "MySQL error %u: %s (statement %s)", e, text ? text : "", stmt);
	else
		lq__err_set(err, "MySQL error %u: %s", e, text ? text : "");
	one_line(err->msg);
	return map_error(e, in_commit);
}

static lq_status conn_error(struct lq_conn *c, lq_err *err, int in_commit)
{
	return set_error(err, mysql_errno(c->my), mysql_error(c->my), NULL, in_commit);
}

/* ------------------------------------------------------- statements */

static void stmt_free(struct my_stmt *s)
{
	if (!s)
		return;
	if (s->st)
		mysql_stmt_close(s->st);
	for (unsigned i = 0; i < s->ncap; i++)
		free(s->cols[i].buf);
	free(s->pos_param);
	free(s->pbind);
	free(s->plen);
	free(s->pint);
	free(s->rbind);
	free(s->cols);
	free(s->vals);
	free(s);
}

/* Copy sql[0..len) to out, turning each ?N outside quotes and comments into
 * ?, and record N-1 per position in map (sized for every '?' in the text).
 * A '?' without a number is refused: the SQL files always number them. */
static int rewrite_params(const char *sql, size_t len, char *out, int *map, unsigned *npos, int *nneed)
{
	size_t i = 0, o = 0;
	unsigned n = 0;
	int need = 0;
	while (i < len) {
		char ch = sql[i];
		if (ch == '\'' || ch == '"' || ch == '`') {
			/* Quoted: copy through the closing quote; '' and \x stay
			 * inside ("" and `` likewise). */
			out[o++] = sql[i++];
			while (i < len) {
				if (sql[i] == '\\' && ch != '`' && i + 1 < len) {
					out[o++] = sql[i++];
					out[o++] = sql[i++];
					continue;
				}
				out[o++] = sql[i];
				if (sql[i++] == ch)
					break;
			}
		} else if ((ch == '-' && i + 2 < len && sql[i + 1] == '-' &&
			    (sql[i + 2] == ' ' || sql[i + 2] == '\t')) || ch == '#') {
			while (i < len && sql[i] != '\n')
				out[o++] = sql[i++];
		} else if (ch == '/' && i + 1 < len && sql[i + 1] == '*') {
			out[o++] = sql[i++];
			out[o++] = sql[i++];
			while (i < len && !(sql[i] == '*' && i + 1 < len && sql[i + 1] == '/'))
				out[o++] = sql[i++];
			if (i < len) {
				out[o++] = sql[i++];
				out[o++] = sql[i++];
			}
		} else if (ch == '?') {
			long num = 0;
			size_t j = i + 1;
			while (j < len && sql[j] >= '0' && sql[j] <= '9' && num < 100000)
				num = num * 10 + (sql[j++] - '0');
			if (j == i + 1 || num < 1 || num > 9999)
				return -1;
			map[n++] = (int)num - 1;
			if (num > need)
				need = (int)num;
			out[o++] = '?';
			i = j;
		} else {
			out[o++] = sql[i++];
		}
	}
	out[o] = '\0';
	*npos = n;
	*nneed = need;
	return 0;
}

/* A copy of sql[0, *len) without its "FOR UPDATE SKIP LOCKED" clauses
 * (NULL: out of memory); *len becomes the copy's. */
static char *drop_skip_locked(const char *sql, size_t *len)
{
	static const char clause[] = "FOR UPDATE SKIP LOCKED";
	size_t cl = sizeof clause - 1, n = 0;
	char *out = malloc(*len + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < *len;) {
		if (*len - i >= cl && memcmp(sql + i, clause, cl) == 0) {
			i += cl;
			continue;
		}
		out[n++] = sql[i++];
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* Statement id's text as this backend prepares it on a server that has,
 * or lacks, FOR UPDATE SKIP LOCKED (skip_locked) and INSERT ... RETURNING
 * (returning): malloc'd, its length in *len; NULL when the dialect has no
 * such statement or memory ran out. */
char *lq__mysql_statement_text(lq_sql_id id, int skip_locked, int returning, size_t *len)
{
	const char *sql = lq__sql_mysql[id];
	if (!sql)
		return NULL;
	*len = strlen(sql);
	char *text;
	if (!skip_locked && strstr(sql, "SKIP LOCKED")) {
		/* Older servers: plain reads wherever a statement locks with
		 * SKIP LOCKED (candidates, probes, heads); the conditional
		 * claim by id that follows stays the atomic step (losers see
		 * 0 rows). */
		text = drop_skip_locked(sql, len);
	} else if ((text = malloc(*len + 1)) != NULL) {
		memcpy(text, sql, *len + 1);
	}
	if (text && id == LQ_SQL_lease_acquire && !returning) {
		/* MySQL: no INSERT ... RETURNING; the caller reads the row. */
		char *ret = strstr(text, "\nRETURNING ");
		if (ret) {
			*ret = '\0';
			*len = (size_t)(ret - text);
		}
	}
	return text;
}

static lq_status stmt_prepare(struct lq_conn *c, lq_sql_id id, struct my_stmt **out, lq_err *err)
{
	if (!lq__sql_mysql[id]) {
		lq__err_set(err, "statement %s is missing from sql/mysql", lq__sql_name(id));
		return LQ_ERROR;
	}
	size_t len = 0;
	char *plain = lq__mysql_statement_text(id, c->skip_locked, c->returning, &len);
	if (!plain) {
		lq__err_set(err, "out of memory preparing statement %s", lq__sql_name(id));
		return LQ_ENOMEM;
	}
	const char *sql = plain;
	unsigned nq = 0;
	for (size_t i = 0; i < len; i++)
		nq += sql[i] == '?';

	struct my_stmt *s = calloc(1, sizeof *s);
	char *text = malloc(len + 1);
	if (s) {
		s->pos_param = calloc(nq + 1, sizeof *s->pos_param);
		s->pbind = calloc(nq + 1, sizeof *s->pbind);
		s->plen = calloc(nq + 1, sizeof *s->plen);
		s->pint = calloc(nq + 1, sizeof *s->pint);
	}
	if (!s || !text || !s->pos_param || !s->pbind || !s->plen || !s->pint) {
		free(plain);
		free(text);
		stmt_free(s);
		lq__err_set(err, "out of memory preparing statement %s", lq__sql_name(id));
		return LQ_ENOMEM;
	}
	int bad = rewrite_params(sql, len, text, s->pos_param, &s->npos, &s->nneed);
	free(plain);
	if (bad) {
		free(text);
		stmt_free(s);
		lq__err_set(err, "statement %s has a placeholder that is not ?1..?9999", lq__sql_name(id));
		return LQ_ERROR;
	}
	s->st = mysql_stmt_init(c->my);
	if (!s->st) {
		free(text);
		stmt_free(s);
		lq__err_set(err, "out of memory preparing statement %s", lq__sql_name(id));
		return LQ_ENOMEM;
	}
	struct my_call k;
	call_start(c, &k);
	if (x_stmt_prepare(c, &k, s->st, text, (unsigned long)strlen(text)) != 0) {
		lq_status st = set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), lq__sql_name(id), 0);
		st = gave_up(&k, st, 0, err);
		free(text);
		stmt_free(s);
		return st;
	}
	free(text);
	if (mysql_stmt_param_count(s->st) != s->npos) {
		lq__err_set(err, "statement %s: server counts %lu parameters, the text has %u", lq__sql_name(id),
			    (unsigned long)mysql_stmt_param_count(s->st), s->npos);
		stmt_free(s);
		return LQ_ERROR;
	}
	c->stmt[id] = s;
	*out = s;
	return LQ_OK;
}

static void stmt_drop(struct lq_conn *c, lq_sql_id id)
{
	stmt_free(c->stmt[id]);
	c->stmt[id] = NULL;
}

/* Integer types come back as LQ_V_INT, binary strings as LQ_V_BLOB, every
 * other type as text (MySQL converts it). */
static lq_vtype col_kind(const MYSQL_FIELD *f)
{
	switch (f->type) {
	case MYSQL_TYPE_TINY:
	case MYSQL_TYPE_SHORT:
	case MYSQL_TYPE_INT24:
	case MYSQL_TYPE_LONG:
	case MYSQL_TYPE_LONGLONG:
	case MYSQL_TYPE_YEAR:
		return LQ_V_INT;
	case MYSQL_TYPE_DECIMAL:
	case MYSQL_TYPE_NEWDECIMAL:
		return f->decimals == 0 ? LQ_V_INT : LQ_V_TEXT;
	case MYSQL_TYPE_NULL:
		return LQ_V_NULL;
	default:
		return f->charsetnr == 63 ? LQ_V_BLOB : LQ_V_TEXT; /* 63: binary */
	}
}

static int col_reserve(struct my_col *col, unsigned long need)
{
	if (col->cap >= need && col->buf)
		return 0;
	unsigned long cap = col->cap < MY_COL_MIN ? MY_COL_MIN : col->cap;
	while (cap < need)
		cap = cap > ULONG_MAX / 2 ? need : cap * 2;
	char *p = realloc(col->buf, cap);
	if (!p)
		return -1;
	col->buf = p;
	col->cap = cap;
	return 0;
}

static void col_bind(MYSQL_BIND *b, struct my_col *col)
{
	memset(b, 0, sizeof *b);
	b->is_null = &col->is_null;
	b->length = &col->len;
	b->error = &col->error;
	if (col->kind == LQ_V_INT) {
		b->buffer_type = MYSQL_TYPE_LONGLONG;
		b->buffer = &col->i;
		b->buffer_length = sizeof col->i;
	} else {
		b->buffer_type = col->kind == LQ_V_BLOB ? MYSQL_TYPE_BLOB : MYSQL_TYPE_STRING;
		b->buffer = col->buf;
		b->buffer_length = col->cap;
	}
}

/* Set up result buffers from the metadata of the statement just executed
 * (a re-prepare on the server may change it). */
static lq_status bind_results(struct my_stmt *s, unsigned *ncols, lq_err *err)
{
	MYSQL_RES *md = mysql_stmt_result_metadata(s->st);
	if (!md) {
		*ncols = 0;
		return LQ_OK;
	}
	unsigned n = mysql_num_fields(md);
	MYSQL_FIELD *f = mysql_fetch_fields(md);
	if (n > s->ncap) {
		MYSQL_BIND *rb = realloc(s->rbind, n * sizeof *rb);
		if (rb)
			s->rbind = rb;
		struct my_col *cols = realloc(s->cols, n * sizeof *cols);
		if (cols) {
			memset(cols + s->ncap, 0, (n - s->ncap) * sizeof *cols);
			s->cols = cols;
			s->ncap = n;
		}
		lq_value *vals = realloc(s->vals, n * sizeof *vals);
		if (vals)
			s->vals = vals;
		if (!rb || !cols || !vals || s->ncap < n) {
			mysql_free_result(md);
			lq__err_set(err, "out of memory reading a result");
			return LQ_ENOMEM;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct my_col *col = &s->cols[i];
		col->kind = col_kind(&f[i]);
		if (col->kind != LQ_V_INT && col_reserve(col, MY_COL_MIN) != 0) {
			mysql_free_result(md);
			lq__err_set(err, "out of memory reading a result");
			return LQ_ENOMEM;
		}
		col_bind(&s->rbind[i], col);
	}
	mysql_free_result(md);
	if (mysql_stmt_bind_result(s->st, s->rbind) != 0)
		return set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), NULL, 0);
	*ncols = n;
	return LQ_OK;
}

/* The listings: their rows come from the server as fn takes them, not
 * stored whole client side first (a listing of a million tasks would hold
 * them all).  Their fn never uses the connection while they run. */
static int streamed(lq_sql_id id)
{
	return id == LQ_SQL_task_list || id == LQ_SQL_task_list_dead || id == LQ_SQL_run_list ||
	       id == LQ_SQL_run_list_task || id == LQ_SQL_lease_list || id == LQ_SQL_queue_list;
}

/* Fetch every row into fn.  Strings longer than their buffer are fetched
 * again whole with mysql_stmt_fetch_column into a grown buffer.  A streamed
 * result (k non-NULL) is read from the server, to its end even after fn
 * stopped: the connection must be idle for the next statement. */
static lq_status fetch_rows(struct lq_conn *c, struct my_call *k, struct my_stmt *s, unsigned ncols, lq_row_fn fn,
			    void *ctx, lq_err *err)
{
	for (;;) {
		int r = k ? x_stmt_fetch(c, k, s->st) : mysql_stmt_fetch(s->st);
		if (r == MYSQL_NO_DATA)
			return LQ_OK;
		if (r != 0 && r != MYSQL_DATA_TRUNCATED)
			return set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), NULL, 0);
		int rebind = 0;
		for (unsigned i = 0; i < ncols; i++) {
			struct my_col *col = &s->cols[i];
			if (col->kind == LQ_V_INT || col->is_null || col->len < col->cap)
				continue;
			/* +1: room for the NUL the core may rely on. */
			if (col->len == ULONG_MAX || col_reserve(col, col->len + 1) != 0) {
				lq__err_set(err, "out of memory reading a %lu-byte column", col->len);
				return LQ_ENOMEM;
			}
			col_bind(&s->rbind[i], col);
			if (mysql_stmt_fetch_column(s->st, &s->rbind[i], i, 0) != 0)
				return set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), NULL, 0);
			rebind = 1;
		}
		if (rebind && mysql_stmt_bind_result(s->st, s->rbind) != 0)
			return set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), NULL, 0);
		for (unsigned i = 0; i < ncols; i++) {
			struct my_col *col = &s->cols[i];
			lq_value *v = &s->vals[i];
			if (col->is_null) {
				*v = lq_v_null();
			} else if (col->kind == LQ_V_INT) {
				*v = lq_v_int(col->i);
			} else {
				col->buf[col->len] = '\0';
				v->type = col->kind == LQ_V_BLOB ? LQ_V_BLOB : LQ_V_TEXT;
				v->i = 0;
				v->s = col->buf;
				v->len = col->len;
			}
		}
		if (fn && fn(ctx, s->vals, (int)ncols) != 0) {
			if (!k)
				return LQ_OK;
			fn = NULL;
		}
	}
}

static void shrink_results(struct my_stmt *s)
{
	for (unsigned i = 0; i < s->ncap; i++) {
		if (s->cols[i].cap > MY_COL_KEEP) {
			free(s->cols[i].buf);
			s->cols[i].buf = NULL;
			s->cols[i].cap = 0;
		}
	}
}

static void bind_params(struct my_stmt *s, const lq_value *params)
{
	for (unsigned p = 0; p < s->npos; p++) {
		const lq_value *v = &params[s->pos_param[p]];
		MYSQL_BIND *b = &s->pbind[p];
		memset(b, 0, sizeof *b);
		switch (v->type) {
		case LQ_V_INT:
			s->pint[p] = v->i;
			b->buffer_type = MYSQL_TYPE_LONGLONG;
			b->buffer = &s->pint[p];
			break;
		case LQ_V_TEXT:
		case LQ_V_BLOB:
			if (v->type == LQ_V_TEXT && !v->s) {
				b->buffer_type = MYSQL_TYPE_NULL;
				break;
			}
			/* BLOB goes as binary bytes, NULs and all; TEXT in the
			 * connection charset (utf8mb4). */
			b->buffer_type = v->type == LQ_V_BLOB ? MYSQL_TYPE_BLOB : MYSQL_TYPE_STRING;
			b->buffer = (char *)(v->s ? v->s : "");
			s->plen[p] = (unsigned long)(v->s ? v->len : 0);
			b->buffer_length = s->plen[p];
			b->length = &s->plen[p];
			break;
		default:
			b->buffer_type = MYSQL_TYPE_NULL;
			break;
		}
	}
}

static lq_status lone_statement(struct lq_conn *c, lq_err *err);

static lq_status my_exec(struct lq_conn *c, lq_sql_id id, const lq_value *params, int nparams, lq_row_fn fn,
			 void *ctx, int64_t *affected, lq_err *err)
{
	if (affected)
		*affected = 0;
	if ((unsigned)id >= LQ_SQL__COUNT) {
		lq__err_set(err, "unknown statement %d", (int)id);
		return LQ_ERROR;
	}
	if (c->closed) {
		lq__err_set(err, "connection closed after a timed-out wait");
		return LQ_ECONN;
	}
	lq_status lst = lone_statement(c, err);
	if (lst != LQ_OK)
		return lst;
	for (int attempt = 0;; attempt++) {
		struct my_stmt *s = c->stmt[id];
		lq_status st;
		if (!s && (st = stmt_prepare(c, id, &s, err)) != LQ_OK)
			return st;
		/* Checked after prepare, so a test can prepare every statement
		 * by passing no parameters. */
		if (nparams < s->nneed) {
			lq__err_set(err, "statement %s needs %d parameters, %d given", lq__sql_name(id), s->nneed,
				    nparams);
			return LQ_ERROR;
		}
		bind_params(s, params);
		if (s->npos > 0 && mysql_stmt_bind_param(s->st, s->pbind) != 0)
			return set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), lq__sql_name(id), 0);
		struct my_call k;
		call_start(c, &k);
		if (x_stmt_execute(c, &k, s->st) != 0) {
			unsigned e = mysql_stmt_errno(s->st);
			/* Gone before the statement could be written: not sent.
			 * Any other loss may come after the server ran it. */
			err->sent = e != MY_CR_SERVER_GONE;
			if (e == MY_ER_DUP_ENTRY || e == MY_ER_DUP_ENTRY_WITH_KEY_NAME)
				return LQ_OK; /* "ON CONFLICT DO NOTHING": 0 rows */
			if ((e == MY_ER_NEED_REPREPARE || e == MY_ER_UNKNOWN_STMT_HANDLER) && attempt == 0) {
				stmt_drop(c, id);
				continue;
			}
			st = gave_up(&k, set_error(err, e, mysql_stmt_error(s->st), lq__sql_name(id), 0), 0, err);
			if (st == LQ_ECONN)
				stmt_drop(c, id);
			return st;
		}
		if (mysql_stmt_field_count(s->st) == 0) {
			unsigned long long n = mysql_stmt_affected_rows(s->st);
			if (affected)
				*affected = n == ~0ULL ? 0 : (int64_t)n;
			if ((id == LQ_SQL_task_insert || id == LQ_SQL_task_insert_notify) && n == 1 && fn) {
				/* Its result is the new id: the insert's own. */
				lq_value v = lq_v_int((int64_t)mysql_stmt_insert_id(s->st));
				fn(ctx, &v, 1);
			}
			return LQ_OK;
		}
		/* Store the whole result client side: the connection is free
		 * again while fn runs.  Not the listings': see streamed(). */
		unsigned ncols = 0;
		int stream = streamed(id);
		if (!stream && x_stmt_store_result(c, &k, s->st) != 0) {
			st = set_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st), lq__sql_name(id), 0);
			st = gave_up(&k, st, 0, err);
			/* A result cut short (Galera aborts a conflicting
			 * transaction while its rows are sent: error 1213) leaves
			 * the handle waiting for rows that never come, and its
			 * next execute would hang: prepare it afresh. */
			stmt_drop(c, id);
			return st;
		}
		if (affected && !stream)
			*affected = (int64_t)mysql_stmt_num_rows(s->st);
		st = bind_results(s, &ncols, err);
		if (st == LQ_OK && ncols > 0)
			st = fetch_rows(c, stream ? &k : NULL, s, ncols, fn, ctx, err);
		if (stream && st != LQ_OK) {
			/* Cut short mid-stream: the handle may still wait for
			 * rows (as after a failed store above). */
			st = gave_up(&k, st, 0, err);
			stmt_drop(c, id);
			return st;
		}
		mysql_stmt_free_result(s->st);
		/* A CALL ends with a status result after its rows: read it, or
		 * the connection is out of sync for the next command. */
		while (mysql_stmt_more_results(s->st) && mysql_stmt_next_result(s->st) == 0)
			mysql_stmt_free_result(s->st);
		shrink_results(s);
		return st;
	}
}

/* ------------------------------------------------- plain queries */

#define ER_DUP_KEYNAME_NO 1061 /* "Duplicate key name" */

static lq_status run_query(struct lq_conn *c, const char *sql, size_t len, int in_commit, lq_err *err)
{
	if (c->closed) {
		lq__err_set(err, "connection closed after a timed-out wait");
		return LQ_ECONN;
	}
	struct my_call k;
	call_start(c, &k);
	if (x_real_query(c, &k, sql, (unsigned long)len) != 0)
		return gave_up(&k, conn_error(c, err, in_commit), in_commit, err);
	/* A script may hold a SELECT: read and drop its rows. */
	if (mysql_field_count(c->my) > 0) {
		MYSQL_RES *res = x_store_result(c, &k);
		if (!res)
			return gave_up(&k, conn_error(c, err, in_commit), in_commit, err);
		mysql_free_result(res);
	}
	return LQ_OK;
}

/* Statements end with ';' at the end of a line; lines starting with "--"
 * are comments.  No CLIENT_MULTI_STATEMENTS: one statement per round trip. */
static lq_status my_exec_script(struct lq_conn *c, const char *sql, lq_err *err)
{
	lq_status lst = lone_statement(c, err);
	if (lst != LQ_OK)
		return lst;
	size_t total = strlen(sql);
	char *buf = malloc(total + 2);
	if (!buf) {
		lq__err_set(err, "out of memory running a script");
		return LQ_ENOMEM;
	}
	size_t blen = 0;
	lq_status st = LQ_OK;
	const char *p = sql;
	while (st == LQ_OK && *p) {
		const char *e = strchr(p, '\n');
		size_t ll = e ? (size_t)(e - p) : strlen(p);
		const char *next = e ? e + 1 : p + ll;
		const char *t = p;
		while (t < p + ll && (*t == ' ' || *t == '\t'))
			t++;
		if (p + ll - t >= 2 && t[0] == '-' && t[1] == '-') {
			p = next;
			continue;
		}
		size_t end = ll;
		while (end > 0 && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r'))
			end--;
		int last = end > 0 && p[end - 1] == ';';
		memcpy(buf + blen, p, last ? end - 1 : ll);
		blen += last ? end - 1 : ll;
		buf[blen++] = '\n';
		if (last || !*next) {
			size_t s0 = 0;
			while (s0 < blen && (buf[s0] == ' ' || buf[s0] == '\t' || buf[s0] == '\n' || buf[s0] == '\r'))
				s0++;
			if (s0 < blen) {
				st = run_query(c, buf + s0, blen - s0, 0, err);
				/* DDL commits by itself, so a step may have created its
				 * index before a crash kept its version record: running
				 * it again must not fail (MySQL 8 has no CREATE INDEX IF
				 * NOT EXISTS). */
				if (st != LQ_OK && mysql_errno(c->my) == ER_DUP_KEYNAME_NO &&
				    blen - s0 >= 12 && !strncasecmp(buf + s0, "CREATE INDEX", 12)) {
					err->msg[0] = '\0';
					st = LQ_OK;
				}
			}
			blen = 0;
		}
		p = next;
	}
	free(buf);
	return st;
}

/* InnoDB takes row locks as statements run: read and write transactions
 * start the same way. */
static lq_status my_begin(struct lq_conn *c, int write_tx, lq_err *err)
{
	static const char q[] = "START TRANSACTION", off[] = "SET autocommit = 0";
	(void)write_tx;
	lq_status st = LQ_OK;
	if (c->own && !c->lone) {
		/* A second transaction in a row: autocommit off (once), and the
		 * transaction opens with its first statement.  A lock wait
		 * timeout still ends in our ROLLBACK of all of it. */
		if (c->ac_off)
			err->extra_trips--; /* nothing sent */
		else if ((st = run_query(c, off, sizeof off - 1, 0, err)) == LQ_OK)
			c->ac_off = 1;
	} else {
		st = run_query(c, q, sizeof q - 1, 0, err);
	}
	if (st == LQ_OK)
		c->in_tx = 1;
	c->lone = 0;
	return st;
}

/* Before a statement outside a transaction: it must commit by itself. */
static lq_status lone_statement(struct lq_conn *c, lq_err *err)
{
	static const char on[] = "SET autocommit = 1";
	if (c->in_tx)
		return LQ_OK;
	c->lone = 1;
	if (!c->ac_off)
		return LQ_OK;
	err->extra_trips++;
	lq_status st = run_query(c, on, sizeof on - 1, 0, err);
	if (st == LQ_OK)
		c->ac_off = 0;
	return st;
}

static lq_status my_commit(struct lq_conn *c, lq_err *err)
{
	static const char q[] = "COMMIT";
	c->in_tx = 0;
	return run_query(c, q, sizeof q - 1, 1, err);
}

static lq_status my_rollback(struct lq_conn *c, lq_err *err)
{
	static const char q[] = "ROLLBACK";
	c->in_tx = 0;
	return run_query(c, q, sizeof q - 1, 0, err);
}

/* --------------------------------------------------- connection */

/* The server is MariaDB (max_statement_time), not MySQL. */
static int server_is_mariadb(MYSQL *my)
{
	const char *v = mysql_get_server_info(my);
	return v && (strstr(v, "MariaDB") != NULL || strncmp(v, "5.5.5-", 6) == 0);
}

/* What the server can do that the statements use. */
static void server_features(struct lq_conn *c)
{
	const char *v = mysql_get_server_info(c->my);
	c->skip_locked = c->returning = 0;
	if (!v)
		return;
	int maria = strstr(v, "MariaDB") != NULL;
	if (strncmp(v, "5.5.5-", 6) == 0) { /* MariaDB's replication prefix */
		v += 6;
		maria = 1;
	}
	char *end;
	unsigned long major = strtoul(v, &end, 10);
	unsigned long minor = *end == '.' ? strtoul(end + 1, NULL, 10) : 0;
	unsigned long at = major * 100 + minor;
	/* FOR UPDATE SKIP LOCKED: MariaDB 10.6+, MySQL 8.0+. */
	c->skip_locked = maria ? at >= 1006 : major >= 8;
	/* INSERT ... RETURNING: MariaDB 10.5+ only. */
	c->returning = maria && at >= 1005;
}

/* Replace every copy of secret in s by "***" (in place, s has room since
 * secret is at least as long as "***" whenever we call this). */
static void redact(char *s, const char *secret)
{
	size_t n = strlen(secret);
	if (n < 3)
		return;
	char *p;
	while ((p = strstr(s, secret)) != NULL) {
		memcpy(p, "***", 3);
		memmove(p + 3, p + n, strlen(p + n) + 1);
	}
}

/* Only ?socket= and ?statement_timeout= are known; a typo is an error, not
 * a silent default. */
static lq_status check_options(const char *query, lq_err *err)
{
	const char *p = query;
	while (*p) {
		size_t kl = strcspn(p, "=&");
		if (kl > 0 && !(kl == 6 && strncmp(p, "socket", 6) == 0) &&
		    !(kl == 17 && strncmp(p, "statement_timeout", 17) == 0) &&
		    !(kl == 15 && strncmp(p, "wsrep_sync_wait", 15) == 0)) {
			lq__err_set(err, "unknown MySQL DSN option '%.*s' (known: socket, statement_timeout, "
					 "wsrep_sync_wait)",
				    (int)(kl > 64 ? 64 : kl), p);
			return LQ_EINVAL;
		}
		p += strcspn(p, "&");
		if (*p == '&')
			p++;
	}
	return LQ_OK;
}

/* Closes leaseq's prepared statements, not the connection. */
static void my_release(struct lq_conn *c)
{
	if (!c)
		return;
	for (int i = 0; i < LQ_SQL__COUNT; i++)
		stmt_free(c->stmt[i]);
	free(c);
}

static void my_disconnect(struct lq_conn *c)
{
	if (!c)
		return;
	MYSQL *my = c->my;
	my_release(c);
	if (my)
		mysql_close(my);
}

static lq_status my_connect(const char *dsn, unsigned flags, struct lq_conn **out, lq_err *err)
{
	(void)flags; /* LQ_OPEN_*: about SQLite's file; the server's grants decide here */
	*out = NULL;
	lq_dsn_url u;
	lq_status st = lq__dsn_parse_url(dsn, &u, err);
	if (st != LQ_OK)
		return st;
	if (strcasecmp(u.scheme, "mysql") != 0 && strcasecmp(u.scheme, "mariadb") != 0) {
		lq__err_set(err, "not a MySQL DSN: scheme '%s' (expected mysql:// or mariadb://)", u.scheme);
		return LQ_EINVAL;
	}
	if ((st = check_options(u.query, err)) != LQ_OK)
		return st;
	if (!u.dbname[0]) {
		lq__err_set(err, "the MySQL DSN names no database (mysql://user:password@host:port/DATABASE)");
		return LQ_EINVAL;
	}
	char sock[256] = "";
	int has_sock = lq__dsn_query_get(u.query, "socket", sock, sizeof sock);
	if (has_sock && !sock[0]) {
		lq__err_set(err, "the MySQL DSN option socket= is empty");
		return LQ_EINVAL;
	}

	int64_t deadline = LQ_STATEMENT_TIMEOUT_MS;
	char tmo[32];
	if (lq__dsn_query_get(u.query, "statement_timeout", tmo, sizeof tmo) &&
	    (lq_parse_duration(tmo, &deadline, NULL, 0) != LQ_OK || deadline <= 0 || deadline > 86400000)) {
		lq__err_set(err, "invalid statement_timeout \"%.32s\" in the DSN: want a duration such as 10s or 500ms", tmo);
		return LQ_EINVAL;
	}

	/* Galera: make this session's statements wait until the node has
	 * applied what other nodes committed (a bit mask, 0-15). */
	char syncwait[8], sync_sql[64] = "";
	if (lq__dsn_query_get(u.query, "wsrep_sync_wait", syncwait, sizeof syncwait)) {
		char *end = NULL;
		long v = strtol(syncwait, &end, 10);
		if (!syncwait[0] || *end || v < 0 || v > 15) {
			lq__err_set(err, "invalid wsrep_sync_wait \"%.8s\" in the DSN: want a number from 0 to 15", syncwait);
			return LQ_EINVAL;
		}
		snprintf(sync_sql, sizeof sync_sql, "SET SESSION wsrep_sync_wait = %lld", (long long)v);
	}

	struct lq_conn *c = calloc(1, sizeof *c);
	if (!c || !(c->my = mysql_init(NULL))) {
		free(c);
		lq__err_set(err, "out of memory connecting to MySQL");
		return LQ_ENOMEM;
	}
	c->deadline_ms = deadline;
	c->own = c->lone = 1;
	/* Blocking calls (connect, and every call without the non-blocking
	 * API) still end on the read timeout, past the deadline. */
	unsigned int connect_timeout = MY_CONNECT_TIMEOUT,
		     read_timeout = (unsigned)((deadline + MY_SERVER_GRACE_MS) / 1000 + 1),
		     write_timeout = MY_WRITE_TIMEOUT, no_infile = 0;
	if (read_timeout < MY_READ_TIMEOUT && deadline >= LQ_STATEMENT_TIMEOUT_MS)
		read_timeout = MY_READ_TIMEOUT;
	mysql_options(c->my, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
	mysql_options(c->my, MYSQL_OPT_READ_TIMEOUT, &read_timeout);
	mysql_options(c->my, MYSQL_OPT_WRITE_TIMEOUT, &write_timeout);
	mysql_options(c->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(c->my, MYSQL_OPT_LOCAL_INFILE, &no_infile);
#ifdef MARIADB_PACKAGE_VERSION_ID
	/* The core reconnects (and re-prepares); a silent reconnect would
	 * lose the transaction and the session settings.  (Off by default in
	 * MySQL 8, which warns when the option is set.) */
	lq_mybool no_reconnect = 0;
	mysql_options(c->my, MYSQL_OPT_RECONNECT, &no_reconnect);
#endif
#ifdef MY_NONBLOCK
	mysql_options(c->my, MYSQL_OPT_NONBLOCK, 0);
#endif
	if (has_sock) {
		unsigned int proto = MYSQL_PROTOCOL_SOCKET;
		mysql_options(c->my, MYSQL_OPT_PROTOCOL, &proto);
	}

	const char *where = has_sock ? sock : u.host[0] ? u.host : "localhost";
	if (!mysql_real_connect(c->my, u.host[0] ? u.host : NULL, u.user[0] ? u.user : NULL,
				u.password[0] ? u.password : NULL, u.dbname, (unsigned)u.port,
				has_sock ? sock : NULL, CLIENT_FOUND_ROWS)) {
		char text[512];
		snprintf(text, sizeof text, "%s", mysql_error(c->my));
		redact(text, u.password);
		if (u.port && !has_sock)
			lq__err_set(err, "cannot connect to MySQL at %s:%d as '%s': %s (error %u)", where, u.port,
				    u.user, text, mysql_errno(c->my));
		else
			lq__err_set(err, "cannot connect to MySQL at %s as '%s': %s (error %u)", where, u.user, text,
				    mysql_errno(c->my));
		one_line(err->msg);
		st = mysql_errno(c->my) == MY_CR_OUT_OF_MEMORY ? LQ_ENOMEM : LQ_ECONN;
		my_disconnect(c);
		return st;
	}
	server_features(c);

	/* Strict: no silent truncation.  UTC: NOW(3) and UNIX_TIMESTAMP agree
	 * with no DST gaps.  Bounded waits: a row-lock wait ends as a
	 * retryable error, a table (metadata) lock wait and, on MariaDB, any
	 * statement end at the deadline, before the client gives up. */
	int64_t dl_s = (deadline + 999) / 1000;
	char waits[200], maxtime[80] = "";
	snprintf(waits, sizeof waits,
		 "SET SESSION innodb_lock_wait_timeout = %lld, lock_wait_timeout = %lld",
		 (long long)(dl_s < MY_LOCK_WAIT_TIMEOUT ? dl_s : MY_LOCK_WAIT_TIMEOUT), (long long)dl_s + 1);
	if (server_is_mariadb(c->my))
		snprintf(maxtime, sizeof maxtime, "SET SESSION max_statement_time = %lld.%03lld",
			 (long long)(deadline / 1000), (long long)(deadline % 1000));
	const char *const setup[] = {
		"SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE,"
		"ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00', autocommit = 1",
		"SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
		waits,
		maxtime,
		sync_sql,
	};
	for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
		if (!setup[i][0])
			continue;
		if ((st = run_query(c, setup[i], strlen(setup[i]), 0, err)) != LQ_OK) {
			char text[sizeof err->msg];
			snprintf(text, sizeof text, "%s", err->msg);
			lq__err_set(err, "MySQL session setup at %s failed: %s", where, text);
			my_disconnect(c);
			return st == LQ_ENOMEM ? LQ_ENOMEM : LQ_ECONN;
		}
	}
	*out = c;
	return LQ_OK;
}

/* The application's MYSQL, as it is: its session settings stay its own.
 * Claims and renews count matched rows, so it must have been connected
 * with CLIENT_FOUND_ROWS. */
static lq_status my_adopt(void *native, struct lq_conn **out, lq_err *err)
{
	MYSQL *my = native;
	if (!(my->client_flag & CLIENT_FOUND_ROWS)) {
		lq__err_set(err, "the connection was made without CLIENT_FOUND_ROWS (pass it to "
				 "mysql_real_connect: leaseq counts matched rows)");
		return LQ_EINVAL;
	}
	struct lq_conn *c = calloc(1, sizeof *c);
	if (!c) {
		lq__err_set(err, "out of memory");
		return LQ_ENOMEM;
	}
	c->my = my;
	c->deadline_ms = LQ_STATEMENT_TIMEOUT_MS;
	server_features(c);
#ifdef MY_NONBLOCK
	/* Our bounded waits; the application's blocking calls work as before. */
	mysql_options(my, MYSQL_OPT_NONBLOCK, 0);
#endif
	*out = c;
	return LQ_OK;
}

static int my_app_tx(struct lq_conn *c)
{
	return (c->my->server_status & SERVER_STATUS_IN_TRANS) != 0;
}

static void my_set_stop(struct lq_conn *c, const volatile sig_atomic_t *stop)
{
	c->stop = stop;
}

const struct lq_backend lq__backend_mysql = {
	.version = LQ_BACKEND_VERSION,
	.name = "mysql",
	.caps = LQ_CAP_SKIP_LOCKED | LQ_CAP_CLAIM_SET | LQ_CAP_ONE_STATEMENT_ADD | LQ_CAP_RUN_COUNT_APART,
	.sql = lq__sql_mysql,
	.migrations = lq__migrations_mysql,
	.n_migrations = &lq__migrations_mysql_count, /* 4 files: LQ_MIGRATIONS_mysql in CMakeLists.txt */
	.connect = my_connect,
	.disconnect = my_disconnect,
	.exec = my_exec,
	.exec_script = my_exec_script,
	.begin = my_begin,
	.commit = my_commit,
	.rollback = my_rollback,
	.notify = NULL,
	.wait_notify = NULL,
	.set_stop = my_set_stop,
	.adopt = my_adopt,
	.release = my_release,
	.app_tx = my_app_tx,
};
