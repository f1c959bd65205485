#!/usr/bin/env bash
# tests/symfony/docs.sh - the examples of the PHP classes in docs/php.md run:
# every ```php block marked "no-run: the Composer package's example, run by
# tests/symfony/docs.sh" (ext-leaseq's own checker skips those), each on its
# own in an empty scratch directory with a migrated sqlite:leaseq.db (the
# default DSN, LEASEQ_DSN unset), the extension $LEASEQ_PHP_EXT loaded and
# a vendor/autoload.php that loads the package (bindings/php/php) and
# Debian's Symfony components, as Composer's would.  A block fails when php
# exits non-zero or prints a warning, notice or deprecation.  Exit 77
# without the extension.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
: "${LEASECTL:?the leasectl to migrate with}"
if [[ -z "${LEASEQ_PHP_EXT:-}" || ! -f "$LEASEQ_PHP_EXT" ]]; then
    echo "# skipped: LEASEQ_PHP_EXT must name the built ext-leaseq"
    exit 77
fi
marker="no-run: the Composer package's example, run by tests/symfony/docs.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-phpclasses-docs.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=SCRIPTDIR/php-env.sh
source "$src/tests/symfony/php-env.sh"
lq_php_without_installed_leaseq "$T/php.d"
mkdir -p "$T/vendor"
cat >"$T/vendor/autoload.php" <<PHP
<?php
foreach (['Psr/Container', 'Symfony/Component/Lock', 'Symfony/Component/Messenger', 'Symfony/Component/EventDispatcher'] as \$p) {
    require_once "\$p/autoload.php";
}
require_once '$src/bindings/php/php/tests/autoload.php';
PHP
awk -v out="$T" -v marker="$marker" '
    !inb && /^```/ {
        inb = 1
        if ($0 == "```php " marker) {
            f = sprintf("%s/%04d", out, ++k)
            print NR >(f ".line"); close(f ".line")
            cur = f ".php"; printf "" >cur
        } else cur = ""
        next
    }
    inb && /^```[ \t]*$/ { inb = 0; if (cur != "") close(cur); cur = ""; next }
    inb && cur != "" { print >cur }
' "$src/docs/php.md"
fail=0 ran=0
for block in "$T"/*.php; do
    [[ -e "$block" ]] || continue
    line=$(cat "${block%.php}.line")
    d="${block%.php}.d"
    mkdir -p "$d"
    ln -s "$T/vendor" "$d/vendor"
    (cd "$d" && "$LEASECTL" --db sqlite:leaseq.db migrate >/dev/null)
    if (cd "$d" && env -u LEASEQ_DSN timeout 60 php -d "extension=$LEASEQ_PHP_EXT" -d error_reporting=-1 \
        -d display_errors=stderr "$block") >"$d.out" 2>&1 &&
        ! grep -q -E '^(PHP )?(Warning|Notice|Deprecated|Fatal error)' "$d.out"; then
        ran=$((ran + 1))
    else
        fail=1
        echo "not ok - docs/php.md:$line: the php block failed; its last lines:"
        tail -n 6 "$d.out" | sed 's/^/#   /'
    fi
done
echo "# docs/php.md: $ran examples of the PHP classes ran"
[[ $ran -gt 0 ]] || { echo "not ok - docs/php.md has no example of the PHP classes"; exit 1; }
[[ $fail -eq 0 ]] && echo "ok - every example of the PHP classes in docs/php.md runs"
exit $fail
