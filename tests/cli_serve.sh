#!/usr/bin/env bash
# tests/cli_serve.sh BACKEND - `leasectl serve` (issue 10, Deliver 4):
# /healthz, /metrics in the Prometheus text format with the counts the
# database holds and the counters of runs and leases, the read-only dashboard (names HTML-escaped, the numbers of
# a queue, and loaded by headless Chromium, whose totals must be the
# database's), GET/HEAD only, 404 elsewhere, no password shown, 503 from
# /healthz while the database is unreachable, SIGTERM stops it.
# Run by ctest as `bash tests/cli_serve.sh <backend>` with LEASECTL=<path>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup serve
command -v curl >/dev/null 2>&1 || skip_or_fail "curl is not installed"
echo "# leasectl serve: backend $backend"
Q="srv_${RUN_ID}"
QX="srv<i>&\"${RUN_ID}"

spid=""
stop_serve() { [[ -n "$spid" ]] && kill -TERM "$spid" 2>/dev/null || true; }
cleanup_hooks+=(stop_serve)

# start_serve DSN: PORT and spid set (bounded wait for the listening line).
start_serve() {
    : >"$T/serve.err"
    "$LEASECTL" --db "$1" serve --listen 127.0.0.1:0 2>"$T/serve.err" &
    spid=$!
    PORT=""
    for _ in $(seq 1 100); do
        PORT=$(sed -n 's#^serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$T/serve.err")
        [[ -n "$PORT" ]] && return 0
        kill -0 "$spid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
get() { # PATH [curl args]: status in CODE, body in $T/body
    local p=$1
    shift
    CODE=$(curl -s -o "$T/body" -w '%{http_code}' --max-time 30 "$@" "http://127.0.0.1:$PORT$p" || echo 000)
}

begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
for i in 1 2 3; do run task add "srv_job" --queue "$Q"; done
run task add "srv_later" --queue "$Q" --in 1h
run task add '<script>alert(1)</script>' --queue "$QX"
if start_serve "$DSN"; then
    get /healthz
    [[ $CODE == 200 && "$(cat "$T/body")" == ok ]] || why+=("/healthz: $CODE $(excerpt "$T/body")")
else
    why+=("serve did not start: $(excerpt "$T/serve.err")")
fi
end "serve --listen 127.0.0.1:0: prints its port; /healthz answers 200 ok"

begin
get /metrics
[[ $CODE == 200 ]] || why+=("/metrics answered $CODE")
grep -q -x 'leaseq_up 1' "$T/body" || why+=("no 'leaseq_up 1'")
grep -q -x "leaseq_queue_tasks{queue=\"$Q\"} 4" "$T/body" || why+=("no leaseq_queue_tasks 4 for $Q: $(grep "$Q" "$T/body" | head -3 | tr '\n' '|')")
grep -q -x "leaseq_queue_due{queue=\"$Q\"} 3" "$T/body" || why+=("no leaseq_queue_due 3 for $Q")
grep -q -F "leaseq_queue_tasks{queue=\"srv<i>&\\\"${RUN_ID}\"} 1" "$T/body" || why+=("the queue name with a quote is not escaped as Prometheus wants")
bad_lines=$(grep -v -E '^(# (HELP|TYPE) [a-z_]+ .*|[a-z_]+(\{queue="([^"\\]|\\.)*"(,name="([^"\\]|\\.)*")?\})? -?[0-9.]+)$' "$T/body" || true)
[[ -z "$bad_lines" ]] || why+=("lines not in the text format: $(head -2 <<<"$bad_lines" | tr '\n' '|')")
end "/metrics: leaseq_up 1, the queue's live and due counts, labels escaped, every line in the text format"

begin
get /
[[ $CODE == 200 ]] || why+=("/ answered $CODE")
grep -q '<table id=queues>' "$T/body" || why+=("no queues table")
grep -q -F "<td>$Q</td><td>active</td><td class=n>4</td><td class=n>3</td><td class=n>0</td>" "$T/body" ||
    why+=("the dashboard's row for $Q does not say 4 tasks, 3 due, 0 dead")
grep -q -F '<script>' "$T/body" && why+=("a name reached the page unescaped")
grep -q -F 'srv&lt;i&gt;&amp;&quot;' "$T/body" || why+=("the queue name is not HTML-escaped")
grep -q 'http-equiv=refresh' "$T/body" || why+=("the page does not refresh itself")
[[ -n "$PASSWORD" ]] && grep -q -F -- "$PASSWORD" "$T/body" "$T/serve.err" && why+=("the password was shown")
end "dashboard: the queue's numbers, names HTML-escaped, refreshes itself, no password"

# A real browser: headless Chromium loads the page; the numbers it shows are
# the database's (leasectl stats --json, read right after).
begin
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$CHROMIUM" ]]; then
    if [[ -n "${LEASEQ_REQUIRE_ALL_BACKENDS:-}" ]]; then why+=("chromium is not installed"); else echo "# chromium missing: browser check skipped"; fi
else
    timeout -k 5 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$T/chromium" --dump-dom "http://127.0.0.1:$PORT/" >"$T/dom.html" 2>"$T/chromium.err" ||
        why+=("chromium failed: $(grep -v -i dbus "$T/chromium.err" | head -2 | tr '\n' '|')")
    run --json stats
    for k in live due dead; do
        shown=$(sed -n "s#.*<span id=\"$k\">\([0-9]*\)</span>.*#\1#p" "$T/dom.html" | head -1)
        want_n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tasks']['$k'])" "$T/out" 2>/dev/null ||
            sed -n "s/.*\"$k\": \([0-9]*\).*/\1/p" "$T/out" | head -1)
        [[ -n "$shown" && "$shown" == "$want_n" ]] || why+=("the browser shows $k='$shown', the database says '$want_n'")
    done
    grep -q -F "<td>$Q</td><td>active</td><td class=\"n\">4</td><td class=\"n\">3</td>" "$T/dom.html" ||
        why+=("the browser's queue row for $Q does not say 4 tasks, 3 due")
    grep -q -F '<script>alert' "$T/dom.html" && why+=("the browser parsed a name as a script")
fi
LAST_CMD="chromium --headless --dump-dom http://127.0.0.1:PORT/"
end "headless Chromium loads the dashboard: its totals and the queue's row match the database"

begin
get / -X POST
[[ $CODE == 405 ]] || why+=("POST / answered $CODE, expected 405")
get /metrics -X DELETE
[[ $CODE == 405 ]] || why+=("DELETE /metrics answered $CODE")
get /nope
[[ $CODE == 404 ]] || why+=("/nope answered $CODE")
get /metrics -I
[[ $CODE == 200 ]] || why+=("HEAD /metrics answered $CODE")
end "read-only: POST and DELETE 405, unknown paths 404, HEAD 200"

# Counters (issue 10 item 4): runs per queue and name from the history's
# counters, leases taken / lost / broken; read again after running tasks.
metric() { # NAME LABELS: the value of that sample in $T/body ("" if none)
    awk -v k="$1$2" '$1 == k { print $2; exit }' "$T/body"
}
begin
QC="srvc_${RUN_ID}"
L="srv_lease_${RUN_ID}"
get /metrics
taken0=$(metric leaseq_leases_taken_total "")
broken0=$(metric leaseq_leases_broken_total "")
for c in completed failed timed_out dead; do
    grep -q -x "# TYPE leaseq_tasks_${c}_total counter" "$T/body" || why+=("no TYPE line for leaseq_tasks_${c}_total")
done
for c in taken lost broken; do
    grep -q -x "# TYPE leaseq_leases_${c}_total counter" "$T/body" || why+=("no TYPE line for leaseq_leases_${c}_total")
done
grep -q -x "leaseq_queue_count_cap 10000" "$T/body" || why+=("no leaseq_queue_count_cap")
run task add ok --queue "$QC"
run task add ok --queue "$QC"
run task add bad --queue "$QC" --max-attempts 1
run worker --queue "$QC" --drain --at-least-once --handler ok=true --handler 'bad=exit 7'
run lease acquire "$L" --ttl 30s
run lease break "$L"
get /metrics
lbl="{queue=\"$QC\",name=\"ok\"}"
[[ "$(metric leaseq_tasks_completed_total "$lbl")" == 2 ]] || why+=("completed for ok: '$(metric leaseq_tasks_completed_total "$lbl")', expected 2")
[[ "$(metric leaseq_tasks_failed_total "$lbl")" == 0 ]] || why+=("failed for ok is not 0")
lbl="{queue=\"$QC\",name=\"bad\"}"
[[ "$(metric leaseq_tasks_failed_total "$lbl")" == 1 ]] || why+=("failed for bad: '$(metric leaseq_tasks_failed_total "$lbl")', expected 1")
[[ "$(metric leaseq_tasks_dead_total "$lbl")" == 1 ]] || why+=("dead for bad: '$(metric leaseq_tasks_dead_total "$lbl")', expected 1")
[[ "$(metric leaseq_tasks_completed_total "$lbl")" == 0 ]] || why+=("completed for bad is not 0")
taken1=$(metric leaseq_leases_taken_total "")
broken1=$(metric leaseq_leases_broken_total "")
[[ "$taken0" =~ ^[0-9]+$ && "$taken1" =~ ^[0-9]+$ ]] && (( taken1 >= taken0 + 1 )) || why+=("leases taken went from '$taken0' to '$taken1'")
[[ "$broken0" =~ ^[0-9]+$ && "$broken1" =~ ^[0-9]+$ ]] && (( broken1 >= broken0 + 1 )) || why+=("leases broken went from '$broken0' to '$broken1'")
end "/metrics counters: runs completed, failed and dead per queue and name; leases taken and broken grow"

begin
kill -TERM "$spid"
RC=0
for _ in $(seq 1 100); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$spid" 2>/dev/null; then why+=("serve still runs 10 s after SIGTERM"); kill -KILL "$spid"; fi
wait "$spid" || RC=$?
spid=""
want "$([[ $RC == 0 ]] && echo 1)" "serve exited $RC after SIGTERM"
end "SIGTERM: serve stops, exit 0"

begin
BAD=$(unreachable_dsn srv_secret_pw)
if start_serve "$BAD"; then
    get /healthz
    [[ $CODE == 503 ]] || why+=("/healthz answered $CODE with the database unreachable, expected 503")
    grep -q -F srv_secret_pw "$T/body" && why+=("the password is in /healthz")
    get /metrics
    [[ $CODE == 200 ]] && grep -q -x 'leaseq_up 0' "$T/body" || why+=("/metrics: $CODE, no 'leaseq_up 0'")
    stop_serve
    wait "$spid" 2>/dev/null || true
    spid=""
else
    why+=("serve did not start with an unreachable database: $(excerpt "$T/serve.err")")
fi
end "database unreachable: serve runs, /healthz 503, /metrics leaseq_up 0, no password"

begin; run serve --listen nowhere:80; want_rc 64; want_err_line
end "serve --listen with a host that is not an IP address: exit 64, one line"

run task list --queue "$Q"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
run task list --queue "$QX"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
run task list --dead --queue "$QC"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
