#!/usr/bin/env bash
# tests/cli_timeout.sh BACKEND - `worker --timeout`, `tick --timeout` and
# `task add --timeout` (the task's own limit wins over the worker's
# default): a handler past its limit
# is stopped with its whole process group, and the attempt fails with
# "timed out after DUR" (dead when out of attempts, retried otherwise); a
# handler within the limit is not touched.  Run by ctest as
# `bash tests/cli_timeout.sh <backend>` with LEASECTL=<path to leasectl>.
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup timeout
echo "# --timeout: backend $backend"
Q="to_${RUN_ID}"
MARK="$$${RANDOM}"

begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
run --json task add to_slow --queue "$Q" --max-attempts 1
slow_id=$(json_get "$T/out" id)
run --json task add to_fast --queue "$Q"
fast_id=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --timeout 1s \
    --handler "to_slow=sleep 3$MARK.1 & sleep 3$MARK.2" --handler 'to_fast=sleep 0.2'
want_rc 0
grep -q "task $slow_id \"to_slow\" failed: timed out after 1s" "$T/err" || why+=("no 'timed out after 1s' line: $(excerpt "$T/err")")
grep -q -E 'ran 1, failed 1' "$T/err" || why+=("expected ran 1, failed 1: $(excerpt "$T/err")")
run --json task show "$slow_id"
[[ "$(json_get "$T/out" dead)" == true ]] || why+=("the timed-out task (1 attempt) is not dead")
[[ "$(json_get "$T/out" last_error)" == "timed out after 1s"* ]] || why+=("last_error: $(json_get "$T/out" last_error)")
run task show "$fast_id"
[[ $RC != 0 ]] || why+=("the fast task $fast_id is still there: it did not run")
left=$( (pgrep -f "sleep 3$MARK" || true) | wc -l)
[[ $left == 0 ]] || why+=("$left processes of the timed-out handler still run")
end "worker --timeout 1s: the slow handler's group is stopped, the task dead with 'timed out after 1s'; the fast one ran"

begin
run --json task add to_retry --queue "$Q" --max-attempts 3
retry_id=$(json_get "$T/out" id)
run tick --queue "$Q" --timeout 1s --handler 'to_retry=sleep 30'
want_rc 0
run --json task show "$retry_id"
[[ "$(json_get "$T/out" dead)" == false && "$(json_get "$T/out" attempts)" == 1 ]] ||
    why+=("after one timed-out attempt of 3: dead=$(json_get "$T/out" dead) attempts=$(json_get "$T/out" attempts)")
run task rm "$retry_id"
end "tick --timeout 1s: a timed-out attempt of 3 is counted and the task waits for its retry"

begin
run --json task add to_own --queue "$Q" --max-attempts 1 --timeout 1s
own_id=$(json_get "$T/out" id)
run --json task add to_long --queue "$Q" --timeout 10s
long_id=$(json_get "$T/out" id)
run --json task show "$own_id"
[[ "$(json_get "$T/out" timeout_ms)" == 1000 ]] || why+=("task show: timeout_ms $(json_get "$T/out" timeout_ms), expected 1000")
# The worker's default (30s) would let to_own sleep on, and its 1s would
# stop to_long: each task's own timeout wins.
run worker --queue "$Q" --drain --timeout 30s \
    --handler "to_own=sleep 4$MARK.1 & sleep 4$MARK.2" --handler 'to_long=sleep 1.5'
want_rc 0
grep -q "task $own_id \"to_own\" failed: timed out after 1s" "$T/err" || why+=("no 'timed out after 1s' line: $(excerpt "$T/err")")
grep -q -E 'ran 1, failed 1' "$T/err" || why+=("expected ran 1, failed 1: $(excerpt "$T/err")")
run --json task show "$own_id"
[[ "$(json_get "$T/out" last_error)" == "timed out after 1s"* ]] || why+=("last_error: $(json_get "$T/out" last_error)")
run task show "$long_id"
[[ $RC != 0 ]] || why+=("to_long ($long_id, 1.5s under its own 10s) did not finish")
left=$( (pgrep -f "sleep 4$MARK" || true) | wc -l)
[[ $left == 0 ]] || why+=("$left processes of the timed-out handler still run")
end "task add --timeout: the task's own limit wins over the worker's --timeout (both ways)"

begin
run --json task add to_own2 --queue "$Q" --max-attempts 1 --timeout 1s
own2_id=$(json_get "$T/out" id)
run tick --queue "$Q" --handler 'to_own2=sleep 30'
want_rc 0
run --json task show "$own2_id"
[[ "$(json_get "$T/out" dead)" == true && "$(json_get "$T/out" last_error)" == "timed out after 1s"* ]] ||
    why+=("tick without --timeout: dead=$(json_get "$T/out" dead) last_error=$(json_get "$T/out" last_error)")
end "tick: a task's own --timeout applies without a worker default"

begin; run task add x --queue "$Q" --timeout 0; want_rc 64; want_err_line; want_err 'timeout'
end "task add --timeout 0: exit 64, one line"

begin; run worker --queue "$Q" --drain --timeout 0 --handler 'x=true'; want_rc 64; want_err_line; want_err 'timeout'
end "worker --timeout 0: exit 64, one line"

run task list --queue "$Q" --dead
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
