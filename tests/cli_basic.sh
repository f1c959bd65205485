#!/usr/bin/env bash
# tests/cli_basic.sh BACKEND - acceptance test of leasectl against the contract
# in ARCHITECTURE.md ("leasectl"): exit statuses, outputs, leases, exec, tasks,
# workers, bad input.  Run by ctest as `bash tests/cli_basic.sh <backend>` with
# LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
# Server databases are shared with other tests and runs: nothing is dropped;
# every lease, task and queue name starts with a prefix unique to this run.
#
# Output: one "ok - ..." / "not ok - ..." line per check; exit 1 if any failed.
#
# Single quotes around $... are deliberate throughout: the child shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup cli

# Everything this run creates is named with this prefix.
P="cli${RUN_ID}_"
Q="${P}q"

echo "# leasectl acceptance test: backend $backend, prefix $P"

# ================================================================== 1. usage
begin; run_raw --help; want_rc 0; want_out '[a-z]'
end "leasectl --help exits 0 and prints usage"

begin; run_raw; want_rc 64
[[ -s "$T/err" ]] || why+=("nothing on stderr")
end "no command: exit 64 with a message on stderr"

begin; run frobnicate; want_rc 64; want_err_line; want_out_empty
end "unknown command: exit 64"

begin; run lease frobnicate; want_rc 64; want_err_line; want_out_empty
end "unknown lease subcommand: exit 64"

begin; run --bogus lease list; want_rc 64; want_err_line; want_out_empty
end "unknown global flag: exit 64"

begin; run lease acquire "${P}flag" --ttl 30s --bogus; want_rc 64; want_err_line; want_out_empty
end "unknown command flag: exit 64"

begin; run_raw --db "bogus:xyz" lease list; want_rc 64; want_err_line
end "malformed DSN: exit 64"

begin; run_raw --db "sqlite::memory:" lease list; want_rc 64; want_err_line
end "sqlite::memory: is refused: exit 64"

# ================================================================== 2. schema
if [[ $backend == sqlite ]]; then
    begin; run_raw --db "sqlite:$T/fresh.db" lease acquire "${P}x" --ttl 30s
    want_rc 1; want_err_line; want_err 'leasectl migrate'; want_out_empty
    end "schema missing (fresh file, no migrate): exit 1, message says 'leasectl migrate'"

    begin; run_raw --db "sqlite:$T/fresh.db" task list
    want_rc 1; want_err 'leasectl migrate'
    end "schema missing: task list also exits 1 pointing at 'leasectl migrate'"
fi

begin; run migrate; want_rc 0
end "migrate: exit 0"

begin; run migrate; want_rc 0
grep -q -i -E 'up.to.date' "$T/out" "$T/err" || why+=("the second migrate does not say 'up to date'")
end "migrate again: exit 0, up to date"

begin; run migrate --status; want_rc 0; want_out '[0-9]'
end "migrate --status: exit 0 and shows a version"

begin; run --json migrate --status; want_rc 0; want_json
end "--json migrate --status: one JSON document"

if [[ $backend == sqlite ]]; then
    begin
    mode=$(stat -c %a "$T/cli.db" 2>/dev/null || echo missing)
    want "$([[ $mode == 600 ]] && echo 1)" "database file mode is $mode, expected 600"
    end "a new SQLite database file is created mode 0600"
fi

# ================================================================== 3. leases
L="${P}job"
begin; run lease acquire "$L" --ttl 30s; want_rc 0
h1=$(cat "$T/out")
want "$([[ $(lines_of "$T/out") == 1 ]] && echo 1)" "stdout should be exactly one line"
want "$([[ -n "$h1" && "$h1" != *[[:space:]]* ]] && echo 1)" "stdout should be one word (the handle)"
end "h=\$(leasectl lease acquire NAME --ttl 30s) prints only the handle"

begin; run lease acquire "$L" --ttl 30s; want_rc 75; want_err_line; want_err 'held'; want_out_empty
end "second acquire of a held lease: exit 75, 'held' on stderr"

begin; run lease renew "$h1" --ttl 30s; want_rc 0
end "lease renew HANDLE --ttl 30s: exit 0"

begin; run --json lease show "$L"; want_rc 0; want_json
json_keys "$T/out" name owner token acquired_at expires_at || why+=("lease JSON lacks name/owner/token/acquired_at/expires_at")
[[ "$(json_get "$T/out" name)" == "$L" ]] || why+=("name is not $L")
[[ -n "$(json_get "$T/out" owner)" ]] || why+=("owner is empty while held")
t1=$(json_get "$T/out" token)
is_int "$t1" || why+=("token '$t1' is not an integer")
end "--json lease show: the schema's fields, owner set while held"

begin; run lease show "$L"; want_rc 0; want_out_fixed "$L"
end "lease show NAME: exit 0, names the lease"

begin; run lease list; want_rc 0; want_out_fixed "$L"
end "lease list: includes the lease"

begin; run --json lease list; want_rc 0; want_json
json_has "$T/out" name "$L" || why+=("$L not in the list")
end "--json lease list: one JSON document that includes the lease"

begin; run lease release "$h1"; want_rc 0
end "lease release HANDLE: exit 0"

begin; run --json lease show "$L"; want_rc 0
[[ -z "$(json_get "$T/out" owner)" ]] || why+=("owner still set after release")
end "after release the lease is free (no owner)"

begin; run lease acquire "$L" --ttl 30s --owner web-1; want_rc 0
h2=$(cat "$T/out")
run --json lease show "$L"
o2=$(json_get "$T/out" owner)
t2=$(json_get "$T/out" token)
want "$([[ $o2 == *web-1* && $o2 != web-1 ]] && echo 1)" "owner '$o2' should contain web-1 plus a random part"
want "$(is_int "$t2" && is_int "$t1" && [[ $t2 -gt $t1 ]] && echo 1)" "token $t2 should be > $t1"
end "acquire --owner: owner has a random part; the fencing token increased"

begin; run lease break "$L"; want_rc 0
end "lease break NAME: exit 0"

begin; run lease renew "$h2" --ttl 30s; want_rc 3; want_err_line
end "renew of a broken lease's old handle: exit 3"

begin; run lease acquire "$L" --ttl 30s; want_rc 0
h3=$(cat "$T/out")
run --json lease show "$L"
o3=$(json_get "$T/out" owner)
t3=$(json_get "$T/out" token)
want "$(is_int "$t3" && is_int "$t2" && [[ $t3 -gt $t2 ]] && echo 1)" "token $t3 should be > $t2 after break + acquire"
end "acquire after break works; the token keeps increasing"

begin; run lease release "$h2"; want_rc 3; want_err_line
run --json lease show "$L"
[[ "$(json_get "$T/out" owner)" == "$o3" ]] || why+=("a late release freed someone else's lease")
end "late release of an old handle: exit 3, the new holder keeps the lease"

begin; run lease release "$h3"; want_rc 0
end "release by the current holder: exit 0"

begin; run lease break "${P}never"; want_rc 1; want_err_line
end "lease break of an unknown name: exit 1"

begin; run lease show "${P}never"; want_rc 1; want_err_line
end "lease show of an unknown name: exit 1"

begin; run lease acquire "${P}short" --ttl 1s; want_rc 0
t0=$SECONDS
run lease acquire "${P}short" --ttl 5s --wait 10s; want_rc 0
end "acquire --wait 10s gets the lease once a 1 s TTL expires (in $((SECONDS - t0)) s; exit 0 within the wait is the check)"

begin; run lease acquire "${P}long" --ttl 30s; want_rc 0
t0=$SECONDS
run lease acquire "${P}long" --ttl 30s --wait 500ms; want_rc 75
end "acquire --wait 500ms on a held lease gives up: exit 75"

begin
for nm in "${P}a" "${P}a " "${P}A"; do
    run lease acquire "$nm" --ttl 30s
    [[ $RC == 0 ]] || why+=("acquire '$nm' exited $RC")
done
end "names are byte-exact: 'a', 'a ' and 'A' are three leases"

begin; run lease acquire "${P}ключ-ü-日本" --ttl 30s; want_rc 0
run --json lease list
json_has "$T/out" name "${P}ключ-ü-日本" || why+=("UTF-8 name not listed as given")
end "a UTF-8 name is kept as given"

SQLNAME="${P}x'); DROP TABLE lq_lease; --"
begin; run lease acquire "$SQLNAME" --ttl 30s; want_rc 0
hs=$(cat "$T/out")
want "$([[ -n "$hs" && "$hs" != *[[:space:]]* ]] && echo 1)" "the handle of a name with spaces and quotes is not one word"
run lease renew "$hs" --ttl 30s
[[ $RC == 0 ]] || why+=("renew with that handle exited $RC")
run --json lease list
[[ $RC == 0 ]] || why+=("lease list exited $RC")
json_has "$T/out" name "$SQLNAME" || why+=("the SQL-looking name is not listed as given")
json_has "$T/out" name "${P}A" || why+=("other leases are gone")
end "a lease name that looks like SQL is ordinary data"

# ================================================================== 4. bad input
head -c $((8 * 1024 * 1024 + 1)) /dev/zero | tr '\0' x >"$T/payload.over"
head -c $((8 * 1024 * 1024)) /dev/zero | tr '\0' y >"$T/payload.max"
QB="${P}bad"
usage_error() { # DESC ARGS...: exit 64 (bad usage), one line on stderr, nothing on stdout
    local desc=$1
    shift
    begin; run "$@"; want_rc 64; want_err_line; want_out_empty
    end "bad input: $desc -> exit 64"
}
usage_error "empty lease name" lease acquire "" --ttl 30s
usage_error "lease name over 255 bytes" lease acquire "$(printf 'n%.0s' {1..256})" --ttl 30s
usage_error "lease name not valid UTF-8" lease acquire "${P}"$'\xff\xfe' --ttl 30s
usage_error "--ttl 0" lease acquire "${P}bad" --ttl 0
usage_error "--ttl abc" lease acquire "${P}bad" --ttl abc
usage_error "--ttl -5s" lease acquire "${P}bad" --ttl -5s
usage_error "acquire without --ttl" lease acquire "${P}bad"
usage_error "renew --ttl 0" lease renew "$h3" --ttl 0
usage_error "a malformed handle" lease renew "not-a-handle" --ttl 30s
usage_error "exec --ttl 0" exec --ttl 0 "${P}bad" -- true
usage_error "exec without a command" exec "${P}bad"
usage_error "exec with an empty name" exec "" -- true
usage_error "worker handler without '='" worker --queue "$QB" --drain --handler foo
usage_error "worker handler with an empty name" worker --queue "$QB" --drain --handler "=true"
usage_error "tick handler without '='" tick --queue "$QB" --handler foo
usage_error "task add with an empty name" task add "" --queue "$QB"
usage_error "task add with an empty queue" task add "${P}t" --queue ""
usage_error "payload over 8 MiB" task add "${P}big" --queue "$QB" --payload-file "$T/payload.over"
usage_error "cron */0 * * * *" task add "${P}cron" --queue "$QB" --cron "*/0 * * * *"
usage_error "cron 61 * * * *" task add "${P}cron" --queue "$QB" --cron "61 * * * *"
usage_error "cron with 4 fields" task add "${P}cron" --queue "$QB" --cron "* * * *"
usage_error "unknown time zone" task add "${P}cron" --queue "$QB" --cron "0 3 * * *" --tz "Mars/Olympus_Mons"
usage_error "--every 0" task add "${P}every" --queue "$QB" --every 0
usage_error "--every and --cron together" task add "${P}every" --queue "$QB" --every 1s --cron "@hourly"
usage_error "--in xyz" task add "${P}in" --queue "$QB" --in xyz
usage_error "--max-attempts abc" task add "${P}ma" --queue "$QB" --max-attempts abc
usage_error "task show abc" task show abc

begin; run --json task list --queue "$QB"; want_rc 0
[[ -z "$(ids "$T/out")" ]] || why+=("tasks were created in $QB by rejected commands")
run lease show "${P}bad"
[[ $RC == 1 ]] || why+=("lease ${P}bad exists (lease show exited $RC)")
end "bad input changed nothing (no task in $QB, no lease ${P}bad)"

begin; run --json task add "${P}big" --queue "$QB" --payload-file "$T/payload.max"; want_rc 0
idbig=$(json_get "$T/out" id)
is_int "$idbig" || why+=("no id for the 8 MiB task")
[[ -n "$idbig" ]] && run task rm "$idbig"
end "a payload of exactly 8 MiB is accepted"

# ================================================================== 5. unreachable database
# SQLite has no server: a file in a directory that does not exist is no
# such database for a read (66) and cannot be created for a write (73)
# (tests/cli_localfiles.sh has the other local-file cases).
read_rc=69 write_rc=69
case $backend in
postgres) bad_dsn="postgresql://leaseq:s3cretpw@127.0.0.1:1/leaseq_test" ;;
mysql) bad_dsn="mysql://leaseq:s3cretpw@127.0.0.1:1/leaseq_test" ;;
sqlite) bad_dsn="sqlite:$T/no/such/dir/x.db" read_rc=66 write_rc=73 ;;
esac
begin; run_raw --db "$bad_dsn" lease list; want_rc $read_rc; want_err_line
if grep -q -F s3cretpw "$T/err" "$T/out"; then why+=("the password was printed"); fi
end "unreachable database ($backend): exit $read_rc, one line, no password"

begin; run_raw --db "$bad_dsn" task add "${P}t" --queue "$Q"; want_rc $write_rc
end "unreachable database: task add exits $write_rc"

# ================================================================== 6. exec
E="${P}exec"
begin
RC=0
# (The test's own LEASEQ_TEST_*_DSN variables hold the DSN too: not passed here.)
env -u LEASEQ_TEST_PG_DSN -u LEASEQ_TEST_MYSQL_DSN LEASEQ_DSN="$DSN" \
    timeout -k 5 "$TMO" "$LEASECTL" exec "$E" -- sh -c 'env > "$1"' sh "$T/child.env" \
    </dev/null >"$T/out" 2>"$T/err" || RC=$?
LAST_CMD="LEASEQ_DSN=DSN leasectl exec $E -- sh -c 'env > FILE'"
check_leak
want_rc 0
lease_env=$(sed -n 's/^LEASEQ_LEASE=//p' "$T/child.env" 2>/dev/null || true)
tok_env=$(sed -n 's/^LEASEQ_FENCING_TOKEN=//p' "$T/child.env" 2>/dev/null || true)
[[ -n "$lease_env" ]] || why+=("LEASEQ_LEASE is not set in the child")
is_int "$tok_env" || why+=("LEASEQ_FENCING_TOKEN '$tok_env' is not an integer")
if grep -q '^LEASEQ_DSN=' "$T/child.env" 2>/dev/null; then why+=("LEASEQ_DSN is set in the child"); fi
if grep -q -F -- "$DSN" "$T/child.env" 2>/dev/null; then why+=("the DSN appears in the child's environment"); fi
if [[ -n "$PASSWORD" ]] && grep -q -F -- "$PASSWORD" "$T/child.env" 2>/dev/null; then
    why+=("the database password appears in the child's environment")
fi
end "exec (DSN from LEASEQ_DSN): child has LEASEQ_LEASE and LEASEQ_FENCING_TOKEN, no LEASEQ_DSN"

begin; run lease acquire "$E" --ttl 30s; want_rc 0
he=$(cat "$T/out")
run lease release "$he"
end "exec released its lease when the command ended"

begin; run exec "$E" -- sh -c 'exit 7'; want_rc 7
end "exec exits with the command's status (7)"

begin; run exec "$E" -- false; want_rc 1
end "exec passes on status 1 of the command"

begin; run exec "$E" -- printf '%s|' 'a b' '$HOME' '*'; want_rc 0
[[ "$(cat "$T/out")" == 'a b|$HOME|*|' ]] || why+=("the arguments were not passed verbatim")
end "exec runs argv without a shell"

begin; run exec "$E" -- sh -c 'kill -TERM $$'; want_rc 143
end "exec of a command killed by SIGTERM exits 128+15"

begin; run exec "$E" -- "$T/no-such-program"; want_rc 127
end "exec of a program that does not exist exits 127"

begin
run exec "$E" -- sh -c 'exec "$0" --db "$1" lease renew "$LEASEQ_LEASE" --ttl 30s' "$LEASECTL" "$DSN"
want_rc 0
end "the child can renew its lease with \$LEASEQ_LEASE"

begin
run exec "$E" -- sh -c 'echo "$LEASEQ_FENCING_TOKEN"'
tok2=$(cat "$T/out")
want "$(is_int "$tok2" && is_int "$tok_env" && [[ $tok2 -gt $tok_env ]] && echo 1)" "fencing token $tok2 should be > $tok_env"
end "each exec run gets a larger fencing token"

# A concurrent exec while the lease is held.
# Its command holds the lease until we create exec1.done (at most 30 s).
bg exec1 exec "$E" -- sh -c \
    'echo started > "$1"; i=0; while [ ! -e "$1.done" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done' \
    sh "$T/exec1"
begin
wait_for_file "$T/exec1" 20 || why+=("the first exec did not start its command")
run exec "$E" -- sh -c 'touch "$1"' sh "$T/should-not-run"
want_rc 75; want_err_line; want_err 'held'
[[ ! -e "$T/should-not-run" ]] || why+=("the command ran although the lease was held")
end "concurrent exec: exit 75, says the lease is held, command not run"

begin; run exec --conflict-exit 0 "$E" -- sh -c 'touch "$1"' sh "$T/should-not-run"
want_rc 0
[[ ! -e "$T/should-not-run" ]] || why+=("the command ran although the lease was held")
end "concurrent exec --conflict-exit 0: exit 0, command not run"

begin; run exec --conflict-exit 9 "$E" -- true; want_rc 9
end "concurrent exec --conflict-exit 9: exit 9"

touch "$T/exec1.done"
begin; bg_wait exec1; want_rc 0
end "the first exec finished normally: exit 0"

# Lease broken from outside: the child gets SIGTERM, exec exits 3.
E2="${P}exec-broken"
bg exec2 exec --ttl 3s "$E2" -- sh -c \
    'trap "echo term > \"\$1.term\"; exit 143" TERM; echo $$ > "$1"; while :; do sleep 0.2; done' sh "$T/exec2.pid"
begin
if wait_for_file "$T/exec2.pid" 20; then
    cpid=$(cat "$T/exec2.pid")
    child_pids+=("$cpid")
    run lease break "$E2"
    [[ $RC == 0 ]] || why+=("lease break exited $RC")
    bg_wait exec2
    want_rc 3
    [[ -s "$T/exec2.pid.term" ]] || why+=("the child did not get SIGTERM")
    sleep 0.3
    if kill -0 "$cpid" 2>/dev/null; then why+=("the child (pid $cpid) is still running"); fi
else
    why+=("exec did not start its command")
fi
end "exec whose lease is broken: child gets SIGTERM, exec exits 3"

# The wrapper is killed: the child dies with it (PR_SET_PDEATHSIG).
E3="${P}exec-killed"
"$LEASECTL" --db "$DSN" exec --ttl 2s "$E3" -- sh -c 'echo $$ > "$1"; exec sleep 30' sh "$T/exec3.pid" \
    </dev/null >/dev/null 2>&1 &
wpid=$!
bg_pids+=("$wpid")
begin
if wait_for_file "$T/exec3.pid" 20; then
    cpid=$(cat "$T/exec3.pid")
    child_pids+=("$cpid")
    kill -KILL "$wpid" 2>/dev/null || true
    wait "$wpid" 2>/dev/null || true
    for _ in $(seq 1 30); do
        kill -0 "$cpid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$cpid" 2>/dev/null; then why+=("the child (pid $cpid) outlived the killed exec"); fi
else
    why+=("exec did not start its command")
fi
end "exec killed with SIGKILL: its child dies too"

# ================================================================== 7. tasks
begin; run --json task add "${P}t1" --queue "$Q" --payload hello; want_rc 0; want_json
id1=$(json_get "$T/out" id)
is_int "$id1" || why+=("no integer id in the output")
end "--json task add: JSON with the new id"

begin; run task add "${P}t2" --queue "$Q"; want_rc 0
end "task add: exit 0"

begin; run --json task list --queue "$Q"; want_rc 0; want_json
json_keys "$T/out" id queue name run_at attempts || why+=("task JSON lacks id/queue/name/run_at/attempts")
has_id "$T/out" "$id1" || why+=("task $id1 is not listed")
id2=$(json_all "$T/out" name | paste - <(json_all "$T/out" id) 2>/dev/null | awk -F'\t' -v n="${P}t2" '$1 == n && !found {print $2; found = 1}' || true)
is_int "${id2:-}" || why+=("task ${P}t2 is not listed")
end "--json task list --queue Q: both tasks, with the schema's field names"

begin; run task list --queue "$Q"; want_rc 0; want_out_fixed "${P}t1"
end "task list --queue Q: names the tasks"

begin; run --json task show "$id1"; want_rc 0; want_json
[[ "$(json_get "$T/out" name)" == "${P}t1" ]] || why+=("name is not ${P}t1")
[[ "$(json_get "$T/out" queue)" == "$Q" ]] || why+=("queue is not $Q")
[[ "$(json_get "$T/out" attempts)" == 0 ]] || why+=("attempts is not 0")
end "--json task show ID: name, queue, attempts 0"

begin; run task show "$id1"; want_rc 0; want_out_fixed "${P}t1"
end "task show ID: exit 0"

begin; run task show 999999999; want_rc 1; want_err_line
end "task show of an unknown id: exit 1"

begin
run --json task add "${P}u" --queue "$Q" --unique "${P}key"
u1=$(json_get "$T/out" id)
run --json task add "${P}u" --queue "$Q" --unique "${P}key"
want_rc 0
u2=$(json_get "$T/out" id)
want "$(is_int "$u1" && [[ "$u1" == "$u2" ]] && echo 1)" "second unique enqueue gave id '$u2', first '$u1'"
end "task add --unique twice returns the same id"

begin
run --json task add "${P}later" --queue "$Q" --in 1h
idl=$(json_get "$T/out" id)
is_int "$idl" || why+=("task add --in 1h failed ($RC)")
run --json task list --queue "$Q" --due; want_rc 0; want_json
has_id "$T/out" "$idl" && why+=("the task due in 1h is listed as due")
has_id "$T/out" "$id1" || why+=("task $id1 (due now) is not listed as due")
end "task list --due: due tasks only"

begin; run task retry "$idl"; want_rc 0
run --json task list --queue "$Q" --due
has_id "$T/out" "$idl" || why+=("the retried task is not due now")
end "task retry of a live task makes it due now"

begin; run task pause "$id1"; want_rc 0
run task resume "$id1"
[[ $RC == 0 ]] || why+=("task resume exited $RC")
end "task pause / resume: exit 0"

begin; run task rm "$id2"; want_rc 0
run task show "$id2"
[[ $RC == 1 ]] || why+=("task show after rm exited $RC, expected 1")
run task rm "$id2"
[[ $RC == 1 ]] || why+=("a second task rm exited $RC, expected 1")
end "task rm ID: gone afterwards; rm again exits 1"

SQLTASK="${P}Robert'); DROP TABLE lq_task;--"
SQLPAYLOAD="'; DELETE FROM lq_lease; --"
begin; run --json task add "$SQLTASK" --queue "$Q" --payload "$SQLPAYLOAD"; want_rc 0
sid=$(json_get "$T/out" id)
run --json task show "$sid"
[[ "$(json_get "$T/out" name)" == "$SQLTASK" ]] || why+=("the name did not come back as given")
run --json lease list
json_has "$T/out" name "${P}A" || why+=("leases are gone")
run --json task show "$id1"
[[ $RC == 0 ]] || why+=("other tasks are gone")
end "a task name and payload that look like SQL are ordinary data"

begin
QR="${P}rec"
run --json task add "${P}every" --queue "$QR" --every 1h; want_rc 0
r1=$(json_get "$T/out" id)
run --json task add "${P}cron" --queue "$QR" --cron '*/5 * * * *' --tz Europe/Berlin
[[ $RC == 0 ]] || why+=("--cron '*/5 * * * *' --tz Europe/Berlin exited $RC")
r2=$(json_get "$T/out" id)
run --json task add "${P}daily" --queue "$QR" --cron '@daily' --missed skip
[[ $RC == 0 ]] || why+=("--cron @daily --missed skip exited $RC")
r3=$(json_get "$T/out" id)
run --json task show "${r2:-0}"
[[ "$(json_get "$T/out" cron)" == '*/5 * * * *' ]] || why+=("task show does not give the cron expression")
for r in "$r1" "$r2" "$r3"; do
    [[ -n "$r" ]] && run task rm "$r"
done
end "recurring tasks: --every, --cron with --tz, @daily with --missed skip"

begin; run queue list; want_rc 0; want_out_fixed "$Q"
run --json queue list
[[ $RC == 0 ]] && json_ok "$T/out" || why+=("--json queue list is not JSON ($RC)")
end "queue list: includes the queue"

begin; run queue pause "$Q"; want_rc 0
run queue resume "$Q"
[[ $RC == 0 ]] || why+=("queue resume exited $RC")
end "queue pause / resume: exit 0"

begin; run stats; want_rc 0
run --json stats
[[ $RC == 0 ]] && json_ok "$T/out" || why+=("--json stats is not JSON ($RC)")
run stats --format prometheus
[[ $RC == 0 && -s "$T/out" ]] || why+=("stats --format prometheus exited $RC or printed nothing")
end "stats: text, json, prometheus"

# ================================================================== 8. worker
QW="${P}w"
begin
wids=()
for i in 1 2 3 4 5; do
    run --json task add "${P}echo" --queue "$QW" --payload "payload-$i"
    wids+=("$(json_get "$T/out" id)")
done
handler="${P}echo=cat >> '$T/payloads'; echo >> '$T/payloads'; echo \"\$LEASEQ_TASK_ID \$LEASEQ_TASK_NAME \$LEASEQ_TASK_ATTEMPT \$LEASEQ_TASK_RUN_AT\" >> '$T/ran'"
run worker --queue "$QW" --drain --handler "$handler"; want_rc 0
lines=$(lines_of "$T/ran" 2>/dev/null || echo 0)
[[ "$lines" == 5 ]] || why+=("handlers ran $lines times, expected 5")
for id in "${wids[@]}"; do
    c=$({ awk -v id="$id" '$1 == id' "$T/ran" 2>/dev/null || true; } | wc -l)
    [[ $c == 1 ]] || why+=("task $id ran $c times")
done
awk -v n="${P}echo" '$2 != n {bad = 1} END {exit bad}' "$T/ran" 2>/dev/null || why+=("LEASEQ_TASK_NAME is wrong")
awk '$3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ {bad = 1} END {exit bad}' "$T/ran" 2>/dev/null ||
    why+=("LEASEQ_TASK_ATTEMPT / LEASEQ_TASK_RUN_AT are not numbers")
for i in 1 2 3 4 5; do
    grep -q -x -- "payload-$i" "$T/payloads" 2>/dev/null || why+=("payload-$i did not reach the handler's stdin")
done
end "worker --drain --handler NAME=CMD: each task once, payload on stdin, LEASEQ_TASK_* set"

begin; run --json task list --queue "$QW"; want_rc 0
[[ -z "$(ids "$T/out")" ]] || why+=("tasks remain in $QW")
run worker --queue "$QW" --drain --handler "$handler"
[[ $RC == 0 ]] || why+=("a second worker --drain exited $RC")
[[ "$(lines_of "$T/ran")" == 5 ]] || why+=("a task ran again")
end "after the drain the queue is empty and nothing runs twice"

# Two workers of two slots each race for 20 tasks.
QC="${P}c"
for i in $(seq 1 20); do
    run task add "${P}race" --queue "$QC"
done
hrace="${P}race=echo \"\$LEASEQ_TASK_ID\" >> '$T/race'"
bg w1 worker --queue "$QC" -j 2 --drain --handler "$hrace"
bg w2 worker --queue "$QC" -j 2 --drain --handler "$hrace"
begin
bg_wait w1; [[ $RC == 0 ]] || why+=("worker 1 exited $RC")
bg_wait w2; [[ $RC == 0 ]] || why+=("worker 2 exited $RC")
total=$(lines_of "$T/race" 2>/dev/null || echo 0)
distinct=$({ sort -u "$T/race" 2>/dev/null || true; } | wc -l)
[[ "$total" == 20 && "$distinct" == 20 ]] || why+=("$total runs of $distinct distinct tasks, expected 20 of 20")
run --json task list --queue "$QC"
[[ -z "$(ids "$T/out")" ]] || why+=("tasks remain in $QC")
end "two workers with -j 2 race for 20 tasks: each runs exactly once"

# A failing task: retried, then dead with its last error.  `task retry` on the
# live task makes the retry due now instead of waiting for the back-off.
dead_test() { # DESC QUEUE WORKER-FLAGS...
    local desc=$1 qf=$2 idf i
    shift 2
    begin
    run --json task add "${P}fail" --queue "$qf" --max-attempts 2
    idf=$(json_get "$T/out" id)
    if ! is_int "$idf"; then
        why+=("task add exited $RC")
        end "$desc"
        return
    fi
    for i in 1 2 3 4 5 6; do
        run worker --queue "$qf" --drain "$@" --handler "${P}fail=echo boom >&2; exit 1"
        [[ $RC == 0 ]] || why+=("worker --drain exited $RC")
        run --json task list --queue "$qf" --dead
        has_id "$T/out" "$idf" && break
        run task retry "$idf"
    done
    run --json task list --queue "$qf" --dead
    has_id "$T/out" "$idf" || why+=("task $idf is not dead after $i drains")
    run --json task show "$idf"; want_json
    [[ -n "$(json_get "$T/out" last_error)" ]] || why+=("last_error is empty")
    [[ "$(json_get "$T/out" attempts)" == 2 ]] || why+=("attempts is $(json_get "$T/out" attempts), expected 2")
    end "$desc"

    begin; run task retry "$idf"; want_rc 0
    run --json task list --queue "$qf"
    has_id "$T/out" "$idf" || why+=("the task is not live again")
    run --json task list --queue "$qf" --dead
    has_id "$T/out" "$idf" && why+=("the task is still dead")
    run --json task show "$idf"
    [[ "$(json_get "$T/out" attempts)" == 0 ]] || why+=("attempts not reset")
    run task rm "$idf"
    end "task retry of a dead task: live again, attempts reset"
}
dead_test "failing handler, --max-attempts 2: task dead with last_error" "${P}f1"
dead_test "--at-least-once: failing handler, --max-attempts 2: task dead with last_error" "${P}f2" --at-least-once

# prune: only dead tasks, only older than the age, only the queue given
# (the server databases are shared with other tests: always --queue here).
begin
QP="${P}prune"
run --json task add "${P}keep" --queue "$QP" --in 1h
keep_id=$(json_get "$T/out" id)
for i in 1 2; do run task add "${P}dies" --queue "$QP" --max-attempts 1; done
run worker --queue "$QP" --drain --handler "${P}dies=exit 1"
run --json task list --queue "$QP" --dead
[[ $(ids "$T/out" | wc -l) == 2 ]] || why+=("expected 2 dead tasks before prune: $(ids "$T/out" | tr '\n' ' ')")
run --json prune --older-than 1h --queue "$QP"; want_rc 0
[[ "$(json_get "$T/out" removed)" == 0 ]] || why+=("--older-than 1h removed $(json_get "$T/out" removed)")
sleep 0.1
run --json prune --older-than 0s --queue "$QP" --dry-run; want_rc 0
[[ "$(json_get "$T/out" removed)" == 2 && "$(json_get "$T/out" dry_run)" == true ]] ||
    why+=("--dry-run said $(tr -d '\n ' <"$T/out"), expected removed 2, dry_run true")
run --json task list --queue "$QP" --dead
[[ $(ids "$T/out" | wc -l) == 2 ]] || why+=("--dry-run removed dead tasks")
run prune --older-than 0s --queue "$QP"; want_rc 0
grep -q -x 'pruned 2 dead tasks' "$T/out" || why+=("prune printed '$(excerpt "$T/out")'")
run --json task list --queue "$QP" --dead
[[ -z "$(ids "$T/out")" ]] || why+=("dead tasks left after prune: $(ids "$T/out" | tr '\n' ' ')")
run --json task list --queue "$QP"
has_id "$T/out" "$keep_id" || why+=("prune removed the live task $keep_id")
run task rm "$keep_id"
end "prune --older-than: a dry run counts, then only old dead tasks of the queue go; live tasks stay"

begin
QT="${P}tick"
for i in 1 2 3; do
    run task add "${P}tick" --queue "$QT"
done
run tick --queue "$QT" --handler "${P}tick=echo \"\$LEASEQ_TASK_ID\" >> '$T/ticked'"
want_rc 0
[[ "$(lines_of "$T/ticked" 2>/dev/null || echo 0)" == 3 ]] || why+=("tick ran $(lines_of "$T/ticked" 2>/dev/null || echo 0) tasks, expected 3")
end "tick --queue Q --handler: runs the due tasks"

# ================================================================== end
begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the database password"

# Tasks left in this run's queues are never claimed by anyone (unique queue
# names); leases left behind expire within 30 s.
finish
