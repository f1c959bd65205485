#!/usr/bin/env bash
# tests/cli_messages.sh BACKEND - what leasectl says: --help of every command
# (exit 0, on standard output, no line over 80 columns, no option text broken
# mid-phrase), the note on a unique key that is taken, numeric flags checked
# against the library's ranges, times and durations written like the rest,
# a broken lease called broken, a single-value flag given twice refused, exec's
# JSON log levels, and serve's one line when it cannot listen.  Most of it
# does not depend on the backend; it runs on each anyway.  Run by ctest as
# `bash tests/cli_messages.sh <backend>` with LEASECTL=<path to leasectl>.
#
#   sqlite    a database file in a temporary directory
#   postgres  $LEASEQ_TEST_PG_DSN
#   mysql     $LEASEQ_TEST_MYSQL_DSN
# Server databases are shared: every name this run creates starts with $P.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup messages
P="msg${RUN_ID}_"
Q="${P}q"
echo "# leasectl messages: backend $backend, prefix $P"

ISO='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'

begin; run migrate; want_rc 0; end "migrate: exit 0"

# ================================================================== help
# Every command and subcommand the top-level --help lists.
run_raw --help
cmds=()
while IFS= read -r c; do cmds+=("$c"); done < <(
    sed -n '/^Commands:/,/^$/p' "$T/out" |
        sed -n -E 's/^  ([a-z][a-z-]*)  .*/\1/p; s/^      leasectl ([a-z][a-z-]*) ([a-z][a-z-]*)( .*)?$/\1 \2/p')
begin
[[ ${#cmds[@]} -ge 20 ]] || why+=("only ${#cmds[@]} commands found in --help: ${cmds[*]}")
end "leasectl --help lists the commands and subcommands (${#cmds[@]})"

# help_ok DESC: exit 0, text on standard output, nothing on standard error,
# no line over 80 columns, and every line of Arguments/Options indented (a
# line at column 0 there is an option's text broken in two).
help_ok() {
    want_rc 0
    grep -q '[^[:space:]]' "$T/out" || why+=("nothing on standard output")
    [[ ! -s "$T/err" ]] || why+=("standard error: $(excerpt "$T/err")")
    local long
    long=$(LC_ALL=C awk 'length($0) > 80 { printf "%d: %s\n", length($0), $0 }' "$T/out")
    [[ -z "$long" ]] || why+=("lines over 80 columns: $long")
    local broken
    broken=$(awk '/^(Arguments|Options):$/ { inopt = 1; next } /^$/ { inopt = 0 }
        inopt && !/^  / { print }' "$T/out")
    [[ -z "$broken" ]] || why+=("an option's text broken onto a line of its own: $broken")
}
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086 # "task add" is two words
    { begin; run_raw $c --help; help_ok; end "$c --help: exit 0, help on stdout, at most 80 columns"; }
    # shellcheck disable=SC2086
    { begin; run_raw $c -h; help_ok; end "$c -h: exit 0, help on stdout"; }
    # shellcheck disable=SC2086
    { begin; run_raw help $c; help_ok; end "help $c: exit 0, help on stdout"; }
done
begin; run_raw --help; help_ok; end "leasectl --help: at most 80 columns"

begin; run_raw worker --help; want_out_fixed '"timed out after DUR"'
end "worker --help keeps \"timed out after DUR\" on one line"

# ================================================================== unique keys
begin
run task add "${P}u" --queue "$Q" --unique "${P}k"; want_rc 0
first=$(cat "$T/out")
run task add "${P}u" --queue "$Q" --unique "${P}k"; want_rc 0; want_err_line
[[ "$(cat "$T/out")" == "$first" ]] || why+=("stdout is not the first task's id alone ($first)")
want_err "^leasectl: task add: unique key \"${P}k\" is taken by live task $first; nothing added\$"
run --json task add "${P}u" --queue "$Q" --unique "${P}k"; want_rc 0; want_json
[[ "$(json_get "$T/out" existed)" == true ]] || why+=("JSON existed is not true")
[[ "$(json_get "$T/out" id)" == "$first" ]] || why+=("JSON id is not $first")
end "task add --unique twice: exit 0, the id alone on stdout, a note on stderr naming key and task"

# ================================================================== numeric ranges
# count_q: how many live tasks the queue has.
count_q() {
    run --json task list --queue "$Q"
    json_all "$T/out" id | grep -c . || true
}
before=$(count_q)
begin
run task add "${P}m" --queue "$Q" --max-attempts 1001; want_rc 64; want_err_line; want_out_empty
want_err '--max-attempts'; want_err '1 to 1000|1\.\.1000|1-1000'
run task add "${P}m" --queue "$Q" --max-attempts 0; want_rc 64; want_err '--max-attempts'
[[ "$(count_q)" == "$before" ]] || why+=("a task was added")
run task add "${P}m" --queue "$Q" --max-attempts 1000; want_rc 0
end "task add --max-attempts: the library's range (1 to 1000), a usage error naming the flag"

begin
run task add "${P}i" --queue "$Q" --in 40000d; want_rc 64; want_err_line; want_err '--in'
run task add "${P}e" --queue "$Q" --every 5ms; want_rc 64; want_err_line; want_err '--every'
run task add "${P}e" --queue "$Q" --every 4000d; want_rc 64; want_err_line; want_err '--every'
run task add "${P}e" --queue "$Q" --every 400d; want_rc 0
end "task add --in/--every: the library's ranges, usage errors naming the flag"

printf '{"name": "%sf", "queue": "%s", "max_attempts": 5000}\n' "$P" "$Q" >"$T/bad.jsonl"
before=$(count_q)
begin
run task add --from "$T/bad.jsonl"; want_rc 64; want_err_line; want_err 'line 1'; want_err 'max.attempts'
want_err '1000'
[[ "$(count_q)" == "$before" ]] || why+=("a task was added")
end "task add --from with max_attempts over the library's limit: exit 64 naming the line"

# ================================================================== times and durations
# epoch_in_err: the last message shows a raw epoch number (milliseconds)
# where a time belongs.  Lease owners (host:pid/nonce) go first: their
# random hex nonce may hold a dozen digits in a row.
epoch_in_err() {
    sed -E 's#[^ ()]+:[0-9]+/[0-9a-f]+##g' "$T/err" | grep -q -E '(^|[^0-9a-z])[0-9]{12,}([^0-9a-z]|$)'
}

begin
run lease acquire "${P}sem" --slots 1 --ttl 1m; want_rc 0
run lease acquire "${P}sem" --slots 1 --ttl 1m; want_rc 75; want_err_line
want_err "frees at $ISO"
epoch_in_err && why+=("an epoch number in the message")
end "a semaphore with every slot held: 'frees at' an ISO time"

begin
run lease acquire "${P}rw" --ttl 1m; want_rc 0
run lease acquire "${P}rw" --read --ttl 1m; want_rc 75; want_err_line
want_err "until $ISO"
epoch_in_err && why+=("an epoch number in the message")
end "a read lease while a writer holds it: 'until' an ISO time"

# Overdue tasks for doctor, on a queue of their own: one due 30 s ago (under
# a minute, where milliseconds used to show), then one due 125 s ago.
want_err_or_out() { grep -q -E -- "$1" "$T/out" "$T/err" || why+=("no /$1/ in the output"); }
want_overdue_duration() {
    want_err_or_out 'overdue by [0-9]'
    grep -q -E 'overdue by [0-9]+ms' "$T/out" "$T/err" && why+=("'overdue by' in raw milliseconds")
    grep -q -E 'overdue by [0-9]+(d[0-9]+h|d|h[0-9]{2}m|h|m[0-9]{2}s|m|s)[^0-9a-z]' "$T/out" "$T/err" ||
        why+=("'overdue by' not a duration like 2m05s")
}
begin
run task add "${P}late" --queue "${Q}late" --at "$(($(date +%s) - 30))"; want_rc 0
late=$(cat "$T/out")
run doctor --grace 1s; want_overdue_duration
run task add "${P}later" --queue "${Q}late" --at "$(($(date +%s) - 125))"; want_rc 0
later=$(cat "$T/out")
run doctor --grace 1s; want_overdue_duration
run task rm "$late"
run task rm "$later"
end "doctor: 'overdue by' is a duration like 2m05s, not milliseconds"

# ================================================================== lost leases
begin
run lease acquire "${P}brk" --ttl 1m; want_rc 0
h=$(cat "$T/out")
run lease break "${P}brk"; want_rc 0
run lease renew "$h" --ttl 1m; want_rc 3; want_err_line; want_err 'broken'
grep -q -i 'expired and was taken' "$T/err" && why+=("renew says 'expired and was taken'")
run lease release "$h"; want_rc 3; want_err_line; want_err 'broken'
grep -q -i 'expired and was taken' "$T/err" && why+=("release says 'expired and was taken'")
end "renew and release after 'lease break': exit 3, the lease was broken"

begin
run lease acquire "${P}exp" --ttl 200ms; want_rc 0
h=$(cat "$T/out")
sleep 0.5
run lease acquire "${P}exp" --ttl 1m --owner "${P}other"; want_rc 0
run lease renew "$h" --ttl 1m; want_rc 3; want_err_line; want_err 'expired and was taken'
want_err "${P}other"
end "renew after the lease expired and was taken: exit 3, says so and by whom"

# ================================================================== repeated flags
begin
run task list --queue a --queue b; want_rc 64; want_out_empty
[[ "$(cat "$T/err")" == "leasectl: task list: --queue given twice" ]] ||
    why+=("stderr is not 'leasectl: task list: --queue given twice'")
run task list --queue=a --queue b; want_rc 64; want_err_line; want_err '--queue given twice'
end "task list --queue given twice: exit 64 and says so"

begin
run lease acquire "${P}twice" --ttl 1s --ttl 2s; want_rc 64; want_err_line; want_err '--ttl given twice'
run lease show "${P}twice"; want_rc 1
run worker -j 1 -j 2 --drain --queue "${Q}w"; want_rc 64; want_err_line; want_err '-j given twice'
run task add "${P}t" --queue "$Q" --in 1m --in 2m; want_rc 64; want_err '--in given twice'
end "a single-value flag given twice is refused (exit 64, nothing done)"

begin
run worker --drain --queue "${Q}w" --handler "a=true" --handler "b=true"; want_rc 0
end "--handler stays repeatable"

# ================================================================== exec --log-format json
begin
run lease acquire "${P}held" --ttl 1m; want_rc 0
run exec --log-format json "${P}held" -- true; want_rc 75
while IFS= read -r line; do
    if [[ $have_py -eq 1 ]]; then
        py -c 'import json,sys; json.loads(sys.argv[1])' "$line" 2>/dev/null || why+=("not a JSON line: $line")
    fi
done <"$T/err"
grep -q -E '"level": *"(info|notice)"' "$T/err" || why+=("'held elsewhere' is not logged at info or notice")
grep -q -E '"level": *"error"' "$T/err" && why+=("'held elsewhere' is logged at level error")
grep -q -E '"event": *"lease_held"' "$T/err" || why+=("no lease_held event")
end "exec --log-format json on a held lease: exit 75, one JSON line at level notice"

# ================================================================== serve
start_serve "$DSN" || true
if grep -q 'built without' "$T/serve.err"; then
    echo "# serve is not built in: its check is skipped"
else
    begin
    if [[ -z "$PORT" ]]; then
        why+=("the first serve did not start: $(excerpt "$T/serve.err")")
    else
        run serve --listen "127.0.0.1:$PORT"; want_rc 1; want_err_line
        want_err "^leasectl: serve: cannot listen on 127\.0\.0\.1:$PORT: .*in use"
    fi
    end "serve on a port in use: exit 1, one leasectl line naming the address and the reason"
fi
stop_serve
spid=""

# What this run left in its queues goes (other tests share the database).
run --json task list --queue "$Q"
for id in $(json_all "$T/out" id); do run task rm "$id"; done

finish
