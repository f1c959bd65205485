#!/usr/bin/env bash
# tests/check_systemd.sh - the systemd units in dist/systemd/.
# Run by ctest as `bash tests/check_systemd.sh` with
# LEASECTL=<path to the built leasectl>.  Fails when
#   1. `systemd-analyze verify` reports anything for a unit (a copy whose
#      ExecStart names the built leasectl: verify checks that it exists);
#   2. the worker template lacks what a graceful stop needs: SIGTERM to the
#      worker alone (KillMode=mixed), and a TimeoutStopSec longer than the
#      worker's grace for a running handler (STOP_GRACE_MS + KILL_GRACE_MS
#      in tools/leasectl_worker.c), or lacks the hardening it promises;
#   3. the example exec service counts "held elsewhere" (75) as a failure.
# systemd-analyze missing skips (exit 77), or fails when
# LEASEQ_REQUIRE_ALL_BACKENDS is set (tests/run installs systemd).
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LEASECTL=$(cd "$(dirname "${LEASECTL:?set LEASECTL}")" && pwd)/$(basename "$LEASECTL")
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "# systemd-analyze is not installed"
    [[ -n "${LEASEQ_REQUIRE_ALL_BACKENDS:-}" ]] && exit 1
    exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-systemd.XXXXXX")
trap 'rm -rf "$T"' EXIT

units=()
for f in "$src"/dist/systemd/*.service "$src"/dist/systemd/*.timer; do
    sed "s#/usr/bin/leasectl#$LEASECTL#g" "$f" >"$T/$(basename "$f")"
    case $f in
    *@.service) units+=("$T/$(basename "${f%@.service}")@check.service") ;;
    *) units+=("$T/$(basename "$f")") ;;
    esac
done

# 1. verify: any output is a finding (unknown keys and bad values are only
# warnings to systemd, with exit status 0)
out=$(cd "$T" && systemd-analyze verify --man=no "${units[@]}" 2>&1) && rc=0 || rc=$?
if [[ $rc == 0 && -z "$out" ]]; then
    echo "ok - systemd-analyze verify: ${#units[@]} units, no finding"
else
    not_ok "systemd-analyze verify (exit $rc): $(printf '%s' "$out" | tr '\n' '|')"
fi

# 2. the worker template
w="$src/dist/systemd/leasectl-worker@.service"
key() { sed -n "s/^$1=//p" "$w" | tail -1; }
grace_ms=0
for g in $(sed -n -E 's/^#define (STOP|KILL)_GRACE_MS ([0-9]+).*/\2/p' "$src/tools/leasectl_worker.c"); do
    grace_ms=$((grace_ms + g))
done
stop=$(key TimeoutStopSec)
stop_s=${stop%s}
why=()
[[ "$(key KillMode)" == mixed ]] || why+=("KillMode is '$(key KillMode)', not mixed: systemd would signal the handlers itself")
[[ "$(key KillSignal)" == SIGTERM ]] || why+=("KillSignal is not SIGTERM")
[[ "$stop_s" =~ ^[0-9]+$ && $((stop_s * 1000)) -gt ${grace_ms:-0} ]] ||
    why+=("TimeoutStopSec=$stop is not longer than the worker's grace of ${grace_ms} ms")
for k in NoNewPrivileges=yes ProtectSystem=full PrivateTmp=yes Restart=on-failure "RestartPreventExitStatus=64 65 66 73 77"; do
    grep -q -x "$k" "$w" || why+=("no $k")
done
if [[ ${#why[@]} == 0 ]]; then
    echo "ok - leasectl-worker@.service: KillMode=mixed, TimeoutStopSec=$stop > grace ${grace_ms} ms, hardened, restarts but not on bad flags"
else
    not_ok "leasectl-worker@.service: $(IFS=';'; echo "${why[*]}")"
fi

# 3. the exec example: 75 is another host running it
e="$src/dist/systemd/nightly-report.service"
if grep -q -x 'SuccessExitStatus=75' "$e" && grep -q -E '^ExecStart=/usr/bin/leasectl exec ' "$e"; then
    echo "ok - nightly-report.service runs leasectl exec and counts 75 (held elsewhere) as success"
else
    not_ok "nightly-report.service: no 'leasectl exec' ExecStart or no SuccessExitStatus=75"
fi
exit $fail
