/*
 * fuzz_handle.c - the lease handle decoder ("lq1:TOKEN:NAME:OWNER",
 * percent-encoded).  Property: what decodes encodes back to a handle that
 * decodes to the same lease.
 */
#include "fuzz_common.h"
#include "leaseq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = lqf_cstr(data, size), buf[LQ_HANDLE_MAX];
	lq_lease l, again;

	if (lq_lease_decode(s, &l, NULL, 0) == LQ_OK) {
		LQF_ASSERT(l.token > 0 && l.name[0] && l.owner[0], "decoded an empty field from \"%s\"", s);
		LQF_ASSERT(lq_lease_encode(&l, buf, sizeof(buf)) == LQ_OK, "cannot encode what \"%s\" decoded to", s);
		LQF_ASSERT(lq_lease_decode(buf, &again, NULL, 0) == LQ_OK, "cannot decode \"%s\" (from \"%s\")", buf, s);
		LQF_ASSERT(again.token == l.token && again.kind == l.kind && again.slot == l.slot &&
				   !strcmp(again.name, l.name) && !strcmp(again.owner, l.owner),
			   "round trip of \"%s\" changed the lease", s);
	}
	free(s);
	return 0;
}
