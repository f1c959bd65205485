#!/usr/bin/env bash
# tests/cli_doctor.sh BACKEND - `leasectl doctor`: each
# check finds what it is for and says how to fix it, and the exit status is
# Nagios-style (0 ok, 1 warning, 2 critical).  Run by ctest as
# `bash tests/cli_doctor.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN, in a schema of its own (search_path)
#   mysql     $LEASEQ_TEST_MYSQL_DSN, in a database of its own (the user needs
#             CREATE on DB_%, as for cli_roles)
# doctor counts the whole database, so the test works in a space of its own,
# dropped at the end.
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup doctor
echo "# leasectl doctor: backend $backend"

if [[ $backend != sqlite ]]; then
    [[ "$DSN" =~ ^([a-z]+)://([^:@/]*)(:([^@]*))?@([^:/]+)(:([0-9]+))?/([^?]+) ]] || skip_or_fail "cannot read $dsn_var"
    scheme=${BASH_REMATCH[1]} user=${BASH_REMATCH[2]} pass=${BASH_REMATCH[4]}
    host=${BASH_REMATCH[5]} port=${BASH_REMATCH[7]} db=${BASH_REMATCH[8]}
    hostport=$host${port:+:$port}
    case $backend in
    postgres)
        S="lq_doc_$RUN_ID"
        sql() { psql "$DSN" -X -q -v ON_ERROR_STOP=1 -c "$1" >"$T/sql.out" 2>&1; }
        undo() { sql "DROP SCHEMA IF EXISTS $S CASCADE" || true; }
        cleanup_hooks+=(undo)
        sql "CREATE SCHEMA $S" || skip_or_fail "cannot create schema $S: $(excerpt "$T/sql.out")"
        DSN="$scheme://$user:$pass@$hostport/$db?options=-csearch_path%3D$S"
        ;;
    mysql)
        D="${db}_doc$RUN_ID"
        export MYSQL_PWD=$pass
        sql() { mysql --protocol=TCP -h "$host" -P "${port:-3306}" -u "$user" -e "$1" >"$T/sql.out" 2>&1; }
        undo() { sql "DROP DATABASE IF EXISTS \`$D\`" || true; }
        cleanup_hooks+=(undo)
        sql "CREATE DATABASE \`$D\`" || skip_or_fail "cannot create database $D: $(excerpt "$T/sql.out")"
        DSN="$scheme://$user:$pass@$hostport/$D"
        ;;
    esac
fi

level_of() { # CHECK: the level doctor's text output gave it ("" if absent)
    awk -v c="$1" '$2 == c && $1 != "" { print $1; exit }' "$T/out"
}
want_level() { # CHECK LEVEL
    local got
    got=$(level_of "$1")
    [[ "$got" == "$2" ]] || why+=("check '$1' is '${got:-absent}', expected $2")
}

# ------------------------------------------------------------------ no schema
# (doctor never creates a SQLite file: an empty one is a database without
# the schema)
if [[ $backend == sqlite ]]; then (umask 077; : >"${DSN#sqlite:}"); fi
begin; run doctor; want_rc 2
want_level schema critical
grep -q "fix: run 'leasectl migrate'" "$T/out" || why+=("no fix given for the missing schema")
grep -q -x 'doctor: critical' "$T/out" || why+=("no last line 'doctor: critical'")
end "no schema: critical, exit 2, the fix is 'leasectl migrate'"

# ------------------------------------------------------------------ healthy
begin
run migrate; want_rc 0
run doctor; want_rc 0
for c in schema clock claims leases overdue dead indexes; do want_level "$c" ok; done
if [[ $backend == sqlite ]]; then want_level journal ok; want_level file ok; fi
grep -q 'fix:' "$T/out" && why+=("a fix is offered for a healthy database")
run --json doctor; want_rc 0; want_json
[[ "$(json_get "$T/out" status)" == ok ]] || why+=("JSON status is '$(json_get "$T/out" status)'")
end "a fresh schema: every check ok, exit 0, JSON status ok"

# ------------------------------------------------------------------ problems
# A task nobody runs, a lease whose holder vanished, a dead task, and an
# at-least-once claim whose worker was killed: all older than --grace 1s.
begin
run task add "doc_due" --queue docq
run lease acquire doc_lease --ttl 1s
run task add "doc_fails" --queue docq_dead --max-attempts 1
run worker --queue docq_dead --drain --handler 'doc_fails=exit 1'
run task add "doc_alo" --queue docq_alo
: >"$T/alo.started"
"$LEASECTL" --db "$DSN" worker --queue docq_alo --at-least-once --claim-ttl 1s \
    --handler "doc_alo=echo \$\$ >> $(sq "$T/alo.started"); exec sleep 60" >/dev/null 2>&1 &
wpid=$!
wait_for_file "$T/alo.started" 60 || why+=("the at-least-once handler never started")
kill -KILL "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true
# The handler (its own process group) outlives a worker killed with -9.
kill -KILL "$(head -1 "$T/alo.started")" 2>/dev/null || true
sleep 3
run doctor --grace 1s; want_rc 1
for c in claims leases overdue dead; do want_level "$c" warning; done
want_level schema ok
want_level indexes ok
[[ $(grep -c 'fix:' "$T/out") == 4 ]] || why+=("expected one fix line per warning: $(excerpt "$T/out")")
grep -q -x 'doctor: warning' "$T/out" || why+=("no last line 'doctor: warning'")
run --json doctor --grace 1s; want_rc 1
[[ "$(json_get "$T/out" status)" == warning ]] || why+=("JSON status is '$(json_get "$T/out" status)'")
end "a stuck claim, a stale lease, an overdue and a dead task: warnings with fixes, exit 1"

begin
run task add "doc_old" --queue docq_old --at "$(date -u -d '-2 hours' +%Y-%m-%dT%H:%M:%SZ)"
old_id=$(tr -d '[:space:]' <"$T/out")
run doctor --grace 1s; want_rc 2
want_level overdue critical
run task rm "$old_id"
end "a task overdue by two hours: critical, exit 2"

# ------------------------------------------------------------------ SQLite file
if [[ $backend == sqlite ]]; then
    dbf=${DSN#sqlite:}
    begin
    chmod 0644 "$dbf"
    run doctor --grace 1h; want_rc 1
    want_level file warning
    chmod 0666 "$dbf"
    run doctor --grace 1h; want_rc 2
    want_level file critical
    chmod 0600 "$dbf"
    end "a database file readable by others: warning; writable by others: critical"

    if command -v sqlite3 >/dev/null 2>&1; then
        begin
        sqlite3 "$dbf" 'DROP INDEX lq_task_dead_died_at'
        run doctor --grace 1h; want_rc 2
        want_level indexes critical
        grep -q 'lq_task_dead_died_at' "$T/out" || why+=("the missing index is not named")
        sqlite3 "$dbf" 'CREATE INDEX lq_task_dead_died_at ON lq_task_dead (died_at, id)'
        end "a missing index: critical, named"

        begin
        # As a database last migrated by an older leasectl: only the first
        # migration applied (whatever steps come after it).
        old="$T/old.db"
        sqlite3 "$old" <"$(dirname "${BASH_SOURCE[0]}")/../migrations/sqlite/0001_init.sql"
        sqlite3 "$old" "CREATE TABLE IF NOT EXISTS lq_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
            applied_at INTEGER NOT NULL); INSERT INTO lq_schema VALUES (1, '0001_init', 0)"
        chmod 0600 "$old"
        run_dsn=$DSN
        DSN="sqlite:$old"
        run doctor; want_rc 2
        want_level schema critical
        grep -q 'needs' "$T/out" || why+=("the message does not say which version is needed")
        run migrate; want_rc 0
        run doctor --grace 1h; want_rc 0
        DSN=$run_dsn
        end "a schema behind this leasectl: critical, and 'leasectl migrate' fixes it"
    fi
fi

# ------------------------------------------------------------------ unreachable, bad usage
begin
BAD=$(unreachable_dsn doc_secret_pw)
PASSWORD=doc_secret_pw
RC=0
timeout -k 5 "$TMO" "$LEASECTL" --db "$BAD" doctor >"$T/out" 2>"$T/err" || RC=$?
LAST_CMD="leasectl --db <unreachable> doctor"
want_rc 2
want_level database critical
grep -q -F doc_secret_pw "$T/out" "$T/err" && why+=("the password was printed")
end "an unreachable database: critical, exit 2, no password printed"

begin; run doctor --grace soon; want_rc 64
end "doctor --grace with a bad duration: exit 64"

finish
