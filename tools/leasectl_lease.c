/*
 * leasectl_lease.c - "leasectl lease list|show|acquire|renew|release|promote|demote|break".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leasectl.h"

#define LEASE_EXITS_COMMON "64  bad usage or invalid input\n69  database unreachable\n1   other failure"

/* ------------------------------------------------------------ list */

struct list_args {
	int unused;
};
static const struct lc_opt list_opts[] = {
	LC_OPT_TABLE_END,
};
static const struct lc_usage list_usage = {
	.path = "lease list",
	.summary = "list every lease, held or free",
	.description = "One line per lease ever acquired, by name: its kind, whether it is held,\n"
		       "by whom, its fencing token and when it expires (on the database clock).\n"
		       "A shared lease has one line per holder: each held slot of a semaphore\n"
		       "(KIND \"slot 2/3\"), each reader of a read lease (\"read #4\"); a semaphore\n"
		       "nobody holds shows once as \"semaphore/N\".\n"
		       "JSON: an array of {name, owner, token, acquired_at, expires_at, held, now}\n"
		       "(times in epoch milliseconds; owner null when free), plus kind (\"slot\" or\n"
		       "\"read\"), slot and slots for the holders of shared leases.  Several --db:\n"
		       "a first DB column (JSON: \"db\", the DSN without its password); a database\n"
		       "that cannot be read is reported and the others are still listed.",
	.opts = list_opts,
	.examples = "leasectl lease list\nleasectl lease list --json | jq '.[] | select(.held)'",
	.exits = "0   listed (also when there are none)\n" LEASE_EXITS_COMMON,
};

struct lease_rows {
	lq_lease *v;
	size_t n, cap;
	int oom;
};

static int collect_lease(const lq_lease *l, void *ctx)
{
	struct lease_rows *rows = ctx;

	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 16;
		lq_lease *v = realloc(rows->v, cap * sizeof(*v));
		if (!v) {
			rows->oom = 1;
			return 1;
		}
		rows->v = v;
		rows->cap = cap;
	}
	rows->v[rows->n++] = *l;
	return 0;
}

/* "exclusive", "slot 2/3", "semaphore/3" (free), "read #4". */
static void lease_kind(char *buf, size_t size, const lq_lease *l)
{
	if (l->kind == LQ_LEASE_SLOT && l->owner[0])
		snprintf(buf, size, "slot %lld/%d", (long long)l->slot, l->slots);
	else if (l->kind == LQ_LEASE_SLOT)
		snprintf(buf, size, "semaphore/%d", l->slots);
	else if (l->kind == LQ_LEASE_READ)
		snprintf(buf, size, "read #%lld", (long long)l->slot);
	else
		snprintf(buf, size, "exclusive");
}

/* The listing of one database or several (several --db: every row says
 * which database, and a database that cannot be read is reported while the
 * others are listed). */
struct lease_listing {
	int several;
	struct lc_listing l;
};

struct lease_db {
	struct lease_listing *s;
	const char *label;
};

/* One lease into the listing, as it comes. */
static int list_one(const lq_lease *l, void *arg)
{
	struct lease_db *d = arg;
	struct lease_listing *s = d->s;
	s->l.n++;
	if (s->l.json) {
		lc_json_obj(&s->l.j);
		if (d->label)
			lc_json_kstr(&s->l.j, "db", d->label);
		lc_json_lease(&s->l.j, l);
		lc_json_end_obj(&s->l.j);
		return 0;
	}
	char token[32], when[96], kind[48];
	int held = lq_lease_held(l);
	snprintf(token, sizeof(token), "%lld", (long long)l->token);
	lc_fmt_when(when, sizeof(when), l->expires_at, l->now);
	lease_kind(kind, sizeof(kind), l);
	const char *cells[] = {d->label ? d->label : "", l->name, kind, held ? "held" : "free", token,
			       held ? when : "-", held ? l->owner : "-"};
	lc_table_row(&s->l.t, s->several ? cells : cells + 1);
	return 0;
}

static int list_db(lq_db *db, const char *label, void *arg)
{
	struct lease_db d = {arg, label};
	lq_status st = lq_lease_list(db, list_one, &d);
	return st == LQ_OK ? 0 : lc_db_error(db, st);
}

static int cmd_lease_list(struct lc_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {"DB", "NAME", "KIND", "STATE", "TOKEN", "EXPIRES", "OWNER"};
	struct list_args a = {0};
	struct lease_listing s = {0};
	int rc = lc_parse(ctx, &list_usage, &a, argc, argv);

	if (rc)
		return LC_PARSE_EXIT(rc);
	s.several = ctx->ndsn > 1;
	if ((rc = lc_listing_begin(&s.l, ctx->json, s.several ? 7 : 6, s.several ? heads : heads + 1)))
		return rc;
	rc = lc_each_db(ctx, list_db, &s);
	/* Several databases: what the reachable ones hold, and the failure's status. */
	lc_listing_end(&s.l, !rc || s.several, "no leases");
	return rc;
}

/* ------------------------------------------------------------ show */

struct show_args {
	const char *name;
};
static const struct lc_opt show_opts[] = {
	LC_ARG(struct show_args, name, "NAME", 0, "the lease"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage show_usage = {
	.path = "lease show",
	.summary = "show one lease: held or free, owner, token, times",
	.description = "Prints the lease's state on the database clock.  A free lease still shows\n"
		       "its last token: tokens only ever grow.  JSON: {name, owner, token,\n"
		       "acquired_at, expires_at, held, now}.  A semaphore, or a lease its readers\n"
		       "hold, shows every holder (slot or reader, token, expiry, owner); JSON:\n"
		       "{name, kind (\"semaphore\" or \"read\"), slots, now, holders: [...]}.",
	.opts = show_opts,
	.examples = "leasectl lease show nightly-report",
	.exits = "0   shown\n1   no such lease (never acquired), or other failure\n"
		 "64  bad usage or invalid name\n69  database unreachable",
};

static void print_lease(const lq_lease *l)
{
	char buf[600], when[96];
	int held = lq_lease_held(l);

	printf("name:         %s\n", lc_pr(buf, sizeof(buf), l->name));
	printf("state:        %s\n", held ? "held" : "free");
	printf("owner:        %s\n", held && l->owner[0] ? lc_pr(buf, sizeof(buf), l->owner) : "-");
	printf("token:        %lld\n", (long long)l->token);
	lc_fmt_when(when, sizeof(when), l->acquired_at, l->now);
	printf("acquired_at:  %s\n", when);
	lc_fmt_when(when, sizeof(when), l->expires_at, l->now);
	printf("%s  %s\n", held ? "expires_at: " : "expired_at: ", when);
}

static int lease_not_found(const char *name)
{
	char buf[600];

	lc_errorf("lease \"%s\": not found", lc_pr(buf, sizeof(buf), name));
	return LC_EXIT_FAIL;
}

/* One JSON document: the lease, and its handle when given. */
static void print_lease_json(const lq_lease *l, const char *handle)
{
	struct lc_json j;

	lc_json_init(&j, stdout);
	lc_json_obj(&j);
	lc_json_lease(&j, l);
	if (handle)
		lc_json_kstr(&j, "handle", handle);
	lc_json_end_obj(&j);
	lc_json_end(&j);
}

/* A shared lease: the lease, then every holder. */
static int show_holders(struct lc_ctx *ctx, lq_db *db, const lq_lease *l)
{
	struct lease_rows rows = {0};
	lq_status st = lq_lease_holders(db, l->name, collect_lease, &rows);
	size_t held = 0;
	char buf[600], kind[48];

	if (st == LQ_OK && rows.oom)
		st = LQ_ENOMEM;
	if (st != LQ_OK) {
		free(rows.v);
		return lc_db_error(db, st);
	}
	for (size_t i = 0; i < rows.n; i++)
		held += lq_lease_held(&rows.v[i]) != 0;
	if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "name", l->name);
		lc_json_kstr(&j, "kind", l->kind == LQ_LEASE_SLOT ? "semaphore" : "read");
		if (l->kind == LQ_LEASE_SLOT)
			lc_json_kint(&j, "slots", l->slots);
		lc_json_kint(&j, "now", l->now);
		lc_json_key(&j, "holders");
		lc_json_arr(&j);
		for (size_t i = 0; i < rows.n; i++) {
			if (!lq_lease_held(&rows.v[i]))
				continue;
			lc_json_obj(&j);
			lc_json_lease(&j, &rows.v[i]);
			lc_json_end_obj(&j);
		}
		lc_json_end_arr(&j);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	} else {
		lease_kind(kind, sizeof(kind), l);
		printf("name:         %s\n", lc_pr(buf, sizeof(buf), l->name));
		printf("kind:         %s\n", l->kind == LQ_LEASE_SLOT ? kind : "read/write (held by readers)");
		printf("holders:      %zu\n", held);
		for (size_t i = 0; i < rows.n; i++) {
			const lq_lease *h = &rows.v[i];
			char when[96], o[600];
			if (!lq_lease_held(h))
				continue;
			lease_kind(kind, sizeof(kind), h);
			lc_fmt_when(when, sizeof(when), h->expires_at, h->now);
			printf("  %-12s token %-6lld until %s  %s\n", kind, (long long)h->token, when,
			       lc_pr(o, sizeof(o), h->owner));
		}
	}
	free(rows.v);
	return 0;
}

static int cmd_lease_show(struct lc_ctx *ctx, int argc, char **argv)
{
	struct show_args a = {0};
	int rc = lc_parse(ctx, &show_usage, &a, argc, argv);
	lq_db *db = NULL;
	lq_lease l;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_check_name(ctx, "lease name", a.name)) || (rc = lc_open_read(ctx, &db)))
		return rc;
	memset(&l, 0, sizeof(l));
	st = lq_lease_get(db, a.name, &l);
	if (st == LQ_NOTFOUND) {
		rc = lease_not_found(a.name);
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (l.kind == LQ_LEASE_EXCLUSIVE) {
		if (ctx->json)
			print_lease_json(&l, NULL);
		else
			print_lease(&l);
	} else {
		rc = show_holders(ctx, db, &l);
	}
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ acquire */

struct acquire_args {
	const char *name, *ttl, *owner, *wait, *slots;
	int read;
};
static const struct lc_opt acquire_opts[] = {
	LC_ARG(struct acquire_args, name, "NAME", 0, "the lease: any UTF-8 name up to 255 bytes"),
	LC_VALUE(struct acquire_args, ttl, "ttl", 0, "DUR", LC_REQUIRED,
		 "how long the lease lasts unless renewed (250ms, 3s, 5m, 2h, 1d)"),
	LC_VALUE(struct acquire_args, owner, "owner", 0, "OWNER", 0,
		 "a label for the holder (default: host:pid); a random part is\nalways appended"),
	LC_VALUE(struct acquire_args, wait, "wait", 0, "DUR", 0,
		 "if the lease is held, keep trying (with back-off) for up to DUR\n(default: fail at once); a lost connection meanwhile is retried"),
	LC_VALUE(struct acquire_args, slots, "slots", 0, "N", 0,
		 "a semaphore: take one of NAME's N slots (1-1000), each with its\n"
		 "own owner, expiry and fencing token"),
	LC_FLAG(struct acquire_args, read, "read", 0,
		"a read lease: shared with other readers, never with a writer\n"
		"(a plain acquire of NAME is its write lease)"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage acquire_usage = {
	.path = "lease acquire",
	.summary = "take a lease and print its handle",
	.description = "Takes the lease NAME for --ttl on the database clock and prints the encoded\n"
		       "handle alone on standard output: keep it to renew or release the lease.\n"
		       "If the lease is held elsewhere, says who holds it until when and exits 75.\n"
		       "JSON: the lease fields plus \"handle\".\n"
		       "\n"
		       "--slots N takes a slot of a semaphore: at most N holders at once.  --read\n"
		       "takes a read lease: any number of readers, or one writer (a plain\n"
		       "acquire of the same NAME); a writer waiting with --wait keeps new readers\n"
		       "out, so readers cannot starve it.  A name keeps its kind: a semaphore is\n"
		       "only ever acquired with --slots and its own N; asking for another kind,\n"
		       "or another N, exits 64 and changes nothing.",
	.opts = acquire_opts,
	.examples = "h=$(leasectl lease acquire nightly --ttl 5m) || exit\n"
		    "leasectl lease acquire deploy --ttl 30s --wait 2m --owner \"$USER\"\n"
		    "h=$(leasectl lease acquire import --ttl 1m --slots 3)   # one of 3 slots\n"
		    "h=$(leasectl lease acquire catalog --ttl 30s --read)",
	.exits = "0   acquired: the handle is on standard output\n"
		 "75  held elsewhere (after --wait, if given)\n" LEASE_EXITS_COMMON,
};


static int cmd_lease_acquire(struct lc_ctx *ctx, int argc, char **argv)
{
	struct acquire_args a = {0};
	int rc = lc_parse(ctx, &acquire_usage, &a, argc, argv);
	int64_t ttl = 0, wait = 0, slots = 0;
	char handle[LQ_HANDLE_MAX];
	lq_db *db = NULL;
	lq_lease l;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_check_name(ctx, "lease name", a.name)) ||
	    (rc = lc_duration(ctx, "--ttl", a.ttl, 0, &ttl)) ||
	    (a.wait && (rc = lc_duration(ctx, "--wait", a.wait, LC_DUR_ZERO_OK, &wait))) ||
	    (a.owner && (rc = lc_check_name(ctx, "owner", a.owner))) ||
	    (a.slots && (rc = lc_integer(ctx, "--slots", a.slots, 1, LQ_SLOTS_MAX, &slots))))
		return rc;
	if (a.slots && a.read)
		return lc_usage_error(ctx, "--slots and --read do not go together: a name is a semaphore or a read/write lease");
	if ((rc = lc_open(ctx, &db)))
		return rc;
	lq_lease_opts lo = LQ_LEASE_OPTS_INIT;
	lo.kind = a.slots ? LQ_LEASE_SLOT : a.read ? LQ_LEASE_READ : LQ_LEASE_EXCLUSIVE;
	lo.slots = (int)slots;
	lo.owner = a.owner;
	lo.wait_ms = wait;
	st = lq_lease_take(db, a.name, ttl, &lo, &l);
	if (st == LQ_BUSY || st == LQ_ETIMEDOUT) {
		rc = (a.slots || a.read) ? lc_shared_held_error(db, LC_EXIT_HELD)
					 : lc_held_error(a.name, &l, LC_EXIT_HELD);
		goto out;
	}
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		goto out;
	}
	st = lq_lease_encode(&l, handle, sizeof(handle));
	if (st != LQ_OK) {
		rc = lc_db_error(NULL, st);
		lq_lease_release(db, &l);
		goto out;
	}
	if (ctx->json)
		print_lease_json(&l, handle);
	else
		printf("%s\n", handle);
	/* A handle nobody received would keep the lease for nothing. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		lq_lease_release(db, &l);
		rc = lc_finish(LC_EXIT_FAIL);
	}
out:
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ renew */

struct renew_args {
	const char *handle, *ttl;
};
static const struct lc_opt renew_opts[] = {
	LC_ARG(struct renew_args, handle, "HANDLE", 0, "the handle printed by 'lease acquire' (or $LEASEQ_LEASE)"),
	LC_VALUE(struct renew_args, ttl, "ttl", 0, "DUR", LC_REQUIRED, "the lease now expires DUR from now"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage renew_usage = {
	.path = "lease renew",
	.summary = "extend a held lease",
	.description = "Extends the lease to now + --ttl, only if HANDLE is still the valid holder,\n"
		       "and prints the handle again.  If the lease expired and was taken, or was\n"
		       "broken, nothing changes and the exit status is 3: stop acting on it.\n"
		       "JSON: the lease fields plus \"handle\".",
	.opts = renew_opts,
	.examples = "leasectl lease renew \"$h\" --ttl 5m || { echo lost; exit 1; }\n"
		    "leasectl lease renew \"$LEASEQ_LEASE\" --ttl 1h   # inside leasectl exec",
	.exits = "0   renewed\n3   lost: the lease expired and was taken, or was broken\n" LEASE_EXITS_COMMON,
};

static int decode_handle(struct lc_ctx *ctx, const char *text, lq_lease *l)
{
	char why[160];
	if (lq_lease_decode(text, l, why, sizeof(why)) != LQ_OK)
		return lc_usage_error(ctx, "invalid lease handle: %s (expected what 'leasectl lease acquire' prints)", why);
	return 0;
}

static int lost(lq_db *db, const lq_lease *l)
{
	const char *msg = lq_errmsg(db);
	char n[600];

	if (msg && *msg)
		lc_errorf("%s", msg);
	else
		lc_errorf("lease \"%s\" lost (token %lld): it expired and was taken, or was broken",
			  lc_pr(n, sizeof(n), l->name), (long long)l->token);
	return LC_EXIT_LOST;
}

static int cmd_lease_renew(struct lc_ctx *ctx, int argc, char **argv)
{
	struct renew_args a = {0};
	int rc = lc_parse(ctx, &renew_usage, &a, argc, argv);
	char handle[LQ_HANDLE_MAX];
	int64_t ttl = 0;
	lq_db *db = NULL;
	lq_lease l, cur;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = decode_handle(ctx, a.handle, &l)) || (rc = lc_duration(ctx, "--ttl", a.ttl, 0, &ttl)))
		return rc;
	if ((rc = lc_open(ctx, &db)))
		return rc;
	st = lq_lease_renew(db, &l, ttl);
	if (st == LQ_LOST) {
		rc = lost(db, &l);
		goto out;
	}
	if (st != LQ_OK) {
		rc = lc_db_error(db, st);
		goto out;
	}
	if ((st = lq_lease_encode(&l, handle, sizeof(handle))) != LQ_OK) {
		rc = lc_db_error(NULL, st);
		goto out;
	}
	if (ctx->json) {
		/* A decoded handle lacks acquired_at and the clock: read them. */
		memset(&cur, 0, sizeof(cur));
		if (lq_lease_get(db, l.name, &cur) == LQ_OK && cur.token == l.token) {
			l.acquired_at = cur.acquired_at;
			l.now = cur.now;
			l.expires_at = cur.expires_at;
		}
		print_lease_json(&l, handle);
	} else {
		printf("%s\n", handle);
	}
out:
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ release */

struct release_args {
	const char *handle;
};
static const struct lc_opt release_opts[] = {
	LC_ARG(struct release_args, handle, "HANDLE", 0, "the handle printed by 'lease acquire' (or $LEASEQ_LEASE)"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage release_usage = {
	.path = "lease release",
	.summary = "hand a lease back",
	.description = "Frees the lease if HANDLE is still its holder.  A late release never frees\n"
		       "someone else's lease: if it expired and was taken (or was broken) nothing\n"
		       "changes and the exit status is 3.  Prints nothing; JSON: {name, token,\n"
		       "released}.",
	.opts = release_opts,
	.examples = "h=$(leasectl lease acquire job --ttl 1m) || exit\n"
		    "trap 'leasectl lease release \"$h\"' EXIT",
	.exits = "0   released\n3   lost: someone else holds it now, or it was broken\n" LEASE_EXITS_COMMON,
};

static int cmd_lease_release(struct lc_ctx *ctx, int argc, char **argv)
{
	struct release_args a = {0};
	int rc = lc_parse(ctx, &release_usage, &a, argc, argv);
	lq_db *db = NULL;
	lq_lease l;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = decode_handle(ctx, a.handle, &l)) || (rc = lc_open(ctx, &db)))
		return rc;
	st = lq_lease_release(db, &l);
	if (st == LQ_LOST) {
		rc = lost(db, &l);
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		struct lc_json j;
		lc_json_init(&j, stdout);
		lc_json_obj(&j);
		lc_json_kstr(&j, "name", l.name);
		lc_json_kint(&j, "token", l.token);
		lc_json_kbool(&j, "released", 1);
		lc_json_end_obj(&j);
		lc_json_end(&j);
	}
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ promote / demote */

struct change_args {
	const char *handle;
};
static const struct lc_opt change_opts[] = {
	LC_ARG(struct change_args, handle, "HANDLE", 0, "the handle printed by 'lease acquire'"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage promote_usage = {
	.path = "lease promote",
	.summary = "turn a read lease into the write lease",
	.description = "Turns the read lease HANDLE into NAME's write (exclusive) lease, atomically\n"
		       "and keeping its expiry, when it is the only reader.  The fencing token\n"
		       "grows.  Prints the new handle (the old one is no longer valid); JSON: the\n"
		       "lease fields plus \"handle\".  If other readers hold it, nothing changes\n"
		       "and the exit status is 75.",
	.opts = change_opts,
	.examples = "h=$(leasectl lease acquire catalog --ttl 1m --read)\n"
		    "h=$(leasectl lease promote \"$h\") || echo \"others are reading\"",
	.exits = "0   promoted: the new handle is on standard output\n75  other readers hold it\n"
		 "3   lost: the read lease expired or was broken\n" LEASE_EXITS_COMMON,
};
static const struct lc_usage demote_usage = {
	.path = "lease demote",
	.summary = "turn the write lease into a read lease",
	.description = "Turns the write (exclusive) lease HANDLE into a read lease, atomically and\n"
		       "keeping its expiry: other readers may join at once, writers stay out.  The\n"
		       "fencing token grows.  Prints the new handle (the old one is no longer\n"
		       "valid); JSON: the lease fields plus \"handle\".",
	.opts = change_opts,
	.examples = "h=$(leasectl lease acquire catalog --ttl 1m)   # write\n"
		    "h=$(leasectl lease demote \"$h\")               # now one reader of many",
	.exits = "0   demoted: the new handle is on standard output\n"
		 "3   lost: the lease expired and was taken, or was broken\n" LEASE_EXITS_COMMON,
};

static int change_kind(struct lc_ctx *ctx, const struct lc_usage *u, int argc, char **argv,
		       lq_status (*change)(lq_db *, lq_lease *))
{
	struct change_args a = {0};
	int rc = lc_parse(ctx, u, &a, argc, argv);
	char handle[LQ_HANDLE_MAX];
	lq_db *db = NULL;
	lq_lease l;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = decode_handle(ctx, a.handle, &l)) || (rc = lc_open(ctx, &db)))
		return rc;
	st = change(db, &l);
	if (st == LQ_LOST)
		rc = lost(db, &l);
	else if (st == LQ_BUSY)
		rc = lc_shared_held_error(db, LC_EXIT_HELD);
	else if (st != LQ_OK)
		rc = lc_db_error(db, st);
	else if ((st = lq_lease_encode(&l, handle, sizeof(handle))) != LQ_OK)
		rc = lc_db_error(NULL, st);
	else if (ctx->json)
		print_lease_json(&l, handle);
	else
		printf("%s\n", handle);
	lq_close(db);
	return rc ? rc : lc_finish(0);
}

static int cmd_lease_promote(struct lc_ctx *ctx, int argc, char **argv)
{
	return change_kind(ctx, &promote_usage, argc, argv, lq_lease_promote);
}

static int cmd_lease_demote(struct lc_ctx *ctx, int argc, char **argv)
{
	return change_kind(ctx, &demote_usage, argc, argv, lq_lease_demote);
}

/* ------------------------------------------------------------ break */

struct break_args {
	const char *name;
};
static const struct lc_opt break_opts[] = {
	LC_ARG(struct break_args, name, "NAME", 0, "the lease"),
	LC_OPT_TABLE_END,
};
static const struct lc_usage break_usage = {
	.path = "lease break",
	.summary = "free a lease whoever holds it (admin)",
	.description = "Frees NAME and bumps its fencing token, so the previous holder's next renew\n"
		       "or release fails with \"lost\" (a 'leasectl exec' holding it stops its\n"
		       "command).  Prints what was broken.  JSON: the lease as it was before the\n"
		       "break ({name, owner, token, acquired_at, expires_at, held, now}).",
	.opts = break_opts,
	.examples = "leasectl lease break nightly-report",
	.exits = "0   broken (also when it was free)\n1   no such lease, or other failure\n"
		 "64  bad usage or invalid name\n69  database unreachable",
};

static int cmd_lease_break(struct lc_ctx *ctx, int argc, char **argv)
{
	struct break_args a = {0};
	int rc = lc_parse(ctx, &break_usage, &a, argc, argv);
	char n[600], o[600], when[96];
	lq_db *db = NULL;
	lq_lease prev;
	lq_status st;

	if (rc)
		return LC_PARSE_EXIT(rc);
	if ((rc = lc_check_name(ctx, "lease name", a.name)) || (rc = lc_open(ctx, &db)))
		return rc;
	memset(&prev, 0, sizeof(prev));
	st = lq_lease_break(db, a.name, &prev);
	if (st == LQ_NOTFOUND) {
		rc = lease_not_found(a.name);
	} else if (st != LQ_OK) {
		rc = lc_db_error(db, st);
	} else if (ctx->json) {
		print_lease_json(&prev, NULL);
	} else if (prev.kind == LQ_LEASE_SLOT) {
		printf("semaphore \"%s\": every slot was freed and its token bumped\n", lc_pr(n, sizeof(n), a.name));
	} else if (prev.kind == LQ_LEASE_READ) {
		printf("broke lease \"%s\": it was held by readers (token %lld); every reader was freed\n",
		       lc_pr(n, sizeof(n), a.name), (long long)prev.token);
	} else if (lq_lease_held(&prev)) {
		lc_fmt_when(when, sizeof(when), prev.expires_at, prev.now);
		printf("broke lease \"%s\": it was held by %s (token %lld) until %s\n", lc_pr(n, sizeof(n), a.name),
		       lc_pr(o, sizeof(o), prev.owner), (long long)prev.token, when);
	} else {
		printf("lease \"%s\" was not held (last token %lld); its token was bumped\n",
		       lc_pr(n, sizeof(n), a.name), (long long)prev.token);
	}
	lq_close(db);
	return rc;
}

/* ------------------------------------------------------------ group */

const struct lc_cmd lc_lease_cmds[] = {
	{"list", cmd_lease_list, "list every lease, held or free", &list_usage, NULL},
	{"show", cmd_lease_show, "show one lease", &show_usage, NULL},
	{"acquire", cmd_lease_acquire, "take a lease and print its handle", &acquire_usage, NULL},
	{"renew", cmd_lease_renew, "extend a held lease", &renew_usage, NULL},
	{"release", cmd_lease_release, "hand a lease back", &release_usage, NULL},
	{"promote", cmd_lease_promote, "turn a read lease into the write lease", &promote_usage, NULL},
	{"demote", cmd_lease_demote, "turn the write lease into a read lease", &demote_usage, NULL},
	{"break", cmd_lease_break, "free a lease whoever holds it (admin)", &break_usage, NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

int cmd_lease(struct lc_ctx *ctx, int argc, char **argv)
{
	return lc_dispatch(ctx, "lease", lc_lease_cmds, "Leases: named, time-bounded, renewable, fenced mutexes",
			   argc, argv);
}
