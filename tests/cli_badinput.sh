#!/usr/bin/env bash
# tests/cli_badinput.sh BACKEND - the bad-input sweep of leasectl:
# a table of bad command lines, each checked for the contract's
# exit status, exactly one line on standard error naming the object and the
# reason (nothing on standard output), no raw terminal escapes, no password,
# and NOTHING changed: the lq_ tables are dumped with the database's own
# client before and after every case and compared.  Plus what must work
# verbatim: 'a' / 'a ' / 'A' are three leases, SQL and shell metacharacters
# are stored and shown as they are and never run, escapes are printed safely,
# binary payloads round-trip.  Run by ctest as `bash tests/cli_badinput.sh
# <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    database files in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN: a schema of its own (search_path), dropped at the end
#   mysql     $LEASEQ_TEST_MYSQL_DSN: a database DB_bi<run> of its own when the
#             user may create it (tests/servers/mariadb.sh grants DB_%), else the
#             DSN's database itself (the dev servers: one database per developer)
# A missing DSN skips (exit 77), or fails when LEASEQ_REQUIRE_ALL_BACKENDS is set.
#
# Read-only SQLite: as root, file modes do not stop writes, so the case runs
# leasectl as 'nobody' (runuser/setpriv); as another user, chmod does it.
#
# Output: one "ok - ..." / "not ok - ..." line per check; exit 1 if any failed.
# shellcheck disable=SC2016 # single quotes around $(...) are the point
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup badinput
echo "# leasectl bad-input sweep: backend $backend"

# ------------------------------------------------------------------ a space of our own
# with_query DSN PARAM: DSN with a query parameter added.
with_query() {
    if [[ "$1" == *\?* ]]; then echo "$1&$2"; else echo "$1?$2"; fi
}
SPACE=""    # schema (postgres) / database (mysql) this run created
DSN2=""
SPACE2=""   # a second, empty one for the missing-schema case
my_db=""    # mysql: the database the dumps read
mysql_args=()
case $backend in
sqlite)
    dump() { sqlite3 "${DSN#sqlite:}" '.dump lq_lease lq_task lq_task_dead lq_queue lq_schema'; }
    ;;
postgres)
    command -v psql >/dev/null || skip_or_fail "psql is not installed"
    BASE_DSN=$DSN
    SPACE="lq_bi_$RUN_ID"
    SPACE2="lq_bi2_$RUN_ID"
    pgq() { psql "$BASE_DSN" -X -q -v ON_ERROR_STOP=1 -At -c "$1"; }
    pgq "CREATE SCHEMA $SPACE; CREATE SCHEMA $SPACE2" || skip_or_fail "cannot create a schema on the server"
    drop_space() { pgq "DROP SCHEMA IF EXISTS $SPACE CASCADE; DROP SCHEMA IF EXISTS $SPACE2 CASCADE" >/dev/null 2>&1; }
    cleanup_hooks+=(drop_space)
    DSN=$(with_query "$BASE_DSN" "options=-csearch_path%3D$SPACE")
    DSN2=$(with_query "$BASE_DSN" "options=-csearch_path%3D$SPACE2")
    dump() {
        psql "$DSN" -X -At -c 'SELECT * FROM lq_lease ORDER BY 1' -c 'SELECT * FROM lq_task ORDER BY 1' \
            -c 'SELECT * FROM lq_task_dead ORDER BY 1' -c 'SELECT * FROM lq_queue ORDER BY 1' \
            -c 'SELECT * FROM lq_schema ORDER BY 1' 2>&1
    }
    ;;
mysql)
    command -v mysql >/dev/null || skip_or_fail "the mysql client is not installed"
    [[ "$DSN" =~ ^[a-z]+://([^:@/]*)(:([^@]*))?@([^:/]+)(:([0-9]+))?/([^?]+) ]] ||
        skip_or_fail "cannot read $dsn_var"
    m_user=${BASH_REMATCH[1]} m_host=${BASH_REMATCH[4]} m_port=${BASH_REMATCH[6]:-3306} m_db=${BASH_REMATCH[7]}
    export MYSQL_PWD=${BASH_REMATCH[3]}
    mysql_args=(--protocol=TCP -h "$m_host" -P "$m_port" -u "$m_user" -N -B)
    my_db=$m_db
    myq() { mysql "${mysql_args[@]}" -e "$1"; }
    if myq "CREATE DATABASE ${m_db}_bi$RUN_ID" 2>/dev/null; then
        SPACE=${m_db}_bi$RUN_ID
        my_db=$SPACE
        DSN=${DSN/\/$m_db/\/$SPACE}
        if myq "CREATE DATABASE ${m_db}_bi2$RUN_ID" 2>/dev/null; then
            SPACE2=${m_db}_bi2$RUN_ID
            DSN2=${DSN/\/$SPACE/\/$SPACE2}
        fi
        drop_space() {
            myq "DROP DATABASE IF EXISTS $SPACE" >/dev/null 2>&1
            [[ -z "$SPACE2" ]] || myq "DROP DATABASE IF EXISTS $SPACE2" >/dev/null 2>&1
        }
        cleanup_hooks+=(drop_space)
    else
        echo "# note: cannot create a database of our own; using $m_db as it is (the missing-schema case needs a second database and is not run)"
    fi
    dump() { # one client start for the five tables
        mysql "${mysql_args[@]}" "$my_db" -e "SELECT * FROM lq_lease ORDER BY 1; SELECT * FROM lq_task ORDER BY 1;
            SELECT * FROM lq_task_dead ORDER BY 1; SELECT * FROM lq_queue ORDER BY 1; SELECT * FROM lq_schema ORDER BY 1" 2>&1
    }
    ;;
esac

[[ $backend != sqlite ]] || DSN2="sqlite:$T/fresh.db"

begin; run migrate; want_rc 0
end "migrate the test's own space"

# ------------------------------------------------------------------ the case runner
ncases=0
# check_common RC: the contract for a refused command.
check_common() {
    want_rc "$1"
    want_err_line
    want_out_empty
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/err" "$T/out"; then
        why+=("raw control characters in the output")
    fi
    if grep -q -F -- "$SECRET" "$T/err" "$T/out"; then
        why+=("the password $SECRET was printed")
    fi
}
SECRET="Pw9sEcReT77"
# refused_unchanged RC ERE DESC ARGS...: leasectl --db DSN ARGS... is
# refused with RC and one line on stderr matching ERE, and the tables are
# what they were.
# refused_unchanged_raw: the same without --db (the case gives its own).
refused_unchanged() { refused run "$@"; }
refused_unchanged_raw() { refused run_raw "$@"; }
# The dump after one case is the dump before the next, unless anything ran
# in between: every run/run_raw and schema_sql marks the last dump stale.
# (A dump costs a client start and five queries; 112 cases, twice each.)
dump_fresh=0
eval "run_raw_undumped() $(declare -f run_raw | sed 1d)"
run_raw() { dump_fresh=0; run_raw_undumped "$@"; }
refused() {
    local how=$1 rc=$2 re=$3 desc=$4
    shift 4
    begin
    if [[ $dump_fresh == 1 ]]; then
        mv "$T/after" "$T/before"
    else
        dump >"$T/before" 2>&1
    fi
    "$how" "$@"
    check_common "$rc"
    [[ -z "$re" ]] || want_err "$re"
    dump >"$T/after" 2>&1
    dump_fresh=1
    cmp -s "$T/before" "$T/after" || why+=("the tables changed: $( { diff "$T/before" "$T/after" || true; } | head -n 4 | tr "\n" " ")")
    ncases=$((ncases + 1))
    end "case $ncases: $desc -> exit $rc, one line, nothing changed"
}

LONG=$(printf 'n%.0s' $(seq 1 256))
BADUTF=$'\xff\xfeab'
ESCNAME=$'esc\e[2J\a\rname'
# A held lease and a task to aim commands at.
run lease acquire held --ttl 1h; HELD=$(cat "$T/out")
run --json task add victim --payload keep; VID=$(json_get "$T/out" id)
run lease acquire "$ESCNAME" --ttl 1h

# ================================================================== names
refused_unchanged 64 'empty' "lease acquire with an empty name" lease acquire "" --ttl 1h
refused_unchanged 64 'empty' "task add with an empty name" task add ""
refused_unchanged 64 'queue.*empty|empty.*queue' "task add with an empty queue" task add x --queue ""
refused_unchanged 64 'lease show|empty' "lease show with an empty name" lease show ""
refused_unchanged 64 'empty' "lease break with an empty name" lease break ""
refused_unchanged 64 'empty' "exec with an empty lease name" exec "" -- true
refused_unchanged 64 '255' "lease acquire, name of 256 bytes" lease acquire "$LONG" --ttl 1h
refused_unchanged 64 '255' "task add, name of 256 bytes" task add "$LONG"
refused_unchanged 64 '255' "task add, queue of 256 bytes" task add x --queue "$LONG"
refused_unchanged 64 '255' "task add, unique key of 256 bytes" task add x --unique "$LONG"
refused_unchanged 64 '255' "queue pause, name of 256 bytes" queue pause "$LONG"
refused_unchanged 64 'UTF-8' "lease acquire, invalid UTF-8" lease acquire "$BADUTF" --ttl 1h
refused_unchanged 64 'UTF-8' "task add, invalid UTF-8 name" task add "$BADUTF"
refused_unchanged 64 'UTF-8' "task add, invalid UTF-8 queue" task add x --queue "$BADUTF"
refused_unchanged 64 'UTF-8' "queue pause, invalid UTF-8" queue pause "$BADUTF"
refused_unchanged 64 'UTF-8' "lease acquire --owner, invalid UTF-8" lease acquire ok --ttl 1h --owner "$BADUTF"
refused_unchanged 64 'handle' "lease release, a handle whose name has %00 (NUL)" lease release 'lq1:1:a%00b:o'
refused_unchanged 75 'held' "lease acquire of a held lease whose name has escapes (escaped in the message)" lease acquire "$ESCNAME" --ttl 1h
refused_unchanged 75 'held' "exec on a held lease" exec held -- true
refused_unchanged 75 'held' "--json lease acquire of a held lease" --json lease acquire held --ttl 1h

# ================================================================== durations
refused_unchanged 64 'ttl' "--ttl 0" lease acquire d --ttl 0
refused_unchanged 64 'ttl' "--ttl -1s" lease acquire d --ttl -1s
refused_unchanged 64 'ttl' "--ttl 1x" lease acquire d --ttl 1x
refused_unchanged 64 'ttl' "--ttl 999999999999d" lease acquire d --ttl 999999999999d
refused_unchanged 64 'ttl' "--ttl empty" lease acquire d --ttl ""
refused_unchanged 64 'ttl' "--ttl 1.5s" lease acquire d --ttl 1.5s
refused_unchanged 64 'ttl' "--ttl 367d (over LQ_TTL_MAX)" lease acquire d --ttl 367d
refused_unchanged 64 'wait' "--wait 1x" lease acquire d --ttl 1h --wait 1x
refused_unchanged 64 'ttl' "lease renew --ttl 0" lease renew "$HELD" --ttl 0
refused_unchanged 64 'ttl' "exec --ttl 0" exec d --ttl 0 -- true
refused_unchanged 64 'min-hold' "exec --min-hold 1x" exec d --min-hold 1x -- true
refused_unchanged 64 'in' "task add --in 1x" task add d --in 1x
refused_unchanged 64 'in' "task add --in -5s" task add d --in -5s
refused_unchanged 64 'every' "task add --every 0" task add d --every 0
refused_unchanged 64 'every' "task add --every junk" task add d --every junk
refused_unchanged 64 'budget' "tick --budget 1x" tick --budget 1x
refused_unchanged 64 'claim-ttl' "worker --claim-ttl 0" worker --at-least-once --claim-ttl 0 --drain

# ================================================================== payloads
head -c $((8 * 1024 * 1024 + 1)) /dev/zero >"$T/big"
refused_unchanged 64 'payload|8' "task add, payload file over the 8 MiB cap" task add d --payload-file "$T/big"
refused_unchanged 66 'payload-file .*nope: No such file' "task add, payload file missing" task add d --payload-file "$T/nope"
refused_unchanged 64 'payload' "task add --payload and --payload-file together" task add d --payload x --payload-file "$T/big"

# ================================================================== cron and zones
refused_unchanged 64 'cron' "cron with 6 fields" task add d --cron '* * * * * *'
refused_unchanged 64 'cron|61' "cron minute 61" task add d --cron '61 * * * *'
refused_unchanged 64 'cron|step|0' "cron step */0" task add d --cron '*/0 * * * *'
refused_unchanged 64 'cron' "cron junk" task add d --cron 'junk'
refused_unchanged 64 'cron' "cron empty" task add d --cron ''
refused_unchanged 64 'cron' "cron @yearly2" task add d --cron '@yearly2'
refused_unchanged 64 'Mars|zone|tz' "zone Mars/Olympus" task add d --cron '@daily' --tz Mars/Olympus
refused_unchanged 64 'passwd|zone|tz' "zone ../../etc/passwd" task add d --cron '@daily' --tz ../../etc/passwd
refused_unchanged 64 'zone|tz' "zone empty" task add d --cron '@daily' --tz ''
refused_unchanged 64 'missed' "--missed bogus" task add d --cron '@daily' --missed bogus
refused_unchanged 64 'every|cron' "--every and --cron together" task add d --every 1m --cron '@daily'

# ================================================================== task options
refused_unchanged 64 'in|at' "task add --in and --at together" task add d --in 5s --at 2030-01-01T00:00:00Z
refused_unchanged 64 'at' "task add --at garbage" task add d --at 'next tuesday'
refused_unchanged 64 'at' "task add --at empty" task add d --at ''
refused_unchanged 64 'max.attempts' "task add --max-attempts 0" task add d --max-attempts 0
refused_unchanged 64 'max.attempts' "task add --max-attempts 1001" task add d --max-attempts 1001
refused_unchanged 64 'max.attempts' "task add --max-attempts x" task add d --max-attempts x
refused_unchanged 64 '-j|jobs|slots' "worker -j 0" worker -j 0 --drain
refused_unchanged 64 '-j|jobs|slots' "worker -j 10000" worker -j 10000 --drain
refused_unchanged 64 'handler' "worker --handler without '='" worker --handler foo --drain
refused_unchanged 64 'handler' "tick --handler without '='" tick --handler foo
refused_unchanged 64 'handler' "worker --handler with an empty name" worker --handler '=true' --drain

# ================================================================== task ids
refused_unchanged 64 'task id|abc' "task show abc" task show abc
refused_unchanged 64 'task id|-1|option' "task show -1" task show -1
refused_unchanged 64 'task id' "task show 2^74" task show 99999999999999999999999
refused_unchanged 64 'task id' "task rm 0" task rm 0
refused_unchanged 64 'task id' "task retry 1e3" task retry 1e3
refused_unchanged 64 'task id' "task pause ''" task pause ''
refused_unchanged 1 'not found' "task show of a missing id" task show 999999999
refused_unchanged 1 'not found' "task rm of a missing id" task rm 999999999

# ================================================================== lease handles
refused_unchanged 64 'handle' "handle lq1:" lease release 'lq1:'
refused_unchanged 64 'handle' "handle lq1:0:a:b" lease release 'lq1:0:a:b'
refused_unchanged 64 'handle' "handle lq1:-1:a:b" lease release 'lq1:-1:a:b'
refused_unchanged 64 'handle' "handle with extra colons" lease release 'lq1:1:a:b:c'
refused_unchanged 64 'handle' "handle with a bad %XX" lease renew 'lq1:1:a%zz:b' --ttl 1h
refused_unchanged 64 'handle' "handle empty" lease release ''
refused_unchanged 64 'handle' "handle of another version" lease release 'lq9:1:a:b'

# ================================================================== usage
refused_unchanged 64 'frobnicate|command' "unknown command" frobnicate
refused_unchanged 64 'bogus|option' "unknown flag of lease acquire" lease acquire d --ttl 1h --bogus
refused_unchanged 64 'bogus|option' "unknown flag of task add" task add d --bogus
refused_unchanged 64 'bogus|option' "unknown global flag" --bogus lease list
refused_unchanged 64 'missing|NAME|usage' "lease acquire without a name" lease acquire
refused_unchanged 64 'missing|HANDLE|usage' "lease renew without a handle" lease renew
refused_unchanged 64 'missing|ID|usage' "task show without an id" task show
refused_unchanged 64 'missing|usage|queue' "queue pause without a name" queue pause
refused_unchanged 64 'missing|COMMAND' "exec with an empty command" exec d --
refused_unchanged 64 'ttl' "--json with a bad --ttl" --json lease acquire d --ttl 0
refused_unchanged 64 'empty' "--json with an empty name" --json task add ""
refused_unchanged 64 'format' "stats --format bogus" stats --format bogus
refused_unchanged 64 'older-than.*required' "prune without --older-than" prune
refused_unchanged 64 'older-than.*invalid duration' "prune --older-than bogus" prune --older-than bogus
refused_unchanged 64 'older-than' "prune --older-than -1d" prune --older-than -1d
refused_unchanged 64 'queue.*empty|empty.*queue' "prune with an empty queue" prune --older-than 1d --queue ""

# exec: the command's own status when it cannot be run; the lease is handed back.
: >"$T/noexec"
chmod 0644 "$T/noexec"
refused_unchanged 127 'nonexistent' "exec of a missing command" exec d -- "$T/nonexistent"
refused_unchanged 126 'noexec|permission' "exec of a non-executable file" exec d -- "$T/noexec"

# ================================================================== lost (3)
run lease acquire lost --ttl 1h; LOSTH=$(cat "$T/out")
run lease break lost
refused_unchanged 3 'lost' "lease renew after a break" lease renew "$LOSTH" --ttl 1h
refused_unchanged 3 'lost' "lease release after a break" lease release "$LOSTH"

# ================================================================== DSNs
refused_unchanged_raw 64 'dsn|bogus|scheme' "unknown DSN scheme" --db "bogus://u:$SECRET@h/db" lease list
refused_unchanged_raw 64 'sqlite|path|empty' "sqlite: with an empty path" --db "sqlite:" lease list
refused_unchanged_raw 64 'memory' "sqlite::memory: refused" --db "sqlite::memory:" lease list
refused_unchanged_raw 64 'dsn|url|host|port' "malformed URL" --db "mysql://u:$SECRET@[::1/db" lease list
refused_unchanged_raw 64 'dsn|port' "mysql:// with a non-numeric port" --db "mysql://u:$SECRET@127.0.0.1:port/db" lease list
# A closed port: 127.0.0.1:1 refuses at once; unreachable is 69.
refused_unchanged_raw 69 '' "postgresql:// to a closed port" --db "postgresql://u:$SECRET@127.0.0.1:1/db?connect_timeout=5" lease list
refused_unchanged_raw 69 '' "mysql:// to a closed port" --db "mysql://u:$SECRET@127.0.0.1:1/db" lease list
refused_unchanged_raw 69 '' "--json, postgresql:// to a closed port" --json --db "postgresql://u:$SECRET@127.0.0.1:1/db" task add x
refused_unchanged_raw 69 '' "--json, mysql:// to a closed port" --json --db "mysql://u:$SECRET@127.0.0.1:1/db" lease acquire x --ttl 1h
refused_unchanged_raw 69 '' "LEASEQ_DSN with a password, closed port" --db "mariadb://u:$SECRET@127.0.0.1:1/db" task list

# A wrong password on the real server: 69, the password never printed.
if [[ $backend != sqlite && "$DSN" =~ ^([a-z]+://[^:@/]*):[^@]*(@.*)$ ]]; then
    WRONG="${BASH_REMATCH[1]}:$SECRET${BASH_REMATCH[2]}"
    refused_unchanged_raw 69 'denied|authentication|password' "a wrong password" --db "$WRONG" lease list
    refused_unchanged_raw 69 'denied|authentication|password' "--json, a wrong password" --json --db "$WRONG" task add x
fi

# ================================================================== schema
# missing: a fresh space
if [[ -n "$DSN2" ]]; then
    refused_unchanged_raw 1 'leasectl migrate' "missing schema (fresh database): lease acquire" --db "$DSN2" lease acquire x --ttl 1h
    refused_unchanged_raw 1 'leasectl migrate' "missing schema (fresh database): task add" --db "$DSN2" task add x
fi
# newer: the version raised past what this leasectl knows; restored after.
schema_sql() { # SQL: run in our own space
    dump_fresh=0
    case $backend in
    sqlite) sqlite3 "${DSN#sqlite:}" "$1" ;;
    postgres) psql "$DSN" -X -q -v ON_ERROR_STOP=1 -c "$1" ;;
    mysql) mysql "${mysql_args[@]}" "$my_db" -e "$1" ;;
    esac
}
schema_sql "INSERT INTO lq_schema (version, name, applied_at) VALUES (9999, '9999_future', 0)"
refused_unchanged 1 'schema|newer|version' "newer schema: lease acquire refuses" lease acquire x --ttl 1h
refused_unchanged 1 'schema|newer|version' "newer schema: task add refuses" task add x
refused_unchanged 1 'schema|newer|version' "newer schema: migrate refuses" migrate
schema_sql "DELETE FROM lq_schema WHERE version = 9999"
# older: the last step forgotten; restored after.
schema_sql "CREATE TABLE lq_bi_keep AS SELECT * FROM lq_schema WHERE version = (SELECT m FROM (SELECT MAX(version) AS m FROM lq_schema) x)"
schema_sql "DELETE FROM lq_schema WHERE version = (SELECT m FROM (SELECT MAX(version) AS m FROM lq_schema) x)"
if [[ $(case $backend in sqlite) sqlite3 "${DSN#sqlite:}" 'SELECT COUNT(*) FROM lq_schema' ;; postgres) psql "$DSN" -X -At -c 'SELECT COUNT(*) FROM lq_schema' ;; mysql) mysql "${mysql_args[@]}" "$my_db" -e 'SELECT COUNT(*) FROM lq_schema' ;; esac) -gt 0 ]]; then
    refused_unchanged 1 'leasectl migrate|older|schema' "older schema: lease acquire asks for migrate" lease acquire x --ttl 1h
fi
schema_sql "INSERT INTO lq_schema SELECT * FROM lq_bi_keep"
schema_sql "DROP TABLE lq_bi_keep"

# read-only SQLite
if [[ $backend == sqlite ]]; then
    RO="$T/ro"
    mkdir "$RO"
    run_raw --db "sqlite:$RO/ro.db" migrate
    run_raw --db "sqlite:$RO/ro.db" task add before
    as_ro=()
    if [[ $(id -u) == 0 ]]; then
        # root writes through file modes: run as an unprivileged user instead
        if command -v runuser >/dev/null; then as_ro=(runuser -u nobody --); else as_ro=(setpriv --reuid=nobody --regid=nogroup --clear-groups); fi
        chmod 0755 "$T" "$RO"
        chmod 0644 "$RO"/ro.db*
    else
        chmod 0444 "$RO"/ro.db*
        chmod 0555 "$RO"
    fi
    sqlite3 "$RO/ro.db" .dump >"$T/ro.before"
    begin
    LAST_CMD="(as an unprivileged user) leasectl task add x on a read-only file"
    RC=0
    "${as_ro[@]}" timeout -k 5 "$TMO" "$LEASECTL" --db "sqlite:$RO/ro.db" task add x </dev/null >"$T/out" 2>"$T/err" || RC=$?
    # Refused at open: permission denied (77), not "unreachable" (69).
    check_common 77
    want_err 'permission denied'
    sqlite3 "$RO/ro.db" .dump >"$T/ro.after"
    cmp -s "$T/ro.before" "$T/ro.after" || why+=("the read-only database changed")
    ncases=$((ncases + 1))
    end "case $ncases: task add on a read-only SQLite file -> exit 77, one line, nothing changed"
    chmod -R u+w "$RO"
fi

# ================================================================== what must work, verbatim
begin
for nm in a 'a ' A; do
    run --json lease acquire "$nm" --ttl 1h
    [[ $RC == 0 ]] || why+=("lease acquire '$nm' exited $RC")
done
run --json lease list
for nm in a 'a ' A; do json_has "$T/out" name "$nm" || why+=("lease '$nm' is not listed"); done
cnt=$(json_all "$T/out" name | grep -c -x -E 'a|a |A' || true)
want "$([[ $cnt == 3 ]] && echo 1)" "$cnt rows for a / 'a ' / A, expected 3"
end "'a', 'a ' and 'A' are three different leases"

META=("'; DROP TABLE lq_task; --" '%' '_' 'back\slash\\' '$(touch pwned)' '`touch pwned`' 'x; touch pwned')
cd "$T"
begin
for nm in "${META[@]}"; do
    run --json task add "$nm" --queue "$nm" --payload "$nm" --unique "$nm"
    [[ $RC == 0 ]] || { why+=("task add '$nm' exited $RC"); continue; }
    id=$(json_get "$T/out" id)
    run --json task show "$id"
    json_has "$T/out" name "$nm" || why+=("task $id: name is not '$nm'")
    json_has "$T/out" queue "$nm" || why+=("task $id: queue is not '$nm'")
    json_has "$T/out" payload "$nm" || why+=("task $id: payload is not '$nm'")
    run --json lease acquire "$nm" --ttl 1h
    [[ $RC == 0 ]] || why+=("lease acquire '$nm' exited $RC")
done
run --json lease show '_'
json_has "$T/out" name '_' || why+=("lease show _ did not show the lease '_'")
run --json lease show '%'
json_has "$T/out" name '%' || why+=("lease show % did not show the lease '%'")
run --json task list --queue '%'
[[ $(ids "$T/out" | wc -l) == 1 ]] || why+=("task list --queue % lists $(ids "$T/out" | wc -l) tasks, expected 1 (no wildcard)")
run task list
run lease list
[[ ! -e "$T/pwned" ]] || why+=("a metacharacter name was run by a shell")
run task list
[[ $RC == 0 ]] || why+=("task list exited $RC after the metacharacter names (is lq_task gone?)")
end "SQL and shell metacharacters stored and shown verbatim, never run, no wildcard matches"
cd - >/dev/null

begin
run --json task add "$ESCNAME" --queue esc
run task list --queue esc
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out" && why+=("task list prints raw control characters")
want_out_fixed '\x1b[2J'
run lease list
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out" && why+=("lease list prints raw control characters")
run lease show "$ESCNAME"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out" && why+=("lease show prints raw control characters")
run --json lease show "$ESCNAME"
json_has "$T/out" name "$ESCNAME" || why+=("--json lease show does not give the name back")
end "terminal escapes (ESC [2J, BEL, CR) are printed escaped in text output, kept in --json"

begin
head -c 4096 /dev/urandom >"$T/bin"
printf 'a\0b\0\0\xff' >>"$T/bin"
run --json task add bin --queue binq --payload-file "$T/bin"
id=$(json_get "$T/out" id)
run --json task show "$id"
if [[ $have_py == 1 ]]; then
    py -c 'import base64,json,sys; d=json.load(open(sys.argv[1]))
b=base64.b64decode(d["payload_base64"]) if "payload_base64" in d else d["payload"].encode()
sys.exit(0 if b==open(sys.argv[2],"rb").read() else 1)' "$T/out" "$T/bin" 2>/dev/null ||
        why+=("the binary payload did not round-trip through --json task show")
fi
run task show "$id"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out" && why+=("task show prints a binary payload raw")
end "a binary payload (NUL, 0xff) round-trips intact"

# SQLite files are created 0600 (the database, -wal and -shm).
if [[ $backend == sqlite ]]; then
    begin
    (umask 022 && "$LEASECTL" --db "sqlite:$T/mode.db" migrate >/dev/null 2>&1) || why+=("migrate of a new file failed")
    for f in "$T"/mode.db "$T"/mode.db-wal "$T"/mode.db-shm; do
        [[ ! -e "$f" ]] || [[ $(stat -c %a "$f") == 600 ]] || why+=("${f##*/} is mode $(stat -c %a "$f")")
    done
    end "a new SQLite database (and its -wal/-shm) is created mode 0600 under umask 022"
fi

begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the database password"

echo "# $ncases bad-input cases on $backend"
finish
