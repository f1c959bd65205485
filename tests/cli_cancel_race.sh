#!/usr/bin/env bash
# tests/cli_cancel_race.sh BACKEND - `task cancel` racing real workers:
# two `leasectl worker -j 2` processes, one --at-least-once and one
# at-most-once (the default, whose runs are cancellable too), run short shell
# handlers (each leaves a grandchild `sleep` in its process group) while
# a canceller cancels every task at a random moment: before its claim,
# just after, while it runs, as it finishes, or after it is done.  Each
# round checks: every task ends in exactly one outcome (its last run in the
# history: "cancelled" when its cancel succeeded, "done" when the cancel
# found it finished), nothing was acked after its cancel, no handler
# process or grandchild is left, the queue is empty, and some cancels did
# meet running handlers (over the rounds).  Runs before the last are
# allowed only of the at-least-once kind: a heartbeat that came after its
# 600 ms claim ended (a loaded machine) stops the handler and fails the
# attempt, and the task runs again; any other earlier run is a failure.
# Run by ctest as
# `bash tests/cli_cancel_race.sh <backend>` with LEASECTL=<path to leasectl>.
# Single quotes around $... are deliberate: the handler shells expand them.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup cancelrace
echo "# task cancel racing workers: backend $backend"
MARK="$$${RANDOM}"
NTASKS=20
ROUNDS=3

begin; run migrate; want_rc 0; end "migrate: exit 0"

# The handler runs 0.5 to 0.9 s (by its id), a grandchild sleeping on beside
# it, then stops the grandchild and ends well.
HANDLER='sleep 3'"$MARK"' & sleep 0.$((5 + LEASEQ_TASK_ID % 5)); kill $! 2>/dev/null; wait'

# The task's last outcome and how many of its earlier runs lost their claim
# to a late heartbeat; with any other earlier run, all its outcomes
# (newest first, joined by "+") and the runs.
last_outcome() {
    py -c 'import json,sys
runs = [r for r in json.load(open(sys.argv[1])) if r["task_id"] == int(sys.argv[2])]
late = [r for r in runs[1:] if r["outcome"] == "failed"
        and (r.get("error") or "").startswith("claim lost while the handler ran")]
if runs and len(late) == len(runs) - 1:
    print(runs[0]["outcome"], len(late))
else:
    print("+".join(r["outcome"] for r in runs) or "none", 0,
          " ".join("[%s attempt %s: %s]" % (r["outcome"], r["attempt"], r.get("error")) for r in runs))' \
        "$T/history.json" "$1"
}

total_running=0 total_late=0
for round in $(seq 1 "$ROUNDS"); do
    begin
    Q="cr_${RUN_ID}_$round"
    for i in $(seq 1 "$NTASKS"); do printf '{"name": "cr_job", "queue": "%s"}\n' "$Q"; done >"$T/tasks.jsonl"
    STDIN="$T/tasks.jsonl" run --json task add --from -
    mapfile -t ids < <(py -c 'import json,sys; print("\n".join(str(i) for i in json.load(open(sys.argv[1]))["ids"]))' "$T/out")
    [[ ${#ids[@]} == "$NTASKS" ]] || why+=("task add --from: $(excerpt "$T/out")")
    rm -f "$T"/cancel.*
    # The canceller starts first: the earliest cancels land before any claim.
    # It goes in about the order the workers claim (ids shuffled a little), at
    # about their pace, so that its cancels fall before, during and after
    # the runs.
    (
        for id in $(printf '%s\n' "${ids[@]}" | awk -v seed="$RANDOM" 'BEGIN { srand(seed) } { print NR + 12 * rand() "\t" $0 }' | sort -n | cut -f2); do
            sleep "0.$((RANDOM % 2))$((RANDOM % 10))"
            rc=0
            "$LEASECTL" --db "$DSN" --json task cancel "$id" >"$T/cancel.$id" 2>"$T/cancel.$id.err" || rc=$?
            echo "$rc" >"$T/cancel.$id.rc"
        done
    ) &
    canceller=$!
    child_pids+=("$canceller")
    bg w1 worker --queue "$Q" --drain --at-least-once --claim-ttl 600ms -j 2 --handler "cr_job=$HANDLER"
    bg w2 worker --queue "$Q" --drain -j 2 --handler "cr_job=$HANDLER"
    wait "$canceller" || true
    bg_wait w1
    [[ $RC == 0 ]] || why+=("worker 1 exited $RC: $(excerpt "$T/err")")
    bg_wait w2
    [[ $RC == 0 ]] || why+=("worker 2 exited $RC: $(excerpt "$T/err")")
    # A drained worker may have left before the last cancels; what is left
    # must then be nothing (all cancelled).
    run --json task list --queue "$Q"
    [[ "$(tr -d ' \n' <"$T/out")" == "[]" ]] || why+=("tasks left in the queue: $(excerpt "$T/out")")
    left=$( (pgrep -f "sleep 3$MARK" || true) | wc -l)
    [[ $left == 0 ]] || why+=("$left handler processes still run")
    run --json task history --queue "$Q" --limit 1000
    cp "$T/out" "$T/history.json"
    running=0 waiting=0 finished=0
    for id in "${ids[@]}"; do
        crc=$(cat "$T/cancel.$id.rc" 2>/dev/null || echo none)
        read -r outcome late runs < <(last_outcome "$id")
        total_late=$((total_late + late))
        case "$crc" in
        0)
            [[ "$outcome" == cancelled ]] || why+=("task $id: cancelled, history: '$outcome' $runs")
            if [[ "$(json_get "$T/cancel.$id" running)" == true ]]; then
                running=$((running + 1))
            else
                waiting=$((waiting + 1))
            fi
            ;;
        1)
            grep -q "not found" "$T/cancel.$id.err" || why+=("task $id: cancel exit 1: $(excerpt "$T/cancel.$id.err")")
            [[ "$outcome" == done ]] || why+=("task $id: cancel found it finished, history: '$outcome' $runs")
            finished=$((finished + 1))
            ;;
        *) why+=("task $id: cancel exit $crc: $(excerpt "$T/cancel.$id.err")") ;;
        esac
    done
    total_running=$((total_running + running))
    end "round $round: $NTASKS tasks, 2 workers -j 2, cancels at random moments ($waiting before the claim, $running while claimed, $finished after the end): one outcome each, nothing acked after its cancel, no process left"
done

# The timing is random: a round may miss the running handlers, all of
# them together may not.
begin
((total_running > 0)) || why+=("no cancel of any round met a running handler")
end "the cancels met running handlers ($total_running times in $ROUNDS rounds; $total_late runs lost their claim to a late heartbeat and ran again)"

finish
