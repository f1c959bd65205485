#!/usr/bin/env bash
# tests/cli_shared.sh BACKEND - shared leases through leasectl: `lease
# acquire --slots N | --read`, `lease promote|demote`, `lease list/show`
# with every holder, `exec --slots N`, and a name keeping its kind.  Run by
# ctest as `bash tests/cli_shared.sh <backend>` with LEASECTL=<leasectl>.
#
# Outcomes only: exit statuses, handles, holders; waits are bounded.
# Output: one "ok - ..." / "not ok - ..." line per check; exit 1 if any failed.
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"

cli_args "$@"
cli_setup shared

P="sh${RUN_ID}_"
echo "# leasectl shared leases test: backend $backend, prefix $P"

begin; run migrate; want_rc 0
end "migrate"

# holders NAME: how many hold NAME now (lease show --json).
holders() {
    run --json lease show "$1"
    json_all "$T/out" held | grep -c -x true || true
}

# ================================================================== semaphore
S="${P}import"
begin; run lease acquire "$S" --ttl 10m --slots 2; want_rc 0; want_out '^lq2:s:'; h1=$(cat "$T/out")
run lease acquire "$S" --ttl 10m --slots 2; want_rc 0; h2=$(cat "$T/out")
[[ "$h1" != "$h2" ]] || why+=("two slots, one handle")
end "lease acquire --slots 2: two holders, each with its own handle"

begin; run lease acquire "$S" --ttl 10m --slots 2; want_rc 75; want_err_line; want_err 'slots'; want_out_empty
end "the third acquire of 2 slots exits 75 with one line"

begin; run lease list; want_rc 0
n=$(grep -c -F "$S" "$T/out" || true)
want "$((n == 2))" "lease list shows $n lines for $S, expected 2"
want_out 'slot [01]/2'
run --json lease list; json_ok "$T/out" || why+=("lease list --json is not JSON")
json_has "$T/out" kind slot || why+=("no kind slot in lease list --json")
want "$(($(holders "$S") == 2))" "lease show --json: not 2 holders"
run lease show "$S"; want_out 'holders: +2'
end "lease list and lease show show every holder"

begin; run lease renew "$h1" --ttl 1m; want_rc 0; want_out_fixed "$h1"
run lease release "$h1"; want_rc 0
run lease release "$h1"; want_rc 0
run lease acquire "$S" --ttl 10m --slots 2; want_rc 0; h3=$(cat "$T/out")
run lease renew "$h1" --ttl 1m; want_rc 3
end "a released slot is taken again; the old handle is lost (3)"

begin; run lease acquire "$S" --ttl 10m --slots 3; want_rc 64; want_err_line; want_err '2 slots'
run lease acquire "$S" --ttl 10m; want_rc 64; want_err 'semaphore'
run lease acquire "$S" --ttl 10m --read; want_rc 64; want_err 'semaphore'
run lease acquire "$S" --ttl 10m --slots 2 --read; want_rc 64
run lease acquire "${P}x" --ttl 10m --slots 0; want_rc 64
run lease acquire "${P}x" --ttl 10m --slots 1001; want_rc 64
want "$(($(holders "$S") == 2))" "a refused acquire changed the holders"
end "a name keeps its kind: another N, exclusive or --read on a semaphore exit 64"

begin; run lease break "$S"; want_rc 0
run lease renew "$h2" --ttl 1m; want_rc 3
run lease renew "$h3" --ttl 1m; want_rc 3
want "$(($(holders "$S") == 0))" "holders left after break"
end "lease break frees every slot of a semaphore"

# ================================================================== read/write
R="${P}catalog"
begin; run lease acquire "$R" --ttl 10m --read; want_rc 0; want_out '^lq2:r:'; r1=$(cat "$T/out")
run lease acquire "$R" --ttl 10m --read; want_rc 0; r2=$(cat "$T/out")
run lease acquire "$R" --ttl 10m; want_rc 75; want_err_line; want_err 'readers'
want "$(($(holders "$R") == 2))" "two readers not shown"
end "readers share a lease; a writer gets 75"

begin; run lease promote "$r1"; want_rc 75; want_err_line; want_err 'other reader'
run lease release "$r2"; want_rc 0
run lease promote "$r1"; want_rc 0; want_out '^lq1:'; w=$(cat "$T/out")
run lease acquire "$R" --ttl 10m --read; want_rc 75; want_err 'writer'
run lease renew "$r1" --ttl 1m; want_rc 3
end "lease promote: 75 beside other readers, then the write handle; readers kept out"

begin; run --json lease demote "$w"; want_rc 0
json_has "$T/out" kind read || why+=("demote --json: kind is not read")
r3=$(json_get "$T/out" handle)
[[ "$r3" == lq2:r:* ]] || why+=("demote gave handle '$r3'")
run lease acquire "$R" --ttl 10m --read; want_rc 0
run lease acquire "$R" --ttl 10m; want_rc 75
run lease renew "$w" --ttl 1m; want_rc 3
run lease renew "$r3" --ttl 1m; want_rc 0
end "lease demote: a reader again; other readers join, the writer waits"

begin; run lease promote "not-a-handle"; want_rc 64
run lease demote "$r3"; want_rc 64
run lease acquire "$R" --ttl 10m --slots 2; want_rc 64; want_err 'not a semaphore'
end "bad handles and the wrong kind exit 64"

# ================================================================== exec --slots
E="${P}job"
# Each run holds its slot until $T/go exists (bounded by 60 s).
HOLD='echo "$LEASEQ_FENCING_TOKEN $LEASEQ_LEASE"; i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done'
bg e1 exec --slots 2 --ttl 10m "$E" -- sh -c "$HOLD" hold "$T/go"
bg e2 exec --slots 2 --ttl 10m "$E" -- sh -c "$HOLD" hold "$T/go"
for _ in $(seq 1 100); do
    [[ $(holders "$E") == 2 ]] && break
    sleep 0.1
done
begin; want "$(($(holders "$E") == 2))" "the two execs did not both hold a slot"
run exec --slots 2 --ttl 10m "$E" -- true; want_rc 75; want_err 'slots'
run exec --slots 2 --conflict-exit 0 --ttl 10m "$E" -- true; want_rc 0
run exec --slots 3 --ttl 10m "$E" -- true; want_rc 64
touch "$T/go"
end "exec --slots 2: at most two runs at once; the third exits 75 (or --conflict-exit)"

begin; bg_wait e1; want_rc 0; want_out '^1 lq2:s:'
bg_wait e2; want_rc 0; want_out '^1 lq2:s:'
run exec --slots 2 --ttl 10m "$E" -- sh -c 'exit 7'; want_rc 7
end "exec --slots: the command's status; the slot's token and handle in its environment"

finish
