/* fuzz_time.c - the `task add --at` time parser (epoch seconds, @EPOCH,
 * ISO 8601 with Z or an offset).  Properties: an accepted time is after the
 * epoch, and written back as @SECONDS.mmm it parses to the same instant. */
#include "fuzz_common.h"
#include "leasectl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = lqf_cstr(data, size);
	int64_t ms = 0, again = 0;
	char epoch[48];

	if (lc_parse_time(s, &ms) == 0) {
		LQF_ASSERT(ms > 0, "\"%s\" parsed to %lld ms", s, (long long)ms);
		snprintf(epoch, sizeof(epoch), "@%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
		LQF_ASSERT(lc_parse_time(epoch, &again) == 0 && again == ms, "\"%s\" is %lld ms but \"%s\" is %lld",
			   s, (long long)ms, epoch, (long long)again);
	}
	free(s);
	return 0;
}
