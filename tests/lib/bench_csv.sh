# tests/lib/bench_csv.sh - sourced by the leasectl bench tests (after
# tests/lib/cli.sh).
#
#   bench_csv_head FILE ROWS   FILE has the contract's CSV header exactly and
#                              ROWS rows under it; else reasons in why (0: go
#                              on and check the rows, 1: no CSV at all)
# shellcheck shell=bash
BENCH_CSV_HEADER='backend,workload,clients,pending,ops_per_s,rows_per_s,raw_rows_per_s,ratio,p50_us,p99_us,rss_kb'
# A CSV cell that is a number.
BENCH_CSV_NUM='^[0-9]+(\.[0-9]+)?$'

bench_csv_head() {
    local file=$1 want=$2 rows
    if [[ ! -s "$file" ]]; then
        why+=("no CSV written")
        return 1
    fi
    [[ "$(head -n 1 "$file")" == "$BENCH_CSV_HEADER" ]] || why+=("CSV header is '$(head -n 1 "$file")'")
    rows=$(($(lines_of "$file") - 1))
    [[ $rows == "$want" ]] || why+=("CSV has $rows rows, expected $want")
    return 0
}
