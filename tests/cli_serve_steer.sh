#!/usr/bin/env bash
# tests/cli_serve_steer.sh BACKEND - the dashboard's actions on a schedule
# (`serve --allow-actions`): "run now" and pause/resume buttons per
# recurring task; behind the secret and the form token like the other
# actions (a refusal changes nothing); run now makes one extra occurrence
# due and leaves the schedule where it was, a second one is 409; pause and
# resume act; a headless Chromium shows the buttons.  Run by ctest as
# `bash tests/cli_serve_steer.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every queue name is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup serve_steer
command -v curl >/dev/null 2>&1 || skip_or_fail "curl is not installed"
Q="steer_${RUN_ID}"
echo "# leasectl serve --allow-actions on schedules: backend $backend, queue $Q"

spid=""
stop_serve() { if [[ -n "$spid" ]]; then kill -TERM "$spid" 2>/dev/null || true; fi; }
cleanup_hooks+=(stop_serve)
get() { # PATH [curl args]: status in CODE, body in $T/body
    local p=$1
    shift
    CODE=$(curl -s -o "$T/body" -w '%{http_code}' --max-time 30 "$@" "http://127.0.0.1:$PORT$p" || echo 000)
}
show() { run --json task show "$S"; json_get "$T/out" "$1"; }

begin; run migrate; want_rc 0; end "migrate: exit 0"

run --json task add nightly --queue "$Q" --every 1d
S=$(json_get "$T/out" id)
regular=$(show run_at)
SECRET="steer-dashboard-secret-${RUN_ID}"
(umask 077; printf '%s\n' "$SECRET" >"$T/secret")
"$LEASECTL" --db "$DSN" serve --listen 127.0.0.1:0 --allow-actions --secret-file "$T/secret" 2>"$T/serve.err" &
spid=$!
wait_for_line "$T/serve.err" '^serve: listening on|built without' 10 || true
grep -q 'built without' "$T/serve.err" && skip_or_fail "serve is not built in"
PORT=$(sed -n 's#^serve: listening on http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$T/serve.err")

begin
get /
CSRF=$(sed -n 's#.*name=csrf value=\([0-9a-f]*\)>.*#\1#p' "$T/body" | sed -n 1p)
[[ ${#CSRF} == 64 ]] || why+=("no form token on the page")
grep -q "name=action value=run-now><input type=hidden name=target value=\"$S\"><button type=submit>run now" "$T/body" ||
    why+=("no run-now button for schedule $S")
grep -q "name=action value=task-pause><input type=hidden name=target value=\"$S\"><button type=submit>pause" "$T/body" ||
    why+=("no pause button for schedule $S")
end "the schedules table has a run-now and a pause button per schedule"

begin
get /action -X POST --data "action=run-now&target=$S&csrf=$CSRF"
[[ $CODE == 401 ]] || why+=("run-now without the secret: $CODE, expected 401")
get /action -X POST -u "x:$SECRET" --data "action=run-now&target=$S"
[[ $CODE == 403 ]] || why+=("run-now without the form token: $CODE, expected 403")
get /action -X POST -u "x:$SECRET" -H 'Origin: http://evil.example' --data "action=task-pause&target=$S&csrf=$CSRF"
[[ $CODE == 403 ]] || why+=("cross-origin pause: $CODE, expected 403")
get /action -X POST -u "x:$SECRET" --data "action=run-now&target=x$S&csrf=$CSRF"
[[ $CODE == 400 ]] || why+=("run-now of a bad id: $CODE, expected 400")
[[ "$(show run_at)" == "$regular" && "$(show paused)" == false ]] || why+=("a refused action changed schedule $S")
end "refused without the secret, without the form token, cross-origin, with a bad id: nothing changed"

begin
get /action -X POST -u "x:$SECRET" -H "Origin: http://127.0.0.1:$PORT" --data "action=run-now&target=$S&csrf=$CSRF"
[[ $CODE == 303 ]] || why+=("run-now: $CODE $(excerpt "$T/body"), expected 303")
[[ "$(show next_at)" == "$regular" ]] || why+=("run-now did not set the regular occurrence aside")
get /action -X POST -u "x:$SECRET" --data "action=run-now&target=$S&csrf=$CSRF"
[[ $CODE == 409 ]] || why+=("a second run-now: $CODE, expected 409")
grep -q 'pending' "$T/body" || why+=("the 409 does not say why: $(excerpt "$T/body")")
run worker --queue "$Q" --drain --handler "nightly=echo x >>'$T/runs'"
[[ "$(lines_of "$T/runs")" == 1 && "$(show run_at)" == "$regular" ]] ||
    why+=("runs $(lines_of "$T/runs"), run_at $(show run_at) (regular $regular)")
get /action -X POST -u "x:$SECRET" --data "action=task-pause&target=$S&csrf=$CSRF"
[[ $CODE == 303 && "$(show paused)" == true ]] || why+=("pause: $CODE, paused $(show paused)")
get /
grep -q "name=action value=task-resume><input type=hidden name=target value=\"$S\"><button type=submit>resume" "$T/body" ||
    why+=("no resume button for the paused schedule")
get /action -X POST -u "x:$SECRET" --data "action=task-resume&target=$S&csrf=$CSRF"
[[ $CODE == 303 && "$(show paused)" == false ]] || why+=("resume: $CODE, paused $(show paused)")
get /action -X POST -u "x:$SECRET" --data "action=run-now&target=999999999&csrf=$CSRF"
[[ $CODE == 404 ]] || why+=("run-now of an unknown task: $CODE, expected 404")
grep -q "task $S: an extra occurrence is due now" "$T/serve.err" || why+=("the run-now is not logged")
end "with the secret and the form token: run-now (schedule kept, a second is 409), pause and resume act"

begin
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$CHROMIUM" ]]; then
    if [[ -n "${LEASEQ_REQUIRE_ALL_BACKENDS:-}" ]]; then why+=("chromium is not installed"); else echo "# chromium missing: browser check skipped"; fi
else
    timeout -k 5 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$T/chromium" --dump-dom "http://127.0.0.1:$PORT/" >"$T/dom.html" 2>/dev/null ||
        why+=("chromium could not load the dashboard")
    grep -q '<button type="submit">run now</button>' "$T/dom.html" || why+=("the browser shows no run-now button")
fi
end "browser: the dashboard shows the schedule's buttons"
stop_serve; wait "$spid" 2>/dev/null || true; spid=""

run task rm "$S"
finish
