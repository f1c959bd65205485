/*
 * hist.c - latency histogram for leasectl bench: constant memory however
 * long a client runs, fine enough for p50 and p99.
 */
#include "bench/bench.h"

static int bucket(int64_t us)
{
	if (us < 32)
		return us < 0 ? 0 : (int)us;
	int e = 63 - __builtin_clzll((unsigned long long)us); /* 5 .. 62 */
	if (e > 35)
		return BENCH_HIST_N - 1;
	int sub = (int)((us >> (e - 4)) & 15);
	return 32 + (e - 5) * 16 + sub;
}

/* The middle of bucket b, in microseconds. */
static double bucket_mid(int b)
{
	if (b < 32)
		return b;
	int e = (b - 32) / 16 + 5, sub = (b - 32) % 16;
	double lo = (double)(1LL << e) + (double)sub * (double)(1LL << (e - 4));
	return lo + (double)(1LL << (e - 4)) / 2;
}

void bench_hist_add(struct bench_hist *h, int64_t us)
{
	h->n[bucket(us)]++;
}

void bench_hist_merge(struct bench_hist *into, const struct bench_hist *h)
{
	for (int i = 0; i < BENCH_HIST_N; i++)
		into->n[i] += h->n[i];
}

double bench_hist_quantile(const struct bench_hist *h, double q)
{
	uint64_t total = 0;
	for (int i = 0; i < BENCH_HIST_N; i++)
		total += h->n[i];
	if (total == 0)
		return 0;
	uint64_t want = (uint64_t)(q * (double)total);
	if (want >= total)
		want = total - 1;
	uint64_t seen = 0;
	for (int i = 0; i < BENCH_HIST_N; i++) {
		seen += h->n[i];
		if (seen > want)
			return bucket_mid(i);
	}
	return bucket_mid(BENCH_HIST_N - 1);
}
