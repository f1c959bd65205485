#!/usr/bin/env bash
# tests/check_abi.sh - the shared library's ABI against the last release's
# (abi/libleaseq.abi, written by tools/update-abi).  Run by ctest with
# LIB=<path to libleaseq.so.X.Y.Z>.  Fails when abidiff finds a change that
# can break a program built against the release while the SONAME is still
# the release's: raise LEASEQ_SOVERSION in CMakeLists.txt (and then run
# tools/update-abi), or make the change compatible (append, do not move).
# Added functions and statuses are compatible and pass.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="$src/abi/libleaseq.abi"
command -v abidiff >/dev/null || { echo "not ok - abidiff not found (apt-get install abigail-tools)"; exit 1; }
[[ -s "$base" ]] || { echo "not ok - $base is missing (tools/update-abi)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-abi.XXXXXX")
trap 'rm -rf "$T"' EXIT

soname_of_base=$(grep -o -m 1 "soname='[^']*'" "$base" | sed "s/soname='//; s/'//")
soname_now=$(objdump -p "$LIB" | awk '$1 == "SONAME" { print $2 }')
# The public header alone: changes to lib/'s other headers are private.
mkdir "$T/pub"
ln -s "$src/lib/leaseq.h" "$T/pub/leaseq.h"
rc=0
abidiff --headers-dir2 "$T/pub" --drop-private-types "$base" "$LIB" >"$T/diff" 2>&1 || rc=$?
# abidiff's status is a bit field: 1 error, 2 usage, 4 a change, 8 an
# incompatible change (removed symbols).  A change of bit 4 alone still
# needs reading: a moved or retyped field, a changed parameter or return
# type, a renumbered enumerator is incompatible for us (docs/api.md); an
# added function, or a field appended at the end of a structure the library
# fills (with LQ_ABI_VERSION raised), is not; abidiff reports such a growth
# under a function returning a pointer to it as "return type changed", so a
# retyped return is found by its "type name changed from".
if (( rc & 3 )); then
    echo "not ok - abidiff failed (status $rc):"
    sed 's/^/#   /' "$T/diff" | head -n 20
    exit 1
fi
why=""
(( rc & 8 )) && why+=" removed symbols;"
# ("no data member change (N filtered)" is abidiff saying that what changed
# in a structure's fields is harmless, e.g. an enumerator appended to the
# type of one: not a change.)
grep -v -E 'no data members? change' "$T/diff" |
    grep -q -E 'offset changed|data member deletion|data members? (change|replacement)|type of .* changed|parameter [0-9]+ of type .* changed from|type name changed from|value changed from|enumerator deletion|[1-9][0-9]* Removed' &&
    why+=" a field moved, removed or retyped, or a signature, enumerator or symbol changed;"
abi_base=$(cat "$src/abi/LQ_ABI_VERSION")
abi_now=$(sed -n -E 's/^#define LQ_ABI_VERSION ([0-9]+).*/\1/p' "$src/lib/leaseq.h")
if grep -q 'type size changed' "$T/diff" && [[ "$abi_now" == "$abi_base" ]]; then
    why+=" a structure grew but LQ_ABI_VERSION is still $abi_now;"
fi
if [[ -n "$why" ]]; then
    if [[ "$soname_now" == "$soname_of_base" ]]; then
        echo "not ok - an incompatible ABI change ($why) and the SONAME is still $soname_now:"
        sed 's/^/#   /' "$T/diff" | head -n 60
        echo "# raise LEASEQ_SOVERSION in CMakeLists.txt, or append instead of changing (docs/api.md)"
        exit 1
    fi
    echo "ok - an incompatible ABI change, with a new SONAME ($soname_of_base -> $soname_now); run tools/update-abi at the release"
    exit 0
fi
if (( rc & 4 )); then
    echo "ok - compatible changes since the $soname_of_base baseline:"
    grep -E '^(Functions changes summary|Variables changes summary)' "$T/diff" | sed 's/^/#   /'
    exit 0
fi
echo "ok - the ABI is the baseline's ($soname_now)"
