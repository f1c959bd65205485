#!/usr/bin/env bash
# tests/cli_serve.sh BACKEND - `leasectl serve`:
# /healthz, /metrics in the Prometheus text format with the counts the
# database holds and the counters of runs and leases, the read-only dashboard (names HTML-escaped, the numbers of
# a queue, and loaded by headless Chromium, whose totals must be the
# database's), GET/HEAD only, 404 elsewhere, no password shown, 503 from
# /healthz while the database is unreachable, SIGTERM stops it; with
# --allow-actions and a secret: each refusal (no secret, no or wrong form
# token, cross-origin) changes nothing, each action acts (cancel stops a
# running worker's handler, also an at-most-once one's, whose row the
# running table lists and whose cancel button Chromium presses), and a
# foreign page in Chromium cannot act;
# --log-format json.
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

# start_serve DSN [SERVE-ARGS] and stop_serve: tests/lib/cli.sh.
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
bad_lines=$(grep -v -E '^(# (HELP|TYPE) [a-z_]+ .*|[a-z_]+(\{queue="([^"\\]|\\.)*"(,name="([^"\\]|\\.)*"(,id="[0-9]+")?)?\})? -?[0-9.]+)$' "$T/body" || true)
[[ -z "$bad_lines" ]] || why+=("lines not in the text format: $(head -2 <<<"$bad_lines" | tr '\n' '|')")
end "/metrics: leaseq_up 1, the queue's live and due counts, labels escaped, every line in the text format"

begin
get /
[[ $CODE == 200 ]] || why+=("/ answered $CODE")
grep -q '<table id=queues>' "$T/body" || why+=("no queues table")
grep -q -F "<td>$Q</td><td>active</td><td class=n>4</td><td class=n>3</td><td class=n>0</td><td class=n>1</td><td class=n>0</td>" "$T/body" ||
    why+=("the dashboard's row for $Q does not say 4 tasks, 3 due, 0 dead, 1 waiting, 0 running")
grep -q -F '<script>' "$T/body" && why+=("a name reached the page unescaped")
grep -q -F 'srv&lt;i&gt;&amp;&quot;' "$T/body" || why+=("the queue name is not HTML-escaped")
grep -q 'http-equiv=refresh' "$T/body" || why+=("the page does not refresh itself")
[[ -n "$PASSWORD" ]] && grep -q -F -- "$PASSWORD" "$T/body" "$T/serve.err" && why+=("the password was shown")
end "dashboard: the queue's numbers (tasks, due, dead, waiting, running), names HTML-escaped, refreshes itself, no password"

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
        shown=$(sed -n "s#.*<span id=\"$k\">\([0-9]*\)</span>.*#\1#p" "$T/dom.html" | sed -n 1p)
        want_n=$(py -c "import json,sys; print(json.load(open(sys.argv[1]))['tasks']['$k'])" "$T/out" 2>/dev/null ||
            sed -n "s/.*\"$k\": \([0-9]*\).*/\1/p" "$T/out" | sed -n 1p)
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

# Counters: runs per queue and name from the history's
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

# ---------------------------------------------------------------- actions
begin
run serve --listen 127.0.0.1:0 --allow-actions; want_rc 64; want_err_line; want_err 'secret-file'
printf 'short\n' >"$T/short.secret"
run serve --listen 127.0.0.1:0 --allow-actions --secret-file "$T/short.secret"; want_rc 64; want_err_line; want_err '16 characters'
run serve --listen 127.0.0.1:0 --secret-file "$T/short.secret"; want_rc 64; want_err_line
end "--allow-actions without a secret file, with a short secret, or a secret without --allow-actions: exit 64, one line"

# A dead task, a held lease and a queue to act on.
QA="srv_act_${RUN_ID}"
LA="srv_lease_${RUN_ID}"
run task add srv_fails --queue "$QA" --max-attempts 1
run worker --queue "$QA" --drain --handler 'srv_fails=exit 1'
run --json task list --queue "$QA" --dead
DEAD_ID=$(ids "$T/out" | sed -n 1p)
run lease acquire "$LA" --ttl 10m
SECRET="srv-dashboard-secret-${RUN_ID}"
(umask 077; printf '%s\n' "$SECRET" >"$T/secret")
dead_state() { run --json task show "$DEAD_ID"; json_get "$T/out" dead; }
queue_paused() { run --json queue list; py -c "import json,sys; d=json.load(open(sys.argv[1])); print([q['paused'] for q in (d if isinstance(d,list) else d.get('queues',[])) if q['name']==sys.argv[2]])" "$T/out" "$QA"; }

begin
# Still read-only without the flag: no buttons, and a well-formed action is 405.
start_serve "$DSN" || why+=("serve did not start: $(excerpt "$T/serve.err")")
get /
grep -q '<form' "$T/body" && why+=("the read-only dashboard shows action forms")
grep -q 'id=mode>read-only<' "$T/body" || why+=("the dashboard does not say read-only")
get /action -X POST -u "x:$SECRET" --data "action=retry&target=$DEAD_ID&csrf=x"
[[ $CODE == 405 ]] || why+=("POST /action without --allow-actions answered $CODE, expected 405")
[[ -n "$DEAD_ID" && "$(dead_state)" == true ]] || why+=("task $DEAD_ID is not dead any more (or never was)")
stop_serve; wait "$spid" 2>/dev/null || true; spid=""
end "without --allow-actions: no buttons, POST /action 405, nothing changed"


begin
start_serve "$DSN" --allow-actions --secret-file "$T/secret" || why+=("serve --allow-actions did not start: $(excerpt "$T/serve.err")")
get /
CSRF=$(sed -n 's#.*name=csrf value=\([0-9a-f]*\)>.*#\1#p' "$T/body" | sed -n 1p)
[[ ${#CSRF} == 64 ]] || why+=("no form token on the page")
grep -q "name=target value=\"$DEAD_ID\"><button type=submit>retry" "$T/body" || why+=("no retry button for dead task $DEAD_ID")
grep -q -F "name=target value=\"$LA\"><button type=submit>break" "$T/body" || why+=("no break button for lease $LA")
grep -q -F "$SECRET" "$T/body" && why+=("the secret is on the page")
end "--allow-actions: the page carries a form token and a button per dead task, queue and held lease"

begin
get /action -X POST --data "action=retry&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 401 ]] || why+=("no secret: $CODE, expected 401")
get /action -X POST -u "x:wrong-secret-wrong-secret" --data "action=retry&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 401 ]] || why+=("wrong secret: $CODE, expected 401")
get /action -X POST -u "x:$SECRET" --data "action=retry&target=$DEAD_ID"
[[ $CODE == 403 ]] || why+=("no form token: $CODE, expected 403")
WRONG=${CSRF%?}$([[ ${CSRF: -1} == 0 ]] && echo 1 || echo 0) # differs in its last digit
get /action -X POST -u "x:$SECRET" --data "action=retry&target=$DEAD_ID&csrf=$WRONG"
[[ $CODE == 403 ]] || why+=("wrong form token: $CODE, expected 403")
get /action -X POST -u "x:$SECRET" -H 'Origin: http://evil.example' --data "action=retry&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 403 ]] || why+=("cross-origin post: $CODE, expected 403")
get /action -X POST -u "x:$SECRET" -H 'Content-Type: text/plain' --data "action=retry&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 415 ]] || why+=("text/plain post: $CODE, expected 415")
get /action -X POST -u "x:$SECRET" --data "action=drop&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 400 ]] || why+=("unknown action: $CODE, expected 400")
[[ "$(dead_state)" == true ]] || why+=("a refused action changed task $DEAD_ID")
grep -q 'action refused' "$T/serve.err" || why+=("refusals are not logged")
end "actions refused without the secret, without or with a wrong form token, cross-origin, not a form, unknown: nothing changed"

begin
get /action -X POST -u "x:$SECRET" -H "Origin: http://127.0.0.1:$PORT" --data "action=retry&target=$DEAD_ID&csrf=$CSRF"
[[ $CODE == 303 ]] || why+=("retry: $CODE $(excerpt "$T/body"), expected 303")
[[ "$(dead_state)" == false ]] || why+=("task $DEAD_ID is still dead after retry")
get /action -X POST -u "x:$SECRET" --data "action=pause&target=$QA&csrf=$CSRF"
[[ $CODE == 303 ]] || why+=("pause: $CODE")
[[ "$(queue_paused)" == "[True]" ]] || why+=("queue $QA not paused: $(queue_paused)")
get /action -X POST -u "x:$SECRET" --data "action=resume&target=$QA&csrf=$CSRF"
[[ "$(queue_paused)" == "[False]" ]] || why+=("queue $QA not resumed: $(queue_paused)")
get /action -X POST -u "x:$SECRET" --data "action=break&target=$LA&csrf=$CSRF"
[[ $CODE == 303 ]] || why+=("break: $CODE")
run --json lease show "$LA"
[[ "$(json_get "$T/out" held)" == false ]] || why+=("lease $LA still held after break")
get /action -X POST -u "x:$SECRET" --data "action=retry&target=999999999&csrf=$CSRF"
[[ $CODE == 404 ]] || why+=("retry of an unknown task: $CODE, expected 404")
grep -q "task $DEAD_ID retried" "$T/serve.err" || why+=("the retry is not logged")
end "with the secret and the form token: retry, pause, resume and break act (303 back to /), each logged; an unknown task is 404"

# A task an at-least-once worker is running: the dashboard lists it with a
# cancel button (Chromium shows it too); the cancel passes the same checks
# and revokes the claim, so the worker stops the handler.
# (A 3 s claim: a heartbeat late on a loaded machine must not lose it.)
begin
QC="srv_cancel_${RUN_ID}"
CMARK="$$${RANDOM}"
run --json task add srv_long --queue "$QC"
RUN_TASK=$(json_get "$T/out" id)
bg cw worker --queue "$QC" --drain --at-least-once --claim-ttl 3s \
    --handler "srv_long=echo \$\$ > $T/srv_long.pid; sleep 3$CMARK"
wait_for_file "$T/srv_long.pid" 20 || why+=("the handler did not start")
get /
grep -q "<table id=running>" "$T/body" || why+=("no running tasks table")
grep -q "name=action value=cancel><input type=hidden name=target value=\"$RUN_TASK\"><button type=submit>cancel" "$T/body" ||
    why+=("no cancel button for running task $RUN_TASK")
if [[ -n "${CHROMIUM:-}" ]]; then
    timeout -k 5 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$T/chromium4" --dump-dom "http://127.0.0.1:$PORT/" >"$T/dom4.html" 2>/dev/null ||
        why+=("chromium could not load the dashboard with a running task")
    grep -q '<table id="running">' "$T/dom4.html" || why+=("no running tasks table in the browser's page")
    grep -q '<button type="submit">cancel</button>' "$T/dom4.html" || why+=("the browser shows no cancel button")
fi
get /action -X POST --data "action=cancel&target=$RUN_TASK&csrf=$CSRF"
[[ $CODE == 401 ]] || why+=("cancel without the secret: $CODE, expected 401")
get /action -X POST -u "x:$SECRET" --data "action=cancel&target=$RUN_TASK"
[[ $CODE == 403 ]] || why+=("cancel without the form token: $CODE, expected 403")
get /action -X POST -u "x:$SECRET" -H 'Origin: http://evil.example' --data "action=cancel&target=$RUN_TASK&csrf=$CSRF"
[[ $CODE == 403 ]] || why+=("cross-origin cancel: $CODE, expected 403")
run task show "$RUN_TASK"
[[ $RC == 0 ]] || why+=("a refused cancel removed task $RUN_TASK")
get /action -X POST -u "x:$SECRET" -H "Origin: http://127.0.0.1:$PORT" --data "action=cancel&target=$RUN_TASK&csrf=$CSRF"
[[ $CODE == 303 ]] || why+=("cancel: $CODE $(excerpt "$T/body"), expected 303")
grep -q "task $RUN_TASK cancelled" "$T/serve.err" || why+=("the cancel is not logged")
bg_wait cw
[[ $RC == 0 ]] || why+=("the worker exited $RC")
grep -q "task $RUN_TASK \"srv_long\" cancelled" "$T/err" || why+=("the worker did not stop the cancelled task: $(excerpt "$T/err")")
left=$( (pgrep -f "sleep 3$CMARK" || true) | wc -l)
[[ $left == 0 ]] || why+=("the cancelled handler still runs")
run --json task history "$RUN_TASK"
[[ "$(json_get "$T/out" outcome)" == cancelled ]] || why+=("history: $(excerpt "$T/out")")
get /action -X POST -u "x:$SECRET" --data "action=cancel&target=$RUN_TASK&csrf=$CSRF"
[[ $CODE == 404 ]] || why+=("a second cancel: $CODE, expected 404")
get /action -X POST -u "x:$SECRET" --data "action=cancel&target=abc&csrf=$CSRF"
[[ $CODE == 400 ]] || why+=("cancel of a bad id: $CODE, expected 400")
end "dashboard cancel: a running task has a cancel button (also in Chromium); refused without secret, token or origin; then the worker stops it, history says cancelled; again 404"

# A task a default (at-most-once) worker is running: its claim deleted the
# task row, but the run's mark puts it in the running table (worker, start,
# cancel button); Chromium presses that button (the same POST, form token
# and origin checks), the worker stops the handler, the history says
# cancelled, and the row is gone.
begin
run --json task add srv_amo --queue "$QC"
AMO_TASK=$(json_get "$T/out" id)
bg aw worker --queue "$QC" --drain --handler "srv_amo=echo \$\$ > $T/srv_amo.pid; sleep 3$CMARK.7"
wait_for_file "$T/srv_amo.pid" 20 || why+=("the at-most-once handler did not start")
get /
row=$(sed -n '/<table id=running>/,/<\/table>/p' "$T/body" | grep -F "<tr><td class=n>$AMO_TASK</td>" || true)
[[ -n "$row" ]] || why+=("the running table does not list the at-most-once run $AMO_TASK")
grep -q -F "<td>srv_amo</td>" <<<"$row" || why+=("the run's row has not its name: $row")
# The worker's claim, then two times: since when it runs, until when.
grep -q -E '<td>[^<]+</td><td>[0-9]{4}-[0-9]{2}-[0-9]{2}T[^<]*</td><td>[0-9]{4}-[0-9]{2}-[0-9]{2}T' <<<"$row" ||
    why+=("the run's row has no worker and start: $row")
grep -q "name=target value=\"$AMO_TASK\"><button type=submit>cancel" <<<"$row" ||
    why+=("no cancel button for the at-most-once run $AMO_TASK")
if [[ -n "${CHROMIUM:-}" ]]; then
    timeout -k 5 90 "$PYTHON" -I -S "$(dirname "${BASH_SOURCE[0]}")/lib/dashboard_click.py" "$CHROMIUM" \
        "http://x:$SECRET@127.0.0.1:$PORT/" "$AMO_TASK" "$T/chromium6" >"$T/click.out" 2>&1 ||
        why+=("chromium could not press the cancel button: $(excerpt "$T/click.out")")
else
    get /action -X POST -u "x:$SECRET" -H "Origin: http://127.0.0.1:$PORT" --data "action=cancel&target=$AMO_TASK&csrf=$CSRF"
    [[ $CODE == 303 ]] || why+=("cancel: $CODE $(excerpt "$T/body"), expected 303")
fi
grep -q "task $AMO_TASK cancelled" "$T/serve.err" || why+=("the cancel did not reach serve: $(excerpt "$T/serve.err")")
bg_wait aw
[[ $RC == 0 ]] || why+=("the at-most-once worker exited $RC")
grep -q "task $AMO_TASK \"srv_amo\" cancelled" "$T/err" ||
    why+=("the worker did not stop the cancelled run: $(excerpt "$T/err")")
left=$( (pgrep -f "sleep 3$CMARK.7" || true) | wc -l)
[[ $left == 0 ]] || why+=("the cancelled handler still runs")
run --json task history "$AMO_TASK"
[[ "$(json_get "$T/out" outcome)" == cancelled ]] || why+=("history: $(excerpt "$T/out")")
get /
sed -n '/<table id=running>/,/<\/table>/p' "$T/body" | grep -q -F "<tr><td class=n>$AMO_TASK</td>" &&
    why+=("the cancelled run is still in the running table")
end "dashboard cancel of an at-most-once run: listed with worker and start; Chromium's press of its cancel button stops the handler; history says cancelled"

# A real browser: the page another site serves cannot act through the
# dashboard, even with the secret in the URL (Chromium sends Origin: null
# or strips the credentials, and it has no form token).
begin
if [[ -n "${CHROMIUM:-}" ]]; then
    run task add srv_fails --queue "$QA" --max-attempts 1
    cat >"$T/evil.html" <<EVIL
<!doctype html><form id=f method=post action="http://x:$SECRET@127.0.0.1:$PORT/action">
<input name=action value=pause><input name=target value="$QA"></form>
<script>document.getElementById('f').submit()</script>
EVIL
    timeout -k 5 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$T/chromium2" --virtual-time-budget=3000 --dump-dom "file://$T/evil.html" >/dev/null 2>&1 || true
    [[ "$(queue_paused)" == "[False]" ]] || why+=("a foreign page paused queue $QA through the browser")
    timeout -k 5 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$T/chromium3" --dump-dom "http://127.0.0.1:$PORT/" >"$T/dom2.html" 2>/dev/null ||
        why+=("chromium could not load the dashboard with actions")
    grep -q 'actions allowed' "$T/dom2.html" || why+=("the browser's page does not say actions are allowed")
    grep -q '<button type="submit">pause</button>' "$T/dom2.html" || why+=("the browser shows no pause button")
    grep -q '<table id="schedules">' "$T/dom2.html" || why+=("no schedules table in the browser's page")
fi
end "browser: a foreign page's form post changes nothing; the dashboard shows its buttons"
stop_serve; wait "$spid" 2>/dev/null || true; spid=""

begin
run --json task add srv_tick --queue "$QA" --every 1h
run task retry "$(json_get "$T/out" id)" # due now: its first run is an interval away
run worker --queue "$QA" --drain --handler 'srv_tick=true' --handler 'srv_fails=exit 1'
run serve --log-format yaml
want_rc 64; want_err_line
: >"$T/serve.err"
"$LEASECTL" --db "$DSN" serve --listen 127.0.0.1:0 --log-format json 2>"$T/serve.err" &
spid=$!
for _ in $(seq 1 100); do grep -q '"event": *"listening"' "$T/serve.err" && break; sleep 0.1; done
PORT=$(sed -n 's#.*"message": *"http://127.0.0.1:\([0-9]*\)/".*#\1#p' "$T/serve.err" | sed -n 1p)
[[ -n "$PORT" ]] || why+=("no JSON 'listening' line: $(excerpt "$T/serve.err")")
get /
grep -q -F '<td>srv_tick</td><td>every 1h</td>' "$T/body" || why+=("the recurring task is not in the schedules table")
grep -q -E '<td>srv_tick</td><td>every 1h</td><td></td><td>[^<]*</td><td>done, ' "$T/body" ||
    why+=("the schedules table does not show the recurring task's last run: $(grep -o '<td>srv_tick</td>.\{0,200\}' "$T/body" | sed -n 1p)")
stop_serve; wait "$spid" 2>/dev/null || true; spid=""
py -c '
import json,sys
lines=[l for l in open(sys.argv[1]) if l.strip()]
assert lines, "no log"
for l in lines: json.loads(l)
assert json.loads(lines[-1])["event"]=="stopped", lines[-1]
' "$T/serve.err" 2>"$T/py.err" || why+=("serve --log-format json: $(excerpt "$T/py.err")")
end "serve --log-format yaml: exit 64; --log-format json: every line a JSON object (listening, stopped); the schedules table lists a recurring task with its last run"

run task list --queue "$Q"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
run task list --queue "$QX"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
for state in "" --dead; do
    run task list --queue "$QA" $state
    for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
done
run task list --dead --queue "$QC"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
