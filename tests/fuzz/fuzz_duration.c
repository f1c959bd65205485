/* fuzz_duration.c - lq_parse_duration ("250ms", "3s", "5m", "2h", "1d"). */
#include "fuzz_common.h"
#include "leaseq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = lqf_cstr(data, size);
	int64_t ms = -1;

	if (lq_parse_duration(s, &ms, NULL, 0) == LQ_OK)
		LQF_ASSERT(ms >= 0, "\"%s\" parsed to %lld ms", s, (long long)ms);
	free(s);
	return 0;
}
