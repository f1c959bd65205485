#!/usr/bin/env bash
# tests/cli_progress.sh BACKEND - a worker's handler talks back through its
# control channel: progress on fd 3 (seen by `task show` from another
# process while the handler runs), `snooze` on fd 3 (due later, the attempt
# not counted, no run in the history), a result on fd 4 (`task result`,
# raw and --json, after the task row is gone; over 64 KiB is a failed run),
# bad control lines logged and ignored, and bad input.  Run by ctest as
# `bash tests/cli_progress.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every queue name is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup progress
Q="prog_${RUN_ID}"
echo "# leasectl handler control channel: backend $backend, queue $Q"

begin; run migrate; want_rc 0; end "migrate: exit 0"

# The handler reports, then waits (bounded) until the test has seen it.
cat >"$T/export.sh" <<'SH'
echo "progress 40 exporting rows" >&3
i=0
while [ ! -e "$GO" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
printf 'id,total\n7,42\n' >&4
SH

begin
run --json task add export --queue "$Q"
ID=$(json_get "$T/out" id)
GO="$T/go" bg w worker --queue "$Q" --drain --at-least-once --handler "export=GO=$(sq "$T/go") sh $(sq "$T/export.sh")"
seen=0
for _ in $(seq 1 200); do
    run --json task show "$ID"
    if [[ "$(json_get "$T/out" progress)" == 40 ]]; then seen=1; break; fi
    sleep 0.1
done
want "$seen" "task show --json never showed progress 40 while the handler ran: $(excerpt "$T/out")"
[[ "$(json_get "$T/out" progress_msg)" == "exporting rows" ]] || why+=("progress_msg: $(excerpt "$T/out")")
is_int "$(json_get "$T/out" progress_at)" || why+=("progress_at is not a time: $(excerpt "$T/out")")
run task show "$ID"
want_rc 0; want_out "^progress: +40% exporting rows, reported "
end "progress written to fd 3 is in task show (text and --json) from another process while the handler runs"

# The dashboard's running tasks, while the handler still waits.
if "$LEASECTL" version | grep -q serve && command -v curl >/dev/null 2>&1; then
    begin
    start_serve "$DSN" || why+=("serve did not start: $(excerpt "$T/serve.err")")
    curl -s -o "$T/body" --max-time 30 "http://127.0.0.1:$PORT/" || true
    grep -q -F "<td class=n>$ID</td><td>$Q</td><td>export</td><td class=n>40%</td><td>exporting rows</td>" "$T/body" ||
        why+=("no running row with its progress: $(grep -o '<table id=running>.\{0,300\}' "$T/body" | head -1)")
    stop_serve; wait "$spid" 2>/dev/null || true; spid=""
    end "the dashboard lists the running task with its progress"
fi

begin
touch "$T/go"
bg_wait w
want_rc 0
end "the handler ends once the test saw its progress"

begin
run task result "$ID"
want_rc 0
[[ "$(cat "$T/out")" == $'id,total\n7,42' ]] || why+=("task result: $(excerpt "$T/out")")
run --json task result "$ID"
want_rc 0
[[ "$(json_get "$T/out" result_len)" == 14 && "$(json_get "$T/out" task_id)" == "$ID" ]] || why+=("--json: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" result)" == *"7,42"* ]] || why+=("--json result: $(excerpt "$T/out")")
run task show "$ID"
want_rc 1 # the task row is gone; the result stays with its run
run --json task history "$ID"
[[ "$(json_all "$T/out" outcome | tr '\n' ' ')" == "done " ]] || why+=("history: $(excerpt "$T/out")")
end "the result written to fd 4 is read back with task result ID, raw and --json, after the task is gone"

begin
printf '\377\000\001' >"$T/bin"
run --json task add bin --queue "$Q"
BIN=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --handler "bin=cat $(sq "$T/bin") >&4"
want_rc 0
run task result "$BIN"
cmp -s "$T/out" "$T/bin" || why+=("raw result differs: $(od -c "$T/out" | head -2)")
run --json task result "$BIN"
[[ "$(json_get "$T/out" result_base64)" == "/wAB" ]] || why+=("--json of a binary result: $(excerpt "$T/out")")
end "an at-most-once worker stores a binary result; --json gives it as result_base64"

begin
for mode in --at-least-once ""; do
    run --json task add snoozy --queue "$Q" --max-attempts 1
    S=$(json_get "$T/out" id)
    # shellcheck disable=SC2086 # mode: no word or one
    run worker --queue "$Q" --drain $mode --handler 'snoozy=echo "snooze 1h" >&3'
    want_rc 0
    run --json task show "$S"
    want_rc 0
    [[ "$(json_get "$T/out" attempts)" == 0 ]] || why+=("${mode:-at-most-once}: attempts counted: $(excerpt "$T/out")")
    run_at=$(json_get "$T/out" run_at) created=$(json_get "$T/out" created_at)
    want "$((run_at - created > 3000 * 1000))" "${mode:-at-most-once}: not put off by about an hour: run_at $run_at, created_at $created"
    run --json task history "$S"
    [[ -z "$(json_all "$T/out" id)" ]] || why+=("${mode:-at-most-once}: a snooze left a run: $(excerpt "$T/out")")
done
end "snooze on fd 3 puts the task off, the attempt not counted and no run recorded (both modes)"

begin
cat >"$T/chatty.sh" <<'SH'
echo "progress 140" >&3
echo "rm -rf /" >&3
head -c 600 /dev/zero | tr '\0' x >&3; echo >&3
echo "progress 50 fine" >&3
SH
run --json task add chatty --queue "$Q"
C=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --at-least-once --handler "chatty=sh $(sq "$T/chatty.sh")"
want_rc 0
[[ $(grep -c "task $C: control line ignored" "$T/err") == 3 ]] || why+=("expected 3 lines ignored: $(excerpt "$T/err")")
run --json task history "$C"
[[ "$(json_get "$T/out" outcome)" == done ]] || why+=("the run did not end done: $(excerpt "$T/out")")
end "bad control lines (a bad percent, an unknown command, an overlong line) are logged and ignored"

begin
run --json task add once --queue "$Q"
O=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --handler 'once=echo "progress 10" >&3; echo "progress 20" >&3'
want_rc 0
[[ $(grep -c "progress needs an at-least-once claim" "$T/err") == 1 ]] || why+=("expected one line: $(excerpt "$T/err")")
end "progress from an at-most-once worker: said once that it needs an at-least-once claim"

begin
run --json task add big --queue "$Q" --max-attempts 1
B=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --at-least-once --handler 'big=head -c 70000 /dev/zero >&4'
want_rc 0
run --json task show "$B"
[[ "$(json_get "$T/out" last_error)" == *"over 65536 bytes"* ]] || why+=("no error about the size: $(excerpt "$T/out")")
run task result "$B"
want_rc 1; want_err "task $B: no result"
end "a result over 64 KiB fails the run, and nothing is stored"

begin
run task result nope
want_rc 64; want_err_line
run task result 0
want_rc 64
run task result 999999999
want_rc 1; want_err_line; want_err "no result"
end "task result: a bad id is 64, an unknown one 1, each with one line"

finish
