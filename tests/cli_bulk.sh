#!/usr/bin/env bash
# tests/cli_bulk.sh BACKEND - `task add --from FILE|-`
# and `task add --priority`: a JSON Lines file goes in all or
# nothing, a bad line is named with its number and adds nothing (exit 64),
# unique keys behave as for a single add, and priorities decide the order a
# worker runs due tasks in.  Run by ctest as `bash tests/cli_bulk.sh
# <backend>` with LEASECTL=<path to leasectl>.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup bulk
echo "# task add --from / --priority: backend $backend"
Q="bulk_${RUN_ID}"
Q2="bulk2_${RUN_ID}"
QP="prio_${RUN_ID}"
KEY="key_${RUN_ID}"

count() { # QUEUE -> live tasks
    run --json task list --queue "$1"
    ids "$T/out" | grep -c . || true
}

begin; run migrate; want_rc 0; end "migrate: exit 0"

# A good file: 250 lines (more than one statement), an empty line, every
# kind of field, and two lines sharing a unique key.
{
    for i in $(seq 1 250); do
        printf '{"name": "job%d", "payload": "p%d", "priority": %d}\n' "$i" "$i" $((i % 3))
    done
    echo
    printf '{"name":"later","in":"1h","timeout":"5s","max_attempts":2,"unique":"%s"}\n' "$KEY"
    printf '{"name":"again","unique":"%s"}\n' "$KEY"
    printf '{"name":"esc\\u00e9","payload":"a\\"b\\nc","queue":"%s"}\n' "$Q2"
} >"$T/good.jsonl"

begin
run --json task add --from "$T/good.jsonl" --queue "$Q"
want_rc 0; want_json
[[ "$(json_get "$T/out" added)" == 252 && "$(json_get "$T/out" existed)" == 1 ]] ||
    why+=("added/existed: $(excerpt "$T/out")")
n=$(count "$Q")
[[ $n == 251 ]] || why+=("queue $Q has $n tasks, expected 251")
[[ $(count "$Q2") == 1 ]] || why+=("the line with its own queue did not go to $Q2")
run --json task list --queue "$Q"
json_has "$T/out" priority 2 || why+=("no task with priority 2 in task list --json")
json_has "$T/out" timeout_ms 5000 || why+=("no task with timeout_ms 5000 in task list --json")
run task list --queue "$Q"
grep -q PRIO "$T/out" || why+=("task list has no PRIO column: $(excerpt "$T/out")")
end "task add --from FILE: 252 tasks in, the repeated unique key once, fields and per-line queue kept"

begin
run --json task list --queue "$Q2"
id=$(ids "$T/out" | head -1)
run task show "$id" --raw
[[ "$(cat "$T/out")" == $'a"b\nc' ]] || why+=("payload with escapes: $(excerpt "$T/out")")
run --json task show "$id"
[[ "$(json_get "$T/out" name)" == "escé" ]] || why+=("name with \\u escape: $(json_get "$T/out" name)")
end "JSON escapes in names and payloads are decoded"

begin
STDIN="$T/good.jsonl" run task add --from - --queue "$Q"
want_rc 0
grep -q -E '^added 251 tasks \(2 already there' "$T/out" || why+=("second add from stdin: $(excerpt "$T/out")")
end "task add --from -: standard input; keys already held are reported, not added again"

# Bad files: nothing added, the first bad line named, exit 64.
before=$(count "$Q")
# "printf ... | bad_file": bad_file must run in this shell, or the checks it
# fails are not counted.
shopt -s lastpipe
bad_file() { # DESC ERE LINE-NUMBER, the file on stdin
    cat >"$T/bad.jsonl"
    begin
    run task add --from "$T/bad.jsonl" --queue "$Q"
    want_rc 64; want_err_line
    want_err "--from .*bad\.jsonl: line $3: .*$2"
    local after
    after=$(count "$Q")
    [[ $after == "$before" ]] || why+=("$((after - before)) tasks were added")
    end "task add --from: $1: exit 64, line $3 named, nothing added"
}
printf '{"name":"a"}\n{"name":"b"}\n{"name":"c",}\n{"name":"d"}\n' | bad_file "broken JSON" 'JSON' 3
printf '{"name":"a"}\n\n{"name":"b","priority":"high"}\n' | bad_file "bad priority" 'priority' 3
printf '{"name":"a"}\n{"nam":"b"}\n' | bad_file "unknown field" 'unknown field "nam"' 2
printf '{"payload":"x"}\n' | bad_file "no name" 'name' 1
printf '{"name":"a","in":"soon"}\n' | bad_file "bad duration" 'in' 1
printf '{"name":"a","cron":"61 * * * *"}\n' | bad_file "bad cron" 'cron|minute' 1
printf '{"name":"a","max_attempts":0}\n' | bad_file "zero attempts" 'attempts' 1
printf '{"name":"a","timeout":"0"}\n' | bad_file "zero timeout" 'timeout' 1
printf '[1,2]\n' | bad_file "not an object" 'object' 1
# What JSON is not (held against Python's json module by tests/fuzz/jsonl_diff).
printf '{"name":"a","priority":01}\n' | bad_file "a number with a leading zero" 'JSON' 1
printf '{"name":"a","priority":1-2}\n' | bad_file "not a number" 'JSON' 1
printf '{"name":"a","payload":"\xff"}\n' | bad_file "invalid UTF-8" 'UTF-8' 1
printf '{"name":"a"}\n{"name":"b"}\0{"name":"c"}\n' | bad_file "a NUL byte" 'NUL' 2
printf '{"name":"a","x\\ny":1,"x\\ny":2}\n' | bad_file "a key with a newline, twice" 'twice' 1
{
    for i in $(seq 1 150); do printf '{"name":"ok%d"}\n' "$i"; done
    printf '{"name":"%s"}\n' "$(head -c 300 /dev/zero | tr '\0' x)"
} | bad_file "name over 255 bytes at line 151" 'name' 151

begin; run task add --from "$T/nonexistent.jsonl"; want_rc 66; want_err_line; want_err 'nonexistent\.jsonl: No such file'
end "task add --from a missing file: exit 66, one line"
begin; run task add jobname --from "$T/good.jsonl"; want_rc 64; want_err_line
end "task add NAME --from: exit 64 (each line names its task)"
begin; run task add x --priority 1.5; want_rc 64; want_err_line; want_err 'priority'
end "task add --priority 1.5: exit 64, one line"

# Priorities decide the order a worker runs due tasks in.
begin
run task add p_low --queue "$QP" --priority -5 --payload low
run task add p_mid --queue "$QP" --payload mid
run task add p_high --queue "$QP" --priority 10 --payload high
run task add p_mid2 --queue "$QP" --payload mid2
run worker --queue "$QP" --drain --handler "*=cat >> $(sq "$T/order"); echo >> $(sq "$T/order")"
want_rc 0
[[ "$(tr '\n' ' ' <"$T/order")" == "high mid mid2 low " ]] || why+=("order run: $(tr '\n' ' ' <"$T/order")")
end "worker: highest priority first, then due time"

# Clean up: one worker runs the due tasks away (a 'task rm' per task would
# start leasectl 250 times), then the few left (not due) go one by one.
for q in "$Q" "$Q2"; do
    run worker --queue "$q" --drain --handler '*=true'
    run --json task list --queue "$q"
    for id in $(ids "$T/out"); do run task rm "$id"; done
done
finish
