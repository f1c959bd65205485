#!/usr/bin/env bash
# tests/cli_partition.sh BACKEND - `task add --partition P` (fair share):
# a worker runs the partitions of a queue in turn, not the biggest first,
# at most once and at least once;
# priority still comes first; the partition is shown by task show (and
# --json) and taken from a --from line; a bad name adds nothing (exit 64).
# Run by ctest as `bash tests/cli_partition.sh <backend>` with
# LEASECTL=<path to leasectl>.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup partition
echo "# task add --partition: backend $backend"
Q="part_${RUN_ID}"
QP="partprio_${RUN_ID}"
QF="partfrom_${RUN_ID}"
QA="partalo_${RUN_ID}"

begin; run migrate; want_rc 0; end "migrate: exit 0"

# The payload is the partition's letter: the tally is whose turn it was.
add() { # QUEUE PARTITION [FLAGS...]
    local q=$1 p=$2
    shift 2
    run task add t --queue "$q" --partition "$p" --payload "$p" "$@"
    [[ $RC == 0 ]] || why+=("task add --partition $p exited $RC: $(excerpt "$T/err")")
}
drain() { # QUEUE [WORKER FLAGS...] -> the worker's tally in $T/tally
    local q=$1
    shift
    : >"$T/tally"
    run worker --queue "$q" --drain "$@" --handler "t=cat >> $(sq "$T/tally")"
    [[ $RC == 0 ]] || why+=("worker --drain exited $RC: $(excerpt "$T/err")")
}

begin
for _ in 1 2 3 4 5 6; do add "$Q" A; done
add "$Q" B; add "$Q" B
add "$Q" C
drain "$Q"
got=$(cat "$T/tally")
[[ $got == ABCABAAAA ]] || why+=("the worker ran $got, not ABCABAAAA")
end "worker: partitions A (6 tasks, oldest), B (2), C (1) run in turn: ABCABAAAA"

# At least once, the worker acks each task in the call that claims the next:
# that claim takes its turn too.
begin
for _ in 1 2 3 4 5 6; do add "$QA" A; done
add "$QA" B; add "$QA" B
add "$QA" C
drain "$QA" --at-least-once
got=$(cat "$T/tally")
[[ $got == ABCABAAAA ]] || why+=("the worker ran $got, not ABCABAAAA")
end "worker --at-least-once: the partitions run in turn too: ABCABAAAA"

begin
add "$QP" A; add "$QP" A; add "$QP" B
add "$QP" B --priority 5
drain "$QP"
got=$(cat "$T/tally")
[[ $got == BABA ]] || why+=("the worker ran $got, not BABA")
end "priority before fair share: B's priority-5 task first, then A and B in turn"

begin
run task add t --queue "$Q" --partition tenant-42 --in 1h
id=$(cat "$T/out")
run task show "$id"; want_rc 0; want_out '^partition: +tenant-42$'
run --json task show "$id"; want_rc 0
[[ $(json_get "$T/out" partition) == tenant-42 ]] || why+=("--json has no \"partition\": \"tenant-42\"")
run task add t --queue "$Q" --in 1h
id2=$(cat "$T/out")
run task show "$id2"; want_rc 0
grep -q '^partition:' "$T/out" && why+=("a task without a partition shows one")
run --json task list --queue "$Q"; want_rc 0
json_has "$T/out" partition tenant-42 || why+=("task list --json has no \"partition\": \"tenant-42\"")
run task rm "$id"; run task rm "$id2"
end "task show, task list: the partition (text and --json); none without one"

begin
run task add t --queue "$Q.dead" --partition tenant-7 --max-attempts 1
id=$(cat "$T/out")
run worker --queue "$Q.dead" --drain --handler 't=exit 3'
run task show "$id"; want_rc 0; want_out '^partition: +tenant-7$'
run --json task list --dead --queue "$Q.dead"; want_rc 0
json_has "$T/out" partition tenant-7 || why+=("task list --dead --json has no \"partition\": \"tenant-7\"")
run task retry "$id"; want_rc 0
run task show "$id"; want_rc 0; want_out '^partition: +tenant-7$'
run task rm "$id"
end "a task out of attempts keeps its partition, dead and retried"

begin
long=$(printf 'p%.0s' $(seq 1 300))
run task add t --queue "$Q" --partition "$long"; want_rc 64; want_err_line; want_err 'partition'
run --json task list --queue "$Q"
[[ $(ids "$T/out" | grep -c . || true) == 0 ]] || why+=("a task was added")
end "task add --partition with a 300-byte name: exit 64, one line naming the partition, nothing added"

begin
printf '{"name":"t","payload":"A","partition":"A"}\n{"name":"t","payload":"A","partition":"A"}\n' >"$T/f.jsonl"
printf '{"name":"t","payload":"B","partition":"B"}\n' >>"$T/f.jsonl"
run task add --from "$T/f.jsonl" --queue "$QF"; want_rc 0
drain "$QF"
got=$(cat "$T/tally")
[[ $got == ABA ]] || why+=("the worker ran $got, not ABA")
end "task add --from: a line's \"partition\" field is the flag's"

finish
