#!/usr/bin/env bash
# tests/cli_web.sh BACKEND - pseudo-cron from web hits: `leasectl tick` as a
# CGI program behind a real lighttpd (mod_cgi) on 127.0.0.1, plus
# `tick --spawn` and the cheap path of a tick.  Run by ctest as
# `bash tests/cli_web.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN, lighttpd or curl skips (exit 77), or fails when
# LEASEQ_REQUIRE_ALL_BACKENDS is set (tests/run installs lighttpd and curl).
# Server databases are shared: nothing is dropped, every name is unique to
# this run, and what the run leaves behind is removed at the end.
#
# The main case: 100 one-off tasks and one recurring task (every 1s) on a
# fresh queue, 200 concurrent page hits (4 waves of 50, 0.7 s apart) on a CGI
# wrapper that execs `leasectl tick`, then light hits until the queue is
# done.  Checks: every hit answered 202 (a hit that got no answer at all is
# tried again, up to 5 times); every task ran exactly once; the
# recurring task ran at least once and once per occurrence (distinct
# LEASEQ_TASK_RUN_AT); only the recurring task is left.  The response times
# (p50/p99) are printed, not asserted.
#
# Output: one "ok - ..." / "not ok - ..." line per check; exit 1 if any failed.
#
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
# The CGI wrapper runs from another directory: an absolute path.
LEASECTL=$(cd "$(dirname "$LEASECTL")" && pwd)/$(basename "$LEASECTL")

LIGHTTPD=$(command -v lighttpd || true)
if [[ -z "$LIGHTTPD" && -x /usr/sbin/lighttpd ]]; then
    LIGHTTPD=/usr/sbin/lighttpd
fi
[[ -n "$LIGHTTPD" ]] || skip_or_fail "lighttpd is not installed"
command -v curl >/dev/null 2>&1 || skip_or_fail "curl is not installed"

# ------------------------------------------------------------------ setup
httpd_pid=""
stop_httpd() {
    if [[ -n "$httpd_pid" ]]; then
        kill -TERM "$httpd_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$httpd_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$httpd_pid" 2>/dev/null || true
        wait "$httpd_pid" 2>/dev/null || true
        httpd_pid=""
    fi
}
cleanup_hooks+=(stop_httpd)
cli_setup web
chmod 755 "$T" # lighttpd may drop privileges; its CGIs write here

# Detached ticks started by the test keep their host lock files here (the
# CGI ticks, whose environment the web server sets, use /tmp).
LOCKDIR="$T/tmp"
mkdir -p "$LOCKDIR"
export TMPDIR="$LOCKDIR"
unset XDG_RUNTIME_DIR

# Everything this run creates is named with this suffix.
Q="web_${RUN_ID}"
RUNNER_LEASE="leaseq:runner:$Q"

echo "# leasectl tick behind lighttpd: backend $backend, queue $Q"

# ------------------------------------------------------------------ helpers
# Wait until no tick of this run holds the runner lease (bounded).
wait_runner_free() { # SECONDS
    local i
    for i in $(seq 1 $(($1 * 10))); do
        run --json lease show "$RUNNER_LEASE"
        if [[ $RC != 0 ]] || [[ "$(json_get "$T/out" held)" == false ]]; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}
# Wait until no detached tick of this run is left (bounded).
ticks_left() {
    pgrep -f -- "tick --queue $Q" 2>/dev/null | wc -l
}
wait_ticks_gone() { # SECONDS
    local i
    for i in $(seq 1 $(($1 * 10))); do
        [[ $(ticks_left) == 0 ]] && return 0
        sleep 0.1
    done
    return 1
}

# ------------------------------------------------------------------ schema
begin; run migrate; want_rc 0
end "migrate: exit 0"

# ------------------------------------------------------------------ the web server
mkdir -p "$T/www/cgi-bin"
# Tallies the handlers append to (short lines: O_APPEND writes are atomic).
JOBS="$T/jobs.tally"
RECS="$T/rec.tally"
ENVF="$T/handler.env"
: >"$JOBS"
: >"$RECS"

# The wrapper script an administrator writes: every flag on its command line,
# the DSN in the environment (not on a command line), the log in a file.
# Nothing of the request is used.
write_wrapper() { # FILE LOG EXTRA-ARGS...
    local f=$1 log=$2 a line=""
    shift 2
    for a in "$@"; do
        line+=" $(sq "$a")"
    done
    {
        echo '#!/bin/sh'
        echo "LEASEQ_DSN=$(sq "$DSN")"
        echo 'export LEASEQ_DSN'
        echo "exec $(sq "$LEASECTL") tick --queue $(sq "$Q") --budget 5s$line 2>>$(sq "$log")"
    } >"$f"
    chmod 755 "$f"
}
write_wrapper "$T/www/cgi-bin/tick" "$T/tick.log" \
    --handler "job=echo \"\$LEASEQ_TASK_ID\" >> $(sq "$JOBS")" \
    --handler "rec=echo \"\$LEASEQ_TASK_RUN_AT\" >> $(sq "$RECS")" \
    --handler "env=env > $(sq "$ENVF")"
# A wrapper with a bad flag: the web server should answer 500.
write_wrapper "$T/www/cgi-bin/bad" "$T/bad.log" --handler "job"

start_httpd() {
    local port code
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        {
            echo "server.document-root = \"$T/www\""
            echo "server.bind = \"127.0.0.1\""
            echo "server.port = $port"
            echo 'server.modules = ("mod_cgi")'
            echo "server.errorlog = \"$T/lighttpd-error.log\""
            echo 'server.max-connections = 1024'
            echo '$HTTP["url"] =~ "^/cgi-bin/" { cgi.assign = ("" => "") }'
            # As root, lighttpd would run the CGIs as root; run them as the
            # owner of the temporary directory instead when that is not root.
            if [[ $(id -u) == 0 && $(stat -c %U "$T") != root ]]; then
                echo "server.username = \"$(stat -c %U "$T")\""
                echo "server.groupname = \"$(stat -c %G "$T")\""
            fi
        } >"$T/lighttpd.conf"
        "$LIGHTTPD" -D -f "$T/lighttpd.conf" </dev/null >>"$T/lighttpd.out" 2>&1 &
        httpd_pid=$!
        for _ in $(seq 1 50); do
            if ! kill -0 "$httpd_pid" 2>/dev/null; then
                break
            fi
            code=$(curl -s -o /dev/null --max-time 2 -w '%{http_code}' "http://127.0.0.1:$port/" 2>/dev/null || true)
            if [[ -n "$code" && "$code" != 000 ]]; then
                BASE="http://127.0.0.1:$port"
                return 0
            fi
            sleep 0.1
        done
        stop_httpd # the port was taken, or it did not start: try another
    done
    return 1
}

begin
if start_httpd; then
    pass "lighttpd with mod_cgi started on 127.0.0.1 ($BASE)"
else
    fail "lighttpd with mod_cgi started on 127.0.0.1" "lighttpd output: $(excerpt "$T/lighttpd.out")" \
        "error log: $(excerpt "$T/lighttpd-error.log")"
    echo "1..$n"
    exit 1
fi

# One page hit: "CODE SECONDS TRIES" on standard output.  A hit that got no
# answer at all (curl's 000: a time-out or a refused connection on a loaded
# machine) is tried again, a bounded number of times: what is checked is that
# every hit is answered 202 in the end, never how fast (under
# ASan and load 40-70 % of the hits missed a 20 s time-out).
cat >"$T/hit.sh" <<'HIT'
#!/usr/bin/env bash
tries=0
while :; do
    tries=$((tries + 1))
    out=$(curl -s -o /dev/null --max-time 120 -w '%{http_code} %{time_total}' "$@" 2>/dev/null || true)
    code=${out%% *}
    if [[ -n "$code" && "$code" != 000 ]] || [[ $tries -ge 5 ]]; then
        break
    fi
    sleep 1
done
echo "${out:-000 0} $tries"
HIT
chmod 755 "$T/hit.sh"
hit_cmd=("$T/hit.sh")

# ------------------------------------------------------------------ bad configuration
begin
code=$("${hit_cmd[@]}" "$BASE/cgi-bin/bad" 2>/dev/null || true)
want "$([[ "${code%% *}" == 500 ]] && echo 1)" "a wrapper with --handler without '=' answered '${code%% *}', expected 500"
grep -q -F -- '--handler' "$T/bad.log" 2>/dev/null || why+=("the reason is not in the wrapper's log: $(excerpt "$T/bad.log")")
LAST_CMD="GET /cgi-bin/bad"
end "CGI with a bad flag in the wrapper: 500, nothing run"

# ------------------------------------------------------------------ the queue
begin
task_ids=()
for i in $(seq 1 100); do
    run --json task add job --queue "$Q" --payload "job-$i"
    if [[ $RC != 0 ]]; then
        why+=("task add $i exited $RC")
        break
    fi
    task_ids+=("$(json_get "$T/out" id)")
done
run --json task add rec --queue "$Q" --every 1s
rec_id=$(json_get "$T/out" id)
[[ $RC == 0 && "$rec_id" =~ ^[0-9]+$ ]] || why+=("task add rec --every 1s exited $RC")
run --json task add env --queue "$Q"
env_id=$(json_get "$T/out" id)
[[ $RC == 0 && "$env_id" =~ ^[0-9]+$ ]] || why+=("task add env exited $RC")
want "$([[ ${#task_ids[@]} == 100 ]] && echo 1)" "only ${#task_ids[@]} tasks were added"
end "100 tasks 'job', a recurring task 'rec' (every 1s) and one 'env' task queued on $Q"

# ------------------------------------------------------------------ 200 concurrent hits
: >"$T/hits"
t0=$(ms_now)
for wave in 1 2 3 4; do
    # The query string and headers are a client's: they must change nothing.
    seq 1 50 | xargs -P 50 -I{} "${hit_cmd[@]}" -H 'X-Evil: $(touch /tmp/leaseq-pwned)' \
        "$BASE/cgi-bin/tick?queue=other&handler=job%3Drm%20-rf%20%2F&n={}" >>"$T/hits" 2>/dev/null &
    bg_pids+=("$!")
    [[ $wave == 4 ]] || sleep 0.7
done
wait "${bg_pids[@]}" 2>/dev/null || true
bg_pids=()
t1=$(ms_now)

begin
nhits=$(lines_of "$T/hits")
n202=$(awk '$1 == 202' "$T/hits" | wc -l)
want "$([[ $nhits == 200 && $n202 == 200 ]] && echo 1)" "$n202 of $nhits hits (of 200) answered 202: $(awk '$1 != 202 {print $1}' "$T/hits" | sort | uniq -c | tr '\n' ' ')"
nretried=$(awk '$3 > 1' "$T/hits" | wc -l)
LAST_CMD="200 x GET /cgi-bin/tick (50 at a time)"
end "200 concurrent page hits: every one answered 202 ($nretried needed more than one try)"

# Response times: printed, not asserted.
sorted=$(awk '{print $2}' "$T/hits" | sort -g)
if [[ -n "$sorted" ]]; then
    cnt=$(wc -l <<<"$sorted")
    p50=$(sed -n "$(((cnt * 50 + 99) / 100))p" <<<"$sorted")
    p99=$(sed -n "$(((cnt * 99 + 99) / 100))p" <<<"$sorted")
    pmax=$(tail -n 1 <<<"$sorted")
    echo "# response time over $cnt hits ($backend): p50 ${p50}s, p99 ${p99}s, max ${pmax}s; the 4 waves took $((t1 - t0)) ms"
fi

# ------------------------------------------------------------------ until the queue is done
begin
# A bound on liveness only (the queue must drain at all), not on speed.
deadline=$((SECONDS + 600))
: >"$T/hits.light"
while :; do
    done_jobs=$(sort -u "$JOBS" | wc -l)
    [[ $done_jobs -ge 100 && -s "$ENVF" ]] && break
    [[ $SECONDS -lt $deadline ]] || break
    "${hit_cmd[@]}" "$BASE/cgi-bin/tick" >>"$T/hits.light" 2>/dev/null || true
    sleep 0.3
done
# A few more occurrences of the recurring task, then let the last tick end.
for _ in 1 2 3 4 5 6; do
    "${hit_cmd[@]}" "$BASE/cgi-bin/tick" >>"$T/hits.light" 2>/dev/null || true
    sleep 0.4
done
wait_runner_free 120 || why+=("the runner lease is still held 120 s after the last hit")
wait_ticks_gone 120 || why+=("$(ticks_left) detached ticks still run 120 s after the last hit")
nlight=$(lines_of "$T/hits.light")
nlight202=$(awk '$1 == 202' "$T/hits.light" | wc -l)
want "$([[ $nlight == "$nlight202" ]] && echo 1)" "$nlight202 of $nlight light hits answered 202"
want "$([[ $(sort -u "$JOBS" | wc -l) -ge 100 ]] && echo 1)" "only $(sort -u "$JOBS" | wc -l) of 100 tasks ran (after $nlight light hits)"
LAST_CMD="GET /cgi-bin/tick every 0.3 s"
end "light hits until the queue is done: all answered 202, the queue done ($nlight hits)"

stop_httpd

begin
for id in "${task_ids[@]}"; do
    c=$(grep -c -x -- "$id" "$JOBS" || true)
    [[ $c == 1 ]] || why+=("task $id ran $c times")
done
total=$(lines_of "$JOBS")
[[ $total == 100 ]] || why+=("$total job runs in the tally, expected 100")
LAST_CMD="(tally of the job handler)"
end "every one of the 100 tasks ran exactly once"

begin
nrec=$(lines_of "$RECS")
nrec_distinct=$(sort -u "$RECS" | wc -l)
want "$([[ $nrec -ge 1 ]] && echo 1)" "the recurring task never ran"
want "$([[ $nrec == "$nrec_distinct" ]] && echo 1)" "$nrec runs of $nrec_distinct distinct occurrences: $(sort "$RECS" | uniq -d | head -n 3 | tr '\n' ' ')"
bad_at=$(grep -c -v -x -E '[0-9]{13}' "$RECS" || true)
want "$([[ $bad_at == 0 ]] && echo 1)" "$bad_at LEASEQ_TASK_RUN_AT values are not epoch ms"
LAST_CMD="(tally of the rec handler)"
end "the recurring task ran once per occurrence ($nrec runs, distinct LEASEQ_TASK_RUN_AT)"

begin
if [[ -s "$ENVF" ]]; then
    for v in QUERY_STRING GATEWAY_INTERFACE HTTP_X_EVIL HTTP_HOST REQUEST_URI REMOTE_ADDR LEASEQ_DSN; do
        if grep -q "^$v=" "$ENVF"; then why+=("the handler saw $v"); fi
    done
    if grep -q -F -- "$DSN" "$ENVF"; then why+=("the DSN is in the handler's environment"); fi
    grep -q "^LEASEQ_TASK_ID=$env_id\$" "$ENVF" || why+=("LEASEQ_TASK_ID is not $env_id")
    grep -q "^PATH=" "$ENVF" || why+=("the handler has no PATH")
else
    why+=("the env task did not run")
fi
[[ ! -e /tmp/leaseq-pwned ]] || why+=("/tmp/leaseq-pwned exists")
LAST_CMD="(environment of a handler run by a CGI tick)"
end "handlers of a CGI tick see no request variables (query string, headers) and no DSN"

begin
run --json task list --queue "$Q"; want_rc 0
left=$(ids "$T/out" | tr '\n' ' ')
want "$([[ "$left" == "$rec_id " ]] && echo 1)" "tasks left in $Q: '$left', expected only the recurring task $rec_id"
run --json task list --queue "$Q" --dead
want "$([[ -z "$(ids "$T/out")" ]] && echo 1)" "dead tasks in $Q: $(ids "$T/out" | tr '\n' ' ')"
end "no task is left in the queue but the recurring one, none dead"

begin
# (Sanitizer reports of an instrumented build land there too.)
err_re='leasectl: |Sanitizer|runtime error'
errs=$(grep -c -E "$err_re" "$T/tick.log" 2>/dev/null || true)
want "$([[ ${errs:-0} == 0 ]] && echo 1)" "the ticks logged $errs errors, e.g. $(grep -m 1 -E "$err_re" "$T/tick.log" || true)"
want "$([[ $(grep -c -E '^tick: ran [1-9]' "$T/tick.log" 2>/dev/null || true) -ge 1 ]] && echo 1)" "no tick logged a run"
LAST_CMD="(the ticks' log, standard error of the wrapper)"
end "the detached ticks logged what they ran, and no error"

# ------------------------------------------------------------------ the cheap path
# Nothing due (the recurring task waits for its next occurrence): paused, so
# that it cannot become due during the check.
begin
run task pause "$rec_id"; want_rc 0
wait_runner_free 120 || why+=("the runner lease is held")
run --json lease show "$RUNNER_LEASE"
tok_before=$(json_get "$T/out" token)
run tick --queue "$Q" --handler 'job=true'
want_rc 0
run --json lease show "$RUNNER_LEASE"
tok_after=$(json_get "$T/out" token)
want "$([[ -n "$tok_before" && "$tok_before" == "$tok_after" ]] && echo 1)" "the runner lease token moved from '$tok_before' to '$tok_after': the tick took the lease with nothing due"
end "tick with nothing due: exit 0 without taking the runner lease (token unchanged)"

begin
run task add job --queue "$Q"
due_id=$(tr -d '[:space:]' <"$T/out")
run lease acquire "$RUNNER_LEASE" --ttl 30s
h=$(cat "$T/out")
want_rc 0
ta=$(ms_now)
run tick --queue "$Q" --handler "job=echo \"\$LEASEQ_TASK_ID\" >> $(sq "$JOBS")"
tb=$(ms_now)
want_rc 75
grep -q -i 'another runner is active' "$T/err" || why+=("stderr does not say another runner is active")
want "$([[ $(grep -c -x -- "$due_id" "$JOBS" || true) == 0 ]] && echo 1)" "the due task ran although the runner lease was held"
end "runner lease held by 'lease acquire $RUNNER_LEASE': tick exits 75 ($((tb - ta)) ms), runs nothing"

begin
run --json tick --queue "$Q" --handler 'job=true'
want_rc 75
[[ "$(json_get "$T/out" stopped)" == held* ]] || why+=("JSON stopped is '$(json_get "$T/out" stopped)'")
run lease release "$h"
[[ $RC == 0 ]] || why+=("release of the runner lease exited $RC")
end "--json tick while held: exit 75, stopped: held"

# A handler that runs longer than the runner lease's TTL (3 s): the tick keeps
# the lease alive, so a second tick stops at the cheap path meanwhile.
begin
QL="${Q}_long"
run task add long --queue "$QL"
run task add quick --queue "$QL"
: >"$T/long.tally"
# The long handler runs until the test opens its gate (bounded), so the
# second tick is sure to come while it runs, however slow the machine.
rm -f "$T/long.gate"
bg longA tick --queue "$QL" \
    --handler "long=echo start >> $(sq "$T/long.tally"); i=0; while [ ! -e $(sq "$T/long.gate") ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i+1)); done; echo end >> $(sq "$T/long.tally")" \
    --handler "quick=echo quick-A >> $(sq "$T/long.tally")"
wait_for_line "$T/long.tally" start 120 || true
sleep 3.5 # past the runner lease's TTL: only the heartbeats keep it
run tick --queue "$QL" --handler "long=echo again >> $(sq "$T/long.tally")" \
    --handler "quick=echo quick-B >> $(sq "$T/long.tally")"
want_rc 75
touch "$T/long.gate"
wait "${bg_pid[longA]}" || true
[[ "$(cat "$T/longA.rc" 2>/dev/null)" == 0 ]] || why+=("the first tick exited $(cat "$T/longA.rc" 2>/dev/null)")
[[ "$(tr '\n' ' ' <"$T/long.tally")" == "start end quick-A " ]] ||
    why+=("handler runs: '$(tr '\n' ' ' <"$T/long.tally")', expected 'start end quick-A'")
end "a handler longer than the runner lease TTL keeps the lease: a second tick 3.5 s in exits 75"

# ------------------------------------------------------------------ --spawn
# The handler cannot end before the test lets it (the gate file): if
# $(leasectl tick --spawn ...) returns while the tally is still empty, the
# detached tick did not hold the caller's output.  Causal, not timed.
begin
: >"$T/spawn.tally"
rm -f "$T/spawn.gate"
ta=$(ms_now)
RC=0
out=$(timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" tick --spawn --queue "$Q" \
    --handler "job=i=0; while [ ! -e $(sq "$T/spawn.gate") ] && [ \$i -lt 3000 ]; do sleep 0.1; i=\$((i+1)); done; echo \"\$LEASEQ_TASK_ID\" >> $(sq "$T/spawn.tally")" 2>"$T/err") || RC=$?
tb=$(ms_now)
LAST_CMD="out=\$(leasectl tick --spawn --queue Q --handler 'job=<wait for the gate>; ...')"
printf '%s' "$out" >"$T/out"
want_rc 0
want "$([[ -z "$out" ]] && echo 1)" "--spawn printed '$out'"
want "$([[ ! -s "$T/spawn.tally" ]] && echo 1)" "\$(leasectl tick --spawn ...) returned only after the handler had ended"
touch "$T/spawn.gate"
wait_for_file "$T/spawn.tally" 120 || true
want "$([[ "$(cat "$T/spawn.tally")" == "$due_id" ]] && echo 1)" "the spawned tick did not run task $due_id (tally: $(excerpt "$T/spawn.tally"))"
end "tick --spawn returns 0 while its handler still runs ($((tb - ta)) ms); the detached tick runs the task"

# A burst of hits must not become a burst of connections: while one detached
# tick of this host runs the queue, a further one ends without connecting
# and runs nothing.  The test holds that tick's host lock itself (flock on
# the lock file the --spawn above left in $TMPDIR), so this is causal.
begin
lockfs=("$LOCKDIR"/leaseq-tick-*.lock)
if [[ ${#lockfs[@]} != 1 || ! -f "${lockfs[0]}" ]]; then
    why+=("expected one tick lock file in \$TMPDIR after --spawn, found: ${lockfs[*]}")
else
    run task add job --queue "$Q"
    co_id=$(tr -d '[:space:]' <"$T/out")
    exec {lockfd}>>"${lockfs[0]}"
    flock -w 60 "$lockfd" || why+=("the test could not take the tick lock")
    for _ in 1 2 3; do
        RC=0
        timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" tick --queue "$Q" --spawn \
            --handler "job=echo \"\$LEASEQ_TASK_ID\" >> $(sq "$T/co.tally")" >"$T/out" 2>>"$T/co.log" || RC=$?
        want_rc 0
    done
    wait_ticks_gone 60 || why+=("the coalesced ticks did not end")
    [[ ! -s "$T/co.tally" ]] || why+=("a tick ran a task while another detached tick held the host lock: $(excerpt "$T/co.tally")")
    [[ ! -s "$T/co.log" ]] || why+=("the coalesced ticks logged: $(excerpt "$T/co.log")")
    exec {lockfd}>&-
    RC=0
    timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" tick --queue "$Q" --spawn \
        --handler "job=echo \"\$LEASEQ_TASK_ID\" >> $(sq "$T/co.tally")" >"$T/out" 2>>"$T/co.log" || RC=$?
    want_rc 0
    wait_for_file "$T/co.tally" 120 || true
    want "$([[ "$(cat "$T/co.tally" 2>/dev/null)" == "$co_id" ]] && echo 1)" "once the lock was free, the spawned tick did not run task $co_id (tally: $(excerpt "$T/co.tally"))"
fi
LAST_CMD="leasectl tick --queue Q --spawn (x3 while the host lock is held, then once more)"
end "detached ticks coalesce per host: while one holds the queue's host lock, others end without running anything"

begin; run tick --spawn --queue "$Q" --handler job; want_rc 64
want "$([[ $(lines_of "$T/err") == 1 ]] && echo 1)" "stderr should be one line"
end "tick --spawn with a handler without '=': exit 64 at once"

begin; run tick --spawn --queue "" ; want_rc 64
end "tick --spawn with an empty queue name: exit 64"

begin; run tick --spawn --no-cgi --queue "$Q"; want_rc 64
end "tick --spawn --no-cgi: exit 64"

# GATEWAY_INTERFACE in the environment without a web server: the CGI answer
# on standard output, the tick detached.
begin
run task add job --queue "$Q"
cgi_id=$(tr -d '[:space:]' <"$T/out")
RC=0
GATEWAY_INTERFACE=CGI/1.1 QUERY_STRING='queue=x' timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" tick --queue "$Q" \
    --handler "job=echo \"\$LEASEQ_TASK_ID\" >> $(sq "$T/cgi.tally")" </dev/null >"$T/out" 2>"$T/err" || RC=$?
LAST_CMD="GATEWAY_INTERFACE=CGI/1.1 leasectl tick --queue Q --handler job=..."
want_rc 0
printf 'Status: 202 Accepted\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n\r\ntick accepted\n' >"$T/cgi.expected"
cmp -s "$T/out" "$T/cgi.expected" || why+=("the CGI answer is not the expected 202 document")
wait_for_file "$T/cgi.tally" 120 || true
want "$([[ "$(cat "$T/cgi.tally" 2>/dev/null)" == "$cgi_id" ]] && echo 1)" "the CGI tick did not run task $cgi_id"
end "GATEWAY_INTERFACE set: 'Status: 202' + headers + body on stdout, exit 0, the tick runs detached"

begin
RC=0
GATEWAY_INTERFACE=CGI/1.1 timeout -k 5 "$TMO" "$LEASECTL" --db "$DSN" tick --no-cgi --queue "$Q" \
    --handler 'job=true' </dev/null >"$T/out" 2>"$T/err" || RC=$?
LAST_CMD="GATEWAY_INTERFACE=CGI/1.1 leasectl tick --no-cgi"
want_rc 0
want_out_empty
grep -q '^tick: ' "$T/err" || why+=("no report on stderr")
end "GATEWAY_INTERFACE set with --no-cgi: an ordinary tick"

# ------------------------------------------------------------------ tidy up
wait_ticks_gone 120 || true
run task rm "$rec_id" || true
run --json task list --queue "$Q"
for id in $(ids "$T/out"); do
    run task rm "$id" || true
done

show_logs() { # after a failure: what the ticks and lighttpd logged
    local f
    for f in tick.log lighttpd-error.log; do
        if [[ -s "$T/$f" ]]; then
            echo "# $f: $(excerpt "$T/$f")"
        fi
    done
}
failure_hooks+=(show_logs)
finish
