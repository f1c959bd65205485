#!/usr/bin/env bash
# tests/cli_history.sh BACKEND - `leasectl task history`:
# runs recorded by a worker (done once, a failure with its error, dead on
# the last attempt), filters by task id, --name, --queue, --since and
# --limit, --json fields, the counts of `stats`, `prune` of the history,
# and bad input (exit 64, one line, nothing read).  Run by ctest as
# `bash tests/cli_history.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every queue name is unique to this run.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup history
Q="hist_${RUN_ID}"
echo "# leasectl task history: backend $backend, queue $Q"

begin; run migrate; want_rc 0; end "migrate: exit 0"

begin
run --json task add ok --queue "$Q"
OK=$(json_get "$T/out" id)
run --json task add bad --queue "$Q" --max-attempts 2
BAD=$(json_get "$T/out" id)
run worker --queue "$Q" --drain --at-least-once --handler ok=true --handler 'bad=echo disk full >&2; exit 3'
run task retry "$BAD"
run worker --queue "$Q" --drain --at-least-once --handler 'bad=exit 4'
run --json task history "$OK"
want_rc 0
[[ "$(json_all "$T/out" outcome | tr '\n' ' ')" == "done " ]] || why+=("task $OK: outcomes '$(json_all "$T/out" outcome | tr '\n' ' ')', expected one done")
[[ "$(json_get "$T/out" attempt)" == 1 && "$(json_get "$T/out" name)" == ok && "$(json_get "$T/out" queue)" == "$Q" ]] ||
    why+=("task $OK: $(excerpt "$T/out")")
json_keys "$T/out" id task_id run_at queue name worker attempt started_at ended_at outcome error ||
    why+=("--json lacks a field: $(excerpt "$T/out")")
run --json task history "$BAD"
[[ "$(json_all "$T/out" outcome | tr '\n' ' ')" == "dead failed " ]] ||
    why+=("task $BAD: outcomes '$(json_all "$T/out" outcome | tr '\n' ' ')', expected dead failed (newest first)")
json_has "$T/out" error "handler exited with status 3" || why+=("the first failure's error is not recorded: $(excerpt "$T/out")")
end "task history ID --json: one done run for a task that succeeded; failed then dead, with their errors"

begin
run task history --queue "$Q"
want_rc 0
[[ $(grep -c "$Q" "$T/out") == 3 ]] || why+=("--queue: expected 3 runs: $(excerpt "$T/out")")
head -1 "$T/out" | grep -q "OUTCOME" || why+=("no header line")
run --json task history --queue "$Q" --name bad --since 1h
[[ $(json_all "$T/out" id | wc -l) == 2 ]] || why+=("--name bad --since 1h: expected 2 runs")
run --json task history --queue "$Q" --limit 1
[[ $(json_all "$T/out" id | wc -l) == 1 && "$(json_get "$T/out" outcome)" == dead ]] || why+=("--limit 1: expected the newest run only")
run task history --queue "nobody_$RUN_ID"
want_rc 0; want_out "^no runs$"
end "task history --queue / --name / --since / --limit: the matching runs, newest first"

begin
run --json stats
want_rc 0
for k in done failed timed_out dead; do
    v=$(py -c "import json,sys; print(json.load(open(sys.argv[1]))['runs_last_hour']['$k'])" "$T/out" 2>/dev/null || echo "")
    [[ "$v" =~ ^[0-9]+$ ]] || why+=("stats --json has no runs_last_hour.$k")
done
run stats
want_out "^runs, last hour: [0-9]+ done, [0-9]+ failed, [0-9]+ timed out, [0-9]+ dead, [0-9]+ cancelled$"
end "stats: the runs of the last hour by outcome (text and JSON)"

begin
run task history 1 --queue "$Q"; want_rc 64; want_err_line
run task history --since soon; want_rc 64; want_err_line
run task history --limit 0; want_rc 64; want_err_line
run task history --queue ""; want_rc 64; want_err_line
run task history abc; want_rc 64; want_err_line
end "bad input: ID with --queue, a bad --since, --limit 0, an empty queue, a bad id: exit 64, one line"

begin
run --json prune --older-than 1h --queue "$Q"
want_rc 0
[[ "$(json_get "$T/out" runs_removed)" == 0 ]] || why+=("--older-than 1h removed $(json_get "$T/out" runs_removed) runs")
sleep 0.1
run prune --older-than 0s --queue "$Q"
want_rc 0; want_out "^pruned 3 runs$"
run task history --queue "$Q"
want_out "^no runs$"
end "prune --older-than: removes the history of the queue by age, nothing younger"

# A failed run written at once, before the done at-most-once run that ended
# earlier (those rows are kept back and written together): both are listed,
# without a filter and with each filter.  (After the prune above: on a fresh
# database these are then the only runs.)
M="histmix_${RUN_ID}"
begin
run task add ok --queue "$M"
run task add bad --queue "$M" --max-attempts 1
run worker --queue "$M" --drain --handler ok=true --handler bad=false
want_rc_in 0 1
mix_runs() { # FILE -> "name:outcome" of queue $M's runs in it, sorted
    py -c 'import json,sys
print(" ".join(sorted(r["name"] + ":" + r["outcome"] for r in json.load(open(sys.argv[1])) if r["queue"] == sys.argv[2])))' "$1" "$M"
}
run --json task history
[[ "$(mix_runs "$T/out")" == "bad:dead ok:done" ]] || why+=("no filter: runs '$(mix_runs "$T/out")', expected bad:dead ok:done")
run task history
grep -q "$M .*bad .*dead" "$T/out" || why+=("no filter, text: no dead run of bad")
run --json task history --name bad
[[ "$(mix_runs "$T/out")" == "bad:dead" ]] || why+=("--name bad: runs '$(mix_runs "$T/out")', expected bad:dead")
run --json task history --queue "$M"
[[ "$(mix_runs "$T/out")" == "bad:dead ok:done" ]] || why+=("--queue: runs '$(mix_runs "$T/out")', expected bad:dead ok:done")
run --json task history --since 1h
[[ "$(mix_runs "$T/out")" == "bad:dead ok:done" ]] || why+=("--since 1h: runs '$(mix_runs "$T/out")', expected bad:dead ok:done")
run --json task history --queue "$M" --name bad --since 1h
[[ "$(mix_runs "$T/out")" == "bad:dead" ]] || why+=("--queue --name --since: runs '$(mix_runs "$T/out")', expected bad:dead")
end "task history: a failed run written before the kept-back done runs is listed, with every filter"
run prune --older-than 0s --queue "$M"

run task list --queue "$Q"
for id in $(ids "$T/out" 2>/dev/null); do run task rm "$id"; done
finish
