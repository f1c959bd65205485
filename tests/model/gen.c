/*
 * gen.c - random operation sequences (replayable from their seed) and the
 * shrinker: drop chunks of operations, then single ones, re-running each
 * candidate from a fresh database, and keep the shortest that still fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_backend.h"
#include "gen.h"
#include "model.h"

uint32_t rng_next(rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 16);
}

uint32_t rng_below(rng *r, uint32_t n)
{
	return n ? rng_next(r) % n : 0;
}

/* How often each operation comes, out of the sum. */
static const int weight[OP__COUNT] = {
	[OP_ADVANCE] = 10, [OP_ACQUIRE] = 6, [OP_RENEW] = 3, [OP_RELEASE] = 3, [OP_CHECK] = 2,
	[OP_BREAK] = 1,    [OP_ADD] = 14,    [OP_CLAIM] = 14, [OP_ACK] = 10,   [OP_FAIL] = 8,
	[OP_HEARTBEAT] = 2, [OP_HANDBACK] = 2, [OP_RM] = 2,   [OP_RETRY] = 3,  [OP_PAUSE] = 2,
	[OP_QPAUSE] = 1,   [OP_FLUSH] = 2,   [OP_REOPEN] = 2,   [OP_ACK_CLAIM] = 6,
};

/* Milliseconds on the sequence's time scale: a server waits for real. */
static int64_t ms(rng *r, const gen_opts *g, int64_t lo, int64_t hi)
{
	int64_t v = lo + (int64_t)rng_below(r, (uint32_t)(hi - lo + 1));
	return g->server ? v / 8 : v;
}

void gen_sequence(uint64_t seed, const gen_opts *g, op *ops, size_t n)
{
	rng r = {seed};
	int total = 0;
	for (int k = 0; k < OP__COUNT; k++)
		total += weight[k];
	for (size_t i = 0; i < n; i++) {
		op *o = &ops[i];
		memset(o, 0, sizeof(*o));
		int w = (int)rng_below(&r, (uint32_t)total), k = 0;
		while (w >= weight[k])
			w -= weight[k++];
		o->kind = k;
		o->a = (int)rng_below(&r, 1000);
		o->b = (int)rng_below(&r, 1000);
		switch (k) {
		case OP_ADVANCE:
			o->x = rng_below(&r, 4) == 0 ? ms(&r, g, 1000, 4000) : ms(&r, g, 1, 800);
			break;
		case OP_ACQUIRE:
		case OP_RENEW:
			o->a %= k == OP_ACQUIRE ? M_LEASES : 1000;
			o->x = ms(&r, g, 400, 3000);
			break;
		case OP_BREAK:
			o->a %= M_LEASES;
			break;
		case OP_ADD:
			o->a %= M_QUEUES;
			o->b %= M_NAMES;
			o->c = rng_below(&r, 3) == 0 ? (int)rng_below(&r, M_UKEYS) : -1;
			o->d = rng_below(&r, 3) == 0 ? (int)rng_below(&r, 5) - 2 : 0;
			o->e = (int)rng_below(&r, 4); /* 0: the default */
			o->x = rng_below(&r, 2) ? 0 : ms(&r, g, 1, 2500);
			o->y = rng_below(&r, 6) == 0 ? (g->server ? 100 + 50 * (int64_t)rng_below(&r, 6)
								  : 500 + 250 * (int64_t)rng_below(&r, 8))
						   : 0;
			break;
		case OP_CLAIM:
			o->a %= M_QUEUES;
			o->b %= 2;
			o->c = 1 + (int)rng_below(&r, 3);
			o->x = ms(&r, g, 400, 4000);
			break;
		case OP_HEARTBEAT:
			o->x = ms(&r, g, 400, 4000);
			break;
		case OP_ACK_CLAIM:
			o->b %= M_QUEUES;
			o->c = 1 + (int)rng_below(&r, 3);
			o->x = ms(&r, g, 400, 4000);
			break;
		case OP_PAUSE:
		case OP_QPAUSE:
			o->a %= k == OP_QPAUSE ? M_QUEUES : 1000;
			o->b %= 2;
			break;
		default:
			break;
		}
		/* (An ack with a claim is two calls' worth: not under a fault.) */
		if (g->faults && k != OP_ADVANCE && k != OP_ACK_CLAIM && rng_below(&r, 3) == 0) {
			o->fault = 1 + (int)rng_below(&r, LQT_FAULT__COUNT - 1);
			o->fault_at = 1 + (int)rng_below(&r, 6);
		}
	}
}

static const char *const op_names[OP__COUNT] = {
	[OP_ADVANCE] = "advance", [OP_ACQUIRE] = "acquire", [OP_RENEW] = "renew",   [OP_RELEASE] = "release",
	[OP_CHECK] = "check",     [OP_BREAK] = "break",     [OP_ADD] = "add",       [OP_CLAIM] = "claim",
	[OP_ACK] = "ack",         [OP_FAIL] = "fail",       [OP_HEARTBEAT] = "heartbeat", [OP_HANDBACK] = "handback",
	[OP_RM] = "rm",           [OP_RETRY] = "retry",     [OP_PAUSE] = "pause",   [OP_QPAUSE] = "queue-pause",
	[OP_FLUSH] = "flush",     [OP_REOPEN] = "reopen",   [OP_ACK_CLAIM] = "ack-claim",
};

void op_format(const op *o, char *buf, size_t size)
{
	const char *name = op_names[o->kind];
	switch (o->kind) {
	case OP_ADVANCE:
		snprintf(buf, size, "%s %lldms", name, (long long)o->x);
		break;
	case OP_ACQUIRE:
		snprintf(buf, size, "%s %s ttl=%lld", name, m_lease_names[o->a], (long long)o->x);
		break;
	case OP_RENEW:
		snprintf(buf, size, "%s handle#%d ttl=%lld", name, o->a, (long long)o->x);
		break;
	case OP_RELEASE:
	case OP_CHECK:
		snprintf(buf, size, "%s handle#%d", name, o->a);
		break;
	case OP_BREAK:
		snprintf(buf, size, "%s %s", name, m_lease_names[o->a]);
		break;
	case OP_ADD:
		snprintf(buf, size, "%s %s queue=%s unique=%s prio=%d max=%d delay=%lld every=%lld", name,
			 m_task_names[o->b], m_queue_names[o->a], o->c >= 0 ? m_ukey_names[o->c] : "-", o->d, o->e,
			 (long long)o->x, (long long)o->y);
		break;
	case OP_CLAIM:
		snprintf(buf, size, "%s queue=%s %s n=%d ttl=%lld", name, m_queue_names[o->a],
			 o->b ? "at-least-once" : "at-most-once", o->c, (long long)o->x);
		break;
	case OP_ACK:
	case OP_FAIL:
	case OP_HANDBACK:
		snprintf(buf, size, "%s job#%d", name, o->a);
		break;
	case OP_HEARTBEAT:
		snprintf(buf, size, "%s job#%d ttl=%lld", name, o->a, (long long)o->x);
		break;
	case OP_ACK_CLAIM:
		snprintf(buf, size, "%s job#%d queue=%s n=%d ttl=%lld", name, o->a, m_queue_names[o->b], o->c,
			 (long long)o->x);
		break;
	case OP_RM:
	case OP_RETRY:
		snprintf(buf, size, "%s task#%d", name, o->a);
		break;
	case OP_PAUSE:
		snprintf(buf, size, "%s task#%d", o->b ? "pause" : "resume", o->a);
		break;
	case OP_QPAUSE:
		snprintf(buf, size, "queue-%s %s", o->b ? "pause" : "resume", m_queue_names[o->a]);
		break;
	default:
		snprintf(buf, size, "%s", name);
		break;
	}
	if (o->fault) {
		size_t l = strlen(buf);
		snprintf(buf + l, size - l, "  [fault %s at call %d]", lqt_fault_kind_str(o->fault), o->fault_at);
	}
}

/* Try ops without [from, from + len): keep it if the run still fails. */
static int try_without(seq_runner run, void *ctx, op *ops, size_t *n, size_t from, size_t len, char *why,
		       size_t wsize)
{
	size_t m = *n - len;
	op *cand = malloc((m ? m : 1) * sizeof(*cand));
	if (!cand)
		return 0;
	memcpy(cand, ops, from * sizeof(*ops));
	memcpy(cand + from, ops + from + len, (*n - from - len) * sizeof(*ops));
	char w[2048];
	int failed = run(ctx, cand, m, w, sizeof(w));
	if (failed) {
		m = (size_t)failed; /* what came after the failing operation is not needed */
		memcpy(ops, cand, m * sizeof(*ops));
		*n = m;
		snprintf(why, wsize, "%s", w);
	}
	free(cand);
	return failed;
}

void shrink(seq_runner run, void *ctx, op *ops, size_t *n, char *why, size_t wsize)
{
	/* Chunks of halving size; at each size go over the sequence until no
	 * chunk can go. */
	for (size_t len = *n / 2; len >= 1; len /= 2) {
		int progress = 1;
		while (progress) {
			progress = 0;
			for (size_t from = 0; from + len <= *n;) {
				if (try_without(run, ctx, ops, n, from, len, why, wsize))
					progress = 1;
				else
					from += len;
			}
		}
	}
}
