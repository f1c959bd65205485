#!/usr/bin/env bash
# tests/cli_worker.sh BACKEND - acceptance test of `leasectl worker` (and the
# queue edge cases of `tick`): graceful stop on SIGTERM, -j N, at-least-once
# heartbeats, recurring tasks on time in an idle worker, tasks without a
# handler, unknown queues, bad handler specs.  Run by ctest as
# `bash tests/cli_worker.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is
# set.  Server databases are shared: nothing is dropped; every queue name is
# unique to this run and emptied at the end.
#
# Output: one "ok - ..." / "not ok - ..." line per check; exit 1 if any failed.
#
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup worker

P="wk${RUN_ID}_" # every queue of this run starts with it
queues=()

echo "# leasectl worker test: backend $backend, prefix $P"

# ------------------------------------------------------------------ helpers
newq() { # NAME: q = a queue name of this run
    q="$P$1"
    queues+=("$q")
}
add_task() { # QUEUE NAME [ARGS...] -> id in $ID
    run --json task add "$2" --queue "$1" "${@:3}"
    ID=$(json_get "$T/out" id)
    [[ $RC == 0 && "$ID" =~ ^[0-9]+$ ]] || why+=("task add $2 --queue $1 ${*:3} exited $RC")
}

# A worker in the background: the pid is leasectl's own, for signals.
declare -A wpid=()
start_worker() { # NAME ARGS...
    local name=$1
    shift
    "$LEASECTL" --db "$DSN" "$@" </dev/null >"$T/$name.out" 2>"$T/$name.err" &
    wpid[$name]=$!
    bg_pids+=("$!")
}
# wait_worker NAME SECONDS: RC = its exit status, or "timeout" (then killed).
wait_worker() {
    local name=$1
    wait_or_kill "${wpid[$name]}" "$2"
    cp "$T/$name.out" "$T/out"
    cp "$T/$name.err" "$T/err"
    LAST_CMD="(background worker $name)"
}
# no_claim QUEUE: no live task of QUEUE is claimed.
no_claim() {
    run --json task list --queue "$1"
    if grep -q -E '"claim_owner": *"' "$T/out"; then
        why+=("a task of $1 is still claimed")
    fi
}

begin; run migrate; want_rc 0
end "migrate: exit 0"

# ================================================================== 1. graceful stop
ta=0
tb=0
for mode in at-most-once at-least-once; do
    begin
    newq "stop_$mode"
    tally="$T/stop_$mode.tally"
    flags=()
    [[ $mode == at-least-once ]] && flags=(--at-least-once --claim-ttl 2s)
    add_task "$q" slow
    sid=$ID
    start_worker "stop_$mode" worker --queue "$q" "${flags[@]}" \
        --handler "slow=echo \"start \$LEASEQ_TASK_ID\" >> $(sq "$tally"); sleep 3; echo \"end \$LEASEQ_TASK_ID\" >> $(sq "$tally")"
    if wait_for_line "$tally" '^start ' 20; then
        ta=$(ms_now)
        kill -TERM "${wpid[stop_$mode]}"
        wait_worker "stop_$mode" 20
        tb=$(ms_now)
        want_rc 0
        grep -q -x "end $sid" "$tally" || why+=("the running handler did not finish: $(excerpt "$tally")")
        grep -q -E '^worker: ran 1, failed 0, stopped: ' "$T/err" || why+=("no 'worker: ran 1, failed 0' report")
    else
        why+=("the handler did not start")
    fi
    no_claim "$q"
    run --json task list --queue "$q"
    [[ -z "$(ids "$T/out")" ]] || why+=("task $sid is still queued after it finished")
    # Nothing runs twice.
    run worker --queue "$q" --drain "${flags[@]}" --handler "slow=echo \"again \$LEASEQ_TASK_ID\" >> $(sq "$tally")"
    [[ $RC == 0 ]] || why+=("a worker --drain afterwards exited $RC")
    c=$(grep -c -E '^(start|again) ' "$tally" || true)
    want "$([[ $c == 1 ]] && echo 1)" "the task ran $c times"
    end "$mode worker, SIGTERM while a handler runs (sleep 3): the handler finishes, exit 0 in $((tb - ta)) ms, no claim left, not run twice"
done

# A second SIGTERM does not wait for the handler.  A handler that started and
# was stopped by the shutdown is a FAILED attempt: counted, backed off, and
# dead when out of attempts; never handed back as unrun (were it re-queued
# with attempts unchanged, a redeploy would re-run it uncounted, forever for
# a handler that always outlives the grace period).
for mode in at-most-once at-least-once; do
    for max in 3 1; do
        begin
        newq "stop2_${mode}_$max"
        tally="$T/stop2_${mode}_$max.tally"
        flags=()
        [[ $mode == at-least-once ]] && flags=(--at-least-once --claim-ttl 2s)
        run --json task add stuck --queue "$q" --max-attempts "$max"
        sid=$(json_get "$T/out" id)
        start_worker "stop2_${mode}_$max" worker --queue "$q" "${flags[@]}" \
            --handler "stuck=echo \"start \$LEASEQ_TASK_ATTEMPT\" >> $(sq "$tally"); sleep 30; echo end >> $(sq "$tally")"
        if wait_for_line "$tally" '^start ' 60; then
            ta=$(ms_now)
            kill -TERM "${wpid[stop2_${mode}_$max]}"
            sleep 0.3
            kill -TERM "${wpid[stop2_${mode}_$max]}" 2>/dev/null || true
            wait_worker "stop2_${mode}_$max" 60
            tb=$(ms_now)
            want_rc 0
            ! grep -q '^end' "$tally" || why+=("the handler was not stopped")
            grep -q -E '^worker: ran 0, failed 1, stopped: ' "$T/err" || why+=("no 'worker: ran 0, failed 1' report: $(excerpt "$T/err")")
        else
            why+=("the handler did not start")
        fi
        no_claim "$q"
        run --json task show "$sid"
        [[ $RC == 0 ]] || why+=("the task is gone (task show exited $RC)")
        [[ "$(json_get "$T/out" attempts)" == 1 ]] || why+=("attempts is '$(json_get "$T/out" attempts)', not 1: the interrupted run was not counted")
        grep -q 'interrupted by shutdown' "$T/out" || why+=("last_error does not say 'interrupted by shutdown': $(excerpt "$T/out")")
        if [[ $max == 1 ]]; then
            [[ "$(json_get "$T/out" dead)" == true ]] || why+=("out of attempts, yet not dead")
            what="dead, out of attempts"
        else
            [[ "$(json_get "$T/out" dead)" == false ]] || why+=("dead after 1 of 3 attempts")
            # Its retry (after the back-off) is attempt 2.
            deadline=$((SECONDS + 120))
            while ! grep -q '^again ' "$tally" && [[ $SECONDS -lt $deadline ]]; do
                run worker --queue "$q" --drain "${flags[@]}" --handler "stuck=echo \"again \$LEASEQ_TASK_ATTEMPT\" >> $(sq "$tally")"
                sleep 0.2
            done
            grep -q -x 'again 2' "$tally" || why+=("the retry was not attempt 2: $(excerpt "$tally")")
            what="retried as attempt 2"
        fi
        end "$mode worker, --max-attempts $max, SIGTERM twice while the handler runs: stopped ($((tb - ta)) ms), exit 0, a failed attempt 'interrupted by shutdown', $what"
    done
done

# ================================================================== 2. -j 3
begin
newq j3
tally="$T/j3.tally"
for i in $(seq 1 60); do
    add_task "$q" par --payload "p$i"
done
run worker --queue "$q" -j 3 --drain --handler "par=echo \"\$LEASEQ_TASK_ID \$PPID\" >> $(sq "$tally"); sleep 0.1"
want_rc 0
total=$(lines_of "$tally")
distinct=$(awk '{print $1}' "$tally" | sort -u | wc -l)
procs=$(awk '{print $2}' "$tally" | sort -u | wc -l)
want "$([[ $total == 60 && $distinct == 60 ]] && echo 1)" "$total runs of $distinct distinct tasks, expected 60 of 60"
want "$([[ $procs -ge 2 ]] && echo 1)" "only $procs worker process ran tasks"
grep -q -E '^worker: ran 60, failed 0, stopped: idle' "$T/err" || why+=("the summed report is not 'ran 60, failed 0, stopped: idle'")
run --json task list --queue "$q"
[[ -z "$(ids "$T/out")" ]] || why+=("tasks remain")
end "worker -j 3 --drain with 60 tasks: each runs exactly once ($procs processes ran tasks)"

# ================================================================== 3. heartbeats
begin
newq hb
tally="$T/hb.tally"
add_task "$q" long
hid=$ID
hcmd="long=echo \"start \$LEASEQ_TASK_ID \$\$\" >> $(sq "$tally"); sleep 5; echo \"end \$LEASEQ_TASK_ID\" >> $(sq "$tally")"
start_worker hbA worker --queue "$q" --at-least-once --claim-ttl 2s --handler "$hcmd"
if wait_for_line "$tally" '^start ' 20; then
    ta=$(ms_now)
    # Past the 2 s TTL of the first claim: only heartbeats keep it.
    sleep 2.5
    run --json task show "$hid"
    owner=$(json_get "$T/out" claim_owner)
    until_ms=$(json_get "$T/out" claim_until)
    now_ms=$(json_get "$T/out" now)
    [[ -n "$owner" && "$owner" != null ]] || why+=("the task is not claimed 2.5 s into the run")
    if [[ "$until_ms" =~ ^[0-9]+$ && "$now_ms" =~ ^[0-9]+$ ]]; then
        [[ $until_ms -gt $now_ms ]] || why+=("the claim expired (claim_until $until_ms <= now $now_ms)")
    else
        why+=("no claim_until")
    fi
    # A second worker tries, again and again, while the first one runs.
    while [[ $(($(ms_now) - ta)) -lt 4500 ]]; do
        run worker --queue "$q" --drain --at-least-once --claim-ttl 2s --handler "$hcmd"
        [[ $RC == 0 ]] || why+=("the second worker exited $RC")
        sleep 0.3
    done
    wait_for_line "$tally" '^end ' 10 || why+=("the handler did not finish")
    kill -TERM "${wpid[hbA]}"
    wait_worker hbA 20
    want_rc 0
else
    why+=("the handler did not start")
    kill -KILL "${wpid[hbA]}" 2>/dev/null || true
fi
starts=$(grep -c '^start ' "$tally" || true)
want "$([[ $starts == 1 ]] && echo 1)" "the task started $starts times (a second worker took over the claim)"
run --json task list --queue "$q"
[[ -z "$(ids "$T/out")" ]] || why+=("the task is still queued")
end "--at-least-once --claim-ttl 2s, handler sleeps 5 s: heartbeats keep the claim, a second worker never runs it"

# ================================================================== 4. recurring, idle worker
begin
newq rec
tally="$T/rec.tally"
add_task "$q" tick --every 1s
rid=$ID
start_worker rec worker --queue "$q" \
    --handler "tick=echo \"\$LEASEQ_TASK_RUN_AT \$(date +%s%3N)\" >> $(sq "$tally")"
# Three occurrences run (60 s only bound a worker that never runs them).
for _ in $(seq 1 600); do
    [[ $(lines_of "$tally") -ge 3 ]] && break
    sleep 0.1
done
kill -TERM "${wpid[rec]}"
wait_worker rec 20
want_rc 0
runs=$(lines_of "$tally")
distinct=$(awk '{print $1}' "$tally" | sort -u | wc -l)
want "$([[ $runs -ge 3 ]] && echo 1)" "$runs runs of the recurring task, expected at least 3"
want "$([[ $runs == "$distinct" ]] && echo 1)" "$runs runs of $distinct distinct occurrences"
late=$(awk '{d = $2 - $1; if (d > m) m = d} END {print m + 0}' "$tally")
run --json task show "$rid"
[[ $RC == 0 && "$(json_get "$T/out" every_ms)" == 1000 ]] || why+=("the recurring task is gone or changed")
run task rm "$rid"
end "idle worker, task --every 1s: $runs runs, one per occurrence (latest start ${late} ms after its due time)"

# ================================================================== 5. no handler
for mode in at-most-once at-least-once; do
    begin
    newq "noh_$mode"
    flags=()
    [[ $mode == at-least-once ]] && flags=(--at-least-once)
    add_task "$q" orphan --max-attempts 1
    oid=$ID
    run worker --queue "$q" --drain "${flags[@]}" --handler 'other=true' --handler 'more=true'
    want_rc 0
    grep -q -E 'ran 0, failed 1' "$T/err" || why+=("the report does not say 'ran 0, failed 1'")
    grep -q -E "^leasectl: worker: task $oid \"orphan\" failed: no handler for orphan .*other, more" "$T/err" ||
        why+=("no line naming task $oid, orphan, and the handlers there are: $(excerpt "$T/err")")
    run --json task list --queue "$q" --dead
    [[ "$(ids "$T/out")" == "$oid" ]] || why+=("task $oid is not dead")
    run --json task show "$oid"
    [[ "$(json_get "$T/out" last_error)" == *"no handler for orphan"* ]] ||
        why+=("last_error is '$(json_get "$T/out" last_error)', expected 'no handler for orphan'")
    run --json task list --queue "$q"
    [[ -z "$(ids "$T/out")" ]] || why+=("the task is still live")
    run task rm "$oid"
    end "$mode: a task without a handler, --max-attempts 1: dead with 'no handler for orphan'"
done

# A task whose name no --handler names is a failed attempt like any other:
# its line in text, its task_failed event in JSON (with tick too).
begin
newq "noh_json"
add_task "$q" orphan --max-attempts 2
oid=$ID
run worker --queue "$q" --drain --log-format json --handler 'other=true'
want_rc 0
py -c 'import json,sys
ev = [json.loads(l) for l in open(sys.argv[1])]
f = [e for e in ev if e["event"] == "task_failed" and e.get("task_id") == int(sys.argv[2])]
assert len(f) == 1, ev
e = f[0]
assert e["level"] == "error" and e["name"] == "orphan" and e["attempt"] == 1 and "duration_ms" in e, e
assert e["error"].startswith("no handler for orphan") and "other" in e["error"], e
' "$T/err" "$oid" 2>"$T/py.err" || why+=("no task_failed event for task $oid: $(tail -1 "$T/py.err")")
run task retry "$oid"
run tick --queue "$q" --handler 'other=true'
want_rc 0
grep -q -E "^leasectl: tick: task $oid \"orphan\" failed: no handler for orphan .*other" "$T/err" ||
    why+=("tick: no line naming task $oid: $(excerpt "$T/err")")
end "a task without a handler: a task_failed event (--log-format json), a line from tick"

# ================================================================== 5b. a handler's stdout in JSON mode
# Standard output is only JSON: a handler's own output goes to standard
# error (--json), or becomes handler_output events (--log-format json).
all_json() { # FILE: nothing but JSON documents (the report, pretty; log lines)
    py -c 'import json,sys
s, d, i = open(sys.argv[1]).read(), json.JSONDecoder(), 0
while s[i:].strip():
    i = d.raw_decode(s, i + len(s[i:]) - len(s[i:].lstrip()))[1]' "$1" 2>/dev/null
}
for how in "--json worker --drain" "--json tick" "worker --drain --log-format json" "--json worker --drain --log-format json"; do
    begin
    newq "out_${how//[^a-z]/_}"
    add_task "$q" talk
    # shellcheck disable=SC2086 # $how is several words on purpose
    run $how --queue "$q" --handler 'talk=echo "hello from $LEASEQ_TASK_NAME"; echo "{half"; printf tail'
    want_rc 0
    all_json "$T/out" || why+=("stdout is not JSON lines: $(excerpt "$T/out")")
    if [[ $how == *log-format* ]]; then
        all_json "$T/err" || why+=("stderr is not JSON lines: $(excerpt "$T/err")")
        for m in "hello from talk" "{half" "tail"; do
            py -c 'import json,sys
assert any(e["event"] == "handler_output" and e["message"] == sys.argv[2] for e in map(json.loads, open(sys.argv[1])))' \
                "$T/err" "$m" 2>/dev/null || why+=("no handler_output event '$m': $(excerpt "$T/err")")
        done
    else
        grep -q -x "hello from talk" "$T/err" || why+=("the handler's output is not on stderr: $(excerpt "$T/err")")
    fi
    [[ $how == --json* ]] && { [[ "$(json_get "$T/out" ran)" == 1 ]] || why+=("the report does not say ran 1"); }
    end "leasectl $how: a handler printing to stdout leaves stdout valid JSON"
done

# ================================================================== 6. queues and bad input
begin
q="${P}never_used"
run worker --queue "$q" --drain --handler 'x=true'
want_rc 0
grep -q -E '^worker: ran 0, failed 0, stopped: idle' "$T/err" || why+=("no 'ran 0, failed 0, stopped: idle' report")
run worker --queue "$q" -j 2 --drain --handler 'x=true'
[[ $RC == 0 ]] || why+=("-j 2 exited $RC")
run tick --queue "$q" --handler 'x=true'
[[ $RC == 0 ]] || why+=("tick exited $RC")
end "an unknown queue is just empty: worker --drain (also -j 2) and tick exit 0"

for cmdname in worker tick; do
    begin
    extra=()
    [[ $cmdname == worker ]] && extra=(--drain)
    run "$cmdname" --queue "${P}bad" "${extra[@]}" --handler 'no-equals-sign'
    want_rc 64
    [[ $(lines_of "$T/err") == 1 ]] || why+=("stderr should be one line")
    want_out_empty
    end "$cmdname --handler without '=': exit 64, one line"
done

# An at-most-once worker still holds claims on capped tasks and on
# occurrences of schedules with an overlap policy: the TTL is theirs.
begin; run worker --queue "${P}bad" --drain --claim-ttl 2s --handler 'x=true'; want_rc 0
end "worker --claim-ttl without --at-least-once: accepted (the claims it still holds)"
begin; run worker --queue "${P}bad" --drain --claim-ttl 0s --handler 'x=true'; want_rc 64
want_err_line
end "worker --claim-ttl 0s: exit 64, one line"

begin; run worker --queue "${P}bad" -j 0 --drain --handler 'x=true'; want_rc 64
end "worker -j 0: exit 64"

# ================================================================== 7. what a handler leaves running
# A handler's leftovers, in its group or escaped from it (setsid, a double
# fork), are stopped before the worker goes on; leasectl looks for escaped
# ones in /proc only while it has a child left (they come back to it, a
# subreaper), so a handler that leaves nothing costs no /proc scan.
MARK=$((RANDOM % 900 + 100))$((RANDOM % 900 + 100)) # in every sleep of this check
kill_left() { pkill -KILL -f "sleep [0-9]+\.$MARK" 2>/dev/null || true; }
cleanup_hooks+=(kill_left)
begin
newq rest
add_task "$q" leave
add_task "$q" leave
run worker --queue "$q" --drain --handler "leave=sleep 600.$MARK & setsid sleep 601.$MARK & (sleep 602.$MARK &) ; exit 0"
want_rc 0
grep -q -E '^worker: ran 2, failed 0, stopped: idle' "$T/err" || why+=("the report is not 'ran 2, failed 0, stopped: idle'")
n_left=$({ pgrep -f "sleep [0-9]+\.$MARK" || true; } | wc -l)
want "$([[ $n_left == 0 ]] && echo 1)" "$n_left processes the handlers left (group, setsid'd, double-forked) still run after the worker returned"
kill_left
end "worker: what handlers leave running (in their group, setsid'd, double-forked) is stopped before it returns"

if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
    begin
    newq noscan
    for i in 1 2 3; do add_task "$q" plain; done
    # (LeakSanitizer cannot run under ptrace: the sanitizer build's leak
    # check is for the other runs.)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -qq -e trace=openat,open -o "$T/strace" "$LEASECTL" --db "$DSN" worker --queue "$q" --drain \
        --handler 'plain=true' </dev/null >"$T/out" 2>"$T/err" && RC=0 || RC=$?
    LAST_CMD="strace ... leasectl worker --queue $q --drain --handler plain=true"
    want_rc 0
    grep -q -E '^worker: ran 3, failed 0, stopped: idle' "$T/err" || why+=("the report is not 'ran 3, failed 0, stopped: idle'")
    scans=$(grep -c -E '"/proc/[0-9]+/stat"' "$T/strace" || true)
    want "$([[ $scans == 0 ]] && echo 1)" "the worker read /proc/PID/stat $scans times for 3 handlers that left nothing running"
    end "worker: handlers that leave nothing running cost no /proc scan"
else
    pass "worker: handlers that leave nothing running cost no /proc scan # SKIP strace cannot trace here"
fi

# ------------------------------------------------------------------ tidy up
for q in "${queues[@]}"; do
    for flag in --queue --dead; do
        if [[ $flag == --dead ]]; then
            run --json task list --queue "$q" --dead
        else
            run --json task list --queue "$q"
        fi
        for id in $(ids "$T/out"); do
            run task rm "$id" || true
        done
    done
done

finish
