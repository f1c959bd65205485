#!/usr/bin/env bash
# tests/check_version.sh - `leasectl version` says which optional parts this
# build has, so a user can see why a command or a DSN scheme is missing.
# ctest passes LEASECTL and LQ_BUILT (the configure's decision, e.g.
# "postgres=ON mysql=ON serve=OFF").
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"

out=$("$LEASECTL" version) || not_ok "leasectl version exited $?"
json=$("$LEASECTL" --json version) || not_ok "leasectl --json version exited $?"
with=$(sed -n 's/^built with: //p' <<<"$out")
without=$(sed -n 's/^built without: //p' <<<"$out")
[[ ", $with," == *", sqlite,"* ]] && ok "sqlite is listed: $with" || not_ok "sqlite missing from '$out'"
for kv in $LQ_BUILT; do
    part=${kv%%=*} want=${kv#*=}
    if [[ $want == ON ]]; then
        [[ ", $with," == *", $part,"* ]] && ok "$part listed as built" || not_ok "$part not in 'built with: $with'"
        want_json=true
    else
        [[ "$without" == *"$part"* ]] && ok "$part listed as left out" || not_ok "$part not in 'built without: $without'"
        want_json=false
    fi
    got=$(python3 -c 'import json,sys; print(str(json.load(sys.stdin)["parts"][sys.argv[1]]).lower())' "$part" <<<"$json") ||
        not_ok "--json version has no parts.$part: $json"
    [[ "$got" == "$want_json" ]] && ok "--json parts.$part is $got" || not_ok "--json parts.$part is '$got', want $want_json"
done
exit $fail
