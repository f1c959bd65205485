#!/usr/bin/env bash
# tests/cli_roles.sh BACKEND - least-privilege roles (docs/operations.md
# "Servers: versions, privileges, roles"): the test user migrates a space of
# its own as the owner (migrator), then a worker role with row rights only
# runs task add, worker --drain, exec, lease acquire/release, and cannot run
# migrate (one line, nonzero).  Run by ctest as `bash tests/cli_roles.sh
# <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    nothing to do (file permissions: see cli_badinput's 0600 check)
#   postgres  $LEASEQ_TEST_PG_DSN; the user needs CREATEROLE (tests/servers/postgres.sh)
#   mysql     $LEASEQ_TEST_MYSQL_DSN; the user needs CREATE USER, CREATE on DB_%
#             and GRANT OPTION (tests/servers/mariadb.sh)
# Roles, schemas and databases it creates are dropped at the end.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup roles
echo "# least-privilege roles: backend $backend"
if [[ $backend == sqlite ]]; then
    pass "sqlite has no roles: access is the file's mode (0600, checked by cli_badinput)"
    finish
    exit 0
fi

[[ "$DSN" =~ ^([a-z]+)://([^:@/]*)(:([^@]*))?@([^:/]+)(:([0-9]+))?/([^?]+) ]] || skip_or_fail "cannot read $dsn_var"
scheme=${BASH_REMATCH[1]} user=${BASH_REMATCH[2]} pass=${BASH_REMATCH[4]}
host=${BASH_REMATCH[5]} port=${BASH_REMATCH[7]} db=${BASH_REMATCH[8]}
WROLE="lq_w_$RUN_ID"
WPASS="wp$RANDOM$RANDOM"
PASSWORD=$WPASS # the worker's password must not be printed either
hostport=$host${port:+:$port}

begin
case $backend in
postgres)
    S1="lq_r1_$RUN_ID" S2="lq_r2_$RUN_ID"
    sql() { psql "$DSN" -X -q -v ON_ERROR_STOP=1 -c "$1" >"$T/sql.out" 2>&1; }
    undo() {
        sql "DROP SCHEMA IF EXISTS $S1 CASCADE; DROP SCHEMA IF EXISTS $S2 CASCADE" || true
        sql "DROP ROLE IF EXISTS $WROLE" || true
    }
    cleanup_hooks+=(undo)
    sql "CREATE SCHEMA $S1; CREATE SCHEMA $S2; CREATE ROLE $WROLE LOGIN PASSWORD '$WPASS'" ||
        why+=("cannot create the schemas and the worker role (the test user needs CREATEROLE): $(excerpt "$T/sql.out")")
    OWNER_DSN="$scheme://$user:$pass@$hostport/$db?options=-csearch_path%3D$S1"
    W_DSN="$scheme://$WROLE:$WPASS@$hostport/$db?options=-csearch_path%3D$S1"
    W_DSN2="$scheme://$WROLE:$WPASS@$hostport/$db?options=-csearch_path%3D$S2"
    grant() {
        sql "GRANT USAGE ON SCHEMA $S1, $S2 TO $WROLE;
             GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA $S1 TO $WROLE;
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA $S1 TO $WROLE"
    }
    ;;
mysql)
    D1="${db}_r1$RUN_ID" D2="${db}_r2$RUN_ID"
    export MYSQL_PWD=$pass
    sql() { mysql --protocol=TCP -h "$host" -P "${port:-3306}" -u "$user" -e "$1" >"$T/sql.out" 2>&1; }
    undo() {
        sql "DROP DATABASE IF EXISTS $D1" || true
        sql "DROP DATABASE IF EXISTS $D2" || true
        sql "DROP USER IF EXISTS '$WROLE'@'%'" || true
    }
    cleanup_hooks+=(undo)
    sql "CREATE DATABASE $D1; CREATE DATABASE $D2; CREATE USER '$WROLE'@'%' IDENTIFIED BY '$WPASS'" ||
        why+=("cannot create the databases and the worker user (the test user needs CREATE USER and CREATE on ${db}_%): $(excerpt "$T/sql.out")")
    OWNER_DSN="$scheme://$user:$pass@$hostport/$D1"
    W_DSN="$scheme://$WROLE:$WPASS@$hostport/$D1"
    grant() {
        local t g=""
        for t in lq_lease lq_task lq_task_dead lq_queue lq_run lq_counter lq_task_cancel lq_task_running lq_limit lq_partition; do
            g+="GRANT SELECT, INSERT, UPDATE, DELETE ON $D1.$t TO '$WROLE'@'%'; "
        done
        sql "$g GRANT SELECT ON $D1.lq_schema TO '$WROLE'@'%'"
    }
    # MariaDB lets a user with a wildcard database grant (DB_%) re-grant only
    # table by table, on tables that exist: the space for the migrate check
    # is D1 with the record of its last step removed by the owner (each
    # step is safe to run again).
    W_DSN2=$W_DSN
    undo_last_step() { sql "DELETE FROM $D1.lq_schema ORDER BY version DESC LIMIT 1"; }
    ;;
esac
if [[ ${#why[@]} -eq 0 ]]; then
    run_raw --db "$OWNER_DSN" migrate
    want_rc 0
    grant || why+=("the GRANTs failed: $(excerpt "$T/sql.out")")
fi
end "the owner migrates a space of its own and grants the worker role row rights only"
[[ $nfail -eq 0 ]] || finish

begin; run_raw --db "$W_DSN" --json task add job --queue rq; want_rc 0
end "worker role: task add"
begin; run_raw --db "$W_DSN" worker --queue rq --drain --handler 'job=true'; want_rc 0
run_raw --db "$W_DSN" --json task list --queue rq; want_rc 0
[[ -z "$(ids "$T/out")" ]] || why+=("the task is still queued")
end "worker role: worker --drain runs the task"
begin; run_raw --db "$W_DSN" --json task add job2 --queue rq2; want_rc 0
run_raw --db "$W_DSN" worker --queue rq2 --drain --at-least-once --handler 'job2=true'; want_rc 0
run_raw --db "$W_DSN" --json task history --queue rq2; want_rc 0
[[ "$(json_get "$T/out" outcome)" == done ]] || why+=("the run is not in the history as done: $(excerpt "$T/out")")
end "worker role: worker --at-least-once acks and writes the run history"
begin; run_raw --db "$W_DSN" exec --ttl 30s rl -- true; want_rc 0
end "worker role: exec"
begin; run_raw --db "$W_DSN" lease acquire rl2 --ttl 30s; want_rc 0; h=$(cat "$T/out")
run_raw --db "$W_DSN" lease release "$h"; want_rc 0
end "worker role: lease acquire and release"
begin; run_raw --db "$W_DSN" lease break rl2; want_rc_in 0 1
end "worker role: lease break (the admin's right is the worker's)"
[[ $backend != mysql ]] || undo_last_step || echo "# could not undo the last step: $(excerpt "$T/sql.out")"
begin; run_raw --db "$W_DSN2" migrate
want_rc 1; want_err_line; want_err 'migrat|permission|denied|command'
end "worker role: migrate with a step to apply is refused (no DDL): exit 1, one line"

begin
[[ ${#leaks[@]} -eq 0 ]] || why+=("printed by: ${leaks[*]}")
end "no output contained the worker's password"
finish
