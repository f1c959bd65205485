/*
 * task.c - the task queue.  Candidates are read in (priority DESC, run_at,
 * id) order and
 * each is claimed by one conditional statement judged by its affected rows:
 * DELETE (at-most-once), UPDATE with a claim lease (at-least-once), or
 * UPDATE of run_at to the next occurrence (recurring).  Where the server has
 * SKIP LOCKED the candidate read locks its rows, so racing claimers take
 * different rows instead of queueing behind one another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LQ_ERROR_MAX 2000          /* bytes of last_error kept */
#define LQ_BACKOFF_BASE_MS 1000
#define LQ_BACKOFF_CAP_MS (3600 * 1000)
#define LQ_DEFAULT_CLAIM_TTL_MS 30000
/* db->limited_heads says HEAD_KEYED: the head's key has one limit (or
 * none) and its queue none, which task_claim_one_*_keyed claims with its
 * start. */
#define HEAD_KEYED 2
/* How long a handle claims such a head by the transaction after the one
 * statement had to leave it (db->keyed_left). */
#define KEYED_LEFT_MS 1000

LQ_EXTERN(void) lq_task_clear_abi(lq_task *t, int abi)
{
	if (!t || !lq__abi_ok(abi))
		return;
	free(t->payload);
	free(t->last_error);
	memset(t, 0, lq__task_size(abi));
}

/* lq__task_from_row reads the TASK_COLS of these; the candidates add the
 * steering after them, the claim_batch ones "claimed", the one-task delete
 * that moves occurrences on "claimed" and next_run_at. */
_Static_assert(LQ_COLS_task_get == LQ_TASK_COLS && LQ_COLS_task_list == LQ_TASK_COLS &&
		       LQ_COLS_task_list_dead == LQ_TASK_COLS &&
		       LQ_COLS_task_candidates == LQ_TASK_COLS + LQ_STEER_COLS &&
		       LQ_COLS_task_candidates_at == LQ_TASK_COLS + LQ_STEER_COLS &&
		       LQ_COLS_task_candidates_due == LQ_TASK_COLS + LQ_STEER_COLS &&
		       LQ_COLS_task_candidates_top == LQ_TASK_COLS + LQ_STEER_COLS &&
		       LQ_COLS_task_candidates_top_filtered == LQ_TASK_COLS + LQ_STEER_COLS &&
		       LQ_COLS_task_claim_batch_delete == LQ_TASK_COLS + 1 &&
		       LQ_COLS_task_claim_batch_update == LQ_TASK_COLS + 1 &&
		       LQ_COLS_task_claim_one_delete == LQ_TASK_COLS + 1 &&
		       LQ_COLS_task_claim_one_delete_occ == LQ_TASK_COLS + 2 &&
		       LQ_COLS_task_claim_one_delete_occ_top == LQ_TASK_COLS + 2 &&
		       LQ_COLS_task_claim_one_update == LQ_TASK_COLS + 1 &&
		       LQ_COLS_task_claim_one_delete_keyed == LQ_TASK_COLS + 1 &&
		       LQ_COLS_task_claim_one_update_keyed == LQ_TASK_COLS + 1,
	       "task rows: sql_names.h and task.c disagree");

lq_status lq__task_from_row(lq_task *t, const lq_value *c, int n)
{
	memset(t, 0, sizeof(*t));
	if (n < LQ_TASK_COLS)
		return LQ_ERROR;
	t->id = lq__col_int(&c[0]);
	lq__col_str(&c[1], t->queue, sizeof(t->queue));
	lq__col_str(&c[2], t->name, sizeof(t->name));
	if (c[3].len > 0 && lq__col_dup(&c[3], (char **)&t->payload, &t->payload_len) != LQ_OK)
		return LQ_ENOMEM; /* an empty payload stays NULL */
	t->run_at = lq__col_int(&c[4]);
	t->attempts = (int)lq__col_int(&c[5]);
	t->max_attempts = (int)lq__col_int(&c[6]);
	lq__col_str(&c[7], t->unique_key, sizeof(t->unique_key));
	lq__col_str(&c[8], t->claim_owner, sizeof(t->claim_owner));
	t->claim_until = lq__col_int(&c[9]);
	t->every_ms = lq__col_int(&c[10]);
	lq__col_str(&c[11], t->cron, sizeof(t->cron));
	lq__col_str(&c[12], t->tz, sizeof(t->tz));
	t->missed = lq__col_int(&c[13]) ? LQ_MISSED_SKIP : LQ_MISSED_ONCE;
	t->paused = lq__col_int(&c[14]) != 0;
	if (lq__col_dup(&c[15], &t->last_error, NULL) != LQ_OK) {
		lq_task_clear(t);
		return LQ_ENOMEM;
	}
	t->created_at = lq__col_int(&c[16]);
	t->dead = lq__col_int(&c[17]) != 0;
	t->died_at = lq__col_int(&c[18]);
	t->now = lq__col_int(&c[19]);
	t->priority = (int)lq__col_int(&c[20]);
	t->timeout_ms = lq__col_int(&c[21]);
	lq__col_str(&c[22], t->concurrency_key, sizeof(t->concurrency_key));
	lq__col_str(&c[23], t->partition, sizeof(t->partition));
	return LQ_OK;
}

static int is_recurring(const lq_task *t)
{
	return t->every_ms > 0 || t->cron[0] != '\0';
}

/* Keep stored errors to one bounded line of valid UTF-8 (strict MySQL
 * rejects anything else, and handler output can be any bytes). */
static void clean_error(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)(in && *in ? in : "failed");
	size_t o = 0;
	while (*p && o + 5 < size) {
		size_t n = 1;
		if (*p >= 0xC2 && *p <= 0xF4)
			n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
		else if (*p >= 0x80)
			n = 0; /* stray continuation or invalid lead byte */
		if (n > strnlen((const char *)p, 4))
			n = 0; /* truncated sequence at the end */
		char one[5] = {0};
		memcpy(one, p, n ? n : 1);
		if (n > 1 && lq_check_name(NULL, one, NULL, 0) != LQ_OK)
			n = 0;
		if (n == 0) {
			out[o++] = '?';
			p++;
			continue;
		}
		for (size_t k = 0; k < n; k++)
			out[o++] = (p[k] == '\n' || p[k] == '\r' || p[k] == '\t') ? ' ' : (char)p[k];
		p += n;
	}
	out[o] = '\0';
}

/* A stored duration that may be absent: 0 is NULL. */
static lq_value opt_ms(int64_t ms)
{
	return ms > 0 ? lq_v_int(ms) : lq_v_null();
}

static void task_what(char *buf, size_t size, int64_t id)
{
	snprintf(buf, size, "task %lld", (long long)id);
}

/* ------------------------------------------------------------------ add */

/* The partition opts give (version 2), or NULL for none. */
static const char *task_part(const lq_task_opts *opts)
{
	return opts && opts->version >= 2 && opts->partition && *opts->partition ? opts->partition : NULL;
}

#define ADD_NPARAMS 15
#define ADD_NAME 1    /* where add_params puts the name ... */
#define ADD_PAYLOAD 2 /* ... and the payload */

struct add_ctx {
	lq_value p[ADD_NPARAMS];
	const char *unique_key;
	const lq_task_opts *opts; /* for its steering (version 2) */
	const char *queue;
	const char *part; /* NULL: none */
	int64_t id;
	int existed;
};

const char *lq__opts_concurrency_key(const lq_task_opts *opts)
{
	return opts && opts->version >= 2 && opts->concurrency_key && *opts->concurrency_key ? opts->concurrency_key
											      : NULL;
}

static lq_status add_body(lq_db *db, void *arg)
{
	struct add_ctx *a = arg;
	a->id = 0;
	a->existed = 0;
	/* The insert returns the new task's id; no row: the key is taken. */
	lq_status st = lq__exec(db, "task add", LQ_SQL_task_insert, a->p, ADD_NPARAMS, lq__row_int, &a->id, NULL);
	if (st != LQ_OK)
		return st;
	if (a->id > 0) {
		if (lq__steer_wanted(a->opts))
			st = lq__steer_store(db, a->id, a->opts);
		if (st == LQ_OK && a->part && !(db->be->caps & LQ_CAP_ADD_TOUCHES_PART))
			st = lq__part_touch(db, "task add", a->queue, a->part);
		return st;
	}
	if (!a->unique_key)
		return lq__fail(db, LQ_ERROR, "task add: the insert changed nothing");
	lq_value k[1] = {lq__v_text(a->unique_key)};
	st = lq__exec(db, "task add", LQ_SQL_task_find_unique, k, 1, lq__row_int, &a->id, NULL);
	if (st != LQ_OK)
		return st;
	if (a->id == 0)
		return LQ__RETRY; /* the holder of the key vanished meanwhile: insert again */
	a->existed = 1;
	return LQ_OK;
}

/* Check one task to add and fill its task_insert parameters (p borrows
 * from name and opts).  *now caches the database clock across a batch
 * (0: not read yet); only a recurring task without a due time reads it. */
static lq_status add_params(lq_db *db, const char *name, const lq_task_opts *opts, lq_value *p, int64_t *now)
{
	static const lq_task_opts defaults = LQ_TASK_OPTS_INIT;
	if (!opts)
		opts = &defaults;
	lq_status st;
	if (opts->version < 1 || opts->version > LQ_TASK_OPTS_VERSION)
		return lq__fail(db, LQ_EINVAL, "task add: unknown lq_task_opts version %u", opts->version);
	if ((st = lq__check_name(db, "task name", name)) != LQ_OK)
		return st;
	const char *queue = opts->queue ? opts->queue : LQ_DEFAULT_QUEUE;
	if ((st = lq__check_name(db, "queue name", queue)) != LQ_OK)
		return st;
	if (opts->unique_key && (st = lq__check_name(db, "unique key", opts->unique_key)) != LQ_OK)
		return st;
	if (task_part(opts) && (st = lq__check_name(db, "partition", task_part(opts))) != LQ_OK)
		return st;
	if (opts->payload_len > LQ_PAYLOAD_MAX)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": payload is %zu bytes, over the %d-byte limit",
				name, opts->payload_len, LQ_PAYLOAD_MAX);
	if (opts->payload_len && !opts->payload)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": payload length without data", name);
	if (opts->max_attempts < 0 || opts->max_attempts > LQ_MAX_ATTEMPTS_MAX)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": max attempts must be 1 to %d (got %d)", name,
				LQ_MAX_ATTEMPTS_MAX, opts->max_attempts);
	if (opts->delay_ms < 0 || opts->delay_ms > LQ_DELAY_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": delay must be between 0 and 100 years", name);
	if (opts->run_at < 0)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": run_at must not be negative", name);
	if (opts->every_ms < 0)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": interval must be positive", name);
	if (opts->every_ms > 0 && opts->every_ms < LQ_EVERY_MIN_MS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": interval of %lld ms is under %d ms", name,
				(long long)opts->every_ms, LQ_EVERY_MIN_MS);
	if (opts->every_ms > LQ_EVERY_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": interval is over ten years", name);
	if (opts->every_ms > 0 && opts->cron)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": give an interval or a cron expression, not both",
				name);
	if (opts->tz && *opts->tz && !opts->cron)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": a time zone needs a cron expression", name);
	if (opts->missed != LQ_MISSED_ONCE && opts->missed != LQ_MISSED_SKIP)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": missed-run policy must be once or skip", name);
	if (opts->cron) {
		char msg[256];
		if (lq_check_schedule(opts->cron, opts->tz, msg, sizeof(msg)) != LQ_OK)
			return lq__fail(db, LQ_EINVAL, "task \"%s\": %s", name, msg);
	}
	if ((st = lq__steer_check(db, name, opts)) != LQ_OK)
		return st;
	const char *ckey = lq__opts_concurrency_key(opts);
	if (ckey && (st = lq__check_name(db, "concurrency key", ckey)) != LQ_OK)
		return st;
	if (ckey && strncmp(ckey, "queue:", 6) == 0)
		return lq__fail(db, LQ_EINVAL,
				"task \"%s\": concurrency key \"%s\" is reserved (\"queue:\" names a queue's limit)", name,
				ckey);
	int priority = opts->priority;
	int64_t timeout_ms = opts->timeout_ms;
	if (timeout_ms < 0 || timeout_ms > LQ_TTL_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task \"%s\": timeout must be between 0 and a year", name);

	int64_t run_at = opts->run_at;
	if (!run_at && !opts->delay_ms && (opts->every_ms > 0 || opts->cron)) {
		/* The first occurrence comes one interval or one cron slot from now. */
		if (!*now && ((st = lq__ready(db)) != LQ_OK || (st = lq_now(db, now)) != LQ_OK))
			return st;
		if (opts->cron) {
			st = lq_cron_next(opts->cron, opts->tz, *now, &run_at, NULL, 0);
			if (st != LQ_OK)
				return lq__fail(db, st, "task \"%s\": no next occurrence of \"%s\" (%s)", name,
						opts->cron, lq_status_str(st));
		} else {
			run_at = *now + opts->every_ms;
		}
	}
	p[0] = lq__v_text(queue);
	p[ADD_NAME] = lq__v_text(name);
	p[ADD_PAYLOAD] = opts->payload_len ? lq_v_blob(opts->payload, opts->payload_len) : lq_v_null();
	p[3] = run_at ? lq_v_int(run_at) : lq_v_null();
	p[4] = lq_v_int(opts->delay_ms);
	p[5] = lq_v_int(opts->max_attempts ? opts->max_attempts : LQ_DEFAULT_MAX_ATTEMPTS);
	p[6] = lq__v_opt_text(opts->unique_key);
	p[7] = opts->every_ms > 0 ? lq_v_int(opts->every_ms) : lq_v_null();
	p[8] = lq__v_opt_text(opts->cron);
	p[9] = lq__v_opt_text(opts->cron ? opts->tz : NULL);
	p[10] = lq_v_int(opts->missed);
	p[11] = lq_v_int(priority);
	p[12] = opt_ms(timeout_ms);
	/* The key and the partition go in with the row: an UPDATE after the
	 * insert would write every index of lq_task twice. */
	p[13] = lq__v_opt_text(lq__opts_concurrency_key(opts));
	p[14] = lq__v_opt_text(task_part(opts));
	return LQ_OK;
}

/* Inside the application's open transaction on a borrowed connection an
 * add may write only the rows it inserts.  A partition's add also writes
 * the queue's row of that partition in lq_partition, which the fair
 * claims lock and stamp (and MySQL's INSERT IGNORE would hold a lock on
 * until the application commits): refused before anything is sent. */
static lq_status add_joins_app_tx(lq_db *db, const char *name, const lq_task_opts *opts)
{
	if (!task_part(opts) || !lq__app_tx(db))
		return LQ_OK;
	return lq__fail(db, LQ_ETXOPEN,
			"task \"%s\": a task with a partition cannot be added inside the application's open "
			"transaction on a borrowed connection (its partition's row is shared with the claims): "
			"commit or roll back first; nothing was changed",
			name);
}

LQ_EXTERN(lq_status) lq_task_add(lq_db *db, const char *name, const lq_task_opts *opts,
				 int64_t *id, int *existed)
{
	lq__ok(db);
	if (id)
		*id = 0;
	if (existed)
		*existed = 0;
	struct add_ctx a;
	memset(&a, 0, sizeof(a));
	int64_t now = 0;
	lq_status st = add_params(db, name, opts, a.p, &now);
	if (st != LQ_OK || (st = lq__ready(db)) != LQ_OK || (st = add_joins_app_tx(db, name, opts)) != LQ_OK)
		return st;
	a.unique_key = opts && opts->unique_key && *opts->unique_key ? opts->unique_key : NULL;
	a.opts = opts;
	a.queue = opts && opts->queue ? opts->queue : LQ_DEFAULT_QUEUE;
	a.part = task_part(opts);
	if ((db->be->caps & LQ_CAP_ONE_STATEMENT_ADD) && !lq__steer_wanted(opts) &&
	    (!a.part || (db->be->caps & LQ_CAP_ADD_TOUCHES_PART))) {
		/* Insert, id and wake-up in one round trip; a taken unique key
		 * goes the general way, which finds its holder. */
		int64_t got[2] = {0, 0}; /* id, and where the dialect says it, busy */
		int skip_look = (db->be->caps & LQ_CAP_NOTIFY) && lq__memo_yes(&db->wake_busy, a.queue, LQ_WAKE_BUSY_MS);
		st = lq__exec_once(db, "task add", skip_look ? LQ_SQL_task_insert : LQ_SQL_task_insert_notify, a.p,
				   ADD_NPARAMS, lq__row_int2, got, NULL);
		if (st != LQ_OK)
			return st;
		if (!skip_look && got[1] == 1)
			lq__memo_set(&db->wake_busy, a.queue, 1);
		if (got[0] > 0) {
			if (id)
				*id = got[0];
			if (a.part)
				lq__part_known(db, a.queue, 1);
			return LQ_OK;
		}
	}
	db->adding = 1;
	st = lq__tx(db, 1, "task add", add_body, &a);
	db->adding = 0;
	if (st != LQ_OK)
		return st;
	if (id)
		*id = a.id;
	if (existed)
		*existed = a.existed;
	if (a.part)
		lq__part_known(db, a.queue, 1);
	if (!a.existed)
		lq__notify(db, LQ_CHANNEL_TASK);
	return LQ_OK;
}

/* ------------------------------------------------------------- add many */

struct many_row {
	int64_t id;
	char *key; /* NULL: no unique key */
};

struct many_ctx {
	size_t n;
	const char *const *names;
	const lq_task_opts *const *opts;
	const size_t *first; /* first[i] != i: task i repeats the unique key of task first[i] */
	int64_t now;
	int64_t *ids;        /* n */
	int *existed;        /* n */
	struct many_row rows[LQ_ADD_MANY_CHUNK];
	size_t nrows;
	lq_status err;
	size_t added;
	int lone;     /* one statement outside a transaction (many_lone) */
	int notified; /* that statement sent the wake-up */
};

static const char *many_key(const struct many_ctx *m, size_t i)
{
	const lq_task_opts *o = m->opts ? m->opts[i] : NULL;
	return o && o->unique_key && *o->unique_key ? o->unique_key : NULL;
}

static int many_row_cb(void *arg, const lq_value *c, int n)
{
	struct many_ctx *m = arg;
	if (n < LQ_COLS_task_insert_many || m->nrows >= LQ_ADD_MANY_CHUNK) {
		m->err = LQ_ERROR;
		return 1;
	}
	struct many_row *r = &m->rows[m->nrows];
	r->id = lq__col_int(&c[0]);
	r->key = NULL;
	if (c[1].type != LQ_V_NULL && lq__col_dup(&c[1], &r->key, NULL) != LQ_OK) {
		m->err = LQ_ENOMEM;
		return 1;
	}
	m->nrows++;
	return 0;
}

static int by_row_id(const void *a, const void *b)
{
	const struct many_row *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void many_rows_free(struct many_ctx *m)
{
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].key);
	m->nrows = 0;
}

/* Tasks idx[0..k) went out in one statement: match the rows it returned
 * (ids ascend in the order given) and look up the holders of taken keys. */
static lq_status many_match(lq_db *db, struct many_ctx *m, const size_t *idx, size_t k)
{
	qsort(m->rows, m->nrows, sizeof(m->rows[0]), by_row_id);
	size_t j = 0;
	for (size_t x = 0; x < k; x++) {
		size_t i = idx[x];
		const char *key = many_key(m, i);
		struct many_row *r = j < m->nrows ? &m->rows[j] : NULL;
		if (r && ((!key && !r->key) || (key && r->key && strcmp(key, r->key) == 0))) {
			m->ids[i] = r->id;
			m->existed[i] = 0;
			m->added++;
			j++;
			continue;
		}
		if (!key)
			return LQ__RETRY; /* MySQL: a racing insert took a key and failed the statement */
		lq_value p[1] = {lq__v_text(key)};
		int64_t holder = 0;
		lq_status st = lq__exec(db, "task add", LQ_SQL_task_find_unique, p, 1, lq__row_int, &holder, NULL);
		if (st != LQ_OK)
			return st;
		if (holder == 0)
			return LQ__RETRY; /* the holder vanished meanwhile: insert again */
		m->ids[i] = holder;
		m->existed[i] = 1;
	}
	if (j != m->nrows)
		return lq__fail(db, LQ_ERROR, "task add: the batch insert returned rows it was not given");
	return LQ_OK;
}

static int same_value(const lq_value *a, const lq_value *b)
{
	if (a->type != b->type || a->i != b->i || a->len != b->len)
		return 0;
	return a->s == b->s || (a->s && b->s && memcmp(a->s, b->s, a->len) == 0);
}

/* Whether the k tasks of a chunk (task_insert's parameters, ADD_NPARAMS
 * each in p) differ only in name and payload; if so, same gets
 * task_insert_many_same's parameters: their options once, then each
 * task's name and payload, NULL-padded. */
#define MANY_SAME_OPTS (ADD_NPARAMS - 2)
#define MANY_SAME_NPARAMS (MANY_SAME_OPTS + 2 * LQ_ADD_MANY_CHUNK)
#define MANY_SAME_KEY 4 /* the unique key among the options (?5) */
static int many_same(const lq_value *p, size_t k, lq_value *same)
{
	for (size_t t = 1; t < k; t++)
		for (int c = 0; c < ADD_NPARAMS; c++)
			if (c != ADD_NAME && c != ADD_PAYLOAD && !same_value(&p[c], &p[t * ADD_NPARAMS + c]))
				return 0;
	int o = 0;
	for (int c = 0; c < ADD_NPARAMS; c++)
		if (c != ADD_NAME && c != ADD_PAYLOAD)
			same[o++] = p[c];
	for (size_t t = 0; t < LQ_ADD_MANY_CHUNK; t++) {
		same[o++] = t < k ? p[t * ADD_NPARAMS + ADD_NAME] : lq_v_null();
		same[o++] = t < k ? p[t * ADD_NPARAMS + ADD_PAYLOAD] : lq_v_null();
	}
	return 1;
}

/* The rows task_insert_many_keyless inserted, as many_row_cb would have
 * had them: added ids ending at the connection's last insert.  Without a
 * key every one of the k tasks goes in; anything else is an error, never
 * a retry, which would add the ones that went in again. */
static lq_status many_span(lq_db *db, struct many_ctx *m, size_t k, int64_t added)
{
	if (added != (int64_t)k)
		return lq__fail(db, LQ_ERROR, "task add: the batch insert added %lld of %zu tasks", (long long)added,
				k);
	int64_t last = db->be->last_insert_id(db->conn);
	for (int64_t r = 0; r < added; r++) {
		m->rows[r].id = last - added + 1 + r;
		m->rows[r].key = NULL;
	}
	m->nrows = (size_t)added;
	return LQ_OK;
}

static lq_status many_body(lq_db *db, void *arg)
{
	struct many_ctx *m = arg;
	lq_value p[LQ_ADD_MANY_CHUNK * ADD_NPARAMS];
	size_t idx[LQ_ADD_MANY_CHUNK];
	m->added = 0;
	size_t i = 0;
	while (i < m->n) {
		size_t k = 0;
		for (; i < m->n && k < LQ_ADD_MANY_CHUNK; i++) {
			if (m->first[i] != i)
				continue; /* settled after the commit, from its first */
			lq_status st = add_params(db, m->names[i], m->opts ? m->opts[i] : NULL, p + k * ADD_NPARAMS, &m->now);
			if (st != LQ_OK)
				return st;
			idx[k++] = i;
		}
		if (k == 0)
			break;
		for (size_t j = k * ADD_NPARAMS; j < LQ_ADD_MANY_CHUNK * ADD_NPARAMS; j++)
			p[j] = lq_v_null();
		m->err = LQ_OK;
		/* Alone, a lost answer is an unknown outcome, not a retry.
		 * Where the dialect can, the statement wakes the workers too,
		 * alone or in the transaction (whose commit sends it). */
		lq_sql_id id = LQ_SQL_task_insert_many, notify = LQ_SQL_task_insert_many_notify;
		const lq_value *args = p;
		int nargs = LQ_ADD_MANY_CHUNK * ADD_NPARAMS;
		lq_value same[MANY_SAME_NPARAMS];
		int keyless = 0;
		if (many_same(p, k, same)) {
			id = LQ_SQL_task_insert_many_same;
			notify = LQ_SQL_task_insert_many_same_notify;
			args = same;
			nargs = MANY_SAME_NPARAMS;
			keyless = same[MANY_SAME_KEY].type == LQ_V_NULL && db->be->last_insert_id &&
				  db->be->sql[LQ_SQL_task_insert_many_keyless];
		}
		if (db->be->sql[notify]) {
			id = notify;
			keyless = 0;
		} else if (keyless) {
			id = LQ_SQL_task_insert_many_keyless;
		}
		int64_t added = 0;
		lq_status st = (m->lone ? lq__exec_once : lq__exec)(db, "task add", id, args, nargs,
								     keyless ? NULL : many_row_cb, m,
								     keyless ? &added : NULL);
		m->notified = st == LQ_OK && id == notify;
		if (st == LQ_OK && keyless)
			st = many_span(db, m, k, added);
		if (st == LQ_OK && m->err != LQ_OK)
			st = lq__fail(db, m->err, "task add: %s",
				      m->err == LQ_ENOMEM ? "out of memory" : "malformed batch insert result");
		if (st == LQ_OK)
			st = many_match(db, m, idx, k);
		const char *queues[LQ_ADD_MANY_CHUNK], *parts[LQ_ADD_MANY_CHUNK];
		int any_part = 0;
		for (size_t j = 0; st == LQ_OK && j < k; j++) {
			const lq_task_opts *o = m->opts ? m->opts[idx[j]] : NULL;
			if (lq__steer_wanted(o) && !m->existed[idx[j]])
				st = lq__steer_store(db, m->ids[idx[j]], o);
			queues[j] = o && o->queue ? o->queue : LQ_DEFAULT_QUEUE;
			parts[j] = m->existed[idx[j]] ? NULL : task_part(o);
			any_part |= parts[j] != NULL;
		}
		if (st == LQ_OK && any_part)
			st = lq__part_touch_many(db, k, queues, parts);
		many_rows_free(m);
		if (st != LQ_OK)
			return st;
	}
	return LQ_OK;
}

/* Whether the batch is one statement that nothing follows up: no unique
 * key (whose holder would be looked up), no steering or partition (whose
 * rows are written after the insert).  That statement is atomic by
 * itself, as a one-task add is, so it needs no transaction around it. */
static int many_lone(const struct many_ctx *m)
{
	if (m->n > LQ_ADD_MANY_CHUNK)
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const lq_task_opts *o = m->opts ? m->opts[i] : NULL;
		if (many_key(m, i) || lq__steer_wanted(o) || task_part(o))
			return 0;
	}
	return 1;
}

struct key_ref {
	const char *key;
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

LQ_EXTERN(lq_status) lq_task_add_many(lq_db *db, size_t n, const char *const *names,
				      const lq_task_opts *const *opts, int64_t *ids, int *existed,
				      size_t *invalid)
{
	lq__ok(db);
	if (invalid)
		*invalid = 0;
	if (n == 0)
		return LQ_OK;
	if (!names)
		return lq__fail(db, LQ_EINVAL, "task add: no names for %zu tasks", n);
	struct many_ctx *m = calloc(1, sizeof(*m));
	size_t *first = calloc(n, sizeof(*first));
	int64_t *my_ids = ids ? ids : calloc(n, sizeof(*my_ids));
	int *my_existed = existed ? existed : calloc(n, sizeof(*my_existed));
	struct key_ref *keys = calloc(n, sizeof(*keys));
	lq_status st = LQ_OK;
	if (!m || !first || !my_ids || !my_existed || !keys) {
		st = lq__fail(db, LQ_ENOMEM, "task add: out of memory for %zu tasks", n);
		goto out;
	}
	m->n = n;
	m->names = names;
	m->opts = opts;
	m->first = first;
	m->ids = my_ids;
	m->existed = my_existed;
	/* Everything is checked before anything is sent: all or nothing. */
	size_t nkeys = 0;
	for (size_t i = 0; i < n; i++) {
		lq_value scratch[ADD_NPARAMS];
		my_ids[i] = 0;
		my_existed[i] = 0;
		first[i] = i;
		if ((st = add_params(db, names[i], opts ? opts[i] : NULL, scratch, &m->now)) != LQ_OK) {
			if (invalid)
				*invalid = i;
			goto out;
		}
		if (many_key(m, i))
			keys[nkeys++] = (struct key_ref){many_key(m, i), i};
	}
	/* A key repeated in the batch: the first task takes it, the others
	 * are settled like a second lq_task_add of that key. */
	qsort(keys, nkeys, sizeof(*keys), by_key);
	for (size_t k = 1; k < nkeys; k++)
		if (strcmp(keys[k].key, keys[k - 1].key) == 0)
			first[keys[k].i] = first[keys[k - 1].i];
	if ((st = lq__ready(db)) != LQ_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if ((st = add_joins_app_tx(db, names[i], opts ? opts[i] : NULL)) != LQ_OK) {
			if (invalid)
				*invalid = i;
			goto out;
		}
	}
	st = LQ__RETRY;
	db->adding = 1;
	if (many_lone(m)) {
		m->lone = 1;
		st = many_body(db, m); /* LQ__RETRY: it inserted nothing */
		m->lone = 0;
	}
	if (st == LQ__RETRY)
		st = lq__tx(db, 1, "task add", many_body, m);
	db->adding = 0;
	if (st != LQ_OK) {
		for (size_t i = 0; i < n; i++)
			my_ids[i] = my_existed[i] = 0;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (first[i] != i) {
			my_ids[i] = my_ids[first[i]];
			my_existed[i] = 1;
		}
	}
	if (m->added > 0 && !m->notified)
		lq__notify(db, LQ_CHANNEL_TASK);
out:
	if (m)
		many_rows_free(m);
	if (my_ids != ids)
		free(my_ids);
	if (my_existed != existed)
		free(my_existed);
	free(keys);
	free(first);
	free(m);
	return st;
}

/* ---------------------------------------------------------------- claim */

struct claim_ctx {
	const char *queue;
	lq_mode mode;
	int64_t claim_ttl;
	lq_task *tasks;  /* caller's array of n */
	size_t n;
	size_t got;
	size_t cand;     /* candidates read into tasks[got..] */
	size_t lost;     /* candidates another claimer took first */
	size_t left;     /* one-statement claim: due candidates it left to the transaction */
	size_t dropped;  /* skipped occurrences and exhausted claims */
	lq_status err;
	const char *what; /* names the queue in messages */
	int one_by_one;   /* a set claim missed rows: claim each by itself */
	size_t held;      /* candidates a limit held back */
	int queue_shut;   /* the queue's limit refused one: it refuses them all */
	int head_limited; /* the first candidate read had to pass its limits */
	unsigned char limited[LQ_CLAIM_MAX]; /* candidate i must pass its limits */
	int track;        /* at-most-once cancellable: mark each one-off run */
	unsigned char steered[LQ_CLAIM_MAX]; /* candidate i came with its steering */
	struct lq__steer steer[LQ_CLAIM_MAX];
};

/* A call claims one occurrence of a recurring task.  A later round (after
 * the first made room, or a fair claim's next one) may find one it claimed
 * due again, at a kept catch-up slot or one that came due meanwhile: that
 * occurrence is the next claim's.  So a round reads as many more rows as
 * recurring tasks were claimed, and passes over those. */
static int claimed_before(const struct claim_ctx *cc, const lq_task *t)
{
	for (size_t i = 0; is_recurring(t) && i < cc->got; i++)
		if (cc->tasks[i].id == t->id)
			return 1;
	return 0;
}

/* The row limit of a round of candidates (see claimed_before). */
static int64_t cand_limit(const struct claim_ctx *cc)
{
	size_t k = 0;
	for (size_t i = 0; i < cc->got; i++)
		k += is_recurring(&cc->tasks[i]) ? 1 : 0;
	return (int64_t)(cc->n - cc->got + k);
}

static int cand_row(void *arg, const lq_value *c, int n)
{
	struct claim_ctx *cc = arg;
	if (cc->got + cc->cand >= cc->n)
		return 1;
	lq_task *t = &cc->tasks[cc->got + cc->cand];
	lq_status st = lq__task_from_row(t, c, n);
	if (st != LQ_OK) {
		cc->err = st;
		return 1;
	}
	if (claimed_before(cc, t)) {
		lq_task_clear(t);
		return 0;
	}
	cc->limited[cc->cand] = lq__col_int(&c[LQ_TASK_COLS - 1]) != 0;
	cc->steered[cc->cand] = 0;
	cc->cand++;
	return 0;
}

/* cand_row of task_candidates*, whose rows carry the steering too: an
 * occurrence's claim then needs no read of its own. */
static int cand_steer_row(void *arg, const lq_value *c, int n)
{
	struct claim_ctx *cc = arg;
	size_t i = cc->cand;
	if (n < LQ_TASK_COLS + LQ_STEER_COLS) {
		cc->err = LQ_ERROR;
		return 1;
	}
	int stop = cand_row(arg, c, n);
	if (cc->cand > i) {
		lq__steer_from_cols(&cc->tasks[cc->got + i], c + LQ_TASK_COLS, &cc->steer[i]);
		cc->steered[i] = 1;
	}
	return stop;
}

/* The at-least-once claim of a task or an occurrence: our owner, a lease of
 * claim_ttl and one more attempt, if it is still due and unclaimed. */
static lq_status claim_with_owner(lq_db *db, struct claim_ctx *cc, lq_task *t, int *claimed)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	int64_t n = 0;
	char owner[LQ_OWNER_MAX + 1];
	lq__make_owner(db, "claim", owner, sizeof(owner));
	lq_value p[3] = {lq_v_int(t->id), lq__v_text(owner), lq_v_int(cc->claim_ttl)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_claim_update, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1) {
		cc->lost++;
		return LQ_OK;
	}
	snprintf(t->claim_owner, sizeof(t->claim_owner), "%s", owner);
	t->claim_until = t->now + cc->claim_ttl;
	t->attempts++;
	*claimed = 1;
	return LQ_OK;
}

/* An occurrence claimed at-least-once: a claim with an owner, a lease and
 * an attempt count, like a one-off task; run_at stays the occurrence's due
 * time until the ack moves it to the next one. */
static lq_status claim_occurrence_alo(lq_db *db, struct claim_ctx *cc, lq_task *t, int64_t next, int *claimed)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	int64_t n = 0;
	lq_status st;
	if (t->claim_owner[0] && t->attempts >= t->max_attempts) {
		/* Its worker died holding the last attempt: give this occurrence
		 * up and move on to the next one. */
		char err[LQ_ERROR_MAX];
		snprintf(err, sizeof(err), "occurrence %lld given up: claim expired after attempt %d of %d (worker lost?)",
			 (long long)t->run_at, t->attempts, t->max_attempts);
		lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(next), lq__v_text(err)};
		st = lq__exec(db, what, LQ_SQL_task_ack_occurrence, p, 4, NULL, NULL, &n);
		cc->dropped++;
		return st;
	}
	st = claim_with_owner(db, cc, t, claimed);
	if (st == LQ_OK && *claimed) {
		t->recurring = 1;
		t->next_run_at = next; /* as of the claim; the ack computes it again */
	}
	return st;
}

/* cancel-previous: the claimed occurrence is revoked once its successor
 * (the regular one a run-now set aside, else the first slot after now) is
 * due; the holder's heartbeat finds that out (lq__steer_preempt). */
static lq_status set_preempt(lq_db *db, const lq_task *t, int64_t next_at)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	int64_t at = next_at;
	int stale = 0;
	if (!at && lq__catch_next(t, 1, t->run_at, t->now, &at, &stale) != LQ_OK)
		return LQ_OK; /* no successor: nothing to preempt for */
	lq_value p[3] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(at)};
	return lq__exec(db, what, LQ_SQL_task_set_preempt, p, 3, NULL, NULL, NULL);
}

/* At-most-once cancellable: the run of one-off task t, just deleted by
 * this transaction's claim, is marked running under owner until now +
 * claim_ttl, so that lq_task_cancel finds it. */
static lq_status track_run(lq_db *db, const struct claim_ctx *cc, lq_task *t, const char *owner)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_value p[8] = {lq_v_int(t->id), lq__v_text(owner), lq_v_int(cc->claim_ttl), lq__v_text(t->queue),
			 lq__v_text(t->name), lq_v_int(t->run_at), lq_v_int(t->attempts), lq_v_int(t->now)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_running_insert, p, 8, NULL, NULL, NULL);
	if (st != LQ_OK)
		return st;
	snprintf(t->claim_owner, sizeof(t->claim_owner), "%s", owner);
	t->claim_until = t->now + cc->claim_ttl;
	return LQ_OK;
}

/* steer: the occurrence's steering as read with it, or NULL (read here). */
static lq_status claim_task(lq_db *db, struct claim_ctx *cc, lq_mode mode, lq_task *t, const struct lq__steer *steer,
			    int *claimed)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	int64_t n = 0;
	lq_status st;
	*claimed = 0;
	t->mode = mode;
	if (is_recurring(t)) {
		int64_t next = 0;
		int stale = 0;
		struct lq__steer sr;
		if (steer)
			sr = *steer;
		else if ((st = lq__steer_read(db, t, &sr)) != LQ_OK)
			return st;
		if (lq__catch_next(t, sr.catch_up, t->run_at, t->now, &next, &stale) != LQ_OK) {
			/* A schedule that no longer parses must not block the queue. */
			lq_value p[3] = {lq_v_int(t->id), lq_v_null(), lq__v_text("schedule never matches")};
			st = lq__exec(db, what, LQ_SQL_task_bury, p, 3, NULL, NULL, &n);
			if (st == LQ_OK && n == 1)
				st = lq__exec(db, what, LQ_SQL_task_delete, p, 1, NULL, NULL, NULL);
			cc->dropped++;
			return st;
		}
		if (sr.next_at)
			next = sr.next_at; /* a run-now's: the regular one it set aside */
		/* A named overlap policy needs the row to show that an occurrence
		 * runs: such an occurrence is claimed with a claim in every mode
		 * (as a capped task is), and the worker keeps it alive. */
		if ((mode == LQ_AT_LEAST_ONCE || sr.overlap != LQ_OVERLAP_DEFAULT) && !(stale && sr.catch_up == 0)) {
			t->mode = LQ_AT_LEAST_ONCE;
			st = claim_occurrence_alo(db, cc, t, next, claimed);
			if (st == LQ_OK && *claimed && sr.overlap == LQ_OVERLAP_CANCEL_PREVIOUS)
				st = set_preempt(db, t, sr.next_at);
			return st;
		}
		lq_value p[3] = {lq_v_int(t->id), lq_v_int(t->run_at), lq_v_int(next)};
		st = lq__exec(db, what, LQ_SQL_task_claim_occurrence, p, 3, NULL, NULL, &n);
		if (st != LQ_OK)
			return st;
		if (n != 1) {
			cc->lost++;
			return LQ_OK;
		}
		if (stale && sr.catch_up == 0) {
			cc->dropped++; /* moved on without running the late occurrence */
			return LQ_OK;
		}
		t->recurring = 1;
		t->next_run_at = next;
		*claimed = 1;
		return LQ_OK;
	}
	if (t->claim_owner[0] && t->attempts >= t->max_attempts) {
		/* An at-least-once claimer died holding its last attempt. */
		char err[LQ_ERROR_MAX];
		snprintf(err, sizeof(err), "claim expired after attempt %d of %d (worker lost?)%s%s",
			 t->attempts, t->max_attempts, t->last_error ? "; last error: " : "",
			 t->last_error ? t->last_error : "");
		lq_value p[3] = {lq_v_int(t->id), lq_v_null(), lq__v_text(err)};
		st = lq__exec(db, what, LQ_SQL_task_bury, p, 3, NULL, NULL, &n);
		if (st == LQ_OK && n == 1)
			st = lq__exec(db, what, LQ_SQL_task_delete, p, 1, NULL, NULL, NULL);
		cc->dropped++;
		return st;
	}
	if (mode == LQ_AT_MOST_ONCE) {
		lq_value p[1] = {lq_v_int(t->id)};
		st = lq__exec(db, what, LQ_SQL_task_claim_delete, p, 1, NULL, NULL, &n);
		if (st != LQ_OK)
			return st;
		if (n != 1) {
			cc->lost++;
			return LQ_OK;
		}
		t->claim_owner[0] = '\0';
		t->claim_until = 0;
		if (cc->track) {
			char owner[LQ_OWNER_MAX + 1];
			lq__make_owner(db, "claim", owner, sizeof(owner));
			if ((st = track_run(db, cc, t, owner)) != LQ_OK)
				return st;
		}
		*claimed = 1;
		return LQ_OK;
	}
	return claim_with_owner(db, cc, t, claimed);
}

/* Claim candidate i of the round (t); a limited one first passes its
 * limits (skipped, not waited for, when one is shut), and under a
 * concurrency cap it is claimed with a claim lease whatever the mode: that
 * claim is its slot, held while the handler runs and freed by ack, fail or
 * expiry. */
static lq_status claim_one(lq_db *db, struct claim_ctx *cc, size_t i, lq_task *t, int *claimed)
{
	const struct lq__steer *steer = cc->steered[i] ? &cc->steer[i] : NULL;
	*claimed = 0;
	if (!cc->limited[i])
		return claim_task(db, cc, cc->mode, t, steer, claimed);
	if (cc->queue_shut) {
		cc->held++;
		return LQ_OK;
	}
	struct lq__limit_gate g;
	int open = 0;
	lq_status st = lq__limit_take(db, cc->what, t->concurrency_key, t->queue, &g, &open);
	if (st != LQ_OK)
		return st;
	if (!open) {
		cc->held++;
		cc->queue_shut = g.queue_shut;
		return LQ_OK;
	}
	st = claim_task(db, cc, g.capped ? LQ_AT_LEAST_ONCE : cc->mode, t, steer, claimed);
	if (st == LQ_OK && !*claimed)
		st = lq__limit_untake(db, cc->what, &g);
	/* The head's key has one limit, or none, and its queue none: the next
	 * one-task claim can take it and its start in one statement. */
	if (st == LQ_OK && i == 0 && cc->head_limited &&
	    (g.n == 0 || (g.n == 1 && strcmp(g.name[0], t->concurrency_key) == 0)))
		cc->head_limited = HEAD_KEYED;
	return st;
}

/* A one-off task that a plain conditional claim settles (not a recurring
 * occurrence, not an expired claim on its last attempt, which is buried). */
static int plain_one_off(const lq_task *t)
{
	return !is_recurring(t) && !(t->claim_owner[0] && t->attempts >= t->max_attempts);
}

/* Claim the candidates marked won[i] == 2 with one statement per
 * LQ_CLAIM_SET_MAX ids.  They were read FOR UPDATE in this transaction, so
 * each statement must affect all its ids; if one does not (a server
 * without SKIP LOCKED, where the read locks nothing), the transaction is
 * retried claiming each row by itself, since the count cannot say which. */
static lq_status claim_set(lq_db *db, struct claim_ctx *cc, lq_task *t, unsigned char *won, size_t cand)
{
	lq_value p[2 + LQ_CLAIM_SET_MAX];
	char owner[LQ_OWNER_MAX + 1] = "";
	int alo = cc->mode == LQ_AT_LEAST_ONCE;
	lq_value *ids = alo ? p + 2 : p;
	if (alo || cc->track)
		lq__make_owner(db, "claim", owner, sizeof(owner));
	if (alo) {
		p[0] = lq__v_text(owner);
		p[1] = lq_v_int(cc->claim_ttl);
	}
	size_t i = 0;
	while (i < cand) {
		size_t from = i, k = 0;
		for (; i < cand && k < LQ_CLAIM_SET_MAX; i++)
			if (won[i] == 2)
				ids[k++] = lq_v_int(t[i].id);
		if (k == 0)
			break;
		for (size_t j = k; j < LQ_CLAIM_SET_MAX; j++)
			ids[j] = lq_v_null();
		int64_t n = 0;
		lq_status st = lq__exec(db, cc->what, alo ? LQ_SQL_task_claim_update_set : LQ_SQL_task_claim_delete_set,
					p, alo ? 2 + LQ_CLAIM_SET_MAX : LQ_CLAIM_SET_MAX, NULL, NULL, &n);
		if (st != LQ_OK)
			return st;
		if (n != (int64_t)k) {
			cc->one_by_one = 1;
			return LQ__RETRY;
		}
		for (size_t j = from; j < i; j++) {
			if (won[j] != 2)
				continue;
			won[j] = 1;
			t[j].mode = cc->mode;
			if (alo) {
				snprintf(t[j].claim_owner, sizeof(t[j].claim_owner), "%s", owner);
				t[j].claim_until = t[j].now + cc->claim_ttl;
				t[j].attempts++;
			} else {
				t[j].claim_owner[0] = '\0';
				t[j].claim_until = 0;
				if (cc->track && (st = track_run(db, cc, &t[j], owner)) != LQ_OK)
					return st;
			}
		}
	}
	return LQ_OK;
}

static void release_range(lq_task *tasks, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		lq_task_clear(&tasks[i]);
}

/* How long a handle trusts what it read of a queue's highest priority: a
 * queue whose highest priority comes to have no due task is walked through
 * for at most this long; a stale answer costs time, never the order. */
#define TOP_RECHECK_MS 1000
/* How long a handle reads the top priority with the limits' filter
 * (task_candidates_top_filtered) after task_candidates_top found nothing
 * where task_candidates_at found a task (lq_limit has rows): a limit
 * deleted is noticed this much later. */
#define LIMITS_RECHECK_MS 10000
/* How long a handle sends a one-task claim of a queue whose first task was
 * limited lately straight to the transaction (db->limited_heads). */
#define LIMITED_HEAD_MS 1000

/* Where the dialect has one-task claims from a known top priority
 * (task_candidates_top, task_claim_one_delete_top,
 * task_ack_claim_one_update_top): whether queue's top priority had a due
 * task a moment ago (read by task_priority_step, or taken by the handle's
 * last claim there) and no such read has found nothing since, so that the
 * next claim may read that priority alone. */
static int top_read_ok(const lq_db *db, const char *queue)
{
	return lq__memo_yes(&db->top_due, queue, TOP_RECHECK_MS);
}

/* Such a read found nothing: the priority ran out of due tasks that others
 * do not hold, or a higher one came (due or not): the full claims for a
 * while, so that a higher priority waiting does not cost two statements a
 * claim. */
static void top_read_empty(lq_db *db, const char *queue)
{
	lq__memo_set(&db->top_due, queue, 0);
}

/* What a one-task claim took is the top due priority now, unless a read
 * of the top found nothing lately. */
static void top_took(lq_db *db, const struct claim_ctx *cc)
{
	if (cc->got == 1 && !(lq__memo_fresh(&db->top_due, cc->queue, TOP_RECHECK_MS) && !db->top_due.yes)) {
		lq__memo_set(&db->top_due, cc->queue, 1);
		db->top_priority = cc->tasks[0].priority;
	}
}

struct priority_step {
	int found;
	int64_t priority;
	int due;
	int lower; /* a lower priority has a task */
};

static int priority_step_row(void *arg, const lq_value *c, int n)
{
	struct priority_step *s = arg;
	if (n >= 3 && c[0].type != LQ_V_NULL) {
		s->found = 1;
		s->priority = c[0].i;
		s->due = c[1].i != 0;
		s->lower = c[2].i != 0;
	}
	return 1;
}

static lq_status priority_step(lq_db *db, struct claim_ctx *cc, const int64_t *below, struct priority_step *s)
{
	lq_value p[2] = {lq__v_text(cc->queue), below ? lq_v_int(*below) : lq_v_null()};
	s->found = 0;
	return lq__exec(db, cc->what, LQ_SQL_task_priority_step, p, 2, priority_step_row, s, NULL);
}

/* What a step from the top (s: the queue's highest priority) found, kept
 * for the handle's next claims: whether that priority waits or has a due
 * task. */
static void top_note(lq_db *db, const char *queue, const struct priority_step *s)
{
	lq__memo_set(&db->top_waits, queue, s->found && !s->due);
	lq__memo_set(&db->top_due, queue, s->found && s->due);
	db->top_priority = s->priority;
}

/* Where the dialect needs it (task_priority_step), a bound on the priority
 * the fair claim's read of the top priority starts from.  That read
 * (lq_task_claim from the left) reads every task of a higher priority that
 * is not due yet; MariaDB cannot take the bound from a subquery, so it is
 * found here, one statement a priority, from the highest priority down to
 * the first with a due task.  Only for a queue whose
 * highest priority has no due task (read once a second per handle): the
 * others pay nothing.  *bounded 0: walk from the left; *none 1: no
 * priority has a due task. */
static lq_status claim_bound(lq_db *db, struct claim_ctx *cc, int *bounded, int64_t *bound, int *none)
{
	*bounded = *none = 0;
	if (!db->be->sql[LQ_SQL_task_priority_step])
		return LQ_OK;
	struct priority_step s = {0, 0, 0, 0};
	lq_status st;
	if (!lq__memo_fresh(&db->top_waits, cc->queue, TOP_RECHECK_MS)) {
		if ((st = priority_step(db, cc, NULL, &s)) != LQ_OK)
			return st;
		top_note(db, cc->queue, &s);
	}
	if (!db->top_waits.yes)
		return LQ_OK;
	/* The step just read (the highest priority, not due) is the first. */
	int read = s.found;
	for (int steps = 0; steps < 32; steps++) {
		int64_t below = s.priority;
		if (!read && (st = priority_step(db, cc, steps ? &below : NULL, &s)) != LQ_OK)
			return st;
		read = 0;
		if (!s.found) {
			*none = 1;
			return LQ_OK;
		}
		if (s.due) {
			*bounded = 1;
			*bound = s.priority;
			return LQ_OK;
		}
	}
	return LQ_OK; /* that many priorities not due: walk from the left */
}

/* Where the dialect reads one priority at a time (task_candidates_at):
 * the due priorities of cc's queue from the highest down, each read to the
 * end of its due tasks, until limit candidates are in.  A step reads the
 * next priority; the first also tells the handle the queue's top (for
 * task_candidates_top and the fair claim's bound).  tried_top: the top
 * read just found nothing. */
static lq_status claim_read_steps(lq_db *db, struct claim_ctx *cc, int64_t limit, int tried_top)
{
	struct priority_step s;
	int64_t below = 0, top_before = db->top_priority;
	int any_due = 0;
	lq_status st;
	for (int step = 0;; step++) {
		if ((st = priority_step(db, cc, step ? &below : NULL, &s)) != LQ_OK)
			return st;
		if (!s.found)
			return LQ_OK;
		if (step == 0)
			top_note(db, cc->queue, &s);
		any_due |= s.due;
		if (!s.lower && !any_due) {
			/* Nothing due at all: the next task to come is read with
			 * the top's range alone, as after a claim there. */
			lq__memo_set(&db->top_due, cc->queue, 1);
			return LQ_OK;
		}
		if (s.due) {
			size_t before = cc->cand;
			lq_value p[3] = {lq__v_text(cc->queue), lq_v_int(limit - (int64_t)cc->cand), lq_v_int(s.priority)};
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_at, p, 3, cand_steer_row, cc, NULL);
			if (st != LQ_OK || cc->err != LQ_OK)
				return st;
			/* The top read saw this priority and took nothing that
			 * this read found: what it leaves out is lq_limit's. */
			if (step == 0 && tried_top && s.priority == top_before && cc->cand > before)
				db->limits_seen_at = lq__mono_ms();
			if ((int64_t)cc->cand >= limit || cc->got + cc->cand >= cc->n)
				return LQ_OK;
		}
		if (!s.lower)
			return LQ_OK;
		below = s.priority;
	}
}

/* One round's candidates, read into cc->tasks after those claimed (up to
 * limit). */
static lq_status claim_read(lq_db *db, struct claim_ctx *cc, int64_t limit)
{
	lq_value p[2] = {lq__v_text(cc->queue), lq_v_int(limit)};
	lq_status st;
	int unlimited = !(db->limits_seen_at && lq__mono_ms() - db->limits_seen_at < LIMITS_RECHECK_MS);
	int tried_top = 0;

	if (limit > 1 && db->be->sql[LQ_SQL_task_candidates_due]) {
		/* A queue of one priority claims in due order, and the due
		 * range ends that read: one statement.  Else none came back. */
		st = lq__exec(db, cc->what, LQ_SQL_task_candidates_due, p, 2, cand_steer_row, cc, NULL);
		if (st != LQ_OK || cc->err != LQ_OK || cc->cand > 0)
			return st;
	}
	lq_sql_id top = unlimited ? LQ_SQL_task_candidates_top : LQ_SQL_task_candidates_top_filtered;
	if (limit == 1 && db->be->sql[top] && top_read_ok(db, cc->queue)) {
		/* The highest priority had a due task a moment ago: its due
		 * range alone, no step.  Nothing there: step down as below. */
		lq_value pt[3] = {p[0], p[1], lq_v_int(db->top_priority)};
		st = lq__exec(db, cc->what, top, pt, 3, cand_steer_row, cc, NULL);
		if (st != LQ_OK || cc->err != LQ_OK || cc->cand > 0)
			return st;
		top_read_empty(db, cc->queue);
		tried_top = unlimited;
	}
	if (db->be->sql[LQ_SQL_task_candidates_at])
		return claim_read_steps(db, cc, limit, tried_top);
	return lq__exec(db, cc->what, LQ_SQL_task_candidates, p, 2, cand_steer_row, cc, NULL);
}

static lq_status claim_body(lq_db *db, void *arg)
{
	struct claim_ctx *cc = arg;
	release_range(cc->tasks, 0, cc->got); /* a retried transaction starts over */
	cc->got = cc->lost = cc->dropped = cc->held = 0;
	cc->queue_shut = cc->head_limited = 0;
	/* Skipped occurrences and buried claims make room: look again, a
	 * bounded number of times, so one call still returns what is due. */
	for (int round = 0; round < 8 && cc->got < cc->n; round++) {
		cc->cand = 0;
		cc->err = LQ_OK;
		int64_t limit = cand_limit(cc);
		lq_status st = claim_read(db, cc, limit);
		if (st == LQ_OK && cc->err != LQ_OK)
			st = lq__fail(db, cc->err, "%s: out of memory", cc->what);
		if (st != LQ_OK) {
			release_range(cc->tasks, cc->got, cc->got + cc->cand);
			return st;
		}
		if (cc->cand == 0)
			break;
		if (round == 0)
			cc->head_limited = cc->limited[0];
		size_t dropped_before = cc->dropped, base = cc->got, cand = cc->cand;
		unsigned char won[LQ_CLAIM_MAX];
		int set = (db->be->caps & LQ_CAP_CLAIM_SET) && !cc->one_by_one && cand > 1;
		for (size_t i = 0; i < cand; i++) {
			lq_task *t = &cc->tasks[base + i];
			int claimed = 0;
			won[i] = 0;
			if (set && plain_one_off(t) && !cc->limited[i]) {
				won[i] = 2; /* claimed below, with the others */
				continue;
			}
			st = claim_one(db, cc, i, t, &claimed);
			if (st != LQ_OK) {
				release_range(cc->tasks, 0, base + cand);
				cc->got = 0;
				return st;
			}
			won[i] = (unsigned char)claimed;
		}
		if (set && (st = claim_set(db, cc, cc->tasks + base, won, cand)) != LQ_OK) {
			release_range(cc->tasks, 0, base + cand);
			cc->got = 0;
			return st;
		}
		for (size_t i = 0; i < cand; i++) {
			lq_task *t = &cc->tasks[base + i];
			if (won[i]) {
				if (&cc->tasks[cc->got] != t) {
					cc->tasks[cc->got] = *t; /* compact: move ownership down */
					memset(t, 0, sizeof(*t));
				}
				cc->got++;
			} else {
				lq_task_clear(t);
			}
		}
		if (cc->dropped == dropped_before)
			break;
	}
	return LQ_OK;
}

/* ------------------------------------------ claim with fair share */

static lq_status settle_unknown_claims(lq_db *db, struct claim_ctx *cc);
static int batch_row(void *arg, const lq_value *c, int n);
static lq_status claim_exec(lq_db *db, struct claim_ctx *cc, lq_sql_id id, const lq_value *p, int np,
			    lq_row_fn fn, void *arg);
static lq_status claim_fair_turn(lq_db *db, struct claim_ctx *cc);

/* A one-task claim by statement sql (p, np), first by top_sql (sql's
 * parameters, then the priority) from the priority the handle's last
 * claim took, where use_top and top_read_ok allow: that reads the
 * priority alone, and when it finds nothing sql follows. */
static lq_status claim_top_first(lq_db *db, struct claim_ctx *cc, int use_top, lq_sql_id top_sql, lq_sql_id sql,
				 const lq_value *p, int np)
{
	lq_value pt[3];
	if (use_top && (size_t)np < sizeof(pt) / sizeof(pt[0]) && top_read_ok(db, cc->queue)) {
		memcpy(pt, p, (size_t)np * sizeof(*p));
		pt[np] = lq_v_int(db->top_priority);
		lq_status st = claim_exec(db, cc, top_sql, pt, np + 1, batch_row, cc);
		if (st != LQ_OK || cc->got > 0 || cc->left > 0)
			return st;
		top_read_empty(db, cc->queue);
	}
	return claim_exec(db, cc, sql, p, np, batch_row, cc);
}

/* A partition served by this claim, and the stamp of its last task. */
struct fair_served {
	char name[LQ_NAME_MAX + 1];
	int64_t stamp;
};

struct fair_ctx {
	struct claim_ctx *cc;
	char (*part)[LQ_NAME_MAX + 1];   /* partition of candidate i of a round */
	struct fair_served *served;      /* cc->n places */
	size_t nserved;
	size_t seen;                     /* heads read, claimed or lost */
	int64_t stamp;                   /* the queue's highest served stamp */
	int stamped;                     /* stamp read (with the first head) */
	int turn;                        /* from db->turn's partition on: no stamps */
};

/* A handle keeps its own turn among the partitions of the queue it claims
 * from: after its first fair claim there (least recently served first,
 * stamped), its claims go on from the partition it served last, in name
 * order, and write no stamp.  Claimers at the same moment then neither
 * choose the same partition nor queue on its row, and a one-task claim
 * costs what the plain one does. */
static int turn_known(const lq_db *db, const char *queue)
{
	return db->turn.set && strcmp(db->turn.queue, queue) == 0;
}

/* Whether the handle's turn in cc's queue can be claimed in one statement
 * of claim_fair_turn's, the one-task or the batch one by cc->n. */
static int turn_in_one(const lq_db *db, const struct claim_ctx *cc)
{
	lq_sql_id id = cc->n > 1 ? LQ_SQL_task_claim_fair_turn_batch_delete : LQ_SQL_task_claim_fair_turn_delete;
	return turn_known(db, cc->queue) && db->be->sql[id];
}

static void turn_note(lq_db *db, const char *queue, const char *part)
{
	snprintf(db->turn.queue, sizeof(db->turn.queue), "%s", queue);
	snprintf(db->turn.part, sizeof(db->turn.part), "%s", part);
	db->turn.set = 1;
}

static int fair_row(void *arg, const lq_value *c, int n)
{
	struct fair_ctx *f = arg;
	struct claim_ctx *cc = f->cc;
	if (n < LQ_TASK_COLS + 2) {
		cc->err = LQ_ERROR;
		return 1;
	}
	if (cc->got + cc->cand >= cc->n)
		return 1;
	if (!f->stamped) {
		f->stamp = lq__col_int(&c[LQ_TASK_COLS + 1]);
		f->stamped = 1;
	}
	lq__col_str(&c[LQ_TASK_COLS], f->part[cc->cand], sizeof(f->part[0]));
	return cand_row(cc, c, n);
}

static void fair_note(struct fair_ctx *f, const char *part, int64_t stamp)
{
	for (size_t i = 0; i < f->nserved; i++) {
		if (strcmp(f->served[i].name, part) == 0) {
			f->served[i].stamp = stamp;
			return;
		}
	}
	snprintf(f->served[f->nserved].name, sizeof(f->served[0].name), "%s", part);
	f->served[f->nserved++].stamp = stamp;
}

static int by_served_name(const void *a, const void *b)
{
	return strcmp(((const struct fair_served *)a)->name, ((const struct fair_served *)b)->name);
}

/* Rounds of one head per partition (task_candidates_fair), each claimed
 * like task_candidates' rows, until the batch is full: a batch spreads
 * over the partitions.  The partitions served get stamps after the
 * highest one, in the order served, written at the end in name order (so
 * that two claimers lock the rows in the same order). */
static lq_status fair_body(lq_db *db, void *arg)
{
	struct fair_ctx *f = arg;
	struct claim_ctx *cc = f->cc;
	release_range(cc->tasks, 0, cc->got); /* a retried transaction starts over */
	cc->got = cc->lost = cc->dropped = cc->held = 0;
	cc->queue_shut = 0;
	f->nserved = f->seen = 0;
	f->stamped = 0;
	lq_value q[3] = {lq__v_text(cc->queue), lq_v_null(), lq_v_int(INT64_MAX)};
	lq_status st = LQ_OK;
	if (cc->n > 1 && db->be->sql[LQ_SQL_partition_lock_all])
		st = lq__exec(db, cc->what, LQ_SQL_partition_lock_all, q, 1, NULL, NULL, NULL);
	/* Where the dialect needs it, the top priority's walk starts at a
	 * bound (claim_bound). */
	int bounded = 0, none = 0;
	int64_t bound = 0;
	if (st == LQ_OK && db->be->sql[LQ_SQL_task_candidates_fair_below] &&
	    (st = claim_bound(db, cc, &bounded, &bound, &none)) == LQ_OK && bounded)
		q[2] = lq_v_int(bound);
	/* idle: rounds that claimed nothing; a head its limit refused (the
	 * filter saw room another claimer took meanwhile) is read again only
	 * a few times. */
	for (int idle = 0; st == LQ_OK && !none && cc->got < cc->n && idle < 4;) {
		cc->cand = 0;
		cc->err = LQ_OK;
		q[1] = lq_v_int(cand_limit(cc));
		int turn_one = f->turn && q[1].i == 1 && db->be->sql[LQ_SQL_task_candidates_fair_after];
		if (f->turn && !turn_one) {
			lq_value t[4] = {q[0], q[1], q[2], lq__v_text(db->turn.part)};
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_fair_turn, t, 4, fair_row, f, NULL);
		} else if (turn_one) {
			/* The partitions after the turn's, then round (and,
			 * from a known priority, the next tasks where other
			 * claimers hold every head), until one read finds one. */
			static const lq_sql_id at_reads[] = {LQ_SQL_task_candidates_fair_after_at,
							     LQ_SQL_task_candidates_fair_upto_at,
							     LQ_SQL_task_candidates_fair_next_at};
			static const lq_sql_id reads[] = {LQ_SQL_task_candidates_fair_after,
							  LQ_SQL_task_candidates_fair_upto};
			lq_value t[3] = {q[0], q[2], lq__v_text(db->turn.part)};
			if (db->be->sql[at_reads[0]] && top_read_ok(db, cc->queue)) {
				/* The priority the last claim took had a due task a
				 * moment ago: its heads alone.  None: read as below. */
				lq_value ta[3] = {q[0], lq_v_int(db->top_priority), t[2]};
				for (size_t i = 0; i < 3 && st == LQ_OK && cc->err == LQ_OK && cc->cand == 0; i++)
					st = lq__exec(db, cc->what, at_reads[i], ta, 3, fair_row, f, NULL);
				if (st == LQ_OK && cc->err == LQ_OK && cc->cand == 0)
					top_read_empty(db, cc->queue);
			}
			for (size_t i = 0; i < 2 && st == LQ_OK && cc->err == LQ_OK && cc->cand == 0; i++)
				st = lq__exec(db, cc->what, reads[i], t, 3, fair_row, f, NULL);
		} else if (q[1].i == 1 && db->be->sql[LQ_SQL_task_candidates_fair_one]) {
			lq_value one[2] = {q[0], q[2]};
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_fair_one, one, 2, fair_row, f, NULL);
		} else if (bounded) {
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_fair_below, q, 3, fair_row, f, NULL);
		} else {
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_fair, q, 2, fair_row, f, NULL);
		}
		if (st == LQ_OK && cc->err == LQ_OK && cc->cand == 0 && q[1].i == 1 &&
		    db->be->sql[LQ_SQL_task_candidates_fair_next]) {
			/* Each head was held, with its partition's row: the next
			 * tasks, so that claimers beyond the partitions' number do
			 * not come back empty-handed. */
			lq_value t[3] = {q[0], q[2], lq__v_text(f->turn ? db->turn.part : "")};
			st = lq__exec(db, cc->what, LQ_SQL_task_candidates_fair_next, t, 3, fair_row, f, NULL);
		}
		if (st == LQ_OK && cc->err != LQ_OK)
			st = lq__fail(db, cc->err, "%s: %s", cc->what,
				      cc->err == LQ_ENOMEM ? "out of memory" : "malformed claim result");
		if (st != LQ_OK) {
			release_range(cc->tasks, cc->got, cc->got + cc->cand);
			break;
		}
		size_t base = cc->got, cand = cc->cand, dropped_before = cc->dropped, got_before = cc->got;
		size_t held_before = cc->held;
		f->seen += cand;
		/* Where the dialect has it, the plain one-off heads in one
		 * statement (claim_set), the others one by one; a head under a
		 * limit passes the limits' gate (claim_one). */
		unsigned char won[LQ_CLAIM_MAX];
		int set = (db->be->caps & LQ_CAP_CLAIM_SET) && !cc->one_by_one && cand > 1;
		for (size_t i = 0; i < cand; i++) {
			won[i] = 0;
			if (set && plain_one_off(&cc->tasks[base + i]) && !cc->limited[i])
				won[i] = 2;
		}
		if (set && st == LQ_OK)
			st = claim_set(db, cc, cc->tasks + base, won, cand);
		for (size_t i = 0; i < cand; i++) {
			lq_task *t = &cc->tasks[base + i];
			int claimed = won[i] == 1;
			if (st == LQ_OK && won[i] == 0)
				st = claim_one(db, cc, i, t, &claimed);
			if (st != LQ_OK || !claimed) {
				lq_task_clear(t);
				continue;
			}
			fair_note(f, f->part[i], ++f->stamp);
			if (&cc->tasks[cc->got] != t) {
				cc->tasks[cc->got] = *t; /* compact: move ownership down */
				memset(t, 0, sizeof(*t));
			}
			cc->got++;
		}
		if (turn_one && db->be->sql[LQ_SQL_task_candidates_fair_after_at])
			top_took(db, cc); /* the priority the next turn reads first */
		/* Every head was lost to other claimers and nothing made room:
		 * stop rather than chase them.  A head a limit held back is not
		 * read again while the limit stays shut (the filter skips it),
		 * and a shut queue limit refuses the rest. */
		if (cc->queue_shut ||
		    (cc->got == got_before && cc->dropped == dropped_before && cc->held == held_before))
			break;
		if (cc->got == got_before)
			idle++;
	}
	/* No head at all: where the read skips locked rows, racing claimers
	 * may hold every one.  Then the claim is lost to them (LQ_BUSY),
	 * not left to the plain order, which would serve the biggest
	 * partition. */
	if (st == LQ_OK && f->seen == 0 && !none && db->be->sql[LQ_SQL_task_fair_due_any]) {
		int64_t any = 0;
		st = lq__exec(db, cc->what, LQ_SQL_task_fair_due_any, q, 1, lq__row_int, &any, NULL);
		if (st == LQ_OK && any) {
			f->seen = 1;
			cc->lost++;
		}
	}
	qsort(f->served, f->nserved, sizeof(f->served[0]), by_served_name);
	for (size_t i = 0; st == LQ_OK && !f->turn && i < f->nserved; i += LQ_PART_SERVE_MAX) {
		lq_value p[1 + 2 * LQ_PART_SERVE_MAX];
		p[0] = lq__v_text(cc->queue);
		for (size_t k = 0; k < LQ_PART_SERVE_MAX; k++) {
			int on = i + k < f->nserved;
			p[1 + 2 * k] = on ? lq__v_text(f->served[i + k].name) : lq_v_null();
			p[2 + 2 * k] = on ? lq_v_int(f->served[i + k].stamp) : lq_v_null();
		}
		st = lq__exec(db, cc->what, LQ_SQL_partition_serve, p, 1 + 2 * LQ_PART_SERVE_MAX, NULL, NULL, NULL);
	}
	if (st != LQ_OK) {
		release_range(cc->tasks, 0, cc->got);
		cc->got = 0;
	}
	return st;
}

/* The fair claim of a queue with partitions, in one transaction.  *seen:
 * it read heads (claimed, or lost to other claimers). */
static lq_status claim_fair_tx(lq_db *db, struct claim_ctx *cc, int *seen)
{
	struct fair_ctx f = {cc, calloc(cc->n, sizeof(*f.part)), calloc(cc->n, sizeof(*f.served)), 0, 0, 0, 0, 0};
	/* Where the dialect reads heads from a turn (the batch's read takes
	 * one task too where there is no one-task read). */
	f.turn = turn_known(db, cc->queue) && db->be->sql[LQ_SQL_task_candidates_fair_turn];
	lq_status st;
	if (!f.part || !f.served) {
		st = lq__fail(db, LQ_ENOMEM, "%s: out of memory", cc->what);
	} else {
		st = lq__tx(db, 1, cc->what, fair_body, &f);
		if (st == LQ_EUNKNOWN && cc->mode == LQ_AT_LEAST_ONCE && cc->got > 0)
			st = settle_unknown_claims(db, cc);
		if (st != LQ_OK) {
			release_range(cc->tasks, 0, cc->n);
			cc->got = 0;
		}
	}
	*seen = f.seen > 0;
	free(f.part);
	free(f.served);
	return st;
}

/* The tasks a one-statement fair claim returned, in its mode; at most
 * once they are under no claim (an expired claim's owner went with the
 * row). */
static void fair_claimed(struct claim_ctx *cc)
{
	for (size_t i = 0; i < cc->got; i++) {
		cc->tasks[i].mode = cc->mode;
		if (cc->mode != LQ_AT_LEAST_ONCE) {
			cc->tasks[i].claim_owner[0] = '\0';
			cc->tasks[i].claim_until = 0;
		}
	}
}

/* The fair claim in one statement (where LQ_CAP_CLAIM_RETURNING), rows in
 * fair order; cc->left counts the candidates it left to the transaction. */
static lq_status claim_fair_returning(lq_db *db, struct claim_ctx *cc)
{
	/* Rounds from the handle's turn on, no stamps. */
	if (cc->n > 1 && turn_in_one(db, cc))
		return claim_fair_turn(db, cc);
	char owner[LQ_OWNER_MAX + 1] = "";
	lq_value p[5] = {lq__v_text(cc->queue), lq_v_int((int64_t)cc->n), lq_v_null(), lq_v_int(cc->claim_ttl)};
	int alo = cc->mode == LQ_AT_LEAST_ONCE;
	lq_sql_id id = alo ? LQ_SQL_task_claim_fair_update : LQ_SQL_task_claim_fair_delete;
	int np = alo ? 4 : 2;
	if (alo) {
		lq__make_owner(db, "claim", owner, sizeof(owner));
		p[2] = lq__v_text(owner);
	}
	if (cc->n == 1) { /* the same without the limit parameter */
		id = alo ? LQ_SQL_task_claim_fair_one_update : LQ_SQL_task_claim_fair_one_delete;
		p[1] = p[2];
		p[2] = p[3];
		np--;
	}
	lq_status st = claim_exec(db, cc, id, p, np, batch_row, cc);
	if (st != LQ_OK)
		return st;
	fair_claimed(cc);
	return LQ_OK;
}

static lq_status claim_fair_ways(lq_db *db, struct claim_ctx *cc, int *seen);

/* The claim of a queue: the fair way if it has partitions (*fair = 1),
 * and *seen = 1 if that read due heads.  A fair claim that lost every head
 * to other claimers must not fall back to the plain order, which would
 * serve the biggest partition. */
static lq_status claim_fair(lq_db *db, struct claim_ctx *cc, int *fair, int *seen)
{
	*seen = 0;
	lq_status st = lq__part_on(db, cc->queue, fair);
	if (st != LQ_OK || !*fair)
		return st;
	if ((st = claim_fair_ways(db, cc, seen)) == LQ_OK && cc->got > 0)
		turn_note(db, cc->queue, cc->tasks[cc->got - 1].partition);
	return st;
}

/* A batch's tasks, which came back in no order, in its turn's: by round
 * (a task's place among those of its partition, in (run_at, id) order),
 * then by name from the partition after last, then round. */
struct turn_slot {
	lq_task t;
	size_t round;
	int wrapped;
};

static int by_part_due(const void *a, const void *b)
{
	const lq_task *x = a, *y = b;
	int c = strcmp(x->partition, y->partition);
	if (c)
		return c;
	if (x->run_at != y->run_at)
		return x->run_at < y->run_at ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_turn(const void *a, const void *b)
{
	const struct turn_slot *x = a, *y = b;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	if (x->wrapped != y->wrapped)
		return x->wrapped - y->wrapped;
	return strcmp(x->t.partition, y->t.partition);
}

static void turn_order(lq_task *tasks, size_t n, const char *last)
{
	if (n < 2)
		return;
	qsort(tasks, n, sizeof(*tasks), by_part_due);
	struct turn_slot *s = malloc(n * sizeof(*s));
	if (!s)
		return; /* the claimed tasks stand, in partition order */
	for (size_t i = 0; i < n; i++) {
		s[i].t = tasks[i];
		s[i].round = i > 0 && strcmp(tasks[i].partition, tasks[i - 1].partition) == 0 ? s[i - 1].round + 1 : 0;
		s[i].wrapped = strcmp(tasks[i].partition, last) <= 0;
	}
	qsort(s, n, sizeof(*s), by_turn);
	for (size_t i = 0; i < n; i++)
		tasks[i] = s[i].t; /* ownership moves back */
	free(s);
}

/* A handle's turn in one statement, where the dialect has it: one task
 * from the partition after the one it served last, or a batch in rounds
 * from there (where LQ_CAP_CLAIM_SHORT, it comes back in no order and only
 * with the tasks it claimed, and is put in the turn's order here).  What a
 * one-task claim leaves (a recurring head, one under a limit, nothing it
 * could see) goes on the other ways with cc->got = 0. */
static lq_status claim_fair_turn(lq_db *db, struct claim_ctx *cc)
{
	char owner[LQ_OWNER_MAX + 1] = "";
	int alo = cc->mode == LQ_AT_LEAST_ONCE, batch = cc->n > 1;
	lq_value p[5];
	int np = 0;

	/* (?1 queue, [limit,] the turn, [owner, claim ms]) */
	p[np++] = lq__v_text(cc->queue);
	if (batch)
		p[np++] = lq_v_int((int64_t)cc->n);
	p[np++] = lq__v_text(db->turn.part);
	if (alo) {
		lq__make_owner(db, "claim", owner, sizeof(owner));
		p[np++] = lq__v_text(owner);
		p[np++] = lq_v_int(cc->claim_ttl);
	}
	lq_sql_id sql = batch ? (alo ? LQ_SQL_task_claim_fair_turn_batch_update : LQ_SQL_task_claim_fair_turn_batch_delete)
			      : (alo ? LQ_SQL_task_claim_fair_turn_update : LQ_SQL_task_claim_fair_turn_delete);
	/* One task at most once: from the priority the last claim took, as
	 * claim_returning's plain claim. */
	int one = sql == LQ_SQL_task_claim_fair_turn_delete && db->be->sql[LQ_SQL_task_claim_fair_turn_delete_top];
	lq_status st = claim_top_first(db, cc, one, LQ_SQL_task_claim_fair_turn_delete_top, sql, p, np);
	if (st != LQ_OK)
		return st;
	if (one)
		top_took(db, cc);
	if (batch) {
		if (db->be->caps & LQ_CAP_CLAIM_SHORT) /* else they come in the turn's order */
			turn_order(cc->tasks, cc->got, db->turn.part);
	} else if (cc->got != 1) { /* a head left to the transaction, not claimed */
		release_range(cc->tasks, 0, cc->got);
		cc->got = cc->left = 0;
		return LQ_OK;
	}
	fair_claimed(cc);
	return LQ_OK;
}

/* After a one-statement fair claim got cc->got of cc->n tasks: the
 * transaction, appending, which skips to the next heads. */
static lq_status fair_rest_tx(lq_db *db, struct claim_ctx *cc, int *seen)
{
	struct claim_ctx rest = *cc;
	rest.tasks = cc->tasks + cc->got;
	rest.n = cc->n - cc->got;
	rest.got = rest.lost = 0;
	lq_status st = claim_fair_tx(db, &rest, seen);
	if (st != LQ_OK) {
		if (cc->got == 0)
			return st;
		lq__ok(db); /* what the first statement claimed has committed */
		rest.got = 0;
	}
	cc->got += rest.got;
	cc->lost += rest.lost;
	/* Nothing due among the heads it may take (what is due is under a
	 * limit, say): the plain claim and its gate take over. */
	if (cc->got > 0)
		*seen = 1;
	return LQ_OK;
}

/* The fair claim by the cheapest way the dialect and the handle's turn
 * allow. */
static lq_status claim_fair_ways(lq_db *db, struct claim_ctx *cc, int *seen)
{
	lq_status st;
	if (cc->n == 1 && !cc->track && turn_in_one(db, cc)) {
		if ((st = claim_fair_turn(db, cc)) != LQ_OK)
			return st;
		if (cc->got == 1) {
			*seen = 1;
			return LQ_OK;
		}
	}
	if ((db->be->caps & LQ_CAP_CLAIM_SHORT) && cc->n > 1 && !cc->track && turn_in_one(db, cc)) {
		if ((st = claim_fair_turn(db, cc)) != LQ_OK)
			return st;
		if (cc->got == cc->n) {
			*seen = 1;
			return LQ_OK;
		}
		/* Short: nothing more due, or heads it could not finish; the
		 * rest goes on from the last partition served. */
		if (cc->got > 0)
			turn_note(db, cc->queue, cc->tasks[cc->got - 1].partition);
		return fair_rest_tx(db, cc, seen);
	}
	/* No fair claim in one statement (SQLite's first batch, MariaDB), or
	 * runs to mark: the transaction. */
	if (!(db->be->caps & LQ_CAP_CLAIM_RETURNING) || !db->be->sql[LQ_SQL_task_claim_fair_delete] || cc->track)
		return claim_fair_tx(db, cc, seen);
	/* Rounds of one task a partition until the batch is full or a round
	 * finds nothing. */
	size_t got = 0, left = 0;
	do {
		struct claim_ctx r = *cc;
		r.tasks = cc->tasks + got;
		r.n = cc->n - got;
		if ((st = claim_fair_returning(db, &r)) != LQ_OK) {
			if (got == 0)
				return st;
			lq__ok(db); /* the rounds before have committed */
			break;
		}
		got += r.got;
		left = r.left;
		if (r.got == 0)
			break;
		turn_note(db, cc->queue, cc->tasks[got - 1].partition); /* the next round goes on */
	} while (got < cc->n && left == 0);
	cc->got = got;
	cc->left = left;
	if (st != LQ_OK || cc->got == cc->n || (cc->got > 0 && cc->left == 0)) {
		*seen = cc->got > 0;
		return LQ_OK;
	}
	/* Recurring tasks and exhausted claims, or nothing (another claimer
	 * held every head it chose; or nothing is due). */
	return fair_rest_tx(db, cc, seen);
}

/* A queue with partitions found nothing due: drop the partitions without
 * tasks (a queue left with none claims the plain way again).  Best
 * effort: the claim's answer stands whatever this does. */
static void fair_forget(lq_db *db, const char *queue)
{
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	lq_value p[1] = {lq__v_text(queue)};
	(void)lq__exec(db, "task claim", LQ_SQL_partition_forget, p, 1, NULL, NULL, NULL);
	db->part.read_at = 0; /* read again at the next claim */
	if (turn_known(db, queue))
		db->turn.set = 0; /* a new backlog starts at the least recently served */
	memcpy(db->errmsg, saved, sizeof(saved));
}

/* ------------------------------------------- claim in one statement */

static int batch_row(void *arg, const lq_value *c, int n)
{
	struct claim_ctx *cc = arg;
	if (n < LQ_TASK_COLS + 1) {
		cc->err = LQ_ERROR;
		return 1;
	}
	int64_t claimed = lq__col_int(&c[LQ_TASK_COLS]);
	if (claimed == 0) {
		cc->left++;
		return 0;
	}
	if (cc->got >= cc->n)
		return 1;
	lq_task *t = &cc->tasks[cc->got];
	lq_status st = lq__task_from_row(t, c, n);
	if (st != LQ_OK) {
		cc->err = st;
		return 1;
	}
	if (claimed == 2) { /* an occurrence moved on: the next one follows */
		if (n < LQ_TASK_COLS + 2) {
			lq_task_clear(t);
			cc->err = LQ_ERROR;
			return 1;
		}
		t->recurring = 1;
		t->next_run_at = lq__col_int(&c[LQ_TASK_COLS + 1]);
	}
	cc->got++;
	return 0;
}

static int by_due(const void *a, const void *b)
{
	const lq_task *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	if (x->run_at != y->run_at)
		return x->run_at < y->run_at ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Send a one-statement claim (fn reads its rows into cc); on failure
 * nothing is kept. */
static lq_status claim_exec(lq_db *db, struct claim_ctx *cc, lq_sql_id id, const lq_value *p, int np,
			    lq_row_fn fn, void *arg)
{
	cc->got = cc->left = 0;
	cc->err = LQ_OK;
	lq_status st = lq__exec_once(db, cc->what, id, p, np, fn, arg, NULL);
	if (st == LQ_OK && cc->err != LQ_OK)
		st = lq__fail(db, cc->err, "%s: %s", cc->what,
			      cc->err == LQ_ENOMEM ? "out of memory" : "malformed claim result");
	if (st != LQ_OK) {
		release_range(cc->tasks, 0, cc->got);
		cc->got = cc->left = 0;
	}
	return st;
}

/* Whether a one-task at-most-once claim of queue should send
 * task_claim_one_delete_occ: the handle's last claim there took an
 * interval occurrence, and nothing since said the head is something else.
 * The statement costs a plain claim more (its UPDATE's set-up), so a
 * queue of one-off tasks never pays it. */
static int occ_head_likely(const lq_db *db, const char *queue)
{
	return db->be->sql[LQ_SQL_task_claim_one_delete_occ] && lq__memo_yes(&db->occ_heads, queue, INT64_MAX);
}

/* After a claim of n tasks that the transaction made (got of them in t):
 * an interval occurrence taken at-most-once, alone, can be taken in one
 * statement next time. */
static void occ_head_seen(lq_db *db, const char *queue, size_t n, size_t got, const lq_task *t)
{
	if (db->be->sql[LQ_SQL_task_claim_one_delete_occ] && n == 1 && got == 1 && t->mode == LQ_AT_MOST_ONCE &&
	    t->recurring && t->every_ms > 0)
		lq__memo_set(&db->occ_heads, queue, 1);
}

/* One round trip: lock, claim and return up to cc->n due one-off tasks.
 * cc->left counts the due candidates it had to leave (recurring tasks,
 * exhausted claims), which need the transactional path. */
static lq_status claim_returning(lq_db *db, struct claim_ctx *cc)
{
	char owner[LQ_OWNER_MAX + 1] = "";
	lq_value p[4] = {lq__v_text(cc->queue), lq_v_int((int64_t)cc->n), lq_v_null(), lq_v_int(cc->claim_ttl)};
	lq_sql_id id = LQ_SQL_task_claim_batch_delete;
	int np = 2;
	if (cc->mode == LQ_AT_LEAST_ONCE) {
		lq__make_owner(db, "claim", owner, sizeof(owner));
		p[2] = lq__v_text(owner);
		id = LQ_SQL_task_claim_batch_update;
		np = 4;
	}
	if (cc->n == 1) { /* the same without the limit parameter */
		id = cc->mode == LQ_AT_LEAST_ONCE ? LQ_SQL_task_claim_one_update : LQ_SQL_task_claim_one_delete;
		p[1] = p[2];
		p[2] = p[3];
		np--;
	}
	if (cc->track) { /* n == 1 (track_in_one): the mark goes with the claim */
		lq__make_owner(db, "claim", owner, sizeof(owner));
		id = LQ_SQL_task_claim_one_delete_run;
		p[1] = lq__v_text(owner);
		p[2] = lq_v_int(cc->claim_ttl);
		np = 3;
	}
	int occ = id == LQ_SQL_task_claim_one_delete && occ_head_likely(db, cc->queue);
	lq_sql_id top_id = LQ_SQL_task_claim_one_delete_top;
	if (occ) {
		id = LQ_SQL_task_claim_one_delete_occ;
		top_id = LQ_SQL_task_claim_one_delete_occ_top;
	}
	/* Each one-task claim says which priority is the top; at-most-once
	 * reads it alone next time (at least once, lq_task_ack_claim does). */
	int one = (id == LQ_SQL_task_claim_one_delete || id == LQ_SQL_task_claim_one_update ||
		   id == LQ_SQL_task_claim_one_delete_occ) &&
		  db->be->sql[top_id];
	lq_status st = claim_top_first(db, cc, one && id != LQ_SQL_task_claim_one_update, top_id, id, p, np);
	if (st != LQ_OK)
		return st;
	if (one)
		top_took(db, cc);
	/* A one-off task came first, or a head the statement cannot move. */
	if (occ && ((cc->got == 1 && !cc->tasks[0].recurring) || cc->left > 0))
		lq__memo_set(&db->occ_heads, cc->queue, 0);
	qsort(cc->tasks, cc->got, sizeof(*cc->tasks), by_due);
	for (size_t i = 0; i < cc->got; i++) {
		lq_task *t = &cc->tasks[i];
		t->mode = cc->mode;
		if (cc->mode == LQ_AT_MOST_ONCE) {
			t->claim_owner[0] = '\0'; /* an expired claim's owner, gone with the row */
			t->claim_until = 0;
		}
		if (cc->track) {
			snprintf(t->claim_owner, sizeof(t->claim_owner), "%s", owner);
			t->claim_until = t->now + cc->claim_ttl;
		}
	}
	return LQ_OK;
}

/* One round trip for a one-task claim whose head the handle's last
 * transactional claim of the queue found under its key's one limit
 * (HEAD_KEYED): the statement takes the start with the task, and under a
 * cap claims it at least once for owner (the slot).  cc->left: the head
 * needs the transaction after all (a queue limit, a limit shut or
 * changed meanwhile). */
static lq_status claim_keyed(lq_db *db, struct claim_ctx *cc)
{
	char owner[LQ_OWNER_MAX + 1];
	lq__make_owner(db, "claim", owner, sizeof(owner));
	lq_value p[3] = {lq__v_text(cc->queue), lq__v_text(owner), lq_v_int(cc->claim_ttl)};
	lq_sql_id id = cc->mode == LQ_AT_LEAST_ONCE ? LQ_SQL_task_claim_one_update_keyed
						    : LQ_SQL_task_claim_one_delete_keyed;
	lq_status st = claim_exec(db, cc, id, p, 3, batch_row, cc);
	if (st != LQ_OK)
		return st;
	/* A head without a key is the plain statement's again. */
	if (cc->got == 1)
		lq__memo_set(&db->limited_heads, cc->queue, cc->tasks[0].concurrency_key[0] ? HEAD_KEYED : 0);
	for (size_t i = 0; i < cc->got; i++) {
		lq_task *t = &cc->tasks[i];
		if (strcmp(t->claim_owner, owner) == 0) {
			t->mode = LQ_AT_LEAST_ONCE; /* claimed for owner: at least once, or a cap's slot */
		} else {
			t->mode = LQ_AT_MOST_ONCE;
			t->claim_owner[0] = '\0'; /* an expired claim's owner, gone with the row */
			t->claim_until = 0;
		}
	}
	return LQ_OK;
}

/* A cancellable at-most-once claim of one task can mark its run in the
 * claim's one statement where the dialect has it (PostgreSQL). */
static int track_in_one(const lq_db *db, size_t n)
{
	return n == 1 && db->be->sql[LQ_SQL_task_claim_one_delete_run];
}

/* The COMMIT of an at-least-once claim was lost: re-read each task (one-off
 * or occurrence) by (id, claim owner) and keep exactly those whose claim is
 * ours.  Never run on a guess: if a re-read fails, nothing is kept. */
static lq_status settle_unknown_claims(lq_db *db, struct claim_ctx *cc)
{
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	size_t kept = 0;
	for (size_t i = 0; i < cc->got; i++) {
		lq_task cur;
		lq_status st = lq__task_get(db, cc->tasks[i].id, &cur);
		/* Ours only by our (random) claim owner: never compare two empty
		 * owners, never run on a guess. */
		int ours = st == LQ_OK && !cur.dead && cc->tasks[i].claim_owner[0] &&
			   strcmp(cur.claim_owner, cc->tasks[i].claim_owner) == 0;
		lq_task_clear(&cur);
		if (st != LQ_OK && st != LQ_NOTFOUND) {
			memcpy(db->errmsg, saved, sizeof(saved));
			return LQ_EUNKNOWN;
		}
		if (ours) {
			if (kept != i) {
				cc->tasks[kept] = cc->tasks[i];
				memset(&cc->tasks[i], 0, sizeof(cc->tasks[i]));
			}
			kept++;
		} else {
			lq_task_clear(&cc->tasks[i]);
		}
	}
	cc->got = kept;
	if (kept == 0) {
		memcpy(db->errmsg, saved, sizeof(saved));
		return LQ_EUNKNOWN; /* the claim did not commit: report what happened */
	}
	lq__ok(db);
	return LQ_OK;
}

/* A claim's arguments, checked before anything is sent: *queue and *ttl
 * get their defaults. */
static lq_status claim_args(lq_db *db, const char **queue, lq_mode mode, int64_t *ttl, size_t n)
{
	lq_status st;
	if (!*queue)
		*queue = LQ_DEFAULT_QUEUE;
	if ((st = lq__check_name(db, "queue name", *queue)) != LQ_OK)
		return st;
	if (n == 0 || n > LQ_CLAIM_MAX)
		return lq__fail(db, LQ_EINVAL, "task claim: batch size must be 1 to %d", LQ_CLAIM_MAX);
	if (mode != LQ_AT_MOST_ONCE && mode != LQ_AT_LEAST_ONCE && mode != LQ_AT_MOST_ONCE_CANCELLABLE)
		return lq__fail(db, LQ_EINVAL, "task claim: unknown mode %d", (int)mode);
	if (*ttl == 0)
		*ttl = LQ_DEFAULT_CLAIM_TTL_MS;
	if ((st = lq__check_ttl(db, "task claim", *ttl)) != LQ_OK)
		return st;
	return lq__ready(db);
}

/* What a claim that went through says: LQ_OK with tasks, else LQ_BUSY when
 * other claimers took the due ones, else LQ_EMPTY. */
static lq_status claim_result(lq_db *db, const char *queue, size_t got, size_t lost)
{
	if (got > 0)
		return LQ_OK;
	if (lost > 0)
		return lq__fail(db, LQ_BUSY, "queue \"%s\": due tasks were claimed by another runner first",
				queue);
	/* Nothing to do: a good moment for the history rows kept back. */
	lq_status st = lq__run_flush(db);
	return st != LQ_OK ? st : LQ_EMPTY;
}

lq_status lq__task_claim(lq_db *db, const char *queue, lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks,
			 size_t n, size_t *claimed)
{
	lq__ok(db);
	if (claimed)
		*claimed = 0;
	lq_status st;
	if ((st = claim_args(db, &queue, mode, &claim_ttl_ms, n)) != LQ_OK)
		return st;
	memset(tasks, 0, n * sizeof(*tasks));
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "task claim on queue \"%s\"", queue);
	/* Cancellable: the transaction marks each run beside its claim (a
	 * shell handler's fork and exec dwarf the extra statement). */
	int track = mode == LQ_AT_MOST_ONCE_CANCELLABLE;
	if (track)
		mode = LQ_AT_MOST_ONCE;
	struct claim_ctx cc = {.queue = queue, .mode = mode, .claim_ttl = claim_ttl_ms, .tasks = tasks, .n = n,
			       .err = LQ_OK, .what = what, .track = track};
	int general = 1, fair = 0, fair_seen = 0;
	int one = (db->be->caps & LQ_CAP_CLAIM_RETURNING) && (!track || track_in_one(db, n));
	if (track && !one && (db->be->caps & LQ_CAP_CLAIM_RETURNING)) {
		/* Where the plain claim is one statement, a poll of an idle
		 * queue stays one (a read), not a write transaction. */
		int64_t wait = -1;
		if ((st = lq_queue_next_due(db, queue, &wait)) != LQ_OK)
			return st;
		if (wait != 0)
			return (st = lq__run_flush(db)) != LQ_OK ? st : LQ_EMPTY;
	}
	/* A queue with partitions: fair share first; what it cannot see (a
	 * task whose partition row went meanwhile) the plain claim finds. */
	if ((st = claim_fair(db, &cc, &fair, &fair_seen)) != LQ_OK)
		return st;
	/* The handle's last one-task claim here found a limited task first:
	 * the one statement would hand it back, so the transaction claims;
	 * under its key's one limit (HEAD_KEYED), the keyed statement. */
	int limited_head = one && n == 1 && lq__memo_fresh(&db->limited_heads, queue, LIMITED_HEAD_MS)
				   ? db->limited_heads.yes
				   : 0;
	int keyed = limited_head == HEAD_KEYED && !track && db->be->sql[LQ_SQL_task_claim_one_delete_keyed] &&
		    !lq__memo_yes(&db->keyed_left, queue, KEYED_LEFT_MS);
	if (cc.got > 0 || fair_seen) {
		general = 0;
	} else if (one && (!limited_head || keyed)) {
		if ((st = keyed ? claim_keyed(db, &cc) : claim_returning(db, &cc)) != LQ_OK)
			return st;
		general = (cc.left > 0 || (db->be->caps & LQ_CAP_CLAIM_SHORT)) && cc.got < n;
		/* The head's cap changed under the statement (another claimer
		 * took a slot meanwhile): with claimers racing on it that is the
		 * rule, so the transaction claims for a while. */
		if (keyed && cc.left > 0)
			lq__memo_set(&db->keyed_left, queue, 1);
	}
	if (general) {
		/* What one statement cannot claim: the transaction, appending. */
		struct claim_ctx rest = {.queue = queue, .mode = mode, .claim_ttl = claim_ttl_ms, .tasks = tasks + cc.got,
					 .n = n - cc.got, .err = LQ_OK, .what = what, .track = track};
		st = lq__tx(db, 1, what, claim_body, &rest);
		if (st == LQ_EUNKNOWN && mode == LQ_AT_LEAST_ONCE && rest.got > 0)
			st = settle_unknown_claims(db, &rest);
		if (st != LQ_OK) {
			release_range(rest.tasks, 0, rest.n);
			/* Every try conflicted (on Galera, other nodes' claims of
			 * the same candidates certified first; SKIP LOCKED does
			 * not see them): lost to other runners, not an error. */
			if (cc.got == 0 && st == LQ_ERROR && db->conflicted) {
				return lq__fail(db, LQ_BUSY, "queue \"%s\": due tasks were claimed by other runners first (%s)",
						queue, db->errmsg);
			}
			if (cc.got == 0)
				return st;
			lq__ok(db); /* what the first statement claimed has committed */
			rest.got = rest.lost = 0;
		}
		if (!track)
			occ_head_seen(db, queue, n, rest.got, &rest.tasks[0]);
		if (one && n == 1)
			lq__memo_set(&db->limited_heads, queue, rest.head_limited);
		cc.got += rest.got;
		cc.lost += rest.lost;
	}
	if (claimed)
		*claimed = cc.got;
	if (cc.got > 0)
		return LQ_OK;
	if (cc.lost > 0)
		return lq__fail(db, LQ_BUSY, "queue \"%s\": due tasks were claimed by another runner first",
				queue);
	/* Nothing to do: a good moment for the history rows kept back. */
	if (fair)
		fair_forget(db, queue);
	return (st = lq__run_flush(db)) != LQ_OK ? st : LQ_EMPTY;
}

/* ------------------------------------------------------ ack, fail, beat */

/*
 * Settling a claimed task (ack, fail, release, heartbeat) rides out one lost
 * connection: a worker whose claim is still valid must finish it, not leave
 * it to expire and run again elsewhere.  Each settle function runs once and,
 * after LQ_ECONN or LQ_EUNKNOWN, once more (the next statement reconnects),
 * told whether the lost attempt may have been applied.  LQ_EUNKNOWN says it
 * may: a COMMIT, or a lone statement (sent with lq__exec_once), whose answer
 * was lost.  LQ_ECONN says it was not: lost before the statement went out,
 * or inside a transaction, which dies with the session.  Only after
 * LQ_EUNKNOWN is an unexpected affected count decided by looking, and never
 * from the task's state alone, which another worker or an administrator can
 * leave too: ack and fail look for their run's history row, which commits
 * with the settle (claim_lost); release, which writes none, reads the task
 * (released_by_us).
 */
enum settle_try {
	SETTLE_FIRST,
	SETTLE_AGAIN,         /* the first attempt was not applied */
	SETTLE_AGAIN_UNKNOWN, /* the first attempt may have been applied */
};

typedef lq_status (*settle_fn)(lq_db *db, const lq_task *t, void *arg, enum settle_try again);

static lq_status settle(lq_db *db, settle_fn fn, const lq_task *t, void *arg)
{
	lq_status st = fn(db, t, arg, SETTLE_FIRST);
	if (st == LQ_ECONN || st == LQ_EUNKNOWN)
		st = fn(db, t, arg, st == LQ_EUNKNOWN ? SETTLE_AGAIN_UNKNOWN : SETTLE_AGAIN);
	return st;
}

/* The settle after a lost connection could not look: say so, with why. */
static lq_status settle_unread(lq_db *db, const lq_task *t)
{
	char why[sizeof(db->errmsg)];
	snprintf(why, sizeof(why), "%s", db->errmsg);
	return lq__fail(db, LQ_EUNKNOWN, "task %lld: connection lost, and whether the claim was settled "
			"could not be read (%s)", (long long)t->id, why);
}

/* A settle found its claim (or run mark) gone: LQ_OK when its own lost
 * attempt settled it, which the run's history row then says; LQ_REVOKED
 * when a cancel took it; LQ_LOST, with no message yet, when neither; the
 * error of the look when it could not tell (never a guess: a marked run's
 * end records the run only on LQ_LOST). */
static lq_status gone_why(lq_db *db, const lq_task *t, enum settle_try again)
{
	if (again == SETTLE_AGAIN_UNKNOWN) {
		char what[64];
		int found = 0;
		task_what(what, sizeof(what), t->id);
		if (lq__run_settled(db, what, t, &found) != LQ_OK)
			return settle_unread(db, t);
		if (found) {
			lq__ok(db);
			return LQ_OK;
		}
	}
	int revoked = 0;
	lq_status st = lq__claim_revoked_look(db, t, &revoked);
	if (st != LQ_OK)
		return st;
	return revoked ? LQ_REVOKED : LQ_LOST;
}

/* An at-least-once ack or fail found its claim gone. */
static lq_status claim_lost(lq_db *db, const lq_task *t, enum settle_try again, const char *why)
{
	lq_status st = gone_why(db, t, again);
	if (st != LQ_LOST)
		return st;
	return lq__fail(db, LQ_LOST, "task %lld: %s", (long long)t->id, why);
}

/* Whether the task is there (live or dead), for a requeue that must decide
 * by re-reading. */
enum task_state { TASK_GONE, TASK_THERE, TASK_UNREAD };

static enum task_state task_state(lq_db *db, const lq_task *t)
{
	char saved[sizeof(db->errmsg)];
	memcpy(saved, db->errmsg, sizeof(saved));
	lq_task cur;
	lq_status st = lq__task_get(db, t->id, &cur);
	enum task_state ts = st == LQ_NOTFOUND ? TASK_GONE : st == LQ_OK ? TASK_THERE : TASK_UNREAD;
	lq_task_clear(&cur);
	memcpy(db->errmsg, saved, sizeof(saved));
	return ts;
}

/* An at-least-once occurrence is settled by moving on to the next one:
 * error NULL for success, else the occurrence is given up with it. */
static lq_status next_occurrence_of(lq_db *db, const lq_task *t, int64_t *next)
{
	int64_t now = 0;
	lq_status st = lq_now(db, &now);
	if (st != LQ_OK)
		return st;
	st = lq__ack_next(db, t, now, next);
	if (st == LQ_ECONN || st == LQ_EUNKNOWN)
		return st;
	if (st != LQ_OK)
		*next = t->next_run_at; /* the schedule stopped parsing: the claim's guess */
	return LQ_OK;
}

/* One settling statement and, if it affected the claimed row, the run's
 * history row, in one transaction: the history says what the claim's
 * settlement says, or nothing. */
struct settle_run_ctx {
	const lq_task *t;
	lq_sql_id id;
	const lq_value *p;
	int np;
	lq_outcome outcome;
	const char *error;
	int64_t n;
	const struct lq__result *res; /* a done run's result, or NULL */
};

static lq_status settle_run_body(lq_db *db, void *arg)
{
	struct settle_run_ctx *s = arg;
	char what[64];
	task_what(what, sizeof(what), s->t->id);
	lq_status st = lq__exec(db, what, s->id, s->p, s->np, NULL, NULL, &s->n);
	if (st != LQ_OK || s->n != 1)
		return st; /* the claim was lost: nothing to record */
	st = lq__run_record(db, what, s->t, s->outcome, s->error);
	return st == LQ_OK && s->res ? lq__run_set_result(db, what, s->t, s->res) : st;
}

static lq_status settle_run(lq_db *db, const lq_task *t, lq_sql_id id, const lq_value *p, int np,
			    lq_outcome outcome, const char *error, const struct lq__result *res, int64_t *n)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	struct settle_run_ctx s = {t, id, p, np, outcome, error, 0, res};
	lq_status st = lq__tx(db, 1, what, settle_run_body, &s);
	*n = s.n;
	return st;
}

static lq_status finish_occurrence(lq_db *db, const lq_task *t, const char *error, lq_outcome outcome,
				   const struct lq__result *res, int64_t *n)
{
	int64_t next = 0;
	lq_status st = next_occurrence_of(db, t, &next);
	if (st != LQ_OK)
		return st;
	lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(next), lq__v_opt_text(error)};
	return settle_run(db, t, LQ_SQL_task_ack_occurrence, p, 4, outcome, error, res, n);
}

/* arg: the run's result (lq_task_ack_result), or NULL. */
static lq_status ack_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	const struct lq__result *res = arg;
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_value p[2] = {lq_v_int(t->id), lq__v_text(t->claim_owner)};
	int64_t n = 0;
	lq_status st;
	if (t->recurring) {
		st = finish_occurrence(db, t, NULL, LQ_RUN_DONE, res, &n);
	} else if ((db->be->caps & LQ_CAP_ONE_STATEMENT_ACK) && !res) {
		char worker[LQ_OWNER_MAX + 1];
		lq__run_worker(worker, sizeof(worker));
		lq_value q[4] = {p[0], p[1], lq__v_text(worker), lq_v_int(t->now)};
		st = lq__exec_once(db, what, LQ_SQL_task_ack_run, q, 4, lq__row_int, &n, NULL);
	} else {
		st = settle_run(db, t, LQ_SQL_task_ack, p, 2, LQ_RUN_DONE, NULL, res, &n);
	}
	if (st != LQ_OK)
		return st;
	if (n != 1)
		return claim_lost(db, t, again, "claim was lost (it expired and the task may run again)");
	lq__ok(db);
	return LQ_OK;
}

/* A one-off at-most-once run that its claim marked running (claimed
 * LQ_AT_MOST_ONCE_CANCELLABLE): its end takes the mark away. */
static int amo_tracked(const lq_task *t)
{
	return t->mode == LQ_AT_MOST_ONCE && !t->recurring && t->claim_owner[0];
}

/* The end of a marked run: delete its mark and, when record, write its
 * history row (and result) in the same transaction.  No mark left: a
 * cancel took it (LQ_REVOKED: the cancel recorded the run, nothing is
 * written), else it lapsed (not renewed in time, swept) and the run is
 * recorded all the same.  Without record (fail, release, snooze), what
 * follows settles the task as for any at-most-once run. */
struct untrack_ctx {
	const lq_task *t;
	int record;
	lq_outcome outcome;
	const struct lq__result *res;
	int force; /* record though the mark is gone */
	int64_t n;
};

static lq_status untrack_body(lq_db *db, void *arg)
{
	struct untrack_ctx *u = arg;
	char what[64];
	task_what(what, sizeof(what), u->t->id);
	lq_value p[2] = {lq_v_int(u->t->id), lq__v_text(u->t->claim_owner)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_running_end, p, 2, NULL, NULL, &u->n);
	if (st != LQ_OK || !u->record || (u->n != 1 && !u->force))
		return st;
	st = lq__run_record(db, what, u->t, u->outcome, NULL);
	return st == LQ_OK && u->res ? lq__run_set_result(db, what, u->t, u->res) : st;
}

static lq_status untrack_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	struct untrack_ctx *u = arg;
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_status st = lq__ready(db);
	if (st == LQ_OK)
		st = lq__tx(db, 1, what, untrack_body, u);
	if (st != LQ_OK || u->n == 1)
		return st;
	/* Only a recorded end leaves a history row to look for. */
	if ((st = gone_why(db, t, u->record ? again : SETTLE_FIRST)) != LQ_LOST)
		return st;
	if (!u->record)
		return LQ_OK;
	u->force = 1;
	st = lq__tx(db, 1, what, untrack_body, u);
	u->force = 0;
	return st;
}

/* Unmark a marked run before its task is settled otherwise: LQ_OK, or
 * LQ_REVOKED when a cancel took it meanwhile (then leave it alone). */
static lq_status untrack(lq_db *db, const lq_task *t)
{
	struct untrack_ctx u = {t, 0, LQ_RUN_DONE, NULL, 0, 0};
	return settle(db, untrack_once, t, &u);
}

lq_status lq__task_ack(lq_db *db, const lq_task *t)
{
	lq__ok(db);
	if (amo_tracked(t)) {
		struct untrack_ctx u = {t, 1, LQ_RUN_DONE, NULL, 0, 0};
		return settle(db, untrack_once, t, &u);
	}
	if (t->mode == LQ_AT_MOST_ONCE) {
		/* Settled by the claim itself: only the history is left to write. */
		char what[64];
		task_what(what, sizeof(what), t->id);
		lq_status st = lq__ready(db);
		if (st == LQ_OK && t->recurring) {
			/* The dead-man check's last success. */
			lq_value p[1] = {lq_v_int(t->id)};
			st = lq__exec(db, what, LQ_SQL_task_mark_success, p, 1, NULL, NULL, NULL);
		}
		return st != LQ_OK ? st : lq__run_record(db, what, t, LQ_RUN_DONE, NULL);
	}
	if (!t->claim_owner[0])
		return lq__fail(db, LQ_EINVAL, "task %lld: not claimed", (long long)t->id);
	return settle(db, ack_once, t, NULL);
}

struct fail_ctx {
	const char *error;
	int64_t backoff;
	lq_outcome outcome; /* failed or timed_out, unless it was the last attempt */
};

struct bury_ctx {
	const lq_task *t;
	const char *error;
	int64_t n;
};

static lq_status bury_body(lq_db *db, void *arg)
{
	struct bury_ctx *b = arg;
	char what[64];
	task_what(what, sizeof(what), b->t->id);
	lq_value p[3] = {lq_v_int(b->t->id), lq__v_text(b->t->claim_owner), lq__v_text(b->error)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_bury, p, 3, NULL, NULL, &b->n);
	if (st != LQ_OK || b->n != 1)
		return st;
	st = lq__exec(db, what, LQ_SQL_task_ack, p, 2, NULL, NULL, NULL);
	return st != LQ_OK ? st : lq__run_record(db, what, b->t, LQ_RUN_DEAD, b->error);
}

/* At-least-once failure: back off and retry, or bury when out of attempts. */
static lq_status fail_alo_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	struct fail_ctx *f = arg;
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	int64_t n = 0;
	if (t->recurring && t->attempts >= t->max_attempts) {
		st = finish_occurrence(db, t, f->error, LQ_RUN_DEAD, NULL, &n); /* give it up, keep the schedule */
	} else if (t->recurring) {
		lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(f->backoff),
				 lq__v_text(f->error)};
		st = settle_run(db, t, LQ_SQL_task_retry_occurrence, p, 4, f->outcome, f->error, NULL, &n);
	} else if (t->attempts >= t->max_attempts) {
		struct bury_ctx b = {t, f->error, 0};
		st = lq__tx(db, 1, what, bury_body, &b);
		n = b.n;
	} else {
		lq_value p[4] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(f->backoff),
				 lq__v_text(f->error)};
		st = settle_run(db, t, LQ_SQL_task_retry_later, p, 4, f->outcome, f->error, NULL, &n);
	}
	if (st != LQ_OK)
		return st;
	if (n != 1)
		return claim_lost(db, t, again, "claim was lost before the failure was recorded");
	lq__ok(db);
	return LQ_OK;
}

/* At-most-once: the claim deleted the row; the task goes back in under its
 * id (a retry) or to the dead tasks.  A unique key that a newer task has
 * taken meanwhile keeps it out of the queue: it is recorded dead with the
 * reason instead of vanishing. */
struct requeue_ctx {
	int attempts;      /* the attempts to store */
	int64_t delay;     /* back-off before it is due again */
	const char *error; /* last_error to store (NULL: none) */
	int bury;          /* straight to the dead tasks */
	const char *why;   /* "failed" or "handed back" */
	int buried;        /* out: it went to the dead tasks */
};

/* A task put back outside a transaction into its partition: the
 * partition's rows, so that it takes its turn, and this handle's memo.
 * Without the rows the plain claim still finds the task, so a failure here
 * costs the turn, never the task. */
static void put_back_in_turn(lq_db *db, const char *what, const char *queue, const char *part)
{
	if (lq__part_touch(db, what, queue, part) == LQ_OK)
		lq__part_known(db, queue, 1);
	else
		lq__ok(db);
}

static lq_status bury_amo(lq_db *db, const lq_task *t, int attempts, const char *error)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_value blob = t->payload_len ? lq_v_blob(t->payload, t->payload_len) : lq_v_null();
	lq_value p[13] = {lq_v_int(t->id), lq__v_text(t->queue), lq__v_text(t->name), blob,
			  lq_v_int(attempts), lq_v_int(t->max_attempts), lq__v_opt_text(t->unique_key),
			  lq__v_text(error), lq_v_int(t->created_at), lq_v_int(t->priority), opt_ms(t->timeout_ms),
			  lq__v_opt_text(t->concurrency_key), lq__v_text(t->partition)};
	return lq__exec_once(db, what, LQ_SQL_task_dead_insert, p, 13, NULL, NULL, NULL);
}

static lq_status requeue_amo_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	struct requeue_ctx *r = arg;
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	/* Only a requeue puts the row back under its id: if it is there, the
	 * lost attempt did. */
	enum task_state ts = again == SETTLE_AGAIN_UNKNOWN ? task_state(db, t) : TASK_GONE;
	if (ts == TASK_UNREAD)
		return lq__fail(db, LQ_ECONN, "%s: cannot re-read the task after a lost connection", what);
	if (ts != TASK_GONE) {
		lq__ok(db);
		return LQ_OK; /* the lost attempt was applied */
	}
	if (r->bury) {
		r->buried = 1;
		return bury_amo(db, t, r->attempts, r->error);
	}
	lq_value blob = t->payload_len ? lq_v_blob(t->payload, t->payload_len) : lq_v_null();
	lq_value p[14] = {lq_v_int(t->id), lq__v_text(t->queue), lq__v_text(t->name), blob,
			  lq_v_int(r->attempts), lq_v_int(t->max_attempts), lq__v_opt_text(t->unique_key),
			  lq_v_int(r->delay), lq__v_opt_text(r->error), lq_v_int(t->created_at),
			  lq_v_int(t->priority), opt_ms(t->timeout_ms), lq__v_opt_text(t->concurrency_key),
			  lq__v_text(t->partition)};
	int64_t n = 0;
	st = lq__exec_once(db, what, LQ_SQL_task_reinsert, p, 14, NULL, NULL, &n);
	/* Without its partition's row the task is still claimed, by the plain
	 * claim; with it, in its turn. */
	if (st == LQ_OK && n == 1 && t->partition[0])
		put_back_in_turn(db, what, t->queue, t->partition);
	if (st != LQ_OK || n == 1) {
		if (st == LQ_OK)
			lq__notify(db, LQ_CHANNEL_TASK);
		return st;
	}
	ts = task_state(db, t);
	if (ts == TASK_UNREAD) /* nothing applied: settle's retry may look again */
		return lq__fail(db, LQ_ECONN, "%s: cannot re-read the task after a refused requeue", what);
	if (ts != TASK_GONE) {
		lq__ok(db);
		return LQ_OK; /* already back under its id */
	}
	/* Its unique key belongs to a newer task now. */
	char err[LQ_ERROR_MAX];
	snprintf(err, sizeof(err), "%s%s%s; not queued again: unique key \"%s\" is held by a newer task",
		 r->why, r->error ? ": " : "", r->error ? r->error : "", t->unique_key);
	r->buried = 1;
	return bury_amo(db, t, r->attempts, err);
}

lq_status lq__task_fail(lq_db *db, const lq_task *t, const char *error, int timed_out)
{
	lq__ok(db);
	char err[LQ_ERROR_MAX];
	clean_error(error, err, sizeof(err));
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_outcome outcome = timed_out ? LQ_RUN_TIMED_OUT : LQ_RUN_FAILED;
	lq_status st;
	if (t->recurring && t->mode == LQ_AT_MOST_ONCE) {
		st = lq__ready(db);
		if (st != LQ_OK)
			return st;
		lq_value p[2] = {lq_v_int(t->id), lq__v_text(err)};
		st = lq__exec(db, what, LQ_SQL_task_record_error, p, 2, NULL, NULL, NULL);
		return st != LQ_OK ? st : lq__run_record(db, what, t, outcome, err);
	}
	if (t->mode == LQ_AT_LEAST_ONCE) {
		if (!t->claim_owner[0])
			return lq__fail(db, LQ_EINVAL, "task %lld: not claimed", (long long)t->id);
		struct fail_ctx f = {err, lq__backoff_ms(db, t->attempts, LQ_BACKOFF_BASE_MS, LQ_BACKOFF_CAP_MS),
				     outcome};
		return settle(db, fail_alo_once, t, &f);
	}
	/* At-most-once: this attempt counts now (the claim did not count it).
	 * The claim settled the run; its history row follows the requeue. */
	if (amo_tracked(t) && (st = untrack(db, t)) != LQ_OK)
		return st;
	int attempts = t->attempts + 1;
	struct requeue_ctx r = {attempts, lq__backoff_ms(db, attempts, LQ_BACKOFF_BASE_MS, LQ_BACKOFF_CAP_MS),
				err, attempts >= t->max_attempts, "failed", 0};
	st = settle(db, requeue_amo_once, t, &r);
	return st != LQ_OK ? st : lq__run_record(db, what, t, r.buried ? LQ_RUN_DEAD : outcome, err);
}

/*
 * Whether our own lost release applied.  It writes no history row, so the
 * row must tell: our release leaves the task live and unclaimed (no owner,
 * no claim_until), its attempts one below the claim's (not below 0) and
 * run_at as claimed.  Anyone else could only have taken the task after our
 * claim expired, past its run_at, counting an attempt above ours: their
 * release leaves attempts at ours, their failure moves run_at on (or leaves
 * an occurrence's back-off in claim_until), an ack deletes it or moves the
 * occurrence on, a burial or an at-most-once claim takes it out of the live
 * tasks, and what puts it back (an at-most-once requeue, lq_task_retry)
 * sets run_at to the time it does so.  LQ_EUNKNOWN if it cannot be read.
 */
static lq_status released_by_us(lq_db *db, const lq_task *t, int *ours)
{
	lq_task cur;
	lq_status st = lq__task_get(db, t->id, &cur);
	if (st != LQ_OK && st != LQ_NOTFOUND) {
		lq_task_clear(&cur);
		return settle_unread(db, t);
	}
	*ours = st == LQ_OK && !cur.dead && !cur.claim_owner[0] && cur.claim_until == 0 &&
		cur.attempts == (t->attempts > 0 ? t->attempts - 1 : 0) && cur.run_at == t->run_at;
	lq_task_clear(&cur);
	return LQ_OK;
}

static lq_status release_alo_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	(void)arg;
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	lq_value p[2] = {lq_v_int(t->id), lq__v_text(t->claim_owner)};
	int64_t n = 0;
	st = lq__exec_once(db, what, LQ_SQL_task_release_claim, p, 2, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	int ours = 0;
	if (n != 1 && again == SETTLE_AGAIN_UNKNOWN && (st = released_by_us(db, t, &ours)) != LQ_OK)
		return st;
	if (n != 1 && !ours && lq__claim_revoked(db, t))
		return LQ_REVOKED;
	if (n != 1 && !ours)
		return lq__fail(db, LQ_LOST, "task %lld: claim was lost before it was handed back",
				(long long)t->id);
	lq__ok(db);
	lq__notify(db, LQ_CHANNEL_TASK);
	return LQ_OK;
}

lq_status lq__task_release(lq_db *db, const lq_task *t)
{
	lq__ok(db);
	if (t->recurring && t->mode == LQ_AT_MOST_ONCE)
		return LQ_OK; /* the row stays and its next occurrence comes anyway */
	if (t->mode == LQ_AT_LEAST_ONCE) {
		if (!t->claim_owner[0])
			return lq__fail(db, LQ_EINVAL, "task %lld: not claimed", (long long)t->id);
		return settle(db, release_alo_once, t, NULL);
	}
	lq_status st = amo_tracked(t) ? untrack(db, t) : LQ_OK;
	if (st != LQ_OK)
		return st;
	struct requeue_ctx r = {t->attempts, 0, t->last_error, 0, "handed back unrun", 0};
	return settle(db, requeue_amo_once, t, &r);
}

/* ------------------------------------------------------- snooze, result */

static lq_status snooze_alo_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	lq_value p[3] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(*(const int64_t *)arg)};
	int64_t n = 0;
	st = lq__exec_once(db, what, LQ_SQL_task_snooze_claim, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	/* A snooze leaves no mark of its own to look for after a lost answer. */
	if (n != 1 && again == SETTLE_AGAIN_UNKNOWN)
		return settle_unread(db, t);
	if (n != 1 && lq__claim_revoked(db, t))
		return LQ_REVOKED;
	if (n != 1)
		return lq__fail(db, LQ_LOST, "task %lld: claim was lost before it was snoozed", (long long)t->id);
	lq__ok(db);
	return LQ_OK;
}

lq_status lq__task_snooze(lq_db *db, const lq_task *t, int64_t delay_ms)
{
	lq__ok(db);
	if (delay_ms <= 0 || delay_ms > LQ_DELAY_MAX_MS)
		return lq__fail(db, LQ_EINVAL, "task %lld: snooze delay %lld ms is out of range (1 ms to 100 years)",
				(long long)t->id, (long long)delay_ms);
	if (t->mode == LQ_AT_LEAST_ONCE) {
		if (!t->claim_owner[0])
			return lq__fail(db, LQ_EINVAL, "task %lld: not claimed", (long long)t->id);
		return settle(db, snooze_alo_once, t, &delay_ms);
	}
	if (t->recurring) {
		char what[64];
		task_what(what, sizeof(what), t->id);
		lq_status st = lq__ready(db);
		if (st != LQ_OK)
			return st;
		lq_value p[3] = {lq_v_int(t->id), lq_v_int(t->next_run_at), lq_v_int(delay_ms)};
		int64_t n = 0;
		st = lq__exec(db, what, LQ_SQL_task_snooze_occurrence, p, 3, NULL, NULL, &n);
		if (st != LQ_OK)
			return st;
		if (n != 1)
			return lq__fail(db, LQ_LOST, "task %lld: its schedule changed before it was snoozed",
					(long long)t->id);
		lq__ok(db);
		return LQ_OK;
	}
	/* At-most-once: back under its id, the attempt not counted. */
	lq_status st = amo_tracked(t) ? untrack(db, t) : LQ_OK;
	if (st != LQ_OK)
		return st;
	struct requeue_ctx r = {t->attempts, delay_ms, t->last_error, 0, "snoozed", 0};
	return settle(db, requeue_amo_once, t, &r);
}

/* At-most-once: the claim settled the task; the run's row and its result
 * go in together, now (not kept back). */
struct amo_result_ctx {
	const lq_task *t;
	const struct lq__result *res;
};

static lq_status amo_result_body(lq_db *db, void *arg)
{
	const struct amo_result_ctx *a = arg;
	char what[64];
	task_what(what, sizeof(what), a->t->id);
	lq_status st = lq__run_record(db, what, a->t, LQ_RUN_DONE, NULL);
	return st == LQ_OK ? lq__run_set_result(db, what, a->t, a->res) : st;
}

lq_status lq__task_ack_result(lq_db *db, const lq_task *t, const void *data, size_t len)
{
	lq__ok(db);
	if (len > LQ_RESULT_MAX)
		return lq__fail(db, LQ_EINVAL, "task %lld: result of %zu bytes is over the %d-byte limit",
				(long long)t->id, len, LQ_RESULT_MAX);
	if (!data && len)
		return lq__fail(db, LQ_EINVAL, "task %lld: result of %zu bytes has no data", (long long)t->id, len);
	struct lq__result res = {data ? data : "", len};
	if (amo_tracked(t)) {
		struct untrack_ctx u = {t, 1, LQ_RUN_DONE, &res, 0, 0};
		return settle(db, untrack_once, t, &u);
	}
	if (t->mode == LQ_AT_MOST_ONCE) {
		char what[64];
		task_what(what, sizeof(what), t->id);
		lq_status st = lq__ready(db);
		if (st != LQ_OK)
			return st;
		struct amo_result_ctx a = {t, &res};
		return lq__tx(db, 1, what, amo_result_body, &a);
	}
	if (!t->claim_owner[0])
		return lq__fail(db, LQ_EINVAL, "task %lld: not claimed", (long long)t->id);
	return settle(db, ack_once, t, &res);
}

static lq_status heartbeat_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	(void)again; /* extending a valid claim twice is harmless */
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_value p[3] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(*(const int64_t *)arg)};
	int64_t n = 0;
	lq_status st;
	if (t->recurring) {
		int revoked = 0;
		if ((st = lq__steer_preempt(db, t, *(const int64_t *)arg, &revoked)) != LQ_OK)
			return st;
		if (revoked)
			return lq__fail(db, LQ_REVOKED,
					"task %lld: occurrence cancelled: the next one is due (overlap cancel-previous)",
					(long long)t->id);
	}
	st = lq__exec(db, what, LQ_SQL_task_heartbeat, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1 && lq__claim_revoked(db, t))
		return LQ_REVOKED;
	if (n != 1)
		return lq__fail(db, LQ_LOST, "task %lld: claim was lost (expired or taken)", (long long)t->id);
	lq__ok(db);
	return LQ_OK;
}

/* A marked at-most-once run: extend its mark. */
static lq_status beat_amo_once(lq_db *db, const lq_task *t, void *arg, enum settle_try again)
{
	(void)again; /* extending a mark twice is harmless */
	char what[64];
	task_what(what, sizeof(what), t->id);
	lq_value p[3] = {lq_v_int(t->id), lq__v_text(t->claim_owner), lq_v_int(*(const int64_t *)arg)};
	int64_t n = 0;
	lq_status st = lq__exec(db, what, LQ_SQL_task_running_beat, p, 3, NULL, NULL, &n);
	if (st != LQ_OK)
		return st;
	if (n != 1 && lq__claim_revoked(db, t))
		return LQ_REVOKED;
	if (n != 1)
		return lq__fail(db, LQ_LOST, "task %lld: no longer marked running (not renewed in time): "
				"it can no longer be cancelled", (long long)t->id);
	lq__ok(db);
	return LQ_OK;
}

lq_status lq__task_heartbeat(lq_db *db, lq_task *t, int64_t claim_ttl_ms)
{
	lq__ok(db);
	if (t->mode == LQ_AT_MOST_ONCE && !amo_tracked(t))
		return LQ_OK; /* nothing to keep alive */
	char what[64];
	task_what(what, sizeof(what), t->id);
	if (claim_ttl_ms == 0)
		claim_ttl_ms = LQ_DEFAULT_CLAIM_TTL_MS;
	lq_status st = lq__check_ttl(db, what, claim_ttl_ms);
	if (st != LQ_OK)
		return st;
	return settle(db, t->mode == LQ_AT_MOST_ONCE ? beat_amo_once : heartbeat_once, t, &claim_ttl_ms);
}

/* ------------------------------------------------------ inspect, manage */

struct get_ctx {
	lq_task *t;
	int found;
	lq_status st;
};

static int get_row(void *arg, const lq_value *c, int n)
{
	struct get_ctx *g = arg;
	if (g->found)
		return 1;
	g->st = lq__task_from_row(g->t, c, n);
	g->found = g->st == LQ_OK;
	return 0;
}

lq_status lq__task_get(lq_db *db, int64_t id, lq_task *out)
{
	lq__ok(db);
	memset(out, 0, sizeof(*out));
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	char what[64];
	task_what(what, sizeof(what), id);
	struct get_ctx g = {out, 0, LQ_OK};
	lq_value p[1] = {lq_v_int(id)};
	st = lq__exec(db, what, LQ_SQL_task_get, p, 1, get_row, &g, NULL);
	if (st == LQ_OK)
		st = g.st;
	if (st != LQ_OK) {
		lq_task_clear(out);
		return st;
	}
	if (!g.found)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: not found", (long long)id);
	return LQ_OK;
}

struct list_ctx {
	lq_task_fn fn;
	void *ctx;
	lq_status st;
};

static int list_row(void *arg, const lq_value *c, int n)
{
	struct list_ctx *lc = arg;
	lq_task t;
	lc->st = lq__task_from_row(&t, c, n);
	if (lc->st != LQ_OK)
		return 1;
	int stop = lc->fn(&t, lc->ctx);
	lq_task_clear(&t);
	return stop;
}

LQ_EXTERN(lq_status) lq_task_list(lq_db *db, const char *queue, unsigned flags, lq_task_fn fn, void *ctx)
{
	lq__ok(db);
	lq_status st;
	if ((st = lq__ready_queue(db, queue)) != LQ_OK)
		return st;
	struct list_ctx lc = {fn, ctx, LQ_OK};
	if (flags & LQ_LIST_DEAD) {
		lq_value p[1] = {lq__v_opt_text(queue)};
		st = lq__exec(db, "task list", LQ_SQL_task_list_dead, p, 1, list_row, &lc, NULL);
	} else {
		lq_value p[2] = {lq__v_opt_text(queue), lq_v_int((flags & LQ_LIST_DUE) ? 1 : 0)};
		st = lq__exec(db, "task list", LQ_SQL_task_list, p, 2, list_row, &lc, NULL);
	}
	return st == LQ_OK ? lc.st : st;
}

struct id_ctx {
	int64_t id;
	int64_t n;
	int64_t dead_n;
};

static lq_status rm_body(lq_db *db, void *arg)
{
	struct id_ctx *c = arg;
	char what[64];
	task_what(what, sizeof(what), c->id);
	lq_value p[1] = {lq_v_int(c->id)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_delete, p, 1, NULL, NULL, &c->n);
	if (st == LQ_OK && c->n == 0)
		st = lq__exec(db, what, LQ_SQL_task_dead_delete, p, 1, NULL, NULL, &c->dead_n);
	return st;
}

LQ_EXTERN(lq_status) lq_task_rm(lq_db *db, int64_t id)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct id_ctx c = {id, 0, 0};
	st = lq__tx(db, 1, "task rm", rm_body, &c);
	if (st == LQ_OK && c.n == 0 && c.dead_n == 0)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: not found", (long long)id);
	return st;
}

static lq_status retry_body(lq_db *db, void *arg)
{
	struct id_ctx *c = arg;
	char what[64];
	task_what(what, sizeof(what), c->id);
	lq_value p[1] = {lq_v_int(c->id)};
	lq_status st = lq__exec(db, what, LQ_SQL_task_revive, p, 1, NULL, NULL, &c->dead_n);
	if (st != LQ_OK)
		return st;
	if (c->dead_n == 1)
		return lq__exec(db, what, LQ_SQL_task_dead_delete, p, 1, NULL, NULL, NULL);
	return lq__exec(db, what, LQ_SQL_task_run_now, p, 1, NULL, NULL, &c->n);
}

/* A revived task of a partition: its partition's row (see put_back_in_turn). */
static void revived_in_turn(lq_db *db, int64_t id)
{
	lq_task t;
	char what[64];
	task_what(what, sizeof(what), id);
	if (lq__task_get(db, id, &t) == LQ_OK && t.partition[0])
		put_back_in_turn(db, what, t.queue, t.partition);
	lq_task_clear(&t);
	lq__ok(db);
}

LQ_EXTERN(lq_status) lq_task_retry(lq_db *db, int64_t id)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	struct id_ctx c = {id, 0, 0};
	st = lq__tx(db, 1, "task retry", retry_body, &c);
	if (st != LQ_OK)
		return st;
	if (c.n == 0 && c.dead_n == 0) {
		/* Nothing moved: a dead task whose key a live task holds, or no
		 * task.  A read that fails says neither: its own status. */
		lq_task t;
		st = lq__task_get(db, id, &t);
		if (st == LQ_OK) {
			int dead = t.dead;
			lq_task_clear(&t);
			if (dead)
				return lq__fail(db, LQ_ERROR,
						"task %lld: cannot retry: a live task holds its unique key", (long long)id);
		} else if (st != LQ_NOTFOUND) {
			return st;
		}
		return lq__fail(db, LQ_NOTFOUND, "task %lld: not found", (long long)id);
	}
	if (c.dead_n == 1)
		revived_in_turn(db, id);
	lq__notify(db, LQ_CHANNEL_TASK);
	return LQ_OK;
}

LQ_EXTERN(lq_status) lq_task_pause(lq_db *db, int64_t id, int paused)
{
	lq__ok(db);
	lq_status st = lq__ready(db);
	if (st != LQ_OK)
		return st;
	char what[64];
	task_what(what, sizeof(what), id);
	lq_value p[2] = {lq_v_int(id), lq_v_int(paused ? 1 : 0)};
	int64_t n = 0;
	int resumed = 0;
	if (!paused && (st = lq__steer_resume(db, id, &resumed)) != LQ_OK)
		return st;
	if (resumed) {
		lq__notify(db, LQ_CHANNEL_TASK);
		return LQ_OK;
	}
	st = lq__exec(db, what, LQ_SQL_task_set_paused, p, 2, NULL, NULL, &n);
	if (st == LQ_OK && n == 0)
		return lq__fail(db, LQ_NOTFOUND, "task %lld: not found (or dead: retry it instead)", (long long)id);
	if (st == LQ_OK && !paused)
		lq__notify(db, LQ_CHANNEL_TASK);
	return st;
}

/* ------------------------------------------------------ ack and claim */

/* A task whose ack can ride with the next claim: a one-off at-least-once
 * claim (an occurrence's ack computes its next run first, in C). */
static int ack_rides(const lq_task *t)
{
	return t->mode == LQ_AT_LEAST_ONCE && t->claim_owner[0] && !t->recurring;
}

struct ack_claim_ctx {
	const lq_task *done;
	int64_t acked; /* the ack settled its claim: 1, else 0 */
	struct claim_ctx *cc;
	int claim_again; /* the statement read one priority and found nothing */
};

/* One transaction: the ack (its history row if it settled the claim) and
 * then the claim, as lq_task_ack and lq_task_claim would in two. */
static lq_status ack_claim_body(lq_db *db, void *arg)
{
	struct ack_claim_ctx *a = arg;
	lq_value p[2] = {lq_v_int(a->done->id), lq__v_text(a->done->claim_owner)};
	struct settle_run_ctx s = {a->done, LQ_SQL_task_ack, p, 2, LQ_RUN_DONE, NULL, 0, NULL};
	lq_status st = settle_run_body(db, &s);
	a->acked = s.n;
	return st != LQ_OK ? st : claim_body(db, a->cc);
}

static int ack_claim_row(void *arg, const lq_value *c, int n)
{
	struct ack_claim_ctx *a = arg;
	if (n < LQ_TASK_COLS + 2) {
		a->cc->err = LQ_ERROR;
		return 1;
	}
	a->acked = lq__col_int(&c[LQ_TASK_COLS + 1]);
	return lq__col_int(&c[LQ_TASK_COLS]) < 0 ? 0 : batch_row(a->cc, c, n); /* < 0: no candidate */
}

/* PostgreSQL: task_ack_claim_one_update, one statement. */
static lq_status ack_claim_statement(lq_db *db, struct ack_claim_ctx *a)
{
	struct claim_ctx *cc = a->cc;
	char owner[LQ_OWNER_MAX + 1], worker[LQ_OWNER_MAX + 1];
	lq__make_owner(db, "claim", owner, sizeof(owner));
	lq__run_worker(worker, sizeof(worker));
	lq_value p[8] = {lq__v_text(cc->queue), lq_v_int(a->done->id), lq__v_text(a->done->claim_owner),
			 lq__v_text(worker), lq_v_int(a->done->now), lq__v_text(owner), lq_v_int(cc->claim_ttl),
			 lq_v_int(db->top_priority)};
	int top = db->be->sql[LQ_SQL_task_ack_claim_one_update_top] && top_read_ok(db, cc->queue);
	lq_status st = claim_exec(db, cc, top ? LQ_SQL_task_ack_claim_one_update_top : LQ_SQL_task_ack_claim_one_update,
				  p, top ? 8 : 7, ack_claim_row, a);
	if (st != LQ_OK)
		return st;
	if (top && cc->got == 0 && cc->left == 0) {
		top_read_empty(db, cc->queue);
		a->claim_again = 1; /* the ack is done: the claim the full way */
	}
	if (db->be->sql[LQ_SQL_task_ack_claim_one_update_top])
		top_took(db, cc);
	for (size_t i = 0; i < cc->got; i++)
		cc->tasks[i].mode = LQ_AT_LEAST_ONCE;
	return LQ_OK;
}

/* The ack's status once its attempt came back settled (acked) or not. */
static lq_status ack_status(lq_db *db, const lq_task *t, int64_t acked)
{
	if (acked == 1)
		return LQ_OK;
	return claim_lost(db, t, SETTLE_FIRST, "claim was lost (it expired and the task may run again)");
}

/* The ack reached its answer: settled, or its claim found lost or revoked
 * (the claim beside it goes ahead); else it failed. */
static int ack_answered(lq_status ack)
{
	return ack == LQ_OK || ack == LQ_LOST || ack == LQ_REVOKED;
}

/* Hand back the n tasks a call claimed but will not return (released, so
 * that they are due again at once; a release that fails leaves the claim
 * to expire), keeping lq_errmsg. */
static void hand_back(lq_db *db, lq_task *tasks, size_t n)
{
	char msg[sizeof(db->errmsg)];
	snprintf(msg, sizeof(msg), "%s", db->errmsg);
	for (size_t i = 0; i < n; i++) {
		(void)lq__task_release(db, &tasks[i]);
		lq_task_clear(&tasks[i]);
	}
	snprintf(db->errmsg, sizeof(db->errmsg), "%s", msg);
}

/* Report the ack's status beside the claim's: st is the claim's, kept
 * when the ack only lost its claim; lq_errmsg keeps the ack's words when
 * the claim itself went well. */
static lq_status ack_and_claim(lq_db *db, lq_status ack, const char *ack_msg, lq_status st, lq_status *done_st)
{
	if (done_st)
		*done_st = ack;
	if (st == LQ_OK && ack != LQ_OK)
		snprintf(db->errmsg, sizeof(db->errmsg), "%s", ack_msg);
	return st;
}

/* The ack went alone (status ack): then the claim, unless the ack failed
 * otherwise than by losing its claim. */
static lq_status claim_after(lq_db *db, lq_status ack, lq_status *done_st, const char *queue, lq_mode mode,
			     int64_t ttl, lq_task *tasks, size_t n, size_t *claimed)
{
	if (!ack_answered(ack))
		return ack_and_claim(db, ack, "", ack, done_st);
	char msg[sizeof(db->errmsg)];
	snprintf(msg, sizeof(msg), "%s", db->errmsg);
	lq_status st = lq__task_claim(db, queue, mode, ttl, tasks, n, claimed);
	return ack_and_claim(db, ack, msg, st, done_st);
}

lq_status lq__task_ack_claim(lq_db *db, const lq_task *done, lq_status *done_st, const char *queue,
			     lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks, size_t n, size_t *claimed)
{
	lq__ok(db);
	if (claimed)
		*claimed = 0;
	lq_status st = claim_args(db, &queue, mode, &claim_ttl_ms, n);
	if (st == LQ_OK && !done)
		st = lq__task_claim(db, queue, mode, claim_ttl_ms, tasks, n, claimed);
	if (st != LQ_OK || !done)
		return ack_and_claim(db, done ? st : LQ_OK, "", st, done_st);
	int one = (db->be->caps & LQ_CAP_ONE_STATEMENT_ACK_CLAIM) != 0, fair = 0;
	if ((st = lq__part_on(db, queue, &fair)) != LQ_OK)
		return ack_and_claim(db, st, "", st, done_st);
	if (!ack_rides(done) || mode != LQ_AT_LEAST_ONCE || (one && n > 1) || fair) {
		/* An occurrence, an at-most-once task, a batch on PostgreSQL, a
		 * queue with partitions (the claim takes its turn among them):
		 * the two calls, one after the other. */
		return claim_after(db, lq__task_ack(db, done), done_st, queue, mode, claim_ttl_ms, tasks, n, claimed);
	}
	memset(tasks, 0, n * sizeof(*tasks));
	char what[LQ_NAME_MAX + 32];
	snprintf(what, sizeof(what), "task claim on queue \"%s\"", queue);
	struct claim_ctx cc = {.queue = queue, .mode = mode, .claim_ttl = claim_ttl_ms, .tasks = tasks, .n = n,
			       .err = LQ_OK, .what = what};
	struct ack_claim_ctx a = {done, 0, &cc, 0};
	if (one) {
		st = ack_claim_statement(db, &a);
	} else {
		st = lq__tx(db, 1, what, ack_claim_body, &a);
		/* The COMMIT's answer was lost: keep the claims that are ours
		 * by their owner; the ack is looked up below. */
		if (st == LQ_EUNKNOWN && cc.got > 0 && settle_unknown_claims(db, &cc) != LQ_OK) {
			release_range(tasks, 0, n); /* what the re-read left */
			cc.got = 0;
		}
		if (st != LQ_OK && st != LQ_EUNKNOWN) {
			release_range(tasks, 0, cc.got);
			cc.got = 0;
		}
	}
	if (st == LQ_ECONN || st == LQ_EUNKNOWN) {
		/* As lq_task_ack rides out a lost connection: once more, told
		 * whether the lost attempt may have been applied.  A claim the
		 * lost statement made and never told us of expires and runs
		 * again (at-least-once); a new claim follows. */
		lq_status ack = ack_once(db, done, NULL, st == LQ_EUNKNOWN ? SETTLE_AGAIN_UNKNOWN : SETTLE_AGAIN);
		if (!ack_answered(ack)) {
			release_range(tasks, 0, n); /* claim nothing: those claims expire */
			cc.got = 0;
		}
		if (cc.got == 0)
			return claim_after(db, ack, done_st, queue, mode, claim_ttl_ms, tasks, n, claimed);
		if (claimed)
			*claimed = cc.got;
		char msg[sizeof(db->errmsg)];
		snprintf(msg, sizeof(msg), "%s", db->errmsg);
		return ack_and_claim(db, ack, msg, LQ_OK, done_st);
	}
	if (st == LQ_ERROR && db->conflicted) /* as lq_task_claim (Galera): nothing committed */
		return claim_after(db, lq__task_ack(db, done), done_st, queue, mode, claim_ttl_ms, tasks, n, claimed);
	if (st != LQ_OK)
		return ack_and_claim(db, st, "", st, done_st);
	/* acked 2: another transaction held done's row, so the statement
	 * claimed without the ack (a claim whose snapshot still saw done
	 * unclaimed locks its row, then skips it, and keeps the lock to its
	 * end; waiting in the statement held the new claim meanwhile, and at
	 * 16 clients such waits chained).  The ack goes alone now and waits;
	 * if it fails, nothing is claimed, as with the two calls. */
	lq_status ack = a.acked == 2 ? lq__task_ack(db, done) : ack_status(db, done, a.acked);
	if (a.acked == 2 && !ack_answered(ack)) {
		hand_back(db, tasks, cc.got);
		return claim_after(db, ack, done_st, queue, mode, claim_ttl_ms, tasks, n, claimed);
	}
	char msg[sizeof(db->errmsg)];
	snprintf(msg, sizeof(msg), "%s", db->errmsg);
	if (cc.got == 0 && (cc.left > 0 || a.claim_again)) {
		/* Due tasks the one statement cannot claim (an occurrence, a claim
		 * to bury), or none of the priority it read: the whole claim, as
		 * lq_task_claim does it. */
		st = lq__task_claim(db, queue, mode, claim_ttl_ms, tasks, n, claimed);
	} else {
		if (claimed)
			*claimed = cc.got;
		st = claim_result(db, queue, cc.got, cc.lost);
	}
	return ack_and_claim(db, ack, msg, st, done_st);
}

struct ack_many_ctx {
	const lq_task *t;
	size_t n;
	int64_t *acked; /* per task: its ack settled the claim (1) or not */
};

/* One transaction: each riding task's ack and history row. */
static lq_status ack_many_body(lq_db *db, void *arg)
{
	struct ack_many_ctx *m = arg;
	lq_status st = LQ_OK;
	for (size_t i = 0; i < m->n && st == LQ_OK; i++) {
		const lq_task *t = &m->t[i];
		m->acked[i] = 0;
		if (!ack_rides(t))
			continue;
		lq_value p[2] = {lq_v_int(t->id), lq__v_text(t->claim_owner)};
		if (db->be->caps & LQ_CAP_ONE_STATEMENT_ACK) {
			char what[64], worker[LQ_OWNER_MAX + 1];
			task_what(what, sizeof(what), t->id);
			lq__run_worker(worker, sizeof(worker));
			lq_value q[4] = {p[0], p[1], lq__v_text(worker), lq_v_int(t->now)};
			st = lq__exec(db, what, LQ_SQL_task_ack_run, q, 4, lq__row_int, &m->acked[i], NULL);
		} else {
			struct settle_run_ctx s = {t, LQ_SQL_task_ack, p, 2, LQ_RUN_DONE, NULL, 0, NULL};
			st = settle_run_body(db, &s);
			m->acked[i] = s.n;
		}
	}
	return st;
}

#define LQ_ACK_SET_MAX 100 /* tasks per task_ack_run_many */

struct ack_set {
	const lq_task *t;
	int64_t *acked;
	size_t idx[LQ_ACK_SET_MAX]; /* the tasks of this statement */
	size_t k;
};

static int ack_set_row(void *arg, const lq_value *c, int n)
{
	struct ack_set *a = arg;
	if (n < 1)
		return 1;
	int64_t id = lq__col_int(&c[0]);
	for (size_t j = 0; j < a->k; j++) {
		if (a->t[a->idx[j]].id == id && a->acked[a->idx[j]] == 0) {
			a->acked[a->idx[j]] = 1;
			break;
		}
	}
	return 0;
}

/* PostgreSQL: the riding tasks' acks, LQ_ACK_SET_MAX to a statement (each
 * commits by itself).  A statement that failed leaves its tasks' acked at
 * -1 and returns why; the others are settled. */
static lq_status ack_sets(lq_db *db, const lq_task *tasks, size_t n, int64_t *acked)
{
	struct ack_set a;
	char worker[LQ_OWNER_MAX + 1];
	lq_value p[1 + 3 * LQ_ACK_SET_MAX];
	lq_status first = LQ_OK;
	lq__run_worker(worker, sizeof(worker));
	p[0] = lq__v_text(worker);
	size_t i = 0;
	while (i < n) {
		memset(&a, 0, sizeof(a));
		a.t = tasks;
		a.acked = acked;
		for (; i < n && a.k < LQ_ACK_SET_MAX; i++) {
			acked[i] = 0;
			if (!ack_rides(&tasks[i]))
				continue;
			lq_value *q = &p[1 + 3 * a.k];
			q[0] = lq_v_int(tasks[i].id);
			q[1] = lq__v_text(tasks[i].claim_owner);
			q[2] = lq_v_int(tasks[i].now);
			a.idx[a.k++] = i;
		}
		if (a.k == 0)
			break;
		for (size_t j = 1 + 3 * a.k; j < 1 + 3 * LQ_ACK_SET_MAX; j++)
			p[j] = lq_v_null();
		lq_status st = lq__exec_once(db, "task ack", LQ_SQL_task_ack_run_many, p, 1 + 3 * LQ_ACK_SET_MAX,
					     ack_set_row, &a, NULL);
		if (st != LQ_OK) {
			for (size_t j = 0; j < a.k; j++)
				acked[a.idx[j]] = -(int64_t)st; /* settled again below */
			if (first == LQ_OK)
				first = st;
		}
	}
	return first;
}

lq_status lq__task_ack_many(lq_db *db, const lq_task *tasks, size_t n, lq_status *statuses)
{
	lq__ok(db);
	if (n == 0)
		return LQ_OK;
	if (n > LQ_CLAIM_MAX)
		return lq__fail(db, LQ_EINVAL, "task ack: at most %d tasks at once", LQ_CLAIM_MAX);
	int64_t acked[LQ_CLAIM_MAX];
	struct ack_many_ctx m = {tasks, n, acked};
	size_t riding = 0;
	for (size_t i = 0; i < n; i++)
		riding += ack_rides(&tasks[i]) != 0;
	int sets = riding > 1 && (db->be->caps & LQ_CAP_ONE_STATEMENT_ACK);
	lq_status tx = LQ_OK, first = sets ? ack_sets(db, tasks, n, acked)
					: riding > 1 ? (tx = lq__tx(db, 1, "task ack", ack_many_body, &m)) : LQ_OK;
	lq_status worst = LQ_OK;
	char msg[sizeof(db->errmsg)] = "";
	if (first != LQ_OK && first != LQ_ECONN && first != LQ_EUNKNOWN) {
		worst = first;
		snprintf(msg, sizeof(msg), "%s", db->errmsg);
	}
	for (size_t i = 0; i < n; i++) {
		lq_status st, lost = sets && acked[i] < 0 ? (lq_status)-acked[i] : tx;
		if (!ack_rides(&tasks[i]) || riding <= 1)
			st = lq__task_ack(db, &tasks[i]); /* alone, as ever */
		else if (lost == LQ_ECONN || lost == LQ_EUNKNOWN)
			st = ack_once(db, &tasks[i], NULL, lost == LQ_EUNKNOWN ? SETTLE_AGAIN_UNKNOWN : SETTLE_AGAIN);
		else if (lost != LQ_OK)
			st = lost;
		else
			st = ack_status(db, &tasks[i], acked[i]);
		if (statuses)
			statuses[i] = st;
		/* The first failure other than a lost claim, else the first lost
		 * claim, is the call's. */
		if (st != LQ_OK && (worst == LQ_OK || (worst == LQ_LOST && st != LQ_LOST))) {
			worst = st;
			snprintf(msg, sizeof(msg), "%s", db->errmsg);
		}
	}
	if (worst == LQ_OK)
		lq__ok(db);
	else
		snprintf(db->errmsg, sizeof(db->errmsg), "%s", msg);
	return worst;
}
