#!/usr/bin/env bash
# tests/check_docs.sh - the help, the manual pages and the written docs do
# not drift apart.  Run by ctest with LEASECTL=<path to leasectl> and
# MANDIR=<build dir with leasectl.1 and leaseq.3>.  Fails when
#   1. the generated reference in tools/leasectl.md differs from
#      `leasectl help --markdown` (fix: tools/update-docs);
#   2. a manual page makes groff warn, or lacks a command;
#   3. a fenced ```sh or ```python block of README.md or docs/*.md fails
#      when run on SQLite in a scratch directory (a block marked
#      ```sh no-run: REASON is skipped and counted; see docs/testing.md;
#      python blocks run when the build made the Python module);
#   4. the README's layout block lists a directory that does not exist, or
#      leaves out a top-level directory of the repository;
#   5. leasectl.1, as man renders it 80 columns wide, has a line wider than
#      80, more or fewer than one global options section, or an environment
#      variable that tools/ or lib/ read (getenv) missing from ENVIRONMENT.
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

# 5. leasectl.1 reads as a man page.
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 MAN_KEEP_FORMATTING='' man -l "$MANDIR/leasectl.1" 2>/dev/null | col -bx >"$T/man.txt"
    wide=$(awk 'length > 80' "$T/man.txt")
    [[ -z "$wide" ]] && echo "ok - leasectl.1 fits 80 columns" ||
        not_ok "leasectl.1 has $(wc -l <<<"$wide") lines wider than 80 columns, e.g. $(head -1 <<<"$wide")"
    n=$(grep -c -i -E '^ *global options' "$T/man.txt" || true)
    [[ "$n" == 1 ]] && echo "ok - leasectl.1 has one global options section" ||
        not_ok "leasectl.1 has $n global options sections, not 1"
    sed -n '/^ENVIRONMENT$/,/^[A-Z][A-Z ]*$/p' "$T/man.txt" | sed '1d;$d' >"$T/man-env"
    unlisted=""
    for v in $(grep -rhoE 'getenv\("[A-Za-z_0-9]+"\)' "$src/tools" "$src/lib" | sed -E 's/getenv\("(.*)"\)/\1/' | sort -u); do
        grep -q -w -- "$v" "$T/man-env" || unlisted+="$v "
    done
    [[ -z "$unlisted" ]] && echo "ok - leasectl.1's ENVIRONMENT names every variable leasectl reads" ||
        not_ok "leasectl.1's ENVIRONMENT lacks: $unlisted"
else
    echo "# man is not installed: leasectl.1's layout is not checked"
fi

# 3. Every sh (and python) block of the pages runs, each on its own, in an
# empty scratch directory with a migrated sqlite:leaseq.db (the default DSN)
# and the built leasectl first on PATH.  The fence's length is kept so that a ```` block
# that shows a ``` fence is one block.
mkdir -p "$T/bin" "$T/blocks"
ln -s "$LEASECTL" "$T/bin/leasectl"
for page in "$src/README.md" "$src"/docs/*.md; do
    awk -v page="${page#"$src"/}" -v out="$T/blocks" '
        function fence(s) { match(s, /^`+/); return RLENGTH }
        !inb && /^```/ {
            inb = 1; n = fence($0); info = substr($0, n + 1)
            if (info ~ /^(sh|python)( |$)/) {
                lang = info ~ /^sh/ ? "sh" : "py"
                k++; f = sprintf("%s/%04d", out, ++seq)
                printf "%s\t%s:%d\t%s\n", lang, page, NR, substr(info, lang == "sh" ? 3 : 7) >(out "/" sprintf("%04d", seq) ".meta")
                close(out "/" sprintf("%04d", seq) ".meta")
                cur = f "." lang; printf "" >cur
            } else cur = ""
            next
        }
        inb && /^`+[ \t]*$/ && fence($0) >= n { inb = 0; if (cur != "") close(cur); cur = ""; next }
        inb && cur != "" { print >cur }
    ' seq="$(find "$T/blocks" -name '*.meta' | wc -l)" "$page"
done
ran=0 skipped=0 failed=0
declare -A why=()
for meta in "$T"/blocks/*.meta; do
    [[ -e "$meta" ]] || continue
    IFS=$'\t' read -r lang where info <"$meta"
    info=${info# }
    if [[ "$info" =~ ^no-run:\ *(.+)$ ]]; then
        skipped=$((skipped + 1))
        r=${BASH_REMATCH[1]}
        why[$r]=$(( ${why[$r]:-0} + 1 ))
        continue
    elif [[ -n "$info" ]]; then
        not_ok "$where: a $lang block's info string is '$info'; only 'no-run: REASON' is known"
        continue
    fi
    run=(bash -e)
    if [[ $lang == py ]]; then
        # Python blocks run with the interpreter and module the build made
        # (LEASEQ_DOCS_PYTHON, LEASEQ_DOCS_PYTHONPATH), when it made them.
        if [[ -z "${LEASEQ_DOCS_PYTHON:-}" ]]; then
            skipped=$((skipped + 1))
            why["the Python module is not built"]=$(( ${why["the Python module is not built"]:-0} + 1 ))
            continue
        fi
        # LEASEQ_DOCS_PYTHON_ENV: NAME=VALUE words the interpreter needs besides,
        # e.g. the sanitizer runtimes preloaded for a module built with them.
        # shellcheck disable=SC2206  # words on purpose
        run=(env PYTHONPATH="$LEASEQ_DOCS_PYTHONPATH" PYTHONDONTWRITEBYTECODE=1 ${LEASEQ_DOCS_PYTHON_ENV:-} "$LEASEQ_DOCS_PYTHON")
    fi
    d="$T/run/${meta##*/}"
    d=${d%.meta}
    mkdir -p "$d"
    (cd "$d" && "$LEASECTL" --db sqlite:leaseq.db migrate >/dev/null)
    if (cd "$d" && env -u LEASEQ_DSN HOME="$d" PATH="$T/bin:$PATH" timeout 60 "${run[@]}" "${meta%.meta}.$lang") >"$d.out" 2>&1; then
        ran=$((ran + 1))
    else
        failed=$((failed + 1))
        not_ok "$where: the $lang block failed; its last lines:"
        tail -n 6 "$d.out" | sed 's/^/#   /'
    fi
done
echo "# doc examples: $ran sh and python blocks ran, $failed failed, $skipped skipped"
for r in "${!why[@]}"; do echo "#   skipped ${why[$r]}: $r"; done | sort
[[ $failed -eq 0 && $ran -gt 0 ]] && echo "ok - every runnable sh and python block of README.md and docs/*.md runs"

# 4. The layout block: each directory it names exists (an entry indented
# under another is inside it; <dialect> stands for any name), and each
# top-level directory of the repository is named.
awk '/^## Layout$/ { on = 1; next } on && /^```/ { if (inb) exit; inb = 1; next } inb { print }' "$src/README.md" >"$T/layout"
[[ -s "$T/layout" ]] || not_ok "README.md has no code block under '## Layout'"
declare -a stack=()
listed=""
while IFS= read -r line; do
    [[ "$line" =~ ^(\ *)([^\ ]+/)(\ |$) ]] || continue
    indent=${#BASH_REMATCH[1]} entry=${BASH_REMATCH[2]}
    level=$((indent / 2))
    stack=("${stack[@]:0:level}")
    path=""
    for p in "${stack[@]}"; do path+="$p"; done
    path+="$entry"
    stack+=("$entry")
    listed+="${path%%/*} "
    pattern=$(sed -E 's/<[a-z]+>/*/g' <<<"$path")
    found=0
    for m in "$src"/$pattern; do [[ -d "$m" ]] && found=1; done
    [[ $found -eq 1 ]] || not_ok "the layout lists $path, which is not a directory"
done <"$T/layout"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    tops=$(git -C "$src" ls-files | sed -n 's|^\([^/]*\)/.*|\1|p' | sort -u)
else
    tops=$(cd "$src" && find . -mindepth 1 -maxdepth 1 -type d ! -name .git ! -exec test -e '{}/CMakeCache.txt' ';' -printf '%f\n' | sort)
fi
missing=""
for d in $tops; do
    [[ " $listed " == *" $d "* ]] || missing+="$d/ "
done
[[ -z "$missing" ]] && echo "ok - the README's layout names every top-level directory, and each it names exists" ||
    not_ok "the README's layout leaves out: $missing"
exit $fail
