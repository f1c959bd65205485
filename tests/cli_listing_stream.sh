#!/usr/bin/env bash
# tests/cli_listing_stream.sh BACKEND - the listings (task list, task
# history, lease list, queue list) on tables larger than what they hold in
# memory: the text table spools its rows to a temporary file past a few
# thousand rows, and --json streams past 64 KiB.  It asserts that the text
# output is byte for byte the one built in memory (the same command with
# TMPDIR where no file can be made, which keeps every row in memory), that
# the JSON array holds every row once and in order, and that the largest
# listing's resident memory stays under a bound that buffering whole tables
# exceeds.  Never a time.  Run by ctest as `bash tests/cli_listing_stream.sh
# <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup listing_stream

N=30000          # tasks: past the table's spool and the JSON's hold-back
RSS_MAX_KB=20480 # buffering 30000 tasks' JSON or table rows takes more
# Under the sanitizers (tests/run sets ASAN_OPTIONS for that tree) shadow
# memory and the free quarantine make RSS no measure of what leasectl
# holds: the plain build checks the bound, this run the output.
[[ -n "${ASAN_OPTIONS:-}" ]] && RSS_MAX_KB=999999999
Q="ls-$RUN_ID"
# Due in 400 days and 12 hours: the "(in 400d)" beside it is the same for
# every call of this test.
AT=$(date -u -d '+400 days 12 hours' +%Y-%m-%dT%H:%M:%SZ)

echo "# listings stream: backend $backend"

# The server databases are shared with other tests: take this test's rows
# away at the end.
drop_queues() {
    local sql="DELETE FROM lq_task WHERE queue LIKE '$Q%'; DELETE FROM lq_run WHERE queue LIKE '$Q%';"
    case $backend in
    postgres) timeout 120 psql -X -q "$DSN" -c "$sql" >/dev/null 2>&1 || true ;;
    mysql)
        [[ "$DSN" =~ ^[a-z]+://([^:@/]*):?([^@]*)@([^:/]*):?([0-9]*)/([^?]*) ]] || return 0
        MYSQL_PWD=${BASH_REMATCH[2]} timeout 120 mysql -u "${BASH_REMATCH[1]}" -h "${BASH_REMATCH[3]}" \
            -P "${BASH_REMATCH[4]:-3306}" "${BASH_REMATCH[5]}" -e "$sql" >/dev/null 2>&1 || true
        ;;
    esac
}
cleanup_hooks=(drop_queues "${cleanup_hooks[@]}")

# Names of every width, the widest in the last row, so that the rows held
# in memory are padded to a width only a spooled row has.
begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
python3 - "$N" "$Q" "$AT" >"$T/tasks.jsonl" <<'PY'
import sys
n, q, at = int(sys.argv[1]), sys.argv[2], sys.argv[3]
for i in range(n):
    name = "t" + "x" * (i % 37) if i < n - 1 else "widest-" + "w" * 60
    print('{"name": "%s", "queue": "%s", "at": "%s", "priority": %d}' % (name, q, at, i % 7 - 3))
PY
run task add --from "$T/tasks.jsonl"
want_rc 0
end "task add --from: $N tasks in $Q"

# rss_of OUT ARGS...: leasectl --db DSN ARGS... >OUT; prints its max RSS in kB.
rss_of() {
    local out=$1
    shift
    /usr/bin/time -f '%M' -o "$T/rss" "$LEASECTL" --db "$DSN" "$@" >"$out" 2>"$T/err" || return 1
    tail -n 1 "$T/rss"
}

begin
rss=$(rss_of "$T/list.txt" task list --queue "$Q") || why+=("task list failed: $(head -c 300 "$T/err")")
TMPDIR=/nonexistent/dir "$LEASECTL" --db "$DSN" task list --queue "$Q" >"$T/list-mem.txt" 2>"$T/err" ||
    why+=("task list (in memory) failed")
cmp -s "$T/list.txt" "$T/list-mem.txt" || why+=("spooled and in-memory tables differ: $(diff "$T/list-mem.txt" "$T/list.txt" | head -n 4)")
n=$(($(lines_of "$T/list.txt") - 1))
[[ $n == "$N" ]] || why+=("$n rows, expected $N")
# The first row is padded to the widest name, which only the last row has.
w=$(awk 'NR == 2 { print index($0, "'"$AT"'" ) }' "$T/list.txt" | head -n 1)
w_last=$(tail -n 1 "$T/list.txt" | awk '{ print index($0, "'"${AT%T*}"'" ) }')
[[ $w -gt 0 && $w == "$w_last" ]] || why+=("columns not aligned: NEXT RUN at $w in the first row, $w_last in the last")
[[ ${rss:-999999} -lt $RSS_MAX_KB ]] || why+=("task list took $rss kB")
end "task list, $N rows: the table byte for byte as built in memory, under $RSS_MAX_KB kB"

begin
rss=$(rss_of "$T/list.json" --json task list --queue "$Q") || why+=("task list --json failed")
python3 - "$T/list.json" "$N" "$Q" <<'PY' || why+=("the JSON array is not every task once, by id")
import json, sys
rows = json.load(open(sys.argv[1]))
ids = [r["id"] for r in rows]
assert len(rows) == int(sys.argv[2]), len(rows)
assert ids == sorted(set(ids)), "order"
assert all(r["queue"] == sys.argv[3] for r in rows)
assert rows[-1]["name"].startswith("widest-")
PY
[[ ${rss:-999999} -lt $RSS_MAX_KB ]] || why+=("task list --json took $rss kB")
end "task list --json, $N rows: one array with every task by id, under $RSS_MAX_KB kB"

begin
# The JSON's ids are the text's first column, in the same order.
python3 -c 'import json,sys; [print(r["id"]) for r in json.load(open(sys.argv[1]))]' "$T/list.json" >"$T/ids.json" ||
    why+=("task list --json is not JSON")
tail -n +2 "$T/list.txt" | awk '{ print $1 }' >"$T/ids.txt"
cmp -s "$T/ids.json" "$T/ids.txt" || why+=("the table's ids are not the JSON's")
end "task list: the same tasks in text and JSON"

begin
rss=$(rss_of "$T/queues.txt" queue list) || why+=("queue list failed")
grep -q "^$Q " "$T/queues.txt" || why+=("queue list lacks $Q")
rss=$(rss_of "$T/leases.json" --json lease list) || why+=("lease list failed")
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/leases.json" || why+=("lease list --json is not JSON")
end "queue list and lease list --json still list"

# A history: a worker runs a queue of its own.
begin
run task add --from <(for i in $(seq 1 400); do echo '{"name": "h", "queue": "'"$Q-h"'"}'; done)
want_rc 0
TMO=120 run worker --queue "$Q-h" --drain --handler 'h=true'
want_rc 0
rss=$(rss_of "$T/hist.txt" task history --queue "$Q-h" --limit 100000) || why+=("task history failed: $(head -c 300 "$T/err")")
n=$(($(lines_of "$T/hist.txt") - 1))
[[ $n == 400 ]] || why+=("history has $n rows, expected 400")
rss=$(rss_of "$T/hist.json" --json task history --queue "$Q-h" --limit 100000) || why+=("task history --json failed")
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))) == 400' "$T/hist.json" ||
    why+=("task history --json is not 400 runs")
end "task history: 400 runs in text and JSON"

begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the database password"

finish
