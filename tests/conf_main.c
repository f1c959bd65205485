/*
 * conf_main.c - the conformance suite: the same tests, written once against
 * the public API, run against one backend per invocation:
 *     conformance --backend sqlite|postgres|mysql
 *     conformance --backend sqlite --retry-storm   (through tests/fault_backend.c)
 * Exit 0 when every group passed, 77 when the backend's DSN is not set.
 * LQT_GROUP=name runs one group only (lease, task, schedule, runner, errors,
 * task-features, borrow, run, shared, progress,
 * cancel, ack-claim, steer, limits, partition, abi).
 */
#include <string.h>

#include "fault_backend.h"
#include "testutil.h"

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} groups[] = {
		{"lease", lqt_conf_lease},     {"task", lqt_conf_task},
		{"schedule", lqt_conf_schedule}, {"runner", lqt_conf_runner},
		{"errors", lqt_conf_errors},     {"task-features", lqt_conf_task_features},
		{"borrow", lqt_conf_borrow},     {"run", lqt_conf_run},
		{"shared", lqt_conf_shared},       {"progress", lqt_conf_progress},
		{"cancel", lqt_conf_cancel},     {"ack-claim", lqt_conf_ack_claim},
		{"steer", lqt_conf_steer},
		{"limits", lqt_conf_limits},
		{"partition", lqt_conf_partition},
		{"abi", lqt_conf_abi},
	};
	const char *only = getenv("LQT_GROUP");
	int failed = 0;

	lqt_conf_backend = lqt_backend_from_args(argc, argv);
	lqt_conf_dsn = lqt_dsn(lqt_conf_backend);
	printf("conformance %s (%s)\n", lqt_conf_backend, lq_version());
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (only != NULL && strcmp(only, groups[i].name) != 0)
			continue;
		failed += groups[i].run();
	}
	if (lqt_retry_storm()) {
		/* Only this process's handles count (children have their own). */
		long injected = lqt_fault_storm_count();
		printf("retry storm: %ld conflicts injected and retried\n", injected);
		if (injected == 0)
			failed++; /* a storm that never struck proves nothing */
	}
	printf("conformance %s: %s\n", lqt_conf_backend, failed ? "FAILED" : "all groups passed");
	return failed ? 1 : 0;
}
