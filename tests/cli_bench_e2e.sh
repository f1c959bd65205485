#!/usr/bin/env bash
# tests/cli_bench_e2e.sh BACKEND - smoke test of "leasectl bench"'s end-to-end
# workloads (e2e-c: lq_runner_work processes; e2e-worker: "leasectl worker"
# processes with a shell handler), briefly, at 1 and 2 workers on a small
# queue.  It asserts that the bench ran every task it queued (the bench
# exits non-zero when a due or an enqueued task did not run), wrote the CSV
# header exactly and one row per workload and worker count with numbers,
# and left nothing behind; never a speed.  Run by ctest as
# `bash tests/cli_bench_e2e.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN (and with ?notify=off)
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
# shellcheck source=SCRIPTDIR/lib/bench_csv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench_csv.sh"

cli_args "$@"
cli_setup bench_e2e
TMO=300 # a whole bench run, not one call

echo "# leasectl bench end-to-end smoke test: backend $backend"

begin
run bench --help; want_rc 0
want_out 'e2e-c'; want_out 'e2e-worker'; want_out 'pickup latency'; want_out 'notify=off'
end "bench --help: names the end-to-end workloads, the latency and the polling"

begin
# 2 s a side: the CSV check wants tasks in each window, and under ASan on a
# loaded machine two "leasectl worker" processes and their shell handlers
# ran none in 600 ms.
run bench --duration 2s --clients 1,2 --pending 200 --workload e2e-c,e2e-worker --csv "$T/e2e.csv"
want_rc 0
want_out 'poll'
for w in e2e-c e2e-worker; do want_out "^$backend +$w +1 "; want_out "^$backend +$w +2 "; done
end "bench -w e2e-c,e2e-worker: every task ran, a table with the poll interval"

begin
if bench_csv_head "$T/e2e.csv" 4; then
    while IFS=, read -r b w c p ops rows_s raw ratio p50 p99 rss; do
        [[ $b == "$backend" ]] || why+=("row $w/$c: backend '$b'")
        for v in "$c" "$p" "$ops" "$rows_s" "$raw" "$ratio" "$p50" "$p99" "$rss"; do
            [[ $v =~ $BENCH_CSV_NUM ]] || why+=("row $w/$c: '$v' is not a number")
        done
        [[ $p == 200 ]] || why+=("row $w/$c: pending $p")
        awk -v r="$rows_s" -v x="$raw" -v s="$rss" 'BEGIN { exit !(r > 0 && x > 0 && s > 0) }' ||
            why+=("row $w/$c: no tasks/s, raw rows/s or RSS")
    done < <(tail -n +2 "$T/e2e.csv")
fi
end "bench --csv: the exact header, one row per workload and worker count, numbers"

if [[ $backend == postgres ]]; then
    begin
    case $DSN in *\?*) off="$DSN&notify=off" ;; *) off="$DSN?notify=off" ;; esac
    run_raw --db "$off" --json bench --duration 400ms --clients 2 --pending 100 --workload e2e-c
    want_rc 0; want_json
    json_has "$T/out" workload e2e-c || why+=("no e2e-c result")
    n=$(json_get "$T/out" enqueued)
    [[ ${n:-0} -gt 0 ]] || why+=("enqueued is '$n'")
    end "bench --json with ?notify=off: polling workers ran every enqueued task"
fi

begin
run --json task list
grep -q 'leaseq-bench-' "$T/out" && why+=("bench left tasks behind")
end "bench: nothing left behind"

begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the database password"

finish
