#!/bin/sh
# bindings/php/gen_arginfo.sh [--check] [PHP_CONFIG] - write leaseq_arginfo.h
# from leaseq.stub.php with php-src's own gen_stub.php (shipped by the
# php-dev package beside phpize), or with --check say whether the committed
# leaseq_arginfo.h is what it generates (exit 1 if not).
# gen_stub.php wants nikic/PHP-Parser in a directory beside itself and would
# download it; Debian's php-parser package is used instead, from a scratch
# copy, so nothing is downloaded and the PHP installation is not written to.
set -eu
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
php_config=${1:-php-config}
here=$(cd "$(dirname "$0")" && pwd)
php=$("$php_config" --php-binary)
build="$("$php_config" --prefix)/lib/php/$("$php_config" --phpapi)/build"
[ -f "$build/gen_stub.php" ] || build="$(dirname "$("$php_config" --extension-dir)")/build"
if [ ! -f "$build/gen_stub.php" ]; then
    echo "gen_arginfo.sh: gen_stub.php not found beside phpize (install php-dev)" >&2
    exit 2
fi
parser=$("$php" -r 'echo (string)stream_resolve_include_path("PhpParser/Parser.php");')
if [ -z "$parser" ]; then
    echo "gen_arginfo.sh: PHP-Parser not found on the include path (install php-parser)" >&2
    exit 2
fi
version=$(sed -n 's/^ *\$version = "\([0-9.]*\)";.*/\1/p' "$build/gen_stub.php" | head -n 1)
T=$(mktemp -d "${TMPDIR:-/tmp}/leaseq-arginfo.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp "$build/gen_stub.php" "$T/"
mkdir -p "$T/PHP-Parser-$version/lib"
ln -s "$(dirname "$(dirname "$parser")")/PhpParser" "$T/PHP-Parser-$version/lib/PhpParser"
cp "$here/leaseq.stub.php" "$T/"
"$php" "$T/gen_stub.php" -f "$T/leaseq.stub.php" >/dev/null
if [ $check = 1 ]; then
    if cmp -s "$T/leaseq_arginfo.h" "$here/leaseq_arginfo.h"; then
        echo "ok - leaseq_arginfo.h is what gen_stub.php makes of leaseq.stub.php"
        exit 0
    fi
    echo "not ok - leaseq_arginfo.h differs from gen_stub.php's output (run bindings/php/gen_arginfo.sh):"
    diff -u "$here/leaseq_arginfo.h" "$T/leaseq_arginfo.h" | head -20 | sed 's/^/#   /'
    exit 1
fi
cp "$T/leaseq_arginfo.h" "$here/leaseq_arginfo.h"
