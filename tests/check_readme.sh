#!/usr/bin/env bash
# tests/check_readme.sh - the README says what the binary does.  Run by
# ctest with LEASECTL=<path to leasectl>.  Fails when
#   1. the five-minute tour does not run as written (in a scratch directory,
#      with the built leasectl first on PATH, as after tools/quickstart);
#   2. a flag a command's --help lists is missing from the README's
#      "leasectl in brief" synopsis (a command written "CMD …" there defers
#      to its --help);
#   3. a default the README or docs/*.md state differs from the --help's
#      (exec's TTL, wherever a page says "default TTL N");
#   4. a doctor sample (README.md, docs/*.md) shows another schema version
#      than a new SQLite database has.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib/check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readme="$src/README.md"
pages=("$readme" "$src"/docs/*.md)
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-readme.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin" "$T/tour"
ln -s "$LEASECTL" "$T/bin/leasectl"

# The first fenced sh block after a heading.
block_after() { # HEADING
    awk -v h="$1" '$0 == h { on = 1; next } on && /^```sh$/ { inb = 1; next } inb && /^```$/ { exit } inb { print }' "$readme"
}

# 1. The tour, line for line under bash -e.
block_after "## Five-minute tour" >"$T/tour.sh"
[[ -s "$T/tour.sh" ]] || not_ok "no sh block under '## Five-minute tour'"
if (cd "$T/tour" && env -u LEASEQ_DSN PATH="$T/bin:$PATH" bash -e "$T/tour.sh") >"$T/tour.out" 2>&1; then
    ok "the five-minute tour runs as written"
else
    not_ok "the five-minute tour failed (exit $?); its last lines:"
    tail -n 8 "$T/tour.out" | sed 's/^/#   /'
fi

# 2. Every flag of every command in the synopsis.
awk '/^## leasectl in brief$/ { on = 1; next } on && /^```$/ { if (inb) exit; inb = 1; next } inb { print }' "$readme" >"$T/synopsis"
commands=$("$LEASECTL" --help | sed -n -E 's/^      leasectl ([a-z]+ [a-z]+).*/\1/p; s/^  ([a-z]+)   .*/\1/p' | sort -u)
while IFS= read -r cmd; do
    top=${cmd%% *}
    [[ "$top" == help || "$top" == version ]] && continue
    # The synopsis lines of the top-level command, continuation lines included.
    section=$(awk -v t="$top" '
        /^  [a-z]/ { on = ($1 == t) }
        on { print }' "$T/synopsis")
    if [[ -z "$section" ]]; then
        # lease, task, queue: listed by their subcommands only
        [[ "$cmd" == *" "* ]] && continue
        not_ok "the synopsis has no line for '$cmd'"
        continue
    fi
    [[ "$section" =~ ^\ \ $top\ …$ ]] && continue
    # shellcheck disable=SC2086
    flags=$("$LEASECTL" $cmd --help 2>/dev/null | sed -n '/^Options:/,/^$/p' | grep -oE '^  (-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' || true)
    missing=""
    for f in $flags; do
        grep -q -E -- "$f([^a-z-]|$)" <<<"$section" || missing+=" $f"
    done
    [[ -z "$missing" ]] && ok "synopsis of '$cmd' has its flags" || not_ok "synopsis of '$cmd' lacks:$missing"
done <<<"$commands"

# 3. exec's default TTL.
help_ttl=$("$LEASECTL" exec --help | tr '\n' ' ' | grep -oE -- '--ttl DUR [^-]*\(default [0-9a-z]+\)' | grep -oE 'default [0-9a-z]+' | head -n 1 || true)
stated=$(grep -oE 'default TTL [0-9]+ ?[a-z]+' "${pages[@]}" | sed 's/default TTL //; s/ //' || true)
[[ -n "$stated" ]] || not_ok "no page states exec's default TTL"
while IFS= read -r line; do
    [[ -z "$line" ]] && continue
    page=${line%%:*} ttl=${line#*:}
    [[ -n "$help_ttl" && "default $ttl" == "$help_ttl" ]] && ok "exec's default TTL: $ttl in ${page#"$src"/} and --help" ||
        not_ok "exec's default TTL: ${page#"$src"/} says '$ttl', --help '$help_ttl'"
done <<<"$stated"

# 4. The doctor sample's schema version.
(cd "$T" && "$LEASECTL" --db sqlite:v.db migrate >/dev/null)
have=$(cd "$T" && "$LEASECTL" --db sqlite:v.db doctor 2>/dev/null | sed -n -E 's/^ok +schema +version ([0-9]+).*/\1/p' || true)
shown=$(grep -H -E '^ok +schema +version [0-9]+' "${pages[@]}" | sed -E 's/^([^:]*):ok +schema +version ([0-9]+).*/\1:\2/' || true)
[[ -n "$shown" ]] || not_ok "no page shows a doctor sample"
while IFS= read -r line; do
    [[ -z "$line" ]] && continue
    page=${line%%:*} v=${line#*:}
    [[ -n "$have" && "$have" == "$v" ]] && ok "doctor sample in ${page#"$src"/}: schema version $v" ||
        not_ok "doctor sample in ${page#"$src"/} says schema version '$v', a new SQLite database has '$have'"
done <<<"$shown"
exit $fail
