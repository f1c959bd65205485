#!/usr/bin/env bash
# tests/cli_cancel.sh BACKEND - `leasectl task cancel ID`: a waiting task
# never runs; a task an at-least-once worker is running has its claim
# revoked: the worker stops the handler's whole process group (a
# grandchild included) at its next heartbeat, nothing is acknowledged,
# and the history says "cancelled" once; so does a task that a default
# (at-most-once) worker is running; a finished or unknown id is "not
# found" (exit 1, as `task rm`); bad input exits 64.  `stats` counts the
# cancelled runs.  While the default worker runs a task, `task show` and
# `task list` show it running although its row is gone.  Run by ctest as
# `bash tests/cli_cancel.sh <backend>` with LEASECTL=<path to leasectl>.
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup cancel
echo "# task cancel: backend $backend"
Q="cx_${RUN_ID}"
MARK="$$${RANDOM}"

begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
run task cancel --help
want_rc 0
want_out "task cancel ID"
want_out "revoke"
run task cancel
want_rc 64
run task cancel abc
want_rc 64
want_err_line
run task cancel 0
want_rc 64
end "task cancel: --help exits 0; a missing, non-numeric or zero id exits 64 with one line"

begin
run --json task add cx_wait --queue "$Q"
wait_id=$(json_get "$T/out" id)
run --json task cancel "$wait_id" --reason "not needed"
want_rc 0
json_ok "$T/out" || why+=("not one JSON document: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" id)" == "$wait_id" ]] || why+=("JSON id: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" cancelled)" == true ]] || why+=("JSON cancelled: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" running)" == false ]] || why+=("JSON running: $(excerpt "$T/out")")
run task show "$wait_id"
want_rc 1
run worker --queue "$Q" --drain --at-least-once --handler "cx_wait=touch $T/ran_wait"
want_rc 0
[[ ! -e "$T/ran_wait" ]] || why+=("the cancelled task ran")
run --json task history "$wait_id"
[[ "$(json_get "$T/out" outcome)" == cancelled ]] || why+=("history: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" error)" == "not needed" ]] || why+=("history error: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" attempt)" == 0 ]] || why+=("history attempt: $(excerpt "$T/out")")
end "task cancel of a waiting task: exit 0, JSON {id, cancelled, running: false}; it never runs; history says cancelled"

begin
run task cancel "$wait_id"
want_rc 1
want_err "task $wait_id: not found"
want_err_line
run task cancel 987654321
want_rc 1
want_err "task 987654321: not found"
end "task cancel of a cancelled or unknown id: exit 1 'task N: not found' (as task rm)"

begin
run --json task add cx_run --queue "$Q"
run_id=$(json_get "$T/out" id)
# The handler leaves a grandchild (a background sleep) in its group, and
# would say "finished" if it were not stopped.
# A 3 s claim survives a heartbeat late on a loaded machine, and its
# heartbeat (every second) still hears the cancel soon.
bg w worker --queue "$Q" --drain --at-least-once --claim-ttl 3s \
    --handler "cx_run=echo \$\$ > $T/pid; sleep 3$MARK.1 & sleep 3$MARK.2; touch $T/finished"
wait_for_file "$T/pid" 20 || why+=("the handler did not start")
run --json task cancel "$run_id"
want_rc 0
[[ "$(json_get "$T/out" running)" == true ]] || why+=("JSON running: $(excerpt "$T/out")")
bg_wait w
want_rc 0
grep -q "task $run_id \"cx_run\" cancelled" "$T/err" || why+=("the worker did not say the task was cancelled: $(excerpt "$T/err")")
left=$( (pgrep -f "sleep 3$MARK" || true) | wc -l)
[[ $left == 0 ]] || why+=("$left processes of the cancelled handler still run")
[[ ! -e "$T/finished" ]] || why+=("the handler ran to its end")
run --json task history "$run_id"
n_runs=$(py -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/out" 2>/dev/null || echo "?")
[[ $n_runs == 1 ]] || why+=("expected exactly one run: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" outcome)" == cancelled ]] || why+=("history: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" attempt)" == 1 ]] || why+=("history attempt: $(excerpt "$T/out")")
run task show "$run_id"
want_rc 1
end "task cancel of a running task: the worker stops the handler's group at its next heartbeat; one 'cancelled' run; gone"

begin
run --json task add cx_amo --queue "$Q"
amo_id=$(json_get "$T/out" id)
rm -f "$T/pid" "$T/finished"
# The default worker (at-most-once): the claim deleted the task, but the
# run stays cancellable; its heartbeat (every 10 s) hears the cancel.
bg w worker --queue "$Q" --drain \
    --handler "cx_amo=echo \$\$ > $T/pid; sleep 3$MARK.3 & sleep 3$MARK.4; touch $T/finished"
wait_for_file "$T/pid" 20 || why+=("the handler did not start")
# Its row is gone, but show and list find the run.
run task show "$amo_id"
want_rc 0
want_out "^id: +$amo_id\$"
want_out "^state: +running at most once since .* on [^ ]+"
want_out "^attempt: +1\$"
run task show "$amo_id" --raw
want_rc 1
want_err "task $amo_id: running at most once"
want_err_line
run --json task show "$amo_id"
want_rc 0
json_ok "$T/out" || why+=("show: not one JSON document: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" id)" == "$amo_id" && "$(json_get "$T/out" state)" == running &&
    "$(json_get "$T/out" mode)" == at-most-once && "$(json_get "$T/out" name)" == cx_amo ]] ||
    why+=("show JSON: $(excerpt "$T/out")")
run task list --queue "$Q"
want_rc 0
grep -q -E "^$amo_id +$Q +cx_amo .* running " "$T/out" || why+=("task list: no running row: $(excerpt "$T/out")")
run --json task list --queue "$Q"
want_rc 0
py -c 'import json,sys; sys.exit(not any(o["id"] == int(sys.argv[2]) and o["state"] == "running"
    and o["mode"] == "at-most-once" for o in json.load(open(sys.argv[1]))))' "$T/out" "$amo_id" ||
    why+=("task list JSON: $(excerpt "$T/out")")
run task list --queue "other_$Q"
grep -q -E "^$amo_id " "$T/out" && why+=("task list --queue lists another queue's run")
run --json task cancel "$amo_id" --reason "stop it"
want_rc 0
[[ "$(json_get "$T/out" cancelled)" == true ]] || why+=("JSON cancelled: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" running)" == true ]] || why+=("JSON running: $(excerpt "$T/out")")
bg_wait w
want_rc 0
grep -q "task $amo_id \"cx_amo\" cancelled" "$T/err" || why+=("the worker did not say the task was cancelled: $(excerpt "$T/err")")
left=$( (pgrep -f "sleep 3$MARK" || true) | wc -l)
[[ $left == 0 ]] || why+=("$left processes of the cancelled handler still run")
[[ ! -e "$T/finished" ]] || why+=("the handler ran to its end")
run --json task history "$amo_id"
n_runs=$(py -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/out" 2>/dev/null || echo "?")
[[ $n_runs == 1 ]] || why+=("expected exactly one run: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" outcome)" == cancelled ]] || why+=("history: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" error)" == "stop it" ]] || why+=("history error: $(excerpt "$T/out")")
[[ "$(json_get "$T/out" attempt)" == 1 ]] || why+=("history attempt: $(excerpt "$T/out")")
run task cancel "$amo_id"
want_rc 1
want_err "task $amo_id: not found"
run task show "$amo_id"
want_rc 1
want_err "task $amo_id: not found"
end "a task a default (at-most-once) worker runs: task show and list show it running; task cancel: running true; the group is stopped; one 'cancelled' run"

begin
run --json stats
want_rc 0
# (A server's database is shared with other runs: at least ours.)
[[ "$(json_get "$T/out" cancelled)" -ge 3 ]] || why+=("stats runs_last_hour.cancelled: $(excerpt "$T/out")")
run stats --format prometheus
grep -q "^leaseq_tasks_cancelled_total{queue=\"$Q\",name=\"cx_run\"} 1" "$T/out" ||
    why+=("no leaseq_tasks_cancelled_total for cx_run: $(grep cancelled "$T/out" | head -3)")
grep -q "^leaseq_tasks_cancelled_total{queue=\"$Q\",name=\"cx_wait\"} 1" "$T/out" ||
    why+=("no leaseq_tasks_cancelled_total for cx_wait")
end "stats: runs_last_hour.cancelled and leaseq_tasks_cancelled_total count the cancelled runs"

finish
