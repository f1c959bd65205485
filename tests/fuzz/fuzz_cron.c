/*
 * fuzz_cron.c - the cron parser and the next-occurrence search, with a time
 * zone (read from the system's zoneinfo).  Input: CRON '\n' ZONE '\n' then
 * up to 8 bytes of "after" (epoch ms).  Property: the next occurrence is
 * strictly after "after".
 */
#include "fuzz_common.h"
#include "leaseq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = lqf_cstr(data, size), *tz = NULL, *rest = NULL, msg[256];
	int64_t after = 0, next = 0;

	char *nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		tz = nl + 1;
		if ((nl = strchr(tz, '\n')) != NULL) {
			*nl = '\0';
			rest = nl + 1;
		}
	}
	if (rest) {
		uint64_t u = 0;
		for (size_t i = 0; i < 8 && rest[i]; i++)
			u = u << 8 | (unsigned char)rest[i];
		/* Keep it in the years a schedule is used for, 1970..2400. */
		after = (int64_t)(u % (13569465600000ULL));
	}
	if (tz && !*tz)
		tz = NULL;
	msg[0] = '\0';
	if (lq_check_schedule(s, tz, msg, sizeof(msg)) == LQ_OK) {
		lq_status st = lq_cron_next(s, tz, after, &next, NULL, 0);
		if (st == LQ_OK)
			LQF_ASSERT(next > after, "cron \"%s\" tz %s after %lld gave %lld", s, tz ? tz : "UTC",
				   (long long)after, (long long)next);
	} else {
		LQF_ASSERT(memchr(msg, '\0', sizeof(msg)) && msg[0], "no message for a refused schedule");
	}
	free(s);
	return 0;
}
