/*
 * gen.h - operations of the model-based test: random sequences from a
 * seed, their one-line transcript, and the shrinking of a failing one.
 */
#ifndef LQ_MODEL_GEN_H
#define LQ_MODEL_GEN_H

#include <stddef.h>
#include <stdint.h>

enum op_kind {
	OP_ADVANCE, /* x: ms the clock moves on (a sleep on a server) */
	OP_ACQUIRE, /* a: lease, x: ttl */
	OP_RENEW,   /* a: handle, x: ttl */
	OP_RELEASE, /* a: handle */
	OP_CHECK,   /* a: handle */
	OP_BREAK,   /* a: lease */
	OP_ADD,     /* a: queue, b: name, c: unique key (-1 none), d: priority, e: max attempts, x: delay, y: every */
	OP_CLAIM,   /* a: queue, b: mode, c: batch, x: claim ttl */
	OP_ACK,     /* a: job */
	OP_FAIL,    /* a: job */
	OP_HEARTBEAT, /* a: job, x: ttl */
	OP_HANDBACK,  /* a: job (lq_task_release) */
	OP_RM,      /* a: task */
	OP_RETRY,   /* a: task */
	OP_PAUSE,   /* a: task, b: paused */
	OP_QPAUSE,  /* a: queue, b: paused */
	OP_FLUSH,   /* lq_run_flush */
	OP_REOPEN,  /* lq_close (writes the kept-back rows) and lq_open */
	OP_ACK_CLAIM, /* a: job, b: queue, c: batch, x: claim ttl (lq_task_ack_claim, at least once) */
	OP__COUNT
};

typedef struct op {
	int kind;
	int a, b, c, d, e;
	int64_t x, y;
	int fault, fault_at; /* fault mode: lqt_fault_kind and call number (0: none) */
} op;

typedef struct gen_opts {
	int server;  /* time scale of a server: short TTLs, real sleeps */
	int faults;  /* arm a fault on some operations */
} gen_opts;

typedef struct rng {
	uint64_t s;
} rng;
uint32_t rng_next(rng *r);
uint32_t rng_below(rng *r, uint32_t n);

/* n random operations from seed. */
void gen_sequence(uint64_t seed, const gen_opts *g, op *ops, size_t n);
/* "acquire L1 ttl=500" */
void op_format(const op *o, char *buf, size_t size);

/* Run ops from a fresh database: 0 passed, else failed at operation
 * (return value - 1), why filled. */
typedef int (*seq_runner)(void *ctx, const op *ops, size_t n, char *why, size_t wsize);
/* Delta debugging: the smallest failing subsequence found (in place; *n
 * shrinks).  Every candidate runs from a fresh database. */
void shrink(seq_runner run, void *ctx, op *ops, size_t *n, char *why, size_t wsize);

#endif
