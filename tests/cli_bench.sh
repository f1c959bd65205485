#!/usr/bin/env bash
# tests/cli_bench.sh BACKEND - smoke test of "leasectl bench": every
# workload runs for about a second at 1 and 2 clients, with --csv and --json.
# It asserts that the bench ran, wrote the CSV header exactly and one row per
# workload and client count with numbers that parse, and left nothing behind;
# never a speed.  Run by ctest as `bash tests/cli_bench.sh <backend>` with
# LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
# shellcheck source=SCRIPTDIR/lib/bench_csv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench_csv.sh"

cli_args "$@"
cli_setup bench
TMO=300 # a whole bench run, not one call

WORKLOADS=(claim claim-batch claim-ack claim-run enqueue enqueue-batch lease lease-hot tick-idle recurring claim-fair claim-fair-batch claim-capped claim-rated)
HEADER='backend,workload,clients,pending,ops_per_s,rows_per_s,raw_rows_per_s,ratio,p50_us,p99_us,rss_kb'

echo "# leasectl bench smoke test: backend $backend"

# ================================================================== bad input
begin
run bench --clients 0; want_rc 64; want_err_line; want_out_empty
run bench --clients 1,x; want_rc 64; want_err_line
run bench --clients 65; want_rc 64; want_err_line
run bench --workload nope; want_rc 64; want_err_line; want_err 'nope'
run bench --workload claim,nope; want_rc 64; want_err_line
run bench --duration x; want_rc 64; want_err_line
run bench --duration 10ms; want_rc 64; want_err_line
run bench --pending -1; want_rc 64; want_err_line
run bench --frobnicate; want_rc 64; want_err_line
end "bench: bad --clients, --workload, --duration, --pending: one line, exit 64"

begin
run bench --help; want_rc 0
for w in "${WORKLOADS[@]}"; do want_out "$w"; done
want_out 'RATIO'; want_out '--pending'; want_out '--plot'
end "bench --help: names every workload and explains the ratio"

# ================================================================== every workload
begin
run bench --duration 1s --clients 1,2 --pending 1000 --csv "$T/bench.csv"
want_rc 0
want_out 'RATIO'
for w in "${WORKLOADS[@]}"; do want_out "^$backend +$w +1 "; want_out "^$backend +$w +2 "; done
end "bench: every workload at 1 and 2 clients, a table on stdout"

begin
if bench_csv_head "$T/bench.csv" $((${#WORKLOADS[@]} * 2)); then
    for w in "${WORKLOADS[@]}"; do
        for c in 1 2; do
            n=$(grep -c "^$backend,$w,$c," "$T/bench.csv" || true)
            [[ $n == 1 ]] || why+=("CSV has $n rows for $w at $c clients")
        done
    done
    while IFS=, read -r b w c p ops rows_s raw ratio p50 p99 rss; do
        [[ $b == "$backend" ]] || why+=("row $w/$c: backend '$b'")
        for v in "$c" "$p" "$ops" "$rows_s" "$raw" "$ratio" "$p50" "$p99" "$rss"; do
            [[ $v =~ $BENCH_CSV_NUM ]] || why+=("row $w/$c: '$v' is not a number")
        done
        awk -v r="$ratio" 'BEGIN { exit !(r > 0) }' || why+=("row $w/$c: ratio $ratio is not > 0")
        case $w in claim | claim-batch | claim-ack | claim-run | claim-fair | claim-fair-batch | claim-capped | claim-rated) [[ $p == 1000 ]] || why+=("row $w/$c: pending $p") ;; esac
        # Every call of enqueue-batch inserted its 100 tasks (lq_task_add_many), so rows/s is 100 times
        # calls/s up to the rounding of the two printed values (one decimal each): at 21.2 calls/s that
        # rounding alone moves the quotient by 0.24 %.
        [[ $w != enqueue-batch ]] || awk -v o="$ops" -v r="$rows_s" 'BEGIN { d = r - 100 * o; if (d < 0) d = -d; exit !(o > 0 && d <= 100 * 0.05 + 0.05) }' ||
            why+=("row $w/$c: $rows_s rows/s over $ops calls/s is not 100 tasks per call")
    done < <(tail -n +2 "$T/bench.csv")
fi
end "bench --csv: the exact header, one row per workload and client count, numbers, ratio > 0"

begin
run --json task list
grep -q 'leaseq-bench-' "$T/out" && why+=("bench left tasks behind")
run --json lease list
grep -q 'leaseq-bench-' "$T/out" && why+=("bench left leases behind")
run --json limit list
grep -q 'leaseq-bench-' "$T/out" && why+=("bench left limits behind")
end "bench: nothing left behind"

# ================================================================== --json, tick-idle
begin
run --json bench --duration 300ms --clients 1 --workload tick-idle
want_rc 0; want_json
json_has "$T/out" workload tick-idle || why+=("no tick-idle result")
json_keys "$T/out" workload clients pending ratio dry leaseq raw || why+=("a result lacks a field")
# The statement counter works: an idle tick sends at least one statement.
spo=$(json_get "$T/out" statements_per_op)
awk -v s="${spo:-0}" 'BEGIN { exit !(s >= 1) }' || why+=("statements_per_op is '$spo'")
end "bench --json: one document; tick-idle counts statements per call"

# ================================================================== --plot
begin
if command -v gnuplot >/dev/null 2>&1; then
    run bench --duration 200ms --clients 1,2 --workload enqueue --plot "$T/bench.png"
    want_rc 0
    [[ -s "$T/bench.png" ]] || why+=("no PNG written")
    [[ "$(head -c 4 "$T/bench.png" | tail -c 3)" == PNG ]] || why+=("not a PNG")
else
    PATH=/nonexistent run bench --duration 200ms --workload enqueue --plot "$T/bench.png"
    want_rc 1; want_err_line; want_err 'gnuplot'
fi
end "bench --plot: a PNG (or a one-line error without gnuplot)"

# ================================================================== end
begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the database password"

finish
