#!/usr/bin/env bash
# tests/check_sqlcols.sh - sqlembed fails the build when a statement's result
# columns are not the catalogue's (lib/backend/sql_names.h, X(NAME, COLS)).
# Run by ctest with SQLEMBED set to the sqlembed just built.  For each
# dialect, on a copy of sql/<dialect>/: the copy as it is embeds; with a
# column added to lease_get's select list, with one taken away, and with
# its list written "*", sqlembed fails and names the statement.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${SQLEMBED:?set SQLEMBED to the sqlembed program}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
# embeds DIALECT EXPECT EDIT DESC: sqlembed on a copy of the dialect's SQL
# with the sed EDIT applied to lease_get's block; EXPECT is "ok" or the
# message it must fail with.
embeds() {
    local d=$1 expect=$2 edit=$3 desc=$4
    rm -rf "$tmp/sql" && mkdir "$tmp/sql" && cp "sql/$d/"*.sql "$tmp/sql/"
    cp sql/shared/fragments.sql "$tmp/sql/shared_fragments.sql"
    [[ -z "$edit" ]] || sed -i "/^-- name: lease_get\$/,/;\$/ $edit" "$tmp/sql/lease.sql"
    local rc=0
    "$SQLEMBED" stmts "$tmp/out.c" sym "$tmp/sql/"*.sql 2>"$tmp/err" || rc=$?
    n=$((n + 1))
    if [[ $expect == ok ]]; then
        [[ $rc == 0 ]] && ok "$d: $desc embeds" || not_ok "$d: $desc: sqlembed failed: $(cat "$tmp/err")"
    elif [[ $rc != 0 ]] && grep -q -F -- "$expect" "$tmp/err"; then
        ok "$d: $desc fails: $(head -n 1 "$tmp/err")"
    else
        not_ok "$d: $desc: sqlembed exited $rc, expected a failure saying \"$expect\": $(cat "$tmp/err")"
    fi
}

for d in sqlite postgres mysql; do
    embeds "$d" ok "" "the SQL as it is"
    embeds "$d" "statement lease_get returns 7 columns" "s/expires_at,/expires_at, 0 AS extra,/" \
        "lease_get with a column more"
    embeds "$d" "statement lease_get returns 5 columns" "s/acquired_at, expires_at,/acquired_at,/" \
        "lease_get with a column less"
    embeds "$d" "cannot count the result columns of statement lease_get" \
        "s/name, owner, token, acquired_at, expires_at,/*,/" "lease_get as SELECT *"
done
echo "1..$n"
exit $fail
