/* fuzz_time.c - the `task add --at` time parser (epoch seconds, @EPOCH,
 * ISO 8601 with Z or an offset). */
#include "fuzz_common.h"
#include "leasectl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = lqf_cstr(data, size);
	int64_t ms = 0;

	if (lc_parse_time(s, &ms) == 0)
		LQF_ASSERT(ms > 0, "\"%s\" parsed to %lld ms", s, (long long)ms);
	free(s);
	return 0;
}
