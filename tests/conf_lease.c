/*
 * conf_lease.c - conformance: leases (acquire, renew, release, break, check,
 * get, list, wait, encode/decode, fencing tokens, byte-exact names).
 */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

/* A second connection to the same database, as another process would have. */
static lq_db *other(void **state)
{
	lq_db *db = lqt_open(CONF(state)->dsn);
	assert_non_null(db);
	return db;
}

static void lease_acquire_basic(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, b, g, n;

	assert_lq_ok(db, lq_lease_acquire(db, "job", 5000, "me", 0, &a));
	assert_string_equal(a.name, "job");
	assert_int_equal(a.token, 1);
	/* The owner is the base plus a random part nobody can guess. */
	assert_memory_equal(a.owner, "me", 2);
	assert_true(strlen(a.owner) > 2);
	assert_true(lq_lease_held(&a));
	/* Expiry is the acquisition time plus the TTL, on the database clock. */
	assert_true(a.expires_at - a.acquired_at >= 5000 - 50);
	assert_true(a.expires_at - a.acquired_at <= 5000 + 50);
	assert_true(a.expires_at >= a.now + 5000 - 1000);
	assert_true(a.expires_at <= a.now + 5000 + 50);

	assert_lq_ok(db, lq_lease_get(db, "job", &g));
	assert_string_equal(g.name, "job");
	assert_string_equal(g.owner, a.owner);
	assert_int_equal(g.token, 1);
	assert_int_equal(g.acquired_at, a.acquired_at);
	assert_int_equal(g.expires_at, a.expires_at);
	assert_true(lq_lease_held(&g));

	/* Same owner base, different owner string. */
	assert_lq_ok(db, lq_lease_acquire(db, "job2", 5000, "me", 0, &b));
	assert_memory_equal(b.owner, "me", 2);
	assert_string_not_equal(a.owner, b.owner);
	assert_int_equal(b.token, 1);

	/* No owner: host:pid and the random part. */
	assert_lq_ok(db, lq_lease_acquire(db, "job3", 5000, NULL, 0, &n));
	assert_true(strlen(n.owner) > 0);
	assert_non_null(strchr(n.owner, ':'));
	assert_int_equal(lqt_count_leases(db), 3);
}

/* Defect: a TTL of a few milliseconds could run out between the take and
 * the re-read, and the caller that had just taken the lease was told it was
 * held elsewhere.  The affected row decides. */
static void lease_short_ttl(void **state)
{
	lq_db *db = DB(state);
	lq_lease l, again;
	char name[32];

	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "short-%d", i);
		assert_lq_ok(db, lq_lease_acquire(db, name, 1, NULL, 0, &l));
		assert_string_not_equal(l.owner, "");
		assert_true(l.token >= 1);
		lqt_sleep_ms(3);
		/* Expired by now: anyone takes it, with a larger token. */
		assert_lq_ok(db, lq_lease_acquire(db, name, 1, NULL, 0, &again));
		assert_true(again.token > l.token);
		assert_string_not_equal(again.owner, l.owner);
	}
}

static void lease_busy(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b;

	assert_lq_ok(db, lq_lease_acquire(db, "busy", 10000, "a", 0, &a));
	/* Held: LQ_BUSY says who holds it, with which token, until when. */
	assert_lq(db2, LQ_BUSY, lq_lease_acquire(db2, "busy", 10000, "b", 0, &b));
	assert_string_equal(b.name, "busy");
	assert_string_equal(b.owner, a.owner);
	assert_int_equal(b.token, a.token);
	assert_int_equal(b.expires_at, a.expires_at);
	assert_true(strlen(lq_errmsg(db2)) > 0);
	/* Not re-entrant either: the same handle gets a new owner. */
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "busy", 10000, "a", 0, &b));
	assert_string_equal(b.owner, a.owner);
	/* The holder is untouched. */
	assert_lq_ok(db, lq_lease_check(db, &a));
	lq_close(db2);
}

static void lease_renew_extends(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, g;
	int64_t old;

	assert_lq_ok(db, lq_lease_acquire(db, "renew", 1000, "me", 0, &a));
	old = a.expires_at;
	lqt_sleep_ms(100);
	assert_lq_ok(db, lq_lease_renew(db, &a, 10000));
	assert_true(a.expires_at > old);
	assert_true(a.expires_at - old >= 9000);
	assert_int_equal(a.token, 1);
	assert_lq_ok(db, lq_lease_get(db, "renew", &g));
	assert_int_equal(g.expires_at, a.expires_at);
	assert_int_equal(g.token, 1);
	assert_string_equal(g.owner, a.owner);
	assert_true(g.expires_at - g.now > 9000);
	assert_lq_ok(db, lq_lease_check(db, &a));
	/* Renew may also shorten (now + ttl, whatever was there). */
	assert_lq_ok(db, lq_lease_renew(db, &a, 2000));
	assert_true(a.expires_at < g.expires_at);
}

static void lease_token_never_resets(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, g, prev;
	int64_t last;

	assert_lq_ok(db, lq_lease_acquire(db, "tok", 5000, "me", 0, &a));
	assert_int_equal(a.token, 1);
	assert_lq_ok(db, lq_lease_release(db, &a));
	/* Released: free, but the row keeps its token. */
	assert_lq_ok(db, lq_lease_get(db, "tok", &g));
	assert_string_equal(g.owner, "");
	assert_false(lq_lease_held(&g));
	assert_int_equal(g.token, 1);
	assert_lq(db, LQ_LOST, lq_lease_check(db, &a));

	/* release -> acquire */
	assert_lq_ok(db, lq_lease_acquire(db, "tok", 5000, "me", 0, &a));
	assert_int_equal(a.token, 2);
	last = a.token;
	/* break -> acquire */
	assert_lq_ok(db, lq_lease_break(db, "tok", &prev));
	assert_lq_ok(db, lq_lease_acquire(db, "tok", 200, "me", 0, &a));
	assert_true(a.token > last);
	last = a.token;
	/* expiry -> acquire */
	lqt_sleep_ms(400);
	assert_lq_ok(db, lq_lease_acquire(db, "tok", 5000, "me", 0, &a));
	assert_true(a.token > last);
	last = a.token;
	/* break of a free lease still moves the token on */
	assert_lq_ok(db, lq_lease_release(db, &a));
	assert_lq_ok(db, lq_lease_break(db, "tok", NULL));
	assert_lq_ok(db, lq_lease_acquire(db, "tok", 5000, "me", 0, &a));
	assert_true(a.token > last);
	assert_lq_ok(db, lq_lease_get(db, "tok", &g));
	assert_int_equal(g.token, a.token);
}

static void lease_release_stale(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b, g;

	assert_lq_ok(db, lq_lease_acquire(db, "stale", 5000, "a", 0, &a));
	assert_lq_ok(db, lq_lease_release(db, &a));
	assert_lq_ok(db2, lq_lease_acquire(db2, "stale", 5000, "b", 0, &b));
	assert_int_equal(b.token, a.token + 1);
	/* A's late release must not free B's lease. */
	assert_lq(db, LQ_LOST, lq_lease_release(db, &a));
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &a, 5000));
	assert_lq_ok(db2, lq_lease_check(db2, &b));
	assert_lq_ok(db, lq_lease_get(db, "stale", &g));
	assert_string_equal(g.owner, b.owner);
	assert_int_equal(g.token, b.token);
	assert_int_equal(g.expires_at, b.expires_at);
	/* Checking from any connection gives the same answer. */
	assert_lq_ok(db, lq_lease_check(db, &b));
	assert_lq_ok(db2, lq_lease_release(db2, &b));
	lq_close(db2);
}

static void lease_renew_after_expiry(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, g;

	assert_lq_ok(db, lq_lease_acquire(db, "exp", 200, "a", 0, &a));
	lqt_sleep_ms(400);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &a, 5000));
	assert_true(strlen(lq_errmsg(db)) > 0);
	assert_lq(db, LQ_LOST, lq_lease_check(db, &a));
	/* Expired: get shows it free. */
	assert_lq_ok(db, lq_lease_get(db, "exp", &g));
	assert_false(lq_lease_held(&g));
	assert_int_equal(g.token, a.token);
}

static void lease_takeover(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b, g;

	assert_lq_ok(db, lq_lease_acquire(db, "take", 200, "a", 0, &a));
	lqt_sleep_ms(400);
	assert_lq_ok(db2, lq_lease_acquire(db2, "take", 5000, "b", 0, &b));
	assert_true(b.token > a.token);
	assert_true(b.acquired_at >= a.expires_at);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &a, 5000));
	assert_lq(db, LQ_LOST, lq_lease_release(db, &a));
	assert_lq(db, LQ_LOST, lq_lease_check(db, &a));
	/* B is untouched by A's attempts. */
	assert_lq_ok(db2, lq_lease_check(db2, &b));
	assert_lq_ok(db, lq_lease_get(db, "take", &g));
	assert_string_equal(g.owner, b.owner);
	assert_int_equal(g.token, b.token);
	assert_int_equal(g.expires_at, b.expires_at);
	lq_close(db2);
}

static void lease_break(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, prev, g, c;

	assert_lq_ok(db, lq_lease_acquire(db, "brk", 30000, "a", 0, &a));
	assert_lq_ok(db2, lq_lease_break(db2, "brk", &prev));
	assert_string_equal(prev.name, "brk");
	assert_string_equal(prev.owner, a.owner);
	assert_int_equal(prev.token, a.token);
	assert_lq_ok(db, lq_lease_get(db, "brk", &g));
	assert_string_equal(g.owner, "");
	assert_false(lq_lease_held(&g));
	assert_true(g.token > a.token);
	/* The old holder has lost it. */
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &a, 30000));
	assert_lq(db, LQ_LOST, lq_lease_check(db, &a));
	/* Free at once, with a later token. */
	assert_lq_ok(db2, lq_lease_acquire(db2, "brk", 30000, "c", 0, &c));
	assert_true(c.token > a.token);
	assert_lq(db, LQ_LOST, lq_lease_release(db, &a));
	assert_lq_ok(db2, lq_lease_check(db2, &c));

	assert_lq(db, LQ_NOTFOUND, lq_lease_break(db, "no such lease", &prev));
	assert_lq(db, LQ_NOTFOUND, lq_lease_break(db, "no such lease", NULL));
	assert_int_equal(lqt_count_leases(db), 1);
	lq_close(db2);
}

static void lease_get_unknown(void **state)
{
	lq_db *db = DB(state);
	lq_lease g;

	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "never acquired", &g));
	assert_non_null(strstr(lq_errmsg(db), "never acquired"));
	assert_int_equal(lqt_count_leases(db), 0);
}

struct names {
	char name[8][LQ_NAME_MAX + 1];
	int n;
	int stop_after;
};

static int collect_names(const lq_lease *l, void *ctx)
{
	struct names *nm = ctx;

	if (nm->n < 8)
		strcpy(nm->name[nm->n], l->name);
	nm->n++;
	return nm->stop_after > 0 && nm->n >= nm->stop_after;
}

static void lease_list_order(void **state)
{
	lq_db *db = DB(state);
	lq_lease a;
	struct names nm;

	/* Names chosen to sort the same under any collation. */
	assert_lq_ok(db, lq_lease_acquire(db, "lc", 5000, NULL, 0, &a));
	assert_lq_ok(db, lq_lease_acquire(db, "la", 5000, NULL, 0, &a));
	assert_lq_ok(db, lq_lease_acquire(db, "lb", 5000, NULL, 0, &a));
	assert_lq_ok(db, lq_lease_release(db, &a));
	memset(&nm, 0, sizeof(nm));
	assert_lq_ok(db, lq_lease_list(db, collect_names, &nm));
	assert_int_equal(nm.n, 3);
	assert_string_equal(nm.name[0], "la");
	assert_string_equal(nm.name[1], "lb");
	assert_string_equal(nm.name[2], "lc");
	/* A non-zero return stops the walk; it is not an error. */
	memset(&nm, 0, sizeof(nm));
	nm.stop_after = 1;
	assert_lq_ok(db, lq_lease_list(db, collect_names, &nm));
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.name[0], "la");
}

static void lease_wait_for_expiry(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b;

	assert_lq_ok(db, lq_lease_acquire(db, "wait", 700, "a", 0, &a));
	/* Within the wait (LQ_OK, not LQ_BUSY), not before the holder's
	 * expiry on the database clock, and the holder has lost it. */
	assert_lq_ok(db2, lq_lease_acquire(db2, "wait", 5000, "b", 10000, &b));
	assert_true(b.acquired_at >= a.expires_at);
	assert_true(b.token > a.token);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &a, 5000));
	lq_close(db2);
}

static int release_later(int idx, void *ctx)
{
	const char *const *args = ctx; /* dsn, encoded handle */
	lq_db *db = lqt_open(args[0]);
	lq_lease l;

	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_lease_decode(args[1], &l, NULL, 0));
	lqt_sleep_ms(300);
	LQT_CHECK_ST(db, LQ_OK, lq_lease_release(db, &l));
	lq_close(db);
	return 0;
}

static void lease_wait_for_release(void **state)
{
	lqt_conf *c = CONF(state);
	lq_lease a, b;
	char enc[LQ_HANDLE_MAX];
	const char *args[2];
	pid_t pid;

	assert_lq_ok(c->db, lq_lease_acquire(c->db, "wait rel", 60000, "a", 0, &a));
	assert_lq_ok(c->db, lq_lease_encode(&a, enc, sizeof(enc)));
	args[0] = c->dsn;
	args[1] = enc;
	/* Another process releases it in 300 ms: the waiter gets it then,
	 * before the 60 s TTL runs out (the 20 s wait could not outlast it). */
	lqt_conf_close(c);
	pid = lqt_spawn(0, release_later, args);
	lqt_conf_reopen(c);
	assert_lq_ok(c->db, lq_lease_acquire(c->db, "wait rel", 5000, "b", 20000, &b));
	assert_int_equal(lqt_wait_children(&pid, 1, NULL, 30), 0);
	assert_int_equal(b.token, a.token + 1);
	assert_true(b.acquired_at < a.expires_at);
}

static void lease_wait_times_out(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b;

	/* The holder keeps it past the wait: LQ_BUSY, with the holder's
	 * owner and token, and the holder still holds it. */
	assert_lq_ok(db, lq_lease_acquire(db, "wait to", 10000, "a", 0, &a));
	assert_lq(db2, LQ_BUSY, lq_lease_acquire(db2, "wait to", 5000, "b", 300, &b));
	assert_string_equal(b.owner, a.owner);
	assert_int_equal(b.token, a.token);
	assert_lq_ok(db, lq_lease_check(db, &a));
	lq_close(db2);
}

/* Every character an encoding must survive. */
static const char *const odd_names[] = {
	"with space",
	"co:lon:s",
	"per%cent%41",
	"\xc3\xbc" "tf-8 \xe2\x9c\x93 \xf0\x9f\x98\x80",
	"quote's \"double\"",
	"back\\slash $HOME `cmd` ;&|<>*?",
	"tab\tand\nnewline",
	"lq1:1:fake:handle",
	"+/@~._-",
};

static int shell_safe(const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr("%+,-./:=@_~", ch) != NULL))
			return 0;
	}
	return 1;
}

static void lease_encode_decode(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);

	for (size_t i = 0; i < sizeof(odd_names) / sizeof(odd_names[0]); i++) {
		lq_lease a, d, g;
		char enc[LQ_HANDLE_MAX];

		assert_lq_ok(db, lq_lease_acquire(db, odd_names[i], 30000, "o w:n%er'\"", 0, &a));
		assert_string_equal(a.name, odd_names[i]);
		assert_lq_ok(db, lq_lease_encode(&a, enc, sizeof(enc)));
		assert_memory_equal(enc, "lq1:", 4);
		if (!shell_safe(enc))
			fail_msg("handle is not one shell-safe word: %s", enc);
		assert_lq_ok(db2, lq_lease_decode(enc, &d, NULL, 0));
		assert_string_equal(d.name, a.name);
		assert_string_equal(d.owner, a.owner);
		assert_int_equal(d.token, a.token);
		/* The decoded handle works from another connection. */
		assert_lq_ok(db2, lq_lease_check(db2, &d));
		assert_lq_ok(db2, lq_lease_renew(db2, &d, 60000));
		assert_true(d.expires_at > a.expires_at);
		assert_lq_ok(db2, lq_lease_release(db2, &d));
		assert_lq(db, LQ_LOST, lq_lease_check(db, &a));
		assert_lq_ok(db, lq_lease_get(db, odd_names[i], &g));
		assert_string_equal(g.owner, "");
	}
	lq_close(db2);
}

static void lease_names_byte_exact(void **state)
{
	lq_db *db = DB(state);
	static const char *const names[] = {
		"a", "a ", "A", " a",
		"\xc3\xa9",  /* e-acute, precomposed */
		"e\xcc\x81", /* e + combining acute */
		"E",
	};
	lq_lease a[7], g;
	size_t n = sizeof(names) / sizeof(names[0]);

	for (size_t i = 0; i < n; i++) {
		assert_lq_ok(db, lq_lease_acquire(db, names[i], 30000, NULL, 0, &a[i]));
		assert_int_equal(a[i].token, 1);
		assert_string_equal(a[i].name, names[i]);
	}
	assert_int_equal(lqt_count_leases(db), (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		assert_lq_ok(db, lq_lease_get(db, names[i], &g));
		assert_string_equal(g.name, names[i]);
		assert_string_equal(g.owner, a[i].owner);
	}
	/* Releasing one leaves the others alone. */
	assert_lq_ok(db, lq_lease_release(db, &a[0]));
	for (size_t i = 1; i < n; i++)
		assert_lq_ok(db, lq_lease_check(db, &a[i]));
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "a  ", &g));
}

static void lease_names_are_data(void **state)
{
	lq_db *db = DB(state);
	static const char *const names[] = {
		"x'); DROP TABLE lq_lease;--",
		"x\"; DROP TABLE lq_lease;--",
		"%", "_", "\\", "'", "?", "$1", ":name",
	};
	lq_lease a, g;
	size_t n = sizeof(names) / sizeof(names[0]);

	assert_lq_ok(db, lq_lease_acquire(db, "plain", 30000, NULL, 0, &a));
	/* LIKE wildcards do not match other names. */
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "%", &g));
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "p____", &g));
	for (size_t i = 0; i < n; i++) {
		assert_lq_ok(db, lq_lease_acquire(db, names[i], 30000, names[i], 0, &a));
		assert_int_equal(a.token, 1);
		assert_lq_ok(db, lq_lease_get(db, names[i], &g));
		assert_string_equal(g.name, names[i]);
		assert_memory_equal(g.owner, names[i], strlen(names[i]));
	}
	assert_int_equal(lqt_count_leases(db), (int64_t)n + 1);
	assert_lq_ok(db, lq_lease_get(db, "plain", &g));
	assert_true(lq_lease_held(&g));
}

static void lease_long_names(void **state)
{
	lq_db *db = DB(state);
	char ascii[LQ_NAME_MAX + 1], utf8[LQ_NAME_MAX + 1], enc[LQ_HANDLE_MAX];
	lq_lease a, g, d;

	/* 255 bytes is the limit, in bytes, not characters. */
	memset(ascii, 'n', LQ_NAME_MAX);
	ascii[LQ_NAME_MAX] = '\0';
	for (int i = 0; i < 85; i++)
		memcpy(utf8 + 3 * i, "\xe2\x82\xac", 3); /* euro sign */
	utf8[LQ_NAME_MAX] = '\0';
	assert_int_equal(strlen(utf8), 255);

	assert_lq_ok(db, lq_lease_acquire(db, ascii, 30000, NULL, 0, &a));
	assert_lq_ok(db, lq_lease_get(db, ascii, &g));
	assert_string_equal(g.name, ascii);
	assert_lq_ok(db, lq_lease_acquire(db, utf8, 30000, NULL, 0, &a));
	assert_lq_ok(db, lq_lease_get(db, utf8, &g));
	assert_string_equal(g.name, utf8);
	assert_string_equal(g.owner, a.owner);
	/* The longest realistic handle fits in LQ_HANDLE_MAX. */
	assert_lq_ok(db, lq_lease_encode(&a, enc, sizeof(enc)));
	assert_lq_ok(db, lq_lease_decode(enc, &d, NULL, 0));
	assert_string_equal(d.name, utf8);
	assert_lq_ok(db, lq_lease_release(db, &d));
	assert_int_equal(lqt_count_leases(db), 2);
}

/* lq_cancel from a signal handler (async-signal-safe) ends a wait for a
 * lease held elsewhere: LQ_ECANCELED and nothing held; the request stays
 * until lq_cancel_clear, so the next wait ends at once too. */
static lq_db *volatile cancel_target;

static void cancel_on_alarm(int sig)
{
	(void)sig;
	lq_cancel(cancel_target);
}

static void lease_wait_cancelled(void **state)
{
	lq_db *db = DB(state), *db2 = other(state);
	lq_lease a, b;
	struct sigaction sa, old;
	struct itimerval it = {{0, 0}, {0, 300000}};

	assert_lq_ok(db, lq_lease_acquire(db, "cancel me", 60000, "holder", 0, &a));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cancel_on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	cancel_target = db2;
	setitimer(ITIMER_REAL, &it, NULL);
	assert_lq(db2, LQ_ECANCELED, lq_lease_acquire(db2, "cancel me", 60000, "waiter", 30000, &b));
	assert_non_null(strstr(lq_errmsg(db2), "cancel me"));
	assert_int_equal(lq_status_is_error(LQ_ECANCELED), 1);
	/* Still pending: the next wait ends at once, without the lease. */
	assert_lq(db2, LQ_ECANCELED, lq_lease_acquire(db2, "cancel me", 60000, "waiter", 30000, &b));
	lq_cancel_clear(db2);
	assert_lq(db2, LQ_BUSY, lq_lease_acquire(db2, "cancel me", 60000, "waiter", 0, &b));
	sigaction(SIGALRM, &old, NULL);
	/* The holder was never disturbed; nobody else holds it. */
	assert_lq_ok(db, lq_lease_get(db, "cancel me", &b));
	assert_string_equal(b.owner, a.owner);
	assert_lq_ok(db, lq_lease_release(db, &a));
	lq_close(db2);
}

/* lq_lease_take covers the three kinds through one options struct. */
static void lease_take_options(void **state)
{
	lq_db *db = DB(state);
	lq_lease x, s1, s2, s3, r1, r2;
	lq_lease_opts sem = {.version = LQ_LEASE_OPTS_VERSION, .kind = LQ_LEASE_SLOT, .slots = 2};
	lq_lease_opts rd = {.version = LQ_LEASE_OPTS_VERSION, .kind = LQ_LEASE_READ};
	lq_lease_opts bad = {.version = LQ_LEASE_OPTS_VERSION + 1};

	assert_lq_ok(db, lq_lease_take(db, "take x", 5000, NULL, &x));
	assert_int_equal(x.kind, LQ_LEASE_EXCLUSIVE);
	assert_lq_ok(db, lq_lease_take(db, "take s", 5000, &sem, &s1));
	assert_lq_ok(db, lq_lease_take(db, "take s", 5000, &sem, &s2));
	assert_lq(db, LQ_BUSY, lq_lease_take(db, "take s", 5000, &sem, &s3));
	assert_int_equal(s1.kind, LQ_LEASE_SLOT);
	assert_int_equal(s1.slots, 2);
	assert_lq_ok(db, lq_lease_take(db, "take r", 5000, &rd, &r1));
	assert_lq_ok(db, lq_lease_take(db, "take r", 5000, &rd, &r2));
	assert_int_equal(r1.kind, LQ_LEASE_READ);
	assert_lq(db, LQ_EINVAL, lq_lease_take(db, "take y", 5000, &bad, &x));
	assert_non_null(strstr(lq_errmsg(db), "version"));
	assert_int_equal(lq_status_is_error(LQ_BUSY), 0);
	assert_int_equal(lq_status_is_error(LQ_EINVAL), 1);
}

int lqt_conf_lease(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(lease_acquire_basic, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_busy, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_short_ttl, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_renew_extends, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_token_never_resets, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_release_stale, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_renew_after_expiry, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_takeover, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_break, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_get_unknown, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_list_order, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_wait_for_expiry, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_wait_for_release, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_wait_times_out, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_encode_decode, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_names_byte_exact, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_names_are_data, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_long_names, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_wait_cancelled, lqt_conf_test_setup),
		cmocka_unit_test_setup(lease_take_options, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "lease/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
