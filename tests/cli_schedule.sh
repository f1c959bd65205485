#!/usr/bin/env bash
# tests/cli_schedule.sh BACKEND - steering recurring tasks from leasectl:
# `task add --overlap/--catch-up/--alert-after`, `task run-now` (one extra
# occurrence, the schedule not shifted), `task edit` (in place, also raced by
# several workers: no occurrence runs twice), pause/resume without a burst,
# the dead-man check of `doctor` and `/metrics`, `exec --overlap skip|queue`,
# and bad input (exit 64, one line naming the task, nothing changed).  Run by
# ctest as `bash tests/cli_schedule.sh <backend>` with LEASECTL=<path>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every queue name is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup schedule
Q="sched_${RUN_ID}"
echo "# leasectl task add/edit/run-now/pause/resume of schedules: backend $backend, queue $Q"

begin; run migrate; want_rc 0; end "migrate: exit 0"

count() { run --json task list --queue "$1"; ids "$T/out" | wc -l; }

# ------------------------------------------------------------ options
begin
run --json task add steered --queue "$Q" --every 1h --overlap queue --catch-up 3 --alert-after 2h
want_rc 0
S=$(json_get "$T/out" id)
run --json task show "$S"
want_rc 0
[[ "$(json_get "$T/out" overlap)" == queue && "$(json_get "$T/out" catch_up)" == 3 &&
    "$(json_get "$T/out" alert_after_ms)" == 7200000 && "$(json_get "$T/out" overdue)" == false ]] ||
    why+=("show --json: $(excerpt "$T/out")")
json_keys "$T/out" overlap catch_up alert_after_ms last_success_at since_success_ms overdue next_at ||
    why+=("--json lacks a field")
run task show "$S"
want_out '^overlap: +queue'
want_out '^catch_up: +3'
end "task add --overlap --catch-up --alert-after: kept, shown in text and --json"

begin
before=$(count "$Q")
for args in "--every 1h --overlap sometimes" "--overlap skip" "--every 1h --catch-up 101" \
    "--every 1h --catch-up 2 --missed skip" "--catch-up 1" "--alert-after 1h" "--every 1h --alert-after soon"; do
    # shellcheck disable=SC2086
    run task add bad --queue "$Q" $args
    [[ $RC == 64 ]] || why+=("task add $args: exit $RC, expected 64")
    [[ "$(grep -c . "$T/err")" == 1 ]] || why+=("task add $args: not one line: $(excerpt "$T/err")")
done
[[ "$(count "$Q")" == "$before" ]] || why+=("a refused add added a task")
end "task add: bad --overlap/--catch-up/--alert-after exit 64 with one line, nothing added"

# ------------------------------------------------------------ run-now
begin
run --json task show "$S"
regular=$(json_get "$T/out" run_at)
run task run-now "$S"
want_rc 0
run --json task run-now "$S"
[[ $RC == 75 ]] || why+=("a second run-now: exit $RC, expected 75")
want_err_line
want_err 'task [0-9]+: a run-now is pending'
run --json task show "$S"
[[ "$(json_get "$T/out" next_at)" == "$regular" ]] || why+=("next_at is not the regular occurrence: $(excerpt "$T/out")")
run worker --queue "$Q" --drain --handler "steered=echo \$LEASEQ_TASK_RUN_AT >>'$T/runs'"
want_rc 0
[[ "$(lines_of "$T/runs")" == 1 ]] || why+=("runs: $(lines_of "$T/runs"), expected 1")
run --json task show "$S"
[[ "$(json_get "$T/out" run_at)" == "$regular" ]] || why+=("the schedule shifted: run_at $(json_get "$T/out" run_at), was $regular")
[[ -n "$(json_get "$T/out" last_success_at)" ]] || why+=("no last_success_at after a success")
run task run-now 999999999
want_rc 1
want_err 'task 999999999: not found'
end "task run-now: one extra occurrence now, the next regular one stays; a pending one refuses (75)"

# ------------------------------------------------------------ edit
begin
run task edit "$S" --every 2h
want_rc 0
want_out '^task [0-9]+: next occurrence'
run --json task show "$S"
[[ "$(json_get "$T/out" every_ms)" == 7200000 && "$(json_get "$T/out" overlap)" == queue ]] ||
    why+=("after edit --every 2h: $(excerpt "$T/out")")
run --json task edit "$S" --cron '0 3 * * *' --tz Europe/Paris
want_rc 0
[[ "$(json_get "$T/out" cron)" == "0 3 * * *" && "$(json_get "$T/out" tz)" == Europe/Paris ]] ||
    why+=("after edit --cron: $(excerpt "$T/out")")
after=$(cat "$T/out")
run --json task add one-off --queue "$Q"
ONE=$(json_get "$T/out" id)
for args in "$S" "$S --every 1h --cron @daily" "$S --tz UTC --every 1h" "$S --cron 61 * * * *" "$S --every 5ms" \
    "$ONE --every 1h" "0 --every 1h"; do
    # shellcheck disable=SC2086
    run task edit $args
    [[ $RC == 64 ]] || why+=("task edit $args: exit $RC, expected 64")
    [[ "$(grep -c . "$T/err")" == 1 ]] || why+=("task edit $args: not one line: $(excerpt "$T/err")")
done
run task edit "$ONE" --every 1h
want_err "task $ONE: not a recurring task"
run task edit 999999999 --every 1h
want_rc 1
run --json task show "$S"
[[ "$(json_get "$T/out" cron)" == "0 3 * * *" && "$(json_get "$T/out" run_at)" == "$(json_get <(echo "$after") run_at)" ]] ||
    why+=("a refused edit changed the task")
end "task edit --every | --cron --tz: in place, policies kept; bad input 64 naming the task, nothing changed"

# ------------------------------------------------------------ pause/resume
begin
past=$(($(date +%s) - 630))
run --json task add late --queue "$Q" --every 1m --at "$past" --catch-up 5
L=$(json_get "$T/out" id)
run task pause "$L"
want_rc 0
run task resume "$L"
want_rc 0
: >"$T/late"
run worker --queue "$Q" --drain --handler "late=echo x >>'$T/late'"
[[ "$(lines_of "$T/late")" == 1 ]] || why+=("runs after resume: $(lines_of "$T/late"), expected 1 (no burst)")
run --json task show "$L"
[[ "$(json_get "$T/out" paused)" == false ]] || why+=("still paused")
end "task pause/resume of a schedule paused across ten slots: one late run, not a burst"

# ------------------------------------------------------------ dead man
begin
run --json task add watched --queue "$Q" --every 1h --alert-after 100ms
W=$(json_get "$T/out" id)
sleep 0.3
run doctor
want_rc_in 1 2
grep -E "^warning +schedules .*task $W watched" "$T/out" >/dev/null || why+=("doctor: no schedules warning for $W: $(grep schedules "$T/out" || true)")
run --json doctor
json_ok "$T/out" || why+=("doctor --json is not JSON")
"$LEASECTL" --db "$DSN" serve --listen 127.0.0.1:0 2>"$T/serve.err" &
spid=$!
wait_for_line "$T/serve.err" '^serve: listening on|built without' 10 || true
if command -v curl >/dev/null 2>&1 && ! grep -q 'built without' "$T/serve.err"; then
    PORT=$(sed -n 's#^serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$T/serve.err")
    curl -s --max-time 30 "http://127.0.0.1:$PORT/metrics" >"$T/metrics" || true
    grep -q -x "leaseq_schedule_overdue{queue=\"$Q\",name=\"watched\",id=\"$W\"} 1" "$T/metrics" ||
        why+=("/metrics: no overdue gauge for $W: $(grep schedule "$T/metrics" | head -3 | tr '\n' '|')")
    grep -q -E "^leaseq_schedule_seconds_since_success\{queue=\"$Q\",name=\"watched\",id=\"$W\"\} [0-9]+\.[0-9]{3}$" "$T/metrics" ||
        why+=("/metrics: no seconds-since-success gauge for $W")
fi
kill -TERM "$spid" 2>/dev/null || true
wait "$spid" 2>/dev/null || true
run task rm "$W"
end "doctor warns (exit 1/2) and /metrics flags a schedule whose last success is older than --alert-after"

# ------------------------------------------------------------ exec --overlap
begin
X="exec_${RUN_ID}"
run lease acquire "$X" --ttl 1m
h=$(cat "$T/out")
run exec --overlap skip "$X" -- true
[[ $RC == 75 ]] || why+=("exec --overlap skip on a held lease: exit $RC, expected 75")
( sleep 1; echo released >>"$T/order"; "$LEASECTL" --db "$DSN" lease release "$h" >/dev/null 2>&1 ) &
rel=$!
run exec --overlap queue "$X" -- sh -c "echo ran >>'$T/order'"
want_rc 0
wait "$rel" || true
[[ "$(tr '\n' ' ' <"$T/order")" == "released ran " ]] || why+=("queue did not run after the holder: $(tr '\n' ' ' <"$T/order")")
end "exec --overlap skip exits 75 on a held lease; queue waits and runs after the holder"

# cancel-previous: the new run breaks the lease; the previous exec loses it
# at its next renewal and stops its command's whole group (a grandchild
# included), exits 3; the new one runs with a newer fencing token.
begin
X="exec_cp_${RUN_ID}"
: >"$T/cp"
"$LEASECTL" --db "$DSN" exec --ttl 1500ms "$X" -- sh -c "echo \$LEASEQ_FENCING_TOKEN >>'$T/cp.tok'; (sleep 30; echo grandchild >>'$T/cp') & sleep 30; echo end >>'$T/cp'" \
    >/dev/null 2>"$T/cp.err" &
first=$!
for _ in $(seq 1 50); do [[ -s "$T/cp.tok" ]] && break; sleep 0.1; done
run exec --overlap cancel-previous "$X" -- sh -c "echo \$LEASEQ_FENCING_TOKEN >>'$T/cp.tok'"
want_rc 0
grep -q "$X" "$T/err" || why+=("cancel-previous did not say whose run it cancelled: $(excerpt "$T/err")")
first_rc=0
wait "$first" || first_rc=$?
[[ $first_rc == 3 ]] || why+=("the previous exec exited $first_rc, expected 3 (lease lost): $(excerpt "$T/cp.err")")
sleep 0.5
[[ -s "$T/cp" ]] && why+=("the previous run went on: $(tr '\n' ' ' <"$T/cp")")
mapfile -t toks <"$T/cp.tok"
[[ ${#toks[@]} == 2 && ${toks[1]} -gt ${toks[0]} ]] || why+=("fencing tokens not increasing: ${toks[*]}")
run exec --overlap cancel-previous --slots 2 "$X" -- true
want_rc 64
want_err_line
end "exec --overlap cancel-previous breaks the previous run's lease: it is stopped (exit 3), the new one runs fenced"

# ------------------------------------------------------------ cancel-previous
# A 1 s schedule whose handler would take 30 s: each occurrence is revoked
# when the next is due (at the holder's heartbeat) and its handler stopped;
# none finishes, the next ones start.  A named policy holds under the
# default at-most-once worker too (the occurrence is claimed with a claim).
cancel_previous() { # LABEL WORKER-ARGS...
    local label=$1
    shift
    begin
    local C="cancel_${RUN_ID}_$label" CP starts
    run --json task add slow --queue "$C" --every 1s --overlap cancel-previous
    CP=$(json_get "$T/out" id)
    : >"$T/slow"
    timeout -s TERM 5 "$LEASECTL" --db "$DSN" worker --queue "$C" "$@" --claim-ttl 900ms \
        --handler "slow=echo start >>'$T/slow'; sleep 30; echo end >>'$T/slow'" >/dev/null 2>"$T/slow.err" || true
    starts=$(grep -c start "$T/slow" || true)
    [[ $starts -ge 2 ]] || why+=("cancel-previous: $starts occurrences started, expected 2 or more: $(excerpt "$T/slow.err")")
    grep -q end "$T/slow" && why+=("cancel-previous: a revoked occurrence ran to its end")
    # Each revoked occurrence is a cancelled run saying why (the last one may
    # instead be the shutdown's failed run: the worker was stopped under it).
    run --json task history "$CP"
    json_has "$T/out" outcome cancelled || why+=("no cancelled run in the history: $(excerpt "$T/out")")
    grep -q 'cancel-previous' <<<"$(json_all "$T/out" error)" || why+=("the cancelled run does not say why: $(excerpt "$T/out")")
    json_has "$T/out" outcome done && why+=("a revoked occurrence was recorded done: $(excerpt "$T/out")")
    grep -q 'claim lost' "$T/slow.err" && why+=("the worker took the revoke for a lost claim: $(excerpt "$T/slow.err")")
    run task rm "$CP"
    end "--overlap cancel-previous ($label worker): an occurrence is revoked and stopped when the next one is due, recorded cancelled"
}
cancel_previous at-least-once --at-least-once
cancel_previous at-most-once

# ------------------------------------------------------------ the edit race
# Three workers claim a 50 ms schedule while edits switch it between two
# intervals: every occurrence runs once (no run_at twice), whichever
# schedule it belonged to.
race() { # MODE-ARGS...
    local R="race_${RUN_ID}_$1" label=$1
    shift
    run --json task add r --queue "$R" --every 50ms --at "$(date +%s)"
    local id
    id=$(json_get "$T/out" id)
    : >"$T/race"
    local pids=()
    for _ in 1 2 3; do
        timeout -s TERM 4 "$LEASECTL" --db "$DSN" worker --queue "$R" "$@" \
            --handler "r=echo \$LEASEQ_TASK_RUN_AT >>'$T/race'" >/dev/null 2>&1 &
        pids+=("$!")
    done
    local edits=0
    for i in $(seq 1 30); do
        if "$LEASECTL" --db "$DSN" task edit "$id" --every "$((i % 2 ? 40 : 70))ms" >/dev/null 2>"$T/edit.err"; then
            edits=$((edits + 1))
        fi
        sleep 0.08
    done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    local dups runs
    dups=$(sort "$T/race" | uniq -d | head -3 | tr '\n' ' ')
    runs=$(lines_of "$T/race")
    [[ -z "$dups" ]] || why+=("$label: occurrences run twice: $dups")
    [[ $runs -ge 10 ]] || why+=("$label: only $runs runs")
    [[ $edits -ge 25 ]] || why+=("$label: only $edits of 30 edits got in: $(excerpt "$T/edit.err")")
    run --json task show "$id"
    [[ "$(json_get "$T/out" every_ms)" == 70 ]] || why+=("$label: the last edit (70ms) is not the schedule")
    run task rm "$id"
}
begin
race amo
race alo --at-least-once --claim-ttl 5s
end "task edit raced by three workers (at-most-once and at-least-once): no occurrence runs twice"

run task list --queue "$Q"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
