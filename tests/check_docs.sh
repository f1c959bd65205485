#!/usr/bin/env bash
# tests/check_docs.sh - the help, the manual pages and tools/leasectl.md do
# not drift apart.  Run by ctest with LEASECTL=<path to
# leasectl> and MANDIR=<build dir with leasectl.1 and leaseq.3>.  Fails when
#   1. the generated reference in tools/leasectl.md differs from
#      `leasectl help --markdown` (fix: tools/update-docs);
#   2. a manual page makes groff warn, or lacks a command.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-docs.XXXXXX")
trap 'rm -rf "$T"' EXIT

sed -n '/^<!-- BEGIN generated reference -->$/,$p' "$src/tools/leasectl.md" | tail -n +2 >"$T/in-file"
"$LEASECTL" help --markdown >"$T/generated"
if cmp -s "$T/in-file" "$T/generated"; then
    echo "ok - tools/leasectl.md's reference is what 'leasectl help --markdown' prints"
else
    not_ok "tools/leasectl.md's reference differs from the --help texts (run tools/update-docs):"
    diff -u "$T/in-file" "$T/generated" | head -20 | sed 's/^/#   /'
fi

for page in leasectl.1 leaseq.3; do
    f="$MANDIR/$page"
    if [[ ! -s "$f" ]]; then
        not_ok "$page was not built"
        continue
    fi
    if command -v groff >/dev/null 2>&1; then
        w=$(groff -man -Tutf8 -ww -z "$f" 2>&1 || true)
        [[ -z "$w" ]] && echo "ok - $page: groff -ww has no warning" || not_ok "$page: groff warns: $(head -3 <<<"$w" | tr '\n' '|')"
    fi
done
missing=""
for cmd in $("$LEASECTL" --help | sed -n -E 's/^  ([a-z]+) .*/\1/p'); do
    grep -q -F ".SS \"leasectl $cmd" "$MANDIR/leasectl.1" || missing+="$cmd "
done
[[ -z "$missing" ]] && echo "ok - leasectl.1 has a section for every command" || not_ok "leasectl.1 lacks: $missing"
exit $fail
