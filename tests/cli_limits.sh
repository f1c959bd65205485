#!/usr/bin/env bash
# tests/cli_limits.sh BACKEND - `leasectl limit set|list|rm` and
# `task add --concurrency-key`: limits set, replaced, listed (text and
# --json) and removed; bad input (exit 64, one line naming the key and the
# reason, nothing changed); the key in task show and --from; a worker with
# four slots that runs a capped key's tasks one at a time.  Run by ctest as
# `bash tests/cli_limits.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every key and queue is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup limits
Q="lim_${RUN_ID}"
K="key_${RUN_ID}"
echo "# leasectl limit: backend $backend, queue $Q, key $K"

begin; run migrate; want_rc 0; end "migrate: exit 0"

limit_of() { # FILE KEY FIELD: FIELD of the limit KEY in a limit list --json
    py -c 'import json,sys
for l in json.load(open(sys.argv[1])):
    if l["key"] == sys.argv[2]:
        v = l[sys.argv[3]]
        print("null" if v is None else v)' "$1" "$2" "$3"
}

begin
run limit set "$K" --concurrency 2
want_rc 0; want_out "limit \"$K\" set"
run --json limit set "queue:$Q" --rate 5/1m
want_rc 0
[[ "$(json_get "$T/out" key)" == "queue:$Q" && "$(json_get "$T/out" rate_n)" == 5 &&
    "$(json_get "$T/out" rate_period_ms)" == 60000 ]] || why+=("set --json: $(excerpt "$T/out")")
run --json limit list
want_rc 0
[[ "$(limit_of "$T/out" "$K" concurrency)" == 2 && "$(limit_of "$T/out" "$K" running)" == 0 &&
    "$(limit_of "$T/out" "$K" rate_n)" == null ]] || why+=("list --json, $K: $(excerpt "$T/out")")
[[ "$(limit_of "$T/out" "queue:$Q" tokens)" == 5 && "$(limit_of "$T/out" "queue:$Q" concurrency)" == null ]] ||
    why+=("list --json, queue:$Q: $(excerpt "$T/out")")
run limit list
grep -q "^$K  *2  *0  *-  *-" "$T/out" || why+=("list, text: no line for $K")
grep -q "^queue:$Q  *-  *0  *5/1m  *5" "$T/out" || why+=("list, text: no line for queue:$Q")
end "limit set / list: a cap and a queue's rate, text and --json"

begin
run limit set "$K" --concurrency 1 --rate 10/1s
want_rc 0
run --json limit list
[[ "$(limit_of "$T/out" "$K" concurrency)" == 1 && "$(limit_of "$T/out" "$K" rate_n)" == 10 ]] ||
    why+=("the second set did not replace the first: $(excerpt "$T/out")")
end "limit set replaces a key's limit"

# Bad input: exit 64, one line that names the key and the reason, nothing changed.
bad() { # WHAT-ERE ARGS...
    local ere=$1
    shift
    begin
    run "$@"
    want_rc 64; want_err_line; want_err "$ere"
    run --json limit list
    [[ "$(limit_of "$T/out" "$K" concurrency)" == 1 && "$(limit_of "$T/out" "$K" rate_n)" == 10 ]] ||
        why+=("the limit changed: $(excerpt "$T/out")")
    end "bad input: leasectl $* -> 64"
}
bad "$K.*concurrency.*rate" limit set "$K"
bad "concurrency" limit set "$K" --concurrency 0
bad "concurrency" limit set "$K" --concurrency 2x
bad "$K.*N/DUR" limit set "$K" --rate 5
bad "rate" limit set "$K" --rate x/1s
bad "rate" limit set "$K" --rate 5/0s
bad "rate" limit set "$K" --rate 0/1s
bad "limit key" limit set "" --concurrency 1
bad "queue" limit set "queue:" --concurrency 1
bad "concurrency.key.*reserved" task add t --queue "$Q" --concurrency-key "queue:$Q"

begin
run --json task add t --queue "$Q" --concurrency-key "$K"
want_rc 0
ID=$(json_get "$T/out" id)
run --json task show "$ID"
[[ "$(json_get "$T/out" concurrency_key)" == "$K" ]] || why+=("task show --json: no concurrency_key $K")
run task show "$ID"
want_out "concurrency_key: $K"
printf '{"name": "t", "concurrency_key": "%s"}\n{"name": "u"}\n' "$K" >"$T/lines.jsonl"
run --json task add --from "$T/lines.jsonl" --queue "$Q"
want_rc 0
run --json task list --queue "$Q"
[[ "$(json_all "$T/out" concurrency_key | grep -c -x -F -- "$K")" == 2 && "$(json_all "$T/out" id | wc -l)" == 3 ]] ||
    why+=("task list --json: keys '$(json_all "$T/out" concurrency_key | tr '\n' ' ')'")
end "task add --concurrency-key (and --from's concurrency_key): shown by task show and task list --json"

# A worker with four slots runs a key capped at 1 one task at a time; the
# task without a key is not held back.  The handler takes a directory as a
# mutex and notes any overlap.
begin
run limit rm "queue:$Q"
run task add t --queue "$Q" --concurrency-key "$K"
run worker --queue "$Q" -j 4 --drain \
    --handler "t=mkdir '$T/running' 2>/dev/null || echo overlap >>'$T/overlap'; sleep 0.3; rmdir '$T/running'; echo >>'$T/ran'" \
    --handler "u=echo >>'$T/ran_u'"
want_rc 0
[[ ! -e "$T/overlap" ]] || why+=("two tasks of a key capped at 1 ran at once")
[[ "$(lines_of "$T/ran")" == 3 && "$(lines_of "$T/ran_u")" == 1 ]] ||
    why+=("ran $(lines_of "$T/ran") capped and $(lines_of "$T/ran_u") free tasks, expected 3 and 1")
run --json task list --queue "$Q"
[[ "$(json_all "$T/out" id | wc -l)" == 0 ]] || why+=("tasks left: $(excerpt "$T/out")")
end "worker -j 4: a key capped at 1 runs one task at a time, all of them, and the rest beside it"

begin
run --json limit rm "$K"
want_rc 0
[[ "$(json_get "$T/out" removed)" == true ]] || why+=("rm --json: $(excerpt "$T/out")")
run limit rm "$K"
want_rc 1; want_err_line; want_err "$K.*no such limit"
run --json limit list
[[ -z "$(limit_of "$T/out" "$K" key)" ]] || why+=("$K still listed")
end "limit rm: removed, then 'no such limit' (exit 1)"

begin
run limit --help
want_rc 0; want_out "set"; want_out "list"; want_out "rm"
run limit set --help
want_rc 0; want_out "--concurrency"; want_out "--rate"
end "limit --help and limit set --help"

finish
