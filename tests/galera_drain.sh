#!/usr/bin/env bash
# tests/galera_drain.sh - workers and execs on every node of a Galera
# cluster at once, as a check: per round, N tasks (GALERA_DRAIN_TASKS,
# default 300) enqueued on node 1, one `leasectl worker --drain` per node and one `leasectl exec` per
# node on the same lease, all at once.  Every task must run exactly once,
# the exec command once (the other execs exit 75), and no worker may die
# (before the fix one in a few rounds stopped with "MySQL error 2006: Server
# has gone away (statement task_candidates)").  GALERA_DRAIN_ROUNDS rounds
# (default 4): the conflicts that broke it are a matter of timing.
#
# Run by ctest as drain_galera through tests/lib/via_galera.sh spread, with
# LEASECTL=<path to leasectl> and LEASEQ_TEST_SPREAD_DSNS (one DSN a node).
# Prints the cluster's conflict counters (wsrep_local_cert_failures,
# wsrep_local_bf_aborts) summed over the nodes when the mariadb client is
# there.
#
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args mysql
cli_setup galera
[[ -n "${LEASEQ_TEST_SPREAD_DSNS:-}" ]] || skip_or_fail "LEASEQ_TEST_SPREAD_DSNS is not set"
read -r -a dsns <<<"$LEASEQ_TEST_SPREAD_DSNS"
tasks=${GALERA_DRAIN_TASKS:-300}
rounds=${GALERA_DRAIN_ROUNDS:-4}
echo "# galera drain: ${#dsns[@]} workers (one per DSN listed), $rounds rounds of $tasks tasks, run $RUN_ID"

run migrate
begin
want_rc 0
end "migrate on node 1"

# The sum of a status counter over the nodes, or "?" without a client.
client=$(command -v mariadb || command -v mysql || true)
counter() { # VARIABLE
    local d sum=0 v re='^mysql://([^:]*):([^@]*)@([^:/]*):([0-9]+)/'
    [[ -n "$client" ]] || { echo "?"; return; }
    for d in "${dsns[@]}"; do
        [[ $d =~ $re ]] || { echo "?"; return; }
        v=$(MYSQL_PWD=${BASH_REMATCH[2]} "$client" --no-defaults -h "${BASH_REMATCH[3]}" \
            -P "${BASH_REMATCH[4]}" -u "${BASH_REMATCH[1]}" -N -B \
            -e "SHOW GLOBAL STATUS LIKE '$1'" 2>/dev/null | awk '{print $2}')
        [[ $v =~ ^[0-9]+$ ]] || { echo "?"; return; }
        sum=$((sum + v))
    done
    echo "$sum"
}
delta() { # BEFORE AFTER
    if [[ $1 == "?" || $2 == "?" ]]; then echo "?"; else echo $(($2 - $1)); fi
}

for r in $(seq 1 "$rounds"); do
    q="gd${RUN_ID}_$r"
    lease="gd${RUN_ID}_nightly_$r"
    for i in $(seq 1 "$tasks"); do
        printf '{"name":"job","queue":"%s"}\n' "$q"
    done >"$T/tasks.jsonl"
    run task add --from "$T/tasks.jsonl"
    begin
    want_rc 0
    end "round $r: $tasks tasks enqueued on node 1"

    : >"$T/ran"
    : >"$T/exec"
    cert0=$(counter wsrep_local_cert_failures)
    bf0=$(counter wsrep_local_bf_aborts)
    t0=$(date +%s%N)
    pids=()
    for i in "${!dsns[@]}"; do
        timeout -k 5 120 "$LEASECTL" --db "${dsns[$i]}" worker --drain --queue "$q" \
            --handler "job=echo \$LEASEQ_TASK_ID >> '$T/ran'" </dev/null >"$T/w$i.out" 2>"$T/w$i.err" &
        pids+=("$!")
    done
    for i in "${!dsns[@]}"; do
        timeout -k 5 120 "$LEASECTL" --db "${dsns[$i]}" exec --ttl 30s "$lease" -- \
            sh -c "echo $i >> '$T/exec'; sleep 2" </dev/null >"$T/e$i.out" 2>"$T/e$i.err" &
        pids+=("$!")
    done
    codes=()
    for p in "${pids[@]}"; do
        c=0
        wait "$p" || c=$?
        codes+=("$c")
    done
    ms=$((($(date +%s%N) - t0) / 1000000))
    cert=$(delta "$cert0" "$(counter wsrep_local_cert_failures)")
    bf=$(delta "$bf0" "$(counter wsrep_local_bf_aborts)")

    begin
    for i in "${!dsns[@]}"; do
        [[ ${codes[$i]} == 0 ]] || why+=("worker on node $((i + 1)) exited ${codes[$i]}: $(tail -n 2 "$T/w$i.err" | tr '\n' ' ')")
        grep -q 'stopped: idle' "$T/w$i.err" || why+=("worker on node $((i + 1)) did not drain: $(excerpt "$T/w$i.err")")
    done
    end "round $r: every worker drained (none died)"

    runs=$(wc -l <"$T/ran")
    distinct=$(sort -u "$T/ran" | wc -l)
    begin
    want "$((runs == tasks && distinct == tasks))" "$runs runs of $distinct distinct tasks, want $tasks of $tasks"
    end "round $r: each task ran exactly once"

    run --json task list --queue "$q"
    begin
    want_rc 0
    want "$(py -c 'import json,sys; print(int(len(json.load(open(sys.argv[1]))) == 0))' "$T/out")" "tasks left in $q"
    end "round $r: the queue is empty"

    nexec=$(wc -l <"$T/exec")
    n0=0
    n75=0
    for i in "${!dsns[@]}"; do
        c=${codes[$((${#dsns[@]} + i))]}
        [[ $c == 0 ]] && n0=$((n0 + 1))
        [[ $c == 75 ]] && n75=$((n75 + 1))
    done
    begin
    want "$((nexec == 1))" "the exec command ran $nexec times"
    want "$((n0 == 1 && n75 == ${#dsns[@]} - 1))" "exec statuses ${codes[*]:${#dsns[@]}}: want one 0, the others 75"
    end "round $r: exec ran its command once across the nodes"

    per=""
    for i in "${!dsns[@]}"; do
        per="$per $(grep -o 'ran [0-9]*' "$T/w$i.err" | tail -n 1 | tr -dc '0-9')"
    done
    echo "# round $r: $runs runs in $ms ms, per worker:$per; cert failures $cert, BF aborts $bf"
done

finish
