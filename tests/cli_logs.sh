#!/usr/bin/env bash
# tests/cli_logs.sh BACKEND - `--log-format json` on worker, tick and exec:
# every line on standard error is one JSON object
# with time, level and event, and the events carry the task or lease, the
# attempt, the duration and the error.  Run by ctest as
# `bash tests/cli_logs.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every name is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup logs
echo "# --log-format json: backend $backend"
Q="logs_${RUN_ID}"

# Every line of FILE is a JSON object with string time, level and event.
# Prints the events, one per line, as "event key=value ...".
events() { # FILE
    if [[ $have_py == 1 ]]; then
        py - "$1" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1]), 1):
    try:
        o = json.loads(line)
    except ValueError:
        print("BAD line %d: %s" % (n, line.strip()))
        continue
    if not all(isinstance(o.get(k), str) for k in ("time", "level", "event")):
        print("BAD line %d lacks time/level/event: %s" % (n, line.strip()))
        continue
    print(" ".join([o["event"]] + ["%s=%s" % (k, v) for k, v in o.items() if k not in ("time", "event")]))
PY
    else
        # Without python: the shape of each line, and "key": value turned
        # into key=value (good enough for the greps below).
        while IFS= read -r line; do
            if [[ "$line" =~ ^\{\"time\":\ \"[^\"]+\",\ \"level\":\ \"([a-z]+)\",\ \"event\":\ \"([a-z_]+)\"(.*)\}$ ]]; then
                rest=$(sed -E 's/"([a-z_]+)": /\1=/g; s/"//g; s/, / /g' <<<"${BASH_REMATCH[3]#, }")
                echo "${BASH_REMATCH[2]} level=${BASH_REMATCH[1]} $rest "
            else
                echo "BAD $line"
            fi
        done <"$1"
    fi
}

begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
run --json task add log_ok --queue "$Q"
ok_id=$(json_get "$T/out" id)
run --json task add log_bad --queue "$Q" --max-attempts 1
bad_id=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --log-format json --handler 'log_ok=true' --handler 'log_bad=echo oops >&2; exit 3'
want_rc 0
events "$T/err" >"$T/ev"
grep -q '^BAD' "$T/ev" && why+=("not JSON: $(grep -m1 '^BAD' "$T/ev")")
grep -q -E "^task_done .*level=info.*task_id=$ok_id .*name=log_ok .*attempt=1 .*duration_ms=[0-9]+" "$T/ev" ||
    why+=("no task_done event for task $ok_id: $(excerpt "$T/ev")")
grep -q -E "^task_failed .*level=error.*task_id=$bad_id .*attempt=1 .*duration_ms=[0-9]+ .*error=handler exited with status 3" "$T/ev" ||
    why+=("no task_failed event for task $bad_id: $(excerpt "$T/ev")")
grep -q -E "^worker_stopped .*ran=1 .*failed=1 " "$T/ev" || why+=("no worker_stopped event with ran 1, failed 1: $(excerpt "$T/ev")")
grep -q -E "^handler_output .*task_id=$bad_id .*message=oops" "$T/ev" ||
    why+=("the handler's standard error is not a handler_output event: $(excerpt "$T/ev")")
[[ $(wc -l <"$T/ev") == 4 ]] || why+=("expected 4 events, got: $(excerpt "$T/ev")")
LAST_CMD="leasectl worker --drain --log-format json"
end "worker --log-format json: task_done, handler_output, task_failed (with the error), worker_stopped; every line JSON"

begin
run task add log_ok --queue "$Q"
run tick --queue "$Q" --log-format json --handler 'log_ok=true'
want_rc 0
events "$T/err" >"$T/ev"
grep -q '^BAD' "$T/ev" && why+=("not JSON: $(grep -m1 '^BAD' "$T/ev")")
grep -q '^task_done ' "$T/ev" || why+=("no task_done: $(excerpt "$T/ev")")
grep -q -E '^tick_done .*ran=1 ' "$T/ev" || why+=("no tick_done with ran 1: $(excerpt "$T/ev")")
end "tick --log-format json: task_done and tick_done"

begin
L="log_lease_${RUN_ID}"
run exec --log-format json "$L" -- sh -c 'exit 4'
want_rc 4
events "$T/err" >"$T/ev"
grep -q '^BAD' "$T/ev" && why+=("not JSON: $(grep -m1 '^BAD' "$T/ev")")
grep -q -E "^lease_acquired .*lease=$L .*token=[0-9]+" "$T/ev" || why+=("no lease_acquired: $(excerpt "$T/ev")")
grep -q -E "^command_exited .*level=error.*exit_status=4" "$T/ev" || why+=("no command_exited with status 4: $(excerpt "$T/ev")")
end "exec --log-format json: lease_acquired, command_exited with the status"

begin
run worker --queue "$Q" --drain --log-format json --handler nonsense
want_rc 64
events "$T/err" >"$T/ev"
grep -q -E '^error level=error message=.*handler' "$T/ev" || why+=("the usage error is not a JSON error event: $(excerpt "$T/err")")
end "worker --log-format json with a bad --handler: exit 64, the error as a JSON event"

begin; run worker --log-format yaml; want_rc 64; want_err_line; want_err 'log-format'
end "--log-format yaml: exit 64, one line"

run task list --queue "$Q" --dead
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
