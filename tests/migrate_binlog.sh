#!/usr/bin/env bash
# migrate_binlog.sh - leasectl on a MariaDB with binary logging on, as a user
# without SUPER (what a managed server or a Galera node gives an
# application): such a server refuses a trigger or a stored routine from that
# user (error 1419) unless log_bin_trust_function_creators is on, so the
# schema must hold none.
#
#   LEASECTL=path/to/leasectl CONFORMANCE=path/to/conformance migrate_binlog.sh
#
# Starts a private server (tests/servers/mariadb.sh start DIR --binlog; one
# that does not start is a failure) and checks:
#   - `leasectl migrate` on a fresh database, and no trigger or routine made;
#   - the upgrade: a database that also holds what migration 0007 used to
#     make (the two counting triggers and the ack procedure, created by a user
#     with SUPER) has the same schema as a fresh one after `leasectl migrate`
#     (which needs the right that made the triggers to drop them: refused
#     with error 1419 without it);
#   - the conformance groups that count (run: the history and the counters
#     agree exactly; lease and shared: the lease counters) on that server.
# Skips (77) only when no mariadbd is installed and LEASEQ_REQUIRE_ALL_BACKENDS
# is not set.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/cli.sh
source "$HERE/lib/cli.sh"
cli_args mysql
if [[ -z "${CONFORMANCE:-}" || ! -x "$CONFORMANCE" ]]; then
    echo "not ok - CONFORMANCE must name the conformance binary (got '${CONFORMANCE:-}')"
    exit 1
fi
if ! command -v mariadbd >/dev/null 2>&1 && [[ ! -x /usr/sbin/mariadbd ]]; then
    skip_or_fail "mariadbd is not installed"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-binlog.XXXXXX")
SRV=$T/srv
stop_server() { bash "$HERE/servers/mariadb.sh" stop "$SRV" >/dev/null 2>&1; }
cleanup_hooks+=(stop_server)
trap cleanup EXIT
trap 'echo "not ok - internal error in $CLI_SCRIPT at line $LINENO"' ERR
PASSWORD=""
unset LEASEQ_DSN

# root over the server's socket: SQL ARGS... (the mariadb client's)
root_sql() {
    mariadb --no-defaults --socket="$SRV/mysqld.sock" -uroot --batch --skip-column-names "$@"
}

begin
mkdir -p "$SRV"
chmod 755 "$T" "$SRV"
line=$(bash "$HERE/servers/mariadb.sh" start "$SRV" --binlog 2>"$T/srv.err" | tail -n 1 || true)
DSN=${line#LEASEQ_TEST_MYSQL_DSN=}
[[ "$DSN" == mysql://* ]] || DSN=""
want "$([[ -n "$DSN" ]] && echo 1 || echo 0)" "it did not start: $(excerpt "$T/srv.err")"
end "a private MariaDB with binary logging on started"
[[ -n "$DSN" ]] || finish
if [[ "$DSN" =~ ^mysql://[^:/@]*:([^@]*)@ ]]; then
    PASSWORD=${BASH_REMATCH[1]}
fi
DSN_B=${DSN}_b # leaseq_test_b, the server's second database

begin
vars=$(root_sql -e 'SELECT @@log_bin, @@log_bin_trust_function_creators' 2>&1 | tr '\t' ' ')
[[ "$vars" == "1 0" ]] || why+=("log_bin, log_bin_trust_function_creators: '$vars', expected '1 0'")
root_sql -e "SHOW GRANTS FOR 'leaseq'@'127.0.0.1'" >"$T/grants" 2>&1 || why+=("SHOW GRANTS failed: $(excerpt "$T/grants")")
! grep -q -E 'SUPER|ALL PRIVILEGES ON \*\.\*' "$T/grants" || why+=("the test user has SUPER: $(excerpt "$T/grants")")
end "binary logging is on, log_bin_trust_function_creators off, and the test user has no SUPER"

# Every table's SHOW CREATE TABLE (auto-increment counters aside), the
# triggers, routines, events and views, and the steps recorded: DB -> stdout.
schema_of() {
    local db=$1 t
    for t in $(root_sql -e "SELECT table_name FROM information_schema.tables WHERE table_schema = '$db' ORDER BY 1"); do
        root_sql "$db" -e "SHOW CREATE TABLE \`$t\`" | sed -E 's/ AUTO_INCREMENT=[0-9]+//'
    done
    root_sql -e "SELECT 'trigger', trigger_name FROM information_schema.triggers WHERE trigger_schema = '$db'
                 UNION ALL SELECT 'routine', routine_name FROM information_schema.routines WHERE routine_schema = '$db'
                 UNION ALL SELECT 'event', event_name FROM information_schema.events WHERE event_schema = '$db'
                 UNION ALL SELECT 'view', table_name FROM information_schema.views WHERE table_schema = '$db'
                 ORDER BY 1, 2"
    root_sql "$db" -e "SELECT version, name FROM lq_schema ORDER BY version"
}
objects_of() { # DB -> number of triggers and routines
    root_sql -e "SELECT (SELECT count(*) FROM information_schema.triggers WHERE trigger_schema = '$1')
                      + (SELECT count(*) FROM information_schema.routines WHERE routine_schema = '$1')"
}

begin
run migrate
want_rc 0
[[ $RC -ne 0 ]] || [[ "$(objects_of leaseq_test)" == 0 ]] || why+=("the schema holds triggers or routines")
end "leasectl migrate on a fresh database, as a user without SUPER: exit 0, no trigger or routine"

# What migration 0007 made up to schema version 9 that it no longer makes,
# word for word (and lq_counter without a comment): on a server with binary
# logging only a user with SUPER (or any user with
# log_bin_trust_function_creators on) could create it.
old_0007_objects() {
    cat <<'SQL'
ALTER TABLE lq_counter COMMENT = '';
CREATE OR REPLACE TRIGGER lq_run_counted AFTER INSERT ON lq_run FOR EACH ROW
    INSERT INTO lq_counter (metric, queue, name, shard, n)
    VALUES (CONCAT('run_', NEW.outcome), NEW.queue, NEW.name, NEW.id % 8, 1)
    ON DUPLICATE KEY UPDATE n = n + 1;
CREATE OR REPLACE TRIGGER lq_lease_counted BEFORE UPDATE ON lq_lease FOR EACH ROW
    SET NEW.lost = OLD.lost + (NEW.token > OLD.token AND OLD.owner IS NOT NULL AND NEW.owner IS NOT NULL),
        NEW.broken = OLD.broken + (NEW.token > OLD.token AND NEW.owner IS NULL);
DELIMITER //
CREATE OR REPLACE PROCEDURE lq_task_ack_run(IN p_id BIGINT, IN p_owner VARBINARY(255),
                                            IN p_worker VARBINARY(255), IN p_started BIGINT)
    MODIFIES SQL DATA
BEGIN
    DECLARE n INT DEFAULT 0
    ; DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END
    ; START TRANSACTION
    ; INSERT INTO lq_run (task_id, run_at, queue, name, worker, attempt, started_at, ended_at, outcome)
      SELECT id, run_at, queue, name, p_worker, attempts, p_started,
             CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED), 'done'
        FROM lq_task WHERE id = p_id AND claim_owner = p_owner
    ; IF ROW_COUNT() = 1 THEN
          DELETE FROM lq_task WHERE id = p_id AND claim_owner = p_owner
          ; SET n = ROW_COUNT()
          ; IF n <> 1 THEN ROLLBACK; SET n = 0; END IF
      ; END IF
    ; COMMIT
    ; SELECT n
; END//
DELIMITER ;
SQL
}

begin
run_raw --db "$DSN_B" migrate
want_rc 0
# The step that drops those objects (later steps may follow it).
last=$(root_sql leaseq_test_b -e "SELECT name FROM lq_schema WHERE name LIKE '%counted_inline'" 2>&1)
lastv=$(root_sql leaseq_test_b -e "SELECT version FROM lq_schema WHERE name = '$last'" 2>&1)
old_0007_objects | root_sql leaseq_test_b >"$T/old.out" 2>&1 || why+=("could not make the old objects: $(excerpt "$T/old.out")")
[[ "$(objects_of leaseq_test_b)" == 3 ]] || why+=("the old triggers and procedure are not there")
# As if that database had stopped at the step before it.
root_sql leaseq_test_b -e "DELETE FROM lq_schema WHERE version >= ${lastv:-0}" >"$T/old.out" 2>&1 ||
    why+=("could not forget step $last and the later ones: $(excerpt "$T/old.out")")
# Dropping a trigger asks for the right that made it: refused while the
# server does not trust the user, with the reason; done once it does.
run_raw --db "$DSN_B" migrate
want_rc 1
want_err_line
want_err "$last: MySQL error 1419"
root_sql -e 'SET GLOBAL log_bin_trust_function_creators = 1' >"$T/old.out" 2>&1 || why+=("could not trust the user: $(excerpt "$T/old.out")")
run_raw --db "$DSN_B" migrate
want_rc 0
want_out "migrated from version"
root_sql -e 'SET GLOBAL log_bin_trust_function_creators = 0' >"$T/old.out" 2>&1 || why+=("could not distrust the user again: $(excerpt "$T/old.out")")
schema_of leaseq_test >"$T/fresh.schema" 2>&1
schema_of leaseq_test_b >"$T/upgraded.schema" 2>&1
grep -q lq_run "$T/fresh.schema" || why+=("no schema read: $(excerpt "$T/fresh.schema")")
diff -u "$T/fresh.schema" "$T/upgraded.schema" >"$T/schema.diff" || why+=("the schemas differ: $(head -c 600 "$T/schema.diff")")
end "a database with the old 0007's triggers and procedure: migrate refused (1419) until the user is trusted, then the same schema as a fresh one"

# What users of schema 9 met: the old 0007 stopped at its first trigger
# (error 1419), after its tables, at version 6.  This leasectl goes on.
begin
root_sql -e "CREATE DATABASE leaseq_test_c CHARACTER SET utf8mb4" >"$T/c.out" 2>&1 || why+=("$(excerpt "$T/c.out")")
run_raw --db "${DSN}_c" migrate
want_rc 0
root_sql leaseq_test_c -e "ALTER TABLE lq_counter COMMENT = ''; DELETE FROM lq_schema WHERE version >= 7" \
    >"$T/c.out" 2>&1 || why+=("could not stop it at 0007: $(excerpt "$T/c.out")")
run_raw --db "${DSN}_c" migrate
want_rc 0
schema_of leaseq_test_c >"$T/c.schema" 2>&1
diff -u "$T/fresh.schema" "$T/c.schema" >"$T/c.diff" || why+=("the schemas differ: $(head -c 600 "$T/c.diff")")
end "a database where the old 0007 stopped with error 1419 migrates as a plain user, to the same schema"

# The README's migrator: table rights, no TRIGGER, no routine rights.
begin
mpass="mig$RANDOM$RANDOM"
root_sql -e "CREATE DATABASE leaseq_mig; CREATE USER 'leaseq_mig'@'127.0.0.1' IDENTIFIED BY '$mpass';
             GRANT CREATE, ALTER, INDEX, DROP, SELECT, INSERT, UPDATE, DELETE ON leaseq_mig.* TO 'leaseq_mig'@'127.0.0.1'" \
    >"$T/mig.out" 2>&1 || why+=("could not create the migrator: $(excerpt "$T/mig.out")")
run_raw --db "$(sed -E "s#^mysql://[^@]*@#mysql://leaseq_mig:$mpass@#; s#/leaseq_test\$#/leaseq_mig#" <<<"$DSN")" migrate
want_rc 0
[[ "$(objects_of leaseq_mig)" == 0 ]] || why+=("the schema holds triggers or routines")
end "a migrator with table rights only (no TRIGGER, no routine rights) migrates a fresh database"

for group in run lease shared; do
    begin
    LAST_CMD="LQT_GROUP=$group conformance --backend mysql"
    rc=0
    LEASEQ_TEST_MYSQL_DSN=$DSN LQT_GROUP=$group timeout -k 5 600 "$CONFORMANCE" --backend mysql \
        >"$T/out" 2>"$T/err" </dev/null || rc=$?
    [[ $rc -eq 0 ]] || why+=("exit status $rc: $(grep -E '^\[  (FAILED|ERROR) |not ok|FAILED|rror' "$T/out" "$T/err" | head -n 8 | tr '\n' ' ')")
    end "conformance group $group on the server with binary logging"
done

finish
