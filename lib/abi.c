/*
 * abi.c - the task calls as a program built against an older leaseq.h sees
 * them.
 *
 * lq_task grows at its end, and each growth raises LQ_ABI_VERSION.  A
 * program built with an older layout has a shorter lq_task: the library may
 * neither write nor read past its end, and an array of them has the
 * program's stride.  The handle knows the program's layout (lq_open passes
 * it).  When it is the library's own, every call here passes the program's
 * tasks straight through; otherwise the library works on full copies, reads
 * only the program's part of a task it is given (the fields after it are
 * empty, so a task put back at most once keeps none of them), and hands
 * back only the program's part.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The alignment a compiler gives lq_task (C99 has no alignof): each
 * layout's size is rounded up to it, as the program's compiler did. */
struct task_after_char {
	char c;
	lq_task t;
};
#define TASK_ALIGN offsetof(struct task_after_char, t)
#define ROUND_UP(n, a) (((n) + (a)-1) / (a) * (a))

size_t lq__task_size(int abi)
{
	switch (abi) {
	case 1:
		return ROUND_UP(offsetof(lq_task, concurrency_key), TASK_ALIGN);
	case 2: /* appended concurrency_key */
		return ROUND_UP(offsetof(lq_task, partition), TASK_ALIGN);
	default: /* 3 appended partition */
		return sizeof(lq_task);
	}
}

static int own_layout(const lq_db *db)
{
	return db->abi >= LQ_ABI_VERSION;
}

/* Task i of an array in the program's layout. */
static lq_task *theirs_at(const lq_db *db, const lq_task *theirs, size_t i)
{
	return (lq_task *)(void *)((unsigned char *)(void *)theirs + i * lq__task_size(db->abi));
}

/* The program's task as the library reads it: the task itself when the
 * layouts agree, else in full (which holds it): its part, the rest empty. */
static const lq_task *read_theirs(const lq_db *db, const lq_task *theirs, lq_task *full)
{
	if (own_layout(db))
		return theirs;
	memset(full, 0, sizeof(*full));
	memcpy(full, theirs, lq__task_size(db->abi));
	return full;
}

/* Hand n full tasks back into the program's array; what they own is the
 * program's now (all of it lies in every layout's part). */
static void give_back(const lq_db *db, lq_task *theirs, const lq_task *full, size_t n)
{
	for (size_t i = 0; i < n; i++)
		memcpy(theirs_at(db, theirs, i), &full[i], lq__task_size(db->abi));
}

/* Room for n full tasks, or NULL (then db says why). */
static lq_task *scratch(lq_db *db, size_t n)
{
	lq_task *full = calloc(n, sizeof(*full));
	if (!full)
		lq__fail(db, LQ_ENOMEM, "task: out of memory for %zu tasks", n);
	return full;
}

/* A batch size the calls refuse before touching the tasks. */
static int refused_size(size_t n)
{
	return n == 0 || n > LQ_CLAIM_MAX;
}

LQ_EXTERN(lq_status) lq_task_claim(lq_db *db, const char *queue, lq_mode mode,
				   int64_t claim_ttl_ms, lq_task *tasks, size_t n, size_t *claimed)
{
	if (own_layout(db) || refused_size(n))
		return lq__task_claim(db, queue, mode, claim_ttl_ms, tasks, n, claimed);
	lq_task *full = scratch(db, n);
	if (!full)
		return LQ_ENOMEM;
	lq_status st = lq__task_claim(db, queue, mode, claim_ttl_ms, full, n, claimed);
	give_back(db, tasks, full, n);
	free(full);
	return st;
}

LQ_EXTERN(lq_status) lq_task_ack_claim(lq_db *db, const lq_task *done, lq_status *done_st, const char *queue,
				       lq_mode mode, int64_t claim_ttl_ms, lq_task *tasks, size_t n,
				       size_t *claimed)
{
	if (own_layout(db) || refused_size(n))
		return lq__task_ack_claim(db, done, done_st, queue, mode, claim_ttl_ms, tasks, n, claimed);
	lq_task done_full, *full = scratch(db, n);
	if (!full)
		return LQ_ENOMEM;
	lq_status st = lq__task_ack_claim(db, done ? read_theirs(db, done, &done_full) : NULL, done_st, queue,
					  mode, claim_ttl_ms, full, n, claimed);
	give_back(db, tasks, full, n);
	free(full);
	return st;
}

LQ_EXTERN(lq_status) lq_task_ack_many(lq_db *db, const lq_task *tasks, size_t n, lq_status *statuses)
{
	if (own_layout(db) || refused_size(n))
		return lq__task_ack_many(db, tasks, n, statuses);
	lq_task *full = scratch(db, n);
	if (!full)
		return LQ_ENOMEM;
	for (size_t i = 0; i < n; i++)
		read_theirs(db, theirs_at(db, tasks, i), &full[i]);
	lq_status st = lq__task_ack_many(db, full, n, statuses);
	free(full); /* shallow copies: what they point to stays the program's */
	return st;
}

LQ_EXTERN(lq_status) lq_task_get(lq_db *db, int64_t id, lq_task *out)
{
	if (own_layout(db))
		return lq__task_get(db, id, out);
	lq_task full;
	lq_status st = lq__task_get(db, id, &full);
	give_back(db, out, &full, 1);
	return st;
}

LQ_EXTERN(lq_status) lq_task_heartbeat(lq_db *db, lq_task *t, int64_t claim_ttl_ms)
{
	if (own_layout(db))
		return lq__task_heartbeat(db, t, claim_ttl_ms);
	lq_task full;
	read_theirs(db, t, &full);
	lq_status st = lq__task_heartbeat(db, &full, claim_ttl_ms);
	give_back(db, t, &full, 1);
	return st;
}

/* The calls that only read the program's task. */

LQ_EXTERN(lq_status) lq_task_ack(lq_db *db, const lq_task *t)
{
	lq_task full;
	return lq__task_ack(db, read_theirs(db, t, &full));
}

LQ_EXTERN(lq_status) lq_task_fail(lq_db *db, const lq_task *t, const char *error)
{
	lq_task full;
	return lq__task_fail(db, read_theirs(db, t, &full), error, 0);
}

LQ_EXTERN(lq_status) lq_task_release(lq_db *db, const lq_task *t)
{
	lq_task full;
	return lq__task_release(db, read_theirs(db, t, &full));
}

LQ_EXTERN(lq_status) lq_task_snooze(lq_db *db, const lq_task *t, int64_t delay_ms)
{
	lq_task full;
	return lq__task_snooze(db, read_theirs(db, t, &full), delay_ms);
}

LQ_EXTERN(lq_status) lq_task_ack_result(lq_db *db, const lq_task *t, const void *data, size_t len)
{
	lq_task full;
	return lq__task_ack_result(db, read_theirs(db, t, &full), data, len);
}

LQ_EXTERN(lq_status) lq_task_progress(lq_db *db, const lq_task *t, int percent, const char *message)
{
	lq_task full;
	return lq__task_progress(db, read_theirs(db, t, &full), percent, message);
}
