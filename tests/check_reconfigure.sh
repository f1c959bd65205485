#!/usr/bin/env bash
# tests/check_reconfigure.sh - an optional part left out by one configure
# comes back at the next configure once its library is installed.  This is
# the README's order of commands: tools/quickstart configures build/ before
# tests/run installs libmicrohttpd, and tests/run then reuses that tree.
#
# The first configure sees a pkg-config search path without
# libmicrohttpd.pc (as on a machine where it is not installed yet), the
# second sees the machine's own; each prints the "leaseq: optional parts"
# line, which must say serve OFF and then serve ON.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-reconf.XXXXXX")
trap 'rm -rf "$T"' EXIT

pc_dirs=$(pkg-config --variable pc_path pkg-config)
if ! pkg-config --exists libmicrohttpd; then
    echo "not ok - libmicrohttpd.pc is not installed: this check needs it (apt-get install libmicrohttpd-dev)"
    exit 1
fi
mkdir "$T/pc"
IFS=: read -r -a dirs <<<"$pc_dirs"
for d in "${dirs[@]}"; do
    for f in "$d"/*.pc; do
        [[ -e "$f" && "$(basename "$f")" != libmicrohttpd.pc && ! -e "$T/pc/$(basename "$f")" ]] &&
            ln -s "$f" "$T/pc/"
    done
done

parts() { sed -n 's/^-- leaseq: optional parts: //p' "$1"; }

PKG_CONFIG_LIBDIR="$T/pc" PKG_CONFIG_PATH="" \
    cmake -S "$src" -B "$T/b" -DLEASEQ_BUILD_TESTS=OFF >"$T/first.log" 2>&1 ||
    { not_ok "the first configure failed:"; tail -n 20 "$T/first.log"; exit 1; }
first=$(parts "$T/first.log")
[[ "$first" == *"serve OFF"* ]] && echo "ok - without libmicrohttpd: $first" ||
    not_ok "without libmicrohttpd the configure said '$first'"

cmake -S "$src" -B "$T/b" >"$T/second.log" 2>&1 ||
    { not_ok "the second configure failed:"; tail -n 20 "$T/second.log"; exit 1; }
second=$(parts "$T/second.log")
[[ "$second" == *"serve ON"* ]] && echo "ok - once it is there: $second" ||
    not_ok "after libmicrohttpd appeared the configure said '$second' (frozen off by the first configure)"

# What the user asked for explicitly is kept: OFF stays OFF.
cmake -S "$src" -B "$T/b" -DLEASEQ_WITH_SERVE=OFF >"$T/third.log" 2>&1 || not_ok "configure with serve OFF failed"
third=$(parts "$T/third.log")
[[ "$third" == *"serve OFF"* ]] && echo "ok - asked for OFF: $third" || not_ok "-DLEASEQ_WITH_SERVE=OFF gave '$third'"
exit $fail
