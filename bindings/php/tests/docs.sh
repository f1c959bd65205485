#!/usr/bin/env bash
# bindings/php/tests/docs.sh - every ```php block of docs/php.md runs, as
# tests/check_docs.sh runs the ```sh blocks: each on its own, in an empty
# scratch directory with a migrated sqlite:leaseq.db (the default DSN,
# LEASEQ_DSN unset), with the extension built in LEASEQ_PHP_BUILD loaded.
# The extension's examples run with `php -n`: they need nothing else.  A
# block that requires 'vendor/autoload.php' (the PHP classes' examples)
# finds a vendor/ whose autoload.php loads the package (bindings/php/php)
# and Debian's Symfony components, as Composer's would, and runs with the
# machine's ini (the PDO drivers) less any installed leaseq.so.  A block
# fails when php exits non-zero or prints a warning, notice or
# deprecation.  A block marked ```php no-run: REASON is skipped and counted.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
: "${LEASEQ_PHP_BUILD:?the phpize build directory}" "${LEASECTL:?}"
php=$("${LEASEQ_PHP_CONFIG:-php-config}" --php-binary)
ext="$LEASEQ_PHP_BUILD/modules/leaseq.so"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-phpdocs.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=SCRIPTDIR/../../../tests/symfony/php-env.sh
source "$src/tests/symfony/php-env.sh"
lq_php_without_installed_leaseq "$T/php.d" "$php"
mkdir -p "$T/vendor"
cat >"$T/vendor/autoload.php" <<PHP
<?php
foreach (['Psr/Container', 'Symfony/Component/Lock', 'Symfony/Component/Messenger', 'Symfony/Component/EventDispatcher'] as \$p) {
    require_once "\$p/autoload.php";
}
require_once '$src/bindings/php/php/tests/autoload.php';
PHP
awk -v out="$T" '
    !inb && /^```/ {
        inb = 1; info = substr($0, 4)
        if (info ~ /^php( |$)/) {
            f = sprintf("%s/%04d", out, ++k)
            printf "%d\t%s\n", NR, substr(info, 4) >(f ".meta"); close(f ".meta")
            cur = f ".php"; printf "" >cur
        } else cur = ""
        next
    }
    inb && /^```[ \t]*$/ { inb = 0; if (cur != "") close(cur); cur = ""; next }
    inb && cur != "" { print >cur }
' "$src/docs/php.md"
fail=0 ran=0 skipped=0
for meta in "$T"/*.meta; do
    [[ -e "$meta" ]] || continue
    IFS=$'\t' read -r line info <"$meta"
    info=${info# }
    if [[ "$info" == no-run:* ]]; then
        skipped=$((skipped + 1))
        continue
    fi
    block="${meta%.meta}.php" d="${meta%.meta}.d"
    mkdir -p "$d"
    ini=(-n)
    if grep -q -E "require(_once)?[ (]*['\"]vendor/autoload\.php['\"]" "$block"; then
        ln -s "$T/vendor" "$d/vendor"
        ini=()
    fi
    (cd "$d" && "$LEASECTL" --db sqlite:leaseq.db migrate >/dev/null)
    if (cd "$d" && env -u LEASEQ_DSN timeout 60 "$php" "${ini[@]}" -d "extension=$ext" -d error_reporting=-1 \
        -d display_errors=stderr "$block") >"$d.out" 2>&1 &&
        ! grep -q -E '^(PHP )?(Warning|Notice|Deprecated|Fatal error)' "$d.out"; then
        ran=$((ran + 1))
    else
        fail=1
        echo "not ok - docs/php.md:$line: the php block failed; its last lines:"
        tail -n 6 "$d.out" | sed 's/^/#   /'
    fi
done
echo "# docs/php.md: $ran php blocks ran, $skipped skipped (marked no-run)"
[[ $ran -gt 0 ]] || { echo "not ok - docs/php.md has no php block that ran"; exit 1; }
[[ $fail -eq 0 ]] && echo "ok - every runnable php block of docs/php.md runs"
exit $fail
