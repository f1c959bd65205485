/*
 * conf_shared.c - conformance: shared leases.  Semaphores (N slots, each
 * with its own owner, expiry and token), read/write leases (readers
 * together, a writer alone, a waiting writer keeps new readers out),
 * promote/demote, a name keeping its kind, handles, list and break.
 */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define CONF(state) ((lqt_conf *)*(state))
#define DB(state) (CONF(state)->db)

static int count_held(const lq_lease *l, void *ctx)
{
	*(int *)ctx += lq_lease_held(l);
	return 0;
}

static int count_holders(lq_db *db, const char *name)
{
	int n = 0;
	assert_lq_ok(db, lq_lease_holders(db, name, count_held, &n));
	return n;
}

static void sem_n_plus_one_busy(void **state)
{
	lq_db *db = DB(state);
	lq_lease s[4];
	int seen = 0;

	for (int i = 0; i < 3; i++) {
		assert_lq_ok(db, lqt_acquire_slot(db, "import", 3, 5000, "w", 0, &s[i]));
		assert_int_equal(s[i].kind, LQ_LEASE_SLOT);
		assert_int_equal(s[i].slots, 3);
		assert_true(s[i].slot >= 0 && s[i].slot < 3);
		assert_int_equal(s[i].token, 1);
		assert_true(lq_lease_held(&s[i]));
		seen |= 1 << s[i].slot;
	}
	assert_int_equal(seen, 7); /* three different slots */
	assert_lq(db, LQ_BUSY, lqt_acquire_slot(db, "import", 3, 5000, "w", 0, &s[3]));
	assert_non_null(strstr(lq_errmsg(db), "import"));
	assert_int_equal(count_holders(db, "import"), 3);

	/* Release frees exactly that slot; the next taker bumps its token. */
	assert_lq_ok(db, lq_lease_release(db, &s[1]));
	assert_lq_ok(db, lq_lease_release(db, &s[1])); /* twice by its holder: fine */
	assert_int_equal(count_holders(db, "import"), 2);
	assert_lq_ok(db, lqt_acquire_slot(db, "import", 3, 5000, "w", 0, &s[3]));
	assert_int_equal(s[3].slot, s[1].slot);
	assert_int_equal(s[3].token, s[1].token + 1);
	assert_lq(db, LQ_LOST, lq_lease_release(db, &s[1])); /* a late release frees nobody */
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &s[1], 5000));
	assert_lq(db, LQ_LOST, lq_lease_check(db, &s[1]));
	assert_lq_ok(db, lq_lease_check(db, &s[3]));
	assert_lq(db, LQ_BUSY, lqt_acquire_slot(db, "import", 3, 5000, "w", 0, &s[1]));
}

static void sem_expiry_and_tokens(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, b, c;
	int64_t old;

	/* Only b is to expire; its lease outlasts the calls before the wait
	 * however slow a commit is (a slow fsync under load took 200 ms). */
	assert_lq_ok(db, lqt_acquire_slot(db, "sem", 2, 5000, NULL, 0, &a));
	assert_lq_ok(db, lqt_acquire_slot(db, "sem", 2, 600, NULL, 0, &b));
	assert_lq(db, LQ_BUSY, lqt_acquire_slot(db, "sem", 2, 5000, NULL, 0, &c));
	/* Renew extends only its own slot. */
	old = a.expires_at;
	assert_lq_ok(db, lq_lease_renew(db, &a, 10000));
	assert_true(a.expires_at > old);
	lqt_sleep_ms(800);
	/* b expired: its slot is free again, with a larger token. */
	assert_lq_ok(db, lqt_acquire_slot(db, "sem", 2, 5000, NULL, 0, &c));
	assert_int_equal(c.slot, b.slot);
	assert_true(c.token > b.token);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &b, 5000));
	assert_lq(db, LQ_BUSY, lqt_acquire_slot(db, "sem", 2, 100, NULL, 0, &b));

	/* Tokens strictly increase per slot, for the life of the name. */
	int64_t last = 0;
	for (int i = 0; i < 5; i++) {
		assert_lq_ok(db, lqt_acquire_slot(db, "one", 1, 5000, NULL, 0, &a));
		assert_int_equal(a.slot, 0);
		assert_true(a.token > last);
		last = a.token;
		assert_lq_ok(db, lq_lease_release(db, &a));
	}
	assert_int_equal(last, 5);
}

static void sem_wait_for_slot(void **state)
{
	lq_db *db = DB(state);
	lq_lease a, b;

	/* Within the wait (LQ_OK, not LQ_BUSY), once the holder's slot expired
	 * on the database clock. */
	assert_lq_ok(db, lqt_acquire_slot(db, "w", 1, 300, NULL, 0, &a));
	assert_lq_ok(db, lqt_acquire_slot(db, "w", 1, 5000, NULL, 10000, &b));
	assert_true(b.acquired_at >= a.expires_at);
	assert_int_equal(b.token, a.token + 1);
	assert_lq(db, LQ_BUSY, lqt_acquire_slot(db, "w", 1, 5000, NULL, 200, &a));
}

/* A name keeps its kind; the wrong kind changes nothing. */
static void kinds_do_not_mix(void **state)
{
	lq_db *db = DB(state);
	lq_lease s, x, r;

	assert_lq_ok(db, lqt_acquire_slot(db, "sem", 3, 5000, NULL, 0, &s));
	assert_lq(db, LQ_EINVAL, lqt_acquire_slot(db, "sem", 4, 5000, NULL, 0, &x));
	assert_non_null(strstr(lq_errmsg(db), "3 slots"));
	assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, "sem", 5000, NULL, 0, &x));
	assert_non_null(strstr(lq_errmsg(db), "semaphore"));
	assert_lq(db, LQ_EINVAL, lq_lease_acquire(db, "sem", 5000, NULL, 1000, &x)); /* at once, no wait */
	assert_lq(db, LQ_EINVAL, lqt_acquire_read(db, "sem", 5000, NULL, 0, &x));
	assert_int_equal(count_holders(db, "sem"), 1);

	assert_lq_ok(db, lq_lease_acquire(db, "excl", 5000, NULL, 0, &x));
	assert_lq(db, LQ_EINVAL, lqt_acquire_slot(db, "excl", 2, 5000, NULL, 0, &s));
	assert_non_null(strstr(lq_errmsg(db), "not a semaphore"));
	assert_lq_ok(db, lq_lease_release(db, &x));
	assert_lq(db, LQ_EINVAL, lqt_acquire_slot(db, "excl", 2, 5000, NULL, 0, &s)); /* free: still */
	assert_lq_ok(db, lqt_acquire_read(db, "excl", 5000, NULL, 0, &r)); /* same name, read side */
	assert_lq(db, LQ_EINVAL, lqt_acquire_slot(db, "fresh", 0, 5000, NULL, 0, &s));
	assert_lq(db, LQ_EINVAL, lqt_acquire_slot(db, "fresh", LQ_SLOTS_MAX + 1, 5000, NULL, 0, &s));
	assert_lq(db, LQ_EINVAL, lqt_acquire_read(db, "", 5000, NULL, 0, &s));
	assert_lq(db, LQ_EINVAL, lqt_acquire_read(db, "r", 0, NULL, 0, &s));
	assert_lq(db, LQ_NOTFOUND, lq_lease_get(db, "fresh", &x));
	/* A read lease cannot be demoted, nor a write lease promoted. */
	assert_lq(db, LQ_EINVAL, lq_lease_demote(db, &r));
	assert_lq_ok(db, lq_lease_release(db, &r));
	assert_lq_ok(db, lq_lease_acquire(db, "excl", 5000, NULL, 0, &x));
	assert_lq(db, LQ_EINVAL, lq_lease_promote(db, &x));
}

static void readers_and_writer(void **state)
{
	lq_db *db = DB(state);
	lq_lease r[3], w, g;

	for (int i = 0; i < 3; i++) {
		assert_lq_ok(db, lqt_acquire_read(db, "doc", 5000, NULL, 0, &r[i]));
		assert_int_equal(r[i].kind, LQ_LEASE_READ);
		assert_true(r[i].slot >= 1);
		assert_int_equal(r[i].token, r[0].token); /* readers share their group's token */
	}
	assert_int_equal(count_holders(db, "doc"), 3);
	/* Readers keep the writer out... */
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "doc", 5000, NULL, 0, &w));
	assert_lq_ok(db, lq_lease_get(db, "doc", &g));
	assert_int_equal(g.kind, LQ_LEASE_READ);
	assert_lq_ok(db, lq_lease_release(db, &r[0]));
	assert_lq_ok(db, lq_lease_renew(db, &r[1], 5000));
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "doc", 5000, NULL, 0, &w));
	assert_lq_ok(db, lq_lease_release(db, &r[1]));
	assert_lq_ok(db, lq_lease_release(db, &r[2]));
	/* ...until the last one leaves; the writer's token is above theirs. */
	assert_lq_ok(db, lq_lease_acquire(db, "doc", 5000, NULL, 0, &w));
	assert_true(w.token > r[0].token);
	/* A writer keeps readers out. */
	assert_lq(db, LQ_BUSY, lqt_acquire_read(db, "doc", 5000, NULL, 0, &r[0]));
	assert_non_null(strstr(lq_errmsg(db), "writer"));
	assert_lq_ok(db, lq_lease_release(db, &w));
	assert_lq_ok(db, lqt_acquire_read(db, "doc", 5000, NULL, 0, &r[0]));
	assert_true(r[0].token > w.token);
}

static void readers_expire(void **state)
{
	lq_db *db = DB(state);
	lq_lease r1, r2, w;

	assert_lq_ok(db, lqt_acquire_read(db, "exp", 150, NULL, 0, &r1));
	assert_lq_ok(db, lqt_acquire_read(db, "exp", 1000, NULL, 0, &r2));
	lqt_sleep_ms(250);
	/* r1 is gone, r2 still reads: no writer yet. */
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &r1, 5000));
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "exp", 5000, NULL, 0, &w));
	lqt_sleep_ms(900);
	assert_lq_ok(db, lq_lease_acquire(db, "exp", 5000, NULL, 0, &w));
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &r2, 5000));
	assert_lq(db, LQ_LOST, lq_lease_release(db, &r2));
}

static int waiting_writer(int idx, void *ctx)
{
	const char *dsn = ctx;
	lq_db *db = lqt_open(dsn);
	lq_lease w;

	(void)idx;
	LQT_CHECK(db != NULL, "open");
	LQT_CHECK_ST(db, LQ_OK, lq_lease_acquire(db, "queue", 5000, "writer", 20000, &w));
	LQT_CHECK_ST(db, LQ_OK, lq_lease_release(db, &w));
	lq_close(db);
	return 0;
}

/* A writer waiting for readers keeps new readers out, so a stream of
 * readers cannot starve it. */
static void waiting_writer_blocks_readers(void **state)
{
	lqt_conf *c = CONF(state);
	lq_lease r0, r;
	pid_t pid;
	int blocked = 0;

	assert_lq_ok(c->db, lqt_acquire_read(c->db, "queue", 60000, NULL, 0, &r0));
	lqt_conf_close(c);
	pid = lqt_spawn(0, waiting_writer, (void *)c->dsn);
	lqt_conf_reopen(c);
	for (int64_t t0 = lqt_mono_ms(); lqt_mono_ms() - t0 < 10000 && !blocked;) {
		lq_status st = lqt_acquire_read(c->db, "queue", 60000, NULL, 0, &r);
		if (st == LQ_OK) {
			assert_lq_ok(c->db, lq_lease_release(c->db, &r));
			lqt_sleep_ms(20);
		} else {
			assert_int_equal(st, LQ_BUSY);
			assert_non_null(strstr(lq_errmsg(c->db), "waiting"));
			blocked = 1;
		}
	}
	assert_true(blocked);
	/* The old reader still renews; when it leaves, the writer is in. */
	assert_lq_ok(c->db, lq_lease_renew(c->db, &r0, 60000));
	assert_lq_ok(c->db, lq_lease_release(c->db, &r0));
	assert_int_equal(lqt_wait_children(&pid, 1, NULL, 30), 0);
	/* Its intent went with it: readers come back at once. */
	assert_lq_ok(c->db, lqt_acquire_read(c->db, "queue", 5000, NULL, 0, &r));
}

static void promote_and_demote(void **state)
{
	lq_db *db = DB(state);
	lq_lease r1, r2, w, old, x, g;

	assert_lq_ok(db, lqt_acquire_read(db, "pd", 5000, "a", 0, &r1));
	assert_lq_ok(db, lqt_acquire_read(db, "pd", 5000, "b", 0, &r2));
	old = r1;
	/* Not the only reader: refused, nothing changed. */
	assert_lq(db, LQ_BUSY, lq_lease_promote(db, &r1));
	assert_non_null(strstr(lq_errmsg(db), "other reader"));
	assert_memory_equal(&r1, &old, sizeof(old));
	assert_lq_ok(db, lq_lease_check(db, &r1));
	assert_lq_ok(db, lq_lease_release(db, &r2));

	/* The only reader: promoted atomically, keeping its expiry; the token grows. */
	assert_lq_ok(db, lq_lease_promote(db, &r1));
	assert_int_equal(r1.kind, LQ_LEASE_EXCLUSIVE);
	assert_string_equal(r1.owner, old.owner);
	assert_true(r1.token > old.token);
	assert_int_equal(r1.expires_at, old.expires_at);
	assert_lq(db, LQ_BUSY, lqt_acquire_read(db, "pd", 5000, NULL, 0, &x));
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "pd", 5000, NULL, 0, &x));
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &old, 5000)); /* the read handle is spent */
	assert_lq_ok(db, lq_lease_renew(db, &r1, 5000));
	assert_lq_ok(db, lq_lease_get(db, "pd", &g));
	assert_int_equal(g.token, r1.token);
	assert_string_equal(g.owner, r1.owner);

	/* Demote: a reader again, token still growing; readers join, writers wait. */
	w = r1;
	assert_lq_ok(db, lq_lease_demote(db, &r1));
	assert_int_equal(r1.kind, LQ_LEASE_READ);
	assert_true(r1.token > w.token);
	assert_int_equal(r1.expires_at, w.expires_at);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &w, 5000));
	assert_lq_ok(db, lqt_acquire_read(db, "pd", 5000, NULL, 0, &r2));
	assert_int_equal(r2.token, r1.token);
	assert_lq(db, LQ_BUSY, lq_lease_acquire(db, "pd", 5000, NULL, 0, &x));
	assert_int_equal(count_holders(db, "pd"), 2);
	/* A lost reader is not promoted. */
	assert_lq_ok(db, lq_lease_release(db, &r2));
	assert_lq_ok(db, lq_lease_release(db, &r1));
	assert_lq(db, LQ_LOST, lq_lease_promote(db, &r1));
	assert_lq_ok(db, lq_lease_acquire(db, "pd", 5000, NULL, 0, &w));
	x = w;
	assert_lq_ok(db, lq_lease_release(db, &w));
	assert_lq(db, LQ_LOST, lq_lease_demote(db, &x));
}

static void handles_list_break(void **state)
{
	lq_db *db = DB(state);
	lq_lease s, r, d, prev;
	char enc[LQ_HANDLE_MAX];

	assert_lq_ok(db, lqt_acquire_slot(db, "a sem", 2, 5000, NULL, 0, &s));
	assert_lq_ok(db, lqt_acquire_read(db, "a rw", 5000, NULL, 0, &r));
	assert_lq_ok(db, lq_lease_acquire(db, "an excl", 5000, NULL, 0, &d));

	/* Another process takes a handle up by its encoding. */
	assert_lq_ok(db, lq_lease_encode(&s, enc, sizeof(enc)));
	assert_memory_equal(enc, "lq2:s:", 6);
	memset(&d, 0, sizeof(d));
	assert_lq_ok(db, lq_lease_decode(enc, &d, NULL, 0));
	assert_int_equal(d.kind, LQ_LEASE_SLOT);
	assert_int_equal(d.slot, s.slot);
	assert_int_equal(d.token, s.token);
	assert_lq_ok(db, lq_lease_renew(db, &d, 5000));
	assert_lq_ok(db, lq_lease_encode(&r, enc, sizeof(enc)));
	assert_memory_equal(enc, "lq2:r:", 6);
	assert_lq_ok(db, lq_lease_decode(enc, &d, NULL, 0));
	assert_int_equal(d.kind, LQ_LEASE_READ);
	assert_lq_ok(db, lq_lease_check(db, &d));
	assert_lq(db, LQ_EINVAL, lq_lease_decode("lq2:r:0:1:x:o", &d, NULL, 0)); /* readers are slot >= 1 */
	assert_lq(db, LQ_EINVAL, lq_lease_decode("lq2:q:1:1:x:o", &d, NULL, 0));
	assert_lq(db, LQ_EINVAL, lq_lease_decode("lq2:s:-1:1:x:o", &d, NULL, 0));
	/* The reserved owners of shared rows are no handle. */
	assert_lq_ok(db, lq_lease_decode("lq1:1:a%20rw:lq%3Areaders", &d, NULL, 0));
	assert_lq(db, LQ_EINVAL, lq_lease_release(db, &d));

	/* list: every holder, one line each; a semaphore without holders once. */
	assert_int_equal(lqt_count_leases(db), 3);
	assert_lq_ok(db, lqt_acquire_slot(db, "a sem", 2, 5000, NULL, 0, &d));
	assert_int_equal(lqt_count_leases(db), 4);

	/* break frees every slot and reader; their renewals are lost. */
	assert_lq_ok(db, lq_lease_break(db, "a sem", &prev));
	assert_int_equal(prev.kind, LQ_LEASE_SLOT);
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &s, 5000));
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &d, 5000));
	assert_int_equal(count_holders(db, "a sem"), 0);
	assert_lq_ok(db, lqt_acquire_slot(db, "a sem", 2, 5000, NULL, 0, &d));
	assert_true(d.token > s.token);
	assert_lq_ok(db, lq_lease_break(db, "a rw", &prev));
	assert_lq(db, LQ_LOST, lq_lease_renew(db, &r, 5000));
	assert_lq_ok(db, lq_lease_acquire(db, "a rw", 5000, NULL, 0, &d));
	assert_true(d.token > r.token);
}

int lqt_conf_shared(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(sem_n_plus_one_busy, lqt_conf_test_setup),
		cmocka_unit_test_setup(sem_expiry_and_tokens, lqt_conf_test_setup),
		cmocka_unit_test_setup(sem_wait_for_slot, lqt_conf_test_setup),
		cmocka_unit_test_setup(kinds_do_not_mix, lqt_conf_test_setup),
		cmocka_unit_test_setup(readers_and_writer, lqt_conf_test_setup),
		cmocka_unit_test_setup(readers_expire, lqt_conf_test_setup),
		cmocka_unit_test_setup(waiting_writer_blocks_readers, lqt_conf_test_setup),
		cmocka_unit_test_setup(promote_and_demote, lqt_conf_test_setup),
		cmocka_unit_test_setup(handles_list_break, lqt_conf_test_setup),
	};
	char name[64];

	snprintf(name, sizeof(name), "shared/%s", lqt_conf_backend);
	return _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof(tests[0]),
				       lqt_conf_group_setup, lqt_conf_group_teardown);
}
