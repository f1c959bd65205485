#!/usr/bin/env bash
# tests/cli_fault.sh BACKEND - the process-level fault suite: real
# `leasectl worker` / `leasectl exec` processes under kill -9, SIGTERM,
# SIGSTOP, connection kills, server crashes and mass contention, with a
# ledger (every handler start and end) and a fenced resource, read at the end
# by a checker (tests/fault/fault_tool check).  Run by ctest as
# `bash tests/cli_fault.sh <backend>` with LEASECTL and FAULT_TOOL set.
#
# What it asserts (outcomes only, never a time):
#   at-least-once: no task lost (every enqueued task completed or is dead
#                  with a reason); duplicates are counted and explained
#   at-most-once:  no (task, occurrence) started twice
#   leases:        no stale fenced write accepted, one holder per token,
#                  no two epochs writing at once
# Recovery times are printed, never asserted.
#
# Environment:
#   LEASEQ_FAULT_SEED=N   the seed of every random choice (default $RANDOM;
#                         printed first, so a failure can be replayed)
#   LEASEQ_FAULT_LONG=1   each scenario runs for minutes instead of seconds
#   LEASEQ_FAULT_ONLY=a,b only these scenarios (a kill9, b sigterm,
#                         d connkill, c sigstop, h exec, e crash,
#                         f lock storms, g clock skew; i failover, PostgreSQL
#                         only and only when asked for: ctest's failover_postgres)
#   LEASEQ_STANDBY_FAKETIME=+30s  scenario i: the standby's server runs
#                         under libfaketime (tests/servers/pg_failover.sh)
#   LEASEQ_FAULT_FIGURES=FILE  append the figure lines there too
# The server-crash scenario starts a private server (tests/servers/) so the
# shared ones are never restarted; the others use the test DSN, under queue
# and lease names unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

cli_args "$@"
cli_setup fault
if [[ -z "${FAULT_TOOL:-}" || ! -x "$FAULT_TOOL" ]]; then
    echo "not ok - FAULT_TOOL must name the fault_tool binary (got '${FAULT_TOOL:-}')"
    exit 1
fi

SEED=${LEASEQ_FAULT_SEED:-$RANDOM}
RANDOM=$SEED
LONG=${LEASEQ_FAULT_LONG:-0}
ONLY=${LEASEQ_FAULT_ONLY:-a,b,d,c,h,e,f,g}
echo "# fault suite: backend $backend, seed $SEED (LEASEQ_FAULT_SEED=$SEED replays it), long=$LONG"
export FAULT_SEED=$SEED

# The DSN reaches fault_tool through a file: leasectl drops any variable that
# holds the password from a handler's environment.
umask 077
use_dsn() { # DSN: the database of the following scenarios
    DSN=$1
    printf '%s\n' "$DSN" >"$T/dsn"
    export FAULT_DSN_FILE=$T/dsn
}
use_dsn "$DSN"
main_dsn=$DSN

want_scenario() { [[ ",$ONLY," == *",$1,"* ]]; }
rnd() { # LO HI -> a random integer in [LO, HI]
    echo $(($1 + RANDOM % ($2 - $1 + 1)))
}
ms_sleep() { # MS
    sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"
}
new_run() { # a run number: every ledger row of a scenario carries it
    RUN=$(((RANDOM << 15 | RANDOM) * 1000 + $$ % 1000))
    export FAULT_RUN=$RUN
}
ft() { timeout -k 5 120 "$FAULT_TOOL" "$@"; }

figures=()
last_check=$SECONDS
record() { # SCENARIO MODE KILLS: the checker's FIGURES line, tagged
    local line
    line=$(grep '^FIGURES' "$T/check.out" || true)
    line="FIGURES backend=$backend scenario=$1 ${line#FIGURES } faults_injected=$3 wall_s=$((SECONDS - last_check))"
    last_check=$SECONDS
    figures+=("$line")
    echo "# $line"
    if [[ -n "${LEASEQ_FAULT_FIGURES:-}" ]]; then
        echo "$line" >>"$LEASEQ_FAULT_FIGURES"
    fi
}
check() { # SCENARIO MODE KILLS [FENCE-NAME]: run the checker; a failed invariant fails the check
    local rc=0
    ft check "$Q" "$2" "${4:-0}" >"$T/check.out" 2>&1 || rc=$?
    grep -E '^(duplicate|lost|stale|overlap|FAIL|seed)' "$T/check.out" | head -n 40 | sed 's/^/# /' || true
    record "$1" "$2" "$3"
    # a passed run leaves nothing behind in the shared databases; a failed
    # one keeps its ledger rows (run number $RUN) for a look
    [[ $rc == 0 && -z "${KEEP_LEDGER:-}" ]] && { ft purge || true; }
    begin
    want "$((rc == 0))" "checker exit $rc: $(grep -E '^FAIL' "$T/check.out" | tr '\n' ' ') (seed $SEED, run $RUN)"
    end "$1: checker invariants hold ($2, seed $SEED)"
}

# ------------------------------------------------------------------ workers
declare -A wpid=()
start_worker() { # INDEX MODE(alo|amo) [EXTRA ARGS...]
    local i=$1 mode=$2
    shift 2
    local args=(worker --queue "$Q" --handler "job=$(sq "$FAULT_TOOL") handler")
    [[ $mode == alo ]] && args+=(--at-least-once --claim-ttl "${CLAIM_TTL:-2s}")
    local pre=()
    if [[ $skew == 1 && $((i % 2)) == 1 ]]; then
        # half the workers on a wrong clock, a new one at every restart
        local offs=("+10m" "-10m" "+10m x2" "-10m x0.5")
        pre=(env LD_PRELOAD="$faketime_lib" FAKETIME="${offs[$((RANDOM % 4))]}"
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
    fi
    FAULT_WORKER=$i PGAPPNAME=fw$i "${pre[@]}" "$LEASECTL" --db "$DSN" "${args[@]}" "$@" \
        </dev/null >>"$T/w$i.out" 2>>"$T/w$i.err" &
    wpid[$i]=$!
    bg_pids+=("$!")
}
# kill9_worker INDEX: the worker and its handler's process group, like a
# machine that dies.
kill9_worker() {
    local pid=${wpid[$1]} c
    for c in $(pgrep -P "$pid" 2>/dev/null || true); do
        kill -KILL -- "-$c" 2>/dev/null || kill -KILL "$c" 2>/dev/null || true
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
stop_workers() {
    local i
    for i in "${!wpid[@]}"; do
        kill -TERM "${wpid[$i]}" 2>/dev/null || true
    done
    for i in "${!wpid[@]}"; do
        wait "${wpid[$i]}" 2>/dev/null || true
    done
    wpid=()
}
# wait_drained SECONDS: until no live task is left in $Q (bounded).
wait_drained() {
    local i n
    for i in $(seq 1 $(($1 * 2))); do
        n=$(ft live "$Q" 2>/dev/null || echo x)
        [[ "$n" == 0 ]] && return 0
        sleep 0.5
    done
    echo "# $Q still has $n live task(s) after $1 s"
    return 1
}
# drain: a final at-least-once or at-most-once `worker --drain` until empty
drain() { # MODE
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        [[ "$(ft live "$Q" 2>/dev/null || echo x)" == 0 ]] && return 0
        local args=(worker --drain --queue "$Q" --handler "job=$(sq "$FAULT_TOOL") handler")
        [[ $1 == alo ]] && args+=(--at-least-once --claim-ttl 2s)
        FAULT_WORKER=99 timeout -k 5 120 "$LEASECTL" --db "$DSN" "${args[@]}" </dev/null >>"$T/drain.out" 2>&1 || true
        sleep 1 # claims of killed workers expire (claim TTL 2 s)
    done
}

begin; run migrate; want_rc 0
end "migrate: exit 0"
begin; ft setup >"$T/out" 2>"$T/err" && RC=0 || RC=$?; want_rc 0
end "ledger tables created"

scale=1
[[ $LONG == 1 ]] && scale=10
skew=0
faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1 || true)

# ------------------------------------------------------------------ a. kill -9
# Workers killed at random points (claiming, mid-handler, acking: the random
# delays land everywhere), restarted, then a drain; both modes.
scenario_kill9() { # MODE [TAG]
    local mode=$1 tag=${2:-kill9} ntasks=$((80 * scale)) nworkers=4 kills=$((5 * scale)) k i
    new_run
    Q="fa_${mode}_$RUN"
    ft enqueue "$Q" "$ntasks" "$mode"
    export FAULT_WORK_MS=40
    for i in $(seq 1 $nworkers); do start_worker "$i" "$mode"; done
    for k in $(seq 1 $kills); do
        ms_sleep "$(rnd 100 700)"
        i=$(rnd 1 $nworkers)
        kill9_worker "$i"
        ft event 1
        start_worker "$i" "$mode"
    done
    wait_drained $((60 * scale)) || true
    stop_workers
    drain "$mode"
    check "$tag-$mode" "$mode" "$kills"
}
if want_scenario a; then
    scenario_kill9 alo
    scenario_kill9 amo
fi

# ------------------------------------------------------------------ g. client clock skew
# The kill -9 scenario again with half the workers under libfaketime
# (+-10 min, running fast or slow, a new offset at every restart): the
# database clock decides, so no figure may change.
if want_scenario g && [[ $backend == sqlite ]]; then
    # SQLite has no server: its "database clock" is the clock of whichever
    # process runs the statement, and the processes of one host share one
    # clock.  A per-process skew is not a fault a host can have here (it makes
    # skewed workers take live claims: many at-least-once duplicates).
    echo "# skew: not applicable to SQLite (the database clock is each process's own)"
elif want_scenario g; then
    if [[ -z "$faketime_lib" ]]; then
        begin
        want "$([[ -z "${LEASEQ_REQUIRE_ALL_BACKENDS+x}" ]] && echo 1 || echo 0)" "libfaketime is not installed (apt-get install faketime)"
        end "skew: libfaketime is there (or the scenario is skipped outside CI)"
    else
        skew=1
        scenario_kill9 alo skew
        [[ $LONG == 1 ]] && scenario_kill9 amo skew
        skew=0
    fi
fi

# ------------------------------------------------------------------ b. SIGTERM restarts
# A worker stopped by SIGTERM (twice) while its at-most-once handler runs,
# then a new worker: the task must not start again (a handler stopped by
# the shutdown is a failed attempt, never handed back as unrun).
if want_scenario b; then
    new_run
    Q="fb_$RUN"
    rounds=$((3 * scale))
    ft enqueue "$Q" "$rounds" amo
    for k in $(seq 1 "$rounds"); do
        before=$(ft started)
        FAULT_WORK_MS=20000 start_worker 1 amo
        for i in $(seq 1 200); do # until its handler started (bounded)
            [[ "$(ft started)" -gt "$before" ]] && break
            sleep 0.1
        done
        ft event 2
        kill -TERM "${wpid[1]}" 2>/dev/null || true
        sleep 0.2
        kill -TERM "${wpid[1]}" 2>/dev/null || true
        wait "${wpid[1]}" 2>/dev/null || true
        wpid=()
    done
    FAULT_WORK_MS=10 drain amo
    check "sigterm-amo" amo "$rounds"
fi

# ------------------------------------------------------------------ d. connection kills
# Every connection of the test database killed at random moments (any
# statement, COMMIT included) under at-least-once workers.  The killer logs
# what each victim was running; duplicates are printed with their workers.
# SQLite has no connections to kill: a writer is killed inside a write
# transaction instead, workers are killed too, then PRAGMA integrity_check.
# kill_conns_until SECONDS: kill every connection of the test database at
# random moments until the queue is empty or SECONDS passed; sets $kills.
kill_conns_until() {
    local end_at=$((SECONDS + $1))
    kills=0
    while [[ $SECONDS -lt $end_at ]]; do
        ms_sleep "$(rnd 50 300)"
        ft killconns "$T/kills.log" >/dev/null 2>&1 || true
        ft event 3
        kills=$((kills + 1))
        [[ "$(ft live "$Q" 2>/dev/null || echo x)" == 0 ]] && break
    done
    return 0
}
# explain_duplicates: for each duplicate of the last check, what the driver
# that ran it first saw (its failed / unknown operations on that task).
explain_duplicates() {
    local id
    : >"$T/why.txt"
    for id in $(sed -n -E 's/^duplicate: task ([0-9]+) .*/\1/p' "$T/check.out"); do
        grep -h -E "\"task\":$id,\"phase\":\"(fail|unknown)\"" "$T"/drive*.log 2>/dev/null |
            sed -E 's/.*"op":"([a-z]+)".*"phase":"([a-z]+)","status":"([^"]*)".*/\1 \2 (\3)/' |
            sort -u | tr '\n' ';' >>"$T/why.txt" || true
        echo >>"$T/why.txt"
    done
    echo "# what the first runner of each duplicate saw (operation, outcome):"
    sed -E 's/;$//; s/^$/nothing failed (a kill between the handler and the ack reply)/' "$T/why.txt" | sort | uniq -c | sort -rn | sed 's/^/#   /'
    echo "# all failed / unknown operations of the drivers:"
    grep -h -E '"phase":"(fail|unknown)"' "$T"/drive*.log 2>/dev/null |
        sed -E 's/.*"op":"([a-z]+)".*"phase":"([a-z]+)","status":"([^"]*)".*/\1 \2 (\3)/' | sort | uniq -c | sort -rn | sed 's/^/#   /' || true
}
# connkill_drive RETRY: the same fault under fault_tool drive (the public
# API's claim / heartbeat / ack, every outcome logged); RETRY=1 retries an
# ack that failed with LQ_ECONN on the reconnected handle.
connkill_drive() {
    local retry=$1 i
    new_run
    Q="fd${retry}_$RUN"
    ft enqueue "$Q" $((80 * scale)) alo
    rm -f "$T"/drive*.log
    local dp=()
    for i in 1 2 3 4; do
        FAULT_WORKER=$i FAULT_ACK_RETRY=$retry FAULT_WORK_MS=20 PGAPPNAME=fd$i \
            "$FAULT_TOOL" drive "$Q" alo "$T/drive$i.log" </dev/null >/dev/null 2>>"$T/drive.err" &
        dp+=("$!")
        bg_pids+=("$!")
    done
    kill_conns_until $((6 * scale))
    wait_drained $((60 * scale)) || true
    kill -TERM "${dp[@]}" 2>/dev/null || true
    wait "${dp[@]}" 2>/dev/null || true
    drain alo
    check "connkill-drive-retry$retry" alo "$kills"
    explain_duplicates
}
if want_scenario d; then
    new_run
    Q="fd_$RUN"
    ntasks=$((150 * scale))
    ft enqueue "$Q" "$ntasks" alo
    export FAULT_WORK_MS=20
    CLAIM_TTL=3s
    for i in 1 2 3 4; do start_worker "$i" alo; done
    kills=0
    if [[ $backend == sqlite ]]; then
        db=${DSN#sqlite:}
        for k in $(seq 1 $((3 * scale))); do
            # a writer holding the write lock, killed mid-transaction
            (
                echo "BEGIN IMMEDIATE; UPDATE lq_task SET attempts = attempts WHERE queue = 'none';"
                echo "INSERT INTO fault_event (run, kind, at) VALUES (0, 0, 0);"
                sleep 5
            ) | sqlite3 "$db" >/dev/null 2>&1 &
            wr=$!
            ms_sleep "$(rnd 200 600)"
            kill -KILL "$wr" 2>/dev/null || true
            pkill -KILL -P "$wr" 2>/dev/null || true
            wait "$wr" 2>/dev/null || true
            ft event 3
            i=$(rnd 1 4)
            kill9_worker "$i"
            start_worker "$i" alo
            kills=$((kills + 2))
        done
    else
        kill_conns_until $((8 * scale))
    fi
    wait_drained $((60 * scale)) || true
    stop_workers
    drain alo
    check "connkill-alo" alo "$kills"
    if [[ $backend == sqlite ]]; then
        begin
        ic=$(sqlite3 "${DSN#sqlite:}" 'PRAGMA integrity_check;' 2>&1 || true)
        want "$([[ "$ic" == ok ]] && echo 1 || echo 0)" "integrity_check: $ic"
        end "connkill: PRAGMA integrity_check is ok after writers were killed mid-transaction"
    else
        if [[ -s "$T/kills.log" ]]; then
            # what the victims were doing: one line per state and statement
            echo "# connection kills by victim state and statement:"
            sed -E 's/.*state=([^ ]*) stmt=(.{0,40}).*/\1 \2/' "$T/kills.log" | sort | uniq -c | sort -rn | head -n 12 | sed 's/^/#   /'
            : >"$T/kills.log"
        fi
        connkill_drive 0
        connkill_drive 1
    fi
    unset CLAIM_TTL
fi

# ------------------------------------------------------------------ c. SIGSTOP of a lease holder
# exec A holds the lease (TTL 5 s) and its child writes to the fenced
# resource; A is stopped past its TTL; B takes the lease with a larger token
# and writes; A's child keeps writing with the old token (refused); on
# SIGCONT A finds the lease lost, stops its child and exits non-zero.
exec_fence() { # TAG NAME FENCE HOLDER WRITES MS [EXEC ARGS...]
    local tag=$1 name=$2 fence=$3 holder=$4 writes=$5 ms=$6
    shift 6
    FAULT_PIDFILE=$T/$tag.child "$LEASECTL" --db "$DSN" exec "$@" "$name" -- \
        "$FAULT_TOOL" fence "$fence" "$holder" "$writes" "$ms" </dev/null >"$T/$tag.out" 2>"$T/$tag.err" &
    epid[$tag]=$!
    bg_pids+=("$!")
}
declare -A epid=()
wait_rc() { # TAG SECONDS -> RC (or "timeout", then killed)
    wait_or_kill "${epid[$1]}" "$2"
}
child_gone() { # TAG SECONDS: the exec child of TAG has exited (bounded wait)
    local c i
    c=$(cat "$T/$1.child" 2>/dev/null || echo "")
    [[ -n "$c" ]] || return 0
    for i in $(seq 1 $(($2 * 10))); do
        kill -0 "$c" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$c" 2>/dev/null || true
    return 1
}
if want_scenario c; then
    new_run
    Q=none
    L="fc_$RUN"
    ft fence-init 1
    exec_fence A "$L" 1 1 600 50 --ttl 5s # (2 s ran out under load before the pause)
    wait_for_line "$T/A.out" '^accepted' 30 || true
    # (A holder that is gone already cannot be paused: said below, not an
    # abort of the whole suite under set -e.)
    a_paused=1
    kill -STOP "${epid[A]}" 2>/dev/null || a_paused=0
    ft event 4
    exec_fence B "$L" 1 2 20 50 --ttl 2s --wait 30s
    wait_rc B 60
    rc_b=$RC
    ms_sleep 500
    kill -CONT "${epid[A]}" 2>/dev/null || true
    wait_rc A 30
    rc_a=$RC
    begin
    want "$a_paused" "exec A had exited before it could be paused: $(excerpt "$T/A.err")"
    want "$((rc_b == 0))" "exec B exited $rc_b, expected 0 (it takes the lease after A's expires)"
    want "$([[ $rc_a != 0 && $rc_a != timeout ]] && echo 1 || echo 0)" "exec A exited $rc_a, expected non-zero (lease lost)"
    end "sigstop: the paused holder finds its lease lost; the next holder ran"
    begin
    want "$(child_gone A 15 && echo 1 || echo 0)" "exec A's child still runs after A exited"
    end "sigstop: the paused holder's child is stopped"
    begin
    want "$(grep -c '^refused' "$T/A.out" | awk '{print ($1 > 0)}')" "A's child never saw a refused write (B's token must fence it)"
    end "sigstop: the old holder's fenced writes are refused"
    check "sigstop-exec" fence 1 1
fi

# ------------------------------------------------------------------ h. 50 concurrent exec, exec SIGKILL
if want_scenario h; then
    new_run
    Q=none
    L="fh_$RUN"
    ft fence-init 2
    nexec=50
    for k in $(seq 1 $nexec); do
        exec_fence "h$k" "$L" 2 "$k" 3 10 --ttl 5s --wait 300s
    done
    ok=0
    for k in $(seq 1 $nexec); do
        wait_rc "h$k" 400
        [[ $RC == 0 ]] && ok=$((ok + 1))
    done
    begin
    want "$((ok == nexec))" "$ok of $nexec exec runs exited 0"
    end "exec x$nexec: every run took the lease in turn and exited 0"
    check "exec-50" fence 0 2

    new_run
    L="fk_$RUN"
    ft fence-init 3
    exec_fence K "$L" 3 1 1000 50 --ttl 2s
    wait_for_line "$T/K.out" '^accepted' 30 || true
    kill -KILL "${epid[K]}" 2>/dev/null || true # (gone already: the checks below say so)
    ft event 5
    wait "${epid[K]}" 2>/dev/null || true
    begin
    want "$(child_gone K 15 && echo 1 || echo 0)" "the child of a SIGKILLed exec still runs"
    end "exec SIGKILL: its child dies with it"
    exec_fence N "$L" 3 2 5 10 --ttl 2s --wait 30s
    wait_rc N 60
    begin
    want "$((RC == 0))" "the next exec exited $RC"
    end "exec SIGKILL: the lease expires and the next exec takes it"
    check "exec-sigkill" fence 1 3
fi

# ------------------------------------------------------------------ f. lock and busy storms
# Many at-least-once claimers while `task rm` deletes random tasks and a
# session holds the claimers' locks (rows FOR UPDATE on a server, the write
# lock on SQLite) for up to 1.5 s at a time; on SQLite also a long reader
# and WAL checkpoints (SQLITE_BUSY storm).  16 claimers on MariaDB (deadlock
# storm), 8 elsewhere.
if want_scenario f; then
    new_run
    Q="ff_$RUN"
    ft enqueue "$Q" $((160 * scale)) alo
    export FAULT_WORK_MS=30
    CLAIM_TTL=3s
    nw=8
    [[ $backend == mysql ]] && nw=16
    for i in $(seq 1 $nw); do start_worker "$i" alo; done
    # the storm runs beside the claimers until the queue is empty (bounded)
    storm() { # KIND
        local end_at=$((SECONDS + 20 * scale)) n=0
        while [[ $SECONDS -lt $end_at && ! -e "$T/storm.stop" ]]; do
            case $1 in
            rm) ft rm 1 >/dev/null || true; ms_sleep "$(rnd 100 400)" ;;
            lock) ft lockhold "$(rnd 200 1500)" || true; ft event 7; ms_sleep "$(rnd 50 300)" ;;
            reader)
                (echo "BEGIN; SELECT count(*) FROM lq_task;"; sleep 2; echo "COMMIT;") |
                    sqlite3 "${DSN#sqlite:}" >/dev/null 2>&1 || true
                ;;
            checkpoint)
                sqlite3 "${DSN#sqlite:}" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null 2>&1 || true
                ms_sleep "$(rnd 100 300)"
                ;;
            esac
            n=$((n + 1))
        done
        echo "$n" >"$T/storm.$1"
    }
    rm -f "$T/storm.stop"
    kinds=(rm lock)
    [[ $backend == sqlite ]] && kinds+=(reader checkpoint)
    spids=()
    for k in "${kinds[@]}"; do
        storm "$k" &
        spids+=("$!")
    done
    wait_drained $((60 * scale)) || true
    touch "$T/storm.stop"
    for i in "${spids[@]}"; do wait "$i" 2>/dev/null || true; done
    storms=$(cat "$T/storm.lock" 2>/dev/null || echo 0)
    wait_drained $((60 * scale)) || true
    stop_workers
    drain alo
    check "storm-alo" alo "$storms"
    grep -h -i -E 'deadlock|busy|lock wait' "$T"/w*.err 2>/dev/null | sed -E 's/task [0-9]+/task N/' | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/#   worker: /' || true
    if [[ $backend == sqlite ]]; then
        begin
        ic=$(sqlite3 "${DSN#sqlite:}" 'PRAGMA integrity_check;' 2>&1 || true)
        want "$([[ "$ic" == ok ]] && echo 1 || echo 0)" "integrity_check: $ic"
        end "storm: PRAGMA integrity_check is ok"
    fi
    unset CLAIM_TTL
fi

# private_server SCRIPT DIR WHAT: a server of this run's own (never a shared
# one) from tests/servers/SCRIPT in DIR, migrated, with the ledger tables,
# and the DSN of the following scenarios; $pdsn is "" (a failed check) when
# it did not start.  Stopped and removed at exit.
private_servers=()
private_stop() {
    local p
    for p in "${private_servers[@]}"; do
        bash "$HERE/servers/${p%%|*}" stop "${p#*|}" >/dev/null 2>&1 || true
        rm -rf -- "${p#*|}"
    done
}
cleanup_hooks+=(private_stop)
private_server() {
    local t0=$SECONDS line
    private_servers+=("$1|$2")
    chmod 755 "$2"
    line=$(bash "$HERE/servers/$1" start "$2" 2>"$T/srv.err" | tail -n 1 || true)
    pdsn=${line#*=}
    [[ "$pdsn" == *://* ]] || pdsn=""
    begin
    want "$([[ -n "$pdsn" ]] && echo 1 || echo 0)" "it did not start: $(excerpt "$T/srv.err")"
    end "$3 started ($((SECONDS - t0)) s)"
    if [[ -n "$pdsn" ]]; then
        use_dsn "$pdsn"
        run migrate
        ft setup
    fi
}

# ------------------------------------------------------------------ e. server crash
# A private server (never the shared one) crashed and restarted while
# at-least-once workers run; they ride through it; then drain and check.
if want_scenario e && [[ $backend != sqlite ]]; then
    crash_script=$([[ $backend == postgres ]] && echo postgres.sh || echo mariadb.sh)
    crash_dir=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-fault-srv.XXXXXX")
    private_server "$crash_script" "$crash_dir" "crash: a private $backend server"
    if [[ -n "$pdsn" ]]; then
        new_run
        Q="fe_$RUN"
        ntasks=$((100 * scale))
        ft enqueue "$Q" "$ntasks" alo
        export FAULT_WORK_MS=30
        for i in 1 2 3; do start_worker "$i" alo; done
        crashes=$((2 * scale))
        for k in $(seq 1 $crashes); do
            ms_sleep "$(rnd 500 1500)"
            if [[ $backend == postgres ]]; then
                # stop -m immediate + start with the same options
                pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -t/ -k5,5 -n -r | head -n 1)
                as=()
                [[ $(id -u) == 0 ]] && as=(runuser -u postgres --)
                "${as[@]}" "$pgbin/pg_ctl" restart -D "$crash_dir/data" -m immediate -w -t 60 >/dev/null 2>&1 || true
            else
                # kill -9, then the same command line again (mariadb.sh
                # start would make a new, empty server)
                mpid=$(tr -dc '0-9' <"$crash_dir/mysqld.pid" 2>/dev/null || true)
                if [[ -n "$mpid" ]] && mapfile -d '' margs <"/proc/$mpid/cmdline"; then
                    kill -KILL "$mpid" 2>/dev/null || true
                    for i in $(seq 1 100); do kill -0 "$mpid" 2>/dev/null || break; sleep 0.1; done
                    setsid "${margs[@]}" </dev/null >>"$crash_dir/mysqld.out" 2>&1 &
                fi
            fi
            ft event 6
        done
        wait_drained $((90 * scale)) || true
        stop_workers
        drain alo
        check "crash-alo" alo "$crashes"
        use_dsn "$main_dsn"
    fi
fi

# ------------------------------------------------------------------ i. failover
# A primary with a synchronous standby (tests/servers/pg_failover.sh), a
# two-host DSN with target_session_attrs=read-write.  At-least-once and
# at-most-once workers, an exec holder writing to a fenced resource (and one
# waiting for the lease), and an enqueuer run while the primary is
# SIGKILLed and the standby promoted (its synchronous_standby_names
# cleared).  Then drain and check each mode; the recovery figure is the time
# from the kill to the next completed handler (promotion included).
if want_scenario i && [[ $backend == postgres ]] && [[ ",${LEASEQ_FAULT_ONLY:-}," == *,i,* ]]; then
    fo_dir=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-failover.XXXXXX")
    private_server pg_failover.sh "$fo_dir" "failover: a primary and a synchronous standby"
    if [[ -n "$pdsn" ]]; then
        # one run number per mode: the checker reads a run's whole ledger
        new_run; run_a=$RUN; Qa="fi_alo_$RUN"
        new_run; run_m=$RUN; Qm="fi_amo_$RUN"
        new_run; run_f=$RUN; L="fi_$RUN"
        ntasks=$((40 * scale))
        FAULT_RUN=$run_a ft enqueue "$Qa" "$ntasks" alo
        FAULT_RUN=$run_m ft enqueue "$Qm" "$ntasks" amo
        FAULT_RUN=$run_f ft fence-init 4
        export FAULT_WORK_MS=30
        CLAIM_TTL=3s
        FAULT_RUN=$run_a Q=$Qa start_worker 1 alo
        FAULT_RUN=$run_a Q=$Qa start_worker 2 alo
        FAULT_RUN=$run_m Q=$Qm start_worker 3 amo
        FAULT_RUN=$run_m Q=$Qm start_worker 4 amo
        FAULT_RUN=$run_f exec_fence F "$L" 4 1 60 50 --ttl 3s
        wait_for_line "$T/F.out" '^accepted' 30 || true
        FAULT_RUN=$run_f exec_fence G "$L" 4 2 20 50 --ttl 3s --wait 60s
        # the enqueuer: 5 tasks every 0.2 s, before, during and after
        (for k in $(seq 1 12); do FAULT_RUN=$run_a FAULT_ENQUEUE_RETRY=1 ft enqueue "$Qa" 5 alo || true; sleep 0.2; done) \
            >"$T/enq.out" 2>"$T/enq.err" &
        enq=$!
        bg_pids+=("$enq")
        sleep 2
        # the fault's time, on the primary just before it dies (synchronous:
        # the standby has it): recovery counts the promotion too
        for r in $run_a $run_m $run_f; do FAULT_RUN=$r ft event 8 || true; done
        t_fail=$SECONDS
        bash "$HERE/servers/pg_failover.sh" failover "$fo_dir" 2>>"$T/srv.err" || true
        fo_step() { echo "# failover: +$((SECONDS - t_fail)) s: $1"; }
        fo_step "promoted"
        wait "$enq" 2>/dev/null || true
        fo_step "enqueuer done"
        FAULT_RUN=$run_a Q=$Qa wait_drained $((60 * scale)) || true
        FAULT_RUN=$run_m Q=$Qm wait_drained $((60 * scale)) || true
        fo_step "queues empty"
        stop_workers
        FAULT_RUN=$run_a Q=$Qa drain alo
        FAULT_RUN=$run_m Q=$Qm drain amo
        fo_step "workers stopped, drained"
        wait_rc F 60
        rc_f=$RC
        wait_rc G 90
        rc_g=$RC
        echo "# failover: exec F (holding at the failover) exited $rc_f: $(tail -n 1 "$T/F.err" 2>/dev/null)"
        echo "# failover: exec G (waiting) exited $rc_g: $(tail -n 1 "$T/G.err" 2>/dev/null)"
        echo "# failover: $((SECONDS - t_fail)) s from the failover to the end of the drains"
        tag=failover${LEASEQ_STANDBY_FAKETIME:+-standby-clock$LEASEQ_STANDBY_FAKETIME}
        RUN=$run_a FAULT_RUN=$run_a Q=$Qa check "$tag-alo" alo 1
        RUN=$run_m FAULT_RUN=$run_m Q=$Qm check "$tag-amo" amo 1
        RUN=$run_f FAULT_RUN=$run_f Q=none check "$tag-exec" fence 1 4
        grep -h -i -E 'error|lost|unknown' "$T"/w*.err "$T/enq.err" 2>/dev/null | sed -E 's/task [0-9]+/task N/g; s/[0-9]+/N/g' |
            sort | uniq -c | sort -rn | head -n 8 | sed 's/^/#   during the failover: /' || true
        unset CLAIM_TTL
        use_dsn "$main_dsn"
    fi
fi

echo "# figures (backend $backend, seed $SEED):"
for f in "${figures[@]}"; do echo "# $f"; done
finish
