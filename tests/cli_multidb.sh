#!/usr/bin/env bash
# tests/cli_multidb.sh BACKEND - one `leasectl worker` (and `tick`) serving
# several databases given as repeated --db: every task of every database
# runs once; a database that is unreachable is reported and retried while
# the others are served; no password is printed.  Run by ctest as
# `bash tests/cli_multidb.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    two SQLite files
#   postgres  a SQLite file and $LEASEQ_TEST_PG_DSN
#   mysql     a SQLite file, $LEASEQ_TEST_MYSQL_DSN and, when set,
#             $LEASEQ_TEST_PG_DSN: the three backends together
# Server databases are shared: every queue name is unique to this run and
# emptied at the end.
#
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup multidb

Q="md${RUN_ID}"
dbs=("sqlite:$T/first.db" "$DSN")
if [[ $backend == mysql && -n "${LEASEQ_TEST_PG_DSN:-}" ]]; then
    dbs+=("$LEASEQ_TEST_PG_DSN")
fi
dbargs=()
for d in "${dbs[@]}"; do
    dbargs+=(--db "$d")
done
# Nothing listens on port 1: connection refused at once.
DOWN="postgresql://nobody:s3cretpw@127.0.0.1:1/none?connect_timeout=2"

echo "# leasectl multi-database test: backend $backend, ${#dbs[@]} databases, queue $Q"

empty_queue() {
    local d
    for d in "${dbs[@]:1}"; do
        "$LEASECTL" --db "$d" --json task list --queue "$Q" 2>/dev/null |
            grep -o '"id": *[0-9]*' | grep -o '[0-9]*$' |
            while read -r id; do "$LEASECTL" --db "$d" task rm "$id" >/dev/null 2>&1 || true; done
    done
}
cleanup_hooks+=(empty_queue)

begin
for i in "${!dbs[@]}"; do
    run_raw --db "${dbs[$i]}" migrate
    [[ $RC == 0 ]] || why+=("migrate of database $i exited $RC")
    for k in 1 2 3; do
        run_raw --db "${dbs[$i]}" task add "db$i-task$k" --queue "$Q"
        [[ $RC == 0 ]] || why+=("task add on database $i exited $RC")
    done
done
end "three tasks in each of ${#dbs[@]} databases"

begin
run_raw "${dbargs[@]}" worker --drain --queue "$Q" --handler '*=echo "$LEASEQ_TASK_NAME" >> '"$T/ran"
want_rc 0
want "$([[ -s $T/ran ]] && echo 1 || echo 0)" "no handler ran"
expected=$((3 * ${#dbs[@]}))
got=$(sort "$T/ran" | uniq | wc -l)
dups=$(sort "$T/ran" | uniq -d | wc -l)
want "$((got == expected))" "ran $got distinct tasks, expected $expected"
want "$((dups == 0))" "$dups tasks ran twice"
for i in "${!dbs[@]}"; do
    grep -q "^db$i-task3\$" "$T/ran" || why+=("database $i: its tasks did not run")
done
want "$(($(grep -c '^worker (.*): ran 3, failed 0' "$T/err") == ${#dbs[@]}))" "one labelled report per database"
end "one worker, ${#dbs[@]} databases: every task ran once"

begin
: >"$T/ran"
for i in "${!dbs[@]}"; do
    run_raw --db "${dbs[$i]}" task add "again$i" --queue "$Q"
done
run_raw "${dbargs[@]}" --db "$DOWN" worker --drain --queue "$Q" --handler '*=echo "$LEASEQ_TASK_NAME" >> '"$T/ran"
want_rc 69
want "$(($(sort -u "$T/ran" | wc -l) == ${#dbs[@]}))" "the reachable databases were not all served: $(tr '\n' ' ' <"$T/ran")"
want_err 'unreachable; trying again'
want_err 'postgresql://nobody:\*\*\*@127\.0\.0\.1:1/'
grep -q s3cretpw "$T/err" "$T/out" && why+=("the password of the unreachable DSN was printed")
end "one database down: the others served, the down one retried and reported (69)"

begin
: >"$T/ran"
run_raw --db "${dbs[0]}" task add "tick0" --queue "$Q"
run_raw --db "${dbs[1]}" task add "tick1" --queue "$Q"
run_raw "${dbargs[@]}" --json tick --queue "$Q" --handler '*=echo "$LEASEQ_TASK_NAME" >> '"$T/ran"
want_rc 0
want "$(($(sort -u "$T/ran" | wc -l) == 2))" "tick ran $(wc -l <"$T/ran") tasks, expected 2"
want "$(($(grep -c '"db"' "$T/out") == ${#dbs[@]}))" "one JSON report with \"db\" per database"
end "tick over several databases"

begin
for i in "${!dbs[@]}"; do
    run_raw --db "${dbs[$i]}" task add "listed$i" --queue "$Q"
done
run_raw "${dbargs[@]}" --json task list --queue "$Q"
want_rc 0
want "$(($(grep -c '"db"' "$T/out") == ${#dbs[@]}))" "one row with \"db\" per database"
[[ -z "$PASSWORD" ]] || ! grep -qF "$PASSWORD" "$T/out" || why+=("a password in the listing")
run_raw "${dbargs[@]}" task list --queue "$Q"
want_rc 0
want_out '^DB +ID +QUEUE'
want "$(($(grep -c "listed" "$T/out") == ${#dbs[@]}))" "text: one row per database"
run_raw "${dbargs[@]}" --db "$DOWN" --json queue list
want_rc 69
want "$(($(grep -c "\"name\": \"$Q\"" "$T/out") == ${#dbs[@]}))" "queue list: the reachable databases' queues"
want_err 'nobody:\*\*\*@'
grep -q s3cretpw "$T/err" "$T/out" && why+=("the password of the unreachable DSN was printed")
end "task list and queue list over several databases, each row labelled"

begin
run_raw "${dbargs[@]}" --json stats
want_rc 0
want "$(($(grep -c '"db"' "$T/out") == ${#dbs[@]}))" "one stats object with \"db\" per database"
json_ok "$T/out" || why+=("stats --json over several databases is not one JSON document")
run_raw "${dbargs[@]}" stats
want_rc 0
want "$(($(grep -c '^database: ' "$T/out") == ${#dbs[@]}))" "text: one block per database"
run_raw "${dbargs[@]}" stats --format prometheus
want_rc 64
end "stats over several databases"

begin
LN="lease-$Q"
for i in "${!dbs[@]}"; do
    run_raw --db "${dbs[$i]}" lease acquire "$LN" --ttl 5m --owner "owner$i"
    [[ $RC == 0 ]] || why+=("lease acquire on database $i exited $RC")
done
run_raw "${dbargs[@]}" --json lease list
want_rc 0
json_ok "$T/out" || why+=("lease list --json over several databases is not one JSON document")
want "$(($(grep -c "\"name\": \"$LN\"" "$T/out") == ${#dbs[@]}))" "lease list --json: the lease once per database"
for i in "${!dbs[@]}"; do # (an owner gets a random suffix: owner0/8f3a...)
    grep -q "\"owner\": \"owner$i/" "$T/out" || why+=("lease list --json: database $i's holder owner$i is not listed")
done
run_raw "${dbargs[@]}" lease list
want_rc 0
want_out '^DB +NAME +KIND'
want "$(($(grep -c -F "$LN" "$T/out") == ${#dbs[@]}))" "lease list: one row per database"
run_raw "${dbargs[@]}" --db "$DOWN" --json lease list
want_rc 69
want "$(($(grep -c "\"name\": \"$LN\"" "$T/out") == ${#dbs[@]}))" "lease list with a database down: the reachable databases' leases"
grep -q s3cretpw "$T/err" "$T/out" && why+=("the password of the unreachable DSN was printed")
for i in "${!dbs[@]}"; do
    run_raw --db "${dbs[$i]}" lease break "$LN"
done
end "lease list over several databases: each row labelled, a database that is down reported, the others listed"

begin
run_raw --db "${dbs[0]}" --db "${dbs[1]}" lease acquire x --ttl 5s
want_rc 64
want_err 'takes one --db'
end "a command that works on one database refuses several"

finish
