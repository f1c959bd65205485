#!/usr/bin/env bash
# tests/cli_localfiles.sh sqlite - leasectl on local SQLite files that are
# missing, unreadable, read-only, not databases or in a directory nobody may
# write: each gets its own exit status (66 no such file, 65 not a database,
# 73 cannot create, 77 permission denied; never 69, which systemd restarts
# on) and a one-line reason naming the file; read commands never create a
# database and still work on one they may only read.  Also the exit status
# and message for a missing --from / --payload-file.  SQLite only (ctest
# registers it for sqlite alone).
#
# Permissions: root writes through file modes, so the permission cases run
# leasectl as 'nobody' (runuser, else setpriv); as another user, chmod does it.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
[[ $backend == sqlite ]] || { echo "skipped: SQLite only"; exit 77; }
cli_setup localfiles
echo "# leasectl and local database files"

if [[ $(id -u) == 0 ]]; then
    if command -v runuser >/dev/null; then as_user=(runuser -u nobody --); else as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups); fi
    chmod 0755 "$T"
else
    as_user=()
fi
# run_as DSN ARGS...: leasectl --db DSN ARGS... as the unprivileged user.
run_as() {
    local d=$1
    shift
    LAST_CMD="(unprivileged) leasectl --db $d $*"
    RC=0
    "${as_user[@]}" timeout -k 5 "$TMO" "$LEASECTL" --db "$d" "$@" </dev/null >"$T/out" 2>"$T/err" || RC=$?
}
# The unprivileged user's output files must be writable by it.
touch "$T/out" "$T/err"
chmod 0666 "$T/out" "$T/err"
# no_write_access PATH...: make PATHs unwritable for the user that run_as uses.
no_write_access() {
    if [[ ${#as_user[@]} -gt 0 ]]; then chmod go-w "$@"; else chmod a-w "$@"; fi
}

# only_file FILE: FILE is alone in its directory (no -wal/-shm left).
only_file() {
    local f
    for f in "${1%/*}"/*; do
        [[ $f == "$1" ]] || why+=("left behind: $f")
    done
}

# The read commands, each with what it needs.
READS=("task list" "task show 1" "task history" "lease list" "lease show x" "queue list" "stats" "migrate --status")

# ------------------------------------------------------------------ B: a missing file is not created
for cmd in "${READS[@]}"; do
    begin
    # shellcheck disable=SC2086 # the command's words
    run_raw --db "sqlite:$T/typo.db" $cmd
    want_rc 66
    want_err_line
    want_err "sqlite:$T/typo\.db: no such database file"
    want_err "leasectl migrate"
    [[ ! -e "$T/typo.db" ]] || why+=("$cmd created $T/typo.db")
    rm -f "$T/typo.db"
    end "$cmd on a missing file: exit 66, one line, no file left behind"
done

begin
run_raw --db "sqlite:$T/typo.db" doctor
want_rc 2
want_out 'typo\.db.*no such database file'
want_out 'leasectl migrate'
[[ ! -e "$T/typo.db" ]] || why+=("doctor created $T/typo.db")
rm -f "$T/typo.db"
end "doctor on a missing file: critical, says to migrate, no file left behind"

begin
run_raw --db "sqlite:$T/new.db" task add first
[[ $RC != 66 ]] || why+=("task add refused to create the database")
[[ -f "$T/new.db" ]] || why+=("task add did not create the database")
[[ "$(stat -c %a "$T/new.db" 2>/dev/null)" == 600 ]] || why+=("the new file is not mode 0600")
end "task add, a write, may create a missing database (mode 0600)"

begin
run_raw --db "sqlite:$T/mig.db" migrate
want_rc 0
[[ -f "$T/mig.db" ]] || why+=("migrate did not create the database")
end "migrate creates a missing database"

# ------------------------------------------------------------------ A: cannot be created
begin
run_raw --db "sqlite:$T/no/such/dir/x.db" migrate
want_rc 73
want_err_line
want_err "sqlite:$T/no/such/dir/x\.db: cannot create"
want_err 'no such file or directory'
end "migrate into a directory that does not exist: exit 73, one line"

mkdir "$T/locked"
no_write_access "$T/locked"
begin
run_as "sqlite:$T/locked/x.db" task add x
want_rc 73
want_err_line
want_err "sqlite:$T/locked/x\.db: cannot create.*permission denied"
[[ ! -e "$T/locked/x.db" ]] || why+=("a file was left behind")
end "task add where the user may not create the file: exit 73, one line"

# ------------------------------------------------------------------ A: a directory, not a database
mkdir "$T/adir"
for cmd in "task list" "task add x"; do
    begin
    # shellcheck disable=SC2086
    run_raw --db "sqlite:$T/adir" $cmd
    want_rc 65
    want_err_line
    want_err "sqlite:$T/adir: .*directory"
    end "$cmd on a directory: exit 65, one line"
done

# ------------------------------------------------------------------ A: a file that is not a database
printf 'this is not a database, just some text that is long enough to look like a header\n%.0s' 1 2 3 4 5 6 7 8 >"$T/text.db"
cp "$T/text.db" "$T/text.orig"
for cmd in "task list" "task add x" "migrate"; do
    begin
    # shellcheck disable=SC2086
    run_raw --db "sqlite:$T/text.db" $cmd
    want_rc 65
    want_err_line
    want_err "sqlite:$T/text\.db: .*not a database"
    cmp -s "$T/text.db" "$T/text.orig" || why+=("the file changed")
    end "$cmd on a file that is not a database: exit 65, one line, file unchanged"
done
begin
run_raw --db "sqlite:$T/text.db" doctor
want_rc 2
want_out 'not a database'
grep -q -i 'network' "$T/out" && why+=("doctor gives network advice for a local file")
end "doctor on a file that is not a database: critical, no network advice"

# ------------------------------------------------------------------ A: permissions
# An existing database (WAL, closed cleanly: no -wal/-shm left) in a
# directory the user may not write, the file readable but not writable.
RO="$T/ro"
mkdir "$RO"
run_raw --db "sqlite:$RO/ro.db" migrate
run_raw --db "sqlite:$RO/ro.db" task add before
run_raw --db "sqlite:$RO/ro.db" lease acquire x --ttl 1h
chmod 0644 "$RO/ro.db"
no_write_access "$RO" "$RO/ro.db"
[[ ! -e "$RO/ro.db-wal" && ! -e "$RO/ro.db-shm" ]] || echo "# note: -wal/-shm files are present"
sqlite3 "$RO/ro.db" .dump >"$T/ro.before"
chmod 0644 "$RO"/ro.db*
no_write_access "$RO"/ro.db*

for cmd in "${READS[@]}"; do
    begin
    # shellcheck disable=SC2086
    run_as "sqlite:$RO/ro.db" $cmd
    want_rc 0
    end "$cmd on a read-only database in a read-only directory works"
done
begin
run_as "sqlite:$RO/ro.db" --json task list
want_rc 0
want_out '"name": *"before"'
end "task list there shows the task"
begin
run_as "sqlite:$RO/ro.db" doctor
want_rc_in 0 1
grep -q -i 'network' "$T/out" && why+=("doctor gives network advice")
end "doctor on a read-only database in a read-only directory runs (0 or 1)"

for cmd in "task add x" "lease acquire y --ttl 1m" "migrate"; do
    begin
    # shellcheck disable=SC2086
    run_as "sqlite:$RO/ro.db" $cmd
    want_rc 77
    want_err_line
    want_err "sqlite:$RO/ro\.db: permission denied"
    end "$cmd on a read-only database: exit 77, one line"
done
sqlite3 "$RO/ro.db" .dump >"$T/ro.after"
begin
cmp -s "$T/ro.before" "$T/ro.after" || why+=("the read-only database changed")
only_file "$RO/ro.db"
end "the read-only database is unchanged, nothing left beside it"

# The file writable, its directory not: SQLite cannot make its -wal/-shm files.
RD="$T/rd"
mkdir "$RD"
run_raw --db "sqlite:$RD/rd.db" migrate
[[ ${#as_user[@]} -gt 0 ]] && chown nobody "$RD/rd.db"
no_write_access "$RD"
begin
run_as "sqlite:$RD/rd.db" task add x
want_rc 77
want_err_line
want_err "sqlite:$RD/rd\.db: permission denied.*$RD"
end "task add on a writable file in a read-only directory: exit 77, names the directory"
begin
run_as "sqlite:$RD/rd.db" task list
want_rc 0
end "task list there works"

# A reader in a directory it may write: it leaves no -wal/-shm files of
# its own beside a database it may not write (they would stop the owner).
RW="$T/rw"
mkdir "$RW"
run_raw --db "sqlite:$RW/rw.db" migrate
chmod 0777 "$RW"
chmod 0644 "$RW/rw.db"
[[ ${#as_user[@]} -gt 0 ]] || chmod a-w "$RW/rw.db"
begin
run_as "sqlite:$RW/rw.db" task list
want_rc 0
only_file "$RW/rw.db"
end "task list by a user who may only read the file leaves nothing beside it"

# Unreadable: 0600, another user's.
UR="$T/ur"
mkdir "$UR"
run_raw --db "sqlite:$UR/ur.db" migrate
chmod 0755 "$UR"
if [[ ${#as_user[@]} -eq 0 ]]; then chmod 0000 "$UR/ur.db"; fi
for cmd in "task list" "task add x"; do
    begin
    # shellcheck disable=SC2086
    run_as "sqlite:$UR/ur.db" $cmd
    want_rc 77
    want_err_line
    want_err "sqlite:$UR/ur\.db: permission denied"
    end "$cmd on an unreadable database: exit 77, one line"
done
begin
run_as "sqlite:$UR/ur.db" doctor
want_rc 2
want_out 'permission'
grep -q -i 'network' "$T/out" && why+=("doctor gives network advice for a local file")
end "doctor on an unreadable database: critical, permission advice, no network advice"

# ------------------------------------------------------------------ C: a missing input file
begin
run task add --from /nonexistent
want_rc 66
want_err_line
want_err '^leasectl: task add --from /nonexistent: No such file or directory$'
end "task add --from a missing file: exit 66, the file and the reason"
begin
run task add d --payload-file /nonexistent
want_rc 66
want_err_line
want_err '^leasectl: task add --payload-file /nonexistent: No such file or directory$'
end "task add --payload-file a missing file: exit 66, the file and the reason"

finish
